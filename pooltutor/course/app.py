"""App mode: the course notebooks as web apps with Voila (``pooltutor app``).

Usage::

    pooltutor app [NOTEBOOK] [--port N] [--no-browser] [--notebook-dir DIR] [--dry-run]
                  [--class-size N [--preheat NAME,...] [--refill-delay S]]
                  [--ip IP] [--token TOKEN | --no-token] [VOILA OPTIONS]

The ``.ipynb`` notebooks are written from their jupytext ``.py`` sources
first (:func:`pooltutor.course.notebooks.materialize_notebooks`, exactly as for
``pooltutor lab``), then Voila serves the whole notebook folder on
127.0.0.1: each notebook runs in its own kernel, its code is hidden and its
widgets are live.  The browser opens on ``NOTEBOOK`` (default: the course
map ``00_course_map``) at ``/voila/render/<name>.ipynb``; the other notebooks
are one link away (``/voila/tree``).  Options of the form
``--Class.trait=value`` and everything after ``--`` go to Voila unchanged,
e.g. ``pooltutor app -- --VoilaConfiguration.theme=dark``.

A ``MPLBACKEND`` environment variable is dropped for the kernels: a
non-inline backend (``agg``) would hide every static figure.

Pages are rendered with pooltutor's Voila template (Voila's ``lab`` plus a
status line: "starting the explorers", then, if their widgets do not come
alive, "the server is busy: reload in a minute"), and the executor waits for
every output instead of dropping it (:data:`pooltutor.course.classroom.CLASSROOM_TIMEOUTS`).

A whole class: ``--class-size N`` preheats ``N`` kernels for ``NOTEBOOK``
(or each notebook of ``--preheat``) before anyone arrives, prints the pool,
its memory and, once every kernel has run its notebook, that the pool is
warm (see :mod:`pooltutor.course.classroom`).  ``--ip 0.0.0.0`` serves the
classroom network: a token is then generated (or ``--token``), and the URL to
hand out is printed; ``--no-token`` serves it open, on purpose only.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from urllib.parse import quote

from pooltutor.course.notebooks import (
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


def voila_arguments(root_dir: Path, args: argparse.Namespace, network=None, pool=None
                    ) -> list[str]:
    """Voila command-line arguments for ``pooltutor app`` (browser opening is ours)."""
    from pooltutor.course import classroom

    network = network or classroom.check_network()
    argv = [str(root_dir), *network.voila_options(), "--Voila.open_browser=False",
            f"--template={classroom.FRONT_ENDS[args.front_end]}"]
    argv.extend(f"--{name}={value}" for name, value in classroom.CLASSROOM_TIMEOUTS.items())
    argv.extend(classroom.kernel_transport_options())
    if pool is not None:
        argv.extend(pool.voila_options())
    if args.port is not None:
        argv.append(f"--Voila.port={args.port}")
    argv.extend(args.passthrough)
    return argv


def register(subparsers) -> None:
    """Register ``pooltutor app``."""
    from pooltutor.course import classroom
    from pooltutor.course.cli import add_server_arguments

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
    parser.add_argument("--front-end", choices=tuple(classroom.FRONT_ENDS), default="light",
                        help="the page's front end: 'light', pooltutor's own (a fifth of the "
                             "bytes, about half the browser's time), or 'lab', Voila's "
                             "JupyterLab application (default: light)")
    room = parser.add_argument_group(
        "a whole class", "serve a class from this machine (see the README, 'Teaching a class')")
    room.add_argument("--class-size", type=_class_size, default=None, metavar="N",
                      help="preheat N kernels for NOTEBOOK (or each --preheat notebook), "
                           "one per student, before the class opens the page")
    room.add_argument("--preheat", default=None, metavar="NAME,...",
                      help="the notebooks to preheat, comma-separated (default: NOTEBOOK)")
    room.add_argument("--refill-delay", type=float, default=None, metavar="S",
                      help="seconds before a kernel a student took is replaced in the pool "
                           "(default 300: no refills while the class starts)")
    room.add_argument("--ip", default="127.0.0.1", metavar="IP",
                      help="address to listen on (default 127.0.0.1, this machine only; "
                           "0.0.0.0: the classroom network, with a token)")
    room.add_argument("--token", default=None, metavar="TOKEN",
                      help="the token students need (default on a network address: generated)")
    room.add_argument("--no-token", action="store_true",
                      help="serve a network address without a token (anyone on the network "
                           "can use the app)")
    parser.set_defaults(func=lambda args: run(args, parser), passthrough=True)


def _class_size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid class size {text!r}: expected an integer "
                                         "1..200") from None
    if not 1 <= value <= 200:
        raise argparse.ArgumentTypeError(f"invalid class size {value}: expected 1..200")
    return value


def _choose_notebook(name: str | None, candidates: list[Path]) -> str:
    """The stem of the notebook to open; raises UnknownNotebookError (a usage error)."""
    from pooltutor.course.notebooks import UnknownNotebookError, resolve_notebooks

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
    from pooltutor.course.cli import CLIError, _info, materialize_notebooks
    from pooltutor.course.notebooks import UnknownNotebookError

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
        preheat = _preheat_names(args, notebook, sorted(candidates.values()))
    except UnknownNotebookError as exc:
        parser.error(str(exc))  # exits with status 2
    from pooltutor.course import classroom

    try:
        network = classroom.check_network(args.ip, args.token, no_token=args.no_token)
        pool = None
        if args.class_size is not None:
            pool = classroom.PoolPlan(args.class_size, preheat,
                                      *(() if args.refill_delay is None else (args.refill_delay,)))
    except (TypeError, ValueError) as exc:
        parser.error(str(exc))
    if any(a.startswith("--Voila.token=") and a.split("=", 1)[1] in ("", "''", '""')
           for a in args.passthrough) and not classroom.is_loopback(args.ip) \
            and not args.no_token:
        parser.error("--Voila.token= (empty) on a network address is refused: it leaves the "
                     "app open to the whole network; use --no-token to do that on purpose")
    try:
        notebooks = materialize_notebooks(root, source, log=_info)
    except OSError as exc:
        raise CLIError(f"cannot prepare the notebooks in {root}: {exc}") from None
    if not (root / f"{notebook}.ipynb").is_file():
        raise CLIError(f"{notebook}.ipynb is missing in {root}")
    _info(f"{len(notebooks)} notebook(s) in {root}")
    argv = voila_arguments(root, args, network, pool)
    port = args.port if args.port is not None else DEFAULT_PORT
    if pool is not None:
        _info(pool.describe(classroom.KERNEL_MIB_ESTIMATE) + " (estimate; measured when warm)")
    if not classroom.is_loopback(network.ip):
        _info(f"serving the network on {network.ip}: "
              + ("no token (--no-token): anyone on the network can use it"
                 if network.token is None else
                 f"token {network.token}" + (" (generated)" if network.generated else "")))
    if args.dry_run:
        print("voila " + " ".join(argv))
        if pool is not None:
            print(f"# and VoilaKernelManager.kernel_pools_config = {pool.kernel_pools_config()}")
        print(network.url(port, notebook) if not classroom.is_loopback(network.ip)
              else app_url(port, notebook, host=network.ip))
        return 0
    try:
        from voila.app import Voila
    except ImportError:
        raise CLIError("Voila is not installed: pip install voila") from None
    if os.environ.pop("MPLBACKEND", None) is not None:
        _info("ignoring MPLBACKEND for the notebook kernels (their figures are inline)")
    # Voila finds the pooltutor template in this Jupyter data folder
    paths = [str(classroom.template_root()), *filter(None, [os.environ.get("JUPYTER_PATH")])]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)
    app_class = _course_voila(Voila, notebook, open_browser=not args.no_browser,
                              network=network, pool=pool)
    app_class.launch_instance(argv=argv)
    return 0


def _preheat_names(args, notebook: str, candidates: list[Path]) -> tuple[str, ...]:
    """The stems of the notebooks the kernel pool preheats (``--preheat`` or NOTEBOOK)."""
    from pooltutor.course.notebooks import UnknownNotebookError, resolve_notebooks

    if args.preheat is None:
        return (notebook,)
    if args.class_size is None:
        raise UnknownNotebookError("--preheat needs --class-size N (how many kernels)")
    names = [n.strip() for n in args.preheat.split(",") if n.strip()]
    if not names:
        raise UnknownNotebookError(f"--preheat={args.preheat!r}: name at least one notebook")
    return tuple(dict.fromkeys(p.stem for p in resolve_notebooks(names, candidates)))


#: Where a page gets its XSRF cookie (page.macros.j2 asks once per page).
XSRF_PATH = "/pooltutor/api/xsrf"


def _xsrf_handlers(server_url: str) -> list:
    """The handler of :data:`XSRF_PATH`, which sets the page's ``_xsrf`` cookie.

    When a student leaves a page, the page asks Voila to shut its kernel down (a POST
    to ``voila/api/shutdown/ID`` that must carry the ``_xsrf`` cookie).  Voila's page
    handler never sets that cookie, so every such POST was refused (403) and each
    student's reload left a kernel of ~130 MiB running.  Reading tornado's public
    ``RequestHandler.xsrf_token`` sets the cookie."""
    import tornado.web
    from jupyter_server.base.handlers import APIHandler
    from jupyter_server.utils import url_path_join

    class XsrfCookieHandler(APIHandler):
        @tornado.web.authenticated
        def get(self):
            self.xsrf_token  # noqa: B018 - reading it sets the _xsrf cookie
            self.set_header("Cache-Control", "no-store")
            self.set_status(204)
            self.finish()

    return [(url_path_join(server_url, XSRF_PATH), XsrfCookieHandler)]


def _course_voila(voila_class, notebook: str, *, open_browser: bool, network=None, pool=None):
    """A Voila application class that announces (and opens) ``notebook`` once it listens,
    and, with a kernel pool, says when the pool is warm and what its kernels weigh."""
    import logging
    import statistics
    import threading
    import time
    import webbrowser

    from pooltutor.course import classroom

    network = network or classroom.check_network()
    started = time.monotonic()

    class PoolWatch(logging.Filter):
        """Voila logs "Kernel pool of NB is filled with N kernel(s)" once per notebook when
        its kernels are started and running the notebook; the pool is warm once every
        kernel has finished (idle, with no activity for a moment)."""

        def __init__(self, app):
            super().__init__()
            self.app, self.filled = app, set()

        def filter(self, record):
            if str(record.msg).startswith("Kernel pool of ") and record.args:
                self.filled.add(str(record.args[0]))
                if len(self.filled) == len(pool.notebooks):
                    import asyncio

                    asyncio.get_event_loop().create_task(self.app.wait_until_warm())
            return True

    class CourseVoila(voila_class):
        name = "pooltutor-app"

        def initialize(self, argv=None):
            if pool is not None:
                # a dict trait: set as configuration (traitlets' public Config), not argv
                self.config.VoilaKernelManager.kernel_pools_config = pool.kernel_pools_config()
            super().initialize(argv)
            if pool is not None:
                self.log.addFilter(PoolWatch(self))

        async def wait_until_warm(self, quiet_s: float = 2.0) -> None:
            """Announce the pool once all its kernels ran their notebook (public kernel
            state of jupyter_server's kernel managers: execution_state, last_activity)."""
            import asyncio
            import datetime

            while True:
                await asyncio.sleep(0.5)
                kernels = [self.kernel_manager.get_kernel(k)
                           for k in self.kernel_manager.list_kernel_ids()]
                if len(kernels) < pool.kernels:
                    continue
                now = datetime.datetime.now(datetime.timezone.utc)
                if all(getattr(k, "execution_state", "idle") == "idle"
                       and (now - k.last_activity).total_seconds() > quiet_s
                       for k in kernels if getattr(k, "last_activity", None) is not None):
                    self.announce_warm(time.monotonic() - started)
                    return

        def announce_warm(self, seconds: float) -> None:
            sizes = [classroom.process_rss_mib(pid) for pid in self._kernel_pids()]
            sizes = [s for s in sizes if s is not None]
            memory = (f"; {statistics.median(sizes):.0f} MiB each "
                      f"({sum(sizes) / 1024:.1f} GiB in all, measured)" if sizes else "")
            print(f"[pooltutor] the kernel pool is warm: {pool.kernels} kernel(s) ran "
                  f"{', '.join(pool.notebooks)} in {seconds:.0f} s{memory}. The class can "
                  f"open {network.url(self.port, notebook)}", file=sys.stderr, flush=True)

        def _kernel_pids(self) -> list[int]:
            pids = []
            for kid in self.kernel_manager.list_kernel_ids():
                provisioner = getattr(self.kernel_manager.get_kernel(kid), "provisioner", None)
                pid = getattr(provisioner, "pid", None)
                if pid:
                    pids.append(pid)
            return pids

        def init_handlers(self):
            return [*super().init_handlers(), *_xsrf_handlers(self.server_url)]

        def listen(self):
            # Voila calls launch_browser() between listening and serving, with
            # the port it finally got; ask for that call in any case.
            self.open_browser = True
            super().listen()

        def launch_browser(self):
            if classroom.is_loopback(network.ip):
                url = app_url(self.port, notebook, host=network.ip)
                if network.token:
                    url += f"?token={network.token}"
                print(f"[pooltutor] the course is at {url}", file=sys.stderr, flush=True)
            else:
                url = network.url(self.port, notebook)
                print(f"[pooltutor] hand out this URL to the class: {url}", file=sys.stderr,
                      flush=True)
            if pool is not None:
                print("[pooltutor] warming the kernel pool: wait for 'the kernel pool is warm' "
                      "before the class opens the page", file=sys.stderr, flush=True)
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
