"""Small helpers for the first course notebooks: a real picture pooled under different rules.

* :func:`sample_image` loads one of the pictures that ship with matplotlib
  (``mpl-data/sample_data``; Grace Hopper's portrait by default) as a
  grayscale ``(1, 1, H, W)`` float64 array in ``[0, 1]``, ready for
  :func:`pooltutor.pooling.max_pool` and :func:`pooltutor.pooling.avg_pool`.
* :func:`pool_image` runs one pooling described by a small dict
  (``{"op": "max", "kernel": 8, "rounding": "ceil_torch"}``) and
  :func:`config_label` names it; :func:`plot_image_pooling` draws the input
  and every pooled result side by side, *on the input's coordinates*, so that
  a ceil-mode output visibly reaches past the picture's border and a coarse
  stride visibly gives bigger pixels.

The ceil mode across runtimes (``compare_ceil_modes``) lives in
:mod:`pooltutor.comparison`, the DirectML struct model in :mod:`pooltutor.directml`.

Every number comes from the pooltutor engine (:mod:`pooltutor.pooling`,
:mod:`pooltutor.geometry`); nothing here re-derives an output size.

>>> import numpy as np
>>> x = np.arange(16.0).reshape(1, 1, 4, 4)
>>> r = pool_image(x, {"op": "max", "kernel": 3, "stride": 2, "rounding": "ceil_torch"})
>>> r.output[0, 0].tolist()
[[10.0, 11.0], [14.0, 15.0]]
>>> config_label({"op": "max", "kernel": 3, "stride": 2, "rounding": "ceil_torch"})
'max K=3 S=2 ceil_torch'

See Also
--------
notebooks/00_course_map.py : the picture demo.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int, check_tensor
from . import style
from .described import DescribedFigure


@dataclass(frozen=True, eq=False)
class ImagePoolingPlot(DescribedFigure):
    """What :func:`plot_image_pooling` drew.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    axes : tuple of Axes
        One per panel: the input first (with ``show_input``), then one per configuration.
    images : tuple of AxesImage
        The picture of each panel, in the same order.
    results : tuple of PoolResult
        The pooling of each configuration.
    titles : tuple of str
        The title of each panel.
    view : (row_start, row_stop, col_start, col_stop)
        The part of the input's pixel grid every panel shows.
    """

    figure: Any
    axes: tuple
    images: tuple
    results: tuple
    titles: tuple
    view: tuple

    @property
    def alt_text(self) -> str:
        """What the picture shows, in words (the image's alt text in Jupyter)."""
        shapes = [f"{t} ({'x'.join(map(str, r.output.shape[-2:]))})"
                  for t, r in zip(self.titles[-len(self.results):], self.results, strict=True)]
        return (f"A picture pooled under {len(self.results)} configurations, side by side: "
                f"{'; '.join(shapes)}. Coarser rules keep fewer pixels.")

__all__ = [
    "CONFIG_KEYS",
    "ImagePoolingPlot",
    "config_label",
    "plot_image_pooling",
    "pool_image",
    "sample_image",
    "sample_image_names",
]

#: ITU-R BT.601 luma weights (what PIL's "L" mode uses) for RGB -> gray.
LUMA = (0.299, 0.587, 0.114)
_LUMA_PER_MILLE = (299, 587, 114)

_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")

#: Keys a pooling configuration may hold; ``op`` and ``kernel`` are required.
CONFIG_KEYS: tuple[str, ...] = (
    "op",
    "kernel",
    "stride",
    "padding",
    "dilation",
    "rounding",
    "divisor",
    "label",
)
_OPS = ("max", "avg")


# --------------------------------------------------------------------------- the picture


def _sample_dir() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "sample_data"


def sample_image_names() -> tuple[str, ...]:
    """The picture files that the installed matplotlib ships in ``mpl-data/sample_data``.

    >>> "grace_hopper.jpg" in sample_image_names()
    True
    """
    folder = _sample_dir()
    if not folder.is_dir():
        return ()
    return tuple(
        sorted(
            p.name for p in folder.iterdir() if p.suffix.lower() in _IMAGE_SUFFIXES and p.is_file()
        )
    )


def sample_image(name: str = "grace_hopper.jpg") -> np.ndarray:
    """One of matplotlib's sample pictures as a grayscale ``(1, 1, H, W)`` float64 array in [0, 1].

    Parameters
    ----------
    name : str
        A file of :func:`sample_image_names` (default: Grace Hopper's
        portrait, 600 x 512 pixels).

    Returns
    -------
    numpy.ndarray
        Shape ``(1, 1, H, W)``: one picture, one channel; gray =
        ``0.299 R + 0.587 G + 0.114 B`` (ITU-R BT.601), 8-bit values divided
        by 255.  A new array: nothing is cached.

    Examples
    --------
    >>> x = sample_image()
    >>> x.shape, x.dtype, float(x.min()), float(x.max())
    ((1, 1, 600, 512), dtype('float64'), 0.0, 1.0)
    """
    names = sample_image_names()
    if not isinstance(name, str):
        raise PoolTutorTypeError(
            f"name={name!r} has type {type(name).__name__}: need one of "
            + ", ".join(repr(n) for n in names)
        )
    check_choice("name", name, names)
    import matplotlib.image as mpimg
    from matplotlib import cbook

    with cbook.get_sample_data(name) as handle:
        pixels = mpimg.imread(handle, format=Path(name).suffix.lstrip(".").lower())
    pixels = np.asarray(pixels)
    if pixels.dtype.kind in "ui":
        # integer weights (per mille) keep the sum exact: white is exactly 1.0
        top = np.iinfo(pixels.dtype).max
        if pixels.ndim == 3:
            gray = pixels[..., :3].astype(np.int64) @ np.array(_LUMA_PER_MILLE)
            pixels = gray / (1000.0 * top)
        else:
            pixels = pixels / float(top)
    else:
        pixels = pixels.astype(np.float64)
        if pixels.ndim == 3:
            pixels = pixels[..., :3] @ np.array(LUMA)
    return np.ascontiguousarray(pixels, dtype=np.float64)[None, None]


# --------------------------------------------------------------------------- configurations


def _check_config(config: Any, where: str = "config") -> dict[str, Any]:
    if not isinstance(config, Mapping):
        raise PoolTutorTypeError(
            f"{where}={config!r} has type {type(config).__name__}: need a dict with 'op' "
            f"('max' or 'avg'), 'kernel' and optionally "
            + ", ".join(repr(k) for k in CONFIG_KEYS[2:])
        )
    unknown = [k for k in config if k not in CONFIG_KEYS]
    if unknown:
        raise PoolTutorError(
            f"{where} has the unknown key(s) {', '.join(map(repr, unknown))}: allowed keys are "
            + ", ".join(repr(k) for k in CONFIG_KEYS)
        )
    for key in ("op", "kernel"):
        if key not in config:
            raise PoolTutorError(f"{where}={dict(config)!r} has no {key!r}: it is required")
    check_choice(f"{where}['op']", config["op"], _OPS)
    if "divisor" in config and config["divisor"] is not None and config["op"] != "avg":
        raise PoolTutorError(
            f"{where}['divisor']={config['divisor']!r} is only allowed with op='avg' "
            f"(got op={config['op']!r})"
        )
    if "label" in config and not isinstance(config["label"], str):
        raise PoolTutorTypeError(
            f"{where}['label']={config['label']!r} has type {type(config['label']).__name__}: "
            f"need a str"
        )
    return dict(config)


def _axis_text(value) -> str:
    if isinstance(value, (list, tuple)):
        if len(set(map(str, value))) == 1:
            return _axis_text(value[0])
        return "(" + ",".join(_axis_text(v) for v in value) + ")"
    return str(value)


def config_label(config: Mapping[str, Any]) -> str:
    """A short title for a pooling configuration (its ``label`` if it has one).

    Stride, padding and dilation are shown only when they are not the
    defaults (stride = kernel, no padding, no dilation).

    >>> config_label({"op": "avg", "kernel": 8})
    'avg K=8 floor'
    >>> config_label({"op": "max", "kernel": 3, "stride": 2, "padding": 1, "dilation": 2})
    'max K=3 S=2 P=1 D=2 floor'
    """
    c = _check_config(config)
    if c.get("label"):
        return c["label"]
    parts = [c["op"], f"K={_axis_text(c['kernel'])}"]
    if c.get("stride") is not None:
        parts.append(f"S={_axis_text(c['stride'])}")
    if c.get("padding", 0) not in (0, None):
        parts.append(f"P={_axis_text(c['padding'])}")
    if c.get("dilation", 1) not in (1, None):
        parts.append(f"D={_axis_text(c['dilation'])}")
    parts.append(c.get("rounding", "floor"))
    if c["op"] == "avg" and c.get("divisor") not in (None, "valid"):
        parts.append(f"divisor={c['divisor']}")
    return " ".join(parts)


def pool_image(image, config: Mapping[str, Any]):
    """Pool ``image`` as ``config`` says; returns the :class:`~pooltutor.pooling.PoolResult`.

    Parameters
    ----------
    image : array_like
        ``(N, C, H, W)`` (or any ``(N, C, *spatial)``), e.g. :func:`sample_image`.
    config : dict
        ``op`` (``'max'`` or ``'avg'``) and ``kernel`` are required;
        ``stride``, ``padding``, ``dilation``, ``rounding`` and (average only)
        ``divisor`` are passed on to :func:`pooltutor.pooling.max_pool` /
        :func:`pooltutor.pooling.avg_pool`; ``label`` is a title.

    Examples
    --------
    >>> x = np.arange(6.0).reshape(1, 1, 1, 6)
    >>> pool_image(x, {"op": "avg", "kernel": (1, 4), "rounding": "ceil"}).output.tolist()
    [[[[1.5, 4.5]]]]
    """
    from ..pooling import avg_pool, max_pool

    c = _check_config(config)
    kwargs = {k: c[k] for k in ("stride", "padding", "dilation", "rounding") if k in c}
    if c["op"] == "max":
        return max_pool(image, c["kernel"], **kwargs)
    if c.get("divisor") is not None:
        kwargs["divisor"] = c["divisor"]
    return avg_pool(image, c["kernel"], **kwargs)


# --------------------------------------------------------------------------- the figure


def _shape_text(shape) -> str:
    return " x ".join(str(s) for s in shape)


def plot_image_pooling(
    image,
    configs: Sequence[Mapping[str, Any]],
    fig=None,
    *,
    ncols: int | None = None,
    show_input: bool = True,
    view=None,
    panel_size: float = 2.6,
    ax=None,
) -> ImagePoolingPlot:
    """The input picture and one pooled version per configuration, side by side.

    Every panel is drawn in the *input's* pixel coordinates: output pixel
    ``(i, j)`` covers ``[i*S - pb, i*S - pb + S)`` rows (and the same for
    columns), so a stride-8 output has visibly bigger pixels, and a ceil-mode
    output reaches past the dashed outline of the input (its last row or
    column comes from a window that hangs over the border; such a panel is
    framed in ``style.DROPPED_COLOR``).  All panels share
    one gray scale (``style.shared_limits``), so max pooling visibly
    brightens and average pooling does not.  Titles give the rule and the
    output shape.

    Parameters
    ----------
    image : array_like
        ``(1, C, H, W)`` with the channel 0 shown (e.g. :func:`sample_image`),
        or a 2-D ``(H, W)`` array.
    configs : sequence of dict
        One pooling per panel, as :func:`pool_image` takes them.
    fig : matplotlib.figure.Figure, optional
        Draw into this figure (it is cleared); default: a new one without pyplot.
    ax : sequence of Axes, optional
        Draw on these Axes instead (one per panel: the input first when
        ``show_input``, then one per configuration); ``fig``, ``ncols`` and
        ``panel_size`` are then not used.
    ncols : int, optional
        Panels per row (default: all in one row up to 4).
    show_input : bool
        Start with a panel of the input itself.
    view : (row_start, row_stop, col_start, col_stop), optional
        Show only this part of the input's pixel grid (a zoom, e.g. on a
        face), the same in every panel; default: everything any panel covers.
    panel_size : float
        Inches per panel.

    Returns
    -------
    ImagePoolingPlot
        The figure, the Axes and images of every panel, the pooling results.

    Examples
    --------
    >>> x = np.arange(30.0).reshape(1, 1, 5, 6)
    >>> p = plot_image_pooling(x, [{"op": "max", "kernel": 2},
    ...                            {"op": "max", "kernel": 2, "rounding": "ceil"}])
    >>> [t.splitlines()[1] for t in p.titles]
    ['5 x 6', '5 x 6 -> 2 x 3', '5 x 6 -> 3 x 3']
    """
    arr = np.asarray(image)
    if arr.ndim not in (2, 4):
        raise PoolTutorError(
            f"image has shape {arr.shape}: need a picture shaped (H, W) or (N, C, H, W)"
        )
    if arr.ndim == 2:
        arr = arr[None, None]
    arr = check_tensor("image", arr, min_ndim=4, max_ndim=4, layout="(N, C, H, W)")
    if isinstance(configs, Mapping) or not isinstance(configs, Sequence) or not configs:
        raise PoolTutorTypeError(
            f"configs={configs!r}: need a non-empty list of dicts, one per panel"
        )
    configs = [_check_config(c, f"configs[{i}]") for i, c in enumerate(configs)]
    panels = len(configs) + bool(show_input)
    if ncols is None:
        ncols = min(panels, 4)
    ncols = check_int("ncols", ncols, minimum=1)
    view_box = None if view is None else _check_view(view)
    results = [pool_image(arr, c) for c in configs]
    nrows = -(-panels // ncols)

    plane = arr[0, 0]
    height, width = plane.shape
    vmin, vmax = style.shared_limits(plane, *(r.output[0, 0] for r in results))

    # the union of all extents, so that every panel has the same scale
    boxes = [(0, width, 0, height)]
    for r in results:
        (ah, aw) = r.geometry.axes
        boxes.append(
            (
                -aw.pad_begin,
                aw.output_size * aw.stride - aw.pad_begin,
                -ah.pad_begin,
                ah.output_size * ah.stride - ah.pad_begin,
            )
        )
    left = min(b[0] for b in boxes)
    right = max(b[1] for b in boxes)
    top = min(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    if view_box is not None:
        top, bottom, left, right = view_box

    style.check_fig(fig)
    if ax is not None:
        from matplotlib.axes import Axes

        axes_given = [ax] if isinstance(ax, Axes) else ax
        if isinstance(axes_given, np.ndarray):          # what fig.subplots returns
            axes_given = list(axes_given.ravel())
        if (fig is not None or not isinstance(axes_given, Sequence)
                or len(axes_given) != panels
                or not all(isinstance(a, Axes) for a in axes_given)):
            raise PoolTutorTypeError(
                f"ax={ax!r}: need a sequence of {panels} matplotlib Axes (one per panel) "
                f"and no fig")
        fig = axes_given[0].get_figure()
    elif fig is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        aspect = (bottom - top) / (right - left)
        fig = Figure(figsize=(panel_size * ncols, (panel_size * aspect + 0.45) * nrows),
                     dpi=100, layout="constrained")
        FigureCanvasAgg(fig)
    else:
        fig.clear()
    drawn_axes, images, titles = [], [], []

    def panel(k, data, extent, title):
        a = axes_given[k] if ax is not None else fig.add_subplot(nrows, ncols, k + 1)
        images.append(a.imshow(data, cmap="gray", vmin=vmin, vmax=vmax, extent=extent,
                               interpolation="nearest"))
        a.add_patch(_outline(width, height))
        a.set_xlim(left, right)
        a.set_ylim(bottom, top)
        a.set_aspect("equal")
        a.set_xticks([])
        a.set_yticks([])
        a.set_title(title, fontsize=9)
        drawn_axes.append(a)
        titles.append(title)
        return a

    k = 0
    if show_input:
        panel(0, plane, (0, width, height, 0), f"input\n{_shape_text(plane.shape)}")
        k = 1
    for config, r in zip(configs, results, strict=True):
        (ah, aw) = r.geometry.axes
        extent = (
            -aw.pad_begin,
            aw.output_size * aw.stride - aw.pad_begin,
            ah.output_size * ah.stride - ah.pad_begin,
            -ah.pad_begin,
        )
        title = (
            f"{config_label(config)}\n{_shape_text(plane.shape)} -> "
            f"{_shape_text(r.output.shape[2:])}"
        )
        a = panel(k, r.output[0, 0], extent, title)
        for spine in a.spines.values():
            spine.set_edgecolor(style.DROPPED_COLOR if _overhangs(r) else "black")
            if _overhangs(r):          # not by colour alone: a thicker, dashed frame
                spine.set_linewidth(2.0)
                spine.set_linestyle("--")
        k += 1
    return ImagePoolingPlot(fig, tuple(drawn_axes), tuple(images), tuple(results),
                            tuple(titles), (top, bottom, left, right))


def _check_view(view) -> tuple[int, int, int, int]:
    if isinstance(view, (str, bytes)) or not isinstance(view, Sequence) or len(view) != 4:
        raise PoolTutorTypeError(
            f"view={view!r}: need (row_start, row_stop, col_start, col_stop) in input pixels"
        )
    r0, r1, c0, c1 = (check_int("view", v) for v in view)
    if not (r0 < r1 and c0 < c1):
        raise PoolTutorError(
            f"view={tuple(view)!r} is empty: need row_start < row_stop and col_start < col_stop"
        )
    return r0, r1, c0, c1


def _outline(width, height):
    from matplotlib.patches import Rectangle

    return Rectangle(
        (0, 0),
        width,
        height,
        fill=False,
        edgecolor=style.WINDOW_COLOR,
        linewidth=1.3,
        linestyle="--",
        gid="input-extent",
        zorder=3,
    )


def _overhangs(result) -> bool:
    """True when a last window reaches past the padded input (a ceil-mode row or column)."""
    return any(a.end_overhang > 0 for a in result.geometry.axes)
