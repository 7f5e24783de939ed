"""The same call everywhere: one pooling's settings spelled in every framework.

:func:`same_call` takes a pooling in the engine's vocabulary
(:mod:`pooltutor.pooling`: kernel, stride, ``(begin, end)`` padding or a
SAME rule, dilation, ``rounding``, the average's divisor) and returns, per
framework, the call or node that reproduces it, or the reason none does.
:func:`same_call_adaptive` does the same for an adaptive pooling.

Nothing here decides by itself what a framework can express.  Each spelling
is first written as the arguments of the framework's own function in
:mod:`pooltutor.frameworks` (``torch_max_pool``, ``onnx_max_pool``, ...),
which is then *run* on a probe input of the given shape and compared with
the engine's result for the settings:

* the function refuses the arguments: its own message (PyTorch's
  "padding is symmetric", "pad should be at most half of kernel size", ...)
  is the reason;
* the function has no parameter for a setting (``inspect.signature``: no
  ``dilation`` in ``torch_avg_pool``, no rounding in ``tensorflow_max_pool``):
  that is the reason;
* it gives another output shape or other values: the reason says so;
* it agrees except in windows without any input element (the value of an
  empty window is a framework rule, e.g. OpenVINO's ``lowest()``): the
  spelling stands, with a note.

The code text is written from the same arguments (one formatter per
framework), so the text, the checked call and the reason cannot drift apart.
Where the framework's runtime (``follow="runtime"``, :data:`pooltutor.frameworks.RUNTIME_RULES`)
departs from its specification for these settings, the note says so.

>>> calls = same_call("max", (5, 5), 3, 2, 1, rounding="ceil_torch")
>>> print(calls["PyTorch"].code)
torch.nn.functional.max_pool2d(x, kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)
>>> print(calls["ONNX"].code)      # doctest: +NORMALIZE_WHITESPACE
onnx.helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                      pads=[1, 1, 1, 1], ceil_mode=1)
>>> calls = same_call("max", (5,), 2, 2, [(0, 1)])
>>> calls["PyTorch"].code is None, calls["PyTorch"].reason.split(":")[0]
(True, 'padding=((0, 1),) is not allowed')
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypedDict

import numpy as np

from . import frameworks as fw
from . import pooling
from .directml import DML_MAX_POOLING2_FIELDS
from .errors import PoolTutorError, check_choice, check_per_axis
from .geometry import ROUNDINGS, adaptive_geometry, fixed_pool_contrast, same_padding
from .rules import PadTaps, Rounding
from .tensorrt import MODE_RULES, PaddingMode

__all__ = ["FRAMEWORKS", "Spelling", "same_call", "same_call_adaptive", "spellings_text"]

#: The frameworks, in the order :func:`same_call` lists them.
FRAMEWORKS = ("PyTorch", "ONNX", "OpenVINO", "TensorRT", "TensorFlow", "DirectML")

#: The SAME rules ``padding`` may name instead of pads.
SAME_RULES = ("same_upper", "same_lower")

#: A :mod:`pooltutor.frameworks` function as this module calls it: with keyword arguments
#: built at run time (its own checks refuse what it cannot take: that is the reason).
_Function = Callable[..., Any]

#: The keyword arguments of one spelling (``x`` aside), as :data:`_CANDIDATES` build them.
_Kwargs = dict[str, Any]

#: Per framework and op, the function of :mod:`pooltutor.frameworks` that models it (None:
#: not modelled) and the names its signature gives to dilation, the rounding and the divisor.
_FUNCTIONS: dict[tuple[str, str],
                 tuple[_Function | None, str | None, str | None, str | None]] = {
    ("PyTorch", "max"): (fw.torch_max_pool, "dilation", "ceil_mode", None),
    ("PyTorch", "avg"): (fw.torch_avg_pool, "dilation", "ceil_mode", "count_include_pad"),
    ("ONNX", "max"): (fw.onnx_max_pool, "dilations", "ceil_mode", None),
    ("ONNX", "avg"): (fw.onnx_average_pool, "dilations", "ceil_mode", "count_include_pad"),
    ("OpenVINO", "max"): (fw.openvino_max_pool, "dilations", "rounding_type", None),
    ("OpenVINO", "avg"): (fw.openvino_avg_pool, "dilations", "rounding_type", "exclude_pad"),
    ("TensorRT", "max"): (fw.tensorrt_pooling, "dilation", "padding_mode", None),
    ("TensorRT", "avg"): (fw.tensorrt_pooling, "dilation", "padding_mode",
                          "average_count_excludes_padding"),
    ("TensorFlow", "max"): (fw.tensorflow_max_pool, "dilation", "rounding", None),
    ("TensorFlow", "avg"): (fw.tensorflow_avg_pool, "dilation", "rounding", "count_include_pad"),
    ("DirectML", "max"): (fw.directml_max_pooling2, "dilations", "rounding", None),
    ("DirectML", "avg"): (None, None, None, None),
}

#: What a framework's operator is called, for the reasons.
_OPERATOR = {
    ("PyTorch", "max"): "torch.nn.functional.max_pool{n}d",
    ("PyTorch", "avg"): "torch.nn.functional.avg_pool{n}d",
    ("ONNX", "max"): "ONNX MaxPool", ("ONNX", "avg"): "ONNX AveragePool",
    ("OpenVINO", "max"): "OpenVINO MaxPool-14", ("OpenVINO", "avg"): "OpenVINO AvgPool-14",
    ("TensorRT", "max"): "TensorRT IPoolingLayer", ("TensorRT", "avg"): "TensorRT IPoolingLayer",
    ("TensorFlow", "max"): "tf.nn.max_pool{n}d", ("TensorFlow", "avg"): "tf.nn.avg_pool{n}d",
    ("DirectML", "max"): "DML_MAX_POOLING2_OPERATOR_DESC",
    ("DirectML", "avg"): "DirectML average pooling",
}

#: The runtime whose ``follow="runtime"`` model each framework function has.
_RUNTIME = {"PyTorch": "PyTorch", "ONNX": "onnxruntime", "OpenVINO": "OpenVINO's CPU plugin",
            "TensorFlow": "TensorFlow"}


@dataclass(frozen=True)
class Spelling:
    """One framework's spelling of a pooling, or the reason it has none.

    Attributes
    ----------
    framework : str
        One of :data:`FRAMEWORKS`.
    code : str or None
        The call or node, as text to copy (None: the settings cannot be expressed).
    reason : str or None
        Why not (None when ``code`` is given).
    note : str or None
        What to know about a spelling that stands (an empty window's value, a
        runtime that departs from the spec, a reshape, a two-step recipe).
    function : str or None
        The :mod:`pooltutor.frameworks` function the spelling was checked with.
    kwargs : mapping
        Its arguments (``x`` aside): the structured form of ``code``.
    layout : str
        How ``x`` is laid out for the call: ``"channels_first"``,
        ``"channels_last"`` (TensorFlow) or ``"lifted"`` (a 1-D pooling run
        as 2-D on ``(N, C, 1, L)``: TensorRT, DirectML).
    """

    framework: str
    code: str | None
    reason: str | None = None
    note: str | None = None
    function: str | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    layout: str = "channels_first"

    @property
    def expressible(self) -> bool:
        return self.code is not None

    def text(self) -> str:
        """The spelling as plain text: a label line, then the code (or the reason), then the
        note."""
        lines = [f"{self.framework}:"]
        lines.append(self.code if self.code is not None
                     else f"cannot express these settings: {self.reason}")
        if self.note:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)


def spellings_text(calls: Mapping[str, Spelling]) -> str:
    """Every spelling of ``calls`` as plain text, one block per framework."""
    return "\n\n".join(s.text() for s in calls.values())


# --------------------------------------------------------------------------- formatting


def _scalar_or_tuple(values: Iterable[Any]) -> str:
    values = tuple(values)
    return str(values[0]) if len(set(values)) == 1 else str(values)


def _list(values: Iterable[Any]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _torch_code(op: str, n: int, kw: Mapping[str, Any]) -> str:
    args = [f"kernel_size={_scalar_or_tuple(kw['kernel_size'])}",
            f"stride={_scalar_or_tuple(kw['stride'])}",
            f"padding={_scalar_or_tuple(kw['padding'])}"]
    if op == "max":
        args.append(f"dilation={_scalar_or_tuple(kw['dilation'])}")
    args.append(f"ceil_mode={kw['ceil_mode']}")
    if op == "avg":
        args.append(f"count_include_pad={kw['count_include_pad']}")
    return f"torch.nn.functional.{op}_pool{n}d(x, {', '.join(args)})"


def _onnx_code(op: str, n: int, kw: Mapping[str, Any]) -> str:
    name = "MaxPool" if op == "max" else "AveragePool"
    args = [f"kernel_shape={_list(kw['kernel_shape'])}", f"strides={_list(kw['strides'])}"]
    if kw.get("auto_pad", "NOTSET") != "NOTSET":
        args.append(f'auto_pad="{kw["auto_pad"]}"')
    else:
        args.append(f"pads={_list(kw['pads'])}")
    if any(d != 1 for d in kw.get("dilations") or ()):
        args.append(f"dilations={_list(kw['dilations'])}")
    args.append(f"ceil_mode={kw['ceil_mode']}")
    if op == "avg":
        args.append(f"count_include_pad={kw['count_include_pad']}")
    return f'onnx.helper.make_node("{name}", ["x"], ["y"], {", ".join(args)})'


def _openvino_code(op: str, n: int, kw: Mapping[str, Any]) -> str:
    args = [f"strides={_list(kw['strides'])}"]
    if op == "max":
        args.append(f"dilations={_list(kw['dilations'])}")
    args += [f"pads_begin={_list(kw['pads_begin'])}", f"pads_end={_list(kw['pads_end'])}",
             f"kernel_shape={_list(kw['kernel'])}"]
    if op == "avg":
        args.append(f"exclude_pad={kw['exclude_pad']}")
    args += [f'rounding_type="{kw["rounding_type"]}"', f'auto_pad="{kw["auto_pad"]}"']
    return f"openvino.opset14.{op}_pool(x, {', '.join(args)})"


def _tensorrt_code(op: str, n: int, kw: Mapping[str, Any]) -> str:
    kind = "MAX" if op == "max" else "AVERAGE"
    mode = PaddingMode.parse(kw["padding_mode"])
    lines = [f"pool = network.add_pooling_nd(x, trt.PoolingType.{kind}, "
             f"window_size={tuple(kw['window_size'])})",
             f"pool.stride_nd = {tuple(kw['stride'])}"]
    if mode.rule.padding == "given":
        lines += [f"pool.pre_padding = {tuple(kw['pre_padding'])}",
                  f"pool.post_padding = {tuple(kw['post_padding'])}"]
    elif mode.rule.padding == "pre_both":
        lines.append(f"pool.pre_padding = {tuple(kw['pre_padding'])}")
    lines.append(f"pool.padding_mode = trt.PaddingMode.{mode.name}")
    if op == "avg":
        lines.append(f"pool.average_count_excludes_padding = "
                     f"{kw['average_count_excludes_padding']}")
    return "\n".join(lines)


def _tensorflow_code(op: str, n: int, kw: Mapping[str, Any]) -> str:
    return (f"tf.nn.{op}_pool{n}d(x, ksize={_scalar_or_tuple(kw['ksize'])}, "
            f"strides={_scalar_or_tuple(kw['strides'])}, padding=\"{kw['padding']}\")")


_DML_ARRAYS = {"Strides": "strides", "WindowSize": "window_size", "StartPadding": "start_padding",
               "EndPadding": "end_padding", "Dilations": "dilations"}


def _directml_code(op: str, n: int, kw: Mapping[str, Any]) -> str:
    """The struct filled field by field, in the order of ``DML_MAX_POOLING2_FIELDS``."""
    count = len(kw["strides"])
    lines: list[str] = []
    fields: list[str] = []
    for name, _ in DML_MAX_POOLING2_FIELDS:
        if name in _DML_ARRAYS:
            var = name[0].lower() + name[1:]
            values = ", ".join(str(v) for v in kw[_DML_ARRAYS[name]])
            lines.append(f"const UINT {var}[{count}] = {{{values}}};")
            fields.append(f"desc.{name} = {var};")
        elif name == "DimensionCount":
            fields.append(f"desc.{name} = {count};")
        else:
            var = name[0].lower() + name[1:].replace("Tensor", "Desc")
            fields.append(f"desc.{name} = &{var};")
    return "\n".join(lines + ["DML_MAX_POOLING2_OPERATOR_DESC desc = {};"] + fields)


_CODE: dict[str, Callable[[str, int, Mapping[str, Any]], str]] = {
    "PyTorch": _torch_code, "ONNX": _onnx_code, "OpenVINO": _openvino_code,
    "TensorRT": _tensorrt_code, "TensorFlow": _tensorflow_code, "DirectML": _directml_code}


# --------------------------------------------------------------------------- the settings


@dataclass(frozen=True)
class _Settings:
    op: str
    shape: tuple[int, ...]            # spatial input shape
    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    pads: tuple[tuple[int, int], ...]  # resolved (begin, end) per axis
    same: str | None                  # "same_upper" / "same_lower" / None
    dilation: tuple[int, ...]
    rounding: Rounding
    include_pad: bool
    pad_taps: PadTaps

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def symmetric(self) -> bool:
        return all(b == e for b, e in self.pads)


def _settings(op: str, input_shape: Any, kernel: Any, stride: Any, padding: Any, dilation: Any,
              rounding: Any, count_include_pad: Any, pad_taps: Any) -> _Settings:
    check_choice("op", op, ("max", "avg"))
    if isinstance(input_shape, int) or not hasattr(input_shape, "__len__"):
        input_shape = (input_shape,)
    shape = check_per_axis("input_shape", list(input_shape), len(input_shape), minimum=1)
    if not 1 <= len(shape) <= 3:
        raise PoolTutorError(f"input_shape={input_shape!r} has {len(shape)} axes: need the "
                             f"spatial shape, 1 to 3 axes")
    n = len(shape)
    k = check_per_axis("kernel", kernel, n, minimum=1)
    s = k if stride is None else check_per_axis("stride", stride, n, minimum=1)
    d = check_per_axis("dilation", dilation, n, minimum=1)
    rounding_c = check_choice("rounding", rounding, ROUNDINGS)
    pad_taps_c = check_choice("pad_taps", pad_taps, pooling.PAD_TAPS)
    if not isinstance(count_include_pad, (bool, np.bool_)):
        raise PoolTutorError(f"count_include_pad={count_include_pad!r} is not allowed: need "
                             f"True or False")
    same: str | None = None
    if isinstance(padding, str):
        same = check_choice("padding", padding.lower(), SAME_RULES)
        pads = tuple(same_padding(i, kk, ss, dd, upper=same == "same_upper")
                     for i, kk, ss, dd in zip(shape, k, s, d, strict=True))
    else:
        from .geometry import normalize_padding

        pads = normalize_padding(padding, n)
    return _Settings(op, shape, k, s, pads, same, d, rounding_c, bool(count_include_pad),
                     pad_taps_c)


def _probe(shape: tuple[int, ...]) -> np.ndarray:
    """Distinct float32 values 1..n in a fixed shuffled order, shaped ``(1, 1, *shape)``."""
    n = int(np.prod(shape))
    values = np.random.default_rng(20261202).permutation(n).astype(np.float32) + 1
    return values.reshape((1, 1) + tuple(shape))


class _Geometry(TypedDict):
    """The window placement of a pooling, as keyword arguments of the engine."""

    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]
    dilation: tuple[int, ...]
    rounding: Rounding


def _engine(st: _Settings, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The engine's result for the settings and the input elements per window."""
    geo = _Geometry(kernel=st.kernel, stride=st.stride, padding=st.pads, dilation=st.dilation,
                    rounding=st.rounding)
    if st.op == "max":
        y = pooling.max_pool(x, **geo, pad_taps=st.pad_taps).output
    else:
        y = pooling.avg_pool(x, **geo, divisor="padded" if st.include_pad else "valid").output
    counts = pooling.avg_pool(np.ones_like(x, dtype=np.float64), **geo, divisor=1).output
    return y, counts


# --------------------------------------------------------------------------- candidates


def _round_choices(rounding: str, native: Mapping[str, Any]) -> list[Any]:
    """The framework's rounding values to try: the one that *is* ``rounding`` first, then
    the others (they may agree with it for this input size: checked on the probe)."""
    first = [native[rounding]] if rounding in native else []
    return first + [v for v in dict.fromkeys(native.values()) if v not in first]


def _torch_candidates(st: _Settings) -> Iterator[_Kwargs]:
    padding = (tuple(b for b, _ in st.pads) if st.symmetric else st.pads)
    for ceil in _round_choices(st.rounding, {"floor": False, "ceil_torch": True}):
        kw: _Kwargs = dict(kernel_size=st.kernel, stride=st.stride, padding=padding,
                           ceil_mode=ceil)
        if st.op == "max":
            kw["dilation"] = st.dilation
        else:
            kw["count_include_pad"] = st.include_pad
        yield kw


def _onnx_candidates(st: _Settings) -> Iterator[_Kwargs]:
    base: _Kwargs = dict(kernel_shape=st.kernel, strides=st.stride, dilations=st.dilation)
    if st.op == "avg":
        base["count_include_pad"] = int(st.include_pad)
    if st.same is not None and st.rounding == "floor":
        yield dict(base, auto_pad=st.same.upper(), ceil_mode=0)
    pads = [b for b, _ in st.pads] + [e for _, e in st.pads]
    for ceil in _round_choices(st.rounding, {"floor": 0, "ceil_torch": 1}):
        yield dict(base, pads=pads, ceil_mode=ceil)


def _openvino_candidates(st: _Settings) -> Iterator[_Kwargs]:
    base: _Kwargs = dict(strides=st.stride, kernel=st.kernel)
    if st.op == "max":
        base["dilations"] = st.dilation
    else:
        base["exclude_pad"] = not st.include_pad
    if st.same is not None and st.rounding == "floor":
        yield dict(base, pads_begin=(0,) * st.ndim, pads_end=(0,) * st.ndim,
                   rounding_type="floor", auto_pad=st.same)
    native: dict[str, str] = {r: r for r in fw._OV_ROUNDING}
    for r in _round_choices(st.rounding, native):
        yield dict(base, pads_begin=tuple(b for b, _ in st.pads),
                   pads_end=tuple(e for _, e in st.pads), rounding_type=r, auto_pad="explicit")


def _tensorrt_candidates(st: _Settings) -> Iterator[_Kwargs]:
    base: _Kwargs = dict(window_size=st.kernel, stride=st.stride,
                         pooling_type="MAX" if st.op == "max" else "AVERAGE")
    if st.op == "avg":
        base["average_count_excludes_padding"] = not st.include_pad
    pre, post = tuple(b for b, _ in st.pads), tuple(e for _, e in st.pads)
    modes: list[tuple[bool, PaddingMode]] = []
    for mode, rule in MODE_RULES.items():
        if rule.padding == (st.same or "given") or (rule.padding == "pre_both" and st.symmetric
                                                   and st.same is None):
            modes.append((rule.pooling_rounding != st.rounding, mode))
    # modes still in TensorRT first, then the mode of the rounding
    ceil = st.rounding in ("ceil", "ceil_torch", "caffe")
    order = [(("Removed" in (mode.__doc__ or "")), off, MODE_RULES[mode].ceil != ceil, mode)
             for off, mode in modes]
    for *_, mode in sorted(order, key=lambda m: m[:3]):
        yield dict(base, pre_padding=pre, post_padding=post, padding_mode=mode.name)


def _tensorflow_candidates(st: _Settings) -> Iterator[_Kwargs]:
    upper = tuple(same_padding(i, k, s, 1, upper=True)
                  for i, k, s in zip(st.shape, st.kernel, st.stride, strict=True))
    if all(p == (0, 0) for p in st.pads):
        padding: str | tuple[tuple[int, int], ...] = "VALID"
    elif st.pads == upper or st.same == "same_upper":
        padding = "SAME"
    else:
        padding = st.pads                   # tensorflow_* refuses it, with its reason
    yield dict(ksize=st.kernel, strides=st.stride, padding=padding)


def _directml_candidates(st: _Settings) -> Iterator[_Kwargs]:
    yield dict(strides=st.stride, window_size=st.kernel,
               start_padding=tuple(b for b, _ in st.pads),
               end_padding=tuple(e for _, e in st.pads), dilations=st.dilation)


_CANDIDATES: dict[str, Callable[[_Settings], Iterator[_Kwargs]]] = {
    "PyTorch": _torch_candidates, "ONNX": _onnx_candidates,
               "OpenVINO": _openvino_candidates, "TensorRT": _tensorrt_candidates,
               "TensorFlow": _tensorflow_candidates, "DirectML": _directml_candidates}


def _call(function: _Function, x: np.ndarray, kw: Mapping[str, Any], framework: str, *,
          follow: str = "spec") -> np.ndarray:
    """Run ``function`` on ``x`` laid out for ``framework``; Y back in (N, C, *spatial)."""
    if framework == "TensorFlow":
        y = function(np.moveaxis(x, 1, -1), **kw, follow=follow)
        return np.moveaxis(y, -1, 1)
    y = function(x, **kw, follow=follow)
    out: np.ndarray = y[0] if isinstance(y, tuple) else y
    return out


def _lift(kw: Mapping[str, Any], framework: str) -> _Kwargs:
    """A 1-D spelling as 2-D on ``(N, C, 1, L)`` (TensorRT, DirectML pool 2 or 3 axes)."""
    one = {"window_size": 1, "stride": 1, "strides": 1, "dilations": 1, "pre_padding": 0,
           "post_padding": 0, "start_padding": 0, "end_padding": 0}
    return {k: ((one[k],) + tuple(v)) if k in one else v for k, v in kw.items()}


def _mismatch(got: np.ndarray, want: np.ndarray,
              counts: np.ndarray) -> tuple[str | None, str | None]:
    """None when ``got`` is ``want`` (values of empty windows aside: then a note), else the
    difference in words."""
    if got.shape != want.shape:
        return f"gives output shape {got.shape[2:]}, these settings {want.shape[2:]}", None
    both = np.asarray(got, np.float64), np.asarray(want, np.float64)
    same = (both[0] == both[1]) | (np.isnan(both[0]) & np.isnan(both[1]))
    full = counts > 0
    bad = ~same & full
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0][2:])
        return (f"gives {both[0][(0, 0) + at]:g} at output {at}, these settings "
                f"{both[1][(0, 0) + at]:g}"), None
    if (~same).any():
        at = tuple(int(i) for i in np.argwhere(~same)[0][2:])
        return None, (f"a window with no input element (output {at}) gives "
                      f"{both[0][(0, 0) + at]:g} here, {both[1][(0, 0) + at]:g} under these "
                      f"settings")
    return None, None


def _missing(function: _Function, param: str | None, value_default: bool) -> bool:
    return not value_default and param not in inspect.signature(function).parameters


def _spell(framework: str, st: _Settings, x: np.ndarray, want: np.ndarray,
           counts: np.ndarray) -> Spelling:
    function, dil_name, round_name, div_name = _FUNCTIONS[(framework, st.op)]
    operator = _OPERATOR[(framework, st.op)].format(n=st.ndim)
    if function is None:
        return Spelling(framework, None,
                        f"pooltutor.frameworks models DirectML's {_OPERATOR[(framework, 'max')]}"
                        f" only; no {st.op} pooling spelling is checked here")
    if _missing(function, dil_name, all(d == 1 for d in st.dilation)):
        return Spelling(framework, None,
                        f"{operator} has no dilation ({function.__name__} takes none); "
                        f"dilation={_scalar_or_tuple(st.dilation)} cannot be spelled")
    lifted = st.ndim == 1 and framework in ("TensorRT", "DirectML")
    probe = x.reshape(x.shape[:2] + (1,) + x.shape[2:]) if lifted else x
    reasons: list[str] = []
    for kw in _CANDIDATES[framework](st):
        kw = _lift(kw, framework) if lifted else kw
        reason: str | None
        note: str | None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = _call(function, probe, kw, framework)
            except (ValueError, TypeError) as exc:
                reason, note = f"{exc}", None
            else:
                got = got.reshape(want.shape) if lifted and got.size == want.size else got
                reason, note = _mismatch(got, want, counts)
        if reason is not None:
            if reason.startswith("gives"):
                reason = f"{operator}{_describe(kw)} {reason}"
            if reason not in reasons:
                reasons.append(reason)
            continue
        notes = [note] if note else []
        notes += [str(w.message) for w in caught]
        native = _native_rounding(framework, kw, st)
        if native is not None and native != st.rounding:
            if round_name in kw:
                notes.append(f"{round_name}={kw[round_name]!r} rounds like {native!r}; it "
                             f"agrees with {st.rounding!r} for this input size")
            else:
                notes.append(f"{framework} rounds down only; that agrees with "
                             f"{st.rounding!r} for this input size")
        if framework == "TensorFlow" and kw["padding"] == "SAME" and st.same is None:
            notes.append(f"padding=\"SAME\" pads {_pairs(st.pads)} here: these pads, for "
                         f"this input size")
        if lifted:
            notes.append(f"x reshaped to (N, C, 1, {st.shape[0]}): {framework} pools 2 or 3 "
                         f"spatial axes")
        if framework == "TensorFlow":
            notes.append("x channels last (N, *spatial, C)")
        if framework == "TensorRT":
            doc = PaddingMode.parse(kw["padding_mode"]).__doc__ or ""
            if "Removed" in doc:
                notes.append("CAFFE modes: " + doc[doc.index("Removed"):])
        notes += _runtime_note(framework, function, probe, kw, got)
        n = 2 if lifted else st.ndim
        return Spelling(framework, _CODE[framework](st.op, n, kw), None,
                        "; ".join(notes) or None, function.__name__,
                        MappingProxyType(dict(kw)),
                        "lifted" if lifted else ("channels_last" if framework == "TensorFlow"
                                                 else "channels_first"))
    reason = "; ".join(reasons)
    if (_missing(function, round_name, st.rounding == "floor")
            and reason and reason.startswith(operator)):
        reason += f" ({operator} has no ceil mode: {function.__name__} rounds down only)"
    if framework == "TensorFlow" and reason.startswith("padding="):
        reason += _tf_padding_hint(st)
    if (div_name and _missing(function, div_name, not st.include_pad) and reason
            and reason.startswith(operator)):
        reason += (f" ({operator} divides by the input elements only: "
                   f"{function.__name__} has no count_include_pad)")
    return Spelling(framework, None, reason)


def _pairs(pads: Iterable[Iterable[int]]) -> str:
    return ", ".join(str(tuple(p)) for p in pads)


def _tf_padding_hint(st: _Settings) -> str:
    same = tuple(same_padding(i, k, s, 1, upper=True)
                 for i, k, s in zip(st.shape, st.kernel, st.stride, strict=True))
    pads = [[0, 0]] + [list(p) for p in st.pads] + [[0, 0]]
    head = f" (these pads {_pairs(st.pads)} are neither VALID nor SAME's {_pairs(same)})"
    return head + _tf_two_steps(st, pads)


def _tf_two_steps(st: _Settings, pads: list[list[int]]) -> str:
    if st.op == "max":
        return (f"; two steps instead (not checked here): tf.pad(x, {pads}, "
                f"constant_values=float('-inf')), then padding=\"VALID\"")
    return ("; TensorFlow's avg_pool never counts padding, and zeros from tf.pad would "
            "always count")


def _describe(kw: Mapping[str, Any]) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in kw.items()
                      if k in ("ceil_mode", "rounding_type", "padding_mode", "padding",
                               "auto_pad"))
    return f" with {shown}" if shown else ""


def _native_rounding(framework: str, kw: Mapping[str, Any], st: _Settings) -> str | None:
    """The engine rounding the chosen framework value stands for (None: not a choice)."""
    if framework == "PyTorch":
        return "ceil_torch" if kw["ceil_mode"] else "floor"
    if framework == "ONNX":
        return None if kw.get("auto_pad", "NOTSET") != "NOTSET" else (
            "ceil_torch" if kw["ceil_mode"] else "floor")
    if framework == "OpenVINO":
        return None if kw["auto_pad"] != "explicit" else kw["rounding_type"]
    if framework == "TensorRT":
        mode = PaddingMode.parse(kw["padding_mode"])
        return None if mode.rule.family == "same" else mode.rule.pooling_rounding
    return "floor"


def _runtime_note(framework: str, function: _Function, x: np.ndarray, kw: Mapping[str, Any],
                  spec: np.ndarray) -> list[str]:
    """What the framework's runtime model (``follow="runtime"``) does differently here."""
    if framework not in _RUNTIME:
        return []
    try:
        got = _call(function, x, kw, framework, follow="runtime")
    except (ValueError, TypeError) as exc:
        return [f"{_RUNTIME[framework]} {exc}".replace(f"{_RUNTIME[framework]} follow=",
                                                       "follow=")]
    if got.shape != spec.shape:
        return [f"{_RUNTIME[framework]} gives output shape {got.shape[2:]} here, its spec "
                f"{spec.shape[2:]} (RUNTIME_RULES['{function.__name__}'])"]
    a, b = np.asarray(got, np.float64), np.asarray(spec, np.float64)
    if not ((a == b) | (np.isnan(a) & np.isnan(b))).all():
        return [f"{_RUNTIME[framework]} gives other values here than its spec "
                f"(RUNTIME_RULES['{function.__name__}'])"]
    return []


# --------------------------------------------------------------------------- public


def same_call(op: str, input_shape: int | Sequence[int], kernel: int | Sequence[int],
              stride: int | Sequence[int] | None = None, padding: Any = 0,
              dilation: int | Sequence[int] = 1, *, rounding: Rounding = "floor",
              count_include_pad: bool = False,
              pad_taps: PadTaps = "skip") -> Mapping[str, Spelling]:
    """The call or node that reproduces a pooling in every framework (:data:`FRAMEWORKS`).

    Parameters
    ----------
    op : {'max', 'avg'}
    input_shape : int or tuple of 1 to 3 ints
        The spatial input shape (spellings are checked on it: whether a
        rounding rule or SAME padding agrees depends on the input size).
    kernel, stride, dilation : int or one int per spatial axis
        ``stride`` defaults to ``kernel``.
    padding : int, one int per axis, one ``(begin, end)`` pair per axis, or
        ``'same_upper'`` / ``'same_lower'`` (SAME padding from the dilated kernel).
    rounding : str
        One of :data:`pooltutor.geometry.ROUNDINGS`.
    count_include_pad : bool
        For ``op='avg'``: the divisor counts padding (engine ``divisor='padded'``)
        or not (``'valid'``).
    pad_taps : {'skip', 'neg_inf', 'lowest'}
        For ``op='max'``: what a padding tap is (it only matters in a window
        with no input element).

    Returns
    -------
    Mapping[str, Spelling]
        Read-only, in the order of :data:`FRAMEWORKS`.

    Examples
    --------
    >>> calls = same_call("avg", (6,), 3, 2, 1, rounding="ceil_torch", count_include_pad=True)
    >>> print(calls["TensorFlow"].reason)     # doctest: +ELLIPSIS
    padding=((1, 1),) has type tuple: need one of 'SAME', 'VALID' (these pads (1, 1) are ...
    >>> print(calls["TensorRT"].code)
    pool = network.add_pooling_nd(x, trt.PoolingType.AVERAGE, window_size=(1, 3))
    pool.stride_nd = (1, 2)
    pool.pre_padding = (0, 1)
    pool.post_padding = (0, 1)
    pool.padding_mode = trt.PaddingMode.EXPLICIT_ROUND_UP
    pool.average_count_excludes_padding = False
    """
    st = _settings(op, input_shape, kernel, stride, padding, dilation, rounding,
                   count_include_pad, pad_taps)
    x = _probe(st.shape)
    want, counts = _engine(st, x)         # raises (the engine's reason) for invalid settings
    return MappingProxyType({name: _spell(name, st, x, want, counts) for name in FRAMEWORKS})


def same_call_adaptive(op: str, input_shape: int | Sequence[int],
                       output_size: int | Sequence[int]) -> Mapping[str, Spelling]:
    """:func:`same_call` for an adaptive pooling (bins ``[floor(i*I/O), ceil((i+1)*I/O))``).

    PyTorch and OpenVINO have adaptive operators.  The others have none: an
    output of 1 everywhere is ONNX's ``GlobalMaxPool`` / ``GlobalAveragePool``;
    where the export workaround (a fixed pool with ``s = floor(I/O)``,
    ``k = I - (O-1)*s``, :func:`pooltutor.geometry.fixed_pool_contrast`) lays
    exactly the bins, that fixed pool is the spelling; else the reason.

    >>> calls = same_call_adaptive("max", (5, 5), (3, 3))
    >>> print(calls["PyTorch"].code)
    torch.nn.functional.adaptive_max_pool2d(x, output_size=3)
    >>> print(calls["ONNX"].reason)     # doctest: +ELLIPSIS
    ONNX has no adaptive pooling ...
    """
    check_choice("op", op, ("max", "avg"))
    given: Any = input_shape
    if isinstance(given, int) or not hasattr(given, "__len__"):
        given = (given,)
    shape = check_per_axis("input_shape", list(given), len(given), minimum=1)
    n = len(shape)
    outs = check_per_axis("output_size", output_size, n, minimum=1)
    geometry = adaptive_geometry(shape, outs)
    x = _probe(shape)
    want = (pooling.adaptive_max_pool(x, outs) if op == "max"
            else pooling.adaptive_avg_pool(x, outs)).output
    calls: dict[str, Spelling] = {}
    # the adaptive operators
    torch_fn = fw.torch_adaptive_max_pool if op == "max" else fw.torch_adaptive_avg_pool
    ov_fn = fw.openvino_adaptive_max_pool if op == "max" else fw.openvino_adaptive_avg_pool
    adaptive: dict[str, tuple[_Function, _Kwargs, str]] = {
        "PyTorch": (torch_fn, dict(output_size=outs),
                    f"torch.nn.functional.adaptive_{op}_pool{n}d(x, "
                    f"output_size={_scalar_or_tuple(outs)})"),
        "OpenVINO": (ov_fn, dict(output_shape=outs, **({"index_element_type": "i32"}
                                                       if op == "max" else {})),
                     f"openvino.opset8.adaptive_{op}_pool(x, openvino.opset8.constant("
                     f"np.array({_list(outs)}, np.int64))"
                     + (', index_element_type="i32")' if op == "max" else ")")),
    }
    # the export workaround, where it is exact
    contrast = fixed_pool_contrast(geometry)
    fixed = None
    if contrast is not None and all(all(s) for s in contrast.same):
        fixed = same_call(op, shape, contrast.kernel, contrast.stride, 0)
        why = (f"no adaptive operator; the fixed pool kernel={_scalar_or_tuple(contrast.kernel)},"
               f" stride={_scalar_or_tuple(contrast.stride)} lays exactly these bins")
    for name in FRAMEWORKS:
        if name in adaptive:
            function, kw, code = adaptive[name]
            got = function(x, **kw)
            got = got[0] if isinstance(got, tuple) else got
            if np.array_equal(got, want):
                notes = _runtime_note(name, function, x, kw, got)
                calls[name] = Spelling(name, code, None, "; ".join(notes) or None,
                                       function.__name__, MappingProxyType(kw))
            else:                                   # not expected: the bins are the same
                calls[name] = Spelling(name, None, f"{function.__name__} gives other values")
            continue
        if name == "ONNX" and all(o == 1 for o in outs):
            node = "GlobalMaxPool" if op == "max" else "GlobalAveragePool"
            kw = dict(kernel_shape=shape)
            function = fw.onnx_max_pool if op == "max" else fw.onnx_average_pool
            got = function(x, **kw)
            got = got[0] if isinstance(got, tuple) else got
            if np.array_equal(got, want):
                calls[name] = Spelling(name, f'onnx.helper.make_node("{node}", ["x"], ["y"])',
                                       None, f"{node} is {function.__name__} with kernel_shape "
                                       f"= the input's spatial shape {shape}",
                                       function.__name__, MappingProxyType(kw))
                continue
        if fixed is not None and fixed[name].expressible:
            f = fixed[name]
            note = why + (f"; {f.note}" if f.note else "")
            calls[name] = Spelling(name, f.code, None, note, f.function, f.kwargs, f.layout)
            continue
        if fixed is not None:
            calls[name] = Spelling(name, None, f"{why}, but {fixed[name].reason}")
            continue
        uneven = next((a for a, (i, o) in enumerate(zip(shape, outs, strict=True)) if i % o),
                      None)
        if uneven is None:
            detail = "and no fixed pool lays these bins"
        else:
            detail = (f"on axis {uneven} I={shape[uneven]} is not a multiple of "
                      f"O={outs[uneven]}: the bins [floor(i*I/O), ceil((i+1)*I/O)) differ in "
                      f"length or overlap, which no fixed kernel and stride give")
        extra = " (only GlobalMaxPool / GlobalAveragePool, for an output of 1)" if (
            name == "ONNX") else ""
        calls[name] = Spelling(name, None, f"{name} has no adaptive pooling{extra}; {detail}")
    return MappingProxyType(calls)
