"""The formula sheet: every formula on it agrees with the library on a few values.

The sheet is the package copy, ``pooltutor/course/formulas.md`` (what ``pooltutor formulas``
prints); ``docs/formulas.md`` is the same text (``tests/course/test_formula_sheet.py``).

Each entry below is a formula exactly as the sheet writes it (checked verbatim), evaluated
as Python and compared with pooltutor's own function.
"""

# ruff: noqa: E741  (I and O are the sheet's names for input and output length)
from __future__ import annotations

import itertools

import numpy as np
import pytest

from pooltutor import quant
from pooltutor.course.formula_sheet import sheet_markdown
from pooltutor.geometry import adaptive_bins, output_length, same_padding
from pooltutor.indexing import convert_indices
from pooltutor.tensorrt import mode_geometry

SHEET = sheet_markdown()

FLOOR = "(I + B + A - DK) // S + 1"
CEIL = "-(-(I + B + A - DK) // S) + 1"
TORCH_CLIP = "O - 1 if (O - 1) * S >= I + B else O"
CAFFE_CLIP = "O - 1 if B > 0 and (O - 1) * S >= I + B else O"
SAME_O = "-(-I // S)"
SAME_P = "max((-(-I // S) - 1) * S + DK - I, 0)"
LAYOUTS = {
    "plane": "h * W + w",
    "tensor": "((n * C + c) * H + h) * W + w",
    "tensor_colmajor": "(n * C + c) * H * W + w * H + h",
    "nhwc": "(h * W + w) * C + c",
    "nhwc_batch": "((n * H + h) * W + w) * C + c",
}
RELU = "max(q, max(qmin, zp))"
REQUANT = "min(max(round_half_even(acc * M) + zp, qmin), qmax)"


def test_every_formula_is_on_the_sheet():
    for f in (FLOOR, CEIL, TORCH_CLIP, CAFFE_CLIP, SAME_O, SAME_P, RELU, REQUANT,
              "P // 2", "P - P // 2", "[i * I // O, -(-(i + 1) * I // O))", *LAYOUTS.values()):
        assert f"`{f}`" in SHEET, f


def _axes():
    for I, K, S, D, B, A in itertools.product(range(1, 9), (1, 2, 3), (1, 2, 3), (1, 2),
                                              (0, 1), (0, 1)):
        DK = D * (K - 1) + 1
        if I + B + A >= DK and B < DK and A < DK:
            yield dict(I=I, K=K, S=S, D=D, B=B, A=A, DK=DK)


def test_output_length_rules():
    n = 0
    for v in _axes():
        args = (v["I"], v["K"], v["S"], v["B"], v["A"], v["D"])
        assert eval(FLOOR, {}, v) == output_length(*args, rounding="floor")[0]
        o = eval(CEIL, {}, v)
        assert o == output_length(*args, rounding="ceil")[0]
        assert eval(TORCH_CLIP, {}, {**v, "O": o}) == output_length(*args, rounding="ceil_torch")[0]
        assert eval(CAFFE_CLIP, {}, {**v, "O": o}) == output_length(*args, rounding="caffe")[0]
        n += 1
    assert n > 100


@pytest.mark.parametrize("upper", [True, False])
def test_same_padding(upper):
    for I, K, S, D in itertools.product(range(1, 10), (1, 2, 3, 4), (1, 2, 3), (1, 2)):
        v = dict(I=I, S=S, DK=D * (K - 1) + 1)
        P = eval(SAME_P, {"max": max}, v)
        split = (P // 2, P - P // 2) if upper else (P - P // 2, P // 2)
        assert split == tuple(same_padding(I, K, S, D, upper=upper))
        b, a = split
        assert eval(SAME_O, {}, v) == output_length(I, K, S, b, a, D)[0]


MODES = {"EXPLICIT_ROUND_DOWN": FLOOR, "EXPLICIT_ROUND_UP": CEIL, "SAME_UPPER": SAME_O,
         "SAME_LOWER": SAME_O, "CAFFE_ROUND_DOWN": "(I + 2 * B - DK) // S + 1",
         "CAFFE_ROUND_UP": "-(-(I + 2 * B - DK) // S) + 1"}


@pytest.mark.parametrize("mode", list(MODES))
def test_tensorrt_modes(mode):
    assert f"| {mode} | `{MODES[mode]}` |" in SHEET
    for I, K, S, B, A in [(7, 3, 2, 0, 0), (8, 2, 2, 1, 1), (6, 3, 3, 1, 0), (10, 3, 1, 1, 1),
                          (5, 2, 2, 0, 1)]:
        v = dict(I=I, S=S, B=B, A=A, DK=K)
        got = mode_geometry(mode, I, K, S, pre_padding=B, post_padding=A).output_size
        assert eval(MODES[mode], {}, v) == got, (mode, I, K, S, B, A)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_index_layouts(layout):
    N, C, H, W = 2, 3, 4, 5
    n, c, h, w = np.meshgrid(*(np.arange(k) for k in (N, C, H, W)), indexing="ij")
    plane = h * W + w
    want = convert_indices(plane, (N, C, H, W), "plane", layout)
    got = eval(LAYOUTS[layout], {}, dict(n=n, c=c, h=h, w=w, N=N, C=C, H=H, W=W))
    assert np.array_equal(got, want)


def test_adaptive_bins():
    for I, O in itertools.product(range(1, 12), range(1, 8)):
        want = adaptive_bins(I, O)
        assert [(i * I // O, -(-(i + 1) * I // O)) for i in range(O)] == [tuple(b) for b in want]


def test_zero_point_relu_and_requantization():
    for dtype, (qmin, qmax) in (("int8", (-128, 127)), ("uint8", (0, 255))):
        assert quant.dtype_range(dtype) == (qmin, qmax)
        zp = 3 if dtype == "int8" else 130
        q = np.arange(qmin, qmax + 1)
        want = quant.relu(q, zp, dtype)
        assert [eval(RELU, {}, dict(q=int(v), qmin=qmin, zp=zp)) for v in q] == want.tolist()
        acc = np.array([-1000, -198, -5, -3, -1, 0, 1, 3, 5, 7, 198, 1000])
        for M in (0.5, 0.375, 0.25, 0.0625):   # exact in binary: acc * M has no float error
            want = quant.requantize(acc, M, zp, dtype, rounding="half_even")
            got = [eval(REQUANT, {"round_half_even": np.round}, dict(acc=int(a), M=M, zp=zp,
                                                                     qmin=qmin, qmax=qmax))
                   for a in acc]
            assert [int(g) for g in got] == want.tolist()


def test_tflite_double_tv36_as_the_sheet_states():
    assert "-118.8 -> -119, then -59.5 -> -60" in SHEET
    assert quant.requantize(np.array([-198]), 0.3, 0, "int8",
                            rounding="tflite_double").tolist() == [-60]
