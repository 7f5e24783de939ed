"""The code panel under each explorer's picture ("the same call everywhere"), by state.

After each parameter change the panel shows pooltutor.spellings' spelling of
the settings on screen, one focusable block per framework, the reason where a
framework cannot express them; a position step does not spell again.
"""

from __future__ import annotations

import html

import numpy as np
import pytest

from pooltutor.spellings import FRAMEWORKS, same_call, same_call_adaptive, spellings_text
from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer
from pooltutor.viz.index_explorer import IndexLayoutExplorer
from pooltutor.viz.padding_explorer import PaddingModeExplorer
from pooltutor.viz.relu_explorer import ZeroPointReluExplorer
from pooltutor.viz.window_stepper import WindowStepper


def _check_panel(e, calls):
    assert e.error is None
    assert e.same_call_text == spellings_text(calls)
    assert dict(e.same_call) == dict(calls)
    panel = e.code_panel.value
    assert e.code_panel in e.widget.children
    assert panel.count('tabindex="0"') == len(FRAMEWORKS)         # every block focusable
    for name, s in calls.items():
        assert f'aria-label="{name}"' in panel
        if s.code is not None:
            assert html.escape(s.code) in panel
        else:
            assert f"<b>cannot express these settings:</b> {html.escape(s.reason)}" in panel


def test_window_stepper_panel_follows_the_controls():
    s = WindowStepper(size=5, window=2, stride=2, padding=1, rounding="ceil_torch", dpi=30)
    _check_panel(s, same_call("max", (5, 5), 2, 2, [(1, 1)] * 2, rounding="ceil_torch"))
    assert s.same_call["PyTorch"].code.endswith("ceil_mode=True)")
    s.pad_after.value = 0                          # asymmetric: PyTorch cannot
    _check_panel(s, same_call("max", (5, 5), 2, 2, [(1, 0)] * 2, rounding="ceil_torch"))
    assert s.same_call["PyTorch"].code is None and "symmetric" in s.same_call["PyTorch"].reason
    s.op.value = "avg"
    s.dilation.value = 2
    _check_panel(s, same_call("avg", (5, 5), 2, 2, [(1, 0)] * 2, 2, rounding="ceil_torch"))
    assert "no dilation" in s.same_call["PyTorch"].reason
    s.rounding.value = "ceil"
    s.dilation.value = 1
    _check_panel(s, same_call("avg", (5, 5), 2, 2, [(1, 0)] * 2, rounding="ceil"))
    assert s.same_call["OpenVINO"].code is not None


def test_window_stepper_position_step_keeps_the_spelling():
    s = WindowStepper(size=4, window=2, stride=1, dpi=30)
    calls = s.same_call
    s.position.value = 3
    assert s.same_call is calls


def test_refused_settings_keep_the_last_panel():
    s = WindowStepper(size=4, window=2, stride=2, dpi=30)
    s.dilation.value = 3
    text = s.same_call_text
    s.window.value = 4                 # dilated window 10 > 4: refused
    assert s.error is not None and s.same_call_text == text
    s.window.value = 2
    _check_panel(s, same_call("max", (4, 4), 2, 2, [(0, 0)] * 2, 3))


def test_padding_mode_explorer_panel_is_the_explained_mode():
    e = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=1, post_padding=1,
                            dpi=30)
    _check_panel(e, same_call("max", (6,), 3, 2, [(1, 1)], rounding="floor"))
    e.explain_mode.value = "SAME_LOWER"
    _check_panel(e, same_call("max", (6,), 3, 2, "same_lower"))
    assert 'auto_pad="SAME_LOWER"' in e.same_call["ONNX"].code
    e.explain_mode.value = "EXPLICIT_ROUND_UP"
    e.post_padding.value = 2
    _check_panel(e, same_call("max", (6,), 3, 2, [(1, 2)], rounding="ceil"))
    assert "EXPLICIT_ROUND_UP" in e.same_call["TensorRT"].code
    e.explain_mode.value = "CAFFE_ROUND_UP"
    _check_panel(e, same_call("max", (6,), 3, 2, [(1, 1)], rounding="ceil_torch"))
    e.pre_padding.value = 4                     # CAFFE_ROUND_UP rejects: no call, said so
    assert e.same_call is None and e.same_call_text == "no call: CAFFE_ROUND_UP rejects these " \
                                                       "parameters"
    assert "CAFFE_ROUND_UP rejects" in e.code_panel.value


def test_index_explorer_panel():
    e = IndexLayoutExplorer(dpi=30)
    _check_panel(e, same_call("max", (2, 3), 2, 1, 0))
    e.padding.value = 1
    e.stride.value = 2
    _check_panel(e, same_call("max", (2, 3), 2, 2, 1))


def test_adaptive_explorer_panel():
    e = AdaptiveBinsExplorer(input_size=7, output_size=4, dpi=30)
    _check_panel(e, same_call_adaptive("max", (7,), (4,)))
    assert "no adaptive pooling" in e.same_call["ONNX"].reason
    e.out_size[1].value = 7
    _check_panel(e, same_call_adaptive("max", (7,), (7,)))
    assert e.same_call["ONNX"].code is not None       # O divides I: a fixed MaxPool
    e.ndim.value = 2
    e.op.value = "avg"
    shape = (e.in_size[0].value, e.in_size[1].value)
    _check_panel(e, same_call_adaptive("avg", shape, (e.out_size[0].value, 7)))


def test_quantized_relu_explorer_has_no_panel():
    e = ZeroPointReluExplorer(dpi=30)
    assert e.same_call is None and e.code_panel.value == ""


@pytest.mark.parametrize("size", [1, 3])
def test_stepper_1d(size):
    s = WindowStepper(np.arange(float(size)), window=1, stride=1, dpi=30)
    _check_panel(s, same_call("max", (size,), 1, 1, [(0, 0)]))
