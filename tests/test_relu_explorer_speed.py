"""The ZeroPointReluExplorer's fast update path draws exactly what a fresh explorer draws.

A parameter change (zero point, scale, multiplier, rounding, pooled cell) changes the
drawn artists in place and redraws only them over a cached background (blitting); a
change of structure (accumulators, dtype, pool) keeps the Axes, changes or rebuilds only
what it changes and draws the figure again, laid out again only when a margin changed.
Each step here compares the PNG after the fast path with the PNG of an explorer made
directly with the same controls, pixel for pixel, including invalid combinations (the
error label path) in between.  The public in-place functions (``update_zero_point_relu``,
``update_quant_chain``) are compared with fresh static plots the same way.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from pooltutor.quant import relu_max_pool_chain  # noqa: E402
from pooltutor.viz import style  # noqa: E402
from pooltutor.viz.explorer import figure_png, new_figure  # noqa: E402
from pooltutor.viz.relu_explorer import ZeroPointReluExplorer  # noqa: E402
from pooltutor.viz.zero_point import (  # noqa: E402
    plot_quant_chain,
    plot_zero_point_relu,
    update_quant_chain,
    update_zero_point_relu,
)

LOW = 24                                    # dpi: the same code path, fewer pixels
CONSTRUCTOR = ("preset", "multiplier", "zero_point", "dtype", "scale", "rounding", "kernel",
               "stride")


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def static_figure(figsize, dpi=LOW):
    """A figure for the static plots whose Axes stay where the grid puts them (constrained
    layout would move them a little at every draw, from where the last draw left them)."""
    fig = new_figure(figsize, dpi, layout="constrained")
    fig.set_layout_engine("none")
    return fig


def drawn(fig) -> np.ndarray:
    return pixels(figure_png(fig))


def controls(e) -> dict:
    values = {name: getattr(e, name).value for name in CONSTRUCTOR}
    values["cell"] = e.out_index
    return values


def fresh(values: dict, dpi: float) -> ZeroPointReluExplorer:
    """An explorer made directly with ``values`` (its pooled cell drawn in a full
    drawing, not moved there)."""
    f = ZeroPointReluExplorer(**{k: values[k] for k in CONSTRUCTOR}, dpi=dpi)
    if values["cell"] != (0, 0):
        redraw(f, values)
    assert f.error is None and f.out_index == values["cell"]
    return f


def redraw(f, values: dict) -> None:
    """Draw ``f`` anew with ``values``: the full drawing a new explorer makes (its Axes
    kept; laid out from the grid, as a new figure is)."""
    with f._hold():
        for name in CONSTRUCTOR:
            if name != "zero_point":
                getattr(f, name).value = values[name]
    f._sync_bounds()
    with f._hold():
        f.zero_point.value = values["zero_point"]
        f.cell[0].value, f.cell[1].value = values["cell"]
    f._structure = None
    f.safe_update()


_REFERENCE: dict = {}


def assert_same_picture(e, what: str, *, new: bool = False) -> None:
    """The PNG of ``e`` is the PNG of a full drawing of its controls: by a new explorer
    (``new``), or by a reference explorer drawn anew for them (the same drawing, made
    cheaper: a new explorer also makes its widgets and its Axes)."""
    assert e.error is None, (what, e.error)
    values, dpi = controls(e), e.figure.dpi
    f = _REFERENCE.get(dpi)
    if new or f is None:
        f = _REFERENCE[dpi] = fresh(values, dpi)
    else:
        redraw(f, values)
    got, want = pixels(e.png), pixels(f.png)
    assert got.shape == want.shape, what
    differ = np.any(got != want, axis=-1)
    assert not differ.any(), f"{what}: {int(differ.sum())} pixels differ from a fresh explorer"
    assert e.state == f.state and e.explain_text == f.explain_text, what


def set_controls(e, **changes) -> None:
    """Set controls as the browser would, several at once with one redraw."""
    cell = changes.pop("cell", None)
    with e._hold():
        for name, value in changes.items():
            getattr(e, name).value = value
    e._on_change()
    if cell is not None:
        with e._hold():
            e.cell[0].value, e.cell[1].value = cell
        e._on_change()


def count_full_draws(e):
    """Count the full canvas draws (the background) from now on."""
    canvas = e.figure.canvas
    calls = []
    draw = canvas.draw
    canvas.draw = lambda *a, **k: (calls.append(1), draw(*a, **k))[1]
    return calls


SEQUENCES = {
    # int8: a negative zero point, the literal 0 (no code-0 line), the ends of the range
    # (nothing raised, everything raised), the scale, the multiplier and the rounding
    "zero points and scales": ("4x4 mixed", "int8", -20, [
        dict(zero_point=0), dict(zero_point=127, scale=2.0),
        dict(multiplier=0.25, zero_point=-128, rounding="half_away")]),
    # the pooled cell moves the windows, winners and highlights
    "pooled cells": ("4x4 ties (rounding)", "uint8", 128, [
        dict(cell=(1, 1)), dict(cell=(0, 1), zero_point=0, scale=10.0)]),
    # invalid combinations in between (shown in the error label, the picture kept), and
    # changes of structure (drawn anew) followed by fast updates
    "errors and structure": ("all negative (TV31)", "uint8", 128, [
        dict(kernel=3, invalid=True), dict(zero_point=110, invalid=True), dict(kernel=2),
        dict(dtype="int8"), dict(zero_point=-60), dict(preset="3x3 (floor: one output)"),
        dict(kernel=1, stride=1, zero_point=-1, cell=(2, 1)),
        dict(kernel=4, invalid=True), dict(zero_point=30, kernel=3)]),
}


# changes of structure, each drawn by the fast structure paths (the Axes kept; the static
# artists changed in place or only the code panels drawn again; laid out again only when a
# margin or the grid changed): dtype both ways (negative zero points too), every preset
# (same shape and other shapes), pools that keep or change the pooled shape, invalid pools
STRUCTURE_SEQUENCES = {
    "dtypes and presets": ("4x4 mixed", "uint8", 100, [
        dict(dtype="int8", zero_point=-20), dict(dtype="uint8", zero_point=3),
        dict(preset="4x4 ties (rounding)"), dict(dtype="int8", zero_point=-128),
        dict(preset="seed 003 (TV29)"), dict(preset="all negative (TV31)", zero_point=-1),
        dict(dtype="uint8", zero_point=255), dict(preset="3x3 (floor: one output)"),
        dict(preset="4x4 mixed", dtype="int8", zero_point=0, cell=(1, 0))]),
    "pools": ("4x4 mixed", "int8", -60, [
        dict(kernel=3), dict(kernel=2, stride=1, cell=(2, 1)), dict(kernel=3, stride=1),
        dict(preset="seed 003 (TV29)", invalid=True), dict(kernel=1), dict(stride=3),
        dict(preset="4x4 mixed", kernel=4, stride=4),
        dict(dtype="uint8", zero_point=128, kernel=2, stride=2),
        dict(preset="3x3 (floor: one output)", kernel=4, invalid=True),
        dict(kernel=3), dict(kernel=2, stride=1, dtype="int8", zero_point=5)]),
}
#: the steps checked against a new explorer (the others against one drawn anew)
NEW_AT = {("dtypes and presets", 0), ("dtypes and presets", 7), ("pools", 2), ("pools", 10)}


@pytest.mark.parametrize("name", list(STRUCTURE_SEQUENCES))
def test_structure_changes_draw_what_a_fresh_explorer_draws(name):
    preset, dtype, zp, steps = STRUCTURE_SEQUENCES[name]
    e = ZeroPointReluExplorer(preset=preset, dtype=dtype, zero_point=zp, dpi=LOW)
    axes = list(e.figure.axes)
    layouts = []
    relayout = e._relayout
    e._relayout = lambda: (layouts.append(1), relayout())[1]
    for k, step in enumerate(steps):
        step = dict(step)
        invalid = step.pop("invalid", False)
        set_controls(e, **step)
        if invalid:
            assert e.error is not None and "does not fit" in e.error, (k, step)
            assert e.image.value != e.png
            continue
        assert list(e.figure.axes) == axes, (k, step)       # every Axes kept
        assert_same_picture(e, f"{name}: step {k} {step}", new=(name, k) in NEW_AT)
        if k % 3 == 1:                                      # then a fast update
            set_controls(e, zero_point=e.zero_point.min + 7, scale=3.0)
            assert_same_picture(e, f"{name}: step {k} then a zero point")
    assert 0 < len(layouts) < len(steps)        # some changes kept the layout, some not


def test_a_dtype_change_keeps_the_artists_and_the_layout():
    """At the explorer's resolution: int8 <-> uint8 changes the artists in place, draws
    the figure once and lays nothing out again; so does a pool of the same pooled size
    (k=2 s=2 -> k=3 s=2 -> k=3 s=1, all on 4x4 accumulators)."""
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100)
    t = e.relu_plot._parts.transfer
    keep = (t.legend[0], t.identity, t.ylabels, e.chain_plot._parts.acc_labels)
    layouts = []
    relayout = e._relayout
    e._relayout = lambda: (layouts.append(1), relayout())[1]
    full = count_full_draws(e)
    for k, dtype in enumerate(("int8", "uint8", "int8")):
        e.dtype.value = dtype
        assert len(full) == k + 1 and layouts == []
    t = e.relu_plot._parts.transfer
    assert (t.legend[0], t.identity, t.ylabels, e.chain_plot._parts.acc_labels) == keep
    assert e.relu_plot.line_ax.get_xlabel() == "input code q (int8, -128 .. 127)"
    assert_same_picture(e, "int8 at 80 dpi", new=True)
    e.zero_point.value = -20
    e.kernel.value = 3
    e.stride.value = 1
    assert layouts == []
    assert_same_picture(e, "k=3 s=1 at 80 dpi")


@pytest.mark.parametrize("name", list(SEQUENCES))
def test_fast_updates_draw_what_a_fresh_explorer_draws(name):
    preset, dtype, zp, steps = SEQUENCES[name]
    e = ZeroPointReluExplorer(preset=preset, dtype=dtype, zero_point=zp, dpi=LOW)
    assert_same_picture(e, f"{name}: start", new=LOW not in _REFERENCE)
    for k, step in enumerate(steps):
        step = dict(step)
        invalid = step.pop("invalid", False)
        set_controls(e, **step)
        if invalid:                         # refused: the reason shown, the picture greyed
            assert e.error is not None and "does not fit" in e.error, (k, step)
            assert e.image.value != e.png
            continue
        assert_same_picture(e, f"{name}: step {k} {step}")


def test_the_benchmark_update_at_full_resolution_and_what_it_redraws():
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100)
    full = count_full_draws(e)
    for zp in (90, 128, 100, 17):
        e.zero_point.value = zp
        if zp in (128, 17):
            assert_same_picture(e, f"zero point {zp}", new=zp == 128)
    assert full == []                       # blitted: the background was not drawn again
    # what is redrawn is a short list (panels, lines, one text stand-in), not the figure
    assert 20 <= len(e.animated) <= 50
    e.dtype.value = "int8"                  # a change of structure: drawn anew, once
    assert len(full) == 1
    assert_same_picture(e, "int8")


def test_updates_without_rendering_then_one_render():
    """The sweeps stub out the rendering of intermediate updates: the next render must
    still show the current values (a rebuild in between included)."""
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    render = e.render
    e.render = lambda: b""
    try:
        for step in (dict(zero_point=20), dict(dtype="int8"), dict(zero_point=-3),
                     dict(scale=3.0)):
            set_controls(e, **step)
    finally:
        e.render = render
    e.safe_update()
    assert_same_picture(e, "after unrendered updates")


def test_greyed_picture_after_an_error_is_the_full_drawing():
    e = ZeroPointReluExplorer(preset="3x3 (floor: one output)", zero_point=100, dpi=LOW)
    good = pixels(e.png)
    e.kernel.value = 4                      # does not fit 3x3
    assert e.error is not None and "kernel" in e.error
    grey = pixels(bytes(e.image.value))
    # the kept picture under a white veil: lighter everywhere it was not white
    assert grey.shape == good.shape and (grey >= good).all() and (grey > good).any()
    e.kernel.value = 2
    assert_same_picture(e, "back after the error")



def test_the_kept_lower_layer_is_drawn_again_when_it_changes():
    """A zero-point change that moves no code out of range keeps the lower blitted layer
    (cell colours, real values, outlines, marks): its copy is restored, the rest drawn
    over it.  A change of those (scale: other real values; a pooled cell: other marks; a
    zero point that clamps codes; an error and back; a structure change) draws it again.
    Every picture is a fresh explorer's."""
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    layers = []
    steps = [(dict(zero_point=90), False), (dict(zero_point=128), True),
             (dict(scale=2.0), False), (dict(zero_point=100), True),
             (dict(cell=(1, 0)), False), (dict(zero_point=20), False),   # 4x4 mixed: -30 + 20
             (dict(preset="seed 003 (TV29)", kernel=3, invalid=True), None),
             (dict(preset="4x4 mixed", kernel=2), True),      # what is drawn: kept
             (dict(zero_point=110), False), (dict(zero_point=120), True),
             (dict(dtype="int8", zero_point=-5), False),
             # int8, zp < 0: the wrong ReLU raises codes to 0, real (0 - zp)*s: redrawn
             (dict(zero_point=-15), False), (dict(zero_point=-25), False),
             (dict(zero_point=40), False), (dict(zero_point=50), True),
             (dict(multiplier=0.5), False),
             (dict(rounding="half_away", zero_point=-10), None)]
    for k, (step, kept) in enumerate(steps):
        step = dict(step)
        invalid = step.pop("invalid", False)
        before = e._lower
        set_controls(e, **step)
        if invalid:
            assert e.error is not None and "does not fit" in e.error, (k, step)
            continue
        if kept is not None:
            assert (e._lower is before) == kept, (k, step)
        layers.append(e._lower[2] if e._lower is not None else None)
        assert_same_picture(e, f"layers: step {k} {step}")
    assert e._lower is not None and len({id(x) for x in layers}) < len(layers)


# --------------------------------------------------------------------------- the public API


def test_update_zero_point_relu_matches_a_fresh_plot():
    codes = np.array([[126, 120, 3], [110, 127, 200], [0, 255, 128]], dtype=np.uint8)
    p = plot_zero_point_relu(0.5, 128, "uint8", codes=codes, kernel=2, stride=1,
                             fig=static_figure((12.5, 8.4)))
    for scale, zp, block, cell in ((2.0, 3, codes[::-1], (1, 0)), (0.1, 255, None, (0, 1))):
        p = update_zero_point_relu(p, scale, zp, codes=block, out_index=cell)
        want = plot_zero_point_relu(scale, zp, "uint8", codes=codes[::-1], kernel=2, stride=1,
                                    out_index=cell, fig=static_figure((12.5, 8.4)))
        assert np.array_equal(drawn(p.figure), drawn(want.figure))
        assert p.pooled_wrong.tolist() == want.pooled_wrong.tolist()
        assert p.line_ax.get_title() == want.line_ax.get_title()
    q = plot_zero_point_relu(0.1, -20, "int8", fig=static_figure((9.5, 5.2)))  # no block
    q = update_zero_point_relu(q, 0.1, 0)
    want = plot_zero_point_relu(0.1, 0, "int8", fig=static_figure((9.5, 5.2)))
    assert np.array_equal(drawn(q.figure), drawn(want.figure))
    assert "code-zero" not in {ln.get_gid() for ln in q.line_ax.lines}


def test_the_relu_panels_from_the_chain_are_those_update_zero_point_relu_draws():
    """The explorer's fast path takes the right ReLU, its pool and winners from the chain:
    the same values and the same picture as the public update (stride 1: overlapping
    windows; ties: the first maximum wins)."""
    from pooltutor.viz.zero_point import _update_from_chain

    acc = [[5, -5, 3, -3], [1, -1, 7, -7], [2, -2, 6, -6], [10, -10, 9, -9]]
    fig_a, fig_b = static_figure((12.5, 8.4)), static_figure((12.5, 8.4))
    chain = relu_max_pool_chain(acc, 1.0, 3, "int8", 2, 1, "half_even", scale=0.5)
    a = plot_zero_point_relu(0.5, 3, "int8", codes=chain.codes, kernel=2, stride=1, fig=fig_a)
    b = plot_zero_point_relu(0.5, 3, "int8", codes=chain.codes, kernel=2, stride=1, fig=fig_b)
    for zp, scale, cell in ((-7, 0.5, (2, 1)), (0, 2.0, (0, 2)), (100, 0.1, (1, 1))):
        chain = relu_max_pool_chain(acc, 1.0, zp, "int8", 2, 1, "half_even", scale=scale)
        a = _update_from_chain(a, chain, cell)
        b = update_zero_point_relu(b, scale, zp, codes=chain.codes, out_index=cell)
        for name in ("right", "wrong", "pooled_right", "pooled_wrong"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (zp, name)
        assert np.array_equal(drawn(fig_a), drawn(fig_b)), zp
    # a chain of another pool: the public update itself (the plot's own pool)
    other = relu_max_pool_chain(acc, 1.0, 0, "int8", 3, 1, "half_even", scale=0.5)
    a = _update_from_chain(a, other, (1, 1))
    b = update_zero_point_relu(b, 0.5, 0, codes=other.codes, out_index=(1, 1))
    assert a.pooled_right.shape == (3, 3)
    assert np.array_equal(drawn(fig_a), drawn(fig_b))


def test_update_quant_chain_matches_a_fresh_plot():
    acc = [[-2, 4, 10, -3], [6, -8, 1, 2], [-30, 5, 0, -1], [7, 9, -12, 3]]
    p = plot_quant_chain(relu_max_pool_chain(acc, 1.0, 100, "uint8"),
                         fig=static_figure((12, 3.8)))
    for m, zp, cell in ((0.5, 128, (1, 0)), (2.0, 0, (1, 1))):
        chain = relu_max_pool_chain(acc, m, zp, "uint8")
        p = update_quant_chain(p, chain, cell)
        want = plot_quant_chain(chain, cell, fig=static_figure((12, 3.8)))
        assert np.array_equal(drawn(p.figure), drawn(want.figure))
        assert (p.window, p.winner) == (want.window, want.winner)
        raised = [pt for pt in p.axes["activated"].patches if pt.get_gid() == "raised"]
        assert len(raised) == int((chain.codes < chain.relu_floor).sum())


def test_update_zero_point_relu_refuses_bad_values_and_changes_nothing():
    codes = np.arange(9, dtype=np.uint8).reshape(3, 3) * 20
    p = plot_zero_point_relu(0.5, 128, "uint8", codes=codes, kernel=2, stride=1,
                             fig=static_figure((12.5, 8.4), 20))
    before = drawn(p.figure)
    for args, kwargs, exc, match in [
            ((0.5, 300), {}, ValueError, "zero_point=300"),
            ((0.0, 100), {}, ValueError, "scale"),
            ((0.5, 100), dict(codes=[[1, 2], [3, 4]]), ValueError, r"codes has shape \(2, 2\)"),
            ((0.5, 100), dict(codes=[[1.5, 2, 3]] * 3), TypeError, "codes has dtype float64"),
            ((0.5, 100), dict(codes=[[1, 2, 999]] * 3), ValueError, "codes holds the code 999"),
            ((0.5, 100), dict(out_index=(5, 0)), ValueError, "out_index")]:
        with pytest.raises(exc, match=match):
            update_zero_point_relu(p, *args, **kwargs)
    assert np.array_equal(drawn(p.figure), before)
    with pytest.raises(TypeError, match="plot has type"):
        update_zero_point_relu("not a plot", 0.5, 1)
    q = plot_zero_point_relu(0.5, 128, "uint8", fig=static_figure((9.5, 5.2), 20))
    with pytest.raises(ValueError, match="drawn without a block of codes"):
        update_zero_point_relu(q, 0.5, 100, codes=codes)


def test_update_quant_chain_refuses_another_structure():
    acc = [[-2, 4], [6, -8]]
    p = plot_quant_chain(relu_max_pool_chain(acc, 0.5, 0), fig=static_figure((12, 3.8), 20))
    with pytest.raises(ValueError, match="accumulators .the plane drawn., dtype or pool differ"):
        update_quant_chain(p, relu_max_pool_chain([[1, 2], [3, 4]], 0.5, 0))
    with pytest.raises(ValueError, match="accumulators .the plane drawn., dtype or pool differ"):
        update_quant_chain(p, relu_max_pool_chain(acc, 0.5, 0, dtype="uint8"))
    with pytest.raises(TypeError, match="chain has type"):
        update_quant_chain(p, acc)
    with pytest.raises(TypeError, match="plot has type"):
        update_quant_chain(None, relu_max_pool_chain(acc, 0.5, 0))


def test_the_texts_are_filled_glyphs_like_matplotlibs():
    """The explorer's texts are filled outlines (no stroke: the weight of matplotlib's own
    text), laid out where matplotlib lays them out."""
    e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100, dpi=LOW)
    title = e.relu_plot.line_ax.title
    assert type(title).__name__ == "GlyphText"
    renderer = e.figure.canvas.get_renderer()
    lines, x, y = title.placed_lines(renderer)
    box = title.get_window_extent(renderer)        # matplotlib's own layout of the title
    assert len(lines) == 2 and lines[-1][2] == pytest.approx(0.0)      # va="baseline"
    assert box.y0 < y < box.y0 + 0.5 * box.height < y + lines[0][2] < box.y1
    for path, dx, _dy in lines:                    # each line centred on the anchor
        ink = path.vertices[:, 0] * renderer.points_to_pixels(1.0)
        assert abs(x + dx + (ink.min() + ink.max()) / 2 - (box.x0 + box.x1) / 2) < 1.5
    assert style.texts_of(e.relu_plot.grid_axes["wrong"], "value")
