"""Execute every course notebook once per test session (shared by test_notebooks.py and
tests/notebooks/test_spoilers.py through the session fixture ``executed`` in conftest.py)."""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pooltutor.course.notebooks import notebook_sources
from pooltutor.course.slides import KERNEL_ATTEMPTS

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SOURCES = notebook_sources(NOTEBOOKS)
TIMEOUT = 180  # seconds per cell
WORKERS = 2  # two cores: two kernels at a time
#: wall-clock seconds of the last :func:`execute_all` (for the runtime budget test)
WALL: dict[str, float] = {}
#: per notebook, the CPU seconds its kernel spent running the cells (Linux: None elsewhere)
KERNEL_CPU: dict[str, float | None] = {}


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``), else None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()     # after the command name: state, ppid, ...
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime, stime


def _execute(py: Path, attempts: int = KERNEL_ATTEMPTS):
    """Execute one notebook; returns ``(notebook, exception or None, seconds)``.

    A kernel that dies before its first cell (a port another kernel, starting at the
    same moment on the other worker, took between its choice and its bind) is replaced,
    as ``pooltutor slides`` does: at most ``attempts`` kernels."""
    import jupytext
    import nbclient

    for attempt in range(1, attempts + 1):
        nb = jupytext.read(py)
        client = nbclient.NotebookClient(
            nb,
            timeout=TIMEOUT,
            kernel_name="python3",
            store_widget_state=True,
            resources={"metadata": {"path": str(py.parent)}},
        )
        cpu: list[float | None] = [None]
        started: list[int] = []

        def after_cell(client=client, cpu=cpu, **_) -> None:
            # the kernel's own CPU time after each cell (it is gone after the last one):
            # unlike the wall clock, it does not grow when the tests beside these share
            # the cores
            provisioner = client.km.provisioner if client.km is not None else None
            pid = getattr(provisioner, "pid", None)
            if pid is not None:
                cpu[0] = _cpu_seconds(pid)

        client.on_cell_execute = lambda started=started, **_: started.append(1)
        client.on_cell_executed = after_cell
        start = time.perf_counter()
        # one event loop per worker thread, closed afterwards (nbclient's own sync wrapper
        # would leave it open, and an unclosed loop is a ResourceWarning, i.e. an error here)
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(client.async_execute())
        except RuntimeError as exc:     # the kernel died
            if started or attempt == attempts:
                return nb, exc, time.perf_counter() - start
            continue
        except Exception as exc:  # noqa: BLE001 - reported by the tests, per notebook
            return nb, exc, time.perf_counter() - start
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            KERNEL_CPU[py.name] = cpu[0]
        return nb, None, time.perf_counter() - start
    raise AssertionError("unreachable")


def execute_all():
    """Every notebook, executed once: ``{name: (notebook, exception, seconds)}``."""
    # MPLBACKEND=agg in the environment would suppress the kernels' inline figures
    saved = os.environ.pop("MPLBACKEND", None)
    start = time.perf_counter()
    try:
        # longest first (file size as the proxy), so that the two workers finish together
        order = sorted(SOURCES, key=lambda p: p.stat().st_size, reverse=True)
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            results = dict(zip((p.name for p in order), pool.map(_execute, order), strict=True))
    finally:
        if saved is not None:
            os.environ["MPLBACKEND"] = saved
    WALL["seconds"] = time.perf_counter() - start
    return results
