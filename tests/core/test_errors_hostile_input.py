"""Hostile input across the public API and the command line (issue 10).

One table, ``CORPUS``, of ``(id, callable, exception type, match regex)`` rows:
every invalid call raises ``ValueError`` or ``TypeError`` whose message names
the parameter, the value given and what is allowed (pinned with ``match=``),
before any work starts (each call is run under :mod:`tracemalloc` and may not
allocate more than a few MiB: an absurd size must be refused *before* the
array it would need exists).  ``CLI`` holds the ``pooltutor`` subcommands run
as subprocesses: exit status 2, one line on stderr, no traceback.

Rows that duplicate tests elsewhere are kept on purpose only where the
corpus would otherwise miss a public function; the engine's own parameter
matrix lives in tests/core/test_pooling_errors.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import matplotlib
import numpy as np
import pytest

from pooltutor import frameworks as fw
from pooltutor import geometry, quant
from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.indexing import convert_indices
from pooltutor.tensorrt import mode_geometry, output_geometry
from pooltutor.pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool
from pooltutor.unpool import flat_unpool, max_unpool
from pooltutor.viz.adaptive import plot_adaptive_bins
from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer
from pooltutor.viz.explorer import frames_widget
from pooltutor.viz.heatmaps import plot_pool, plot_pooling
from pooltutor.viz.index_explorer import IndexLayoutExplorer
from pooltutor.viz.indices import plot_index_layouts
from pooltutor.viz.padding_explorer import PaddingModeExplorer
from pooltutor.viz.padding_modes import plot_padding_modes
from pooltutor.viz.quant_chain import plot_quant_chain
from pooltutor.viz.relu_explorer import ZeroPointReluExplorer
from pooltutor.viz.selfcheck import SelfCheck, parse_answer
from pooltutor.viz.window_stepper import WindowStepper
from pooltutor.viz.zero_point import plot_zero_point_relu

matplotlib.use("Agg")

X = np.arange(16.0).reshape(1, 1, 4, 4)          # (N, C, H, W)
X1 = np.arange(4.0).reshape(1, 1, 4)             # one spatial axis
Q = np.arange(16, dtype=np.uint8).reshape(1, 1, 4, 4)
IDX = np.zeros((1, 1, 2, 2), dtype=np.int64)
ACC = np.zeros((2, 2), dtype=np.int32)
RESULT = max_pool(X, 2, return_indices=True)
CHAIN = quant.relu_max_pool_chain(np.arange(16, dtype=np.int32).reshape(4, 4), 1.0, 0)

VE, TE = ValueError, TypeError
#: "need one int or a sequence of 2 ints (one per spatial axis)" and its variants
PER_AXIS = r"need one int or a sequence of 2 ints \(one per spatial axis\)"
LAYOUTS = r"need one of 'plane', 'tensor', 'tensor_colmajor', 'nhwc', 'nhwc_batch'"
ABSURD = r"would need an array of shape .* GiB\); pooltutor refuses more than 2 GiB"


def _an_axes():
    from matplotlib.figure import Figure

    return Figure().add_subplot()


def _row(id_, call, error, match):
    return pytest.param(call, error, match, id=id_)


CORPUS = [
    # ------------------------------------------------------------------ PyTorch
    _row("torch_max_pool kernel_size=0", lambda: fw.torch_max_pool(X, 0), VE,
         r"kernel_size=0 is not allowed: need an int >= 1"),
    _row("torch_max_pool kernel_size=-3", lambda: fw.torch_max_pool(X, -3), VE,
         r"kernel_size=-3 is not allowed: need an int >= 1"),
    _row("torch_max_pool kernel_size float", lambda: fw.torch_max_pool(X, 2.5), TE,
         r"kernel_size=2\.5 has type float: " + PER_AXIS),
    _row("torch_max_pool kernel_size numpy float", lambda: fw.torch_max_pool(X, np.float64(2)),
         TE, r"kernel_size=np\.float64\(2\.0\) has type float64: " + PER_AXIS),
    _row("torch_max_pool kernel_size bool", lambda: fw.torch_max_pool(X, True), TE,
         r"kernel_size=True has type bool: " + PER_AXIS),
    _row("torch_max_pool kernel_size 3 entries", lambda: fw.torch_max_pool(X, [2, 2, 2]), VE,
         r"kernel_size=\[2, 2, 2\] has 3 entries: need one int or 2 \(one per spatial axis\)"),
    _row("torch_max_pool kernel_size no entries", lambda: fw.torch_max_pool(X, []), VE,
         r"kernel_size=\[\] has 0 entries: need one int or 2"),
    _row("torch_max_pool kernel_size 2-D array", lambda: fw.torch_max_pool(X, np.ones((1, 2))),
         VE, r"kernel_size has shape \(1, 2\): need one int or a 1-D sequence of 2"),
    _row("torch_max_pool kernel_size strings", lambda: fw.torch_max_pool(X, ["2", "2"]), TE,
         r"kernel_size=\['2', '2'\] contains '2' \(str\): need ints"),
    _row("torch_max_pool kernel larger than input", lambda: fw.torch_max_pool(X, 5), VE,
         r"kernel_size=5 does not fit x: on spatial axis 0 the dilated window .* = 5 is longer "
         r"than the padded input 4\+0\+0 = 4"),
    _row("torch_max_pool huge kernel_size", lambda: fw.torch_max_pool(X, 10**30), VE,
         r"kernel_size=10{30} does not fit x"),
    _row("torch_max_pool stride=0", lambda: fw.torch_max_pool(X, 2, 0), VE,
         r"stride=0 is not allowed: need an int >= 1"),
    _row("torch_max_pool dilation=-1", lambda: fw.torch_max_pool(X, 2, 1, 0, -1), VE,
         r"dilation=-1 is not allowed: need an int >= 1"),
    _row("torch_max_pool padding=-1", lambda: fw.torch_max_pool(X, 2, 1, -1), VE,
         r"padding=-1 is not allowed: need an int >= 0"),
    _row("torch_max_pool padding nan", lambda: fw.torch_max_pool(X, 2, 1, float("nan")), TE,
         r"padding=nan has type float: " + PER_AXIS),
    _row("torch_max_pool padding > kernel/2", lambda: fw.torch_max_pool(X, 2, padding=2), VE,
         r"padding=2 is not allowed: pad should be at most half of kernel size \(PyTorch\), "
         r"but got pad=2 and kernel_size=2 .* need padding <= kernel_size // 2 = 1"),
    _row("torch_max_pool ceil_mode=2", lambda: fw.torch_max_pool(X, 2, ceil_mode=2), VE,
         r"ceil_mode=2 is not allowed: need True or False"),
    _row("torch_max_pool return_indices str",
         lambda: fw.torch_max_pool(X, 2, return_indices="yes"), TE,
         r"return_indices='yes' has type str: need True or False"),
    _row("torch_max_pool x rank 2", lambda: fw.torch_max_pool(X[0, 0], 2), VE,
         r"x has shape \(4, 4\) \(rank 2\): need rank 3 to 5, shaped \(N, C, \*spatial\) with "
         r"1 to 3 spatial axes"),
    _row("torch_max_pool x rank 6", lambda: fw.torch_max_pool(X.reshape(1, 1, 1, 1, 4, 4), 2),
         VE, r"x has shape \(1, 1, 1, 1, 4, 4\) \(rank 6\): need rank 3 to 5"),
    _row("torch_max_pool x empty axis", lambda: fw.torch_max_pool(np.zeros((1, 0, 4, 4)), 2), VE,
         r"x has shape \(1, 0, 4, 4\): every axis must have length >= 1"),
    _row("torch_max_pool x object", lambda: fw.torch_max_pool(X.astype(object), 2), TE,
         r"x has dtype object: need a real numeric dtype \(float16/32/64, int8/16/32/64 or "
         r"uint8/16/32/64\)"),
    _row("torch_max_pool x strings", lambda: fw.torch_max_pool(np.array([[["a", "b"]]]), 1), TE,
         r"x has dtype <U1: need a real numeric dtype"),
    _row("torch_max_pool x bool", lambda: fw.torch_max_pool(np.ones((1, 1, 2), bool), 1), TE,
         r"x has dtype bool: need a real numeric dtype"),
    _row("torch_max_pool x complex", lambda: fw.torch_max_pool(np.ones((1, 1, 2), complex), 1),
         TE, r"x has dtype complex128: need a real numeric dtype"),
    _row("torch_max_pool x datetime",
         lambda: fw.torch_max_pool(np.ones((1, 1, 2), "M8[s]"), 1), TE,
         r"x has dtype datetime64\[s\]: need a real numeric dtype"),
    _row("torch_max_pool x None", lambda: fw.torch_max_pool(None, 1), TE,
         r"x has dtype object: need a real numeric dtype"),
    _row("torch_max_pool x masked array",
         lambda: fw.torch_max_pool(np.ma.masked_array(X, mask=X > 10), 2), TE,
         r"x is a numpy\.ma\.MaskedArray: pooltutor pools every element .* pass x\.filled"),
    _row("torch_max_pool x ragged list", lambda: fw.torch_max_pool([[[1, 2], [3]]], 1), TE,
         r"x could not be read as a numeric array \(.*inhomogeneous.*\); need a numpy array "
         r"shaped \(N, C, \*spatial\)"),
    _row("torch_max_pool absurd padding", lambda: fw.torch_max_pool(X1, 2 * 10**9 + 1, 1,
                                                                    10**9), VE,
         r"padding=.*1000000000.* " + ABSURD),
    _row("torch_avg_pool divisor_override=0", lambda: fw.torch_avg_pool(X, 2, divisor_override=0),
         VE, r"divisor_override=0 is not allowed: divisor must be not zero \(PyTorch\); need a "
             r"non-zero int or None"),
    _row("torch_avg_pool divisor_override float",
         lambda: fw.torch_avg_pool(X, 2, divisor_override=2.0), TE,
         r"divisor_override=2\.0 has type float: need an int"),
    _row("torch_avg_pool divisor_override 1-D",
         lambda: fw.torch_avg_pool(X1, 2, divisor_override=2), VE,
         r"divisor_override=2 is not allowed for x with one spatial axis: "
         r"torch\.nn\.functional\.avg_pool1d has no divisor_override"),
    _row("torch_avg_pool count_include_pad str",
         lambda: fw.torch_avg_pool(X, 2, count_include_pad="no"), TE,
         r"count_include_pad='no' has type str: need True or False"),
    _row("torch_avg_pool 3-D input shorter than kernel",
         lambda: fw.torch_avg_pool(np.zeros((1, 1, 2, 5, 5)), 3, 1, 1), VE,
         r"kernel_size=3 is not allowed for x of spatial shape \(2, 5, 5\): avg_pool3d requires "
         r"every input axis to be at least the kernel"),
    _row("torch_adaptive_max_pool output_size=0", lambda: fw.torch_adaptive_max_pool(X, 0), VE,
         r"output_size=0 is not allowed: every entry must be an int >= 1 \(PyTorch returns an "
         r"empty tensor for 0; pooltutor refuses it\)"),
    _row("torch_adaptive_avg_pool output_size float",
         lambda: fw.torch_adaptive_avg_pool(X, 2.0), TE,
         r"output_size=2\.0 has type float: " + PER_AXIS),
    _row("torch_adaptive_avg_pool three Nones",
         lambda: fw.torch_adaptive_avg_pool(X, [None, None, None]), VE,
         r"output_size=\[None, None, None\] has 3 entries: need one int or 2 \(one per spatial "
         r"axis; None keeps that axis\)"),
    _row("torch_adaptive_max_pool return_indices=2",
         lambda: fw.torch_adaptive_max_pool(X, 2, return_indices=2), VE,
         r"return_indices=2 is not allowed: need True or False"),
    _row("torch_adaptive_avg_pool absurd output_size",
         lambda: fw.torch_adaptive_avg_pool(X, 10**6), VE,
         r"output_size=\(1000000, 1000000\) " + ABSURD),
    # ------------------------------------------------------------------ ONNX
    _row("onnx_max_pool pads of the wrong length",
         lambda: fw.onnx_max_pool(X, [2, 2], pads=[1, 1]), VE,
         r"pads=\[1, 1\] has 2 entries: ONNX pads needs 4 \[x1_begin, x2_begin, \.\.\., x1_end, "
         r"x2_end, \.\.\.\] for 2 spatial axes"),
    _row("onnx_max_pool negative pad", lambda: fw.onnx_max_pool(X, [2, 2], pads=[1, 1, -1, 1]),
         VE, r"pads=\[1, 1, -1, 1\] is not allowed: every entry must be an int >= 0"),
    _row("onnx_max_pool pads str", lambda: fw.onnx_max_pool(X, [2, 2], pads="1111"), TE,
         r"pads='1111' has type str: ONNX pads is a list of 4 ints"),
    _row("onnx_max_pool pads with auto_pad",
         lambda: fw.onnx_max_pool(X, [2, 2], pads=[0] * 4, auto_pad="SAME_UPPER"), VE,
         r"pads=\[0, 0, 0, 0\] is not allowed with auto_pad='SAME_UPPER'"),
    _row("onnx_max_pool auto_pad unknown", lambda: fw.onnx_max_pool(X, [2, 2], auto_pad="SAME"),
         VE, r"auto_pad='SAME' is not allowed: need one of 'NOTSET', 'SAME_UPPER', 'SAME_LOWER', "
             r"'VALID'"),
    _row("onnx_max_pool auto_pad int", lambda: fw.onnx_max_pool(X, [2, 2], auto_pad=1), TE,
         r"auto_pad=1 has type int: need one of 'NOTSET'"),
    _row("onnx_max_pool storage_order=2", lambda: fw.onnx_max_pool(X, [2, 2], storage_order=2),
         VE, r"storage_order=2 is not allowed: need 0 \(row major\) or 1 \(column major\)"),
    _row("onnx_max_pool ceil_mode str", lambda: fw.onnx_max_pool(X, [2, 2], ceil_mode="1"), TE,
         r"ceil_mode='1' has type str: need 0 or 1"),
    _row("onnx_max_pool zero kernel entry", lambda: fw.onnx_max_pool(X, [2, 0]), VE,
         r"kernel_shape=\[2, 0\] is not allowed: every entry must be an int >= 1"),
    _row("onnx_max_pool kernel larger than input", lambda: fw.onnx_max_pool(X, [5, 5]), VE,
         r"kernel_shape=\[5, 5\] does not fit x: .*; ONNX: the output size would be < 1"),
    _row("onnx_max_pool absurd pads", lambda: fw.onnx_max_pool(X, [1, 1], pads=[10**9] * 4), VE,
         r"padding=.*1000000000.* " + ABSURD),
    _row("onnx_average_pool count_include_pad=2",
         lambda: fw.onnx_average_pool(X, [2, 2], count_include_pad=2), VE,
         r"count_include_pad=2 is not allowed: need 0 or 1"),
    _row("onnx_average_pool dilations=0", lambda: fw.onnx_average_pool(X, [2, 2], dilations=0),
         VE, r"dilations=0 is not allowed: need an int >= 1"),
    # ------------------------------------------------------------------ OpenVINO
    _row("openvino_max_pool rounding_type unknown",
         lambda: fw.openvino_max_pool(X, 1, 0, 0, 2, rounding_type="round"), VE,
         r"rounding_type='round' is not allowed: need one of 'floor', 'ceil', 'ceil_torch'"),
    _row("openvino_max_pool auto_pad unknown",
         lambda: fw.openvino_max_pool(X, 1, 0, 0, 2, auto_pad="same"), VE,
         r"auto_pad='same' is not allowed: need one of 'explicit', 'same_upper', 'same_lower', "
         r"'valid'"),
    _row("openvino_max_pool index_element_type u8",
         lambda: fw.openvino_max_pool(X, 1, 0, 0, 2, index_element_type="u8"), VE,
         r"index_element_type='u8' is not allowed: need one of 'i32', 'i64'"),
    _row("openvino_max_pool index_element_type numpy type",
         lambda: fw.openvino_max_pool(X, 1, 0, 0, 2, index_element_type=np.int32), TE,
         r"index_element_type=<class 'numpy\.int32'> has type type: need one of 'i32', 'i64'"),
    _row("openvino_max_pool axis out of range",
         lambda: fw.openvino_max_pool(X, 1, 0, 0, 2, axis=5), VE,
         r"axis=5 is not allowed for x of rank 4: need an int in \[-4, 4\)"),
    _row("openvino_max_pool axis float", lambda: fw.openvino_max_pool(X, 1, 0, 0, 2, axis=1.0),
         TE, r"axis=1\.0 has type float: need an int"),
    _row("openvino_max_pool pads_end negative", lambda: fw.openvino_max_pool(X, 1, 0, -2, 2), VE,
         r"pads_end=-2 is not allowed: need an int >= 0"),
    _row("openvino_adaptive_max_pool zero output", lambda: fw.openvino_adaptive_max_pool(X, [0, 2]),
         VE, r"output_shape=\[0, 2\] is not allowed: every entry must be an int >= 1"),
    _row("openvino_adaptive_avg_pool three entries",
         lambda: fw.openvino_adaptive_avg_pool(X, [2, 2, 2]), VE,
         r"output_shape=\[2, 2, 2\] has 3 entries: need one int or 2 \(one per spatial axis\)"),
    _row("openvino_adaptive_max_pool absurd output",
         lambda: fw.openvino_adaptive_max_pool(X, [10**6, 10**6]), VE,
         r"output_size=\(1000000, 1000000\) " + ABSURD),
    # ------------------------------------------------------------------ DirectML
    _row("directml_max_pooling2 rank 3", lambda: fw.directml_max_pooling2(X1, 1, 1, 0, 0, 1), VE,
         r"x has shape \(1, 1, 4\) \(rank 3\): need rank 4 to 5, shaped \(N, C, H, W\) or "
         r"\(N, C, D, H, W\) with 2 to 3 spatial axes"),
    _row("directml_max_pooling2 window_size=0",
         lambda: fw.directml_max_pooling2(X, 1, 0, 0, 0, 1), VE,
         r"window_size=0 is not allowed: need an int >= 1"),
    _row("directml_max_pooling2 output_indices=2",
         lambda: fw.directml_max_pooling2(X, 1, 2, 0, 0, 1, output_indices=2), VE,
         r"output_indices=2 is not allowed: need True or False"),
    _row("directml_max_pooling2 window larger than input",
         lambda: fw.directml_max_pooling2(X, 1, (1, 2), 0, 0, (1, 4)), VE,
         r"window_size=\(1, 2\) does not fit x: on spatial axis 1 the dilated window "
         r"\(K-1\)\*D\+1 = \(2-1\)\*4\+1 = 5 is longer than the padded input 4\+0\+0 = 4"),
    # ------------------------------------------------------------------ TensorRT
    _row("tensorrt_pooling padding_mode unknown",
         lambda: fw.tensorrt_pooling(X, 2, 2, padding_mode="SAME"), VE,
         r"padding_mode='SAME' is not allowed: need one of 'EXPLICIT_ROUND_DOWN'"),
    _row("tensorrt_pooling padding_mode int",
         lambda: fw.tensorrt_pooling(X, 2, 2, padding_mode=3), TE,
         r"padding_mode=3 has type int: need a PaddingMode member or one of"),
    _row("tensorrt_pooling pooling_type MIN",
         lambda: fw.tensorrt_pooling(X, 2, 2, pooling_type="MIN"), VE,
         r"pooling_type='MIN' is not allowed: need one of 'MAX', 'AVERAGE', 'MAX_AVERAGE_BLEND'"),
    _row("tensorrt_pooling blend_factor 2",
         lambda: fw.tensorrt_pooling(X, 2, 2, pooling_type="MAX_AVERAGE_BLEND", blend_factor=2),
         VE, r"blend_factor=2 is not allowed: need a float in \[0, 1\]"),
    _row("tensorrt_pooling blend_factor nan",
         lambda: fw.tensorrt_pooling(X, 2, 2, blend_factor=float("nan")), VE,
         r"blend_factor=nan is not allowed: need a float in \[0, 1\]"),
    _row("tensorrt_pooling blend_factor str",
         lambda: fw.tensorrt_pooling(X, 2, 2, blend_factor="0.5"), TE,
         r"blend_factor='0\.5' has type str: need a float in \[0, 1\]"),
    _row("tensorrt_pooling window 0", lambda: fw.tensorrt_pooling(X, 0, 2), VE,
         r"window_size=0 is not allowed: need an int >= 1"),
    _row("tensorrt_pooling pre_padding -1", lambda: fw.tensorrt_pooling(X, 2, 2, -1), VE,
         r"pre_padding=-1 is not allowed: need an int >= 0"),
    _row("tensorrt_pooling window larger than padded input",
         lambda: fw.tensorrt_pooling(X, 7, 2), VE,
         r"window_size=7 \(F = \(7, 7\)\) does not fit the padded input on axis 0: DK = 1 \+ "
         r"D\*\(F-1\) = 7 > M = I \+ B \+ A = 4\+0\+0 = 4"),
    _row("tensorrt_pooling average_count_excludes_padding str",
         lambda: fw.tensorrt_pooling(X, 2, 2, average_count_excludes_padding="yes"), TE,
         r"average_count_excludes_padding='yes' has type str: need True or False"),
    _row("tensorrt_pooling absurd padding", lambda: fw.tensorrt_pooling(X, 1, 1, 10**9, 10**9),
         VE, r"padding=.*1000000000.* " + ABSURD),
    # ------------------------------------------------------------------ TensorFlow
    _row("openvino_avg_pool pads not below the kernel with exclude_pad",
         lambda: fw.openvino_avg_pool(X, 1, 2, 0, 2, True), VE,
         r"pads_begin=2 / pads_end=0 are not allowed with exclude_pad=True and kernel=2"),
    _row("openvino_avg_pool rounding_type unknown",
         lambda: fw.openvino_avg_pool(X, 1, 0, 0, 2, True, rounding_type="round"), VE,
         r"rounding_type='round' is not allowed: need one of 'floor', 'ceil', 'ceil_torch'"),
    _row("tensorflow_max_pool data_format unknown",
         lambda: fw.tensorflow_max_pool(X, 2, 2, "SAME", data_format="NHCW"), VE,
         r"data_format='NHCW' is not allowed for x of rank 4: need 'NHWC'"),
    _row("tensorflow_avg_pool ksize larger than the input",
         lambda: fw.tensorflow_avg_pool(X, 9, 1, "VALID"), VE,
         r"ksize=9 does not fit x: on spatial axis 0"),
    _row("tensorflow_avg_pool follow unknown",
         lambda: fw.tensorflow_avg_pool(X, 2, 1, "VALID", follow="Runtime"), VE,
         r"follow='Runtime' is not allowed in tensorflow_avg_pool: need 'spec'"),
    _row("tensorflow_max_pool_with_argmax rank 3",
         lambda: fw.tensorflow_max_pool_with_argmax(X1, 2, 2, "VALID"), VE,
         r"x has shape \(1, 1, 4\) \(rank 3\): need rank 4, shaped \(N, H, W, C\) \(NHWC\) with "
         r"2 spatial axes"),
    _row("tensorflow_max_pool_with_argmax padding lower case",
         lambda: fw.tensorflow_max_pool_with_argmax(X, 2, 2, "same"), VE,
         r"padding='same' is not allowed: need one of 'SAME', 'VALID'"),
    _row("tensorflow_max_pool_with_argmax ksize over the batch",
         lambda: fw.tensorflow_max_pool_with_argmax(X, [2, 2, 2, 1], 2, "VALID"), VE,
         r"ksize=\[2, 2, 2, 1\] is not allowed: Pooling is not yet supported on the batch "
         r"dimension \(TensorFlow\); need ksize\[0\] == 1"),
    _row("tensorflow_max_pool_with_argmax ksize over the depth",
         lambda: fw.tensorflow_max_pool_with_argmax(X, [1, 2, 2, 2], 2, "VALID"), VE,
         r"ksize=\[1, 2, 2, 2\] is not allowed: .* need ksize\[3\] == 1"),
    _row("tensorflow_max_pool_with_argmax ksize three entries",
         lambda: fw.tensorflow_max_pool_with_argmax(X, [1, 2, 2], 2, "VALID"), VE,
         r"ksize=\[1, 2, 2\] has 3 entries: .* TensorFlow takes an int or a list of 1, 2 or 4 "
         r"ints"),
    _row("tensorflow_max_pool_with_argmax strides=0",
         lambda: fw.tensorflow_max_pool_with_argmax(X, 2, 0, "VALID"),
         VE, r"strides=0 is not allowed: need an int >= 1"),
    _row("tensorflow_max_pool_with_argmax include_batch_in_index str",
         lambda: fw.tensorflow_max_pool_with_argmax(X, 2, 2, "VALID", "yes"), TE,
         r"include_batch_in_index='yes' has type str: need True or False"),
    # ------------------------------------------------------------------ engine
    _row("max_pool rounding unknown", lambda: max_pool(X, 2, rounding="round"), VE,
         r"rounding='round' is not allowed: need one of 'floor', 'ceil', 'ceil_torch', "
         r"'floor_clip', 'caffe'"),
    _row("max_pool index_layout unknown", lambda: max_pool(X, 2, index_layout="nchw"), VE,
         r"index_layout='nchw' is not allowed: " + LAYOUTS),
    _row("max_pool pad_taps unknown", lambda: max_pool(X, 2, pad_taps="zero"), VE,
         r"pad_taps='zero' is not allowed: need one of 'skip', 'neg_inf', 'lowest'"),
    _row("max_pool empty_value nan for integers", lambda: max_pool(Q, 2, empty_value="nan"), VE,
         r"empty_value='nan' is not possible for x of dtype uint8: integers have no NaN; use "
         r"'neg_inf', 'lowest' or 'zero'"),
    _row("max_pool padding pair of 3", lambda: max_pool(X, 2, padding=[(1, 2, 3), (1, 1)]), VE,
         r"padding=\[\(1, 2, 3\), \(1, 1\)\]: every per-axis entry must be an int or a "
         r"\(begin, end\) pair"),
    _row("max_pool padding None", lambda: max_pool(X, 2, padding=None), TE,
         r"padding=None is not allowed: need an int >= 0, one int per spatial axis \(2\), or "
         r"one \(begin, end\) pair per spatial axis"),
    _row("max_pool absurd padding 5e15", lambda: max_pool(np.zeros((1, 1, 1)), 1, 1,
                                                          padding=5 * 10**15), VE,
         r"padding=5000000000000000 " + ABSURD),
    _row("max_pool absurd dilated output", lambda: max_pool(X, 2, 1, 10**6, 10**6), VE,
         ABSURD),
    _row("avg_pool divisor=0", lambda: avg_pool(X, 2, divisor=0), VE,
         r"divisor=0 is not allowed: need an int >= 1"),
    _row("avg_pool divisor unknown", lambda: avg_pool(X, 2, divisor="all"), VE,
         r"divisor='all' is not allowed: need one of 'valid', 'padded'"),
    _row("avg_pool absurd padding", lambda: avg_pool(X1, 1, 1, padding=10**9), VE,
         r"padding=1000000000 " + ABSURD),
    _row("adaptive_max_pool index_layout unknown",
         lambda: adaptive_max_pool(X, 2, index_layout="x"), VE,
         r"index_layout='x' is not allowed: " + LAYOUTS),
    _row("adaptive_max_pool absurd output_size", lambda: adaptive_max_pool(X1, 10**12), VE,
         r"output_size=\(?1000000000000,?\)? " + ABSURD),
    _row("adaptive_max_pool return_indices str",
         lambda: adaptive_max_pool(X, 2, return_indices="yes"), TE,
         r"return_indices='yes': need True or False"),
    _row("adaptive_avg_pool zero output entry", lambda: adaptive_avg_pool(X, (2, 0)), VE,
         r"output_size=\[2, 0\] is not allowed: every entry must be an int >= 1"),
    _row("PoolResult.explain outside the output", lambda: RESULT.explain(5, 5), VE,
         r"index=\(0, 0, 5, 5\) is outside the output shaped \(1, 1, 2, 2\)"),
    _row("PoolResult.explain float index", lambda: RESULT.explain(0.5, 0), TE,
         r"index=0\.5 has type float: need an int >= 0"),
    _row("PoolResult.explain wrong count", lambda: RESULT.explain(0), VE,
         r"index=\(0,\): need \(n, c, \*out_spatial\) with 4 entries"),
    # ------------------------------------------------------------------ geometry
    _row("pool_geometry four spatial axes", lambda: geometry.pool_geometry((4, 4, 4, 4), 2), VE,
         r"input_shape=\(4, 4, 4, 4\) has 4 spatial axes: need 1 to 3"),
    _row("pool_geometry empty axis", lambda: geometry.pool_geometry((0,), 1), VE,
         r"input_shape=\[0\] is not allowed: every entry must be an int >= 1"),
    _row("pool_geometry float size", lambda: geometry.pool_geometry((4.0,), 1), TE,
         r"input_shape=\[4\.0\] contains 4\.0 \(float\): need ints"),
    _row("pool_geometry rounding unknown",
         lambda: geometry.pool_geometry((4,), 2, rounding="up"), VE,
         r"rounding='up' is not allowed: need one of 'floor', 'ceil'"),
    _row("pool_geometry window larger than padded input", lambda: geometry.pool_geometry((4,), 5),
         VE, r"kernel=\(5,\) does not fit the input \(4,\) on axis 0: window of effective size 5"),
    _row("pool_geometry absurd padding",
         lambda: geometry.pool_geometry((4,), 1, 1, padding=10**12), VE,
         r"padding=1000000000000 " + ABSURD),
    _row("output_length negative pad_begin", lambda: geometry.output_length(4, 2, 1, -1), VE,
         r"pad_begin=-1 is not allowed: need an int >= 0"),
    _row("same_padding input 0", lambda: geometry.same_padding(0, 2), VE,
         r"input_size=0 is not allowed: need an int >= 1"),
    _row("same_padding upper str", lambda: geometry.same_padding(4, 2, upper="lower"), TE,
         r"upper='lower' has type str: need True \(SAME_UPPER\) or False \(SAME_LOWER\)"),
    _row("effective_window kernel 0", lambda: geometry.effective_window(0, 1), VE,
         r"kernel=0 is not allowed: need an int >= 1"),
    _row("effective_window dilation float", lambda: geometry.effective_window(2, 1.5), TE,
         r"dilation=1\.5 has type float: need an int >= 1"),
    _row("adaptive_geometry no axes", lambda: geometry.adaptive_geometry((), 2), VE,
         r"input_shape=\(\) has 0 spatial axes: need 1 to 3"),
    _row("adaptive_geometry output 0", lambda: geometry.adaptive_geometry((4,), 0), VE,
         r"output_size=0 is not allowed: need an int >= 1"),
    _row("adaptive_bins absurd output_size", lambda: geometry.adaptive_bins(4, 10**9), VE,
         r"output_size=1000000000 " + ABSURD),
    _row("adaptive_bins too many bins to list", lambda: geometry.adaptive_bins(3, 10**8), VE,
         r"output_size=100000000 " + ABSURD),
    _row("adaptive_bins float input", lambda: geometry.adaptive_bins(4.0, 2), TE,
         r"input_size=4\.0 has type float: need an int >= 1"),
    _row("normalize_padding str", lambda: geometry.normalize_padding("x", 2), TE,
         r"padding='x' is not allowed: need an int >= 0"),
    # ------------------------------------------------------------------ output_geometry
    _row("output_geometry padding_mode unknown",
         lambda: output_geometry(6, 3, 2, padding_mode="SAME"), VE,
         r"padding_mode='SAME' is not allowed: need one of 'EXPLICIT_ROUND_DOWN'"),
    _row("output_geometry layer unknown", lambda: output_geometry(6, 3, 2, layer="conv"), VE,
         r"layer='conv' is not allowed: need one of 'pooling', 'convolution', 'deconvolution'"),
    _row("output_geometry input 0", lambda: output_geometry(0, 3, 2), VE,
         r"input_size=0 is not allowed: need an int >= 1"),
    _row("output_geometry input bool", lambda: output_geometry(True, 1, 1), TE,
         r"input_size=True has type bool: need an int >= 1"),
    _row("output_geometry four axes", lambda: output_geometry((4, 4, 4, 4), 3, 2), VE,
         r"input_size=\[4, 4, 4, 4\] has 4 spatial axes: need 1 to 3"),
    _row("output_geometry window per axis wrong", lambda: output_geometry((6, 6), (3, 3, 3)), VE,
         r"window=\[3, 3, 3\] has 3 entries: need one int or 2"),
    _row("output_geometry window larger than padded input", lambda: output_geometry(2, 3), VE,
         r"window=3 does not fit the padded input on axis 0: DK = 1 \+ D\*\(F-1\) = 3 > M"),
    _row("output_geometry CAFFE last window in padding",
         lambda: output_geometry(6, 3, 2, pre_padding=4, padding_mode="CAFFE_ROUND_UP"), VE,
         r"padding_mode=CAFFE_ROUND_UP rejects this pooling on axis 0"),
    _row("output_geometry deconvolution cropped away",
         lambda: output_geometry(2, 2, 1, pre_padding=5, post_padding=5, layer="deconvolution"),
         VE, r"pre_padding=5 and post_padding=5 crop the whole deconvolution output on axis 0"),
    _row("output_geometry absurd input", lambda: output_geometry(10**12, 3, 1), VE, ABSURD),
    _row("output_geometry window starts too many to list",
         lambda: output_geometry(5 * 10**7, 1, 1), VE,
         r"window_starts of an axis with output_size=50000000 " + ABSURD),
    # ------------------------------------------------------------------ convert_indices
    _row("convert_indices src unknown",
         lambda: convert_indices(IDX, (1, 1, 4, 4), "rowmajor", "plane"), VE,
         r"src='rowmajor' is not allowed: " + LAYOUTS),
    _row("convert_indices dst int", lambda: convert_indices(IDX, (1, 1, 4, 4), "plane", 0), TE,
         r"dst=0 has type int: " + LAYOUTS),
    _row("convert_indices input_shape rank 2",
         lambda: convert_indices(IDX, (4, 4), "plane", "tensor"), VE,
         r"input_shape=\(4, 4\): need the \(N, C, \*spatial\) shape with 1 to 3 spatial axes"),
    _row("convert_indices input_shape float",
         lambda: convert_indices(IDX, (1, 1, 4.0, 4), "plane", "tensor"), VE,
         r"input_shape=\(1, 1, 4\.0, 4\): every entry must be an int >= 1"),
    _row("convert_indices float indices",
         lambda: convert_indices(IDX.astype(float), (1, 1, 4, 4), "plane", "tensor"), VE,
         r"indices has dtype float64: need an integer array"),
    _row("convert_indices index outside the plane",
         lambda: convert_indices(IDX + 16, (1, 1, 4, 4), "plane", "tensor"), VE,
         r"indices\[0, 0, 0, 0\]=16 does not point into its own \(n, c\) plane of the input "
         r"shaped \(1, 1, 4, 4\) under layout 'plane'"),
    _row("convert_indices uint64 above 2**63",
         lambda: convert_indices(np.full((1, 1, 1), 2**63 + 5, np.uint64), (1, 1, 4), "plane",
                                 "tensor"), VE,
         r"indices\[0, 0, 0\]=9223372036854775813 does not point into"),
    _row("convert_indices shape mismatch",
         lambda: convert_indices(IDX, (2, 1, 4, 4), "plane", "tensor"), VE,
         r"indices has shape \(1, 1, 2, 2\): need \(N, C, \*out_spatial\) = \(2, 1, \.\.\.\)"),
    # ------------------------------------------------------------------ unpool
    _row("max_unpool layout unknown", lambda: max_unpool(RESULT.output, RESULT.indices, X.shape,
                                                         "x"), VE,
         r"layout='x' is not allowed: " + LAYOUTS),
    _row("max_unpool float indices",
         lambda: max_unpool(RESULT.output, RESULT.indices.astype(float), X.shape), TE,
         r"indices has dtype float64: need an integer array \(the indices of a max pool\)"),
    _row("max_unpool indices of another shape",
         lambda: max_unpool(RESULT.output, IDX[..., :1], X.shape), VE,
         r"indices has shape \(1, 1, 2, 1\): need the shape of y, \(1, 1, 2, 2\)"),
    _row("max_unpool index outside its plane",
         lambda: max_unpool(RESULT.output, RESULT.indices + 16, X.shape), VE,
         r"indices\[0, 0, 0, 0\]=21 does not point into its own \(n, c\) plane"),
    _row("max_unpool input_shape rank 2", lambda: max_unpool(RESULT.output, RESULT.indices,
                                                             (4, 4)), VE,
         r"input_shape=\(4, 4\) has 2 entries: need \(N, C, \*spatial\) with 1 to 3 spatial "
         r"axes"),
    _row("max_unpool input_shape str", lambda: max_unpool(RESULT.output, RESULT.indices, "1144"),
         TE, r"input_shape='1144' has type str: need the \(N, C, \*spatial\) shape"),
    _row("max_unpool absurd input_shape",
         lambda: max_unpool(np.zeros((1, 1, 1)), np.zeros((1, 1, 1), np.int64), (1, 1, 10**12)),
         VE, r"input_shape=\(1, 1, 1000000000000\) " + ABSURD),
    _row("flat_unpool index past the tensor",
         lambda: flat_unpool(RESULT.output, IDX + 16, X.shape), VE,
         r"indices\[0, 0, 0, 0\]=16 is outside the whole tensor shaped \(1, 1, 4, 4\): need -1 "
         r"or a position in \[0, 16\)"),
    _row("flat_unpool absurd input_shape",
         lambda: flat_unpool(np.zeros((1, 1, 1)), np.zeros((1, 1, 1), np.int64), (1, 1, 10**12)),
         VE, r"input_shape=\(1, 1, 1000000000000\) " + ABSURD),
    # ------------------------------------------------------------------ quant
    _row("quantize dtype int32", lambda: quant.quantize([1.0], 1.0, 0, "int32"), VE,
         r"dtype='int32' is not allowed: need one of 'uint8', 'int8', 'uint16', 'int16'"),
    _row("quantize dtype float32", lambda: quant.quantize([1.0], 1.0, 0, np.float32), VE,
         r"dtype=<class 'numpy\.float32'> is not allowed: need one of 'uint8'"),
    _row("quantize scale 0", lambda: quant.quantize([1.0], 0.0, 0), VE,
         r"scale=0\.0 is not allowed: need a finite float > 0"),
    _row("quantize scale nan", lambda: quant.quantize([1.0], float("nan"), 0), VE,
         r"scale=nan is not allowed: need a finite float > 0"),
    _row("quantize scale bool", lambda: quant.quantize([1.0], True, 0), TE,
         r"scale=True has type bool: need a finite float > 0"),
    _row("quantize zero_point outside uint8", lambda: quant.quantize([1.0], 1.0, 256), VE,
         r"zero_point=256 is outside the uint8 range: need 0 <= zero_point <= 255"),
    _row("quantize zero_point float", lambda: quant.quantize([1.0], 1.0, 1.0), TE,
         r"zero_point=1\.0 has type float: need an int"),
    _row("quantize x NaN", lambda: quant.quantize([np.nan], 1.0, 0), VE,
         r"x contains NaN: QuantizeLinear gives NaN no code"),
    _row("quantize x masked array",
         lambda: quant.quantize(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), 1.0, 0), TE,
         r"x is a numpy\.ma\.MaskedArray: the mask would be ignored; pass x\.filled"),
    _row("quantize x strings", lambda: quant.quantize(["a"], 1.0, 0), TE,
         r"x has dtype <U1: need real numbers \(floats or ints\)"),
    _row("dequantize float codes", lambda: quant.dequantize([1.0], 1.0, 0), TE,
         r"q has dtype float64: codes must be an integer array"),
    _row("dequantize code out of range",
         lambda: quant.dequantize(np.array([300]), 1.0, 0, "uint8"), VE,
         r"q holds the code 300, outside the uint8 range \[0, 255\]"),
    _row("dequantize scale float32 cannot hold",
         lambda: quant.dequantize(np.array([1], np.uint8), 1e300, 0), VE,
         r"scale=1e\+300 is not allowed: DequantizeLinear multiplies in float32 and a float32 "
         r"cannot hold it \(it would become inf\)"),
    _row("requantize float accumulators", lambda: quant.requantize([1.0], 0.5, 0), TE,
         r"acc has dtype float64: accumulators must be an integer array"),
    _row("requantize accumulator beyond int32", lambda: quant.requantize([2**31], 0.5, 0), VE,
         r"acc holds 2147483648, outside the int32 range"),
    _row("requantize multiplier inf", lambda: quant.requantize([1], float("inf"), 0), VE,
         r"multiplier=inf is not allowed: need a finite float > 0"),
    _row("requantize rounding unknown",
         lambda: quant.requantize([1], 0.5, 0, rounding="nearest"), VE,
         r"rounding='nearest' is not allowed: need one of 'half_even', 'half_away', 'half_up', "
         r"'tflite_double', 'tflite_single'"),
    _row("relu zero_point outside int8", lambda: quant.relu(np.array([1], np.int8), 200), VE,
         r"zero_point=200 is outside the int8 range: need -128 <= zero_point <= 127"),
    _row("relu6 scale 0", lambda: quant.relu6(np.array([1], np.uint8), 0, 0), VE,
         r"scale=0 is not allowed: need a finite float > 0"),
    _row("quantized_max_pool rank 2", lambda: quant.quantized_max_pool(Q[0, 0], 2), VE,
         r"q has shape \(4, 4\) \(rank 2\): need rank 3 to 5"),
    _row("quantized_max_pool float input", lambda: quant.quantized_max_pool(X, 2), TE,
         r"q has dtype float64: codes must be an integer array"),
    _row("quantized_max_pool absurd padding",
         lambda: quant.quantized_max_pool(Q, 1, 1, 10**9), VE, r"padding=1000000000 " + ABSURD),
    _row("quantized_avg_pool rounding unknown",
         lambda: quant.quantized_avg_pool(Q, 2, rounding="floor"), VE,
         r"rounding='floor' is not allowed: need one of 'half_even', 'half_away', 'half_up', "
         r"'trunc'"),
    _row("quantized_avg_pool count_include_pad=1",
         lambda: quant.quantized_avg_pool(Q, 2, count_include_pad=1), TE,
         r"count_include_pad=1: need True or False"),
    _row("relu_max_pool_chain rank 3",
         lambda: quant.relu_max_pool_chain(np.zeros((2, 2, 2), np.int32), 1.0, 0), VE,
         r"acc has shape \(2, 2, 2\): need a non-empty \(H, W\) or \(N, C, H, W\) array"),
    _row("relu_max_pool_chain kernel larger than input",
         lambda: quant.relu_max_pool_chain(ACC, 1.0, 0, kernel=3), VE,
         r"kernel=\(3, 3\) does not fit the input \(2, 2\)"),
    _row("relu_max_pool_chain scale negative",
         lambda: quant.relu_max_pool_chain(ACC, 1.0, 0, scale=-1), VE,
         r"scale=-1 is not allowed: need a finite float > 0"),
    _row("QuantChain.explain outside", lambda: CHAIN.explain(5, 5), VE,
         r"index=\(5, 5\) is outside the pooled stage shaped \(2, 2\)"),
    _row("quantize_multiplier 0", lambda: quant.quantize_multiplier(0), VE,
         r"multiplier=0 is not allowed: need a finite float > 0"),
    # ------------------------------------------------------------------ viz
    _row("plot_pooling out_index outside", lambda: plot_pooling(RESULT, (5, 5)), VE,
         r"out_index=\(5, 5\) is outside the output shape \(2, 2\)"),
    _row("plot_pooling fig not a Figure", lambda: plot_pooling(RESULT, fig="x"), TE,
         r"fig='x' has type str: need a matplotlib Figure or None"),
    _row("plot_pooling title int", lambda: plot_pooling(RESULT, title=5), TE,
         r"title=5 has type int: need a str or None"),
    _row("plot_pooling legend str", lambda: plot_pooling(RESULT, legend="no"), TE,
         r"legend='no' has type str: need True or False"),
    _row("plot_pool op unknown", lambda: plot_pool(X, 2, op="min"), VE,
         r"op='min' is not allowed: need one of 'max', 'avg'"),
    _row("plot_pool kernel 0", lambda: plot_pool(X, 0), VE,
         r"kernel=0 is not allowed: need an int >= 1"),
    _row("plot_padding_modes window 0", lambda: plot_padding_modes(6, 0), VE,
         r"window=0 is not allowed: need an int >= 1"),
    _row("plot_padding_modes mode unknown", lambda: plot_padding_modes(6, 2, modes=["SAME"]), VE,
         r"'SAME'.*not allowed.*or an engine rule: 'floor', 'ceil'"),
    _row("plot_padding_modes modes str", lambda: plot_padding_modes(6, 2, modes="floor"), TE,
         r"modes='floor': need a non-empty sequence of mode names"),
    _row("plot_padding_modes input too long to draw", lambda: plot_padding_modes(10**6, 2), VE,
         r"plot_padding_modes\(x=1000000, .*\) would draw rows of up to 1000003 cells: need "
         r"I \+ B \+ max\(A, B\) \+ \(F-1\)\*D \+ 1 \+ S <= 2000"),
    _row("plot_padding_modes padding too long to draw",
         lambda: plot_padding_modes(6, 2, 1, 10**6), VE,
         r"pre_padding=1000000, .* would draw rows of up to 2000009 cells"),
    _row("plot_padding_modes ax str", lambda: plot_padding_modes(6, 2, ax="x"), TE,
         r"ax='x' has type str: need a matplotlib Axes or a sequence of Axes"),
    _row("plot_padding_modes ax count",
         lambda: plot_padding_modes(6, 2, modes=("floor", "ceil"), ax=[_an_axes()]), VE,
         r"ax has 1 Axes: need one per mode row \(2\)"),
    _row("mode_geometry mode unknown", lambda: mode_geometry("x", 6, 2), VE,
         r"modes='x' is not allowed"),
    _row("plot_index_layouts layout unknown",
         lambda: plot_index_layouts(X, 2, layouts=["x"]), VE,
         r"layouts=\('x',\) is not allowed: need a non-empty sequence of 'plane', 'tensor'"),
    _row("plot_adaptive_bins output 0", lambda: plot_adaptive_bins(np.arange(5.0), 0), VE,
         r"output_size=0 is not allowed: need an int >= 1"),
    _row("plot_adaptive_bins op unknown",
         lambda: plot_adaptive_bins(np.arange(5.0), 2, op="min"), VE,
         r"op='min' is not allowed: need one of 'max', 'avg'"),
    _row("plot_index_layouts fig not a Figure",
         lambda: plot_index_layouts(np.zeros((1, 1, 4, 4)), 2, fig="x"), TE,
         r"fig='x' has type str: need a matplotlib Figure \(or SubFigure\) or None"),
    _row("plot_adaptive_bins ax not an Axes",
         lambda: plot_adaptive_bins(np.arange(5.0), 2, ax="x"), TE,
         r"ax='x' has type str: need a matplotlib Axes or a sequence of Axes"),
    _row("plot_adaptive_bins ax entries count",
         lambda: plot_adaptive_bins(np.zeros((4, 4)), 2,
                                    ax=[matplotlib.figure.Figure().add_subplot()]), VE,
         r"ax has 1 Axes: need 2 Axes for a 2-D input \(input, output\)"),
    _row("plot_adaptive_bins fig not a Figure",
         lambda: plot_adaptive_bins(np.arange(5.0), 2, fig="x"), TE,
         r"fig='x' has type str: need a matplotlib Figure \(or SubFigure\) or None"),
    _row("plot_zero_point_relu fig not a Figure", lambda: plot_zero_point_relu(1.0, 0, fig="x"),
         TE, r"fig='x' has type str: need a matplotlib Figure \(or SubFigure\) or None"),
    _row("plot_quant_chain fig not a Figure", lambda: plot_quant_chain(CHAIN, fig=3), TE,
         r"fig=3 has type int: need a matplotlib Figure \(or SubFigure\) or None"),
    _row("plot_zero_point_relu scale 0", lambda: plot_zero_point_relu(0, 0), VE,
         r"scale=0 is not allowed: need a finite float > 0"),
    _row("plot_zero_point_relu dtype int32", lambda: plot_zero_point_relu(1.0, 0, "int32"), VE,
         r"dtype='int32' is not allowed"),
    _row("plot_quant_chain not a chain", lambda: plot_quant_chain(X), TE,
         r"chain has type ndarray: need a pooltutor\.quant\.QuantChain"),
    _row("frames_widget no frames", lambda: frames_widget([]), VE,
         r"frames=\[\] is not allowed: need at least one PNG frame"),
    _row("frames_widget negative interval", lambda: frames_widget([b"x", b"y"], interval=-5), VE,
         r"interval=-5 is not allowed: need an int >= 1"),
    _row("frames_widget labels count", lambda: frames_widget([b"x"], ["a", "b"]), VE,
         r"labels has 2 entries: need one per frame \(1\)"),
    _row("WindowStepper ndim 3", lambda: WindowStepper(ndim=3), VE,
         r"ndim=3 is not allowed: need 1 or 2"),
    _row("WindowStepper window 0", lambda: WindowStepper(window=0), VE,
         r"window=0 is not allowed: need an int >= 1"),
    _row("WindowStepper window float", lambda: WindowStepper(window=2.5), TE,
         r"window=2\.5 has type float: need an int >= 1"),
    _row("WindowStepper padding triple", lambda: WindowStepper(padding=(1, 2, 3)), VE,
         r"padding=\(1, 2, 3\) is not allowed: need an int >= 0 or a \(before, after\) pair"),
    _row("WindowStepper absurd size", lambda: WindowStepper(size=10**6), VE,
         r"size=1000000 is not allowed: need 1 <= size <= 64"),
    _row("WindowStepper x of rank 3", lambda: WindowStepper(np.zeros((2, 2, 2))), VE,
         r"x has shape \(2, 2, 2\) and dtype float64: need a non-empty 1-D or 2-D numeric input"),
    _row("WindowStepper rounding unknown", lambda: WindowStepper(rounding="round"), VE,
         r"rounding='round' is not allowed"),
    _row("PaddingModeExplorer input_size 0", lambda: PaddingModeExplorer(input_size=0), VE,
         r"input_size=0 is not allowed: need an int >= 1"),
    _row("PaddingModeExplorer mode_set unknown", lambda: PaddingModeExplorer(mode_set="x"), VE,
         r"mode_set='x' is not allowed: need one of 'TensorRT \(6 modes\)'"),
    _row("IndexLayoutExplorer kernel 0", lambda: IndexLayoutExplorer(kernel=0), VE,
         r"kernel=0 is not allowed: need an int >= 1"),
    _row("IndexLayoutExplorer x too big to draw",
         lambda: IndexLayoutExplorer(np.zeros((1, 1, 100, 100))), VE,
         r"x has shape \(1, 1, 100, 100\) \(10000 elements\): the explorer draws every "
         r"element, need at most"),
    _row("AdaptiveBinsExplorer output_size too many bins to draw",
         lambda: AdaptiveBinsExplorer(output_size=10**6), VE,
         r"output_size=1000000 is not allowed: need 1 to 40 per axis"),
    _row("AdaptiveBinsExplorer input_size beyond its slider",
         lambda: AdaptiveBinsExplorer(input_size=10**6), VE,
         r"input_size=1000000 is not allowed: need 1 to 32 per axis in 1-D"),
    _row("AdaptiveBinsExplorer output_size float", lambda: AdaptiveBinsExplorer(output_size=2.5),
         TE, r"output_size=2\.5 has type float"),
    _row("AdaptiveBinsExplorer show_fixed str", lambda: AdaptiveBinsExplorer(show_fixed="no"),
         TE, r"show_fixed='no' has type str: need True or False"),
    _row("ZeroPointReluExplorer multiplier beyond its slider",
         lambda: ZeroPointReluExplorer(multiplier=1e300), VE,
         r"multiplier=1e\+300 is not allowed: need a float in \[0\.0078125, 8\]"),
    _row("ZeroPointReluExplorer multiplier bool", lambda: ZeroPointReluExplorer(multiplier=True),
         TE, r"multiplier=True has type bool"),
    _row("ZeroPointReluExplorer zero_point outside uint8",
         lambda: ZeroPointReluExplorer(zero_point=300), VE,
         r"zero_point=300 is outside the uint8 range: need 0 <= zero_point <= 255"),
    _row("SelfCheck expected str", lambda: SelfCheck("q", "abc"), TE,
         r"expected='abc' has type str: need a number or a sequence of numbers"),
    _row("SelfCheck expected None", lambda: SelfCheck("q", None), TE,
         r"expected=None has type NoneType: need a number or a sequence of numbers"),
    _row("parse_answer int", lambda: parse_answer(5), VE, r"answer=5: need text"),
]

@pytest.mark.parametrize(("call", "error", "match"), CORPUS)
def test_hostile_call_is_refused_naming_parameter_value_and_rule(call, error, match):
    tracemalloc.start()
    try:
        with pytest.raises(error) as info:
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert re.search(match, message), f"{message!r} does not match {match!r}"
    # refused before any work: no array proportional to the absurd size was built
    assert peak < 64 * 1024**2, f"{peak / 1024**2:.0f} MiB allocated before refusing: {message}"


def test_corpus_is_large_and_covers_every_public_function():
    ids = [p.id for p in CORPUS]
    assert len(ids) >= 80 and len(set(ids)) == len(ids)
    covered = " ".join(ids)
    for name in fw.__all__:
        if name not in ("ENGINE_RULES", "RUNTIME_RULES", "RUNTIME_VERSIONS", "FOLLOWS"):
            assert name in covered, name
    for name in ("max_pool", "avg_pool", "adaptive_max_pool", "adaptive_avg_pool",
                 "output_geometry", "convert_indices", "pool_geometry", "same_padding",
                 "adaptive_geometry", "adaptive_bins", "normalize_padding", "effective_window",
                 "output_length", "quantize", "dequantize", "requantize", "relu ", "relu6",
                 "quantized_max_pool", "quantized_avg_pool", "relu_max_pool_chain",
                 "quantize_multiplier", "max_unpool", "flat_unpool", "plot_pooling", "plot_pool ",
                 "plot_padding_modes",
                 "plot_index_layouts", "plot_adaptive_bins", "plot_zero_point_relu",
                 "plot_quant_chain", "WindowStepper", "PaddingModeExplorer", "SelfCheck",
                 "IndexLayoutExplorer", "AdaptiveBinsExplorer", "ZeroPointReluExplorer"):
        assert name in covered + " ", name
    # every kind of hostility the issue names
    for kind in ("=0", "-1", "float", "bool", "entries", "rank 2", "rank 6", "empty axis",
                 "larger than", "unknown", "object", "strings", "absurd"):
        assert kind in covered, kind


def test_huge_sizes_cannot_sneak_past_as_numpy_integers():
    big = np.int64(10**9)
    with pytest.raises(PoolTutorError, match=ABSURD):
        max_pool(X1, 1, 1, padding=big)
    with pytest.raises(PoolTutorError, match=ABSURD):
        adaptive_avg_pool(X1, np.int64(10**12))


def test_inputs_are_untouched_by_a_refused_call():
    x = X.copy()
    x.setflags(write=False)
    with pytest.raises(PoolTutorError):
        max_pool(x, 2, index_layout="bogus")
    with pytest.raises(PoolTutorTypeError):
        fw.torch_max_pool(x, 2, return_indices="yes")
    assert np.array_equal(x, X)


# ----------------------------------------------------------------------------- command line

ROOT = Path(__file__).resolve().parents[2]

CLI = [
    pytest.param(["--bogus"], "missing command (choose from app, audit, formulas, lab, slides)",
                 id="unknown top-level option"),
    pytest.param(["lab", "--dry-run", "--bogus"], "unrecognized arguments: --bogus",
                 id="lab unknown option"),
    pytest.param(["LAB"], "invalid choice: 'LAB'", id="command in the wrong case"),
    pytest.param(["lab", "--dry-run", "--port", "-1"], "invalid port -1: expected 0..65535",
                 id="lab negative port"),
    pytest.param(["lab", "--dry-run", "--port", "1.5"], "invalid port '1.5': expected an integer",
                 id="lab float port"),
    pytest.param(["lab", "--dry-run", "--notebook-dir"], "expected one argument",
                 id="lab notebook-dir without value"),
    pytest.param(["lab", "--dry-run", "--notebook-dir", "{file}"],
                 "--notebook-dir {file}: exists and is not a folder",
                 id="lab notebook-dir is a file"),
    pytest.param(["lab", "--dry-run", "--notebook-dir", "{file}/sub"],
                 "is inside {file}, which exists and is not a folder",
                 id="lab notebook-dir inside a file"),
    pytest.param(["app", "--dry-run", "--notebook-dir", "{file}"],
                 "--notebook-dir {file}: exists and is not a folder",
                 id="app notebook-dir is a file"),
    pytest.param(["app", "--dry-run", "99"], "no notebook '99'; available: 00_course_map",
                 id="app unknown notebook"),
    pytest.param(["app", "--dry-run", "--port", "99999"], "invalid port 99999",
                 id="app port out of range"),
    pytest.param(["slides", "--jobs", "-3"], "invalid value -3: expected an integer >= 1",
                 id="slides negative jobs"),
    pytest.param(["slides", "--timeout", "0"], "invalid value 0: expected an integer >= 1",
                 id="slides zero timeout"),
    pytest.param(["slides", "--out", "{file}", "01"], "--out {file}: exists and is not a folder",
                 id="slides out is a file"),
    pytest.param(["slides", "../../etc/passwd"], "no notebook '../../etc/passwd'",
                 id="slides path traversal"),
    pytest.param(["--version", "--bogus"], None, id="version ignores what follows"),
]


@pytest.fixture(scope="module")
def a_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "not_a_folder.txt"
    path.write_text("x")
    return path


@pytest.mark.parametrize(("argv", "message"), CLI)
def test_cli_usage_errors_exit_2_with_one_line(argv, message, a_file, tmp_path):
    argv = [a.format(file=a_file) for a in argv]
    proc = subprocess.run([sys.executable, "-m", "pooltutor", *argv], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    if message is None:                     # argparse's --version exits first, status 0
        assert proc.returncode == 0 and proc.stdout.startswith("pooltutor ")
        return
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("pooltutor") and "error:" in lines[0]
    assert message.format(file=a_file) in lines[0], lines[0]
    assert proc.stdout == ""
    assert list(tmp_path.iterdir()) == []            # nothing was written before refusing
