"""Window placement (pooltutor.geometry) against an independent enumeration and the spec vectors.

The enumeration (``strategies.enumerate_window_starts``) lays windows one after
another along the padded axis and stops by the words of docs/semantics.md §1.1; it
shares no formula with pooltutor.geometry.
"""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import axis_params, classify_tap, enumerate_window_starts

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.geometry import (
    ROUNDINGS,
    adaptive_bins,
    adaptive_geometry,
    effective_window,
    fixed_pool_contrast,
    normalize_padding,
    output_length,
    pool_geometry,
    same_padding,
)

# --------------------------------------------------------------------------- output length


@given(axis=axis_params(), rounding=st.sampled_from(ROUNDINGS))
def test_output_length_and_starts_match_enumeration(axis, rounding):
    size, k, s, d, pb, pe = axis
    expected = enumerate_window_starts(size, k, s, d, pb, pe, rounding)
    if expected is None:
        with pytest.raises(PoolTutorError, match=r"does not fit the padded input"):
            output_length(size, k, s, pb, pe, d, rounding)
        with pytest.raises(PoolTutorError, match=r"kernel=\(\d+,\) does not fit the input"):
            pool_geometry((size,), k, s, [(pb, pe)], d, rounding)
        return
    starts, unclipped = expected
    assert output_length(size, k, s, pb, pe, d, rounding) == (
        len(starts), unclipped, len(starts) != unclipped)
    ax = pool_geometry((size,), k, s, [(pb, pe)], d, rounding).axes[0]
    assert ax.window_starts == tuple(starts)
    assert ax.output_size == len(starts)
    assert ax.unclipped_size == unclipped
    assert ax.clipped == (len(starts) != unclipped)
    assert ax.effective_kernel == (k - 1) * d + 1 == effective_window(k, d)
    assert ax.padded_size == size + pb + pe


@given(axis=axis_params(), rounding=st.sampled_from(ROUNDINGS))
def test_taps_and_tap_kinds(axis, rounding):
    size, k, s, d, pb, pe = axis
    if enumerate_window_starts(size, k, s, d, pb, pe, rounding) is None:
        return
    ax = pool_geometry((size,), k, s, [(pb, pe)], d, rounding).axes[0]
    for o, start in enumerate(ax.window_starts):
        taps = ax.taps(o)
        assert taps == tuple(range(start, start + k * d, d))
        assert ax.tap_kinds(o) == tuple(classify_tap(t, size, pb, pe) for t in taps)
    kinds = {kind for o in range(ax.output_size) for kind in ax.tap_kinds(o)}
    if rounding in ("floor", "floor_clip"):
        assert "outside" not in kinds           # floor windows lie inside the padded extent
        assert ax.end_overhang == 0
    # the overhang is how far the last window reaches past the padded extent
    last_tap = ax.taps(ax.output_size - 1)[-1]
    assert ax.end_overhang == max(0, last_tap - (size + pe - 1))
    # the first window always starts at -pb
    assert ax.window_starts[0] == -pb


@given(axis=axis_params(), rounding=st.sampled_from(["ceil_torch", "floor_clip", "caffe"]))
def test_clip_drops_exactly_one_window_starting_in_the_end_padding(axis, rounding):
    size, k, s, d, pb, pe = axis
    if enumerate_window_starts(size, k, s, d, pb, pe, rounding) is None:
        return
    ax = pool_geometry((size,), k, s, [(pb, pe)], d, rounding).axes[0]
    unclipped = pool_geometry(
        (size,), k, s, [(pb, pe)], d, "ceil" if rounding != "floor_clip" else "floor").axes[0]
    assert unclipped.output_size == ax.unclipped_size
    if ax.clipped:
        assert ax.output_size == ax.unclipped_size - 1
        assert ax.dropped_start == unclipped.window_starts[-1] >= size
        assert ax.window_starts == unclipped.window_starts[:-1]
    else:
        assert ax.dropped_start is None
        assert ax.window_starts == unclipped.window_starts
    if rounding == "caffe" and pb == 0:
        assert not ax.clipped                  # BVLC Caffe clips only with padding (TV04)


@given(axes=st.lists(axis_params(max_pad=3), min_size=1, max_size=3),
       rounding=st.sampled_from(ROUNDINGS))
def test_axes_are_independent(axes, rounding):
    if any(enumerate_window_starts(*a, rounding) is None for a in
           [(sz, k, s, d, pb, pe) for sz, k, s, d, pb, pe in axes]):
        return
    g = pool_geometry([a[0] for a in axes], [a[1] for a in axes], [a[2] for a in axes],
                      [(a[4], a[5]) for a in axes], [a[3] for a in axes], rounding)
    assert g.ndim == len(axes)
    assert g.input_shape == tuple(a[0] for a in axes)
    assert g.pads == tuple((a[4], a[5]) for a in axes)
    assert g.rounding == rounding
    for ax, (sz, k, s, d, pb, pe) in zip(g.axes, axes, strict=True):
        starts, _ = enumerate_window_starts(sz, k, s, d, pb, pe, rounding)
        assert ax.window_starts == tuple(starts)
    assert g.output_shape == tuple(ax.output_size for ax in g.axes)
    last = tuple(n - 1 for n in g.output_shape)
    assert g.window(last) == [(ax.taps(o), ax.tap_kinds(o))
                              for ax, o in zip(g.axes, last, strict=True)]


@pytest.mark.parametrize(
    ("size", "kernel", "stride", "ceil_size"),
    [(1, 2, 2, 1), (2, 4, 3, 1), (1, 3, 2, None), (3, 5, 2, None), (3, 5, 3, 1)],
)
def test_ceil_window_longer_than_the_padded_input(size, kernel, stride, ceil_size):
    """Under the ceil rules one window may hang over the padded input by less than a stride
    (PyTorch / ONNX pool I=1 with K=2, S=2, ceil_mode into one window); floor never."""
    for rounding in ROUNDINGS:
        if ceil_size is None or rounding in ("floor", "floor_clip"):
            with pytest.raises(PoolTutorError, match="does not fit the padded input"):
                output_length(size, kernel, stride, rounding=rounding)
        else:
            assert output_length(size, kernel, stride, rounding=rounding) == (1, 1, False)
            ax = pool_geometry((size,), kernel, stride, rounding=rounding).axes[0]
            assert ax.window_starts == (0,)
            assert ax.tap_kinds(0) == ("input",) * size + ("outside",) * (kernel - size)
            assert ax.end_overhang == kernel - size


def test_stride_defaults_to_kernel():
    assert pool_geometry((7, 9), (2, 3)).stride == (2, 3)
    assert pool_geometry((7, 9), (2, 3)).output_shape == (3, 3)


# --------------------------------------------------------------------------- spec vectors


@pytest.mark.parametrize(
    ("size", "kernel", "stride", "dilation", "pads", "expected"),
    [
        # output sizes under floor, ceil, ceil_torch, floor_clip, caffe
        (5, 2, 2, 1, (0, 0), (2, 3, 3, 2, 3)),   # TV01
        (3, 2, 2, 1, (1, 1), (2, 3, 2, 2, 2)),   # TV02
        (5, 2, 2, 1, (1, 1), (3, 4, 3, 3, 3)),   # TV03
        (6, 1, 2, 1, (0, 0), (3, 4, 3, 3, 4)),   # TV04
        (5, 2, 3, 2, (1, 1), (2, 3, 2, 2, 2)),   # TV07
        (5, 2, 1, 2, (1, 1), (5, 5, 5, 5, 5)),   # TV08
    ],
    ids=["TV01", "TV02", "TV03", "TV04", "TV07", "TV08"],
)
def test_spec_output_sizes(size, kernel, stride, dilation, pads, expected):
    assert ROUNDINGS == ("floor", "ceil", "ceil_torch", "floor_clip", "caffe")
    for rounding, n in zip(ROUNDINGS, expected, strict=True):
        assert output_length(size, kernel, stride, *pads, dilation, rounding)[0] == n, rounding


def test_tv03_and_tv04_clip_details():
    ax = pool_geometry((5,), 2, 2, 1, rounding="ceil_torch").axes[0]     # TV03
    assert (ax.output_size, ax.unclipped_size, ax.clipped, ax.dropped_start) == (3, 4, True, 5)
    ceil = pool_geometry((5,), 2, 2, 1, rounding="ceil").axes[0]
    assert ceil.tap_kinds(3) == ("padding", "outside")
    ax = pool_geometry((6,), 1, 2, rounding="caffe").axes[0]            # TV04, BVLC Caffe
    assert ax.window_starts == (0, 2, 4, 6) and ax.tap_kinds(3) == ("outside",)
    assert pool_geometry((6,), 1, 2, rounding="ceil_torch").axes[0].dropped_start == 6


def test_tv14_overhang():
    ax = pool_geometry((6,), 3, 2, 1, rounding="ceil_torch").axes[0]
    assert ax.window_starts == (-1, 1, 3, 5)
    assert ax.tap_kinds(3) == ("input", "padding", "outside")
    assert ax.end_overhang == 1 and not ax.clipped


def test_tensorrt_example_1_tv05():
    """Seed 004 Pooling Example 1: I=6, B=3, A=2, S=2, F=3 (per dimension)."""
    for rounding in ("floor", "ceil"):                  # EXPLICIT_ROUND_DOWN / _UP: both 5
        g = pool_geometry((6, 6), 3, 2, padding=[(3, 2), (3, 2)], rounding=rounding)
        assert g.output_shape == (5, 5)
        ax = g.axes[0]
        assert ax.padded_size == 11                     # M = 6 + 3 + 2
        # the seed's sample points {0, 2, 4, 6, 8} are padded coordinates
        assert tuple(s + ax.pad_begin for s in ax.window_starts) == (0, 2, 4, 6, 8)
        assert ax.window_starts == (-3, -1, 1, 3, 5)
        assert ax.tap_kinds(0) == ("padding",) * 3      # the first window is all padding
        assert ax.tap_kinds(4) == ("input", "padding", "padding")
    # SAME_UPPER: B=0, A=1; SAME_LOWER: B=1, A=0; O = ceil(6/2) = 3, samples {0, 2, 4}
    assert same_padding(6, 3, 2, upper=True) == (0, 1)
    assert same_padding(6, 3, 2, upper=False) == (1, 0)
    for pads in ((0, 1), (1, 0)):
        ax = pool_geometry((6,), 3, 2, [pads]).axes[0]
        assert ax.output_size == 3
        assert tuple(s + ax.pad_begin for s in ax.window_starts) == (0, 2, 4)


def test_tensorrt_example_2_tv06():
    """Seed 004 Pooling Example 2: I=6, B=A=3, S=2, F=3."""
    def axis(rounding):
        return pool_geometry((6, 6), 3, 2, padding=3, rounding=rounding).axes[0]

    assert axis("floor_clip").output_size == 5          # CAFFE_ROUND_DOWN: 5, DIFF 0
    assert not axis("floor_clip").clipped
    assert axis("ceil").output_size == 6                # EXPLICIT_ROUND_UP: 6
    assert axis("ceil").window_starts[-1] == 7          # ... last window starts at input 7
    up = axis("ceil_torch")                             # CAFFE_ROUND_UP: 6 -> 5
    assert (up.unclipped_size, up.output_size, up.clipped, up.dropped_start) == (6, 5, True, 7)
    assert tuple(s + 3 for s in up.window_starts) == (0, 2, 4, 6, 8)
    assert axis("caffe").output_size == 5 and axis("floor").output_size == 5


# --------------------------------------------------------------------------- SAME padding


@pytest.mark.parametrize(
    ("size", "kernel", "stride", "dilation", "upper", "lower"),
    [
        (6, 3, 2, 1, (0, 1), (1, 0)),   # TV09
        (5, 3, 2, 1, (1, 1), (1, 1)),   # TV10
        (7, 4, 3, 1, (1, 2), (2, 1)),   # TV11
        (5, 2, 1, 2, (1, 1), (1, 1)),   # TV12: the dilated window counts
        (6, 1, 3, 1, (0, 0), (0, 0)),   # DK=1 < S=3: (2-1)*3+1-6 = -2 clamps at 0
        (4, 1, 2, 1, (0, 0), (0, 0)),   # -1 clamps at 0
        (9, 2, 4, 1, (0, 1), (1, 0)),   # DK < S but ceil(9/4)=3: (3-1)*4+2-9 = 1
    ],
    ids=["TV09", "TV10", "TV11", "TV12", "clamp-K1-S3", "clamp-K1-S2", "K2-S4"],
)
def test_same_padding_vectors(size, kernel, stride, dilation, upper, lower):
    assert same_padding(size, kernel, stride, dilation, upper=True) == upper
    assert same_padding(size, kernel, stride, dilation, upper=False) == lower


@given(size=st.integers(1, 40), kernel=st.integers(1, 7), stride=st.integers(1, 7),
       dilation=st.integers(1, 4), upper=st.booleans())
def test_same_padding_properties(size, kernel, stride, dilation, upper):
    pb, pe = same_padding(size, kernel, stride, dilation, upper=upper)
    dk = (kernel - 1) * dilation + 1
    out = math.ceil(size / stride)
    assert pb + pe == max(0, (out - 1) * stride + dk - size)
    assert (pe - pb if upper else pb - pe) in (0, 1)        # the odd pad goes to the end / start
    if pb + pe:
        # with these pads the floor rule gives exactly ceil(I / S) windows
        assert output_length(size, kernel, stride, pb, pe, dilation, "floor")[0] == out
    elif dk <= size:
        assert output_length(size, kernel, stride, 0, 0, dilation, "floor")[0] == out


# --------------------------------------------------------------------------- adaptive bins


@pytest.mark.parametrize(
    ("size", "out", "bins"),
    [
        (5, 3, ((0, 2), (1, 4), (3, 5))),                       # TV24
        (7, 4, ((0, 2), (1, 4), (3, 6), (5, 7))),               # TV25
        (10, 3, ((0, 4), (3, 7), (6, 10))),                     # TV26
        (32, 16, tuple((2 * i, 2 * i + 2) for i in range(16))),  # TV27
        (5, 3, ((0, 2), (1, 4), (3, 5))),                       # TV28, each axis of 5x5 -> 3x3
        (2, 4, ((0, 1), (0, 1), (1, 2), (1, 2))),               # O > I: bins repeat
    ],
    ids=["TV24", "TV25", "TV26", "TV27", "TV28", "O>I"],
)
def test_adaptive_bin_vectors(size, out, bins):
    assert adaptive_bins(size, out) == bins
    ax = adaptive_geometry((size,), out).axes[0]
    assert ax.bins == bins
    assert ax.overlapping == (size % out != 0)
    assert ax.max_bin == max(b - a for a, b in bins)


@given(size=st.integers(1, 60), out=st.integers(1, 70))
def test_adaptive_bin_properties(size, out):
    bins = adaptive_bins(size, out)
    assert len(bins) == out
    assert bins[0][0] == 0 and bins[-1][1] == size
    for i, (a, b) in enumerate(bins):
        assert a < b                                           # never empty
        assert a <= i * size / out and (i + 1) * size / out <= b
        assert b - a <= -(-size // out) + 1
    covered = set()
    for a, b in bins:
        covered |= set(range(a, b))
    assert covered == set(range(size))
    overlaps = any(bins[i][1] > bins[i + 1][0] for i in range(out - 1))
    assert overlaps == (size % out != 0)
    if size % out == 0:
        assert bins == tuple((i * size // out, (i + 1) * size // out) for i in range(out))


@pytest.mark.parametrize(
    ("size", "out", "k", "s", "same"),
    [
        (5, 3, 3, 1, (False, True, False)),                     # TV24
        (7, 4, 4, 1, (False, False, False, False)),             # TV25
        (10, 3, 4, 3, (True, True, True)),                      # TV26: exact by coincidence
        (32, 16, 2, 2, (True,) * 16),                           # TV27: O divides I
        (11, 3, 5, 3, (False, True, False)),                    # seed 000's 11 -> 3
    ],
    ids=["TV24", "TV25", "TV26", "TV27", "11to3"],
)
def test_fixed_pool_contrast_vectors(size, out, k, s, same):
    f = fixed_pool_contrast(adaptive_geometry((size,), out))
    assert (f.kernel, f.stride, f.same) == ((k,), (s,), (same,))
    assert f.equal is all(same)


@given(shape=st.tuples(st.integers(1, 40), st.integers(1, 40)),
       outs=st.tuples(st.integers(1, 40), st.integers(1, 40)))
def test_fixed_pool_contrast_is_the_fixed_pool_of_the_engine_rules(shape, outs):
    g = adaptive_geometry(shape, outs)
    f = fixed_pool_contrast(g)
    if any(i < o for i, o in zip(shape, outs)):
        assert f is None                                        # s = floor(I/O) = 0
        return
    pg = pool_geometry(shape, f.kernel, f.stride)               # no padding, floor rounding
    assert pg.output_shape == tuple(outs)                       # always O windows
    for a, b, k, win, same in zip(g.axes, pg.axes, f.kernel, f.windows, f.same):
        assert win == tuple((t, t + k) for t in b.window_starts)
        assert win[-1][1] == a.input_size                       # the last window ends the input
        assert same == tuple(w == bin_ for w, bin_ in zip(win, a.bins))
    assert f.equal == (f.windows == tuple(a.bins for a in g.axes))
    if all(i % o == 0 for i, o in zip(shape, outs)):
        assert f.equal                                          # O divides I: exact


def test_fixed_pool_contrast_refuses_what_is_not_an_adaptive_geometry():
    with pytest.raises(PoolTutorTypeError, match=r"geometry has type PoolGeometry: need a "
                                                 r"pooltutor\.geometry\.AdaptiveGeometry"):
        fixed_pool_contrast(pool_geometry((5,), 2))


def test_adaptive_geometry_describe_and_window():
    g = adaptive_geometry((5, 6), (3, 2))
    assert g.output_shape == (3, 2) and g.input_shape == (5, 6)
    text = g.describe()
    assert "I=5 -> O=3: bins [0,2), [1,4), [3,5) (bins overlap: I % O != 0)" in text
    assert "I=6 -> O=2: bins [0,3), [3,6)" in text
    assert text.count("overlap") == 1
    assert g.window((1, 1)) == [((1, 2, 3), ("input",) * 3), ((3, 4, 5), ("input",) * 3)]


# --------------------------------------------------------------------------- padding forms


@pytest.mark.parametrize(
    ("padding", "ndim", "expected"),
    [
        (0, 1, ((0, 0),)),
        (2, 3, ((2, 2),) * 3),
        ([1, 2], 2, ((1, 1), (2, 2))),
        ((3, 2), 1, ((3, 2),)),                   # one axis: a pair is (begin, end)
        ([(3, 2)], 1, ((3, 2),)),
        ([(3, 2), (0, 1)], 2, ((3, 2), (0, 1))),
        (((1, 0), (0, 0), (2, 5)), 3, ((1, 0), (0, 0), (2, 5))),
        ([[1, 2], [3, 4]], 2, ((1, 2), (3, 4))),  # lists work like tuples
        ([1, 2, 3], 3, ((1, 1), (2, 2), (3, 3))),
    ],
)
def test_normalize_padding_forms(padding, ndim, expected):
    import numpy as np

    assert normalize_padding(padding, ndim) == expected
    if isinstance(padding, int):
        assert normalize_padding(np.int64(padding), ndim) == expected


@pytest.mark.parametrize(
    ("padding", "ndim", "error", "message"),
    [
        (-1, 2, PoolTutorError, "padding=-1 is not allowed: need an int >= 0"),
        ([1, 2, 3], 2, PoolTutorError, "padding=[1, 2, 3] has 3 entries: need one int or 2"),
        ([(1, 2, 3), (0, 0)], 2, PoolTutorError,
         "every per-axis entry must be an int or a (begin, end) pair"),
        ([(1, -2), (0, 0)], 2, PoolTutorError, "every entry must be an int >= 0"),
        (1.5, 2, PoolTutorTypeError, "padding=1.5 is not allowed: need an int >= 0"),
        ([1, (2, 3)], 2, PoolTutorTypeError, "one (begin, end) pair per spatial axis"),
        ("same", 2, PoolTutorTypeError, "padding='same' is not allowed"),
        (True, 1, PoolTutorTypeError, "padding=True is not allowed"),
    ],
)
def test_normalize_padding_rejects(padding, ndim, error, message):
    with pytest.raises(error, match=re.escape(message)):
        normalize_padding(padding, ndim)


# --------------------------------------------------------------------------- describe()


def test_describe_mentions_the_numbers():
    text = pool_geometry((11,), 3, 2, [(2, 1)], 2, rounding="floor").describe()
    assert text == ("axis 0: I=11, K=3, S=2, D=2, pads=(2, 1): DK=5, M=14, "
                    "O = floor((14-5)/2) + 1 = 5")
    text = pool_geometry((5,), 2, 2, 1, rounding="ceil_torch").describe()      # TV03
    assert "O = ceil((7-2)/2) + 1 = 4" in text
    assert "'ceil_torch' drops it: O = 3" in text
    assert "drops" not in pool_geometry((5,), 2, 2, 1, rounding="ceil").describe()
    two = pool_geometry((4, 6), (2, 3), 1).describe().splitlines()
    assert two[0].startswith("axis 0: I=4, K=2") and two[1].startswith("axis 1: I=6, K=3")
    assert "output=(3, 4)" in repr(pool_geometry((4, 6), (2, 3), 1))


@pytest.mark.parametrize(("size", "kernel", "stride", "pad"), [(5, 2, 2, 1), (6, 3, 2, 3)])
def test_describe_clip_inequality_is_true(size, kernel, stride, pad):
    text = pool_geometry((size,), kernel, stride, pad, rounding="ceil_torch").describe()
    m = re.search(r"start at (-?\d+) >= [^=]+=(-?\d+)", text)
    assert m is not None
    assert int(m.group(1)) >= int(m.group(2)), text


# --------------------------------------------------------------------------- argument checks


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: pool_geometry((5,), 0), PoolTutorError,
         "kernel=0 is not allowed: need an int >= 1"),
        (lambda: pool_geometry((5,), 2, 0), PoolTutorError, "stride=0 is not allowed"),
        (lambda: pool_geometry((5,), 2, dilation=0), PoolTutorError, "dilation=0 is not allowed"),
        (lambda: pool_geometry((5, 0), 2), PoolTutorError, "input_shape=[5, 0] is not allowed"),
        (lambda: pool_geometry((), 2), PoolTutorError,
         "input_shape=() has 0 spatial axes: need 1 to 3"),
        (lambda: pool_geometry((2, 2, 2, 2), 1), PoolTutorError, "has 4 spatial axes: need 1 to 3"),
        (lambda: pool_geometry((5,), 2, rounding="round"), PoolTutorError,
         "rounding='round' is not allowed: need one of 'floor', 'ceil', 'ceil_torch', "
         "'floor_clip', 'caffe'"),
        (lambda: pool_geometry((5,), 2.0), PoolTutorTypeError, "kernel=2.0 has type float"),
        (lambda: pool_geometry((3,), 4), PoolTutorError,
         "kernel=(4,) does not fit the input (3,) on axis 0: window of effective size 4"),
        (lambda: pool_geometry((3,), 2).window((2,)), PoolTutorError, "out_index=(2,) is outside"),
        (lambda: pool_geometry((3,), 2).window((0, 0)), PoolTutorError, "has 2 entries: need 1"),
        (lambda: adaptive_geometry((5,), 0), PoolTutorError, "output_size=0 is not allowed"),
    ],
)
def test_geometry_rejects_bad_arguments(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: output_length(5, 2, 0), "stride"),
        (lambda: output_length(5, 0), "kernel"),
        (lambda: output_length(5, 2, rounding="bogus"), "rounding"),
        (lambda: same_padding(6, 3, 0), "stride"),
        (lambda: adaptive_bins(5, 0), "output_size"),
    ],
    ids=["output_length-stride0", "output_length-kernel0", "output_length-rounding",
         "same_padding-stride0", "adaptive_bins-out0"],
)
def test_geometry_helpers_check_arguments(call, name):
    with pytest.raises((PoolTutorError, PoolTutorTypeError), match=name):
        call()


@pytest.mark.parametrize("out_index, message", [
    ((-1,), "out_index=-1 is not allowed"),
    ((3,), r"out_index=\(3,\) is outside the output shape \(3,\)"),
    ((0, 0), r"out_index=\(0, 0\) has 2 entries: need 1"),
])
def test_adaptive_window_checks_out_index(out_index, message):
    with pytest.raises(PoolTutorError, match=message):
        adaptive_geometry((5,), 3).window(out_index)
    assert adaptive_geometry((5,), 3).window((1,)) == [((1, 2, 3), ("input",) * 3)]


@pytest.mark.parametrize("shape", [(), (2, 2, 2, 2)])
def test_adaptive_geometry_needs_one_to_three_axes(shape):
    with pytest.raises(PoolTutorError, match="spatial axes: need 1 to 3"):
        adaptive_geometry(shape, 1)


def test_axis_taps_checks_the_output_position():
    ax = pool_geometry((5,), 2, 1, padding=1, dilation=2).axes[0]
    assert ax.output_size == 5 and ax.taps(4) == (3, 5)
    with pytest.raises(PoolTutorError, match=r"o=7 is not an output position: need 0 <= o < 5"):
        ax.taps(7)


@pytest.mark.parametrize("source", [
    "pool_geometry((6, 7), 3, 2, padding=1, rounding='ceil_torch')",
    "adaptive_geometry((7, 5), (4, 3))",
])
def test_remembered_shapes_and_hash_do_not_travel_with_a_pickle(source):
    """The shapes and the hash are worked out once per object; a pickle carries the
    fields only, so another process (whose string hashes differ) works its own out."""
    import os
    import pickle
    import subprocess
    import sys

    def build():
        return eval(source, {"pool_geometry": pool_geometry,
                             "adaptive_geometry": adaptive_geometry})

    geom = build()
    assert geom.output_shape == tuple(a.output_size for a in geom.axes)
    assert hash(geom) == hash(build()) and "_hash" in geom.__dict__
    data = pickle.dumps(geom)
    copy = pickle.loads(data)
    assert set(copy.__dict__) == {"axes"}
    assert copy == geom and hash(copy) == hash(geom)
    # in another process, with another string-hash seed, the copy finds an equal geometry
    code = ("import pickle, sys\n"
            "from pooltutor.geometry import pool_geometry, adaptive_geometry\n"
            f"g = pickle.loads({data!r})\n"
            f"h = {source}\n"
            "sys.exit(0 if {g: 1}.get(h) == 1 and g.output_shape == h.output_shape else 1)\n")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0
