# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # pooltutor: the arithmetic of pooling layers
#
# **Course map and a first look** (about 20 minutes)
#
# Pooling looks like the easiest layer of a neural network: slide a small window over
# the input and keep the largest value (max pooling) or the mean (average pooling).
# Yet one model gives different shapes, values and indices in PyTorch, ONNX, TensorRT,
# OpenVINO, DirectML and TensorFlow. This course shows where each window goes and which
# rule each framework applies, on numbers small enough to check by hand.
#
# **Learning goals.** After this notebook you can
#
# 1. find your way through the seven notebooks and say what each one teaches;
# 2. say what max and average pooling do to a real picture;
# 3. predict the output shape of a pooling from the input size, the kernel and the stride;
# 4. explain in one sentence why rounding *down* and rounding *up* give different shapes.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## The course map
#
# | notebook | what you learn | source document | time |
# |---|---|---|---|
# | `00_course_map` | this map; pooling a real picture under different rules | – | 20 min |
# | `01_window_placement` | where windows go under stride, dilation and padding; stepping through a max pool; DirectML's `MAX_POOLING2` | seed 002, DirectML (Japanese) | 35 min |
# | `02_output_size_rounding` | floor and ceil; TensorRT's six padding modes; the header's Pooling Examples 1 and 2 | seed 004, TensorRT (English) | 40 min |
# | `02b_one_model_six_runtimes` | convolution and deconvolution sizes; the two ceil rules; one model, six runtimes, different shapes | seed 004, TensorRT (English) | 30 min |

# %% [markdown] slideshow={"slide_type": "subslide"}
# | notebook | what you learn | source document | time |
# |---|---|---|---|
# | `03_index_flattening` | one argmax, many numbers: PyTorch, ONNX, DirectML, OpenVINO, TensorFlow; ties, NaN, empty windows; MaxUnpool | – | 35 min |
# | `03b_gradients_and_your_own_pool` | max pooling's backward pass: gradients routed to the winners, ties, overlapping windows, MaxUnpool as the same scatter; write your own max pool | – | 30 min |
# | `04_adaptive_pooling` | OpenVINO `AdaptiveMaxPool-8`: overlapping bins, per-plane indices, export as a fixed pool | seed 000, OpenVINO (Japanese) | 30 min |
# | `05_quantized_relu` | the quantized ReLU → max pool chain; ReLU clamps at the zero point | seed 003 (Portuguese) | 35 min |
# | `05b_requantization_rounding` | padding a quantized max pool; requantization rounding modes; TFLite and average pooling | seed 003 (Portuguese) | 30 min |
# | `06_porting_a_model` | auditing an ONNX model: every pooling and convolution node under the ONNX spec, onnxruntime, OpenVINO, TensorRT and PyTorch; GoogLeNet's stem | – | 30 min |
#
# Work through 01 and 02 first, in that order: everything else builds on them. Take 03
# before 04, whose indices it explains; 05 needs only 01, and 05b follows 05; 06 needs 01,
# 02 and 02b.
#
# The four source documents (the *seeds*) are real reference pages, translated into
# English here. Each has small mistakes; the notebooks point them out, kindly and with
# the evidence, citing the test vectors (TV01–TV39) of the course's specification.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### How to work with these notebooks
#
# * **Predict, then check.** Every notebook has exercises like the one below. Type your
#   prediction into the box and press *Check*: the widget says right or wrong and shows the
#   computation. In exported slides (no Python running) open *Show answer* instead.
# * **Explorers.** Some cells show a small app with sliders: move them and watch the
#   windows move. A static picture of the same thing sits next to each explorer.
# * **Slides.** `pooltutor slides` turns every notebook into a slide deck (see the README).
# * **No magic.** Every number comes from the `pooltutor` library; the cells only call it.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import pooltutor
from pooltutor.geometry import effective_window
from pooltutor.viz.gallery import plot_image_pooling, sample_image
from pooltutor.viz.selfcheck import SelfCheck

# %% [markdown] slideshow={"slide_type": "slide"}
# ## A real picture
#
# matplotlib ships a portrait of Grace Hopper. We load it in gray, as an array shaped
# `(N, C, H, W)`: one picture, one channel, `H` rows and `W` columns. That is the layout
# every pooling function in this course takes.

# %%
x = sample_image("grace_hopper.jpg")
print("shape (N, C, H, W):", x.shape, " values from", x.min(), "to", x.max())

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Max pooling with an 8 × 8 window and stride 8 (the stride defaults to the
# kernel size) cuts the picture into 8 × 8 blocks and keeps one number per block. What
# is the output shape `(H, W)`?

# %% tags=["hide-input"]
g8 = pooltutor.pool_geometry(x.shape[2:], kernel=8)
SelfCheck("Output shape (H, W) of an 8 × 8 max pool, stride 8, on the 600 × 512 picture?",
          g8.output_shape, explanation=g8.describe(),
          hint="floor(600 / 8) rows, floor(512 / 8) columns")

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## Max or average?
#
# Both panels pool the same 8 × 8 blocks. All panels share one gray scale, and every
# panel is drawn on the input's pixel grid, so one output pixel covers its 8 × 8 block.

# %%
plot_image_pooling(x, [{"op": "max", "kernel": 8}, {"op": "avg", "kernel": 8}])

# %% [markdown] slideshow={"slide_type": "subslide"}
# * **Max pooling** keeps the brightest pixel of each block: thin bright things (the stars,
#   the reflections on the glasses, the white collar) grow and the picture gets brighter.
# * **Average pooling** keeps the mean: the picture gets smooth, and its overall
#   brightness stays the same.
#
# Neither one looks at *where* in the block its value came from. That position (the
# *index* of the maximum) is the topic of notebook 03.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Floor or ceil?
#
# A 44 × 44 window with stride 44 does not fit a whole number of times into 600 rows or
# 512 columns. What happens to the rest? (We average here, so that the coarse blocks still
# look like a portrait.)
#
# * **floor** (everyone's default): only whole windows; a strip at the bottom and at the
#   right is never read.
# * **ceil** (PyTorch's `ceil_mode=True`, here `rounding="ceil_torch"`): one more
#   window, which hangs over the border and reads only the pixels that exist.

# %% [markdown] slideshow={"slide_type": "subslide"}
# The geometry says how many windows the floor rule makes:

# %%
print(pooltutor.pool_geometry(x.shape[2:], kernel=44, rounding="floor").describe())

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict.** And with the ceil rule?

# %% tags=["hide-input"]
g44 = pooltutor.pool_geometry(x.shape[2:], kernel=44, rounding="ceil_torch")
SelfCheck("Output shape (H, W) of the 44 × 44 pool, stride 44, with rounding='ceil_torch'?",
          g44.output_shape, explanation=g44.describe(),
          hint="ceil instead of floor in the same formula")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The dashed line is the border of the input. In the middle, the pooled picture stops short
# of it; on the right (framed in purple), the last row and column of windows reach past it.

# %% tags=["hide-input"]
blocks = [{"op": "avg", "kernel": 44}, {"op": "avg", "kernel": 44, "rounding": "ceil_torch"}]
plot_image_pooling(x, blocks)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The general formula is $O = \left\lfloor \frac{I + p_b + p_e - D_K}{S} \right\rfloor + 1$
# (or $\lceil\cdot\rceil$), with input length $I$, padding $p_b, p_e$ before and after,
# stride $S$ and the *effective* window length $D_K$. Notebook 02 is all about this
# formula, and 02b about the one extra rule that PyTorch and ONNX add to the ceil version.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Stride and dilation
#
# The three pooled panels below (zoomed in on the face) all give the same output shape, yet they
# read different pixels:
#
# * a 3 × 3 window with stride 8 reads 9 neighbouring pixels of each 8 × 8 block and
#   skips the rest;
# * the same window with **dilation** 3 spreads its 9 taps 3 pixels apart, over a 7 × 7 area;
# * an 8 × 8 window reads every pixel.

# %% slideshow={"slide_type": "subslide"} tags=["hide-input"]
spread = [{"op": "max", "kernel": 3, "stride": 8},
          {"op": "max", "kernel": 3, "stride": 8, "dilation": 3},
          {"op": "max", "kernel": 8}]
plot_image_pooling(x, spread, view=(120, 330, 120, 400), ncols=2)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Look at the glasses. The 3 × 3 window with stride 8 never sees most pixels of its block,
# so it often misses the bright ones and the dark frames survive. The dilated window
# samples the same 9 taps over a wider area and finds more bright pixels; the full 8 × 8
# window finds the brightest pixel of every block.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** A dilated window of $K$ taps, $D$ pixels apart, spans
# $D_K = (K - 1) \cdot D + 1$ pixels. How many pixels does a 3-tap window with dilation 3
# span along one axis?

# %% tags=["hide-input"]
g_dil = pooltutor.pool_geometry(x.shape[2:], kernel=3, stride=8, dilation=3)
SelfCheck("Effective window length D_K of kernel 3 with dilation 3?", effective_window(3, 3),
          explanation=g_dil.describe(), hint="the taps sit at 0, 3 and 6")

# %% [markdown] slideshow={"slide_type": "fragment"}
# Notebook 01 shows these windows one by one on a grid small enough to read every value.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * A pooling slides a window over the input and keeps one number per window: the maximum
#   or the mean.
# * Kernel, stride, dilation and padding decide where each window goes; the rounding rule
#   (floor or ceil) decides how many windows there are.
# * The same picture pooled with the same kernel can give different shapes under
#   different rules, and frameworks do not all use the same rules.
#
# **Next:** `01_window_placement`, where you step through a max pool window by window.
