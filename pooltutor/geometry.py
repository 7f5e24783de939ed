"""Where pooling windows go: output sizes, padding and window starts, from shapes alone.

This is the one place in pooltutor where an output-size formula lives.  Every
other module (the numpy engine, the loop reference, the framework mappings,
the TensorRT padding-mode arithmetic, the plots) asks this module.

Vocabulary, per spatial axis (``docs/semantics.md`` §1):

* ``I`` input length, ``K`` window (kernel) length, ``S`` stride, ``D`` dilation,
  ``pb`` / ``pe`` padding before / after the input;
* ``DK = (K - 1) * D + 1`` the *effective* (dilated) window length;
* window ``o`` reads the taps ``t = o*S - pb + j*D`` for ``j = 0 .. K-1``, in
  input coordinates: a tap is ``"input"`` if ``0 <= t < I``, ``"padding"`` if it
  lies in ``[-pb, 0)`` or ``[I, I + pe)``, and ``"outside"`` beyond the padded
  extent (only ceil rules can produce such taps).

The output-length rules (:data:`ROUNDINGS`):

=============  =====================================================  ==============================
rule           output length                                          used by
=============  =====================================================  ==============================
``floor``      ``floor((I+pb+pe-DK)/S) + 1``                          everyone's default
``ceil``       ``ceil((I+pb+pe-DK)/S) + 1`` (raw, no clip)            OpenVINO ``ceil``, TensorRT
                                                                      ``EXPLICIT_ROUND_UP``
``ceil_torch`` raw ceil, then one clip: drop the last window if it    PyTorch, ONNX, OpenVINO
               starts at or after ``I + pb`` (in the end padding)     ``ceil_torch``, TensorRT
                                                                      ``CAFFE_ROUND_UP``
``floor_clip`` floor, then the same one clip                          TensorRT ``CAFFE_ROUND_DOWN``
``caffe``      raw ceil, clip once only if ``pb > 0``                 BVLC Caffe
=============  =====================================================  ==============================

>>> g = pool_geometry((5,), kernel=2, stride=2, padding=1, rounding="ceil")
>>> g.output_shape, g.axes[0].window_starts
((4,), (-1, 1, 3, 5))
>>> pool_geometry((5,), kernel=2, stride=2, padding=1, rounding="ceil_torch").output_shape
(3,)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, ParamSpec, TypeVar, cast

import numpy as np

from .errors import (
    PoolTutorError,
    PoolTutorTypeError,
    check_choice,
    check_int,
    check_memory,
    check_per_axis,
)
from .rules import ROUNDINGS, Rounding

_G = TypeVar("_G")
_P = ParamSpec("_P")

__all__ = [
    "ROUNDINGS",
    "Rounding",
    "AxisGeometry",
    "PoolGeometry",
    "AdaptiveAxis",
    "AdaptiveGeometry",
    "effective_window",
    "output_length",
    "same_padding",
    "pool_geometry",
    "adaptive_geometry",
    "normalize_padding",
    "FixedPoolContrast",
    "fixed_pool_contrast",
]


TapKind = Literal["input", "padding", "outside"]


def effective_window(kernel: int, dilation: int = 1) -> int:
    """The dilated window length ``DK = (K - 1) * D + 1``.

    >>> effective_window(3, 2)
    5
    """
    kernel = check_int("kernel", kernel, minimum=1)
    dilation = check_int("dilation", dilation, minimum=1)
    return (kernel - 1) * dilation + 1


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def output_length(
    input_size: int,
    kernel: int,
    stride: int = 1,
    pad_begin: int = 0,
    pad_end: int = 0,
    dilation: int = 1,
    rounding: Rounding = "floor",
) -> tuple[int, int, bool]:
    """Output length of one axis under ``rounding``: ``(O, O_before_clip, clipped)``.

    ``O_before_clip`` is the floor or raw-ceil count; ``clipped`` says whether
    the one-step correction ("the last window may not start in the end
    padding") removed a window.

    >>> output_length(5, 2, 2, 1, 1, rounding="ceil")        # TV03, OpenVINO ceil
    (4, 4, False)
    >>> output_length(5, 2, 2, 1, 1, rounding="ceil_torch")  # TV03, PyTorch
    (3, 4, True)
    >>> output_length(6, 1, 2, rounding="caffe")             # TV04: BVLC Caffe keeps it
    (4, 4, False)
    >>> output_length(1, 2, 2, rounding="ceil_torch")        # one window overhanging the input
    (1, 1, False)
    """
    input_size = check_int("input_size", input_size, minimum=1)
    kernel = check_int("kernel", kernel, minimum=1)
    stride = check_int("stride", stride, minimum=1)
    pad_begin = check_int("pad_begin", pad_begin, minimum=0)
    pad_end = check_int("pad_end", pad_end, minimum=0)
    dilation = check_int("dilation", dilation, minimum=1)
    check_choice("rounding", rounding, ROUNDINGS)
    dk = effective_window(kernel, dilation)
    span = input_size + pad_begin + pad_end - dk
    ceil_family = rounding in ("ceil", "ceil_torch", "caffe")
    # A window longer than the padded input still gives one output under the ceil
    # rules when ceil(span / S) rounds up to 0, i.e. -S < span < 0 (PyTorch and ONNX
    # pool a 1-element input with K=2, S=2, ceil_mode into one overhanging window).
    if span < 0 and not (ceil_family and span > -stride):
        raise PoolTutorError(
            f"window of effective size {dk} (kernel {kernel}, dilation {dilation}) does not fit "
            f"the padded input {input_size}+{pad_begin}+{pad_end}={input_size + pad_begin + pad_end}; "
            f"need (kernel-1)*dilation+1 <= input + pad_begin + pad_end"
            + (f" + stride - 1 = {input_size + pad_begin + pad_end + stride - 1} under the ceil rules"
               if ceil_family else "")
        )
    if rounding in ("floor", "floor_clip"):
        raw = span // stride + 1
    else:
        raw = _ceil_div(span, stride) + 1
    clip = rounding in ("ceil_torch", "floor_clip") or (rounding == "caffe" and pad_begin > 0)
    if clip and raw > 1 and (raw - 1) * stride >= input_size + pad_begin:
        return raw - 1, raw, True
    return raw, raw, False


def same_padding(input_size: int, kernel: int, stride: int = 1, dilation: int = 1,
                 upper: bool = True) -> tuple[int, int]:
    """SAME padding ``(pad_begin, pad_end)``: ``O = ceil(I/S)``, total ``P = (O-1)*S + DK - I``.

    ``P`` uses the dilated window and clamps at 0; ``SAME_UPPER`` (TensorFlow's
    ``SAME``) puts the odd extra pad at the end, ``SAME_LOWER`` at the beginning.

    >>> same_padding(6, 3, 2, upper=True), same_padding(6, 3, 2, upper=False)   # TV09
    ((0, 1), (1, 0))
    """
    input_size = check_int("input_size", input_size, minimum=1)
    kernel = check_int("kernel", kernel, minimum=1)
    stride = check_int("stride", stride, minimum=1)
    dilation = check_int("dilation", dilation, minimum=1)
    if not isinstance(upper, (bool, np.bool_)):
        raise PoolTutorTypeError(
            f"upper={upper!r} has type {type(upper).__name__}: need True (SAME_UPPER) or False "
            f"(SAME_LOWER)"
        )
    out = _ceil_div(input_size, stride)
    total = max(0, (out - 1) * stride + effective_window(kernel, dilation) - input_size)
    small = total // 2
    return (small, total - small) if upper else (total - small, small)


@dataclass(frozen=True)
class AxisGeometry:
    """Window placement along one spatial axis (all numbers in input coordinates).

    >>> ax = pool_geometry((6,), kernel=3, stride=2, padding=(3, 2)).axes[0]  # TensorRT Example 1
    >>> ax.output_size, ax.window_starts
    (5, (-3, -1, 1, 3, 5))
    >>> ax.taps(0), ax.tap_kinds(0)
    ((-3, -2, -1), ('padding', 'padding', 'padding'))
    """

    input_size: int
    kernel: int
    stride: int
    dilation: int
    pad_begin: int
    pad_end: int
    rounding: Rounding
    output_size: int
    unclipped_size: int
    clipped: bool

    @functools.cached_property
    def effective_kernel(self) -> int:
        return effective_window(self.kernel, self.dilation)

    @functools.cached_property
    def padded_size(self) -> int:
        """``M = I + pb + pe``."""
        return self.input_size + self.pad_begin + self.pad_end

    @property
    def window_starts(self) -> tuple[int, ...]:
        """Start of every window, in input coordinates (negative: in the begin padding)."""
        # a tuple of Python ints costs about 64 bytes per entry while it is built
        check_memory(f"window_starts of an axis with output_size={self.output_size}",
                     (self.output_size,), 64)
        return tuple(o * self.stride - self.pad_begin for o in range(self.output_size))

    def taps(self, o: int) -> tuple[int, ...]:
        """Input coordinates of the ``K`` taps of window ``o``."""
        o = check_int("o", o, minimum=0)
        if o >= self.output_size:
            raise PoolTutorError(
                f"o={o} is not an output position: need 0 <= o < {self.output_size}"
            )
        start = o * self.stride - self.pad_begin
        return tuple(start + j * self.dilation for j in range(self.kernel))

    def tap_kind(self, t: int) -> TapKind:
        if 0 <= t < self.input_size:
            return "input"
        if -self.pad_begin <= t < self.input_size + self.pad_end:
            return "padding"
        return "outside"

    def tap_kinds(self, o: int) -> tuple[TapKind, ...]:
        return tuple(self.tap_kind(t) for t in self.taps(o))

    @property
    def dropped_start(self) -> int | None:
        """Start of the window that the clip removed (None when nothing was clipped)."""
        if not self.clipped:
            return None
        return self.output_size * self.stride - self.pad_begin

    @property
    def last_starts_in_padding(self) -> bool:
        """True when the last window still starts at or after ``I`` (in the end padding or beyond)."""
        return (self.output_size - 1) * self.stride - self.pad_begin >= self.input_size

    @property
    def end_overhang(self) -> int:
        """How far the last window reaches past the padded extent (> 0 only with ceil rules)."""
        last_stop = (self.output_size - 1) * self.stride - self.pad_begin + self.effective_kernel
        return max(0, last_stop - (self.input_size + self.pad_end))

    def describe(self) -> str:
        """One line with the formula and its numbers, e.g. for ``explain()``."""
        m = self.padded_size
        dk = self.effective_kernel
        ceil = self.rounding in ("ceil", "ceil_torch", "caffe")
        op = "ceil" if ceil else "floor"
        text = (
            f"I={self.input_size}, K={self.kernel}, S={self.stride}, D={self.dilation}, "
            f"pads=({self.pad_begin}, {self.pad_end}): DK={dk}, M={m}, "
            f"O = {op}(({m}-{dk})/{self.stride}) + 1 = {self.unclipped_size}"
        )
        if self.clipped:
            text += (
                f"; the last window would start at {self.dropped_start} >= I="
                f"{self.input_size} (input coordinates: in the end padding), so rule "
                f"{self.rounding!r} drops it: O = {self.output_size}"
            )
        return text


class _PerAxis:
    """What pooling and adaptive geometries share: a tuple ``axes`` of per-axis objects."""

    axes: tuple[Any, ...]

    # (The shapes are worked out once per object: the engine reads them several times
    # per call, and a notebook or a benchmark reuses one remembered geometry.  Frozen
    # dataclasses keep such values in the instance dict, outside the fields that
    # equality and the hash compare.)

    @functools.cached_property
    def ndim(self) -> int:
        return len(self.axes)

    @functools.cached_property
    def input_shape(self) -> tuple[int, ...]:
        return tuple(a.input_size for a in self.axes)

    @functools.cached_property
    def output_shape(self) -> tuple[int, ...]:
        return tuple(a.output_size for a in self.axes)

    def _hash_once(self) -> int:
        """The dataclasses' hash (of the axes), worked out once: per-geometry tables are
        looked up by geometry several times per call."""
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash((type(self).__name__, self.axes))
        return found

    def __getstate__(self) -> dict[str, Any]:
        # the fields only: a string's hash differs from process to process, so the
        # remembered hash must not travel with a pickle
        return {"axes": self.axes}

    def _check_out_index(self, out_index: Sequence[Any]) -> tuple[int, ...]:
        if len(out_index) != self.ndim:
            raise PoolTutorError(
                f"out_index={tuple(out_index)!r} has {len(out_index)} entries: need {self.ndim}"
            )
        checked = tuple(check_int("out_index", o, minimum=0) for o in out_index)
        if any(o >= a.output_size for o, a in zip(checked, self.axes)):
            raise PoolTutorError(
                f"out_index={tuple(out_index)!r} is outside the output shape {self.output_shape}"
            )
        return checked

    def describe(self) -> str:
        return "\n".join(f"axis {i}: {a.describe()}" for i, a in enumerate(self.axes))


@dataclass(frozen=True)
class PoolGeometry(_PerAxis):
    """Geometry of a pooling over all spatial axes: a tuple of :class:`AxisGeometry`."""

    axes: tuple[AxisGeometry, ...]

    __hash__ = _PerAxis._hash_once

    @functools.cached_property
    def kernel(self) -> tuple[int, ...]:
        return tuple(a.kernel for a in self.axes)

    @functools.cached_property
    def stride(self) -> tuple[int, ...]:
        return tuple(a.stride for a in self.axes)

    @functools.cached_property
    def dilation(self) -> tuple[int, ...]:
        return tuple(a.dilation for a in self.axes)

    @functools.cached_property
    def pads(self) -> tuple[tuple[int, int], ...]:
        """Per-axis ``(begin, end)`` padding."""
        return tuple((a.pad_begin, a.pad_end) for a in self.axes)

    @property
    def rounding(self) -> Rounding:
        return self.axes[0].rounding

    @property
    def window_starts(self) -> tuple[tuple[int, ...], ...]:
        return tuple(a.window_starts for a in self.axes)

    def window(self, out_index: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[str, ...]]]:
        """Per axis, the taps and their kinds of the output cell ``out_index``."""
        checked = self._check_out_index(out_index)
        return [(a.taps(o), a.tap_kinds(o)) for a, o in zip(self.axes, checked)]

    def __repr__(self) -> str:
        return (
            f"PoolGeometry(input={self.input_shape}, kernel={self.kernel}, stride={self.stride}, "
            f"dilation={self.dilation}, pads={self.pads}, rounding={self.rounding!r} "
            f"-> output={self.output_shape})"
        )


def normalize_padding(padding: Any, ndim: int, name: str = "padding") -> tuple[tuple[int, int], ...]:
    """Per-axis ``(begin, end)`` pairs from an int, one int per axis, or one pair per axis.

    >>> normalize_padding(1, 2)
    ((1, 1), (1, 1))
    >>> normalize_padding([(3, 2), (0, 1)], 2)
    ((3, 2), (0, 1))
    >>> normalize_padding([1, 2], 2)
    ((1, 1), (2, 2))

    With one spatial axis a pair of ints can only mean ``(begin, end)``:

    >>> normalize_padding((3, 2), 1)
    ((3, 2),)
    """
    if isinstance(padding, np.ndarray):
        padding = padding.tolist()
    if (ndim == 1 and isinstance(padding, (list, tuple)) and len(padding) == 2
            and not any(isinstance(p, (list, tuple)) for p in padding)):
        padding = [tuple(padding)]
    try:
        flat = check_per_axis(name, padding, ndim, minimum=0)
        return tuple((p, p) for p in flat)
    except TypeError:
        pass
    if isinstance(padding, (list, tuple)) and len(padding) == ndim and all(
        isinstance(p, (list, tuple)) for p in padding
    ):
        pairs: list[tuple[int, int]] = []
        for p in padding:
            if len(p) != 2:
                raise PoolTutorError(
                    f"{name}={padding!r}: every per-axis entry must be an int or a (begin, end) pair"
                )
            begin, end = check_per_axis(name, list(p), 2, minimum=0)
            pairs.append((begin, end))
        return tuple(pairs)
    raise PoolTutorTypeError(
        f"{name}={padding!r} is not allowed: need an int >= 0, one int per spatial axis ({ndim}), "
        f"or one (begin, end) pair per spatial axis"
    )


def _spatial_sizes(input_shape: Any) -> tuple[int, ...]:
    """The 1 to 3 spatial sizes of ``input_shape`` (an int is one axis), checked."""
    if isinstance(input_shape, int) or not hasattr(input_shape, "__len__"):
        input_shape = (input_shape,)
    ndim = len(input_shape)
    if not 1 <= ndim <= 3:
        raise PoolTutorError(
            f"input_shape={tuple(input_shape)!r} has {ndim} spatial axes: need 1 to 3"
        )
    return check_per_axis("input_shape", list(input_shape), ndim, minimum=1)


def _plain(value: object) -> bool:
    """Whether ``value`` is made of Python ints, strings, None and tuples only (a safe
    cache key: ``1 == 1.0 == True`` hash alike, so floats, bools and numpy scalars are
    left out, and so are lists, which cannot be keys)."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return True
    if kind is not tuple:
        return False
    for v in value:                     # type: ignore[attr-defined]
        if not _plain(v):
            return False
    return True


def _remembered(builder: Callable[_P, _G]) -> Callable[_P, _G]:
    """``builder`` remembering its results for plain arguments (:func:`_plain`).

    The geometries are frozen dataclasses of ints and tuples, so one object can
    serve every call with the same shapes: a notebook, an explorer or a benchmark
    pools the same shapes over and over, and for small inputs working the geometry
    out again was a tenth of a pooling.  Errors are not remembered (they are raised
    again, with the same message, on every call).
    """
    cached = cast(Callable[_P, _G], functools.lru_cache(maxsize=512)(builder))

    @functools.wraps(builder)
    def geometry(*args: _P.args, **kwargs: _P.kwargs) -> _G:
        if _plain(args) and _plain(tuple(kwargs.values())):
            return cached(*args, **kwargs)
        return builder(*args, **kwargs)

    return geometry


def pool_geometry(
    input_shape: int | Sequence[int],
    kernel: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: Any = 0,
    dilation: int | Sequence[int] = 1,
    rounding: Rounding = "floor",
) -> PoolGeometry:
    """Compute the :class:`PoolGeometry` of a pooling from shapes and parameters alone.

    Parameters
    ----------
    input_shape : sequence of int
        The spatial shape (1 to 3 axes), without N and C.
    kernel, stride, dilation : int or sequence of int
        One value for every axis or one per axis; ``stride`` defaults to ``kernel``.
    padding : int, sequence of int, or sequence of (begin, end) pairs
        Any size ``>= 0``: padding larger than the window is allowed here
        (TensorRT allows it; the framework mappings add their own limits).
    rounding : {'floor', 'ceil', 'ceil_torch', 'floor_clip', 'caffe'}
        The output-length rule, see the module docstring.

    Examples
    --------
    TensorRT's Pooling Example 2 (``I=6, B=A=3, S=2, F=3``), rounded up with the clip:

    >>> g = pool_geometry((6, 6), 3, 2, padding=3, rounding="ceil_torch")
    >>> g.output_shape, g.axes[0].unclipped_size, g.axes[0].window_starts
    ((5, 5), 6, (-3, -1, 1, 3, 5))
    """
    sizes = _spatial_sizes(input_shape)
    ndim = len(sizes)
    kernel_t = check_per_axis("kernel", kernel, ndim, minimum=1)
    stride_t = kernel_t if stride is None else check_per_axis("stride", stride, ndim, minimum=1)
    dil_t = check_per_axis("dilation", dilation, ndim, minimum=1)
    pads = normalize_padding(padding, ndim)
    check_choice("rounding", rounding, ROUNDINGS)
    axes = []
    for i in range(ndim):
        # refuse absurd sizes before anything proportional to them is built
        check_memory(f"padding={padding!r}", (sizes[i] + pads[i][0] + pads[i][1],), 8)
        try:
            o, raw, clipped = output_length(
                sizes[i], kernel_t[i], stride_t[i], pads[i][0], pads[i][1], dil_t[i], rounding
            )
        except PoolTutorError as exc:
            raise PoolTutorError(
                f"kernel={kernel_t} does not fit the input {tuple(sizes)} on axis {i}: {exc}"
            ) from None
        axes.append(
            AxisGeometry(sizes[i], kernel_t[i], stride_t[i], dil_t[i], pads[i][0], pads[i][1],
                         rounding, o, raw, clipped)
        )
    geometry = PoolGeometry(tuple(axes))
    check_memory("the output", geometry.output_shape, 8)
    return geometry


pool_geometry = _remembered(pool_geometry)


# --------------------------------------------------------------------------- adaptive


def adaptive_bins(input_size: int, output_size: int) -> tuple[tuple[int, int], ...]:
    """Bins ``[floor(i*I/O), ceil((i+1)*I/O))`` of adaptive pooling.

    They overlap when ``I % O != 0`` (TV24):

    >>> adaptive_bins(5, 3)
    ((0, 2), (1, 4), (3, 5))
    """
    input_size = check_int("input_size", input_size, minimum=1)
    output_size = check_int("output_size", output_size, minimum=1)
    check_memory(f"output_size={output_size!r}", (output_size,), 128)   # a tuple per bin
    return tuple(
        ((i * input_size) // output_size, _ceil_div((i + 1) * input_size, output_size))
        for i in range(output_size)
    )


@dataclass(frozen=True)
class AdaptiveAxis:
    """Adaptive bins along one axis."""

    input_size: int
    output_size: int
    bins: tuple[tuple[int, int], ...] = field(repr=False)

    @functools.cached_property
    def max_bin(self) -> int:
        return max(stop - start for start, stop in self.bins)

    @property
    def overlapping(self) -> bool:
        return self.input_size % self.output_size != 0

    def describe(self) -> str:
        bins = ", ".join(f"[{a},{b})" for a, b in self.bins)
        note = " (bins overlap: I % O != 0)" if self.overlapping else ""
        return f"I={self.input_size} -> O={self.output_size}: bins {bins}{note}"


@dataclass(frozen=True)
class AdaptiveGeometry(_PerAxis):
    """Adaptive bins over all spatial axes."""

    axes: tuple[AdaptiveAxis, ...]

    __hash__ = _PerAxis._hash_once

    def window(self, out_index: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[str, ...]]]:
        """Per axis, the elements of the bin of output cell ``out_index`` (all ``"input"``)."""
        result = []
        for a, o in zip(self.axes, self._check_out_index(out_index)):
            taps = tuple(range(*a.bins[o]))
            result.append((taps, ("input",) * len(taps)))
        return result


def adaptive_geometry(input_shape: int | Sequence[int],
                      output_size: int | Sequence[int]) -> AdaptiveGeometry:
    """Bins of adaptive pooling from ``input_shape`` (spatial) to ``output_size``.

    >>> adaptive_geometry((7,), 4).axes[0].bins        # TV25
    ((0, 2), (1, 4), (3, 6), (5, 7))
    """
    sizes = _spatial_sizes(input_shape)
    ndim = len(sizes)
    outs = check_per_axis("output_size", output_size, ndim, minimum=1)
    check_memory(f"output_size={output_size!r}", outs, 8)
    return AdaptiveGeometry(
        tuple(AdaptiveAxis(i, o, adaptive_bins(i, o)) for i, o in zip(sizes, outs))
    )


adaptive_geometry = _remembered(adaptive_geometry)


# --------------------------------------------------------------------------- export workaround


@dataclass(frozen=True)
class FixedPoolContrast:
    """The fixed pool that exporters write for adaptive pooling, per axis, against its bins.

    ONNX has no adaptive pooling operator; a common export workaround writes
    an ordinary pool with ``k = I - (O-1)*floor(I/O)`` and ``s = floor(I/O)``
    (no padding), which always makes ``O`` windows covering the input.  Its
    windows are the adaptive bins only in some cases (TV24-TV27).

    Attributes
    ----------
    kernel, stride : tuple of int
        ``k = I - (O-1)*floor(I/O)``, ``s = floor(I/O)`` per axis.
    windows : tuple of tuple of (start, stop)
        Per axis, the window ``[o*s, o*s + k)`` of every output position.
    same : tuple of tuple of bool
        Per axis, whether window ``o`` is exactly bin ``o``.
    """

    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    windows: tuple[tuple[tuple[int, int], ...], ...]
    same: tuple[tuple[bool, ...], ...]

    @property
    def equal(self) -> bool:
        """True when every window is its bin (then the export computes adaptive pooling)."""
        return all(all(axis) for axis in self.same)


def fixed_pool_contrast(geometry: AdaptiveGeometry) -> FixedPoolContrast | None:
    """The export workaround's windows next to the adaptive bins of ``geometry``.

    None when ``I < O`` on an axis (then ``s = floor(I/O) = 0``: there is no
    such fixed pool).

    >>> f = fixed_pool_contrast(adaptive_geometry((5,), 3))        # TV24: k3 s1
    >>> f.kernel, f.stride, f.windows, f.same
    ((3,), (1,), (((0, 3), (1, 4), (2, 5)),), ((False, True, False),))
    >>> fixed_pool_contrast(adaptive_geometry((10,), 3)).equal     # TV26: equal by coincidence
    True
    >>> fixed_pool_contrast(adaptive_geometry((32, 6), (16, 3))).equal   # O divides I: exact
    True
    >>> fixed_pool_contrast(adaptive_geometry((2,), 5)) is None    # I < O
    True
    """
    if not isinstance(geometry, AdaptiveGeometry):
        raise PoolTutorTypeError(
            f"geometry has type {type(geometry).__name__}: need a "
            f"pooltutor.geometry.AdaptiveGeometry (from adaptive_geometry)"
        )
    kernel, stride, windows, same = [], [], [], []
    for a in geometry.axes:
        s = a.input_size // a.output_size
        if s < 1:
            return None
        k = a.input_size - (a.output_size - 1) * s
        win = tuple((o * s, o * s + k) for o in range(a.output_size))
        kernel.append(k)
        stride.append(s)
        windows.append(win)
        same.append(tuple(w == b for w, b in zip(win, a.bins)))
    return FixedPoolContrast(tuple(kernel), tuple(stride), tuple(windows), tuple(same))
