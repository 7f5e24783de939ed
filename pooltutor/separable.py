"""Separable window passes: the sum or the maximum of every box-shaped window, one axis at a time.

A pooling window is a box: the product of one range of taps per spatial
axis.  Its maximum, and its sum, can therefore be taken one axis at a time:
first over the taps of the leading axis, for every position of the other
axes, then over the taps of the next axis *of that intermediate*, which has
already shrunk to the output length on the first axis.  A 3x3 window costs
2 + 2 whole-array ufunc calls instead of 8, a 3x3x3 window 2 + 2 + 2
instead of 26.  :func:`pooltutor.pooling.max_pool` (values only) and
:func:`pooltutor.pooling.avg_pool` use it; :mod:`pooltutor.reference` reduces
every window in one scan instead, and the tests compare the two.

How the passes are laid out (:class:`BoxPlan`, worked out once per geometry):

* **The first pass reads the input itself**, along the leading spatial axis,
  whose taps are whole contiguous rows (planes in 3-D).  Where a tap falls in
  the padding it is simply not read: each tap covers the range of outputs
  whose window holds it as an input element, and the taps that cover every
  output are taken first, in whole-axis ufunc calls, the others combined into
  their ranges.  No padded copy of the input is made.
* **Every later pass reads a padded intermediate.**  The first pass writes its
  result into a work array that carries the padding of every later axis,
  filled once with the identity of the reduction (``0`` for sums, ``-inf`` or
  the lowest integer for maxima) when the array is made; the passes never
  write there, so it stays filled from call to call.  Every tap of a later
  pass then covers every output: one ufunc call per tap, no border cases, and
  the padding taps add ``0`` or compare ``-inf``, which changes nothing.
* **Long windows are cut into blocks of the stride.**  With ``K = q*S + r``
  (no dilation) a window is ``q`` whole blocks of ``S`` consecutive elements
  plus ``r`` more: first the block sums ``B[m]`` over ``[m*S, m*S + S)``, then
  the window as ``B[o] + ... + B[o+q-1]`` plus the ``r`` leftover taps.  A 7x7
  window with stride 2 costs 4 ufunc calls per axis instead of 6, an 11x11
  one 6 instead of 10, so the cost grows with ``K / S`` rather than with ``K``
  (running sums, whose cost would not grow at all, need a sequential
  ``np.add.accumulate``: about twelve plain additions' worth here, and a row
  loop in Python for the leading axes; benchmarks/README.md has the numbers).
* **Short rows: the first pass at full resolution.**  In 2-D the input pass
  reads every ``S``-th row; numpy cannot merge rows that far apart into one
  loop, so on small planes (14 x 14) it runs one 14-element loop per row and a
  pass costs several times what its elements do.  Where no padding is read
  and rows are short, the first pass instead reduces *every* row with the
  rows below it, over the whole block as one flat array (``K - 1`` calls of
  one long loop each: ``S`` times the elements, a fraction of the time), and
  the next pass reads every ``S``-th row of that.  A block that is not one
  contiguous array takes the ordinary plan (``BoxPlan.fallback``), and so do
  sums: cast to float64 or int64, the flat pass would write ``S`` times as many
  wide elements (measured 1.2-1.7x slower, against 0.75-0.98x for maxima).
* **The last pass over the flat rows.**  Along the last axis the taps of a
  row are every ``S``-th element, and numpy runs one short loop per row (a
  block of 16 planes of 112 x 112: 896 loops of 56 per call).  Where the rows of
  the intermediate hold exactly ``S * O`` columns (the input's own columns,
  no padding: 112 for 56 outputs of stride 2), output ``i`` of the flat
  result reads element ``i*S + offset`` of the flat intermediate, so a tap is
  one long loop over the whole block.  A tap that does not cover every output
  (it reads the padding at a row's start or end) then reads a neighbouring
  row's element there instead: those outputs, a few per row, are saved before
  the call and put back after it.  Long windows read blocks of the stride
  aligned to column 0 (one flat array of the result's shape) and the columns
  left over at either end.  The previous pass writes whole unpadded rows, so
  its calls are long loops too.  On blocks of at least
  :data:`ROW_MIN_OUTPUTS` outputs (the extra Python per call costs more on
  small ones) the last pass of a 3x3 stride-2 window took 0.6x the time, the
  whole block 0.7x; a result block that is not one contiguous array takes the
  ordinary pass (``BoxPlan.fallback``).
* **Blocks of planes, over threads.**  The passes run over blocks of whole
  ``(n, c)`` planes of 1-2 MiB of intermediate data (one block per thread
  where that fits, :func:`block_budget`), shared out over
  :mod:`pooltutor.threads`; a block is whole planes, so the numbers never
  depend on the thread count.  The work arrays are kept between
  calls (:func:`scratch`), so that a call pays no page faults for them.

The maximum over a box is the same number whichever order its taps are
compared in (it is one of them; the caller handles NaN and the sign of a
zero tie).  A sum of integers is the same number too (exact int64); a float
sum may differ from the reference's row-major order in its last bits, which
:func:`pooltutor.pooling._avg_pool_fast` proves harmless or repairs.  Every
output passes through at most ``sum(K_a - 1)`` additions that can round (the
blocks never need more; additions of the padding's ``0`` are exact).
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Union, cast

import numpy as np
from numpy.typing import DTypeLike

from .threads import MIN_PARALLEL_BYTES, num_threads, run_parts

__all__ = ["AxisTaps", "BoxPlan", "box_plan", "reduce_block", "reduce_boxes", "plane_blocks",
           "scratch"]

#: ``(kernel, stride, dilation, pad_begin, input_size, output_size)`` of one spatial axis.
AxisTaps = tuple[int, int, int, int, int, int]
_Index = tuple[Union[slice, int], ...]

#: Buffer ids of the actions: the input block, the result, and intermediates 0, 1, ...
_X = -2
_RESULT = -1


@dataclass(frozen=True)
class _Action:
    """One ufunc call: ``target[t] = source[a] (op) source[b]`` (``"pair"``),
    ``target[t] = source[a]`` (``"copy"``), ``target[t] (op)= source[a]`` (``"into"``)
    or ``target[t] = identity`` (``"fill"``); ``"flat_pair"`` and ``"flat_into"`` do the
    same on the flat block, ``a`` and ``b`` one offset each, ``t`` the elements left
    out at its end."""

    kind: str
    target: int
    t: _Index
    source: int = _X
    a: _Index = ()
    b: _Index = ()


@dataclass(frozen=True)
class BoxPlan:
    """The ufunc calls that reduce every window of a geometry, one axis at a time.

    ``buffers`` are the spatial shapes of the intermediates; ``prefill`` says
    which of them the input pass writes only in part (their padding is filled
    with the identity once, when the work array is made); ``empty`` is True
    when no window reads any input element (every output is the identity).
    """

    axes: tuple[AxisTaps, ...]
    output_shape: tuple[int, ...]
    buffers: tuple[tuple[int, ...], ...]
    prefill: tuple[bool, ...]
    actions: tuple[_Action, ...]
    empty: bool
    #: the largest intermediate, in elements per plane (for block sizes)
    plane_elements: int
    #: the plan without the flat passes below, for a block they cannot run on
    fallback: BoxPlan | None = None
    #: the first pass runs over the flat input block ("flat" actions): it needs a
    #: C-contiguous block in the reduction's dtype
    flat_input: bool = False
    #: the last pass runs over the flat rows ("row" actions): it needs a C-contiguous
    #: result block
    flat_result: bool = False

    def runs_on(self, xb: np.ndarray, result: np.ndarray, dtype: np.dtype[Any]) -> bool:
        """Whether this plan's flat passes can run on input block ``xb`` and ``result``."""
        return ((not self.flat_input or (xb.flags.c_contiguous and xb.dtype == dtype))
                and (not self.flat_result
                     or (result.flags.c_contiguous and result.size >= ROW_MIN_OUTPUTS)))


def _tap_ranges(k: int, s: int, d: int, base: int, size: int, outputs: int
                ) -> list[tuple[int, int, int]]:
    """Per tap ``j``: ``(o0, o1, offset)``, the outputs ``o0 <= o < o1`` whose tap reads
    ``o*s + offset`` (``offset = j*d + base``) inside ``[0, size)``."""
    return [(*_reads_inside(j * d + base, s, size, outputs), j * d + base) for j in range(k)]


def _reads_inside(off: int, stride: int, size: int, outputs: int) -> tuple[int, int]:
    """``(lo, hi)``, ``lo <= hi``: the outputs ``lo <= o < hi`` (of ``outputs``) whose
    element ``o*stride + off`` lies inside ``[0, size)``."""
    lo = max(0, -(off // stride))                       # ceil(-off / stride)
    return lo, max(lo, min(outputs, (size - 1 - off) // stride + 1))


def _use_blocks(k: int, s: int, d: int, outputs: int) -> bool:
    """Whether blocks of the stride (see the module docstring) touch fewer elements
    than the taps one by one."""
    if d != 1 or k < 2 * s:
        return False
    q, r = divmod(k, s)
    taps_cost = (k - 1) * outputs
    blocks_cost = (s - 1) * (outputs + q - 1) + (q - 1) * outputs + r * outputs
    return blocks_cost < taps_cost


class _Planner:
    """Builds the actions of a :class:`BoxPlan` (see :func:`box_plan`)."""

    def __init__(self, axes: tuple[AxisTaps, ...]) -> None:
        self.axes = axes
        self.ndim = len(axes)
        # frame length per axis: every position a tap reads, padding included, and the
        # whole input even where no window reaches its end (floor mode): the input pass
        # then reads whole rows of x, which numpy runs as one loop where nothing is padded
        self.frame = [max((o - 1) * s + (k - 1) * d + 1, pb + size)
                      for k, s, d, pb, size, o in axes]
        # the part of the frame that holds input: [lo, hi)
        self.data = [(pb, pb + size) for _, _, _, pb, size, _ in axes]
        self.buffers: list[tuple[int, ...]] = []
        self.prefill: list[bool] = []
        self.actions: list[_Action] = []

    def new_buffer(self, shape: tuple[int, ...], prefill: bool) -> int:
        self.buffers.append(shape)
        self.prefill.append(prefill)
        return len(self.buffers) - 1

    def index(self, axis: int, along: slice, rest: Sequence[slice]) -> _Index:
        """``(:, :, ...)`` with ``along`` on spatial ``axis`` and ``rest`` on the others."""
        spatial = list(rest)
        spatial[axis] = along
        return (slice(None), slice(None), *spatial)

    def reduce_axis(self, axis: int, source: int, target: int, ranged: bool,
                    rest_source: Sequence[slice], rest_target: Sequence[slice]) -> None:
        """The actions that reduce ``axis`` of ``source`` into ``target``.

        ``ranged``: the source is the input (taps at ``o*S + j*D - pb``, read only
        inside ``[0, I)``); otherwise a padded intermediate (taps at ``o*S + j*D``,
        every one inside).  ``rest_*`` slice the other spatial axes.
        """
        k, s, d, pb, size, outputs = self.axes[axis]
        base, length = (-pb, size) if ranged else (0, self.frame[axis])
        if _use_blocks(k, s, d, outputs):
            q, r = divmod(k, s)
            nb = outputs + q - 1
            shape = list(self.target_shape(target, axis))
            shape[axis] = nb
            blocks = self.new_buffer(tuple(shape), prefill=ranged)
            self.taps(axis, source, blocks, _tap_ranges(s, s, 1, base, length, nb), s,
                      rest_source, rest_target)
            # (the blocks lie on the other axes as the target does)
            self.taps(axis, blocks, target, _tap_ranges(q, 1, 1, 0, nb, outputs), 1,
                      rest_target, rest_target)
            if r:
                self.taps(axis, source, target,
                          _tap_ranges(r, s, 1, base + q * s, length, outputs), s,
                          rest_source, rest_target, into=True)
            return
        self.taps(axis, source, target, _tap_ranges(k, s, d, base, length, outputs), s,
                  rest_source, rest_target)

    def row_pass(self, source: int, width: int, blocks: bool) -> None:
        """The last pass over the flat rows of ``source`` (``width = S * O`` columns, no
        padding) into the result (see the module docstring and :func:`_row_taps`)."""
        outputs = self.output_shape
        block_id = None
        if blocks:
            block_id = self.new_buffer(outputs, prefill=False)
            s = self.axes[-1][1]
            self.row_actions(block_id, [(source, t, s, 0, outputs[-1]) for t in range(s)])
        taps = _row_taps(self.axes[-1], width, source, block_id)
        assert taps is not None
        self.row_actions(_RESULT, taps)

    def row_actions(self, target: int, taps: Sequence[_RowTap]) -> None:
        """``target`` = (op) over ``taps``: two taps that cover every output first (or one
        and a partial one, whose outputs outside its range then take the first's value),
        the others into their ranges."""
        outputs = self.output_shape[-1]
        full = [t for t in taps if (t[3], t[4]) == (0, outputs)]
        rest = full[1:] + [t for t in taps if (t[3], t[4]) != (0, outputs)]
        act = self.actions.append
        if rest:
            act(_Action("row_pair", target, (), _X, full[0], rest[0]))
        else:
            act(_Action("row_copy", target, (), _X, full[0]))
        for tap in rest[1:]:
            act(_Action("row_into", target, (), _X, tap))

    def target_shape(self, target: int, axis: int) -> tuple[int, ...]:
        return self.output_shape if target == _RESULT else self.buffers[target]

    @property
    def output_shape(self) -> tuple[int, ...]:
        return tuple(a[5] for a in self.axes)

    def taps(self, axis: int, source: int, target: int, ranges: list[tuple[int, int, int]],
             stride: int, rest_source: Sequence[slice], rest_target: Sequence[slice],
             into: bool = False) -> None:
        """``target[o] = (op) over taps of source[o*stride + offset]``: the taps that cover
        every output first, in whole-axis calls, then the others into their ranges."""
        outputs = self.target_shape(target, axis)[axis]

        def src(o0: int, o1: int, off: int) -> _Index:
            return self.index(axis, slice(o0 * stride + off, (o1 - 1) * stride + off + 1,
                                          stride), rest_source)

        def tgt(o0: int, o1: int) -> _Index:
            return self.index(axis, slice(o0, o1), rest_target)

        ranges = [r for r in ranges if r[1] > r[0]]
        full = [off for o0, o1, off in ranges if o0 == 0 and o1 == outputs]
        act = self.actions.append
        if into:
            for o0, o1, off in ranges:
                act(_Action("into", target, tgt(o0, o1), source, src(o0, o1, off)))
            return
        if full:
            # tap-major: the taps that every output reads make the whole axis in one
            # call each (numpy runs one long loop over a block's rows), then the
            # other taps are combined into their ranges
            part = [r for r in ranges if not (r[0] == 0 and r[1] == outputs)]
            runs = [(0, outputs, full)]
        else:
            # no tap reaches every output (the blocks of a long window, a window
            # larger than the input): the outputs in runs that read the same taps
            part = []
            cuts = sorted({0, outputs} | {v for o0, o1, _ in ranges for v in (o0, o1)})
            runs = [(o0, o1, [off for lo, hi, off in ranges if lo <= o0 and o1 <= hi])
                    for o0, o1 in zip(cuts[:-1], cuts[1:], strict=True)]
        for o0, o1, offs in runs:
            if not offs:                # a window without any input element
                act(_Action("fill", target, tgt(o0, o1)))
            elif len(offs) == 1:
                act(_Action("copy", target, tgt(o0, o1), source, src(o0, o1, offs[0])))
            else:
                act(_Action("pair", target, tgt(o0, o1), source, src(o0, o1, offs[0]),
                            src(o0, o1, offs[1])))
            part += [(o0, o1, off) for off in offs[2:]]
        for o0, o1, off in part:
            act(_Action("into", target, tgt(o0, o1), source, src(o0, o1, off)))


#: ``(buffer, offset, stride, o0, o1)``: a tap of the flat last pass reads
#: ``buffer[..., o*stride + offset]`` for the outputs ``o0 <= o < o1`` of every row
_RowTap = tuple[int, int, int, int, int]

#: the flat last pass runs on blocks of at least this many outputs: its calls cost a few
#: microseconds more in Python (measured: 3x3 and 7x7 stride 2 break even at 6000-8000
#: outputs per block, 1.4-1.6x faster at 12500 on 112x112 planes)
ROW_MIN_OUTPUTS = 8192

#: a tap of the flat last pass may leave out at most this many outputs of each row
#: (they are saved and put back around its flat call)
ROW_OUTSIDE = 4


def _row_taps(axis: AxisTaps, width: int, source: int, block_id: int | None
              ) -> list[_RowTap] | None:
    """The taps of the flat last pass over ``source`` (rows of ``width`` columns, the
    input's columns from 0); with ``block_id``, the whole blocks of the stride
    (``[m*S, m*S + S)``, aligned to column 0) are read from that buffer and only the
    columns left over at either end from ``source``.  None where the pass does not
    apply: no tap covers every output, or a tap leaves out too many."""
    k, s, d, pb, size, outputs = axis
    size = min(size, width)

    def tap(buffer: int, off: int, stride: int, limit: int) -> _RowTap:
        return (buffer, off, stride, *_reads_inside(off, stride, limit, outputs))

    if block_id is None:
        taps = [tap(source, j * d - pb, s, size) for j in range(k)]
    else:
        start, end = -pb, k - pb                        # the window, from column o*S
        first = -(-start // s) * s                      # the first block boundary in it
        last = first + (end - first) // s * s if end > first else first
        taps = ([tap(source, off, s, size) for off in range(start, min(first, end))]
                + [tap(block_id, b // s, 1, outputs) for b in range(first, last, s)]
                + [tap(source, off, s, size) for off in range(max(last, start), end)])
    taps = [t for t in taps if t[4] > t[3]]
    if not any(t[3] == 0 and t[4] == outputs for t in taps) \
            or any(outputs - (t[4] - t[3]) > ROW_OUTSIDE for t in taps):
        return None
    return taps


def _row_layout(axis: AxisTaps) -> tuple[int, bool] | None:
    """``(width, blocks)`` for the flat last pass along ``axis``, or None where it does
    not apply: the columns the windows read must lie in the first ``S * O`` (so that
    output ``i`` of the flat rows reads column ``i*S + offset`` of the flat source)."""
    k, s, d, pb, size, outputs = axis
    width = s * outputs
    for o0, o1, off in _tap_ranges(k, s, d, -pb, size, outputs):
        if o1 > o0 and (o1 - 1) * s + off >= width:
            return None
    taps = _row_taps(axis, width, 0, None)
    blocks = _row_taps(axis, width, 0, 1) if d == 1 and k >= 2 * s else None
    if blocks is not None and taps is not None and s - 1 + len(blocks) >= len(taps):
        blocks = None                   # (no fewer calls than the taps one by one)
    if blocks is not None:
        return width, True
    return None if taps is None else (width, False)


@functools.lru_cache(maxsize=128)
def box_plan(axes: tuple[AxisTaps, ...], full_rows: bool = False) -> BoxPlan:
    """The passes for windows ``axes`` (one :data:`AxisTaps` per spatial axis), remembered;
    with ``full_rows``, a first pass over the flat block where rows are short (see the
    module docstring: for a reduction in the input's own dtype).

    >>> plan = box_plan(((3, 2, 1, 1, 112, 56), (3, 2, 1, 1, 112, 56)))   # 3x3 s2 p1
    >>> plan.buffers                     # rows reduced; the columns unpadded, 2 * 56
    ((56, 112),)
    >>> [a.kind for a in plan.actions]   # 2 + 2 calls: a pair and a range per axis
    ['pair', 'into', 'row_pair', 'row_into']
    >>> plan.fallback.buffers            # the ordinary last pass: columns padded by 1
    ((56, 113),)
    """
    if not full_rows:
        return _box_plan_taps(axes)
    regular = box_plan(axes)            # (the same remembered object as its fallback)
    return _full_rows_plan(axes, regular) or regular


#: rows of at most this many elements get a full-resolution first pass (module docstring)
SHORT_ROW = 32


def _full_rows_plan(axes: tuple[AxisTaps, ...], regular: BoxPlan) -> BoxPlan | None:
    """The plan whose first pass runs over the flat block (see the module docstring), or
    None where it does not apply: 2-D, no padding read, a row stride above 1, short rows."""
    if len(axes) != 2 or regular.empty:
        return None
    (k0, s0, d0, pb0, h, o0), (k1, s1, d1, pb1, w, o1) = axes
    if s0 < 2 or k0 < 2 or pb0 or pb1 or w > SHORT_ROW or _use_blocks(k0, s0, d0, o0) \
            or (o0 - 1) * s0 + (k0 - 1) * d0 >= h or (o1 - 1) * s1 + (k1 - 1) * d1 >= w:
        return None
    p = _Planner(axes)
    rows = p.new_buffer((h, w), prefill=False)
    # row r of the buffer: the rows r, r + D, ..., r + (K-1)*D reduced (rows past the
    # plane's end mix planes: the next pass never reads them); t holds how many
    # elements at the end of the flat block have no row K-1 below them
    tail = ((k0 - 1) * d0 * w,)
    p.actions.append(_Action("flat_pair", rows, tail, _X, (0,), (d0 * w,)))
    for j in range(2, k0):
        p.actions.append(_Action("flat_into", rows, tail, _X, (j * d0 * w,)))
    every_s = [slice(0, (o0 - 1) * s0 + 1, s0), slice(None)]
    p.reduce_axis(1, rows, _RESULT, False, every_s, [slice(None), slice(None)])
    per_plane = max([math.prod(b) for b in p.buffers] + [math.prod(p.output_shape)])
    return BoxPlan(axes, p.output_shape, tuple(p.buffers), tuple(p.prefill), tuple(p.actions),
                   False, per_plane, regular, flat_input=True)


def _box_plan_taps(axes: tuple[AxisTaps, ...], flat_last: bool = True) -> BoxPlan:
    """The ordinary plan: the first pass over the input's rows, tap by tap; with
    ``flat_last``, the last pass over the flat rows where it applies (its fallback:
    the plan without)."""
    p = _Planner(axes)
    ndim = p.ndim
    empty = any(hi <= lo for lo, hi in p.data)
    rows = _row_layout(axes[-1]) if flat_last and ndim >= 2 and not empty else None
    shift = [a[3] for a in axes]        # where the input starts in each axis' frame
    if rows is not None:
        # the last axis' frame: the input's columns, unpadded, S * O of them
        width, _ = rows
        p.frame[-1] = width
        p.data[-1] = (0, min(axes[-1][4], width))
        shift[-1] = 0
    if not empty:
        source, ranged = _X, True
        # the input pass reads the input part of every later axis, and writes it into
        # the same part of the padded frame
        rest_source = [slice(None)] + [slice(lo - sh, hi - sh)
                                       for (lo, hi), sh in zip(p.data[1:], shift[1:], strict=True)]
        rest_target = [slice(None)] + [slice(lo, hi) for lo, hi in p.data[1:]]
        for axis in range(ndim):
            last = axis == ndim - 1
            if last and rows is not None:
                p.row_pass(source, *rows)
                break
            if last:
                target = _RESULT
            else:
                shape = tuple(a[5] for a in axes[:axis + 1]) + tuple(p.frame[axis + 1:])
                target = p.new_buffer(shape, prefill=ranged)
            p.reduce_axis(axis, source, target, ranged, rest_source,
                          rest_target if ranged else [slice(None)] * ndim)
            source, ranged = target, False
            rest_source = [slice(None)] * ndim
    per_plane = max([math.prod(b) for b in p.buffers] + [math.prod(p.output_shape)])
    if rows is None:
        return BoxPlan(axes, p.output_shape, tuple(p.buffers), tuple(p.prefill),
                       tuple(p.actions), empty, per_plane)
    return BoxPlan(axes, p.output_shape, tuple(p.buffers), tuple(p.prefill), tuple(p.actions),
                   empty, per_plane, fallback=_box_plan_taps(axes, False), flat_result=True)


_SCRATCH = threading.local()
_SCRATCH_BYTES = 16 << 20


def scratch(shape: Sequence[int], dtype: DTypeLike, role: Hashable, fill: Any = None
            ) -> np.ndarray:
    """A work array for ``role`` (an intermediate, never a result), kept between calls
    of the same shapes in this thread; ``fill``: the value it is filled with when it is
    made (a role whose array is filled must never write where the fill matters).

    A fresh ``np.empty`` of about 1 MiB is served by new pages whenever the
    allocator has handed the last ones back to the system, and every call then
    pays for the page faults: 530 per 3x3 average pooling of (1,64,112,112)
    and 1400 for 7x7 on the reference machine (about as long as the passes
    themselves).  Arrays up to 4 MiB are kept, 16 MiB at most per thread (the
    oldest dropped first); callers use them only until their next call.
    """
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes > 4 << 20:
        array = np.empty(shape, dtype=dtype)
        if fill is not None:
            array.fill(fill)
        return array
    store = getattr(_SCRATCH, "arrays", None)
    if store is None:
        store = _SCRATCH.arrays = {}
    # (the fill's bytes: -0.0 is not 0.0 here, and a NaN fill finds its own array)
    key = (role, shape, dtype.str, None if fill is None else dtype.type(fill).tobytes())
    found: np.ndarray | None = store.pop(key, None)
    if found is None:
        found = np.empty(shape, dtype=dtype)
        if fill is not None:
            found.fill(fill)
        while store and sum(a.nbytes for a in store.values()) + nbytes > _SCRATCH_BYTES:
            store.pop(next(iter(store)))
    store[key] = found                  # (re-inserted: the most recently used last)
    return found


def plane_blocks(shape: tuple[int, ...], bytes_per_plane: int, budget: int = 1 << 20
                 ) -> list[tuple[slice, slice]]:
    """``(n, c)`` blocks of whole planes of about ``budget`` bytes of intermediate data
    each, so that a block's passes run in the cache (one pass over a 3 MB array
    otherwise streams it from memory, and the passes are bound by memory)."""
    per_block = max(1, budget // max(1, bytes_per_plane))
    n, c = shape[:2]
    if per_block >= c:                      # whole images at a time
        step = max(1, per_block // c)
        return [(slice(i, min(i + step, n)), slice(None)) for i in range(0, n, step)]
    per_block = -(-c // -(-c // per_block))     # equal blocks: 64 planes in 4 of 16, not 20+20+20+4
    return [(slice(i, i + 1), slice(c0, min(c0 + per_block, c)))
            for i in range(n) for c0 in range(0, c, per_block)]


def reduce_block(xb: np.ndarray, plan: BoxPlan, ufunc: np.ufunc, dtype: np.dtype[Any],
                 identity: Any, result: np.ndarray) -> np.ndarray:
    """``ufunc`` over every window of ``plan`` for one block of planes ``xb``, into
    ``result`` (``xb.shape[:2] + plan.output_shape``; returned).  The work arrays are
    this thread's (:func:`scratch`)."""
    fill = dtype.type(identity)
    if plan.empty:
        result.fill(fill)
        return result
    while not plan.runs_on(xb, result, dtype):
        assert plan.fallback is not None
        plan = plan.fallback
    lead = xb.shape[:2]
    key = ("box", plan.axes, plan.flat_input, plan.flat_result, dtype.str)
    buffers = [scratch(lead + shape, dtype, key + (i,), fill if pre else None)
               for i, (shape, pre) in enumerate(zip(plan.buffers, plan.prefill, strict=True))]

    def get(b: int) -> np.ndarray:
        return xb if b == _X else result if b == _RESULT else buffers[b]

    for act in plan.actions:
        if act.kind.startswith("row"):
            _row_action(act, get, ufunc, dtype)
            continue
        if act.kind.startswith("flat"):
            # (the flat block and the flat buffer, both C-contiguous)
            length = xb.size - cast(int, act.t[0])
            xf = xb.reshape(-1)
            target = get(act.target).reshape(-1)[:length]
            a = cast(int, act.a[0])
            if act.kind == "flat_pair":
                b = cast(int, act.b[0])
                ufunc(xf[a:a + length], xf[b:b + length], out=target, dtype=dtype)
            else:
                ufunc(target, xf[a:a + length], out=target, dtype=dtype)
            continue
        target = get(act.target)[act.t]
        if act.kind == "pair":
            source = get(act.source)
            ufunc(source[act.a], source[act.b], out=target, dtype=dtype)
        elif act.kind == "into":
            ufunc(target, get(act.source)[act.a], out=target, dtype=dtype)
        elif act.kind == "copy":
            np.copyto(target, get(act.source)[act.a], casting="unsafe")
        else:
            target.fill(fill)
    return result


def _row_view(array: np.ndarray, tap: _RowTap, n: int) -> tuple[int, int, np.ndarray]:
    """``(lo, hi, view)``: the flat outputs ``lo <= i < hi`` whose element
    ``i*stride + offset`` lies inside the flat (C-contiguous) ``array``, and those
    elements."""
    _, off, stride = tap[:3]
    flat = array.reshape(-1)
    lo, hi = _reads_inside(off, stride, flat.size, n)
    return lo, hi, flat[lo * stride + off:(hi - 1) * stride + off + 1:stride]


def _row_action(act: _Action, get: Callable[[int], np.ndarray], ufunc: np.ufunc,
                dtype: np.dtype[Any]) -> None:
    """One call of the flat last pass: one long loop over every row of the block.  Output
    ``i`` of the flat target reads element ``i*S + offset`` of the flat source; for an
    output outside a tap's range ``[o0, o1)`` that is an element of a neighbouring row,
    so those outputs (a few per row) are saved before the call and put back after it,
    or, in a pair, given the first tap's value."""
    target = get(act.target)
    tf = target.reshape(-1)
    n = tf.size
    a = cast(_RowTap, act.a)
    lo_a, hi_a, va = _row_view(get(a[0]), a, n)
    if act.kind == "row_copy":
        np.copyto(tf, va, casting="unsafe")
        return
    # (an output outside the range adds or compares a neighbouring row's element: an
    # inf there meeting a -inf says "invalid", for an output that is overwritten; its
    # warning is not the caller's to see)
    width = target.shape[-1]

    def quiet(tap: _RowTap) -> contextlib.AbstractContextManager[Any]:
        wraps = dtype.kind == "f" and (tap[3] > 0 or tap[4] < width)
        return np.errstate(invalid="ignore", over="ignore") if wraps \
            else contextlib.nullcontext()

    if act.kind == "row_pair":
        b = cast(_RowTap, act.b)
        lo, hi, vb = _row_view(get(b[0]), b, n)
        with quiet(b):
            ufunc(va[lo:hi], vb, out=tf[lo:hi], dtype=dtype)
        o0, o1 = b[3], b[4]
        src, off, s = a[:3]
        for c0, c1 in ((0, o0), (o1, width)):
            if c1 > c0:                 # outside b's range: the first tap alone
                np.copyto(target[..., c0:c1],
                          get(src)[..., c0 * s + off:(c1 - 1) * s + off + 1:s], casting="unsafe")
        return
    o0, o1 = a[3], a[4]
    keep = [(c0, c1, target[..., c0:c1].copy())
            for c0, c1 in ((0, o0), (o1, width)) if c1 > c0]
    with quiet(a):
        ufunc(tf[lo_a:hi_a], va, out=tf[lo_a:hi_a], dtype=dtype)
    for c0, c1, saved in keep:
        target[..., c0:c1] = saved


def reduce_boxes(x: np.ndarray, plan: BoxPlan, ufunc: np.ufunc, dtype: DTypeLike,
                 identity: Any,
                 finish: Callable[[tuple[slice, slice], np.ndarray], None] | None = None
                 ) -> np.ndarray | None:
    """``ufunc`` (``np.add`` or ``np.maximum``) over every window of ``plan``, computed in
    ``dtype``; ``identity`` is what a window without input element gives (and what the
    padding of the work arrays holds).

    Returns the ``(N, C, *output_shape)`` result; or, with ``finish``, hands each
    block's result to ``finish(index, block)`` while it is still in the cache, on
    the thread that reduced it, and returns None (the block array is a work
    array: ``finish`` must not keep it).
    """
    dtype = np.dtype(dtype)
    out = None if finish else np.empty(x.shape[:2] + plan.output_shape, dtype=dtype)
    plane_bytes = dtype.itemsize * plan.plane_elements
    key = ("box", plan.axes, dtype.str, "result")

    def one_block(index: tuple[slice, slice]) -> None:
        xb = x[index]
        if out is not None:
            reduce_block(xb, plan, ufunc, dtype, identity, out[index])
            return
        assert finish is not None
        result = scratch(xb.shape[:2] + plan.output_shape, dtype, key)
        finish(index, reduce_block(xb, plan, ufunc, dtype, identity, result))

    # the blocks split over threads (whole planes each: the same numbers, see pooltutor.threads)
    total = plane_bytes * math.prod(x.shape[:2])
    run_parts(one_block, plane_blocks(x.shape, plane_bytes, block_budget(total)), total)
    return out


#: the bytes of intermediate data of a block of planes: at least BLOCK_MIN, at most
#: BLOCK_MAX, one block per thread in between
BLOCK_MIN, BLOCK_MAX = 1 << 20, 2 << 20


def block_budget(total: int) -> int:
    """The budget of :func:`plane_blocks` for a reduction of ``total`` bytes of
    intermediate data: a block per thread where that is at most :data:`BLOCK_MAX`.
    Each block costs tens of numpy calls, and fewer, larger blocks came out faster
    than the cache-sized 1 MiB (interleaved, (1,64,112,112) average 3x3 / 7x7
    stride 2: two blocks of 32 planes 0.83x / 0.89x the time of four of 16 on two
    threads, 0.91x on one; one block of 64 on two threads 1.3x: no parallelism)."""
    return min(BLOCK_MAX, max(BLOCK_MIN, per_thread(total, num_threads())))


def per_thread(total: int, parts: int) -> int:
    """The bytes of one of ``parts`` equal shares of ``total`` (one block per thread),
    or ``total`` itself below :data:`~pooltutor.threads.MIN_PARALLEL_BYTES` (work that
    small runs on the calling thread)."""
    return -(-total // (parts if total >= MIN_PARALLEL_BYTES else 1))
