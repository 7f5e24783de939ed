"""ReLU on quantized codes: the clamp at the zero point, and the quantized stage chain.

A code ``q`` stands for the real value ``(q - zero_point) * scale``, so the
real zero is the code ``zero_point``, not the code 0 (:mod:`pooltutor.quant`).

* :func:`plot_zero_point_relu` draws, for one ``(scale, zero_point, dtype)``,
  what ReLU does to every code: the correct clamp ``max(q, max(qmin, zp))``
  (:func:`pooltutor.quant.relu`) against the wrong ``max(q, 0)`` on raw
  codes (the same function with zero point 0, what ONNX ``Relu`` does to
  integers), with a real-value axis next to the code axis.  Given a block
  of codes it also shows both ReLUs on it and what a max pool then keeps
  (TV31: codes ``[[126, 120], [110, 127]]`` at zero point 128 pool to 128
  with the right clamp, 127, a negative real value, with the wrong one).
* :func:`plot_quant_chain` draws the four stages of a
  :class:`pooltutor.quant.QuantChain` (accumulators, requantized codes,
  ReLU-activated codes, pooled codes) with the window and the winner of one
  pooled code.

>>> from pooltutor.viz.zero_point import plot_zero_point_relu
>>> p = plot_zero_point_relu(0.5, 128, "uint8", codes=[[126, 120], [110, 127]])   # TV31
>>> p.pooled_right.tolist(), p.pooled_wrong.tolist()
([[128]], [[127]])
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from .. import quant
from ..errors import PoolTutorError, PoolTutorTypeError, check_int
from . import style
from .indices import keep_axes, prepare_figure

__all__ = [
    "ZeroPointReluPlot",
    "QuantChainPlot",
    "plot_zero_point_relu",
    "plot_quant_chain",
]

#: Colour of the input codes (no ReLU) in the transfer plot.
IDENTITY_COLOR = "#9e9e9e"


@dataclass(frozen=True, eq=False)
class ZeroPointReluPlot:
    """What :func:`plot_zero_point_relu` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    line_ax : Axes
        Input code -> real value after ReLU, right and wrong.
    grid_axes : mapping of str to Axes
        With ``codes``: ``"codes"``, ``"right"``, ``"pooled_right"``,
        ``"wrong"``, ``"pooled_wrong"``; empty otherwise.
    right_floor, wrong_floor : int
        The code each ReLU clamps at: ``max(qmin, zp)`` and ``max(qmin, 0)``.
    right, wrong : numpy.ndarray or None
        ``codes`` after each ReLU.
    pooled_right, pooled_wrong : numpy.ndarray or None
        Their max pools (codes).
    """

    figure: Any
    line_ax: Any
    grid_axes: Any
    right_floor: int
    wrong_floor: int
    right: np.ndarray | None
    wrong: np.ndarray | None
    pooled_right: np.ndarray | None
    pooled_wrong: np.ndarray | None


@dataclass(frozen=True, eq=False)
class QuantChainPlot:
    """What :func:`plot_quant_chain` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    axes : mapping of str to Axes
        ``"accumulators"``, ``"codes"``, ``"activated"``, ``"pooled"``.
    out_index : tuple of int
        ``(i, j)`` (or ``(n, c, i, j)``) of the pooled code shown.
    window : tuple of (row, col)
        The cells of its pooling window.
    winner : (row, col)
        The activated code that won (the first maximum in row-major order).
    """

    figure: Any
    axes: Any
    out_index: tuple[int, ...]
    window: tuple[tuple[int, int], ...]
    winner: tuple[int, int]


# --------------------------------------------------------------------------- helpers


def _real_text(real: float, scale) -> str:
    """Real value of a code, e.g. ``-1`` or ``-2s`` (in units of s without a scale)."""
    if scale is None:
        v = style.format_value(float(real))
        return "0" if v in ("0", "-0") else f"{v}s"
    v = float(real)
    return style.format_value(0.0 if v == 0 else v)


def _room_for_indices(ax):
    """Blank axis labels, so that the layout keeps room for the row / column indices (drawn
    in a text collection, which the layout does not see)."""
    ax.set_xlabel("\u2007", fontsize=9, labelpad=6)
    ax.set_ylabel("\u2007", fontsize=9, labelpad=4)


def _code_grid(ax, codes, reals, vmin, vmax, scale, size=12, *, indices=True):
    """Codes as a heatmap, each cell with its code (big, gid ``"value"``) and its real value
    (small, gid ``"real"``); row and column indices (gid ``"tick"``) when ``indices``.

    Drawn for speed: one image and one text collection (no ``Text`` artist per cell, no
    tick machinery); the texts are read with :func:`~pooltutor.viz.style.texts_of`.
    """
    from .heatmaps import _BAD_WHITE_CMAP, _index_labels

    codes = np.asarray(codes)
    rows, cols = codes.shape
    ax.imshow(np.ma.masked_invalid(codes.astype(float)), cmap=_BAD_WHITE_CMAP(), vmin=vmin,
              vmax=vmax, extent=(-0.5, cols - 0.5, rows - 0.5, -0.5), interpolation="nearest")
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    labels = style.TextCollection()
    colors = style.cell_text_colors(codes, vmin, vmax)
    for i in range(rows):
        for j in range(cols):
            color = str(colors[i, j])
            labels.add(j, i - 0.1, str(int(codes[i, j])), size, color, gid="value", bold=True)
            labels.add(j, i + 0.26, "real " + _real_text(reals[i, j], scale), size - 4, color,
                       gid="real")
    if indices:
        _index_labels(ax, labels, range(rows), range(cols), size=9)
        _room_for_indices(ax)
    labels.draw(ax)


def _window_and_winner(ax, result, index, *, color=style.WINDOW_COLOR):
    """Outline the window of ``index`` and mark its winner (a PoolResult with plane indices)."""
    per_axis = result.geometry.window(index)
    cells = [(r, c) for r in per_axis[0][0] for c in per_axis[1][0]]
    style.outline_cells(ax, cells, color=color, linewidth=3)
    plane = int(result.indices[(0, 0) + tuple(index)])
    width = result.input.shape[-1]
    winner = divmod(plane, width)
    _mark_winner(ax, winner)
    return cells, winner


def _pair(t):
    return str(t[0]) if t[0] == t[1] else f"{t[0]}x{t[1]}"


def _mark_winner(ax, cell):
    from .adaptive import mark_winner

    return mark_winner(ax, cell)


# --------------------------------------------------------------------------- zero point


def _check_params(scale, zero_point, dtype):
    """Validated ``(dtype name, qmin, qmax, scale, zero_point)``, through pooltutor.quant's
    own public checks (so the messages are the same as there)."""
    qmin, qmax = quant.dtype_range(dtype)                       # names dtype
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    probe = np.array([qmin], dtype=name)
    quant.relu(probe, zero_point, name)                         # names zero_point
    quant.dequantize(probe, scale, zero_point, name)            # names scale
    return name, qmin, qmax, float(scale), int(zero_point)


def _check_block(codes, dtype, qmin, qmax):
    try:
        arr = np.asarray(codes)
    except (TypeError, ValueError) as exc:
        raise PoolTutorTypeError(f"codes could not be read as an integer array ({exc})") from None
    if arr.dtype.kind not in "iu":
        raise PoolTutorTypeError(f"codes has dtype {arr.dtype}: need integer codes")
    if arr.size and (int(arr.min()) < qmin or int(arr.max()) > qmax):
        bad = int(arr.min()) if int(arr.min()) < qmin else int(arr.max())
        raise PoolTutorError(
            f"codes holds the code {bad}, outside the {dtype} range [{qmin}, {qmax}]"
        )
    return arr


#: The code panels of :func:`plot_zero_point_relu`, in drawing order.
RELU_PANELS = ("codes", "right", "pooled_right", "wrong", "pooled_wrong")


def plot_zero_point_relu(scale, zero_point, dtype="uint8", codes=None, *, kernel=2, stride=None,
                         out_index=(0, 0), fig=None, panels=RELU_PANELS) -> ZeroPointReluPlot:
    """Draw ReLU at the zero point against ReLU at the literal code 0.

    Parameters
    ----------
    scale : float
        The scale ``s > 0`` of the codes (real value ``(q - zp) * s``).
    zero_point : int
        Inside the range of ``dtype``.
    dtype : {'uint8', 'int8', 'uint16', 'int16'} or numpy dtype
    codes : 2-D array_like of int, optional
        A block of codes: both ReLUs are applied to it and max pooled
        (``kernel``, ``stride``, no padding, floor rule).
    kernel, stride : int or (int, int)
        The max pool applied to ``codes`` (``stride=None``: ``kernel``).
    out_index : (int, int)
        The pooled cell whose window and winner are marked.
    fig : matplotlib.figure.Figure, optional
        Drawn on (after ``fig.clear()``); a new Figure by default.
    panels : sequence of str
        Which code panels to draw with ``codes`` (a subset of :data:`RELU_PANELS`, drawn
        in that order right of the transfer plot when fewer than all five: an
        explorer that shows the right ReLU's chain already draws only ``("wrong",
        "pooled_wrong")``).  Every array of the result is computed either way.

    Returns
    -------
    ZeroPointReluPlot

    Notes
    -----
    With ``zero_point = 0`` the two clamps agree.  With ``zero_point > 0``
    (uint8, zero point 128) ``max(q, 0)`` does nothing at all: every negative
    real value survives.  With ``zero_point < 0`` (int8, zero point -20,
    TV37) it raises the codes ``zp .. -1`` to 0, i.e. small *positive*
    real values are replaced by ``-zp * s``.

    Examples
    --------
    TV37: int8 codes, zero point -20:

    >>> p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    >>> p.right.tolist(), p.wrong.tolist(), (p.right_floor, p.wrong_floor)
    ([[-20, -5], [0, 7]], [[0, 0], [0, 7]], (-20, 0))

    See Also
    --------
    pooltutor.quant.relu : the correct clamp.
    pooltutor.viz.relu_explorer.ZeroPointReluExplorer : the same, with controls.
    """
    from matplotlib.transforms import blended_transform_factory

    style.check_fig(fig)
    dtype, qmin, qmax, scale, zp = _check_params(scale, zero_point, dtype)
    block = None
    if codes is not None:
        block = _check_block(codes, dtype, qmin, qmax)
        if block.ndim != 2 or 0 in block.shape:
            raise PoolTutorError(f"codes has shape {block.shape}: need a non-empty 2-D block")
        if max(block.shape) > 8:
            raise PoolTutorError(
                f"codes has shape {block.shape}: plot_zero_point_relu writes every code, "
                f"need at most 8 x 8"
            )
        block = block.astype(dtype)
    right_floor = max(qmin, zp)
    wrong_floor = max(qmin, 0)

    if isinstance(panels, str):
        panels = (panels,)
    panels = tuple(panels)
    if not panels or any(name not in RELU_PANELS for name in panels) or len(set(panels)) != len(
            panels):
        raise PoolTutorError(f"panels={panels!r} is not allowed: need distinct names among "
                             f"{', '.join(repr(v) for v in RELU_PANELS)}")
    panels = tuple(name for name in RELU_PANELS if name in panels)
    full = len(panels) == len(RELU_PANELS)
    figsize = (12.5, 8.4) if block is not None else (9.5, 5.2)
    fig, kept = prepare_figure(fig, ("zero_point_relu", block is None, panels), figsize)
    if kept is None:
        if block is not None and full:
            grid = fig.add_gridspec(2, 5, height_ratios=[1.25, 1.0])
            kept = [fig.add_subplot(grid[0, :])] + [fig.add_subplot(grid[1, k]) for k in range(5)]
        elif block is not None:             # the transfer plot, then the panels in a row
            grid = fig.add_gridspec(1, 1 + len(panels), width_ratios=[2.6] + [1] * len(panels))
            kept = [fig.add_subplot(grid[0, k]) for k in range(1 + len(panels))]
        else:
            kept = [fig.add_subplot()]
        keep_axes(fig, kept)
    line_ax = kept[0]

    # ---- the transfer plot: input code -> real value after ReLU
    # (smaller text beside a row of panels, when not every panel is drawn)
    fs = (lambda v: v) if full or block is None else (lambda v: round(v * 0.78, 1))   # noqa: E731
    q = np.arange(qmin, qmax + 1, dtype=np.int64).astype(dtype)
    real_in = quant.dequantize(q, scale, zp, dtype)
    real_right = quant.dequantize(quant.relu(q, zp, dtype), scale, zp, dtype)
    real_wrong = quant.dequantize(quant.relu(q, 0, dtype), scale, zp, dtype)
    qf = q.astype(np.float64)
    line_ax.plot(qf, real_in, color=IDENTITY_COLOR, linewidth=1.2, linestyle=":",
                 label="no ReLU: real = (q \u2212 zp)\u00b7s", gid="identity")
    line_ax.plot(qf, real_wrong, color=style.WRONG_COLOR, linewidth=2.2, linestyle="--",
                 label=f"wrong: max(q, 0) on raw codes (clamps at code {wrong_floor})",
                 gid="wrong", zorder=4)
    line_ax.plot(qf, real_right, color=style.RIGHT_COLOR, linewidth=3.2, alpha=0.85,
                 label=f"right: max(q, max(qmin, zp)) (clamps at code {right_floor})",
                 gid="right", zorder=3)
    line_ax.axhline(0.0, color="black", linewidth=0.8, zorder=1)
    lo, hi = sorted((wrong_floor, right_floor))
    if lo != hi:
        line_ax.axvspan(lo, hi, color=style.WRONG_COLOR, alpha=0.08, gid="disagree", zorder=0)
    top = blended_transform_factory(line_ax.transData, line_ax.transAxes)
    line_ax.axvline(zp, color=style.RIGHT_COLOR, linewidth=1.2, linestyle="-.", zorder=2,
                    gid="zero-point")
    span = qmax - qmin

    def label(code, y, text, color, gid):
        # left of the line when there is room there and the other line is to the right
        other = 0 if code == zp else zp
        left = code - qmin > 0.2 * span and other > code
        line_ax.text(code, y, f"{text} " if left else f" {text}", transform=top,
                     ha="right" if left else "left", va="top", fontsize=fs(10.5), color=color,
                     gid=gid, bbox=dict(facecolor="white", edgecolor="none", alpha=0.8, pad=1))

    label(zp, 0.97, f"code zp = {zp}\n(real 0)", style.RIGHT_COLOR, "zero-point-label")
    if qmin <= 0 <= qmax and zp != 0:
        line_ax.axvline(0, color=style.WRONG_COLOR, linewidth=1.2, linestyle="-.", zorder=2,
                        gid="code-zero")
        label(0, 0.80, f"code 0\n(real {_real_text(-zp * scale, scale)})", style.WRONG_COLOR,
              "code-zero-label")
    if block is not None:
        flat = np.unique(block.ravel())
        line_ax.plot(flat.astype(float), quant.dequantize(flat, scale, zp, dtype), "o",
                     color="black", markersize=5, zorder=6, label="the block's codes (input)",
                     gid="block-codes")
    line_ax.set_xlim(qmin - 0.02 * (qmax - qmin), qmax + 0.02 * (qmax - qmin))
    line_ax.set_xlabel(f"input code q ({dtype}, {qmin} .. {qmax})", fontsize=fs(11))
    line_ax.set_ylabel("real value after ReLU", fontsize=fs(11))
    functions = (lambda c: (c - zp) * scale, lambda r: r / scale + zp)
    secondary = [a for a in line_ax.child_axes if a.get_gid() == "real-axis"]
    if secondary:                                   # a kept Axes: update its functions
        sec = secondary[0]
        sec.set_functions(functions)
    else:
        sec = line_ax.secondary_xaxis("top", functions=functions)
        sec.set_gid("real-axis")
    sec.set_xlabel("real value of the input code, (q \u2212 zp)\u00b7s", fontsize=fs(10.5))
    sec.tick_params(labelsize=fs(9.5))
    line_ax.tick_params(labelsize=fs(9.5))
    line_ax.grid(alpha=0.25)
    line_ax.legend(loc="best", fontsize=fs(10), framealpha=0.95)
    if zp == wrong_floor:
        verdict = "zero point = the literal 0: both clamps agree"
    elif zp > 0:
        verdict = (f"max(q, 0) does nothing: codes {max(qmin, 0)}..{zp - 1} keep their negative "
                   f"real values")
    else:
        verdict = (f"max(q, 0) raises codes {zp}..-1 to 0: their real values become "
                   f"{_real_text(-zp * scale, scale)}")
    line_ax.set_title(f"ReLU on {dtype} codes: scale={scale:g}, zero_point={zp}\n{verdict}",
                      fontsize=fs(12))

    grid_axes = {}
    right = wrong = pooled_right = pooled_wrong = None
    if block is not None:
        right = quant.relu(block, zp, dtype)
        wrong = quant.relu(block, 0, dtype)
        x4 = lambda a: a.reshape((1, 1) + a.shape)      # noqa: E731
        res_right = quant.quantized_max_pool(x4(right), kernel, stride, dtype=dtype)
        res_wrong = quant.quantized_max_pool(x4(wrong), kernel, stride, dtype=dtype)
        pooled_right, pooled_wrong = res_right.output[0, 0], res_wrong.output[0, 0]
        index = tuple(out_index)
        if len(index) != 2:
            raise PoolTutorError(f"out_index={out_index!r}: need (i, j)")
        for v, size in zip(index, pooled_right.shape, strict=False):
            check_int("out_index", v, minimum=0)
            if v >= size:
                raise PoolTutorError(
                    f"out_index={out_index!r} is outside the pooled codes shaped "
                    f"{pooled_right.shape}"
                )
        vmin, vmax = style.shared_limits(block, right, wrong, [right_floor])
        real = lambda a: quant.dequantize(a, scale, zp, dtype)      # noqa: E731
        g = res_right.geometry
        pool_text = (f"max pool k={g.kernel[0] if g.kernel[0] == g.kernel[1] else g.kernel} "
                     f"s={g.stride[0] if g.stride[0] == g.stride[1] else g.stride}")
        drawn = [
            ("codes", block, "input codes"),
            ("right", right, f"right ReLU\nmax(q, {right_floor})"),
            ("pooled_right", pooled_right, f"{pool_text}\nof the right ReLU"),
            ("wrong", wrong, f"wrong ReLU\nmax(q, {wrong_floor})"),
            ("pooled_wrong", pooled_wrong, f"{pool_text}\nof the wrong ReLU"),
        ]
        drawn = [entry for entry in drawn if entry[0] in panels]
        for k, (name, arr, title) in enumerate(drawn):
            ax = kept[1 + k]
            _code_grid(ax, arr, real(arr), vmin, vmax, scale, indices=False)
            color = (style.RIGHT_COLOR if "right" in name else
                     style.WRONG_COLOR if "wrong" in name else "black")
            ax.set_title(title, fontsize=11, color=color)
            ax.set_xticks([])               # cell positions do not matter here (and tick
            ax.set_yticks([])               # labels are a large part of every redraw)
            grid_axes[name] = ax
        if "right" in grid_axes:
            _window_and_winner(grid_axes["right"], res_right, index)
        if "wrong" in grid_axes:
            _window_and_winner(grid_axes["wrong"], res_wrong, index)
        per_axis = res_right.geometry.window(index)
        if "codes" in grid_axes:
            style.outline_cells(grid_axes["codes"],
                                [(r, c) for r in per_axis[0][0] for c in per_axis[1][0]],
                                linewidth=3)
        for name in ("pooled_right", "pooled_wrong"):
            if name in grid_axes:
                style.mark_cell(grid_axes[name], index, color=style.HIGHLIGHT_COLOR,
                                gid="highlight")
        r, w = int(pooled_right[index]), int(pooled_wrong[index])
        for name, code in (("pooled_right", r), ("pooled_wrong", w)):
            if name not in grid_axes:
                continue
            value = float(real(np.array([code], dtype=dtype))[0])
            if value < 0:
                text, color = f"{code}: real {_real_text(value, scale)} < 0 !", \
                    style.WRONG_COLOR
            elif name == "pooled_wrong" and code != r:
                text, color = f"{code}: real {_real_text(value, scale)}, not {r}", \
                    style.WRONG_COLOR
            else:
                text, color = f"{code}: real {_real_text(value, scale)}", "black"
            grid_axes[name].set_xlabel(text, fontsize=10.5, color=color)
        for ax in grid_axes.values():
            for artist in (*ax.texts, *ax.patches, *ax.images):
                artist.set_in_layout(False)
    return ZeroPointReluPlot(fig, line_ax, MappingProxyType(grid_axes), right_floor, wrong_floor,
                             right, wrong, pooled_right, pooled_wrong)


# --------------------------------------------------------------------------- the chain


def plot_quant_chain(chain, out_index=None, *, fig=None) -> QuantChainPlot:
    """Draw the four stages of a :class:`pooltutor.quant.QuantChain` side by side.

    Parameters
    ----------
    chain : pooltutor.quant.QuantChain
        From :func:`pooltutor.quant.relu_max_pool_chain`.
    out_index : tuple of int, optional
        The pooled code whose window and winner are marked: ``(i, j)`` for a
        2-D chain, ``(n, c, i, j)`` for a 4-D one (its plane is drawn);
        default the first.
    fig : matplotlib.figure.Figure, optional

    Returns
    -------
    QuantChainPlot

    Notes
    -----
    The code stages (codes, activated, pooled) share one colour scale; the
    accumulators, in another unit, have their own.  Each code cell shows its
    real value ``(q - zp) * s`` (in units of ``s`` when the chain has no
    scale).  Codes that ReLU raised to the zero point are outlined in green dashes.

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
        raise PoolTutorTypeError(
            f"chain has type {type(chain).__name__}: need a pooltutor.quant.QuantChain "
            f"(from relu_max_pool_chain)"
        )
    style.check_fig(fig)
    two_d = chain.accumulators.ndim == 2
    if out_index is None:
        out_index = (0,) * chain.pooled.ndim
    index = tuple(out_index) if isinstance(out_index, (tuple, list)) else (out_index,)
    n, c, i, j = chain._locate(index)
    pick = (lambda a: a) if two_d else (lambda a: a[n, c])
    acc, codes, act, pooled = (pick(chain.accumulators), pick(chain.codes),
                               pick(chain.activated), pick(chain.pooled))
    if max(acc.shape) > 12:
        raise PoolTutorError(
            f"the chain's planes are {acc.shape}: plot_quant_chain writes every value, need at "
            f"most 12 x 12"
        )
    rows, cols = acc.shape
    g = chain.geometry
    r0, c0 = g.axes[0].window_starts[i], g.axes[1].window_starts[j]
    window = tuple((r0 + a, c0 + b) for a in range(g.kernel[0]) for b in range(g.kernel[1]))
    winner = tuple(int(v) for v in divmod(int(pick(chain.winners)[i, j]), cols))

    cell = min(0.8, 3.3 / max(rows, cols))
    width = 3 * (cols * cell + 0.5) + pooled.shape[1] * cell + 1.0
    figsize = (max(width, 12.0), max(rows * cell + 1.9, 3.8))
    fig, kept = prepare_figure(fig, ("quant_chain", acc.shape, pooled.shape), figsize)
    if kept is None:
        grid = fig.add_gridspec(1, 4, width_ratios=[cols, cols, cols, max(pooled.shape[1], 2.6)])
        kept = [fig.add_subplot(grid[0, k]) for k in range(4)]
        keep_axes(fig, kept)
    size = 12 if max(rows, cols) <= 4 else 10 if max(rows, cols) <= 8 else 8
    axes = {}

    ax = kept[0]
    from .heatmaps import _grid, _index_labels

    a_lo, a_hi = style.shared_limits(acc)
    labels = style.TextCollection()
    _grid(ax, acc, vmin=a_lo, vmax=a_hi, annotate=False)
    colors = style.cell_text_colors(acc, a_lo, a_hi)
    for (r, cc), v in np.ndenumerate(acc):
        labels.add(cc, r, str(int(v)), size, str(colors[r, cc]), gid="value")
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    _index_labels(ax, labels, range(rows), range(cols), size=9)
    _room_for_indices(ax)
    labels.draw(ax)
    ax.set_title("1. accumulators (int32)", fontsize=11.5)
    axes["accumulators"] = ax

    vmin, vmax = style.shared_limits(codes, act, pooled)
    real = chain.real
    titles = {
        "codes": f"2. requantized codes ({chain.dtype})\nq = round(acc\u00b7M) + zp",
        "activated": f"3. ReLU at the real zero\nmax(q, max(qmin, zp)) = max(q, "
                     f"{chain.relu_floor})",
    }
    for k, (name, arr) in enumerate((("codes", codes), ("activated", act)), start=1):
        ax = kept[k]
        _code_grid(ax, arr, real(arr), vmin, vmax, chain.scale, size=size)
        ax.set_title(titles[name], fontsize=10.5)
        axes[name] = ax
    raised = np.argwhere(codes < chain.relu_floor)
    from matplotlib.patches import Rectangle

    for r, cc in raised:
        # inset and above the window outline, so that the window never hides the dashes
        axes["activated"].add_patch(Rectangle(
            (int(cc) - 0.36, int(r) - 0.36), 0.72, 0.72, fill=False,
            edgecolor=style.RIGHT_COLOR, linewidth=2.2, linestyle=(0, (2.5, 1.5)),
            gid="raised", zorder=6, path_effects=style.rim_effects(1.2)))
    for name in ("accumulators", "codes", "activated"):
        style.outline_cells(axes[name], window, linewidth=3)
    _mark_winner(axes["activated"], winner)

    ax = kept[3]
    _code_grid(ax, pooled, real(pooled), vmin, vmax, chain.scale, size=size)
    style.mark_cell(ax, (i, j), color=style.HIGHLIGHT_COLOR, gid="highlight")
    ax.set_title(f"4. max pool {g.kernel[0]}x{g.kernel[1]}\nstride {_pair(g.stride)}, "
                 f"no padding", fontsize=11.5)
    axes["pooled"] = ax
    for target in axes.values():
        target.set_aspect("equal")
        for artist in (*target.texts, *target.patches, *target.images):
            artist.set_in_layout(False)

    scale = "s" if chain.scale is None else f"scale={chain.scale:g}"
    plane = "" if two_d else f", plane n={n}, c={c}"
    fig.suptitle(
        f"Quantized chain: multiplier={chain.multiplier:g}, zero_point={chain.zero_point}, "
        f"dtype={chain.dtype!r}, rounding={chain.rounding!r} ({scale}){plane}\n"
        f"pooled {index} = {int(pooled[i, j])}: window outlined, winner at {winner}"
        + (f"; {len(raised)} code(s) raised to the zero point (green dashes)" if len(raised)
           else ""),
        fontsize=12.5)
    return QuantChainPlot(fig, MappingProxyType(axes), index, window, winner)
