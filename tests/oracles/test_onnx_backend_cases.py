"""The official ONNX backend node cases for MaxPool and AveragePool, run through the dialects.

The cases come from the installed ``onnx`` package: each ``export_*`` function
of ``onnx.backend.test.case.node.maxpool.MaxPool`` and ``...averagepool.AveragePool``
builds a node, an input and the expected outputs, and hands them to
``expect``.  ``expect`` is replaced by a recorder while those two modules are
imported (their class statements run the exports), so no model is built, no
file is written and no other operator's cases are imported.  Maxima are
compared exactly, averages with the harness's own tolerance.

No case is excluded: every expected output, including those computed by
``onnx.reference`` (the ``*_use_ref_impl*`` and ``*_dilations_large`` cases),
agrees with the ONNX spec on these inputs.
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
import onnx
import onnx.backend.test.case.node as node_cases
import pytest

from pooltutor.frameworks import onnx_average_pool, onnx_max_pool

#: Cases deliberately left out, with the reason (none today; see the module docstring).
EXCLUDED: dict[str, str] = {}

#: The backend harness's own tolerance (onnx.backend.test.case.node.expect: rtol=1e-3,
#: atol=1e-7); some expected averages are 4-decimal literals.
RTOL, ATOL = 1e-3, 1e-7


def _collect() -> list[tuple[str, onnx.NodeProto, list, list]]:
    """Every (name, node, inputs, outputs) the MaxPool / AveragePool exports hand to expect."""
    cases = []

    def record(node, inputs, outputs, name, **kwargs):
        cases.append((name, node, list(inputs), list(outputs)))

    saved = node_cases.expect
    node_cases.expect = record
    try:
        for module_name, class_name in (("maxpool", "MaxPool"), ("averagepool", "AveragePool")):
            full = f"{node_cases.__name__}.{module_name}"
            if full in sys.modules:
                # already imported (and exported) elsewhere: export again, seeded as
                # onnx.backend.test.case.base._Exporter does
                module = sys.modules[full]
                module.expect = record
                cls = getattr(module, class_name)
                for attr in sorted(vars(cls)):
                    if attr.startswith("export"):
                        np.random.seed(0)
                        getattr(cls, attr)()
            else:
                # the class statement runs every export once, calling our recorder
                module = importlib.import_module(full)
            module.expect = saved
    finally:
        node_cases.expect = saved
    return cases


CASES = _collect()


def _attrs(node: onnx.NodeProto) -> dict:
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    if isinstance(attrs.get("auto_pad"), bytes):
        attrs["auto_pad"] = attrs["auto_pad"].decode()
    return attrs


def test_the_cases_were_found():
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names))
    ops = {c[1].op_type for c in CASES}
    assert ops == {"MaxPool", "AveragePool"}
    # the package's own count at onnx 1.23: 19 MaxPool and 19 AveragePool cases
    assert sum(c[1].op_type == "MaxPool" for c in CASES) >= 19
    assert sum(c[1].op_type == "AveragePool" for c in CASES) >= 19
    # the interesting ones are there
    for name in ("test_maxpool_with_argmax_2d_precomputed_strides",
                 "test_maxpool_2d_ceil_output_size_reduce_by_one",
                 "test_averagepool_2d_ceil_last_window_starts_on_pad",
                 "test_averagepool_2d_pads_count_include_pad"):
        assert name in names


@pytest.mark.parametrize("name, node, inputs, outputs", CASES, ids=[c[0] for c in CASES])
def test_backend_case(name, node, inputs, outputs):
    if name in EXCLUDED:
        pytest.fail(f"{name} is excluded ({EXCLUDED[name]}) but still parametrized")
    (x,) = inputs
    before = x.copy()
    attrs = _attrs(node)
    if node.op_type == "MaxPool":
        y, indices = onnx_max_pool(x, **attrs)
        expected_y = outputs[0]
        assert y.shape == expected_y.shape and y.dtype == expected_y.dtype
        np.testing.assert_array_equal(y, expected_y)
        if len(outputs) == 2:
            np.testing.assert_array_equal(indices, outputs[1])
    else:
        y = onnx_average_pool(x, **attrs)
        expected_y = outputs[0]
        assert y.shape == expected_y.shape and y.dtype == expected_y.dtype
        np.testing.assert_allclose(y, expected_y, rtol=RTOL, atol=ATOL)
    np.testing.assert_array_equal(x, before)
