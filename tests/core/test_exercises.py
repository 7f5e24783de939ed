"""check_max_pool: a correct student pool passes; each classic mistake is caught, in words."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pooltutor.exercises import MAX_POOL_CASES, check_max_pool


def _length(i, k, s, p, d, ceil_mode, clip=True):
    span = d * (k - 1) + 1
    n = (math.ceil if ceil_mode else math.floor)((i + 2 * p - span) / s) + 1
    if ceil_mode and clip and (n - 1) * s >= i + p:
        n -= 1
    return n


def make_pool(*, off_by_one=False, pad_value=-np.inf, clip=True, last_max=False, crash=False,
              indices=None):
    """A student's 2-D max pool, written here (not in the library), with one optional bug.
    ``indices``: also return the winners' flat indices, ``"input"`` (h * W + w in x, as
    PyTorch) or ``"padded"`` (a mistake: positions in the padded copy)."""
    def pool(x, kernel, stride, padding=0, dilation=1, ceil_mode=False):
        if crash:
            raise IndexError("index 5 is out of bounds")
        h, w = (_length(n, kernel, stride, padding, dilation, ceil_mode, clip) for n in x.shape)
        if off_by_one:
            h, w = h - 1, w - 1
        big = np.full((x.shape[0] + 2 * padding + kernel * dilation,
                       x.shape[1] + 2 * padding + kernel * dilation), pad_value)
        big[padding:padding + x.shape[0], padding:padding + x.shape[1]] = x
        out, where = np.empty((h, w)), np.empty((h, w), dtype=np.int64)
        for i in range(h):
            for j in range(w):
                best = None
                for a in range(kernel):
                    for b in range(kernel):
                        r, c = i * stride + a * dilation, j * stride + b * dilation
                        v = big[r, c]
                        if best is None or v > best or (last_max and v == best):
                            best = v
                            where[i, j] = ((r - padding) * x.shape[1] + c - padding
                                           if indices == "input" else r * big.shape[1] + c)
                out[i, j] = best
        return out if indices is None else (out, where)
    return pool


def test_correct_pool_passes_and_lists_the_cases():
    report = check_max_pool(make_pool())
    assert report.passed and bool(report)
    for case in MAX_POOL_CASES:
        assert case.name in report.message
    assert str(report).startswith("All 6 cases pass")


@pytest.mark.parametrize("bug, case, words", [
    ({"off_by_one": True}, "no padding", "off by one"),
    ({"pad_value": 0.0}, "negative values with padding", "counted as 0"),
    ({"clip": False}, "ceil rule with PyTorch's clip", "one window too many"),
    ({"crash": True}, "no padding", "raised IndexError: index 5 is out of bounds"),
])
def test_each_mistake_is_named(bug, case, words):
    report = check_max_pool(make_pool(**bug))
    assert not report.passed and report.failed_case == case
    assert words in report.message
    if "crash" not in bug:
        assert "expected:\n" in report.message and "received:\n" in report.message


def test_last_max_ties_are_values_equal_so_they_pass_but_wrong_values_do_not():
    # with equal values the maximum is the same whichever tap wins: the values agree
    assert check_max_pool(make_pool(last_max=True)).passed

    def min_pool(x, kernel, stride, padding=0, dilation=1, ceil_mode=False):
        return -make_pool(pad_value=np.inf)(-x, kernel, stride, padding, dilation, ceil_mode)
    r = check_max_pool(min_pool)
    assert not r.passed and "value(s) differ" in r.message


def test_indices_when_returned_are_checked_and_the_tie_rule_is_named():
    assert check_max_pool(make_pool(indices="input")).passed
    r = check_max_pool(make_pool(indices="input", last_max=True))
    assert not r.passed and r.failed_case == "ties"
    assert "first maximum in scan order" in r.message and "expected indices:" in r.message
    r = check_max_pool(make_pool(indices="padded"))
    assert not r.passed and r.failed_case == "no padding" and "h * W + w" in r.message
    r = check_max_pool(lambda x, *a, **k: (make_pool()(x, *a, **k), "no"))
    assert not r.passed and "not a 2x2 array of numbers" in r.message


def test_not_implemented_wrong_type_and_shape_are_reported_not_raised():
    def skeleton(x, kernel, stride, padding=0, dilation=1, ceil_mode=False):
        raise NotImplementedError
    assert "not implemented yet" in check_max_pool(skeleton).message
    assert "not an array" in check_max_pool(lambda x, *a, **k: {"a": 1}).message
    r = check_max_pool(lambda x, *a, **k: np.zeros(7))
    assert not r.passed and "shape (7,)" in r.message
    assert not check_max_pool(3).passed


def test_student_input_is_a_copy():
    def mutating(x, kernel, stride, padding=0, dilation=1, ceil_mode=False):
        out = make_pool()(x, kernel, stride, padding, dilation, ceil_mode)
        x[:] = 0
        return out
    assert check_max_pool(mutating).passed
    assert check_max_pool(make_pool()).passed
