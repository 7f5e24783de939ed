"""Every Markdown document the code, tests and docs cite exists in this repository.

A citation is a name ending in ``.md`` in the text of a file: a docstring, a
comment, a page (``docs/semantics.md``, ``README.md``, ``[the sheet](formulas.md)``).
It resolves when the file exists relative to the repository root (the house
spelling: ``docs/semantics.md``) or relative to the citing file's folder (a link
between two pages of ``docs/``).  A bare ``semantics.md`` in ``pooltutor/`` therefore
fails: there is no ``semantics.md`` at the root nor in ``pooltutor/``.

Where a citation names a part of the document, that part must exist too:

* ``§4.1`` / ``section 4.1`` (``§1.1 and §2.4`` names both): a heading numbered
  ``4.1`` (``### 4.1 Output size``, ``## 4. Test vectors`` for ``§4``);
* ``"Index layouts"`` in double quotes right after the name: a heading containing
  those words;
* ``formulas.md#adaptive-pooling``: a heading whose GitHub anchor that is.

Scanned (found by globbing, so moved or new files are covered): the text files
under ``pooltutor/``, ``tests/``, ``docs/`` and ``benchmarks/``, ``README.md`` and
``notebooks/*.py``.  Web addresses are not citations.  In Python files a string
literal that is a path and nothing else (``ROOT / "docs" / "formulas.md"``) is code,
not a citation: the code that opens it fails on its own if it is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def _repo_root() -> Path:
    for folder in Path(__file__).resolve().parents:
        if (folder / "pyproject.toml").is_file() and (folder / "pooltutor").is_dir():
            return folder
    raise RuntimeError(f"no repository root above {__file__}")


ROOT = _repo_root()
THIS_FILE = Path(__file__).resolve()

#: The folders scanned recursively, and the other globs, relative to the root.
SCANNED_DIRS = ("pooltutor", "tests", "docs", "benchmarks")
SCANNED_GLOBS = ("README.md", "notebooks/*.py")
#: What counts as a text file in the scanned folders.
TEXT_SUFFIXES = {".py", ".md", ".txt", ".rst", ".toml", ".cfg", ".ini", ".html", ".tpl",
                 ".j2", ".css", ".js", ".yml", ".yaml"}

URL = re.compile(r"(?:https?|file)://\S+")
# a document name: path characters ending in .md, not preceded by a path character
DOC = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*(?:[\w.-]+/)*[\w-][\w.-]*\.md)(#[\w-]+)?(?![\w])")
# what may stand between the name and a section number: closing quotes or backticks,
# a comma, spaces (one line break, with a comment's "#"), the word "section"
SECTIONS = re.compile(r"[`'\")]*,?[ \t]*(?:\n[ \t]*#?[ \t]*)?(?:§\s*|section\s+)(\d+(?:\.\d+)*)"
                      r"((?:\s*(?:,|and|/|&)\s*§\s*\d+(?:\.\d+)*)*)")
FURTHER_SECTION = re.compile(r"§\s*(\d+(?:\.\d+)*)")
TITLE = re.compile(r"[`')]*[,:]?[ \t]*\(?\"([^\"\n]{2,80})\"")  # on the same line
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?(?:\s|$)")


def scanned_files(root: Path) -> list[Path]:
    """Every file whose text is checked, found by globbing under ``root``."""
    found: set[Path] = set()
    for name in SCANNED_DIRS:
        for path in (root / name).rglob("*"):
            if path.is_file() and path.suffix in TEXT_SUFFIXES:
                found.add(path)
    for pattern in SCANNED_GLOBS:
        found.update(p for p in root.glob(pattern) if p.is_file())
    return sorted(p for p in found
                  if "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts)


def headings(doc: Path) -> list[str]:
    """The heading lines of a Markdown document, without the ``#`` marks."""
    return HEADING.findall(doc.read_text(encoding="utf-8"))


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to ``-``."""
    text = re.sub(r"[^\w\s-]", "", heading.lower())
    return re.sub(r"\s", "-", text.strip())


def citations(path: Path):
    """``(line, name, anchor, sections, title)`` of every document cited in ``path``."""
    text = path.read_text(encoding="utf-8")
    text = URL.sub(lambda m: " " * len(m.group()), text)
    for match in DOC.finditer(text):
        start, end = match.span()
        before, after = text[start - 1:start], text[end:end + 1]
        if path.suffix == ".py" and before in "\"'" and before and after == before:
            continue  # a path literal in code
        tail = text[end:end + 120]
        sections: list[str] = []
        found = SECTIONS.match(tail)
        if found:
            sections = [found.group(1), *FURTHER_SECTION.findall(found.group(2))]
        title = TITLE.match(tail)
        line = text.count("\n", 0, start) + 1
        yield line, match.group(1), match.group(2), sections, title.group(1) if title else None


def resolve(root: Path, citing: Path, name: str) -> Path | None:
    """The document ``name`` cited in ``citing``: from the root, else from its folder."""
    for base in (root, citing.parent):
        candidate = (base / name).resolve()
        if candidate.is_file() and candidate.is_relative_to(root.resolve()):
            return candidate
    return None


def broken_references(root: Path, files: list[Path]) -> tuple[list[str], int]:
    """Every citation in ``files`` that does not resolve, and how many were checked."""
    problems: list[str] = []
    checked = 0
    for path in files:
        where = path.relative_to(root).as_posix()
        for line, name, anchor, sections, title in citations(path):
            checked += 1
            doc = resolve(root, path, name)
            if doc is None:
                problems.append(f"{where}:{line}: {name} is not a file of the repository "
                                f"(cite it by its path from the repository root, e.g. "
                                f"docs/{Path(name).name})")
                continue
            titles = headings(doc)
            numbers = {m.group(1) for m in map(NUMBERED.match, titles) if m}
            for number in sections:
                if number not in numbers:
                    problems.append(f"{where}:{line}: {name} has no section §{number} "
                                    f"(its numbered headings: {sorted(numbers) or 'none'})")
            if title is not None and not any(title.lower() in t.lower() for t in titles):
                problems.append(f"{where}:{line}: {name} has no heading containing "
                                f"{title!r}")
            if anchor is not None and anchor[1:] not in {github_anchor(t) for t in titles}:
                problems.append(f"{where}:{line}: {name} has no heading with anchor {anchor}")
    return problems, checked


def test_every_cited_document_and_section_exists():
    files = [p for p in scanned_files(ROOT) if p.resolve() != THIS_FILE]
    problems, checked = broken_references(ROOT, files)
    assert not problems, "references that lead nowhere:\n" + "\n".join(problems)
    assert checked > 50, f"only {checked} citations found: is the scan looking at the repository?"


def test_the_scan_covers_code_tests_docs_and_notebooks():
    names = {p.relative_to(ROOT).as_posix() for p in scanned_files(ROOT)}
    for expected in ("README.md", "docs/semantics.md", "docs/api.md", "pooltutor/geometry.py",
                     "pooltutor/viz/explorer.py", "benchmarks/README.md"):
        assert expected in names
    assert any(n.startswith("notebooks/") and n.endswith(".py") for n in names)
    assert any(n.startswith("tests/") and n.endswith(".py") for n in names)


def test_the_spec_is_cited_with_sections_that_exist():
    # the docstrings lean on docs/semantics.md by section: make sure those are seen
    files = scanned_files(ROOT)
    cited = [(name, sections) for path in files if path.resolve() != THIS_FILE
             for _, name, _, sections, _ in citations(path) if name.endswith("semantics.md")]
    assert sum(1 for _, sections in cited if sections) >= 10
    numbers = {m.group(1) for m in map(NUMBERED.match, headings(ROOT / "docs" / "semantics.md"))
               if m}
    assert {"1", "1.1", "2.2", "2.4", "4.1", "4.5", "5", "6"} <= numbers


# ------------------------------------------------------------ the checker can fail

@pytest.fixture
def mini_repo(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "docs" / "spec.md").write_text(
        "# Spec\n\n## 1. Rules\n\n### 1.1 Output size\n\n## Index layouts\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# Readme\n", encoding="utf-8")
    return tmp_path


def _problems(root: Path, relative: str, text: str) -> list[str]:
    path = root / relative
    path.write_text(text, encoding="utf-8")
    return broken_references(root, [path])[0]


@pytest.mark.parametrize("text", [
    '"""Rules (``docs/spec.md`` section 1.1)."""\n',
    "# see docs/spec.md §1.1 and §1\n",
    '"""docs/spec.md, "Index layouts"; README.md; docs/spec.md#index-layouts"""\n',
    'ROOT / "docs" / "nothing.md"  # a path literal in code is not a citation\n',
    "# https://github.com/o/r/blob/main/nothing.md is a web address\n",
])
def test_good_references_pass(mini_repo, text):
    assert _problems(mini_repo, "pkg/mod.py", text) == []


@pytest.mark.parametrize("text, fragment", [
    ('"""Vocabulary (``spec.md`` section 1)."""\n', "spec.md is not a file"),
    ("# semantics.md 2.2\n", "semantics.md is not a file"),
    ("# see docs/spec.md §4.1\n", "no section §4.1"),
    ("# see docs/spec.md §1.1 and §2.4\n", "no section §2.4"),
    ('"""docs/spec.md, "Model audit"."""\n', "no heading containing 'Model audit'"),
    ("# docs/spec.md#model-audit\n", "no heading with anchor #model-audit"),
    ("# ../outside.md\n", "../outside.md is not a file"),
])
def test_bad_references_fail(mini_repo, text, fragment):
    (mini_repo.parent / "outside.md").write_text("# outside\n", encoding="utf-8")
    problems = _problems(mini_repo, "pkg/mod.py", text)
    assert len(problems) == 1 and fragment in problems[0], problems


def test_a_page_may_link_its_neighbour_by_bare_name(mini_repo):
    assert _problems(mini_repo, "docs/other.md", "See [the spec](spec.md) §1.1.\n") == []
    # ... but the same bare name in code does not resolve
    assert _problems(mini_repo, "pkg/mod.py", "# spec.md §1.1\n")
