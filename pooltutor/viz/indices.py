"""One max-pool winner, five index layouts: where the flat number comes from.

A max pool's winner sits at ``(n, c, *spatial)`` in the input, and every
framework flattens that position differently (``api.md``, "Index layouts";
:mod:`pooltutor.indexing`).  :func:`plot_index_layouts` draws

* the input plane ``(n, c)`` of the chosen output cell, with its pooling
  window (padding hatched grey, labelled with the padding rule) and the
  winner;
* one panel per layout: the ``N x C`` planes side by side, every cell
  holding its running number in that layout, the flattening order drawn
  as arrows through the cell centres (row-major, column-major inside the
  plane, channel-interleaved for TensorFlow's NHWC), the winner marked;
* a table of the winner's number in every layout, with who uses it.

Every number comes from :func:`pooltutor.indexing.convert_indices`: this
module never re-derives a layout formula.

>>> import numpy as np
>>> from pooltutor.viz.indices import plot_index_layouts
>>> x = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
...               [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)   # TV22
>>> p = plot_index_layouts(x, kernel=2, stride=1, out_index=(1, 1, 0, 1))
>>> p.position, dict(p.numbers)
((1, 1, 0, 1), {'plane': 1, 'tensor': 19, 'tensor_colmajor': 20, 'nhwc': 3, 'nhwc_batch': 15})
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_index_within
from ..indexing import INDEX_LAYOUTS, convert_indices
from ..pooling import PoolResult, max_pool
from . import style

__all__ = [
    "LAYOUT_USERS",
    "LAYOUT_COLORS",
    "IndexLayoutsPlot",
    "axis_steps",
    "index_layouts_figsize",
    "keep_axes",
    "prepare_figure",
    "index_overlays",
    "layout_numbers",
    "move_index_layouts",
    "path_arrows",
    "plot_index_layouts",
    "winner_numbers",
]

#: Who flattens indices this way (api.md, "Index layouts").
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

#: One colour per layout, used for its arrows and its row in the table.
LAYOUT_COLORS = MappingProxyType({
    "plane": "#1f77b4",
    "tensor": "#2ca02c",
    "tensor_colmajor": "#9467bd",
    "nhwc": "#d62728",
    "nhwc_batch": "#8c564b",
})

#: The largest tensor drawn (every element gets a cell in every panel).
MAX_ELEMENTS = 512

_PAD_TEXT = {"skip": "skip", "neg_inf": "-inf", "lowest": "lowest"}


@dataclass(frozen=True, eq=False)
class IndexLayoutsPlot:
    """What :func:`plot_index_layouts` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
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
    """

    figure: Any
    input_ax: Any
    layout_axes: Any
    table_ax: Any
    numbers: Any
    position: tuple[int, ...] | None
    out_index: tuple[int, ...]
    result: PoolResult


def layout_numbers(input_shape, layout: str) -> np.ndarray:
    """The flat number of every input element under ``layout``, shaped ``input_shape``.

    Built by converting each element's plane position with
    :func:`~pooltutor.indexing.convert_indices` (nothing re-derived here).

    >>> layout_numbers((1, 2, 1, 2), "nhwc").tolist()      # c is the fastest axis
    [[[[0, 2]], [[1, 3]]]]
    >>> layout_numbers((1, 1, 2, 2), "tensor_colmajor").tolist()
    [[[[0, 2], [1, 3]]]]
    """
    shape = tuple(int(s) for s in input_shape)
    spatial = shape[2:]
    plane = np.arange(int(np.prod(spatial)), dtype=np.int64).reshape(spatial)
    plane = np.ascontiguousarray(np.broadcast_to(plane, shape))
    return convert_indices(plane, shape, "plane", layout)


def winner_numbers(result: PoolResult, out_index, layouts=INDEX_LAYOUTS) -> dict[str, int]:
    """The number of the winner of ``result.output[out_index]`` in every layout.

    >>> x = np.arange(12.0).reshape(1, 2, 2, 3)
    >>> r = max_pool(x, 2, 1, return_indices=True)
    >>> winner_numbers(r, (0, 1, 0, 1))
    {'plane': 5, 'tensor': 11, 'tensor_colmajor': 11, 'nhwc': 11, 'nhwc_batch': 11}
    """
    shape = result.input.shape
    return {
        lay: int(convert_indices(result.indices, shape, result.index_layout, lay)[tuple(out_index)])
        for lay in layouts
    }


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


# --------------------------------------------------------------------------- drawing


class _Canvas:
    """Where cell ``(n, c, *spatial)`` goes in a layout panel (data coordinates, rows down).

    Planes sit on a grid, ``n`` down and ``c`` across, one empty cell apart;
    3-D planes show their depth slices stacked, half a cell apart.
    """

    def __init__(self, shape):
        self.shape = tuple(shape)
        n, c, *spatial = self.shape
        self.spatial = tuple(spatial)
        if len(spatial) == 1:
            self.depth, self.height, self.width = 1, 1, spatial[0]
        elif len(spatial) == 2:
            self.depth, (self.height, self.width) = 1, spatial
        else:
            self.depth, self.height, self.width = spatial
        self.depth_gap = 0.5
        self.plane_rows = self.depth * self.height + (self.depth - 1) * self.depth_gap
        self.row_step = self.plane_rows + 1.4       # room for the plane label
        self.col_step = self.width + 1.0

    def origin(self, n, c):
        return n * self.row_step, c * self.col_step

    def xy(self, n, c, spatial):
        """``(x, y)`` centre of a cell, ``spatial`` being its coordinates in the plane."""
        spatial = tuple(spatial)
        if len(spatial) == 1:
            d, h, w = 0, 0, spatial[0]
        elif len(spatial) == 2:
            d, (h, w) = 0, spatial
        else:
            d, h, w = spatial
        r0, c0 = self.origin(n, c)
        return c0 + w, r0 + d * (self.height + self.depth_gap) + h

    @property
    def extent(self):
        n, c = self.shape[:2]
        return n * self.row_step - 1.4, c * self.col_step - 1.0


def _font(canvas) -> float:
    biggest = max(canvas.extent)
    return 12 if biggest <= 8 else 10.5 if biggest <= 14 else 9 if biggest <= 22 else 7


def _plane_labels(labels, canvas, size):
    n_count, c_count = canvas.shape[:2]
    for n in range(n_count):
        for c in range(c_count):
            r0, c0 = canvas.origin(n, c)
            labels.add(c0 - 0.5, r0 - 0.5, f"n={n}, c={c}", size - 1, "#444444", ha="left",
                       dy=3, gid="plane-label")


def _frame_axes(ax, canvas):
    rows, cols = canvas.extent
    ax.set_xlim(-0.6, cols - 0.4)
    ax.set_ylim(rows - 0.4, -1.25)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)


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
        hops = sum(1 for a, b in zip(cells, cells[1:], strict=False) if a[1] != b[1])
        if len(cells) > 2 and hops > (len(cells) - 1) / 2:
            # interleaved (NHWC channels, or depth in column-major 3-D): the order hops
            # between units at every step.  Draw each unit's own order, and the hops of
            # the first position only; the numbers and the caption say the rest.
            first = [cells[0]]
            for cell in cells[1:]:
                if cell[1] in {f[1] for f in first}:
                    break
                first.append(cell)
            pairs += [(a[2], b[2]) for a, b in zip(first, first[1:], strict=False)]
            for unit in dict.fromkeys(cell[1] for cell in cells):
                own = [cell for cell in cells if cell[1] == unit]
                pairs += [(a[2], b[2]) for a, b in zip(own, own[1:], strict=False)]
        else:
            pairs += [(a[2], b[2]) for a, b in zip(cells, cells[1:], strict=False)]
    return pairs


#: Arrow heads in points (matplotlib's ``-|>`` at mutation scale 9 / 7): length, half-width.
_HEAD = {True: (3.6, 1.8), False: (2.8, 1.4)}


def _draw_path(ax, canvas, numbers, color, size, points_per_unit: float = 20.0,
               jumps_only: bool = False):
    """The flattening order: an arrow from each number to the next, straight and solid
    between neighbouring cells, curved and dashed where the order jumps.

    Drawn as two collections whatever the number of steps (one artist per arrow cost
    ~1 ms each at every redraw): the lines (one path each, gid ``"path"``; the steps
    are kept as ``coll.pooltutor_arrows``, ``((x0, y0), (x1, y1), adjacent)`` cell
    centres in drawing order) and the arrow heads (triangles in points, gid
    ``"path-heads"``).  ``points_per_unit`` (the size of a cell in points) only sets
    where a line stops under its head.  With ``jumps_only`` the steps between
    neighbouring cells are left out (cells too small for an arrow beside their number).
    """
    from matplotlib.colors import to_rgba
    from matplotlib.path import Path

    pairs = _path_pairs(canvas, numbers)
    scale = min(1.0, points_per_unit / 22.0)        # small cells: finer arrows
    lines, heads, tips, widths, dashes, colors, arrows = [], [], [], [], [], [], []
    solid, faint = to_rgba(color, 0.9 * scale ** 0.5), to_rgba(color, 0.55 * scale ** 0.5)
    jump_width = 0.9 * max(scale, 0.5)
    if jumps_only:      # the jumps alone show the order: drawn a little stronger
        faint, jump_width = to_rgba(color, 0.42), 0.55
    for a, b in pairs:
        adjacent = abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 1.01
        if adjacent and jumps_only:
            continue
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = max(float(np.hypot(dx, dy)), 1e-9)
        cut = 0.27 / length                      # start and stop off the cell centres
        x0, y0 = a[0] + dx * cut, a[1] + dy * cut
        x1, y1 = b[0] - dx * cut, b[1] - dy * cut
        head_len, half = (v * scale for v in _HEAD[adjacent])
        if adjacent:
            tx, ty = x1 - x0, y1 - y0            # direction at the tip
            ctrl = None
        else:
            # matplotlib's arc3, rad=0.18, with rows pointing down (as drawn)
            ctrl = ((x0 + x1) / 2 - 0.18 * (y1 - y0), (y0 + y1) / 2 + 0.18 * (x1 - x0))
            tx, ty = x1 - ctrl[0], y1 - ctrl[1]
        norm = max(float(np.hypot(tx, ty)), 1e-9)
        ux, uy = tx / norm, ty / norm
        # the line stops under the head (at 70% of its length), so no line end shows past it
        back = 0.7 * head_len / points_per_unit
        ex, ey = x1 - ux * back, y1 - uy * back
        if ctrl is None:
            lines.append(Path([(x0, y0), (ex, ey)], [Path.MOVETO, Path.LINETO]))
        else:
            lines.append(Path([(x0, y0), ctrl, (ex, ey)],
                              [Path.MOVETO, Path.CURVE3, Path.CURVE3]))
        # the head in points: display y points up, data rows down
        px, py = ux, -uy
        heads.append(Path([(0, 0), (-head_len * px - half * py, -head_len * py + half * px),
                           (-head_len * px + half * py, -head_len * py - half * px), (0, 0)],
                          [Path.MOVETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]))
        tips.append((x1, y1))
        widths.append(1.5 * max(scale, 0.5) if adjacent else jump_width)
        dashes.append("-" if adjacent else (0, (3, 2)))
        colors.append(solid if adjacent else faint)
        arrows.append((tuple(a), tuple(b), adjacent))
    if not pairs:
        return None
    coll, _ = _arrow_collections(ax, lines, heads, tips, widths, dashes, colors, zorder=3)
    coll.pooltutor_arrows = tuple(arrows)
    coll.pooltutor_style = (lines, heads, tips, widths, dashes, colors)
    return coll


def _arrow_collections(ax, lines, heads, tips, widths, dashes, colors, *, zorder, suffix=""):
    """The arrows' lines (gid ``"path"``) and heads (``"path-heads"``) as two collections."""
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Affine2D

    fig = ax.get_figure(root=True) if style._takes_root(ax) else ax.figure
    coll = PathCollection(lines, facecolors="none", edgecolors=colors, linewidths=widths,
                          linestyles=dashes, transform=ax.transData, zorder=zorder,
                          gid="path" + suffix)
    ax.add_collection(coll, autolim=False)
    head_coll = PathCollection(heads, offsets=np.array(tips, dtype=float).reshape(-1, 2),
                               offset_transform=ax.transData,
                               transform=Affine2D().scale(1 / 72.0) + fig.dpi_scale_trans,
                               facecolors=colors, edgecolors="none", linewidths=0,
                               zorder=zorder, gid="path-heads" + suffix)
    ax.add_collection(head_coll, autolim=False)
    return coll, head_coll


def path_arrows(ax) -> tuple:
    """The flattening steps drawn on a layout panel: ``((x0, y0), (x1, y1), adjacent)`` cell
    centres (read from its ``"path"`` collection; empty when there is none)."""
    for coll in ax.collections:
        if coll.get_gid() == "path":
            return coll.pooltutor_arrows
    return ()


def axis_steps(numbers: np.ndarray) -> dict[str, int | None]:
    """How much the number grows for one step along each axis (None: it restarts there).

    Read off the numbers (from :func:`layout_numbers`) at the origin and one
    step along each axis of length > 1.

    >>> axis_steps(layout_numbers((2, 2, 2, 3), "nhwc"))
    {'n': None, 'c': 1, 'h': 6, 'w': 2}
    """
    names = {3: ("n", "c", "w"), 4: ("n", "c", "h", "w"), 5: ("n", "c", "d", "h", "w")}
    steps = {}
    origin = (0,) * numbers.ndim
    for axis, name in enumerate(names[numbers.ndim]):
        if numbers.shape[axis] < 2:
            continue
        one = tuple(1 if a == axis else 0 for a in range(numbers.ndim))
        step = int(numbers[one]) - int(numbers[origin])
        steps[name] = step if step > 0 else None
    return steps


def _steps_text(numbers) -> str:
    parts = []
    order = sorted(axis_steps(numbers).items(), key=lambda kv: (kv[1] is None, kv[1] or 0))
    for name, step in order:
        parts.append(f"{name}: restarts" if step is None else f"{name} +{step}")
    return "one step along  " + ",  ".join(parts) if parts else ""


#: Stacking of the moving marks of a panel, above its static content (cells 1, arrows 3,
#: numbers 4): drawn last in a plot and in an explorer's blitting alike (same picture).
_Z_FILL, _Z_ARROWS, _Z_WINDOW, _Z_NUMBER, _Z_MARK = 4.1, 4.2, 4.3, 4.4, 5.0


def _overlay(artist):
    """Mark ``artist`` as a moving mark (:func:`move_index_layouts` moves it), kept out of
    the layout like every cell artist (:func:`_out_of_layout`)."""
    artist.pooltutor_overlay = True
    artist.set_in_layout(False)
    return artist


#: Cells smaller than this (points) are "small": narrower digits, no arrows through the
#: numbers, a thin winner outline on the cell's edge (a 16x16 grid on a slide-sized figure).
_SMALL_CELL_PT = 20.0
#: Width of the digits in small cells (1: the font's own): taller numbers in the same width.
_SMALL_SQUEEZE = 0.8


def _draw_layout_panel(ax, canvas, layout, numbers, position, window_cells, size,
                       cell_pt=20.0, squeeze=1.0):
    """One layout panel.  What depends on the layout only (cells, numbers in grey,
    flattening arrows, plane labels) is built once per Axes and kept
    (``pooltutor_static``) by :func:`prepare_figure`; each call draws the moving marks
    (:func:`_layout_overlays`)."""
    small = cell_pt < _SMALL_CELL_PT
    key = (canvas.shape, layout, float(size), round(float(cell_pt), 2), float(squeeze))
    static = getattr(ax, "_pooltutor_static", None)
    if static is None or static["key"] != key or static["numbers"].axes is not ax:
        for artist in [a for a in (*ax.collections, *ax.patches, *ax.artists)
                       if getattr(a, "pooltutor_static", False)
                       and a is not getattr(ax, "_pooltutor_static_lines", None)]:
            artist.remove()
        n_count, c_count = canvas.shape[:2]
        where, items = {}, []
        for n in range(n_count):
            for c in range(c_count):
                for pos in np.ndindex(*canvas.spatial):
                    x, y = canvas.xy(n, c, pos)
                    where[(n, c) + tuple(pos)] = len(items)
                    items.append(style.CellText(str(int(numbers[(n, c) + pos])), x, y, size,
                                                "#333333", False, "number"))
        grid = _cell_grid(ax, canvas, edgecolor="#c4c4c4" if small else "#b0b0b0",
                          linewidth=0.6 if small else 0.8)
        # in small cells the numbers fill the cell: a step between neighbours would be
        # drawn across their digits, so only the jumps (row, plane, channel) get arrows
        arrows = _draw_path(ax, canvas, numbers, LAYOUT_COLORS.get(layout, "#333333"), size,
                            points_per_unit=cell_pt, jumps_only=small)
        coll = _text_paths(ax, items, squeeze=squeeze, gid="numbers", zorder=4)
        labels = style.TextCollection()
        _plane_labels(labels, canvas, size if not small else max(size, 5.5))
        made = [*grid, coll, labels.draw(ax, zorder=4)]
        made += [a for a in ax.collections if a.get_gid() == "path-heads"]
        if arrows is not None:
            made.append(arrows)
        for artist in made:
            artist.pooltutor_static = True
        static = ax._pooltutor_static = {"key": key, "numbers": coll, "where": where,
                                         "arrows": arrows, "canvas": canvas, "size": size,
                                         "small": small, "squeeze": squeeze}
        _frame_axes(ax, canvas)
        _static_group(ax, made, key)
    _layout_overlays(ax, position, window_cells)


_STATIC_GROUP = None


def _static_group(ax, members, key):
    """Draw ``members`` (the static content of a layout panel, inside its Axes) as one
    artist that pastes its pixels of the last draw when nothing they depend on changed.

    The members stay children of ``ax`` (to be read back) but draw only through the group.
    The pixels are reused when the canvas, the Axes' place and ``key`` are those of the
    last draw and the pixels under the Axes are too (an explorer's full redraw after a
    change that leaves this panel alone: another plane or padding); else the members are
    drawn, and kept when they drew nothing outside the Axes (same picture, tested)."""
    global _STATIC_GROUP
    if _STATIC_GROUP is None:
        from matplotlib.artist import Artist

        class StaticGroup(Artist):
            def draw(self, renderer):
                if not self.get_visible():
                    return
                buf, region = self._region(renderer)
                if buf is None:
                    for m in self.members:
                        if m.get_visible():
                            type(m).draw(m, renderer)
                    return
                r0, r1, c0, c1 = region
                gkey = (self.key, renderer.width, renderer.height, renderer.dpi, region,
                        tuple(self.axes.bbox.bounds))
                before = buf[r0:r1, c0:c1].copy()
                kept = self.kept
                if kept is not None and kept[0] == gkey and np.array_equal(before, kept[1]):
                    buf[r0:r1, c0:c1] = kept[2]
                    self.stale = False
                    return
                whole = buf.copy()
                for m in self.members:
                    if m.get_visible():
                        type(m).draw(m, renderer)
                changed = np.any(whole != buf, axis=-1)
                changed[r0:r1, c0:c1] = False
                # kept only when every pixel drawn lies in the region (else: drawn each time)
                self.kept = (None if changed.any() else
                             (gkey, before, buf[r0:r1, c0:c1].copy()))
                self.stale = False

            def _region(self, renderer):
                """The Agg buffer and the Axes' pixels (rows, columns) and a margin, or
                ``(None, None)`` for another renderer (a savefig, a layout pass)."""
                canvas = _root_figure(self.axes).canvas
                if getattr(canvas, "renderer", None) is not renderer:
                    return None, None
                try:
                    buf = np.asarray(renderer.buffer_rgba())
                except AttributeError:
                    return None, None
                if buf.ndim != 3 or not buf.flags.writeable:
                    return None, None
                box = self.axes.bbox
                h, w = buf.shape[:2]
                m = 3
                r0, r1 = max(int(h - box.y1) - m, 0), min(int(np.ceil(h - box.y0)) + m, h)
                c0, c1 = max(int(box.x0) - m, 0), min(int(np.ceil(box.x1)) + m, w)
                return buf, (r0, r1, c0, c1)

        _STATIC_GROUP = StaticGroup
    order = {id(a): k for k, a in enumerate(ax.get_children())}
    group = _STATIC_GROUP()
    group.members = sorted(members, key=lambda a: (a.get_zorder(), order.get(id(a), 0)))
    group.key, group.kept = key, None
    for m in members:
        m.draw = _no_draw                      # drawn by the group only
    group.set_zorder(min(m.get_zorder() for m in members))
    group.set_in_layout(False)
    group.pooltutor_static = True
    ax.add_artist(group)
    return group


def _no_draw(renderer):
    """The ``draw`` of an artist drawn by a :func:`_static_group`."""


def _cell_grid(ax, canvas, *, edgecolor, linewidth):
    """The cells of a layout panel: one light square per plane (or depth slice) and its
    grid lines, as two collections (gid ``"cells"``, ``"cell-lines"``): 256 squares with
    their own edges cost ~2 ms a redraw."""
    from matplotlib.collections import LineCollection, PolyCollection

    blocks, segments = [], []
    for n in range(canvas.shape[0]):
        for c in range(canvas.shape[1]):
            for d in range(canvas.depth):
                x0, y0 = canvas.xy(n, c, (d, 0, 0)[-len(canvas.spatial):])
                x0, y0 = x0 - 0.5, y0 - 0.5
                x1, y1 = x0 + canvas.width, y0 + canvas.height
                blocks.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
                segments += [[(x0, y0 + i), (x1, y0 + i)] for i in range(canvas.height + 1)]
                segments += [[(x0 + j, y0), (x0 + j, y1)] for j in range(canvas.width + 1)]
    fill = PolyCollection(blocks, facecolors="#f7f7f7", edgecolors="none", zorder=1,
                          gid="cells")
    lines = LineCollection(segments, colors=edgecolor, linewidths=linewidth, zorder=1.01,
                           gid="cell-lines")
    for coll in (fill, lines):
        ax.add_collection(coll, autolim=False)
    return fill, lines


def _glyph_path(text: str, size: float, bold: bool, squeeze: float):
    """The outline of ``text`` at ``size`` points centred on its cell, ``squeeze`` times its
    width (:func:`~pooltutor.viz.glyphs.cell_path`)."""
    from .glyphs import cell_path

    return cell_path((text, size, "center", 0.0, 0.0, bool(bold)), squeeze)


def _text_paths(ax, items, *, squeeze=1.0, bold=False, gid="numbers", zorder=4.0):
    """``items`` (:class:`~pooltutor.viz.style.CellText`, centred on their cells) as one
    ``PathCollection`` (read back with :func:`~pooltutor.viz.style.texts_of`), the glyphs
    ``squeeze`` times their width."""
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Affine2D

    fig = ax.get_figure(root=True) if style._takes_root(ax) else ax.figure
    coll = PathCollection([_glyph_path(t.text, t.size, bold, squeeze) for t in items],
                          offsets=np.array([(t.x, t.y) for t in items], dtype=float)
                          .reshape(-1, 2), offset_transform=ax.transData,
                          transform=Affine2D().scale(1 / 72.0) + fig.dpi_scale_trans,
                          facecolors=[t.color for t in items] or "black", edgecolors="none",
                          linewidths=0, gid=gid, zorder=zorder)
    coll.set_clip_on(False)
    coll.pooltutor_texts = tuple(items)
    ax.add_collection(coll, autolim=False)
    return coll


def _layout_overlays(ax, position, window_cells) -> None:
    """The moving marks of a layout panel, above its static content: the winner cell filled,
    the arrows through it drawn again over the fill (clipped to the cell), the window cells
    outlined, the winner's number in bold black (gid ``"winner-number"``; the static grey
    number lies under the fill) and the winner mark.

    The artists are made once per panel and then moved (``static``): making patches and
    collections costs more than drawing them."""
    from matplotlib.patches import Rectangle

    static = ax._pooltutor_static
    canvas = static["canvas"]
    shown = []
    if position is not None:
        x, y = canvas.xy(position[0], position[1], position[2:])
        fill = static.get("fill")
        if fill is None:
            fill = static["fill"] = _overlay(Rectangle(
                (x - 0.5, y - 0.5), 1, 1, facecolor=style.WINNER_COLOR, edgecolor="none",
                alpha=0.85, zorder=_Z_FILL, gid="winner-fill"))
        fill.set_xy((x - 0.5, y - 0.5))
        shown.append(fill)
        if not static["small"]:     # small cells: only faint jump arrows, left under the fill
            shown += _winner_arrows(ax, static, x, y)
    if window_cells:
        # one collection, kept and moved (``pooltutor_cells``: (row, col) = (y, x))
        cells = [canvas.xy(n, c, pos)[::-1] for n, c, pos in window_cells]
        window = static.get("window")
        if window is None:
            window = static["window"] = _overlay(style.cell_squares(
                ax, cells, "window", facecolors="none", edgecolors=style.WINDOW_COLOR,
                linewidths=1.6, linestyles=[(0, (2, 1.5))], zorder=_Z_WINDOW))
        else:
            window.set_verts([[(j - 0.5, i - 0.5), (j + 0.5, i - 0.5), (j + 0.5, i + 0.5),
                               (j - 0.5, i + 0.5)] for i, j in cells])
            window.pooltutor_cells = tuple((round(i), round(j)) for i, j in cells)
        shown.append(window)
    if position is not None:
        item = static["numbers"].pooltutor_texts[static["where"][tuple(position)]]
        shown.append(_winner_number(ax, static, item))
        mark = static.get("mark")
        if static["small"]:
            # a thin dark outline on the cell's edge: the bold number keeps the whole cell
            if mark is None:
                mark = static["mark"] = _overlay(Rectangle(
                    (x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor=style.RIM_COLOR,
                    linewidth=1.2, zorder=_Z_MARK, gid="winner"))
                ax.add_artist(mark)
            mark.set_xy((x - 0.5, y - 0.5))
        else:
            if mark is None:
                mark = static["mark"] = _overlay(style.mark_cell(ax, (y, x), autolim=False))
                mark.set_zorder(_Z_MARK)
            mark.set_xy((x - 0.42, y - 0.42))             # as style.mark_cell places it
        shown.append(mark)
    _show_only(ax, shown)


def _show_only(ax, artists) -> None:
    """Make ``artists`` the moving marks of ``ax``: kept ones are put back (a plot's
    redraw strips them), the marks not listed are taken off."""
    from matplotlib.collections import Collection

    keep = set(map(id, artists))
    for artist in [a for a in (*ax.patches, *ax.collections, *ax.artists)
                   if getattr(a, "pooltutor_overlay", False) and id(a) not in keep]:
        artist.remove()
    for artist in artists:
        if artist.axes is None:
            box = artist.get_clip_box()     # adding resets it to the Axes' (winner arrows)
            if isinstance(artist, Collection):
                ax.add_collection(artist, autolim=False)
            else:
                ax.add_artist(artist)
            if box is not None:
                artist.set_clip_box(box)


def _winner_number(ax, static, item):
    """The winner's number in bold black over its fill: one kept collection, re-pathed."""
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Affine2D

    coll = static.get("bold")
    path = _glyph_path(item.text, item.size, True, static["squeeze"])
    if coll is None:
        fig = ax.get_figure(root=True) if style._takes_root(ax) else ax.figure
        coll = static["bold"] = _overlay(PathCollection(
            [path], offsets=np.array([(item.x, item.y)], dtype=float),
            offset_transform=ax.transData,
            transform=Affine2D().scale(1 / 72.0) + fig.dpi_scale_trans, facecolors="black",
            edgecolors="none", linewidths=0, gid="winner-number", zorder=_Z_NUMBER))
        coll.set_clip_on(False)
    else:
        coll.set_paths([path])
        coll.set_offsets([(item.x, item.y)])
    coll.pooltutor_texts = (style.CellText(item.text, item.x, item.y, item.size, "black", True,
                                           "winner-number"),)
    return coll


def _winner_arrows(ax, static, x, y) -> list:
    """The arrows through the winner cell at ``(x, y)``, drawn again over its fill and
    clipped to the cell: two kept collections (lines, heads) given the steps near the cell
    (their styles are set again only when the mix of solid and dashed steps changes)."""
    from matplotlib.transforms import Bbox, TransformedBbox

    arrows = static["arrows"]
    if arrows is None:
        return []
    lines, heads, tips, widths, dashes, colors = arrows.pooltutor_style
    ext = static.get("extents")
    if ext is None:     # the lines' control-point boxes (they hold each curve)
        ext = static["extents"] = np.array(
            [(*v.min(axis=0), *v.max(axis=0)) for v in (p.vertices for p in lines)])
    # the lines that may pass through the cell (a head reaches 0.5 past its line)
    keep = np.nonzero((ext[:, 0] <= x + 1) & (ext[:, 2] >= x - 1)
                      & (ext[:, 1] <= y + 1) & (ext[:, 3] >= y - 1))[0].tolist()
    if not keep:
        return []
    # every style of a step follows from whether it joins neighbouring cells
    styles = tuple(arrows.pooltutor_arrows[i][2] for i in keep)
    kept = static.get("winner_arrows")
    if kept is None:
        kept = static["winner_arrows"] = _arrow_collections(
            ax, *([seq[i] for i in keep] for seq in (lines, heads, tips, widths, dashes,
                                                      colors)),
            zorder=_Z_ARROWS, suffix="-winner")
        for coll in kept:
            _overlay(coll)
    else:
        line_coll, head_coll = kept
        line_coll.set_paths([lines[i] for i in keep])
        head_coll.set_paths([heads[i] for i in keep])
        head_coll.set_offsets(np.array([tips[i] for i in keep], dtype=float).reshape(-1, 2))
        if styles != static.get("winner_styles"):
            line_coll.set_edgecolor([colors[i] for i in keep])
            line_coll.set_linewidth([widths[i] for i in keep])
            line_coll.set_linestyle([dashes[i] for i in keep])
            head_coll.set_facecolor([colors[i] for i in keep])
    static["winner_styles"] = styles
    clip = TransformedBbox(Bbox.from_extents(x - 0.5, y - 0.5, x + 0.5, y + 0.5), ax.transData)
    for coll in kept:
        coll.set_clip_box(clip)
    return list(kept)


def _draw_input_panel(ax, result, out_index, position, size, cell_inches=0.4):
    """The plane (n, c): values, padding (hatched, labelled), the window and the winner.

    Drawn for speed (:func:`pooltutor.viz.heatmaps._grid`): one image, the padding cells
    as one hatched collection (gid ``"padding"``), cells past the padded input as one
    collection (gid ``"outside"``), every text (values, padding labels, row / column
    indices, axis names) in one text collection, no axis machinery.
    """
    from .heatmaps import _grid, _index_labels, _tick_range

    x = result.input
    n, c = out_index[:2]
    o = out_index[2:]
    geom = result.geometry
    plane = x[n, c]
    vmin, vmax = style.shared_limits(x)
    pad_taps = result.rules.get("pad_taps", "skip")
    taps = geom.window(o)
    labels = style.TextCollection()
    ax.set_axis_off()
    ax.set_aspect("equal")
    tick = max(5.0, size - 1.5)
    if plane.ndim == 3:
        # depth slices stacked; padding along depth is not drawn (noted in the title)
        depth, height, width = plane.shape
        for d in range(depth):
            _grid(ax, plane[d], vmin=vmin, vmax=vmax, offset=(d * (height + 1), 0),
                  cell_inches=cell_inches, labels=labels)
        info = ax._pooltutor_input = {"plane": (n, c), "extent": None, "rule": None,
                                      "padded": False, "cell_inches": cell_inches}
        info["key"] = _input_key(result, out_index, info)
        _input_overlays(ax, result, out_index, position)
        ax.set_xlim(-0.5, width - 0.5)
        ax.set_ylim(depth * (height + 1) - 1.5, -0.5)
        for d in range(depth):
            for h in range(height):
                labels.add(-0.5, d * (height + 1) + h, f"d{d} h{h}", tick, "#333333",
                           gid="tick", ha="right-center", dx=-3)
        _index_labels(ax, labels, [], _tick_range(0, width), size=tick)
        ax.set_ylim(depth * (height + 1) - 1.5 + (1.6 * tick + 6) / (cell_inches * 72.0), -0.5)
        labels.draw(ax)
        return None
    plane2 = plane[None, :] if plane.ndim == 1 else plane
    pads = [(a.pad_begin, a.pad_end) for a in geom.axes]
    if plane.ndim == 1:
        pads = [(0, 0)] + pads
        tap_rows = (0,)
        tap_cols = taps[0][0]
    else:
        tap_rows, tap_cols = taps[0][0], taps[1][0]
    rows, cols = plane2.shape
    # the canvas: the padded plane, extended to any ceil-mode overhang of this window
    r_lo = min(-pads[0][0], min(tap_rows))
    r_hi = max(rows + pads[0][1], max(tap_rows) + 1)
    c_lo = min(-pads[1][0], min(tap_cols))
    c_hi = max(cols + pads[1][1], max(tap_cols) + 1)
    canvas = np.full((r_hi - r_lo, c_hi - c_lo), np.nan)
    canvas[-r_lo:-r_lo + rows, -c_lo:-c_lo + cols] = plane2
    padding = np.zeros(canvas.shape, dtype=bool)
    padding[-r_lo - pads[0][0]:-r_lo + rows + pads[0][1],
            -c_lo - pads[1][0]:-c_lo + cols + pads[1][1]] = True
    padding[-r_lo:-r_lo + rows, -c_lo:-c_lo + cols] = False
    outside = np.isnan(canvas) & ~padding
    outside[-r_lo:-r_lo + rows, -c_lo:-c_lo + cols] = False      # NaN inputs stay inputs
    written = False
    # outside cells are drawn as a mask of their own (no value written)
    _grid(ax, canvas, vmin=vmin, vmax=vmax, offset=(r_lo, c_lo),
          mask=padding | outside if (padding | outside).any() else None,
          mask_text=None, annotate=max(canvas.shape) <= style.MAX_ANNOTATED,
          cell_inches=cell_inches, labels=labels)
    # the masked cells' collection is rebuilt below: padding and outside apart
    for coll in [co for co in ax.collections if co.get_gid() == "padding"]:
        coll.remove()
    if padding.any():
        style.cell_squares(ax, [(r_lo + i, c_lo + j) for i, j in zip(*np.nonzero(padding),
                                                                      strict=True)],
                           "padding", merged=True, facecolors=style.PAD_COLOR,
                           hatch=style.PAD_HATCH, edgecolors="#9a9a9a", linewidths=0.5,
                           zorder=1.5)
        pad_text = _PAD_TEXT[pad_taps]
        written, pad_size = _pad_text_fits(pad_text, cell_inches)
        if written:
            for i, j in zip(*np.nonzero(padding), strict=True):
                labels.add(c_lo + j, r_lo + i, pad_text, pad_size, "#555555",
                           gid="padding-text")
    if outside.any():
        out_cells = [(r_lo + i, c_lo + j) for i, j in zip(*np.nonzero(outside), strict=True)]
        style.cell_squares(ax, out_cells, "outside", facecolors=style.OUTSIDE_COLOR,
                           edgecolors="#c8c8c8", linestyles=":", linewidths=0.8, zorder=1.5)
        for i, j in out_cells:
            labels.add(j, i, "out", max(4.5, min(size - 3.5, 0.3 * cell_inches * 72)),
                       "#777777", gid="outside-text")
    rule = _PAD_TEXT[pad_taps] if padding.any() and not written else None
    info = ax._pooltutor_input = {"plane": (n, c), "extent": (r_lo, r_hi, c_lo, c_hi),
                                  "rule": rule, "padded": bool(padding.any()),
                                  "cell_inches": cell_inches}
    info["key"] = _input_key(result, out_index, info)
    _input_overlays(ax, result, out_index, position)
    # room inside the Axes for the indices and axis names (texts stay out of the layout)
    cell_pt = cell_inches * 72.0
    left = (0.0 if plane.ndim == 1 else (1.9 * tick + 8 + 1.2 * tick) / cell_pt)
    ax.set_xlim(c_lo - 0.5, c_hi - 0.5)
    ax.set_ylim(r_hi - 0.5, r_lo - 0.5)
    _index_labels(ax, labels, [] if plane.ndim == 1 else _tick_range(r_lo, r_hi),
                  _tick_range(c_lo, c_hi), size=tick)
    ax.set_xlim(c_lo - 0.5 - left, c_hi - 0.5)
    ax.set_ylim(r_hi - 0.5 + (3.2 * tick + 8) / cell_pt, r_lo - 0.5)
    labels.add((c_lo + c_hi - 1) / 2, r_hi - 0.5, "w", tick + 0.5, "#222222", gid="axis-label",
               ha="title", dy=-(2 * tick + 6))
    if plane.ndim == 2:
        labels.add(c_lo - 0.5, (r_lo + r_hi - 1) / 2, "h", tick + 0.5, "#222222",
                   gid="axis-label", ha="right-center", dx=-(1.9 * tick + 8))
    labels.draw(ax)
    # cells too small for the padding rule: the caller puts it in the title
    return rule


def _input_extent(result, out_index) -> tuple[int, int, int, int]:
    """Rows and columns ``(r_lo, r_hi, c_lo, c_hi)`` of a 1-D / 2-D input panel: the padded
    plane, extended to any ceil-mode overhang of the window of ``out_index``."""
    geom = result.geometry
    taps = geom.window(tuple(out_index[2:]))
    pads = [(a.pad_begin, a.pad_end) for a in geom.axes]
    shape = result.input.shape[2:]
    if len(shape) == 1:
        pads, shape = [(0, 0)] + pads, (1,) + tuple(shape)
        tap_rows, tap_cols = (0,), taps[0][0]
    else:
        tap_rows, tap_cols = taps[0][0], taps[1][0]
    return (min(-pads[0][0], min(tap_rows)), max(shape[0] + pads[0][1], max(tap_rows) + 1),
            min(-pads[1][0], min(tap_cols)), max(shape[1] + pads[1][1], max(tap_cols) + 1))


def _pad_text_fits(pad_text: str, cell_inches: float) -> tuple[bool, float]:
    """Whether the padding rule ``pad_text`` is written in padding cells ``cell_inches``
    wide (else the title names it), and its font size."""
    from .heatmaps import cell_font_sizes

    _, pad_size = cell_font_sizes(cell_inches, 1, len(pad_text))
    return 0.62 * pad_size * len(pad_text) <= 0.9 * cell_inches * 72, pad_size


def _input_key(result, out_index, info) -> tuple:
    """What the static part of the input panel (drawn with ``info``: its padding cells and
    cell size) depends on besides the input: the plane, the drawn extent (padded plane
    and any ceil-mode overhang), the pads and, when it is written in the padding cells,
    the padding rule.  Two poolings of one input with the same key draw the same panel."""
    pads = tuple((getattr(a, "pad_begin", 0), getattr(a, "pad_end", 0))
                 for a in result.geometry.axes)
    extent = None if result.input.ndim == 5 else _input_extent(result, out_index)
    pad_text = _PAD_TEXT[result.rules.get("pad_taps", "skip")]
    written = info["padded"] and _pad_text_fits(pad_text, info["cell_inches"])[0]
    return (tuple(out_index[:2]), extent, pads, pad_text if written else None)


def _same_input(a, b) -> bool:
    """Whether two poolings read the same input (the same array, or equal ones)."""
    x, y = a.input, b.input
    if x is y:
        return True
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    return bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))


def _input_overlays(ax, result, out_index, position) -> None:
    """The moving marks of the input panel: the window's cells outlined (gid
    ``"window"``, not clipped: an outline on an edge cell is drawn whole) and the winner.
    Kept in ``ax._pooltutor_input`` and moved (a window of another size gets new outlines)."""
    info = ax._pooltutor_input
    taps = result.geometry.window(tuple(out_index[2:]))
    shape = result.input.shape[2:]
    if len(shape) == 3:
        depth, height, width = shape
        cells = [(d * (height + 1) + h, w)
                 for d in taps[0][0] for h in taps[1][0] for w in taps[2][0]
                 if 0 <= d < depth and 0 <= h < height and 0 <= w < width]
        mark_at = None if position is None else (
            position[2] * (height + 1) + position[3], position[4])
        linewidth, zorder = 2.5, None
    else:
        tap_rows, tap_cols = ((0,), taps[0][0]) if len(shape) == 1 else (taps[0][0],
                                                                           taps[1][0])
        cells = [(r, cc) for r in tap_rows for cc in tap_cols]
        mark_at = None if position is None else (
            (0, position[2]) if len(shape) == 1 else tuple(position[2:]))
        linewidth, zorder = 3, 3
    outlines = info.get("outlines")
    if outlines is None or len(outlines) != len(cells):
        outlines = info["outlines"] = style.outline_cells(ax, cells, label="window",
                                                          linewidth=linewidth, autolim=False)
        for patch in outlines:
            if zorder is not None:
                patch.set_zorder(zorder)
            _overlay(patch)
    else:
        for patch, (i, j) in zip(outlines, cells, strict=True):
            patch.set_xy((j - 0.5, i - 0.5))              # as style.outline_cells places it
    shown = list(outlines)
    if mark_at is not None:
        mark = info.get("mark")
        if mark is None:
            mark = info["mark"] = _overlay(style.mark_cell(ax, mark_at, autolim=False))
        mark.set_xy((mark_at[1] - 0.42, mark_at[0] - 0.42))   # as style.mark_cell places it
        shown.append(mark)
    _show_only(ax, shown)


def _max_pad(result) -> int:
    """The widest padding of any side (0 for adaptive pooling)."""
    return max((max(getattr(a, "pad_begin", 0), getattr(a, "pad_end", 0))
                for a in result.geometry.axes), default=0)


def _layout(shape, n_layouts):
    """Figure size, panel grid, panel and table heights, and the cell size (inches) for a
    tensor ``shape``.  Panels go three to a row, two when they are much wider than tall."""
    rows, cols = _Canvas(shape).extent
    wide = cols > 10 and rows < 0.6 * cols
    ncols = min(2 if wide else 3, n_layouts + 1)
    cell_in = min(0.52, (5.6 if wide else 3.9) / (cols + 0.5), 3.4 / (rows + 1.5))
    panel_w = max(3.8, (cols + 0.5) * cell_in)
    panel_h = (rows + 1.6) * cell_in
    nrows = -(-(n_layouts + 1) // ncols)
    table_h = 0.34 * (n_layouts + 1) + 0.2
    figsize = (max(ncols * panel_w + 0.6, 9.5), nrows * (panel_h + 0.8) + table_h + 0.7)
    return figsize, (nrows, ncols), panel_h, table_h, cell_in


def index_layouts_figsize(input_shape, n_layouts: int = len(INDEX_LAYOUTS), table: bool = True):
    """The figure size (inches) :func:`plot_index_layouts` picks for an input shape.

    >>> index_layouts_figsize((2, 2, 2, 3)), index_layouts_figsize((2, 2, 2, 3), table=False)
    ((12.0, 11.44), (12.0, 9.2))
    """
    (w, h), _, _, table_h, _ = _layout(tuple(input_shape), n_layouts)
    return round(w, 2), round(h - (0 if table else table_h), 2)


def _strip(ax):
    """Remove what a plot drew on ``ax`` (artists, titles, legend), keeping the Axes and the
    artists marked ``pooltutor_static`` (content that its plot rebuilds only when it changes)."""
    for artist in (*ax.patches, *ax.texts, *ax.images, *ax.collections, *ax.lines, *ax.tables,
                   *ax.artists):
        if not getattr(artist, "pooltutor_static", False):
            artist.remove()
    legend = ax.get_legend()
    if legend is not None:
        legend.remove()
    for loc in ("left", "center", "right"):
        ax.set_title("", loc=loc)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.ignore_existing_data_limits = True       # autoscaling follows the new data only


def prepare_figure(fig, key, figsize):
    """The figure to draw on, and its kept Axes when it last showed the same kind of plot.

    A new Figure (constrained layout) when ``fig`` is None.  When ``fig`` last
    drew a plot with the same ``key`` (plot kind and shapes), its Axes are
    stripped and returned for reuse: creating Axes is a large part of a
    redraw, and widget explorers redraw on one persistent figure.  Otherwise
    the figure is cleared and ``None`` returned (build the Axes, then
    :func:`keep_axes`).
    """
    if fig is None:
        from matplotlib.figure import Figure

        return Figure(figsize=figsize, layout="constrained"), None
    kept = getattr(fig, "_pooltutor_axes", None)
    if (getattr(fig, "_pooltutor_key", None) == key and kept
            and all(ax in fig.axes for ax in kept) and len(fig.axes) == len(kept)):
        for ax in kept:
            _strip(ax)
        return fig, kept
    fig.clear()
    if fig.get_layout_engine() is None and hasattr(fig, "set_layout_engine"):
        fig.set_layout_engine("constrained")
    fig._pooltutor_key = key
    fig._pooltutor_axes = None
    return fig, None


def keep_axes(fig, axes):
    """Remember ``axes`` for :func:`prepare_figure`."""
    fig._pooltutor_axes = list(axes)


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


def _out_of_layout(ax):
    """Keep the many cell artists out of the constrained-layout bookkeeping (they sit
    inside the axes limits anyway): a large saving on every redraw."""
    for artist in (*ax.texts, *ax.patches, *ax.collections, *ax.images, *ax.artists):
        artist.set_in_layout(False)


def _params_text(result) -> str:
    g = result.geometry
    if result.op == "adaptive_max":
        return f"adaptive, output_size={_short(g.output_shape)}"

    def pad_text():
        pads = g.pads
        if all(b == e == pads[0][0] for b, e in pads):
            return str(pads[0][0])
        if all(b == e for b, e in pads):
            return _short(tuple(b for b, _ in pads))
        return str(tuple(pads))

    text = (f"kernel={_short(g.kernel)}, stride={_short(g.stride)}, pad={pad_text()}")
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
    element won) and the window's input cells ``(n, c, taps)`` for the layout panels."""
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
        if all(0 <= t < s for t, s in zip(taps, shape[2:], strict=False)):
            window_cells.append((n, c, taps))
    return numbers, position, window_cells


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
        won += f";  padding (hatched): {rule}"
    n, c = out_index[:2]
    return f"plane n={n}, c={c}: {op} window of output {tuple(out_index[2:])}\n{won}"


def _layout_title(lay, number) -> str:
    return f"{lay!r}: winner \u2192 {number}\n{LAYOUT_USERS_SHORT[lay]}"


def _suptitle(result, out_index, position) -> str:
    where = _position_text(position) if position is not None else "no input element (index -1)"
    return (f"Max-pool index layouts: x shape {result.input.shape}, {_params_text(result)}\n"
            f"winner of output {out_index}: {where}")


def plot_index_layouts(x, kernel=None, stride=None, padding=0, dilation=1, *,
                       rounding: str = "floor", pad_taps: str = "skip", out_index=None,
                       layouts=INDEX_LAYOUTS, table: bool = True, fig=None) -> IndexLayoutsPlot:
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
        Drawn on (after ``fig.clear()``); a new Figure by default.

    Returns
    -------
    IndexLayoutsPlot
        The figure, its axes, and the winner's ``numbers`` per layout.

    Notes
    -----
    Each layout panel shows the ``N x C`` planes (``n`` down, ``c`` across)
    with every cell's number in that layout, and arrows from each number to
    the next: solid between neighbouring cells, dashed where the order jumps
    (to the next row, plane or channel).  Where numbers restart (``plane``
    restarts in every plane, ``nhwc`` in every batch entry) each part gets
    its own arrows.  Up to 512 elements are drawn.  In small cells (a 16x16
    plane on a slide-sized figure) the digits are drawn narrower, so that they
    can be taller, the steps between neighbouring cells get no arrow (it
    would cross the numbers; the caption gives the steps) and the winner is
    outlined on its cell's edge, its bold number left whole.

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
    if not isinstance(x, PoolResult):
        arr = np.asarray(x) if not isinstance(x, np.ndarray) else x
        if arr.size > MAX_ELEMENTS:
            raise PoolTutorError(
                f"x has shape {arr.shape} ({arr.size} elements): plot_index_layouts draws every "
                f"element, need at most {MAX_ELEMENTS}"
            )
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
    size = _font(canvas)
    figsize, (nrows, ncols), panel_h, table_h, cell_in = _layout(shape, len(layouts))
    if not isinstance(table, (bool, np.bool_)):
        raise PoolTutorTypeError(f"table={table!r}: need True or False")
    if not table:
        figsize = (figsize[0], figsize[1] - table_h)
    fig, kept = prepare_figure(fig, ("index_layouts", shape, layouts, bool(table)), figsize)
    # a smaller figure (an explorer sized for a slide) gets proportionally smaller text
    shrink = min(1.0, *(float(a) / b for a, b in zip(fig.get_size_inches(), figsize,
                                                       strict=True)))
    size = max(6.0, round(size * shrink, 1))
    cell_pt = cell_in * shrink * 72.0
    # the numbers fit their cells (at most 3 digits: 512 elements)
    digits = len(str(max(int(np.prod(shape)) - 1, 0)))
    # small cells: narrower digits, so that they can be taller in the same width
    squeeze = _SMALL_SQUEEZE if cell_pt < _SMALL_CELL_PT else 1.0
    number_size = round(max(4.5, min(size, 0.92 * cell_pt / (0.6 * digits * squeeze))), 1)
    if kept is None:
        grid = fig.add_gridspec(nrows + bool(table), ncols,
                                height_ratios=[panel_h + 0.8] * nrows + [table_h] * bool(table))
        kept = [fig.add_subplot(grid[0, 0])]
        kept += [fig.add_subplot(grid[k // ncols, k % ncols]) for k in range(1, len(layouts) + 1)]
        if table:
            kept.append(fig.add_subplot(grid[nrows, :]))
        keep_axes(fig, kept)
    input_ax = kept[0]
    # at the top of its slot: its title lines up with the layout panels' titles, and the
    # constrained layout does not depend on the input panel's shape (padding)
    input_ax.set_anchor("N")
    rows_in, cols_in = canvas.extent
    input_cell = cell_pt / 72.0 * (max(rows_in, cols_in) + 1.0) / (max(shape[2:]) + 2.5
                                                                     + 2 * _max_pad(result))
    rule = _draw_input_panel(input_ax, result, out_index, position, size, input_cell)
    # y given: no automatic title placement at each draw (it measures the axis, ~1 ms an
    # Axes; these Axes have no ticks on top, so the title stays at y = 1 anyway)
    input_ax.set_title(_input_title(result, out_index, position, rule), fontsize=size, y=1.0)

    layout_axes = {}
    for k, lay in enumerate(layouts, start=1):
        ax = kept[k]
        nums = layout_numbers(shape, lay)
        _draw_layout_panel(ax, canvas, lay, nums, position, window_cells, number_size,
                           cell_pt, squeeze)
        ax.set_title(_layout_title(lay, numbers[lay]), fontsize=size, color=LAYOUT_COLORS[lay],
                     y=1.0)
        ax.set_xlabel(_steps_text(nums), fontsize=max(size - 1.5, 5.5), color="#444444")
        layout_axes[lay] = ax

    table_ax = None
    if table:
        table_ax = kept[-1]
        _draw_table(table_ax, layouts, numbers, size)
    for ax in (input_ax, *layout_axes.values()):
        _out_of_layout(ax)
    kept_y = fig._suptitle.get_position()[1] if fig._suptitle is not None else None
    fig.suptitle(_suptitle(result, out_index, position), fontsize=size + 1.5)
    if kept_y is not None:
        # where the (possibly frozen) constrained layout put it; fig.suptitle resets y
        fig._suptitle.set_y(kept_y)
    # titles change at every step: laid out and filled from cached word outlines (and the
    # captions too, so that every text of the figure is drawn alike)
    _composed(input_ax.title, *(ax.title for ax in layout_axes.values()), fig._suptitle,
              *(ax.xaxis.label for ax in layout_axes.values()))
    for ax in layout_axes.values():        # "who uses it" does not change: not blitted
        _static_lines(ax, ax.title, {1})
    return IndexLayoutsPlot(fig, input_ax, MappingProxyType(layout_axes), table_ax,
                            MappingProxyType(numbers), position, out_index, result)


def move_index_layouts(plot: IndexLayoutsPlot, out_index, *,
                       result: PoolResult | None = None) -> IndexLayoutsPlot | None:
    """Show another output cell (or another pooling of the same input) on an existing plot:
    only the moving marks (window, winner, its bold number), the titles and the table
    change; nothing else is redrawn and the pooling is not run again.

    ``result`` (optional) is another max pooling of the same input, made with
    ``return_indices=True`` (another kernel, stride, padding rule...): shown instead of
    ``plot.result`` when the input panel stays the same (same padded extent and rule).

    Returns the new :class:`IndexLayoutsPlot`, or None when the cell cannot be shown this
    way (another ``(n, c)`` plane, another input, a window that changes the drawn extent
    of the input panel (ceil mode, other padding) or its padding rule, a figure that has
    drawn something else since): then call :func:`plot_index_layouts`.

    >>> x = np.arange(16.0).reshape(1, 1, 4, 4)
    >>> p = plot_index_layouts(x, 2, 2, out_index=(0, 0))
    >>> q = move_index_layouts(p, (0, 0, 1, 1))
    >>> q.position, q.numbers["plane"], q.input_ax.get_title().splitlines()[1]
    ((0, 0, 3, 3), 15, 'max 15 at (h, w) = (3, 3)')
    >>> r = move_index_layouts(q, (1, 1), result=max_pool(x, 3, 1, return_indices=True))
    >>> r.position, r.figure._suptitle.get_text().splitlines()[0][-43:]
    ((0, 0, 3, 3), "kernel=3, stride=1, pad=0, rounding='floor'")
    """
    old = plot.result
    if result is None:
        result = old
    elif not isinstance(result, PoolResult):
        raise PoolTutorTypeError(f"result={result!r} has type {type(result).__name__}: need a "
                                 f"PoolResult (max pooling with return_indices=True) or None")
    elif result.indices is None or result.input is None:
        raise PoolTutorError(f"result: the PoolResult ({result.op}) has no indices or no "
                             f"input: need a max pooling made with return_indices=True")
    out_index = _check_out_index(out_index, result.output.shape)
    ax = plot.input_ax
    info = getattr(ax, "_pooltutor_input", None)
    layouts = tuple(plot.layout_axes)
    fig = plot.figure
    if (info is None or (result is not old and not _same_input(result, old))
            or info.get("key") != _input_key(result, out_index, info)
            or getattr(fig, "_pooltutor_axes", None) is None
            or any(a not in fig.axes for a in (ax, *plot.layout_axes.values()))
            or any(getattr(a, "_pooltutor_static", None) is None
                   for a in plot.layout_axes.values())):
        return None
    numbers, position, window_cells = _winner(result, out_index, layouts)
    _input_overlays(ax, result, out_index, position)
    if info["rule"] is not None:       # the padding rule, named in the title (not written)
        info["rule"] = _PAD_TEXT[result.rules.get("pad_taps", "skip")]
    ax.title.set_text(_input_title(result, out_index, position, info["rule"]))
    for lay, lax in plot.layout_axes.items():
        _layout_overlays(lax, position, window_cells)
        lax.title.set_text(_layout_title(lay, numbers[lay]))
    if plot.table_ax is not None:
        cells = plot.table_ax.tables[0].get_celld()
        for r, lay in enumerate(layouts, start=1):
            cells[(r, 1)].get_text().set_text(str(numbers[lay]))
    fig._suptitle.set_text(_suptitle(result, out_index, position))
    return IndexLayoutsPlot(fig, ax, plot.layout_axes, plot.table_ax,
                            MappingProxyType(numbers), position, out_index, result)


def index_overlays(plot: IndexLayoutsPlot) -> list:
    """What changes from one output cell to the next (:func:`move_index_layouts`): the
    moving marks of every panel (in drawing order), the titles, the table, the suptitle.
    An explorer redraws only these on a cached background (blitting)."""
    found = []
    for ax in (plot.input_ax, *plot.layout_axes.values()):
        marks = [a for a in ax.get_children() if getattr(a, "pooltutor_overlay", False)]
        found += sorted(marks, key=lambda a: a.get_zorder()) + [ax.title]
    if plot.table_ax is not None:
        found += list(plot.table_ax.tables)
    found.append(plot.figure._suptitle)
    return found


# --------------------------------------------------------------------------- composed texts
# The titles change at every step of an explorer: they are laid out and filled from the
# cached outlines of pooltutor.viz.glyphs (measured on their outlines, a line as high as
# the font whatever its characters: the frozen layout stays right), for ~0.1 ms a new line.

_COMPOSED_TEXT = None


def _composed_text_class():
    """``Text`` measured and drawn through a :class:`~pooltutor.viz.glyphs.MeasuringRenderer`
    (made once, matplotlib imported late)."""
    global _COMPOSED_TEXT
    if _COMPOSED_TEXT is None:
        from matplotlib.text import Text

        from .glyphs import MeasuringRenderer

        class ComposedText(Text):
            """A title laid out and filled from cached word outlines: a new title costs
            ~0.1 ms instead of ~4 ms.  It measures as drawn (ink width, the font's height).

            ``pooltutor_static_lines`` (line numbers): lines that do not change while the
            text is animated (blitted); they are drawn into the background by a
            :func:`_static_lines` companion, and the animated text leaves them out.
            """

            pooltutor_static_lines = frozenset()

            def get_window_extent(self, renderer=None, dpi=None):
                # measured as drawn (layout engines pass the canvas' own renderer)
                if self.get_usetex() or self.get_path_effects():
                    return super().get_window_extent(renderer, dpi)
                if renderer is None and self._renderer is None:
                    renderer = _root_figure(self)._get_renderer()
                return super().get_window_extent(MeasuringRenderer.of(renderer), dpi)

            def draw(self, renderer, *, only=None):
                if renderer is None or self.get_path_effects() or self.get_usetex():
                    return None if only is not None else super().draw(renderer)
                shift = self._overflow(renderer) if self.get_rotation() == 0 else 0.0
                if shift:
                    # wider than its place at the figure's edge (a long title over a narrow
                    # panel): moved in, not cut
                    x, y = self.get_position()
                    trans = self.get_transform()
                    dx, dy = trans.transform((x, y))
                    self.set_x(trans.inverted().transform((dx + shift, dy))[0])
                    try:
                        return self._draw(renderer, only)
                    finally:
                        self.set_x(x)
                return self._draw(renderer, only)

            def _overflow(self, renderer) -> float:
                """How far (pixels) to move the text right (> 0) or left to keep it 2 px
                inside the figure."""
                if not self.get_visible() or not self.get_text():
                    return 0.0
                box = super().get_window_extent(MeasuringRenderer.of(renderer))
                width = _root_figure(self).bbox.width
                if box.x0 < 2 and box.x1 > width - 2:
                    return 0.0                         # wider than the figure: as it is
                return max(0.0, 2 - box.x0) - max(0.0, box.x1 - (width - 2))

            def _draw(self, renderer, only):
                proxy = MeasuringRenderer.of(renderer)
                static = self.pooltutor_static_lines
                if only is None and static and not self.get_animated():
                    # drawn whole: the static lines first, as when blitted (lines that
                    # touch blend in the same order, so the pixels are the same)
                    self.draw(renderer, only=static)
                    only = frozenset(range(self.get_text().count("\n") + 1)) - static
                proxy.line, proxy.only = 0, only
                proxy.skip = static if only is None else frozenset()
                try:
                    return super().draw(proxy)
                finally:
                    proxy.skip, proxy.only = frozenset(), None

        _COMPOSED_TEXT = ComposedText
    return _COMPOSED_TEXT


def _root_figure(artist):
    """The figure holding ``artist`` (``get_figure(root=True)``; matplotlib < 3.10: its
    ``figure``)."""
    try:
        return artist.get_figure(root=True)
    except TypeError:
        return artist.figure


def _composed(*texts) -> None:
    """Draw ``texts`` (``Text`` artists: titles, suptitle) as composed texts."""
    cls = _composed_text_class()
    for text in texts:
        if text is not None and type(text) is not cls:
            text.__class__ = cls


def _static_lines(ax, text, lines) -> None:
    """Draw ``lines`` (line numbers) of the composed ``text`` with the static content of
    ``ax`` while ``text`` is animated (an explorer's blitting): only its other lines are
    then drawn at every step.  Not animated (a plain plot), ``text`` draws every line."""
    from matplotlib.artist import Artist

    text.pooltutor_static_lines = frozenset(lines)
    companion = getattr(ax, "_pooltutor_static_lines", None)
    if companion is None or companion.axes is not ax:

        class StaticLines(Artist):
            def draw(self, renderer):
                owner = self.pooltutor_text
                if owner.get_animated() and owner.get_visible() and renderer is not None:
                    type(owner).draw(owner, renderer, only=owner.pooltutor_static_lines)
                self.stale = False

        companion = ax._pooltutor_static_lines = StaticLines()
        companion.set_in_layout(False)
        companion.pooltutor_static = True         # kept by _strip with the Axes
        ax.add_artist(companion)
    companion.pooltutor_text = text
