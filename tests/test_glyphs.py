"""pooltutor.viz.glyphs: the one text engine draws matplotlib's outlines where matplotlib
puts its text."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.textpath import TextPath  # noqa: E402

from pooltutor.viz import glyphs, style  # noqa: E402
from pooltutor.viz.glyphs import Glyphs, GlyphText, cell_path, glyph_texts  # noqa: E402

STRINGS = ["AV", "To AVA", "pooled[0, 0] = -116 (int8 code)", "fi fl ffi", "  x  ", "\u22120.16",
           "winner \u2192 165", "Wolf"]


@pytest.mark.parametrize("weight", ["normal", "bold"])
@pytest.mark.parametrize("s", STRINGS)
def test_a_line_is_textpaths_outline(weight, s):
    prop = FontProperties(weight=weight, size=9)
    verts, codes, box = Glyphs.line(s, prop)
    path = TextPath((0, 0), s, size=9, prop=prop)
    assert np.allclose(verts * 9 / 100, path.vertices, atol=1e-9)
    assert np.array_equal(codes, path.codes)
    assert np.allclose(Glyphs.path(s, prop).vertices, path.vertices, atol=1e-9)
    assert np.allclose(box, (*np.sort(verts[:, 0])[[0, -1]], *np.sort(verts[:, 1])[[0, -1]]))


def test_kerning_pairs_are_kerned():
    prop = FontProperties(size=100)
    av = Glyphs.line("AV", prop)[0][:, 0].max()
    a_v = Glyphs.line("A", prop)[0][:, 0].max() + Glyphs.line("V", prop)[0][:, 0].max()
    assert av < a_v            # "AV" is narrower than its letters side by side


def test_a_missing_glyph_falls_back_as_textpath_does():
    prop = FontProperties(size=9)
    for s in ["a\U0001F600b", "x\u4e2d"]:       # no such glyphs in DejaVu Sans
        verts, codes, _ = Glyphs.line(s, prop)
        path = TextPath((0, 0), s, size=9, prop=prop)
        assert np.allclose(verts * 9 / 100, path.vertices, atol=1e-9)
        assert np.array_equal(codes, path.codes)


def test_cell_paths_are_placed():
    centred = cell_path(("-12", 9, "center", 0.0, 0.0, False)).vertices
    assert centred[:, 0].min() == pytest.approx(-centred[:, 0].max())
    right = cell_path(("-12", 9, "right", 2.0, 1.0, True)).vertices
    assert right[:, 0].max() == pytest.approx(1.0)
    squeezed = cell_path(("-12", 9, "center", 0.0, 0.0, False), 0.5).vertices
    assert np.allclose(squeezed[:, 0], centred[:, 0] * 0.5)
    assert style.TextCollection.glyphs(("-12", 9, "center", 0.0, 0.0, False)).vertices is \
        cell_path(("-12", 9, "center", 0.0, 0.0, False)).vertices
    assert len(cell_path((" ", 9, "center", 0.0, 0.0, False)).vertices) == 0


def _ink_box(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    img = np.asarray(canvas.buffer_rgba())[..., :3].min(axis=2)
    rows, cols = np.nonzero(img < 200)
    return rows.min(), rows.max(), cols.min(), cols.max()


@pytest.mark.parametrize("kw", [
    {"ha": "left", "va": "baseline"},
    {"ha": "center", "va": "center"},
    {"ha": "right", "va": "top", "fontweight": "bold"},
    {"ha": "center", "va": "bottom", "multialignment": "center"},
    {"ha": "left", "va": "center_baseline"},
])
@pytest.mark.parametrize("s", ["AV Wolf\u2192 -116", "a title\nwith two lines (g, y)",
                               "one\n\nthree"])
def test_a_glyph_text_inks_where_the_text_does(kw, s):
    boxes = []
    for switch in (False, True):
        fig = Figure(figsize=(3, 1.5), dpi=100)
        t = fig.text(0.5, 0.5, s, fontsize=11, **kw)
        if switch:
            assert glyph_texts(fig) == 1 and type(t) is GlyphText
        boxes.append(_ink_box(fig))
    assert np.abs(np.subtract(*boxes)).max() <= 2, boxes


def test_rotated_and_math_texts_go_through_text_draw():
    fig = Figure(figsize=(2, 2), dpi=50)
    rotated = fig.text(0.5, 0.5, "AV", rotation=90)
    math = fig.text(0.2, 0.2, "$x^2$")
    glyph_texts([rotated, math])
    renderer = FigureCanvasAgg(fig).get_renderer()
    assert rotated.placed_lines(renderer) is None and math.placed_lines(renderer) is None
    a = _ink_box(fig)
    rotated.__class__ = math.__class__ = Text
    assert np.abs(np.subtract(a, _ink_box(fig))).max() <= 2


def test_batched_texts_draw_the_texts_pixel_for_pixel():
    def picture(batched):
        fig = Figure(figsize=(2, 1), dpi=60)
        canvas = FigureCanvasAgg(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        texts = [fig.text(0.1, 0.6, "AV -116", color="red"), fig.text(0.1, 0.2, "x\ny")]
        labels = style.TextCollection()
        labels.add(0.7, 0.5, "12", 9)
        coll = labels.draw(ax)
        glyph_texts(texts)
        if batched:
            batch = glyphs.batched_texts([*texts, coll])
            for a in (*texts, coll):
                a.set_visible(False)
            canvas.draw()
            for a in (*texts, coll):
                a.set_visible(True)
            batch.draw(canvas.get_renderer())
        else:
            canvas.draw()
        return np.asarray(canvas.buffer_rgba()).copy()

    assert np.array_equal(picture(True), picture(False))
