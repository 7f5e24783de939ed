"""AdaptiveBinsExplorer's fast steps (issue 6): a 2-D "next cell" is blitted, and the picture
is exactly that of an explorer drawn from scratch with the same controls.

Every comparison here is pixel for pixel: the PNG after a sequence of steps, parameter
changes and invalid combinations equals the PNG of a new explorer made directly with the
final control values, and equals an ordinary (non-blitted) draw of the same figure.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
pytest.importorskip("ipywidgets")

from pooltutor.viz.adaptive import (  # noqa: E402
    adaptive_overlays,
    move_adaptive_bins,
    plot_adaptive_bins,
)
from pooltutor.viz.adaptive_explorer import (  # noqa: E402
    AdaptiveBinsExplorer,
    pi_digits,
)
from pooltutor.viz.explorer import figure_png, new_figure  # noqa: E402

DPI = 20            # small PNGs: the same code paths as at 80 dpi, a fraction of the time


def pixels(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and raw rows of a PNG written by pooltutor's encoders (one IDAT)."""
    w, h = struct.unpack(">II", png[16:24])
    at = png.index(b"IDAT") - 4
    (n,) = struct.unpack(">I", png[at:at + 4])
    return w, h, zlib.decompress(png[at + 8:at + 8 + n])


def controls(e: AdaptiveBinsExplorer) -> dict:
    """The explorer's current controls as constructor arguments."""
    two = e.ndim.value == 2
    axes = (0, 1) if two else (1,)
    pick = (lambda t: tuple(t[a].value for a in axes)) if two else (lambda t: t[1].value)
    params = dict(output_size=pick(e.out_size), op=e.op.value,
                  show_fixed=e.show_fixed.value, out_index=pick(e.cell), dpi=e.figure.dpi)
    if e.x is not None:
        return dict(x=e.x, **params)
    return dict(ndim=e.ndim.value, input_size=pick(e.in_size), **params)


def assert_as_if_fresh(e: AdaptiveBinsExplorer) -> None:
    """The picture, state and explain text are those of a new explorer with these controls;
    and the blitted PNG is an ordinary full draw of the figure."""
    assert e.error is None
    fresh = AdaptiveBinsExplorer(**controls(e))
    assert fresh.error is None
    assert e.png == fresh.png
    assert e.state == fresh.state and e.explain_text == fresh.explain_text
    assert pixels(figure_png(e.figure)) == pixels(e.png)


def set_cell(e, cell) -> None:
    with e._hold():
        for slider, v in zip(e.cell[2 - len(cell):], cell, strict=True):
            slider.value = v
    e.safe_update()


def test_2d_steps_blit_only_the_moving_marks_and_keep_the_picture(monkeypatch):
    from matplotlib.axes import Axes

    e = AdaptiveBinsExplorer(ndim=2, input_size=10, output_size=4)   # the bench figure, 80 dpi
    bins = e.plot.bins
    background = e._background
    drawn = []
    axes_draw = Axes.draw
    with monkeypatch.context() as m:
        m.setattr(Axes, "draw", lambda self, r: (drawn.append(self), axes_draw(self, r))[1])
        for cell in [(0, 1), (0, 2), (3, 3), (2, 0), (3, 3)]:
            set_cell(e, cell)
            assert e.error is None and e.state["out_index"] == cell
            assert e.plot.bins is bins and e._background is background    # a blitted step
    assert drawn == []                          # no panel was drawn again, only the marks
    assert_as_if_fresh(e)
    # what moved: the marks of the cell in the four panels and the two titles naming it
    moving = adaptive_overlays(e.plot)
    gids = sorted(a.get_gid() or "" for a in moving)
    assert gids.count("window") == 2 and gids.count("highlight") == 2
    assert "winner" in gids and "fixed-window-current" in gids
    assert e.plot.ax.title in moving and e.plot.fixed_ax.title in moving
    assert e.plot.ax.get_title().endswith(
        f"output (3, 3): bin [7,10) x [7,10), max 9 at {e.state['winner']}")


@pytest.mark.parametrize("params, changes", [
    # parameter changes between steps redraw everything; steps after them blit again
    # ("!" after a change: compared with a fresh explorer there)
    (dict(ndim=2, input_size=(7, 9), output_size=(4, 3)),
     [("cell", (3, 2)), ("op", "avg"), ("cell", (1, 1), "!"), ("show_fixed", False),
      ("cell", (2, 0)), ("show_fixed", True), ("out_size", (4, 4)), ("cell", (0, 3), "!")]),
    # I < O on the rows: no export workaround (a note), the bins repeat; 1-D and back
    (dict(ndim=2, input_size=(3, 5), output_size=(4, 3)),
     [("cell", (3, 2)), ("cell", (0, 1), "!"), ("in_size", (6, 5)), ("ndim", 1),
      ("cell", (2,)), ("ndim", 2), ("cell", (1, 2), "!")]),
    # a cell whose window is its bin after one whose is not: titles of other glyphs (the
    # layout is the same all the same); the op changes the output panels' title lines
    (dict(ndim=2, input_size=(5, 6), output_size=(3, 3)),
     [("cell", (1, 0), "!"), ("op", "avg", "!"), ("cell", (2, 2))]),
    # 1-D: the op changes the tick labels ("adaptive max" -> "adaptive avg"): laid out again
    (dict(input_size=10, output_size=2),
     [("cell", (1,)), ("op", "avg", "!"), ("cell", (0,), "!")]),
])
def test_steps_and_parameter_changes_give_the_picture_of_a_fresh_explorer(params, changes):
    e = AdaptiveBinsExplorer(**params, dpi=DPI)
    for what, value, *check in changes:
        background = e._background
        if what == "cell":
            set_cell(e, value)
            assert e._background is background                  # blitted
            assert e.state["out_index"] == value
        else:
            widget = getattr(e, what)
            with e._hold():
                if isinstance(value, tuple):
                    for slider, v in zip(widget, value, strict=True):
                        slider.value = v
                else:
                    widget.value = value
            e._on_change()
            assert e._background is not background              # drawn again
        assert e.error is None
        if check:
            assert_as_if_fresh(e)


def test_invalid_combinations_in_between_keep_the_steps_right():
    x = (np.arange(42.0) % 9).reshape(6, 7)
    e = AdaptiveBinsExplorer(x, output_size=(4, 3), dpi=DPI)
    set_cell(e, (1, 1))
    good, background = e.png, e._background
    e.ndim.value = 1                         # a 2-D input cannot be shown with 1-D controls
    assert e.error is not None and "output_size" in e.error
    assert e.png == good and e.image.value != good          # the last picture, greyed
    e.cell[1].value = 2                      # still invalid
    assert e.error is not None and e.png == good
    e.ndim.value = 2                         # valid again: the same bins, the new cell
    assert e.error is None and e._background is background
    assert e.state["out_index"] == (1, 2)
    set_cell(e, (3, 0))
    assert_as_if_fresh(e)


def test_1d_steps_still_blit_the_picture_of_a_fresh_explorer():
    e = AdaptiveBinsExplorer(input_size=16, output_size=5, dpi=DPI)     # the bench figure
    background = e._background
    for cell in [(1,), (4,), (0,), (2,)]:
        set_cell(e, cell)
        assert e._background is background and e.state["out_index"] == cell
    assert_as_if_fresh(e)


def test_move_adaptive_bins_2d_and_what_it_refuses():
    x = pi_digits(30).reshape(5, 6)
    p = plot_adaptive_bins(x, (3, 4), show_fixed=True, fig=new_figure((8, 6), dpi=DPI))
    q = move_adaptive_bins(p, (2, 3))
    ref = plot_adaptive_bins(x, (3, 4), (2, 3), show_fixed=True, fig=new_figure((8, 6),
                                                                                dpi=DPI))
    assert q.winner == ref.winner and q.out_index == (2, 3)
    for a, b in ((q.ax, ref.ax), (q.fixed_ax, ref.fixed_ax), (q.output_ax, ref.output_ax)):
        assert a.get_title() == b.get_title()
        assert sorted((m.get_gid(), m.get_xy(), m.get_width()) for m in a.patches) == sorted(
            (m.get_gid(), m.get_xy(), m.get_width()) for m in b.patches)
    with pytest.raises(ValueError, match="out_index"):
        move_adaptive_bins(q, (3, 0))
    other = plot_adaptive_bins(x, (3, 4), op="avg", show_fixed=True, fig=p.figure)
    assert move_adaptive_bins(p, (1, 1)) is None            # the figure shows another plot
    moved = move_adaptive_bins(other, (1, 1))
    assert moved.ax.get_title().endswith(f"average {other.output[1, 1]:.3g}")


def test_explorer_out_index_is_checked():
    e = AdaptiveBinsExplorer(ndim=2, input_size=(5, 6), output_size=(2, 3), out_index=(1, 2),
                             dpi=DPI)
    assert e.state["out_index"] == (1, 2) and (e.cell[0].value, e.cell[1].value) == (1, 2)
    with pytest.raises(ValueError, match=r"out_index=\(4,\) is outside the output"):
        AdaptiveBinsExplorer(output_size=4, out_index=4, dpi=DPI)
    with pytest.raises(ValueError, match="out_index=-1"):
        AdaptiveBinsExplorer(output_size=4, out_index=-1, dpi=DPI)
    with pytest.raises(TypeError, match="out_index=1.5"):
        AdaptiveBinsExplorer(output_size=4, out_index=1.5, dpi=DPI)


def change(e: AdaptiveBinsExplorer, what: str, value) -> None:
    """Set a control (a tuple sets the (h, w) sliders, or the w slider alone for one value)
    and redraw once, as a user's change does."""
    widget = getattr(e, what)
    with e._hold():
        if isinstance(widget, tuple):
            value = value if isinstance(value, tuple) else (value,)
            for slider, v in zip(widget[2 - len(value):], value, strict=True):
                slider.value = v
        else:
            widget.value = value
    e._on_change()


@pytest.mark.parametrize("params, changes", [
    # ("!": compared with a fresh explorer there; "=": the change kept every Axes, "^": the
    # top row's (input and output), the export workaround's row below made anew or removed)
    # the bench figure (10x10, export workaround): output size up and down, on both axes
    (dict(ndim=2, input_size=10, output_size=4),
     [("out_size", (4, 3), "=!"), ("cell", (3, 2)), ("out_size", (4, 4), "="),
      ("out_size", (2, 5), "=!"), ("cell", (1, 4), "!"), ("out_size", (6, 6), "=")]),
    # input size, op and the export workaround toggled between size changes; I < O (no
    # workaround: other panels) and back
    (dict(ndim=2, input_size=(7, 9), output_size=(3, 3)),
     [("in_size", (8, 9), "="), ("op", "avg", "="), ("out_size", (3, 4), "=!"),
      ("show_fixed", False, "^!"), ("out_size", (2, 4), "="), ("show_fixed", True, "^!"),
      ("in_size", (2, 9), "=!"), ("out_size", (3, 5), "^!"), ("in_size", (10, 10), "^"),
      ("cell", (2, 1), "!")]),
    # 1-D: output and input sizes, op, the workaround (I < O too), and to 2-D and back
    (dict(input_size=16, output_size=5),
     [("out_size", 6, "=!"), ("out_size", 5, "="), ("cell", (3,)), ("in_size", 11, "="),
      ("op", "avg", "="), ("out_size", 13, "=!"), ("out_size", 4, "="), ("show_fixed", False, "=!"),
      ("out_size", 7, "=!"), ("ndim", 2), ("out_size", (3, 2), "=!"), ("show_fixed", True, "^!"),
      ("ndim", 1, "!")]),
])
def test_structure_changes_give_the_picture_of_a_fresh_explorer(params, changes):
    e = AdaptiveBinsExplorer(**params, dpi=DPI)
    for what, value, *check in changes:
        axes = list(e.figure.axes)
        if what == "cell":
            set_cell(e, value)
        else:
            change(e, what, value)
        assert e.error is None, e.error
        flags = check[0] if check else ""
        assert (e.figure.axes == axes) == ("=" in flags) or what == "cell"
        if "^" in flags:
            assert e.figure.axes[:2] == axes[:2]
        if "!" in flags:
            assert_as_if_fresh(e)


def test_structure_changes_with_invalid_combinations_in_between():
    x = (np.arange(42.0) % 9).reshape(6, 7)
    e = AdaptiveBinsExplorer(x, output_size=(4, 3), dpi=DPI)
    axes = list(e.figure.axes)
    change(e, "out_size", (3, 5))
    assert e.figure.axes == axes            # the same panels, of other sizes: Axes kept
    assert_as_if_fresh(e)
    e.ndim.value = 1                        # a 2-D input cannot be shown with 1-D controls
    assert e.error is not None
    good = e.png
    change(e, "out_size", (5, 2))           # still invalid: nothing drawn
    assert e.error is not None and e.png == good
    e.ndim.value = 2                        # valid again, with the new output size
    assert e.error is None and e.state["output_size"] == (5, 2)
    assert_as_if_fresh(e)
    change(e, "out_size", (7, 2))           # I < O on the rows: no workaround, a note
    assert e.error is None and e.warnings and e.state["fixed"] is None
    assert_as_if_fresh(e)
    change(e, "out_size", (2, 2))
    assert_as_if_fresh(e)
