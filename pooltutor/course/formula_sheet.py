"""The formula sheet as a printed handout: ``pooltutor formulas``.

Usage::

    pooltutor formulas [--pdf FILE] [--html FILE]

The sheet is ``pooltutor/course/formulas.md``, package data (so an installed
pooltutor prints it too); ``docs/formulas.md`` is the same page for reading
on GitHub (``tests/course/test_formula_sheet.py`` keeps the two identical, and
``tests/course/test_formula_sheet_rules.py`` checks every formula on it against the library).

:func:`sheet_html` turns the Markdown into one standalone HTML page
(:mod:`mistune`, with its table plugin) with a print stylesheet: A4
landscape, two columns, 9 pt text (8.4 pt code), tables with borders, code in a monospace
font, the pooltutor version in the footer.  :func:`write_pdf` prints that
page with headless Chromium (:func:`pooltutor.course.pdf.chromium_print`, the
call ``pooltutor slides --pdf`` makes) onto one page.

Part of the classroom delivery, like :mod:`pooltutor.course.slides`: the numpy core
never imports it, and mistune is imported only when a page is made.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

from pooltutor.course.pdf import CHROMIUM_ENV, chromium_print, find_chromium
from pooltutor.course.errors import SlidesError
from pooltutor._version import __version__

__all__ = [
    "DEFAULT_PDF",
    "SHEET_RESOURCE",
    "pdf_page_count",
    "register",
    "sheet_html",
    "sheet_markdown",
    "write_html",
    "write_pdf",
]

#: The sheet's file name inside the ``pooltutor`` package.
SHEET_RESOURCE = "formulas.md"
#: Where ``pooltutor formulas`` writes the PDF without ``--pdf``.
DEFAULT_PDF = Path("formulas.pdf")

#: The print stylesheet: everything on one A4 page, landscape, in two columns.
CSS = """\
@page { size: A4 landscape; margin: 9mm 9mm 7mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #111; font: 9pt/1.3 "Liberation Sans", Arial, Helvetica,
       "DejaVu Sans", sans-serif; }
code { font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
       font-size: 0.93em; white-space: nowrap; }  /* 8.4 pt; a formula is never split */
code.option { white-space: normal; }  /* name=<wbr>value may break after its = */
p code, h2 code, li code { background: #eef1f5; padding: 0 1.5pt; border-radius: 1.5pt; }
header { border-bottom: 1.2pt solid #1f4e79; margin-bottom: 5pt; padding-bottom: 3pt; }
h1 { font-size: 16pt; margin: 0 0 2pt; color: #1f4e79; letter-spacing: 0.2pt; }
header p { margin: 0; }
.columns { column-count: 2; column-gap: 7mm; column-rule: 0.5pt solid #b8c2cc; }
section { break-inside: avoid; page-break-inside: avoid; margin: 0 0 7pt; }
h2 { font-size: 10.5pt; margin: 0 0 3pt; color: #1f4e79; break-after: avoid; }
section p { margin: 3pt 0 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.6pt solid #6b7783; padding: 1.6pt 3.5pt; text-align: left;
         vertical-align: top; }
th { background: #dde5ee; font-weight: bold; }
tbody tr:nth-child(even) td { background: #f5f7fa; }
footer { position: fixed; left: 0; right: 0; bottom: 0; font-size: 8pt; color: #444;
         border-top: 0.5pt solid #b8c2cc; padding-top: 2pt; display: flex;
         justify-content: space-between; }
.sheet { padding-bottom: 14pt; }
@media screen {
  body { max-width: 290mm; margin: 1.5em auto; padding: 0 1.5em; }
  footer { position: static; margin-top: 1em; }
  .sheet { padding-bottom: 0; }
}
@media screen and (max-width: 900px) { .columns { column-count: 1; } }
"""


def sheet_markdown() -> str:
    """The formula sheet's Markdown, read from the package data."""
    return resources.files("pooltutor.course").joinpath(SHEET_RESOURCE).read_text(encoding="utf-8")


def _markdown_to_html(text: str) -> str:
    import mistune

    # escape=True: raw HTML in the sheet is shown, not interpreted (mistune 2 and 3)
    return str(mistune.create_markdown(escape=True, plugins=["table"])(text))


def _code_breaks(body: str) -> str:
    """Mark the ``name=value`` code spans (options such as ``storage_order=1``) as
    ``class="option"`` with a break opportunity after the ``=``: the only code that may
    wrap, for a long option in a narrow column; every other code span stays on one line."""

    def one(match: re.Match) -> str:
        code = match.group(1)
        broken = re.sub(r"(?<=\w)=(?=\w)", "=<wbr>", code)
        return f'<code class="option">{broken}</code>' if broken != code else match.group(0)

    return re.sub(r"<code>([^<]*)</code>", one, body)


def _text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def sheet_html(markdown: str | None = None) -> str:
    """The formula sheet as one standalone HTML page (styles inline, nothing to load).

    The level-1 heading and the text before the first ``##`` heading make the
    page's header; each ``##`` section is kept whole in one of the two columns.

    >>> page = sheet_html("# Sheet\\n\\nIntro.\\n\\n## A\\n\\n"
    ...                   "| x | f |\\n|---|---|\\n| a | `I // S` |\\n")
    >>> "<title>Sheet</title>" in page, "<td><code>I // S</code></td>" in page
    (True, True)
    >>> page.count("<section>"), f"pooltutor {__version__}" in page
    (1, True)
    """
    body = _code_breaks(_markdown_to_html(sheet_markdown() if markdown is None else markdown))
    first = re.search(r"<h2[\s>]", body)
    head, rest = (body[: first.start()], body[first.start():]) if first else (body, "")
    title_match = re.search(r"<h1[^>]*>(.*?)</h1>", head, re.S)
    title = _text_of(title_match.group(1)) if title_match else "pooltutor formula sheet"
    sections = [part.strip() for part in re.split(r"(?=<h2[\s>])", rest) if part.strip()]
    columns = "\n".join(f"<section>\n{part}\n</section>" for part in sections)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n"
        f"<main class=\"sheet\">\n<header>\n{head.strip()}\n</header>\n"
        f"<div class=\"columns\">\n{columns}\n</div>\n</main>\n"
        f"<footer><span>{html.escape(title)}</span>"
        f"<span>pooltutor {html.escape(__version__)}</span></footer>\n"
        "</body>\n</html>\n"
    )


def write_html(path: str | os.PathLike[str], page: str | None = None) -> Path:
    """Write :func:`sheet_html` (or ``page``) to ``path``; return the path."""
    path = Path(path)
    path.write_text(sheet_html() if page is None else page, encoding="utf-8")
    return path


def write_pdf(pdf: str | os.PathLike[str] = DEFAULT_PDF, *, chromium: str | None = None,
              page: str | None = None) -> Path:
    """Print :func:`sheet_html` (or ``page``) to ``pdf`` with headless Chromium; return the path.

    Raises :class:`pooltutor.course.errors.SlidesError` when Chromium is missing or fails.
    """
    pdf = Path(pdf)
    with tempfile.TemporaryDirectory(prefix="pooltutor-formulas-") as tmp:
        source = write_html(Path(tmp) / "formulas.html", page)
        return chromium_print(source.as_uri(), pdf, chromium=chromium, budget_ms=2000,
                              what="the formula sheet")


def pdf_page_count(data: bytes) -> int:
    """The number of page objects in a PDF written by Chromium (no object streams).

    >>> pdf_page_count(b"<< /Type /Pages /Count 1 >> << /Type /Page /Parent 2 0 R >>")
    1
    """
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", data))


# --------------------------------------------------------------------- CLI


def register(subparsers) -> None:
    """Register ``pooltutor formulas``."""
    parser = subparsers.add_parser(
        "formulas",
        help="print the formula sheet (every rule of the course) to a one-page PDF",
        description=(
            "Print the course's formula sheet (docs/formulas.md: every rule the course teaches, "
            "each formula checked against the library) to a one-page A4 PDF with headless "
            "Chromium (chromium, chromium-browser or google-chrome on PATH, or "
            f"${CHROMIUM_ENV}). Exit status 0: written; 1: Chromium failed; "
            "2: usage error (a path that cannot be written, no Chromium)."
        ),
    )
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF, metavar="FILE",
                        help=f"where to write the PDF (default: ./{DEFAULT_PDF})")
    parser.add_argument("--html", type=Path, default=None, metavar="FILE",
                        help="also write the sheet as a standalone HTML page")
    parser.set_defaults(func=lambda args: run(args, parser))


def _check_writable(option: str, path: Path, parser: argparse.ArgumentParser) -> None:
    """A usage error (exit 2) unless ``path`` can be written; leaves no file behind."""
    if path.is_dir():
        parser.error(f"{option} {path}: is a folder")
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as exc:
        parser.error(f"{option} {path}: cannot write: {exc.strerror or exc}")
    if not existed:
        path.unlink()


def _kb(path: Path) -> str:
    return f"{path.stat().st_size / 1e3:.0f} kB"


def _info(message: str) -> None:
    print(f"[pooltutor] {message}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``pooltutor formulas``: check the paths and Chromium, write the HTML and the PDF."""
    from pooltutor.course.cli import CLIError

    if args.html is not None and args.html.resolve() == args.pdf.resolve():
        parser.error(f"--pdf and --html are the same file: {args.pdf}")
    _check_writable("--pdf", args.pdf, parser)
    if args.html is not None:
        _check_writable("--html", args.html, parser)
    chromium = find_chromium()
    if chromium is None:
        parser.error("no Chromium or Chrome found on PATH "
                     f"(install chromium, or set ${CHROMIUM_ENV})")
    if shutil.which(chromium) is None:
        parser.error(f"${CHROMIUM_ENV}={chromium} is not an executable")
    page = sheet_html()
    if args.html is not None:
        try:
            write_html(args.html, page)
        except OSError as exc:
            parser.error(f"--html {args.html}: cannot write: {exc.strerror or exc}")
        _info(f"wrote {args.html} ({_kb(args.html)})")
    try:
        written = write_pdf(args.pdf, chromium=chromium, page=page)
    except SlidesError as exc:
        raise CLIError(str(exc)) from None
    pages = pdf_page_count(written.read_bytes())
    if pages != 1:
        _info(f"warning: the sheet takes {pages} pages instead of one; shorten "
              f"pooltutor/course/{SHEET_RESOURCE}")
    print(f"wrote {written} ({pages} page{'s' if pages != 1 else ''}, "
          f"{_kb(written)})")
    return 0
