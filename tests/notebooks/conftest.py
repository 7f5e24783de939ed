"""The course notebooks, executed once per test session for every notebook test."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def executed():
    """Every course notebook, run once per session: ``{name: (notebook, exception, seconds)}``."""
    pytest.importorskip("jupytext")
    pytest.importorskip("nbclient")
    from notebook_execution import execute_all

    return execute_all()
