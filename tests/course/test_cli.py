"""The ``pooltutor`` command: version, argument errors, its subcommands,
and ``pooltutor lab`` really serving the notebooks over HTTP."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import types
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from process_helpers import bad_arguments_error, free_port, stop

from pooltutor.course import cli
from pooltutor.course.notebooks import notebook_sources
from pooltutor._version import __version__

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = notebook_sources(REPO_ROOT / "notebooks")
LAB_TIMEOUT = 60  # seconds for JupyterLab to answer


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120):
    return subprocess.run(
        [sys.executable, "-m", "pooltutor", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ------------------------------------------------------------------ version


def test_version_in_process(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"pooltutor {__version__}"


def test_python_dash_m_version_from_any_folder(tmp_path: Path):
    proc = run_cli("--version", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"pooltutor {__version__}"


def test_console_script_version(tmp_path: Path):
    exe = shutil.which("pooltutor")
    if exe is None:
        pytest.skip("pooltutor is not installed on PATH (pip install -e .)")
    proc = subprocess.run([exe, "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"pooltutor {__version__}"


def test_import_stays_light():
    """cli imports neither jupytext nor JupyterLab until a command needs them."""
    code = (
        "import sys, pooltutor.course.cli; "
        "heavy = [m for m in ('jupytext', 'jupyterlab', 'jupyter_server', 'matplotlib') if m in sys.modules]; "
        "print(heavy)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# ----------------------------------------------------------- bad arguments

BAD_ARGUMENTS = {
    "no command": [],
    "unknown command": ["bogus"],
    "unknown option": ["--bogus"],
    "port not a number": ["lab", "--port", "abc"],
    "port out of range": ["lab", "--port", "70000"],
    "port missing": ["lab", "--port"],
    "unknown lab option": ["lab", "--bogus"],
    "abbreviated option": ["lab", "--no-brow"],
    "bare positional": ["lab", "extra"],
}


@pytest.mark.parametrize("argv", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments_exit_2_with_one_line(capsys, argv):
    line = bad_arguments_error(cli.main, capsys, argv)
    assert line.startswith("pooltutor") and "error:" in line


def test_bad_arguments_subprocess_has_no_traceback(tmp_path: Path):
    proc = run_cli("lab", "--port", "nope", cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------- subcommands


def test_every_subcommand_is_registered():
    parser = cli.build_parser()
    assert sorted(parser.commands) == ["app", "audit", "formulas", "lab", "slides"]


def test_a_command_module_adds_a_subcommand(monkeypatch, capsys):
    """A module listed in COMMAND_MODULES registers its own subcommand."""
    calls = []

    def register(subparsers):
        parser = subparsers.add_parser("demo", help="a test command")
        cli.add_server_arguments(parser)
        parser.set_defaults(func=lambda args: calls.append(args) or 0)

    module = types.ModuleType("pooltutor_fake_cli_demo")
    module.register = register
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(cli, "COMMAND_MODULES", (*cli.COMMAND_MODULES, module.__name__))

    assert cli.main(["demo", "--port", "8123", "--no-browser"]) == 0
    (args,) = calls
    assert args.port == 8123 and args.no_browser and args.passthrough == []

    # a command that does not ask for passthrough rejects JupyterLab-style options
    with pytest.raises(SystemExit) as exc:
        cli.main(["demo", "--ServerApp.token=x"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        cli.main(["demo", "--", "--anything"])
    assert exc.value.code == 2
    capsys.readouterr()


def test_cli_errors_are_one_line_with_status_1(monkeypatch, capsys):
    def boom(args):
        raise cli.CLIError("no notebooks here")

    monkeypatch.setattr(cli, "run_lab", boom)
    assert cli.main(["lab"]) == 1
    assert capsys.readouterr().err.strip() == "pooltutor lab: error: no notebooks here"


# ---------------------------------------------------------------------- lab


@pytest.mark.parametrize("root", [True, False])
def test_lab_arguments(monkeypatch, tmp_path: Path, root: bool):
    monkeypatch.setattr(cli, "running_as_root", lambda: root)
    args = argparse.Namespace(port=8765, no_browser=True, passthrough=["--LabApp.x=1"])
    argv = cli.lab_arguments(tmp_path, args)
    assert argv[:2] == [f"--ServerApp.root_dir={tmp_path}", "--ServerApp.ip=127.0.0.1"]
    assert "--port=8765" in argv and "--no-browser" in argv
    assert ("--allow-root" in argv) is root
    assert argv[-1] == "--LabApp.x=1"


def test_lab_dry_run_materializes_and_passes_options_through(tmp_path: Path, capsys):
    dest = tmp_path / "nb"
    status = cli.main(
        ["lab", "--dry-run", "--notebook-dir", str(dest), "--ServerApp.token=abc", "--", "--debug"]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert out.startswith("jupyter lab ")
    assert f"--ServerApp.root_dir={dest.resolve()}" in out
    assert out.rstrip().endswith("--ServerApp.token=abc --debug")
    for py in NOTEBOOKS:
        assert (dest / py.with_suffix(".ipynb").name).is_file()


def test_lab_default_folder_is_the_checkout(tmp_path: Path, capsys, monkeypatch):
    """In a source checkout the notebooks are served in place."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["lab", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"--ServerApp.root_dir={(REPO_ROOT / 'notebooks').resolve()}" in out


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
def test_lab_serves_the_notebooks(tmp_path: Path):
    pytest.importorskip("jupyterlab")
    port = free_port()
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),  # no personal config
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
    }
    env.pop("MPLBACKEND", None)
    log_path = tmp_path / "lab.log"
    start = time.monotonic()
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pooltutor", "lab", "--no-browser", "--port", str(port),
             "--notebook-dir", str(tmp_path / "nb"), "--IdentityProvider.token="],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: stop the server and its children
        )
    try:
        base = f"http://127.0.0.1:{port}"
        status = None
        while time.monotonic() - start < LAB_TIMEOUT:
            if proc.poll() is not None:
                pytest.fail(f"pooltutor lab exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/lab", timeout=5) as response:
                    status = response.status
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.25)
        elapsed = time.monotonic() - start
        assert status == 200, f"no HTTP 200 from /lab within {LAB_TIMEOUT} s:\n{log_path.read_text()}"
        print(f"pooltutor lab answered after {elapsed:.1f} s")

        with urllib.request.urlopen(f"{base}/api/contents", timeout=10) as response:
            listing = response.read().decode()
        for py in NOTEBOOKS:
            assert f'"{py.stem}.ipynb"' in listing
        with urllib.request.urlopen(f"{base}/api/contents/{NOTEBOOKS[0].stem}.ipynb", timeout=10) as response:
            assert response.status == 200  # jupytext's contents manager accepts the pair
    finally:
        stop(proc, grace=20)
    assert proc.returncode is not None
