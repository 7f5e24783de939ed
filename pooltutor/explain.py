"""Explanations in words: how one output cell of a pooling came about.

:meth:`pooltutor.pooling.PoolResult.explain` calls :func:`explain_cell`,
which re-reads the one window with the loop reference
(:func:`pooltutor.reference.max_window`) and writes down every tap, its
kind (input / padding / outside), its value and which one won by which
rule.  Widgets and notebooks print this text; they never rebuild the
reasoning themselves.

>>> import numpy as np
>>> from pooltutor.pooling import max_pool
>>> r = max_pool(np.array([[[1.0, 2, 3, 4, 5]]]), 2, 2, padding=1, rounding="ceil_torch",
...              return_indices=True)
>>> print(r.explain(0))
output[0, 0, 0] = 1.0   (max pooling, window start -1)
  kernel (2,), stride (2,), dilation (1,), pads ((1, 1),), rounding 'ceil_torch'
  tap (-1,)  padding   skipped (pad_taps='skip')
  tap (0,)   input     1.0   <- winner: the only element that takes part
  index: 0 (layout 'plane')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .errors import PoolTutorError, check_int
from .reference import fill_value, max_window

if TYPE_CHECKING:
    from .pooling import PoolResult

__all__ = ["explain_cell"]

_WHY = {
    "first": "the largest value; a tie goes to the first in row-major scan order",
    "last": "the largest value; a tie goes to the last in row-major scan order (ties='last')",
}


def _normalise_index(result: PoolResult, index: Sequence[Any]) -> tuple[int, ...]:
    out = result.output
    if len(index) == 1 and isinstance(index[0], tuple):
        index = index[0]
    spatial = out.ndim - 2
    if len(index) == spatial and out.shape[0] == 1 and out.shape[1] == 1:
        index = (0, 0) + tuple(index)
    if len(index) != out.ndim:
        raise PoolTutorError(
            f"index={tuple(index)!r}: need (n, c, *out_spatial) with {out.ndim} entries for the "
            f"output shaped {out.shape} (or only the {spatial} spatial entries when N = C = 1)"
        )
    checked = []
    for i, (v, size) in enumerate(zip(index, out.shape)):
        v = check_int("index", v, minimum=0)
        if v >= size:
            raise PoolTutorError(f"index={tuple(index)!r} is outside the output shaped {out.shape}")
        checked.append(v)
    return tuple(checked)


def _fmt(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        text = f"{float(v):.6g}"
        return text if any(ch in text for ch in ".eni") else text + ".0"
    return str(v)


def _tap_rows(result: PoolResult, n: int, c: int, o: tuple[int, ...]
              ) -> list[tuple[tuple[int, ...], str, Any]]:
    """Taps of one window in scan order: (coords, kind, value-or-None)."""
    per_axis = result.geometry.window(o)
    rows = []
    for combo in itertools.product(*(zip(t, k) for t, k in per_axis)):
        coords = tuple(p for p, _ in combo)
        kinds = [k for _, k in combo]
        kind = "outside" if "outside" in kinds else "padding" if "padding" in kinds else "input"
        value = cast(np.ndarray, result.input)[(n, c) + coords] if kind == "input" else None
        rows.append((coords, kind, value))
    return rows


def _header(result: PoolResult, n: int, c: int, o: tuple[int, ...], what: str) -> list[str]:
    g: Any = result.geometry        # PoolGeometry or AdaptiveGeometry
    lines = [f"output[{', '.join(map(str, (n, c) + o))}] = {_fmt(result.output[(n, c) + o])}   "
             f"({what})"]
    if hasattr(g, "kernel"):
        lines.append(
            f"  kernel {g.kernel}, stride {g.stride}, dilation {g.dilation}, pads {g.pads}, "
            f"rounding {g.rounding!r}"
        )
    return lines


def explain_cell(result: PoolResult, index: Sequence[Any]) -> str:
    """Text explaining ``result.output[index]`` (see the module docstring)."""
    if result.input is None:
        raise PoolTutorError("this result was made without its input; nothing to explain")
    n, c, *rest = _normalise_index(result, index)
    o = tuple(rest)
    op = result.op
    rules = result.rules
    axes: tuple[Any, ...] = result.geometry.axes   # AxisGeometry or AdaptiveAxis
    if op in ("adaptive_max", "adaptive_avg"):
        bins = [a.bins[i] for a, i in zip(axes, o)]
        what = "adaptive " + ("max" if op == "adaptive_max" else "average") + " pooling"
        lines = _header(result, n, c, o, what)
        lines.append("  bins " + " x ".join(f"[{a},{b})" for a, b in bins)
                     + f" of the input {result.geometry.input_shape}"
                     + ("   (bins overlap: I % O != 0)" if any(a.overlapping for a in axes) else ""))
    else:
        starts = tuple(a.window_starts[i] for a, i in zip(axes, o))
        what = ("max" if op == "max" else "average") + " pooling, window start " + (
            str(starts[0]) if len(starts) == 1 else str(starts))
        lines = _header(result, n, c, o, what)
    rows = _tap_rows(result, n, c, o)
    width = max(len(str(r[0])) for r in rows) + 2

    if op in ("max", "adaptive_max"):
        pad_taps = rules.get("pad_taps", "skip")
        pad_fill = fill_value(result.input.dtype, "lowest" if pad_taps == "lowest" else "neg_inf")
        taps = [(v, k) for _, k, v in rows]
        best, at = max_window(taps, pad_taps=pad_taps, nan_policy=rules.get("nan_policy", "propagate_last"),
                              ties=rules.get("ties", "first"), pad_fill=pad_fill)
        takers = sum(1 for _, k, v in rows if k == "input" or (k == "padding" and pad_taps != "skip"))
        for i, (coords, kind, value) in enumerate(rows):
            label = f"  tap {str(coords):<{width}}{kind:<10}"
            if kind == "outside":
                text = label + "past the padded input: never read"
            elif kind == "padding" and pad_taps == "skip":
                text = label + "skipped (pad_taps='skip')"
            elif kind == "padding":
                text = label + f"{_fmt(pad_fill)} (pad_taps={pad_taps!r})"
            else:
                text = label + _fmt(value)
            if i == at:
                if isinstance(best, float) and np.isnan(best):
                    why = {"propagate_last": "NaN wins every comparison, so the last NaN in scan order",
                           "propagate_first": "the first NaN sticks (nan_policy='propagate_first')",
                           "first_sticks": "a NaN as the window's first element loses every "
                                           "comparison, so it stays (nan_policy='first_sticks')"}[
                        rules.get("nan_policy", "propagate_last")]
                elif takers == 1:
                    why = "the only element that takes part"
                elif rules.get("nan_policy") == "ignore" and any(
                        k == "input" and isinstance(v, (float, np.floating)) and np.isnan(v)
                        for _, k, v in rows):
                    why = "the largest value once NaN taps are ignored (nan_policy='ignore')"
                else:
                    why = _WHY[rules.get("ties", "first")]
                text += f"   <- winner: {why}"
            lines.append(text)
        if best is None:
            lines.append(f"  no element takes part: an empty window, value by empty_value="
                         f"{rules.get('empty_value', 'neg_inf')!r}")
        if rules.get("nan_policy") == "ignore" and any(
                k == "input" and isinstance(v, (float, np.floating)) and np.isnan(v) for _, k, v in rows):
            lines.append("  NaN taps are ignored (nan_policy='ignore')")
        if result.indices is not None:
            idx = int(result.indices[(n, c) + o])
            note = " (no input element won)" if idx == -1 else ""
            lines.append(f"  index: {idx} (layout {result.index_layout!r}){note}")
    else:
        values = [float(v) for _, k, v in rows if k == "input"]
        total = sum(values)
        divisor = rules.get("divisor", "valid")
        if op == "adaptive_avg":
            d, why = len(values), "the bin's element count"
        elif divisor == "valid":
            d, why = len(values), "input elements only (padding excluded)"
        elif divisor == "padded":
            d = sum(1 for _, k, _ in rows if k != "outside")
            why = "taps inside the padded input (padding included, overhang excluded)"
        else:
            d, why = int(divisor), "divisor override"
        for coords, kind, value in rows:
            notes = {"padding": "adds 0", "outside": "past the padded input: not counted"}
            text = _fmt(value) if value is not None else notes[kind]
            lines.append(f"  tap {str(coords):<{width}}{kind:<10}{text}")
        terms = " + ".join(_fmt(v) for v in values) or "0"
        lines.append(f"  sum = {terms} = {_fmt(total)}; divisor {d} ({why})")
        if d:
            lines.append(f"  average = {_fmt(total)} / {d} = {_fmt(total / d)}")
        else:
            lines.append("  no element to average (an empty window): the output is 0 by convention")
    return "\n".join(lines)
