"""Static heatmaps of a pooling: the padded input, one window, its winner and the output.

Everything here is drawn from a :class:`~pooltutor.pooling.PoolResult` (or
its :class:`~pooltutor.geometry.PoolGeometry`): the plots never recompute an
output size or a window position themselves.

* :func:`plot_pooling` -- the two-panel picture: input heatmap (padding
  hatched grey and labelled with the padding rule in force, taps past the
  padded input drawn dashed), the window of one output position (dilated
  taps as separate cells), the winning tap of a max pool, the output heatmap
  with that cell highlighted; shared colour limits; values written in the
  cells of small grids.  1-D inputs are drawn as one row (input above
  output); 3-D inputs show one depth slice and say so.
* :func:`plot_pool` -- the same from ``x`` and engine parameters.
* building blocks for other plots: :func:`plot_input`, :func:`plot_output`,
  :func:`plot_window`, :func:`plot_dropped`, :func:`pad_rule_text`.
* :func:`update_pooling_plot` -- move the window of an existing plot to
  another output position in place (what the explorers use).

Every function works under the Agg backend, uses no pyplot state and
returns what it drew.

>>> import numpy as np
>>> from pooltutor.pooling import max_pool
>>> r = max_pool(np.arange(16.0).reshape(1, 1, 4, 4), 2, 2, padding=1,
...              rounding="ceil_torch", return_indices=True)
>>> p = plot_pooling(r, (1, 2))
>>> print(p.input_ax.get_title())
input 4×4
padding (hatched): pad_taps='skip'
>>> print(p.output_ax.get_title())
output 3×3
y[1, 2] = 11
>>> [w.get_gid() for w in p.window], p.winner.get_gid(), p.winner_cell
(['window', 'window', 'window', 'window'], 'winner', (2, 3))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_int
from ..geometry import AdaptiveGeometry, PoolGeometry
from . import style
from .described import DescribedFigure

__all__ = [
    "PoolingPlot",
    "plot_pooling",
    "plot_pool",
    "update_pooling_plot",
    "plot_input",
    "plot_output",
    "plot_window",
    "plot_dropped",
    "pad_rule_text",
    "format_params",
    "axis_extent",
    "cell_font_sizes",
]

#: What a padding cell is labelled with, per ``pad_taps`` rule of a max pool.
PAD_RULE_TEXT = {"skip": "skip", "neg_inf": "-inf", "lowest": "lowest"}

def _stroke(width: float, color: str = "#1a1a1a"):
    from matplotlib import patheffects

    return [patheffects.Stroke(linewidth=width, foreground=color), patheffects.Normal()]


def _winner_effects():
    """A dark rim under the winner's yellow square, so it shows on the yellow end of viridis too."""
    return _stroke(6.0)

TITLE_SIZE = 13
PANEL_TITLE_SIZE = 11
LEGEND_SIZE = 10
TICK_SIZE = 9


# --------------------------------------------------------------------------- text helpers


def pad_rule_text(result) -> str | None:
    """The label written in padding cells: the padding rule in force.

    ``"skip"`` / ``"-inf"`` / ``"lowest"`` for a max pool (its ``pad_taps``),
    ``"0"`` for an average (padding adds 0; whether it counts in the divisor
    is said in the title), None when there is no padding rule (adaptive).

    >>> import numpy as np
    >>> from pooltutor.pooling import max_pool, avg_pool
    >>> x = np.arange(4.0).reshape(1, 1, 4)
    >>> pad_rule_text(max_pool(x, 2, padding=1, pad_taps="neg_inf")), pad_rule_text(avg_pool(x, 2))
    ('-inf', '0')
    """
    if result.op == "max":
        return PAD_RULE_TEXT[result.rules.get("pad_taps", "skip")]
    if result.op == "avg":
        return "0"
    return None


def _per_axis(values) -> str:
    values = tuple(values)
    if len(set(values)) == 1:
        return str(values[0])
    return "(" + ", ".join(str(v) for v in values) + ")"


def _pads_text(pads) -> str:
    pads = tuple(tuple(p) for p in pads)
    if all(b == e for b, e in pads):
        return "pad=" + _per_axis(b for b, _ in pads)
    if len(pads) == 1:
        return f"pad=({pads[0][0]}, {pads[0][1]})"
    return "pad=(" + ", ".join(f"({b}, {e})" for b, e in pads) + ")"


def format_params(geometry, result=None) -> str:
    """The parameters of a pooling as a title: ``kernel=2, stride=2, pad=1, rounding='ceil_torch'``.

    Dilation is named only when it is not 1; asymmetric padding is written
    as ``(begin, end)`` pairs.

    >>> from pooltutor.geometry import pool_geometry
    >>> format_params(pool_geometry((5, 5), 2, 2, padding=1, rounding="ceil_torch"))
    "kernel=2, stride=2, pad=1, rounding='ceil_torch'"
    >>> format_params(pool_geometry((6,), 3, 2, padding=(3, 2), dilation=2))
    "kernel=3, stride=2, dilation=2, pad=(3, 2), rounding='floor'"
    """
    if isinstance(geometry, AdaptiveGeometry):
        return f"output_size={_per_axis(geometry.output_shape)}"
    parts = [f"kernel={_per_axis(geometry.kernel)}", f"stride={_per_axis(geometry.stride)}"]
    if any(d != 1 for d in geometry.dilation):
        parts.append(f"dilation={_per_axis(geometry.dilation)}")
    parts.append(_pads_text(geometry.pads))
    parts.append(f"rounding={geometry.rounding!r}")
    return ", ".join(parts)


def _op_name(result) -> str:
    return {"max": "max pool", "avg": "average pool", "adaptive_max": "adaptive max pool",
            "adaptive_avg": "adaptive average pool"}[result.op]


def _rule_text(result) -> str:
    if result.op == "max":
        return f"pad_taps={result.rules.get('pad_taps', 'skip')!r}"
    if result.op == "avg":
        d = result.rules.get("divisor", "valid")
        return {"valid": "divisor='valid' (padding not counted)",
                "padded": "divisor='padded' (padding counted)"}.get(d, f"divisor={d!r}")
    return ""


# --------------------------------------------------------------------------- geometry helpers


def _axis_pads(axis) -> tuple[int, int]:
    return (getattr(axis, "pad_begin", 0), getattr(axis, "pad_end", 0))


def axis_extent(axis, include_dropped: bool = True) -> tuple[int, int]:
    """``(lo, hi)``: the cells to draw along one axis, in input coordinates (``hi`` excluded).

    From the start of the begin padding to the end of the end padding, or
    further when a window (or the window a clip dropped) reaches past the
    padded input.

    >>> from pooltutor.geometry import pool_geometry
    >>> axis_extent(pool_geometry((5,), 2, 2, padding=1, rounding="ceil").axes[0])
    (-1, 7)
    >>> axis_extent(pool_geometry((5,), 2, 2, padding=1, rounding="ceil_torch").axes[0])
    (-1, 7)
    >>> axis_extent(pool_geometry((5,), 2, 2, padding=1, rounding="ceil_torch").axes[0], False)
    (-1, 6)
    """
    pb, pe = _axis_pads(axis)
    lo, hi = -pb, axis.input_size + pe
    if hasattr(axis, "window_starts"):
        starts = list(axis.window_starts)
        if include_dropped and getattr(axis, "dropped_start", None) is not None:
            starts.append(axis.dropped_start)
        if starts:
            hi = max(hi, max(starts) + axis.effective_kernel)
    return lo, hi


def _display_axes(geometry):
    """``(depth_axis, row_axis, col_axis)`` geometries; missing ones are None."""
    axes = geometry.axes
    if len(axes) == 1:
        return None, None, axes[0]
    if len(axes) == 2:
        return None, axes[0], axes[1]
    return axes[0], axes[1], axes[2]


class _UnitAxis:
    """A stand-in row axis of length 1 for 1-D pictures."""

    input_size = 1
    pad_begin = pad_end = 0


def _cell_kind(axis, t) -> str:
    if axis is None:
        return "input"
    if hasattr(axis, "tap_kind"):
        return axis.tap_kind(t)
    return "input" if 0 <= t < axis.input_size else "outside"


def _taps(axis, o):
    """Input coordinates of the taps of window ``o`` along one axis."""
    if hasattr(axis, "taps"):
        return axis.taps(o)
    start, stop = axis.bins[o]
    return tuple(range(start, stop))


# --------------------------------------------------------------------------- building blocks


#: kept here too: the font sizes of cell texts live in :mod:`pooltutor.viz.style`
cell_font_sizes = style.cell_font_sizes


def _tick_range(lo: int, hi: int) -> list[int]:
    """Every index of a small grid; every other one (the even ones) past 12 cells."""
    if hi - lo <= 12:
        return list(range(lo, hi))
    return [t for t in range(lo, hi) if t % 2 == 0]


def _index_labels(ax, rows, cols, *, size=TICK_SIZE):
    """Row and column indices around a grid (gid ``"tick"``), drawn as their own
    :class:`~pooltutor.viz.style.TextCollection` (whose extent a tight save and a layout
    see) and returned: rows left of the left edge, columns under the bottom edge.  The
    Axes draws nothing else (no spines, no axis machinery: cheap to redraw)."""
    labels = style.TextCollection()
    x_lo, _ = ax.get_xlim()
    y_bottom, _ = ax.get_ylim()
    for j in cols:
        labels.add(j, y_bottom, str(j).replace("-", "\u2212"), size, "#333333", gid="tick",
                   dy=-(0.5 * size + 4))
    for i in rows:
        labels.add(x_lo, i, str(i).replace("-", "\u2212"), size, "#333333", gid="tick",
                   ha="right-center", dx=-4)
    ax.set_axis_off()
    return labels.draw(ax, gid="index-labels")


def plot_input(ax, values, geometry, *, pad_text: str | None = None, vmin=None, vmax=None,
               annotate=None, include_dropped: bool = True, cell_inches: float | None = None,
               labels=None):
    """Draw one input plane over the padded extent of ``geometry``.

    Parameters
    ----------
    ax : matplotlib Axes
    values : array, 1-D or 2-D
        The input plane (for a 3-D pooling: one depth slice), shaped like the
        displayed axes of ``geometry`` (the last one or two).
    geometry : PoolGeometry or AdaptiveGeometry
    pad_text : str, optional
        Written in every padding cell (see :func:`pad_rule_text`).
    vmin, vmax : float, optional
        Colour limits (share them with the output panel).
    cell_inches : float, optional
        The size of a cell on the figure, for the font sizes (default 0.5).
    labels : TextCollection, optional
        Collects the cell texts (values, padding labels); by default they are
        drawn here as one collection.

    Returns
    -------
    matplotlib.image.AxesImage
        The heatmap (:func:`~pooltutor.viz.style.draw_grid`).  Padding cells are
        one hatched collection with gid ``"padding"``, cells past the padded
        input (ceil overhang) one with gid ``"outside"``, the border of the real
        input a ``Rectangle`` with gid ``"input-border"``; the cell texts (gids
        ``"value"``, ``"padding-text"``, and the row and column indices
        ``"tick"``) are read with :func:`~pooltutor.viz.style.texts_of`.

    >>> from pooltutor.geometry import pool_geometry
    >>> ax = style.new_axes()
    >>> g = pool_geometry((2, 2), 2, 2, padding=1)
    >>> im = plot_input(ax, np.arange(4.0).reshape(2, 2), g, pad_text="skip")
    >>> [len(style.cells_of(c)) for c in ax.collections if c.get_gid() == "padding"]
    [12]
    >>> [t.get_text() for t in style.texts_of(ax, "value")]
    ['0', '1', '2', '3']
    >>> [t.get_text() for t in style.texts_of(ax, "tick")][-4:]
    ['−1', '0', '1', '2']
    """
    from matplotlib.patches import Rectangle

    own = labels is None
    labels = style.TextCollection() if own else labels
    _, row_axis, col_axis = _display_axes(geometry)
    one_d = row_axis is None
    row_axis = row_axis or _UnitAxis()
    values = np.asarray(values)
    values2 = values.reshape(row_axis.input_size, col_axis.input_size)
    (rpb, rpe), (cpb, cpe) = _axis_pads(row_axis), _axis_pads(col_axis)
    rows = rpb + row_axis.input_size + rpe
    cols = cpb + col_axis.input_size + cpe
    full = np.zeros((rows, cols), dtype=values2.dtype)
    full[rpb:rpb + row_axis.input_size, cpb:cpb + col_axis.input_size] = values2
    mask = np.ones((rows, cols), dtype=bool)
    mask[rpb:rpb + row_axis.input_size, cpb:cpb + col_axis.input_size] = False
    if vmin is None or vmax is None:
        lo, hi = style.shared_limits(values2)
        vmin, vmax = (lo if vmin is None else vmin), (hi if vmax is None else vmax)
    image = style.draw_grid(ax, full, vmin=vmin, vmax=vmax, offset=(-rpb, -cpb),
                            mask=mask if mask.any() else None, mask_text=pad_text,
                            annotate=annotate, labels=labels,
                            cell_inches=0.5 if cell_inches is None else cell_inches,
                            ticks=False)
    # cells past the padded input (a ceil rule's overhang), never read
    r_lo, r_hi = (-rpb, row_axis.input_size + rpe) if one_d else \
        axis_extent(row_axis, include_dropped)
    c_lo, c_hi = axis_extent(col_axis, include_dropped)
    outside = [(i, j) for i in range(r_lo, r_hi) for j in range(c_lo, c_hi)
               if i >= row_axis.input_size + rpe or j >= col_axis.input_size + cpe]
    if outside:
        style.cell_squares(ax, outside, "outside", merged=True, facecolors=style.OUTSIDE_COLOR,
                           edgecolors="#b0b0b0", linewidths=0.8, linestyles=[(0, (3, 2))],
                           zorder=1.5)
    ax.add_patch(Rectangle((-0.5, -0.5), col_axis.input_size, row_axis.input_size, fill=False,
                           edgecolor="#333333", linewidth=1.4, gid="input-border", zorder=3))
    ax.set_xlim(c_lo - 0.5, c_hi - 0.5)
    ax.set_ylim(r_hi - 0.5, r_lo - 0.5)
    ax.set_aspect("equal")
    _index_labels(ax, [] if one_d else _tick_range(r_lo, r_hi),
                  _tick_range(c_lo, c_hi))
    if own:
        labels.draw(ax)
    return image


def plot_output(ax, values, *, vmin=None, vmax=None, highlight=None, annotate=None,
                cell_inches: float | None = None, labels=None, computed=None, image=None):
    """Draw an output plane (1-D as one row); ``highlight`` (a cell) is outlined, gid ``"output"``.

    ``computed`` (optional): how many cells, in row-major order, are filled in;
    the others are drawn empty (white, thin grey edges, nothing written): the
    output as computed so far.  ``image``: the heatmap this function made on
    ``ax`` before, given the new values.  Returns the ``AxesImage``; texts as
    in :func:`plot_input`.

    >>> import numpy as np
    >>> ax = style.new_axes()
    >>> im = plot_output(ax, np.arange(4.0).reshape(2, 2), highlight=(1, 0), computed=3)
    >>> [p.get_gid() for p in ax.patches], [t.get_text() for t in style.texts_of(ax, "value")]
    (['output'], ['0', '1', '2'])
    """
    own = labels is None
    labels = style.TextCollection() if own else labels
    values = np.asarray(values)
    if vmin is None or vmax is None:
        lo, hi = style.shared_limits(values)
        vmin, vmax = (lo if vmin is None else vmin), (hi if vmax is None else vmax)
    rows, cols = (1, values.shape[0]) if values.ndim == 1 else values.shape[:2]
    blank = _blank_cells((rows, cols), computed)
    image = style.draw_grid(ax, values, vmin=vmin, vmax=vmax, annotate=annotate,
                            labels=labels, blank=blank, image=image,
                            cell_inches=0.5 if cell_inches is None else cell_inches,
                            ticks=False)
    if computed is not None and not _has_gid(ax, "output-cells"):
        style.cell_squares(ax, [(i, j) for i in range(rows) for j in range(cols)],
                           "output-cells", facecolors="none", edgecolors="#b8b8b8",
                           linewidths=0.6, zorder=1.2)
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    if highlight is not None:
        cell = tuple(highlight)
        if len(cell) == 1:
            cell = (0, cell[0])
        style.outline_cells(ax, [cell], color=style.HIGHLIGHT_COLOR, linewidth=3.5, gid="output")
    ax.set_aspect("equal")
    _index_labels(ax, [] if values.ndim == 1 else _tick_range(0, rows),
                  _tick_range(0, cols))
    if own:
        labels.draw(ax)
    return image


def _has_gid(ax, gid) -> bool:
    return any(c.get_gid() == gid for c in ax.collections)


def _blank_cells(shape, computed):
    """The cells not computed yet (row-major after the first ``computed``), or None."""
    if computed is None:
        return None
    flat = np.arange(int(np.prod(shape))) >= computed
    return flat.reshape(shape)


def _window_cells(geometry, out_index, depth=None):
    """``[((row, col), linestyle), ...]`` of the taps of one window in the displayed plane."""
    depth_axis, row_axis, col_axis = _display_axes(geometry)
    out_index = tuple(out_index)
    geometry.window(out_index)                      # validates out_index (raises PoolTutorError)
    rows = _taps(row_axis, out_index[-2]) if row_axis is not None else (0,)
    cols = _taps(col_axis, out_index[-1])
    in_slice = True
    if depth_axis is not None:
        in_slice = depth is None or depth in _taps(depth_axis, out_index[0])
    cells = []
    for i, j in itertools.product(rows, cols):
        outside = "outside" in (_cell_kind(row_axis, i), _cell_kind(col_axis, j))
        cells.append(((i, j), "--" if outside else ("-" if in_slice else ":")))
    return cells


def plot_window(ax, geometry, out_index, *, depth: int | None = None, color=style.WINDOW_COLOR,
                gid: str = "window", linewidth: float = 3.0):
    """Outline the taps of the window of ``out_index``: one square per tap (dilated taps apart).

    Taps past the padded input are dashed.  For a 3-D geometry the window
    is drawn on the depth slice ``depth`` (dotted when the window does not
    reach that slice).  Returns the list of patches (gid ``gid``).

    >>> from pooltutor.geometry import pool_geometry
    >>> ax = style.new_axes()
    >>> g = pool_geometry((5,), 2, 2, rounding="ceil")        # raw ceil: the last window overhangs
    >>> patches = plot_window(ax, g, (2,))
    >>> [(p.get_x() + 0.5, p.get_linestyle()) for p in patches]
    [(4.0, '-'), (5.0, '--')]
    """
    patches = []
    for cell, ls in _window_cells(geometry, out_index, depth):
        patches += style.outline_cells(ax, [cell], color=color, linewidth=linewidth, autolim=False,
                                       linestyle=ls, gid=gid)
    for p in patches:
        p.set_zorder(4)
    return patches


def plot_dropped(ax, geometry, out_index, *, label: bool = True):
    """Draw the windows that the clip of a ceil rule dropped next to ``out_index``.

    For every axis whose last window was dropped (``AxisGeometry.clipped``)
    and on which ``out_index`` is the last position, the dropped window
    (same position on the other axes) is drawn dashed in
    :data:`~pooltutor.viz.style.DROPPED_COLOR` (gid ``"dropped"``), with the
    label "dropped: starts in end padding" (gid ``"dropped-label"``).
    Returns the list of artists.
    """
    if not isinstance(geometry, PoolGeometry):
        return []
    depth_axis, row_axis, col_axis = _display_axes(geometry)
    out_index = tuple(out_index)
    shown = [a for a in (row_axis, col_axis) if a is not None]
    first_shown = geometry.ndim - len(shown)
    artists = []
    for k, a in enumerate(shown):
        axis_no = first_shown + k
        if not a.clipped or out_index[axis_no] != a.output_size - 1:
            continue
        start = a.dropped_start
        taps_here = tuple(start + j * a.dilation for j in range(a.kernel))
        if a is col_axis:
            rows = _taps(row_axis, out_index[-2]) if row_axis is not None else (0,)
            cells = list(itertools.product(rows, taps_here))
        else:
            cells = list(itertools.product(taps_here, _taps(col_axis, out_index[-1])))
        patches = style.outline_cells(ax, cells, color=style.DROPPED_COLOR, linewidth=2.2,
                                      autolim=False,
                                      linestyle=(0, (4, 2)), gid="dropped")
        artists += patches
        if label and not any(a.get_gid() == "dropped-label" for a in artists):
            artists.append(_dropped_label(ax, cells, at_right=a is col_axis))
    return artists


def _dropped_label(ax, cells, at_right: bool):
    """"dropped: starts in end padding" under the panel, next to the dropped window."""
    lo, hi = ax.get_xlim()
    j_min = min(c[1] for c in cells) - 0.5
    j_max = max(c[1] for c in cells) + 0.5
    if at_right:
        x, ha = j_max, "right"
    else:
        centre = (j_min + j_max) / 2
        frac = (centre - lo) / (hi - lo) if hi != lo else 0.5
        x, ha = (j_min, "left") if frac < 0.3 else (j_max, "right") if frac > 0.7 else (centre,
                                                                                          "center")
    return ax.annotate("dropped: starts in end padding", xy=(x, 0),
                       xycoords=("data", "axes fraction"),
                       xytext=(0, -TICKS * 72 - 1), textcoords="offset points", ha=ha, va="top",
                       fontsize=10, color=style.DROPPED_COLOR, fontweight="bold",
                       gid="dropped-label", annotation_clip=False)


# --------------------------------------------------------------------------- the two-panel plot


@dataclass(frozen=True, eq=False)
class PoolingPlot(DescribedFigure):
    """What :func:`plot_pooling` drew (a scikit-learn style Display: the artists and the
    numbers shown).

    Attributes
    ----------
    figure, input_ax, output_ax
        The figure and its two panels.
    input_image, output_image : AxesImage
        The heatmaps (same ``get_clim()``).
    window : tuple of Rectangle
        One outline per tap of the current window (gid ``"window"``).
    winner : Rectangle or None
        The winning tap of a max pool (gid ``"winner"``).
    winner_cell : tuple or None
        ``(row, col)`` of the winner in input coordinates (``(0, t)`` for 1-D).
    output_cell : Rectangle
        The highlighted output cell (gid ``"output"``).
    dropped : tuple
        Patches and label of a window dropped by the ceil clip (may be empty).
    padding : collection or None
        The padding cells, one hatched collection (gid ``"padding"``).
    out_index, n, c, depth
        What is shown (``depth``: the input slice of a 3-D pooling, else None).
    result : PoolResult
    cell_inches : float
        The size of a cell on the figure.
    input_panel : tuple
        The artists of the input panel that do not move with the output position.
    output_labels : collection or None
        The texts written in the output cells (:func:`~pooltutor.viz.style.texts_of`).
    progress : bool
        The output is drawn as computed so far: the cells up to ``out_index``
        (row-major) filled in, the others empty.
    annotate : bool or None
        The ``annotate`` option it was drawn with.
    title, legend
        The figure title (``Text``, gid ``"title"``) and the legend (or None).
    input_values, output_values : ndarray
        The numbers shown: the input plane (slice) and the output plane (cells
        not computed yet, with ``progress``, are NaN here).
    """

    figure: Any
    input_ax: Any
    output_ax: Any
    input_image: Any
    output_image: Any
    window: tuple
    winner: Any
    winner_cell: tuple | None
    output_cell: Any
    dropped: tuple
    padding: Any
    out_index: tuple
    n: int
    c: int
    depth: int | None
    result: Any
    cell_inches: float = 0.5
    input_panel: tuple = ()
    output_labels: Any = None
    progress: bool = False
    title: Any = None
    legend: Any = None
    input_values: Any = None
    output_values: Any = None
    annotate: Any = None

    @property
    def overlays(self) -> tuple:
        """The artists that move with the output position."""
        return tuple(self.window) + ((self.winner,) if self.winner is not None else ()) + (
            (self.output_cell,) if self.output_cell is not None else ()) + tuple(self.dropped)

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        title = self.title.get_text() if self.title is not None else f"{self.result.op} pool"
        values = np.asarray(self.output_values)
        index = tuple(int(v) for v in self.out_index)[-values.ndim:]
        one_d = len(index) == 1                  # 1-D: cells and winners as plain numbers
        cell = index[0] if one_d else index
        value = style.format_value(values[index])
        done = (f"; the output is filled in up to this cell ({self.computed} of {values.size})"
                if self.progress else "")
        if self.winner_cell is not None:
            winner = self.winner_cell[-1] if one_d else self.winner_cell
            rule = f"its maximum comes from input {winner}"
        else:
            op = self.result.op.replace("avg", "average").replace("_", " ")
            rule = f"the {op} of its window"
        return (f"{title}. Input {'x'.join(map(str, np.shape(self.input_values)))}, output "
                f"{'x'.join(map(str, values.shape))}: output cell {cell} = {value}, {rule}"
                f"{done}; its window is outlined on the input.")

    @property
    def computed(self) -> int:
        """How many output cells (row-major) are filled in."""
        shape = self.result.geometry.output_shape
        if not self.progress:
            return int(np.prod(shape[-2:] if len(shape) == 3 else shape))
        return int(np.ravel_multi_index(self.out_index[-2:] if len(shape) == 3
                                        else self.out_index,
                                        shape[-2:] if len(shape) == 3 else shape)) + 1


def _check_result(result):
    from ..pooling import PoolResult

    if not isinstance(result, PoolResult):
        raise PoolTutorTypeError(
            f"result={type(result).__name__}: need a PoolResult from pooltutor.max_pool, avg_pool, "
            f"adaptive_max_pool or adaptive_avg_pool (or call plot_pool(x, kernel, ...))"
        )
    if result.input is None:
        raise PoolTutorError("result was made without its input: nothing to draw")
    return result


def _check_out_index(result, out_index):
    geometry = result.geometry
    if out_index is None:
        return (0,) * geometry.ndim
    if isinstance(out_index, (int, np.integer)) and not isinstance(out_index, bool):
        out_index = (out_index,)
    if not isinstance(out_index, (tuple, list)):
        raise PoolTutorTypeError(
            f"out_index={out_index!r}: need a tuple of {geometry.ndim} ints (one per spatial axis)"
        )
    out_index = tuple(out_index)
    geometry.window(out_index)     # PoolTutorError naming out_index when outside the output
    return tuple(int(o) for o in out_index)


def _check_plane(result, n, c):
    shape = result.input.shape
    n = check_int("n", n, minimum=0)
    c = check_int("c", c, minimum=0)
    if n >= shape[0] or c >= shape[1]:
        raise PoolTutorError(f"(n, c)=({n}, {c}) is outside the input shaped {shape}: need "
                             f"n < {shape[0]} and c < {shape[1]}")
    return n, c


def _default_depth(result, n, c, out_index):
    depth_axis = result.geometry.axes[0]
    taps = [t for t in _taps(depth_axis, out_index[0]) if 0 <= t < depth_axis.input_size]
    winner = _winner(result, n, c, out_index)
    if winner is not None and 0 <= winner[0] < depth_axis.input_size:
        return winner[0]
    return taps[0] if taps else 0


def _winner(result, n, c, out_index):
    """Input coordinates of the winning tap of a max pool (None: average, or an empty window)."""
    if result.op not in ("max", "adaptive_max"):
        return None
    from ..reference import fill_value, max_window

    per_axis = result.geometry.window(out_index)
    combos = list(itertools.product(*(zip(t, k, strict=True) for t, k in per_axis)))
    taps = []
    for combo in combos:
        kinds = [k for _, k in combo]
        kind = "outside" if "outside" in kinds else "padding" if "padding" in kinds else "input"
        coords = tuple(p for p, _ in combo)
        taps.append((result.input[(n, c) + coords] if kind == "input" else None, kind))
    pad_taps = result.rules.get("pad_taps", "skip")
    fill = fill_value(result.input.dtype, "lowest" if pad_taps == "lowest" else "neg_inf")
    best, at = max_window(taps, pad_taps=pad_taps, nan_policy=result.rules.get("nan_policy",
                          "propagate_last"), ties=result.rules.get("ties", "first"), pad_fill=fill)
    if at is None:
        return None
    return tuple(p for p, _ in combos[at])


TOP = 0.5            # inches above the panels for the figure title
TITLE_GAP = 0.62     # two-line panel title
TICKS = 0.3          # tick labels under a panel
NOTE = 0.22          # a note line under the input panel ("dropped: ...")
SIDE = 0.45          # left margin (row tick labels)
GAP_2D = 0.75        # between the two panels of a 2-D picture


def _legend_rows(width: float, labels) -> tuple[int, int]:
    """``(ncol, rows)`` of a legend of ``labels`` that fits ``width`` inches."""
    entry = max(0.6 + 0.075 * len(t) for t in labels) if labels else 1.0
    ncol = max(1, min(len(labels), int((width - 0.3) // entry)))
    return ncol, -(-len(labels) // ncol)


def _block_size(in_shape, out_shape, one_d: bool, cell: float, note: bool = True
                ) -> tuple[float, float]:
    """Width and height (inches) of the two panels with their titles, ticks and note line."""
    note_h = NOTE if note else 0.0
    in_r, in_c = in_shape
    out_r, out_c = out_shape
    if one_d:
        width = max(in_c, out_c) * cell
        height = 2 * (TITLE_GAP + TICKS) + note_h + (in_r + out_r) * cell + 0.1
    else:
        width = (in_c + out_c) * cell + GAP_2D
        height = TITLE_GAP + TICKS + note_h + max(in_r, out_r) * cell
    return width + SIDE + 0.25, height


def _panel_rects(fig, in_shape, out_shape, one_d: bool, legend_rows: int, note: bool = True,
                 stable: bool = False):
    """``(rects, cell)``: the figure-fraction boxes of the two panels, with equal cell sizes
    (manual layout: fast and stable).

    ``stable`` (2-D): when the figure is wide enough, the input panel is placed as if the
    output were as wide as the input, and the output is centred in that room: an explorer's
    input panel then stays where it is whatever the output shape (only the output moves
    when a parameter changes it)."""
    w, h = fig.get_size_inches()
    in_r, in_c = in_shape
    out_r, out_c = out_shape
    bottom = 0.12 + 0.3 * legend_rows
    fixed_w, fixed_h = _block_size(in_shape, out_shape, one_d, 0.0, note)
    if one_d:
        cell = min((w - fixed_w) / max(in_c, out_c), (h - TOP - bottom - fixed_h) / (in_r + out_r))
    else:
        cell = min((w - fixed_w) / (in_c + out_c), (h - TOP - bottom - fixed_h) / max(in_r, out_r))
    cell = max(0.05, min(cell, 0.9))
    bw, bh = _block_size(in_shape, out_shape, one_d, cell, note)
    x0 = (w - bw) / 2 + SIDE
    reserved = stable and not one_d and out_c < in_c
    if reserved:        # where the input panel would be next to an output as wide as it
        reserved_w, _ = _block_size(in_shape, (out_r, in_c), one_d, cell, note)
        x0 = min(max((w - reserved_w) / 2 + SIDE, SIDE), x0)
    y_top = h - TOP - max(0.0, (h - TOP - bottom - bh) / 2) - TITLE_GAP
    if one_d:
        in_w, out_w = in_c * cell, out_c * cell
        span = max(in_w, out_w)
        y_in = y_top - in_r * cell
        y_out = y_in - TICKS - (NOTE if note else 0.0) - TITLE_GAP - out_r * cell
        boxes = [(x0 + (span - in_w) / 2, y_in, in_w, in_r * cell),
                 (x0 + (span - out_w) / 2, y_out, out_w, out_r * cell)]
    else:
        in_w, out_w = in_c * cell, out_c * cell
        x_out = x0 + in_w + GAP_2D
        if reserved:    # centred in the room right of the input (at most the input's width)
            x_out += max(0.0, (min(in_w, w - 0.25 - x_out) - out_w) / 2)
        boxes = [(x0, y_top - in_r * cell, in_w, in_r * cell),
                 (x_out, y_top - out_r * cell, out_w, out_r * cell)]
    return [(x / w, y / h, bx / w, by / h) for x, y, bx, by in boxes], cell


def _auto_figsize(in_shape, out_shape, one_d: bool, n_legend: int = 5, note: bool = True):
    """A figure size giving cells of about 0.6 inch (less for big grids), at most ~11 in wide."""
    in_r, in_c = in_shape
    out_r, out_c = out_shape
    if one_d:
        cell = min(0.75, 9.5 / max(in_c, out_c, 1))
    else:
        cell = min(0.62, 9.0 / (in_c + out_c), 6.5 / max(in_r, out_r))
    bw, bh = _block_size(in_shape, out_shape, one_d, cell, note)
    width = max(bw, 6.4)
    _, rows = _legend_rows(width, ["x" * 22] * n_legend)
    return width, bh + TOP + 0.12 + 0.3 * rows + 0.05


def _legend_entries(result, has_dropped: bool, has_outside: bool, has_padding: bool) -> list:
    """``[(label, Patch properties), ...]`` of the legend (the Patches are made only when the
    entries change: a persistent figure keeps its legend)."""
    same = style.WINDOW_COLOR == style.HIGHLIGHT_COLOR
    entries = [("window → its output cell" if same else "window (taps)",
                dict(facecolor="none", edgecolor=style.WINDOW_COLOR, linewidth=2.5))]
    if not same:
        entries.append(("output cell", dict(facecolor="none", edgecolor=style.HIGHLIGHT_COLOR,
                                            linewidth=3)))
    someone_won = result.indices is None or bool(np.any(np.asarray(result.indices) != -1))
    if result.op in ("max", "adaptive_max") and someone_won:
        entries.append(("winner (max)", dict(facecolor="none", edgecolor=style.WINNER_COLOR,
                                             linewidth=3, path_effects=_winner_effects())))
    if has_padding:
        entries.append((f"padding ({pad_rule_text(result)})",
                        dict(facecolor=style.PAD_COLOR, hatch=style.PAD_HATCH,
                             edgecolor="#9a9a9a")))
    if has_outside:
        entries.append(("past the padded input", dict(facecolor=style.OUTSIDE_COLOR,
                                                      edgecolor="#b0b0b0", linestyle="--")))
    if has_dropped:
        entries.append(("dropped window", dict(facecolor="none", edgecolor=style.DROPPED_COLOR,
                                               linestyle="--", linewidth=2)))
    return entries


def _output_plane(result, n, c, out_index):
    plane = result.output[n, c]
    return plane[out_index[0]] if result.geometry.ndim == 3 else plane


def _draw_overlays(plot: PoolingPlot, out_index) -> PoolingPlot:
    """Draw the window, winner, output cell, dropped window and output title of
    ``out_index`` (removing those of ``plot``); with ``plot.progress`` the output cells
    computed so far too."""
    result = plot.result
    geometry = result.geometry
    n, c, depth = plot.n, plot.c, plot.depth
    for artist in plot.overlays:
        if artist.axes is not None:
            artist.remove()
    window = plot_window(plot.input_ax, geometry, out_index, depth=depth)
    winner_cell = _winner(result, n, c, out_index)
    winner = shown = None
    if winner_cell is not None:
        shown = winner_cell[-2:] if geometry.ndim >= 2 else (0, winner_cell[-1])
        if geometry.ndim != 3 or winner_cell[0] == depth:
            winner = style.mark_cell(plot.input_ax, shown, autolim=False)
            winner.set_path_effects(_winner_effects())
    out_cell = out_index[-2:] if geometry.ndim >= 2 else (0, out_index[-1])
    output_cell = style.outline_cells(plot.output_ax, [out_cell], autolim=False,
                                      color=style.HIGHLIGHT_COLOR, linewidth=3.5,
                                      gid="output")[0]
    output_cell.set_zorder(5)
    dropped = plot_dropped(plot.input_ax, geometry, out_index)
    out_plane = _output_plane(result, n, c, out_index)
    output_labels, output_values = plot.output_labels, plot.output_values
    if plot.progress:
        if output_labels is not None and output_labels.axes is not None:
            output_labels.remove()
        labels = style.TextCollection()
        computed = replace(plot, out_index=tuple(out_index)).computed
        vmin, vmax = plot.output_image.get_clim()
        style.draw_grid(plot.output_ax, out_plane, vmin=vmin, vmax=vmax, labels=labels,
                        cell_inches=plot.cell_inches, image=plot.output_image,
                        annotate=plot.annotate, ticks=False,
                        blank=_blank_cells(np.shape(np.atleast_2d(out_plane)), computed))
        output_labels = labels.draw(plot.output_ax) if len(labels) else None
        output_values = np.where(_blank_cells(np.shape(np.atleast_2d(out_plane)), computed)
                                 .reshape(np.shape(out_plane)), np.nan, out_plane)
    value = result.output[(n, c) + tuple(out_index)]
    note = ""
    if result.op in ("max", "adaptive_max") and winner_cell is None:
        note = " (empty window)"
    elif winner_cell is not None and winner is None:
        note = f" (winner in slice d={winner_cell[0]})"
    idx = ", ".join(map(str, out_index))
    out_shape = "×".join(map(str, geometry.output_shape[-2:]))
    if geometry.ndim == 3:
        out_shape = f"slice {out_index[0]} of {geometry.output_shape[0]} ({out_shape})"
    text = f"output {out_shape}\ny[{idx}] = {style.format_value(value)}{note}"
    fig = plot.output_ax.get_figure()
    width = fig.get_size_inches()[0] * max(plot.output_ax.get_position().width, 0.25)
    plot.output_ax.set_title(text, y=1.0, fontsize=_fit_size(
        PANEL_TITLE_SIZE, max(map(len, text.split("\n"))), width))
    return replace(plot, window=tuple(window), winner=winner, winner_cell=shown,
                   output_cell=output_cell, dropped=tuple(dropped), out_index=tuple(out_index),
                   output_labels=output_labels, output_values=output_values)


def _check_drawing_options(fig, ax, title, annotate, legend, progress) -> None:
    """Refuse, naming them, options the drawing would otherwise trip over (or ignore)."""
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    if fig is not None and not isinstance(fig, Figure):
        raise PoolTutorTypeError(f"fig={fig!r} has type {type(fig).__name__}: need a "
                                 f"matplotlib Figure or None")
    if ax is not None:
        if isinstance(ax, np.ndarray):                  # what fig.subplots(1, 2) returns
            ax = list(ax.ravel())
        if fig is not None:
            raise PoolTutorError("fig and ax were both given: pass one of them (ax: the "
                                 "(input Axes, output Axes) to draw into)")
        if (not isinstance(ax, (list, tuple)) or len(ax) != 2
                or not all(isinstance(a, Axes) for a in ax)):
            raise PoolTutorTypeError(f"ax={ax!r} is not allowed: need a sequence of two "
                                     f"matplotlib Axes (input Axes, output Axes) or None")
        if ax[0] is ax[1]:
            raise PoolTutorError("ax=(a, a) is not allowed: the input and the output need "
                                 "two different Axes")
    if title is not None and not isinstance(title, str):
        raise PoolTutorTypeError(f"title={title!r} has type {type(title).__name__}: need a str "
                                 f"or None")
    for name, value, allowed in (("annotate", annotate, "True, False or None"),
                                 ("legend", legend, "True or False"),
                                 ("progress", progress, "True or False")):
        if not (isinstance(value, (bool, np.bool_)) or (value is None and name == "annotate")):
            raise PoolTutorTypeError(f"{name}={value!r} has type {type(value).__name__}: need "
                                     f"{allowed}")


def plot_pooling(result, out_index=None, *, n: int = 0, c: int = 0, depth: int | None = None,
                 fig=None, ax=None, title: str | None = None, annotate=None,
                 legend: bool = True, progress: bool = False) -> PoolingPlot:
    """Draw a pooling: padded input with one window and its winner, and the output.

    Parameters
    ----------
    result : PoolResult
        From :func:`pooltutor.max_pool`, :func:`~pooltutor.avg_pool` (or the
        adaptive ones).  For a max pool the winner is the tap that
        :func:`pooltutor.reference.max_window` picks under ``result.rules``,
        the same one ``result.explain()`` names.
    out_index : tuple of int, optional
        The output position whose window is drawn (default: the first).
    n, c : int
        Which ``(n, c)`` plane to draw.
    depth : int, optional
        3-D only: the input depth slice to show (default: the slice of the
        winner, else the first depth the window reads).  The panel title says
        which slice is shown.
    fig : matplotlib Figure, optional
        Drawn into (cleared first); a new one sized to the grids otherwise.
    ax : (Axes, Axes), optional
        Instead of ``fig``: the input and the output panel to draw into (in
        this order); the figure title then heads the input panel's title and
        the legend sits right of the output panel.
    title : str, optional
        Replaces the automatic title (operation and parameters).
    annotate : bool, optional
        Write values in cells (default: grids of at most 16 cells per side).
    legend : bool
        A legend under the panels (never over the data).
    progress : bool
        Draw the output as computed so far: the cells up to ``out_index``
        (row-major) filled in, the later ones empty (what the stepper shows).

    Returns
    -------
    PoolingPlot

    Examples
    --------
    >>> import numpy as np
    >>> from pooltutor.pooling import max_pool
    >>> r = max_pool(np.arange(5.0).reshape(1, 1, 5), 2, 2, padding=1, rounding="ceil_torch",
    ...              return_indices=True)
    >>> p = plot_pooling(r, (2,))
    >>> p.title.get_text()
    "max pool: kernel=2, stride=2, pad=1, rounding='ceil_torch'"
    >>> p.winner_cell, [t.get_text() for t in p.dropped if hasattr(t, "get_text")]
    ((0, 4), ['dropped: starts in end padding'])
    >>> p.input_image.get_clim() == p.output_image.get_clim()
    True
    >>> p = plot_pooling(r, (1,), progress=True)
    >>> [t.get_text() for t in style.texts_of(p.output_ax, "value")], p.computed
    (['0', '2'], 2)
    """
    result = _check_result(result)
    out_index = _check_out_index(result, out_index)
    n, c = _check_plane(result, n, c)
    _check_drawing_options(fig, ax, title, annotate, legend, progress)
    if isinstance(ax, np.ndarray):
        ax = list(ax.ravel())
    geometry = result.geometry
    if geometry.ndim == 3:
        if depth is None:
            depth = _default_depth(result, n, c, out_index)
        depth = check_int("depth", depth, minimum=0)
        if depth >= geometry.input_shape[0]:
            raise PoolTutorError(f"depth={depth} is outside the input depth "
                                 f"{geometry.input_shape[0]}: need 0 <= depth < "
                                 f"{geometry.input_shape[0]}")
    elif depth is not None:
        raise PoolTutorError(f"depth={depth!r}: only a 3-D pooling has depth slices "
                             f"(this one has {geometry.ndim} spatial axes)")
    return _plot_pooling(result, out_index, n, c, depth, fig, title, annotate, legend,
                         ax=None if ax is None else tuple(ax), progress=bool(progress))


def _emptied_axes(previous, fig, rects):
    """The two Axes of ``previous`` (a :class:`PoolingPlot` drawn on ``fig``, still its only
    Axes) emptied and moved to ``rects``, and the figure title and legend removed; None
    when they cannot be reused.  (Making Axes costs more than drawing the picture.)"""
    if (previous is None or previous.figure is not fig
            or fig.axes != [previous.input_ax, previous.output_ax]):
        return None
    for ax, rect in zip((previous.input_ax, previous.output_ax), rects, strict=True):
        for artist in (*ax.images, *ax.collections, *ax.patches, *ax.texts, *ax.lines,
                       *ax.artists):
            artist.remove()
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        ax.set_title("")
        ax.set_position(rect)
    for artist in (*fig.texts, *fig.legends):
        artist.remove()
    return previous.input_ax, previous.output_ax


def _plot_pooling(result, out_index, n, c, depth, fig, title, annotate, legend, *,
                  ax=None, progress: bool = False, stable: bool = False,
                  previous=None) -> PoolingPlot:
    """:func:`plot_pooling` on checked arguments.  ``stable``: see :func:`_panel_rects`
    (an explorer's input panel stays where it is whatever the output shape);
    ``previous``: the :class:`PoolingPlot` last drawn on ``fig``, whose Axes are reused."""
    geometry = result.geometry
    one_d = geometry.ndim == 1
    plane = result.input[n, c]
    out_plane = _output_plane(result, n, c, out_index)
    if geometry.ndim == 3:
        plane = plane[depth]
    vmin, vmax = style.shared_limits(plane, out_plane)

    _, row_axis, col_axis = _display_axes(geometry)
    r_ext = axis_extent(row_axis) if row_axis is not None else (0, 1)
    c_ext = axis_extent(col_axis)
    in_shape = (r_ext[1] - r_ext[0], c_ext[1] - c_ext[0])
    out_shape = (1, out_plane.shape[-1]) if one_d else out_plane.shape
    shown_axes = [a for a in (row_axis, col_axis) if a is not None]
    has_padding = any(sum(_axis_pads(a)) > 0 for a in shown_axes)
    has_outside = any(axis_extent(a)[1] > a.input_size + _axis_pads(a)[1] for a in shown_axes)
    has_dropped = any(getattr(a, "clipped", False) for a in shown_axes)
    entries = _legend_entries(result, has_dropped, has_outside, has_padding) if legend else []
    head = title if title is not None else f"{_op_name(result)}: {format_params(geometry)}"
    if ax is not None:
        ax_in, ax_out = ax
        fig = ax_in.get_figure()
        bbox = ax_in.get_position()
        cell = max(0.05, min(bbox.width * fig.get_size_inches()[0] / in_shape[1],
                             bbox.height * fig.get_size_inches()[1] / in_shape[0], 0.9))
        width = fig.get_size_inches()[0] * bbox.width
        in_width = max(width, 2.0)
    else:
        if fig is None:
            from .explorer import new_figure

            fig = new_figure(_auto_figsize(in_shape, out_shape, one_d, len(entries),
                                           has_dropped), dpi=100)
        width = fig.get_size_inches()[0]
        ncol, legend_rows = _legend_rows(width, [label for label, _ in entries])
        rects, cell = _panel_rects(fig, in_shape, out_shape, one_d, legend_rows, has_dropped,
                                   stable)
        reused = _emptied_axes(previous, fig, rects)
        if reused is None:
            fig.clear()
            reused = tuple(fig.add_axes(rect) for rect in rects)
        ax_in, ax_out = reused
        in_width = max(rects[0][2] * width, 3.0)
    pad_text = pad_rule_text(result)

    shape_text = "×".join(map(str, geometry.input_shape[-2:] if geometry.ndim >= 2
                                else geometry.input_shape))
    line1 = f"input {shape_text}"
    if geometry.ndim == 3:
        reads = list(_taps(geometry.axes[0], out_index[0]))
        line1 = (f"input slice d={depth} of {geometry.input_shape[0]} ({shape_text}); "
                 f"window reads d={', '.join(map(str, reads))}")
    if result.input.shape[0] * result.input.shape[1] > 1:
        line1 += f", plane n={n}, c={c}"
    line2 = _rule_text(result)
    if has_padding and result.op == "max":
        line2 = "padding (hatched): " + line2
    lines = [line1] + ([line2] if line2 else [])
    if ax is not None:
        lines.insert(0, head)
    in_title = "\n".join(lines)
    in_labels = style.TextCollection()
    in_image = plot_input(ax_in, plane, geometry, pad_text=pad_text, vmin=vmin, vmax=vmax,
                          annotate=annotate, cell_inches=cell, labels=in_labels)
    in_labels.draw(ax_in)
    padding = next((a for a in ax_in.collections if a.get_gid() == "padding"), None)
    ax_in.set_title(in_title, y=1.0, fontsize=_fit_size(PANEL_TITLE_SIZE,
                                                        max(map(len, lines)), in_width))
    input_panel = (*ax_in.images, *ax_in.collections, *ax_in.patches)
    out_labels = style.TextCollection()
    computed = None
    if progress:
        computed = int(np.ravel_multi_index(out_index[-len(out_plane.shape):] if not one_d
                                            else out_index, out_plane.shape)) + 1
    out_image = plot_output(ax_out, out_plane, vmin=vmin, vmax=vmax, annotate=annotate,
                            cell_inches=cell, labels=out_labels, computed=computed)
    out_coll = out_labels.draw(ax_out) if len(out_labels) else None
    head_text = legend_artist = None
    if ax is None:
        head_text = fig.text(0.5, 1 - 0.12 / fig.get_size_inches()[1], head, ha="center",
                             va="top", fontsize=_fit_size(TITLE_SIZE, len(head), 0.95 * width),
                             fontweight="bold", gid="title")
    if entries:
        from matplotlib.patches import Patch

        handles = [Patch(label=label, **kw) for label, kw in entries]
        if ax is None:
            legend_artist = fig.legend(handles=handles, loc="lower center", ncol=ncol,
                                       fontsize=LEGEND_SIZE, frameon=False, handlelength=1.6,
                                       bbox_to_anchor=(0.5, 0.0), columnspacing=1.2)
        else:
            legend_artist = ax_out.legend(handles=handles, loc="upper left",
                                          bbox_to_anchor=(1.04, 1.0), fontsize=LEGEND_SIZE,
                                          frameon=False, handlelength=1.6)
    output_values = np.asarray(out_plane, dtype=float)
    plot = PoolingPlot(fig, ax_in, ax_out, in_image, out_image, (), None, None, None, (),
                       padding, out_index, n, c, depth, result, cell, input_panel,
                       output_labels=out_coll, progress=progress, title=head_text,
                       legend=legend_artist, input_values=np.asarray(plane),
                       output_values=output_values, annotate=annotate)
    return _draw_overlays(plot, out_index)


def _fit_size(size: float, n_chars: int, width_inches: float) -> float:
    """``size`` or smaller, so that ``n_chars`` characters fit in ``width_inches``."""
    return max(6.0, min(size, 72.0 * width_inches / (0.62 * max(n_chars, 1))))


def update_pooling_plot(plot: PoolingPlot, out_index) -> PoolingPlot:
    """Move the window of ``plot`` to ``out_index`` in place and return the updated record.

    Only the overlays (window, winner, output cell, dropped window, output
    title; with ``progress`` the output cells computed so far) are drawn
    again; the input panel stays.  A 3-D plot whose window moves to another
    depth slice is drawn again (the slice changes).

    >>> import numpy as np
    >>> p = plot_pool(np.arange(16.0).reshape(1, 1, 4, 4), 2, 2)
    >>> q = update_pooling_plot(p, (1, 1))
    >>> q.out_index, q.winner_cell, q.input_image is p.input_image
    ((1, 1), (3, 3), True)
    """
    if not isinstance(plot, PoolingPlot):
        raise PoolTutorTypeError(f"plot={type(plot).__name__}: need the PoolingPlot that "
                                 f"plot_pooling returned")
    out_index = _check_out_index(plot.result, out_index)
    if plot.result.geometry.ndim == 3:
        depth = _default_depth(plot.result, plot.n, plot.c, out_index)
        if depth != plot.depth:
            if plot.title is None:
                return plot_pooling(plot.result, out_index, n=plot.n, c=plot.c, depth=depth,
                                    ax=(plot.input_ax, plot.output_ax),
                                    legend=plot.legend is not None, progress=plot.progress)
            return plot_pooling(plot.result, out_index, n=plot.n, c=plot.c, depth=depth,
                                fig=plot.figure, title=plot.title.get_text(),
                                legend=plot.legend is not None, progress=plot.progress)
    return _draw_overlays(plot, out_index)


def plot_pool(x, kernel, stride=None, padding=0, dilation=1, *, op: str = "max",
              out_index=None, n: int = 0, c: int = 0, depth: int | None = None, fig=None,
              **rules) -> PoolingPlot:
    """Pool ``x`` with the engine and draw it: :func:`plot_pooling` from ``x`` and parameters.

    ``op`` is ``"max"`` (:func:`pooltutor.max_pool` with ``return_indices=True``)
    or ``"avg"`` (:func:`pooltutor.avg_pool`); ``rules`` are their keyword
    rules (``rounding``, ``pad_taps``, ``divisor``, ...).

    >>> import numpy as np
    >>> p = plot_pool(np.arange(24.0).reshape(1, 1, 4, 6), 3, 1, dilation=(1, 2),
    ...               out_index=(1, 0))
    >>> sorted({(round(w.get_y() + 0.5), round(w.get_x() + 0.5)) for w in p.window})[:4]
    [(1, 0), (1, 2), (1, 4), (2, 0)]
    """
    from ..errors import check_choice
    from ..pooling import avg_pool, max_pool

    check_choice("op", op, ("max", "avg"))
    if op == "max":
        result = max_pool(x, kernel, stride, padding, dilation, return_indices=True, **rules)
    else:
        result = avg_pool(x, kernel, stride, padding, dilation, **rules)
    return plot_pooling(result, out_index, n=n, c=c, depth=depth, fig=fig)

