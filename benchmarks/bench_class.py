"""A class at once: N students open the same notebook of ``pooltutor app --class-size N``.

Starts ``pooltutor app NOTEBOOK --class-size N`` on a free port, waits until it
says the kernel pool is warm (and reports how long that took and what each
kernel weighs), then opens N pages at once in Debian's Chromium, one browser
context per student (as tests/course/test_browser.py drives it).  For every page it
measures the time from opening it to *interactive*: the explorer's slider
handle and picture are on screen.  Then, with all N kernels alive, it presses
the arrow key on one page's position slider and measures key press to new
picture (as benchmarks/bench_browser.py does).

Usage::

    python benchmarks/bench_class.py [--students 30] [--notebook 01] [--presses 21]

Targets on the project's 2-core machine (benchmarks/README.md): all 30 pages
interactive within 60 s of opening, none lost, step latency median <= 150 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_PROBE,
    _free_port,
    _slider_handle,
    _stop,
    _time_presses,
)

INTERACTIVE_TIMEOUT_S = 180


def _cpu_seconds(server_pid: int) -> dict[str, float]:
    """CPU seconds used so far by the Voila server, its kernels and this script's browsers.

    Where the page-load time goes: the server process renders the pages and relays the
    widget messages, the kernels (children of the server) answer them, and the Chromium
    processes (children of this script, through Playwright's driver) parse and lay out
    the pages.  A process that ended is no longer counted, so call it while they live."""
    import psutil

    def total(procs) -> float:
        seconds = 0.0
        for proc in procs:
            try:
                times = proc.cpu_times()
            except psutil.Error:
                continue
            seconds += times.user + times.system
        return seconds

    server = psutil.Process(server_pid)
    kernels = server.children(recursive=True)
    browsers = [c for c in psutil.Process().children(recursive=True)
                if c.pid != server_pid and c.pid not in {k.pid for k in kernels}]
    machine = psutil.cpu_times()
    return {"server": total([server]), "kernels": total(kernels), "browsers": total(browsers),
            "machine": machine.user + machine.system + getattr(machine, "nice", 0.0)}


#: Runs in every student's page from its first script on: notes the moment (epoch ms, the
#: clock ``time.time()`` reads) the page first shows a visible slider handle and a picture,
#: the same condition as the locator ``.widget-slider .noUi-handle >> visible=true`` plus an
#: ``img``.  The page checks itself four times a second (a querySelector), so this script
#: asks each page only once a second whether it is ready, instead of evaluating two locators
#: in 30 busy pages five times a second: that polling cost the browsers CPU the students'
#: own pages would not spend.
READY_PROBE = """
(() => {
  const check = () => {
    const handle = document.querySelector('.widget-slider .noUi-handle');
    if (handle && handle.getClientRects().length
        && getComputedStyle(handle).visibility !== 'hidden'
        && document.querySelector('img.widget-image')) {
      window.__pooltutorReadyAt = performance.timeOrigin + performance.now();
      clearInterval(timer);
    }
  };
  const timer = setInterval(check, 250);
})();
"""


def _start(folder: Path, notebook: str, students: int, port: int, front_end: str):
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
           "JUPYTER_CONFIG_DIR": str(folder / "config")}
    log_path = folder / "app.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pooltutor", "app", notebook, "--no-browser", "--port", str(port),
         "--notebook-dir", str(folder / "notebooks"), "--class-size", str(students),
         "--token", "benchclass", "--front-end", front_end],
        cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True)
    return proc, log_path


def _wait_warm(proc, log_path: Path, timeout: float) -> tuple[float, dict]:
    start = time.monotonic()
    pattern = re.compile(r"the kernel pool is warm: (\d+) kernel\(s\) ran \S+ in (\d+) s; "
                         r"(\d+) MiB each \(([\d.]+) GiB in all")
    while time.monotonic() - start < timeout:
        if proc.poll() is not None:
            raise SystemExit(f"pooltutor app exited:\n{log_path.read_text(errors='replace')}")
        m = pattern.search(log_path.read_text(errors="replace"))
        if m:
            return time.monotonic() - start, {"kernels": int(m.group(1)),
                                              "mib_per_kernel": int(m.group(3)),
                                              "gib_total": float(m.group(4))}
        time.sleep(0.5)
    raise SystemExit(f"the pool was not warm after {timeout:.0f} s")


def run(students: int, notebook: str, presses: int, front_end: str = "light") -> dict:
    from playwright.sync_api import sync_playwright

    from pooltutor.course.notebooks import notebook_sources, notebooks_dir
    from pooltutor.course.notebooks import resolve_notebooks

    stem = resolve_notebooks([notebook], notebook_sources(notebooks_dir()))[0].stem
    result: dict = {"students": students, "notebook": stem, "front_end": front_end}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        port = _free_port()
        proc, log_path = _start(folder, stem, students, port, front_end)
        try:
            warm_s, memory = _wait_warm(proc, log_path, timeout=900)
            result.update(pool_warm_s=round(warm_s, 1), **memory)
            print(f"pool warm after {warm_s:.0f} s: {memory}", flush=True)
            url = f"http://127.0.0.1:{port}/voila/render/{stem}.ipynb?token=benchclass"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=CHROMIUM_ARGS)
                contexts = [browser.new_context(viewport={"width": 1100, "height": 800})
                            for _ in range(students)]
                for c in contexts:
                    c.add_init_script(READY_PROBE)
                pages = [c.new_page() for c in contexts]
                cpu_before = _cpu_seconds(proc.pid)
                opened = time.monotonic()
                opened_epoch_ms = time.time() * 1000
                for page in pages:                      # all students at once
                    page.goto(url, wait_until="commit", timeout=INTERACTIVE_TIMEOUT_S * 1000)
                ready: list[float | None] = [None] * students
                while time.monotonic() - opened < INTERACTIVE_TIMEOUT_S and None in ready:
                    time.sleep(1.0)
                    for i, page in enumerate(pages):
                        if ready[i] is None:
                            at = page.evaluate("window.__pooltutorReadyAt || null")
                            if at is not None:
                                ready[i] = (at - opened_epoch_ms) / 1000
                load_wall = time.monotonic() - opened   # the window the CPU seconds cover
                cpu_after = _cpu_seconds(proc.pid)
                cpu = {k: round(cpu_after[k] - cpu_before[k], 1) for k in cpu_before}
                result.update(load_wall_s=round(load_wall, 1), load_cpu_s=cpu)
                print(f"CPU seconds while the pages loaded ({load_wall:.0f} s on "
                      f"{os.cpu_count()} cores): {cpu}", flush=True)
                done = sorted(t for t in ready if t is not None)
                result.update(
                    interactive=len(done), lost=students - len(done),
                    first_s=round(done[0], 1) if done else None,
                    median_s=round(statistics.median(done), 1) if done else None,
                    last_s=round(done[-1], 1) if done else None)
                print(f"interactive: {len(done)}/{students}; first {result['first_s']} s, "
                      f"median {result['median_s']} s, last {result['last_s']} s", flush=True)
                # step latency on one page while every student's kernel is alive
                page = pages[0]
                page.evaluate(PAGE_PROBE)
                handle = _slider_handle(page, "position")
                _time_presses(page, handle, 2, "step")
                times = _time_presses(page, handle, presses, "step")
                result.update(step_median_ms=round(statistics.median(times), 1),
                              step_max_ms=round(max(times), 1))
                print(f"step latency with {students} kernels alive: median "
                      f"{result['step_median_ms']} ms, max {result['step_max_ms']} ms",
                      flush=True)
                browser.close()
        finally:
            _stop(proc)
    result["meets"] = bool(result.get("lost") == 0 and result.get("last_s") is not None
                           and result["last_s"] <= 60 and result["step_median_ms"] <= 150)
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--notebook", default="01")
    parser.add_argument("--presses", type=int, default=21)
    from pooltutor.course.classroom import FRONT_ENDS

    parser.add_argument("--front-end", choices=tuple(FRONT_ENDS), default="light",
                        help="the app's --front-end (default: light)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    result = run(args.students, args.notebook, args.presses, args.front_end)
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0 if result["meets"] else 1


if __name__ == "__main__":
    sys.exit(main())
