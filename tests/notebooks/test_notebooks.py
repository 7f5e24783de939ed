"""Every course notebook runs top to bottom, headless, and keeps its pictures and widgets.

Each ``notebooks/*.py`` (jupytext py:percent, the source of truth) is read
with :func:`jupytext.read` and executed once per session by nbclient in a
``python3`` kernel whose working directory is ``notebooks/``; two notebooks
run at a time, longest first (a thread pool of 2: each kernel is a separate
process).  The tests then look at the executed notebook:

* **no errors**: no ``error`` output and no ``stderr`` stream (a warning in a
  lesson reads like an error to a student), except in a cell tagged
  ``allow-stderr`` (for a warning the lesson is about);
* **figures**: every *figure cell* has an ``image/png`` output.  A code cell
  is a figure cell when it is tagged ``figure``, calls a ``plot_*``
  function, or ends with ``fig`` / ``<something>.figure`` / ``display(...fig...)``;
* **self-checks**: at least three per notebook; every cell that builds a
  ``SelfCheck(`` shows it as a widget view (``application/vnd.jupyter.widget-view+json``)
  with its kernel-free ``text/html`` form, and the executed notebook stores
  the widget state of every view it shows (so exported HTML and slides render
  them);
* **course structure**: learning goals in the first markdown cell, a summary,
  slide metadata (``slideshow``) on section starts, set-up cells skipped in
  slides;
* **no algorithm code** in cells: no ``def``, ``class``, ``for`` or ``while``
  statements (it belongs in pooltutor).
"""

from __future__ import annotations

import ast
import re
from html import escape

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

# the session fixture `executed` (every notebook run once) is in conftest.py
from notebook_execution import KERNEL_CPU, SOURCES, WALL  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

pytestmark = [pytest.mark.notebook, pytest.mark.slow]


def _run(executed, name):
    nb, exc, _ = executed[name]
    if exc is not None:
        pytest.fail(f"{name} did not run to the end:\n{exc}")
    return nb


def _code_cells(nb):
    return [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


def _tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _where(name, i, cell) -> str:
    first = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
    return f"{name} cell {i} ({first[:60]!r})"


# --------------------------------------------------------------- what is a figure cell

_PLOT_CALL = re.compile(r"\bplot_\w*\s*\(")
_FIG_END = re.compile(r"^(fig\w*|\w+(\.\w+)*\.fig(ure)?|display\(.*fig.*\))$")


def is_figure_cell(cell) -> bool:
    """True for a code cell that must leave an ``image/png`` in its outputs.

    >>> from nbformat.v4 import new_code_cell as c
    >>> [is_figure_cell(c(s)) for s in ["fig", "p = plot_pooling(r)\\np.figure", "x = 1",
    ...                                 "stepper", "display(fig)", "# plot_x(1)\\n1"]]
    [True, True, False, False, True, False]
    """
    if cell.cell_type != "code":
        return False
    if "figure" in _tags(cell):
        return True
    lines = [
        ln.strip()
        for ln in cell.source.splitlines()
        if ln.strip() and not ln.strip().startswith("#")
    ]
    if not lines:
        return False
    code = "\n".join(lines)
    return bool(_PLOT_CALL.search(code) or _FIG_END.match(lines[-1]))


def _has_png(cell) -> bool:
    return any("image/png" in out.get("data", {}) for out in cell.get("outputs", []))


# --------------------------------------------------------------- tests

NAMES = [p.name for p in SOURCES]


def test_there_are_course_notebooks():
    assert {"00_course_map.py", "01_window_placement.py", "02_output_size_rounding.py",
            "02b_one_model_six_runtimes.py"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_runs_without_errors(executed, name):
    nb = _run(executed, name)
    problems = []
    for i, cell in _code_cells(nb):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                problems.append(f"{_where(name, i, cell)}: {out.ename}: {out.evalue}")
            elif (
                out.output_type == "stream"
                and out.name == "stderr"
                and "allow-stderr" not in _tags(cell)
            ):
                problems.append(f"{_where(name, i, cell)} wrote to stderr: {out.text[:300]}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", NAMES)
def test_every_figure_cell_shows_a_png(executed, name):
    nb = _run(executed, name)
    figure_cells = [(i, c) for i, c in _code_cells(nb) if is_figure_cell(c)]
    assert figure_cells, f"{name} has no figure cell: every lesson shows at least one picture"
    missing = [_where(name, i, c) for i, c in figure_cells if not _has_png(c)]
    assert not missing, (
        "no image/png output (end the cell with the figure, or display(fig)):\n"
        + "\n".join(missing)
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_picture_has_alt_text(executed, name):
    """Every image a notebook shows says what it shows to a screen reader: the image/png
    output's ``alt`` metadata (nbconvert) and the ``<img alt=...>`` of its text/html
    (JupyterLab, Voila, slides), the same sentence, made from what was drawn."""
    nb = _run(executed, name)
    missing = []
    for i, cell in _code_cells(nb):
        for out in cell.get("outputs", []):
            if "image/png" not in out.get("data", {}):
                continue
            alt = out.get("metadata", {}).get("image/png", {}).get("alt", "")
            html = out["data"].get("text/html", "")
            if len(alt) < 40 or f'alt="{escape(alt, quote=True)}"' not in html:
                missing.append(_where(name, i, cell))
    assert not missing, ("an image without alt text (show the plot's Display object, not "
                         "its .figure):\n" + "\n".join(missing))


@pytest.mark.parametrize("name", NAMES)
def test_self_checks_render_as_widgets(executed, name):
    nb = _run(executed, name)
    cells = [(i, c) for i, c in _code_cells(nb) if "SelfCheck(" in c.source]
    assert len(cells) >= 3, f"{name} has {len(cells)} SelfCheck cells: need at least 3 exercises"
    for i, cell in cells:
        bundles = [
            out.get("data", {})
            for out in cell.get("outputs", [])
            if out.output_type in ("execute_result", "display_data")
        ]
        views = [b for b in bundles if WIDGET_VIEW in b]
        assert views, f"{_where(name, i, cell)}: the SelfCheck is not shown (end the cell with it)"
        assert any("pooltutor-selfcheck-static" in b.get("text/html", "") for b in views), (
            f"{_where(name, i, cell)}: no kernel-free text/html form"
        )


@pytest.mark.parametrize("name", NAMES)
def test_widget_state_is_stored_for_every_view(executed, name):
    nb = _run(executed, name)
    views = {
        out["data"][WIDGET_VIEW]["model_id"]
        for _, cell in _code_cells(nb)
        for out in cell.get("outputs", [])
        if WIDGET_VIEW in out.get("data", {})
    }
    if not views:
        pytest.skip(f"{name} shows no widget")
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    assert views <= set(state), f"{name}: widget views without stored state: {views - set(state)}"


@pytest.mark.parametrize("name", NAMES)
def test_course_structure(executed, name):
    nb = _run(executed, name)
    markdown = [c for c in nb.cells if c.cell_type == "markdown"]
    assert markdown and re.search(r"learning goals", markdown[0].source, re.I), (
        f"{name}: the first markdown cell must state the learning goals"
    )
    assert any(re.search(r"^#+\s*summary", c.source, re.I | re.M) for c in markdown), (
        f"{name}: no '## Summary' section"
    )
    slide_types = [c.get("metadata", {}).get("slideshow", {}).get("slide_type") for c in nb.cells]
    assert slide_types.count("slide") >= 3, f"{name}: mark section starts with slide_type 'slide'"
    first_code = next(c for c in nb.cells if c.cell_type == "code")
    assert first_code.metadata.get("slideshow", {}).get("slide_type") == "skip", (
        f"{name}: the set-up cell (first code cell) should be skipped in slides"
    )


@pytest.mark.parametrize("name", NAMES)
def test_cells_hold_no_algorithm_code(executed, name):
    nb = executed[name][0]
    found = []
    for i, cell in _code_cells(nb):
        if "student-exercise" in cell.get("metadata", {}).get("tags", []):
            # the student's own cell (03b's skeleton): its body is theirs to write;
            # it must still hold no solution, only the skeleton
            assert "NotImplementedError" in cell.source, f"{_where(name, i, cell)}: not a skeleton"
            continue
        source = "\n".join(
            "" if ln.lstrip().startswith(("%", "!")) else ln for ln in cell.source.splitlines()
        )
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            found.append(f"{_where(name, i, cell)}: does not parse ({exc})")
            continue
        for node in ast.walk(tree):
            if isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.While)
            ):
                found.append(
                    f"{_where(name, i, cell)}: {type(node).__name__} at line {node.lineno}"
                )
    assert not found, "algorithm code belongs in pooltutor, not in a cell:\n" + "\n".join(found)


#: CPU seconds the course notebooks' kernels may spend on their cells, all together and
#: one notebook: a lesson that needs more has heavy work to move out of its cells.  CPU
#: time, not the wall clock: the other tests run beside these (pytest-xdist) and share
#: the cores, which stretches the wall clock but not a kernel's own work.  Measured on
#: 2026-12-04: 41 CPU s in all (the largest 6.6 s), 29 s of wall clock with nothing beside.
SUITE_BUDGET = 80
NOTEBOOK_BUDGET = 20


def test_notebook_suite_runtime(executed):
    """The kernels run every notebook in :data:`SUITE_BUDGET` CPU s, each in
    :data:`NOTEBOOK_BUDGET` (Linux ``/proc``; the wall clock where that is missing)."""
    wall = {name: round(sec, 1) for name, (_, _, sec) in executed.items()}
    cpu = {name: KERNEL_CPU.get(name) for name in executed}
    print(f"notebook suite: {WALL['seconds']:.1f} s wall; per notebook, kernel CPU s: "
          f"{cpu}; wall s: {wall}")
    times = {name: round(c if c is not None else wall[name], 1) for name, c in cpu.items()}
    assert all(t > 0 for t in times.values()), times      # the measure itself worked
    slow = {name: sec for name, sec in times.items() if sec > NOTEBOOK_BUDGET}
    assert not slow, f"notebooks over the {NOTEBOOK_BUDGET} s budget: {slow}"
    total = round(sum(times.values()), 1)
    assert total <= SUITE_BUDGET, f"the notebooks took {total} s > {SUITE_BUDGET} s: {times}"
