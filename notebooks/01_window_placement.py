# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 01 · Where the windows go
#
# **Window placement under stride, dilation and padding** (about 35 minutes)
#
# **Learning goals.** After this notebook you can
#
# 1. say which input positions a window reads, for any kernel, stride, dilation and
#    padding;
# 2. step through a max pool and predict every output and the input that wins it;
# 3. explain what padding means in a max window (it is *skipped*, not a zero);
# 4. check DirectML's `MAX_POOLING2` page: find the dilation missing from its output-size
#    formula (test vector TV08) and state its tie rule.
#
# You need notebook 00 (or just: "pooling keeps one number per window").

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import frameworks, pool_geometry
from pooltutor.pooling import max_pool
from pooltutor.directml import dml_max_pooling2_layout
from pooltutor.viz.heatmaps import plot_pooling
from pooltutor.viz.selfcheck import SelfCheck
from pooltutor.viz.window_stepper import WindowStepper, demo_input

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. One window
#
# The letters, per spatial axis (the same in every notebook):
#
# | letter | meaning |
# |---|---|
# | $I$ | input length |
# | $K$ | kernel (window) length: how many *taps* the window reads |
# | $S$ | stride: how far the window moves per output |
# | $D$ | dilation: the distance between two taps ($D = 1$: neighbours) |
# | $p_b$, $p_e$ | padding before and after the input |

# %% [markdown] slideshow={"slide_type": "subslide"}
# Window $o$ (counting from 0) reads the taps $t = o \cdot S - p_b + j \cdot D$ for
# $j = 0, \dots, K-1$. A negative $t$ lies in the padding before the input.
#
# The classic first: 0 to 15 in a 4 × 4 grid, a 2 × 2 window, stride 2.

# %%
x = np.arange(16.0).reshape(1, 1, 4, 4)
r = max_pool(x, kernel=2, stride=2, return_indices=True)
print(r.output[0, 0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# Output cell `(0, 1)`: its window (orange), the winning input cell (yellow), and where
# the result lands.

# %% tags=["hide-input"]
plot_pooling(r, (0, 1))

# %% [markdown] slideshow={"slide_type": "subslide"}
# A result explains any of its cells, tap by tap:

# %%
print(r.explain(0, 1))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Stepping through a max pool
#
# A 5 × 5 input, a 3 × 3 window, stride 2, one cell of padding on every side:

# %%
x5 = demo_input((5, 5))
r5 = max_pool(x5[None, None], kernel=3, stride=2, padding=1, return_indices=True)
print(x5)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict** before you step: the windows start at rows and columns $-1, 1, 3$.
# Which value lands in output cell `(1, 2)`?

# %% tags=["hide-input"]
SelfCheck("Output cell (1, 2) of the 3 × 3 max pool, stride 2, padding 1, on the input printed above?",
          r5.output[0, 0, 1, 2], explanation=r5.explain(1, 2),
          hint="window (1, 2) starts at row 1, column 3; its last column is padding")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first window, and the whole output: check your answer. Hatched grey cells are padding.

# %% tags=["hide-input"]
p5 = plot_pooling(r5, (0, 0))
p5.figure.set_dpi(80)  # a smaller picture, to fit a slide
p5

# %% [markdown] slideshow={"slide_type": "skip"}
# Check with the **window stepper**: press *Play* or move *position*. Change the window,
# stride, dilation or padding and watch the output follow (this needs a running kernel).

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
stepper = WindowStepper(x5, window=3, stride=2, padding=1)
stepper

# %% [markdown] slideshow={"slide_type": "fragment"}
# Then check your answer with the window stepper below (slider or *Play*). It is computed
# in advance, so it works without a kernel, but cannot change the pooling.

# %% slideshow={"slide_type": "subslide"} tags=["hide-input"]
stepper.static_widget()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Stride: where windows start
#
# One axis, $I = 7$, $K = 3$, no padding. The stride is the distance between window starts:

# %%
print("stride 1 starts:", pool_geometry((7,), kernel=3, stride=1).axes[0].window_starts)
print("stride 2 starts:", pool_geometry((7,), kernel=3, stride=2).axes[0].window_starts)
print("stride 3 starts:", pool_geometry((7,), kernel=3, stride=3).axes[0].window_starts)

# %% [markdown] slideshow={"slide_type": "fragment"}
# * Stride 1: neighbouring windows share two taps.
# * Stride 2: they share one.
# * Stride 3: they touch. A window at 6 would need positions 6 to 8, past the input's end,
#   so there is none, and position 6 is never read (notebook 02 is about this).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Dilation: taps with gaps
#
# With dilation $D$ the $K$ taps sit $D$ positions apart: the window spans
# $D_K = (K - 1) \cdot D + 1$ positions but reads only $K$. Three taps, dilation 2, on 1 to 8:

# %%
x_dil = np.arange(1.0, 9.0).reshape(1, 1, 8)
r_dil = max_pool(x_dil, kernel=3, stride=1, dilation=2, return_indices=True)
ax_dil = r_dil.geometry.axes[0]
print(ax_dil.describe())
print("window 0 reads", ax_dil.taps(0), "  window 3 reads", ax_dil.taps(3))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Window 1 spans five positions, 1 to 5, and reads three of them:

# %% tags=["hide-input"]
plot_pooling(r_dil, (1,))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Input length 9, kernel 3, stride 2, dilation 2, padding 1 on both sides.
# Which input positions does window 2 read? (Type them separated by commas.)

# %% tags=["hide-input"]
g_taps = pool_geometry((9,), kernel=3, stride=2, padding=1, dilation=2)
start = g_taps.axes[0].window_starts[2]
SelfCheck("Input positions read by window 2 (I=9, K=3, S=2, D=2, padding 1)?",
          g_taps.axes[0].taps(2), hint="start at o*S - p_b, then add D for every further tap",
          explanation=g_taps.describe() + f"\nwindow 2 starts at 2*2 - 1 = {start}")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. What padding means in a max window
#
# PyTorch's and ONNX's kernels, OpenVINO, Caffe and TensorFlow **skip** padding taps (never
# compare them); the PyTorch, OpenVINO and TensorRT documents call padding **−∞**. The two
# readings agree except in two corner cases:
#
# * a window with **no input element** (TV20: input `[5, 7]`, $K = 2$, $D = 3$,
#   padding 1: the taps −1 and 2 are both padding);
# * an input **−∞** next to padding (TV21).

# %% [markdown] slideshow={"slide_type": "subslide"}
# TV20, tap by tap:

# %%
x20 = np.array([[[5.0, 7.0]]])
r_empty = max_pool(x20, kernel=2, stride=1, padding=1, dilation=3, return_indices=True)
print(r_empty.explain(0))

# %% [markdown] slideshow={"slide_type": "subslide"}
# An empty window has no maximum. pooltutor returns −∞ with index −1; frameworks differ
# (notebook 03 compares them).

# %% tags=["hide-input"]
plot_pooling(r_empty, (0,))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict (TV21).** Input `[-inf, 2]`, kernel 2, stride 2, padding 1 on both sides,
# padding skipped. The first window reads the padding tap −1 and the input tap 0.
# What is output 0?

# %% tags=["hide-input"]
x21 = np.array([[[-np.inf, 2.0]]], dtype=np.float32)
r21 = max_pool(x21, kernel=2, stride=2, padding=1, return_indices=True)
SelfCheck("Output 0 of max pooling [-inf, 2] with K=2, S=2, padding 1 (padding skipped)?",
          r21.output[0, 0, 0], explanation=r21.explain(0), hint="a skipped tap cannot win")

# %% [markdown] slideshow={"slide_type": "fragment"}
# An input −∞ must still beat skipped padding. OpenVINO's reference kernel starts every
# window at the lowest finite float, so it reports that number; PyTorch and TensorRT say −∞:

# %%
print("OpenVINO:", frameworks.openvino_max_pool(x21, [2], [1], [1], [2])[0].ravel())
print("PyTorch: ", frameworks.torch_max_pool(x21, 2, 2, 1).ravel())
print("TensorRT:", frameworks.tensorrt_pooling(x21, 2, 2, 1, 1).ravel())

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. A real document: DirectML `MAX_POOLING2` (seed 002)
#
# Seed 002 is a Japanese translation of Microsoft's page for DirectML's
# `DML_MAX_POOLING2_OPERATOR_DESC`: the maximum of each sliding window, and optionally its
# index. It is `MAX_POOLING1` plus one field, `Dilations`. We check three of its sentences;
# the whole page, in English, is in `docs/seed_documents.md`.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The output size: where did the dilation go?
#
# The page sizes the output as
# `PaddedSize = InputTensor->Sizes[i + 2] + StartPadding[i] + EndPadding[i]` and
# `OutputTensor->Sizes[i + 2] = (PaddedSize - WindowSizes[i]) / Strides[i] + 1`.
# There is no `Dilations` in it: that is `MAX_POOLING1`'s formula, wrong as soon as a
# dilation is not 1. The mistake is Microsoft's; the seed copied it faithfully.
#
# Test vector **TV08**: $I = 5$, `WindowSize` 2, `Dilations` 2, padding 1 on both sides,
# stride 1. `PaddedSize` is 7, so the page's formula gives $(7 - 2)/1 + 1 = 6$ windows.

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict.** How many windows really fit? (Remember $D_K = (K - 1) \cdot D + 1$.)

# %% tags=["hide-input"]
doc = pool_geometry((5,), kernel=2, stride=1, padding=1)              # the doc's formula: D ignored
real = pool_geometry((5,), kernel=2, stride=1, padding=1, dilation=2)
SelfCheck("TV08: output length of DirectML MAX_POOLING2 with I=5, WindowSize=2, Dilations=2, "
          "pads 1/1, stride 1?", real.output_shape[0],
          explanation="doc:  " + doc.describe() + "\nreal: " + real.describe(),
          hint="the dilated window spans 3 positions of the padded 7")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Where the real windows start, and what the last one reads:

# %%
ax8 = real.axes[0]
print("window starts:", ax8.window_starts)
print("last window's taps:", ax8.taps(4), ax8.tap_kinds(4))

# %% [markdown] slideshow={"slide_type": "fragment"}
# The last window starts at 3 and reads 3 and 5 (end padding); a sixth would need position
# 6, beyond the padded input. The right formula uses the dilated window,
# `(PaddedSize - (1 + (WindowSize - 1) * Dilation)) / Stride + 1`, as Microsoft's DirectMLX
# helpers and `pooltutor.frameworks` do:

# %%
x8 = np.arange(1.0, 6.0).reshape(1, 1, 1, 5)       # TV08 as a 4-D tensor: a 1 × 5 picture
y8, idx8 = frameworks.directml_max_pooling2(x8, strides=1, window_size=(1, 2), start_padding=(0, 1),
                                            end_padding=(0, 1), dilations=(1, 2))
print(y8.ravel(), idx8.ravel(), idx8.dtype)

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Indices: one number for the whole tensor
#
# DirectML's `UINT32` indices "treat the input tensor as a contiguous one-dimensional
# array". Read literally, the batch and channel offsets are part of the number; PyTorch
# numbers inside each `(n, c)` plane. TV22: two pictures of two channels, each 2 × 3; a
# 2 × 2 window, stride 1:

# %%
x22 = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
                [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=np.float32)
print("PyTorch: ", frameworks.torch_max_pool(x22, 2, 1, return_indices=True)[1].ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict.** Picture `n = 1`, channel `c = 1` (values `[[0, 2, 0], [3, 0, 1]]`): its first
# window's maximum is the 3 at row 1, column 0. What index does DirectML report for it?

# %% tags=["hide-input"]
r22 = max_pool(x22, kernel=2, stride=1, return_indices=True, index_layout="tensor")
SelfCheck("DirectML index of the maximum of window (0, 0) in picture 1, channel 1 (TV22)?",
          r22.indices[1, 1, 0, 0], explanation=r22.explain(1, 1, 0, 0),
          hint="count every element of the planes before it: (n*C + c) * H * W, then row*W + col")

# %% [markdown]
# DirectML's indices of all eight windows, next to PyTorch's above:

# %%
print("DirectML:", frameworks.directml_max_pooling2(x22, 1, 2, 0, 0, 1)[1].ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Ties: the first one wins
#
# "If several elements within the sliding window have the same value, the later equal
# values are ignored and the index points to the first value encountered." In which order?
# The page does not say; every framework we know scans row by row, as pooltutor does.
# TV15: input `[3, 3, 1, 3]`, window 2, stride 1:

# %%
x15 = np.array([[[[3.0, 3.0, 1.0, 3.0]]]])
print(frameworks.directml_max_pooling2(x15, 1, (1, 2), 0, 0, 1))

# %% [markdown] slideshow={"slide_type": "fragment"}
# Window 0 holds two 3s and reports index 0, the first; window 2 reports 3. (Nor does the
# page say what padding is in a max window; pooltutor skips it.)

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Side note: the struct in memory
#
# The seed also lists the C struct's byte offsets (for languages such as HSP that poke
# bytes): 72 bytes on x64, 36 on x86. `ctypes` lays out its eight pointers and one 32-bit
# `UINT` by the C rules:

# %% tags=["hide-input"]
print(dml_max_pooling2_layout(64).table())

# %% [markdown] slideshow={"slide_type": "subslide"}
# And the 32-bit layout:

# %% tags=["hide-input"]
print(dml_max_pooling2_layout(32).table())

# %% [markdown] slideshow={"slide_type": "fragment"}
# The seed is right. On x64, 4 bytes of padding follow `DimensionCount` (offset 24), so
# that the next pointer starts at a multiple of 8; on x86 nothing is padded.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * Window $o$ reads the taps $t = o \cdot S - p_b + j \cdot D$: it spans
#   $D_K = (K - 1) \cdot D + 1$ positions and reads $K$ of them.
# * A max pool skips padding taps (or treats them as −∞: the same answer unless a window
#   holds no input element, or the input holds −∞).
# * Ties go to the first maximum in row-major order.
# * DirectML's output-size formula leaves out the dilation: TV08 has 5 windows, not 6.
#
# **Next:** `02_output_size_rounding`: how many windows fit when they do not fit exactly.
