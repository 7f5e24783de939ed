"""Run pooling operators in the real runtimes: OpenVINO (CPU plugin) and TensorFlow (CPU).

Shared by the oracle tests of this directory.  A runtime that is not
importable makes its tests skip, unless ``POOLTUTOR_REQUIRE_RUNTIMES=1``
(set by ``.ci/run``), where a missing runtime is a failure.

OpenVINO compiles a model in about 0.1-0.3 s whatever its size, so
:func:`ov_run_batch` puts a whole batch of cases (one parameter and one
pooling node each) into one model and compiles it once.
"""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest

REQUIRE = os.environ.get("POOLTUTOR_REQUIRE_RUNTIMES") == "1"


def require(module: str):
    """Import ``module``; skip if absent, fail instead with POOLTUTOR_REQUIRE_RUNTIMES=1."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if REQUIRE:
            pytest.fail(f"POOLTUTOR_REQUIRE_RUNTIMES=1 but {module} is not importable: {exc}")
        pytest.skip(f"{module} is not importable: {exc}")


# --------------------------------------------------------------------------- OpenVINO

_OV_TYPES = {"float32": "f32", "float16": "f16", "int8": "i8", "uint8": "u8", "int32": "i32",
             "int64": "i64", "float64": "f64"}


def ov_node(kind: str, param, **attrs):
    """One OpenVINO pooling node on ``param``; ``kind`` max / avg / adaptive_max / adaptive_avg."""
    import openvino.opset8 as op8
    import openvino.opset14 as op14

    if kind == "max":
        return op14.max_pool(param, **attrs)
    if kind == "avg":
        return op14.avg_pool(param, **attrs)
    shape = op8.constant(np.array(attrs.pop("output_shape"), dtype=np.int64))
    if kind == "adaptive_max":
        return op8.adaptive_max_pool(param, shape, **attrs)
    return op8.adaptive_avg_pool(param, shape)


def ov_run_batch(cases):
    """Run every ``(kind, x, attrs)`` in one compiled model; a list of output lists.

    A node that OpenVINO refuses while building the graph gives the
    exception (its message) in place of the outputs.
    """
    import openvino as ov
    import openvino.opset14 as op14

    params, outputs, slots, results = [], [], [], [None] * len(cases)
    for i, (kind, x, attrs) in enumerate(cases):
        p = op14.parameter(list(x.shape), np.dtype(x.dtype))
        try:
            node = ov_node(kind, p, **dict(attrs))
        except Exception as exc:          # noqa: BLE001 - the runtime's refusal, kept as text
            results[i] = exc
            continue
        params.append(p)
        n_out = len(node.outputs())
        slots.append((i, len(outputs), n_out, len(params) - 1))
        outputs.extend(node.output(k) for k in range(n_out))
    if params:
        model = ov.Model(outputs, params)
        compiled = ov.Core().compile_model(model, "CPU")
        inputs = [cases[i][1] for i, *_ in slots]
        got = compiled(inputs)
        arrays = [got[compiled.output(k)] for k in range(len(outputs))]
        for i, start, n_out, _ in slots:
            results[i] = [np.array(a) for a in arrays[start:start + n_out]]
    return results


def ov_run(kind, x, **attrs):
    """One case (compiles a model of its own: use :func:`ov_run_batch` for many)."""
    r = ov_run_batch([(kind, x, attrs)])[0]
    if isinstance(r, Exception):
        raise r
    return r
