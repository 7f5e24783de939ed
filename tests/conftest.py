"""Shared pytest setup: headless matplotlib and Hypothesis profiles.

Hypothesis profile: ``ci`` when the ``CI`` environment variable is set (as in
``.ci/run``), ``dev`` otherwise; ``HYPOTHESIS_PROFILE=<name>`` overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# TensorFlow's oracle is its default Eigen CPU kernels, on every CPU: on CPUs with AVX-512
# VNNI / AMX TensorFlow switches to oneDNN kernels by default, which compute channels-first
# pools the Eigen kernels refuse (docs/frameworks.md).  Set before any test imports it.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

try:  # plots in tests render off-screen; notebook kernels keep their inline backend
    import matplotlib
except ImportError:  # pragma: no cover - matplotlib is a runtime dependency
    pass
else:
    matplotlib.use("Agg")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,  # 2 shared cores: timing is not a property
    max_examples=50,
    derandomize=True,  # same examples on every run, so CI failures reproduce
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=1000, max_examples=100, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository checkout the tests run from."""
    return REPO_ROOT


#: Test files that share one session's work, and so run on the same pytest-xdist worker:
#: the executed course notebooks (tests/notebooks/conftest.py) and the exported decks
#: (tests/course/deck_helpers.py; both keep them in the worker's own temp folder).
#: Every other file is a group of its own, so a module's servers, browser and kernels
#: start once (``--dist loadgroup`` in pyproject.toml: what ``loadfile`` does, plus these).
SHARED_WORK = {
    "tests/notebooks/test_notebooks.py": "executed-notebooks",
    "tests/notebooks/test_spoilers.py": "executed-notebooks",
    "tests/course/test_browser.py": "exported-decks",
    "tests/course/test_slides.py": "exported-decks",
}


@pytest.hookimpl(tryfirst=True)         # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            path = item.path.resolve().relative_to(REPO_ROOT).as_posix()
        except ValueError:              # pragma: no cover - a test outside the checkout
            path = str(item.path)
        item.add_marker(pytest.mark.xdist_group(SHARED_WORK.get(path, path)))
