"""Serving a whole class from one machine: ``pooltutor app --class-size N``.

Without it, every page that a student opens starts its own kernel and runs
the whole notebook while the other students' kernels do the same: with 20
students on 2 cores, pages waited minutes and some never got their widgets.
The classroom mode uses Voila's *preheated kernels*: at start-up, Voila
starts ``N`` kernels per preheated notebook and runs the notebook in each of
them, before any student arrives.  A page is then served from a kernel that
has already executed everything: it only has to show the results and connect
its widgets.

This module holds the classroom decisions, with no server in it:

* the kernel pool (:class:`PoolPlan`): which notebooks, how many kernels,
  what memory that takes, and the Voila options that ask for it;
* the timeouts (:data:`CLASSROOM_TIMEOUTS`): outputs are waited for instead
  of being dropped (the cause of "text without widgets");
* the network (:func:`check_network`): serving the classroom network on
  purpose, with a token unless told otherwise, and the URL to hand out;
* the kernels' memory, measured from ``/proc`` (:func:`process_rss_mib`).

The page itself says when the server is busy: the ``pooltutor`` Voila
template (``pooltutor/course/voila_templates``) shows a status line until the
widgets are alive and, after :data:`BUSY_AFTER_S` seconds without them, asks
the student to reload in a minute.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BUSY_AFTER_S",
    "CLASSROOM_TIMEOUTS",
    "KERNEL_MIB_ESTIMATE",
    "NetworkPlan",
    "PoolPlan",
    "TEMPLATE_NAME",
    "check_network",
    "kernel_transport_options",
    "is_loopback",
    "process_rss_mib",
    "template_root",
]

#: Memory of one kernel that has run a course notebook, measured on the project's
#: 2-core machine (RSS of the kernel process after running 01_window_placement:
#: 110-125 MiB); printed at start-up before the pool's own kernels are measured.
KERNEL_MIB_ESTIMATE = 120

#: Voila / nbclient options of the classroom mode.  ``iopub_timeout``: how long the
#: executor waits for a cell's outputs after the cell finished; nbclient's default
#: (4 s) drops the outputs of a busy kernel, which left pages with text and no widgets.
CLASSROOM_TIMEOUTS = {
    "VoilaExecutor.iopub_timeout": 120,
    "VoilaExecutor.raise_on_iopub_timeout": True,
    "VoilaExecutor.startup_timeout": 120,
    "VoilaExecutor.timeout": 300,
    "VoilaConfiguration.http_keep_alive_timeout": 10,
}

#: Seconds a page waits for its widgets before it says that the server is busy.
BUSY_AFTER_S = 45

#: The Voila template that adds the status line (in :func:`template_root`).
TEMPLATE_NAME = "pooltutor"

#: pooltutor's Voila templates by front end: ``light`` (pooltutor's own small front end,
#: js/light-page) and ``lab`` (Voila's JupyterLab application).
FRONT_ENDS = {"light": "pooltutor-light", "lab": TEMPLATE_NAME}

#: Seconds Voila waits before it starts a replacement for a kernel a student took
#: (its default is 1 s: thirty refills at once while the class works would slow
#: every step).
DEFAULT_REFILL_DELAY_S = 300.0


def template_root() -> Path:
    """The Jupyter data folder that holds ``voila/templates/pooltutor`` (add it to
    ``JUPYTER_PATH`` so that Voila finds the template)."""
    return Path(__file__).resolve().parent / "voila_templates"


@dataclass(frozen=True)
class PoolPlan:
    """A pool of preheated kernels: ``size`` kernels for each notebook of ``notebooks``.

    >>> plan = PoolPlan(size=30, notebooks=("01_window_placement",))
    >>> plan.kernels, plan.memory_mib(120)
    (30, 3600)
    >>> print(plan.describe(120))
    kernel pool: 30 preheated kernels for 01_window_placement (30 in all); about 120 MiB each, 3.5 GiB in all
    >>> plan.voila_options()[:2]
    ['--VoilaConfiguration.preheat_kernel=True', '--VoilaConfiguration.default_pool_size=0']
    """

    size: int
    notebooks: tuple[str, ...]
    refill_delay: float = DEFAULT_REFILL_DELAY_S

    def __post_init__(self):
        if isinstance(self.size, bool) or not isinstance(self.size, int):
            raise TypeError(f"--class-size={self.size!r} is not allowed: need an integer")
        if not 1 <= self.size <= 200:
            raise ValueError(f"--class-size={self.size} is not allowed: need 1..200 "
                             "(one preheated kernel per student of the class)")
        if not self.notebooks:
            raise ValueError("the kernel pool needs at least one notebook to preheat")
        if not self.refill_delay >= 0:
            raise ValueError(f"--refill-delay={self.refill_delay} is not allowed: need >= 0")

    @property
    def kernels(self) -> int:
        """How many kernels the warm pool holds."""
        return self.size * len(self.notebooks)

    def memory_mib(self, per_kernel_mib: float) -> int:
        return round(self.kernels * per_kernel_mib)

    def describe(self, per_kernel_mib: float) -> str:
        total = self.memory_mib(per_kernel_mib)
        total_text = f"{total / 1024:.1f} GiB" if total >= 1024 else f"{total} MiB"
        return (f"kernel pool: {self.size} preheated kernel{'s' * (self.size != 1)} for "
                f"{', '.join(self.notebooks)} ({self.kernels} in all); about "
                f"{round(per_kernel_mib)} MiB each, {total_text} in all")

    def kernel_pools_config(self) -> dict:
        """``VoilaKernelManager.kernel_pools_config``: a pool for these notebooks only
        (every other notebook starts a kernel per page, as without the classroom mode).

        >>> PoolPlan(3, ("01_window_placement",)).kernel_pools_config()
        {'01_window_placement.ipynb': {'pool_size': 3}, 'default': {'pool_size': 0}}
        """
        pools = {f"{name}.ipynb": {"pool_size": self.size} for name in self.notebooks}
        pools["default"] = {"pool_size": 0}
        return pools

    def voila_options(self) -> list[str]:
        """Voila's preheated-kernel options (the pools themselves, a dict, are set as
        configuration: :meth:`kernel_pools_config`).  The kernels' transport is
        :func:`kernel_transport_options`, for every ``pooltutor app``."""
        return [
            "--VoilaConfiguration.preheat_kernel=True",
            "--VoilaConfiguration.default_pool_size=0",
            f"--VoilaKernelManager.fill_delay={self.refill_delay:g}",
        ]


def kernel_transport_options(os_name: str = os.name) -> list[str]:
    """The kernels talk to the server over Unix sockets (``transport=ipc``) where there
    are any, not over TCP ports.

    Kernels started at once pick ports another one takes before binding them ("Address
    already in use"), and those kernels die: 8 of 30 with ``--class-size 30`` (the pool
    never got warm), and one of the twelve the browser tests open at once without a
    pool (its page never got its widgets).  Windows has no ZeroMQ ipc transport: TCP
    stays there.

    >>> kernel_transport_options("posix"), kernel_transport_options("nt")
    (['--KernelManager.transport=ipc'], [])
    """
    return ["--KernelManager.transport=ipc"] if os_name == "posix" else []


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("0.0.0.0"), is_loopback("192.168.1.20")
    (False, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_host(host: str) -> str:
    if host == "localhost":
        return host
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"--ip={host!r} is not allowed: give an IP address of this machine "
                         "(0.0.0.0 for every network interface, 127.0.0.1 for this machine "
                         "only)") from None
    return host


def _lan_address() -> str | None:
    """An address of this machine that other machines on its network can use, if any."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        addr = info[4][0]
        if not ipaddress.ip_address(addr).is_loopback:
            return addr
    return None


@dataclass(frozen=True)
class NetworkPlan:
    """Where the app listens and what URL the teacher hands out."""

    ip: str
    token: str | None
    generated: bool

    def public_host(self) -> str:
        if self.ip in ("0.0.0.0", "::"):
            return _lan_address() or socket.gethostname()
        return self.ip

    def url(self, port: int, notebook: str) -> str:
        """The URL to hand out (with the token, so a student only clicks or types it)."""
        from urllib.parse import quote

        host = self.public_host()
        host = f"[{host}]" if ":" in host else host
        query = f"?token={self.token}" if self.token else ""
        return f"http://{host}:{port}/voila/render/{quote(notebook)}.ipynb{query}"

    def voila_options(self) -> list[str]:
        options = [f"--Voila.ip={self.ip}"]
        if self.token:
            options.append(f"--Voila.token={self.token}")
        return options


def check_network(ip: str = "127.0.0.1", token: str | None = None, *,
                  no_token: bool = False) -> NetworkPlan:
    """Decide how the app is served on ``ip``.

    On a loopback address nothing changes (no token, as before).  On any other
    address the app is reachable from the classroom network: a token is
    required, generated when none is given (8 characters, easy to type);
    serving without one needs ``no_token=True`` (``--no-token``), said explicitly.

    >>> check_network().token is None
    True
    >>> plan = check_network("0.0.0.0")
    >>> plan.generated, len(plan.token)
    (True, 8)
    >>> check_network("0.0.0.0", "pool-class").token
    'pool-class'
    >>> check_network("0.0.0.0", no_token=True).token is None
    True
    >>> check_network("0.0.0.0", "")
    Traceback (most recent call last):
    ...
    ValueError: --token='' is not allowed: an empty token leaves the app open to the whole network; give a token, or --no-token to serve without one on purpose
    """
    ip = _check_host(ip)
    if token is not None and not token:
        raise ValueError("--token='' is not allowed: an empty token leaves the app open to the "
                         "whole network; give a token, or --no-token to serve without one on "
                         "purpose")
    if token is not None and no_token:
        raise ValueError("--token and --no-token are not allowed together: choose one")
    if token is not None and (len(token) < 4 or not token.isascii() or " " in token):
        raise ValueError(f"--token={token!r} is not allowed: need at least 4 ASCII characters "
                         "without spaces")
    if is_loopback(ip):
        return NetworkPlan(ip, token, False)
    if no_token:
        return NetworkPlan(ip, None, False)
    if token is None:
        alphabet = "abcdefghjkmnpqrstuvwxyz23456789"       # no 0/o, 1/l/i to misread
        return NetworkPlan(ip, "".join(secrets.choice(alphabet) for _ in range(8)), True)
    return NetworkPlan(ip, token, False)


def process_rss_mib(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB (Linux ``/proc``; ``None`` elsewhere).

    >>> process_rss_mib(os.getpid()) > 1
    True
    """
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None
