"""Key press to new picture, in a real browser: each explorer in ``pooltutor app``.

What a student feels is the time from pressing a key on a control to the new
picture on screen.  This benchmark starts ``pooltutor app`` (Voila) on a free
port, serving one small notebook per explorer, opens each in Debian's
Chromium through Playwright (as tests/course/test_browser.py drives it), focuses a
slider with the keyboard and presses the arrow keys.  For every press it
measures, inside the page, the time from the ``keydown`` event to the
``load`` event of the explorer's new ``<img>`` (the PNG decoded and shown).

Usage::

    python benchmarks/bench_browser.py [--presses 21] [--only stepper,padding] [--json FILE]

Prints, per explorer and action, the median and the maximum in ms, and
whether it meets the target (position step or Play frame: median <= 80 ms;
parameter change: median <= 150 ms).  The machine is shared: run it twice
and read the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = os.environ.get("POOLTUTOR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--disable-quic"]

#: targets of the visual-layer issue (median key-to-picture, ms)
STEP_TARGET_MS = 80.0
CHANGE_TARGET_MS = 150.0


@dataclass(frozen=True)
class Case:
    """One explorer page and the actions timed on it."""

    name: str
    code: str                                   # the notebook's one code cell
    actions: tuple[tuple[str, str, str], ...]   # (action label, slider description, "step"/"change")


CASES = (
    Case("stepper", "from pooltutor.viz import WindowStepper\n"
                    "WindowStepper(size=16, window=3, stride=2, padding=1)",
         (("position step", "position", "step"), ("stride change", "stride", "change"))),
    Case("padding", "from pooltutor.viz import PaddingModeExplorer\n"
                    "PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, "
                    "post_padding=2)",
         (("stride change", "stride S", "change"), ("input size change", "input I", "change"))),
    Case("indices", "from pooltutor.viz import IndexLayoutExplorer\n"
                    "IndexLayoutExplorer(kernel=2, stride=1)",
         (("next cell", "out w", "step"), ("stride change", "stride", "change"))),
    Case("adaptive-1d", "from pooltutor.viz import AdaptiveBinsExplorer\n"
                        "AdaptiveBinsExplorer(input_size=7, output_size=4)",
         (("next cell", "cell w", "step"), ("output size change", "output w", "change"))),
    Case("adaptive-2d", "from pooltutor.viz import AdaptiveBinsExplorer\n"
                        "AdaptiveBinsExplorer(ndim=2, input_size=(5, 7), output_size=(3, 4))",
         (("next cell", "cell w", "step"), ("output size change", "output w", "change"))),
    Case("relu", "from pooltutor.viz import ZeroPointReluExplorer\n"
                 "ZeroPointReluExplorer(zero_point=128, dtype='uint8')",
         (("zero-point change", "zero point", "change"),)),
)

# Installed once per page: every <img> of a widget records when it finished loading,
# and the last keydown is time-stamped (capture phase, before the slider sees it).
PAGE_PROBE = """
() => {
  window.__loads = [];
  window.__keydown = null;
  document.addEventListener('keydown', () => { window.__keydown = performance.now(); }, true);
  const watch = (img) => {
    if (img.__watched) return;
    img.__watched = true;
    img.addEventListener('load', () => window.__loads.push(performance.now()));
  };
  document.querySelectorAll('img').forEach(watch);
  new MutationObserver(() => document.querySelectorAll('img').forEach(watch))
      .observe(document.body, {subtree: true, childList: true});
}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_notebooks(folder: Path) -> None:
    import nbformat

    for case in CASES:
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nb.cells = [nbformat.v4.new_code_cell(case.code)]
        nbformat.write(nb, folder / f"bench_{case.name}.ipynb")


def _start_app(folder: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
           "JUPYTER_CONFIG_DIR": str(folder / "config")}
    log = (folder / "app.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pooltutor", "app", "--no-browser", "--port", str(port),
         "--notebook-dir", str(folder / "notebooks"), "bench_stepper"],
        cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"pooltutor app exited:\n{(folder / 'app.log').read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/voila/tree", timeout=5) as r:
                if r.status == 200:
                    return proc
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    raise SystemExit("pooltutor app did not answer in 120 s")


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


def _slider_handle(page, description: str):
    """The keyboard handle of the IntSlider whose label reads ``description``."""
    import re

    label = page.locator("label.widget-label", has_text=re.compile(f"^{re.escape(description)}$"))
    slider = page.locator(".widget-slider").filter(has=label).first
    return slider.locator(".noUi-handle").first


def _time_presses(page, handle, presses: int, kind: str) -> list[float]:
    """ms from keydown to the new picture's load, one value per press."""
    handle.focus()
    times = []
    direction = "ArrowRight"
    for _ in range(presses):
        now = float(handle.get_attribute("aria-valuenow"))
        lo = float(handle.get_attribute("aria-valuemin"))
        hi = float(handle.get_attribute("aria-valuemax"))
        if kind == "change":
            # a parameter goes back and forth between two values
            direction = "ArrowLeft" if direction == "ArrowRight" and now > lo else "ArrowRight"
            if now >= hi:
                direction = "ArrowLeft"
        elif now >= hi:
            direction = "ArrowLeft"
        elif now <= lo:
            direction = "ArrowRight"
        n_loads = page.evaluate("window.__loads.length")
        page.keyboard.press(direction)
        page.wait_for_function(f"window.__loads.length > {n_loads}", timeout=15_000)
        page.wait_for_timeout(60)   # let a second, late image update show up, if any
        t = page.evaluate("window.__loads[window.__loads.length - 1] - window.__keydown")
        times.append(float(t))
        page.wait_for_timeout(150)
    return times


def run(presses: int, only: set[str] | None) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "notebooks").mkdir()
        _write_notebooks(folder / "notebooks")
        port = _free_port()
        proc = _start_app(folder, port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=CHROMIUM_ARGS)
                for case in CASES:
                    if only and case.name not in only:
                        continue
                    page = browser.new_page(viewport={"width": 1280, "height": 1000})
                    page.goto(f"http://127.0.0.1:{port}/voila/render/bench_{case.name}.ipynb")
                    page.wait_for_selector(".widget-slider .noUi-handle >> visible=true",
                                           timeout=180_000)
                    page.wait_for_selector("img", timeout=60_000)
                    page.evaluate(PAGE_PROBE)
                    page.wait_for_timeout(500)
                    for label, description, kind in case.actions:
                        handle = _slider_handle(page, description)
                        _time_presses(page, handle, 2, kind)          # warm-up
                        times = _time_presses(page, handle, presses, kind)
                        target = STEP_TARGET_MS if kind == "step" else CHANGE_TARGET_MS
                        med = statistics.median(times)
                        rows.append({"explorer": case.name, "action": label, "kind": kind,
                                     "median_ms": round(med, 1),
                                     "max_ms": round(max(times), 1),
                                     "min_ms": round(min(times), 1),
                                     "presses": len(times), "target_ms": target,
                                     "meets": med <= target})
                        print(f"{case.name:12s} {label:20s} median {med:6.1f} ms  "
                              f"max {max(times):6.1f} ms  (target {target:.0f}: "
                              f"{'meets' if med <= target else 'MISSES'})", flush=True)
                    page.close()
                browser.close()
        finally:
            _stop(proc)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=21, help="timed presses per action")
    parser.add_argument("--only", default="", help="comma-separated explorer names: "
                        + ", ".join(c.name for c in CASES))
    parser.add_argument("--json", type=Path, default=None, help="also write the rows as JSON")
    args = parser.parse_args(argv)
    only = {s for s in args.only.split(",") if s} or None
    rows = run(args.presses, only)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(r["meets"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
