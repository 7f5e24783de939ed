"""One input, one set of parameters, several padding modes side by side (one row per mode).

:func:`plot_padding_modes` draws, for each mode, the padded input of one
axis as a row of cells (padding hatched grey and labelled with the padding
rule), every window as a bar under the row (the staircase of sample
points), the last window outlined, and the window that a ceil clip or the
CAFFE correction drops (dashed, :data:`~pooltutor.viz.style.DROPPED_COLOR`,
labelled "dropped: starts in end padding").  Each row is titled with the
mode, its output size and its effective padding.

The numbers come from the core only: TensorRT modes from
:func:`pooltutor.padding_modes.output_geometry`, engine rules (``"floor"``,
``"ceil"``, ``"ceil_torch"``, ``"floor_clip"``, ``"caffe"``) from
:func:`pooltutor.geometry.pool_geometry` with the given padding.  A mode that
rejects the combination (a CAFFE pooling whose last window still starts in
padding, a window larger than the padded input) shows the reason in its row
instead of raising.

>>> p = plot_padding_modes(6, 3, 2, pre_padding=3, post_padding=3)   # TensorRT Pooling Example 2
>>> {m: g.output_size for m, g in p.geometries.items() if g is not None}
... # doctest: +NORMALIZE_WHITESPACE
{'EXPLICIT_ROUND_DOWN': 5, 'EXPLICIT_ROUND_UP': 6, 'SAME_UPPER': 3, 'SAME_LOWER': 3,
 'CAFFE_ROUND_DOWN': 5, 'CAFFE_ROUND_UP': 5}
>>> p.dropped["CAFFE_ROUND_UP"][-1], p.dropped["EXPLICIT_ROUND_UP"]
('dropped: starts in end padding', [])
"""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int
from ..geometry import ROUNDINGS, AxisGeometry, pool_geometry
from . import style
from .heatmaps import PAD_RULE_TEXT, _fit_size

__all__ = ["TENSORRT_MODES", "PaddingModesPlot", "plot_padding_modes", "mode_geometry"]

#: The six TensorRT padding modes, in TensorRT's order.
TENSORRT_MODES: tuple[str, ...] = ("EXPLICIT_ROUND_DOWN", "EXPLICIT_ROUND_UP", "SAME_UPPER",
                                   "SAME_LOWER", "CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP")

_INPUT_COLOR = "#dbe9f6"   # input cells of a size-only picture (no values)
TOP = 0.55                 # inches for the figure title
LABEL_W = 2.7              # inches left of the rows for their labels (mode, O, B, A)
REASON_SIZE = 8.5          # the text of a rejection
BAR_COLOR = "#6b6b6b"
#: Longest row (cells plus windows) a picture may have: more is unreadable, and slow to draw.
MAX_CELLS = 2000


@dataclass(frozen=True)
class ModeGeometry:
    """One mode's numbers for one axis, whatever computed them.

    ``axis`` is the :class:`~pooltutor.geometry.AxisGeometry` behind the
    numbers; ``tensorrt`` the :class:`~pooltutor.padding_modes.OutputGeometry`
    for a TensorRT mode (None for an engine rule); ``notes`` the warnings the
    computation raised (TensorRT's CAFFE "Restriction" conditions).
    """

    mode: str
    axis: AxisGeometry
    tensorrt: Any = None
    notes: tuple[str, ...] = ()

    @property
    def output_size(self) -> int:
        return self.axis.output_size

    def explain(self) -> str:
        """The worked computation (TensorRT's ``explain()``, or the geometry's formula line)."""
        if self.tensorrt is not None:
            return self.tensorrt.explain()
        return f"rounding {self.mode!r}: " + self.axis.describe()


def _resolve_mode(mode) -> tuple[str, str]:
    """``(kind, name)``: ``("engine", rule)`` or ``("tensorrt", MODE_NAME)``."""
    from ..padding_modes import PaddingMode

    if isinstance(mode, str) and mode in ROUNDINGS:
        return "engine", mode
    if not isinstance(mode, (str, PaddingMode)):
        raise PoolTutorTypeError(
            f"modes contains {mode!r} ({type(mode).__name__}): need TensorRT padding mode names "
            f"({', '.join(TENSORRT_MODES)}) or engine rules ({', '.join(ROUNDINGS)})")
    try:
        return "tensorrt", PaddingMode.parse(mode, name="modes").name
    except PoolTutorError as exc:
        raise PoolTutorError(f"{exc}; or an engine rule: {', '.join(map(repr, ROUNDINGS))}"
                             ) from None


def mode_geometry(mode, input_size: int, window: int, stride: int = 1, *, pre_padding: int = 0,
                  post_padding: int = 0, dilation: int = 1) -> ModeGeometry:
    """The window placement of one axis under ``mode`` (raises what the mode raises).

    >>> mode_geometry("CAFFE_ROUND_UP", 6, 3, 2, pre_padding=3).axis.window_starts
    (-3, -1, 1, 3, 5)
    >>> mode_geometry("ceil", 6, 3, 2, pre_padding=3, post_padding=3).axis.window_starts
    (-3, -1, 1, 3, 5, 7)
    """
    kind, name = _resolve_mode(mode)
    if kind == "engine":
        g = pool_geometry((input_size,), window, stride, padding=[(pre_padding, post_padding)],
                          dilation=dilation, rounding=name)
        return ModeGeometry(name, g.axes[0])
    from ..padding_modes import output_geometry

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        og = output_geometry(input_size, window, stride, pre_padding=pre_padding,
                             post_padding=post_padding, dilation=dilation, padding_mode=name)
    return ModeGeometry(name, og.geometry.axes[0], og, tuple(str(w.message) for w in caught))


@dataclass(frozen=True, eq=False)
class PaddingModesPlot:
    """What :func:`plot_padding_modes` drew (one Axes; rows stacked in cell units).

    Attributes
    ----------
    figure, ax : matplotlib Figure and its one Axes
    geometries : dict
        Mode name -> :class:`ModeGeometry`, or None when the mode rejected the combination.
    errors : dict
        Mode name -> the reason it rejected the combination (only rejected modes).
    cells : dict
        Mode name -> ``{"input": (...), "padding": (...), "outside": (...)}``: the
        positions (input coordinates) of the cells of each kind drawn in its row.
    collections : dict
        Kind -> the one collection holding those cells of every row (gid = the kind:
        ``"input"`` (filled, no edges: one square moved to each cell), ``"input-separators"``
        (the white lines between input cells), ``"padding"`` (hatched, one compound path),
        ``"outside"``, ``"input-border"``; a rejected row's cells are in
        ``"<kind>-rejected"``, faded).
    labels : dict
        Mode name -> the texts of its row, in drawing order: cell texts and
        indices, then the dropped label, the title and the detail line.
    label_collection : PathCollection
        The texts in and under the input cells, drawn as one artist (gid ``"cell-labels"``).
    row_titles : dict
        Mode name -> its title (mode, ``O``, ``B``, ``A``), drawn in ``row_label_collection``.
    last_windows : dict
        Mode name -> a ``PolyCollection`` outlining the taps of its last window
        (gid ``"window"``; dashed past the padded input); None if rejected.
    dropped : dict
        Mode name -> ``[outline collection, bar, label text]`` of the dropped
        window (gid ``"dropped"``); empty when nothing was dropped.
    bars : dict
        Mode name -> a ``LineCollection`` with one segment per window (gid
        ``"window-bars"``; the last one in the window colour), None if rejected.
    title : str
    row_label_collection : PathCollection
        The other texts, drawn as one artist (gid ``"row-labels"``): the padding rule and
        the indices of the padding cells and of those past the padded input, the labels
        left of the rows, the dropped-window notes and the title.
    row_y : list of float
        The centre line of each row's cells, in data units (rows in the order of ``modes``).
    cell_inches : float
        The size of a cell on the figure.
    static_artists : tuple
        The artists that show the input cells and their texts (``label_collection``, the
        input cells and the lines between them): they change only with the input and the
        layout of the picture.
    static_key : tuple
        Everything ``static_artists`` show (an explorer keeps their pixels while it stays).
    """

    figure: Any
    ax: Any
    geometries: dict
    errors: dict
    cells: dict
    collections: dict
    labels: dict
    label_collection: Any
    row_titles: dict
    last_windows: dict
    dropped: dict
    bars: dict
    title: str
    row_label_collection: Any = None
    row_y: list = field(default_factory=list)
    cell_inches: float = 0.5
    static_artists: tuple = ()
    static_key: Any = None


def _check_input(x):
    """``(input_size, values or None)`` from an int size or a 1-D array."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return check_int("x", x, minimum=1), None
    if isinstance(x, (bool, np.bool_, str, bytes)) or not hasattr(x, "__len__"):
        raise PoolTutorTypeError(f"x={x!r}: need an input size (int >= 1) or a 1-D array of values")
    values = np.asarray(x)
    if values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iuf":
        raise PoolTutorError(
            f"x has shape {values.shape} and dtype {values.dtype}: plot_padding_modes draws one "
            f"axis, so x must be an int size or a non-empty 1-D numeric array")
    return values.size, values


class _Labels(style.TextCollection):
    """Many short texts drawn as one ``PathCollection`` (:class:`~pooltutor.viz.style.TextCollection`);
    ``texts`` keeps the strings (for tests)."""

    @property
    def texts(self) -> list[str]:
        return [t.text for t in self.items]

    def add(self, x, y, text, size, color="black", *, ha="center", dy=0.0, dx=0.0,
            bold=False) -> None:
        super().add(x, y, text, size, color, gid="label", ha=ha, dy=dy, dx=dx, bold=bold)

    def draw(self, ax, gid: str, zorder: float = 6):
        return super().draw(ax, gid=gid, zorder=zorder)

    def update(self, coll) -> None:
        """Show these texts in ``coll`` (made by :meth:`draw`), replacing its texts."""
        coll.set_paths([self.glyphs(k) for k in self._keys])
        coll.set_offsets(np.array([(t.x, t.y) for t in self.items], dtype=float).reshape(-1, 2))
        coll.set_facecolor(_rgba([t.color for t in self.items]) if self.items else "black")
        coll.pooltutor_texts = tuple(self.items)


_RGBA: dict = {}


def _rgba(colors) -> np.ndarray:
    """``(n, 4)`` RGBA of ``colors`` (each distinct colour converted once)."""
    from matplotlib.colors import to_rgba

    out = []
    for c in colors:
        key = c if isinstance(c, str) else tuple(c)
        rgba = _RGBA.get(key)
        if rgba is None:
            rgba = _RGBA[key] = to_rgba(c)
        out.append(rgba)
    return np.array(out, dtype=float).reshape(-1, 4)


def _squares(cells) -> list:
    """The outlines of unit squares centred on ``cells`` (``(row, col)`` pairs)."""
    return [[(j - 0.5, i - 0.5), (j + 0.5, i - 0.5), (j + 0.5, i + 0.5), (j - 0.5, i + 0.5)]
            for i, j in cells]


class _Pool:
    """The artists of the last picture drawn on ``ax`` by :func:`plot_padding_modes`, taken
    again by key and updated in place (making a collection costs more than updating one);
    those not taken again are removed by :meth:`finish`.  A new artist is made empty by
    ``make`` and filled by the same setters as a reused one, so both end up alike."""

    def __init__(self, ax, reuse: bool):
        self.ax = ax
        self.old = dict(getattr(ax, "_pooltutor_pool", {})) if reuse else {}
        self.new: dict = {}

    def take(self, key, make):
        artist = self.old.pop(key, None)
        if artist is None or artist.axes is not self.ax:
            artist = make()
        self.new[key] = artist
        return artist

    def collection(self, key, cls, **style_kw):
        """A collection of class ``cls`` (empty when new) with the constant ``style_kw``."""
        def make():
            coll = cls([], **style_kw)
            self.ax.add_collection(coll, autolim=False)
            return coll
        return self.take(key, make)

    def finish(self) -> None:
        for artist in self.old.values():
            if artist.axes is not None:
                artist.remove()
        self.ax._pooltutor_pool = self.new


class _Cells:
    """Cells of every row, gathered per kind and drawn as one collection per kind.

    Input cells are one square moved to every cell, filled without edges; the white lines
    between them are one compound path (gid ``"input-separators"``): stroking every cell
    costs as much again as filling it.  Every kind has its own z-order, so the picture does not depend on the
    order in which the collections were made."""

    STYLE = {
        "input": dict(edgecolors="none", linewidths=0.0, zorder=1.0),
        "input-separators": dict(colors="white", linewidths=1.0, zorder=1.05),
        "padding": dict(facecolors=style.PAD_COLOR, edgecolors="#9a9a9a", linewidths=0.5,
                        hatch=style.PAD_HATCH, zorder=1.1),
        "outside": dict(facecolors=style.OUTSIDE_COLOR, edgecolors="#b0b0b0", linewidths=0.8,
                        linestyles=[(0, (3, 2))], zorder=1.2),
        "input-border": dict(facecolors="none", edgecolors="#333333", linewidths=1.4, zorder=3),
    }
    ORDER = ("input", "input-rejected", "input-separators", "padding", "padding-rejected",
             "outside", "outside-rejected", "input-border")

    def __init__(self):
        self.cells: dict[str, list] = {}
        self.colors: list = []
        self.faded_colors: list = []
        self.separators: list = []             # (alpha, segment) of the lines between cells

    def add(self, kind: str, y: float, x0: float, x1: float | None = None) -> None:
        """A unit cell at ``(y, x0)``, or a box from ``x0`` to ``x1`` (cell centres)."""
        self.cells.setdefault(kind, []).append((y, x0, x0 if x1 is None else x1))

    STATIC = ("input", "input-rejected", "input-separators")

    def draw(self, pool: _Pool, keep=()) -> dict:
        """One collection per kind (taken from ``pool``); the kinds in ``keep`` are kept as
        they were drawn last (the input cells, when nothing they show changed)."""
        from matplotlib.collections import PathCollection, PolyCollection
        from matplotlib.path import Path
        from matplotlib.transforms import AffineDeltaTransform

        ax = pool.ax
        drawn = {}
        for kind in keep:
            drawn[kind] = pool.take(("cells", kind), None)
        square = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
        for kind in self.ORDER:
            if kind in keep:
                continue
            faded = kind.endswith("-rejected")
            base = kind.removesuffix("-rejected")
            kw = dict(self.STYLE[base], gid=base, alpha=0.35 if faded else None)
            if base == "input-separators":
                if not self.separators:
                    continue
                # one path per shade (the lines of rejected rows are faded)
                paths, shades = [], []
                for alpha in sorted({a for a, _ in self.separators}, reverse=True):
                    segs = [seg for a, seg in self.separators if a == alpha]
                    paths.append(Path(np.array(segs, dtype=float).reshape(-1, 2),
                                      [Path.MOVETO, Path.LINETO] * len(segs)))
                    shades.append((1.0, 1.0, 1.0, alpha))
                kw.pop("colors")
                coll = pool.collection(("cells", kind), PathCollection, transform=ax.transData,
                                       facecolors="none", **kw)
                coll.set_paths(paths)
                coll.set_edgecolor(shades)
                drawn[kind] = coll
                continue
            cells = self.cells.get(kind)
            if not cells:
                continue
            if base == "input":
                # every input cell is the same square, moved: one path and an offset per cell
                def make(kw=kw):
                    unit = Path([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (0, 0)],
                                square)
                    coll = PathCollection([unit], offsets=np.zeros((0, 2)),
                                          offset_transform=ax.transData,
                                          transform=AffineDeltaTransform(ax.transData), **kw)
                    ax.add_collection(coll, autolim=False)
                    return coll
                coll = pool.take(("cells", kind), make)
                coll.set_offsets(np.array([(x, y) for y, x, _ in cells], dtype=float))
                coll.set_facecolor(_rgba(self.faded_colors if faded else self.colors))
                drawn[kind] = coll
                continue
            verts = [[(a - 0.5, y - 0.5), (b + 0.5, y - 0.5), (b + 0.5, y + 0.5),
                      (a - 0.5, y + 0.5)] for y, a, b in cells]
            if base == "padding":
                # one compound path: the hatch is laid once over all the padding cells
                # (a PolyCollection hatches square by square, ~0.3 ms each)
                path = Path(np.array([v + [v[0]] for v in verts], dtype=float).reshape(-1, 2),
                            square * len(verts))
                coll = pool.collection(("cells", kind), PathCollection, transform=ax.transData,
                                       **kw)
                coll.set_paths([path])
            else:
                coll = pool.collection(("cells", kind), PolyCollection, **kw)
                coll.set_verts(verts)
            drawn[kind] = coll
        return drawn


def _draw_cells(cells: _Cells, values, size, lo, hi, pb, pe, pad_text, vmin, vmax, cell_pt,
                labels, reach=None, y: float = 0.0, rejected: bool = False,
                pad_labels=None, static: bool = True) -> tuple[dict, list]:
    """One padded row: input cells (values or x0, x1, ...), padding, the cells past the
    padded input that a window reaches (up to ``reach``, excluded), and the index under
    every cell.  The texts of the input cells go to ``labels``, those of the other cells to
    ``pad_labels`` (default ``labels``); with ``static=False`` the input cells, their texts
    and the lines between them are left out (they are drawn already).  Returns
    ``({kind: tuple of cell positions}, the texts in the order of the cells)``."""
    import matplotlib as mpl

    pad_labels = labels if pad_labels is None else pad_labels
    font, pad_font, index_font = _cell_fonts(values, lo, hi, pad_text, cell_pt)
    suffix = "-rejected" if rejected else ""
    cmap = mpl.colormaps[style.CMAP]
    span = (vmax - vmin) or 1.0
    colors = cells.faded_colors if rejected else cells.colors
    kinds: dict[str, list[int]] = {"input": [], "padding": [], "outside": []}
    texts = []
    for t in range(lo, hi):
        if 0 <= t < size:
            kind = "input"
            if values is None:
                text = f"x{t}"
                if static:
                    labels.add(t, y, text, font)
                    colors.append(_INPUT_COLOR)
            else:
                text = style.format_value(values[t])
                if static:
                    v = float(values[t])
                    labels.add(t, y, text, font, style.cell_text_color(v, vmin, vmax))
                    colors.append(cmap(min(max((v - vmin) / span, 0.0), 1.0))
                                  if np.isfinite(v) else "white")
            texts.append(text)
            target = labels if static else None
        elif -pb <= t < size + pe:
            kind = "padding"
            pad_labels.add(t, y, pad_text, pad_font, "#555555")
            texts.append(pad_text)
            target = pad_labels
        elif reach is not None and size + pe <= t < reach:
            kind = "outside"
            target = pad_labels
        else:
            continue
        kinds[kind].append(t)
        if static or kind != "input":
            cells.add(kind + suffix, y, t)
        if target is not None:
            target.add(t, y + 0.78, str(t), index_font, "#555555")
        texts.append(str(t))
    # the white lines between input cells
    shade = 0.35 if rejected else 1.0
    if static:
        cells.separators += [(shade, ((t + 0.5, y - 0.5), (t + 0.5, y + 0.5)))
                             for t in range(size - 1)]
    cells.add("input-border", y, 0, size - 1)
    return {k: tuple(v) for k, v in kinds.items()}, texts


def _cell_fonts(values, lo, hi, pad_text, cell_pt) -> tuple[float, float, float]:
    """Font sizes of the values (or ``x0, x1, ...``), the padding rule and the indices."""
    font = max(6.0, min(0.36 * cell_pt, 15.0))
    if values is not None:
        longest = max(len(style.format_value(v)) for v in values)
        font = max(5.5, min(font, 0.9 * cell_pt / (0.62 * longest)))
    pad_font = max(5.0, min(0.3 * cell_pt, 0.85 * cell_pt / (0.62 * max(len(pad_text), 1)),
                            12.0))
    index_font = max(5.5, min(9.0, 0.9 * cell_pt / (0.62 * max(len(str(lo)), len(str(hi)), 1))))
    return font, pad_font, index_font


def _reset_axes(fig, rect):
    """``(ax, reused)``: the figure's one Axes at ``rect``, reused when this function drew the
    figure last (clearing a figure and creating Axes costs more than the whole picture; its
    artists are then updated in place, see :class:`_Pool`), else a fresh one."""
    ax = getattr(fig, "_pooltutor_padding_modes_ax", None)
    if ax is not None and fig.axes == [ax]:
        pooled = set(map(id, getattr(ax, "_pooltutor_pool", {}).values()))
        for artist in (*ax.collections, *ax.patches, *ax.lines, *ax.texts, *ax.images):
            if id(artist) not in pooled:
                artist.remove()
        ax.set_position(rect)
        return ax, True
    fig.clear()
    ax = fig.add_axes(rect)
    ax.set_axis_off()
    return ax, False


def _bar_segments(axis: AxisGeometry, starts, level0: float, step: float):
    """One horizontal segment per window (first tap to last tap), stacked downwards."""
    segs = []
    for o, start in enumerate(starts):
        last = start + (axis.kernel - 1) * axis.dilation
        y = level0 + step * o
        segs.append([(start - 0.42, y), (last + 0.42, y)])
    return segs


def plot_padding_modes(x, window: int, stride: int = 1, pre_padding: int = 0,
                       post_padding: int = 0, *, dilation: int = 1,
                       modes: Sequence[Any] = TENSORRT_MODES, pad_taps: str = "neg_inf",
                       fig=None, fit_figure: bool = False, title: str | None = None
                       ) -> PaddingModesPlot:
    """Draw one axis under several padding modes, one row per mode.

    Parameters
    ----------
    x : int or 1-D array
        The input size ``I`` (cells labelled ``x0, x1, ...``) or the input
        values (a heatmap, values in the cells).
    window, stride, pre_padding, post_padding, dilation : int
        TensorRT's ``F``, ``S``, ``B``, ``A`` and ``D``.  SAME modes ignore
        ``B`` and ``A``; CAFFE modes use ``B`` on both sides.
    modes : sequence
        TensorRT padding modes (names in any case, ``k`` prefix allowed, or
        :class:`~pooltutor.padding_modes.PaddingMode` members) and/or engine
        rules ``"floor"``, ``"ceil"``, ``"ceil_torch"``, ``"floor_clip"``,
        ``"caffe"`` (which use ``pre_padding`` / ``post_padding`` as given).
    pad_taps : {'neg_inf', 'skip', 'lowest'}
        The padding rule written in padding cells (TensorRT's max pooling
        documents -inf).
    fig : matplotlib Figure, optional
        Drawn into (cleared first); a new one otherwise.
    fit_figure : bool
        Resize ``fig`` to the size the picture needs (explorers do, so that
        cells stay big whatever the number of windows).

    Returns
    -------
    PaddingModesPlot

    Raises
    ------
    PoolTutorError, PoolTutorTypeError
        For parameters no mode could use (``window=0``, a 2-D ``x``, an
        unknown mode name).  A mode that *rejects* a valid combination does
        not raise: its row shows why.

    Examples
    --------
    TensorRT's Pooling Example 1 (``I=6, B=3, A=2, S=2, F=3``) under two
    engine rules and CAFFE_ROUND_UP, which rejects it with ``B=4``:

    >>> p = plot_padding_modes(6, 3, 2, 4, 2, modes=("floor", "ceil_torch", "CAFFE_ROUND_UP"))
    >>> p.geometries["floor"].output_size, p.geometries["ceil_torch"].output_size
    (5, 5)
    >>> p.geometries["CAFFE_ROUND_UP"] is None, "rejects" in p.errors["CAFFE_ROUND_UP"]
    (True, True)
    """
    size, values = _check_input(x)
    window = check_int("window", window, minimum=1)
    stride = check_int("stride", stride, minimum=1)
    pre_padding = check_int("pre_padding", pre_padding, minimum=0)
    post_padding = check_int("post_padding", post_padding, minimum=0)
    dilation = check_int("dilation", dilation, minimum=1)
    check_choice("pad_taps", pad_taps, tuple(PAD_RULE_TEXT))
    if isinstance(modes, (str, bytes)) or not isinstance(modes, Sequence) or not modes:
        raise PoolTutorTypeError(f"modes={modes!r}: need a non-empty sequence of mode names")
    names = [_resolve_mode(m)[1] for m in modes]
    if len(set(names)) != len(names):
        raise PoolTutorError(f"modes={list(modes)!r} names a mode twice")
    # refuse a row too long to draw before any geometry is built (an upper bound on the
    # cells of every mode: SAME pads less than DK + S, a ceil overhang is less than S)
    reach = size + pre_padding + max(pre_padding, post_padding) + (window - 1) * dilation + 1 \
        + stride
    if reach > MAX_CELLS:
        raise PoolTutorError(
            f"plot_padding_modes(x={size if values is None else 'array of ' + str(size)}, "
            f"window={window}, stride={stride}, pre_padding={pre_padding}, "
            f"post_padding={post_padding}, dilation={dilation}) would draw rows of up to "
            f"{reach} cells: need I + B + max(A, B) + (F-1)*D + 1 + S <= {MAX_CELLS}; use "
            f"pooltutor.output_geometry(...).explain() for sizes this large"
        )

    geometries: dict[str, ModeGeometry | None] = {}
    errors: dict[str, str] = {}
    for mode, name in zip(modes, names, strict=True):
        try:
            geometries[name] = mode_geometry(mode, size, window, stride, pre_padding=pre_padding,
                                             post_padding=post_padding, dilation=dilation)
        except PoolTutorError as exc:
            geometries[name] = None
            errors[name] = str(exc)

    # one common x range, so that the rows line up cell for cell
    lo, hi = 0, size
    max_windows = 1
    for name, mg in geometries.items():
        if mg is None:
            b = pre_padding
            a = pre_padding if name.startswith("CAFFE") else post_padding
            lo, hi = min(lo, -b), max(hi, size + a)
            continue
        ax_g = mg.axis
        starts = list(ax_g.window_starts)
        if ax_g.dropped_start is not None:
            starts.append(ax_g.dropped_start)
        lo = min(lo, -ax_g.pad_begin)
        hi = max(hi, size + ax_g.pad_end, max(starts) + ax_g.effective_kernel)
        max_windows = max(max_windows, len(starts))
    n_cells = hi - lo
    n_rows = len(names)

    # One Axes for all rows (creating Axes is slow): data units are cells, y grows downwards.
    # Per row: a two-line title, the cells, their indices, then one bar per window.
    # the window bars take at most ~1 cell whatever the number of windows
    bar_step = min(0.2, 1.0 / max_windows)
    bars_top = 1.1                                    # first bar, below the index labels
    body = bars_top + bar_step * max_windows + 0.15   # cells + indices + bars, in cell units
    fig_w = (fig.get_size_inches()[0] if fig is not None and not fit_figure
             else max(7.0, n_cells * min(0.6, 10.0 / n_cells) + 1.0))
    reason_chars = max(40, int((fig_w - 0.6) * 72 / (0.56 * REASON_SIZE)))
    reasons = {name: textwrap.fill(text, width=reason_chars) for name, text in errors.items()}
    # inches for the reasons of the rejected rows (each under its row, full figure width)
    reason_in = {name: 0.16 * (text.count("\n") + 1) + 0.2 for name, text in reasons.items()}
    n_rejected = sum(reason_in.values())
    # the labels left of each row: the mode, its numbers, the detail; a row is at least as
    # tall as its labels (inches), so that they never run into the next row's
    label_chars = int((LABEL_W - 0.25) * 72 / (0.56 * 7.0))
    row_text = {}
    for name in names:
        mg = geometries[name]
        if mg is None:
            row_text[name] = (f"{name}: rejected", ["rejected"], [], style.WRONG_COLOR)
            continue
        head_line, detail = _row_title(name, mg, size)
        rest = head_line.split(": ", 1)[1]
        lines = [rest] if " (" not in rest else [rest.split(" (", 1)[0],
                                                  "(" + rest.split(" (", 1)[1]]
        row_text[name] = (head_line, lines, textwrap.wrap(detail, width=label_chars),
                          "#9a6700" if mg.notes else "#333333")
    label_in = {name: (11 * len(lines) + 8.5 * len(detail) + 13) / 72
                for name, (_, lines, detail, _) in row_text.items()}

    def fit_cell(height: float) -> float:
        """The largest cell with which every row (at least as tall as its labels) fits."""
        cell, fixed, free = height / (n_rows * (body + 0.5)), 0.0, list(names)
        for _ in names:
            taller = [name for name in free if label_in[name] > (body + 0.5) * cell]
            if not taller or len(taller) == len(free):
                break
            fixed += sum(label_in[name] for name in taller)
            free = [name for name in free if name not in taller]
            cell = (height - fixed) / (len(free) * (body + 0.5))
        return cell

    auto_cell = min(0.6, 10.0 / n_cells)
    sized_here = fig is None or fit_figure            # the figure is made to fit the picture
    auto_size = (max(7.0, LABEL_W + n_cells * auto_cell + 0.4),
                 TOP + sum(max((body + 0.5) * auto_cell, label_in[name]) for name in names)
                 + n_rejected + 0.1)
    if fig is None:
        from .explorer import new_figure

        fig = new_figure(auto_size, dpi=100)
    elif fit_figure:
        fig.set_size_inches(auto_size)
    w, h = fig.get_size_inches()
    cell = min((w - LABEL_W - 0.3) / n_cells, fit_cell(h - TOP - 0.1 - n_rejected), 0.9)
    cell = max(cell, 0.05)
    cell_pt = cell * 72
    title_u = 0.2 / cell                              # a gap under the figure title
    # rows are stacked downwards; only a rejected row has room for its reason
    row_heights = [max(body + 0.5, label_in[name] / cell) + reason_in.get(name, 0.0) / cell
                   for name in names]
    row_y = [title_u + float(sum(row_heights[:r])) for r in range(n_rows)]
    total_u = title_u + float(sum(row_heights))
    height_in = total_u * cell
    # the rows hang from the figure title (spare height goes to the bottom), their labels
    # in a column on the left, the cells centred right of them.  On a figure of a given
    # size (an explorer's), the padded input is centred instead, and the cells past it (a
    # ceil overhang, a dropped window) may take the right margin: the input stays in place
    # when they come and go.  The Axes reaches the right edge of the figure: its scale does
    # not depend on how many cells there are.
    core_hi = hi
    if not sized_here:
        core_hi = max(size + (pre_padding if mg is None and name.startswith("CAFFE") else
                              post_padding if mg is None else mg.axis.pad_end)
                      for name, mg in geometries.items())
    left = LABEL_W + max(0.0, (w - LABEL_W - 0.3 - (core_hi - lo) * cell) / 2)
    left = max(LABEL_W, min(left, w - 0.1 - n_cells * cell))
    ax_w = max(w - 0.05 - left, n_cells * cell)
    ax, reused = _reset_axes(fig, (left / w, max(h - TOP - height_in, 0.0) / h, ax_w / w,
                                   height_in / h))
    ax.set_xlim(lo - 0.5, lo - 0.5 + ax_w / cell)
    ax.set_ylim(total_u - 0.5, -0.5)
    pool = _Pool(ax, reused)
    # what the input cells and their texts show: while it stays, they are neither built nor
    # drawn again (an explorer keeps their pixels)
    vmin, vmax = style.shared_limits(values) if values is not None else (0.0, 1.0)
    pad_text = PAD_RULE_TEXT[pad_taps]
    rejected_rows = [geometries[name] is None for name in names]
    static_key = (tuple(fig.get_size_inches()), float(fig.dpi),
                  ax.transData.get_matrix().tobytes(), size,
                  None if values is None else (str(values.dtype), values.tobytes()),
                  tuple(zip(row_y, rejected_rows)),
                  _cell_fonts(values, lo, hi, pad_text, cell_pt)[::2])
    static_kinds = ((("input",) if not all(rejected_rows) else ())
                    + (("input-rejected",) if any(rejected_rows) else ())
                    + (("input-separators",) if size > 1 else ()))
    keep_static = (getattr(ax, "_pooltutor_static_key", None) == static_key
                   and all(("cells", k) in pool.old for k in static_kinds)
                   and ("labels", "cell-labels") in pool.old)
    bar_pt = bar_step * cell_pt
    bar_width = min(3.0, max(1.0, 0.75 * bar_pt))
    ax.set_axis_off()
    # two text layers: what is written in and under the input cells (it changes with the
    # input and the layout only), and everything else (the padding rule and the indices of
    # the other cells, the labels of the rows, the dropped-window notes, the title)
    cell_labels, row_labels = _Labels(), _Labels()
    cell_acc = _Cells()
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.transforms import blended_transform_factory

    right_margin = (w - left - n_cells * cell) / cell        # cells right of the grid
    cells_by_mode, last_windows, dropped, bars, row_titles, label_texts = {}, {}, {}, {}, {}, {}
    for r, name in enumerate(names):
        y0 = row_y[r]                                 # centre line of this row's cells
        first_row_label = len(row_labels.items)
        mg = geometries[name]
        last_windows[name], dropped[name], bars[name] = None, [], None
        head_line, lines, detail, detail_color = row_text[name]
        row_titles[name] = head_line
        if mg is None:
            b = pre_padding
            a = pre_padding if name.startswith("CAFFE") else post_padding
            drawn, cell_texts = _draw_cells(cell_acc, values, size, lo, hi, b, a, pad_text,
                                            vmin, vmax, cell_pt, cell_labels, y=y0,
                                            rejected=True, pad_labels=row_labels,
                                            static=not keep_static)
            first_row_label = len(row_labels.items)

            def make_reason():
                return ax.text(0, 0, "", ha="left", va="top", fontsize=REASON_SIZE,
                               color=style.WRONG_COLOR, gid="rejected", zorder=3.5,
                               transform=blended_transform_factory(fig.transFigure,
                                                                   ax.transData),
                               bbox=dict(boxstyle="round,pad=0.3", facecolor="#fdecea",
                                         edgecolor="none"))
            reason = pool.take(("rejected", name), make_reason)
            reason.set_text(reasons[name])
            reason.set_position((0.3 / w, y0 + 1.05))
            _row_labels(row_labels, lo - 0.5, y0, name, lines, detail, detail_color)
            cells_by_mode[name] = drawn
        else:
            g = mg.axis
            reach = max(g.window_starts[-1], g.dropped_start if g.dropped_start is not None
                        else g.window_starts[-1]) + g.effective_kernel
            cells_by_mode[name], cell_texts = _draw_cells(
                cell_acc, values, size, lo, hi, g.pad_begin, g.pad_end, pad_text, vmin, vmax,
                cell_pt, cell_labels, reach, y=y0, pad_labels=row_labels,
                static=not keep_static)
            first_row_label = len(row_labels.items)
            starts = g.window_starts
            segs = _bar_segments(g, starts, y0 + bars_top, bar_step)
            bars[name] = pool.collection(("bars", name), LineCollection, capstyle="butt",
                                         gid="window-bars", zorder=2)
            bars[name].set_segments(segs)
            bars[name].set_color(_rgba([BAR_COLOR] * (len(segs) - 1) + [style.WINDOW_COLOR]))
            bars[name].set_linewidth([bar_width] * (len(segs) - 1) + [min(4.0, bar_width + 1)])
            if g.dilation > 1:
                taps = [(start + j * g.dilation, y0 + bars_top + bar_step * o)
                        for o, start in enumerate(starts) for j in range(g.kernel)]
                line = pool.take(("taps", name), lambda: ax.add_line(Line2D(
                    [], [], linestyle="none", marker="s", markersize=5, color=BAR_COLOR,
                    gid="window-tap", zorder=2.1)))
                line.set_data(*zip(*taps, strict=True))
            cells = [(y0, t) for t in g.taps(len(starts) - 1)]
            last_windows[name] = pool.collection(("window", name), PolyCollection,
                                                 facecolors="none",
                                                 edgecolors=style.WINDOW_COLOR, linewidths=3,
                                                 zorder=5, gid="window")
            last_windows[name].set_verts(_squares(cells))
            last_windows[name].set_linestyle(["--" if g.tap_kind(t) == "outside" else "-"
                                              for _, t in cells])
            if g.dropped_start is not None:
                d_taps = [g.dropped_start + j * g.dilation for j in range(g.kernel)]
                outline = pool.collection(("dropped", name), PolyCollection, facecolors="none",
                                          edgecolors=style.DROPPED_COLOR, linewidths=2.5,
                                          linestyles=[(0, (4, 2))], zorder=5.1, gid="dropped")
                outline.set_verts(_squares([(y0, t) for t in d_taps]))
                level = y0 + bars_top + bar_step * len(starts)
                line = pool.take(("dropped-bar", name), lambda: ax.add_line(Line2D(
                    [], [], color=style.DROPPED_COLOR, linewidth=3, linestyle=(0, (2, 1)),
                    solid_capstyle="butt", gid="dropped", zorder=2.2)))
                line.set_data([d_taps[0] - 0.42, d_taps[-1] + 0.42], [level, level])
                right = d_taps[-1] + 0.5
                text = "dropped: starts in end padding"
                at_right = hi - 0.5 - right + right_margin > 0.6 * 9 * len(text) / cell_pt
                row_labels.add(right + 0.2 if at_right else d_taps[0] - 0.7, level, text, 9,
                               style.DROPPED_COLOR, ha="left" if at_right else "right",
                               dy=-3.5, bold=True)
                dropped[name] = [outline, line, text]
            _row_labels(row_labels, lo - 0.5, y0, name, lines, detail, detail_color)
        label_texts[name] = tuple(cell_texts) + tuple(row_labels.texts[first_row_label:])
    head = title if title is not None else (
        f"padding modes: I={size}, F={window}, S={stride}"
        + (f", D={dilation}" if dilation != 1 else "")
        + f", B={pre_padding}, A={post_padding}  (padding: {pad_text})")
    head_size = _fit_size(13, len(head), 0.95 * w)
    row_labels.add(lo - 0.5 + (w / 2 - left) / cell, -0.5, head, head_size, ha="title",
                   dy=(TOP - 0.12) * 72 - head_size, bold=True)
    collections = cell_acc.draw(pool, keep=static_kinds if keep_static else ())
    label_coll = pool.take(("labels", "cell-labels"), lambda: cell_labels.draw(ax, "cell-labels"))
    if not keep_static:
        cell_labels.update(label_coll)
    row_coll = pool.take(("labels", "row-labels"),
                         lambda: row_labels.draw(ax, "row-labels", zorder=6.1))
    row_labels.update(row_coll)
    pool.finish()
    fig._pooltutor_padding_modes_ax = ax
    ax._pooltutor_static_key = static_key
    static = (label_coll, *(collections[k] for k in static_kinds))
    return PaddingModesPlot(fig, ax, geometries, errors, cells_by_mode, collections, label_texts,
                            label_coll, row_titles, last_windows, dropped, bars, head,
                            row_coll, row_y, cell, static, static_key)


def _row_labels(labels, x, y0, name, lines, detail_lines, detail_color) -> None:
    """A row's labels, right-aligned left of its cells: the mode (bold), its numbers, then
    the detail (a clip, a warning) wrapped to the label column."""
    color = style.WRONG_COLOR if lines == ["rejected"] else "black"
    labels.add(x, y0, name, _fit_size(10.5, len(name), LABEL_W - 0.2), color, ha="right",
               dx=-7, dy=2, bold=True)
    dy = 2
    for line in lines:
        dy -= 11
        labels.add(x, y0, line, _fit_size(9.5, len(line), LABEL_W - 0.2), color, ha="right",
                   dx=-7, dy=dy)
    for line in detail_lines:
        dy -= 8.5
        labels.add(x, y0, line, 7.0, detail_color, ha="right", dx=-7, dy=dy)


def _row_title(name: str, mg: ModeGeometry, size: int) -> tuple[str, str]:
    """The bold first line (mode, O, B, A) and the detail line of one row."""
    g = mg.axis
    text = f"{name}: O = {g.output_size}, B = {g.pad_begin}, A = {g.pad_end}"
    details = []
    if mg.tensorrt is not None:
        family = mg.tensorrt.rule.family
        if family == "same":
            text += " (computed; given B, A ignored)"
        elif family == "caffe":
            text = f"{name}: O = {g.output_size}, B = A = {g.pad_begin} (prePadding on both sides)"
    if g.clipped:
        details.append(f"{g.unclipped_size} → {g.output_size} windows: the last one started in "
                       f"the end padding")
    elif g.window_starts[-1] >= size:
        details.append("the last window starts in the end padding: kept (no clip)")
    if mg.notes:
        numbers = sorted({r.number for r in mg.tensorrt.triggered_restrictions}) if (
            mg.tensorrt is not None) else []
        details.append("⚠ header Restriction " + " and ".join(map(str, numbers))
                       + " condition holds (warning)")
    return text, "; ".join(details)
