"""The worked examples of seeds 004 (TensorRT PaddingMode) and 002 (DirectML MAX_POOLING2).

Every number here is one that notebooks 01_window_placement,
02_output_size_rounding and 02b_one_model_six_runtimes show; the seed's own lines are copied verbatim
(``SEED_*``) and must appear, in order, in ``output_geometry(...).explain()``.
Where the seed is wrong the test pins the correction (docs/semantics.md §5).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from pooltutor import frameworks, pool_geometry
from pooltutor.tensorrt import PaddingModeWarning, output_geometry
from pooltutor.directml import dml_max_pooling2_layout

MODES = (
    "EXPLICIT_ROUND_DOWN",
    "EXPLICIT_ROUND_UP",
    "SAME_UPPER",
    "SAME_LOWER",
    "CAFFE_ROUND_DOWN",
    "CAFFE_ROUND_UP",
)
EXAMPLE_1 = dict(
    input_size=(6, 6), window=(3, 3), stride=(2, 2), pre_padding=(3, 3), post_padding=(2, 2)
)
EXAMPLE_2 = dict(EXAMPLE_1, post_padding=(3, 3))


def _geometry(example, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaddingModeWarning)
        return output_geometry(**example, padding_mode=mode)


def _norm(line: str) -> str:
    """Compare modulo spaces: the seed writes ``{0,0}`` once where it means ``{0, 0}``."""
    return re.sub(r"\s+", "", line)


def _assert_in_order(seed_lines: str, text: str) -> None:
    """Every non-empty seed line appears in ``text`` as a whole line, in the seed's order."""
    lines = [_norm(line) for line in text.splitlines()]
    at = 0
    for want in filter(None, (_norm(s) for s in seed_lines.strip().splitlines())):
        try:
            at = lines.index(want, at) + 1
        except ValueError:
            raise AssertionError(f"seed line {want!r} not found (in order) in:\n{text}") from None


# --------------------------------------------------------------------------- seed 004

# (output, M, unclipped / EXPLICIT value, DIFF, P, B, A, sample points) per mode
EXAMPLE_1_NUMBERS = {
    "EXPLICIT_ROUND_DOWN": (5, 11, 5, 0, None, 3, 2, (0, 2, 4, 6, 8)),
    "EXPLICIT_ROUND_UP": (5, 11, 5, 0, None, 3, 2, (0, 2, 4, 6, 8)),
    "SAME_UPPER": (3, 7, 3, 0, 1, 0, 1, (0, 2, 4)),
    "SAME_LOWER": (3, 7, 3, 0, 1, 1, 0, (0, 2, 4)),
    "CAFFE_ROUND_DOWN": (5, 12, 5, 0, None, 3, 3, (0, 2, 4, 6, 8)),  # A := B
    "CAFFE_ROUND_UP": (5, 12, 6, 1, None, 3, 3, (0, 2, 4, 6, 8)),
}
EXAMPLE_2_NUMBERS = dict(
    EXAMPLE_1_NUMBERS,
    EXPLICIT_ROUND_DOWN=(5, 12, 5, 0, None, 3, 3, (0, 2, 4, 6, 8)),
    EXPLICIT_ROUND_UP=(6, 12, 6, 0, None, 3, 3, (0, 2, 4, 6, 8, 10)),
)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("name", "example", "numbers"),
    [("example1", EXAMPLE_1, EXAMPLE_1_NUMBERS), ("example2", EXAMPLE_2, EXAMPLE_2_NUMBERS)],
)
def test_pooling_examples_every_mode(name, example, numbers, mode):
    out, m, unclipped, diff, p, b, a, points = numbers[mode]
    g = _geometry(example, mode)
    two = lambda v: (v, v)  # noqa: E731 - both axes of the seed's {n, n}
    assert g.output_size == two(out)
    assert g.M == two(m)
    assert g.span == two(m - 3)
    assert g.unclipped_size == two(unclipped)
    assert g.diff == two(diff)
    assert g.total_padding == (None if p is None else two(p))
    assert (g.pre_padding, g.post_padding) == (two(b), two(a))
    assert g.sample_points == (points, points)
    assert g.window_starts == (tuple(s - b for s in points),) * 2


SEED_EXAMPLE_1 = {
    "EXPLICIT_ROUND_DOWN": """
        M = {6, 6} + {3, 3} + {2, 2} ==> {11, 11}
        O ==> floor((M - F) / S) + 1
        ==> floor(({11, 11} - {3, 3}) / {2, 2}) + {1, 1}
        ==> floor({8, 8} / {2, 2}) + {1, 1}
        ==> {5, 5}
        """,
    "EXPLICIT_ROUND_UP": """
        M = {6, 6} + {3, 3} + {2, 2} ==> {11, 11}
        O ==> ceil((M - F) / S) + 1
        ==> ceil(({11, 11} - {3, 3}) / {2, 2}) + {1, 1}
        ==> ceil({8, 8} / {2, 2}) + {1, 1}
        ==> {5, 5}
        The sample points are {0, 2, 4, 6, 8} in each dimension.
        """,
    "SAME_UPPER": """
        (B, A can be calculated for SAME_UPPER and SAME_LOWER mode)
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
        """,
    "SAME_LOWER": """
        I = {6, 6}
        S = {2, 2}
        O = ceil(I / S) = {3, 3}
        P = floor((I - 1) / S) * S + F - I
        ==> {1, 1}
        A = floor({1, 1} / {2, 2})
        ==> {0, 0}
        B = {1, 1} - {0, 0}
        ==> {1, 1}
        The sample points are {0, 2, 4} in each dimension.
        """,
}
SEED_EXAMPLE_2 = {
    "CAFFE_ROUND_DOWN": """
        M = {6, 6} + {3, 3} + {3, 3} ==> {12, 12}
        EXPLICIT_ROUND_DOWN ==> floor((M - F) / S) + 1
        ==> floor(({12, 12} - {3, 3}) / {2, 2}) + {1, 1}
        ==> {5, 5}
        DIFF = (((EXPLICIT_ROUND_DOWN - 1) * S >= I + B) ? {1, 1} : {0, 0})
        ==> ({5, 5} - {1, 1}) * {2, 2} >= {6, 6} + {3, 3} ? {1, 1} : {0,0}
        ==> {0, 0}
        O ==> EXPLICIT_ROUND_DOWN - DIFF
        ==> {5, 5} - {0, 0}
        ==> {5, 5}
        """,
    "CAFFE_ROUND_UP": """
        M = {6, 6} + {3, 3} + {3, 3} ==> {12, 12}
        EXPLICIT_ROUND_UP ==> ceil((M - F) / S) + 1
        ==> ceil(({12, 12} - {3, 3}) / {2, 2}) + {1, 1}
        ==> {6, 6}
        DIFF = (((EXPLICIT_ROUND_UP - 1) * S >= I + B) ? {1, 1} : {0, 0})
        ==> ({6, 6} - {1, 1}) * {2, 2} >= {6, 6} + {3, 3} ? {1, 1} : {0,0}
        ==> {1, 1}
        O ==> EXPLICIT_ROUND_UP - DIFF
        ==> {6, 6} - {1, 1}
        ==> {5, 5}
        The sample points are {0, 2, 4, 6, 8} in each dimension.
        """,
}


@pytest.mark.parametrize("mode", sorted(SEED_EXAMPLE_1))
def test_example_1_explain_reproduces_the_seed_lines(mode):
    _assert_in_order(SEED_EXAMPLE_1[mode], _geometry(EXAMPLE_1, mode).explain())


@pytest.mark.parametrize("mode", sorted(SEED_EXAMPLE_2))
def test_example_2_explain_reproduces_the_seed_lines(mode):
    _assert_in_order(SEED_EXAMPLE_2[mode], _geometry(EXAMPLE_2, mode).explain())


def test_example_1_seed_errata_are_named():
    up = _geometry(EXAMPLE_1, "EXPLICIT_ROUND_UP").explain()
    assert "only because {8, 8} / {2, 2} is exact" in up  # does not show rounding up
    same = _geometry(EXAMPLE_1, "SAME_LOWER").explain()
    assert "typos for SAME_UPPER / SAME_LOWER" in same  # "SAMPLE_UPPER/LOWER"
    assert "The given prePadding {3, 3} and postPadding {2, 2} are ignored" in same
    # B = F = 3: the first explicit / CAFFE window is padding only
    for mode in ("EXPLICIT_ROUND_DOWN", "CAFFE_ROUND_DOWN"):
        assert (
            "the first window reads input positions {-3, -2, -1}, all in the"
            in _geometry(EXAMPLE_1, mode).explain()
        )


def test_example_2_explicit_round_up_would_keep_a_window_in_the_end_padding():
    g = _geometry(EXAMPLE_2, "EXPLICIT_ROUND_UP")
    assert g.output_size == (6, 6) and g.window_starts[0][-1] == 7 >= 6


def test_example_2_caffe_restrictions_are_warned_not_enforced():
    for mode in ("CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"):
        with pytest.warns(PaddingModeWarning, match="Restriction 1"):
            g = output_geometry(**EXAMPLE_2, padding_mode=mode)
        assert [r.triggered for r in g.restrictions] == [True, False]
        assert g.output_size == (5, 5)
        assert "self-contradictory" in g.explain()


# the seed's examples on a tensor (TV05 / TV06): x = 1..6, -inf where a window is padding only
TV05 = {
    "EXPLICIT_ROUND_DOWN": [-np.inf, 2, 4, 6, 6],
    "EXPLICIT_ROUND_UP": [-np.inf, 2, 4, 6, 6],
    "SAME_UPPER": [3, 5, 6],
    "SAME_LOWER": [2, 4, 6],
    "CAFFE_ROUND_DOWN": [-np.inf, 2, 4, 6, 6],
    "CAFFE_ROUND_UP": [-np.inf, 2, 4, 6, 6],
}
TV06 = dict(TV05, EXPLICIT_ROUND_UP=[-np.inf, 2, 4, 6, 6, -np.inf])


@pytest.mark.parametrize("mode", MODES)
def test_tensorrt_pooling_values_tv05_tv06(mode):
    x = np.arange(1.0, 7.0).reshape(1, 1, 6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaddingModeWarning)
        y1 = frameworks.tensorrt_pooling(x, 3, 2, 3, 2, padding_mode=mode)
        y2 = frameworks.tensorrt_pooling(x, 3, 2, 3, 3, padding_mode=mode)
    assert y1.ravel().tolist() == TV05[mode]
    assert y2.ravel().tolist() == TV06[mode]


def test_tensorrt_example_1_in_2d_first_row_and_column_are_padding_only():
    x = np.arange(36.0).reshape(1, 1, 6, 6)
    y = frameworks.tensorrt_pooling(x, 3, 2, pre_padding=3, post_padding=2)
    assert y.shape == (1, 1, 5, 5)
    assert np.all(y[0, 0, 0] == -np.inf) and np.all(y[0, 0, :, 0] == -np.inf)
    assert y[0, 0, 1:, 1:].tolist() == [
        [7, 9, 11, 11],
        [19, 21, 23, 23],
        [31, 33, 35, 35],
        [31, 33, 35, 35],
    ]


# --------------------------------------------------------------------------- seed 002


def test_directml_doc_formula_ignores_dilation_tv08():
    """Doc: (PaddedSize - WindowSizes) / Strides + 1 = the formula with D = 1."""
    doc = pool_geometry((5,), 2, 1, padding=1, dilation=1)
    real = pool_geometry((5,), 2, 1, padding=1, dilation=2)
    assert doc.output_shape == (6,) and real.output_shape == (5,)
    ax = real.axes[0]
    assert (ax.padded_size, ax.effective_kernel) == (7, 3)
    assert ax.window_starts == (-1, 0, 1, 2, 3)
    assert ax.taps(4) == (3, 5) and ax.tap_kinds(4) == ("input", "padding")
    # the doc's sixth window would start at 4 and read 4 and 6: past the padded input [-1, 6)
    assert 4 + 2 >= ax.input_size + ax.pad_end


def test_directml_max_pooling2_tv08_values_and_uint32_indices():
    x = np.arange(1.0, 6.0).reshape(1, 1, 1, 5)
    y, idx = frameworks.directml_max_pooling2(x, 1, (1, 2), (0, 1), (0, 1), (1, 2))
    assert y.ravel().tolist() == [2, 3, 4, 5, 4]
    assert idx.ravel().tolist() == [1, 2, 3, 4, 3]
    assert idx.dtype == np.uint32


def test_directml_indices_count_the_whole_tensor_tv22():
    x = np.array(
        [
            [[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
            [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]],
        ],
        dtype=float,
    )
    y, idx = frameworks.directml_max_pooling2(x, 1, 2, 0, 0, 1)
    assert y.ravel().tolist() == [9, 9, 7, 6, 5, 5, 3, 2]
    assert idx.ravel().tolist() == [1, 1, 6, 11, 12, 13, 21, 19]
    assert idx.dtype == np.uint32
    # PyTorch numbers the same winners inside each (n, c) plane
    assert frameworks.torch_max_pool(x, 2, 1, return_indices=True)[1].ravel().tolist() == [
        1,
        1,
        0,
        5,
        0,
        1,
        3,
        1,
    ]


def test_directml_first_occurrence_wins_ties():
    y, idx = frameworks.directml_max_pooling2(np.array([[[[3.0, 3, 1, 3]]]]), 1, (1, 2), 0, 0, 1)
    assert y.ravel().tolist() == [3, 3, 3] and idx.ravel().tolist() == [0, 1, 3]  # TV15
    y, idx = frameworks.directml_max_pooling2(np.array([[[[1.0, 5], [5, 1]]]]), 2, 2, 0, 0, 1)
    assert y.item() == 5 and idx.item() == 1  # TV16


SEED_OFFSETS = {  # the seed's table: field -> (size x64, size x86, offset x64, offset x86)
    "InputTensor": (8, 4, 0, 0),
    "OutputTensor": (8, 4, 8, 4),
    "OutputIndicesTensor": (8, 4, 16, 8),
    "DimensionCount": (4, 4, 24, 12),
    "Strides": (8, 4, 32, 16),
    "WindowSize": (8, 4, 40, 20),
    "StartPadding": (8, 4, 48, 24),
    "EndPadding": (8, 4, 56, 28),
    "Dilations": (8, 4, 64, 32),
}


def test_directml_struct_sizes_and_offsets_match_the_seed():
    x64, x86 = dml_max_pooling2_layout(64), dml_max_pooling2_layout(32)
    assert (x64.size, x86.size) == (72, 36)
    assert [f.name for f in x64.fields] == list(SEED_OFFSETS)
    for f64, f86 in zip(x64.fields, x86.fields, strict=True):
        assert (f64.size, f86.size, f64.offset, f86.offset) == SEED_OFFSETS[f64.name]


# the seed's convolution and deconvolution formulas, with the numbers notebook 02b shows


def test_convolution_same_upper_uses_the_dilated_filter():
    g = output_geometry(7, 3, 2, dilation=2, padding_mode="SAME_UPPER", layer="convolution")
    assert g.effective_window == (5,) and g.total_padding == (4,)
    assert (g.output_size, g.pre_padding, g.post_padding) == ((4,), (2,), (2,))
    assert g.window_starts == ((-2, 0, 2, 4),)


def test_caffe_correction_is_for_pooling_only():
    conv = output_geometry(
        6, 3, 2, pre_padding=3, padding_mode="CAFFE_ROUND_UP", layer="convolution"
    )
    with pytest.warns(PaddingModeWarning, match="Restriction 1"):
        pool = output_geometry(6, 3, 2, pre_padding=3, padding_mode="CAFFE_ROUND_UP")
    assert conv.output_size == (6,) and conv.diff == (0,)  # ceil((6 + 2*3 - 3) / 2) + 1
    assert pool.output_size == (5,) and pool.diff == (1,)


@pytest.mark.parametrize(
    ("mode", "pads", "out", "b", "a"),
    [
        ("EXPLICIT_ROUND_DOWN", (1, 1), 7, 1, 1),  # (4 - 1) * 2 + 3 - (1 + 1)
        ("EXPLICIT_ROUND_UP", (1, 1), 7, 1, 1),  # the four explicit / CAFFE modes agree
        ("CAFFE_ROUND_UP", (1, 0), 7, 1, 1),  # B on both sides
        ("SAME_UPPER", (5, 5), 8, 0, 1),  # min(4 * 2, 3 * 2 + 3); P = max(3 - 2, 0)
        ("SAME_LOWER", (5, 5), 8, 1, 0),
    ],
)
def test_deconvolution_sizes(mode, pads, out, b, a):
    g = output_geometry(
        4, 3, 2, pre_padding=pads[0], post_padding=pads[1], padding_mode=mode, layer="deconvolution"
    )
    assert (g.output_size, g.pre_padding, g.post_padding) == ((out,), (b,), (a,))
