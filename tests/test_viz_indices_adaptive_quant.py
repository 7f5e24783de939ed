"""Plots and explorers of viz B: index layouts, adaptive bins, zero-point ReLU (issue 6).

Every plot is checked on what it drew (patches by gid, texts, titles,
colour limits), not only on not raising; the explorers are driven by
setting control values and checking the new figure and state.
"""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from pooltutor.errors import PoolTutorError  # noqa: E402
from pooltutor.indexing import INDEX_LAYOUTS, convert_indices  # noqa: E402
from pooltutor.pooling import max_pool  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.adaptive import bin_lanes, fixed_pool_contrast, plot_adaptive_bins  # noqa: E402
from pooltutor.viz.indices import (  # noqa: E402
    layout_numbers,
    move_index_layouts,
    path_arrows,
    plot_index_layouts,
)

# TV22: N=2, C=2, H=2, W=3; K=2, S=1 -> 1x2 outputs per plane
TV22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                 [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)
TV22_INDICES = {  # order n0c0w0, n0c0w1, n0c1w0, ... (semantics.md 4.5)
    "plane": [1, 1, 0, 5, 0, 1, 3, 1],
    "tensor": [1, 1, 6, 11, 12, 13, 21, 19],
    "tensor_colmajor": [2, 2, 6, 11, 12, 14, 19, 20],
    "nhwc": [2, 2, 1, 11, 0, 2, 7, 3],
    "nhwc_batch": [2, 2, 1, 11, 12, 14, 19, 15],
}
PI32 = np.array([int(d) for d in "31415926535897932384626433832795"], dtype=float)


def patches(ax, gid):
    return [p for p in ax.patches if p.get_gid() == gid]


def texts(ax, gid):
    """Texts drawn with ``gid``: Text artists and the records of cell-text collections."""
    return style.texts_of(ax, gid)


def cell_of(patch):
    """(row, col) of a square patch drawn around a cell centre."""
    x, y = patch.get_xy()
    return round(y + patch.get_height() / 2), round(x + patch.get_width() / 2)


# --------------------------------------------------------------------------- index layouts


@pytest.mark.parametrize("k", range(8))
def test_index_layouts_tv22_every_output(k):
    out_index = np.unravel_index(k, (2, 2, 1, 2))
    x = TV22.copy()
    p = plot_index_layouts(x, kernel=2, stride=1, out_index=tuple(int(v) for v in out_index))
    np.testing.assert_array_equal(x, TV22)                      # input untouched
    assert dict(p.numbers) == {lay: TV22_INDICES[lay][k] for lay in INDEX_LAYOUTS}
    n, c = p.position[:2]
    assert TV22[p.position] == p.result.output[tuple(int(v) for v in out_index)]
    # the winner is marked once in every layout panel, at its cell
    for lay, ax in p.layout_axes.items():
        (winner,) = patches(ax, "winner")
        # the winner's number is written again in bold black over the winner's fill
        assert not [t for t in texts(ax, "number") if t.get_fontweight() == "bold"]
        bold = [t for t in texts(ax, "winner-number") if t.get_fontweight() == "bold"]
        assert [t.get_text() for t in bold] == [str(TV22_INDICES[lay][k])]
        assert bold[0].get_color() == "black"
        assert np.allclose(bold[0].get_position(), (winner.get_x() + 0.42, winner.get_y() + 0.42))
        (fill,) = patches(ax, "winner-fill")
        (bold_coll,) = [co for co in ax.collections if co.get_gid() == "winner-number"]
        assert fill.get_zorder() < bold_coll.get_zorder() < winner.get_zorder()
        assert np.allclose(fill.get_xy(), (winner.get_x() - 0.08, winner.get_y() - 0.08))
    assert len(patches(p.input_ax, "winner")) == 1


def test_index_layouts_numbers_paths_and_titles():
    p = plot_index_layouts(TV22, 2, 1, out_index=(1, 1, 0, 1))
    for lay, ax in p.layout_axes.items():
        written = sorted(int(t.get_text()) for t in texts(ax, "number"))
        assert written == sorted(layout_numbers(TV22.shape, lay).ravel().tolist())
        assert lay in ax.get_title() and str(p.numbers[lay]) in ax.get_title()
        arrows = path_arrows(ax)
        assert arrows, lay
        # every path line has its arrow head, at the stop cell's side
        (heads,) = [co for co in ax.collections if co.get_gid() == "path-heads"]
        (lines,) = [co for co in ax.collections if co.get_gid() == "path"]
        assert len(lines.get_paths()) == len(heads.get_paths()) == len(arrows)
        # numbers at the cell centres: each arrow goes from a number to a larger one
        at = {tuple(np.round(t.get_position(), 6)): int(t.get_text())
              for t in texts(ax, "number")}
        assert all(at[tuple(np.round(b, 6))] > at[tuple(np.round(a, 6))]
                   for a, b, _ in arrows), lay
    # row-major whole tensor: one arrow per consecutive pair (24 cells -> 23 arrows),
    # from each number to the next
    tensor = p.layout_axes["tensor"]
    at = {tuple(np.round(t.get_position(), 6)): int(t.get_text()) for t in texts(tensor, "number")}
    steps = [(at[tuple(np.round(a, 6))], at[tuple(np.round(b, 6))])
             for a, b, _ in path_arrows(tensor)]
    assert steps == [(k, k + 1) for k in range(23)]
    # solid between neighbours (within a row: 2 per row of 3, 8 rows), dashed jumps else
    assert sum(adj for _, _, adj in path_arrows(tensor)) == 16
    # plane numbering restarts in each of the 4 planes: 4 * 5 arrows
    assert len(path_arrows(p.layout_axes["plane"])) == 20
    assert "c +1" in p.layout_axes["nhwc"].get_xlabel()           # channel-interleaved
    assert "n: restarts" in p.layout_axes["nhwc"].get_xlabel()
    assert "h +1" in p.layout_axes["tensor_colmajor"].get_xlabel()  # column-major
    title = p.figure._suptitle.get_text()
    assert "kernel=2, stride=1, pad=0, rounding='floor'" in title
    assert "(n, c, h, w) = (1, 1, 0, 1)" in title
    table = p.table_ax.tables[0]
    cells = {(r, c): cell.get_text().get_text() for (r, c), cell in table.get_celld().items()}
    assert [cells[(r, 1)] for r in range(1, 6)] == ["1", "19", "20", "3", "15"]
    # the window of the output cell is outlined on the input plane (2x2 = 4 cells)
    assert sorted(cell_of(w) for w in patches(p.input_ax, "window")) == [
        (0, 1), (0, 2), (1, 1), (1, 2)]


def test_index_layouts_padding_is_hatched_and_labelled_with_the_rule():
    x = -np.arange(9.0).reshape(1, 1, 3, 3)
    p = plot_index_layouts(x, 2, 2, padding=1, pad_taps="neg_inf", out_index=(0, 0))
    (pads,) = [co for co in p.input_ax.collections if co.get_gid() == "padding"]
    assert len(pads.pooltutor_cells) == 5 * 5 - 9
    assert {(i, j) for i in range(-1, 4) for j in range(-1, 4)} - set(pads.pooltutor_cells) == {
        (i, j) for i in range(3) for j in range(3)}
    assert pads.get_hatch() == style.PAD_HATCH
    assert {t.get_text() for t in texts(p.input_ax, "padding-text")} == {"-inf"}
    assert p.numbers["plane"] == 0 and p.position == (0, 0, 0, 0)
    skip = plot_index_layouts(x, 2, 2, padding=1, out_index=(1, 1))
    assert {t.get_text() for t in texts(skip.input_ax, "padding-text")} == {"skip"}
    assert "pad=1" in skip.figure._suptitle.get_text()


def test_index_layouts_empty_window_has_no_winner():
    # 1-D, ceil: the last window holds one padding tap and one tap past the padded input
    p = plot_index_layouts(np.arange(10.0).reshape(1, 2, 5), 2, 2, padding=1, rounding="ceil",
                           out_index=(0, 1, 3))
    assert p.position is None and set(p.numbers.values()) == {-1}
    for ax in (p.input_ax, *p.layout_axes.values()):
        assert patches(ax, "winner") == []
    (outside,) = [co for co in p.input_ax.collections if co.get_gid() == "outside"]
    assert outside.pooltutor_cells == ((0, 6),)
    assert "no input element" in p.figure._suptitle.get_text()


def test_index_layouts_3d_tv23_and_poolresult_input():
    x = np.zeros((1, 1, 2, 3, 4))
    x[0, 0, 0, 1, 1] = 9
    p = plot_index_layouts(x, (2, 3, 4), out_index=(0, 0, 0))
    assert (p.numbers["tensor"], p.numbers["tensor_colmajor"], p.numbers["plane"]) == (5, 8, 5)
    assert p.position == (0, 0, 0, 1, 1)
    r = max_pool(TV22, 2, 1, return_indices=True, index_layout="nhwc")
    q = plot_index_layouts(r, out_index=(1, 1, 0, 1), layouts=("plane", "tensor"))
    assert dict(q.numbers) == {"plane": 1, "tensor": 19}
    assert set(q.layout_axes) == {"plane", "tensor"}


def test_index_layouts_redraws_on_the_same_figure():
    p = plot_index_layouts(TV22, 2, 1)
    n_axes = len(p.figure.axes)
    q = plot_index_layouts(TV22, 2, 1, out_index=(0, 1, 0, 1), fig=p.figure)
    assert q.figure is p.figure and len(q.figure.axes) == n_axes
    assert q.numbers["tensor"] == 11


@pytest.mark.parametrize("kwargs, match", [
    (dict(x=TV22, kernel=2, stride=1, out_index=(0, 0, 0, 2)), "outside the output"),
    (dict(x=TV22, kernel=2, stride=1, out_index=(0, 1)), "out_index"),
    (dict(x=TV22, kernel=2, stride=1, layouts=("plane", "colmajor")), "layouts"),
    (dict(x=np.zeros((1, 1, 30, 30)), kernel=2), "at most 512"),
    (dict(x=TV22, kernel=5), "kernel"),
])
def test_index_layouts_errors(kwargs, match):
    x = kwargs.pop("x")
    with pytest.raises(ValueError, match=match):
        plot_index_layouts(x, **kwargs)


def test_index_layouts_type_errors():
    r = max_pool(TV22, 2, 1, return_indices=True)
    with pytest.raises(PoolTutorError, match="PoolResult"):
        plot_index_layouts(r, 2)
    with pytest.raises(TypeError, match="kernel"):
        plot_index_layouts(TV22)
    with pytest.raises(PoolTutorError, match="return_indices"):
        plot_index_layouts(max_pool(TV22, 2, 1))


def test_layout_numbers_agree_with_convert_indices():
    shape = (2, 3, 2, 2)
    for lay in INDEX_LAYOUTS:
        nums = layout_numbers(shape, lay)
        plane = np.broadcast_to(np.arange(4).reshape(2, 2), shape).copy()
        np.testing.assert_array_equal(nums, convert_indices(plane, shape, "plane", lay))


# --------------------------------------------------------------------------- adaptive bins


@pytest.mark.parametrize("x, o, bins, mx, avg, fixed_avg, equal", [
    ([3, 1, 4, 1, 5], 3, ((0, 2), (1, 4), (3, 5)), [3, 4, 5], [2, 2, 3], [8 / 3, 2, 10 / 3],
     False),                                                                        # TV24
    ([3, 1, 4, 1, 5, 9, 2], 4, ((0, 2), (1, 4), (3, 6), (5, 7)), [3, 4, 9, 9], [2, 2, 5, 5.5],
     [2.25, 2.75, 4.75, 4.25], False),                                              # TV25
    ([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 3, ((0, 4), (3, 7), (6, 10)), [4, 9, 6], [2.25, 4.25, 4],
     [2.25, 4.25, 4], True),                                                        # TV26
])
def test_adaptive_tv24_to_tv26(x, o, bins, mx, avg, fixed_avg, equal):
    x = np.array(x, dtype=float)
    p = plot_adaptive_bins(x, o, show_fixed=True)
    assert p.geometry.axes[0].bins == bins
    assert p.output.tolist() == mx
    assert len(p.bins) == o and all(b.get_gid() == "bin" for b in p.bins)
    assert p.fixed.equal is equal
    q = plot_adaptive_bins(x, o, op="avg", show_fixed=True)
    np.testing.assert_allclose(q.output, avg)
    np.testing.assert_allclose(q.fixed_output, fixed_avg)
    n_diff = int(np.sum(~np.isclose(q.output, q.fixed_output)))
    assert len(patches(q.ax, "mismatch")) == n_diff
    assert ("exact" in " ".join(t.get_text() for t in texts(q.ax, "fixed-title"))) is equal


def test_adaptive_tv27_tiles_and_matches_the_export():
    p = plot_adaptive_bins(PI32, 16, out_index=5, show_fixed=True)
    assert p.fixed.kernel == (2,) and p.fixed.stride == (2,) and p.fixed.equal
    assert set(bin_lanes(p.geometry.axes[0].bins)) == {0}        # no overlap: one lane
    assert p.output.tolist() == [3, 4, 9, 6, 5, 8, 9, 9, 3, 8, 6, 6, 3, 8, 7, 9]
    assert p.winner == (11,)
    assert patches(p.ax, "mismatch") == []
    assert "32 % 16 = 0" in p.ax.get_title()


def test_adaptive_1d_overlaps_on_separate_lanes_and_highlight():
    p = plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5]), 3, out_index=1)
    ys = [b.get_y() for b in p.bins]
    assert ys[0] == ys[2] != ys[1]                 # bins 0 and 2 do not overlap; 1 overlaps both
    (frame,) = patches(p.ax, "window")[-1:]
    assert frame.get_edgecolor()[:3] == matplotlib.colors.to_rgb(style.WINDOW_COLOR)
    outlined = sorted(cell_of(w)[1] for w in patches(p.ax, "window")
                      if w.get_width() == 1)
    assert outlined == [1, 2, 3]                   # bin [1, 4)
    assert p.winner == (2,)                        # TV24 argmax of bin 1
    (w,) = patches(p.ax, "winner")
    assert cell_of(w) == (0, 2)
    assert "max 4 at w=2" in p.ax.get_title()
    assert "5 % 3 = 2" in p.ax.get_title()
    labels = [t.get_text() for t in texts(p.ax, "bin-label")]
    assert labels == ["y0 = 3", "y1 = 4", "y2 = 5"]


def test_adaptive_2d_bins_overlap_and_share_colours():
    x = np.arange(25.0).reshape(5, 5)
    p = plot_adaptive_bins(x, 3, out_index=(1, 1), show_fixed=True)
    assert len(p.bins) == 9
    colours = {b.get_facecolor() for b in p.bins}
    assert len(colours) >= 8                                   # distinct colours
    assert all(0 < b.get_facecolor()[3] < 0.5 for b in p.bins)  # translucent: overlaps darker
    (frame,) = [w for w in patches(p.ax, "window")]
    assert (frame.get_x(), frame.get_y(), frame.get_width(), frame.get_height()) == (
        0.5, 0.5, 3, 3)                                        # bin [1,4) x [1,4)
    assert p.winner == (3, 3) and p.output[1, 1] == 18
    assert p.output_ax.images[0].get_clim() == p.figure.axes[-1].images[0].get_clim()
    assert not p.fixed.equal and p.fixed_ax is not None
    assert len(patches(p.fixed_ax, "fixed-window")) == 9


def test_adaptive_shape_only_and_no_workaround():
    p = plot_adaptive_bins((2,), 5, out_index=2, show_fixed=True)
    assert p.output is None and p.fixed is None and p.winner is None
    assert "no fixed-pool workaround" in p.ax.get_title()
    q = plot_adaptive_bins((6, 7), (4, 3), out_index=(1, 2))
    assert [t.get_text() for t in texts(q.output_ax, "bin-size")] == ["2x3"] * 12
    assert fixed_pool_contrast(q.geometry).kernel == (3, 3)


@pytest.mark.parametrize("args, kwargs, exc, match", [
    ((np.zeros((2, 3, 4)), 2), {}, PoolTutorError, "1-D or 2-D"),
    ((np.zeros(5), 3), dict(out_index=3), PoolTutorError, "outside the output"),
    ((np.zeros(5), 3), dict(op="min"), PoolTutorError, "op='min'"),
    ((np.zeros(5), 0), {}, PoolTutorError, "output_size"),
    ((np.zeros(50), 3), {}, PoolTutorError, "at most 40"),
    ((np.array(["a"]), 1), {}, TypeError, "dtype"),
])
def test_adaptive_errors(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        plot_adaptive_bins(*args, **kwargs)


# --------------------------------------------------------------------------- explorers

from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer  # noqa: E402
from pooltutor.viz.index_explorer import IndexLayoutExplorer  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
LOW = 30            # dpi for the explorers under test: the wiring is what is tested here


def is_png(data) -> bool:
    return bytes(data[:8]) == PNG


def test_index_explorer_wiring_and_bounds():
    e = IndexLayoutExplorer(dpi=LOW)
    assert e.error is None and is_png(e.image.value)
    assert e.state["numbers"] == {lay: TV22_INDICES[lay][0] for lay in INDEX_LAYOUTS}
    assert [s.max for s in e.out] == [0, 1]            # 1x2 output positions
    first = e.png
    e.n.value, e.c.value = 1, 1
    e.out[1].value = 1
    assert e.state["out_index"] == (1, 1, 0, 1) and e.png != first
    assert e.state["numbers"] == {lay: TV22_INDICES[lay][7] for lay in INDEX_LAYOUTS}
    assert e.plot.figure is e.figure                   # one persistent figure
    assert "index: 1 (layout 'plane')" in e.explain_text
    assert "nhwc_batch" in e.explain_text and "15" in e.explain_text
    e.stride.value = 2                                 # 2x3, K2 S2: one output column
    assert e.out[1].max == 0 and e.out[1].value == 0 and e.state["out_index"] == (1, 1, 0, 0)
    e.padding.value = 1
    e.pad_taps.value = "neg_inf"
    assert e.error is None and e.state["pad_taps"] == "neg_inf"
    assert {t.get_text() for t in texts(e.plot.input_ax, "padding-text")} == {"-inf"}


def _layout_facts(plot):
    """What the moving marks and titles of an index-layouts plot say."""
    facts = {"suptitle": plot.figure._suptitle.get_text(), "input": plot.input_ax.get_title(),
             "input-window": sorted(cell_of(w) for w in patches(plot.input_ax, "window")),
             "input-winner": [cell_of(w) for w in patches(plot.input_ax, "winner")]}
    for lay, ax in plot.layout_axes.items():
        (window,) = [co for co in ax.collections if co.get_gid() == "window"]
        facts[lay] = (ax.get_title(), sorted(window.pooltutor_cells),
                      [cell_of(w) for w in patches(ax, "winner")],
                      [(t.get_text(), t.get_position()) for t in texts(ax, "winner-number")])
    return facts


def test_index_explorer_steps_blit_the_same_picture_as_a_full_draw():
    x = (np.arange(36.0) % 7).reshape(1, 1, 6, 6)
    e = IndexLayoutExplorer(x, kernel=3, stride=2, padding=1, dpi=LOW)
    result = e.plot.result
    fresh = IndexLayoutExplorer(x, kernel=3, stride=2, padding=1, dpi=LOW)
    for cell in [(0, 1), (2, 2), (1, 0), (2, 2), (0, 0)]:
        with e._hold():
            e.out[0].value, e.out[1].value = cell
        e.safe_update()
        assert e.plot.result is result and e._background is not None   # a step: blitted
        assert e.state["out_index"] == (0, 0, *cell)
        with fresh._hold():
            fresh.out[0].value, fresh.out[1].value = cell
        fresh.plot = fresh._key = None                                  # drawn from scratch
        fresh.safe_update()
        assert fresh.plot.result is not result
        assert e.png == fresh.png                                       # the same pixels
        assert _layout_facts(e.plot) == _layout_facts(fresh.plot)
        assert e.state["numbers"] == fresh.state["numbers"]
        assert e.explain_text == fresh.explain_text
    e.stride.value = 1                                 # a parameter: the engine runs again
    assert e.plot.result is not result and e.state["stride"] == 1


def test_move_index_layouts_refuses_what_it_cannot_move():
    p = plot_index_layouts(TV22, 2, 1, out_index=(0, 1, 0, 0))
    assert move_index_layouts(p, (1, 1, 0, 0)) is None            # another plane
    q = move_index_layouts(p, (0, 1, 0, 1))
    assert q.position == (0, 1, 1, 2) and q.numbers["tensor"] == TV22_INDICES["tensor"][3]
    assert _layout_facts(q) == _layout_facts(plot_index_layouts(TV22, 2, 1,
                                                                out_index=(0, 1, 0, 1)))
    # ceil mode: the last window hangs past the input and widens the input panel
    x = np.arange(25.0).reshape(1, 1, 5, 5)
    c = plot_index_layouts(x, 2, 2, rounding="ceil_torch", out_index=(0, 0))
    assert move_index_layouts(c, (0, 1)) is not None
    assert move_index_layouts(c, (2, 2)) is None
    with pytest.raises(PoolTutorError):
        move_index_layouts(p, (0, 1, 0, 5))


def _bins_facts(plot):
    ax = plot.ax
    return {"title": ax.get_title(), "winner": [cell_of(w) for w in patches(ax, "winner")],
            "window": sorted((round(w.get_x(), 3), round(w.get_y(), 3), w.get_gid())
                             for w in ax.patches if w.get_gid() == "window"),
            "highlight": sorted(cell_of(h) for h in patches(ax, "highlight"))}


@pytest.mark.parametrize("params", [dict(input_size=16, output_size=5),
                                    dict(input_size=7, output_size=4, op="avg"),
                                    dict(input_size=5, output_size=9)])
def test_adaptive_explorer_1d_steps_blit_the_same_picture_as_a_full_draw(params):
    e = AdaptiveBinsExplorer(dpi=LOW, **params)
    fresh = AdaptiveBinsExplorer(dpi=LOW, **params)
    bins_patches = e.plot.bins
    for cell in [1, 3, 0, 3]:
        e.cell[1].value = cell
        assert e.plot.bins is bins_patches and e._background is not None     # a step: blitted
        assert e.state["out_index"] == (cell,)
        fresh.plot = fresh._key = None
        with fresh._hold():
            fresh.cell[1].value = cell
        fresh.safe_update()                                                   # from scratch
        assert fresh.plot.bins is not bins_patches
        assert e.png == fresh.png                                             # same pixels
        assert _bins_facts(e.plot) == _bins_facts(fresh.plot)
        assert e.state == fresh.state and e.explain_text == fresh.explain_text
    e.out_size[1].value = 3                                  # a parameter: drawn again
    assert e.plot.bins is not bins_patches and len(e.plot.bins) == 3


def test_adaptive_explorer_2d_cached_ticks_keep_the_pixels_of_a_full_draw(monkeypatch):
    from matplotlib.axis import Axis

    drawn = []
    axis_draw = Axis.draw
    monkeypatch.setattr(Axis, "draw", lambda self, r: (drawn.append(self), axis_draw(self, r)))
    e = AdaptiveBinsExplorer(ndim=2, input_size=6, output_size=4, dpi=LOW)
    for step, cell in enumerate([1, 2, 3, 0, 2]):
        drawn.clear()
        e.cell[1].value = cell
        assert e.error is None
        if step >= 2:             # the same ticks twice before: pasted, not drawn again
            assert drawn == []
        with monkeypatch.context() as m:           # the same picture drawn with no cache
            for name in ("cache_axis_ticks", "cache_images", "cache_legends"):
                m.setattr(style, name, lambda fig: 0)
            fresh = AdaptiveBinsExplorer(ndim=2, input_size=6, output_size=4, dpi=LOW)
            with fresh._hold():
                fresh.cell[1].value = cell
            fresh.safe_update()
            assert "draw" not in vars(fresh.figure.axes[0].xaxis)
        assert e.png == fresh.png, cell
        assert e.state == fresh.state
    e.out_size[1].value = 3                          # new ticks: drawn again
    assert e.error is None and len(drawn) > 0


def test_index_explorer_invalid_combination_shows_a_reason():
    e = IndexLayoutExplorer(np.arange(6.0).reshape(1, 1, 2, 3), dpi=LOW)
    good = dict(e.state)
    e.kernel.value = 4                                 # larger than the 2x3 plane
    assert "does not fit" in e.error and "kernel" in e.error
    assert "does not fit" in e.error_label.value and e.state == good
    assert e.image.value != e.png                      # the kept picture is greyed
    e.padding.value = 1                                # 4 <= 2 + 1 + 1 fits again
    assert e.error is None and e.state["kernel"] == 4


def test_index_explorer_static_widget_frames():
    e = IndexLayoutExplorer(dpi=LOW)
    fw = e.static_widget(max_frames=2)
    assert len(fw.stack.children) == 2 and all(is_png(im.value) for im in fw.stack.children)
    assert fw.stack.children[0].value != fw.stack.children[1].value
    assert fw.labels[1].startswith("output[0, 0, 0, 1]")
    assert e.state["out_index"] == (0, 0, 0, 0)       # controls put back
    link = fw.links[0]
    assert (link.source[0], link.target[0]) == (fw.slider, fw.stack)
    assert (link.source[1], link.target[1]) == ("value", "selected_index")


def test_adaptive_explorer_wiring():
    e = AdaptiveBinsExplorer(input_size=5, output_size=3, dpi=LOW)     # digits 3 1 4 1 5
    assert e.state["output"] == [3.0, 4.0, 5.0] and e.state["bin"] == ((0, 2),)
    e.cell[1].value = 1
    assert e.state["bin"] == ((1, 4),) and e.state["winner"] == (2,)
    assert "bins [1,4)" in e.explain_text and "[1,4) = the bin, value 4" in e.explain_text
    e.out_size[1].value = 1
    assert e.cell[1].max == 0 and e.state["out_index"] == (0,)
    e.op.value = "avg"
    assert e.state["op"] == "avg" and e.state["winner"] is None
    e.ndim.value = 2
    assert e.in_size[0].layout.display is None and e.state["input_shape"] == (1, 5)
    e.in_size[0].value = 4
    e.out_size[0].value = 3
    assert e.state["input_shape"] == (4, 5) and e.state["output_size"] == (3, 1)
    e.ndim.value = 1
    assert e.in_size[0].layout.display == "none" and len(e.state["input_shape"]) == 1


def test_adaptive_explorer_static_widget():
    e = AdaptiveBinsExplorer(input_size=5, output_size=3, show_fixed=False, dpi=LOW)
    fw = e.static_widget()
    assert len(fw.stack.children) == 3
    assert [lab.splitlines()[0] for lab in fw.labels] == [
        "output[0, 0, 0] = 3.0   (adaptive max pooling)",
        "output[0, 0, 1] = 4.0   (adaptive max pooling)",
        "output[0, 0, 2] = 5.0   (adaptive max pooling)"]


# --------------------------------------------------------------------------- sweeps


def _invalid_or_clean(e):
    """After an update: either a picture and no error, or an error label with a reason."""
    if e.error is None:
        assert e.error_label.value == "" and is_png(e.image.value)
    else:
        assert e.error and "<div" in e.error_label.value and "internal error" not in e.error


def test_sweep_index_explorer():
    e = IndexLayoutExplorer(np.arange(6.0).reshape(1, 1, 2, 3), dpi=20)
    invalid = []
    for k in (1, 3):
        for s in (1, 3):
            for p in (0, 1):
                with e._hold():
                    e.kernel.value, e.stride.value, e.padding.value = k, s, p
                e._on_change()
                _invalid_or_clean(e)
                if e.error is not None:
                    invalid.append((k, s, p))
                    assert f"kernel=({k}, {k}) does not fit" in e.error
    # a window taller than the padded 2-row input: k > 2 + 2p
    assert invalid == [(3, 1, 0), (3, 3, 0)]
    for rule in ("neg_inf", "lowest"):
        e.pad_taps.value = rule
        _invalid_or_clean(e)


def test_sweep_adaptive_explorer():
    e = AdaptiveBinsExplorer(input_size=3, output_size=2, dpi=20)
    notes = 0
    combos = [(ndim, i, o, show) for ndim in (1, 2) for i, o in ((3, 1), (3, 2), (1, 2))
              for show in (False, True)]
    for ndim, i, o, show in combos:
        with e._hold():
            e.ndim.value = ndim
            for a in range(2):
                e.in_size[a].value, e.out_size[a].value = i, o
            e.show_fixed.value = show
            e.op.value = "avg" if o == 2 else "max"
        e._on_change()
        _invalid_or_clean(e)
        assert e.error is None                         # every combination is drawable
        if show and i < o:                             # no export workaround: said so
            assert "no fixed-pool export workaround" in e.warnings[0]
            assert "no fixed-pool export workaround" in e.note_label.value
            notes += 1
        else:
            assert e.warnings == [] and e.note_label.value == ""
    assert notes == 2


def test_adaptive_bins_redraw_reuses_axes_without_leftovers():
    x = (np.arange(100.0) % 7).reshape(10, 10)
    from pooltutor.viz.explorer import new_figure

    p = plot_adaptive_bins(x, 4, (0, 0), show_fixed=True, fig=new_figure((8, 10), dpi=30))
    axes = list(p.figure.axes)
    q = plot_adaptive_bins(x, 4, (2, 3), show_fixed=True, fig=p.figure)
    assert list(q.figure.axes) == axes                       # the same Axes, redrawn
    assert len(patches(q.ax, "bin")) == 16 and len(patches(q.ax, "window")) == 1
    assert sorted(float(t.get_text()) for t in texts(q.ax, "value")) == sorted(x.ravel())
    assert [t.get_text() for t in texts(q.output_ax, "value")] == [
        style.format_value(v) for v in q.output.ravel()]
    (frame,) = patches(q.ax, "window")
    assert (frame.get_x(), frame.get_y()) == (q.geometry.axes[1].bins[3][0] - 0.5,
                                              q.geometry.axes[0].bins[2][0] - 0.5)
    other = plot_adaptive_bins(x, 3, fig=p.figure)           # other shapes: new Axes
    assert len(patches(other.ax, "bin")) == 9
