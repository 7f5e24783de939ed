"""Model audit: what each runtime makes of every window-rule node of an ONNX model.

:func:`audit` reads an ONNX model and follows, runtime by runtime, the
shape of every tensor from the inputs to the outputs.  The nodes whose
output shape depends on a window rule (:data:`AUDITED_OPS`: ``MaxPool``,
``AveragePool``, ``LpPool``, ``MaxUnpool``, ``GlobalMaxPool``,
``GlobalAveragePool``, ``Conv``, ``ConvTranspose``) get their output shape
from each runtime's own reading of the attributes (:data:`RUNTIMES`):

``onnx``
    the specification at the model's opset (ceil clip, SAME from the
    dilated kernel, VALID's formula without ceil);
``onnxruntime``
    onnxruntime's CPU kernels: pads smaller than the kernel, SAME padding
    from the *undilated* kernel, ``auto_pad`` with ``ceil_mode`` rounded up
    without the clip, no dilated SAME convolution;
``openvino``
    OpenVINO's ONNX frontend and CPU plugin: ``MaxPool`` ``ceil_mode=1``
    becomes ``rounding_type=ceil`` (raw: no clip), an ``AveragePool`` that
    excludes padding may not have a window entirely in the padding, no
    ``MaxUnpool``;
``tensorrt``
    onnx-tensorrt's mapping onto ``PaddingMode`` (``ceil_mode`` ->
    ``EXPLICIT_ROUND_UP``), by the header formulas of
    :func:`pooltutor.tensorrt.output_geometry` (not run);
``pytorch``
    the ``torch.nn`` module with the same attributes, or why there is none
    (asymmetric padding, padding over half the kernel, SAME padding, ...).

Every other node's output shape comes from ONNX shape inference, run on the
input shapes *that runtime* produced upstream, so a disagreement is followed
to the model's outputs.  No output-size formula lives here: the pooling and
convolution lengths come from :mod:`pooltutor.geometry`, the TensorRT modes
and the transposed lengths from :mod:`pooltutor.tensorrt`; this module
only decides, per runtime, which rule and which padding apply.

Reading the model needs the ``onnx`` package (``pip install pooltutor[audit]``).

>>> from onnx import helper, TensorProto
>>> node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2], strides=[2],
...                         pads=[1, 1], ceil_mode=1)
>>> graph = helper.make_graph([node], "tv03",
...     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 5])],
...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
>>> report = audit(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)]))
>>> n = report.nodes[0]
>>> n.shapes["onnx"], n.shapes["onnxruntime"], n.shapes["openvino"], n.agree
((1, 1, 3), (1, 1, 3), (1, 1, 4), False)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import PoolTutorError
from .geometry import AxisGeometry, pool_geometry, same_padding
from .rules import Rounding

__all__ = [
    "RUNTIMES",
    "AUDITED_OPS",
    "RUNTIME_VERSIONS",
    "RuntimeShape",
    "NodeAudit",
    "AuditReport",
    "audit",
    "parse_input_shape",
]

#: The runtime keys of every node audit, in report order.
RUNTIMES: tuple[str, ...] = ("onnx", "onnxruntime", "openvino", "tensorrt", "pytorch")

#: The ONNX operators whose output shape depends on a window rule.
AUDITED_OPS: tuple[str, ...] = ("MaxPool", "AveragePool", "LpPool", "MaxUnpool",
                                "GlobalMaxPool", "GlobalAveragePool", "Conv", "ConvTranspose")

#: The versions whose behaviour the audit predicts (``onnx``: the model's opset, filled in
#: per report).
RUNTIME_VERSIONS: Mapping[str, str] = {
    "onnxruntime": "1.32",
    "openvino": "2026.4",
    "tensorrt": "10 (onnx-tensorrt, by the NvInfer.h formulas; not run)",
    "pytorch": "2.13",
}

_POOLS = ("MaxPool", "AveragePool", "LpPool")
_GLOBALS = ("GlobalMaxPool", "GlobalAveragePool")
_AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")
#: A constant (initializer, Constant, Shape output) is carried as a value when it has at
#: most this many elements, so that shape subgraphs (Shape -> Gather -> Concat -> Reshape)
#: fold per runtime.
_MAX_VALUE_ELEMENTS = 4096


def _onnx() -> Any:
    try:
        import onnx
    except ImportError:  # pragma: no cover - the test extra has onnx
        raise ImportError(
            "pooltutor.audit needs the onnx package to read models: pip install onnx "
            "(or pip install 'pooltutor[audit]')"
        ) from None
    return onnx


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class AxisRule:
    """How one runtime placed the windows along one spatial axis of one node."""

    rule: str                      # e.g. "ceil_torch", "raw ceil", "EXPLICIT_ROUND_UP"
    pads: tuple[int, int]
    output_size: int
    geometry: AxisGeometry | None  # window placement (pooling, convolution), else None
    detail: str = ""               # added to the geometry's formula, or the whole text

    @property
    def text(self) -> str:
        """The formula with its numbers."""
        if self.geometry is None:
            return self.detail
        return f"{self.rule}: {self.geometry.describe()}{self.detail}"


@dataclass(frozen=True)
class RuntimeShape:
    """One runtime's result for one node: the shape, or why the runtime refuses the node.

    ``notes`` name the rules of this runtime that differ from the specification
    (they explain a disagreement); ``axes`` the window placement per axis.
    """

    runtime: str
    input_shape: tuple[int, ...] | None
    shape: tuple[int, ...] | None = None
    error: str | None = None
    notes: tuple[str, ...] = ()
    axes: tuple[AxisRule, ...] = ()
    reading: str = ""              # how this runtime reads the attributes, in words
    upstream: bool = False         # refused only because its input was missing

    @property
    def value(self) -> tuple[int, ...] | str | None:
        """The shape tuple, or the reason string when the runtime refuses the node."""
        return self.shape if self.error is None else self.error


@dataclass
class NodeAudit:
    """The audit of one window-rule node (see the module docstring).

    ``shapes`` maps each runtime key to its output shape (a tuple) or to a
    string saying why that runtime refuses the node; ``agree`` is True when
    all runtimes give the same shape and read the indices alike; ``why`` says
    which rule differs (``""`` when all agree).
    """

    name: str
    op_type: str
    index: int
    attributes: dict[str, Any]
    results: dict[str, RuntimeShape]
    why: str = ""
    agree: bool = True

    @property
    def input_shape(self) -> tuple[int, ...] | None:
        """The input shape under the specification (``onnx``)."""
        return self.results["onnx"].input_shape

    @property
    def input_shapes(self) -> dict[str, tuple[int, ...] | None]:
        return {r: self.results[r].input_shape for r in RUNTIMES}

    @property
    def shapes(self) -> dict[str, tuple[int, ...] | str | None]:
        return {r: self.results[r].value for r in RUNTIMES}

    def explain(self) -> str:
        """The story of the last window under each runtime's rule."""
        lines = [f"{self.op_type} node {self.name!r}, attributes "
                 f"{_format_attributes(self.attributes)}"]
        for r in RUNTIMES:
            res = self.results[r]
            head = f"{r}: input {_fmt_shape(res.input_shape)}"
            if res.error is not None:
                lines.append(f"{head} -> refused: {res.error}")
                continue
            lines.append(f"{head} -> {_fmt_shape(res.shape)}")
            if res.reading:
                lines.append(f"  reads the node as {res.reading}")
            for i, ax in enumerate(res.axes):
                lines.append(f"  axis {i}: {ax.text}")
                lines.extend(f"    {t}" for t in _last_window_story(ax))
            for note in res.notes:
                lines.append(f"  note: {note}")
        lines.append("agree: yes" if self.agree else f"disagree: {self.why}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "op_type": self.op_type,
            "input_shape": None if self.input_shape is None else list(self.input_shape),
            "attributes": _json_attributes(self.attributes),
            "shapes": {r: _json_shape(self.results[r].value) for r in RUNTIMES},
            "agree": self.agree,
            "why": self.why,
        }


@dataclass
class AuditReport:
    """What :func:`audit` returns.

    ``nodes``: the :class:`NodeAudit` of every window-rule node, in graph
    order; ``outputs``: runtime -> model output name -> shape or reason;
    ``unknown_ops``: ``(name, op_type, domain)`` of the nodes no shape rule
    (neither this module nor ONNX shape inference) knows, which pass through
    with whatever shape the model stores for their outputs.
    """

    model: str
    opset: int
    nodes: list[NodeAudit]
    outputs: dict[str, dict[str, tuple[int, ...] | str]]
    unknown_ops: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def runtimes(self) -> dict[str, str]:
        versions = {"onnx": f"opset {self.opset}"}
        versions.update(RUNTIME_VERSIONS)
        return {r: versions[r] for r in RUNTIMES}

    @property
    def agree(self) -> bool:
        return all(n.agree for n in self.nodes)

    @property
    def first_divergence(self) -> NodeAudit | None:
        """The first node (graph order) where the runtimes disagree."""
        return next((n for n in self.nodes if not n.agree), None)

    @property
    def disagreements(self) -> list[NodeAudit]:
        return [n for n in self.nodes if not n.agree]

    def node(self, name: str) -> NodeAudit:
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``pooltutor audit MODEL --json`` (``docs/api.md``, "Model audit")."""
        return {
            "model": self.model,
            "runtimes": self.runtimes,
            "nodes": [n.to_dict() for n in self.nodes],
            "outputs": {r: {name: _json_shape(v) for name, v in outs.items()}
                        for r, outs in self.outputs.items()},
        }

    def table(self) -> str:
        """A terminal table: one row per node, disagreeing nodes marked with ``!``."""
        return format_table(self)


def _fmt_shape(shape: tuple[int, ...] | str | None) -> str:
    if shape is None:
        return "unknown"
    if isinstance(shape, str):
        return shape
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _json_shape(value: tuple[int, ...] | str | None) -> dict[str, str] | list[int] | None:
    if isinstance(value, str):
        return {"error": value}
    return None if value is None else [int(d) for d in value]


def _json_attributes(attrs: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in attrs.items():
        if isinstance(v, (list, tuple)):
            out[k] = [x if isinstance(x, (int, float, str)) else str(x) for x in v]
        elif isinstance(v, (int, float, str)) or v is None:
            out[k] = v
        else:
            out[k] = str(v)
    return out


def _format_attributes(attrs: Mapping[str, Any]) -> str:
    if not attrs:
        return "(none)"
    return ", ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}"
                     for k, v in attrs.items())


def _last_window_story(ax: AxisRule) -> list[str]:
    g = ax.geometry
    if g is None or g.output_size < 1:
        return []
    last = g.output_size - 1
    taps = g.taps(last)
    kinds = g.tap_kinds(last)
    start = taps[0]
    where = ("in the input" if 0 <= start < g.input_size
             else "in the begin padding" if start < 0 else "in the end padding")
    counts = {k: kinds.count(k) for k in ("input", "padding", "outside") if k in kinds}
    text = [f"last window (output {last}) starts at {start} ({where}): taps {list(taps)} -> "
            + ", ".join(f"{n} {k}" for k, n in counts.items())]
    if "input" not in kinds:
        text.append("  it holds no input element at all (only padding, or taps past the "
                    "padded input)")
    if g.clipped:
        text.append(f"  the ceil clip dropped the window after it, which would start at "
                    f"{g.dropped_start} >= I = {g.input_size} (in the end padding)")
    return text


# --------------------------------------------------------------------------- loading


def _load(model: Any) -> tuple[Any, str]:
    onnx = _onnx()
    from google.protobuf.message import DecodeError

    if isinstance(model, onnx.ModelProto):
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        return copy, model.graph.name or "<ModelProto>"
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, label = bytes(model), "<bytes>"
    elif isinstance(model, (str, os.PathLike)):
        label = os.fspath(model)
        try:
            with open(label, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise PoolTutorError(f"model={label!r} cannot be read: {exc.strerror or exc}") from None
    else:
        raise TypeError(
            f"model={model!r} has type {type(model).__name__}: need a path, the bytes of an "
            f"ONNX file or an onnx.ModelProto"
        )
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except DecodeError:
        raise PoolTutorError(
            f"model={label!r} is not an ONNX model (or the file is truncated): protobuf cannot "
            f"parse its {len(data)} bytes as onnx.ModelProto"
        ) from None
    if not proto.HasField("graph") or proto.ir_version == 0:
        raise PoolTutorError(
            f"model={label!r} is not an ONNX model: it parses, but has no "
            + ("graph" if not proto.HasField("graph") else "ir_version")
        )
    return proto, label


def _check(proto: Any, label: str) -> None:
    onnx = _onnx()
    # the checker insists on a shape in every value info, although the IR lets a graph
    # output leave it out (onnxruntime and OpenVINO accept that): check a copy whose
    # shapeless value infos get an empty shape
    copy = onnx.ModelProto()
    copy.CopyFrom(proto)
    for vi in (*copy.graph.input, *copy.graph.output, *copy.graph.value_info):
        if vi.type.HasField("tensor_type") and not vi.type.tensor_type.HasField("shape"):
            vi.type.tensor_type.shape.SetInParent()
    try:
        onnx.checker.check_model(copy)
    except onnx.checker.ValidationError as exc:
        first = str(exc).strip().splitlines()[0]
        if "No Op registered for" in first or "No opset import for domain" in first:
            return                  # listed as an unknown op; its outputs pass through
        context = " ".join(str(exc).split("==> Context:")[1:]).strip()
        raise PoolTutorError(
            f"model={label!r} is not a valid ONNX model: {first}"
            + (f" ({' '.join(context.split())})" if context else "")
        ) from None


def parse_input_shape(text: str) -> tuple[str, tuple[int, ...]]:
    """``"NAME=1,3,224,224"`` -> ``("NAME", (1, 3, 224, 224))`` (the CLI's ``--input-shape``).

    >>> parse_input_shape("x=1,3,224,224")
    ('x', (1, 3, 224, 224))
    """
    if not isinstance(text, str) or "=" not in text:
        raise PoolTutorError(
            f"--input-shape {text!r} is malformed: need NAME=D1,D2,... (e.g. x=1,3,224,224)")
    name, _, dims = text.rpartition("=")
    parts = [p.strip() for p in dims.split(",")]
    if not name.strip() or not parts or not all(p.isdigit() for p in parts):
        raise PoolTutorError(
            f"--input-shape {text!r} is malformed: need NAME=D1,D2,... with every dimension "
            f"an int >= 1 (e.g. x=1,3,224,224)")
    shape = tuple(int(p) for p in parts)
    if min(shape) < 1:
        raise PoolTutorError(
            f"--input-shape {text!r} is malformed: every dimension must be an int >= 1")
    return name.strip(), shape


# --------------------------------------------------------------------------- attributes


def _attributes(node: Any) -> dict[str, Any]:
    onnx = _onnx()
    out = {}
    for a in node.attribute:
        v = onnx.helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        elif isinstance(v, (list, tuple)):
            v = [x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in v]
        elif not isinstance(v, (int, float, str)):
            v = f"<{type(v).__name__}>"
        out[a.name] = v
    return out


class _Attrs:
    """The checked window attributes of one node (ONNX names)."""

    def __init__(self, node_label: str, op: str, attrs: Mapping[str, Any], ndim: int,
                 kernel_from_weight: tuple[int, ...] | None = None):
        self.label = node_label
        self.op = op
        self.ndim = ndim

        def ints(name: str, default: Any, minimum: int, length: int = ndim) -> Any:
            if name not in attrs:
                return default
            v = attrs[name]
            if (not isinstance(v, list) or len(v) != length
                    or not all(isinstance(i, int) and i >= minimum for i in v)):
                raise PoolTutorError(
                    f"node {node_label} ({op}) has {name}={v!r}: need {length} ints >= {minimum} "
                    f"(one per spatial axis{', begins then ends' if name == 'pads' else ''}) "
                    f"for an input with {ndim} spatial axes"
                )
            return tuple(v)

        if "kernel_shape" in attrs:
            self.kernel = ints("kernel_shape", None, 1)
        elif kernel_from_weight is not None:
            self.kernel = kernel_from_weight
        else:
            raise PoolTutorError(f"node {node_label} ({op}) has no kernel_shape: {op} needs one")
        if kernel_from_weight is not None and self.kernel != kernel_from_weight:
            raise PoolTutorError(
                f"node {node_label} ({op}) has kernel_shape={list(self.kernel)} but its weight "
                f"has the kernel {list(kernel_from_weight)}")
        self.strides = ints("strides", (1,) * ndim, 1)
        self.dilations = ints("dilations", (1,) * ndim, 1)
        flat = ints("pads", (0,) * (2 * ndim), 0, 2 * ndim)
        self.pads = tuple((flat[i], flat[i + ndim]) for i in range(ndim))
        self.explicit_pads = "pads" in attrs
        auto_pad = attrs.get("auto_pad", "NOTSET")
        if auto_pad not in _AUTO_PADS:
            raise PoolTutorError(
                f"node {node_label} ({op}) has auto_pad={auto_pad!r}: need one of "
                + ", ".join(map(repr, _AUTO_PADS)))
        self.auto_pad = auto_pad
        if auto_pad != "NOTSET" and any(p for pair in self.pads for p in pair):
            raise PoolTutorError(
                f"node {node_label} ({op}) has pads={list(flat)} together with "
                f"auto_pad={auto_pad!r}: the pads attribute cannot be used simultaneously "
                f"with auto_pad")
        ceil = attrs.get("ceil_mode", 0)
        if ceil not in (0, 1):
            raise PoolTutorError(
                f"node {node_label} ({op}) has ceil_mode={ceil!r}: need 0 or 1")
        self.ceil = bool(ceil)
        self.storage_order = attrs.get("storage_order", 0)
        if self.storage_order not in (0, 1):
            raise PoolTutorError(
                f"node {node_label} ({op}) has storage_order={self.storage_order!r}: need 0 or 1")
        self.count_include_pad = attrs.get("count_include_pad", 0)
        self.group = attrs.get("group", 1)
        if not isinstance(self.group, int) or self.group < 1:
            raise PoolTutorError(
                f"node {node_label} ({op}) has group={self.group!r}: need an int >= 1")
        self.output_padding = ints("output_padding", (0,) * ndim, 0)
        self.output_shape = None
        if "output_shape" in attrs:
            v = attrs["output_shape"]
            if (not isinstance(v, list) or len(v) not in (ndim, ndim + 2)
                    or not all(isinstance(i, int) and i >= 1 for i in v)):
                raise PoolTutorError(
                    f"node {node_label} ({op}) has output_shape={v!r}: need {ndim} ints >= 1")
            self.output_shape = tuple(v[-ndim:])

    @property
    def dilated(self) -> bool:
        return any(d != 1 for d in self.dilations)


# --------------------------------------------------------------------------- the rules

@functools.lru_cache(maxsize=16384)
def _trt_geometry(spatial: tuple[int, ...], kernel: tuple[int, ...], strides: tuple[int, ...],
                  pre: tuple[int, ...], post: tuple[int, ...], dilation: tuple[int, ...],
                  mode: str, layer: str) -> Any:
    """:func:`pooltutor.tensorrt.output_geometry`, cached (its warnings are recorded)."""
    import warnings

    from .tensorrt import output_geometry

    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        return output_geometry(spatial, kernel, strides, pre_padding=pre, post_padding=post,
                               dilation=dilation, padding_mode=mode, layer=layer)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _trunc_div(a: int, b: int) -> int:
    """C++ integer division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


@functools.lru_cache(maxsize=65536)
def _axis_geometry(i: int, k: int, s: int, d: int, pb: int, pe: int, rounding: Rounding
                   ) -> AxisGeometry:
    return pool_geometry((i,), k, s, ((pb, pe),), d, rounding).axes[0]


def _axis(i: int, k: int, s: int, d: int, pb: int, pe: int, rounding: Rounding, label: str,
          extra: str = "") -> AxisRule:
    """One axis through pool_geometry; raises PoolTutorError when the window does not fit."""
    g = _axis_geometry(i, k, s, d, pb, pe, rounding)
    return AxisRule(label, (pb, pe), g.output_size, g, extra)


def _geometry_refusal(exc: Exception) -> str:
    msg = str(exc)
    cut = msg.find(": window of effective size")
    return msg[cut + 2:] if cut >= 0 else msg


class _Refused(Exception):
    """A runtime refuses the node (the message is its reason, in words)."""


#: Per-axis rules of one node under one runtime: the axes, the notes, how the attributes read.
_Rules = tuple[list[AxisRule], list[str], str]


def _pool_axes_spec(a: _Attrs, spatial: tuple[int, ...]) -> _Rules:
    axes, notes = [], []
    if a.auto_pad == "NOTSET":
        rounding: Rounding = "ceil_torch" if a.ceil else "floor"
        reading = (f"explicit pads, rule {rounding!r}"
                   + (" (ceil_mode=1: round up, then drop a last window that would start in "
                      "the end padding: the ceil clip)" if a.ceil else ""))
        for size, k, s, d, (pb, pe) in zip(spatial, a.kernel, a.strides, a.dilations, a.pads,
                                           strict=False):
            axes.append(_axis(size, k, s, d, pb, pe, rounding, rounding))
    elif a.auto_pad == "VALID":
        reading = "VALID: no padding, the floor size"
        if a.ceil:
            reading += (" (the spec's VALID formula ceil((I - DK + 1) / S) ignores ceil_mode)")
            notes.append("VALID with ceil_mode=1: the spec's formula ceil((I - DK + 1) / S) is "
                         "the floor size, ceil_mode changes nothing")
        for size, k, s, d in zip(spatial, a.kernel, a.strides, a.dilations, strict=False):
            axes.append(_axis(size, k, s, d, 0, 0, "floor", "floor"))
    else:
        upper = a.auto_pad == "SAME_UPPER"
        reading = (f"{a.auto_pad}: O = ceil(I / S), total pad (O - 1) * S + DK - I from the "
                   f"dilated kernel DK")
        for size, k, s, d in zip(spatial, a.kernel, a.strides, a.dilations, strict=False):
            pb, pe = same_padding(size, k, s, d, upper=upper)
            axes.append(_axis(size, k, s, d, pb, pe, "floor", a.auto_pad))
    return axes, notes, reading


def _ort_same(a: _Attrs, size: int, k: int, s: int, d: int, rounding: Rounding, label: str
              ) -> tuple[AxisRule, bool]:
    """onnxruntime's SAME: the pad from the undilated kernel (pool_attributes.h); returns
    ``(AxisRule, negative)`` where ``negative`` says a pad came out below 0."""
    target = _ceil_div(size, s)
    needed = (target - 1) * s + k - size
    if a.auto_pad == "SAME_UPPER":
        head = _trunc_div(needed, 2)
    else:
        head = _trunc_div(needed + 1, 2)
    tail = needed - head
    extra = ""
    if d != 1:
        extra = (f" (onnxruntime pads by the undilated kernel: total {needed} = (ceil({size}/{s})"
                 f" - 1) * {s} + K={k} - {size}, where the spec uses DK = {(k - 1) * d + 1})")
    dk = (k - 1) * d + 1
    span = size + needed - dk
    if span < 0:
        # onnxruntime's integer division truncates toward 0: (span / S) + 1 is 1 for
        # -S < span < 0 (one window overhanging the padded input) and 0 for span = -S
        if span == -s:
            return AxisRule(label, (head, tail), 0, None,
                            f"{label}: pads ({head}, {tail}) from the undilated kernel leave "
                            f"the dilated window {dk} longer than the padded input "
                            f"{size + needed} by the stride: onnxruntime returns an empty "
                            f"axis, O = 0"), False
        if span < -s:
            raise _Refused(f"the window does not fit: the dilated window {dk} is longer than "
                           f"the input {size} padded by onnxruntime's {a.auto_pad} pads "
                           f"({head}, {tail})")
        if head < 0 or tail < 0:
            return AxisRule(label, (head, tail), 1, None,
                            f"{label}: pads ({head}, {tail}) from the undilated kernel; one "
                            f"window overhanging the padded input: O = 1" + extra), True
        return _axis(size, k, s, d, head, tail, "ceil_torch", label,
                     extra + "; the window overhangs the padded input and onnxruntime's "
                     "truncating division still counts it"), False
    if head < 0 or tail < 0:
        # windows shifted by the negative pad: the count is that of the cropped extent
        g = pool_geometry((size + head + tail,), k, s, 0, d, rounding).axes[0]
        return AxisRule(label, (head, tail), g.output_size, None,
                        f"{label}: pads ({head}, {tail}) from the undilated kernel, the count "
                        f"of the cropped input {size + head + tail}: O = {g.output_size}"
                        + extra), True
    return _axis(size, k, s, d, head, tail, rounding, label, extra), False


def _pool_rule(runtime: str, op: str, a: _Attrs, spatial: tuple[int, ...], has_indices: bool,
               indices_used: bool) -> _Rules:
    """Per-axis rules of MaxPool / AveragePool / LpPool under ``runtime``."""
    notes: list[str] = []
    if runtime == "onnx":
        return _pool_axes_spec(a, spatial)
    if runtime == "onnxruntime":
        if a.auto_pad == "NOTSET":
            for axis, (k, (pb, pe)) in enumerate(zip(a.kernel, a.pads, strict=False)):
                if pb >= k or pe >= k:
                    raise _Refused(
                        f"onnxruntime refuses pads {list(a.pads[axis])} >= kernel {k} on axis "
                        f"{axis}: 'Pad should be smaller than kernel' (the spec allows any pad)")
            return _pool_axes_spec(a, spatial)
        rounding: Rounding = "ceil_torch" if a.ceil else "floor"
        axes = []
        if a.auto_pad == "VALID":
            reading = "VALID: no padding" + (", ceil_mode=1 rounded up with the clip"
                                             if a.ceil else "")
            if a.ceil:
                notes.append("VALID with ceil_mode=1: onnxruntime rounds up (with the ceil "
                             "clip), where the spec's VALID formula is the floor size")
            for size, k, s, d in zip(spatial, a.kernel, a.strides, a.dilations, strict=False):
                axes.append(_axis(size, k, s, d, 0, 0, rounding, rounding))
            return axes, notes, reading
        reading = f"{a.auto_pad} with the total pad from the undilated kernel"
        if a.dilated:
            notes.append("SAME padding from the undilated kernel: onnxruntime's total pad "
                         "(ceil(I/S) - 1) * S + K - I uses K, not the dilated DK")
        if a.ceil:
            reading += ", ceil_mode=1 rounded up (with the clip)"
            notes.append(f"{a.auto_pad} with ceil_mode=1: onnxruntime rounds up (with the "
                         f"clip) where the spec gives ceil(I / S)")
        negative = False
        for size, k, s, d in zip(spatial, a.kernel, a.strides, a.dilations, strict=False):
            ax, neg = _ort_same(a, size, k, s, d, rounding, a.auto_pad)
            axes.append(ax)
            negative |= neg
        # the float kernels without dilation (MLAS) check the pads; the Y + Indices and the
        # dilated kernels shift the windows instead
        head_negative = any(ax.pads[0] is not None and ax.pads[0] < 0 for ax in axes)
        mlas = not a.dilated and (op == "MaxPool" and not has_indices and negative
                                  or op == "AveragePool" and head_negative)
        if mlas:
            raise _Refused(
                f"onnxruntime computes a negative {a.auto_pad} pad from a kernel shorter than "
                f"the stride ({', '.join(str(ax.pads) for ax in axes)}): 'padding values must "
                f"be non-negative'")
        if negative:
            notes.append(f"{a.auto_pad} with a kernel shorter than the stride: onnxruntime "
                         f"does not clamp the negative total pad at 0")
        return axes, notes, reading
    if runtime == "openvino":
        axes = []
        if op == "MaxPool":
            rounding = "ceil" if a.ceil else "floor"
            raw_note = ("ceil_mode=1 read as rounding_type=ceil (raw ceil, no clip): OpenVINO's "
                        "ONNX frontend maps MaxPool's ceil_mode to ceil, not ceil_torch")
        else:
            rounding = "ceil_torch" if a.ceil else "floor"
            raw_note = ""
        label = {"ceil": "raw ceil"}.get(rounding, rounding)
        if op == "AveragePool" and not a.count_include_pad and a.auto_pad == "NOTSET":
            for axis, (k, d, (pb, pe)) in enumerate(zip(a.kernel, a.dilations, a.pads,
                                                        strict=False)):
                dk = (k - 1) * d + 1
                if pb >= dk or pe >= dk:
                    raise _Refused(
                        f"OpenVINO refuses an AveragePool excluding padding whose pads "
                        f"{[pb, pe]} reach the dilated kernel {dk} on axis {axis}: 'Kernel after "
                        f"dilation is sometimes entirely in the padding area'")
        if a.ceil and raw_note:
            notes.append(raw_note)
        if a.auto_pad == "NOTSET":
            pads = a.pads
            reading = f"explicit pads, rule {label!r}"
        elif a.auto_pad == "VALID":
            pads = ((0, 0),) * a.ndim
            reading = f"valid, rule {label!r}"
            if a.ceil:
                notes.append("VALID with ceil_mode=1: OpenVINO rounds up as its Example 6 shows, "
                             "where the ONNX spec's VALID formula is the floor size")
        else:
            pads = tuple(same_padding(i, k, s, d, upper=a.auto_pad == "SAME_UPPER")
                         for i, k, s, d in zip(spatial, a.kernel, a.strides, a.dilations,
                                               strict=False))
            reading = f"{a.auto_pad.lower()} from the dilated kernel, rule {label!r}"
        for axis, (size, k, s, d, (pb, pe)) in enumerate(zip(spatial, a.kernel, a.strides,
                                                               a.dilations, pads, strict=False)):
            dk = (k - 1) * d + 1
            if dk > size + pb + pe:
                raise _Refused(
                    f"OpenVINO refuses it: 'Kernel after dilation has size {dk} larger than the "
                    f"data shape after padding {size + pb + pe}' on axis {axis}")
            axes.append(_axis(size, k, s, d, pb, pe, rounding, label))
        return axes, notes, reading
    if runtime == "tensorrt":
        if a.dilated:
            raise _Refused("TensorRT's IPoolingLayer has no dilation (onnx-tensorrt refuses a "
                           "dilated pooling)")
        if op == "MaxPool" and indices_used:
            raise _Refused("TensorRT's IPoolingLayer has no index output (the node's Indices "
                           "are used)")
        if a.auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            mode = "k" + a.auto_pad
            pre = post = (0,) * a.ndim
        else:
            mode = "kEXPLICIT_ROUND_UP" if a.ceil else "kEXPLICIT_ROUND_DOWN"
            pre = tuple(p[0] for p in a.pads)
            post = tuple(p[1] for p in a.pads)
        if a.ceil and a.auto_pad not in ("SAME_UPPER", "SAME_LOWER"):
            notes.append("ceil_mode=1 mapped to kEXPLICIT_ROUND_UP (raw ceil, no clip) by "
                         "onnx-tensorrt")
            if a.auto_pad == "VALID":
                notes.append("VALID with ceil_mode=1: rounded up, where the spec's VALID "
                             "formula is the floor size")
        try:
            g = _trt_geometry(tuple(spatial), a.kernel, a.strides, pre, post,
                              (1,) * a.ndim, mode, "pooling")
        except PoolTutorError as exc:
            raise _Refused(f"TensorRT ({mode}) refuses it: {exc}") from None
        axes = []
        for ax in g.geometry.axes:
            axes.append(AxisRule(mode, (ax.pad_begin, ax.pad_end), ax.output_size, ax))
        return axes, notes, f"padding mode {mode}"
    # pytorch
    name = {"MaxPool": "MaxPool", "AveragePool": "AvgPool", "LpPool": "LPPool"}[op]
    module = f"torch.nn.{name}{a.ndim}d"
    if a.auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        raise _Refused(f"{module} has no SAME padding (pad with F.pad first)")
    pads = ((0, 0),) * a.ndim if a.auto_pad == "VALID" else a.pads
    if op == "LpPool" and any(p for pair in pads for p in pair):
        raise _Refused(f"{module} has no padding")
    if op != "MaxPool" and a.dilated:
        raise _Refused(f"{module} has no dilation")
    if op == "MaxPool" and a.storage_order == 1 and indices_used:
        raise _Refused(f"{module} has no column-major indices (storage_order=1)")
    for axis, ((pb, pe), k) in enumerate(zip(pads, a.kernel, strict=False)):
        if pb != pe:
            raise _Refused(f"{module} pads symmetrically; pads {[pb, pe]} on axis {axis} are "
                           f"asymmetric")
        if pb > k // 2:
            raise _Refused(f"{module}: 'pad should be at most half of kernel size', but pad "
                           f"{pb} > kernel {k} // 2 on axis {axis}")
    rounding = "ceil_torch" if a.ceil else "floor"
    axes = []
    for size, k, s, d, (pb, pe) in zip(spatial, a.kernel, a.strides, a.dilations, pads,
                                       strict=False):
        axes.append(_axis(size, k, s, d, pb, pe, rounding, rounding))
    return axes, notes, f"{module}(padding={[p[0] for p in pads]}, ceil_mode={a.ceil})"


def _conv_rule(runtime: str, a: _Attrs, spatial: tuple[int, ...]) -> _Rules:
    """Per-axis rules of Conv under ``runtime``."""
    notes: list[str] = []
    if runtime == "tensorrt":
        if a.auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            mode, pre, post = "k" + a.auto_pad, (0,) * a.ndim, (0,) * a.ndim
        else:
            mode = "kEXPLICIT_ROUND_DOWN"
            pre = tuple(p[0] for p in a.pads)
            post = tuple(p[1] for p in a.pads)
        try:
            g = _trt_geometry(tuple(spatial), a.kernel, a.strides, pre, post, a.dilations,
                              mode, "convolution")
        except PoolTutorError as exc:
            raise _Refused(f"TensorRT ({mode}) refuses it: {exc}") from None
        axes = [AxisRule(mode, (ax.pad_begin, ax.pad_end), ax.output_size, ax)
                for ax in g.geometry.axes]
        return axes, notes, f"padding mode {mode}"
    if runtime == "pytorch":
        module = f"torch.nn.Conv{a.ndim}d"
        if a.auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            if any(s != 1 for s in a.strides):
                raise _Refused(f"{module}(padding='same') is not supported for strided "
                               f"convolutions")
            axes = []
            for size, k, d in zip(spatial, a.kernel, a.dilations, strict=False):
                total = d * (k - 1)
                pb = total // 2
                if a.auto_pad == "SAME_LOWER" and total % 2:
                    raise _Refused(f"{module}(padding='same') puts the odd extra pad at the "
                                   f"end; SAME_LOWER puts it at the beginning")
                axes.append(_axis(size, k, 1, d, pb, total - pb, "floor", "same"))
            return axes, notes, f"{module}(padding='same')"
        pads = ((0, 0),) * a.ndim if a.auto_pad == "VALID" else a.pads
        for axis, (pb, pe) in enumerate(pads):
            if pb != pe:
                raise _Refused(f"{module} pads symmetrically; pads {[pb, pe]} on axis {axis} "
                               f"are asymmetric")
        axes = [_axis(size, k, s, d, pb, pe, "floor", "floor")
                for size, k, s, d, (pb, pe) in zip(spatial, a.kernel, a.strides, a.dilations,
                                                   pads, strict=False)]
        return axes, notes, f"{module}(padding={[p[0] for p in pads]})"
    if a.auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        if runtime == "onnxruntime" and a.dilated:
            raise _Refused("onnxruntime: 'Dilation not supported for AutoPadType::SAME_UPPER or "
                           "AutoPadType::SAME_LOWER'")
        axes = []
        for size, k, s, d in zip(spatial, a.kernel, a.strides, a.dilations, strict=False):
            pb, pe = same_padding(size, k, s, d, upper=a.auto_pad == "SAME_UPPER")
            axes.append(_axis(size, k, s, d, pb, pe, "floor", a.auto_pad))
        return axes, notes, f"{a.auto_pad}: O = ceil(I / S), pads from the dilated kernel"
    pads = ((0, 0),) * a.ndim if a.auto_pad == "VALID" else a.pads
    axes = [_axis(size, k, s, d, pb, pe, "floor", "floor")
            for size, k, s, d, (pb, pe) in zip(spatial, a.kernel, a.strides, a.dilations, pads,
                                               strict=False)]
    return axes, notes, ("VALID, floor" if a.auto_pad == "VALID" else "explicit pads, floor")


def _deconv_axes(spatial: tuple[int, ...], kernel: tuple[int, ...], strides: tuple[int, ...],
                 dilations: tuple[int, ...], pads: Any, mode: str = "kEXPLICIT_ROUND_DOWN",
                 output_padding: tuple[int, ...] | None = None, label: str = "explicit"
                 ) -> list[AxisRule]:
    """Transposed lengths from tensorrt's deconvolution rule ``(I-1)*S + DK - (B+A)``;
    ``output_padding`` is added to the end: it cancels end padding first (the same sum)."""
    n = len(spatial)
    op = tuple(output_padding or (0,) * n)
    pre = tuple(p[0] for p in pads)
    post = tuple(max(p[1] - o, 0) for p, o in zip(pads, op, strict=False))
    rest = tuple(max(o - p[1], 0) for p, o in zip(pads, op, strict=False))
    try:
        g = _trt_geometry(tuple(spatial), tuple(kernel), tuple(strides), pre, post,
                          tuple(dilations), mode, "deconvolution")
    except PoolTutorError as exc:
        raise _Refused(str(exc)) from None
    axes = []
    for i, (size, k, s, d, o) in enumerate(zip(spatial, kernel, strides, dilations, op,
                                               strict=False)):
        dk = (k - 1) * d + 1
        out = g.output_size[i] + rest[i]
        text = (f"{label}: O = (I - 1) * S + DK - (B + A)"
                + (" + output_padding" if o else "")
                + f" = ({size} - 1) * {s} + {dk} - ({pads[i][0]} + {pads[i][1]})"
                + (f" + {o}" if o else "") + f" = {out}")
        axes.append(AxisRule(label, tuple(pads[i]), out, None, text))
    return axes


def _conv_transpose_rule(runtime: str, a: _Attrs, spatial: tuple[int, ...]) -> _Rules:
    notes: list[str] = []
    n = a.ndim
    if a.output_shape is not None:
        if runtime == "pytorch":
            raise _Refused(f"torch.nn.ConvTranspose{n}d has no output_shape attribute (only "
                           f"forward(output_size=...))")
        if runtime == "onnxruntime":
            for axis, (o, size, k, st, d, op_) in enumerate(zip(
                    a.output_shape, spatial, a.kernel, a.strides, a.dilations,
                    a.output_padding, strict=False)):
                full = (size - 1) * st + (k - 1) * d + 1 + op_
                if o > full:
                    raise _Refused(f"onnxruntime: 'Explicit output_shape is inconsistent with "
                                   f"input spatial dimensions' (output_shape {o} > the full "
                                   f"output {full} on axis {axis}: negative total padding)")
        axes = [AxisRule("output_shape", (0, 0), o, None, f"output_shape given: O = {o}")
                for o in a.output_shape]
        return axes, notes, "output_shape given (pads derived from it)"
    if a.auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        if runtime == "pytorch":
            raise _Refused(f"torch.nn.ConvTranspose{n}d has no SAME padding")
        full = _deconv_axes(spatial, a.kernel, a.strides, a.dilations, ((0, 0),) * n,
                            output_padding=a.output_padding, label=a.auto_pad)
        axes = []
        for size, s, ax in zip(spatial, a.strides, full, strict=False):
            target = size * s
            if runtime == "onnx":
                o = target
                text = f"{a.auto_pad}: O = I * S = {size} * {s} = {o} (the spec's output_shape)"
                if ax.output_size < target:
                    notes.append(f"{a.auto_pad}: the spec's I * S = {target} needs a negative "
                                 f"total padding {ax.output_size - target} (kernel shorter than "
                                 f"the stride)")
            else:
                # the total padding (I - 1) * S + op + DK - I * S clamps at 0 (ORT, OpenVINO,
                # TensorRT's SAME deconvolution)
                o = min(target, ax.output_size)
                text = (f"{a.auto_pad}: O = I * S = {target} when the full output "
                        f"{ax.output_size} is at least that (total padding clamped at 0): "
                        f"O = {o}")
                if ax.output_size < target:
                    notes.append(f"{a.auto_pad}: total padding clamped at 0, so O = "
                                 f"{ax.output_size} instead of the spec's I * S = {target}")
            axes.append(AxisRule(a.auto_pad, (0, 0), o, None, text))
        return axes, notes, f"{a.auto_pad}"
    pads = ((0, 0),) * n if a.auto_pad == "VALID" else a.pads
    if runtime == "onnxruntime":
        for axis, (o, s) in enumerate(zip(a.output_padding, a.strides, strict=False)):
            if o >= s:
                raise _Refused(f"onnxruntime: 'output_padding ({o}) may be too large for stride "
                               f"({s})' on axis {axis}")
    if runtime == "pytorch":
        module = f"torch.nn.ConvTranspose{n}d"
        for axis, (pb, pe) in enumerate(pads):
            if pb != pe:
                raise _Refused(f"{module} pads symmetrically; pads {[pb, pe]} on axis {axis} "
                               f"are asymmetric")
        for axis, (o, s, d) in enumerate(zip(a.output_padding, a.strides, a.dilations,
                                             strict=False)):
            if o >= max(s, d):
                raise _Refused(f"{module}: 'output padding must be smaller than either stride "
                               f"or dilation', but output_padding {o} on axis {axis}")
    axes = _deconv_axes(spatial, a.kernel, a.strides, a.dilations, pads,
                        output_padding=a.output_padding)
    return axes, notes, "explicit pads" if a.auto_pad == "NOTSET" else "VALID"


# --------------------------------------------------------------------------- the walk


class _Missing:
    """A tensor a runtime does not have (the node that makes it was refused, or unknown)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


class _State:
    """One runtime's view of the graph: tensor name -> shape (tuple, None unknown, _Missing)."""

    def __init__(self) -> None:
        self.shapes: dict[str, Any] = {}
        self.values: dict[str, np.ndarray] = {}


def _static_shape(type_proto: Any) -> tuple[int, ...] | None:
    t = type_proto.tensor_type
    if not type_proto.HasField("tensor_type") or not t.HasField("shape"):
        return None
    dims = []
    for d in t.shape.dim:
        if d.HasField("dim_value") and d.dim_value >= 0:
            dims.append(int(d.dim_value))
        else:
            return None
    return tuple(dims)


def _node_label(node: Any, index: int) -> str:
    return node.name if node.name else f"{node.op_type}#{index}"


def audit(model: Any, input_shapes: Mapping[str, Any] | None = None) -> AuditReport:
    """Audit every window-rule node of an ONNX model under each runtime's rule.

    Parameters
    ----------
    model : str, os.PathLike, bytes or onnx.ModelProto
        The model (a path, the file's bytes, or the proto; never modified).
    input_shapes : dict, optional
        Input name -> tuple of ints, overriding the model's input shapes;
        required for an input with a symbolic dimension.

    Returns
    -------
    AuditReport

    Raises
    ------
    ValueError
        For a file that is not ONNX or is truncated, a symbolic input
        dimension without ``input_shapes``, an unknown input name, a shape
        that is not a tuple of ints >= 1, or a node whose attributes its opset
        does not allow.
    """
    onnx = _onnx()
    proto, label = _load(model)
    _check(proto, label)
    graph = proto.graph
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None:
        raise PoolTutorError(f"model={label!r} imports no version of the default ONNX opset")
    initializers = {t.name: t for t in graph.initializer}
    real_inputs = [i for i in graph.input if i.name not in initializers]
    given = dict(input_shapes or {})
    if not isinstance(input_shapes, (Mapping, type(None))):
        raise TypeError(f"input_shapes={input_shapes!r} has type {type(input_shapes).__name__}: "
                        f"need a dict input name -> tuple of ints")
    names = [i.name for i in real_inputs]
    for name, shape in given.items():
        if name not in names:
            raise PoolTutorError(
                f"input_shapes names {name!r}, which is not an input of the model (inputs: "
                + ", ".join(map(repr, names)) + ")")
        if (not isinstance(shape, (tuple, list)) or not shape
                or not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                           and d >= 1 for d in shape)):
            raise PoolTutorError(
                f"input_shapes[{name!r}]={shape!r} is not allowed: need a tuple of ints >= 1")

    # element types from one whole-model inference (they do not depend on the runtime)
    try:
        inferred = onnx.shape_inference.infer_shapes(proto, strict_mode=False)
    except Exception:  # noqa: BLE001 - types are a convenience; fall back to the declared ones
        inferred = proto
    elem_types: dict[str, int] = {}
    declared: dict[str, tuple[int, ...] | None] = {}
    for vi in (*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output):
        if vi.type.HasField("tensor_type"):
            elem_types.setdefault(vi.name, vi.type.tensor_type.elem_type)
            declared.setdefault(vi.name, _static_shape(vi.type))
    for t in graph.initializer:
        elem_types[t.name] = t.data_type

    start = _State()
    for inp in real_inputs:
        if inp.name in given:
            shape = tuple(int(d) for d in given[inp.name])
            rank = len(inp.type.tensor_type.shape.dim) if inp.type.tensor_type.HasField(
                "shape") else None
            if rank is not None and rank != len(shape):
                raise PoolTutorError(
                    f"input_shapes[{inp.name!r}]={shape!r} has {len(shape)} dimensions: the "
                    f"model's input {inp.name!r} has {rank}")
        else:
            shape = _static_shape(inp.type)
            if shape is None:
                dims = [d.dim_param or "?" if not d.HasField("dim_value") else str(d.dim_value)
                        for d in inp.type.tensor_type.shape.dim]
                raise PoolTutorError(
                    f"input {inp.name!r} of model={label!r} has the symbolic shape "
                    f"[{', '.join(dims)}]: give its shape (input_shapes={{{inp.name!r}: "
                    f"(...)}}, or --input-shape {inp.name}=D1,D2,...)")
        start.shapes[inp.name] = shape
    from onnx import numpy_helper

    for name, t in initializers.items():
        start.shapes[name] = tuple(int(d) for d in t.dims)
        n_el = int(np.prod(t.dims)) if t.dims else 1
        if n_el <= _MAX_VALUE_ELEMENTS and t.data_type in (6, 7):   # int32, int64
            start.values[name] = numpy_helper.to_array(t)

    walker = _Walker(proto, opset, elem_types, declared, label)
    states = {r: _State() for r in RUNTIMES}
    for r in RUNTIMES:
        states[r].shapes.update(start.shapes)
        states[r].values.update(start.values)
    consumers: dict[str, int] = {}
    for node in graph.node:
        for i in node.input:
            consumers[i] = consumers.get(i, 0) + 1
    graph_outputs = {o.name for o in graph.output}
    nodes: list[NodeAudit] = []
    unknown: list[tuple[str, str, str]] = []
    for index, node in enumerate(graph.node):
        node_name = _node_label(node, index)
        if node.domain in ("", "ai.onnx") and node.op_type in AUDITED_OPS:
            nodes.append(walker.audit_node(node, index, node_name, states, consumers,
                                           graph_outputs, nodes))
        else:
            if walker.propagate(node, node_name, states):
                unknown.append((node_name, node.op_type, node.domain or "ai.onnx"))
    outputs = {}
    for r in RUNTIMES:
        outs: dict[str, tuple[int, ...] | str] = {}
        for o in graph.output:
            v = states[r].shapes.get(o.name)
            if isinstance(v, _Missing):
                outs[o.name] = v.reason
            elif v is None:
                outs[o.name] = "unknown (after an op no shape rule knows)"
            else:
                outs[o.name] = v
        outputs[r] = outs
    return AuditReport(label, int(opset), nodes, outputs, unknown)


class _Walker:
    def __init__(self, proto: Any, opset: int, elem_types: dict[str, int],
                 declared: dict[str, Any], label: str) -> None:
        self.proto = proto
        self.opset = opset
        self.elem_types = elem_types
        self.declared = declared
        self.label = label
        self.cache: dict[Any, Any] = {}
        self.producer: dict[str, Any] = {}
        for node in proto.graph.node:
            for o in node.output:
                self.producer[o] = node

    # ---------------------------------------------------------------- other ops

    def propagate(self, node: Any, node_name: str, states: dict[str, _State]) -> bool:
        """Shapes of a non-audited node per runtime; True if no shape rule knows the op."""
        onnx = _onnx()
        domain = node.domain or ""
        known = True
        if domain in ("", "ai.onnx"):
            try:
                onnx.defs.get_schema(node.op_type, self.opset, "")
            except Exception:  # noqa: BLE001 - SchemaError
                known = False
        else:
            known = onnx.defs.has(node.op_type, domain)
        for r in RUNTIMES:
            st = states[r]
            missing = next((st.shapes[i] for i in node.input
                            if i and isinstance(st.shapes.get(i), _Missing)), None)
            if missing is not None:
                for o in node.output:
                    st.shapes[o] = missing
                continue
            if not known:
                for o in node.output:
                    st.shapes[o] = self.declared.get(o)
                continue
            key = (id(node), tuple((i, st.shapes.get(i), _value_key(st.values.get(i)))
                                   for i in node.input))
            if key not in self.cache:
                self.cache[key] = self._infer(node, node_name, st)
            shapes, values = self.cache[key]
            for o in node.output:
                if o:
                    st.shapes[o] = shapes.get(o)
                    if o in values:
                        st.values[o] = values[o]
                    else:
                        st.values.pop(o, None)
        return not known

    def _infer(self, node: Any, node_name: str, st: _State
               ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        onnx = _onnx()
        from onnx import helper, numpy_helper

        if any(i and st.shapes.get(i) is None for i in node.input):
            return {o: None for o in node.output}, {}
        values: dict[str, Any] = {}         # arrays (None: a placeholder while folding)
        # fold small integer constants so that shape subgraphs follow the runtime's shapes
        if node.op_type == "Shape" and node.domain in ("", "ai.onnx"):
            shape = np.array(st.shapes[node.input[0]], dtype=np.int64)
            attrs = _attributes(node)
            r = len(shape)
            s = attrs.get("start", 0)
            e = attrs.get("end", r)
            values[node.output[0]] = shape[slice(s, e)]
        elif node.op_type == "Size" and node.domain in ("", "ai.onnx"):
            values[node.output[0]] = np.array(int(np.prod(st.shapes[node.input[0]])), np.int64)
        elif (node.domain in ("", "ai.onnx") and node.op_type in _FOLD
              and all((not i) or i in st.values for i in node.input)
              and (folded := _fold(node, [st.values[i] for i in node.input if i])) is not None):
            values[node.output[0]] = folded
        elif all((not i) or i in st.values for i in node.input) and (
                node.domain in ("", "ai.onnx")) and not any(
                a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
                for a in node.attribute):
            try:
                from onnx.reference import ReferenceEvaluator

                feeds = {i: st.values[i] for i in node.input if i}
                g = helper.make_graph(
                    [node], "fold",
                    [helper.make_tensor_value_info(i, self.elem_types.get(i, 7), v.shape)
                     for i, v in feeds.items()],
                    [helper.make_tensor_value_info(o, 0, None) for o in node.output if o])
                m = helper.make_model(g, opset_imports=self.proto.opset_import)
                outs = ReferenceEvaluator(m).run(None, feeds)
                for o, v in zip([o for o in node.output if o], outs, strict=False):
                    v = np.asarray(v)
                    if v.dtype.kind in "iu" and v.size <= _MAX_VALUE_ELEMENTS:
                        values[o] = v
                    elif v.dtype.kind in "iu" or v.size <= _MAX_VALUE_ELEMENTS:
                        values.setdefault(o, None)
                shapes: dict[str, Any] = {o: tuple(int(d) for d in np.asarray(v).shape)
                          for o, v in zip([o for o in node.output if o], outs, strict=False)}
                return shapes, {k: v for k, v in values.items() if v is not None}
            except Exception:  # noqa: BLE001 - fall back to shape inference
                values = {}
        outs = [o for o in node.output if o]
        if outs and all(o in values for o in outs):
            return {o: tuple(int(d) for d in values[o].shape) for o in outs}, values
        inputs, inits = [], []
        for i in node.input:
            if not i:
                continue
            shape = st.shapes[i]
            if i in st.values:
                inits.append(numpy_helper.from_array(st.values[i], i))
            inputs.append(helper.make_tensor_value_info(i, self.elem_types.get(i, 1), shape))
        g = helper.make_graph([node], "one", inputs,
                              [helper.make_tensor_value_info(o, 0, None)
                               for o in node.output if o], initializer=inits)
        m = helper.make_model(g, opset_imports=self.proto.opset_import,
                              ir_version=self.proto.ir_version)
        for f in self.proto.functions:
            m.functions.append(f)
        try:
            done = onnx.shape_inference.infer_shapes(m, strict_mode=True, data_prop=True)
        except Exception as exc:  # noqa: BLE001 - InferenceError and friends
            first = " ".join(str(exc).split())[:300]
            reason = f"ONNX shape inference fails at node {node_name!r} ({node.op_type}): {first}"
            return {o: _Missing(reason) for o in node.output}, {}
        shapes = {}
        for vi in done.graph.output:
            shapes[vi.name] = _static_shape(vi.type)
        for o in node.output:
            if o and o not in shapes:
                shapes[o] = None
            if o in values:
                shapes[o] = tuple(int(d) for d in values[o].shape)
        return shapes, values

    # ---------------------------------------------------------------- audited ops

    def audit_node(self, node: Any, index: int, node_name: str, states: dict[str, _State],
                   consumers: Any, graph_outputs: Any, done: Any) -> NodeAudit:
        onnx = _onnx()
        attrs = _attributes(node)
        op = node.op_type
        schema = onnx.defs.get_schema(op, self.opset, "")
        for k in attrs:
            if k not in schema.attributes:
                raise PoolTutorError(
                    f"node {node_name!r} ({op}) has the attribute {k!r}, which {op}-"
                    f"{schema.since_version} (opset {self.opset}) does not allow (allowed: "
                    + ", ".join(sorted(schema.attributes)) + ")")
        has_indices = op == "MaxPool" and len(node.output) > 1 and bool(node.output[1])
        indices_used = has_indices and (consumers.get(node.output[1], 0) > 0
                                        or node.output[1] in graph_outputs)
        results: dict[str, RuntimeShape] = {}
        checked = None
        for r in RUNTIMES:
            st = states[r]
            x = node.input[0]
            xs = st.shapes.get(x)
            if isinstance(xs, _Missing) or xs is None:
                reason = (xs.reason if isinstance(xs, _Missing)
                          else f"the input {x!r} has no known shape (after an op no shape rule "
                               f"knows)")
                res = RuntimeShape(r, None, error=reason, upstream=True)
            else:
                if len(xs) < 3 and op not in _GLOBALS:
                    raise PoolTutorError(
                        f"node {node_name!r} ({op}) has the input shape {xs}: need (N, C, "
                        f"spatial...) with 1 to 3 spatial axes")
                try:
                    res, checked = self._one(r, node, node_name, op, attrs, xs, st,
                                             has_indices, indices_used, checked)
                except _Refused as exc:
                    res = RuntimeShape(r, xs, error=str(exc))
            results[r] = res
            for o in node.output:
                if not o:
                    continue
                if res.error is not None:
                    st.shapes[o] = _Missing(res.error if res.upstream else
                                            f"{r} refuses node {node_name!r} ({op}): {res.error}")
                else:
                    st.shapes[o] = res.shape
                st.values.pop(o, None)
        audit_ = NodeAudit(node_name, op, index, attrs, results)
        self._layout(node, node_name, audit_, states)
        _judge(audit_)
        return audit_

    def _one(self, r: str, node: Any, node_name: str, op: str, attrs: dict[str, Any],
             xs: tuple[int, ...], st: _State, has_indices: bool, indices_used: bool,
             checked: Any) -> tuple[RuntimeShape, Any]:
        spatial = tuple(xs[2:])
        if op in _GLOBALS:
            if len(xs) < 3:
                raise PoolTutorError(f"node {node_name!r} ({op}) has the input shape {xs}: "
                                     f"need (N, C, spatial...)")
            shape = tuple(xs[:2]) + (1,) * len(spatial)
            return RuntimeShape(r, xs, shape, reading="one window over the whole plane"), checked
        if not 1 <= len(spatial) <= 3:
            raise _Refused(f"{len(spatial)} spatial axes: the audit reads 1 to 3")
        channels = xs[1]
        kernel_from_weight = None
        if op in ("Conv", "ConvTranspose"):
            ws: Any = st.shapes.get(node.input[1]) if len(node.input) > 1 else None
            if isinstance(ws, _Missing):
                raise _Refused(ws.reason)
            if ws is None or len(ws) != len(xs):
                raise _Refused(f"the weight {node.input[1]!r} has no known shape of rank "
                               f"{len(xs)}")
            kernel_from_weight = tuple(ws[2:])
        key = (len(spatial), kernel_from_weight)
        if checked is None:
            checked = {}
        if key not in checked:
            checked[key] = _Attrs(repr(node_name), op, attrs, len(spatial), kernel_from_weight)
        a = checked[key]
        notes: list[str] = []
        try:
            if op in _POOLS:
                axes, notes, reading = _pool_rule(r, op, a, spatial, has_indices, indices_used)
            elif op == "Conv":
                if ws[1] * a.group != channels:
                    raise PoolTutorError(
                        f"node {node_name!r} (Conv): input channels {channels} != weight "
                        f"channels {ws[1]} * group {a.group}")
                channels = ws[0]
                axes, notes, reading = _conv_rule(r, a, spatial)
            elif op == "ConvTranspose":
                if ws[0] != channels:
                    raise PoolTutorError(
                        f"node {node_name!r} (ConvTranspose): input channels {channels} != "
                        f"weight's first dimension {ws[0]}")
                channels = ws[1] * a.group
                axes, notes, reading = _conv_transpose_rule(r, a, spatial)
            else:   # MaxUnpool
                axes, notes, reading = self._unpool_rule(r, node, a, spatial, st)
        except PoolTutorError as exc:
            if "node " in str(exc) and str(exc).startswith("node "):
                raise
            raise _Refused(f"the window does not fit: {_geometry_refusal(exc)}") from None
        shape = (xs[0], channels) + tuple(ax.output_size for ax in axes)
        if op == "MaxUnpool" and axes and axes[0].rule == "output_shape (full)":
            shape = tuple(ax.output_size for ax in axes)
        if any(d < 1 for d in shape) and not (r == "onnxruntime" and min(shape) == 0):
            raise _Refused(f"the output shape {shape} has an empty axis")
        return RuntimeShape(r, xs, shape, notes=tuple(notes), axes=tuple(axes),
                            reading=reading), checked

    def _unpool_rule(self, r: str, node: Any, a: _Attrs, spatial: tuple[int, ...], st: _State
                     ) -> _Rules:
        if r == "openvino":
            raise _Refused("OpenVINO's ONNX frontend has no conversion rule for MaxUnpool")
        if r == "tensorrt":
            raise _Refused("onnx-tensorrt does not import MaxUnpool")
        if a.dilated:
            raise _Refused("MaxUnpool has no dilations")
        if r == "pytorch":
            module = f"torch.nn.MaxUnpool{a.ndim}d"
            for axis, (pb, pe) in enumerate(a.pads):
                if pb != pe:
                    raise _Refused(f"{module} pads symmetrically; pads {[pb, pe]} on axis "
                                   f"{axis} are asymmetric")
        if len(node.input) > 2 and node.input[2]:
            v = st.values.get(node.input[2])
            if v is None:
                raise _Refused(f"the output_shape input {node.input[2]!r} is not a constant")
            full = tuple(int(d) for d in np.asarray(v).reshape(-1))
            return ([AxisRule("output_shape (full)", (0, 0), d, None, f"output_shape {full}")
                     for d in full], [], "output_shape given")
        axes = _deconv_axes(spatial, a.kernel, a.strides, (1,) * a.ndim, a.pads,
                            label="unpool")
        return axes, [], "O = (I - 1) * S + K - (pad_begin + pad_end)"

    def _layout(self, node: Any, node_name: str, audit_: NodeAudit,
                states: dict[str, _State]) -> None:
        """MaxUnpool reads row-major whole-tensor indices: say where the producer wrote others."""
        if node.op_type != "MaxUnpool" or len(node.input) < 2:
            return
        prod = self.producer.get(node.input[1])
        if prod is None or prod.op_type != "MaxPool" or list(prod.output).index(
                node.input[1]) != 1:
            return
        order = _attributes(prod).get("storage_order", 0)
        if order != 1:
            return
        for r in ("onnx", "onnxruntime"):
            res = audit_.results[r]
            if res.error is None:
                audit_.results[r] = RuntimeShape(
                    res.runtime, res.input_shape, res.shape, res.error,
                    res.notes + (f"index layout: MaxPool {_node_label(prod, 0)!r} writes "
                                 f"storage_order=1 (column-major in the plane) indices, which "
                                 f"{node_name!r} reads as row-major whole-tensor positions: "
                                 f"the values land in the wrong places",),
                    res.axes, res.reading, res.upstream)


_FOLD = ("Constant", "Concat", "Gather", "Unsqueeze", "Squeeze", "Cast", "Identity")


def _fold(node: Any, inputs: Sequence[np.ndarray]) -> np.ndarray | None:
    """numpy folding of the small integer ops of shape subgraphs (None: not handled here)."""
    from onnx import numpy_helper

    attrs = {a.name: a for a in node.attribute}
    op = node.op_type
    try:
        if op == "Constant":
            if "value" not in attrs:
                return None
            v = numpy_helper.to_array(attrs["value"].t)
        elif op == "Concat":
            v = np.concatenate(inputs, axis=attrs["axis"].i)
        elif op == "Gather":
            v = np.take(inputs[0], inputs[1], axis=attrs["axis"].i if "axis" in attrs else 0)
        elif op in ("Unsqueeze", "Squeeze"):
            if len(inputs) < 2:
                return None
            axes = tuple(int(a) for a in inputs[1].reshape(-1))
            if op == "Unsqueeze":
                v = np.expand_dims(inputs[0], axes)
            else:
                v = np.squeeze(inputs[0], axes)
        elif op == "Identity":
            v = inputs[0]
        else:  # Cast
            to = attrs["to"].i
            if to not in (6, 7):
                return None
            v = inputs[0].astype(np.int32 if to == 6 else np.int64)
    except (KeyError, ValueError, IndexError):      # numpy's AxisError is both of the last two
        return None
    v = np.asarray(v)
    if v.dtype.kind not in "iu" or v.size > _MAX_VALUE_ELEMENTS:
        return None
    return v


def _value_key(v: np.ndarray | None) -> tuple[str, tuple[int, ...], bytes] | None:
    if v is None:
        return None
    return (v.dtype.str, v.shape, v.tobytes())


def _judge(n: NodeAudit) -> None:
    """Set ``agree`` and ``why``: the rule each runtime group follows where they differ."""
    res = n.results
    groups: dict[Any, list[str]] = {}
    for r in RUNTIMES:
        groups.setdefault(res[r].value, []).append(r)
    layout = [r for r in RUNTIMES if any(t.startswith("index layout:") for t in res[r].notes)]
    if len(groups) == 1 and not layout:
        n.agree, n.why = True, ""
        return
    n.agree = False
    parts = []
    inputs = {res[r].input_shape for r in RUNTIMES if not res[r].upstream}
    if len(inputs) > 1:
        parts.append("the input shapes already differ (a disagreement upstream): "
                     + ", ".join(f"{r} {_fmt_shape(res[r].input_shape)}" for r in RUNTIMES
                                 if not res[r].upstream))
    spec_value = res["onnx"].value
    for value, rs in groups.items():
        if len(groups) == 1:
            break
        if value == spec_value:
            parts.append(f"{', '.join(rs)}: {_fmt_shape(value)}"
                         + ("" if rs[0] != "onnx" else " (the spec)"))
            continue
        if isinstance(value, str):
            verb = "have no input" if res[rs[0]].upstream else "refuse the node"
            if len(rs) == 1:
                verb = verb.replace("have", "has").replace("refuse ", "refuses ")
            parts.append(f"{', '.join(rs)} {verb}: {value}")
            continue
        reasons: list[str] = []
        for r in rs:
            reasons.extend(t for t in res[r].notes if not t.startswith("index layout:"))
        reasons = list(dict.fromkeys(reasons))
        spec_notes = [t for t in res["onnx"].notes if t not in reasons]
        if not reasons and spec_notes:
            reasons = [f"the spec: {t}" for t in spec_notes]
        if not reasons:
            reasons = [_axis_difference(res["onnx"], res[rs[0]])]
        parts.append(f"{', '.join(rs)}: {_fmt_shape(value)}, " + "; ".join(reasons))
    if layout:
        parts.extend(dict.fromkeys(t for r in layout for t in res[r].notes
                                   if t.startswith("index layout:")))
    n.why = " | ".join(parts)


def _axis_difference(spec: RuntimeShape, other: RuntimeShape) -> str:
    if spec.error is not None or other.error is not None:
        return "a different rule"
    diffs = []
    for i, (a, b) in enumerate(zip(spec.axes, other.axes, strict=False)):
        if a.output_size != b.output_size:
            diffs.append(f"axis {i}: {b.text}")
    return "; ".join(diffs) or "a different rule"


# --------------------------------------------------------------------------- the table


def format_table(report: AuditReport) -> str:
    """The terminal table of ``pooltutor audit`` (see :meth:`AuditReport.table`)."""
    head = ["", "node", "op", "input"] + list(RUNTIMES)
    rows = []
    for n in report.nodes:
        cells = ["!" if not n.agree else " ", n.name, n.op_type, _fmt_shape(n.input_shape)]
        for r in RUNTIMES:
            res = n.results[r]
            if res.error is not None:
                cells.append("refused" if not res.upstream else "-")
            else:
                cells.append(_fmt_shape(res.shape).replace(" ", ""))
        rows.append(cells)
    widths = [max(len(str(c)) for c in col) for col in zip(head, *rows,
                                                           strict=False)] if rows else [
        len(h) for h in head]
    lines = [f"model: {report.model} (opset {report.opset})",
             "runtimes: " + ", ".join(f"{k} {v}" for k, v in report.runtimes.items())]
    lines.append("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=False)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    for cells in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(cells, widths,
                                                               strict=False)).rstrip())
    if not report.nodes:
        lines.append("(no pooling or convolution node)")
    lines.append("")
    first = report.first_divergence
    if first is None:
        lines.append(f"all runtimes agree on all {len(report.nodes)} audited node(s)")
    else:
        lines.append(f"! = the runtimes disagree ({len(report.disagreements)} of "
                     f"{len(report.nodes)} node(s)); '-' = no input (refused upstream)")
        lines.append(f"first divergence: {first.name} ({first.op_type})")
        for n in report.disagreements:
            lines.append(f"  {n.name}: {n.why}")
            for r in RUNTIMES:
                res = n.results[r]
                if res.error is not None and not res.upstream:
                    lines.append(f"    {r} refuses: {res.error}")
    lines.append("")
    lines.append("outputs:")
    for name in (report.outputs[RUNTIMES[0]] if report.outputs else {}):
        vals = {r: report.outputs[r][name] for r in RUNTIMES}
        mark = "!" if len({str(v) for v in vals.values()}) > 1 else " "
        lines.append(f"{mark} {name}: " + ", ".join(
            f"{r} {_fmt_shape(v) if not isinstance(v, str) else 'none (' + v + ')'}"
            for r, v in vals.items()))
    if report.unknown_ops:
        lines.append("")
        lines.append("ops no shape rule knows (passed through with the model's stored shapes):")
        for name, op, domain in report.unknown_ops:
            lines.append(f"  {name}: {op} (domain {domain})")
    return "\n".join(lines)
