"""How many threads the engine's box passes use, and how they split the work.

numpy releases the GIL inside a ufunc's inner loop, so two Python threads
that each run ``np.add`` / ``np.maximum`` over their own half of the planes
really run at once, on two cores.  :func:`pooltutor.pooling._box_reduce`
(values-only max pooling and average pooling) shares its blocks of planes
out over threads (:func:`run_parts`): the caller and the pool's threads
each take the next block until none is left.  Every output is computed by
exactly the same numpy calls as with one thread (a block is whole planes),
so the numbers are the same bits whatever the thread count; only the
wall-clock time changes.

>>> import pooltutor.threads as threads
>>> before = threads.num_threads()
>>> threads.set_num_threads(1)          # everything on the calling thread
>>> threads.num_threads()
1
>>> threads.set_num_threads(before)

The default is the number of cores this process may run on, at most 4 (the
passes are bound by memory bandwidth, which a few cores already fill), or
the ``POOLTUTOR_NUM_THREADS`` environment variable.  Work below
:data:`MIN_PARALLEL_BYTES` of intermediate data (every notebook figure)
always runs on the calling thread: starting a part costs tens of
microseconds.  Where threads cannot start (Pyodide / JupyterLite), the
parts run one after the other on the calling thread.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from .errors import check_int

__all__ = ["num_threads", "set_num_threads", "MIN_PARALLEL_BYTES", "run_parts"]

_T = TypeVar("_T")

MIN_PARALLEL_BYTES = 1 << 20
"""Below this many bytes of intermediate data a reduction runs on the calling thread."""

_MAX_DEFAULT = 4


def _default() -> int:
    env = os.environ.get("POOLTUTOR_NUM_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass                        # a malformed variable: the default below
    if sys.platform == "emscripten":    # Pyodide: no threads
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):   # (not on macOS / Windows)
        cores = os.cpu_count() or 1
    return max(1, min(_MAX_DEFAULT, cores))


_LOCK = threading.Lock()
_STATE: dict[str, object] = {"threads": None, "pool": None, "size": 0}


def num_threads() -> int:
    """The number of threads a large box reduction is split over (1: no threads)."""
    n = _STATE["threads"]
    if n is None:
        n = _STATE["threads"] = _default()
    assert isinstance(n, int)
    return n


def set_num_threads(n: int) -> None:
    """Use ``n`` threads (``n >= 1``; 1 runs everything on the calling thread)."""
    n = check_int("n", n, minimum=1)
    with _LOCK:
        _STATE["threads"] = n           # (the pool grows when a call needs more workers)


def _pool(workers: int) -> ThreadPoolExecutor:
    with _LOCK:
        pool = _STATE["pool"]
        size = _STATE.get("size", 0)
        assert isinstance(size, int)
        if pool is None or size < workers:
            if isinstance(pool, ThreadPoolExecutor):
                pool.shutdown(wait=False)
            pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pooltutor")
            _STATE["pool"], _STATE["size"] = pool, workers
        assert isinstance(pool, ThreadPoolExecutor)
        return pool


def run_parts(work: Callable[[Sequence[_T]], None], items: Sequence[_T], nbytes: int) -> None:
    """``work([item])`` for every item of ``items``, once each, shared out over
    :func:`num_threads` threads when ``nbytes`` (the intermediate data of the
    whole reduction) is at least :data:`MIN_PARALLEL_BYTES`.

    The threads take the next item from one queue, the calling thread among
    them, so a thread that gets a core late (another program is busy on it)
    simply takes fewer items: the call never waits for a part that was fixed in
    advance, only for the items other threads have already begun.  A pool thread
    that starts after the queue is empty does nothing.  After a failure no new
    item is begun; once the items already begun are done, the exception of the
    first failed item (in ``items`` order) is raised again.  numpy's
    floating-point error handling (:func:`numpy.errstate`) is the caller's in
    every thread.
    """
    n = min(num_threads(), len(items)) if nbytes >= MIN_PARALLEL_BYTES else 1
    if n <= 1:
        for item in items:
            work([item])
        return
    errstate = np.geterr()
    cond = threading.Condition()
    state = {"next": 0, "running": 0}
    errors: dict[int, BaseException] = {}

    def take_items() -> None:
        while True:
            with cond:
                k = state["next"]
                if errors or k >= len(items):
                    return
                state["next"] = k + 1
                state["running"] += 1
            try:
                work([items[k]])
            except BaseException as exc:    # (raised again by the caller)
                with cond:
                    errors[k] = exc
            finally:
                with cond:
                    state["running"] -= 1
                    cond.notify_all()

    def in_pool() -> None:
        with np.errstate(**errstate):       # (thread-local in numpy 1.x, a context in 2.x)
            take_items()

    try:
        pool = _pool(n - 1)
        for _ in range(n - 1):
            pool.submit(in_pool)
    except RuntimeError:                    # no thread could start: the caller does it all
        pass
    take_items()
    with cond:
        cond.wait_for(lambda: state["running"] == 0)
    if errors:
        raise errors[min(errors)]
