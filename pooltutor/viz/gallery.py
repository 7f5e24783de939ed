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
* :func:`compare_ceil_modes` pools one tensor "with ceil mode" in every
  runtime of :mod:`pooltutor.frameworks` and tabulates the shapes and values
  (TV02-TV04: why one model gets different shapes in different runtimes).
* :func:`dml_max_pooling2_layout` models the C struct
  ``DML_MAX_POOLING2_OPERATOR_DESC`` of DirectML (seed 002) with
  :mod:`ctypes` on a 64-bit and on a 32-bit layout, to check the seed's size
  and field-offset table.

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
notebooks/01_window_placement.py : the DirectML struct side note.
notebooks/02_output_size_rounding.py : the ceil mode across runtimes.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import PoolTutorError, PoolTutorTypeError, check_choice, check_int, check_tensor
from . import style

__all__ = [
    "CEIL_RUNTIMES",
    "CONFIG_KEYS",
    "RuntimeRow",
    "RuntimeTable",
    "compare_ceil_modes",
    "StructField",
    "StructLayout",
    "config_label",
    "dml_max_pooling2_layout",
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
):
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
    matplotlib.figure.Figure

    Examples
    --------
    >>> x = np.arange(30.0).reshape(1, 1, 5, 6)
    >>> fig = plot_image_pooling(x, [{"op": "max", "kernel": 2},
    ...                              {"op": "max", "kernel": 2, "rounding": "ceil"}])
    >>> [ax.get_title().splitlines()[1] for ax in fig.axes]
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

    if fig is None:
        from .explorer import new_figure

        aspect = (bottom - top) / (right - left)
        fig = new_figure(
            (panel_size * ncols, (panel_size * aspect + 0.45) * nrows),
            dpi=100,
            layout="constrained",
        )
    else:
        fig.clear()

    def panel(k, data, extent, title):
        ax = fig.add_subplot(nrows, ncols, k + 1)
        ax.imshow(data, cmap="gray", vmin=vmin, vmax=vmax, extent=extent, interpolation="nearest")
        ax.add_patch(_outline(width, height))
        ax.set_xlim(left, right)
        ax.set_ylim(bottom, top)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(title, fontsize=9)
        return ax

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
        ax = panel(k, r.output[0, 0], extent, title)
        for spine in ax.spines.values():
            spine.set_edgecolor(style.DROPPED_COLOR if _overhangs(r) else "black")
        k += 1
    return fig


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


# --------------------------------------------------------------------------- DirectML struct


@dataclass(frozen=True)
class StructField:
    """One field of a C struct: name, C type, size and byte offset."""

    name: str
    c_type: str
    size: int
    offset: int


@dataclass(frozen=True)
class StructLayout:
    """The memory layout of a C struct as :mod:`ctypes` computes it for one pointer width."""

    name: str
    pointer_bits: int
    size: int
    fields: tuple[StructField, ...]

    def offsets(self) -> dict[str, int]:
        return {f.name: f.offset for f in self.fields}

    def table(self) -> str:
        """The layout as an aligned text table (field, C type, size, offset)."""
        width = max(len(f.name) for f in self.fields)
        ctype = max(len(f.c_type) for f in self.fields)
        lines = [f"{self.name}, {self.pointer_bits}-bit layout: {self.size} bytes"]
        for f in self.fields:
            lines.append(
                f"  {f.name:<{width}}  {f.c_type:<{ctype}}  size {f.size}  offset +{f.offset}"
            )
        return "\n".join(lines)


#: ``DML_MAX_POOLING2_OPERATOR_DESC`` as declared in ``DirectML.h`` (and seed 002).
DML_MAX_POOLING2_FIELDS: tuple[tuple[str, str], ...] = (
    ("InputTensor", "const DML_TENSOR_DESC*"),
    ("OutputTensor", "const DML_TENSOR_DESC*"),
    ("OutputIndicesTensor", "const DML_TENSOR_DESC*"),
    ("DimensionCount", "UINT"),
    ("Strides", "const UINT*"),
    ("WindowSize", "const UINT*"),
    ("StartPadding", "const UINT*"),
    ("EndPadding", "const UINT*"),
    ("Dilations", "const UINT*"),
)


def dml_max_pooling2_layout(pointer_bits: int = 64) -> StructLayout:
    """Size and field offsets of DirectML's ``DML_MAX_POOLING2_OPERATOR_DESC``.

    :mod:`ctypes` lays the struct out with the host's C alignment rules; a
    pointer is modelled as an unsigned integer of ``pointer_bits`` bits
    (``c_uint64`` for x64, ``c_uint32`` for x86) and ``UINT`` as ``c_uint32``,
    so both layouts can be computed on any machine.

    >>> print(dml_max_pooling2_layout(64).table())
    DML_MAX_POOLING2_OPERATOR_DESC, 64-bit layout: 72 bytes
      InputTensor          const DML_TENSOR_DESC*  size 8  offset +0
      OutputTensor         const DML_TENSOR_DESC*  size 8  offset +8
      OutputIndicesTensor  const DML_TENSOR_DESC*  size 8  offset +16
      DimensionCount       UINT                    size 4  offset +24
      Strides              const UINT*             size 8  offset +32
      WindowSize           const UINT*             size 8  offset +40
      StartPadding         const UINT*             size 8  offset +48
      EndPadding           const UINT*             size 8  offset +56
      Dilations            const UINT*             size 8  offset +64
    >>> dml_max_pooling2_layout(32).size
    36
    """
    pointer_bits = check_int("pointer_bits", pointer_bits)
    if pointer_bits not in (32, 64):
        raise PoolTutorError(
            f"pointer_bits={pointer_bits} is not allowed: need 32 (x86) or 64 (x64)"
        )
    pointer = ctypes.c_uint64 if pointer_bits == 64 else ctypes.c_uint32
    fields = [
        (name, pointer if c_type.endswith("*") else ctypes.c_uint32)
        for name, c_type in DML_MAX_POOLING2_FIELDS
    ]
    struct = type("DML_MAX_POOLING2_OPERATOR_DESC", (ctypes.Structure,), {"_fields_": fields})
    out = tuple(
        StructField(name, c_type, getattr(struct, name).size, getattr(struct, name).offset)
        for name, c_type in DML_MAX_POOLING2_FIELDS
    )
    return StructLayout("DML_MAX_POOLING2_OPERATOR_DESC", pointer_bits, ctypes.sizeof(struct), out)


# ------------------------------------------------------------------ ceil mode across runtimes

#: What "ceil mode" is called in each runtime, and the function of
#: :mod:`pooltutor.frameworks` that runs it (semantics.md 1.1 and 2.4).
CEIL_RUNTIMES: tuple[tuple[str, str], ...] = (
    ("PyTorch max_pool, ceil_mode=True", "torch_max_pool"),
    ("ONNX MaxPool, ceil_mode=1", "onnx_max_pool"),
    ("OpenVINO MaxPool-8, rounding_type=ceil", "openvino_max_pool/ceil"),
    ("OpenVINO MaxPool-14, rounding_type=ceil_torch", "openvino_max_pool/ceil_torch"),
    (
        "TensorRT EXPLICIT_ROUND_UP (onnx-tensorrt's ceil_mode=1)",
        "tensorrt_pooling/EXPLICIT_ROUND_UP",
    ),
    ("TensorRT 8 CAFFE_ROUND_UP", "tensorrt_pooling/CAFFE_ROUND_UP"),
)


@dataclass(frozen=True)
class RuntimeRow:
    """One runtime's answer: its output (or why it refused) and any warning it gave."""

    runtime: str
    call: str
    output: np.ndarray | None
    error: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The spatial output shape (None when the runtime refused)."""
        return None if self.output is None else tuple(self.output.shape[2:])


@dataclass(frozen=True)
class RuntimeTable:
    """The answers of several runtimes to the same pooling; ``str()`` is an aligned table."""

    title: str
    rows: tuple[RuntimeRow, ...]

    @property
    def shapes(self) -> dict[str, tuple[int, ...] | None]:
        return {row.runtime: row.shape for row in self.rows}

    def row(self, runtime_or_call: str) -> RuntimeRow:
        """The row whose runtime label or ``call`` is ``runtime_or_call``."""
        for r in self.rows:
            if runtime_or_call in (r.runtime, r.call):
                return r
        allowed = ", ".join(repr(r.call) for r in self.rows)
        raise PoolTutorError(
            f"runtime_or_call={runtime_or_call!r} is not a row: need one of {allowed}"
        )

    def __str__(self) -> str:
        width = max(len(r.runtime) for r in self.rows)
        lines = [self.title]
        for r in self.rows:
            if r.output is None:
                text = f"refuses: {r.error}"
            else:
                values = _nested_text(r.output[0, 0])
                text = f"{_shape_text(r.shape):<7} {values}"
            lines.append(f"  {r.runtime:<{width}}  {text}")
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))


def _nested_text(values: np.ndarray) -> str:
    if values.ndim == 1:
        return "[" + ", ".join(style.format_value(v) for v in values) + "]"
    return "[" + ", ".join(_nested_text(v) for v in values) + "]"


def compare_ceil_modes(x, kernel: int, stride: int, padding: int = 0) -> RuntimeTable:
    """Max-pool ``x`` "in ceil mode" in every runtime of :data:`CEIL_RUNTIMES`.

    The same model exported from PyTorch with ``ceil_mode=True`` becomes an
    ONNX ``MaxPool`` with ``ceil_mode=1``; onnx-tensorrt builds it as
    ``EXPLICIT_ROUND_UP`` and an OpenVINO ``MaxPool-8`` IR says
    ``rounding_type=ceil``.  Those two use the *raw* ceil, without PyTorch's
    rule that the last window must start inside the input or the begin
    padding, so their output can be one larger (TV02, TV03, TV04).

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)`` with 1 or 2 spatial axes
    kernel, stride, padding : int
        The same on every axis; ``padding`` on both sides.

    Returns
    -------
    RuntimeTable
        A row per runtime with its output, or the reason it refuses the
        combination (PyTorch's padding limit, TensorRT's CAFFE check);
        warnings raised on the way are kept in the row's ``notes``.

    Examples
    --------
    TV03: ``x = 1..5``, kernel 2, stride 2, padding 1:

    >>> t = compare_ceil_modes(np.arange(1.0, 6.0).reshape(1, 1, 5), 2, 2, 1)
    >>> print(t)      # doctest: +NORMALIZE_WHITESPACE
    max pool, kernel 2, stride 2, padding 1, input 5, ceil mode:
      PyTorch max_pool, ceil_mode=True                         3       [1, 3, 5]
      ONNX MaxPool, ceil_mode=1                                3       [1, 3, 5]
      OpenVINO MaxPool-8, rounding_type=ceil                   4       [1, 3, 5, -1.8e+308]
      OpenVINO MaxPool-14, rounding_type=ceil_torch            3       [1, 3, 5]
      TensorRT EXPLICIT_ROUND_UP (onnx-tensorrt's ceil_mode=1)  4       [1, 3, 5, -inf]
      TensorRT 8 CAFFE_ROUND_UP                                3       [1, 3, 5]
    """
    import warnings

    from .. import frameworks

    arr = check_tensor("x", x, min_ndim=3, max_ndim=4, layout="(N, C, L) or (N, C, H, W)")
    k = check_int("kernel", kernel, minimum=1)
    s = check_int("stride", stride, minimum=1)
    p = check_int("padding", padding, minimum=0)
    nd = arr.ndim - 2
    calls = {
        "torch_max_pool": lambda: frameworks.torch_max_pool(arr, k, s, p, ceil_mode=True),
        "onnx_max_pool": lambda: frameworks.onnx_max_pool(
            arr, [k] * nd, [s] * nd, [p] * (2 * nd), ceil_mode=1
        )[0],
        "openvino_max_pool/ceil": lambda: frameworks.openvino_max_pool(
            arr, s, p, p, k, rounding_type="ceil"
        )[0],
        "openvino_max_pool/ceil_torch": lambda: frameworks.openvino_max_pool(
            arr, s, p, p, k, rounding_type="ceil_torch"
        )[0],
        "tensorrt_pooling/EXPLICIT_ROUND_UP": lambda: frameworks.tensorrt_pooling(
            arr, k, s, p, p, padding_mode="EXPLICIT_ROUND_UP"
        ),
        "tensorrt_pooling/CAFFE_ROUND_UP": lambda: frameworks.tensorrt_pooling(
            arr, k, s, p, p, padding_mode="CAFFE_ROUND_UP"
        ),
    }
    rows = []
    for runtime, call in CEIL_RUNTIMES:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out, error = calls[call](), None
            except (PoolTutorError, PoolTutorTypeError) as exc:
                out, error = None, str(exc)
        rows.append(RuntimeRow(runtime, call, out, error, tuple(str(w.message) for w in caught)))
    size = " x ".join(str(n) for n in arr.shape[2:])
    title = f"max pool, kernel {k}, stride {s}, padding {p}, input {size}, ceil mode:"
    return RuntimeTable(title, tuple(rows))
