"""How pooltutor draws text: filled glyph outlines, cached, instead of FreeType at every draw.

matplotlib lays a ``Text`` out through FreeType and rasterises it glyph by glyph at every
draw (~0.1 ms a glyph, ~1 ms a new line): the titles, legends and cell values of a figure
cost more than its heatmaps.  Everything that writes text in :mod:`pooltutor.viz` goes
through this module instead:

* :class:`Glyphs` -- the outline of each glyph, read from the font once (at 100 pt, as
  :class:`matplotlib.textpath.TextPath` reads it); each word laid out once by matplotlib's
  own layout (kerning, ligatures, font fallback); a line put together from its words.  The
  result equals ``TextPath``'s vertices (tested).
* :func:`cell_path` -- the outline of a short text placed for a cell (centred, left, right,
  ...): what :class:`~pooltutor.viz.style.TextCollection` fills in one ``PathCollection``.
* :class:`GlyphText` -- a ``Text`` laid out here (as ``Text._get_layout`` places lines) and
  filled one path a line, with line width 0 (matplotlib's own text-as-path weight);
  :func:`glyph_texts` switches the texts of a figure to it.  Texts this layout does not
  cover (rotated, mathtext, a box) are drawn by ``Text.draw`` through a
  :class:`GlyphRenderer` (the same filled outlines).
* :class:`MeasuringRenderer` -- a :class:`GlyphRenderer` that also measures lines on their
  outlines (ink width, the font's ascent and descent): texts whose height must not change
  with their characters (:class:`~pooltutor.viz.indices` titles).
* :func:`batched_texts` -- one artist that fills many texts (``GlyphText`` and text
  collections) in a single ``draw_path_collection`` call.

Dependencies: matplotlib and numpy only.

>>> from matplotlib.backends.backend_agg import FigureCanvasAgg
>>> from matplotlib.figure import Figure
>>> fig = Figure(dpi=50)
>>> ax = fig.add_subplot()
>>> _ = ax.set_title("AV to\\nwinner")
>>> glyph_texts(fig) >= 1, type(ax.title).__name__
(True, 'GlyphText')
>>> FigureCanvasAgg(fig).draw()
"""

from __future__ import annotations

import re

import numpy as np
from matplotlib.artist import Artist
from matplotlib.colors import to_rgba
from matplotlib.font_manager import FontProperties, fontManager, get_font
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, IdentityTransform

__all__ = ["SCALE", "Glyphs", "cell_path", "GlyphRenderer", "MeasuringRenderer", "GlyphText",
           "glyph_texts", "figure_texts", "batched_texts", "batchable", "text_width"]

SCALE = 100.0                       # TextToPath's: outlines at 100 pt, 72 dpi
_SPACES_OR_WORD = re.compile(r" +|[^ ]+")


def _no_hinting():
    try:
        from matplotlib.ft2font import LoadFlags
    except ImportError:                               # pragma: no cover - matplotlib < 3.10
        from matplotlib.ft2font import LOAD_NO_HINTING
        return LOAD_NO_HINTING
    return LoadFlags.NO_HINTING


class Glyphs:
    """Outlines of text lines, in units of :data:`SCALE` points (scale by size / 100).

    A line is cut into words and runs of spaces; each word is laid out once by matplotlib's
    layout (raqm where matplotlib has it: kerning, ligatures, fallback fonts, as
    ``TextPath``), and the pen moves from a word to the next by the laid-out offset of the
    two characters that meet (kerning with a space included).  Every cache is class-wide:
    all figures share them.

    >>> prop = FontProperties(size=9)
    >>> verts, codes, box = Glyphs.line("AV 12", prop)
    >>> verts.shape[1], len(codes) == len(verts), bool(box[0] < box[1])
    (2, True, True)
    >>> Glyphs.line("   ", prop)[2] is None                 # no ink
    True
    """

    _fonts: dict = {}
    _outlines: dict = {}
    _words: dict = {}
    _pairs: dict = {}
    _lines: dict = {}
    _paths: dict = {}
    _extents: dict = {}
    _metrics: dict = {}
    LIMIT = 6000

    @classmethod
    def font(cls, prop):
        """``(key, FT2Font)``: the font (with its fallbacks) ``TextPath`` uses for ``prop``."""
        key = (tuple(prop.get_family()), prop.get_style(), prop.get_variant(),
               prop.get_weight(), prop.get_stretch())
        hit = cls._fonts.get(key)
        if hit is None:
            hit = cls._fonts[key] = (key, get_font(fontManager._find_fonts_by_props(prop)))
        return hit

    @staticmethod
    def _layout(font, s):
        """``[(font, cluster, glyph index, x, y)]`` of ``s``, as ``TextPath`` lays it out:
        raqm (kerning, ligatures) where matplotlib has it (>= 3.11), else its own
        character-by-character layout with the font's kerning."""
        font.set_size(SCALE, 72)
        raqm = getattr(font, "_layout", None)
        if raqm is not None:
            return [(i.ft_object, i.char, i.glyph_index, float(i.x), float(i.y))
                    for i in raqm(s, _no_hinting())]
        from matplotlib import _text_helpers  # pragma: no cover - < 3.11

        return [(i.ft_object, i.char, i.glyph_idx, float(i.x), 0.0)   # pragma: no cover
                for i in _text_helpers.layout(s, font)]

    @classmethod
    def _word(cls, fkey, font, word):
        """``(vertices, codes, ink box or None, last cluster, its x)`` of one word."""
        hit = cls._words.get((fkey, word))
        if hit is None:
            items = cls._layout(font, word)
            verts, codes = [], []
            for ft_object, _, index, x, y in items:
                gkey = (ft_object.postscript_name, index)
                outline = cls._outlines.get(gkey)
                if outline is None:
                    ft_object.set_size(SCALE, 72)
                    ft_object.load_glyph(index, flags=_no_hinting())
                    v, c = ft_object.get_path()
                    v = np.asarray(v, dtype=float).reshape(-1, 2)
                    outline = cls._outlines[gkey] = (v, np.asarray(c, dtype=np.uint8))
                v, c = outline
                if len(v):
                    verts.append(v + (x, y))
                    codes.append(c)
            last = items[-1] if items else None
            if verts:
                v = np.concatenate(verts)
                box = (v[:, 0].min(), v[:, 0].max(), v[:, 1].min(), v[:, 1].max())
                hit = (v, np.concatenate(codes), box)
            else:
                hit = (None, None, None)
            hit = cls._words[(fkey, word)] = (
                *hit, last[1] if last else "", last[3] if last else 0.0)
        return hit

    @classmethod
    def _pair(cls, fkey, font, a, b) -> float:
        """Where ``b`` starts after ``a`` starts (advance and kerning, as laid out)."""
        hit = cls._pairs.get((fkey, a, b))
        if hit is None:
            pos, hit = 0, 0.0
            for _, cluster, _, x, _ in cls._layout(font, a + b):
                if pos >= len(a):
                    hit = x
                    break
                pos += len(cluster)
            cls._pairs[(fkey, a, b)] = hit
        return hit

    @classmethod
    def line(cls, s: str, prop):
        """``(vertices, codes, ink box (x0, x1, y0, y1) or None)`` of the one-line ``s``
        (``SCALE`` points, the pen at (0, 0) on the baseline)."""
        fkey, font = cls.font(prop)
        hit = cls._lines.get((fkey, s))
        if hit is not None:
            return hit
        if len(cls._lines) > cls.LIMIT:
            cls._lines.clear()
            cls._words.clear()
            cls._paths.clear()
        verts, codes = [], []
        x0 = x1 = y0 = y1 = None
        start, prev, prev_start = 0.0, None, 0.0
        for word in _SPACES_OR_WORD.findall(s):
            v, c, box, last, last_x = cls._word(fkey, font, word)
            if prev is not None:
                start = prev_start + cls._pair(fkey, font, prev, word[0])
            if v is not None:
                verts.append(v + (start, 0.0))
                codes.append(c)
                if x0 is None:
                    x0, y0, y1 = box[0] + start, box[2], box[3]
                x1 = box[1] + start
                y0, y1 = min(y0, box[2]), max(y1, box[3])
            prev, prev_start = last, start + last_x
        if verts:
            hit = (np.concatenate(verts), np.concatenate(codes), (x0, x1, y0, y1))
        else:
            hit = (np.empty((0, 2)), np.empty(0, dtype=np.uint8), None)
        cls._lines[(fkey, s)] = hit
        return hit

    @classmethod
    def path(cls, s: str, prop, size: float | None = None) -> Path:
        """:meth:`line` as a ``Path`` in points at ``size`` (default: ``prop``'s), made once."""
        size = prop.get_size_in_points() if size is None else size
        key = (cls.font(prop)[0], s, size)
        path = cls._paths.get(key)
        if path is None:
            verts, codes, _ = cls.line(s, prop)
            path = cls._paths[key] = Path(verts * (size / SCALE), codes if len(codes) else None)
        return path

    @classmethod
    def extent(cls, prop) -> tuple[float, float]:
        """The font's ascent and descent (``SCALE`` units), as matplotlib's text layout
        reads them (OS/2 typographic, else hhea)."""
        fkey, font = cls.font(prop)
        hit = cls._extents.get(fkey)
        if hit is None:
            em = font.get_sfnt_table("head")["unitsPerEm"]
            for table, up, down in (("OS/2", "sTypoAscender", "sTypoDescender"),
                                    ("hhea", "ascent", "descent")):
                values = font.get_sfnt_table(table)
                if values is not None and up in values and down in values:
                    hit = (values[up] / em * SCALE, -values[down] / em * SCALE)
                    break
            else:                                     # pragma: no cover - every TrueType font
                hit = (0.76 * SCALE, 0.24 * SCALE)
            cls._extents[fkey] = hit
        return hit

    @classmethod
    def metrics(cls, prop, size: float, dpi: float) -> tuple[float, float, float]:
        """``(min ascent, min descent, line gap)`` in pixels, as ``Text`` lays out lines."""
        fkey, font = cls.font(prop)
        key = (fkey, size, dpi)
        found = cls._metrics.get(key)
        if found is None:
            found = (0.0, 0.0, 0.0)
            for table, gap, asc, desc in (("OS/2", "sTypoLineGap", "sTypoAscender",
                                           "sTypoDescender"),
                                          ("hhea", "lineGap", "ascent", "descent")):
                values = font.get_sfnt_table(table)
                if values is None:
                    continue
                scale = size * dpi / 72 / font.get_sfnt_table("head")["unitsPerEm"]
                found = (values[asc] * scale, -values[desc] * scale, values[gap] * scale)
                break
            cls._metrics[key] = found
        return found


_PROPS: dict = {}
_CELL_PATHS: dict = {}


def _prop(bold: bool) -> FontProperties:
    prop = _PROPS.get(bold)
    if prop is None:
        prop = _PROPS[bold] = FontProperties(weight="bold" if bold else "normal")
    return prop


def cell_path(key, squeeze: float = 1.0) -> Path:
    """The (cached) outline of ``key = (text, size, ha, dy, dx, bold)``, in points, y up:
    centred on its ink across and on a digit's height (``ha="center"``), starting or ending
    there on its baseline (``"left"`` / ``"right"``), centred on its baseline (``"title"``),
    ending there with a digit's height centred (``"right-center"``); moved ``dx`` points
    right and ``dy`` up; its width times ``squeeze`` (narrower digits for small cells).

    >>> p = cell_path(("12", 9, "center", 0.0, 0.0, False))
    >>> float(round(p.vertices[:, 0].min() + p.vertices[:, 0].max(), 9))      # centred
    0.0
    >>> float(cell_path(("12", 9, "right", 0.0, 0.0, False)).vertices[:, 0].max())  # ends
    0.0
    """
    full = (key, squeeze)
    path = _CELL_PATHS.get(full)
    if path is not None:
        return path
    text, size, ha, dy, dx, bold = key
    verts, codes, _ = Glyphs.line(text, _prop(bool(bold)))
    verts = verts * (size / SCALE)
    if len(verts):
        if ha in ("center", "title"):
            verts[:, 0] -= (verts[:, 0].min() + verts[:, 0].max()) / 2
        elif ha in ("right", "right-center"):
            verts[:, 0] -= verts[:, 0].max()
        if ha in ("center", "right-center"):
            verts[:, 1] -= 0.36 * size
        if squeeze != 1.0:
            verts[:, 0] *= squeeze
        verts[:, 0] += dx
        verts[:, 1] += dy
    path = Path(verts, codes if len(codes) else None)
    if len(_CELL_PATHS) > 8000:
        _CELL_PATHS.clear()
    _CELL_PATHS[full] = path
    return path


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Where the ink of ``text`` at ``size`` points ends, the pen starting at 0 (points).

    >>> text_width("", 9), text_width("-116", 9) > text_width("16", 9) > 0
    (0.0, True)
    """
    key = (text, round(float(size), 1), bool(bold))
    width = _WIDTHS.get(key)
    if width is None:
        path = cell_path((*key[:2], "left", 0.0, 0.0, key[2]))
        width = float(path.vertices[:, 0].max()) if len(path.vertices) else 0.0
        if len(_WIDTHS) > 8000:
            _WIDTHS.clear()
        _WIDTHS[key] = width
    return width


_WIDTHS: dict = {}


# --------------------------------------------------------------------------- renderers


class GlyphRenderer:
    """A renderer proxy whose ``draw_text`` fills cached :class:`Glyphs` outlines with line
    width 0 (the pen at ``x``, as matplotlib places its own text); everything else is the
    renderer's own.  Get one with :meth:`of` (one per renderer and class: matplotlib caches
    text metrics per renderer)."""

    #: where the ink of a line starts: at the pen plus the first glyph's bearing (False)
    #: or at ``x`` (True, with :class:`MeasuringRenderer`'s ink widths)
    ink_at_x = False

    def __init__(self, renderer):
        self._renderer = renderer

    @classmethod
    def of(cls, renderer):
        if renderer is None or isinstance(renderer, GlyphRenderer):
            return renderer
        attr = "_pooltutor_" + cls.__name__
        proxy = getattr(renderer, attr, None)
        if proxy is None:
            proxy = cls(renderer)
            try:
                setattr(renderer, attr, proxy)
            except AttributeError:                    # pragma: no cover - slotted renderer
                pass
        return proxy

    def __getattr__(self, name):
        return getattr(self._renderer, name)

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return self._renderer.draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
        box = Glyphs.line(s, prop)[2]
        if box is None:                     # blank (a label that only keeps room): no ink
            return None
        size = prop.get_size_in_points()
        height = self._renderer.get_canvas_width_height()[1]
        transform = (Affine2D().translate(-box[0] * size / SCALE, 0) if self.ink_at_x
                     else Affine2D())
        transform.scale(self._renderer.points_to_pixels(1.0)).rotate_deg(angle).translate(
            x, height - y if self._renderer.flipy() else y)
        gc.set_linewidth(0.0)               # filled only, as matplotlib's own text-as-path
        self._renderer.draw_path(gc, Glyphs.path(s, prop, size), transform, rgbFace=gc.get_rgb())
        return None


class MeasuringRenderer(GlyphRenderer):
    """A :class:`GlyphRenderer` that also measures texts on their outlines (no FreeType
    layout): a line is as wide as its ink, as high and deep as the font's ascent and
    descent (not the ink's), so that a line sits and measures the same whatever its
    characters (a title's height, and so a constrained layout, does not change from one
    step to the next); its ink starts at ``x``.

    ``skip`` / ``only`` (line numbers, from 0): lines that a ``Text.draw`` through it
    leaves out / draws alone (``line`` counts them; reset it before the draw)."""

    ink_at_x = True
    skip = frozenset()
    only = None
    line = 0

    def get_text_width_height_descent(self, s, prop, ismath):
        if ismath:
            return self._renderer.get_text_width_height_descent(s, prop, ismath)
        box = Glyphs.line(s, prop)[2]
        if box is None:
            return 0.0, 0.0, 0.0
        k = prop.get_size_in_points() / SCALE * self._renderer.points_to_pixels(1.0)
        ascent, descent = Glyphs.extent(prop)
        return (box[1] - box[0]) * k, (ascent + descent) * k, descent * k

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        line, self.line = self.line, self.line + 1
        if line in self.skip or (self.only is not None and line not in self.only):
            return None
        return super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)


# --------------------------------------------------------------------------- GlyphText


def _root(artist):
    try:
        return artist.get_figure(root=True)
    except TypeError:                                 # pragma: no cover - matplotlib < 3.10
        return artist.figure


class GlyphText(Text):
    """A ``Text`` drawn as filled, cached glyph outlines (see :mod:`pooltutor.viz.glyphs`).

    A plain text (unrotated, no mathtext, no box, no wrapping, normal line spacing) is laid
    out here as ``Text._get_layout`` places its lines, again only when its string or font
    changed, and filled one path a line; anything else goes through ``Text.draw`` with a
    :class:`GlyphRenderer`.  Everything else (alignment, colours, ``get_text()``,
    ``get_window_extent``) is ``Text``'s own.

    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(dpi=40)
    >>> _ = FigureCanvasAgg(fig)
    >>> t = GlyphText(0.5, 0.5, "one\\ntwo", ha="center", transform=fig.transFigure)
    >>> _ = fig.add_artist(t)
    >>> lines, x, y = t.placed_lines(fig.canvas.get_renderer())
    >>> len(lines), (x, y) == (128.0, 96.0)          # the anchor: the figure centre
    (2, True)
    """

    def _plain(self, text) -> bool:
        return (self.get_rotation() % 360 == 0 and not self.get_path_effects()
                and not self.get_usetex() and self.get_bbox_patch() is None
                and not self.get_wrap() and "$" not in text
                and self.get_linespacing() == "normal")

    def _lines(self, text):
        """``[(outline in points, x, y)]``: each line's pen position in pixels from the
        anchor, as ``Text._get_layout`` places them."""
        prop = self._fontproperties
        size = prop.get_size_in_points()
        dpi = _root(self).dpi
        to_px = size / SCALE * dpi / 72
        min_ascent, min_descent, gap = Glyphs.metrics(prop, size, dpi)
        lines = text.split("\n")
        if len(lines) == 1:
            gap = 0.0
        paths, widths, ys = [], [], []
        y = d = 0.0
        for line in lines:
            box = Glyphs.line(line, prop)[2]
            if box is not None:
                w = (box[1] - box[0]) * to_px
                a, d = box[3] * to_px, max(-box[2] * to_px, 0.0)
            else:
                w = a = d = 0.0
            a = max(a, min_ascent) + gap / 2
            d = max(d, min_descent) + gap / 2
            y -= a
            paths.append(Glyphs.path(line, prop, size) if box is not None else None)
            widths.append(w)
            ys.append(y)
            y -= d
        width, descent = max(widths), d
        y_min = ys[-1] - descent
        align = self._get_multialignment()
        xs = [0.0 if align == "left" else (width - w) / 2 if align == "center"
              else width - w for w in widths]
        ha, va = self.get_horizontalalignment(), self.get_verticalalignment()
        off_x = 0.0 if ha == "left" else width if ha == "right" else width / 2
        # center_baseline: half the last line's baseline (as Text._get_layout does it)
        off_y = (y_min if va == "bottom" else 0.0 if va == "top" else
                 y_min / 2 if va == "center" else y_min + descent if va == "baseline"
                 else ys[-1] / 2)
        return [(path, x - off_x, y - off_y) for path, x, y in zip(paths, xs, ys, strict=True)]

    def placed_lines(self, renderer):
        """``(lines, x, y)``: each line as ``(outline, dx, dy)`` -- its outline (a ``Path``
        in points; None: no ink) with its pen ``(dx, dy)`` pixels from the anchor ``(x, y)``
        (pixels); None when ``Text.draw`` must draw it (rotated, mathtext, a box)."""
        text = self.get_text()
        if not self._plain(text):
            return None
        key = (text, hash(self._fontproperties), _root(self).dpi,
               self.get_horizontalalignment(), self.get_verticalalignment(),
               self._get_multialignment())
        kept = getattr(self, "_pooltutor_lines", None)
        if kept is not None and kept[0] == key:
            lines = kept[1]
        else:                               # laid out again only when it changed
            lines = self._lines(text)
            self._pooltutor_lines = (key, lines)
        posx, posy = self.get_transform().transform(self.get_unitless_position())
        return lines, float(posx), float(posy)

    def unclipped(self) -> bool:
        return not self.get_clip_on() or (self.get_clip_box() is None
                                          and self.get_clip_path() is None)

    def draw(self, renderer):
        if (renderer is None or not self.get_visible() or self.get_text() == ""
                or not hasattr(renderer, "points_to_pixels")):
            return super().draw(renderer) if renderer is not None else None
        placed = self.placed_lines(renderer)
        if placed is None:
            return super().draw(GlyphRenderer.of(renderer))
        self._renderer = renderer
        lines, posx, posy = placed
        if not (np.isfinite(posx) and np.isfinite(posy)):
            return None
        gc = renderer.new_gc()
        gc.set_foreground(to_rgba(self.get_color()), isRGBA=True)
        gc.set_alpha(self.get_alpha())
        gc.set_antialiased(self._antialiased)
        gc.set_snap(self.get_snap())
        gc.set_linewidth(0.0)
        self._set_gc_clip(gc)
        ptp = renderer.points_to_pixels(1.0)
        for path, x, y in lines:
            if path is not None:
                renderer.draw_path(gc, path,
                                   Affine2D().scale(ptp).translate(posx + x, posy + y),
                                   rgbFace=gc.get_rgb())
        gc.restore()
        self.stale = False
        return None


def figure_texts(fig) -> list:
    """The texts of a figure (its own, its legends', and each Axes' titles, labels, texts and
    existing tick labels), found without walking every artist."""
    texts = list(fig.texts)
    for sub in getattr(fig, "subfigs", ()):
        texts += figure_texts(sub)
    for legend in fig.legends:
        texts += [*legend.texts, legend.get_title()]
    for ax in fig.axes:
        texts += [*ax.texts, ax.title, ax._left_title, ax._right_title]
        legend = ax.get_legend()
        if legend is not None:
            texts += [*legend.texts, legend.get_title()]
        for child in ax.child_axes:
            texts += [child.title]
        if ax.axison:
            for axis in ax._axis_map.values():
                texts.append(axis.label)
                for tick in (*axis.majorTicks, *axis.minorTicks):
                    texts += [tick.label1, tick.label2]
    return texts


def glyph_texts(artists, *, ticks: bool = False) -> int:
    """Draw the plain ``Text`` artists among ``artists`` (a Figure: all of its texts) as
    :class:`GlyphText`: same text, same place, far cheaper redraws.  With ``ticks``, the
    tick labels of every drawn axis of the figure are made first, so that none is left a
    plain ``Text``.  Returns how many were switched.

    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.set_title("a title"), fig.text(0.5, 0.5, "a text")
    >>> glyph_texts(fig) >= 2, type(ax.title).__name__, ax.get_title()
    (True, 'GlyphText', 'a title')
    """
    if hasattr(artists, "findobj"):
        if ticks:
            for ax in artists.axes:
                if ax.axison:
                    for axis in ax._axis_map.values():
                        axis.get_major_ticks()
        artists = figure_texts(artists)
    count = 0
    for artist in artists:
        if type(artist) is Text:
            artist.__class__ = GlyphText
            count += 1
    return count


# --------------------------------------------------------------------------- batched


def batchable(a) -> bool:
    """A :class:`GlyphText` or a text collection (:class:`~pooltutor.viz.style.
    TextCollection`'s, glyphs in points), drawn without clipping: :func:`batched_texts`
    can fill it."""
    from matplotlib.collections import PathCollection

    if isinstance(a, GlyphText):
        return a.unclipped()
    return (type(a) is PathCollection and hasattr(a, "pooltutor_texts")
            and not a.get_clip_on() and not a.get_path_effects()
            and not np.any(np.asarray(a.get_linewidth()) > 0))


class BatchedTexts(Artist):
    """See :func:`batched_texts`."""

    def __init__(self, texts):
        super().__init__()
        self.texts = tuple(texts)

    def set_animated(self, b):
        super().set_animated(b)
        for text in self.texts:
            text.set_animated(b)            # their Axes (or Axis) leave them out

    def keep(self, text):
        """Which items of the text collection ``text`` to fill (booleans), or None for all:
        a subclass draws part of a batch by overriding it."""
        return None

    def draw(self, renderer):
        paths, offsets, colors = [], [], []
        for text in self.texts:
            if not text.get_visible() or text.get_figure(root=False) is None:
                continue
            if isinstance(text, GlyphText):
                placed = text.placed_lines(renderer) if text.get_text() else ((), 0, 0)
                if placed is None:          # not plain text after all: its own draw
                    GlyphText.draw(text, renderer)
                    continue
                lines, x0, y0 = placed
                rgba = to_rgba(text.get_color(), text.get_alpha())
                for path, x, y in lines:
                    if path is not None:
                        paths.append(path)
                        offsets.append((x0 + x, y0 + y))
                        colors.append(rgba)
                continue
            n = len(text.get_paths())
            if not n:
                continue
            at = text.get_offset_transform().transform(text.get_offsets()).tolist()
            fc = text.get_facecolor()
            fc = (np.broadcast_to(fc, (n, 4)) if len(fc) == 1 else fc).tolist()
            keep = self.keep(text)
            if keep is None:
                paths += text.get_paths()
                offsets += at
                colors += fc
            else:
                paths += [p for p, k in zip(text.get_paths(), keep, strict=True) if k]
                offsets += [o for o, k in zip(at, keep, strict=True) if k]
                colors += [c for c, k in zip(fc, keep, strict=True) if k]
        if not paths:
            return
        gc = renderer.new_gc()
        gc.set_linewidth(0.0)
        renderer.draw_path_collection(
            gc, Affine2D().scale(renderer.points_to_pixels(1.0)).frozen(), paths,
            np.zeros((0, 3, 3)), np.asarray(offsets, dtype=float), IdentityTransform(),
            np.asarray(colors, dtype=float), np.zeros((0, 4)), [0.0], [(0, None)], [True],
            [None], "screen")
        gc.restore()


def batched_texts(texts) -> Artist:
    """One artist filling the glyphs of ``texts`` (:func:`batchable` ones, in any Axes) in
    one ``draw_path_collection`` call: every line at its pixel offset, in its colour (the
    texts' own outlines and colours, without a draw's overhead per text).  Animating it
    animates the texts (their Axes leave them out of a background); it draws on top
    (zorder 100).

    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(dpi=40)
    >>> _ = FigureCanvasAgg(fig)
    >>> t = fig.text(0.1, 0.5, "x = 1")
    >>> _ = glyph_texts([t])
    >>> batch = batched_texts([t])
    >>> batch.draw(fig.canvas.get_renderer()); batch.get_zorder()
    100
    """
    batch = BatchedTexts(texts)
    batch.set_zorder(100)                   # on top: no text of a panel lies under a mark
    return batch
