"""One thin function per framework operator: each framework's pooling, exactly.

Every function here is a *mapping*: it checks the parameters the way the
framework spells them, translates them into the engine's vocabulary
(:mod:`pooltutor.pooling`: ``rounding``, ``pad_taps``, ``empty_value``,
``nan_policy``, ``ties``, ``index_layout``, ``divisor``) and calls the engine.
No function computes a pooling or an output size of its own; the rules each
one hands to the engine are listed in :data:`ENGINE_RULES` (and, with the
reasons, in ``docs/frameworks.md``).

=================================== ==========================================================
function                            framework operator
=================================== ==========================================================
:func:`torch_max_pool`              ``torch.nn.functional.max_pool1d/2d/3d``
:func:`torch_avg_pool`              ``torch.nn.functional.avg_pool1d/2d/3d``
:func:`torch_adaptive_max_pool`     ``torch.nn.functional.adaptive_max_pool1d/2d/3d``
:func:`torch_adaptive_avg_pool`     ``torch.nn.functional.adaptive_avg_pool1d/2d/3d``
:func:`onnx_max_pool`               ONNX ``MaxPool`` (opset 22), ``Y`` and ``Indices``
:func:`onnx_average_pool`           ONNX ``AveragePool`` (opset 22)
:func:`openvino_max_pool`           OpenVINO ``MaxPool-14`` (``MaxPool-8`` without ``ceil_torch``)
:func:`openvino_adaptive_max_pool`  OpenVINO ``AdaptiveMaxPool-8``
:func:`openvino_adaptive_avg_pool`  OpenVINO ``AdaptiveAvgPool-8``
:func:`directml_max_pooling2`       DirectML ``DML_MAX_POOLING2_OPERATOR_DESC``
:func:`tensorrt_pooling`            TensorRT ``IPoolingLayer`` with its ``PaddingMode``
:func:`openvino_avg_pool`           OpenVINO ``AvgPool-14``
:func:`tensorflow_max_pool_with_argmax`  ``tf.nn.max_pool_with_argmax``
:func:`tensorflow_max_pool`         ``tf.nn.max_pool`` (1-3 spatial axes)
:func:`tensorflow_avg_pool`         ``tf.nn.avg_pool`` (1-3 spatial axes)
=================================== ==========================================================

Spec and runtime (``follow``): every function takes a keyword-only
``follow="spec"`` (the default: the framework's written specification) or
``follow="runtime"``: what the framework's own CPU runtime computes at the
version in :data:`RUNTIME_VERSIONS` (onnxruntime for ``onnx_*``, OpenVINO's
CPU plugin, TensorFlow's CPU kernels, PyTorch's CPU kernels), departures
included.  Each departure is a named rule in :data:`RUNTIME_RULES` (and in
``docs/frameworks.md``, with the smallest input that shows it); where the
runtime refuses a call, ``follow="runtime"`` raises ``ValueError`` with the
runtime's reason.  DirectML and TensorRT cannot run here, so their
``follow="runtime"`` raises ``ValueError`` saying so.

>>> x = np.array([[[1.0, 2.0]]], dtype=np.float32)                  # OpenVINO same_lower + ceil
>>> openvino_max_pool(x, 3, 0, 0, 1, dilations=2, rounding_type="ceil", auto_pad="same_lower",
...                   follow="runtime")[0].tolist()
[[[1.0, -3.4028234663852886e+38]]]
>>> openvino_max_pool(x, 3, 0, 0, 1, dilations=2, rounding_type="ceil",
...                   auto_pad="same_lower")[0].tolist()
[[[1.0]]]

The same input, three index conventions (TV22's first plane):

>>> x = np.arange(12.0).reshape(1, 2, 2, 3)
>>> torch_max_pool(x, 2, 1, return_indices=True)[1].tolist()      # per plane
[[[[4, 5]], [[4, 5]]]]
>>> onnx_max_pool(x, [2, 2])[1].tolist()                           # whole tensor
[[[[4, 5]], [[10, 11]]]]
>>> onnx_max_pool(x, [2, 2], storage_order=1)[1].tolist()          # column-major in the plane
[[[[3, 5]], [[9, 11]]]]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar, overload

import numpy as np
from numpy.typing import ArrayLike

from . import pooling
from .errors import (
    PoolTutorError,
    PoolTutorTypeError,
    check_choice,
    check_int,
    check_per_axis,
    check_tensor,
)
from .geometry import (
    AdaptiveGeometry,
    PoolGeometry,
    effective_window,
    pool_geometry,
    same_padding,
)
from .rules import FOLLOWS as _FOLLOWS
from .rules import DivisorRule, Follow, IndexLayout, Rounding

if TYPE_CHECKING:
    from .tensorrt import PaddingMode
from .indexing import from_plane
from .reference import fill_value

__all__ = [
    "ENGINE_RULES",
    "RUNTIME_RULES",
    "RUNTIME_VERSIONS",
    "FOLLOWS",
    "torch_max_pool",
    "torch_avg_pool",
    "torch_adaptive_max_pool",
    "torch_adaptive_avg_pool",
    "onnx_max_pool",
    "onnx_average_pool",
    "openvino_max_pool",
    "openvino_adaptive_max_pool",
    "openvino_adaptive_avg_pool",
    "directml_max_pooling2",
    "tensorrt_pooling",
    "openvino_avg_pool",
    "tensorflow_max_pool_with_argmax",
    "tensorflow_max_pool",
    "tensorflow_avg_pool",
]

# --------------------------------------------------------------------------- the rules

_MAX_FIRST_NAN_LAST = dict(pad_taps="skip", empty_value="neg_inf", empty_index="minus_one",
                           nan_policy="propagate_last", ties="first")

#: The fixed engine rules each dialect passes to :mod:`pooltutor.pooling`
#: (read-only).  The parameters that depend on the call (``rounding`` from
#: ``ceil_mode`` / ``rounding_type`` / ``padding_mode``, ``divisor`` from
#: ``count_include_pad``, ``index_layout`` from ``storage_order``) are given
#: as the choice they are made from.
ENGINE_RULES = MappingProxyType({
    "torch_max_pool": MappingProxyType(dict(
        _MAX_FIRST_NAN_LAST, rounding="floor | ceil_torch (ceil_mode)", index_layout="plane")),
    "torch_avg_pool": MappingProxyType(dict(
        rounding="floor | ceil_torch (ceil_mode)",
        divisor="padded (count_include_pad=True) | valid | divisor_override")),
    "torch_adaptive_max_pool": MappingProxyType(dict(
        nan_policy="propagate_last", ties="first", index_layout="plane")),
    "torch_adaptive_avg_pool": MappingProxyType({}),
    "onnx_max_pool": MappingProxyType(dict(
        _MAX_FIRST_NAN_LAST, rounding="floor | ceil_torch (ceil_mode); SAME_*, VALID: floor",
        index_layout="tensor (storage_order=0) | tensor_colmajor (storage_order=1)")),
    "onnx_average_pool": MappingProxyType(dict(
        rounding="floor | ceil_torch (ceil_mode); SAME_*, VALID: floor",
        divisor="valid (count_include_pad=0) | padded (1)")),
    "openvino_max_pool": MappingProxyType(dict(
        pad_taps="skip", empty_value="lowest", empty_index="plane_start", nan_policy="ignore",
        ties="first", rounding="floor | ceil | ceil_torch (rounding_type); same_*: floor",
        index_layout="tensor, then modulo prod(shape[axis:])")),
    "openvino_adaptive_max_pool": MappingProxyType(dict(
        nan_policy="ignore", ties="first", index_layout="plane")),
    "openvino_adaptive_avg_pool": MappingProxyType({}),
    "directml_max_pooling2": MappingProxyType(dict(
        _MAX_FIRST_NAN_LAST, rounding="floor", index_layout="tensor (as uint32)")),
    "tensorrt_pooling": MappingProxyType(dict(
        pad_taps="neg_inf", empty_value="neg_inf", nan_policy="propagate_last", ties="first",
        rounding="MODE_RULES[padding_mode].pooling_rounding",
        divisor="valid (average_count_excludes_padding=True) | padded")),
    "tensorflow_max_pool_with_argmax": MappingProxyType(dict(
        _MAX_FIRST_NAN_LAST, rounding="floor",
        index_layout="nhwc | nhwc_batch (include_batch_in_index)")),
})


ENGINE_RULES = MappingProxyType(dict(ENGINE_RULES, **{
    "openvino_avg_pool": MappingProxyType(dict(
        rounding="floor | ceil | ceil_torch (rounding_type); same_*: floor",
        divisor="valid (exclude_pad=True) | padded (exclude_pad=False)")),
    "tensorflow_max_pool": MappingProxyType(dict(
        _MAX_FIRST_NAN_LAST, rounding="floor (SAME pads, or VALID)")),
    "tensorflow_avg_pool": MappingProxyType(dict(
        rounding="floor (SAME pads, or VALID)", divisor="valid")),
}))

#: The runtime versions that ``follow="runtime"`` reproduces (measured on CPU).
RUNTIME_VERSIONS = MappingProxyType({
    "onnxruntime": "1.32", "openvino": "2026.4", "tensorflow": "2.21", "torch": "2.13"})

#: The values of ``follow`` (pooltutor.rules.Follow).
FOLLOWS = _FOLLOWS

#: What ``follow="runtime"`` changes, dialect by dialect: each departure of the
#: runtime from the specification, by name (read-only; docs/frameworks.md has the
#: smallest input that shows each one).  ``refuses`` lists the runtime's refusals.
RUNTIME_RULES = MappingProxyType({
    "torch_max_pool": MappingProxyType(dict(
        empty_index="first_tap: an empty window's index is the row-major plane position of "
                    "its first tap at a coordinate >= 0 on every axis (possibly outside the "
                    "input, TV20: 2)",
        refuses="integer x in max_pool1d without return_indices")),
    "torch_avg_pool": MappingProxyType(dict(refuses="int32 / int8 / uint8 x; float16 in 3-D; "
                                                    "int64 (computed in integers) not "
                                                    "reproduced")),
    "torch_adaptive_max_pool": MappingProxyType(dict(
        refuses="integer input (adaptive_max_pool*: not implemented for integer dtypes)")),
    "torch_adaptive_avg_pool": MappingProxyType(dict(
        refuses="integer input (adaptive_avg_pool*: not implemented for integer dtypes)")),
    "onnx_max_pool": MappingProxyType(dict(
        same_pads="undilated: SAME_* total pad (ceil(I/S)-1)*S + K - I from the undilated "
                  "kernel, split with C division (UPPER begin P/2, LOWER begin (P+1)/2), "
                  "negative pads crop the input",
        rounding="SAME_*, VALID: ceil_torch with ceil_mode=1",
        pads_with_auto_pad="ignored",
        short_window="a window longer than the padded input: trunc((I+pb+pe-DK)/S)+1 "
                     "windows (1: it reads what it overlaps, 0: an empty axis, < 0: refused)",
        empty_value="lowest", empty_index="minus_one_each_axis: the layout's code of "
                                           "position (-1, ..., -1) in the plane",
        nan_policy="first_sticks",
        compute_type="float16 computed as float32 (an empty window: -inf)",
        refuses="pads >= kernel ('Pad should be smaller than kernel'); dtypes other than "
                "float16/32/64, int8, uint8")),
    "onnx_average_pool": MappingProxyType(dict(
        same_pads="undilated (as onnx_max_pool); a negative pad cuts the input at both "
                  "ends", rounding="SAME_*, VALID: ceil_torch with "
                                                        "ceil_mode=1",
        pads_with_auto_pad="ignored",
        short_window="as onnx_max_pool (count_include_pad=1 there: not reproduced, raises)",
        refuses="pads >= kernel; dtypes other than float16/float32")),
    "openvino_max_pool": MappingProxyType(dict(
        same_rounding="same_*: the SAME pads, then the rounding_type's own rule (raw ceil "
                      "lays extra windows)",
        compute_type="the CPU plugin computes float16 and float64 as float32 and int64 as "
                     "int32 (values wrap modulo 2**32); lowest() is the compute type's")),
    "openvino_avg_pool": MappingProxyType(dict(
        same_rounding="same_*: the SAME pads, then the rounding_type's own rule",
        divisor="exclude_pad=False: divides by the whole kernel prod(kernel), also where the "
                "window overhangs the padded input",
        divisor_no_pads="exclude_pad=False with all pads 0 (explicit, valid, or same_* that "
                        "need none): divides as exclude_pad=True",
        empty_value="not reproduced: a window with no counted element is nan (0/0) or -0.0 "
                    "depending on the call; follow='runtime' raises ValueError there",
        compute_type="float16 and float64 computed as float32")),
    "openvino_adaptive_max_pool": MappingProxyType(dict(
        refuses="index_element_type='i64' ('CPU plugin does not support i64 for use with "
                "oneDNN')",
        compute_type="float16 and float64 computed as float32, int64 as int32")),
    "openvino_adaptive_avg_pool": MappingProxyType(dict(
        compute_type="float16 and float64 computed as float32")),
    "directml_max_pooling2": MappingProxyType(dict(refuses="everything: cannot run here")),
    "tensorrt_pooling": MappingProxyType(dict(refuses="everything: cannot run here")),
    "tensorflow_max_pool_with_argmax": MappingProxyType(dict(
        nan_policy="first_sticks (the first element of a window is always taken, then only a "
                   "strictly greater one)",
        valid_length="VALID: O = trunc((I - K + S) / S), an empty axis for 0, refused below "
                     "('Computed output size would be negative')")),
    "tensorflow_max_pool": MappingProxyType(dict(
        lowest_start="1-2 spatial axes: every window starts at the dtype's lowest value, NaN "
                     "and -inf never win (an all-NaN or all -inf window gives lowest)",
        nan_policy_3d="3 spatial axes: refused for NaN input (Eigen's reduction order, not "
                      "reproduced)",
        valid_length="as tensorflow_max_pool_with_argmax",
        same_3d="3 spatial axes, SAME: the total pad (ceil(I/S)-1)*S + K - I is not clamped "
                "at 0 and is split with C division (begin trunc(P/2)); a window shorter than "
                "the stride shifts into the input (I=3, K=1, S=3: reads x[1], not x[0])",
        refuses="channels-first data_format ('Default MaxPoolingOp only supports NHWC on "
                "device type CPU'); 3-D input other than float32")),
    "tensorflow_avg_pool": MappingProxyType(dict(
        valid_length="as tensorflow_max_pool_with_argmax",
        same_3d="as tensorflow_max_pool",
        refuses="channels-first data_format; integer input; 3-D input other than float32")),
})


def _follow(follow: Any, function: str) -> bool:
    """``follow`` checked: True for ``"runtime"``, False for ``"spec"``."""
    if not isinstance(follow, str) or follow not in FOLLOWS:
        raise PoolTutorError(
            f"follow={follow!r} is not allowed in {function}: need 'spec' (the framework's "
            f"written specification) or 'runtime' (its CPU runtime, versions in "
            f"RUNTIME_VERSIONS)"
        )
    return follow == "runtime"


def _refused(runtime: str, what: str, reason: str) -> PoolTutorError:
    """A runtime refusal, in words, as the ValueError ``follow="runtime"`` raises."""
    return PoolTutorError(
        f"{what} is refused by {runtime} {RUNTIME_VERSIONS[runtime.split()[0].lower()]} "
        f"(follow='runtime'): {reason}"
    )


def _not_runnable(follow: Any, function: str, framework: str, why: str) -> None:
    if _follow(follow, function):
        raise PoolTutorError(
            f"follow='runtime' is not possible for {function}: {framework} cannot be run on "
            f"this machine ({why}), so there is no runtime to reproduce; use follow='spec'"
        )


def _compute_as(x: np.ndarray, table: Mapping[str, type[np.generic]]) -> np.ndarray:
    """``x`` converted to the dtype a runtime computes it in (numpy's casting: int64 to
    int32 wraps modulo 2**32, float64 to float32 rounds to nearest)."""
    target = table.get(x.dtype.name)
    return x if target is None else x.astype(target)


@overload
def _lowest_start(y: np.ndarray, idx: np.ndarray, lowest: Any, input_shape: tuple[int, ...],
                  layout: IndexLayout) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def _lowest_start(y: np.ndarray, idx: None, lowest: Any, input_shape: tuple[int, ...],
                  layout: IndexLayout) -> tuple[np.ndarray, None]: ...
def _lowest_start(y: np.ndarray, idx: np.ndarray | None, lowest: Any,
                  input_shape: tuple[int, ...],
                  layout: IndexLayout) -> tuple[np.ndarray, np.ndarray | None]:
    """A kernel that starts every window at ``lowest`` with the index of its plane's first
    element and takes a tap only if strictly greater (OpenVINO, TensorFlow): every value
    ``<= lowest`` (an empty window, -inf, only NaN) becomes ``lowest`` at that index."""
    below = ~(y > lowest)
    if below.any():
        y = np.where(below, lowest, y).astype(y.dtype, copy=False)
        if idx is not None:
            idx = np.where(below, from_plane(np.zeros_like(idx), input_shape, layout), idx)
    return y, idx


# --------------------------------------------------------------------------- shared checks

#: An int, or one int per spatial axis (what ``check_per_axis`` takes).
_PerAxis = int | Sequence[int]

#: ``(begin, end)`` padding per spatial axis.
_Pads = tuple[tuple[int, int], ...]

#: A choice as the framework spells it (``_ov_choice``: any case).
_Choice = TypeVar("_Choice", bound=str)

_Geometry_ = TypeVar("_Geometry_", PoolGeometry, AdaptiveGeometry)


class _Window(TypedDict):
    """The window placement of a pooling, as keyword arguments of the engine."""

    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: _Pads
    dilation: tuple[int, ...]
    rounding: Rounding


def _indices(r: pooling.PoolResult) -> np.ndarray:
    """The indices of a max pooling run with ``return_indices=True`` (never None there)."""
    if r.indices is None:
        raise AssertionError(f"the engine gave no indices for {r.op} with return_indices=True")
    return r.indices


def _geometry(r: pooling.PoolResult, kind: type[_Geometry_]) -> _Geometry_:
    """``r.geometry``, a :class:`PoolGeometry` for a fixed pooling and an
    :class:`AdaptiveGeometry` for an adaptive one."""
    if not isinstance(r.geometry, kind):
        raise AssertionError(f"the engine gave a {type(r.geometry).__name__} for {r.op}")
    return r.geometry



def _rules(name: str, *keys: str) -> dict[str, Any]:
    """The fixed engine rules of dialect ``name`` (only ``keys``)."""
    rules = ENGINE_RULES[name]
    return {k: rules[k] for k in keys}


_MAX_KEYS = ("pad_taps", "empty_value", "empty_index", "nan_policy", "ties")


def _flag(name: str, value: Any, spelling: str = "True or False") -> bool:
    """A boolean switch given as bool or as the int 0 / 1 (ONNX attributes are ints)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)):
        if value in (0, 1):
            return bool(value)
        raise PoolTutorError(f"{name}={value!r} is not allowed: need {spelling}")
    raise PoolTutorTypeError(f"{name}={value!r} has type {type(value).__name__}: need {spelling}")


def _spatial_ndim(x: np.ndarray) -> int:
    return x.ndim - 2


def _fit_geometry(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
                  pads: Sequence[tuple[int, int]], dilation: Sequence[int], rounding: Rounding,
                  *, kernel_name: str, given: Any, reason: str,
                  overhang_ok: bool = False) -> PoolGeometry:
    """``pool_geometry`` of ``x``'s spatial shape; a window that does not fit the padded
    input is reported with the framework's parameter name and reason.

    ``overhang_ok``: the framework accepts a single window longer than the
    padded input when ceil mode rounds ``(M - DK) / S`` in ``(-1, 0)`` up to 0
    (PyTorch, ONNX), and so does ``pool_geometry`` under the ceil rules.
    """
    spatial = x.shape[2:]
    rows = zip(spatial, kernel, dilation, pads, strict=True)
    for axis, (size, k, d, (pb, pe)) in enumerate(rows):
        dk = effective_window(k, d)
        if dk > size + pb + pe:
            if overhang_ok and rounding == "ceil_torch" and size + pb + pe - dk > -stride[axis]:
                continue    # ceil mode rounds up to one window overhanging the padded input
            raise PoolTutorError(
                f"{kernel_name}={given!r} does not fit x: on spatial axis {axis} the dilated "
                f"window (K-1)*D+1 = ({k}-1)*{d}+1 = {dk} is longer than the padded input "
                f"{size}+{pb}+{pe} = {size + pb + pe}; {reason}"
            )
    # (plain tuples: pool_geometry remembers the geometry of plain arguments)
    return pool_geometry(tuple(spatial), tuple(kernel), tuple(stride),
                         tuple((int(b), int(e)) for b, e in pads), tuple(dilation), rounding)


# --------------------------------------------------------------------------- PyTorch

_TORCH_TOO_SMALL = "PyTorch: 'Output size is too small'"


def _torch_padding(padding: Any, ndim: int) -> tuple[int, ...]:
    if isinstance(padding, (list, tuple)) and any(isinstance(p, (list, tuple)) for p in padding):
        raise PoolTutorTypeError(
            f"padding={padding!r} is not allowed: PyTorch padding is symmetric, one int or one "
            f"int per spatial axis ({ndim}) used on both sides; pad asymmetrically first "
            f"(numpy.pad / torch.nn.functional.pad with value=-inf)"
        )
    return check_per_axis("padding", padding, ndim, minimum=0)


def _torch_half_kernel(padding: Sequence[int], kernel: Sequence[int], which: str,
                       given: Any) -> None:
    """PyTorch: ``padding <= kernel_size // 2`` on every axis."""
    for axis, (p, k) in enumerate(zip(padding, kernel, strict=True)):
        if p > k // 2:
            raise PoolTutorError(
                f"padding={given!r} is not allowed: "
                f"pad should be at most half of {which} (PyTorch), but got pad={p} and "
                f"kernel_size={k} on spatial axis {axis}; need padding <= kernel_size // 2 = "
                f"{k // 2}"
            )


def _torch_common(x: ArrayLike, kernel_size: Any, stride: Any, padding: Any
                  ) -> tuple[np.ndarray, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    kernel = check_per_axis("kernel_size", kernel_size, ndim, minimum=1)
    stride_t = kernel if stride is None else check_per_axis("stride", stride, ndim, minimum=1)
    pad = _torch_padding(padding, ndim)
    return x, ndim, kernel, stride_t, pad


@overload
def torch_max_pool(x: ArrayLike, kernel_size: _PerAxis, stride: _PerAxis | None = ...,
                   padding: _PerAxis = ..., dilation: _PerAxis = ..., ceil_mode: bool = ...,
                   return_indices: Literal[False] = ..., *,
                   follow: Follow = ...) -> np.ndarray: ...
@overload
def torch_max_pool(x: ArrayLike, kernel_size: _PerAxis, stride: _PerAxis | None,
                   padding: _PerAxis, dilation: _PerAxis, ceil_mode: bool,
                   return_indices: Literal[True], *,
                   follow: Follow = ...) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def torch_max_pool(x: ArrayLike, kernel_size: _PerAxis, stride: _PerAxis | None = ...,
                   padding: _PerAxis = ..., dilation: _PerAxis = ..., ceil_mode: bool = ..., *,
                   return_indices: Literal[True],
                   follow: Follow = ...) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def torch_max_pool(x: ArrayLike, kernel_size: _PerAxis, stride: _PerAxis | None = ...,
                   padding: _PerAxis = ..., dilation: _PerAxis = ..., ceil_mode: bool = ...,
                   return_indices: bool = ..., *,
                   follow: Follow = ...) -> np.ndarray | tuple[np.ndarray, np.ndarray]: ...
def torch_max_pool(x: ArrayLike, kernel_size: _PerAxis, stride: _PerAxis | None = None,
                   padding: _PerAxis = 0, dilation: _PerAxis = 1, ceil_mode: bool = False,
                   return_indices: bool = False, *,
                   follow: Follow = "spec") -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """PyTorch ``max_pool1d`` / ``max_pool2d`` / ``max_pool3d`` (chosen by the rank of ``x``).

    PyTorch pads symmetrically, at most half the (undilated) kernel; with
    ``ceil_mode`` it rounds the output length up and then drops a last window
    that would start in the end padding (rule ``ceil_torch``).  Padding is
    skipped, the first maximum in row-major scan order wins a tie, and NaN
    propagates: every NaN takes over, so the index is that of the *last* NaN
    in scan order.  Indices are int64 positions inside each ``(n, c)`` plane.

    Parameters
    ----------
    x : array_like, ``(N, C, L)``, ``(N, C, H, W)`` or ``(N, C, D, H, W)``
    kernel_size, stride, dilation : int or one int per spatial axis
        ``stride`` defaults to ``kernel_size``.
    padding : int or one int per spatial axis
        The same on both sides, ``<= kernel_size // 2`` (PyTorch: "pad should
        be at most half of kernel size", checked on the undilated kernel).
    ceil_mode, return_indices : bool

    Returns
    -------
    Y, or ``(Y, indices)`` with int64 per-plane indices.

    Notes
    -----
    A window with no input element (possible with dilation, TV20) gives
    ``-inf`` (the lowest integer for integer input) and index ``-1`` here;
    PyTorch's CPU kernel returns ``-inf`` with the flattened position of a
    tap outside the input (TV20: 2 for a 2-element input; in 2-D and 3-D
    that number can even fall inside the plane).  ``follow="runtime"``
    reproduces it (rule ``empty_index`` of :data:`RUNTIME_RULES`).

    With ``ceil_mode`` PyTorch accepts one window longer than the padded
    input when it starts inside it (``I=1, K=2, S=2``: one output);
    pooltutor's geometry places only windows that fit the padded input and
    refuses that case with a ``ValueError``.

    Examples
    --------
    >>> x = np.arange(1.0, 6.0).reshape(1, 1, 5)
    >>> y, i = torch_max_pool(x, 2, 2, padding=1, ceil_mode=True, return_indices=True)  # TV03
    >>> y.tolist(), i.tolist()
    ([[[1.0, 3.0, 5.0]]], [[[0, 2, 4]]])
    >>> torch_max_pool(np.array([[[3.0, 3, 1, 3]]]), 2, 1, return_indices=True)[1].tolist()
    [[[0, 1, 3]]]
    """
    runtime = _follow(follow, "torch_max_pool")
    x, ndim, kernel, stride_t, pad = _torch_common(x, kernel_size, stride, padding)
    dil = check_per_axis("dilation", dilation, ndim, minimum=1)
    ceil = _flag("ceil_mode", ceil_mode)
    want = _flag("return_indices", return_indices)
    _torch_half_kernel(pad, kernel, "kernel size", padding)
    if runtime and ndim == 1 and not want:
        _torch_float_only(x, "max_pool1d_impl")      # max_pool1d without indices
    rounding: Rounding = "ceil_torch" if ceil else "floor"
    _fit_geometry(x, kernel, stride_t, [(p, p) for p in pad], dil, rounding,
                  kernel_name="kernel_size", given=kernel_size, reason=_TORCH_TOO_SMALL,
                  overhang_ok=True)
    r = pooling.max_pool(x, kernel, stride_t, pad, dil, rounding=rounding,
                         return_indices=want, index_layout="plane",
                         **_rules("torch_max_pool", *_MAX_KEYS))
    if want and runtime:
        return r.output, _torch_first_tap_index(_indices(r), _geometry(r, PoolGeometry))
    return (r.output, _indices(r)) if want else r.output


def _torch_first_tap_index(idx: np.ndarray, geom: PoolGeometry) -> np.ndarray:
    """PyTorch's CPU kernel (rule ``empty_index``): it starts each window's index at its
    first tap with a coordinate ``>= 0`` on every axis (``while (ih0 < 0) ih0 += dilH``),
    flattened row-major in the plane, and keeps it when no tap wins."""
    empty = idx < 0
    if not empty.any():
        return idx
    ndim = geom.ndim
    first = np.zeros((1, 1) + geom.output_shape, dtype=np.int64)
    for axis, a in enumerate(geom.axes):
        starts = np.array(a.window_starts, dtype=np.int64)
        starts = np.where(starts < 0, starts + (-starts + a.dilation - 1) // a.dilation
                          * a.dilation, starts)
        shape = [1] * (2 + ndim)
        shape[2 + axis] = a.output_size
        first = first * a.input_size + starts.reshape(shape)
    return np.where(empty, first, idx)


def torch_avg_pool(x: ArrayLike, kernel_size: _PerAxis, stride: _PerAxis | None = None,
                   padding: _PerAxis = 0, ceil_mode: bool = False, count_include_pad: bool = True,
                   divisor_override: int | None = None, *,
                   follow: Follow = "spec") -> np.ndarray:
    """PyTorch ``avg_pool1d`` / ``avg_pool2d`` / ``avg_pool3d`` (chosen by the rank of ``x``).

    Symmetric padding of at most half the kernel, the ``ceil_torch`` rule
    with ``ceil_mode``.  The divisor is, by default (``count_include_pad=True``),
    the window clipped to the padded extent ``[-p, I + p)``: padding counts, a
    ceil-mode overhang past the padding does not (TV14); with
    ``count_include_pad=False`` only input elements count;
    ``divisor_override`` (``avg_pool2d`` / ``avg_pool3d`` only) replaces it.
    ``avg_pool3d`` also refuses an input axis shorter than the kernel (before
    padding), as PyTorch does.

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
        Floats keep their dtype; integers give float64 (PyTorch refuses
        integer average pooling; pooltutor computes it).
    kernel_size, stride : int or one int per spatial axis
    padding : int or one int per spatial axis, ``<= kernel_size // 2``
    ceil_mode, count_include_pad : bool
    divisor_override : int or None
        Any non-zero int (PyTorch: "divisor must be not zero"; a negative
        one is accepted and negates the average, as in PyTorch).

    Examples
    --------
    TV14: the last window holds ``x5``, one padding tap and one tap past the
    padded input, so it divides by 2:

    >>> x = np.arange(1.0, 7.0).reshape(1, 1, 6)
    >>> torch_avg_pool(x, 3, 2, padding=1, ceil_mode=True).tolist()
    [[[1.0, 3.0, 5.0, 3.0]]]
    >>> torch_avg_pool(x, 3, 2, padding=1, ceil_mode=True, count_include_pad=False).tolist()
    [[[1.5, 3.0, 5.0, 6.0]]]
    """
    runtime = _follow(follow, "torch_avg_pool")
    x, ndim, kernel, stride_t, pad = _torch_common(x, kernel_size, stride, padding)
    if runtime:
        if x.dtype == np.int64:
            raise PoolTutorError(
                "follow='runtime' does not reproduce avg_pool of int64 x: PyTorch computes it "
                "in integer arithmetic (an int64 result); use follow='spec' (float64)")
        _torch_float_only(x, f"avg_pool{ndim}d", ("float16",) if ndim == 3 else ())
    ceil = _flag("ceil_mode", ceil_mode)
    include = _flag("count_include_pad", count_include_pad)
    sign = 1
    divisor: DivisorRule | int
    if divisor_override is None:
        divisor = "padded" if include else "valid"
    else:
        if ndim == 1:
            raise PoolTutorError(
                f"divisor_override={divisor_override!r} is not allowed for x with one spatial "
                f"axis: torch.nn.functional.avg_pool1d has no divisor_override (only "
                f"avg_pool2d and avg_pool3d)"
            )
        d = check_int("divisor_override", divisor_override)
        if d == 0:
            raise PoolTutorError(
                "divisor_override=0 is not allowed: divisor must be not zero (PyTorch); need a "
                "non-zero int or None"
            )
        divisor, sign = abs(d), (1 if d > 0 else -1)
    _torch_half_kernel(pad, kernel, "effective kernel size", padding)
    if ndim == 3 and any(i < k for i, k in zip(x.shape[2:], kernel, strict=True)):
        raise PoolTutorError(
            f"kernel_size={kernel_size!r} is not allowed for x of spatial shape {x.shape[2:]}: "
            f"avg_pool3d requires every input axis to be at least the kernel before padding "
            f"(PyTorch: 'input image (T: {x.shape[2]} H: {x.shape[3]} W: {x.shape[4]}) "
            f"smaller than kernel size (kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})')"
        )
    rounding: Rounding = "ceil_torch" if ceil else "floor"
    _fit_geometry(x, kernel, stride_t, [(p, p) for p in pad], (1,) * ndim, rounding,
                  kernel_name="kernel_size", given=kernel_size, reason=_TORCH_TOO_SMALL,
                  overhang_ok=True)
    y = pooling.avg_pool(x, kernel, stride_t, pad, rounding=rounding, divisor=divisor).output
    return y if sign > 0 else -y


_TORCH_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                "uint8": "Byte", "float16": "Half"}


def _torch_float_only(x: np.ndarray, op: str, also: Sequence[str] = ()) -> None:
    """PyTorch's CPU dtype refusals (measured, 2.13): integer tensors, and ``also``."""
    if x.dtype.kind != "f" or x.dtype.name in also:
        raise _refused("torch", f"{op} of x with dtype {x.dtype}",
                       f"'\"{op}\" not implemented for "
                       f"'{_TORCH_NAMES.get(x.dtype.name, x.dtype.name)}'' on the CPU; cast x "
                       f"to a float dtype")


def _torch_output_size(x: np.ndarray, output_size: Any, ndim: int) -> tuple[int, ...]:
    """PyTorch's ``output_size``: an int, or one entry per axis where None keeps the input size."""
    if isinstance(output_size, (list, tuple)) and any(o is None for o in output_size):
        if len(output_size) != ndim:
            raise PoolTutorError(
                f"output_size={output_size!r} has {len(output_size)} entries: need one int or "
                f"{ndim} (one per spatial axis; None keeps that axis)"
            )
        output_size = [x.shape[2 + i] if o is None else o for i, o in enumerate(output_size)]
    sizes = check_per_axis("output_size", output_size, ndim)
    if min(sizes) < 1:
        empty = " (PyTorch returns an empty tensor for 0; pooltutor refuses it)" if min(
            sizes) == 0 else ""
        raise PoolTutorError(
            f"output_size={output_size!r} is not allowed: every entry must be an int >= 1{empty}"
        )
    return sizes


@overload
def torch_adaptive_max_pool(x: ArrayLike, output_size: int | Sequence[int | None],
                            return_indices: Literal[False] = ..., *,
                            follow: Follow = ...) -> np.ndarray: ...
@overload
def torch_adaptive_max_pool(x: ArrayLike, output_size: int | Sequence[int | None],
                            return_indices: Literal[True], *,
                            follow: Follow = ...) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def torch_adaptive_max_pool(x: ArrayLike, output_size: int | Sequence[int | None],
                            return_indices: bool = ..., *, follow: Follow = ...
                            ) -> np.ndarray | tuple[np.ndarray, np.ndarray]: ...
def torch_adaptive_max_pool(x: ArrayLike, output_size: int | Sequence[int | None],
                            return_indices: bool = False, *, follow: Follow = "spec"
                            ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """PyTorch ``adaptive_max_pool1d`` / ``2d`` / ``3d``.

    Output cell ``i`` of an axis reads the bin ``[floor(i*I/O), ceil((i+1)*I/O))``;
    bins overlap when ``I % O != 0``.  Ties go to the first maximum in
    row-major order, NaN propagates with the index of the last NaN, and
    indices are int64 positions inside each ``(n, c)`` plane.

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
    output_size : int or one entry per spatial axis
        ``None`` in an entry keeps that axis's input size (as PyTorch).
    return_indices : bool

    Examples
    --------
    >>> x = np.array([[[3.0, 1, 4, 1, 5]]])                      # TV24: 5 -> 3
    >>> y, i = torch_adaptive_max_pool(x, 3, return_indices=True)
    >>> y.tolist(), i.tolist()
    ([[[3.0, 4.0, 5.0]]], [[[0, 2, 4]]])
    """
    runtime = _follow(follow, "torch_adaptive_max_pool")
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    out = _torch_output_size(x, output_size, ndim)
    want = _flag("return_indices", return_indices)
    if runtime:
        _torch_float_only(x, f"adaptive_max_pool{ndim}d")
    r = pooling.adaptive_max_pool(x, out, return_indices=want,
                                  **_rules("torch_adaptive_max_pool", "nan_policy", "ties",
                                           "index_layout"))
    return (r.output, _indices(r)) if want else r.output


def torch_adaptive_avg_pool(x: ArrayLike, output_size: int | Sequence[int | None], *,
                            follow: Follow = "spec") -> np.ndarray:
    """PyTorch ``adaptive_avg_pool1d`` / ``2d`` / ``3d``: the mean of each adaptive bin.

    >>> torch_adaptive_avg_pool(np.array([[[3.0, 1, 4, 1, 5, 9, 2]]]), 4).tolist()   # TV25
    [[[2.0, 2.0, 5.0, 5.5]]]
    """
    runtime = _follow(follow, "torch_adaptive_avg_pool")
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    out = _torch_output_size(x, output_size, ndim)
    if runtime:
        _torch_float_only(x, f"adaptive_avg_pool{ndim}d")
    return pooling.adaptive_avg_pool(x, out).output


# --------------------------------------------------------------------------- ONNX

_ONNX_AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")
_ONNX_TOO_SMALL = "ONNX: the output size would be < 1"


def _onnx_pads(pads: Any, ndim: int) -> _Pads:
    """ONNX ``pads = [x1_begin, x2_begin, ..., x1_end, x2_end, ...]`` to per-axis pairs."""
    n = 2 * ndim
    if isinstance(pads, np.ndarray):
        pads = pads.tolist()
    if isinstance(pads, (str, bytes)) or not isinstance(pads, Sequence):
        raise PoolTutorTypeError(
            f"pads={pads!r} has type {type(pads).__name__}: ONNX pads is a list of {n} ints "
            f"[x1_begin, x2_begin, ..., x1_end, x2_end, ...] (2 per spatial axis)"
        )
    if len(pads) != n:
        raise PoolTutorError(
            f"pads={list(pads)!r} has {len(pads)} entries: ONNX pads needs {n} "
            f"[x1_begin, x2_begin, ..., x1_end, x2_end, ...] for {ndim} spatial axes"
        )
    flat = check_per_axis("pads", list(pads), n, minimum=0)
    return tuple((flat[i], flat[i + ndim]) for i in range(ndim))


_ORT_MAX_DTYPES = ("float16", "float32", "float64", "int8", "uint8")
_ORT_AVG_DTYPES = ("float16", "float32")


def _ort_same_padding(size: int, kernel: int, stride: int, upper: bool) -> tuple[int, int]:
    """onnxruntime's SAME_* padding (rule ``same_pads``): the total pad from the *undilated*
    kernel, not clamped at 0, split with C's truncating division."""
    total = (-(-size // stride) - 1) * stride + kernel - size
    head = int(total / 2) if upper else int((total + 1) / 2)
    return head, total - head


def _onnx_geometry_args(
    x: ArrayLike, kernel_shape: Any, strides: Any, pads: Any, dilations: Any, auto_pad: Any,
    ceil_mode: Any, runtime: bool = False, op: str = "MaxPool",
) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...], _Pads, tuple[int, ...], Rounding,
           _Pads | None, tuple[int | None, ...] | None, tuple[int, ...] | None]:
    """Check the shared MaxPool / AveragePool attributes; return the engine arguments.

    Returns ``(x, kernel, strides, pairs, dilations, rounding, crop, trim, empty)``:
    ``crop`` None, or (onnxruntime's negative SAME begin padding) the ``(begin, end)``
    elements to cut off each spatial axis of ``x`` before pooling it with ``pairs``;
    ``trim`` None, or per axis the number of windows to keep (a negative end pad
    shortens the output); ``empty`` None, or the shape of an empty result.
    """
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    kernel = check_per_axis("kernel_shape", kernel_shape, ndim, minimum=1)
    stride_t = (1,) * ndim if strides is None else check_per_axis("strides", strides, ndim,
                                                                   minimum=1)
    dil = (1,) * ndim if dilations is None else check_per_axis("dilations", dilations, ndim,
                                                                minimum=1)
    if isinstance(auto_pad, bytes):          # an ONNX attribute read from a model
        auto_pad = auto_pad.decode("ascii", "replace")
    check_choice("auto_pad", auto_pad, _ONNX_AUTO_PADS)
    ceil = _flag("ceil_mode", ceil_mode, "0 or 1")
    crop: _Pads | None = None
    trim: tuple[int | None, ...] | None = None
    rounding: Rounding
    if runtime:
        allowed = _ORT_MAX_DTYPES if op == "MaxPool" else _ORT_AVG_DTYPES
        name = op.split("-")[0]
        if x.dtype.name not in allowed:
            raise _refused("onnxruntime", f"{name} of x with dtype {x.dtype}",
                           f"its CPU {name} kernel is registered for {', '.join(allowed)} "
                           f"only ('Could not find an implementation for {name}')")
        if pads is not None:
            pairs = _onnx_pads(pads, ndim)
            for axis, ((pb, pe), k) in enumerate(zip(pairs, kernel, strict=True)):
                if pb >= k or pe >= k:
                    raise _refused("onnxruntime", f"pads={list(pads)!r}",
                                   f"'Pad should be smaller than kernel.' (spatial axis "
                                   f"{axis}: pads {pb}/{pe}, kernel_shape {k}); the ONNX spec "
                                   f"allows it, follow='spec' computes it")
    if auto_pad == "NOTSET":
        pairs = ((0, 0),) * ndim if pads is None else _onnx_pads(pads, ndim)
        rounding = "ceil_torch" if ceil else "floor"
    else:
        if pads is not None and not runtime:
            raise PoolTutorError(
                f"pads={pads!r} is not allowed with auto_pad={auto_pad!r}: the ONNX pads "
                f"attribute cannot be used simultaneously with auto_pad (leave pads=None, or "
                f"use auto_pad='NOTSET'; onnxruntime ignores pads then: follow='runtime')"
            )
        if auto_pad == "VALID":
            pairs = ((0, 0),) * ndim
        elif runtime:                        # rule same_pads: the undilated kernel, unclamped
            raw = [_ort_same_padding(i, k, s, auto_pad == "SAME_UPPER")
                   for i, k, s in zip(x.shape[2:], kernel, stride_t, strict=True)]
            pairs = tuple((max(pb, 0), max(pe, 0)) for pb, pe in raw)
            # a negative begin pad shifts the windows (crop those elements off); a
            # negative end pad shortens the output, and in AveragePool also cuts the
            # input (MaxPool's windows still read up to I: crop only the begin there)
            if any(pb < 0 or pe < 0 for pb, pe in raw):
                crop = tuple((max(-pb, 0), max(-pe, 0)) for pb, pe in raw)
                trim = tuple(int((i + pb + pe - effective_window(k, d)) / s) + 1 if pe < 0
                             else None for i, k, s, d, (pb, pe)
                             in zip(x.shape[2:], kernel, stride_t, dil, raw, strict=True))
        else:
            upper = auto_pad == "SAME_UPPER"
            pairs = tuple(same_padding(i, k, s, d, upper=upper)
                          for i, k, s, d in zip(x.shape[2:], kernel, stride_t, dil, strict=True))
        # spec: SAME: O = ceil(I / S) exactly; VALID: the spec's formula is the floor
        # size, with or without ceil_mode.  onnxruntime: ceil_mode rounds up (with the clip)
        rounding = "ceil_torch" if (runtime and ceil) else "floor"
    pooled = x if crop is None else _crop(x, crop)
    empty: tuple[int, ...] | None = None
    if runtime:
        pairs, empty = _ort_short_axes(pooled, kernel, stride_t, pairs, dil, rounding,
                                       kernel_shape, op)
    if empty is None:
        _fit_geometry(pooled, kernel, stride_t, pairs, dil, rounding, kernel_name="kernel_shape",
                      given=kernel_shape, reason=_ONNX_TOO_SMALL, overhang_ok=True)
    return x, kernel, stride_t, pairs, dil, rounding, crop, trim, empty


def _ort_trim(y: np.ndarray, trim: Sequence[int | None]) -> np.ndarray:
    """The first ``trim[axis]`` windows of each spatial axis (None: all of them)."""
    return y[(slice(None), slice(None)) + tuple(slice(None, t) for t in trim)]


def _ort_short_axes(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
                    given_pairs: _Pads, dil: Sequence[int], rounding: Rounding, given: Any,
                    op: str) -> tuple[_Pads, tuple[int, ...] | None]:
    """onnxruntime's length for a window longer than the padded input (rule
    ``short_window``): ``trunc((I + pb + pe - DK) / S) + 1`` in C division, whatever
    ``ceil_mode``: 1 gives one window reading what it overlaps (pooltutor pads the end
    up to the window, padding being skipped), 0 an empty axis, below 0 a refusal.

    Returns ``(pairs, empty)``: the pads to pool with, and None or the ``(N, C,
    *out)`` shape of an empty result."""
    pairs = list(given_pairs)
    zero = False
    for axis, (size, k, s, d) in enumerate(zip(x.shape[2:], kernel, stride, dil, strict=True)):
        pb, pe = pairs[axis]
        span = size + pb + pe - effective_window(k, d)
        if span >= 0:
            continue
        length = int(span / s) + 1
        if length < 0:
            raise _refused("onnxruntime", f"kernel_shape={given!r}",
                           f"'Calculated output dimension is negative. Check kernel_shape, "
                           f"pads, strides and dilations.' (spatial axis {axis}: "
                           f"trunc(({size}+{pb}+{pe}-{effective_window(k, d)})/{s})+1 = "
                           f"{length})")
        if length == 0:
            zero = True
            continue
        if op == "AveragePool-include":
            raise PoolTutorError(
                "follow='runtime' does not reproduce this call: count_include_pad=1 with a "
                "window longer than the padded input; use follow='spec'")
        pairs[axis] = (pb, pe - span)
    if not zero:
        return tuple(pairs), None
    out: list[int] = []
    for axis, (size, k, s, d) in enumerate(zip(x.shape[2:], kernel, stride, dil, strict=True)):
        pb, pe = pairs[axis]
        span = size + pb + pe - effective_window(k, d)
        out.append(max(int(span / s) + 1, 0) if span < 0 else
                   pool_geometry((size,), k, s, [(pb, pe)], d, rounding).output_shape[0])
    return tuple(pairs), x.shape[:2] + tuple(out)


def _crop(x: np.ndarray, crop: Sequence[tuple[int, int]]) -> np.ndarray:
    """``x`` without ``crop[axis] = (begin, end)`` elements at the ends of each spatial axis."""
    cut = tuple(slice(b, x.shape[2 + a] - e) for a, (b, e) in enumerate(crop))
    return x[(slice(None), slice(None)) + cut]


def _uncrop_plane(plane: np.ndarray, cropped_shape: tuple[int, ...],
                  crop: Sequence[tuple[int, int]], input_shape: tuple[int, ...]) -> np.ndarray:
    """Plane positions in the cropped input back to plane positions in the input."""
    spatial = tuple(cropped_shape[2:])
    coords = np.unravel_index(np.where(plane < 0, 0, plane), spatial)
    full = np.ravel_multi_index(
        tuple(c + b for c, (b, _) in zip(coords, crop, strict=True)), tuple(input_shape[2:]))
    return np.where(plane < 0, -1, full)


def _ort_empty_index(input_shape: tuple[int, ...], layout: str) -> np.ndarray:
    """onnxruntime's index of an empty window (rule ``empty_index``): the position
    ``(-1, ..., -1)`` written in ``layout`` (row-major or column-major), after the plane
    offset, broadcastable to ``(N, C, 1, ...)``."""
    spatial = tuple(input_shape[2:])
    order = spatial[::-1] if layout == "tensor" else spatial
    strides = np.cumprod((1,) + order[:-1])
    n = np.arange(input_shape[0]).reshape((-1, 1) + (1,) * len(spatial))
    c = np.arange(input_shape[1]).reshape((1, -1) + (1,) * len(spatial))
    return (n * input_shape[1] + c) * int(np.prod(spatial)) - int(strides.sum())


def onnx_max_pool(x: ArrayLike, kernel_shape: _PerAxis, strides: _PerAxis | None = None,
                  pads: Sequence[int] | None = None, dilations: _PerAxis | None = None,
                  auto_pad: str | bytes = "NOTSET", ceil_mode: int = 0, storage_order: int = 0,
                  *, follow: Follow = "spec") -> tuple[np.ndarray, np.ndarray]:
    """ONNX ``MaxPool`` (opset 22) with both outputs, ``(Y, Indices)``.

    Explicit ``pads`` (any values ``>= 0``) with the floor rule, or with
    ``ceil_mode=1`` the ``ceil_torch`` rule ("sliding windows that would
    start in the right padded region are ignored").  ``auto_pad``
    ``SAME_UPPER`` / ``SAME_LOWER`` give ``O = ceil(I/S)`` with the total pad
    ``(O-1)*S + DK - I`` (clamped at 0) from the *dilated* kernel, the odd
    extra pad at the end / the beginning; ``VALID`` pads nothing and, as the
    spec's formula ``ceil((I - DK + 1)/S)`` says, gives the floor size even
    with ``ceil_mode=1``.  Padding is excluded from the maximum.  Indices are
    int64 positions in the whole ``N*C*spatial`` tensor; with
    ``storage_order=1`` the position inside the plane is written
    column-major (first spatial axis fastest), after the plane offset.

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
    kernel_shape : int or one int per spatial axis
    strides, dilations : int, one int per spatial axis, or None (all 1)
        Unlike PyTorch, ONNX strides default to 1, not to the kernel.
    pads : list of ``2 * spatial`` ints or None
        ``[x1_begin, x2_begin, ..., x1_end, x2_end, ...]``; cannot be used
        together with ``auto_pad`` other than ``'NOTSET'``.
    auto_pad : {'NOTSET', 'SAME_UPPER', 'SAME_LOWER', 'VALID'}
    ceil_mode, storage_order : {0, 1}

    Returns
    -------
    (Y, Indices)
        ``Y`` in the dtype of ``x``; ``Indices`` int64.

    Notes
    -----
    Rules the spec leaves open, as pooltutor fixes them: ties go to the
    first maximum in row-major scan order, and ``storage_order=1`` encodes
    that same winner column-major (TV16 gives 2, not the column-major
    smallest tie 1), as onnxruntime does.  A window with no input element
    gives ``-inf`` (the dtype's lowest value for integers) and index ``-1``.
    NaN (the spec is silent): pooltutor propagates it as PyTorch does, the
    last NaN in scan order winning, so any NaN in a window gives NaN.

    What onnxruntime 1.32 (CPU) does instead:

    * it rejects any pad ``>= kernel`` at session creation ("Pad should be
      smaller than kernel"), although the spec allows it;
    * ``SAME_*`` with dilation: it computes the total pad from the
      *undilated* kernel and returns the wrong size (TV12: ``I=5, K=2, D=2,
      S=1`` gives 4 outputs instead of 5);
    * ``VALID`` with ``ceil_mode=1``: it rounds up without the clip (TV39:
      3x3, K2, S2 gives 2x2 instead of the spec's 1x1);
    * ``SAME_*`` with a window shorter than the stride: it does not clamp the
      negative total padding at 0 but shifts the windows into the input
      (``I=3, K=1, S=3``, ``SAME_UPPER``: it reads ``x[1]``, the spec ``x[0]``);
    * ``pads`` together with ``auto_pad``: it ignores ``pads`` silently;
    * a window with no input element: ``-3.4028235e38`` (float32's lowest)
      with index ``-1`` in 1-D; in 2-D and 3-D the index is computed from the
      invalid position ``-1`` on every axis (plane offset ``- W - 1`` in 2-D);
    * its Y-only kernel may start a window at the lowest float and then miss
      an input ``-inf`` (``[-inf]`` pooled gives ``-3.4028235e38``);
    * NaN is path dependent: with Indices a NaN survives only if it is the
      first element the kernel scans (TV17: ``[nan, 2, 5]``, indices
      ``[0, 2, 4]``), the Y-only kernel may drop or keep it (TV17 ``[1, 2, 5]``,
      TV19 NaN);
    * it refuses int32 / int64 input (MaxPool's types are float16/32/64,
      int8, uint8); pooltutor computes those.

    Like PyTorch, ONNX's ceil formula admits one window longer than the
    padded input (``I=1, K=2, S=2``, ``ceil_mode=1``: one output, and ORT
    computes it); pooltutor refuses that case with a ``ValueError``.

    Examples
    --------
    >>> x = np.arange(1.0, 10.0).reshape(1, 1, 3, 3)
    >>> y, i = onnx_max_pool(x, [2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)  # TV02
    >>> y.tolist(), i.tolist()
    ([[[[1.0, 3.0], [7.0, 9.0]]]], [[[[0, 2], [6, 8]]]])
    >>> y, i = onnx_max_pool(np.array([[[[1.0, 5], [5, 1]]]]), [2, 2], [2, 2], storage_order=1)
    >>> i.item()                                                      # TV16
    2
    """
    runtime = _follow(follow, "onnx_max_pool")
    x, kernel, stride_t, pairs, dil, rounding, crop, trim, empty = _onnx_geometry_args(
        x, kernel_shape, strides, pads, dilations, auto_pad, ceil_mode, runtime, "MaxPool")
    order = _flag("storage_order", storage_order, "0 (row major) or 1 (column major)")
    layout: IndexLayout = "tensor_colmajor" if order else "tensor"
    if empty is not None:
        return np.empty(empty, x.dtype), np.empty(empty, np.int64)
    if not runtime:
        r = pooling.max_pool(x, kernel, stride_t, pairs, dil, rounding=rounding,
                             return_indices=True, index_layout=layout,
                             **_rules("onnx_max_pool", *_MAX_KEYS))
        return r.output, _indices(r)
    # onnxruntime's Y + Indices kernel: the first input element of a window always
    # starts it, then only a strictly greater one (NaN first sticks); an empty window is
    # lowest() with the code of position (-1, ..., -1)
    if crop is not None:
        crop = tuple((b, 0) for b, _ in crop)
    pooled = x if crop is None else _crop(x, crop)
    pooled = _compute_as(pooled, {"float16": np.float32})   # rule compute_type
    r = pooling.max_pool(pooled, kernel, stride_t, pairs, dil, rounding=rounding,
                         return_indices=True, index_layout="plane", pad_taps="skip",
                         empty_value="lowest", empty_index="minus_one",
                         nan_policy="first_sticks", ties="first")
    plane = _indices(r)
    plane = plane if crop is None else _uncrop_plane(plane, pooled.shape, crop, x.shape)
    idx = from_plane(plane, x.shape, layout)
    idx = np.where(plane < 0, _ort_empty_index(x.shape, layout), idx)
    with np.errstate(over="ignore"):         # float32's lowest is -inf in float16
        y = r.output.astype(x.dtype, copy=False)
    if trim is not None:
        return _ort_trim(y, trim), _ort_trim(idx, trim)
    return y, idx


def onnx_average_pool(x: ArrayLike, kernel_shape: _PerAxis, strides: _PerAxis | None = None,
                      pads: Sequence[int] | None = None, dilations: _PerAxis | None = None,
                      auto_pad: str | bytes = "NOTSET", ceil_mode: int = 0,
                      count_include_pad: int = 0, *, follow: Follow = "spec") -> np.ndarray:
    """ONNX ``AveragePool`` (opset 22).

    Window placement as :func:`onnx_max_pool` (explicit pads with the floor
    or ``ceil_torch`` rule, ``SAME_*`` from the dilated kernel, ``VALID`` the
    floor size).  ``count_include_pad=0`` (the default) divides by the number
    of input elements in the window; ``1`` by the taps inside the padded
    extent (padding, including SAME padding, counts; a ceil-mode overhang past
    the padding does not: TV13, TV14).  A window with no input element
    gives 0.  Floats keep their dtype; integers give float64.

    Parameters
    ----------
    x, kernel_shape, strides, pads, dilations, auto_pad, ceil_mode
        As :func:`onnx_max_pool`.
    count_include_pad : {0, 1}

    Notes
    -----
    onnxruntime 1.32 departs from the spec as for MaxPool: pads ``>=
    kernel`` rejected, ``SAME_*`` with dilation padded from the undilated
    kernel (``I=5, K=2, D=2``: 4 outputs instead of 5), ``VALID`` with
    ``ceil_mode=1`` rounded up (TV39: 2x2, ``[[2.5, -1.5], [0.5, 9]]``,
    instead of 1x1), negative SAME padding not clamped, ``pads`` with
    ``auto_pad`` ignored, and no float64 kernel; ``onnx.reference`` refuses
    ``auto_pad`` with ``ceil_mode`` ("ceil_mode is not supported with
    auto_pad").

    Examples
    --------
    TV13, SAME padding of ``[1, 5, 2, 7]`` with ``K=2, S=1``:

    >>> x = np.array([[[1.0, 5, 2, 7]]])
    >>> onnx_average_pool(x, [2], auto_pad="SAME_UPPER").tolist()
    [[[3.0, 3.5, 4.5, 7.0]]]
    >>> onnx_average_pool(x, [2], auto_pad="SAME_LOWER", count_include_pad=1).tolist()
    [[[0.5, 3.0, 3.5, 4.5]]]
    """
    runtime = _follow(follow, "onnx_average_pool")
    include = _flag("count_include_pad", count_include_pad, "0 or 1")
    x, kernel, stride_t, pairs, dil, rounding, crop, trim, empty = _onnx_geometry_args(
        x, kernel_shape, strides, pads, dilations, auto_pad, ceil_mode, runtime,
        "AveragePool-include" if include else "AveragePool")
    if empty is not None:
        return np.empty(empty, x.dtype)
    pooled = x if crop is None else _crop(x, crop)
    return pooling.avg_pool(pooled, kernel, stride_t, pairs, dil, rounding=rounding,
                            divisor="padded" if include else "valid").output


# --------------------------------------------------------------------------- OpenVINO

_OV_ROUNDING: tuple[Rounding, ...] = ("floor", "ceil", "ceil_torch")
_OV_AUTO_PADS = ("explicit", "same_upper", "same_lower", "valid")
_OV_INDEX_TYPES = {"i32": np.int32, "i64": np.int64}
#: rule compute_type: the dtypes OpenVINO's CPU plugin converts its input to.
_OV_COMPUTE = {"float16": np.float32, "float64": np.float32, "int64": np.int32}
_OV_TOO_SMALL = ("OpenVINO: 'Kernel after dilation has size ... larger than the data shape "
                 "after padding'")


def _ov_choice(name: str, value: Any, choices: Sequence[_Choice]) -> _Choice:
    if isinstance(value, str):
        value = value.strip().lower()
    return check_choice(name, value, choices)


def _ov_index_type(index_element_type: Any, x: np.ndarray) -> type[np.signedinteger[Any]]:
    key = _ov_choice("index_element_type", index_element_type, tuple(_OV_INDEX_TYPES))
    dtype = _OV_INDEX_TYPES[key]
    if x.size > np.iinfo(dtype).max:
        raise PoolTutorError(
            f"index_element_type={index_element_type!r} cannot hold the indices of x with "
            f"{x.size} elements: need 'i64'"
        )
    return dtype


def openvino_max_pool(x: ArrayLike, strides: _PerAxis, pads_begin: _PerAxis, pads_end: _PerAxis,
                      kernel: _PerAxis, dilations: _PerAxis | None = None,
                      rounding_type: str = "floor", auto_pad: str = "explicit",
                      index_element_type: str = "i64", axis: int = 0, *,
                      follow: Follow = "spec") -> tuple[np.ndarray, np.ndarray]:
    """OpenVINO ``MaxPool-14`` (``MaxPool-8`` for ``floor`` / ``ceil``), ``(Y, indices)``.

    ``rounding_type`` ``floor``, raw ``ceil`` (the last window may start in
    the end padding, or past the input: TV02, TV03, TV04) or ``ceil_torch``
    (PyTorch's rule; MaxPool-14 only).  ``auto_pad`` ``same_upper`` /
    ``same_lower`` compute the padding from the dilated kernel and override
    ``pads_begin`` / ``pads_end``; ``valid`` pads nothing.  The reference
    kernel starts every window at the type's lowest value with the index of
    its plane's first element, skips padding, ignores NaN and takes a tap
    only if it is strictly greater: ties go to the first maximum, a window
    with no input element (or only NaN, ``-inf`` or the lowest value) gives
    the lowest value (``-3.4028235e38`` for float32, not ``-inf``: TV20,
    TV21) and its plane's first element.  Indices are positions in the whole
    tensor, then taken modulo ``prod(shape[axis:])``: ``axis=0`` whole tensor,
    ``1`` inside the batch item, ``2`` inside the plane (like PyTorch).

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
    strides, pads_begin, pads_end, kernel : int or one int per spatial axis
        Any padding ``>= 0`` (larger than the kernel too).
    dilations : int, one int per spatial axis, or None (all 1)
    rounding_type : {'floor', 'ceil', 'ceil_torch'}
    auto_pad : {'explicit', 'same_upper', 'same_lower', 'valid'}
        (any case).  With ``same_*`` the output length is ``ceil(I/S)``
        whatever the rounding type.
    index_element_type : {'i64', 'i32'}
        The dtype of the indices: int64 or int32.
    axis : int
        In ``[-rank, rank)``; negative values count from the end
        (``axis + rank``).

    Notes
    -----
    The OpenVINO spec says padding is ``-inf``; the reference kernel (and
    this function) compares from ``lowest()``, so an input ``-inf`` next to
    padding comes out as ``lowest()`` (TV21).  ``valid`` with ``ceil``: the
    spec's formula text ``ceil((H - DK + 1)/S)`` gives the floor size, but
    its own Example 6 and the shape-inference code round up (3x3, K2, S2:
    2x2); pooltutor follows the example and the code.

    ``follow="runtime"`` (OpenVINO 2026.4 CPU plugin): with ``same_*`` the
    rounding type still applies to the SAME-padded input, so raw ``ceil``
    can lay extra windows (x ``(1, 1, 2)``, kernel 1, stride 3, dilation 2,
    ``same_lower``, ``ceil``: 2 outputs, the second empty: lowest value,
    index 0); float16 and float64 are computed as float32 (an empty window
    of float16 gives float32's lowest, which is ``-inf`` in float16) and
    int64 as int32 (values wrap modulo ``2**32``; the lowest value is
    int32's).

    Examples
    --------
    TV03, raw ``ceil``: a fourth window made of padding only.

    >>> x = np.arange(1.0, 6.0).reshape(1, 1, 5).astype(np.float32)
    >>> y, i = openvino_max_pool(x, 2, 1, 1, 2, rounding_type="ceil")
    >>> y.tolist(), i.tolist()
    ([[[1.0, 3.0, 5.0, -3.4028234663852886e+38]]], [[[0, 2, 4, 0]]])
    >>> openvino_max_pool(x, 2, 1, 1, 2, rounding_type="ceil_torch")[0].tolist()
    [[[1.0, 3.0, 5.0]]]
    """
    runtime = _follow(follow, "openvino_max_pool")
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    stride_t = check_per_axis("strides", strides, ndim, minimum=1)
    pb = check_per_axis("pads_begin", pads_begin, ndim, minimum=0)
    pe = check_per_axis("pads_end", pads_end, ndim, minimum=0)
    kernel_t = check_per_axis("kernel", kernel, ndim, minimum=1)
    dil = (1,) * ndim if dilations is None else check_per_axis("dilations", dilations, ndim,
                                                                minimum=1)
    rounding = _ov_choice("rounding_type", rounding_type, _OV_ROUNDING)
    pad_kind = _ov_choice("auto_pad", auto_pad, _OV_AUTO_PADS)
    index_dtype = _ov_index_type(index_element_type, x)
    out_dtype = x.dtype
    if runtime:
        x = _compute_as(x, _OV_COMPUTE)         # rule compute_type
    axis_i = check_int("axis", axis)
    if not -x.ndim <= axis_i < x.ndim:
        raise PoolTutorError(
            f"axis={axis_i} is not allowed for x of rank {x.ndim}: need an int in "
            f"[{-x.ndim}, {x.ndim})"
        )
    axis_i %= x.ndim
    if pad_kind == "explicit":
        pairs = tuple(zip(pb, pe, strict=True))
    elif pad_kind == "valid":
        pairs = ((0, 0),) * ndim
    else:
        pairs = tuple(same_padding(i, k, s, d, upper=pad_kind == "same_upper")
                      for i, k, s, d in zip(x.shape[2:], kernel_t, stride_t, dil, strict=True))
        if not runtime:
            rounding = "floor"                 # O = ceil(I / S) exactly
        # runtime (rule same_rounding): the rounding type's rule on the SAME-padded input
    _fit_geometry(x, kernel_t, stride_t, pairs, dil, rounding, kernel_name="kernel",
                  given=kernel, reason=_OV_TOO_SMALL)
    r = pooling.max_pool(x, kernel_t, stride_t, pairs, dil, rounding=rounding,
                         return_indices=True, index_layout="tensor",
                         **_rules("openvino_max_pool", *_MAX_KEYS))
    # nothing beat the kernel's starting value lowest()
    y, idx = _lowest_start(r.output, _indices(r), fill_value(x.dtype, "lowest"), x.shape,
                           "tensor")
    if axis_i != 0:
        idx = idx % int(np.prod(x.shape[axis_i:]))
    with np.errstate(over="ignore"):          # float32's lowest is -inf in float16
        return y.astype(out_dtype, copy=False), idx.astype(index_dtype)


def _ov_output_shape(x: np.ndarray, output_shape: Any) -> tuple[int, ...]:
    ndim = _spatial_ndim(x)
    return check_per_axis("output_shape", output_shape, ndim, minimum=1)


def openvino_adaptive_max_pool(x: ArrayLike, output_shape: _PerAxis,
                               index_element_type: str = "i64", *,
                               follow: Follow = "spec") -> tuple[np.ndarray, np.ndarray]:
    """OpenVINO ``AdaptiveMaxPool-8`` (seed ``000``), ``(Y, indices)``.

    Same bins as PyTorch (``[floor(i*I/O), ceil((i+1)*I/O))``); ties go to
    the first maximum in row-major order; indices are positions inside each
    ``(n, c)`` plane, in ``[0, D*H*W)`` (unlike MaxPool's default ``axis=0``).
    NaN is never selected; a bin holding only NaN gives NaN with the index
    of the bin's first element, as the reference kernel's
    ``std::max_element`` does.

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
        The spec admits floating types; integers are pooled too.
    output_shape : int or one int per spatial axis
        (the op's second input, ``[H_out]``, ``[H_out, W_out]`` or
        ``[D_out, H_out, W_out]``).
    index_element_type : {'i64', 'i32'}
        The IR attribute (the seed's XML example calls it ``output_type``,
        a stale name).

    Notes
    -----
    The reference kernel takes ``std::max_element`` of each row and combines
    rows with a strict ``>``; a NaN that opens a row can survive there.
    pooltutor ignores NaN everywhere, as the contract fixes for OpenVINO.

    Examples
    --------
    TV28's second channel (``100 - 0..24``), 5x5 -> 3x3, per-plane indices:

    >>> x = (100 - np.arange(25.0)).reshape(1, 1, 5, 5)
    >>> y, i = openvino_adaptive_max_pool(x, [3, 3])
    >>> i.tolist()
    [[[[0, 1, 3], [5, 6, 8], [15, 16, 18]]]]
    """
    runtime = _follow(follow, "openvino_adaptive_max_pool")
    x = check_tensor("x", x)
    out = _ov_output_shape(x, output_shape)
    index_dtype = _ov_index_type(index_element_type, x)
    out_dtype = x.dtype
    if runtime:
        if index_dtype == np.int64:
            raise _refused("openvino", "AdaptiveMaxPool-8 with index_element_type='i64'",
                           "the CPU plugin fails to compile it ('CPU plugin does not support "
                           "i64 for use with oneDNN'); index_element_type='i32' runs")
        x = _compute_as(x, _OV_COMPUTE)
    r = pooling.adaptive_max_pool(x, out, return_indices=True,
                                  **_rules("openvino_adaptive_max_pool", "nan_policy", "ties",
                                           "index_layout"))
    y, idx = r.output, _indices(r)
    empty = idx < 0                      # a bin of NaN only
    if empty.any():
        first = np.zeros(out, dtype=np.int64)
        for axis, a in enumerate(_geometry(r, AdaptiveGeometry).axes):
            starts = np.array([b[0] for b in a.bins]).reshape(
                [a.output_size if k == axis else 1 for k in range(len(out))])
            first = first * a.input_size + starts
        y = np.where(empty, np.array(np.nan, dtype=y.dtype), y)
        idx = np.where(empty, first, idx)
    return y.astype(out_dtype, copy=False), idx.astype(index_dtype)


def openvino_adaptive_avg_pool(x: ArrayLike, output_shape: _PerAxis, *,
                               follow: Follow = "spec") -> np.ndarray:
    """OpenVINO ``AdaptiveAvgPool-8``: the mean of each adaptive bin (PyTorch's bins).

    Floats keep their dtype.  The spec admits floating types only;
    integers give float64 here (the reference kernel's integer path sums in
    the input type and rounds with ``nearbyint``).

    >>> openvino_adaptive_avg_pool(np.array([[[3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3]]]), 3).tolist()
    [[[2.25, 4.25, 4.0]]]
    """
    runtime = _follow(follow, "openvino_adaptive_avg_pool")
    x = check_tensor("x", x)
    out = _ov_output_shape(x, output_shape)
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    if runtime:
        x = _compute_as(x, _OV_COMPUTE)
    return pooling.adaptive_avg_pool(x, out).output.astype(out_dtype, copy=False)


def openvino_avg_pool(x: ArrayLike, strides: _PerAxis, pads_begin: _PerAxis, pads_end: _PerAxis,
                      kernel: _PerAxis, exclude_pad: bool, rounding_type: str = "floor",
                      auto_pad: str = "explicit", *, follow: Follow = "spec") -> np.ndarray:
    """OpenVINO ``AvgPool-14`` (``AvgPool-1`` for ``floor`` / ``ceil``).

    Window placement as :func:`openvino_max_pool` (no dilation):
    ``rounding_type`` ``floor``, raw ``ceil`` or ``ceil_torch``; ``auto_pad``
    ``same_upper`` / ``same_lower`` (``O = ceil(I/S)``, overriding the pads)
    or ``valid``.  ``exclude_pad=True`` divides by the input elements of the
    window, ``False`` by the taps inside the padded extent (padding counts, a
    ceil overhang past it does not).  A window with no counted element gives
    0.  Floats keep their dtype; integers give float64.

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
    strides, pads_begin, pads_end, kernel : int or one int per spatial axis
    exclude_pad : bool
        Required, as in the IR (``exclude-pad``).
    rounding_type : {'floor', 'ceil', 'ceil_torch'}
    auto_pad : {'explicit', 'same_upper', 'same_lower', 'valid'}

    Raises
    ------
    ValueError
        With ``exclude_pad=True``, a pad that is not smaller than the kernel
        (OpenVINO's shape inference: "Kernel after dilation is sometimes
        entirely in the padding area ... and this is not allowed").

    Notes
    -----
    ``follow="runtime"`` (OpenVINO 2026.4 CPU plugin): ``same_*`` keep the
    rounding type's rule (raw ``ceil`` lays extra windows, as MaxPool);
    with ``exclude_pad=False`` padding divides by the whole kernel
    ``prod(kernel)`` even where the window overhangs the padded input (TV14's
    last window ``[x6, pad, past]``: ``6/3 = 2``, not ``6/2 = 3``), but with
    no padding at all (pads 0, ``valid``, or ``same_*`` needing none) it
    divides as ``exclude_pad=True``; a window with no counted element is
    ``nan`` (0/0) in some calls and ``-0.0`` in others (not reproduced:
    ``follow="runtime"`` raises ``ValueError`` there); float16 / float64
    are computed as float32.

    Examples
    --------
    >>> x = np.arange(1.0, 7.0, dtype=np.float32).reshape(1, 1, 6)             # TV14
    >>> openvino_avg_pool(x, 2, 1, 1, 3, exclude_pad=False, rounding_type="ceil").tolist()
    [[[1.0, 3.0, 5.0, 3.0]]]
    >>> openvino_avg_pool(x, 2, 1, 1, 3, exclude_pad=False, rounding_type="ceil",
    ...                   follow="runtime").tolist()
    [[[1.0, 3.0, 5.0, 2.0]]]
    """
    runtime = _follow(follow, "openvino_avg_pool")
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    stride_t = check_per_axis("strides", strides, ndim, minimum=1)
    pb = check_per_axis("pads_begin", pads_begin, ndim, minimum=0)
    pe = check_per_axis("pads_end", pads_end, ndim, minimum=0)
    kernel_t = check_per_axis("kernel", kernel, ndim, minimum=1)
    exclude = _flag("exclude_pad", exclude_pad)
    rounding = _ov_choice("rounding_type", rounding_type, _OV_ROUNDING)
    pad_kind = _ov_choice("auto_pad", auto_pad, _OV_AUTO_PADS)
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    if pad_kind == "explicit":
        pairs = tuple(zip(pb, pe, strict=True))
        if exclude:
            for axis, (k, b, e) in enumerate(zip(kernel_t, pb, pe, strict=True)):
                if not (k > b and k > e):
                    raise PoolTutorError(
                        f"pads_begin={pads_begin!r} / pads_end={pads_end!r} are not allowed "
                        f"with exclude_pad=True and kernel={kernel!r}: on spatial axis {axis} "
                        f"the pads {b}/{e} are not smaller than the kernel {k} (OpenVINO: "
                        f"'Kernel after dilation is sometimes entirely in the padding area "
                        f"... and this is not allowed'); need pads < kernel"
                    )
    elif pad_kind == "valid":
        pairs = ((0, 0),) * ndim
    else:
        pairs = tuple(same_padding(i, k, s, 1, upper=pad_kind == "same_upper")
                      for i, k, s in zip(x.shape[2:], kernel_t, stride_t, strict=True))
        if not runtime:
            rounding = "floor"
    _fit_geometry(x, kernel_t, stride_t, pairs, (1,) * ndim, rounding, kernel_name="kernel",
                  given=kernel, reason=_OV_TOO_SMALL)
    if not runtime:
        return pooling.avg_pool(x, kernel_t, stride_t, pairs, rounding=rounding,
                                divisor="valid" if exclude else "padded").output
    x = _compute_as(x, _OV_COMPUTE)
    divisor: DivisorRule | int
    if exclude or not any(b or e for b, e in pairs):
        divisor = "valid"                    # rule divisor: no padding at all excludes it
    else:                                    # rule divisor: the whole kernel
        divisor = int(np.prod(kernel_t))
    y = pooling.avg_pool(x, kernel_t, stride_t, pairs, rounding=rounding, divisor=divisor).output
    if isinstance(divisor, str):             # rule empty_value: 0/0 where nothing is counted
        geom = pool_geometry(x.shape[2:], kernel_t, stride_t, pairs, 1, rounding)
        empty = _window_counts(geom, divisor) == 0
        if empty.any():
            raise PoolTutorError(
                "follow='runtime' does not reproduce this call: it has a window with no "
                "counted element (past the input under rounding_type='ceil'), which "
                "OpenVINO's CPU plugin gives as nan (0/0) or as -0.0 depending on the call "
                "(both measured, 2026.4); pooltutor does not guess; use follow='spec' (0)"
            )
    return y.astype(out_dtype, copy=False)


def _window_counts(geom: PoolGeometry, which: str) -> np.ndarray:
    """Per window, its taps inside the input (``"valid"``) or inside the padded extent
    ``[-pb, I + pe)`` (``"padded"``), shaped ``(1, 1, *out_spatial)``."""
    count = np.ones((1, 1) + geom.output_shape, dtype=np.int64)
    for axis, a in enumerate(geom.axes):
        lo, hi = (0, a.input_size) if which == "valid" else (-a.pad_begin,
                                                               a.input_size + a.pad_end)
        starts = np.array(a.window_starts, dtype=np.int64)
        n = np.clip(np.minimum(starts + a.effective_kernel, hi) - np.maximum(starts, lo), 0,
                    None)
        shape = [1] * (2 + geom.ndim)
        shape[2 + axis] = a.output_size
        count = count * n.reshape(shape)
    return count


# --------------------------------------------------------------------------- DirectML


@overload
def directml_max_pooling2(x: ArrayLike, strides: _PerAxis, window_size: _PerAxis,
                          start_padding: _PerAxis, end_padding: _PerAxis, dilations: _PerAxis,
                          output_indices: Literal[True] = ..., *,
                          follow: Follow = ...) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def directml_max_pooling2(x: ArrayLike, strides: _PerAxis, window_size: _PerAxis,
                          start_padding: _PerAxis, end_padding: _PerAxis, dilations: _PerAxis,
                          output_indices: Literal[False], *,
                          follow: Follow = ...) -> tuple[np.ndarray, None]: ...
@overload
def directml_max_pooling2(x: ArrayLike, strides: _PerAxis, window_size: _PerAxis,
                          start_padding: _PerAxis, end_padding: _PerAxis, dilations: _PerAxis,
                          output_indices: bool = ..., *,
                          follow: Follow = ...) -> tuple[np.ndarray, np.ndarray | None]: ...
def directml_max_pooling2(x: ArrayLike, strides: _PerAxis, window_size: _PerAxis,
                          start_padding: _PerAxis, end_padding: _PerAxis, dilations: _PerAxis,
                          output_indices: bool = True, *,
                          follow: Follow = "spec") -> tuple[np.ndarray, np.ndarray | None]:
    """DirectML ``DML_MAX_POOLING2_OPERATOR_DESC`` (seed ``002``), ``(Y, Indices or None)``.

    4-D or 5-D input only (``DimensionCount`` 2 or 3).  The output length
    uses the *dilated* window ``DK = 1 + (WindowSize - 1) * Dilation``:
    ``O = (PaddedSize - DK) / Stride + 1`` (integer division), with
    ``PaddedSize = I + StartPadding + EndPadding``.  Indices are zero-based
    UINT32 offsets that "treat the input tensor as a contiguous
    one-dimensional array" (N and C included, row-major); among equal values
    the first one encountered (row-major scan) wins.

    The documentation's formula, copied by the seed, is
    ``OutputTensor->Sizes[i + 2] = (PaddedSize - WindowSizes[i]) / Strides[i] + 1``:
    it ignores ``Dilations``.  That is an upstream documentation error: with
    TV08 (``I=5, WindowSize=2, Dilation=2``, pads 1/1, stride 1) it gives
    ``(7 - 2)/1 + 1 = 6``, but a sixth window would start at padded position
    5 and read its second tap at 7, past the padded input (positions 0..6).
    The dilated window gives ``(7 - 3)/1 + 1 = 5``, which is what
    Microsoft's own DirectMLX ``MaxPooling`` helper computes.

    Parameters
    ----------
    x : array_like, ``(N, C, H, W)`` or ``(N, C, D, H, W)``
    strides, window_size, start_padding, end_padding, dilations : int or one per spatial axis
    output_indices : bool
        Whether to fill ``OutputIndicesTensor``.

    Notes
    -----
    Not documented by DirectML, fixed by pooltutor: padding never wins
    (skipped); a window with no input element gives ``-inf`` (the lowest
    integer for integers) and index ``-1``, which as UINT32 is
    ``4294967295`` (``0xFFFFFFFF``); NaN propagates as in PyTorch.  A dilated
    window longer than the padded input is refused (DirectMLX would report
    an output size of 1 there).

    Examples
    --------
    TV08 as a 4-D tensor (the window is 1 x 2, dilated 1 x 2):

    >>> x = np.arange(1.0, 6.0).reshape(1, 1, 1, 5)
    >>> y, i = directml_max_pooling2(x, 1, (1, 2), (0, 1), (0, 1), (1, 2))
    >>> y.tolist(), i.tolist(), i.dtype
    ([[[[2.0, 3.0, 4.0, 5.0, 4.0]]]], [[[[1, 2, 3, 4, 3]]]], dtype('uint32'))
    """
    _not_runnable(follow, "directml_max_pooling2", "DirectML",
                  "it needs Windows with a DirectX 12 GPU")
    x = check_tensor("x", x, min_ndim=4, max_ndim=5, layout="(N, C, H, W) or (N, C, D, H, W)")
    if x.size > np.iinfo(np.uint32).max:
        raise PoolTutorError(
            f"x has {x.size} elements: DirectML's UINT32 indices cannot address more than "
            f"{np.iinfo(np.uint32).max}"
        )
    ndim = _spatial_ndim(x)
    stride_t = check_per_axis("strides", strides, ndim, minimum=1)
    window = check_per_axis("window_size", window_size, ndim, minimum=1)
    pb = check_per_axis("start_padding", start_padding, ndim, minimum=0)
    pe = check_per_axis("end_padding", end_padding, ndim, minimum=0)
    dil = check_per_axis("dilations", dilations, ndim, minimum=1)
    want = _flag("output_indices", output_indices)
    pairs = tuple(zip(pb, pe, strict=True))
    _fit_geometry(x, window, stride_t, pairs, dil, "floor", kernel_name="window_size",
                  given=window_size,
                  reason="DirectML's output size (PaddedSize - DK) / Stride + 1 would underflow")
    r = pooling.max_pool(x, window, stride_t, pairs, dil, rounding="floor", return_indices=want,
                         index_layout="tensor", **_rules("directml_max_pooling2", *_MAX_KEYS))
    if not want:
        return r.output, None
    indices = _indices(r)
    idx = np.where(indices < 0, np.iinfo(np.uint32).max, indices).astype(np.uint32)
    return r.output, idx


# --------------------------------------------------------------------------- TensorRT

_TRT_POOLING_TYPES = ("MAX", "AVERAGE", "MAX_AVERAGE_BLEND")


def _trt_pooling_type(value: Any) -> str:
    if isinstance(value, str):
        key = value.strip().rsplit(".", 1)[-1].upper()
        if key not in _TRT_POOLING_TYPES and key.startswith("K") and key[1:] in _TRT_POOLING_TYPES:
            key = key[1:]
        if key in _TRT_POOLING_TYPES:
            return key
    allowed = ", ".join(repr(c) for c in _TRT_POOLING_TYPES)
    if not isinstance(value, str):
        raise PoolTutorTypeError(
            f"pooling_type={value!r} has type {type(value).__name__}: need one of {allowed} "
            f"(any case, optional TensorRT 'k' prefix)"
        )
    raise PoolTutorError(
        f"pooling_type={value!r} is not allowed: need one of {allowed} (any case, optional "
        f"TensorRT 'k' prefix)"
    )


def tensorrt_pooling(x: ArrayLike, window_size: _PerAxis, stride: _PerAxis,
                     pre_padding: _PerAxis = 0, post_padding: _PerAxis = 0,
                     padding_mode: PaddingMode | str = "EXPLICIT_ROUND_DOWN",
                     pooling_type: str = "MAX", average_count_excludes_padding: bool = True,
                     blend_factor: float = 0.0, *, follow: Follow = "spec") -> np.ndarray:
    """TensorRT ``IPoolingLayer`` under a ``PaddingMode`` (seed ``004``).

    The padding and the output length come from
    :func:`pooltutor.tensorrt.output_geometry` (its mode table): the
    EXPLICIT modes use ``pre_padding`` ``B`` and ``post_padding`` ``A`` and
    round down, or up *without* a clip (the last window may start in the
    end padding); the SAME modes compute their own ``B`` and ``A``; the
    CAFFE modes (TensorRT 8.x) use ``pre_padding`` on both sides and correct
    the count once.  Padding is ``-inf`` for max pooling and zero for the
    average ("-inf is used for max pooling and zero padding for average
    pooling", ``IPoolingLayer::setPrePadding``).

    Parameters
    ----------
    x : array_like, ``(N, C, *spatial)``
        TensorRT pools 2 or 3 spatial axes; pooltutor allows 1 too (the
        arithmetic is per axis, as the header's examples show).
    window_size, stride, pre_padding, post_padding : int or one int per spatial axis
    padding_mode : PaddingMode or str
        ``EXPLICIT_ROUND_DOWN``, ``EXPLICIT_ROUND_UP``, ``SAME_UPPER``,
        ``SAME_LOWER``, ``CAFFE_ROUND_DOWN``, ``CAFFE_ROUND_UP``; any case,
        with or without the ``k`` prefix (as ``output_geometry``).
    pooling_type : {'MAX', 'AVERAGE', 'MAX_AVERAGE_BLEND'}
        (any case, optional ``k`` prefix).  The blend is
        ``(1 - blend_factor) * max + blend_factor * average``.
    average_count_excludes_padding : bool
        True (TensorRT's default): the average divides by the input elements
        of the window; False: by "the overlap between the pooling window and
        the padded input" (a round-up overhang past the padding not counted).
    blend_factor : float in [0, 1]
        Used by ``MAX_AVERAGE_BLEND`` only.

    Returns
    -------
    Y
        Max pooling keeps the dtype; the average and the blend keep float
        dtypes and give float64 for integers.  A window of padding only is
        ``-inf`` for max (0 for the average); TensorRT has no index output.

    Raises
    ------
    ValueError
        For what ``output_geometry`` rejects (a CAFFE pooling whose last
        window still starts in the padding, ...), naming the parameter.

    Warns
    -----
    PaddingModeWarning
        For CAFFE modes, when one of the header's "Restriction" conditions holds.

    Examples
    --------
    The header's Pooling Example 1 (``I=6, B=3, A=2, S=2, F=3``) in 2-D: the
    first window is all padding, hence ``-inf``.

    >>> x = np.arange(36.0).reshape(1, 1, 6, 6)
    >>> tensorrt_pooling(x, 3, 2, pre_padding=3, post_padding=2)[0, 0, :, 1].tolist()
    [-inf, 7.0, 19.0, 31.0, 31.0]
    >>> tensorrt_pooling(x, 3, 2, 3, 2, padding_mode="kSAME_LOWER")[0, 0, 0].tolist()
    [7.0, 9.0, 11.0]
    """
    from .tensorrt import output_geometry

    _not_runnable(follow, "tensorrt_pooling", "TensorRT", "it needs an NVIDIA GPU")
    x = check_tensor("x", x)
    ndim = _spatial_ndim(x)
    check_per_axis("window_size", window_size, ndim, minimum=1)
    ptype = _trt_pooling_type(pooling_type)
    exclude = _flag("average_count_excludes_padding", average_count_excludes_padding)
    if (isinstance(blend_factor, (bool, np.bool_))
            or not isinstance(blend_factor, (numbers.Real, np.floating, np.integer))):
        raise PoolTutorTypeError(
            f"blend_factor={blend_factor!r} has type {type(blend_factor).__name__}: need a "
            f"float in [0, 1]"
        )
    b = float(blend_factor)
    if not (math.isfinite(b) and 0.0 <= b <= 1.0):
        raise PoolTutorError(
            f"blend_factor={blend_factor!r} is not allowed: need a float in [0, 1]")
    try:
        g = output_geometry(x.shape[2:], window_size, stride, pre_padding=pre_padding,
                            post_padding=post_padding, padding_mode=padding_mode,
                            layer="pooling")
    except PoolTutorError as exc:                # output_geometry says window=, F
        text = str(exc)
        if text.startswith("window="):
            text = f"window_size={window_size!r} (F = {text[len('window='):]}"
            text = text.replace(" does not fit", ") does not fit", 1)
        raise PoolTutorError(text) from None
    pairs = tuple(zip(g.pre_padding, g.post_padding, strict=True))
    if g.rounding is None:                       # only some convolution geometries have none
        raise AssertionError("output_geometry(layer='pooling') gave no rounding rule")
    geo = _Window(kernel=g.window, stride=g.stride, padding=pairs, dilation=g.dilation,
                  rounding=g.rounding)

    def max_pooled() -> np.ndarray:
        return pooling.max_pool(x, **geo, **_rules("tensorrt_pooling", "pad_taps", "empty_value",
                                                   "nan_policy", "ties")).output

    def average_pooled() -> np.ndarray:
        return pooling.avg_pool(x, **geo, divisor="valid" if exclude else "padded").output

    if ptype == "MAX":
        return max_pooled()
    if ptype == "AVERAGE":
        return average_pooled()
    maximum, average = max_pooled(), average_pooled()
    out_dtype = average.dtype
    if b == 0.0:
        return maximum.astype(out_dtype)
    if b == 1.0:
        return average
    blend = (1.0 - b) * maximum.astype(np.float64) + b * average.astype(np.float64)
    return blend.astype(out_dtype)


# --------------------------------------------------------------------------- TensorFlow

_TF_PADDINGS = ("SAME", "VALID")


def _tf_window(name: str, value: Any) -> tuple[int, int]:
    """TensorFlow's ``ksize`` / ``strides``: an int or a list of 1, 2 or 4 ints."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)) and len(value) == 4:
        full = check_per_axis(name, list(value), 4, minimum=1)
        if full[0] != 1:
            raise PoolTutorError(
                f"{name}={list(value)!r} is not allowed: Pooling is not yet supported on the "
                f"batch dimension (TensorFlow); need {name}[0] == 1"
            )
        if full[3] != 1:
            raise PoolTutorError(
                f"{name}={list(value)!r} is not allowed: max_pool_with_argmax does not pool "
                f"over the depth (channel) dimension (TensorFlow); need {name}[3] == 1"
            )
        return full[1], full[2]
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    try:
        h, w = check_per_axis(name, value, 2, minimum=1)
    except PoolTutorError as exc:
        raise PoolTutorError(
            f"{exc}; TensorFlow takes an int or a list of 1, 2 or 4 ints ([1, h, w, 1])"
        ) from None
    return h, w


def tensorflow_max_pool_with_argmax(x: ArrayLike, ksize: _PerAxis, strides: _PerAxis,
                                    padding: str, include_batch_in_index: bool = False, *,
                                    follow: Follow = "spec") -> tuple[np.ndarray, np.ndarray]:
    """``tf.nn.max_pool_with_argmax`` on 4-D NHWC input, ``(Y, argmax)``.

    ``padding`` ``'VALID'`` (no padding, ``O = ceil((I - K + 1)/S)``) or
    ``'SAME'`` (``O = ceil(I/S)``, the odd extra pad at the end: ONNX
    ``SAME_UPPER``); "the padded input values are ignored" (never win).
    The argmax of the element at ``[b, y, x, c]`` is
    ``(y*W + x)*C + c``, or ``((b*H + y)*W + x)*C + c`` with
    ``include_batch_in_index=True``; int64.  Ties go to the first maximum
    in row-major order (the CPU kernel updates on a strictly greater value).

    Parameters
    ----------
    x : array_like, ``(N, H, W, C)``
        ``Y`` and ``argmax`` come back NHWC too.
    ksize, strides : int or list of 1, 2 or 4 ints
        ``[1, h, w, 1]`` in the 4-entry form (no pooling over batch or
        channels).
    padding : {'SAME', 'VALID'}
    include_batch_in_index : bool

    Notes
    -----
    NaN is not documented.  TensorFlow's CPU kernel takes the first element
    of each window and then only a strictly greater one, so a NaN survives
    only when it is the first element of the window; pooltutor's engine has
    no such rule and propagates NaN as PyTorch does (last NaN's index).
    ``follow="runtime"`` reproduces the CPU kernel (``nan_policy=
    "first_sticks"``), and its VALID length ``trunc((I - K + S) / S)``: a
    window longer than the input gives an empty axis when that is 0 (``I=2,
    K=3, S=1``), and the refusal "Computed output size would be negative"
    below; the spec (``ceil((I - K + 1)/S)``) raises for every window
    longer than the input.

    Examples
    --------
    >>> x = np.arange(8.0).reshape(1, 2, 2, 2)              # NHWC: H = W = C = 2
    >>> y, a = tensorflow_max_pool_with_argmax(x, 2, 2, "VALID")
    >>> y.tolist(), a.tolist()
    ([[[[6.0, 7.0]]]], [[[[6, 7]]]])
    """
    runtime = _follow(follow, "tensorflow_max_pool_with_argmax")
    x = check_tensor("x", x, min_ndim=4, max_ndim=4, layout="(N, H, W, C) (NHWC)")
    k = _tf_window("ksize", ksize)
    s = _tf_window("strides", strides)
    check_choice("padding", padding, _TF_PADDINGS)
    batch = _flag("include_batch_in_index", include_batch_in_index)
    nchw = np.moveaxis(x, 3, 1)                      # a view: the engine pools (N, C, H, W)
    pairs = _tf_pads(nchw, k, s, padding, ksize, runtime)
    if pairs is None:                                # runtime: an empty VALID axis
        n, c, h, w = _tf_empty(nchw, k, s)
        return np.empty((n, h, w, c), x.dtype), np.empty((n, h, w, c), np.int64)
    rules = _rules("tensorflow_max_pool_with_argmax", *_MAX_KEYS)
    if runtime:
        rules["nan_policy"] = "first_sticks"          # RUNTIME_RULES nan_policy
    r = pooling.max_pool(nchw, k, s, pairs, 1, rounding="floor", return_indices=True,
                         index_layout="nhwc_batch" if batch else "nhwc", **rules)
    y = np.ascontiguousarray(np.moveaxis(r.output, 1, 3))
    argmax = np.ascontiguousarray(np.moveaxis(_indices(r), 1, 3))
    return y, argmax


_TF_NEGATIVE = "TensorFlow: 'Computed output size would be negative'"


def _tf_valid_length(size: int, k: int, s: int) -> int:
    """TensorFlow's VALID length as its CPU kernels compute it (rule ``valid_length``):
    ``(I - K + S) / S`` in C's truncating division."""
    return int((size - k + s) / s)


def _tf_pads(nc: np.ndarray, k: Sequence[int], s: Sequence[int], padding: str, given: Any,
             runtime: bool, crop_out: list[_Pads] | None = None) -> _Pads | None:
    """SAME (upper) or VALID pads for the ``(N, C, *spatial)`` view ``nc``; None when the
    runtime's VALID length is 0 on some axis (an empty output).

    ``crop_out`` (a list): the 3-D kernels' SAME padding (rule ``same_3d``): Eigen's
    volume patches compute the total pad without clamping it at 0 and split it with
    C division, so a window shorter than the stride shifts into the input; the
    ``(begin, end)`` crop that this negative padding means is appended to it.
    """
    ndim = nc.ndim - 2
    if padding == "SAME" and crop_out is not None:
        raw = [_ort_same_padding(i, kk, ss, True)
               for i, kk, ss in zip(nc.shape[2:], k, s, strict=True)]
        pairs = tuple((max(b, 0), max(e, 0)) for b, e in raw)
        crop_out.append(tuple((max(-b, 0), max(-e, 0)) for b, e in raw))
        return pairs
    if padding == "SAME":
        pairs = tuple(same_padding(i, kk, ss, 1, upper=True)
                      for i, kk, ss in zip(nc.shape[2:], k, s, strict=True))
    else:
        pairs = ((0, 0),) * ndim
        if runtime:
            lengths = [_tf_valid_length(i, kk, ss)
                       for i, kk, ss in zip(nc.shape[2:], k, s, strict=True)]
            for axis, (o, i, kk, ss) in enumerate(zip(lengths, nc.shape[2:], k, s,
                                                      strict=True)):
                if o < 0:
                    raise _refused("tensorflow", f"ksize={given!r}",
                                   f"'Computed output size would be negative: {o}' (spatial "
                                   f"axis {axis}: input {i}, window {kk}, stride {ss}: "
                                   f"(I - K + S) / S in integer division)")
            if 0 in lengths:
                return None
    _fit_geometry(nc, k, s, pairs, (1,) * ndim, "floor", kernel_name="ksize", given=given,
                  reason=_TF_NEGATIVE)
    return pairs


def _tf_empty(nc: np.ndarray, k: Sequence[int], s: Sequence[int]) -> tuple[int, ...]:
    """The ``(N, C, *out)`` shape of an empty VALID result (some axis of length 0)."""
    return nc.shape[:2] + tuple(max(_tf_valid_length(i, kk, ss), 0)
                                for i, kk, ss in zip(nc.shape[2:], k, s, strict=True))


_TF_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def _tf_pool_args(x: ArrayLike, ksize: Any, strides: Any, padding: Any, data_format: Any,
                  function: str, runtime: bool
                  ) -> tuple[np.ndarray, np.ndarray, tuple[int, ...], tuple[int, ...], bool]:
    """Check ``tf.nn.max_pool`` / ``avg_pool`` arguments; ``(nc_view, k, s, channels_last)``."""
    x = check_tensor("x", x, min_ndim=3, max_ndim=5,
                     layout="(N, W, C), (N, H, W, C) or (N, D, H, W, C) (or channels first)")
    ndim = x.ndim - 2
    formats = _TF_FORMATS[ndim]
    if data_format is None:
        data_format = formats[0]
    if not isinstance(data_format, str) or data_format not in formats:
        raise PoolTutorError(
            f"data_format={data_format!r} is not allowed for x of rank {x.ndim}: need "
            f"{formats[0]!r} (channels last, the default), {formats[1]!r} or None"
        )
    last = data_format == formats[0]
    if runtime and not last:
        op = "MaxPool" if function == "tensorflow_max_pool" else "AvgPool"
        what = f"Default {op}ingOp only supports NHWC" if ndim < 3 else (
            "Default Pooling3DOp only supports NDHWC")
        raise _refused("tensorflow", f"data_format={data_format!r}",
                       f"'{what} on device type CPU' (channels-first pooling runs on GPU "
                       f"only); transpose x to {formats[0]}")
    check_choice("padding", padding, _TF_PADDINGS)

    def window(name: str, value: Any) -> tuple[int, ...]:
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (list, tuple)) and len(value) == x.ndim:
            full = check_per_axis(name, list(value), x.ndim, minimum=1)
            c = x.ndim - 1 if last else 1
            if full[0] != 1 or full[c] != 1:
                raise PoolTutorError(
                    f"{name}={list(value)!r} is not allowed: with one entry per axis of x the "
                    f"batch and channel entries must be 1 (TensorFlow pools the spatial axes "
                    f"here)"
                )
            return tuple(v for i, v in enumerate(full) if i not in (0, c))
        if isinstance(value, (list, tuple)) and len(value) == 1:
            value = value[0]
        try:
            return check_per_axis(name, value, ndim, minimum=1)
        except PoolTutorError as exc:
            raise PoolTutorError(
                f"{exc}; TensorFlow takes an int, {ndim} ints (one per spatial axis) or "
                f"{x.ndim} (one per axis of x)"
            ) from None

    k = window("ksize", ksize)
    s = window("strides", strides)
    nc = np.moveaxis(x, -1, 1) if last else x
    return x, nc, k, s, last


def _tf_back(y: np.ndarray, last: bool) -> np.ndarray:
    return np.ascontiguousarray(np.moveaxis(y, 1, -1)) if last else y


def tensorflow_max_pool(x: ArrayLike, ksize: _PerAxis, strides: _PerAxis, padding: str,
                        data_format: str | None = None, *, follow: Follow = "spec") -> np.ndarray:
    """``tf.nn.max_pool`` with 1 to 3 spatial axes (``max_pool1d/2d/3d``).

    ``padding`` ``'SAME'`` (``O = ceil(I/S)``, the odd extra pad at the end,
    padding ignored) or ``'VALID'``; ties go to the first maximum, NaN
    propagates as in PyTorch (the spec is silent).

    Parameters
    ----------
    x : array_like
        ``(N, W, C)``, ``(N, H, W, C)`` or ``(N, D, H, W, C)``, or channels
        first with ``data_format`` ``'NCW'`` / ``'NCHW'`` / ``'NCDHW'``.
    ksize, strides : int, one int per spatial axis, or one per axis of ``x``
        (then the batch and channel entries are 1).
    padding : {'SAME', 'VALID'}
    data_format : str or None
        ``None``: channels last.

    Notes
    -----
    ``follow="runtime"`` (TensorFlow 2.21 CPU): with 1 or 2 spatial axes the
    kernel starts every window at the dtype's lowest value and takes only a
    strictly greater element, so NaN never wins and a window of NaN or
    ``-inf`` only gives the lowest value (``[nan, nan]`` -> ``-3.4028235e38``);
    the 3-D kernel's NaN handling follows Eigen's reduction order and is not
    reproduced (``ValueError`` for NaN input); channels first is refused on
    CPU, and the 3-D kernel takes float32 only; the 3-D kernel's SAME
    padding is not clamped at 0, so a window shorter than the stride shifts
    into the input (``I=3, K=1, S=3``: it reads ``x[1]``, the spec ``x[0]``);
    VALID lengths as :func:`tensorflow_max_pool_with_argmax`.

    Examples
    --------
    >>> x = np.array([1.0, np.nan, np.nan, np.nan], dtype=np.float32).reshape(1, 4, 1)
    >>> tensorflow_max_pool(x, 2, 2, "VALID").ravel().tolist()
    [nan, nan]
    >>> tensorflow_max_pool(x, 2, 2, "VALID", follow="runtime").ravel().tolist()
    [1.0, -3.4028234663852886e+38]
    """
    runtime = _follow(follow, "tensorflow_max_pool")
    x, nc, k, s, last = _tf_pool_args(x, ksize, strides, padding, data_format,
                                      "tensorflow_max_pool", runtime)
    ndim = nc.ndim - 2
    if runtime and ndim == 3:
        if x.dtype != np.float32:
            raise _refused("tensorflow", f"max_pool3d of x with dtype {x.dtype}",
                           "the CPU MaxPool3D kernel is registered for float32 only "
                           "(float16 'Could not find device', others not in its type list)")
        if np.isnan(x).any():
            raise PoolTutorError(
                "follow='runtime' does not reproduce max_pool3d of x with NaN: TensorFlow's "
                "3-D CPU kernel (Eigen) lets a NaN win or lose by its reduction order; use "
                "follow='spec'"
            )
    crop: list[_Pads] | None = [] if (runtime and ndim == 3) else None
    pairs = _tf_pads(nc, k, s, padding, ksize, runtime, crop)
    if pairs is None:
        return _tf_back(np.empty(_tf_empty(nc, k, s), x.dtype), last)
    if crop:
        nc = _crop(nc, crop[0])
    rules = _rules("tensorflow_max_pool", *_MAX_KEYS)
    if runtime and ndim < 3:                          # RUNTIME_RULES lowest_start
        rules.update(nan_policy="ignore", empty_value="lowest")
    y = pooling.max_pool(nc, k, s, pairs, 1, rounding="floor", **rules).output
    if runtime and ndim < 3:
        y, _ = _lowest_start(y, None, fill_value(x.dtype, "lowest"), nc.shape, "plane")
    return _tf_back(y, last)


def tensorflow_avg_pool(x: ArrayLike, ksize: _PerAxis, strides: _PerAxis, padding: str,
                        data_format: str | None = None, *, follow: Follow = "spec") -> np.ndarray:
    """``tf.nn.avg_pool`` with 1 to 3 spatial axes (``avg_pool1d/2d/3d``).

    Arguments as :func:`tensorflow_max_pool`.  ``'SAME'`` divides each
    window by its *real* elements only (padding never counts, TensorFlow:
    "the padded input values are ignored"): converting it to an ONNX
    ``AveragePool`` needs ``count_include_pad=0`` (onnx/onnx#388).
    Floats keep their dtype; integers give float64 (TensorFlow refuses
    integer averages; ``follow="runtime"`` refuses them too).

    Examples
    --------
    >>> x = np.arange(1.0, 6.0).reshape(1, 5, 1)
    >>> tensorflow_avg_pool(x, 3, 2, "SAME").ravel().tolist()      # pads (1, 1)
    [1.5, 3.0, 4.5]
    """
    runtime = _follow(follow, "tensorflow_avg_pool")
    x, nc, k, s, last = _tf_pool_args(x, ksize, strides, padding, data_format,
                                      "tensorflow_avg_pool", runtime)
    ndim = nc.ndim - 2
    if runtime:
        allowed = ("float32",) if ndim == 3 else ("float16", "float32", "float64")
        if x.dtype.name not in allowed:
            raise _refused("tensorflow", f"avg_pool{ndim}d of x with dtype {x.dtype}",
                           f"its CPU kernel takes {', '.join(allowed)} only ('Value for attr "
                           f"'T' of {x.dtype.name} is not in the list of allowed values')")
    crop: list[_Pads] | None = [] if (runtime and ndim == 3) else None
    pairs = _tf_pads(nc, k, s, padding, ksize, runtime, crop)
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    if pairs is None:
        return _tf_back(np.empty(_tf_empty(nc, k, s), out_dtype), last)
    if crop:
        nc = _crop(nc, crop[0])
    y = pooling.avg_pool(nc, k, s, pairs, rounding="floor", divisor="valid").output
    return _tf_back(y, last)
