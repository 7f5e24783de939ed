"""Adaptive pooling bins drawn over the input, and the fixed-pool export workaround.

Adaptive pooling gives output cell ``i`` the bin ``[floor(i*I/O),
ceil((i+1)*I/O))`` of the input (:func:`pooltutor.geometry.adaptive_bins`):
neighbouring bins overlap when ``I % O != 0``.  Exporters that have no
adaptive operator (ONNX) replace it by a fixed pool with
``k = I - (O-1)*floor(I/O)`` and ``s = floor(I/O)``, whose windows are the
bins only in some cases (TV24-TV27).  :func:`plot_adaptive_bins` draws

* 1-D: the input as one row of cells, every bin as a coloured bar below it,
  overlapping bins on separate lanes so that the overlap is visible;
* 2-D: the input grid with every bin as a translucent coloured rectangle
  (cells covered by two or four bins come out darker);
* the bin of ``out_index`` outlined and, for max pooling, its maximum marked;
* the output, in the input's colours;
* optionally the fixed pool's windows and output beside them, windows that
  differ from their bin in red.

>>> from pooltutor.viz.adaptive import plot_adaptive_bins
>>> p = plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5]), 3, out_index=1)       # TV24
>>> p.geometry.axes[0].bins, p.winner, p.output.tolist()
(((0, 2), (1, 4), (3, 5)), (2,), [3.0, 4.0, 5.0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import (
    PoolTutorError,
    PoolTutorTypeError,
    check_choice,
    check_index_within,
    check_per_axis,
)
from ..geometry import AdaptiveGeometry, FixedPoolContrast, adaptive_geometry, fixed_pool_contrast
from ..pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool
from . import style
from .indices import keep_axes, prepare_figure

__all__ = [
    "AdaptiveBinsPlot",
    "FixedPoolContrast",
    "adaptive_bins_figsize",
    "fixed_pool_contrast",
    "bin_lanes",
    "adaptive_overlays",
    "mark_winner",
    "move_adaptive_bins",
    "plot_adaptive_bins",
]

#: Bins are coloured in turn from this list (neighbours always differ).
BIN_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#17becf", "#e377c2", "#8c564b",
              "#bcbd22")

#: The largest input drawn per axis (every input cell gets a box).
MAX_SIDE = 40


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
class AdaptiveBinsPlot:
    """What :func:`plot_adaptive_bins` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    ax : Axes
        The input with the bins.
    output_ax : Axes
        The output (adaptive, and the fixed pool's under it when shown).
    fixed_ax : Axes or None
        The input with the fixed pool's windows (``show_fixed=True``).
    geometry : AdaptiveGeometry
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
    """

    figure: Any
    ax: Any
    output_ax: Any
    fixed_ax: Any
    geometry: AdaptiveGeometry
    bins: tuple
    out_index: tuple[int, ...]
    winner: tuple[int, ...] | None
    output: np.ndarray | None
    fixed: FixedPoolContrast | None
    fixed_output: np.ndarray | None


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


# --------------------------------------------------------------------------- drawing


def _bin_text(bins) -> str:
    return " x ".join(f"[{a},{b})" for a, b in bins)


def _color(i: int) -> str:
    return BIN_COLORS[i % len(BIN_COLORS)]


def mark_winner(ax, cell, gid="winner", autolim=True):
    """The house winner mark, :func:`style.mark_cell` (its dark rim keeps it visible on the
    yellow of a maximum in viridis)."""
    return style.mark_cell(ax, cell, gid=gid, autolim=autolim)


def _fits(label, length_cells, cell_in, fontsize) -> bool:
    return length_cells * cell_in * 72 >= 0.62 * fontsize * len(label) + 4


def _draw_bars(ax, spans, lanes, y0, labels, short, colors, cell_in, *, dashed=False,
               highlight=None, gid="bin", edge_colors=None, fontsize=10.5):
    """One rounded bar per span ``[start, stop)`` at ``y0 + 0.85 * lane``; returns the bars."""
    import matplotlib as mpl
    from matplotlib.patches import FancyBboxPatch

    patches = []
    for i, ((start, stop), lane) in enumerate(zip(spans, lanes, strict=False)):
        y = y0 + 0.85 * lane
        edge = edge_colors[i] if edge_colors else colors[i]
        patch = FancyBboxPatch((start - 0.42, y - 0.3), stop - start - 0.16, 0.6,
                               boxstyle="round,pad=0,rounding_size=0.12",
                               facecolor=(*mpl.colors.to_rgb(colors[i]), 0.3), edgecolor=edge,
                               linewidth=1.8, linestyle=(0, (4, 2)) if dashed else "-", gid=gid,
                               zorder=2)
        ax.add_artist(patch)
        patches.append(patch)
        length = stop - start - 0.16
        text = labels[i] if _fits(labels[i], length, cell_in, fontsize) else short[i]
        if _fits(text, length, cell_in, fontsize - 1):
            ax.text((start + stop - 1) / 2, y, text, ha="center", va="center", fontsize=fontsize,
                    color="black", zorder=4, gid=f"{gid}-label")
        if highlight == i:
            _bar_highlight(ax, start, stop, y)
    return patches


def _bar_highlight(ax, start, stop, y):
    """The window outline around the bar ``[start, stop)`` at height ``y`` (a moving mark, above
    the bar labels: drawn last in a blit as well)."""
    from matplotlib.patches import FancyBboxPatch

    patch = FancyBboxPatch((start - 0.47, y - 0.36), stop - start - 0.06, 0.72,
                           boxstyle="round,pad=0,rounding_size=0.14", fill=False,
                           edgecolor=style.WINDOW_COLOR, linewidth=3, zorder=4.5, gid="window")
    ax.add_artist(patch)
    patch.pooltutor_overlay = True
    return patch


def _value_cells(ax, centers, values, y, vmin, vmax, gid, fontsize):
    """Coloured value cells of width 1 centred at ``centers`` on row ``y``."""
    import matplotlib as mpl
    from matplotlib.patches import Rectangle

    cmap = mpl.colormaps[style.CMAP]
    span = (vmax - vmin) or 1.0
    for xc, v in zip(centers, values, strict=False):
        finite = np.isfinite(v)
        color = cmap(min(max((float(v) - vmin) / span, 0.0), 1.0)) if finite else "white"
        ax.add_artist(Rectangle((xc - 0.5, y - 0.5), 1, 1, facecolor=color, edgecolor="white",
                               linewidth=1.0, zorder=1, gid=gid))
        ax.text(xc, y, style.format_value(v), ha="center", va="center", fontsize=fontsize,
                color=style.cell_text_color(float(v), vmin, vmax) if finite else "black",
                zorder=4, gid="value")


def _plot_1d(fig, values, geom, out_index, op, show_fixed, result, fixed, fixed_result, winner,
             cell_in):
    from matplotlib.patches import Rectangle

    a = geom.axes[0]
    size, o = a.input_size, out_index[0]
    bins = a.bins
    lanes = bin_lanes(bins)
    vmin, vmax = style.shared_limits(values, result, fixed_result)
    fontsize = 11 if cell_in >= 0.42 else 9.5
    ax = fig.add_subplot()
    ticks, tick_labels = [0], ["input"]

    # the input row
    if values is None:
        for j in range(size):
            ax.add_artist(Rectangle((j - 0.5, -0.5), 1, 1, facecolor="white", edgecolor="#888888",
                                   linewidth=1, gid="cell"))
    else:
        # style.draw_grid(annotate=True) at this font size; the tick style is set below
        _grid(ax, values[None, :], vmin, vmax)
        colors = style.cell_text_colors(values, vmin, vmax)
        for j, v in enumerate(values):
            ax.text(j, 0, style.format_value(v), ha="center", va="center", fontsize=fontsize,
                    color=str(colors[j]), gid="value")

    # the bins, overlapping ones on separate lanes
    y_bins = 1.25
    if result is None:
        labels = [f"bin {i}: [{s0},{s1})" for i, (s0, s1) in enumerate(bins)]
        short = [f"[{s0},{s1})" if _fits(f"[{s0},{s1})", s1 - s0 - 0.16, cell_in, fontsize)
                 else str(i) for i, (s0, s1) in enumerate(bins)]
    else:
        labels = [f"y{i} = {style.format_value(result[i])}" for i in range(len(bins))]
        short = [style.format_value(result[i]) for i in range(len(bins))]
    patches = _draw_bars(ax, bins, lanes, y_bins, labels, short,
                         [_color(i) for i in range(len(bins))], cell_in, fontsize=fontsize)
    marks = {"bins": bins, "bar_y": [y_bins + 0.85 * lane for lane in lanes], "values": values,
             "result": result}
    ticks.append(y_bins)
    tick_labels.append("bins")
    y = y_bins + 0.85 * max(lanes)

    # the output, each cell under its bin
    if result is not None:
        y += 1.3
        centers = [(s0 + s1 - 1) / 2 for s0, s1 in bins]
        aligned = all(b - c >= 1 for c, b in zip(centers, centers[1:], strict=False))
        if not aligned:         # O > I: bins repeat, so the cells go side by side
            centers = list(range(len(bins)))
        _value_cells(ax, centers, result, y, vmin, vmax, "output", fontsize)
        marks["output"] = (y, centers)
        ticks.append(y)
        tick_labels.append(f"adaptive {op}")

    title = [f"adaptive {op} pool: I={size} \u2192 O={a.output_size};   bin i = "
             f"[floor(i\u00b7I/O), ceil((i+1)\u00b7I/O))"]
    overlap = (f"bins overlap ({size} % {a.output_size} = {size % a.output_size})"
               if a.overlapping else f"bins tile the input ({size} % {a.output_size} = 0)")
    title.append(overlap)

    if show_fixed and fixed is None:
        title.append(f"no fixed-pool workaround: I={size} < O={a.output_size} gives "
                     f"s = floor(I/O) = 0")
    if show_fixed and fixed is not None:
        y += 1.4
        wins = fixed.windows[0]
        ndiff = sum(not s for s in fixed.same[0])
        verdict = ("every window is its bin: the export is exact" if fixed.equal
                   else f"{ndiff} of {len(wins)} windows differ from their bin (red)")
        from matplotlib.transforms import blended_transform_factory

        ax.text(0.02, y, f"export workaround: {op} pool with\nk = I\u2212(O\u22121)\u00b7"
                f"floor(I/O) = {fixed.kernel[0]}, s = floor(I/O) = {fixed.stride[0]}\n"
                f"{verdict}", ha="left", va="center", fontsize=fontsize,
                transform=blended_transform_factory(ax.figure.transFigure, ax.transData),
                color=style.RIGHT_COLOR if fixed.equal else style.WRONG_COLOR,
                gid="fixed-title")
        f_lanes = bin_lanes(wins)
        y += 1.15
        if fixed_result is None:
            flabels = [f"w{i} {'=' if same else chr(0x2260)} bin {i}"
                       for i, same in enumerate(fixed.same[0])]
            fshort = [str(i) for i in range(len(wins))]
        else:
            flabels = [f"w{i} = {style.format_value(fixed_result[i])}"
                       for i in range(len(wins))]
            fshort = [style.format_value(v) for v in fixed_result]
        edges = [style.RIGHT_COLOR if same else style.WRONG_COLOR for same in fixed.same[0]]
        _draw_bars(ax, wins, f_lanes, y, flabels, fshort, ["#bdbdbd"] * len(wins), cell_in,
                   dashed=True, gid="fixed-window", edge_colors=edges, fontsize=fontsize)
        marks["windows"] = (wins, [y + 0.85 * lane for lane in f_lanes])
        ticks.append(y)
        tick_labels.append("windows")
        y += 0.85 * max(f_lanes)
        if fixed_result is not None:
            y += 1.3
            centers = [(s0 + s1 - 1) / 2 for s0, s1 in wins]
            _value_cells(ax, centers, fixed_result, y, vmin, vmax, "fixed-output", fontsize)
            marks["fixed_output"] = (y, centers)
            for c, v, r in zip(centers, fixed_result, result, strict=True):
                if not np.isclose(v, r, equal_nan=True):
                    ax.add_artist(Rectangle((c - 0.45, y - 0.45), 0.9, 0.9, fill=False,
                                           edgecolor=style.WRONG_COLOR, linewidth=2.5,
                                           linestyle=(0, (3, 1.5)), zorder=5, gid="mismatch"))
            ticks.append(y)
            tick_labels.append(f"fixed {op}")
    ax.set_xlim(-0.6, size - 0.4)
    ax.set_ylim(y + 0.6, -0.6)
    ax.set_aspect("equal")
    ax.set_xticks(range(size))
    ax.set_yticks(ticks)
    ax.set_yticklabels(tick_labels)
    _tick_style(ax, fontsize - 0.5)
    ax.set_xlabel("w (input position)", fontsize=fontsize - 0.5)
    for spine in ax.spines.values():
        spine.set_visible(False)
    marks["title"] = title
    ax._pooltutor_marks = marks
    ax.set_title("", fontsize=fontsize + 0.5, y=1.0)     # y given: no automatic placing
    _marks_1d(ax, o, winner)
    _out_of_layout(ax)
    return ax, ax, (ax if show_fixed else None), tuple(patches), winner


def _marks_1d(ax, o, winner) -> None:
    """What marks output cell ``o`` of a 1-D bins plot (drawn above the rest, and moved by
    :func:`move_adaptive_bins`): the bin's cells outlined on the input, its maximum, its
    bar and window outlined, its output cells highlighted; and the title naming it."""
    marks = ax._pooltutor_marks
    for artist in [a for a in ax.get_children() if getattr(a, "pooltutor_overlay", False)]:
        artist.remove()
    bins, values, result = marks["bins"], marks["values"], marks["result"]
    made = style.outline_cells(ax, [(0, j) for j in range(*bins[o])], linewidth=3,
                               autolim=False)
    for patch in made:
        patch.set_zorder(4.5)           # above the values: drawn last in a blit as well
    if winner is not None:
        made.append(style.mark_cell(ax, (0, winner[0]), autolim=False))
    made.append(_bar_highlight(ax, *bins[o], marks["bar_y"][o]))
    if "windows" in marks:
        wins, ys = marks["windows"]
        made.append(_bar_highlight(ax, *wins[o], ys[o]))
    for key in ("output", "fixed_output"):
        if key in marks:
            y, centers = marks[key]
            made.append(style.mark_cell(ax, (y, centers[o]), color=style.HIGHLIGHT_COLOR,
                                        gid="highlight", autolim=False))
    for artist in made:
        artist.pooltutor_overlay = True
        artist.set_in_layout(False)
    focus = f"output {o}: bin {_bin_text([bins[o]])}"
    if winner is not None:
        focus += f", max {style.format_value(values[winner[0]])} at w={winner[0]}"
    elif result is not None:
        focus += f", average {style.format_value(result[o])}"
    title = list(marks["title"])
    title[1] = f"{title[1]};   {focus}"
    ax.title.set_text("\n".join(title))


def _grid(ax, values, vmin, vmax, cmap=style.CMAP):
    """:func:`style.draw_grid` without values written and without its tick style (each 2-D
    panel sets its own: :func:`_tick_style`)."""
    rows, cols = values.shape
    extent = (-0.5, cols - 0.5, rows - 0.5, -0.5)
    shown = np.ma.masked_invalid(values.astype(float))
    kept = [im for im in ax.images if getattr(im, "pooltutor_static", False)]
    if kept:                    # a kept panel: its image takes the new values (set in place)
        image = kept[0]
        image.set_data(shown)
        image.set_extent(extent)
        if image.cmap.name != cmap:
            image.set_cmap(_bad_white(cmap))
        image.set_clim(vmin, vmax)
        image.set_alpha(None)
    else:
        image = ax.imshow(shown, cmap=_bad_white(cmap), vmin=vmin, vmax=vmax, extent=extent,
                          interpolation="nearest")
        image.pooltutor_static = True       # kept by prepare_figure's strip of the Axes
    ax.set_xticks(range(cols))
    ax.set_yticks(range(rows))
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return image


def _bad_white(cmap):
    import matplotlib as mpl

    return mpl.colormaps[cmap].with_extremes(bad="#ffffff")


def _tick_style(ax, size) -> None:
    """``ax.tick_params(length=0, labelsize=size)``, skipped on kept Axes that have it
    already (it restyles every tick: ~3 ms a panel); ticks made later take it too."""
    if getattr(ax, "_pooltutor_tick_style", None) != size:
        # no tick lines: they have length 0 (nothing drawn), but each still costs a draw
        ax.tick_params(length=0, labelsize=size, bottom=False, left=False)
        ax._pooltutor_tick_style = size


def _annotated_grid(ax, values, vmin, vmax, size=10.5):
    """A heatmap with its values written (one text collection, gid ``"value"``) and its
    row / column indices as ticks."""
    _grid(ax, values, vmin, vmax)
    labels = style.TextCollection()
    colors = style.cell_text_colors(values, vmin, vmax)
    for (i, j), v in np.ndenumerate(values):
        labels.add(j, i, style.format_value(v), size, str(colors[i, j]), gid="value")
    labels.draw(ax)


def _draw_output(out_ax, geom, result, op, vmin, vmax):
    """The 2-D adaptive output (or, without values, the size of every bin); its highlight is
    one of the moving marks (:func:`_marks_2d`)."""
    shape = geom.output_shape
    if result is None:
        from matplotlib.patches import Rectangle

        _grid(out_ax, np.zeros(shape), 0, 1, "Greys")
        for idx in np.ndindex(*shape):
            out_ax.add_artist(Rectangle((idx[1] - 0.5, idx[0] - 0.5), 1, 1, fill=False,
                                       edgecolor="#c8c8c8", linewidth=0.8))
            bins = [a.bins[i] for a, i in zip(geom.axes, idx, strict=False)]
            out_ax.text(idx[1], idx[0], "x".join(str(b - a) for a, b in bins), ha="center",
                        va="center", fontsize=10, gid="bin-size")
        title = "output: bin sizes"
    else:
        _annotated_grid(out_ax, result, vmin, vmax)
        title = f"output (adaptive {op})"
    _tick_style(out_ax, 10)
    out_ax.set_title(title, fontsize=11, y=1.0)


#: zorder of the moving marks that sit on cells: above the written values (zorder 6), so that
#: drawing them last over a cached background (an explorer's blit) gives the same picture
MARK_ZORDER = 6.5


def _span_rect(spans0, spans1, idx, dashed=False, **kwargs):
    """The rectangle of the span pair ``idx`` (row-major number ``k``) as
    :func:`_plot_2d` draws the bins and windows: inset by ``0.04 + 0.05 * (k % 3)`` so that
    the edges of overlapping neighbours stay apart."""
    from matplotlib.patches import Rectangle

    (r0, r1), (c0, c1) = spans0[idx[0]], spans1[idx[1]]
    inset = 0.04 + 0.05 * ((idx[0] * len(spans1) + idx[1]) % 3)
    return Rectangle((c0 - 0.5 + inset, r0 - 0.5 + inset), c1 - c0 - 2 * inset,
                     r1 - r0 - 2 * inset, linestyle=(0, (4, 2)) if dashed else "-", **kwargs)


def _label_rows(target, name):
    """The row axis name, upright, right of the tick labels' left edge (never touching them)."""
    target.set_ylabel(name, fontsize=10, rotation=0, labelpad=10, ha="right", va="center")


def _plot_2d(fig, values, geom, out_index, op, show_fixed, result, fixed, fixed_result, winner,
             cell_in):
    import matplotlib as mpl
    from matplotlib.patches import Rectangle

    rows, cols = geom.input_shape
    vmin, vmax = style.shared_limits(values, result, fixed_result)
    ncols = 2
    nrows = 2 if show_fixed else 1
    grid = fig.add_gridspec(nrows, ncols, width_ratios=[cols + 0.6, geom.output_shape[1] + 0.6])
    ax = fig.add_subplot(grid[0, 0])

    def neutral_input(target):
        # white cells with the values written in black: the bins' colours must stay readable;
        # the cell borders as one collection, the values as one text collection
        shown = np.zeros((rows, cols)) if values is None else values
        _grid(target, shown, 0, 1, "Greys").set_alpha(0.0)
        # a kept panel keeps its borders and values while the input stays (output size, op)
        key = (rows, cols, None if values is None else (values.dtype.str, values.tobytes()))
        kept = [c for c in target.collections if getattr(c, "pooltutor_static", False)]
        if not kept or getattr(target, "_pooltutor_input", None) != key:
            cells_and_values(target, kept, key)
        target.set_xlabel("w", fontsize=10)
        _label_rows(target, "h")

    def cells_and_values(target, old, key):
        for c in old:
            c.remove()
        made = [style.cell_squares(target, [(i, j) for i in range(rows) for j in range(cols)],
                                   "cell", facecolors="none", edgecolors="#c8c8c8",
                                   linewidths=0.6, zorder=0.5)]
        if values is not None and max(rows, cols) <= style.MAX_ANNOTATED:
            labels = style.TextCollection()
            for i in range(rows):
                for j in range(cols):
                    labels.add(j, i, style.format_value(values[i, j]),
                               10 if max(rows, cols) <= 10 else 8, gid="value")
            made.append(labels.draw(target, zorder=6))
        for c in made:
            c.pooltutor_static = True           # kept by prepare_figure's strip of the Axes
        target._pooltutor_input = key

    def rectangles(target, spans0, spans1, colors, gid, dashed=False, alpha=0.16, edge=None,
                   linewidth=1.8):
        patches = []
        for k, idx in enumerate(np.ndindex(len(spans0), len(spans1))):
            patch = _span_rect(spans0, spans1, idx, dashed,
                               facecolor=(*mpl.colors.to_rgb(colors[k]), alpha),
                               edgecolor=edge or colors[k], linewidth=linewidth, zorder=2,
                               gid=gid)
            target.add_artist(patch)        # the limits are set: no data-limit update
            patches.append(patch)
        return patches

    neutral_input(ax)
    b0, b1 = geom.axes[0].bins, geom.axes[1].bins
    n_bins = len(b0) * len(b1)
    colors = [_color(k) for k in range(n_bins)]
    patches = rectangles(ax, b0, b1, colors, "bin")
    over = [f"{a.input_size} % {a.output_size} = {a.input_size % a.output_size}"
            for a in geom.axes]
    overlap = ("bins overlap (" + ", ".join(over) + ")" if any(a.overlapping for a in geom.axes)
               else "bins tile the input")
    ax.set_title("", fontsize=11, y=1.0)       # y given: no automatic placing (nothing above)
    _tick_style(ax, 10)
    marks = {"bins": (b0, b1), "values": values, "result": result, "out_ax": None,
             "title": f"adaptive {op} pool {geom.input_shape} \u2192 {geom.output_shape}\n"
                      f"{overlap}", "fixed": None, "fixed_out_ax": None}

    out_ax = fig.add_subplot(grid[0, 1])
    _draw_output(out_ax, geom, result, op, vmin, vmax)
    out_ax.set_xlabel("j", fontsize=10)
    _label_rows(out_ax, "i")
    marks["out_ax"] = out_ax

    fixed_ax = None
    if show_fixed:
        fixed_ax = fig.add_subplot(grid[1, 0])
        neutral_input(fixed_ax)
        if fixed is None:
            fixed_ax.set_title("no fixed-pool workaround: I < O on an axis gives floor(I/O) = 0",
                               fontsize=11, color=style.WRONG_COLOR, y=1.0)
        else:
            w0, w1 = fixed.windows
            same = [fixed.same[0][i] and fixed.same[1][j]
                    for i, j in np.ndindex(len(w0), len(w1))]
            # every window faint; the one of out_index is drawn bold over it (a moving mark)
            rectangles(fixed_ax, w0, w1, ["#999999"] * len(same), "fixed-window", dashed=True,
                       alpha=0.06, edge="#b5b5b5", linewidth=1.0)
            ndiff = sum(not s for s in same)
            verdict = ("every window is its bin: the export is exact" if fixed.equal else
                       f"{ndiff} of {len(same)} windows differ from their bin")
            fixed_ax.set_title("", fontsize=11, y=1.0,
                               color=style.RIGHT_COLOR if fixed.equal else style.WRONG_COLOR)
            marks["fixed"] = (fixed_ax, w0, w1, same,
                              f"export workaround: {op} pool with\nk = I\u2212(O\u22121)\u00b7"
                              f"floor(I/O) = {_short(fixed.kernel)}, s = floor(I/O) = "
                              f"{_short(fixed.stride)}\n{verdict}")
            fout_ax = fig.add_subplot(grid[1, 1])
            if fixed_result is not None:
                _annotated_grid(fout_ax, fixed_result, vmin, vmax)
                nbad = 0
                for idx in np.ndindex(*fixed_result.shape):
                    if not np.isclose(fixed_result[idx], result[idx], equal_nan=True):
                        nbad += 1
                        fout_ax.add_artist(Rectangle((idx[1] - 0.45, idx[0] - 0.45), 0.9, 0.9,
                                                    fill=False, edgecolor=style.WRONG_COLOR,
                                                    linewidth=2.5, linestyle=(0, (3, 1.5)),
                                                    gid="mismatch"))
                marks["fixed_out_ax"] = fout_ax
                fout_ax.set_title(f"fixed pool output:\n{nbad} of {fixed_result.size} differ "
                                  f"from adaptive\n(red dashes)" if nbad
                                  else "fixed pool output\n= adaptive output", fontsize=11,
                                  y=1.0)
                _tick_style(fout_ax, 10)
            else:
                fout_ax.axis("off")
        _tick_style(fixed_ax, 10)
    for target in fig.axes:
        _out_of_layout(target)
    ax._pooltutor_marks = marks
    _marks_2d(ax, out_index, winner)
    return ax, out_ax, fixed_ax, tuple(patches), winner


def _marks_2d(ax, out_index, winner) -> None:
    """What marks output cell ``out_index`` of a 2-D bins plot (drawn above the rest, and moved
    by :func:`move_adaptive_bins`): the bin outlined on the input, its maximum, the output
    cell highlighted; the export workaround's window of that cell drawn bold with the bin
    outlined beside it, and its fixed-pool output cell highlighted; the titles naming it.

    The marks are made at the first call and then moved in place (making patches costs more
    than drawing them)."""
    from matplotlib.patches import Rectangle

    marks = ax._pooltutor_marks
    made = marks.setdefault("artists", {})
    fixed = marks["fixed"]
    (b0, b1), values, result = marks["bins"], marks["values"], marks["result"]
    (r0, r1), (c0, c1) = b0[out_index[0]], b1[out_index[1]]

    def mark(name, target, make):
        artist = made.get(name)
        if artist is None:
            artist = made[name] = make(target)
            if artist.axes is None:
                target.add_artist(artist)           # the limits are set: no data-limit update
            if artist.get_zorder() < MARK_ZORDER:
                artist.set_zorder(MARK_ZORDER)
            artist.pooltutor_overlay = True
            artist.set_in_layout(False)
        return artist

    def bin_outline(linewidth):
        return lambda target: Rectangle((0, 0), 1, 1, fill=False, edgecolor=style.WINDOW_COLOR,
                                        linewidth=linewidth, zorder=7, gid="window")

    def highlight(target):                  # made on cell (0, 0): its corner is its offset
        return style.mark_cell(target, (0, 0), color=style.HIGHLIGHT_COLOR, gid="highlight",
                               autolim=False)

    def moved(patch, cell):                 # a square of style.mark_cell onto another cell
        offset = getattr(patch, "pooltutor_offset", None)
        if offset is None:
            offset = patch.pooltutor_offset = patch.get_xy()
        patch.set_xy((cell[1] + offset[0], cell[0] + offset[1]))

    mark("bin", ax, bin_outline(3.5)).set_bounds(c0 - 0.5, r0 - 0.5, c1 - c0, r1 - r0)
    if winner is None:
        if "winner" in made:
            made.pop("winner").remove()
    else:
        moved(mark("winner", ax, lambda target: mark_winner(target, (0, 0), autolim=False)),
              winner)
    moved(mark("highlight", marks["out_ax"], highlight), out_index)
    focus = f"output {out_index}: bin {_bin_text([b0[out_index[0]], b1[out_index[1]]])}"
    if winner is not None:
        focus += f", max {style.format_value(values[winner])} at {winner}"
    elif result is not None:
        focus += f", average {style.format_value(result[out_index])}"
    ax.title.set_text(f"{marks['title']}\n{focus}")
    if fixed:
        fixed_ax, w0, w1, same, title = fixed
        k_out = out_index[0] * len(w1) + out_index[1]
        shape = _span_rect(w0, w1, out_index)
        window = mark("fixed-window", fixed_ax, lambda target: _span_rect(
            w0, w1, out_index, True, fill=False, linewidth=3.0, gid="fixed-window-current"))
        window.set_bounds(*shape.get_xy(), shape.get_width(), shape.get_height())
        window.set_edgecolor(style.RIGHT_COLOR if same[k_out] else style.WRONG_COLOR)
        mark("fixed-bin", fixed_ax, bin_outline(2.0)).set_bounds(
            c0 - 0.5, r0 - 0.5, c1 - c0, r1 - r0)
        (q0, q1), (p0, p1) = w0[out_index[0]], w1[out_index[1]]
        here = ("its window = its bin" if same[k_out] else
                f"its window [{q0},{q1}) x [{p0},{p1}) \u2260 bin (orange)")
        fixed_ax.title.set_text(f"{title}\noutput {out_index}: {here}")
        if marks["fixed_out_ax"] is not None:
            moved(mark("fixed-highlight", marks["fixed_out_ax"], highlight), out_index)


#: Text layouts (``Text._get_layout``) by everything they are computed from: a kept tick
#: label, title or axis label is measured once, not at each of the constrained layout's
#: passes and draws (the layout of a structure change measures ~350 texts)
_LAYOUTS: dict = {}


def _text_layout_class():
    from .glyphs import GlyphText

    class LaidOutText(GlyphText):
        """A :class:`~pooltutor.viz.glyphs.GlyphText` whose ``_get_layout`` (the box and
        line metrics of the text at its anchor; the position is applied after) is computed
        once per string, font, alignment, rotation, dpi and renderer type."""

        def _get_layout(self, renderer):
            if self.get_wrap():
                return super()._get_layout(renderer)
            key = (self.get_text(), hash(self._fontproperties), self.get_usetex(),
                   self.get_parse_math(), self._linespacing, _root_dpi(self),
                   self._get_multialignment(), self.get_rotation(), self.get_rotation_mode(),
                   self._horizontalalignment, self._verticalalignment, type(renderer),
                   getattr(renderer, "dpi", None))
            layout = _LAYOUTS.get(key)
            if layout is None:
                if len(_LAYOUTS) > 4096:
                    _LAYOUTS.clear()
                layout = _LAYOUTS[key] = super()._get_layout(renderer)
            return layout

    return LaidOutText


def _root_dpi(artist) -> float:
    fig = artist.get_figure(root=True)
    return fig.dpi


_LAID_OUT = []


def _measure_once(fig) -> None:
    """Make the plain texts of ``fig`` (titles, axis labels, tick labels: each Axis' ticks
    made first) :func:`_text_layout_class` texts."""
    from matplotlib.text import Text

    from .glyphs import GlyphText, figure_texts

    if not _LAID_OUT:
        _LAID_OUT.append(_text_layout_class())
    cls = _LAID_OUT[0]
    for ax in fig.axes:
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                axis.get_major_ticks(len(axis.get_majorticklocs()))
                if "_update_ticks" not in vars(axis):
                    axis._update_ticks = _ticks_once.__get__(axis)
                    axis._get_ticklabel_bboxes = _tick_boxes_once.__get__(axis)
    for text in figure_texts(fig):
        if type(text) in (Text, GlyphText):
            text.__class__ = cls


def _ticks_once(axis):
    """``Axis._update_ticks`` (locate and format the ticks, put them in place and return those
    in view), done again only when its locators, formatters, view interval, tick styles or
    ticks changed: the layout's passes and the draw call it ~9 times an axis, each time with
    the same result (it does not depend on where the Axes sit)."""
    from matplotlib.axis import Axis

    key = (axis.major.locator, axis.minor.locator, axis.major.formatter, axis.minor.formatter,
           *axis.majorTicks, None, *axis.minorTicks)
    state = (tuple(axis.get_view_interval()), axis.get_scale(),
             repr(sorted(axis._major_tick_kw.items())), repr(sorted(axis._minor_tick_kw.items())))
    kept = getattr(axis, "_pooltutor_ticks", None)
    if (kept is not None and kept[2] == state and len(kept[0]) == len(key)
            and all(a is b for a, b in zip(kept[0], key, strict=True))):
        return list(kept[1])
    ticks = Axis._update_ticks(axis)
    axis._pooltutor_ticks = (key, list(ticks), state)
    return ticks


def _tick_boxes_once(axis, ticks, renderer):
    """``Axis._get_ticklabel_bboxes``: the boxes of the tick labels, measured again only when
    the ticks, their labels and styles, the Axes' place or limits or the dpi changed (an axis'
    tight box and its label's position each ask for them, at every layout pass and draw)."""
    import weakref

    from matplotlib.axis import Axis

    ax = axis.axes
    key = (weakref.ref(renderer), ax.get_figure(root=True).dpi, ax.transAxes.get_matrix().tobytes(),
           ax.transData.get_matrix().tobytes(), repr(sorted(axis._major_tick_kw.items())),
           *[(t, t.label1.get_text(), t.label1.get_visible(), t.label2.get_text(),
              t.label2.get_visible()) for t in ticks])
    kept = getattr(axis, "_pooltutor_boxes", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    boxes = Axis._get_ticklabel_bboxes(axis, ticks, renderer)
    axis._pooltutor_boxes = (key, boxes)
    return boxes


def _out_of_layout(ax):
    """Cell artists stay inside the axes: keep them out of constrained layout (faster, and a
    long caption in data coordinates cannot squeeze the axes)."""
    for artist in (*ax.texts, *ax.patches, *ax.collections, *ax.images):
        artist.set_in_layout(False)


class _AxesSource:
    """What the drawing functions call ``fig``: a figure's ``add_gridspec`` / ``add_subplot``,
    or, when the figure kept its Axes (:func:`~pooltutor.viz.indices.prepare_figure`), the
    kept Axes handed out in the order they were made."""

    def __init__(self, fig, kept):
        self.fig, self.kept, self.made = fig, kept, []

    @property
    def axes(self):
        return self.fig.axes

    def add_gridspec(self, nrows, ncols, **kwargs):
        if self.kept is not None:
            grid = self.kept[0].get_subplotspec().get_gridspec()
            if grid.get_geometry() == (nrows, ncols):
                # kept Axes of other sizes: their grid takes the new ratios (laid out again)
                grid.set_width_ratios(kwargs.get("width_ratios"))
                grid.set_height_ratios(kwargs.get("height_ratios"))
                return grid
        return self.fig.add_gridspec(nrows, ncols, **kwargs)

    def add_subplot(self, spec=None):
        if self.kept is not None and len(self.made) < len(self.kept):
            ax = self.kept[len(self.made)]
            if spec is not None and ax.get_subplotspec() != spec:
                ax.set_subplotspec(spec)    # a new grid (other rows): the kept Axes move in
        else:
            ax = self.fig.add_subplot() if spec is None else self.fig.add_subplot(spec)
        self.made.append(ax)
        return ax

    def __getattr__(self, name):
        return getattr(self.fig, name)


def _keep_top_row(fig, key) -> None:
    """A 2-D plot whose panels change only below (the export workaround shown or hidden, or
    possible or not) keeps its top row, the input and the output: the Axes below it are
    removed, and the figure is marked as showing ``key`` with only those two kept (they
    move into the new grid: :class:`_AxesSource`)."""
    old = getattr(fig, "_pooltutor_key", None)
    kept = getattr(fig, "_pooltutor_axes", None)
    if (old is None or old == key or old[:3] != key[:3] or not kept or len(kept) < 2
            or len(fig.axes) != len(kept) or any(ax not in fig.axes for ax in kept)):
        return
    for ax in kept[2:]:
        ax.remove()
    fig._pooltutor_key = key
    fig._pooltutor_axes = kept[:2]


def _short(t):
    return str(t[0]) if all(v == t[0] for v in t) else str(tuple(t))


def _sizing(shape, geom, fixed, show_fixed, has_values):
    """``(figsize, inches per input cell)`` for the plot of ``geom``."""
    if len(shape) == 1:
        cell_in = min(0.8, 12.1 / shape[0])
        width = max(6.5, cell_in * shape[0] + 1.9)
        rows = 1.25 + 0.85 * max(bin_lanes(geom.axes[0].bins)) + (1.3 if has_values else 0)
        if show_fixed and fixed is not None:
            rows += 1.4 + 1.15 + 0.85 * max(bin_lanes(fixed.windows[0]))
            rows += 1.3 if has_values else 0
        return (width, (rows + 1.2) * cell_in + 1.2), cell_in
    cell_in = min(0.55, 5.5 / max(shape))
    width = max(8.0, (shape[1] + geom.output_shape[1] + 3) * cell_in + 2.5)
    height = (shape[0] * cell_in + 1.9) * (2 if show_fixed else 1) + 0.2
    return (width, height), cell_in


def adaptive_bins_figsize(x, output_size, show_fixed: bool = False) -> tuple[float, float]:
    """The figure size (inches) :func:`plot_adaptive_bins` picks for these arguments.

    >>> adaptive_bins_figsize(5, 3)
    (6.5, 3.84)
    """
    values, shape = _read_input(x)
    geom = adaptive_geometry(shape, check_per_axis("output_size", output_size, len(shape),
                                                   minimum=1))
    (w, h), _ = _sizing(shape, geom, fixed_pool_contrast(geom), show_fixed, values is not None)
    return round(w, 2), round(h, 2)


def plot_adaptive_bins(x, output_size, out_index=None, *, op: str = "max",
                       show_fixed: bool = False, fig=None) -> AdaptiveBinsPlot:
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
        (``k = I - (O-1)*floor(I/O)``, ``s = floor(I/O)``): its windows, and
        its output next to the adaptive one.
    fig : matplotlib.figure.Figure, optional
        Drawn on (after ``fig.clear()``); a new Figure by default.

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

    An input shape alone draws the bins (here 2-D, overlapping on both axes):

    >>> plot_adaptive_bins((5, 5), 3).geometry.axes[0].bins
    ((0, 2), (1, 4), (3, 5))

    See Also
    --------
    pooltutor.pooling.adaptive_max_pool, pooltutor.geometry.adaptive_bins
    pooltutor.viz.adaptive_explorer.AdaptiveBinsExplorer : the same, with controls.
    """
    op = check_choice("op", op, ("max", "avg"))
    if not isinstance(show_fixed, (bool, np.bool_)):
        raise PoolTutorTypeError(f"show_fixed={show_fixed!r}: need True or False")
    style.check_fig(fig)
    values, shape = _read_input(x)
    outs = check_per_axis("output_size", output_size, len(shape), minimum=1)
    if max(outs) > MAX_SIDE:
        raise PoolTutorError(f"output_size={output_size!r}: need at most {MAX_SIDE} per axis")
    geom = adaptive_geometry(shape, outs)
    out_index = _check_out_index(out_index, geom.output_shape)
    fixed = fixed_pool_contrast(geom)

    result = fixed_result = winner = None
    if values is not None:
        x4 = values.reshape((1, 1) + values.shape)
        if op == "max":
            pooled = adaptive_max_pool(x4, outs, return_indices=True)
            plane = int(pooled.indices[(0, 0) + out_index])
            if plane >= 0:
                winner = tuple(int(v) for v in np.unravel_index(plane, shape))
        else:
            pooled = adaptive_avg_pool(x4, outs)
        result = pooled.output[0, 0]
        if fixed is not None:
            pool = max_pool if op == "max" else avg_pool
            fixed_result = pool(x4, fixed.kernel, fixed.stride).output[0, 0]

    figsize, cell_in = _sizing(shape, geom, fixed, show_fixed, values is not None)
    given = fig is not None
    # a figure that last showed the same kind of plot (the same panels, whatever their sizes)
    # keeps its Axes: only what they show is redrawn, their grid takes the new width ratios
    # (1-D: one Axes whatever is shown; 2-D: the export workaround's row of panels comes and
    # goes under the kept top row, see _keep_top_row)
    key = (("adaptive_bins", 1, values is None) if len(shape) == 1 else
           ("adaptive_bins", 2, values is None, bool(show_fixed), show_fixed and fixed is None))
    if given and len(shape) == 2:
        _keep_top_row(fig, key)
    fig, kept = prepare_figure(fig, key, figsize)
    if given and len(shape) == 1:       # label fitting follows the figure actually given
        cell_in = min(cell_in, (fig.get_figwidth() - 1.9) / shape[0])
    source = _AxesSource(fig, kept)
    draw = _plot_1d if len(shape) == 1 else _plot_2d
    ax, out_ax, fixed_ax, patches, winner = draw(source, values, geom, out_index, op, show_fixed,
                                                 result, fixed, fixed_result, winner, cell_in)
    keep_axes(fig, source.made)
    marks = ax._pooltutor_marks
    marks["winners"] = None if result is None or op != "max" else pooled.indices[0, 0]
    marks["owner"] = patches            # what move_adaptive_bins checks it is moving
    _measure_once(fig)
    return AdaptiveBinsPlot(fig, ax, out_ax, fixed_ax, geom, patches, out_index, winner,
                            result, fixed, fixed_result)


def move_adaptive_bins(plot: AdaptiveBinsPlot, out_index) -> AdaptiveBinsPlot | None:
    """Highlight another output cell on an existing plot: only its marks and the titles
    change; the pooling does not run again.  1-D: the bin's outline, maximum, bar and window
    outlines, output highlights and the title; 2-D: the bin's outline, maximum, output
    highlight, the export workaround's window of that cell, its bin and its output highlight,
    and the two titles that name the cell.  None for a figure that drew something else since
    (then call :func:`plot_adaptive_bins`).

    >>> p = plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5, 9, 2]), 4)
    >>> q = move_adaptive_bins(p, 2)
    >>> q.winner, q.ax.get_title().splitlines()[1].split(";")[-1].strip()
    ((5,), 'output 2: bin [3,6), max 9 at w=5')
    >>> p2 = plot_adaptive_bins(np.arange(25.0).reshape(5, 5), 3, show_fixed=True)
    >>> q2 = move_adaptive_bins(p2, (1, 2))
    >>> q2.winner, q2.ax.get_title().splitlines()[-1]
    ((3, 4), 'output (1, 2): bin [1,4) x [3,5), max 19 at (3, 4)')
    """
    marks = getattr(plot.ax, "_pooltutor_marks", None)
    if (marks is None or marks.get("owner") is not plot.bins
            or any(a is not None and a not in plot.figure.axes
                   for a in (plot.ax, plot.output_ax, plot.fixed_ax))):
        return None
    out_index = _check_out_index(out_index, plot.geometry.output_shape)
    winners = marks["winners"]
    winner = None
    if winners is not None and int(winners[out_index]) >= 0:
        winner = tuple(int(v) for v in np.unravel_index(int(winners[out_index]),
                                                        plot.geometry.input_shape))
    if len(out_index) == 1:
        _marks_1d(plot.ax, out_index[0], winner)
    else:
        _marks_2d(plot.ax, out_index, winner)
    return AdaptiveBinsPlot(plot.figure, plot.ax, plot.output_ax, plot.fixed_ax, plot.geometry,
                            plot.bins, out_index, winner, plot.output, plot.fixed,
                            plot.fixed_output)


def adaptive_overlays(plot: AdaptiveBinsPlot) -> list:
    """What :func:`move_adaptive_bins` changes (per Axes the marks in drawing order, then the
    titles that name the cell): an explorer redraws only these on a cached background."""
    marks = plot.ax._pooltutor_marks
    if len(plot.geometry.input_shape) == 1:
        axes, titled = [plot.ax], [plot.ax]
    else:
        fixed = marks["fixed"]
        axes = [plot.ax, marks["out_ax"], *([fixed[0]] if fixed else []),
                *([marks["fixed_out_ax"]] if marks["fixed_out_ax"] is not None else [])]
        titled = [plot.ax, *([fixed[0]] if fixed else [])]
    found = []
    for ax in axes:
        found += sorted((a for a in ax.get_children() if getattr(a, "pooltutor_overlay", False)),
                        key=lambda a: a.get_zorder())
    return found + [ax.title for ax in titled]
