"""The pooling engine on hand-computed cases and on the spec's test vectors TV01-TV28.

Every expected number here was worked out by hand or copied as a literal from
``docs/semantics.md`` §4 / ``tests/data/vectors.json`` (CI must not read ../shared).
Each framework column is reproduced with the engine parameters that model it:

* PyTorch / ONNX: ``rounding="ceil_torch"`` for ceil_mode, padding skipped,
  NaN ``propagate_last`` (torch), indices ``plane`` (torch) or ``tensor`` (ONNX);
* OpenVINO ``ceil``: ``rounding="ceil", empty_value="lowest",
  empty_index="plane_start", nan_policy="ignore"``;
* TensorRT (docs): padding compared as -inf, ``pad_taps="neg_inf"``;
* BVLC Caffe: ``rounding="caffe"``, an empty window is -FLT_MAX with mask -1.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from pooltutor import reference
from pooltutor.errors import PoolTutorError
from pooltutor.geometry import same_padding
from pooltutor.pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool

L32 = -3.4028234663852886e38          # lowest float32, "L" in docs/semantics.md §4
NAN = np.nan
INF = np.inf

OV = dict(empty_value="lowest", empty_index="plane_start", nan_policy="ignore")


def vec(values, dtype=np.float64):
    """A ``[1, 1, I]`` tensor (1-D vectors in docs/semantics.md §4 are shaped so)."""
    return np.array(values, dtype=dtype).reshape(1, 1, -1)


def img(rows, dtype=np.float64):
    return np.array(rows, dtype=dtype)[None, None]


def check_max(result, y, idx=None, dtype=None):
    out = result.output[0, 0] if result.output.shape[:2] == (1, 1) else result.output
    np.testing.assert_array_equal(out, np.array(y, dtype=out.dtype))
    if dtype is not None:
        assert result.output.dtype == np.dtype(dtype)
    if idx is not None:
        ind = result.indices[0, 0] if result.indices.shape[:2] == (1, 1) else result.indices
        np.testing.assert_array_equal(ind, np.array(idx))
        assert result.indices.dtype == np.int64


def check_avg(result, y, dtype=np.float64):
    out = result.output[0, 0] if result.output.shape[:2] == (1, 1) else result.output
    np.testing.assert_array_equal(out, np.array(y, dtype=np.float64).astype(dtype))
    assert result.output.dtype == np.dtype(dtype)


# =========================================================================== hand-computed


def test_1d_max_and_avg_stride_asymmetric_padding():
    x = vec(9 - np.arange(10.0))                        # 9, 8, ..., 0
    # K3 S3 pads (2, 1): M = 13, O = 4, starts -2, 1, 4, 7
    r = max_pool(x, 3, 3, padding=(2, 1), return_indices=True)
    check_max(r, [9, 8, 5, 2], [0, 1, 4, 7], np.float64)
    assert r.geometry.axes[0].window_starts == (-2, 1, 4, 7)
    check_avg(avg_pool(x, 3, 3, padding=(2, 1)), [9, 7, 4, 1])               # valid
    check_avg(avg_pool(x, 3, 3, padding=(2, 1), divisor="padded"), [3, 7, 4, 1])
    check_avg(avg_pool(x, 3, 3, padding=(2, 1), divisor=2), [4.5, 10.5, 6, 1.5])


def test_1d_dilation():
    x = vec(np.arange(10.0))
    # K3 D3: taps o, o+3, o+6
    check_max(max_pool(x, 3, 1, dilation=3, return_indices=True), [6, 7, 8, 9], [6, 7, 8, 9])
    check_max(max_pool(x, 3, 2, dilation=3, return_indices=True), [6, 8], [6, 8])
    check_avg(avg_pool(x, 3, 1, dilation=3), [3, 4, 5, 6])


def test_2d_max_and_every_divisor():
    x = np.arange(20.0).reshape(1, 1, 4, 5)
    # H: K2 S2 pads (1, 0) -> starts -1, 1; W: K3 S1 pads (0, 2) -> starts 0..4
    args = dict(kernel=(2, 3), stride=(2, 1), padding=[(1, 0), (0, 2)])
    r = max_pool(x, **args, return_indices=True)
    check_max(r, [[2, 3, 4, 4, 4], [12, 13, 14, 14, 14]], [[2, 3, 4, 4, 4], [12, 13, 14, 14, 14]])
    check_avg(avg_pool(x, **args), [[1, 2, 3, 3.5, 4], [8.5, 9.5, 10.5, 11, 11.5]])
    check_avg(avg_pool(x, **args, divisor="padded"),
              [[3 / 6, 6 / 6, 9 / 6, 7 / 6, 4 / 6], [51 / 6, 57 / 6, 63 / 6, 44 / 6, 23 / 6]])
    check_avg(avg_pool(x, **args, divisor=4),
              [[0.75, 1.5, 2.25, 1.75, 1.0], [12.75, 14.25, 15.75, 11.0, 5.75]])


def test_3d_max_and_avg():
    x = np.arange(24.0).reshape(1, 1, 2, 3, 4)          # value = 12 d + 4 h + w
    r = max_pool(x, (2, 2, 2), (1, 2, 2), return_indices=True)
    check_max(r, [[[17, 19]]], [[[17, 19]]])
    check_avg(avg_pool(x, (2, 2, 2), (1, 2, 2)), [[[8.5, 10.5]]])


def test_3d_padding_and_ceil_torch():
    x = np.arange(24.0).reshape(1, 1, 2, 3, 4)
    # d starts -1, 1; h: raw ceil 3 -> clipped to 2, starts -1, 1; w starts -1, 1, 3
    r = max_pool(x, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    expected = [[[0, 2, 3], [8, 10, 11]], [[12, 14, 15], [20, 22, 23]]]
    check_max(r, expected, expected)
    assert r.geometry.axes[1].clipped
    check_avg(avg_pool(x, 2, 2, padding=1, rounding="ceil_torch"),
              [[[0, 1.5, 3], [6, 7.5, 9]], [[12, 13.5, 15], [18, 19.5, 21]]])
    # every window has 8 taps inside the padded extent
    check_avg(avg_pool(x, 2, 2, padding=1, rounding="ceil_torch", divisor="padded"),
              [[[0, 0.375, 0.375], [1.5, 3.75, 2.25]], [[1.5, 3.375, 1.875], [4.5, 9.75, 5.25]]])


def test_batch_and_channels_are_independent():
    x = np.arange(2 * 3 * 6.0).reshape(2, 3, 6)
    r = max_pool(x, 2, 2, return_indices=True)
    np.testing.assert_array_equal(r.output, x[:, :, 1::2])
    np.testing.assert_array_equal(r.indices, np.broadcast_to([1, 3, 5], (2, 3, 3)))
    r = max_pool(x, 2, 2, return_indices=True, index_layout="tensor")
    np.testing.assert_array_equal(r.indices, np.arange(36).reshape(2, 3, 6)[:, :, 1::2])
    np.testing.assert_array_equal(avg_pool(x, 2, 2).output, x[:, :, 1::2] - 0.5)


def test_result_object():
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    r = max_pool(x, 2, return_indices=True, index_layout="tensor")
    y, idx = r
    assert y is r.output and idx is r.indices
    assert r.op == "max" and r.index_layout == "tensor" and r.input is x
    assert r.rules == dict(rounding="floor", pad_taps="skip", empty_value="neg_inf",
                           empty_index="minus_one", nan_policy="propagate_last", ties="first")
    assert r.geometry.output_shape == (2, 2)
    assert max_pool(x, 2).indices is None
    a = avg_pool(x, 2, divisor="padded")
    assert a.op == "avg" and a.indices is None and a.rules["divisor"] == "padded"
    assert adaptive_max_pool(x, 3).op == "adaptive_max"
    assert adaptive_avg_pool(x, 3).op == "adaptive_avg"
    with pytest.raises(AttributeError):
        r.output = None                                  # frozen


# =========================================================================== TV01 - TV08b, TV39


def test_tv01_partial_last_window():
    for rounding in ("ceil_torch", "ceil", "caffe"):
        check_max(max_pool(vec([1, 2, 3, 4, 5]), 2, 2, rounding=rounding, return_indices=True),
                  [2, 4, 5], [1, 3, 4])


def test_tv02_last_window_in_the_right_padding():
    x = img([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32)
    torch = max_pool(x, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    check_max(torch, [[1, 3], [7, 9]], [[0, 2], [6, 8]], np.float32)
    ov = max_pool(x, 2, 2, padding=1, rounding="ceil", **OV, return_indices=True)
    check_max(ov, [[1, 3, L32], [7, 9, L32], [L32, L32, L32]], [[0, 2, 0], [6, 8, 0], [0, 0, 0]],
              np.float32)


def test_tv03():
    x = vec([1, 2, 3, 4, 5], np.float32)
    check_max(max_pool(x, 2, 2, 1, rounding="ceil_torch", return_indices=True),
              [1, 3, 5], [0, 2, 4])
    check_max(max_pool(x, 2, 2, 1, rounding="ceil", **OV, return_indices=True),
              [1, 3, 5, L32], [0, 2, 4, 0])
    # TensorRT EXPLICIT_ROUND_UP, padding is -inf (docs): the 4th window is padding + outside
    check_max(max_pool(x, 2, 2, 1, rounding="ceil", pad_taps="neg_inf", return_indices=True),
              [1, 3, 5, -INF], [0, 2, 4, -1])


def test_tv04_kernel_shorter_than_stride_no_padding():
    x = vec([1, 2, 3, 4, 5, 6], np.float32)
    check_max(max_pool(x, 1, 2, rounding="ceil_torch", return_indices=True), [1, 3, 5], [0, 2, 4])
    # BVLC Caffe keeps the 4th window (no padding, no clip): -FLT_MAX, mask -1
    check_max(max_pool(x, 1, 2, rounding="caffe", empty_value="lowest", return_indices=True),
              [1, 3, 5, L32], [0, 2, 4, -1])
    check_max(max_pool(x, 1, 2, rounding="ceil", **OV, return_indices=True),
              [1, 3, 5, L32], [0, 2, 4, 0])


def test_tv05_tensorrt_example_1():
    x = vec([1, 2, 3, 4, 5, 6], np.float32)
    for rounding in ("floor", "ceil"):                  # EXPLICIT_ROUND_DOWN = _UP here
        check_max(max_pool(x, 3, 2, (3, 2), rounding=rounding, **OV, return_indices=True),
                  [L32, 2, 4, 6, 6], [0, 1, 3, 5, 5])
        check_max(max_pool(x, 3, 2, (3, 2), rounding=rounding, pad_taps="neg_inf"),
                  [-INF, 2, 4, 6, 6])
    # onnx.reference: the all-padding window is NaN with index -1
    check_max(max_pool(x, 3, 2, (3, 2), empty_value="nan", return_indices=True),
              [NAN, 2, 4, 6, 6], [-1, 1, 3, 5, 5])
    check_max(max_pool(x, 3, 2, same_padding(6, 3, 2, upper=True)), [3, 5, 6])
    check_max(max_pool(x, 3, 2, same_padding(6, 3, 2, upper=False)), [2, 4, 6])


def test_tv06_tensorrt_example_2():
    x = vec([1, 2, 3, 4, 5, 6], np.float32)
    for rounding in ("floor_clip", "ceil_torch", "caffe"):       # CAFFE_ROUND_DOWN / _UP: 5
        check_max(max_pool(x, 3, 2, 3, rounding=rounding, **OV, return_indices=True),
                  [L32, 2, 4, 6, 6], [0, 1, 3, 5, 5])
    # EXPLICIT_ROUND_UP: 6 windows, the last (taps 7, 8 padding, 9 outside) is empty
    check_max(max_pool(x, 3, 2, 3, rounding="ceil", **OV, return_indices=True),
              [L32, 2, 4, 6, 6, L32], [0, 1, 3, 5, 5, 0])
    check_max(max_pool(x, 3, 2, 3, rounding="ceil", pad_taps="neg_inf"), [-INF, 2, 4, 6, 6, -INF])


def test_tv07_dilation_padding_ceil():
    x = vec([1, 2, 3, 4, 5], np.float32)
    check_max(max_pool(x, 2, 3, 1, 2, rounding="ceil_torch", return_indices=True), [2, 5], [1, 4])
    check_max(max_pool(x, 2, 3, 1, 2, rounding="ceil", **OV, return_indices=True),
              [2, 5, L32], [1, 4, 0])


def test_tv08_dilation_padding_floor():
    check_max(max_pool(vec([1, 2, 3, 4, 5]), 2, 1, 1, 2, return_indices=True),
              [2, 3, 4, 5, 4], [1, 2, 3, 4, 3])
    x = img([[1, 2, 3], [4, 5, 6], [7, 8, 9]])          # TV08b, OpenVINO Example 7
    check_max(max_pool(x, 2, 1, 1, 2, return_indices=True),
              [[5, 6, 5], [8, 9, 8], [5, 6, 5]], [[4, 5, 4], [7, 8, 7], [4, 5, 4]])


def test_ceil_window_longer_than_the_input():
    # I=1, K2 S2: floor has no window; the ceil rules lay one that hangs over by one tap
    x = vec([7.0])
    for rounding in ("ceil", "ceil_torch", "caffe"):
        check_max(max_pool(x, 2, 2, rounding=rounding, return_indices=True), [7], [0])
        check_avg(avg_pool(x, 2, 2, rounding=rounding), [7])
        check_avg(avg_pool(x, 2, 2, rounding=rounding, divisor="padded"), [7])
    with pytest.raises(PoolTutorError, match=re.escape("kernel=(2,) does not fit the input (1,)")):
        max_pool(x, 2, 2)


def test_tv39_valid_with_ceil_mode():
    x = img([[-1, 2, 3], [4, 5, -6], [-7, 8, 9]])
    check_max(max_pool(x, 2, 2, rounding="ceil_torch", return_indices=True),
              [[5, 3], [8, 9]], [[4, 2], [7, 8]])
    check_max(max_pool(x, 2, 2, rounding="floor"), [[5]])


# =========================================================================== TV09 - TV14


@pytest.mark.parametrize(
    ("x", "kernel", "stride", "dilation", "upper", "lower"),
    [
        ([1, 2, 3, 4, 5, 6], 3, 2, 1, ([3, 5, 6], [2, 4, 5]), ([2, 4, 6], [1, 3, 5])),
        ([1, 2, 3, 4, 5], 3, 2, 1, ([2, 4, 5], [1, 3, 4]), ([2, 4, 5], [1, 3, 4])),
        ([1, 2, 3, 4, 5, 6, 7], 4, 3, 1, ([3, 6, 7], [2, 5, 6]), ([2, 5, 7], [1, 4, 6])),
        ([1, 2, 3, 4, 5], 2, 1, 2, ([2, 3, 4, 5, 4], [1, 2, 3, 4, 3]),
         ([2, 3, 4, 5, 4], [1, 2, 3, 4, 3])),
    ],
    ids=["TV09", "TV10", "TV11", "TV12"],
)
def test_same_padding_max_pool(x, kernel, stride, dilation, upper, lower):
    for is_upper, (y, idx) in ((True, upper), (False, lower)):
        pads = same_padding(len(x), kernel, stride, dilation, upper=is_upper)
        r = max_pool(vec(x), kernel, stride, pads, dilation, return_indices=True)
        check_max(r, y, idx)


def test_tv13_same_padding_average():
    x = vec([1, 5, 2, 7])
    upper, lower = same_padding(4, 2, 1, upper=True), same_padding(4, 2, 1, upper=False)
    assert (upper, lower) == ((0, 1), (1, 0))
    check_avg(avg_pool(x, 2, 1, upper), [3, 3.5, 4.5, 7])
    check_avg(avg_pool(x, 2, 1, upper, divisor="padded"), [3, 3.5, 4.5, 3.5])
    check_avg(avg_pool(x, 2, 1, lower), [1, 3, 3.5, 4.5])
    check_avg(avg_pool(x, 2, 1, lower, divisor="padded"), [0.5, 3, 3.5, 4.5])


def test_tv14_divisor_with_ceil_overhang():
    x = vec([1, 2, 3, 4, 5, 6])
    check_avg(avg_pool(x, 3, 2, 1, rounding="ceil_torch"), [1.5, 3, 5, 6])
    check_avg(avg_pool(x, 3, 2, 1, rounding="ceil_torch", divisor="padded"), [1, 3, 5, 3])
    # dividing by the full K is what nobody does; it is what divisor=3 asks for
    check_avg(avg_pool(x, 3, 2, 1, rounding="ceil_torch", divisor=3), [1, 3, 5, 2])


# =========================================================================== TV15 - TV21


def test_tv15_ties():
    x = vec([3, 3, 1, 3])
    check_max(max_pool(x, 2, 1, return_indices=True), [3, 3, 3], [0, 1, 3])
    check_max(max_pool(x, 2, 1, ties="last", return_indices=True), [3, 3, 3], [1, 1, 3])


def test_tv16_ties_and_storage_order():
    x = img([[1, 5], [5, 1]])
    check_max(max_pool(x, 2, 2, return_indices=True), [[5]], [[1]])
    # ONNX storage_order=1 reports the same (row-major first) winner, column-major: 2
    check_max(max_pool(x, 2, 2, return_indices=True, index_layout="tensor_colmajor"), [[5]], [[2]])
    check_max(max_pool(x, 2, 2, ties="last", return_indices=True), [[5]], [[2]])
    check_max(max_pool(x, 2, 2, ties="last", return_indices=True, index_layout="tensor_colmajor"),
              [[5]], [[1]])


def test_tv17_nan():
    x = vec([NAN, 1, 2, NAN, 5, NAN])
    # PyTorch: every NaN wins, so the last NaN's index
    check_max(max_pool(x, 2, 2, return_indices=True), [NAN, NAN, NAN], [0, 3, 5])
    # OpenVINO reference: NaN never selected
    check_max(max_pool(x, 2, 2, nan_policy="ignore", return_indices=True), [1, 2, 5], [1, 2, 4])
    # the first NaN sticks; ORT's Indices kernel agrees where the NaN comes first (window 0:
    # nan, index 0); for windows 1 and 2 ORT gives 2 and 5 (a NaN after a number never wins)
    r = max_pool(x, 2, 2, nan_policy="propagate_first", return_indices=True)
    check_max(r, [NAN, NAN, NAN], [0, 3, 5])
    assert np.isnan(r.output[0, 0, 0]) and r.indices[0, 0, 0] == 0


def test_tv18_two_nans_in_one_window():
    x = vec([1, NAN, 2, NAN])
    check_max(max_pool(x, 4, 1, return_indices=True), [NAN], [3])                  # torch
    check_max(max_pool(x, 4, 1, nan_policy="propagate_first", return_indices=True), [NAN], [1])
    check_max(max_pool(x, 4, 1, nan_policy="ignore", return_indices=True), [2], [2])  # OV, ORT+I
    check_max(max_pool(x, 4, 1, nan_policy="ignore", ties="last", return_indices=True), [2], [2])


def test_tv19_nan_2d():
    x = img([[1, NAN], [3, 2]])
    check_max(max_pool(x, 2, 2, return_indices=True), [[NAN]], [[1]])
    check_max(max_pool(x, 2, 2, nan_policy="ignore", return_indices=True), [[3]], [[2]])


@pytest.mark.parametrize(
    ("empty_value", "empty_index", "y", "idx"),
    [
        ("neg_inf", "minus_one", -INF, -1),            # torch value (its index 2 is out of range)
        ("lowest", "minus_one", L32, -1),              # ORT
        ("nan", "minus_one", NAN, -1),                 # onnx.reference
        ("lowest", "plane_start", L32, 0),             # OpenVINO reference
        ("zero", "minus_one", 0.0, -1),                # TFLite (reportedly)
    ],
)
def test_tv20_empty_window(empty_value, empty_index, y, idx):
    x = vec([5, 7], np.float32)                         # K2 S1 D3 pads 1/1: taps -1 and 2
    r = max_pool(x, 2, 1, 1, 3, empty_value=empty_value, empty_index=empty_index,
                 return_indices=True)
    check_max(r, [y], [idx], np.float32)


def test_tv20_empty_window_error_raises_before_any_work(monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("the engine started working before rejecting the input")

    monkeypatch.setattr(np, "pad", no_work)
    with pytest.raises(PoolTutorError, match=re.escape(
            "empty_value='error': output position 0 on spatial axis 0 has no input element")):
        max_pool(vec([5, 7]), 2, 1, 1, 3, empty_value="error")


def test_tv20_empty_window_average():
    x = vec([5, 7])
    for divisor in ("valid", "padded", 4):              # ORT AveragePool cip=0 gives 0
        check_avg(avg_pool(x, 2, 1, 1, 3, divisor=divisor), [0.0])


def test_empty_value_error_passes_when_no_window_is_empty():
    r = max_pool(vec([5, 7, 1]), 2, 1, 1, empty_value="error")
    check_max(r, [5, 7, 7, 1])


def test_tv21_minus_inf_next_to_padding():
    x = vec([-INF, 2], np.float32)
    # padding skipped: the -inf input still wins its window
    check_max(max_pool(x, 2, 2, 1, return_indices=True), [-INF, 2], [0, 1])
    # padding compared as the lowest float (OpenVINO-style init): L wins.  OpenVINO's kernel
    # reports index 0 there; in the engine a padding winner always has index -1.
    check_max(max_pool(x, 2, 2, 1, pad_taps="lowest", empty_value="lowest", return_indices=True),
              [L32, 2], [-1, 1])
    # padding as -inf (TensorRT docs): a tie with the padding that comes first
    check_max(max_pool(x, 2, 2, 1, pad_taps="neg_inf", return_indices=True), [-INF, 2], [-1, 1])


# =========================================================================== TV22, TV23


TV22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                 [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=np.float64)


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        ("plane", [1, 1, 0, 5, 0, 1, 3, 1]),
        ("tensor", [1, 1, 6, 11, 12, 13, 21, 19]),
        ("tensor_colmajor", [2, 2, 6, 11, 12, 14, 19, 20]),
        ("nhwc", [2, 2, 1, 11, 0, 2, 7, 3]),
        ("nhwc_batch", [2, 2, 1, 11, 12, 14, 19, 15]),
    ],
)
def test_tv22_index_layouts(layout, expected):
    r = max_pool(TV22, 2, 1, return_indices=True, index_layout=layout)
    assert r.output.shape == (2, 2, 1, 2)
    assert r.output.ravel().tolist() == [9, 9, 7, 6, 5, 5, 3, 2]
    assert r.indices.ravel().tolist() == expected
    assert r.indices.dtype == np.int64


@pytest.mark.parametrize(("layout", "expected"),
                         [("plane", 5), ("tensor", 5), ("tensor_colmajor", 8), ("nhwc", 5)])
def test_tv23_five_d(layout, expected):
    x = np.zeros((1, 1, 2, 3, 4))
    x[0, 0, 0, 1, 1] = 9
    r = max_pool(x, (2, 3, 4), (2, 3, 4), return_indices=True, index_layout=layout)
    assert r.output.shape == (1, 1, 1, 1, 1)
    assert r.output.item() == 9 and r.indices.item() == expected


# =========================================================================== TV24 - TV28


@pytest.mark.parametrize(
    ("x", "out", "y", "idx", "avg"),
    [
        ([3, 1, 4, 1, 5], 3, [3, 4, 5], [0, 2, 4], [2, 2, 3]),                              # TV24
        ([3, 1, 4, 1, 5, 9, 2], 4, [3, 4, 9, 9], [0, 2, 5, 5], [2, 2, 5, 5.5]),              # TV25
        ([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 3, [4, 9, 6], [2, 5, 7], [2.25, 4.25, 4]),        # TV26
        ([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7,
          9, 5], 16,
         [3, 4, 9, 6, 5, 8, 9, 9, 3, 8, 6, 6, 3, 8, 7, 9],
         [0, 2, 5, 7, 8, 11, 12, 14, 17, 18, 20, 22, 24, 26, 29, 30],
         [2, 2.5, 7, 4, 4, 6.5, 8, 6, 2.5, 6, 4, 5, 3, 5.5, 4.5, 7]),                        # TV27
    ],
    ids=["TV24", "TV25", "TV26", "TV27"],
)
def test_adaptive_1d(x, out, y, idx, avg):
    r = adaptive_max_pool(vec(x), out, return_indices=True)
    check_max(r, y, idx, np.float64)
    check_avg(adaptive_avg_pool(vec(x), out), avg)
    # integers: max keeps the dtype, the average is float64
    check_max(adaptive_max_pool(vec(x, np.int16), out), y, dtype=np.int16)
    check_avg(adaptive_avg_pool(vec(x, np.int16), out), avg, np.float64)


def test_tv28_adaptive_2d_two_channels():
    c0 = np.arange(25.0).reshape(5, 5)
    x = np.stack([c0, 100 - c0])[None]
    r = adaptive_max_pool(x, 3, return_indices=True)
    np.testing.assert_array_equal(r.output[0, 0], [[6, 8, 9], [16, 18, 19], [21, 23, 24]])
    np.testing.assert_array_equal(r.indices[0, 0], [[6, 8, 9], [16, 18, 19], [21, 23, 24]])
    np.testing.assert_array_equal(r.output[0, 1], [[100, 99, 97], [95, 94, 92], [85, 84, 82]])
    np.testing.assert_array_equal(r.indices[0, 1], [[0, 1, 3], [5, 6, 8], [15, 16, 18]])
    g = adaptive_max_pool(x, 3, return_indices=True, index_layout="tensor")
    np.testing.assert_array_equal(g.indices[0, 1], r.indices[0, 1] + 25)
    # averages over the overlapping bins [0,2) [1,4) [3,5) per axis: 5 * row mean + col mean
    means = np.array([0.5, 2.0, 3.5])
    np.testing.assert_array_equal(adaptive_avg_pool(x, 3).output[0, 0],
                                  5 * means[:, None] + means[None, :])


def test_adaptive_ties_nan_and_3d():
    x = vec([2, 7, 7, 1])
    check_max(adaptive_max_pool(x, 1, return_indices=True), [7], [1])
    check_max(adaptive_max_pool(x, 1, ties="last", return_indices=True), [7], [2])
    y = vec([1, NAN, 2, NAN])
    check_max(adaptive_max_pool(y, 1, return_indices=True), [NAN], [3])
    check_max(adaptive_max_pool(y, 1, nan_policy="propagate_first", return_indices=True),
              [NAN], [1])
    check_max(adaptive_max_pool(y, 1, nan_policy="ignore", return_indices=True), [2], [2])
    # a bin of ignored NaNs only: -inf, index -1
    check_max(adaptive_max_pool(vec([NAN, NAN, 3]), 2, nan_policy="ignore", return_indices=True),
              [-INF, 3], [-1, 2])
    v = np.arange(24.0).reshape(1, 1, 2, 3, 4)          # bins d [0,2); h [0,2) [1,3); w [0,2) [2,4)
    r = adaptive_max_pool(v, (1, 2, 2), return_indices=True)
    check_max(r, [[[17, 19], [21, 23]]], [[[17, 19], [21, 23]]])
    check_avg(adaptive_avg_pool(v, (1, 2, 2)), [[[8.5, 10.5], [12.5, 14.5]]])


@pytest.mark.parametrize(
    ("shape", "out", "first", "last"),
    [
        ((5,), 3, [0, 1, 3], [1, 3, 4]),                                   # overlapping bins
        ((5, 5), 3, [[0, 1, 3], [5, 6, 8], [15, 16, 18]],
         [[6, 8, 9], [16, 18, 19], [21, 23, 24]]),                         # TV28's bins
        ((20,), 1, [0], [19]),                                             # one bin of 20
        ((36,), 2, [0, 18], [17, 35]),                                     # two bins of 18
        ((5, 5), 1, [[0]], [[24]]),                                        # one bin of 25
        ((2, 3, 4), (1, 2, 3), [[[0, 1, 2], [4, 5, 6]]], [[[17, 18, 19], [21, 22, 23]]]),
        ((3,), 5, [0, 0, 1, 1, 2], [0, 1, 1, 2, 2]),    # O > I: [0,1) [0,2) [1,2) [1,3) [2,3)
    ],
)
def test_adaptive_all_ties(shape, out, first, last):
    """Every element equal: the winner is the first / last element of each bin."""
    x = np.ones((1, 1) + shape)
    for ties, expected in (("first", first), ("last", last)):
        r = adaptive_max_pool(x, out, ties=ties, return_indices=True)
        np.testing.assert_array_equal(r.indices[0, 0], expected)
        np.testing.assert_array_equal(r.output, np.ones_like(r.output))


def test_adaptive_ties_in_overlapping_bins():
    x = vec([5, 1, 5, 5, 2])                            # bins [0,2) [1,4) [3,5)
    check_max(adaptive_max_pool(x, 3, return_indices=True), [5, 5, 5], [0, 2, 3])
    check_max(adaptive_max_pool(x, 3, ties="last", return_indices=True), [5, 5, 5], [0, 3, 3])
    y = np.zeros((1, 1, 20))
    y[0, 0, [3, 15]] = 9
    check_max(adaptive_max_pool(y, 1, return_indices=True), [9], [3])
    check_max(adaptive_max_pool(y, 1, ties="last", return_indices=True), [9], [15])


# =========================================================================== NaN, inf, ties


def test_infinities_and_ties():
    x = vec([1, INF, 2, INF])
    check_max(max_pool(x, 4, return_indices=True), [INF], [1])
    check_max(max_pool(x, 4, ties="last", return_indices=True), [INF], [3])
    check_max(max_pool(vec([-INF, -INF]), 2, return_indices=True), [-INF], [0])
    check_max(max_pool(vec([-INF, -INF]), 2, ties="last", return_indices=True), [-INF], [1])
    check_max(max_pool(vec([INF, NAN]), 2, return_indices=True), [NAN], [1])
    check_max(max_pool(vec([INF, NAN]), 2, nan_policy="ignore", return_indices=True), [INF], [0])
    check_max(max_pool(vec([NAN, INF]), 2, nan_policy="propagate_first", return_indices=True),
              [NAN], [0])
    x2 = img([[4, 1, 4], [0, 4, 2]])                    # three tied maxima, row-major scan
    check_max(max_pool(x2, (2, 3), return_indices=True), [[4]], [[0]])
    check_max(max_pool(x2, (2, 3), ties="last", return_indices=True), [[4]], [[4]])


def test_signed_zeros_tie_like_any_equal_values():
    # -0.0 == 0.0: the first (or last) of the two wins, and its sign is kept
    for x, first, last in (([-0.0, 0.0], (True, 0), (False, 1)),
                           ([0.0, -0.0], (False, 0), (True, 1))):
        for ties, (negative, idx) in (("first", first), ("last", last)):
            r = max_pool(vec(x), 2, ties=ties, return_indices=True)
            assert np.signbit(r.output.item()) == negative and r.indices.item() == idx
            a = adaptive_max_pool(vec(x), 1, ties=ties, return_indices=True)
            assert np.signbit(a.output.item()) == negative and a.indices.item() == idx


def test_dtype_minimum_inputs_next_to_padding():
    x = vec([-128, -128], np.int8)                      # K2 S1 pads 1/1: windows -1..0, 0..1, 1..2
    check_max(max_pool(x, 2, 1, 1, return_indices=True), [-128] * 3, [0, 0, 1], np.int8)
    # padding compared as -128 ties with the input; the first in scan order wins
    check_max(max_pool(x, 2, 1, 1, pad_taps="neg_inf", return_indices=True), [-128] * 3,
              [-1, 0, 1])
    check_max(max_pool(x, 2, 1, 1, pad_taps="neg_inf", ties="last", return_indices=True),
              [-128] * 3, [0, 1, -1])
    y = vec([L32, 1], np.float32)
    check_max(max_pool(y, 2, 2, 1, pad_taps="lowest", return_indices=True), [L32, 1], [-1, 1])
    check_max(max_pool(y, 2, 2, 1, pad_taps="lowest", ties="last", return_indices=True),
              [L32, 1], [0, 1])
    check_max(max_pool(y, 2, 2, 1, return_indices=True), [L32, 1], [0, 1])


def test_nan_that_no_window_reads_changes_nothing():
    check_max(max_pool(vec([1, 2, NAN]), 2, 2, return_indices=True), [2], [1])
    check_max(max_pool(vec([1, 2, NAN]), 1, 3, dilation=1, return_indices=True), [1], [0])


def test_all_nan_window_with_ignore_is_empty():
    x = vec([NAN, NAN, 1, 2])
    check_max(max_pool(x, 2, nan_policy="ignore", return_indices=True), [-INF, 2], [-1, 3])
    check_max(max_pool(x, 2, nan_policy="ignore", empty_value="nan", empty_index="plane_start",
                       return_indices=True), [NAN, 2], [0, 3])


def test_plane_start_converts_to_each_layout():
    x = np.full((2, 3, 2), 1.0)                         # K2 S1 D3 pads 1/1: one empty window
    expected = {"plane": [[0, 0, 0], [0, 0, 0]], "tensor": [[0, 2, 4], [6, 8, 10]],
                "tensor_colmajor": [[0, 2, 4], [6, 8, 10]], "nhwc": [[0, 1, 2], [0, 1, 2]],
                "nhwc_batch": [[0, 1, 2], [6, 7, 8]]}
    for layout, idx in expected.items():
        r = max_pool(x, 2, 1, 1, 3, empty_index="plane_start", return_indices=True,
                     index_layout=layout)
        np.testing.assert_array_equal(r.indices[:, :, 0], idx)
        r = max_pool(x, 2, 1, 1, 3, return_indices=True, index_layout=layout)
        np.testing.assert_array_equal(r.indices, np.full((2, 3, 1), -1))


# =========================================================================== dtypes


@pytest.mark.parametrize("pad_taps", ["skip", "neg_inf", "lowest"])
def test_int8_padding_is_the_dtype_minimum_never_zero(pad_taps):
    x = vec([-5, -3, -9, -7], np.int8)
    r = max_pool(x, 2, 2, 1, pad_taps=pad_taps, return_indices=True)
    check_max(r, [-5, -3, -7], [0, 1, 3], np.int8)


@pytest.mark.parametrize(
    ("dtype", "neg_inf", "zero"),
    [(np.int8, -128, 0), (np.uint8, 0, 0), (np.int32, -2**31, 0), (np.int64, -2**63, 0)],
)
def test_integer_empty_windows(dtype, neg_inf, zero):
    x = vec([5, 7], dtype)
    for empty_value, y in (("neg_inf", neg_inf), ("lowest", neg_inf), ("zero", zero)):
        r = max_pool(x, 2, 1, 1, 3, empty_value=empty_value, return_indices=True)
        check_max(r, [y], [-1], dtype)
    with pytest.raises(PoolTutorError, match=re.escape(
            f"empty_value='nan' is not possible for x of dtype {np.dtype(dtype)}")):
        max_pool(x, 2, 1, 1, 3, empty_value="nan")


def test_integer_max_is_exact_and_keeps_dtype():
    check_max(max_pool(vec([0, 5], np.uint8), 2, 2, 1, return_indices=True), [0, 5], [0, 1],
              np.uint8)
    check_max(max_pool(vec([255, 254, 3], np.uint8), 2, 1), [255, 254], dtype=np.uint8)
    big = [2**31 - 1, -2**31, 7]
    check_max(max_pool(vec(big, np.int32), 2, 1, return_indices=True), [2**31 - 1, 7], [0, 2],
              np.int32)
    check_max(max_pool(vec([2**62, 2**62 + 1, 2**62], np.int64), 3), [2**62 + 1], dtype=np.int64)
    assert max_pool(vec([2**62, 2**62 + 1], np.int64), 2).output.item() == 2**62 + 1


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_max_keeps_dtype(dtype):
    x = vec([0.1, 0.7, -0.3, 0.2], dtype)
    r = max_pool(x, 2, 2, return_indices=True)
    check_max(r, [x[0, 0, 1], x[0, 0, 3]], [1, 3], dtype)
    r = max_pool(vec([5, 7], dtype), 2, 1, 1, 3, empty_value="lowest")
    check_max(r, [np.finfo(dtype).min], dtype=dtype)


def test_averages_keep_float_dtype_and_round_once():
    # float16: 2048 + 1 + 1 is 2048 in float16 arithmetic; the engine sums exactly
    r = avg_pool(vec([2048, 1, 1], np.float16), 3)
    check_avg(r, [np.float16(2050 / 3)], np.float16)
    assert r.output.item() == 683.5
    r = avg_pool(vec([16777216, 1, 1], np.float32), 3)
    check_avg(r, [np.float32(16777218 / 3)], np.float32)
    assert adaptive_avg_pool(vec([16777216, 1, 1], np.float32), 1).output.dtype == np.float32


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64])
def test_averages_of_integers_are_float64_without_overflow(dtype):
    top = np.iinfo(dtype).max
    x = vec([top, top, 1, 2], dtype)
    check_avg(avg_pool(x, 2), [float(top), 1.5])
    check_avg(avg_pool(x, 2, 2, 1, divisor="padded"), [top / 2, (float(top) + 1) / 2, 1.0])
    check_avg(adaptive_avg_pool(x, 2), [float(top), 1.5])


# =========================================================================== explain()


def test_explain_max_winner_and_skipped_padding():
    r = max_pool(vec([1, 4, 4, 2, 0]), 3, 2, padding=1, return_indices=True)   # starts -1, 1, 3
    assert r.output[0, 0].tolist() == [4, 4, 2]
    text = r.explain(1)
    assert text.splitlines()[0] == "output[0, 0, 1] = 4.0   (max pooling, window start 1)"
    assert "kernel (3,), stride (2,), dilation (1,), pads ((1, 1),), rounding 'floor'" in text
    assert re.search(r"tap \(1,\)\s+input\s+4\.0\s+<- winner: the largest value; a tie goes to "
                     r"the first in row-major scan order", text)
    assert re.search(r"tap \(2,\)\s+input\s+4\.0$", text, re.M)                # not the winner
    assert "index: 1 (layout 'plane')" in text
    text = r.explain(0)
    assert re.search(r"tap \(-1,\)\s+padding\s+skipped \(pad_taps='skip'\)", text)
    assert re.search(r"tap \(1,\)\s+input\s+4\.0\s+<- winner", text)
    text = r.explain(2)
    assert re.search(r"tap \(5,\)\s+padding\s+skipped", text)
    # the same cell under ties='last' names the other 4
    text = max_pool(vec([1, 4, 4, 2, 0]), 3, 2, padding=1, ties="last",
                    return_indices=True).explain(1)
    assert re.search(r"tap \(2,\)\s+input\s+4\.0\s+<- winner: .*ties='last'", text)
    assert "index: 2" in text


def test_explain_padding_compared_and_outside():
    r = max_pool(vec([-INF, 2]), 2, 2, 1, pad_taps="neg_inf", return_indices=True)
    text = r.explain(0)
    assert re.search(r"tap \(-1,\)\s+padding\s+-inf \(pad_taps='neg_inf'\)\s+<- winner", text)
    assert "index: -1 (layout 'plane') (no input element won)" in text
    r = max_pool(vec([1, 2, 3, 4, 5]), 2, 2, 1, rounding="ceil", return_indices=True)
    text = r.explain(3)
    assert re.search(r"tap \(6,\)\s+outside\s+past the padded input: never read", text)
    assert "no element takes part: an empty window, value by empty_value='neg_inf'" in text


def test_explain_nan_rules():
    x = vec([NAN, 1, 2, NAN, 5, NAN])
    text = max_pool(x, 2, 2, return_indices=True).explain(1)
    assert re.search(r"tap \(3,\)\s+input\s+nan\s+<- winner: NaN wins every comparison, so the "
                     r"last NaN in scan order", text)
    assert "index: 3" in text
    text = max_pool(vec([1, NAN, 2, NAN]), 4, nan_policy="propagate_first").explain(0)
    assert re.search(r"tap \(1,\)\s+input\s+nan\s+<- winner: the first NaN sticks", text)
    text = max_pool(x, 2, 2, nan_policy="ignore").explain(0)
    assert "NaN taps are ignored (nan_policy='ignore')" in text
    assert re.search(r"tap \(1,\)\s+input\s+1\.0\s+<- winner", text)


def test_explain_empty_window():
    r = max_pool(vec([5, 7], np.float32), 2, 1, 1, 3, empty_value="lowest",
                 empty_index="plane_start", return_indices=True)
    text = r.explain(0)
    assert text.splitlines()[0].startswith("output[0, 0, 0] = -3.40282e+38")
    assert "no element takes part: an empty window, value by empty_value='lowest'" in text
    assert text.count("skipped (pad_taps='skip')") == 2
    assert "<- winner" not in text
    assert "index: 0 (layout 'plane')" in text


def test_explain_average():
    x = vec([1, 2, 3, 4, 5, 6])
    r = avg_pool(x, 3, 2, 1, rounding="ceil_torch")
    text = r.explain(3)
    assert "output[0, 0, 3] = 6.0   (average pooling, window start 5)" in text
    assert "sum = 6.0 = 6.0; divisor 1 (input elements only (padding excluded))" in text
    assert "average = 6.0 / 1 = 6.0" in text
    text = avg_pool(x, 3, 2, 1, rounding="ceil_torch", divisor="padded").explain(3)
    assert re.search(r"tap \(7,\)\s+outside", text)
    assert "divisor 2 (taps inside the padded input (padding included, overhang excluded))" in text
    assert "average = 6.0 / 2 = 3.0" in text
    text = avg_pool(x, 3, 2, 1, divisor=5).explain(1)
    assert "sum = 2.0 + 3.0 + 4.0 = 9.0; divisor 5 (divisor override)" in text
    assert "average = 9.0 / 5 = 1.8" in text
    text = avg_pool(vec([5, 7]), 2, 1, 1, 3).explain(0)
    assert "divisor 0 (input elements only (padding excluded))" in text
    assert text.endswith("no element to average (an empty window): the output is 0 by convention")
    assert not any(line != line.rstrip() for line in text.splitlines())   # no trailing spaces
    assert re.search(r"tap \(-1,\)\s+padding\s+adds 0", text)


def test_explain_adaptive():
    r = adaptive_max_pool(vec([3, 1, 4, 1, 5]), 3, return_indices=True)
    text = r.explain(1)
    assert text.splitlines()[0] == "output[0, 0, 1] = 4.0   (adaptive max pooling)"
    assert "bins [1,4) of the input (5,)   (bins overlap: I % O != 0)" in text
    assert re.search(r"tap \(2,\)\s+input\s+4\.0\s+<- winner", text)
    text = adaptive_avg_pool(vec([3, 1, 4, 1, 5]), 3).explain(2)
    assert "bins [3,5)" in text
    assert "sum = 1.0 + 5.0 = 6.0; divisor 2 (the bin's element count)" in text
    assert "average = 6.0 / 2 = 3.0" in text
    text = adaptive_avg_pool(vec(np.arange(6.0)), 3).explain(0)
    assert "overlap" not in text
    text = adaptive_max_pool(np.arange(25.0).reshape(1, 1, 5, 5), 3).explain(1, 2)
    assert "bins [1,4) x [3,5) of the input (5, 5)" in text
    assert re.search(r"tap \(3, 4\)\s+input\s+19\.0\s+<- winner", text)


def test_explain_index_forms_and_errors():
    x = np.arange(2 * 3 * 4.0).reshape(2, 3, 4)
    r = max_pool(x, 2, return_indices=True, index_layout="tensor")
    text = r.explain(1, 2, 1)
    assert text.splitlines()[0] == "output[1, 2, 1] = 23.0   (max pooling, window start 2)"
    assert "index: 23 (layout 'tensor')" in text
    with pytest.raises(PoolTutorError, match=re.escape("index=(1,): need (n, c, *out_spatial) "
                                                       "with 3 entries")):
        r.explain(1)
    with pytest.raises(PoolTutorError, match=re.escape("index=(1, 3, 0) is outside the output "
                                                       "shaped (2, 3, 2)")):
        r.explain(1, 3, 0)
    one = max_pool(vec([1, 2, 3, 4]), 2)
    assert one.explain(1) == one.explain(0, 0, 1) == one.explain((1,))


@pytest.mark.parametrize("x, kernel, y, idx", [
    ([[[np.nan, 1, 2, np.nan, 5, np.nan]]], 2, [np.nan, 2, 5], [0, 2, 4]),   # TV17
    ([[[1, np.nan, 2, np.nan]]], 4, [2], [2]),                                # TV18
    ([[[[1, np.nan], [3, 2]]]], 2, [3], [2]),                                 # TV19
])
def test_first_sticks_reproduces_onnxruntime_maxpool_with_indices(x, kernel, y, idx):
    """ORT's Y+Indices kernel: a NaN wins only as the first element of its window."""
    r = max_pool(np.array(x), kernel, nan_policy="first_sticks", return_indices=True)
    np.testing.assert_array_equal(r.output.ravel(), y)
    assert r.indices.ravel().tolist() == idx
    yr, ir = reference.max_pool(np.array(x), kernel, nan_policy="first_sticks")
    np.testing.assert_array_equal(yr.ravel(), y)
    assert ir.ravel().tolist() == idx
