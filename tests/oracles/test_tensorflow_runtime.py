"""pooltutor's TensorFlow dialects against TensorFlow's CPU kernels, run here
(``tf.nn.max_pool_with_argmax``, ``tf.nn.max_pool``, ``tf.nn.avg_pool``, 1-3 spatial axes).

``follow="runtime"`` must agree value for value and index for index on every
random case, refusals and empty outputs included; ``follow="spec"`` must agree
except the named departures (NaN, an empty VALID output).  Inputs are
multiples of 1/4, so averages are exact sums.
"""

from __future__ import annotations

import collections
import os

import numpy as np
import pytest
from oracle_runtimes import require

from pooltutor import frameworks as fw

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = require("tensorflow")
N_ARGMAX, N_POOL = 300, 360
COUNTS: dict = {}


def _same(a, b) -> bool:
    return (a.shape == b.shape and a.dtype == b.dtype
            and np.array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan=True))


def _tf(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (tf.errors.InvalidArgumentError, tf.errors.NotFoundError, ValueError) as exc:
        return exc


def _spatial(rng, nd):
    return tuple(int(v) for v in rng.integers(1, (9, 6, 4)[nd - 1] + 1, nd))


def test_max_pool_with_argmax_matches_the_cpu_kernel():
    rng = np.random.default_rng(21)
    count = collections.Counter()
    for _ in range(N_ARGMAX):
        shape = (int(rng.integers(1, 3)),) + _spatial(rng, 2) + (int(rng.integers(1, 3)),)
        x = (rng.integers(-4, 5, shape) / 2).astype(np.float32)
        nan = rng.random() < 0.4
        if nan:
            x.flat[rng.integers(x.size, size=int(rng.integers(1, 4)))] = np.nan
        k = [int(v) for v in rng.integers(1, 5, 2)]
        s = [int(v) for v in rng.integers(1, 4, 2)]
        padding = str(rng.choice(["SAME", "VALID"]))
        batch = bool(rng.random() < 0.5)
        theirs = _tf(tf.nn.max_pool_with_argmax, tf.constant(x), [1, *k, 1], [1, *s, 1],
                     padding, include_batch_in_index=batch)
        try:
            ours = fw.tensorflow_max_pool_with_argmax(x, k, s, padding, batch, follow="runtime")
        except ValueError as exc:
            assert isinstance(theirs, Exception), (x.shape, k, s, padding, exc)
            assert "Computed output size would be negative" in str(theirs)
            assert "Computed output size would be negative" in str(exc)
            count["refused by both"] += 1
            continue
        assert not isinstance(theirs, Exception), (x.shape, k, s, padding, theirs)
        y, a = theirs[0].numpy(), theirs[1].numpy()
        assert _same(ours[0], y) and _same(ours[1], a), (x.shape, k, s, padding, ours, y, a)
        count["compared"] += 1
        count["empty output"] += y.size == 0
        try:
            spec = fw.tensorflow_max_pool_with_argmax(x, k, s, padding, batch)
        except ValueError:
            assert y.size == 0                           # departure valid_length
            count["departure valid_length"] += 1
            continue
        if _same(spec[0], y) and _same(spec[1], a):
            count["spec agrees"] += 1
        else:
            assert np.isnan(x).any(), (x, k, s, padding)  # departure nan_policy
            count["departure nan_policy"] += 1
    COUNTS["tensorflow max_pool_with_argmax"] = dict(count)
    assert count["compared"] >= 250 and count["departure nan_policy"] > 0
    assert count["departure valid_length"] > 0


def test_max_pool_and_avg_pool_match_the_cpu_kernels():
    rng = np.random.default_rng(2021)
    count = collections.Counter()
    for i in range(N_POOL):
        op = "max" if i % 2 else "avg"
        nd = int(rng.integers(1, 4))
        shape = (int(rng.integers(1, 3)),) + _spatial(rng, nd) + (int(rng.integers(1, 3)),)
        dtype = "float32" if nd == 3 or rng.random() < 0.6 else str(rng.choice(
            ["float16", "float64", "int32", "int8"] if op == "max" else ["float16", "float64"]))
        x = (rng.integers(-8, 9, shape) / (1 if dtype[0] == "i" else 4)).astype(dtype)
        if dtype[0] == "f" and nd < 3 and rng.random() < 0.3:
            x.flat[rng.integers(x.size, size=int(rng.integers(1, 4)))] = np.nan
        if dtype[0] == "f" and rng.random() < 0.2:
            x.flat[rng.integers(x.size)] = -np.inf
        k = [int(v) for v in rng.integers(1, 5, nd)]
        s = [int(v) for v in rng.integers(1, 4, nd)]
        padding = str(rng.choice(["SAME", "VALID"]))
        if rng.random() < 0.2:                            # the one-per-axis-of-x form
            k, s = [1, *k, 1], [1, *s, 1]
        fn = tf.nn.max_pool if op == "max" else tf.nn.avg_pool
        ours_fn = fw.tensorflow_max_pool if op == "max" else fw.tensorflow_avg_pool
        theirs = _tf(fn, tf.constant(x), k, s, padding)
        try:
            ours = ours_fn(x, k, s, padding, follow="runtime")
        except ValueError as exc:
            assert isinstance(theirs, Exception), (op, x.shape, k, s, padding, exc)
            count["refused by both"] += 1
            continue
        assert not isinstance(theirs, Exception), (op, x.dtype, x.shape, k, s, padding, theirs)
        t = theirs.numpy()
        if op == "avg":
            assert _same(ours, t) or (ours.shape == t.shape and np.allclose(
                ours, t, rtol=1e-3 if dtype == "float16" else 1e-6, equal_nan=True)), (
                x.shape, k, s, padding, ours, t)
        else:
            assert _same(ours, t), (x.dtype, x.shape, k, s, padding, ours, t)
        count[f"compared {op} {nd}-D"] += 1
        try:
            spec = ours_fn(x, k, s, padding)
        except ValueError:
            assert t.size == 0
            count["departure valid_length"] += 1
            continue
        close = spec.shape == t.shape and np.allclose(spec, t, rtol=1e-3, equal_nan=True)
        if _same(spec, t) or (op == "avg" and close):
            count["spec agrees"] += 1
        else:
            kk_, ss_ = (k[1:-1], s[1:-1]) if len(k) == nd + 2 else (k, s)
            if nd == 3:                                                  # same_3d
                shorter = any(a < b for a, b in zip(kk_, ss_, strict=True))
                assert padding == "SAME" and shorter, (k, s)
                count["departure same_3d"] += 1
                continue
            assert np.isnan(x).any() or (x == -np.inf).any(), (x, k, s)   # lowest_start
            count["departure lowest_start"] += 1
    COUNTS["tensorflow max_pool / avg_pool"] = dict(count)
    assert sum(v for key, v in count.items() if key.startswith("compared")) >= 300
    assert count["departure lowest_start"] > 0


@pytest.mark.parametrize("fn, ours, fmt, shape", [
    (tf.nn.max_pool, fw.tensorflow_max_pool, "NCHW", (1, 2, 4, 4)),
    (tf.nn.avg_pool, fw.tensorflow_avg_pool, "NCHW", (1, 2, 4, 4)),
    (tf.nn.max_pool, fw.tensorflow_max_pool, "NCW", (1, 2, 4)),
    (tf.nn.avg_pool, fw.tensorflow_avg_pool, "NCDHW", (1, 2, 4, 4, 4)),
])
def test_channels_first_is_refused_on_cpu_and_computed_by_the_spec(fn, ours, fmt, shape):
    x = np.arange(float(np.prod(shape)), dtype=np.float32).reshape(shape)
    with pytest.raises(tf.errors.InvalidArgumentError, match="only supports N.*HWC on device "
                                                             "type CPU"):
        fn(tf.constant(x), 2, 2, "SAME", data_format=fmt)
    with pytest.raises(ValueError, match=r"only supports N.*HWC on device type CPU"):
        ours(x, 2, 2, "SAME", data_format=fmt, follow="runtime")
    last = np.moveaxis(x, 1, -1)
    np.testing.assert_array_equal(ours(x, 2, 2, "SAME", data_format=fmt),
                                  np.moveaxis(fn(tf.constant(last), 2, 2, "SAME").numpy(), -1, 1))


def test_version_sensitive_departures_are_pinned():
    """Each measured TensorFlow departure, on its smallest input: a fixed runtime fails here."""
    assert tf.__version__.startswith(fw.RUNTIME_VERSIONS["tensorflow"])
    tv17 = np.array([np.nan, 1, 2, np.nan, 5, np.nan], np.float32).reshape(1, 1, 6, 1)
    y, a = tf.nn.max_pool_with_argmax(tv17, [1, 1, 2, 1], [1, 1, 2, 1], "VALID")
    assert np.isnan(y.numpy().ravel()[0]) and y.numpy().ravel()[1:].tolist() == [2.0, 5.0]
    assert a.numpy().ravel().tolist() == [0, 2, 4]                 # first NaN sticks
    spec = fw.tensorflow_max_pool_with_argmax(tv17, [1, 2], [1, 2], "VALID")
    assert spec[1].ravel().tolist() == [0, 3, 5]                   # the spec: last NaN
    ones = np.ones((1, 1, 2, 1), np.float32)                       # VALID window 3 > input 2
    assert tf.nn.max_pool_with_argmax(ones, [1, 1, 3, 1], [1, 1, 1, 1], "VALID")[0].shape == (
        1, 1, 0, 1)
    with pytest.raises(ValueError, match="does not fit"):
        fw.tensorflow_max_pool_with_argmax(ones, [1, 3], 1, "VALID")
    two_nan = np.array([np.nan, np.nan], np.float32).reshape(1, 2, 1)
    assert tf.nn.max_pool(two_nan, 2, 2, "VALID").numpy().ravel().tolist() == [
        float(np.finfo(np.float32).min)]                           # lowest start
    assert np.isnan(fw.tensorflow_max_pool(two_nan, 2, 2, "VALID")).all()


def test_report_case_counts(capsys):
    with capsys.disabled():
        for name, count in COUNTS.items():
            print(f"\n{name}: {count}")
