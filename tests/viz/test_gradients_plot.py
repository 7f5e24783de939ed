"""plot_gradient_routing: what it drew (numbers, winner boxes, titles), texts inside the image."""

from __future__ import annotations

import numpy as np
import pytest
from figure_checks import assert_texts_inside

from pooltutor.errors import PoolTutorError
from pooltutor.viz import plot_gradient_routing
from pooltutor.viz.explorer import new_figure


def test_overlapping_windows_sum_and_winners_are_boxed():
    x = np.array([[1.0, 9, 2, 3],
                  [0.0, 4, 8, 1],
                  [5.0, 5, 0, 2]])
    grad = np.array([[1.0, 10, 100], [1000, 10000, 100000]])
    p = plot_gradient_routing(x, 2, 1, grad=grad)
    # windows (0,0),(0,1) won by 9; (0,2) by 8; (1,0) by 5 (first of the tie 5, 5); (1,1),(1,2) by 8
    assert p.indices.tolist() == [[1, 1, 6], [8, 6, 6]]
    expected = np.zeros_like(x)
    expected[0, 1] = 11.0
    expected[1, 2] = 100 + 10000 + 100000
    expected[2, 0] = 1000
    assert np.array_equal(p.grad_in, expected)
    assert p.wins == {(0, 1): 2, (1, 2): 3, (2, 0): 1}
    boxes = [q for q in p.axes[0].patches if q.get_gid() == "winner"]
    assert sorted((round(q.get_y() + q.get_height() / 2), round(q.get_x() + q.get_width() / 2))
                  for q in boxes) == [(0, 1), (1, 2), (2, 0)]
    assert len([q for q in p.axes[1].patches if q.get_gid() == "winner"]) == 3
    assert "3 winner(s)" in p.axes[0].get_title()
    assert "2 cell(s) won 2+ windows" in p.axes[1].get_title()
    assert all(q.get_linewidth() >= 3 and q.get_path_effects() for q in boxes)  # not colour only
    assert np.array_equal(np.asarray(p.images[1].get_array()), expected)
    assert_texts_inside(p.figure)


def test_default_gradient_counts_wins_padding_gets_none_and_ax_is_used():
    fig = new_figure((6.4, 3.0), dpi=100)
    axes = fig.subplots(1, 2)
    x = -np.arange(1.0, 10.0).reshape(3, 3)
    p = plot_gradient_routing(x, 3, 1, padding=1, ax=axes)
    assert p.figure is fig and p.axes == tuple(axes)
    assert p.grad_in.shape == x.shape                 # no padded cell to receive anything
    assert p.grad_in.tolist() == [[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    assert p.grad_in.sum() == p.output.size
    assert_texts_inside(fig)


def test_fig_is_reused_and_bad_input_refused():
    fig = new_figure((6.4, 3.0), dpi=100)
    p = plot_gradient_routing(np.arange(16.0).reshape(4, 4), 2, fig=fig)
    assert p.figure is fig and len(fig.axes) == 2
    assert p.grad_in.tolist()[1] == [0.0, 1.0, 0.0, 1.0]
    with pytest.raises(PoolTutorError, match="grad"):
        plot_gradient_routing(np.zeros((4, 4)), 2, grad=np.ones((3, 3)))
    with pytest.raises(PoolTutorError, match="fig and ax"):
        plot_gradient_routing(np.zeros((4, 4)), 2, fig=fig, ax=fig.axes)
