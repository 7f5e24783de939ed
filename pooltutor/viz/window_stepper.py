"""WindowStepper: step (or play) through the output positions of a pooling.

Controls: input size, window, stride, dilation, padding before / after,
the output-length rule, the padding rule (``pad_taps``), max or average,
optional framework limits (PyTorch's own functions check the combination),
and the output position (Play, slider, Prev / Next).  The picture is
:func:`~pooltutor.viz.heatmaps.plot_pooling` with ``progress=True`` on one
persistent figure: the output fills in cell by cell as the window moves, the
current cell outlined, the cells not computed yet empty.  A parameter change
draws the figure again; a position step redraws only what moves (window,
winner, output cells, output title) over the kept background (public
blitting, :meth:`WindowStepper.render`).  Under the picture, the engine's
``explain()`` of the current cell.

An invalid combination (a window larger than the padded input, padding that
PyTorch refuses) shows its reason in the widget; nothing raises.

>>> s = WindowStepper(np.arange(16.0).reshape(4, 4), window=2, stride=2, padding=1,
...                   rounding="ceil_torch")
>>> s.output_shape, s.position.max
((3, 3), 8)
>>> s.position.value = 5
>>> s.out_index, s.state["value"], s.state["computed"]
((1, 2), 11.0, 6)
>>> s.dilation.value = 3
>>> s.window.value = 4                 # dilated window 10 > the padded input 4+1+1
>>> print(s.error)       # doctest: +ELLIPSIS
kernel=(4, 4) does not fit the input (4, 4) on axis 0: window of effective size 10 ...
>>> s.window.value = 2
>>> s.error is None, s.output_shape, s.out_index   # (1, 2) was clamped to (1, 1) by the 2x2
(True, (2, 2), (1, 1))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int, check_per_axis
from ..geometry import ROUNDINGS
from .cell_selection import CellSelection, OutputGrid, cell_picker_frames
from .explorer import Explorer, FramesWidget, frames_widget
from .heatmaps import PAD_RULE_TEXT, _plot_pooling, update_pooling_plot

__all__ = ["WindowStepper", "window_stepper_frames", "demo_input", "LIMITS", "TORCH_CEIL_MODE"]

#: Framework limits the stepper can enforce on top of the engine (which allows any padding).
LIMITS = ("none", "PyTorch")
#: Largest ``size`` of the demo input (the stepper draws every cell).
MAX_SIZE = 64


def demo_input(shape, seed: int = 0) -> np.ndarray:
    """Small whole numbers (0..9, as floats so that an empty window shows -inf) shaped ``shape``.

    >>> demo_input((2, 3)).tolist()
    [[8.0, 6.0, 5.0], [2.0, 3.0, 0.0]]
    """
    return np.random.default_rng(seed).integers(0, 10, size=shape).astype(np.float64)


#: PyTorch's ``ceil_mode`` of the stepper's output-length rules (the rules it can follow)
TORCH_CEIL_MODE = {"floor": False, "ceil_torch": True}


class WindowStepper(CellSelection, Explorer):
    """Step through the windows of a max (or average) pooling, one output position at a time.

    Parameters
    ----------
    x : array, optional
        A 1-D or 2-D input plane (the size slider is then fixed); default:
        :func:`demo_input` of ``size`` (per axis).
    size, window, stride, dilation : int
        Initial control values (the same on every axis).
    padding : int or (int, int)
        Initial padding (before, after) on every axis.
    rounding, pad_taps, op, limits : str
        Initial rule, padding rule, ``"max"`` / ``"avg"``, framework limits.
    ndim : {1, 2}
        Spatial axes of the default input (ignored when ``x`` is given).

    Attributes
    ----------
    size, window, stride, dilation, pad_before, pad_after : ipywidgets.IntSlider
    rounding, pad_taps, op, limits : ipywidgets.Dropdown
    position : ipywidgets.IntSlider
        Flat (row-major) output position; its ``max`` follows the output size.
    play : ipywidgets.Play
    prev_button, next_button : ipywidgets.Button
    cell_chooser : CellChooser
        One button per output cell under the picture (the cells computed so far show
        their values); pressing one moves the position there
        (:meth:`~pooltutor.viz.cell_selection.CellSelection.select_cell`).
    result : PoolResult
        The engine's result for the current controls.
    plot : PoolingPlot
        What is drawn.
    """

    def __init__(self, x=None, *, size: int = 5, window: int = 2, stride: int = 2,
                 dilation: int = 1, padding=0, rounding: str = "floor", pad_taps: str = "skip",
                 op: str = "max", limits: str = "none", ndim: int = 2, seed: int = 0,
                 figsize=(8.6, 5.6), dpi: float = 80):
        import ipywidgets as widgets

        check_choice("rounding", rounding, ROUNDINGS)
        check_choice("pad_taps", pad_taps, tuple(PAD_RULE_TEXT))
        check_choice("op", op, ("max", "avg"))
        check_choice("limits", limits, LIMITS)
        if x is not None:
            x = np.asarray(x)
            if x.ndim not in (1, 2) or x.size == 0 or x.dtype.kind not in "iuf":
                raise PoolTutorError(f"x has shape {x.shape} and dtype {x.dtype}: need a non-empty "
                                     f"1-D or 2-D numeric input plane")
            ndim = x.ndim
            size = max(x.shape)
        else:
            check_int("ndim", ndim, minimum=1)
            if ndim not in (1, 2):
                raise PoolTutorError(f"ndim={ndim} is not allowed: need 1 or 2")
        size = check_int("size", size, minimum=1)
        if x is None and size > MAX_SIZE:
            raise PoolTutorError(f"size={size} is not allowed: need 1 <= size <= {MAX_SIZE} "
                                 f"(the stepper draws every cell)")
        window = check_int("window", window, minimum=1)
        stride = check_int("stride", stride, minimum=1)
        dilation = check_int("dilation", dilation, minimum=1)
        seed = check_int("seed", seed, minimum=0)
        try:
            pb, pe = check_per_axis("padding", padding, 2, minimum=0)
        except (PoolTutorError, PoolTutorTypeError) as exc:
            raise type(exc)(f"padding={padding!r} is not allowed: need an int >= 0 or a "
                            f"(before, after) pair of ints >= 0") from None
        self.x = x
        self.ndim = ndim
        self.seed = seed
        slider = dict(continuous_update=False, style={"description_width": "70px"},
                      layout=widgets.Layout(width="230px"))
        self.size = widgets.IntSlider(value=size, min=1, max=max(12, size), description="size",
                                      disabled=x is not None, **slider)
        self.window = widgets.IntSlider(value=window, min=1, max=max(6, window),
                                        description="window", **slider)
        self.stride = widgets.IntSlider(value=stride, min=1, max=max(4, stride),
                                        description="stride", **slider)
        self.dilation = widgets.IntSlider(value=dilation, min=1, max=max(3, dilation),
                                          description="dilation", **slider)
        self.pad_before = widgets.IntSlider(value=pb, min=0, max=max(4, pb),
                                            description="pad before", **slider)
        self.pad_after = widgets.IntSlider(value=pe, min=0, max=max(4, pe),
                                           description="pad after", **slider)
        drop = dict(style={"description_width": "70px"}, layout=widgets.Layout(width="230px"))
        self.rounding = widgets.Dropdown(options=ROUNDINGS, value=rounding,
                                         description="rounding", **drop)
        self.pad_taps = widgets.Dropdown(options=tuple(PAD_RULE_TEXT), value=pad_taps,
                                         description="pad_taps", **drop)
        self.op = widgets.Dropdown(options=("max", "avg"), value=op, description="op", **drop)
        self.limits = widgets.Dropdown(options=LIMITS, value=limits, description="limits",
                                       **drop)
        self.position = widgets.IntSlider(value=0, min=0, max=0, description="position",
                                          continuous_update=True,
                                          style={"description_width": "70px"},
                                          layout=widgets.Layout(width="320px"))
        self.play = widgets.Play(value=0, min=0, max=0, interval=900, description="play")
        widgets.link((self.play, "value"), (self.position, "value"))
        self.prev_button = widgets.Button(description="◀ prev", layout=widgets.Layout(width="80px"))
        self.next_button = widgets.Button(description="next ▶", layout=widgets.Layout(width="80px"))
        self.cell_label = widgets.HTML()
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(+1))
        self.params = (self.size, self.window, self.stride, self.dilation, self.pad_before,
                       self.pad_after, self.rounding, self.pad_taps, self.op, self.limits)
        super().__init__(
            controls=[
                [self.size, self.window, self.stride, self.dilation],
                [self.pad_before, self.pad_after, self.rounding, self.pad_taps],
                [self.op, self.limits],
                [self.play, self.prev_button, self.next_button, self.position, self.cell_label],
            ],
            figsize=figsize if ndim == 2 else (figsize[0], 4.4), dpi=dpi)
        self.result = None
        self.plot = None
        self._key = None
        self._background = None
        self._syncing = False
        self.watch(*self.params, self.position)
        self.safe_update()
        self.add_cell_chooser()

    # ------------------------------------------------------------------ state

    @property
    def output_shape(self) -> tuple[int, ...] | None:
        return None if self.result is None else self.result.geometry.output_shape

    @property
    def out_index(self) -> tuple[int, ...] | None:
        return None if self.plot is None else self.plot.out_index

    def step(self, delta: int) -> None:
        """Move the position by ``delta`` (clamped to the output positions)."""
        self.position.value = min(max(self.position.value + delta, self.position.min),
                                  self.position.max)

    def _on_change(self, change=None) -> None:
        if not self._syncing:
            self.safe_update()

    # ------------------------------------------------- output-cell selection

    def _output_grid(self) -> OutputGrid | None:
        """The output plane as drawn: the cells computed so far (row-major up to the
        position) show their values, the chosen cell is the position."""
        if self.plot is None:
            return None
        shape = self.result.geometry.output_shape
        computed = np.arange(int(np.prod(shape))).reshape(shape) < self.plot.computed
        return OutputGrid.of_values(self.result.output[0, 0], self.plot.out_index,
                                    shown=computed)

    def _apply_cell(self, index) -> None:
        self.position.value = int(np.ravel_multi_index(index, self.output_shape))

    def _input(self) -> np.ndarray:
        if self.x is not None:
            plane = self.x
        else:
            n = self.size.value
            plane = demo_input((n, n) if self.ndim == 2 else (n,), self.seed)
        return plane[None, None]

    def _params(self):
        return tuple(w.value for w in self.params)

    def _compute(self, params):
        """The engine's result for ``params``; with PyTorch limits, PyTorch's own functions
        (:func:`pooltutor.frameworks.torch_max_pool` / ``torch_avg_pool``) check the
        combination first and raise its reason."""
        from ..pooling import avg_pool, max_pool

        _, k, s, d, pb, pe, rounding, pad_taps, op, limits = params
        x = self._input()
        pads = [(pb, pe)] * self.ndim
        if limits == "PyTorch":
            self._torch_check(x, k, s, d, pb, pe, rounding, op)
        if op == "max":
            return max_pool(x, k, s, pads, d, rounding=rounding, pad_taps=pad_taps,
                            return_indices=True)
        return avg_pool(x, k, s, pads, d, rounding=rounding, divisor="valid")

    def _torch_check(self, x, k, s, d, pb, pe, rounding, op) -> None:
        from ..frameworks import torch_avg_pool, torch_max_pool

        if rounding not in TORCH_CEIL_MODE:
            raise PoolTutorError(
                f"rounding={rounding!r} has no PyTorch ceil_mode: ceil_mode=False is 'floor', "
                f"ceil_mode=True is 'ceil_torch'")
        padding = pb if pb == pe else tuple((pb, pe) for _ in range(self.ndim))
        if op == "max":
            torch_max_pool(x, k, s, padding, d, ceil_mode=TORCH_CEIL_MODE[rounding])
        elif d != 1:
            raise PoolTutorError(f"dilation={d} is not allowed for op='avg' in PyTorch: "
                                 f"avg_pool has no dilation; need dilation=1")
        else:
            torch_avg_pool(x, k, s, padding, ceil_mode=TORCH_CEIL_MODE[rounding],
                           count_include_pad=False)

    def call_settings(self) -> dict[str, Any]:
        """The pooling on screen, for the code panel (:func:`pooltutor.spellings.same_call`):
        the average divides by the input elements (``count_include_pad=False``)."""
        _, k, s, d, pb, pe, rounding, pad_taps, op, _ = self._params()
        return dict(op=op, input_shape=self._input().shape[2:], kernel=k, stride=s,
                    padding=[(pb, pe)] * self.ndim, dilation=d, rounding=rounding,
                    count_include_pad=False, pad_taps=pad_taps)

    def _set_position_bounds(self, shape: tuple[int, ...]) -> None:
        """New output shape: slider bounds follow, the output cell is kept (clamped per axis)."""
        count = int(np.prod(shape))
        old = self.plot.out_index if self.plot is not None else (0,) * len(shape)
        if len(old) != len(shape):
            old = (0,) * len(shape)
        kept = tuple(min(o, s - 1) for o, s in zip(old, shape, strict=True))
        self._syncing = True
        try:
            if self.position.max < count - 1:
                self.position.max = count - 1
                self.play.max = count - 1
            self.position.value = int(np.ravel_multi_index(kept, shape))
            self.position.max = count - 1
            self.play.max = count - 1
        finally:
            self._syncing = False

    def draw(self) -> dict[str, Any]:
        params = self._params()
        if params != self._key or self.result is None:
            result = self._compute(params)           # raises for an invalid combination
            shape = result.geometry.output_shape
            self._set_position_bounds(shape)
            out_index = tuple(int(i) for i in np.unravel_index(self.position.value, shape))
            self._background = None                  # the next render draws everything
            self.plot = _plot_pooling(result, out_index, 0, 0, None, self.figure, None, None,
                                      True, progress=True, stable=True, previous=self.plot)
            self.result = result
            self._key = params
        else:
            shape = self.result.geometry.output_shape
            out_index = tuple(int(i) for i in np.unravel_index(self.position.value, shape))
            self.plot = update_pooling_plot(self.plot, out_index)
        text = self.result.explain(*out_index)
        self.set_explain(text)
        self.cell_label.value = (f"<b>output {out_index if len(out_index) > 1 else out_index[0]}"
                                 f"</b> of {'×'.join(map(str, shape))}")
        value = self.result.output[(0, 0) + out_index]
        names = ("size", "window", "stride", "dilation", "pad_before", "pad_after", "rounding",
                 "pad_taps", "op", "limits")
        return {"params": dict(zip(names, params, strict=True)),
                "out_index": out_index, "output_shape": shape, "value": float(value),
                "winner": self.plot.winner_cell, "computed": self.plot.computed}

    # ---------------------------------------------------------------- drawing

    #: the canvas without the artists a position step changes (public blitting)
    _background = None

    def _moving(self) -> list:
        """The artists a position step changes, in drawing (z) order: the output cells and
        their texts, the window overlays, the output title."""
        plot = self.plot
        grid = [a for a in plot.output_ax.collections if a.get_gid() == "output-cells"]
        labels = [plot.output_labels] if plot.output_labels is not None else []
        return sorted([plot.output_image, *grid, *labels, *plot.overlays],
                      key=lambda a: a.get_zorder()) + [plot.output_ax.title]

    def render(self) -> bytes:
        """After a parameter change: the whole figure is drawn, without the artists a
        position step changes, kept as the background (``canvas.copy_from_bbox``), and
        those artists drawn on it.  After a position step: the background is restored
        (``restore_region``) and only they are drawn (``draw_artist``).  Then the canvas
        is encoded (:meth:`publish`)."""
        canvas = self.figure.canvas
        moving = self._moving()
        for artist in moving:
            artist.set_animated(True)
        if self._background is None:
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in moving:
            self.figure.draw_artist(artist)
        return self.publish()

    # ---------------------------------------------------------- kernel-free

    def static_widget(self, positions=None) -> FramesWidget:
        """The kernel-free form: one PNG per output position, flipped by a slider in the browser.

        The live controls are put back where they were afterwards.
        """
        if self.result is None:
            raise PoolTutorError(f"no frames to make: the current controls are invalid "
                                 f"({self.error})")
        count = int(np.prod(self.output_shape))
        positions = range(count) if positions is None else positions
        keep = self.position.value
        pngs, labels = self.collect_frames(list(positions),
                                           lambda p: setattr(self.position, "value", p))
        self.position.value = keep
        shape = self.output_shape
        cells = [tuple(int(i) for i in np.unravel_index(p, shape)) for p in positions]
        values = self.result.output[0, 0]
        from .style import format_value

        return cell_picker_frames(frames_widget(pngs, labels, description="position"), cells,
                                  [format_value(values[c]) for c in cells])


def window_stepper_frames(x=None, **params) -> FramesWidget:
    """Kernel-free stepper for slides: ``WindowStepper(x, **params).static_widget()``.

    >>> fw = window_stepper_frames(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    >>> len(fw.stack.children), fw.slider.max, fw.labels[3].splitlines()[0]
    (4, 3, 'output[0, 0, 1, 1] = 8.0   (max pooling, window start (1, 1))')
    """
    return WindowStepper(x, **params).kernel_free()
