"""pooltutor's OpenVINO dialects against OpenVINO's CPU plugin, run here (MaxPool-14,
AvgPool-14, AdaptiveMaxPool-8, AdaptiveAvgPool-8).

``follow="runtime"`` must agree value for value and index for index on every
random case (refusals included); ``follow="spec"`` must agree everywhere
except the named departures of ``RUNTIME_RULES`` (each disagreement is
classified, and an unclassified one fails).  Inputs are multiples of 1/4 in
[-4, 4], so averages are exact sums and the comparison can be exact.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest
from oracle_runtimes import ov_run_batch, require

from pooltutor import frameworks as fw

ov = require("openvino")
N_MAX, N_AVG, N_ADAPTIVE = 400, 440, 200
COUNTS: dict = {}


def _same(a, b) -> bool:
    return (a.shape == b.shape and a.dtype == b.dtype
            and np.array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan=True)
            and np.array_equal(np.signbit(a) & (a == a), np.signbit(b) & (b == b)))


def _shape(rng, nd):
    return ((int(rng.integers(1, 3)), int(rng.integers(1, 3)))
            + tuple(int(v) for v in rng.integers(1, (9, 6, 4)[nd - 1] + 1, nd)))


def _max_case(rng):
    nd = int(rng.integers(1, 4))
    shape = _shape(rng, nd)
    dt = str(rng.choice(["float32", "float32", "float16", "float64", "int32", "int64", "int8",
                         "uint8"]))
    x = rng.integers(-3, 4, shape).astype(dt)
    if dt[0] == "f" and rng.random() < 0.3:
        x.flat[rng.integers(x.size)] = -np.inf
    if dt[0] == "f" and rng.random() < 0.2:
        x.flat[rng.integers(x.size)] = np.nan
    if dt == "int64" and rng.random() < 0.3:
        x.flat[rng.integers(x.size)] = 2 ** 33 + 5          # wraps in the CPU plugin's int32
    a = dict(strides=[int(v) for v in rng.integers(1, 4, nd)],
             dilations=[int(v) for v in rng.integers(1, 3, nd)],
             pads_begin=[int(v) for v in rng.integers(0, 3, nd)],
             pads_end=[int(v) for v in rng.integers(0, 3, nd)],
             kernel_shape=[int(v) for v in rng.integers(1, 4, nd)],
             rounding_type=str(rng.choice(["floor", "ceil", "ceil_torch"])),
             auto_pad=str(rng.choice(["explicit", "explicit", "same_upper", "same_lower",
                                      "valid"])),
             index_element_type=str(rng.choice(["i32", "i64"])), axis=int(rng.integers(0, 3)))
    return x, a


def _ours_max(x, a, follow):
    kw = dict(a)
    kw["kernel"] = kw.pop("kernel_shape")
    return list(fw.openvino_max_pool(x, **kw, follow=follow))


def _max_departure(x, a, spec, runtime) -> str:
    """Which named runtime rule explains a spec / runtime difference ('' if none)."""
    if a["auto_pad"].startswith("same") and a["rounding_type"] == "ceil" \
            and spec[0].shape != runtime[0].shape:
        return "same_rounding"
    if x.dtype.name in ("float16", "float64", "int64"):
        return "compute_type"
    return ""


def test_max_pool_14_matches_the_cpu_plugin():
    rng = np.random.default_rng(16)
    cases = [_max_case(rng) for _ in range(N_MAX)]
    got = ov_run_batch([("max", x, a) for x, a in cases])
    count = collections.Counter()
    for (x, a), theirs in zip(cases, got, strict=True):
        try:
            runtime = _ours_max(x, a, "runtime")
        except ValueError as exc:
            assert isinstance(theirs, Exception), (x.shape, a, exc)
            assert "Kernel after dilation has size" in str(theirs)
            count["refused by both"] += 1
            continue
        assert not isinstance(theirs, Exception), (x.shape, a, theirs)
        for ours, t in zip(runtime, theirs, strict=True):
            assert _same(ours, t), (x.dtype, x.shape, a, ours, t)
        spec = _ours_max(x, a, "spec")
        if all(_same(s, t) for s, t in zip(spec, theirs, strict=True)):
            count["spec agrees"] += 1
        else:
            why = _max_departure(x, a, spec, runtime)
            assert why, ("unexplained spec departure", x.dtype, x.shape, a)
            count["departure " + why] += 1
        count["compared"] += 1
    COUNTS["openvino MaxPool-14"] = dict(count)
    assert count["compared"] >= 300 and count["departure same_rounding"] > 0
    assert count["departure compute_type"] > 0


def _avg_case(rng):
    nd = int(rng.integers(1, 4))
    x = (rng.integers(-16, 17, _shape(rng, nd)) / 4).astype(
        str(rng.choice(["float32", "float32", "float16"])))
    a = dict(strides=[int(v) for v in rng.integers(1, 4, nd)],
             pads_begin=[int(v) for v in rng.integers(0, 3, nd)],
             pads_end=[int(v) for v in rng.integers(0, 3, nd)],
             kernel_shape=[int(v) for v in rng.integers(1, 4, nd)],
             exclude_pad=bool(rng.random() < 0.5),
             rounding_type=str(rng.choice(["floor", "ceil", "ceil_torch"])),
             auto_pad=str(rng.choice(["explicit", "explicit", "same_upper", "same_lower",
                                      "valid"])))
    return x, a


def _ours_avg(x, a, follow):
    kw = dict(a)
    kw["kernel"] = kw.pop("kernel_shape")
    return fw.openvino_avg_pool(x, **kw, follow=follow)


def test_avg_pool_14_matches_the_cpu_plugin():
    rng = np.random.default_rng(1614)
    cases = [_avg_case(rng) for _ in range(N_AVG)]
    got = ov_run_batch([("avg", x, a) for x, a in cases])
    count = collections.Counter()
    for (x, a), theirs in zip(cases, got, strict=True):
        try:
            runtime = _ours_avg(x, a, "runtime")
        except ValueError as exc:
            if "does not reproduce" in str(exc):
                count["not reproduced (empty window)"] += 1
                continue
            assert isinstance(theirs, Exception), (x.shape, a, exc)
            assert "Kernel after dilation" in str(theirs)
            count["refused by both"] += 1
            continue
        assert not isinstance(theirs, Exception), (x.shape, a, theirs)
        assert _same(runtime, theirs[0]), (x.dtype, x.shape, a, runtime, theirs[0])
        count["compared"] += 1
        spec = _ours_avg(x, a, "spec")
        if _same(spec, theirs[0]):
            count["spec agrees"] += 1
        else:
            ceil = a["rounding_type"] != "floor"
            assert ceil or (not a["exclude_pad"]) or x.dtype == np.float16, (x.shape, a)
            count["departure divisor / same_rounding / empty_value"] += 1
    COUNTS["openvino AvgPool-14"] = dict(count)
    assert count["compared"] >= 300
    assert count["not reproduced (empty window)"] <= 40


def test_adaptive_pools_match_the_cpu_plugin():
    rng = np.random.default_rng(8)
    cases = []
    for i in range(N_ADAPTIVE):
        nd = int(rng.integers(1, 4))
        shape = _shape(rng, nd)
        out = [int(rng.integers(1, s + 2)) for s in shape[2:]]   # dividing or not, and O > I
        dt = "float32" if i % 3 else "float16"
        x = rng.integers(-8, 9, shape).astype(dt) / 4
        kind = "adaptive_max" if i % 2 else "adaptive_avg"
        attrs = dict(output_shape=out)
        if kind == "adaptive_max":
            attrs["index_element_type"] = "i32"
        cases.append((kind, x, attrs))
    # seed 000's example: 1x3x32x32 -> 16x16
    seed = (np.random.default_rng(0).integers(-8, 9, (1, 3, 32, 32)) / 4).astype(np.float32)
    cases.append(("adaptive_max", seed, dict(output_shape=[16, 16], index_element_type="i32")))
    cases.append(("adaptive_avg", seed, dict(output_shape=[16, 16])))
    got = ov_run_batch(cases)
    count = collections.Counter()
    for (kind, x, attrs), theirs in zip(cases, got, strict=True):
        assert not isinstance(theirs, Exception), (kind, x.shape, attrs, theirs)
        if kind == "adaptive_max":
            ours = fw.openvino_adaptive_max_pool(x, attrs["output_shape"], "i32",
                                                 follow="runtime")
            for o, t in zip(ours, theirs, strict=True):
                assert _same(o, t), (x.shape, attrs)
        else:
            ours = fw.openvino_adaptive_avg_pool(x, attrs["output_shape"], follow="runtime")
            assert ours.shape == theirs[0].shape and ours.dtype == theirs[0].dtype
            # sums of quarters in float32 are exact; the division may round differently
            np.testing.assert_allclose(ours, theirs[0], rtol=2e-7 if x.dtype == np.float32
                                       else 1e-3)
        count[kind] += 1
    COUNTS["openvino Adaptive*Pool-8"] = dict(count)
    assert sum(count.values()) >= 200


def test_version_sensitive_departures_are_pinned():
    """Each measured OpenVINO departure, on its smallest input: a fixed runtime fails here."""
    assert ov.__version__.startswith(fw.RUNTIME_VERSIONS["openvino"])
    x = np.array([[[1.0, 2.0]]], dtype=np.float32)
    mp = dict(strides=[3], dilations=[2], pads_begin=[0], pads_end=[0], kernel_shape=[1],
              rounding_type="ceil", auto_pad="same_lower")
    tv14 = np.arange(1.0, 7.0, dtype=np.float32).reshape(1, 1, 6)
    avg = dict(strides=[2], pads_begin=[1], pads_end=[1], kernel_shape=[3], exclude_pad=False,
               rounding_type="ceil")
    got = ov_run_batch([
        ("max", x, mp),
        ("avg", tv14, avg),
        ("max", np.array([[[2 ** 33 + 5, 7]]], dtype=np.int64),
         dict(strides=[1], dilations=[1], pads_begin=[0], pads_end=[0], kernel_shape=[1])),
        ("max", np.array([[[1.0]]], dtype=np.float16),
         dict(strides=[1], dilations=[2], pads_begin=[1], pads_end=[1], kernel_shape=[2])),
    ])
    assert got[0][0].tolist() == [[[1.0, float(np.finfo(np.float32).min)]]]   # same + ceil
    assert fw.openvino_max_pool(x, 3, 0, 0, 1, 2, "ceil", "same_lower")[0].shape == (1, 1, 1)
    assert got[1][0].tolist() == [[[1.0, 3.0, 5.0, 2.0]]]                      # whole kernel
    assert fw.openvino_avg_pool(tv14, 2, 1, 1, 3, False, "ceil").tolist() == [[[1, 3, 5, 3]]]
    assert got[2][0].tolist() == [[[5, 7]]]                                    # int64 as int32
    assert got[3][0].tolist() == [[[-np.inf]]]                                 # f16 as f32
    with pytest.raises(Exception, match="CPU plugin does not support i64 for use with oneDNN"):
        ov_run_batch([("adaptive_max", x, dict(output_shape=[1], index_element_type="i64"))])
    with pytest.raises(ValueError, match=r"CPU plugin does not support i64"):
        fw.openvino_adaptive_max_pool(x, 1, follow="runtime")


def test_report_case_counts(capsys):
    """Print the counts of the tests above (run with -s to see them)."""
    with capsys.disabled():
        for name, count in COUNTS.items():
            print(f"\n{name}: {count}")
