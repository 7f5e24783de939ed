"""Widget explorer: the quantized chain and ReLU at the zero point, with every knob.

:class:`ZeroPointReluExplorer` wires the accumulators (a few presets), the
multiplier, the requantization rounding, the code dtype, the zero point, the
scale, the max pool and the pooled cell to
:func:`pooltutor.viz.quant_chain.plot_quant_chain` (top) and
:func:`pooltutor.viz.zero_point.plot_zero_point_relu` (bottom: the right
clamp at the zero point against the wrong ``max(q, 0)``, on the chain's own
codes), on one persistent figure.  The zero-point slider follows the dtype's
range and the pooled-cell sliders the pooled size; a pool that does not fit
the accumulators shows its reason instead of raising.  Every change draws both
plots again (on two subfigures); the constrained layout runs only when what it
depends on changed (:meth:`ZeroPointReluExplorer.layout_key`), and a zero-point
change redraws only what moves with the zero point over a kept background
(blitting with ``copy_from_bbox`` / ``restore_region`` / ``draw_artist``).
:meth:`ZeroPointReluExplorer.static_widget` (or :func:`zero_point_relu_frames`)
is the kernel-free form: one frame per zero point.

>>> e = ZeroPointReluExplorer(dpi=30)     # TV31: uint8 codes [[126, 120], [110, 127]], zp 128
>>> e.state["pooled"], e.state["pooled_wrong"]                # right 128, wrong 127
([[128]], [[127]])
>>> e.kernel.value = 3                                        # a 3x3 pool on 2x2 codes
>>> e.error
'kernel=(3, 3) does not fit the input (2, 2) on axis 0: ...'
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import numpy as np

from .. import quant
from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int
from ..geometry import pool_geometry
from .cell_selection import CellSelection, OutputGrid
from .explorer import Explorer, FramesWidget, frames_widget
from .quant_chain import plot_quant_chain
from .zero_point import empty_axes, plot_zero_point_relu

__all__ = ["ZeroPointReluExplorer", "zero_point_relu_frames", "PRESETS"]


@contextlib.contextmanager
def _animated(artists):
    """``artists`` animated meanwhile (left out of a figure's draw), then not again."""
    for artist in artists:
        artist.set_animated(True)
    try:
        yield
    finally:
        for artist in artists:
            artist.set_animated(False)

#: Accumulator blocks to choose from (int32 values).
PRESETS = MappingProxyType({
    "seed 003 (TV29)": ((-2, 4), (6, -8)),
    # with M=1, zp=128 (uint8) these requantize to TV31's codes [[126,120],[110,127]]
    "all negative (TV31)": ((-2, -8), (-18, -1)),
    "4x4 mixed": ((-2, 4, 10, -3), (6, -8, 1, 2), (-30, 5, 0, -1), (7, 9, -12, 3)),
    "3x3 (floor: one output)": ((5, -1, 2), (-7, 3, 0), (1, -4, 8)),
    "4x4 ties (rounding)": ((5, -5, 3, -3), (1, -1, 7, -7), (2, -2, 6, -6), (10, -10, 9, -9)),
})

DTYPES = ("uint8", "int8")


class ZeroPointReluExplorer(CellSelection, Explorer):
    """Requantize, ReLU at the zero point, max pool: change any parameter and compare.

    Parameters
    ----------
    preset : str
        One of :data:`PRESETS` (the accumulators).
    multiplier : float
        ``M = s_acc / s_out``.
    zero_point : int
    dtype : {'uint8', 'int8'}
    scale : float
        The output scale ``s`` (real value of a code: ``(q - zp) * s``).
    rounding : str
        One of :data:`pooltutor.quant.REQUANT_ROUNDINGS`.
    kernel, stride : int
        The max pool (no padding, floor rule).
    dpi : float

    Attributes
    ----------
    preset, dtype, rounding : ipywidgets.Dropdown
    multiplier, scale : ipywidgets.FloatLogSlider
    zero_point, kernel, stride : ipywidgets.IntSlider
    cell : tuple of two ipywidgets.IntSlider
        The pooled cell ``(i, j)``; ``max`` follows the pooled size.
    chain : pooltutor.quant.QuantChain or None
    chain_plot, relu_plot : QuantChainPlot, ZeroPointReluPlot or None
    """

    def __init__(self, *, preset: str = "all negative (TV31)", multiplier: float = 1.0,
                 zero_point: int = 128, dtype: str = "uint8", scale: float = 0.5,
                 rounding: str = "half_even", kernel: int = 2, stride: int = 2,
                 dpi: float = 80):
        import ipywidgets as widgets

        check_choice("preset", preset, tuple(PRESETS))
        check_choice("dtype", dtype, DTYPES)
        check_choice("rounding", rounding, quant.REQUANT_ROUNDINGS)
        qmin, qmax = quant.dtype_range(dtype)
        zero_point = check_int("zero_point", zero_point)
        if not qmin <= zero_point <= qmax:
            raise PoolTutorError(f"zero_point={zero_point} is outside the {dtype} range: need "
                                 f"{qmin} <= zero_point <= {qmax}")
        # the ranges of the two log sliders below (a value outside would be clamped silently)
        for name, v, lo, hi in (("multiplier", multiplier, 2.0**-7, 2.0**3),
                                ("scale", scale, 10.0**-2, 10.0**1)):
            if isinstance(v, (bool, np.bool_)) or not isinstance(
                    v, (int, float, np.floating, np.integer)):
                raise PoolTutorTypeError(f"{name}={v!r} has type {type(v).__name__}: need a "
                                         f"float in [{lo:g}, {hi:g}]")
            if not lo <= v <= hi:
                raise PoolTutorError(f"{name}={v!r} is not allowed: need a float in "
                                     f"[{lo:g}, {hi:g}] (the slider's range)")
        kernel = check_int("kernel", kernel, minimum=1)
        stride = check_int("stride", stride, minimum=1)
        style = {"description_width": "80px"}
        wide = widgets.Layout(width="270px")
        self.preset = widgets.Dropdown(options=tuple(PRESETS), value=preset,
                                       description="accumulators", style=style,
                                       layout=widgets.Layout(width="330px"))
        self.multiplier = widgets.FloatLogSlider(value=multiplier, base=2, min=-7, max=3,
                                                 step=0.25, description="multiplier M",
                                                 readout_format=".4g", continuous_update=False,
                                                 style=style, layout=wide)
        self.rounding = widgets.Dropdown(options=quant.REQUANT_ROUNDINGS, value=rounding,
                                         description="rounding", style=style, layout=wide)
        self.dtype = widgets.Dropdown(options=DTYPES, value=dtype, description="dtype",
                                      style=style, layout=widgets.Layout(width="200px"))
        self.zero_point = widgets.IntSlider(value=zero_point, min=qmin, max=qmax,
                                            description="zero point", continuous_update=False,
                                            style=style, layout=wide)
        self.scale = widgets.FloatLogSlider(value=scale, base=10, min=-2, max=1, step=0.05,
                                            description="scale s", readout_format=".3g",
                                            continuous_update=False, style=style, layout=wide)
        self.kernel = widgets.IntSlider(value=kernel, min=1, max=max(4, kernel),
                                        description="pool kernel", continuous_update=False,
                                        style=style, layout=wide)
        self.stride = widgets.IntSlider(value=stride, min=1, max=max(4, stride),
                                        description="pool stride", continuous_update=False,
                                        style=style, layout=wide)
        self.cell = tuple(widgets.IntSlider(value=0, min=0, max=0, description=f"pooled {a}",
                                            continuous_update=False, style=style, layout=wide)
                          for a in "ij")
        self.chain = None
        self.chain_plot = None
        self.relu_plot = None
        self._shapes = None             # the codes' and pooled shapes the Axes were made for
        self._layout_key = None         # what the last layout pass was run for
        self._title_places = []         # (subfigure title, where that layout put it)
        self._placed = None             # where that layout put the Axes (pixels)
        self._sizes: dict = {}           # text extents by digit-normalised text (layout_key)
        self._background = None         # (what it shows, the kept canvas, the Axes' places)
        super().__init__(
            controls=[[self.preset, self.dtype, self.zero_point],
                      [self.multiplier, self.rounding, self.scale],
                      [self.kernel, self.stride, *self.cell]],
            figsize=(9.5, 7.2), dpi=dpi)
        self.figure.set_layout_engine("constrained")
        self.watch(self.preset, self.multiplier, self.rounding, self.dtype, self.zero_point,
                   self.scale, self.kernel, self.stride, *self.cell)
        self._sync_bounds()
        self.safe_update()
        self.add_cell_chooser()

    # ------------------------------------------------------------ wiring

    def _sync_bounds(self) -> None:
        """Zero point within the dtype's range; pooled-cell sliders within the pooled size."""
        qmin, qmax = quant.dtype_range(self.dtype.value)
        with self._hold():
            zp = min(max(self.zero_point.value, qmin), qmax)
            # widen first, then narrow, so that min <= max holds at every step
            self.zero_point.min, self.zero_point.max = min(qmin, self.zero_point.min), \
                max(qmax, self.zero_point.max)
            self.zero_point.value = zp
            self.zero_point.min, self.zero_point.max = qmin, qmax
            try:
                geom = pool_geometry(np.shape(PRESETS[self.preset.value]), self.kernel.value,
                                     self.stride.value)
            except (ValueError, TypeError):
                return                  # draw() shows the reason
            for slider, size in zip(self.cell, geom.output_shape, strict=True):
                if slider.value > size - 1:
                    slider.value = size - 1
                slider.max = size - 1

    @property
    def out_index(self) -> tuple[int, int]:
        return self.cell[0].value, self.cell[1].value

    # ------------------------------------------------------------ output-cell selection

    def _output_grid(self) -> OutputGrid | None:
        """The pooled codes shown; the chosen cell is the pooled-cell sliders'."""
        if getattr(self, "chain", None) is None:
            return None
        return OutputGrid.of_values(self.chain.pooled, self.out_index, prefix="pooled")

    def _apply_cell(self, index) -> None:
        with self._hold():
            self.cell[0].value, self.cell[1].value = index
        self.safe_update()

    # ------------------------------------------------------------ drawing

    def draw(self) -> dict[str, Any]:
        """Compute the chain (a pool that does not fit is refused here, before the figure is
        touched), then draw both plots again: top, the chain with the right ReLU
        (:func:`plot_quant_chain`); bottom, the transfer plot and only what differs, the
        wrong ReLU and its pool (:func:`plot_zero_point_relu`).  The Axes are kept (emptied
        and drawn on again) while the grids keep their shapes; :meth:`render` lays them out
        again only when that changes the layout."""
        acc = np.array(PRESETS[self.preset.value], dtype=np.int32)
        dtype, zp, scale = self.dtype.value, self.zero_point.value, self.scale.value
        chain = quant.relu_max_pool_chain(acc, self.multiplier.value, zp, dtype,
                                          self.kernel.value, self.stride.value,
                                          self.rounding.value, scale=scale)
        index = self.out_index
        explain = chain.explain(*index)             # refuses a pooled cell outside
        kw = dict(kernel=self.kernel.value, stride=self.stride.value, out_index=index,
                  panels=("wrong", "pooled_wrong"))
        shapes = (chain.codes.shape, chain.pooled.shape)
        if shapes == self._shapes:                  # the same grids: the Axes are kept
            chain_axes = list(self.chain_plot.axes.values())
            relu_axes = list(self.relu_plot.axes.values())
            for ax in chain_axes + relu_axes:
                empty_axes(ax, keep_real_axis=ax is relu_axes[0])
            self.chain_plot = plot_quant_chain(chain, index, ax=chain_axes)
            self.relu_plot = plot_zero_point_relu(scale, zp, dtype, codes=chain.codes,
                                                  ax=relu_axes, **kw)
        else:                                       # other grids: new Axes, in their places
            self.figure.clear()
            top, bottom = self.figure.subfigures(2, 1, height_ratios=[1.0, 1.15])
            self.chain_plot = plot_quant_chain(chain, index, fig=top)
            self.relu_plot = plot_zero_point_relu(scale, zp, dtype, codes=chain.codes,
                                                  fig=bottom, **kw)
            self._shapes = shapes
        self.chain = chain
        wrong = int(self.relu_plot.pooled_wrong[index])
        right = int(chain.pooled[index])
        real = chain.real
        verdict = ("the same code: this block cannot tell the two ReLUs apart" if wrong == right
                   else f"{wrong} (real {float(real(wrong)):g}) instead of {right} "
                        f"(real {float(real(right)):g})")
        self.set_explain(explain + f"\n\nWith the wrong ReLU max(q, 0) on raw codes the pooled "
                                   f"code would be {verdict}.")
        return {"codes": chain.codes.tolist(), "activated": chain.activated.tolist(),
                "pooled": chain.pooled.tolist(),
                "wrong": self.relu_plot.wrong.tolist(),
                "pooled_wrong": self.relu_plot.pooled_wrong.tolist(),
                "out_index": index, "window": self.chain_plot.window,
                "winner": self.chain_plot.winner,
                "winner_wrong": self.relu_plot.winners["wrong"],
                "raised": self.chain_plot.raised,
                "relu_floor": chain.relu_floor, "wrong_floor": self.relu_plot.wrong_floor,
                "zero_point": zp, "dtype": dtype, "scale": scale}

    def render(self) -> bytes:
        """Draw the whole figure and show it: :meth:`Explorer.publish` encodes the canvas.

        The constrained layout runs only when something it depends on changed
        (:meth:`layout_key`: the grids, the marked cell, the texts around the Axes up to
        their digits, a tick near an edge) or when the Axes are no longer where this
        method's last layout put them (a ``savefig`` at another dpi lays the figure out
        again); it starts from where the grids place the Axes, as for a new figure.
        Otherwise the Axes keep their places (the layout engine off for this draw), and
        the picture is the one a new explorer draws.  The figure keeps its constrained
        layout engine for any other draw or save."""
        fig = self.figure
        key = self.layout_key()
        relayout = key != self._layout_key or self._places() != self._placed
        still, moving = self._static_and_moving()
        static_key = (self._static_key(), fig.dpi, tuple(fig.get_size_inches()))
        kept = self._background
        if (not relayout and kept is not None and kept[0] == static_key
                and kept[2] == self._places()):
            # only the zero point changed since the kept background was drawn: the parts
            # that do not depend on it are restored (blitting), the rest drawn over them
            self._blit(kept[1], still, moving)
            self._layout_key = key
            return self.publish()
        self._background = None
        if relayout:
            for ax in fig.axes:
                spec = ax.get_subplotspec()
                if spec is not None:
                    ax.set_position(spec.get_position(ax.figure))
                    ax.set_in_layout(True)      # set_position takes it out of the layout
            # one pass more before the draw's: the places then barely depend on where the
            # last layout left the subfigures (a new figure's come out the same)
            fig.get_layout_engine().execute(fig)
        else:
            fig.set_layout_engine("none")
            # the plots set the subfigures' titles again, where a figure without a layout
            # puts them: back to where the layout put them
            for text, place in self._title_places:
                text.set_position(place)
        try:
            # the parts that move with the zero point left out of this draw, the
            # background kept, then those parts drawn over it
            with _animated(moving):
                fig.canvas.draw()
            _, kept, frames = still
            for ax in frames:                   # the Axes' backgrounds under the parts kept
                fig.draw_artist(ax.patch)
            for artist in kept:
                fig.draw_artist(artist)
            background = fig.canvas.copy_from_bbox(fig.bbox)
            self._draw_moving(moving, still)
        finally:
            fig.set_layout_engine("constrained")
        self._background = (static_key, background, self._places())
        if relayout:
            self._title_places = [(t, t.get_position()) for sub in fig.subfigs for t in sub.texts]
            self._placed = self._places()
            key = self.layout_key()                 # the Axes where the layout put them
        self._layout_key = key
        return self.publish()

    def _static_and_moving(self) -> tuple[tuple[list, list], list]:
        """What a zero-point change leaves alike, and what it moves.

        ``((Axes, titles), moving)``: the accumulators' Axes (they do not depend on the
        zero point) and the titles of the other panels that do not either (2. and 4. of
        the chain, the wrong ReLU and its pool); ``moving``: every other artist of the
        two subfigures (their Axes, without those titles, and the chain's suptitle), in
        drawing order."""
        chain, relu = self.chain_plot.axes, self.relu_plot.axes
        still_axes = [chain["accumulators"]]
        kept = [chain["codes"].title, chain["pooled"].title]
        kept += [relu[name].title for name in ("wrong", "pooled_wrong") if name in relu]
        # the code axis of the transfer plot (ticks, grid lines, label) follows the dtype
        # only; it lies on the Axes' background, under everything else drawn there
        kept.append(relu["transfer"].xaxis)
        moving = []
        for sub in self.figure.subfigs:
            for artist in sorted(sub.get_children(), key=lambda a: a.get_zorder()):
                if artist is not sub.patch and artist not in still_axes:
                    moving.append(artist)
        return (still_axes, kept, [relu["transfer"]]), moving

    def _static_key(self) -> tuple:
        """What the parts a zero-point change leaves alike depend on: every control but the
        zero point, and the texts of the titles kept."""
        controls = (self.preset, self.multiplier, self.rounding, self.dtype, self.scale,
                    self.kernel, self.stride, *self.cell)
        transfer = self.relu_plot.line_ax
        titles = self._static_and_moving()[0][1][:-1]
        return (tuple(c.value for c in controls), self._shapes,
                tuple(t.get_text() for t in titles), transfer.get_xlabel(),
                tuple(transfer.get_xticks()), tuple(transfer.get_xlim()))

    def _draw_moving(self, moving, still) -> None:
        """Draw ``moving`` over a background that holds ``still`` (the parts kept left out,
        and the backgrounds of the Axes they lie on, which would cover them)."""
        fig = self.figure
        _, kept, frames = still
        for ax in frames:
            ax.set_frame_on(False)
        try:
            with _animated(kept):
                for artist in moving:
                    fig.draw_artist(artist)
        finally:
            for ax in frames:
                ax.set_frame_on(True)

    def _blit(self, background, still, moving) -> None:
        """Restore ``background`` and draw ``moving`` over it (the titles kept left out)."""
        fig = self.figure
        fig.set_layout_engine("none")
        for text, place in self._title_places:
            text.set_position(place)
        try:
            fig.canvas.restore_region(background)
            self._draw_moving(moving, still)
        finally:
            fig.set_layout_engine("constrained")

    def _places(self) -> tuple:
        """Where the Axes are on the canvas (pixels)."""
        return tuple(tuple(np.round(ax.get_window_extent().extents, 3))
                     for ax in self.figure.axes)

    def layout_key(self) -> tuple:
        """What the constrained layout of the figure depends on, beyond the figure's own
        structure: the grids' shapes and the marked pooled cell (window outlines reach past
        a grid's edge); of the texts around the Axes, what the layout measures of them.

        * A subfigure's title (``gid="suptitle"``): its height (the layout makes room
          above the Axes for it; its width it does not look at).
        * Axes titles and x labels: their height (the layout counts them one pixel wide:
          ``for_layout_only`` in ``Axes.get_tightbbox`` and ``Axis.get_tightbbox``).
        * y tick labels: the width of the widest (the margin the layout leaves).
        * x tick labels: the number of lines; and the text and place of a label near an
          end of its axis (it may reach past the Axes there).
        * y labels and other subfigure texts: their text.

        Texts are keyed with each digit written as ``0`` (the digits of matplotlib's
        default font are equally wide, so a zero point or a code changes no extent
        unless it gains or loses a digit or a sign).  A text or legend on an Axes counts
        only when it reaches past the Axes (inside, the layout does not see it).  So a
        zero point that changes the digits of the titles (``codes 0..99`` to ``0..109``),
        which real values the top axis ticks, or which the y axis ticks but not its widest
        label's width, leaves the layout alone."""
        from matplotlib.axes import Axes

        digits = re.compile(r"[0-9]")
        fig = self.figure
        renderer = fig.canvas.get_renderer()
        sizes = self._sizes
        if len(sizes) > 1024:
            sizes.clear()

        def extent(kind: str, owner: Any, text: str, prop: Any,
                   measure: Callable[[], float]) -> float:
            # a text's height or width depends on its characters with each digit as 0
            # (the digits are equally wide and tall), its font (by its hash, as
            # matplotlib compares fonts: the object may change) and the dpi, and for a
            # Text on its line spacing, kept per artist (``owner``): measured once per
            # such text, as matplotlib 3.11 lays a text out anew for every extent
            key = (kind, owner, digits.sub("0", text), hash(prop), fig.dpi)
            if key not in sizes:
                sizes[key] = round(measure(), 1)
            found: float = sizes[key]
            return found

        def height(t: Any) -> float:
            return extent("height", t, t.get_text(), (t.get_fontproperties(), t.get_rotation()),
                          lambda: t.get_window_extent(renderer).height)

        parts: list = [self._shapes, self.out_index]
        texts: list[str] = []
        for sub in fig.subfigs:
            for t in sub.texts:
                if t.get_gid() == "suptitle":
                    parts.append(height(t))
                else:
                    texts.append(t.get_text())
        real_axis = self.relu_plot.real_axis
        zp, scale = self.relu_plot.zero_point, self.relu_plot.scale
        axes = [*fig.axes, real_axis]
        for ax in axes:
            texts.append(ax.get_ylabel())
            box = ax.get_window_extent(renderer)
            inner = list(ax.texts)
            across = [ax.xaxis.label]
            if isinstance(ax, Axes):                # not a secondary axis
                across += [ax.title]
                if ax.get_legend() is not None:
                    inner.append(ax.get_legend())
            for text in across:
                if text.get_text():
                    parts.append(height(text))
            for artist in inner:
                ext = artist.get_window_extent(renderer)
                if not (box.x0 <= ext.x0 and ext.x1 <= box.x1 and box.y0 <= ext.y0
                        and ext.y1 <= box.y1):
                    parts.append(tuple(np.round(ext.extents - box.extents, 1)))
            for axis in (ax.xaxis, ax.yaxis):
                ticks = np.asarray(axis.get_majorticklocs(), dtype=float)
                if not len(ticks):
                    continue
                labels = axis.get_major_formatter().format_ticks(ticks)
                if axis is ax.yaxis:            # the widest label sets the margin
                    prop = axis.get_major_ticks()[0].label1.get_fontproperties()
                    parts.append(max(
                        extent("width", None, label, prop, lambda label=label: float(
                            renderer.get_text_width_height_descent(label, prop, False)[0]))
                        for label in labels))
                    continue
                parts.append(max(label.count("\n") for label in labels))
                # how far each end tick is from its end of the Axes (pixels), where its
                # label (at most about 0.35 em of 12 pt per character each side) may reach
                if ax is real_axis:             # its limits follow the code axis at draw
                    lo, hi = sorted((np.asarray(self.relu_plot.line_ax.get_xlim()) - zp) * scale)
                else:
                    lo, hi = sorted(ax.get_xlim())
                ends = [(-1, hi - ticks[-1])]
                if not len((self.relu_plot.line_ax if ax is real_axis else ax).get_yticks()):
                    ends.append((0, ticks[0] - lo))     # else the y tick labels reach further
                for k, gap in ends:
                    px = gap / (hi - lo) * box.width
                    if px < 0.35 * len(labels[k]) * 12 * fig.dpi / 72:
                        parts.append((k, round(float(px), 1), digits.sub("0", labels[k])))
        parts.append(tuple(digits.sub("0", t) for t in texts))
        return tuple(parts)

    # ------------------------------------------------------------ kernel-free

    def static_widget(self, zero_points=None) -> FramesWidget:
        """The kernel-free form: one frame per zero point (default 7 across the dtype's range).

        The live zero point is put back afterwards.
        """
        if self.chain is None or self.error is not None:
            raise PoolTutorError(f"no frames to make: the current controls are invalid "
                                 f"({self.error})")
        qmin, qmax = quant.dtype_range(self.dtype.value)
        if zero_points is None:
            zero_points = sorted({int(v) for v in np.linspace(qmin, qmax, 5).round()}
                                 | {max(qmin, 0), self.zero_point.value})
        zero_points = [check_int("zero_points", v) for v in zero_points]
        bad = [v for v in zero_points if not qmin <= v <= qmax]
        if bad or not zero_points:
            raise PoolTutorError(f"zero_points={zero_points!r}: need at least one, each within "
                                 f"the {self.dtype.value} range [{qmin}, {qmax}]")
        keep = self.zero_point.value
        pngs, labels = self.collect_frames(
            zero_points, lambda v: setattr(self.zero_point, "value", v))
        self.zero_point.value = keep
        fw = frames_widget(pngs, labels, description="zero point")
        fw.slider.readout = False
        return fw


def zero_point_relu_frames(zero_points=None, **params) -> FramesWidget:
    """Kernel-free frames for slides: ``ZeroPointReluExplorer(**params).static_widget(...)``.

    >>> fw = zero_point_relu_frames([0, 128], preset="all negative (TV31)", dpi=30)
    >>> len(fw.stack.children), [t.splitlines()[0] for t in fw.labels]
    (2, ['pooled[0, 0] = 0 (uint8 code) = real (0 - 0) * s = 0', \
'pooled[0, 0] = 128 (uint8 code) = real (128 - 128) * s = 0'])
    """
    return ZeroPointReluExplorer(**params).kernel_free(zero_points)
