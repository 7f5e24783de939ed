"""Every public plot of pooltutor.viz and every explorer's first picture, as Jupyter shows it.

Each case is drawn, then saved plainly and as IPython's inline backend saves it
(``bbox_inches="tight"``): every visible title, label, tick and legend must lie
inside both images and nothing painted may be cropped away
(:func:`figure_checks.assert_texts_inside`); the numbers written in cells are at
least 7 pt.  Extremes are included: negative row/column indices, the long CAFFE
warnings of ``plot_padding_modes``, 1-D and 2-D, small and large grids.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from figure_checks import assert_texts_inside

TV22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                 [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)

#: gids of the numbers written in cells (values, codes, flat indices, padding rules)
CELL_GIDS = {"value", "padding-text", "number", "winner-number", "code", "index"}
MIN_CELL_PT = 7.0


def _call(module, name, *args, **kwargs):
    return getattr(importlib.import_module(f"pooltutor.viz.{module}"), name)(*args, **kwargs)


def _pooling(x, kernel, stride=None, padding=0, out_index=None, **rules):
    from pooltutor.pooling import max_pool

    r = max_pool(np.asarray(x, dtype=float), kernel, stride, padding, return_indices=True,
                 **rules)
    return _call("heatmaps", "plot_pooling", r, out_index)


def _pooling_in_axes():
    from pooltutor.pooling import avg_pool
    from pooltutor.viz.explorer import new_figure

    fig = new_figure((10, 4.5), dpi=80, layout="constrained")
    r = avg_pool(np.arange(36.0).reshape(1, 1, 6, 6), 3, 2, padding=1, divisor="padded")
    return _call("heatmaps", "plot_pooling", r, (1, 1), ax=fig.subplots(1, 2))


def _pooling_3d():
    from pooltutor.pooling import avg_pool

    r = avg_pool(np.arange(60.0).reshape(1, 1, 3, 4, 5), 2, 2, padding=1)
    return _call("heatmaps", "plot_pooling", r, (1, 1, 2))


def _unpool(channels):
    from pooltutor.pooling import max_pool
    from pooltutor.unpool import max_unpool

    x = TV22 if channels == 2 else np.arange(16.0).reshape(1, 1, 4, 4)
    y, idx = max_pool(x, 2, 1 if channels == 2 else 2, return_indices=True)
    return _call("unpool", "plot_unpool", x, {"right": max_unpool(y, idx, x.shape),
                                              "also right": max_unpool(y, idx, x.shape)},
                 reference="right")


def _chain(acc, m, zp):
    from pooltutor.quant import relu_max_pool_chain

    return _call("zero_point" if importlib.util.find_spec("pooltutor.viz.quant_chain") is None
                 else "quant_chain", "plot_quant_chain", relu_max_pool_chain(acc, m, zp))


PLOTS = {
    # plot_pooling (heatmaps)
    "pooling-2d-ceil_torch-negative-ticks": lambda: _pooling(
        np.arange(25.0).reshape(1, 1, 5, 5), 2, 2, 1, (1, 2), rounding="ceil_torch"),
    "pooling-1d-dropped": lambda: _pooling(np.arange(5.0).reshape(1, 1, 5), 2, 2, 1, (2,),
                                           rounding="ceil_torch"),
    "pooling-16x16-big": lambda: _pooling((np.arange(256.0) % 17).reshape(1, 1, 16, 16), 3, 2,
                                          1, (3, 4)),
    "pooling-3d-avg": _pooling_3d,
    "pooling-ax-pair": _pooling_in_axes,
    # plot_padding_modes
    "padding-caffe-warnings": lambda: _call("padding_modes", "plot_padding_modes",
                                            np.arange(6.0), 3, 2, 3, 2),
    "padding-example-2": lambda: _call("padding_modes", "plot_padding_modes", 6, 3, 2, 3, 3),
    "padding-small": lambda: _call("padding_modes", "plot_padding_modes", 5, 2, 2, 1, 1),
    "padding-engine-rules": lambda: _call("padding_modes", "plot_padding_modes", 6, 3, 2, 4, 2,
                                          modes=("floor", "ceil_torch", "CAFFE_ROUND_UP")),
    # plot_index_layouts
    "index-tv22": lambda: _call("indices", "plot_index_layouts", TV22, kernel=2, stride=1,
                                out_index=(1, 1, 0, 1)),
    "index-4x4-no-table": lambda: _call("indices", "plot_index_layouts",
                                        np.arange(16.0).reshape(1, 1, 4, 4), 2, 2,
                                        out_index=(0, 0, 1, 1), table=False),
    "index-padded-ceil": lambda: _call("indices", "plot_index_layouts",
                                       np.arange(25.0).reshape(1, 1, 5, 5), 2, 2, 1,
                                       rounding="ceil_torch", out_index=(0, 0, 2, 2)),
    # plot_adaptive_bins
    "adaptive-tv24": lambda: _call("adaptive", "plot_adaptive_bins",
                                   np.array([3.0, 1, 4, 1, 5]), 3, out_index=1),
    "adaptive-fixed-avg": lambda: _call("adaptive", "plot_adaptive_bins",
                                        np.array([3.0, 1, 4, 1, 5, 9, 2]), 4, op="avg",
                                        show_fixed=True),
    "adaptive-2d": lambda: _call("adaptive", "plot_adaptive_bins", (5, 5), 3),
    # plot_zero_point_relu
    "relu-tv31": lambda: _call("zero_point", "plot_zero_point_relu", 0.5, 128, "uint8",
                               codes=[[126, 120], [110, 127]]),
    "relu-int8": lambda: _call("zero_point", "plot_zero_point_relu", 1.0, -20, "int8",
                               codes=[[-100, -5], [0, 7]]),
    # plot_quant_chain
    "chain-tv29": lambda: _chain([[-2, 4], [6, -8]], 0.5, 0),
    "chain-zero-point": lambda: _chain([[-20, 40, 3], [60, -80, 7], [1, 2, -3]], 0.25, 10),
    # plot_image_pooling (gallery)
    "gallery-two": lambda: _call("gallery", "plot_image_pooling",
                                 np.arange(30.0).reshape(1, 1, 5, 6),
                                 [{"op": "max", "kernel": 2},
                                  {"op": "max", "kernel": 2, "rounding": "ceil"}]),
    "gallery-three-strides": lambda: _call("gallery", "plot_image_pooling",
                                           (np.arange(32.0 * 32) % 23).reshape(1, 1, 32, 32),
                                           [{"op": "max", "kernel": 2},
                                            {"op": "avg", "kernel": 4, "stride": 4},
                                            {"op": "max", "kernel": 3, "stride": 8,
                                             "rounding": "ceil"}]),
    # plot_unpool
    "unpool-one-channel": lambda: _unpool(1),
    "unpool-two-channels": lambda: _unpool(2),
    # plot_gradient_routing: overlapping windows (a cell that wins twice), padding
    "gradient-overlap": lambda: _call("gradients", "plot_gradient_routing",
                                      np.arange(16.0).reshape(4, 4), 3, 1),
    "gradient-padded": lambda: _call("gradients", "plot_gradient_routing",
                                     -np.arange(9.0).reshape(3, 3), 2, 2, 1),
}

EXPLORERS = {
    "WindowStepper": lambda: _call("window_stepper", "WindowStepper"),
    "WindowStepper-1d": lambda: _call("window_stepper", "WindowStepper", ndim=1, size=9,
                                      padding=2, rounding="ceil"),
    "WindowStepper-notebook-01": lambda: _call("window_stepper", "WindowStepper",
                                               np.arange(25.0).reshape(5, 5), window=3,
                                               stride=2, padding=1),
    "PaddingModeExplorer": lambda: _call("padding_explorer", "PaddingModeExplorer",
                                         input_size=6, window=3, stride=2, pre_padding=3,
                                         post_padding=2),
    "IndexLayoutExplorer": lambda: _call("index_explorer", "IndexLayoutExplorer"),
    "AdaptiveBinsExplorer": lambda: _call("adaptive_explorer", "AdaptiveBinsExplorer",
                                          input_size=7, output_size=4),
    "ZeroPointReluExplorer": lambda: _call("relu_explorer", "ZeroPointReluExplorer"),
}


def _figure(made):
    return getattr(made, "figure", made)


def _cell_number_sizes(fig) -> list[float]:
    from pooltutor.viz import style

    return [t.get_fontsize() for ax in fig.axes for t in style.texts_of(ax)
            if t.get_gid() in CELL_GIDS]


def _check(fig):
    assert_texts_inside(fig)
    sizes = _cell_number_sizes(fig)
    assert not sizes or min(sizes) >= MIN_CELL_PT, f"cell numbers at {min(sizes)} pt"


@pytest.mark.parametrize("case", list(PLOTS))
def test_every_public_plot_keeps_its_texts_inside(case):
    _check(_figure(PLOTS[case]()))


@pytest.mark.parametrize("case", list(EXPLORERS))
def test_every_explorer_picture_keeps_its_texts_inside(case):
    explorer = EXPLORERS[case]()
    assert explorer.error is None, explorer.error
    assert explorer.figure.dpi >= 80
    _check(explorer.figure)


def test_the_cases_cover_every_public_plot_and_explorer():
    import pooltutor.viz as viz

    plots = {"plot_pooling": "pooling", "plot_padding_modes": "padding",
             "plot_index_layouts": "index", "plot_adaptive_bins": "adaptive",
             "plot_zero_point_relu": "relu", "plot_quant_chain": "chain",
             "plot_image_pooling": "gallery", "plot_unpool": "unpool",
             "plot_gradient_routing": "gradient"}
    public = {name for name in viz.__all__ if name.startswith("plot_")}
    assert public == set(plots)
    for prefix in plots.values():
        assert 2 <= sum(case.startswith(prefix + "-") for case in PLOTS) <= 5, prefix
    explorers = {name for name in viz.__all__ if name[0].isupper() and name not in ("SelfCheck", "Folded")}
    assert explorers <= {case.split("-")[0] for case in EXPLORERS}
