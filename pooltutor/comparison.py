"""One pooling in several runtimes, side by side: who gives which shape and values.

:func:`compare_ceil_modes` pools one tensor "with ceil mode" in every runtime
of :mod:`pooltutor.frameworks` and gathers the answers in a
:class:`RuntimeTable` (TV02-TV04: why one model gets different shapes in
different runtimes).  A table is rows (:class:`RuntimeRow`: the runtime, the
call, its output or why it refused, the warnings it gave) and columns
(:class:`Column`: a header and how a row is written); more columns are added
with :meth:`RuntimeTable.with_column` and rows carry any further per-row
facts in :attr:`RuntimeRow.extra`.

Every number comes from the framework models; nothing here re-derives an
output size.

>>> t = compare_ceil_modes(np.arange(1.0, 6.0).reshape(1, 1, 5), 2, 2, 1)   # TV03
>>> t.shapes["PyTorch max_pool, ceil_mode=True"], t.row("openvino_max_pool/ceil").shape
((3,), (4,))
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike

from .errors import PoolTutorError, PoolTutorTypeError, check_int, check_tensor
from .rules import Follow

__all__ = ["CEIL_RUNTIMES", "Column", "RuntimeRow", "RuntimeTable", "SPEC_AND_RUNTIME_COLUMNS",
           "compare_ceil_modes", "value_text"]

#: What "ceil mode" is called in each runtime, and the function of
#: :mod:`pooltutor.frameworks` that runs it (docs/semantics.md §1.1 and §2.4).
CEIL_RUNTIMES: tuple[tuple[str, str], ...] = (
    ("PyTorch max_pool, ceil_mode=True", "torch_max_pool"),
    ("ONNX MaxPool, ceil_mode=1", "onnx_max_pool"),
    ("OpenVINO MaxPool-8, rounding_type=ceil", "openvino_max_pool/ceil"),
    ("OpenVINO MaxPool-14, rounding_type=ceil_torch", "openvino_max_pool/ceil_torch"),
    (
        "TensorRT EXPLICIT_ROUND_UP (onnx-tensorrt)",
        "tensorrt_pooling/EXPLICIT_ROUND_UP",
    ),
    ("TensorRT 8 CAFFE_ROUND_UP", "tensorrt_pooling/CAFFE_ROUND_UP"),
)


def value_text(v: Any) -> str:
    """A value as a table writes it: integers as integers, else up to 3 significant digits.

    >>> [value_text(v) for v in (3.0, 2.5, -np.inf, np.float32(1e-5), 7)]
    ['3', '2.5', '-inf', '1.0e-05', '7']
    """
    if isinstance(v, (float, np.floating)):
        if np.isnan(v):
            return "NaN"
        if np.isinf(v):
            return "-inf" if v < 0 else "inf"
        if abs(v) >= 1e6 or (v != 0 and abs(v) < 1e-3):
            return f"{float(v):.1e}"
        if float(v).is_integer():
            return str(int(v))
        return f"{float(v):.3g}"
    return str(int(v)) if isinstance(v, (int, np.integer)) else str(v)


def _nested_text(values: np.ndarray) -> str:
    if values.ndim == 1:
        return "[" + ", ".join(value_text(v) for v in values) + "]"
    return "[" + ", ".join(_nested_text(v) for v in values) + "]"


@dataclass(frozen=True)
class RuntimeRow:
    """One runtime's answer: its output (or why it refused) and any warning it gave.

    ``extra`` holds further facts about the row (read by added columns).
    """

    runtime: str
    call: str
    output: np.ndarray | None
    error: str | None = None
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The spatial output shape (None when the runtime refused)."""
        return None if self.output is None else tuple(self.output.shape[2:])


@dataclass(frozen=True)
class Column:
    """A column of a :class:`RuntimeTable`: its header and the text of a row that did not
    refuse (a refusing row is written once across all columns)."""

    header: str
    text: Callable[[RuntimeRow], str]


def _shape_text(row: RuntimeRow) -> str:
    return " x ".join(str(n) for n in cast(tuple[int, ...], row.shape))   # a row that ran


def _values_text(row: RuntimeRow) -> str:
    return _nested_text(cast(np.ndarray, row.output)[0, 0])


#: The columns of every table: the output shape and the values of the first plane.
DEFAULT_COLUMNS: tuple[Column, ...] = (Column("shape", _shape_text),
                                       Column("output[0, 0]", _values_text))


@dataclass(frozen=True)
class RuntimeTable:
    """The answers of several runtimes to the same pooling; ``str()`` is an aligned table."""

    title: str
    rows: tuple[RuntimeRow, ...]
    columns: tuple[Column, ...] = DEFAULT_COLUMNS

    @property
    def shapes(self) -> dict[str, tuple[int, ...] | None]:
        """``{runtime: spatial output shape or None}``."""
        return {row.runtime: row.shape for row in self.rows}

    def row(self, runtime_or_call: str) -> RuntimeRow:
        """The row whose runtime label or ``call`` is ``runtime_or_call``."""
        for r in self.rows:
            if runtime_or_call in (r.runtime, r.call):
                return r
        allowed = ", ".join(repr(r.call) for r in self.rows)
        raise PoolTutorError(
            f"runtime_or_call={runtime_or_call!r} is not a row: need one of {allowed}"
        )

    def with_column(self, header: str, text: Callable[[RuntimeRow], str]) -> RuntimeTable:
        """The same table with one more column (``text(row)`` writes a row's cell)."""
        if not isinstance(header, str) or not callable(text):
            raise PoolTutorTypeError(f"header={header!r}, text={text!r}: need a str and a "
                                     f"function of a RuntimeRow")
        return replace(self, columns=(*self.columns, Column(header, text)))

    def cells(self) -> list[list[str]]:
        """The table as text cells: a header row, then one row per runtime (a refusing
        runtime has one cell after its name: ``"refuses: ..."``)."""
        out = [["framework", *(c.header for c in self.columns)]]
        for r in self.rows:
            if r.output is None:
                out.append([r.runtime, f"refuses: {r.error}"])
            else:
                out.append([r.runtime, *(c.text(r) for c in self.columns)])
        return out

    def __str__(self) -> str:
        cells = self.cells()
        ncols = len(self.columns) + 1
        full = [row for row in cells if len(row) == ncols]
        widths = [max(len(row[k]) for row in full) for k in range(ncols)]
        lines = [self.title]
        for row in cells:
            padded = [text.ljust(widths[k]) if k < len(row) - 1 else text
                      for k, text in enumerate(row)]
            lines.append("  " + "  ".join(padded).rstrip())
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def _ceil_calls(arr: np.ndarray, k: int, s: int, p: int, follow: Follow = "spec"
                ) -> dict[str, Callable[[], Any]]:
    """Each runtime of :data:`CEIL_RUNTIMES` as a call of its framework model, following
    the framework's specification or its runtime (``follow``, as the frameworks take it)."""
    from . import frameworks

    nd = arr.ndim - 2
    f = follow
    return {
        "torch_max_pool": lambda: frameworks.torch_max_pool(arr, k, s, p, ceil_mode=True,
                                                            follow=f),
        "onnx_max_pool": lambda: frameworks.onnx_max_pool(
            arr, [k] * nd, [s] * nd, [p] * (2 * nd), ceil_mode=1, follow=f)[0],
        "openvino_max_pool/ceil": lambda: frameworks.openvino_max_pool(
            arr, s, p, p, k, rounding_type="ceil", follow=f)[0],
        "openvino_max_pool/ceil_torch": lambda: frameworks.openvino_max_pool(
            arr, s, p, p, k, rounding_type="ceil_torch", follow=f)[0],
        "tensorrt_pooling/EXPLICIT_ROUND_UP": lambda: frameworks.tensorrt_pooling(
            arr, k, s, p, p, padding_mode="EXPLICIT_ROUND_UP", follow=f),
        "tensorrt_pooling/CAFFE_ROUND_UP": lambda: frameworks.tensorrt_pooling(
            arr, k, s, p, p, padding_mode="CAFFE_ROUND_UP", follow=f),
    }


def _answer_text(row: RuntimeRow) -> str:
    if row.output is None:
        return f"refuses: {row.error}"
    return f"{_shape_text(row)}: {_values_text(row)}"


def _runtime_text(row: RuntimeRow) -> str:
    """The runtime column of a spec-and-runtime table, marked where it departs."""
    rt = row.extra["runtime_row"]
    if rt.output is None and "cannot be run on this machine" in (rt.error or ""):
        return "not run here (no GPU)"
    text = _answer_text(rt)
    same = (rt.output is not None and row.output is not None
            and rt.output.shape == row.output.shape
            and np.array_equal(rt.output, row.output, equal_nan=True))
    return text if same or rt.output is None else f"{text}  <- departs"


#: The columns of a table with the specification and the runtime side by side.
SPEC_AND_RUNTIME_COLUMNS: tuple[Column, ...] = (Column("specification", _answer_text),
                                                Column("CPU runtime", _runtime_text))


def run_row(runtime: str, call: str, func: Callable[[], Any], **extra: Any) -> RuntimeRow:
    """Run ``func`` (one runtime's call) into a :class:`RuntimeRow`: its output, or the
    reason it refused (a ``ValueError`` / ``TypeError`` such as
    :class:`~pooltutor.errors.PoolTutorError`), with the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, error = np.asarray(func()), None
        except (PoolTutorError, PoolTutorTypeError, ValueError, TypeError) as exc:
            out, error = None, str(exc)
    return RuntimeRow(runtime, call, out, error, tuple(str(w.message) for w in caught),
                      MappingProxyType(dict(extra)))


def compare_ceil_modes(x: ArrayLike, kernel: int, stride: int, padding: int = 0, *,
                       follow: Follow | Literal["both"] = "spec") -> RuntimeTable:
    """Max-pool ``x`` "in ceil mode" in every runtime of :data:`CEIL_RUNTIMES`.

    The same model exported from PyTorch with ``ceil_mode=True`` becomes an
    ONNX ``MaxPool`` with ``ceil_mode=1``; onnx-tensorrt builds it as
    ``EXPLICIT_ROUND_UP`` and an OpenVINO ``MaxPool-8`` IR says
    ``rounding_type=ceil``.  Those two use the *raw* ceil, without PyTorch's
    rule that the last window must start inside the input or the begin
    padding, so their output can be one larger (TV02, TV03, TV04).

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)`` with 1 or 2 spatial axes
    kernel, stride, padding : int
        The same on every axis; ``padding`` on both sides.
    follow : {"spec", "runtime", "both"}
        What each row computes: the framework's specification (the default), what its
        CPU runtime computes (``follow="runtime"`` of :mod:`pooltutor.frameworks`, at
        :data:`~pooltutor.frameworks.RUNTIME_VERSIONS`; TensorRT cannot be run here and
        says so), or ``"both"``: a specification column and a runtime column side by
        side, the runtime marked ``<- departs`` where it departs from its own spec.

    Returns
    -------
    RuntimeTable
        A row per runtime with its output, or the reason it refuses the
        combination (PyTorch's padding limit, TensorRT's CAFFE check);
        warnings raised on the way are kept in the row's ``notes``.

    Examples
    --------
    TV03: ``x = 1..5``, kernel 2, stride 2, padding 1:

    >>> print(compare_ceil_modes(np.arange(1.0, 6.0).reshape(1, 1, 5), 2, 2, 1))
    max pool, kernel 2, stride 2, padding 1, input 5, ceil mode:
      framework                                      shape  output[0, 0]
      PyTorch max_pool, ceil_mode=True               3      [1, 3, 5]
      ONNX MaxPool, ceil_mode=1                      3      [1, 3, 5]
      OpenVINO MaxPool-8, rounding_type=ceil         4      [1, 3, 5, -1.8e+308]
      OpenVINO MaxPool-14, rounding_type=ceil_torch  3      [1, 3, 5]
      TensorRT EXPLICIT_ROUND_UP (onnx-tensorrt)     4      [1, 3, 5, -inf]
      TensorRT 8 CAFFE_ROUND_UP                      3      [1, 3, 5]
    """
    if follow not in ("spec", "runtime", "both"):
        raise PoolTutorError(f"follow={follow!r} is not allowed: need 'spec', 'runtime' or "
                             "'both'")
    arr = check_tensor("x", x, min_ndim=3, max_ndim=4, layout="(N, C, L) or (N, C, H, W)")
    k = check_int("kernel", kernel, minimum=1)
    s = check_int("stride", stride, minimum=1)
    p = check_int("padding", padding, minimum=0)
    size = " x ".join(str(n) for n in arr.shape[2:])
    title = f"max pool, kernel {k}, stride {s}, padding {p}, input {size}, ceil mode"
    calls = _ceil_calls(arr, k, s, p, "runtime" if follow == "runtime" else "spec")
    if follow != "both":
        rows = tuple(run_row(runtime, call, calls[call]) for runtime, call in CEIL_RUNTIMES)
        suffix = " (the runtimes):" if follow == "runtime" else ":"
        return RuntimeTable(title + suffix, rows)
    runtime_calls = _ceil_calls(arr, k, s, p, "runtime")
    rows = tuple(run_row(runtime, call, calls[call],
                         runtime_row=run_row(runtime, call, runtime_calls[call]))
                 for runtime, call in CEIL_RUNTIMES)
    return RuntimeTable(title + ", specification and runtime:", rows,
                        SPEC_AND_RUNTIME_COLUMNS)
