"""ZeroPointReluExplorer wiring, tested by state: which codes, clamp lines, labels, winner
marks and raised marks the picture holds after parameter changes and refused values;
every picture as Jupyter shows it; one baseline picture."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from baseline_check import assert_matches_baseline  # noqa: E402
from figure_checks import assert_texts_inside  # noqa: E402

from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.relu_explorer import PRESETS, ZeroPointReluExplorer  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
LOW = 30            # dpi for wiring tests


def texts(ax, gid):
    return [t.get_text() for t in style.texts_of(ax, gid)]


def cell_of(patch):
    """(row, col) of a square around a cell centre, or of a corner triangle in it."""
    if hasattr(patch, "get_width"):
        x, y = patch.get_xy()
        return round(y + patch.get_height() / 2), round(x + patch.get_width() / 2)
    x, y = patch.get_xy()[0]                    # the triangle's corner in the cell's corner
    return round(y + 0.5), round(x + 0.5)


def marks(ax, gid):
    return sorted(cell_of(p) for p in ax.patches if p.get_gid() == gid)


def picture(e) -> dict:
    """What the figure shows, read from its artists."""
    chain, relu = e.chain_plot.axes, e.relu_plot
    return {
        "codes": [int(t) for t in texts(chain["codes"], "value")],
        "activated": [int(t) for t in texts(chain["activated"], "value")],
        "pooled": [int(t) for t in texts(chain["pooled"], "value")],
        "wrong": [int(t) for t in texts(relu.axes["wrong"], "value")],
        "pooled_wrong": [int(t) for t in texts(relu.axes["pooled_wrong"], "value")],
        "window": marks(chain["activated"], "window"),
        "winner": marks(chain["activated"], "winner"),
        "winner_wrong": marks(relu.axes["wrong"], "winner"),
        "raised": marks(chain["activated"], "raised"),
        "highlight": marks(chain["pooled"], "highlight"),
        "clamp": list(relu.lines["zero-point"].get_xdata()),
        "relu_title": chain["activated"].get_title(),
        "transfer_title": relu.line_ax.get_title(),
        "pooled_wrong_label": relu.axes["pooled_wrong"].get_xlabel(),
        "code_axis": relu.line_ax.get_xlabel(),
    }


def consistent(e) -> dict:
    """The picture agrees with the explorer's state (and returns it)."""
    seen, state = picture(e), e.state
    assert seen["codes"] == np.ravel(state["codes"]).tolist()
    assert seen["activated"] == np.ravel(state["activated"]).tolist()
    assert seen["pooled"] == np.ravel(state["pooled"]).tolist()
    assert seen["wrong"] == np.ravel(state["wrong"]).tolist()
    assert seen["wrong"] == np.maximum(np.ravel(state["codes"]), max(
        0, -128 if state["dtype"] == "int8" else 0)).tolist()
    assert seen["pooled_wrong"] == np.ravel(state["pooled_wrong"]).tolist()
    assert seen["window"] == sorted(state["window"])
    assert seen["winner"] == [state["winner"]] and seen["winner_wrong"] == [state["winner_wrong"]]
    assert seen["raised"] == sorted(state["raised"])
    assert seen["highlight"] == [tuple(state["out_index"])]
    assert seen["clamp"] == [state["zero_point"]] * 2
    assert seen["relu_title"].endswith(f"max(q, {state['relu_floor']})")
    assert f"zero_point={state['zero_point']}" in seen["transfer_title"]
    assert f"({state['dtype']}," in seen["code_axis"]
    return seen


def test_tv31_then_parameter_changes_and_refused_values():
    e = ZeroPointReluExplorer(dpi=LOW)                 # TV31: uint8, zp 128, M = 1
    s = consistent(e)
    assert s["codes"] == [126, 120, 110, 127] and s["pooled"] == [128]
    assert s["pooled_wrong"] == [127] and s["pooled_wrong_label"] == "127: real -0.5 < 0 !"
    assert s["raised"] == [(0, 0), (0, 1), (1, 0), (1, 1)] and s["winner_wrong"] == [(1, 1)]
    assert "instead of 128" in e.explain_text and bytes(e.image.value[:8]) == PNG
    axes = list(e.figure.axes)
    e.zero_point.value = 100                           # the Axes kept, drawn again
    s = consistent(e)
    assert s["codes"] == [98, 92, 82, 99] and s["pooled"] == [100] and s["pooled_wrong"] == [99]
    assert list(e.figure.axes) == axes
    e.zero_point.value = 0                             # both clamps agree: nothing raised
    s = consistent(e)
    assert s["codes"] == [0, 0, 0, 0] and s["raised"] == []   # the codes saturate at 0
    assert "both clamps agree" in s["transfer_title"]
    # a refused value: the reason shown, the picture and state of the last good update kept
    before, png = picture(e), e.png
    e.kernel.value = 3
    assert e.error.startswith("kernel=(3, 3) does not fit the input (2, 2)")
    assert picture(e) == before and e.png == png and e.state["zero_point"] == 0
    e.kernel.value = 2
    assert e.error is None
    consistent(e)
    e.dtype.value = "int8"                             # zero point stays inside [-128, 127]
    assert (e.zero_point.min, e.zero_point.max, e.zero_point.value) == (-128, 127, 0)
    s = consistent(e)
    assert s["code_axis"] == "input code q (int8, -128 .. 127)"


def test_pool_and_cell_controls_follow_the_pooled_size():
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    assert [c.max for c in e.cell] == [1, 1]
    e.cell[0].value = 1
    s = consistent(e)
    assert e.state["out_index"] == (1, 0) and "pooled[1, 0]" in e.explain_text
    assert s["window"] == [(2, 0), (2, 1), (3, 0), (3, 1)]
    e.kernel.value = 3                                 # 4x4, K3 S2: one output
    assert e.error is None and [c.max for c in e.cell] == [0, 0]
    s = consistent(e)
    assert e.state["out_index"] == (0, 0) and len(s["window"]) == 9
    e.preset.value = "seed 003 (TV29)"                 # 2x2 accumulators: K3 refused
    assert "does not fit" in e.error
    e.stride.value = 1
    assert "does not fit" in e.error
    e.kernel.value = 1                                 # K1 S1 on 2x2: four outputs
    assert e.error is None and [c.max for c in e.cell] == [1, 1]
    s = consistent(e)
    assert s["window"] == [(0, 0)] and len(s["pooled"]) == 4


def test_frames_and_zero_point_bounds():
    e = ZeroPointReluExplorer(dpi=LOW)
    fw = e.static_widget([0, 128])
    assert len(fw.stack.children) == 2 and e.zero_point.value == 128
    assert fw.labels[0].startswith("pooled[0, 0] = 0") and fw.labels[1].startswith(
        "pooled[0, 0] = 128")
    assert all(bytes(img.value[:8]) == PNG for img in fw.stack.children)
    consistent(e)                                      # put back: the live zero point drawn
    with pytest.raises(ValueError, match="zero_points"):
        e.static_widget([300])
    e.zero_point.value = 255
    e.dtype.value = "int8"                             # 255 is outside int8: clamped
    assert (e.zero_point.min, e.zero_point.max, e.zero_point.value) == (-128, 127, 127)


def test_sweep_presets_dtypes_pools_roundings():
    e = ZeroPointReluExplorer(dpi=20)
    invalid = 0
    for preset, dtype in (("seed 003 (TV29)", "uint8"), ("3x3 (floor: one output)", "int8")):
        for k, rounding in ((1, "tflite_double"), (3, "half_away")):
            with e._hold():
                e.preset.value, e.dtype.value, e.kernel.value = preset, dtype, k
                e.rounding.value = rounding
            e._on_change()
            if k > np.shape(PRESETS[preset])[0]:
                invalid += 1
                assert "does not fit" in e.error and "internal" not in e.error
            else:
                assert e.error is None and e.state["dtype"] == dtype
                consistent(e)
    assert invalid == 1


def test_fits_a_slide_and_draws_only_the_wrong_branch_below():
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    w, h = e.figure.get_size_inches()
    assert w <= 9.5 and h <= 7.2
    assert list(e.relu_plot.grid_axes) == ["wrong", "pooled_wrong"]
    assert sorted(texts(e.chain_plot.axes["codes"], "tick")) == sorted(["0", "1", "2", "3"] * 2)


@pytest.mark.parametrize("changes", [
    {},
    {"dtype": "int8", "zero_point": -20},
    {"preset": "4x4 mixed", "zero_point": 255, "scale": 10.0},
    {"preset": "4x4 ties (rounding)", "dtype": "int8", "zero_point": -128, "multiplier": 0.0078125},
    {"preset": "3x3 (floor: one output)", "zero_point": 3, "scale": 0.01, "kernel": 1},
])
def test_every_picture_inside_as_jupyter_shows_it(changes):
    e = ZeroPointReluExplorer(dpi=80)
    for name, value in changes.items():
        getattr(e, name).value = value
        assert e.error is None, e.error
    assert_texts_inside(e.figure)
    for ax in [*e.chain_plot.axes.values(), *e.relu_plot.grid_axes.values()]:
        assert min(t.get_fontsize() for t in style.texts_of(ax)) >= 7


@pytest.mark.picture
def test_picture_matches_its_baseline():
    e = ZeroPointReluExplorer(preset="4x4 mixed", dtype="int8", zero_point=-20, dpi=LOW)
    assert_matches_baseline(e.figure, "relu_explorer_4x4_int8")


def same_picture(png_a: bytes, png_b: bytes, tmp_path, tol: float = 2) -> None:
    from matplotlib.testing.compare import compare_images

    a, b = tmp_path / "after_changes.png", tmp_path / "fresh.png"
    a.write_bytes(png_a)
    b.write_bytes(png_b)
    assert compare_images(str(b), str(a), tol=tol) is None


@pytest.mark.parametrize("settings, zero_points", [
    ({}, [129, 130, 100, 99, 5, 128]),                # back and forth, digits gained and lost
    ({"dtype": "int8", "zero_point": -20}, [-19, -1, 0, 3, -128, 127, -20]),
    ({"preset": "4x4 mixed", "scale": 10.0, "zero_point": 200}, [201, 17, 255, 200]),
    ({"preset": "4x4 mixed", "zero_point": 100}, [110, 128, 100, 90, 128]),
])
def test_zero_point_changes_draw_what_a_new_explorer_draws(settings, zero_points, tmp_path):
    """The layout runs only when what it depends on changes: after any sequence of zero
    points the picture is the one a new explorer with the same settings shows."""
    e = ZeroPointReluExplorer(dpi=50, **settings)
    for zp in zero_points:
        e.zero_point.value = zp
        assert e.error is None, e.error
        fresh = ZeroPointReluExplorer(dpi=50, **{**settings, "zero_point": zp})
        same_picture(e.png, fresh.png, tmp_path)
    assert_texts_inside(e.figure)


def test_a_save_at_another_dpi_between_changes_is_laid_out_again(tmp_path):
    import io

    e = ZeroPointReluExplorer(dpi=50)
    e.zero_point.value = 129
    e.figure.savefig(io.BytesIO(), dpi=40, bbox_inches="tight")   # lays the figure out again
    e.zero_point.value = 130
    same_picture(e.png, ZeroPointReluExplorer(dpi=50, zero_point=130).png, tmp_path)
    e.preset.value = "4x4 mixed"                        # other grids: new Axes, laid out
    e.zero_point.value = 131
    same_picture(e.png, ZeroPointReluExplorer(dpi=50, preset="4x4 mixed", zero_point=131).png,
                 tmp_path)


def test_titles_and_top_ticks_that_change_their_digits_keep_the_layout():
    """The layout measures a title's height, not its width, and the x tick labels only
    near an end: zero points 100, 110, 128 turn "codes 0..99" into "0..109" and "0..127"
    and move the real-value ticks, and keep one layout; 90 narrows the widest y tick
    label of the transfer plot, which moves its left edge: laid out again."""
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    keys = {}
    for zp in (100, 110, 128, 90):
        e.zero_point.value = zp
        keys[zp] = e.layout_key()
        assert e.relu_plot.line_ax.get_title()      # (the title whose digits change)
    assert "0..99 " in ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100,
                                            dpi=LOW).relu_plot.line_ax.get_title()
    assert keys[100] == keys[110] == keys[128] != keys[90]


def test_the_layout_stays_while_only_digits_move():
    """Neighbouring zero points change no extent the layout sees: no layout pass (the
    real-value axis has no label at its right end, a narrow title's width is not looked
    at), and the pictures are those of new explorers (above)."""
    for settings, zero_points in (({}, range(129, 160)),
                                  ({"dtype": "int8", "zero_point": -40}, range(-39, -12))):
        e = ZeroPointReluExplorer(dpi=LOW, **settings)
        keys = set()
        for zp in zero_points:
            e.zero_point.value = zp
            keys.add(e.layout_key())
        assert len(keys) <= 3, len(keys)
    ticks = e.relu_plot.real_axis.get_xticks()
    lo, hi = (np.asarray(e.relu_plot.line_ax.get_xlim()) - e.zero_point.value) * e.scale.value
    assert hi - max(ticks) >= 0.065 * (hi - lo)
