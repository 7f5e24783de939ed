r"""Long worked computations folded away: a collapsed ``<details>`` with a one-line summary.

>>> f = folded("line 1\nline 2", "Example 1, explained")
>>> print(repr(f))
Example 1, explained (2 lines, folded)
line 1
line 2
>>> "<details class" in f._repr_html_() and "<summary>Example 1, explained" in f._repr_html_()
True
"""

from __future__ import annotations

import html

__all__ = ["Folded", "folded"]


class Folded:
    """A text shown collapsed in Jupyter (HTML) and in full as plain text."""

    def __init__(self, text: str, summary: str):
        if not isinstance(text, str):
            raise TypeError(f"text={text!r} has type {type(text).__name__}: need a str")
        if not isinstance(summary, str) or not summary.strip():
            raise ValueError(f"summary={summary!r}: need a non-empty one-line str")
        self.text, self.summary = text, " ".join(summary.split())

    @property
    def lines(self) -> int:
        return len(self.text.splitlines())

    def __repr__(self) -> str:
        return f"{self.summary} ({self.lines} lines, folded)\n{self.text}"

    def _repr_html_(self) -> str:
        return (f"<details class='pooltutor-folded'><summary>{html.escape(self.summary)} "
                f"({self.lines} lines: click to unfold)</summary>"
                f"<pre>{html.escape(self.text)}</pre></details>")


def folded(text: str, summary: str) -> Folded:
    """Fold *text* (e.g. an ``explain()``) under a one-line *summary*."""
    return Folded(text, summary)
