"""TensorRT ``PaddingMode`` arithmetic: output sizes and padding from shapes alone.

TensorRT (``nvinfer1::PaddingMode``, seed ``004_805b3fbab0d47009.txt``) names
six ways of turning an input length into an output length.  This module holds
the one table that maps each mode to its rule (:data:`MODE_RULES`) and
:func:`output_geometry`, which applies the rule to a pooling, convolution or
deconvolution layer and can write the worked computation down, step by step,
in the style of the header's own "Pooling Example 1" and "Example 2".

Shorthand, per spatial axis (the header's letters): ``I`` input, ``B``
prePadding, ``A`` postPadding, ``S`` stride, ``F`` filter (window), ``D``
dilation, ``DK = 1 + D * (F - 1)``, ``M = I + B + A``, ``O`` output.

===================  ============================================  =====================
mode                 pooling rule (header)                         geometry rule, pads
===================  ============================================  =====================
EXPLICIT_ROUND_DOWN  ``O = floor((M - F) / S) + 1``                ``floor``, (B, A)
EXPLICIT_ROUND_UP    ``O = ceil((M - F) / S) + 1``, no clip        ``ceil``, (B, A)
SAME_UPPER           ``O = ceil(I / S)``, ``B = floor(P / 2)``     ``floor``, SAME pads
SAME_LOWER           ``O = ceil(I / S)``, ``A = floor(P / 2)``     ``floor``, SAME pads
CAFFE_ROUND_DOWN     ``RD - ((RD - 1) * S >= I + B)``, RD = floor  ``floor_clip``, (B, B)
CAFFE_ROUND_UP       ``RU - ((RU - 1) * S >= I + B)``, RU = ceil   ``ceil_torch``, (B, B)
===================  ============================================  =====================

Every pooling and convolution output size is computed by
:mod:`pooltutor.geometry` (the only home of those formulas); this module only
chooses the rounding rule and the padding.  Deconvolution, which geometry
does not cover, follows the header: ``O = (I - 1) * S + DK - (B + A)``.

>>> g = output_geometry(6, 3, 2, pre_padding=3, post_padding=2)   # Pooling Example 1
>>> g.output_size, g.window_starts, g.sample_points
((5,), ((-3, -1, 1, 3, 5),), ((0, 2, 4, 6, 8),))
>>> output_geometry((6, 6), 3, 2, padding_mode="kSAME_LOWER").pre_padding
(1, 1)
"""

# ruff: noqa: E741  (I and O are the TensorRT header's own letters for input and output)
from __future__ import annotations

import difflib
import enum
import re
import textwrap
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

from .errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int, check_per_axis
from .geometry import (ROUNDINGS, AxisGeometry, PoolGeometry, effective_window, output_length,
                       pool_geometry, same_padding)
from .rules import Rounding

__all__ = [
    "PaddingMode",
    "ModeRule",
    "MODE_RULES",
    "LAYERS",
    "Restriction",
    "OutputGeometry",
    "PaddingModeWarning",
    "output_geometry",
    "TENSORRT_MODES",
    "ModeGeometry",
    "mode_geometry",
]

IntOrSeq = int | Sequence[int]
Shape = tuple[int, ...]

#: The layer kinds whose formulas the header gives.
LAYERS: tuple[str, ...] = ("pooling", "convolution", "deconvolution")


class PaddingModeWarning(UserWarning):
    """A condition holds that the TensorRT header calls an error (see :class:`Restriction`)."""


# --------------------------------------------------------------------------- the enum


class PaddingMode(enum.Enum):
    """TensorRT's ``nvinfer1::PaddingMode``; values are TensorRT's (0 to 5).

    Each member's docstring states its rule; :attr:`rule` gives the entry of
    :data:`MODE_RULES`.  :meth:`parse` accepts a member or its name in any
    case, with or without TensorRT's ``k`` prefix.

    >>> PaddingMode.parse("kCAFFE_ROUND_UP") is PaddingMode.CAFFE_ROUND_UP
    True
    >>> PaddingMode.parse("same_upper"), PaddingMode.SAME_UPPER.value
    (<PaddingMode.SAME_UPPER: 2>, 2)
    >>> PaddingMode.EXPLICIT_ROUND_UP.rule.pooling_rounding
    'ceil'
    """

    def __new__(cls, value: int, doc: str) -> PaddingMode:
        obj = object.__new__(cls)
        obj._value_ = value
        obj.__doc__ = doc
        return obj

    EXPLICIT_ROUND_DOWN = (
        0,
        "Explicit padding B, A as given; O = floor((M - DK) / S) + 1 with M = I + B + A.",
    )
    EXPLICIT_ROUND_UP = (
        1,
        "Explicit padding B, A as given; O = ceil((M - DK) / S) + 1, with no clip: the last "
        "window may start in the end padding (unlike PyTorch's ceil_mode).",
    )
    SAME_UPPER = (
        2,
        "SAME padding, prePadding <= postPadding: O = ceil(I / S), "
        "P = floor((I - 1) / S) * S + DK - I, B = floor(P / 2), A = P - B; overrides B and A.",
    )
    SAME_LOWER = (
        3,
        "SAME padding, prePadding >= postPadding: O = ceil(I / S), "
        "P = floor((I - 1) / S) * S + DK - I, A = floor(P / 2), B = P - A; overrides B and A.",
    )
    CAFFE_ROUND_DOWN = (
        4,
        "Caffe padding, prePadding B on both sides; pooling: "
        "O = EXPLICIT_ROUND_DOWN - ((EXPLICIT_ROUND_DOWN - 1) * S >= I + B). "
        "Removed in TensorRT 10.",
    )
    CAFFE_ROUND_UP = (
        5,
        "Caffe padding, prePadding B on both sides; pooling: "
        "O = EXPLICIT_ROUND_UP - ((EXPLICIT_ROUND_UP - 1) * S >= I + B). "
        "Removed in TensorRT 10.",
    )

    def __repr__(self) -> str:
        return f"<PaddingMode.{self.name}: {self.value}>"

    @property
    def tensorrt_name(self) -> str:
        """The C++ / Java constant name, e.g. ``'kSAME_UPPER'``."""
        return "k" + self.name

    @property
    def rule(self) -> ModeRule:
        """This mode's entry of :data:`MODE_RULES`."""
        return MODE_RULES[self]

    @classmethod
    def parse(cls, value: Any, name: str = "padding_mode") -> PaddingMode:
        """Return the member for ``value``: a member, or its name in any case.

        TensorRT's ``k`` prefix (``"kSAME_UPPER"``) and a dotted qualifier
        (``"trt.PaddingMode.kSAME_UPPER"``) are accepted; ``-`` or a space may
        stand for ``_``.

        >>> PaddingMode.parse(PaddingMode.SAME_LOWER)
        <PaddingMode.SAME_LOWER: 3>
        >>> PaddingMode.parse("explicit-round-down")
        <PaddingMode.EXPLICIT_ROUND_DOWN: 0>
        >>> PaddingMode.parse("SAME")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pooltutor.errors.PoolTutorError: padding_mode='SAME' is not allowed: need one of \
'EXPLICIT_ROUND_DOWN', ..., 'CAFFE_ROUND_UP' (any case, optional TensorRT 'k' prefix); \
did you mean 'SAME_UPPER' or 'SAME_LOWER'?
        """
        if isinstance(value, cls):
            return value
        allowed = ", ".join(repr(m.name) for m in cls)
        if not isinstance(value, str):
            raise PoolTutorTypeError(
                f"{name}={value!r} has type {type(value).__name__}: need a PaddingMode member or "
                f"one of {allowed} (any case, optional TensorRT 'k' prefix)"
            )
        key = value.strip().rsplit(".", 1)[-1].replace("-", "_").replace(" ", "_").upper()
        if key not in cls.__members__ and key.startswith("K") and key[1:] in cls.__members__:
            key = key[1:]
        if key in cls.__members__:
            return cls.__members__[key]
        close = difflib.get_close_matches(key, list(cls.__members__), n=2, cutoff=0.5)
        hint = ""
        if close:
            hint = "; did you mean " + " or ".join(repr(c) for c in close) + "?"
        raise PoolTutorError(
            f"{name}={value!r} is not allowed: need one of {allowed} "
            f"(any case, optional TensorRT 'k' prefix){hint}"
        )

    @classmethod
    def _missing_(cls, value: object) -> PaddingMode | None:
        # PaddingMode("same_upper") works like PaddingMode.parse("same_upper").
        if isinstance(value, str):
            try:
                return cls.parse(value)
            except PoolTutorError:
                return None
        return None


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class ModeRule:
    """How one :class:`PaddingMode` turns an input length into an output length.

    Attributes
    ----------
    family : {'explicit', 'same', 'caffe'}
    padding : {'given', 'same_upper', 'same_lower', 'pre_both'}
        Where ``B`` and ``A`` come from: the user's values, the SAME split, or
        the user's prePadding on both sides.
    pooling_rounding, convolution_rounding : str
        The :data:`pooltutor.geometry.ROUNDINGS` rule applied to the padded
        input (the CAFFE correction of pooling is geometry's one-step clip).
    ceil : bool
        Whether the header's formula rounds up (before any correction).
    formula : str
        The header's pooling formula, as printed in the seed.
    """

    family: str
    padding: str
    pooling_rounding: Rounding
    convolution_rounding: Rounding
    ceil: bool
    formula: str

    @property
    def upper(self) -> bool:
        """For SAME modes: the odd extra pad goes at the end."""
        return self.padding == "same_upper"


#: The one table of TensorRT padding modes (read-only).
MODE_RULES: Mapping[PaddingMode, ModeRule] = MappingProxyType(
    {
        PaddingMode.EXPLICIT_ROUND_DOWN: ModeRule(
            "explicit", "given", "floor", "floor", False, "O = floor((M - F) / S) + 1"
        ),
        PaddingMode.EXPLICIT_ROUND_UP: ModeRule(
            "explicit", "given", "ceil", "ceil", True, "O = ceil((M - F) / S) + 1"
        ),
        PaddingMode.SAME_UPPER: ModeRule(
            "same",
            "same_upper",
            "floor",
            "floor",
            False,
            "O = ceil(I / S); P = floor((I - 1) / S) * S + F - I; B = floor(P / 2); A = P - B",
        ),
        PaddingMode.SAME_LOWER: ModeRule(
            "same",
            "same_lower",
            "floor",
            "floor",
            False,
            "O = ceil(I / S); P = floor((I - 1) / S) * S + F - I; A = floor(P / 2); B = P - A",
        ),
        PaddingMode.CAFFE_ROUND_DOWN: ModeRule(
            "caffe",
            "pre_both",
            "floor_clip",
            "floor",
            False,
            "EXPLICIT_ROUND_DOWN - ((EXPLICIT_ROUND_DOWN - 1) * S >= I + B)",
        ),
        PaddingMode.CAFFE_ROUND_UP: ModeRule(
            "caffe",
            "pre_both",
            "ceil_torch",
            "ceil",
            True,
            "EXPLICIT_ROUND_UP - ((EXPLICIT_ROUND_UP - 1) * S >= I + B)",
        ),
    }
)


# --------------------------------------------------------------------------- restrictions

_HEADER_INTRO = (
    "CAFFE_ROUND_DOWN and CAFFE_ROUND_UP have two restrictions each on usage with pooling "
    "operations. This will cause getDimensions to return an empty dimension and also to reject "
    "the network at validation time."
)

# (restriction number, mode) -> (header text, condition, meaning)
_RESTRICTION_TEXT = {
    (1, PaddingMode.CAFFE_ROUND_DOWN): (
        "CAFFE_ROUND_DOWN: B >= F is an error if (B - S) < F",
        "B >= F",
        "the first window [-B, -B + F) lies entirely in padding, which is also exactly when the "
        "one-step clip can fire",
    ),
    (1, PaddingMode.CAFFE_ROUND_UP): (
        "CAFFE_ROUND_UP: (B + S) >= (F + 1) is an error if B < (F + 1)",
        "(B + S) >= (F + 1)",
        "the one-step clip can fire: the rounded-up count can place the last window in the end "
        "padding",
    ),
    (2, PaddingMode.CAFFE_ROUND_DOWN): (
        "CAFFE_ROUND_DOWN: (B - S) >= F is an error if B >= F",
        "(B - S) >= F",
        "a window can still start in the end padding after the one-step clip (Caffe's "
        "CHECK_LT((pooled - 1) * stride, height + pad) would fail)",
    ),
    (2, PaddingMode.CAFFE_ROUND_UP): (
        "CAFFE_ROUND_UP: B >= (F + 1) is an error if (B + S) >= (F + 1)",
        "B >= (F + 1)",
        "a window can still start in the end padding after the one-step clip (Caffe's "
        "CHECK_LT((pooled - 1) * stride, height + pad) would fail)",
    ),
}


@dataclass(frozen=True)
class Restriction:
    """One of the header's two "Restriction" conditions, evaluated per axis.

    The header (TensorRT 8.x ``NvInfer.h``) writes them as "X is an error if
    Y".  Read literally that contradicts its own Pooling Example 2, so
    pooltutor evaluates only the left-hand condition X (what it *means* is in
    :attr:`meaning`), warns when it holds and applies the computational rule.
    With dilation, ``F`` stands for ``DK``.
    """

    number: int
    mode: PaddingMode
    header_text: str
    condition: str
    evaluated: str
    holds: tuple[bool, ...]
    meaning: str

    @property
    def triggered(self) -> bool:
        """True when the condition holds on at least one axis."""
        return any(self.holds)

    @property
    def axes(self) -> tuple[int, ...]:
        """The axes on which the condition holds."""
        return tuple(i for i, h in enumerate(self.holds) if h)

    def describe(self) -> str:
        """Two lines: the header's text, then the evaluated condition and its meaning."""
        axes = ", ".join(map(str, self.axes))
        where = (
            (f"holds on axis {axes}" if len(self.axes) == 1 else f"holds on axes {axes}")
            if self.triggered
            else "does not hold"
        )
        return (
            f'Restriction {self.number}, "{self.header_text}"\n'
            f"  condition {self.condition}: {self.evaluated} ==> {_braces(self.holds)}: {where}"
            + (f"; meaning: {self.meaning}" if self.triggered else "")
        )


def _restrictions(mode: PaddingMode, B: Shape, S: Shape, DK: Shape) -> tuple[Restriction, ...]:
    one = _ones(len(B))
    r1 = {
        PaddingMode.CAFFE_ROUND_DOWN: (
            tuple(b >= f for b, f in zip(B, DK, strict=True)),
            f"{_braces(B)} >= {_braces(DK)}",
        ),
        PaddingMode.CAFFE_ROUND_UP: (
            tuple(b + s >= f + 1 for b, s, f in zip(B, S, DK, strict=True)),
            f"({_braces(B)} + {_braces(S)}) >= ({_braces(DK)} + {one})",
        ),
    }[mode]
    r2 = {
        PaddingMode.CAFFE_ROUND_DOWN: (
            tuple(b - s >= f for b, s, f in zip(B, S, DK, strict=True)),
            f"({_braces(B)} - {_braces(S)}) >= {_braces(DK)}",
        ),
        PaddingMode.CAFFE_ROUND_UP: (
            tuple(b >= f + 1 for b, f in zip(B, DK, strict=True)),
            f"{_braces(B)} >= ({_braces(DK)} + {one})",
        ),
    }[mode]
    out = []
    for number, (holds, evaluated) in ((1, r1), (2, r2)):
        text, condition, meaning = _RESTRICTION_TEXT[(number, mode)]
        out.append(Restriction(number, mode, text, condition, evaluated, holds, meaning))
    return tuple(out)


# --------------------------------------------------------------------------- formatting


def _braces(values: Any) -> str:
    """The header's per-axis notation: ``{6, 6}``.

    ``values`` is a shape (the explanations pass optional fields of the geometry, which are
    set for the layer and mode being explained)."""
    return "{" + ", ".join(str(int(v)) if isinstance(v, bool) else str(v) for v in values) + "}"


def _ones(n: int, value: int = 1) -> str:
    return _braces((value,) * n)


_WIDTH = 92


def _wrap(text: str, first: str = "", rest: str = "  ") -> str:
    """Fill ``text`` to :data:`_WIDTH` columns without breaking a ``{6, 6}`` group."""
    glued = re.sub(r"\{[^{}]*\}", lambda m: m.group(0).replace(" ", "\x00"), text)
    filled = textwrap.fill(
        glued,
        width=_WIDTH,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return filled.replace("\x00", " ")


def _per_axis_phrase(label: str, per_axis: tuple[tuple[int, ...], ...]) -> str:
    """``"{0, 2, 4} in each dimension"`` or ``"{0, 2} in dimension 0 and {0} in dimension 1"``."""
    if len(set(per_axis)) == 1:
        return f"{label} {_braces(per_axis[0])} in each dimension"
    parts = [f"{_braces(p)} in dimension {i}" for i, p in enumerate(per_axis)]
    return f"{label} " + " and ".join(parts)


def _layout(I: int, B: int, A: int) -> str:
    """``{pad, x0, x1, ..., x5}``: the padded input of one axis, abbreviated when long."""
    if I <= 8:
        xs = [f"x{i}" for i in range(I)]
    else:
        xs = ["x0", "x1", "...", f"x{I - 1}"]
    return (
        _braces(["pad"] * B + xs + ["pad"] * A)
        if B + A <= 8
        else (f"{{{B} pads, x0 .. x{I - 1}, {A} pads}}")
    )


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True, repr=False)
class OutputGeometry:
    """Output size and padding of one layer under a TensorRT padding mode.

    All per-axis attributes are tuples with one entry per spatial axis, also
    for a scalar input.

    Attributes
    ----------
    padding_mode : PaddingMode
    layer : {'pooling', 'convolution', 'deconvolution'}
    input_size, window, stride, dilation : tuple of int
        ``I``, ``F``, ``S``, ``D`` per axis.
    effective_window : tuple of int
        ``DK = 1 + D * (F - 1)``.
    given_pre_padding, given_post_padding : tuple of int
        The user's ``B`` and ``A``.
    pre_padding, post_padding : tuple of int
        The effective ``B`` and ``A``: SAME modes compute their own, CAFFE
        modes use the prePadding on both sides.
    output_size : tuple of int
        ``O``.
    M : tuple of int or None
        ``I + B + A`` with the effective paddings (None for deconvolution).
    span : tuple of int or None
        ``M - DK``, the numerator before rounding (None for deconvolution).
    rounding : str or None
        The :mod:`pooltutor.geometry` rule that was applied (None for deconvolution).
    unclipped_size : tuple of int or None
        ``EXPLICIT_ROUND_*`` before the CAFFE correction (equal to
        ``output_size`` except in a clipped CAFFE pooling).
    diff : tuple of int
        The CAFFE correction ``DIFF`` (0 or 1) per axis; zeros otherwise.
    total_padding : tuple of int or None
        ``P`` of the SAME modes (None for other modes).
    window_starts : tuple of tuple of int or None
        Pooling and convolution: start of every output position in input
        coordinates (negative: inside the pre-padding).  None for deconvolution.
    restrictions : tuple of Restriction
        The header's two CAFFE pooling restrictions, evaluated per axis
        (empty for other modes and layers).
    geometry : PoolGeometry or None
        The :func:`pooltutor.geometry.pool_geometry` object behind the numbers.
    """

    padding_mode: PaddingMode
    layer: str
    input_size: Shape
    window: Shape
    stride: Shape
    dilation: Shape
    effective_window: Shape
    given_pre_padding: Shape
    given_post_padding: Shape
    pre_padding: Shape
    post_padding: Shape
    output_size: Shape
    M: Shape | None
    span: Shape | None
    rounding: Rounding | None
    unclipped_size: Shape | None
    diff: Shape
    total_padding: Shape | None
    window_starts: tuple[Shape, ...] | None
    restrictions: tuple[Restriction, ...] = ()
    geometry: PoolGeometry | None = field(default=None, compare=False)

    # ----------------------------------------------------------------- derived

    @property
    def ndim(self) -> int:
        return len(self.input_size)

    @property
    def DK(self) -> Shape:
        """Alias of :attr:`effective_window` (the header's letters)."""
        return self.effective_window

    @property
    def rule(self) -> ModeRule:
        return MODE_RULES[self.padding_mode]

    @property
    def sample_points(self) -> tuple[Shape, ...] | None:
        """Window starts in *padded* coordinates (0 = first padding cell), as the header counts."""
        if self.window_starts is None:
            return None
        return tuple(
            tuple(s + b for s in starts)
            for starts, b in zip(self.window_starts, self.pre_padding, strict=True)
        )

    @property
    def clipped(self) -> tuple[bool, ...]:
        """Per axis: did the CAFFE correction remove a window?"""
        return tuple(bool(d) for d in self.diff)

    @property
    def triggered_restrictions(self) -> tuple[Restriction, ...]:
        return tuple(r for r in self.restrictions if r.triggered)

    def __repr__(self) -> str:
        return (
            f"OutputGeometry({self.layer}, {self.padding_mode.name}: input={self.input_size}, "
            f"window={self.window}, stride={self.stride}, dilation={self.dilation}, "
            f"pre_padding={self.pre_padding}, post_padding={self.post_padding} "
            f"-> output={self.output_size})"
        )

    # ----------------------------------------------------------------- explain

    def _same_split_lines(self, P: Shape | None, B: Shape, A: Shape, b: Callable[[Any], str],
                          n: int) -> list[str]:
        """How SAME splits the total padding ``P``: the small half goes first in UPPER."""
        first, second, names = (B, A, ("B", "A")) if self.rule.upper else (A, B, ("A", "B"))
        return [
            f"{names[0]} = floor({b(P)} / {_ones(n, 2)})",
            f"==> {b(first)}",
            f"{names[1]} = {b(P)} - {b(first)}",
            f"==> {b(second)}",
        ]

    def explain(self) -> str:
        """The worked computation, step by step, in the style of the header's examples.

        Per-axis values use the header's brace notation (``{6, 6}``); the
        sample points are window starts in padded coordinates.  Notes follow
        on windows made only of padding, on the seed's errata and, for CAFFE
        pooling, on the header's two restrictions.
        """
        b = _braces
        n = self.ndim
        one = _ones(n)
        mode = self.padding_mode.name
        rule = self.rule
        pool = self.layer == "pooling"
        # pooling without dilation keeps the header's letter F; otherwise DK
        use_f = pool and all(d == 1 for d in self.dilation)
        K = "F" if use_f else "DK"
        I, S, F, D, DK = self.input_size, self.stride, self.window, self.dilation, self.DK
        B, A = self.pre_padding, self.post_padding
        gB, gA = self.given_pre_padding, self.given_post_padding

        given = f"Given I = {b(I)}, B = {b(gB)}, A = {b(gA)}, S = {b(S)}, F = {b(F)}"
        if not use_f:
            given += f", D = {b(D)}"
        lines = [
            f"{self.layer.capitalize()} with TensorRT padding mode {mode} "
            f"({self.padding_mode.tensorrt_name}).",
            given + ". What is O?",
        ]
        if rule.family == "same":
            lines.append("(B, A can be calculated for SAME_UPPER and SAME_LOWER mode)")
        lines += [f"- {mode}:", "Computation:"]
        if not use_f:
            lines += [
                "DK = 1 + D * (F - 1)",
                f"==> {one} + {b(D)} * ({b(F)} - {one})",
                f"==> {b(DK)}",
            ]
            if pool:
                lines.append(
                    "(TensorRT's IPoolingLayer has no dilation; pooltutor uses DK in "
                    "place of F, which equals F when D = 1.)"
                )
        notes: list[str] = []

        if self.layer == "deconvolution":
            self._explain_deconvolution(lines, notes)
        elif rule.family == "same":
            self._explain_same(lines, notes, K)
        elif rule.family == "caffe" and pool:
            self._explain_caffe_pooling(lines, notes)
        else:
            self._explain_explicit(lines, notes, K)

        lines.append(f"Result: O = {b(self.output_size)}, B = {b(B)}, A = {b(A)}.")
        if self.sample_points is not None:
            lines.append(_per_axis_phrase("The sample points are", self.sample_points) + ".")
            all_starts = cast(tuple[Shape, ...], self.window_starts)   # set with sample points
            starts = (
                b(all_starts[0])
                if len(set(all_starts)) == 1
                else " and ".join(b(w) for w in all_starts)
            )
            lines.append(
                _wrap(
                    "(Sample points count from the first padding cell; in input coordinates the "
                    f"windows start at {starts}.)",
                    rest="",
                )
            )
            self._window_notes(notes)
        if gB != B or gA != A:
            if rule.family == "same" and (any(gB) or any(gA)):
                notes.append(
                    f"The given prePadding {b(gB)} and postPadding {b(gA)} are ignored: "
                    f"{mode} computes its own (NvInfer.h: the padding mode takes precedence "
                    f"over setPrePadding / setPostPadding)."
                )
            elif rule.family == "caffe":
                notes.append(
                    f"CAFFE modes use the prePadding on both sides: A = B = {b(B)}; the given "
                    f"postPadding {b(gA)} is ignored."
                )
        if self.restrictions:
            notes.append(self._restrictions_paragraph())
        notes += self._errata()
        if notes:
            lines.append("Notes:")
            lines += [_wrap(note, "* ") if "\n" not in note else note for note in notes]
        return "\n".join(lines)

    def _explain_explicit(self, lines: list[str], notes: list[str], K: str) -> None:
        """EXPLICIT modes (all layers but deconvolution) and CAFFE convolution."""
        b = _braces
        one = _ones(self.ndim)
        I, B, A, S, DK = self.input_size, self.pre_padding, self.post_padding, self.stride, self.DK
        op = "ceil" if self.rule.ceil else "floor"
        if self.rule.family == "caffe":
            lines += [
                f"O ==> {op}((I + B * 2 - {K}) / S) + 1",
                f"==> {op}(({b(I)} + {b(B)} * 2 - {b(DK)}) / {b(S)}) + {one}",
                f"==> {op}({b(self.span)} / {b(S)}) + {one}",
                f"==> {b(self.output_size)}",
            ]
            notes.append(
                "The header gives no DIFF correction for convolution; the correction "
                "of the CAFFE modes is for pooling only."
            )
            return
        lines += [
            f"M = {b(I)} + {b(B)} + {b(A)} ==> {b(self.M)}",
            f"O ==> {op}((M - {K}) / S) + 1",
            f"==> {op}(({b(self.M)} - {b(DK)}) / {b(S)}) + {one}",
            f"==> {op}({b(self.span)} / {b(S)}) + {one}",
            f"==> {b(self.output_size)}",
        ]

    def _explain_same(self, lines: list[str], notes: list[str], K: str) -> None:
        b = _braces
        n = self.ndim
        one = _ones(n)
        I, S, DK = self.input_size, self.stride, self.DK
        B, A, P = self.pre_padding, self.post_padding, self.total_padding
        base = tuple((i - 1) // s * s for i, s in zip(I, S, strict=True))
        raw = tuple(x + k - i for x, k, i in zip(base, DK, I, strict=True))
        lines += [
            f"I = {b(I)}",
            f"S = {b(S)}",
            f"O = ceil(I / S) = {b(self.output_size)}",
            f"P = floor((I - 1) / S) * S + {K} - I",
            f"==> floor(({b(I)} - {one}) / {b(S)}) * {b(S)} + {b(DK)} - {b(I)}",
            f"==> {b(base)} + {b(DK)} - {b(I)}",
            f"==> {b(raw)}",
        ]
        if raw != P:
            lines += ["P = max(P, 0)", f"==> {b(P)}"]
            notes.append(
                f"The header's P is negative here ({b(raw)}: the window is shorter than the "
                "stride, so no padding is needed); pooltutor clamps P at 0 as ONNX and "
                "TensorFlow do. The header does not say what TensorRT does."
            )
        lines += self._same_split_lines(P, B, A, b, n)
        if self.layer != "deconvolution":
            op = "floor"
            lines += [
                f"Check: M = {b(I)} + {b(B)} + {b(A)} ==> {b(self.M)}",
                f"{op}((M - {K}) / S) + 1 ==> {op}({b(self.span)} / {b(S)}) + {one} "
                f"==> {b(self.output_size)}, the same O.",
            ]
        layouts = tuple(_layout(i, pb, pa) for i, pb, pa in zip(I, B, A, strict=True))
        side = "end" if self.rule.upper else "beginning"
        if len(set(layouts)) == 1:
            where = f"{layouts[0]} in each dimension"
        else:
            where = " and ".join(f"{lay} in dimension {k}" for k, lay in enumerate(layouts))
        lines.append(
            _wrap(
                f"{self.padding_mode.name} pads the input to {where} "
                f"(an odd extra pad goes at the {side}).",
                rest="",
            )
        )

    def _explain_caffe_pooling(self, lines: list[str], notes: list[str]) -> None:
        b = _braces
        n = self.ndim
        one = _ones(n)
        I, B, S, DK = self.input_size, self.pre_padding, self.stride, self.DK
        use_f = all(d == 1 for d in self.dilation)
        K = "F" if use_f else "DK"
        ex = "EXPLICIT_ROUND_UP" if self.rule.ceil else "EXPLICIT_ROUND_DOWN"
        op = "ceil" if self.rule.ceil else "floor"
        R = cast(Shape, self.unclipped_size)          # set for every layer but deconvolution
        last = tuple((r - 1) * s for r, s in zip(R, S, strict=True))
        limit = tuple(i + pb for i, pb in zip(I, B, strict=True))
        lines += [
            f"M = {b(I)} + {b(B)} + {b(B)} ==> {b(self.M)}",
            f"{ex} ==> {op}((M - {K}) / S) + 1",
            f"==> {op}(({b(self.M)} - {b(DK)}) / {b(S)}) + {one}",
            f"==> {b(R)}",
            f"DIFF = ((({ex} - 1) * S >= I + B) ? {one} : {_ones(n, 0)})",
            f"==> ({b(R)} - {one}) * {b(S)} >= {b(I)} + {b(B)} ? {one} : {_ones(n, 0)}",
            f"==> {b(last)} >= {b(limit)} ? {one} : {_ones(n, 0)}",
            f"==> {b(self.diff)}",
            f"O ==> {ex} - DIFF",
            f"==> {b(R)} - {b(self.diff)}",
            f"==> {b(self.output_size)}",
            f"In one line: O = {ex} - (({ex} - 1) * S >= I + B)",
            f"==> {b(R)} - (({b(R)} - {one}) * {b(S)} >= {b(I)} + {b(B)})",
            f"==> {b(R)} - {b(self.diff)}",
            f"==> {b(self.output_size)}",
        ]
        self._axis_notes(
            notes,
            [
                f"the rounded count {R[ax]} would make the last window start at padded position "
                f"{last[ax]} = input position {last[ax] - B[ax]} >= I = {I[ax]} (in the end "
                f"padding), so DIFF removes it (the one-step clip of PyTorch's ceil_mode; geometry "
                f"rule {self.rounding!r})."
                if d
                else None
                for ax, d in enumerate(self.diff)
            ],
        )
        final = tuple(w[-1] for w in cast(tuple[Shape, ...], self.window_starts))
        notes.append(
            f"After the correction the last window starts at input position {b(final)} < I = "
            f"{b(I)}: inside the input or the begin padding, so TensorRT accepts it."
        )

    def _explain_deconvolution(self, lines: list[str], notes: list[str]) -> None:
        b = _braces
        n = self.ndim
        one = _ones(n)
        I, S, DK = self.input_size, self.stride, self.DK
        B, A = self.pre_padding, self.post_padding
        if self.rule.family == "same":
            full = tuple(i * s for i, s in zip(I, S, strict=True))
            grown = tuple((i - 1) * s + k for i, s, k in zip(I, S, DK, strict=True))
            lines += [
                "O = min(I * S, (I - 1) * S + DK)",
                f"==> min({b(I)} * {b(S)}, ({b(I)} - {one}) * {b(S)} + {b(DK)})",
                f"==> min({b(full)}, {b(grown)})",
                f"==> {b(self.output_size)}",
                "P = max(DK - S, 0)",
                f"==> max({b(DK)} - {b(S)}, {_ones(n, 0)})",
                f"==> {b(self.total_padding)}",
            ]
            P = self.total_padding
            lines += self._same_split_lines(P, B, A, b, n)
            lines.append(
                f"Check: (I - 1) * S + DK - (B + A) ==> {b(grown)} - {b(P)} "
                f"==> {b(self.output_size)}, the same O."
            )
        else:
            if self.rule.family == "caffe":
                lines.append(f"CAFFE modes use B on both sides: A = B = {b(B)}")
            sums = tuple(pb + pa for pb, pa in zip(B, A, strict=True))
            grown = tuple((i - 1) * s + k for i, s, k in zip(I, S, DK, strict=True))
            lines += [
                "O = (I - 1) * S + DK - (B + A)",
                f"==> ({b(I)} - {one}) * {b(S)} + {b(DK)} - ({b(B)} + {b(A)})",
                f"==> {b(grown)} - {b(sums)}",
                f"==> {b(self.output_size)}",
            ]
            notes.append(
                "For deconvolution the four EXPLICIT and CAFFE modes share one formula: "
                "ROUND_DOWN and ROUND_UP make no difference."
            )
        notes.append(
            "For deconvolution, prePadding B is removed before the output and postPadding A "
            "after it: padding crops the output instead of growing the input."
        )

    def _axis_notes(self, notes: list[str], texts: list[str | None]) -> None:
        """Add per-axis notes, once for all axes when they say the same thing."""
        if not any(texts):
            return
        if self.ndim == 1:
            first = cast(str, texts[0])         # any(texts) with one axis
            notes.append(first[0].upper() + first[1:])
        elif all(t == texts[0] for t in texts):
            notes.append("In each dimension, " + cast(str, texts[0]))
        else:
            notes += [f"Axis {ax}: {t}" for ax, t in enumerate(texts) if t]

    def _window_notes(self, notes: list[str]) -> None:
        """Windows made only of padding, windows starting in or past the end padding."""
        first, late, over = [], [], []
        for ax, starts in enumerate(cast(tuple[Shape, ...], self.window_starts)):
            I, B, A, DK = (
                self.input_size[ax],
                self.pre_padding[ax],
                self.post_padding[ax],
                self.DK[ax],
            )
            D = self.dilation[ax]
            taps = tuple(starts[0] + j * D for j in range(self.window[ax]))
            first.append(
                f"the first window reads input positions {_braces(taps)}, all in the "
                f"pre-padding (B = {B} >= {'F' if D == 1 else 'DK'} = {DK}). TensorRT fills "
                "padding with -inf for max pooling (0 for average); PyTorch, ONNX Runtime and "
                "Caffe refuse a padding this large (pad must be smaller than the kernel)."
                if all(t < 0 for t in taps)
                else None
            )
            late.append(
                f"the last window starts at input position {starts[-1]} >= I = {I}, in the end "
                f"padding: it reads padding only. TensorRT's {self.padding_mode.name} has no "
                + ("clip for this in a convolution (the CAFFE correction applies to pooling only)."
                   if self.padding_mode.name.startswith("CAFFE")
                   else "clip for this (PyTorch's ceil_mode and the CAFFE pooling modes drop such "
                        "a window).")
                if starts[-1] >= I
                else None
            )
            stop = starts[-1] + DK
            over.append(
                f"the last window reaches input position {stop - 1}, {stop - I - A} "
                f"position(s) past the padded input, which ends at I + A - 1 = {I + A - 1}; "
                "those taps are outside even the padding."
                if stop > I + A
                else None
            )
        for texts in (first, late, over):
            self._axis_notes(notes, texts)

    def _restrictions_paragraph(self) -> str:
        parts = [
            _wrap(
                'Restrictions (seed / TensorRT 8.x NvInfer.h, which introduces them with: "'
                + _HEADER_INTRO
                + '"):',
                "* ",
            )
        ]
        for r in self.restrictions:
            head, cond = r.describe().split("\n")
            parts.append(_wrap(head, "  ", "    "))
            parts.append(_wrap(cond.strip(), "    ", "      "))
        parts.append(
            _wrap(
                'The header\'s text is self-contradictory: read literally as "X is an error", '
                "Restrictions 1 and 2 together forbid B >= F (CAFFE_ROUND_DOWN) and B + S > F "
                "(CAFFE_ROUND_UP), yet its own Pooling Example 2 (B = 3, F = 3, S = 2) meets the "
                "Restriction 1 conditions in both CAFFE modes and is answered with O = 5. "
                "pooltutor "
                "therefore applies the computational rule (one clip, then reject when the last "
                "window still starts in padding) and only warns (PaddingModeWarning) when a "
                "condition holds. With dilation, F stands for DK.",
                "  ",
                "  ",
            )
        )
        return "\n".join(parts)

    def _errata(self) -> list[str]:
        b = _braces
        out = []
        mode = self.padding_mode
        if self.rule.family == "same":
            out.append(
                'Seed erratum: the header\'s "SAMPLE_UPPER" / "SAMPLE_LOWER" (and "sample '
                'pointers") are typos for SAME_UPPER / SAME_LOWER (and sample points).'
            )
        if self.rule.family == "caffe":
            out.append(
                "Seed erratum: CAFFE_ROUND_DOWN and CAFFE_ROUND_UP exist only up to TensorRT 8.x; "
                "TensorRT 10's NvInfer.h lists only the EXPLICIT and SAME modes."
            )
        if mode is PaddingMode.EXPLICIT_ROUND_UP and self.layer != "deconvolution":
            span = cast(Shape, self.span)         # set for every layer but deconvolution
            exact = all(sp % s == 0 for sp, s in zip(span, self.stride, strict=True))
            if exact:
                out.append(
                    f"Here EXPLICIT_ROUND_UP equals EXPLICIT_ROUND_DOWN only because "
                    f"{b(self.span)} / {b(self.stride)} is exact (the seed's Example 1 has the "
                    f"same flaw: it does not show rounding up)."
                )
            else:
                down = tuple(
                    output_length(i, k, s, pb, pa, d, "floor")[0]
                    for i, k, s, pb, pa, d in zip(
                        self.input_size,
                        self.window,
                        self.stride,
                        self.pre_padding,
                        self.post_padding,
                        self.dilation,
                        strict=True,
                    )
                )
                out.append(f"EXPLICIT_ROUND_DOWN would give {b(down)} here.")
        return out


# --------------------------------------------------------------------------- the function


def _check_input_size(input_size: Any) -> Shape:
    if isinstance(input_size, (str, bytes)):
        raise PoolTutorTypeError(
            f"input_size={input_size!r} has type {type(input_size).__name__}: need an int >= 1 "
            f"or a sequence of 1 to 3 ints >= 1"
        )
    if getattr(input_size, "ndim", None) == 0 or (
        not isinstance(input_size, Sequence) and not hasattr(input_size, "__len__")
    ):
        return (check_int("input_size", input_size, minimum=1),)
    values = list(input_size)
    if not 1 <= len(values) <= 3:
        raise PoolTutorError(f"input_size={values!r} has {len(values)} spatial axes: need 1 to 3")
    return check_per_axis("input_size", values, len(values), minimum=1)


def _check_layer(layer: Any) -> str:
    if isinstance(layer, str):
        layer = layer.strip().lower()
    return check_choice("layer", layer, LAYERS)


def output_geometry(
    input_size: IntOrSeq,
    window: IntOrSeq,
    stride: IntOrSeq = 1,
    *,
    pre_padding: IntOrSeq = 0,
    post_padding: IntOrSeq = 0,
    dilation: IntOrSeq = 1,
    padding_mode: PaddingMode | str = "EXPLICIT_ROUND_DOWN",
    layer: str = "pooling",
) -> OutputGeometry:
    """Output size and effective padding of a TensorRT layer under ``padding_mode``.

    Parameters
    ----------
    input_size : int or sequence of int
        ``I``: the spatial size, 1 to 3 axes.
    window : int or sequence of int
        ``F``: the pooling window or convolution filter, one value or one per axis.
    stride, dilation : int or sequence of int
        ``S`` and ``D`` (``DK = 1 + D * (F - 1)``; TensorRT pooling has no
        dilation, pooltutor uses ``DK`` there too, which is ``F`` for ``D = 1``).
    pre_padding, post_padding : int or sequence of int
        ``B`` and ``A``, ``>= 0``.  SAME modes ignore both and compute their
        own; CAFFE modes use ``pre_padding`` on both sides.
    padding_mode : PaddingMode or str
        A member or its name in any case, with or without the ``k`` prefix.
    layer : {'pooling', 'convolution', 'deconvolution'}

    Returns
    -------
    OutputGeometry
        Frozen; ``output_size``, ``pre_padding``, ``post_padding``,
        ``window_starts`` and the intermediate values, plus ``explain()``.

    Raises
    ------
    PoolTutorError
        (a ``ValueError``) for a bad value: unknown mode or layer, wrong
        number of per-axis values, sizes ``< 1``, a window larger than the
        padded input, a deconvolution cropped to nothing, or a CAFFE pooling
        whose last window still starts in the end padding after the
        correction (TensorRT returns an empty dimension and rejects the
        network).
    PoolTutorTypeError
        (a ``TypeError``) for a float, bool or string where an int is meant.

    Warns
    -----
    PaddingModeWarning
        For CAFFE pooling, when one of the header's "Restriction" conditions
        holds on some axis.

    Notes
    -----
    Pooling and convolution sizes come from :mod:`pooltutor.geometry`
    (rules in :data:`MODE_RULES`); the CAFFE correction of pooling is
    geometry's one-step clip (``floor_clip`` / ``ceil_torch``).  TensorRT's
    ``EXPLICIT_ROUND_UP`` is the *raw* ceil: its last window may start in the
    end padding, which PyTorch's ``ceil_mode`` would drop.

    Examples
    --------
    The header's Pooling Example 1, ``SAME_UPPER``:

    >>> g = output_geometry((6, 6), 3, 2, pre_padding=3, post_padding=2,
    ...                     padding_mode="SAME_UPPER")
    >>> g.output_size, g.pre_padding, g.post_padding, g.total_padding
    ((3, 3), (0, 0), (1, 1), (1, 1))
    >>> print(g.explain())
    Pooling with TensorRT padding mode SAME_UPPER (kSAME_UPPER).
    Given I = {6, 6}, B = {3, 3}, A = {2, 2}, S = {2, 2}, F = {3, 3}. What is O?
    (B, A can be calculated for SAME_UPPER and SAME_LOWER mode)
    - SAME_UPPER:
    Computation:
    I = {6, 6}
    S = {2, 2}
    O = ceil(I / S) = {3, 3}
    P = floor((I - 1) / S) * S + F - I
    ==> floor(({6, 6} - {1, 1}) / {2, 2}) * {2, 2} + {3, 3} - {6, 6}
    ==> {4, 4} + {3, 3} - {6, 6}
    ==> {1, 1}
    B = floor({1, 1} / {2, 2})
    ==> {0, 0}
    A = {1, 1} - {0, 0}
    ==> {1, 1}
    Check: M = {6, 6} + {0, 0} + {1, 1} ==> {7, 7}
    floor((M - F) / S) + 1 ==> floor({4, 4} / {2, 2}) + {1, 1} ==> {3, 3}, the same O.
    SAME_UPPER pads the input to {x0, x1, x2, x3, x4, x5, pad} in each dimension (an odd extra
    pad goes at the end).
    Result: O = {3, 3}, B = {0, 0}, A = {1, 1}.
    The sample points are {0, 2, 4} in each dimension.
    (Sample points count from the first padding cell; in input coordinates the windows start at
    {0, 2, 4}.)
    Notes:
    * The given prePadding {3, 3} and postPadding {2, 2} are ignored: SAME_UPPER computes its
      own (NvInfer.h: the padding mode takes precedence over setPrePadding / setPostPadding).
    * Seed erratum: the header's "SAMPLE_UPPER" / "SAMPLE_LOWER" (and "sample pointers") are
      typos for SAME_UPPER / SAME_LOWER (and sample points).

    The header's Pooling Example 2, ``CAFFE_ROUND_UP``: the correction fires,
    and the header's Restriction 1 condition holds, hence a warning:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     g = output_geometry(6, 3, 2, pre_padding=3, post_padding=3,
    ...                         padding_mode="kCAFFE_ROUND_UP")
    >>> g.unclipped_size, g.diff, g.output_size, g.window_starts
    ((6,), (1,), (5,), ((-3, -1, 1, 3, 5),))
    >>> [type(w.message).__name__ for w in caught]
    ['PaddingModeWarning']

    Deconvolution crops instead of pads:

    >>> output_geometry(4, 3, 2, pre_padding=1, post_padding=1, layer="deconvolution").output_size
    (7,)
    """
    mode = PaddingMode.parse(padding_mode)
    layer = _check_layer(layer)
    I = _check_input_size(input_size)
    n = len(I)
    F = check_per_axis("window", window, n, minimum=1)
    S = check_per_axis("stride", stride, n, minimum=1)
    D = check_per_axis("dilation", dilation, n, minimum=1)
    gB = check_per_axis("pre_padding", pre_padding, n, minimum=0)
    gA = check_per_axis("post_padding", post_padding, n, minimum=0)
    DK = tuple(effective_window(f, d) for f, d in zip(F, D, strict=True))
    rule = MODE_RULES[mode]
    common: dict[str, Any] = dict(
        padding_mode=mode,
        layer=layer,
        input_size=I,
        window=F,
        stride=S,
        dilation=D,
        effective_window=DK,
        given_pre_padding=gB,
        given_post_padding=gA,
    )

    if layer == "deconvolution":
        return _deconvolution(rule, common, I, S, DK, gB, gA)

    # where B and A come from
    total = None
    if rule.family == "same":
        pads = tuple(
            same_padding(i, f, s, d, upper=rule.upper)
            for i, f, s, d in zip(I, F, S, D, strict=True)
        )
        B = tuple(p[0] for p in pads)
        A = tuple(p[1] for p in pads)
        total = tuple(pb + pa for pb, pa in zip(B, A, strict=True))
    elif rule.padding == "pre_both":
        B, A = gB, gB
    else:
        B, A = gB, gA
    M = tuple(i + pb + pa for i, pb, pa in zip(I, B, A, strict=True))
    for ax in range(n):
        if DK[ax] > M[ax]:
            a_txt = "B" if rule.padding == "pre_both" else "A"
            raise PoolTutorError(
                f"window={F if n > 1 else F[0]!r} does not fit the padded input on axis {ax}: "
                f"DK = 1 + D*(F-1) = {DK[ax]} > M = I + B + {a_txt} = {I[ax]}+{B[ax]}+{A[ax]} = "
                f"{M[ax]} (padding_mode={mode.name}, layer={layer!r}); need DK <= M, i.e. a "
                f"smaller window or dilation, or more padding"
            )

    rounding = rule.pooling_rounding if layer == "pooling" else rule.convolution_rounding
    geom = pool_geometry(
        I, F, S, padding=tuple(zip(B, A, strict=True)), dilation=D, rounding=rounding
    )
    axes = geom.axes

    if rule.family == "caffe" and layer == "pooling":
        for ax, g in enumerate(axes):
            if g.last_starts_in_padding:
                start = g.window_starts[-1]
                raise PoolTutorError(
                    f"padding_mode={mode.name} rejects this pooling on axis {ax}: with "
                    f"I={I[ax]}, B=A={B[ax]}, F={F[ax]}, S={S[ax]}"
                    + (f", D={D[ax]}" if D[ax] != 1 else "")
                    + f", the rounded count {g.unclipped_size} minus the one-step correction "
                    f"gives O={g.output_size}, whose last window still starts at input position "
                    f"{start} >= I={I[ax]} (in the end padding; "
                    f"(O-1)*S={(g.output_size - 1) * S[ax]} >= I+B={I[ax] + B[ax]}). TensorRT's "
                    f"getDimensions returns an empty dimension and the network is rejected "
                    f"(the header's Restriction 2); use less prePadding"
                )
        restrictions = _restrictions(mode, B, S, DK)
    else:
        restrictions = ()

    result = OutputGeometry(
        **common,
        pre_padding=B,
        post_padding=A,
        output_size=geom.output_shape,
        M=M,
        span=tuple(m - k for m, k in zip(M, DK, strict=True)),
        rounding=rounding,
        unclipped_size=tuple(g.unclipped_size for g in axes),
        diff=tuple(int(g.clipped) for g in axes),
        total_padding=total,
        window_starts=geom.window_starts,
        restrictions=restrictions,
        geometry=geom,
    )
    for r in result.triggered_restrictions:
        warnings.warn(
            f"padding_mode={mode.name} (pooling): the header's Restriction {r.number} condition "
            f"{r.condition} holds on axis {', '.join(map(str, r.axes))} ({r.evaluated} ==> "
            f"{_braces(r.holds)}): {r.meaning}. The header calls this an error "
            f'("{r.header_text}"), but its own Pooling Example 2 meets the Restriction 1 '
            f"conditions, so pooltutor applies the computational rule and only warns "
            f"(see explain()).",
            PaddingModeWarning,
            stacklevel=2,
        )
    return result


def _deconvolution(
    rule: ModeRule, common: dict[str, Any], I: Shape, S: Shape, DK: Shape, gB: Shape, gA: Shape
) -> OutputGeometry:
    n = len(I)
    total = None
    if rule.family == "same":
        total = tuple(max(k - s, 0) for k, s in zip(DK, S, strict=True))
        if rule.upper:
            B = tuple(p // 2 for p in total)
            A = tuple(p - pb for p, pb in zip(total, B, strict=True))
        else:
            A = tuple(p // 2 for p in total)
            B = tuple(p - pa for p, pa in zip(total, A, strict=True))
        out = tuple(min(i * s, (i - 1) * s + k) for i, s, k in zip(I, S, DK, strict=True))
    else:
        B, A = (gB, gB) if rule.padding == "pre_both" else (gB, gA)
        out = tuple(
            (i - 1) * s + k - (pb + pa) for i, s, k, pb, pa in zip(I, S, DK, B, A, strict=True)
        )
    for ax in range(n):
        if out[ax] < 1:
            full = (I[ax] - 1) * S[ax] + DK[ax]
            raise PoolTutorError(
                f"pre_padding={B[ax]} and post_padding={A[ax]} crop the whole deconvolution "
                f"output on axis {ax}: (I-1)*S + DK = {full} and B + A = {B[ax] + A[ax]} leave "
                f"O = {out[ax]} (padding_mode={common['padding_mode'].name}); need B + A <= "
                f"{full - 1}"
            )
    return OutputGeometry(
        **common,
        pre_padding=B,
        post_padding=A,
        output_size=out,
        M=None,
        span=None,
        rounding=None,
        unclipped_size=None,
        diff=(0,) * n,
        total_padding=total,
        window_starts=None,
        restrictions=(),
        geometry=None,
    )


# ----------------------------------------------------------------------------- one axis, any mode

#: The six TensorRT padding modes, in TensorRT's order.
TENSORRT_MODES: tuple[str, ...] = tuple(m.name for m in PaddingMode)


@dataclass(frozen=True)
class ModeGeometry:
    """One mode's window placement on one axis, whatever computed it.

    ``mode`` is the TensorRT mode name or the engine rule; ``axis`` the
    :class:`~pooltutor.geometry.AxisGeometry` behind the numbers; ``tensorrt``
    the :class:`OutputGeometry` of a TensorRT mode (None for an engine rule);
    ``notes`` the warnings the computation raised (TensorRT's CAFFE
    "Restriction" conditions).

    >>> mg = mode_geometry("SAME_UPPER", 6, 3, 2)
    >>> mg.output_size, mg.axis.pad_begin, mg.axis.pad_end, mg.notes
    (3, 0, 1, ())
    """

    mode: str
    axis: AxisGeometry
    tensorrt: OutputGeometry | None = None
    notes: tuple[str, ...] = ()

    @property
    def output_size(self) -> int:
        return self.axis.output_size

    def explain(self) -> str:
        """The worked computation (TensorRT's ``explain()``, or the geometry's formula line)."""
        if self.tensorrt is not None:
            return self.tensorrt.explain()
        return f"rounding {self.mode!r}: " + self.axis.describe()


def _resolve_mode(mode: Any) -> tuple[str, str]:
    """``(kind, name)``: ``("engine", rule)`` or ``("tensorrt", MODE_NAME)``."""
    if isinstance(mode, str) and mode in ROUNDINGS:
        return "engine", mode
    if not isinstance(mode, (str, PaddingMode)):
        raise PoolTutorTypeError(
            f"modes contains {mode!r} ({type(mode).__name__}): need TensorRT padding mode names "
            f"({', '.join(TENSORRT_MODES)}) or engine rules ({', '.join(ROUNDINGS)})")
    try:
        return "tensorrt", PaddingMode.parse(mode, name="modes").name
    except PoolTutorError as exc:
        raise PoolTutorError(f"{exc}; or an engine rule: {', '.join(map(repr, ROUNDINGS))}"
                             ) from None


def mode_name(mode: Any) -> str:
    """The name under which ``mode`` (a TensorRT mode in any spelling, a :class:`PaddingMode`
    or an engine rule) is shown and keyed.

    >>> mode_name("kCAFFE_ROUND_UP"), mode_name(PaddingMode.SAME_LOWER), mode_name("ceil")
    ('CAFFE_ROUND_UP', 'SAME_LOWER', 'ceil')
    """
    return _resolve_mode(mode)[1]


def mode_geometry(mode: Any, input_size: int, window: int, stride: int = 1, *,
                  pre_padding: int = 0, post_padding: int = 0, dilation: int = 1
                  ) -> ModeGeometry:
    """The window placement of one axis under ``mode`` (raises what the mode raises).

    ``mode`` is a TensorRT padding mode (computed by :func:`output_geometry`, its warnings
    kept as ``notes``) or a :data:`pooltutor.geometry.ROUNDINGS` rule (computed by
    :func:`~pooltutor.geometry.pool_geometry` with the padding as given).

    >>> mode_geometry("CAFFE_ROUND_UP", 6, 3, 2, pre_padding=3).axis.window_starts
    (-3, -1, 1, 3, 5)
    >>> mode_geometry("ceil", 6, 3, 2, pre_padding=3, post_padding=3).axis.window_starts
    (-3, -1, 1, 3, 5, 7)
    >>> mode_geometry("CAFFE_ROUND_DOWN", 6, 3, 2, pre_padding=3).notes[0][:60]
    "padding_mode=CAFFE_ROUND_DOWN (pooling): the header's Restri"
    """
    kind, name = _resolve_mode(mode)
    if kind == "engine":
        g = pool_geometry((input_size,), window, stride, padding=[(pre_padding, post_padding)],
                          dilation=dilation, rounding=cast(Rounding, name))
        return ModeGeometry(name, g.axes[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        og = output_geometry(input_size, window, stride, pre_padding=pre_padding,
                             post_padding=post_padding, dilation=dilation, padding_mode=name)
    return ModeGeometry(name, cast(PoolGeometry, og.geometry).axes[0], og,
                        tuple(str(w.message) for w in caught))
