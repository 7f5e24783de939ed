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
# 1. read an integer code as the real value it stands for, and follow int32 accumulators
#    through requantization, ReLU and a max pool, stage by stage (test vectors TV29, TV30);
# 2. explain why quantized ReLU clamps at the zero point, and choose a test that catches the
#    bug of clamping at the literal 0 (TV31, TV37).

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import quant
from pooltutor.viz.folded import folded
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

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Same `uint8` codes, scale 0.5, zero point 128. Which code stores the real
# value −3?

# %% tags=["hide-input"]
q_minus3 = quant.quantize(-3.0, scale=0.5, zero_point=128).item()
SelfCheck("uint8, scale 0.5, zero point 128: which code stores the real value -3?", q_minus3,
          explanation=f"q = x / s + z = -3 / 0.5 + 128 = {q_minus3}",
          hint="solve x = (q - z) * s for q")

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
#
# Its arithmetic is right; we check it number for number. Its last two paragraphs, on
# padding and on testing every stage, open notebook 05b.

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
plot_quant_chain(chain)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every pooled code can explain itself, in codes and in real values:

# %%
folded(chain.explain(0, 0), f"Pooled code {chain.pooled[0, 0]}, explained in codes and real values")

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
plot_quant_chain(chain3)

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
p31

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### ONNX `Relu` on integer codes (TV37)
#
# The seed ends by pointing to ONNX `Relu` as the primary definition. Careful: ONNX `Relu`
# accepts `int8` tensors and computes $\max(x, 0)$ on whatever numbers it gets, the wrong
# clamp on codes unless $z = 0$. With `int8` codes and zero point $-20$ it even *raises*
# codes to the code 0, which means $+20 s$: with scale 1, the real values $-80$ and $15$
# both come out as $20$:

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
# Choose the accumulators, multiplier, dtype, zero point and pool: the explorer shows the
# chain with the right ReLU (top), and below it the codes against their real values and
# what the wrong ReLU would pool. It needs a running Python kernel. Start from the
# all-negative block and move the zero point.

# %% slideshow={"slide_type": "skip"}
explorer = ZeroPointReluExplorer(preset="all negative (TV31)", zero_point=128, dtype="uint8")
explorer

# %% [markdown] slideshow={"slide_type": "skip"}
# The same at two zero points, 0 and 128, computed in advance (works without a kernel):

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer.static_widget(zero_points=[0, 128])

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * A code $q$ means $(q - z) \cdot s$. The chain requantizes int32 accumulators
#   ($\text{round}(acc \cdot M) + z$), applies ReLU, and max pools; keep every stage to test
#   it.
# * Quantized ReLU is $\max(q, \max(q_{min}, z))$: it clamps at the zero point, the real 0.
#   Only a window of all-negative real values tells it apart from the wrong $\max(q, 0)$;
#   the seed's own example cannot (TV31).
# * ONNX `Relu` applied to raw integer codes is that wrong clamp unless $z = 0$ (TV37).
#
# **Next:** `05b_requantization_rounding`: padding a quantized max pool, and how
# requantization and average pooling round.
