"""plot_zero_point_relu: ReLU at the zero point against ReLU at the code 0 (TV31, TV37).

Checked on what was drawn (the Plot object, lines by gid, texts by gid, patches by gid),
as Jupyter shows it (every text inside the plain and the tight saved image), and against
small baseline pictures (``compare_images`` at a tolerance).
"""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from baseline_check import assert_matches_baseline  # noqa: E402
from figure_checks import assert_texts_inside  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pooltutor.errors import PoolTutorError  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.zero_point import RELU_PANELS, plot_zero_point_relu  # noqa: E402

TV31 = [[126, 120], [110, 127]]


def patches(ax, gid):
    return [p for p in ax.patches if p.get_gid() == gid]


def cell_of(patch):
    x, y = patch.get_xy()
    return round(y + patch.get_height() / 2), round(x + patch.get_width() / 2)


def texts(ax, gid):
    return [t.get_text() for t in style.texts_of(ax, gid)]


def test_tv31_right_and_wrong():
    codes = np.array(TV31, dtype=np.uint8)
    p = plot_zero_point_relu(0.5, 128, "uint8", codes=codes.copy())
    assert (p.right_floor, p.wrong_floor) == (128, 0)
    assert p.right.tolist() == [[128, 128], [128, 128]] and p.wrong.tolist() == TV31
    assert p.pooled_right.tolist() == [[128]] and p.pooled_wrong.tolist() == [[127]]
    assert min(p.lines["right"].get_ydata()) == 0.0          # nothing below the real zero
    assert min(p.lines["wrong"].get_ydata()) == -64.0        # code 0 keeps (0 - 128) * 0.5
    assert list(p.lines["zero-point"].get_xdata()) == [128, 128]
    assert list(p.lines["code-zero"].get_xdata()) == [0, 0]
    assert "scale=0.5, zero_point=128" in p.line_ax.get_title()
    assert p.verdict == "max(q, 0) does nothing: codes 0..127 keep their negative real values"
    assert p.grid_axes["pooled_wrong"].get_xlabel() == "127: real -0.5 < 0 !"
    assert p.grid_axes["pooled_right"].get_xlabel() == "128: real 0"
    clims = {name: ax.images[0].get_clim() for name, ax in p.grid_axes.items()}
    assert len(set(clims.values())) == 1                   # compared panels share limits
    assert sorted(texts(p.grid_axes["codes"], "value")) == ["110", "120", "126", "127"]
    assert "real -0.5" in texts(p.grid_axes["codes"], "real")
    assert texts(p.grid_axes["pooled_wrong"], "value") == ["127"]
    # window on every block panel, the winners where each max is taken
    for name in ("codes", "right", "wrong"):
        assert sorted(cell_of(w) for w in patches(p.grid_axes[name], "window")) == [
            (0, 0), (0, 1), (1, 0), (1, 1)]
    assert [cell_of(w) for w in patches(p.grid_axes["right"], "winner")] == [(0, 0)]
    assert [cell_of(w) for w in patches(p.grid_axes["wrong"], "winner")] == [(1, 1)]
    assert p.winners == {"right": (0, 0), "wrong": (1, 1)}
    # the right ReLU raised all four codes to the zero point, the wrong one none
    assert len(patches(p.grid_axes["right"], "raised")) == 4
    assert patches(p.grid_axes["wrong"], "raised") == []
    assert [cell_of(h) for h in patches(p.grid_axes["pooled_wrong"], "highlight")] == [(0, 0)]


def test_tv37_negative_zero_point_raises_codes_with_the_wrong_clamp():
    p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    assert p.right.tolist() == [[-20, -5], [0, 7]] and p.wrong.tolist() == [[0, 0], [0, 7]]
    assert p.verdict == "max(q, 0) raises codes -20..-1 to 0, real 20 (not 0)"
    assert p.panels["wrong"].raised_cells == ((0, 0), (0, 1))
    assert p.panels["right"].raised_cells == ((0, 0),)
    assert len(patches(p.grid_axes["wrong"], "raised")) == 2
    labels = {t.get_gid(): t.get_text() for t in p.line_ax.texts}
    assert labels == {"zero-point-label": "zp = -20 (real 0)",
                      "code-zero-label": "code 0 (real 20)"}
    assert [c.get_gid() for c in p.line_ax.collections] == ["disagree"]


def test_zero_point_zero_both_clamps_agree_and_nothing_extra_is_drawn():
    q = plot_zero_point_relu(0.1, 0, "int8")
    assert "both clamps agree" in q.line_ax.get_title()
    assert set(q.lines) == {"identity", "right", "wrong", "zero-point"}     # no code-zero
    assert [c.get_gid() for c in q.line_ax.collections] == []              # nothing shaded
    assert dict(q.grid_axes) == {} and q.right is None and list(q.axes) == ["transfer"]
    assert [t.get_text() for t in q.legend.get_texts()] == [
        "no ReLU: real = (q \u2212 zp)\u00b7s", "wrong: max(q, 0) on raw codes",
        "right: max(q, 0), real \u2265 0"]


def test_real_axis_and_ticks_follow_the_zero_point_and_stay_inside_the_limits():
    p = plot_zero_point_relu(0.5, 100, "uint8")
    lo, hi = p.line_ax.get_ylim()
    assert all(lo <= v <= hi for v in p.line_ax.get_yticks())
    # the identity line runs from the lower left corner (so the legend sits under it)
    x_lo, _ = p.line_ax.get_xlim()
    assert lo == pytest.approx((x_lo - 100) * 0.5)
    real_ticks = p.real_axis.get_xticks()
    assert 0.0 in real_ticks and all(-50 - 4 <= v <= 77.5 + 4 for v in real_ticks)


@pytest.mark.parametrize("args, kwargs, match", [
    ((0.5, 300, "uint8"), {}, "zero_point"),
    ((0.0, 128, "uint8"), {}, "scale"),
    ((0.5, 128, "uint9"), {}, "dtype"),
    ((0.5, 128, "uint8"), dict(codes=[[256, 1]]), "codes holds the code 256"),
    ((0.5, 128, "uint8"), dict(codes=[1, 2]), "2-D"),
    ((0.5, 128, "uint8"), dict(codes=np.zeros((7, 2), dtype=int)), "at most 6 x 6"),
    ((0.5, 128, "uint8"), dict(codes=TV31, out_index=(1, 0)), "out_index"),
    ((0.5, 128, "uint8"), dict(codes=TV31, ax=[Figure().add_subplot()]), "ax has 1 entries"),
])
def test_errors_name_the_parameter(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        plot_zero_point_relu(*args, **kwargs)


def test_type_errors():
    with pytest.raises(TypeError, match="codes has dtype float64"):
        plot_zero_point_relu(0.5, 128, codes=[[1.5]])
    with pytest.raises(TypeError, match="ax=3 has type int"):
        plot_zero_point_relu(0.5, 128, ax=3)
    with pytest.raises(TypeError, match="fig='x' has type str"):
        plot_zero_point_relu(0.5, 128, fig="x")


def test_panels_are_checked():
    p = plot_zero_point_relu(0.5, 128, codes=TV31, panels=["pooled_wrong"])
    assert set(p.grid_axes) == {"pooled_wrong"} and p.pooled_right.tolist() == [[128]]
    for bad in ((), ("codes", "codes"), ("right", "nope"), "nope"):
        with pytest.raises(PoolTutorError, match="panels=.*'codes', 'right'"):
            plot_zero_point_relu(0.5, 128, codes=[[1]], panels=bad)


def test_ax_sequence_in_the_documented_order_and_fig_redraws():
    fig = Figure(figsize=(12, 4), layout="constrained")
    axes = fig.subplots(1, 3)
    p = plot_zero_point_relu(0.5, 128, codes=TV31, panels=("wrong", "pooled_wrong"), ax=axes)
    assert list(p.axes.values()) == list(axes) and p.figure is fig
    assert list(p.axes) == ["transfer", "wrong", "pooled_wrong"]
    assert texts(axes[2], "value") == ["127"]
    single = Figure().add_subplot()
    assert plot_zero_point_relu(1.0, 3, "int8", ax=single).line_ax is single
    # fig=: drawn again on the same figure, nothing left over
    q = plot_zero_point_relu(0.5, 128, codes=TV31)
    r = plot_zero_point_relu(0.5, 100, codes=[[98, 92], [82, 99]], fig=q.figure)
    assert len(r.figure.axes) == 6 and len(r.line_ax.child_axes) == 1     # + the real axis
    assert sorted(texts(r.grid_axes["codes"], "value")) == ["82", "92", "98", "99"]


PARAMS = [
    (0.5, 128, "uint8", TV31, RELU_PANELS),
    (1.0, -20, "int8", [[-100, -5], [0, 7]], RELU_PANELS),
    (0.01, 255, "uint8", (np.arange(36).reshape(6, 6) * 7), RELU_PANELS),
    (10.0, 0, "uint8", [[0, 255, 3], [9, 9, 9]], RELU_PANELS),
    (3.0, 127, "int8", [[-128, 5, 127], [1, 2, 3], [0, -1, -2]], ("wrong", "pooled_wrong")),
    (0.1, -128, "int8", None, RELU_PANELS),
    (2.0, 0, "uint8", None, RELU_PANELS),
    (0.05, 37, "uint8", [[36, 37], [40, 1]], ("codes", "pooled_right")),
]


@pytest.mark.parametrize("scale, zp, dtype, codes, panels", PARAMS)
def test_every_text_inside_cells_legible_and_the_legend_covers_no_data(scale, zp, dtype, codes,
                                                                        panels):
    p = plot_zero_point_relu(scale, zp, dtype, codes=codes, panels=panels)
    assert_texts_inside(p.figure)
    for ax in p.grid_axes.values():
        assert min(t.get_fontsize() for t in style.texts_of(ax)) >= 7
    # no data line, point or shaded area passes under the legend
    renderer = p.figure.canvas.get_renderer()
    box = p.legend.get_window_extent(renderer)
    ax = p.line_ax
    for line in p.lines.values():
        x, y = line.get_xdata(), line.get_ydata()
        t = np.linspace(0, 1, 200)[:, None]
        pts = np.column_stack([x, y]) if line.get_linestyle() == "None" else np.concatenate(
            [(1 - t) * np.array([a, b]) + t * np.array([c, d])
             for a, b, c, d in zip(x[:-1], y[:-1], x[1:], y[1:], strict=True)])
        px = ax.transData.transform(pts)
        inside = ((px[:, 0] > box.x0 + 1) & (px[:, 0] < box.x1 - 1)
                  & (px[:, 1] > box.y0 + 1) & (px[:, 1] < box.y1 - 1))
        assert not inside.any(), f"the legend covers the line {line.get_gid()!r}"


def test_marks_are_told_apart_without_colour():
    p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    wrong = p.grid_axes["wrong"]
    (window,) = {(w.get_width(), w.get_linestyle()) for w in patches(wrong, "window")}
    (winner,) = patches(wrong, "winner")
    assert window[0] == 1.0 and winner.get_width() < 0.9        # on the edges / inside
    assert all(len(r.get_xy()) in (3, 4) for r in patches(wrong, "raised"))   # triangles
    styles = {g: (line.get_linestyle(), line.get_linewidth()) for g, line in p.lines.items()
              if g in ("identity", "right", "wrong")}
    assert len(set(styles.values())) == 3                       # dotted, solid, dashed
    assert p.lines["zero-point"].get_linestyle() != p.lines["code-zero"].get_linestyle()


@pytest.mark.picture
@pytest.mark.parametrize("name, make", [
    ("zero_point_relu_tv31", lambda: plot_zero_point_relu(0.5, 128, "uint8", codes=TV31)),
    ("zero_point_relu_int8", lambda: plot_zero_point_relu(1.0, -20, "int8")),
])
def test_pictures_match_their_baselines(name, make):
    assert_matches_baseline(make().figure, name)
