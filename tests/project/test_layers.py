"""The layers of docs/architecture.md, checked on every import statement of the package.

Dependencies flow one way: the numpy core (``pooltutor/*.py``) -> the pictures
(``pooltutor/viz``) -> the classroom delivery (``pooltutor/course``).  Every
``import`` and ``from ... import`` of every module is read with :mod:`ast`,
including the ones inside functions (the lazy imports), and checked against
what its layer may import.  A second test imports the whole core in a fresh
interpreter and checks that no plotting, widget or Jupyter module came along.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pooltutor"

#: Third-party modules each layer may import (the standard library is always allowed).
CORE_THIRD_PARTY = {"numpy"}
#: The model audit reads ONNX models (onnx, and protobuf for its decode errors); nothing
#: else in the core touches onnx.
ONNX_READERS = {"pooltutor.model_audit", "pooltutor.audit_models"}
ONNX_MODULES = {"onnx", "google"}
#: The audit's example models can be run in the two runtimes the audit predicts
#: (``audit_models.measured_shapes``, imported lazily, for notebook 06 and the oracles).
RUNTIME_RUNNERS = {"pooltutor.audit_models": {"onnxruntime", "openvino"}}
VIZ_THIRD_PARTY = {"numpy", "matplotlib", "ipywidgets", "IPython", "PIL", "traitlets"}
#: Modules no layer but the course may import (Jupyter, Voila, browsers, npm).
COURSE_ONLY = {"jupytext", "nbclient", "nbconvert", "nbformat", "voila", "jupyterlab",
               "jupyter_server", "jupyter_client", "jupyter_core", "playwright", "mistune"}


def layer_of(module: str) -> str:
    if module == "pooltutor.__main__":       # ``python -m pooltutor``: the command line
        return "course"
    if module.startswith("pooltutor.viz"):
        return "viz"
    if module.startswith("pooltutor.course"):
        return "course"
    return "core"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in the file, relative ones resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            # ``from pooltutor import viz`` imports the module pooltutor.viz
            names = [f"{target}.{a.name}" for a in node.names if target == "pooltutor"]
            found += [(node.lineno, n) for n in names] or [(node.lineno, target)]
    return found


def is_stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names or module == "__future__"


def violation(importer: str, imported: str) -> str | None:
    """Why ``importer`` may not import ``imported`` (None when it may)."""
    top = imported.split(".")[0]
    layer = layer_of(importer)
    if is_stdlib(imported):
        return None
    if top == "pooltutor":
        order = {"core": 0, "viz": 1, "course": 2}
        if order[layer_of(imported)] > order[layer]:
            return f"the {layer} layer imports the {layer_of(imported)} layer"
        return None
    if layer == "core":
        allowed = (CORE_THIRD_PARTY | (ONNX_MODULES if importer in ONNX_READERS else set())
                   | RUNTIME_RUNNERS.get(importer, set()))
        return None if top in allowed else f"the numpy core imports {top}"
    if layer == "viz":
        if top in COURSE_ONLY:
            return f"the viz layer imports {top} (classroom delivery only)"
        return None if top in VIZ_THIRD_PARTY else f"the viz layer imports {top}"
    return None  # the course may use anything it declares


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_has_the_three_layers():
    layers = {layer_of(module_name(p)) for p in SOURCES}
    assert layers == {"core", "viz", "course"}
    assert len([p for p in SOURCES if layer_of(module_name(p)) == "core"]) >= 10


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path: Path):
    importer = module_name(path)
    bad = [f"{path.relative_to(ROOT)}:{line}: import {imported}: {why}"
           for line, imported in imported_modules(path)
           if (why := violation(importer, imported))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("importer", "imported", "allowed"), [
    ("pooltutor.pooling", "numpy", True),
    ("pooltutor.pooling", "matplotlib.pyplot", False),
    ("pooltutor.frameworks", "ipywidgets", False),
    ("pooltutor.frameworks", "onnx", False),
    ("pooltutor.model_audit", "onnx.shape_inference", True),
    ("pooltutor.model_audit", "onnxruntime", False),
    ("pooltutor.audit_models", "openvino", True),
    ("pooltutor.__main__", "pooltutor.course.cli", True),
    ("pooltutor.geometry", "pooltutor.viz.style", False),
    ("pooltutor.quant", "pooltutor.course.cli", False),
    ("pooltutor.viz.heatmaps", "pooltutor.pooling", True),
    ("pooltutor.viz.heatmaps", "matplotlib.figure", True),
    ("pooltutor.viz.explorer", "pooltutor.course.slides", False),
    ("pooltutor.viz.explorer", "nbconvert", False),
    ("pooltutor.course.slides", "pooltutor.viz.explorer", True),
    ("pooltutor.course.app", "voila.app", True),
])
def test_the_rules_themselves(importer, imported, allowed):
    """The checker refuses what the layers forbid (so the test above can fail)."""
    assert (violation(importer, imported) is None) is allowed


def test_relative_imports_are_resolved():
    viz = PACKAGE / "viz" / "heatmaps.py"
    targets = {m for _, m in imported_modules(viz)}
    assert any(m.startswith("pooltutor.") and not m.startswith("pooltutor.viz") for m in targets)


def test_importing_the_whole_core_brings_no_plotting_widgets_or_jupyter():
    core = sorted(module_name(p) for p in SOURCES
                  if layer_of(module_name(p)) == "core" and module_name(p) not in ONNX_READERS)
    assert "pooltutor.pooling" in core and "pooltutor.__main__" not in core
    code = ("import sys\n"
            f"for name in {core!r}: __import__(name)\n"
            "heavy = ('matplotlib', 'ipywidgets', 'IPython', 'onnx', 'jupytext', 'nbconvert',"
            " 'voila', 'pooltutor.viz', 'pooltutor.course')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy"
            " or m.startswith(('pooltutor.viz', 'pooltutor.course'))))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout
