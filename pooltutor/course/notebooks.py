"""Find the course notebooks and turn their ``.py`` sources into ``.ipynb``.

The notebooks live in git as jupytext ``py:percent`` files (``notebooks/*.py``);
the ``.ipynb`` files are generated and disposable.  This module is shared by
the ``pooltutor lab`` / ``slides`` / ``app`` subcommands:

* :func:`notebooks_dir` -- where the shipped ``.py`` sources are (the repo's
  ``notebooks/`` folder in a source / editable checkout, ``pooltutor/notebooks``
  package data in an installed wheel);
* :func:`working_dir` -- the folder to serve: the source folder itself when it
  is a writable checkout, otherwise a copy in :func:`user_notebooks_dir`;
* :func:`materialize_notebooks` -- write ``.ipynb`` next to each ``.py``.

jupytext is imported lazily so that ``import pooltutor`` stays numpy-only.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "NotebooksNotFoundError",
    "UnknownNotebookError",
    "materialize_notebooks",
    "notebook_sources",
    "notebooks_dir",
    "resolve_notebooks",
    "user_notebooks_dir",
    "working_dir",
]

#: Environment variable that overrides :func:`user_notebooks_dir`.
USER_DIR_ENV = "POOLTUTOR_NOTEBOOKS_DIR"
#: jupytext configuration file name (pairs ``ipynb`` with ``py:percent``).
JUPYTEXT_CONFIG = "jupytext.toml"

# the installed package directory (pooltutor/): wheels carry the notebooks in pooltutor/notebooks
_PACKAGE_DIR = Path(__file__).resolve().parent.parent


class NotebooksNotFoundError(FileNotFoundError):
    """The course notebooks could not be located."""


class NotebookDirError(ValueError):
    """A ``--notebook-dir`` that cannot hold the notebooks (a file, or a path inside one):
    a usage error (exit status 2), not a failure of the command."""


def notebook_sources(folder: str | os.PathLike[str]) -> list[Path]:
    """Return the jupytext ``.py`` notebook sources in *folder*, sorted by name.

    Files whose name starts with ``_`` or ``.`` are helpers, not notebooks.
    """
    folder = Path(folder)
    return sorted(
        p for p in folder.glob("*.py") if p.is_file() and not p.name.startswith(("_", "."))
    )


def notebooks_dir() -> Path:
    """Return the folder holding the shipped notebook sources (``*.py``).

    Looks first for package data ``pooltutor/notebooks`` (a wheel install), then
    for the ``notebooks/`` folder of the source checkout the package was
    imported from (an editable install or a plain checkout).

    Raises
    ------
    NotebooksNotFoundError
        If neither folder holds any ``.py`` notebook.
    """
    candidates = [_PACKAGE_DIR / "notebooks", _PACKAGE_DIR.parent / "notebooks"]
    for folder in candidates:
        if folder.is_dir() and notebook_sources(folder):
            return folder
    looked = ", ".join(str(c) for c in candidates)
    raise NotebooksNotFoundError(f"no pooltutor notebooks (*.py) found; looked in {looked}")


def user_notebooks_dir() -> Path:
    """Writable per-user folder for a copy of the notebooks.

    ``$POOLTUTOR_NOTEBOOKS_DIR`` if set, else ``~/pooltutor-notebooks``.
    """
    override = os.environ.get(USER_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path.home() / "pooltutor-notebooks"


def _inside_installation(path: Path) -> bool:
    """True if *path* lies in an interpreter's site-packages (or prefix)."""
    roots = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    roots.update({sys.prefix, sys.base_prefix})
    path = path.resolve()
    for root in roots:
        try:
            path.relative_to(Path(root).resolve())
        except ValueError:
            continue
        return True
    return False


def _is_writable_dir(path: Path) -> bool:
    return path.is_dir() and os.access(path, os.W_OK | os.X_OK)


def working_dir(dest: str | os.PathLike[str] | None = None) -> Path:
    """Return the folder in which the notebooks should be opened.

    *dest* if given; otherwise the source folder from :func:`notebooks_dir`
    when it is the ``notebooks/`` folder of a writable source checkout, else
    :func:`user_notebooks_dir` (the notebooks are copied there by
    :func:`materialize_notebooks`).  Package data (a wheel install) is never
    edited in place.
    """
    if dest is not None:
        path = Path(dest).expanduser()
        existing = path
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if existing.exists() and not existing.is_dir():
            where = "exists" if existing == path else f"is inside {existing}, which exists"
            raise NotebookDirError(f"--notebook-dir {dest}: {where} and is not a folder")
        return path
    source = notebooks_dir()
    is_package_data = source == _PACKAGE_DIR / "notebooks"
    if not is_package_data and _is_writable_dir(source) and not _inside_installation(source):
        return source
    return user_notebooks_dir()


def _config_file(source: Path) -> Path | None:
    """The jupytext.toml that applies to *source* (shipped beside it or at the repo root)."""
    for candidate in (source / JUPYTEXT_CONFIG, source.parent / JUPYTEXT_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def _inputs(nb) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source) for cell in nb.cells]


def _copy_sources(source: Path, dest: Path) -> None:
    """Copy missing notebook sources (and the jupytext config) from *source* to *dest*.

    Existing files in *dest* are the student's copies and are never overwritten.
    """
    for src in notebook_sources(source):
        target = dest / src.name
        if not target.exists():
            shutil.copy2(src, target)
    config = _config_file(source)
    if config is not None and not (dest / JUPYTEXT_CONFIG).exists():
        shutil.copy2(config, dest / JUPYTEXT_CONFIG)


def materialize_notebooks(
    dest: str | os.PathLike[str],
    source: str | os.PathLike[str] | None = None,
    *,
    log=None,
) -> list[Path]:
    """Write ``<name>.ipynb`` for every ``<name>.py`` notebook in *dest*.

    Parameters
    ----------
    dest
        Folder to hold the notebooks (created if needed).
    source
        Folder to copy the ``.py`` sources from first (default
        :func:`notebooks_dir`; ignored when it is *dest* itself).  Files that
        already exist in *dest* are kept, so a student's edits survive.
    log
        Optional callable receiving one-line progress messages.

    Returns
    -------
    list of Path
        The ``.ipynb`` paths, sorted by name.

    Notes
    -----
    The ``.py`` file is the source of truth (``jupytext --to ipynb``, never
    ``--sync``).  An existing ``.ipynb`` whose cells already match its ``.py``
    is left untouched; one whose cells differ gets the ``.py`` inputs with its
    previous outputs kept, and if it was newer than the ``.py`` a backup
    ``<name>.ipynb.bak`` is written first.
    """
    import jupytext  # lazy: keeps ``import pooltutor`` numpy-only
    from jupytext.combine import combine_inputs_with_outputs
    from jupytext.config import load_jupytext_config

    def say(message: str) -> None:
        if log is not None:
            log(message)

    dest = Path(dest).expanduser()
    source_dir = Path(source) if source is not None else notebooks_dir()
    dest.mkdir(parents=True, exist_ok=True)
    if source_dir.resolve() != dest.resolve():
        _copy_sources(source_dir, dest)

    written: list[Path] = []
    for py in notebook_sources(dest):
        ipynb = py.with_suffix(".ipynb")
        config = load_jupytext_config(str(py.resolve()))
        nb = jupytext.read(py, fmt="py:percent", config=config)
        if ipynb.exists():
            old = jupytext.read(ipynb, fmt="ipynb")
            if _inputs(old) == _inputs(nb):
                written.append(ipynb)
                continue
            if ipynb.stat().st_mtime > py.stat().st_mtime:
                backup = ipynb.with_name(ipynb.name + ".bak")
                shutil.copy2(ipynb, backup)
                say(f"{ipynb.name} differed from {py.name} and was newer; kept a copy in {backup.name}")
            nb = combine_inputs_with_outputs(nb, old, fmt="py:percent")
        jupytext.write(nb, ipynb, fmt="ipynb", config=config)
        say(f"wrote {ipynb}")
        written.append(ipynb)
    return written


class UnknownNotebookError(ValueError):
    """A notebook name that matches no course notebook (a usage error)."""


def _available(source: Path | None = None) -> list[Path]:
    try:
        return notebook_sources(source if source is not None else notebooks_dir())
    except NotebooksNotFoundError:
        return []


def resolve_notebooks(names: Sequence[str], available: Sequence[Path] | None = None) -> list[Path]:
    """Turn command-line notebook names into notebook files.

    A name is the path of a ``.py`` / ``.ipynb`` notebook, or a course
    notebook's name with or without ``.py`` / ``.ipynb``, or the start of
    exactly one (``01`` for ``01_window_placement``).  No names: every
    course notebook.

    Raises
    ------
    UnknownNotebookError
        For a name that matches none (or several) of ``available``; the
        message lists them.
    """
    available = list(_available() if available is None else available)
    if not names:
        if not available:
            raise UnknownNotebookError("no course notebooks found")
        return available
    stems = {p.stem: p for p in available}
    listed = ", ".join(stems) or "none"
    found: list[Path] = []
    for name in names:
        path = Path(name).expanduser()
        if path.suffix in (".py", ".ipynb") and path.is_file():
            found.append(path)
            continue
        key = name[: -len(path.suffix)] if path.suffix in (".py", ".ipynb") else name
        if key in stems:
            found.append(stems[key])
            continue
        matches = [stem for stem in stems if stem.startswith(key)] if key else []
        if len(matches) > 1:
            # a whole number picks its notebook: "03" is 03_..., not 03b_...
            exact = [stem for stem in matches if stem.startswith(key + "_")]
            matches = exact if len(exact) == 1 else matches
        if len(matches) == 1:
            found.append(stems[matches[0]])
        elif matches:
            raise UnknownNotebookError(f"notebook {name!r} is ambiguous: it starts "
                                       f"{', '.join(matches)}")
        else:
            raise UnknownNotebookError(f"no notebook {name!r}; available: {listed}")
    return list(dict.fromkeys(found))
