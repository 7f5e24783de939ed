"""The fast paths of the engine (pooltutor/pooling.py) against the loop reference.

The hypothesis tests (tests/core/test_pooling_vs_reference.py) draw tiny inputs; these
cases are large enough, and chosen, to take every branch of the fast paths:
the input read in place or copied, the last axis split into stride phases,
padding that is skipped / compared as -inf / as the lowest value, taps past
the padded extent, empty windows, ties, -inf, -0.0, NaN (which must leave the
fast path), integer extremes, more than 255 taps, every index layout.
Where a case must stay on the fast path, the general path is patched to fail.
"""

from __future__ import annotations

import numpy as np
import pytest

from pooltutor import pooling, reference
from pooltutor.indexing import INDEX_LAYOUTS, from_plane

from pool_checks import check_avg  # isort: skip

RNG = np.random.default_rng(20261130)


def _ties(shape, dtype=np.float32, values=(0.0, 1.0, 2.0, 3.0, -1.0)):
    """Small integers as floats: ties in almost every window."""
    return RNG.choice(np.array(values, dtype=dtype), size=shape)


@pytest.fixture(params=["tap by tap", "axis by axis"])
def fast_only(request, monkeypatch):
    """Fail if max_pool leaves the fast path; run the value pass both ways."""
    def general(*args, **kwargs):
        raise AssertionError("the general path ran where the fast path must do")
    monkeypatch.setattr(pooling, "_max_pool_general", general)
    separable = request.param == "axis by axis"
    monkeypatch.setattr(pooling, "_prefer_separable", lambda geom, lead: separable and
                        geom.ndim > 1)


def check_max(x, kernel, stride=None, padding=0, dilation=1, layouts=INDEX_LAYOUTS, **rules):
    """The engine equals the reference in values (with the sign of zero), dtype and every layout."""
    before = x.copy()
    y, plane = reference.max_pool(x, kernel, stride, padding, dilation, **rules)
    for layout in layouts:
        r = pooling.max_pool(x, kernel, stride, padding, dilation, return_indices=True,
                             index_layout=layout, **rules)
        np.testing.assert_array_equal(r.output, y)
        assert r.output.dtype == y.dtype.newbyteorder("=")   # big-endian x: native results
        np.testing.assert_array_equal(np.signbit(r.output), np.signbit(y))
        np.testing.assert_array_equal(r.indices, from_plane(plane, x.shape, layout))
        assert r.indices.dtype == np.int64
    values_only = pooling.max_pool(x, kernel, stride, padding, dilation, **rules)
    assert values_only.indices is None
    np.testing.assert_array_equal(values_only.output, y)
    np.testing.assert_array_equal(np.signbit(values_only.output), np.signbit(y))
    np.testing.assert_array_equal(x, before)          # the input is never modified
    return y, plane


# --------------------------------------------------------------------------- max, fast path


@pytest.mark.parametrize("ties", ["first", "last"])
def test_case1_geometry_with_ties(fast_only, ties):
    """3x3 stride 2 padding 1 (the benchmark's case 1): padded copy, last axis in 2 phases."""
    x = _ties((2, 3, 23, 29))
    check_max(x, 3, 2, 1, ties=ties)
    check_max(x, 3, 2, 1, rounding="ceil_torch", ties=ties, layouts=("plane",))


@pytest.mark.parametrize("kernel, stride", [(3, 1), (2, 2), (3, 2), ((2, 3), (3, 2)), (4, 3)])
def test_no_padding_in_place_or_split(fast_only, kernel, stride):
    """No padding: x is read in place (no copy) or split into phases without padding."""
    x = _ties((2, 2, 17, 19), dtype=np.float64)
    check_max(x, kernel, stride, layouts=("plane", "nhwc"))


@pytest.mark.parametrize("pad_taps", pooling.PAD_TAPS)
@pytest.mark.parametrize("rounding", ["ceil", "ceil_torch", "caffe"])
def test_padding_rules_with_minus_inf(fast_only, pad_taps, rounding):
    """-inf inputs tie with skipped padding (masked out) and with -inf padding (index -1);
    raw ceil adds taps past the padded extent, which never take part."""
    x = _ties((1, 2, 13, 11), values=(-np.inf, -np.inf, 1.0, -1.0))
    x[0, 0] = -np.inf                                  # a plane with nothing but -inf
    for padding in (1, ((2, 0), (1, 2))):
        check_max(x, 3, 2, padding, rounding=rounding, pad_taps=pad_taps,
                  layouts=("plane", "tensor_colmajor"))


def test_lowest_padding_beats_minus_inf(fast_only):
    """pad_taps='lowest': padding (-FLT_MAX) beats -inf input; the overhang takes no part."""
    x = np.full((1, 1, 5, 7), -np.inf, dtype=np.float32)
    x[0, 0, 2, 3] = 1.0
    y, plane = check_max(x, 3, 2, ((1, 0), (1, 0)), rounding="ceil", pad_taps="lowest")
    assert y[0, 0, 0, 0] == np.finfo(np.float32).min and plane[0, 0, 0, 0] == -1
    assert y[0, 0, -1, -1] == -np.inf                  # that window holds input and overhang only


@pytest.mark.parametrize("empty_value", ["neg_inf", "lowest", "nan", "zero"])
@pytest.mark.parametrize("empty_index", pooling.EMPTY_INDICES)
def test_empty_windows(fast_only, empty_value, empty_index):
    """Dilation, raw ceil and big padding leave windows with no input element."""
    x = _ties((2, 2, 6, 9))
    check_max(x, 2, 3, padding=((3, 3), (1, 4)), dilation=(4, 3), rounding="ceil",
              empty_value=empty_value, empty_index=empty_index)
    check_max(x, 1, 4, padding=(2, 3), rounding="ceil", empty_value=empty_value,
              empty_index=empty_index, pad_taps="neg_inf")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int64"])
@pytest.mark.parametrize("pad_taps", pooling.PAD_TAPS)
def test_integer_extremes(fast_only, dtype, pad_taps):
    """The lowest integer is both a value and the padding: ties between them are rule-bound."""
    info = np.iinfo(dtype)
    x = RNG.choice(np.array([info.min, info.min, 0, 1, info.max], dtype=dtype), size=(2, 2, 9, 8))
    check_max(x, (3, 2), (2, 3), ((1, 2), (2, 1)), rounding="ceil", pad_taps=pad_taps,
              empty_value="zero")


def test_one_and_three_spatial_axes(fast_only):
    check_max(_ties((2, 3, 41)), 4, 3, (2, 3), dilation=2, rounding="ceil_torch")
    check_max(_ties((1, 2, 7, 9, 10)), (3, 2, 3), (2, 2, 3), (1, 0, 1), ties="last")


def test_more_than_255_taps(fast_only):
    """A 16x17 window has 272 taps: the winner codes no longer fit in uint8."""
    x = _ties((1, 2, 20, 21), dtype=np.float64)
    check_max(x, (16, 17), (4, 3), 1, layouts=("plane",))
    check_max(x, (16, 17), (4, 3), 1, ties="last", layouts=("tensor",))


@pytest.mark.parametrize("view", ["fortran", "reversed", "strided"])
def test_non_contiguous_input(fast_only, view):
    base = _ties((2, 3, 16, 18))
    x = {"fortran": np.asfortranarray(base), "reversed": base[..., ::-1, :],
         "strided": base[:, :, ::2, 1::2]}[view]
    check_max(x, 3, 2, 1, layouts=("plane",))
    check_max(x, 2, 1, layouts=("tensor",))


def test_negative_zero_without_zero_output_stays_fast(fast_only):
    """A -0.0 in x only matters when some window's maximum is zero."""
    x = _ties((1, 2, 8, 8), values=(1.0, 2.0, 3.0))
    x[0, 0, 0, 0] = -0.0
    check_max(x, 2, 2)


def test_index_weights_are_the_layouts():
    """``_index_weights`` is the linear form of every layout in pooltutor.indexing."""
    shape = (2, 3, 4, 5, 6)
    coords = np.indices(shape[2:]).reshape(3, -1)
    plane = np.ravel_multi_index(coords, shape[2:])
    for layout in INDEX_LAYOUTS:
        wn, wc, w = pooling._index_weights(shape, layout)
        for n in range(shape[0]):
            for c in range(shape[1]):
                full = np.zeros((shape[0], shape[1], plane.size), dtype=np.int64)
                full[n, c] = plane
                expected = from_plane(full, shape, layout)[n, c]
                got = n * wn + c * wc + sum(wa * t for wa, t in zip(w, coords, strict=True))
                np.testing.assert_array_equal(got, expected, err_msg=layout)


# --------------------------------------------------------------------------- max, leaving it


@pytest.mark.parametrize("nan_policy", pooling.NAN_POLICIES)
@pytest.mark.parametrize("ties", pooling.TIES)
def test_nan_windows_take_the_general_path(nan_policy, ties):
    x = _ties((2, 2, 15, 14), values=(np.nan, 1.0, 2.0, 2.0, -np.inf))
    check_max(x, 3, 2, 1, nan_policy=nan_policy, ties=ties, pad_taps="neg_inf",
              layouts=("plane", "nhwc_batch"))


@pytest.mark.parametrize("ties", pooling.TIES)
def test_signed_zero_ties_keep_the_winners_sign(ties):
    """0.0 and -0.0 tie; the output is the winning element itself, sign included."""
    x = _ties((2, 2, 12, 13), values=(0.0, -0.0, -1.0))
    y, _ = check_max(x, 3, 2, 1, ties=ties)
    assert np.signbit(y).any() and (~np.signbit(y)).any()


# --------------------------------------------------------------------------- average


@pytest.mark.parametrize("divisor", ["valid", "padded", 1, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int16"])
def test_avg_pool_is_bit_identical(divisor, dtype):
    x = (RNG.standard_normal((2, 3, 15, 17)) * 50).astype(dtype)
    if x.dtype.kind == "f":
        x[0, 0, :3, :3] = -0.0                         # all -0.0 windows average to +0.0
    check_avg(x, 3, 2, 1, divisor=divisor)
    check_avg(x, (2, 3), (3, 2), ((0, 2), (1, 1)), rounding="ceil", divisor=divisor)
    check_avg(x, 2, 1, divisor=divisor)                # float64: read in place, no copy


def test_avg_pool_empty_windows_and_dilation():
    x = RNG.standard_normal((1, 2, 5, 7))
    check_avg(x, 2, 3, padding=((3, 3), (1, 4)), dilation=(4, 3), rounding="ceil")
    check_avg(x, 2, 3, padding=((3, 3), (1, 4)), dilation=(4, 3), rounding="ceil",
              divisor="padded")
    check_avg(RNG.standard_normal((2, 1, 8, 6, 7)), (3, 2, 2), (2, 1, 3), 1, divisor="padded")


# --------------------------------------------------------------------------- adaptive


@pytest.fixture
def adaptive_fast_only(monkeypatch):
    def general(*args, **kwargs):
        raise AssertionError("the general path ran where the fast path must do")
    monkeypatch.setattr(pooling, "_adaptive_max_general", general)


def check_adaptive(x, out, layouts=INDEX_LAYOUTS, **rules):
    before = x.copy()
    y, plane = reference.adaptive_max_pool(x, out, **rules)
    for layout in layouts:
        r = pooling.adaptive_max_pool(x, out, return_indices=True, index_layout=layout, **rules)
        np.testing.assert_array_equal(r.output, y)
        np.testing.assert_array_equal(np.signbit(r.output), np.signbit(y))
        assert r.output.dtype == y.dtype.newbyteorder("=")   # big-endian x: native results
        np.testing.assert_array_equal(r.indices, from_plane(plane, x.shape, layout))
        assert r.indices.dtype == np.int64
    values_only = pooling.adaptive_max_pool(x, out, **rules)
    np.testing.assert_array_equal(values_only.output, y)
    np.testing.assert_array_equal(np.signbit(values_only.output), np.signbit(y))
    np.testing.assert_array_equal(x, before)
    return y, plane


@pytest.mark.parametrize("ties", pooling.TIES)
@pytest.mark.parametrize("spatial, out", [
    ((14, 12), (7, 4)),          # regular, 2x3 bins: the max-pool taps
    ((24, 20), (2, 4)),          # regular, 12x5 bins: rows + argmax on a strided view
    ((23, 25), (5, 5)),          # bins of 5 and 6 elements: not a plain pooling, gathered
    ((56, 56), (5, 5)),          # uniform bins of 12 with stride 11 (the benchmark's case)
    ((9, 7), (4, 4)),            # overlapping bins of 2 and 3: gathered, positions clipped
])
def test_adaptive_bins(adaptive_fast_only, ties, spatial, out):
    x = _ties((2, 3) + spatial)
    check_adaptive(x, out, ties=ties, layouts=("plane", "tensor_colmajor"))


def test_adaptive_one_and_three_axes(adaptive_fast_only):
    check_adaptive(_ties((2, 2, 31)), 7, ties="last")
    check_adaptive(_ties((1, 2, 6, 8, 9)), (3, 4, 4))
    check_adaptive(_ties((1, 2, 6, 8, 9)), (2, 2, 2), ties="last")


@pytest.mark.parametrize("view", ["fortran", "reversed", "big-endian", "channel slice",
                                  "batch slice"])
def test_adaptive_non_contiguous_input(adaptive_fast_only, view):
    """Bin rows are copied as opaque items only when the last axis is contiguous: from a
    view made on x's own memory where x is C-contiguous (the batch slice: at an offset in
    its base), through ``as_strided`` where it is not (the channel slice)."""
    base = _ties((3, 3, 24, 26))
    x = {"fortran": np.asfortranarray(base), "reversed": base[..., ::-1],
         "big-endian": base.astype(">f4"), "channel slice": base[:, 1:],
         "batch slice": base[1:]}[view]
    check_adaptive(x, (2, 2), layouts=("plane",))
    check_adaptive(x, (5, 5), ties="last", layouts=("plane",))


def test_adaptive_output_larger_than_input(adaptive_fast_only):
    """O > I: bins repeat elements; no reduceat-style edge problem on the gathered path."""
    check_adaptive(_ties((1, 2, 3, 5)), (7, 6))
    check_adaptive(_ties((1, 2, 1, 2)), (3, 5), ties="last")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64"])
def test_adaptive_integer_extremes(adaptive_fast_only, dtype):
    info = np.iinfo(dtype)
    x = RNG.choice(np.array([info.min, info.min, 0, info.max], dtype=dtype), size=(2, 2, 13, 11))
    check_adaptive(x, (4, 3))
    check_adaptive(x, (13, 1), ties="last")


@pytest.mark.parametrize("out", [(4, 3), (2, 2), (5, 5)])
@pytest.mark.parametrize("ties", pooling.TIES)
def test_adaptive_signed_zeros(ties, out):
    """0.0 and -0.0 tie; the output is the winning element itself, sign included."""
    x = _ties((2, 2, 10, 10), values=(0.0, -0.0, -1.0))
    y, _ = check_adaptive(x, out, ties=ties, layouts=("plane",))
    assert np.signbit(y).any() and (~np.signbit(y)).any()


@pytest.mark.parametrize("nan_policy", pooling.NAN_POLICIES)
@pytest.mark.parametrize("ties", pooling.TIES)
@pytest.mark.parametrize("out", [(4, 3), (2, 2), (5, 5)])
def test_adaptive_nan_takes_the_general_path(nan_policy, ties, out):
    x = _ties((2, 2, 10, 10), values=(np.nan, 1.0, 2.0, 2.0, -np.inf))
    check_adaptive(x, out, nan_policy=nan_policy, ties=ties, layouts=("plane", "nhwc"))


# --------------------------------------------------------------------------- average, box sums


@pytest.fixture
def box_sums_only(monkeypatch):
    """Fail if avg_pool falls back to its tap loop (the padded tap source)."""
    def tap_loop(*args, **kwargs):
        raise AssertionError("the tap loop ran where the box sums must do")
    monkeypatch.setattr(pooling, "_TapSource", tap_loop)


@pytest.mark.parametrize("kernel, stride, padding", [
    (3, 2, 1),                    # the benchmark's case: two runs per axis (border, interior)
    (7, 2, 3),                    # blocks of 2 + leftover tap on both axes
    (11, 2, 5), (5, 3, 2),        # more blocks; K = q*S + r with r = 2
    ((4, 6), (2, 3), (0, 2)),     # r = 0: whole blocks only
    ((2, 9), (1, 4), ((1, 0), (3, 4))),
])
@pytest.mark.parametrize("divisor", ["valid", "padded", 4])
@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "int32", "uint16"])
def test_avg_box_sums_are_bit_identical(box_sums_only, kernel, stride, padding, divisor, dtype):
    x = (RNG.standard_normal((2, 3, 23, 26)) * 40).astype(dtype)
    check_avg(x, kernel, stride, padding, divisor=divisor)
    check_avg(x, kernel, stride, padding, rounding="ceil", divisor=divisor)


def test_avg_box_sums_three_axes_and_dilation(box_sums_only):
    x = RNG.standard_normal((1, 3, 9, 12, 14)).astype(np.float32)
    check_avg(x, 3, 2, 1, divisor="padded")
    check_avg(x, (2, 5, 7), (1, 2, 2), (1, 2, 3), rounding="ceil_torch")
    check_avg(x, 2, 3, padding=((3, 3), (1, 4), (0, 0)), dilation=(4, 3, 2), rounding="ceil")


def test_avg_box_sums_empty_windows(box_sums_only):
    """Windows with no input element (divisor 0) give 0 in both."""
    x = RNG.standard_normal((1, 2, 5, 7)).astype(np.float32)
    check_avg(x, 2, 3, padding=((3, 3), (1, 4)), dilation=(4, 3), rounding="ceil")
    check_avg(x.astype(np.int16), 1, 4, padding=(2, 3), rounding="ceil")


def test_avg_rounding_boundaries_are_recomputed(box_sums_only, monkeypatch):
    """Sums whose float64 value depends on the order of the additions: 2**30 + 2**-30
    - 2**30 is 0 in the reference's scan order and 2**-30 in another; such outputs
    fall inside the error bound and are recomputed in the reference's order."""
    calls = []
    exact = pooling._avg_exact_at
    monkeypatch.setattr(pooling, "_avg_exact_at",
                        lambda *a: calls.append(a[3][0].size) or exact(*a))
    x = RNG.standard_normal((1, 16, 16, 17)).astype(np.float32)
    x[0, 3] = RNG.choice(np.array([2.0**30, -2.0**30, 2.0**-30, 1.0, -0.0], dtype=np.float32),
                         size=(16, 17))
    for kernel, stride, padding, divisor in ((3, 2, 1, "valid"), ((2, 7), (1, 2), (0, 3), 5)):
        calls.clear()
        check_avg(x, kernel, stride, padding, divisor=divisor)
        assert calls and min(calls) > 0
    # data on a coarse grid: sums / 9 land exactly on float32 midpoints (ties to even)
    x = (RNG.integers(-2**20, 2**20, size=(2, 3, 30, 30)) / 2**10).astype(np.float32)
    check_avg(x, 3, 2, 1, divisor="padded")


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_avg_non_finite_input_takes_the_tap_loop(value):
    x = RNG.standard_normal((1, 2, 9, 9)).astype(np.float32)
    x[0, 1, 4, 4] = value
    x[0, 0, 2, 3] = -value if value == value else value
    y = reference.avg_pool(x, 3, 2, 1)
    np.testing.assert_array_equal(pooling.avg_pool(x, 3, 2, 1).output, y)


def test_avg_big_int64_takes_the_tap_loop():
    """int64 sums past 2**53 are rounded by the reference's float64 additions."""
    x = np.full((1, 1, 4, 4), 2**60 + 1, dtype=np.int64)
    x[0, 0, ::2, ::2] = 3
    check_avg(x, 2, 1)
    check_avg(x.astype(np.uint64), 2, 2, divisor="padded")


@pytest.mark.parametrize("view", ["fortran", "reversed", "strided"])
def test_avg_box_sums_non_contiguous(box_sums_only, view):
    base = (RNG.standard_normal((2, 3, 16, 18)) * 3).astype(np.float32)
    x = {"fortran": np.asfortranarray(base), "reversed": base[..., ::-1, :],
         "strided": base[:, :, ::2, 1::2]}[view]
    check_avg(x, 3, 2, 1)
    # a coarse grid: averages on float32 midpoints, recomputed from the strided input
    coarse = (RNG.integers(-2**20, 2**20, size=base.shape) / 2**10).astype(np.float32)
    x = {"fortran": np.asfortranarray(coarse), "reversed": coarse[..., ::-1, :],
         "strided": coarse[:, :, ::2, 1::2]}[view]
    check_avg(x, 3, 2, 1, divisor="padded")
