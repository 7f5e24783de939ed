"""pooltutor.frameworks: the contract's signatures, the spec's test vectors, rejections, dtypes.

The numbers come from ``tests/data/vectors.json`` (a copy of the research notes'
``vectors.json``; CI must not read ../shared) and from docs/semantics.md §4
where the file only says "derived".  Cross-checks against the real runtimes
live in tests/oracles/test_torch.py, test_onnxruntime.py and
test_onnx_backend_cases.py.
"""

from __future__ import annotations

import inspect
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from pooltutor import frameworks as fw
from pooltutor import pooling
from pooltutor.tensorrt import PaddingMode, PaddingModeWarning

VECTORS = {v["id"]: v for v in json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "vectors.json").read_text(encoding="utf-8"))}
L32 = float(np.finfo(np.float32).min)          # the spec's "L": float32's lowest value


def _num(v):
    """A vectors.json number: "nan", "-inf", "lowest(...)" and "L" become floats."""
    if isinstance(v, list):
        return [_num(e) for e in v]
    if isinstance(v, str):
        if v == "L" or v.startswith("lowest"):
            return L32
        return float(v)
    return v


def _parse(v):
    """A vectors.json input: a list, or a string like "[[1,2],[3,4]]" / "[nan,1]"."""
    if isinstance(v, str):
        v = json.loads(v.replace("nan", "NaN").replace("-inf", "-Infinity"))
    return np.array(v, dtype=np.float64)


def _x(vec_id, dtype=np.float64):
    """The vector's input as (1, 1, *spatial)."""
    x = _parse(VECTORS[vec_id]["params"]["x"])
    return x.reshape((1, 1) + x.shape).astype(dtype)


def _same(actual, expected):
    """Equal values (NaN == NaN), whatever the singleton axes."""
    np.testing.assert_array_equal(np.asarray(actual).squeeze(),
                                  np.asarray(_num(expected), dtype=np.float64).squeeze())


R = {k: v["results"] for k, v in VECTORS.items()}


# --------------------------------------------------------------------------- the contract

CONTRACT = {
    "torch_max_pool": "(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, "
                      "return_indices=False)",
    "torch_avg_pool": "(x, kernel_size, stride=None, padding=0, ceil_mode=False, "
                      "count_include_pad=True, divisor_override=None)",
    "torch_adaptive_max_pool": "(x, output_size, return_indices=False)",
    "torch_adaptive_avg_pool": "(x, output_size)",
    "onnx_max_pool": "(x, kernel_shape, strides=None, pads=None, dilations=None, "
                     "auto_pad='NOTSET', ceil_mode=0, storage_order=0)",
    "onnx_average_pool": "(x, kernel_shape, strides=None, pads=None, dilations=None, "
                         "auto_pad='NOTSET', ceil_mode=0, count_include_pad=0)",
    "openvino_max_pool": "(x, strides, pads_begin, pads_end, kernel, dilations=None, "
                         "rounding_type='floor', auto_pad='explicit', index_element_type='i64', "
                         "axis=0)",
    "openvino_adaptive_max_pool": "(x, output_shape, index_element_type='i64')",
    "openvino_adaptive_avg_pool": "(x, output_shape)",
    "directml_max_pooling2": "(x, strides, window_size, start_padding, end_padding, dilations, "
                             "output_indices=True)",
    "tensorrt_pooling": "(x, window_size, stride, pre_padding=0, post_padding=0, "
                        "padding_mode='EXPLICIT_ROUND_DOWN', pooling_type='MAX', "
                        "average_count_excludes_padding=True, blend_factor=0.0)",
    "tensorflow_max_pool_with_argmax": "(x, ksize, strides, padding, "
                                       "include_batch_in_index=False)",
    # "More operators" of docs/api.md
    "openvino_avg_pool": "(x, strides, pads_begin, pads_end, kernel, exclude_pad, "
                         "rounding_type='floor', auto_pad='explicit')",
    "tensorflow_max_pool": "(x, ksize, strides, padding, data_format=None)",
    "tensorflow_avg_pool": "(x, ksize, strides, padding, data_format=None)",
}


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_signature_is_the_contracts(name):
    # every function adds the keyword-only follow="spec" of docs/api.md ("Spec and runtime"),
    # typed with the Literal alias pooltutor.rules.Follow (the contract is names and defaults)
    sig = inspect.signature(getattr(fw, name))
    plain = sig.replace(parameters=[p.replace(annotation=inspect.Parameter.empty)
                                    for p in sig.parameters.values()],
                        return_annotation=inspect.Signature.empty)
    assert str(plain) == CONTRACT[name][:-1] + ", *, follow='spec')"
    assert sig.parameters["follow"].annotation == "Follow"
    assert name in fw.__all__ and name in fw.ENGINE_RULES and name in fw.RUNTIME_RULES


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_follow_other_values_raise_value_error(name):
    func = getattr(fw, name)
    required = [p for p in inspect.signature(func).parameters.values()
                if p.default is inspect.Parameter.empty][1:]
    args = [2] * len(required)
    with pytest.raises(ValueError, match=r"follow='SPEC' is not allowed in " + name):
        func(np.ones((1, 1, 4, 4)), *args, follow="SPEC")
    with pytest.raises(ValueError, match=r"follow=None is not allowed"):
        func(np.ones((1, 1, 4, 4)), *args, follow=None)


@pytest.mark.parametrize("name, framework", [("directml_max_pooling2", "DirectML"),
                                             ("tensorrt_pooling", "TensorRT")])
def test_follow_runtime_of_unrunnable_frameworks_says_so(name, framework):
    with pytest.raises(ValueError, match=rf"follow='runtime' is not possible for {name}: "
                                         rf"{framework} cannot be run on this machine"):
        getattr(fw, name)(np.ones((1, 1, 4, 4)), 1, 2, 0, 0, 1, follow="runtime")


def test_runtime_versions_are_the_measured_ones():
    assert dict(fw.RUNTIME_VERSIONS) == {"onnxruntime": "1.32", "openvino": "2026.4",
                                         "tensorflow": "2.21", "torch": "2.13"}


def test_tensorrt_messages_name_window_size():
    x = np.zeros((1, 1, 4, 4))
    with pytest.raises(ValueError, match=r"^window_size=0 is not allowed: need an int >= 1"):
        fw.tensorrt_pooling(x, window_size=0, stride=1)
    with pytest.raises(ValueError, match=r"^window_size=9 \(F = \(9, 9\)\) does not fit the "
                                         r"padded input on axis 0"):
        fw.tensorrt_pooling(x, window_size=9, stride=1)
    with pytest.raises(ValueError, match=r"^window_size=\[9, 2\] \(F = \(9, 2\)\) does not "
                                         r"fit"):
        fw.tensorrt_pooling(x, window_size=[9, 2], stride=1, padding_mode="CAFFE_ROUND_UP")


@pytest.mark.parametrize("call, name", [
    (lambda x: fw.torch_max_pool(x, 9), "kernel_size"),
    (lambda x: fw.torch_avg_pool(x, 0), "kernel_size"),
    (lambda x: fw.onnx_max_pool(x, [9, 9]), "kernel_shape"),
    (lambda x: fw.onnx_average_pool(x, [2, 2], strides=[0, 1]), "strides"),
    (lambda x: fw.openvino_max_pool(x, 1, 0, 0, 9), "kernel"),
    (lambda x: fw.openvino_avg_pool(x, 1, 0, 0, 9, True), "kernel"),
    (lambda x: fw.openvino_avg_pool(x, 1, 2, 0, 2, True), "pads_begin"),
    (lambda x: fw.openvino_adaptive_max_pool(x, 0), "output_shape"),
    (lambda x: fw.directml_max_pooling2(x, 1, 9, 0, 0, 1), "window_size"),
    (lambda x: fw.directml_max_pooling2(x, 1, 2, -1, 0, 1), "start_padding"),
    (lambda x: fw.tensorflow_max_pool_with_argmax(x, 9, 1, "VALID"), "ksize"),
    (lambda x: fw.tensorflow_max_pool(x, 9, 1, "VALID"), "ksize"),
    (lambda x: fw.tensorflow_avg_pool(x, 2, 0, "SAME"), "strides"),
    (lambda x: fw.tensorflow_max_pool(x, 2, 1, "SAME", data_format="NCW"), "data_format"),
])
def test_every_dialect_names_its_own_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}="):
        call(np.zeros((1, 2, 4, 4)))


def test_every_public_function_is_in_the_contract():
    public = {n for n in fw.__all__ if callable(getattr(fw, n))}
    assert public == set(CONTRACT)


def test_engine_rules_are_valid_engine_choices():
    """The fixed rules each dialect hands to the engine are real engine choices."""
    choices = dict(pad_taps=pooling.PAD_TAPS, empty_value=pooling.EMPTY_VALUES,
                   empty_index=pooling.EMPTY_INDICES, nan_policy=pooling.NAN_POLICIES,
                   ties=pooling.TIES)
    for name, rules in fw.ENGINE_RULES.items():
        for key, value in rules.items():
            if key in choices:
                assert value in choices[key], (name, key, value)
        if "ties" in rules:
            assert rules["ties"] == "first", name          # the contract: first, everywhere
    with pytest.raises(TypeError):
        fw.ENGINE_RULES["torch_max_pool"]["ties"] = "last"  # read-only


def test_docs_page_lists_every_dialect_and_its_engine_rules(repo_root):
    page = (repo_root / "docs" / "frameworks.md").read_text(encoding="utf-8")
    for name, rules in fw.ENGINE_RULES.items():
        assert f"`{name}`" in page or f"{name}(" in page, name
        for key, value in rules.items():
            if key in ("pad_taps", "empty_value", "empty_index", "nan_policy"):
                assert f'{key}="{value}"' in page, (name, key, value)


# --------------------------------------------------------------------------- 4.1 ceil rules


def test_tv01_all_rules_agree():
    x = _x("TV01")
    want_y, want_i = R["TV01"]["torch"]["Y"], R["TV01"]["torch"]["I"]
    y, i = fw.torch_max_pool(x, 2, 2, ceil_mode=True, return_indices=True)
    _same(y, want_y), _same(i, want_i)
    y, i = fw.onnx_max_pool(x, [2], [2], ceil_mode=1)
    _same(y, R["TV01"]["onnx"]["ort"]["Y"]), _same(i, want_i)
    for rounding in ("ceil", "ceil_torch"):
        y, i = fw.openvino_max_pool(x, 2, 0, 0, 2, rounding_type=rounding)
        _same(y, want_y), _same(i, want_i)
    _same(fw.tensorrt_pooling(x, 2, 2, padding_mode="EXPLICIT_ROUND_UP"), want_y)


def test_tv02_ceil_rules_2d():
    x = _x("TV02")
    r = R["TV02"]
    y, i = fw.torch_max_pool(x, 2, 2, 1, ceil_mode=True, return_indices=True)
    _same(y, r["torch"]["Y"]), _same(i, r["torch"]["I"])
    y, i = fw.onnx_max_pool(x, [2, 2], [2, 2], [1, 1, 1, 1], ceil_mode=1)
    _same(y, r["onnx"]["ort"]["Y"]), _same(i, r["onnx"]["ort"]["I"])
    derived = r["derived OV ceil_torch / TRT CAFFE_ROUND_UP(B=1)"]
    y, i = fw.openvino_max_pool(x, 2, 1, 1, 2, rounding_type="ceil_torch")
    _same(y, derived["Y"]), _same(i, derived["I"])
    with pytest.warns(PaddingModeWarning, match="Restriction 1"):   # B + S >= F + 1
        _same(fw.tensorrt_pooling(x, 2, 2, 1, padding_mode="CAFFE_ROUND_UP"), derived["Y"])
    raw = r["derived OV ceil (MaxPool-8/14 'ceil') / TRT EXPLICIT_ROUND_UP"]
    y, i = fw.openvino_max_pool(x.astype(np.float32), 2, 1, 1, 2, rounding_type="ceil")
    assert y.shape[2:] == tuple(raw["shape"])
    _same(y, raw["Y"]), _same(i, raw["I(OV ref)"])
    # TensorRT: the same 3x3, padding is -inf there
    trt = fw.tensorrt_pooling(x, 2, 2, 1, 1, padding_mode="EXPLICIT_ROUND_UP")
    _same(trt, np.where(np.array(_num(raw["Y"])) == L32, -np.inf, _num(raw["Y"])))


def test_tv03_tv04_raw_ceil_vs_clip():
    x = _x("TV03", np.float32)
    torch_y, torch_i = R["TV03"]["torch"]["Y"], R["TV03"]["torch"]["I"]
    y, i = fw.torch_max_pool(x, 2, 2, 1, ceil_mode=True, return_indices=True)
    _same(y, torch_y), _same(i, torch_i)
    y, i = fw.openvino_max_pool(x, 2, 1, 1, 2, rounding_type="ceil")
    ov = R["TV03"]["derived ceil (OV ceil / TRT EXPLICIT_ROUND_UP)"]
    _same(y, ov["Y"]), _same(i, ov["I"])
    _same(fw.tensorrt_pooling(x, 2, 2, 1, 1, "EXPLICIT_ROUND_UP"), [1, 3, 5, -np.inf])
    with pytest.warns(PaddingModeWarning, match="Restriction 1"):
        assert fw.tensorrt_pooling(x, 2, 2, 1, 1, "CAFFE_ROUND_UP").shape[2] == \
            R["TV03"]["derived TRT CAFFE_ROUND_UP B=1"]["O"][0]
    # TV04: the clip fires without padding (K < S)
    x = _x("TV04", np.float32)
    y, i = fw.torch_max_pool(x, 1, 2, ceil_mode=True, return_indices=True)
    _same(y, R["TV04"]["torch"]["Y"]), _same(i, R["TV04"]["torch"]["I"])
    y, i = fw.onnx_max_pool(x, [1], [2], ceil_mode=1)
    _same(y, R["TV04"]["onnx"]["ort"]["Y"])
    y, i = fw.openvino_max_pool(x, 2, 0, 0, 1, rounding_type="ceil")
    assert y.shape[2] == R["TV04"]["derived ceil (OV ceil / TRT EXPLICIT_ROUND_UP)"]["O"]
    _same(y, [1, 3, 5, L32]), _same(i, [0, 2, 4, 0])      # 4th window: past the input
    with pytest.warns(PaddingModeWarning, match="Restriction 1"):
        assert fw.tensorrt_pooling(x, 1, 2, padding_mode="CAFFE_ROUND_UP").shape[2] == \
            R["TV04"]["derived TRT CAFFE_ROUND_UP B=0"]["O"]


def test_tv05_tensorrt_example_1():
    x = _x("TV05")
    r = R["TV05"]
    for mode in ("EXPLICIT_ROUND_DOWN", "EXPLICIT_ROUND_UP"):
        y = fw.tensorrt_pooling(x, 3, 2, pre_padding=3, post_padding=2, padding_mode=mode)
        assert y.shape[2] == r[mode]["O"]
        _same(y, [-np.inf, 2, 4, 6, 6])                  # TensorRT: padding is -inf
    _same(fw.tensorrt_pooling(x, 3, 2, 3, 2, "SAME_UPPER"), r["SAME_UPPER"]["Y"])
    _same(fw.tensorrt_pooling(x, 3, 2, 3, 2, "SAME_LOWER"), r["SAME_LOWER"]["Y"])
    # 2-D, as in the header (the same in H and W)
    x2 = np.maximum.outer(np.arange(1.0, 7.0), np.arange(1.0, 7.0))[None, None]
    y2 = fw.tensorrt_pooling(x2, 3, 2, 3, 2, "EXPLICIT_ROUND_DOWN")
    _same(np.diagonal(y2[0, 0]), [-np.inf, 2, 4, 6, 6])
    # OpenVINO with the same explicit pads: the spec's "OV-style" lowest value
    y, i = fw.openvino_max_pool(x.astype(np.float32), 2, 3, 2, 3)
    _same(y, r["EXPLICIT_ROUND_DOWN"]["Y(derived, OV-style)"]), _same(i, [0, 1, 3, 5, 5])
    # ONNX: the spec allows pads >= kernel; empty window -inf / -1 (ORT refuses the model)
    y, i = fw.onnx_max_pool(x, [3], [2], [3, 2])
    _same(y, [-np.inf, 2, 4, 6, 6]), _same(i, r["onnx (pads=[3,2], floor)"]["ref"]["I"])


def test_tv06_tensorrt_example_2_caffe_modes_warn():
    x = _x("TV06")
    r = R["TV06"]
    for mode in ("CAFFE_ROUND_DOWN", "CAFFE_ROUND_UP"):
        with pytest.warns(PaddingModeWarning, match="Restriction 1"):
            y = fw.tensorrt_pooling(x, 3, 2, pre_padding=3, post_padding=3, padding_mode=mode)
        assert y.shape[2] == r[mode]["O,err"][0]
        _same(y, [-np.inf, 2, 4, 6, 6])
    y = fw.tensorrt_pooling(x, 3, 2, 3, 3, "EXPLICIT_ROUND_UP")
    assert y.shape[2] == r["EXPLICIT_ROUND_UP (no clip)"]["O"]
    assert y[0, 0, -1] == -np.inf                          # starts at input 7: padding only


def test_tv07_tv08_dilation():
    x = _x("TV07", np.float32)
    y, i = fw.torch_max_pool(x, 2, 3, 1, 2, ceil_mode=True, return_indices=True)
    _same(y, R["TV07"]["torch"]["Y"]), _same(i, R["TV07"]["torch"]["I"])
    y, i = fw.onnx_max_pool(x, [2], [3], [1, 1], [2], ceil_mode=1)
    _same(y, R["TV07"]["onnx"]["ort"]["Y"]), _same(i, R["TV07"]["onnx"]["ort"]["I"])
    y, i = fw.openvino_max_pool(x, 3, 1, 1, 2, dilations=2, rounding_type="ceil")
    ov = R["TV07"]["derived ceil (OV ceil)"]
    _same(y, ov["Y"]), _same(i, ov["I"])
    # TV08: DirectML with the dilated window: 5 outputs, not the doc formula's 6
    x = _x("TV08")
    want_y, want_i = R["TV08"]["torch"]["Y"], R["TV08"]["torch"]["I"]
    y, i = fw.directml_max_pooling2(x[:, :, None, :], (1, 1), (1, 2), (0, 1), (0, 1), (1, 2))
    assert y.shape[-1] == R["TV08"]["DirectMLX / real (dilated window)"]["O"] != \
        R["TV08"]["DirectML doc formula (no dilation)"]["O"]
    _same(y, want_y), _same(i, want_i)
    assert i.dtype == np.uint32
    for y, i in (fw.torch_max_pool(x, 2, 1, 1, 2, return_indices=True),
                 fw.onnx_max_pool(x, [2], [1], [1, 1], [2]),
                 fw.openvino_max_pool(x, 1, 1, 1, 2, dilations=2)):
        _same(y, want_y), _same(i, want_i)


def test_tv08b_dilation_2d():
    x = _x("TV08b")
    want_y, want_i = R["TV08b"]["torch"]["Y"], R["TV08b"]["torch"]["I"]
    for y, i in (fw.torch_max_pool(x, 2, 1, 1, 2, return_indices=True),
                 fw.onnx_max_pool(x, [2, 2], [1, 1], [1, 1, 1, 1], [2, 2]),
                 fw.openvino_max_pool(x, 1, 1, 1, 2, dilations=[2, 2], axis=2),
                 fw.directml_max_pooling2(x, 1, 2, 1, 1, 2)):
        _same(y, want_y), _same(i, want_i)


def test_tv39_valid_with_ceil_mode():
    x = _parse(VECTORS["TV39"]["params"]["x"])
    r = R["TV39"]
    y, i = fw.onnx_max_pool(x, [2, 2], [2, 2], auto_pad="VALID", ceil_mode=1)
    assert y.shape[2:] == (1, 1) and r["ONNX spec text formula ceil((I-DK+1)/S)"] == 1
    spec = r["onnx MaxPool VALID ceil"]["ref"]          # onnx.reference follows the spec here
    _same(y, spec["Y"]), _same(i, spec["I"])
    assert fw.onnx_average_pool(x, [2, 2], [2, 2], auto_pad="VALID", ceil_mode=1).item() == 2.5
    y, i = fw.torch_max_pool(x, 2, 2, ceil_mode=True, return_indices=True)
    _same(y, r["torch ceil_mode pads 0"]["Y"]), _same(i, r["torch ceil_mode pads 0"]["I"])
    for rounding in ("ceil", "ceil_torch"):           # OpenVINO: Example 6 and the shape code
        y, i = fw.openvino_max_pool(x, 2, 0, 0, 2, rounding_type=rounding, auto_pad="valid")
        _same(y, r["onnx MaxPool VALID ceil"]["ort"]["Y"])
        _same(i, r["onnx MaxPool VALID ceil"]["ort"]["I"])


# --------------------------------------------------------------------------- 4.2 SAME


@pytest.mark.parametrize("vec_id", ["TV09", "TV10", "TV11", "TV12"])
def test_same_upper_and_lower(vec_id):
    x = _x(vec_id)
    p = VECTORS[vec_id]["params"]
    r = R[vec_id]
    for side, ov_side, upper in (("UPPER", "same_upper", True), ("LOWER", "same_lower", False)):
        want = r[f"spec {side}"]
        y, i = fw.onnx_max_pool(x, [p["K"]], [p["S"]], dilations=[p["D"]],
                                auto_pad=f"SAME_{side}")
        _same(y, want["Y"]), _same(i, want["I"])
        y, i = fw.openvino_max_pool(x, p["S"], 7, 7, p["K"], dilations=p["D"], auto_pad=ov_side)
        _same(y, want["Y"]), _same(i, want["I"])           # pads_begin / pads_end ignored
        if p["D"] == 1:                                    # TensorRT pooling has no dilation
            _same(fw.tensorrt_pooling(x, p["K"], p["S"], 5, 5, f"kSAME_{side}"), want["Y"])
        if upper:                                          # TensorFlow's SAME = SAME_UPPER
            if p["D"] == 1:
                y, a = fw.tensorflow_max_pool_with_argmax(x.reshape(1, 1, -1, 1), [1, p["K"]],
                                                          [1, p["S"]], "SAME")
                _same(y, want["Y"]), _same(a, want["I"])


def test_tv13_same_average_pool():
    x = _x("TV13")
    for side in ("UPPER", "LOWER"):
        for cip in (0, 1):
            want = R["TV13"][f"onnx SAME_{side} cip={cip}"]["ort"]["Y"]
            y = fw.onnx_average_pool(x, [2], auto_pad=f"SAME_{side}", count_include_pad=cip)
            _same(y, want)


def test_same_total_padding_clamps_at_zero():
    """The window shorter than the stride: no negative padding (the contract)."""
    x = np.arange(3.0).reshape(1, 1, 3)
    for side in ("SAME_UPPER", "SAME_LOWER"):
        _same(fw.onnx_max_pool(x, [1], [3], auto_pad=side)[0], [0])
        _same(fw.openvino_max_pool(x, 3, 0, 0, 1, auto_pad=side.lower())[0], [0])
        _same(fw.tensorrt_pooling(x, 1, 3, padding_mode=side), [0])
    y, _ = fw.tensorflow_max_pool_with_argmax(x.reshape(1, 1, 3, 1), [1, 1], [1, 3], "SAME")
    _same(y, [0])


# --------------------------------------------------------------------------- 4.3 divisors


def test_tv14_average_divisors():
    x = _x("TV14")
    r = R["TV14"]
    _same(fw.torch_avg_pool(x, 3, 2, 1, ceil_mode=True, count_include_pad=False), r["torch cip=0"])
    _same(fw.torch_avg_pool(x, 3, 2, 1, ceil_mode=True), r["torch cip=1"])
    _same(fw.onnx_average_pool(x, [3], [2], [1, 1], ceil_mode=1), r["onnx cip=0"]["ort"]["Y"])
    _same(fw.onnx_average_pool(x, [3], [2], [1, 1], ceil_mode=1, count_include_pad=1),
          r["onnx cip=1"]["ort"]["Y"])
    trt = r["derived TRT exclusive=false (denominator = overlap with padded input)"]
    _same(fw.tensorrt_pooling(x, 3, 2, 1, 1, "EXPLICIT_ROUND_UP", "AVERAGE",
                              average_count_excludes_padding=False), trt)
    _same(fw.tensorrt_pooling(x, 3, 2, 1, 1, "EXPLICIT_ROUND_UP", "AVERAGE"), r["torch cip=0"])
    # nobody divides by the full kernel
    assert fw.torch_avg_pool(x, 3, 2, 1, ceil_mode=True)[0, 0, -1] != \
        r["derived 'divide by full K' (not used by torch/ORT/TRT)"][-1]


# --------------------------------------------------------------------------- 4.4 ties, NaN, empty


def test_tv15_ties_first_in_every_dialect():
    x = _x("TV15")
    want_y, want_i = R["TV15"]["torch"]["Y"], R["TV15"]["torch"]["I"]
    results = [fw.torch_max_pool(x, 2, 1, return_indices=True), fw.onnx_max_pool(x, [2]),
               fw.openvino_max_pool(x, 1, 0, 0, 2),
               fw.directml_max_pooling2(x[:, :, None], 1, (1, 2), 0, 0, 1),
               fw.tensorflow_max_pool_with_argmax(x.reshape(1, 1, 4, 1), [1, 2], 1, "VALID")]
    for y, i in results:
        _same(y, want_y), _same(i, want_i)
    _same(fw.tensorrt_pooling(x, 2, 1), want_y)


def test_tv16_storage_order_reports_the_row_major_winner():
    x = _x("TV16")
    r = R["TV16"]
    assert fw.torch_max_pool(x, 2, return_indices=True)[1].item() == r["torch"]["I"]
    assert fw.onnx_max_pool(x, [2, 2], [2, 2])[1].item() == r["onnx so=0 (stride 2)"]["ort"]["I"]
    assert fw.onnx_max_pool(x, [2, 2], [2, 2], storage_order=1)[1].item() == \
        r["onnx so=1 (stride 2)"]["ort"]["I"] == 2
    assert fw.onnx_max_pool(x, [2, 2], [1, 1], storage_order=1)[1].item() == 2
    assert fw.openvino_max_pool(x, 2, 0, 0, 2)[1].item() == 1


@pytest.mark.parametrize("vec_id, kernel, stride", [("TV17", 2, 2), ("TV18", 4, 1), ("TV19", 2, 2)])
def test_nan_torch_propagates_last_openvino_ignores(vec_id, kernel, stride):
    x = _x(vec_id)
    ndim = x.ndim - 2
    want = R[vec_id]["torch"]
    y, i = fw.torch_max_pool(x, kernel, stride, return_indices=True)
    _same(y, want["Y"]), _same(i, want["I"])
    y, i = fw.onnx_max_pool(x, [kernel] * ndim, [stride] * ndim)      # pooltutor's ONNX choice
    _same(y, want["Y"]), _same(i, want["I"])
    ov = {"TV17": ([1, 2, 5], [1, 2, 4]), "TV18": ([2], [2]), "TV19": ([3], [2])}[vec_id]
    y, i = fw.openvino_max_pool(x, stride, 0, 0, kernel)
    _same(y, ov[0]), _same(i, ov[1])
    if vec_id == "TV17":
        _same(R[vec_id]["derived OpenVINO reference"]["Y"], ov[0])


def test_tv20_window_of_padding_only():
    x = _x("TV20", np.float32)
    for y, i in (fw.torch_max_pool(x, 2, 1, 1, 3, return_indices=True),
                 fw.onnx_max_pool(x, [2], [1], [1, 1], [3])):
        _same(y, [-np.inf]), _same(i, [-1])
    assert fw.onnx_average_pool(x, [2], [1], [1, 1], [3]).item() == \
        R["TV20"]["onnx AveragePool cip=0"]["ort"]["Y"]
    assert fw.onnx_average_pool(x, [2], [1], [1, 1], [3], count_include_pad=1).item() == 0
    y, i = fw.openvino_max_pool(x, 1, 1, 1, 2, dilations=3)
    ov = R["TV20"]["derived OpenVINO reference"]
    _same(y, ov["Y"]), _same(i, ov["I"])
    y, i = fw.directml_max_pooling2(x[:, :, None], 1, (1, 2), (0, 1), (0, 1), (1, 3))
    _same(y, [-np.inf]), _same(i, [np.iinfo(np.uint32).max])      # -1 written as UINT32


def test_openvino_plane_start_in_every_layout():
    """An empty OpenVINO window points at its plane's first element, as the axis counts it."""
    x = np.arange(8.0, dtype=np.float32).reshape(2, 2, 2)          # N=2, C=2, L=2
    for axis, want in ((0, [[[0], [2]], [[4], [6]]]), (1, [[[0], [2]], [[0], [2]]]),
                       (2, [[[0], [0]], [[0], [0]]]), (-1, [[[0], [0]], [[0], [0]]])):
        y, i = fw.openvino_max_pool(x, 1, 1, 1, 2, dilations=3, axis=axis)
        assert y.ravel().tolist() == [L32] * 4
        assert i.tolist() == want


def test_tv21_minus_inf_next_to_padding():
    x = _x("TV21", np.float32)
    for y, i in (fw.torch_max_pool(x, 2, 2, 1, return_indices=True),
                 fw.onnx_max_pool(x, [2], [2], [1, 1])):
        _same(y, R["TV21"]["torch"]["Y"]), _same(i, R["TV21"]["torch"]["I"])
    y, i = fw.openvino_max_pool(x, 2, 1, 1, 2)
    ov = R["TV21"]["derived OpenVINO reference (init lowest, strict >)"]
    _same(y, ov["Y"]), _same(i, ov["I"])
    assert fw.tensorrt_pooling(x, 2, 2, 1, 1)[0, 0, 0] == -np.inf


def test_openvino_value_never_below_lowest():
    """An input -inf, an input lowest() or all NaN: lowest() at the plane start."""
    x = np.array([[[1.0, -np.inf, L32, np.nan, np.nan, 2.0]]], dtype=np.float32)
    y, i = fw.openvino_max_pool(x, 1, 0, 0, 1)
    _same(y, [1, L32, L32, L32, L32, 2]), _same(i, [0, 0, 0, 0, 0, 5])
    xi = np.array([[[-128, 5, -128]]], dtype=np.int8)
    y, i = fw.openvino_max_pool(xi, 1, 0, 0, 1, index_element_type="i32")
    assert y.dtype == np.int8 and i.dtype == np.int32
    assert y.ravel().tolist() == [-128, 5, -128] and i.ravel().tolist() == [0, 1, 0]


# --------------------------------------------------------------------------- 4.5 index layouts


def _tv22():
    x = _parse(VECTORS["TV22"]["params"]["x"])
    return x, R["TV22"]


def test_tv22_index_layouts():
    x, r = _tv22()
    values = r["values"]
    y, i = fw.torch_max_pool(x, 2, 1, return_indices=True)
    _same(y.ravel(), values), _same(i.ravel(), r["torch (per plane, h*W+w)"])
    y, i = fw.onnx_max_pool(x, [2, 2])
    _same(y.ravel(), values), _same(i.ravel(), r["ONNX storage_order=0 (ORT)"])
    _same(fw.onnx_max_pool(x, [2, 2], storage_order=1)[1].ravel(), r["ONNX storage_order=1 (ORT)"])
    _same(fw.openvino_max_pool(x, 1, 0, 0, 2)[1].ravel(),
          r["OpenVINO MaxPool-8/14 axis=0 (derived = ONNX so=0)"])
    _same(fw.openvino_max_pool(x, 1, 0, 0, 2, axis=2)[1].ravel(),
          r["OpenVINO axis=2 / AdaptiveMaxPool (derived = per plane)"])
    _same(fw.openvino_max_pool(x, 1, 0, 0, 2, axis=1)[1].ravel(),
          np.array(r["ONNX storage_order=0 (ORT)"]) % 12)                  # modulo C*H*W
    y, i = fw.directml_max_pooling2(x, 1, 2, 0, 0, 1)
    _same(i.ravel(), r["DirectML (derived: whole tensor as flat NCHW array)"])
    nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    for batch, key in ((False, "TF NHWC include_batch_in_index=False (derived)"),
                       (True, "TF NHWC include_batch_in_index=True (derived)")):
        y, a = fw.tensorflow_max_pool_with_argmax(nhwc, 2, 1, "VALID", batch)
        assert y.shape == (2, 1, 2, 2) and a.shape == y.shape
        _same(a.transpose(0, 3, 1, 2).ravel(), r[key])
        _same(y.transpose(0, 3, 1, 2).ravel(), values)
        # the argmax really points at the maximum of the NHWC input
        flat = nhwc.ravel() if batch else nhwc.reshape(2, -1)
        got = flat[a.ravel()] if batch else np.array(
            [flat[n, a[n].ravel()] for n in range(2)]).ravel()
        _same(got, y.ravel())


def test_tv23_storage_order_3d():
    x = np.zeros((1, 1, 2, 3, 4))
    x[0, 0, 0, 1, 1] = 9
    r = R["TV23"]
    assert fw.onnx_max_pool(x, [2, 3, 4], [2, 3, 4])[1].item() == r["onnx so=0"]["ort"]["I"]
    assert fw.onnx_max_pool(x, [2, 3, 4], [2, 3, 4], storage_order=1)[1].item() == \
        r["onnx so=1"]["ort"]["I"]
    assert fw.torch_max_pool(x, (2, 3, 4), return_indices=True)[1].ravel().tolist() == r["torch"]
    assert fw.directml_max_pooling2(x, (2, 3, 4), (2, 3, 4), 0, 0, 1)[1].item() == 5


# --------------------------------------------------------------------------- 4.6 adaptive


@pytest.mark.parametrize("vec_id", ["TV24", "TV25", "TV26", "TV27"])
def test_adaptive_vectors(vec_id):
    x = _x(vec_id)
    out = VECTORS[vec_id]["params"]["out"]
    r = R[vec_id]
    y, i = fw.torch_adaptive_max_pool(x, out, return_indices=True)
    _same(y, r["max"]), _same(i, r["argmax (per plane)"])
    y, i = fw.openvino_adaptive_max_pool(x, [out])
    _same(y, r["max"]), _same(i, r["argmax (per plane)"])
    np.testing.assert_allclose(fw.torch_adaptive_avg_pool(x, out).ravel(), r["avg"])
    np.testing.assert_allclose(fw.openvino_adaptive_avg_pool(x, out).ravel(), r["avg"])


@pytest.mark.parametrize("vec_id", ["TV24", "TV25", "TV26", "TV27"])
def test_adaptive_export_workaround_as_onnx_average_pool(vec_id):
    """The export AveragePool(k=I-(O-1)*floor(I/O), s=floor(I/O)): exact only if I % O == 0.

    (TV26 is exact by coincidence: 10 % 3 != 0.)
    """
    x = _x(vec_id)
    out = VECTORS[vec_id]["params"]["out"]
    key = "export workaround AvgPool(k=I-(O-1)*floor(I/O), s=floor(I/O))"
    work = R[vec_id][key]
    y = fw.onnx_average_pool(x, [work["k"]], [work["s"]])
    want = work["avg"]
    np.testing.assert_allclose(y.ravel(), want, atol=5e-5)
    exact = np.allclose(y.ravel(), fw.torch_adaptive_avg_pool(x, out).ravel())
    assert exact == (vec_id in ("TV26", "TV27"))          # TV26: a coincidence


def test_tv28_adaptive_2d_per_plane_indices():
    c0 = np.arange(25.0).reshape(5, 5)
    x = np.stack([c0, 100 - c0])[None]
    r = R["TV28"]
    for y, i in (fw.torch_adaptive_max_pool(x, 3, return_indices=True),
                 fw.openvino_adaptive_max_pool(x, [3, 3], index_element_type="i32")):
        _same(y[0, 0], r["max c0"]), _same(i[0, 0], r["idx c0"])
        _same(y[0, 1], r["max c1"]), _same(i[0, 1], r["idx c1"])
    assert i.dtype == np.int32


def test_openvino_adaptive_nan_ignored_and_all_nan_bin():
    x = np.array([[[np.nan, 1.0, np.nan, np.nan, 3.0]]])
    y, i = fw.openvino_adaptive_max_pool(x, 3)      # bins [0,2) [1,4) [3,5)
    _same(y, [1, 1, 3]), _same(i, [1, 1, 4])
    y, i = fw.openvino_adaptive_max_pool(np.array([[[1.0, np.nan, np.nan]]]), 3)
    _same(y, [1, np.nan, np.nan]), _same(i, [0, 1, 2])   # all-NaN bin: its first element
    y, i = fw.torch_adaptive_max_pool(x, 3, return_indices=True)
    _same(y, [np.nan, np.nan, np.nan]), _same(i, [0, 3, 3])   # torch: the last NaN wins


# --------------------------------------------------------------------------- dtypes, inputs


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int32"])
def test_max_pools_keep_the_dtype_and_never_touch_the_input(dtype):
    x = (np.arange(24) % 7).astype(dtype).reshape(1, 2, 3, 4)
    before = x.copy()
    nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    outs = [
        (fw.torch_max_pool(x, 2, 1, 1, return_indices=True), np.int64),
        (fw.onnx_max_pool(x, [2, 2], pads=[1, 1, 1, 1]), np.int64),
        (fw.openvino_max_pool(x, 1, 1, 1, 2), np.int64),
        (fw.openvino_max_pool(x, 1, 1, 1, 2, index_element_type="i32"), np.int32),
        (fw.directml_max_pooling2(x, 1, 2, 1, 1, 1), np.uint32),
        (fw.tensorflow_max_pool_with_argmax(nhwc, 2, 1, "SAME"), np.int64),
        (fw.torch_adaptive_max_pool(x, 2, return_indices=True), np.int64),
        (fw.openvino_adaptive_max_pool(x, 2), np.int64),
    ]
    for (y, idx), idx_dtype in outs:
        assert y.dtype == x.dtype and idx.dtype == idx_dtype
        assert not np.shares_memory(y, x) and not np.shares_memory(idx, x)
    assert fw.tensorrt_pooling(x, 2, 1, 1, 1).dtype == x.dtype
    # averages: floats keep their dtype, integers give float64
    avg_dtype = x.dtype if x.dtype.kind == "f" else np.float64
    for y in (fw.torch_avg_pool(x, 2), fw.onnx_average_pool(x, [2, 2]),
              fw.torch_adaptive_avg_pool(x, 2), fw.openvino_adaptive_avg_pool(x, 2),
              fw.tensorrt_pooling(x, 2, 1, pooling_type="AVERAGE"),
              fw.tensorrt_pooling(x, 2, 1, pooling_type="MAX_AVERAGE_BLEND", blend_factor=0.5)):
        assert y.dtype == avg_dtype
    np.testing.assert_array_equal(x, before)
    # integers: the empty window is the dtype's lowest value
    if x.dtype.kind in "iu":
        y, i = fw.onnx_max_pool(x, [2, 2], dilations=[4, 5], pads=[1, 1, 1, 1])
        assert y[0, 0, 0, 0] == np.iinfo(x.dtype).min and i[0, 0, 0, 0] == -1


def test_one_by_one_pool_returns_a_new_array():
    x = np.arange(6.0).reshape(1, 1, 6)
    y = fw.torch_max_pool(x, 1)
    y[...] = -1
    assert x.tolist() == [[[0, 1, 2, 3, 4, 5]]]


def test_python_lists_are_accepted():
    y, i = fw.onnx_max_pool([[[1, 3, 2]]], [2])
    assert y.tolist() == [[[3, 3]]] and i.tolist() == [[[1, 1]]]


# --------------------------------------------------------------------------- TensorRT


def test_tensorrt_pooling_types_and_blend():
    x = np.array([[[1.0, 5.0, 3.0, 3.0]]])
    mx = fw.tensorrt_pooling(x, 2, 2)
    av = fw.tensorrt_pooling(x, 2, 2, pooling_type="kAVERAGE")
    _same(mx, [5, 3]), _same(av, [3, 3])
    _same(fw.tensorrt_pooling(x, 2, 2, pooling_type="max_average_blend", blend_factor=0.25),
          [0.75 * 5 + 0.25 * 3, 3])
    _same(fw.tensorrt_pooling(x, 2, 2, pooling_type="MAX_AVERAGE_BLEND"), mx)
    _same(fw.tensorrt_pooling(x, 2, 2, pooling_type="MAX_AVERAGE_BLEND", blend_factor=1), av)
    # a window of padding only: max -inf, average 0, blend -inf (no 0 * inf = NaN)
    args = (x, 2, 2, 2, 0)
    assert fw.tensorrt_pooling(*args)[0, 0, 0] == -np.inf
    assert fw.tensorrt_pooling(*args, pooling_type="AVERAGE")[0, 0, 0] == 0
    assert fw.tensorrt_pooling(*args, pooling_type="MAX_AVERAGE_BLEND",
                               blend_factor=0.5)[0, 0, 0] == -np.inf
    assert fw.tensorrt_pooling(*args, pooling_type="MAX_AVERAGE_BLEND",
                               blend_factor=1.0)[0, 0, 0] == 0


def test_tensorrt_accepts_the_enum_and_any_spelling():
    x = np.arange(36.0).reshape(1, 1, 6, 6)
    a = fw.tensorrt_pooling(x, 3, 2, 1, 1, PaddingMode.SAME_LOWER)
    for spelling in ("SAME_LOWER", "same_lower", "kSAME_LOWER", "same-lower"):
        np.testing.assert_array_equal(fw.tensorrt_pooling(x, 3, 2, 1, 1, spelling), a)


def test_tensorrt_uses_the_padding_mode_table():
    """Each mode's rule comes from tensorrt.output_geometry (no second copy)."""
    from pooltutor.tensorrt import MODE_RULES, output_geometry

    x = np.arange(7.0).reshape(1, 1, 7)
    for mode, rule in MODE_RULES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PaddingModeWarning)
            g = output_geometry(7, 3, 2, pre_padding=1, post_padding=2, padding_mode=mode)
            y = fw.tensorrt_pooling(x, 3, 2, 1, 2, mode)
        assert y.shape[2:] == g.output_size, mode
        pairs = tuple(zip(g.pre_padding, g.post_padding, strict=True))
        want = pooling.max_pool(x, 3, 2, pairs, rounding=rule.pooling_rounding,
                                pad_taps="neg_inf").output
        np.testing.assert_array_equal(y, want)


# --------------------------------------------------------------------------- TensorFlow


def test_tensorflow_ksize_forms():
    x = np.arange(32.0).reshape(1, 4, 4, 2)
    ref = fw.tensorflow_max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    for ksize, strides in ((2, 2), ([2], [2]), ([2, 2], (2, 2)), (np.array([1, 2, 2, 1]), 2)):
        y, a = fw.tensorflow_max_pool_with_argmax(x, ksize, strides, "VALID")
        np.testing.assert_array_equal(y, ref[0])
        np.testing.assert_array_equal(a, ref[1])
    assert ref[0].shape == (1, 2, 2, 2) and ref[0].flags.c_contiguous


def test_tensorflow_same_pads_at_the_end():
    x = np.arange(1.0, 7.0).reshape(1, 1, 6, 1)            # TV09: pads (0, 1)
    y, a = fw.tensorflow_max_pool_with_argmax(x, [1, 3], [1, 2], "SAME")
    _same(y, R["TV09"]["spec UPPER"]["Y"]), _same(a, R["TV09"]["spec UPPER"]["I"])


# --------------------------------------------------------------------------- rejections

X3 = np.arange(10.0).reshape(1, 1, 10)
X4 = np.arange(25.0).reshape(1, 1, 5, 5)
X5 = np.arange(8.0).reshape(1, 1, 2, 2, 2)
NHWC = np.arange(32.0).reshape(1, 4, 4, 2)

REJECTIONS = [
    # PyTorch
    (fw.torch_max_pool, (X4, 3), dict(padding=2), ValueError, r"padding=2 .*half of kernel size"),
    (fw.torch_max_pool, (X4, 3), dict(padding=2, dilation=3), ValueError, "half of kernel size"),
    (fw.torch_max_pool, (X4, 3), dict(padding=[(1, 0), (1, 0)]), TypeError, "symmetric"),
    (fw.torch_max_pool, (X4, 0), {}, ValueError, "kernel_size=0"),
    (fw.torch_max_pool, (X4, 2.0), {}, TypeError, "kernel_size=2.0"),
    (fw.torch_max_pool, (X4, 2), dict(stride=0), ValueError, "stride=0"),
    (fw.torch_max_pool, (X4, 2), dict(dilation=[1, 2, 3]), ValueError, "dilation="),
    (fw.torch_max_pool, (X4, 7), {}, ValueError, "kernel_size=7 .*Output size is too small"),
    (fw.torch_max_pool, (X4, 2), dict(ceil_mode="yes"), TypeError, "ceil_mode="),
    (fw.torch_max_pool, (X4, 2), dict(return_indices=2), ValueError, "return_indices=2"),
    (fw.torch_avg_pool, (X4, 3), dict(padding=2), ValueError, "half of effective kernel size"),
    (fw.torch_avg_pool, (X4, 2), dict(divisor_override=0), ValueError, "divisor must be not zero"),
    (fw.torch_avg_pool, (X4, 2), dict(divisor_override=1.5), TypeError, "divisor_override=1.5"),
    (fw.torch_avg_pool, (X3, 2), dict(divisor_override=2), ValueError, "avg_pool1d has no"),
    (fw.torch_avg_pool, (X5, 3), dict(padding=1), ValueError, "smaller than kernel size"),
    (fw.torch_avg_pool, (X4, 2), dict(count_include_pad=None), TypeError, "count_include_pad="),
    (fw.torch_adaptive_max_pool, (X4, 0), {}, ValueError, "output_size=0 .*empty tensor"),
    (fw.torch_adaptive_max_pool, (X4, [2, 2, 2]), {}, ValueError, "output_size="),
    (fw.torch_adaptive_avg_pool, (X4, [None]), {}, ValueError, "output_size="),
    (fw.torch_max_pool, (np.zeros((2, 2)), 1), {}, ValueError, r"x has shape \(2, 2\)"),
    (fw.torch_max_pool, (np.array([[["a"]]]), 1), {}, TypeError, "x has dtype"),
    # ONNX
    (fw.onnx_max_pool, (X4, [2, 2]), dict(pads=[1, 1]), ValueError, "pads=.*needs 4"),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(pads=1), TypeError, "pads=1 .*list of 4 ints"),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(pads=[0, 0, -1, 0]), ValueError, "pads="),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(auto_pad="SAME"), ValueError,
     "auto_pad='SAME' .*'NOTSET', 'SAME_UPPER', 'SAME_LOWER', 'VALID'"),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(auto_pad="same_upper"), ValueError, "auto_pad="),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(auto_pad="VALID", pads=[0, 0, 0, 0]), ValueError,
     "cannot be used simultaneously"),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(storage_order=2), ValueError, "storage_order=2"),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(ceil_mode=2), ValueError, "ceil_mode=2"),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(strides=[0, 1]), ValueError, "strides="),
    (fw.onnx_max_pool, (X4, [2, 2]), dict(dilations=[1]), ValueError, "dilations="),
    (fw.onnx_max_pool, (X4, [6, 2]), {}, ValueError, r"kernel_shape=\[6, 2\] does not fit"),
    (fw.onnx_max_pool, (X3, [2]), dict(auto_pad="VALID", ceil_mode=1, strides=[20]), None, None),
    (fw.onnx_average_pool, (X4, [2, 2]), dict(count_include_pad=3), ValueError,
     "count_include_pad=3"),
    (fw.onnx_average_pool, (X4, [2, 2, 2]), {}, ValueError, "kernel_shape="),
    # OpenVINO
    (fw.openvino_max_pool, (X4, 1, 0, 0, 2), dict(rounding_type="round"), ValueError,
     "rounding_type='round' .*'floor', 'ceil', 'ceil_torch'"),
    (fw.openvino_max_pool, (X4, 1, 0, 0, 2), dict(auto_pad="NOTSET"), ValueError,
     "auto_pad=.*'explicit', 'same_upper', 'same_lower', 'valid'"),
    (fw.openvino_max_pool, (X4, 1, 0, 0, 2), dict(index_element_type="i16"), ValueError,
     "index_element_type="),
    (fw.openvino_max_pool, (X4, 1, 0, 0, 2), dict(axis=4), ValueError, r"axis=4 .*\[-4, 4\)"),
    (fw.openvino_max_pool, (X4, 1, 0, 0, 2), dict(axis=-5), ValueError, "axis=-5"),
    (fw.openvino_max_pool, (X4, 1, 0, 0, 2), dict(axis=1.0), TypeError, "axis=1.0"),
    (fw.openvino_max_pool, (X4, 1, -1, 0, 2), {}, ValueError, "pads_begin=-1"),
    (fw.openvino_max_pool, (X4, 1, 0, [0, 0, 0], 2), {}, ValueError, "pads_end="),
    (fw.openvino_max_pool, (X4, 0, 0, 0, 2), {}, ValueError, "strides=0"),
    (fw.openvino_max_pool, (X4, 1, 0, 0, 6), {}, ValueError, "kernel=6 does not fit"),
    (fw.openvino_adaptive_max_pool, (X4, [2]), {}, ValueError, "output_shape="),
    (fw.openvino_adaptive_max_pool, (X4, 2), dict(index_element_type="int64"), ValueError,
     "index_element_type="),
    (fw.openvino_adaptive_avg_pool, (X4, 0), {}, ValueError, "output_shape=0"),
    # DirectML
    (fw.directml_max_pooling2, (X3, 1, 2, 0, 0, 1), {}, ValueError, r"x has shape \(1, 1, 10\)"),
    (fw.directml_max_pooling2, (X4, 1, 0, 0, 0, 1), {}, ValueError, "window_size=0"),
    (fw.directml_max_pooling2, (X4, 1, 2, -1, 0, 1), {}, ValueError, "start_padding=-1"),
    (fw.directml_max_pooling2, (X4, 1, 2, 0, [0], 1), {}, ValueError, "end_padding="),
    (fw.directml_max_pooling2, (X4, 1, 2, 0, 0, 0), {}, ValueError, "dilations=0"),
    (fw.directml_max_pooling2, (X4, 1, 3, 0, 0, 3), {}, ValueError, "window_size=3 does not fit"),
    (fw.directml_max_pooling2, (X4, 1, 2, 0, 0, 1), dict(output_indices="no"), TypeError,
     "output_indices="),
    # TensorRT
    (fw.tensorrt_pooling, (X4, 2, 1), dict(padding_mode="SAME"), ValueError,
     "padding_mode='SAME'"),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(pooling_type="MIN"), ValueError,
     "pooling_type='MIN' .*'MAX', 'AVERAGE', 'MAX_AVERAGE_BLEND'"),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(pooling_type=0), TypeError, "pooling_type=0"),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(blend_factor=1.5), ValueError, "blend_factor=1.5"),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(blend_factor=float("nan")), ValueError,
     "blend_factor=nan"),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(blend_factor="half"), TypeError, "blend_factor="),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(average_count_excludes_padding=2), ValueError,
     "average_count_excludes_padding=2"),
    (fw.tensorrt_pooling, (X4, 2, 1), dict(pre_padding=-1), ValueError, "pre_padding="),
    (fw.tensorrt_pooling, (X4, 0, 1), {}, ValueError, "^window_size=0"),
    (fw.tensorrt_pooling, (X4, 9, 1), {}, ValueError, "does not fit"),
    (fw.tensorrt_pooling, (np.arange(6.0).reshape(1, 1, 6), 1, 1),
     dict(pre_padding=2, padding_mode="CAFFE_ROUND_DOWN"), ValueError,
     "padding_mode=CAFFE_ROUND_DOWN rejects"),
    # TensorFlow
    (fw.tensorflow_max_pool_with_argmax, (X5, 2, 2, "VALID"), {}, ValueError,
     r"x has shape \(1, 1, 2, 2, 2\).*NHWC"),
    (fw.tensorflow_max_pool_with_argmax, (X3, 2, 2, "VALID"), {}, ValueError, "NHWC"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, 2, 2, "same"), {}, ValueError,
     "padding='same' .*'SAME', 'VALID'"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, [2, 2, 2, 1], 2, "VALID"), {}, ValueError,
     "batch dimension"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, [1, 2, 2, 2], 2, "VALID"), {}, ValueError,
     "depth"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, [2, 2, 2], 2, "VALID"), {}, ValueError,
     "ksize=.*1, 2 or 4"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, 2, 0, "VALID"), {}, ValueError, "strides=0"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, 5, 1, "VALID"), {}, ValueError,
     "ksize=5 does not fit.*Computed output size would be negative"),
    (fw.tensorflow_max_pool_with_argmax, (NHWC, 2, 2, "VALID"),
     dict(include_batch_in_index="yes"), TypeError, "include_batch_in_index="),
]


@pytest.mark.parametrize("fn, args, kwargs, exc, match", REJECTIONS,
                         ids=[f"{r[0].__name__}-{i}" for i, r in enumerate(REJECTIONS)])
def test_bad_parameters_are_rejected_naming_them(fn, args, kwargs, exc, match):
    x = args[0]
    before = x.copy()
    if exc is None:                                  # a case that must *not* be rejected
        fn(*args, **kwargs)
        return
    with pytest.raises(exc, match=match):
        fn(*args, **kwargs)
    np.testing.assert_array_equal(x, before)


def test_ceil_window_overhanging_the_input_gives_one_output():
    y, idx = fw.onnx_max_pool(np.array([[[3.0]]]), [2], [2], ceil_mode=1)
    assert y.tolist() == [[[3.0]]] and idx.tolist() == [[[0]]]
    with pytest.raises(ValueError, match="kernel_shape=.*does not fit"):
        fw.onnx_max_pool(np.ones((1, 1, 1)), [2], [2], ceil_mode=0)     # floor: no window
    with pytest.raises(ValueError, match="Output size is too small"):
        fw.torch_max_pool(np.ones((1, 1, 1)), 2, 2)          # floor: PyTorch refuses too


def test_docs_page_examples_run(repo_root):
    import doctest

    result = doctest.testfile(str(repo_root / "docs" / "frameworks.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted >= 4 and result.failed == 0
