"""Padding-mode plots and their explorer (the plot_pooling / WindowStepper / explorer-base
tests moved to tests/viz/test_heatmaps.py, test_window_stepper.py and test_explorer.py).

What is drawn is checked through artist gids, texts, titles and colour limits; the
explorer by setting control values and reading the new state, figure and labels.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.padding_modes import output_geometry
from pooltutor.viz import style
from pooltutor.viz.explorer import new_figure
from pooltutor.viz.padding_explorer import MODE_SETS, PaddingModeExplorer, padding_mode_frames
from pooltutor.viz.padding_modes import TENSORRT_MODES, mode_geometry, plot_padding_modes


def _png_ok(data) -> bool:
    return bytes(data[:8]) == b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------------------------- padding modes


def test_padding_modes_match_the_core_and_draw_each_row():
    # TensorRT Pooling Example 1 (I=6, B=3, A=2, S=2, F=3)
    p = plot_padding_modes(6, 3, 2, 3, 2)
    assert list(p.geometries) == list(TENSORRT_MODES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for mode in TENSORRT_MODES:
            og = output_geometry(6, 3, 2, pre_padding=3, post_padding=2, padding_mode=mode)
            g = p.geometries[mode].axis
            assert (g.output_size, g.pad_begin, g.pad_end) == (og.output_size[0],
                                                               og.pre_padding[0],
                                                               og.post_padding[0])
            assert g.window_starts == og.window_starts[0]
            assert len(p.bars[mode].get_segments()) == g.output_size
            assert p.row_titles[mode].startswith(f"{mode}: O = {g.output_size}")
    assert p.cells["SAME_UPPER"] == {"input": (0, 1, 2, 3, 4, 5), "padding": (6,),
                                     "outside": ()}
    assert p.cells["EXPLICIT_ROUND_UP"]["outside"] == ()
    assert p.labels["SAME_LOWER"][:2] == ("-inf", "-1")      # padding rule, then the index
    assert p.title == "padding modes: I=6, F=3, S=2, B=3, A=2  (padding: -inf)"
    assert p.errors == {}
    # CAFFE modes pad B=3 on both sides (Example 2's geometry): CAFFE_ROUND_UP drops 6 -> 5
    assert [m for m, v in p.dropped.items() if v] == ["CAFFE_ROUND_UP"]
    assert p.collections["padding"].get_hatch() == style.PAD_HATCH


def test_caffe_drop_and_rejection_are_drawn_not_raised():
    p = plot_padding_modes(6, 3, 2, 3, 3)                    # Example 2: CAFFE_ROUND_UP 6 -> 5
    # EXPLICIT_ROUND_UP keeps 6 windows: the last starts at 7 and overhangs the padded input
    assert p.cells["EXPLICIT_ROUND_UP"]["outside"] == (9,)
    last = p.last_windows["EXPLICIT_ROUND_UP"]
    assert [round(pth.vertices[0][0] + 0.5) for pth in last.get_paths()] == [7, 8, 9]
    assert [str(ls) for ls in last.get_linestyles()][-1] != str(last.get_linestyles()[0])
    outline, bar, label = p.dropped["CAFFE_ROUND_UP"]
    assert label == "dropped: starts in end padding" and label in p.labels["CAFFE_ROUND_UP"]
    assert outline.get_gid() == "dropped" and len(outline.get_paths()) == 3
    assert any(t.startswith("6 → 5 windows") for t in p.labels["CAFFE_ROUND_UP"])
    assert any("Restriction 1" in t for t in p.labels["CAFFE_ROUND_DOWN"])
    p = plot_padding_modes(6, 3, 2, 4, 2)                    # B=4: CAFFE_ROUND_UP rejects
    assert p.geometries["CAFFE_ROUND_UP"] is None
    reason = p.errors["CAFFE_ROUND_UP"]
    assert "rejects this pooling" in reason
    shown = [t.get_text() for t in p.ax.texts if t.get_gid() == "rejected"]
    assert len(shown) == 1 and shown[0].replace("\n", " ") == reason
    assert p.row_titles["CAFFE_ROUND_UP"] == "CAFFE_ROUND_UP: rejected"
    assert p.collections["input-rejected"].get_alpha() == 0.35


def test_padding_modes_values_engine_rules_and_errors():
    x = np.array([1.0, 2.5, -3.0, 4.0, 5.0])
    p = plot_padding_modes(x, 2, 2, 1, 1, modes=("floor", "ceil", "ceil_torch", "caffe",
                                                 "kCAFFE_ROUND_UP"))
    assert [p.geometries[m].output_size for m in ("floor", "ceil", "ceil_torch", "caffe",
                                                  "CAFFE_ROUND_UP")] == [3, 4, 3, 3, 3]
    assert p.labels["floor"][2:4] == ("1", "0")              # value, then its index
    assert "2.5" in p.labels["ceil"]
    assert p.dropped["ceil"] == [] and p.dropped["ceil_torch"][-1].startswith("dropped")
    assert mode_geometry("ceil", 5, 2, 2, pre_padding=1, post_padding=1).explain().startswith(
        "rounding 'ceil'")
    with pytest.raises(PoolTutorError, match="x has shape"):
        plot_padding_modes(np.zeros((2, 2)), 2)
    with pytest.raises(PoolTutorError, match="window=0 is not allowed"):
        plot_padding_modes(5, 0)
    with pytest.raises(PoolTutorError, match="padding_mode|modes='SAME'"):
        plot_padding_modes(5, 2, modes=("SAME",))
    with pytest.raises(PoolTutorError, match="names a mode twice"):
        plot_padding_modes(5, 2, modes=("floor", "floor"))
    with pytest.raises(PoolTutorTypeError, match="modes="):
        plot_padding_modes(5, 2, modes="floor")


def test_padding_modes_reuses_its_axes_on_a_persistent_figure():
    fig = new_figure((8, 8), dpi=50)
    p1 = plot_padding_modes(6, 3, 2, 1, 1, fig=fig)
    n1 = (len(p1.ax.collections), len(p1.ax.lines), len(p1.ax.texts))
    plot_padding_modes(6, 3, 1, 1, 1, fig=fig)
    p2 = plot_padding_modes(6, 3, 2, 1, 1, fig=fig)
    assert p2.ax is p1.ax and fig.axes == [p2.ax]
    assert (len(p2.ax.collections), len(p2.ax.lines), len(p2.ax.texts)) == n1


# ----------------------------------------------------------------------------- PaddingModeExplorer


def test_padding_explorer_wiring():
    e = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2)
    assert e.state["output_sizes"] == {"EXPLICIT_ROUND_DOWN": 5, "EXPLICIT_ROUND_UP": 5,
                                       "SAME_UPPER": 3, "SAME_LOWER": 3, "CAFFE_ROUND_DOWN": 5,
                                       "CAFFE_ROUND_UP": 5}
    assert e.explain_text.startswith("Pooling with TensorRT padding mode EXPLICIT_ROUND_DOWN")
    e.explain_mode.value = "SAME_UPPER"
    assert "B = floor(" in e.explain_text
    e.pre_padding.value = 4
    assert e.state["rejected"].keys() == {"CAFFE_ROUND_UP"} and e.error is None
    e.explain_mode.value = "CAFFE_ROUND_UP"
    assert e.explain_text.startswith("CAFFE_ROUND_UP rejects these parameters")
    e.mode_set.value = "engine rules"
    assert e.explain_mode.options == MODE_SETS["engine rules"]
    assert e.explain_mode.value == "floor" and list(e.state["output_sizes"]) == \
        list(MODE_SETS["engine rules"])
    assert e.explain_text.startswith("rounding 'floor'")
    e.window.value = 7                                       # fits M = 6+4+2 = 12
    assert e.state["output_sizes"]["floor"] == 3
    e.stride.value = 1                                       # ceil rules keep a window that
    e.pre_padding.value = 0                                  # overhangs by less than S
    e.post_padding.value = 0                                 # 7 > M = 6: every rule rejects
    assert set(e.state["rejected"]) == set(MODE_SETS["engine rules"])
    assert all("does not fit" in r for r in e.state["rejected"].values())
    assert e.plot.figure is e.figure and _png_ok(e.image.value)


def test_padding_explorer_sweep_never_raises():
    e = PaddingModeExplorer()
    e.render = lambda: b""
    values = dict(input_size=(1, 2, 5), window=(1, 2, 3), stride=(1, 2, 3), dilation=(1, 2),
                  pre_padding=(0, 1, 4), post_padding=(0, 2))
    combos = list(itertools.product(*values.values(), MODE_SETS))
    rng = np.random.default_rng(7)
    for i in rng.choice(len(combos), size=45, replace=False):
        *numbers, mode_set = combos[i]
        e._syncing = True
        for widget, v in zip(e.params, numbers, strict=True):
            widget.value = v
        e.mode_set.value = mode_set
        e._syncing = False
        e.safe_update()
        assert e.error is None, (combos[i], e.error)
        i_, f, s, d, b, a = numbers
        for mode in MODE_SETS[mode_set]:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = mode_geometry(mode, i_, f, s, pre_padding=b, post_padding=a,
                                             dilation=d).output_size
            except PoolTutorError as exc:
                expected = None
                assert e.state["rejected"][mode] == str(exc)
            assert e.state["output_sizes"][mode] == expected, (combos[i], mode)


def test_padding_explorer_kernel_free_frames():
    fw = padding_mode_frames({"Example 2": (6, 3, 2, 3, 3, 1), "B=4": (6, 3, 2, 4, 2, 1)},
                             input_size=5)
    assert len(fw.stack.children) == 2 and fw.labels[0] == "Example 2: I=6, F=3, S=2, B=3, A=3"
    assert all(_png_ok(img.value) for img in fw.stack.children)
    e = PaddingModeExplorer(input_size=4)
    e.static_widget({"one": (7, 2, 2, 1, 1, 1)})
    assert e.input_size.value == 4                           # controls put back
