"""The engine's box passes split over threads (pooltutor.threads): the same bits as
one thread and as the loop reference, errors and numpy's error state carried over."""

from __future__ import annotations

import threading
import time
import warnings

import numpy as np
import pytest

from pooltutor import pooling, reference, separable, threads
from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.indexing import INDEX_LAYOUTS, from_plane

from pool_checks import check_avg  # isort: skip


@pytest.fixture
def every_plane_a_part(monkeypatch):
    """Two threads, one plane per block and no size threshold: even a small input is
    split into parts, so that the loop reference can check every output."""
    before = threads.num_threads()
    threads.set_num_threads(2)
    monkeypatch.setattr(threads, "MIN_PARALLEL_BYTES", 0)
    chunks = separable.plane_blocks
    for module in (separable, pooling):      # (the box passes, and max pooling with indices)
        monkeypatch.setattr(module, "plane_blocks",
                            lambda shape, nbytes, budget=1: chunks(shape, nbytes, 1))
    seen: set[str] = set()
    main = threading.current_thread().name
    run_parts = threads.run_parts

    def recording(work, items, nbytes):
        def tracked(item):
            name = threading.current_thread().name
            seen.add(name)
            if name == main:            # (the caller would often finish every tiny block
                time.sleep(0.002)       # before a pool thread wakes: let one take part)
            work(item)
        run_parts(tracked, items, nbytes)

    monkeypatch.setattr(separable, "run_parts", recording)
    monkeypatch.setattr(pooling, "run_parts", recording)
    yield seen
    threads.set_num_threads(before)


def test_set_num_threads_checks_its_argument():
    with pytest.raises(PoolTutorError, match="n=0"):
        threads.set_num_threads(0)
    with pytest.raises(PoolTutorTypeError, match="n='2'"):
        threads.set_num_threads("2")
    assert threads.num_threads() >= 1


def test_default_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("POOLTUTOR_NUM_THREADS", "3")
    assert threads._default() == 3
    monkeypatch.setenv("POOLTUTOR_NUM_THREADS", "many")     # malformed: the core count
    assert 1 <= threads._default() <= 4


def test_run_parts_does_every_item_once_and_raises_the_first_failure(monkeypatch):
    monkeypatch.setattr(threads, "MIN_PARALLEL_BYTES", 0)
    before = threads.num_threads()
    threads.set_num_threads(3)
    try:
        done: list[int] = []
        threads.run_parts(done.append, list(range(40)), 1)
        assert sorted(done) == list(range(40))

        done.clear()

        def work(k):
            if k in (3, 4):
                raise KeyError(k)
            if k == 2:
                time.sleep(0.2)         # begun before 3 failed: waited for, not abandoned
            done.append(k)

        with pytest.raises(KeyError, match="3"):
            threads.run_parts(work, list(range(12)), 1)
        assert {0, 1, 2} <= set(done)
        assert not set(done) & {3, 4}
    finally:
        threads.set_num_threads(before)


def test_small_work_stays_on_the_calling_thread():
    names: list[str] = []
    threads.run_parts(lambda item: names.append(threading.current_thread().name),
                      list(range(8)), threads.MIN_PARALLEL_BYTES - 1)
    assert names == [threading.current_thread().name] * 8


CASES = [
    dict(kernel=3, stride=2, padding=1),
    dict(kernel=3, stride=2, padding=1, divisor="padded"),
    dict(kernel=(2, 3), stride=(1, 2), padding=((1, 0), (0, 2)), rounding="ceil_torch"),
    dict(kernel=7, stride=2, padding=3, divisor="padded"),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_parts_give_the_reference_averages(every_plane_a_part, case, dtype):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((2, 5, 11, 13)) * 40).astype(dtype)
    check_avg(x, **case)
    assert len(every_plane_a_part) == 2         # both threads took part


def test_parts_on_the_bound_path_and_its_recomputed_outputs(every_plane_a_part):
    # planes spanning more binades than exact float64 sums allow, on a coarse grid
    # (averages on float32 rounding midpoints): the bound of _avg_pool_fast decides,
    # and the unsure outputs of every thread's blocks are recomputed
    rng = np.random.default_rng(9)
    x = rng.integers(-64, 64, (1, 6, 12, 12)).astype(np.float32)
    x[:, :, 0, 0] = 2.0 ** 30
    x[:, :, 0, 1] = 2.0 ** -30
    check_avg(x, 3, 1, 1)
    assert len(every_plane_a_part) == 2


def test_a_non_finite_plane_in_another_thread_hands_over_to_the_tap_loop(every_plane_a_part):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 6, 8, 8)).astype(np.float32)
    x[0, 5, 2, 2] = np.inf              # the last plane: a worker's part
    x[0, 5, 2, 3] = -np.inf             # inf + -inf inside the passes: NaN, and no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_avg(x, 3, 2, 1)
    assert len(every_plane_a_part) == 2


@pytest.mark.parametrize("case", [dict(kernel=3, stride=2, padding=1),
                                  dict(kernel=(2, 2, 3), stride=2, padding=(0, 1, 1))])
def test_parts_give_the_reference_maxima(every_plane_a_part, case):
    rng = np.random.default_rng(1)
    ndim = len(case["kernel"]) if isinstance(case["kernel"], tuple) else 2
    x = rng.standard_normal((2, 3) + (7,) * ndim).astype(np.float32)
    r = pooling.max_pool(x, **case)
    np.testing.assert_array_equal(r.output, reference.max_pool(x, **case)[0])
    assert len(every_plane_a_part) == 2


@pytest.mark.parametrize("case", [dict(kernel=3, stride=2, padding=1),     # phase-split copies
                                  dict(kernel=2, stride=2),                 # x's own taps
                                  dict(kernel=(2, 2, 3), stride=2, padding=(0, 1, 1))])
@pytest.mark.parametrize("ties", ["first", "last"])
def test_parts_give_the_reference_indices(every_plane_a_part, case, ties):
    """Max pooling with indices, one block of planes per part: every layout's indices
    carry their block's (n, c) offsets, ties (small integers) go the asked way, and a
    NaN in one block hands the whole call to the general path."""
    rng = np.random.default_rng(5)
    ndim = len(case["kernel"]) if isinstance(case["kernel"], tuple) else 2
    x = rng.integers(-2, 3, (2, 3) + (7,) * ndim).astype(np.float32)
    for poison in (False, True):
        if poison:
            x[1, 2].flat[5] = np.nan
        y, plane = reference.max_pool(x, **case, ties=ties)
        for layout in INDEX_LAYOUTS:
            r = pooling.max_pool(x, **case, ties=ties, return_indices=True, index_layout=layout)
            np.testing.assert_array_equal(r.output, y)
            np.testing.assert_array_equal(r.indices, from_plane(plane, x.shape, layout))
    assert len(every_plane_a_part) >= 2      # the calling thread and a pool thread


def test_thread_count_changes_no_bit_on_a_large_input():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 64, 56, 112)).astype(np.float32)
    before = threads.num_threads()
    try:
        results = []
        for n in (1, 2, 3):
            threads.set_num_threads(n)
            results.append((pooling.avg_pool(x, 3, 2, 1, divisor="padded").output,
                            pooling.max_pool(x, 3, 2, 1).output))
    finally:
        threads.set_num_threads(before)
    for avg, mx in results[1:]:
        np.testing.assert_array_equal(avg.view(np.uint32), results[0][0].view(np.uint32))
        np.testing.assert_array_equal(mx, results[0][1])
