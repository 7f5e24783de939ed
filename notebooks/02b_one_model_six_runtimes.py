# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 02b · One model, six runtimes
#
# **Convolution sizes, and the ceil rule that runtimes disagree on** (about 30 minutes; you
# need notebook 02)
#
# Notebook 02 built the output-size formula, its floor and ceil rules, and TensorRT's six
# padding modes on pooling (seed 004). Here the same formulas size a convolution and a
# deconvolution, and then one small model goes through six runtimes that round up in two
# different ways.
#
# **Learning goals.** After this notebook you can
#
# 1. compute convolution and deconvolution output sizes with the header's formulas;
# 2. tell the raw ceil rule from the ceil with one clip, and name the runtimes that use each;
# 3. explain why one model has different output shapes in PyTorch and in TensorRT or
#    OpenVINO (test vectors TV02–TV04).

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import warnings

import numpy as np

from pooltutor import output_geometry, pool_geometry
from pooltutor.comparison import compare_ceil_modes
from pooltutor.tensorrt import PaddingModeWarning
from pooltutor.viz.folded import folded
from pooltutor.viz.padding_modes import plot_padding_modes
from pooltutor.viz.selfcheck import SelfCheck

# the CAFFE "Restriction" warnings are discussed in notebook 02, section 4
warnings.simplefilter("ignore", PaddingModeWarning)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Convolution and deconvolution
#
# TensorRT's header (seed 004) gives the same kind of formulas for convolution, with the
# dilated filter `DK` in place of `F`. A 3-tap filter with dilation 2 spans 5 cells;
# `SAME_UPPER` pads it so that $O = \lceil I/S \rceil$ (`print(conv_same.explain())` shows
# every step):

# %%
conv_same = output_geometry(7, 3, 2, dilation=2, padding_mode="SAME_UPPER", layer="convolution")
print("DK =", conv_same.DK, " B =", conv_same.pre_padding, " A =", conv_same.post_padding,
      " O =", conv_same.output_size)

# %% [markdown] slideshow={"slide_type": "subslide"}
# For convolution the CAFFE modes have **no** correction: `CAFFE_ROUND_UP` is just
# `ceil((I + 2B - DK) / S) + 1`. Pooling Example 2's numbers give a different size for a
# convolution than for a pooling:

# %%
conv = output_geometry(6, 3, 2, pre_padding=3, padding_mode="CAFFE_ROUND_UP", layer="convolution")
pool = output_geometry(6, 3, 2, pre_padding=3, padding_mode="CAFFE_ROUND_UP", layer="pooling")
print("convolution:", conv.output_size, "  pooling:", pool.output_size)

# %% [markdown] slideshow={"slide_type": "subslide"}
# A **deconvolution** (transposed convolution) goes the other way: each input cell spreads
# over `S` output cells, and padding *crops* the output. Its explicit formula is
# `O = (I - 1) * S + DK - (B + A)`:

# %% tags=["hide-input"]
deconv_explicit = output_geometry(4, 3, 2, pre_padding=1, post_padding=1, layer="deconvolution")
folded(deconv_explicit.explain(),
       f"Deconvolution, I=4, F=3, S=2, B=A=1: O = {deconv_explicit.output_size[0]}, computed")

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** With `SAME_UPPER` the header says `O = min(I * S, (I - 1) * S + DK)`.
# What is the output length of a deconvolution with `I = 4`, `F = 3`, `S = 2`?

# %% tags=["hide-input"]
deconv = output_geometry(4, 3, 2, padding_mode="SAME_UPPER", layer="deconvolution")
SelfCheck("Deconvolution, SAME_UPPER, I=4, F=3, S=2: output length?", deconv.output_size[0],
          explanation=deconv.explain(), hint="min(4 * 2, 3 * 2 + 3)")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. One model, different shapes
#
# There are two ceil rules in the wild (docs/semantics.md §1.1):
#
# * the **raw ceil**, $O = \lceil (M - D_K)/S \rceil + 1$: OpenVINO `rounding_type=ceil`
#   (`MaxPool-1/8`) and TensorRT `EXPLICIT_ROUND_UP`;
# * the **ceil with one clip**: the same, then *if the last window starts at or after
#   $I + p_b$ (in the end padding), drop it*: PyTorch `ceil_mode=True`, ONNX `ceil_mode=1`,
#   OpenVINO `ceil_torch` (`MaxPool-14`), TensorRT `CAFFE_ROUND_UP`.
#
# PyTorch's documentation says it in words: "sliding windows that would start in the right
# padded region are ignored". Test vector TV03: $1, \dots, 5$, window 2, stride 2,
# padding 1.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** An ONNX model exported from PyTorch has `MaxPool` with `ceil_mode=1`. On
# TV03, PyTorch and ONNX Runtime give 3 outputs. How many does OpenVINO's
# `rounding_type=ceil` give?

# %% tags=["hide-input"]
x3 = np.arange(1.0, 6.0, dtype=np.float32).reshape(1, 1, 5)
tv03 = compare_ceil_modes(x3, kernel=2, stride=2, padding=1)
SelfCheck("TV03 ([1..5], K=2, S=2, padding 1): output length of OpenVINO rounding_type=ceil?",
          tv03.row("openvino_max_pool/ceil").shape[0], explanation=str(tv03),
          hint="the raw ceil keeps a window that starts in the end padding")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The three rules on TV03: the raw ceil keeps a fourth window that starts in the end padding.

# %% tags=["hide-input"]
plot_padding_modes(5, 2, 2, 1, 1, modes=("floor", "ceil", "ceil_torch"))

# %% [markdown] slideshow={"slide_type": "subslide"}
# TV03 in six runtimes: what each one's documentation specifies, and beside it what its CPU
# runtime computes (`follow="both"`; a runtime that departs from its own documentation is
# marked `<- departs`; TensorRT needs a GPU and is not run here):

# %%
print(compare_ceil_modes(x3, kernel=2, stride=2, padding=1, follow="both"))

# %% [markdown] slideshow={"slide_type": "fragment"}
# The same model, six runtimes. OpenVINO's extra window holds only padding, so it reports
# the lowest float32 number; TensorRT reports −∞.

# %% [markdown] slideshow={"slide_type": "subslide"}
# In 2-D (TV02, the 3 × 3 grid 1..9) a whole extra row and column appear:

# %%
print(compare_ceil_modes(np.arange(1.0, 10.0, dtype=np.float32).reshape(1, 1, 3, 3), 2, 2, 1))

# %% [markdown] slideshow={"slide_type": "subslide"}
# This is why one network can have different shapes in different runtimes.
# onnx-tensorrt builds ONNX `ceil_mode=1` as `kEXPLICIT_ROUND_UP` (and torch2trt does the
# same for `ceil_mode=True`), so by the header's formula TensorRT differs from PyTorch
# exactly in these clip cases; this is derived from the header, not run on TensorRT here
# (NVIDIA/TensorRT#84 reports a wrong ceil-mode shape). OpenVINO's `MaxPool-8` `ceil`
# gave 4 × 4 where PyTorch gives 3 × 3 for a 5 × 5 input (openvinotoolkit/openvino#18731);
# `MaxPool-14` added `ceil_torch`, which its PyTorch frontend now uses.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict (TV04).** No padding at all: $1, \dots, 6$, window 1, stride 2. The raw ceil
# makes a fourth window that starts at 6, just past the input. How many outputs does
# PyTorch (`ceil_mode=True`) give?

# %% tags=["hide-input"]
tv04 = compare_ceil_modes(np.arange(1.0, 7.0, dtype=np.float32).reshape(1, 1, 6), 1, 2, 0)
SelfCheck("TV04 ([1..6], K=1, S=2, no padding): output length in PyTorch with ceil_mode=True?",
          tv04.row("torch_max_pool").shape[0], explanation=str(tv04),
          hint="the clip applies without padding too: does window 4 start at or after I + 0?")

# %% [markdown] slideshow={"slide_type": "fragment"}
# The clip can fire without padding only when the window is shorter than the stride
# ($D_K < S$). Old PyTorch versions did not clip here and produced rows of −∞
# (pytorch/pytorch#45357). BVLC Caffe, where this ceil rule comes from, clips only when
# the padding is positive, so it keeps the fourth window:

# %%
print("BVLC Caffe:", pool_geometry((6,), kernel=1, stride=2, rounding="caffe").output_shape,
      "  TensorRT CAFFE_ROUND_UP:", tv04.row("tensorrt_pooling/CAFFE_ROUND_UP").shape)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * Convolution uses the pooling formulas with the dilated filter `DK`, without the CAFFE
#   correction; deconvolution crops: `O = (I - 1) * S + DK - (B + A)`.
# * There are two ceil rules. PyTorch, ONNX, OpenVINO `ceil_torch` and TensorRT
#   `CAFFE_ROUND_UP` clip a last window that starts in the end padding; OpenVINO `ceil` and
#   TensorRT `EXPLICIT_ROUND_UP` do not. Same model, different shapes (TV02–TV04).
# * Without padding the clip fires only when the window is shorter than the stride; BVLC
#   Caffe does not clip there at all.
#
# **Next:** `03_index_flattening`: which number a max pool reports for *where* its maximum was.
