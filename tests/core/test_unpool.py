"""pooltutor.unpool: MaxUnpool in every index layout, ONNX's unchecked flat scatter, errors.

Cross-checks: PyTorch ``max_unpool1d/2d/3d`` (when torch is importable) for
per-plane indices, onnxruntime ``MaxUnpool`` for whole-tensor indices, and
the pitfall of feeding PyTorch's per-plane indices to ONNX MaxUnpool.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.indexing import INDEX_LAYOUTS, convert_indices
from pooltutor.pooling import max_pool
from pooltutor.unpool import flat_unpool, max_unpool
from pooltutor.viz.unpool import plot_unpool

TV22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                 [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=np.float32)


@st.composite
def pooled(draw):
    """A max pool (N, C <= 2, 1-3 spatial axes, any stride: windows may overlap) with its input."""
    ndim = draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, 5)) for _ in range(ndim)]
    kernel = [draw(st.integers(1, s)) for s in sizes]
    stride = [draw(st.integers(1, 3)) for _ in range(ndim)]
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2)), *sizes)
    values = draw(st.lists(st.integers(1, 6), min_size=int(np.prod(shape)),
                           max_size=int(np.prod(shape))))
    x = np.array(values, dtype=np.float64).reshape(shape)
    return x, max_pool(x, kernel, stride, return_indices=True)


def _expected_scatter(x, result):
    """Zeros with every winner's input value at its place: independent of unpool's code."""
    out = np.zeros_like(x)
    for pos in np.ndindex(*result.output.shape):
        n, c = pos[:2]
        spatial = np.unravel_index(int(result.indices[pos]), x.shape[2:])
        out[(n, c) + spatial] = x[(n, c) + spatial]
    return out


# --------------------------------------------------------------------------- values


def test_tv22_every_layout_puts_the_values_back_in_the_same_places():
    y, plane = max_pool(TV22, 2, 1, return_indices=True)
    want = np.zeros_like(TV22)
    # winners (TV22 indices per plane [1,1], [0,5], [0,1], [3,1]) hold 9, 7/6, 5/5, 3/2
    want[0, 0, 0, 1] = 9
    want[0, 1, 0, 0], want[0, 1, 1, 2] = 7, 6
    want[1, 0, 0, 0], want[1, 0, 0, 1] = 5, 5
    want[1, 1, 1, 0], want[1, 1, 0, 1] = 3, 2
    for layout in INDEX_LAYOUTS:
        idx = convert_indices(plane, TV22.shape, "plane", layout)
        got = max_unpool(y, idx, TV22.shape, layout)
        assert got.dtype == np.float32
        assert got.tolist() == want.tolist(), layout


@settings(max_examples=40)
@given(pooled(), st.sampled_from(INDEX_LAYOUTS))
def test_unpool_puts_each_winner_back_at_its_input_position(case, layout):
    x, r = case
    idx = convert_indices(r.indices, x.shape, "plane", layout)
    got = max_unpool(r.output, idx, x.shape, layout)
    np.testing.assert_array_equal(got, _expected_scatter(x, r))


@settings(max_examples=30)
@given(pooled())
def test_repooling_the_unpooled_tensor_gives_the_pooled_values_back(case):
    x, r = case
    g = r.geometry
    again = max_pool(max_unpool(r.output, r.indices, x.shape), g.kernel, g.stride)
    np.testing.assert_array_equal(again.output, r.output)


@settings(max_examples=30)
@given(pooled())
def test_flat_unpool_is_max_unpool_of_whole_tensor_indices(case):
    x, r = case
    tensor = convert_indices(r.indices, x.shape, "plane", "tensor")
    np.testing.assert_array_equal(flat_unpool(r.output, tensor, x.shape),
                                  max_unpool(r.output, tensor, x.shape, "tensor"))


def test_flat_unpool_of_per_plane_indices_piles_every_plane_into_the_first():
    # onnx/onnx#2398: PyTorch's indices fed to ONNX MaxUnpool
    y, plane = max_pool(TV22, 2, 1, return_indices=True)
    got = flat_unpool(y, plane, TV22.shape)
    assert np.count_nonzero(got[0, 1]) == np.count_nonzero(got[1]) == 0
    # plane (0,0) positions 0, 1, 3, 5 receive the last value written there, row-major order
    assert got[0, 0].tolist() == [[5, 2, 0], [3, 0, 6]]


def test_colmajor_indices_read_as_rowmajor_land_silently_on_the_wrong_cells():
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    y, colmajor = max_pool(x, 2, return_indices=True, index_layout="tensor_colmajor")
    right = max_unpool(y, colmajor, x.shape, "tensor_colmajor")
    wrong = max_unpool(y, colmajor, x.shape, "tensor")          # no error: still in the plane
    assert np.argwhere(right[0, 0]).tolist() == [[1, 1], [1, 3], [3, 1], [3, 3]]
    assert np.argwhere(wrong[0, 0]).tolist() == [[1, 1], [1, 3], [3, 1], [3, 3]]
    # the same cells, but transposed values: 13 where 7 belongs and vice versa
    assert right[0, 0, 1, 3] == 7 and wrong[0, 0, 1, 3] == 13


def test_minus_one_writes_nothing_and_conflicts_go_to_the_last_value():
    y = np.array([[[1.0, 2.0, 3.0]]])
    got = max_unpool(y, np.array([[[0, -1, 0]]]), (1, 1, 2))
    assert got.tolist() == [[[3.0, 0.0]]]                      # 3 written after 1
    got = flat_unpool(y, np.array([[[1, 1, -1]]]), (1, 1, 2))
    assert got.tolist() == [[[0.0, 2.0]]]


def test_empty_window_index_from_the_engine_is_skipped():
    x = np.array([[[5.0, 7.0]]], dtype=np.float32)               # TV20: no input tap
    r = max_pool(x, 2, 1, padding=1, dilation=3, return_indices=True)
    assert r.indices.tolist() == [[[-1]]]
    assert max_unpool(r.output, r.indices, x.shape).tolist() == [[[0.0, 0.0]]]


def test_inputs_are_not_modified_and_dtypes_kept():
    y = np.array([[[[3, 4]]]], dtype=np.int8)
    idx = np.array([[[[0, 3]]]], dtype=np.uint32)                # DirectML's index dtype
    y0, i0 = y.copy(), idx.copy()
    out = max_unpool(y, idx, (1, 1, 2, 2), "tensor")
    assert out.dtype == np.int8 and out.tolist() == [[[[3, 0], [0, 4]]]]
    assert out.base is None or out.base is not y
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(idx, i0)
    assert flat_unpool(y, idx, (1, 1, 2, 2)).dtype == np.int8


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("call, exc, match", [
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 3), int), (1, 1, 4)),
     PoolTutorError, r"indices has shape \(1, 1, 3\): need the shape of y, \(1, 1, 2\)"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 2)), (1, 1, 4)),
     PoolTutorTypeError, r"indices has dtype float64: need an integer array"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 2), int), (1, 2, 4)),
     PoolTutorError, r"input_shape=\(1, 2, 4\) does not fit y shaped \(1, 1, 2\)"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 2), int), (1, 1, 4, 4)),
     PoolTutorError, r"input_shape=\(1, 1, 4, 4\) does not fit y shaped \(1, 1, 2\)"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 2), int), (1, 1, 0)),
     PoolTutorError, r"input_shape=\(1, 1, 0\): every entry must be an int >= 1"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 2), int), 4),
     PoolTutorTypeError, r"input_shape=4 has type int"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.zeros((1, 1, 2), int), (1, 1, 4), "rows"),
     PoolTutorError, r"layout='rows' is not allowed: need one of 'plane', 'tensor'"),
    (lambda: max_unpool(np.zeros((1, 1, 2)), np.array([[[0, 4]]]), (1, 1, 4)),
     PoolTutorError, r"indices\[0, 0, 1\]=4 does not point into its own \(n, c\) plane"),
    (lambda: max_unpool(np.zeros((1, 1)), np.zeros((1, 1), int), (1, 1, 4)),
     PoolTutorError, r"y has shape \(1, 1\)"),
    (lambda: flat_unpool(np.zeros((1, 2, 1)), np.array([[[0], [8]]]), (1, 2, 4)),
     PoolTutorError, r"indices\[0, 1, 0\]=8 is outside the whole tensor shaped \(1, 2, 4\): "
                     r"need -1 or a position in \[0, 8\)"),
    (lambda: flat_unpool(np.zeros((1, 1, 1)), np.array([[[-2]]]), (1, 1, 4)),
     PoolTutorError, r"indices\[0, 0, 0\]=-2 is outside"),
])
def test_bad_input_is_refused_naming_the_parameter(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_errors_are_value_and_type_errors():
    assert issubclass(PoolTutorError, ValueError) and issubclass(PoolTutorTypeError, TypeError)


# --------------------------------------------------------------------------- plot


def test_plot_unpool_outlines_the_wrong_cells():
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    y, colmajor = max_pool(x, 2, return_indices=True, index_layout="tensor_colmajor")
    p = plot_unpool(x, {"right": max_unpool(y, colmajor, x.shape, "tensor_colmajor"),
                        "wrong": max_unpool(y, colmajor, x.shape, "tensor")},
                    reference="right")
    fig = p.figure
    assert p.wrong == {("wrong", 0): ((1, 3), (3, 1))} and p.axes.shape == (1, 3)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["input x  (n=0, c=0)", "right  (c=0)", "wrong  (c=0)\n2 cell(s) wrong"]
    wrong = [p for p in fig.axes[2].patches if p.get_gid() == "wrong"]
    assert sorted((p.get_x() + 0.5, p.get_y() + 0.5) for p in wrong) == [(1, 3), (3, 1)]
    assert not [p for p in fig.axes[1].patches if p.get_gid() == "wrong"]


def test_plot_unpool_one_row_per_channel_and_checks():
    y, plane = max_pool(TV22, 2, 1, return_indices=True)
    fig = plot_unpool(TV22, {"a": max_unpool(y, plane, TV22.shape)}, n=1).figure
    assert len(fig.axes) == 4 and fig.axes[2].get_title() == "input x  (n=1, c=1)"
    with pytest.raises(PoolTutorError, match=r"reference='b' is not one of the panel titles"):
        plot_unpool(TV22, {"a": TV22}, reference="b")
    with pytest.raises(PoolTutorError, match=r"panels\['a'\] has shape \(1, 2\)"):
        plot_unpool(TV22, {"a": np.zeros((1, 2))})
    with pytest.raises(PoolTutorError, match=r"n=2 is not allowed: need an int in \[0, 2\)"):
        plot_unpool(TV22, {"a": TV22}, n=2)
    with pytest.raises(PoolTutorTypeError, match="panels: need a non-empty mapping"):
        plot_unpool(TV22, {})
    from matplotlib.figure import Figure

    axes = Figure().subplots(2, 2)
    p = plot_unpool(TV22, {"a": max_unpool(y, plane, TV22.shape)}, ax=axes)
    assert p.axes[1, 1] is axes[1, 1] and p.axes[1, 1].get_title() == "a  (c=1)"
    with pytest.raises(PoolTutorTypeError, match=r"ax has shape \(2,\): need 2 row"):
        plot_unpool(TV22, {"a": TV22}, ax=axes[0])


# --------------------------------------------------------------------------- other runtimes


@pytest.mark.onnx
def test_flat_unpool_is_onnxruntime_maxunpool_even_with_the_wrong_indices():
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    node = helper.make_node("MaxUnpool", ["y", "i", "shape"], ["out"], kernel_shape=[2, 2],
                            strides=[1, 1])
    graph = helper.make_graph(
        [node], "unpool",
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2, 1, 2]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2, 2, 1, 2]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [4])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    y, plane = max_pool(TV22, 2, 1, return_indices=True)
    tensor = convert_indices(plane, TV22.shape, "plane", "tensor")
    shape = np.array(TV22.shape, dtype=np.int64)
    for idx in (tensor, plane):
        (want,) = sess.run(None, {"y": y, "i": idx, "shape": shape})
        np.testing.assert_array_equal(flat_unpool(y, idx, TV22.shape), want)
    (want,) = sess.run(None, {"y": y, "i": tensor, "shape": shape})
    np.testing.assert_array_equal(max_unpool(y, plane, TV22.shape, "plane"), want)


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.mark.torch
@settings(max_examples=15, deadline=None)
@given(case=pooled())
def test_max_unpool_matches_torch_max_unpool(torch, case):
    import torch.nn.functional as F

    x, r = case
    ndim = x.ndim - 2
    unpool = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}[ndim]
    g = r.geometry
    want = unpool(torch.from_numpy(r.output), torch.from_numpy(r.indices), g.kernel, g.stride,
                  output_size=x.shape[2:])
    np.testing.assert_array_equal(max_unpool(r.output, r.indices, x.shape), want.numpy())


def test_importing_unpool_pulls_in_no_plotting_library():
    import subprocess
    import sys

    code = ("import sys, pooltutor.unpool;"
            "print(','.join(m for m in ('matplotlib', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
