"""Plots and explorers of viz B: index layouts, zero-point ReLU (issue 6; adaptive bins:
tests/viz/test_adaptive_bins.py).

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




# --------------------------------------------------------------------------- explorers

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


