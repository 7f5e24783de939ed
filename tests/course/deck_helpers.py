"""What the course tests share: the demo notebook, the decks exported once per session,
running the command line, a stand-in Chromium."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path


from pooltutor.course.notebooks import notebook_sources

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = notebook_sources(REPO_ROOT / "notebooks")
NOTEBOOK_NAMES = [p.stem for p in NOTEBOOKS]
DEMO_NAME = "zz_delivery_demo"
REMOVED_MARKER = "THIS_CELL_MUST_NOT_REACH_THE_SLIDES"
HIDDEN_MARKER = "hidden_input_marker_variable"

#: A notebook exercising every delivery feature with the project's own widgets.
DEMO_SOURCE = f'''# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={{"slide_type": "slide"}}
# # Delivery demo
#
# The output length is $O = \\lfloor (I + 2P - K) / S \\rfloor + 1$.

# %% tags=["hide-input"]
import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np

from pooltutor import max_pool
from pooltutor.viz import style
from pooltutor.viz.explorer import Explorer, frames_widget
from pooltutor.viz.selfcheck import SelfCheck

{HIDDEN_MARKER} = 1
x = np.arange(16.0).reshape(1, 1, 4, 4)
result = max_pool(x, 2, 2)
fig, ax = plt.subplots(figsize=(3, 3))
style.draw_grid(ax, x[0, 0])
plt.show()

# %% tags=["remove-cell"]
print("{REMOVED_MARKER}")

# %% [markdown] slideshow={{"slide_type": "slide"}}
# ## Step through the windows


# %% tags=["hide-input"] slideshow={{"slide_type": "skip"}}
class WindowExplorer(Explorer):
    def __init__(self):
        axes = result.geometry.axes
        rows, cols = axes[0].output_size, axes[1].output_size
        self.cells = [(i, j) for i in range(rows) for j in range(cols)]
        self.step = widgets.IntSlider(value=0, min=0, max=len(self.cells) - 1,
                                      description="window")
        super().__init__(controls=[self.step], figsize=(3, 3))
        self.watch(self.step)
        self.safe_update()

    def draw(self):
        i, j = self.cells[self.step.value]
        axes = result.geometry.axes
        self.figure.clear()
        ax = self.figure.add_subplot()
        style.draw_grid(ax, x[0, 0])
        style.outline_cells(ax, [(r, c) for r in axes[0].taps(i) for c in axes[1].taps(j)])
        self.set_explain(result.explain(i, j))


explorer = WindowExplorer()
explorer

# %% tags=["hide-input"]
stepper = frames_widget(*explorer.collect_frames(range(len(explorer.cells)),
                                                 lambda k: setattr(explorer.step, "value", k)))
explorer.step.value = 0
stepper.widget

# %% [markdown] slideshow={{"slide_type": "slide"}}
# ## Check yourself

# %% tags=["hide-input"]
SelfCheck("Output length of I=5, K=2, S=2 (floor)?", 2, explanation="floor((5 - 2) / 2) + 1 = 2")
'''
#: The self-check in DEMO_SOURCE: a right and a wrong answer.
DEMO_RIGHT, DEMO_WRONG = "2", "3"


def write_demo(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{DEMO_NAME}.py"
    path.write_text(DEMO_SOURCE, encoding="utf-8")
    return path


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120):
    return subprocess.run([sys.executable, "-m", "pooltutor", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def start_deck_export(base: Path) -> subprocess.Popen | None:
    """Start exporting every course notebook and the demo as offline decks into
    ``base/decks`` in the background; None if a finished export is there."""
    if (base / "decks" / "complete.json").is_file():
        return None
    demo = write_demo(base / "demo-notebook")
    return subprocess.Popen(
        [sys.executable, "-m", "pooltutor", "slides", "--offline", "--out", str(base / "decks"),
         *NOTEBOOK_NAMES, str(demo)],
        cwd=base, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )


def exported_decks(base: Path, proc: subprocess.Popen | None = None) -> Path:
    """The folder of the offline decks (see :func:`start_deck_export`), exported once.

    Both test modules call this with the session's base temp folder; the
    second call finds the finished export (its ``complete.json``).
    """
    out = base / "decks"
    stamp = out / "complete.json"
    if stamp.is_file():
        return out
    start = time.monotonic()
    proc = proc or start_deck_export(base)
    assert proc is not None
    stdout, stderr = proc.communicate(timeout=900)
    assert proc.returncode == 0, f"pooltutor slides failed:\n{stdout}\n{stderr}"
    stamp.write_text(json.dumps({"waited": time.monotonic() - start, "log": stderr}),
                     encoding="utf-8")
    return out



def fake_chromium(folder: Path, *, exit_code: int = 0, message: str = "") -> Path:
    """An executable standing in for Chromium: it records its arguments in ``argv.json``
    and, when ``exit_code`` is 0, writes a tiny PDF where ``--print-to-pdf=`` says."""
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / "chromium"
    exe.write_text(
        f"#!{sys.executable}\n"
        "import json, pathlib, sys\n"
        f"pathlib.Path({str(folder / 'argv.json')!r}).write_text(json.dumps(sys.argv[1:]))\n"
        f"if {exit_code}:\n"
        f"    sys.stderr.write('starting\\n' + {message!r} + '\\n')\n"
        f"    sys.exit({exit_code})\n"
        "for arg in sys.argv[1:]:\n"
        "    if arg.startswith('--print-to-pdf='):\n"
        "        pathlib.Path(arg.split('=', 1)[1]).write_bytes(b'%PDF-1.4 fake')\n",
        encoding="utf-8",
    )
    exe.chmod(0o755)
    return exe
