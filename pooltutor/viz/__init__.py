"""Plots (matplotlib, static) and widget explorers (ipywidgets) on top of the pooltutor core.

The core never imports this package.  Every ``plot_*`` function works under
the Agg backend, takes an optional ``ax`` (an Axes, or a sequence of Axes for
a multi-panel picture) or ``fig``, and returns an object holding what it drew
(``figure``, the axes and main artists, the numbers shown; scikit-learn
Display style); the explorers only wire controls to those functions, and each
has a kernel-free form (``static_widget()``) for exported slides.  Only
matplotlib's public API is used, and every picture keeps its texts inside the
image both as a plain ``savefig`` and as Jupyter's inline backend saves it
(``bbox_inches="tight"``).  Left as a cell's last expression, a Display object shows
itself as that picture with an alt text made from what it drew (:mod:`.described`).

=======================  ==============================  =====================================
concept                  static plot                     explorer
=======================  ==============================  =====================================
window placement         ``plot_pooling``                ``WindowStepper``
padding modes            ``plot_padding_modes``          ``PaddingModeExplorer``
index layouts            ``plot_index_layouts``          ``IndexLayoutExplorer``
adaptive bins            ``plot_adaptive_bins``          ``AdaptiveBinsExplorer``
zero-point ReLU          ``plot_zero_point_relu``,       ``ZeroPointReluExplorer``
                         ``plot_quant_chain``
a picture, many rules    ``plot_image_pooling``          --
MaxUnpool by layout      ``plot_unpool``                 --
gradient routing         ``plot_gradient_routing``       --
exercises                --                              ``SelfCheck``
long explain() texts     ``folded`` (``Folded``)         --
=======================  ==============================  =====================================

Names are imported on first use, so ``import pooltutor.viz`` stays cheap.
"""

from __future__ import annotations

import importlib

# imported at once (a few lines, no matplotlib): the function shadows its module's name
from .folded import Folded, folded  # noqa: F401  (public: listed in __all__)

_LAZY = {
    "plot_pooling": "heatmaps",
    "plot_padding_modes": "padding_modes",
    "plot_index_layouts": "indices",
    "plot_adaptive_bins": "adaptive",
    "plot_zero_point_relu": "zero_point",
    "plot_quant_chain": "quant_chain",
    "plot_image_pooling": "gallery",
    "plot_unpool": "unpool",
    "plot_gradient_routing": "gradients",
    "WindowStepper": "window_stepper",
    "PaddingModeExplorer": "padding_explorer",
    "IndexLayoutExplorer": "index_explorer",
    "AdaptiveBinsExplorer": "adaptive_explorer",
    "ZeroPointReluExplorer": "relu_explorer",
    "SelfCheck": "selfcheck",
}

__all__ = sorted([*_LAZY, "Folded", "folded"])


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'pooltutor.viz' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
