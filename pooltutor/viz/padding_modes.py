"""One input, one set of parameters, several padding modes side by side (one row per mode).

:func:`plot_padding_modes` draws, for each mode, the padded input of one
axis as a row of cells (padding hatched grey and labelled with the padding
rule), every window as a bar under the row (the staircase of sample
points), the last window outlined, and the window that a ceil clip or the
CAFFE correction drops (dashed, :data:`~pooltutor.viz.style.DROPPED_COLOR`,
labelled "dropped").  Left of each row, in the row's own Axes, its labels:
the mode, its output size and effective padding, the clip or warning that
applies.

The rows share one Axes (or get one each, ``ax=[...]``); the labels are
written in a column at the left of that Axes, inside it, and the title is its
title, so that a plain ``savefig`` and Jupyter's ``bbox_inches="tight"``
keep all of it.  The numbers come from the core only
(:func:`pooltutor.tensorrt.mode_geometry`).  A mode that rejects the
combination (a CAFFE pooling whose last window still starts in padding, a
window larger than the padded input) shows the reason in its row instead of
raising.

>>> p = plot_padding_modes(6, 3, 2, pre_padding=3, post_padding=3)   # TensorRT Pooling Example 2
>>> {m: g.output_size for m, g in p.geometries.items() if g is not None}
... # doctest: +NORMALIZE_WHITESPACE
{'EXPLICIT_ROUND_DOWN': 5, 'EXPLICIT_ROUND_UP': 6, 'SAME_UPPER': 3, 'SAME_LOWER': 3,
 'CAFFE_ROUND_DOWN': 5, 'CAFFE_ROUND_UP': 5}
>>> p.dropped["CAFFE_ROUND_UP"], p.dropped["EXPLICIT_ROUND_UP"]
((7, 8, 9), None)
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int
from ..tensorrt import TENSORRT_MODES, ModeGeometry, mode_geometry, mode_name
from . import style
from .described import DescribedFigure
from .heatmaps import PAD_RULE_TEXT

__all__ = ["TENSORRT_MODES", "PaddingModesPlot", "Label", "plot_padding_modes",
           "rows_rect"]

_INPUT_COLOR = "#dbe9f6"   # input cells of a size-only picture (no values)
BAR_COLOR = "#6b6b6b"
LABEL_W = 2.6              # inches of the label column left of the cells
HEAD_SIZE = 10.5           # the mode's name (bold)
NUMBER_SIZE = 9.5          # "O = ..., B = ..., A = ..."
DETAIL_SIZE = 7.5          # a clip, a warning
REASON_SIZE = 8.5          # the text of a rejection
TITLE_SIZE = 12.5
MIN_CELL_TEXT = 7.0        # no number in a cell below 7 pt: smaller cells get no texts
ROW_GAP = 0.12             # inches between two rows
INDEX_PT = 18.0            # points under the cells for their indices
#: Longest row (cells plus windows) a picture may have: more is unreadable, and slow to draw.
MAX_CELLS = 2000
#: average advance of a character, in em (DejaVu Sans, a little generous)
_EM = {"normal": 0.62, "bold": 0.72}


@dataclass(eq=False)
class PaddingModesPlot(DescribedFigure):
    """What :func:`plot_padding_modes` drew (rows stacked in one Axes, or one Axes per row).

    Attributes
    ----------
    figure : matplotlib Figure
    axes : dict
        Mode name -> the Axes its row is drawn in (in the order of ``modes``).
    geometries : dict
        Mode name -> :class:`~pooltutor.tensorrt.ModeGeometry`, or None when the
        mode rejected the combination.
    errors : dict
        Mode name -> the reason it rejected the combination (only rejected modes).
    cells : dict
        Mode name -> ``{"input": (...), "padding": (...), "outside": (...)}``: the
        positions (input coordinates) of the cells of each kind drawn in its row.
    collections : dict
        Kind -> list (one per Axes) of the artist drawing those cells of all its rows: gids
        ``"input"`` (squares of a size-only picture; an input of values is an ``AxesImage``
        per row, kind ``"input-image"``), ``"input-separators"``, ``"padding"`` (hatched,
        one compound path), ``"outside"``, ``"input-border"`` (a list of ``Rectangle``),
        ``"window"`` (the last window's taps, dashed past the padded input),
        ``"window-bars"`` (one segment per window), ``"window-tap"`` (dilated taps),
        ``"dropped"`` and ``"dropped-bars"``; the cells of a rejected row are in
        ``"<kind>-rejected"``, faded.
    labels : dict
        Mode name -> the texts of its row, in drawing order: each cell's text and index,
        then the dropped label, the row labels (mode, numbers, detail) and the reason lines.
    row_titles : dict
        Mode name -> the row's first line (``"MODE: O = 5, B = 3, A = 2"`` or
        ``"MODE: rejected"``).
    row_texts : dict
        Mode name -> the :class:`Label` (text, size, colour, gid ``"row-mode"``,
        ``"row-numbers"``, ``"row-detail"``, ``"rejected"``) of its labels.
    reasons : dict
        Mode name -> the band (gid ``"rejected"``) on which it says why it rejected (only
        rejected modes).
    windows : dict
        Mode name -> ``(first tap, last tap)`` of each window, as its bar shows it (empty if
        rejected).
    last_windows : dict
        Mode name -> ``((tap, tap kind), ...)`` of its outlined window (the last one, or
        the one ``outline=`` chose; kind ``"outside"`` dashed); None if rejected.
    outlined : dict
        Mode name -> the output position of its outlined window (only modes that drew
        windows).
    dropped : dict
        Mode name -> the taps of the window it drops (outlined dashed, with a dashed bar
        labelled "dropped"); None when nothing was dropped.
    title : str
    title_text : Text
    cell_inches : float
        The side of a cell on the figure.
    artists : list
        Everything drawn except the title (see :meth:`remove`).
    text_collections : list
        The one ``PathCollection`` per Axes (:class:`~pooltutor.viz.style.TextCollection`,
        gid ``"labels"``) holding every text but the title: in the cells (values, padding
        rule, indices) and the labels, all inside the Axes, so inside any saved image.
    texts : list
        The :class:`Label` of every text in ``text_collections`` (gids ``"value"``,
        ``"padding-text"``, ``"index"``, ``"dropped-label"``, the row labels' and
        ``"rejected"``).
    """

    figure: Any
    axes: dict
    geometries: dict
    errors: dict
    cells: dict = field(default_factory=dict)
    collections: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    row_titles: dict = field(default_factory=dict)
    row_texts: dict = field(default_factory=dict)
    reasons: dict = field(default_factory=dict)
    last_windows: dict = field(default_factory=dict)
    dropped: dict = field(default_factory=dict)
    title: str = ""
    title_text: Any = None
    cell_inches: float = 0.5
    artists: list = field(default_factory=list)
    text_collections: list = field(default_factory=list)
    texts: list = field(default_factory=list)
    windows: dict = field(default_factory=dict)
    outlined: dict = field(default_factory=dict)

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        rows = "; ".join(self.row_titles[m] for m in self.axes)
        dropped = [m for m, d in self.dropped.items() if d]
        tail = (f". The last window of {', '.join(dropped)} starts in the end padding and is "
                f"dropped" if dropped else "")
        chosen = [f"{m} outlines the window of output {o} (input {self.windows[m][o][0]} "
                  f"to {self.windows[m][o][1]})" for m, o in self.outlined.items()
                  if o != len(self.windows[m]) - 1]
        outlined = ("; each row's last window is outlined" if not chosen else
                    "; " + "; ".join(chosen) + ", the other rows their last window")
        return (f"{self.title}. One row per rule, each with its output length O and padding "
                f"before B and after A: {rows}{tail}{outlined}.")

    def remove(self) -> None:
        """Take everything this plot drew off its Axes, but the title (the Axes' own: the
        next plot on the Axes sets it): an explorer draws the next picture on the same Axes,
        then removes the last one."""
        for artist in self.artists:
            if artist.axes is not None:
                artist.remove()
        self.artists = []


@dataclass(frozen=True)
class Label:
    """One text of the picture as it was written (read it like a ``Text``): drawn, with all
    the others of its Axes, by one :class:`~pooltutor.viz.style.TextCollection`."""

    text: str
    x: float
    y: float
    size: float
    color: Any
    gid: str
    bold: bool = False

    def get_text(self) -> str:
        return self.text

    def get_gid(self) -> str:
        return self.gid

    def get_fontsize(self) -> float:
        return self.size

    def get_color(self):
        return self.color

    def get_position(self) -> tuple[float, float]:
        return self.x, self.y


class _Texts:
    """The texts of one Axes: a :class:`~pooltutor.viz.style.TextCollection` (one artist for
    all of them) and the :class:`Label` of each, in the order written."""

    def __init__(self):
        self.collection = style.TextCollection()
        self.labels: list[Label] = []

    def add(self, x, y, text, size, color="black", *, gid, ha="center", dx=0.0, dy=0.0,
            bold=False) -> Label:
        self.collection.add(x, y, text, size, color, gid=gid, ha=ha, dx=dx, dy=dy, bold=bold)
        self.labels.append(Label(text, float(x), float(y), float(size), color, gid, bold))
        return self.labels[-1]

    def draw(self, ax):
        return self.collection.draw(ax, gid="labels", zorder=6)


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


def _check_targets(ax, fig, n_rows: int):
    """``(fig, axes)`` from the ``ax`` / ``fig`` arguments: ``axes`` is None (make the rows
    on ``fig``), one Axes (split into rows) or a list with one Axes per row."""
    from matplotlib.axes import Axes

    style.check_fig(fig)
    if ax is None:
        return fig, None
    if fig is not None:
        raise PoolTutorTypeError("plot_padding_modes: give ax= or fig=, not both")
    if isinstance(ax, Axes):
        return ax.get_figure(), ax
    if isinstance(ax, (str, bytes)) or not isinstance(ax, Sequence) and not isinstance(
            ax, np.ndarray):
        raise PoolTutorTypeError(f"ax={ax!r} has type {type(ax).__name__}: need a matplotlib "
                                 f"Axes or a sequence of Axes (one per mode row)")
    axes = list(np.ravel(np.asarray(ax, dtype=object)))
    if not all(isinstance(a, Axes) for a in axes):
        raise PoolTutorTypeError(f"ax={ax!r}: every entry must be a matplotlib Axes")
    if len(axes) != n_rows:
        raise PoolTutorError(f"ax has {len(axes)} Axes: need one per mode row ({n_rows})")
    figures = {id(a.get_figure()) for a in axes}
    if len(figures) != 1:
        raise PoolTutorError("ax: the Axes must all be on one figure")
    return axes[0].get_figure(), axes


def _fit_size(size: float, n_chars: int, width_in: float, weight: str = "normal") -> float:
    """``size`` or smaller (not below 6.5 pt), so that ``n_chars`` characters fit in
    ``width_in`` inches."""
    return max(6.5, min(size, 72.0 * width_in / (_EM[weight] * max(n_chars, 1))))


def _wrap(text: str, width_in: float, size: float) -> str:
    """``text`` wrapped to lines that fit ``width_in`` inches at ``size`` points."""
    chars = max(12, int(72.0 * width_in / (_EM["normal"] * size)))
    return "\n".join(textwrap.fill(part, width=chars) for part in text.split("\n"))


def _lines_pt(text: str, size: float) -> float:
    """The height of ``text`` (one or more lines) in points."""
    return (text.count("\n") + 1) * size * 1.2 if text else 0.0


@dataclass
class _Row:
    """The texts of one row and the heights they need (points)."""

    name: str
    geometry: ModeGeometry | None
    head: str = ""
    numbers: str = ""
    detail: str = ""
    detail_color: str = "#333333"
    reason: str = ""
    head_size: float = HEAD_SIZE
    number_size: float = NUMBER_SIZE
    label_pt: float = 0.0           # height of the labels left of the cells
    reason_pt: float = 0.0          # height of the reason under the cells (rejected rows)

    def height_in(self, cell: float, body) -> float:
        """The row's height for cells of ``cell`` inches and ``body`` cell units of cells,
        indices and bars."""
        if self.geometry is None:
            top = max(self.label_pt / 72.0, cell + INDEX_PT / 72.0)
            return top + self.reason_pt / 72.0
        return max(body(cell) * cell, self.label_pt / 72.0)


def _row_labels(name: str, mg: ModeGeometry | None, size: int, label_w: float) -> _Row:
    """The labels of one row (mode, numbers, detail) wrapped to ``label_w`` inches."""
    row = _Row(name, mg, head=name)
    width = label_w - 0.12
    row.head_size = _fit_size(HEAD_SIZE, len(name), width, "bold")
    if mg is None:
        row.numbers, row.detail_color = "rejected", style.WRONG_COLOR
    else:
        g = mg.axis
        numbers = f"O = {g.output_size}, B = {g.pad_begin}, A = {g.pad_end}"
        details = []
        if mg.tensorrt is not None:
            family = mg.tensorrt.rule.family
            if family == "same":
                numbers += "\n(computed; given B, A ignored)"
            elif family == "caffe":
                numbers = f"O = {g.output_size}, B = A = {g.pad_begin}\n(prePadding on both sides)"
        if g.clipped:
            details.append(f"{g.unclipped_size} → {g.output_size} windows: the last one started "
                           f"in the end padding")
        elif g.window_starts[-1] >= size:
            details.append("the last window starts in the end padding: kept (no clip)")
        if mg.notes:
            numbers_r = sorted({r.number for r in mg.tensorrt.triggered_restrictions}) if (
                mg.tensorrt is not None) else []
            details.append("⚠ header Restriction " + " and ".join(map(str, numbers_r))
                           + " condition holds (warning)")
            row.detail_color = "#8a5a00"
        row.numbers = numbers
        row.detail = _wrap("; ".join(details), width, DETAIL_SIZE)
    longest = max(len(line) for line in row.numbers.split("\n"))
    row.number_size = _fit_size(NUMBER_SIZE, longest, width)
    row.label_pt = (row.head_size * 1.25 + _lines_pt(row.numbers, row.number_size)
                    + _lines_pt(row.detail, DETAIL_SIZE) + 4)
    return row


def _head_line(row: _Row) -> str:
    """The row's first line as one string (``row_titles``)."""
    if row.geometry is None:
        return f"{row.name}: rejected"
    first = row.numbers.split("\n")[0]
    rest = row.numbers.split("\n")[1:]
    return f"{row.name}: {first}" + (f" {rest[0]}" if rest else "")


def _cell_fonts(values, lo, hi, pad_text, cell_pt) -> tuple[float, float, float] | None:
    """Font sizes of the values (or ``x0, x1, ...``), the padding rule and the indices; None
    when the cells are too small to hold a number of :data:`MIN_CELL_TEXT` points."""
    if cell_pt < 2.0 * MIN_CELL_TEXT:
        return None
    longest = (max(len(style.format_value(v)) for v in values) if values is not None
               else len(f"x{hi}"))
    font = max(MIN_CELL_TEXT, min(0.45 * cell_pt, 15.0, 0.9 * cell_pt / (0.62 * longest)))
    pad_font = max(MIN_CELL_TEXT, min(0.36 * cell_pt, 12.0,
                                      0.9 * cell_pt / (0.62 * max(len(pad_text), 1))))
    index_font = max(MIN_CELL_TEXT, min(9.0, font, 0.9 * cell_pt / (
        0.62 * max(len(str(lo)), len(str(hi)), 1))))
    return font, pad_font, index_font


def _bar_segments(axis, starts, level0: float, step: float) -> list:
    """One horizontal segment per window (first tap to last tap), stacked downwards."""
    segs = []
    for o, start in enumerate(starts):
        last = start + (axis.kernel - 1) * axis.dilation
        y = level0 + step * o
        segs.append([(start - 0.42, y), (last + 0.42, y)])
    return segs


def _fit_cell(rows, body, width_in: float, height_in: float, label_w: float,
              n_cells: int) -> float:
    """The largest cell (inches, at most 0.9) with which the rows fit ``width_in`` x
    ``height_in`` (bisection: every row's height grows with the cell)."""
    wide = (width_in - label_w - 0.25) / n_cells

    def fits(c):
        return sum(r.height_in(c, body) for r in rows) + ROW_GAP * (len(rows) - 1) <= height_in

    lo_c, hi_c = 0.02, max(0.02, min(0.9, wide))
    if fits(hi_c):
        return hi_c
    for _ in range(30):
        mid = (lo_c + hi_c) / 2
        lo_c, hi_c = (mid, hi_c) if fits(mid) else (lo_c, mid)
    return lo_c


def rows_rect(fig, top: float = (TITLE_SIZE * 1.3 + 16) / 72.0) -> tuple[float, ...]:
    """Where :func:`plot_padding_modes` puts its one Axes on ``fig`` (figure fraction): the
    whole figure but thin margins and ``top`` inches for the title."""
    w, h = _size_inches(fig)
    return 0.1 / w, 0.05 / h, (w - 0.2) / w, (h - top - 0.05) / h


def _size_inches(fig) -> tuple[float, float]:
    """The size of a Figure or SubFigure, in inches."""
    return fig.bbox.width / fig.dpi, fig.bbox.height / fig.dpi


def _axes_inches(ax) -> tuple[float, float]:
    """The size of ``ax`` on its figure, in inches."""
    pos = ax.get_position()
    w, h = _size_inches(ax.get_figure())
    return pos.width * w, pos.height * h


def plot_padding_modes(x, window: int, stride: int = 1, pre_padding: int = 0,
                       post_padding: int = 0, *, dilation: int = 1,
                       modes: Sequence[Any] = TENSORRT_MODES, pad_taps: str = "neg_inf",
                       ax=None, fig=None, fit_figure: bool = False, title: str | None = None,
                       outline: dict | None = None) -> PaddingModesPlot:
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
        :class:`~pooltutor.tensorrt.PaddingMode` members) and/or engine
        rules ``"floor"``, ``"ceil"``, ``"ceil_torch"``, ``"floor_clip"``,
        ``"caffe"`` (which use ``pre_padding`` / ``post_padding`` as given).
    pad_taps : {'neg_inf', 'skip', 'lowest'}
        The padding rule written in padding cells (TensorRT's max pooling
        documents -inf).
    ax : Axes or sequence of Axes, optional
        One Axes: the rows are stacked in it (cells as large as its size
        allows), the title above it.  A sequence: one Axes per mode row, in
        the order of ``modes`` (the first gets the title).  Each row's labels
        sit in a column at the left of its Axes, inside it.  Drawn into as
        they are (not cleared).  Not with ``fig``.
    fig : matplotlib Figure or SubFigure, optional
        Cleared and drawn into (its size kept unless ``fit_figure``); a new
        figure sized for the picture otherwise.
    fit_figure : bool
        Resize ``fig`` to the size the picture needs.
    title : str, optional
        Replaces the title (the parameters and the padding rule).
    outline : dict, optional
        Mode name -> the output position whose window is outlined in that row (its bar
        drawn in the window colour) instead of the last window: the chosen output cell of
        an explorer.  A mode that rejects the combination has no windows to outline.

    Returns
    -------
    PaddingModesPlot

    Raises
    ------
    PoolTutorError, PoolTutorTypeError
        For parameters no mode could use (``window=0``, a 2-D ``x``, an
        unknown mode name, a row too long to draw).  A mode that *rejects* a
        valid combination does not raise: its row shows why.

    Examples
    --------
    TensorRT's Pooling Example 1 (``I=6, B=3, A=2, S=2, F=3``) under two
    engine rules and CAFFE_ROUND_UP, which rejects it with ``B=4``:

    >>> p = plot_padding_modes(6, 3, 2, 4, 2, modes=("floor", "ceil_torch", "CAFFE_ROUND_UP"))
    >>> p.geometries["floor"].output_size, p.geometries["ceil_torch"].output_size
    (5, 5)
    >>> p.geometries["CAFFE_ROUND_UP"] is None, "rejects" in p.errors["CAFFE_ROUND_UP"]
    (True, True)
    >>> len(p.figure.axes), p.row_titles["floor"]
    (1, 'floor: O = 5, B = 4, A = 2')
    """
    size, values = _check_input(x)
    window = check_int("window", window, minimum=1)
    stride = check_int("stride", stride, minimum=1)
    pre_padding = check_int("pre_padding", pre_padding, minimum=0)
    post_padding = check_int("post_padding", post_padding, minimum=0)
    dilation = check_int("dilation", dilation, minimum=1)
    check_choice("pad_taps", pad_taps, tuple(PAD_RULE_TEXT))
    if not isinstance(fit_figure, (bool, np.bool_)):
        raise PoolTutorTypeError(f"fit_figure={fit_figure!r} has type "
                                 f"{type(fit_figure).__name__}: need True or False")
    if title is not None and not isinstance(title, str):
        raise PoolTutorTypeError(f"title={title!r} has type {type(title).__name__}: need a str "
                                 f"or None")
    if isinstance(modes, (str, bytes)) or not isinstance(modes, Sequence) or not modes:
        raise PoolTutorTypeError(f"modes={modes!r}: need a non-empty sequence of mode names")
    names = [mode_name(m) for m in modes]
    if len(set(names)) != len(names):
        raise PoolTutorError(f"modes={list(modes)!r} names a mode twice")
    fig, targets = _check_targets(ax, fig, len(names))
    if fit_figure and fig is not None and (targets is not None
                                           or not hasattr(fig, "set_size_inches")):
        raise PoolTutorTypeError(f"fit_figure=True resizes fig=, so it needs a Figure, not "
                                 f"{'ax=' if targets is not None else type(fig).__name__}")
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
    outlined = _check_outline(outline, geometries)

    # one common x range, so that the rows line up cell for cell
    lo, hi, max_windows = 0, size, 1
    for name, mg in geometries.items():
        if mg is None:
            b = pre_padding
            a = pre_padding if name.startswith("CAFFE") else post_padding
            lo, hi = min(lo, -b), max(hi, size + a)
            continue
        g = mg.axis
        starts = list(g.window_starts) + ([g.dropped_start] if g.dropped_start is not None
                                          else [])
        lo = min(lo, -g.pad_begin)
        hi = max(hi, size + g.pad_end, max(starts) + g.effective_kernel)
        max_windows = max(max_windows, len(starts))
    n_cells = hi - lo
    pad_text = PAD_RULE_TEXT[pad_taps]
    head = title if title is not None else (
        f"padding modes: I={size}, F={window}, S={stride}"
        + (f", D={dilation}" if dilation != 1 else "")
        + f", B={pre_padding}, A={post_padding}  (padding: {pad_text})")
    # per row, in cell units: the cells (-0.5 .. 0.5), their indices, one bar per window
    bar_step = min(0.22, 1.0 / max_windows)

    def bars_top_at(c: float) -> float:
        """Where the first bar is (cell units under the cells' centre line): under the
        indices, which are written in points under the cells."""
        return 0.5 + max(0.65, INDEX_PT / (72.0 * c))

    def body(c: float) -> float:
        return 0.5 + bars_top_at(c) + bar_step * (max_windows - 1) + 0.35

    # ------------------------------------------------------------------ layout (inches)
    per_row = isinstance(targets, list)
    if targets is not None and fig.get_layout_engine() is not None:
        fig.draw_without_rendering()          # the layout engine places the given Axes
    if per_row:
        inches = [_axes_inches(a) for a in targets]
    elif targets is not None:
        inches = [_axes_inches(targets)]
    elif fig is None or fit_figure:
        cell = max(0.03, min(0.6, 10.0 / n_cells))
        inches = [(max(7.0, LABEL_W + n_cells * cell + 0.45) - 0.2, None)]
    else:
        w_fig, h_fig = _size_inches(fig)
        inches = [(w_fig - 0.2, None)]                     # the height follows the title
    width = min(w for w, _ in inches)
    label_w = min(LABEL_W, 0.42 * width)
    rows = [_row_labels(name, geometries[name], size, label_w) for name in names]
    for row, (w, _) in zip(rows, inches if per_row else inches * len(rows), strict=True):
        if row.geometry is None:
            row.reason = _wrap(errors[row.name], w - 0.35, REASON_SIZE)
            row.reason_pt = _lines_pt(row.reason, REASON_SIZE) + 10
    head_size = _fit_size(TITLE_SIZE, len(head), width, "bold")
    top = (head_size * 1.3 + 16) / 72.0                    # the title, over the rows
    if targets is None:
        if fig is None or fit_figure:
            height = sum(r.height_in(cell, body) for r in rows) + ROW_GAP * (len(rows) - 1)
            size_in = (width + 0.2, height + top + 0.1)
            if fig is None:
                from .explorer import new_figure

                fig = new_figure(size_in, dpi=100)
            else:
                fig.set_size_inches(size_in)
        fig.clear()
        targets = fig.add_axes(rows_rect(fig, top))
        inches = [_axes_inches(targets)]
    if per_row:
        cell = min(_fit_cell([row], body, w, h, label_w, n_cells)
                   for row, (w, h) in zip(rows, inches, strict=True))
    else:
        cell = _fit_cell(rows, body, inches[0][0], inches[0][1], label_w, n_cells)

    cell_pt = cell * 72.0
    bars_top = bars_top_at(cell)
    fonts = _cell_fonts(values, lo, hi, pad_text, cell_pt)
    vmin, vmax = style.shared_limits(values) if values is not None else (0.0, 1.0)
    axes = targets if per_row else [targets] * len(rows)
    plot = PaddingModesPlot(fig, dict(zip(names, axes, strict=True)), geometries, errors,
                            title=head, cell_inches=cell, outlined=outlined)
    # rows stacked downwards in cell units; the label column, then the cells centred
    used = label_w + n_cells * cell
    y = 0.0
    texts = _Texts()
    for r, row in enumerate(rows):
        a = axes[r]
        w, h = inches[r] if per_row else inches[0]
        x0 = lo - 0.5 - (label_w + max(0.0, (w - used) / 2)) / cell
        if per_row or not r:
            y = 0.0
            texts, acc = _Texts(), _Cells()
        else:
            y += ROW_GAP / cell
        _draw_row(plot, a, texts, acc, row, y, values, size, lo, hi, pad_text, fonts, vmin,
                  vmax, cell_pt, bars_top, bar_step, (pre_padding, post_padding), x0,
                  x0 + w / cell)
        y += row.height_in(cell, body) / cell
        if per_row or r == len(rows) - 1:
            # cells in data units, square on the figure; no ticks (hidden, still texts)
            a.set_aspect("auto")
            a.set_xlim(x0, x0 + w / cell)
            a.set_ylim(max(h / cell, y), 0.0)
            a.set_xticks([])
            a.set_yticks([])
            a.set_axis_off()
            coll = texts.draw(a)
            plot.artists.append(coll)
            plot.text_collections.append(coll)
            plot.texts += texts.labels
            for kind, artist in acc.draw(a).items():
                plot.collections.setdefault(kind, []).append(artist)
                plot.artists += artist if isinstance(artist, list) else [artist]
    plot.title_text = axes[0].set_title(head, fontsize=head_size, fontweight="bold", pad=10)
    return plot


def _check_outline(outline, geometries) -> dict:
    """``outline`` checked against the modes drawn: ``{mode name: output position}``."""
    if outline is None:
        return {}
    if not isinstance(outline, dict):
        raise PoolTutorTypeError(f"outline={outline!r} has type {type(outline).__name__}: "
                                 f"need a dict of mode name -> output position")
    checked = {}
    for mode, o in outline.items():
        name = mode_name(mode)
        if name not in geometries:
            raise PoolTutorError(f"outline names {mode!r}: need one of the modes drawn "
                                 f"({', '.join(geometries)})")
        mg = geometries[name]
        if mg is None:
            raise PoolTutorError(f"outline={{{mode!r}: {o!r}}} is not allowed: {name} rejects "
                                 f"these parameters, it has no window to outline")
        checked[name] = check_int(f"outline[{mode!r}]", o, minimum=0)
        if checked[name] >= mg.output_size:
            raise PoolTutorError(f"outline[{mode!r}]={o} is not an output position of {name}: "
                                 f"need 0 <= o < {mg.output_size}")
    return checked


class _Cells:
    """The cells, windows and bars of every row of one Axes, gathered per kind and drawn as
    one collection per kind (:meth:`draw`): six rows cost as much to draw as one.  A rejected
    row's cells go to a kind of their own (``"input-rejected"``, ...), drawn faded."""

    def __init__(self):
        self.squares: dict[str, list] = {}      # kind -> [(row y, col)]
        self.separators: dict[bool, list] = {}  # rejected -> segments
        self.bars: list = []                    # (segment, colour, width)
        self.dropped_bars: list = []
        self.taps: list = []                    # dilated window taps (x, y)
        self.window_styles: list = []           # line style per "window" square
        self.images: list = []

    def add(self, kind: str, cells, rejected: bool = False) -> None:
        self.squares.setdefault(kind + ("-rejected" if rejected else ""), []).extend(cells)

    STYLE = {
        "input": dict(facecolors=_INPUT_COLOR, edgecolors="none", zorder=1),
        "padding": dict(merged=True, facecolors=style.PAD_COLOR, edgecolors="#9a9a9a",
                        linewidths=0.5, hatch=style.PAD_HATCH, zorder=1.1),
        "outside": dict(facecolors=style.OUTSIDE_COLOR, edgecolors="#9a9a9a", linewidths=0.8,
                        linestyles=[(0, (3, 2))], zorder=1.2),
        "window": dict(facecolors="none", edgecolors=style.WINDOW_COLOR, linewidths=3,
                       zorder=5),
        "dropped": dict(facecolors="none", edgecolors=style.DROPPED_COLOR, linewidths=2.5,
                        linestyles=[(0, (4, 2))], zorder=5.1),
    }

    def draw(self, ax) -> dict:
        """Draw every kind on ``ax``; returns ``{kind: artist}``."""
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Rectangle

        drawn = {}
        for kind, cells in self.squares.items():
            base = kind.removesuffix("-rejected")
            if base == "input-border":
                continue
            kw = dict(self.STYLE[base])
            if kind.endswith("-rejected"):
                kw["alpha"] = 0.35
            if base == "window":
                kw["linestyles"] = self.window_styles
            drawn[kind] = style.cell_squares(ax, cells, base, **kw)
        for rejected, segs in self.separators.items():
            coll = LineCollection(segs, colors="white", linewidths=1.0, zorder=1.05,
                                  alpha=0.35 if rejected else None, gid="input-separators")
            ax.add_collection(coll, autolim=False)
            drawn["input-separators" + ("-rejected" if rejected else "")] = coll
        for kind in ("input-border", "input-border-rejected"):
            for y, x0, x1 in self.squares.get(kind, ()):
                patch = Rectangle((x0 - 0.5, y - 0.5), x1 - x0 + 1, 1, fill=False,
                                  edgecolor="#333333", linewidth=1.4, zorder=3,
                                  alpha=0.35 if kind.endswith("rejected") else None,
                                  gid="input-border")
                ax.add_artist(patch)
                drawn.setdefault(kind, []).append(patch)
        if self.bars:
            segs, colors, widths = zip(*self.bars, strict=True)
            coll = LineCollection(segs, colors=colors, linewidths=widths, capstyle="butt",
                                  zorder=2, gid="window-bars")
            ax.add_collection(coll, autolim=False)
            drawn["window-bars"] = coll
        if self.dropped_bars:
            coll = LineCollection(self.dropped_bars, colors=style.DROPPED_COLOR, linewidths=3,
                                  linestyles=[(0, (2, 1))], capstyle="butt", zorder=2.2,
                                  gid="dropped-bars")
            ax.add_collection(coll, autolim=False)
            drawn["dropped-bars"] = coll
        if self.taps:
            from matplotlib.lines import Line2D

            line = Line2D(*zip(*(t[:2] for t in self.taps), strict=True), linestyle="none",
                          marker="s", markersize=self.taps[0][2], color=BAR_COLOR,
                          gid="window-tap", zorder=2.1)
            ax.add_line(line)
            drawn["window-tap"] = line
        for image in self.images:
            drawn.setdefault("input-image", []).append(image)
        return drawn


def _draw_row(plot: PaddingModesPlot, ax, texts, acc: _Cells, row: _Row, y_top: float,
              values, size, lo, hi, pad_text, fonts, vmin, vmax, cell_pt, bars_top, bar_step,
              given, x0, x1) -> None:
    """One row on ``ax`` from ``y_top`` (cell units) down: the padded input (cells, texts,
    indices), its windows (gathered in ``acc``) and its labels (added to ``texts``)."""
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    name, mg = row.name, row.geometry
    rejected = mg is None
    g = None if mg is None else mg.axis
    y0 = y_top + 0.5                                   # the centre line of the cells
    drawn: list = []

    def keep(artist):
        drawn.append(artist)
        return artist

    def faded(color):
        return to_rgba(color, 0.35) if rejected else color

    if g is not None:
        pb, pe = g.pad_begin, g.pad_end
        reach = max(g.window_starts[-1], g.dropped_start if g.dropped_start is not None
                    else g.window_starts[-1]) + g.effective_kernel
    else:                  # what the mode would have padded (CAFFE: B on both sides), faded
        pb, reach = given[0], None
        pe = given[0] if name.startswith("CAFFE") else given[1]
    kinds: dict[str, list[int]] = {"input": [], "padding": [], "outside": []}
    for t in range(lo, hi):
        if 0 <= t < size:
            kinds["input"].append(t)
        elif -pb <= t < size + pe:
            kinds["padding"].append(t)
        elif reach is not None and size + pe <= t < reach:
            kinds["outside"].append(t)
    plot.cells[name] = {k: tuple(v) for k, v in kinds.items()}

    # cells: the input (values as an image of cells, or plain squares), padding, outside
    if values is not None:
        import matplotlib as mpl

        acc.images.append(keep(ax.imshow(
            np.ma.masked_invalid(values[None, :].astype(float)),
            cmap=mpl.colormaps[style.CMAP].with_extremes(bad="white"), vmin=vmin, vmax=vmax,
            interpolation="nearest", aspect="auto", extent=(-0.5, size - 0.5, y0 + 0.5, y0 - 0.5),
            alpha=0.35 if rejected else None, zorder=1, gid="input")))
    else:
        acc.add("input", [(y0, t) for t in kinds["input"]], rejected)
    acc.separators.setdefault(rejected, []).extend(
        [(t + 0.5, y0 - 0.5), (t + 0.5, y0 + 0.5)] for t in range(size - 1))
    acc.add("padding", [(y0, t) for t in kinds["padding"]], rejected)
    acc.add("outside", [(y0, t) for t in kinds["outside"]], rejected)
    acc.add("input-border", [(y0, 0, size - 1)], rejected)

    # the texts in and under the cells
    shown: list[str] = []
    index_step = 1 if fonts is not None else max(1, math.ceil(26.0 / cell_pt))
    padding = set(kinds["padding"])
    for t in range(lo, hi):
        kind = ("input" if 0 <= t < size else "padding" if t in padding
                else "outside" if t in kinds["outside"] else None)
        if kind is None:
            continue
        if kind == "input":
            text = f"x{t}" if values is None else style.format_value(values[t])
            color = ("black" if values is None
                     else style.cell_text_color(float(values[t]), vmin, vmax))
            if fonts is not None:
                texts.add(t, y0, text, fonts[0], faded(color), gid="value")
                shown.append(text)
        elif kind == "padding" and fonts is not None:
            texts.add(t, y0, pad_text, fonts[1], faded("#444444"), gid="padding-text")
            shown.append(pad_text)
        if fonts is not None or t % index_step == 0:
            index_font = fonts[2] if fonts is not None else MIN_CELL_TEXT
            texts.add(t, y0 + 0.5, str(t), index_font, faded("#555555"), gid="index",
                      dy=-(0.5 * index_font + 4))
            shown.append(str(t))

    # the windows: one bar each (the last in the window colour, thicker), the last outlined
    plot.windows[name], plot.last_windows[name], plot.dropped[name] = (), None, None
    if g is not None:
        starts = g.window_starts
        bar_pt = bar_step * cell_pt
        bar_width = min(3.0, max(1.0, 0.6 * bar_pt))
        segs = _bar_segments(g, starts, y0 + bars_top, bar_step)
        chosen = plot.outlined.setdefault(name, len(starts) - 1)
        acc.bars += [(seg, BAR_COLOR, bar_width) for o, seg in enumerate(segs) if o != chosen]
        acc.bars.append((segs[chosen], style.WINDOW_COLOR, min(4.5, bar_width + 1.5)))
        plot.windows[name] = tuple((start, start + (g.kernel - 1) * g.dilation)
                                   for start in starts)
        if g.dilation > 1:
            acc.taps += [(start + j * g.dilation, y0 + bars_top + bar_step * o,
                          min(5.0, max(2.0, 0.8 * bar_pt)))
                         for o, start in enumerate(starts) for j in range(g.kernel)]
        last = g.taps(chosen)
        acc.add("window", [(y0, t) for t in last])
        acc.window_styles += ["--" if g.tap_kind(t) == "outside" else "-" for t in last]
        plot.last_windows[name] = tuple((t, g.tap_kind(t)) for t in last)
        if g.dropped_start is not None:
            d_taps = [g.dropped_start + j * g.dilation for j in range(g.kernel)]
            acc.add("dropped", [(y0, t) for t in d_taps])
            level = y0 + bars_top + bar_step * len(starts)
            acc.dropped_bars.append([(d_taps[0] - 0.42, level), (d_taps[-1] + 0.42, level)])
            # "dropped" right of its bar when it fits in the Axes, else left of it, a little
            # lower (clear of the last window's bar just above)
            width = (len("dropped") * _EM["bold"] * 8.5 + 8) / cell_pt
            if x1 - (d_taps[-1] + 0.5) >= width:
                texts.add(d_taps[-1] + 0.5, level, "dropped", 8.5, style.DROPPED_COLOR,
                          gid="dropped-label", ha="left", dx=4, dy=-3, bold=True)
            else:
                texts.add(d_taps[0] - 0.5, level, "dropped", 8.5, style.DROPPED_COLOR,
                          gid="dropped-label", ha="right-center", dx=-4, dy=-4, bold=True)
            plot.dropped[name] = tuple(d_taps)
            shown.append("dropped")

    # the labels, right-aligned at the right edge of the label column (baselines in points
    # under the top of the row)
    x_right = lo - 0.5
    first = len(texts.labels)
    color = style.WRONG_COLOR if rejected else "black"
    base = 1 + 0.8 * row.head_size
    texts.add(x_right, y_top, row.head, row.head_size, color, gid="row-mode", ha="right",
              dx=-8, dy=-base, bold=True)
    base += 0.45 * row.head_size
    for line in row.numbers.split("\n"):
        base += 1.2 * row.number_size
        texts.add(x_right, y_top, line, row.number_size, color, gid="row-numbers", ha="right",
                  dx=-8, dy=-base + 0.25 * row.number_size)
    for line in row.detail.split("\n") if row.detail else ():
        base += 1.2 * DETAIL_SIZE
        texts.add(x_right, y_top, line, DETAIL_SIZE, row.detail_color, gid="row-detail",
                  ha="right", dx=-8, dy=-base + 0.25 * DETAIL_SIZE)
    plot.row_titles[name] = _head_line(row)
    if rejected:
        # the reason under the cells, across the whole row, on a light red band
        cell_in = cell_pt / 72.0
        r_top = y_top + (max(row.label_pt / 72.0, cell_in + INDEX_PT / 72.0) + 2 / 72) / cell_in
        r_height = (row.reason_pt - 4) / cell_pt
        band = Rectangle((x0 + 0.06 / cell_in, r_top), (x1 - x0) - 0.12 / cell_in, r_height,
                         facecolor="#fdecea", edgecolor=style.WRONG_COLOR, linewidth=0.6,
                         zorder=3.5, gid="rejected")
        ax.add_artist(keep(band))
        plot.reasons[name] = band
        base = 4 + 0.8 * REASON_SIZE
        for line in row.reason.split("\n"):
            texts.add(x0 + 0.14 / cell_in, r_top, line, REASON_SIZE, style.WRONG_COLOR,
                      gid="rejected", ha="left", dy=-base)
            base += 1.2 * REASON_SIZE
    plot.row_texts[name] = list(texts.labels[first:])
    plot.labels[name] = tuple(shown) + tuple(t.get_text() for t in texts.labels[first:])
    plot.artists.extend(drawn)
