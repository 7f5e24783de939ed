"""Widget explorer: the quantized chain and ReLU at the zero point, with every knob.

:class:`ZeroPointReluExplorer` wires the accumulators (a few presets), the
multiplier, the requantization rounding, the code dtype, the zero point, the
scale, the max pool and the pooled cell to
:func:`pooltutor.viz.zero_point.plot_quant_chain` (top) and
:func:`pooltutor.viz.zero_point.plot_zero_point_relu` (bottom: the right
clamp at the zero point against the wrong ``max(q, 0)``, on the chain's own
codes), on one persistent figure.  The zero-point slider follows the dtype's
range and the pooled-cell sliders the pooled size; a pool that does not fit
the accumulators shows its reason instead of raising.  A parameter change is
redrawn in place and blitted; a change of dtype, accumulators or pool keeps every
Axes and redraws the figure, without a new layout when no margin changed.
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

from types import MappingProxyType
from typing import Any

import numpy as np

from .. import quant
from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int
from ..geometry import pool_geometry
from .explorer import Explorer, FramesWidget, frames_widget
from .glyphs import glyph_texts
from .zero_point import (
    _blit_list,
    _layered_blit,
    _rebase_quant_chain,
    _repool_quant_chain,
    _repool_zero_point_relu,
    _retype_zero_point_relu,
    _state_key,
    _update_from_chain,
    plot_quant_chain,
    plot_zero_point_relu,
    update_quant_chain,
    update_zero_point_relu,
)

__all__ = ["ZeroPointReluExplorer", "zero_point_relu_frames", "PRESETS"]

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


class ZeroPointReluExplorer(Explorer):
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
        self._structure = None          # what the drawn Axes and static artists show
        self._laid_out = None           # the watched Axes and their margins at the last layout
        self._lower = None              # the lower blitted layer drawn: see render()
        self._layers = None             # the blitted artists in two layers: see render()
        self._blit_kept = None          # what _blit_list made for the last update
        super().__init__(
            controls=[[self.preset, self.dtype, self.zero_point],
                      [self.multiplier, self.rounding, self.scale],
                      [self.kernel, self.stride, *self.cell]],
            figsize=(9.5, 6.2), dpi=dpi, layout="constrained")
        # top: the right chain (codes, ReLU at the zero point, pool); bottom: the transfer
        # plot and only what differs, the wrong ReLU and its pool
        self._top, self._bottom = self.figure.subfigures(2, 1, height_ratios=[1.0, 1.08])
        self.watch(self.preset, self.multiplier, self.rounding, self.dtype, self.zero_point,
                   self.scale, self.kernel, self.stride, *self.cell)
        self._sync_bounds()
        self.safe_update()

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

    # ------------------------------------------------------------ drawing

    def draw(self) -> dict[str, Any]:
        """Compute the chain, then change the drawn plots in place (blitted by
        :meth:`render`: only what the values change is drawn again).  A change of structure
        keeps every Axes: other accumulators of the same shape or another dtype change the
        few static artists they show in place; another pool draws only the pooled panels
        again (and new window outlines); accumulators of another shape draw the chain and
        the code panels again, the transfer plot kept.  The figure is then drawn whole,
        laid out again only when the chain's width ratios or the margins of an Axes the
        change touched differ from those of the last layout."""
        acc = np.array(PRESETS[self.preset.value], dtype=np.int32)
        dtype, zp, scale = self.dtype.value, self.zero_point.value, self.scale.value
        chain = quant.relu_max_pool_chain(acc, self.multiplier.value, zp, dtype,
                                          self.kernel.value, self.stride.value,
                                          self.rounding.value, scale=scale)
        index = self.out_index
        structure = (self.preset.value, dtype, self.kernel.value, self.stride.value)
        if structure == self._structure:
            self.chain_plot = update_quant_chain(self.chain_plot, chain, index)
            self.relu_plot = _update_from_chain(self.relu_plot, chain, index)
        elif self._restyled(structure):
            # other accumulators of the same shape or another dtype, the same pool: every
            # Axes and artist kept, the few static ones that change are changed in place;
            # the figure is drawn again without a new layout (no margin can have changed)
            old_dtype = self._structure[1]
            self._structure = None
            self.chain_plot = _rebase_quant_chain(self.chain_plot, chain, index)
            _retype_zero_point_relu(self.relu_plot, dtype)
            self.relu_plot = update_zero_point_relu(self.relu_plot, scale, zp, codes=chain.codes,
                                                    out_index=index)
            self._structure = structure
            glyph_texts(self.figure, ticks=True)    # new ticks of the code axis: glyphs too
            if self._same_layout([0, 2] if dtype != old_dtype else []):
                self.invalidate()
            else:
                self._relayout()                    # the code axis or a title needs other room
        elif self._structure is not None and self.relu_plot is not None:
            # another shape of accumulators or another pool: the chain drawn again on its
            # Axes, the code panels below drawn again, the transfer plot kept; laid out
            # again only when the width ratios or the margins of a changed Axes differ
            old_preset, old_dtype = self._structure[:2]
            same_grid = self._chain_ratios(old_preset, *self._structure[2:]) == \
                self._chain_ratios(*structure[:1], *structure[2:])
            self._structure = None
            suptitle = self._top._suptitle
            placed = None if suptitle is None else suptitle.get_position()
            if np.shape(PRESETS[old_preset]) == acc.shape:     # another pool
                self.chain_plot = _repool_quant_chain(self.chain_plot, chain, index)
            else:
                self.chain_plot = plot_quant_chain(chain, index, fig=self._top)
            _retype_zero_point_relu(self.relu_plot, dtype)
            self.relu_plot = _repool_zero_point_relu(self.relu_plot, scale, zp, chain.codes,
                                                     kernel=self.kernel.value,
                                                     stride=self.stride.value, out_index=index)
            self._structure = structure
            glyph_texts(self.figure, ticks=True)
            if same_grid and self._same_layout([1, 3, 0, 2] if dtype != old_dtype else [1, 3]):
                self.invalidate()
                if placed is not None:          # where the layout put it, not the default
                    self._top._suptitle.set_position(placed)
            else:
                self._relayout()
        else:
            self._structure = None
            top, bottom = self._top, self._bottom        # kept: their Axes are reused
            self.chain_plot = plot_quant_chain(chain, index, fig=top)
            self.relu_plot = plot_zero_point_relu(scale, zp, dtype, codes=chain.codes,
                                                  kernel=self.kernel.value,
                                                  stride=self.stride.value, out_index=index,
                                                  fig=bottom, panels=("wrong", "pooled_wrong"))
            self._structure = structure
            self._relayout()
        self.animated, self._blit_kept = _blit_list(
            [*self.chain_plot.dynamic, *self.relu_plot.dynamic], self._blit_kept)
        self.chain = chain
        wrong = int(self.relu_plot.pooled_wrong[index])
        right = int(chain.pooled[index])
        real = chain.real
        verdict = ("the same code: this block cannot tell the two ReLUs apart" if wrong == right
                   else f"{wrong} (real {float(real(wrong)):g}) instead of {right} "
                        f"(real {float(real(right)):g})")
        self.set_explain(chain.explain(*index)
                         + f"\n\nWith the wrong ReLU max(q, 0) on raw codes the pooled code "
                           f"would be {verdict}.")
        return {"codes": chain.codes.tolist(), "activated": chain.activated.tolist(),
                "pooled": chain.pooled.tolist(),
                "pooled_wrong": self.relu_plot.pooled_wrong.tolist(),
                "out_index": index, "winner": self.chain_plot.winner,
                "relu_floor": chain.relu_floor, "zero_point": zp, "dtype": dtype}

    def _restyled(self, structure) -> bool:
        """True when the drawn plots can show ``structure`` after in-place changes: the
        accumulators keep their shape and the pool stays (only the preset's values or the
        dtype differ)."""
        if self._structure is None or self.chain_plot is None:
            return False
        preset, _, kernel, stride = self._structure
        return (structure[2:] == (kernel, stride)
                and np.shape(PRESETS[structure[0]]) == np.shape(PRESETS[preset]))

    @staticmethod
    def _chain_ratios(preset, kernel, stride):
        """The width ratios of the chain's panels (those of plot_quant_chain's grid)."""
        shape = np.shape(PRESETS[preset])
        pooled = pool_geometry(shape, kernel, stride).output_shape
        return (shape[1], max(pooled[1], 2.6))

    def _margins(self, axes) -> list:
        """What the constrained layout sees of ``axes``: how far the box around each (its
        drawn box, x and y axis with their ticks and labels, spines and titles: everything
        of these Axes in the layout, their cells, marks and texts are out of it) reaches out
        of its grid place on each side, in pixels."""
        from matplotlib.transforms import Bbox

        renderer = self.figure.canvas.get_renderer()
        out = []
        for ax in axes:
            place = ax.get_position(original=True).transformed(
                ax.get_figure(root=False).transSubfigure)
            boxes = [ax.get_window_extent(renderer),
                     ax.xaxis.get_tightbbox(renderer, for_layout_only=True),
                     ax.yaxis.get_tightbbox(renderer, for_layout_only=True)]
            boxes += [spine.get_window_extent(renderer) for spine in ax.spines.values()
                      if spine.get_visible()]
            ax._update_title_position(renderer)
            boxes += [t.get_window_extent(renderer) for t in (ax.title, ax._left_title,
                                                              ax._right_title)
                      if t.get_visible() and t.get_text()]
            box = Bbox.union([b for b in boxes if b is not None and b.width + b.height > 0])
            # the layout takes a side's margin as the larger of this and 0 (a box inside its
            # place on a side needs no room there)
            out.append(tuple(round(max(0.0, float(v)), 6) for v in (
                place.x0 - box.x0, place.y0 - box.y0, box.x1 - place.x1, box.y1 - place.y1)))
        return out

    def _watched_axes(self) -> list:
        """The Axes whose part in the layout a change of structure can change: the code
        axis and title of the chain's codes, the pooled panels, the transfer plot."""
        return [self.chain_plot.axes["codes"], self.chain_plot.axes["pooled"],
                self.relu_plot.line_ax, self.relu_plot.grid_axes["pooled_wrong"]]

    def _same_layout(self, changed) -> bool:
        """True when the margins of the watched Axes numbered ``changed`` (those whose
        ticks, labels or titles this change of structure changed) are those of the last
        layout (taken after it): the layout would put every Axes where it is."""
        kept = self._laid_out
        if kept is None or self._frozen_layout is None or kept[0] != self._watched_axes():
            return False
        return self._margins([kept[0][k] for k in changed]) == [kept[1][k] for k in changed]

    def render(self) -> bytes:
        """:meth:`Explorer.render`, with the blitted artists in two layers: those of the
        code panels that a zero-point change leaves as they are (the cells' colours, their
        real values, window outlines and marks) are drawn over the cached background and
        kept (one copy of the canvas) while they draw the same; only the rest (the codes,
        titles, the transfer plot) is drawn at every update.  The pixels are those of one
        draw of every artist in matplotlib's order."""
        if self._background is None or not self.animated or self._frozen_layout is None \
                or self.chain_plot is None or self.relu_plot is None:
            self._lower = None
            return self._render_whole()
        from .style import glyph_texts

        glyph_texts(self.animated)
        canvas = self.figure.canvas
        renderer = canvas.get_renderer()
        grid_axes = [*self.chain_plot.axes.values(), *self.relu_plot.grid_axes.values()]
        lower, upper, self._layers = _layered_blit(self.animated, grid_axes, self._layers)
        key = (tuple(tuple(map(id, a.texts)) if hasattr(a, "texts") else id(a) for a in lower),
               tuple(_state_key(a) for a in lower),
               tuple(ax.transData.get_matrix().tobytes() for ax in grid_axes),
               tuple(self.figure.bbox.bounds), self.figure.dpi)
        kept = self._lower
        if kept is not None and kept[0] is self._background and kept[1] == key:
            canvas.restore_region(kept[2])
        else:
            canvas.restore_region(self._background)
            for a in lower:
                a.set_animated(True)
                a.draw(renderer)
            self._lower = (self._background, key, canvas.copy_from_bbox(self.figure.bbox),
                           lower)
        for a in upper:
            a.set_animated(True)
            a.draw(renderer)
        return self.publish()

    def _render_whole(self) -> bytes:
        laying_out = self._frozen_layout is None
        png = super().render()
        if laying_out and self._frozen_layout is not None and self.relu_plot is not None:
            axes = self._watched_axes()             # laid out just now: its margins, kept
            self._laid_out = (axes, self._margins(axes))
        return png

    def _relayout(self) -> None:
        """After a new drawing: lay the figure out again at the next render (the kept Axes
        may need other margins) and redraw its background; every text drawn as filled
        glyph outlines."""
        self.invalidate()
        self._thaw_layout(force=True)       # laid out from the grid, as a new explorer's
        glyph_texts(self.figure, ticks=True)

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
