"""onnx_max_pool / onnx_average_pool against onnxruntime (CPU) on random cases.

The random cases leave out only onnxruntime's documented departures from the
ONNX spec (``onnx_max_pool``'s docstring, docs/semantics.md §2.2):

* pads >= kernel (ORT refuses the model: "Pad should be smaller than kernel");
* SAME_UPPER / SAME_LOWER with a dilation > 1 (ORT pads from the undilated kernel);
* SAME_UPPER / SAME_LOWER where the window is shorter than the stride so that the
  total padding ``(O-1)*S + DK - I`` is negative: the contract clamps it at 0,
  ORT keeps the negative padding and shifts the windows into the input;
* VALID with ceil_mode=1 (ORT rounds up; the spec's formula gives the floor size);
* NaN (ORT's result depends on the kernel path, with or without Indices).

Two translations stay in the comparison: a window with no input element is
``-inf`` in pooltutor (the contract) and float's lowest finite value in ORT
(pooltutor gives index -1, ORT too in 1-D, but in 2-D and 3-D a number
computed from the invalid position -1 on every axis); and ORT's Y-only
MaxPool kernel may start a window at the lowest finite value, so a window
whose maximum is an input ``-inf`` can come out as that lowest value there
(path dependent; the Indices kernel always returns ``-inf``).  The departures
themselves are pinned by ``test_documented_ort_departures_still_hold``, so a
fixed ORT shows up here.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from onnx_helpers import run_pool

from pooltutor.frameworks import onnx_average_pool, onnx_max_pool
from pooltutor.pooling import max_pool

N_CASES = 600          # parameter sets drawn; at least MIN_COMPARED must be compared
MIN_COMPARED = 200
MAX_DTYPES = ("float32", "float32", "float32", "float64", "float16", "int8", "uint8")
AVG_DTYPES = ("float32", "float32", "float16")   # ORT has no float64 AveragePool


def _draw_case(rng: np.random.RandomState) -> dict:
    op = ("MaxPool", "MaxPool", "MaxPoolY", "AveragePool")[rng.randint(4)]
    ndim = rng.randint(1, 4)
    max_size = (8, 6, 4)[ndim - 1]
    shape = (rng.randint(1, 3), rng.randint(1, 3)) + tuple(rng.randint(1, max_size + 1, ndim))
    kernel = [int(k) for k in rng.randint(1, 4, ndim)]
    strides = [int(s) for s in rng.randint(1, 4, ndim)]
    dilations = [int(d) for d in rng.randint(1, 4, ndim)] if rng.rand() < 0.4 else [1] * ndim
    ceil_mode = int(rng.rand() < 0.5)
    r = rng.rand()
    if r < 0.6:
        auto_pad = "NOTSET"
    elif r < 0.9:
        auto_pad = "SAME_UPPER" if rng.rand() < 0.5 else "SAME_LOWER"
        dilations = [1] * ndim            # ORT departure: SAME ignores dilation
    else:
        auto_pad = "VALID"
        ceil_mode = 0                     # ORT departure: VALID + ceil_mode rounds up
    if auto_pad.startswith("SAME") and any(
            (-(-i // s) - 1) * s + k - i < 0
            for i, k, s in zip(shape[2:], kernel, strides, strict=True)):
        auto_pad = "NOTSET"               # ORT departure: negative SAME padding not clamped
    pads = None
    if auto_pad == "NOTSET":             # ORT departure: pads >= kernel refused
        pads = [int(rng.randint(0, k)) for k in kernel] + [int(rng.randint(0, k)) for k in kernel]
    dtype = (AVG_DTYPES if op == "AveragePool" else MAX_DTYPES)[
        rng.randint(len(AVG_DTYPES if op == "AveragePool" else MAX_DTYPES))]
    values = rng.randint(-2, 4, size=shape)            # small integers: ties everywhere
    x = values.astype(dtype)
    if op != "AveragePool" and x.dtype.kind == "f" and rng.rand() < 0.3:
        x.flat[rng.randint(x.size)] = np.inf if rng.rand() < 0.5 else -np.inf
    attrs = dict(kernel_shape=kernel, strides=strides, dilations=dilations, auto_pad=auto_pad,
                 ceil_mode=ceil_mode, pads=pads)
    if op == "AveragePool":
        attrs["count_include_pad"] = int(rng.rand() < 0.5)
    else:
        attrs["storage_order"] = int(rng.rand() < 0.5)
    return dict(op=op, x=x, attrs=attrs)


def _fits(case) -> bool:
    """Whether the (dilated) window fits the padded input on every axis."""
    a = case["attrs"]
    x = case["x"]
    ndim = x.ndim - 2
    if a["auto_pad"].startswith("SAME"):
        return True
    pads = a["pads"] or [0] * (2 * ndim)
    ceil = a["ceil_mode"] and a["auto_pad"] == "NOTSET"
    strides = a["strides"] or [1] * ndim
    for i in range(ndim):
        dk = (a["kernel_shape"][i] - 1) * a["dilations"][i] + 1
        over = dk - (x.shape[2 + i] + pads[i] + pads[i + ndim])
        # ceil mode still lays one window that overhangs the padded input by less than a stride
        if over > 0 and not (ceil and over < strides[i]):
            return False
    return True


def _ours(case):
    a = dict(case["attrs"])
    if case["op"] == "AveragePool":
        return [onnx_average_pool(case["x"], **a)]
    a.pop("count_include_pad", None)
    return list(onnx_max_pool(case["x"], **a))


def _ort(case):
    op = case["op"]
    attrs = {k: v for k, v in case["attrs"].items() if v is not None}
    if op == "MaxPoolY":
        attrs.pop("storage_order")
        return run_pool("MaxPool", case["x"], with_indices=False, **attrs)
    return run_pool(op, case["x"], with_indices=op == "MaxPool", **attrs)


def x_ndim(case) -> int:
    return case["x"].ndim


def _compare(case, ours, theirs) -> None:
    y, yt = ours[0], theirs[0]
    assert y.shape == yt.shape, (y.shape, yt.shape)
    assert y.dtype == yt.dtype
    if case["op"] == "AveragePool":
        tol = 1e-6 if y.dtype == np.float32 else 1e-3
        np.testing.assert_allclose(y, yt, rtol=tol, atol=tol)
        return
    empty = ours[1] == -1                    # pooltutor -inf, ORT lowest: the contract's choice
    if y.dtype.kind == "f":
        assert np.all(y[empty] == -np.inf)
        assert np.all(yt[empty] == np.finfo(y.dtype).min)
    if case["op"] == "MaxPoolY" and y.dtype.kind == "f":
        # ORT's Y-only kernels may start from the lowest float and miss an input -inf
        neg = y == -np.inf
        assert np.all((yt[neg] == -np.inf) | (yt[neg] == np.finfo(y.dtype).min))
        empty = empty | neg
    np.testing.assert_array_equal(y[~empty], yt[~empty])
    if case["op"] == "MaxPool":
        # ORT's index for an empty window is -1 only in 1-D (elsewhere it encodes the
        # invalid position -1 of every axis, e.g. plane offset - W - 1 in 2-D)
        np.testing.assert_array_equal(ours[1][~empty], theirs[1][~empty])
        if x_ndim(case) == 3:
            np.testing.assert_array_equal(theirs[1][empty], -1)


def test_random_cases_match_onnxruntime():
    rng = np.random.RandomState(20240522)
    compared = {"MaxPool": 0, "MaxPoolY": 0, "AveragePool": 0}
    start = time.perf_counter()
    for _ in range(N_CASES):
        case = _draw_case(rng)
        if not _fits(case):
            with pytest.raises(ValueError, match="kernel_shape="):
                _ours(case)
            continue
        ours = _ours(case)
        theirs = _ort(case)
        try:
            _compare(case, ours, theirs)
        except AssertionError as exc:
            raise AssertionError(f"mismatch for {case['op']} {case['attrs']} on x shaped "
                                 f"{case['x'].shape} {case['x'].dtype}:\n{case['x']}\n"
                                 f"ours {ours}\nORT {theirs}") from exc
        compared[case["op"]] += 1
    total = sum(compared.values())
    print(f"onnxruntime: {total} cases compared {compared}")
    assert total >= MIN_COMPARED, compared
    assert min(compared.values()) >= 30, compared
    assert time.perf_counter() - start < 30


def test_tv22_index_layouts_match_onnxruntime():
    x = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                  [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=np.float32)
    for order, expected in ((0, [1, 1, 6, 11, 12, 13, 21, 19]), (1, [2, 2, 6, 11, 12, 14, 19, 20])):
        _, idx_ort = run_pool("MaxPool", x, with_indices=True, kernel_shape=[2, 2],
                              storage_order=order)
        _, idx = onnx_max_pool(x, [2, 2], storage_order=order)
        assert idx.ravel().tolist() == idx_ort.ravel().tolist() == expected


def test_documented_ort_departures_still_hold():
    """What the docstrings say onnxruntime does instead of the spec (TV12, TV17, TV20, TV39)."""
    x5 = np.arange(1.0, 6.0, dtype=np.float32).reshape(1, 1, 5)
    # TV12: SAME with dilation -> ORT 4 outputs, spec 5
    y_ort, _ = run_pool("MaxPool", x5, with_indices=True, kernel_shape=[2], dilations=[2],
                        auto_pad="SAME_UPPER")
    assert y_ort.ravel().tolist() == [3, 4, 5, 4]
    assert onnx_max_pool(x5, [2], dilations=[2], auto_pad="SAME_UPPER")[0].ravel().tolist() == \
        [2, 3, 4, 5, 4]
    # TV39: VALID + ceil_mode -> ORT 2x2, spec 1x1
    x = np.array([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]], dtype=np.float32)
    y_ort, i_ort = run_pool("MaxPool", x, with_indices=True, kernel_shape=[2, 2],
                            strides=[2, 2], auto_pad="VALID", ceil_mode=1)
    assert y_ort.tolist() == [[[[5, 3], [8, 9]]]] and i_ort.tolist() == [[[[4, 2], [7, 8]]]]
    y, i = onnx_max_pool(x, [2, 2], [2, 2], auto_pad="VALID", ceil_mode=1)
    assert y.tolist() == [[[[5]]]] and i.tolist() == [[[[4]]]]
    (a_ort,) = run_pool("AveragePool", x, kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID",
                        ceil_mode=1)
    assert a_ort.tolist() == [[[[2.5, -1.5], [0.5, 9]]]]
    assert onnx_average_pool(x, [2, 2], [2, 2], auto_pad="VALID", ceil_mode=1).tolist() == \
        [[[[2.5]]]]
    # SAME with a window shorter than the stride: ORT shifts the window by the negative pad
    x3 = np.arange(3.0, dtype=np.float32).reshape(1, 1, 3)
    y_ort, _ = run_pool("MaxPool", x3, with_indices=True, kernel_shape=[1], strides=[3],
                        auto_pad="SAME_UPPER")
    assert y_ort.ravel().tolist() == [1]
    assert onnx_max_pool(x3, [1], [3], auto_pad="SAME_UPPER")[0].ravel().tolist() == [0]
    # pads >= kernel: ORT refuses the model; the spec (and pooltutor) allow it (TV05)
    x6 = np.arange(1.0, 7.0, dtype=np.float32).reshape(1, 1, 6)
    with pytest.raises(Exception, match="Pad should be smaller than kernel"):
        run_pool("MaxPool", x6, with_indices=True, kernel_shape=[3], strides=[2], pads=[3, 2])
    y, i = onnx_max_pool(x6, [3], [2], pads=[3, 2])
    assert y.ravel().tolist() == [-np.inf, 2, 4, 6, 6] and i.ravel().tolist() == [-1, 1, 3, 5, 5]
    # TV17: NaN is path dependent in ORT; pooltutor propagates (last NaN's index)
    xn = np.array([[[np.nan, 1, 2, np.nan, 5, np.nan]]], dtype=np.float32)
    y_ort, i_ort = run_pool("MaxPool", xn, with_indices=True, kernel_shape=[2], strides=[2])
    np.testing.assert_array_equal(y_ort.ravel(), [np.nan, 2, 5])
    assert i_ort.ravel().tolist() == [0, 2, 4]
    (y_only,) = run_pool("MaxPool", xn, kernel_shape=[2], strides=[2])
    assert y_only.ravel().tolist() == [1, 2, 5]
    # the engine rules notebook 03 uses for ORT's two kernels reproduce both answers
    r = max_pool(xn, 2, 2, nan_policy="first_sticks", return_indices=True)
    np.testing.assert_array_equal(r.output, y_ort)
    np.testing.assert_array_equal(r.indices, i_ort)
    np.testing.assert_array_equal(max_pool(xn, 2, 2, nan_policy="ignore").output, y_only)
    y, i = onnx_max_pool(xn, [2], [2])
    assert np.isnan(y).all() and i.ravel().tolist() == [0, 3, 5]
    # TV21 shape: an input -inf; the Indices kernel returns it, the Y-only kernel lowest
    xi = np.array([[[-np.inf, 2.0]]], dtype=np.float32)
    y_ort, i_ort = run_pool("MaxPool", xi, with_indices=True, kernel_shape=[1])
    assert y_ort.ravel().tolist() == [-np.inf, 2] and i_ort.ravel().tolist() == [0, 1]
    (y_only,) = run_pool("MaxPool", xi, kernel_shape=[1])
    assert y_only.ravel().tolist() == [np.finfo(np.float32).min, 2]
    assert onnx_max_pool(xi, [1])[0].ravel().tolist() == [-np.inf, 2]
    # TV20: a window of padding only -> ORT lowest float with index -1; pooltutor -inf, -1
    x2 = np.array([[[5.0, 7.0]]], dtype=np.float32)
    y_ort, i_ort = run_pool("MaxPool", x2, with_indices=True, kernel_shape=[2], dilations=[3],
                            pads=[1, 1])
    assert y_ort.ravel().tolist() == [np.finfo(np.float32).min] and i_ort.ravel().tolist() == [-1]
    y, i = onnx_max_pool(x2, [2], dilations=[3], pads=[1, 1])
    assert y.ravel().tolist() == [-np.inf] and i.ravel().tolist() == [-1]
    # ... and in 2-D ORT's index is plane offset + (-1)*W + (-1), not -1
    x22 = np.zeros((1, 2, 2, 2), dtype=np.float32)
    _, i_ort = run_pool("MaxPool", x22, with_indices=True, kernel_shape=[2, 2], dilations=[3, 3],
                        pads=[1, 1, 1, 1])
    assert i_ort.ravel().tolist() == [-3, 1]
    assert onnx_max_pool(x22, [2, 2], dilations=[3, 3], pads=[1, 1, 1, 1])[1].ravel().tolist() \
        == [-1, -1]
