"""The jupytext pairs notebooks/*.py <-> notebooks/*.ipynb cannot drift.

* every notebooks/*.py is in normalised py:percent form: it round-trips through
  ipynb and back byte for byte (header = kernelspec only);
* every existing notebooks/*.ipynb has a .py and the same cells as it;
* regenerating the .ipynb never rewrites a .py, keeps outputs, and what
  JupyterLab's jupytext contents manager opens is the .py's content.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
import nbformat  # noqa: E402
from jupytext.config import load_jupytext_config  # noqa: E402

from pooltutor.course.notebooks import (  # noqa: E402
    JUPYTEXT_CONFIG,
    materialize_notebooks,
    notebook_sources,
    notebooks_dir,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO_ROOT / "notebooks"
SOURCES = notebook_sources(NOTEBOOKS)
FIX_HINT = (
    "normalise it with `jupytext --to ipynb {py} && jupytext --to py:percent {ipynb}` "
    "(or `make normalize`), then review the diff"
)


def _inputs(nb) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source) for cell in nb.cells]


def test_there_are_notebooks():
    assert SOURCES, "notebooks/ holds no *.py notebook"
    assert notebooks_dir().resolve() in {NOTEBOOKS.resolve(), REPO_ROOT.joinpath("pooltutor", "notebooks")}


def test_jupytext_config_pairs_ipynb_with_py_percent():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((REPO_ROOT / JUPYTEXT_CONFIG).read_text(encoding="utf-8"))
    assert config["formats"] == "ipynb,py:percent"
    # the .py header keeps the kernelspec only (no jupytext_version churn)
    assert config["notebook_metadata_filter"] == "kernelspec,-all"
    loaded = load_jupytext_config(str(SOURCES[0]))
    assert loaded is not None and loaded.notebook_metadata_filter == "kernelspec,-all"


def test_generated_notebooks_are_git_ignored():
    ignored = (REPO_ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "notebooks/*.ipynb" in ignored
    assert ".ipynb_checkpoints/" in ignored


@pytest.mark.parametrize("py", SOURCES, ids=[p.name for p in SOURCES])
def test_py_round_trips_through_ipynb(py: Path):
    text = py.read_text(encoding="utf-8")
    assert "# %%" in text, f"{py.name} is not a py:percent notebook"
    config = load_jupytext_config(str(py))
    nb = jupytext.reads(text, fmt="py:percent", config=config)
    ipynb_text = jupytext.writes(nb, fmt="ipynb", config=config)
    back = jupytext.writes(jupytext.reads(ipynb_text, fmt="ipynb"), fmt="py:percent", config=config)
    assert back == text, f"{py.name} is not in normalised form; " + FIX_HINT.format(
        py=f"notebooks/{py.name}", ipynb=f"notebooks/{py.stem}.ipynb"
    )
    assert set(nb.metadata) <= {"kernelspec", "jupytext"}
    assert "jupytext_version" not in text


def test_existing_ipynb_match_their_py():
    for ipynb in sorted(NOTEBOOKS.glob("*.ipynb")):
        py = ipynb.with_suffix(".py")
        assert py.exists(), f"{ipynb.name} has no {py.name}: the .py is the source of truth"
        from_py = jupytext.read(py, fmt="py:percent", config=load_jupytext_config(str(py)))
        from_ipynb = jupytext.read(ipynb, fmt="ipynb")
        assert _inputs(from_ipynb) == _inputs(from_py), (
            f"{ipynb.name} has drifted from {py.name}; regenerate it with "
            f"`jupytext --to ipynb notebooks/{py.name}` (or `pooltutor lab`), never --sync"
        )


# --------------------------------------------------------------- materialize


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A throw-away copy of the notebooks folder with the jupytext config."""
    dest = tmp_path / "course"
    dest.mkdir()
    for py in SOURCES:
        shutil.copy2(py, dest / py.name)
    shutil.copy2(REPO_ROOT / JUPYTEXT_CONFIG, dest / JUPYTEXT_CONFIG)
    return dest


def _backdate(path: Path, seconds: float = 60) -> None:
    stat = path.stat()
    os.utime(path, (stat.st_atime - seconds, stat.st_mtime - seconds))


def test_materialize_copies_sources_and_config(tmp_path: Path):
    dest = tmp_path / "student"
    written = materialize_notebooks(dest, NOTEBOOKS)
    assert [p.name for p in written] == [p.stem + ".ipynb" for p in SOURCES]
    for py in SOURCES:
        assert (dest / py.name).read_bytes() == py.read_bytes()
    assert (dest / JUPYTEXT_CONFIG).read_bytes() == (REPO_ROOT / JUPYTEXT_CONFIG).read_bytes()


def test_materialize_matches_jupytext_cli(course: Path, tmp_path: Path):
    """`pooltutor lab` writes what `jupytext --to ipynb` (postBuild) writes."""
    from jupytext.cli import jupytext as jupytext_cli

    materialize_notebooks(course, course)
    py = course / SOURCES[0].name
    out = tmp_path / "cli.ipynb"
    assert jupytext_cli(["--quiet", "--to", "ipynb", "--output", str(out), str(py)]) in (0, None)
    ours = jupytext.read(py.with_suffix(".ipynb"), fmt="ipynb")
    theirs = jupytext.read(out, fmt="ipynb")
    assert _inputs(ours) == _inputs(theirs)
    assert ours.metadata == theirs.metadata


def test_materialize_never_rewrites_py_and_keeps_outputs(course: Path):
    py = course / SOURCES[0].name
    original = py.read_bytes()
    (ipynb,) = [p for p in materialize_notebooks(course, course) if p.stem == py.stem]
    assert py.read_bytes() == original

    # a run in Lab adds outputs to the .ipynb; nothing changed in the .py
    nb = jupytext.read(ipynb, fmt="ipynb")
    code = next(c for c in nb.cells if c.cell_type == "code")
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text="0.1.0\n")]
    jupytext.write(nb, ipynb, fmt="ipynb")
    mtime = ipynb.stat().st_mtime_ns
    materialize_notebooks(course, course)
    assert ipynb.stat().st_mtime_ns == mtime, "an up-to-date .ipynb must be left alone"

    # the .py is edited later (git pull, text editor): its inputs win, outputs survive
    _backdate(ipynb)
    py.write_text(py.read_text(encoding="utf-8") + "\n# %%\n1 + 1\n", encoding="utf-8")
    edited = py.read_bytes()
    materialize_notebooks(course, course)
    assert py.read_bytes() == edited
    nb = jupytext.read(ipynb, fmt="ipynb")
    assert nb.cells[-1].source == "1 + 1"
    code = next(c for c in nb.cells if c.cell_type == "code")
    assert code.outputs and code.outputs[0]["text"] == "0.1.0\n"
    assert not ipynb.with_name(ipynb.name + ".bak").exists()


def test_materialize_backs_up_a_newer_diverging_ipynb(course: Path):
    py = course / SOURCES[0].name
    (ipynb,) = [p for p in materialize_notebooks(course, course) if p.stem == py.stem]
    nb = jupytext.read(ipynb, fmt="ipynb")
    nb.cells[0].source += "\n\nedited in the ipynb only"
    jupytext.write(nb, ipynb, fmt="ipynb")
    _backdate(py)
    original = py.read_bytes()
    materialize_notebooks(course, course)
    assert py.read_bytes() == original
    backup = ipynb.with_name(ipynb.name + ".bak")
    assert "edited in the ipynb only" in backup.read_text(encoding="utf-8")
    assert _inputs(jupytext.read(ipynb, fmt="ipynb")) == _inputs(jupytext.read(py, fmt="py:percent"))


def test_student_copies_are_not_overwritten(tmp_path: Path):
    dest = tmp_path / "student"
    materialize_notebooks(dest, NOTEBOOKS)
    mine = dest / SOURCES[0].name
    mine.write_text(mine.read_text(encoding="utf-8") + "\n# %%\nmy_answer = 42\n", encoding="utf-8")
    materialize_notebooks(dest, NOTEBOOKS)
    assert "my_answer = 42" in mine.read_text(encoding="utf-8")


def test_lab_contents_manager_opens_the_py_content(course: Path):
    """JupyterLab's jupytext contents manager accepts the generated pair
    (.ipynb newer than .py, same inputs) and saves the .py in normal form."""
    contents_manager = jupytext.TextFileContentsManager
    materialize_notebooks(course, course)
    name = SOURCES[0].stem
    py = course / f"{name}.py"
    original = py.read_bytes()
    cm = contents_manager(root_dir=str(course))
    model = cm.get(f"{name}.ipynb")
    from_py = jupytext.read(py, fmt="py:percent")
    assert [c["source"] for c in model["content"]["cells"]] == [c.source for c in from_py.cells]
    cm.save(model, f"{name}.ipynb")  # what "Save" in Lab does: writes both files
    assert py.read_bytes() == original
