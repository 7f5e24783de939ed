"""pooltutor's house style for heatmaps, set in one place.

Every plot in :mod:`pooltutor.viz` draws its grids of cells through
:func:`draw_grid` (the one grid drawer: the only place a cell image is made,
a plain ``imshow(..., interpolation="nearest")`` updated with ``set_data`` /
``set_clim``) and its colours through the constants here, so that input,
padding, windows, winners and outputs look the same in every figure, notebook
and slide.  Many short texts (cell values, indices) are drawn as one
``PathCollection`` of :class:`~matplotlib.textpath.TextPath` outlines
(:class:`TextCollection`) and read back with :func:`texts_of`; only public
matplotlib API is used, and what was drawn is recorded on pooltutor's side
(never as attributes of matplotlib objects).

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

import weakref

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
    "rim_effects",
    "format_value",
    "shared_limits",
    "cell_text_color",
    "cell_text_colors",
    "CellText",
    "TextCollection",
    "texts_of",
    "cell_squares",
    "cells_of",
    "cell_font_sizes",
    "RIM_COLOR",
]

CMAP = "viridis"
PAD_COLOR = "#d9d9d9"        # padding cells: light grey, hatched
PAD_HATCH = "////"
OUTSIDE_COLOR = "#f4f4f4"    # past the padded input (ceil overhang)
WINDOW_COLOR = "#e4572e"     # the window of the current output position
WINNER_COLOR = "#ffd400"     # the winning tap of a max pool
HIGHLIGHT_COLOR = "#e4572e"  # the current output cell
DROPPED_COLOR = "#7f3c8d"    # a window that a rule drops (ceil_torch clip)
WRONG_COLOR = "#a50f15"    # dark red: apart from RIGHT / WINDOW for colour-blind eyes too
RIGHT_COLOR = "#2ca02c"
RIM_COLOR = "#1a1a1a"        # the dark rim of mark_cell: visible on every colour of CMAP
MAX_ANNOTATED = 16
FONT_SIZE = 9
#: the smallest font of a number written in a cell (points)
MIN_CELL_FONT = 7.0


def check_fig(fig) -> None:
    """Refuse a ``fig`` argument that is neither None nor a matplotlib Figure / SubFigure."""
    from matplotlib.figure import FigureBase

    from ..errors import PoolTutorTypeError

    if fig is not None and not isinstance(fig, FigureBase):
        raise PoolTutorTypeError(f"fig={fig!r} has type {type(fig).__name__}: need a "
                                 f"matplotlib Figure (or SubFigure) or None")


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


def cell_text_colors(values, vmin, vmax, cmap=CMAP) -> np.ndarray:
    """:func:`cell_text_color` of every element of ``values`` at once (an array of str).

    >>> cell_text_colors(np.array([0.0, 1.0, np.nan]), 0, 1).tolist()
    ['white', 'black', 'black']
    """
    import matplotlib as mpl

    data = np.asarray(values, dtype=float)
    cmap = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
    t = np.full(data.shape, 0.5) if vmax == vmin else (data - vmin) / (vmax - vmin)
    rgba = cmap(np.clip(np.nan_to_num(t, nan=0.5), 0.0, 1.0))
    luminance = rgba[..., 0] * 0.299 + rgba[..., 1] * 0.587 + rgba[..., 2] * 0.114
    return np.where(~np.isfinite(data) | (luminance > 0.5), "black", "white")


class CellText:
    """One text of a :class:`TextCollection`: read it like a ``Text`` (``get_text()``, ...)."""

    __slots__ = ("text", "x", "y", "size", "color", "bold", "gid")

    def __init__(self, text, x, y, size, color, bold, gid):
        self.text, self.x, self.y, self.size = text, x, y, size
        self.color, self.bold, self.gid = color, bold, gid

    def get_text(self) -> str:
        return self.text

    def get_gid(self) -> str:
        return self.gid

    def get_position(self) -> tuple[float, float]:
        return self.x, self.y

    def get_fontsize(self) -> float:
        return self.size

    def get_fontweight(self) -> str:
        return "bold" if self.bold else "normal"

    def get_color(self):
        return self.color

    def __repr__(self) -> str:
        return f"CellText({self.text!r}, x={self.x}, y={self.y}, gid={self.gid!r})"


#: TextPath outlines by (text, size, bold), and aligned outlines by their full key
_TEXT_PATHS: dict = {}
_ALIGNED: dict = {}
_CACHE_LIMIT = 8192
#: what each drawn TextCollection / cell_squares collection holds (pooltutor's records,
#: keyed by the matplotlib collection, forgotten with it)
_RECORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_CELLS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _text_path(text: str, size: float, bold: bool):
    """The :class:`~matplotlib.textpath.TextPath` of ``text`` (points, baseline at 0), cached."""
    key = (text, size, bold)
    path = _TEXT_PATHS.get(key)
    if path is None:
        from matplotlib.font_manager import FontProperties
        from matplotlib.textpath import TextPath

        from matplotlib.path import Path

        if len(_TEXT_PATHS) > _CACHE_LIMIT:
            _TEXT_PATHS.clear()
        if not text.strip():
            # nothing to outline (and matplotlib 3.11's TextPath fails on an empty string)
            path = _TEXT_PATHS[key] = Path(np.empty((0, 2)))
        else:
            path = _TEXT_PATHS[key] = TextPath(
                (0, 0), text, size=size,
                prop=FontProperties(weight="bold" if bold else "normal"))
    return path


def _aligned_path(key):
    """The outline of ``key = (text, size, ha, dy, dx, bold)`` placed around the anchor
    (points), cached."""
    path = _ALIGNED.get(key)
    if path is None:
        from matplotlib.path import Path

        text, size, ha, dy, dx, bold = key
        raw = _text_path(text, size, bold)
        ext = raw.get_extents() if len(raw.vertices) else None
        x0, x1 = (ext.x0, ext.x1) if ext is not None else (0.0, 0.0)
        digit = _text_path("0", size, bold).get_extents()
        if ha in ("center", "title"):
            sx = -(x0 + x1) / 2
        elif ha in ("right", "right-center"):
            sx = -x1
        else:
            sx = 0.0
        sy = -(digit.y0 + digit.y1) / 2 if ha in ("center", "right-center") else 0.0
        if len(_ALIGNED) > _CACHE_LIMIT:
            _ALIGNED.clear()
        verts = raw.vertices + (sx + dx, sy + dy)
        # an empty text has no outline (matplotlib 3.11's TextPath gives codes as a list)
        codes = None if raw.codes is None or not len(raw.vertices) else raw.codes
        path = _ALIGNED[key] = Path(verts.reshape(-1, 2), codes)
    return path


def _text_collection_class():
    from matplotlib.collections import PathCollection
    from matplotlib.path import get_path_collection_extents
    from matplotlib.transforms import Bbox

    class TextPathCollection(PathCollection):
        """A ``PathCollection`` of text outlines sized in points at data anchors, whose
        window extent is that of its glyphs (a plain one reports only its anchors, so a
        tight ``savefig`` or a layout engine would cut the texts)."""

        def get_window_extent(self, renderer=None):
            paths = self.get_paths()
            if not len(paths):
                return Bbox.null()
            return get_path_collection_extents(self.get_transform(), paths, [],
                                               self.get_offsets(), self.get_offset_transform())

    return TextPathCollection


_CLASSES: dict = {}


class TextCollection:
    """Many short texts (cell values, indices, labels) drawn as one ``PathCollection``.

    Each text is a :class:`~matplotlib.textpath.TextPath` outline (cached by
    text, size and weight), all of them filled in one collection; sizes are in
    points and follow the figure's dpi (PNG exports at another dpi stay
    right), and the collection reports the extent of its glyphs (so tight
    saves and layout engines keep them).  What was drawn is read back with
    :func:`texts_of` (:class:`CellText` records).

    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> labels = TextCollection()
    >>> labels.add(0, 0, "12", 9, gid="value")
    >>> labels.add(1, 0, "skip", 8, "#555555", gid="padding-text")
    >>> coll = labels.draw(ax)
    >>> [t.get_text() for t in texts_of(ax, "value")], len(coll.get_paths())
    (['12'], 2)
    """

    def __init__(self):
        self.items: list[CellText] = []
        self._keys: list[tuple] = []

    def __len__(self) -> int:
        return len(self.items)

    def add(self, x: float, y: float, text: str, size: float, color="black", *,
            gid: str = "value", ha: str = "center", dy: float = 0.0, dx: float = 0.0,
            bold: bool = False) -> None:
        """``text`` at data ``(x, y)``: centred on it (``ha="center"``: the height of a digit
        centred), starting or ending there on its baseline (``ha="left"`` / ``"right"``),
        or centred on its baseline (``ha="title"``); ``ha="right-center"`` ends there with
        a digit's height centred; then moved ``dx`` points right and ``dy`` points up."""
        if ha not in ("center", "left", "right", "title", "right-center"):
            raise ValueError(f"ha={ha!r} is not allowed: need 'center', 'left', 'right', "
                             f"'title' or 'right-center'")
        self.items.append(CellText(str(text), x, y, size, color, bool(bold), gid))
        self._keys.append((str(text), round(float(size), 2), ha, float(dy), float(dx),
                           bool(bold)))

    @staticmethod
    def glyphs(key):
        """The (cached) outline of ``key = (text, size, ha, dy, dx, bold)``, in points."""
        return _aligned_path(key)

    def draw(self, ax, *, gid: str = "cell-labels", zorder: float = 6, clip: bool = False):
        """Add the texts to ``ax`` as one ``PathCollection`` (data coordinates) and return it."""
        from matplotlib.transforms import Affine2D

        cls = _CLASSES.get("text") or _CLASSES.setdefault("text", _text_collection_class())
        fig = ax.get_figure(root=True) if _takes_root(ax) else ax.figure
        coll = cls([self.glyphs(k) for k in self._keys],
                   offsets=np.array([(t.x, t.y) for t in self.items], dtype=float)
                   .reshape(-1, 2),
                   offset_transform=ax.transData,
                   transform=Affine2D().scale(1 / 72.0) + fig.dpi_scale_trans,
                   facecolors=[t.color for t in self.items] or "black",
                   edgecolors="none", linewidths=0, gid=gid, zorder=zorder)
        coll.set_clip_on(clip)
        _RECORDS[coll] = tuple(self.items)
        ax.add_collection(coll, autolim=False)
        return coll


def _takes_root(ax) -> bool:
    import inspect

    return "root" in inspect.signature(ax.get_figure).parameters


def texts_of(ax, gid: str | None = None) -> list:
    """The texts drawn on ``ax`` with gid ``gid`` (all when None): ``Text`` artists and the
    :class:`CellText` records of every :class:`TextCollection`, in drawing order."""
    found = []
    for artist in ax.get_children():
        items = _RECORDS.get(artist)
        if items is not None:
            found += [t for t in items if gid is None or t.gid == gid]
        elif artist in ax.texts and (gid is None or artist.get_gid() == gid):
            found.append(artist)
    return found


def cells_of(collection) -> tuple:
    """The ``(row, col)`` cells of a :func:`cell_squares` collection (``()`` for another)."""
    return _CELLS.get(collection, ())


def cell_squares(ax, cells, gid: str, *, half: float = 0.5, merged: bool = False, **kw):
    """Squares centred on ``cells`` (``(row, col)`` pairs) as one collection.

    Draws any number of cells for the cost of one artist; ``kw`` are
    collection properties (``facecolors``, ``edgecolors``, ``hatch``, ...).
    With ``merged`` the squares are one compound path: a hatch is then laid
    once over the whole region.  The centres are read back with :func:`cells_of`.

    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> c = cell_squares(ax, [(0, 0), (0, 1)], "padding", merged=True, hatch=PAD_HATCH)
    >>> cells_of(c), len(c.get_paths()), c.get_hatch()
    (((0, 0), (0, 1)), 1, '////')
    """
    from matplotlib.collections import PathCollection, PolyCollection
    from matplotlib.path import Path

    cells = [(float(i), float(j)) for i, j in cells]
    verts = [[(j - half, i - half), (j + half, i - half), (j + half, i + half),
              (j - half, i + half)] for i, j in cells]
    if merged:
        square = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
        path = Path(np.array([v + [v[0]] for v in verts], dtype=float).reshape(-1, 2),
                    square * len(verts))
        coll = PathCollection([path], gid=gid, transform=ax.transData, **kw)
    else:
        coll = PolyCollection(verts, gid=gid, **kw)
    _CELLS[coll] = tuple((round(i), round(j)) for i, j in cells)
    ax.add_collection(coll, autolim=False)
    return coll


def cell_font_sizes(cell_inches: float, longest: int, pad_len: int = 1) -> tuple[float, float]:
    """Font sizes (value, padding label) for cells ``cell_inches`` wide: about a third of a
    cell high, never wider than the cell, never under 7 pt (legible in a notebook).

    >>> [round(v, 2) for v in cell_font_sizes(0.5, 2, 4)]
    [13.68, 10.8]
    """
    cell_pt = cell_inches * 72.0
    size = max(MIN_CELL_FONT, min(0.38 * cell_pt, 0.9 * cell_pt / (0.62 * max(longest, 1)), 18.0))
    pad = max(MIN_CELL_FONT, min(0.3 * cell_pt, 0.85 * cell_pt / (0.62 * max(pad_len, 1)), 13.0))
    return size, pad


def _bad_white(cmap):
    import matplotlib as mpl

    if not isinstance(cmap, str):
        return cmap
    made = _CMAPS.get(cmap)
    if made is None:
        made = _CMAPS[cmap] = mpl.colormaps[cmap].with_extremes(bad="#ffffff")
    return made


_CMAPS: dict = {}


def draw_grid(ax, values, *, vmin=None, vmax=None, offset=(0, 0), annotate=None, cmap=CMAP,
              mask=None, mask_color=PAD_COLOR, mask_hatch=PAD_HATCH, mask_text=None,
              blank=None, labels=None, cell_inches=None, image=None, ticks=True):
    """Draw a 2-D array as a heatmap whose cell ``(i, j)`` sits at ``(i + offset[0], j + offset[1])``.

    The one grid drawer of :mod:`pooltutor.viz`.  The cells are one plain
    ``ax.imshow(..., interpolation="nearest")`` (NaN and blank cells white);
    with ``image`` (an image this function made on ``ax`` before) that image is
    given the new data with ``set_data`` / ``set_extent`` / ``set_clim`` instead.

    Parameters
    ----------
    values : array, 1-D (one row) or 2-D
    vmin, vmax : float, optional
        Colour limits (default: the finite values' range).
    offset : (int, int)
        Data coordinates of cell ``(0, 0)``.
    annotate : bool, optional
        Write the values in the cells (default: at most :data:`MAX_ANNOTATED` per side).
    mask : bool array, optional
        Padding cells: grey, hatched (one collection, gid ``"padding"``), with
        ``mask_text`` written in them (gid ``"padding-text"``).
    blank : bool array, optional
        Cells drawn empty (white, nothing written): not computed yet.
    labels : TextCollection, optional
        Collects the texts (values gid ``"value"``); by default they are drawn
        here as one collection.
    cell_inches : float, optional
        The size of a cell on the figure: the font sizes follow it
        (:func:`cell_font_sizes`); default 9 pt (7 pt past 8 cells a side).
    ticks : bool
        Set the axis ticks to the cell indices (small labels, no tick marks,
        no spines).

    Returns the ``AxesImage``.

    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> im = draw_grid(ax, np.arange(4.0).reshape(2, 2), blank=[[False, False], [False, True]])
    >>> [t.get_text() for t in texts_of(ax, "value")], im.get_interpolation()
    (['0', '1', '2'], 'nearest')
    """
    values = np.asarray(values)
    if values.ndim == 1:
        values = values[None, :]
    rows, cols = values.shape
    data = values.astype(float)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool).reshape(rows, cols)
    if blank is not None:
        blank = np.asarray(blank, dtype=bool).reshape(rows, cols)
    if vmin is None or vmax is None:
        lo, hi = shared_limits(data if mask is None else data[~mask])
        vmin = lo if vmin is None else vmin
        vmax = hi if vmax is None else vmax
    hidden = ~np.isfinite(data)
    for m in (mask, blank):
        if m is not None:
            hidden = hidden | m
    shown = np.ma.array(np.where(hidden, 0.0, data), mask=hidden)
    r0, c0 = offset
    extent = (c0 - 0.5, c0 + cols - 0.5, r0 + rows - 0.5, r0 - 0.5)
    if image is None:
        image = ax.imshow(shown, cmap=_bad_white(cmap), vmin=vmin, vmax=vmax, extent=extent,
                          interpolation="nearest")
    else:
        image.set_data(shown)
        image.set_extent(extent)
        image.set_clim(vmin, vmax)
    if mask is not None and mask.any():
        cell_squares(ax, [(r0 + i, c0 + j) for i, j in zip(*np.nonzero(mask))], "padding",
                     merged=True, facecolors=mask_color, hatch=mask_hatch,
                     edgecolors="#9a9a9a", linewidths=0.5, zorder=1.5)
    if annotate is None:
        annotate = max(rows, cols) <= MAX_ANNOTATED
    own = labels is None
    if annotate:
        labels = TextCollection() if own else labels
        texts = [[format_value(v) for v in row] for row in
                 (values.tolist() if values.dtype.kind in "iub" else values)]
        if cell_inches is None:
            size = FONT_SIZE if max(rows, cols) <= 8 else MIN_CELL_FONT
            pad_size = size - 1 if size > MIN_CELL_FONT else size
        else:
            longest = max((len(t) for row in texts for t in row), default=1)
            size, pad_size = cell_font_sizes(cell_inches, longest, len(mask_text or "x"))
        colors = cell_text_colors(data, vmin, vmax, cmap)
        for i in range(rows):
            for j in range(cols):
                if mask is not None and mask[i, j]:
                    if mask_text:
                        labels.add(c0 + j, r0 + i, mask_text, pad_size, "#555555",
                                   gid="padding-text")
                elif blank is None or not blank[i, j]:
                    labels.add(c0 + j, r0 + i, texts[i][j], size, colors[i, j], gid="value")
        if own:
            labels.draw(ax)
    if ticks:
        ax.set_xticks(range(c0, c0 + cols))
        ax.set_yticks(range(r0, r0 + rows))
        ax.tick_params(length=0, labelsize=FONT_SIZE - 1)
        for spine in ax.spines.values():
            spine.set_visible(False)
    ax.set_xlim(c0 - 0.5, c0 + cols - 0.5)
    ax.set_ylim(r0 + rows - 0.5, r0 - 0.5)
    return image


def outline_cells(ax, cells, *, color=WINDOW_COLOR, linewidth=2.5, linestyle="-", gid="window",
                  fill_alpha=0.0, label=None, autolim=True, zorder=3.5):
    """Draw one square outline per ``(row, col)`` in ``cells`` (dilated taps stay separate).

    ``autolim=False`` leaves the data limits alone (cheaper, for Axes whose limits are set).
    ``zorder`` 3.5 puts them over the cells, their padding and their texts' background.
    The outlines are not clipped to the Axes: a cell on the edge of the drawn grid keeps
    the outer half of its line (draw only cells inside the limits).

    >>> from matplotlib.figure import Figure
    >>> [p.get_clip_on() for p in outline_cells(Figure().add_subplot(), [(0, 0)])]
    [False]
    """
    from matplotlib.patches import Rectangle

    patches = []
    for k, (i, j) in enumerate(cells):
        patch = Rectangle((j - 0.5, i - 0.5), 1, 1, fill=fill_alpha > 0, facecolor=color,
                          alpha=None if fill_alpha == 0 else fill_alpha, edgecolor=color,
                          linewidth=linewidth, linestyle=linestyle, gid=gid,
                          label=label if k == 0 else None, clip_on=False, zorder=zorder)
        if fill_alpha:
            patch.set_edgecolor(color)
        if autolim:
            ax.add_patch(patch)
        else:
            ax.add_artist(patch)
        patches.append(patch)
    return patches


def rim_effects(linewidth: float = 3.5):
    """Path effects drawing a dark rim on both sides of a line of ``linewidth`` points."""
    from matplotlib import patheffects

    return [patheffects.Stroke(linewidth=linewidth + 2.5, foreground=RIM_COLOR),
            patheffects.Normal()]


def mark_cell(ax, cell, *, color=WINNER_COLOR, gid="winner", label=None, linewidth=3.5,
              autolim=True, half: float = 0.42):
    """Mark one cell strongly (the winner of a max pool, the current output cell).

    The square always has a dark rim on both sides (:func:`rim_effects`), so
    that the yellow winner mark stays visible on the yellow end of viridis.
    ``autolim=False`` leaves the data limits alone (for Axes whose limits are set).
    ``half`` is half the square's side in cells: 0.42 sits inside the cell, 0.5 on its
    edges (for small cells whose text fills them).

    >>> from matplotlib.figure import Figure
    >>> p = mark_cell(Figure().add_subplot(), (1, 2))
    >>> p.get_gid(), (p.get_x(), p.get_y()), len(p.get_path_effects())
    ('winner', (1.58, 0.5800000000000001), 2)
    """
    from matplotlib.patches import Rectangle

    i, j = cell
    patch = Rectangle((j - half, i - half), 2 * half, 2 * half, fill=False, edgecolor=color,
                      linewidth=linewidth, gid=gid, label=label, zorder=5,
                      path_effects=rim_effects(linewidth))
    if autolim:
        ax.add_patch(patch)
    else:                       # the limits are set: no data-limit update (cheaper)
        ax.add_artist(patch)
    return patch


