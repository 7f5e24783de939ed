"""Shared hypothesis strategies: consistent (shape, kernel, stride, padding, dilation) draws."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from pooltutor.geometry import ROUNDINGS, effective_window


@st.composite
def pool_cases(draw, max_spatial=3, max_size=7, max_pad=4, dtypes=("float64",)):
    """A dict of max/avg pooling arguments whose window fits the padded input."""
    ndim = draw(st.integers(1, max_spatial))
    n = draw(st.integers(1, 2))
    c = draw(st.integers(1, 2))
    sizes, kernel, stride, dilation, pads = [], [], [], [], []
    for _ in range(ndim):
        size = draw(st.integers(1, max_size))
        k = draw(st.integers(1, 4))
        d = draw(st.integers(1, 3))
        pb = draw(st.integers(0, max_pad))
        pe = draw(st.integers(0, max_pad))
        dk = effective_window(k, d)
        if size + pb + pe < dk:          # make it fit by adding end padding
            pe = dk - size - pb
        sizes.append(size)
        kernel.append(k)
        stride.append(draw(st.integers(1, 4)))
        dilation.append(d)
        pads.append((pb, pe))
    dtype = draw(st.sampled_from(dtypes))
    shape = (n, c, *sizes)
    if np.dtype(dtype).kind == "f":
        # small integers as floats make ties common; sprinkle NaN and infinities
        base = draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, -1.0, np.nan, np.inf, -np.inf]),
                             min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
        x = np.array(base, dtype=dtype).reshape(shape)
    else:
        info = np.iinfo(dtype)
        base = draw(st.lists(st.integers(int(info.min), int(info.max)),
                             min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
        x = np.array(base, dtype=dtype).reshape(shape)
    return dict(x=x, kernel=tuple(kernel), stride=tuple(stride), padding=tuple(pads),
                dilation=tuple(dilation), rounding=draw(st.sampled_from(ROUNDINGS)))


# --------------------------------------------------------------------------- geometry by enumeration
# Appended for tests/core/test_geometry.py and tests/test_engine_*.py.  Written from the
# prose of docs/semantics.md §1.1, NOT from pooltutor.geometry's formulas: windows
# are laid one after another and the rule only says when to stop.


def enumerate_window_starts(size, kernel, stride, dilation, pad_begin, pad_end, rounding):
    """Window starts (input coordinates) found by walking along the padded axis.

    ``floor``/``floor_clip``: keep laying windows while the whole window fits in the
    padded extent.  ``ceil``/``ceil_torch``/``caffe``: lay windows until one reaches
    the end of the padded extent (the last may hang over it).  Then the clip rules
    drop the last window once if it starts at or after the end of the input
    (``ceil_torch``, ``floor_clip``; ``caffe`` only with begin padding).  Returns
    ``None`` when not even one window is laid: under floor when the window is
    longer than the padded extent, under ceil when even the first window would
    hang over it by a whole stride or more.
    """
    reach = (kernel - 1) * dilation + 1                 # taps from first to last, inclusive
    padded = size + pad_begin + pad_end
    if reach > padded and (rounding in ("floor", "floor_clip") or reach - padded >= stride):
        return None
    starts = []
    position = -pad_begin
    while True:
        last_tap = position + reach - 1
        fits = last_tap <= size + pad_end - 1
        if rounding in ("floor", "floor_clip"):
            if not fits:
                break
            starts.append(position)
        else:
            starts.append(position)
            if last_tap >= size + pad_end - 1:          # this window reaches the end
                break
        position += stride
    clips = rounding in ("ceil_torch", "floor_clip") or (rounding == "caffe" and pad_begin > 0)
    unclipped = len(starts)
    if clips and len(starts) > 1 and starts[-1] >= size:
        starts.pop()
    return starts, unclipped


def classify_tap(t, size, pad_begin, pad_end):
    """``"input"``, ``"padding"`` or ``"outside"`` for a tap at input coordinate ``t``."""
    if t in range(size):
        return "input"
    if t in range(-pad_begin, 0) or t in range(size, size + pad_end):
        return "padding"
    return "outside"


@st.composite
def axis_params(draw, max_size=12, max_kernel=5, max_stride=5, max_dilation=3, max_pad=9):
    """One axis (size, kernel, stride, dilation, pad_begin, pad_end), pads of any size
    (also >= kernel); the window may or may not fit."""
    return (draw(st.integers(1, max_size)), draw(st.integers(1, max_kernel)),
            draw(st.integers(1, max_stride)), draw(st.integers(1, max_dilation)),
            draw(st.integers(0, max_pad)), draw(st.integers(0, max_pad)))
