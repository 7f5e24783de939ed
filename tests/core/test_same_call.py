"""pooltutor.spellings: the same pooling spelled in every framework, checked by running it.

Each spelling's structured arguments are run through the pooltutor framework
function it names, on an input other than the probe same_call used, and must
give the engine's result for the settings; the code text is written from
those arguments; the reasons are the framework functions' own.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from pooltutor import frameworks as fw
from pooltutor import pooling
from pooltutor.spellings import FRAMEWORKS, Spelling, same_call, same_call_adaptive, spellings_text
from pooltutor.tensorrt import PaddingModeWarning

SETTINGS = [
    dict(op="max", input_shape=(5, 5), kernel=3, stride=2, padding=1, rounding="ceil_torch"),
    dict(op="max", input_shape=(5, 5), kernel=2, stride=2, padding=1, rounding="ceil"),
    dict(op="max", input_shape=(7,), kernel=3, stride=1, padding="same_upper", dilation=2),
    dict(op="max", input_shape=(6,), kernel=2, stride=2, padding=[(0, 1)]),
    dict(op="max", input_shape=(6, 5), kernel=(3, 2), stride=(2, 1), padding=[(1, 0), (0, 1)],
         rounding="floor_clip"),
    dict(op="max", input_shape=(4, 4, 4), kernel=2, stride=2),
    dict(op="avg", input_shape=(6,), kernel=3, stride=2, padding=1, rounding="ceil_torch",
         count_include_pad=True),
    dict(op="avg", input_shape=(5, 5), kernel=2, stride=2, padding=0),
    dict(op="avg", input_shape=(5, 5), kernel=3, stride=2, padding=1),
    dict(op="avg", input_shape=(8,), kernel=2, stride=3, padding="same_lower",
         count_include_pad=True),
    dict(op="max", input_shape=(6,), kernel=1, stride=2, padding=(3, 3), rounding="caffe",
         pad_taps="lowest"),
]


def _engine(s, x):
    from pooltutor.geometry import same_padding

    n = len(s["input_shape"])
    k = np.broadcast_to(s["kernel"], (n,)).tolist()
    st = np.broadcast_to(s.get("stride", s["kernel"]), (n,)).tolist()
    d = np.broadcast_to(s.get("dilation", 1), (n,)).tolist()
    pad = s.get("padding", 0)
    if isinstance(pad, str):
        pad = [same_padding(i, a, b, c, upper=pad == "same_upper")
               for i, a, b, c in zip(s["input_shape"], k, st, d, strict=True)]
    geo = dict(kernel=k, stride=st, padding=pad, dilation=d, rounding=s.get("rounding", "floor"))
    if s["op"] == "max":
        y = pooling.max_pool(x, **geo, pad_taps=s.get("pad_taps", "skip")).output
    else:
        y = pooling.avg_pool(x, **geo, divisor="padded" if s.get("count_include_pad") else
                             "valid").output
    counts = pooling.avg_pool(np.ones_like(x), **geo, divisor=1).output
    return y, counts


def _run(spelling: Spelling, x):
    with warnings.catch_warnings():          # CAFFE Restriction warnings: in the note
        warnings.simplefilter("ignore", PaddingModeWarning)
        return _run_quiet(spelling, x)


def _run_quiet(spelling: Spelling, x):
    f = getattr(fw, spelling.function)
    if spelling.layout == "channels_last":
        return np.moveaxis(f(np.moveaxis(x, 1, -1), **spelling.kwargs), -1, 1)
    if spelling.layout == "lifted":
        y = f(x[:, :, None], **spelling.kwargs)
    else:
        y = f(x, **spelling.kwargs)
    y = y[0] if isinstance(y, tuple) else y
    return y.reshape(y.shape[:2] + y.shape[3:]) if spelling.layout == "lifted" else y


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: repr(sorted(s.items())))
def test_every_spelling_reproduces_the_settings(settings):
    calls = same_call(**settings)
    assert tuple(calls) == FRAMEWORKS
    rng = np.random.default_rng(7)
    x = (rng.integers(-16, 17, (2, 3) + tuple(settings["input_shape"])) / 4).astype(np.float32)
    want, counts = _engine(settings, x)
    spelled = 0
    for name, s in calls.items():
        assert s.framework == name
        assert (s.code is None) != (s.reason is None)
        if s.code is None:
            assert s.reason and s.function is None
            continue
        spelled += 1
        got = _run(s, x)
        assert got.shape == want.shape, (name, s.code)
        full = np.broadcast_to(counts > 0, want.shape)
        assert np.array_equal(got[full], want[full]), (name, s.code)
    assert spelled >= 2


def test_known_spellings_text():
    calls = same_call("max", (5, 5), 3, 2, 1, rounding="ceil_torch")
    assert calls["PyTorch"].code == ("torch.nn.functional.max_pool2d(x, kernel_size=3, stride=2, "
                                     "padding=1, dilation=1, ceil_mode=True)")
    assert calls["ONNX"].code == ('onnx.helper.make_node("MaxPool", ["x"], ["y"], '
                                  'kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], '
                                  'ceil_mode=1)')
    assert calls["OpenVINO"].code == (
        'openvino.opset14.max_pool(x, strides=[2, 2], dilations=[1, 1], pads_begin=[1, 1], '
        'pads_end=[1, 1], kernel_shape=[3, 3], rounding_type="ceil_torch", auto_pad="explicit")')
    assert calls["TensorRT"].code.splitlines() == [
        "pool = network.add_pooling_nd(x, trt.PoolingType.MAX, window_size=(3, 3))",
        "pool.stride_nd = (2, 2)", "pool.pre_padding = (1, 1)", "pool.post_padding = (1, 1)",
        "pool.padding_mode = trt.PaddingMode.EXPLICIT_ROUND_UP"]
    # ceil_torch and TensorRT's ceil agree for I=5, K=3, S=2, P=1: said in the note
    assert "agrees with 'ceil_torch' for this input size" in calls["TensorRT"].note
    assert calls["TensorFlow"].code == 'tf.nn.max_pool2d(x, ksize=3, strides=2, padding="SAME")'
    dml = calls["DirectML"].code
    assert "DML_MAX_POOLING2_OPERATOR_DESC desc = {};" in dml
    assert "const UINT windowSize[2] = {3, 3};" in dml and "desc.DimensionCount = 2;" in dml


def test_code_is_written_from_the_checked_arguments():
    calls = same_call("max", (9,), 3, 2, [(1, 2)], 2, rounding="ceil")
    ov = calls["OpenVINO"]
    assert ov.kwargs["rounding_type"] == "ceil"
    assert 'rounding_type="ceil"' in ov.code and "pads_end=[2]" in ov.code
    assert "dilations=[2]" in ov.code and ov.kwargs["dilations"] == (2,)


def test_reasons_are_the_framework_functions_own():
    x = np.zeros((1, 1, 6), np.float32)
    calls = same_call("max", (6,), 2, 2, [(0, 1)])
    with pytest.raises(TypeError) as exc:
        fw.torch_max_pool(x, (2,), (2,), ((0, 1),), (1,), ceil_mode=False)
    assert calls["PyTorch"].code is None and calls["PyTorch"].reason == str(exc.value)
    calls = same_call("max", (7, 7), 3, 1, 2)
    with pytest.raises(ValueError) as exc:
        fw.torch_max_pool(np.zeros((1, 1, 7, 7)), (3, 3), (1, 1), (2, 2))
    assert calls["PyTorch"].reason == str(exc.value)        # pad at most half the kernel


@pytest.mark.parametrize("framework,settings,words", [
    ("PyTorch", dict(op="avg", dilation=2), "has no dilation"),
    ("OpenVINO", dict(op="avg", dilation=2), "has no dilation"),
    ("TensorRT", dict(op="max", dilation=2), "has no dilation"),
    ("TensorFlow", dict(op="max", dilation=2), "has no dilation"),
    ("TensorFlow", dict(op="max", padding=1, rounding="ceil"), "neither VALID nor SAME"),
    ("TensorFlow", dict(op="max", padding=1, rounding="ceil"), "two steps"),
    ("DirectML", dict(op="avg"), "DML_MAX_POOLING2_OPERATOR_DESC only"),
    ("DirectML", dict(op="max", rounding="ceil", padding=1), "no ceil mode"),
    ("PyTorch", dict(op="max", rounding="ceil", padding=1),
     "gives output shape (3, 3), these settings (4, 4)"),
])
def test_inexpressible_settings_say_why(framework, settings, words):
    calls = same_call(input_shape=(5, 5), kernel=2, stride=2, **settings)
    s = calls[framework]
    assert s.code is None and not s.expressible
    assert words in s.reason
    assert f"cannot express these settings: {s.reason}" in s.text()


def test_notes():
    calls = same_call("max", (5, 5), 2, 2, 1, rounding="ceil")
    # OpenVINO spells raw ceil; its empty corner window is lowest(), not -inf
    assert calls["OpenVINO"].code is not None
    assert "no input element" in calls["OpenVINO"].note
    calls = same_call("max", (7,), 3, 1, "same_upper", 2)
    assert "onnxruntime gives output shape (5,)" in calls["ONNX"].note   # RUNTIME_RULES same_pads
    calls = same_call("max", (6,), 2, 2)
    assert "x reshaped to (N, C, 1, 6)" in calls["TensorRT"].note
    assert calls["TensorFlow"].note == "x channels last (N, *spatial, C)"


def test_tensorrt_prefers_modes_still_in_tensorrt():
    # axis 0 (TV03): ceil_torch is floor's 3, not ceil's 4; axis 1: it is ceil's 4: no EXPLICIT
    # mode lays both, CAFFE_ROUND_UP does
    calls = same_call("max", (5, 6), (2, 3), 2, 1, rounding="ceil_torch")
    s = calls["TensorRT"]
    assert s.kwargs["padding_mode"] == "CAFFE_ROUND_UP"
    assert "Removed in TensorRT 10" in s.note


def test_adaptive():
    calls = same_call_adaptive("max", (5, 5), (3, 3))
    assert calls["PyTorch"].code == "torch.nn.functional.adaptive_max_pool2d(x, output_size=3)"
    assert 'index_element_type="i32"' in calls["OpenVINO"].code
    for name in ("ONNX", "TensorRT", "TensorFlow", "DirectML"):
        assert calls[name].code is None and "no adaptive pooling" in calls[name].reason
    assert "GlobalMaxPool" in calls["ONNX"].reason
    calls = same_call_adaptive("avg", (6, 4), 1)
    assert calls["ONNX"].code == 'onnx.helper.make_node("GlobalAveragePool", ["x"], ["y"])'
    calls = same_call_adaptive("max", (8,), 4)                  # O divides I: a fixed pool
    assert calls["TensorFlow"].code == 'tf.nn.max_pool1d(x, ksize=2, strides=2, padding="VALID")'
    assert "lays exactly these bins" in calls["TensorFlow"].note
    x = np.random.default_rng(3).normal(size=(2, 2, 8)).astype(np.float32)
    want = pooling.adaptive_max_pool(x, 4).output
    for s in calls.values():
        if s.code is not None:
            assert np.array_equal(_run(s, x), want), s.framework


def test_text_and_read_only():
    calls = same_call("avg", (4, 4), 2)
    text = spellings_text(calls)
    assert text.split("\n\n")[0] == "PyTorch:\n" + calls["PyTorch"].code
    with pytest.raises(TypeError):
        calls["PyTorch"] = None


@pytest.mark.parametrize("kwargs,name", [
    (dict(op="min"), "op="), (dict(rounding="up"), "rounding="), (dict(padding="same"),
                                                                 "padding="),
    (dict(kernel=0), "kernel="), (dict(input_shape=(1, 2, 3, 4)), "input_shape="),
    (dict(count_include_pad=1), "count_include_pad="),
])
def test_bad_input_names_the_parameter(kwargs, name):
    args = dict(op="max", input_shape=(5, 5), kernel=2) | kwargs
    with pytest.raises((ValueError, TypeError), match=name):
        same_call(**args)


def test_settings_the_engine_refuses_raise():
    with pytest.raises(ValueError, match="does not fit"):
        same_call("max", (3,), 5)


def test_sweep_spellings_are_consistent():
    """Over a small grid: each spelling stands iff its function reproduces the settings."""
    for k, s, p, r in itertools.product((1, 2, 3), (1, 2), (0, 1), ("floor", "ceil",
                                                                    "ceil_torch")):
        if p > k:
            continue
        calls = same_call("max", (5,), k, s, p, rounding=r)
        x = np.random.default_rng(k * 10 + s).normal(size=(1, 1, 5)).astype(np.float32)
        want, counts = _engine(dict(op="max", input_shape=(5,), kernel=k, stride=s, padding=p,
                                    rounding=r), x)
        for sp in calls.values():
            if sp.code is not None:
                got = _run(sp, x)
                full = counts > 0
                assert got.shape == want.shape and np.array_equal(got[full], want[full])
