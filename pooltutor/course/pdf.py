"""Printing a page to PDF with headless Chromium (the decks and the formula sheet)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from pooltutor.course.errors import SlidesError

__all__ = ["CHROMIUM_ENV", "chromium_print", "find_chromium"]

#: Environment variable naming a Chromium / Chrome executable for ``--pdf``.
CHROMIUM_ENV = "POOLTUTOR_CHROMIUM"


def find_chromium() -> str | None:
    """``$POOLTUTOR_CHROMIUM``, else chromium / chromium-browser / google-chrome on PATH."""
    override = os.environ.get(CHROMIUM_ENV)
    if override:
        return override
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium_print(url: str, pdf: str | os.PathLike[str], *, chromium: str | None = None,
                   budget_ms: int = 15000, what: str | None = None) -> Path:
    """Print the page at ``url`` to ``pdf`` with headless Chromium; return the PDF path.

    The one Chromium call of the package (:func:`print_pdf` for decks,
    :func:`pooltutor.course.formula_sheet.write_pdf` for the formula sheet): a
    throw-away profile, no network services, no header and footer, and
    ``budget_ms`` of virtual time for the page to load its scripts.  The page
    decides the paper size with a CSS ``@page`` rule (Letter without one).
    ``chromium`` defaults to :func:`find_chromium`; ``what`` names the page in
    the error message (default: ``url``).  Raises :class:`SlidesError` when
    no Chromium is found, it cannot be started, or it writes no PDF.
    """
    pdf = Path(pdf)
    what = what or url
    exe = chromium or find_chromium()
    if exe is None:
        raise SlidesError(f"--pdf needs Chromium or Chrome: none found (set ${CHROMIUM_ENV})")
    from pooltutor.course.cli import running_as_root

    with tempfile.TemporaryDirectory(prefix="pooltutor-chromium-") as profile:
        argv = [exe, "--headless", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-quic", f"--user-data-dir={profile}", "--no-pdf-header-footer",
                f"--virtual-time-budget={budget_ms}", f"--print-to-pdf={pdf.resolve()}", url]
        if running_as_root():
            argv.insert(1, "--no-sandbox")
        if pdf.exists():
            pdf.unlink()
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SlidesError(f"Chromium ({exe}) could not print {what}: {exc}") from None
    if proc.returncode != 0 or not pdf.is_file():
        reason = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise SlidesError(f"Chromium could not print {what} "
                          f"(exit {proc.returncode}): {reason}")
    return pdf
