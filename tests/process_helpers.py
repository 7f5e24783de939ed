"""Helpers for tests that start ``pooltutor`` servers or call its command line."""

from __future__ import annotations

import os
import signal
import socket
import subprocess


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(proc: subprocess.Popen, grace: float) -> None:
    """Stop a server started in its own process group, and its kernels: TERM, ``grace``
    seconds to exit, then KILL for whatever is left of the group."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # kernels left behind by a slow shutdown
    except ProcessLookupError:
        pass
    proc.wait(timeout=10)


def bad_arguments_error(main, capsys, argv) -> str:
    """Run the command line ``main(argv)``, which must refuse ``argv``: exit status 2, one
    line on stderr, nothing on stdout.  Returns that line."""
    import pytest

    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert captured.out == ""
    return lines[0]


#: Set to 1 (``.ci/run`` does) to make a missing browser a failure instead of a skip.
REQUIRE_BROWSER_ENV = "POOLTUTOR_REQUIRE_BROWSER"


def chromium_missing(chromium: str) -> str | None:
    """Why ``chromium`` cannot be run (a sentence), or None when it is an executable file."""
    if os.path.isfile(chromium) and os.access(chromium, os.X_OK):
        return None
    return f"no Chromium at {chromium} (apt-get install chromium)"


def skip_without_browser(missing: str | None, *, module: bool = False) -> None:
    """Skip the test (the whole module with ``module=True``) when ``missing`` says why no
    browser can run, or fail it when ``$POOLTUTOR_REQUIRE_BROWSER`` is 1.  None: nothing."""
    import pytest

    if missing is None:
        return
    if os.environ.get(REQUIRE_BROWSER_ENV) == "1":
        pytest.fail(f"{REQUIRE_BROWSER_ENV}=1 but {missing}", pytrace=False)
    pytest.skip(f"browser tests need a browser: {missing}", allow_module_level=module)
