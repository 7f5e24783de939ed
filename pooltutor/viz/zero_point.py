"""ReLU on quantized codes: the clamp at the zero point against the clamp at the code 0.

A code ``q`` stands for the real value ``(q - zero_point) * scale``, so the
real zero is the code ``zero_point``, not the code 0 (:mod:`pooltutor.quant`).

:func:`plot_zero_point_relu` draws, for one ``(scale, zero_point, dtype)``,
what ReLU does to every code: the correct clamp ``max(q, max(qmin, zp))``
(:func:`pooltutor.quant.relu`) against the wrong ``max(q, 0)`` on raw codes
(the same function with zero point 0, what ONNX ``Relu`` does to integers),
with a real-value axis above the code axis.  Given a block of codes it also
shows both ReLUs on it and what a max pool then keeps (TV31: codes
``[[126, 120], [110, 127]]`` at zero point 128 pool to 128 with the right
clamp, and to 127, a negative real value, with the wrong one).

The code panels are drawn by :func:`draw_code_panel`, which
:mod:`pooltutor.viz.quant_chain` uses for the stages of the quantized chain.

>>> p = plot_zero_point_relu(0.5, 128, "uint8", codes=[[126, 120], [110, 127]])   # TV31
>>> p.pooled_right.tolist(), p.pooled_wrong.tolist(), list(p.axes)
([[128]], [[127]], ['transfer', 'codes', 'right', 'pooled_right', 'wrong', 'pooled_wrong'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from .. import quant
from ..errors import PoolTutorError, PoolTutorTypeError, check_int
from . import style
from .described import DescribedFigure

__all__ = [
    "ZeroPointReluPlot",
    "CodePanel",
    "RELU_PANELS",
    "plot_zero_point_relu",
    "draw_code_panel",
    "empty_axes",
]

#: The code panels of :func:`plot_zero_point_relu`, in drawing (and ``ax=``) order.
RELU_PANELS = ("codes", "right", "pooled_right", "wrong", "pooled_wrong")
#: Colour of the input codes (no ReLU) in the transfer plot.
IDENTITY_COLOR = "#7f7f7f"
#: Relative margin of both axes of the transfer plot: with the same margin on both, the
#: identity line ``real = (q - zp) * s`` runs from the lower left corner, and every ReLU line
#: lies on or above it (the legend sits in the empty lower right corner).
MARGIN = 0.03
#: Room above the data of the transfer plot (a fraction of its range) for the labels of the
#: two clamp codes.
HEADROOM = 0.3
#: The real-value axis shows no tick within this fraction of its length from its right end.
END_ROOM = 0.065
#: Largest block of codes :func:`plot_zero_point_relu` writes out.
MAX_BLOCK = 6


# --------------------------------------------------------------------------- code panels


@dataclass(frozen=True, eq=False)
class CodePanel:
    """What :func:`draw_code_panel` drew on one Axes.

    Attributes
    ----------
    ax : Axes
    image : AxesImage
        The cells (``style.draw_grid``), coloured on the shared code scale.
    labels : PathCollection
        Every text of the cells (a :class:`~pooltutor.viz.style.TextCollection`; read its
        records with :func:`~pooltutor.viz.style.texts_of`).
    values, reals : tuple of CellText
        The code (gid ``"value"``, bold) and its real value (gid ``"real"``) of each cell,
        row-major; with ``indices`` the row and column indices (gid ``"tick"``) too.
    window : tuple of Rectangle
        The outlines of the window's cells (gid ``"window"``); empty without a window.
    winner, highlight : Rectangle or None
        The winner's mark (gid ``"winner"``) and the marked output cell (gid
        ``"highlight"``).
    raised : tuple of Polygon
        A corner triangle (gid ``"raised"``) on each code that ReLU raised.
    raised_cells : tuple of (row, col)
    """

    ax: Any
    image: Any
    labels: Any
    values: tuple
    reals: tuple
    window: tuple = ()
    winner: Any = None
    highlight: Any = None
    raised: tuple = ()
    raised_cells: tuple = ()


def real_text(real: float, scale) -> str:
    """A real value as written in a cell: ``-0.5``, or ``-2s`` in units of ``s`` when the
    scale is not known (``scale=None``).

    >>> real_text(-0.5, 0.5), real_text(-2.0, None), real_text(-0.0, None)
    ('-0.5', '-2s', '0')
    """
    v = 0.0 if float(real) == 0 else float(real)
    text = style.format_value(v)
    return text if scale is not None or text == "0" else f"{text}s"


def cell_points(ax, shape, margin: float = 0.0) -> float:
    """About the side (points) a cell of a grid of ``shape`` gets on ``ax``, from its slot
    before the layout (which then takes room for titles and labels, mostly above and
    below): the place its grid gives it, wherever a layout has put it since (so that
    the Axes of a figure drawn again get the text sizes of a new figure's)."""
    spec = ax.get_subplotspec()
    if spec is not None:
        box = spec.get_position(ax.figure).transformed(ax.figure.transSubfigure)
    else:
        box = ax.get_window_extent()
    dpi = ax.figure.dpi
    rows, cols = shape
    return min(1.15 * box.width / (cols + margin), 0.85 * box.height / (rows + margin)) * 72.0 / dpi


def text_sizes(cell_pt: float, widest: int) -> tuple[float, float, bool]:
    """``(code size, real-value size, with the word "real")`` in points for cells of
    ``cell_pt`` points whose real values are at most ``widest`` characters: never below
    7 pt.

    >>> text_sizes(60.0, 4), text_sizes(30.0, 4)
    ((13.0, 9.0, True), (11.0, 8.0, False))
    """
    big = float(min(13.0, max(7.0, np.floor(0.38 * cell_pt * 2) / 2)))
    small = float(min(9.0, max(7.0, np.floor(0.27 * cell_pt * 2) / 2)))
    word = 0.58 * small * (widest + 5) <= 0.9 * cell_pt       # "real " + the value
    return big, small, bool(word)


def draw_code_panel(ax, codes, reals, *, vmin, vmax, scale=None, title="", title_color="black",
                    window=(), winner=None, highlight=None, raised=(), indices=False,
                    title_size=10.5) -> CodePanel:
    """Draw a block of integer codes with their real values on ``ax``.

    Parameters
    ----------
    ax : Axes
    codes : 2-D array of int
    reals : 2-D array of float
        The real value of each code (``(q - zp) * s``, or in units of ``s`` with
        ``scale=None``).
    vmin, vmax : float
        The colour limits (shared by the panels that are compared).
    scale : float or None
        Only decides how real values are written (``-2s`` without a scale).
    title, title_color : str
    window : sequence of (row, col)
        Cells outlined (solid, on the cells' edges).
    winner : (row, col) or None
        Marked with the house winner mark (a square inset in the cell, dark rim).
    highlight : (row, col) or None
        The output cell shown (the same inset square, in the highlight colour).
    raised : sequence of (row, col)
        Codes that ReLU raised: a triangle in the cell's upper left corner.
    indices : bool
        Row and column indices around the grid.
    """
    from matplotlib.patches import Polygon

    codes = np.asarray(codes)
    rows, cols = codes.shape
    image = style.draw_grid(ax, codes.astype(float), vmin=vmin, vmax=vmax, annotate=False,
                            ticks=False)
    ax.set_xticks([])       # no ticks made only to be taken away (cheaper)
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_aspect("equal")
    written = {(r, c): real_text(v, scale) for (r, c), v in np.ndenumerate(reals)}
    big, small, word = text_sizes(cell_points(ax, codes.shape, INDEX_MARGIN if indices else 0),
                                  max(len(t) for t in written.values()))
    colors = style.cell_text_colors(codes, vmin, vmax)
    texts = style.TextCollection()
    for (r, c), q in np.ndenumerate(codes):
        color = str(colors[r, c])
        texts.add(c, r - 0.12, str(int(q)), big, color, gid="value", bold=True)
        texts.add(c, r + 0.28, f"real {written[r, c]}" if word else written[r, c], small,
                  color, gid="real")
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    if indices:
        index_labels(ax, texts, rows, cols)
    ax.set_xlabel("")
    ax.set_ylabel("")
    labels = texts.draw(ax, gid="cell-labels")
    window_patches = tuple(style.outline_cells(ax, list(window), linewidth=3, autolim=False))
    winner_patch = None
    if winner is not None:
        winner_patch = style.mark_cell(ax, winner, autolim=False, half=0.4, linewidth=3)
    highlight_patch = None
    if highlight is not None:
        highlight_patch = style.mark_cell(ax, highlight, color=style.HIGHLIGHT_COLOR,
                                          gid="highlight", autolim=False, half=0.4,
                                          linewidth=3)
    corners = []
    for r, c in raised:
        x0, y0 = c - 0.46, r - 0.46
        corner = Polygon([(x0, y0), (x0 + 0.24, y0), (x0, y0 + 0.24)], closed=True,
                         facecolor=style.RIGHT_COLOR, edgecolor=style.RIM_COLOR, linewidth=0.8,
                         zorder=5.5, gid="raised")
        ax.add_patch(corner)
        corners.append(corner)
    # at the top of the Axes (nothing is drawn above a code panel): no search for
    # decorations to clear at every draw
    ax.set_title(title, fontsize=title_size, color=title_color, y=1.0)
    items = texts.items
    return CodePanel(ax, image, labels, tuple(t for t in items if t.gid == "value"),
                     tuple(t for t in items if t.gid == "real"), window_patches, winner_patch,
                     highlight_patch, tuple(corners), tuple((int(r), int(c)) for r, c in raised))


INDEX_SIZE = 8.5
#: The margin (in cells) that :func:`index_labels` writes the indices in.
INDEX_MARGIN = 0.5


def index_labels(ax, texts, rows: int, cols: int) -> None:
    """Row indices left of a grid and column indices under it, as items (gid ``"tick"``) of
    the :class:`~pooltutor.viz.style.TextCollection` ``texts``, in a margin of the Axes
    (its limits reach :data:`INDEX_MARGIN` cells beyond the grid on those two sides): one
    collection costs far less than tick labels.  Call it after setting the grid's limits."""
    m = INDEX_MARGIN
    for j in range(cols):
        texts.add(j, rows - 0.5 + m / 2, str(j), INDEX_SIZE, "#333333", gid="tick")
    for i in range(rows):
        texts.add(-0.5 - m / 2, i, str(i), INDEX_SIZE, "#333333", gid="tick")
    ax.set_xlim(-0.5 - m, cols - 0.5)
    ax.set_ylim(rows - 0.5 + m, -0.5)


def empty_axes(ax, keep_real_axis: bool = False) -> None:
    """Remove everything a plot drew on ``ax`` (lines, patches, texts, images, collections,
    legend, secondary axes), so that a plot can draw on it again: cheaper than a new Axes.
    The plots set every title, label, limit and tick they show.  With ``keep_real_axis``
    the real-value axis of a transfer plot (gid ``"real-axis"``) stays: the next
    :func:`plot_zero_point_relu` on ``ax`` sets it again instead of making a new one."""
    children = [a for a in ax.child_axes
                if not (keep_real_axis and a.get_gid() == "real-axis")]
    for artist in [*ax.lines, *ax.patches, *ax.texts, *ax.images, *ax.collections,
                   *children]:
        artist.remove()
    legend = ax.get_legend()
    if legend is not None:
        legend.remove()


def new_figure(figsize):
    """A Figure with an Agg canvas and constrained layout (no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def axes_list(ax, count: int, what: str) -> list:
    """``ax`` (one Axes or a sequence) as a list of ``count`` Axes, or a ``TypeError`` /
    ``ValueError`` naming ``ax``."""
    from matplotlib.axes import Axes

    axes = [ax] if isinstance(ax, Axes) else ax
    try:
        axes = list(axes)
    except TypeError:
        raise PoolTutorTypeError(f"ax={ax!r} has type {type(ax).__name__}: need {what}") from None
    if len(axes) != count or not all(isinstance(a, Axes) for a in axes):
        raise PoolTutorError(f"ax has {len(axes)} entries: need {what}")
    return axes


# --------------------------------------------------------------------------- checks


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
    if arr.ndim != 2 or 0 in arr.shape:
        raise PoolTutorError(f"codes has shape {arr.shape}: need a non-empty 2-D block")
    if max(arr.shape) > MAX_BLOCK:
        raise PoolTutorError(
            f"codes has shape {arr.shape}: plot_zero_point_relu writes every code, "
            f"need at most {MAX_BLOCK} x {MAX_BLOCK}")
    if int(arr.min()) < qmin or int(arr.max()) > qmax:
        bad = int(arr.min()) if int(arr.min()) < qmin else int(arr.max())
        raise PoolTutorError(
            f"codes holds the code {bad}, outside the {dtype} range [{qmin}, {qmax}]")
    return arr.astype(dtype)


def _check_panels(panels) -> tuple[str, ...]:
    if isinstance(panels, str):
        panels = (panels,)
    try:
        panels = tuple(panels)
    except TypeError:
        panels = None
    if (not panels or any(name not in RELU_PANELS for name in panels)
            or len(set(panels)) != len(panels)):
        raise PoolTutorError(f"panels={panels!r} is not allowed: need distinct names among "
                             f"{', '.join(repr(v) for v in RELU_PANELS)}")
    return tuple(name for name in RELU_PANELS if name in panels)


def _pool_values(block, zp, dtype, kernel, stride, out_index):
    """Both ReLUs of ``block``, their max pools, the window and the winners of
    ``out_index`` (validated; nothing drawn)."""
    x4 = lambda a: a.reshape((1, 1) + a.shape)      # noqa: E731
    right, wrong = quant.relu(block, zp, dtype), quant.relu(block, 0, dtype)
    res_right = quant.quantized_max_pool(x4(right), kernel, stride, dtype=dtype)
    res_wrong = quant.quantized_max_pool(x4(wrong), kernel, stride, dtype=dtype)
    pooled_shape = res_right.output.shape[2:]
    try:
        index = tuple(out_index)
    except TypeError:
        raise PoolTutorTypeError(f"out_index={out_index!r} has type "
                                 f"{type(out_index).__name__}: need (i, j)") from None
    if len(index) != 2:
        raise PoolTutorError(f"out_index={out_index!r}: need (i, j)")
    for v, size in zip(index, pooled_shape, strict=True):
        check_int("out_index", v, minimum=0)
        if v >= size:
            raise PoolTutorError(f"out_index={out_index!r} is outside the pooled codes shaped "
                                 f"{tuple(pooled_shape)}")
    index = tuple(int(v) for v in index)
    per_axis = res_right.geometry.window(index)
    window = tuple((int(r), int(c)) for r in per_axis[0][0] for c in per_axis[1][0])
    width = block.shape[1]
    winners = {name: tuple(int(v) for v in divmod(int(res.indices[(0, 0) + index]), width))
               for name, res in (("right", res_right), ("wrong", res_wrong))}
    return dict(right=right, wrong=wrong, pooled_right=res_right.output[0, 0],
                pooled_wrong=res_wrong.output[0, 0], index=index, window=window,
                winners=winners, geometry=res_right.geometry)


# --------------------------------------------------------------------------- the plot


@dataclass(frozen=True, eq=False)
class ZeroPointReluPlot(DescribedFigure):
    """What :func:`plot_zero_point_relu` drew (and the numbers it shows).

    Attributes
    ----------
    figure : Figure (or SubFigure)
    axes : mapping of str to Axes
        ``"transfer"`` (input code -> real value after ReLU), then the code panels drawn
        (names of :data:`RELU_PANELS`), in ``ax=`` order.
    line_ax : Axes
        ``axes["transfer"]``.
    grid_axes : mapping of str to Axes
        The code panels only (empty without ``codes``).
    panels : mapping of str to CodePanel
    lines : mapping of str to Line2D
        The transfer plot's lines by gid: ``"identity"``, ``"right"``, ``"wrong"``,
        ``"zero-point"`` (the right clamp), ``"code-zero"`` (the wrong clamp, when the code 0
        is not the zero point), ``"block-codes"`` (with ``codes``).
    legend : Legend
    real_axis : SecondaryAxis
        The real value of the input code, above the code axis.
    scale, zero_point, dtype, qmin, qmax
    right_floor, wrong_floor : int
        The code each ReLU clamps at: ``max(qmin, zp)`` and ``max(qmin, 0)``.
    verdict : str
        What the wrong clamp does at this zero point (the title's second line).
    codes, right, wrong, pooled_right, pooled_wrong : numpy.ndarray or None
        The block and what each ReLU and its max pool make of it.
    out_index, window : tuple
        The pooled cell shown and its window's cells.
    winners : mapping or None
        ``{"right": (row, col), "wrong": (row, col)}`` of that window.
    """

    figure: Any
    axes: Mapping
    panels: Mapping
    lines: Mapping
    legend: Any
    real_axis: Any
    scale: float
    zero_point: int
    dtype: str
    qmin: int
    qmax: int
    right_floor: int
    wrong_floor: int
    verdict: str
    codes: np.ndarray | None = None
    right: np.ndarray | None = None
    wrong: np.ndarray | None = None
    pooled_right: np.ndarray | None = None
    pooled_wrong: np.ndarray | None = None
    out_index: tuple | None = None
    window: tuple = ()
    winners: Mapping | None = None

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        text = (f"ReLU on {self.dtype} codes, scale {self.scale:g}, zero point "
                f"{self.zero_point}: the right ReLU clamps at code {self.right_floor} (the real "
                f"0), the wrong one at code {self.wrong_floor}; {self.verdict}.")
        if self.codes is not None and self.out_index is not None:
            i, j = self.out_index[-2:]
            text += (f" On the block of codes, pooled cell ({i}, {j}) is "
                     f"{int(self.pooled_right[i, j])} after the right ReLU and "
                     f"{int(self.pooled_wrong[i, j])} after the wrong one.")
        return text

    @property
    def line_ax(self):
        return self.axes["transfer"]

    @property
    def grid_axes(self) -> Mapping:
        return MappingProxyType({k: v for k, v in self.axes.items() if k != "transfer"})


def nice_ticks(lo: float, hi: float, most: int = 7) -> np.ndarray:
    """Round tick values inside ``[lo, hi]`` (matplotlib's ``MaxNLocator``, the ticks beyond
    the limits left out).

    >>> nice_ticks(-53.8, 81.3).tolist()
    [-40.0, -20.0, 0.0, 20.0, 40.0, 60.0, 80.0]
    """
    from matplotlib.ticker import MaxNLocator

    ticks = MaxNLocator(nbins=most, steps=[1, 2, 2.5, 5, 10]).tick_values(lo, hi)
    span = hi - lo
    return ticks[(ticks >= lo - 1e-9 * span) & (ticks <= hi + 1e-9 * span)]


def _label_side(code, other, qmin, qmax) -> bool:
    """True: a clamp label goes left of its line (away from the other line, where there is
    room: about a third of the axis)."""
    span = qmax - qmin
    room_left, room_right = code - qmin > 0.35 * span, qmax - code > 0.35 * span
    if other is not None and other > code:
        return room_left or not room_right
    return not room_right


def verdict_text(scale, zp, qmin) -> str:
    """What ``max(q, 0)`` on raw codes does at zero point ``zp``.

    >>> verdict_text(0.5, 128, 0)
    'max(q, 0) does nothing: codes 0..127 keep their negative real values'
    >>> verdict_text(1.0, -20, -128)
    'max(q, 0) raises codes -20..-1 to 0, real 20 (not 0)'
    """
    if zp == max(qmin, 0):
        return "zero point = the code 0: both clamps agree"
    if zp > 0:
        return (f"max(q, 0) does nothing: codes {max(qmin, 0)}..{zp - 1} keep their negative "
                f"real values")
    return (f"max(q, 0) raises codes {zp}..-1 to 0, real {real_text(-zp * scale, scale)} "
            f"(not 0)")


def _draw_transfer(ax, scale, zp, dtype, qmin, qmax, block, fs):
    """The transfer plot on ``ax``; returns ``(lines, legend, real axis, verdict)``."""
    from matplotlib.patches import Patch
    span = qmax - qmin
    real = lambda q: (np.asarray(q, dtype=np.float64) - zp) * scale     # noqa: E731
    wrong_floor, right_floor = max(qmin, 0), max(qmin, zp)
    x_lo, x_hi = qmin - MARGIN * span, qmax + MARGIN * span
    y_lo, y_top = float(real(x_lo)), float(real(x_hi))
    y_max = y_top + HEADROOM * (y_top - y_lo)
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_max)
    ax.set_xticks(nice_ticks(x_lo, x_hi))
    ax.set_yticks(nice_ticks(y_lo, y_max))
    ax.grid(True, alpha=0.25)
    ax.axhline(0.0, color="black", linewidth=0.8, zorder=1, gid="real-zero")
    lines = {}
    (lines["identity"],) = ax.plot([qmin, qmax], real([qmin, qmax]), color=IDENTITY_COLOR,
                                   linewidth=1.4, linestyle=":", zorder=2, gid="identity",
                                   label="no ReLU: real = (q \u2212 zp)\u00b7s")
    (lines["right"],) = ax.plot([qmin, right_floor, qmax], real([right_floor, right_floor, qmax]),
                                color=style.RIGHT_COLOR, linewidth=3.4, alpha=0.85, zorder=3,
                                gid="right", label=f"right: max(q, {right_floor}), real \u2265 0")
    (lines["wrong"],) = ax.plot([qmin, wrong_floor, qmax], real([wrong_floor, wrong_floor, qmax]),
                                color=style.WRONG_COLOR, linewidth=2.2, linestyle="--", zorder=4,
                                gid="wrong", label=f"wrong: max(q, {wrong_floor}) on raw codes")
    handles = [lines["identity"], lines["wrong"], lines["right"]]
    lo, hi = sorted((wrong_floor, right_floor))
    if lo != hi:                                    # where the two clamps disagree
        ax.fill_between([lo, hi], real([max(lo, wrong_floor), max(hi, wrong_floor)]),
                        real([max(lo, right_floor), max(hi, right_floor)]),
                        facecolor=style.WRONG_COLOR, alpha=0.13, hatch="///",
                        edgecolor=(0.84, 0.15, 0.16, 0.35), linewidth=0, zorder=1.6,
                        gid="disagree")
        handles.append(Patch(facecolor=style.WRONG_COLOR, alpha=0.13, hatch="///",
                             edgecolor=(0.84, 0.15, 0.16, 0.35), label="the clamps disagree"))
    if block is not None:
        flat = np.unique(block.ravel())
        (lines["block-codes"],) = ax.plot(flat.astype(float), real(flat), "o", color="black",
                                          markersize=5, zorder=6, gid="block-codes",
                                          label="the block's codes (input)")
        handles.append(lines["block-codes"])
    # the clamp codes: a line from the corner of each ReLU up to its label
    top = ax.get_xaxis_transform()                  # x a code, y a fraction of the Axes
    show_zero = qmin <= 0 <= qmax and zp != 0
    (lines["zero-point"],) = ax.plot([zp, zp], [0.0, y_max], color=style.RIGHT_COLOR,
                                     linewidth=1.2, linestyle="-.", zorder=2, gid="zero-point")
    left = _label_side(zp, 0 if show_zero else None, qmin, qmax)
    ax.text(zp + (-0.012 if left else 0.012) * span, 0.975, f"zp = {zp} (real 0)",
            transform=top, ha="right" if left else "left", va="top", fontsize=fs(10),
            color=style.RIGHT_COLOR, gid="zero-point-label")
    if show_zero:
        (lines["code-zero"],) = ax.plot([0, 0], [float(real(0)), y_max], color=style.WRONG_COLOR,
                                        linewidth=1.2, linestyle=(0, (6, 2, 1, 2, 1, 2)),
                                        zorder=2, gid="code-zero")
        left = _label_side(0, zp, qmin, qmax)
        ax.text((-0.012 if left else 0.012) * span, 0.975 - 0.085, f"code 0 (real "
                f"{real_text(-zp * scale, scale)})", transform=top, ha="right" if left else "left",
                va="top", fontsize=fs(10), color=style.WRONG_COLOR, gid="code-zero-label")
    legend = ax.legend(handles=handles, loc="lower right", fontsize=fs(8.5), framealpha=0.92,
                       borderaxespad=0.6)
    ax.tick_params(labelsize=fs(9))
    ax.set_xlabel(f"input code q ({dtype}, {qmin} .. {qmax})", fontsize=fs(10.5))
    ax.set_ylabel("real value after ReLU", fontsize=fs(10.5))
    functions = (lambda q: (q - zp) * scale, lambda r: r / scale + zp)
    # a real-value axis kept on ``ax`` (empty_axes(ax, keep_real_axis=True)) is set again
    # (new functions, ticks, label): cheaper than a new secondary Axes
    real_axis = next((child for child in ax.child_axes if child.get_gid() == "real-axis"),
                     None)
    if real_axis is None:
        real_axis = ax.secondary_xaxis("top", functions=functions)
        real_axis.set_gid("real-axis")
    else:
        real_axis.set_functions(functions)
    real_ticks = nice_ticks(y_lo, y_top)
    # no label at the right end, where it would reach past the Axes (towards the panels
    # beside it) and a layout would make room for it, moving the plot with the zero point
    real_axis.set_xticks(real_ticks[y_top - real_ticks >= END_ROOM * (y_top - y_lo)])
    real_axis.tick_params(labelsize=fs(9))
    real_axis.set_xlabel("real value of the input code, (q \u2212 zp)\u00b7s", fontsize=fs(10))
    verdict = verdict_text(scale, zp, qmin)
    ax.set_title(f"ReLU on {dtype} codes: scale={scale:g}, zero_point={zp}\n{verdict}",
                 fontsize=fs(11.5))
    return MappingProxyType(lines), legend, real_axis, verdict


def _pooled_label(code, real_value, scale, right_code, wrong_panel):
    text = f"{code}: real {real_text(real_value, scale)}"
    if real_value < 0:
        return text + " < 0 !", style.WRONG_COLOR
    if wrong_panel and code != right_code:
        return text + f", not {right_code}", style.WRONG_COLOR
    return text, "black"


def plot_zero_point_relu(scale, zero_point, dtype="uint8", codes=None, *, kernel=2, stride=None,
                         out_index=(0, 0), panels=RELU_PANELS, fig=None,
                         ax=None) -> ZeroPointReluPlot:
    """Draw ReLU at the zero point against ReLU at the literal code 0.

    Parameters
    ----------
    scale : float
        The scale ``s > 0`` of the codes (real value ``(q - zp) * s``).
    zero_point : int
        Inside the range of ``dtype``.
    dtype : {'uint8', 'int8', 'uint16', 'int16'} or numpy dtype
    codes : 2-D array_like of int, optional
        A block of codes (at most 6 x 6): both ReLUs are applied to it and max pooled
        (``kernel``, ``stride``, no padding, floor rule).
    kernel, stride : int or (int, int)
        The max pool applied to ``codes`` (``stride=None``: ``kernel``).
    out_index : (int, int)
        The pooled cell whose window and winners are marked.
    panels : sequence of str
        Which code panels to draw with ``codes``: a subset of :data:`RELU_PANELS`, drawn in
        that order (all five: below the transfer plot; fewer: in a row right of it).
        Every array of the result is computed either way.
    fig : Figure or SubFigure, optional
        Drawn on after ``fig.clear()``.
    ax : Axes or sequence of Axes, optional
        Drawn on instead: the transfer plot's Axes, then one Axes per panel drawn, in
        :data:`RELU_PANELS` order (without ``codes``: one Axes).

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

    The identity line runs from the lower left corner of the transfer plot and every ReLU
    line lies on or above it, so the legend (lower right) covers no data.  Where the two
    clamps disagree is hatched.  In the code panels the window is outlined on the cells'
    edges, the winner marked by a square inside its cell, and a code that ReLU raised by a
    triangle in its corner.

    Examples
    --------
    TV37: int8 codes, zero point -20:

    >>> p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    >>> p.right.tolist(), p.wrong.tolist(), (p.right_floor, p.wrong_floor)
    ([[-20, -5], [0, 7]], [[0, 0], [0, 7]], (-20, 0))
    >>> p.panels["wrong"].raised_cells, p.panels["right"].raised_cells
    (((0, 0), (0, 1)), ((0, 0),))

    See Also
    --------
    pooltutor.quant.relu : the correct clamp.
    pooltutor.viz.relu_explorer.ZeroPointReluExplorer : the same, with controls.
    """
    style.check_fig(fig)
    dtype, qmin, qmax, scale, zp = _check_params(scale, zero_point, dtype)
    block = None if codes is None else _check_block(codes, dtype, qmin, qmax)
    panels = _check_panels(panels)
    values = None if block is None else _pool_values(block, zp, dtype, kernel, stride,
                                                     out_index)
    names = () if block is None else panels
    full = len(names) == len(RELU_PANELS)
    if ax is not None:
        what = (f"{1 + len(names)} Axes: the transfer plot, then "
                + (", ".join(names) if names else "nothing else"))
        axes = axes_list(ax, 1 + len(names), what)
        fig = axes[0].figure
    else:
        if fig is None:
            fig = new_figure((10.5, 7.6) if full else (4.2 + 2.3 * len(names), 5.0) if names
                             else (7.5, 5.2))
        else:
            fig.clear()
        if full:
            grid = fig.add_gridspec(2, 5, height_ratios=[1.5, 1.0])
            axes = [fig.add_subplot(grid[0, :])] + [fig.add_subplot(grid[1, k])
                                                    for k in range(5)]
        else:
            cols = {name: (values["pooled_right"] if name.startswith("pooled") else block)
                    .shape[1] for name in names}
            grid = fig.add_gridspec(1, 1 + len(names), width_ratios=[2.6] + [
                max(1.0, 0.4 * cols[name]) for name in names])
            axes = [fig.add_subplot(grid[0, k]) for k in range(1 + len(names))]
    # smaller text beside a row of panels
    fs = (lambda v: v) if full or not names else (lambda v: round(v * 0.85, 1))   # noqa: E731
    lines, legend, real_axis, verdict = _draw_transfer(axes[0], scale, zp, dtype, qmin, qmax,
                                                       block, fs)
    axes_by_name = {"transfer": axes[0]}
    drawn = {}
    if values is not None:
        real = lambda a: quant.dequantize(a, scale, zp, dtype)      # noqa: E731
        right_floor, wrong_floor = max(qmin, zp), max(qmin, 0)
        vmin, vmax = style.shared_limits(block, values["right"], values["wrong"], [right_floor])
        g = values["geometry"]
        pool = (f"max pool k={g.kernel[0] if g.kernel[0] == g.kernel[1] else g.kernel} "
                f"s={g.stride[0] if g.stride[0] == g.stride[1] else g.stride}")
        right_code = int(values["pooled_right"][values["index"]])
        for name, a in zip(names, axes[1:], strict=True):
            arr = block if name == "codes" else values[name]
            kw = dict(vmin=vmin, vmax=vmax, scale=scale)
            if name == "codes":
                kw.update(title="input codes", window=values["window"])
            elif name in ("right", "wrong"):
                floor = right_floor if name == "right" else wrong_floor
                kw.update(title=f"{name} ReLU\nmax(q, {floor})", window=values["window"],
                          winner=values["winners"][name],
                          raised=[tuple(int(v) for v in rc)
                                  for rc in np.argwhere(block.astype(np.int64) < floor)],
                          title_color=style.RIGHT_COLOR if name == "right" else style.WRONG_COLOR)
            else:
                side = name.split("_")[1]
                kw.update(title=f"{pool}\nof the {side} ReLU", highlight=values["index"],
                          title_color=style.RIGHT_COLOR if side == "right" else style.WRONG_COLOR)
            drawn[name] = draw_code_panel(a, arr, real(arr), **kw)
            if name.startswith("pooled"):
                code = int(arr[values["index"]])
                text, color = _pooled_label(code, float(real(np.array([code]))[0]), scale,
                                            right_code, name == "pooled_wrong")
                a.set_xlabel(text, fontsize=10, color=color)
            axes_by_name[name] = a
        if full:
            axes[1].set_xlabel("code (bold), real value", fontsize=9)
    kw = {}
    if values is not None:
        kw = dict(codes=block, right=values["right"], wrong=values["wrong"],
                  pooled_right=values["pooled_right"], pooled_wrong=values["pooled_wrong"],
                  out_index=values["index"], window=values["window"],
                  winners=MappingProxyType(values["winners"]))
    return ZeroPointReluPlot(fig, MappingProxyType(axes_by_name), MappingProxyType(drawn), lines,
                             legend, real_axis, scale, zp, dtype, qmin, qmax, max(qmin, zp),
                             max(qmin, 0), verdict, **kw)
