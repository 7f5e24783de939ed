"""pooltutor.audit and ``pooltutor audit``: the contract of docs/api.md "Model audit".

The first tests are the issue's three measured cases (TV03 and TV04 with ceil_mode, SAME_UPPER
with dilation 2); tests/oracles/test_audit_runtimes.py checks every onnxruntime and OpenVINO
prediction against the runtimes themselves.
"""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from pooltutor.model_audit import RUNTIMES, audit, parse_input_shape  # noqa: E402
from pooltutor.audit_models import (  # noqa: E402
    OPSET,
    googlenet_stem,
    one_node_model,
    squeezenet1_0,
)
from pooltutor.course.cli import main  # noqa: E402

NODE_KEYS = {"name", "op_type", "input_shape", "attributes", "shapes", "agree", "why"}

TV03 = dict(kernel_shape=[2], strides=[2], pads=[1, 1], ceil_mode=1)
TV04 = dict(kernel_shape=[1], strides=[2], ceil_mode=1)
SAME_D2 = dict(kernel_shape=[3], strides=[2], dilations=[2], auto_pad="SAME_UPPER")


def _save(tmp_path, model, name="m.onnx"):
    path = tmp_path / name
    onnx.save(model, str(path))
    return path


# --------------------------------------------------------------------------- the issue's cases


def test_tv03_ceil_mode_clip_against_raw_ceil():
    n = audit(one_node_model("MaxPool", (1, 1, 5), **TV03)).nodes[0]
    assert n.shapes == {"onnx": (1, 1, 3), "onnxruntime": (1, 1, 3), "openvino": (1, 1, 4),
                        "tensorrt": (1, 1, 4), "pytorch": (1, 1, 3)}
    assert not n.agree
    assert "raw ceil" in n.why and "ceil_mode" in n.why and "rounding_type=ceil" in n.why
    assert "openvino, tensorrt: (1, 1, 4)" in n.why
    assert "kEXPLICIT_ROUND_UP" in n.why


def test_tv04_kernel_1_clip_without_padding():
    n = audit(one_node_model("MaxPool", (1, 1, 6), **TV04)).nodes[0]
    assert n.shapes["onnxruntime"] == (1, 1, 3) and n.shapes["openvino"] == (1, 1, 4)
    assert n.shapes["onnx"] == n.shapes["pytorch"] == (1, 1, 3)
    assert "raw ceil" in n.why
    text = n.explain()
    # the spec's last window starts at 4; OpenVINO's at 6 = I, past the input
    assert "last window (output 2) starts at 4" in text
    assert "last window (output 3) starts at 6 (in the end padding)" in text
    assert "dropped the window after it, which would start at 6 >= I = 6" in text


def test_same_upper_with_dilation_undilated_kernel():
    n = audit(one_node_model("MaxPool", (1, 1, 7), **SAME_D2)).nodes[0]
    assert n.shapes["onnx"] == n.shapes["openvino"] == (1, 1, 4)
    assert n.shapes["onnxruntime"] == (1, 1, 3)
    assert "undilated kernel" in n.why
    assert isinstance(n.shapes["tensorrt"], str) and "dilation" in n.shapes["tensorrt"]
    assert isinstance(n.shapes["pytorch"], str) and "SAME" in n.shapes["pytorch"]
    text = n.explain()
    assert "pads=(2, 2)" in text and "pads=(1, 1)" in text


# --------------------------------------------------------------------------- the other whys


@pytest.mark.parametrize("shape,attrs,runtime,phrase", [
    ((1, 1, 3, 3), dict(kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID", ceil_mode=1),
     "onnxruntime", "VALID with ceil_mode"),                                # TV39
    ((1, 1, 5), dict(kernel_shape=[2], strides=[1], pads=[2, 0]), "onnxruntime",
     "Pad should be smaller than kernel"),
    ((1, 1, 5), dict(kernel_shape=[2], strides=[1], pads=[0, 1]), "pytorch", "asymmetric"),
    ((1, 1, 5), dict(kernel_shape=[3], strides=[1], pads=[2, 2]), "pytorch",
     "at most half of kernel"),
])
def test_why_names_the_rule(shape, attrs, runtime, phrase):
    n = audit(one_node_model("MaxPool", shape, **attrs)).nodes[0]
    assert not n.agree
    assert phrase in n.why, n.why
    assert runtime in n.why


def test_average_pool_pads_reaching_the_kernel_openvino_refuses():
    n = audit(one_node_model("AveragePool", (1, 1, 6), kernel_shape=[2], pads=[0, 2])).nodes[0]
    assert "entirely in the padding area" in n.shapes["openvino"]
    assert "Pad should be smaller than kernel" in n.shapes["onnxruntime"]
    assert n.shapes["onnx"] == (1, 1, 7)
    n = audit(one_node_model("AveragePool", (1, 1, 6), kernel_shape=[2], pads=[0, 2],
                             count_include_pad=1)).nodes[0]
    assert n.shapes["openvino"] == (1, 1, 7)


def test_maxunpool_cannot_read_column_major_indices():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    nodes = [helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool", kernel_shape=[2, 2],
                              strides=[2, 2], storage_order=1),
             helper.make_node("MaxUnpool", ["y", "i"], ["u"], name="unpool",
                              kernel_shape=[2, 2], strides=[2, 2])]
    g = helper.make_graph(nodes, "unpool", [x],
                          [helper.make_tensor_value_info("u", TensorProto.FLOAT, None)])
    report = audit(helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)]))
    un = report.node("unpool")
    assert un.shapes["onnx"] == un.shapes["onnxruntime"] == (1, 1, 4, 4)
    assert not un.agree and "index layout" in un.why and "storage_order=1" in un.why
    assert "no conversion rule for MaxUnpool" in un.shapes["openvino"]
    assert "column-major" in report.node("pool").shapes["pytorch"]
    # with row-major indices all runtimes that can run it agree on the layout
    nodes[0] = helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool", kernel_shape=[2, 2],
                                strides=[2, 2])
    g = helper.make_graph(nodes, "unpool", [x],
                          [helper.make_tensor_value_info("u", TensorProto.FLOAT, None)])
    un = audit(helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])).node(
        "unpool")
    assert "index layout" not in un.why
    assert un.shapes["pytorch"] == (1, 1, 4, 4)


def test_conv_transpose_same_with_a_kernel_shorter_than_the_stride():
    n = audit(one_node_model("ConvTranspose", (1, 2, 5), weight_shape=(2, 3, 3), strides=[4],
                             auto_pad="SAME_UPPER")).nodes[0]
    assert n.shapes["onnx"] == (1, 3, 20)                       # the spec's I * S
    assert n.shapes["onnxruntime"] == n.shapes["openvino"] == (1, 3, 19)
    assert "clamped at 0" in n.why


def test_conv_same_with_dilation_onnxruntime_refuses():
    n = audit(one_node_model("Conv", (1, 1, 7), weight_shape=(4, 1, 3), strides=[2],
                             dilations=[2], auto_pad="SAME_UPPER")).nodes[0]
    assert n.shapes["onnx"] == n.shapes["openvino"] == n.shapes["tensorrt"] == (1, 4, 4)
    assert "Dilation not supported" in n.shapes["onnxruntime"]
    assert "strided" in n.shapes["pytorch"]


# --------------------------------------------------------------------------- propagation


def _chain():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])
    w = numpy_helper.from_array(np.ones((3, 2, 3, 3), np.float32), "w")
    nodes = [
        helper.make_node("MaxPool", ["x"], ["a"], name="p1", kernel_shape=[2, 2],
                         strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
        helper.make_node("Relu", ["a"], ["b"], name="relu"),
        helper.make_node("Conv", ["b", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("GlobalMaxPool", ["c"], ["d"], name="gmp"),
        helper.make_node("MaxPool", ["c"], ["e"], name="p2", kernel_shape=[2, 2],
                         strides=[2, 2]),
    ]
    g = helper.make_graph(nodes, "chain", [x],
                          [helper.make_tensor_value_info("d", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("e", TensorProto.FLOAT, None)],
                          initializer=[w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])


def test_a_disagreement_propagates_per_runtime():
    report = audit(_chain())
    assert [n.name for n in report.nodes] == ["p1", "conv", "gmp", "p2"]
    assert report.first_divergence.name == "p1"
    conv = report.node("conv")
    assert conv.input_shapes["onnx"] == (1, 2, 3, 3)
    assert conv.input_shapes["openvino"] == (1, 2, 4, 4)
    assert conv.shapes["openvino"] == (1, 3, 4, 4) and conv.shapes["onnx"] == (1, 3, 3, 3)
    assert not conv.agree and "already differ" in conv.why
    assert report.node("gmp").agree                      # (1, 3, 1, 1) whatever came in
    assert report.outputs["openvino"]["e"] == (1, 3, 2, 2)
    assert report.outputs["onnx"]["e"] == (1, 3, 1, 1)
    assert report.outputs["onnx"]["d"] == report.outputs["openvino"]["d"] == (1, 3, 1, 1)


def test_refusal_propagates_as_missing_input():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 7])
    nodes = [helper.make_node("MaxPool", ["x"], ["a"], name="p1", **SAME_D2),
             helper.make_node("MaxPool", ["a"], ["b"], name="p2", kernel_shape=[2])]
    g = helper.make_graph(nodes, "g", [x],
                          [helper.make_tensor_value_info("b", TensorProto.FLOAT, None)])
    report = audit(helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)]))
    p2 = report.node("p2")
    assert p2.results["tensorrt"].upstream and "p1" in p2.shapes["tensorrt"]
    assert p2.shapes["onnx"] == (1, 1, 3) and p2.shapes["onnxruntime"] == (1, 1, 2)
    assert isinstance(report.outputs["pytorch"]["b"], str)


def test_shape_subgraph_follows_each_runtime():
    """Shape -> Gather -> Concat -> Reshape: folded per runtime, so the flattened length
    differs as the pooled shape does."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 6])
    idx = numpy_helper.from_array(np.array([0, 1], np.int64), "idx")
    m1 = numpy_helper.from_array(np.array([-1], np.int64), "m1")
    nodes = [helper.make_node("MaxPool", ["x"], ["p"], name="p", **TV04),
             helper.make_node("Shape", ["p"], ["s"]),
             helper.make_node("Gather", ["s", "idx"], ["nc"], axis=0),
             helper.make_node("Concat", ["nc", "m1"], ["ns"], axis=0),
             helper.make_node("Reshape", ["p", "ns"], ["flat"]),
             helper.make_node("Flatten", ["flat"], ["out"], axis=0)]
    g = helper.make_graph(nodes, "g", [x],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
                          initializer=[idx, m1])
    report = audit(helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)]))
    assert report.outputs["onnx"]["out"] == (1, 3)
    assert report.outputs["openvino"]["out"] == (1, 4)


# --------------------------------------------------------------------------- architectures


def test_torchvision_ceil_pools_never_clip():
    """GoogLeNet and SqueezeNet 1.0 pool with K=3, S=2, padding 0 (<= K - S): the ceil clip
    cannot fire, so raw ceil and ceil_torch agree and so do all runtimes."""
    for model in (googlenet_stem(), googlenet_stem((1, 3, 225, 225)), squeezenet1_0(),
                  squeezenet1_0((1, 3, 99, 99))):
        report = audit(model)
        assert report.agree, report.table()
        assert sum(n.op_type == "MaxPool" for n in report.nodes) in (2, 3)


def test_openvino_issue_18731_pool_in_the_stem():
    report = audit(googlenet_stem(pool_kernel=2, pool_pads=1))
    assert report.first_divergence.name == "maxpool2"
    n = report.node("maxpool2")
    assert n.shapes["onnx"] == (1, 192, 29, 29) and n.shapes["openvino"] == (1, 192, 30, 30)
    assert report.outputs["onnx"] == report.outputs["openvino"]   # the global pool hides it


# --------------------------------------------------------------------------- the JSON


def test_to_dict_is_the_contract(tmp_path):
    report = audit(one_node_model("MaxPool", (1, 1, 7), **SAME_D2))
    d = json.loads(json.dumps(report.to_dict()))
    assert set(d) == {"model", "runtimes", "nodes", "outputs"}
    assert list(d["runtimes"]) == list(RUNTIMES) and d["runtimes"]["onnx"] == "opset 22"
    (node,) = d["nodes"]
    assert set(node) == NODE_KEYS
    assert node["input_shape"] == [1, 1, 7] and node["op_type"] == "MaxPool"
    assert node["attributes"] == {"auto_pad": "SAME_UPPER", "dilations": [2],
                                  "kernel_shape": [3], "strides": [2]}
    assert node["shapes"]["onnx"] == [1, 1, 4] and node["shapes"]["onnxruntime"] == [1, 1, 3]
    assert set(node["shapes"]["tensorrt"]) == {"error"}
    assert node["agree"] is False and node["why"] == report.nodes[0].why
    assert set(d["outputs"]) == set(RUNTIMES)
    assert d["outputs"]["onnxruntime"] == {"y": [1, 1, 3]}
    assert set(d["outputs"]["pytorch"]["y"]) == {"error"}


def test_pooltutor_audit_is_callable_as_the_contract_spells_it():
    import pooltutor

    model = one_node_model("MaxPool", (1, 1, 5), **TV03)
    assert pooltutor.audit(model).to_dict() == audit(model).to_dict()
    assert pooltutor.model_audit.RUNTIMES == RUNTIMES


def test_path_bytes_and_proto_agree_and_the_model_is_not_modified(tmp_path):
    model = _chain()
    before = model.SerializeToString()
    path = _save(tmp_path, model)
    a = audit(model).to_dict()
    b = audit(path).to_dict()
    c = audit(path.read_bytes()).to_dict()
    assert model.SerializeToString() == before
    assert b["model"] == str(path)
    for d in (a, b, c):
        d.pop("model")
    assert a == b == c


def test_input_shapes_override_and_symbolic_dims():
    model = one_node_model("MaxPool", ("N", 1, "L"), **TV03)
    with pytest.raises(ValueError, match=r"input 'x'.*symbolic.*input_shapes"):
        audit(model)
    report = audit(model, {"x": (2, 1, 5)})
    assert report.nodes[0].shapes["openvino"] == (2, 1, 4)
    report = audit(one_node_model("MaxPool", (1, 1, 5), **TV03), {"x": (1, 1, 6)})
    assert report.nodes[0].input_shape == (1, 1, 6)
    with pytest.raises(ValueError, match="'y', which is not an input"):
        audit(model, {"y": (1, 1, 5)})
    with pytest.raises(ValueError, match="ints >= 1"):
        audit(model, {"x": (1, 0, 5)})
    with pytest.raises(ValueError, match="has 2 dimensions"):
        audit(model, {"x": (1, 5)})


# --------------------------------------------------------------------------- bad input


def test_not_onnx_and_truncated(tmp_path):
    good = one_node_model("MaxPool", (1, 1, 5), **TV03).SerializeToString()
    with pytest.raises(ValueError, match="not an ONNX model"):
        audit(b"this is not a model\n")
    for cut in (len(good) - 3, len(good) // 2, 7):
        with pytest.raises(ValueError, match="not an ONNX model|not a valid ONNX model"):
            audit(good[:cut])
    with pytest.raises(ValueError, match="cannot be read"):
        audit(tmp_path / "missing.onnx")
    with pytest.raises(TypeError, match="need a path"):
        audit(42)


def test_attributes_the_opset_does_not_allow():
    old = one_node_model("MaxPool", (1, 1, 5), opset=9, **TV03)
    with pytest.raises(ValueError, match="ceil_mode"):
        audit(old)
    for attrs, match in ((dict(kernel_shape=[2], auto_pad="FOO"), "auto_pad='FOO'"),
                         (dict(kernel_shape=[2], pads=[1]), "pads"),
                         (dict(kernel_shape=[2], strides=[0]), "strides"),
                         (dict(kernel_shape=[2], ceil_mode=2), "ceil_mode")):
        with pytest.raises(ValueError, match=re.escape(match)):
            audit(one_node_model("MaxPool", (1, 1, 5), **attrs))


def test_unknown_op_passes_through_and_is_listed():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 6])
    nodes = [helper.make_node("Mystery", ["x"], ["t"], name="mystery", domain="com.example"),
             helper.make_node("MaxPool", ["t"], ["y"], name="pool", **TV04),
             helper.make_node("Weird", ["x"], ["u"], name="weird", domain="com.example"),
             helper.make_node("MaxPool", ["u"], ["z"], name="pool2", **TV04)]
    g = helper.make_graph(nodes, "g", [x],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
                          value_info=[helper.make_tensor_value_info("t", TensorProto.FLOAT,
                                                                    [1, 1, 6])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET),
                                                helper.make_opsetid("com.example", 1)])
    report = audit(model)
    assert report.unknown_ops == [("mystery", "Mystery", "com.example"),
                                  ("weird", "Weird", "com.example")]
    assert report.node("pool").shapes["openvino"] == (1, 1, 4)   # the stored shape of t
    assert "no known shape" in report.node("pool2").shapes["onnx"]
    assert "Mystery" in report.table() and "com.example" in report.table()


def test_parse_input_shape():
    assert parse_input_shape("images=1,3,224,224") == ("images", (1, 3, 224, 224))
    for bad in ("x", "x=", "=1,2", "x=1,,2", "x=1,a", "x=0,3", "x=1.5"):
        with pytest.raises(ValueError, match="malformed"):
            parse_input_shape(bad)


# --------------------------------------------------------------------------- the command


def _one_line_error(capsys, argv, match):
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert re.search(match, lines[0]), lines[0]
    assert captured.out == ""


def test_cli_exit_codes_and_table(tmp_path, capsys):
    agree = _save(tmp_path, googlenet_stem(), "agree.onnx")
    differ = _save(tmp_path, one_node_model("MaxPool", (1, 1, 5), **TV03), "tv03.onnx")
    assert main(["audit", str(agree)]) == 0
    out = capsys.readouterr().out
    assert "all runtimes agree" in out and "maxpool1" in out
    assert main(["audit", str(differ)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^!\s+MaxPool#0\s+MaxPool\s+\(1, 1, 5\)\s+\(1,1,3\)\s+\(1,1,3\)\s+"
                     r"\(1,1,4\)\s+\(1,1,4\)\s+\(1,1,3\)", out, re.M), out
    assert "first divergence: MaxPool#0 (MaxPool)" in out
    assert re.search(r"^! y: onnx \(1, 1, 3\).*openvino \(1, 1, 4\)", out, re.M)


def test_cli_json_is_to_dict(tmp_path, capsys):
    path = _save(tmp_path, _chain())
    assert main(["audit", str(path), "--json"]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert printed == audit(path).to_dict()


def test_cli_input_shape(tmp_path, capsys):
    path = _save(tmp_path, one_node_model("MaxPool", ("N", 1, "L"), **TV04))
    assert main(["audit", str(path), "--input-shape", "x=1,1,6", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["nodes"][0]["shapes"]["openvino"] == [1, 1, 4]
    _one_line_error(capsys, ["audit", str(path)], r"symbolic.*--input-shape x=")
    _one_line_error(capsys, ["audit", str(path), "--input-shape", "q=1,1,6"],
                    "not an input of the model")
    _one_line_error(capsys, ["audit", str(path), "--input-shape", "x=1,1,6",
                             "--input-shape", "x=1,1,7"], "twice")


def test_cli_bad_input_one_line_exit_2(tmp_path, capsys):
    from process_helpers import bad_arguments_error

    junk = tmp_path / "junk.onnx"
    junk.write_text("not a model\n")
    good = one_node_model("MaxPool", (1, 1, 5), **TV03).SerializeToString()
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(good[: len(good) // 2])
    old = _save(tmp_path, one_node_model("MaxPool", (1, 1, 5), opset=9, **TV03), "old.onnx")
    _one_line_error(capsys, ["audit", str(junk)], "not an ONNX model")
    _one_line_error(capsys, ["audit", str(cut)], "not an ONNX model|not a valid ONNX model")
    _one_line_error(capsys, ["audit", str(tmp_path / "none.onnx")], "cannot be read")
    _one_line_error(capsys, ["audit", str(old)], "ceil_mode")
    line = bad_arguments_error(main, capsys, ["audit", str(old), "--input-shape", "x=1,a"])
    assert "malformed" in line
    bad_arguments_error(main, capsys, ["audit"])


def test_cli_html_report(tmp_path, capsys):
    path = _save(tmp_path, googlenet_stem(pool_kernel=2, pool_pads=1))
    html_path = tmp_path / "report.html"
    assert main(["audit", str(path), "--html", str(html_path)]) == 1
    capsys.readouterr()
    text = html_path.read_text()
    imgs = re.findall(r"<img src='data:image/png;base64,([^']+)' alt='([^']+)'>", text)
    assert len(imgs) == 1                          # one disagreeing node, one padding
    png, alt = imgs[0]
    assert base64.b64decode(png)[:8] == b"\x89PNG\r\n\x1a\n"
    assert "maxpool2" in alt and "ceil_torch gives 29 windows" in alt
    assert "ceil gives 30 windows" in alt and "openvino" in alt
    assert "First divergence: <b>maxpool2</b>" in text
    _one_line_error(capsys, ["audit", str(path), "--html", str(tmp_path / "no" / "r.html")],
                    "cannot write")
