"""Padding-mode plots and their explorer (the plot_pooling / WindowStepper / explorer-base
tests moved to tests/viz/test_heatmaps.py, test_window_stepper.py and test_explorer.py).

What is drawn is checked through artist gids, texts, titles and colour limits; the
explorer by setting control values and reading the new state, figure and labels.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np

from pooltutor.errors import PoolTutorError
from pooltutor.viz.padding_explorer import MODE_SETS, PaddingModeExplorer, padding_mode_frames
from pooltutor.tensorrt import mode_geometry

def _png_ok(data) -> bool:
    return bytes(data[:8]) == b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------------------------- padding modes
# (the plot's tests: tests/viz/test_padding_modes_plot.py)


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
