"""Index layouts: plot_index_layouts and IndexLayoutExplorer, checked by what they hold.

The plot is read back from its IndexLayoutsPlot (numbers, arrows, window, marks) and
from its artists (texts by gid, titles, patches); the explorer by its state after
steps, parameter changes and refused values.  Pictures are compared with
``compare_images`` at a tolerance against the small PNGs in ``tests/viz/baseline``;
every picture keeps its texts inside the saved image, plain and ``bbox_inches="tight"``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from baseline_check import assert_matches_baseline  # noqa: E402
from figure_checks import assert_texts_inside, suptitle  # noqa: E402
from matplotlib.testing.compare import compare_images  # noqa: E402

from pooltutor.errors import PoolTutorError, PoolTutorTypeError  # noqa: E402
from pooltutor.indexing import INDEX_LAYOUTS, layout_numbers  # noqa: E402
from pooltutor.pooling import max_pool  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.index_explorer import IndexLayoutExplorer  # noqa: E402
from pooltutor.viz.indices import (  # noqa: E402
    MIN_FONT,
    move_index_layouts,
    plot_index_layouts,
)

LOW = 30            # dpi of the explorers whose wiring only is tested

# TV22: N=2, C=2, H=2, W=3; K=2, S=1 -> 1x2 outputs per plane
TV22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                 [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)
TV22_INDICES = {  # order n0c0w0, n0c0w1, n0c1w0, ... (docs/semantics.md §4.5)
    "plane": [1, 1, 0, 5, 0, 1, 3, 1],
    "tensor": [1, 1, 6, 11, 12, 13, 21, 19],
    "tensor_colmajor": [2, 2, 6, 11, 12, 14, 19, 20],
    "nhwc": [2, 2, 1, 11, 0, 2, 7, 3],
    "nhwc_batch": [2, 2, 1, 11, 12, 14, 19, 15],
}
X16 = (np.arange(256.0) % 13).reshape(1, 1, 16, 16)


def centres(coll) -> list[tuple[int, int]]:
    """(row, col) of the squares of a collection (window outlines, cells)."""
    return sorted((round(float(p.vertices[:4, 1].mean())), round(float(p.vertices[:4, 0].mean())))
                  for p in coll.get_paths())


def corner(patch) -> tuple[float, float]:
    return tuple(round(float(v), 3) for v in patch.get_xy())


def facts(plot) -> dict:
    """What the moving marks and titles of an index-layouts plot show."""
    window, mark = plot.marks["input"]
    out = {"suptitle": suptitle(plot.figure), "input": plot.input_ax.get_title(),
           "input-window": centres(window), "input-mark": mark.get_visible() and corner(mark),
           "numbers": dict(plot.numbers), "position": plot.position}
    for lay, ax in plot.layout_axes.items():
        fill, win, bold, mark = plot.marks[lay]
        out[lay] = (fill.get_visible() and corner(fill), centres(win),
                    [(t.get_text(), t.get_position()) for t in style.texts_of(ax, "winner-number")
                     if bold.get_visible()], mark.get_visible() and corner(mark))
    return out


def pixels_match(png: bytes, other: bytes, tmp_path, tol: float = 2.0) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    a.write_bytes(png)
    b.write_bytes(other)
    assert compare_images(str(a), str(b), tol) is None


# --------------------------------------------------------------------------- the plot


@pytest.mark.parametrize("k", range(8))
def test_tv22_every_output_cell(k):
    out_index = tuple(int(v) for v in np.unravel_index(k, (2, 2, 1, 2)))
    x = TV22.copy()
    p = plot_index_layouts(x, kernel=2, stride=1, out_index=out_index)
    np.testing.assert_array_equal(x, TV22)                      # input untouched
    assert dict(p.numbers) == {lay: TV22_INDICES[lay][k] for lay in INDEX_LAYOUTS}
    assert TV22[p.position] == p.result.output[out_index]
    n, c, h, w = p.position
    for lay, ax in p.layout_axes.items():
        fill, window, bold, mark = p.marks[lay]
        # the winner's cell: row 1 + n * 3 + h, column c * 4 + w (one gap row / column)
        row, col = 1 + n * 3 + h, c * 4 + w
        assert corner(fill) == (col - 0.5, row - 0.5) and fill.get_visible()
        assert corner(mark) == (round(col - 0.42, 3), round(row - 0.42, 3))
        (number,) = style.texts_of(ax, "winner-number")
        assert number.get_text() == str(TV22_INDICES[lay][k])
        assert number.get_position() == (col, row) and number.get_fontweight() == "bold"
        assert fill.get_zorder() < bold.get_zorder() < mark.get_zorder()
        # the 2x2 window, outlined on the same plane in every layout
        assert centres(window) == sorted((1 + n * 3 + i, c * 4 + out_index[3] + j)
                                         for i in (0, 1) for j in (0, 1))
    assert corner(p.marks["input"][1]) == (round(w - 0.42, 3), round(h - 0.42, 3))
    assert sorted(p.input_window) == [(i, out_index[3] + j) for i in (0, 1) for j in (0, 1)]


def test_numbers_arrows_titles_and_table():
    p = plot_index_layouts(TV22, 2, 1, out_index=(1, 1, 0, 1))
    for lay, ax in p.layout_axes.items():
        written = sorted(int(t.get_text()) for t in style.texts_of(ax, "number"))
        assert written == sorted(layout_numbers(TV22.shape, lay).ravel().tolist())
        assert all(t.get_fontsize() >= MIN_FONT for t in style.texts_of(ax, "number"))
        assert ax.get_title().startswith(repr(lay))
        arrows = p.arrows[lay]
        (heads,) = [co for co in ax.collections if co.get_gid() == "path-heads"]
        (lines,) = [co for co in ax.collections if co.get_gid() == "path"]
        assert len(lines.get_paths()) == len(heads.get_paths()) == len(arrows) > 0
        # numbers at the cell centres: each arrow goes from a number to a larger one
        at = {tuple(t.get_position()): int(t.get_text()) for t in style.texts_of(ax, "number")}
        assert all(at[b] > at[a] for a, b, _ in arrows), lay
    tensor = p.layout_axes["tensor"]
    at = {tuple(t.get_position()): int(t.get_text()) for t in style.texts_of(tensor, "number")}
    assert [(at[a], at[b]) for a, b, _ in p.arrows["tensor"]] == [(k, k + 1) for k in range(23)]
    # solid between neighbours (2 per row of 3, 8 rows), dashed jumps else
    assert sum(adj for _, _, adj in p.arrows["tensor"]) == 16
    assert len(p.arrows["plane"]) == 20                 # restarts in each of the 4 planes
    assert "c +1" in p.layout_axes["nhwc"].get_xlabel()           # channel-interleaved
    assert "n: restarts" in p.layout_axes["nhwc"].get_xlabel()
    assert "h +1" in p.layout_axes["tensor_colmajor"].get_xlabel()  # column-major
    title = suptitle(p.figure)
    assert "kernel=2, stride=1, pad=0, rounding='floor'" in title
    assert "(n, c, h, w) = (1, 1, 0, 1)" in title and "tensor_colmajor \u2192 20" in title
    cells = {rc: cell.get_text().get_text() for rc, cell in p.table_ax.tables[0].get_celld().items()}
    assert [cells[(r, 1)] for r in range(1, 6)] == ["1", "19", "20", "3", "15"]
    labels = [t.get_text() for t in p.layout_axes["plane"].texts if t.get_gid() == "plane-label"]
    assert labels == ["n=0, c=0", "n=0, c=1", "n=1, c=0", "n=1, c=1"]


def test_padding_is_hatched_and_labelled_with_the_rule():
    x = -np.arange(9.0).reshape(1, 1, 3, 3)
    p = plot_index_layouts(x, 2, 2, padding=1, pad_taps="neg_inf", out_index=(0, 0))
    # the padding cells: one hatched cell collection of style.draw_grid
    pads = [c for c in p.input_ax.collections if c.get_gid() == "padding"]
    assert len(pads) == 1 and pads[0].get_hatch() == style.PAD_HATCH
    assert len(style.cells_of(pads[0])) == 5 * 5 - 9
    assert {t.get_text() for t in style.texts_of(p.input_ax, "padding-text")} == {"-inf"}
    assert p.padding_rule is None                      # written in the cells, not the title
    assert p.numbers["plane"] == 0 and p.position == (0, 0, 0, 0)
    assert sorted(p.input_window) == [(-1, -1), (-1, 0), (0, -1), (0, 0)]
    values = sorted(t.get_text() for t in style.texts_of(p.input_ax, "value"))
    assert values == sorted(style.format_value(v) for v in x.ravel())
    skip = plot_index_layouts(x, 2, 2, padding=1, out_index=(1, 1))
    assert {t.get_text() for t in style.texts_of(skip.input_ax, "padding-text")} == {"skip"}
    assert "pad=1" in suptitle(skip.figure)
    # 16x16 cells are too small for the rule: the title names it
    big = plot_index_layouts(X16, 3, 2, padding=1, out_index=(0, 0, 3, 4))
    assert big.padding_rule == "skip" and "padding (hatched): skip" in big.input_ax.get_title()
    assert style.texts_of(big.input_ax, "padding-text") == []


def test_empty_window_has_no_winner():
    # 1-D, ceil: the last window holds one padding tap and one tap past the padded input
    p = plot_index_layouts(np.arange(10.0).reshape(1, 2, 5), 2, 2, padding=1, rounding="ceil",
                           out_index=(0, 1, 3))
    assert p.position is None and set(p.numbers.values()) == {-1}
    assert not p.marks["input"][1].get_visible()
    for lay in p.layout_axes:
        fill, window, bold, mark = p.marks[lay]
        assert not (fill.get_visible() or bold.get_visible() or mark.get_visible())
        assert not window.get_visible()                # no input element in the window
    (outside,) = [co for co in p.input_ax.collections if co.get_gid() == "outside"]
    assert centres(outside) == [(0, 6)]
    assert "no input element" in suptitle(p.figure)


def test_3d_and_poolresult_input():
    x = np.zeros((1, 1, 2, 3, 4))
    x[0, 0, 0, 1, 1] = 9
    p = plot_index_layouts(x, (2, 3, 4), out_index=(0, 0, 0))
    assert (p.numbers["tensor"], p.numbers["tensor_colmajor"], p.numbers["plane"]) == (5, 8, 5)
    assert p.position == (0, 0, 0, 1, 1)
    assert [t.get_text() for t in p.input_ax.get_yticklabels()][:2] == ["d0 h0", "d0 h1"]
    r = max_pool(TV22, 2, 1, return_indices=True, index_layout="nhwc")
    q = plot_index_layouts(r, out_index=(1, 1, 0, 1), layouts=("plane", "tensor"))
    assert dict(q.numbers) == {"plane": 1, "tensor": 19}
    assert set(q.layout_axes) == {"plane", "tensor"} and len(q.axes) == 4


def test_redraws_on_the_same_figure_and_draws_on_given_axes():
    p = plot_index_layouts(TV22, 2, 1)
    n_axes = len(p.figure.axes)
    q = plot_index_layouts(TV22, 2, 1, out_index=(0, 1, 0, 1), fig=p.figure)
    assert q.figure is p.figure and len(q.figure.axes) == n_axes
    assert q.numbers["tensor"] == 11
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 4), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 3)
    r = plot_index_layouts(TV22, 2, 1, layouts=("nhwc", "plane"), table=False, ax=axes)
    assert r.axes == tuple(axes) and r.input_ax is axes[0]
    assert r.layout_axes["nhwc"] is axes[1] and r.layout_axes["plane"] is axes[2]
    assert_texts_inside(fig)
    with pytest.raises(TypeError, match="need a sequence of 4 matplotlib Axes"):
        plot_index_layouts(TV22, 2, 1, layouts=("nhwc", "plane"), ax=axes)
    with pytest.raises(TypeError, match="fig and ax"):
        plot_index_layouts(TV22, 2, 1, layouts=("nhwc", "plane"), table=False, ax=axes, fig=fig)


@pytest.mark.parametrize("kwargs, match", [
    (dict(x=TV22, kernel=2, stride=1, out_index=(0, 0, 0, 2)), "outside the output"),
    (dict(x=TV22, kernel=2, stride=1, out_index=(0, 1)), "out_index"),
    (dict(x=TV22, kernel=2, stride=1, layouts=("plane", "colmajor")), "layouts"),
    (dict(x=np.zeros((1, 1, 30, 30)), kernel=2), "at most 512"),
    (dict(x=TV22, kernel=5), "kernel"),
    (dict(x=TV22, kernel=2, table="yes"), "table='yes'"),
])
def test_errors_name_the_parameter(kwargs, match):
    x = kwargs.pop("x")
    with pytest.raises((ValueError, TypeError), match=match):
        plot_index_layouts(x, **kwargs)


def test_type_errors():
    r = max_pool(TV22, 2, 1, return_indices=True)
    with pytest.raises(PoolTutorError, match="PoolResult"):
        plot_index_layouts(r, 2)
    with pytest.raises(TypeError, match="kernel"):
        plot_index_layouts(TV22)
    with pytest.raises(PoolTutorError, match="return_indices"):
        plot_index_layouts(max_pool(TV22, 2, 1))
    with pytest.raises(PoolTutorTypeError, match="IndexLayoutsPlot"):
        move_index_layouts("plot", (0, 0, 0, 0))


def test_move_matches_a_fresh_plot():
    p = plot_index_layouts(TV22, 2, 1, out_index=(0, 1, 0, 0))
    q = move_index_layouts(p, (0, 1, 0, 1))
    assert q.marks["input"] is p.marks["input"]            # same plane: marks moved
    assert q.position == (0, 1, 1, 2) and q.numbers["tensor"] == TV22_INDICES["tensor"][3]
    assert facts(q) == facts(plot_index_layouts(TV22, 2, 1, out_index=(0, 1, 0, 1)))
    # another plane: the input panel is drawn again, the layout panels stay
    cells = p.layout_axes["plane"].collections[0]
    r = move_index_layouts(q, (1, 1, 0, 0))
    assert r.marks["input"] is not q.marks["input"] and cells in r.layout_axes["plane"].collections
    assert facts(r) == facts(plot_index_layouts(TV22, 2, 1, out_index=(1, 1, 0, 0)))
    # another pooling of the same input, and a ceil-mode overhang that widens the panel
    x = np.arange(25.0).reshape(1, 1, 5, 5)
    c = plot_index_layouts(x, 2, 2, rounding="ceil_torch", out_index=(0, 0))
    d = move_index_layouts(c, (2, 2))
    assert d.extent == (0, 6, 0, 6) != c.extent
    assert facts(d) == facts(plot_index_layouts(x, 2, 2, rounding="ceil_torch", out_index=(2, 2)))
    e = move_index_layouts(d, (1, 1), result=max_pool(x, 3, 1, padding=1, return_indices=True))
    assert facts(e) == facts(plot_index_layouts(x, 3, 1, 1, out_index=(1, 1)))
    assert move_index_layouts(e, (0, 0), result=max_pool(TV22, 2, 1, return_indices=True)) is None
    with pytest.raises(PoolTutorError):
        move_index_layouts(p, (0, 1, 0, 5))


PARAMETER_SETS = {
    "tv22": (TV22, dict(kernel=2, stride=1, out_index=(1, 1, 0, 1))),
    "2d padding": (-np.arange(9.0).reshape(1, 1, 3, 3),
                   dict(kernel=2, stride=2, padding=1, pad_taps="neg_inf")),
    "1d ceil": (np.arange(10.0).reshape(1, 2, 5),
                dict(kernel=2, stride=2, padding=1, rounding="ceil", out_index=(0, 1, 3))),
    "1d long": (np.arange(32.0).reshape(1, 2, 16), dict(kernel=3, stride=2, padding=1)),
    "3d": (np.arange(24.0).reshape(1, 1, 2, 3, 4), dict(kernel=2, stride=1)),
    "16x16": (X16, dict(kernel=3, stride=2, padding=1, out_index=(0, 0, 3, 4))),
    "dilation": ((np.arange(49.0) % 11).reshape(1, 1, 7, 7),
                 dict(kernel=2, stride=2, dilation=2, padding=1, out_index=(0, 0, 1, 2))),
    "512 elements": ((np.arange(512.0) % 17).reshape(2, 2, 8, 16), dict(kernel=2, stride=2)),
    "each layout apart": (TV22, dict(kernel=2, stride=1, layouts=("tensor_colmajor",),
                                     table=False)),
}


@pytest.mark.parametrize("name", list(PARAMETER_SETS))
def test_every_picture_keeps_its_texts_inside(name):
    x, kwargs = PARAMETER_SETS[name]
    p = plot_index_layouts(x, **kwargs)
    assert_texts_inside(p.figure)
    assert p.number_size >= MIN_FONT
    for ax in p.axes:
        for t in style.texts_of(ax):
            assert t.get_fontsize() >= MIN_FONT, (name, t.get_text())


@pytest.mark.parametrize("lay", INDEX_LAYOUTS)
def test_each_layout_alone_keeps_its_texts_inside(lay):
    p = plot_index_layouts(X16, 3, 2, padding=1, layouts=(lay,), table=False)
    assert_texts_inside(p.figure)


@pytest.mark.picture
@pytest.mark.parametrize("name, x, kwargs", [
    ("index_layouts_tv22", TV22, dict(kernel=2, stride=1, out_index=(1, 1, 0, 1))),
    ("index_layouts_1d_ceil", np.arange(10.0).reshape(1, 2, 5),
     dict(kernel=2, stride=2, padding=1, rounding="ceil", out_index=(0, 1, 3))),
    ("index_layouts_16x16", X16, dict(kernel=3, stride=2, padding=1, out_index=(0, 0, 3, 4),
                                      layouts=("plane", "tensor_colmajor"), table=False)),
])
def test_picture_regressions(name, x, kwargs, tmp_path):
    assert_matches_baseline(plot_index_layouts(x, **kwargs).figure, name, tol=3)


# --------------------------------------------------------------------------- the explorer


def test_explorer_wiring_bounds_and_state():
    e = IndexLayoutExplorer(dpi=LOW)
    assert e.error is None and e.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert e.state["numbers"] == {lay: TV22_INDICES[lay][0] for lay in INDEX_LAYOUTS}
    assert [s.max for s in e.out] == [0, 1]            # 1x2 output positions
    e.out[1].value = 1
    assert e.state["update"] == "step" and e.state["out_index"] == (0, 0, 0, 1)
    e.n.value, e.c.value = 1, 1                        # another plane: input panel redrawn
    assert e.state["update"] == "panel" and e.state["out_index"] == (1, 1, 0, 1)
    assert e.state["numbers"] == {lay: TV22_INDICES[lay][7] for lay in INDEX_LAYOUTS}
    assert e.plot.figure is e.figure                   # one persistent figure
    assert "index: 1 (layout 'plane')" in e.explain_text
    assert "nhwc_batch" in e.explain_text and "15" in e.explain_text
    e.stride.value = 2                                 # 2x3, K2 S2: one output column
    assert e.out[1].max == 0 and e.out[1].value == 0 and e.state["out_index"] == (1, 1, 0, 0)
    # the same plane, padding and extent: only the window moved
    assert e.state["update"] == "step" and e.state["window"] == ((0, 0), (0, 1), (1, 0), (1, 1))
    e.padding.value = 1                                # a wider panel: laid out again
    assert e.state["update"] == "full"
    e.pad_taps.value = "neg_inf"                       # written in the padding cells
    assert e.error is None and e.state["pad_taps"] == "neg_inf"
    assert e.state["update"] == "panel"
    assert {t.get_text() for t in style.texts_of(e.plot.input_ax, "padding-text")} == {"-inf"}
    assert "pad=1" in suptitle(e.figure)


def test_explorer_refused_values_keep_the_last_good_state():
    e = IndexLayoutExplorer(np.arange(6.0).reshape(1, 1, 2, 3), dpi=LOW)
    good = dict(e.state)
    e.kernel.value = 4                                 # larger than the 2x3 plane
    assert "does not fit" in e.error and "kernel" in e.error
    assert "does not fit" in e.error_label.value and e.state == good
    assert e.plot.result.geometry.kernel == (2, 2)      # the picture was not touched
    e.stride.value = 3                                 # still refused
    assert e.error is not None and e.state == good
    e.padding.value = 1                                # 4 <= 2 + 1 + 1 fits again
    assert e.error is None and e.state["kernel"] == 4 and e.state["stride"] == 3


SEQUENCE = [
    ("out", (4, 4), "step"),
    ("out", (7, 0), "step"),
    ("stride", 1, "step"),            # the same panel: only the window moves
    ("out", (15, 15), "step"),
    ("pad_taps", "neg_inf", "full"),  # the rule in the title (small cells): laid out again
    ("padding", 0, "full"),           # the padded extent changes: laid out again
    ("kernel", 17, "error"),          # 17 > 16: refused
    ("kernel", 4, "step"),
    ("out", (0, 12), "step"),
]

# TV22: big cells, the padding rule written in them; the benchmark's stride 1 -> 2 -> 1
SEQUENCE_TV22 = [
    ("stride", 2, "step"),
    ("stride", 1, "step"),
    ("out", (0, 1), "step"),
    ("n", 1, "panel"),                # another plane, drawn on the kept layout panels
    ("c", 1, "panel"),
    ("out", (0, 0), "step"),
    ("padding", 1, "full"),
    ("pad_taps", "neg_inf", "panel"),  # "skip" -> "-inf" in the padding cells
    ("stride", 2, "step"),
    ("pad_taps", "skip", "panel"),
    ("pad_taps", "lowest", "full"),    # too long for a cell: named in the title instead
    ("c", 0, "panel"),
    ("pad_taps", "neg_inf", "full"),
    ("stride", 1, "step"),
    ("padding", 0, "full"),
    ("kernel", 3, "error"),            # 3 rows > 2
    ("n", 0, "error"),
    ("kernel", 2, "panel"),            # after the refused values: the kept backgrounds
    ("out", (0, 1), "step"),
]


@pytest.mark.parametrize("x, kwargs, sequence", [
    (X16, dict(kernel=3, stride=2, padding=1), SEQUENCE),
    (None, dict(kernel=2, stride=1), SEQUENCE_TV22),
], ids=["16x16", "tv22"])
def test_explorer_steps_show_what_a_fresh_explorer_shows(x, kwargs, sequence, tmp_path):
    e = IndexLayoutExplorer(x, **kwargs, dpi=LOW)
    for what, value, how in sequence:
        if what == "out":
            with e._hold():
                for slider, v in zip(e.out, value):
                    slider.value = v
            e.safe_update()
        else:
            getattr(e, what).value = value
        if how == "error":
            assert e.error is not None
            continue
        assert e.error is None and e.state["update"] == how, (what, value)
        fresh = IndexLayoutExplorer(x, kernel=e.kernel.value, stride=e.stride.value,
                                    padding=e.padding.value, pad_taps=e.pad_taps.value, dpi=LOW)
        with fresh._hold():
            fresh.n.value, fresh.c.value = e.n.value, e.c.value
            for mine, theirs in zip(fresh.out, e.out):
                mine.value = theirs.value
        fresh.safe_update()
        assert fresh.state["out_index"] == e.state["out_index"]
        assert {k: v for k, v in fresh.state.items() if k != "update"} == {
            k: v for k, v in e.state.items() if k != "update"}
        assert facts(fresh.plot) == facts(e.plot)
        assert fresh.explain_text == e.explain_text
        pixels_match(fresh.png, e.png, tmp_path)          # blitted = drawn from scratch
    # the explorer's figure saves whole (nothing left animated, the input panel included)
    assert not [a for a in e.figure.findobj() if a.get_animated()]
    assert_texts_inside(e.figure)


@pytest.mark.parametrize("x, kwargs", [
    (None, {}),
    (X16, dict(kernel=3, stride=2, padding=1)),
    (np.arange(20.0).reshape(2, 1, 10), dict(kernel=3, stride=2, padding=1)),
    (np.arange(24.0).reshape(1, 1, 2, 3, 4), dict(kernel=2)),
], ids=["tv22", "16x16", "1d", "3d"])
def test_explorer_pictures_keep_their_texts_inside(x, kwargs):
    e = IndexLayoutExplorer(x, **kwargs)
    assert e.error is None and e.figure.dpi >= 80
    assert e.plot.number_size >= MIN_FONT
    assert_texts_inside(e.figure)
    e.out[-1].value = e.out[-1].max                    # a step, then saved as Jupyter does
    assert_texts_inside(e.figure)


@pytest.mark.picture
def test_explorer_picture_regression(tmp_path):
    e = IndexLayoutExplorer(dpi=LOW)
    e.n.value, e.c.value = 1, 1
    e.out[1].value = 1
    from PIL import Image

    with Image.open(io.BytesIO(e.png)) as shown:
        size = shown.size
    # the shown PNG is the whole figure at its dpi (Agg sizes its canvas by truncation)
    assert size == tuple(int(v * LOW) for v in e.figure.get_size_inches())
    assert_matches_baseline(e.figure, "index_explorer_tv22", tol=3)


def test_explorer_static_widget_frames():
    e = IndexLayoutExplorer(dpi=LOW)
    fw = e.static_widget(max_frames=2)
    assert len(fw.stack.children) == 2
    assert all(bytes(im.value[:8]) == b"\x89PNG\r\n\x1a\n" for im in fw.stack.children)
    assert fw.stack.children[0].value != fw.stack.children[1].value
    assert fw.labels[1].startswith("output[0, 0, 0, 1]")
    assert e.state["out_index"] == (0, 0, 0, 0)       # controls put back


def test_explorer_sweep_refuses_with_reasons():
    e = IndexLayoutExplorer(np.arange(6.0).reshape(1, 1, 2, 3), dpi=20)
    invalid = []
    for k in (1, 3):
        for s in (1, 3):
            for p in (0, 1):
                with e._hold():
                    e.kernel.value, e.stride.value, e.padding.value = k, s, p
                e._on_change()
                if e.error is None:
                    assert e.error_label.value == "" and e.state["kernel"] == k
                else:
                    assert "internal error" not in e.error
                    invalid.append((k, s, p))
                    assert f"kernel=({k}, {k}) does not fit" in e.error
    assert invalid == [(3, 1, 0), (3, 3, 0)]          # a window taller than 2 + 2p rows
    for rule in ("neg_inf", "lowest"):
        e.pad_taps.value = rule
        assert e.error is None and e.state["pad_taps"] == rule
