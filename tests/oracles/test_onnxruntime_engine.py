"""The engine against ONNX Runtime's CPU MaxPool / AveragePool, for everything ONNX can express.

ONNX semantics in engine terms (docs/semantics.md §2.2): ``ceil_mode=1`` is
``rounding="ceil_torch"``; padding is never selected (``pad_taps="skip"``); a
window without an input element is the lowest finite value in ORT
(``empty_value="lowest"``; -inf for float16) and its index is left out (see
the last test); ties go to the first maximum in row-major order;
``Indices`` are ``index_layout="tensor"`` (``storage_order=1``:
``"tensor_colmajor"``); ``count_include_pad`` 0 / 1 is ``divisor="valid"`` /
``"padded"``.

Not compared here: NaN (ORT's answer depends on which kernel runs, TV17-TV19),
pads >= kernel (ORT rejects them at session creation), auto_pad (ORT's SAME
ignores dilation, TV12).  Cases are drawn from a fixed seed so that every run
compares the same ones; each session is built once per parameter set and run on
two inputs of different shapes.
"""

from __future__ import annotations

import functools

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from pooltutor.pooling import avg_pool, max_pool

pytestmark = pytest.mark.onnx

ONNX_TYPES = {
    "float32": TensorProto.FLOAT,
    "float64": TensorProto.DOUBLE,
    "float16": TensorProto.FLOAT16,
    "int8": TensorProto.INT8,
    "uint8": TensorProto.UINT8,
}


def _model(op, dtype, ndim, attrs, with_indices, opset):
    spatial = [f"D{i}" for i in range(ndim)]
    x = helper.make_tensor_value_info("X", ONNX_TYPES[dtype], ["N", "C", *spatial])
    out_shape = ["N", "C", *(f"O{i}" for i in range(ndim))]
    outputs = [helper.make_tensor_value_info("Y", ONNX_TYPES[dtype], out_shape)]
    if with_indices:
        outputs.append(helper.make_tensor_value_info("Indices", TensorProto.INT64, out_shape))
    node = helper.make_node(op, ["X"], [o.name for o in outputs], **dict(attrs))
    graph = helper.make_graph([node], f"{op.lower()}_{ndim}d", [x], outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = min(model.ir_version, 10)
    onnx.checker.check_model(model)
    return model


def _session(model):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


@functools.lru_cache(maxsize=1)
def opset() -> int:
    """22 when this onnxruntime runs it, else the highest opset it runs (>= 19 for dilations)."""
    for candidate in range(22, 18, -1):
        model = _model("MaxPool", "float32", 1, (("kernel_shape", [1]),), True, candidate)
        try:
            _session(model)
        except Exception:  # noqa: BLE001 - onnxruntime refuses opsets it does not know
            continue
        return candidate
    raise RuntimeError(f"onnxruntime {ort.__version__} runs none of the opsets 19-22")


@functools.cache
def session(op, dtype, ndim, attrs, with_indices):
    """One cached session per parameter set (``attrs`` is a hashable tuple)."""
    return _session(_model(op, dtype, ndim, attrs, with_indices, opset()))


# --------------------------------------------------------------------------- cases


def _draw_case(rng, dtype):
    ndim = int(rng.integers(1, 4))
    kernel, stride, dilation, begin, end = [], [], [], [], []
    for _ in range(ndim):
        k = int(rng.integers(1, 5))
        kernel.append(k)
        stride.append(int(rng.integers(1, 4)))
        dilation.append(int(rng.choice([1, 1, 2, 3])))
        begin.append(int(rng.integers(0, k)))           # ORT: every pad < kernel
        end.append(int(rng.integers(0, k)))
    return dict(dtype=dtype, ndim=ndim, kernel=tuple(kernel), stride=tuple(stride),
                dilation=tuple(dilation), pads=tuple(begin + end),
                ceil=int(rng.integers(0, 2)), storage_order=int(rng.integers(0, 2)),
                seed=int(rng.integers(0, 2**31)))


def _cases(count=170):
    rng = np.random.default_rng(20250105)
    dtypes = ["float32"] * 6 + ["float64"] * 4 + ["int8", "uint8", "float16"]
    return [_draw_case(rng, dtypes[i % len(dtypes)]) for i in range(count)]


CASES = _cases()


def _inputs(case):
    """Two inputs of different shapes whose windows fit the padded extent (under ceil_mode
    also a first window that hangs over it by less than a stride, as ONNX allows)."""
    rng = np.random.default_rng(case["seed"])
    ndim, pads = case["ndim"], case["pads"]
    arrays = []
    for _ in range(2):
        sizes = []
        for i in range(ndim):
            dk = (case["kernel"][i] - 1) * case["dilation"][i] + 1
            overhang = case["stride"][i] - 1 if case["ceil"] else 0
            low = max(1, dk - pads[i] - pads[ndim + i] - overhang)
            sizes.append(int(rng.integers(low, low + 6)))
        shape = (int(rng.integers(1, 3)), int(rng.integers(1, 4)), *sizes)
        dtype = np.dtype(case["dtype"])
        if dtype.kind == "f":
            if rng.random() < 0.5:       # small integers: many ties
                x = rng.integers(-3, 4, size=shape).astype(dtype)
            else:
                x = rng.standard_normal(shape).astype(dtype) * 10
        else:
            info = np.iinfo(dtype)
            x = rng.choice([info.min, info.min + 1, -1, 0, 1, 7, info.max - 1, info.max],
                           size=shape).astype(dtype)
        arrays.append(x)
    return arrays


def _engine_args(case):
    ndim, pads = case["ndim"], case["pads"]
    return dict(kernel=case["kernel"], stride=case["stride"], dilation=case["dilation"],
                padding=[(pads[i], pads[ndim + i]) for i in range(ndim)],
                rounding="ceil_torch" if case["ceil"] else "floor")


def _attrs(case, **extra):
    attrs = dict(kernel_shape=list(case["kernel"]), strides=list(case["stride"]),
                 dilations=list(case["dilation"]), pads=list(case["pads"]),
                 ceil_mode=case["ceil"], **extra)
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in attrs.items()))


def _ids(case):
    text = (f"{case['ndim']}d-{case['dtype']}-K{case['kernel']}-S{case['stride']}"
            f"-D{case['dilation']}-P{case['pads']}-ceil{case['ceil']}-so{case['storage_order']}")
    return text.replace(" ", "")


COMPARED = {"MaxPool": 0, "AveragePool": 0, "empty windows": 0}


def _run(op, case, attrs, with_indices, x):
    sess = session(op, case["dtype"], case["ndim"], attrs, with_indices)
    return sess.run(None, {"X": x})


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_max_pool_matches_onnxruntime(case):
    attrs = _attrs(case, storage_order=case["storage_order"])
    layout = "tensor_colmajor" if case["storage_order"] else "tensor"
    for x in _inputs(case):
        before = x.copy()
        y_ort, i_ort = _run("MaxPool", case, attrs, True, x)
        # ORT fills a window without input elements with the lowest finite value, except
        # its float16 kernel, which writes -inf
        empty_value = "neg_inf" if x.dtype == np.float16 else "lowest"
        r = max_pool(x, **_engine_args(case), pad_taps="skip", empty_value=empty_value,
                     empty_index="minus_one", ties="first", return_indices=True,
                     index_layout=layout)
        assert r.output.dtype == y_ort.dtype
        np.testing.assert_array_equal(r.output, y_ort)
        # a window without any input element: -1 in the engine.  ORT writes the lowest value
        # (compared above) but its index is the plane offset plus -1 per spatial axis in
        # row-major strides (1-D: offset - 1; 2-D: offset - W - 1), which is -1 only for the
        # first plane of a 1-D input; so those positions are left out of the index comparison.
        empty = r.indices == -1
        np.testing.assert_array_equal(r.indices[~empty], i_ort[~empty])
        if x.dtype == np.float16:
            lowest = -np.inf
        elif x.dtype.kind == "f":
            lowest = np.finfo(x.dtype).min
        else:
            lowest = np.iinfo(x.dtype).min
        assert (r.output[empty] == lowest).all()
        COMPARED["empty windows"] += int(empty.sum())
        # ORT's Y-only kernel is a separate code path; without NaN it must agree too
        (y_only,) = _run("MaxPool", case, _attrs(case), False, x)
        np.testing.assert_array_equal(r.output, y_only)
        np.testing.assert_array_equal(x, before)
        COMPARED["MaxPool"] += 1


# ORT's CPU AveragePool has float32 and float16 kernels only (double: NOT_IMPLEMENTED)
FLOAT_CASES = [c for c in CASES if c["dtype"] in ("float32", "float16")]


@pytest.mark.parametrize("case", FLOAT_CASES, ids=[_ids(c) for c in FLOAT_CASES])
@pytest.mark.parametrize(("count_include_pad", "divisor"), [(0, "valid"), (1, "padded")])
def test_average_pool_matches_onnxruntime(case, count_include_pad, divisor):
    attrs = _attrs(case, count_include_pad=count_include_pad)
    for x in _inputs(case):
        (y_ort,) = _run("AveragePool", case, attrs, False, x)
        r = avg_pool(x, **_engine_args(case), divisor=divisor)
        assert r.output.dtype == y_ort.dtype == x.dtype
        # ORT sums in (at most) float32, the engine in float64 and rounds once
        rtol = 1e-6 if x.dtype == np.float32 else 2e-3
        np.testing.assert_allclose(r.output, y_ort, rtol=rtol, atol=rtol * 10)
        COMPARED["AveragePool"] += 1


def test_enough_cases_and_every_feature_is_drawn():
    assert len(CASES) >= 150
    assert {c["ndim"] for c in CASES} == {1, 2, 3}
    assert {c["dtype"] for c in CASES} == set(ONNX_TYPES)
    assert {c["ceil"] for c in CASES} == {0, 1} and {c["storage_order"] for c in CASES} == {0, 1}
    assert any(max(c["dilation"]) > 1 for c in CASES)
    assert any(max(c["pads"]) > 0 for c in CASES)
    # at least one case has a window without any input element (dilation over padding)
    from pooltutor.geometry import pool_geometry

    def has_empty(case, x):
        g = pool_geometry(x.shape[2:], case["kernel"], case["stride"],
                          _engine_args(case)["padding"], case["dilation"],
                          _engine_args(case)["rounding"])
        return any(all(k != "input" for k in a.tap_kinds(o))
                   for a in g.axes for o in range(a.output_size))

    assert any(has_empty(c, x) for c in CASES for x in _inputs(c))
    # and one whose window is longer than the padded input (one overhanging ceil window)
    assert any((k - 1) * d + 1 > size + pb + pe
               for c in CASES for x in _inputs(c)
               for k, d, size, pb, pe in zip(c["kernel"], c["dilation"], x.shape[2:],
                                             c["pads"][:c["ndim"]], c["pads"][c["ndim"]:],
                                             strict=True))


def test_opset():
    assert opset() == 22 or opset() == max(
        v for v in range(19, 23) if v <= onnx.defs.onnx_opset_version())


def test_known_vectors_through_onnxruntime():
    """TV16 (storage_order=1 reports the row-major-first tie as 2) and TV20 (empty window)."""
    case = dict(dtype="float32", ndim=2)
    x = np.array([[[[1, 5], [5, 1]]]], np.float32)
    attrs = (("kernel_shape", (2, 2)), ("storage_order", 1), ("strides", (2, 2)))
    y, idx = _run("MaxPool", case, attrs, True, x)
    assert (y.item(), idx.item()) == (5, 2)
    r = max_pool(x, 2, 2, return_indices=True, index_layout="tensor_colmajor")
    assert (r.output.item(), r.indices.item()) == (5, 2)
    case = dict(dtype="float32", ndim=1)
    x = np.array([[[5, 7]]], np.float32)
    attrs = (("dilations", (3,)), ("kernel_shape", (2,)), ("pads", (1, 1)), ("strides", (1,)))
    y, idx = _run("MaxPool", case, attrs, True, x)
    r = max_pool(x, 2, 1, 1, 3, empty_value="lowest", return_indices=True, index_layout="tensor")
    assert y.tolist() == r.output.tolist() == [[[np.finfo(np.float32).min]]]
    assert idx.tolist() == r.indices.tolist() == [[[-1]]]


def test_onnxruntime_empty_window_index_is_not_minus_one_past_the_first_plane():
    """Documents an ORT deviation that the comparison above steps around.

    TV20 in two channels: ORT writes the lowest value with index ``plane offset - 1``
    (here 1 for channel 1, which points at channel 0's last element); in 2-D the offset
    minus ``W + 1``.  The engine, like the ONNX reading in docs/semantics.md §2.2, says -1.
    """
    case = dict(dtype="float32", ndim=1)
    x = np.array([[[5, 7], [6, 8]]], np.float32)
    attrs = (("dilations", (3,)), ("kernel_shape", (2,)), ("pads", (1, 1)), ("strides", (1,)))
    _, idx = _run("MaxPool", case, attrs, True, x)
    assert idx.ravel().tolist() == [-1, 1]
    r = max_pool(x, 2, 1, 1, 3, empty_value="lowest", return_indices=True, index_layout="tensor")
    assert r.indices.ravel().tolist() == [-1, -1]
    case = dict(dtype="float32", ndim=2)
    x = np.zeros((1, 1, 2, 2), np.float32)
    attrs = (("dilations", (3, 3)), ("kernel_shape", (2, 2)), ("pads", (1, 1, 1, 1)),
             ("strides", (1, 1)))
    _, idx = _run("MaxPool", case, attrs, True, x)
    assert idx.ravel().tolist() == [-3]                   # -1 * W + -1
