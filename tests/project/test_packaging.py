"""Packaging: pyproject.toml and environment.yml list the same packages, the
wheel ships the notebooks, and the README / CI / Binder files agree.

environment.yml cannot be solved here (no conda), so it is checked offline:
structure, strict spec syntax, and exact parity with pyproject.toml
(runtime dependencies + the ``test`` extra, through an explicit PyPI ->
conda-forge name map).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python >= 3.11")

REPO_ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = REPO_ROOT / "pyproject.toml"
ENVIRONMENT = REPO_ROOT / "environment.yml"

#: PyPI name -> conda-forge name, where they differ.
CONDA_NAMES = {"matplotlib": "matplotlib-base", "playwright": "playwright-python"}
#: conda packages that are not Python requirements of the project.
CONDA_ONLY = {"python", "pip"}
ENV_KEYS = {"name", "channels", "dependencies", "variables", "prefix"}
# name, optional version constraint such as ">=1.2", "==1.2.*", ">=1,<2"
CONDA_SPEC = re.compile(
    r"^(?P<name>[a-z0-9][a-z0-9._-]*)"
    r"(?P<spec>(?:(?:>=|<=|==|!=|>|<|~=)[0-9][0-9a-z.*+]*)(?:,(?:>=|<=|==|!=|>|<)[0-9][0-9a-z.*+]*)*)?$"
)
README_COMMANDS = ('pip install -e . && pooltutor lab', 'pip install -e ".[test]" && pytest')


# ------------------------------------------------------------------ parsing


def pyproject_requirements(path: Path = PYPROJECT) -> dict[str, dict[str, str]]:
    """{"runtime": {name: specifier}, "test": {...}} from pyproject.toml."""
    project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    groups = {"runtime": project.get("dependencies", [])}
    groups.update(project.get("optional-dependencies", {}))
    result: dict[str, dict[str, str]] = {}
    for group, lines in groups.items():
        reqs: dict[str, str] = {}
        for line in lines:
            req = Requirement(line)
            name = canonicalize_name(req.name)
            assert name not in reqs, f"{name} listed twice in {group}"
            reqs[name] = str(req.specifier)
        result[group] = reqs
    return result


def _normalise_spec(spec: str) -> str:
    return ",".join(sorted(part.strip() for part in spec.split(",") if part.strip()))


def environment_requirements(path: Path = ENVIRONMENT) -> tuple[dict[str, str], list[str]]:
    """(conda deps {conda name: spec}, pip lines) from environment.yml, validated."""
    env = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(env, dict), "environment.yml must be a mapping"
    assert set(env) <= ENV_KEYS, f"unexpected keys {sorted(set(env) - ENV_KEYS)}"
    assert env.get("channels") == ["conda-forge"], "use conda-forge only"
    conda: dict[str, str] = {}
    pip_lines: list[str] = []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            assert list(dep) == ["pip"], f"unexpected mapping in dependencies: {dep}"
            pip_lines.extend(dep["pip"])
            continue
        match = CONDA_SPEC.match(str(dep).replace(" ", ""))
        assert match, f"cannot parse conda spec {dep!r}"
        name = match["name"]
        assert name not in conda, f"{name} listed twice in environment.yml"
        conda[name] = _normalise_spec(match["spec"] or "")
    return conda, pip_lines


def dependency_differences(pyproject: Path = PYPROJECT, environment: Path = ENVIRONMENT) -> list[str]:
    """Every way the two files disagree (empty list = in step)."""
    groups = pyproject_requirements(pyproject)
    wanted: dict[str, str] = {}
    problems: list[str] = []
    for group in ("runtime", "test"):
        for name, spec in groups.get(group, {}).items():
            conda_name = CONDA_NAMES.get(name, name)
            if conda_name in wanted and wanted[conda_name] != _normalise_spec(spec):
                problems.append(f"{name}: different versions in pyproject runtime and test extra")
            wanted[conda_name] = _normalise_spec(spec)

    conda, pip_lines = environment_requirements(environment)
    have = {name: spec for name, spec in conda.items() if name not in CONDA_ONLY}
    for line in pip_lines:
        if line.startswith("-e ") or line.startswith("--"):
            continue
        req = Requirement(line)
        name = canonicalize_name(req.name)
        have[CONDA_NAMES.get(name, name)] = _normalise_spec(str(req.specifier))

    for name in sorted(set(wanted) - set(have)):
        problems.append(f"{name} is in pyproject.toml but not in environment.yml")
    for name in sorted(set(have) - set(wanted)):
        problems.append(f"{name} is in environment.yml but not in pyproject.toml")
    for name in sorted(set(wanted) & set(have)):
        if wanted[name] != have[name]:
            problems.append(f"{name}: pyproject.toml says {wanted[name]!r}, environment.yml says {have[name]!r}")
    return problems


# -------------------------------------------------------------------- tests


def test_environment_matches_pyproject():
    assert dependency_differences() == []


def test_environment_yml_structure():
    conda, pip_lines = environment_requirements()
    assert "pip" in conda, "a pip: block needs `pip` among the conda dependencies"
    assert conda["python"] == ">=3.10"
    editable = [line for line in pip_lines if line.startswith("-e ")]
    assert editable == ["-e ."]
    assert (ENVIRONMENT.parent / editable[0][3:] / "pyproject.toml").is_file()


def test_python_requirement_matches():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert project["requires-python"] == ">=3.10"


def test_no_plain_torch_requirement():
    groups = pyproject_requirements()
    for group, reqs in groups.items():
        assert "torch" not in reqs, f"torch must not be a requirement ({group})"
    conda, pip_lines = environment_requirements()
    assert not {"torch", "pytorch"} & set(conda)
    assert not any(canonicalize_name(Requirement(p).name) == "torch" for p in pip_lines if not p.startswith("-"))


def _mutate(tmp_path: Path, pyproject_edit=None, environment_edit=None) -> list[str]:
    py_text = PYPROJECT.read_text(encoding="utf-8")
    env_text = ENVIRONMENT.read_text(encoding="utf-8")
    if pyproject_edit:
        new = pyproject_edit(py_text)
        assert new != py_text, "mutation did not apply"
        py_text = new
    if environment_edit:
        new = environment_edit(env_text)
        assert new != env_text, "mutation did not apply"
        env_text = new
    (tmp_path / "pyproject.toml").write_text(py_text, encoding="utf-8")
    (tmp_path / "environment.yml").write_text(env_text, encoding="utf-8")
    return dependency_differences(tmp_path / "pyproject.toml", tmp_path / "environment.yml")


MUTATIONS = {
    "runtime dep only in pyproject": (
        lambda t: t.replace("dependencies = [\n", 'dependencies = [\n    "scipy>=1.10",\n', 1),
        None,
        "scipy is in pyproject.toml but not in environment.yml",
    ),
    "test dep only in pyproject": (
        lambda t: t.replace("test = [\n", 'test = [\n    "pytest-timeout",\n', 1),
        None,
        "pytest-timeout is in pyproject.toml but not in environment.yml",
    ),
    "conda dep only in environment.yml": (
        None,
        lambda t: t.replace("  - pip\n", "  - scipy>=1.10\n  - pip\n", 1),
        "scipy is in environment.yml but not in pyproject.toml",
    ),
    "pip dep only in environment.yml": (
        None,
        lambda t: t.replace("      - -e .\n", "      - -e .\n      - rich\n", 1),
        "rich is in environment.yml but not in pyproject.toml",
    ),
    "dep dropped from environment.yml": (
        None,
        lambda t: t.replace("  - voila>=0.5\n", "", 1),
        "voila is in pyproject.toml but not in environment.yml",
    ),
    "version differs": (
        lambda t: t.replace('"numpy>=1.24"', '"numpy>=2"', 1),
        None,
        "numpy: pyproject.toml says '>=2', environment.yml says '>=1.24'",
    ),
    "name not mapped": (
        None,
        lambda t: t.replace("matplotlib-base>=3.7", "matplotlib>=3.7", 1),
        "matplotlib is in environment.yml but not in pyproject.toml",
    ),
}


@pytest.mark.parametrize("case", MUTATIONS)
def test_parity_check_catches_one_sided_change(tmp_path: Path, case: str):
    pyproject_edit, environment_edit, expected = MUTATIONS[case]
    assert expected in _mutate(tmp_path, pyproject_edit, environment_edit)


def test_parity_check_accepts_the_same_addition_in_both(tmp_path: Path):
    assert (
        _mutate(
            tmp_path,
            lambda t: t.replace("dependencies = [\n", 'dependencies = [\n    "scipy>=1.10",\n', 1),
            lambda t: t.replace("  - pip\n", "  - scipy>=1.10\n  - pip\n", 1),
        )
        == []
    )


# ---------------------------------------------------------- project files


def test_version_is_single_sourced():
    import importlib.metadata

    import pooltutor
    from pooltutor._version import __version__

    assert pooltutor.__version__ == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    try:
        installed = importlib.metadata.version("pooltutor")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("pooltutor is not installed (pip install -e .)")
    assert installed == __version__


def test_console_script_and_wheel_config():
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert config["project"]["scripts"] == {"pooltutor": "pooltutor.course.cli:main"}
    wheel = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    # like packages = ["pooltutor"], plus notebooks/*.py as package data (not the .ipynb)
    assert wheel["only-include"] == ["pooltutor", "notebooks"]
    assert wheel["sources"] == {"notebooks": "pooltutor/notebooks"}
    assert "notebooks/*.ipynb" in wheel["exclude"]
    assert wheel["force-include"] == {"jupytext.toml": "pooltutor/notebooks/jupytext.toml"}


def test_pytest_is_configured_strictly():
    ini = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    for option in ("--strict-markers", "--strict-config", "--doctest-modules"):
        assert option in ini["addopts"]
    assert ini["xfail_strict"] is True
    assert ini["testpaths"] == ["tests", "pooltutor"]
    assert ini["filterwarnings"][0] == "error"
    for ignore in ini["filterwarnings"][1:]:
        assert ignore.startswith("ignore:") and ignore.count(":") >= 2, f"too broad: {ignore!r}"


def test_readme_quick_start_commands():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    for command in README_COMMANDS:
        assert command in readme
    assert "docs/img/overview.png" in readme
    for name in ("00_course_map", "01_window_placement", "02_output_size_rounding",
                 "02b_one_model_six_runtimes", "03_index_flattening",
                 "03b_gradients_and_your_own_pool", "04_adaptive_pooling", "05_quantized_relu",
                 "05b_requantization_rounding", "06_porting_a_model"):
        assert name in readme


def test_readme_pictures_exist_and_docs_img_has_no_orphans():
    """Every picture the README shows is in docs/img, and every picture there is shown."""
    import re

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\]\((docs/img/[\w.-]+\.png)\)", readme))
    stored = {f"docs/img/{p.name}" for p in (REPO_ROOT / "docs" / "img").glob("*.png")}
    assert shown and shown <= stored, f"missing: {sorted(shown - stored)}"
    assert stored <= shown, f"not shown in the README: {sorted(stored - shown)}"


def test_gallery_script_draws_every_picture(tmp_path):
    """docs/make_images.py draws the README's gallery with the public plot functions."""
    import importlib.util

    from PIL import Image

    spec = importlib.util.spec_from_file_location("make_images",
                                                  REPO_ROOT / "docs" / "make_images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.render(tmp_path)
    assert sorted(p.name for p in written) == sorted(module.PICTURES)
    for path in written:
        assert (REPO_ROOT / "docs" / "img" / path.name).exists()
        with Image.open(path) as img:
            w, h = img.size
            assert img.format == "PNG" and w >= 400 and h >= 300
            assert len(img.convert("RGB").getcolors(1 << 20)) > 50   # a real picture


def test_ci_script_runs_the_readme_test_command():
    run = REPO_ROOT / ".ci" / "run"
    assert run.stat().st_mode & stat.S_IXUSR, ".ci/run must be executable"
    text = run.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n") or text.startswith("#!/bin/bash\n")
    assert "set -euo pipefail" in text
    assert README_COMMANDS[1] in text
    assert "POOLTUTOR_REQUIRE_BROWSER=1" in text
    assert "apt-get install -y chromium" in text


def test_binder_postbuild_generates_notebooks_without_sync():
    post_build = (REPO_ROOT / "postBuild").read_text(encoding="utf-8")
    assert "set -e" in post_build
    assert "jupytext --to ipynb notebooks/*.py" in post_build
    assert "--sync" not in post_build
    assert not (REPO_ROOT / "binder").exists() and not (REPO_ROOT / ".binder").exists(), (
        "a binder/ folder makes repo2docker ignore environment.yml and postBuild at the root"
    )


# -------------------------------------------------------------------- wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Build the wheel once (pip fetches hatchling into an isolated build env)."""
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(REPO_ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (built,) = out.glob("pooltutor-*.whl")
    return built


@pytest.mark.slow
def test_wheel_ships_the_notebooks(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for py in (REPO_ROOT / "notebooks").glob("*.py"):
        assert f"pooltutor/notebooks/{py.name}" in names
    assert "pooltutor/notebooks/jupytext.toml" in names
    assert "pooltutor/course/formulas.md" in names  # the sheet `pooltutor formulas` prints
    assert "pooltutor/course/cli.py" in names and "pooltutor/__main__.py" in names
    assert not [n for n in names if n.endswith(".ipynb")], "generated .ipynb must not ship"
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "pooltutor = pooltutor.course.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.slow
def test_installed_wheel_copies_notebooks_to_a_user_folder(wheel: Path, tmp_path: Path):
    """From a wheel the notebooks are package data; `pooltutor lab` works on a copy."""
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    user = tmp_path / "user-notebooks"
    env = {**os.environ, "PYTHONPATH": str(site), "POOLTUTOR_NOTEBOOKS_DIR": str(user)}
    proc = subprocess.run(
        [sys.executable, "-m", "pooltutor", "lab", "--dry-run"],
        cwd=tmp_path,  # any folder
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"--ServerApp.root_dir={user}" in proc.stdout
    for py in (REPO_ROOT / "notebooks").glob("*.py"):
        assert (user / py.name).is_file()
        assert (user / py.with_suffix(".ipynb").name).is_file()
    assert (user / "jupytext.toml").is_file()
    shipped = site / "pooltutor" / "notebooks"
    assert not list(shipped.glob("*.ipynb")), "package data must not be written to"


@pytest.mark.slow
def test_installed_wheel_makes_the_formula_sheet(wheel: Path, tmp_path: Path):
    """From a wheel the formula sheet is package data: `pooltutor formulas --html` reads it."""
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
         str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    code = ("import pooltutor.course.formula_sheet as f; print(f.__file__); "
            "print(f.sheet_markdown() == open(f.__file__[:-len('formula_sheet.py')] + "
            "'formulas.md', encoding='utf-8').read()); print(len(f.sheet_html()))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(site)},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    where, same, size = proc.stdout.split()
    assert Path(where).is_relative_to(site) and same == "True" and int(size) > 5000
    assert (site / "pooltutor" / "course" / "formulas.md").read_bytes() == (
        REPO_ROOT / "docs" / "formulas.md").read_bytes()
