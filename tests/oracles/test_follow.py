"""``follow="runtime"`` against onnxruntime and PyTorch, departures included.

tests/oracles/test_onnxruntime.py compares ``follow="spec"`` on the cases where
onnxruntime keeps to the ONNX spec; here every case is drawn, the departures
of docs/frameworks.md included (pads >= kernel, SAME with dilation, negative
SAME padding, VALID with ceil_mode, pads with auto_pad, empty windows, NaN,
int32 / float64 refusals), and ``follow="runtime"`` must agree value for value
and index for index, refusals included.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest
from onnx_helpers import run_pool
from oracle_runtimes import require

from pooltutor import frameworks as fw

N_ORT, N_TORCH = 1000, 300
COUNTS: dict = {}


def _same(a, b) -> bool:
    return (a.shape == b.shape and a.dtype == b.dtype
            and np.array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan=True))


def _ort_case(rng):
    op = ("MaxPool", "MaxPool", "AveragePool")[rng.integers(3)]
    nd = int(rng.integers(1, 4))
    shape = (int(rng.integers(1, 3)), int(rng.integers(1, 3))) + tuple(
        int(v) for v in rng.integers(1, (8, 6, 4)[nd - 1] + 1, nd))
    kernel = [int(v) for v in rng.integers(1, 4, nd)]
    attrs = dict(kernel_shape=kernel, strides=[int(v) for v in rng.integers(1, 4, nd)],
                 dilations=[int(v) for v in rng.integers(1, 3, nd)],
                 auto_pad=str(rng.choice(["NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER",
                                          "VALID"])),
                 ceil_mode=int(rng.random() < 0.5))
    if attrs["auto_pad"] == "NOTSET" or rng.random() < 0.15:      # pads with auto_pad too
        attrs["pads"] = [int(v) for v in rng.integers(0, 4, 2 * nd)]
    if op == "MaxPool":
        attrs["storage_order"] = int(rng.random() < 0.5)
        dtype = str(rng.choice(["float32", "float32", "float64", "float16", "int8", "uint8",
                                "int32"]))
    else:
        attrs["count_include_pad"] = int(rng.random() < 0.5)
        attrs["dilations"] = [1] * nd if rng.random() < 0.5 else attrs["dilations"]
        dtype = str(rng.choice(["float32", "float32", "float16", "float64"]))
    x = (rng.integers(-8, 9, shape) / (4 if dtype[0] == "f" else 1)).astype(dtype)
    if dtype[0] == "f" and op == "MaxPool" and rng.random() < 0.4:
        x.flat[rng.integers(x.size, size=int(rng.integers(1, 3)))] = np.nan
    if dtype[0] == "f" and rng.random() < 0.2:
        x.flat[rng.integers(x.size)] = -np.inf
    return op, x, attrs


def _ours(op, x, attrs, follow):
    if op == "MaxPool":
        return list(fw.onnx_max_pool(x, **attrs, follow=follow))
    return [fw.onnx_average_pool(x, **attrs, follow=follow)]


def test_onnx_dialects_follow_onnxruntime():
    require("onnxruntime")
    rng = np.random.default_rng(1632)
    count = collections.Counter()
    for _ in range(N_ORT):
        op, x, attrs = _ort_case(rng)
        try:
            theirs = run_pool(op, x, with_indices=op == "MaxPool", **attrs)
        except Exception as exc:                               # noqa: BLE001 - ORT's refusal
            theirs = exc
        try:
            ours = _ours(op, x, attrs, "runtime")
        except ValueError as exc:
            if "does not reproduce" in str(exc):
                count["not reproduced (count_include_pad=1, window longer than input)"] += 1
                continue
            assert isinstance(theirs, Exception), (op, x.dtype, x.shape, attrs, exc)
            count["refused by both"] += 1
            continue
        assert not isinstance(theirs, Exception), (op, x.dtype, x.shape, attrs, theirs)
        for o, t in zip(ours, theirs, strict=True):
            if op == "AveragePool":                            # ORT sums in float32
                assert o.shape == t.shape and o.dtype == t.dtype, (x.shape, attrs)
                np.testing.assert_allclose(o, t, rtol=1e-3 if o.dtype == np.float16 else 1e-6)
            else:
                assert _same(o, t), (x.dtype, x.shape, attrs, o, t)
        count[f"compared {op}"] += 1
    COUNTS["onnxruntime"] = dict(count)
    assert count["compared MaxPool"] + count["compared AveragePool"] >= 300


def test_onnxruntime_departures_are_reproduced_on_their_smallest_inputs():
    require("onnxruntime")
    x = np.arange(1.0, 6.0, dtype=np.float32).reshape(1, 1, 5)              # TV12
    y, i = fw.onnx_max_pool(x, [2], dilations=[2], auto_pad="SAME_UPPER", follow="runtime")
    assert y.tolist() == [[[3.0, 4.0, 5.0, 4.0]]] and i.tolist() == [[[2, 3, 4, 3]]]
    assert fw.onnx_max_pool(x, [2], dilations=[2], auto_pad="SAME_UPPER")[0].shape == (1, 1, 5)
    x3 = np.array([[[1.0, 2.0, 3.0]]], dtype=np.float32)                    # negative SAME pad
    assert fw.onnx_max_pool(x3, [1], [3], auto_pad="SAME_UPPER", follow="runtime")[0].item() == 2
    assert fw.onnx_max_pool(x3, [1], [3], auto_pad="SAME_UPPER")[0].item() == 1
    tv39 = np.array([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]], dtype=np.float32)
    assert fw.onnx_max_pool(tv39, [2, 2], [2, 2], auto_pad="VALID", ceil_mode=1,
                            follow="runtime")[0].tolist() == [[[[5, 3], [8, 9]]]]
    tv20 = np.array([[[5.0, 7.0]]], dtype=np.float32)
    y, i = fw.onnx_max_pool(tv20, [2], dilations=[3], pads=[1, 1], follow="runtime")
    assert y.tolist() == [[[float(np.finfo(np.float32).min)]]] and i.tolist() == [[[-1]]]
    tv17 = np.array([[[np.nan, 1, 2, np.nan, 5, np.nan]]], dtype=np.float32)
    y, i = fw.onnx_max_pool(tv17, [2], [2], follow="runtime")
    assert np.isnan(y[0, 0, 0]) and y[0, 0, 1:].tolist() == [2, 5] and i.tolist() == [[[0, 2, 4]]]
    with pytest.raises(ValueError, match="Pad should be smaller than kernel"):
        fw.onnx_max_pool(x, [2], pads=[2, 0], follow="runtime")
    with pytest.raises(ValueError, match="float16, float32, float64, int8, uint8 only"):
        fw.onnx_max_pool(x.astype(np.int32), [2], follow="runtime")
    with pytest.raises(ValueError, match="float16, float32 only"):
        fw.onnx_average_pool(x.astype(np.float64), [2], follow="runtime")
    assert fw.onnx_max_pool(x, [2], pads=[1, 1], auto_pad="VALID",
                            follow="runtime")[0].shape == (1, 1, 4)          # pads ignored
    # and onnxruntime itself still does all of this (a fixed runtime fails here)
    assert run_pool("MaxPool", x, with_indices=True, kernel_shape=[2], dilations=[2],
                    auto_pad="SAME_UPPER")[0].shape == (1, 1, 4)
    assert run_pool("MaxPool", x3, with_indices=True, kernel_shape=[1], strides=[3],
                    auto_pad="SAME_UPPER")[0].item() == 2
    with pytest.raises(Exception, match="padding values must be non-negative"):  # Y-only kernel
        run_pool("MaxPool", x3, kernel_shape=[1], strides=[3], auto_pad="SAME_UPPER")
    assert run_pool("MaxPool", tv20, with_indices=True, kernel_shape=[2], dilations=[3],
                    pads=[1, 1])[1].tolist() == [[[-1]]]


def _torch_case(rng):
    nd = int(rng.integers(1, 4))
    shape = (int(rng.integers(1, 3)), int(rng.integers(1, 3))) + tuple(
        int(v) for v in rng.integers(1, (8, 6, 4)[nd - 1] + 1, nd))
    k = [int(v) for v in rng.integers(1, 4, nd)]
    return nd, shape, k, [int(v) for v in rng.integers(1, 4, nd)], \
        [int(rng.integers(0, kk // 2 + 1)) for kk in k], [int(v) for v in rng.integers(1, 4, nd)]


def test_torch_dialects_follow_pytorch():
    torch = require("torch")
    import torch.nn.functional as F

    rng = np.random.default_rng(213)
    count = collections.Counter()
    for i in range(N_TORCH):
        nd, shape, k, s, p, d = _torch_case(rng)
        x = (rng.integers(-8, 9, shape) / 4).astype(np.float32)
        if rng.random() < 0.3:
            x.flat[rng.integers(x.size)] = np.nan
        ceil = bool(rng.random() < 0.5)
        op = ("max", "avg", "adaptive_max")[i % 3]
        try:
            if op == "max":
                t = getattr(F, f"max_pool{nd}d")(torch.from_numpy(x), k, s, p, d, ceil_mode=ceil,
                                                 return_indices=True)
            elif op == "avg":
                t = (getattr(F, f"avg_pool{nd}d")(torch.from_numpy(x), k, s, p, ceil_mode=ceil),)
            else:
                out = [int(rng.integers(1, n + 2)) for n in shape[2:]]
                t = getattr(F, f"adaptive_max_pool{nd}d")(torch.from_numpy(x), out,
                                                          return_indices=True)
        except RuntimeError as exc:
            t = exc
        try:
            if op == "max":
                ours = fw.torch_max_pool(x, k, s, p, d, ceil, True, follow="runtime")
            elif op == "avg":
                ours = (fw.torch_avg_pool(x, k, s, p, ceil, follow="runtime"),)
            else:
                ours = fw.torch_adaptive_max_pool(x, out, True, follow="runtime")
        except ValueError as exc:
            assert isinstance(t, Exception), (op, shape, k, s, p, d, ceil, exc)
            count["refused by both"] += 1
            continue
        assert not isinstance(t, Exception), (op, shape, k, s, p, d, ceil, t)
        for o, tt in zip(ours, t, strict=True):
            tt = tt.numpy()
            if op == "avg":
                np.testing.assert_allclose(o, tt, rtol=1e-6, equal_nan=True)
            else:
                assert _same(o, tt), (op, shape, k, s, p, d, ceil, o, tt)
        count[f"compared {op}"] += 1
    for dtype, call in [(torch.int32, lambda x: F.avg_pool1d(x, 2)),
                        (torch.int64, lambda x: F.adaptive_max_pool1d(x, 1)),
                        (torch.int64, lambda x: F.max_pool1d(x, 2))]:
        with pytest.raises(RuntimeError, match="not implemented for '(Long|Int)'"):
            call(torch.ones((1, 1, 4), dtype=dtype))
    with pytest.raises(ValueError, match="not implemented for 'Int'"):
        fw.torch_avg_pool(np.ones((1, 1, 4), np.int32), 2, follow="runtime")
    with pytest.raises(ValueError, match="not implemented for 'Long'"):
        fw.torch_adaptive_max_pool(np.ones((1, 1, 4), np.int64), 1, follow="runtime")
    with pytest.raises(ValueError, match="max_pool1d_impl.*not implemented for 'Long'"):
        fw.torch_max_pool(np.ones((1, 1, 4), np.int64), 2, follow="runtime")
    COUNTS["torch"] = dict(count)
    assert sum(count.values()) >= 250


def test_torch_empty_window_index_is_reproduced():
    torch = require("torch")
    tv20 = np.array([[[5.0, 7.0]]], dtype=np.float32)
    _, i = torch.nn.functional.max_pool1d(torch.from_numpy(tv20), 2, 1, 1, 3, return_indices=True)
    assert i.tolist() == [[[2]]]                                         # pinned: out of range
    assert fw.torch_max_pool(tv20, 2, 1, 1, 3, return_indices=True,
                             follow="runtime")[1].tolist() == [[[2]]]
    assert fw.torch_max_pool(tv20, 2, 1, 1, 3, return_indices=True)[1].tolist() == [[[-1]]]


def test_report_case_counts(capsys):
    with capsys.disabled():
        for name, count in COUNTS.items():
            print(f"\n{name}: {count}")
