"""The ``pooltutor`` command (also ``python -m pooltutor``).

Usage::

    pooltutor --version
    pooltutor lab [--port N] [--no-browser] [--notebook-dir DIR] [--dry-run] [JUPYTER OPTIONS]
    pooltutor app [NOTEBOOK] [--port N] [--no-browser] ...      (pooltutor.course.app: Voila)
    pooltutor slides [NOTEBOOK ...] [--out DIR] [--offline] ... (pooltutor.course.slides: reveal.js)
    pooltutor formulas [--pdf FILE] [--html FILE]               (pooltutor.course.formula_sheet: PDF)
    pooltutor audit MODEL.onnx [--input-shape NAME=1,3,224,224 ...] [--json] [--html FILE]

``pooltutor lab`` writes ``.ipynb`` notebooks from the jupytext ``.py`` sources
(see :mod:`pooltutor.course.notebooks`) and opens JupyterLab on them, bound to
127.0.0.1.  Options of the form ``--Class.trait=value`` and everything after
``--`` are passed to JupyterLab unchanged.

Subcommands
-----------
``lab`` and ``audit`` are defined here; ``app``, ``slides`` and ``formulas``
by the module that does the work (:mod:`pooltutor.course.app`,
:mod:`pooltutor.course.slides`, :mod:`pooltutor.course.formula_sheet`), each
with a ``register(subparsers)`` that :func:`build_parser` calls.  A new
subcommand is one more such module and one more line in
:data:`COMMAND_MODULES`.  Raise :class:`CLIError` for a user-facing failure:
it becomes a one-line message and exit status 1.  Bad arguments exit with
status 2 and a one-line message.

Heavy imports (jupytext, jupyterlab) happen inside the command functions, so
``import pooltutor.course.cli`` stays cheap.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pooltutor.course.notebooks import (
    NotebookDirError,
    NotebooksNotFoundError,
    materialize_notebooks,
    notebooks_dir,
    working_dir,
)
from pooltutor._version import __version__

__all__ = [
    "CLIError",
    "add_server_arguments",
    "build_parser",
    "main",
    "materialize_notebooks",
    "notebooks_dir",
    "running_as_root",
]

PROG = "pooltutor"
#: Exit status for bad command-line arguments (argparse convention).
USAGE_ERROR = 2
#: Modules that define a subcommand of their own (each has ``register(subparsers)``).
COMMAND_MODULES = ("pooltutor.course.app", "pooltutor.course.slides",
                   "pooltutor.course.formula_sheet")


class CLIError(Exception):
    """A user-facing failure of a subcommand: printed on one line, exit status 1."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors are one line and exit with status 2."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        message = " ".join(message.split())
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def running_as_root() -> bool:
    """True on POSIX when the effective user is root (Jupyter then needs ``--allow-root``)."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid is not None and geteuid() == 0


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port {text!r}: expected an integer") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"invalid port {value}: expected 0..65535")
    return value


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--port`` and ``--no-browser`` options shared by server commands."""
    parser.add_argument(
        "--port",
        type=_port,
        default=None,
        metavar="N",
        help="port to listen on (default: the server's own default)",
    )
    parser.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open a web browser",
    )


# --------------------------------------------------------------------------- lab


def register_lab(subparsers) -> None:
    """Register ``pooltutor lab``."""
    parser = subparsers.add_parser(
        "lab",
        help="open the course notebooks in JupyterLab",
        description=(
            "Write the .ipynb notebooks from their jupytext .py sources and open "
            "JupyterLab on them (listening on 127.0.0.1). Options of the form "
            "--Class.trait=value, and anything after --, go to JupyterLab unchanged."
        ),
    )
    add_server_arguments(parser)
    parser.add_argument(
        "--notebook-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help=(
            "folder to open (copies the notebooks there first); default: the "
            "checkout's notebooks/ folder, or ~/pooltutor-notebooks for an installed package"
        ),
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="prepare the notebooks, print the JupyterLab command line and exit",
    )
    parser.set_defaults(func=run_lab, passthrough=True)


def lab_arguments(root_dir: Path, args: argparse.Namespace) -> list[str]:
    """JupyterLab command-line arguments for ``pooltutor lab``."""
    argv = [f"--ServerApp.root_dir={root_dir}", "--ServerApp.ip=127.0.0.1"]
    if args.port is not None:
        argv.append(f"--port={args.port}")
    if args.no_browser:
        argv.append("--no-browser")
    if running_as_root():
        argv.append("--allow-root")
    argv.extend(args.passthrough)
    return argv


def run_lab(args: argparse.Namespace) -> int:
    """Materialize the notebooks and run JupyterLab in this process."""
    try:
        source = notebooks_dir()
        root = working_dir(args.notebook_dir).resolve()
        notebooks = materialize_notebooks(root, source, log=_info)
    except NotebooksNotFoundError as exc:
        raise CLIError(str(exc)) from None
    except OSError as exc:
        raise CLIError(f"cannot prepare the notebooks in {args.notebook_dir or 'the default folder'}: {exc}") from None
    _info(f"{len(notebooks)} notebook(s) in {root}")
    argv = lab_arguments(root, args)
    if args.dry_run:
        print("jupyter lab " + " ".join(argv))
        return 0
    try:
        from jupyterlab.labapp import LabApp
    except ImportError:
        raise CLIError("JupyterLab is not installed: pip install jupyterlab") from None
    LabApp.launch_instance(argv=argv)
    return 0


# --------------------------------------------------------------------------- audit


def _input_shape_arg(text: str):
    from pooltutor.model_audit import parse_input_shape

    try:
        return parse_input_shape(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register_audit(subparsers) -> None:
    """Register ``pooltutor audit`` (:mod:`pooltutor.model_audit`)."""
    parser = subparsers.add_parser(
        "audit",
        help="audit an ONNX model: every pooling / convolution node's shape under each runtime",
        description=(
            "Read MODEL.onnx and give every pooling and convolution node's output shape under "
            "each runtime's rule (onnx spec, onnxruntime, openvino, tensorrt, pytorch), "
            "following each runtime's own shapes to the outputs. Exit status 0: all agree; "
            "1: some disagree; 2: usage error or unreadable model."
        ),
    )
    parser.add_argument("model", metavar="MODEL.onnx", help="the ONNX model file")
    parser.add_argument("--input-shape", dest="input_shapes", action="append", default=[],
                        type=_input_shape_arg, metavar="NAME=1,3,224,224",
                        help="the shape of an input (repeat for several inputs); required "
                             "for an input with a symbolic dimension")
    parser.add_argument("--json", action="store_true",
                        help="print the report as JSON instead of the table")
    parser.add_argument("--html", type=Path, default=None, metavar="FILE",
                        help="also write an HTML report with a picture of each disagreeing "
                             "node's last windows")
    parser.set_defaults(func=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    """``pooltutor audit``: 0 when every runtime agrees on every node, 1 when some disagree,
    2 (one line on stderr) for an unreadable model or bad input."""
    import json

    shapes: dict = {}
    for name, shape in args.input_shapes:
        if name in shapes:
            print(f"{PROG} audit: error: --input-shape names {name!r} twice", file=sys.stderr)
            return USAGE_ERROR
        shapes[name] = shape
    try:
        from pooltutor.model_audit import audit
        report = audit(args.model, shapes or None)
    except (ValueError, TypeError, ImportError) as exc:
        message = " ".join(str(exc).split())
        print(f"{PROG} audit: error: {message}", file=sys.stderr)
        return USAGE_ERROR
    if args.html is not None:            # first, so that a failure leaves stdout empty
        from pooltutor.viz.audit_report import write_html

        try:
            write_html(report, args.html)
        except OSError as exc:
            print(f"{PROG} audit: error: cannot write {args.html}: {exc.strerror or exc}",
                  file=sys.stderr)
            return USAGE_ERROR
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.table())
    if args.html is not None:
        _info(f"HTML report written to {args.html}")
    return 0 if report.agree else 1


# ------------------------------------------------------------------- plumbing


def _info(message: str) -> None:
    print(f"[{PROG}] {message}", file=sys.stderr, flush=True)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = _Parser(
        prog=PROG,
        description="pooltutor: interactive lessons on the arithmetic of pooling layers.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    register_lab(subparsers)
    register_audit(subparsers)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    parser.commands = subparsers.choices   # our own attribute: name -> subparser
    return parser


def _split_passthrough(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, []


def _is_trait_option(arg: str) -> bool:
    """``--Class.trait=value`` (a traitlets configuration option)."""
    if not arg.startswith("--") or "=" not in arg:
        return False
    name = arg[2:].split("=", 1)[0]
    return "." in name and all(part.isidentifier() for part in name.split("."))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pooltutor`` command; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    own, after_dashes = _split_passthrough(argv)
    parser = build_parser()
    args, unknown = parser.parse_known_args(own)
    if args.command is None:
        parser.error(f"missing command (choose from {', '.join(sorted(parser.commands))})")
    subparser = parser.commands[args.command]
    passthrough = getattr(args, "passthrough", False)
    rejected = [arg for arg in unknown if not (passthrough and _is_trait_option(arg))]
    if rejected or (after_dashes and not passthrough):
        bad = rejected or ["--", *after_dashes]
        subparser.error(f"unrecognized arguments: {' '.join(bad)}")
    # from here on args.passthrough is the list of arguments for the wrapped tool
    args.passthrough = unknown + after_dashes if passthrough else []
    try:
        return int(args.func(args) or 0)
    except NotebookDirError as exc:      # a bad --notebook-dir: a usage error, status 2
        subparser.error(str(exc))
    except CLIError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
