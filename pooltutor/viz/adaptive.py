"""Adaptive pooling bins drawn over the input, and the fixed-pool export workaround.

Adaptive pooling gives output cell ``i`` the bin ``[floor(i*I/O),
ceil((i+1)*I/O))`` of the input (:func:`pooltutor.geometry.adaptive_bins`):
neighbouring bins overlap when ``I % O != 0``.  Exporters that have no
adaptive operator (ONNX) replace it by a fixed pool with
``k = I - (O-1)*floor(I/O)`` and ``s = floor(I/O)``
(:func:`pooltutor.geometry.fixed_pool_contrast`), whose windows are the bins
only in some cases (TV24-TV27).  :func:`plot_adaptive_bins` draws

* 1-D: the input as one row of cells, every bin as a bar below it (labelled
  with its number or value), overlapping bins on separate lanes so that the
  overlap is visible;
* 2-D: the input grid with every bin as a translucent rectangle, neighbouring
  bins in different colours *and* line styles (cells covered by two or four
  bins come out darker);
* the bin of ``out_index`` outlined and, for max pooling, its maximum marked;
* the output, in the input's colours;
* optionally the fixed pool's windows (dashed) and output beside them; a
  window that is not its bin says so (``≠`` labels, dashed mismatch marks),
  not only by its red colour.

The colours are the Okabe-Ito palette (told apart with the common colour
vision deficiencies).  A caption names the highlighted cell;
:func:`move_adaptive_bins` moves the highlight to another cell in place (the
artists it changes are :attr:`AdaptiveBinsPlot.moving`, for blitting).

>>> from pooltutor.viz.adaptive import plot_adaptive_bins
>>> p = plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5]), 3, out_index=1)       # TV24
>>> p.geometry.axes[0].bins, p.winner, p.output.tolist()
(((0, 2), (1, 4), (3, 5)), (2,), [3.0, 4.0, 5.0])
>>> p.caption.get_text()
'output 1: bin [1,4), max 4 at w=2'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import (
    PoolTutorError,
    PoolTutorTypeError,
    check_choice,
    check_index_within,
    check_per_axis,
)
from ..geometry import (
    AdaptiveGeometry,
    FixedPoolContrast,
    adaptive_geometry,
    fixed_pool_contrast,
)
from ..pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool
from . import style
from .described import DescribedFigure

__all__ = [
    "AdaptiveBinsPlot",
    "BIN_COLORS",
    "BIN_LINESTYLES",
    "adaptive_bins_figsize",
    "bin_lanes",
    "move_adaptive_bins",
    "plot_adaptive_bins",
]

#: Bins are coloured in turn from these six (neighbours always differ): each edge at least
#: 3:1 on white, every pair and each against the window and winner marks drawn over the
#: bins told apart under protanopia, deuteranopia and tritanopia
#: (tests/viz/test_colour_blind_palette.py; Okabe-Ito's yellow, orange and sky blue were
#: too light on white, its vermilion too close to the window mark).
BIN_COLORS = ("#0b57d0", "#8c510a", "#009e73", "#8073ac", "#000000", "#332288")

#: 2-D bins: the edge line style of bin ``(i, j)`` is ``BIN_LINESTYLES[2*(i%2) + j%2]``, so
#: that neighbours along either axis differ without colour too.
BIN_LINESTYLES = ("-", (0, (5, 2)), (0, (1.2, 1.5)), (0, (6, 2, 1.5, 2)))

#: The largest input drawn per axis (every input cell gets a box).
MAX_SIDE = 40

#: zorder of the moving marks: above every cell artist and text, so that drawing them last
#: over a kept background (a blitted step) gives the picture of a full draw.
MARK_ZORDER = 20

_WHITE = None           # a one-colour white colour map (made on first use: matplotlib)


def _white():
    global _WHITE
    if _WHITE is None:
        from matplotlib.colors import ListedColormap

        _WHITE = ListedColormap(["#ffffff"], name="pooltutor-white")
    return _WHITE


def bin_lanes(bins) -> tuple[int, ...]:
    """A lane per bin so that overlapping bins never share a lane (first fit).

    >>> bin_lanes(((0, 2), (1, 4), (3, 5)))       # bins 0 and 2 share lane 0
    (0, 1, 0)
    """
    ends: list[int] = []
    lanes = []
    for start, stop in bins:
        for lane, end in enumerate(ends):
            if end <= start:
                ends[lane] = stop
                lanes.append(lane)
                break
        else:
            ends.append(stop)
            lanes.append(len(ends) - 1)
    return tuple(lanes)


@dataclass(frozen=True, eq=False)
class AdaptiveBinsPlot(DescribedFigure):
    """What :func:`plot_adaptive_bins` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    axes : tuple of Axes
        In the order ``plot_adaptive_bins(ax=...)`` takes them: 1-D ``(ax,)``;
        2-D ``(input, output)``, with ``show_fixed`` also ``(windows, fixed output)``.
    ax : Axes
        The input with the bins.
    output_ax : Axes
        The output (1-D: ``ax``, its rows below the bins).
    fixed_ax, fixed_output_ax : Axes or None
        The export workaround's windows and output (``show_fixed=True`` and the
        workaround exists; 1-D: ``ax``).
    geometry : AdaptiveGeometry
    op : str
    bins : tuple of matplotlib.patches.Patch
        One patch per output cell (row-major), gid ``"bin"``.
    out_index : tuple of int
        The highlighted output cell.
    winner : tuple of int or None
        Input position of the highlighted bin's maximum (``op='max'`` with values).
    output : numpy.ndarray or None
        The adaptive output (spatial only), None without values.
    fixed : FixedPoolContrast or None
    fixed_output : numpy.ndarray or None
    caption : matplotlib.text.Text
        The text naming the highlighted cell (the figure's ``supxlabel`` on a figure
        of its own, the input's title with ``ax=``).
    title : matplotlib.text.Text
        The title naming the pooling, its sizes and whether the bins overlap (1-D on a
        figure of its own: the ``suptitle``; else the input's title).
    marks : dict of str to Artist
        The moving marks by name: ``"bin"`` (the bin's outline, gid ``"bin-outline"``),
        ``"winner"``, ``"highlight"`` (the output cell), ``"bar"`` (1-D: the bin's bar
        outlined), ``"window"`` / ``"fixed-bin"`` / ``"fixed-highlight"`` (the
        workaround's window of the cell, the bin beside it, its output cell).
    winners : numpy.ndarray or None
        The plane index of every output cell's maximum (``op='max'`` with values).
    """

    figure: Any
    axes: tuple
    ax: Any
    output_ax: Any
    fixed_ax: Any
    fixed_output_ax: Any
    geometry: AdaptiveGeometry
    op: str
    bins: tuple
    out_index: tuple[int, ...]
    winner: tuple[int, ...] | None
    output: np.ndarray | None
    fixed: FixedPoolContrast | None
    fixed_output: np.ndarray | None
    caption: Any
    title: Any
    marks: dict = field(repr=False)
    winners: np.ndarray | None = field(default=None, repr=False)
    values: np.ndarray | None = field(default=None, repr=False)
    caption_prefix: str = field(default="", repr=False)
    bar_rows: Any = field(default=(), repr=False)

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        title = " ".join(self.title.get_text().split())
        caption = " ".join(self.caption.get_text().split())
        fixed = (" Beside it, the fixed-pool export workaround: its windows and its output."
                 if self.fixed_ax is not None else "")
        return (f"{title}. The input with the adaptive bins outlined; {caption}.{fixed}")

    @property
    def moving(self) -> tuple:
        """The artists a step to another cell changes (:func:`move_adaptive_bins`): the
        marks, then the caption."""
        return (*self.marks.values(), self.caption)


# --------------------------------------------------------------------------- checks


def _read_input(x):
    """``(values or None, spatial shape)`` from an input array or an input shape."""
    if isinstance(x, bool):
        raise PoolTutorTypeError(f"x={x!r}: need an input array or an input shape (ints)")
    if isinstance(x, (int, np.integer)) or (isinstance(x, tuple) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in x)):
        shape = (x,) if isinstance(x, (int, np.integer)) else tuple(x)
        if not 1 <= len(shape) <= 2:
            raise PoolTutorError(
                f"input shape {shape!r} has {len(shape)} axes: plot_adaptive_bins draws 1 or 2"
            )
        shape = check_per_axis("input_shape", list(shape), len(shape), minimum=1)
        values = None
    else:
        try:
            values = np.asarray(x)
        except (TypeError, ValueError) as exc:
            raise PoolTutorTypeError(f"x could not be read as an array ({exc})") from None
        if values.ndim in (3, 4) and values.shape[:2] == (1, 1):
            values = values[0, 0]
        if values.dtype.kind not in "iuf" or values.dtype.itemsize > 8:
            raise PoolTutorTypeError(f"x has dtype {values.dtype}: need real numbers")
        if values.ndim not in (1, 2) or 0 in values.shape:
            raise PoolTutorError(
                f"x has shape {values.shape}: plot_adaptive_bins draws a 1-D or 2-D input "
                f"(or (1, 1, *spatial)) with every axis >= 1"
            )
        shape = values.shape
    if max(shape) > MAX_SIDE:
        raise PoolTutorError(
            f"input shape {tuple(shape)}: plot_adaptive_bins draws every cell, need at most "
            f"{MAX_SIDE} per axis"
        )
    return values, tuple(int(s) for s in shape)


def _check_out_index(out_index, out_shape):
    if out_index is None:
        return (0,) * len(out_shape)
    if isinstance(out_index, (int, np.integer)) and not isinstance(out_index, bool):
        out_index = (out_index,)
    if not isinstance(out_index, (tuple, list)) or len(out_index) != len(out_shape):
        raise PoolTutorError(
            f"out_index={out_index!r}: need {len(out_shape)} int(s), one per output axis of the "
            f"output shaped {out_shape}"
        )
    return check_index_within("out_index", out_index, out_shape)


def _check_ax(ax, fig, ndim, show_fixed):
    """The Axes given as ``ax`` as a tuple (or None), in the documented order."""
    if ax is None:
        return None
    from matplotlib.axes import Axes

    if fig is not None:
        raise PoolTutorError("fig= and ax= were both given: pass one of them")
    axes = (ax,) if isinstance(ax, Axes) else ax
    if isinstance(axes, np.ndarray) and axes.dtype == object:     # from fig.subplots(...)
        axes = tuple(axes.ravel())
    if not isinstance(axes, (list, tuple)) or not all(isinstance(a, Axes) for a in axes):
        raise PoolTutorTypeError(f"ax={ax!r} has type {type(ax).__name__}: need a matplotlib "
                                 f"Axes or a sequence of Axes")
    need = 1 if ndim == 1 else (4 if show_fixed else 2)
    if len(axes) != need:
        what = ("one Axes for a 1-D input" if ndim == 1 else
                "4 Axes for a 2-D input with show_fixed=True (input, output, windows, fixed "
                "output)" if show_fixed else "2 Axes for a 2-D input (input, output)")
        raise PoolTutorError(f"ax has {len(axes)} Axes: need {what}")
    if len({a.get_figure(root=True) if _takes_root(a) else a.figure for a in axes}) != 1:
        raise PoolTutorError("ax: the Axes must be on one figure")
    return tuple(axes)


def _takes_root(artist) -> bool:
    import inspect

    return "root" in inspect.signature(artist.get_figure).parameters


def _root(artist):
    return artist.get_figure(root=True) if _takes_root(artist) else artist.figure


# --------------------------------------------------------------------------- texts


def _bin_text(bins) -> str:
    return " x ".join(f"[{a},{b})" for a, b in bins)


def _color(i: int) -> str:
    return BIN_COLORS[i % len(BIN_COLORS)]


def _short(t):
    return str(t[0]) if all(v == t[0] for v in t) else str(tuple(t))


FORMULA = "bin i = [\u230ai\u00b7I/O\u230b, \u2308(i+1)\u00b7I/O\u2309)"
WORKAROUND = "k = I\u2212(O\u22121)\u00b7\u230aI/O\u230b = {k}, s = \u230aI/O\u230b = {s}"


def _overlap_text(geom) -> str:
    over = [f"{a.input_size} % {a.output_size} = {a.input_size % a.output_size}"
            for a in geom.axes]
    if any(a.overlapping for a in geom.axes):
        return "bins overlap (" + ", ".join(over) + ")"
    return "bins tile the input (" + ", ".join(over) + ")"


def _verdict(fixed, count) -> str:
    same = sum(all(fixed.same[a][i] for a, i in enumerate(idx))
               for idx in np.ndindex(*[len(s) for s in fixed.same]))
    if fixed.equal:
        return "every window is its bin: the export is exact"
    return f"{count - same} of {count} windows \u2260 their bin (dashed)"


def _focus(plot_values, result, out_index, bins, winner, sep=", ") -> str:
    """The caption's first line: the cell, its bin, its value (``sep`` before the value)."""
    one = len(out_index) == 1
    cell = str(out_index[0]) if one else str(tuple(out_index))
    text = f"output {cell}: bin {_bin_text(bins)}"
    if winner is not None:
        where = f"w={winner[0]}" if one else str(tuple(winner))
        text += f"{sep}max {style.format_value(plot_values[winner])} at {where}"
    elif result is not None:
        text += f"{sep}average {style.format_value(result[out_index])}"
    return text


def _fixed_focus(fixed, fixed_result, out_index, sep=", ") -> str:
    windows = [w[i] for w, i in zip(fixed.windows, out_index, strict=True)]
    same = all(s[i] for s, i in zip(fixed.same, out_index, strict=True))
    text = (f"export workaround: window {_bin_text(windows)} "
            + ("= its bin" if same else "is not its bin"))     # no taller glyph (≠)
    if fixed_result is not None:
        text += f"{sep}value {style.format_value(fixed_result[out_index])}"
    return text


# --------------------------------------------------------------------------- sizing


def _sizing(shape, geom, fixed, show_fixed, has_values):
    """``(figsize, inches per input cell)`` for the plot of ``geom`` on a figure of its own."""
    if len(shape) == 1:
        cell_in = min(0.5, 8.0 / shape[0])
        width = max(6.4, cell_in * shape[0] + 2.4)
        rows = 1.25 + 0.85 * max(bin_lanes(geom.axes[0].bins)) + (1.3 if has_values else 0)
        lines = 2 + 2 * (show_fixed and fixed is not None) + (show_fixed and fixed is None)
        if show_fixed and fixed is not None:
            rows += 1.3 + 0.85 * max(bin_lanes(fixed.windows[0])) + (1.3 if has_values else 0)
        caption = 0.45 if show_fixed and fixed is not None else 0.3
        return (width, (rows + 1.2) * cell_in + 0.2 * lines + 0.75 + caption), cell_in
    rows, cols = shape
    orows, ocols = geom.output_shape
    cell_in = _cell_in_2d(shape, geom)
    width = max(7.0, (cols + ocols + 1.2 + _title_room(geom, fixed, show_fixed)) * cell_in
                + 2.8)
    panel = max(rows, orows) * cell_in + 1.35
    two = show_fixed and fixed is not None
    height = panel * (2 if two else 1) + (0.35 if two else 0.0) + (0.2 if show_fixed else 0)
    return (width, height + (0.5 if two else 0.3)), cell_in


def _cell_in_2d(shape, geom) -> float:
    """Inches per cell of a 2-D plot on a figure of its own."""
    return min(0.45, 3.6 / max(*shape, *geom.output_shape))


def _title_room(geom, fixed, show_fixed) -> float:
    """Blank cells right of a 2-D output panel so that its left-aligned title (and the fixed
    pool's) stays inside the panel: a 1-2 column output is narrower than its title.
    Estimated from the longest title line at 10 pt (DejaVu Sans: about 0.6 em a
    character)."""
    ocols = geom.output_shape[-1]
    n = int(np.prod(geom.output_shape))
    longest = len("output (adaptive max)")
    if show_fixed and fixed is not None:
        longest = max(longest, len(f"{n} of {n} \u2260 adaptive (dashed)"))
    need = longest * 0.6 * 10 / 72 / _cell_in_2d(geom.input_shape, geom)
    return max(0.0, round(need - (ocols + 0.6), 2))


def adaptive_bins_figsize(x, output_size, show_fixed: bool = False) -> tuple[float, float]:
    """The figure size (inches) :func:`plot_adaptive_bins` picks for these arguments.

    >>> adaptive_bins_figsize(5, 3)
    (6.4, 3.1)
    """
    values, shape = _read_input(x)
    geom = adaptive_geometry(shape, check_per_axis("output_size", output_size, len(shape),
                                                   minimum=1))
    (w, h), _ = _sizing(shape, geom, fixed_pool_contrast(geom), show_fixed, values is not None)
    return round(w, 2), round(h, 2)


# --------------------------------------------------------------------------- 1-D drawing


def _add(ax, patch):
    """``patch`` on ``ax`` without a data-limit update (every plot here sets its limits;
    cheaper than ``add_patch``); returns it."""
    ax.add_artist(patch)
    return patch


def _fits(label, length_cells, cell_in, fontsize) -> bool:
    return length_cells * cell_in * 72 >= 0.62 * fontsize * len(label) + 4


def _bar(ax, start, stop, y, *, pad=0.0, **kwargs):
    from matplotlib.patches import FancyBboxPatch

    patch = FancyBboxPatch((start - 0.42 - pad, y - 0.3 - pad), stop - start - 0.16 + 2 * pad,
                           0.6 + 2 * pad, boxstyle=f"round,pad=0,rounding_size={0.12 + pad}",
                           **kwargs)
    _add(ax, patch)
    return patch


def _bars(ax, spans, lanes, y0, labels, colors, cell_in, fontsize, *, gid, dashed=False,
          edges=None):
    """One rounded bar per span ``[start, stop)`` at ``y0 + 0.85 * lane``, labelled with the
    first of ``labels[i]`` (longest first) that fits; returns the bars."""
    import matplotlib as mpl

    patches = []
    texts = style.TextCollection()
    for i, ((start, stop), lane) in enumerate(zip(spans, lanes, strict=True)):
        y = y0 + 0.85 * lane
        patches.append(_bar(ax, start, stop, y, facecolor=(*mpl.colors.to_rgb(colors[i]), 0.3),
                            edgecolor=edges[i] if edges else colors[i], linewidth=1.8,
                            linestyle=(0, (4, 2)) if dashed else "-", gid=gid, zorder=2))
        for text in labels[i]:
            if _fits(text, stop - start - 0.16, cell_in, fontsize):
                texts.add((start + stop - 1) / 2, y, text, fontsize, gid=f"{gid}-label")
                break
    texts.draw(ax, gid=f"{gid}-labels", zorder=4)
    return patches


def _value_row(ax, centers, values, y, vmin, vmax, gid):
    """A row of coloured value cells centred at ``centers`` (not a regular grid: each
    output cell sits under its bin), their values written in the house colours."""
    import matplotlib as mpl

    cmap = mpl.colormaps[style.CMAP]
    span = (vmax - vmin) or 1.0
    colors = [cmap(min(max((float(v) - vmin) / span, 0.0), 1.0)) if np.isfinite(v) else "white"
              for v in values]
    style.cell_squares(ax, [(y, c) for c in centers], gid, facecolors=colors,
                       edgecolors="white", linewidths=1.0, zorder=1)
    text_colors = style.cell_text_colors(values, vmin, vmax)
    size = style.FONT_SIZE if len(values) <= 8 else style.FONT_SIZE - 2
    texts = style.TextCollection()
    for c, v, color in zip(centers, values, text_colors, strict=True):
        texts.add(c, y, style.format_value(v), size, str(color), gid=f"{gid}-value")
    texts.draw(ax, gid=f"{gid}-values", zorder=4)


def _draw_1d(ax, values, geom, op, show_fixed, result, fixed, fixed_result, cell_in):
    """Everything of a 1-D plot that does not move; returns ``(bins, rows)``."""
    from matplotlib.patches import Rectangle

    a = geom.axes[0]
    size, bins = a.input_size, a.bins
    lanes = bin_lanes(bins)
    vmin, vmax = style.shared_limits(values, result, fixed_result)
    fontsize = 10 if cell_in >= 0.42 else 8.5

    if values is None:
        style.draw_grid(ax, np.zeros((1, size)), vmin=0, vmax=1, cmap=_white(), annotate=False,
                        ticks=False)
        style.cell_squares(ax, [(0, j) for j in range(size)], "cell", facecolors="none",
                           edgecolors="#888888", linewidths=1.0)
    else:
        _grid(ax, values[None, :], vmin=vmin, vmax=vmax, ticks=False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ticks, tick_labels = [0], ["input"]

    y_bins = 1.25
    if result is None:
        labels = [(f"bin {i}: [{s0},{s1})", f"[{s0},{s1})", str(i))
                  for i, (s0, s1) in enumerate(bins)]
    else:
        labels = [(f"y{i} = {style.format_value(result[i])}", style.format_value(result[i]))
                  for i in range(len(bins))]
    patches = _bars(ax, bins, lanes, y_bins, labels, [_color(i) for i in range(len(bins))],
                    cell_in, fontsize, gid="bin")
    rows = {"bars": [y_bins + 0.85 * lane for lane in lanes]}
    ticks.append(y_bins)
    tick_labels.append("bins")
    y = y_bins + 0.85 * max(lanes)

    def centers_of(spans):
        centers = [(s0 + s1 - 1) / 2 for s0, s1 in spans]
        if all(b - c >= 1 for c, b in zip(centers, centers[1:])):
            return centers
        return list(range(len(spans)))      # O > I: bins repeat, the cells go side by side

    if result is not None:
        y += 1.3
        centers = centers_of(bins)
        _value_row(ax, centers, result, y, vmin, vmax, "output")
        rows["output"] = (y, centers)
        ticks.append(y)
        tick_labels.append(f"adaptive {op}")

    if show_fixed and fixed is not None:
        y += 1.3
        wins, same = fixed.windows[0], fixed.same[0]
        f_lanes = bin_lanes(wins)
        if fixed_result is None:
            flabels = [(f"w{i} {'=' if ok else chr(0x2260)} bin {i}",
                        f"{'=' if ok else chr(0x2260)}{i}", "=" if ok else "\u2260")
                       for i, ok in enumerate(same)]
        else:
            flabels = [(f"w{i} {'=' if ok else chr(0x2260)} {style.format_value(v)}",
                        f"{'=' if ok else chr(0x2260)}{style.format_value(v)}",
                        "=" if ok else "\u2260")
                       for i, (ok, v) in enumerate(zip(same, fixed_result, strict=True))]
        edges = [style.RIGHT_COLOR if ok else style.WRONG_COLOR for ok in same]
        _bars(ax, wins, f_lanes, y, flabels, ["#bdbdbd"] * len(wins), cell_in, fontsize,
              gid="fixed-window", dashed=True, edges=edges)
        rows["windows"] = [y + 0.85 * lane for lane in f_lanes]
        ticks.append(y)
        tick_labels.append(f"windows\nk={fixed.kernel[0]}, s={fixed.stride[0]}")
        y += 0.85 * max(f_lanes)
        if fixed_result is not None:
            y += 1.3
            centers = centers_of(wins)
            _value_row(ax, centers, fixed_result, y, vmin, vmax, "fixed-output")
            rows["fixed_output"] = (y, centers)
            for c, v, r in zip(centers, fixed_result, result, strict=True):
                if not np.isclose(v, r, equal_nan=True):
                    _add(ax, Rectangle((c - 0.45, y - 0.45), 0.9, 0.9, fill=False,
                                           edgecolor=style.WRONG_COLOR, linewidth=2.5,
                                           linestyle=(0, (3, 1.5)), zorder=5, gid="mismatch"))
            ticks.append(y)
            tick_labels.append(f"fixed {op}")

    ax.set_xlim(-0.6, max(size, len(bins)) - 0.4)      # O > I: the outputs side by side
    ax.set_ylim(y + 0.6, -0.6)
    ax.set_aspect("equal")
    ax.set_yticks(ticks)
    ax.set_yticklabels(tick_labels)
    ax.tick_params(length=0, labelsize=9)
    # the input positions and their name under the rows: one text collection (gid
    # "index-labels"; seven tick labels and an axis label cost far more to lay out and draw)
    ax.xaxis.set_visible(False)
    positions = style.TextCollection()
    for j in range(size):
        positions.add(j, y + 0.6, str(j), 9, gid="tick", dy=-(0.5 * 9 + 3.5))
    positions.add((size - 1) / 2, y + 0.6, "w (input position)", NAME_SIZE, gid="axis-name",
                  ha="title", dy=-(9 + 8 + 0.75 * NAME_SIZE))
    positions.draw(ax, gid="index-labels")

    title = [f"adaptive {op} pool: I = {size} \u2192 O = {a.output_size},   {FORMULA}",
             _overlap_text(geom)]
    if show_fixed and fixed is None:
        title.append(f"no fixed-pool workaround: I = {size} < O = {a.output_size} gives "
                     f"s = \u230aI/O\u230b = 0")
    elif show_fixed:
        title.append(f"export workaround: {op} pool with "
                     + WORKAROUND.format(k=fixed.kernel[0], s=fixed.stride[0]))
        title.append(_verdict(fixed, len(fixed.windows[0])))
    return tuple(patches), rows, "\n".join(title)


def _marks_1d(ax, rows, fixed):
    """The moving marks of a 1-D plot, made once (placed by :func:`_place_marks`)."""
    from matplotlib.patches import Rectangle

    z = MARK_ZORDER
    marks = {"bin": _add(ax, Rectangle((0, 0), 1, 1, fill=False, linewidth=3,
                                           edgecolor=style.WINDOW_COLOR, gid="bin-outline",
                                           zorder=z, clip_on=False)),
             "bar": _bar(ax, 0, 1, 0, pad=0.05, fill=False, edgecolor=style.WINDOW_COLOR,
                         linewidth=3, gid="bar-outline", zorder=z)}
    marks["winner"] = style.mark_cell(ax, (0, 0), autolim=False)
    if "output" in rows:
        marks["highlight"] = style.mark_cell(ax, (0, 0), color=style.HIGHLIGHT_COLOR,
                                             gid="highlight", autolim=False)
    if "windows" in rows:
        marks["window"] = _bar(ax, 0, 1, 0, pad=0.05, fill=False, edgecolor=style.WINDOW_COLOR,
                               linewidth=3, gid="window-outline", zorder=z)
    if "fixed_output" in rows:
        marks["fixed-highlight"] = style.mark_cell(ax, (0, 0), color=style.HIGHLIGHT_COLOR,
                                                   gid="fixed-highlight", autolim=False)
    for artist in marks.values():
        artist.set_zorder(z + (1 if artist.get_gid() == "winner" else 0))
    return marks


def _move_bar(patch, start, stop, y, pad=0.05):
    patch.set_bounds(start - 0.42 - pad, y - 0.3 - pad, stop - start - 0.16 + 2 * pad,
                     0.6 + 2 * pad)


def _move_square(patch, cell, half=0.42):
    patch.set_xy((cell[1] - half, cell[0] - half))


# --------------------------------------------------------------------------- 2-D drawing


def _span_rect(spans0, spans1, idx, **kwargs):
    """The rectangle of the span pair ``idx`` (row-major number ``k``): inset by
    ``0.04 + 0.05 * (k % 3)`` so that the edges of overlapping neighbours stay apart."""
    from matplotlib.patches import Rectangle

    (r0, r1), (c0, c1) = spans0[idx[0]], spans1[idx[1]]
    inset = 0.04 + 0.05 * ((idx[0] * len(spans1) + idx[1]) % 3)
    return Rectangle((c0 - 0.5 + inset, r0 - 0.5 + inset), c1 - c0 - 2 * inset,
                     r1 - r0 - 2 * inset, **kwargs)


def _grid(ax, values, *, vmin, vmax, cmap=style.CMAP, annotate=True, ticks=True):
    """:func:`style.draw_grid` with the values written as one text collection (gid
    ``"value"``, read back with :func:`style.texts_of`) in the house sizes and colours: a
    figure of hundreds of cells draws their texts as one artist."""
    values = np.asarray(values)
    image = style.draw_grid(ax, values, vmin=vmin, vmax=vmax, cmap=cmap, annotate=False,
                            ticks=ticks)
    if annotate and max(values.shape) <= style.MAX_ANNOTATED:
        size = style.FONT_SIZE if max(values.shape) <= 8 else style.FONT_SIZE - 2
        colors = style.cell_text_colors(values, vmin, vmax, cmap)
        labels = style.TextCollection()
        grid = values.reshape(-1, values.shape[-1])
        for (i, j), v in np.ndenumerate(grid):
            labels.add(j, i, style.format_value(v), size, str(colors.reshape(grid.shape)[i, j]),
                       gid="value")
        labels.draw(ax)
    return image


def _neutral_input(ax, values, shape):
    """White cells with grey borders and the values written in black (the bins' colours
    over them stay readable)."""
    rows, cols = shape
    shown = np.zeros(shape) if values is None else values
    _grid(ax, shown, vmin=0, vmax=1, cmap=_white(), annotate=values is not None, ticks=False)
    style.cell_squares(ax, [(i, j) for i in range(rows) for j in range(cols)], "cell",
                       facecolors="none", edgecolors="#c8c8c8", linewidths=0.6, zorder=0.5)
    _label_axes(ax, "w", "h")


#: Font sizes (points) of the 2-D panels' row / column indices and axis names
INDEX_SIZE = style.FONT_SIZE - 1
NAME_SIZE = 9.5


def _widen(ax, room: float) -> None:
    """``room`` blank cells right of a 2-D panel's cells (see :func:`_title_room`)."""
    if room > 0:
        lo, hi = ax.get_xlim()
        ax.set_xlim(lo, hi + room)


def _label_axes(ax, x, y):
    """Column indices under a 2-D panel and row indices left of it, with the axis names
    ``x`` (under the indices) and ``y`` (left of them), as one
    :class:`~pooltutor.viz.style.TextCollection` (gid ``"index-labels"``, items gid
    ``"tick"`` and ``"axis-name"``) that the layout sees; the Axes draws no axis machinery
    (ticks are many texts: slow to lay out and draw again)."""
    x_lo, x_hi = ax.get_xlim()
    y_lo, y_hi = ax.get_ylim()              # bottom edge first (rows run downwards)
    cols = range(int(round(x_lo + 0.5)), int(round(x_hi + 0.5)))
    rows = range(int(round(y_hi + 0.5)), int(round(y_lo + 0.5)))
    texts = style.TextCollection()
    for j in cols:
        texts.add(j, y_lo, str(j), INDEX_SIZE, gid="tick", dy=-(0.5 * INDEX_SIZE + 3.5))
    for i in rows:
        texts.add(x_lo, i, str(i), INDEX_SIZE, gid="tick", ha="right-center", dx=-3.5)
    texts.add((x_lo + x_hi) / 2, y_lo, x, NAME_SIZE, gid="axis-name",
              dy=-(INDEX_SIZE + 8 + 0.4 * NAME_SIZE))
    digits = max(len(str(i)) for i in rows)
    texts.add(x_lo, (y_lo + y_hi) / 2, y, NAME_SIZE, gid="axis-name", ha="right-center",
              dx=-(3.5 + 0.62 * INDEX_SIZE * digits + 8))
    ax.set_axis_off()
    for part in (ax.xaxis, ax.yaxis, *ax.spines.values()):
        part.set_visible(False)         # the layout would measure their (unused) ticks
    texts.draw(ax, gid="index-labels").set_in_layout(True)


def _draw_2d(axes, values, geom, op, show_fixed, result, fixed, fixed_result):
    """Everything of a 2-D plot that does not move; returns ``(bins, title of the input)``."""
    import matplotlib as mpl
    from matplotlib.patches import Rectangle

    ax, out_ax = axes[:2]
    shape = geom.input_shape
    vmin, vmax = style.shared_limits(values, result, fixed_result)
    b0, b1 = geom.axes[0].bins, geom.axes[1].bins

    _neutral_input(ax, values, shape)
    patches = []
    for k, idx in enumerate(np.ndindex(len(b0), len(b1))):
        color = mpl.colors.to_rgb(_color(k))
        patches.append(_add(ax, _span_rect(
            b0, b1, idx, facecolor=(*color, 0.16), edgecolor=color, linewidth=1.8,
            linestyle=BIN_LINESTYLES[2 * (idx[0] % 2) + idx[1] % 2], zorder=2, gid="bin")))
    title = [f"adaptive {op} pool {shape} \u2192 {geom.output_shape}", _overlap_text(geom)]
    if show_fixed and fixed is None:
        title.append("no fixed-pool workaround:\nI < O on an axis gives s = \u230aI/O\u230b = 0")

    if result is None:
        style.draw_grid(out_ax, np.zeros(geom.output_shape), vmin=0, vmax=1, cmap=_white(),
                        annotate=False, ticks=False)
        style.cell_squares(out_ax, list(np.ndindex(*geom.output_shape)), "cell",
                           facecolors="none", edgecolors="#c8c8c8", linewidths=0.8)
        texts = style.TextCollection()
        for idx in np.ndindex(*geom.output_shape):
            sizes = [a.bins[i][1] - a.bins[i][0] for a, i in zip(geom.axes, idx, strict=True)]
            texts.add(idx[1], idx[0], "x".join(map(str, sizes)), style.FONT_SIZE, gid="bin-size")
        texts.draw(out_ax, gid="bin-sizes")
        out_ax.set_title("output: bin sizes", fontsize=10, loc="left")
    else:
        _grid(out_ax, result, vmin=vmin, vmax=vmax, ticks=False)
        out_ax.set_title(f"output (adaptive {op})", fontsize=10, loc="left")
    _label_axes(out_ax, "j", "i")
    room = _title_room(geom, fixed, show_fixed)
    _widen(out_ax, room)

    if show_fixed and len(axes) == 4 and fixed is None:
        for extra in axes[2:]:
            extra.axis("off")
    elif show_fixed and fixed is not None:
        fixed_ax, fout_ax = axes[2:]
        _neutral_input(fixed_ax, values, shape)
        w0, w1 = fixed.windows
        for idx in np.ndindex(len(w0), len(w1)):
            _add(fixed_ax, _span_rect(w0, w1, idx, facecolor=(0.6, 0.6, 0.6, 0.06),
                                          edgecolor="#b5b5b5", linewidth=1.0,
                                          linestyle=(0, (4, 2)), zorder=2, gid="fixed-window"))
        fixed_ax.set_title(f"export workaround: {op} pool with\n"
                           + WORKAROUND.format(k=_short(fixed.kernel), s=_short(fixed.stride))
                           + f"\n{_verdict(fixed, len(w0) * len(w1))}", fontsize=10, loc="left")
        if fixed_result is not None:
            _grid(fout_ax, fixed_result, vmin=vmin, vmax=vmax, ticks=False)
            nbad = 0
            for idx in np.ndindex(*fixed_result.shape):
                if not np.isclose(fixed_result[idx], result[idx], equal_nan=True):
                    nbad += 1
                    _add(fout_ax, Rectangle((idx[1] - 0.45, idx[0] - 0.45), 0.9, 0.9,
                                                fill=False, edgecolor=style.WRONG_COLOR,
                                                linewidth=2.5, linestyle=(0, (3, 1.5)),
                                                zorder=5, gid="mismatch"))
            fout_ax.set_title(f"fixed pool output:\n{nbad} of {fixed_result.size} \u2260 "
                              f"adaptive (dashed)" if nbad else
                              "fixed pool output\n= adaptive output", fontsize=10, loc="left")
            _label_axes(fout_ax, "j", "i")
            _widen(fout_ax, room)
        else:
            fout_ax.axis("off")
    return tuple(patches), "\n".join(title)


def _marks_2d(axes, fixed, has_fixed_output):
    from matplotlib.patches import Rectangle

    z = MARK_ZORDER

    def outline(target, gid, linewidth, **kwargs):
        return _add(target, Rectangle((0, 0), 1, 1, fill=False, linewidth=linewidth,
                                          gid=gid, zorder=z, clip_on=False, **kwargs))

    ax, out_ax = axes[:2]
    marks = {"bin": outline(ax, "bin-outline", 3.5, edgecolor=style.WINDOW_COLOR),
             "winner": style.mark_cell(ax, (0, 0), autolim=False),
             "highlight": style.mark_cell(out_ax, (0, 0), color=style.HIGHLIGHT_COLOR,
                                          gid="highlight", autolim=False)}
    if fixed is not None and len(axes) == 4:
        marks["window"] = outline(axes[2], "window-outline", 3.0)
        marks["fixed-bin"] = outline(axes[2], "fixed-bin-outline", 2.0,
                                     edgecolor=style.WINDOW_COLOR)
        if has_fixed_output:
            marks["fixed-highlight"] = style.mark_cell(axes[3], (0, 0),
                                                       color=style.HIGHLIGHT_COLOR,
                                                       gid="fixed-highlight", autolim=False)
    for artist in marks.values():
        artist.set_zorder(z + (1 if artist.get_gid() == "winner" else 0))
    return marks


# --------------------------------------------------------------------------- marks


def _winner_of(winners, out_index, shape):
    if winners is None or int(winners[out_index]) < 0:
        return None
    return tuple(int(v) for v in np.unravel_index(int(winners[out_index]), shape))


def _place_marks(plot: AdaptiveBinsPlot) -> None:
    """Put the moving marks and the caption of ``plot`` on ``plot.out_index``."""
    geom, o, marks = plot.geometry, plot.out_index, plot.marks
    bins = [a.bins[i] for a, i in zip(geom.axes, o, strict=True)]
    winner = plot.winner
    marks["winner"].set_visible(winner is not None)
    if winner is not None:
        _move_square(marks["winner"], (0, winner[0]) if len(o) == 1 else winner)
    if len(o) == 1:
        (s0, s1), = bins
        marks["bin"].set_bounds(s0 - 0.5, -0.5, s1 - s0, 1)
        rows = plot.bar_rows
        _move_bar(marks["bar"], s0, s1, rows["bars"][o[0]])
        if "highlight" in marks:
            y, centers = rows["output"]
            _move_square(marks["highlight"], (y, centers[o[0]]))
        if "window" in marks:
            w0, w1 = plot.fixed.windows[0][o[0]]
            _move_bar(marks["window"], w0, w1, rows["windows"][o[0]])
            ok = plot.fixed.same[0][o[0]]
            marks["window"].set_edgecolor(style.RIGHT_COLOR if ok else style.WRONG_COLOR)
            marks["window"].set_linestyle("-" if ok else (0, (3, 1.5)))
        if "fixed-highlight" in marks:
            y, centers = rows["fixed_output"]
            _move_square(marks["fixed-highlight"], (y, centers[o[0]]))
    else:
        (r0, r1), (c0, c1) = bins
        marks["bin"].set_bounds(c0 - 0.5, r0 - 0.5, c1 - c0, r1 - r0)
        _move_square(marks["highlight"], o)
        if "window" in marks:
            w0, w1 = plot.fixed.windows
            rect = _span_rect(w0, w1, o)
            marks["window"].set_bounds(*rect.get_xy(), rect.get_width(), rect.get_height())
            ok = plot.fixed.same[0][o[0]] and plot.fixed.same[1][o[1]]
            marks["window"].set_edgecolor(style.RIGHT_COLOR if ok else style.WRONG_COLOR)
            marks["window"].set_linestyle("-" if ok else (0, (3, 1.5)))
            marks["fixed-bin"].set_bounds(c0 - 0.5, r0 - 0.5, c1 - c0, r1 - r0)
        if "fixed-highlight" in marks:
            _move_square(marks["fixed-highlight"], o)
    # a caption in a 2-D input's title (ax= given) stays about as narrow as the panel
    sep = "\n" if plot.caption_prefix and len(o) == 2 else ", "
    lines = [_focus(plot.values, plot.output, o, bins, winner, sep)]
    if "window" in marks:
        lines.append(_fixed_focus(plot.fixed, plot.fixed_output, o, sep))
    plot.caption.set_text(plot.caption_prefix + "\n".join(lines))


def move_adaptive_bins(plot: AdaptiveBinsPlot, out_index) -> AdaptiveBinsPlot | None:
    """Highlight another output cell on an existing plot: only the marks and the caption
    change (:attr:`AdaptiveBinsPlot.moving`), in place; the pooling does not run again.
    None when the figure shows something else since (then call :func:`plot_adaptive_bins`).

    >>> p = plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5, 9, 2]), 4)
    >>> q = move_adaptive_bins(p, 2)
    >>> q.winner, q.caption.get_text()
    ((5,), 'output 2: bin [3,6), max 9 at w=5')
    >>> p2 = plot_adaptive_bins(np.arange(25.0).reshape(5, 5), 3, show_fixed=True)
    >>> q2 = move_adaptive_bins(p2, (1, 2))
    >>> print(q2.caption.get_text())
    output (1, 2): bin [1,4) x [3,5), max 19 at (3, 4)
    export workaround: window [1,4) x [2,5) is not its bin, value 19
    """
    if not isinstance(plot, AdaptiveBinsPlot):
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need an "
                                 f"AdaptiveBinsPlot (from plot_adaptive_bins)")
    if any(a not in plot.figure.axes for a in plot.axes) or any(
            b.axes is None for b in plot.bins[:1]):
        return None
    out_index = _check_out_index(out_index, plot.geometry.output_shape)
    moved = dataclasses.replace(plot, out_index=out_index,
                                winner=_winner_of(plot.winners, out_index,
                                                  plot.geometry.input_shape))
    _place_marks(moved)
    return moved


# --------------------------------------------------------------------------- the plot


def _panels(plot, fig, ndim, show_fixed, fixed, values):
    """The Axes of ``plot`` when a new plot on ``fig`` has the same panels (else None)."""
    if not isinstance(plot, AdaptiveBinsPlot):
        raise PoolTutorTypeError(f"reuse has type {type(plot).__name__}: need an "
                                 f"AdaptiveBinsPlot (from plot_adaptive_bins)")
    two = ndim == 2 and show_fixed and fixed is not None
    need = 1 if ndim == 1 else (4 if two else 2)
    same = (plot.figure is fig and list(fig.axes) == list(plot.axes) and len(plot.axes) == need
            and len(plot.geometry.input_shape) == ndim
            and (plot.values is None) == (values is None)
            and plot.caption is not plot.title and plot.caption is not None
            and (ndim == 1 or (plot.fixed_ax is not None) == two))
    return tuple(plot.axes) if same else None


def _empty(axes) -> None:
    """Remove what a plot drew on ``axes`` (its Axes themselves, ticks and layout stay)."""
    for target in axes:
        for artist in (*target.patches, *target.collections, *target.images, *target.texts,
                       *target.lines):
            artist.remove()


def plot_adaptive_bins(x, output_size, out_index=None, *, op: str = "max",
                       show_fixed: bool = False, fig=None, ax=None,
                       reuse=None) -> AdaptiveBinsPlot:
    """Draw the bins of adaptive pooling over the input.

    Parameters
    ----------
    x : array (1-D or 2-D, or ``(1, 1, *spatial)``), or an input shape
        The input values, or only its shape as an int or a tuple of ints
        (then the bins are drawn without values).
    output_size : int or one int per axis
    out_index : int or tuple of int, optional
        The output cell whose bin is highlighted (default the first).
    op : {'max', 'avg'}
        Adaptive max (the bin's maximum is marked) or average pooling.
    show_fixed : bool
        Also draw the fixed pool that exporters use instead
        (``k = I - (O-1)*floor(I/O)``, ``s = floor(I/O)``,
        :func:`pooltutor.geometry.fixed_pool_contrast`): its windows, and
        its output next to the adaptive one.
    fig : matplotlib.figure.Figure, optional
        Drawn on after ``fig.clear()`` (constrained layout unless the figure has a layout
        engine); a new Figure of :func:`adaptive_bins_figsize` by default.
    ax : Axes or sequence of Axes, optional
        Draw on these instead (not with ``fig``): 1-D one Axes; 2-D ``(input, output)``,
        with ``show_fixed=True`` ``(input, output, windows, fixed output)`` (the last two
        are turned off when there is no workaround, ``I < O``).  The caption then goes in
        the input's title.
    reuse : AdaptiveBinsPlot, optional
        A plot drawn on ``fig`` before (with ``fig=``): when the new one has the same
        panels (1-D; 2-D with or without the workaround's two), its Axes are emptied and
        drawn on again instead of ``fig.clear()`` and new Axes (an explorer's size change;
        the picture is the one a cleared figure gets).

    Returns
    -------
    AdaptiveBinsPlot

    Examples
    --------
    TV25 (7 -> 4): no window of the workaround ``k=4, s=1`` is its bin, so
    its average differs from adaptive pooling at every position:

    >>> p = plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5, 9, 2]), 4, op="avg", show_fixed=True)
    >>> p.output.tolist(), p.fixed_output.tolist()
    ([2.0, 2.0, 5.0, 5.5], [2.25, 2.75, 4.75, 4.25])
    >>> p.fixed.kernel, p.fixed.stride, p.fixed.same
    ((4,), (1,), ((False, False, False, False),))

    An input shape alone draws the bins (here 2-D, overlapping on both axes), on Axes
    of your own:

    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(7, 3), layout="constrained")
    >>> p = plot_adaptive_bins((5, 5), 3, ax=fig.subplots(1, 2))
    >>> p.geometry.axes[0].bins, p.figure is fig
    (((0, 2), (1, 4), (3, 5)), True)

    See Also
    --------
    pooltutor.pooling.adaptive_max_pool, pooltutor.geometry.adaptive_bins
    pooltutor.geometry.fixed_pool_contrast : the export workaround's windows.
    pooltutor.viz.adaptive_explorer.AdaptiveBinsExplorer : the same, with controls.
    notebooks/04_adaptive_pooling.py : where these pictures are taught.
    """
    op = check_choice("op", op, ("max", "avg"))
    if not isinstance(show_fixed, (bool, np.bool_)):
        raise PoolTutorTypeError(f"show_fixed={show_fixed!r}: need True or False")
    show_fixed = bool(show_fixed)
    style.check_fig(fig)
    values, shape = _read_input(x)
    given = _check_ax(ax, fig, len(shape), show_fixed)
    outs = check_per_axis("output_size", output_size, len(shape), minimum=1)
    if max(outs) > MAX_SIDE:
        raise PoolTutorError(f"output_size={output_size!r}: need at most {MAX_SIDE} per axis")
    geom = adaptive_geometry(shape, outs)
    out_index = _check_out_index(out_index, geom.output_shape)
    fixed = fixed_pool_contrast(geom)

    result = fixed_result = winners = None
    if values is not None:
        x4 = values.reshape((1, 1) + values.shape)
        if op == "max":
            pooled = adaptive_max_pool(x4, outs, return_indices=True)
            winners = pooled.indices[0, 0]
        else:
            pooled = adaptive_avg_pool(x4, outs)
        result = pooled.output[0, 0]
        if fixed is not None:
            pool = max_pool if op == "max" else avg_pool
            fixed_result = pool(x4, fixed.kernel, fixed.stride).output[0, 0]

    figsize, cell_in = _sizing(shape, geom, fixed, show_fixed, values is not None)
    kept = None
    if reuse is not None and fig is None:
        raise PoolTutorError("reuse= needs fig= (the figure the reused plot is on)")
    if given is None:
        if fig is None:
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure

            fig = Figure(figsize=figsize, layout="constrained")
            FigureCanvasAgg(fig)            # drawable and savable without pyplot
        else:
            if len(shape) == 1:     # the labels that fit follow the figure actually given
                cell_in = min(cell_in, max(fig.get_figwidth() - 2.4, 0.5) / shape[0])
            kept = (None if reuse is None
                    else _panels(reuse, fig, len(shape), show_fixed, fixed, values))
            if kept is None:
                fig.clear()
            else:
                _empty(kept)
            if fig.get_layout_engine() is None:
                fig.set_layout_engine("constrained")
        room = _title_room(geom, fixed, show_fixed) if len(shape) == 2 else 0.0
        ratios = [shape[-1] + 0.6, geom.output_shape[-1] + 0.6 + room]
        if kept is not None:
            axes = kept
            if len(shape) == 2:
                axes[0].get_subplotspec().get_gridspec().set_width_ratios(ratios)
            for target in axes:
                # where a new Axes starts (its grid slot): the layout then places it as it
                # places a new one (set_position takes it out of the layout: back in)
                target.set_position(target.get_subplotspec().get_position(fig))
                target.set_in_layout(True)
        elif len(shape) == 1:
            axes = (fig.add_subplot(),)
        else:
            two = show_fixed and fixed is not None
            grid = fig.add_gridspec(2 if two else 1, 2, width_ratios=ratios)
            axes = tuple(fig.add_subplot(grid[i // 2, i % 2]) for i in range(4 if two else 2))
        for target in axes:
            # a fixed-aspect panel at the top left of its grid slot: the constrained layout
            # settles in one pass (centred, each draw would move it a little further)
            target.set_anchor("NW")
    else:
        axes = given
        fig = _root(axes[0])
    if given is not None and len(shape) == 1:
        # the labels that fit follow the Axes actually drawn on
        cell_in = axes[0].get_position().width * fig.get_figwidth() / (shape[0] + 0.2)

    if len(shape) == 1:
        patches, rows, title = _draw_1d(axes[0], values, geom, op, show_fixed, result, fixed,
                                        fixed_result, cell_in)
        marks = _marks_1d(axes[0], rows, fixed if show_fixed else None)
        main = out = axes[0]
        fixed_ax = fixed_out = axes[0] if show_fixed and fixed is not None else None
    else:
        rows = ()
        patches, title = _draw_2d(axes, values, geom, op, show_fixed, result, fixed,
                                  fixed_result)
        has = show_fixed and fixed is not None
        marks = _marks_2d(axes, fixed if has else None, has and fixed_result is not None)
        main, out = axes[:2]
        fixed_ax = axes[2] if has else None
        fixed_out = axes[3] if has and fixed_result is not None else None
    for target in axes:
        # cell artists stay inside their Axes: out of the layout (texts outside take part)
        for artist in (*target.patches, *target.collections, *target.images, *target.texts):
            artist.set_in_layout(artist.get_gid() == "index-labels")

    if given is None:
        # 1-D: the title over the whole figure (a narrow input row sits at the left)
        heading = (fig.suptitle(title, fontsize=10.5) if len(shape) == 1 else
                   main.set_title(title, fontsize=10, loc="left"))
        caption, prefix = fig.supxlabel(" ", fontsize=10), ""
    else:
        heading = main.set_title(title, fontsize=10.5 if len(shape) == 1 else 10,
                                 loc="center" if len(shape) == 1 else "left")
        caption, prefix = heading, title + "\n"
    plot = AdaptiveBinsPlot(
        fig, tuple(axes), main, out, fixed_ax, fixed_out, geom, op, patches, out_index,
        _winner_of(winners, out_index, shape), result, fixed, fixed_result, caption, heading,
        marks, winners, values, prefix, rows)
    _place_marks(plot)
    return plot
