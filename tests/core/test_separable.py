"""The separable box passes (pooltutor/separable.py) against a loop over every window.

The loop here is written out independently of the engine and of
pooltutor.reference: for every output position and every tap, the input
element it reads if it is inside the input.  Random 1-D, 2-D and 3-D geometries
(padding on either side, dilation, floor / ceil / ceil-clip rounding, windows
larger than the input, windows that lie entirely in the padding) cover every
kind of action a plan holds: pairs, ranges, copies, fills, and the blocks of
the stride that long windows are cut into.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pooltutor import separable
from pooltutor.errors import PoolTutorError
from pooltutor.geometry import pool_geometry

RNG = np.random.default_rng(20261203)


def _axes(geom):
    return tuple((a.kernel, a.stride, a.dilation, a.pad_begin, a.input_size, a.output_size)
                 for a in geom.axes)


def _window_loop(x, geom, op, identity, dtype):
    """``op`` over the input elements of every window, one output and one tap at a time."""
    out = np.full(x.shape[:2] + geom.output_shape, identity, dtype=dtype)
    lead = (slice(None), slice(None))
    for o in itertools.product(*(range(a.output_size) for a in geom.axes)):
        for j in itertools.product(*(range(a.kernel) for a in geom.axes)):
            at = [oo * a.stride - a.pad_begin + jj * a.dilation
                  for oo, jj, a in zip(o, j, geom.axes)]
            if all(0 <= t < a.input_size for t, a in zip(at, geom.axes)):
                out[lead + o] = op(out[lead + o], x[lead + tuple(at)].astype(dtype))
    return out


def _random_geometry(ndim):
    while True:
        size = tuple(int(v) for v in RNG.integers(1, 10, ndim))
        kernel = tuple(int(v) for v in RNG.integers(1, 8, ndim))
        stride = tuple(int(v) for v in RNG.integers(1, 4, ndim))
        dilation = tuple(int(v) for v in RNG.choice([1, 1, 2], ndim))
        pads = tuple((int(RNG.integers(0, 4)), int(RNG.integers(0, 4))) for _ in range(ndim))
        rounding = str(RNG.choice(["floor", "ceil", "ceil_torch"]))
        try:
            return pool_geometry(size, kernel, stride, pads, dilation, rounding)
        except (PoolTutorError, ValueError):
            continue            # no output, or a padding the rounding refuses


@pytest.fixture
def flat_rows_always(monkeypatch):
    """The flat last pass on blocks of any size (by default only on large ones)."""
    monkeypatch.setattr(separable, "ROW_MIN_OUTPUTS", 0)


@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("rows", ["flat rows on any block", "default"])
def test_random_geometries_give_the_window_loop(ndim, rows, monkeypatch):
    """Maxima (float32, int8) and exact sums (float64, int64) of every window, twice per plan:
    the padding of the work arrays stays filled from call to call."""
    if rows != "default":
        monkeypatch.setattr(separable, "ROW_MIN_OUTPUTS", 0)
    checked = flat_rows = 0
    for _ in range(60 if ndim < 3 else 30):
        geom = _random_geometry(ndim)
        plan = separable.box_plan(_axes(geom))
        assert plan.output_shape == geom.output_shape
        flat_rows += plan.flat_result
        for _ in range(2):
            x = RNG.integers(-100, 100, (2, 3) + geom.input_shape).astype(np.float32)
            before = x.copy()
            got = separable.reduce_boxes(x, plan, np.maximum, np.float32, -np.inf)
            np.testing.assert_array_equal(
                got, _window_loop(x, geom, np.maximum, -np.inf, np.float32))
            got = separable.reduce_boxes(x, plan, np.add, np.float64, 0.0)   # exact here
            np.testing.assert_array_equal(got, _window_loop(x, geom, np.add, 0.0, np.float64))
            ints = x.astype(np.int32)
            got = separable.reduce_boxes(ints, plan, np.add, np.int64, 0)
            np.testing.assert_array_equal(got, _window_loop(ints, geom, np.add, 0, np.int64))
            np.testing.assert_array_equal(x, before)
            small = x.astype(np.int8)
            lowest = np.iinfo(np.int8).min
            got = separable.reduce_boxes(small, plan, np.maximum, np.int8, lowest)
            np.testing.assert_array_equal(
                got, _window_loop(small, geom, np.maximum, lowest, np.int8))
        checked += 1
    assert checked >= 30
    assert ndim == 1 or flat_rows >= 5     # the flat last pass is among them


@pytest.mark.parametrize("kernel", [2, 3, 4, 5, 7, 11, 15])
def test_long_windows_are_cut_into_blocks_of_the_stride(kernel):
    """With stride 2, a window of K >= 4 taps costs fewer element visits than its K - 1
    taps one by one (the blocks), and gives the same sums."""
    geom = pool_geometry((112,), (kernel,), (2,), ((kernel // 2, kernel // 2),), (1,), "floor")
    plan = separable.box_plan(_axes(geom))
    shapes = {separable._RESULT: geom.output_shape,
              **{i: b for i, b in enumerate(plan.buffers)}}
    visits = sum(np.empty(shapes[a.target])[a.t[2:]].size
                 for a in plan.actions if a.kind in ("pair", "into"))
    taps_one_by_one = (kernel - 1) * geom.output_shape[0]
    if kernel >= 4:
        assert plan.buffers, "a long window is cut into blocks"
        assert visits < taps_one_by_one
    else:
        assert visits <= taps_one_by_one
    x = RNG.standard_normal((1, 2, 112))
    np.testing.assert_allclose(separable.reduce_boxes(x, plan, np.add, np.float64, 0.0),
                               _window_loop(x, geom, np.add, 0.0, np.float64), rtol=1e-12)


def test_a_window_entirely_in_the_padding_gives_the_identity():
    geom = pool_geometry((2,), (2,), (1,), ((3, 0),), (1,), "floor")
    plan = separable.box_plan(_axes(geom))
    x = np.arange(12, dtype=np.float32).reshape(2, 3, 2) + 1
    got = separable.reduce_boxes(x, plan, np.maximum, np.float32, -np.inf)
    assert np.isneginf(got[..., :2]).all()
    np.testing.assert_array_equal(got, _window_loop(x, geom, np.maximum, -np.inf, np.float32))


@pytest.mark.parametrize("shape", [(1, 64), (3, 5), (2, 1), (7, 3)])
@pytest.mark.parametrize("budget", [1, 3000, 1 << 20])
def test_plane_blocks_take_every_plane_once(shape, budget):
    blocks = separable.plane_blocks(shape + (8, 8), 1000, budget)
    seen = np.zeros(shape, dtype=int)
    for index in blocks:
        seen[index] += 1
    assert (seen == 1).all()
    sizes = {seen[index].size for index in blocks}
    assert len(sizes) <= 2              # equal blocks, and one smaller at most
    if budget >= 1000 * shape[0] * shape[1]:
        assert len(blocks) == 1


def test_scratch_arrays_are_kept_and_filled_only_when_made():
    a = separable.scratch((3, 4), np.float32, "test role", fill=-np.inf)
    assert np.isneginf(a).all()
    a[0, 0] = 5.0                       # a caller writing where the fill does not matter
    b = separable.scratch((3, 4), np.float32, "test role", fill=-np.inf)
    assert b is a and b[0, 0] == 5.0
    c = separable.scratch((3, 4), np.float32, "test role", fill=0.0)    # another fill
    assert c is not a and (c == 0).all()
    big = separable.scratch((2048, 1024), np.float32, "test role")      # 8 MiB: never kept
    assert separable.scratch((2048, 1024), np.float32, "test role") is not big


def _unpadded_geometry():
    """A 2-D geometry whose windows read no padding, with a row stride above 1 and short
    rows: the kind whose first pass runs over the flat block."""
    while True:
        size = tuple(int(v) for v in RNG.integers(2, 20, 2))
        kernel = (int(RNG.integers(2, 6)), int(RNG.integers(1, 6)))
        stride = (int(RNG.integers(2, 4)), int(RNG.integers(1, 4)))
        dilation = tuple(int(v) for v in RNG.choice([1, 1, 2], 2))
        rounding = str(RNG.choice(["floor", "ceil_torch"]))
        try:
            geom = pool_geometry(size, kernel, stride, 0, dilation, rounding)
        except (PoolTutorError, ValueError):
            continue
        if all((a.output_size - 1) * a.stride + a.effective_kernel <= a.input_size
               for a in geom.axes):
            return geom


def test_short_rows_take_the_full_resolution_first_pass_and_give_the_window_loop():
    """Maxima in the input's dtype: the first pass over the flat block (every row reduced
    with the rows below it), the next pass on every S-th row; a block that is not one
    contiguous array, or a reduction cast to a wider dtype, takes the ordinary plan."""
    used = 0
    for _ in range(60):
        geom = _unpadded_geometry()
        plan = separable.box_plan(_axes(geom), True)
        ordinary = separable.box_plan(_axes(geom))
        assert not ordinary.flat_input
        if not plan.flat_input:         # (a window of long blocks: no flat pass)
            continue
        used += 1
        assert plan.fallback == ordinary
        assert plan.actions[0].kind == "flat_pair"
        assert plan.buffers[0] == geom.input_shape           # every row of the input
        x = RNG.standard_normal((2, 3) + geom.input_shape).astype(np.float32)
        for xs in (x, np.asfortranarray(x), x[:, ::-1]):     # contiguous or not
            before = xs.copy()
            got = separable.reduce_boxes(xs, plan, np.maximum, np.float32, -np.inf)
            np.testing.assert_array_equal(
                got, _window_loop(xs, geom, np.maximum, -np.inf, np.float32))
            np.testing.assert_array_equal(xs, before)
        ints = RNG.integers(-5, 5, (1, 2) + geom.input_shape).astype(np.int16)
        got = separable.reduce_boxes(ints, plan, np.add, np.int64, 0)      # cast: ordinary
        np.testing.assert_array_equal(got, _window_loop(ints, geom, np.add, 0, np.int64))
        got = separable.reduce_boxes(ints, plan, np.maximum, np.int16, -(2**15))
        np.testing.assert_array_equal(
            got, _window_loop(ints, geom, np.maximum, -(2**15), np.int16))
    assert used >= 30


def test_long_rows_and_padding_keep_the_ordinary_first_pass():
    for size, padding in (((112, 112), 0), ((14, 14), 1)):
        geom = pool_geometry(size, 2, 2, padding)
        assert not separable.box_plan(_axes(geom), True).flat_input


def _row_geometry():
    """A 2-D or 3-D geometry whose last pass runs over the flat rows (see
    separable._row_layout): widths that are whole multiples of the stride, windows
    that read the padding or not, long windows in aligned blocks."""
    while True:
        ndim = int(RNG.integers(2, 4))
        stride = tuple(int(v) for v in RNG.integers(1, 4, ndim))
        kernel = tuple(int(v) for v in RNG.integers(1, 9 if ndim == 2 else 5, ndim))
        size = tuple(int(v) for v in RNG.integers(1, 7, ndim) * np.array(stride))
        dilation = tuple(int(v) for v in RNG.choice([1, 1, 1, 2], ndim))
        pads = tuple((int(RNG.integers(0, k)), int(RNG.integers(0, k))) for k in kernel)
        rounding = str(RNG.choice(["floor", "ceil_torch"]))
        try:
            geom = pool_geometry(size, kernel, stride, pads, dilation, rounding)
        except (PoolTutorError, ValueError):
            continue
        if separable.box_plan(_axes(geom)).flat_result:
            return geom


def test_the_flat_last_pass_gives_the_window_loop(flat_rows_always):
    """The last pass over the flat rows, whose taps read the neighbouring row outside
    their range (put back or overwritten afterwards): maxima and sums, twice per plan,
    into a contiguous result and into one that is not (the ordinary last pass)."""
    kinds = set()
    for _ in range(60):
        geom = _row_geometry()
        plan = separable.box_plan(_axes(geom))
        assert plan.fallback is not None and not plan.fallback.flat_result
        kinds.update(a.kind for a in plan.actions)
        kinds.add("blocks" if len(plan.buffers) > geom.ndim - 1 else "taps")
        x = RNG.integers(-100, 100, (2, 3) + geom.input_shape).astype(np.float32)
        before = x.copy()
        want_max = _window_loop(x, geom, np.maximum, -np.inf, np.float32)
        want_sum = _window_loop(x, geom, np.add, 0.0, np.float64)
        for _ in range(2):
            np.testing.assert_array_equal(
                separable.reduce_boxes(x, plan, np.maximum, np.float32, -np.inf), want_max)
            np.testing.assert_array_equal(
                separable.reduce_boxes(x, plan, np.add, np.float64, 0.0), want_sum)
        strided = np.empty(x.shape[:2] + geom.output_shape[:-1] + (2 * geom.output_shape[-1],))
        result = strided[..., ::2]
        assert not result.flags.c_contiguous
        separable.reduce_block(x, plan, np.add, np.dtype(np.float64), 0.0, result)
        np.testing.assert_array_equal(result, want_sum)
        np.testing.assert_array_equal(x, before)
    assert {"row_pair", "row_into", "blocks", "taps"} <= kinds


def test_the_flat_last_pass_runs_on_large_contiguous_blocks_only():
    geom = pool_geometry((112, 112), 3, 2, 1)
    plan = separable.box_plan(_axes(geom))
    x = np.zeros((1, 4, 112, 112), dtype=np.float32)
    large = np.empty((1, 4, 56, 56))
    assert large.size >= separable.ROW_MIN_OUTPUTS
    assert plan.runs_on(x, large, np.dtype(np.float64))
    assert not plan.runs_on(x, large[:, :1], np.dtype(np.float64))      # small
    assert not plan.runs_on(x, large.transpose(0, 1, 3, 2), np.dtype(np.float64))
    assert plan.fallback.runs_on(x, large[:, :1], np.dtype(np.float64))


@pytest.mark.parametrize("kernel", [3, 5, 7, 11])
def test_the_stem_geometries_take_the_flat_last_pass(kernel, flat_rows_always):
    """(112, 112), stride 2, padding K // 2: the benchmark's average poolings.  The rows
    pass writes whole unpadded rows; long windows read aligned blocks of the stride."""
    geom = pool_geometry((112, 112), kernel, 2, kernel // 2)
    plan = separable.box_plan(_axes(geom))
    assert plan.flat_result
    assert plan.buffers[0] == (56, 112)
    assert plan.buffers[-1] == ((56, 56) if kernel >= 5 else (56, 112))   # the row blocks
    x = RNG.integers(-1000, 1000, (1, 2, 112, 112)).astype(np.float64)    # exact sums
    # (the ordinary plan: the window loop's sums, tested above; 121 taps of 3136 windows
    # in a Python loop would take seconds)
    np.testing.assert_array_equal(separable.reduce_boxes(x, plan, np.add, np.float64, 0.0),
                                  separable.reduce_boxes(x, plan.fallback, np.add, np.float64,
                                                         0.0))


@pytest.mark.parametrize("kernel", [3, 7])
def test_the_flat_last_pass_reads_inf_and_nan_at_row_ends_without_a_warning(kernel,
                                                                            flat_rows_always):
    """A tap that leaves out a row's first or last output reads the neighbouring row's
    element there: an inf or NaN at a row's end then enters a sum or a maximum that is
    put back afterwards.  No warning may escape (the suite turns warnings into errors),
    and the results are the ordinary plan's."""
    geom = pool_geometry((16, 16), kernel, 2, kernel // 2)
    plan = separable.box_plan(_axes(geom))
    assert plan.flat_result
    x = RNG.integers(-50, 50, (1, 4, 16, 16)).astype(np.float64)     # exact sums in any order
    x[0, 0, :, -1] = np.inf
    x[0, 1, :, 0] = -np.inf
    x[0, 2, ::3, -1] = np.nan
    x[0, 3, :, 0], x[0, 3, :, -1] = np.inf, -np.inf
    for op, identity in ((np.maximum, -np.inf), (np.add, 0.0)):
        # (no window holds both an inf and a -inf: no warning is due)
        want = separable.reduce_boxes(x, plan.fallback, op, np.float64, identity)
        got = separable.reduce_boxes(x, plan, op, np.float64, identity)
        np.testing.assert_array_equal(got, want)
    got = separable.reduce_boxes(x[:, :3], plan, np.maximum, np.float64, -np.inf)
    np.testing.assert_array_equal(got, want_max := separable.reduce_boxes(
        x[:, :3], plan.fallback, np.maximum, np.float64, -np.inf))
    assert np.isnan(want_max).any() and np.isposinf(want_max).any()
