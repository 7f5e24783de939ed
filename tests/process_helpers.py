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
