"""TensorRT PaddingMode arithmetic: the header's examples, TV05/TV06, formulas, errors.

Run: python -m pytest tests/core/test_tensorrt.py pooltutor/tensorrt.py \
         --doctest-modules -p no:cacheprovider -W error
"""

# ruff: noqa: E741  (I and O are the TensorRT header's own letters for input and output)
from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pooltutor
from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.tensorrt import (
    MODE_RULES,
    OutputGeometry,
    PaddingMode,
    PaddingModeWarning,
    output_geometry,
)

EX1 = dict(input_size=(6, 6), window=(3, 3), stride=(2, 2), pre_padding=(3, 3), post_padding=(2, 2))
EX2 = dict(input_size=(6, 6), window=(3, 3), stride=(2, 2), pre_padding=(3, 3), post_padding=(3, 3))


def lines_of(g: OutputGeometry) -> list[str]:
    return g.explain().splitlines()


def flat(g: OutputGeometry) -> str:
    """explain() with its line wrapping undone, for checking sentences of the notes."""
    return " ".join(g.explain().split())


def quiet(**kwargs) -> OutputGeometry:
    """output_geometry with the restriction warnings swallowed (for CAFFE examples)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaddingModeWarning)
        return output_geometry(**kwargs)


# --------------------------------------------------------------------------- Example 1


@pytest.mark.parametrize(
    "mode, op", [("EXPLICIT_ROUND_DOWN", "floor"), ("EXPLICIT_ROUND_UP", "ceil")]
)
def test_example1_explicit(mode, op):
    g = output_geometry(**EX1, padding_mode=mode)
    assert g.output_size == (5, 5)
    assert g.M == (11, 11) and g.span == (8, 8)
    assert g.pre_padding == (3, 3) and g.post_padding == (2, 2)
    assert g.sample_points == ((0, 2, 4, 6, 8),) * 2
    assert g.window_starts == ((-3, -1, 1, 3, 5),) * 2
    assert g.diff == (0, 0) and g.restrictions == ()
    lines = lines_of(g)
    for line in [
        "Given I = {6, 6}, B = {3, 3}, A = {2, 2}, S = {2, 2}, F = {3, 3}. What is O?",
        f"- {mode}:",
        "Computation:",
        "M = {6, 6} + {3, 3} + {2, 2} ==> {11, 11}",
        f"O ==> {op}((M - F) / S) + 1",
        f"==> {op}(({{11, 11}} - {{3, 3}}) / {{2, 2}}) + {{1, 1}}",
        f"==> {op}({{8, 8}} / {{2, 2}}) + {{1, 1}}",
        "==> {5, 5}",
        "The sample points are {0, 2, 4, 6, 8} in each dimension.",
    ]:
        assert line in lines, line
    text = flat(g)
    assert "all in the pre-padding" in text  # first window is only padding (B = F)
    if mode == "EXPLICIT_ROUND_UP":  # the seed's Example 1 erratum
        assert "equals EXPLICIT_ROUND_DOWN only because {8, 8} / {2, 2} is exact" in text


@pytest.mark.parametrize(
    "mode, B, A, starts",
    [
        ("SAME_UPPER", (0, 0), (1, 1), (0, 2, 4)),
        ("SAME_LOWER", (1, 1), (0, 0), (-1, 1, 3)),
    ],
)
def test_example1_same(mode, B, A, starts):
    g = output_geometry(**EX1, padding_mode=mode)
    assert g.output_size == (3, 3)
    assert g.total_padding == (1, 1)
    assert (g.pre_padding, g.post_padding) == (B, A)
    assert g.given_pre_padding == (3, 3) and g.given_post_padding == (2, 2)
    assert g.window_starts == (starts,) * 2
    assert g.sample_points == ((0, 2, 4),) * 2
    lines = lines_of(g)
    common = [
        "I = {6, 6}",
        "S = {2, 2}",
        "O = ceil(I / S) = {3, 3}",
        "P = floor((I - 1) / S) * S + F - I",
        "==> floor(({6, 6} - {1, 1}) / {2, 2}) * {2, 2} + {3, 3} - {6, 6}",
        "==> {4, 4} + {3, 3} - {6, 6}",
        "==> {1, 1}",
        "The sample points are {0, 2, 4} in each dimension.",
    ]
    if mode == "SAME_UPPER":
        own = ["B = floor({1, 1} / {2, 2})", "==> {0, 0}", "A = {1, 1} - {0, 0}", "==> {1, 1}"]
    else:
        own = ["A = floor({1, 1} / {2, 2})", "==> {0, 0}", "B = {1, 1} - {0, 0}", "==> {1, 1}"]
    for line in common + own:
        assert line in lines, line
    # the B / A lines come in the header's order
    i = lines.index(own[0])
    assert lines[i : i + 4] == own
    text = flat(g)
    assert "SAMPLE_UPPER" in text and "typos" in text
    assert "are ignored" in text  # SAME overrides the user's B and A


# --------------------------------------------------------------------------- Example 2


def test_example2_caffe_round_down():
    with pytest.warns(
        PaddingModeWarning, match=r"Restriction 1 condition B >= F holds on axis 0, 1"
    ):
        g = output_geometry(**EX2, padding_mode="CAFFE_ROUND_DOWN")
    assert g.M == (12, 12)
    assert g.unclipped_size == (5, 5) and g.diff == (0, 0) and g.output_size == (5, 5)
    assert g.pre_padding == g.post_padding == (3, 3)
    assert g.sample_points == ((0, 2, 4, 6, 8),) * 2
    assert g.rounding == "floor_clip"
    lines = lines_of(g)
    for line in [
        "M = {6, 6} + {3, 3} + {3, 3} ==> {12, 12}",
        "EXPLICIT_ROUND_DOWN ==> floor((M - F) / S) + 1",
        "==> floor(({12, 12} - {3, 3}) / {2, 2}) + {1, 1}",
        "==> {5, 5}",
        "DIFF = (((EXPLICIT_ROUND_DOWN - 1) * S >= I + B) ? {1, 1} : {0, 0})",
        "==> ({5, 5} - {1, 1}) * {2, 2} >= {6, 6} + {3, 3} ? {1, 1} : {0, 0}",
        "==> {8, 8} >= {9, 9} ? {1, 1} : {0, 0}",
        "==> {0, 0}",
        "O ==> EXPLICIT_ROUND_DOWN - DIFF",
        "==> {5, 5} - {0, 0}",
        "The sample points are {0, 2, 4, 6, 8} in each dimension.",
        "In one line: O = EXPLICIT_ROUND_DOWN - ((EXPLICIT_ROUND_DOWN - 1) * S >= I + B)",
        "==> {5, 5} - (({5, 5} - {1, 1}) * {2, 2} >= {6, 6} + {3, 3})",
    ]:
        assert line in lines, line


def test_example2_caffe_round_up():
    with pytest.warns(
        PaddingModeWarning, match=r"Restriction 1 condition \(B \+ S\) >= \(F \+ 1\)"
    ):
        g = output_geometry(**EX2, padding_mode="CAFFE_ROUND_UP")
    assert g.M == (12, 12)
    assert g.unclipped_size == (6, 6) and g.diff == (1, 1) and g.output_size == (5, 5)
    assert g.clipped == (True, True)
    assert g.window_starts == ((-3, -1, 1, 3, 5),) * 2
    assert g.rounding == "ceil_torch"
    lines = lines_of(g)
    for line in [
        "EXPLICIT_ROUND_UP ==> ceil((M - F) / S) + 1",
        "==> ceil(({12, 12} - {3, 3}) / {2, 2}) + {1, 1}",
        "==> {6, 6}",
        "DIFF = (((EXPLICIT_ROUND_UP - 1) * S >= I + B) ? {1, 1} : {0, 0})",
        "==> ({6, 6} - {1, 1}) * {2, 2} >= {6, 6} + {3, 3} ? {1, 1} : {0, 0}",
        "==> {10, 10} >= {9, 9} ? {1, 1} : {0, 0}",
        "==> {1, 1}",
        "O ==> EXPLICIT_ROUND_UP - DIFF",
        "==> {6, 6} - {1, 1}",
        "==> {5, 5}",
        "The sample points are {0, 2, 4, 6, 8} in each dimension.",
        "In one line: O = EXPLICIT_ROUND_UP - ((EXPLICIT_ROUND_UP - 1) * S >= I + B)",
        "==> {6, 6} - (({6, 6} - {1, 1}) * {2, 2} >= {6, 6} + {3, 3})",
    ]:
        assert line in lines, line
    text = flat(g)
    assert "padded position 10 = input position 7 >= I = 6" in text
    assert "TensorRT 10" in text  # CAFFE modes are gone in TRT 10


@pytest.mark.parametrize("mode", ["CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"])
def test_example2_restriction_paragraph(mode):
    g = quiet(**EX2, padding_mode=mode)
    r1, r2 = g.restrictions
    assert (r1.number, r2.number) == (1, 2)
    assert r1.holds == (True, True) and r2.holds == (False, False)  # TV06: R1 true, R2 false
    assert g.triggered_restrictions == (r1,)
    text = flat(g)
    assert f'"{r1.header_text}"' in text and f'"{r2.header_text}"' in text
    assert "is an error if" in r1.header_text
    assert "self-contradictory" in text and "Pooling Example 2" in text
    assert "have two restrictions each on usage with pooling operations" in text
    assert "does not hold" in text


def test_restriction_2_warns_without_rejection():
    # DOWN, B - S >= F: the clip moves the last window back inside the input
    with pytest.warns(PaddingModeWarning) as record:
        g = output_geometry(6, 3, 2, pre_padding=5, padding_mode="CAFFE_ROUND_DOWN")
    assert {w.message.args[0].split(" condition")[0].rsplit(" ", 1)[-1] for w in record} == {
        "1",
        "2",
    }
    assert g.unclipped_size == (7,) and g.output_size == (6,) and g.window_starts[0][-1] == 5
    assert "still start in the end padding after the one-step clip" in flat(g)


def test_no_warning_when_conditions_do_not_hold():
    # -W error turns any warning into a failure here
    g = output_geometry(6, 3, 2, pre_padding=1, post_padding=9, padding_mode="CAFFE_ROUND_UP")
    assert g.post_padding == (1,) and g.output_size == (4,)  # ceil((8 - 3)/2) + 1, last start 5 < 6
    assert all(not r.triggered for r in g.restrictions)
    assert "the given postPadding {9} is ignored" in flat(g)


# --------------------------------------------------------------------------- TV05 / TV06 and SAME


def test_tv05_sizes():
    kw = dict(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2)
    assert output_geometry(**kw).output_size == (5,)
    assert output_geometry(**kw, padding_mode="EXPLICIT_ROUND_UP").output_size == (5,)
    up = output_geometry(**kw, padding_mode="SAME_UPPER")
    lo = output_geometry(**kw, padding_mode="SAME_LOWER")
    assert (up.pre_padding, up.post_padding, up.output_size) == ((0,), (1,), (3,))
    assert (lo.pre_padding, lo.post_padding, lo.output_size) == ((1,), (0,), (3,))
    # windows of TV05: SAME_UPPER reads [x0..x2], [x2..x4], [x4, x5, pad]
    assert up.window_starts == ((0, 2, 4),) and lo.window_starts == ((-1, 1, 3),)


def test_tv06_sizes():
    kw = dict(input_size=6, window=3, stride=2, pre_padding=3, post_padding=3)
    assert output_geometry(**kw, padding_mode="EXPLICIT_ROUND_UP").output_size == (6,)
    assert output_geometry(**kw, padding_mode="EXPLICIT_ROUND_UP").window_starts[0][-1] == 7
    assert quiet(**kw, padding_mode="CAFFE_ROUND_DOWN").output_size == (5,)
    g = quiet(**kw, padding_mode="CAFFE_ROUND_UP")
    assert (g.unclipped_size, g.output_size) == ((6,), (5,))


@pytest.mark.parametrize(
    "I, F, S, D, upper, lower, O",
    [
        (6, 3, 2, 1, (0, 1), (1, 0), 3),  # TV09
        (5, 3, 2, 1, (1, 1), (1, 1), 3),  # TV10
        (7, 4, 3, 1, (1, 2), (2, 1), 3),  # TV11
        (5, 2, 1, 2, (1, 1), (1, 1), 5),  # TV12: DK = 3, not the raw kernel 2 (ORT's bug)
        (6, 1, 4, 1, (0, 0), (0, 0), 2),  # header's P would be -1: clamped at 0
    ],
)
def test_same_modes_tv09_to_tv12(I, F, S, D, upper, lower, O):
    for mode, pads in (("SAME_UPPER", upper), ("SAME_LOWER", lower)):
        g = output_geometry(I, F, S, dilation=D, pre_padding=4, post_padding=4, padding_mode=mode)
        assert (g.pre_padding[0], g.post_padding[0]) == pads, mode
        assert g.output_size == (O,) == (-(-I // S),)


def test_same_overrides_user_padding():
    a = output_geometry((6, 5), 3, 2, padding_mode="SAME_UPPER")
    b = output_geometry(
        (6, 5), 3, 2, pre_padding=(7, 0), post_padding=(1, 9), padding_mode="SAME_UPPER"
    )
    assert (a.pre_padding, a.post_padding, a.output_size) == (
        b.pre_padding,
        b.post_padding,
        b.output_size,
    )
    assert b.given_pre_padding == (7, 0) and b.given_post_padding == (1, 9)
    assert "The given prePadding {7, 0} and postPadding {1, 9} are ignored" in flat(b)
    assert "are ignored" not in flat(a)


def test_same_with_dilation_uses_dk():
    g = output_geometry(5, 2, 1, dilation=2, padding_mode="SAME_UPPER")  # TV12
    assert g.DK == (3,) and g.total_padding == (2,) and g.output_size == (5,)
    lines = lines_of(g)
    assert "DK = 1 + D * (F - 1)" in lines and "P = floor((I - 1) / S) * S + DK - I" in lines
    assert "==> floor(({5} - {1}) / {1}) * {1} + {3} - {5}" in lines
    # convolution: same rule, with DK
    c = output_geometry(
        (7, 5), (3, 2), (2, 3), dilation=2, padding_mode="same_lower", layer="convolution"
    )
    assert c.DK == (5, 3) and c.total_padding == (4, 1)
    assert (c.pre_padding, c.post_padding, c.output_size) == ((2, 1), (2, 0), (4, 2))


def test_same_negative_header_p_is_clamped():
    g = output_geometry(6, 1, 4, padding_mode="SAME_UPPER")
    assert g.total_padding == (0,)
    assert "==> {-1}" in lines_of(g) and "clamps P at 0" in flat(g)


# ---------------------------------------------------------------------- the mode enum and table


@pytest.mark.parametrize(
    "value",
    [
        PaddingMode.CAFFE_ROUND_UP,
        "CAFFE_ROUND_UP",
        "kCAFFE_ROUND_UP",
        "caffe_round_up",
        "KCaffe_Round_Up",
        "  kcaffe_round_up ",
        "caffe-round-up",
        "nvinfer.PaddingMode.kCAFFE_ROUND_UP",
    ],
)
def test_parse(value):
    assert PaddingMode.parse(value) is PaddingMode.CAFFE_ROUND_UP


def test_parse_via_constructor_and_values():
    assert PaddingMode("kSAME_LOWER") is PaddingMode.SAME_LOWER
    assert PaddingMode(0) is PaddingMode.EXPLICIT_ROUND_DOWN  # TensorRT's values
    assert [m.value for m in PaddingMode] == [0, 1, 2, 3, 4, 5]
    assert [m.tensorrt_name for m in PaddingMode][:2] == [
        "kEXPLICIT_ROUND_DOWN",
        "kEXPLICIT_ROUND_UP",
    ]
    assert pooltutor.PaddingMode is PaddingMode and pooltutor.output_geometry is output_geometry
    for m in PaddingMode:
        assert m.__doc__ and ("O =" in m.__doc__ or "O = " in m.__doc__)
    g = output_geometry(**EX1, padding_mode="same_upper")
    assert g.padding_mode is PaddingMode.SAME_UPPER


def test_parse_errors():
    with pytest.raises(
        PoolTutorError,
        match=r"padding_mode='SAME' is not allowed: need one of "
        r"'EXPLICIT_ROUND_DOWN', 'EXPLICIT_ROUND_UP', 'SAME_UPPER', "
        r"'SAME_LOWER', 'CAFFE_ROUND_DOWN', 'CAFFE_ROUND_UP'",
    ):
        PaddingMode.parse("SAME")
    with pytest.raises(PoolTutorTypeError, match=r"padding_mode=2 has type int"):
        PaddingMode.parse(2)
    with pytest.raises(ValueError):
        PaddingMode("nonsense")


def test_mode_table():
    assert set(MODE_RULES) == set(PaddingMode)
    pooling = {m.name: r.pooling_rounding for m, r in MODE_RULES.items()}
    assert pooling == {
        "EXPLICIT_ROUND_DOWN": "floor",
        "EXPLICIT_ROUND_UP": "ceil",
        "SAME_UPPER": "floor",
        "SAME_LOWER": "floor",
        "CAFFE_ROUND_DOWN": "floor_clip",
        "CAFFE_ROUND_UP": "ceil_torch",
    }
    assert MODE_RULES[PaddingMode.CAFFE_ROUND_UP].convolution_rounding == "ceil"
    assert MODE_RULES[PaddingMode.CAFFE_ROUND_DOWN].padding == "pre_both"
    assert PaddingMode.SAME_UPPER.rule.upper and not PaddingMode.SAME_LOWER.rule.upper
    with pytest.raises(TypeError):
        MODE_RULES[PaddingMode.SAME_UPPER] = None  # read-only


def test_result_is_frozen_and_per_axis():
    g = output_geometry(6, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.output_size = (1,)
    assert g.output_size == (4,) and g.pre_padding == (0,) and g.post_padding == (0,)
    assert g.input_size == (6,) and g.window == (3,) and g.stride == (1,) and g.dilation == (1,)
    assert g.layer == "pooling" and g.padding_mode is PaddingMode.EXPLICIT_ROUND_DOWN
    assert "OutputGeometry(pooling, EXPLICIT_ROUND_DOWN" in repr(g)
    g3 = output_geometry(np.array([4, 5, 6]), [2, 2, 3], (2, 1, 3), pre_padding=[0, 1, 0])
    assert g3.output_size == (2, 5, 2) and len(g3.window_starts) == 3


# ----------------------------------------------------------------- convolution / deconvolution


@pytest.mark.parametrize(
    "mode, kw, O, B, A",
    [
        ("EXPLICIT_ROUND_DOWN", dict(pre_padding=1), 3, 1, 0),  # floor((8 - 3)/2) + 1
        ("EXPLICIT_ROUND_UP", dict(pre_padding=1), 4, 1, 0),  # ceil(5/2) + 1
        (
            "CAFFE_ROUND_DOWN",
            dict(pre_padding=1, post_padding=4),
            4,
            1,
            1,
        ),  # floor((7 + 2 - 3)/2) + 1
        ("CAFFE_ROUND_UP", dict(pre_padding=2), 5, 2, 2),  # ceil((7 + 4 - 3)/2) + 1 = 5
    ],
)
def test_convolution_hand_cases(mode, kw, O, B, A):
    g = output_geometry(7, 3, 2, padding_mode=mode, layer="convolution", **kw)
    assert (g.output_size, g.pre_padding, g.post_padding) == ((O,), (B,), (A,))
    assert g.window_starts[0][0] == -B and len(g.window_starts[0]) == O


def test_convolution_caffe_has_no_correction():
    # the same numbers as Example 2: pooling clips 6 -> 5, convolution keeps 6, without warnings
    g = output_geometry(6, 3, 2, pre_padding=3, padding_mode="CAFFE_ROUND_UP", layer="convolution")
    assert g.output_size == (6,) and g.diff == (0,) and g.restrictions == ()
    lines = lines_of(g)
    assert "O ==> ceil((I + B * 2 - DK) / S) + 1" in lines
    assert "==> ceil(({6} + {3} * 2 - {3}) / {2}) + {1}" in lines


def test_convolution_dilation():
    g = output_geometry(10, 3, 1, dilation=2, layer="Convolution")
    assert g.DK == (5,) and g.output_size == (6,) and g.window_starts == ((0, 1, 2, 3, 4, 5),)


@pytest.mark.parametrize(
    "mode, I, F, S, D, pads, O, B, A",
    [
        ("EXPLICIT_ROUND_DOWN", 4, 3, 2, 1, (1, 1), 7, 1, 1),  # 3*2 + 3 - 2
        ("EXPLICIT_ROUND_UP", 4, 3, 2, 1, (1, 1), 7, 1, 1),  # rounding plays no part
        ("EXPLICIT_ROUND_DOWN", 3, 3, 2, 2, (0, 2), 7, 0, 2),  # DK = 5: 2*2 + 5 - 2
        ("CAFFE_ROUND_DOWN", 4, 3, 2, 1, (1, 5), 7, 1, 1),  # B on both sides
        ("CAFFE_ROUND_UP", 4, 3, 2, 1, (2, 0), 5, 2, 2),
        ("SAME_UPPER", 4, 3, 2, 1, (3, 3), 8, 0, 1),  # min(8, 9); P = 1
        ("SAME_LOWER", 4, 3, 2, 1, (3, 3), 8, 1, 0),
        ("SAME_UPPER", 3, 3, 2, 2, (0, 0), 6, 1, 2),  # DK = 5: min(6, 9); P = 3
        ("SAME_LOWER", 3, 3, 2, 2, (0, 0), 6, 2, 1),
        ("SAME_UPPER", 3, 2, 4, 1, (0, 0), 10, 0, 0),  # DK < S: min(12, 10); P = 0
    ],
)
def test_deconvolution_hand_cases(mode, I, F, S, D, pads, O, B, A):
    g = output_geometry(
        I,
        F,
        S,
        dilation=D,
        pre_padding=pads[0],
        post_padding=pads[1],
        padding_mode=mode,
        layer="deconvolution",
    )
    assert (g.output_size, g.pre_padding, g.post_padding) == ((O,), (B,), (A,))
    assert g.window_starts is None and g.sample_points is None and g.M is None
    assert "O = " in flat(g) and f"==> {{{O}}}" in lines_of(g)


def test_deconvolution_explain():
    g = output_geometry(4, 3, 2, padding_mode="SAME_UPPER", layer="deconvolution")
    lines = lines_of(g)
    for line in [
        "O = min(I * S, (I - 1) * S + DK)",
        "==> min({8}, {9})",
        "P = max(DK - S, 0)",
        "==> max({3} - {2}, {0})",
        "B = floor({1} / {2})",
        "A = {1} - {0}",
    ]:
        assert line in lines, line
    g = output_geometry(4, 3, 2, pre_padding=1, post_padding=1, layer="deconvolution")
    assert "==> ({4} - {1}) * {2} + {3} - ({1} + {1})" in lines_of(g)
    assert "padding crops the output instead of growing the input" in flat(g)


# --------------------------------------------------------------------------- CAFFE rejection


@pytest.mark.parametrize("mode", ["CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"])
def test_caffe_rejects_window_still_in_padding(mode):
    # I=1, F=1, S=1, B=2: after the one-step clip the last window still starts at input position 1
    with pytest.raises(
        PoolTutorError,
        match=rf"padding_mode={mode} rejects this pooling on axis 0: "
        r"with I=1, B=A=2, F=1, S=1.*still starts at input "
        r"position 1 >= I=1.*empty dimension",
    ):
        output_geometry(1, 1, 1, pre_padding=2, padding_mode=mode)
    # the explicit modes have no such rule: TensorRT's formula gives windows of padding only
    g = output_geometry(1, 1, 1, pre_padding=2, post_padding=2, padding_mode="EXPLICIT_ROUND_DOWN")
    assert g.output_size == (5,) and "in the end padding" in flat(g)
    # convolution has no rejection either
    assert output_geometry(
        1, 1, 1, pre_padding=2, padding_mode=mode, layer="convolution"
    ).output_size == (5,)


def test_caffe_rejection_names_the_axis():
    with pytest.raises(PoolTutorError, match=r"rejects this pooling on axis 1"):
        output_geometry((6, 1), (3, 1), (2, 1), pre_padding=(0, 2), padding_mode="kCAFFE_ROUND_UP")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (
            dict(padding_mode="SAME"),
            PoolTutorError,
            r"padding_mode='SAME' is not allowed: "
            r"need one of 'EXPLICIT_ROUND_DOWN'.*'CAFFE_ROUND_UP'",
        ),
        (dict(padding_mode="kVALID"), PoolTutorError, r"padding_mode='kVALID'.*'SAME_LOWER'"),
        (dict(padding_mode=None), PoolTutorTypeError, r"padding_mode=None has type NoneType"),
        (
            dict(layer="pool"),
            PoolTutorError,
            r"layer='pool' is not allowed: need one of 'pooling', 'convolution', 'deconvolution'",
        ),
        (dict(layer=3), PoolTutorTypeError, r"layer=3 has type int"),
        (
            dict(window=(3, 3, 3)),
            PoolTutorError,
            r"window=\[3, 3, 3\] has 3 entries: need one int or 2",
        ),
        (dict(stride=[1]), PoolTutorError, r"stride=\[1\] has 1 entries: need one int or 2"),
        (dict(pre_padding=(1, 1, 1)), PoolTutorError, r"pre_padding=\[1, 1, 1\] has 3 entries"),
        (dict(input_size=0), PoolTutorError, r"input_size=0 is not allowed: need an int >= 1"),
        (dict(input_size=(6, -1)), PoolTutorError, r"input_size=\[6, -1\] is not allowed"),
        (dict(input_size=6.0), PoolTutorTypeError, r"input_size=6.0 has type float"),
        (dict(input_size=True), PoolTutorTypeError, r"input_size=True has type bool"),
        (dict(input_size="6"), PoolTutorTypeError, r"input_size='6' has type str"),
        (
            dict(input_size=(1, 2, 3, 4)),
            PoolTutorError,
            r"input_size=\[1, 2, 3, 4\] has 4 spatial axes: need 1 to 3",
        ),
        (dict(input_size=()), PoolTutorError, r"input_size=\[\] has 0 spatial axes"),
        (dict(window=0), PoolTutorError, r"window=0 is not allowed: need an int >= 1"),
        (dict(window=2.5), PoolTutorTypeError, r"window=2.5 has type float"),
        (dict(stride=0), PoolTutorError, r"stride=0 is not allowed: need an int >= 1"),
        (dict(stride=(2, 1.0)), PoolTutorTypeError, r"stride=\[2, 1.0\] contains 1.0 \(float\)"),
        (dict(dilation=0), PoolTutorError, r"dilation=0 is not allowed"),
        (dict(dilation=False), PoolTutorTypeError, r"dilation=False has type bool"),
        (dict(pre_padding=-1), PoolTutorError, r"pre_padding=-1 is not allowed: need an int >= 0"),
        (dict(post_padding=True), PoolTutorTypeError, r"post_padding=True has type bool"),
        (
            dict(window=7),
            PoolTutorError,
            r"window=\(7, 7\) does not fit the padded input on axis 0: DK = 1 \+ D\*\(F-1\) = 7 > "
            r"M = I \+ B \+ A = 6\+0\+0 = 6",
        ),
        (
            dict(window=3, dilation=(1, 3)),
            PoolTutorError,
            r"does not fit the padded input on axis 1: DK .* = 7",
        ),
        (dict(window=7, layer="convolution"), PoolTutorError, r"does not fit.*layer='convolution'"),
        (
            dict(window=7, pre_padding=0, post_padding=9, padding_mode="CAFFE_ROUND_DOWN"),
            PoolTutorError,
            r"does not fit the padded input on axis 0: .* = I \+ B \+ B = 6\+0\+0 = 6",
        ),
        (
            dict(input_size=1, window=1, pre_padding=1, post_padding=1, layer="deconvolution"),
            PoolTutorError,
            r"pre_padding=1 and post_padding=1 crop the whole deconvolution output on axis 0",
        ),
    ],
)
def test_bad_input(kwargs, exc, match):
    args = dict(input_size=(6, 6), window=3, stride=2)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        output_geometry(**args)


def test_error_classes():
    assert issubclass(PoolTutorError, ValueError) and issubclass(PoolTutorTypeError, TypeError)
    assert issubclass(PaddingModeWarning, UserWarning)


# --------------------------------------------------------------------------- brute force


def enumerate_windows(mode: str, I: int, F: int, S: int, D: int, B: int, A: int):
    """Independent oracle: walk the windows one stride at a time (no formula, no geometry).

    Returns (starts in input coordinates, clipped, rejected).
    """
    dk = (F - 1) * D + 1
    if mode.startswith("CAFFE"):
        A = B
    round_up = mode.endswith("UP")
    starts = [-B]
    while True:
        nxt = starts[-1] + S
        if round_up:
            # keep adding windows until the last one reaches the end of the padded input
            if starts[-1] + dk >= I + A:
                break
        elif nxt + dk > I + A:  # round down: only windows that fit entirely
            break
        starts.append(nxt)
    clipped = rejected = False
    if mode.startswith("CAFFE"):
        if len(starts) > 1 and starts[-1] >= I:  # the one-step correction
            starts.pop()
            clipped = True
        rejected = starts[-1] >= I
    return tuple(starts), clipped, rejected


axis_params = st.tuples(
    st.integers(1, 9),  # I
    st.integers(1, 4),  # F
    st.integers(1, 4),  # S
    st.integers(1, 2),  # D
    st.integers(0, 6),  # B
    st.integers(0, 6),  # A
)


@given(
    mode=st.sampled_from(
        ["EXPLICIT_ROUND_DOWN", "EXPLICIT_ROUND_UP", "CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"]
    ),
    axes=st.lists(axis_params, min_size=1, max_size=3),
)
def test_pooling_matches_brute_force(mode, axes):
    I, F, S, D, B, A = (tuple(a[k] for a in axes) for k in range(6))
    caffe = mode.startswith("CAFFE")
    fits = all(
        (f - 1) * d + 1 <= i + b + (b if caffe else a)
        for i, f, d, b, a in zip(I, F, D, B, A, strict=True)
    )
    kwargs = dict(
        input_size=I,
        window=F,
        stride=S,
        dilation=D,
        pre_padding=B,
        post_padding=A,
        padding_mode=mode,
    )
    if not fits:
        with pytest.raises(PoolTutorError, match="does not fit the padded input"):
            output_geometry(**kwargs)
        return
    expected = [enumerate_windows(mode, *a) for a in axes]
    if any(rejected for _, _, rejected in expected):
        with pytest.raises(PoolTutorError, match="rejects this pooling"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PaddingModeWarning)
                output_geometry(**kwargs)
        # R2's condition is necessary for the rejection
        ax = next(k for k, e in enumerate(expected) if e[2])
        dk = (F[ax] - 1) * D[ax] + 1
        r2 = B[ax] - S[ax] >= dk if mode == "CAFFE_ROUND_DOWN" else B[ax] >= dk + 1
        assert r2
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = output_geometry(**kwargs)
    assert g.window_starts == tuple(starts for starts, _, _ in expected)
    assert g.output_size == tuple(len(starts) for starts, _, _ in expected)
    assert g.diff == tuple(int(clipped) for _, clipped, _ in expected)
    assert g.sample_points == tuple(
        tuple(s + b for s in starts) for (starts, _, _), b in zip(expected, B, strict=True)
    )
    if caffe:
        assert g.pre_padding == g.post_padding == B
        r1, r2 = g.restrictions
        # R1's condition is necessary for the clip to fire
        assert all(r1.holds[k] for k, d in enumerate(g.diff) if d)
        assert len(caught) == len(g.triggered_restrictions)
        assert all(issubclass(w.category, PaddingModeWarning) for w in caught)
    else:
        assert (g.pre_padding, g.post_padding) == (B, A) and not caught
    assert g.explain()  # never fails


@given(
    mode=st.sampled_from(["SAME_UPPER", "SAME_LOWER"]),
    layer=st.sampled_from(["pooling", "convolution"]),
    axes=st.lists(
        st.tuples(st.integers(1, 12), st.integers(1, 5), st.integers(1, 5), st.integers(1, 3)),
        min_size=1,
        max_size=3,
    ),
)
def test_same_properties(mode, layer, axes):
    I, F, S, D = (tuple(a[k] for a in axes) for k in range(4))
    g = output_geometry(
        I, F, S, dilation=D, pre_padding=9, post_padding=9, padding_mode=mode, layer=layer
    )
    for k in range(len(I)):
        dk = (F[k] - 1) * D[k] + 1
        O = -(-I[k] // S[k])
        assert g.output_size[k] == O
        P = max(0, (O - 1) * S[k] + dk - I[k])
        assert g.pre_padding[k] + g.post_padding[k] == P == g.total_padding[k]
        small, large = sorted((g.pre_padding[k], g.post_padding[k]))
        assert large - small in (0, 1)
        expected_b = P // 2 if mode == "SAME_UPPER" else P - P // 2
        assert g.pre_padding[k] == expected_b
        # the windows start at -B and the last one ends exactly at the padded end (when P > 0)
        assert g.window_starts[k][0] == -g.pre_padding[k]
        if P > 0:
            assert g.window_starts[k][-1] + dk == I[k] + g.post_padding[k]


def test_caffe_convolution_note_does_not_claim_a_clip():
    text = " ".join(output_geometry(6, 3, 2, pre_padding=3, padding_mode="CAFFE_ROUND_UP",
                                    layer="convolution").explain().split())
    assert "the CAFFE correction applies to pooling only" in text
    assert "CAFFE modes drop such a window" not in text
