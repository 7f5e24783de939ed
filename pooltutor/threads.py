"""How many threads the engine's box passes use, and how they split the work.

numpy releases the GIL inside a ufunc's inner loop, so two Python threads
that each run ``np.add`` / ``np.maximum`` over their own half of the planes
really run at once, on two cores.  :func:`pooltutor.pooling._box_reduce`
(values-only max pooling and average pooling) splits its blocks of planes
into contiguous parts and hands each part to a thread: the caller runs the
first part itself, the pool's threads the others, and the call returns when
all are done.  Every output is computed by exactly the same numpy calls as
with one thread (the parts are whole planes), so the numbers are the same
bits whatever the thread count; only the wall-clock time changes.

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
from concurrent.futures import Future, ThreadPoolExecutor
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


def split(items: Sequence[_T], parts: int) -> list[Sequence[_T]]:
    """``items`` cut into at most ``parts`` contiguous runs of nearly equal length."""
    parts = max(1, min(parts, len(items)))
    q, r = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + q + (i < r)
        out.append(items[start:end])
        start = end
    return out


def run_parts(work: Callable[[Sequence[_T]], None], items: Sequence[_T], nbytes: int) -> None:
    """``work(part)`` for contiguous parts of ``items`` that together cover it once,
    over :func:`num_threads` threads when ``nbytes`` (the intermediate data of the
    whole reduction) is at least :data:`MIN_PARALLEL_BYTES`.

    The first part runs on the calling thread.  Every part is waited for, also
    when one raises; then the first exception (in part order) is raised again.
    numpy's floating-point error handling (:func:`numpy.errstate`) is the
    caller's in every thread.
    """
    n = num_threads() if nbytes >= MIN_PARALLEL_BYTES else 1
    parts = split(items, n)
    if len(parts) <= 1:
        work(items)
        return
    errstate = np.geterr()

    def run(part: Sequence[_T]) -> None:
        with np.errstate(**errstate):   # (thread-local in numpy 1.x, a context in 2.x)
            work(part)

    futures: list[Future[None]] = []
    try:
        pool = _pool(len(parts) - 1)
        for part in parts[1:]:
            futures.append(pool.submit(run, part))
    except RuntimeError:                # no thread could start: the rest runs here
        pass
    errors: list[BaseException] = []
    try:
        work(parts[0])
    except BaseException as exc:        # (re-raised below, after the others)
        errors.append(exc)
    for part in parts[1 + len(futures):]:
        if errors:
            break
        try:
            work(part)
        except BaseException as exc:
            errors.append(exc)
    for f in futures:
        failure = f.exception()         # (waits)
        if failure is not None:
            errors.append(failure)
    if errors:
        raise errors[0]
