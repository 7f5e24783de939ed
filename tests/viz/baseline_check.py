"""Picture regressions: a figure against a small baseline PNG in tests/viz/baseline/,
with ``matplotlib.testing.compare.compare_images`` at a tolerance (no byte equality).
The figures use matplotlib's default font (DejaVu Sans, shipped with matplotlib) and are
saved at a fixed dpi, as Jupyter saves them (``bbox_inches="tight"``).

Set ``POOLTUTOR_WRITE_BASELINES=1`` to write the baselines (then look at them)."""

from __future__ import annotations

import os
from pathlib import Path

BASELINE = Path(__file__).resolve().parent / "baseline"
DPI = 40
TOL = 5


def assert_matches_baseline(fig, name: str, tol: float = TOL) -> None:
    import tempfile

    from matplotlib.testing.compare import compare_images

    expected = BASELINE / f"{name}.png"
    if os.environ.get("POOLTUTOR_WRITE_BASELINES") == "1":
        fig.savefig(expected, dpi=DPI, bbox_inches="tight")
        return
    assert expected.exists(), (f"no baseline {expected}: write it with "
                               f"POOLTUTOR_WRITE_BASELINES=1, then look at it")
    with tempfile.TemporaryDirectory() as tmp:
        actual = Path(tmp) / f"{name}.png"
        fig.savefig(actual, dpi=DPI, bbox_inches="tight")
        result = compare_images(str(expected), str(actual), tol=tol)
    assert result is None, result
