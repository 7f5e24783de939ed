"""``pooltutor formulas``: the formula sheet as an HTML page and a one-page PDF.

* the package copy of the sheet (``pooltutor/course/formulas.md``, what is printed) and the
  readable page ``docs/formulas.md`` are the same text;
* the HTML holds every section heading and every formula of the sheet's tables;
* the command line: ``--help``, and misuse (a path that cannot be written, no Chromium)
  exits 2 with one line on stderr, a failing Chromium exits 1;
* with Chromium (skipped without it, a failure under ``POOLTUTOR_REQUIRE_BROWSER=1``):
  ``pooltutor formulas`` writes ``./formulas.pdf``, one A4 page, and ``--html`` the page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pooltutor.course import cli, formula_sheet, pdf
from pooltutor._version import __version__

# the test helpers, and the stand-in Chromium of the print_pdf tests
from process_helpers import bad_arguments_error, chromium_missing, skip_without_browser  # isort: skip
from deck_helpers import fake_chromium  # isort: skip

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCS_SHEET = REPO_ROOT / "docs" / "formulas.md"
PACKAGE_SHEET = REPO_ROOT / "pooltutor" / "course" / formula_sheet.SHEET_RESOURCE
CHROMIUM = pdf.find_chromium() or "/usr/bin/chromium"
#: A page object of a PDF (not the /Pages tree node).
PAGE = rb"/Type\s*/Page[^s]"


def test_docs_page_is_the_package_copy():
    assert formula_sheet.sheet_markdown() == PACKAGE_SHEET.read_text(encoding="utf-8")
    assert DOCS_SHEET.read_bytes() == PACKAGE_SHEET.read_bytes(), (
        "docs/formulas.md and pooltutor/course/formulas.md differ: edit one and copy it over the "
        "other (the package copy is the one `pooltutor formulas` prints)")


# -------------------------------------------------------------------- HTML


class _Page(HTMLParser):
    """The text of every <code>, <h1> and <h2> element of a page."""

    def __init__(self):
        super().__init__()
        self.found: dict[str, list[str]] = {"code": [], "h1": [], "h2": []}
        self._open: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.found:
            self._open.append((tag, []))

    def handle_endtag(self, tag):
        if tag in self.found and self._open and self._open[-1][0] == tag:
            _, parts = self._open.pop()
            text = "".join(parts)
            self.found[tag].append(text)
            if self._open:
                self._open[-1][1].append(text)

    def handle_data(self, data):
        if self._open:
            self._open[-1][1].append(data)


def _parse(page: str) -> dict[str, list[str]]:
    parser = _Page()
    parser.feed(page)
    parser.close()
    return parser.found


def _table_formulas(markdown: str) -> list[str]:
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    return [code for row in rows for code in re.findall(r"`([^`]+)`", row)]


def _headings(markdown: str, level: int) -> list[str]:
    marks = "#" * level
    return [line[level + 1:].replace("`", "").strip()
            for line in markdown.splitlines() if line.startswith(marks + " ")]


@pytest.fixture(scope="module")
def page() -> str:
    return formula_sheet.sheet_html()


def test_html_holds_every_formula_of_the_tables(page):
    markdown = formula_sheet.sheet_markdown()
    formulas = _table_formulas(markdown)
    assert len(formulas) >= 30  # the sheet has tables
    codes = _parse(page)["code"]
    missing = [f for f in formulas if f not in codes]
    assert not missing, f"not on the page as code: {missing}"
    # and every code span of the prose too
    for code in re.findall(r"`([^`]+)`", markdown):
        assert code in codes, code


def test_html_holds_every_section_heading_and_the_title(page):
    markdown = formula_sheet.sheet_markdown()
    found = _parse(page)
    assert found["h1"] == _headings(markdown, 1) == ["pooltutor formula sheet"]
    assert found["h2"] == _headings(markdown, 2)
    assert len(found["h2"]) >= 6
    assert page.count("<section>") == len(found["h2"])  # each kept whole in a column
    assert "<title>pooltutor formula sheet</title>" in page


def test_html_is_a_standalone_print_page(page):
    assert "<footer>" in page and f"pooltutor {__version__}</span></footer>" in page
    assert "size: A4 landscape" in page and "column-count: 2" in page
    assert not re.search(r"""(?i)(src|href)\s*=|@import|url\(""", page)  # nothing to load
    assert "monospace" in page and "border: 0.6pt solid" in page
    # every font size of the sheet is readable on paper (>= 8 pt)
    body = float(re.search(r"body \{[^}]*font: ([\d.]+)pt", page).group(1))
    sizes = [float(s) for s in re.findall(r"font-size: ([\d.]+)pt", page)]
    sizes += [body * float(s) for s in re.findall(r"font-size: ([\d.]+)em", page)]
    assert min([body, *sizes]) >= 8, sorted(sizes)


def test_option_code_may_break_after_its_equals_sign_formulas_never(page):
    assert '<code class="option">storage_order=<wbr>0</code>' in page
    for formula in _table_formulas(formula_sheet.sheet_markdown()):
        if " " in formula:  # a formula, not a name=value option
            assert f"<code>{formula.replace('>', '&gt;')}</code>" in page, formula


def test_raw_html_in_the_sheet_is_shown_not_run():
    page = formula_sheet.sheet_html("# T\n\n<script>alert(1)</script>\n\n## A\n\n`a<b`\n")
    assert "<script>" not in page and "<code>a&lt;b</code>" in page


def test_the_core_never_imports_the_sheet():
    code = ("import sys, pooltutor, pooltutor.course.cli; "
            "print(sorted(m for m in ('pooltutor.course.formula_sheet', 'mistune') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    # cli registers the command (imports the module) but mistune waits for a page
    assert proc.stdout.strip() in ("[]", "['pooltutor.course.formula_sheet']")
    core = subprocess.run([sys.executable, "-c", "import sys, pooltutor; "
                           "print('pooltutor.course.formula_sheet' in sys.modules)"],
                          capture_output=True, text=True, timeout=60)
    assert core.stdout.strip() == "False", core.stderr


# --------------------------------------------------------------------- CLI


def test_help_documents_the_command(capsys):
    assert "formulas" in cli.build_parser().format_help()
    with pytest.raises(SystemExit) as exc:
        cli.main(["formulas", "--help"])
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--pdf FILE", "--html FILE", "formulas.pdf", "one-page A4 PDF",
                  "Chromium", "POOLTUTOR_CHROMIUM", "2: usage error"):
        assert words in text, words


def _bad(capsys, argv: list[str]) -> str:
    line = bad_arguments_error(cli.main, capsys, argv)
    assert line.startswith("pooltutor formulas: error:")
    return line


def test_unwritable_paths_exit_2_and_leave_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert "cannot write" in _bad(capsys, ["formulas", "--pdf", str(tmp_path / "no" / "x.pdf")])
    assert "cannot write" in _bad(capsys, ["formulas", "--pdf", str(a_file / "x.pdf")])
    assert "is a folder" in _bad(capsys, ["formulas", "--pdf", str(tmp_path)])
    assert "cannot write" in _bad(capsys, ["formulas", "--html", str(a_file / "x.html")])
    assert "same file" in _bad(capsys, ["formulas", "--pdf", "a.x", "--html", "a.x"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_no_chromium_exits_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(pdf.CHROMIUM_ENV, raising=False)
    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    assert "no Chromium or Chrome found" in _bad(capsys, ["formulas"])
    monkeypatch.undo()
    monkeypatch.setenv(pdf.CHROMIUM_ENV, str(tmp_path / "no-such-chromium"))
    assert "is not an executable" in _bad(capsys, ["formulas", "--html", "x.html"])
    assert list(tmp_path.iterdir()) == []  # checked before anything is written


def test_failing_chromium_exits_1_with_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exe = fake_chromium(tmp_path / "bin", exit_code=5, message="cannot open display")
    monkeypatch.setenv(pdf.CHROMIUM_ENV, str(exe))
    assert cli.main(["formulas", "--pdf", "out.pdf"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["pooltutor formulas: error: Chromium could not print the formula sheet "
                   "(exit 5): cannot open display"]
    assert not (tmp_path / "out.pdf").exists()


def test_the_page_chromium_is_given(tmp_path, capsys, monkeypatch):
    """With a stand-in Chromium: it prints the sheet's HTML from a file:// URL."""
    monkeypatch.chdir(tmp_path)
    exe = fake_chromium(tmp_path / "bin")
    monkeypatch.setenv(pdf.CHROMIUM_ENV, str(exe))
    assert cli.main(["formulas"]) == 0
    assert capsys.readouterr().out.startswith("wrote formulas.pdf (0 pages, ")
    import json

    argv = json.loads((tmp_path / "bin" / "argv.json").read_text())
    assert argv[-1].startswith("file://") and argv[-1].endswith("/formulas.html")
    assert f"--print-to-pdf={tmp_path / 'formulas.pdf'}" in argv


# --------------------------------------------------------------------- PDF


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Path:
    """``python -m pooltutor formulas --html sheet.html`` run once, in an empty folder."""
    skip_without_browser(chromium_missing(CHROMIUM))
    folder = tmp_path_factory.mktemp("formulas")
    proc = subprocess.run(
        [sys.executable, "-m", "pooltutor", "formulas", "--html", "sheet.html"], cwd=folder,
        env={**os.environ, pdf.CHROMIUM_ENV: CHROMIUM}, capture_output=True, text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("wrote formulas.pdf (1 page, "), proc.stdout
    return folder


@pytest.mark.browser
def test_pdf_is_one_a4_page(printed):
    data = (printed / "formulas.pdf").read_bytes()  # the default name, in the current folder
    assert data.startswith(b"%PDF")
    assert len(re.findall(PAGE, data)) == 1
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert box, "no MediaBox"
    width, height = (float(v) for v in box.groups())
    assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points


@pytest.mark.browser
def test_html_option_writes_the_page_that_was_printed(printed):
    assert (printed / "sheet.html").read_text(encoding="utf-8") == formula_sheet.sheet_html()
    assert sorted(p.name for p in printed.iterdir()) == ["formulas.pdf", "sheet.html"]
