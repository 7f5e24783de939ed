"""Widget explorer: pick a max-pool output cell and read its winner's index in every layout.

:class:`IndexLayoutExplorer` wires sliders (``n``, ``c``, the output cell,
kernel, stride, padding) and the padding rule to
:func:`pooltutor.viz.indices.plot_index_layouts`, on one persistent figure
(:class:`pooltutor.viz.explorer.Explorer`).  The output-cell sliders follow
the output size; a combination the engine refuses (a window larger than the
padded input) shows its reason instead of raising.
:meth:`IndexLayoutExplorer.static_widget` (or :func:`index_layout_frames`)
is the kernel-free form for exported slides: one frame per output cell.

>>> e = IndexLayoutExplorer(dpi=30)                # TV22
>>> e.state["numbers"]["tensor"], e.error
(1, None)
>>> e.n.value, e.c.value, e.out[1].value = 1, 1, 1
>>> e.state["out_index"], e.state["numbers"]["tensor_colmajor"]
((1, 1, 0, 1), 20)
>>> e.kernel.value = 4                             # does not fit the 2x3 plane
>>> e.error is not None, e.state["out_index"]      # reason shown, last good state kept
(True, (1, 1, 0, 1))
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from ..errors import PoolTutorError, check_choice, check_int, check_tensor
from ..geometry import pool_geometry
from ..indexing import INDEX_LAYOUTS
from ..pooling import max_pool
from .cell_selection import CellSelection, OutputGrid, cell_picker_frames
from .explorer import Explorer, FramesWidget, frames_widget
from .indices import (
    LAYOUT_USERS,
    MAX_ELEMENTS,
    index_layouts_figsize,
    move_index_layouts,
    plot_index_layouts,
)

__all__ = ["IndexLayoutExplorer", "index_layout_frames", "TV22_INPUT"]

#: TV22 of docs/semantics.md §4.5: N=2, C=2, H=2, W=3.
TV22_INPUT = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                       [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)

_AXIS_NAMES = {1: ("w",), 2: ("h", "w"), 3: ("d", "h", "w")}


@contextlib.contextmanager
def _animated(artists, animated: bool = True):
    """``artists`` animated (left out of a figure's draw, drawn by ``draw_artist``) inside
    the block, not animated after it (a savefig of the figure draws them as any artist)."""
    for artist in artists:
        artist.set_animated(animated)
    try:
        yield
    finally:
        for artist in artists:
            artist.set_animated(not animated)


class IndexLayoutExplorer(CellSelection, Explorer):
    """Choose ``n``, ``c`` and an output cell; see its winner flattened in every index layout.

    The numbers per layout are also listed under the picture, with the
    ``explain()`` text of the cell (the figure has no table).

    Another output cell, kernel or stride on the same input panel (same plane,
    padding and drawn extent) only moves the marks and rewrites the titles
    (:func:`~pooltutor.viz.indices.move_index_layouts`), drawn over the kept rest of
    the picture with matplotlib's public blitting (``copy_from_bbox`` /
    ``restore_region`` / ``draw_artist``).  Another plane or padding rule draws the
    input panel again, on a kept background of the layout panels (they depend on the
    input's shape only).  When the input panel's extent or the title's padding note
    changes, the whole figure is laid out again (constrained layout) and drawn.

    Parameters
    ----------
    x : array shaped ``(N, C, *spatial)``, optional
        At most 512 elements; default TV22 (N=2, C=2, H=2, W=3).
    kernel, stride, padding : int
        Initial values (the same on every spatial axis).
    pad_taps : {'skip', 'neg_inf', 'lowest'}
        Initial padding rule.
    dpi : float
        Resolution of the picture in the widget.

    Attributes
    ----------
    n, c, kernel, stride, padding : ipywidgets.IntSlider
    pad_taps : ipywidgets.Dropdown
    out : tuple of ipywidgets.IntSlider
        The output cell, one slider per spatial axis; ``max`` follows the output size.
    plot : IndexLayoutsPlot or None
        What is drawn now.
    state : dict
        ``out_index``, ``position``, ``numbers`` (per layout), ``window`` (the input
        panel's window cells), ``padding_rule``, the parameters, and ``update``:
        ``"step"`` (marks moved, blitted), ``"panel"`` (the input panel drawn again on
        the kept layout panels) or ``"full"`` (figure drawn again).
    """

    def __init__(self, x=None, *, kernel: int = 2, stride: int = 1, padding: int = 0,
                 pad_taps: str = "skip", dpi: float = 80):
        import ipywidgets as widgets

        x = TV22_INPUT if x is None else check_tensor("x", x)
        if x.size > MAX_ELEMENTS:
            raise PoolTutorError(f"x has shape {x.shape} ({x.size} elements): the explorer draws "
                                 f"every element, need at most {MAX_ELEMENTS}")
        kernel = check_int("kernel", kernel, minimum=1)
        stride = check_int("stride", stride, minimum=1)
        padding = check_int("padding", padding, minimum=0)
        check_choice("pad_taps", pad_taps, ("skip", "neg_inf", "lowest"))
        self.x = x
        spatial = x.shape[2:]
        big = max(spatial)
        slider = dict(style={"description_width": "60px"}, layout=widgets.Layout(width="240px"))
        self.n = widgets.IntSlider(value=0, min=0, max=x.shape[0] - 1, description="n",
                                   disabled=x.shape[0] == 1, continuous_update=False, **slider)
        self.c = widgets.IntSlider(value=0, min=0, max=x.shape[1] - 1, description="c",
                                   disabled=x.shape[1] == 1, continuous_update=False, **slider)
        self.kernel = widgets.IntSlider(value=kernel, min=1, max=max(big + 1, kernel),
                                        description="kernel", continuous_update=False, **slider)
        self.stride = widgets.IntSlider(value=stride, min=1, max=max(big, 3, stride),
                                        description="stride", continuous_update=False, **slider)
        self.padding = widgets.IntSlider(value=padding, min=0, max=max(2, padding),
                                         description="padding", continuous_update=False, **slider)
        self.pad_taps = widgets.Dropdown(options=("skip", "neg_inf", "lowest"), value=pad_taps,
                                         description="pad_taps",
                                         style={"description_width": "60px"},
                                         layout=widgets.Layout(width="240px"))
        self.out = tuple(
            widgets.IntSlider(value=0, min=0, max=0, description=f"out {name}",
                              continuous_update=False, **slider)
            for name in _AXIS_NAMES[len(spatial)]
        )
        self.plot = None
        self._key = None            # (kernel, stride, padding, pad_taps) of self.plot
        self._stepped = False       # the last draw only moved the marks
        self._relayout = True       # the next full draw lays the figure out again
        self._background = None     # the canvas without the moving marks (blitting)
        self._layouts_background = None     # ... and without the input panel
        super().__init__(
            controls=[[self.n, self.c, *self.out],
                      [self.kernel, self.stride, self.padding, self.pad_taps]],
            figsize=index_layouts_figsize(x.shape, table=False), dpi=dpi)
        self.watch(self.n, self.c, self.kernel, self.stride, self.padding, self.pad_taps,
                   *self.out)
        self._sync_bounds()
        self.safe_update()
        self.add_cell_chooser()

    # ------------------------------------------------------------ wiring

    def _sync_bounds(self) -> None:
        """Output-cell sliders: ``max = output size - 1`` (kept as is while invalid)."""
        try:
            geom = pool_geometry(self.x.shape[2:], self.kernel.value, self.stride.value,
                                 self.padding.value)
        except (ValueError, TypeError):
            return                      # draw() shows the reason
        with self._hold():
            for slider, size in zip(self.out, geom.output_shape):
                if slider.value > size - 1:
                    slider.value = size - 1
                slider.max = size - 1

    @property
    def out_index(self) -> tuple[int, ...]:
        """``(n, c, *out_spatial)`` from the controls."""
        return (self.n.value, self.c.value, *(s.value for s in self.out))

    # ------------------------------------------------------------ output-cell selection

    def _output_grid(self) -> OutputGrid | None:
        """The output plane ``(n, c)`` shown; the chosen cell is the output-cell sliders'."""
        if self.plot is None:
            return None
        return OutputGrid.of_values(self.plot.result.output[self.n.value, self.c.value],
                                    tuple(s.value for s in self.out))

    def _apply_cell(self, index) -> None:
        with self._hold():
            for slider, v in zip(self.out, index, strict=True):
                slider.value = v
        self.safe_update()

    # ------------------------------------------------------------ drawing

    def draw(self) -> dict[str, Any]:
        out_index = self.out_index
        key = (self.kernel.value, self.stride.value, self.padding.value, self.pad_taps.value)
        old = self.plot
        # the engine runs (and refuses) before anything is drawn
        result = (old.result if old is not None and key == self._key else
                  max_pool(self.x, *key[:3], pad_taps=key[3], return_indices=True))
        if old is None:
            self.figure.set_layout_engine("constrained")
            plot = plot_index_layouts(result, out_index=out_index, table=False,
                                      fig=self.figure)
            self._stepped, self._relayout = False, True
        else:
            # the layout panels stay; the input panel is drawn again when it changes
            plot = move_index_layouts(old, out_index, result=result)
            self._stepped = plot.marks["input"] is old.marks["input"]
            self._relayout = (plot.extent != old.extent
                              or plot.padding_rule != old.padding_rule)
        self._key = key
        self.plot = plot
        table = "\n".join(f"  {lay:<16s}{plot.numbers[lay]:>5d}   {LAYOUT_USERS[lay]}"
                          for lay in INDEX_LAYOUTS)
        self.set_explain(plot.result.explain(*out_index)
                         + "\n\nthe winner's index in every layout:\n" + table)
        return {"out_index": out_index, "position": plot.position,
                "numbers": dict(plot.numbers), "window": plot.input_window,
                "padding_rule": plot.padding_rule, "kernel": self.kernel.value,
                "stride": self.stride.value, "padding": self.padding.value,
                "pad_taps": self.pad_taps.value,
                "update": ("step" if self._stepped else "full" if self._relayout
                           else "panel")}

    def call_settings(self) -> dict[str, Any]:
        """The max pool on screen, for the code panel (:func:`pooltutor.spellings.same_call`)."""
        return dict(op="max", input_shape=self.x.shape[2:], kernel=self.kernel.value,
                    stride=self.stride.value, padding=self.padding.value,
                    pad_taps=self.pad_taps.value)

    def render(self) -> bytes:
        """Encode the figure as PNG into :attr:`image`.

        Blitting with matplotlib's public API, over two kept backgrounds: the figure
        without the input panel and without the moving artists (the layout panels, which
        depend on the input's shape only), and the same with the input panel drawn.
        After a step (:meth:`draw` only moved the marks) the second is restored and only
        the moving artists are drawn on it; after another input panel in the same place
        (another plane, padding rule) the first is restored, the input panel drawn on it
        (kept as the new second background), then the moving artists; otherwise the
        whole figure is drawn, laid out again when the input panel's extent changed."""
        try:
            self._blit()
        except BaseException:
            self._background = self._layouts_background = None     # not to be trusted
            raise
        return self.publish()          # Pillow encodes the canvas (canvas_png)

    def _blit(self) -> None:
        """Bring the canvas up to date (see :meth:`render`)."""
        fig = self.figure
        canvas = fig.canvas
        plot = self.plot
        moving = plot.moving_artists() if plot is not None else []
        if self._stepped and self._background is not None:
            canvas.restore_region(self._background)
        elif (plot is not None and not self._relayout
              and self._layouts_background is not None):
            canvas.restore_region(self._layouts_background)
            with _animated(moving):
                fig.draw_artist(plot.input_ax)
            self._background = canvas.copy_from_bbox(fig.bbox)
        else:
            # laid out again only when the input panel's extent changed: the Axes keep
            # their places otherwise (the layout is a large part of a redraw)
            if self._relayout:
                # from where the grid places the Axes, as for a new figure: the layout
                # starts from the current places, and should come out as a fresh one's
                for ax in fig.axes:
                    spec = ax.get_subplotspec()
                    if spec is not None:
                        ax.set_position(spec.get_position(fig))
                        ax.set_in_layout(True)   # set_position takes it out of the layout
            fig.set_layout_engine("constrained" if self._relayout else "none")
            panel = [plot.input_ax] if plot is not None else []
            try:
                with _animated(moving + panel):
                    canvas.draw()
                    self._layouts_background = canvas.copy_from_bbox(fig.bbox)
                    for ax in panel:        # its moving artists (animated) left out
                        fig.draw_artist(ax)
                    self._background = canvas.copy_from_bbox(fig.bbox)
            finally:
                fig.set_layout_engine("none")
        for artist in moving:
            fig.draw_artist(artist)

    # ------------------------------------------------------------ kernel-free

    def static_widget(self, max_frames: int = 32) -> FramesWidget:
        """The kernel-free form: one frame per output cell ``(n, c, *o)``, for slides.

        The frames follow the current kernel, stride and padding (at most
        ``max_frames`` cells, in row-major order); the live controls are put
        back afterwards.
        """
        if self.plot is None or self.error is not None:
            raise PoolTutorError(f"no frames to make: the current controls are invalid "
                                 f"({self.error})")
        check_int("max_frames", max_frames, minimum=1)
        out_shape = self.plot.result.output.shape
        cells = [tuple(int(v) for v in idx) for idx in np.ndindex(*out_shape)][:max_frames]
        keep = self.out_index

        def apply(idx):
            with self._hold():
                self.n.value, self.c.value = idx[:2]
                for slider, v in zip(self.out, idx[2:]):
                    slider.value = v
            self.safe_update()

        pngs, labels = self.collect_frames(cells, apply)
        apply(keep)
        return cell_picker_frames(frames_widget(pngs, labels, description="output cell"), cells)


def index_layout_frames(x=None, *, max_frames: int = 32, **params) -> FramesWidget:
    """Kernel-free frames for slides: ``IndexLayoutExplorer(x, **params).static_widget()``.

    >>> fw = index_layout_frames(kernel=2, stride=1, max_frames=2, dpi=30)   # TV22
    >>> len(fw.stack.children), fw.labels[1].splitlines()[0]
    (2, 'output[0, 0, 0, 1] = 9.0   (max pooling, window start (0, 1))')
    """
    return IndexLayoutExplorer(x, **params).kernel_free(max_frames)
