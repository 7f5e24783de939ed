# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 05 · The quantized ReLU → max pool chain
#
# **Requantize, ReLU at the zero point, max pool: every stage, in integers** (about 35 minutes;
# you need notebook 01)
#
# **Learning goals.** After this notebook you can
#
# 1. follow int32 accumulators through requantization, ReLU and a max pool, stage by stage
#    (test vectors TV29, TV30);
# 2. explain why quantized ReLU clamps at the zero point, and choose a test that catches the
#    bug of clamping at the literal 0 (TV31, TV37);
# 3. pad a quantized max pool correctly: skip the padding or use the lowest code, never the
#    zero point (TV32);
# 4. compare the rounding modes of requantization (TV35, TV36) and of average pooling
#    (TV38), and say why they matter.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import quant
from pooltutor.pooling import max_pool
from pooltutor.viz.heatmaps import plot_pooling
from pooltutor.viz.relu_explorer import PRESETS, ZeroPointReluExplorer
from pooltutor.viz.selfcheck import SelfCheck
from pooltutor.viz.quant_chain import plot_quant_chain
from pooltutor.viz.zero_point import plot_zero_point_relu

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Codes and real values
#
# On a phone or a microcontroller a network often runs on 8-bit integers. A convolution
# leaves 32-bit sums behind; they are scaled back to 8 bits (*requantized*), passed through
# ReLU and max pooled, without ever computing a real number. Each step is easy; the traps
# are in what the integers *mean*.
#
# A quantized tensor stores integer **codes** $q$. With a **scale** $s > 0$ and a
# **zero point** $z$ (an integer code), the code $q$ stands for the real value
#
# $$x = (q - z) \cdot s .$$
#
# %% [markdown] slideshow={"slide_type": "subslide"}
# So the real value 0 is stored as the code $z$, not as the code 0. With `uint8` codes
# (0 to 255), scale 0.5 and zero point 128:

# %%
codes = np.array([0, 110, 126, 128, 134, 255], dtype=np.uint8)
print("codes:      ", codes)
print("real values:", quant.dequantize(codes, scale=0.5, zero_point=128))

# %% [markdown] slideshow={"slide_type": "fragment"}
# Because $s > 0$, a larger code always means a larger real value. Keep that in mind: it is
# what makes max pooling on codes possible at all.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. The source document (seed 003), in English
#
# Seed 003 is a short Portuguese text from a course on integer inference. Translated:
#
# > **Connecting ReLU and max pooling.** *Include the post-processing stages.*
# >
# > Inference can continue beyond the convolution. ReLU selects the larger of each real value
# > and zero. Max pooling selects the largest value of a spatial window. One works element by
# > element; the other changes the spatial size and needs another completion condition. Our
# > path requantizes, applies ReLU and then runs a 2×2 max pooling without padding and with
# > stride two. The floor convention discards an incomplete final row or column.

# %% [markdown] slideshow={"slide_type": "subslide"}
# > For raw quantized output, the real zero is the output zero point $z_y$. A positive scale
# > preserves the ordering, so ReLU uses $\max(q, z_y)$. Comparing `uint8` codes with a
# > literal zero when $z_y = 128$ would wrongly preserve negative real values.
# >
# > **Worked chain.** The accumulators $[-2, 4; 6, -8]$ with multiplier 0.5 and zero point
# > zero become $[-1, 2; 3, -4]$. ReLU produces $[0, 2; 3, 0]$ and the pooling selects three.
# > Reducing the spatial resolution and rescaling the numbers are separate concepts. Max
# > pooling picks an existing code and therefore preserves its scale in this exercise.
# >
# > With zero point 128, the codes $[126, 132; 134, 120]$ become $[128, 132; 134, 128]$
# > after ReLU and produce the code 134 when pooled. The reference remains the real zero even
# > when the storage representation changes. Average pooling would introduce division and
# > rounding, so it is not interchangeable with this implementation.

# %% [markdown] slideshow={"slide_type": "subslide"}
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
#
# Its arithmetic is right. We check it number for number, and along the way find four
# places where it says less than it should.

# %% [markdown] slideshow={"slide_type": "subslide"}
# Two of its claims, executed first: the negative window, and the sizes under the floor
# rule (2 × 2 window, stride 2, no padding):

# %%
neg = np.array([[[[-8, -5], [-3, -6]]]], dtype=np.float32)
print("max of [-8, -5; -3, -6]:", max_pool(neg, kernel=2, stride=2).output.ravel())
print("4 x 4 input ->", max_pool(np.zeros((1, 1, 4, 4)), kernel=2, stride=2).output.size,
      "pooled values; 3 x 3 input ->",
      max_pool(np.zeros((1, 1, 3, 3)), kernel=2, stride=2).output.size)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. The chain, stage by stage (TV29)
#
# `relu_max_pool_chain` runs the seed's path and keeps every stage:
#
# 1. **accumulators**: the int32 sums a convolution leaves behind;
# 2. **codes**: $\text{round}(acc \cdot M) + z$, saturated to the code range, with the
#    multiplier $M$ (input scale times weight scale, divided by the output scale);
# 3. **activated**: ReLU;
# 4. **pooled**: a 2×2 max pool, stride 2, no padding, floor rule.

# %%
chain = quant.relu_max_pool_chain([[-2, 4], [6, -8]], multiplier=0.5, zero_point=0)
print(chain)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Exactly the seed's numbers. The same chain as a picture (the window is outlined, the
# winning code marked):

# %%
plot_quant_chain(chain).figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every pooled code can explain itself, in codes and in real values:

# %%
print(chain.explain(0, 0))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** The same accumulators and multiplier 0.5, but stored as `uint8` with zero
# point 128. Which code comes out of the pool?

# %% tags=["hide-input"]
chain128 = quant.relu_max_pool_chain([[-2, 4], [6, -8]], 0.5, 128, dtype="uint8")
SelfCheck("Pooled code of acc [[-2, 4], [6, -8]], M = 0.5, uint8, zero point 128?",
          chain128.pooled[0, 0], explanation=chain128.explain(0, 0),
          hint="requantize first: round(acc * 0.5) + 128")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The floor rule (TV33): a 4×4 block gives four pooled codes, a 3×3 block gives one, and the
# third row and column are never read. In this 3×3 block the largest value, the 8 in the
# corner, is simply lost:

# %%
chain3 = quant.relu_max_pool_chain(PRESETS["3x3 (floor: one output)"], 1.0, 0)
plot_quant_chain(chain3).figure

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. ReLU clamps at the zero point
#
# ReLU keeps $\max(x, 0)$ of the *real* value. The real 0 is the code $z$, so on codes
# ReLU is $\max(q, z)$ (and never below the smallest code: $\max(q, \max(q_{min}, z))$).
# The seed's second example, zero point 128 (TV30):

# %%
chain30 = quant.relu_max_pool_chain([[-2, 4], [6, -8]], 1.0, 128, dtype="uint8", scale=0.5)
print(chain30)
print("with the wrong ReLU max(q, 0):", quant.relu(chain30.codes, zero_point=0).tolist())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The wrong ReLU, $\max(q, 0)$ on the raw codes, does nothing at all to `uint8` codes: no
# code is below 0. It leaves the codes 126 and 120, negative real values, in place: the bug
# the seed warns about. But look at the pool: the largest code, 134, wins either way. **The
# seed's example cannot catch the bug it warns about.** A test built on it passes with the
# wrong ReLU.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### A test that can fail (TV31)
#
# To catch the bug, every real value in the window must be negative: then the right ReLU
# makes them all 0 (code 128) and the pool returns 128, while the wrong one lets a negative
# value through. **TV31** is such a block: `uint8` codes `[[126, 120], [110, 127]]`,
# zero point 128, scale 0.5.
#
# **Predict.** With the wrong ReLU, which code does the max pool return for this block?

# %% tags=["hide-input"]
codes31 = np.array([[[[126, 120], [110, 127]]]], dtype=np.uint8)
wrong31 = quant.quantized_max_pool(quant.relu(codes31, zero_point=0), 2)
SelfCheck("TV31: codes [[126, 120], [110, 127]], zero point 128. "
          "Pooled code after the WRONG ReLU max(q, 0)?", wrong31.output[0, 0, 0, 0],
          explanation=wrong31.explain(0, 0), hint="max(q, 0) leaves uint8 codes unchanged")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Top: each ReLU on every `uint8` code. Bottom: the TV31 block through both ReLUs and the
# pool. The wrong ReLU lets 127 win, the real −0.5; the right one gives 128, the real 0.

# %% tags=["hide-input"]
p31 = plot_zero_point_relu(0.5, 128, "uint8", codes=codes31[0, 0])
p31.figure.set_dpi(85)  # 890 px wide: fits a slide, cell numbers stay legible
p31.figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### ONNX `Relu` on integer codes (TV37)
#
# The seed points to ONNX `Relu` as the primary definition. Careful: ONNX `Relu` accepts
# `int8` tensors and computes $\max(x, 0)$ on whatever numbers it gets. On codes that is the
# wrong clamp unless $z = 0$. With `int8` codes and zero point $-20$ it even *raises* codes
# to the code 0, which means $+20 s$. With scale 1, the real values $-80$ and $15$ both
# come out as $20$:

# %%
int8_codes = np.array([-100, -5, 0, 7], dtype=np.int8)
print("real values (s = 1):    ", quant.dequantize(int8_codes, 1.0, -20))
print("ReLU at the zero point: ", quant.relu(int8_codes, zero_point=-20))
print("ONNX Relu on the codes: ", quant.relu(int8_codes, zero_point=0))

# %% [markdown] slideshow={"slide_type": "fragment"}
# In a quantized ONNX graph (the "QDQ" form), `Relu` sits between a `DequantizeLinear` and
# a `QuantizeLinear`, so it sees real values, or a runtime fuses it into the previous
# layer's clamp, which is $[\max(q_{min}, z), q_{max}]$ (TFLite computes exactly that range).

# %% [markdown] slideshow={"slide_type": "skip"}
# ### Try it
#
# Choose the accumulators, the multiplier, the dtype, the zero point and the pool; the
# explorer shows the chain with the right ReLU, at the zero point (top), and below it the
# codes against their real values and what the wrong ReLU, at code 0, would pool. It needs
# a running Python kernel. Start from the all-negative block and move the zero point.

# %% slideshow={"slide_type": "skip"}
explorer = ZeroPointReluExplorer(preset="all negative (TV31)", zero_point=128, dtype="uint8")
explorer

# %% [markdown] slideshow={"slide_type": "skip"}
# The same at two zero points, 0 and 128, computed in advance (works without a kernel):

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer.static_widget(zero_points=[0, 128])

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Padding: skip it, or use the lowest code
#
# The seed's negative window $[-8, -5; -3, -6]$ has maximum $-3$. If a padding border were
# filled with 0, that non-existent 0 would win. On codes the same mistake is a pad that holds
# the zero point. **TV32**: `uint8`, scale 0.5, zero point 128, every real value negative,
# a 2×2 max pool with stride 1 and padding 1, so a $3 \times 3$ output:

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
p32.figure

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. Requantization rounds, and not everyone the same way
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
# ## 7. Max keeps the scale; average has to round
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
# requantized, with all the rounding questions of section 6.

# %% [markdown] slideshow={"slide_type": "subslide"}
# The seed says average pooling "would introduce division and rounding". True, and here too
# frameworks round differently (TV38): PyTorch's quantized `avg_pool2d` rounds half to even,
# TFLite's `int8` reference kernel half away from zero. Four 2×2 windows whose means are
# 1.5, 2.5, 1.75 and 0.5:

# %%
q38 = np.array([[[[1, 2], [1, 2]]], [[[2, 3], [2, 3]]], [[[1, 2], [2, 2]]], [[[0, 0], [0, 2]]]],
               dtype=np.uint8)
print("PyTorch (half_even):", quant.quantized_avg_pool(q38, 2).ravel())
print("TFLite (half_away): ", quant.quantized_avg_pool(q38, 2, rounding="half_away").ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# Measured, not read: the test suite converts small Keras models to full-integer `int8`
# TFLite and runs them in the interpreter that TensorFlow 2.21 bundles. `AVERAGE_POOL_2D`
# adds the codes of the real elements only (SAME padding is not counted), divides by their
# number and rounds half away from zero: `quantized_avg_pool(..., rounding="half_away")`
# gives the interpreter's codes exactly; `MAX_POOL_2D` gives those of `quantized_max_pool`.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 8. What the seed gets right, and what it leaves out
#
# The seed's arithmetic is correct in every example (TV29–TV33), and its advice to keep every
# stage observable is exactly what `relu_max_pool_chain` does. Four things are worth adding:
#
# 1. **Its zero-point example cannot catch the bug it warns about.** With codes
#    `[[126, 132], [134, 120]]` the wrong ReLU $\max(q, 0)$ also pools to 134. Use a window
#    whose real values are all negative (TV31: right 128, wrong 127).
# 2. **It does not name the rounding mode of requantization.** Its numbers avoid ties, so
#    they cannot show it, but a test with ties must say which mode it expects (TV35, TV36).
# 3. **"Max pooling preserves the scale"** holds only when input and output share one scale
#    and one zero point.
# 4. **"Average pooling would introduce division and rounding"**, and the rounding differs
#    between frameworks (TV38).
#
# And one caution about its reference: ONNX `Relu` applied to raw integer codes is the wrong
# clamp unless the zero point is 0 (TV37).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * A code $q$ means $(q - z) \cdot s$. The chain requantizes int32 accumulators
#   ($\text{round}(acc \cdot M) + z$), applies ReLU, and max pools; keep every stage to test
#   it.
# * Quantized ReLU is $\max(q, \max(q_{min}, z))$: it clamps at the zero point, the real 0.
#   Only a window of all-negative real values tells it apart from the wrong $\max(q, 0)$.
# * A quantized max pool skips padding (or pads with the lowest code). A pad holding the
#   zero point is a real 0 that wins over every negative value.
# * Max pooling copies codes and keeps the scale when input and output share scale and zero
#   point. Requantization and average pooling round, and the rounding mode is part of the
#   specification: half to even, half away from zero, or TFLite's fixed-point rounding.
#
# This is the last notebook of the course. Go back to `00_course_map` for the map, or
# open the explorers again and try to break each rule you met.
