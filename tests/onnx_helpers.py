"""Build one-node ONNX pooling models and run them in onnxruntime, with cached sessions.

A model is built once per ``(op, attributes, dtype, rank, outputs)`` and its
``InferenceSession`` kept, so a differential test can run hundreds of inputs
without rebuilding anything.  The input has a dynamic shape of the given
rank, so one session serves every input of that rank.

>>> import numpy as np
>>> y, = run_pool("AveragePool", np.arange(4.0, dtype=np.float32).reshape(1, 1, 4),
...               kernel_shape=[2], strides=[2])
>>> y.tolist()
[[[0.5, 2.5]]]
"""

from __future__ import annotations

import functools

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

__all__ = ["OPSET", "freeze_attrs", "make_pool_model", "session", "run_pool"]

#: The opset of the contract (MaxPool-22 / AveragePool-22).
OPSET = 22


def freeze_attrs(attrs: dict) -> tuple:
    """Attributes as a hashable, order-independent key (lists become tuples)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, (list, tuple)) else v)
                        for k, v in attrs.items() if v is not None))


def make_pool_model(op: str, attrs: dict, dtype, rank: int, with_indices: bool) -> onnx.ModelProto:
    """A checked one-node model ``x -> op -> y [, indices]`` with a dynamic input shape."""
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    shape = [f"d{i}" for i in range(rank)]
    outputs = ["y", "indices"] if with_indices else ["y"]
    node = helper.make_node(op, ["x"], outputs, **{k: v for k, v in attrs.items() if v is not None})
    unknown = [None] * rank
    out_info = [helper.make_tensor_value_info("y", elem, unknown)]
    if with_indices:
        out_info.append(helper.make_tensor_value_info("indices", TensorProto.INT64, unknown))
    graph = helper.make_graph([node], f"{op.lower()}_case",
                              [helper.make_tensor_value_info("x", elem, shape)], out_info)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    onnx.checker.check_model(model)
    return model


@functools.cache
def session(op: str, frozen_attrs: tuple, dtype: str, rank: int,
            with_indices: bool) -> ort.InferenceSession:
    """The cached CPU session for one parameter set (see :func:`freeze_attrs`)."""
    attrs = {k: list(v) if isinstance(v, tuple) else v for k, v in frozen_attrs}
    model = make_pool_model(op, attrs, dtype, rank, with_indices)
    options = ort.SessionOptions()
    options.log_severity_level = 4          # ORT's own error log is noise here
    options.intra_op_num_threads = 1        # a thread pool per session costs ~10x its creation
    options.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


def run_pool(op: str, x: np.ndarray, *, with_indices: bool = False, **attrs) -> list[np.ndarray]:
    """Run ``op`` with ``attrs`` on ``x`` in onnxruntime; returns ``[y]`` or ``[y, indices]``."""
    sess = session(op, freeze_attrs(attrs), np.dtype(x.dtype).name, x.ndim, with_indices)
    return sess.run(None, {"x": x})
