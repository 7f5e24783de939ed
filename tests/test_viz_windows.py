"""Window and padding-mode plots, and the explorers built on pooltutor.viz.explorer.

What is drawn is checked through artist gids ("window", "winner", "output",
"padding", "dropped", ...), texts, titles and colour limits; the explorers
by setting control values and reading the new state, figure and labels.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import warnings

import numpy as np
import pytest

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.geometry import pool_geometry
from pooltutor.indexing import to_plane
from pooltutor.pooling import avg_pool, max_pool
from pooltutor.viz import style
from pooltutor.viz.explorer import (
    BandPngEncoder,
    Explorer,
    figure_png,
    frames_widget,
    new_figure,
    rgba_png,
)
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
from pooltutor.viz.padding_explorer import MODE_SETS, PaddingModeExplorer, padding_mode_frames
from pooltutor.padding_modes import mode_geometry
from pooltutor.viz.window_stepper import WindowStepper, demo_input, window_stepper_frames

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
            cells += list(coll.pooltutor_cells)
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


# ----------------------------------------------------------------------------- plot_pooling


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
    assert len(p.padding.pooltutor_cells) == 20 == len(_cells(p.input_ax, "padding"))
    assert p.padding.get_hatch() == style.PAD_HATCH
    assert (-1, -1) in _cells(p.input_ax, "padding") and (0, 0) not in _cells(p.input_ax,
                                                                              "padding")
    assert set(_texts(p.input_ax, "padding-text")) == {"skip"}
    assert len(_texts(p.input_ax, "value")) == 16
    # output: value texts, the highlighted cell, shared colour limits
    assert _texts(p.output_ax, "value") == ["0", "2", "3", "8", "10", "11", "12", "14", "15"]
    assert _centres(_gid(p.output_ax, "output")) == [(1, 2)]
    assert p.input_image.get_clim() == p.output_image.get_clim() == (0.0, 15.0)
    title = [t.get_text() for t in p.figure.texts if t.get_gid() == "title"][0]
    assert title == "max pool: kernel=2, stride=2, pad=1, rounding='ceil_torch'"
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


# ----------------------------------------------------------------------------- padding modes
# (the plot's tests: tests/viz/test_padding_modes_plot.py)


# ----------------------------------------------------------------------------- explorer base


class _Toy(Explorer):
    def __init__(self):
        import ipywidgets as widgets

        self.n = widgets.IntSlider(value=1, min=-5, max=5)
        super().__init__(controls=[[self.n]], figsize=(2, 2), dpi=40)
        self.watch(self.n)
        self.safe_update()

    def draw(self):
        if self.n.value == -1:
            raise PoolTutorError("n=-1 is not allowed")
        if self.n.value == -2:
            raise KeyError("boom")
        if self.n.value == -3:
            warnings.warn("careful", UserWarning, stacklevel=2)
        self.figure.clear()
        self.figure.add_subplot().set_title(str(self.n.value))
        return {"n": self.n.value}


def test_explorer_guard_shows_reasons_and_greys_the_picture():
    e = _Toy()
    good = bytes(e.image.value)
    assert _png_ok(good) and e.error is None and e.state == {"n": 1}
    e.n.value = -1
    assert e.error == "n=-1 is not allowed" and "n=-1 is not allowed" in e.error_label.value
    assert _png_ok(e.image.value) and bytes(e.image.value) != good     # greyed
    assert e.state == {"n": 1}
    e.n.value = -2
    assert e.error.startswith("internal error KeyError") and "please report" in e.error
    e.n.value = -3
    assert e.error is None and "careful" in e.note_label.value and e.warnings == ["careful"]
    e.n.value = 2
    assert e.note_label.value == "" and e.error_label.value == ""
    assert "application/vnd.jupyter.widget-view+json" in e._repr_mimebundle_()


def test_png_helpers_and_frames_widget():
    import io

    from PIL import Image

    fig = new_figure((1, 0.5), dpi=20)
    fig.patch.set_facecolor("#ff0000")
    png = figure_png(fig)
    img = np.asarray(Image.open(io.BytesIO(png)))
    assert img.shape == (10, 20, 3) and (img == [255, 0, 0]).all()
    rgba = np.zeros((2, 3, 4), dtype=np.uint8)
    rgba[1, 2] = (1, 2, 3, 255)
    img = np.asarray(Image.open(io.BytesIO(rgba_png(rgba))))
    assert img[1, 2].tolist() == [1, 2, 3] and img[0, 0].tolist() == [0, 0, 0]
    fw = frames_widget([png, png], ["a", "b"])
    assert fw.play is not None and fw.slider.max == 1 and len(fw.links) == 3
    sources = {(link.source[0], link.source[1], link.target[0], link.target[1])
               for link in fw.links}
    assert (fw.slider, "value", fw.stack, "selected_index") in sources
    assert (fw.play, "value", fw.slider, "value") in sources
    with pytest.raises(ValueError, match="frames=\\[\\]"):
        frames_widget([])
    with pytest.raises(ValueError, match="labels has 1 entries"):
        frames_widget([png, png], ["a"])


def test_band_encoder_reuses_unchanged_bands_and_decodes_to_the_canvas():
    """Every PNG of a run of small edits equals a fresh encoder's bytes (all bands anew) and
    decodes (Pillow) to the RGB of the buffer; only the edited bands are redone."""
    import io

    from PIL import Image

    rng = np.random.default_rng(6)
    enc = BandPngEncoder(band_rows=8)
    img = rng.integers(0, 256, size=(45, 13, 4), dtype=np.uint8)
    for step in range(10):
        if step == 6:                                        # another size: all bands anew
            img = rng.integers(0, 3, size=(20, 9, 4), dtype=np.uint8)
        elif step:
            r = int(rng.integers(0, img.shape[0]))
            img[r, rng.integers(0, img.shape[1]), rng.integers(0, 3)] += 1
        png = enc.encode(memoryview(img) if step % 2 else img)   # a canvas gives a memoryview
        assert png == BandPngEncoder(band_rows=8).encode(img)
        bands = -(-img.shape[0] // 8)
        assert enc.reused == (0 if step in (0, 6) else bands - 1)
        decoded = np.asarray(Image.open(io.BytesIO(png)))
        assert decoded.shape == img.shape[:2] + (3,) and (decoded == img[..., :3]).all()
    with pytest.raises(ValueError, match=r"rgba has shape \(2, 3\) and dtype uint8"):
        enc.encode(np.zeros((2, 3), dtype=np.uint8))


# ----------------------------------------------------------------------------- WindowStepper


def test_window_stepper_wiring():
    s = WindowStepper(np.arange(16.0).reshape(4, 4), window=2, stride=2, padding=1,
                      rounding="ceil_torch")
    assert s.output_shape == (3, 3) and s.position.max == 8 == s.play.max
    s.position.value = 5
    assert s.out_index == (1, 2) and s.state["value"] == 11.0 and s.state["winner"] == (2, 3)
    assert s.explain_text == s.result.explain(1, 2)
    assert "output[0, 0, 1, 2] = 11.0" in s.explain_box.value
    assert _centres(s.plot.window) == [(1, 3), (1, 4), (2, 3), (2, 4)]
    s.next_button.click()
    assert s.out_index == (2, 0)
    s.prev_button.click()
    s.prev_button.click()
    assert s.out_index == (1, 1)
    s.position.value = 8
    s.next_button.click()                                    # clamped at the last position
    assert s.out_index == (2, 2)
    # a parameter change redraws; the output cell is kept where it still exists
    s.stride.value = 1
    assert s.output_shape == (5, 5) and s.position.max == 24 and s.out_index == (2, 2)
    assert s.state["params"]["stride"] == 1
    assert s.plot.figure is s.figure and _png_ok(s.image.value)


def test_cached_heatmaps_and_legend_keep_the_pixels_of_a_full_draw(monkeypatch):
    from matplotlib.image import AxesImage
    from matplotlib.legend import Legend

    calls = {"image": 0, "legend": 0}
    image_draw, legend_draw = AxesImage.draw, Legend.draw

    def counted_image(self, *args, **kw):
        calls["image"] += 1
        return image_draw(self, *args, **kw)

    def counted_legend(self, *args, **kw):
        calls["legend"] += 1
        return legend_draw(self, *args, **kw)

    monkeypatch.setattr(AxesImage, "draw", counted_image)
    monkeypatch.setattr(Legend, "draw", counted_legend)
    x = (np.arange(81.0) % 7).reshape(9, 9)
    e = WindowStepper(x, window=3, stride=2, padding=1, dpi=50)
    steps = [("stride", 1), ("stride", 3), ("stride", 2), ("pad_after", 0), ("pad_before", 0),
             ("stride", 1), ("pad_before", 1), ("op", "avg"), ("stride", 2)]
    resampled = {}
    for name, value in steps:
        calls.update(image=0, legend=0)
        getattr(e, name).value = value
        assert e.error is None
        if name == "stride":      # same legend: pasted, not drawn again
            assert calls["legend"] == 0, (name, value)
            resampled[value] = calls["image"]
        with monkeypatch.context() as m:           # the same picture drawn with no cache
            m.setattr(style, "cache_images", lambda fig: 0)
            m.setattr(style, "cache_legends", lambda fig: 0)
            m.setattr(style, "cache_axis_ticks", lambda fig: 0)
            fresh = WindowStepper(x, window=3, stride=e.stride.value, op=e.op.value, dpi=50,
                                  padding=(e.pad_before.value, e.pad_after.value))
            fresh.position.value = e.position.value
            assert "draw" not in vars(fresh.figure.legends[0])
        assert e.png == fresh.png, (name, value)
    # a stride change keeps the input panel: only the output heatmap is drawn again
    assert resampled[2] == 1 and set(resampled.values()) <= {1, 2}, resampled


def test_window_stepper_invalid_combinations_show_reasons():
    s = WindowStepper(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    good = bytes(s.image.value)
    s.dilation.value = 3                                     # dilated window 4 > 3
    assert "does not fit" in s.error and "does not fit" in s.error_label.value
    assert bytes(s.image.value) != good and s.output_shape == (2, 2)    # old picture, greyed
    s.position.value = 1                                     # still invalid, still no raise
    assert s.error is not None
    s.dilation.value = 1
    assert s.error is None
    s.limits.value = "PyTorch"
    s.pad_before.value = 2
    assert "symmetric" in s.error
    s.pad_after.value = 2
    assert "at most half of kernel size" in s.error
    s.window.value = 4
    assert s.error is None and s.output_shape == (4, 4)      # (3 + 2 + 2 - 4) / 1 + 1
    s.rounding.value = "ceil"
    assert "not a PyTorch rule" in s.error


def _expected_stepper_error(size, k, st, d, pb, pe, rounding, limits):
    if limits == "PyTorch" and (pb != pe or pb > k // 2 or rounding not in ("floor",
                                                                            "ceil_torch")):
        return "PyTorch"
    try:
        pool_geometry((size,), k, st, [(pb, pe)], d, rounding)
    except PoolTutorError:
        return "does not fit"
    return None


def test_window_stepper_sweep_never_raises():
    """A small grid of every control, sampled: nothing escapes; every refusal is explained."""
    s = WindowStepper(ndim=1, size=3)
    s.render = lambda: b""                    # the sweep checks logic; rendering is tested above
    values = dict(size=(1, 2, 4), window=(1, 2, 3), stride=(1, 2, 3), dilation=(1, 2),
                  pad_before=(0, 1, 3), pad_after=(0, 2), rounding=tuple(s.rounding.options),
                  pad_taps=tuple(s.pad_taps.options), op=("max", "avg"),
                  limits=tuple(s.limits.options))
    names = list(values)
    combos = list(itertools.product(*values.values()))
    rng = np.random.default_rng(6)
    picked = [combos[i] for i in rng.choice(len(combos), size=60, replace=False)]
    for combo in picked:
        s._syncing = True
        for name, v in zip(names, combo, strict=True):
            getattr(s, name).value = v
        s._syncing = False
        s.safe_update()
        p = dict(zip(names, combo, strict=True))
        expected = _expected_stepper_error(p["size"], p["window"], p["stride"], p["dilation"],
                                           p["pad_before"], p["pad_after"], p["rounding"],
                                           p["limits"])
        if expected is None:
            assert s.error is None, (p, s.error)
            g = pool_geometry((p["size"],), p["window"], p["stride"],
                              [(p["pad_before"], p["pad_after"])], p["dilation"], p["rounding"])
            assert s.output_shape == g.output_shape and s.position.max == g.output_shape[0] - 1
            assert s.explain_text.startswith("output[0, 0,")
        else:
            assert s.error is not None and (expected in s.error or "PyTorch" in s.error), p
            assert not s.error.startswith("internal error"), s.error
        # stepping through every position of a valid picture raises nothing either
        if s.error is None:
            for position in sorted({s.position.max, s.position.max // 2, 0}):
                s.position.value = position
                assert s.error is None and s.out_index == (position,)


def test_window_stepper_kernel_free_frames():
    fw = window_stepper_frames(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    assert len(fw.stack.children) == 4 and fw.slider.max == 3
    assert all(_png_ok(img.value) for img in fw.stack.children)
    assert fw.labels[3].startswith("output[0, 0, 1, 1] = 8.0")
    s = WindowStepper(np.arange(5.0), window=2, stride=2, padding=1, rounding="ceil_torch")
    s.position.value = 1
    fw = s.static_widget()
    assert len(fw.labels) == 3 and s.position.value == 1    # the live stepper is put back
    assert demo_input((2, 3)).tolist() == [[8.0, 6.0, 5.0], [2.0, 3.0, 0.0]]
    with pytest.raises(PoolTutorError, match="need 1 or 2"):
        WindowStepper(ndim=3)
    with pytest.raises(PoolTutorError, match="rounding='round'"):
        WindowStepper(rounding="round")


# ----------------------------------------------------------------------------- PaddingModeExplorer


def test_padding_explorer_wiring():
    e = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2)
    assert e.state["output_sizes"] == {"EXPLICIT_ROUND_DOWN": 5, "EXPLICIT_ROUND_UP": 5,
                                       "SAME_UPPER": 3, "SAME_LOWER": 3, "CAFFE_ROUND_DOWN": 5,
                                       "CAFFE_ROUND_UP": 5}
    assert e.explain_text.startswith("Pooling with TensorRT padding mode EXPLICIT_ROUND_DOWN")
    e.explain_mode.value = "SAME_UPPER"
    assert "B = floor(" in e.explain_text
    e.pre_padding.value = 4
    assert e.state["rejected"].keys() == {"CAFFE_ROUND_UP"} and e.error is None
    e.explain_mode.value = "CAFFE_ROUND_UP"
    assert e.explain_text.startswith("CAFFE_ROUND_UP rejects these parameters")
    e.mode_set.value = "engine rules"
    assert e.explain_mode.options == MODE_SETS["engine rules"]
    assert e.explain_mode.value == "floor" and list(e.state["output_sizes"]) == \
        list(MODE_SETS["engine rules"])
    assert e.explain_text.startswith("rounding 'floor'")
    e.window.value = 7                                       # fits M = 6+4+2 = 12
    assert e.state["output_sizes"]["floor"] == 3
    e.stride.value = 1                                       # ceil rules keep a window that
    e.pre_padding.value = 0                                  # overhangs by less than S
    e.post_padding.value = 0                                 # 7 > M = 6: every rule rejects
    assert set(e.state["rejected"]) == set(MODE_SETS["engine rules"])
    assert all("does not fit" in r for r in e.state["rejected"].values())
    assert e.plot.figure is e.figure and _png_ok(e.image.value)


def test_padding_explorer_sweep_never_raises():
    e = PaddingModeExplorer()
    e.render = lambda: b""
    values = dict(input_size=(1, 2, 5), window=(1, 2, 3), stride=(1, 2, 3), dilation=(1, 2),
                  pre_padding=(0, 1, 4), post_padding=(0, 2))
    combos = list(itertools.product(*values.values(), MODE_SETS))
    rng = np.random.default_rng(7)
    for i in rng.choice(len(combos), size=45, replace=False):
        *numbers, mode_set = combos[i]
        e._syncing = True
        for widget, v in zip(e.params, numbers, strict=True):
            widget.value = v
        e.mode_set.value = mode_set
        e._syncing = False
        e.safe_update()
        assert e.error is None, (combos[i], e.error)
        i_, f, s, d, b, a = numbers
        for mode in MODE_SETS[mode_set]:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = mode_geometry(mode, i_, f, s, pre_padding=b, post_padding=a,
                                             dilation=d).output_size
            except PoolTutorError as exc:
                expected = None
                assert e.state["rejected"][mode] == str(exc)
            assert e.state["output_sizes"][mode] == expected, (combos[i], mode)


def test_padding_explorer_kernel_free_frames():
    fw = padding_mode_frames({"Example 2": (6, 3, 2, 3, 3, 1), "B=4": (6, 3, 2, 4, 2, 1)},
                             input_size=5)
    assert len(fw.stack.children) == 2 and fw.labels[0] == "Example 2: I=6, F=3, S=2, B=3, A=3"
    assert all(_png_ok(img.value) for img in fw.stack.children)
    e = PaddingModeExplorer(input_size=4)
    e.static_widget({"one": (7, 2, 2, 1, 1, 1)})
    assert e.input_size.value == 4                           # controls put back


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
