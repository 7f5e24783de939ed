"""The quantized chain of seed 003: requantize -> ReLU at the zero point -> max pool.

:func:`plot_quant_chain` draws the four stages of a
:class:`pooltutor.quant.QuantChain` side by side (accumulators, requantized
codes, ReLU-activated codes, pooled codes), with the window and the winner of
one pooled code and a corner mark on every code that ReLU raised.

>>> from pooltutor.quant import relu_max_pool_chain
>>> p = plot_quant_chain(relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0))   # TV29
>>> p.pooled.tolist(), p.winner, p.raised
([[3]], (1, 0), ((0, 0), (1, 1)))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from .. import quant
from ..errors import PoolTutorError, PoolTutorTypeError, check_int
from . import style
from .described import DescribedFigure
from .zero_point import (
    INDEX_MARGIN,
    axes_list,
    cell_points,
    draw_code_panel,
    index_labels,
    new_figure,
    text_sizes,
)

__all__ = ["QuantChainPlot", "CHAIN_PANELS", "plot_quant_chain"]

#: The panels of :func:`plot_quant_chain`, in drawing (and ``ax=``) order.
CHAIN_PANELS = ("accumulators", "codes", "activated", "pooled")
#: Largest plane :func:`plot_quant_chain` writes out.
MAX_PLANE = 8


@dataclass(frozen=True, eq=False)
class QuantChainPlot(DescribedFigure):
    """What :func:`plot_quant_chain` drew (and the numbers it shows).

    Attributes
    ----------
    figure : Figure (or SubFigure)
    axes : mapping of str to Axes
        :data:`CHAIN_PANELS` in order.
    panels : mapping of str to CodePanel
        The three code stages (``"codes"``, ``"activated"``, ``"pooled"``).
    accumulator_image : AxesImage
    accumulator_labels : PathCollection
        The accumulators' values (gid ``"value"``) and the row / column indices (gid
        ``"tick"``), a :class:`~pooltutor.viz.style.TextCollection`.
    chain : pooltutor.quant.QuantChain
    out_index : tuple of int
        ``(i, j)`` (or ``(n, c, i, j)``) of the pooled code shown.
    plane : (n, c)
        The plane drawn (``(0, 0)`` for a 2-D chain).
    accumulators, codes, activated, pooled : numpy.ndarray
        That plane of each stage.
    window : tuple of (row, col)
        The cells of the pooling window of ``out_index``.
    winner : (row, col)
        The activated code that won (the first maximum in row-major order).
    raised : tuple of (row, col)
        The codes ReLU raised to the zero point.
    """

    figure: Any
    axes: Mapping
    panels: Mapping
    accumulator_image: Any
    accumulator_labels: Any
    chain: Any
    out_index: tuple
    plane: tuple
    accumulators: np.ndarray
    codes: np.ndarray
    activated: np.ndarray
    pooled: np.ndarray
    window: tuple
    winner: tuple
    raised: tuple

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        z = self.chain.zero_point
        i, j = self.out_index[-2:]
        raised = (f"ReLU raised {len(self.raised)} code(s) to the zero point {z}"
                  if self.raised else f"ReLU raised no code (zero point {z})")
        return (f"The quantized chain in four panels: accumulators, codes, ReLU at the zero "
                f"point, max pool. {raised}; pooled code ({i}, {j}) = {int(self.pooled[i, j])} "
                f"comes from activated code {self.winner}.")


def _index(chain, out_index) -> tuple[int, ...]:
    """``out_index`` checked against the pooled stage: ``(i, j)`` or ``(n, c, i, j)``."""
    shape = chain.pooled.shape
    if out_index is None:
        return (0,) * len(shape)
    index = tuple(out_index) if isinstance(out_index, (tuple, list)) else (out_index,)
    if len(index) != len(shape):
        need = "(i, j)" if len(shape) == 2 else "(n, c, i, j)"
        raise PoolTutorError(f"out_index={index!r}: need {need} for the pooled stage shaped "
                             f"{shape}")
    for v, size in zip(index, shape, strict=True):
        if check_int("out_index", v, minimum=0) >= size:
            raise PoolTutorError(f"out_index={index!r} is outside the pooled stage shaped {shape}")
    return tuple(int(v) for v in index)


def plot_quant_chain(chain, out_index=None, *, fig=None, ax=None) -> QuantChainPlot:
    """Draw the four stages of a :class:`pooltutor.quant.QuantChain` side by side.

    Parameters
    ----------
    chain : pooltutor.quant.QuantChain
        From :func:`pooltutor.quant.relu_max_pool_chain`, 2-D or ``(N, C, H, W)``
        (planes of at most 8 x 8).
    out_index : tuple of int, optional
        The pooled code whose window and winner are marked: ``(i, j)`` for a
        2-D chain, ``(n, c, i, j)`` for a 4-D one (its plane is drawn);
        default the first.
    fig : Figure or SubFigure, optional
        Drawn on after ``fig.clear()``.
    ax : sequence of 4 Axes, optional
        Drawn on instead, in :data:`CHAIN_PANELS` order: accumulators, codes,
        activated, pooled.

    Returns
    -------
    QuantChainPlot

    Notes
    -----
    The code stages (codes, activated, pooled) share one colour scale; the
    accumulators, in another unit, have their own.  Each code cell shows its
    real value ``(q - zp) * s`` (in units of ``s`` when the chain has no
    scale).  The window is outlined on the cells' edges, the winner marked by a
    square inside its cell, and every code that ReLU raised to the zero point by a
    triangle in its corner.

    Examples
    --------
    TV29 (seed 003): accumulators ``[[-2, 4], [6, -8]]``, M = 0.5, zero point 0:

    >>> from pooltutor.quant import relu_max_pool_chain
    >>> p = plot_quant_chain(relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0))
    >>> p.window, p.winner
    (((0, 0), (0, 1), (1, 0), (1, 1)), (1, 0))

    See Also
    --------
    pooltutor.quant.QuantChain.explain : the same story in words.
    """
    if not isinstance(chain, quant.QuantChain):
        raise PoolTutorTypeError(f"chain has type {type(chain).__name__}: need a "
                                 f"pooltutor.quant.QuantChain (from relu_max_pool_chain)")
    style.check_fig(fig)
    index = _index(chain, out_index)
    two_d = chain.accumulators.ndim == 2
    n, c, i, j = (0, 0, *index) if two_d else index
    pick = (lambda a: np.asarray(a)) if two_d else (lambda a: np.asarray(a)[n, c])  # noqa: E731
    acc, codes, act, pooled = (pick(chain.accumulators), pick(chain.codes),
                               pick(chain.activated), pick(chain.pooled))
    rows, cols = acc.shape
    if max(rows, cols) > MAX_PLANE:
        raise PoolTutorError(f"the chain's planes are {acc.shape}: plot_quant_chain writes "
                             f"every value, need at most {MAX_PLANE} x {MAX_PLANE}")
    g = chain.geometry
    r0, c0 = int(g.axes[0].window_starts[i]), int(g.axes[1].window_starts[j])
    window = tuple((r0 + a, c0 + b) for a in range(g.kernel[0]) for b in range(g.kernel[1]))
    winner = tuple(int(v) for v in divmod(int(pick(chain.winners)[i, j]), cols))
    floor = chain.relu_floor
    raised = tuple((int(r), int(cc)) for r, cc in np.argwhere(codes.astype(np.int64) < floor))
    # every panel wide enough for its two-line title; the cells square
    cell = 0.75 if max(rows, cols) <= 4 else 0.55
    width = max(cols * cell, 2.0)
    ratios = [width] * 3 + [max(pooled.shape[1] * width / cols, 1.9)]
    if ax is not None:
        axes = axes_list(ax, 4, "4 Axes: " + ", ".join(CHAIN_PANELS))
        fig = axes[0].figure
    else:
        if fig is None:
            fig = new_figure((sum(ratios) + 1.2, rows * width / cols + 2.3))
        else:
            fig.clear()
        grid = fig.add_gridspec(1, 4, width_ratios=ratios)
        axes = [fig.add_subplot(grid[0, k]) for k in range(4)]
    # 1. the accumulators, on their own colour scale
    ax0 = axes[0]
    a_lo, a_hi = style.shared_limits(acc)
    acc_image = style.draw_grid(ax0, acc.astype(float), vmin=a_lo, vmax=a_hi, annotate=False,
                                ticks=False)
    ax0.set_xticks([])      # no ticks made only to be taken away (cheaper)
    ax0.set_yticks([])
    for spine in ax0.spines.values():
        spine.set_visible(False)
    ax0.set_aspect("equal")
    size = text_sizes(cell_points(ax0, acc.shape, INDEX_MARGIN), 1)[0]
    colors = style.cell_text_colors(acc, a_lo, a_hi)
    texts = style.TextCollection()
    for (r, cc), v in np.ndenumerate(acc):
        texts.add(cc, r, str(int(v)), size, str(colors[r, cc]), gid="value")
    ax0.set_xlim(-0.5, cols - 0.5)
    ax0.set_ylim(rows - 0.5, -0.5)
    index_labels(ax0, texts, rows, cols)
    acc_labels = texts.draw(ax0, gid="cell-labels")
    style.outline_cells(ax0, list(window), linewidth=3, autolim=False)
    ax0.set_title("1. accumulators (int32)", fontsize=10.5, y=1.0)     # nothing above it
    # 2.-4. the code stages, on one colour scale
    vmin, vmax = style.shared_limits(codes, act, pooled)
    real, scale = chain.real, chain.scale
    panels = {
        "codes": draw_code_panel(axes[1], codes, real(codes), vmin=vmin, vmax=vmax,
                                 scale=scale, window=window, indices=True,
                                 title=f"2. requantized ({chain.dtype})\n"
                                       f"q = round(acc\u00b7M) + zp"),
        "activated": draw_code_panel(axes[2], act, real(act), vmin=vmin, vmax=vmax,
                                     scale=scale, window=window, winner=winner, raised=raised,
                                     indices=True,
                                     title=f"3. ReLU at the real zero\nmax(q, {floor})"),
        "pooled": draw_code_panel(axes[3], pooled, real(pooled), vmin=vmin, vmax=vmax,
                                  scale=scale, highlight=(i, j), indices=True,
                                  title=f"4. max pool {g.kernel[0]}x{g.kernel[1]}\n"
                                        f"stride {_pair(g.stride)}, no padding"),
    }
    scale_text = "s" if scale is None else f"scale={scale:g}"
    plane = "" if two_d else f", plane n={n}, c={c}"
    raised_text = (f"{len(raised)} code(s) raised to the zero point (corner triangles)"
                   if raised else "no code raised by ReLU")
    fig.suptitle(f"Quantized chain: M={chain.multiplier:g}, zero point {chain.zero_point}, "
                 f"{chain.dtype}, rounding {chain.rounding} ({scale_text}){plane}\n"
                 f"pooled {index} = {int(pooled[i, j])}: window outlined, winner {winner} "
                 f"marked inside its cell\n{raised_text}", fontsize=10.5, gid="suptitle")
    return QuantChainPlot(fig, MappingProxyType(dict(zip(CHAIN_PANELS, axes, strict=True))),
                          MappingProxyType(panels), acc_image, acc_labels, chain, index, (n, c),
                          acc, codes, act, pooled, window, winner, raised)


def _pair(t) -> str:
    return str(t[0]) if t[0] == t[1] else f"{t[0]}x{t[1]}"
