"""pooltutor.viz.gallery: the sample picture, the pooling configurations, the image pooling panels."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from pooltutor import PoolTutorError, PoolTutorTypeError, pool_geometry
from pooltutor.pooling import avg_pool, max_pool
from pooltutor.viz import style
from pooltutor.viz.gallery import (
    config_label,
    plot_image_pooling,
    pool_image,
    sample_image,
    sample_image_names,
)


@pytest.fixture(scope="module")
def hopper() -> np.ndarray:
    return sample_image()


# --------------------------------------------------------------------------- sample_image


def test_sample_image_names_are_pictures_that_exist():
    names = sample_image_names()
    assert "grace_hopper.jpg" in names
    assert all(n.lower().endswith((".png", ".jpg", ".jpeg")) for n in names)
    assert not any(n.endswith((".npz", ".csv", ".dat")) for n in names)


def test_sample_image_is_grayscale_nchw_in_unit_range(hopper):
    assert hopper.shape == (1, 1, 600, 512)
    assert hopper.dtype == np.float64
    assert 0.0 <= hopper.min() < 0.1 and 0.9 < hopper.max() <= 1.0


def test_sample_image_uses_bt601_luma_of_the_jpeg_pixels(hopper):
    import matplotlib.image as mpimg
    from matplotlib import cbook

    with cbook.get_sample_data("grace_hopper.jpg") as handle:
        rgb = mpimg.imread(handle, format="jpg")
    assert rgb.dtype == np.uint8 and rgb.shape == (600, 512, 3)
    for i, j in [(0, 0), (300, 256), (599, 511), (123, 45)]:
        r, g, b = (float(v) for v in rgb[i, j])
        assert hopper[0, 0, i, j] == pytest.approx(
            (0.299 * r + 0.587 * g + 0.114 * b) / 255, abs=1e-12
        )


def test_sample_image_returns_a_fresh_array_each_time(hopper):
    a = sample_image()
    a[...] = -1.0
    b = sample_image()
    assert b.min() >= 0.0
    assert np.array_equal(b, hopper)


def test_sample_image_png_with_alpha_becomes_gray():
    names = [n for n in sample_image_names() if n.endswith(".png")]
    if not names:
        pytest.skip("this matplotlib ships no PNG sample picture")
    x = sample_image(names[0])
    assert x.ndim == 4 and x.shape[:2] == (1, 1)
    assert 0.0 <= x.min() and x.max() <= 1.0


def test_sample_image_rejects_unknown_names():
    with pytest.raises(
        PoolTutorError, match=r"name='goog.npz' is not allowed: need one of .*'grace_hopper.jpg'"
    ):
        sample_image("goog.npz")
    with pytest.raises(PoolTutorTypeError, match=r"name=3 has type int"):
        sample_image(3)


# --------------------------------------------------------------------------- configs


def test_pool_image_is_the_engine_call():
    x = np.arange(2.0 * 7 * 9).reshape(1, 2, 7, 9)
    got = pool_image(
        x,
        {
            "op": "max",
            "kernel": 3,
            "stride": 2,
            "padding": 1,
            "rounding": "ceil_torch",
            "label": "ignored by the engine",
        },
    )
    want = max_pool(x, 3, 2, padding=1, rounding="ceil_torch")
    assert np.array_equal(got.output, want.output)
    assert got.geometry == want.geometry
    got = pool_image(
        x, {"op": "avg", "kernel": (2, 3), "dilation": (1, 2), "divisor": "padded", "padding": 1}
    )
    want = avg_pool(x, (2, 3), padding=1, dilation=(1, 2), divisor="padded")
    assert np.array_equal(got.output, want.output)


@pytest.mark.parametrize(
    ("config", "error", "message"),
    [
        ({"kernel": 2}, PoolTutorError, r"has no 'op': it is required"),
        ({"op": "max"}, PoolTutorError, r"has no 'kernel': it is required"),
        (
            {"op": "min", "kernel": 2},
            PoolTutorError,
            r"config\['op'\]='min' is not allowed: need one of 'max', 'avg'",
        ),
        ({"op": "max", "kernel": 2, "size": 3}, PoolTutorError, r"unknown key\(s\) 'size'"),
        ({"op": "max", "kernel": 2, "divisor": 4}, PoolTutorError, r"only allowed with op='avg'"),
        (
            {"op": "max", "kernel": 2, "label": 5},
            PoolTutorTypeError,
            r"config\['label'\]=5 has type int",
        ),
        ([("op", "max")], PoolTutorTypeError, r"need a dict with 'op'"),
        ({"op": "max", "kernel": 0}, PoolTutorError, r"kernel=0 is not allowed"),
    ],
)
def test_pool_image_rejects_bad_configs(config, error, message):
    with pytest.raises(error, match=message):
        pool_image(np.zeros((1, 1, 4, 4)), config)


def test_config_label():
    assert config_label({"op": "max", "kernel": 8}) == "max K=8 floor"
    assert (
        config_label({"op": "max", "kernel": (3, 3), "stride": [2, 2], "rounding": "ceil"})
        == "max K=3 S=2 ceil"
    )
    assert config_label({"op": "max", "kernel": (2, 3)}) == "max K=(2,3) floor"
    assert (
        config_label({"op": "avg", "kernel": 2, "divisor": "padded", "padding": 1})
        == "avg K=2 P=1 floor divisor=padded"
    )
    assert config_label({"op": "avg", "kernel": 2, "label": "mine"}) == "mine"


# --------------------------------------------------------------------------- the figure


CONFIGS = [
    {"op": "max", "kernel": 44},
    {"op": "avg", "kernel": 44},
    {"op": "max", "kernel": 44, "rounding": "ceil_torch"},
    {"op": "max", "kernel": 3, "stride": 16, "dilation": 5, "padding": 2},
]


def _images(ax):
    return [a for a in ax.get_images()]


def test_plot_image_pooling_titles_give_the_geometry_shapes(hopper):
    before = hopper.copy()
    fig = plot_image_pooling(hopper, CONFIGS).figure
    assert isinstance(fig, Figure)
    assert len(fig.axes) == len(CONFIGS) + 1
    assert fig.axes[0].get_title() == "input\n600 x 512"
    for ax, config in zip(fig.axes[1:], CONFIGS, strict=True):
        shape = pool_geometry(
            (600, 512),
            config["kernel"],
            config.get("stride"),
            config.get("padding", 0),
            config.get("dilation", 1),
            config.get("rounding", "floor"),
        ).output_shape
        assert ax.get_title() == f"{config_label(config)}\n600 x 512 -> {shape[0]} x {shape[1]}"
        (image,) = _images(ax)
        assert image.get_array().shape == shape
    assert np.array_equal(hopper, before)  # the input is never modified


def test_plot_image_pooling_draws_on_input_coordinates(hopper):
    fig = plot_image_pooling(hopper, CONFIGS).figure
    extents = [tuple(_images(ax)[0].get_extent()) for ax in fig.axes]
    assert extents[0] == (0, 512, 600, 0)
    assert extents[1] == (0, 11 * 44, 13 * 44, 0)  # floor: 13 x 11 windows of 44, a strip dropped
    assert extents[3] == (0, 12 * 44, 14 * 44, 0)  # ceil_torch: the last ones hang over the border
    assert extents[4] == (-2, 32 * 16 - 2, 38 * 16 - 2, -2)
    limits = {(ax.get_xlim(), ax.get_ylim()) for ax in fig.axes}
    assert len(limits) == 1  # one scale for every panel
    (xlim, ylim) = limits.pop()
    assert xlim == (-2, 12 * 44) and ylim == (14 * 44, -2)  # ceil_torch reaches furthest
    # the overhanging panel is framed in the "dropped" colour, the others are not
    colours = [ax.spines["top"].get_edgecolor() for ax in fig.axes[1:]]
    import matplotlib.colors as mcolors

    dropped = mcolors.to_rgba(style.DROPPED_COLOR)
    assert [c == dropped for c in colours] == [False, False, True, False]


def test_plot_image_pooling_shares_one_gray_scale(hopper):
    fig = plot_image_pooling(hopper, CONFIGS[:2]).figure
    clims = {_images(ax)[0].get_clim() for ax in fig.axes}
    assert len(clims) == 1
    lo, hi = clims.pop()
    assert lo == pytest.approx(hopper.min()) and hi == pytest.approx(hopper.max())
    assert {_images(ax)[0].get_cmap().name for ax in fig.axes} == {"gray"}


def test_plot_image_pooling_reuses_a_figure_and_lays_out_rows():
    x = np.arange(30.0).reshape(5, 6)
    fig = plot_image_pooling(x, [{"op": "max", "kernel": 2}], show_input=False).figure
    assert len(fig.axes) == 1
    again = plot_image_pooling(x, [{"op": "max", "kernel": 2}] * 5, fig=fig, ncols=2).figure
    assert again is fig and len(fig.axes) == 6
    rows = {round(ax.get_subplotspec().rowspan.start) for ax in fig.axes}
    assert rows == {0, 1, 2}


@pytest.mark.parametrize(
    ("image", "configs", "error", "message"),
    [
        (np.zeros((4, 4)), [], PoolTutorTypeError, r"configs=\[\]: need a non-empty list"),
        (
            np.zeros((4, 4)),
            {"op": "max", "kernel": 2},
            PoolTutorTypeError,
            r"need a non-empty list",
        ),
        (np.zeros((4, 4)), [{"op": "max"}], PoolTutorError, r"configs\[0\]=.* has no 'kernel'"),
        (
            np.zeros((4,)),
            [{"op": "max", "kernel": 2}],
            PoolTutorError,
            r"image has shape \(4,\): need a picture shaped \(H, W\) or \(N, C, H, W\)",
        ),
        (np.zeros((4, 4)), [{"op": "max", "kernel": 5}], PoolTutorError, r"does not fit"),
    ],
)
def test_plot_image_pooling_rejects_bad_input(image, configs, error, message):
    with pytest.raises(error, match=message):
        plot_image_pooling(image, configs)


def test_plot_image_pooling_view_zooms_every_panel(hopper):
    fig = plot_image_pooling(hopper, CONFIGS[:2], view=(120, 330, 120, 400)).figure
    assert {(ax.get_xlim(), ax.get_ylim()) for ax in fig.axes} == {((120, 400), (330, 120))}
    width, height = fig.get_size_inches()
    assert width > 2 * height  # the figure follows the view's aspect
    with pytest.raises(PoolTutorError, match=r"view=\(5, 5, 0, 9\) is empty"):
        plot_image_pooling(hopper, CONFIGS[:1], view=(5, 5, 0, 9))
    with pytest.raises(PoolTutorTypeError, match=r"view=\(1, 2\): need \(row_start"):
        plot_image_pooling(hopper, CONFIGS[:1], view=(1, 2))


def test_plot_image_pooling_checks_ncols():
    with pytest.raises(PoolTutorError, match=r"ncols=0 is not allowed: need an int >= 1"):
        plot_image_pooling(np.zeros((4, 4)), [{"op": "max", "kernel": 2}], ncols=0)


def test_plot_image_pooling_returns_what_it_drew_and_takes_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    x = np.arange(30.0).reshape(5, 6)
    configs = [{"op": "max", "kernel": 2}, {"op": "max", "kernel": 2, "rounding": "ceil"}]
    p = plot_image_pooling(x, configs)
    assert len(p.axes) == len(p.images) == 3 and len(p.results) == 2
    assert [im.get_array().shape for im in p.images] == [(5, 6), (2, 3), (3, 3)]
    assert p.titles[2] == "max K=2 ceil\n5 x 6 -> 3 x 3" and p.view == (0, 6, 0, 6)
    # the overhanging (ceil) panel is framed dashed and thicker too, not by colour alone
    assert p.axes[2].spines["top"].get_linestyle() == "--"
    assert p.axes[1].spines["top"].get_linestyle() in ("-", "solid")
    fig = Figure(figsize=(6, 2))
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 3)
    q = plot_image_pooling(x, configs, ax=axes)
    assert q.figure is fig and list(q.axes) == list(axes)
    with pytest.raises(PoolTutorTypeError, match="need a sequence of 3 matplotlib Axes"):
        plot_image_pooling(x, configs, ax=axes[:2])
