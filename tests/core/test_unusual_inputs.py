"""Valid but unusual inputs give exactly what plain C-contiguous native arrays give (issue 10).

Every framework function, the engine and the quantized functions are called
on the same values laid out as: read-only, strided views (every other
element of a bigger array, negative strides, transposed storage),
Fortran order, big-endian (``'>f4'``, ``'>i4'``, ...) and nested Python
lists; sizes given as 0-d numpy scalars (``np.int64(2)``, ``np.array(2)``) and
flags as ``np.bool_``.  Results must be equal *and* of the same dtype and
shape (native byte order), and the input must come back unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

from pooltutor import frameworks as fw
from pooltutor import quant
from pooltutor.indexing import INDEX_LAYOUTS, convert_indices
from pooltutor.tensorrt import output_geometry
from pooltutor.pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool
from pooltutor.unpool import flat_unpool, max_unpool

RNG = np.random.default_rng(10)
BASE = RNG.integers(-9, 10, size=(2, 3, 5, 6))           # many ties on purpose


def _variants(a: np.ndarray):
    """``(name, array)`` pairs holding the values of ``a`` in unusual layouts."""
    ro = a.copy()
    ro.setflags(write=False)
    yield "read-only", ro
    wide = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), dtype=a.dtype)
    wide[..., 1::2] = a
    yield "every other element", wide[..., 1::2]
    yield "negative strides", np.ascontiguousarray(a[:, ::-1, ::-1, ::-1])[:, ::-1, ::-1, ::-1]
    yield "transposed storage", np.ascontiguousarray(np.swapaxes(a, 2, 3)).swapaxes(2, 3)
    yield "Fortran order", np.asfortranarray(a)
    yield "big-endian", a.astype(a.dtype.newbyteorder(">"))
    batch_major = np.ascontiguousarray(np.moveaxis(a, 1, -1))      # NHWC storage of NCHW values
    yield "channels-last storage", np.moveaxis(batch_major, -1, 1)


def _as_tuple(result):
    if isinstance(result, tuple):
        return result
    if hasattr(result, "output"):              # PoolResult
        return (result.output, result.indices)
    return (result,)


def _assert_same(expected, got, what):
    for e, g in zip(_as_tuple(expected), _as_tuple(got), strict=True):
        if e is None:
            assert g is None, what
            continue
        g = np.asarray(g)
        assert g.dtype == e.dtype and g.dtype.isnative, (what, e.dtype, g.dtype)
        assert g.shape == e.shape, (what, e.shape, g.shape)
        assert np.array_equal(g, e, equal_nan=True), what


# --------------------------------------------------------------------------- calls

CALLS = {
    "torch_max_pool": lambda x: fw.torch_max_pool(x, 2, 1, 1, return_indices=True),
    "torch_max_pool ceil dilated": lambda x: fw.torch_max_pool(x, 2, 2, 1, 2, ceil_mode=True,
                                                               return_indices=True),
    "torch_avg_pool": lambda x: fw.torch_avg_pool(x, 3, 2, 1, ceil_mode=True),
    "torch_avg_pool divisor_override": lambda x: fw.torch_avg_pool(x, 2, 1, divisor_override=3),
    "torch_adaptive_max_pool": lambda x: fw.torch_adaptive_max_pool(x, (3, 4),
                                                                    return_indices=True),
    "torch_adaptive_avg_pool": lambda x: fw.torch_adaptive_avg_pool(x, (None, 4)),
    "onnx_max_pool": lambda x: fw.onnx_max_pool(x, [2, 3], [1, 2], [1, 0, 0, 1],
                                                storage_order=1),
    "onnx_average_pool": lambda x: fw.onnx_average_pool(x, [2, 3], auto_pad="SAME_LOWER",
                                                        count_include_pad=1),
    "openvino_max_pool": lambda x: fw.openvino_max_pool(x, 2, 1, 1, 3, rounding_type="ceil",
                                                        axis=1),
    "openvino_adaptive_max_pool": lambda x: fw.openvino_adaptive_max_pool(x, [2, 4], "i32"),
    "openvino_adaptive_avg_pool": lambda x: fw.openvino_adaptive_avg_pool(x, [2, 4]),
    "directml_max_pooling2": lambda x: fw.directml_max_pooling2(x, 1, 2, 0, 1, (1, 2)),
    "tensorrt_pooling max": lambda x: fw.tensorrt_pooling(x, 3, 2, 1, 1, "CAFFE_ROUND_UP"),
    "tensorrt_pooling blend": lambda x: fw.tensorrt_pooling(
        x, 2, 2, 1, 0, pooling_type="MAX_AVERAGE_BLEND", blend_factor=0.25),
    "tensorflow_max_pool_with_argmax": lambda x: fw.tensorflow_max_pool_with_argmax(
        x, 2, 2, "SAME", True),
    "max_pool every rule": lambda x: max_pool(x, 2, 1, ((1, 0), (0, 2)), rounding="ceil",
                                              pad_taps="lowest", empty_index="plane_start",
                                              ties="last", return_indices=True,
                                              index_layout="nhwc_batch"),
    "avg_pool padded divisor": lambda x: avg_pool(x, 2, 2, 1, 2, rounding="ceil",
                                                  divisor="padded"),
    "adaptive_max_pool": lambda x: adaptive_max_pool(x, (4, 4), ties="last", return_indices=True,
                                                     index_layout="tensor_colmajor"),
    "adaptive_avg_pool": lambda x: adaptive_avg_pool(x, (4, 5)),
}

DTYPES = ["float32", "float64", "float16", "int32", "int16", "uint8"]


def _values(dtype: str) -> np.ndarray:
    if dtype == "uint8":
        return (BASE + 9).astype(dtype)
    out = BASE.astype(dtype)
    if np.dtype(dtype).kind == "f":
        out[0, 1, 2, 3] = np.nan                        # NaN takes the general paths too
        out[1, 0, 0, 0] = -0.0
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(CALLS))
def test_unusual_layouts_give_the_native_result(name, dtype):
    call = CALLS[name]
    native = _values(dtype)
    expected = call(native)
    for label, x in _variants(native):
        before = x.copy()
        got = call(x)
        _assert_same(expected, got, f"{name}, {dtype}, {label}")
        assert np.array_equal(x, before, equal_nan=True), f"{name} modified the {label} input"


@pytest.mark.parametrize("name", list(CALLS))
def test_python_lists_are_arrays(name):
    # nested lists become int64 (integers) or float64 (floats), as np.asarray makes them
    call = CALLS[name]
    for values in (BASE, BASE.astype(np.float64) / 2):
        _assert_same(call(np.asarray(values)), call(values.tolist()), name)


def test_zero_d_numpy_scalars_where_a_scalar_is_meant():
    x = BASE.astype(np.float32)
    two, one = np.int64(2), np.array(1)
    y, i = fw.torch_max_pool(x, 2, 1, 1, return_indices=True)
    y2, i2 = fw.torch_max_pool(x, two, np.int32(1), np.uint8(1), dilation=np.array(1),
                               ceil_mode=np.False_, return_indices=np.True_)
    _assert_same((y, i), (y2, i2), "torch_max_pool")
    _assert_same(fw.torch_avg_pool(x, 2, divisor_override=3),
                 fw.torch_avg_pool(x, two, divisor_override=np.int16(3)), "torch_avg_pool")
    _assert_same(fw.onnx_max_pool(x, [2, 2], ceil_mode=1, storage_order=1),
                 fw.onnx_max_pool(x, [two, two], ceil_mode=np.int64(1),
                                  storage_order=np.True_), "onnx_max_pool")
    _assert_same(fw.openvino_max_pool(x, 1, 0, 1, 2, axis=-2),
                 fw.openvino_max_pool(x, one, np.int8(0), two - 1, two, axis=np.int64(-2)),
                 "openvino_max_pool")
    _assert_same(fw.tensorrt_pooling(x, 2, 2, pooling_type="MAX_AVERAGE_BLEND", blend_factor=0.5),
                 fw.tensorrt_pooling(x, two, two, pooling_type="MAX_AVERAGE_BLEND",
                                     blend_factor=np.float32(0.5)), "tensorrt_pooling")
    _assert_same(fw.torch_adaptive_avg_pool(x, 3), fw.torch_adaptive_avg_pool(x, np.int64(3)),
                 "torch_adaptive_avg_pool")
    _assert_same(max_pool(x, 2, padding=1, return_indices=True),
                 max_pool(x, np.array([2, 2]), padding=np.array([[1, 1], [1, 1]]),
                          return_indices=True), "max_pool")
    _assert_same(avg_pool(x, 2, divisor=4), avg_pool(x, 2, divisor=np.int8(4)), "avg_pool")
    assert output_geometry(np.int64(6), np.int32(3), np.array(2), pre_padding=np.uint8(1)) \
        .output_size == output_geometry(6, 3, 2, pre_padding=1).output_size == (3,)


# --------------------------------------------------------------------------- quant

def _codes(dtype):
    info = np.iinfo(dtype)
    return RNG.integers(info.min, int(info.max) + 1, size=(2, 2, 4, 6)).astype(dtype)


QUANT_CALLS = {
    "dequantize": lambda q: quant.dequantize(q, 0.5, 3, "int16"),
    "relu": lambda q: quant.relu(q, -20, "int16"),
    "relu6": lambda q: quant.relu6(q, 0.05, 10, "int16"),
    "quantized_max_pool": lambda q: quant.quantized_max_pool(q, 2, 1, 1, "int16"),
    "quantized_avg_pool": lambda q: quant.quantized_avg_pool(q, 3, 1, 1, "half_away", 7, "int16",
                                                             count_include_pad=True),
    "requantize": lambda q: quant.requantize(q, 0.3, -5, "int8", "tflite_double"),
}


@pytest.mark.parametrize("name", list(QUANT_CALLS))
def test_quant_unusual_layouts(name):
    call = QUANT_CALLS[name]
    native = _codes(np.int16)
    expected = call(native)
    for label, q in _variants(native):
        before = q.copy()
        _assert_same(expected, call(q), f"{name}, {label}")
        assert np.array_equal(q, before)
    _assert_same(expected, call(native.astype(np.int32)), f"{name}, int32 codes in int16 range")


def test_quant_lists_and_numpy_scalars():
    x = RNG.normal(size=(3, 4)) * 10
    q = quant.quantize(x, 0.25, 7, "int8")
    assert q.dtype == np.int8
    _assert_same(q, quant.quantize(x.tolist(), np.float32(0.25), np.int64(7), np.int8), "list")
    _assert_same(q, quant.quantize(x.astype(">f8"), np.array(0.25), np.uint8(7), "int8"), ">f8")
    acc = RNG.integers(-2000, 2000, size=(4, 6)).astype(np.int32)
    chain = quant.relu_max_pool_chain(acc, 0.1, -3, "int8", 2, 2)
    layouts = [("list", acc.tolist()), ("big-endian", acc.astype(">i4")),
               ("Fortran", np.asfortranarray(acc)), ("strided", np.repeat(acc, 2, 1)[:, ::2])]
    for label, a in layouts:
        other = quant.relu_max_pool_chain(a, np.float64(0.1), np.int8(-3), np.dtype("int8"),
                                          np.int64(2), (np.int32(2), 2))
        for stage in ("accumulators", "codes", "activated", "pooled"):
            _assert_same(getattr(chain, stage), getattr(other, stage), f"chain {stage}, {label}")
        assert other.explain(0, 1) == chain.explain(0, 1)


# --------------------------------------------------------------------------- indices

def test_index_conversion_and_unpool_accept_unusual_index_arrays():
    x = _values("float64")
    r = max_pool(x, 2, 2, return_indices=True)
    for dst in INDEX_LAYOUTS:
        expected = convert_indices(r.indices, x.shape, "plane", dst)
        for label, idx in _variants(r.indices):
            _assert_same(expected, convert_indices(idx, x.shape, "plane", dst), label)
        for idx in (r.indices.astype(np.int32), r.indices.astype(np.uint16),
                    r.indices.astype(">i8"), r.indices.tolist()):
            _assert_same(expected, convert_indices(idx, list(x.shape), "plane", dst), dst)
    expected = max_unpool(r.output, r.indices, x.shape)
    flat = flat_unpool(r.output, convert_indices(r.indices, x.shape, "plane", "tensor"), x.shape)
    _assert_same(expected, flat, "flat_unpool")
    for (label, y), (_, idx) in zip(_variants(r.output), _variants(r.indices), strict=True):
        _assert_same(expected, max_unpool(y, idx, np.array(x.shape)), label)
