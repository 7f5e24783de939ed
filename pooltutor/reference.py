"""The loop reference: pooling written one window, one tap at a time.

This module does what :mod:`pooltutor.pooling` does, the slow and obvious
way, so that a student can read it and the tests can use it as an oracle.
It shares only the window placement (:mod:`pooltutor.geometry`) with the
engine; every rule (padding taps, NaN, ties, empty windows, divisors) is
written again here, in plain Python, one ``if`` at a time.

>>> import numpy as np
>>> x = np.arange(16.0).reshape(1, 1, 4, 4)
>>> y, idx = max_pool(x, kernel=2, stride=2)
>>> y[0, 0].tolist(), idx[0, 0].tolist()
([[5.0, 7.0], [13.0, 15.0]], [[5, 7], [13, 15]])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .geometry import adaptive_geometry, pool_geometry
from .rules import DivisorRule, EmptyIndex, EmptyValue, NanPolicy, PadTaps, Rounding, Ties

__all__ = ["max_window", "max_pool", "avg_pool", "adaptive_max_pool", "adaptive_avg_pool",
           "max_pool_backward",
           "fill_value"]


def fill_value(dtype: DTypeLike, name: str) -> Any:
    """The number that ``name`` ('neg_inf', 'lowest', 'nan', 'zero') means for ``dtype``.

    Integers have no -inf and no NaN: 'neg_inf' and 'lowest' both give the
    smallest integer.

    >>> fill_value(np.float32, "lowest")
    np.float32(-3.4028235e+38)
    >>> fill_value(np.int8, "neg_inf")
    np.int8(-128)
    """
    dtype = np.dtype(dtype)
    if name == "zero":
        return dtype.type(0)
    if dtype.kind == "f":
        return dtype.type({"neg_inf": -np.inf, "lowest": np.finfo(dtype).min, "nan": np.nan}[name])
    if name == "nan":
        raise ValueError(f"empty_value='nan' is not possible for the integer dtype {dtype}")
    return dtype.type(np.iinfo(dtype).min)


def _native(x: ArrayLike) -> np.ndarray:
    """``x`` as an array in the machine's byte order (results are native, as the engine's)."""
    a = np.asarray(x)
    return a.astype(a.dtype.newbyteorder("="), copy=False)


def _is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def max_window(taps: Sequence[tuple[Any, str]], *, pad_taps: PadTaps = "skip",
               nan_policy: NanPolicy = "propagate_last", ties: Ties = "first",
               pad_fill: Any = -math.inf) -> tuple[Any, Any]:
    """Scan one window in order and return ``(winner value, winner position in taps)``.

    ``taps`` is a list of ``(value, kind)`` with kind ``"input"``, ``"padding"``
    or ``"outside"`` (value ``None`` for the last two).  Returns ``(None, None)``
    when nothing could win (an *empty window*).

    >>> max_window([(None, "padding"), (3.0, "input"), (3.0, "input")])
    (3.0, 1)
    >>> max_window([(None, "padding"), (float("nan"), "input"), (3.0, "input")])
    (nan, 1)
    >>> max_window([(None, "padding"), (float("nan"), "input")], nan_policy="ignore")
    (None, None)
    """
    best = None
    best_at = None
    for k, (value, kind) in enumerate(taps):
        if kind == "outside":
            continue                    # beyond the padded input: never read
        if kind == "padding":
            if pad_taps == "skip":
                continue                # padding is not compared at all
            value = pad_fill            # padding takes part with this value
        value = float(value) if isinstance(value, (float, np.floating)) else value
        if nan_policy == "ignore" and _is_nan(value):
            continue                    # NaN never wins
        if best is None:
            take = True                 # the first candidate always starts the scan
        elif _is_nan(value):
            # propagate_last: every NaN takes over; propagate_first: only the first does;
            # first_sticks: a NaN after the first element never wins (it loses every >)
            if nan_policy == "first_sticks":
                take = False
            else:
                take = nan_policy == "propagate_last" or not _is_nan(best)
        elif ties == "last":
            take = value >= best
        else:
            take = value > best         # strict: the first maximum stays
        if take:
            best, best_at = value, k
    return best, best_at


def _plane_position(coords: Sequence[int], spatial: Sequence[int]) -> int:
    pos = 0
    for c, size in zip(coords, spatial):
        pos = pos * size + c
    return pos


def max_pool(x: ArrayLike, kernel: int | Sequence[int], stride: int | Sequence[int] | None = None,
             padding: Any = 0, dilation: int | Sequence[int] = 1, *, rounding: Rounding = "floor",
             pad_taps: PadTaps = "skip", empty_value: EmptyValue = "neg_inf",
             empty_index: EmptyIndex = "minus_one", nan_policy: NanPolicy = "propagate_last",
             ties: Ties = "first") -> tuple[np.ndarray, np.ndarray]:
    """Max pooling by loops; returns ``(output, plane_indices)``.

    Indices are row-major positions inside each (n, c) plane; ``-1`` means a
    padding tap or nothing won (``empty_index="plane_start"`` gives 0 for an
    empty window instead).
    """
    x = _native(x)
    spatial = x.shape[2:]
    geom = pool_geometry(spatial, kernel, stride, padding, dilation, rounding)
    out = np.empty(x.shape[:2] + geom.output_shape, dtype=x.dtype)
    idx = np.empty(out.shape, dtype=np.int64)
    pad_fill = fill_value(x.dtype, "lowest" if pad_taps == "lowest" else "neg_inf")
    empty = fill_value(x.dtype, empty_value) if empty_value != "error" else None
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for o in itertools.product(*(range(s) for s in geom.output_shape)):
                per_axis = geom.window(o)
                taps, coords = [], []
                # the taps of the window in row-major scan order
                for combo in itertools.product(*(zip(t, k) for t, k in per_axis)):
                    positions = tuple(p for p, _ in combo)
                    kinds = [k for _, k in combo]
                    if "outside" in kinds:
                        kind = "outside"
                    elif "padding" in kinds:
                        kind = "padding"
                    else:
                        kind = "input"
                    value = x[(n, c) + positions] if kind == "input" else None
                    taps.append((value, kind))
                    coords.append(positions)
                best, at = max_window(taps, pad_taps=pad_taps, nan_policy=nan_policy,
                                      ties=ties, pad_fill=pad_fill)
                if best is None:
                    if empty is None:
                        raise ValueError(f"output {o} has an empty window")
                    out[(n, c) + o] = empty
                    idx[(n, c) + o] = 0 if empty_index == "plane_start" else -1
                elif taps[at][1] == "padding":
                    out[(n, c) + o] = best
                    idx[(n, c) + o] = -1
                else:
                    out[(n, c) + o] = best
                    idx[(n, c) + o] = _plane_position(coords[at], spatial)
    return out, idx


def avg_pool(x: ArrayLike, kernel: int | Sequence[int], stride: int | Sequence[int] | None = None,
             padding: Any = 0, dilation: int | Sequence[int] = 1, *, rounding: Rounding = "floor",
             divisor: DivisorRule | int = "valid") -> np.ndarray:
    """Average pooling by loops.

    ``divisor``: ``"valid"`` (count the input taps), ``"padded"`` (count the
    taps inside the padded extent, padding included, overhang excluded) or an
    int (always divide by it).  A window with divisor 0 gives 0.
    """
    x = _native(x)
    geom = pool_geometry(x.shape[2:], kernel, stride, padding, dilation, rounding)
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    out = np.empty(x.shape[:2] + geom.output_shape, dtype=out_dtype)
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for o in itertools.product(*(range(s) for s in geom.output_shape)):
                total, n_valid, n_padded = 0.0, 0, 0
                per_axis = geom.window(o)
                for combo in itertools.product(*(zip(t, k) for t, k in per_axis)):
                    kinds = [k for _, k in combo]
                    if "outside" in kinds:
                        continue
                    n_padded += 1
                    if "padding" in kinds:
                        continue
                    n_valid += 1
                    total += float(x[(n, c) + tuple(p for p, _ in combo)])
                if divisor == "valid":
                    d = n_valid
                elif divisor == "padded":
                    d = n_padded
                else:
                    d = int(divisor)
                out[(n, c) + o] = total / d if d else 0.0
    return out


def adaptive_max_pool(x: ArrayLike, output_size: int | Sequence[int], *,
                      nan_policy: NanPolicy = "propagate_last", ties: Ties = "first"
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Adaptive max pooling by loops; returns ``(output, plane_indices)``."""
    x = _native(x)
    spatial = x.shape[2:]
    geom = adaptive_geometry(spatial, output_size)
    out = np.empty(x.shape[:2] + geom.output_shape, dtype=x.dtype)
    idx = np.empty(out.shape, dtype=np.int64)
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for o in itertools.product(*(range(s) for s in geom.output_shape)):
                ranges = [range(*a.bins[i]) for a, i in zip(geom.axes, o)]
                coords = list(itertools.product(*ranges))
                taps = [(x[(n, c) + p], "input") for p in coords]
                best, at = max_window(taps, nan_policy=nan_policy, ties=ties)
                if best is None:      # only possible when every element is an ignored NaN
                    out[(n, c) + o] = fill_value(x.dtype, "neg_inf")
                    idx[(n, c) + o] = -1
                else:
                    out[(n, c) + o] = best
                    idx[(n, c) + o] = _plane_position(coords[at], spatial)
    return out, idx


def adaptive_avg_pool(x: ArrayLike, output_size: int | Sequence[int]) -> np.ndarray:
    """Adaptive average pooling by loops."""
    x = _native(x)
    geom = adaptive_geometry(x.shape[2:], output_size)
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    out = np.empty(x.shape[:2] + geom.output_shape, dtype=out_dtype)
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for o in itertools.product(*(range(s) for s in geom.output_shape)):
                ranges = [range(*a.bins[i]) for a, i in zip(geom.axes, o)]
                values = [float(x[(n, c) + p]) for p in itertools.product(*ranges)]
                out[(n, c) + o] = sum(values) / len(values)
    return out


def max_pool_backward(grad_out: ArrayLike, plane_indices: np.ndarray,
                      input_shape: Sequence[int]) -> np.ndarray:
    """Max pooling's backward pass by loops: add every output gradient to its winner.

    ``plane_indices`` are per-plane row-major positions (PyTorch's layout, as
    :func:`max_pool` returns them); ``-1`` (a padding tap or an empty window)
    routes nothing.  An input element that won several windows receives the
    sum of their gradients.
    """
    grad_out = _native(grad_out)
    grad_in = np.zeros(tuple(input_shape), dtype=grad_out.dtype)
    spatial = tuple(input_shape[2:])
    for n in range(grad_out.shape[0]):
        for c in range(grad_out.shape[1]):
            for o in itertools.product(*(range(s) for s in grad_out.shape[2:])):
                at = int(plane_indices[(n, c) + o])
                if at < 0:
                    continue
                coords = []
                for size in reversed(spatial):       # undo the row-major numbering
                    coords.append(at % size)
                    at //= size
                grad_in[(n, c) + tuple(reversed(coords))] += grad_out[(n, c) + o]
    return grad_in
