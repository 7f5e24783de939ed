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
# **Floor and ceil, and TensorRT's six padding modes** (about 40 minutes; you need notebook 01)
#
# **Learning goals.** After this notebook you can
#
# 1. compute the output length of a pooling with the floor rule and the ceil rule, and say
#    what each one drops or adds;
# 2. apply TensorRT's six padding modes (`EXPLICIT_*`, `SAME_*`, `CAFFE_*`) and reproduce
#    its Pooling Examples 1 and 2 number for number;
# 3. compute SAME padding and say which side gets the odd extra pad.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import warnings

import numpy as np

from pooltutor import frameworks, output_geometry, pool_geometry
from pooltutor.tensorrt import PaddingModeWarning
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
plot_padding_modes(6, 3, 2, modes=("floor", "ceil"))

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
plot_padding_modes(6, 3, 2, 3, 2, modes=TENSORRT_MODES[:2])

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
plot_padding_modes(6, 3, 2, 3, 2, modes=TENSORRT_MODES[2:4])

# %% [markdown] slideshow={"slide_type": "subslide"}
# Example 1 in the CAFFE modes, which use `B` on both sides:

# %% tags=["hide-input"]
plot_padding_modes(6, 3, 2, 3, 2, modes=TENSORRT_MODES[4:])

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
same_upper = output_geometry(**ex1, padding_mode="SAME_UPPER")
folded(same_upper.explain().split("Notes:")[0],
       f"SAME_UPPER on Example 1: O = {same_upper.output_size[0]}, computed")

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
# **Explore** Examples 1 and 2 in every mode: change `I`, `F`, `S`, `B`, `A` and `D`, and
# pick the mode whose computation is printed under the picture. Try `B = 4`: one mode
# refuses, and says why. (The explorer needs a running Python kernel.)

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2,
                               dpi=90)
explorer

# %% [markdown] slideshow={"slide_type": "subslide"}
# All six modes for prepared cases: the header's examples, and the ceil cases of
# notebook 02b.

# %% tags=["hide-input"]
explorer.static_widget()

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The two "Restrictions"
#
# The seed ends with lines such as `CAFFE_ROUND_UP: (B + S) >= (F + 1) is an error if
# B < (F + 1)` under a heading "Restriction 2". They are NVIDIA's own text (TensorRT 8's
# `NvInfer.h`), but the seed drops their introduction and the "Restriction 1" label. Read
# literally, they contradict Example 2, which meets the Restriction 1 conditions in both
# CAFFE modes yet gets `O = 5`. What they describe: the first window lies entirely in
# padding, or the correction can fire (Restriction 1); a window could still start in the
# end padding after it (Restriction 2). pooltutor computes anyway, warns with a
# `PaddingModeWarning` and lists the conditions in the notes of `explain()` (try
# `print(caffe_down.explain())`). TensorRT 10 has no CAFFE modes.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * $O = \lfloor (M - D_K)/S \rfloor + 1$ with $M = I + p_b + p_e$; the ceil rule rounds
#   up, adding a window that hangs over the end.
# * TensorRT's `EXPLICIT_*` modes use your padding; `SAME_*` compute their own
#   ($O = \lceil I/S \rceil$; `UPPER` puts the odd pad at the end, `LOWER` at the start);
#   `CAFFE_*` use `B` on both sides and drop a last window that starts in the end padding.
# * The header's Pooling Examples 1 and 2 check out, but Example 1 cannot show rounding up,
#   its first window is all padding, and the "Restriction" text contradicts Example 2.
#
# **Next:** `02b_one_model_six_runtimes`: the same formulas for convolution, and why one
# model has different output shapes in different runtimes.
