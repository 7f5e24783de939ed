"""The exact-sum shortcut of average pooling (issue 20) against the loop reference.

Average pooling of float32 / float16 takes its box sums in float64 in another
order than the reference's scan.  Where every partial sum is provably exact
(:func:`pooltutor.pooling._sums_are_exact`: the magnitudes of a plane span few
enough binades), the quotients are divided straight into the output with no
bound check; elsewhere the bound check and the recomputation stay.  These
tests hold both sides of that line to the reference, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from pooltutor import pooling, reference

from pool_checks import check_avg  # isort: skip

RNG = np.random.default_rng(20261202)


@pytest.fixture
def verdicts(monkeypatch):
    """Record what the exactness test decided, block by block; fail if the tap loop runs."""
    seen = []
    exact = pooling._sums_are_exact
    monkeypatch.setattr(pooling, "_sums_are_exact", lambda *a: seen.append(exact(*a)) or seen[-1])

    def tap_loop(*args, **kwargs):
        raise AssertionError("the tap loop ran where the box sums must do")
    monkeypatch.setattr(pooling, "_TapSource", tap_loop)
    return seen


@pytest.fixture
def no_recompute(monkeypatch):
    def recompute(*args, **kwargs):
        raise AssertionError("outputs were recomputed where the sums are exact")
    monkeypatch.setattr(pooling, "_avg_exact_at", recompute)


@pytest.mark.parametrize("divisor", ["valid", "padded", 5])
@pytest.mark.parametrize("kernel, stride, padding, rounding", [
    (3, 2, 1, "floor"), (7, 2, 3, "floor"), ((2, 5), (1, 3), ((0, 2), (1, 1)), "ceil"),
    (3, 2, 1, "ceil_torch"),
])
def test_normal_data_is_exact_and_never_recomputed(verdicts, no_recompute, kernel, stride,
                                                    padding, rounding, divisor):
    x = RNG.standard_normal((2, 5, 21, 26)).astype(np.float32)
    check_avg(x, kernel, stride, padding, rounding=rounding, divisor=divisor)
    assert verdicts and all(verdicts)


def test_relu_data_zeros_and_negative_zeros(verdicts, no_recompute):
    """Zeros do not count as the smallest magnitude; windows of -0.0 only give +0.0."""
    x = np.maximum(RNG.standard_normal((1, 4, 17, 18)), 0).astype(np.float32)
    x[0, 1, :6, :6] = -0.0
    x[0, 2] = 0.0                                       # a plane of zeros only
    x[0, 3, ::2] = -0.0
    check_avg(x, 3, 2, 1, divisor="padded")
    check_avg(x, 2, 1)
    assert verdicts and all(verdicts)
    assert np.signbit(pooling.avg_pool(x, 2, 1).output).sum() == 0


def test_float16_and_subnormals(verdicts, no_recompute):
    x = RNG.standard_normal((1, 3, 14, 15)).astype(np.float16)
    x[0, 0, 0, :4] = np.array([6e-8, -6e-8, 1e-6, 0], dtype=np.float16)   # float16 subnormals
    check_avg(x, 3, 2, 1)
    f32 = (RNG.standard_normal((1, 2, 12, 12)) * 1e-38).astype(np.float32)  # float32 subnormals
    check_avg(f32, 3, 2, 1, divisor="padded")
    assert verdicts and all(verdicts)


def _span_plane(span, dtype=np.float32):
    """A plane whose magnitudes span binades 0 .. span: values 1.xxx * 2**e."""
    mant = 1 + RNG.integers(0, 2**20, size=(1, 1, 11, 12)) / 2**20
    e = RNG.integers(0, span + 1, size=mant.shape)
    e[0, 0, 0, 0], e[0, 0, 0, 1] = 0, span
    sign = RNG.choice([-1.0, 1.0], size=mant.shape)
    return (sign * mant * 2.0**e).astype(dtype)


@pytest.mark.parametrize("kernel, room", [(3, 25), (4, 25), (5, 24), (11, 22)])
def test_the_exactness_test_stops_at_its_room(kernel, room):
    """room = 53 - 23 - 1 - ceil(log2 K*K) for float32: exact up to that span, not beyond."""
    for span, expected in ((room, True), (room + 1, False)):
        x = _span_plane(span)
        a = np.abs(x).view(np.uint32)               # magnitudes as bits (no zeros here)
        top, low = a.max(axis=(2, 3)).ravel().tolist(), a.min(axis=(2, 3)).ravel().tolist()
        computed = 53 - 23 - 1 - int(np.ceil(np.log2(kernel * kernel)))
        assert computed == room
        layout = pooling._float_layout(np.dtype(np.float32))
        assert pooling._sums_are_exact(top, low, room, layout) is expected
        check_avg(x, kernel, 1, kernel // 2)         # both sides bit-identical to the reference


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_floor_log2_from_the_bits(dtype):
    """The exponent arithmetic on a float's bits: floor(log2 |v|) for normal numbers,
    subnormals (below the smallest normal exponent) and the largest finite value."""
    info = np.finfo(dtype)
    layout = pooling._float_layout(np.dtype(dtype))
    values = np.array([1.0, 1.5, 2.0, 3.0, 0.75, float(info.max), float(info.tiny),
                       float(info.smallest_subnormal), 3 * float(info.smallest_subnormal),
                       float(info.tiny) / 2, 1e-3], dtype=dtype)
    bits = values.view(f"u{np.dtype(dtype).itemsize}").tolist()
    expected = np.floor(np.log2(values.astype(np.float64))).astype(int).tolist()
    assert [layout.floor_log2(b) for b in bits] == expected
    inf = np.array([np.inf], dtype=dtype).view(f"u{np.dtype(dtype).itemsize}")[0]
    assert int(inf) >> layout.nmant == layout.special


def test_exact_sums_really_are_order_free():
    """On a plane that passes, float64 sums in scan order and in reverse are the same bits;
    the test can fail: on a plane far outside the room they differ."""
    def sums(x, order):
        w = np.lib.stride_tricks.sliding_window_view(x[0, 0].astype(np.float64), (3, 3))
        w = w.reshape(w.shape[:2] + (9,))[..., order]
        total = np.zeros(w.shape[:2])
        for k in range(9):
            total = total + w[..., k]
        return total
    forward, backward = list(range(9)), list(range(8, -1, -1))
    x = _span_plane(25)
    np.testing.assert_array_equal(sums(x, forward), sums(x, backward))
    far = _span_plane(60)
    far[0, 0, 0, :3] = np.array([2.0**30, 2.0**-30, -2.0**30], dtype=np.float32)
    assert not np.array_equal(sums(far, forward), sums(far, backward))


def test_an_inexact_plane_keeps_the_bound_check_for_its_block(verdicts, monkeypatch):
    """One plane of 2**30 and 2**-30 among exact planes: its block is checked and recomputed."""
    calls = []
    exact = pooling._avg_exact_at
    monkeypatch.setattr(pooling, "_avg_exact_at",
                        lambda *a: calls.append(a[3][0].size) or exact(*a))
    x = RNG.standard_normal((1, 6, 16, 17)).astype(np.float32)
    x[0, 4] = RNG.choice(np.array([2.0**30, -2.0**30, 2.0**-30, 1.0], dtype=np.float32),
                         size=(16, 17))
    check_avg(x, 3, 2, 1)
    assert False in verdicts and calls and min(calls) > 0


@pytest.mark.parametrize("divisor", ["valid", "padded"])
def test_an_order_dependent_sum_is_not_trusted(divisor):
    """2**27 + t - 2**27, t = 2**-4 (1 + 2**-23): the reference's scan order rounds
    2**27 + t (55 bits) and gives 2**-4; the box passes add the column 2**27 - 2**27
    first and give t.  The plane spans 31 binades, past the room of 25 for 3x3
    windows, so the shortcut must not be taken (a room of 32 would take it and
    return t / 9, a different float32)."""
    x = np.zeros((1, 1, 3, 3), dtype=np.float32)
    t = np.float32(2.0**-4 * (1 + 2.0**-23))
    x[0, 0, 0, 0], x[0, 0, 0, 1], x[0, 0, 1, 0] = 2.0**27, t, -(2.0**27)
    y = reference.avg_pool(x, 3, 1, divisor=divisor)
    assert y[0, 0, 0, 0] == np.float32(2.0**-4 / 9) != np.float32(float(t) / 9)
    check_avg(x, 3, 1, divisor=divisor)
    check_avg(np.tile(x, (1, 2, 4, 4)), 3, 3, divisor=divisor)


@pytest.mark.parametrize("call", [
    lambda x: pooling.max_pool(x, 3, 2, 1).output,
    lambda x: pooling.avg_pool(x, 3, 2, 1, divisor="padded").output,
    lambda x: pooling.avg_pool(x, 7, 2, 3).output,                       # blocks + leftover
    lambda x: pooling.avg_pool(x.astype(np.int16), 5, 3, 2).output,
    lambda x: pooling.avg_pool(x[:, :, None].repeat(3, axis=2), 3, 2, 1).output,   # 3-D
    lambda x: pooling.avg_pool(x[:, :, 0], 4, 2, 1).output,               # 1-D
])
def test_results_never_share_the_work_arrays(call):
    """The passes keep their work arrays between calls (no page faults); a result is
    never one of them: the first result survives a second call on other data."""
    x1 = RNG.standard_normal((2, 40, 30, 31)).astype(np.float32)
    x2 = RNG.standard_normal(x1.shape).astype(np.float32)
    y1 = call(x1)
    kept = y1.copy()
    y2 = call(x2)
    call(x1 * 3)
    np.testing.assert_array_equal(y1, kept)
    assert not np.shares_memory(y1, y2)
    np.testing.assert_array_equal(call(x2), y2)


def test_threads_do_not_share_work_arrays():
    import threading
    xs = [RNG.standard_normal((1, 24, 33, 35)).astype(np.float32) for _ in range(4)]
    expected = [reference.avg_pool(x, 3, 2, 1) for x in xs]
    failures = []

    def work(i):
        for _ in range(15):
            if not np.array_equal(pooling.avg_pool(xs[i], 3, 2, 1).output, expected[i]):
                failures.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
