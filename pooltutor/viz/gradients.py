"""Max pooling's backward pass drawn: each output gradient routed to its window's winner.

Used by notebook 03b.  The numbers come from :func:`pooltutor.frameworks.torch_max_pool`
(PyTorch's rules: padding skipped, first maximum wins a tie) and
:func:`pooltutor.unpool.max_pool_backward` (the scatter); this module only draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import PoolTutorError, check_tensor
from ..frameworks import torch_max_pool
from ..unpool import max_pool_backward
from . import style
from .described import DescribedFigure

__all__ = ["plot_gradient_routing", "GradientRoutingPlot"]


@dataclass(frozen=True, eq=False)
class GradientRoutingPlot(DescribedFigure):
    """What :func:`plot_gradient_routing` drew.

    Attributes
    ----------
    figure : matplotlib Figure
    axes : tuple of two Axes
        The input (winners boxed) and the routed gradient.
    images : tuple of two AxesImage
    output, indices : numpy.ndarray
        The pooled output and its per-plane indices (2-D).
    grad : numpy.ndarray
        The output gradient that was routed (2-D, shaped like ``output``).
    grad_in : numpy.ndarray
        The input's gradient (2-D, shaped like ``x``).
    wins : dict
        ``{(row, col): number of windows won}`` for every winning input cell.
    titles : tuple of str
    """

    figure: Any
    axes: tuple
    images: tuple
    output: np.ndarray
    indices: np.ndarray
    grad: np.ndarray
    grad_in: np.ndarray
    wins: dict
    titles: tuple

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        twice = sorted(cell for cell, n in self.wins.items() if n > 1)
        extra = (f" Input cells {', '.join(map(str, twice))} win several windows and receive "
                 f"the sum of their gradients." if twice else "")
        return (f"Max pooling's backward pass: left, the {self.grad_in.shape[0]}x"
                f"{self.grad_in.shape[1]} input with its {len(self.wins)} winning cell(s) boxed; "
                f"right, the input gradient: each of the {self.grad.size} output gradients "
                f"goes to its window's winner, every other cell gets 0.{extra}")


def plot_gradient_routing(x, kernel, stride=None, padding=0, dilation=1, ceil_mode=False, *,
                          grad=None, fig=None, ax=None) -> GradientRoutingPlot:
    """Draw a 2-D input with its max-pool winners boxed, beside the gradient routed to them.

    Parameters
    ----------
    x : 2-D array
        One plane (not modified).
    kernel, stride, padding, dilation, ceil_mode :
        As :func:`pooltutor.frameworks.torch_max_pool` (``stride`` defaults to ``kernel``).
    grad : 2-D array shaped like the output, optional
        The gradient arriving at the output; default all ones, so that the routed
        gradient counts how many windows each cell won.
    fig : matplotlib.figure.Figure, optional
        Drawn on (after ``fig.clear()``); a new Figure by default.
    ax : pair of Axes, optional
        Instead of ``fig``: the two Axes to draw into.

    Returns
    -------
    GradientRoutingPlot

    Examples
    --------
    >>> p = plot_gradient_routing(np.array([[1.0, 9, 2, 3]]), (1, 2), (1, 1))
    >>> p.grad_in.tolist(), p.wins
    ([[0.0, 2.0, 0.0, 1.0]], {(0, 1): 2, (0, 3): 1})
    """
    x2 = check_tensor("x", x, min_ndim=2, max_ndim=2, layout="(H, W)")
    y, idx = torch_max_pool(x2[None, None], kernel, stride, padding, dilation, ceil_mode,
                            return_indices=True)
    if grad is None:
        g = np.ones(y.shape, dtype=np.float64)
    else:
        g = np.asarray(grad)
        if g.shape != y.shape[2:]:
            raise PoolTutorError(f"grad has shape {g.shape}: need the output's {y.shape[2:]}")
        g = g[None, None]
    g_in = max_pool_backward(g if g.dtype.kind == "f" else g.astype(np.float64), idx,
                             (1, 1) + x2.shape)
    counts = max_pool_backward(np.ones(y.shape), idx, (1, 1) + x2.shape)[0, 0]
    wins = {(int(i), int(j)): int(counts[i, j]) for i, j in np.argwhere(counts > 0)}

    style.check_fig(fig)
    if ax is not None:
        from matplotlib.axes import Axes

        if fig is not None:
            raise PoolTutorError("fig and ax were both given: pass one of them")
        axes = tuple(np.asarray(ax, dtype=object).ravel())
        if len(axes) != 2 or not all(isinstance(a, Axes) for a in axes):
            raise PoolTutorError(f"ax={ax!r}: need a pair of matplotlib Axes")
        fig = axes[0].get_figure()
    else:
        h, w = x2.shape
        cell = min(0.6, 3.2 / max(h, w))
        if fig is None:
            from .explorer import new_figure

            fig = new_figure((max(2 * (w * cell + 0.6), 6.4), h * cell + 1.6), dpi=100,
                             layout="constrained")
        else:
            fig.clear()
        axes = tuple(fig.subplots(1, 2, squeeze=True))

    twice = sum(1 for n in wins.values() if n > 1)
    titles = (f"input x: {len(wins)} winner(s) boxed",
              f"gradient routed to x\n{twice} cell(s) won 2+ windows: summed")
    a0, a1 = axes
    im0 = style.draw_grid(a0, x2)
    vmin, vmax = style.shared_limits(g_in[0, 0])
    im1 = style.draw_grid(a1, g_in[0, 0], vmin=vmin, vmax=vmax, mask=counts == 0,
                          mask_color="white", mask_hatch="", mask_text="0")
    for cell in sorted(wins):
        for a in axes:
            style.mark_cell(a, cell)        # a thick rimmed box: shape, not only colour
    a0.set_title(titles[0], fontsize=10.5)
    a1.set_title(titles[1], fontsize=10.5)
    for a in axes:
        a.set_aspect("equal")
        for artist in (*a.texts, *a.patches, *a.images):
            artist.set_in_layout(False)
    return GradientRoutingPlot(fig, axes, (im0, im1), y[0, 0], idx[0, 0], g[0, 0], g_in[0, 0],
                               wins, titles)
