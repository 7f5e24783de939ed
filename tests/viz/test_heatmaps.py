"""plot_pooling and its building blocks (pooltutor.viz.heatmaps): what is drawn, by state.

What is drawn is checked through artist gids ("window", "winner", "output",
"padding", "dropped", ...), the texts of the cell-text collections
(style.texts_of), titles and colour limits; a few picture regressions against
baselines in tests/viz/baseline/ (compare_images at a tolerance).
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from figure_checks import assert_texts_inside

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.geometry import pool_geometry
from pooltutor.indexing import to_plane
from pooltutor.pooling import avg_pool, max_pool
from pooltutor.viz import style
from pooltutor.viz.explorer import new_figure
from pooltutor.viz.heatmaps import (
    axis_extent,
    format_params,
    pad_rule_text,
    plot_dropped,
    plot_input,
    plot_output,
    plot_pool,
    plot_pooling,
    plot_window,
    update_pooling_plot,
)

BASELINE = Path(__file__).parent / "baseline"

ARANGE_4x4 = np.arange(16.0).reshape(1, 1, 4, 4)


def _gid(ax, gid):
    return [p for p in ax.patches if p.get_gid() == gid]


def _cells(ax, gid):
    """``(row, col)`` of the cells drawn with ``gid``: unit-square patches and the cells of
    cell collections (style.cell_squares), each cell once."""
    cells = [(round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2))
             for p in _gid(ax, gid)]
    for coll in ax.collections:
        if coll.get_gid() == gid:
            cells += list(style.cells_of(coll))
    return sorted(cells)


def _centres(patches):
    """``(row, col)`` of unit-square patches."""
    return sorted((round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2))
                  for p in patches)


def _texts(ax, gid):
    """The strings drawn with ``gid`` (Text artists and cell-text collections)."""
    return [t.get_text() for t in style.texts_of(ax, gid)]


def _png_ok(data) -> bool:
    return bytes(data[:8]) == b"\x89PNG\r\n\x1a\n"



def test_plot_pooling_2d_window_winner_padding_output():
    r = max_pool(ARANGE_4x4, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    p = plot_pooling(r, (1, 2))
    # the window: taps rows 1..2, cols 3..4 (col 4 is padding), one square per tap
    assert _centres(p.window) == [(1, 3), (1, 4), (2, 3), (2, 4)]
    assert all(w.get_gid() == "window" for w in p.window)
    # the winner is the engine's index, decoded to (row, col)
    plane = int(to_plane(r.indices, r.input.shape, "plane")[0, 0, 1, 2])
    assert p.winner_cell == divmod(plane, 4) == (2, 3)
    assert p.winner.get_gid() == "winner" and p.winner in p.input_ax.patches
    # padding: the 6x6 padded grid minus the 4x4 input, each labelled with the rule
    assert len(style.cells_of(p.padding)) == 20 == len(_cells(p.input_ax, "padding"))
    assert p.padding.get_hatch() == style.PAD_HATCH
    assert (-1, -1) in _cells(p.input_ax, "padding") and (0, 0) not in _cells(p.input_ax,
                                                                              "padding")
    assert set(_texts(p.input_ax, "padding-text")) == {"skip"}
    assert len(_texts(p.input_ax, "value")) == 16
    # output: value texts, the highlighted cell, shared colour limits
    assert _texts(p.output_ax, "value") == ["0", "2", "3", "8", "10", "11", "12", "14", "15"]
    assert _centres(_gid(p.output_ax, "output")) == [(1, 2)]
    assert p.input_image.get_clim() == p.output_image.get_clim() == (0.0, 15.0)
    assert p.title.get_gid() == "title" and p.title.get_text() == "max pool: kernel=2, stride=2, pad=1, rounding='ceil_torch'"
    assert "y[1, 2] = 11" in p.output_ax.get_title()
    assert "pad_taps='skip'" in p.input_ax.get_title()
    # the legend sits under the panels, never over the data
    legend = p.figure.legends[0]
    p.figure.canvas.draw()
    box = legend.get_window_extent()
    for ax in (p.input_ax, p.output_ax):
        assert box.y1 <= ax.get_window_extent().y0


@pytest.mark.parametrize("pad_taps, text", [("skip", "skip"), ("neg_inf", "-inf"),
                                            ("lowest", "lowest")])
def test_padding_cells_name_the_rule(pad_taps, text):
    r = max_pool(ARANGE_4x4, 3, 2, padding=1, pad_taps=pad_taps, return_indices=True)
    p = plot_pooling(r, (0, 0))
    assert set(_texts(p.input_ax, "padding-text")) == {text}
    assert pad_rule_text(r) == text
    assert f"pad_taps={pad_taps!r}" in p.input_ax.get_title()


def test_empty_window_and_padding_winner():
    # TV20: taps -1 and 2 of a 2-element input; with padding skipped the window is empty
    x = np.array([[[5.0, 7.0]]])
    r = max_pool(x, 2, 1, padding=1, dilation=3, return_indices=True)
    p = plot_pooling(r, (0,))
    assert p.winner is None and p.winner_cell is None
    assert "(empty window)" in p.output_ax.get_title() and "-inf" in p.output_ax.get_title()
    # compared as -inf, the first padding tap wins (index -1): the winner is drawn in the padding
    r = max_pool(x, 2, 1, padding=1, dilation=3, pad_taps="neg_inf", return_indices=True)
    p = plot_pooling(r, (0,))
    assert r.indices.ravel().tolist() == [-1]
    assert p.winner_cell == (0, -1) and p.winner is not None


def test_1d_is_one_row_with_dropped_window_at_the_end():
    # TV03 in 1-D: I=5, K=2, S=2, pad 1, ceil_torch: raw 4 windows, the 4th (start 5) dropped
    r = max_pool(np.arange(5.0).reshape(1, 1, 5), 2, 2, padding=1, rounding="ceil_torch",
                 return_indices=True)
    p = plot_pooling(r, (0,))
    assert p.input_ax.get_ylim() == (0.5, -0.5)                   # one row
    assert p.dropped == ()
    p = update_pooling_plot(p, (2,))
    assert _centres(p.window) == [(0, 3), (0, 4)] and p.winner_cell == (0, 4)
    kinds = {a.get_gid() for a in p.dropped}
    assert kinds == {"dropped", "dropped-label"}
    assert _centres([a for a in p.dropped if a.get_gid() == "dropped"]) == [(0, 5), (0, 6)]
    label = [a for a in p.dropped if a.get_gid() == "dropped-label"][0]
    assert label.get_text() == "dropped: starts in end padding"
    assert axis_extent(r.geometry.axes[0]) == (-1, 7)
    # cells past the padded input (position 6) are drawn, dashed, as "outside"
    assert _cells(p.input_ax, "outside") == [(0, 6)]


def test_dilated_taps_are_separate_and_overhang_is_dashed():
    x = np.arange(24.0).reshape(1, 1, 4, 6)
    p = plot_pool(x, 3, 1, dilation=(1, 2), out_index=(1, 1))
    assert _centres(p.window) == [(r, c) for r in (1, 2, 3) for c in (1, 3, 5)]
    # raw ceil: the last window reads one tap past the padded input, dashed
    r = max_pool(np.arange(5.0).reshape(1, 1, 5), 2, 2, rounding="ceil", return_indices=True)
    p = plot_pooling(r, (2,))
    styles = {round(w.get_x() + 0.5): w.get_linestyle() for w in p.window}
    assert styles == {4: "-", 5: "--"}


def test_3d_shows_one_slice_and_says_so():
    x = np.arange(60.0).reshape(1, 1, 3, 4, 5)
    r = avg_pool(x, 2, 2, padding=1, divisor="padded")
    p = plot_pooling(r, (1, 1, 2))
    assert p.depth == 1
    assert "slice d=1 of 3" in p.input_ax.get_title() and "window reads d=1, 2" in \
        p.input_ax.get_title()
    assert "divisor='padded'" in p.input_ax.get_title()
    assert set(_texts(p.input_ax, "padding-text")) == {"0"}
    assert p.winner is None                                   # an average has no winner
    assert _texts(p.input_ax, "value")[0] == "20"             # slice 1 starts at 20
    p2 = plot_pooling(r, (1, 1, 2), depth=2)
    assert _texts(p2.input_ax, "value")[0] == "40"
    with pytest.raises(PoolTutorError, match="depth=3 is outside"):
        plot_pooling(r, (0, 0, 0), depth=3)
    with pytest.raises(PoolTutorError, match="only a 3-D pooling"):
        plot_pool(ARANGE_4x4, 2, depth=0)


def test_big_grid_is_not_annotated_but_small_output_is():
    x = (np.arange(256.0) % 17).reshape(1, 1, 16, 16)
    p = plot_pool(x, 3, 2, padding=1, out_index=(3, 4))
    assert _texts(p.input_ax, "value") == []                  # 18x18 cells: too many to write
    assert len(_texts(p.output_ax, "value")) == 64
    assert p.winner_cell == (5, 9)                            # max of the window, 89 % 17 = 4


def test_nan_and_multi_plane_inputs():
    x = np.arange(2 * 3 * 9, dtype=np.float64).reshape(2, 3, 3, 3)
    x[1, 2, 0, 1] = np.nan
    r = max_pool(x, 2, 1, return_indices=True)
    p = plot_pooling(r, (0, 0), n=1, c=2)
    assert "NaN" in _texts(p.input_ax, "value")
    assert p.winner_cell == (0, 1)                            # NaN wins (propagate_last)
    assert "plane n=1, c=2" in p.input_ax.get_title()
    with pytest.raises(PoolTutorError, match=r"\(n, c\)=\(2, 0\) is outside"):
        plot_pooling(r, (0, 0), n=2)


def test_bad_arguments_name_the_parameter():
    r = max_pool(ARANGE_4x4, 2, 2)
    with pytest.raises(PoolTutorTypeError, match="result=ndarray"):
        plot_pooling(ARANGE_4x4)
    with pytest.raises(PoolTutorError, match="out_index=.*outside the output shape"):
        plot_pooling(r, (2, 0))
    with pytest.raises(PoolTutorTypeError, match="out_index="):
        plot_pooling(r, "00")
    with pytest.raises(PoolTutorError, match="op='min' is not allowed"):
        plot_pool(ARANGE_4x4, 2, op="min")


def test_update_moves_overlays_without_leaking_artists():
    r = max_pool(ARANGE_4x4, 2, 1, padding=1, rounding="ceil_torch", return_indices=True)
    p = plot_pooling(r, (0, 0))
    counts = (len(p.input_ax.patches), len(p.output_ax.patches))
    for index in itertools.product(range(5), range(5)):
        p = update_pooling_plot(p, index)
        assert (len(p.input_ax.patches), len(p.output_ax.patches)) == counts
        assert _centres(p.window)[0] == (index[0] - 1, index[1] - 1)
        assert _centres([p.output_cell]) == [index]
    assert p.input_image.get_clim() == p.output_image.get_clim()


def test_building_blocks_draw_on_a_given_axes():
    g = pool_geometry((3, 3), 2, 2, padding=1, rounding="ceil_torch")
    ax = style.new_axes()
    im = plot_input(ax, np.arange(9.0).reshape(3, 3), g, pad_text="-inf", vmin=0, vmax=20)
    assert im.get_clim() == (0, 20) and len(_cells(ax, "padding")) == 16
    assert len(_gid(ax, "input-border")) == 1
    assert _centres(plot_window(ax, g, (1, 1))) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    ax2 = style.new_axes()
    plot_output(ax2, np.arange(3.0), highlight=(2,))
    assert _centres(_gid(ax2, "output")) == [(0, 2)]
    g = pool_geometry((5,), 2, 2, padding=1, rounding="ceil_torch")
    assert [a.get_gid() for a in plot_dropped(ax, g, (1,))] == []
    assert format_params(pool_geometry((6, 5), (3, 2), 2, padding=[(1, 0), (2, 2)])) == \
        "kernel=(3, 2), stride=2, pad=((1, 0), (2, 2)), rounding='floor'"


def test_figures_need_no_pyplot():
    code = ("import sys, numpy as np\n"
            "from pooltutor.viz.heatmaps import plot_pool\n"
            "from pooltutor.viz.padding_modes import plot_padding_modes\n"
            "p = plot_pool(np.arange(9.).reshape(1, 1, 3, 3), 2, 1)\n"
            "q = plot_padding_modes(5, 2, 2, 1, 1)\n"
            "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)



def test_legend_has_no_winner_when_no_window_has_an_input_element():
    import matplotlib

    from pooltutor.pooling import max_pool
    from pooltutor.viz.heatmaps import plot_pooling

    def legend_texts(result):
        fig = plot_pooling(result, (0,)).figure
        return [t.get_text() for t in fig.findobj(matplotlib.text.Text)]

    empty = max_pool(np.array([[[5.0, 7.0]]]), 2, 1, padding=1, dilation=3, return_indices=True)
    assert "winner (max)" not in legend_texts(empty)                  # TV20: nothing wins
    full = max_pool(np.array([[[5.0, 7.0]]]), 2, 1, return_indices=True)
    assert "winner (max)" in legend_texts(full)


# ----------------------------------------------------------------------------- ax=, progress


def test_ax_pair_draws_into_the_given_axes_and_fig_or_ax_is_checked():
    r = max_pool(ARANGE_4x4, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    fig = new_figure((9, 4.5), dpi=60, layout="constrained")
    axes = fig.subplots(1, 2)
    p = plot_pooling(r, (1, 2), ax=axes)
    assert (p.input_ax, p.output_ax, p.figure) == (axes[0], axes[1], fig)
    assert p.title is None and fig.texts == []                # no figure title drawn over theirs
    assert p.input_ax.get_title().startswith("max pool: kernel=2, stride=2")
    assert p.legend is not None and p.legend in p.output_ax.get_children()
    assert p.winner_cell == (2, 3) and _centres([p.output_cell]) == [(1, 2)]
    with pytest.raises(PoolTutorError, match="fig and ax were both given"):
        plot_pooling(r, fig=fig, ax=axes)
    with pytest.raises(PoolTutorTypeError, match="ax=.*need a sequence of two"):
        plot_pooling(r, ax=axes[0])
    with pytest.raises(PoolTutorError, match=r"ax=\(a, a\)"):
        plot_pooling(r, ax=(axes[0], axes[0]))
    with pytest.raises(PoolTutorTypeError, match="progress='yes'"):
        plot_pooling(r, progress="yes")


def test_progress_fills_the_output_up_to_the_current_cell():
    r = max_pool(ARANGE_4x4, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    every = ["0", "2", "3", "8", "10", "11", "12", "14", "15"]
    p = plot_pooling(r, (1, 1), progress=True)
    assert p.computed == 5 and _texts(p.output_ax, "value") == every[:5]
    assert np.isnan(p.output_values.ravel()[5:]).all()
    assert p.output_values.ravel()[:5].tolist() == [0.0, 2.0, 3.0, 8.0, 10.0]
    n_collections = len(p.output_ax.collections)
    for k, index in enumerate(itertools.product(range(3), range(3))):
        p = update_pooling_plot(p, index)
        assert _texts(p.output_ax, "value") == every[:k + 1], index
        assert _centres([p.output_cell]) == [index] and p.computed == k + 1
        assert len(p.output_ax.collections) == n_collections      # nothing leaks
    # the row / column indices stay while the values change
    assert _texts(p.output_ax, "tick") == ["0", "1", "2", "0", "1", "2"]
    full = plot_pooling(r, (1, 1))
    assert full.computed == 9 and _texts(full.output_ax, "value") == every


def test_negative_indices_are_written_with_a_minus_and_kept_by_a_tight_save():
    r = max_pool(ARANGE_4x4, 3, 2, padding=1, return_indices=True)
    p = plot_pooling(r, (0, 0))
    ticks = _texts(p.input_ax, "tick")
    assert ticks.count("\u22121") == 2                        # row -1 and column -1
    assert_texts_inside(p.figure)
    # the collection's extent is that of its glyphs (so a tight crop keeps "-1" whole)
    p.figure.canvas.draw()
    coll = next(c for c in p.input_ax.collections if c.get_gid() == "index-labels")
    box, axes_box = coll.get_window_extent(), p.input_ax.get_window_extent()
    assert box.x0 < axes_box.x0 - 8 and box.y0 < axes_box.y0 - 8


def test_cell_numbers_are_at_least_7_points():
    for shape in ((3, 3), (16, 16)):
        x = np.arange(float(np.prod(shape))).reshape(1, 1, *shape)
        p = plot_pool(x, 2, 2, padding=1)
        sizes = [t.get_fontsize() for ax in (p.input_ax, p.output_ax)
                 for t in style.texts_of(ax)]
        assert sizes and min(sizes) >= 7, shape


def _compare(fig, name, tmp_path, tol=3):
    from matplotlib.testing.compare import compare_images

    out = tmp_path / name
    fig.savefig(out, dpi=60, bbox_inches="tight")
    baseline = BASELINE / name
    assert baseline.exists(), f"make {baseline} (look at it first)"
    assert compare_images(str(baseline), str(out), tol=tol) is None


@pytest.mark.picture
def test_picture_regression_2d_ceil_torch(tmp_path):
    r = max_pool(np.arange(25.0).reshape(1, 1, 5, 5), 2, 2, padding=1, rounding="ceil_torch",
                 return_indices=True)
    _compare(plot_pooling(r, (1, 2), progress=True).figure, "heatmaps_2d_ceil_torch.png",
             tmp_path)


@pytest.mark.picture
def test_picture_regression_1d_dropped(tmp_path):
    p = plot_pool(np.arange(5.0).reshape(1, 1, 5), 2, 2, padding=1, rounding="ceil_torch",
                  out_index=(2,))
    _compare(p.figure, "heatmaps_1d_dropped.png", tmp_path)
