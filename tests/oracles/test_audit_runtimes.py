"""Every onnxruntime and OpenVINO shape that pooltutor.audit predicts, checked against the
runtimes themselves running the models (onnxruntime.InferenceSession; openvino.Core
read_model + compile_model "CPU").

Grids of one-node cases (pads, strides, dilations, auto_pad, ceil_mode; MaxPool with and
without Indices, AveragePool, LpPool, Conv, ConvTranspose) are packed side by side into one
model per runtime (one session, one compile); a case the audit says a runtime refuses is
run alone and must fail.  Chains check that a disagreement propagates, node by node.

Skipped when a runtime is not importable, unless POOLTUTOR_REQUIRE_RUNTIMES=1 (CI): then a
missing runtime is a failure.
"""

from __future__ import annotations

import importlib
import itertools
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from pooltutor import audit  # noqa: E402
from pooltutor.audit_models import OPSET, googlenet_stem, squeezenet1_0  # noqa: E402

REQUIRE = os.environ.get("POOLTUTOR_REQUIRE_RUNTIMES") == "1"
#: predictions checked against a running runtime, per runtime (reported at the end)
CHECKED = {"onnxruntime": 0, "openvino": 0}
#: refusals run alone per grid and runtime (each is a session / compile of its own)
MAX_REFUSALS = 2
_CORE = []


def _runtime(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if REQUIRE:
            pytest.fail(f"POOLTUTOR_REQUIRE_RUNTIMES=1 but {name} is not importable: {exc}",
                        pytrace=False)
        pytest.skip(f"{name} is not importable")


@pytest.fixture(scope="module")
def ort():
    mod = _runtime("onnxruntime")
    mod.set_default_logger_severity(4)
    return mod


@pytest.fixture(scope="module")
def ov():
    return _runtime("openvino")


# --------------------------------------------------------------------------- running


def _feeds(model):
    inits = {t.name for t in model.graph.initializer}
    rng = np.random.default_rng(0)
    feeds = {}
    for i in model.graph.input:
        if i.name in inits:
            continue
        shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
        feeds[i.name] = rng.standard_normal(shape).astype(np.float32)
    return feeds


def run_onnxruntime(ort, model) -> dict | str:
    """Output name -> shape, or the error text when the runtime refuses the model."""
    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    try:
        sess = ort.InferenceSession(model.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])
        outs = sess.run(None, _feeds(model))
    except Exception as exc:  # noqa: BLE001 - the refusal is the result
        return str(exc)
    return {o.name: tuple(v.shape) for o, v in zip(sess.get_outputs(), outs, strict=False)}


def run_openvino(ov, model) -> dict | str:
    if not _CORE:
        _CORE.append(ov.Core())
    core = _CORE[0]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.onnx"
        onnx.save(model, str(path))
        try:
            compiled = core.compile_model(core.read_model(str(path)), "CPU")
            res = compiled(_feeds(model))
        except Exception as exc:  # noqa: BLE001
            return str(exc)
    out = {}
    for port in compiled.outputs:
        for name in port.get_names():
            out[name] = tuple(res[port].shape)
    return out


def expose(model, names):
    """A copy of ``model`` whose outputs are ``names`` (intermediate tensors included)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.output[:]
    for n in names:
        m.graph.output.append(helper.make_tensor_value_info(n, TensorProto.FLOAT, None))
    return m


def check_model(model, ort=None, ov=None, input_shapes=None):
    """Audit ``model``; check every node's onnxruntime / openvino prediction by running it.

    A model some node of which a runtime refuses must fail as a whole in that runtime.
    Returns the report.
    """
    report = audit(model, input_shapes)
    for key, mod, run in (("onnxruntime", ort, run_onnxruntime), ("openvino", ov, run_openvino)):
        if mod is None:
            continue
        refused = [n for n in report.nodes if isinstance(n.shapes[key], str)
                   and not n.results[key].upstream]
        names = [n.results[key] and _out_name(model, n) for n in report.nodes]
        got = run(mod, expose(model, names))
        if refused:
            assert isinstance(got, str), (
                f"{key} ran a model the audit says it refuses ({refused[0].name}: "
                f"{refused[0].shapes[key]}); it gave {got}")
            CHECKED[key] += 1
            continue
        assert not isinstance(got, str), f"{key} refused the model: {got[:500]}"
        for n, name in zip(report.nodes, names, strict=False):
            assert got[name] == n.shapes[key], (
                f"{key}: node {n.name} ({n.op_type}, {n.attributes}, input "
                f"{n.results[key].input_shape}): audit {n.shapes[key]}, runtime {got[name]}")
            CHECKED[key] += 1
    return report


def _out_name(model, n):
    return model.graph.node[n.index].output[0]


# --------------------------------------------------------------------------- grids


def side_by_side(cases, name="grid"):
    """One model holding every case ``(op, input_shape, attrs, with_indices, weight_shape)``
    on its own input; returns ``(model, [node output names])``."""
    nodes, inputs, inits, outs = [], [], [], []
    for k, (op, shape, attrs, with_indices, weight) in enumerate(cases):
        x = f"x{k}"
        inputs.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, list(shape)))
        ins = [x]
        if weight is not None:
            inits.append(numpy_helper.from_array(np.ones(weight, np.float32), f"w{k}"))
            ins.append(f"w{k}")
        o = [f"y{k}"] + ([f"i{k}"] if with_indices else [])
        nodes.append(helper.make_node(op, ins, o, name=f"n{k}", **attrs))
        outs.append(o)
    graph = helper.make_graph(nodes, name, inputs,
                              [helper.make_tensor_value_info(o[0], TensorProto.FLOAT, None)
                               for o in outs]
                              + [helper.make_tensor_value_info(o[1], TensorProto.INT64, None)
                                 for o in outs if len(o) > 1],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 10
    return model


def check_grid(cases, ort, ov):
    """Audit all cases at once; run the predicted successes together, each refusal alone."""
    model = side_by_side(cases)
    report = audit(model)
    assert len(report.nodes) == len(cases)
    for key, mod, run in (("onnxruntime", ort, run_onnxruntime), ("openvino", ov, run_openvino)):
        ok = [k for k, n in enumerate(report.nodes) if not isinstance(n.shapes[key], str)]
        bad = [k for k in range(len(cases)) if k not in ok]
        if ok:
            sub = side_by_side([cases[k] for k in ok])
            got = run(mod, sub)
            if isinstance(got, str):
                import re

                m = re.search(r"Name:'n(\d+)'|node 'n(\d+)'|n(\d+)", got)
                j = int(next(g for g in m.groups() if g)) if m else None
                case = cases[ok[j]] if j is not None else None
                pytest.fail(f"{key} refused {len(ok)} cases; first the case {case}, audit "
                            f"{report.nodes[ok[j]].shapes[key] if j is not None else ''}: "
                            f"{got[:300]}")
            for j, k in enumerate(ok):
                n = report.nodes[k]
                assert got[f"y{j}"] == n.shapes[key], (
                    f"{key}: {cases[k][0]} {cases[k][2]} on {cases[k][1]}"
                    f"{' with Indices' if cases[k][3] else ''}: audit {n.shapes[key]}, "
                    f"runtime {got[f'y{j}']}")
                CHECKED[key] += 1
        # refusals alone (a refusal fails the whole model): the first case of every distinct
        # reason, at most MAX_REFUSALS per grid and runtime, to stay fast
        seen = set()
        for k in bad:
            reason = (cases[k][0], cases[k][3], report.nodes[k].shapes[key][:40])
            if reason in seen or len(seen) >= MAX_REFUSALS:
                continue
            seen.add(reason)
            got = run(mod, side_by_side([cases[k]]))
            assert isinstance(got, str), (
                f"{key} ran {cases[k][0]} {cases[k][2]} on {cases[k][1]} -> {got}, which the "
                f"audit says it refuses: {report.nodes[k].shapes[key]}")
            CHECKED[key] += 1
    return report


def pool_cases_1d(op, with_indices=False):
    cases = []
    for size, k, s, d, ceil in itertools.product((1, 2, 3, 5, 6), (1, 2, 3), (1, 2, 3), (1, 2),
                                                 (0, 1)):
        for pb, pe in ((0, 0), (1, 1), (1, 0), (0, 2), (3, 1)):
            attrs = dict(kernel_shape=[k], strides=[s], pads=[pb, pe], ceil_mode=ceil)
            if d > 1:
                attrs["dilations"] = [d]
            if (size + pb + pe - (k - 1) * d - 1) < 0:
                continue          # a window that fits nowhere: shape inference refuses it
            cases.append((op, (1, 1, size), attrs, with_indices, None))
        for auto in ("SAME_UPPER", "SAME_LOWER", "VALID"):
            attrs = dict(kernel_shape=[k], strides=[s], auto_pad=auto, ceil_mode=ceil)
            if d > 1:
                attrs["dilations"] = [d]
            if auto == "VALID" and size < (k - 1) * d + 1:
                continue
            cases.append((op, (1, 1, size), attrs, with_indices, None))
    return cases


# --------------------------------------------------------------------------- tests


def test_issue_cases_against_both_runtimes(ort, ov):
    """The issue's three measured cases: TV03 and TV04 with ceil_mode, SAME_UPPER with
    dilation 2: the audit's onnxruntime / OpenVINO numbers are what the runtimes give."""
    cases = [("MaxPool", (1, 1, 5), dict(kernel_shape=[2], strides=[2], pads=[1, 1],
                                          ceil_mode=1), False, None),
             ("MaxPool", (1, 1, 6), dict(kernel_shape=[1], strides=[2], ceil_mode=1), False,
              None),
             ("MaxPool", (1, 1, 7), dict(kernel_shape=[3], strides=[2], dilations=[2],
                                          auto_pad="SAME_UPPER"), False, None)]
    report = check_grid(cases, ort, ov)
    assert [n.shapes["onnxruntime"][-1] for n in report.nodes] == [3, 3, 3]
    assert [n.shapes["openvino"][-1] for n in report.nodes] == [4, 4, 4]


@pytest.mark.parametrize("op,with_indices,every", [("MaxPool", False, 1), ("MaxPool", True, 5),
                                                   ("AveragePool", False, 3),
                                                   ("LpPool", False, 7)])
def test_pool_grid_1d(ort, ov, op, with_indices, every):
    """The whole grid for MaxPool, every 3rd to 7th case for the others (to stay
    fast: OpenVINO builds LpPool from several ops, slow to compile in bulk)."""
    cases = pool_cases_1d(op, with_indices)[::every]
    report = check_grid(cases, ort, ov)
    assert sum(not n.agree for n in report.nodes) > 10     # the grid does hold disagreements


def test_average_pool_count_include_pad_grid(ort, ov):
    cases = []
    for size, k, s, ceil in itertools.product((3, 5, 6), (1, 2, 3), (1, 2), (0, 1)):
        for pb, pe in ((0, 0), (1, 1), (2, 0), (0, 3), (2, 2)):
            if size + pb + pe < k:
                continue
            cases.append(("AveragePool", (1, 1, size),
                          dict(kernel_shape=[k], strides=[s], pads=[pb, pe], ceil_mode=ceil,
                               count_include_pad=1), False, None))
    check_grid(cases, ort, ov)


def test_pool_grid_2d_and_3d(ort, ov):
    rng = np.random.default_rng(1)
    cases = []
    for _ in range(160):
        op = ("MaxPool", "AveragePool", "LpPool")[rng.integers(3)]
        nd = int(rng.integers(2, 4))
        shape = tuple(int(v) for v in rng.integers(3, 9, nd))
        k = [int(v) for v in rng.integers(1, 4, nd)]
        s = [int(v) for v in rng.integers(1, 4, nd)]
        d = [int(v) for v in rng.integers(1, 3, nd)]
        attrs = dict(kernel_shape=k, strides=s, ceil_mode=int(rng.integers(2)))
        if rng.random() < 0.5:
            attrs["dilations"] = d
        auto = ("NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")[rng.integers(5)]
        dk = [(kk - 1) * (attrs.get("dilations") or [1] * nd)[i] + 1 for i, kk in enumerate(k)]
        if auto == "NOTSET":
            pads = [int(v) for v in rng.integers(0, 3, 2 * nd)]
            if any(shape[i] + pads[i] + pads[i + nd] < dk[i] for i in range(nd)):
                continue
            attrs["pads"] = pads
        else:
            if auto == "VALID" and any(shape[i] < dk[i] for i in range(nd)):
                continue
            attrs["auto_pad"] = auto
        if op == "MaxPool" and rng.random() < 0.3:
            attrs["storage_order"] = 1
        cases.append((op, (2, 3) + shape, attrs, op == "MaxPool" and rng.random() < 0.5, None))
    check_grid(cases, ort, ov)


def test_conv_grid(ort, ov):
    cases = []
    for size, k, s, d in itertools.product((1, 7), (1, 2, 3), (1, 3), (1, 2)):
        dk = (k - 1) * d + 1
        for pads in ((0, 0), (1, 1), (0, 2), (3, 0)):
            if size + sum(pads) < dk:
                continue
            cases.append(("Conv", (1, 2, size), dict(strides=[s], dilations=[d],
                                                     pads=list(pads)), False, (3, 2, k)))
        for auto in ("SAME_UPPER", "SAME_LOWER", "VALID"):
            if auto == "VALID" and size < dk:
                continue
            cases.append(("Conv", (1, 2, size), dict(strides=[s], dilations=[d], auto_pad=auto),
                          False, (3, 2, k)))
    cases.append(("Conv", (1, 4, 6, 5), dict(strides=[2, 1], pads=[1, 0, 2, 1], group=2), False,
                  (6, 2, 3, 3)))
    check_grid(cases, ort, ov)


def test_conv_transpose_grid(ort, ov):
    cases = []
    for size, k, s, d in itertools.product((1, 5), (1, 3), (1, 2, 4), (1, 2)):
        for pads, op_ in (((0, 0), 0), ((1, 0), 0), ((1, 1), 1), ((0, 2), 0)):
            if op_ >= max(s, d):
                continue
            full = (size - 1) * s + (k - 1) * d + 1 + op_
            if full - sum(pads) < 1:
                continue
            cases.append(("ConvTranspose", (1, 2, size),
                          dict(strides=[s], dilations=[d], pads=list(pads),
                               output_padding=[op_]), False, (2, 3, k)))
        for auto in ("SAME_UPPER", "SAME_LOWER", "VALID"):
            cases.append(("ConvTranspose", (1, 2, size), dict(strides=[s], dilations=[d],
                                                              auto_pad=auto), False, (2, 3, k)))
        cases.append(("ConvTranspose", (1, 2, size),
                      dict(strides=[s], dilations=[d], output_shape=[size * s + 1]), False,
                      (2, 3, k)))
    check_grid(cases, ort, ov)


def test_chain_propagates_a_disagreement(ort, ov):
    """MaxPool TV03-style (raw ceil in OpenVINO) -> Conv -> MaxPool -> Reshape via Shape: the
    OpenVINO shapes differ from the first node on, to the output, and each is what OpenVINO
    runs."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 9, 9])
    w = numpy_helper.from_array(np.ones((4, 2, 3, 3), np.float32), "w")
    two = numpy_helper.from_array(np.array([0, 1], np.int64), "idx")
    minus1 = numpy_helper.from_array(np.array([-1], np.int64), "m1")
    nodes = [
        helper.make_node("MaxPool", ["x"], ["p1"], name="p1", kernel_shape=[2, 2],
                         strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
        helper.make_node("Conv", ["p1", "w"], ["c1"], name="c1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="r1"),
        helper.make_node("MaxPool", ["r1"], ["p2"], name="p2", kernel_shape=[3, 3],
                         strides=[2, 2], ceil_mode=1),
        helper.make_node("AveragePool", ["p2"], ["p3"], name="p3", kernel_shape=[2, 2],
                         strides=[2, 2], pads=[0, 0, 1, 1], ceil_mode=1),
        helper.make_node("Shape", ["p3"], ["s"], name="s"),
        helper.make_node("Gather", ["s", "idx"], ["nc"], name="g", axis=0),
        helper.make_node("Concat", ["nc", "m1"], ["newshape"], name="cat", axis=0),
        helper.make_node("Reshape", ["p3", "newshape"], ["flat"], name="reshape"),
    ]
    graph = helper.make_graph(nodes, "chain", [x],
                              [helper.make_tensor_value_info("flat", TensorProto.FLOAT, None)],
                              initializer=[w, two, minus1])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    report = check_model(model, ort, ov)
    assert report.first_divergence.name == "p1"
    assert report.outputs["onnxruntime"]["flat"] != report.outputs["openvino"]["flat"]
    got = run_openvino(ov, model)
    assert got["flat"] == report.outputs["openvino"]["flat"]
    got = run_onnxruntime(ort, model)
    assert got["flat"] == report.outputs["onnxruntime"]["flat"]
    CHECKED["onnxruntime"] += 1
    CHECKED["openvino"] += 1


@pytest.mark.parametrize("builder,kwargs,size", [
    (googlenet_stem, {}, 96), (googlenet_stem, dict(pool_kernel=2, pool_pads=1), 112),
    (googlenet_stem, dict(pool_kernel=2, pool_pads=1), 97), (squeezenet1_0, {}, 113)])
def test_architectures(ort, ov, builder, kwargs, size):
    model = builder((1, 3, size, size), **kwargs)
    report = check_model(model, ort, ov)
    if kwargs:
        assert not report.agree


# --------------------------------------------------------------------------- torch


class _Stem:
    """torchvision-style modules, built only when torch is importable."""

    @staticmethod
    def googlenet(pool_kernel=3, pool_padding=0):
        import torch.nn as nn

        def basic(cin, cout, **kw):
            return nn.Sequential(nn.Conv2d(cin, cout, bias=False, **kw),
                                 nn.BatchNorm2d(cout, eps=0.001), nn.ReLU(inplace=True))

        return nn.Sequential(
            basic(3, 64, kernel_size=7, stride=2, padding=3),
            nn.MaxPool2d(pool_kernel, stride=2, padding=pool_padding, ceil_mode=True),
            basic(64, 64, kernel_size=1), basic(64, 192, kernel_size=3, padding=1),
            nn.MaxPool2d(pool_kernel, stride=2, padding=pool_padding, ceil_mode=True),
            nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())

    @staticmethod
    def squeezenet():
        import torch
        import torch.nn as nn

        class Fire(nn.Module):
            def __init__(self, cin, s, e1, e3):
                super().__init__()
                self.squeeze = nn.Conv2d(cin, s, 1)
                self.e1 = nn.Conv2d(s, e1, 1)
                self.e3 = nn.Conv2d(s, e3, 3, padding=1)

            def forward(self, x):
                x = torch.relu(self.squeeze(x))
                return torch.cat([torch.relu(self.e1(x)), torch.relu(self.e3(x))], 1)

        return nn.Sequential(
            nn.Conv2d(3, 96, 7, stride=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, ceil_mode=True), Fire(96, 16, 64, 64), Fire(128, 16, 64, 64),
            Fire(128, 32, 128, 128), nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(256, 32, 128, 128), Fire(256, 48, 192, 192), Fire(384, 48, 192, 192),
            Fire(384, 64, 256, 256), nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(512, 64, 256, 256), nn.Conv2d(512, 10, 1), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())


def _export(module, size):
    torch = pytest.importorskip("torch")
    import warnings

    module.eval()
    x = torch.zeros(1, 3, size, size)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.onnx"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)   # the TorchScript exporter
            torch.onnx.export(module, (x,), str(path), dynamo=False, opset_version=17,
                              input_names=["x"], output_names=["y"])
        return onnx.load(str(path)), module(x).shape


@pytest.mark.torch
@pytest.mark.parametrize("arch,kwargs,size", [("googlenet", {}, 64),
                                             ("googlenet", dict(pool_kernel=2, pool_padding=1),
                                              97),
                                             ("squeezenet", {}, 99), ("squeezenet", {}, 64)])
def test_torch_exported(ort, ov, arch, kwargs, size):
    model, torch_shape = _export(getattr(_Stem, arch)(**kwargs), size)
    report = check_model(model, ort, ov)
    (out,) = [o.name for o in model.graph.output]
    assert report.outputs["pytorch"][out] == tuple(torch_shape)
    pools = [n for n in report.nodes if n.op_type == "MaxPool"]
    assert pools and all(n.attributes.get("ceil_mode") == 1 for n in pools)
    # torchvision's own pools (padding <= kernel - stride) cannot trigger the clip
    assert report.agree == (not kwargs)


def test_zz_report_counts():
    print(f"\nruntime-checked predictions: {CHECKED}")
    assert CHECKED["onnxruntime"] > 0 or CHECKED["openvino"] > 0 or not REQUIRE
