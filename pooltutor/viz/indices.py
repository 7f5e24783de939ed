"""One max-pool winner, five index layouts: where the flat number comes from.

A max pool's winner sits at ``(n, c, *spatial)`` in the input, and every
framework flattens that position differently (``docs/api.md``, "Index layouts";
:mod:`pooltutor.indexing`).  :func:`plot_index_layouts` draws

* the input plane ``(n, c)`` of the chosen output cell, with its pooling
  window (padding hatched grey, labelled with the padding rule) and the
  winner;
* one panel per layout: the ``N x C`` planes side by side, every cell
  holding its running number in that layout, the flattening order drawn
  as arrows through the cell centres (row-major, column-major inside the
  plane, channel-interleaved for TensorFlow's NHWC), the winner marked;
* a table of the winner's number in every layout, with who uses it.

Every number comes from :mod:`pooltutor.indexing` (:func:`~pooltutor.indexing.layout_numbers`,
:func:`~pooltutor.indexing.winner_numbers`): this module never re-derives a layout formula.

>>> import numpy as np
>>> from pooltutor.viz.indices import plot_index_layouts
>>> x = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
...               [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)   # TV22
>>> p = plot_index_layouts(x, kernel=2, stride=1, out_index=(1, 1, 0, 1))
>>> p.position, dict(p.numbers)
((1, 1, 0, 1), {'plane': 1, 'tensor': 19, 'tensor_colmajor': 20, 'nhwc': 3, 'nhwc_batch': 15})
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_index_within
from ..indexing import INDEX_LAYOUTS, axis_steps, convert_indices, layout_numbers, winner_numbers
from ..pooling import PoolResult, max_pool
from . import style
from .described import DescribedFigure

__all__ = [
    "LAYOUT_USERS",
    "LAYOUT_COLORS",
    "IndexLayoutsPlot",
    "index_layouts_figsize",
    "move_index_layouts",
    "plot_index_layouts",
]

#: Who flattens indices this way (docs/api.md, "Index layouts").
LAYOUT_USERS = MappingProxyType({
    "plane": "PyTorch, OpenVINO axis=2 and AdaptiveMaxPool, Caffe",
    "tensor": "ONNX storage_order=0, DirectML, OpenVINO axis=0",
    "tensor_colmajor": "ONNX storage_order=1",
    "nhwc": "TensorFlow include_batch_in_index=False",
    "nhwc_batch": "TensorFlow include_batch_in_index=True",
})

#: The same, short enough for a panel title.
LAYOUT_USERS_SHORT = MappingProxyType({
    "plane": "PyTorch, OpenVINO axis=2, Caffe",
    "tensor": "ONNX so=0, DirectML, OpenVINO axis=0",
    "tensor_colmajor": "ONNX storage_order=1",
    "nhwc": "TensorFlow, batch not in index",
    "nhwc_batch": "TensorFlow include_batch_in_index",
})

#: One colour per layout, used for its arrows, its title and its row in the table: dark
#: enough for arrows on light cells (>= 3:1 on white) and told apart under protanopia,
#: deuteranopia and tritanopia (tests/viz/test_colour_blind_palette.py; matplotlib's
#: blue / purple and green / red are not).
LAYOUT_COLORS = MappingProxyType({
    "plane": "#0072b2",
    "tensor": "#009e73",
    "tensor_colmajor": "#332288",
    "nhwc": "#882255",
    "nhwc_batch": "#000000",
})

#: The largest tensor drawn (every element gets a cell in every panel).
MAX_ELEMENTS = 512

#: The smallest font (points) of any text: cell numbers stay legible.
MIN_FONT = 7.0

_PAD_TEXT = {"skip": "skip", "neg_inf": "-inf", "lowest": "lowest"}
_CELL_COLOR = "#f4f4f4"
#: Stacking in a layout panel: cells 0-1, arrows 3, numbers 4, then the moving marks.
_Z_FILL, _Z_WINDOW, _Z_NUMBER, _Z_MARK = 4.1, 4.3, 4.4, 5.0
#: Cells smaller than this (points) are "small": only the jumps of the order get arrows
#: (a step between neighbours would cross their digits), the winner outlined on its edge.
_SMALL_CELL_PT = 20.0


@dataclass(frozen=True, eq=False)
class IndexLayoutsPlot(DescribedFigure):
    """What :func:`plot_index_layouts` drew (scikit-learn Display style).

    Attributes
    ----------
    figure : matplotlib.figure.Figure (or SubFigure)
    input_ax : matplotlib.axes.Axes
        The plane ``(n, c)`` with the window and the winner.
    layout_axes : mapping of str to Axes
        One panel per layout.
    table_ax : matplotlib.axes.Axes or None
        The table of the winner's number per layout (None with ``table=False``).
    numbers : mapping of str to int
        The winner's flat number in every layout drawn (``-1``: no input element won).
    position : tuple of int or None
        ``(n, c, *spatial)`` of the winner in the input (None when no input element won).
    out_index : tuple of int
        ``(n, c, *out_spatial)`` of the output cell shown.
    result : PoolResult
        The max pooling that was drawn.
    cell_numbers : mapping of str to ndarray
        Every element's number per layout (what the cells of each panel hold).
    arrows : mapping of str to tuple
        The flattening steps drawn per layout: ``((x0, y0), (x1, y1), adjacent)`` cell
        centres (data coordinates of the panel), in drawing order.
    input_window : tuple of (row, col)
        The cells of the window outlined on the input panel (padding included).
    window_cells : tuple of (n, c, taps)
        The input elements of the window, outlined in every layout panel.
    padding_rule : str or None
        The padding rule shown (in the padding cells or the title), None without padding.
    marks : mapping of str to tuple of Artist
        The artists that move from one output cell to the next, per panel (``"input"``,
        then each layout): window, winner fill / number / mark.
    number_size : float
        Font size (points) of the numbers in the layout panels.
    """

    figure: Any
    input_ax: Any
    layout_axes: Any
    table_ax: Any
    numbers: Any
    position: tuple[int, ...] | None
    out_index: tuple[int, ...]
    result: PoolResult
    cell_numbers: Any = None
    arrows: Any = None
    input_window: tuple = ()
    window_cells: tuple = ()
    padding_rule: str | None = None
    marks: Any = None
    number_size: float = 0.0
    extent: tuple | None = None

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        shape = "x".join(map(str, self.result.input.shape))
        numbers = ", ".join(f"{lay} {num}" for lay, num in self.numbers.items())
        where = (f"the winner at (n, c, ...) = {self.position}" if self.position is not None
                 else "no input element (index -1)")
        return (f"Max-pool index layouts of an input shaped {shape}: output cell "
                f"{self.out_index} has {where}; its flat number in each layout: {numbers}. "
                f"One panel per layout numbers every input element in that layout's order.")

    @property
    def axes(self) -> tuple:
        """Every Axes drawn on, in the order ``ax=`` takes them: input, layouts, table."""
        return (self.input_ax, *self.layout_axes.values(),
                *(() if self.table_ax is None else (self.table_ax,)))

    def moving_artists(self) -> list:
        """What changes from one output cell to the next (:func:`move_index_layouts`): the
        marks of every panel, the titles, the table's texts, the suptitle.  An explorer
        draws only these on a kept background (blitting)."""
        found = []
        for name, ax in (("input", self.input_ax), *self.layout_axes.items()):
            found += list(self.marks[name])
            if name == "input":
                found.append(ax.title)
        if self.table_ax is not None:
            found += list(self.table_ax.tables)
        suptitle = _suptitle_text(self.figure)
        if suptitle is not None:
            found.append(suptitle)
        return found


def _suptitle_text(fig):
    """The figure's suptitle ``Text`` (the one of its texts with gid ``"suptitle"``)."""
    for text in fig.texts:
        if text.get_gid() == "suptitle":
            return text
    return None


# --------------------------------------------------------------------------- checks


def _check_out_index(out_index, out_shape) -> tuple[int, ...]:
    """``(n, c, *o)`` from a full index or, when ``N = C = 1``, from ``o`` alone."""
    if out_index is None:
        return (0,) * len(out_shape)
    if isinstance(out_index, (int, np.integer)) and not isinstance(out_index, bool):
        out_index = (out_index,)
    if not isinstance(out_index, (tuple, list)):
        raise PoolTutorTypeError(
            f"out_index={out_index!r} has type {type(out_index).__name__}: need a tuple "
            f"(n, c, *out_spatial) of ints"
        )
    spatial = len(out_shape) - 2
    index = tuple(out_index)
    if len(index) == spatial and out_shape[0] == 1 and out_shape[1] == 1:
        index = (0, 0) + index
    if len(index) != len(out_shape):
        raise PoolTutorError(
            f"out_index={tuple(out_index)!r} has {len(out_index)} entries: need (n, c, "
            f"*out_spatial) with {len(out_shape)} entries for the output shaped {out_shape}"
            + (f" (or the {spatial} spatial ones when N = C = 1)" if out_shape[:2] == (1, 1)
               else "")
        )
    return check_index_within("out_index", index, out_shape, given=out_index)


def _pool(x, kernel, stride, padding, dilation, rounding, pad_taps) -> PoolResult:
    if isinstance(x, PoolResult):
        if kernel is not None:
            raise PoolTutorError(
                f"kernel={kernel!r} was given with a PoolResult: pass either a PoolResult "
                f"(its geometry is used) or the input x with kernel"
            )
        if x.indices is None or x.input is None:
            raise PoolTutorError(
                f"the PoolResult ({x.op}) has no indices or no input: need a max pooling made "
                f"with return_indices=True"
            )
        return x
    if kernel is None:
        raise PoolTutorTypeError("kernel=None: need the kernel (an int or one per spatial axis) "
                                 "when x is an array")
    return max_pool(x, kernel, stride, padding, dilation, rounding=rounding, pad_taps=pad_taps,
                    return_indices=True)


def _check_axes(ax, count: int, fig):
    """``ax`` as a list of ``count`` Axes of one figure (``fig`` must then be None)."""
    from matplotlib.axes import Axes

    if fig is not None:
        raise PoolTutorTypeError("fig and ax were both given: pass one of them")
    axes = [ax] if isinstance(ax, Axes) else ax
    if isinstance(axes, np.ndarray):                    # what fig.subplots returns
        axes = list(axes.ravel())
    if (isinstance(axes, (str, bytes)) or not hasattr(axes, "__len__")
            or len(axes) != count or not all(isinstance(a, Axes) for a in axes)):
        raise PoolTutorTypeError(
            f"ax={ax!r}: need a sequence of {count} matplotlib Axes (input panel, one per "
            f"layout, then the table when table=True)")
    figures = {id(a.get_figure()) for a in axes}
    if len(figures) != 1:
        raise PoolTutorError(f"ax: the {count} Axes lie on {len(figures)} figures: need one")
    return list(axes)


# --------------------------------------------------------------------------- geometry


class _Canvas:
    """Where cell ``(n, c, *spatial)`` goes in a layout panel (rows down, integer cells).

    Planes sit on a grid, ``n`` down and ``c`` across, one empty column apart; above
    each row of planes an empty row holds the plane labels; 3-D planes show their depth
    slices stacked, one empty row apart.
    """

    def __init__(self, shape):
        self.shape = tuple(shape)
        spatial = self.shape[2:]
        self.spatial = spatial
        if len(spatial) == 1:
            self.depth, self.height, self.width = 1, 1, spatial[0]
        elif len(spatial) == 2:
            self.depth, (self.height, self.width) = 1, spatial
        else:
            self.depth, self.height, self.width = spatial
        self.plane_rows = self.depth * self.height + self.depth - 1
        self.row_step = self.plane_rows + 1
        self.col_step = self.width + 1

    @property
    def extent(self) -> tuple[int, int]:
        """Rows and columns of the panel's grid."""
        n, c = self.shape[:2]
        return n * self.row_step, c * self.col_step - 1

    def origin(self, n, c) -> tuple[int, int]:
        """Row and column of the first cell of plane ``(n, c)``."""
        return n * self.row_step + 1, c * self.col_step

    def rc(self, n, c, spatial) -> tuple[int, int]:
        """``(row, col)`` of a cell."""
        spatial = tuple(spatial)
        d, h, w = (0, 0, spatial[0]) if len(spatial) == 1 else (
            (0, *spatial) if len(spatial) == 2 else spatial)
        r0, c0 = self.origin(n, c)
        return r0 + d * (self.height + 1) + h, c0 + w

    def xy(self, n, c, spatial) -> tuple[float, float]:
        """``(x, y)`` data coordinates of a cell's centre."""
        r, col = self.rc(n, c, spatial)
        return float(col), float(r)


def _digits_pt(text_len: int, size: float) -> float:
    """Width (points) of ``text_len`` digits at ``size`` (DejaVu Sans digits: 0.636 em)."""
    return 0.64 * size * text_len


def _min_cell_in(digits: int) -> float:
    """The smallest layout cell (inches) whose numbers can be :data:`MIN_FONT` points."""
    return (_digits_pt(digits, MIN_FONT) / 0.86 + 1.0) / 72.0


def _layout(shape, n_layouts: int, table: bool):
    """Figure size, panel grid (rows, cols), and the planned layout cell (inches)."""
    rows, cols = _Canvas(shape).extent
    digits = len(str(max(int(np.prod(shape)) - 1, 0)))
    wide = cols > 10 and rows < 0.6 * cols
    ncols = min(2 if wide else 3, n_layouts + 1)
    cell_in = max(_min_cell_in(digits), min(0.5, (5.0 if wide else 3.2) / cols, 3.0 / rows))
    panel_w = max(3.2, cols * cell_in + 0.3)
    panel_h = rows * cell_in + 1.2             # two title lines above, the caption below
    nrows = -(-(n_layouts + 1) // ncols)
    table_h = (0.27 * (n_layouts + 1) + 0.2) if table else 0.0
    figsize = (max(ncols * panel_w + 0.4, 9.5), nrows * panel_h + table_h + 0.7)
    return (round(figsize[0], 2), round(figsize[1], 2)), (nrows, ncols), (panel_h, table_h)


def index_layouts_figsize(input_shape, n_layouts: int = len(INDEX_LAYOUTS),
                          table: bool = True) -> tuple[float, float]:
    """The figure size (inches) :func:`plot_index_layouts` picks for an input shape.

    >>> index_layouts_figsize((2, 2, 2, 3)), index_layouts_figsize((2, 2, 2, 3), table=False)
    ((10.9, 10.41), (10.9, 8.59))
    """
    figsize, _, _ = _layout(tuple(input_shape), n_layouts, table)
    return figsize


# --------------------------------------------------------------------------- layout panels


def _segments(numbers: np.ndarray):
    """Groups of cells numbered 0, 1, 2, ... on their own: the whole tensor, per n or per plane.

    Found from the numbers alone: the widest scope in which no number repeats.
    """
    n_count, c_count = numbers.shape[:2]
    flat = numbers.reshape(n_count, c_count, -1)
    if np.unique(flat).size == flat.size:
        return [[(n, c) for n in range(n_count) for c in range(c_count)]]
    if all(np.unique(flat[n]).size == flat[n].size for n in range(n_count)):
        return [[(n, c) for c in range(c_count)] for n in range(n_count)]
    return [[(n, c)] for n in range(n_count) for c in range(c_count)]


def _path_pairs(canvas, numbers):
    """``(start, stop)`` cell centres of every flattening step drawn, in order."""
    spatial = canvas.spatial
    pairs = []
    for planes in _segments(numbers):
        # a unit is a plane, or a depth slice of a 3-D plane
        cells = []
        for n, c in planes:
            for pos in np.ndindex(*spatial):
                unit = (n, c) + (pos[:1] if len(spatial) == 3 else ())
                cells.append((int(numbers[(n, c) + pos]), unit, canvas.xy(n, c, pos)))
        cells.sort()
        hops = sum(1 for a, b in zip(cells, cells[1:]) if a[1] != b[1])
        if len(cells) > 2 and hops > (len(cells) - 1) / 2:
            # interleaved (NHWC channels, or depth in column-major 3-D): the order hops
            # between units at every step.  Draw each unit's own order, and the hops of
            # the first position only; the numbers and the caption say the rest.
            first = [cells[0]]
            for cell in cells[1:]:
                if cell[1] in {f[1] for f in first}:
                    break
                first.append(cell)
            pairs += [(a[2], b[2]) for a, b in zip(first, first[1:])]
            for unit in dict.fromkeys(cell[1] for cell in cells):
                own = [cell for cell in cells if cell[1] == unit]
                pairs += [(a[2], b[2]) for a, b in zip(own, own[1:])]
        else:
            pairs += [(a[2], b[2]) for a, b in zip(cells, cells[1:])]
    return pairs


def _draw_path(ax, canvas, numbers, color, cell_pt: float):
    """The flattening order: an arrow from each number to the next, straight and solid
    between neighbouring cells, curved and dashed where the order jumps; returns the steps
    drawn ``((x0, y0), (x1, y1), adjacent)``.

    Two collections whatever the number of steps: the lines (gid ``"path"``) and the
    arrow heads (triangles in points, gid ``"path-heads"``).  Small cells get only the
    jumps (a step between neighbours would cross their digits)."""
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_rgba
    from matplotlib.path import Path
    from matplotlib.transforms import Affine2D

    small = cell_pt < _SMALL_CELL_PT
    scale = min(1.0, cell_pt / 22.0)
    solid, faint = to_rgba(color, 0.9 * scale ** 0.5), to_rgba(color, 0.6)
    lines, heads, tips, widths, dashes, colors, steps = [], [], [], [], [], [], []
    for a, b in _path_pairs(canvas, numbers):
        adjacent = abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 1.01
        if adjacent and small:
            continue
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = max(float(np.hypot(dx, dy)), 1e-9)
        cut = 0.27 / length                      # start and stop off the cell centres
        x0, y0 = a[0] + dx * cut, a[1] + dy * cut
        x1, y1 = b[0] - dx * cut, b[1] - dy * cut
        head_len, half = (3.6 * scale, 1.8 * scale) if adjacent else (3.2, 1.6)
        if adjacent:
            ctrl, (tx, ty) = None, (x1 - x0, y1 - y0)
        else:
            ctrl = ((x0 + x1) / 2 - 0.18 * (y1 - y0), (y0 + y1) / 2 + 0.18 * (x1 - x0))
            tx, ty = x1 - ctrl[0], y1 - ctrl[1]
        norm = max(float(np.hypot(tx, ty)), 1e-9)
        ux, uy = tx / norm, ty / norm
        back = 0.7 * head_len / cell_pt          # the line stops under its head
        ex, ey = x1 - ux * back, y1 - uy * back
        if ctrl is None:
            lines.append(Path([(x0, y0), (ex, ey)], [Path.MOVETO, Path.LINETO]))
        else:
            lines.append(Path([(x0, y0), ctrl, (ex, ey)],
                              [Path.MOVETO, Path.CURVE3, Path.CURVE3]))
        px, py = ux, -uy                         # display y points up, rows down
        heads.append(Path([(0, 0), (-head_len * px - half * py, -head_len * py + half * px),
                           (-head_len * px + half * py, -head_len * py - half * px), (0, 0)],
                          [Path.MOVETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]))
        tips.append((x1, y1))
        widths.append(1.5 * max(scale, 0.5) if adjacent else 0.9)
        dashes.append("-" if adjacent else (0, (3, 2)))
        colors.append(solid if adjacent else faint)
        steps.append((tuple(a), tuple(b), adjacent))
    if not steps:
        return ()
    ax.add_collection(PathCollection(
        lines, facecolors="none", edgecolors=colors, linewidths=widths, linestyles=dashes,
        transform=ax.transData, zorder=3, gid="path"), autolim=False)
    ax.add_collection(PathCollection(
        heads, offsets=np.array(tips, dtype=float), offset_transform=ax.transData,
        transform=Affine2D().scale(1 / 72.0) + ax.get_figure().dpi_scale_trans,
        facecolors=colors, edgecolors="none", linewidths=0, zorder=3, gid="path-heads"),
        autolim=False)
    return tuple(steps)


def _steps_text(numbers) -> str:
    parts = []
    order = sorted(axis_steps(numbers).items(), key=lambda kv: (kv[1] is None, kv[1] or 0))
    for name, step in order:
        parts.append(f"{name}: restarts" if step is None else f"{name} +{step}")
    return "one step along  " + ",  ".join(parts) if parts else ""


def _draw_layout_panel(ax, canvas, layout, numbers, number_size, cell_pt):
    """One layout panel's static content: the cells (one collection of squares, gid
    ``"cells"``), every number (gid ``"number"``), the plane labels and the arrows."""
    rows, cols = canvas.extent
    cells = [canvas.rc(idx[0], idx[1], idx[2:]) for idx in np.ndindex(*canvas.shape)]
    small = cell_pt < _SMALL_CELL_PT
    style.cell_squares(ax, cells, "cells", facecolors=_CELL_COLOR,
                       edgecolors="#c4c4c4" if small else "#a8a8a8",
                       linewidths=0.6 if small else 0.8, zorder=1)
    steps = _draw_path(ax, canvas, numbers, LAYOUT_COLORS[layout], cell_pt)
    labels = style.TextCollection()
    for idx, (r, c) in zip(np.ndindex(*canvas.shape), cells):
        labels.add(c, r, str(int(numbers[idx])), number_size, "#333333", gid="number")
    labels.draw(ax, gid="numbers", zorder=4)
    label_size = max(MIN_FONT, min(9.0, number_size))
    for n in range(canvas.shape[0]):
        for c in range(canvas.shape[1]):
            r0, c0 = canvas.origin(n, c)
            ax.text(c0 - 0.45, r0 - 0.75, f"n={n}, c={c}", fontsize=label_size,
                    color="#444444", ha="left", va="center", gid="plane-label")
    ax.set_xlim(-0.6, cols - 0.4)
    ax.set_ylim(rows - 0.4, -0.6)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    return steps


def _layout_marks(ax, number_size, small):
    """The moving marks of a layout panel (made once, moved by :func:`_move_layout_marks`):
    winner fill, window outlines, the winner's number in bold black, the winner mark."""
    from matplotlib.patches import Rectangle

    fill = Rectangle((-0.5, -0.5), 1, 1, facecolor=style.WINNER_COLOR, edgecolor="none",
                     alpha=0.85, zorder=_Z_FILL, gid="winner-fill")
    ax.add_patch(fill)
    window = style.cell_squares(ax, [(0, 0)], "window", facecolors="none",
                                edgecolors=style.WINDOW_COLOR, linewidths=1.6,
                                linestyles=[(0, (2, 1.5))], zorder=_Z_WINDOW)
    bold = _bold_number(ax, "", 0, 0, number_size)
    if small:       # a thin dark outline on the cell's edge: the bold number keeps the cell
        mark = Rectangle((-0.5, -0.5), 1, 1, fill=False, edgecolor=style.RIM_COLOR,
                         linewidth=1.4, zorder=_Z_MARK, gid="winner")
        ax.add_patch(mark)
    else:
        mark = style.mark_cell(ax, (0, 0))
        mark.set_zorder(_Z_MARK)
    for artist in (fill, window, bold, mark):
        artist.set_in_layout(False)
    return [fill, window, bold, mark]


def _bold_number(ax, text, x, y, size):
    """The winner's number in bold black over its fill (gid ``"winner-number"``)."""
    labels = style.TextCollection()
    labels.add(x, y, text, size, "black", gid="winner-number", bold=True)
    coll = labels.draw(ax, gid="winner-number", zorder=_Z_NUMBER)
    coll.set_in_layout(False)
    return coll


def _squares(cells):
    return [[(j - 0.5, i - 0.5), (j + 0.5, i - 0.5), (j + 0.5, i + 0.5), (j - 0.5, i + 0.5)]
            for i, j in cells]


def _move_layout_marks(marks, canvas, numbers, position, window_cells, small, number_size):
    fill, window, bold, mark = marks
    cells = [canvas.rc(n, c, taps) for n, c, taps in window_cells]
    window.set_verts(_squares(cells))
    window.set_visible(bool(cells))
    won = position is not None
    for artist in (fill, bold, mark):
        artist.set_visible(won)
    marks[2].set_visible(won)
    if won:
        r, c = canvas.rc(position[0], position[1], position[2:])
        fill.set_xy((c - 0.5, r - 0.5))
        ax = bold.axes
        bold.remove()
        marks[2] = _bold_number(ax, str(int(numbers[tuple(position)])), c, r, number_size)
        half = 0.5 if small else 0.42
        mark.set_xy((c - half, r - half))


# --------------------------------------------------------------------------- input panel


def _input_extent(result, out_index) -> tuple[int, int, int, int]:
    """Rows and columns ``(r_lo, r_hi, c_lo, c_hi)`` of a 1-D / 2-D input panel: the padded
    plane, extended to any ceil-mode overhang of the window of ``out_index``."""
    geom = result.geometry
    taps = geom.window(tuple(out_index[2:]))
    pads = [(getattr(a, "pad_begin", 0), getattr(a, "pad_end", 0)) for a in geom.axes]
    shape = result.input.shape[2:]
    if len(shape) == 1:
        pads, shape = [(0, 0)] + pads, (1,) + tuple(shape)
        tap_rows, tap_cols = (0,), taps[0][0]
    else:
        tap_rows, tap_cols = taps[0][0], taps[1][0]
    return (min(-pads[0][0], min(tap_rows)), max(shape[0] + pads[0][1], max(tap_rows) + 1),
            min(-pads[1][0], min(tap_cols)), max(shape[1] + pads[1][1], max(tap_cols) + 1))


def _panel_key(result, out_index):
    """What the input panel's drawing (without its marks and title) depends on: the plane
    ``(n, c)`` and its values, and for 1-D / 2-D inputs the padding (with its rule) and the
    drawn extent.  Equal keys: the same panel."""
    x = result.input
    key = (tuple(out_index[:2]), x.shape, x.dtype.str, x.tobytes())
    if x.ndim == 5:                     # depth slices: padding is not drawn
        return key
    pads = tuple((getattr(a, "pad_begin", 0), getattr(a, "pad_end", 0))
                 for a in result.geometry.axes)
    rule = result.rules.get("pad_taps", "skip") if any(p for pair in pads for p in pair) else None
    return key + (pads, rule, _input_extent(result, out_index))


def _input_window(result, out_index) -> tuple[list, tuple | None]:
    """The window's cells on the input panel (padding and overhang included) and the
    winner's cell, as ``(row, col)``."""
    taps = result.geometry.window(tuple(out_index[2:]))
    shape = result.input.shape[2:]
    if len(shape) == 3:
        depth, height, width = shape
        cells = [(d * (height + 1) + h, w)
                 for d in taps[0][0] for h in taps[1][0] for w in taps[2][0]
                 if 0 <= d < depth and 0 <= h < height and 0 <= w < width]
    elif len(shape) == 1:
        cells = [(0, w) for w in taps[0][0]]
    else:
        cells = [(h, w) for h in taps[0][0] for w in taps[1][0]]
    return cells


def _winner_cell(position):
    if position is None:
        return None
    where = position[2:]
    if len(where) == 3:
        return None                     # set by the caller (knows the height)
    return (0, where[0]) if len(where) == 1 else tuple(where)


def _draw_input_panel(ax, result, out_index, cell_pt: float):
    """The plane (n, c) with :func:`style.draw_grid`: values, padding (hatched, labelled
    with the rule when the cells are big enough), cells past the padded input; returns
    the padding rule to name in the title (None: written in the cells, or no padding),
    whether padding is drawn and the drawn extent."""
    x = result.input
    n, c = out_index[:2]
    plane = x[n, c]
    vmin, vmax = style.shared_limits(x)
    pad_taps = result.rules.get("pad_taps", "skip")
    if plane.ndim == 3:
        # depth slices stacked; padding along depth is not drawn (noted in the caption)
        depth, height, width = plane.shape
        labels = style.TextCollection()
        for d in range(depth):
            style.draw_grid(ax, plane[d], vmin=vmin, vmax=vmax, offset=(d * (height + 1), 0),
                            annotate=False)
            _values(labels, plane[d], (d * (height + 1), 0), vmin, vmax, cell_pt)
        labels.draw(ax, gid="values", zorder=2)
        ax.set_xlim(-0.5, width - 0.5)
        ax.set_ylim(depth * (height + 1) - 1.5, -0.5)
        rows = [(d * (height + 1) + h, f"d{d} h{h}") for d in range(depth) for h in range(height)]
        ax.set_yticks([r for r, _ in rows], [t for _, t in rows])
        ax.set_xlabel("w", fontsize=9)
        ax.set_xticks(range(width))
        return None, False, None
    plane2 = plane[None, :] if plane.ndim == 1 else plane
    geom = result.geometry
    pads = [(getattr(a, "pad_begin", 0), getattr(a, "pad_end", 0)) for a in geom.axes]
    if plane.ndim == 1:
        pads = [(0, 0)] + pads
    rows, cols = plane2.shape
    r_lo, r_hi, c_lo, c_hi = extent = _input_extent(result, out_index)
    canvas = np.full((r_hi - r_lo, c_hi - c_lo), np.nan)
    canvas[-r_lo:-r_lo + rows, -c_lo:-c_lo + cols] = plane2
    padding = np.zeros(canvas.shape, dtype=bool)
    padding[-r_lo - pads[0][0]:-r_lo + rows + pads[0][1],
            -c_lo - pads[1][0]:-c_lo + cols + pads[1][1]] = True
    padding[-r_lo:-r_lo + rows, -c_lo:-c_lo + cols] = False
    outside = np.isnan(canvas) & ~padding
    outside[-r_lo:-r_lo + rows, -c_lo:-c_lo + cols] = False      # NaN inputs stay inputs
    masked = padding | outside
    pad_text = _PAD_TEXT[pad_taps]
    size = 8.0 if cell_pt >= 24 else MIN_FONT
    written = bool(padding.any()) and _digits_pt(len(pad_text), size) <= 0.9 * cell_pt
    style.draw_grid(ax, canvas, vmin=vmin, vmax=vmax, offset=(r_lo, c_lo),
                    mask=padding if padding.any() else None, annotate=False)
    labels = style.TextCollection()
    values = canvas.copy()
    values[masked] = np.nan
    _values(labels, values, (r_lo, c_lo), vmin, vmax, cell_pt, skip=masked)
    if written:
        for i, j in zip(*np.nonzero(padding)):
            labels.add(c_lo + j, r_lo + i, pad_text, size, "#555555", gid="padding-text")
    if outside.any():
        cells = [(r_lo + i, c_lo + j) for i, j in zip(*np.nonzero(outside))]
        style.cell_squares(ax, cells, "outside", facecolors=style.OUTSIDE_COLOR,
                           edgecolors="#b8b8b8", linestyles=":", linewidths=0.8, zorder=1.5)
        if cell_pt >= 20:
            for i, j in cells:
                labels.add(j, i, "out", MIN_FONT, "#666666", gid="outside-text")
    labels.draw(ax, gid="values", zorder=2)
    # big planes: every other (or third) index, so that the tick labels stay apart
    for setter, lo, hi in ((ax.set_xticks, c_lo, c_hi), (ax.set_yticks, r_lo, r_hi)):
        if hi - lo > 12:
            step = -(-(hi - lo) // 10)
            setter([v for v in range(lo, hi) if v % step == 0])
    if plane.ndim == 1:
        ax.set_yticks([])
    ax.set_xlabel("w", fontsize=9)
    if plane.ndim == 2:
        ax.set_ylabel("h", fontsize=9)
    ax.set_aspect("equal")
    rule = pad_text if padding.any() and not written else None
    return rule, bool(padding.any()), extent


def _values(labels, values, offset, vmin, vmax, cell_pt, skip=None):
    """The values of a grid as cell texts (gid ``"value"``), black or white on their colour,
    when the cells hold them at 7 points or more."""
    texts = [style.format_value(v) for v in values.ravel()]
    longest = max((len(t) for t in texts), default=1)
    size = min(9.0, 0.86 * (cell_pt - 1) / (0.64 * max(longest, 1)))
    if size < MIN_FONT:
        return
    colors = style.cell_text_colors(values, vmin, vmax)
    r0, c0 = offset
    for (i, j), text in zip(np.ndindex(*values.shape), texts):
        if skip is not None and skip[i, j]:
            continue
        labels.add(c0 + j, r0 + i, text, round(size, 1), str(colors[i, j]), gid="value")


def _input_panel(ax, result, out_index, position, size):
    """Draw the input panel on ``ax`` (cleared first when it holds anything): the plane,
    its marks and its title.  Returns the padding rule named in the title, the drawn
    extent, the marks and the window's cells."""
    if ax.has_data() or ax.texts or ax.patches:
        ax.clear()
    shape = result.input.shape
    if len(shape) == 5:
        cells = ((shape[3] + 1) * shape[2], shape[4])
    else:
        r_lo, r_hi, c_lo, c_hi = _input_extent(result, out_index)
        cells = (r_hi - r_lo, c_hi - c_lo)
    rule, _, extent = _draw_input_panel(ax, result, out_index, _cell_pt(ax, cells) * 0.8)
    marks = _input_marks(ax)
    window = _move_input_marks(marks, result, out_index, position)
    ax.set_title(_input_title(result, out_index, position, rule), fontsize=size)
    ax.set_anchor("N")
    return rule, extent, marks, window


def _input_marks(ax):
    window = style.cell_squares(ax, [(0, 0)], "window", facecolors="none",
                                edgecolors=style.WINDOW_COLOR, linewidths=3, zorder=3)
    window.set_clip_on(False)           # an outline on an edge cell is drawn whole
    mark = style.mark_cell(ax, (0, 0))
    for artist in (window, mark):
        artist.set_in_layout(False)
    return [window, mark]


def _move_input_marks(marks, result, out_index, position):
    window, mark = marks
    cells = _input_window(result, out_index)
    window.set_verts(_squares(cells))
    cell = _winner_cell(position)
    if position is not None and cell is None:           # 3-D
        height = result.input.shape[3]
        cell = (position[2] * (height + 1) + position[3], position[4])
    mark.set_visible(cell is not None)
    if cell is not None:
        mark.set_xy((cell[1] - 0.42, cell[0] - 0.42))
    return tuple(cells)


# --------------------------------------------------------------------------- texts


def _params_text(result) -> str:
    g = result.geometry
    if result.op == "adaptive_max":
        return f"adaptive, output_size={_short(g.output_shape)}"
    pads = g.pads
    if all(b == e == pads[0][0] for b, e in pads):
        pad = str(pads[0][0])
    elif all(b == e for b, e in pads):
        pad = _short(tuple(b for b, _ in pads))
    else:
        pad = str(tuple(pads))
    text = f"kernel={_short(g.kernel)}, stride={_short(g.stride)}, pad={pad}"
    if any(d != 1 for d in g.dilation):
        text += f", dilation={_short(g.dilation)}"
    return text + f", rounding={g.rounding!r}"


def _short(t):
    t = tuple(t)
    return str(t[0]) if all(v == t[0] for v in t) else str(t)


def _position_text(position) -> str:
    names = {3: "(n, c, w)", 4: "(n, c, h, w)", 5: "(n, c, d, h, w)"}[len(position)]
    return f"{names} = {tuple(position)}"


def _winner(result, out_index, layouts):
    """The winner's number per layout, its position ``(n, c, *spatial)`` (None: no input
    element won) and the window's input elements ``(n, c, taps)`` for the layout panels."""
    shape = result.input.shape
    numbers = winner_numbers(result, out_index, layouts)
    plane_idx = int(convert_indices(result.indices, shape, result.index_layout,
                                    "plane")[out_index])
    position = None
    if plane_idx >= 0:
        position = (out_index[0], out_index[1]) + tuple(
            int(v) for v in np.unravel_index(plane_idx, shape[2:]))
    n, c = out_index[:2]
    per_axis = result.geometry.window(out_index[2:])
    window_cells = []
    for combo in np.ndindex(*(len(t) for t, _ in per_axis)):
        taps = tuple(per_axis[a][0][j] for a, j in enumerate(combo))
        if all(0 <= t < s for t, s in zip(taps, shape[2:])):
            window_cells.append((n, c, taps))
    return numbers, position, tuple(window_cells)


def _input_title(result, out_index, position, rule) -> str:
    op = "adaptive max" if result.op == "adaptive_max" else "max"
    if position is None:
        won = "no input element won: index -1"
    else:
        value = style.format_value(result.input[position])
        where = position[2:]
        names = {1: "w", 2: "(h, w)", 3: "(d, h, w)"}[len(where)]
        won = f"max {value} at {names} = {where if len(where) > 1 else where[0]}"
    if rule is not None:
        won += f"\npadding (hatched): {rule}"
    n, c = out_index[:2]
    return f"plane n={n}, c={c}\n{op} window of output {tuple(out_index[2:])}\n{won}"


def _layout_title(lay) -> str:
    return f"{lay!r}\n{LAYOUT_USERS_SHORT[lay]}"


def _suptitle(result, out_index, position, numbers) -> str:
    where = _position_text(position) if position is not None else "no input element (index -1)"
    flat = ",  ".join(f"{lay} \u2192 {num}" for lay, num in numbers.items())
    return (f"Max-pool index layouts: x shape {result.input.shape}, {_params_text(result)}\n"
            f"winner of output {out_index}: {where}\nits index:  {flat}")


def _draw_table(ax, layouts, numbers, size):
    """The winner's number per layout, with who uses each layout."""
    ax.axis("off")
    cell_text = [[lay, str(numbers[lay]), LAYOUT_USERS[lay]] for lay in layouts]
    table = ax.table(cellText=cell_text, colLabels=["layout", "winner's index", "used by"],
                     loc="center", cellLoc="left", colLoc="left", colWidths=[0.2, 0.16, 0.64])
    table.auto_set_font_size(False)
    table.set_fontsize(size)
    table.scale(1, 1.25)
    for (row, col), cell in table.get_celld().items():
        cell.set_edgecolor("#cccccc")
        if row == 0:
            cell.set_text_props(fontweight="bold")
            cell.set_facecolor("#eeeeee")
        elif col in (0, 1):
            cell.set_text_props(color=LAYOUT_COLORS[layouts[row - 1]], fontweight="bold")
    table.set_gid("layout-table")


# --------------------------------------------------------------------------- public


def _cell_pt(ax, canvas_extent) -> float:
    """The side (points) of a cell of ``ax`` showing ``canvas_extent`` (rows, cols) cells,
    from the Axes' place in its figure (before any layout engine moved it)."""
    fig = ax.get_figure()
    w, h = fig.get_size_inches() if hasattr(fig, "get_size_inches") else (
        fig.bbox.width / fig.dpi, fig.bbox.height / fig.dpi)
    spec = ax.get_subplotspec()
    # a grid's Axes: the place the grid gives it (the same before and after a layout)
    box = spec.get_position(fig) if spec is not None else ax.get_position()
    rows, cols = canvas_extent
    return 72.0 * min(box.width * w / max(cols, 1), box.height * h / max(rows, 1))


def plot_index_layouts(x, kernel=None, stride=None, padding=0, dilation=1, *,
                       rounding: str = "floor", pad_taps: str = "skip", out_index=None,
                       layouts=INDEX_LAYOUTS, table: bool = True, fig=None,
                       ax=None) -> IndexLayoutsPlot:
    """Draw one max-pool winner as its position and as its flat number in every index layout.

    Parameters
    ----------
    x : array shaped ``(N, C, *spatial)`` (1 to 3 spatial axes), or a PoolResult
        The input, pooled here with :func:`pooltutor.pooling.max_pool`; or a
        max / adaptive-max :class:`~pooltutor.pooling.PoolResult` made with
        ``return_indices=True`` (then leave ``kernel`` and the rest out).
    kernel, stride, padding, dilation, rounding, pad_taps
        As in :func:`pooltutor.pooling.max_pool`.
    out_index : tuple of int, optional
        The output cell ``(n, c, *out_spatial)`` whose winner is shown (or
        only ``out_spatial`` when ``N = C = 1``); default the first.
    layouts : sequence of str
        Which layouts get a panel (default all five of
        :data:`pooltutor.indexing.INDEX_LAYOUTS`).
    table : bool
        Also draw the table of the winner's number per layout (``table_ax``
        is None without it).
    fig : matplotlib.figure.Figure, optional
        Drawn on (after ``fig.clear()``, with the constrained layout); a new
        Figure (size :func:`index_layouts_figsize`) by default.
    ax : sequence of Axes, optional
        Draw on these Axes of one figure instead, in this order: the input
        panel, one per layout (in the order of ``layouts``), then the table's
        Axes when ``table=True`` (``1 + len(layouts) + table`` in all).  The
        numbers are sized for the Axes as they are placed when called.

    Returns
    -------
    IndexLayoutsPlot
        The figure, its axes, the winner's ``numbers`` per layout, what every panel
        shows (cell numbers, arrows, window, marks).

    Notes
    -----
    Each layout panel shows the ``N x C`` planes (``n`` down, ``c`` across)
    with every cell's number in that layout, and arrows from each number to
    the next: solid between neighbouring cells, dashed where the order jumps
    (to the next row, plane or channel).  Where numbers restart (``plane``
    restarts in every plane, ``nhwc`` in every batch entry) each part gets
    its own arrows.  Up to 512 elements are drawn; the numbers are never
    smaller than 7 points.  In small cells (under 20 points) the steps between
    neighbouring cells get no arrow (it would cross the numbers; the caption
    gives the steps) and the winner is outlined on its cell's edge.

    Examples
    --------
    TV22 (N=2, C=2, H=2, W=3; K=2, S=1): the winner of output ``(0, 1, 0, 1)``
    is the 6 at ``(h, w) = (1, 2)`` of plane ``n=0, c=1``:

    >>> x = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
    ...               [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)
    >>> p = plot_index_layouts(x, 2, 1, out_index=(0, 1, 0, 1))
    >>> p.position, [p.numbers[k] for k in ("plane", "tensor", "tensor_colmajor", "nhwc")]
    ((0, 1, 1, 2), [5, 11, 11, 11])

    See Also
    --------
    pooltutor.indexing.convert_indices : the conversions drawn here.
    pooltutor.viz.index_explorer.IndexLayoutExplorer : the same, with controls.
    """
    style.check_fig(fig)
    if isinstance(layouts, str):
        layouts = (layouts,)
    layouts = tuple(layouts)
    if not layouts or any(lay not in INDEX_LAYOUTS for lay in layouts):
        raise PoolTutorError(
            f"layouts={layouts!r} is not allowed: need a non-empty sequence of "
            f"{', '.join(repr(v) for v in INDEX_LAYOUTS)}"
        )
    if not isinstance(table, (bool, np.bool_)):
        raise PoolTutorTypeError(f"table={table!r}: need True or False")
    table = bool(table)
    if not isinstance(x, PoolResult):
        arr = np.asarray(x) if not isinstance(x, np.ndarray) else x
        if arr.size > MAX_ELEMENTS:
            raise PoolTutorError(
                f"x has shape {arr.shape} ({arr.size} elements): plot_index_layouts draws every "
                f"element, need at most {MAX_ELEMENTS}"
            )
    axes = None if ax is None else _check_axes(ax, 1 + len(layouts) + table, fig)
    result = _pool(x, kernel, stride, padding, dilation, rounding, pad_taps)
    shape = result.input.shape
    if result.input.size > MAX_ELEMENTS:
        raise PoolTutorError(
            f"the result's input has shape {shape}: plot_index_layouts draws every element, "
            f"need at most {MAX_ELEMENTS}"
        )
    out_index = _check_out_index(out_index, result.output.shape)
    numbers, position, window_cells = _winner(result, out_index, layouts)
    canvas = _Canvas(shape)
    figsize, (nrows, ncols), (panel_h, table_h) = _layout(shape, len(layouts), table)

    if axes is None:
        if fig is None:
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure

            fig = Figure(figsize=figsize, layout="constrained")
            FigureCanvasAgg(fig)
        else:
            fig.clear()
            if hasattr(fig, "get_layout_engine") and fig.get_layout_engine() is None \
                    and hasattr(fig, "set_layout_engine"):
                fig.set_layout_engine("constrained")
        grid = fig.add_gridspec(nrows + table, ncols,
                                height_ratios=[panel_h] * nrows + [table_h] * table)
        axes = [fig.add_subplot(grid[k // ncols, k % ncols]) for k in range(len(layouts) + 1)]
        if table:
            axes.append(fig.add_subplot(grid[nrows, :]))
    else:
        fig = axes[0].get_figure()
    input_ax, layout_list = axes[0], axes[1:1 + len(layouts)]

    # numbers as large as the cells allow (7 to 12 points); all panels alike
    digits = len(str(max(int(np.prod(shape)) - 1, 0)))
    cell_pt = min(_cell_pt(a, canvas.extent) for a in layout_list)
    # the constrained layout takes room for titles and captions: plan with 85% of it
    cell_pt *= 0.85 if ax is None else 1.0
    number_size = round(float(np.clip(0.86 * (cell_pt - 1) / (0.64 * digits), MIN_FONT, 12.0)),
                        1)
    size = max(MIN_FONT + 1, min(10.0, number_size + 1))
    small = cell_pt < _SMALL_CELL_PT

    marks = {}
    rule, extent, marks["input"], input_window = _input_panel(input_ax, result, out_index,
                                                              position, size)

    layout_axes, cell_numbers, arrows = {}, {}, {}
    for lay, lax in zip(layouts, layout_list):
        nums = layout_numbers(shape, lay)
        arrows[lay] = _draw_layout_panel(lax, canvas, lay, nums, number_size, cell_pt)
        marks[lay] = _layout_marks(lax, number_size, small)
        _move_layout_marks(marks[lay], canvas, nums, position, window_cells, small,
                           number_size)
        lax.set_title(_layout_title(lay), fontsize=size, color=LAYOUT_COLORS[lay])
        lax.set_xlabel(_steps_text(nums), fontsize=max(MIN_FONT, size - 1), color="#444444")
        layout_axes[lay], cell_numbers[lay] = lax, nums
    table_ax = None
    if table:
        table_ax = axes[-1]
        _draw_table(table_ax, layouts, numbers, max(MIN_FONT + 1, min(10.0, size)))
    for text in [t for t in fig.texts if t.get_gid() == "suptitle"]:
        text.remove()
    if ax is None:
        fig.suptitle(_suptitle(result, out_index, position, numbers), fontsize=size + 1.5,
                     gid="suptitle")
    return IndexLayoutsPlot(
        fig, input_ax, MappingProxyType(layout_axes), table_ax, MappingProxyType(numbers),
        position, out_index, result, MappingProxyType(cell_numbers), MappingProxyType(arrows),
        input_window, window_cells, rule, MappingProxyType(marks), number_size, extent)


def move_index_layouts(plot: IndexLayoutsPlot, out_index, *,
                       result: PoolResult | None = None) -> IndexLayoutsPlot | None:
    """Show another output cell (or another max pooling of the same input) on an existing
    plot.  The layout panels are not drawn again (they depend on the input's shape only):
    their marks move; the input panel's marks move too (another cell, or another kernel,
    stride or dilation), or, for another plane, another padding or padding rule, or
    another drawn extent (a ceil-mode overhang), the input panel is drawn again.  The
    titles, the table and the suptitle follow.

    ``result`` is a max pooling of an input shaped like ``plot.result.input``, made with
    ``return_indices=True`` (default: ``plot.result``).  Returns the new
    :class:`IndexLayoutsPlot` (the old one describes the old cell), or None when the
    input's shape differs (then call :func:`plot_index_layouts`).

    >>> x = np.arange(16.0).reshape(1, 1, 4, 4)
    >>> p = plot_index_layouts(x, 2, 2, out_index=(0, 0))
    >>> q = move_index_layouts(p, (0, 0, 1, 1))
    >>> q.position, q.numbers["plane"], q.input_ax.get_title().splitlines()[2]
    ((0, 0, 3, 3), 15, 'max 15 at (h, w) = (3, 3)')
    >>> r = move_index_layouts(q, (1, 1), result=max_pool(x, 3, 1, return_indices=True))
    >>> r.position, r.numbers["tensor"], r.marks["input"] is q.marks["input"]   # same panel
    ((0, 0, 3, 3), 15, True)
    >>> s = move_index_layouts(r, (1, 1), result=max_pool(x, 3, 1, 1, return_indices=True))
    >>> s.position, s.padding_rule, s.marks["input"] is r.marks["input"]        # padded
    ((0, 0, 2, 2), None, False)
    """
    if not isinstance(plot, IndexLayoutsPlot):
        raise PoolTutorTypeError(f"plot={plot!r} has type {type(plot).__name__}: need an "
                                 f"IndexLayoutsPlot (from plot_index_layouts)")
    if result is None:
        result = plot.result
    elif not isinstance(result, PoolResult):
        raise PoolTutorTypeError(f"result={result!r} has type {type(result).__name__}: need a "
                                 f"PoolResult (max pooling with return_indices=True) or None")
    elif result.indices is None or result.input is None:
        raise PoolTutorError(f"result: the PoolResult ({result.op}) has no indices or no "
                             f"input: need a max pooling made with return_indices=True")
    if result.input.shape != plot.result.input.shape:
        return None
    out_index = _check_out_index(out_index, result.output.shape)
    layouts = tuple(plot.layout_axes)
    numbers, position, window_cells = _winner(result, out_index, layouts)
    # the input panel shows the plane, its padding and the drawn extent: another
    # window (another cell, kernel, stride, dilation) on the same panel only moves marks
    same_panel = _panel_key(result, out_index) == _panel_key(plot.result, plot.out_index)
    marks = dict(plot.marks)
    rule, extent = plot.padding_rule, plot.extent
    if same_panel:
        input_window = _move_input_marks(marks["input"], result, out_index, position)
        plot.input_ax.title.set_text(_input_title(result, out_index, position, rule))
    else:
        rule, extent, marks["input"], input_window = _input_panel(
            plot.input_ax, result, out_index, position, plot.input_ax.title.get_fontsize())
    canvas = _Canvas(result.input.shape)
    for lay in layouts:
        small = not plot.marks[lay][3].get_path_effects()     # the thin edge outline
        _move_layout_marks(marks[lay], canvas, plot.cell_numbers[lay], position,
                           window_cells, small, plot.number_size)
    if plot.table_ax is not None:
        cells = plot.table_ax.tables[0].get_celld()
        for r, lay in enumerate(layouts, start=1):
            cells[(r, 1)].get_text().set_text(str(numbers[lay]))
    suptitle = _suptitle_text(plot.figure)
    if suptitle is not None:
        suptitle.set_text(_suptitle(result, out_index, position, numbers))
    return replace(plot, numbers=MappingProxyType(numbers), position=position,
                   out_index=out_index, result=result, input_window=input_window,
                   window_cells=window_cells, padding_rule=rule, marks=MappingProxyType(marks),
                   extent=extent)
