"""Unpooling drawn: the input beside tensors rebuilt with :mod:`pooltutor.unpool`.

Used by notebook 03 to show that MaxUnpool with the wrong index layout
writes values to the wrong cells (or refuses).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_tensor
from ..pooling import max_pool  # noqa: F401  (used by the doctests)
from ..unpool import max_unpool  # noqa: F401  (used by the doctests)
from . import style
from .described import DescribedFigure

__all__ = ["plot_unpool", "UnpoolPlot"]


@dataclass(frozen=True, eq=False)
class UnpoolPlot(DescribedFigure):
    """What :func:`plot_unpool` drew (a scikit-learn style Display).

    Attributes
    ----------
    figure : matplotlib Figure
    axes : ndarray of Axes, shaped ``(channels, 1 + len(panels))``
        Row ``c`` is channel ``c``: the input first, then one panel per entry.
    images : ndarray of AxesImage, shaped like ``axes``
    titles : tuple of str
        The panel titles (keys of ``panels``).
    wrong : dict
        ``{(title, c): ((row, col), ...)}``: the cells that differ from the
        reference panel (outlined, gid ``"wrong"``); empty without ``reference``.
    n : int
        The batch entry drawn.
    """

    figure: Any
    axes: Any
    images: Any
    titles: tuple
    wrong: dict
    n: int

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        channels = len(self.axes)
        wrong = {t for (t, _c), cells in self.wrong.items() if cells}
        tail = (f" Cells that differ from the reference are outlined in: "
                f"{', '.join(sorted(wrong))}." if wrong else "")
        return (f"MaxUnpool of batch entry {self.n}: the input and the panels "
                f"{', '.join(self.titles)}, one row per channel ({channels}).{tail}")


def plot_unpool(x, panels: Mapping[str, np.ndarray], *, n: int = 0, reference: str | None = None,
                fig=None, ax=None) -> UnpoolPlot:
    """Draw the input and several unpooled tensors side by side, one row per channel.

    Parameters
    ----------
    x : array shaped ``(N, C, H, W)`` or ``(N, C, W)``
        The pooled input (first column).
    panels : mapping of title to array shaped like ``x``
        The unpooled tensors, one column each; their zeros (where nothing was
        written) are drawn white.
    n : int
        The batch entry drawn.
    reference : str, optional
        The title of the correct panel: cells of the other panels that
        differ from it are outlined in red dashes, and their titles say how
        many.
    fig : matplotlib.figure.Figure, optional
        Drawn on (after ``fig.clear()``); a new Figure by default.
    ax : array of Axes, optional
        Instead of ``fig``: the Axes to draw into, ``channels`` rows of
        ``1 + len(panels)`` (input first), e.g. ``fig.subplots(C, 1 + len(panels))``.

    Returns
    -------
    UnpoolPlot

    Examples
    --------
    >>> x = np.arange(16.0).reshape(1, 1, 4, 4)
    >>> y, idx = max_pool(x, 2, return_indices=True)
    >>> p = plot_unpool(x, {"right": max_unpool(y, idx, x.shape)}, reference="right")
    >>> [ax.get_title() for ax in p.figure.axes], p.wrong
    (['input x  (n=0, c=0)', 'right  (c=0)'], {})
    """
    x = check_tensor("x", x, max_ndim=4, layout="(N, C, W) or (N, C, H, W)")
    if not isinstance(panels, Mapping) or not panels:
        raise PoolTutorTypeError("panels: need a non-empty mapping of title -> unpooled array")
    arrays = {}
    for title, arr in panels.items():
        arr = np.asarray(arr)
        if arr.shape != x.shape:
            raise PoolTutorError(f"panels[{title!r}] has shape {arr.shape}: need x's {x.shape}")
        arrays[str(title)] = arr
    if reference is not None and reference not in arrays:
        raise PoolTutorError(
            f"reference={reference!r} is not one of the panel titles {list(arrays)!r}"
        )
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
            or not 0 <= n < x.shape[0]:
        raise PoolTutorError(f"n={n!r} is not allowed: need an int in [0, {x.shape[0]})")
    channels = x.shape[1]
    cols = 1 + len(arrays)
    rows_per = 1 if x.ndim == 3 else x.shape[2]
    width = x.shape[-1]
    cell = min(0.55, 3.0 / max(width, rows_per))
    style.check_fig(fig)
    if ax is not None:
        from matplotlib.axes import Axes

        if fig is not None:
            raise PoolTutorError("fig and ax were both given: pass one of them")
        grid = np.asarray(ax, dtype=object)
        if grid.ndim == 1 and channels == 1:
            grid = grid[None, :]
        if grid.shape != (channels, cols) or not all(isinstance(a, Axes) for a in grid.ravel()):
            raise PoolTutorTypeError(f"ax has shape {grid.shape}: need {channels} row(s) of "
                                     f"{cols} matplotlib Axes (input first, then one per panel)")
        fig = grid[0, 0].get_figure()
    else:
        if fig is None:
            from .explorer import new_figure

            fig = new_figure((max(cols * (width * cell + 0.5), 6.0),
                              channels * (rows_per * cell + 0.9) + 0.4), dpi=100,
                             layout="constrained")
        else:
            fig.clear()
        grid = fig.subplots(channels, cols, squeeze=False)
    vmin, vmax = style.shared_limits(x[n], *(a[n] for a in arrays.values()))
    images = np.empty(grid.shape, dtype=object)
    wrong = {}
    ref = arrays.get(reference) if reference is not None else None
    for c in range(channels):
        ax = grid[c, 0]
        images[c, 0] = style.draw_grid(ax, x[n, c], vmin=vmin, vmax=vmax)
        ax.set_title(f"input x  (n={n}, c={c})", fontsize=10.5)
        for k, (title, arr) in enumerate(arrays.items(), start=1):
            ax = grid[c, k]
            # cells that no value was written to (0) stay white, so the maxima stand out
            images[c, k] = style.draw_grid(ax, arr[n, c], vmin=vmin, vmax=vmax,
                                           mask=arr[n, c] == 0, mask_color="white",
                                           mask_hatch="", mask_text="0")
            label = f"{title}  (c={c})"
            if ref is not None and title != reference:
                diff = np.argwhere(arr[n, c].reshape(rows_per, width)
                                   != ref[n, c].reshape(rows_per, width))
                wrong[(title, c)] = tuple(tuple(int(v) for v in d) for d in diff)
                style.outline_cells(ax, [tuple(int(v) for v in d) for d in diff],
                                    color=style.WRONG_COLOR, linewidth=2.2,
                                    linestyle=(0, (3, 1.5)), gid="wrong")
                label += f"\n{len(diff)} cell(s) wrong" if len(diff) else "\nall right"
                ax.set_title(label, fontsize=10.5,
                             color=style.WRONG_COLOR if len(diff) else style.RIGHT_COLOR)
            else:
                ax.set_title(label, fontsize=10.5)
    for ax in grid.ravel():
        ax.set_aspect("equal")
        if x.ndim == 3:
            ax.set_yticks([])
        # the cell artists stay inside the axes: keep them out of constrained layout (faster)
        for artist in (*ax.texts, *ax.patches, *ax.images):
            artist.set_in_layout(False)
    return UnpoolPlot(fig, grid, images, tuple(arrays), wrong, n)
