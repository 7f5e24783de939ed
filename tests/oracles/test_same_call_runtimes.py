"""The spellings of pooltutor.spellings.same_call, executed in the real runtimes.

Each code text (PyTorch, ONNX, OpenVINO, TensorFlow) is evaluated as it is
shown, with ``x`` bound to the runtime's input, and must give what the
pooltutor framework function it was checked with gives for its arguments
with ``follow="runtime"`` (refusals included).  TensorRT and DirectML cannot
run here.  Inputs are multiples of 1/4, so averages are exact.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from oracle_runtimes import require

from pooltutor import frameworks as fw
from pooltutor.spellings import same_call, same_call_adaptive

SETTINGS = [
    ("max", (5, 5), 3, 2, 1, 1, "ceil_torch", False),
    ("max", (5, 5), 2, 2, 1, 1, "ceil", False),
    ("max", (7,), 3, 1, "same_upper", 2, "floor", False),
    ("max", (6,), 2, 2, [(0, 1)], 1, "floor", False),
    ("max", (6, 5), (3, 2), (2, 1), [(1, 0), (0, 1)], 1, "floor", False),
    ("max", (9, 7), 3, 2, 1, 2, "floor", False),
    ("max", (4, 4, 4), 2, 2, 0, 1, "floor", False),
    ("avg", (6,), 3, 2, 1, 1, "ceil_torch", True),
    ("avg", (5, 5), 2, 2, 0, 1, "floor", False),
    ("avg", (5, 5), 3, 2, 1, 1, "floor", False),
    ("avg", (7, 6), 3, 2, 1, 1, "ceil_torch", False),
    ("avg", (8,), 2, 3, "same_lower", 1, "floor", True),
]
ADAPTIVE = [("max", (5, 5), (3, 3)), ("avg", (6,), 3), ("max", (6, 4), 1), ("avg", (8, 6), 2)]


def _x(shape, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.integers(-16, 17, (2, 3) + tuple(shape)) / 4).astype(np.float32)


def _expected(spelling, x):
    """The pooltutor function's follow="runtime" result, or the exception it raises."""
    f = getattr(fw, spelling.function)
    try:
        if spelling.layout == "channels_last":
            return np.moveaxis(f(np.moveaxis(x, 1, -1), **spelling.kwargs, follow="runtime"),
                               -1, 1)
        y = f(x, **spelling.kwargs, follow="runtime")
    except ValueError as exc:
        return exc
    return y[0] if isinstance(y, tuple) else y


def _run_torch(code, x):
    torch = require("torch")
    return eval(code, {"torch": torch, "x": torch.from_numpy(x)}).numpy()  # noqa: S307


def _run_onnx(code, x):
    onnx = require("onnx")
    ort = require("onnxruntime")
    from onnx import TensorProto, helper

    node = eval(code, {"onnx": onnx})                                     # noqa: S307
    graph = helper.make_graph([node], "same_call",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    options = ort.SessionOptions()
    options.log_severity_level = 4
    sess = ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def _run_openvino(code, x):
    openvino = require("openvino")
    for sub in ("openvino.opset8", "openvino.opset14"):     # the code texts name them
        importlib.import_module(sub)
    param = openvino.opset14.parameter(list(x.shape), np.float32)
    node = eval(code, {"openvino": openvino, "np": np, "x": param})      # noqa: S307
    model = openvino.Model([node.output(0)], [param])
    compiled = openvino.Core().compile_model(model, "CPU")
    return np.array(compiled([x])[compiled.output(0)])


def _run_tensorflow(code, x):
    tf = require("tensorflow")
    return np.moveaxis(eval(code, {"tf": tf, "x": tf.constant(np.moveaxis(x, 1, -1))}).numpy(),
                       -1, 1)                                              # noqa: S307


RUNNERS = {"PyTorch": _run_torch, "ONNX": _run_onnx, "OpenVINO": _run_openvino,
           "TensorFlow": _run_tensorflow}


def _check(calls, x, name):
    s = calls[name]
    if s.code is None:
        return False
    want = _expected(s, x)
    if isinstance(want, Exception):
        with pytest.raises(Exception):  # noqa: B017, PT011 - the runtime refuses it too
            RUNNERS[name](s.code, x)
        return True
    got = RUNNERS[name](s.code, x)
    assert got.shape == want.shape, (s.code, got.shape, want.shape)
    assert np.array_equal(got, want.astype(got.dtype), equal_nan=True), s.code
    return True


@pytest.mark.parametrize("name", list(RUNNERS))
def test_spellings_run_in_the_runtime(name):
    ran = 0
    for i, settings in enumerate(SETTINGS):
        op, shape, k, s, p, d, r, include = settings
        calls = same_call(op, shape, k, s, p, d, rounding=r, count_include_pad=include)
        ran += _check(calls, _x(shape, i), name)
    assert ran >= 5, f"only {ran} of {len(SETTINGS)} settings spelled in {name}"


@pytest.mark.parametrize("name", list(RUNNERS))
def test_adaptive_spellings_run_in_the_runtime(name):
    ran = 0
    for i, (op, shape, out) in enumerate(ADAPTIVE):
        ran += _check(same_call_adaptive(op, shape, out), _x(shape, 10 + i), name)
    assert ran >= 2
