"""No information carried by colour alone (issue 18): in every plot of pooltutor.viz the
marks of different meaning (window, winner, padding, dropped window, the cells outside the
padded input, right and wrong, neighbouring bins) differ also in something that a reader
who cannot tell the colours apart still sees: a hatch, a line style, a rim, a marker, a
shape, or a text label / legend entry.

Read from the drawn artists with public matplotlib API only (``get_hatch``,
``get_linestyle``, ``get_path_effects``, ``get_marker``, ``get_label``, ...).  A check fails
when two categories are drawn with the same non-colour cues.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.collections import Collection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from pooltutor import max_pool  # noqa: E402
from pooltutor.viz import (  # noqa: E402
    plot_adaptive_bins,
    plot_gradient_routing,
    plot_image_pooling,
    plot_index_layouts,
    plot_padding_modes,
    plot_pooling,
    plot_quant_chain,
    plot_unpool,
    plot_zero_point_relu,
)
from pooltutor.viz.style import texts_of  # noqa: E402

#: a line this many times as thick as another reads as a different mark without colour
THICKER = 1.4


def _line(ls) -> object:
    """A line style as a comparable value: "solid" or the dash pattern."""
    if isinstance(ls, list):                        # a collection: [(offset, dashes), ...]
        ls = ls[0] if ls else (0, None)
        return "solid" if ls[1] is None else ("dashes", tuple(np.round(ls[1], 3)))
    names = {"-": "solid", "solid": "solid", "--": "dashed", "dashed": "dashed",
             ":": "dotted", "dotted": "dotted", "-.": "dashdot", "dashdot": "dashdot",
             "None": "none", "none": "none", " ": "none", "": "none"}
    if isinstance(ls, str):
        return names[ls]
    return ("dashes", tuple(ls[1])) if ls[1] is not None else "solid"


def cues(artist) -> dict:
    """What, besides colour, tells ``artist`` apart."""
    found = {"kind": "line" if isinstance(artist, Line2D) else "area"}
    if isinstance(artist, (Patch, Collection)):
        found["hatch"] = artist.get_hatch() or ""
        found["line"] = _line(artist.get_linestyle())
        found["rim"] = bool(artist.get_path_effects())
        if isinstance(artist, Patch):
            found["filled"] = bool(artist.get_fill() and artist.get_facecolor()[3] > 0)
        else:
            faces = np.asarray(artist.get_facecolor()).reshape(-1, 4)
            found["filled"] = bool(len(faces) and (faces[:, 3] > 0).any())
        if isinstance(artist, Rectangle):
            found["size"] = round(abs(artist.get_width()), 2)
    elif isinstance(artist, Line2D):
        found["line"] = _line(artist.get_linestyle())
        found["marker"] = str(artist.get_marker())
    label = artist.get_label()
    if label and not label.startswith("_"):
        found["label"] = label
    return found


def _width(artist) -> float:
    w = artist.get_linewidth()
    return float(np.max(w)) if np.size(w) else 0.0


def only_colour_differs(a, b) -> bool:
    """True when ``a`` and ``b`` share every non-colour cue (line widths within THICKER)."""
    wa, wb = _width(a), _width(b)
    thicker = max(wa, wb) >= THICKER * max(min(wa, wb), 1e-9) if max(wa, wb) > 0 else False
    return cues(a) == cues(b) and not thicker


def by_gid(ax, *gids) -> dict:
    """The first visible artist of each gid on ``ax`` (patches, collections, lines)."""
    found = {}
    for artist in ax.get_children():
        gid = artist.get_gid()
        if gid in gids and gid not in found and artist.get_visible():
            found[gid] = artist
    return found


def assert_categories_differ_beyond_colour(ax, *gids, need=None) -> None:
    found = by_gid(ax, *gids)
    missing = set(need or gids) - set(found)
    assert not missing, f"not drawn: {sorted(missing)} (found {sorted(found)})"
    same = [(a, b) for a, b in itertools.combinations(found, 2)
            if only_colour_differs(found[a], found[b])]
    assert same == [], [(a, b, cues(found[a])) for a, b in same]


# ------------------------------------------------------------------------ the checker


def test_the_checker_fails_on_marks_that_differ_by_colour_only():
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    ax.add_patch(Rectangle((0, 0), 1, 1, fill=False, edgecolor="red", gid="a"))
    ax.add_patch(Rectangle((1, 0), 1, 1, fill=False, edgecolor="green", gid="b"))
    ax.add_patch(Rectangle((2, 0), 1, 1, fill=False, edgecolor="green", linestyle="--",
                           gid="c"))
    with pytest.raises(AssertionError, match="'a', 'b'"):
        assert_categories_differ_beyond_colour(ax, "a", "b")
    assert_categories_differ_beyond_colour(ax, "a", "c")
    (red,) = ax.plot([0, 1], [0, 1], color="red")
    (green,) = ax.plot([0, 1], [1, 0], color="green", linewidth=red.get_linewidth() * 1.1)
    assert only_colour_differs(red, green)
    green.set_linestyle(":")
    assert not only_colour_differs(red, green)


# ---------------------------------------------------------------------- the plots


def test_pooling_window_winner_padding_dropped_and_outside_differ_beyond_colour():
    x = np.arange(25.0).reshape(1, 1, 5, 5) % 7
    r = max_pool(x, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    p = plot_pooling(r, (2, 2))
    ax = p.figure.axes[0]
    assert_categories_differ_beyond_colour(ax, "window", "winner", "padding", "dropped",
                                           "outside", need=("window", "winner", "padding"))
    assert cues(by_gid(ax, "padding")["padding"])["hatch"]        # padding: hatched
    assert cues(by_gid(ax, "winner")["winner"])["rim"]            # winner: a dark rim
    # the legend says what each mark is, and its keys differ beyond colour too
    legend = p.figure.legends[0] if p.figure.legends else ax.get_legend()
    labels = [t.get_text() for t in legend.get_texts()]
    assert any("winner" in t for t in labels) and any("padding" in t for t in labels)
    handles = legend.legend_handles
    same = [(labels[i], labels[j]) for i, j in itertools.combinations(range(len(handles)), 2)
            if only_colour_differs(handles[i], handles[j])
            and cues(handles[i]).get("label") is None]
    assert same == []


def test_a_dropped_window_is_dashed_and_labelled():
    x = np.arange(5.0).reshape(1, 1, 5)
    r = max_pool(x, 2, 2, padding=1, rounding="ceil_torch", return_indices=True)
    for k in range(r.output.shape[-1]):
        p = plot_pooling(r, (k,))
        found = by_gid(p.figure.axes[0], "window", "dropped", "dropped-label")
        if "dropped" in found:
            break
    else:
        pytest.fail("ceil_torch drops no window of this pooling: choose another")
    assert cues(found["dropped"])["line"] != "solid"
    assert_categories_differ_beyond_colour(p.figure.axes[0], "window", "dropped")
    assert "dropped" in found["dropped-label"].get_text()


def test_padding_modes_window_dropped_padding_outside_differ_beyond_colour():
    p = plot_padding_modes(6, 3, 2, 4, 2)
    ax = p.figure.axes[0]
    assert_categories_differ_beyond_colour(ax, "window", "dropped", "padding", "outside")
    assert cues(by_gid(ax, "padding")["padding"])["hatch"]
    assert_categories_differ_beyond_colour(ax, "window-bars", "dropped-bars")
    assert "dropped" in {t.get_text() for t in texts_of(ax)}


def test_index_layouts_name_their_colours_and_mark_window_and_winner_apart():
    x = np.arange(25.0).reshape(1, 1, 5, 5) % 7
    p = plot_index_layouts(x, 3, 2, 1)
    axes = [a for a in p.figure.axes if a.get_title()]
    assert_categories_differ_beyond_colour(axes[0], "window", "winner", "padding")
    from pooltutor.indexing import INDEX_LAYOUTS

    titled = [a for a in axes if any(f"'{lay}'" in a.get_title() for lay in INDEX_LAYOUTS)]
    assert len(titled) == len(INDEX_LAYOUTS)      # each layout's colour is named by its title
    for ax in titled:
        assert_categories_differ_beyond_colour(ax, "window", "winner")


def test_adaptive_bins_are_labelled_and_right_wrong_windows_differ_beyond_colour():
    p = plot_adaptive_bins((5,), 3, out_index=0, show_fixed=True)
    ax = p.figure.axes[0]
    bins = [a for a in ax.patches if a.get_gid() == "bin"]
    labels = [t.get_text() for t in texts_of(ax, "bin-label")]
    assert len(labels) == len(bins) >= 3                  # every bin carries its span
    # a fixed window that matches its bin and one that does not: "=" / "≠", not colour alone
    same = p.fixed.same[0]
    assert True in same and False in same
    marks = [t.get_text() for t in texts_of(ax, "fixed-window-label")]
    assert [("\u2260" not in m) for m in marks] == list(same)
    wrong = by_gid(ax, "window-outline")["window-outline"]       # output 0: not the same
    p1 = plot_adaptive_bins((5,), 3, out_index=1, show_fixed=True)
    right = by_gid(p1.figure.axes[0], "window-outline")["window-outline"]
    assert not only_colour_differs(wrong, right)
    # 2-D bins: neighbours differ in their edge's line style
    q = plot_adaptive_bins((5, 7), (3, 2), out_index=(1, 1), show_fixed=True)
    bins2 = [a for a in q.figure.axes[0].patches if a.get_gid() == "bin"]
    for a, b in zip(bins2[:-1], bins2[1:], strict=True):
        assert not only_colour_differs(a, b)


def test_zero_point_right_wrong_and_reference_lines_differ_beyond_colour():
    p = plot_zero_point_relu(1.0, -20, "int8", codes=[[-100, -5], [0, 7]])
    ax = p.figure.axes[0]
    assert_categories_differ_beyond_colour(ax, "identity", "right", "wrong", "block-codes",
                                           "disagree")
    assert_categories_differ_beyond_colour(ax, "zero-point", "code-zero")
    names = {t.get_gid(): t.get_text() for t in ax.texts}
    assert "zp" in names["zero-point-label"] and "code 0" in names["code-zero-label"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("right") for t in legend) and any(t.startswith("wrong")
                                                              for t in legend)
    for panel in p.figure.axes[1:]:
        if by_gid(panel, "winner"):
            assert_categories_differ_beyond_colour(panel, "window", "winner", "raised")


def test_quant_chain_window_winner_and_raised_cells_differ_beyond_colour():
    from pooltutor.quant import relu_max_pool_chain

    p = plot_quant_chain(relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0))
    panel = [a for a in p.figure.axes if by_gid(a, "winner")][0]
    assert_categories_differ_beyond_colour(panel, "window", "winner", "raised")


def test_unpool_wrong_cells_are_dashed_and_counted():
    from pooltutor.unpool import max_unpool

    x = np.arange(16.0).reshape(1, 1, 4, 4)
    y, colmajor = max_pool(x, 2, return_indices=True, index_layout="tensor_colmajor")
    p = plot_unpool(x, {"right": max_unpool(y, colmajor, x.shape, "tensor_colmajor"),
                        "wrong": max_unpool(y, colmajor, x.shape, "tensor")},
                    reference="right")
    ax = p.figure.axes[2]
    wrong = by_gid(ax, "wrong")["wrong"]
    assert cues(wrong)["line"] != "solid"
    assert "2 cell(s) wrong" in ax.get_title()


def test_gradient_winners_have_a_rim_and_the_count_is_written():
    x = np.arange(25.0).reshape(5, 5) % 7
    p = plot_gradient_routing(x, 3, 2, 1)
    winner = by_gid(p.figure.axes[0], "winner")["winner"]
    assert cues(winner)["rim"]
    assert "winner(s) boxed" in p.figure.axes[0].get_title()


def test_gallery_frames_an_overhanging_output_dashed_not_only_in_colour():
    from pooltutor.viz.gallery import sample_image

    p = plot_image_pooling(sample_image(), [{"op": "max", "kernel": 44},
                                            {"op": "max", "kernel": 44,
                                             "rounding": "ceil_torch"}])
    plain, overhang = p.figure.axes[-2:]
    a, b = next(iter(plain.spines.values())), next(iter(overhang.spines.values()))
    assert not only_colour_differs(a, b)
    assert cues(b)["line"] != "solid"
