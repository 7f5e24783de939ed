"""Checks the engine tests share (tests/core/test_pooling_*.py)."""

from __future__ import annotations

import numpy as np

from pooltutor import pooling, reference


def check_avg(x, kernel, stride=None, padding=0, dilation=1, **kw):
    """Bit-identical to the reference: the same float64 sums in the same order."""
    before = x.copy()
    y = reference.avg_pool(x, kernel, stride, padding, dilation, **kw)
    r = pooling.avg_pool(x, kernel, stride, padding, dilation, **kw)
    np.testing.assert_array_equal(r.output, y)
    np.testing.assert_array_equal(np.signbit(r.output), np.signbit(y))
    assert r.output.dtype == y.dtype.newbyteorder("=")
    np.testing.assert_array_equal(x, before)
