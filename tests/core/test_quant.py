"""Tests of pooltutor.quant: the quantized stage chain of seed 003 (TV29-TV38).

Layers: (a) the spec's test vectors by hand; (b) cross-checks against ONNX
Runtime and PyTorch's quantized kernels; (c) Hypothesis properties against
plain Python-int / Fraction oracles written here; plus the pinned error
messages.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.quant import (
    DTYPE_RANGES,
    REQUANT_ROUNDINGS,
    QuantChain,
    _round_scaled,
    dequantize,
    dtype_range,
    quantize,
    quantize_multiplier,
    quantized_avg_pool,
    quantized_max_pool,
    relu,
    relu6,
    relu_max_pool_chain,
    requantize,
)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def plane(values, dtype):
    """A 2-D list as a (1, 1, H, W) array."""
    return np.array(values, dtype=dtype)[None, None]


# ============================================================== oracles (Python ints)


def frac_round(v: Fraction, mode: str) -> int:
    """Round an exact rational by ``mode``."""
    f = math.floor(v)
    r = v - f
    if r != Fraction(1, 2):
        return f + (r > Fraction(1, 2))
    if mode == "half_up":
        return f + 1
    if mode == "half_away":
        return f + 1 if v > 0 else f
    if mode == "half_even":
        return f if f % 2 == 0 else f + 1
    raise AssertionError(mode)


def port_quantize_multiplier(m: float, single: bool = False) -> tuple[int, int]:
    """tensorflow/lite/kernels/internal/common.cc QuantizeMultiplier, in Python ints."""
    if m == 0.0:
        return 0, 0
    q, shift = math.frexp(m)
    q_fixed = math.floor(Fraction(q) * 2**31 + Fraction(1, 2))  # std::round, q > 0
    assert q_fixed <= 2**31
    if q_fixed == 2**31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        shift, q_fixed = 0, 0
    if single and shift > 30:
        shift, q_fixed = 30, 2**31 - 1
    return q_fixed, shift


def c_div(a: int, b: int) -> int:
    """C integer division (truncation toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def port_srdhm(a: int, b: int) -> int:
    """gemmlowp SaturatingRoundingDoublingHighMul for int32."""
    overflow = a == b == INT32_MIN
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    return INT32_MAX if overflow else c_div(ab + nudge, 1 << 31)


def port_rdbp(x: int, exponent: int) -> int:
    """gemmlowp RoundingDivideByPOT."""
    assert 0 <= exponent <= 31
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def port_double(x: int, m: float) -> int:
    q, shift = port_quantize_multiplier(m)
    left, right = max(shift, 0), max(-shift, 0)
    # TFLite's int32 `x * (1 << left)` wraps on overflow; pooltutor saturates (documented)
    xs = min(max(x * (1 << left), INT32_MIN), INT32_MAX)
    return port_rdbp(port_srdhm(xs, q), right)


def port_single(x: int, m: float) -> int:
    q, shift = port_quantize_multiplier(m, single=True)
    total = 31 - shift
    return (x * q + (1 << (total - 1))) >> total


def oracle_requant(acc: int, m: float, zp: int, dtype: str, mode: str) -> int:
    if mode == "tflite_double":
        r = port_double(acc, m)
    elif mode == "tflite_single":
        r = port_single(acc, m)
    else:
        r = frac_round(acc * Fraction(m), mode)
    lo, hi = DTYPE_RANGES[dtype]
    return min(max(r + zp, lo), hi)


# ============================================================== (a) the seed-003 chains


def test_tv29_chain_zero_point_0():
    ch = relu_max_pool_chain(np.array([[-2, 4], [6, -8]]), multiplier=0.5, zero_point=0)
    assert ch.accumulators.tolist() == [[-2, 4], [6, -8]]
    assert ch.codes.tolist() == [[-1, 2], [3, -4]]
    assert ch.activated.tolist() == [[0, 2], [3, 0]]
    assert ch.pooled.tolist() == [[3]]
    assert ch.accumulators.dtype == np.int32 and ch.pooled.dtype == np.int8
    assert (ch.qmin, ch.qmax, ch.relu_floor) == (-128, 127, 0)


def test_tv30_zero_point_128_and_the_wrong_relu_that_it_cannot_detect():
    codes = np.array([[126, 132], [134, 120]], dtype=np.uint8)
    act = relu(codes, zero_point=128)
    assert act.tolist() == [[128, 132], [134, 128]] and act.dtype == np.uint8
    assert quantized_max_pool(act[None, None], 2).output.ravel().tolist() == [134]
    wrong = np.maximum(codes, 0)  # ReLU at the literal code 0
    assert wrong.max() == 134  # the seed's example cannot tell the two apart
    # the same through the whole chain (M = 1: acc = code - zp)
    ch = relu_max_pool_chain(codes.astype(np.int32) - 128, 1.0, 128, dtype="uint8")
    assert ch.codes.tolist() == codes.tolist()
    assert ch.activated.tolist() == [[128, 132], [134, 128]]
    assert ch.pooled.tolist() == [[134]]


def test_tv31_relu_at_literal_zero_gives_127_instead_of_128():
    codes = np.array([[126, 120], [110, 127]], dtype=np.uint8)  # every real value < 0
    assert relu(codes, 128).tolist() == [[128, 128], [128, 128]]
    assert quantized_max_pool(relu(codes, 128)[None, None], 2).output.item() == 128
    assert quantized_max_pool(np.maximum(codes, 0)[None, None], 2).output.item() == 127
    ch = relu_max_pool_chain(codes.astype(np.int32) - 128, 1.0, 128, dtype="uint8")
    assert ch.pooled.tolist() == [[128]]
    assert "4 codes raised to the zero point" in ch.explain(0, 0)


def test_seed_negative_window_max_is_minus_3():
    # the window [-8, -5; -3, -6] before ReLU: real values, scale 1, int8 zp 0
    window = np.array([[-8, -5], [-3, -6]])
    assert quantized_max_pool(plane(window, np.int8), 2).output.item() == -3
    ch = relu_max_pool_chain(window, 1.0, 0)
    assert ch.codes.max() == -3 and ch.pooled.item() == 0  # after ReLU: the real zero
    # with zp -128 (TFLite's usual int8 activations) ReLU clamps at -128: -3 survives
    ch = relu_max_pool_chain(window, 1.0, -128)
    assert ch.activated.tolist() == [[-128, -128], [-128, -128]]
    ch = relu_max_pool_chain(window, 1.0, -20)
    assert ch.activated.tolist() == [[-20, -20], [-20, -20]] and ch.pooled.item() == -20


def test_tv32_padding_is_skipped_never_the_zero_point():
    q = plane([[120, 126], [110, 100]], np.uint8)  # scale 0.5, zp 128
    r = quantized_max_pool(q, kernel=2, stride=1, padding=1)
    assert r.output[0, 0].tolist() == [[120, 126, 126], [120, 126, 126], [110, 110, 100]]
    assert r.output.dtype == np.uint8
    real = dequantize(r.output[0, 0], 0.5, 128)
    assert real.tolist() == [[-4, -1, -1], [-4, -1, -1], [-9, -9, -14]]
    # a zp-valued pad would wrongly win everywhere on the border
    padded = np.pad(q[0, 0], 1, constant_values=128)
    wrong = np.lib.stride_tricks.sliding_window_view(padded, (2, 2)).max(axis=(2, 3))
    assert wrong.tolist() == [[128, 128, 128], [128, 126, 128], [128, 128, 128]]
    # the lowest code is the one acceptable pad value: it never wins
    padded = np.pad(q[0, 0], 1, constant_values=0)
    lowest = np.lib.stride_tricks.sliding_window_view(padded, (2, 2)).max(axis=(2, 3))
    assert lowest.tolist() == r.output[0, 0].tolist()


def test_tv32_int8_padding_and_all_padding_windows_give_qmin():
    q = plane([[-100, -50], [-90, -120]], np.int8)
    r = quantized_max_pool(q, 2, 1, padding=1)
    assert r.output[0, 0].tolist() == [[-100, -50, -50], [-90, -50, -50], [-90, -90, -120]]
    # padding >= kernel: windows of padding only give the lowest code
    empty = quantized_max_pool(plane([[5]], np.int8), 1, 1, padding=1).output[0, 0]
    assert empty.tolist() == [[-128, -128, -128], [-128, 5, -128], [-128, -128, -128]]


@pytest.mark.parametrize(
    ("shape", "out"), [((4, 4), (2, 2)), ((3, 3), (1, 1)), ((5, 5), (2, 2)), ((2, 6), (1, 3))]
)
def test_tv33_floor_rule_shapes(shape, out):
    acc = np.arange(math.prod(shape)).reshape(shape)
    ch = relu_max_pool_chain(acc, 1.0, 0)
    assert ch.pooled.shape == out
    for stage in (ch.accumulators, ch.codes, ch.activated):
        assert stage.shape == shape
    n = math.prod(out)
    assert ch.pooled.size == n  # 4x4 -> four outputs, 3x3 -> one


def test_tv33_four_outputs_from_4x4_and_one_from_3x3_by_value():
    acc = np.arange(16).reshape(4, 4)
    assert relu_max_pool_chain(acc, 1.0, 0).pooled.tolist() == [[5, 7], [13, 15]]
    acc = np.arange(9).reshape(3, 3)  # the last row and column are dropped
    assert relu_max_pool_chain(acc, 1.0, 0).pooled.tolist() == [[4]]


def test_chain_4d_input_gives_4d_stages_and_explain_takes_four_indices():
    acc = np.arange(-32, 32).reshape(2, 2, 4, 4)
    ch = relu_max_pool_chain(acc, 0.5, -10, dtype="int8", rounding="half_away")
    assert ch.codes.shape == (2, 2, 4, 4) and ch.pooled.shape == (2, 2, 2, 2)
    expected = requantize(acc, 0.5, -10, "int8", "half_away")
    assert ch.codes.tolist() == expected.tolist()
    act = np.maximum(expected, -10)
    want = act.reshape(2, 2, 2, 2, 2, 2).max(axis=(3, 5))
    assert ch.pooled.tolist() == want.tolist()
    text = ch.explain(1, 0, 1, 1)
    assert text.startswith(f"pooled[1, 0, 1, 1] = {want[1, 0, 1, 1]} (int8 code)")
    with pytest.raises(PoolTutorError, match=r"need \(n, c, i, j\)"):
        ch.explain(0, 0)


def test_chain_explain_words_real_units_and_winner():
    ch = relu_max_pool_chain([[-2, 4, 1, 1], [6, -8, 1, 1]], 0.5, 0, scale=0.1)
    text = ch.explain(0, 0)
    assert "pooled[0, 0] = 3 (int8 code) = real (3 - 0) * s = 0.3" in text
    assert "[[-2, 4], [6, -8]]" in text  # the window's accumulators
    assert "[[-1, 2], [3, -4]]" in text  # their codes
    assert "max(code, 0)" in text and "2 codes raised to the zero point" in text
    assert "[[-0.1, 0.2], [0.3, -0.4]]" in text  # real units
    assert "plane position (1, 0)" in text  # which code won
    assert "share one scale (s = 0.1) and one zero point (0)" in text
    assert "rows 0..1, cols 0..1" in text
    assert "rows 0..1, cols 2..3" in ch.explain(0, 1)
    with pytest.raises(PoolTutorError, match=r"index=\(0, 2\) is outside the pooled stage"):
        ch.explain(0, 2)
    with pytest.raises(PoolTutorError, match=r"need \(i, j\)"):
        ch.explain(0, 0, 0, 0)


def test_chain_explain_reports_saturation_and_negative_zero_point():
    ch = relu_max_pool_chain([[1000, 2], [3, 4]], 1.0, -5)
    text = ch.explain(0, 0)
    assert "1 saturated" in text
    assert "clamp(round(acc * M) - 5, -128, 127)" in text
    assert "(127 + 5) * s = 132 * s" in text


def test_chain_repr_teaches():
    ch = relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)
    text = repr(ch)
    assert text.startswith("QuantChain(int8 codes in [-128, 127], zero point 0, M=0.5")
    for name in ("accumulators", "codes", "activated", "pooled"):
        assert f"\n  {name}" in text
    assert "ReLU at max(qmin, zp) = 0" in text


def test_chain_is_frozen_read_only_and_does_not_touch_its_input():
    acc = np.array([[-2, 4], [6, -8]], dtype=np.int32)
    before = acc.copy()
    ch = relu_max_pool_chain(acc, 0.5, 0)
    assert isinstance(ch, QuantChain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ch.pooled = None  # type: ignore[misc]
    for stage in (ch.accumulators, ch.codes, ch.activated, ch.pooled, ch.winners):
        with pytest.raises(ValueError, match="read-only"):
            stage[...] = 0
    assert (acc == before).all() and acc.flags.writeable
    assert not np.shares_memory(ch.accumulators, acc)


def test_chain_rounding_modes_and_quantized_multiplier():
    acc = np.array([[5, -5], [3, -3]])
    for mode in REQUANT_ROUNDINGS:
        ch = relu_max_pool_chain(acc, 0.5, 0, rounding=mode, kernel=1, stride=1)
        assert ch.codes.tolist() == requantize(acc, 0.5, 0, rounding=mode).tolist()
        assert ch.pooled.tolist() == ch.activated.tolist()  # a 1x1 pool copies
    assert relu_max_pool_chain(acc, 0.3, 0).quantized_multiplier == (1288490189, -1)


# ============================================================== quantize / dequantize

TV34_X = [2.5, -2.5, 1.5, -1.5, 0.5, -0.5, 127.5, -128.5, 300.0, -300.0]


def test_tv34_quantize_ties_and_saturation():
    x = np.array(TV34_X, dtype=np.float32)
    assert quantize(x, 1.0, 0, "int8").tolist() == [2, -2, 2, -2, 0, 0, 127, -128, 127, -128]
    assert quantize(x, 1.0, 128, "uint8").tolist() == [
        130,
        126,
        130,
        126,
        128,
        128,
        255,
        0,
        255,
        0,
    ]
    assert quantize(x, 1.0, 0, "int8").dtype == np.int8


def test_quantize_infinities_dtypes_and_shapes():
    assert quantize([np.inf, -np.inf], 0.1, 0, "int16").tolist() == [32767, -32768]
    assert quantize(np.float32(1.0), 0.5, 3, np.uint16).item() == 5
    assert quantize(np.zeros((2, 3)), 1.0, 7).shape == (2, 3)
    assert quantize(np.arange(3), 1.0, 0, "int8").tolist() == [0, 1, 2]  # ints are fine
    # scales that are no float32 (the division then runs in float64)
    x32 = np.array([0.0, 1.0, -1.0], np.float32)
    assert quantize(x32, 1e-50, 0, "int8").tolist() == [0, 127, -128]
    assert quantize(x32, 1e300, 0, "int8").tolist() == [0, 0, 0]


def test_dequantize_and_relu6():
    q = np.array([0, 128, 255], dtype=np.uint8)
    d = dequantize(q, 0.5, 128)
    assert d.dtype == np.float32 and d.tolist() == [-64.0, 0.0, 63.5]
    assert dequantize([-128, 127], 1.0, 0, dtype="int8").tolist() == [-128.0, 127.0]
    # relu6: the code of 6.0 with scale 0.1 and zp -128 is -68
    q = np.array([-128, -100, -68, -67, 127], dtype=np.int8)
    assert relu6(q, 0.1, -128).tolist() == [-128, -100, -68, -68, -68]
    # 6 / scale beyond the range: the upper clamp is qmax
    assert relu6(np.array([0, 255], np.uint8), 0.01, 0).tolist() == [0, 255]
    # ties of 6 / scale go to even, as QuantizeLinear (6 / 2.4 = 2.5 -> 2)
    assert relu6(np.array([0, 1, 2, 3, 9], np.uint8), 2.4, 0).tolist() == [0, 1, 2, 2, 2]


def test_dtype_range_table():
    assert dtype_range("uint8") == (0, 255) and dtype_range(np.dtype("int8")) == (-128, 127)
    assert dtype_range(np.int16) == (-32768, 32767) and dtype_range("uint16") == (0, 65535)
    for name, (lo, hi) in DTYPE_RANGES.items():
        info = np.iinfo(name)
        assert (lo, hi) == (info.min, info.max)


# ============================================================== requantize: TV35, TV36

TV35 = {
    0.5: (
        [5, -5, 3, -3, 1, -1, 7, -7],
        {
            "half_even": [2, -2, 2, -2, 0, 0, 4, -4],
            "half_away": [3, -3, 2, -2, 1, -1, 4, -4],
            "half_up": [3, -2, 2, -1, 1, 0, 4, -3],
            "tflite_double": [3, -2, 2, -1, 1, 0, 4, -3],
            "tflite_single": [3, -2, 2, -1, 1, 0, 4, -3],
        },
    ),
    0.25: (
        [2, -2, 6, -6, 10, -10],
        {
            "half_even": [0, 0, 2, -2, 2, -2],
            "half_away": [1, -1, 2, -2, 3, -3],
            "half_up": [1, 0, 2, -1, 3, -2],
            "tflite_double": [1, -1, 2, -2, 3, -3],
            "tflite_single": [1, 0, 2, -1, 3, -2],
        },
    ),
}


@pytest.mark.parametrize("multiplier", sorted(TV35))
@pytest.mark.parametrize("rounding", REQUANT_ROUNDINGS)
def test_tv35_requantize_ties(multiplier, rounding):
    acc, expected = TV35[multiplier]
    out = requantize(np.array(acc, dtype=np.int32), multiplier, 0, "int8", rounding)
    assert out.tolist() == expected[rounding]
    assert out.dtype == np.int8


def test_tv35_tv36_quantize_multiplier():
    assert quantize_multiplier(0.5) == (2**30, 0)
    assert quantize_multiplier(0.25) == (2**30, -1)
    assert quantize_multiplier(0.3) == (1288490189, -1)
    # rounding the mantissa up to 2**31 halves it and bumps the shift
    assert quantize_multiplier(1 - 2**-40) == (2**30, 1)
    assert quantize_multiplier(2.0**-40) == (0, 0)  # flushed: shift < -31
    assert quantize_multiplier(2.0**40) == (2**30, 41)
    assert quantize_multiplier(2.0**40, single_rounding=True) == (2**31 - 1, 30)


@pytest.mark.parametrize(
    ("rounding", "expected"),
    [
        ("half_even", -59),
        ("half_away", -59),
        ("half_up", -59),
        ("tflite_single", -59),
        ("tflite_double", -60),
    ],
)
def test_tv36_double_rounding_off_by_one(rounding, expected):
    assert requantize([-198], 0.3, 0, rounding=rounding).tolist() == [expected]


def test_requantize_zero_point_saturation_and_extremes():
    acc = np.array([INT32_MIN, -1000, 0, 1000, INT32_MAX])
    for mode in REQUANT_ROUNDINGS:
        out = requantize(acc, 0.1, 100, "uint8", mode)
        assert out.tolist() == [0, 0, 100, 200, 255], mode
        huge = requantize(acc, 1e30, 0, "int16", mode)
        assert huge.tolist() == [-32768, -32768, 0, 32767, 32767], mode
        tiny = requantize(acc, 5e-324, -3, "int8", mode)
        assert tiny.tolist() == [-3] * 5, mode


def test_half_modes_round_the_exact_product_not_a_float_product():
    # 0.1 is 0x3FB999999999999A, a little above 1/10: 25 * 0.1 is exactly
    # 2.5000000000000001387..., so every half mode rounds it up to 3, while the
    # float product 25 * 0.1 == 2.5 would tie to 2 under half_even
    assert 25 * 0.1 == 2.5 and np.rint(25 * 0.1) == 2
    for mode in ("half_even", "half_away", "half_up"):
        assert requantize([25, -25], 0.1, 0, rounding=mode).tolist() == [3, -3]


# ============================================================== relu: TV37 and friends


def test_tv37_quantized_relu_keeps_codes_below_literal_zero():
    codes = np.array([-100, -5, 0, 7], dtype=np.int8)
    assert relu(codes, -20).tolist() == [-20, -5, 0, 7]
    real = dequantize(relu(codes, -20), 1.0, -20)
    assert real.tolist() == [0.0, 15.0, 20.0, 27.0]


def test_relu_dtype_argument_and_inputs_untouched():
    q = [126, 132, 134, 120]
    assert relu(q, 128, dtype="uint8").tolist() == [128, 132, 134, 128]
    arr = np.array([[-3, 4]], dtype=np.int8)
    before = arr.copy()
    out = relu(arr, 0)
    assert out.tolist() == [[0, 4]] and (arr == before).all()
    assert not np.shares_memory(out, arr)
    for fn in (
        lambda a: quantize(a, 0.5, 0, "int8"),
        lambda a: requantize(a, 0.5, 0),
        lambda a: dequantize(a, 0.5, 0),
        lambda a: relu6(a, 0.5, 0),
    ):
        a = np.array([[-3, 4]], dtype=np.int8)
        fn(a)
        assert (a == before).all()


# ============================================================== quantized average pool


def test_tv38_average_rounding_torch_half_even_tflite_half_away():
    q = np.array(
        [[[[1, 2], [1, 2]]], [[[2, 3], [2, 3]]], [[[1, 2], [2, 2]]], [[[0, 0], [0, 2]]]],
        dtype=np.uint8,
    )
    assert quantized_avg_pool(q, 2).ravel().tolist() == [2, 2, 2, 0]
    assert quantized_avg_pool(q, 2, rounding="half_away").ravel().tolist() == [2, 3, 2, 1]
    assert quantized_avg_pool(q, 2, rounding="half_up").ravel().tolist() == [2, 3, 2, 1]
    assert quantized_avg_pool(q, 2, rounding="trunc").ravel().tolist() == [1, 2, 1, 0]


def test_average_negative_ties_modes_and_padding():
    q = plane([[-3, -2]], np.int8)  # mean -2.5
    got = {
        m: quantized_avg_pool(q, (1, 2), rounding=m).item()
        for m in ("half_even", "half_away", "half_up", "trunc")
    }
    assert got == {"half_even": -2, "half_away": -3, "half_up": -2, "trunc": -2}
    # padding: excluded from the divisor, or counted as the real zero (the code zp)
    q = plane([[10, 20], [30, 41]], np.uint8)
    assert quantized_avg_pool(q, 2, 1, padding=1, zero_point=4)[0, 0].tolist() == [
        [10, 15, 20],
        [20, 25, 30],
        [30, 36, 41],
    ]
    inc = quantized_avg_pool(q, 2, 1, padding=1, zero_point=4, count_include_pad=True)
    # corner (0, 0): (10 + 3 * 4) / 4 = 5.5 -> 6; (0, 1): (10 + 20 + 2 * 4) / 4 = 9.5 -> 10;
    # centre (10 + 20 + 30 + 41) / 4 = 25.25 -> 25; corner (2, 2): (41 + 12) / 4 = 13.25 -> 13
    assert inc[0, 0].tolist() == [[6, 10, 8], [12, 25, 17], [10, 20, 13]]


def test_average_mean_of_codes_versus_centred_with_an_odd_zero_point():
    q = plane([[-3, 2]], np.int8)  # codes mean -0.5; zp 3: centred mean -3.5
    assert quantized_avg_pool(q, (1, 2), zero_point=3).item() == 0
    assert quantized_avg_pool(q, (1, 2), zero_point=3, mean_of="centred").item() == -1


# ============================================================== (b) ONNX Runtime


def _ort_session(model):
    ort = pytest.importorskip("onnxruntime")
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def _onnx_model(nodes, inputs, outputs, opset):
    onnx = pytest.importorskip("onnx")
    graph = onnx.helper.make_graph(nodes, "g", inputs, outputs)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", opset)])
    model.ir_version = 10
    onnx.checker.check_model(model)
    return model


ONNX_ELEM = {"int8": 3, "uint8": 2, "int16": 5, "uint16": 4}  # onnx.TensorProto codes


def _quantize_linear_session(dtype):
    from onnx import TensorProto, helper

    elem = ONNX_ELEM[dtype]
    model = _onnx_model(
        [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [None]),
            helper.make_tensor_value_info("s", TensorProto.FLOAT, []),
            helper.make_tensor_value_info("z", elem, []),
        ],
        [helper.make_tensor_value_info("y", elem, [None])],
        21,
    )
    return _ort_session(model)


def _run_quantize_linear(sess, x, scale, zp, dtype):
    feeds = {
        "x": np.asarray(x, np.float32),
        "s": np.array(scale, np.float32),
        "z": np.array(zp, dtype),
    }
    return sess.run(None, feeds)[0]


@pytest.mark.onnx
@pytest.mark.parametrize(
    ("dtype", "zp"), [("int8", 0), ("uint8", 128), ("int16", -7), ("uint16", 3)]
)
def test_tv34_quantize_matches_onnxruntime(dtype, zp):
    pytest.importorskip("onnx")
    sess = _quantize_linear_session(dtype)
    x = np.array(TV34_X, dtype=np.float32)
    assert (
        quantize(x, 1.0, zp, dtype).tolist()
        == _run_quantize_linear(sess, x, 1.0, zp, dtype).tolist()
    )
    rng = np.random.default_rng(34)
    for scale in (0.5, 0.25, 1 / 64):  # exact .5 ties: x = (k + 1/2) * scale
        ties = ((rng.integers(-300, 300, 200) + 0.5) * scale).astype(np.float32)
        mine = quantize(ties, scale, zp, dtype)
        assert mine.tolist() == _run_quantize_linear(sess, ties, scale, zp, dtype).tolist()
    for _ in range(5):  # generic float32 values and scales
        scale = np.float32(rng.uniform(1e-3, 2.0))
        x = (rng.standard_normal(500) * 200).astype(np.float32)
        mine = quantize(x, scale, zp, dtype)
        assert mine.tolist() == _run_quantize_linear(sess, x, scale, zp, dtype).tolist()


@pytest.mark.onnx
def test_dequantize_matches_onnxruntime():
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    model = _onnx_model(
        [helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"])],
        [
            helper.make_tensor_value_info("q", TensorProto.UINT8, [None]),
            helper.make_tensor_value_info("s", TensorProto.FLOAT, []),
            helper.make_tensor_value_info("z", TensorProto.UINT8, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None])],
        21,
    )
    sess = _ort_session(model)
    q = np.arange(256, dtype=np.uint8)
    want = sess.run(None, {"q": q, "s": np.array(0.037, np.float32), "z": np.array(131, np.uint8)})[
        0
    ]
    got = dequantize(q, np.float32(0.037), 131)
    assert got.dtype == np.float32 and np.array_equal(got, want)


@pytest.mark.onnx
def test_tv37_onnx_relu_on_int8_codes_is_wrong_unless_zp_is_0():
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    model = _onnx_model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.INT8, [4])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [4])],
        14,
    )
    codes = np.array([-100, -5, 0, 7], dtype=np.int8)
    onnx_out = _ort_session(model).run(None, {"x": codes})[0]
    assert onnx_out.tolist() == [0, 0, 0, 7]
    assert dequantize(onnx_out, 1.0, -20).tolist() == [20.0, 20.0, 20.0, 27.0]  # wrong reals
    assert relu(codes, -20).tolist() == [-20, -5, 0, 7]
    assert relu(codes, 0).tolist() == onnx_out.tolist()  # the one case where they agree


# ============================================================== (b) PyTorch quantized kernels

_TORCH_WARNINGS = pytest.mark.filterwarnings("ignore:.*deprecated:UserWarning")
_TORCH_QDTYPE = {"uint8": "quint8", "int8": "qint8"}


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _tq(torch, codes, scale, zp):
    """A per-tensor quantized torch tensor holding exactly ``codes``."""
    return torch._make_per_tensor_quantized_tensor(torch.from_numpy(np.array(codes)), scale, zp)


@pytest.mark.torch
@_TORCH_WARNINGS
@pytest.mark.parametrize(("dtype", "zp"), [("uint8", 128), ("int8", 0), ("int8", -6)])
def test_quantize_matches_torch_quantize_per_tensor(torch, dtype, zp):
    rng = np.random.default_rng(7)
    for scale in (1.0, 0.5, 0.125):  # power-of-two scales: no reciprocal rounding question
        x = (rng.integers(-2400, 2400, 400) / 8).astype(np.float32)  # many exact ties
        want = torch.quantize_per_tensor(
            torch.from_numpy(x), scale, zp, getattr(torch, _TORCH_QDTYPE[dtype])
        ).int_repr()
        assert quantize(x, scale, zp, dtype).tolist() == want.numpy().tolist()
    x = np.array(TV34_X, np.float32)
    want = torch.quantize_per_tensor(
        torch.from_numpy(x), 1.0, zp, getattr(torch, _TORCH_QDTYPE[dtype])
    ).int_repr()
    assert quantize(x, 1.0, zp, dtype).tolist() == want.numpy().tolist()


@pytest.mark.torch
@_TORCH_WARNINGS
@pytest.mark.parametrize("zp", [-5, 3, 101])
def test_torch_quantize_per_tensor_breaks_ties_on_the_code_when_zp_is_odd(torch, zp):
    # QuantizeLinear rounds x / scale, then adds zp: a tie goes to an even *step*.
    # torch rounds x / scale + zp: a tie goes to an even *code*.  Same for even zp.
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.25], np.float32)
    want = torch.quantize_per_tensor(torch.from_numpy(x), 1.0, zp, torch.qint8).int_repr()
    torch_rule = np.clip(np.rint(x.astype(np.float64) + zp), -128, 127).astype(np.int8)
    assert want.numpy().tolist() == torch_rule.tolist()
    mine = quantize(x, 1.0, zp, "int8")
    assert mine.tolist() == np.clip(np.rint(x) + zp, -128, 127).tolist()
    ties = np.abs(x - np.floor(x)) == 0.5
    theirs = want.numpy()
    assert (mine[ties] != theirs[ties]).all() and (mine[~ties] == theirs[~ties]).all()


@pytest.mark.torch
@_TORCH_WARNINGS
def test_relu_matches_torch_quantized_relu(torch):
    for codes in ([[126, 132], [134, 120]], [[126, 120], [110, 127]]):  # TV30, TV31
        c = np.array(codes, np.uint8)
        want = torch.relu(_tq(torch, c, 1.0, 128)).int_repr().numpy()
        assert relu(c, 128).tolist() == want.tolist()
    rng = np.random.default_rng(3)
    for dtype in ("uint8", "int8"):
        lo, hi = DTYPE_RANGES[dtype]
        for _ in range(20):
            zp = int(rng.integers(lo, hi + 1))
            c = rng.integers(lo, hi + 1, 50).astype(dtype)
            want = torch.relu(_tq(torch, c, 0.3, zp)).int_repr().numpy()
            assert relu(c, zp).tolist() == want.tolist()


@pytest.mark.torch
@_TORCH_WARNINGS
def test_quantized_max_pool_matches_torch(torch):
    q = plane([[120, 126], [110, 100]], np.uint8)  # TV32
    want = torch.nn.functional.max_pool2d(_tq(torch, q, 0.5, 128), 2, 1, padding=1)
    assert quantized_max_pool(q, 2, 1, 1).output.tolist() == want.int_repr().numpy().tolist()
    rng = np.random.default_rng(32)
    for dtype in ("uint8", "int8"):
        lo, hi = DTYPE_RANGES[dtype]
        for kernel, stride, pad in [(2, 2, 0), (2, 1, 1), (3, 2, 1), (3, 1, 0)]:
            q = rng.integers(lo, hi + 1, (2, 3, 6, 5)).astype(dtype)
            want = (
                torch.nn.functional.max_pool2d(_tq(torch, q, 0.1, 3), kernel, stride, padding=pad)
                .int_repr()
                .numpy()
            )
            got = quantized_max_pool(q, kernel, stride, pad).output
            assert got.tolist() == want.tolist(), (dtype, kernel, stride, pad)


@pytest.mark.torch
@_TORCH_WARNINGS
def test_quantized_avg_pool_matches_torch(torch):
    q = np.array(
        [[[[1, 2], [1, 2]]], [[[2, 3], [2, 3]]], [[[1, 2], [2, 2]]], [[[0, 0], [0, 2]]]], np.uint8
    )  # TV38
    want = torch.nn.functional.avg_pool2d(_tq(torch, q, 1.0, 0), 2).int_repr().numpy()
    assert want.ravel().tolist() == [2, 2, 2, 0]
    assert quantized_avg_pool(q, 2).tolist() == want.tolist()
    rng = np.random.default_rng(38)
    for dtype in ("uint8", "int8"):
        lo, hi = DTYPE_RANGES[dtype]
        # power-of-two divisors (1, 2, 4): torch's float multiplier is then exact
        for stride, pad, include in [(2, 0, False), (1, 0, True), (1, 1, False), (1, 1, True)]:
            zp = int(rng.integers(lo, hi + 1))
            q = rng.integers(lo, hi + 1, (2, 2, 5, 6)).astype(dtype)
            want = torch.nn.functional.avg_pool2d(
                _tq(torch, q, 0.5, zp), 2, stride, padding=pad, count_include_pad=include
            )
            got = quantized_avg_pool(q, 2, stride, pad, zero_point=zp, count_include_pad=include)
            assert got.tolist() == want.int_repr().numpy().tolist(), (dtype, stride, pad, include)


@pytest.mark.torch
@_TORCH_WARNINGS
def test_quantized_avg_pool_centred_matches_torch_qnnpack_uint8(torch):
    if "qnnpack" not in torch.backends.quantized.supported_engines:
        pytest.skip("qnnpack engine not built")
    old = torch.backends.quantized.engine
    torch.backends.quantized.engine = "qnnpack"
    try:
        rng = np.random.default_rng(5)
        for _ in range(10):
            zp = int(rng.integers(0, 256)) | 1  # odd zero points show the difference
            q = rng.integers(0, 256, (1, 2, 4, 6)).astype(np.uint8)
            want = torch.nn.functional.avg_pool2d(_tq(torch, q, 0.5, zp), 2)
            got = quantized_avg_pool(q, 2, zero_point=zp, mean_of="centred")
            assert got.tolist() == want.int_repr().numpy().tolist()
    finally:
        torch.backends.quantized.engine = old


# ============================================================== (c) properties

dtypes = st.sampled_from(sorted(DTYPE_RANGES))


@st.composite
def codes_and_zp(draw, dtype=None):
    dtype = dtype or draw(dtypes)
    lo, hi = DTYPE_RANGES[dtype]
    n = draw(st.integers(1, 12))
    q = np.array(draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n)), dtype=dtype)
    return q, draw(st.integers(lo, hi)), dtype


@settings(max_examples=60)
@given(codes_and_zp())
def test_relu_is_idempotent_in_range_and_clamps_at_the_zero_point(args):
    q, zp, dtype = args
    lo, hi = DTYPE_RANGES[dtype]
    r = relu(q, zp)
    assert r.dtype == np.dtype(dtype)
    assert (relu(r, zp) == r).all()
    assert (r >= max(lo, zp)).all() and (r <= hi).all()
    assert (r[q >= zp] == q[q >= zp]).all()


@settings(max_examples=60)
@given(codes_and_zp(), st.data())
def test_relu_is_monotone(args, data):
    q, zp, dtype = args
    lo, hi = DTYPE_RANGES[dtype]
    bump = np.array(data.draw(st.lists(st.integers(0, hi - lo), min_size=q.size, max_size=q.size)))
    q2 = np.minimum(q.astype(np.int64) + bump, hi).astype(dtype)  # q2 >= q elementwise
    assert (relu(q2, zp) >= relu(q, zp)).all()


@settings(max_examples=80)
@given(dtypes, st.data(), st.floats(1e-3, 1e3))
def test_dequantize_quantize_round_trip_within_half_a_step(dtype, data, scale):
    lo, hi = DTYPE_RANGES[dtype]
    zp = data.draw(st.integers(lo, hi))
    x = data.draw(st.floats((lo - zp) * scale, (hi - zp) * scale))
    q = quantize(np.array([x]), scale, zp, dtype)
    assert lo <= int(q[0]) <= hi
    back = float(dequantize(q, scale, zp)[0])
    assert abs(back - x) <= scale / 2 + 2**-22 * max(abs(x), scale)


acc_values = st.one_of(st.integers(INT32_MIN, INT32_MAX), st.integers(-70000, 70000))
multipliers = st.one_of(
    st.floats(1e-12, 1e4),
    st.integers(-40, 12).map(lambda e: 2.0**e),  # dyadic: exact ties are common
    st.integers(1, 2**20).flatmap(lambda n: st.integers(1, 40).map(lambda k: n / 2.0**k)),
    st.floats(5e-324, 1e300),
)


@settings(max_examples=150)
@given(
    st.lists(acc_values, min_size=1, max_size=16),
    multipliers,
    st.sampled_from(["half_even", "half_away", "half_up"]),
)
def test_half_modes_equal_exact_fraction_rounding(acc, m, mode):
    got = _round_scaled(np.array(acc, dtype=np.int64), m, mode)
    for a, g in zip(acc, got.tolist(), strict=True):
        exact = a * Fraction(m)
        if abs(exact) < 2**39:
            assert g == frac_round(exact, mode), (a, m)
        elif abs(exact) > 2**41:
            assert g == (2**40 if exact > 0 else -(2**40))
    zp = 5
    out = requantize(acc, m, zp, "int16", mode).tolist()
    assert out == [oracle_requant(a, m, zp, "int16", mode) for a in acc]


@settings(max_examples=150)
@given(
    st.lists(acc_values, min_size=1, max_size=16),
    multipliers,
    st.sampled_from(["tflite_double", "tflite_single"]),
    codes_and_zp(),
)
def test_tflite_modes_equal_a_python_int_port_of_gemmlowp(acc, m, mode, q_zp):
    _, zp, dtype = q_zp
    got = requantize(np.array(acc, dtype=np.int32), m, zp, dtype, mode).tolist()
    assert got == [oracle_requant(a, m, zp, dtype, mode) for a in acc]


@settings(max_examples=100)
@given(st.floats(5e-324, 1e300), st.booleans())
def test_quantize_multiplier_equals_the_port(m, single):
    q, shift = quantize_multiplier(m, single_rounding=single)
    assert (q, shift) == port_quantize_multiplier(m, single)
    if q:
        assert 2**30 <= q < 2**31 and -31 <= shift


@settings(max_examples=50)
@given(st.integers(1, 3), st.integers(1, 2), st.integers(2, 7), st.integers(2, 7), st.data())
def test_chain_pool_equals_a_plain_window_max(k, s, h, w, data):
    kernel, stride = k, s
    if (h - k) < 0 or (w - k) < 0:
        return
    acc = np.array(
        data.draw(st.lists(st.integers(-3000, 3000), min_size=h * w, max_size=h * w))
    ).reshape(h, w)
    zp = data.draw(st.integers(-128, 127))
    ch = relu_max_pool_chain(acc, 0.05, zp, kernel=kernel, stride=stride)
    win = np.lib.stride_tricks.sliding_window_view(ch.activated, (k, k))[::s, ::s]
    assert ch.pooled.tolist() == win.max(axis=(2, 3)).tolist()
    assert (ch.pooled >= zp).all()


@settings(max_examples=60)
@given(
    st.sampled_from(["uint8", "int8"]),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(0, 1),
    st.booleans(),
    st.sampled_from(["codes", "centred"]),
    st.sampled_from(["half_even", "half_away", "half_up", "trunc"]),
    st.data(),
)
def test_quantized_avg_pool_equals_a_fraction_loop(
    dtype, k, s, pad, include, mean_of, rounding, data
):
    lo, hi = DTYPE_RANGES[dtype]
    h, w = data.draw(st.integers(k, 5)), data.draw(st.integers(k, 5))
    q = np.array(
        data.draw(st.lists(st.integers(lo, hi), min_size=h * w, max_size=h * w)), dtype=dtype
    ).reshape(h, w)
    zp = data.draw(st.integers(lo, hi))
    got = quantized_avg_pool(
        q[None, None], k, s, pad, rounding, zp, count_include_pad=include, mean_of=mean_of
    )[0, 0]
    shift = zp if mean_of == "centred" else 0
    for i in range(got.shape[0]):
        for j in range(got.shape[1]):
            taps = [(i * s - pad + a, j * s - pad + b) for a in range(k) for b in range(k)]
            vals = [int(q[r, c]) - shift for r, c in taps if 0 <= r < h and 0 <= c < w]
            n = k * k if include else len(vals)
            if n == 0:  # a window of padding only: the real zero
                assert int(got[i, j]) == zp
                continue
            total = sum(vals) + (n - len(vals)) * (zp - shift)
            mean = Fraction(total, n)
            if rounding == "trunc":
                r = math.trunc(mean)
            else:
                r = frac_round(mean, rounding)
            assert int(got[i, j]) == min(max(r + shift, lo), hi)


# ============================================================== bad input, pinned messages

BAD = [
    (
        lambda: quantize([1.0], 0.0, 0),
        PoolTutorError,
        r"scale=0.0 is not allowed: need a finite float > 0",
    ),
    (lambda: quantize([1.0], float("nan"), 0), PoolTutorError, r"scale=nan is not allowed"),
    (lambda: quantize([1.0], -1, 0), PoolTutorError, r"scale=-1 is not allowed"),
    (lambda: quantize([1.0], "1", 0), PoolTutorTypeError, r"scale='1' has type str"),
    (
        lambda: quantize([1.0], 1.0, 300),
        PoolTutorError,
        r"zero_point=300 is outside the uint8 range: need 0 <= zero_point <= 255",
    ),
    (lambda: quantize([1.0], 1.0, -1, "uint8"), PoolTutorError, r"zero_point=-1 is outside"),
    (lambda: quantize([1.0], 1.0, 0.5), PoolTutorTypeError, r"zero_point=0.5 has type float"),
    (
        lambda: quantize([1.0], 1.0, 0, "float32"),
        PoolTutorError,
        r"dtype='float32' is not allowed: need one of 'uint8', 'int8', 'uint16', 'int16'",
    ),
    (lambda: quantize([1.0], 1.0, 0, np.int32), PoolTutorError, r"dtype=.*int32.* not allowed"),
    (lambda: quantize([1.0], 1.0, 0, 3), PoolTutorTypeError, r"dtype=3 has type int"),
    (lambda: quantize([np.nan], 1.0, 0), PoolTutorError, r"x contains NaN"),
    (lambda: quantize(["a"], 1.0, 0), PoolTutorTypeError, r"x has dtype <U1"),
    (
        lambda: requantize(np.array([1.5]), 0.5, 0),
        PoolTutorTypeError,
        r"acc has dtype float64: accumulators must be an integer array",
    ),
    (
        lambda: requantize(np.array([2**31]), 0.5, 0),
        PoolTutorError,
        r"acc holds 2147483648, outside the int32 range \[-2147483648, 2147483647\]",
    ),
    (lambda: requantize(np.array([True]), 0.5, 0), PoolTutorTypeError, r"acc has dtype bool"),
    (
        lambda: requantize([1], 0.5, 0, rounding="nearest"),
        PoolTutorError,
        r"rounding='nearest' is not allowed: need one of 'half_even', 'half_away', 'half_up', "
        r"'tflite_double', 'tflite_single'",
    ),
    (lambda: requantize([1], float("inf"), 0), PoolTutorError, r"multiplier=inf is not allowed"),
    (lambda: requantize([1], 0, 0), PoolTutorError, r"multiplier=0 is not allowed"),
    (lambda: requantize([1], True, 0), PoolTutorTypeError, r"multiplier=True has type bool"),
    (
        lambda: requantize([1], 0.5, 128),
        PoolTutorError,
        r"zero_point=128 is outside the int8 range: need -128 <= zero_point <= 127",
    ),
    (lambda: requantize([1], 0.5, 0, dtype="int4"), PoolTutorError, r"dtype='int4' is not"),
    (lambda: quantize_multiplier(-0.5), PoolTutorError, r"multiplier=-0.5 is not allowed"),
    (
        lambda: dequantize([1.0], 1.0, 0, "uint8"),
        PoolTutorTypeError,
        r"q has dtype float64: codes must be an integer array",
    ),
    (
        lambda: dequantize([300], 1.0, 0, "uint8"),
        PoolTutorError,
        r"q holds the code 300, outside the uint8 range \[0, 255\]",
    ),
    (
        lambda: relu([1, 2], 0),
        PoolTutorTypeError,
        r"dtype=None but q has dtype int64: pass dtype= one of",
    ),
    (lambda: relu(np.array([1], np.uint8), 256), PoolTutorError, r"zero_point=256 is outside"),
    (
        lambda: relu(np.array([-1], np.int8), 0, dtype="uint8"),
        PoolTutorError,
        r"q holds the code -1, outside the uint8 range",
    ),
    (lambda: relu6(np.array([1], np.uint8), -0.1, 0), PoolTutorError, r"scale=-0.1 is not allowed"),
    (
        lambda: relu_max_pool_chain(np.zeros((2, 2), np.float32), 0.5, 0),
        PoolTutorTypeError,
        r"acc has dtype float32: accumulators must be an integer array",
    ),
    (
        lambda: relu_max_pool_chain(np.zeros(4, int), 0.5, 0),
        PoolTutorError,
        r"acc has shape \(4,\): need a non-empty \(H, W\) or \(N, C, H, W\) array",
    ),
    (
        lambda: relu_max_pool_chain(np.zeros((3, 3), int), 0.5, 0, kernel=4),
        PoolTutorError,
        r"kernel=\(4, 4\) does not fit the input \(3, 3\)",
    ),
    (
        lambda: relu_max_pool_chain(np.zeros((4, 4), int), 0.5, 0, stride=0),
        PoolTutorError,
        r"stride=0 is not allowed: need an int >= 1",
    ),
    (
        lambda: relu_max_pool_chain(np.zeros((4, 4), int), 0.5, 0, rounding="floor"),
        PoolTutorError,
        r"rounding='floor' is not allowed",
    ),
    (
        lambda: relu_max_pool_chain(np.zeros((4, 4), int), 0.5, 0, scale=0),
        PoolTutorError,
        r"scale=0 is not allowed",
    ),
    (lambda: relu_max_pool_chain([[2**40]], 0.5, 0), PoolTutorError, r"acc holds 1099511627776"),
    (
        lambda: quantized_max_pool(np.zeros((2, 2), np.uint8), 2),
        PoolTutorError,
        r"q has shape \(2, 2\) \(rank 2\): need rank 3 to 5",
    ),
    (
        lambda: quantized_max_pool(np.zeros((1, 1, 2, 2)), 2, dtype="uint8"),
        PoolTutorTypeError,
        r"q has dtype float64",
    ),
    (
        lambda: quantized_avg_pool(np.zeros((1, 1, 2, 2), np.uint8), 2, rounding="floor"),
        PoolTutorError,
        r"rounding='floor' is not allowed: need one of 'half_even', 'half_away'",
    ),
    (
        lambda: quantized_avg_pool(np.zeros((1, 1, 2, 2), np.int8), 2, zero_point=200),
        PoolTutorError,
        r"zero_point=200 is outside the int8 range",
    ),
    (
        lambda: quantized_avg_pool(np.zeros((1, 1, 2, 2), np.int8), 2, mean_of="real"),
        PoolTutorError,
        r"mean_of='real' is not allowed: need one of 'codes', 'centred'",
    ),
    (
        lambda: quantized_avg_pool(np.zeros((1, 1, 2, 2), np.int8), 2, count_include_pad=1),
        PoolTutorTypeError,
        r"count_include_pad=1: need True or False",
    ),
]


@pytest.mark.parametrize(("call", "exc", "match"), BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_input_raises_naming_the_parameter(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_errors_are_value_and_type_errors():
    with pytest.raises(ValueError):
        requantize([1], 0.5, 999)
    with pytest.raises(TypeError):
        requantize([1.0], 0.5, 0)
