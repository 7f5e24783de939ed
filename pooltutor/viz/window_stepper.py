"""WindowStepper: step (or play) through the output positions of a pooling.

Controls: input size, window, stride, dilation, padding before / after,
the output-length rule, the padding rule (``pad_taps``), max or average,
optional framework limits (PyTorch's padding rule), and the output position
(Play, slider, Prev / Next).  The picture is :func:`~pooltutor.viz.heatmaps.plot_pooling`
on one persistent figure; moving through positions only moves the window
overlays (:func:`~pooltutor.viz.heatmaps.update_pooling_plot`), and a parameter
change that leaves the input panel as it is (the stride) draws only the output
panel again (:meth:`WindowStepper.render`).  Under the picture, the engine's
``explain()`` of the current cell.

An invalid combination (a window larger than the padded input, padding that
PyTorch refuses) shows its reason in the widget; nothing raises.

>>> s = WindowStepper(np.arange(16.0).reshape(4, 4), window=2, stride=2, padding=1,
...                   rounding="ceil_torch")
>>> s.output_shape, s.position.max
((3, 3), 8)
>>> s.position.value = 5
>>> s.out_index, s.state["value"]
((1, 2), 11.0)
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
from .explorer import Explorer, FramesWidget, frames_widget
from .heatmaps import PAD_RULE_TEXT, _plot_pooling, update_pooling_plot

__all__ = ["WindowStepper", "window_stepper_frames", "demo_input", "LIMITS"]

#: Framework limits the stepper can enforce on top of the engine (which allows any padding).
LIMITS = ("none", "PyTorch")
#: Largest ``size`` of the demo input (the stepper draws every cell).
MAX_SIZE = 64


def _outline_only(artist) -> bool:
    """A plain unfilled ``Rectangle`` (a window tap): drawn alike by one ``PathCollection``."""
    from matplotlib.patches import Rectangle

    return (type(artist) is Rectangle and artist.get_visible() and not artist.get_fill()
            and not artist.get_path_effects() and not artist.get_hatch()
            and artist.get_alpha() is None and artist.get_sketch_params() is None
            and artist.get_snap() is None and artist.get_agg_filter() is None)


def draw_layer(artists, renderer) -> None:
    """Draw ``artists`` in order; each run of plain unfilled rectangles of one Axes with the
    same clipping, join and cap style (the taps of a window) is drawn as one
    ``PathCollection``: the same pixels (tested) for a fraction of the cost of one Patch
    draw each.

    >>> from matplotlib.figure import Figure
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> from matplotlib.patches import Rectangle
    >>> fig = Figure(figsize=(1, 1), dpi=40)
    >>> _ = FigureCanvasAgg(fig)
    >>> ax = fig.add_axes((0, 0, 1, 1))
    >>> ax.set_axis_off()
    >>> taps = [ax.add_patch(Rectangle((i, 0.2), 0.3, 0.3, fill=False, linewidth=2,
    ...                                linestyle=ls)) for i, ls in ((0.1, "-"), (0.5, "--"))]
    >>> fig.canvas.draw()
    >>> drawn = np.asarray(fig.canvas.buffer_rgba()).copy()
    >>> fig.canvas.get_renderer().clear()
    >>> fig.patch.draw(fig.canvas.get_renderer())
    >>> draw_layer(taps, fig.canvas.get_renderer())
    >>> bool((np.asarray(fig.canvas.buffer_rgba()) == drawn).all())
    True
    """
    from matplotlib.collections import PathCollection

    def key(a):
        return (a.axes, a.get_clip_on(), a.get_clip_box(), a.get_clip_path(),
                a.get_joinstyle(), a.get_capstyle())

    i = 0
    while i < len(artists):
        first = artists[i]
        run = [first]
        if _outline_only(first):
            while (i + len(run) < len(artists) and _outline_only(artists[i + len(run)])
                   and key(artists[i + len(run)]) == key(first)):
                run.append(artists[i + len(run)])
        i += len(run)
        if len(run) == 1:
            first.draw(renderer)
            continue
        coll = PathCollection([p.get_patch_transform().transform_path(p.get_path()) for p in run],
                              facecolors="none", edgecolors=[p.get_edgecolor() for p in run],
                              linewidths=[p.get_linewidth() for p in run],
                              linestyles=[p.get_linestyle() for p in run],
                              antialiaseds=[p.get_antialiased() for p in run],
                              joinstyle=first.get_joinstyle(), capstyle=first.get_capstyle())
        coll.set_figure(first.get_figure(root=False))
        coll.axes = first.axes
        coll.set_transform(first.get_data_transform())
        coll.set_clip_on(first.get_clip_on())
        if first.get_clip_on():
            coll.set_clip_box(first.get_clip_box())
            coll.set_clip_path(first.get_clip_path())
        coll.draw(renderer)


def demo_input(shape, seed: int = 0) -> np.ndarray:
    """Small whole numbers (0..9, as floats so that an empty window shows -inf) shaped ``shape``.

    >>> demo_input((2, 3)).tolist()
    [[8.0, 6.0, 5.0], [2.0, 3.0, 0.0]]
    """
    return np.random.default_rng(seed).integers(0, 10, size=shape).astype(np.float64)


def _pytorch_limits(kernel: int, pad_before: int, pad_after: int, rounding: str, op: str) -> None:
    """Raise what PyTorch's max_pool / avg_pool would refuse."""
    if pad_before != pad_after:
        raise PoolTutorError(
            f"padding=({pad_before}, {pad_after}) is not allowed in PyTorch: its padding is "
            f"symmetric (one value per axis); use F.pad first for uneven padding")
    if pad_before > kernel // 2:
        raise PoolTutorError(
            f"padding={pad_before} is not allowed in PyTorch with kernel_size={kernel}: "
            f"\"pad should be at most half of kernel size\", need padding <= {kernel // 2}")
    if rounding not in ("floor", "ceil_torch"):
        raise PoolTutorError(
            f"rounding={rounding!r} is not a PyTorch rule: ceil_mode=False is 'floor', "
            f"ceil_mode=True is 'ceil_torch'")


class WindowStepper(Explorer):
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
        self._syncing = False
        self.watch(*self.params, self.position)
        self.safe_update()

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
        from ..pooling import avg_pool, max_pool

        _, k, s, d, pb, pe, rounding, pad_taps, op, limits = params
        if limits == "PyTorch":
            _pytorch_limits(k, pb, pe, rounding, op)
        x = self._input()
        pads = [(pb, pe)] * self.ndim
        if op == "max":
            return max_pool(x, k, s, pads, d, rounding=rounding, pad_taps=pad_taps,
                            return_indices=True)
        return avg_pool(x, k, s, pads, d, rounding=rounding, divisor="valid")

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
            legends = list(self.figure.legends)
            try:
                self.plot, kept = _plot_pooling(result, out_index, 0, 0, None, self.figure,
                                                None, None, True, stable=True, reuse=True)
            except Exception:
                self.invalidate()                   # the figure may be half drawn
                raise
            self.result = result
            self._key = params
            if kept and list(self.figure.legends) == legends:
                self._output_background = None       # the input panel and legend stay
            else:
                self.invalidate()
        else:
            shape = self.result.geometry.output_shape
            out_index = tuple(int(i) for i in np.unravel_index(self.position.value, shape))
            old = self.plot
            self.plot = update_pooling_plot(old, out_index)
            if self.plot.input_image is not old.input_image:
                self.invalidate()
        # only the window overlays and the output title change from one position to the next
        self.animated = list(self.plot.overlays) + [self.plot.output_ax.title]
        text = self.result.explain(*out_index)
        self.set_explain(text)
        self.cell_label.value = (f"<b>output {out_index if len(out_index) > 1 else out_index[0]}"
                                 f"</b> of {'×'.join(map(str, shape))}")
        value = self.result.output[(0, 0) + out_index]
        names = ("size", "window", "stride", "dilation", "pad_before", "pad_after", "rounding",
                 "pad_taps", "op", "limits")
        return {"params": dict(zip(names, params, strict=True)),
                "out_index": out_index, "output_shape": shape, "value": float(value),
                "winner": self.plot.winner_cell}

    # ---------------------------------------------------------------- drawing

    #: the picture without the output panel, the figure title and the window overlays
    _static_background = None
    #: the picture without the window overlays and the output title
    _output_background = None

    def invalidate(self) -> None:
        """Forget both cached backgrounds: the next :meth:`render` draws the whole figure."""
        super().invalidate()
        self._static_background = self._output_background = None

    def _layers(self):
        """``(output layer, position layer)``: the artists redrawn after a parameter change
        that keeps the input panel (the output Axes and the figure title), and those
        redrawn at every position (the window overlays and the output title)."""
        titles = [t for t in self.figure.texts if t.get_gid() == "title"]
        return [self.plot.output_ax, *titles], list(self.animated)

    def render(self) -> bytes:
        """Encode :attr:`figure` as PNG into :attr:`image` (and return the bytes), drawing
        only what changed, in three layers (blitting):

        1. the input panel, its title and the legend: drawn with the whole figure, only when
           they change (a new input, padding, size...);
        2. the output panel and the figure title, over a copy of layer 1: after a parameter
           change that keeps the input panel (the stride);
        3. the window overlays and the output title, over a copy of layer 2: at every
           position.

        Each layer is always drawn the same way over the same pixels, so the picture is the
        same whichever layers were reused (tested against a fresh stepper)."""
        from . import style

        fig = self.figure
        canvas = fig.canvas
        output_layer, position_layer = self._layers()
        style.glyph_texts(fig)              # texts as cached glyph outlines: cheap redraws
        for artist in (*output_layer, *position_layer):
            artist.set_animated(True)
        if (self._static_background is None
                or self._static_background.get_extents() != tuple(map(int, fig.bbox.extents))):
            style.cache_images(fig)         # unchanged heatmaps skip their resampling
            style.cache_legends(fig)        # an unchanged legend pastes its last pixels
            canvas.draw()                   # without the animated layers
            self._static_background = canvas.copy_from_bbox(fig.bbox)
            self._output_background = None
        renderer = canvas.get_renderer()
        if self._output_background is None:
            canvas.restore_region(self._static_background)
            for artist in output_layer:
                artist.draw(renderer)
            self._output_background = canvas.copy_from_bbox(fig.bbox)
        else:
            canvas.restore_region(self._output_background)
        draw_layer(position_layer, renderer)
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
        return frames_widget(pngs, labels, description="position")


def window_stepper_frames(x=None, **params) -> FramesWidget:
    """Kernel-free stepper for slides: ``WindowStepper(x, **params).static_widget()``.

    >>> fw = window_stepper_frames(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    >>> len(fw.stack.children), fw.slider.max, fw.labels[3].splitlines()[0]
    (4, 3, 'output[0, 0, 1, 1] = 8.0   (max pooling, window start (1, 1))')
    """
    return WindowStepper(x, **params).kernel_free()
