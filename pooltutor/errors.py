"""Errors and the small argument checkers used at every public boundary.

Every check names the parameter, echoes the value that was given and says
what is allowed, so that a student who passes ``kernel_size=0`` reads

    kernel_size=0 is not allowed: need an int >= 1 (or one per spatial axis)

instead of an ``IndexError`` from deep inside numpy.  The checkers run
*before* any work starts; nothing in this module imports anything but numpy.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, TypeVar, cast

import numpy as np

__all__ = [
    "PoolTutorError",
    "PoolTutorTypeError",
    "check_choice",
    "check_int",
    "check_per_axis",
    "check_tensor",
    "check_memory",
    "check_index_within",
]

#: Refuse to allocate more than this many bytes for one intermediate array.
MAX_BYTES = 2 * 1024**3


class PoolTutorError(ValueError):
    """A parameter value that pooltutor (or the framework it imitates) rejects."""


class PoolTutorTypeError(TypeError):
    """A parameter of the wrong type (a float where a size is meant, say)."""


#: one of the allowed strings of a choice (a Literal alias of pooltutor.rules, or str)
_Choice = TypeVar("_Choice", bound=str)


def _is_int(value: Any) -> bool:
    """True for Python / numpy integers, False for bool and everything else."""
    if type(value) is int:      # the common case, without the (slow) abstract-class checks
        return True
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return _is_int(value[()])
    return isinstance(value, (numbers.Integral, np.integer))


def check_int(name: str, value: Any, *, minimum: int | None = None) -> int:
    """Return ``value`` as a Python int, or raise naming ``name``.

    >>> check_int("stride", 2, minimum=1)
    2
    >>> check_int("stride", 0, minimum=1)
    Traceback (most recent call last):
    ...
    pooltutor.errors.PoolTutorError: stride=0 is not allowed: need an int >= 1
    """
    if not _is_int(value):
        raise PoolTutorTypeError(
            f"{name}={value!r} has type {type(value).__name__}: need an int"
            + (f" >= {minimum}" if minimum is not None else "")
        )
    checked = int(value)
    if minimum is not None and checked < minimum:
        raise PoolTutorError(f"{name}={checked} is not allowed: need an int >= {minimum}")
    return checked


def check_per_axis(name: str, value: Any, ndim: int, *, minimum: int | None = None) -> tuple[int, ...]:
    """Normalise an int or a per-axis sequence to a tuple of ``ndim`` ints.

    >>> check_per_axis("kernel_size", 3, 2, minimum=1)
    (3, 3)
    >>> check_per_axis("kernel_size", [2, 3], 2, minimum=1)
    (2, 3)
    >>> check_per_axis("kernel_size", [2, 3, 4], 2, minimum=1)
    Traceback (most recent call last):
    ...
    pooltutor.errors.PoolTutorError: kernel_size=[2, 3, 4] has 3 entries: need one int or 2 (one per spatial axis)
    """
    if _is_int(value):
        return (check_int(name, value, minimum=minimum),) * ndim
    if type(value) is tuple and len(value) == ndim and all(type(v) is int for v in value) \
            and (minimum is None or min(value, default=minimum) >= minimum):
        return value                    # (already what is returned: the usual inner call)
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise PoolTutorError(
                f"{name} has shape {value.shape}: need one int or a 1-D sequence of {ndim}"
            )
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise PoolTutorTypeError(
            f"{name}={value!r} has type {type(value).__name__}: need one int or a sequence of "
            f"{ndim} ints (one per spatial axis)"
        )
    if len(value) != ndim:
        raise PoolTutorError(
            f"{name}={list(value)!r} has {len(value)} entries: need one int or {ndim} "
            f"(one per spatial axis)"
        )
    out = []
    for item in value:
        if not _is_int(item):
            raise PoolTutorTypeError(
                f"{name}={list(value)!r} contains {item!r} ({type(item).__name__}): need ints"
            )
        item = int(item)
        if minimum is not None and item < minimum:
            raise PoolTutorError(
                f"{name}={list(value)!r} is not allowed: every entry must be an int >= {minimum}"
            )
        out.append(item)
    return tuple(out)


def check_choice(name: str, value: Any, choices: Sequence[_Choice]) -> _Choice:
    """Return ``value`` if it is one of ``choices``, else raise listing them.

    >>> check_choice("rounding", "floor", ("floor", "ceil"))
    'floor'
    >>> check_choice("rounding", "round", ("floor", "ceil"))
    Traceback (most recent call last):
    ...
    pooltutor.errors.PoolTutorError: rounding='round' is not allowed: need one of 'floor', 'ceil'
    """
    if isinstance(value, str) and value in choices:     # (the usual case: nothing to format)
        return cast(_Choice, value)
    allowed = ", ".join(repr(c) for c in choices)
    if not isinstance(value, str):
        raise PoolTutorTypeError(
            f"{name}={value!r} has type {type(value).__name__}: need one of {allowed}"
        )
    if value not in choices:
        raise PoolTutorError(f"{name}={value!r} is not allowed: need one of {allowed}")
    return cast(_Choice, value)


#: dtypes the pooling engine accepts (max pooling keeps them; averages give floats).
NUMERIC_KINDS = "iuf"


def check_tensor(
    name: str,
    x: Any,
    *,
    min_ndim: int = 3,
    max_ndim: int = 5,
    layout: str = "(N, C, *spatial)",
) -> np.ndarray:
    """Return ``x`` as a numeric ndarray of rank ``min_ndim..max_ndim`` (never a copy if avoidable).

    Python lists are accepted; object, string, bool and complex arrays are
    refused with a ``TypeError``, empty axes and the wrong rank with a
    ``ValueError``.
    """
    if isinstance(x, np.ma.MaskedArray):
        raise PoolTutorTypeError(
            f"{name} is a numpy.ma.MaskedArray: pooltutor pools every element and would ignore "
            f"the mask in some steps and not in others; pass {name}.filled(value) (or "
            f"numpy.asarray({name}) to pool the data underneath)"
        )
    if isinstance(x, np.ndarray):
        arr = x
    else:
        try:
            arr = np.asarray(x)
        except (ValueError, TypeError) as exc:  # ragged lists, ...
            raise PoolTutorTypeError(
                f"{name} could not be read as a numeric array ({exc}); need a numpy array "
                f"shaped {layout}"
            ) from None
    if arr.dtype.kind not in NUMERIC_KINDS or arr.dtype.itemsize > 8:
        raise PoolTutorTypeError(
            f"{name} has dtype {arr.dtype}: need a real numeric dtype "
            f"(float16/32/64, int8/16/32/64 or uint8/16/32/64)"
        )
    if not min_ndim <= arr.ndim <= max_ndim:
        ranks = f"{min_ndim}" if min_ndim == max_ndim else f"{min_ndim} to {max_ndim}"
        axes = (f"{min_ndim - 2}" if min_ndim == max_ndim
                else f"{max(min_ndim - 2, 1)} to {max_ndim - 2}")
        raise PoolTutorError(
            f"{name} has shape {arr.shape} (rank {arr.ndim}): need rank {ranks}, shaped "
            f"{layout} with {axes} spatial axes"
        )
    if 0 in arr.shape:
        raise PoolTutorError(f"{name} has shape {arr.shape}: every axis must have length >= 1")
    if not arr.dtype.isnative:
        # a big-endian array pools like the native one and gives native results
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def check_memory(name: str, shape: Sequence[int], itemsize: int) -> None:
    """Refuse up front an intermediate array of more than :data:`MAX_BYTES`."""
    n = 1
    for s in shape:
        n *= int(s)
    need = n * itemsize
    if need > MAX_BYTES:
        raise PoolTutorError(
            f"{name} would need an array of shape {tuple(int(s) for s in shape)} "
            f"({need / 1024**3:.1f} GiB); pooltutor refuses more than "
            f"{MAX_BYTES / 1024**3:.0f} GiB for one array"
        )


def check_index_within(name: str, index: Sequence[Any], shape: Sequence[int],
                       given: Any = None) -> tuple[int, ...]:
    """Each entry of ``index`` as an int in ``[0, size)`` of ``shape`` (same length assumed).

    ``given`` is what the caller was passed (shown in the message; ``index`` by default).

    >>> check_index_within("out_index", (1, 0), (2, 3))
    (1, 0)
    """
    checked = []
    for v, size in zip(index, shape):
        v = check_int(name, v, minimum=0)
        if v >= size:
            raise PoolTutorError(
                f"{name}={tuple(index if given is None else given)!r} is outside the output "
                f"shaped {tuple(shape)}: "
                f"need 0 <= entry < size on every axis"
            )
        checked.append(v)
    return tuple(checked)
