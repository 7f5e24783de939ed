"""App mode: the course notebooks as web apps with Voila (``pooltutor app``).

Usage::

    pooltutor app [NOTEBOOK] [--port N] [--no-browser] [--notebook-dir DIR] [--dry-run]
                  [VOILA OPTIONS]

The ``.ipynb`` notebooks are written from their jupytext ``.py`` sources
first (:func:`pooltutor._notebooks.materialize_notebooks`, exactly as for
``pooltutor lab``), then Voila serves the whole notebook folder on
127.0.0.1: each notebook runs in its own kernel, its code is hidden and its
widgets are live.  The browser opens on ``NOTEBOOK`` (default: the course
map ``00_course_map``) at ``/voila/render/<name>.ipynb``; the other notebooks
are one link away (``/voila/tree``).  Options of the form
``--Class.trait=value`` and everything after ``--`` go to Voila unchanged,
e.g. ``pooltutor app -- --VoilaConfiguration.theme=dark``.

A ``MPLBACKEND`` environment variable is dropped for the kernels: a
non-inline backend (``agg``) would hide every static figure.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from urllib.parse import quote

from pooltutor._notebooks import (
    NotebooksNotFoundError,
    notebook_sources,
    notebooks_dir,
    working_dir,
)

__all__ = ["DEFAULT_NOTEBOOK", "app_url", "register", "voila_arguments"]

#: The notebook the app opens on when none is named.
DEFAULT_NOTEBOOK = "00_course_map"
#: Voila's default port (kept when ``--port`` is not given).
DEFAULT_PORT = 8866


def app_url(port: int, notebook: str, host: str = "127.0.0.1") -> str:
    """The Voila URL of ``notebook`` (a name without suffix).

    >>> app_url(8866, "00_course_map")
    'http://127.0.0.1:8866/voila/render/00_course_map.ipynb'
    """
    return f"http://{host}:{port}/voila/render/{quote(notebook)}.ipynb"


def voila_arguments(root_dir: Path, args: argparse.Namespace) -> list[str]:
    """Voila command-line arguments for ``pooltutor app`` (browser opening is ours)."""
    argv = [str(root_dir), "--Voila.ip=127.0.0.1", "--Voila.open_browser=False"]
    if args.port is not None:
        argv.append(f"--Voila.port={args.port}")
    argv.extend(args.passthrough)
    return argv


def register(subparsers) -> None:
    """Register ``pooltutor app``."""
    from pooltutor.cli import add_server_arguments

    parser = subparsers.add_parser(
        "app",
        help="open the course as a web app (Voila: code hidden, widgets live)",
        description=(
            "Write the .ipynb notebooks from their jupytext .py sources and serve them with "
            "Voila on 127.0.0.1 (code hidden, widgets live), opening NOTEBOOK (default: "
            f"{DEFAULT_NOTEBOOK}). Options of the form --Class.trait=value, and anything "
            "after --, go to Voila unchanged."
        ),
    )
    parser.add_argument(
        "notebook", nargs="?", default=None, metavar="NOTEBOOK",
        help=f"notebook to open first: 02, 02_output_size_rounding(.py/.ipynb) "
             f"(default: {DEFAULT_NOTEBOOK})",
    )
    add_server_arguments(parser)
    parser.add_argument(
        "--notebook-dir", type=Path, default=None, metavar="DIR",
        help="folder to serve (copies the notebooks there first); default as for 'pooltutor lab'",
    )
    parser.add_argument("--dry-run", action="store_true",
                        help="prepare the notebooks, print the Voila command line and the URL "
                             "and exit")
    parser.set_defaults(func=lambda args: run(args, parser), passthrough=True)


def _choose_notebook(name: str | None, candidates: list[Path]) -> str:
    """The stem of the notebook to open; raises UnknownNotebookError (a usage error)."""
    from pooltutor.slides import UnknownNotebookError, resolve_notebooks

    stems = {p.stem: p for p in candidates}
    if name is None:
        if DEFAULT_NOTEBOOK in stems:
            return DEFAULT_NOTEBOOK
        if not stems:
            raise UnknownNotebookError("no course notebooks found")
        return next(iter(stems))
    if "/" in name or os.sep in name:
        raise UnknownNotebookError(
            f"NOTEBOOK={name!r}: give the name of a course notebook, not a path "
            "(use --notebook-dir to serve another folder)"
        )
    return resolve_notebooks([name], list(stems.values()))[0].stem


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Materialize the notebooks and run Voila in this process."""
    from pooltutor.cli import CLIError, _info, materialize_notebooks
    from pooltutor.slides import UnknownNotebookError

    try:
        source = notebooks_dir()
        root = working_dir(args.notebook_dir).resolve()
    except NotebooksNotFoundError as exc:
        raise CLIError(str(exc)) from None
    # the notebooks the app can open: the shipped ones and any in the folder already
    candidates = {p.stem: p for p in notebook_sources(source)}
    if root.is_dir():
        candidates.update({p.stem: p for p in notebook_sources(root)})
        candidates.update({p.stem: p for p in sorted(root.glob("*.ipynb"))})
    try:
        notebook = _choose_notebook(args.notebook, sorted(candidates.values()))
    except UnknownNotebookError as exc:
        parser.error(str(exc))  # exits with status 2
    try:
        notebooks = materialize_notebooks(root, source, log=_info)
    except OSError as exc:
        raise CLIError(f"cannot prepare the notebooks in {root}: {exc}") from None
    if not (root / f"{notebook}.ipynb").is_file():
        raise CLIError(f"{notebook}.ipynb is missing in {root}")
    _info(f"{len(notebooks)} notebook(s) in {root}")
    argv = voila_arguments(root, args)
    port = args.port if args.port is not None else DEFAULT_PORT
    if args.dry_run:
        print("voila " + " ".join(argv))
        print(app_url(port, notebook))
        return 0
    try:
        from voila.app import Voila
    except ImportError:
        raise CLIError("Voila is not installed: pip install voila") from None
    if os.environ.pop("MPLBACKEND", None) is not None:
        _info("ignoring MPLBACKEND for the notebook kernels (their figures are inline)")
    app_class = _course_voila(Voila, notebook, open_browser=not args.no_browser)
    app_class.launch_instance(argv=argv)
    return 0


def _course_voila(voila_class, notebook: str, *, open_browser: bool):
    """A Voila application class that announces (and opens) ``notebook`` once it listens."""
    import threading
    import webbrowser

    class CourseVoila(voila_class):
        name = "pooltutor-app"

        def listen(self):
            # Voila calls launch_browser() between listening and serving, with
            # the port it finally got; ask for that call in any case.
            self.open_browser = True
            super().listen()

        def launch_browser(self):
            url = app_url(self.port, notebook, host=self.ip or "127.0.0.1")
            print(f"[pooltutor] the course is at {url}", file=sys.stderr, flush=True)
            if not open_browser:
                return
            try:
                browser = webbrowser.get(self.browser or None)
            except webbrowser.Error as exc:
                self.log.warning("No web browser found: %s.", exc)
                return
            threading.Thread(target=browser.open, args=(url, self.webbrowser_open_new),
                             daemon=True).start()

    return CourseVoila
