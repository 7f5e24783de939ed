"""Slide decks from the course notebooks: ``pooltutor slides``.

Usage::

    pooltutor slides [NOTEBOOK ...] [--out DIR] [--offline] [--js-cache DIR] [--pdf]

Each notebook is executed in a fresh kernel (:mod:`nbclient`, widget state
stored) and exported as a reveal.js deck ``<out>/<name>.slides.html``
(:class:`nbconvert.SlidesExporter`):

* code cells tagged ``hide-input`` (or ``remove-input``) show their output
  only, cells tagged ``remove-cell`` are left out, ``remove-output`` drops a
  cell's output;
* every figure is embedded as a base64 PNG, and so are local images of the
  Markdown cells;
* the widget state is embedded, so the kernel-free steppers
  (:func:`pooltutor.viz.explorer.frames_widget`: an ``ipywidgets.Stack``
  linked to a slider in the browser) still step through their frames;
* a notebook without any ``slideshow`` metadata gets one slide per level-1
  or level-2 Markdown heading.

By default the decks load reveal.js, require.js, jQuery, MathJax and the
widget renderer from the unpkg CDN, at the exact versions in
:data:`JS_PACKAGES`.  ``--offline`` makes decks that need no network at all:
those packages are fetched once from the npm registry (``npm pack``) into a
cache (``--js-cache``, ``$POOLTUTOR_JS_CACHE`` or ``~/.cache/pooltutor/js``),
checked against their pinned sha512, and the few files a deck needs are
copied to ``<out>/lib/`` (MathJax renders SVG, which needs no web fonts; the
theme's Google-fonts imports are removed; mermaid is never loaded).  Copy the
whole ``<out>`` folder to the classroom machine and open a deck from disk.

``--pdf`` (implies ``--offline``) also prints each deck to
``<out>/<name>.pdf`` with headless Chromium (reveal.js' ``?print-pdf`` view).

The heavy imports (jupytext, nbclient, nbconvert) happen inside the
functions, so ``import pooltutor.course.cli`` stays cheap.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pooltutor.course.errors import SlidesError
from pooltutor.course.js_assets import (
    JS_CACHE_ENV,
    LIB_DIR,
    REVEAL_THEME,
    asset_urls,
    install_offline_assets,
    size_text,
    tree_size,
)
from pooltutor.course.notebooks import UnknownNotebookError, resolve_notebooks
from pooltutor.course.pdf import CHROMIUM_ENV, chromium_print, find_chromium

__all__ = [
    "DECK_SUFFIX",
    "REMOVE_CELL_TAGS",
    "REMOVE_INPUT_TAGS",
    "REMOVE_OUTPUT_TAGS",
    "Deck",
    "SlidesError",
    "accessibility_js",
    "export_deck",
    "export_decks",
    "print_pdf",
    "register",
]

#: Suffix of an exported deck (git-ignored by the project's ``.gitignore``).
DECK_SUFFIX = ".slides.html"
#: Cell tags understood by the export (nbconvert's TagRemovePreprocessor).
REMOVE_INPUT_TAGS = frozenset({"hide-input", "remove-input"})
REMOVE_CELL_TAGS = frozenset({"remove-cell"})
REMOVE_OUTPUT_TAGS = frozenset({"remove-output"})
#: Seconds a cell may run while a deck is built.
DEFAULT_TIMEOUT = 300


def _read_notebook(path: Path):
    """A notebook node from a jupytext ``.py`` source or an ``.ipynb`` file."""
    if path.suffix == ".ipynb":
        import nbformat

        return nbformat.read(path, as_version=4)
    import jupytext
    from jupytext.config import load_jupytext_config

    config = load_jupytext_config(str(path.resolve()))
    return jupytext.read(path, fmt="py:percent", config=config)


_HEADING = re.compile(r"^\s{0,3}#{1,2}\s")


def add_heading_slides(nb) -> bool:
    """Give a notebook without ``slideshow`` metadata one slide per level-1/2 heading.

    Returns True when it changed the notebook.

    >>> import nbformat.v4 as v4
    >>> nb = v4.new_notebook(cells=[v4.new_markdown_cell("# A"), v4.new_code_cell("1"),
    ...                             v4.new_markdown_cell("## B"), v4.new_markdown_cell("text")])
    >>> add_heading_slides(nb), [c.metadata.get("slideshow") for c in nb.cells]
    (True, [{'slide_type': 'slide'}, None, {'slide_type': 'slide'}, None])
    >>> add_heading_slides(nb)   # has slideshow metadata now: left alone
    False
    """
    if any("slideshow" in cell.get("metadata", {}) for cell in nb.cells):
        return False
    changed = False
    for cell in nb.cells:
        if cell.cell_type == "markdown" and _HEADING.match(cell.source):
            cell.metadata["slideshow"] = {"slide_type": "slide"}
            changed = True
    return changed


def _kernel_env() -> dict[str, str]:
    """The environment of the kernels: ours, without a matplotlib backend override
    (``MPLBACKEND=agg`` would stop the inline figures)."""
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    return env


#: how often a kernel is started for one notebook when it dies before its first cell
KERNEL_ATTEMPTS = 3


async def _execute(nb, path: Path, timeout: int) -> None:
    """Run every cell of ``nb`` in a fresh kernel; a kernel that dies before its first
    cell is replaced (at most :data:`KERNEL_ATTEMPTS` kernels).

    A kernel is given free TCP ports when it is started and binds them a moment later;
    another kernel starting in that moment (a class exporting its decks, the notebooks
    of a test run beside this one) can take one first, and the new kernel then dies
    with ``Address already in use`` before it answers.  Nothing of the notebook has run
    by then, so a new kernel is started.  A kernel that dies after a cell has started
    is reported: the notebook may have done something to cause it.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    for attempt in range(1, KERNEL_ATTEMPTS + 1):
        started: list[int] = []
        client = NotebookClient(
            nb,
            timeout=timeout,
            store_widget_state=True,
            shutdown_kernel="immediate",
            resources={"metadata": {"path": str(path.parent.resolve())}},
            on_cell_execute=lambda cell, cell_index, started=started: started.append(cell_index),
        )
        try:
            await client.async_execute(env=_kernel_env())
            return
        except CellExecutionError as exc:
            where = f"cell {started[-1] + 1}" if started else "a cell"
            raise SlidesError(f"{path.name}: {where} raised {exc.ename}: "
                              f"{' '.join(str(exc.evalue).split())}") from None
        except CellTimeoutError:
            where = f"cell {started[-1] + 1}" if started else "a cell"
            raise SlidesError(f"{path.name}: {where} ran longer than {timeout} s") from None
        except (RuntimeError, OSError) as exc:  # no kernel, kernel died, ...
            if started or attempt == KERNEL_ATTEMPTS:
                tries = "" if started else f" ({attempt} kernels started)"
                raise SlidesError(f"{path.name}: cannot run the notebook: {exc}{tries}") from None
            print(f"[pooltutor] {path.name}: the kernel died before its first cell ({exc}); "
                  f"starting another", file=sys.stderr)


@dataclass(frozen=True)
class Deck:
    """One exported deck.

    Attributes
    ----------
    source : Path
        The notebook it was made from.
    path : Path
        The ``.slides.html`` file.
    slides : int
        Number of top-level slides.
    pngs : int
        Number of embedded PNG pictures (figures, not counting widget frames).
    widgets : int
        Number of widget models in the embedded widget state.
    seconds : float
        Time to execute and export.
    offline : bool
        Whether the deck loads its JavaScript from ``lib/``.
    pdf : Path or None
        The printed handout, if one was asked for.
    """

    source: Path
    path: Path
    slides: int
    pngs: int
    widgets: int
    seconds: float
    offline: bool
    pdf: Path | None = None

    @property
    def size(self) -> int:
        return self.path.stat().st_size


_TEMPLATE_NAME = "pooltutor_reveal.html.j2"
# The modules that the widget renderer (embed-amd.js) defines; each finds its
# icon fonts next to the URL require.js gives it, so map them all to the
# renderer's own folder (by default they would be looked up beside the deck).
_WIDGET_MODULES = ("@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyter-widgets/base7",
                   "@jupyter-widgets/controls7", "@jupyter-widgets/html-manager",
                   "@jupyter-widgets/html-manager/dist/libembed-amd")


# nbconvert's footer script, changed in three ways: MathJax calls are guarded;
# in reveal.js' print view (?print-pdf) the deck is laid out only after the
# widgets and the formulas are rendered (reveal.js sizes the PDF pages once,
# at initialisation; widgets drawn later would spill onto the next page); and
# keys pressed in a widget stay there (an arrow key on a focused slider moves
# the slider, not the deck).
_FOOTER_JS = """
<script>
(function () {
  var slides = document.querySelector('.reveal .slides');
  ['keydown', 'keypress'].forEach(function (type) {
    slides.addEventListener(type, function (event) {
      if (event.target.closest && event.target.closest('.jupyter-widgets')) {
        event.stopPropagation();
      }
    });
  });
  function widgetsRendered() {
    var views = document.querySelectorAll(
      'script[type="application/vnd.jupyter.widget-view+json"]');
    return Array.prototype.every.call(views, function (view) {
      var area = view.previousElementSibling;
      return area && area.classList.contains('widget-subarea') && area.children.length > 0;
    });
  }
  function whenRendered(callback) {
    var start = Date.now();
    (function poll() {
      if (widgetsRendered() || Date.now() - start > 15000) {
        if (window.MathJax && MathJax.Hub) { MathJax.Hub.Queue(callback); } else { callback(); }
      } else {
        setTimeout(poll, 100);
      }
    })();
  }
  require({waitSeconds: 15}, ["{{ reveal_url_prefix }}/dist/reveal.js",
                              "{{ reveal_url_prefix }}/plugin/notes/notes.js"],
    function (Reveal, RevealNotes) {
      function start() {
        Reveal.initialize({
          controls: true, progress: true, history: true,
          transition: "{{ reveal_transition }}", slideNumber: "{{ reveal_number }}",
          plugins: [RevealNotes], width: {{ reveal_width }}, height: {{ reveal_height }}
        });
        Reveal.addEventListener('slidechanged', function () {
          var slide = Reveal.getCurrentSlide();
          if (window.MathJax && MathJax.Hub && MathJax.Hub.getAllJax(slide)) {
            MathJax.Hub.Rerender(slide);
          }
        });
        Reveal.addEventListener('slidechanged', function () {
          if ({{ reveal_scroll }} === true) {
            var h = $('.reveal').height() * 0.95;
            $('section.present').find('section')
              .filter(function () { return $(this).height() > h; })
              .css('height', 'calc(95vh)').css('overflow-y', 'scroll').css('margin-top', '20px');
          }
        });
      }
      if (/print-pdf/gi.test(window.location.search)) {
        // every slide is on its page in the print view: none stays hidden from assistive
        // technology (reveal.js leaves the hidden state of the slides it laid out first)
        Reveal.addEventListener('pdf-ready', function () {
          document.querySelectorAll('.reveal .slides section').forEach(function (s) {
            s.removeAttribute('hidden'); s.removeAttribute('aria-hidden');
          });
        });
        var go = function () { whenRendered(start); };
        if (document.readyState === 'complete') { go(); }
        else { window.addEventListener('load', go); }
      } else {
        start();
      }
    });
}());
</script>
"""


#: A picture never runs past the bottom of a slide: reveal.js lays slides out at
#: 960 x 700 (``reveal_width`` / ``reveal_height``) and scales them to the screen.
_SLIDE_CSS = """<style>
.reveal .output_png img, .reveal .jp-RenderedImage img { max-height: 600px; width: auto; }
.reveal .widget-image { max-height: 600px; object-fit: contain; }
/* the slide number, white on grey, at a contrast of 7:1 (reveal.js' #999 gives 2.8:1) */
.reveal .slide-number { background-color: #4d4d4d; color: #fff; }
/* numbers and comments in code: darker than JupyterLab's #080 and #408080 (4.3:1 and
   4.2:1 on the code background) */
.reveal .highlight :is(.m, .mb, .mf, .mh, .mi, .mo, .il) { color: #006400; }
.reveal .highlight :is(.c, .c1, .ch, .cm, .cs, .cpf) { color: #2f5f5f; }
</style>
"""


def accessibility_js() -> str:
    """The script that names the widgets' controls and pictures for screen readers (the
    Voila template's ``accessibility.js``, also put in every deck)."""
    from importlib.resources import files

    return (files("pooltutor.course") / "voila_templates" / "voila" / "templates" / "pooltutor"
            / "accessibility.js").read_text(encoding="utf-8")


def _template(widget_renderer_url: str) -> str:
    """nbconvert's reveal template, plus: no mermaid (unused here; a CDN request in every
    deck), the widget modules told where their fonts are, and :data:`_FOOTER_JS`."""
    base = widget_renderer_url.rsplit("/", 1)[0]
    paths = {name: f"{base}/{name.rsplit('/', 1)[-1]}" for name in _WIDGET_MODULES}
    return (
        "{%- extends 'index.html.j2' -%}\n"
        "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n"
        "{%- block html_head_js_requirejs -%}\n{{ super() }}\n<script>\n"
        f"window.__jupyter_widgets_assets_path__ = {json.dumps(base + '/')};\n"
        f"require.config({{paths: {json.dumps(paths)}}});\n"
        "</script>\n{%- endblock html_head_js_requirejs -%}\n"
        "{%- block html_head_css -%}\n{{ super() }}\n" + _SLIDE_CSS + "{%- endblock html_head_css -%}\n"
        "{%- block footer_js -%}" + _FOOTER_JS
        + "{% raw %}<script>\n" + accessibility_js() + "</script>{% endraw %}\n"
        "{%- endblock footer_js -%}\n"
    )


def _exporter(offline: bool):
    from jinja2 import DictLoader
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    urls = asset_urls(offline)
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = set(REMOVE_INPUT_TAGS)
    config.TagRemovePreprocessor.remove_cell_tags = set(REMOVE_CELL_TAGS)
    config.TagRemovePreprocessor.remove_all_outputs_tags = set(REMOVE_OUTPUT_TAGS)
    exporter = SlidesExporter(
        config=config,
        extra_loaders=[DictLoader({_TEMPLATE_NAME: _template(urls["widgets"])})],
        template_file=_TEMPLATE_NAME,
        reveal_url_prefix=urls["reveal"],
        reveal_theme=REVEAL_THEME,
        reveal_number="c/t",
        reveal_scroll=True,
        require_js_url=urls["require_js"],
        jquery_url=urls["jquery"],
        widget_renderer_url=urls["widgets"],
        mathjax_url=urls["mathjax"],
        embed_images=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    return exporter


_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# HTML that a widget ships for pages without a kernel (SelfCheck.static_html())
_STATIC_FORM = re.compile(r"class=['\"]pooltutor-[\w-]*static")


def prefer_static_forms(nb) -> int:
    """Show the kernel-free HTML form of widgets that need a kernel; return how many.

    A :class:`~pooltutor.viz.selfcheck.SelfCheck` cannot check an answer
    without a kernel, so in a deck its output shows its ``static_html()``
    (question and a "Show answer" element) instead of a dead text box.

    >>> import nbformat.v4 as v4
    >>> out = v4.new_output("display_data", data={
    ...     "text/html": "<div class='pooltutor-selfcheck-static'>Q</div>",
    ...     "application/vnd.jupyter.widget-view+json": {"model_id": "x"}})
    >>> nb = v4.new_notebook(cells=[v4.new_code_cell("c", outputs=[out])])
    >>> prefer_static_forms(nb), sorted(nb.cells[0].outputs[0].data)
    (1, ['text/html'])
    """
    count = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            markup = data.get("text/html", "")
            markup = "".join(markup) if isinstance(markup, list) else markup
            if _WIDGET_VIEW in data and _STATIC_FORM.search(markup):
                del data[_WIDGET_VIEW]
                count += 1
    return count


def _count_widgets(nb) -> int:
    state = nb.metadata.get("widgets", {}).get(_WIDGET_STATE, {})
    return len(state.get("state", {}))


async def _build(path: Path, out: Path, offline: bool, timeout: int) -> Deck:
    start = time.monotonic()
    nb = _read_notebook(path)
    add_heading_slides(nb)
    await _execute(nb, path, timeout)
    prefer_static_forms(nb)
    exporter = _exporter(offline)
    body, _ = exporter.from_notebook_node(
        nb, resources={"metadata": {"name": path.stem, "path": str(path.parent.resolve())}}
    )
    target = out / f"{path.stem}{DECK_SUFFIX}"
    target.write_text(body, encoding="utf-8")
    return Deck(
        source=path,
        path=target,
        slides=len(re.findall(r"<section\b[^>]*>\s*<section\b", body)),
        pngs=body.count("data:image/png;base64,"),
        widgets=_count_widgets(nb),
        seconds=time.monotonic() - start,
        offline=offline,
    )


def export_deck(notebook: str | os.PathLike[str], out: str | os.PathLike[str], *,
                offline: bool = False, js_cache: str | os.PathLike[str] | None = None,
                timeout: int = DEFAULT_TIMEOUT) -> Deck:
    """Execute one notebook and write its deck into ``out``; see :func:`export_decks`."""
    return export_decks([notebook], out, offline=offline, js_cache=js_cache, timeout=timeout)[0]


def export_decks(notebooks: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
                 offline: bool = False, js_cache: str | os.PathLike[str] | None = None,
                 timeout: int = DEFAULT_TIMEOUT, jobs: int = 2,
                 log: Callable[[str], None] | None = None) -> list[Deck]:
    """Execute ``notebooks`` (``.py`` or ``.ipynb``) and write one reveal.js deck each into ``out``.

    Parameters
    ----------
    notebooks : sequence of path
        The notebooks, in order.
    out : path
        Output folder (created); decks are ``<name>.slides.html``.
    offline : bool
        Load the JavaScript from ``<out>/lib`` (installed from ``js_cache``)
        instead of the CDN.
    js_cache : path, optional
        Folder of the npm tarballs (default :func:`default_js_cache`).
    timeout : int
        Seconds one cell may run.
    jobs : int
        Notebooks executed at the same time (one kernel each).
    log : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    list of Deck
        In the order of ``notebooks``.

    Raises
    ------
    SlidesError
        If a notebook fails (after the others are done: one line per failure)
        or the offline JavaScript cannot be installed.
    """
    from pooltutor.errors import PoolTutorTypeError, check_int

    if isinstance(notebooks, (str, os.PathLike)):
        raise PoolTutorTypeError(f"notebooks={notebooks!r} is a single path: need a list of paths")
    paths = [Path(p) for p in notebooks]
    for path in paths:
        if path.suffix not in (".py", ".ipynb") or not path.is_file():
            from pooltutor.errors import PoolTutorError

            raise PoolTutorError(f"notebooks: {str(path)!r} is not a .py or .ipynb notebook file")
    timeout = check_int("timeout", timeout, minimum=1)
    jobs = check_int("jobs", jobs, minimum=1)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if offline:
        install_offline_assets(out, js_cache, log=log)

    async def run_all():
        gate = asyncio.Semaphore(jobs)

        async def one(path: Path):
            async with gate:
                deck = await _build(path, out, offline, timeout)
                if log:
                    log(f"wrote {deck.path} ({deck.slides} slides, {size_text(deck.size)}, "
                        f"{deck.seconds:.1f} s)")
                return deck

        return await asyncio.gather(*(one(p) for p in paths), return_exceptions=True)

    results = _run(run_all())
    failures = [r for r in results if isinstance(r, BaseException)]
    for failure in failures:
        if not isinstance(failure, SlidesError):
            raise failure
    if failures:
        raise SlidesError("; ".join(str(f) for f in failures))
    decks = list(results)
    _write_index(out, decks)
    return decks


def _run(coro):
    """Run ``coro`` to completion, also from a thread that already has an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _write_index(out: Path, decks: Sequence[Deck]) -> None:
    """``<out>/index.html``: a plain list of the decks in the folder."""
    names = sorted(p.name for p in out.glob(f"*{DECK_SUFFIX}"))
    items = "\n".join(
        f'<li><a href="{html.escape(n)}">{html.escape(n[: -len(DECK_SUFFIX)])}</a></li>'
        for n in names
    )
    out.joinpath("index.html").write_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>pooltutor slides</title></head>\n<body style=\"font-family:sans-serif\">"
        f"<h1>pooltutor slides</h1>\n<ul>\n{items}\n</ul>\n</body></html>\n",
        encoding="utf-8",
    )


# --------------------------------------------------------------------- PDF


def print_pdf(deck: str | os.PathLike[str], pdf: str | os.PathLike[str] | None = None, *,
              chromium: str | None = None, budget_ms: int = 15000) -> Path:
    """Print an (offline) deck to PDF with headless Chromium, one slide per page.

    Opens ``file://<deck>?print-pdf`` (reveal.js' print layout) and gives
    the page ``budget_ms`` of virtual time to load its scripts and render
    the widgets.  Returns the PDF path (default: the deck's, ``.pdf``).
    """
    deck = Path(deck).resolve()
    pdf = Path(pdf) if pdf is not None else deck.with_name(deck.name[: -len(DECK_SUFFIX)] + ".pdf"
                                                           if deck.name.endswith(DECK_SUFFIX)
                                                           else deck.stem + ".pdf")
    return chromium_print(deck.as_uri() + "?print-pdf", pdf, chromium=chromium,
                          budget_ms=budget_ms, what=deck.name)


# --------------------------------------------------------------------- CLI


def register(subparsers) -> None:
    """Register ``pooltutor slides``."""
    parser = subparsers.add_parser(
        "slides",
        help="export the notebooks as reveal.js slide decks",
        description=(
            "Execute the course notebooks and export each as a reveal.js deck "
            f"(<out>/<name>{DECK_SUFFIX}) with figures and widget state embedded. "
            "Cells tagged hide-input show their output only; remove-cell cells are left out."
        ),
    )
    parser.add_argument(
        "notebooks", nargs="*", metavar="NOTEBOOK",
        help="notebook names (01, 01_window_placement, 01_window_placement.py) or paths; "
             "default: all",
    )
    parser.add_argument("--out", type=Path, default=Path("slides"), metavar="DIR",
                        help="output folder (default: ./slides)")
    parser.add_argument("--offline", action="store_true",
                        help="decks that need no network: JavaScript copied to DIR/lib from the "
                             "npm tarballs in the JS cache (fetched with npm pack if missing)")
    parser.add_argument("--js-cache", type=Path, default=None, metavar="DIR",
                        help=f"npm tarball cache (default: ${JS_CACHE_ENV} "
                             "or ~/.cache/pooltutor/js)")
    parser.add_argument("--pdf", action="store_true",
                        help="also print each deck to DIR/<name>.pdf with headless Chromium "
                             "(implies --offline)")
    parser.add_argument("--timeout", type=_positive_int, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"seconds one cell may run (default: {DEFAULT_TIMEOUT})")
    parser.add_argument("--jobs", type=_positive_int, default=2, metavar="N",
                        help="notebooks executed at the same time (default: 2)")
    parser.set_defaults(func=lambda args: run(args, parser))


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: expected an integer >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid value {value}: expected an integer >= 1")
    return value


def _info(message: str) -> None:
    print(f"[pooltutor] {message}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``pooltutor slides``: resolve, execute, export (and print); exit status."""
    from pooltutor.course.cli import CLIError

    try:
        notebooks = resolve_notebooks(args.notebooks)
    except UnknownNotebookError as exc:
        parser.error(str(exc))  # exits with status 2
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out}: exists and is not a folder")
    offline = args.offline or args.pdf
    chromium = None
    if args.pdf:
        chromium = find_chromium()
        if chromium is None:
            raise CLIError("--pdf needs Chromium or Chrome: none found on PATH "
                           f"(set ${CHROMIUM_ENV})")
    try:
        decks = export_decks(notebooks, args.out, offline=offline, js_cache=args.js_cache,
                             timeout=args.timeout, jobs=args.jobs, log=_info)
        if args.pdf:
            for deck in decks:
                pdf = print_pdf(deck.path, chromium=chromium)
                _info(f"wrote {pdf} ({size_text(pdf.stat().st_size)})")
    except SlidesError as exc:
        raise CLIError(str(exc)) from None
    except OSError as exc:
        raise CLIError(f"cannot write the decks to {args.out}: {exc}") from None
    total = sum(d.size for d in decks)
    lib = args.out / LIB_DIR
    extra = f" + {LIB_DIR}/ {size_text(tree_size(lib))}" if offline and lib.is_dir() else ""
    print(f"{len(decks)} deck(s) in {args.out} ({size_text(total)}{extra}); "
          f"open {args.out / 'index.html'}")
    return 0
