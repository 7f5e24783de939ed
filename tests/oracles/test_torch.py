"""The PyTorch dialects against PyTorch itself, on seeded random cases with ties and NaN.

Runs whenever torch is importable.  Inputs are small integers (ties in almost
every window) with a sprinkling of NaN and +-inf.  Two documented differences
are translated, never skipped silently:

* a max window with no input element (dilation): PyTorch returns ``-inf`` with
  an index computed from a tap outside the input, pooltutor ``-inf`` with
  index ``-1`` (``torch_max_pool`` docstring, TV20).

A ceil-mode window longer than the padded input (one overhanging window) is
compared like every other case.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from pooltutor.frameworks import (
    torch_adaptive_avg_pool,
    torch_adaptive_max_pool,
    torch_avg_pool,
    torch_max_pool,
)

torch = pytest.importorskip("torch")
F = torch.nn.functional

pytestmark = pytest.mark.torch

SEED = 1234


def _values(rng, shape, dtype, specials=True):
    x = rng.randint(-2, 4, size=shape).astype(dtype)
    if specials and x.dtype.kind == "f":
        for _ in range(rng.randint(0, 3)):
            x.flat[rng.randint(x.size)] = (np.nan, np.inf, -np.inf)[rng.randint(3)]
    return x


def _shape(rng, ndim):
    top = (9, 6, 4)[ndim - 1]
    return (rng.randint(1, 3), rng.randint(1, 3)) + tuple(int(s) for s in rng.randint(1, top, ndim))


def _torch(fn, ndim):
    return getattr(F, f"{fn}{ndim}d")


def test_max_pool_matches_torch():
    rng = np.random.RandomState(SEED)
    compared = with_nan = with_empty = 0
    start = time.perf_counter()
    for _ in range(260):
        ndim = rng.randint(1, 4)
        x = _values(rng, _shape(rng, ndim), ("float64", "float32", "int64")[rng.randint(3)])
        k = tuple(int(v) for v in rng.randint(1, 4, ndim))
        s = tuple(int(v) for v in rng.randint(1, 4, ndim))
        d = tuple(int(v) for v in rng.randint(1, 4, ndim)) if rng.rand() < 0.4 else (1,) * ndim
        p = tuple(int(rng.randint(0, kk // 2 + 1)) for kk in k)
        ceil = bool(rng.rand() < 0.5)
        before = x.copy()
        try:
            yt, it = _torch("max_pool", ndim)(torch.from_numpy(x), k, s, p, d, ceil_mode=ceil,
                                               return_indices=True)
        except RuntimeError as exc:          # torch refuses: so must we
            assert "Output size is too small" in str(exc)
            with pytest.raises(ValueError, match="kernel_size="):
                torch_max_pool(x, k, s, p, d, ceil, True)
            continue
        y, idx = torch_max_pool(x, k, s, p, d, ceil, True)
        yt, it = yt.numpy(), it.numpy()
        empty = idx == -1
        assert y.dtype == x.dtype and idx.dtype == np.int64
        np.testing.assert_array_equal(y, yt)                  # NaN == NaN here
        np.testing.assert_array_equal(idx[~empty], it[~empty])
        assert np.all(y[empty] == (-np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min))
        assert np.all(it[empty] != -1)        # torch: a position computed from a tap outside
        np.testing.assert_array_equal(x, before)
        compared += 1
        with_nan += bool(np.isnan(y).any()) if y.dtype.kind == "f" else 0
        with_empty += bool(empty.any())
    print(f"torch max_pool: {compared} compared ({with_nan} with NaN, {with_empty} with an "
          f"empty window)")
    assert compared >= 150 and with_nan >= 10 and with_empty >= 3, (compared, with_nan)
    assert time.perf_counter() - start < 15


def test_avg_pool_matches_torch():
    rng = np.random.RandomState(SEED + 1)
    compared = overridden = 0
    start = time.perf_counter()
    for _ in range(220):
        ndim = rng.randint(1, 4)
        dtype = ("float64", "float32")[rng.randint(2)]
        x = _values(rng, _shape(rng, ndim), dtype, specials=False)
        k = tuple(int(v) for v in rng.randint(1, 4, ndim))
        s = tuple(int(v) for v in rng.randint(1, 4, ndim))
        p = tuple(int(rng.randint(0, kk // 2 + 1)) for kk in k)
        ceil = bool(rng.rand() < 0.5)
        cip = bool(rng.rand() < 0.5)
        div = None
        if ndim > 1 and rng.rand() < 0.4:
            div = int((-3, -1, 1, 2, 5)[rng.randint(5)])
        kwargs = dict(ceil_mode=ceil, count_include_pad=cip)
        if div is not None:
            kwargs["divisor_override"] = div
        try:
            yt = _torch("avg_pool", ndim)(torch.from_numpy(x), k, s, p, **kwargs).numpy()
        except RuntimeError as exc:
            assert "Output size is too small" in str(exc) or "smaller than kernel" in str(exc)
            with pytest.raises(ValueError, match="kernel_size="):
                torch_avg_pool(x, k, s, p, **kwargs)
            continue
        y = torch_avg_pool(x, k, s, p, **kwargs)
        assert y.dtype == x.dtype and y.shape == yt.shape
        tol = 1e-12 if dtype == "float64" else 2e-6
        np.testing.assert_allclose(y, yt, rtol=tol, atol=tol)
        compared += 1
        overridden += div is not None
    print(f"torch avg_pool: {compared} compared ({overridden} with divisor_override)")
    assert compared >= 120 and overridden >= 20, (compared, overridden)
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_adaptive_pools_match_torch(ndim):
    rng = np.random.RandomState(SEED + 10 + ndim)
    fn_max, fn_avg = _torch("adaptive_max_pool", ndim), _torch("adaptive_avg_pool", ndim)
    compared = with_nan = 0
    for _ in range(40):
        shape = _shape(rng, ndim)
        x = _values(rng, shape, ("float64", "float32")[rng.randint(2)])
        out = tuple(int(rng.randint(1, i + 3)) for i in shape[2:])   # also O > I
        yt, it = fn_max(torch.from_numpy(x), out, return_indices=True)
        y, idx = torch_adaptive_max_pool(x, out, return_indices=True)
        np.testing.assert_array_equal(y, yt.numpy())
        np.testing.assert_array_equal(idx, it.numpy())
        assert idx.dtype == np.int64 and y.dtype == x.dtype
        np.testing.assert_array_equal(torch_adaptive_max_pool(x, out), y)
        finite = np.nan_to_num(x, nan=0.5, posinf=7.0, neginf=-7.0)
        a = torch_adaptive_avg_pool(finite, out)
        tol = 1e-12 if x.dtype == np.float64 else 2e-6
        np.testing.assert_allclose(a, fn_avg(torch.from_numpy(finite), out).numpy(), rtol=tol,
                                   atol=tol)
        assert a.dtype == x.dtype
        compared += 1
        with_nan += bool(np.isnan(y).any())
    print(f"torch adaptive {ndim}-D: {compared} compared ({with_nan} with NaN)")
    assert compared == 40 and with_nan >= 5


def test_adaptive_output_size_none_keeps_the_axis():
    x = np.arange(30.0).reshape(1, 1, 5, 6)
    got = torch_adaptive_avg_pool(x, (None, 4))
    want = F.adaptive_avg_pool2d(torch.from_numpy(x), (None, 4)).numpy()
    np.testing.assert_allclose(got, want)
    assert got.shape == (1, 1, 5, 4)


def test_tv20_torch_index_points_outside_the_input():
    """The documented difference: PyTorch's index for an empty window, pooltutor's -1."""
    x = np.array([[[5.0, 7.0]]])
    yt, it = F.max_pool1d(torch.from_numpy(x), 2, 1, 1, 3, return_indices=True)
    assert yt.item() == -np.inf and it.item() == 2
    y, idx = torch_max_pool(x, 2, 1, 1, 3, return_indices=True)
    assert y.item() == -np.inf and idx.item() == -1


def test_ceil_window_longer_than_the_input_pools_like_torch():
    """ceil mode rounds (M - DK)/S in (-1, 0) up: one window overhanging the input."""
    x = np.array([[[4.0]]])
    yt, it = F.max_pool1d(torch.from_numpy(x), 2, 2, ceil_mode=True, return_indices=True)
    y, idx = torch_max_pool(x, 2, 2, ceil_mode=True, return_indices=True)
    assert y.shape == tuple(yt.shape) == (1, 1, 1)
    assert y.item() == yt.item() == 4.0 and idx.item() == it.item() == 0
    at = F.avg_pool1d(torch.from_numpy(x), 2, 2, ceil_mode=True).item()
    assert torch_avg_pool(x, 2, 2, ceil_mode=True).item() == at


def test_rejections_agree_with_torch():
    x = np.arange(25.0).reshape(1, 1, 5, 5)
    t = torch.from_numpy(x)
    cases = [
        (torch_max_pool, F.max_pool2d, dict(kernel_size=3, padding=2), "half of kernel size"),
        (torch_max_pool, F.max_pool2d, dict(kernel_size=3, padding=2, dilation=3),
         "half of kernel size"),
        (torch_avg_pool, F.avg_pool2d, dict(kernel_size=3, padding=2),
         "half of effective kernel size"),
        (torch_max_pool, F.max_pool2d, dict(kernel_size=7), "kernel_size=7"),
        (torch_avg_pool, F.avg_pool2d, dict(kernel_size=2, divisor_override=0), "not zero"),
        (torch_max_pool, F.max_pool2d, dict(kernel_size=2, dilation=0), "dilation=0"),
        (torch_max_pool, F.max_pool2d, dict(kernel_size=2, padding=-1), "padding=-1"),
    ]
    for ours, theirs, kwargs, match in cases:
        with pytest.raises(RuntimeError):
            theirs(t, **kwargs)
        with pytest.raises(ValueError, match=match):
            ours(x, **kwargs)
