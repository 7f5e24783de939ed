"""The worked examples of seeds 000 (OpenVINO AdaptiveMaxPool-8) and 003 (quantized ReLU ->
max pool), number for number, as notebooks 04, 05 and 05b show them.

Seed 000 (``000_60a95b78303c79e0.txt``, Japanese): the bins formula, the
1x3x32x32 -> 16x16 example with its index output, per-plane indices in
``[0, H*W*D)``; docs/semantics.md §4.6 TV24-TV28 (bins 5->3, 7->4, 10->3, 32->16, the
fixed-pool export workaround, two channels).  Seed 003
(``003_2b7968ff41079928.txt``, Portuguese): the chains of TV29-TV31 with
every stage, padding that must not act as the zero point (TV32, the seed's
negative window), and the floor-rule sizes (TV33).
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor

import numpy as np
import pytest

from pooltutor import frameworks as fw
from pooltutor import quant
from pooltutor.geometry import adaptive_bins, adaptive_geometry, fixed_pool_contrast, pool_geometry
from pooltutor.pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool

PI_DIGITS = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
             2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5]

# --------------------------------------------------------------------------- seed 000


def _seed_bins(size_in: int, size_out: int):
    """The seed's formula, read literally with exact fractions:
    start = floor(i * D_in / D_out), end = ceil((i + 1) * D_in / D_out)."""
    return tuple((floor(Fraction(i * size_in, size_out)),
                  ceil(Fraction((i + 1) * size_in, size_out))) for i in range(size_out))


@pytest.mark.parametrize("size_in, size_out, bins", [
    (5, 3, ((0, 2), (1, 4), (3, 5))),
    (7, 4, ((0, 2), (1, 4), (3, 6), (5, 7))),
    (10, 3, ((0, 4), (3, 7), (6, 10))),
    (32, 16, tuple((2 * i, 2 * i + 2) for i in range(16))),
])
def test_seed000_bins(size_in, size_out, bins):
    assert adaptive_bins(size_in, size_out) == bins == _seed_bins(size_in, size_out)
    axis = adaptive_geometry((size_in,), size_out).axes[0]
    assert axis.overlapping == (size_in % size_out != 0)
    starts_overlap = any(b[0] < a[1] for a, b in zip(bins, bins[1:], strict=False))
    assert starts_overlap == axis.overlapping


def test_seed000_bins_formula_for_every_small_size():
    for size_in in range(1, 40):
        for size_out in range(1, 40):
            assert adaptive_bins(size_in, size_out) == _seed_bins(size_in, size_out)


def test_seed000_example_1x3x32x32_to_16x16():
    x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
    y, idx = fw.openvino_adaptive_max_pool(x, [16, 16])
    assert y.shape == idx.shape == (1, 3, 16, 16)                 # output ports 1 and 2 of the XML
    assert y.dtype == np.float32 and idx.dtype == np.int64        # index_element_type "i64"
    assert idx.min() >= 0 and idx.max() < 32 * 32                 # per plane: [0, H*W)
    planes = x.reshape(1, 3, 32 * 32)
    np.testing.assert_array_equal(np.take_along_axis(planes, idx.reshape(1, 3, -1), 2),
                                  y.reshape(1, 3, -1))
    # 32 -> 16 divides: every bin is a 2x2 block, the same as a 2x2 max pool with stride 2
    np.testing.assert_array_equal(y, max_pool(x, 2).output)
    # ONNX-style whole-tensor indices would add the plane offsets c * 1024
    onnx_idx = max_pool(x, 2, return_indices=True, index_layout="tensor").indices
    offsets = np.broadcast_to(np.arange(3).reshape(1, 3, 1, 1) * 1024, idx.shape)
    np.testing.assert_array_equal(onnx_idx - idx, offsets)


def test_seed000_index_element_type_is_the_attribute_not_output_type():
    x = np.arange(25.0).reshape(1, 1, 5, 5)
    assert fw.openvino_adaptive_max_pool(x, 3, index_element_type="i32")[1].dtype == np.int32
    with pytest.raises(TypeError, match="output_type"):
        fw.openvino_adaptive_max_pool(x, 3, output_type="i64")     # the seed's stale XML name


@pytest.mark.parametrize("tv, x, out, mx, arg, avg, k, s, fixed_avg", [
    ("TV24", [3, 1, 4, 1, 5], 3, [3, 4, 5], [0, 2, 4], [2, 2, 3], 3, 1, [8 / 3, 2, 10 / 3]),
    ("TV25", [3, 1, 4, 1, 5, 9, 2], 4, [3, 4, 9, 9], [0, 2, 5, 5], [2, 2, 5, 5.5], 4, 1,
     [2.25, 2.75, 4.75, 4.25]),
    ("TV26", [3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 3, [4, 9, 6], [2, 5, 7], [2.25, 4.25, 4], 4, 3,
     [2.25, 4.25, 4]),
    ("TV27", PI_DIGITS, 16, [3, 4, 9, 6, 5, 8, 9, 9, 3, 8, 6, 6, 3, 8, 7, 9],
     [0, 2, 5, 7, 8, 11, 12, 14, 17, 18, 20, 22, 24, 26, 29, 30],
     [2, 2.5, 7, 4, 4, 6.5, 8, 6, 2.5, 6, 4, 5, 3, 5.5, 4.5, 7], 2, 2,
     [2, 2.5, 7, 4, 4, 6.5, 8, 6, 2.5, 6, 4, 5, 3, 5.5, 4.5, 7]),
])
def test_tv24_to_tv27_adaptive_values_and_the_export_workaround(tv, x, out, mx, arg, avg, k, s,
                                                                 fixed_avg):
    x = np.array([[x]], dtype=np.float64)
    r = adaptive_max_pool(x, out, return_indices=True)
    assert r.output.ravel().tolist() == mx, tv
    assert r.indices.ravel().tolist() == arg, tv
    y, i = fw.openvino_adaptive_max_pool(x, out)
    assert y.ravel().tolist() == mx and i.ravel().tolist() == arg, tv
    assert adaptive_avg_pool(x, out).output.ravel().tolist() == avg, tv
    contrast = fixed_pool_contrast(adaptive_geometry(x.shape[2:], out))
    assert (contrast.kernel, contrast.stride) == ((k,), (s,)), tv
    fixed = avg_pool(x, k, s).output.ravel()
    np.testing.assert_allclose(fixed, fixed_avg, rtol=0, atol=1e-12)
    exact = fixed.tolist() == avg
    assert exact == (tv in ("TV26", "TV27")), tv                  # TV26 by coincidence
    assert contrast.equal == (tv in ("TV26", "TV27")), tv
    assert (x.shape[2] % out == 0) == (tv == "TV27"), tv          # only TV27 divides


def test_tv26_is_a_coincidence_of_windows_not_of_values():
    # 10 -> 3: the windows [0,4) [3,7) [6,10) of k4 s3 are exactly the bins
    geom = pool_geometry((10,), 4, 3)
    starts = geom.axes[0].window_starts
    assert tuple((a, a + 4) for a in starts) == adaptive_bins(10, 3)
    # ... but 11 -> 3 does not divide either and the workaround k5 s3 misses bin 1
    contrast = fixed_pool_contrast(adaptive_geometry((11,), 3))
    assert (contrast.kernel, contrast.stride) == ((5,), (3,))
    assert adaptive_bins(11, 3) == ((0, 4), (3, 8), (7, 11)) and not contrast.equal


def test_tv28_two_channels_per_plane_indices():
    c0 = np.arange(25.0).reshape(5, 5)
    x = np.stack([c0, 100 - c0])[None]
    y, idx = fw.openvino_adaptive_max_pool(x, [3, 3])
    assert y[0, 0].tolist() == [[6, 8, 9], [16, 18, 19], [21, 23, 24]]
    assert idx[0, 0].tolist() == [[6, 8, 9], [16, 18, 19], [21, 23, 24]]
    assert y[0, 1].tolist() == [[100, 99, 97], [95, 94, 92], [85, 84, 82]]
    assert idx[0, 1].tolist() == [[0, 1, 3], [5, 6, 8], [15, 16, 18]]
    torch_y, torch_idx = fw.torch_adaptive_max_pool(x, 3, return_indices=True)
    np.testing.assert_array_equal(torch_idx, idx)
    np.testing.assert_array_equal(torch_y, y)
    tensor = adaptive_max_pool(x, 3, return_indices=True, index_layout="tensor").indices
    np.testing.assert_array_equal(tensor[0, 1] - idx[0, 1], 25)


def test_seed000_ties_go_to_the_first_in_row_major_order():
    x = np.array([[[[1.0, 7], [7, 7]]]])
    assert fw.openvino_adaptive_max_pool(x, 1)[1].item() == 1


# --------------------------------------------------------------------------- seed 003


def test_tv29_chain_zero_point_0_every_stage():
    ch = quant.relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)
    assert ch.accumulators.tolist() == [[-2, 4], [6, -8]]
    assert ch.codes.tolist() == [[-1, 2], [3, -4]]
    assert ch.activated.tolist() == [[0, 2], [3, 0]]
    assert ch.pooled.tolist() == [[3]]
    assert ch.winners.tolist() == [[2]]                            # the 3 at (1, 0)
    assert ch.dtype == "int8" and ch.relu_floor == 0


def test_tv30_chain_zero_point_128_and_the_wrong_relu_agrees():
    ch = quant.relu_max_pool_chain([[-2, 4], [6, -8]], 1.0, 128, dtype="uint8")
    assert ch.codes.tolist() == [[126, 132], [134, 120]]
    assert ch.activated.tolist() == [[128, 132], [134, 128]]
    assert ch.pooled.tolist() == [[134]]
    assert ch.relu_floor == 128
    wrong = quant.relu(ch.codes, 0)                                # max(q, 0) on raw codes
    assert wrong.tolist() == [[126, 132], [134, 120]]
    assert quant.quantized_max_pool(wrong[None, None], 2).output.item() == 134  # cannot tell


def test_tv31_all_negative_window_tells_the_relus_apart():
    codes = np.array([[126, 120], [110, 127]], dtype=np.uint8)
    right = quant.relu(codes, 128)
    wrong = quant.relu(codes, 0)
    assert right.tolist() == [[128, 128], [128, 128]]
    assert wrong.tolist() == codes.tolist()
    assert quant.quantized_max_pool(right[None, None], 2).output.item() == 128
    assert quant.quantized_max_pool(wrong[None, None], 2).output.item() == 127
    assert quant.dequantize(np.array([127], dtype=np.uint8), 0.5, 128).tolist() == [-0.5]
    # the same from accumulators: acc * M + 128 = codes
    ch = quant.relu_max_pool_chain([[-2, -8], [-18, -1]], 1.0, 128, dtype="uint8")
    assert ch.codes.tolist() == codes.tolist() and ch.pooled.tolist() == [[128]]


def test_tv32_padding_skipped_never_the_zero_point():
    q = np.array([[[[120, 126], [110, 100]]]], dtype=np.uint8)
    r = quant.quantized_max_pool(q, kernel=2, stride=1, padding=1)
    assert r.output[0, 0].tolist() == [[120, 126, 126], [120, 126, 126], [110, 110, 100]]
    assert quant.dequantize(r.output[0, 0], 0.5, 128).tolist() == [[-4, -1, -1], [-4, -1, -1],
                                                                  [-9, -9, -14]]
    # the lowest code as the pad value gives the same answer: it never beats a real element
    lowest = max_pool(q, 2, 1, padding=1, pad_taps="lowest").output
    np.testing.assert_array_equal(lowest, r.output)
    # a pad holding the zero point (real 0) wins on the whole border
    zp_pad = max_pool(np.pad(q, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=128), 2, 1)
    assert zp_pad.output[0, 0].tolist() == [[128, 128, 128], [128, 126, 128], [128, 128, 128]]


def test_seed003_negative_window_and_a_zero_pad():
    window = np.array([[[[-8.0, -5], [-3, -6]]]])
    assert max_pool(window, 2).output.item() == -3
    skipped = max_pool(window, 2, 1, padding=1).output[0, 0]
    assert skipped.tolist() == [[-8, -5, -5], [-3, -3, -5], [-3, -3, -6]]
    zero_pad = max_pool(np.pad(window, ((0, 0), (0, 0), (1, 1), (1, 1))), 2, 1).output[0, 0]
    assert zero_pad.tolist() == [[0, 0, 0], [0, -3, 0], [0, 0, 0]]   # the non-existent 0 wins


@pytest.mark.parametrize("size, rounding, shape", [
    (4, "floor", (2, 2)), (3, "floor", (1, 1)), (3, "ceil_torch", (2, 2)), (5, "floor", (2, 2)),
])
def test_tv33_floor_rule_sizes(size, rounding, shape):
    assert pool_geometry((size, size), 2, 2, rounding=rounding).output_shape == shape
    if rounding == "floor":
        ch = quant.relu_max_pool_chain(np.arange(size * size).reshape(size, size), 1.0, 0)
        assert ch.pooled.shape == shape


def test_seed003_4x4_gives_four_values_3x3_gives_one():
    acc = np.array([[-2, 4, 1, -3], [6, -8, 0, 5], [7, 2, -1, -4], [3, -9, 8, 2]])
    ch = quant.relu_max_pool_chain(acc, 0.5, 0)
    assert ch.pooled.size == 4
    ch3 = quant.relu_max_pool_chain(acc[:3, :3], 0.5, 0)
    assert ch3.pooled.size == 1
    # the third row and column of the 3x3 input are never read
    assert ch3.geometry.axes[0].window_starts == (0,)


def test_seed003_max_pool_keeps_the_scale_only_with_one_scale_and_zero_point():
    codes = np.array([[[[126, 120], [110, 127]]]], dtype=np.uint8)
    pooled = quant.quantized_max_pool(codes, 2).output
    # one (scale, zp): the largest code is the code of the largest real value
    assert quant.dequantize(pooled, 0.5, 128).item() == quant.dequantize(codes, 0.5, 128).max()


def test_seed003_negative_window_max_is_minus_3_not_a_padding_zero():
    neg = np.array([[[[-8, -5], [-3, -6]]]], dtype=np.float32)
    assert max_pool(neg, kernel=2, stride=2).output.ravel().tolist() == [-3.0]
    assert max_pool(neg, kernel=2, stride=2).output.ravel().tolist() != [0.0]   # no zero wins


@pytest.mark.parametrize("side, pooled", [(4, 4), (3, 1), (5, 4), (2, 1)])
def test_seed003_4x4_gives_four_pooled_values_3x3_gives_one(side, pooled):
    out = max_pool(np.arange(side * side, dtype=float).reshape(1, 1, side, side), kernel=2, stride=2)
    assert out.output.size == pooled


@pytest.mark.parametrize("acc, first, second", [(-198, -119, -60), (-188, -113, -57)])
def test_tv36_tflite_double_is_two_roundings_half_away(acc, first, second):
    # the two steps notebook 05b shows: acc * q / 2**31 rounded, then the shift rounded
    q31, shift = quant.quantize_multiplier(0.3)
    assert (q31, shift) == (1288490189, -1)
    step1 = quant.requantize([acc], q31 / 2**31, 0, dtype="int16", rounding="half_away").item()
    step2 = quant.requantize([step1], 2.0**shift, 0, dtype="int8", rounding="half_away").item()
    assert (step1, step2) == (first, second)
    assert quant.requantize([acc], 0.3, 0, rounding="tflite_double").item() == second
    assert quant.requantize([acc], 0.3, 0, rounding="half_even").item() == round(acc * 0.3)
