"""Small ONNX models built with ``onnx.helper`` for the model audit: one-node cases, the
GoogLeNet stem and SqueezeNet 1.0 (torchvision's layer attributes, random weights).

Nothing here computes a shape: the models are data for :func:`pooltutor.audit`,
its tests, its benchmark and notebook 06.  Needs the ``onnx`` package.

>>> m = one_node_model("MaxPool", (1, 1, 5), kernel_shape=[2], strides=[2], pads=[1, 1],
...                    ceil_mode=1)
>>> [n.op_type for n in m.graph.node]
['MaxPool']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from onnx import ModelProto

    from .model_audit import AuditReport

__all__ = ["OPSET", "one_node_model", "ModelBuilder", "googlenet_stem", "squeezenet1_0",
           "chain_model", "measured_shapes"]

#: The opset of the audit's cases (MaxPool-22 / AveragePool-22).
OPSET = 22


def _onnx() -> Any:
    """The onnx module (imported on first use; a clear error when it is missing)."""
    from .model_audit import _onnx as load

    return load()


class ModelBuilder:
    """Append nodes to a graph with one input; ``build()`` returns the checked model."""

    def __init__(self, input_shape: Sequence[int], name: str = "model", input_name: str = "x",
                 seed: int = 0) -> None:
        self.onnx = _onnx()
        self.name = name
        self.input_name = input_name
        self.input_shape = list(input_shape)
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.rng = np.random.default_rng(seed)
        self.last = input_name
        self.channels: int | None = input_shape[1] if len(input_shape) > 1 else None
        self._n = 0

    def _name(self, op: str) -> str:
        self._n += 1
        return f"{op.lower()}_{self._n}"

    def node(self, op: str, inputs: Sequence[str] | None = None, n_outputs: int = 1,
             name: str | None = None, **attrs: Any) -> list[str]:
        name = name or self._name(op)
        inputs = [self.last] if inputs is None else list(inputs)
        outputs = [name] + [f"{name}_out{i}" for i in range(1, n_outputs)]
        self.nodes.append(self.onnx.helper.make_node(op, inputs, outputs, name=name, **attrs))
        self.last = outputs[0]
        return outputs

    def weight(self, shape: Sequence[Any], name: str) -> str:
        from onnx import numpy_helper

        w = (self.rng.standard_normal(shape) * 0.1).astype(np.float32)
        self.inits.append(numpy_helper.from_array(w, name))
        return name

    def conv(self, out_channels: int, kernel: int | Sequence[int], *, inputs: str | None = None,
             in_channels: int | None = None, name: str | None = None, relu: bool = True,
             **attrs: Any) -> str:
        src = self.last if inputs is None else inputs
        cin = self.channels if in_channels is None else in_channels
        k = [kernel] * 2 if isinstance(kernel, int) else list(kernel)
        name = name or self._name("Conv")
        w = self.weight([out_channels, cin, *k], name + "_w")
        self.node("Conv", [src, w], name=name, kernel_shape=k, **attrs)
        if relu:
            self.node("Relu", name=name + "_relu")
        self.channels = out_channels
        return self.last

    def build(self, outputs: Sequence[str] | None = None) -> ModelProto:
        helper = self.onnx.helper
        from onnx import TensorProto

        outs = [self.last] if outputs is None else list(outputs)
        graph = helper.make_graph(
            self.nodes, self.name,
            [helper.make_tensor_value_info(self.input_name, TensorProto.FLOAT, self.input_shape)],
            [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs],
            initializer=self.inits)
        model: ModelProto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 10
        return model


def one_node_model(op: str, input_shape: Sequence[int], *,
                   weight_shape: Sequence[int] | None = None, with_indices: bool = False,
                   opset: int = OPSET, **attrs: Any) -> ModelProto:
    """A model ``x -> op -> y`` (``Conv`` / ``ConvTranspose``: with a weight initializer)."""
    onnx = _onnx()
    from onnx import TensorProto, helper, numpy_helper

    inputs, inits = ["x"], []
    if weight_shape is not None:
        inits.append(numpy_helper.from_array(np.ones(weight_shape, np.float32), "w"))
        inputs.append("w")
    outputs = ["y", "indices"] if with_indices else ["y"]
    node = helper.make_node(op, inputs, outputs, **attrs)
    out_info = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    if with_indices:
        out_info.append(helper.make_tensor_value_info("indices", TensorProto.INT64, None))
    graph = helper.make_graph(
        [node], f"{op.lower()}_case",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(input_shape))],
        out_info, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    _ = onnx
    return model


def chain_model(input_shape: Sequence[int], layers: Iterable[tuple[str, Mapping[str, Any]]],
                name: str = "chain") -> ModelProto:
    """A chain of nodes: ``layers`` is a list of ``(op, attrs)``; Conv attrs take
    ``out_channels`` and ``kernel``."""
    b = ModelBuilder(input_shape, name)
    for op, attrs in layers:
        attrs = dict(attrs)
        if op == "Conv":
            b.conv(attrs.pop("out_channels"), attrs.pop("kernel"), relu=False, **attrs)
        else:
            b.node(op, **attrs)
    return b.build()


def googlenet_stem(input_shape: Sequence[int] = (1, 3, 224, 224), *, pool_kernel: int = 3,
                   pool_pads: int | Sequence[int] = 0, name: str = "googlenet_stem") -> ModelProto:
    """torchvision GoogLeNet up to ``maxpool2`` (conv1 7x7/2 p3, maxpool 3/2 ceil, conv2 1x1,
    conv3 3x3 p1, maxpool 3/2 ceil), then global average pooling.

    ``pool_kernel`` / ``pool_pads`` change the two ceil-mode pools (torchvision: 3 and 0);
    kernel 2 with pads 1 is the pool of openvinotoolkit/openvino#18731.
    """
    b = ModelBuilder(input_shape, name)
    p = [pool_pads] * 4 if isinstance(pool_pads, int) else list(pool_pads)
    b.conv(64, 7, strides=[2, 2], pads=[3, 3, 3, 3], name="conv1")
    b.node("MaxPool", name="maxpool1", kernel_shape=[pool_kernel] * 2, strides=[2, 2], pads=p,
           ceil_mode=1)
    b.conv(64, 1, name="conv2")
    b.conv(192, 3, pads=[1, 1, 1, 1], name="conv3")
    b.node("MaxPool", name="maxpool2", kernel_shape=[pool_kernel] * 2, strides=[2, 2], pads=p,
           ceil_mode=1)
    b.node("GlobalAveragePool", name="avgpool")
    b.node("Flatten", name="flatten", axis=1)
    return b.build()


def squeezenet1_0(input_shape: Sequence[int] = (1, 3, 224, 224), *, num_classes: int = 10,
                  name: str = "squeezenet1_0") -> ModelProto:
    """torchvision SqueezeNet 1.0 (conv 7x7/2, three ceil-mode max pools 3/2, eight Fire
    modules, a 1x1 classifier conv and global average pooling), random weights."""
    b = ModelBuilder(input_shape, name)
    b.conv(96, 7, strides=[2, 2], name="features.0")
    b.node("MaxPool", name="features.2", kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)

    def fire(tag: str, squeeze: int, e1: int, e3: int) -> None:
        s = b.conv(squeeze, 1, name=f"{tag}.squeeze")
        a = b.conv(e1, 1, inputs=s, in_channels=squeeze, name=f"{tag}.expand1x1")
        c = b.conv(e3, 3, inputs=s, in_channels=squeeze, pads=[1, 1, 1, 1],
                   name=f"{tag}.expand3x3")
        b.node("Concat", [a, c], name=f"{tag}.cat", axis=1)
        b.channels = e1 + e3

    fire("features.3", 16, 64, 64)
    fire("features.4", 16, 64, 64)
    fire("features.5", 32, 128, 128)
    b.node("MaxPool", name="features.6", kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)
    fire("features.7", 32, 128, 128)
    fire("features.8", 48, 192, 192)
    fire("features.9", 48, 192, 192)
    fire("features.10", 64, 256, 256)
    b.node("MaxPool", name="features.11", kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)
    fire("features.12", 64, 256, 256)
    b.conv(num_classes, 1, name="classifier.1")
    b.node("GlobalAveragePool", name="classifier.3")
    b.node("Flatten", name="flatten", axis=1)
    return b.build()


def measured_shapes(model: ModelProto, report: AuditReport, runtime: str) -> dict[str, Any]:
    """Run ``model`` in ``runtime`` (``"onnxruntime"`` or ``"openvino"``, CPU) with every
    audited node's output exposed; node name -> measured shape, or ``{"error": reason}``
    when the runtime refuses the model or is not installed.  Random input, shapes only."""
    import tempfile
    from pathlib import Path

    onnx = _onnx()
    from onnx import TensorProto, helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    names = {n.name: model.graph.node[n.index].output[0] for n in report.nodes}
    del m.graph.output[:]
    for out in names.values():
        m.graph.output.append(helper.make_tensor_value_info(out, TensorProto.FLOAT, None))
    inits = {t.name for t in model.graph.initializer}
    rng = np.random.default_rng(0)
    feeds = {}
    for i in model.graph.input:
        if i.name not in inits:
            shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
            feeds[i.name] = rng.standard_normal(shape).astype(np.float32)
    try:
        if runtime == "onnxruntime":
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.log_severity_level = 4
            sess = ort.InferenceSession(m.SerializeToString(), opts,
                                        providers=["CPUExecutionProvider"])
            got = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds),
                           strict=False))
            by_tensor = {k: tuple(v.shape) for k, v in got.items()}
        elif runtime == "openvino":
            import openvino as ov

            core = ov.Core()
            with tempfile.TemporaryDirectory() as d:
                path = Path(d) / "m.onnx"
                onnx.save(m, str(path))
                compiled = core.compile_model(core.read_model(str(path)), "CPU")
                res = compiled(feeds)
            by_tensor = {name: tuple(res[port].shape)
                         for port in compiled.outputs for name in port.get_names()}
        else:
            raise ValueError(f"runtime={runtime!r}: need 'onnxruntime' or 'openvino'")
    except ImportError:
        return {n: {"error": f"{runtime} is not installed"} for n in names}
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 - the runtime's refusal is the result
        first = " ".join(str(exc).split())[:200]
        return {n: {"error": first} for n in names}
    return {n: by_tensor[t] for n, t in names.items()}
