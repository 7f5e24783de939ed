"""Colours safe for colour-blind readers (issue 18).

* Sequential data: every image the plots draw uses viridis or cividis (or grey for the
  photographs of the gallery, or one flat colour), and the house colour map keeps its
  lightness rising under every simulated deficiency (so order reads without hue).
* Categorical colours: every pair that appears together in one figure stays apart for
  readers with protanopia, deuteranopia and tritanopia, and every line colour stays
  readable on white.

Simulation: Machado, Oliveira & Fernandes (2009), "A physiologically-based model for
simulation of color vision deficiency", IEEE TVCG 15(6), the matrices of severity 1.0
(their table, as also used by colorspacious and DaltonLens), applied to linear RGB (sRGB
decoded), clipped to [0, 1].  Distance: CIE76 Delta E in CIELAB (D65 white).

Why Delta E >= 10: 2.3 is about one just-noticeable difference for large patches side by
side; the marks here are lines 2-3.5 points wide and small squares seen apart, for which
the difference needed grows several-fold as marks shrink (Stone, Szafir & Setlur 2014,
"An engineering model for color difference as a function of size").  10 (about four
JNDs) is the usual working floor of palette checkers for categories told apart at a
glance.  Readable on white: 3:1, WCAG 2.1 SC 1.4.11 (non-text contrast of graphical
objects); the yellow winner mark is exempt because it is always drawn with a dark rim
(``style.RIM_COLOR``, checked here).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.colors import to_rgb  # noqa: E402

from pooltutor.viz import adaptive, indices, style, zero_point  # noqa: E402

MACHADO_2009 = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO_2009)
MIN_DELTA_E = 10.0
MIN_CONTRAST = 3.0


def linear(color) -> np.ndarray:
    c = np.asarray(to_rgb(color), dtype=float)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def seen(color, vision: str) -> np.ndarray:
    """Linear RGB of ``color`` as a reader with ``vision`` sees it."""
    c = linear(color)
    if vision == "normal":
        return c
    return np.clip(np.asarray(MACHADO_2009[vision]) @ c, 0.0, 1.0)


def lab(lin_rgb) -> np.ndarray:
    xyz = np.array([[0.4124564, 0.3575761, 0.1804375],
                    [0.2126729, 0.7151522, 0.0721750],
                    [0.0193339, 0.1191920, 0.9503041]]) @ lin_rgb
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a, b, vision: str) -> float:
    return float(np.linalg.norm(lab(seen(a, vision)) - lab(seen(b, vision))))


def contrast_on_white(color, vision: str) -> float:
    r, g, b = seen(color, vision)
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


#: the categorical colours each figure shows together (HIGHLIGHT_COLOR is WINDOW_COLOR on
#: purpose: "the window -> its output cell")
FIGURES = {
    "pooling / window stepper": (style.WINDOW_COLOR, style.WINNER_COLOR, style.DROPPED_COLOR),
    "padding modes": (style.WINDOW_COLOR, style.DROPPED_COLOR, style.WRONG_COLOR),
    "index layouts": (style.WINDOW_COLOR, style.WINNER_COLOR, *indices.LAYOUT_COLORS.values()),
    # the bins and the window / winner marks drawn over them (the fixed-pool windows, right
    # or wrong, have their own lane or panel, with = / != labels and dashes)
    "adaptive bins": (style.WINDOW_COLOR, style.WINNER_COLOR, *adaptive.BIN_COLORS),
    "adaptive fixed pool": (style.WINDOW_COLOR, style.WINNER_COLOR, style.RIGHT_COLOR,
                            style.WRONG_COLOR),
    "zero point / quant chain": (style.WINDOW_COLOR, style.WINNER_COLOR, style.RIGHT_COLOR,
                                 style.WRONG_COLOR, zero_point.IDENTITY_COLOR),
    "unpool": (style.RIGHT_COLOR, style.WRONG_COLOR),
    "gallery": (style.WINDOW_COLOR, style.DROPPED_COLOR),
}
#: colours drawn as lines or text on white (the winner has its rim)
ON_WHITE = sorted({c for cs in FIGURES.values() for c in cs} - {style.WINNER_COLOR})


def test_the_simulation_is_the_published_one():
    # white stays white (each matrix row sums to 1) and pure red under protanopia loses
    # most of its lightness, as in Machado et al.'s figures
    for vision in MACHADO_2009:
        assert np.allclose(seen("white", vision), 1.0, atol=1e-5)
    assert seen("red", "protanopia")[0] < 0.2
    # red and green, the classic confusion, fall under the threshold for deuteranopes
    assert delta_e("#d62728", "#2ca02c", "deuteranopia") < MIN_DELTA_E
    assert delta_e("#d62728", "#2ca02c", "normal") > 100


@pytest.mark.parametrize("figure", list(FIGURES))
def test_categorical_colours_of_a_figure_stay_apart_for_colour_blind_readers(figure):
    colours = dict.fromkeys(c.lower() for c in FIGURES[figure])     # unique, in order
    close = [(a, b, v, round(delta_e(a, b, v), 1))
             for a, b in itertools.combinations(colours, 2) for v in VISIONS
             if delta_e(a, b, v) < MIN_DELTA_E]
    assert close == []


@pytest.mark.parametrize("colour", ON_WHITE)
def test_line_colours_are_readable_on_white_for_every_reader(colour):
    worst = min((contrast_on_white(colour, v), v) for v in VISIONS)
    assert worst[0] >= MIN_CONTRAST, worst


def test_the_winner_mark_has_a_dark_rim():
    from matplotlib.figure import Figure

    assert min(contrast_on_white(style.RIM_COLOR, v) for v in VISIONS) >= MIN_CONTRAST
    patch = style.mark_cell(Figure().add_subplot(), (0, 0))
    assert patch.get_edgecolor()[:3] == pytest.approx(to_rgb(style.WINNER_COLOR))
    assert patch.get_path_effects()          # the rim drawn on both sides of the line
    assert style.rim_effects()[0].__class__.__name__ == "Stroke"


@pytest.mark.parametrize("vision", VISIONS)
def test_the_house_colour_map_keeps_its_lightness_rising(vision):
    import matplotlib as mpl

    assert style.CMAP in ("viridis", "cividis")
    samples = mpl.colormaps[style.CMAP](np.linspace(0, 1, 33))[:, :3]
    lightness = [lab(seen(c, vision))[0] for c in samples]
    assert np.all(np.diff(lightness) > 0)


def _figures():
    from pooltutor import max_pool
    from pooltutor.quant import relu_max_pool_chain
    from pooltutor.viz import (
        plot_adaptive_bins,
        plot_gradient_routing,
        plot_image_pooling,
        plot_index_layouts,
        plot_padding_modes,
        plot_pooling,
        plot_quant_chain,
        plot_zero_point_relu,
    )
    from pooltutor.viz.gallery import sample_image

    x = np.arange(25.0).reshape(1, 1, 5, 5) % 7
    yield plot_pooling(max_pool(x, 3, 2, 1, return_indices=True), (1, 1)).figure
    yield plot_padding_modes(np.arange(6.0), 3, 2, 1, 1).figure
    yield plot_index_layouts(x, 3, 2, 1).figure
    yield plot_adaptive_bins(x[0, 0], (3, 2), show_fixed=True).figure
    yield plot_zero_point_relu(0.5, 128, "uint8").figure
    yield plot_quant_chain(relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 0)).figure
    yield plot_gradient_routing(x[0, 0], 2).figure
    yield plot_image_pooling(sample_image(), [{"op": "max", "kernel": 44}]).figure


def test_every_image_drawn_uses_viridis_cividis_grey_or_one_colour():
    from matplotlib.image import AxesImage

    used = set()
    for fig in _figures():
        for image in fig.findobj(AxesImage):
            cmap = image.get_cmap()
            ramp = cmap(np.linspace(0, 1, 16))
            if np.allclose(ramp, ramp[0]):
                used.add("one colour")
            else:
                used.add(cmap.name)
    assert used and used <= {"viridis", "cividis", "gray", "one colour"}, used
    assert style.CMAP in used
