"""pooltutor's house style for heatmaps, set in one place (style.md lessons 12-13).

Every plot in :mod:`pooltutor.viz` draws grids through :func:`draw_grid`
and colours through the constants here, so that input, padding, windows,
winners and outputs look the same in every figure, notebook and slide.

Conventions
-----------
* Cell ``(row, col)`` of a grid is the square ``[col-0.5, col+0.5] x
  [row-0.5, row+0.5]`` in data coordinates, rows downwards (``imshow``
  style).  A grid can be drawn with an *offset*, so that input coordinates
  stay input coordinates when padding cells are drawn to the left / top
  (``offset=(-pad_top, -pad_left)``).
* Values are written in the cells when the grid is small (``<= MAX_ANNOTATED``
  cells per side), in a colour that stays readable on the cell.
* Panels that should be compared share ``vmin`` / ``vmax``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "CMAP",
    "PAD_COLOR",
    "PAD_HATCH",
    "OUTSIDE_COLOR",
    "WINDOW_COLOR",
    "WINNER_COLOR",
    "HIGHLIGHT_COLOR",
    "DROPPED_COLOR",
    "WRONG_COLOR",
    "RIGHT_COLOR",
    "MAX_ANNOTATED",
    "new_axes",
    "draw_grid",
    "outline_cells",
    "mark_cell",
    "format_value",
    "shared_limits",
    "cell_text_color",
]

CMAP = "viridis"
PAD_COLOR = "#d9d9d9"        # padding cells: light grey, hatched
PAD_HATCH = "////"
OUTSIDE_COLOR = "#f4f4f4"    # past the padded input (ceil overhang)
WINDOW_COLOR = "#e4572e"     # the window of the current output position
WINNER_COLOR = "#ffd400"     # the winning tap of a max pool
HIGHLIGHT_COLOR = "#e4572e"  # the current output cell
DROPPED_COLOR = "#7f3c8d"    # a window that a rule drops (ceil_torch clip)
WRONG_COLOR = "#d62728"
RIGHT_COLOR = "#2ca02c"
MAX_ANNOTATED = 16
FONT_SIZE = 9


def new_axes(ax=None, figsize=(4, 4)):
    """Return ``ax``, or a new Axes on a new Figure (no pyplot state needed)."""
    if ax is not None:
        return ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig.add_subplot()


def format_value(v) -> str:
    """Short text for a cell: integers as integers, floats with up to 3 significant digits."""
    if v is None:
        return ""
    if isinstance(v, (np.floating, float)):
        if np.isnan(v):
            return "NaN"
        if np.isinf(v):
            return "-inf" if v < 0 else "inf"
        if abs(v) >= 1e6 or (v != 0 and abs(v) < 1e-3):
            return f"{float(v):.1e}"
        if float(v).is_integer():
            return str(int(v))
        return f"{float(v):.3g}"
    return str(int(v)) if isinstance(v, (np.integer, int)) else str(v)


def shared_limits(*arrays) -> tuple[float, float]:
    """``(vmin, vmax)`` over the finite values of all arrays, so that panels compare."""
    finite = [np.asarray(a, dtype=float) for a in arrays if a is not None and np.size(a)]
    finite = [a[np.isfinite(a)] for a in finite]
    finite = [a for a in finite if a.size]
    if not finite:
        return 0.0, 1.0
    lo = min(float(a.min()) for a in finite)
    hi = max(float(a.max()) for a in finite)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def cell_text_color(value, vmin, vmax, cmap=CMAP) -> str:
    """Black or white, whichever reads better on the colour of ``value``."""
    import matplotlib as mpl

    if value is None or not np.isfinite(value):
        return "black"
    cmap = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
    t = 0.5 if vmax == vmin else (float(value) - vmin) / (vmax - vmin)
    r, g, b, _ = cmap(min(max(t, 0.0), 1.0))
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return "black" if luminance > 0.5 else "white"


def draw_grid(ax, values, *, vmin=None, vmax=None, offset=(0, 0), annotate=None, cmap=CMAP,
              mask=None, mask_color=PAD_COLOR, mask_hatch=PAD_HATCH, mask_text=None):
    """Draw a 2-D array as a heatmap whose cell ``(i, j)`` sits at ``(i + offset[0], j + offset[1])``.

    Cells where ``mask`` is True are drawn as padding (grey, hatched) with
    ``mask_text`` written in them.  Returns the ``AxesImage``.
    """
    from matplotlib.patches import Rectangle

    values = np.asarray(values)
    if values.ndim == 1:
        values = values[None, :]
    rows, cols = values.shape
    data = values.astype(float)
    if vmin is None or vmax is None:
        lo, hi = shared_limits(data)
        vmin = lo if vmin is None else vmin
        vmax = hi if vmax is None else vmax
    shown = np.ma.masked_invalid(data)
    if mask is not None:
        shown = np.ma.array(shown, mask=np.ma.getmaskarray(shown) | np.asarray(mask, dtype=bool))
    r0, c0 = offset
    extent = (c0 - 0.5, c0 + cols - 0.5, r0 + rows - 0.5, r0 - 0.5)
    cm = __import__("matplotlib").colormaps[cmap].with_extremes(bad="#ffffff") if isinstance(cmap, str) else cmap
    image = ax.imshow(shown, cmap=cm, vmin=vmin, vmax=vmax, extent=extent, interpolation="nearest")
    if mask is not None:
        for i, j in zip(*np.nonzero(mask)):
            ax.add_patch(Rectangle((c0 + j - 0.5, r0 + i - 0.5), 1, 1, facecolor=mask_color,
                                   hatch=mask_hatch, edgecolor="#9a9a9a", linewidth=0.5,
                                   gid="padding"))
    if annotate is None:
        annotate = max(rows, cols) <= MAX_ANNOTATED
    if annotate:
        size = FONT_SIZE if max(rows, cols) <= 8 else FONT_SIZE - 2
        for i in range(rows):
            for j in range(cols):
                if mask is not None and mask[i, j]:
                    if mask_text:
                        ax.text(c0 + j, r0 + i, mask_text, ha="center", va="center",
                                fontsize=size - 1, color="#555555", gid="padding-text")
                    continue
                v = values[i, j]
                ax.text(c0 + j, r0 + i, format_value(v), ha="center", va="center", fontsize=size,
                        color=cell_text_color(data[i, j], vmin, vmax, cmap), gid="value")
    ax.set_xticks(range(c0, c0 + cols))
    ax.set_yticks(range(r0, r0 + rows))
    ax.tick_params(length=0, labelsize=FONT_SIZE - 1)
    ax.set_xlim(c0 - 0.5, c0 + cols - 0.5)
    ax.set_ylim(r0 + rows - 0.5, r0 - 0.5)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return image


def outline_cells(ax, cells, *, color=WINDOW_COLOR, linewidth=2.5, linestyle="-", gid="window",
                  fill_alpha=0.0, label=None):
    """Draw one square outline per ``(row, col)`` in ``cells`` (dilated taps stay separate)."""
    from matplotlib.patches import Rectangle

    patches = []
    for k, (i, j) in enumerate(cells):
        patch = Rectangle((j - 0.5, i - 0.5), 1, 1, fill=fill_alpha > 0, facecolor=color,
                          alpha=None if fill_alpha == 0 else fill_alpha, edgecolor=color,
                          linewidth=linewidth, linestyle=linestyle, gid=gid,
                          label=label if k == 0 else None)
        if fill_alpha:
            patch.set_edgecolor(color)
        ax.add_patch(patch)
        patches.append(patch)
    return patches


def mark_cell(ax, cell, *, color=WINNER_COLOR, gid="winner", label=None):
    """Mark one cell strongly (the winner of a max pool, the current output cell)."""
    from matplotlib.patches import Rectangle

    i, j = cell
    patch = Rectangle((j - 0.42, i - 0.42), 0.84, 0.84, fill=False, edgecolor=color, linewidth=3.5,
                      gid=gid, label=label, zorder=5)
    ax.add_patch(patch)
    return patch
