"""The pooling engine: N-D max, average and adaptive pooling with every rule explicit.

One vectorised numpy engine for ``(N, C, *spatial)`` arrays with 1 to 3
spatial axes, used by every framework mapping, plot and notebook.  The
recipe is always the same, one visible numpy step at a time:

1. work out where the windows go (:mod:`pooltutor.geometry`, shapes only);
2. pad the input once, so that every tap of every window can be read;
3. loop over the *taps* of the window (``K`` per axis, so 9 for a 3x3
   window) and, for each tap, read one strided slice holding that tap's value
   for every output position at once;
4. reduce: keep a running maximum (and which tap won) or a running sum.

The loop never runs over output positions: that is what
:mod:`pooltutor.reference` does, and the tests compare the two.

Two implementations of max pooling sit side by side.  The *fast path*
(:func:`_max_pool_fast`; benchmarks/README.md has the numbers) finds the
values first, with one in-place ``np.maximum`` per tap, then the winners,
with one comparison per tap; it covers every rule and leaves only two cases
to the *general path* (:func:`_max_pool_general`, one masked comparison per
tap with every rule written out): a window that holds a NaN, and a -0.0 that
may tie with a 0.0.  Adaptive max pooling has the same two paths.

Max pooling where no padding tap takes part, and average pooling, take a
third route, the *box passes* of :mod:`pooltutor.separable`: a window is a
box, so its maximum or sum is taken one spatial axis at a time on a
shrinking intermediate, with the borders handled by reading only input taps
instead of a padded copy, and long windows cut into blocks of the stride.
Max pooling with indices then finds each window's winner by comparing the
input's taps with those maxima, one block of planes at a time
(:func:`_max_by_boxes`).
Averages stay bit-identical to the reference: integers are summed exactly;
float32 / float16 planes whose magnitudes span few enough binades have exact
float64 partial sums in any order (:func:`_sums_are_exact`), and in the
other planes each output is checked against a proven bound of the rounding
difference and recomputed in the reference's order where the bound cannot
decide (:func:`_avg_pool_fast`).

Every decision that frameworks disagree on is a named parameter:

``rounding``
    output-length rule: ``floor``, ``ceil``, ``ceil_torch``, ``floor_clip``, ``caffe``
    (:mod:`pooltutor.geometry`).
``pad_taps``
    what padding taps are in a max window: ``skip`` (never compared: PyTorch,
    ONNX, OpenVINO, Caffe, TensorFlow), ``neg_inf`` (compared as -inf, as the
    TensorRT and PyTorch docs say) or ``lowest`` (compared as the dtype's lowest
    finite value).
``empty_value``
    the value of a window with no input element: ``neg_inf`` (-inf; the
    lowest integer for integer dtypes), ``lowest``, ``nan``, ``zero`` or
    ``error``.
``empty_index``
    its index: ``minus_one`` or ``plane_start`` (0 inside its plane, OpenVINO).
``nan_policy``
    ``propagate_last`` (PyTorch: every NaN wins, so the index is the last NaN
    in scan order), ``propagate_first`` (the first NaN sticks),
    ``first_sticks`` (a NaN wins only as the first element of its window and
    then stays: NaN loses every comparison; onnxruntime's MaxPool with
    Indices, TV17-TV19) or ``ignore`` (NaN never wins; OpenVINO, Caffe).
``ties``
    ``first`` (strict ``>``: the first maximum in row-major scan order wins,
    as in every framework) or ``last``.
``index_layout``
    how a winner's position is flattened (:mod:`pooltutor.indexing`).
``divisor`` (average)
    ``valid`` (exclude padding), ``padded`` (include padding, clipped to the
    padded extent), or an int (PyTorch's ``divisor_override``).

>>> x = np.arange(16.0).reshape(1, 1, 4, 4)
>>> r = max_pool(x, kernel=2, stride=2, return_indices=True)
>>> r.output[0, 0].tolist(), r.indices[0, 0].tolist()
([[5.0, 7.0], [13.0, 15.0]], [[5, 7], [13, 15]])
>>> avg_pool(x, kernel=2, stride=2).output[0, 0].tolist()
[[2.5, 4.5], [10.5, 12.5]]
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast, overload

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .errors import (
    PoolTutorError,
    PoolTutorTypeError,
    check_choice,
    check_int,
    check_memory,
    check_per_axis,
    check_tensor,
)
from .geometry import (
    AdaptiveAxis,
    AdaptiveGeometry,
    AxisGeometry,
    PoolGeometry,
    adaptive_geometry,
    pool_geometry,
)
from .indexing import from_plane
from .reference import fill_value
from .rules import (
    DIVISORS,
    EMPTY_INDICES,
    EMPTY_VALUES,
    INDEX_LAYOUTS,
    NAN_POLICIES,
    PAD_TAPS,
    ROUNDINGS,
    TIES,
    DivisorRule,
    EmptyIndex,
    EmptyValue,
    IndexLayout,
    NanPolicy,
    PadTaps,
    Rounding,
    Ties,
)
from .separable import (BoxPlan, box_plan, per_thread, plane_blocks, reduce_block, reduce_boxes,
                        scratch)
from . import threads
from .threads import run_parts

_T = TypeVar("_T")
#: Per axis of a geometry: tap positions ``(O, K)``, is-input mask, in-padded-extent mask.
_Table = tuple[np.ndarray, np.ndarray, np.ndarray]

__all__ = [
    "PoolResult",
    "max_pool",
    "avg_pool",
    "adaptive_max_pool",
    "adaptive_avg_pool",
    "PAD_TAPS",
    "EMPTY_VALUES",
    "EMPTY_INDICES",
    "NAN_POLICIES",
    "TIES",
]

# the allowed strings of every rule (pooltutor.rules derives them from the Literal aliases)


@dataclass(frozen=True, eq=False)
class PoolResult:
    """What a pooling produced, with everything needed to explain it.

    Attributes
    ----------
    output : numpy.ndarray
        ``(N, C, *out_spatial)``.
    indices : numpy.ndarray or None
        Max pooling only, in ``index_layout``; ``-1`` where no input element won.
    geometry : PoolGeometry or AdaptiveGeometry
        Where every window went.
    op : str
        ``"max"``, ``"avg"``, ``"adaptive_max"`` or ``"adaptive_avg"``.
    rules : dict
        The decisions in force (``pad_taps``, ``nan_policy``, ``divisor``, ...).
    input : numpy.ndarray
        The pooled input (not copied: do not modify it if you want to
        ``explain()`` later).
    """

    output: np.ndarray
    indices: np.ndarray | None
    geometry: PoolGeometry | AdaptiveGeometry
    op: str
    rules: dict[str, Any] = field(default_factory=dict)
    input: np.ndarray | None = field(default=None, repr=False)
    index_layout: IndexLayout = "plane"

    def __iter__(self) -> Iterator[np.ndarray | None]:
        """Unpack as ``y, indices = result`` (indices may be None)."""
        return iter((self.output, self.indices))

    def explain(self, *index: Any) -> str:
        """Say in words how one output cell came about.

        ``index`` is ``(n, c, *out_spatial)``, or just ``out_spatial`` when
        ``N = C = 1``.  See :func:`pooltutor.explain.explain_cell`.
        """
        from .explain import explain_cell

        return explain_cell(self, index)

    def __repr__(self) -> str:
        idx = "" if self.indices is None else f", indices {self.index_layout!r}"
        rules = ", ".join(f"{k}={v!r}" for k, v in self.rules.items())
        return (
            f"PoolResult({self.op}: input {None if self.input is None else self.input.shape} -> "
            f"output {self.output.shape} {self.output.dtype}{idx}; {rules})"
        )


# --------------------------------------------------------------------------- checks


def _check_common(x: ArrayLike, kernel: int | Sequence[int], stride: int | Sequence[int] | None,
                  padding: Any, dilation: int | Sequence[int], rounding: Rounding
                  ) -> tuple[np.ndarray, PoolGeometry]:
    x = check_tensor("x", x)
    ndim = x.ndim - 2
    kernel_t = check_per_axis("kernel", kernel, ndim, minimum=1)
    stride_t = kernel_t if stride is None else check_per_axis("stride", stride, ndim, minimum=1)
    dil_t = check_per_axis("dilation", dilation, ndim, minimum=1)
    check_choice("rounding", rounding, ROUNDINGS)
    geom = pool_geometry(x.shape[2:], kernel_t, stride_t, padding, dil_t, rounding)
    return x, geom


@functools.lru_cache(maxsize=256)
def _cached(builder: Callable[..., Any], *args: Any) -> Any:
    """``builder(*args)`` remembered: per-geometry tables (geometries are frozen and
    remembered by :mod:`pooltutor.geometry`, so equal shapes give the same key)."""
    return builder(*args)


def _remembered_if(small: bool, builder: Callable[..., Any], *args: Any) -> Any:
    """``builder(*args)``, remembered by :func:`_cached` when ``small``: a large table is
    built again on every call rather than kept (the cache holds 256 of them)."""
    return _cached(builder, *args) if small else builder(*args)


def _padded_extent(geom: PoolGeometry) -> list[tuple[int, int]]:
    """Per axis, how much to pad before / after so that every tap can be sliced."""
    pads = []
    for a in geom.axes:
        reach = (a.output_size - 1) * a.stride + a.effective_kernel  # padded coords
        after = max(0, reach - a.pad_begin - a.input_size)
        pads.append((a.pad_begin, after))
    return pads


def _tap_slices(geom: PoolGeometry, tap: tuple[int, ...]) -> tuple[slice, ...]:
    """The strided slice of the padded input that holds ``tap`` of every window."""
    return tuple(
        slice(j * a.dilation, j * a.dilation + (a.output_size - 1) * a.stride + 1, a.stride)
        for a, j in zip(geom.axes, tap, strict=True)
    )


def _axis_shape(ndim: int, axis: int, length: int) -> tuple[int, ...]:
    shape = [1] * (2 + ndim)
    shape[2 + axis] = length
    return tuple(shape)


def _axis_tap_tables(geom: PoolGeometry) -> tuple[_Table, ...]:
    """Per axis: tap positions ``(O, K)`` in input coordinates, and their kinds
    (read-only; remembered per geometry unless they are large)."""
    tables: tuple[_Table, ...] = _remembered_if(
        sum(a.output_size * a.kernel for a in geom.axes) <= 1 << 14, _tap_tables, geom)
    return tables


def _tap_tables(geom: PoolGeometry) -> tuple[_Table, ...]:
    tables: list[_Table] = []
    for a in geom.axes:
        o = np.arange(a.output_size)[:, None]
        j = np.arange(a.kernel)[None, :]
        pos = o * a.stride - a.pad_begin + j * a.dilation
        is_input = (pos >= 0) & (pos < a.input_size)
        in_padded = (pos >= -a.pad_begin) & (pos < a.input_size + a.pad_end)
        tables.append((pos, is_input, in_padded))
    for table in tables:
        for array in table:
            array.setflags(write=False)
    return tuple(tables)


def _tap_mask(masks: Sequence[np.ndarray], tap: tuple[int, ...], ndim: int
              ) -> np.ndarray | None:
    """Outer product over axes of the per-axis masks of ``tap``; None when all True."""
    combined: np.ndarray | None = None
    for axis, (mask, j) in enumerate(zip(masks, tap, strict=True)):
        column = mask[:, j]
        if column.all():
            continue
        m = column.reshape(_axis_shape(ndim, axis, column.size))
        combined = m if combined is None else combined & m
    return combined


# --------------------------------------------------------------------------- tap source


class _TapSource:
    """The input laid out so that one tap of every window is one plain, mostly contiguous slice.

    On axis ``a`` window ``o`` reads the *frame* coordinates ``f = o*S + j*D``
    (``f = t + pad_begin`` for the input coordinate ``t``); the frame is
    ``[0, reach)`` with ``reach = (O-1)*S + DK``.  When no window reads
    outside the input (and no cast is needed), the frame is a part of ``x``
    and ``src`` is ``x`` itself: no copy.  Otherwise ``src`` is a new array
    holding the frame: the input where there is input, ``pad_fill`` in the
    padding, ``out_fill`` beyond the padded extent (a ceil-mode overhang).

    Phase split of the last axis: with a stride ``S > 1`` the slice of one
    tap steps through memory ``S`` elements at a time, and numpy's ufuncs run
    about twice as slowly on such data as on contiguous data.  So the last
    axis is stored as ``S`` phases, ``src[..., p, m] = frame[..., m*S + p]``:
    the tap at frame offset ``f = j*D`` is phase ``f % S`` from slot ``f // S``
    on, ``O`` contiguous elements.  Copying once costs about as much as two
    strided taps, so it pays from a few taps per window on (``passes`` says
    how often every tap will be read).
    """

    def __init__(self, x: np.ndarray, geom: PoolGeometry, dtype: np.dtype[Any], pad_fill: Any,
                 out_fill: Any, passes: int = 1,
                 alloc: Callable[[tuple[int, ...], np.dtype[Any]], np.ndarray] | None = None
                 ) -> None:
        self.geom = geom
        axes = geom.axes
        reach = [(a.output_size - 1) * a.stride + a.effective_kernel for a in axes]
        # frame ranges [lo, hi) that hold input, and the end of the padded extent
        inp = []
        for a, r in zip(axes, reach, strict=True):
            lo = min(a.pad_begin, r)
            inp.append((lo, max(lo, min(a.pad_begin + a.input_size, r))))
        padded_end = [min(a.padded_size, r) for a, r in zip(axes, reach, strict=True)]
        in_place = dtype == x.dtype and all(
            lo == 0 and hi == r for (lo, hi), r in zip(inp, reach, strict=True))
        self.split = self.splits(x.dtype, geom, dtype, passes)
        self.phases = axes[-1].stride if self.split else 1
        self.src: np.ndarray
        if in_place and not self.split:
            self.src = x
            return
        s = self.phases
        shape = x.shape[:2] + tuple(reach[:-1]) + ((s, -(-reach[-1] // s)) if self.split
                                                   else (reach[-1],))
        # (the callers refused a padded copy of more than errors.MAX_BYTES up front)
        self.src = np.empty(shape, dtype=dtype) if alloc is None else alloc(shape, dtype)
        full = [(0, r) for r in reach]
        # padding first (every slab around the input box), then what lies beyond the
        # padded extent on any axis: an "outside" tap stays outside whatever the other axes say
        for axis, ((lo, hi), r) in enumerate(zip(inp, reach, strict=True)):
            for band in ((0, lo), (hi, r)):
                self._fill(full[:axis] + [band] + full[axis + 1:], pad_fill)
        if out_fill != pad_fill:        # fills are numbers, never NaN
            for axis, (end, r) in enumerate(zip(padded_end, reach, strict=True)):
                self._fill(full[:axis] + [(end, r)] + full[axis + 1:], out_fill)
        if all(hi > lo for lo, hi in inp):
            shift = [a.pad_begin for a in axes]
            for index, first, count in self._boxes(inp):
                xs = [slice(None), slice(None)]
                xs += [slice(lo - b, hi - b)
                       for (lo, hi), b in zip(inp[:-1], shift[:-1], strict=True)]
                t0 = first - shift[-1]      # input coordinate of the first slot
                xs.append(slice(t0, t0 + (count - 1) * s + 1, s))
                self.src[index] = x[tuple(xs)]

    @staticmethod
    def splits(x_dtype: np.dtype[Any], geom: PoolGeometry, dtype: np.dtype[Any], passes: int
               ) -> bool:
        """Whether the last axis is stored as its phases (see the class docstring): when
        the stride is above 1 and the frame must be copied anyway (padding, an
        overhang, a cast), or when the taps are read often enough to pay for the copy."""
        axes = geom.axes
        in_place = dtype == x_dtype and all(
            a.pad_begin == 0 and (a.output_size - 1) * a.stride + a.effective_kernel
            <= a.input_size for a in axes)
        return axes[-1].stride > 1 and (
            not in_place or math.prod(geom.kernel) * passes > 2 * math.prod(geom.stride))

    def _boxes(self, box: Sequence[tuple[int, int]]
               ) -> list[tuple[tuple[slice | int, ...], int, int]]:
        """The ``src`` indices of a frame box, one per phase, with the box's first frame
        coordinate and slot count on the last axis (phases without a slot are left out)."""
        lead: tuple[slice | int, ...] = (slice(None), slice(None)) + tuple(
            slice(lo, hi) for lo, hi in box[:-1])
        lo, hi = box[-1]
        if not self.split:
            return [(lead + (slice(lo, hi),), lo, hi - lo)] if hi > lo else []
        s = self.phases
        out = []
        for p in range(s):
            m0, m1 = -(-(lo - p) // s), -(-(hi - p) // s)
            if m1 > m0:
                out.append((lead + (p, slice(m0, m1)), m0 * s + p, m1 - m0))
        return out

    def _fill(self, box: Sequence[tuple[int, int]], value: Any) -> None:
        if all(hi > lo for lo, hi in box):
            for index, _, _ in self._boxes(box):
                self.src[index] = value

    def along_last(self, j: int) -> np.ndarray:
        """A view ``(N, C, *frame[:-1], O_last)``: tap ``j`` of the last axis, every frame row."""
        a = self.geom.axes[-1]
        f = j * a.dilation
        if self.split:
            q = f // self.phases
            return self.src[..., f % self.phases, q:q + a.output_size]
        return self.src[..., f:f + (a.output_size - 1) * a.stride + 1:a.stride]

    def tap(self, tap: tuple[int, ...]) -> np.ndarray:
        """A view ``(N, C, *out_spatial)``: the value of ``tap`` in every window."""
        index: list[slice | int] = [slice(None), slice(None)]
        last = self.geom.ndim - 1
        for axis, (a, j) in enumerate(zip(self.geom.axes, tap, strict=True)):
            f = j * a.dilation
            if axis == last and self.split:
                q = f // self.phases
                index += [f % self.phases, slice(q, q + a.output_size)]
            else:
                index.append(slice(f, f + (a.output_size - 1) * a.stride + 1, a.stride))
        return self.src[tuple(index)]


# --------------------------------------------------------------------------- box passes


def _box_plan(geom: PoolGeometry, full_rows: bool = False) -> BoxPlan:
    """The separable passes of :mod:`pooltutor.separable` for ``geom`` (remembered);
    ``full_rows``: the first pass over the flat block where rows are short (for maxima,
    computed in the input's dtype; sums cast to a wider one, which it would slow)."""
    return box_plan(tuple((a.kernel, a.stride, a.dilation, a.pad_begin, a.input_size,
                           a.output_size) for a in geom.axes), full_rows)


def _max_values_clipped(x: np.ndarray, geom: PoolGeometry, identity: Any) -> np.ndarray:
    """The window maxima when no padding tap takes part (values only): box passes
    straight on ``x``, an empty window ``identity``."""
    out = reduce_boxes(x, _box_plan(geom, True), np.maximum, x.dtype, identity)
    assert out is not None
    return out


def _outer_and(columns: Sequence[np.ndarray | np.bool_], ndim: int) -> np.ndarray | None:
    """The outer AND over axes of per-axis boolean vectors, shaped ``(1, 1, *out_spatial)``;
    None when everything is True."""
    combined: np.ndarray | None = None
    for axis, column in enumerate(columns):
        if column.all():
            continue
        m = column.reshape(_axis_shape(ndim, axis, column.size))
        combined = m if combined is None else combined & m
    return combined


_fill_value = functools.lru_cache(maxsize=64)(fill_value)
""":func:`pooltutor.reference.fill_value`, remembered (the numbers are immutable scalars)."""


def _window_taps(geom: PoolGeometry) -> tuple[tuple[int, ...], ...]:
    """Every tap of a window, ``(j_0, ..., j_{n-1})`` in row-major scan order."""
    return tuple(itertools.product(*(range(k) for k in geom.kernel)))


def _windows_with_taps(geom: PoolGeometry, skip: bool) -> np.ndarray | None:
    """Where a window holds a tap that may take part (an input tap with ``skip``, else
    any tap inside the padded extent), ``(1, 1, *O)``; None when every window does
    (remembered per geometry when it is small, as the tap tables are)."""
    has: np.ndarray | None = _remembered_if(math.prod(geom.output_shape) <= 1 << 16,
                                            _windows_with_taps_now, geom, skip)
    return has


def _windows_with_taps_now(geom: PoolGeometry, skip: bool) -> np.ndarray | None:
    has = _outer_and([t[1 if skip else 2].any(axis=1) for t in _axis_tap_tables(geom)],
                     geom.ndim)
    if has is not None:
        has.setflags(write=False)
    return has


def _index_weights(input_shape: Sequence[int], layout: str) -> tuple[int, int, list[int]]:
    """``(wn, wc, w)`` such that ``layout`` numbers element ``(n, c, *t)`` as
    ``n*wn + c*wc + sum(t[a] * w[a])``.

    Every layout of :mod:`pooltutor.indexing` is linear in the coordinates
    (tests/core/test_pooling_fastpaths.py checks these weights against
    :func:`pooltutor.indexing.from_plane`).

    >>> _index_weights((2, 3, 4, 5), "tensor"), _index_weights((2, 3, 4, 5), "nhwc")
    ((60, 20, [5, 1]), (0, 1, [15, 3]))
    """
    channels, spatial = input_shape[1], list(input_shape[2:])
    size = math.prod(spatial)
    row = [math.prod(spatial[a + 1:]) for a in range(len(spatial))]
    if layout == "plane":
        return 0, 0, row
    if layout == "tensor":
        return channels * size, size, row
    if layout == "tensor_colmajor":
        return channels * size, size, [math.prod(spatial[:a]) for a in range(len(spatial))]
    if layout == "nhwc":
        return 0, 1, [r * channels for r in row]
    if layout == "nhwc_batch":
        return size * channels, 1, [r * channels for r in row]
    raise PoolTutorError(  # pragma: no cover - checked by the callers
        f"index_layout={layout!r} is not one of {INDEX_LAYOUTS}")


def _tap_offset(geom: PoolGeometry, tap: tuple[int, ...], weights: Sequence[int]) -> int:
    """How far tap ``tap`` of a window lies from the window's start, in index units."""
    return sum(j * a.dilation * wa for j, a, wa in zip(tap, geom.axes, weights, strict=True))


def _lead_offsets(wn: int, wc: int, n: range, c: range, ndim: int) -> np.ndarray:
    """``n*wn + c*wc`` for the planes ``n`` x ``c``, shaped ``(len(n), len(c), 1, ...)``:
    the part of an index that :func:`_index_weights` gives the ``(n, c)`` axes."""
    lead: np.ndarray = (np.arange(n.start, n.stop, dtype=np.int64).reshape((-1, 1) + (1,) * ndim)
                        * wn + np.arange(c.start, c.stop, dtype=np.int64).reshape(
                            (1, -1) + (1,) * ndim) * wc)
    return lead


def _holds_nan(a: np.ndarray) -> bool:
    """Whether float array ``a`` holds a NaN: ``np.max`` propagates NaN, and one reduction
    costs half of ``np.isnan(a).any()`` (a boolean array, then its reduction)."""
    return a.size > 0 and bool(np.isnan(a.max()))


def _holds_zero(a: np.ndarray) -> bool:
    """Whether ``a`` holds a 0 (or -0.0): ``all()`` is False exactly then, and it reads the
    array once without the boolean array of ``(a == 0).any()`` (half the time)."""
    return not a.all()


def _has_negative_zero(x: np.ndarray) -> bool:
    """Whether float array ``x`` holds a -0.0: its bits are the sign bit alone, so one
    integer comparison finds it (post-ReLU data, full of zeros, asks on every call)."""
    if x.dtype.kind != "f":
        return False
    if x.dtype.itemsize not in (2, 4, 8):   # (long double: padding bytes in its bits)
        return bool(np.any((x == 0) & np.signbit(x)))
    bits = np.dtype(f"u{x.dtype.itemsize}")
    return bool((x.view(bits) == bits.type(1 << (8 * x.dtype.itemsize - 1))).any())


# --------------------------------------------------------------------------- max


def _check_max_rules(x: np.ndarray, pad_taps: PadTaps, empty_value: EmptyValue,
                     empty_index: EmptyIndex, nan_policy: NanPolicy, ties: Ties,
                     index_layout: IndexLayout) -> None:
    check_choice("pad_taps", pad_taps, PAD_TAPS)
    check_choice("empty_value", empty_value, EMPTY_VALUES)
    check_choice("empty_index", empty_index, EMPTY_INDICES)
    check_choice("nan_policy", nan_policy, NAN_POLICIES)
    check_choice("ties", ties, TIES)
    check_choice("index_layout", index_layout, INDEX_LAYOUTS)
    if empty_value == "nan" and x.dtype.kind != "f":
        raise PoolTutorError(
            f"empty_value='nan' is not possible for x of dtype {x.dtype}: integers have no NaN; "
            f"use 'neg_inf', 'lowest' or 'zero'"
        )


def _running_max(taps: Iterable[tuple[int, np.ndarray, np.ndarray | None]],
                 out_shape: tuple[int, ...], dtype: DTypeLike, nan_policy: NanPolicy, ties: Ties
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reduce ``(tap_id, values, mask)`` in scan order to the winner value and tap id.

    ``mask`` (broadcastable to ``out_shape``, or None for "every output")
    says where the tap may take part.  Returns ``(best, winner, has)``,
    ``has`` False where nothing took part (an empty window).
    """
    is_float = np.dtype(dtype).kind == "f"
    best = np.zeros(out_shape, dtype=dtype)
    winner = np.full(out_shape, -1, dtype=np.int32)
    has = np.zeros(out_shape, dtype=bool)
    for tap_id, values, mask in taps:
        if ties == "first":
            take = values > best          # strict: an equal later value does not win
        else:
            take = values >= best
        # first_sticks needs nothing more: NaN loses every comparison, so a NaN wins only
        # as the first element of its window (take | ~has below), and then stays
        if is_float and nan_policy in ("propagate_last", "propagate_first"):
            nan = np.isnan(values)
            if nan_policy == "propagate_last":
                take |= nan               # every NaN takes over
            else:
                take |= nan & ~np.isnan(best)   # only the first NaN; then it sticks
        allowed = (np.ones(out_shape, dtype=bool) if mask is None
                   else np.broadcast_to(mask, out_shape))
        if is_float and nan_policy == "ignore":
            allowed = allowed & ~np.isnan(values)
        take = (take | ~has) & allowed   # the first allowed tap always starts the scan
        np.copyto(best, values, where=take)
        np.copyto(winner, tap_id, where=take)
        has |= allowed
    return best, winner, has


def max_pool(
    x: ArrayLike,
    kernel: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: Any = 0,
    dilation: int | Sequence[int] = 1,
    *,
    rounding: Rounding = "floor",
    pad_taps: PadTaps = "skip",
    empty_value: EmptyValue = "neg_inf",
    empty_index: EmptyIndex = "minus_one",
    nan_policy: NanPolicy = "propagate_last",
    ties: Ties = "first",
    return_indices: bool = False,
    index_layout: IndexLayout = "plane",
) -> PoolResult:
    """N-D max pooling with every rule a named parameter (see the module docstring).

    Parameters
    ----------
    x : array_like, shaped ``(N, C, *spatial)``, 1 to 3 spatial axes
        Floats (16/32/64 bit) or integers; the output keeps the dtype.
    kernel, stride, dilation : int or one int per spatial axis
        ``stride`` defaults to ``kernel``.
    padding : int, one int per axis, or one ``(begin, end)`` pair per axis
        Any size >= 0, larger than the window too.
    rounding, pad_taps, empty_value, empty_index, nan_policy, ties, index_layout : str
        The rules; see the module docstring.
    return_indices : bool
        Also compute the winners' positions (``PoolResult.indices``, int64).

    Returns
    -------
    PoolResult
        ``output``, ``indices``, ``geometry`` and ``explain()``.

    Examples
    --------
    The first maximum wins a tie (TV15), and a window of padding only is
    -inf with index -1 (TV20: taps -1 and 2 of a 2-element input):

    >>> r = max_pool(np.array([[[3.0, 3, 1, 3]]]), 2, 1, return_indices=True)
    >>> r.output.tolist(), r.indices.tolist()
    ([[[3.0, 3.0, 3.0]]], [[[0, 1, 3]]])
    >>> r = max_pool(np.array([[[5.0, 7]]]), 2, 1, padding=1, dilation=3, return_indices=True)
    >>> r.output.tolist(), r.indices.tolist()
    ([[[-inf]]], [[[-1]]])

    See Also
    --------
    pooltutor.reference.max_pool : the same, one loop at a time.
    notebooks/01_window_placement.py : stepping through a max pool.
    """
    x, geom = _check_common(x, kernel, stride, padding, dilation, rounding)
    _check_max_rules(x, pad_taps, empty_value, empty_index, nan_policy, ties, index_layout)
    if not isinstance(return_indices, (bool, np.bool_)):
        raise PoolTutorTypeError(f"return_indices={return_indices!r}: need True or False")
    tables = _axis_tap_tables(geom)
    # which taps may take part: input taps only when padding is skipped,
    # every tap inside the padded extent when padding is compared as a value
    masks = [t[1] if pad_taps == "skip" else t[2] for t in tables]
    if empty_value == "error":
        empty_axes = [~m.any(axis=1) for m in masks]
        if any(e.any() for e in empty_axes):
            axis = next(i for i, e in enumerate(empty_axes) if e.any())
            raise PoolTutorError(
                f"empty_value='error': output position {int(np.argmax(empty_axes[axis]))} on "
                f"spatial axis {axis} has no input element in its window ({geom!r})"
            )

    # refuse a huge padded copy up front, before any work
    extent = _padded_extent(geom)
    padded_shape = x.shape[:2] + tuple(
        s + b + a for s, (b, a) in zip(x.shape[2:], extent, strict=True))
    check_memory("padding x", padded_shape, x.dtype.itemsize)

    fast = _max_pool_fast(x, geom, tables, masks, pad_taps, empty_value, empty_index, ties,
                          return_indices, index_layout)
    if fast is None:                    # a NaN in a window, or a -0.0 that may tie with 0.0
        fast = _max_pool_general(x, geom, tables, masks, extent, pad_taps, empty_value,
                                 empty_index, nan_policy, ties, return_indices, index_layout)
    best, indices = fast
    rules = dict(rounding=rounding, pad_taps=pad_taps, empty_value=empty_value,
                 empty_index=empty_index, nan_policy=nan_policy, ties=ties)
    return PoolResult(best, indices, geom, "max", rules, x, index_layout)


def _max_pool_fast(x: np.ndarray, geom: PoolGeometry, tables: Sequence[_Table],
                   masks: Sequence[np.ndarray], pad_taps: PadTaps, empty_value: EmptyValue,
                   empty_index: EmptyIndex, ties: Ties, return_indices: bool | np.bool_,
                   index_layout: IndexLayout) -> tuple[np.ndarray, np.ndarray | None] | None:
    """Max pooling in two passes over the taps: values, then (if asked) winners.

    Exact whenever no window holds a NaN and no -0.0 can tie with a 0.0: it
    returns None otherwise (checked on the result, so a NaN that no window
    reads costs nothing) and :func:`max_pool` takes the general path.

    1. Values.  ``identity`` (-inf, or the lowest integer) never changes a
       maximum, so padding that is skipped and taps past the padded extent
       are stored as ``identity``, and padding that takes part as its value
       (:class:`_TapSource`).  Then ``best = max over taps`` is one in-place
       ``np.maximum`` per tap (or per tap of one axis at a time,
       :func:`_max_values`), with no mask at all.  ``np.maximum`` returns
       either argument on a tie, which is only visible for 0.0 vs -0.0
       (hence the -0.0 check) and propagates NaN (hence the NaN check).
    2. Winners.  Once ``best`` is known, the winner is the first (``ties=
       'first'``) or last tap equal to it.  Per tap: ``eq = tap == best``,
       then ``code = max(code, eq * c_t)`` with a uint8 code ``c_t`` that
       decreases along the scan for 'first' and increases for 'last'; the
       largest code left names the winner.  One float comparison and two
       uint8 ufuncs per tap (``np.copyto(..., where=)`` costs ten times as
       much); the tap with code 0 needs no pass at all.
       A tap that may not take part only ever holds ``identity``; it is masked
       out (per-axis masks, small) only if some ``best`` is ``identity``.
    3. Indices.  Every index layout is linear in the coordinates, so the index
       is ``start(n, c, o) + offset(tap)``: one table lookup on the code and
       one broadcast add.  Padding winners (``pad_taps`` not 'skip', only
       where ``best`` is the padding value) get -1; empty windows are fixed up
       from the per-axis tables.
    """
    dtype = x.dtype
    ndim = geom.ndim
    out_shape = x.shape[:2] + geom.output_shape
    identity = _fill_value(dtype, "neg_inf")
    pad_fill = _fill_value(dtype, "lowest") if pad_taps == "lowest" else identity
    taps = _cached(_window_taps, geom)
    # windows with no tap that may take part (geometry alone says which: ``masks`` are
    # the tap tables' input or padded-extent columns, as pad_taps says)
    has = _windows_with_taps(geom, pad_taps == "skip")
    indices = None
    if pad_fill == identity and (pad_taps == "skip" or not return_indices):
        # no padding tap takes part (or, compared as -inf, it changes no maximum): box
        # passes on x itself, and the winners straight from x's taps, one block of
        # planes at a time (_max_by_boxes)
        found = _max_by_boxes(x, geom, identity, ties, return_indices, index_layout)
        if found is None:
            return None
        best, indices = found
    else:
        source = _TapSource(x, geom, dtype, pad_fill, identity, passes=2 if return_indices else 1)
        # 1. values: a running maximum, in place (the winners pass reads the same source)
        best = _max_values(source, taps)
        if dtype.kind == "f":
            if _holds_nan(best):
                return None
            if _holds_zero(best) and _has_negative_zero(x):
                return None
    if return_indices and indices is None:
        codes, code = _winner_codes(source, taps, best, masks, identity, ties)
        # Free the padded copy before the int64 indices are allocated: with both
        # alive, the heap grows and shrinks on every call, and each call then pays
        # for fresh pages (page faults cost about as much as the index pass).
        del source
        indices = _indices_from_codes(code, codes, taps, x.shape, geom, index_layout)
        # a padding tap can only win where best is the padding value
        if pad_taps != "skip" and bool((best == pad_fill).any()):
            ntaps = len(taps)
            tap_id = (ntaps - 1 - code.astype(np.int64)) if ties == "first" \
                else code.astype(np.int64)
            _, won_by_input = _decode_winners(tap_id, tables, geom)
            np.copyto(indices, -1, where=~won_by_input)
        del code
    if indices is not None:
        if has is not None:
            if empty_index == "minus_one":
                np.copyto(indices, -1, where=~has)
            else:
                start = from_plane(np.zeros(out_shape, dtype=np.int64), x.shape, index_layout)
                np.copyto(indices, start, where=~has)
    if has is not None:
        np.copyto(best, fill_value(dtype, empty_value), where=~has)
    return best, indices


@dataclass(frozen=True, eq=False)
class _Winners:
    """How :func:`_max_by_boxes` finds the winning tap of every window (per geometry and
    tie rule): per tap, the outputs whose window holds it as an input element (a box
    of output ranges) and the matching strided view of the input, with its code."""

    #: per tap: (outputs, input view, code, the outputs outside its box)
    taps: tuple[tuple[tuple[slice, ...], tuple[slice, ...], int, tuple[tuple[slice, ...], ...]],
                ...]
    code_type: np.dtype[Any]
    #: per code, the tap's position in the window: (j_0, ..., j_{n-1})
    tap_of_code: tuple[tuple[int, ...], ...]


def _winners(geom: PoolGeometry, ties: Ties) -> _Winners:
    taps = _window_taps(geom)
    ntaps = len(taps)
    code_type = np.min_scalar_type(ntaps - 1)       # uint8 up to 256 taps
    found = []
    tap_of_code: list[tuple[int, ...]] = [()] * ntaps
    for t, tap in enumerate(taps):
        code = ntaps - 1 - t if ties == "first" else t
        tap_of_code[code] = tap
        if code == 0:       # where no other tap equals the maximum, this one does
            continue
        outs: list[slice] = []
        srcs: list[slice] = []
        outside: list[tuple[slice, ...]] = []
        lead = (slice(None), slice(None))
        for axis, (a, j) in enumerate(zip(geom.axes, tap, strict=True)):
            off = j * a.dilation - a.pad_begin
            lo = max(0, -(off // a.stride))                     # ceil(-off / S)
            hi = min(a.output_size, (a.input_size - 1 - off) // a.stride + 1)
            if hi <= lo:
                break
            outs.append(slice(lo, hi))
            srcs.append(slice(lo * a.stride + off, (hi - 1) * a.stride + off + 1, a.stride))
            rest = [slice(None)] * geom.ndim
            for band in (slice(0, lo), slice(hi, a.output_size)):
                if band.stop > band.start:
                    rest[axis] = band
                    outside.append(lead + tuple(rest))
        else:
            found.append((lead + tuple(outs), lead + tuple(srcs), code, tuple(outside)))
    return _Winners(tuple(found), code_type, tuple(tap_of_code))


@dataclass(frozen=True, eq=False)
class _BoxJob:
    """What :func:`_max_by_boxes` works out before any pass, once per geometry, input
    shape, dtype and rules (remembered: for a small input it costs as much as the
    passes)."""

    plan: BoxPlan
    winners: _Winners
    taps: tuple[tuple[int, ...], ...]
    #: the last axis stored as its phases (see the comment in _max_by_boxes)
    split: bool
    masks: tuple[np.ndarray, ...]
    #: the blocks of planes, and the intermediate bytes of the whole reduction
    blocks: tuple[tuple[slice, slice], ...]
    total: int
    #: with indices: per code, the tap's offset; the window starts; whether they
    #: include the (n, c) part; the (n, c) weights of the layout
    lut: np.ndarray | None
    start: np.ndarray | None
    whole: bool
    lead_weights: tuple[int, int]


@functools.lru_cache(maxsize=16)      # (as _index_tables, whose arrays a job holds)
def _box_job(geom: PoolGeometry, ties: Ties, shape: tuple[int, ...], dtype: np.dtype[Any],
             return_indices: bool, index_layout: IndexLayout, parts: int) -> _BoxJob:
    plan = _box_plan(geom, True)
    winners = _cached(_winners, geom, ties)
    lut = start = None
    whole = False
    lead_weights = (0, 0)
    if return_indices:
        # index = start(n, c, o) + offset(winning tap), every layout being linear
        lut, start, whole = _index_tables(geom, ties, shape, index_layout)
        wn, wc, _ = _index_weights(shape, index_layout)
        lead_weights = (wn, wc)
    taps = _window_taps(geom)
    split = return_indices and _TapSource.splits(dtype, geom, dtype, passes=2)
    masks = tuple(t[1] for t in _axis_tap_tables(geom)) if split else ()
    per_plane = max(plan.plane_elements * dtype.itemsize,
                    math.prod(geom.output_shape) * (16 if return_indices else dtype.itemsize))
    total = per_plane * math.prod(shape[:2])
    # One block per thread: the winners take about 4 numpy calls per tap and block, and
    # a call's own cost (about 4 microseconds here) then outweighs what smaller blocks
    # gain in the cache (measured: 4 blocks of 16 planes 40% slower than 1 of 64).
    blocks = tuple(plane_blocks(shape, per_plane, budget=per_thread(total, parts)))
    return _BoxJob(plan, winners, taps, split, masks, blocks, total, lut, start, whole,
                   lead_weights)


def _max_by_boxes(x: np.ndarray, geom: PoolGeometry, identity: Any, ties: Ties,
                  return_indices: bool | np.bool_, index_layout: IndexLayout
                  ) -> tuple[np.ndarray, np.ndarray | None] | None:
    """Steps 1-3 of :func:`_max_pool_fast` where no padding tap takes part, one block
    of planes at a time (in the cache, over threads): the maxima by the box passes of
    :mod:`pooltutor.separable` straight on ``x``, the winners by comparing ``x``'s taps
    with them, each tap over the outputs whose window holds it (a strided view of
    ``x``, no copy), and the indices.  The empty windows are left to the caller;
    None when a window holds a NaN or a -0.0 may tie with a 0.0.
    """
    dtype = x.dtype
    job = _box_job(geom, ties, x.shape, dtype, bool(return_indices), index_layout,
                   threads.num_threads())
    plan, winners, taps, masks = job.plan, job.winners, job.taps, job.masks
    lut, start, whole = job.lut, job.start, job.whole
    wn, wc = job.lead_weights
    out_shape = x.shape[:2] + geom.output_shape
    best = np.empty(out_shape, dtype=dtype)
    indices = np.empty(out_shape, dtype=np.int64) if return_indices else None
    leave: list[bool] = []
    is_float = dtype.kind == "f"
    # Where windows overlap along a strided last axis (3x3 stride 2), the taps of x are
    # read every S elements; a copy of the block with that axis split into its S phases
    # (_TapSource, padding filled with identity) makes every tap a contiguous run, and
    # then serves both the maxima and the comparisons of the winners (job.split).
    split = job.split

    def from_source(xb: np.ndarray, bb: np.ndarray) -> np.ndarray | None:
        source = _TapSource(xb, geom, dtype, identity, identity, passes=2,
                            alloc=lambda shape, dt: scratch(shape, dt, "max source"))
        _max_values(source, taps, out=bb)
        if is_float and (_holds_nan(bb) or _holds_zero(bb) and _has_negative_zero(xb)):
            return None
        return _winner_codes(source, taps, bb, masks, identity, ties)[1]

    def block(index: tuple[slice, slice]) -> None:
        xb = x[index]
        if split:
            code = from_source(xb, best[index])
            if code is None:
                leave.append(True)
            if code is None or leave:
                return
            assert indices is not None
            _finish_indices(code, index)
            return
        bb = reduce_block(xb, plan, np.maximum, dtype, identity, best[index])
        if is_float and (_holds_nan(bb) or _holds_zero(bb) and _has_negative_zero(xb)):
            leave.append(True)          # the general path does it all
            return
        if indices is None or leave:
            return
        # 2. winners: code = max over taps of (tap == best) * code(tap)
        code = scratch(bb.shape, winners.code_type, "max codes")
        code.fill(0)
        eq = scratch(bb.shape, np.bool_, "max equal")
        scaled = scratch(bb.shape, winners.code_type, "max scaled")
        eq8 = eq.view(np.uint8)
        for out, src, c, outside in winners.taps:
            # the tap's comparison over its outputs, False elsewhere: the code arithmetic
            # then runs over whole arrays (a range of 55 out of 56 outputs would make
            # numpy run 55-element loops, five times slower here)
            np.equal(xb[src], bb[out], out=eq[out])
            for band in outside:
                eq[band] = False
            np.multiply(eq8, winners.code_type.type(c), out=scaled)
            np.maximum(code, scaled, out=code)
        _finish_indices(code, index)

    def _finish_indices(code: np.ndarray, index: tuple[slice, slice]) -> None:
        # 3. indices: the offset of the winning tap, then the start of the window
        assert indices is not None and lut is not None and start is not None
        ib = indices[index]
        lut.take(code, out=ib, mode="clip")
        if whole:                       # the starts of every window of x, (n, c) included
            np.add(ib, start[index], out=ib)
            return
        np.add(ib, start, out=ib)
        if wn or wc:
            n0, c0 = index[0].start or 0, index[1].start or 0
            np.add(ib, _lead_offsets(wn, wc, range(n0, n0 + ib.shape[0]),
                                     range(c0, c0 + ib.shape[1]), geom.ndim), out=ib)

    run_parts(block, job.blocks, job.total)
    if leave:
        return None
    return best, indices


@functools.lru_cache(maxsize=16)
def _index_tables(geom: PoolGeometry, ties: Ties, shape: tuple[int, ...], layout: IndexLayout
                  ) -> tuple[np.ndarray, np.ndarray, bool]:
    """What :func:`_max_by_boxes` turns winner codes into indices with (remembered for
    a few shapes): per code, the offset of its tap from the window's start; the
    starts, of every window of ``shape`` (``(N, C, *O)``, and True) where the layout
    numbers across planes and they take at most 512 KiB, else ``(1, 1, *O)`` without
    the ``(n, c)`` part (and False)."""
    wn, wc, w = _index_weights(shape, layout)
    winners = _cached(_winners, geom, ties)
    lut = np.array([_tap_offset(geom, tap, w) for tap in winners.tap_of_code], dtype=np.int64)
    start = _window_starts(geom, tuple(w))
    # (per plane, as PyTorch numbers them, the starts are the same in every plane: a
    # broadcast (1, 1, *O) table reads less memory than a whole one)
    whole = bool(wn or wc) and math.prod(shape[:2] + geom.output_shape) <= 1 << 16
    if whole:
        start = start + _lead_offsets(wn, wc, range(shape[0]), range(shape[1]), geom.ndim)
        start.setflags(write=False)
    lut.setflags(write=False)
    return lut, start, whole


def _window_starts(geom: PoolGeometry, weights: tuple[int, ...]) -> np.ndarray:
    """``sum over axes of (o*S - pb) * weight``, shaped ``(1, 1, *output_shape)`` (read-only)."""
    ndim = geom.ndim
    start = np.zeros((1, 1) + geom.output_shape, dtype=np.int64)
    for axis, (a, wa) in enumerate(zip(geom.axes, weights, strict=True)):
        o = np.arange(a.output_size, dtype=np.int64)
        start = start + ((o * a.stride - a.pad_begin) * wa).reshape(
            _axis_shape(ndim, axis, a.output_size))
    start.setflags(write=False)
    return start


def _running_maximum(views: Sequence[np.ndarray], out: np.ndarray | None = None) -> np.ndarray:
    """The elementwise maximum of equally shaped arrays: into ``out`` (or a new array),
    one in-place ``np.maximum`` per further array."""
    if len(views) == 1:
        if out is None:
            return np.array(views[0], copy=True)
        np.copyto(out, views[0])
        return out
    out = np.maximum(views[0], views[1], out=out)
    for view in views[2:]:
        np.maximum(out, view, out=out)
    return out


def _prefer_separable(geom: PoolGeometry, lead: tuple[int, ...]) -> bool:
    """Whether reducing one axis at a time touches fewer elements than tap by tap."""
    axes = geom.axes
    if geom.ndim == 1:
        return False
    taps = math.prod(geom.kernel)
    direct = (taps - 1) * math.prod(lead + geom.output_shape)
    shape = [(a.output_size - 1) * a.stride + a.effective_kernel for a in axes]
    separable = 0
    for axis in reversed(range(geom.ndim)):
        shape[axis] = axes[axis].output_size
        separable += (axes[axis].kernel - 1) * math.prod(lead) * math.prod(shape)
    calls = 2000 * (taps - sum(geom.kernel))        # a ufunc call costs about 2000 elements
    return separable + calls < direct


def _max_values(source: _TapSource, taps: Sequence[tuple[int, ...]],
                out: np.ndarray | None = None) -> np.ndarray:
    """The maximum over every window, tap by tap or one axis at a time.

    The maximum over a box is the maximum over its first axis of the maxima
    over the others, so instead of ``prod(K) - 1`` maxima over the output, the
    window can be reduced one axis at a time, last axis first: ``K - 1``
    maxima over an array that keeps the other axes at their frame length.
    The values are the same numbers either way (a maximum is one of its
    elements; only the sign of a zero tie could differ, and the caller
    leaves the fast path when a -0.0 could tie).  The cheaper order is chosen
    from the number of elements each would touch (3x3x3 windows: 27 taps or
    3 + 3 + 3 on larger arrays).
    """
    geom = source.geom
    if not _prefer_separable(geom, source.src.shape[:2]):
        return _running_maximum([source.tap(tap) for tap in taps], out)
    axes = geom.axes
    z = _running_maximum([source.along_last(j) for j in range(axes[-1].kernel)])
    for axis in reversed(range(geom.ndim - 1)):
        a = axes[axis]
        views = []
        for j in range(a.kernel):
            index = [slice(None)] * z.ndim
            index[2 + axis] = slice(j * a.dilation,
                                    j * a.dilation + (a.output_size - 1) * a.stride + 1, a.stride)
            views.append(z[tuple(index)])
        z = _running_maximum(views, out if axis == 0 else None)
    return z


def _winner_codes(source: _TapSource, taps: Sequence[tuple[int, ...]], best: np.ndarray,
                  masks: Sequence[np.ndarray], identity: Any, ties: Ties
                  ) -> tuple[list[int], np.ndarray]:
    """Step 2 of :func:`_max_pool_fast`: per window, the code of the winning tap.

    Returns ``(codes, code)``: the code of every tap, and the array of winners' codes.
    """
    ndim = len(masks)
    ntaps = len(taps)
    code_type = np.min_scalar_type(ntaps - 1)       # uint8 up to 256 taps
    # the winner's code: largest for the first tap ('first') or the last ('last')
    codes = [ntaps - 1 - t if ties == "first" else t for t in range(ntaps)]
    # only where best is identity can a tap that may not take part equal it
    guard = bool((best == identity).any())
    tap_masks = [_tap_mask(masks, tap, ndim) if guard else None for tap in taps]
    eq = np.empty(best.shape, dtype=bool)
    eq8 = eq.view(np.uint8)                         # 0 / 1, to multiply with
    scaled = np.empty(best.shape, dtype=code_type)
    code = np.zeros(best.shape, dtype=code_type)
    for tap, mask, c in zip(taps, tap_masks, codes, strict=True):
        if c == 0:
            # The tap with code 0 needs no pass: where no other tap equals best, it
            # does (or the window is empty, which is fixed up afterwards).
            continue
        np.equal(source.tap(tap), best, out=eq)
        if mask is not None:
            np.logical_and(eq, mask, out=eq)
        np.multiply(eq8, code_type.type(c), out=scaled)
        np.maximum(code, scaled, out=code)
    return codes, code


def _indices_from_codes(code: np.ndarray, codes: Sequence[int], taps: Sequence[tuple[int, ...]],
                        input_shape: tuple[int, ...], geom: PoolGeometry, index_layout: str
                        ) -> np.ndarray:
    """Step 3 of :func:`_max_pool_fast`: ``start(n, c, o) + offset(winning tap)``."""
    wn, wc, w = _index_weights(input_shape, index_layout)
    offset = np.zeros(len(taps), dtype=np.int64)    # by code
    for tap, c in zip(taps, codes, strict=True):
        offset[c] = _tap_offset(geom, tap, w)
    # The lookup in place: the int64 codes become the offsets.  (np.take with uint8
    # indices would allocate an intp copy of them besides the result; element i
    # reads index i before writing element i, and mode="clip" is unbuffered.)
    indices = code.astype(np.int64)
    np.take(offset, indices, out=indices, mode="clip")
    np.add(indices, _cached(_window_starts, geom, tuple(w)), out=indices)
    if wn or wc:
        np.add(indices, _lead_offsets(wn, wc, range(input_shape[0]), range(input_shape[1]),
                                      geom.ndim), out=indices)
    return indices


def _max_pool_general(x: np.ndarray, geom: PoolGeometry, tables: Sequence[_Table],
                      masks: Sequence[np.ndarray], extent: list[tuple[int, int]],
                      pad_taps: PadTaps, empty_value: EmptyValue, empty_index: EmptyIndex,
                      nan_policy: NanPolicy, ties: Ties, return_indices: bool | np.bool_,
                      index_layout: IndexLayout) -> tuple[np.ndarray, np.ndarray | None]:
    """Every rule, NaN included: one running comparison per tap, with masks."""
    ndim = geom.ndim
    out_shape = x.shape[:2] + geom.output_shape
    # pad once; padding is filled with the value it is compared as
    fill = fill_value(x.dtype, "lowest" if pad_taps == "lowest" else "neg_inf")
    xp = np.pad(x, [(0, 0), (0, 0)] + extent, mode="constant", constant_values=fill)

    # one strided slice per tap, in row-major scan order of the window
    def taps() -> Iterator[tuple[int, np.ndarray, np.ndarray | None]]:
        for tap_id, tap in enumerate(_window_taps(geom)):
            values = xp[(slice(None), slice(None)) + _tap_slices(geom, tap)]
            yield tap_id, values, _tap_mask(masks, tap, ndim)

    best, winner, has = _running_max(taps(), out_shape, x.dtype, nan_policy, ties)
    if empty_value != "error" and not has.all():
        best[~has] = fill_value(x.dtype, empty_value)

    indices = None
    if return_indices:
        plane, won_by_input = _decode_winners(winner, tables, geom)
        plane = np.where(won_by_input, plane, -1)
        plane = np.where(has, plane, 0 if empty_index == "plane_start" else -1)
        indices = from_plane(plane, x.shape, index_layout)
    return best, indices


def _decode_winners(winner: np.ndarray, tables: Sequence[_Table], geom: PoolGeometry
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Plane positions (row-major) of the winning taps, and whether each is an input tap."""
    ndim = geom.ndim
    safe = np.where(winner < 0, 0, winner)
    js = np.unravel_index(safe, geom.kernel)
    plane = np.zeros(winner.shape, dtype=np.int64)
    is_input = np.ones(winner.shape, dtype=bool)
    for axis, (pos, inp, _) in enumerate(tables):
        o = np.arange(pos.shape[0]).reshape(_axis_shape(ndim, axis, pos.shape[0]))
        p = pos[o, js[axis]]
        is_input &= inp[o, js[axis]]
        plane = plane * geom.axes[axis].input_size + p
    return plane, is_input


# --------------------------------------------------------------------------- average

def _divisor_counts(tables: Sequence[_Table], which: int, ndim: int) -> np.ndarray:
    """Per-output number of taps, an outer product of per-axis counts."""
    count = np.ones((1, 1) + (1,) * ndim, dtype=np.int64)
    for axis, t in enumerate(tables):
        per_axis = t[which].sum(axis=1)
        count = count * per_axis.reshape(_axis_shape(ndim, axis, per_axis.size))
    return count


@dataclass(frozen=True, eq=False)
class _Divisors:
    """The divisors of an average pooling, and what its division needs (worked out once
    per geometry: reductions over the counts cost as much as a small pooling)."""

    count: np.ndarray                   # (1, 1, *output_shape) int64, read-only
    zero: bool                          # some window has divisor 0 (its average is 0)
    smallest: int                       # the smallest divisor that is not 0 (1 if none)
    by: float | np.ndarray              # what to divide by: a float where it is uniform


def _divisors(count: np.ndarray) -> _Divisors:
    count.setflags(write=False)
    zero = bool((count == 0).any())
    smallest = int(count[count > 0].min()) if not (count == 0).all() else 1
    # one divisor everywhere (as with count_include_pad and symmetric padding): a float
    # scalar, which divides faster than a broadcast int64 array and gives the same quotients
    by = float(smallest) if int(count.max()) == smallest and not zero \
        else count.astype(np.float64)
    return _Divisors(count, zero, smallest, by)


def _geometry_divisors(geom: PoolGeometry, which: int) -> _Divisors:
    return _divisors(_divisor_counts(_axis_tap_tables(geom), which, geom.ndim))


def _avg_divisors(geom: PoolGeometry, divisor: DivisorRule | int) -> _Divisors:
    """The divisor of every output (remembered per geometry unless it is large, as the
    tap tables are)."""
    if isinstance(divisor, int):
        return _divisors(np.full((1,) * (2 + geom.ndim), divisor, dtype=np.int64))
    which = 1 if divisor == "valid" else 2
    found: _Divisors = _remembered_if(math.prod(geom.output_shape) <= 1 << 16,
                                      _geometry_divisors, geom, which)
    return found


_U = 2.0 ** -53                         # unit roundoff of float64


class _LeaveFastPath(Exception):
    """Raised inside a block of :func:`_avg_pool_fast` to hand the whole pooling to the tap loop."""


def _avg_pool_fast(x: np.ndarray, geom: PoolGeometry, divisors: _Divisors) -> np.ndarray | None:
    """Average pooling by box sums (:mod:`pooltutor.separable`), bit-identical to the loop
    reference.

    Returns the output, or None where the tap loop of :func:`avg_pool` must
    do it (float64, 64-bit integers too large for exact float64 sums, a
    non-finite input, or too many windows left to recompute).

    * Integers (up to 32 bits, or int64 below 2**53 / taps): the box sums are
      exact int64 numbers, and so are the reference's float64 sums (every
      partial sum is an integer below 2**53); the one division by the count
      is the same float64 division.
    * float32 / float16, a block of planes whose sums are exact in any order
      (:func:`_sums_are_exact`: the usual case): the box sums *are* the
      reference's sums, divided straight into the output dtype.
    * float32 / float16, other blocks: the box sums are taken in float64, in another order
      than the reference's row-major scan, so the float64 totals may differ in
      the last bits -- and a float32 output hides that difference unless the
      exact average lies next to a rounding boundary of the output dtype.  So
      every output is checked: with ``n <= K`` terms of magnitude ``<= M``,
      a sum whose terms each pass through at most ``d`` additions is within
      ``gamma_d * n * M`` (``gamma_d = d*u / (1 - d*u)``, ``u = 2**-53``) of the
      exact sum (Higham, *Accuracy and Stability of Numerical Algorithms*,
      sec. 4.2): ``d = K - 1`` for the reference, ``d = sum(K_a - 1)`` for the
      box passes.  With the two float64 divisions and the rounding of ``q +- B``
      itself, ``B = 4 (K + sum(K_a) + 4) K u M / c_min`` bounds (twice over)
      the distance between our quotient ``q`` and the reference's.  Rounding to
      the output dtype is monotone, so where ``q - B`` and ``q + B`` round to
      the same bits, the reference's quotient, in between, rounds to those bits
      too.  The few other outputs (an average within ``B`` of a rounding
      boundary, or exactly on one: sums of data on a coarse grid divided by 9
      land on float32 midpoints about once in 60 windows) are recomputed in
      the reference's order (:func:`_avg_exact_at`).  ``M`` is taken per
      plane, so one large plane does not widen every other plane's bound.
    """
    dtype = x.dtype
    ktot = math.prod(geom.kernel)
    count, zero_count, c_min, divisor = (divisors.count, divisors.zero, divisors.smallest,
                                         divisors.by)

    out_shape = x.shape[:2] + geom.output_shape
    if dtype.kind in "iu":
        if dtype.itemsize == 8:
            if dtype.kind == "u" or max(-int(x.min()), int(x.max())) * ktot >= 2**53:
                return None
        out = np.empty(out_shape, dtype=np.float64)

        # int64 / count: the float64 division of the reference
        def finish_int(index: tuple[slice, slice], total: np.ndarray) -> None:
            _divide(total, divisor, out[index], zero_count)

        reduce_boxes(x, _box_plan(geom), np.add, np.int64, 0, finish_int)
        return out
    if dtype.itemsize == 8:
        return None
    scale = 4 * (ktot + sum(geom.kernel) + 4) * ktot * _U / c_min
    bits = np.dtype(f"u{dtype.itemsize}")
    spatial = tuple(range(2, x.ndim))
    y = np.empty(out_shape, dtype=dtype)
    unsure: list[list[np.ndarray]] = []
    # exact sums: see _sums_are_exact
    layout = _float_layout(dtype)
    room = 53 - layout.nmant - 1 - math.ceil(math.log2(ktot))

    # per block of planes, while it is in the cache
    def finish(index: tuple[slice, slice], total: np.ndarray) -> None:
        block = x[index]
        # The magnitudes as integers: a float's bits shifted left by one drop the sign,
        # and order the magnitudes as their values (inf and NaN last), so one integer
        # pass and two integer reductions give each plane's largest and smallest; the
        # exponent arithmetic on them is a few Python integers per plane.
        mag = scratch(block.shape, bits, "avg magnitudes")
        np.left_shift(block.view(bits), 1, out=mag)
        top = mag.max(axis=spatial)
        tops = [v >> 1 for v in top.ravel().tolist()]
        if max(tops) >> layout.nmant == layout.special:
            raise _LeaveFastPath        # inf or NaN: the tap loop propagates them as the reference
        smallest = mag.min(axis=spatial)
        zeros = not smallest.all()
        if zeros:                       # the smallest magnitude that is not 0: 0 - 1 wraps
            np.subtract(mag, 1, out=mag)    # to the largest integer, the others keep order
            smallest = mag.min(axis=spatial) + 1    # (a plane of zeros: 0)
        lows = [v >> 1 for v in smallest.ravel().tolist()]
        if _sums_are_exact(tops, lows, room, layout):
            if zeros:                   # a sum of -0.0 only: +0.0, as the reference's 0.0 + -0.0
                np.add(total, 0.0, out=total)
            if zero_count:
                np.copyto(y[index], _divide(total, divisor, total, True), casting="same_kind")
            else:                       # the float64 quotient, rounded once into the output
                np.divide(total, divisor, out=y[index], casting="same_kind")
            return
        m = (top >> 1).view(dtype).astype(np.float64).reshape(top.shape + (1,) * geom.ndim)
        bound = m * scale               # per plane
        q = _divide(total, divisor, total, zero_count)
        np.copyto(y[index], q, casting="same_kind")
        # q -+ B computed in float64 and rounded straight into the output dtype
        lower = np.subtract(q, bound, out=np.empty(q.shape, dtype), casting="same_kind")
        upper = np.add(q, bound, out=np.empty(q.shape, dtype), casting="same_kind")
        # (same bits: also the same sign of zero; -0.0 and 0.0 compare equal as floats)
        flat = np.flatnonzero(lower.view(bits) != upper.view(bits))
        if flat.size:
            where = list(np.unravel_index(flat, q.shape))
            where[0] = where[0] + (index[0].start or 0)
            where[1] = where[1] + (index[1].start or 0)
            unsure.append(where)

    try:
        with np.errstate(invalid="ignore", over="ignore"):   # inf + -inf: NaN, the right average
            reduce_boxes(x, _box_plan(geom), np.add, np.float64, 0.0, finish)
    except _LeaveFastPath:
        return None
    if not unsure:
        return y
    where = [np.concatenate(parts) for parts in zip(*unsure, strict=True)]
    if zero_count:                      # a window with no element: 0 in both, nothing to check
        keep = np.broadcast_to(count, (1, 1) + geom.output_shape)[(0, 0) + tuple(where[2:])] > 0
        where = [w[keep] for w in where]
    if where[0].size * 8 > y.size:      # many boundary cases: the tap loop costs less
        return None
    if where[0].size:
        y[tuple(where)] = _avg_exact_at(x, geom, count, where, dtype)
    return y


@dataclass(frozen=True)
class _FloatLayout:
    """Where a float dtype keeps its exponent: mantissa bits, bias, the exponent field of
    inf and NaN, and ``log2`` of the smallest subnormal."""

    nmant: int
    bias: int
    special: int
    log2_tiny: int

    def floor_log2(self, raw: int) -> int:
        """``floor(log2 |v|)`` of a float ``v != 0`` from its bits without the sign."""
        field = raw >> self.nmant
        return field - self.bias if field else raw.bit_length() - 1 + self.log2_tiny


@functools.lru_cache(maxsize=None)
def _float_layout(dtype: np.dtype[Any]) -> _FloatLayout:
    info = np.finfo(dtype)
    return _FloatLayout(info.nmant, info.maxexp - 1,
                        (1 << (8 * dtype.itemsize - 1 - info.nmant)) - 1, info.minexp - info.nmant)


def _sums_are_exact(top: Sequence[int], low: Sequence[int], room: int, layout: _FloatLayout
                    ) -> bool:
    """Whether every float64 partial sum of every window is exact, per plane, so that
    the box passes' sums are the reference's sums bit for bit, in any order.

    ``top`` is the largest magnitude of each plane, ``low`` the smallest that is
    not 0, both as the bits of the float without its sign (0 for a plane of
    zeros).  A float with ``p`` mantissa bits and ``2**E <= |v|`` is a whole
    multiple of ``2**(E - p + 1)`` (or of the smallest subnormal ``tiny``), and
    so is every value of the plane that is at least as large: every element,
    hence every partial sum of a window, is a whole multiple of ``g =
    max(2**(E_low - p + 1), tiny)``.  A partial sum of at most ``K`` terms is
    below ``K * m < 2**(ceil(log2 K) + E_m + 1)``.  When that is at most ``2**53
    * g``, every partial sum is a whole multiple of ``g`` with at most 53 bits: a
    float64, exactly, so no addition rounds and every order of the additions
    gives the exact sum.  ``room = 53 - (p - 1) - 1 - ceil(log2 K)`` collects
    the constants: the test is ``E_m - E_low <= room`` (a subnormal ``low``
    counts with its own ``floor(log2)``, below ``E_min``: stricter than
    needed).  Data of one plane spanning fewer than ``room`` (25 for float32
    and 3x3 windows) binades passes: standard normal data spans about 16,
    post-ReLU data the same above its zeros; float16 passes unless a plane
    holds both subnormals and values near its largest.  Planes of all zeros
    pass.  (Python integers: a few per plane cost less than numpy calls on
    arrays of 16 planes.)
    """
    log2 = layout.floor_log2
    return all(log2(t) - log2(lo) <= room for t, lo in zip(top, low, strict=True) if t)


def _divide(total: np.ndarray, count: float | np.ndarray, out: np.ndarray, zero_count: bool
            ) -> np.ndarray:
    """``total / count`` into ``out`` (float64), 0 where the count is 0, as the reference."""
    if not zero_count:
        quotient: np.ndarray = np.divide(total, count, out=out)
        return quotient
    with np.errstate(invalid="ignore", divide="ignore"):
        np.divide(total, np.maximum(count, 1), out=out)
    np.copyto(out, 0.0, where=count == 0)
    return out


def _avg_exact_at(x: np.ndarray, geom: PoolGeometry, count: np.ndarray, where: Sequence[np.ndarray],
                  dtype: np.dtype[Any]) -> np.ndarray:
    """The averages of the outputs at ``where`` (index arrays ``n, c, *o``), as the
    reference computes them: float64 sums from 0.0 in row-major scan order of the
    window's input taps, then one division."""
    ndim = geom.ndim
    size = where[0].size
    shape = tuple(geom.kernel) + (size,)
    # per axis, the input position of every tap of every window, (K, F) in scan
    # order, clipped onto the input; valid: the tap is an input tap (else zeroed)
    positions, valid = [], np.ones((1, size), dtype=bool)
    for axis, a in enumerate(geom.axes):
        j = np.arange(a.kernel).reshape(_axis_shape(ndim, axis, a.kernel)[2:] + (1,))
        t = where[2 + axis] * a.stride - a.pad_begin + j * a.dilation      # (..K_a.., F)
        valid = valid & (t >= 0) & (t < a.input_size)
        positions.append(np.clip(t, 0, a.input_size - 1))
    if x.flags.c_contiguous:            # one take on the flat input
        st = [s // x.itemsize for s in x.strides]
        flat = (where[0] * st[0] + where[1] * st[1])
        for pos, s_ in zip(positions, st[2:], strict=True):
            flat = flat + pos * s_
        values = np.take(x.reshape(-1), np.broadcast_to(flat, shape).reshape(-1, size))
    else:
        values = x[(where[0], where[1]) + tuple(positions)].reshape(-1, size)
    values = values.astype(np.float64)
    values[~np.broadcast_to(valid, shape).reshape(-1, size)] = 0.0
    total = np.zeros(size)
    for row in values:
        total += row                    # adding 0.0 changes no sum that started from +0.0
    c = np.broadcast_to(count, (1, 1) + geom.output_shape)[(0, 0) + tuple(where[2:])]
    return _divide(total, c, total, bool((c == 0).any())).astype(dtype)


def avg_pool(x: ArrayLike, kernel: int | Sequence[int], stride: int | Sequence[int] | None = None,
             padding: Any = 0, dilation: int | Sequence[int] = 1, *, rounding: Rounding = "floor",
             divisor: DivisorRule | int = "valid") -> PoolResult:
    """N-D average pooling.

    Parameters
    ----------
    divisor : {'valid', 'padded'} or int
        ``'valid'``: the number of input elements in the window (padding
        excluded: ONNX, TensorRT, TensorFlow default); ``'padded'``: the taps
        inside the padded extent, padding included but a ceil-mode overhang
        past it excluded (PyTorch ``count_include_pad=True``, Caffe); an int
        replaces the divisor (PyTorch ``divisor_override``).  A window with
        divisor 0 (no element at all) gives 0.

    Floats keep their dtype (the sum is taken in float64 and rounded once);
    integers give float64.

    Examples
    --------
    TV14: ``x = 1..6``, K3 S2 pads 1/1, ceil: the last window holds x5, one
    padding tap and one tap past the padded input.

    >>> x = np.arange(1.0, 7.0).reshape(1, 1, 6)
    >>> avg_pool(x, 3, 2, padding=1, rounding="ceil_torch").output.ravel().tolist()
    [1.5, 3.0, 5.0, 6.0]
    >>> r = avg_pool(x, 3, 2, padding=1, rounding="ceil_torch", divisor="padded")
    >>> r.output.ravel().tolist()
    [1.0, 3.0, 5.0, 3.0]
    """
    x, geom = _check_common(x, kernel, stride, padding, dilation, rounding)
    if isinstance(divisor, str):
        check_choice("divisor", divisor, DIVISORS)
    else:
        try:
            divisor = check_int("divisor", divisor, minimum=1)
        except PoolTutorTypeError:
            raise PoolTutorTypeError(
                f"divisor={divisor!r}: need 'valid', 'padded' or an int >= 1"
            ) from None
    out_shape = x.shape[:2] + geom.output_shape
    divisors = _avg_divisors(geom, divisor)
    count = divisors.count
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    rules = dict(rounding=rounding, divisor=divisor)
    extent = _padded_extent(geom)
    padded_shape = x.shape[:2] + tuple(
        s + b + a for s, (b, a) in zip(x.shape[2:], extent, strict=True))
    check_memory("padding x", padded_shape, 8)      # (refused up front, whichever path runs)
    fast = _avg_pool_fast(x, geom, divisors)
    if fast is not None:
        return PoolResult(fast.astype(out_dtype, copy=False), None, geom, "avg", rules, x)
    # The tap loop: float64 input, or what _avg_pool_fast leaves to it.
    # x laid out for the taps (padding and overhang 0), then one in-place float64
    # add per tap, in scan order, as the reference adds; each tap is cast to float64
    # (exactly, or rounded as float() rounds a big int64) inside the add.  The
    # reference starts from 0.0 and skips padding; here the first tap is added to
    # 0.0 and padding adds 0.0, which changes no sum (a sum that starts at +0.0
    # is never -0.0), so the totals are the same numbers.
    source = _TapSource(x, geom, x.dtype, x.dtype.type(0), x.dtype.type(0))
    taps = _window_taps(geom)
    total = np.empty(out_shape, dtype=np.float64)
    np.add(source.tap(taps[0]), 0.0, out=total)
    with np.errstate(invalid="ignore"):           # inf + -inf: NaN, the right average
        for tap in taps[1:]:
            np.add(total, source.tap(tap), out=total)
    if count.min() > 0:
        out = np.divide(total, count, out=total)  # in float64, in place
    else:                                         # a window with no element at all gives 0
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(count > 0, total / np.maximum(count, 1), 0.0)
    return PoolResult(out.astype(out_dtype, copy=False), None, geom, "avg", rules, x)


# --------------------------------------------------------------------------- adaptive


def _adaptive_tables(geom: AdaptiveGeometry) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per axis: positions ``(O, Lmax)`` of the bin elements (clipped) and a validity mask."""
    tables: list[tuple[np.ndarray, np.ndarray]] = []
    for a in geom.axes:
        start = np.array([b[0] for b in a.bins])[:, None]
        stop = np.array([b[1] for b in a.bins])[:, None]
        pos = start + np.arange(a.max_bin)[None, :]
        valid = pos < stop
        tables.append((np.minimum(pos, a.input_size - 1), valid))
    return tables


def _adaptive_check(x: ArrayLike, output_size: int | Sequence[int]
                    ) -> tuple[np.ndarray, AdaptiveGeometry]:
    x = check_tensor("x", x)
    ndim = x.ndim - 2
    outs = check_per_axis("output_size", output_size, ndim, minimum=1)
    return x, adaptive_geometry(x.shape[2:], outs)


def _adaptive_taps(x: np.ndarray, geom: AdaptiveGeometry,
                   tables: Sequence[tuple[np.ndarray, np.ndarray]]
                   ) -> Iterator[tuple[int, np.ndarray, np.ndarray | None]]:
    """For each tap of the largest bin: the gathered values ``(N, C, *O)`` and the mask."""
    ndim = geom.ndim
    for tap_id, tap in enumerate(itertools.product(*(range(a.max_bin) for a in geom.axes))):
        index: list[slice | np.ndarray] = [slice(None), slice(None)]
        mask = None
        for axis, ((pos, valid), j) in enumerate(zip(tables, tap, strict=True)):
            shape = [1] * ndim
            shape[axis] = pos.shape[0]
            index.append(pos[:, j].reshape(shape))
            if not valid[:, j].all():
                m = valid[:, j].reshape(_axis_shape(ndim, axis, pos.shape[0]))
                mask = m if mask is None else mask & m
        yield tap_id, x[tuple(index)], mask


def _adaptive_max_general(x: np.ndarray, geom: AdaptiveGeometry, nan_policy: NanPolicy, ties: Ties,
                          return_indices: bool | np.bool_, index_layout: IndexLayout
                          ) -> tuple[np.ndarray, np.ndarray | None]:
    """Every rule, NaN included: one gathered tap of the largest bin at a time."""
    tables = _adaptive_tables(geom)
    out_shape = x.shape[:2] + geom.output_shape
    best, winner, has = _running_max(_adaptive_taps(x, geom, tables), out_shape, x.dtype,
                                     nan_policy, ties)
    if not has.all():                   # only when every element of a bin was an ignored NaN
        best[~has] = fill_value(x.dtype, "neg_inf")
    indices = None
    if return_indices:
        js = np.unravel_index(np.where(winner < 0, 0, winner), tuple(a.max_bin for a in geom.axes))
        plane = np.zeros(out_shape, dtype=np.int64)
        for axis, (pos, _) in enumerate(tables):
            o = np.arange(pos.shape[0]).reshape(_axis_shape(geom.ndim, axis, pos.shape[0]))
            plane = plane * geom.axes[axis].input_size + pos[o, js[axis]]
        plane = np.where(has, plane, -1)
        indices = from_plane(plane, x.shape, index_layout)
    return best, indices


def _uniform_bins(a: AdaptiveAxis) -> tuple[int, int] | None:
    """``(K, S)`` when the bins of ``a`` are the windows of a plain pooling (every bin
    ``K`` long, bin ``i`` starting at ``i*S``, as when ``I % O == 0``), else None."""
    starts = [b[0] for b in a.bins]
    lengths = {b[1] - b[0] for b in a.bins}
    step = starts[1] - starts[0] if len(starts) > 1 else 1
    if len(lengths) == 1 and step >= 1 and starts == [i * step for i in range(len(starts))]:
        return lengths.pop(), step
    return None


@functools.lru_cache(maxsize=32)
def _void_type(nbytes: int) -> np.dtype[np.void]:
    """The opaque dtype of ``nbytes`` bytes (remembered: making one costs a microsecond)."""
    return np.dtype((np.void, nbytes))


def _row_starts(shape: tuple[int, int]) -> np.ndarray:
    """The flat index of the first element of every row of a C-contiguous 2-D array."""
    starts = np.arange(0, shape[0] * shape[1], shape[1], dtype=np.intp)
    starts.setflags(write=False)
    return starts


def _bins_as_pool(geom: AdaptiveGeometry
                  ) -> tuple[tuple[tuple[int, int] | None, ...], PoolGeometry | None]:
    """Per axis, the ``(K, S)`` of regular bins (:func:`_uniform_bins`, None where they are
    not); and the geometry of the plain max pool whose windows the bins are, when every
    axis is regular and a bin has at most 16 elements (else None)."""
    regular = tuple(_uniform_bins(a) for a in geom.axes)
    if all(r is not None for r in regular):
        kernel, stride = zip(*cast("tuple[tuple[int, int], ...]", regular), strict=True)
        if math.prod(kernel) <= 16:
            return regular, pool_geometry(geom.input_shape, kernel, stride)
    return regular, None


def _bin_index_tables(geom: AdaptiveGeometry, shape: tuple[int, ...], layout: IndexLayout
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Regular bins (every axis ``(K, S)``, :func:`_uniform_bins`): the index of every
    bin's first element (``(N, C, *O)``, or ``(1, 1, *O)`` where the layout numbers
    per plane), and per position of a bin (row-major) the offset from it; read-only
    (remembered per shape)."""
    ndim = geom.ndim
    wn, wc, w = _index_weights(shape, layout)
    start = np.zeros((1, 1) + (1,) * ndim, dtype=np.int64)
    if wn or wc:
        start = _lead_offsets(wn, wc, range(shape[0]), range(shape[1]), ndim)
    lengths = tuple(a.max_bin for a in geom.axes)
    offset = np.zeros(lengths, dtype=np.int64)
    for axis, (a, wa) in enumerate(zip(geom.axes, w, strict=True)):
        bins = _uniform_bins(a)
        assert bins is not None
        o = np.arange(a.output_size, dtype=np.int64)
        start = start + (o * bins[1] * wa).reshape(_axis_shape(ndim, axis, a.output_size))
        offset = offset + (np.arange(lengths[axis]) * wa).reshape(
            _axis_shape(ndim, axis, lengths[axis])[2:])
    start = np.ascontiguousarray(start)     # (per plane: one (1, 1, *O) table for every plane)
    offset = offset.reshape(-1)
    start.setflags(write=False)
    offset.setflags(write=False)
    return start, offset


def _adaptive_max_fast(x: np.ndarray, geom: AdaptiveGeometry, ties: Ties,
                       return_indices: bool | np.bool_, index_layout: IndexLayout
                       ) -> tuple[np.ndarray, np.ndarray | None] | None:
    """Adaptive max pooling without NaN: small regular bins as a plain max pool, the rest
    gathered one row per bin and reduced with ``argmax``.

    Regular bins (``I % O == 0``, or any bins that are the windows of some
    kernel and stride) with few elements are the windows of a max pool with
    that kernel and stride, no padding: :func:`_max_pool_fast` loops over
    their few taps.  Large bins (few outputs, many taps: 56 -> 5 has 144
    taps for 25 outputs) are copied into one row each, ``(N, C, *O,
    prod(L))`` in row-major bin order, and ``argmax`` returns the first
    maximum of every row at once (``ties='last'``: the first of the reversed
    row).  Irregular bins are gathered with their positions clipped to the
    bin's last element: the duplicates come after the element they repeat in
    scan order, so they change neither the first nor the last maximum's
    position.  Returns None when a bin holds a NaN (``argmax`` takes the first
    NaN, which is not every ``nan_policy``), or when the rows would take more
    than four times the memory of ``x`` (bins that overlap a lot).
    """
    axes = geom.axes
    ndim = geom.ndim
    regular, pgeom = _cached(_bins_as_pool, geom)
    if pgeom is not None:
        tables = _axis_tap_tables(pgeom)
        return _max_pool_fast(x, pgeom, tables, [t[1] for t in tables], "skip", "neg_inf",
                              "minus_one", ties, return_indices, index_layout)
    out_shape = x.shape[:2] + geom.output_shape
    lengths = tuple(a.max_bin for a in axes)
    size = math.prod(lengths)
    if math.prod(out_shape) * size * x.itemsize > max(4 * x.nbytes, 2**20):
        return None                     # heavily overlapping bins: the tap loop needs less memory
    if all(r is not None for r in regular):
        # strided windows: a view (N, C, *O, *K) of x, then one copy
        bins = cast("tuple[tuple[int, int], ...]", regular)     # every axis: (K, S), just checked
        strides = (x.strides[:2] + tuple(st * s for st, (_, s) in zip(x.strides[2:], bins,
                                                                          strict=True))
                   + x.strides[2:])
        # Where a bin row is K_last contiguous elements, it is copied as one opaque item
        # of K_last * itemsize bytes: numpy moves one item per row instead of looping
        # over its elements (twice as fast for 12 float32).  On a C-contiguous x the
        # view is made straight on its memory (a tenth of the cost of ``as_strided``,
        # which goes through ``__array_interface__``: 5 microseconds a call).
        opaque = x.strides[-1] == x.itemsize
        run = _void_type(lengths[-1] * x.itemsize) if opaque else x.dtype
        if opaque and x.flags.c_contiguous:
            view = np.ndarray(out_shape + lengths[:-1], run, x, 0, strides[:-1])
        else:
            view = np.lib.stride_tricks.as_strided(x, out_shape + lengths, strides,
                                                   writeable=False).view(run)
        rows = np.ascontiguousarray(view).view(x.dtype).reshape(-1, size)
    else:                                             # one fancy-indexing gather
        positions = []                                # (O, L) per axis, clipped to the bin
        for a in axes:
            start = np.array([b[0] for b in a.bins])[:, None]
            stop = np.array([b[1] for b in a.bins])[:, None]
            positions.append(np.minimum(start + np.arange(a.max_bin)[None, :], stop - 1))
        index = [slice(None), slice(None)]
        for axis, pos in enumerate(positions):
            shape = [1] * (2 * ndim)
            shape[axis], shape[ndim + axis] = pos.shape
            index.append(pos.reshape(shape))
        rows = x[tuple(index)].reshape(-1, size)
    if ties == "first":
        k = rows.argmax(axis=1)
    else:
        k = size - 1 - rows[:, ::-1].argmax(axis=1)
    # the element itself: one take on the flat rows (k + the start of each row)
    starts = _remembered_if(rows.shape[0] <= 1 << 16, _row_starts, rows.shape)
    best = rows.reshape(-1).take(k + starts).reshape(out_shape)
    if x.dtype.kind == "f" and _holds_nan(best):
        return None
    if not return_indices:
        return best, None
    k = k.reshape(out_shape)
    if all(r is not None for r in regular):
        # position = o*S + j on every axis: the start of the bin + the offset of the tap
        start, offset = _remembered_if(math.prod(out_shape) <= 1 << 16,   # (512 KiB at most)
                                       _bin_index_tables, geom, x.shape, index_layout)
        indices = np.take(offset, k)
        np.add(indices, start, out=indices)
        return best, indices
    wn, wc, w = _index_weights(x.shape, index_layout)
    indices = _lead_offsets(wn, wc, range(x.shape[0]), range(x.shape[1]), ndim)
    js = np.unravel_index(k, lengths)
    for axis, (pos, j, wa) in enumerate(zip(positions, js, w, strict=True)):
        o_axis = np.arange(pos.shape[0]).reshape(_axis_shape(ndim, axis, pos.shape[0]))
        indices = indices + pos[o_axis, j] * wa
    return best, indices


def adaptive_max_pool(x: ArrayLike, output_size: int | Sequence[int], *,
                      nan_policy: NanPolicy = "propagate_last", ties: Ties = "first",
                      return_indices: bool = False, index_layout: IndexLayout = "plane"
                      ) -> PoolResult:
    """Adaptive max pooling: output cell ``i`` reads the bin ``[floor(i*I/O), ceil((i+1)*I/O))``.

    Bins overlap when ``I % O != 0``; indices are plane positions by default
    (PyTorch, OpenVINO AdaptiveMaxPool-8).

    >>> x = np.array([[[3.0, 1, 4, 1, 5]]])                 # TV24: 5 -> 3
    >>> r = adaptive_max_pool(x, 3, return_indices=True)
    >>> r.output.tolist(), r.indices.tolist()
    ([[[3.0, 4.0, 5.0]]], [[[0, 2, 4]]])
    """
    x, geom = _adaptive_check(x, output_size)
    check_choice("nan_policy", nan_policy, NAN_POLICIES)
    check_choice("ties", ties, TIES)
    check_choice("index_layout", index_layout, INDEX_LAYOUTS)
    if not isinstance(return_indices, (bool, np.bool_)):
        raise PoolTutorTypeError(f"return_indices={return_indices!r}: need True or False")
    fast = _adaptive_max_fast(x, geom, ties, return_indices, index_layout)
    if fast is None:                    # a NaN in a bin, or bins that overlap a lot
        fast = _adaptive_max_general(x, geom, nan_policy, ties, return_indices, index_layout)
    best, indices = fast
    rules = dict(nan_policy=nan_policy, ties=ties)
    return PoolResult(best, indices, geom, "adaptive_max", rules, x, index_layout)


def adaptive_avg_pool(x: ArrayLike, output_size: int | Sequence[int]) -> PoolResult:
    """Adaptive average pooling over the bins of :func:`adaptive_max_pool`.

    >>> adaptive_avg_pool(np.array([[[3.0, 1, 4, 1, 5]]]), 3).output.tolist()   # TV24
    [[[2.0, 2.0, 3.0]]]
    """
    x, geom = _adaptive_check(x, output_size)
    tables = _adaptive_tables(geom)
    out_shape = x.shape[:2] + geom.output_shape
    xf = x.astype(np.float64, copy=False)
    total = np.zeros(out_shape, dtype=np.float64)
    with np.errstate(invalid="ignore"):           # inf + -inf: NaN, the right average
        for _, values, mask in _adaptive_taps(xf, geom, tables):
            total += values if mask is None else np.where(mask, values, 0.0)
    count = np.ones((1, 1) + (1,) * geom.ndim, dtype=np.int64)
    for axis, a in enumerate(geom.axes):
        sizes = np.array([b - s for s, b in a.bins])
        count = count * sizes.reshape(_axis_shape(geom.ndim, axis, sizes.size))
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    return PoolResult((total / count).astype(out_dtype, copy=False), None, geom, "adaptive_avg",
                      {}, x)
