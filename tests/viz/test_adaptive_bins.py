"""plot_adaptive_bins and AdaptiveBinsExplorer: what the pictures hold, and how they look.

* The plots are checked on what they drew (bins by gid, marks and their places, texts of
  the cells and the caption, titles, colour limits), for 1-D and 2-D, dividing and
  non-dividing sizes, with and without the fixed-pool export workaround, max and avg.
* The explorer is tested by state: after steps, size changes and refused values, which
  bins, winners, marks, labels and captions the picture holds.  A blitted step must give
  the picture of a full draw of the same figure (compared with ``compare_images``).
* Every picture keeps its texts inside the image saved plainly and as Jupyter saves it
  (``bbox_inches="tight"``); cell numbers are at least 7 pt.
* Picture regressions against the small PNGs in ``tests/viz/baseline/`` (made with
  ``python tests/viz/test_adaptive_bins.py --baselines`` after looking at them).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
pytest.importorskip("ipywidgets")

from figure_checks import assert_texts_inside, smallest_font_pt  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.testing.compare import compare_images  # noqa: E402

from pooltutor.errors import PoolTutorError  # noqa: E402
from pooltutor.geometry import fixed_pool_contrast  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.adaptive import (  # noqa: E402
    BIN_COLORS,
    BIN_LINESTYLES,
    AdaptiveBinsPlot,
    bin_lanes,
    move_adaptive_bins,
    plot_adaptive_bins,
)
from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer, pi_digits  # noqa: E402
from pooltutor.viz.explorer import figure_png, new_figure  # noqa: E402

BASELINE = Path(__file__).parent / "baseline"
LOW = 30            # dpi of the explorers whose wiring is tested
PI32 = pi_digits(32)
TV24 = np.array([3.0, 1, 4, 1, 5])
TV25 = np.array([3.0, 1, 4, 1, 5, 9, 2])


def patches(ax, gid):
    return [p for p in ax.patches if p.get_gid() == gid]


def texts(ax, gid):
    return [t.get_text() for t in style.texts_of(ax, gid)]


def bounds(patch):
    return tuple(round(float(v), 6) for v in (patch.get_x(), patch.get_y(), patch.get_width(),
                                              patch.get_height()))


def cell_of(square):
    """(row, col) of a square drawn around a cell centre (mark_cell)."""
    x, y = square.get_xy()
    return round(y + square.get_height() / 2, 6), round(x + square.get_width() / 2, 6)


def marks_facts(plot: AdaptiveBinsPlot) -> dict:
    """Where every moving mark sits and what the caption says."""
    facts = {name: (bounds(a), a.get_visible()) for name, a in plot.marks.items()}
    facts["caption"] = plot.caption.get_text()
    facts["winner"] = plot.winner
    return facts


def smallest_cell_text(fig) -> float:
    """The smallest size of the texts written in cells (text collections) and Text artists."""
    sizes = [smallest_font_pt(fig)]
    for ax in fig.axes:
        sizes += [t.get_fontsize() for t in style.texts_of(ax)]
    return min(sizes)


# --------------------------------------------------------------------------- the plot


@pytest.mark.parametrize("x, o, bins, mx, avg, fixed_avg, equal", [
    (TV24, 3, ((0, 2), (1, 4), (3, 5)), [3, 4, 5], [2, 2, 3], [8 / 3, 2, 10 / 3], False),
    (TV25, 4, ((0, 2), (1, 4), (3, 6), (5, 7)), [3, 4, 9, 9], [2, 2, 5, 5.5],
     [2.25, 2.75, 4.75, 4.25], False),
    (pi_digits(10), 3, ((0, 4), (3, 7), (6, 10)), [4, 9, 6], [2.25, 4.25, 4], [2.25, 4.25, 4],
     True),
], ids=["TV24", "TV25", "TV26"])
def test_tv24_to_tv26_values_bins_and_the_workaround(x, o, bins, mx, avg, fixed_avg, equal):
    p = plot_adaptive_bins(x, o, show_fixed=True)
    assert p.geometry.axes[0].bins == bins and p.output.tolist() == mx
    assert len(p.bins) == o and all(b.get_gid() == "bin" for b in p.bins)
    assert p.fixed.equal is equal and p.axes == (p.ax,) and p.fixed_ax is p.ax
    q = plot_adaptive_bins(x, o, op="avg", show_fixed=True)
    np.testing.assert_allclose(q.output, avg)
    np.testing.assert_allclose(q.fixed_output, fixed_avg)
    n_diff = int(np.sum(~np.isclose(q.output, q.fixed_output)))
    assert len(patches(q.ax, "mismatch")) == n_diff
    assert ("the export is exact" in q.title.get_text()) is equal
    # the windows say whether they are their bin in words, not only in red / green
    labels = texts(q.ax, "fixed-window-label")
    assert len(labels) == o
    assert [lab.startswith(("w", "=", "\u2260")) for lab in labels] == [True] * o
    assert [("\u2260" in lab) for lab in labels] == [not s for s in q.fixed.same[0]]
    edges = [to_rgb(w.get_edgecolor()) for w in patches(q.ax, "fixed-window")]
    assert edges == [to_rgb(style.RIGHT_COLOR if s else style.WRONG_COLOR)
                     for s in q.fixed.same[0]]


def test_tv27_tiles_and_the_export_is_exact():
    p = plot_adaptive_bins(PI32, 16, out_index=5, show_fixed=True)
    assert p.fixed.kernel == (2,) and p.fixed.stride == (2,) and p.fixed.equal
    assert set(bin_lanes(p.geometry.axes[0].bins)) == {0}        # no overlap: one lane
    assert p.output.tolist() == [3, 4, 9, 6, 5, 8, 9, 9, 3, 8, 6, 6, 3, 8, 7, 9]
    assert p.winner == (11,) and patches(p.ax, "mismatch") == []
    assert "32 % 16 = 0" in p.title.get_text() and "bins tile the input" in p.title.get_text()


def test_1d_overlapping_bins_lanes_marks_and_caption():
    p = plot_adaptive_bins(TV24, 3, out_index=1)
    ys = [b.get_y() for b in p.bins]
    assert ys[0] == ys[2] != ys[1]                 # bins 0 and 2 do not overlap; 1 overlaps both
    assert texts(p.ax, "bin-label") == ["y0 = 3", "y1 = 4", "y2 = 5"]
    assert sorted(texts(p.ax, "value")) == sorted(style.format_value(v) for v in TV24)
    assert texts(p.ax, "output-value") == ["3", "4", "5"]
    assert bounds(p.marks["bin"]) == (0.5, -0.5, 3, 1)          # bin [1, 4) on the input row
    assert to_rgb(p.marks["bin"].get_edgecolor()) == to_rgb(style.WINDOW_COLOR)
    assert p.winner == (2,) and cell_of(p.marks["winner"]) == (0, 2)   # TV24 argmax of bin 1
    bar = p.marks["bar"]
    assert bar.get_x() < p.bins[1].get_x() and bar.get_width() > p.bins[1].get_width()
    y_out = cell_of(p.marks["highlight"])[0]
    assert cell_of(p.marks["highlight"]) == (y_out, 2.0)      # under bin [1, 4): centre 2
    assert p.caption.get_text() == "output 1: bin [1,4), max 4 at w=2"
    assert p.caption in p.figure.texts             # the figure's supxlabel
    assert "5 % 3 = 2" in p.title.get_text() and "bins overlap" in p.title.get_text()
    assert [t.get_text() for t in p.ax.get_yticklabels()] == ["input", "bins", "adaptive max"]


def test_2d_bins_colours_line_styles_marks_and_titles():
    x = np.arange(25.0).reshape(5, 5)
    p = plot_adaptive_bins(x, 3, out_index=(1, 1), show_fixed=True)
    assert len(p.bins) == 9 and p.axes == (p.ax, p.output_ax, p.fixed_ax, p.fixed_output_ax)
    assert all(0 < b.get_facecolor()[3] < 0.5 for b in p.bins)  # translucent: overlaps darker
    for k, b in enumerate(p.bins):
        assert to_rgb(b.get_edgecolor()) == to_rgb(BIN_COLORS[k % len(BIN_COLORS)])
    # neighbouring bins differ in colour and in line style (told apart without colour)
    grid = np.array(p.bins, dtype=object).reshape(3, 3)
    for i in range(3):
        for j in range(3):
            for di, dj in ((0, 1), (1, 0)):
                if i + di < 3 and j + dj < 3:
                    a, b = grid[i, j], grid[i + di, j + dj]
                    assert a.get_edgecolor() != b.get_edgecolor()
                    assert a.get_linestyle() != b.get_linestyle()
    assert bounds(p.marks["bin"]) == (0.5, 0.5, 3, 3)           # bin [1,4) x [1,4)
    assert p.winner == (3, 3) and cell_of(p.marks["winner"]) == (3, 3)
    assert p.output[1, 1] == 18 and cell_of(p.marks["highlight"]) == (1, 1)
    assert p.marks["highlight"].axes is p.output_ax
    assert p.output_ax.images[0].get_clim() == p.fixed_output_ax.images[0].get_clim()
    assert not p.fixed.equal and len(patches(p.fixed_ax, "fixed-window")) == 9
    assert p.marks["window"].axes is p.fixed_ax and p.marks["fixed-bin"].axes is p.fixed_ax
    assert bounds(p.marks["fixed-bin"]) == bounds(p.marks["bin"])
    assert sorted(float(t) for t in texts(p.ax, "value")) == sorted(x.ravel())
    assert texts(p.output_ax, "value") == [style.format_value(v) for v in p.output.ravel()]
    assert p.caption.get_text().splitlines() == [
        "output (1, 1): bin [1,4) x [1,4), max 18 at (3, 3)",
        "export workaround: window [1,4) x [1,4) = its bin, value 18"]
    assert "8 of 9 windows \u2260 their bin" in p.fixed_ax.get_title(loc="left")
    assert "5 of 9 \u2260 adaptive" in p.fixed_output_ax.get_title(loc="left")


def test_shape_only_and_no_workaround():
    p = plot_adaptive_bins((2,), 5, out_index=2, show_fixed=True)
    assert p.output is None and p.fixed is None and p.winner is None
    assert "no fixed-pool workaround" in p.title.get_text() and p.fixed_ax is None
    assert not p.marks["winner"].get_visible() and "window" not in p.marks
    bins = p.geometry.axes[0].bins
    assert bins == ((0, 1), (0, 1), (0, 2), (1, 2), (1, 2))      # O > I: bins repeat
    for i, t in enumerate(style.texts_of(p.ax, "bin-label")):     # the longest label that fits
        k = round(2 * t.get_position()[0] + 1 - sum(bins[i]))       # 0: the centre of bin i
        assert k == 0 and t.get_text() in (f"bin {i}: [{bins[i][0]},{bins[i][1]})",
                                           f"[{bins[i][0]},{bins[i][1]})", str(i))
    q = plot_adaptive_bins((6, 7), (4, 3), out_index=(1, 2))
    assert texts(q.output_ax, "bin-size") == ["2x3"] * 12
    assert fixed_pool_contrast(q.geometry).kernel == (3, 3)
    r = plot_adaptive_bins((3, 5), (4, 3), show_fixed=True)
    assert len(r.axes) == 2 and "no fixed-pool workaround" in r.title.get_text()


def test_ax_takes_axes_of_your_own_in_the_documented_order():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3), layout="constrained")
    one = fig.add_subplot()
    p = plot_adaptive_bins(TV25, 4, out_index=2, ax=one)
    assert p.axes == (one,) and p.figure is fig and p.caption is one.title
    assert one.get_title().endswith("output 2: bin [3,6), max 9 at w=5")
    q = move_adaptive_bins(p, 0)
    assert one.get_title().endswith("output 0: bin [0,2), max 3 at w=0") and q.axes == (one,)

    fig2 = new_figure((8, 7), dpi=60, layout="constrained")
    axs = fig2.subplots(2, 2)
    x = np.arange(20.0).reshape(4, 5)
    r = plot_adaptive_bins(x, 2, out_index=(1, 0), show_fixed=True, ax=axs)
    assert r.axes == tuple(axs.ravel()) and r.fixed_output_ax is axs[1, 1]
    assert texts(axs[0, 1], "value") == [style.format_value(v) for v in r.output.ravel()]
    assert texts(axs[1, 1], "value") == [style.format_value(v) for v in r.fixed_output.ravel()]
    assert r.title.get_text().splitlines()[-2:] == r.caption.get_text().splitlines()[-2:]
    assert_texts_inside(fig2)
    # no workaround (I < O): the two extra Axes are turned off
    fig3 = Figure(figsize=(8, 7), layout="constrained")
    axs3 = fig3.subplots(2, 2)
    plot_adaptive_bins((3, 5), (4, 3), show_fixed=True, ax=axs3)
    assert [bool(a.images) for a in axs3.ravel()] == [True, True, False, False]
    assert not any(a.axison for a in axs3.ravel()[2:])


@pytest.mark.parametrize("args, kwargs, exc, match", [
    ((np.zeros((2, 3, 4)), 2), {}, PoolTutorError, "1-D or 2-D"),
    ((np.zeros(5), 3), dict(out_index=3), PoolTutorError, "outside the output"),
    ((np.zeros(5), 3), dict(op="min"), PoolTutorError, "op='min'"),
    ((np.zeros(5), 0), {}, PoolTutorError, "output_size"),
    ((np.zeros(50), 3), {}, PoolTutorError, "at most 40"),
    ((np.array(["a"]), 1), {}, TypeError, "dtype"),
    ((np.zeros(5), 3), dict(show_fixed="yes"), TypeError, "show_fixed='yes'"),
    ((np.zeros(5), 3), dict(ax="x"), TypeError, "ax='x' has type str: need a matplotlib Axes"),
    ((np.zeros((4, 4)), 2), dict(ax="two"), TypeError, "need a matplotlib Axes"),
])
def test_errors_name_the_parameter(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        plot_adaptive_bins(*args, **kwargs)


def test_ax_errors_count_and_figure():
    from matplotlib.figure import Figure

    fig = Figure()
    a, b = fig.subplots(1, 2)
    with pytest.raises(PoolTutorError, match="ax has 2 Axes: need one Axes for a 1-D input"):
        plot_adaptive_bins(TV24, 3, ax=[a, b])
    with pytest.raises(PoolTutorError, match=r"need 4 Axes for a 2-D input with show_fixed"):
        plot_adaptive_bins((4, 4), 2, show_fixed=True, ax=[a, b])
    with pytest.raises(PoolTutorError, match="fig= and ax= were both given"):
        plot_adaptive_bins(TV24, 3, ax=a, fig=fig)
    c = Figure().add_subplot()
    with pytest.raises(PoolTutorError, match="must be on one figure"):
        plot_adaptive_bins((4, 4), 2, ax=[a, c])
    assert len(a.patches) == len(a.images) == 0          # refused before drawing


def test_move_adaptive_bins_is_a_fresh_plot_of_that_cell_and_what_it_refuses():
    x = pi_digits(30).reshape(5, 6)
    p = plot_adaptive_bins(x, (3, 4), show_fixed=True, fig=new_figure((8, 6), dpi=LOW))
    q = move_adaptive_bins(p, (2, 3))
    ref = plot_adaptive_bins(x, (3, 4), (2, 3), show_fixed=True, fig=new_figure((8, 6), dpi=LOW))
    assert q.out_index == (2, 3) and q.bins is p.bins and q.marks is p.marks
    assert marks_facts(q) == marks_facts(ref)
    for one in (TV25, (7,)):
        for op in ("max", "avg"):
            a = plot_adaptive_bins(one, 4, op=op, show_fixed=True)
            for cell in (3, 1, 0):
                assert marks_facts(move_adaptive_bins(a, cell)) == marks_facts(
                    plot_adaptive_bins(one, 4, cell, op=op, show_fixed=True))
    with pytest.raises(PoolTutorError, match="out_index"):
        move_adaptive_bins(q, (3, 0))
    with pytest.raises(TypeError, match="plot has type dict"):
        move_adaptive_bins({}, 0)
    other = plot_adaptive_bins(x, (3, 4), op="avg", show_fixed=True, fig=p.figure)
    assert move_adaptive_bins(p, (1, 1)) is None            # the figure shows another plot
    assert move_adaptive_bins(other, (1, 1)).caption.get_text().startswith(
        f"output (1, 1): bin [1,4) x [1,3), average {style.format_value(other.output[1, 1])}")


# --------------------------------------------------------------------------- texts inside

PICTURES = {
    "1d-tv24": (TV24, 3, dict(out_index=1)),
    "1d-tv25-avg-fixed": (TV25, 4, dict(out_index=3, op="avg", show_fixed=True)),
    "1d-tv26-fixed-exact": (pi_digits(10), 3, dict(out_index=2, show_fixed=True)),
    "1d-32-16-dividing-fixed": (PI32, 16, dict(out_index=15, show_fixed=True)),
    "1d-32-5-avg-fixed": (PI32, 5, dict(op="avg", show_fixed=True)),
    "1d-1-1": (np.array([-1234.5]), 1, dict(show_fixed=True)),
    "1d-shape-O-gt-I": ((2,), 5, dict(out_index=4, show_fixed=True)),
    "1d-shape-fixed": ((7,), 4, dict(show_fixed=True)),
    "1d-40-3-negative-avg": (-np.arange(40.0) * 1.5, 3, dict(op="avg", show_fixed=True)),
    "2d-tv28": (np.arange(25.0).reshape(5, 5), 3, dict(out_index=(1, 1))),
    "2d-fixed": (np.arange(25.0).reshape(5, 5), 3, dict(out_index=(2, 2), show_fixed=True)),
    "2d-dividing-avg-fixed": (pi_digits(24).reshape(4, 6), (2, 3), dict(op="avg",
                                                                          show_fixed=True)),
    "2d-10-4-fixed": ((np.arange(100.0) % 7).reshape(10, 10), 4, dict(out_index=(3, 3),
                                                                        show_fixed=True)),
    "2d-no-workaround": ((3, 5), (4, 3), dict(show_fixed=True)),
    "2d-9x2-avg-fixed": (pi_digits(18).reshape(9, 2), (4, 1), dict(op="avg", show_fixed=True)),
    "2d-1x8-negative": (-np.arange(8.0).reshape(1, 8) / 3, (1, 3), dict(show_fixed=True)),
    "2d-16x16-max": ((np.arange(256.0) % 11).reshape(16, 16), (5, 7), dict(show_fixed=True)),
}


@pytest.mark.parametrize("name", PICTURES)
def test_every_picture_keeps_its_texts_inside_and_cell_numbers_legible(name):
    x, o, kwargs = PICTURES[name]
    p = plot_adaptive_bins(x, o, **kwargs)
    assert_texts_inside(p.figure)
    assert smallest_cell_text(p.figure) >= 7
    assert p.figure.get_layout_engine() is not None


# --------------------------------------------------------------------------- the explorer


def set_cell(e, cell) -> None:
    with e._hold():
        for slider, v in zip(e.cell[2 - len(cell):], cell, strict=True):
            slider.value = v
    e.safe_update()


def change(e, what, value) -> None:
    """Set a control (a tuple sets the (h, w) sliders, or the w slider alone for one value)
    and redraw once, as a user's change does."""
    widget = getattr(e, what)
    with e._hold():
        if isinstance(widget, tuple):
            value = value if isinstance(value, tuple) else (value,)
            for slider, v in zip(widget[2 - len(value):], value, strict=True):
                slider.value = v
        else:
            widget.value = value
    e._on_change()


def same_picture(a: bytes, b: bytes, tmp_path, tol=2.0) -> None:
    pa, pb = tmp_path / "a.png", tmp_path / "b.png"
    pa.write_bytes(a)
    pb.write_bytes(b)
    assert compare_images(str(pb), str(pa), tol=tol) is None


def explorer_facts(e) -> dict:
    """What the explorer's picture holds: the plot's marks and caption, the bins and state."""
    return {**marks_facts(e.plot), "state": dict(e.state), "explain": e.explain_text,
            "bins": [bounds(b) for b in e.plot.bins]}


def test_explorer_wiring_by_state():
    e = AdaptiveBinsExplorer(input_size=5, output_size=3, dpi=LOW)     # digits 3 1 4 1 5
    assert e.state["output"] == [3.0, 4.0, 5.0] and e.state["bin"] == ((0, 2),)
    assert e.plot.figure is e.figure and e.figure.get_layout_engine() is not None
    e.cell[1].value = 1
    assert e.state["bin"] == ((1, 4),) and e.state["winner"] == (2,)
    assert bounds(e.plot.marks["bin"]) == (0.5, -0.5, 3, 1)
    assert e.state["caption"].splitlines() == ["output 1: bin [1,4), max 4 at w=2",
                                               "export workaround: window [1,4) = its bin, "
                                               "value 4"]
    assert "bins [1,4)" in e.explain_text and "[1,4) = the bin, value 4" in e.explain_text
    e.out_size[1].value = 1
    assert e.cell[1].max == 0 and e.state["out_index"] == (0,)
    assert len(e.plot.bins) == 1 and e.state["caption"].startswith("output 0: bin [0,5)")
    e.op.value = "avg"
    assert e.state["op"] == "avg" and e.state["winner"] is None
    assert not e.plot.marks["winner"].get_visible() and "average 2.8" in e.state["caption"]
    e.ndim.value = 2
    assert e.in_size[0].layout.display is None and e.state["input_shape"] == (1, 5)
    assert len(e.plot.axes) == 4
    e.in_size[0].value = 4
    e.out_size[0].value = 3
    assert e.state["input_shape"] == (4, 5) and e.state["output_size"] == (3, 1)
    assert len(e.plot.bins) == 3
    e.ndim.value = 1
    assert e.in_size[0].layout.display == "none" and len(e.state["input_shape"]) == 1
    assert len(e.plot.axes) == 1


@pytest.mark.parametrize("params, steps", [
    (dict(input_size=16, output_size=5), [(1,), (4,), (0,)]),
    (dict(input_size=7, output_size=4, op="avg"), [(3,), (1,)]),
    (dict(input_size=5, output_size=9), [(8,), (3,)]),                  # O > I: no workaround
    (dict(ndim=2, input_size=10, output_size=4), [(0, 1), (3, 3)]),
    (dict(ndim=2, input_size=(3, 5), output_size=(4, 3)), [(3, 2), (0, 1)]),
    (dict(ndim=2, input_size=(5, 6), output_size=(3, 3), op="avg"), [(1, 0), (2, 2)]),
])
def test_explorer_steps_move_the_marks_and_blit_the_picture_of_a_full_draw(params, steps,
                                                                          tmp_path):
    e = AdaptiveBinsExplorer(dpi=LOW, **params)
    bins, background = e.plot.bins, e._blit_background
    for cell in steps:
        set_cell(e, cell)
        assert e.error is None and e.state["out_index"] == cell
        assert e.plot.bins is bins                              # a step: nothing drawn anew
        assert e._blit_background is background                      # blitted on the kept one
        fresh = AdaptiveBinsExplorer(dpi=LOW, out_index=cell if len(cell) == 2 else cell[0],
                                     **params)
        assert explorer_facts(e) == explorer_facts(fresh)
        assert not any(a.get_animated() for a in e.plot.moving)     # savefig draws them
        # the blitted picture is a full draw of the same figure (a fresh explorer holds the
        # same artists: above; its constrained layout may settle a pixel away)
        same_picture(e.png, figure_png(e.figure), tmp_path)
    # the blitted marks and caption lie inside the picture as the layout placed them
    renderer = e.figure.canvas.get_renderer()
    box = e.figure.bbox
    for artist in e.plot.moving:
        ext = artist.get_window_extent(renderer)
        assert box.x0 - 1 <= ext.x0 and ext.x1 <= box.x1 + 1, artist
        assert box.y0 - 1 <= ext.y0 and ext.y1 <= box.y1 + 1, artist
    assert_texts_inside(e.figure)
    assert smallest_cell_text(e.figure) >= 7


def test_explorer_size_changes_and_refused_values_keep_a_right_picture(tmp_path):
    x = (np.arange(42.0) % 9).reshape(6, 7)
    e = AdaptiveBinsExplorer(x, output_size=(4, 3), dpi=LOW)
    set_cell(e, (1, 1))
    good = e.png
    e.ndim.value = 1                         # a 2-D input cannot be shown with 1-D controls
    assert e.error is not None and "output_size" in e.error
    assert e.png == good and e.image.value != good          # the last picture, greyed
    e.cell[1].value = 2                      # still invalid
    assert e.error is not None and e.png == good and e.state["out_index"] == (1, 1)
    e.ndim.value = 2                         # valid again: the same bins, the new cell
    assert e.error is None and e.state["out_index"] == (1, 2)
    assert e.state["bin"] == ((1, 3), (4, 7))
    assert bounds(e.plot.marks["bin"]) == (3.5, 0.5, 3, 2)
    fresh = AdaptiveBinsExplorer(x, output_size=(4, 3), out_index=(1, 2), dpi=LOW)
    assert explorer_facts(e) == explorer_facts(fresh)
    same_picture(e.png, fresh.png, tmp_path)
    change(e, "out_size", (2, 5))            # cells follow the output size
    assert (e.cell[0].max, e.cell[1].max) == (1, 4) and e.state["out_index"] == (1, 2)
    assert len(e.plot.bins) == 10 and e.state["fixed"] == ((3, 3), (3, 1))
    change(e, "out_size", (7, 2))           # I < O on the rows: no workaround, a note
    assert e.error is None and e.state["fixed"] is None and e.plot.fixed_ax is None
    assert e.warnings == ["no fixed-pool export workaround: I=6 < O=7 on axis 0, "
                          "floor(I/O) = 0"]
    assert "no fixed-pool workaround" in e.plot.title.get_text() and len(e.plot.axes) == 2
    set_cell(e, (6, 1))
    assert e.state["bin"] == ((5, 6), (3, 7)) and e.state["winner"] is not None
    assert_texts_inside(e.figure)
    change(e, "show_fixed", False)
    assert e.warnings == [] and "window" not in e.plot.marks


@pytest.mark.parametrize("params, sizes", [
    (dict(input_size=7, output_size=4), [3, 4, 5, 3]),
    (dict(input_size=7, output_size=4, op="avg"), [2, 4]),
    (dict(ndim=2, input_size=(5, 7), output_size=(3, 4)), [3, 4, 5, 3]),
    (dict(ndim=2, input_size=(5, 7), output_size=(3, 4), show_fixed=False), [2, 4]),
])
def test_explorer_output_size_changes_reuse_the_axes_and_match_a_fresh_explorer(
        params, sizes, tmp_path):
    """An output-size change draws on the same Axes (emptied, put back in their grid slots,
    laid out once, the layout then off): after 4 -> 3 -> 4 -> 5 -> 3 the picture, its
    texts and what savefig draws are those of an explorer made with the last settings."""
    e = AdaptiveBinsExplorer(dpi=LOW, **params)
    axes = e.plot.axes
    two = len(axes) == 4
    for w in sizes:
        change(e, "out_size", w)
        set_cell(e, (0, 1) if params.get("ndim") == 2 else (1,))
        assert e.error is None and e.plot.axes == axes and len(e.figure.axes) == len(axes)
        assert e.figure.get_layout_engine() is not None
        out = (params["output_size"][0], w) if params.get("ndim") == 2 else w
        fresh = AdaptiveBinsExplorer(dpi=LOW, **{**params, "output_size": out},
                                     out_index=(0, 1) if params.get("ndim") == 2 else 1)
        assert explorer_facts(e) == explorer_facts(fresh)
        assert np.array([ax.get_position().bounds for ax in e.figure.axes]) == pytest.approx(
            np.array([ax.get_position().bounds for ax in fresh.figure.axes]), abs=1e-9)
        same_picture(e.png, fresh.png, tmp_path)
        same_picture(e.png, figure_png(e.figure), tmp_path)
        assert_texts_inside(e.figure)
    assert (len(e.plot.axes) == 4) == two
    # other panels (no workaround: I < O) are new Axes; and back again
    change(e, "out_size", 9)
    assert e.plot.fixed is None and e.error is None
    change(e, "out_size", sizes[0])
    fresh = AdaptiveBinsExplorer(dpi=LOW, **{**params, "output_size": (
        (params["output_size"][0], sizes[0]) if params.get("ndim") == 2 else sizes[0])})
    set_cell(fresh, (0, 1) if params.get("ndim") == 2 else (1,))
    assert explorer_facts(e) == explorer_facts(fresh)
    same_picture(e.png, fresh.png, tmp_path)


def test_reuse_needs_a_plot_on_that_figure():
    p = plot_adaptive_bins(TV25, 4)
    with pytest.raises(PoolTutorError, match="reuse= needs fig="):
        plot_adaptive_bins(TV25, 3, reuse=p)
    with pytest.raises(TypeError, match="reuse has type"):
        plot_adaptive_bins(TV25, 3, fig=p.figure, reuse="p")
    q = plot_adaptive_bins(TV25, 3, fig=p.figure, reuse=p)            # same panels: reused
    assert q.axes == p.axes and len(q.bins) == 3 and all(b.axes is None for b in p.bins)
    r = plot_adaptive_bins(np.arange(9.0).reshape(3, 3), 2, fig=p.figure, reuse=q)
    assert len(r.axes) == 2 and r.axes[0] is not q.axes[0]          # other panels: new


def test_explorer_out_index_and_constructor_checks():
    e = AdaptiveBinsExplorer(ndim=2, input_size=(5, 6), output_size=(2, 3), out_index=(1, 2),
                             dpi=LOW)
    assert e.state["out_index"] == (1, 2) and (e.cell[0].value, e.cell[1].value) == (1, 2)
    with pytest.raises(ValueError, match=r"out_index=\(4,\) is outside the output"):
        AdaptiveBinsExplorer(output_size=4, out_index=4, dpi=LOW)
    with pytest.raises(ValueError, match="out_index=-1"):
        AdaptiveBinsExplorer(output_size=4, out_index=-1, dpi=LOW)
    with pytest.raises(TypeError, match="out_index=1.5"):
        AdaptiveBinsExplorer(output_size=4, out_index=1.5, dpi=LOW)


def test_explorer_static_widget_one_frame_per_cell():
    e = AdaptiveBinsExplorer(input_size=5, output_size=3, show_fixed=False, dpi=LOW)
    set_cell(e, (2,))
    fw = e.static_widget()
    assert len(fw.stack.children) == 3
    assert [lab.splitlines()[0] for lab in fw.labels] == [
        f"output[0, 0, {i}] = {v}   (adaptive max pooling)"
        for i, v in enumerate(("3.0", "4.0", "5.0"))]
    assert e.state["out_index"] == (2,)                 # the controls are put back
    assert len({bytes(im.value) for im in fw.stack.children}) == 3


def test_explorer_sweep_every_combination_is_drawable():
    e = AdaptiveBinsExplorer(input_size=3, output_size=2, dpi=20)
    notes = 0
    for ndim in (1, 2):
        for i, o in ((3, 1), (3, 2), (1, 2)):
            for show in (False, True):
                with e._hold():
                    e.ndim.value = ndim
                    for a in range(2):
                        e.in_size[a].value, e.out_size[a].value = i, o
                    e.show_fixed.value = show
                    e.op.value = "avg" if o == 2 else "max"
                e._on_change()
                assert e.error is None and e.error_label.value == ""
                assert len(e.plot.bins) == o ** ndim
                if show and i < o:                     # no export workaround: said so
                    assert "no fixed-pool export workaround" in e.warnings[0]
                    assert "no fixed-pool export workaround" in e.note_label.value
                    notes += 1
                else:
                    assert e.warnings == [] and e.note_label.value == ""
    assert notes == 2


# --------------------------------------------------------------------------- regressions


def _explorer_step():
    e = AdaptiveBinsExplorer(ndim=2, input_size=(5, 6), output_size=(3, 4), dpi=40)
    set_cell(e, (2, 1))                                     # a blitted step
    return e


#: The pictures kept as baselines: a plot's figure (saved tight at 40 dpi) or an explorer
#: (its PNG, at 40 dpi)
BASELINES = {
    **{f"adaptive_{name}": (lambda name=name: plot_adaptive_bins(
        PICTURES[name][0], PICTURES[name][1], **PICTURES[name][2]).figure)
       for name in ("1d-tv25-avg-fixed", "1d-shape-O-gt-I", "2d-fixed", "2d-no-workaround")},
    "adaptive_explorer_2d_step": _explorer_step,
}


def _png_of(item) -> bytes:
    if isinstance(item, AdaptiveBinsExplorer):
        return item.png
    import io

    buf = io.BytesIO()
    item.savefig(buf, format="png", dpi=40, bbox_inches="tight")
    return buf.getvalue()


@pytest.mark.picture
@pytest.mark.parametrize("name", BASELINES)
def test_pictures_match_their_baselines(name, tmp_path):
    with matplotlib.rc_context({"font.family": "DejaVu Sans"}):
        png = _png_of(BASELINES[name]())
    out = tmp_path / f"{name}.png"
    out.write_bytes(png)
    assert compare_images(str(BASELINE / f"{name}.png"), str(out), tol=4) is None


if __name__ == "__main__" and "--baselines" in sys.argv:
    BASELINE.mkdir(exist_ok=True)
    with matplotlib.rc_context({"font.family": "DejaVu Sans"}):
        for key, make in BASELINES.items():
            (BASELINE / f"{key}.png").write_bytes(_png_of(make()))
            print("wrote", BASELINE / f"{key}.png")


def test_explorer_1d_hides_only_the_h_sliders():
    """In 1-D the h sliders are hidden and the w sliders shown (each has its own Layout:
    a shared one once hid every slider of notebook 04's 1-D explorer)."""
    from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer

    e = AdaptiveBinsExplorer(input_size=7, output_size=4)
    for h, w in (e.in_size, e.out_size, e.cell):
        assert h.layout.display == "none"
        assert w.layout.display != "none"
        assert h.layout is not w.layout
    e.ndim.value = 2
    assert all(s.layout.display != "none" for pair in (e.in_size, e.out_size, e.cell)
               for s in pair)


@pytest.mark.parametrize("shape, out, show_fixed", [
    ((5, 7), (3, 2), True), ((5, 7), (3, 1), True), ((4, 9), (2, 2), False),
    ((7, 7), (1, 1), True)])
def test_a_narrow_output_keeps_its_titles_inside(shape, out, show_fixed):
    # a 1-2 column output is narrower than "output (adaptive max)" and the fixed pool's
    # title: blank cells right of it keep them inside the picture, saved plainly too
    x = np.arange(float(np.prod(shape))).reshape(shape)
    assert_texts_inside(plot_adaptive_bins(x, out, out_index=(0, 0), show_fixed=show_fixed).figure)
    e = AdaptiveBinsExplorer(ndim=2, input_size=shape, output_size=out, show_fixed=show_fixed)
    assert e.error is None
    assert_texts_inside(e.figure)
