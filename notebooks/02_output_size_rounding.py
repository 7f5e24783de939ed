# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 02 · How many windows? Output-size rounding
#
# **Floor and ceil, TensorRT's padding modes, and why runtimes disagree** (about 40 minutes;
# you need notebook 01)
#
# **Learning goals.** After this notebook you can
#
# 1. compute the output length of a pooling with the floor rule and the ceil rule, and say
#    what each one drops or adds;
# 2. apply TensorRT's six padding modes (`EXPLICIT_*`, `SAME_*`, `CAFFE_*`) and reproduce
#    its Pooling Examples 1 and 2 number for number;
# 3. compute SAME padding and say which side gets the odd extra pad;
# 4. compute convolution and deconvolution output sizes with the same formulas;
# 5. explain why one model has different output shapes in PyTorch and in TensorRT or
#    OpenVINO (test vectors TV02–TV04).

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import warnings

import numpy as np

from pooltutor import frameworks, output_geometry, pool_geometry
from pooltutor.padding_modes import PaddingModeWarning
from pooltutor.comparison import compare_ceil_modes
from pooltutor.viz.folded import folded
from pooltutor.viz.padding_explorer import PaddingModeExplorer
from pooltutor.viz.padding_modes import TENSORRT_MODES, plot_padding_modes
from pooltutor.viz.selfcheck import SelfCheck

# the CAFFE "Restriction" warnings are discussed in section 4, from explain()
warnings.simplefilter("ignore", PaddingModeWarning)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The formula, and its rounding
#
# Pad the input with $p_b$ cells before and $p_e$ after: $M = I + p_b + p_e$ cells. The
# first window starts at cell 0 of the padded input, each next one $S$ cells further, and
# a window spans $D_K = (K - 1) \cdot D + 1$ cells. So the last start may be at most
# $M - D_K$, and
#
# $$O = \left\lfloor \frac{M - D_K}{S} \right\rfloor + 1 .$$
#
# When $S$ does not divide $M - D_K$, the **floor** rule drops the cells that are left
# over. The **ceil** rule, $O = \lceil (M - D_K)/S \rceil + 1$, adds one more window that
# hangs over the end instead.

# %% [markdown] slideshow={"slide_type": "subslide"}
# Six inputs, window 3, stride 2, no padding. The floor rule makes windows at 0 and 2 and
# never reads `x5`. The ceil rule adds a window at 4, which reads `x4`, `x5` and one cell
# past the input (dashed).

# %% tags=["hide-input"]
plot_padding_modes(6, 3, 2, modes=("floor", "ceil")).figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** With seven inputs instead of six (window 3, stride 2, no padding), how many
# windows does the *ceil* rule make?

# %% tags=["hide-input"]
g7 = pool_geometry((7,), kernel=3, stride=2, rounding="ceil")
SelfCheck("Output length with rounding='ceil' for I=7, K=3, S=2, no padding?", g7.output_shape[0],
          explanation=g7.describe(), hint="is (7 - 3) / 2 a whole number?")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. TensorRT's `PaddingMode` (seed 004)
#
# Seed 004 is the Javadoc of `nvinfer.PaddingMode` (JavaCPP presets of TensorRT 8's
# `NvInfer.h`). `I` input, `B`/`A` pre/post padding, `S` stride, `F` filter (the window),
# `D` dilation, `M = I + B + A`, `DK = 1 + D * (F - 1)`, `O` output. For pooling:
#
# | mode | output size | padding used |
# |---|---|---|
# | `EXPLICIT_ROUND_DOWN` | `O = floor((M - F) / S) + 1` | `B`, `A` as given |
# | `EXPLICIT_ROUND_UP` | `O = ceil((M - F) / S) + 1` | `B`, `A` as given |
# | `SAME_UPPER` | `O = ceil(I / S)` | `P = floor((I-1)/S)*S + F - I`, `B = floor(P/2)` |
# | `SAME_LOWER` | `O = ceil(I / S)` | same `P`, `A = floor(P/2)` |
# | `CAFFE_ROUND_DOWN` | `EXPLICIT_ROUND_DOWN - ((EXPLICIT_ROUND_DOWN - 1) * S >= I + B)` | `B` on both sides |
# | `CAFFE_ROUND_UP` | `EXPLICIT_ROUND_UP - ((EXPLICIT_ROUND_UP - 1) * S >= I + B)` | `B` on both sides |

# %% [markdown] slideshow={"slide_type": "subslide"}
# The SAME modes keep $O = \lceil I/S \rceil$ and compute their own padding; they ignore
# the `B` and `A` you set. `SAME_UPPER` puts an odd extra pad at the end (TensorFlow's
# `SAME` does the same), `SAME_LOWER` at the beginning. The CAFFE modes subtract one
# window when the last one would start in the end padding.

# %% [markdown] slideshow={"slide_type": "subslide"}
# The header's **Pooling Example 1**: `I = 6, B = 3, A = 2, S = 2, F = 3`, on one axis.
# Each bar under a row is one window; the last window is outlined in orange. The explicit
# modes first:

# %% tags=["hide-input"]
plot_padding_modes(6, 3, 2, 3, 2, modes=TENSORRT_MODES[:2]).figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Before the picture: Example 1 with `SAME_LOWER`: `O = ceil(6 / 2)`, total padding
# `P = floor(5 / 2) * 2 + 3 - 6`. How much padding goes *before* the input (`B`, one axis)?

# %% tags=["hide-input"]
ex1 = dict(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2)
same_lower = output_geometry(**ex1, padding_mode="SAME_LOWER")
SelfCheck("Example 1 with SAME_LOWER: prePadding B along one axis?", same_lower.pre_padding[0],
          explanation=same_lower.explain(), hint="SAME_LOWER: A = floor(P / 2), B = P - A")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Example 1 in the SAME modes, which compute their own padding:

# %% tags=["hide-input"]
plot_padding_modes(6, 3, 2, 3, 2, modes=TENSORRT_MODES[2:4]).figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# Example 1 in the CAFFE modes, which use `B` on both sides:

# %% tags=["hide-input"]
plot_padding_modes(6, 3, 2, 3, 2, modes=TENSORRT_MODES[4:]).figure

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Pooling Example 1, number for number
#
# `output_geometry(...).explain()` writes each computation out in the header's own style
# (here on one axis, where the header writes `{6, 6}` for two; and without its notes):

# %%
round_down = output_geometry(**ex1, padding_mode="EXPLICIT_ROUND_DOWN")
print(round_down.explain().split("Notes:")[0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# `EXPLICIT_ROUND_UP` gives the same result here. Its notes say why, and what is odd about
# the first window:

# %%
round_up = output_geometry(**ex1, padding_mode="EXPLICIT_ROUND_UP")
print("Notes:" + round_up.explain().split("Notes:")[1])

# %% [markdown] slideshow={"slide_type": "fragment"}
# `SAME_UPPER` on Example 1, which puts the odd pad at the end:

# %% slideshow={"slide_type": "subslide"} tags=["hide-input"]
print(output_geometry(**ex1, padding_mode="SAME_UPPER").explain().split("Notes:")[0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### On a tensor
#
# With the values $1, \dots, 6$ along one axis (test vector TV05), TensorRT's max pooling
# in every mode gives:

# %%
x1 = np.arange(1.0, 7.0).reshape(1, 1, 6)
tv05 = {mode: frameworks.tensorrt_pooling(x1, 3, 2, 3, 2, padding_mode=mode)
        for mode in TENSORRT_MODES}
print("\n".join(f"{mode:<20} {y.ravel()}" for mode, y in tv05.items()))

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### What the seed gets wrong (kindly)
#
# The numbers of Example 1 are right. Four things are worth knowing:
#
# * **Rounding up is not shown.** `EXPLICIT_ROUND_UP` gives the same 5 as `ROUND_DOWN`
#   only because `(11 - 3) / 2 = 4` is a whole number (see the note in its `explain()`).
#   Pooling Example 2 is the one where the modes differ.
# * **The first window is all padding.** With `B = F = 3`, window 0 reads positions
#   −3, −2, −1: padding only. TensorRT fills padding with −∞ for max pooling, so the first
#   output is −∞ (above). PyTorch, ONNX Runtime and Caffe refuse padding this large.
# * **"SAMPLE_UPPER" / "SAMPLE_LOWER"** (and "sample pointers") are typos for `SAME_UPPER` /
#   `SAME_LOWER` and sample points; they are in NVIDIA's header too.
# * The lines "SAMPLE_UPPER has {O0, O1, O2, pad} in output" mean the *padded input*:
#   `SAME_UPPER` reads `{x0, ..., x5, pad}` (pad at the end), `SAME_LOWER` reads
#   `{pad, x0, ..., x5}`, as `explain()` prints.
#
# Sample points count from the first padding cell: `{0, 2, 4, 6, 8}` are the window starts
# −3, −1, 1, 3, 5 in input coordinates.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Pooling Example 2: the CAFFE correction
#
# Same as Example 1, but `A = 3`. Here `ROUND_UP` really rounds up: `(12 - 3) / 2 = 4.5`
# gives 6 windows. The CAFFE modes then check whether the last window starts in the end
# padding, `(O - 1) * S >= I + B`, and if so subtract one (`DIFF`).
#
# **Predict.** For `CAFFE_ROUND_UP`, the rounded-up count is 6. Is `DIFF` 0 or 1?

# %% tags=["hide-input"]
ex2 = dict(ex1, post_padding=3)
caffe_up = output_geometry(**ex2, padding_mode="CAFFE_ROUND_UP")
SelfCheck("Example 2, CAFFE_ROUND_UP: DIFF (0 or 1) along one axis?", caffe_up.diff[0],
          explanation=caffe_up.explain(), hint="compare (6 - 1) * 2 with I + B = 9")

# %% [markdown]
# `CAFFE_ROUND_DOWN` on Example 2, computed:

# %% slideshow={"slide_type": "subslide"} tags=["hide-input"]
caffe_down = output_geometry(**ex2, padding_mode="CAFFE_ROUND_DOWN")
folded(caffe_down.explain().split("Notes:")[0],
       f"CAFFE_ROUND_DOWN on Example 2: O = {caffe_down.output_size[0]}, computed")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Without the correction, `EXPLICIT_ROUND_UP` keeps all 6 windows; the last one starts at
# input position 7, in the end padding, and reads padding only:

# %%
print("window starts:", output_geometry(**ex2, padding_mode="EXPLICIT_ROUND_UP").window_starts[0])
print(frameworks.tensorrt_pooling(x1, 3, 2, 3, 3, padding_mode="EXPLICIT_ROUND_UP").ravel())

# %% [markdown] slideshow={"slide_type": "skip"}
# **Explore** Examples 1 and 2 in every mode. Change `I`, `F`, `S`, `B`, `A` and `D` and watch the rows follow; pick the
# mode whose worked computation is printed under the picture. Try `B = 4`: one of the modes
# refuses, and says why. (The explorer needs a running Python kernel.)

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2,
                               dpi=90)
explorer

# %% [markdown] slideshow={"slide_type": "subslide"}
# All six modes for prepared cases: the header's examples, the ceil cases of section 6.

# %% tags=["hide-input"]
explorer.static_widget()

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The two "Restrictions"
#
# The seed ends with lines such as `CAFFE_ROUND_UP: (B + S) >= (F + 1) is an error if
# B < (F + 1)` and a heading "Restriction 2". They are NVIDIA's own text (TensorRT 8's
# `NvInfer.h`), not a copying mistake, but the seed drops the sentence that introduces them
# and the "Restriction 1" label. Read literally, the text contradicts itself: Example 2
# meets the Restriction 1 conditions in both CAFFE modes, yet the header answers it with
# `O = 5`. What the conditions really describe: the first window lies entirely in padding,
# or the correction can fire (Restriction 1); a window could still start in the end padding
# after the correction (Restriction 2). pooltutor applies the computation, warns with a
# `PaddingModeWarning` and lists the conditions in the notes of `explain()` (try
# `print(caffe_down.explain())`). The CAFFE modes no longer exist in TensorRT 10.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Convolution and deconvolution
#
# The header gives the same kind of formulas for convolution, with the dilated filter `DK`
# in place of `F`. A 3-tap filter with dilation 2 spans 5 cells; `SAME_UPPER` pads it so
# that $O = \lceil I/S \rceil$ (`print(conv_same.explain())` shows every step):

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
print(output_geometry(4, 3, 2, pre_padding=1, post_padding=1, layer="deconvolution").explain())

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** With `SAME_UPPER` the header says `O = min(I * S, (I - 1) * S + DK)`.
# What is the output length of a deconvolution with `I = 4`, `F = 3`, `S = 2`?

# %% tags=["hide-input"]
deconv = output_geometry(4, 3, 2, padding_mode="SAME_UPPER", layer="deconvolution")
SelfCheck("Deconvolution, SAME_UPPER, I=4, F=3, S=2: output length?", deconv.output_size[0],
          explanation=deconv.explain(), hint="min(4 * 2, 3 * 2 + 3)")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. One model, different shapes
#
# There are two ceil rules in the wild (semantics §1.1):
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
plot_padding_modes(5, 2, 2, 1, 1, modes=("floor", "ceil", "ceil_torch")).figure

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
# * $O = \lfloor (M - D_K)/S \rfloor + 1$ with $M = I + p_b + p_e$; the ceil rule rounds
#   up, adding a window that hangs over the end.
# * TensorRT's `EXPLICIT_*` modes use your padding; `SAME_*` compute their own
#   ($O = \lceil I/S \rceil$; `UPPER` puts the odd pad at the end, `LOWER` at the start);
#   `CAFFE_*` use `B` on both sides and drop a last window that starts in the end padding.
# * The header's Pooling Examples 1 and 2 check out; Example 1 does not show rounding up,
#   its first window is all padding, "SAMPLE_" is a typo, and the "Restriction" text
#   contradicts Example 2.
# * Convolution uses the same formulas with `DK`, without the CAFFE correction;
#   deconvolution crops: `O = (I - 1) * S + DK - (B + A)`.
# * PyTorch, ONNX, OpenVINO `ceil_torch` and TensorRT `CAFFE_ROUND_UP` clip the last
#   window; OpenVINO `ceil` and TensorRT `EXPLICIT_ROUND_UP` do not. Same model,
#   different shapes (TV02–TV04).
#
# **Next:** `03_index_flattening`: which number a max pool reports for *where* its maximum was.
