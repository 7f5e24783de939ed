"""ReLU on quantized codes: the clamp at the zero point, and the quantized stage chain.

A code ``q`` stands for the real value ``(q - zero_point) * scale``, so the
real zero is the code ``zero_point``, not the code 0 (:mod:`pooltutor.quant`).

* :func:`plot_zero_point_relu` draws, for one ``(scale, zero_point, dtype)``,
  what ReLU does to every code: the correct clamp ``max(q, max(qmin, zp))``
  (:func:`pooltutor.quant.relu`) against the wrong ``max(q, 0)`` on raw
  codes (the same function with zero point 0, what ONNX ``Relu`` does to
  integers), with a real-value axis next to the code axis.  Given a block
  of codes it also shows both ReLUs on it and what a max pool then keeps
  (TV31: codes ``[[126, 120], [110, 127]]`` at zero point 128 pool to 128
  with the right clamp, 127, a negative real value, with the wrong one).
* :func:`plot_quant_chain` draws the four stages of a
  :class:`pooltutor.quant.QuantChain` (accumulators, requantized codes,
  ReLU-activated codes, pooled codes) with the window and the winner of one
  pooled code.

Both plots can be changed in place: :func:`update_zero_point_relu` (another zero
point, scale, block of the same shape, pooled cell) and :func:`update_quant_chain`
(another chain of the same accumulators) set the new values on the artists already
drawn and list the artists that change in ``dynamic``, which an explorer redraws on a
cached background (blitting).  The picture is the one a fresh plot of the same
values draws.

>>> from pooltutor.viz.zero_point import plot_zero_point_relu
>>> p = plot_zero_point_relu(0.5, 128, "uint8", codes=[[126, 120], [110, 127]])   # TV31
>>> p.pooled_right.tolist(), p.pooled_wrong.tolist()
([[128]], [[127]])
>>> q = update_zero_point_relu(p, 0.5, 100, codes=[[98, 92], [82, 99]])   # the same Axes
>>> q.line_ax is p.line_ax, q.pooled_right.tolist(), q.pooled_wrong.tolist()
(True, [[100]], [[99]])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType, SimpleNamespace
from typing import Any

import numpy as np

from .. import quant
from ..errors import PoolTutorError, PoolTutorTypeError, check_int
from . import glyphs, style
from .indices import keep_axes, prepare_figure

__all__ = [
    "ZeroPointReluPlot",
    "QuantChainPlot",
    "plot_zero_point_relu",
    "plot_quant_chain",
    "update_zero_point_relu",
    "update_quant_chain",
]

#: Colour of the input codes (no ReLU) in the transfer plot.
IDENTITY_COLOR = "#9e9e9e"
#: Relative margin of both axes of the transfer plot: with the same margin on both, the
#: identity line ``real = (q - zp) * s`` is the diagonal of the Axes at every zero point, and
#: every ReLU line lies on or above it (the legend sits in the empty corner below).
_MARGIN = 0.03
#: Room above the data of the transfer plot (a fraction of its range) for the labels of the
#: two clamp codes, so that no line ever runs under them.
_HEADROOM = 0.25
#: matplotlib's default tick geometry, in points (the transfer plot draws its own real-value
#: ticks: a tick line and a text collection instead of an Axis re-ticked at every change)
_TICK_LENGTH, _TICK_PAD = 3.5, 3.5
_MINUS = "\u2212"


@dataclass(frozen=True, eq=False)
class ZeroPointReluPlot:
    """What :func:`plot_zero_point_relu` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    line_ax : Axes
        Input code -> real value after ReLU, right and wrong.
    grid_axes : mapping of str to Axes
        With ``codes``: ``"codes"``, ``"right"``, ``"pooled_right"``,
        ``"wrong"``, ``"pooled_wrong"``; empty otherwise.
    right_floor, wrong_floor : int
        The code each ReLU clamps at: ``max(qmin, zp)`` and ``max(qmin, 0)``.
    right, wrong : numpy.ndarray or None
        ``codes`` after each ReLU.
    pooled_right, pooled_wrong : numpy.ndarray or None
        Their max pools (codes).
    dynamic : tuple of Artist
        The artists that :func:`update_zero_point_relu` changes, in drawing order (what an
        explorer redraws over a cached background); the rest of the figure depends only on
        the dtype, the block's shape, the pool and the panels.
    """

    figure: Any
    line_ax: Any
    grid_axes: Any
    right_floor: int
    wrong_floor: int
    right: np.ndarray | None
    wrong: np.ndarray | None
    pooled_right: np.ndarray | None
    pooled_wrong: np.ndarray | None
    dynamic: tuple = ()
    _parts: Any = field(default=None, repr=False)


@dataclass(frozen=True, eq=False)
class QuantChainPlot:
    """What :func:`plot_quant_chain` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    axes : mapping of str to Axes
        ``"accumulators"``, ``"codes"``, ``"activated"``, ``"pooled"``.
    out_index : tuple of int
        ``(i, j)`` (or ``(n, c, i, j)``) of the pooled code shown.
    window : tuple of (row, col)
        The cells of its pooling window.
    winner : (row, col)
        The activated code that won (the first maximum in row-major order).
    dynamic : tuple of Artist
        The artists that :func:`update_quant_chain` changes, in drawing order; the rest
        depends only on the accumulators, the dtype and the pool.
    """

    figure: Any
    axes: Any
    out_index: tuple[int, ...]
    window: tuple[tuple[int, int], ...]
    winner: tuple[int, int]
    dynamic: tuple = ()
    _parts: Any = field(default=None, repr=False)


# --------------------------------------------------------------------------- text


class _AxisLabel(glyphs.GlyphText):
    """An axis label redrawn over an explorer's cached background: while animated its Axis
    skips it, and the batched texts of :func:`_blit_list` draw it (alone, without the
    Axis' tick machinery)."""

    def draw(self, renderer):
        if self.get_animated():
            return None
        return super().draw(renderer)


def _outline_stand_in(patches):
    """One artist stroking the window outlines ``patches`` (unclipped, unfilled ``Rectangle``
    of one style, in any Axes) as one path: their corners moved to pixels at once (the
    same strokes, without sixteen patch draws' overhead)."""
    from matplotlib.artist import Artist
    from matplotlib.path import Path
    from matplotlib.transforms import IdentityTransform

    first = patches[0]
    kept = getattr(first, "_pooltutor_stand_in", None)
    if kept is not None and kept[0] == tuple(patches):
        return kept[1]
    square = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]

    class OutlinesStandIn(Artist):
        def set_animated(self, b):
            super().set_animated(b)
            for patch in patches:
                patch.set_animated(b)       # their Axes leave them out of the background

        def draw(self, renderer):
            verts = []
            for ax in dict.fromkeys(p.axes for p in patches if p.axes is not None):
                xywh = np.array([(p.get_x(), p.get_y(), p.get_width(), p.get_height())
                                 for p in patches if p.axes is ax and p.get_visible()])
                if not len(xywh):
                    continue
                x0, y0, x1, y1 = (xywh[:, 0], xywh[:, 1], xywh[:, 0] + xywh[:, 2],
                                  xywh[:, 1] + xywh[:, 3])
                corners = np.stack([np.column_stack(c) for c in
                                    ((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0))], axis=1)
                verts.append(ax.transData.transform(corners.reshape(-1, 2)))
            if not verts:
                return
            verts = np.concatenate(verts)
            gc = renderer.new_gc()
            gc.set_foreground(first.get_edgecolor(), isRGBA=True)
            gc.set_linewidth(first.get_linewidth())
            gc.set_joinstyle(first.get_joinstyle())
            gc.set_capstyle(first.get_capstyle())
            gc.set_antialiased(first.get_antialiased())
            gc.set_snap(first.get_snap())
            renderer.draw_path(gc, Path(verts, square * (len(verts) // 5)), IdentityTransform())
            gc.restore()

    stand_in = OutlinesStandIn()
    stand_in.patches = tuple(patches)
    stand_in.set_zorder(first.get_zorder())
    first._pooltutor_stand_in = (tuple(patches), stand_in)
    return stand_in


def _is_plain_outline(a) -> bool:
    from matplotlib.patches import Rectangle

    return (type(a) is Rectangle and a.get_gid() == "window" and not a.get_fill()
            and not a.get_clip_on() and not a.get_path_effects() and a.get_hatch() is None)


def _blit_list(dynamic, kept=None) -> tuple[list, tuple]:
    """The artists to redraw over an explorer's background for a plot's ``dynamic``
    artists, drawn for less: an Axis that draws nothing but its label (the code panels'
    verdicts) by its label alone (not its ticks, tick-label boxes and label placement),
    the window outlines (the same style in every panel) stroked in one call, and every
    text (titles, labels, cell values, tick labels) filled in one call, on top; all in
    matplotlib's order (by zorder: the panels do not overlap).  Used by
    :class:`~pooltutor.viz.relu_explorer.ZeroPointReluExplorer`.  Returns the list and
    what to pass as ``kept`` next time: for the same ``dynamic`` artists, the same list
    again without making it anew."""
    from matplotlib.axis import Axis

    if kept is not None and len(kept[0]) == len(dynamic) and all(
            a is b for a, b in zip(kept[0], dynamic, strict=True)):
        return list(kept[1]), kept          # the same artists as the last update
    given = tuple(dynamic)
    labels = [a.label for a in dynamic if isinstance(a, Axis) and not a.get_ticklocs().size]
    for label in labels:
        if label.__class__ is glyphs.GlyphText:
            label.__class__ = _AxisLabel        # left to the batched texts while animated
    dynamic = [a.label if isinstance(a, Axis) and a.label in labels else a for a in dynamic]
    outlines = [a for a in dynamic if _is_plain_outline(a)]
    same = outlines and all(
        (a.get_edgecolor(), a.get_linewidth(), a.get_linestyle()) == (
            outlines[0].get_edgecolor(), outlines[0].get_linewidth(),
            outlines[0].get_linestyle()) for a in outlines)
    texts = [a for a in dynamic if glyphs.batchable(a)]
    out = []
    for a in dynamic:
        if same and a is outlines[0]:
            out.append(_outline_stand_in(outlines))
        elif not (same and a in outlines) and a not in texts:
            out.append(a)
    if texts:
        out.append(glyphs.batched_texts(texts))
    # one order for all: the Axes do not overlap, and inside each this is matplotlib's
    out = _zordered(out)
    return out, (given, tuple(out))


def _texts_part_class():
    """An artist filling some of the texts of a :func:`~pooltutor.viz.glyphs.batched_texts`
    batch, in its order and as it does (one ``draw_path_collection``): of the cell-value
    collections (gid ``"cell-labels"``) only the items whose gid is (``real=True``) or is
    not (``real=False``) ``"real"``; the other texts only with ``real=False``."""
    cls = _TEXTS_PART.get("cls")
    if cls is not None:
        return cls

    class TextsPart(glyphs.BatchedTexts):
        def __init__(self, texts, real):
            super().__init__(texts)
            self.real = real
            self.set_zorder(100)

        def split(self, text) -> bool:
            return not isinstance(text, glyphs.GlyphText) and text.get_gid() == "cell-labels"

        def keep(self, text):
            if not self.split(text):
                return None
            return [(t.gid == "real") == self.real for t in text.pooltutor_texts]

        def key(self):
            """What this part draws (its real values: items, places, colours)."""
            out = []
            for text in self.texts:
                items = tuple((t.text, t.x, t.y, t.size, t.color, t.bold)
                              for t in text.pooltutor_texts if t.gid == "real")
                out.append((id(text), text.get_visible(), text.get_figure(root=False) is None,
                            items))
            return tuple(out)

    _TEXTS_PART["cls"] = cls = TextsPart
    return cls


_TEXTS_PART: dict = {}


def _state_key(a):
    """What the artist ``a`` (of :func:`_layered_blit`'s lower layer) draws, or None when
    its kind is not known here (it is then drawn at every update); the places of its
    Axes (their data transforms) are the caller's part of the key."""
    from matplotlib.colors import Normalize
    from matplotlib.patches import Polygon, Rectangle

    if isinstance(a, _cell_image_class()):
        data, norm = a.get_array(), a.norm
        if (data is None or type(norm) is not Normalize or norm.clip or norm.vmin is None
                or norm.vmax is None or not norm.vmin < norm.vmax or np.ma.is_masked(data)):
            return None
        values = (np.asarray(data, dtype=float) - norm.vmin) / (norm.vmax - norm.vmin)
        return ("image", a.get_visible(), a.axes is not None, values.shape, values.tobytes(),
                id(a.cmap), a.get_alpha(), tuple(a.get_extent()))
    if type(a) is Rectangle:
        return ("rect", a.get_visible(), a.axes is not None, tuple(a.get_xy()), a.get_width(),
                a.get_height(), a.get_angle(), tuple(a.get_facecolor()),
                tuple(a.get_edgecolor()), a.get_linewidth())
    if type(a) is Polygon:
        return ("polygon", a.get_visible(), a.axes is not None, a.get_xy().tobytes(),
                tuple(a.get_facecolor()), tuple(a.get_edgecolor()), a.get_linewidth())
    patches = getattr(a, "patches", None)
    if patches is not None and type(a).__name__ == "OutlinesStandIn":
        return ("outlines", tuple((p.get_visible(), p.axes is not None, tuple(p.get_xy()),
                                   p.get_width(), p.get_height()) for p in patches))
    if type(a).__name__ == "TextsPart" and a.real:
        return ("texts", a.key())
    return None


def _layered_blit(animated, lower_axes, kept=None) -> tuple[list, list, tuple]:
    """``animated`` (from :func:`_blit_list`) as two layers drawn one after the other in
    matplotlib's order: the lower one, the artists of ``lower_axes`` (the code panels) that
    do not depend on the zero point alone (the cells' colours, outlines, marks, real values
    of the cells: :func:`_state_key` tells what each draws), and the rest.  Both lists are
    made once for the same ``animated``: ``kept`` is the third item returned by the last
    call (for the same figure)."""
    if kept is not None and len(kept[0]) == len(animated) and all(
            a is b for a, b in zip(kept[0], animated, strict=True)):
        return kept[1], kept[2], kept
    lower_axes = set(lower_axes)
    part = _texts_part_class()
    lower, upper, passed = [], [], set()
    for a in animated:
        if type(a) is glyphs.BatchedTexts:
            split = [t for t in a.texts if part.split(None, t) and t.axes in lower_axes
                     and t.axes not in passed]
            if split:
                lower.append(part(split, True))
                upper.append(part(a.texts, False))
            else:
                upper.append(a)
            continue
        axes = {p.axes for p in getattr(a, "patches", (a,))}
        if axes <= lower_axes and not axes & passed and _state_key(a) is not None:
            lower.append(a)
        else:
            upper.append(a)
            passed |= axes          # what follows it in its Axes must follow it in drawing
    return lower, upper, (tuple(animated), lower, upper)


_RGBA: dict = {}


def _rgba(colors) -> np.ndarray:
    """``(n, 4)`` RGBA of colour names (looked up once each)."""
    from matplotlib.colors import to_rgba

    out = []
    for color in colors:
        rgba = _RGBA.get(color)
        if rgba is None:
            rgba = _RGBA[color] = to_rgba(color)
        out.append(rgba)
    return np.array(out, dtype=float).reshape(-1, 4)


def _set_texts(coll, labels) -> None:
    """Show the texts of ``labels`` (a :class:`~pooltutor.viz.style.TextCollection`) in the
    collection ``coll`` that an earlier ``labels.draw`` made (its offset transform stays)."""
    coll.set_paths([glyphs.cell_path(k) for k in labels._keys])
    coll.set_offsets(np.array([(t.x, t.y) for t in labels.items], dtype=float).reshape(-1, 2))
    coll.set_facecolor(_rgba([t.color for t in labels.items]) if labels.items else "black")
    coll.pooltutor_texts = tuple(labels.items)


_text_width = glyphs.text_width


def _root(ax):
    return ax.get_figure(root=True) if style._takes_root(ax) else ax.figure


def _points(ax):
    """The transform from points to display (for glyphs and sizes in points)."""
    from matplotlib.transforms import Affine2D

    return Affine2D().scale(1 / 72.0) + _root(ax).dpi_scale_trans


def _offset(ax, transform, dx: float, dy: float):
    """``transform`` followed by a shift of ``(dx, dy)`` points."""
    from matplotlib.transforms import ScaledTranslation

    return transform + ScaledTranslation(dx / 72.0, dy / 72.0, _root(ax).dpi_scale_trans)


# --------------------------------------------------------------------------- helpers


def _real_text(real: float, scale) -> str:
    """Real value of a code, e.g. ``-1`` or ``-2s`` (in units of s without a scale)."""
    if scale is None:
        v = style.format_value(float(real))
        return "0" if v in ("0", "-0") else f"{v}s"
    v = float(real)
    return style.format_value(0.0 if v == 0 else v)


def _tick_text(v: float) -> str:
    text = style.format_value(0.0 if v == 0 else float(v))
    return _MINUS + text[1:] if text.startswith("-") else text


def _nice_ticks(lo: float, hi: float, most: int = 8) -> np.ndarray:
    """Round values (1, 2 or 5 times a power of ten apart) in ``[lo, hi]``, at most ``most``.

    >>> _nice_ticks(-53.8, 81.3).tolist()
    [-40.0, -20.0, 0.0, 20.0, 40.0, 60.0, 80.0]
    """
    span = float(hi) - float(lo)
    if not np.isfinite(span) or span <= 0:
        return np.array([float(lo)])
    raw = span / (most - 1)
    mag = 10.0 ** np.floor(np.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * (1 - 1e-9))
    k0, k1 = int(np.ceil(lo / step - 1e-9)), int(np.floor(hi / step + 1e-9))
    ticks = np.array([k * step for k in range(k0, k1 + 1)], dtype=float)
    return np.round(ticks, 12)


def _room_for_indices(ax):
    """Blank axis labels, so that the layout keeps room for the row / column indices (drawn
    in a text collection, which the layout does not see)."""
    ax.set_xlabel("\u2007", fontsize=9, labelpad=6)
    ax.set_ylabel("\u2007", fontsize=9, labelpad=4)


def _out_of_layout(*artists):
    for artist in artists:
        artist.set_in_layout(False)


# --------------------------------------------------------------------------- code grids


_CELL_IMAGE: dict = {}


def _cell_image_class():
    """An ``AxesImage`` drawn as its cells: one filled quadrilateral per value, without
    anti-aliasing (the same crisp cells as ``imshow(interpolation="nearest")``), instead of
    an image resampled to the screen and colour-mapped pixel by pixel at every new value
    (~1 ms for a 4x4 grid).  Everything else (data, norm, colormap, ``get_clim``) is the
    image's own."""
    cls = _CELL_IMAGE.get("cls")
    if cls is not None:
        return cls
    from matplotlib.colors import Normalize
    from matplotlib.image import AxesImage

    class CellImage(AxesImage):
        def _cells(self, data):
            """The cell corners (pixels: made again only when the place changes) and the
            RGBA of each value: ``cmap(norm(data))``, as ``to_rgba`` makes them."""
            rows, cols = data.shape
            transform = self.get_transform()
            key = (rows, cols, tuple(self.get_extent()), self.origin,
                   tuple(transform.get_matrix().ravel()))
            kept = getattr(self, "_pooltutor_cells", None)
            if kept is None or kept[0] != key:
                left, right, bottom, top = self.get_extent()
                if self.origin == "lower":
                    bottom, top = top, bottom
                xs = np.linspace(left, right, cols + 1)
                ys = np.linspace(top, bottom, rows + 1)     # row 0 at the top edge
                coords = np.empty((rows + 1, cols + 1, 2))
                coords[..., 0], coords[..., 1] = xs[None, :], ys[:, None]
                kept = self._pooltutor_cells = (key, coords, transform.frozen())
            norm = self.norm
            vmin, vmax = norm.vmin, norm.vmax
            if (type(norm) is Normalize and not norm.clip and vmin is not None
                    and vmax is not None and vmin < vmax and not np.ma.is_masked(data)):
                # Normalize's own arithmetic, without its masked-array machinery
                values = (np.asarray(data, dtype=float) - vmin) / (vmax - vmin)
                colors = self.cmap(values)
            else:
                colors = self.to_rgba(data)
            return kept[1], kept[2], colors.reshape(-1, 4)

        def draw(self, renderer):
            data = self.get_array()
            if not self.get_visible() or data is None or data.ndim != 2:
                return super().draw(renderer)
            rows, cols = data.shape
            coords, transform, colors = self._cells(data)
            gc = renderer.new_gc()
            self._set_gc_clip(gc)
            gc.set_alpha(self.get_alpha())
            gc.set_linewidth(0.0)
            renderer.draw_quad_mesh(gc, transform, cols, rows, coords, np.zeros((0, 2)),
                                    transform, colors, False, np.zeros((0, 4)))
            gc.restore()
            self.stale = False
            return None

    _CELL_IMAGE["cls"] = CellImage
    return CellImage


def _new_grid(ax, shape, size=12, *, indices=True, gid="cell-labels"):
    """A code panel to fill with :func:`_fill_grids`: one image and one text collection (the
    codes, gid ``"value"``, and their real values, gid ``"real"``), no tick machinery; the
    row and column indices (gid ``"tick"``) in a collection of their own, drawn once."""
    from .heatmaps import _BAD_WHITE_CMAP, _index_labels

    rows, cols = shape
    image = ax.imshow(np.zeros(shape), cmap=_BAD_WHITE_CMAP(), vmin=0.0, vmax=1.0,
                      extent=(-0.5, cols - 0.5, rows - 0.5, -0.5), interpolation="nearest")
    image.__class__ = _cell_image_class()
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_aspect("equal")
    for spine in ax.spines.values():
        spine.set_visible(False)
    if indices:
        ticks = style.TextCollection()
        _index_labels(ax, ticks, range(rows), range(cols), size=9)
        _out_of_layout(ticks.draw(ax, gid="cell-indices"))
        _room_for_indices(ax)
    labels = style.TextCollection().draw(ax, gid=gid)
    _out_of_layout(image, labels)
    return SimpleNamespace(ax=ax, image=image, labels=labels, shape=tuple(shape), size=size)


#: the width (points) a cell's texts may take in an n x n grid: 0.95 of the cells of the
#: explorer's panels (about 120 / n points wide), whatever the layout makes of them later
_CELL_TEXT_WIDTH = 0.95 * 120.0


def _fitted_size(texts, size, shape, *, bold=False) -> float:
    """``size``, or smaller (in half points, at least 6) so that the widest of ``texts``
    fits a cell of a grid of ``shape``: a 4-digit code or a 2-decimal real value stays
    inside its cell instead of running into the next."""
    unique = frozenset(texts)
    key = (unique, size, max(shape), bold)
    fitted = _FITTED.get(key)
    if fitted is not None:
        return fitted
    budget = _CELL_TEXT_WIDTH / max(shape)
    widest = max((_text_width(t, size, bold) for t in unique), default=0.0)
    if widest <= budget:
        fitted = round(float(size), 1)
    else:
        fitted = max(6.0, np.floor(2 * size * budget / widest) / 2)
    if len(_FITTED) > 4096:
        _FITTED.clear()
    _FITTED[key] = fitted
    return fitted


_FITTED: dict = {}      # _fitted_size of a set of texts (a pure function of its key)
_REAL_TEXTS: dict = {}  # "real " + _real_text of a value, with or without a scale


def _real_texts(reals, scale) -> list:
    """``"real " + _real_text(v, scale)`` for each of ``reals`` (floats)."""
    unit = scale is None
    out = []
    for real in reals:
        text = _REAL_TEXTS.get((real, unit))
        if text is None:
            if len(_REAL_TEXTS) > 4096:
                _REAL_TEXTS.clear()
            text = _REAL_TEXTS[real, unit] = "real " + _real_text(real, scale)
        out.append(text)
    return out


_CMAPS: dict = {}


def _cmap(name):
    """The colormap ``name`` (``matplotlib.colormaps[name]`` makes a new copy each time)."""
    cmap = _CMAPS.get(name)
    if cmap is None:
        import matplotlib as mpl

        cmap = _CMAPS[name] = mpl.colormaps[name]
    return cmap


def _fill_grids(filled, vmin, vmax, scale) -> None:
    """Show codes in panels of :func:`_new_grid`: ``filled`` is a list of ``(grid, codes,
    reals)``; colours on one scale and, in every cell, the code (bold, gid ``"value"``) and
    its real value (gid ``"real"``), black or white as the cell's colour needs."""
    arrays = [np.asarray(codes) for _, codes, _ in filled]
    white = style.cell_text_colors(np.concatenate([a.ravel() for a in arrays]), vmin,
                                   vmax, cmap=_cmap(style.CMAP)) == "white"
    start = 0
    for (grid, _, reals), codes in zip(filled, arrays, strict=True):
        grid.image.set_data(codes.astype(float))      # integer codes: nothing to mask
        grid.image.set_clim(vmin, vmax)
        n, cols = codes.size, codes.shape[1]
        code_texts = [str(int(code)) for code in codes.ravel().tolist()]
        real_texts = _real_texts(reals.ravel().tolist(), scale)
        big = _fitted_size(code_texts, grid.size, codes.shape, bold=True)
        small = _fitted_size(real_texts, grid.size - 4, codes.shape)
        items, keys = [], []
        shade = white[start:start + n].tolist()
        for k, (code_text, real_text) in enumerate(zip(code_texts, real_texts, strict=True)):
            i, j = divmod(k, cols)
            color = "white" if shade[k] else "black"
            items += [style.CellText(code_text, j, i - 0.1, big, color, True, "value"),
                      style.CellText(real_text, j, i + 0.26, small, color, False, "real")]
            keys += [(code_text, big, "center", 0.0, 0.0, True),
                     (real_text, small, "center", 0.0, 0.0, False)]
        rgba = np.repeat(np.where(white[start:start + n], 1.0, 0.0), 2)
        start += n
        coll = grid.labels
        coll.set_paths([glyphs.cell_path(key) for key in keys])
        if len(coll.get_offsets()) != 2 * n:           # the cells' places: set once
            coll.set_offsets([(t.x, t.y) for t in items])
        coll.set_facecolor(np.column_stack([rgba, rgba, rgba, np.ones(2 * n)]))
        coll.pooltutor_texts = tuple(items)


def _window_marks(ax, count):
    """``count`` window outlines (house style), placed by :func:`_move_cells`."""
    patches = style.outline_cells(ax, [(0, 0)] * count, linewidth=3, autolim=False)
    _out_of_layout(*patches)
    return patches


def _move_cells(patches, cells, half=0.5) -> None:
    for patch, (r, c) in zip(patches, cells, strict=True):
        patch.set_xy((c - half, r - half))


def _code_mark(shape) -> dict:
    """How a code grid of ``shape`` marks its winner: on the cell's edges when the grid has
    3 or more rows or columns (the codes fill those small cells), else the house mark
    inside the cell (large cells, as the pooled grids')."""
    return {"half": 0.5, "linewidth": 2.5} if max(shape) > 2 else {}


def _cell_mark(ax, *, color=style.WINNER_COLOR, gid="winner", half=0.42, linewidth=3.5):
    patch = style.mark_cell(ax, (0, 0), color=color, gid=gid, autolim=False, half=half,
                            linewidth=linewidth)
    _out_of_layout(patch)
    return patch


def _place_mark(patch, cell) -> None:
    """Put a :func:`_cell_mark` square on ``cell`` (row, col), whatever its size."""
    half = patch.get_width() / 2
    patch.set_xy((cell[1] - half, cell[0] - half))


def _raised_marks(ax, shape):
    """One green corner per cell (gid ``"raised"``), shown by :func:`_show_raised` on the
    codes that ReLU raised to the zero point: a small triangle in the cell's upper left
    corner, clear of the numbers."""
    from matplotlib.patches import Polygon

    marks = {}
    for r in range(shape[0]):
        for c in range(shape[1]):
            x0, y0 = c - 0.45, r - 0.45
            marks[r, c] = mark = Polygon([(x0, y0), (x0 + 0.22, y0), (x0, y0 + 0.22)],
                                         closed=True, facecolor=style.RIGHT_COLOR,
                                         edgecolor=style.RIM_COLOR, linewidth=0.8,
                                         zorder=5.5, gid="raised")
            mark.set_in_layout(False)
    return marks


def _show_raised(ax, marks, cells) -> list:
    """Put the marks of ``cells`` on ``ax``, take the others off; returns those shown."""
    shown = set(cells)
    for cell, mark in marks.items():
        _attach(ax, mark, cell in shown)
    return [marks[cell] for cell in cells]


def _pair(t):
    return str(t[0]) if t[0] == t[1] else f"{t[0]}x{t[1]}"


def _zordered(artists):
    """``artists`` in matplotlib's drawing order inside one Axes (by zorder, stable)."""
    return sorted(artists, key=lambda a: a.get_zorder())


# --------------------------------------------------------------------------- zero point


def _check_params(scale, zero_point, dtype):
    """Validated ``(dtype name, qmin, qmax, scale, zero_point)``, through pooltutor.quant's
    own public checks (so the messages are the same as there)."""
    qmin, qmax = quant.dtype_range(dtype)                       # names dtype
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    probe = np.array([qmin], dtype=name)
    quant.relu(probe, zero_point, name)                         # names zero_point
    quant.dequantize(probe, scale, zero_point, name)            # names scale
    return name, qmin, qmax, float(scale), int(zero_point)


def _check_block(codes, dtype, qmin, qmax):
    try:
        arr = np.asarray(codes)
    except (TypeError, ValueError) as exc:
        raise PoolTutorTypeError(f"codes could not be read as an integer array ({exc})") from None
    if arr.dtype.kind not in "iu":
        raise PoolTutorTypeError(f"codes has dtype {arr.dtype}: need integer codes")
    if arr.size and (int(arr.min()) < qmin or int(arr.max()) > qmax):
        bad = int(arr.min()) if int(arr.min()) < qmin else int(arr.max())
        raise PoolTutorError(
            f"codes holds the code {bad}, outside the {dtype} range [{qmin}, {qmax}]"
        )
    return arr


def _checked_block(codes, dtype, qmin, qmax):
    block = _check_block(codes, dtype, qmin, qmax)
    if block.ndim != 2 or 0 in block.shape:
        raise PoolTutorError(f"codes has shape {block.shape}: need a non-empty 2-D block")
    if max(block.shape) > 8:
        raise PoolTutorError(
            f"codes has shape {block.shape}: plot_zero_point_relu writes every code, "
            f"need at most 8 x 8"
        )
    return block.astype(dtype)


#: The code panels of :func:`plot_zero_point_relu`, in drawing order.
RELU_PANELS = ("codes", "right", "pooled_right", "wrong", "pooled_wrong")


def _relu_values(block, scale, zp, dtype, kernel, stride, out_index, chain=None):
    """Everything the code panels show, validated (nothing drawn yet).  With ``chain`` (a
    2-D :class:`~pooltutor.quant.QuantChain` of ``block``, ``zp``, ``dtype`` and the same
    pool) the right ReLU, its pool and winners are the chain's (the same max pool)."""
    wrong = quant.relu(block, 0, dtype)
    x4 = lambda a: a.reshape((1, 1) + a.shape)      # noqa: E731
    if chain is None:
        right = quant.relu(block, zp, dtype)
        res_right = quant.quantized_max_pool(x4(right), kernel, stride, dtype=dtype)
        pooled_right, right_winners = res_right.output[0, 0], res_right.indices[0, 0]
        geometry = res_right.geometry
    else:
        right, pooled_right, right_winners = chain.activated, chain.pooled, chain.winners
        geometry = chain.geometry
    res_wrong = quant.quantized_max_pool(x4(wrong), kernel, stride, dtype=dtype)
    pooled_wrong = res_wrong.output[0, 0]
    index = tuple(out_index)
    if len(index) != 2:
        raise PoolTutorError(f"out_index={out_index!r}: need (i, j)")
    for v, size in zip(index, pooled_right.shape, strict=False):
        check_int("out_index", v, minimum=0)
        if v >= size:
            raise PoolTutorError(
                f"out_index={out_index!r} is outside the pooled codes shaped "
                f"{pooled_right.shape}"
            )
    index = tuple(int(v) for v in index)
    per_axis = geometry.window(index)
    window = [(r, c) for r in per_axis[0][0] for c in per_axis[1][0]]
    width = block.shape[1]
    winners = {name: divmod(int(indices[index]), width)
               for name, indices in (("right", right_winners),
                                     ("wrong", res_wrong.indices[0, 0]))}
    return SimpleNamespace(block=block, right=right, wrong=wrong, pooled_right=pooled_right,
                           pooled_wrong=pooled_wrong, index=index, window=window,
                           winners=winners, geometry=geometry)


def _legend_entries(with_block):
    entries = [
        (dict(color=IDENTITY_COLOR, linewidth=1.2, linestyle=":"),
         "no ReLU: real = (q \u2212 zp)\u00b7s"),
        (dict(color=style.WRONG_COLOR, linewidth=2.2, linestyle="--"),
         "wrong: max(q, 0) on raw codes"),
        (dict(color=style.RIGHT_COLOR, linewidth=3.2, alpha=0.85),
         "right: max(q, zp), real \u2265 0"),
    ]
    if with_block:
        entries.append((dict(color="black", marker="o", markersize=5, linestyle="none"),
                        "the block's codes (input)"))
    return entries


def _new_legend(ax, entries, size):
    """A legend in the lower right corner of ``ax``, built from plain artists (a frame, the
    handles, one text collection): cheap enough to draw at every update, above the lines
    that may pass under it.  Everything is placed in points from the Axes' corner."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyBboxPatch
    from matplotlib.transforms import ScaledTranslation

    corner = _points(ax) + ScaledTranslation(1, 0, ax.transAxes)
    pad, handle, handle_pad, gap, outer = 0.4 * size, 2.0 * size, 0.8 * size, 0.5 * size, \
        0.5 * size
    row = 1.15 * size
    n = len(entries)
    width = 2 * pad + handle + handle_pad + max(_text_width(t, size) for _, t in entries)
    height = 2 * pad + n * row + (n - 1) * gap
    x0, y0 = -outer - width, outer
    frame = FancyBboxPatch((x0, y0), width, height,
                           boxstyle=f"round,pad=0,rounding_size={0.2 * size}",
                           transform=corner, facecolor=(1, 1, 1, 0.92), edgecolor="0.8",
                           linewidth=0.8, zorder=5, clip_on=False, gid="legend")
    frame.pooltutor_box = ((x0, y0), (x0 + width, y0 + height))     # in points, from the corner
    ax.add_artist(frame)
    artists = [frame]
    labels = style.TextCollection()
    for k, (props, text) in enumerate(entries):
        yc = y0 + height - pad - (k + 0.5) * row - k * gap
        if props.get("marker"):
            handle_line = Line2D([x0 + pad + handle / 2], [yc], **props)
        else:
            handle_line = Line2D([x0 + pad, x0 + pad + handle], [yc, yc], **props)
        handle_line.set(transform=corner, clip_on=False, zorder=5, gid="legend-handle")
        ax.add_artist(handle_line)
        artists.append(handle_line)
        labels.add(x0 + pad + handle + handle_pad, yc, text, size, "black", gid="legend",
                   ha="left", dy=-0.36 * size)
    coll = labels.draw(ax, gid="legend-labels", zorder=5)
    coll.set_offset_transform(corner)
    artists.append(coll)
    _out_of_layout(*artists)
    return artists


def _new_transfer(ax, dtype, qmin, qmax, with_block, fs):
    """The transfer plot's Axes and artists, filled by :func:`_fill_transfer`.

    The code axis (x) is fixed; the real axis moves with the zero point and the scale, so
    its ticks (left) and the real values of the codes (top) are a tick line and a text
    collection each, and the limits are chosen so that the identity line is the diagonal
    (the legend sits below it, where no line ever goes)."""
    from matplotlib.lines import TICKLEFT, TICKUP, Line2D
    from matplotlib.patches import Polygon
    from matplotlib.transforms import blended_transform_factory as blend

    span = qmax - qmin
    ax.set_xlim(qmin - _MARGIN * span, qmax + _MARGIN * span)
    ax.set_yticks([])
    ax.tick_params(axis="x", labelsize=fs(9.5))
    ax.grid(True, axis="x", alpha=0.25)
    ax.set_xlabel(f"input code q ({dtype}, {qmin} .. {qmax})", fontsize=fs(11))
    tick_size = fs(9.5)
    y_text = blend(ax.transAxes, ax.transData)          # x in Axes fraction, y a real value
    x_text = blend(ax.transData, ax.transAxes)          # x a code, y in Axes fraction
    t = SimpleNamespace(ax=ax, dtype=dtype, qmin=qmin, qmax=qmax, with_block=with_block,
                        fs=fs, tick_size=tick_size)
    t.legend = _new_legend(ax, _legend_entries(with_block), fs(9))
    t.zero = _levels_clear_of(ax, t.legend[0], colors="black", linewidths=0.8, zorder=1.0,
                              gid="real-zero")
    t.zero.set_levels([0.0])
    t.grid = _levels_clear_of(ax, t.legend[0], colors="#b0b0b0", linewidths=0.8, alpha=0.25,
                              zorder=1.5, gid="y-grid")
    t.disagree = Polygon(np.zeros((4, 2)), closed=True, facecolor=style.WRONG_COLOR,
                         edgecolor="none", alpha=0.12, zorder=1.6, gid="disagree")
    ax.add_artist(t.disagree)
    # the clamp codes: from the corner of their line up to their label
    t.zp_line = Line2D([0, 0], [0, 1], color=style.RIGHT_COLOR, linewidth=1.2,
                       linestyle="-.", zorder=2.0, gid="zero-point")
    t.zero_line = Line2D([0, 0], [0, 1], color=style.WRONG_COLOR, linewidth=1.2,
                         linestyle="-.", zorder=2.0, gid="code-zero")
    ax.add_artist(t.zp_line)
    (t.identity,) = ax.plot([], [], color=IDENTITY_COLOR, linewidth=1.2, linestyle=":",
                            label="no ReLU: real = (q \u2212 zp)\u00b7s", gid="identity",
                            zorder=2.0)
    (t.wrong,) = ax.plot([], [], color=style.WRONG_COLOR, linewidth=2.2, linestyle="--",
                         label="wrong: max(q, 0) on raw codes", gid="wrong", zorder=4.0)
    (t.right,) = ax.plot([], [], color=style.RIGHT_COLOR, linewidth=3.2, alpha=0.85,
                         label="right: max(q, max(qmin, zp))", gid="right", zorder=3.0)
    t.block = None
    if with_block:
        (t.block,) = ax.plot([], [], "o", color="black", markersize=5, zorder=6.0,
                             label="the block's codes (input)", gid="block-codes")
    t.zp_label = ax.text(0, 1, "", fontsize=fs(10), color=style.RIGHT_COLOR, va="top",
                         gid="zero-point-label", zorder=5.5)
    t.zero_label = ax.text(0, 1, "", fontsize=fs(10), color=style.WRONG_COLOR, va="top",
                           gid="code-zero-label", zorder=5.5)
    # the real-value ticks: left (real value after ReLU) and top (real value of the code)
    t.yticks = Line2D([], [], transform=y_text, marker=TICKLEFT, markersize=_TICK_LENGTH,
                      markeredgewidth=0.8, color="black", linestyle="none", clip_on=False,
                      zorder=2.5, gid="y-ticks")
    t.xticks = Line2D([], [], transform=x_text, marker=TICKUP, markersize=_TICK_LENGTH,
                      markeredgewidth=0.8, color="black", linestyle="none", clip_on=False,
                      zorder=2.5, gid="real-ticks")
    ax.add_artist(t.yticks)
    ax.add_artist(t.xticks)
    t.ylabels = style.TextCollection().draw(ax, gid="y-tick-labels", zorder=2.5)
    t.ylabels.set_offset_transform(y_text)
    t.xlabels = style.TextCollection().draw(ax, gid="real-tick-labels", zorder=2.5)
    t.xlabels.set_offset_transform(x_text)
    # room for the tick labels (drawn in collections, which the layout does not see): the
    # y label stands clear of the widest label, the title above the real-value axis
    t.label_room = _TICK_LENGTH + _TICK_PAD + _text_width(_MINUS + "0000", tick_size) + 3
    ax.set_ylabel("real value after ReLU", fontsize=fs(11), labelpad=t.label_room)
    top_gap = _TICK_LENGTH + _TICK_PAD + 0.75 * tick_size + 4
    t.real_axis_label = ax.text(0.5, 1, "real value of the input code, (q \u2212 zp)\u00b7s",
                                transform=_offset(ax, ax.transAxes, 0, top_gap),
                                ha="center", va="bottom", fontsize=fs(10.5), gid="real-axis")
    ax.set_title("\n", fontsize=fs(12), pad=top_gap + 1.4 * fs(10.5) + 5, y=1.0)
    _out_of_layout(t.zero, t.grid, t.disagree, t.zp_line, t.zero_line, t.identity, t.wrong,
                   t.right, t.zp_label, t.zero_label, t.yticks, t.xticks, t.ylabels, t.xlabels,
                   t.real_axis_label, *([t.block] if with_block else []))
    return t


def _levels_clear_of(ax, frame, **kw):
    """Horizontal lines across ``ax`` at real values (:meth:`set_levels`) that stop short
    of the legend ``frame`` where they would run under it (worked out at each draw, in
    pixels): the legend is then drawn once, under nothing that moves."""
    from matplotlib.collections import LineCollection
    from matplotlib.transforms import blended_transform_factory

    class LevelsClearOfLegend(LineCollection):
        levels = ()

        def set_levels(self, levels):
            self.levels = tuple(float(v) for v in levels)
            self.set_segments([[(0.0, v), (1.0, v)] for v in self.levels])

        def draw(self, renderer):
            (x0, y0), (_, y1) = frame.get_transform().transform(frame.pooltutor_box)
            y_px = self.get_transform().transform([(0.0, v) for v in self.levels])[:, 1] \
                if self.levels else np.zeros(0)
            stop = float(self.axes.transAxes.inverted().transform((x0 - 3, 0))[0])
            self.set_segments([[(0.0, v), (stop if y0 - 3 <= y <= y1 + 3 else 1.0, v)]
                               for v, y in zip(self.levels, y_px, strict=True)])
            super().draw(renderer)

    lines = LevelsClearOfLegend([], transform=blended_transform_factory(ax.transAxes,
                                                                       ax.transData), **kw)
    ax.add_collection(lines, autolim=False)
    return lines


def _attach(ax, artist, on: bool) -> None:
    """Put ``artist`` on ``ax`` (``on``) or take it off (kept for later)."""
    if on and artist.axes is None:
        ax.add_artist(artist)
    elif not on and artist.axes is not None:
        artist.remove()


def _label_side(code, other, qmin, qmax) -> bool:
    """True: a clamp label goes left of its line (away from the other line, where there is
    room: about a quarter of the axis)."""
    span = qmax - qmin
    room_left, room_right = code - qmin > 0.25 * span, qmax - code > 0.25 * span
    if other is not None and other > code:
        return room_left or not room_right
    return not room_right


def _kept_offset(t, dx, dy):
    """``_offset(ax, ax.get_xaxis_transform(), dx, dy)`` of the transfer plot ``t``, made
    once for each shift (a transform follows its Axes and the figure's dpi by itself)."""
    kept = t.__dict__.setdefault("offsets", {})
    transform = kept.get((dx, dy))
    if transform is None:
        transform = kept[dx, dy] = _offset(t.ax, t.ax.get_xaxis_transform(), dx, dy)
    return transform


def _fill_transfer(t, scale, zp, block) -> list:
    """Show one ``(scale, zero_point)`` (and the block's codes) in the transfer plot; returns
    its artists that change, in drawing order."""
    ax, qmin, qmax, fs = t.ax, t.qmin, t.qmax, t.fs
    span = qmax - qmin
    real = lambda q: (np.asarray(q, dtype=np.float64) - zp) * scale     # noqa: E731
    wrong_floor, right_floor = max(qmin, 0), max(qmin, zp)
    x_lo, x_hi = qmin - _MARGIN * span, qmax + _MARGIN * span
    y_lo, y_top = float(real(x_lo)), float(real(x_hi))
    ax.set_ylim(y_lo, y_top + _HEADROOM * (y_top - y_lo))
    ticks = _nice_ticks(y_lo, y_top)
    texts = [_tick_text(v) for v in ticks]
    t.grid.set_levels(ticks)
    t.yticks.set_data(np.zeros(len(ticks)), ticks)
    codes_at = zp + ticks / scale                       # the codes of these real values
    t.xticks.set_data(codes_at, np.ones(len(ticks)))
    ylabels, xlabels = style.TextCollection(), style.TextCollection()
    for v, c, text in zip(ticks, codes_at, texts, strict=True):
        ylabels.add(0.0, v, text, t.tick_size, "black", gid="y-tick", ha="right-center",
                    dx=-(_TICK_LENGTH + _TICK_PAD))
        xlabels.add(c, 1.0, text, t.tick_size, "black", gid="real-tick", ha="title",
                    dy=_TICK_LENGTH + _TICK_PAD)
    _set_texts(t.ylabels, ylabels)
    _set_texts(t.xlabels, xlabels)
    # the three transfer lines are straight between their corners
    t.identity.set_data([qmin, qmax], real([qmin, qmax]))
    t.right.set_data([qmin, right_floor, qmax], real([right_floor, right_floor, qmax]))
    t.wrong.set_data([qmin, wrong_floor, qmax], real([wrong_floor, wrong_floor, qmax]))
    lo, hi = sorted((wrong_floor, right_floor))
    t.disagree.set_visible(lo != hi)                    # where the two clamps disagree
    t.disagree.set_xy(np.column_stack([
        [lo, hi, hi, lo],
        real([max(lo, wrong_floor), max(hi, wrong_floor), max(hi, right_floor),
              max(lo, right_floor)])]))
    # the clamp codes: lines, and their labels above the data (zp on the first row)
    show_zero = qmin <= 0 <= qmax and zp != 0
    y_max = y_top + _HEADROOM * (y_top - y_lo)
    t.zp_line.set_data([zp, zp], [0.0, y_max])
    left = _label_side(zp, 0 if show_zero else None, qmin, qmax)
    t.zp_label.set_text(f"zp = {zp} (real 0)")
    t.zp_label.set_ha("right" if left else "left")
    t.zp_label.set_transform(_kept_offset(t, -4 if left else 4, -3))
    t.zp_label.set_position((zp, 1.0))
    _attach(ax, t.zero_line, show_zero)
    _attach(ax, t.zero_label, show_zero)
    if show_zero:
        left = _label_side(0, zp, qmin, qmax)
        t.zero_line.set_data([0, 0], [float(real(0)), y_max])
        t.zero_label.set_text(f"code 0 (real {_real_text(-zp * scale, scale)})")
        t.zero_label.set_ha("right" if left else "left")
        t.zero_label.set_transform(_kept_offset(t, -4 if left else 4, -3 - 1.6 * fs(10)))
        t.zero_label.set_position((0, 1.0))
    if t.block is not None:
        flat = np.unique(block.ravel())
        t.block.set_data(flat.astype(float), real(flat))
    if zp == wrong_floor:
        verdict = "zero point = the literal 0: both clamps agree"
    elif zp > 0:
        verdict = (f"max(q, 0) does nothing: codes {max(qmin, 0)}..{zp - 1} keep their negative "
                   f"real values")
    else:
        verdict = (f"max(q, 0) raises codes {zp}..-1 to 0: their real values become "
                   f"{_real_text(-zp * scale, scale)}")
    ax.title.set_text(f"ReLU on {t.dtype} codes: scale={scale:g}, zero_point={zp}\n{verdict}")
    inside = [t.zero, t.grid, t.disagree, t.zp_line, t.identity, t.right, t.wrong, t.zp_label,
              *([t.block] if t.block is not None else [])]
    if show_zero:
        inside += [t.zero_line, t.zero_label]
    return [*_zordered(inside), t.yticks, t.ylabels, t.xticks, t.xlabels, ax.title]


def plot_zero_point_relu(scale, zero_point, dtype="uint8", codes=None, *, kernel=2, stride=None,
                         out_index=(0, 0), fig=None, panels=RELU_PANELS) -> ZeroPointReluPlot:
    """Draw ReLU at the zero point against ReLU at the literal code 0.

    Parameters
    ----------
    scale : float
        The scale ``s > 0`` of the codes (real value ``(q - zp) * s``).
    zero_point : int
        Inside the range of ``dtype``.
    dtype : {'uint8', 'int8', 'uint16', 'int16'} or numpy dtype
    codes : 2-D array_like of int, optional
        A block of codes: both ReLUs are applied to it and max pooled
        (``kernel``, ``stride``, no padding, floor rule).
    kernel, stride : int or (int, int)
        The max pool applied to ``codes`` (``stride=None``: ``kernel``).
    out_index : (int, int)
        The pooled cell whose window and winner are marked.
    fig : matplotlib.figure.Figure, optional
        Drawn on (after ``fig.clear()``); a new Figure by default.
    panels : sequence of str
        Which code panels to draw with ``codes`` (a subset of :data:`RELU_PANELS`, drawn
        in that order right of the transfer plot when fewer than all five: an
        explorer that shows the right ReLU's chain already draws only ``("wrong",
        "pooled_wrong")``).  Every array of the result is computed either way.

    Returns
    -------
    ZeroPointReluPlot

    Notes
    -----
    With ``zero_point = 0`` the two clamps agree.  With ``zero_point > 0``
    (uint8, zero point 128) ``max(q, 0)`` does nothing at all: every negative
    real value survives.  With ``zero_point < 0`` (int8, zero point -20,
    TV37) it raises the codes ``zp .. -1`` to 0, i.e. small *positive*
    real values are replaced by ``-zp * s``.

    The transfer plot keeps its code axis for the dtype; its real axis (left: the
    real value after ReLU; top: the real value of the input code) follows the zero
    point, with the identity line as the diagonal.  Where the two clamps disagree is
    shaded red.  :func:`update_zero_point_relu` redraws the plot for other values.

    Examples
    --------
    TV37: int8 codes, zero point -20:

    >>> p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    >>> p.right.tolist(), p.wrong.tolist(), (p.right_floor, p.wrong_floor)
    ([[-20, -5], [0, 7]], [[0, 0], [0, 7]], (-20, 0))

    See Also
    --------
    pooltutor.quant.relu : the correct clamp.
    pooltutor.viz.relu_explorer.ZeroPointReluExplorer : the same, with controls.
    """
    style.check_fig(fig)
    dtype, qmin, qmax, scale, zp = _check_params(scale, zero_point, dtype)
    block = None if codes is None else _checked_block(codes, dtype, qmin, qmax)
    if isinstance(panels, str):
        panels = (panels,)
    panels = tuple(panels)
    if not panels or any(name not in RELU_PANELS for name in panels) or len(set(panels)) != len(
            panels):
        raise PoolTutorError(f"panels={panels!r} is not allowed: need distinct names among "
                             f"{', '.join(repr(v) for v in RELU_PANELS)}")
    values = None
    if block is not None:
        values = _relu_values(block, scale, zp, dtype, kernel, stride, out_index)
    panels = tuple(name for name in RELU_PANELS if name in panels)
    full = len(panels) == len(RELU_PANELS)
    figsize = (12.5, 8.4) if values is not None else (9.5, 5.2)
    fig, kept = prepare_figure(fig, ("zero_point_relu", values is None, panels), figsize)
    if kept is None:
        if values is not None and full:
            grid = fig.add_gridspec(2, 5, height_ratios=[1.25, 1.0])
            kept = [fig.add_subplot(grid[0, :])] + [fig.add_subplot(grid[1, k]) for k in range(5)]
        elif values is not None:            # the transfer plot, then the panels in a row
            grid = fig.add_gridspec(1, 1 + len(panels), width_ratios=[2.6] + [1] * len(panels))
            kept = [fig.add_subplot(grid[0, k]) for k in range(1 + len(panels))]
        else:
            kept = [fig.add_subplot()]
        keep_axes(fig, kept)

    # ---- the transfer plot: input code -> real value after ReLU
    # (smaller text beside a row of panels, when not every panel is drawn)
    fs = (lambda v: v) if full or values is None else (lambda v: round(v * 0.78, 1))   # noqa: E731
    transfer = _new_transfer(kept[0], dtype, qmin, qmax, values is not None, fs)
    grids = {} if values is None else _new_panels(dict(zip(panels, kept[1:], strict=True)),
                                                  values, qmin)
    parts = SimpleNamespace(transfer=transfer, grids=grids, dtype=dtype, qmin=qmin, qmax=qmax,
                            kernel=kernel, stride=stride,
                            shape=None if values is None else values.block.shape)
    return _fill_relu(fig, parts, scale, zp, values)


def _new_panels(axes, values, qmin) -> dict:
    """The code panels of :func:`plot_zero_point_relu` on ``axes`` (panel name -> empty
    Axes, in drawing order), for the block's shape and the pool of ``values``."""
    block = values.block
    titles = {"codes": "input codes", "wrong": f"wrong ReLU\nmax(q, {max(qmin, 0)})"}
    g = values.geometry
    pool_text = (f"max pool k={g.kernel[0] if g.kernel[0] == g.kernel[1] else g.kernel} "
                 f"s={g.stride[0] if g.stride[0] == g.stride[1] else g.stride}")
    titles["pooled_right"] = f"{pool_text}\nof the right ReLU"
    titles["pooled_wrong"] = f"{pool_text}\nof the wrong ReLU"
    grids = {}
    for name, ax in axes.items():
        shape = values.pooled_right.shape if name.startswith("pooled") else block.shape
        grid = _new_grid(ax, shape, indices=False)
        color = (style.RIGHT_COLOR if "right" in name else
                 style.WRONG_COLOR if "wrong" in name else "black")
        ax.set_title(titles.get(name, "\n"), fontsize=11, color=color, y=1.0)
        if name in ("codes", "right", "wrong"):
            grid.window = _window_marks(ax, len(values.window))
        if name in ("right", "wrong"):
            grid.winner = _cell_mark(ax, **_code_mark(shape))
        if name.startswith("pooled"):
            grid.highlight = _cell_mark(ax, color=style.HIGHLIGHT_COLOR, gid="highlight")
            ax.set_xlabel("\u2007", fontsize=10.5)
        grids[name] = grid
    return grids


def _fill_relu(fig, parts, scale, zp, values) -> ZeroPointReluPlot:
    dtype = parts.dtype
    parts.block = None if values is None else values.block
    dynamic = _fill_transfer(parts.transfer, scale, zp, None if values is None else values.block)
    grid_axes = {}
    if values is not None:
        real = lambda a: quant.dequantize(a, scale, zp, dtype)      # noqa: E731
        right_floor = max(parts.qmin, zp)
        vmin, vmax = style.shared_limits(values.block, values.right, values.wrong, [right_floor])
        arrays = {"codes": values.block, "right": values.right, "wrong": values.wrong,
                  "pooled_right": values.pooled_right, "pooled_wrong": values.pooled_wrong}
        r = int(values.pooled_right[values.index])
        _fill_grids([(grid, arrays[name], real(arrays[name]))
                     for name, grid in parts.grids.items()], vmin, vmax, scale)
        for name, grid in parts.grids.items():
            ax = grid.ax
            arr = arrays[name]
            changed, extra = [grid.image, grid.labels], []
            if name == "right":
                ax.title.set_text(f"right ReLU\nmax(q, {right_floor})")
                extra.append(ax.title)
            if name in ("codes", "right", "wrong"):
                _move_cells(grid.window, values.window)
                changed += grid.window
            if name in ("right", "wrong"):
                i, j = values.winners[name]
                _place_mark(grid.winner, (i, j))
                changed.append(grid.winner)
            if name.startswith("pooled"):
                i, j = values.index
                _place_mark(grid.highlight, (i, j))
                code = int(arr[values.index])
                value = float(real(np.array([code], dtype=dtype))[0])
                if value < 0:
                    text, color = f"{code}: real {_real_text(value, scale)} < 0 !", \
                        style.WRONG_COLOR
                elif name == "pooled_wrong" and code != r:
                    text, color = f"{code}: real {_real_text(value, scale)}, not {r}", \
                        style.WRONG_COLOR
                else:
                    text, color = f"{code}: real {_real_text(value, scale)}", "black"
                ax.xaxis.label.set_text(text)
                ax.xaxis.label.set_color(color)
                changed.append(grid.highlight)
                extra.append(ax.xaxis)        # its label (the axis draws nothing else)
            grid_axes[name] = ax
            dynamic += _zordered(changed) + extra
    right = wrong = pooled_right = pooled_wrong = None
    if values is not None:
        right, wrong = values.right, values.wrong
        pooled_right, pooled_wrong = values.pooled_right, values.pooled_wrong
    return ZeroPointReluPlot(fig, parts.transfer.ax, MappingProxyType(grid_axes),
                             max(parts.qmin, zp), max(parts.qmin, 0), right, wrong, pooled_right,
                             pooled_wrong, tuple(dict.fromkeys(dynamic)), parts)


def update_zero_point_relu(plot, scale, zero_point, codes=None, *,
                           out_index=(0, 0)) -> ZeroPointReluPlot:
    """Redraw a :func:`plot_zero_point_relu` plot in place for another zero point, scale,
    block of codes (of the same shape) or pooled cell.

    The dtype, the block's shape, the pool and the panels stay those of ``plot`` (draw
    it again with :func:`plot_zero_point_relu` to change them); ``codes=None`` keeps the
    block drawn.  Nothing is changed when a value is refused (``ValueError`` /
    ``TypeError`` naming it).  Returns the new :class:`ZeroPointReluPlot`, on the same
    Axes; its ``dynamic`` artists are the ones that changed.

    >>> p = plot_zero_point_relu(0.5, 128, "uint8", codes=[[126, 120], [110, 127]])
    >>> q = update_zero_point_relu(p, 1.0, 0)
    >>> q.right.tolist(), q.line_ax.get_title().splitlines()[1]
    ([[126, 120], [110, 127]], 'zero point = the literal 0: both clamps agree')
    """
    parts = getattr(plot, "_parts", None)
    if not isinstance(plot, ZeroPointReluPlot) or parts is None:
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need the "
                                 f"ZeroPointReluPlot of plot_zero_point_relu")
    dtype, qmin, qmax, scale, zp = _check_params(scale, zero_point, parts.dtype)
    values = None
    if parts.shape is None:
        if codes is not None:
            raise PoolTutorError("codes: this plot was drawn without a block of codes: draw it "
                                 "again with plot_zero_point_relu(..., codes=...)")
    else:
        block = parts.block if codes is None else _checked_block(codes, dtype, qmin, qmax)
        if block.shape != parts.shape:
            raise PoolTutorError(f"codes has shape {block.shape}: this plot shows a block "
                                 f"shaped {parts.shape} (draw it again with "
                                 f"plot_zero_point_relu for another shape)")
        values = _relu_values(block, scale, zp, dtype, parts.kernel, parts.stride, out_index)
    return _fill_relu(plot.figure, parts, scale, zp, values)



def _update_from_chain(plot, chain, out_index) -> ZeroPointReluPlot:
    """``update_zero_point_relu(plot, chain.scale, chain.zero_point, codes=chain.codes,
    out_index=out_index)``: the same plot, with the right ReLU, its max pool and winners
    taken from ``chain`` (a 2-D chain with a scale, of the plot's dtype, block shape and
    pool, as :class:`~pooltutor.viz.relu_explorer.ZeroPointReluExplorer` draws them) instead
    of being computed again."""
    parts = getattr(plot, "_parts", None)
    pair = lambda v: tuple(int(x) for x in np.broadcast_to(v, (2,)))     # noqa: E731
    if (not isinstance(plot, ZeroPointReluPlot) or parts is None or parts.shape is None
            or not isinstance(chain, quant.QuantChain) or chain.codes.ndim != 2
            or chain.scale is None or chain.dtype != parts.dtype
            or chain.codes.shape != parts.shape
            or tuple(chain.geometry.kernel) != pair(parts.kernel)
            or tuple(chain.geometry.stride) != pair(
                parts.kernel if parts.stride is None else parts.stride)):
        return update_zero_point_relu(plot, chain.scale, chain.zero_point, codes=chain.codes,
                                      out_index=out_index)
    dtype, qmin, qmax, scale, zp = _check_params(chain.scale, chain.zero_point, parts.dtype)
    block = _checked_block(chain.codes, dtype, qmin, qmax)
    values = _relu_values(block, scale, zp, dtype, parts.kernel, parts.stride, out_index,
                          chain=chain)
    return _fill_relu(plot.figure, parts, scale, zp, values)


# --------------------------------------------------------------------------- the chain


def _chain_view(chain, out_index):
    """The plane, window and winner of ``out_index`` (validated; nothing drawn)."""
    if not isinstance(chain, quant.QuantChain):
        raise PoolTutorTypeError(
            f"chain has type {type(chain).__name__}: need a pooltutor.quant.QuantChain "
            f"(from relu_max_pool_chain)"
        )
    two_d = chain.accumulators.ndim == 2
    if out_index is None:
        out_index = (0,) * chain.pooled.ndim
    index = tuple(out_index) if isinstance(out_index, (tuple, list)) else (out_index,)
    n, c, i, j = chain._locate(index)
    pick = (lambda a: a) if two_d else (lambda a: a[n, c])
    acc, codes, act, pooled = (pick(chain.accumulators), pick(chain.codes),
                               pick(chain.activated), pick(chain.pooled))
    if max(acc.shape) > 12:
        raise PoolTutorError(
            f"the chain's planes are {acc.shape}: plot_quant_chain writes every value, need at "
            f"most 12 x 12"
        )
    cols = acc.shape[1]
    g = chain.geometry
    r0, c0 = g.axes[0].window_starts[i], g.axes[1].window_starts[j]
    window = tuple((int(r0 + a), int(c0 + b)) for a in range(g.kernel[0])
                   for b in range(g.kernel[1]))
    winner = tuple(int(v) for v in divmod(int(pick(chain.winners)[i, j]), cols))
    return SimpleNamespace(chain=chain, index=index, plane=(n, c), cell=(i, j), two_d=two_d,
                           acc=acc, codes=codes, act=act, pooled=pooled, window=window,
                           winner=winner)


def plot_quant_chain(chain, out_index=None, *, fig=None) -> QuantChainPlot:
    """Draw the four stages of a :class:`pooltutor.quant.QuantChain` side by side.

    Parameters
    ----------
    chain : pooltutor.quant.QuantChain
        From :func:`pooltutor.quant.relu_max_pool_chain`.
    out_index : tuple of int, optional
        The pooled code whose window and winner are marked: ``(i, j)`` for a
        2-D chain, ``(n, c, i, j)`` for a 4-D one (its plane is drawn);
        default the first.
    fig : matplotlib.figure.Figure, optional

    Returns
    -------
    QuantChainPlot

    Notes
    -----
    The code stages (codes, activated, pooled) share one colour scale; the
    accumulators, in another unit, have their own.  Each code cell shows its
    real value ``(q - zp) * s`` (in units of ``s`` when the chain has no
    scale).  Codes that ReLU raised to the zero point get a green corner.
    :func:`update_quant_chain` redraws the plot for another chain of the same
    accumulators.

    Examples
    --------
    TV29 (seed 003): accumulators ``[[-2, 4], [6, -8]]``, M = 0.5, zero point 0:

    >>> from pooltutor.quant import relu_max_pool_chain
    >>> p = plot_quant_chain(relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0))
    >>> p.window, p.winner
    (((0, 0), (0, 1), (1, 0), (1, 1)), (1, 0))

    See Also
    --------
    pooltutor.quant.QuantChain.explain : the same story in words.
    """
    view = _chain_view(chain, out_index)
    style.check_fig(fig)
    acc, pooled = view.acc, view.pooled
    rows, cols = acc.shape
    cell = min(0.8, 3.3 / max(rows, cols))
    width = 3 * (cols * cell + 0.5) + pooled.shape[1] * cell + 1.0
    figsize = (max(width, 12.0), max(rows * cell + 1.9, 3.8))
    ratios = [cols, cols, cols, max(pooled.shape[1], 2.6)]
    key = ("quant_chain", acc.shape, pooled.shape)
    _reshape_chain_axes(fig, key, ratios)
    fig, kept = prepare_figure(fig, key, figsize)
    if kept is None:
        grid = fig.add_gridspec(1, 4, width_ratios=ratios)
        kept = [fig.add_subplot(grid[0, k]) for k in range(4)]
        keep_axes(fig, kept)
    size = 12 if max(rows, cols) <= 4 else 10 if max(rows, cols) <= 8 else 8
    g = chain.geometry
    from .heatmaps import _grid

    # 1. the accumulators: drawn once (the chain's other stages change in place); every
    # title at y=1.0 (where matplotlib's automatic placement puts it above these Axes
    # without top ticks, found at every draw and layout at a cost)
    ax = kept[0]
    a_lo, a_hi = style.shared_limits(acc)
    acc_image, _ = _grid(ax, acc, vmin=a_lo, vmax=a_hi, annotate=False)
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    labels = _accumulator_labels(ax, acc, size, a_lo, a_hi)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_aspect("equal")
    for spine in ax.spines.values():
        spine.set_visible(False)
    _room_for_indices(ax)
    acc_labels = labels.draw(ax)
    _out_of_layout(*ax.images, acc_labels)
    ax.set_title("1. accumulators (int32)", fontsize=11.5, y=1.0)
    parts = SimpleNamespace(acc=np.array(acc), dtype=chain.dtype, kernel=g.kernel,
                            stride=g.stride, shapes=(chain.accumulators.shape, pooled.shape),
                            two_d=view.two_d, fig=fig, acc_image=acc_image,
                            acc_labels=acc_labels, size=size)
    parts.acc_window = _window_marks(ax, len(view.window))
    parts.axes = {"accumulators": ax}
    # 2.-4. the code stages
    for k, name in enumerate(("codes", "activated", "pooled"), start=1):
        shape = pooled.shape if name == "pooled" else acc.shape
        grid = _new_grid(kept[k], shape, size=size)
        setattr(parts, name, grid)
        parts.axes[name] = kept[k]
    parts.codes.window = _window_marks(kept[1], len(view.window))
    parts.activated.window = _window_marks(kept[2], len(view.window))
    parts.activated.winner = _cell_mark(kept[2], **_code_mark(acc.shape))
    parts.raised = _raised_marks(kept[2], acc.shape)
    parts.pooled.highlight = _cell_mark(kept[3], color=style.HIGHLIGHT_COLOR, gid="highlight")
    kept[1].set_title(f"2. requantized codes ({chain.dtype})\nq = round(acc\u00b7M) + zp",
                      fontsize=10.5, y=1.0)
    kept[2].set_title("\n", fontsize=10.5, y=1.0)
    kept[3].set_title(f"4. max pool {g.kernel[0]}x{g.kernel[1]}\nstride {_pair(g.stride)}, "
                      f"no padding", fontsize=11.5, y=1.0)
    fig.suptitle("\n", fontsize=12.5)
    parts.suptitle = fig._suptitle
    return _fill_chain(parts, view)


def _reshape_chain_axes(fig, key, ratios) -> None:
    """When ``fig`` shows a chain of other shapes on its own four Axes, give their grid the
    width ratios of ``key``'s shapes and let :func:`~pooltutor.viz.indices.prepare_figure`
    keep them: a new Axes costs far more than emptying one.  The Axes' places are then
    those a new grid with these ratios gives."""
    if fig is None:
        return
    old = getattr(fig, "_pooltutor_key", None)
    kept = getattr(fig, "_pooltutor_axes", None)
    if (not isinstance(old, tuple) or not old or old[0] != "quant_chain" or old == key
            or not kept or len(kept) != 4 or list(fig.axes) != list(kept)):
        return
    specs = [ax.get_subplotspec() for ax in kept]
    grid = specs[0].get_gridspec() if specs[0] is not None else None
    if grid is None or grid.get_geometry() != (1, 4) or any(
            spec is None or spec.get_gridspec() is not grid or (spec.num1, spec.num2) != (k, k)
            for k, spec in enumerate(specs)):
        return
    grid.set_width_ratios(ratios)
    fig._pooltutor_key = key


def _accumulator_labels(ax, acc, size, a_lo, a_hi):
    """The accumulators' values (gid ``"value"``) and the row / column indices, in one
    :class:`~pooltutor.viz.style.TextCollection` (drawn by its caller)."""
    from .heatmaps import _index_labels

    rows, cols = acc.shape
    labels = style.TextCollection()
    colors = style.cell_text_colors(acc, a_lo, a_hi)
    for (r, cc), v in np.ndenumerate(acc):
        labels.add(cc, r, str(int(v)), size, str(colors[r, cc]), gid="value")
    _index_labels(ax, labels, range(rows), range(cols), size=9)
    return labels


def _fill_chain(parts, view) -> QuantChainPlot:
    chain = view.chain
    i, j = view.cell
    vmin, vmax = style.shared_limits(view.codes, view.act, view.pooled)
    real = chain.real
    changed = {}
    stages = (("codes", view.codes), ("activated", view.act), ("pooled", view.pooled))
    _fill_grids([(getattr(parts, name), arr, real(arr)) for name, arr in stages], vmin, vmax,
                chain.scale)
    for name, _ in stages:
        grid = getattr(parts, name)
        changed[name] = [grid.image, grid.labels]
    for patches, name in ((parts.acc_window, "accumulators"), (parts.codes.window, "codes"),
                          (parts.activated.window, "activated")):
        _move_cells(patches, view.window)
        changed.setdefault(name, []).extend(patches)
    act = parts.activated
    _place_mark(act.winner, view.winner)
    raised = [tuple(int(v) for v in rc) for rc in np.argwhere(view.codes < chain.relu_floor)]
    shown = _show_raised(act.ax, parts.raised, raised)
    act.ax.title.set_text(f"3. ReLU at the real zero\nmax(q, zp) = max(q, {chain.relu_floor})")
    changed["activated"] += [act.winner, *shown]
    _place_mark(parts.pooled.highlight, (i, j))
    changed["pooled"].append(parts.pooled.highlight)
    scale = "s" if chain.scale is None else f"scale={chain.scale:g}"
    n, c = view.plane
    plane = "" if view.two_d else f", plane n={n}, c={c}"
    parts.suptitle.set_text(
        f"Quantized chain: multiplier={chain.multiplier:g}, zero_point={chain.zero_point}, "
        f"dtype={chain.dtype!r}, rounding={chain.rounding!r} ({scale}){plane}\n"
        f"pooled {view.index} = {int(view.pooled[i, j])}: window outlined, winner at "
        f"{view.winner}" + (f"; {len(raised)} code(s) raised to the zero point (green corners)"
                            if raised else ""))
    dynamic = []
    for name in ("accumulators", "codes", "activated", "pooled"):
        dynamic += _zordered(changed[name])
    dynamic += [act.ax.title, parts.suptitle]
    axes = MappingProxyType(dict(parts.axes))
    return QuantChainPlot(parts.fig, axes, view.index, view.window, view.winner,
                          tuple(dynamic), parts)


def update_quant_chain(plot, chain, out_index=None) -> QuantChainPlot:
    """Redraw a :func:`plot_quant_chain` plot in place for another chain of the same
    accumulators (another multiplier, zero point, rounding or scale) or another pooled code
    of the plane drawn.

    The accumulators (for a 4-D chain: the plane drawn), the dtype and the pool stay those
    of ``plot`` (draw it again with :func:`plot_quant_chain` to change them).  Nothing is
    changed when a value is refused.  Returns the new :class:`QuantChainPlot`, on the same
    Axes; its ``dynamic`` artists are the ones that changed.

    >>> from pooltutor.quant import relu_max_pool_chain
    >>> p = plot_quant_chain(relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0))
    >>> q = update_quant_chain(p, relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0), (0, 0))
    >>> q.axes["codes"] is p.axes["codes"], q.winner
    (True, (1, 0))
    """
    parts = getattr(plot, "_parts", None)
    if not isinstance(plot, QuantChainPlot) or parts is None:
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need the "
                                 f"QuantChainPlot of plot_quant_chain")
    view = _chain_view(chain, out_index)
    same = (chain.dtype == parts.dtype and chain.geometry.kernel == parts.kernel
            and chain.geometry.stride == parts.stride
            and (chain.accumulators.shape, view.pooled.shape) == parts.shapes
            and np.array_equal(view.acc, parts.acc))
    if not same:
        raise PoolTutorError("chain: its accumulators (the plane drawn), dtype or pool differ "
                             "from the plotted ones: draw it again with plot_quant_chain")
    return _fill_chain(parts, view)


def _rebase_quant_chain(plot, chain, out_index=None) -> QuantChainPlot:
    """:func:`update_quant_chain` for a chain whose accumulators (of the same shape) or
    dtype differ from the plotted ones, with the same pool: the accumulator panel and the
    codes panel's title are changed in place too.  Those are not among ``dynamic``: the
    caller draws the whole figure again (its Axes and their places are kept, so its layout
    stays).  The picture is the one :func:`plot_quant_chain` draws."""
    parts = getattr(plot, "_parts", None)
    if not isinstance(plot, QuantChainPlot) or parts is None:
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need the "
                                 f"QuantChainPlot of plot_quant_chain")
    view = _chain_view(chain, out_index)
    if not (chain.geometry.kernel == parts.kernel and chain.geometry.stride == parts.stride
            and (chain.accumulators.shape, view.pooled.shape) == parts.shapes):
        raise PoolTutorError("chain: its accumulators' shape or its pool differ from the "
                             "plotted ones: draw it again with plot_quant_chain")
    _restyle_chain(parts, chain, view)
    return _fill_chain(parts, view)


def _restyle_chain(parts, chain, view) -> None:
    """Show the accumulators and the dtype of ``chain`` (accumulators of the drawn shape)
    in the static artists of a chain plot."""
    if not np.array_equal(view.acc, parts.acc):
        acc = np.array(view.acc)
        a_lo, a_hi = style.shared_limits(acc)
        parts.acc_image.set_data(acc.astype(float))
        parts.acc_image.set_clim(a_lo, a_hi)
        ax = parts.axes["accumulators"]
        _set_texts(parts.acc_labels, _accumulator_labels(ax, acc, parts.size, a_lo, a_hi))
        parts.acc = acc
    if chain.dtype != parts.dtype:
        parts.axes["codes"].title.set_text(
            f"2. requantized codes ({chain.dtype})\nq = round(acc\u00b7M) + zp")
        parts.dtype = chain.dtype


def _repool_quant_chain(plot, chain, out_index=None) -> QuantChainPlot:
    """:func:`update_quant_chain` for a chain of another pool (or accumulators of the same
    shape, or another dtype): the pooled panel is drawn again on its Axes, the window
    outlines made anew when the window size changed, the rest changed in place.  What
    changed is not all among ``dynamic``: the caller draws the whole figure again (and
    lays it out again when a margin changed).  The picture is the one
    :func:`plot_quant_chain` draws."""
    from .indices import _strip

    parts = getattr(plot, "_parts", None)
    if not isinstance(plot, QuantChainPlot) or parts is None:
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need the "
                                 f"QuantChainPlot of plot_quant_chain")
    view = _chain_view(chain, out_index)
    if chain.accumulators.shape != parts.shapes[0] or not view.two_d:
        raise PoolTutorError("chain: its accumulators' shape differs from the plotted one: "
                             "draw it again with plot_quant_chain")
    _restyle_chain(parts, chain, view)
    count = len(view.window)
    if count != len(parts.codes.window):            # another window size: other outlines
        for patch in (*parts.acc_window, *parts.codes.window, *parts.activated.window):
            patch.remove()
        parts.acc_window = _window_marks(parts.axes["accumulators"], count)
        parts.codes.window = _window_marks(parts.axes["codes"], count)
        parts.activated.window = _window_marks(parts.axes["activated"], count)
    cols = view.acc.shape[1]
    _reshape_chain_axes(parts.fig, ("quant_chain", view.acc.shape, view.pooled.shape),
                        [cols, cols, cols, max(view.pooled.shape[1], 2.6)])
    ax = parts.axes["pooled"]
    _strip(ax)
    parts.pooled = _new_grid(ax, view.pooled.shape, size=parts.size)
    parts.pooled.highlight = _cell_mark(ax, color=style.HIGHLIGHT_COLOR, gid="highlight")
    g = chain.geometry
    ax.set_title(f"4. max pool {g.kernel[0]}x{g.kernel[1]}\nstride {_pair(g.stride)}, "
                 f"no padding", fontsize=11.5, y=1.0)
    parts.kernel, parts.stride = g.kernel, g.stride
    parts.shapes = (chain.accumulators.shape, view.pooled.shape)
    return _fill_chain(parts, view)


def _retype_zero_point_relu(plot, dtype) -> None:
    """Make a :func:`plot_zero_point_relu` plot one of ``dtype`` codes in place (its code
    axis, its label and the wrong ReLU's clamp); then :func:`update_zero_point_relu` fills
    it.  The changed artists are not among ``dynamic``: the caller draws the whole figure
    again (the Axes and their places are kept: a dtype changes no margin, the tick labels
    of the code axis stay inside the Axes and the label keeps its height)."""
    parts = getattr(plot, "_parts", None)
    if not isinstance(plot, ZeroPointReluPlot) or parts is None:
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need the "
                                 f"ZeroPointReluPlot of plot_zero_point_relu")
    qmin, qmax = quant.dtype_range(dtype)
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    if name == parts.dtype:
        return
    t = parts.transfer
    span = qmax - qmin
    t.ax.set_xlim(qmin - _MARGIN * span, qmax + _MARGIN * span)
    t.ax.xaxis.label.set_text(f"input code q ({name}, {qmin} .. {qmax})")
    t.dtype, t.qmin, t.qmax = name, qmin, qmax
    if "wrong" in parts.grids:
        parts.grids["wrong"].ax.title.set_text(f"wrong ReLU\nmax(q, {max(qmin, 0)})")
    parts.dtype, parts.qmin, parts.qmax = name, qmin, qmax


def _repool_zero_point_relu(plot, scale, zero_point, codes, *, kernel, stride,
                            out_index=(0, 0)) -> ZeroPointReluPlot:
    """:func:`update_zero_point_relu` for a block of another shape or another pool: the code
    panels are drawn again on their Axes (only the pooled ones and new window outlines when
    the block keeps its shape), the transfer plot (which shows neither) is kept and filled
    in place.  The new panels are not among ``dynamic``: the caller draws the
    whole figure again (and lays it out again when their margins changed).  The picture is
    the one :func:`plot_zero_point_relu` draws with the same panels."""
    from .indices import _strip

    parts = getattr(plot, "_parts", None)
    if not isinstance(plot, ZeroPointReluPlot) or parts is None or parts.shape is None:
        raise PoolTutorTypeError(f"plot has type {type(plot).__name__}: need the "
                                 f"ZeroPointReluPlot of plot_zero_point_relu with codes")
    dtype, qmin, qmax, scale, zp = _check_params(scale, zero_point, parts.dtype)
    block = _checked_block(codes, dtype, qmin, qmax)
    values = _relu_values(block, scale, zp, dtype, kernel, stride, out_index)
    same = block.shape == parts.shape           # then only the pooled panels change shape
    axes = {name: grid.ax for name, grid in parts.grids.items()
            if not same or name.startswith("pooled")}
    for ax in axes.values():
        _strip(ax)
    grids = dict(parts.grids)
    if same:                                    # the other panels: new window outlines
        for grid in grids.values():
            if hasattr(grid, "window") and len(grid.window) != len(values.window):
                for patch in grid.window:
                    patch.remove()
                grid.window = _window_marks(grid.ax, len(values.window))
    grids.update(_new_panels(axes, values, qmin))
    parts.grids = {name: grids[name] for name in parts.grids}     # in drawing order
    parts.kernel, parts.stride, parts.shape = kernel, stride, block.shape
    return _fill_relu(plot.figure, parts, scale, zp, values)
