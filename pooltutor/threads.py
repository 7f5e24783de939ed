"""How many threads the engine's box passes use, and how they split the work.

numpy releases the GIL inside a ufunc's inner loop, so two Python threads
that each run ``np.add`` / ``np.maximum`` over their own half of the planes
really run at once, on two cores.  :func:`pooltutor.separable.reduce_boxes`
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
always runs on the calling thread: waking a pool thread costs tens of
microseconds.  Where threads cannot start (Pyodide / JupyterLite), the
calling thread does every block.
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
_threads: int | None = None             # (None: the default, worked out on first use)
_executor: ThreadPoolExecutor | None = None
_executor_size = 0


def num_threads() -> int:
    """The number of threads a large box reduction is split over (1: no threads)."""
    global _threads
    if _threads is None:
        _threads = _default()
    return _threads


def set_num_threads(n: int) -> None:
    """Use ``n`` threads (``n >= 1``; 1 runs everything on the calling thread)."""
    global _threads
    _threads = check_int("n", n, minimum=1)     # (the pool grows when a call needs more)


def _pool(workers: int) -> ThreadPoolExecutor:
    """The pool's threads, at least ``workers`` of them."""
    global _executor, _executor_size
    with _LOCK:
        if _executor is None or _executor_size < workers:
            if _executor is not None:
                _executor.shutdown(wait=False)
            _executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pooltutor")
            _executor_size = workers
        return _executor


def run_parts(work: Callable[[_T], None], items: Sequence[_T], nbytes: int) -> None:
    """``work(item)`` for every item of ``items``, once each, shared out over
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
            work(item)
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
                work(items[k])
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
