"""pooltutor.indexing numbering: every element's number per layout, the winner's, the steps."""

from __future__ import annotations

import numpy as np
import pytest

from pooltutor import PoolTutorError
from pooltutor.indexing import (
    INDEX_LAYOUTS,
    axis_steps,
    convert_indices,
    layout_numbers,
    winner_numbers,
)
from pooltutor.pooling import max_pool

# TV22: N=2, C=2, H=2, W=3; K=2, S=1 -> 1x2 outputs per plane
TV22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                 [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)
TV22_INDICES = {  # order n0c0w0, n0c0w1, n0c1w0, ... (docs/semantics.md §4.5)
    "plane": [1, 1, 0, 5, 0, 1, 3, 1],
    "tensor": [1, 1, 6, 11, 12, 13, 21, 19],
    "tensor_colmajor": [2, 2, 6, 11, 12, 14, 19, 20],
    "nhwc": [2, 2, 1, 11, 0, 2, 7, 3],
    "nhwc_batch": [2, 2, 1, 11, 12, 14, 19, 15],
}


def test_layout_numbers_agree_with_convert_indices():
    shape = (2, 3, 2, 2)
    for lay in INDEX_LAYOUTS:
        nums = layout_numbers(shape, lay)
        plane = np.broadcast_to(np.arange(4).reshape(2, 2), shape).copy()
        np.testing.assert_array_equal(nums, convert_indices(plane, shape, "plane", lay))


@pytest.mark.parametrize("shape", [(2, 2, 5), (2, 2, 2, 3), (1, 2, 2, 3, 2)])
def test_layout_numbers_are_a_numbering(shape):
    size = int(np.prod(shape))
    plane = int(np.prod(shape[2:]))
    for lay in ("tensor", "tensor_colmajor", "nhwc_batch"):          # the whole tensor
        assert sorted(layout_numbers(shape, lay).ravel().tolist()) == list(range(size))
    for n in range(shape[0]):                                           # per batch entry
        assert sorted(layout_numbers(shape, "nhwc")[n].ravel().tolist()) == list(
            range(size // shape[0]))
        for c in range(shape[1]):                                       # per plane
            assert sorted(layout_numbers(shape, "plane")[n, c].ravel().tolist()) == list(
                range(plane))


def test_layout_numbers_refuses_bad_arguments():
    with pytest.raises(PoolTutorError, match="layout='colmajor'"):
        layout_numbers((1, 1, 2), "colmajor")
    with pytest.raises(PoolTutorError, match=r"input_shape=\(1, 2\)"):
        layout_numbers((1, 2), "plane")


@pytest.mark.parametrize("k", range(8))
def test_winner_numbers_tv22(k):
    r = max_pool(TV22, 2, 1, return_indices=True)
    out_index = tuple(int(v) for v in np.unravel_index(k, (2, 2, 1, 2)))
    assert winner_numbers(r, out_index) == {lay: TV22_INDICES[lay][k] for lay in INDEX_LAYOUTS}
    # the same whatever layout the pooling returned its indices in
    other = max_pool(TV22, 2, 1, return_indices=True, index_layout="nhwc")
    assert winner_numbers(other, out_index, ("plane", "tensor")) == {
        "plane": TV22_INDICES["plane"][k], "tensor": TV22_INDICES["tensor"][k]}


def test_winner_numbers_no_winner_and_refusals():
    # 1-D, ceil: the last window holds one padding tap and one tap past the padded input
    r = max_pool(np.arange(10.0).reshape(1, 2, 5), 2, 2, padding=1, rounding="ceil",
                 return_indices=True)
    assert set(winner_numbers(r, (0, 1, 3)).values()) == {-1}
    with pytest.raises(PoolTutorError, match="return_indices=True"):
        winner_numbers(max_pool(TV22, 2, 1), (0, 0, 0, 0))


def test_axis_steps():
    assert axis_steps(layout_numbers((2, 2, 2, 3), "nhwc")) == {"n": None, "c": 1, "h": 6, "w": 2}
    assert axis_steps(layout_numbers((2, 2, 2, 3), "tensor_colmajor")) == {
        "n": 12, "c": 6, "h": 1, "w": 2}
    assert axis_steps(layout_numbers((1, 1, 2, 3, 4), "plane")) == {"d": 12, "h": 4, "w": 1}
    with pytest.raises(PoolTutorError, match="numbers has shape"):
        axis_steps(np.zeros((2, 2)))
