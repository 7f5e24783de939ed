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
