# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 05b · Requantization rounding
#
# **Padding, rounding modes and average pooling, in integers** (about 30 minutes; you need
# notebook 05)
#
# Notebook 05 built the seed's chain (requantize, ReLU at the zero point, max pool) on
# integer codes. This notebook takes the rest of seed 003: padding, and the rounding that
# the seed never names.
#
# **Learning goals.** After this notebook you can
#
# 1. pad a quantized max pool correctly: skip the padding or use the lowest code, never the
#    zero point (TV32);
# 2. compare the rounding modes of requantization, TFLite's fixed-point ones included
#    (TV35, TV36);
# 3. say when max pooling keeps the scale, and how PyTorch and TFLite round an average
#    pool (TV38).

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import quant
from pooltutor.pooling import max_pool
from pooltutor.viz.heatmaps import plot_pooling
from pooltutor.viz.relu_explorer import PRESETS
from pooltutor.viz.selfcheck import SelfCheck

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Padding: skip it, or use the lowest code
#
# The last two paragraphs of seed 003 (translated; notebook 05 quotes the rest):
#
# > A negative window before ReLU, $[-8, -5; -3, -6]$, has maximum $-3$. Wrongly inserting
# > zero at a padding border lets a non-existent sample win. An implementation with padding
# > must exclude that position or use the specified minimum value. Our executable pooling
# > function does not support padding.
# >
# > Fusing stages can reduce intermediate memory traffic, but keep the observable values for
# > verification. Compare accumulators, requantized codes, activated values and the pooling
# > output separately. A 4×4 input produces four pooled values; a 3×3 input produces one
# > under the stated floor rule. Document the policy for incomplete windows in the tests.
# > See the primary definitions in ONNX Relu and ONNX MaxPool.

# %% [markdown] slideshow={"slide_type": "subslide"}
# Two of its claims, executed: the negative window, and the sizes under the floor
# rule (2 × 2 window, stride 2, no padding):

# %%
neg = np.array([[[[-8, -5], [-3, -6]]]], dtype=np.float32)
print("max of [-8, -5; -3, -6]:", max_pool(neg, kernel=2, stride=2).output.ravel())
print("4 x 4 input ->", max_pool(np.zeros((1, 1, 4, 4)), kernel=2, stride=2).output.size,
      "pooled values; 3 x 3 input ->",
      max_pool(np.zeros((1, 1, 3, 3)), kernel=2, stride=2).output.size)

# %% [markdown] slideshow={"slide_type": "subslide"}
# If a padding border of the negative window were filled with 0, that non-existent 0 would
# win. On codes the same mistake is a pad that holds the zero point. **TV32**: `uint8`,
# scale 0.5, zero point 128, every real value negative, a 2×2 max pool with stride 1 and
# padding 1, so a $3 \times 3$ output:

# %%
q32 = np.array([[[[120, 126], [110, 100]]]], dtype=np.uint8)
print("codes:\n", q32[0, 0], "\nreal values:\n", quant.dequantize(q32[0, 0], 0.5, 128))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Output `(2, 2)` reads rows 1 and 2, columns 1 and 2 of the input (row 2 and
# column 2 are padding). Which code does the correct quantized max pool put there?

# %% tags=["hide-input"]
r32 = quant.quantized_max_pool(q32, kernel=2, stride=1, padding=1)
SelfCheck("TV32: output (2, 2) of the quantized max pool (K=2, S=1, padding 1, padding skipped)?",
          r32.output[0, 0, 2, 2], explanation=r32.explain(2, 2),
          hint="the window of (2, 2) holds one input cell, the bottom-right one")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The whole output, in codes and in real values:

# %%
print("pooled codes:\n", r32.output[0, 0])
print("real values:\n", quant.dequantize(r32.output[0, 0], 0.5, 128))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The padding is skipped, as PyTorch's quantized `max_pool2d` does. The lowest code
# (0 for `uint8`, −128 for `int8`) gives the same result, because it can never beat a real
# element. A pad holding the zero point, the real 0, wins on the whole border:

# %%
print("pad = lowest code:\n", max_pool(q32, 2, 1, padding=1, pad_taps="lowest").output[0, 0])
zp_padded = np.pad(q32, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=128)
print("pad = zero point (wrong):\n", max_pool(zp_padded, 2, 1).output[0, 0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# Output `(2, 0)` sits in the bottom-left corner: its window holds one input cell and three
# padding cells, so the one input code wins alone. Here it is:

# %% tags=["hide-input"]
p32 = plot_pooling(r32, (2, 0))
p32.figure.set_dpi(80)  # a smaller picture, to fit a slide
p32

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Requantization rounds, and not everyone the same way
#
# $acc \cdot M$ is rarely a whole number. The seed does not say how it is rounded; its
# numbers never land on a tie, so it does not need to. Real runtimes differ:
#
# * `half_even`: ties to the even integer (ONNX `QuantizeLinear`, PyTorch);
# * `half_away`: ties away from zero; `half_up`: ties towards $+\infty$;
# * `tflite_double`: TFLite's default, two roundings in fixed-point arithmetic;
# * `tflite_single`: TFLite's single-rounding variant.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **TV35**: multiplier 0.5, accumulators with exact halves:

# %%
acc35 = np.array([5, -5, 3, -3, 1, -1, 7, -7])
print("acc * M      ", acc35 * 0.5)
print("half_even    ", quant.requantize(acc35, 0.5, 0, rounding="half_even"))
print("half_away    ", quant.requantize(acc35, 0.5, 0, rounding="half_away"))
print("tflite_double", quant.requantize(acc35, 0.5, 0, rounding="tflite_double"))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Ties survive the whole chain. The same 4×4 block of accumulators through the seed's path,
# once rounded half to even and once half away from zero, pools to different codes:

# %%
acc_ties = np.array(PRESETS["4x4 ties (rounding)"])
even = quant.relu_max_pool_chain(acc_ties, 0.5, 0, rounding="half_even")
away = quant.relu_max_pool_chain(acc_ties, 0.5, 0, rounding="half_away")
print("half_even: codes", even.codes.tolist(), "-> pooled", even.pooled.tolist())
print("half_away: codes", away.codes.tolist(), "-> pooled", away.pooled.tolist())

# %% [markdown] slideshow={"slide_type": "fragment"}
# So "compare every stage separately", the seed's good advice, only works if the test
# states the rounding mode too.

# %% [markdown] slideshow={"slide_type": "subslide"}
# TFLite's default mode can even be off by one *without* a tie (TV36): it writes $M$ as a
# 31-bit integer and a power of two, and rounds twice.

# %%
q31, shift = quant.quantize_multiplier(0.3)
print("M = 0.3 as (q, shift):", (q31, shift), "  i.e. M =", q31 / 2**31, "* 2 **", shift)
print("acc * M =", -198 * 0.3)

# %% [markdown] slideshow={"slide_type": "fragment"}
# `tflite_double` rounds twice, each time to the nearest integer with ties away from zero:
# first `acc * q / 2**31`, then the shift by `2 ** shift`. For `acc = -188` (exact value
# $-56.4$):

# %%
acc188 = -188
step1 = quant.requantize([acc188], q31 / 2**31, 0, dtype="int16", rounding="half_away").item()
step2 = quant.requantize([step1], 2.0**shift, 0, dtype="int8", rounding="half_away").item()
print(f"step 1: {acc188 * q31 / 2**31:.4f} -> {step1}")
print(f"step 2: {step1 * 2.0**shift} -> {step2}")
print("tflite_double:", quant.requantize([acc188], 0.3, 0, rounding="tflite_double").item())

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict.** The exact value is $-59.4$. Which code does `tflite_double` produce (zero
# point 0)?

# %% tags=["hide-input"]
tv36 = {mode: quant.requantize([-198], 0.3, 0, rounding=mode).item()
        for mode in quant.REQUANT_ROUNDINGS}
SelfCheck("TFLite's default requantization (tflite_double) of acc = -198, M = 0.3, zero point 0?",
          tv36["tflite_double"], explanation=f"codes by rounding mode: {tv36}",
          hint="not the nearest integer")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Max keeps the scale; average has to round
#
# Max pooling copies one code out of the window, so the pooled code needs no rescaling,
# *provided* input and output share one scale and one zero point (TFLite requires exactly
# that for `MAX_POOL_2D`). Then the largest code is the code of the largest real value:

# %%
pooled = quant.quantized_max_pool(q32, 2).output
print("pooled code:", pooled.ravel(), " real value:", quant.dequantize(pooled, 0.5, 128).ravel())
print("largest real value of the input:", quant.dequantize(q32, 0.5, 128).max())

# %% [markdown] slideshow={"slide_type": "fragment"}
# If the output had its own scale or zero point, the pooled code would have to be
# requantized, with all the rounding questions of section 2.

# %% [markdown] slideshow={"slide_type": "subslide"}
# The seed says average pooling "would introduce division and rounding". True, and here too
# frameworks round differently (TV38): PyTorch's quantized `avg_pool2d` rounds half to even,
# TFLite's `int8` reference kernel half away from zero. Four 2×2 windows whose means are
# 1.5, 2.5, 1.75 and 0.5.
#
# **Predict.** Which code does TFLite's rounding, half away from zero, give the second
# window, `[[2, 3], [2, 3]]` (mean 2.5)?

# %% tags=["hide-input"]
q38 = np.array([[[[1, 2], [1, 2]]], [[[2, 3], [2, 3]]], [[[1, 2], [2, 2]]], [[[0, 0], [0, 2]]]],
               dtype=np.uint8)
tflite38 = quant.quantized_avg_pool(q38, 2, rounding="half_away").ravel()
SelfCheck("TV38: TFLite's int8 average pool of the window [[2, 3], [2, 3]] (mean 2.5)?",
          tflite38[1], explanation=f"TFLite (half away from zero), all four windows: {tflite38}",
          hint="half away from zero: 2.5 goes away from 0")

# %% [markdown] slideshow={"slide_type": "fragment"}
# Both roundings on all four windows:

# %%
print("PyTorch (half_even):", quant.quantized_avg_pool(q38, 2).ravel())
print("TFLite (half_away): ", quant.quantized_avg_pool(q38, 2, rounding="half_away").ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# Measured, not read: the test suite converts small Keras models to full-integer `int8`
# TFLite and runs them in the interpreter that TensorFlow 2.21 bundles. `AVERAGE_POOL_2D`
# adds the codes of the real elements only (SAME padding is not counted), divides by their
# number and rounds half away from zero: `quantized_avg_pool(..., rounding="half_away")`
# gives the interpreter's codes exactly; `MAX_POOL_2D` gives those of `quantized_max_pool`.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. What the seed gets right, and what it leaves out
#
# The seed's arithmetic is correct in every example (TV29–TV33), and its advice to keep every
# stage observable is exactly what `relu_max_pool_chain` does (notebook 05). Four things
# are worth adding:
#
# 1. **Its zero-point example cannot catch the bug it warns about.** With codes
#    `[[126, 132], [134, 120]]` the wrong ReLU $\max(q, 0)$ also pools to 134. Use a window
#    whose real values are all negative (TV31 in notebook 05: right 128, wrong 127).
# 2. **It does not name the rounding mode of requantization.** Its numbers avoid ties, so
#    they cannot show it, but a test with ties must say which mode it expects (TV35, TV36).
# 3. **"Max pooling preserves the scale"** holds only when input and output share one scale
#    and one zero point.
# 4. **"Average pooling would introduce division and rounding"**, and the rounding differs
#    between frameworks (TV38).
#
# And one caution about its reference: ONNX `Relu` applied to raw integer codes is the wrong
# clamp unless the zero point is 0 (TV37, notebook 05).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * A quantized max pool skips padding (or pads with the lowest code). A pad holding the
#   zero point is a real 0 that wins over every negative value (TV32).
# * Requantization rounds, and the rounding mode is part of the specification: half to
#   even, half away from zero, or TFLite's fixed-point rounding, which can be off by one
#   without a tie (TV35, TV36).
# * Max pooling copies codes and keeps the scale when input and output share scale and zero
#   point. Average pooling divides and rounds: PyTorch half to even, TFLite half away from
#   zero (TV38).
#
# **Next:** `06_porting_a_model`, where a whole ONNX model goes through every runtime of
# the course. `00_course_map` has the map of it all.
