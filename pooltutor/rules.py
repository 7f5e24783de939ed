"""The vocabulary of the rules: every string choice of the engine, as a type and as a tuple.

Frameworks disagree on a handful of decisions; the engine makes each one a
named parameter that takes one of a few strings.  This module is the one place
that lists them.  Each choice is a :data:`typing.Literal` alias (what the
signatures say, so a type checker catches ``rounding="ciel"``) and a tuple of
the same strings derived from it with :func:`typing.get_args` (what the
run-time checks and their error messages list), so the two cannot differ.

=================  ====================  ================================================
parameter          alias                 what it decides (module that explains it)
=================  ====================  ================================================
``rounding``       :data:`Rounding`      output-length rule (:mod:`pooltutor.geometry`)
``pad_taps``       :data:`PadTaps`       padding taps in a max window (:mod:`.pooling`)
``empty_value``    :data:`EmptyValue`    value of a window with no input element
``empty_index``    :data:`EmptyIndex`    its index
``nan_policy``     :data:`NanPolicy`     which NaN wins a max window
``ties``           :data:`Ties`          which of equal maxima wins
``index_layout``   :data:`IndexLayout`   how a winner is numbered (:mod:`.indexing`)
``divisor``        :data:`DivisorRule`   what an average divides by (or an int)
``follow``         :data:`Follow`        written spec or measured runtime (:mod:`.frameworks`)
=================  ====================  ================================================

>>> ROUNDINGS
('floor', 'ceil', 'ceil_torch', 'floor_clip', 'caffe')
>>> DIVISORS
('valid', 'padded')

This module imports nothing but :mod:`typing`; the modules that own each
concept re-export its tuple under the same name (``pooltutor.geometry.ROUNDINGS``,
``pooltutor.pooling.PAD_TAPS``, ``pooltutor.indexing.INDEX_LAYOUTS``, ...).
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "Rounding", "ROUNDINGS",
    "PadTaps", "PAD_TAPS",
    "EmptyValue", "EMPTY_VALUES",
    "EmptyIndex", "EMPTY_INDICES",
    "NanPolicy", "NAN_POLICIES",
    "Ties", "TIES",
    "IndexLayout", "INDEX_LAYOUTS",
    "DivisorRule", "DIVISORS",
    "Follow", "FOLLOWS",
    "CHOICES",
]

#: Output-length rule of an axis (the table in :mod:`pooltutor.geometry`).
Rounding = Literal["floor", "ceil", "ceil_torch", "floor_clip", "caffe"]
ROUNDINGS: tuple[Rounding, ...] = get_args(Rounding)

#: What padding taps are in a max window: never compared, compared as -inf, or as the
#: dtype's lowest finite value.
PadTaps = Literal["skip", "neg_inf", "lowest"]
PAD_TAPS: tuple[PadTaps, ...] = get_args(PadTaps)

#: The value of a max window with no input element.
EmptyValue = Literal["neg_inf", "lowest", "nan", "zero", "error"]
EMPTY_VALUES: tuple[EmptyValue, ...] = get_args(EmptyValue)

#: The index of a max window with no input element: -1, or 0 inside its plane (OpenVINO).
EmptyIndex = Literal["minus_one", "plane_start"]
EMPTY_INDICES: tuple[EmptyIndex, ...] = get_args(EmptyIndex)

#: Which NaN wins a max window (the module docstring of :mod:`pooltutor.pooling`).
NanPolicy = Literal["propagate_last", "propagate_first", "first_sticks", "ignore"]
NAN_POLICIES: tuple[NanPolicy, ...] = get_args(NanPolicy)

#: Which of equal maxima wins, in row-major scan order.
Ties = Literal["first", "last"]
TIES: tuple[Ties, ...] = get_args(Ties)

#: How a winner's position is flattened into one number (:mod:`pooltutor.indexing`).
IndexLayout = Literal["plane", "tensor", "tensor_colmajor", "nhwc", "nhwc_batch"]
INDEX_LAYOUTS: tuple[IndexLayout, ...] = get_args(IndexLayout)

#: What an average divides by, when it is not an int (PyTorch's ``divisor_override``):
#: the input elements of the window, or its taps inside the padded extent.
DivisorRule = Literal["valid", "padded"]
DIVISORS: tuple[DivisorRule, ...] = get_args(DivisorRule)

#: What a framework function reproduces: the written specification or the measured runtime.
Follow = Literal["spec", "runtime"]
FOLLOWS: tuple[Follow, ...] = get_args(Follow)

#: Parameter name -> the alias that types it (the tests check every tuple against it).
CHOICES: dict[str, object] = {
    "rounding": Rounding,
    "pad_taps": PadTaps,
    "empty_value": EmptyValue,
    "empty_index": EmptyIndex,
    "nan_policy": NanPolicy,
    "ties": Ties,
    "index_layout": IndexLayout,
    "divisor": DivisorRule,
    "follow": Follow,
}
