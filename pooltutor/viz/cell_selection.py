"""Output-cell selection: a grid of buttons that mirrors an explorer's output grid.

Point at an output cell and see where it comes from: each explorer with an
output grid (:class:`~pooltutor.viz.window_stepper.WindowStepper`,
:class:`~pooltutor.viz.padding_explorer.PaddingModeExplorer`,
:class:`~pooltutor.viz.index_explorer.IndexLayoutExplorer`,
:class:`~pooltutor.viz.adaptive_explorer.AdaptiveBinsExplorer`) mixes in
:class:`CellSelection` and shows a :class:`CellChooser` under its picture:
one :class:`ipywidgets.Button` per output cell, labelled with the cell's
value, its tooltip (the button's accessible description) saying
``"output (1, 2) = 9"``.  The buttons are reached with Tab and pressed with
Enter or Space (ipywidgets' Image gives no click coordinates, and no extra
dependency is needed: this works in Voila, in exported notebooks with a
kernel and with the oldest supported ipywidgets).  The chosen cell's button
is bracketed and bold (not colour only).

This module is wiring only: choosing a cell sets the explorer's own controls
(:meth:`CellSelection._apply_cell`, a hook of each explorer), and the
explorer redraws through its plot functions: the window outlined on the
input, the winner marked, the ``explain()`` text under the picture.

The kernel-free form (:func:`cell_picker_frames`) puts a
:class:`ipywidgets.ToggleButtons` (one button per prepared frame) over a
:class:`~pooltutor.viz.explorer.FramesWidget`, its ``index`` linked to the
frames' slider in the browser (:func:`ipywidgets.jslink`): exported slides
pick a cell among the frames without a kernel.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError

__all__ = ["CellChooser", "CellSelection", "OutputGrid", "cell_name", "cell_picker_frames",
           "MAX_CELLS"]

#: Background of the chosen cell's button (white bold text on it: contrast above 10:1).
CHOSEN_COLOR = "#1b4a7a"

#: Most buttons a chooser draws (more: the explorer's own sliders pick the cell).
MAX_CELLS = 400


def cell_name(index: Sequence[int]) -> str:
    """``"(1, 2)"`` for a 2-D cell, ``"3"`` for a 1-D one.

    >>> cell_name((1, 2)), cell_name((3,))
    ('(1, 2)', '3')
    """
    index = tuple(int(i) for i in index)
    return str(index[0]) if len(index) == 1 else "(" + ", ".join(map(str, index)) + ")"


@dataclass(frozen=True)
class OutputGrid:
    """What a chooser mirrors: the output grid an explorer shows now.

    Attributes
    ----------
    shape : tuple of int
        The displayed grid (1-D or 2-D).
    labels : tuple of str
        One button text per cell, row-major (e.g. the value; ``"·"`` for a cell not
        computed yet).
    descriptions : tuple of str
        One description per cell, row-major (the button's tooltip), e.g.
        ``"output (1, 2) = 9"``.
    selected : tuple of int or None
        The chosen cell (None: nothing chosen).
    title : str
        What the grid is (shown left of the buttons).
    """

    shape: tuple[int, ...]
    labels: tuple[str, ...]
    descriptions: tuple[str, ...]
    selected: tuple[int, ...] | None = None
    title: str = "output cell"

    @classmethod
    def of_values(cls, values, selected=None, *, shown=None, title: str = "output cell",
                  prefix: str = "output") -> OutputGrid:
        """A grid of numbers: each button shows its value (``shown`` False: ``"·"``, "not
        computed yet").

        >>> g = OutputGrid.of_values(np.array([[1.0, 2.5]]), (0, 1))
        >>> g.labels, g.descriptions[1]
        (('1', '2.5'), 'output (0, 1) = 2.5')
        """
        from . import style

        values = np.asarray(values)
        shown = np.ones(values.shape, bool) if shown is None else np.asarray(shown, bool)
        labels, descriptions = [], []
        for idx in np.ndindex(*values.shape):
            name = f"{prefix} {cell_name(idx)}"
            if shown[idx]:
                text = style.format_value(values[idx])
                labels.append(text)
                descriptions.append(f"{name} = {text}")
            else:
                labels.append("·")
                descriptions.append(f"{name}: not computed yet")
        return cls(tuple(values.shape), tuple(labels), tuple(descriptions),
                   None if selected is None else tuple(int(i) for i in selected), title)


class CellChooser:
    """Buttons in a grid, one per output cell; pressing one calls ``on_select(index)``.

    Attributes
    ----------
    widget : ipywidgets.VBox
        A heading, the grid of buttons (an ``ipywidgets.GridBox``) and a note.
    buttons : dict
        Cell index (tuple) -> its ``ipywidgets.Button``.
    grid : OutputGrid or None
        What is shown now.
    """

    def __init__(self, on_select):
        import ipywidgets as widgets

        self.on_select = on_select
        self.heading = widgets.HTML(value="")
        self.box = widgets.GridBox([], layout=widgets.Layout(grid_gap="2px"))
        self.note = widgets.HTML(value="")
        self.widget = widgets.VBox([self.heading, self.box, self.note])
        self.widget.add_class("pooltutor-cell-chooser")
        self.buttons: dict[tuple[int, ...], Any] = {}
        self.grid: OutputGrid | None = None
        # Buttons are kept and reused when the grid changes shape (a new stride, a new
        # input size): making ~100 widgets anew on every parameter change cost the browser
        # and the kernel a third of a second.  Button k shows the k-th cell (row-major).
        self._pool: list[Any] = []
        self._cells: list[tuple[int, ...]] = []
        self._shown: dict[int, tuple] = {}

    def show(self, grid: OutputGrid | None, disabled: bool = False) -> None:
        """Mirror ``grid`` (None: no grid, the buttons go); only changed buttons are touched."""
        import ipywidgets as widgets

        self.grid = grid
        if grid is None or int(np.prod(grid.shape)) > MAX_CELLS or len(grid.shape) > 2:
            self.box.children = ()
            self.buttons, self._cells, self._shown = {}, [], {}
            self.note.value = ("" if grid is None else
                               f"<i>{len(grid.shape)}-D output: choose the cell with the "
                               f"sliders</i>" if len(grid.shape) > 2 else
                               f"<i>{int(np.prod(grid.shape))} output cells: too many "
                               f"buttons; choose the cell with the sliders</i>")
            self.heading.value = ""
            return
        cells = [tuple(int(i) for i in idx) for idx in np.ndindex(*grid.shape)]
        while len(self._pool) < len(cells):
            k = len(self._pool)
            button = widgets.Button(layout=widgets.Layout(width="auto", min_width="44px",
                                                          height="30px"))
            button.add_class("pooltutor-cell")
            button.on_click(lambda _, k=k: self.on_select(self._cells[k]))
            self._pool.append(button)
        if cells != self._cells:
            self._cells = cells
            self.buttons = dict(zip(cells, self._pool, strict=False))
            self.box.layout.grid_template_columns = f"repeat({grid.shape[-1]}, max-content)"
            if len(self.box.children) != len(cells):
                self.box.children = self._pool[:len(cells)]
        for k, (cell, label, description) in enumerate(zip(cells, grid.labels,
                                                           grid.descriptions, strict=True)):
            chosen = cell == grid.selected
            look = (f"[{label}]" if chosen else label, description + (" (chosen)" if chosen
                                                                      else ""),
                    chosen, disabled)
            if self._shown.get(k) == look:
                continue
            button = self._pool[k]
            button.description, button.tooltip = look[0], look[1]
            # dark blue, white bold text (contrast 10:1), and the brackets: not colour only
            button.style.button_color = CHOSEN_COLOR if chosen else None
            button.style.text_color = "white" if chosen else None
            button.style.font_weight = "bold" if chosen else "normal"
            button.disabled = disabled
            self._shown[k] = look
        where = (f": {html.escape(cell_name(grid.selected))}" if grid.selected is not None
                 else ": none chosen")
        self.heading.value = (f"<b>{html.escape(grid.title)}</b>{where} "
                              f"<span style=\"color:#555\">(Tab to a cell, Enter or Space "
                              f"to choose it)</span>")
        self.note.value = ""

    def press(self, index) -> None:
        """Press the button of ``index`` (what a click or Enter does; for tests)."""
        self.buttons[tuple(index)].click()


class CellSelection:
    """Mixin of an :class:`~pooltutor.viz.explorer.Explorer` with an output grid.

    The explorer implements two hooks: :meth:`_output_grid` (the grid shown now, with the
    chosen cell) and :meth:`_apply_cell` (set its controls to a valid cell and redraw), and
    calls :meth:`add_cell_chooser` at the end of its ``__init__``.
    """

    cell_chooser: CellChooser | None = None

    # ------------------------------------------------------------ hooks

    def _output_grid(self) -> OutputGrid | None:
        """The output grid shown now (None while there is none)."""
        raise NotImplementedError

    def _apply_cell(self, index: tuple[int, ...]) -> None:
        """Set the controls to the (valid) output cell ``index`` and redraw."""
        raise NotImplementedError

    # ------------------------------------------------------------ public

    @property
    def selected_cell(self) -> tuple[int, ...] | None:
        """The chosen output cell of the grid shown (None: nothing chosen)."""
        grid = self._output_grid() if self.error is None else None
        return None if grid is None else grid.selected

    def select_cell(self, *index) -> None:
        """Choose output cell ``index`` of the grid shown (what pressing its button does).

        Raises :class:`~pooltutor.errors.PoolTutorError` for a cell outside the grid, or
        when the controls are invalid (no grid to choose from).
        """
        if len(index) == 1 and isinstance(index[0], (tuple, list)):
            index = tuple(index[0])
        grid = self._output_grid() if self.error is None else None
        if grid is None:
            raise PoolTutorError(f"index={cell_name(index) if index else '()'} cannot be "
                                 f"chosen: no output grid is shown ({self.error or 'none'})")
        for i in index:
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                raise PoolTutorTypeError(f"index={index!r} has an entry of type "
                                         f"{type(i).__name__}: need ints")
        index = tuple(int(i) for i in index)
        if len(index) != len(grid.shape) or any(not 0 <= i < n
                                                for i, n in zip(index, grid.shape, strict=True)):
            raise PoolTutorError(
                f"index={cell_name(index) if index else '()'} is not an output cell: need "
                f"{len(grid.shape)} ints with 0 <= index < {cell_name(grid.shape)}")
        self._apply_cell(index)

    def add_cell_chooser(self) -> CellChooser:
        """Put a :class:`CellChooser` under the picture, kept in step with every update
        (:meth:`safe_update`)."""
        chooser = CellChooser(self._chosen)
        self.cell_chooser = chooser
        children = list(self.widget.children)
        at = children.index(self.image) + 1 if self.image in children else len(children)
        self.widget.children = children[:at] + [chooser.widget] + children[at:]
        self._refresh_chooser()
        return chooser

    def safe_update(self, func=None) -> bool:
        """The explorer's update, then the chooser brought in step with it."""
        ok = super().safe_update(func)
        self._refresh_chooser()
        return ok

    def describe(self) -> str:
        """The picture in words, and the chosen cell."""
        text = super().describe()
        grid = self._output_grid() if self.error is None else None
        if grid is None or grid.selected is None:
            return text
        i = list(np.ndindex(*grid.shape)).index(grid.selected)
        return f"{text} Chosen: {grid.descriptions[i]}.".strip()

    # ------------------------------------------------------------ wiring

    def _chosen(self, index) -> None:
        try:
            self.select_cell(*index)
        except (ValueError, TypeError) as exc:     # a stale button: say why, never raise
            self.show_error(str(exc))

    def _refresh_chooser(self) -> None:
        if self.cell_chooser is None:
            return
        if self.error is not None:
            grid = self.cell_chooser.grid
            self.cell_chooser.show(grid, disabled=True)
            return
        self.cell_chooser.show(self._output_grid())


def cell_picker_frames(fw, cells: Sequence[Sequence[int]], grid_labels: Sequence[str] | None
                       = None, *, prefix: str = "output"):
    """``fw`` (a :class:`~pooltutor.viz.explorer.FramesWidget` of one frame per output cell,
    in the order of ``cells``) with a cell picker on top: an ``ipywidgets.ToggleButtons``
    with one button per frame (text ``grid_labels[i]`` or the cell's name, tooltip
    ``"output (i, j)"``), its ``index`` linked to the slider in the browser (no kernel).

    >>> from pooltutor.viz.explorer import frames_widget
    >>> fw = cell_picker_frames(frames_widget([b"a", b"b"], ["x", "y"]), [(0, 0), (0, 1)])
    >>> fw.picker.options, fw.picker.index, len(fw.links)
    (('(0, 0)', '(0, 1)'), 0, 4)
    """
    import ipywidgets as widgets

    cells = [tuple(int(i) for i in c) for c in cells]
    if len(cells) != len(fw.stack.children):
        raise PoolTutorError(f"cells has {len(cells)} entries: need one per frame "
                             f"({len(fw.stack.children)})")
    if grid_labels is not None and len(grid_labels) != len(cells):
        raise PoolTutorError(f"grid_labels has {len(grid_labels)} entries: need one per cell "
                             f"({len(cells)})")
    # unique option labels (ToggleButtons keys its options by label): the cell, its value
    options = [cell_name(c) if grid_labels is None else f"{cell_name(c)}: {grid_labels[i]}"
               for i, c in enumerate(cells)]
    picker = widgets.ToggleButtons(options=options, index=0,
                                   tooltips=[f"{prefix} {cell_name(c)}" for c in cells],
                                   description=prefix,
                                   style={"button_width": "auto"})
    picker.add_class("pooltutor-cell-picker")
    link = widgets.jslink((picker, "index"), (fw.slider, "value"))
    heading = widgets.HTML(value=f"<b>choose an {html.escape(prefix)} cell</b> "
                                 f"<span style=\"color:#555\">(the frames below follow)</span>")
    box = widgets.VBox([heading, picker, fw.widget])
    return replace(fw, widget=box, links=fw.links + (link,), picker=picker)
