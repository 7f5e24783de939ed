"""One input, one set of parameters, several padding modes side by side (one row per mode).

:func:`plot_padding_modes` draws, for each mode, the padded input of one
axis as a row of cells (padding hatched grey and labelled with the padding
rule), every window as a bar under the row (the staircase of sample
points), the last window outlined, and the window that a ceil clip or the
CAFFE correction drops (dashed, :data:`~pooltutor.viz.style.DROPPED_COLOR`,
labelled "dropped: starts in end padding").  Each row is titled with the
mode, its output size and its effective padding.

The numbers come from the core only: TensorRT modes from
:func:`pooltutor.padding_modes.output_geometry`, engine rules (``"floor"``,
``"ceil"``, ``"ceil_torch"``, ``"floor_clip"``, ``"caffe"``) from
:func:`pooltutor.geometry.pool_geometry` with the given padding.  A mode that
rejects the combination (a CAFFE pooling whose last window still starts in
padding, a window larger than the padded input) shows the reason in its row
instead of raising.

>>> p = plot_padding_modes(6, 3, 2, pre_padding=3, post_padding=3)   # TensorRT Pooling Example 2
>>> {m: g.output_size for m, g in p.geometries.items() if g is not None}
... # doctest: +NORMALIZE_WHITESPACE
{'EXPLICIT_ROUND_DOWN': 5, 'EXPLICIT_ROUND_UP': 6, 'SAME_UPPER': 3, 'SAME_LOWER': 3,
 'CAFFE_ROUND_DOWN': 5, 'CAFFE_ROUND_UP': 5}
>>> [t.get_text() for t in p.dropped["CAFFE_ROUND_UP"] if hasattr(t, "get_text")]
['dropped: starts in end padding']
"""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int
from ..geometry import ROUNDINGS, AxisGeometry, pool_geometry
from . import style
from .heatmaps import PAD_RULE_TEXT, _fit_size

__all__ = ["TENSORRT_MODES", "PaddingModesPlot", "plot_padding_modes", "mode_geometry"]

#: The six TensorRT padding modes, in TensorRT's order.
TENSORRT_MODES: tuple[str, ...] = ("EXPLICIT_ROUND_DOWN", "EXPLICIT_ROUND_UP", "SAME_UPPER",
                                   "SAME_LOWER", "CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP")

_INPUT_COLOR = "#dbe9f6"   # input cells of a size-only picture (no values)
TOP = 0.55                 # inches for the figure title
ROW_TITLE = 0.5            # two-line row title
TICKS = 0.32               # tick labels under a row
BAR_COLOR = "#6b6b6b"


@dataclass(frozen=True)
class ModeGeometry:
    """One mode's numbers for one axis, whatever computed them.

    ``axis`` is the :class:`~pooltutor.geometry.AxisGeometry` behind the
    numbers; ``tensorrt`` the :class:`~pooltutor.padding_modes.OutputGeometry`
    for a TensorRT mode (None for an engine rule); ``notes`` the warnings the
    computation raised (TensorRT's CAFFE "Restriction" conditions).
    """

    mode: str
    axis: AxisGeometry
    tensorrt: Any = None
    notes: tuple[str, ...] = ()

    @property
    def output_size(self) -> int:
        return self.axis.output_size

    def explain(self) -> str:
        """The worked computation (TensorRT's ``explain()``, or the geometry's formula line)."""
        if self.tensorrt is not None:
            return self.tensorrt.explain()
        return f"rounding {self.mode!r}: " + self.axis.describe()


def _resolve_mode(mode) -> tuple[str, str]:
    """``(kind, name)``: ``("engine", rule)`` or ``("tensorrt", MODE_NAME)``."""
    from ..padding_modes import PaddingMode

    if isinstance(mode, str) and mode in ROUNDINGS:
        return "engine", mode
    if not isinstance(mode, (str, PaddingMode)):
        raise PoolTutorTypeError(
            f"modes contains {mode!r} ({type(mode).__name__}): need TensorRT padding mode names "
            f"({', '.join(TENSORRT_MODES)}) or engine rules ({', '.join(ROUNDINGS)})")
    try:
        return "tensorrt", PaddingMode.parse(mode, name="modes").name
    except PoolTutorError as exc:
        raise PoolTutorError(f"{exc}; or an engine rule: {', '.join(map(repr, ROUNDINGS))}"
                             ) from None


def mode_geometry(mode, input_size: int, window: int, stride: int = 1, *, pre_padding: int = 0,
                  post_padding: int = 0, dilation: int = 1) -> ModeGeometry:
    """The window placement of one axis under ``mode`` (raises what the mode raises).

    >>> mode_geometry("CAFFE_ROUND_UP", 6, 3, 2, pre_padding=3).axis.window_starts
    (-3, -1, 1, 3, 5)
    >>> mode_geometry("ceil", 6, 3, 2, pre_padding=3, post_padding=3).axis.window_starts
    (-3, -1, 1, 3, 5, 7)
    """
    kind, name = _resolve_mode(mode)
    if kind == "engine":
        g = pool_geometry((input_size,), window, stride, padding=[(pre_padding, post_padding)],
                          dilation=dilation, rounding=name)
        return ModeGeometry(name, g.axes[0])
    from ..padding_modes import output_geometry

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        og = output_geometry(input_size, window, stride, pre_padding=pre_padding,
                             post_padding=post_padding, dilation=dilation, padding_mode=name)
    return ModeGeometry(name, og.geometry.axes[0], og, tuple(str(w.message) for w in caught))


@dataclass(frozen=True, eq=False)
class PaddingModesPlot:
    """What :func:`plot_padding_modes` drew.

    Attributes
    ----------
    figure : matplotlib Figure
    axes : dict
        Mode name -> its row's Axes.
    geometries : dict
        Mode name -> :class:`ModeGeometry`, or None when the mode rejected the combination.
    errors : dict
        Mode name -> the reason it rejected the combination (only rejected modes).
    last_windows : dict
        Mode name -> the outline patches of its last window (gid ``"window"``).
    dropped : dict
        Mode name -> patches and label of the dropped window (gid ``"dropped"``,
        ``"dropped-label"``); empty when nothing was dropped.
    bars : dict
        Mode name -> one Line2D per window (gid ``"window-bar"``).
    """

    figure: Any
    axes: dict
    geometries: dict
    errors: dict
    last_windows: dict
    dropped: dict
    bars: dict
    title: str


def _check_input(x):
    """``(input_size, values or None)`` from an int size or a 1-D array."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return check_int("x", x, minimum=1), None
    if isinstance(x, (bool, np.bool_, str, bytes)) or not hasattr(x, "__len__"):
        raise PoolTutorTypeError(f"x={x!r}: need an input size (int >= 1) or a 1-D array of values")
    values = np.asarray(x)
    if values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iuf":
        raise PoolTutorError(
            f"x has shape {values.shape} and dtype {values.dtype}: plot_padding_modes draws one "
            f"axis, so x must be an int size or a non-empty 1-D numeric array")
    return values.size, values


def _draw_cells(ax, values, size, lo, hi, pb, pe, pad_text, vmin, vmax, cell_pt, reach=None):
    """The padded row: input cells (values or x0, x1, ...), padding, and the cells past the
    padded input that a window reaches (up to ``reach``, excluded)."""
    from matplotlib.patches import Rectangle

    font = max(6.0, min(0.36 * cell_pt, 15.0))
    if values is not None:
        longest = max(len(style.format_value(v)) for v in values)
        font = max(5.5, min(font, 0.9 * cell_pt / (0.62 * longest)))
    if values is not None:
        style.draw_grid(ax, values[None, :], vmin=vmin, vmax=vmax, annotate=True)
        for t in ax.texts:
            t.set_fontsize(font)
    for t in range(lo, hi):
        if 0 <= t < size:
            if values is None:
                ax.add_patch(Rectangle((t - 0.5, -0.5), 1, 1, facecolor=_INPUT_COLOR,
                                       edgecolor="white", linewidth=1, gid="input"))
                ax.text(t, 0, f"x{t}", ha="center", va="center", fontsize=font, gid="value")
        elif -pb <= t < size + pe:
            ax.add_patch(Rectangle((t - 0.5, -0.5), 1, 1, facecolor=style.PAD_COLOR,
                                   hatch=style.PAD_HATCH, edgecolor="#9a9a9a", linewidth=0.5,
                                   gid="padding"))
            n = max(len(pad_text), 1)
            ax.text(t, 0, pad_text, ha="center", va="center", color="#555555", gid="padding-text",
                    fontsize=max(5.0, min(0.3 * cell_pt, 0.85 * cell_pt / (0.62 * n), 12.0)))
        elif reach is not None and size + pe <= t < reach:
            ax.add_patch(Rectangle((t - 0.5, -0.5), 1, 1, facecolor=style.OUTSIDE_COLOR,
                                   edgecolor="#b0b0b0", linewidth=0.8, linestyle=(0, (3, 2)),
                                   gid="outside"))
    ax.add_patch(Rectangle((-0.5, -0.5), size, 1, fill=False, edgecolor="#333333", linewidth=1.4,
                           gid="input-border", zorder=3))


def _frame_row(ax, lo: int, hi: int, bars_h: float) -> None:
    """Limits and ticks of one row: cells ``lo..hi-1`` on top, the window bars below."""
    ax.set_xlim(lo - 0.5, hi - 0.5)
    ax.set_ylim(0.5 + bars_h, -0.5)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_yticks([])
    ax.set_xticks(range(lo, hi))
    ax.tick_params(labelsize=9, length=0)


def _bar(ax, axis: AxisGeometry, start: int, level: float, **kw):
    taps = [start + j * axis.dilation for j in range(axis.kernel)]
    (line,) = ax.plot([taps[0] - 0.42, taps[-1] + 0.42], [level, level], solid_capstyle="butt",
                      **kw)
    if axis.dilation > 1:
        ax.plot(taps, [level] * len(taps), linestyle="none", marker="s",
                markersize=kw.get("linewidth", 3) + 2, color=kw.get("color"), gid="window-tap")
    return line


def plot_padding_modes(x, window: int, stride: int = 1, pre_padding: int = 0,
                       post_padding: int = 0, *, dilation: int = 1,
                       modes: Sequence[Any] = TENSORRT_MODES, pad_taps: str = "neg_inf",
                       fig=None, title: str | None = None) -> PaddingModesPlot:
    """Draw one axis under several padding modes, one row per mode.

    Parameters
    ----------
    x : int or 1-D array
        The input size ``I`` (cells labelled ``x0, x1, ...``) or the input
        values (a heatmap, values in the cells).
    window, stride, pre_padding, post_padding, dilation : int
        TensorRT's ``F``, ``S``, ``B``, ``A`` and ``D``.  SAME modes ignore
        ``B`` and ``A``; CAFFE modes use ``B`` on both sides.
    modes : sequence
        TensorRT padding modes (names in any case, ``k`` prefix allowed, or
        :class:`~pooltutor.padding_modes.PaddingMode` members) and/or engine
        rules ``"floor"``, ``"ceil"``, ``"ceil_torch"``, ``"floor_clip"``,
        ``"caffe"`` (which use ``pre_padding`` / ``post_padding`` as given).
    pad_taps : {'neg_inf', 'skip', 'lowest'}
        The padding rule written in padding cells (TensorRT's max pooling
        documents -inf).
    fig : matplotlib Figure, optional
        Drawn into (cleared first); a new one otherwise.

    Returns
    -------
    PaddingModesPlot

    Raises
    ------
    PoolTutorError, PoolTutorTypeError
        For parameters no mode could use (``window=0``, a 2-D ``x``, an
        unknown mode name).  A mode that *rejects* a valid combination does
        not raise: its row shows why.

    Examples
    --------
    TensorRT's Pooling Example 1 (``I=6, B=3, A=2, S=2, F=3``) under two
    engine rules and CAFFE_ROUND_UP, which rejects it with ``B=4``:

    >>> p = plot_padding_modes(6, 3, 2, 4, 2, modes=("floor", "ceil_torch", "CAFFE_ROUND_UP"))
    >>> p.geometries["floor"].output_size, p.geometries["ceil_torch"].output_size
    (5, 5)
    >>> p.geometries["CAFFE_ROUND_UP"] is None, "rejects" in p.errors["CAFFE_ROUND_UP"]
    (True, True)
    """
    size, values = _check_input(x)
    window = check_int("window", window, minimum=1)
    stride = check_int("stride", stride, minimum=1)
    pre_padding = check_int("pre_padding", pre_padding, minimum=0)
    post_padding = check_int("post_padding", post_padding, minimum=0)
    dilation = check_int("dilation", dilation, minimum=1)
    check_choice("pad_taps", pad_taps, tuple(PAD_RULE_TEXT))
    if isinstance(modes, (str, bytes)) or not isinstance(modes, Sequence) or not modes:
        raise PoolTutorTypeError(f"modes={modes!r}: need a non-empty sequence of mode names")
    names = [_resolve_mode(m)[1] for m in modes]
    if len(set(names)) != len(names):
        raise PoolTutorError(f"modes={list(modes)!r} names a mode twice")

    geometries: dict[str, ModeGeometry | None] = {}
    errors: dict[str, str] = {}
    for mode, name in zip(modes, names):
        try:
            geometries[name] = mode_geometry(mode, size, window, stride, pre_padding=pre_padding,
                                             post_padding=post_padding, dilation=dilation)
        except PoolTutorError as exc:
            geometries[name] = None
            errors[name] = str(exc)

    # one common x range, so that the rows line up cell for cell
    lo, hi = 0, size
    max_windows = 1
    for name, mg in geometries.items():
        if mg is None:
            b = pre_padding
            a = pre_padding if name.startswith("CAFFE") else post_padding
            lo, hi = min(lo, -b), max(hi, size + a)
            continue
        ax_g = mg.axis
        starts = list(ax_g.window_starts)
        if ax_g.dropped_start is not None:
            starts.append(ax_g.dropped_start)
        lo = min(lo, -ax_g.pad_begin)
        hi = max(hi, size + ax_g.pad_end, max(starts) + ax_g.effective_kernel)
        max_windows = max(max_windows, len(starts))
    n_cells = hi - lo
    n_rows = len(names)

    # manual layout: title, then per row a title line, the cells, the bars, the ticks
    bar_step = 0.2                        # in cell units
    bars_h = 0.25 + bar_step * max_windows
    if fig is None:
        from .explorer import new_figure

        cell = min(0.6, 10.0 / n_cells)
        fig = new_figure((max(7.0, n_cells * cell + 1.0),
                          TOP + n_rows * (ROW_TITLE + (1 + bars_h) * cell + TICKS)), dpi=100)
    else:
        fig.clear()
    w, h = fig.get_size_inches()
    top, row_title, ticks = TOP, ROW_TITLE, TICKS
    cell = min((w - 1.0) / n_cells, ((h - top) / n_rows - row_title - ticks) / (1 + bars_h), 0.9)
    cell = max(cell, 0.05)
    cell_pt = cell * 72
    row_h = row_title + (1 + bars_h) * cell + ticks
    x0 = (w - n_cells * cell) / 2
    vmin, vmax = style.shared_limits(values) if values is not None else (0.0, 1.0)
    pad_text = PAD_RULE_TEXT[pad_taps]

    axes, last_windows, dropped, bars = {}, {}, {}, {}
    for r, name in enumerate(names):
        y_top = h - top - r * row_h - row_title
        ax = fig.add_axes((x0 / w, (y_top - (1 + bars_h) * cell) / h, n_cells * cell / w,
                           (1 + bars_h) * cell / h))
        axes[name] = ax
        mg = geometries[name]
        last_windows[name], dropped[name], bars[name] = [], [], []
        if mg is None:
            b = pre_padding
            a = pre_padding if name.startswith("CAFFE") else post_padding
            _draw_cells(ax, values, size, lo, hi, b, a, pad_text, vmin, vmax, cell_pt)
            _frame_row(ax, lo, hi, bars_h)
            for patch in ax.patches:
                patch.set_alpha(0.35)
            reason = textwrap.fill(errors[name], width=max(40, int(n_cells * cell * 72 / 5.6)))
            ax.text(lo - 0.5, 0.62, reason, ha="left", va="top", fontsize=9,
                    color=style.WRONG_COLOR, gid="rejected", wrap=False,
                    bbox=dict(boxstyle="round,pad=0.3", facecolor="#fdecea", edgecolor="none"))
            ax.set_title(f"{name}: rejected", loc="left", fontsize=11.5, color=style.WRONG_COLOR,
                         fontweight="bold", pad=17)
            continue
        g = mg.axis
        reach = max(g.window_starts[-1], g.dropped_start if g.dropped_start is not None else
                    g.window_starts[-1]) + g.effective_kernel
        _draw_cells(ax, values, size, lo, hi, g.pad_begin, g.pad_end, pad_text, vmin, vmax, cell_pt,
                    reach)
        _frame_row(ax, lo, hi, bars_h)
        starts = g.window_starts
        for o, start in enumerate(starts):
            last = o == len(starts) - 1
            line = _bar(ax, g, start, 0.5 + 0.3 + bar_step * o,
                        color=style.WINDOW_COLOR if last else BAR_COLOR,
                        linewidth=4 if last else 3)
            line.set_gid("window-bar")
            bars[name].append(line)
        cells = [(0, start_tap) for start_tap in g.taps(len(starts) - 1)]
        last_windows[name] = style.outline_cells(ax, cells, color=style.WINDOW_COLOR,
                                                 linewidth=3, gid="window",
                                                 linestyle="-")
        for p, (_, t) in zip(last_windows[name], cells):
            if g.tap_kind(t) == "outside":
                p.set_linestyle("--")
        if g.dropped_start is not None:
            d_taps = [g.dropped_start + j * g.dilation for j in range(g.kernel)]
            patches = style.outline_cells(ax, [(0, t) for t in d_taps], color=style.DROPPED_COLOR,
                                          linewidth=2.5, linestyle=(0, (4, 2)), gid="dropped")
            level = 0.5 + 0.3 + bar_step * len(starts)
            line = _bar(ax, g, g.dropped_start, level, color=style.DROPPED_COLOR, linewidth=3,
                        linestyle=(0, (2, 1)))
            line.set_gid("dropped")
            right = d_taps[-1] + 0.5
            room_right = hi - 0.5 - right
            label = ax.text(right + 0.15 if room_right > 4 else d_taps[0] - 0.65, level,
                            "dropped: starts in end padding", va="center",
                            ha="left" if room_right > 4 else "right", fontsize=10,
                            color=style.DROPPED_COLOR, fontweight="bold", gid="dropped-label",
                            bbox=dict(boxstyle="round,pad=0.1", facecolor="white",
                                      edgecolor="none", alpha=0.85))
            dropped[name] = patches + [line, label]
        head_line, detail = _row_title(name, mg, size)
        width_in = n_cells * cell
        ax.set_title(head_line, loc="left", fontsize=_fit_size(11.5, len(head_line), width_in),
                     fontweight="bold", pad=17)
        if detail:
            ax.annotate(detail, xy=(0, 1), xycoords="axes fraction", xytext=(0, 3),
                        textcoords="offset points", ha="left", va="bottom", gid="row-note",
                        fontsize=_fit_size(10, len(detail), width_in),
                        color="#9a6700" if mg.notes else "#333333")

    head = title if title is not None else (
        f"padding modes: I={size}, F={window}, S={stride}"
        + (f", D={dilation}" if dilation != 1 else "")
        + f", B={pre_padding}, A={post_padding}  (padding: {pad_text})")
    fig.text(0.5, 1 - 0.15 / h, head, ha="center", va="top", fontweight="bold",
             fontsize=_fit_size(13, len(head), 0.95 * w), gid="title")
    return PaddingModesPlot(fig, axes, geometries, errors, last_windows, dropped, bars, head)


def _row_title(name: str, mg: ModeGeometry, size: int) -> tuple[str, str]:
    """The bold first line (mode, O, B, A) and the detail line of one row."""
    g = mg.axis
    text = f"{name}: O = {g.output_size}, B = {g.pad_begin}, A = {g.pad_end}"
    details = []
    if mg.tensorrt is not None:
        family = mg.tensorrt.rule.family
        if family == "same":
            text += " (computed; given B, A ignored)"
        elif family == "caffe":
            text = f"{name}: O = {g.output_size}, B = A = {g.pad_begin} (prePadding on both sides)"
    if g.clipped:
        details.append(f"{g.unclipped_size} → {g.output_size} windows: the last one started in "
                       f"the end padding")
    elif g.window_starts[-1] >= size:
        details.append("the last window starts in the end padding: kept (no clip)")
    if mg.notes:
        numbers = sorted({r.number for r in mg.tensorrt.triggered_restrictions}) if (
            mg.tensorrt is not None) else []
        details.append("⚠ header Restriction " + " and ".join(map(str, numbers))
                       + " condition holds (a warning)")
    return text, "; ".join(details)
