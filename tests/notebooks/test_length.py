"""Every notebook fits a 40-minute lesson: at most :data:`MAX_WORDS` words of markdown prose.

The prose is the source of the markdown cells of ``notebooks/*.py`` (read with jupytext,
so code cells and the ``# %% [markdown] slideshow=...`` metadata lines are not counted).
A *word* is a whitespace-separated token holding at least one letter or digit: table
rules (``|---|``), table pipes, bullets and lone operators (``=``, ``→``) are not words;
inline code and formulas are (``ceil_mode=True``, ``\\lceil``).  Where a generated
``.ipynb`` exists, its markdown cells must give the same count.

Run with ``-rA`` (or ``-s``) to see every notebook's count.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
from jupytext.config import load_jupytext_config  # noqa: E402

from pooltutor.course.notebooks import notebook_sources  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SOURCES = notebook_sources(NOTEBOOKS)

#: A lesson of about 40 minutes holds about 1,200 words of prose; this is the hard limit.
MAX_WORDS = 1250

#: Notebooks over the limit, expected to fail (strict: fix one and its entry must go).
#: Empty since issue 17 ("Notebooks that fit a lesson"): 01, 03 and 04 were tightened.
NOT_YET_SPLIT: dict[str, str] = {}

_WORD = re.compile(r"\w")


def prose_words(markdown: str) -> int:
    """The number of words in *markdown*.

    >>> prose_words("| notebook | time |\\n|---|---|\\n| `02b_x` | 30 min |")
    5
    >>> prose_words("* $O = \\\\lceil I/S \\\\rceil$ → done")
    5
    """
    return sum(1 for token in markdown.split() if _WORD.search(token))


def notebook_words(nb) -> int:
    """Words of prose in the markdown cells of a notebook node."""
    return sum(prose_words(cell.source) for cell in nb.cells if cell.cell_type == "markdown")


def _read_py(py: Path):
    return jupytext.read(py, fmt="py:percent", config=load_jupytext_config(str(py)))


def _code_cells(nb) -> int:
    return sum(1 for cell in nb.cells if cell.cell_type == "code")


@pytest.mark.parametrize(
    "py",
    [pytest.param(p, id=p.name,
                  marks=[pytest.mark.xfail(strict=True, reason=NOT_YET_SPLIT[p.name])]
                  if p.name in NOT_YET_SPLIT else [])
     for p in SOURCES],
)
def test_notebook_prose_fits_a_lesson(py: Path):
    nb = _read_py(py)
    words = notebook_words(nb)
    print(f"{py.stem}: {words} words of markdown prose, {_code_cells(nb)} code cells")
    assert words <= MAX_WORDS, (
        f"{py.name} has {words} words of markdown prose (limit {MAX_WORDS}): split it into "
        f"two notebooks, as 03/03b, 02/02b and 05/05b are"
    )


def test_ipynb_word_counts_match_their_py():
    for ipynb in sorted(NOTEBOOKS.glob("*.ipynb")):
        py = ipynb.with_suffix(".py")
        if py.exists():
            assert notebook_words(jupytext.read(ipynb, fmt="ipynb")) == notebook_words(
                _read_py(py)), f"{ipynb.name} and {py.name} differ in prose"


def test_word_counts_table():
    """Every notebook's count, printed (``-rA``); the split lessons are all under the limit."""
    counts = {py.stem: (notebook_words(_read_py(py)), _code_cells(_read_py(py)))
              for py in SOURCES}
    print("\n".join(f"{stem:<36} {words:>5} words {cells:>3} code cells"
                    for stem, (words, cells) in counts.items()))
    for stem in ("02_output_size_rounding", "02b_one_model_six_runtimes", "05_quantized_relu",
                 "05b_requantization_rounding"):
        assert stem in counts and counts[stem][0] <= MAX_WORDS, (stem, counts.get(stem))


def test_course_map_and_readme_list_every_notebook():
    """A split notebook (02b, 05b, ...) is listed where the course is: the map and the README."""
    course_map = (NOTEBOOKS / "00_course_map.py").read_text(encoding="utf-8")
    readme = (NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
    for py in SOURCES:
        assert f"`{py.stem}`" in course_map, f"00_course_map does not list {py.stem}"
        assert f"`{py.stem}`" in readme, f"README.md does not list {py.stem}"
