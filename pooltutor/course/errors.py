"""The one failure type of the course delivery: a deck, its JavaScript or a PDF could not be made."""

from __future__ import annotations

__all__ = ["SlidesError"]


class SlidesError(RuntimeError):
    """A deck could not be built (a failing cell, npm missing, a bad tarball, no Chromium...)."""
