"""PaddingModeExplorer: one axis under TensorRT's six padding modes (or engine rules), live.

Sliders for the input size ``I``, window ``F``, stride ``S``, dilation
``D``, prePadding ``B`` and postPadding ``A`` redraw
:func:`~pooltutor.viz.padding_modes.plot_padding_modes` on one persistent
figure (cleared and drawn again at every change); a dropdown picks the
set of modes, another the mode whose worked
computation (``explain()``) is printed under the picture.  A mode that
rejects the combination shows its reason in its own row; parameters that no
mode can use (none here: the sliders keep them valid) would show in the
error label.

>>> e = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=3)
>>> e.state["output_sizes"]["CAFFE_ROUND_UP"], e.state["output_sizes"]["EXPLICIT_ROUND_UP"]
(5, 6)
>>> e.pre_padding.value = 4          # CAFFE_ROUND_UP now rejects: its reason is in its row
>>> e.state["output_sizes"]["CAFFE_ROUND_UP"], sorted(e.state["rejected"])
(None, ['CAFFE_ROUND_UP'])
>>> e.explain_mode.value = "CAFFE_ROUND_UP"
>>> e.explain_text.startswith("CAFFE_ROUND_UP rejects")
True
"""

from __future__ import annotations

from typing import Any

from ..errors import check_choice, check_int
from .cell_selection import CellSelection, OutputGrid
from .explorer import Explorer, FramesWidget, frames_widget
from .padding_modes import TENSORRT_MODES, plot_padding_modes, rows_rect

__all__ = ["PaddingModeExplorer", "MODE_SETS", "PRESETS", "padding_mode_frames"]

#: The sets of modes the explorer offers.
MODE_SETS: dict[str, tuple[str, ...]] = {
    "TensorRT (6 modes)": TENSORRT_MODES,
    "engine rules": ("floor", "ceil", "ceil_torch", "floor_clip", "caffe"),
    "ceil mode across frameworks": ("ceil_torch", "EXPLICIT_ROUND_UP", "CAFFE_ROUND_UP",
                                    "caffe"),
}

#: Named parameter sets ``(I, F, S, B, A, D)`` for the kernel-free form (the header's examples
#: and the classic ceil-mode disagreements).
PRESETS: dict[str, tuple[int, int, int, int, int, int]] = {
    "TensorRT Pooling Example 1": (6, 3, 2, 3, 2, 1),
    "TensorRT Pooling Example 2": (6, 3, 2, 3, 3, 1),
    "ceil: last window in padding (TV03)": (5, 2, 2, 1, 1, 1),
    "CAFFE rejects (B=4)": (6, 3, 2, 4, 2, 1),
    "window shorter than stride (TV04)": (6, 1, 2, 0, 0, 1),
    "dilation 2": (7, 3, 2, 1, 1, 2),
}


class PaddingModeExplorer(CellSelection, Explorer):
    """Sliders for ``I, F, S, D, B, A`` wired to :func:`plot_padding_modes`.

    Attributes
    ----------
    input_size, window, stride, dilation, pre_padding, post_padding : ipywidgets.IntSlider
    mode_set : ipywidgets.Dropdown
        One of :data:`MODE_SETS`.
    explain_mode : ipywidgets.Dropdown
        The mode whose ``explain()`` is shown.
    plot : PaddingModesPlot
        What is drawn.
    cell_chooser : CellChooser
        One button per output position of the ``explain`` mode, under the picture:
        pressing one outlines that position's window in the mode's row (instead of the
        last window) and explains it.  Nothing is chosen at first; another ``explain``
        mode clears the choice, a parameter change keeps it while it is an output
        position.
    """

    def __init__(self, input_size: int = 6, window: int = 3, stride: int = 2,
                 pre_padding: int = 1, post_padding: int = 1, *, dilation: int = 1,
                 mode_set: str = "TensorRT (6 modes)", figsize=(9.4, 6.6), dpi: float = 80):
        import ipywidgets as widgets

        check_choice("mode_set", mode_set, tuple(MODE_SETS))
        values = dict(input_size=check_int("input_size", input_size, minimum=1),
                      window=check_int("window", window, minimum=1),
                      stride=check_int("stride", stride, minimum=1),
                      pre_padding=check_int("pre_padding", pre_padding, minimum=0),
                      post_padding=check_int("post_padding", post_padding, minimum=0),
                      dilation=check_int("dilation", dilation, minimum=1))
        common = dict(continuous_update=False, style={"description_width": "95px"},
                      layout=widgets.Layout(width="280px"))
        self.input_size = widgets.IntSlider(value=values["input_size"], min=1,
                                            max=max(16, values["input_size"]),
                                            description="input I", **common)
        self.window = widgets.IntSlider(value=values["window"], min=1,
                                        max=max(7, values["window"]), description="window F",
                                        **common)
        self.stride = widgets.IntSlider(value=values["stride"], min=1,
                                        max=max(5, values["stride"]), description="stride S",
                                        **common)
        self.dilation = widgets.IntSlider(value=values["dilation"], min=1,
                                          max=max(3, values["dilation"]),
                                          description="dilation D", **common)
        self.pre_padding = widgets.IntSlider(value=values["pre_padding"], min=0,
                                             max=max(6, values["pre_padding"]),
                                             description="prePadding B", **common)
        self.post_padding = widgets.IntSlider(value=values["post_padding"], min=0,
                                              max=max(6, values["post_padding"]),
                                              description="postPadding A", **common)
        self.mode_set = widgets.Dropdown(options=tuple(MODE_SETS), value=mode_set,
                                         description="modes", style={"description_width": "95px"},
                                         layout=widgets.Layout(width="340px"))
        self.explain_mode = widgets.Dropdown(options=MODE_SETS[mode_set],
                                             value=MODE_SETS[mode_set][0],
                                             description="explain", layout=widgets.Layout(
                                                 width="340px"),
                                             style={"description_width": "95px"})
        self.params = (self.input_size, self.window, self.stride, self.dilation,
                       self.pre_padding, self.post_padding)
        super().__init__(controls=[[self.input_size, self.window, self.stride],
                                   [self.pre_padding, self.post_padding, self.dilation],
                                   [self.mode_set, self.explain_mode]],
                         figsize=figsize, dpi=dpi)
        self.plot = None
        self.chosen: int | None = None         # the chosen output position (explain mode)
        self._rows = self.figure.add_axes(rows_rect(self.figure))
        self._syncing = False
        self.mode_set.observe(self._on_mode_set, names="value")
        self.explain_mode.observe(self._on_explain_mode, names="value")
        self.watch(*self.params)
        self.safe_update()
        self.add_cell_chooser()

    def _on_change(self, change=None) -> None:
        if not self._syncing:
            self.safe_update()

    def _on_mode_set(self, change) -> None:
        modes = MODE_SETS[self.mode_set.value]
        self._syncing = True
        try:
            keep = self.explain_mode.value
            self.explain_mode.options = modes
            self.explain_mode.value = keep if keep in modes else modes[0]
        finally:
            self._syncing = False
        self.safe_update()

    @property
    def modes(self) -> tuple[str, ...]:
        return MODE_SETS[self.mode_set.value]

    def draw(self) -> dict[str, Any]:
        i, f, s, d, b, a = (w.value for w in self.params)
        # a fixed, slide-sized figure, one Axes: the cells shrink to fit the rows.  Every
        # change draws the whole picture again: the new one, then the last one taken off
        # (refused parameters raise before anything is drawn: the last picture stays)
        plot = plot_padding_modes(i, f, s, b, a, dilation=d, modes=self.modes, ax=self._rows,
                                  outline=self._outline(i, f, s, b, a, d))
        if self.plot is not None:
            self.plot.remove()
        self.plot = plot
        self._show_explain()
        return {"params": dict(input_size=i, window=f, stride=s, dilation=d, pre_padding=b,
                               post_padding=a, mode_set=self.mode_set.value),
                "output_sizes": {m: (None if g is None else g.output_size)
                                 for m, g in self.plot.geometries.items()},
                "rejected": dict(self.plot.errors)}

    def call_settings(self) -> dict[str, Any] | str:
        """The explained mode's pooling of the axis, for the code panel
        (:func:`pooltutor.spellings.same_call`): a TensorRT mode as its rule of
        :data:`pooltutor.tensorrt.MODE_RULES` (padding and rounding), an engine rule as
        itself with the pads ``(B, A)``."""
        from ..tensorrt import PaddingMode

        i, f, s, d, b, a = (w.value for w in self.params)
        mode = self.explain_mode.value
        if self.plot is not None and self.plot.geometries.get(mode) is None:
            return f"{mode} rejects these parameters"
        padding, rounding = [(b, a)], mode
        if mode in TENSORRT_MODES:
            rule = PaddingMode.parse(mode).rule
            rounding = rule.pooling_rounding
            padding = {"given": [(b, a)], "pre_both": [(b, b)]}.get(rule.padding, rule.padding)
        return dict(op="max", input_shape=(i,), kernel=f, stride=s, padding=padding,
                    dilation=d, rounding=rounding)

    def _show_explain(self) -> None:
        if self.plot is None or self._syncing:
            return
        mode = self.explain_mode.value
        geometry = self.plot.geometries.get(mode)
        if geometry is None:
            reason = self.plot.errors.get(mode, "not drawn")
            self.set_explain(f"{mode} rejects these parameters:\n{reason}")
        else:
            text = geometry.explain()
            if geometry.notes:
                text += "\n\nWarnings:\n" + "\n".join(geometry.notes)
            if self.plot.outlined.get(mode) == self.chosen is not None:
                text += "\n\n" + self._window_text(geometry, self.chosen)
            self.set_explain(text)

    # ------------------------------------------------- output-cell selection

    def _on_explain_mode(self, change) -> None:
        if self._syncing:
            return
        self.chosen = None                  # another mode: another row of output cells
        self.safe_update()

    def _outline(self, i, f, s, b, a, d) -> dict | None:
        """``outline=`` of the chosen position (cleared when the explain mode has no such
        output position under the new parameters)."""
        if self.chosen is None:
            return None
        from ..tensorrt import mode_geometry

        try:
            mg = mode_geometry(self.explain_mode.value, i, f, s, pre_padding=b,
                               post_padding=a, dilation=d)
        except (ValueError, TypeError):
            mg = None
        if mg is None or self.chosen >= mg.output_size:
            self.chosen = None
            return None
        return {self.explain_mode.value: self.chosen}

    @staticmethod
    def _window_text(geometry, o: int) -> str:
        """Where the window of output ``o`` reads, tap by tap (from the geometry)."""
        axis = geometry.axis
        taps = axis.taps(o)
        kinds = ", ".join(f"{t} ({k})" for t, k in zip(taps, axis.tap_kinds(o), strict=True))
        return (f"output {o} of {geometry.mode}: window start {o}*S - B = {o}*{axis.stride} - "
                f"{axis.pad_begin} = {taps[0]}, taps {kinds}")

    def _output_grid(self) -> OutputGrid | None:
        if self.plot is None:
            return None
        mode = self.explain_mode.value
        geometry = self.plot.geometries.get(mode)
        if geometry is None:
            return None
        descriptions = []
        for o, (first, last) in enumerate(self.plot.windows[mode]):
            descriptions.append(f"output {o} of {mode}: window from input {first} to {last}")
        return OutputGrid((geometry.output_size,), tuple(map(str, range(geometry.output_size))),
                          tuple(descriptions),
                          None if self.chosen is None else (self.chosen,),
                          title=f"output position of {mode}")

    def _apply_cell(self, index) -> None:
        self.chosen = int(index[0])
        self.safe_update()

    # ---------------------------------------------------------- kernel-free

    def static_widget(self, presets: dict[str, tuple] | None = None) -> FramesWidget:
        """The kernel-free form: one frame per preset (default :data:`PRESETS`), slider-flipped.

        Each frame's caption is the preset's name.  The controls are put back afterwards.
        """
        presets = PRESETS if presets is None else presets
        keep = tuple(w.value for w in self.params)

        def apply(values):
            self._syncing = True
            try:
                for widget, v in zip(self.params, values, strict=True):
                    widget.max = max(widget.max, v)
                    widget.value = v
            finally:
                self._syncing = False
            self.safe_update()

        order = ("input_size", "window", "stride", "pre_padding", "post_padding", "dilation")
        pngs, _ = self.collect_frames(
            [dict(zip(order, p, strict=True)) for p in presets.values()],
            lambda p: apply([p[k] for k in ("input_size", "window", "stride", "dilation",
                                              "pre_padding", "post_padding")]))
        labels = [f"{name}: I={p[0]}, F={p[1]}, S={p[2]}, B={p[3]}, A={p[4]}"
                  + (f", D={p[5]}" if p[5] != 1 else "") for name, p in presets.items()]
        apply(keep)
        return frames_widget(pngs, labels, description="preset")


def padding_mode_frames(presets: dict[str, tuple] | None = None, **params) -> FramesWidget:
    """Kernel-free padding-mode comparison for slides: one frame per preset.

    >>> fw = padding_mode_frames({"Example 2": (6, 3, 2, 3, 3, 1), "B=4": (6, 3, 2, 4, 2, 1)})
    >>> len(fw.stack.children), fw.labels[1]
    (2, 'B=4: I=6, F=3, S=2, B=4, A=2')
    """
    return PaddingModeExplorer(**params).kernel_free(presets)
