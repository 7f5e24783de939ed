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
    "rim_effects",
    "format_value",
    "shared_limits",
    "cell_text_color",
    "cell_text_colors",
    "CellText",
    "TextCollection",
    "texts_of",
    "cell_squares",
    "RIM_COLOR",
    "GlyphText",
    "glyph_texts",
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
RIM_COLOR = "#1a1a1a"        # the dark rim of mark_cell: visible on every colour of CMAP
MAX_ANNOTATED = 16
FONT_SIZE = 9


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


class TextCollection:
    """Many short texts (cell values, indices, labels) drawn as one ``PathCollection``.

    Every ``Text`` artist is laid out and rasterised glyph by glyph at each
    redraw: hundreds of them cost most of a heatmap's redraw.  Here each
    distinct string is turned into a glyph outline once (cached across
    figures) and all of them are filled in one call, which costs about as
    much as a single ``Text``.  Sizes are in points and follow the figure's
    dpi (PNG exports at another dpi stay right).  The drawn collection keeps
    its :class:`CellText` records: read them with :func:`texts_of`.

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
        self.items.append(CellText(text, x, y, size, color, bool(bold), gid))
        self._keys.append((text, round(float(size), 1), ha, float(dy), float(dx), bool(bold)))

    @staticmethod
    def glyphs(key):
        """The (cached) outline of ``key = (text, size, ha, dy, dx, bold)``, in points
        (:func:`pooltutor.viz.glyphs.cell_path`)."""
        from .glyphs import cell_path

        return cell_path(key)

    def draw(self, ax, *, gid: str = "cell-labels", zorder: float = 6, clip: bool = False):
        """Add the texts to ``ax`` as one ``PathCollection`` (data coordinates) and return it."""
        from matplotlib.collections import PathCollection
        from matplotlib.transforms import Affine2D

        fig = ax.get_figure(root=True) if _takes_root(ax) else ax.figure
        coll = PathCollection([self.glyphs(k) for k in self._keys],
                              offsets=np.array([(t.x, t.y) for t in self.items], dtype=float)
                              .reshape(-1, 2),
                              offset_transform=ax.transData,
                              transform=Affine2D().scale(1 / 72.0) + fig.dpi_scale_trans,
                              facecolors=[t.color for t in self.items] or "black",
                              edgecolors="none", linewidths=0, gid=gid, zorder=zorder)
        coll.set_clip_on(clip)
        coll.pooltutor_texts = tuple(self.items)
        ax.add_collection(coll, autolim=False)
        return coll


def __getattr__(name):
    # the text engine lives in pooltutor.viz.glyphs (imported on first use: matplotlib)
    if name in ("GlyphText", "glyph_texts", "_figure_texts"):
        from . import glyphs

        value = {"GlyphText": glyphs.GlyphText, "glyph_texts": glyphs.glyph_texts,
                 "_figure_texts": glyphs.figure_texts}[name]
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _takes_root(ax) -> bool:
    import inspect

    return "root" in inspect.signature(ax.get_figure).parameters


def texts_of(ax, gid: str | None = None) -> list:
    """The texts drawn on ``ax`` with gid ``gid`` (all when None): ``Text`` artists and the
    :class:`CellText` records of every :class:`TextCollection`, in drawing order."""
    found = []
    for artist in ax.get_children():
        items = getattr(artist, "pooltutor_texts", None)
        if items is not None:
            found += [t for t in items if gid is None or t.gid == gid]
        elif hasattr(artist, "get_text") and hasattr(artist, "get_gid") and (
                gid is None or artist.get_gid() == gid) and artist in ax.texts:
            found.append(artist)
    return found


def cell_squares(ax, cells, gid: str, *, half: float = 0.5, merged: bool = False, **kw):
    """Squares centred on ``cells`` (``(row, col)`` pairs) as one collection.

    Draws any number of cells for the cost of one artist; ``kw`` are
    collection properties (``facecolors``, ``edgecolors``, ``hatch``, ...).
    With ``merged`` the squares are one compound path: a hatch is then laid
    once over the whole region (hatching each square apart costs ~0.3 ms a
    square).  The centres are kept as ``coll.pooltutor_cells``.

    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> c = cell_squares(ax, [(0, 0), (0, 1)], "padding", merged=True, hatch=PAD_HATCH)
    >>> c.pooltutor_cells, len(c.get_paths()), c.get_hatch()
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
    coll.pooltutor_cells = tuple((round(i), round(j)) for i, j in cells)
    ax.add_collection(coll, autolim=False)
    return coll


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
                  fill_alpha=0.0, label=None, autolim=True):
    """Draw one square outline per ``(row, col)`` in ``cells`` (dilated taps stay separate).

    ``autolim=False`` leaves the data limits alone (cheaper, for Axes whose limits are set).
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
                          label=label if k == 0 else None, clip_on=False)
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


#: resampled heatmap images by everything that decides their pixels (see :func:`cache_images`)
_IMAGE_CACHE: dict = {}
_IMAGE_CACHE_SIZE = 24


def _image_key(image, renderer, magnification, unsampled):
    """Everything :meth:`AxesImage.make_image` reads, or None when it cannot be keyed."""
    trans = image.get_transform()
    data = image.get_array()
    if data is None or not trans.is_affine or image.get_figure(root=True) is None:
        return None
    clip = ((image.get_clip_box() or image.axes.bbox) if image.get_clip_on()
            else image.get_figure(root=True).bbox)
    norm, cmap = image.norm, image.get_cmap()
    mask = np.ma.getmaskarray(data)
    return (np.asarray(data).tobytes(), mask.tobytes(), data.shape, str(data.dtype),
            type(norm).__name__, norm.vmin, norm.vmax, norm.clip,
            cmap.name, cmap.N, tuple(cmap.get_bad()), tuple(cmap.get_over()),
            tuple(cmap.get_under()), image.get_alpha(), image.get_interpolation(),
            image.get_interpolation_stage(), image.get_resample(), image.get_filternorm(),
            image.get_filterrad(), image.origin, tuple(image.get_extent()),
            trans.get_matrix().tobytes(), tuple(clip.bounds), renderer.width, renderer.height,
            float(magnification), bool(unsampled))


def _cached_make_image(image, renderer, magnification=1.0, unsampled=False):
    from matplotlib.image import AxesImage

    key = _image_key(image, renderer, magnification, unsampled)
    if key is None:
        return AxesImage.make_image(image, renderer, magnification, unsampled)
    hit = _IMAGE_CACHE.pop(key, None)
    if hit is None:
        hit = AxesImage.make_image(image, renderer, magnification, unsampled)
        if hit[0] is not None:
            hit = (hit[0].copy(), *hit[1:])           # the drawing may write into its copy
    _IMAGE_CACHE[key] = hit                           # most recent last
    while len(_IMAGE_CACHE) > _IMAGE_CACHE_SIZE:
        del _IMAGE_CACHE[next(iter(_IMAGE_CACHE))]
    return hit if hit[0] is None else (hit[0].copy(), *hit[1:])


def cache_images(fig) -> int:
    """Let the heatmap images of ``fig`` reuse their last resampled pixels: an image whose
    data, colours, extent, placement and clip are those of an earlier draw (an explorer's
    unchanged input panel, redrawn after a parameter change) skips the resampling and
    colour mapping.  Same pixels.  Returns how many images were switched.

    >>> from matplotlib.figure import Figure
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> fig = Figure(figsize=(1, 1), dpi=20)
    >>> _ = FigureCanvasAgg(fig)
    >>> _ = fig.add_subplot().imshow(np.arange(4.0).reshape(2, 2))
    >>> cache_images(fig), cache_images(fig)
    (1, 0)
    """
    from matplotlib.image import AxesImage

    count = 0
    for ax in fig.axes:
        for image in ax.images:
            if type(image) is AxesImage and "make_image" not in vars(image):
                image.make_image = _cached_make_image.__get__(image)
                count += 1
    return count


def _paste_kept(buf, kept, artist) -> bool:
    """Paste the pixels ``artist`` drew last time (``kept = (key, (r0, r1, c0, c1), before,
    after)``) into the canvas buffer ``buf``, only when the pixels under it are ``before``
    again, the same as at that draw; True when pasted (the artist is then up to date)."""
    (r0, r1, c0, c1), before, after = kept[1:]
    region = buf[r0:r1, c0:c1]
    if not np.array_equal(region, before):
        return False
    region[...] = after
    artist.stale = False
    return True


def _cached_legend_draw(legend, renderer):
    """``Legend.draw``, or its pixels of the last draw when nothing it depends on changed."""
    from matplotlib.legend import Legend

    try:
        buf = np.asarray(renderer.buffer_rgba())
    except AttributeError:                          # not an Agg renderer
        return Legend.draw(legend, renderer)
    if not legend.get_visible() or buf.ndim != 3 or not buf.flags.writeable:
        return Legend.draw(legend, renderer)
    key = (renderer.width, renderer.height, renderer.dpi,
           tuple(t.get_text() for t in legend.texts), tuple(map(str, legend.legend_handles)),
           legend._loc, tuple(legend.get_bbox_to_anchor().bounds))
    kept = getattr(legend, "_pooltutor_pixels", None)
    if kept is not None and kept[0] == key and _paste_kept(buf, kept, legend):
        return None
    box = legend.get_window_extent(renderer)
    m = 4                                           # anti-aliasing and rims reach past the box
    h, w = buf.shape[:2]
    r0, r1 = max(int(h - box.y1) - m, 0), min(int(np.ceil(h - box.y0)) + m, h)
    c0, c1 = max(int(box.x0) - m, 0), min(int(np.ceil(box.x1)) + m, w)
    before = buf[r0:r1, c0:c1].copy()
    Legend.draw(legend, renderer)
    legend._pooltutor_pixels = (key, (r0, r1, c0, c1), before, buf[r0:r1, c0:c1].copy())
    return None


def cache_legends(fig) -> int:
    """Let the legends of ``fig`` paste their pixels of the last draw instead of laying out
    and drawing their entries again (an explorer keeps its legend while the entries stay):
    only when the canvas, the entries and the pixels under the legend are those of that
    draw, so the picture is the same.  Returns how many legends were switched.

    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(2, 1), dpi=40)
    >>> _ = fig.add_subplot().plot([0, 1], label="a line")
    >>> _ = fig.legend()
    >>> cache_legends(fig), cache_legends(fig)
    (1, 0)
    """
    count = 0
    for legend in fig.legends:
        if "draw" not in vars(legend):
            legend.draw = _cached_legend_draw.__get__(legend)
            count += 1
    return count


def _text_props(text) -> tuple:
    return (text.get_text(), text.get_visible(), text.get_fontsize(), text.get_color(),
            text.get_rotation(), text.get_fontweight(), tuple(text.get_fontfamily()),
            text.get_ha(), text.get_va(), text.get_alpha())


def _axis_key(axis, renderer):
    """Everything an ``Axis`` draw depends on, or None when it cannot be keyed (shared axes,
    non-linear scales)."""
    ax = axis.axes
    if (axis.get_scale() != "linear" or not ax.axison
            or any(len(g.get_siblings(ax)) > 1 for g in ax._shared_axes.values())):
        return None
    major, minor = axis.get_majorticklocs(), axis.get_minorticklocs()
    ticks = [t for t in (axis.majorTicks[:1] + axis.minorTicks[:1])]
    return (renderer.width, renderer.height, renderer.dpi, tuple(ax.bbox.bounds),
            tuple(axis.get_view_interval()), tuple(major), tuple(minor),
            tuple(axis.major.formatter.format_ticks(major)),
            tuple(axis.minor.formatter.format_ticks(minor)), axis.major.formatter.get_offset(),
            repr(sorted(axis._major_tick_kw.items())), repr(sorted(axis._minor_tick_kw.items())),
            _text_props(axis.label), axis.labelpad, axis.label_position,
            tuple(axis.label.get_position()), _text_props(axis.offsetText),
            tuple((_text_props(t.label1), _text_props(t.label2), t.tick1line.get_visible(),
                   t.tick2line.get_visible(), t.tick1line.get_markersize(),
                   t.tick1line.get_markeredgewidth(), t.tick1line.get_color(),
                   t.gridline.get_visible()) for t in ticks))


def _cached_axis_draw(axis, renderer):
    """``Axis.draw``, or its pixels of the last draw when nothing it depends on changed."""
    cls = type(axis)
    try:
        buf = np.asarray(renderer.buffer_rgba())
    except AttributeError:                          # not an Agg renderer
        return cls.draw(axis, renderer)
    canvas = axis.get_figure(root=True).canvas
    if getattr(canvas, "renderer", None) is not renderer:   # a layout pass, not the picture
        return cls.draw(axis, renderer)
    key = _axis_key(axis, renderer) if axis.get_visible() else None
    if key is None or buf.ndim != 3 or not buf.flags.writeable:
        return cls.draw(axis, renderer)
    kept = getattr(axis, "_pooltutor_pixels", None)
    if kept is None or kept[0] != key:              # new ticks: drawn; kept from the next draw
        axis._pooltutor_pixels = (key, None)
        return cls.draw(axis, renderer)
    if kept[1] is False:                            # its pixels changed under it: not kept
        return cls.draw(axis, renderer)
    if kept[1] is not None:
        if _paste_kept(buf, kept, axis):
            return None
        axis._pooltutor_pixels = (key, False)       # what it covers changes: stop trying
        return cls.draw(axis, renderer)
    # the second draw with these ticks: the region: the pixels this draw changed, and a margin (compared before pasting)
    before_all = buf.copy()
    cls.draw(axis, renderer)
    changed = np.any(before_all != buf, axis=-1)
    rows, cols = np.nonzero(changed.any(axis=1))[0], np.nonzero(changed.any(axis=0))[0]
    if not len(rows):                               # draws nothing (no ticks, no label)
        empty = buf[:0, :0].copy()
        axis._pooltutor_pixels = (key, (0, 0, 0, 0), empty, empty)
        return None
    m = 6
    h, w = buf.shape[:2]
    r0, r1 = max(rows[0] - m, 0), min(rows[-1] + 1 + m, h)
    c0, c1 = max(cols[0] - m, 0), min(cols[-1] + 1 + m, w)
    axis._pooltutor_pixels = (key, (r0, r1, c0, c1), before_all[r0:r1, c0:c1].copy(),
                              buf[r0:r1, c0:c1].copy())
    return None


def cache_axis_ticks(fig) -> int:
    """Let the x and y axes (ticks, tick labels, axis labels) of ``fig``'s Axes paste their
    pixels of the last draw when their limits, ticks, labels and properties and the pixels
    under them are those of that draw (laying out and drawing ticks costs ~7 ms an axis).
    The picture is the same.  Returns how many axes were switched.

    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(2, 1), dpi=40)
    >>> _ = fig.add_subplot().plot([0, 1])
    >>> cache_axis_ticks(fig), cache_axis_ticks(fig)
    (2, 0)
    """
    count = 0
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if "draw" not in vars(axis):
                axis.draw = _cached_axis_draw.__get__(axis)
                count += 1
    return count
