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
from pooltutor.quant import relu_max_pool_chain  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.adaptive import bin_lanes, fixed_pool_contrast, plot_adaptive_bins  # noqa: E402
from pooltutor.viz.zero_point import plot_quant_chain, plot_zero_point_relu  # noqa: E402

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


# --------------------------------------------------------------------------- zero point


def test_zero_point_relu_tv31_right_and_wrong():
    codes = np.array([[126, 120], [110, 127]], dtype=np.uint8)
    p = plot_zero_point_relu(0.5, 128, "uint8", codes=codes.copy())
    assert (p.right_floor, p.wrong_floor) == (128, 0)
    assert p.right.tolist() == [[128, 128], [128, 128]] and p.wrong.tolist() == codes.tolist()
    assert p.pooled_right.tolist() == [[128]] and p.pooled_wrong.tolist() == [[127]]
    lines = {ln.get_gid(): ln for ln in p.line_ax.lines}
    assert min(lines["right"].get_ydata()) == 0.0          # nothing below the real zero
    assert min(lines["wrong"].get_ydata()) == -64.0        # code 0 keeps real (0 - 128) * 0.5
    assert "scale=0.5, zero_point=128" in p.line_ax.get_title()
    assert "127 keep their negative" in p.line_ax.get_title()
    assert p.grid_axes["pooled_wrong"].get_xlabel() == "127: real -0.5 < 0 !"
    clims = {name: ax.images[0].get_clim() for name, ax in p.grid_axes.items()}
    assert len(set(clims.values())) == 1                   # compared panels share limits
    # code and real value written in every cell
    assert sorted(t.get_text() for t in texts(p.grid_axes["codes"], "value")) == [
        "110", "120", "126", "127"]
    assert "real -0.5" in [t.get_text() for t in texts(p.grid_axes["codes"], "real")]
    assert len(patches(p.grid_axes["right"], "winner")) == 1


def test_zero_point_relu_tv37_negative_zero_point_and_zero():
    p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    assert p.right.tolist() == [[-20, -5], [0, 7]] and p.wrong.tolist() == [[0, 0], [0, 7]]
    assert "raises codes -20..-1 to 0" in p.line_ax.get_title()
    assert {ln.get_gid() for ln in p.line_ax.lines} >= {"zero-point", "code-zero"}
    q = plot_zero_point_relu(0.1, 0, "int8")
    assert "both clamps agree" in q.line_ax.get_title()
    assert "code-zero" not in {ln.get_gid() for ln in q.line_ax.lines}
    assert dict(q.grid_axes) == {} and q.right is None


@pytest.mark.parametrize("args, kwargs, match", [
    ((0.5, 300, "uint8"), {}, "zero_point"),
    ((0.0, 128, "uint8"), {}, "scale"),
    ((0.5, 128, "uint9"), {}, "dtype"),
    ((0.5, 128, "uint8"), dict(codes=[[256, 1]]), "codes holds the code 256"),
    ((0.5, 128, "uint8"), dict(codes=[1, 2]), "2-D"),
    ((0.5, 128, "uint8"), dict(codes=[[1, 2], [3, 4]], out_index=(1, 0)), "out_index"),
])
def test_zero_point_relu_errors(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        plot_zero_point_relu(*args, **kwargs)


def test_quant_chain_tv29_four_stages():
    chain = relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)
    p = plot_quant_chain(chain)
    assert list(p.axes) == ["accumulators", "codes", "activated", "pooled"]
    assert p.winner == (1, 0) and len(p.window) == 4
    for name in ("accumulators", "codes", "activated"):
        assert len(patches(p.axes[name], "window")) == 4
    (w,) = patches(p.axes["activated"], "winner")               # where the max is taken
    assert cell_of(w) == (1, 0)
    assert patches(p.axes["codes"], "winner") == []
    assert [t.get_text() for t in texts(p.axes["pooled"], "value")] == ["3"]
    assert len(patches(p.axes["activated"], "raised")) == 2      # -1 and -4 raised to 0
    clims = [p.axes[k].images[0].get_clim() for k in ("codes", "activated", "pooled")]
    assert clims[0] == clims[1] == clims[2]
    assert p.axes["accumulators"].images[0].get_clim() == (-8.0, 6.0)
    assert "multiplier=0.5, zero_point=0, dtype='int8', rounding='half_even'" in (
        p.figure._suptitle.get_text())


def test_quant_chain_4d_plane_and_errors():
    acc = np.arange(-16, 16).reshape(1, 2, 4, 4)
    chain = relu_max_pool_chain(acc, 1.0, 128, dtype="uint8")
    p = plot_quant_chain(chain, (0, 1, 1, 1))
    assert "plane n=0, c=1" in p.figure._suptitle.get_text()
    assert p.winner == (3, 3)
    with pytest.raises(ValueError, match="index"):
        plot_quant_chain(chain, (0, 0))
    with pytest.raises(TypeError, match="QuantChain"):
        plot_quant_chain(acc)


# --------------------------------------------------------------------------- explorers

from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer  # noqa: E402
from pooltutor.viz.relu_explorer import PRESETS, ZeroPointReluExplorer  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
LOW = 30            # dpi for the explorers under test: the wiring is what is tested here


def is_png(data) -> bool:
    return bytes(data[:8]) == PNG


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


def test_relu_explorer_wiring_tv31():
    e = ZeroPointReluExplorer(dpi=LOW)                 # TV31: uint8, zp 128, M = 1
    assert e.state["codes"] == [[126, 120], [110, 127]]
    assert e.state["pooled"] == [[128]] and e.state["pooled_wrong"] == [[127]]
    assert "instead of 128" in e.explain_text
    assert set(e.chain_plot.axes) == {"accumulators", "codes", "activated", "pooled"}
    e.zero_point.value = 100                           # redrawn in place on kept Axes:
    assert e.state["codes"] == [[98, 92], [82, 99]]
    fresh = plot_zero_point_relu(0.5, 100, "uint8", codes=[[98, 92], [82, 99]])
    assert e.relu_plot.line_ax.get_ylim() == fresh.line_ax.get_ylim()    # no stale limits
    assert len(e.relu_plot.line_ax.lines) == len(fresh.line_ax.lines)
    e.dtype.value = "int8"                             # zero point clamps into [-128, 127]
    assert e.zero_point.min == -128 and e.zero_point.value == 100 and e.error is None
    assert e.state["relu_floor"] == 100
    e.preset.value = "4x4 mixed"
    assert [s.max for s in e.cell] == [1, 1]
    e.cell[0].value = 1
    assert e.state["out_index"] == (1, 0) and "pooled[1, 0]" in e.explain_text
    e.kernel.value = 3                                 # 4x4, K3 S2: one output
    assert e.error is None and [s.max for s in e.cell] == [0, 0] and e.state["out_index"] == (0, 0)


def test_relu_explorer_frames_and_zero_point_bounds():
    e = ZeroPointReluExplorer(dpi=LOW)
    fw = e.static_widget([0, 128])
    assert len(fw.stack.children) == 2 and e.zero_point.value == 128
    assert fw.labels[0].startswith("pooled[0, 0] = 0") and fw.labels[1].startswith(
        "pooled[0, 0] = 128")
    with pytest.raises(ValueError, match="zero_points"):
        e.static_widget([300])
    e.zero_point.value = 255
    e.dtype.value = "int8"                             # 255 is outside int8: clamped
    assert (e.zero_point.min, e.zero_point.max, e.zero_point.value) == (-128, 127, 127)


# --------------------------------------------------------------------------- sweeps


def _invalid_or_clean(e):
    """After an update: either a picture and no error, or an error label with a reason."""
    if e.error is None:
        assert e.error_label.value == "" and is_png(e.image.value)
    else:
        assert e.error and "<div" in e.error_label.value and "internal error" not in e.error


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


def test_sweep_relu_explorer():
    e = ZeroPointReluExplorer(dpi=20)
    invalid = 0
    for preset, dtype in (("seed 003 (TV29)", "uint8"), ("3x3 (floor: one output)", "int8")):
        for k, rounding in ((1, "tflite_double"), (3, "half_away")):
            with e._hold():
                e.preset.value, e.dtype.value, e.kernel.value = preset, dtype, k
                e.rounding.value = rounding
            e._on_change()
            _invalid_or_clean(e)
            if k > np.shape(PRESETS[preset])[0]:
                invalid += 1
                assert "does not fit" in e.error
            else:
                assert e.error is None and e.state["dtype"] == dtype
    assert invalid == 1


def test_relu_explorer_fits_a_slide_and_draws_only_the_wrong_branch_below():
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    w, h = e.figure.get_size_inches()
    assert w <= 9.5 and h <= 6.2
    # the right chain is drawn once (above); below: the transfer plot and the wrong ReLU
    assert set(e.relu_plot.grid_axes) == {"wrong", "pooled_wrong"}
    wrong = sorted(int(t.get_text()) for t in texts(e.relu_plot.grid_axes["wrong"], "value"))
    assert wrong == sorted(np.maximum(np.array(e.state["codes"]), 0).ravel().tolist())
    assert e.relu_plot.grid_axes["pooled_wrong"].get_xlabel().startswith(
        str(e.state["pooled_wrong"][0][0]))
    # every code of the chain panels is written, with its row / column indices
    codes = e.chain_plot.axes["codes"]
    assert sorted(int(t.get_text()) for t in texts(codes, "value")) == sorted(
        np.ravel(e.state["codes"]).tolist())
    assert sorted(t.get_text() for t in texts(codes, "tick")) == sorted(["0", "1", "2", "3"] * 2)


def test_zero_point_relu_panels_are_checked():
    p = plot_zero_point_relu(0.5, 128, codes=[[126, 120], [110, 127]], panels=["pooled_wrong"])
    assert set(p.grid_axes) == {"pooled_wrong"} and p.pooled_right.tolist() == [[128]]
    for bad in ((), ("codes", "codes"), ("right", "nope"), "nope"):
        with pytest.raises(PoolTutorError, match="panels=.*'codes', 'right'"):
            plot_zero_point_relu(0.5, 128, codes=[[1]], panels=bad)


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
