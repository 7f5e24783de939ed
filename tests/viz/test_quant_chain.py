"""plot_quant_chain: the four stages of seed 003's requantize -> ReLU -> max pool (TV29).

Checked on what was drawn, as Jupyter shows it (plain and tight), for 2-D and
(N, C, H, W) chains, and against small baseline pictures.
"""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from baseline_check import assert_matches_baseline  # noqa: E402
from figure_checks import assert_texts_inside, suptitle  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pooltutor.quant import relu_max_pool_chain  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.quant_chain import CHAIN_PANELS, plot_quant_chain  # noqa: E402


def patches(ax, gid):
    return [p for p in ax.patches if p.get_gid() == gid]


def cell_of(patch):
    x, y = patch.get_xy()
    return round(y + patch.get_height() / 2), round(x + patch.get_width() / 2)


def texts(ax, gid):
    return [t.get_text() for t in style.texts_of(ax, gid)]


def test_tv29_four_stages():
    chain = relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)
    p = plot_quant_chain(chain)
    assert list(p.axes) == list(CHAIN_PANELS)
    assert p.codes.tolist() == [[-1, 2], [3, -4]] and p.activated.tolist() == [[0, 2], [3, 0]]
    assert p.pooled.tolist() == [[3]] and p.winner == (1, 0) and len(p.window) == 4
    for name in ("accumulators", "codes", "activated"):
        assert sorted(cell_of(w) for w in patches(p.axes[name], "window")) == sorted(p.window)
    (w,) = patches(p.axes["activated"], "winner")               # where the max is taken
    assert cell_of(w) == (1, 0)
    assert patches(p.axes["codes"], "winner") == []
    assert texts(p.axes["pooled"], "value") == ["3"]
    assert texts(p.axes["pooled"], "real") == ["real 3s"]       # no scale: units of s
    assert p.raised == ((0, 0), (1, 1))                          # -1 and -4 raised to 0
    assert len(patches(p.axes["activated"], "raised")) == 2
    assert texts(p.axes["accumulators"], "value") == ["-2", "4", "6", "-8"]
    assert sorted(texts(p.axes["codes"], "tick")) == ["0", "0", "1", "1"]
    clims = [p.axes[k].images[0].get_clim() for k in ("codes", "activated", "pooled")]
    assert clims[0] == clims[1] == clims[2]
    assert p.axes["accumulators"].images[0].get_clim() == (-8.0, 6.0)
    heading = suptitle(p.figure)
    assert "M=0.5, zero point 0, int8, rounding half_even (s)" in heading
    assert "2 code(s) raised to the zero point" in heading
    assert p.axes["activated"].get_title() == "3. ReLU at the real zero\nmax(q, 0)"


def test_4d_plane_and_errors():
    acc = np.arange(-16, 16).reshape(1, 2, 4, 4)
    chain = relu_max_pool_chain(acc, 1.0, 128, dtype="uint8")
    p = plot_quant_chain(chain, (0, 1, 1, 1))
    assert "plane n=0, c=1" in suptitle(p.figure) and p.plane == (0, 1)
    assert p.winner == (3, 3) and p.accumulators.tolist() == acc[0, 1].tolist()
    assert p.raised == () and "no code raised" in suptitle(p.figure)
    assert [cell_of(h) for h in patches(p.axes["pooled"], "highlight")] == [(1, 1)]
    with pytest.raises(ValueError, match="out_index"):
        plot_quant_chain(chain, (0, 0))
    with pytest.raises(ValueError, match="outside the pooled stage"):
        plot_quant_chain(chain, (0, 2, 0, 0))
    with pytest.raises(TypeError, match="QuantChain"):
        plot_quant_chain(acc)
    with pytest.raises(ValueError, match="at most 8 x 8"):
        plot_quant_chain(relu_max_pool_chain(np.zeros((9, 9), dtype=int), 1.0, 0))


def test_ax_sequence_and_fig_redraw():
    chain = relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = fig.subplots(1, 4)
    p = plot_quant_chain(chain, ax=axes)
    assert list(p.axes.values()) == list(axes) and p.figure is fig
    with pytest.raises(ValueError, match="ax has 3 entries: need 4 Axes"):
        plot_quant_chain(chain, ax=axes[:3])
    q = plot_quant_chain(relu_max_pool_chain(np.ones((3, 3), dtype=int), 1.0, 0), fig=fig)
    assert len(fig.axes) == 4 and texts(q.axes["pooled"], "value") == ["1"]


CHAINS = [
    ("TV29", lambda: relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)),
    ("TV30 scale", lambda: relu_max_pool_chain([[-2, 4], [6, -8]], 1.0, 128, dtype="uint8",
                                               scale=0.5)),
    ("3x3 int8", lambda: relu_max_pool_chain([[5, -1, 2], [-7, 3, 0], [1, -4, 8]], 1.0, -128,
                                             dtype="int8")),
    ("4-D", lambda: relu_max_pool_chain(np.arange(-16, 16).reshape(1, 2, 4, 4) * 37, 0.3,
                                        -100, dtype="int8", scale=0.01)),
    ("8x8 k3", lambda: relu_max_pool_chain(np.arange(-32, 32).reshape(8, 8) * 3, 0.7, -5,
                                           dtype="int8", kernel=3, stride=2)),
    ("1x6 k1", lambda: relu_max_pool_chain([[9, -9, 100, -100, 0, 3]], 2.0, 250,
                                           dtype="uint8", kernel=1)),
]


@pytest.mark.parametrize("name, make", CHAINS, ids=[c[0] for c in CHAINS])
def test_every_text_inside_and_cells_legible(name, make):
    p = plot_quant_chain(make())
    assert_texts_inside(p.figure)
    for ax in p.axes.values():
        assert min(t.get_fontsize() for t in style.texts_of(ax)) >= 7


@pytest.mark.picture
@pytest.mark.parametrize("name, make, index", [
    ("quant_chain_tv29", CHAINS[0][1], None),
    ("quant_chain_4d", CHAINS[3][1], (0, 1, 1, 0)),
])
def test_pictures_match_their_baselines(name, make, index):
    assert_matches_baseline(plot_quant_chain(make(), index).figure, name)
