"""The quantized stage chain of seed 003: requantize, ReLU at the zero point, max pool.

An integer network does not see real numbers, it sees *codes*: a code ``q``
of a tensor with scale ``s > 0`` and zero point ``zp`` stands for the real
value ``(q - zp) * s``.  Seed ``003_2b7968ff41079928.txt`` follows one
2x2 patch through four stages, each kept so that it can be checked on its own:

1. **accumulators**: the int32 sums a convolution leaves behind;
2. **codes**: requantized with the real multiplier ``M = s_acc / s_out``
   (:func:`requantize`), then the zero point added and saturated;
3. **activated**: ReLU, which keeps the larger of the real value and the
   *real zero*, and the real zero is the code ``zp``, not the code 0
   (:func:`relu`);
4. **pooled**: a 2x2, stride-2 max pool without padding under the floor
   rule (a 4x4 input gives four outputs, a 3x3 input one), run by the
   project's engine :func:`pooltutor.pooling.max_pool`.

:func:`relu_max_pool_chain` runs all four and returns a :class:`QuantChain`
whose ``explain(i, j)`` tells how one pooled code came about.

Conventions, stated once
------------------------
* Code ranges: :data:`DTYPE_RANGES` (``qmin``, ``qmax`` per dtype).
* Real value of a code: ``(q - zp) * s``; ``quantize`` is ONNX QuantizeLinear,
  ``saturate(round_half_even(x / s) + zp)``.
* Requantization rounding: :data:`REQUANT_ROUNDINGS`, see :func:`requantize`.
* Max pooling in the quantized domain keeps the scale *because* its input
  and output share one scale and one zero point (TFLite requires it): then
  the real values are an increasing function of the codes, and the largest
  code is the code of the largest real value.

>>> chain = relu_max_pool_chain([[-2, 4], [6, -8]], multiplier=0.5, zero_point=0)
>>> chain.codes.tolist(), chain.activated.tolist(), chain.pooled.tolist()
([[-1, 2], [3, -4]], [[0, 2], [3, 0]], [[3]])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int, check_per_axis
from .geometry import PoolGeometry, pool_geometry

if TYPE_CHECKING:
    from .pooling import PoolResult

__all__ = [
    "DTYPE_RANGES",
    "REQUANT_ROUNDINGS",
    "AVG_ROUNDINGS",
    "dtype_range",
    "quantize",
    "dequantize",
    "quantize_multiplier",
    "requantize",
    "relu",
    "relu6",
    "quantized_max_pool",
    "quantized_avg_pool",
    "QuantChain",
    "relu_max_pool_chain",
]

#: The one table of code ranges: ``dtype name -> (qmin, qmax)``.
DTYPE_RANGES: dict[str, tuple[int, int]] = {
    "uint8": (0, 255),
    "int8": (-128, 127),
    "uint16": (0, 65535),
    "int16": (-32768, 32767),
}

#: Requantization rounding modes (see :func:`requantize`).
RequantRounding = Literal["half_even", "half_away", "half_up", "tflite_double", "tflite_single"]
REQUANT_ROUNDINGS: tuple[RequantRounding, ...] = get_args(RequantRounding)

#: Rounding modes of the quantized average (see :func:`quantized_avg_pool`).
AvgRounding = Literal["half_even", "half_away", "half_up", "trunc"]
AVG_ROUNDINGS: tuple[AvgRounding, ...] = get_args(AvgRounding)

#: What the average rounds: the mean of the codes or of ``codes - zero_point``.
MeanOf = Literal["codes", "centred"]
AVG_MEAN_OF: tuple[MeanOf, ...] = get_args(MeanOf)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

# Any |acc * M| above this saturates every code range of DTYPE_RANGES, whatever
# the zero point; the exact arithmetic below stops there (and stays in int64).
_SATURATED = 2**40


# --------------------------------------------------------------------------- checks


def _dtype_name(dtype: Any, name: str = "dtype") -> str:
    """Canonical name (``'int8'``, ...) of a code dtype given as a string or numpy dtype."""
    allowed = ", ".join(repr(k) for k in DTYPE_RANGES)
    if isinstance(dtype, str):
        if dtype not in DTYPE_RANGES:
            raise PoolTutorError(
                f"{name}={dtype!r} is not allowed: need one of {allowed} (or the numpy dtype)"
            )
        return dtype
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        raise PoolTutorTypeError(
            f"{name}={dtype!r} has type {type(dtype).__name__}: need one of {allowed} "
            f"(or the numpy dtype)"
        ) from None
    if resolved.name not in DTYPE_RANGES or dtype is None:
        raise PoolTutorError(
            f"{name}={dtype!r} is not allowed: need one of {allowed} (or the numpy dtype)"
        )
    return str(resolved.name)


def dtype_range(dtype: DTypeLike) -> tuple[int, int]:
    """``(qmin, qmax)`` of a code dtype, from :data:`DTYPE_RANGES`.

    >>> dtype_range("uint8"), dtype_range(np.int8)
    ((0, 255), (-128, 127))
    """
    return DTYPE_RANGES[_dtype_name(dtype)]


def _check_positive_real(name: str, value: Any) -> float:
    """A finite real number > 0, returned as the float64 it is."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_, str, bytes)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise PoolTutorTypeError(
            f"{name}={value!r} has type {type(value).__name__}: need a finite float > 0"
        )
    try:
        as_float = float(value)
    except OverflowError:  # a Python int beyond float64
        as_float = math.inf
    if not math.isfinite(as_float) or as_float <= 0:
        raise PoolTutorError(f"{name}={value!r} is not allowed: need a finite float > 0")
    return as_float


def _check_zero_point(zero_point: Any, dtype: str, name: str = "zero_point") -> int:
    zp = check_int(name, zero_point)
    qmin, qmax = DTYPE_RANGES[dtype]
    if not qmin <= zp <= qmax:
        raise PoolTutorError(
            f"{name}={zp} is outside the {dtype} range: need {qmin} <= {name} <= {qmax}"
        )
    return zp


def _as_array(name: str, value: Any) -> np.ndarray:
    if isinstance(value, np.ma.MaskedArray):
        raise PoolTutorTypeError(
            f"{name} is a numpy.ma.MaskedArray: the mask would be ignored; pass "
            f"{name}.filled(value) (or numpy.asarray({name}) for the data underneath)"
        )
    if isinstance(value, np.ndarray):
        return value
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as exc:  # ragged lists, ...
        raise PoolTutorTypeError(f"{name} could not be read as a numeric array ({exc})") from None


def _check_integer_array(name: str, value: Any, what: str) -> np.ndarray:
    arr = _as_array(name, value)
    if arr.dtype.kind not in "iu":
        raise PoolTutorTypeError(
            f"{name} has dtype {arr.dtype}: {what} must be an integer array "
            f"(int8/16/32/64 or uint8/16/32/64), not {arr.dtype.kind!r}-kind values"
        )
    return arr


def _check_accumulators(acc: Any, name: str = "acc") -> np.ndarray:
    """Integer array whose values all fit int32; returned as int64 (a new array)."""
    arr = _check_integer_array(name, acc, "accumulators")
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < INT32_MIN or hi > INT32_MAX:
            bad = lo if lo < INT32_MIN else hi
            raise PoolTutorError(
                f"{name} holds {bad}, outside the int32 range [{INT32_MIN}, {INT32_MAX}]: "
                f"accumulators are int32"
            )
    return arr.astype(np.int64)


def _check_codes(q: Any, dtype: Any, name: str = "q") -> tuple[np.ndarray, str]:
    """Integer codes and their dtype name (``dtype=None``: the codes' own dtype)."""
    arr = _check_integer_array(name, q, "codes")
    if dtype is None:
        if arr.dtype.name not in DTYPE_RANGES:
            allowed = ", ".join(repr(k) for k in DTYPE_RANGES)
            raise PoolTutorTypeError(
                f"dtype=None but {name} has dtype {arr.dtype}: pass dtype= one of {allowed}, "
                f"or give {name} as an array of that dtype"
            )
        dtype = arr.dtype.name
    dtype = _dtype_name(dtype)
    qmin, qmax = DTYPE_RANGES[dtype]
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < qmin or hi > qmax:
            bad = lo if lo < qmin else hi
            raise PoolTutorError(
                f"{name} holds the code {bad}, outside the {dtype} range [{qmin}, {qmax}]"
            )
    return arr, dtype


def _check_tensor_codes(q: Any, dtype: Any, name: str = "q") -> tuple[np.ndarray, str]:
    arr, dtype = _check_codes(q, dtype, name)
    if not 3 <= arr.ndim <= 5:
        raise PoolTutorError(
            f"{name} has shape {arr.shape} (rank {arr.ndim}): need rank 3 to 5, shaped "
            f"(N, C, *spatial) with 1 to 3 spatial axes"
        )
    if 0 in arr.shape:
        raise PoolTutorError(f"{name} has shape {arr.shape}: every axis must have length >= 1")
    return arr, dtype


# --------------------------------------------------------------------------- quantize


def quantize(x: ArrayLike, scale: float, zero_point: int, dtype: DTypeLike = "uint8"
             ) -> np.ndarray:
    """ONNX QuantizeLinear: ``saturate(round_half_even(x / scale) + zero_point)``.

    Parameters
    ----------
    x : array_like of real numbers
        float32 and float16 inputs are divided in float32 (as ONNX Runtime
        does), everything else in float64.  ``±inf`` saturates; NaN is refused
        (QuantizeLinear leaves its code undefined).
    scale : float
        Finite, > 0: the real size of one code step.
    zero_point : int
        The code of the real value 0, inside the range of ``dtype``.
    dtype : {'uint8', 'int8', 'uint16', 'int16'} or numpy dtype

    Returns
    -------
    numpy.ndarray of ``dtype``, shaped like ``x``

    Notes
    -----
    The tie goes to the even number of *steps* ``x / scale``, before the
    zero point is added (ONNX, ONNX Runtime).  ``torch.quantize_per_tensor``
    rounds ``x / scale + zero_point`` instead, so its tie goes to the even
    *code*: the two disagree on exact ties when the zero point is odd
    (``quantize(0.5, 1.0, 3, "int8")`` is 3 here, 4 in PyTorch).

    Examples
    --------
    Ties go to the even integer, and out-of-range values saturate (TV34):

    >>> quantize([2.5, -2.5, 1.5, 0.5, 127.5, 300.0], 1.0, 0, "int8").tolist()
    [2, -2, 2, 0, 127, 127]
    >>> quantize([-1.0, 0.0, 0.5, 1.0], 0.5, 128).tolist()
    [126, 128, 129, 130]
    """
    arr = _as_array("x", x)
    if arr.dtype.kind not in "iuf":
        raise PoolTutorTypeError(f"x has dtype {arr.dtype}: need real numbers (floats or ints)")
    scale = _check_positive_real("scale", scale)
    dtype = _dtype_name(dtype)
    zp = _check_zero_point(zero_point, dtype)
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise PoolTutorError(
            "x contains NaN: QuantizeLinear gives NaN no code; need finite values or ±inf"
        )
    qmin, qmax = DTYPE_RANGES[dtype]
    work = np.float32 if arr.dtype in (np.float16, np.float32) else np.float64
    f32 = np.finfo(np.float32)
    if work is np.float32 and not float(f32.smallest_subnormal) <= scale <= float(f32.max):
        work = np.float64  # the scale itself is not a float32: divide in float64
    with np.errstate(over="ignore"):  # huge / tiny scale: saturation is the answer
        steps = np.rint(arr.astype(work) / work(scale))
    codes = np.clip(steps.astype(np.float64) + zp, qmin, qmax)
    return codes.astype(dtype)


def dequantize(q: ArrayLike, scale: float, zero_point: int, dtype: DTypeLike | None = None
               ) -> np.ndarray:
    """ONNX DequantizeLinear: ``(q - zero_point) * scale`` as float32.

    Parameters
    ----------
    q : array_like of int
        Codes.  ``dtype=None`` takes the range from ``q``'s own dtype, which
        must then be one of :data:`DTYPE_RANGES`.
    scale : float
        Finite, > 0, and a float32 can hold it (DequantizeLinear's scale is
        float32: ``1e300`` would become inf, ``1e-50`` zero).
    zero_point : int
        Inside the code range.
    dtype : {'uint8', 'int8', 'uint16', 'int16'}, numpy dtype or None

    Examples
    --------
    >>> dequantize(np.array([126, 128, 134], dtype=np.uint8), 0.5, 128).tolist()
    [-1.0, 0.0, 3.0]
    """
    arr, dtype = _check_codes(q, dtype)
    scale = _check_positive_real("scale", scale)
    zp = _check_zero_point(zero_point, dtype)
    f32 = np.finfo(np.float32)
    with np.errstate(over="ignore"):
        scale32 = np.float32(scale)
    if not (np.isfinite(scale32) and scale32 > 0):
        raise PoolTutorError(
            f"scale={scale!r} is not allowed: DequantizeLinear multiplies in float32 and a "
            f"float32 cannot hold it (it would become {float(scale32)!r}); need a scale in "
            f"[{float(f32.smallest_subnormal)!r}, {float(f32.max)!r}]"
        )
    return (arr.astype(np.int64) - zp).astype(np.float32) * scale32


# --------------------------------------------------------------------------- requantize


def quantize_multiplier(multiplier: float, *, single_rounding: bool = False) -> tuple[int, int]:
    """TFLite ``QuantizeMultiplier``: ``multiplier = q / 2**31 * 2**shift``, ``2**30 <= q < 2**31``.

    A port of ``tensorflow/lite/kernels/internal/common.cc`` in exact
    integer arithmetic: ``frexp`` splits off the power of two, the
    mantissa is scaled to Q31 and rounded half away from zero (``std::round``);
    a mantissa that rounds up to ``2**31`` is halved and ``shift`` grows by one.
    A multiplier below about ``2**-31`` gives ``(0, 0)`` (all results 0);
    with ``single_rounding=True`` (``TFLITE_SINGLE_ROUNDING``) a shift above 30
    saturates to ``(2**31 - 1, 30)``.

    Examples
    --------
    >>> quantize_multiplier(0.5), quantize_multiplier(0.25), quantize_multiplier(0.3)
    ((1073741824, 0), (1073741824, -1), (1288490189, -1))
    """
    multiplier = _check_positive_real("multiplier", multiplier)
    mantissa, shift = math.frexp(multiplier)  # multiplier = mantissa * 2**shift, 0.5 <= m < 1
    num, den = (mantissa * 2.0**31).as_integer_ratio()  # exact: scaling by a power of two
    q = (2 * num + den) // (2 * den)  # round half away from zero (the value is positive)
    if q == 2**31:
        q //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    if single_rounding and shift > 30:
        return 2**31 - 1, 30
    return q, shift


def _round_scaled(acc: np.ndarray, multiplier: float, mode: str) -> np.ndarray:
    """``round(acc * multiplier)`` of the *exact* product, in int64 arithmetic.

    ``multiplier`` is the float64 it is: ``n / 2**k`` exactly
    (``float.as_integer_ratio``), with ``n`` odd when ``k > 0``.  With ``Q`` the
    floor of ``acc*n / 2**k`` and ``Q2`` the floor of ``acc*n / 2**(k-1)``, the
    fraction is at least one half exactly when ``Q2 - 2*Q == 1``, and it is
    exactly one half when moreover ``acc`` is divisible by ``2**(k-1)`` (``n`` is
    odd).  ``acc*n`` can need 84 bits, so ``n`` is split as ``n1 * 2**s + n0`` and
    ``floor(acc*n / 2**s) = acc*n1 + floor(acc*n0 / 2**s)`` is formed from two
    products that fit int64.  Results beyond ``±2**40`` (they saturate every
    code range) come back as ``±2**40``.
    """
    acc = acc.astype(np.int64)
    n, den = multiplier.as_integer_ratio()
    k = den.bit_length() - 1
    with np.errstate(over="ignore"):
        saturated = np.abs(acc.astype(np.float64)) * multiplier > float(_SATURATED)
    a = np.where(saturated, 0, acc)
    if k == 0:  # an integer multiplier: the product is exact and needs no rounding
        result = a * n if n <= _SATURATED else np.zeros_like(a)
    else:
        s = min(26, k - 1)
        n1, n0 = n >> s, n & ((1 << s) - 1)
        floor_s = a * n1 + ((a * n0) >> s)  # floor(acc*n / 2**s), |.| < 2**59
        q_half = floor_s >> min(k - 1 - s, 63)  # floor(acc*n / 2**(k-1))
        q = floor_s >> min(k - s, 63)  # floor(acc*n / 2**k)
        up = q_half - 2 * q  # 1 when the fraction is >= 1/2
        if k - 1 <= 62:
            tie = (up == 1) & ((a & ((1 << (k - 1)) - 1)) == 0)
        else:
            tie = np.zeros(a.shape, dtype=bool)
        if mode == "half_up":
            result = q + up
        elif mode == "half_away":
            result = q + up - (tie & (a < 0))
        else:  # half_even
            result = q + up - (tie & (q % 2 == 0))
    return np.where(saturated, np.sign(acc) * _SATURATED, result)


def _trunc_div(n: np.ndarray, d: int) -> np.ndarray:
    """C integer division (truncates toward zero) for ``d > 0``."""
    f = n // d
    return f + ((n % d != 0) & (n < 0))


def _rounding_divide_by_pot(x: np.ndarray, exponent: int) -> np.ndarray:
    """gemmlowp ``RoundingDivideByPOT``: ``x / 2**exponent``, ties away from zero."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def _tflite_double(acc: np.ndarray, q: int, shift: int) -> np.ndarray:
    """TFLite ``MultiplyByQuantizedMultiplier`` (default, double rounding), int64 throughout."""
    left, right = max(shift, 0), max(-shift, 0)
    if left >= 32:
        x = np.sign(acc) * 2**31
    else:
        x = acc << left  # |acc| < 2**31, left < 32: fits int64
    x = np.clip(x, INT32_MIN, INT32_MAX)  # TFLite's int32 product would wrap; we saturate
    # SaturatingRoundingDoublingHighMul(x, q): round(x*q / 2**31), ties toward +inf.
    # Its one saturating case, x == q == INT32_MIN, cannot occur: q >= 0.
    ab = x * q
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    high = _trunc_div(ab + nudge, 1 << 31)
    return _rounding_divide_by_pot(high, right)


def _tflite_single(acc: np.ndarray, q: int, shift: int) -> np.ndarray:
    """TFLite ``MultiplyByQuantizedMultiplier`` under ``TFLITE_SINGLE_ROUNDING``."""
    total = 31 - shift  # shift in [-31, 30]: total in [1, 62]
    return (acc * q + (1 << (total - 1))) >> total


def _requantize_unchecked(acc64: np.ndarray, multiplier: float, rounding: RequantRounding
                          ) -> np.ndarray:
    """``round(acc * multiplier)`` by ``rounding``, before the zero point (int64)."""
    if rounding == "tflite_double":
        return _tflite_double(acc64, *quantize_multiplier(multiplier))
    if rounding == "tflite_single":
        return _tflite_single(acc64, *quantize_multiplier(multiplier, single_rounding=True))
    return _round_scaled(acc64, multiplier, rounding)


def requantize(acc: ArrayLike, multiplier: float, zero_point: int, dtype: DTypeLike = "int8",
               rounding: RequantRounding = "half_even") -> np.ndarray:
    """int32 accumulators to codes: ``saturate(round(acc * multiplier) + zero_point)``.

    Parameters
    ----------
    acc : array_like of int
        Accumulators; every value must fit int32.  Float arrays are refused.
    multiplier : float
        ``M = s_acc / s_out`` (input scale times weight scale over output
        scale), any finite float > 0, taken as the float64 it is.
    zero_point : int
        Output zero point, inside the range of ``dtype``.
    dtype : {'int8', 'uint8', 'int16', 'uint16'} or numpy dtype
    rounding : {'half_even', 'half_away', 'half_up', 'tflite_double', 'tflite_single'}
        ``half_even`` (QuantizeLinear after a float product, as a QDQ ONNX
        graph and ``torch.quantize_per_tensor`` specify), ``half_away``
        and ``half_up`` round the *exact* value of ``acc * multiplier``.
        ``tflite_double`` is TFLite's default: :func:`quantize_multiplier`, then
        gemmlowp ``SaturatingRoundingDoublingHighMul`` (ties toward +inf) and
        ``RoundingDivideByPOT`` (ties away from zero): two roundings, which can
        be off by one even without a tie (TV36).  ``tflite_single`` is
        ``TFLITE_SINGLE_ROUNDING``: ``(acc*q + 2**(30-shift)) >> (31-shift)``,
        one rounding, ties toward +inf.

    Returns
    -------
    numpy.ndarray of ``dtype``, shaped like ``acc``

    Notes
    -----
    Everything is exact integer arithmetic in int64 (no float product is
    rounded).  Where TFLite's ``x * (1 << left_shift)`` would overflow int32
    (``|acc * 2**shift| >= 2**31``, so ``|acc * M| >= 2**30``, far outside any
    code range) TFLite wraps around; pooltutor saturates that product, so the
    code saturates as the exact value does.

    Examples
    --------
    The modes disagree on ties (TV35, ``M = 0.5``):

    >>> acc = [5, -5, 3, -3]
    >>> for mode in REQUANT_ROUNDINGS:
    ...     print(f"{mode:13s}", requantize(acc, 0.5, 0, rounding=mode).tolist())
    half_even     [2, -2, 2, -2]
    half_away     [3, -3, 2, -2]
    half_up       [3, -2, 2, -1]
    tflite_double [3, -2, 2, -1]
    tflite_single [3, -2, 2, -1]

    and TFLite's double rounding is off by one on ``-198 * 0.3 = -59.4`` (TV36):

    >>> requantize([-198], 0.3, 0, rounding="tflite_double").tolist()
    [-60]
    >>> requantize([-198], 0.3, 0, rounding="tflite_single").tolist()
    [-59]
    """
    acc64 = _check_accumulators(acc)
    multiplier = _check_positive_real("multiplier", multiplier)
    dtype = _dtype_name(dtype)
    zp = _check_zero_point(zero_point, dtype)
    check_choice("rounding", rounding, REQUANT_ROUNDINGS)
    qmin, qmax = DTYPE_RANGES[dtype]
    rounded = _requantize_unchecked(acc64, multiplier, rounding)
    return np.clip(rounded + zp, qmin, qmax).astype(dtype)


# --------------------------------------------------------------------------- activations


def relu(q: ArrayLike, zero_point: int, dtype: DTypeLike | None = None) -> np.ndarray:
    """Quantized ReLU: ``max(q, max(qmin, zero_point))``, the clamp at the *real* zero.

    The real value of a code is ``(q - zero_point) * scale``, so the real 0
    is the code ``zero_point``.  Clamping at the literal code 0 (``max(q, 0)``,
    what ONNX ``Relu`` does to raw integer codes) is right only when
    ``zero_point = 0`` (TV31, TV37).

    Parameters
    ----------
    q : array_like of int
        Codes (not modified).
    zero_point : int
        Inside the code range.
    dtype : {'uint8', 'int8', 'uint16', 'int16'}, numpy dtype or None
        ``None``: ``q``'s own dtype, which must be one of those.

    Returns
    -------
    numpy.ndarray of ``dtype``

    Examples
    --------
    >>> relu(np.array([126, 132, 134, 120], dtype=np.uint8), zero_point=128).tolist()
    [128, 132, 134, 128]
    >>> relu([-100, -5, 0, 7], zero_point=-20, dtype="int8").tolist()   # TV37
    [-20, -5, 0, 7]
    """
    arr, dtype = _check_codes(q, dtype)
    zp = _check_zero_point(zero_point, dtype)
    qmin, _ = DTYPE_RANGES[dtype]
    return np.maximum(arr, max(qmin, zp)).astype(dtype)


def relu6(q: ArrayLike, scale: float, zero_point: int, dtype: DTypeLike | None = None
          ) -> np.ndarray:
    """Quantized ReLU6: clamp to ``[max(qmin, zp), min(qmax, code of 6.0)]``.

    The code of 6.0 is ``quantize(6.0, scale, zero_point, dtype)``,
    ``zp + round_half_even(6 / scale)`` saturated (TFLite's
    ``CalculateActivationRangeQuantized`` rounds that one value half away
    from zero instead: they differ only when ``6 / scale`` is exactly ``k + 1/2``).

    Examples
    --------
    Scale 0.05, zero point 10: real 6.0 is code 130.

    >>> relu6(np.array([0, 10, 50, 130, 200], dtype=np.uint8), 0.05, 10).tolist()
    [10, 10, 50, 130, 130]
    """
    arr, dtype = _check_codes(q, dtype)
    scale = _check_positive_real("scale", scale)
    zp = _check_zero_point(zero_point, dtype)
    qmin, _ = DTYPE_RANGES[dtype]
    six = int(quantize(6.0, scale, zp, dtype))
    return np.clip(arr, max(qmin, zp), six).astype(dtype)


# --------------------------------------------------------------------------- pooling


def quantized_max_pool(q: ArrayLike, kernel: int | Sequence[int],
                       stride: int | Sequence[int] | None = None, padding: Any = 0,
                       dtype: DTypeLike | None = None) -> PoolResult:
    """Max pooling of codes; padding is skipped, never compared.

    With one scale ``s > 0`` and one zero point for input and output (the
    only case where max pooling "keeps the scale"; TFLite requires it), the
    real value ``(q - zp) * s`` increases with the code, so the pooled code is
    the largest code of the window.  A padding tap must therefore never take
    part as the zero point: that is the real value 0 and would beat every
    negative real value on the border (TV32).  The only code a pad could
    safely hold is the lowest one (``qmin``: 0 for uint8, -128 for int8), which
    never wins over a real element; pooltutor skips padding altogether, as
    PyTorch and TFLite do.  A window of padding only (``padding >= kernel``)
    gives ``qmin``.

    Parameters
    ----------
    q : array_like of int, shaped ``(N, C, *spatial)`` with 1 to 3 spatial axes
    kernel, stride : int or one int per spatial axis
        ``stride`` defaults to ``kernel``.
    padding : int, one int per axis, or one ``(begin, end)`` pair per axis
    dtype : {'uint8', 'int8', 'uint16', 'int16'}, numpy dtype or None
        ``None``: ``q``'s own dtype.

    Returns
    -------
    pooltutor.pooling.PoolResult
        ``.output`` (codes of ``dtype``), ``.indices`` (per plane) and ``explain()``.

    Examples
    --------
    TV32: uint8, scale 0.5, zero point 128, every real value negative:

    >>> q = np.array([[[[120, 126], [110, 100]]]], dtype=np.uint8)
    >>> quantized_max_pool(q, kernel=2, stride=1, padding=1).output[0, 0].tolist()
    [[120, 126, 126], [120, 126, 126], [110, 110, 100]]
    """
    from .pooling import max_pool

    arr, dtype = _check_tensor_codes(q, dtype)
    return max_pool(
        arr.astype(dtype, copy=False),
        kernel,
        stride,
        padding,
        pad_taps="skip",
        empty_value="lowest",
        return_indices=True,
    )


def _round_div(num: np.ndarray, den: np.ndarray, mode: AvgRounding) -> np.ndarray:
    """Exact ``round(num / den)`` of integers (``den > 0``) by ``mode``."""
    f = num // den
    twice = 2 * (num - f * den)  # 2 * remainder, remainder in [0, den)
    if mode == "trunc":
        return f + ((twice != 0) & (num < 0))
    if mode == "half_up":
        return f + (twice >= den)
    up = twice > den
    tie = twice == den
    if mode == "half_away":
        return f + up + (tie & (num > 0))
    return f + up + (tie & (f % 2 != 0))  # half_even


def quantized_avg_pool(
    q: ArrayLike,
    kernel: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: Any = 0,
    rounding: AvgRounding = "half_even",
    zero_point: int = 0,
    dtype: DTypeLike | None = None,
    *,
    count_include_pad: bool = False,
    mean_of: MeanOf = "codes",
) -> np.ndarray:
    """Average pooling of codes with an exact integer mean and a named rounding.

    Unlike max pooling, the average divides, and the frameworks round the
    quotient differently:

    * ``half_even``: PyTorch's quantized ``avg_pool2d`` (``lrintf``);
    * ``half_away``: the TFLite int8 reference kernel
      (``acc > 0 ? (acc + n/2) / n : (acc - n/2) / n``, truncating division);
    * ``half_up``: the TFLite uint8 reference (``(acc + n/2) / n``, ``acc >= 0``);
    * ``trunc``: a plain truncating division, wrong about half the time.

    Parameters
    ----------
    q : array_like of int, shaped ``(N, C, *spatial)``
    kernel, stride, padding : as in :func:`quantized_max_pool`
    rounding : {'half_even', 'half_away', 'half_up', 'trunc'}
    zero_point : int
        Shared by input and output.  A padding tap is the real value 0, the
        code ``zero_point``; it counts only with ``count_include_pad``.
    dtype : {'uint8', 'int8', 'uint16', 'int16'}, numpy dtype or None
    count_include_pad : bool
        ``False``: divide by the number of input elements in the window
        (TFLite); ``True``: by the whole window, padding included (PyTorch's
        default).
    mean_of : {'codes', 'centred'}
        ``'codes'``: round the mean of the codes themselves, as TFLite's int8
        kernel and PyTorch's x86 / fbgemm / onednn engines do;
        ``'centred'``: ``zero_point + round(mean of (q - zero_point))``, as
        PyTorch's qnnpack engine does for uint8.  The two differ on ties when
        the zero point is odd.

    Returns
    -------
    numpy.ndarray of ``dtype``, shaped ``(N, C, *out_spatial)`` (floor rule)

    Notes
    -----
    The window sums come from the project engine
    (:func:`pooltutor.pooling.avg_pool` with ``divisor=1``), which adds in
    float64: every partial sum is an integer far below ``2**53``, so it is
    exact, and the division and rounding are done in integers.  The window
    has no dilation and the output length follows the floor rule.

    Examples
    --------
    TV38: means 1.5, 2.5, 1.75 and 0.5:

    >>> q = np.array([[[[1, 2], [1, 2]]], [[[2, 3], [2, 3]]], [[[1, 2], [2, 2]]],
    ...               [[[0, 0], [0, 2]]]], dtype=np.uint8)
    >>> quantized_avg_pool(q, 2).ravel().tolist()                        # PyTorch
    [2, 2, 2, 0]
    >>> quantized_avg_pool(q, 2, rounding="half_away").ravel().tolist()  # TFLite int8
    [2, 3, 2, 1]
    """
    from .pooling import avg_pool

    arr, dtype = _check_tensor_codes(q, dtype)
    zp = _check_zero_point(zero_point, dtype)
    check_choice("rounding", rounding, AVG_ROUNDINGS)
    check_choice("mean_of", mean_of, AVG_MEAN_OF)
    if not isinstance(count_include_pad, (bool, np.bool_)):
        raise PoolTutorTypeError(f"count_include_pad={count_include_pad!r}: need True or False")
    qmin, qmax = DTYPE_RANGES[dtype]
    shift = zp if mean_of == "centred" else 0
    values = arr.astype(np.int64) - shift
    result = avg_pool(values, kernel, stride, padding, divisor=1)
    sums = np.rint(result.output).astype(np.int64)
    ones = np.ones((1, 1) + arr.shape[2:], dtype=np.int64)
    valid = np.rint(avg_pool(ones, kernel, stride, padding, divisor=1).output).astype(np.int64)
    if count_include_pad:
        count = np.full_like(valid, math.prod(cast(PoolGeometry, result.geometry).kernel))
        sums = sums + (count - valid) * (zp - shift)  # every padding tap holds the code zp
    else:
        count = valid
    rounded = _round_div(sums, np.maximum(count, 1), rounding)
    rounded = np.where(count > 0, rounded, zp - shift)  # no element at all: the real 0
    return np.clip(rounded + shift, qmin, qmax).astype(dtype)


# --------------------------------------------------------------------------- the chain


def _fmt(values: ArrayLike) -> str:
    """A small array on one line as nested lists, floats with up to 6 significant digits."""
    arr = np.asarray(values)
    if arr.ndim == 0:
        v = arr.item()
        return f"{v:.6g}" if isinstance(v, float) else str(v)
    return "[" + ", ".join(_fmt(row) for row in arr) + "]"


@dataclass(frozen=True, eq=False)
class QuantChain:
    """Every stage of requantize -> ReLU at the zero point -> max pool, kept apart.

    Input and output of the max pool share one scale and one zero point:
    the pooled code is copied from the window, never rescaled.

    Attributes
    ----------
    accumulators : numpy.ndarray of int32
        Stage 1, shaped like the input (a copy).
    codes : numpy.ndarray of ``dtype``
        Stage 2: ``saturate(round(acc * multiplier) + zero_point)``.
    activated : numpy.ndarray of ``dtype``
        Stage 3: ``max(codes, max(qmin, zero_point))``.
    pooled : numpy.ndarray of ``dtype``
        Stage 4: the max pool (floor rule, no padding).
    winners : numpy.ndarray of int64
        For every pooled code, the row-major position inside its ``(H, W)``
        plane of the activated code that won (the first maximum).
    multiplier : float
        ``M = s_acc / s_out``.
    scale : float or None
        The output scale ``s`` (of codes, activated and pooled), if given;
        otherwise real values are written in units of ``s``.
    zero_point, qmin, qmax : int
    dtype, rounding : str
    geometry : pooltutor.geometry.PoolGeometry
        Where the windows went.

    All arrays are read-only.
    """

    accumulators: np.ndarray
    codes: np.ndarray
    activated: np.ndarray
    pooled: np.ndarray
    winners: np.ndarray
    multiplier: float
    scale: float | None
    zero_point: int
    dtype: str
    qmin: int
    qmax: int
    rounding: RequantRounding
    geometry: PoolGeometry

    @property
    def relu_floor(self) -> int:
        """The code ReLU clamps at: ``max(qmin, zero_point)``, the code of the real 0."""
        return max(self.qmin, self.zero_point)

    @property
    def kernel(self) -> tuple[int, ...]:
        return self.geometry.kernel

    @property
    def stride(self) -> tuple[int, ...]:
        return self.geometry.stride

    @property
    def quantized_multiplier(self) -> tuple[int, int]:
        """TFLite's ``(q, shift)`` of the multiplier (:func:`quantize_multiplier`)."""
        return quantize_multiplier(
            self.multiplier, single_rounding=self.rounding == "tflite_single"
        )

    def real(self, codes: ArrayLike) -> np.ndarray:
        """Real values ``(codes - zero_point) * s`` (in units of ``s`` when no scale was given)."""
        s = 1.0 if self.scale is None else self.scale
        return (np.asarray(codes, dtype=np.int64) - self.zero_point) * s

    def _real_text(self, values: ArrayLike) -> str:
        text = _fmt(np.asarray(values, dtype=np.float64))
        return text + " * s" if self.scale is None else text

    def _locate(self, index: Sequence[Any]) -> tuple[int, int, int, int]:
        two_d = self.accumulators.ndim == 2
        want = 2 if two_d else 4
        shape = self.pooled.shape
        if len(index) != want:
            raise PoolTutorError(
                f"index={tuple(index)!r}: need {'(i, j)' if two_d else '(n, c, i, j)'} for the "
                f"pooled stage shaped {shape}"
            )
        checked = []
        for v, size in zip(index, shape, strict=True):
            v = check_int("index", v, minimum=0)
            if v >= size:
                raise PoolTutorError(
                    f"index={tuple(index)!r} is outside the pooled stage shaped {shape}"
                )
            checked.append(v)
        n, c, i, j = (0, 0, *checked) if two_d else checked
        return n, c, i, j

    def explain(self, *index: Any) -> str:
        """How one pooled code came about, stage by stage, in code units and real units.

        ``index`` is ``(i, j)`` for a 2-D chain, ``(n, c, i, j)`` for a 4-D one.
        """
        n, c, i, j = self._locate(index)
        two_d = self.accumulators.ndim == 2
        def pick(a: np.ndarray) -> np.ndarray:
            return a if two_d else a[n, c]

        acc, codes, act = pick(self.accumulators), pick(self.codes), pick(self.activated)
        (r0, c0), (kh, kw) = (
            (self.geometry.axes[0].window_starts[i], self.geometry.axes[1].window_starts[j]),
            self.kernel,
        )
        win = (slice(r0, r0 + kh), slice(c0, c0 + kw))
        a_w, q_w, x_w = acc[win], codes[win], act[win]
        where = f"[{i}, {j}]" if two_d else f"[{n}, {c}, {i}, {j}]"
        out = int(pick(self.pooled)[i, j])
        won = int(pick(self.winners)[i, j])
        wr, wc = divmod(won, acc.shape[1])
        zp, floor = self.zero_point, self.relu_floor
        s = "s" if self.scale is None else f"s = {self.scale:g}"
        exact = a_w.astype(np.float64) * self.multiplier
        rounded = _requantize_unchecked(a_w.astype(np.int64), self.multiplier, self.rounding)
        clipped = int(((rounded + zp < self.qmin) | (rounded + zp > self.qmax)).sum())
        raised = int((q_w < floor).sum())
        zp_term = f"+ {zp}" if zp >= 0 else f"- {-zp}"
        minus_zp = f"- {zp}" if zp >= 0 else f"+ {-zp}"
        note = (
            f"{raised} code{'s' if raised != 1 else ''} raised to the zero point"
            if raised
            else "nothing below the zero point"
        )
        lines = [
            f"pooled{where} = {out} ({self.dtype} code) = real ({out} {minus_zp}) * s = "
            f"{self._real_text(self.real(out))}",
            f"window: rows {r0}..{r0 + kh - 1}, cols {c0}..{c0 + kw - 1} of the "
            f"{acc.shape[0]}x{acc.shape[1]} plane",
            f"  (kernel {kh}x{kw}, stride {self.stride[0]}x{self.stride[1]}, no padding, "
            f"floor rule)",
            f"1. accumulators (int32)   {_fmt(a_w)}",
            f"   real acc * M * s       {self._real_text(exact)}   (M = {self.multiplier!r})",
            f"2. requantize, {self.rounding!r}: clamp(round(acc * M) {zp_term}, "
            f"{self.qmin}, {self.qmax})",
            f"   codes                  {_fmt(q_w)}"
            + (f"   {clipped} saturated" if clipped else ""),
            f"{f'   real (code {minus_zp}) * s':<25s} {self._real_text(self.real(q_w))}",
            f"3. ReLU at the real zero: max(code, max(qmin, zp)) = max(code, {floor})",
            f"   activated              {_fmt(x_w)}   {note}",
            f"   real                   {self._real_text(self.real(x_w))}",
            f"4. max pool: the largest code, {out}, first met at plane position ({wr}, {wc})",
            "   (row-major scan), is copied unchanged.",
            f"Input and output of the max pool share one scale ({s}) and one zero point ({zp}):",
            "as s > 0, the largest code is the code of the largest real value.",
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        head = (
            f"QuantChain({self.dtype} codes in [{self.qmin}, {self.qmax}], zero point "
            f"{self.zero_point}, M={self.multiplier!r}"
            + ("" if self.scale is None else f", scale={self.scale!r}")
            + f", rounding {self.rounding!r},\n           max pool {self.kernel[0]}x"
            f"{self.kernel[1]} stride {self.stride[0]}x{self.stride[1]} (floor rule): "
            f"{self.accumulators.shape} -> {self.pooled.shape})"
        )
        pad = " " * 16

        def row(name: str, arr: np.ndarray, note: str = "") -> str:
            text = np.array2string(arr, separator=", ", threshold=64, prefix=pad)
            return f"  {name:<14s}{text}{note}"

        return "\n".join(
            [
                head,
                row("accumulators", self.accumulators),
                row("codes", self.codes),
                row("activated", self.activated, f"   ReLU at max(qmin, zp) = {self.relu_floor}"),
                row("pooled", self.pooled),
            ]
        )


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


def relu_max_pool_chain(
    acc: ArrayLike,
    multiplier: float,
    zero_point: int,
    dtype: DTypeLike = "int8",
    kernel: int | Sequence[int] = 2,
    stride: int | Sequence[int] | None = 2,
    rounding: RequantRounding = "half_even",
    *,
    scale: float | None = None,
) -> QuantChain:
    """Run requantize -> ReLU at the zero point -> max pool and keep every stage.

    The story of seed 003: int32 accumulators become codes
    (:func:`requantize`), ReLU clamps them at the real zero, which is the
    zero point (:func:`relu`), and a max pool without padding under the
    floor rule (a 4x4 input gives 2x2 outputs, a 3x3 input 1x1) picks one code
    per window through the engine :func:`pooltutor.pooling.max_pool`.
    Input and output of the max pool share one scale and one zero point, so
    the pooled code needs no rescaling.

    Parameters
    ----------
    acc : array_like of int, shaped ``(H, W)`` or ``(N, C, H, W)``
        int32 accumulators (not modified).
    multiplier : float
        ``M = s_acc / s_out``, finite and > 0.
    zero_point : int
        The output zero point, inside the range of ``dtype``.
    dtype : {'int8', 'uint8', 'int16', 'uint16'} or numpy dtype
    kernel, stride : int or (int, int)
        ``stride=None`` means ``kernel``.
    rounding : str
        One of :data:`REQUANT_ROUNDINGS`.
    scale : float, optional
        The output scale ``s``, only used to write real values in
        ``explain()`` (otherwise they are written in units of ``s``).

    Returns
    -------
    QuantChain
        ``accumulators``, ``codes``, ``activated``, ``pooled`` (each 2-D for a
        2-D input, 4-D for a 4-D one), ``qmin``, ``qmax``, ``explain(i, j)``.

    Examples
    --------
    Zero point 128 (uint8): ReLU clamps at 128, not at 0.

    >>> ch = relu_max_pool_chain([[-2, 4], [6, -8]], 1.0, 128, dtype="uint8")
    >>> ch
    QuantChain(uint8 codes in [0, 255], zero point 128, M=1.0, rounding 'half_even',
               max pool 2x2 stride 2x2 (floor rule): (2, 2) -> (1, 1))
      accumulators  [[-2,  4],
                     [ 6, -8]]
      codes         [[126, 132],
                     [134, 120]]
      activated     [[128, 132],
                     [134, 128]]   ReLU at max(qmin, zp) = 128
      pooled        [[134]]
    >>> print(ch.explain(0, 0))
    pooled[0, 0] = 134 (uint8 code) = real (134 - 128) * s = 6 * s
    window: rows 0..1, cols 0..1 of the 2x2 plane
      (kernel 2x2, stride 2x2, no padding, floor rule)
    1. accumulators (int32)   [[-2, 4], [6, -8]]
       real acc * M * s       [[-2, 4], [6, -8]] * s   (M = 1.0)
    2. requantize, 'half_even': clamp(round(acc * M) + 128, 0, 255)
       codes                  [[126, 132], [134, 120]]
       real (code - 128) * s  [[-2, 4], [6, -8]] * s
    3. ReLU at the real zero: max(code, max(qmin, zp)) = max(code, 128)
       activated              [[128, 132], [134, 128]]   2 codes raised to the zero point
       real                   [[0, 4], [6, 0]] * s
    4. max pool: the largest code, 134, first met at plane position (1, 0)
       (row-major scan), is copied unchanged.
    Input and output of the max pool share one scale (s) and one zero point (128):
    as s > 0, the largest code is the code of the largest real value.

    A 3x3 input gives one output under the floor rule:

    >>> relu_max_pool_chain(np.arange(9).reshape(3, 3), 1.0, 0).pooled.tolist()
    [[4]]
    """
    from .pooling import max_pool

    acc64 = _check_accumulators(acc)
    if acc64.ndim not in (2, 4) or 0 in acc64.shape:
        raise PoolTutorError(
            f"acc has shape {acc64.shape}: need a non-empty (H, W) or (N, C, H, W) array"
        )
    multiplier = _check_positive_real("multiplier", multiplier)
    dtype = _dtype_name(dtype)
    zp = _check_zero_point(zero_point, dtype)
    kernel_t = check_per_axis("kernel", kernel, 2, minimum=1)
    stride_t = kernel_t if stride is None else check_per_axis("stride", stride, 2, minimum=1)
    check_choice("rounding", rounding, REQUANT_ROUNDINGS)
    if scale is not None:
        scale = _check_positive_real("scale", scale)
    geometry = pool_geometry(acc64.shape[-2:], kernel_t, stride_t, 0, rounding="floor")

    qmin, qmax = DTYPE_RANGES[dtype]
    codes = requantize(acc64, multiplier, zp, dtype, rounding)
    activated = relu(codes, zp, dtype)
    x4 = activated.reshape((1, 1) + activated.shape) if activated.ndim == 2 else activated
    pooled = max_pool(
        x4, kernel_t, stride_t, 0, rounding="floor", pad_taps="skip", return_indices=True
    )
    out, winners = pooled.output, cast(np.ndarray, pooled.indices)   # return_indices=True
    if acc64.ndim == 2:
        out, winners = out[0, 0], winners[0, 0]
    return QuantChain(
        accumulators=_frozen(acc64.astype(np.int32)),
        codes=_frozen(codes),
        activated=_frozen(activated),
        pooled=_frozen(np.array(out)),
        winners=_frozen(np.array(winners)),
        multiplier=multiplier,
        scale=scale,
        zero_point=zp,
        dtype=dtype,
        qmin=qmin,
        qmax=qmax,
        rounding=rounding,
        geometry=geometry,
    )
