"""IndexLayoutExplorer's fast updates draw exactly what a fresh explorer draws (issue 6).

A step to another output cell and a kernel / stride / padding-rule change that leaves the
input panel alone are blitted (only the marks and titles are drawn again, over the cached
background); another plane or padding redraws everything (the unchanged layout panels
paste their last pixels).  Each picture after such an update must be the PNG of an
explorer made with the same control values and drawn from scratch, pixel for pixel.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from pooltutor.errors import PoolTutorError  # noqa: E402
from pooltutor.pooling import max_pool  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.explorer import figure_png  # noqa: E402
from pooltutor.viz.glyphs import Glyphs  # noqa: E402
from pooltutor.viz.index_explorer import IndexLayoutExplorer  # noqa: E402
from pooltutor.viz.indices import (  # noqa: E402
    move_index_layouts,
    plot_index_layouts,
)

LOW = 30          # dpi: the pixels are compared, so a small picture is enough


def pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def fresh_png(e: IndexLayoutExplorer) -> bytes:
    """An explorer made with ``e``'s control values and drawn from scratch at its cell."""
    f = IndexLayoutExplorer(e.x, kernel=e.kernel.value, stride=e.stride.value,
                            padding=e.padding.value, pad_taps=e.pad_taps.value, dpi=e.figure.dpi)
    with f._hold():
        f.n.value, f.c.value = e.n.value, e.c.value
        for mine, theirs in zip(f.out, e.out, strict=True):
            mine.max = max(mine.max, theirs.value)
            mine.value = theirs.value
    f.plot = f._key = None                        # no move: everything drawn again
    f.invalidate()
    assert f.safe_update(), f.error
    assert f.state == e.state and f.explain_text == e.explain_text
    return f.png


def set_cell(e, *cell):
    with e._hold():
        for slider, v in zip(e.out, cell, strict=True):
            slider.value = v
    e.safe_update()


# (what to change, how the explorer must update: "blit", "full" or "error")
SEQUENCE_16 = [
    (lambda e: set_cell(e, 15, 15), "blit"),
    (lambda e: setattr(e.stride, "value", 1), "blit"),         # same input panel
    (lambda e: setattr(e.pad_taps, "value", "neg_inf"), "blit"),   # rule named in the title
    (lambda e: setattr(e.padding, "value", 0), "full"),        # the padded extent changes
    (lambda e: setattr(e.kernel, "value", 17), "error"),       # 17 > 16: refused
    (lambda e: setattr(e.stride, "value", 3), "error"),        # still refused (kernel 17)
    (lambda e: setattr(e.kernel, "value", 4), "blit"),         # back, from the kept picture
]

SEQUENCE_PLANES = [
    (lambda e: setattr(e.c, "value", 1), "full"),              # another plane
    (lambda e: setattr(e.pad_taps, "value", "lowest"), "blit"),    # no padding: same panel
    (lambda e: setattr(e.padding, "value", 1), "full"),        # big cells: rule written
    (lambda e: setattr(e.pad_taps, "value", "neg_inf"), "full"),
    (lambda e: setattr(e.kernel, "value", 7), "error"),
    (lambda e: setattr(e.n, "value", 1), "error"),             # still kernel 7: refused
    (lambda e: setattr(e.kernel, "value", 3), "full"),         # back, on another plane
]

SEQUENCE_1D = [
    (lambda e: set_cell(e, 2), "blit"),
    (lambda e: setattr(e.padding, "value", 0), "full"),
    (lambda e: setattr(e.kernel, "value", 11), "error"),       # 11 > 10: refused
    (lambda e: setattr(e.kernel, "value", 4), "blit"),
]


@pytest.mark.parametrize("x, params, sequence", [
    ((np.arange(256.0) % 13).reshape(1, 1, 16, 16), dict(kernel=3, stride=2, padding=1),
     SEQUENCE_16),
    ((np.arange(40.0) % 7 - 3).reshape(2, 2, 2, 5), dict(kernel=2, stride=2), SEQUENCE_PLANES),
    (np.array([[3, 1, 4, 1, 5, 9, 2, 6, 5, 3], [5, 8, 9, 7, 9, 3, 2, 3, 8, 4]],
              dtype=float)[None], dict(kernel=3, stride=2, padding=1), SEQUENCE_1D),
], ids=["16x16", "2x2 planes", "1-D"])
def test_every_update_draws_what_a_fresh_explorer_draws(x, params, sequence):
    e = IndexLayoutExplorer(x, dpi=LOW, **params)
    for step, (change, how) in enumerate(sequence):
        background, good_png, good_state = e._background, e.png, dict(e.state)
        change(e)
        if how == "error":
            assert e.error and "does not fit" in e.error, step
            assert e.png == good_png and e.state == good_state        # last good kept
            assert e.image.value != e.png                             # shown greyed
            continue
        assert e.error is None, (step, e.error)
        assert (e._background is background) == (how == "blit"), step
        assert e.png == fresh_png(e), step
        assert bytes(e.image.value) == e.png


def test_steps_blit_small_cells_readable_and_one_pass_same_picture():
    e = IndexLayoutExplorer((np.arange(256.0) % 13).reshape(1, 1, 16, 16), kernel=3,
                            stride=2, padding=1, dpi=LOW)
    # a step redraws only the marks and titles: the engine does not run again
    result, background = e.plot.result, e._background
    set_cell(e, 3, 5)
    assert e.plot.result is result and e._background is background
    titles = [a for a in e.animated if isinstance(a, matplotlib.text.Text)]
    assert len(titles) == 7 and all(type(t).__name__ == "ComposedText" for t in titles)
    assert len(e.animated) <= 40
    # the layout titles' second line ("who uses it") is in the background
    assert all(t.pooltutor_static_lines == {1} for t in titles[1:6])
    # small cells (16x16 on a slide-sized figure): narrower, taller digits than before
    # (4.9 pt), the winner outlined on its cell's edge (its bold number not covered), no
    # solid arrows across the numbers (the jumps between rows stay)
    for ax in e.plot.layout_axes.values():
        numbers = style.texts_of(ax, "number")
        assert len(numbers) == 256 and min(t.get_fontsize() for t in numbers) >= 5.5
        (mark,) = [p for p in ax.patches if p.get_gid() == "winner"]
        (bold,) = style.texts_of(ax, "winner-number")
        assert (mark.get_width(), mark.get_height()) == (1, 1) and not mark.get_path_effects()
        assert np.allclose((mark.get_x() + 0.5, mark.get_y() + 0.5), bold.get_position())
        (path,) = [c for c in ax.collections if c.get_gid() == "path"]
        assert path.pooltutor_arrows and not any(adj for *_, adj in path.pooltutor_arrows)
    # the blitted PNG is the figure drawn whole in one pass (a saved figure, the greyed
    # error picture): every title line once, the same stacking
    e.stride.value = 3
    assert e._background is background
    assert np.array_equal(pixels(e.png), pixels(figure_png(e.figure)))


def test_big_cells_keep_the_marks_and_arrows():
    big = IndexLayoutExplorer(dpi=LOW)                 # TV22
    ax = big.plot.layout_axes["plane"]
    (mark,) = [p for p in ax.patches if p.get_gid() == "winner"]
    assert mark.get_width() == pytest.approx(0.84) and mark.get_path_effects()
    (path,) = [c for c in ax.collections if c.get_gid() == "path"]
    assert any(adj for *_, adj in path.pooltutor_arrows)


def test_static_plot_draws_every_title_line():
    p = plot_index_layouts(np.arange(36.0).reshape(1, 1, 6, 6), 2, 2, out_index=(1, 2),
                           table=False)
    p.figure.set_dpi(LOW)
    ax = p.layout_axes["tensor"]
    first = pixels(figure_png(p.figure))
    users = ax.get_title().splitlines()[1]
    ax.title.set_text(ax.get_title().replace(users, "someone else"))
    assert not np.array_equal(pixels(figure_png(p.figure)), first)


@pytest.mark.parametrize("weight", ["normal", "bold"])
def test_composed_lines_are_textpath_outlines(weight):
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    prop = FontProperties(weight=weight, size=9)
    for s in ["'tensor_colmajor': winner \u2192 165", "rounding='floor', fi AV To  x",
              "winner of output (0, 0, 3, 5): (n, c, h, w) = (0, 0, 5, 10)", " 7", "x "]:
        verts, codes, box = Glyphs.line(s, prop)
        path = TextPath((0, 0), s, size=9, prop=prop)
        assert np.allclose(verts * 9 / 100, path.vertices, atol=1e-9), s
        assert np.array_equal(codes, path.codes), s
        assert np.allclose(box, (*np.sort(verts[:, 0])[[0, -1]], *np.sort(verts[:, 1])[[0, -1]]))


def test_move_index_layouts_with_another_pooling():
    x = np.arange(36.0).reshape(1, 1, 6, 6)
    p = plot_index_layouts(x, 2, 2, padding=1, out_index=(0, 0), table=False)
    q = move_index_layouts(p, (1, 1), result=max_pool(x, 3, 1, padding=1, return_indices=True))
    ref = plot_index_layouts(x, 3, 1, padding=1, out_index=(1, 1), table=False)
    assert (q.position, dict(q.numbers)) == (ref.position, dict(ref.numbers))
    assert q.figure._suptitle.get_text() == ref.figure._suptitle.get_text()
    # another padding draws another input panel: not moved
    assert move_index_layouts(q, (0, 0), result=max_pool(x, 3, 1, return_indices=True)) is None
    assert move_index_layouts(q, (0, 0), result=max_pool(x + 1, 3, 1, padding=1,
                                                         return_indices=True)) is None
    with pytest.raises(TypeError, match="result="):
        move_index_layouts(q, (0, 0), result="pooling")
    with pytest.raises(PoolTutorError, match="return_indices"):
        move_index_layouts(q, (0, 0), result=max_pool(x, 3, 1, padding=1))
