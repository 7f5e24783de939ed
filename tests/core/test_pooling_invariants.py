"""Invariants of the whole API under hypothesis (issue 10).

* inputs are never modified, and outputs never share memory with them;
* output dtype and shape are the documented ones (shape = the geometry's);
* per window ``max >= average >= min`` (min pooling = ``-max_pool(-x)`` on floats);
* kernel = stride = 1 without padding is the identity (values, and indices = the
  position of every element in each layout);
* gathering the input at the returned indices gives the output, in every index
  layout, with the layouts decoded *here* from their definitions in docs/api.md
  (``np.unravel_index`` on the layout's shape), not by the library's decoder;
* ``convert_indices`` round-trips between every pair of layouts and agrees with
  the engine asked for that layout directly;
* framework dialects agree where docs/semantics.md says they do.

pytest turns warnings into errors here, so every property also says that valid
input (NaN, infinities, -0.0 included) raises no RuntimeWarning: averaging ``inf``
with ``-inf`` once did.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from strategies import pool_cases

from pooltutor import frameworks as fw
from pooltutor.geometry import adaptive_geometry, pool_geometry
from pooltutor.indexing import INDEX_LAYOUTS, convert_indices
from pooltutor.pooling import (
    EMPTY_VALUES,
    NAN_POLICIES,
    PAD_TAPS,
    TIES,
    adaptive_avg_pool,
    adaptive_max_pool,
    avg_pool,
    max_pool,
)
from pooltutor.reference import fill_value

FEW = settings(max_examples=50, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

DTYPES = ("float64", "float32", "float16", "int32", "int16", "int8", "uint8")


@st.composite
def cases(draw, dtypes=DTYPES, special=True, max_spatial=3):
    """``pool_cases`` geometry with values of any dtype: small whole numbers (many ties),
    and for floats, with ``special``, NaN, infinities and -0.0."""
    case = draw(pool_cases(max_spatial=max_spatial, max_size=6, max_pad=3))
    shape = case["x"].shape
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    lo = 0 if dtype.kind == "u" else -5
    values = draw(arrays(np.int64, shape, elements=st.integers(lo, lo + 9)))
    x = values.astype(dtype)
    if special and dtype.kind == "f":
        extra = draw(arrays(np.int8, shape, elements=st.integers(0, 12)))
        x[extra == 0] = np.nan
        x[extra == 1] = np.inf
        x[extra == 2] = -np.inf
        x[extra == 3] = -0.0
    case["x"] = x
    return case


def _geometry_args(case):
    return {k: case[k] for k in ("kernel", "stride", "padding", "dilation", "rounding")}


def _same(a, b):
    """Equal values (NaN equal to NaN), same dtype and shape."""
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


# --------------------------------------------------------------------------- decoding

def decode(indices, input_shape, layout):
    """``(n, c, *spatial)`` coordinate arrays of every index, from the layout's definition
    (docs/api.md "Index layouts"); entries with index -1 decode to garbage and must be masked."""
    n_count, c_count, *spatial = input_shape
    idx = np.where(indices < 0, 0, indices).astype(np.int64)
    n = np.arange(n_count).reshape((-1, 1) + (1,) * len(spatial))
    c = np.arange(c_count).reshape((1, -1) + (1,) * len(spatial))
    n, c = np.broadcast_arrays(n, c, idx)[:2]
    size = int(np.prod(spatial))
    if layout == "plane":                        # row-major inside the (n, c) plane
        coords = np.unravel_index(idx, spatial)
        return (n, c, *coords)
    if layout == "tensor":                       # row-major in the whole N*C*spatial tensor
        return np.unravel_index(idx, input_shape)
    if layout == "tensor_colmajor":              # plane offset + column-major inside the plane
        plane, code = np.divmod(idx, size)
        pn, pc = np.divmod(plane, c_count)
        coords = np.unravel_index(code, spatial, order="F")
        return (pn, pc, *coords)
    if layout == "nhwc":                         # position in (*spatial, C), no batch term
        *coords, cc = np.unravel_index(idx, (*spatial, c_count))
        return (n, cc, *coords)
    if layout == "nhwc_batch":                   # position in (N, *spatial, C)
        nn, *coords, cc = np.unravel_index(idx, (n_count, *spatial, c_count))
        return (nn, cc, *coords)
    raise AssertionError(layout)


def gather_ok(x, output, indices, layout):
    """Where an index is not -1 it points into its own (n, c) plane and x there is the output."""
    won = indices != -1
    n, c, *coords = decode(indices, x.shape, layout)
    n_here = np.broadcast_to(np.arange(x.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1)),
                             indices.shape)
    c_here = np.broadcast_to(np.arange(x.shape[1]).reshape((1, -1) + (1,) * (x.ndim - 2)),
                             indices.shape)
    assert np.array_equal(n[won], n_here[won]) and np.array_equal(c[won], c_here[won])
    picked = x[(n, c, *coords)]
    assert np.array_equal(picked[won], output[won], equal_nan=True)
    return won


def layout_numbers(shape, layout):
    """The number every element of an input shaped ``shape`` has in ``layout``."""
    n_count, c_count, *spatial = shape
    size = int(np.prod(spatial))
    if layout == "plane":
        return np.broadcast_to(np.arange(size).reshape(spatial), shape)
    if layout == "tensor":
        return np.arange(int(np.prod(shape))).reshape(shape)
    if layout == "tensor_colmajor":
        within = np.arange(size).reshape(spatial, order="F")
        return (np.arange(n_count * c_count).reshape(n_count, c_count, *[1] * len(spatial))
                * size + within)
    nhwc = np.arange(int(np.prod(shape))).reshape(n_count, *spatial, c_count)
    numbers = np.moveaxis(nhwc, -1, 1)
    if layout == "nhwc":
        numbers = numbers - (np.arange(n_count) * size * c_count).reshape(
            (-1,) + (1,) * (len(shape) - 1))
    return numbers


def test_decoders_match_the_api_examples():
    # TV22 and TV23 (docs/api.md / docs/semantics.md §4.5), decoded without the library
    plane = np.array([1, 1, 0, 5, 0, 1, 3, 1]).reshape(2, 2, 1, 2)
    shape = (2, 2, 2, 3)
    for layout, numbers in {"tensor": [1, 1, 6, 11, 12, 13, 21, 19],
                            "tensor_colmajor": [2, 2, 6, 11, 12, 14, 19, 20],
                            "nhwc": [2, 2, 1, 11, 0, 2, 7, 3]}.items():
        idx = np.array(numbers).reshape(plane.shape)
        ref = decode(plane, shape, "plane")
        got = decode(idx, shape, layout)
        assert all(np.array_equal(a, b) for a, b in zip(ref, got, strict=True)), layout
    assert [int(np.asarray(v).item()) for v in decode(np.array([[[[[8]]]]]), (1, 1, 2, 3, 4),
                                                    "tensor_colmajor")] \
        == [0, 0, 0, 1, 1]
    for layout in INDEX_LAYOUTS:
        numbers = layout_numbers((2, 3, 2, 4), layout)
        coords = decode(numbers, (2, 3, 2, 4), layout)
        grid = np.indices((2, 3, 2, 4))
        assert all(np.array_equal(a, b) for a, b in zip(coords, grid, strict=True)), layout


# --------------------------------------------------------------------------- never modified

@FEW
@given(cases(), st.sampled_from(INDEX_LAYOUTS))
def test_inputs_are_never_modified_and_outputs_are_new(case, layout):
    x = case.pop("x")
    before = x.tobytes()
    args = _geometry_args(case)
    results = [avg_pool(x, **args, divisor="padded"),
               adaptive_avg_pool(x, tuple(max(1, s // 2) for s in x.shape[2:]))]
    results += [
        max_pool(x, **args, return_indices=True, index_layout=layout, pad_taps="lowest"),
        adaptive_max_pool(x, x.shape[2:], return_indices=True, index_layout=layout),
    ]
    ndim = x.ndim - 2
    k = tuple(min(kk, s) for kk, s in zip(case["kernel"], x.shape[2:], strict=True))
    results += list(fw.torch_max_pool(x, k, 1, 0, return_indices=True))
    results += list(fw.onnx_max_pool(x, k, storage_order=1))
    results.append(fw.tensorrt_pooling(x, k, 1, pooling_type="MAX_AVERAGE_BLEND",
                                       blend_factor=0.5))
    if ndim == 2:
        results += list(fw.tensorflow_max_pool_with_argmax(np.moveaxis(x, 1, 3), k, 1, "SAME"))
        results += list(fw.directml_max_pooling2(x, 1, k, 0, 0, 1))
    results += list(fw.openvino_max_pool(x, 1, 0, 0, k, axis=1))
    assert x.tobytes() == before
    for r in results:
        arrays_ = [r.output, r.indices] if hasattr(r, "output") else [r]
        for a in arrays_:
            if a is not None:
                assert not np.shares_memory(a, x)


# --------------------------------------------------------------------------- dtype and shape

@FEW
@given(cases(), st.booleans())
def test_dtype_and_shape_are_as_documented(case, indices):
    x = case.pop("x")
    args = _geometry_args(case)
    shape = x.shape[:2] + pool_geometry(x.shape[2:], **args).output_shape
    r = max_pool(x, **args, return_indices=indices)
    assert r.output.shape == shape and r.output.dtype == x.dtype
    assert r.geometry.output_shape == shape[2:]
    if indices:
        assert r.indices.shape == shape and r.indices.dtype == np.int64
    else:
        assert r.indices is None
    a = avg_pool(x, **args)
    assert a.output.shape == shape
    assert a.output.dtype == (x.dtype if x.dtype.kind == "f" else np.float64)
    out = tuple(s + 1 for s in x.shape[2:])             # O > I: bins of one element, repeated
    am = adaptive_max_pool(x, out, return_indices=True)
    aa = adaptive_avg_pool(x, out)
    assert am.output.shape == aa.output.shape == x.shape[:2] + out
    assert am.geometry.output_shape == adaptive_geometry(x.shape[2:], out).output_shape == out
    assert am.output.dtype == x.dtype and am.indices.dtype == np.int64
    assert aa.output.dtype == (x.dtype if x.dtype.kind == "f" else np.float64)


# --------------------------------------------------------------------------- max >= avg >= min

@FEW
@given(cases(special=False))
def test_max_is_at_least_the_average_which_is_at_least_the_min(case):
    x = case.pop("x")
    args = _geometry_args(case)
    r = max_pool(x, **args, return_indices=True)
    has = r.indices != -1                                   # windows holding an input element
    mean = avg_pool(x, **args, divisor="valid").output
    if x.dtype.kind == "f":
        low = -max_pool(-x, **args).output                  # min pooling, the usual trick
    else:
        low = -max_pool(-x.astype(np.float64), **args).output
    hi = r.output.astype(np.float64)
    mean64 = mean.astype(np.float64)
    assert np.all(hi[has] >= mean64[has]) and np.all(mean64[has] >= low[has])
    assert np.all(mean[~has] == 0)                          # an empty window averages to 0
    # adaptive bins are never empty
    out = tuple(max(1, s - 1) for s in x.shape[2:])
    amax = adaptive_max_pool(x, out).output.astype(np.float64)
    amean = adaptive_avg_pool(x, out).output.astype(np.float64)
    amin = -adaptive_max_pool(-x.astype(np.float64), out).output
    assert np.all(amax >= amean) and np.all(amean >= amin)


# --------------------------------------------------------------------------- identity

@FEW
@given(cases(), st.sampled_from(INDEX_LAYOUTS), st.integers(1, 3))
def test_kernel_one_stride_one_is_the_identity(case, layout, dilation):
    x = case["x"]
    r = max_pool(x, 1, 1, 0, dilation, return_indices=True, index_layout=layout)
    assert _same(r.output, x)
    assert np.array_equal(np.signbit(r.output), np.signbit(x))          # -0.0 stays -0.0
    assert np.array_equal(r.indices, layout_numbers(x.shape, layout))
    a = avg_pool(x, 1, 1, 0, dilation).output
    assert np.array_equal(a, x.astype(a.dtype), equal_nan=True)
    am = adaptive_max_pool(x, x.shape[2:], return_indices=True, index_layout=layout)
    assert _same(am.output, x) and np.array_equal(am.indices, layout_numbers(x.shape, layout))
    assert np.array_equal(adaptive_avg_pool(x, x.shape[2:]).output, x.astype(a.dtype),
                          equal_nan=True)


# --------------------------------------------------------------------------- gathering

@FEW
@given(cases(), st.sampled_from(INDEX_LAYOUTS), st.sampled_from(PAD_TAPS),
       st.sampled_from(NAN_POLICIES), st.sampled_from(TIES),
       st.sampled_from([v for v in EMPTY_VALUES if v != "error"]))
def test_gathering_at_the_indices_gives_the_output(case, layout, pad_taps, nan_policy, ties,
                                                   empty_value):
    x = case.pop("x")
    assume(not (empty_value == "nan" and x.dtype.kind != "f"))
    r = max_pool(x, **case, return_indices=True, index_layout=layout, pad_taps=pad_taps,
                 nan_policy=nan_policy, ties=ties, empty_value=empty_value)
    won = gather_ok(x, r.output, r.indices, layout)
    # -1: padding won (only when padding takes part) or the window is empty
    pad = fill_value(x.dtype, "lowest" if pad_taps == "lowest" else "neg_inf")
    empty = fill_value(x.dtype, empty_value)
    rest = r.output[~won]
    ok = np.isnan(rest) if np.isnan(empty) else rest == empty
    if pad_taps != "skip":
        ok |= rest == pad
    assert ok.all()
    # plane_start: an empty window points at its plane's first element instead
    s = max_pool(x, **case, return_indices=True, index_layout=layout, pad_taps="skip",
                 empty_index="plane_start")
    plain = max_pool(x, **case, return_indices=True, index_layout="plane", pad_taps="skip")
    first = layout_numbers(x.shape, layout)[(slice(None), slice(None)) + (0,) * (x.ndim - 2)]
    empty_windows = plain.indices == -1
    expected = np.broadcast_to(first.reshape(x.shape[:2] + (1,) * (x.ndim - 2)), s.indices.shape)
    assert np.array_equal(s.indices[empty_windows], expected[empty_windows])


@FEW
@given(cases(), st.sampled_from(INDEX_LAYOUTS), st.sampled_from(NAN_POLICIES),
       st.sampled_from(TIES), st.data())
def test_gathering_at_adaptive_indices_gives_the_output(case, layout, nan_policy, ties, data):
    x = case["x"]
    out = tuple(data.draw(st.integers(1, s + 2)) for s in x.shape[2:])
    r = adaptive_max_pool(x, out, return_indices=True, index_layout=layout,
                          nan_policy=nan_policy, ties=ties)
    won = gather_ok(x, r.output, r.indices, layout)
    if nan_policy != "ignore":
        assert won.all()                                # a bin always holds an element
    else:                                               # only a bin of NaN alone has no winner
        assert np.all(r.output[~won] == fill_value(x.dtype, "neg_inf"))


@FEW
@given(cases(max_spatial=2))
def test_gathering_at_framework_indices(case):
    x = case.pop("x")
    ndim = x.ndim - 2
    k = tuple(min(kk, s) for kk, s in zip(case["kernel"], x.shape[2:], strict=True))
    pads = [min(p[0], kk // 2) for p, kk in zip(case["padding"], k, strict=True)]
    y, i = fw.torch_max_pool(x, k, case["stride"], pads, 1, return_indices=True)
    gather_ok(x, y, i, "plane")
    for order, layout in ((0, "tensor"), (1, "tensor_colmajor")):
        y, i = fw.onnx_max_pool(x, k, case["stride"], pads * 2, storage_order=order)
        gather_ok(x, y, i, layout)
    y, i = fw.openvino_max_pool(x, case["stride"], pads, pads, k, axis=0)
    lowest = fill_value(x.dtype, "lowest")
    found = y > lowest                         # OpenVINO: lowest() means "nothing beat it"
    gather_ok(x, np.where(found, y, 0), np.where(found, i, -1), "tensor")
    y2, i2 = fw.openvino_max_pool(x, case["stride"], pads, pads, k, axis=2)
    assert np.array_equal(i2, i % int(np.prod(x.shape[2:])))
    if ndim == 2:
        y, i = fw.directml_max_pooling2(x, case["stride"], k, pads, pads, 1)
        assert i.dtype == np.uint32
        gather_ok(x, y, np.where(i == 0xFFFFFFFF, -1, i.astype(np.int64)), "tensor")
        nhwc = np.moveaxis(x, 1, 3)
        for batch, layout in ((False, "nhwc"), (True, "nhwc_batch")):
            y, i = fw.tensorflow_max_pool_with_argmax(nhwc, k, case["stride"], "SAME", batch)
            gather_ok(x, np.moveaxis(y, 3, 1), np.moveaxis(i, 3, 1), layout)


# --------------------------------------------------------------------------- conversion

@FEW
@given(cases())
def test_convert_indices_round_trips_between_every_pair_of_layouts(case):
    x = case.pop("x")
    by_layout = {layout: max_pool(x, **case, return_indices=True, index_layout=layout).indices
                 for layout in INDEX_LAYOUTS}
    for src, dst in itertools.product(INDEX_LAYOUTS, repeat=2):
        there = convert_indices(by_layout[src], x.shape, src, dst)
        assert there.dtype == np.int64
        assert np.array_equal(there, by_layout[dst]), (src, dst)      # = the engine's own
        back = convert_indices(there, x.shape, dst, src)
        assert np.array_equal(back, by_layout[src]), (src, dst)


# --------------------------------------------------------------------------- dialects

@st.composite
def torch_like(draw, max_spatial=3):
    """Cases every dialect accepts: symmetric pads <= K // 2, finite values (no NaN / inf)."""
    case = draw(cases(special=False, max_spatial=max_spatial))
    x = case["x"]
    k = tuple(min(kk, s) for kk, s in zip(case["kernel"], x.shape[2:], strict=True))
    pads = tuple(min(p[0], kk // 2) for p, kk in zip(case["padding"], k, strict=True))
    return x, k, case["stride"], pads, case["dilation"], draw(st.booleans())


def _plane_offsets(shape):
    size = int(np.prod(shape[2:]))
    return (np.arange(shape[0] * shape[1]).reshape(shape[:2] + (1,) * (len(shape) - 2)) * size)


@FEW
@given(torch_like())
def test_torch_and_onnx_max_pool_agree_up_to_the_plane_offset(params):
    x, k, s, p, d, ceil = params
    try:
        y_t, i_t = fw.torch_max_pool(x, k, s, p, d, ceil_mode=ceil, return_indices=True)
    except ValueError:                    # the dilated window does not fit: both refuse
        with pytest.raises(ValueError):
            fw.onnx_max_pool(x, k, s, list(p) * 2, d, ceil_mode=int(ceil))
        return
    y_o, i_o = fw.onnx_max_pool(x, k, s, list(p) * 2, d, ceil_mode=int(ceil))
    assert _same(y_t, y_o)
    expected = np.where(i_t == -1, -1, i_t + _plane_offsets(x.shape))
    assert np.array_equal(i_o, expected)


@FEW
@given(torch_like())
def test_average_dialects_agree(params):
    x, k, s, p, _, ceil = params
    if x.ndim == 5 and any(i < kk for i, kk in zip(x.shape[2:], k, strict=True)):
        return                                # avg_pool3d's own restriction
    for include in (True, False):
        y_t = fw.torch_avg_pool(x, k, s, p, ceil_mode=ceil, count_include_pad=include)
        y_o = fw.onnx_average_pool(x, k, s, list(p) * 2, ceil_mode=int(ceil),
                                   count_include_pad=int(include))
        assert _same(y_t, y_o)
    y_trt = fw.tensorrt_pooling(x, k, s, p, p, "EXPLICIT_ROUND_DOWN", "AVERAGE")
    assert _same(y_trt, fw.onnx_average_pool(x, k, s, list(p) * 2))


@FEW
@given(torch_like())
def test_max_dialects_agree_on_finite_input(params):
    x, k, s, p, d, _ = params
    try:
        y_t, i_t = fw.torch_max_pool(x, k, s, p, d, return_indices=True)
    except ValueError:
        return
    # OpenVINO per plane (axis=2): the same winners wherever a window holds an element above
    # the dtype's lowest value (its kernel starts every window at lowest(), strict >)
    y_v, i_v = fw.openvino_max_pool(x, s, p, p, k, d, axis=2)
    has = (i_t != -1) & (y_t > fill_value(x.dtype, "lowest"))
    assert np.array_equal(y_v[has], y_t[has]) and np.array_equal(i_v[has], i_t[has])
    assert np.all(y_v[~has] == fill_value(x.dtype, "lowest")) and np.all(i_v[~has] == 0)
    # TensorRT EXPLICIT_ROUND_DOWN (padding -inf, never above a finite value): same values
    if all(dd == 1 for dd in np.broadcast_to(d, len(k))):
        assert _same(fw.tensorrt_pooling(x, k, s, p, p), y_t)
    if x.ndim in (4, 5):                      # DirectML: the ONNX tensor indices, as uint32
        y_d, i_d = fw.directml_max_pooling2(x, s, k, p, p, d)
        _, i_o = fw.onnx_max_pool(x, k, s, list(p) * 2, d)
        assert _same(y_d, y_t)
        assert np.array_equal(i_d, np.where(i_o == -1, 0xFFFFFFFF, i_o).astype(np.uint32))
    if x.ndim == 4:                           # TensorFlow on the NHWC layout, VALID
        y_f, a_f = fw.tensorflow_max_pool_with_argmax(np.moveaxis(x, 1, 3), k, s, "VALID")
        y_v2, i_v2 = fw.torch_max_pool(x, k, s, 0, return_indices=True)
        assert _same(np.moveaxis(y_f, 3, 1), y_v2)
        channels = np.arange(x.shape[1]).reshape(1, -1, 1, 1)
        assert np.array_equal(np.moveaxis(a_f, 3, 1), i_v2 * x.shape[1] + channels)


@FEW
@given(cases(special=False), st.data())
def test_adaptive_dialects_agree(case, data):
    x = case["x"]
    out = tuple(data.draw(st.integers(1, s + 2)) for s in x.shape[2:])
    y_t, i_t = fw.torch_adaptive_max_pool(x, out, return_indices=True)
    y_v, i_v = fw.openvino_adaptive_max_pool(x, out)
    assert _same(y_t, y_v) and np.array_equal(i_t, i_v) and i_v.dtype == np.int64
    assert _same(fw.torch_adaptive_avg_pool(x, out), fw.openvino_adaptive_avg_pool(x, out))
