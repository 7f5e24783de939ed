"""Max pooling's backward pass (pooltutor.unpool.max_pool_backward).

Checked against the loop oracle (pooltutor.reference.max_pool_backward), by
properties (the gradient's total is preserved, only winners receive it,
MaxUnpool is the same scatter when no element wins twice), and against
torch.autograd when torch is importable.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pooltutor import reference
from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.frameworks import torch_max_pool
from pooltutor.indexing import convert_indices
from pooltutor.unpool import max_pool_backward, max_unpool


@st.composite
def pooled(draw):
    """Input, pool parameters (overlapping windows, padding, dilation), gradients."""
    h, w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    k = (draw(st.integers(1, h)), draw(st.integers(1, w)))
    s = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    p = (draw(st.integers(0, k[0] // 2)), draw(st.integers(0, k[1] // 2)))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2)), h, w)
    size = int(np.prod(shape))
    # small integers: many ties
    x = np.array(draw(st.lists(st.integers(-3, 3), min_size=size, max_size=size)),
                 dtype=np.float64).reshape(shape)
    y, idx = torch_max_pool(x, k, s, p, return_indices=True)
    g = np.array(draw(st.lists(st.integers(-9, 9), min_size=y.size, max_size=y.size)),
                 dtype=np.float64).reshape(y.shape)
    return x, (k, s, p), y, idx, g


def test_overlapping_windows_add_and_ties_go_to_the_first():
    x = np.array([[[[1.0, 9, 2, 3]]]])
    y, idx = torch_max_pool(x, (1, 2), (1, 1), return_indices=True)
    assert idx.tolist() == [[[[1, 1, 3]]]]
    got = max_pool_backward(np.array([[[[1.0, 10, 100]]]]), idx, x.shape)
    assert got.tolist() == [[[[0.0, 11.0, 0.0, 100.0]]]]
    tie = np.array([[[[5.0, 5], [5, 5]]]])
    y, idx = torch_max_pool(tie, 2, return_indices=True)
    assert max_pool_backward(np.full_like(y, 7.0), idx, tie.shape).tolist() == \
        [[[[7.0, 0.0], [0.0, 0.0]]]]


def test_padding_never_receives_gradient():
    x = -np.arange(1.0, 10.0).reshape(1, 1, 3, 3)           # all negative: padding would beat it
    y, idx = torch_max_pool(x, 3, 1, padding=1, return_indices=True)
    assert (idx >= 0).all()                               # padding is skipped, never wins
    g = max_pool_backward(np.ones_like(y), idx, x.shape)
    assert g.shape == x.shape and g.sum() == y.size
    # window (i, j) covers rows i-1..i+1, cols j-1..j+1 clipped; its max is its top-left cell
    assert g[0, 0].tolist() == [[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    # an index of -1 (an all-padding window) routes nothing
    assert max_pool_backward(np.ones((1, 1, 1, 1)), np.array([[[[-1]]]]),
                             (1, 1, 1, 1)).tolist() == [[[[0.0]]]]


@settings(max_examples=150, deadline=None)
@given(pooled())
def test_against_the_loop_oracle(case):
    x, _, y, idx, g = case
    got = max_pool_backward(g, idx, x.shape)
    assert np.array_equal(got, reference.max_pool_backward(g, idx, x.shape))


@settings(max_examples=150, deadline=None)
@given(pooled())
def test_properties(case):
    x, _, y, idx, g = case
    g0 = g.copy()
    got = max_pool_backward(g, idx, x.shape)
    assert np.array_equal(g, g0)                            # input not modified
    assert got.sum() == pytest.approx(g.sum())              # every gradient lands somewhere
    winners = np.zeros(x.size, bool)
    n = np.arange(x.shape[0]).reshape(-1, 1, 1, 1)
    c = np.arange(x.shape[1]).reshape(1, -1, 1, 1)
    plane = x.shape[2] * x.shape[3]
    winners[((n * x.shape[1] + c) * plane + idx).ravel()] = True
    assert not got.ravel()[~winners].any()                  # only winners receive gradient
    # the same scatter as MaxUnpool, with ones: counts how many windows each element won
    counts = max_pool_backward(np.ones_like(y), idx, x.shape)
    once = counts <= 1
    assert np.array_equal(max_unpool(y, idx, x.shape)[once], (counts * x)[once])
    # any layout routes to the same places
    tensor = convert_indices(idx, x.shape, "plane", "tensor")
    assert np.array_equal(max_pool_backward(g, tensor, x.shape, layout="tensor"), got)


def test_errors_name_the_parameter():
    idx = np.zeros((1, 1, 1, 1), np.int64)
    with pytest.raises(PoolTutorTypeError, match="grad_out"):
        max_pool_backward(np.ones((1, 1, 1, 1), np.int64), idx, (1, 1, 2, 2))
    with pytest.raises(PoolTutorError, match="grad_out"):
        max_pool_backward(np.ones((1, 1, 1, 2)), idx, (1, 1, 2, 2))
    with pytest.raises(PoolTutorError, match="layout"):
        max_pool_backward(np.ones((1, 1, 1, 1)), idx, (1, 1, 2, 2), layout="nchw")


@settings(max_examples=60, deadline=None)
@given(pooled())
def test_against_torch_autograd(case):
    torch = pytest.importorskip("torch")
    x, (k, s, p), y, idx, g = case
    xt = torch.tensor(x, requires_grad=True)
    yt = torch.nn.functional.max_pool2d(xt, k, s, p)
    yt.backward(torch.tensor(g))
    assert np.array_equal(yt.detach().numpy(), y)
    assert np.array_equal(max_pool_backward(g, idx, x.shape), xt.grad.numpy())
