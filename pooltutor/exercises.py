"""Exercises a student writes: a checker that runs their code on prepared cases.

:func:`check_max_pool` runs a student's 2-D max pool on cases chosen to catch
the classic mistakes (output length off by one, padding counted as 0, no
ceil clip, last maximum winning a tie) and says, in words, which case fails,
why, and what was expected and received.  Expected values come from
pooltutor's own engine (:func:`pooltutor.frameworks.torch_max_pool`).  The
checker never raises because of the student's code: an exception, a wrong
type or a wrong shape is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .frameworks import torch_max_pool
from .geometry import pool_geometry

__all__ = ["check_max_pool", "CheckReport", "MAX_POOL_CASES"]


@dataclass(frozen=True)
class _Case:
    name: str
    x: np.ndarray
    kernel: int
    stride: int
    padding: int = 0
    dilation: int = 1
    ceil_mode: bool = False
    teaches: str = ""


MAX_POOL_CASES = (
    _Case("no padding", np.arange(1.0, 26.0).reshape(5, 5) % 7, 2, 2,
          teaches="floor((5 - 2) / 2) + 1 = 2 windows per axis; the last row and column "
                  "are unused"),
    _Case("padding", np.arange(16.0).reshape(4, 4), 3, 2, padding=1,
          teaches="padding 1 adds one cell on every side; floor((4 + 2 - 3) / 2) + 1 = 2"),
    _Case("ceil rule with PyTorch's clip", np.arange(1.0, 26.0).reshape(5, 5), 2, 2, padding=1,
          ceil_mode=True,
          teaches="ceil((5 + 2 - 2) / 2) + 1 = 4, then PyTorch drops a last window that would "
                  "start in the end padding: 3 per axis"),
    _Case("dilation", np.arange(36.0).reshape(6, 6)[::-1], 2, 1, dilation=2,
          teaches="a 2-tap kernel with dilation 2 spans 3 cells: floor((6 - 3) / 1) + 1 = 4"),
    _Case("ties", np.array([[5.0, 5, 1, 1], [5, 5, 1, 1], [2, 2, 7, 7], [2, 2, 7, 7]]), 2, 2,
          teaches="equal values: the maximum is the same whichever tap won, but the index "
                  "is PyTorch's first maximum in scan order (row by row, left to right)"),
    _Case("negative values with padding", -np.arange(1.0, 10.0).reshape(3, 3), 3, 1, padding=1,
          teaches="padding is -inf for a max (skipped), never 0: every window's max is negative"),
)


@dataclass(frozen=True)
class CheckReport:
    """The result of :func:`check_max_pool`: ``passed`` and the ``message`` shown."""

    passed: bool
    message: str
    failed_case: str | None = None

    def __str__(self) -> str:
        return self.message

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.message)

    def __bool__(self) -> bool:
        return self.passed


def _call(case: _Case) -> str:
    extra = []
    if case.padding:
        extra.append(f"padding={case.padding}")
    if case.dilation != 1:
        extra.append(f"dilation={case.dilation}")
    if case.ceil_mode:
        extra.append("ceil_mode=True")
    return ", ".join([f"x ({case.x.shape[0]}x{case.x.shape[1]})", f"kernel={case.kernel}",
                      f"stride={case.stride}", *extra])


def _why(case: _Case, got: np.ndarray, want: np.ndarray) -> str:
    if got.shape != want.shape:
        why = f"the output has shape {got.shape}, expected {want.shape}"
        if got.shape and got.shape[0] == want.shape[0] + 1 and case.ceil_mode:
            why += (" (one window too many: did you clip the last window that starts in "
                    "the padding?)")
        elif got.ndim == 2 and abs(got.shape[0] - want.shape[0]) == 1:
            why += " (off by one: the output length is floor((I + 2P - D(K-1) - 1) / S) + 1)"
        return why
    bad = np.argwhere(got != want)
    i, j = (int(v) for v in bad[0])
    why = (f"{len(bad)} value(s) differ; first at output ({i}, {j}): got {got[i, j]!r}, "
           f"expected {want[i, j]!r}")
    if case.padding and got[i, j] == 0 and want[i, j] < 0:
        why += " (a padding cell counted as 0: padding must never win a max, use -inf)"
    return why


def _index_failure(case: _Case, indices: Any, shape: Any) -> str | None:
    """What is wrong with a student's indices for ``case`` (None: they are PyTorch's)."""
    want = torch_max_pool(case.x[None, None], case.kernel, case.stride, case.padding,
                          case.dilation, case.ceil_mode, return_indices=True)[1][0, 0]
    try:
        got = np.asarray(indices)
        ok = got.shape == shape and np.issubdtype(got.dtype, np.number)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        return (f"the indices {indices!r} are not a {shape[0]}x{shape[1]} array of numbers "
                f"(one flat index h * W + w per output).")
    if np.array_equal(got, want):
        return None
    i, j = (int(v) for v in np.argwhere(got != want)[0])
    w = case.x.shape[1]
    g, e = int(got[i, j]), int(want[i, j])
    why = (f"the index of output ({i}, {j}) is {g} = ({g // w}, {g % w}), expected {e} = "
           f"({e // w}, {e % w}) (flat index h * W + w in x)")
    if 0 <= g < case.x.size and case.x.flat[g] == case.x.flat[e]:
        why += ("; both hold the maximum: on a tie PyTorch keeps the first maximum in scan "
                "order (use >, not >=, when you compare)")
    return "\n".join([why + ".", f"What this case teaches: {case.teaches}.",
                      "expected indices:", np.array2string(want), "received indices:",
                      np.array2string(got)])


def check_max_pool(fn: Callable[..., Any]) -> CheckReport:
    """Run a student's 2-D max pool on prepared cases and say which fails and why.

    ``fn(x, kernel, stride, padding=0, dilation=1, ceil_mode=False)`` receives
    ``x`` a 2-D float numpy array and ints (the same value on both axes) and
    must return the pooled 2-D array with PyTorch's rules: padding is never
    a candidate for the maximum, the output length is
    ``floor((I + 2P - D(K-1) - 1) / S) + 1`` (``ceil`` with ``ceil_mode``, then a
    last window starting in the end padding is dropped).  It may instead return
    ``(values, indices)``: then the indices are checked too, as PyTorch numbers
    them (``h * W + w`` in ``x``, the first maximum in scan order winning a tie).

    The cases, in order: no padding, padding, the ceil rule with PyTorch's
    clip, dilation, ties, negative values with padding.  Checking stops at the
    first failing case.  A ``NotImplementedError`` is reported as "not
    implemented yet"; any other exception, a result that is not an array or
    of the wrong shape, is reported, never raised.

    Returns
    -------
    CheckReport (prints as its message; true when every case passed)
    """
    if not callable(fn):
        return CheckReport(False, f"check_max_pool needs a function; got {type(fn).__name__}")
    for case in MAX_POOL_CASES:
        want = torch_max_pool(case.x[None, None], case.kernel, case.stride, case.padding,
                              case.dilation, case.ceil_mode)[0, 0]
        head = f"Case '{case.name}' ({_call(case)}):"
        try:
            got = fn(case.x.copy(), case.kernel, case.stride, padding=case.padding,
                     dilation=case.dilation, ceil_mode=case.ceil_mode)
        except NotImplementedError:
            return CheckReport(False, f"{head} not implemented yet: fill in the loop body of "
                                      f"your function, then run this cell again.", case.name)
        except Exception as exc:  # noqa: BLE001  (the student's code: report, never raise)
            return CheckReport(False, f"{head} your function raised "
                                      f"{type(exc).__name__}: {exc}", case.name)
        indices = None
        if isinstance(got, tuple) and len(got) == 2:
            got, indices = got
        try:
            got = np.asarray(got, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            return CheckReport(False, f"{head} the result {got!r} is not an array of numbers "
                                      f"({exc})", case.name)
        if got.shape == want.shape and np.array_equal(got, want):
            if indices is None:
                continue
            failed = _index_failure(case, indices, want.shape)
            if failed is None:
                continue
            return CheckReport(False, f"{head} FAILED: {failed}", case.name)
        out_len = pool_geometry(case.x.shape, case.kernel, case.stride, case.padding,
                                case.dilation,
                                "ceil_torch" if case.ceil_mode else "floor").output_shape
        return CheckReport(False, "\n".join([
            f"{head} FAILED: {_why(case, got, want)}.",
            f"What this case teaches: {case.teaches} (output {out_len[0]}x{out_len[1]}).",
            "expected:", np.array2string(want), "received:", np.array2string(got)]), case.name)
    names = ", ".join(c.name for c in MAX_POOL_CASES)
    return CheckReport(True, f"All {len(MAX_POOL_CASES)} cases pass: {names}.")
