"""plot_padding_modes and PaddingModeExplorer: what the picture holds (state), how it looks
(compare_images against small baselines), and that every text stays inside the image saved
plainly and as Jupyter's inline backend saves it (``bbox_inches="tight"``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from figure_checks import assert_texts_inside, ink_outside_tight
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.testing.compare import compare_images

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.tensorrt import TENSORRT_MODES, mode_geometry, output_geometry
from pooltutor.viz.explorer import new_figure
from pooltutor.viz.padding_explorer import MODE_SETS, PaddingModeExplorer
from pooltutor.viz.padding_modes import MIN_CELL_TEXT, plot_padding_modes

BASELINE = Path(__file__).parent / "baseline"


def _row_text(p, mode, gid):
    """The lines of ``mode``'s row labels with ``gid`` (row-mode, row-numbers, ...)."""
    return [t.get_text() for t in p.row_texts[mode] if t.get_gid() == gid]


def _expected(mode, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mode_geometry(mode, *args, **kw)


# ----------------------------------------------------------------------------- state


def test_rows_show_each_modes_output_size_padding_and_windows():
    p = plot_padding_modes(6, 3, 2, 3, 2)                         # TensorRT Pooling Example 1
    assert list(p.geometries) == list(TENSORRT_MODES) == list(p.axes)
    assert len(p.figure.axes) == 1 and set(map(id, p.axes.values())) == {id(p.figure.axes[0])}
    for mode in TENSORRT_MODES:
        g = _expected(mode, 6, 3, 2, pre_padding=3, post_padding=2).axis
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            og = output_geometry(6, 3, 2, pre_padding=3, post_padding=2, padding_mode=mode)
        assert (g.output_size, g.pad_begin, g.pad_end) == (og.output_size[0],
                                                           og.pre_padding[0],
                                                           og.post_padding[0])
        assert _row_text(p, mode, "row-mode") == [mode]
        numbers = _row_text(p, mode, "row-numbers")[0]
        if mode.startswith("CAFFE"):
            assert numbers == f"O = {g.output_size}, B = A = {g.pad_begin}"
        else:
            assert numbers == f"O = {g.output_size}, B = {g.pad_begin}, A = {g.pad_end}"
        assert p.windows[mode] == tuple((s, s + 2) for s in g.window_starts)
        assert [t for t, _ in p.last_windows[mode]] == list(g.taps(g.output_size - 1))
        # one bar per window, the last in the window colour
        assert p.row_titles[mode].startswith(f"{mode}: O = {g.output_size}")
    bars = p.collections["window-bars"][0]
    assert len(bars.get_segments()) == sum(len(w) for w in p.windows.values())
    assert p.cells["SAME_UPPER"] == {"input": (0, 1, 2, 3, 4, 5), "padding": (6,),
                                     "outside": ()}
    assert p.labels["SAME_LOWER"][:2] == ("-inf", "-1")          # padding rule, then index
    assert p.title == p.title_text.get_text() == \
        "padding modes: I=6, F=3, S=2, B=3, A=2  (padding: -inf)"
    assert p.errors == {} and p.reasons == {}
    assert "(computed; given B, A ignored)" in _row_text(p, "SAME_UPPER", "row-numbers")
    assert p.collections["padding"][0].get_hatch() == "////"
    # CAFFE pads B=3 on both sides: CAFFE_ROUND_UP drops its sixth window (6 -> 5), and
    # both CAFFE rows warn about the header's Restriction 1
    assert [m for m, v in p.dropped.items() if v] == ["CAFFE_ROUND_UP"]
    assert p.dropped["CAFFE_ROUND_UP"] == (7, 8, 9)
    assert "dropped" in p.labels["CAFFE_ROUND_UP"]
    for mode in ("CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"):
        detail = " ".join(_row_text(p, mode, "row-detail"))
        assert "⚠ header Restriction 1 condition holds (warning)" in detail
    assert " ".join(_row_text(p, "CAFFE_ROUND_UP", "row-detail")).startswith(
        "6 → 5 windows: the last one started in the end padding")
    assert _row_text(p, "EXPLICIT_ROUND_DOWN", "row-detail") == []


def test_overhang_is_dashed_and_a_rejection_is_shown_in_its_row():
    p = plot_padding_modes(6, 3, 2, 3, 3)                         # Example 2
    assert p.cells["EXPLICIT_ROUND_UP"]["outside"] == (9,)      # 6 windows, the last at 7
    assert p.last_windows["EXPLICIT_ROUND_UP"] == ((7, "padding"), (8, "padding"),
                                                   (9, "outside"))
    styles = p.collections["window"][0].get_linestyles()
    assert len(set(map(str, styles))) == 2                       # solid and dashed taps
    assert "the last window starts in the end padding: kept (no clip)" in " ".join(
        _row_text(p, "EXPLICIT_ROUND_UP", "row-detail")).replace("\n", " ")
    p = plot_padding_modes(6, 3, 2, 4, 2)                         # B=4: CAFFE_ROUND_UP rejects
    assert list(p.errors) == ["CAFFE_ROUND_UP"] and p.geometries["CAFFE_ROUND_UP"] is None
    reason = p.errors["CAFFE_ROUND_UP"]
    assert "rejects this pooling" in reason
    assert " ".join(_row_text(p, "CAFFE_ROUND_UP", "rejected")) == " ".join(reason.split())
    assert p.row_titles["CAFFE_ROUND_UP"] == "CAFFE_ROUND_UP: rejected"
    assert _row_text(p, "CAFFE_ROUND_UP", "row-numbers") == ["rejected"]
    assert p.reasons["CAFFE_ROUND_UP"].get_gid() == "rejected"
    assert p.windows["CAFFE_ROUND_UP"] == () and p.last_windows["CAFFE_ROUND_UP"] is None
    assert p.collections["input-rejected"][0].get_alpha() == 0.35   # faded cells
    assert p.cells["CAFFE_ROUND_UP"]["padding"] == (-4, -3, -2, -1, 6, 7, 8, 9)
    # the reason lies under the row's cells, inside the Axes
    ax = p.axes["CAFFE_ROUND_UP"]
    band = p.reasons["CAFFE_ROUND_UP"].get_window_extent()
    assert ax.get_window_extent().contains(band.x0 + 1, band.y0 + 1)


def test_values_engine_rules_and_a_size_only_picture():
    x = np.array([1.0, 2.5, -3.0, 4.0, 5.0])
    p = plot_padding_modes(x, 2, 2, 1, 1, modes=("floor", "ceil", "ceil_torch", "caffe",
                                                 "kCAFFE_ROUND_UP"))
    assert list(p.geometries) == ["floor", "ceil", "ceil_torch", "caffe", "CAFFE_ROUND_UP"]
    assert [g.output_size for g in p.geometries.values()] == [3, 4, 3, 3, 3]
    assert p.labels["floor"][2:4] == ("1", "0")                  # value, then its index
    assert "2.5" in p.labels["ceil"] and "-3" in p.labels["ceil"]
    assert p.dropped["ceil"] is None and p.dropped["ceil_torch"] == (5, 6)
    images = p.collections["input-image"][0]
    assert len(images) == 5 and images[0].get_array().tolist() == [x.tolist()]
    size_only = plot_padding_modes(1, 1, modes=("floor",))       # one cell
    assert size_only.cells["floor"] == {"input": (0,), "padding": (), "outside": ()}
    assert size_only.labels["floor"][:2] == ("x0", "0")
    assert "input-separators" not in size_only.collections or not len(
        size_only.collections["input-separators"][0].get_segments())


def test_dilation_draws_each_tap():
    p = plot_padding_modes(7, 3, 2, 1, 1, dilation=2, modes=("floor", "SAME_UPPER"))
    assert p.windows["floor"] == ((-1, 3), (1, 5), (3, 7))
    taps = p.collections["window-tap"][0]
    assert len(taps.get_xdata()) == 3 * sum(len(w) for w in p.windows.values())
    assert "D=2" in p.title


def test_many_cells_drop_cell_texts_but_keep_indices_readable():
    p = plot_padding_modes(400, 3, 2, 1, 1, modes=("floor", "ceil"))
    assert min(t.get_fontsize() for t in p.texts) >= MIN_CELL_TEXT
    assert "x5" not in p.labels["floor"]                         # cells too small for texts
    assert p.cell_inches < 0.05 and p.figure.get_size_inches()[0] < 16


def test_every_text_is_at_least_7_points():
    for args in ((6, 3, 2, 3, 2), (16, 3, 2, 1, 1), (np.arange(6.0), 3, 2, 4, 2)):
        p = plot_padding_modes(*args)
        assert min(t.get_fontsize() for t in p.texts) >= 7
        assert {t.get_gid() for t in p.texts} >= {"value", "index", "row-mode", "row-numbers"}
        assert p.title_text.get_fontsize() >= 7


def test_ax_one_axes_or_one_per_row_and_fig():
    fig = Figure(figsize=(9, 7), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(3, 1)
    p = plot_padding_modes(6, 3, 2, 4, 2, modes=("floor", "SAME_UPPER", "CAFFE_ROUND_UP"),
                           ax=axes)
    assert [p.axes[m] for m in p.geometries] == list(axes)
    assert p.title_text is axes[0].title and p.figure is fig
    assert len(p.text_collections) == 3
    assert _row_text(p, "SAME_UPPER", "row-mode") == ["SAME_UPPER"]
    assert_texts_inside(fig)
    one = Figure(figsize=(8, 5))
    ax = one.add_subplot()
    q = plot_padding_modes(5, 2, 2, 1, 1, modes=("floor", "ceil"), ax=ax)
    assert set(map(id, q.axes.values())) == {id(ax)} and one.axes == [ax]
    q.remove()
    assert not ax.collections and not ax.images and not ax.patches and not ax.lines
    fig2 = new_figure((8, 8), dpi=50)
    r = plot_padding_modes(6, 3, 2, 1, 1, fig=fig2)
    assert tuple(fig2.get_size_inches()) == (8, 8) and len(fig2.axes) == 1
    r2 = plot_padding_modes(6, 3, 1, 1, 1, fig=fig2)              # cleared, drawn again
    assert len(fig2.axes) == 1 and fig2.axes[0] is not r.axes[TENSORRT_MODES[0]]
    assert r2.windows[TENSORRT_MODES[0]][:2] == ((-1, 1), (0, 2))
    fitted = plot_padding_modes(30, 3, 2, 1, 1, fig=new_figure((4, 4)), fit_figure=True)
    assert fitted.figure.get_size_inches()[0] > 4


def test_bad_arguments_name_the_parameter():
    with pytest.raises(PoolTutorError, match="x has shape"):
        plot_padding_modes(np.zeros((2, 2)), 2)
    with pytest.raises(PoolTutorError, match="window=0 is not allowed"):
        plot_padding_modes(5, 0)
    with pytest.raises(PoolTutorError, match="'SAME'.*or an engine rule"):
        plot_padding_modes(5, 2, modes=("SAME",))
    with pytest.raises(PoolTutorError, match="names a mode twice"):
        plot_padding_modes(5, 2, modes=("floor", "floor"))
    with pytest.raises(PoolTutorTypeError, match="modes="):
        plot_padding_modes(5, 2, modes="floor")
    fig = Figure()
    with pytest.raises(PoolTutorTypeError, match="ax= or fig=, not both"):
        plot_padding_modes(5, 2, ax=fig.add_subplot(), fig=fig)
    with pytest.raises(PoolTutorError, match="ax has 2 Axes: need one per mode row \\(6\\)"):
        plot_padding_modes(5, 2, ax=fig.subplots(2, 1))
    with pytest.raises(PoolTutorTypeError, match="ax='x' has type str"):
        plot_padding_modes(5, 2, ax="x")
    with pytest.raises(PoolTutorTypeError, match="fit_figure=1 has type int"):
        plot_padding_modes(5, 2, fit_figure=1)
    with pytest.raises(PoolTutorTypeError, match="fit_figure=True resizes fig=.*SubFigure"):
        plot_padding_modes(5, 2, fig=fig.subfigures(1, 2)[0], fit_figure=True)
    before = len(fig.axes)
    with pytest.raises(PoolTutorError, match="would draw rows of up to"):
        plot_padding_modes(10**6, 2, ax=fig.axes[0])
    assert len(fig.axes) == before and not fig.axes[0].collections   # nothing drawn


# ----------------------------------------------------------------------------- explorer


def test_explorer_state_after_parameter_changes_and_refused_values():
    e = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2)
    ax = e.figure.axes[0]
    assert e.plot.figure is e.figure and e.figure.axes == [ax]
    assert e.plot.title_text.get_text() == \
        "padding modes: I=6, F=3, S=2, B=3, A=2  (padding: -inf)"
    assert e.state["output_sizes"]["CAFFE_ROUND_UP"] == 5
    first = e.png
    e.stride.value = 1
    assert e.figure.axes == [ax] and e.error is None and e.png != first
    assert e.plot.windows["EXPLICIT_ROUND_DOWN"][:3] == ((-3, -1), (-2, 0), (-1, 1))
    assert e.plot.title == "padding modes: I=6, F=3, S=1, B=3, A=2  (padding: -inf)"
    # the last picture's artists are gone: one set of collections on the Axes
    assert sorted(c.get_gid() for c in ax.collections).count("window-bars") == 1
    assert set(ax.collections) <= set(e.plot.artists)
    e.pre_padding.value = 4                                      # B=4 on both sides, S=1:
    assert sorted(e.state["rejected"]) == ["CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"]
    e.stride.value = 2                                           # now CAFFE_ROUND_UP only
    assert sorted(e.state["rejected"]) == ["CAFFE_ROUND_UP"]
    assert _row_text(e.plot, "CAFFE_ROUND_UP", "rejected")
    assert e.plot.row_titles["CAFFE_ROUND_UP"] == "CAFFE_ROUND_UP: rejected"
    e.explain_mode.value = "CAFFE_ROUND_UP"
    assert e.explain_text.startswith("CAFFE_ROUND_UP rejects these parameters")
    e.mode_set.value = "engine rules"
    assert list(e.plot.geometries) == list(MODE_SETS["engine rules"])
    assert [t.get_text() for t in e.plot.row_texts["floor"]][:1] == ["floor"]
    good = (e.plot, e.png, list(ax.collections))
    # a refused value: the reason shown, the picture and its artists kept as they were
    e.input_size.max = 5000
    e.input_size.value = 3000
    assert e.error is not None and "would draw rows of up to" in e.error
    assert (e.plot, e.png, list(ax.collections)) == good
    assert bytes(e.image.value) != e.png                         # greyed
    e.input_size.value = 9
    assert e.error is None and e.plot.cells["floor"]["input"] == tuple(range(9))
    assert e.state["params"]["input_size"] == 9


def test_explorer_pictures_keep_every_text_inside():
    e = PaddingModeExplorer(input_size=16, window=3, stride=2, pre_padding=1, post_padding=1)
    assert_texts_inside(e.figure)
    e.pre_padding.value = 0
    e.post_padding.value = 0
    e.window.value = 7
    e.input_size.value = 1                                       # rejections but SAME
    assert e.error is None and len(e.state["rejected"]) == 4
    assert_texts_inside(e.figure)
    e.mode_set.value = "ceil mode across frameworks"
    assert_texts_inside(e.figure)


# ----------------------------------------------------------------------------- inside the image

CASES = {
    "all six modes, Example 1": ((6, 3, 2, 3, 2), {}),
    "long CAFFE warnings, Example 2, values": ((np.arange(6.0), 3, 2, 3, 3), {}),
    "rejections (B=4)": ((6, 3, 2, 4, 2), {}),
    "every row rejects": ((1, 7, 1, 0, 0), {"modes": ("floor", "ceil", "CAFFE_ROUND_UP")}),
    "one cell": ((1, 1), {"modes": ("floor",)}),
    "many cells": ((200, 3, 2, 2, 2), {}),
    "dilation, negative values": ((np.array([-5.0, 2.25, -0.5, 7, 3, -1, 0]), 3, 2, 1, 1),
                                  {"dilation": 2}),
    "long title": ((5, 2, 2, 1, 1), {"title": "a title " * 20, "modes": ("ceil_torch",)}),
    "small fig": ((6, 3, 2, 4, 2), {"fig": "small"}),
    "subfigure": ((5, 2, 2, 1, 1), {"fig": "subfigure", "modes": ("ceil_torch",
                                                                  "CAFFE_ROUND_UP")}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_texts_inside_plain_and_tight(case):
    args, kw = CASES[case]
    if kw.get("fig") == "small":
        kw = dict(kw, fig=new_figure((5, 4), dpi=80))
    elif kw.get("fig") == "subfigure":
        kw = dict(kw, fig=new_figure((12, 5), dpi=80).subfigures(1, 2)[1])
    p = plot_padding_modes(*args, **kw)
    root = p.figure.figure                       # the Figure (of a SubFigure)
    assert_texts_inside(root)
    assert ink_outside_tight(root) == 0


# ----------------------------------------------------------------------------- regressions

PICTURES = {
    "padding_modes_example1": lambda: plot_padding_modes(
        6, 3, 2, 3, 2, modes=("EXPLICIT_ROUND_UP", "SAME_LOWER", "CAFFE_ROUND_UP")),
    "padding_modes_rejected": lambda: plot_padding_modes(
        np.array([1.0, 2.5, -3.0, 4.0, 0.5, 7.0]), 3, 2, 4, 2,
        modes=("ceil_torch", "CAFFE_ROUND_UP")),
}


@pytest.mark.picture
@pytest.mark.parametrize("name", list(PICTURES))
def test_picture_matches_its_baseline(name, tmp_path):
    with matplotlib.rc_context({"font.family": "DejaVu Sans"}):
        p = PICTURES[name]()
        out = tmp_path / f"{name}.png"
        p.figure.savefig(out, dpi=50, bbox_inches="tight")
    result = compare_images(str(BASELINE / f"{name}.png"), str(out), tol=3)
    assert result is None, result
