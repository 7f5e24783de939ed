# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 03 · One maximum, many numbers
#
# **Index flattening across frameworks** (about 35 minutes; you need notebook 01)
#
# A max pool can tell you *where* each maximum came from: its **index**, one whole number
# for the four coordinates `(n, c, h, w)`. Frameworks do not agree on how to count.
#
# **Learning goals.** After this notebook you can
#
# 1. write the position `(n, c, h, w)` of a max-pool winner as the index that PyTorch,
#    ONNX (both storage orders), DirectML, OpenVINO and TensorFlow report (test vectors
#    TV22, TV23);
# 2. predict which element wins a tie, what happens to NaN, and what a window holding
#    only padding returns, framework by framework (TV15–TV21);
# 3. put pooled values back with MaxUnpool, and recognise what the wrong index layout
#    does to them.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import frameworks
from pooltutor.pooling import max_pool
from pooltutor.unpool import flat_unpool, max_unpool
from pooltutor.viz.heatmaps import plot_pooling
from pooltutor.viz.index_explorer import TV22_INPUT, IndexLayoutExplorer
from pooltutor.indexing import axis_steps, layout_numbers
from pooltutor.viz.indices import plot_index_layouts
from pooltutor.viz.selfcheck import SelfCheck
from pooltutor.viz.unpool import plot_unpool

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Where did the maximum come from?
#
# **TV22**: a batch of two pictures ($N = 2$) of two channels ($C = 2$), each a
# $2 \times 3$ grid. A $2 \times 2$ window, stride 1, fits twice into every $(n, c)$
# *plane*: $2 \cdot 2 \cdot 2 = 8$ outputs.

# %%
x = TV22_INPUT
r = max_pool(x, kernel=2, stride=1, return_indices=True)
print("planes:\n", x)
print("pooled values:", r.output.ravel(), "  indices:", r.indices.ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The engine's default is to count inside each plane, row by row: position $(h, w)$ of a
# plane with $W$ columns is $h \cdot W + w$. That is what PyTorch does. Take output
# `(n, c, h, w) = (1, 1, 0, 1)`, the second window of the last plane:

# %%
print(r.explain(1, 1, 0, 1))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The winner is the 2 at row 0, column 1 of plane `n=1, c=1`, numbered per plane
# (PyTorch) and through the whole tensor (ONNX). Each panel holds the whole batch; the
# arrows follow the counting order (dashed where it jumps).

# %% tags=["hide-input"]
plot_index_layouts(r, out_index=(1, 1, 0, 1), layouts=("plane", "tensor")).figure

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Five ways to number one position
#
# For an input shaped $(N, C, H, W)$, the winner at $(n, c, h, w)$ gets:
#
# | layout | index | who uses it |
# |---|---|---|
# | `plane` | $h W + w$ | PyTorch, OpenVINO `MaxPool` with `axis=2`, OpenVINO `AdaptiveMaxPool`, Caffe |
# | `tensor` | $((n C + c) H + h) W + w$ | ONNX `storage_order=0`, DirectML, OpenVINO `MaxPool` with `axis=0` (its default) |
# | `tensor_colmajor` | $(n C + c) H W + w H + h$ | ONNX `storage_order=1` |
# | `nhwc` | $(h W + w) C + c$ | TensorFlow, `include_batch_in_index=False` |
# | `nhwc_batch` | $((n H + h) W + w) C + c$ | TensorFlow, `include_batch_in_index=True` |
#
# %% [markdown] slideshow={"slide_type": "subslide"}
# Read each one as "how much does the number grow for one step along each axis". The
# library can read those steps off the numbering itself (`None`: the count restarts there):

# %%
print("tensor:         ", axis_steps(layout_numbers(x.shape, "tensor")))
print("tensor_colmajor:", axis_steps(layout_numbers(x.shape, "tensor_colmajor")))
print("nhwc:           ", axis_steps(layout_numbers(x.shape, "nhwc")))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** The winner of output `(1, 0, 0, 1)` is the 5 at $(h, w) = (0, 1)$ of plane
# `n=1, c=0`. ONNX with `storage_order=1` (column-major inside the plane) writes it as what
# number?

# %% tags=["hide-input"]
onnx_so1 = frameworks.onnx_max_pool(x, [2, 2], storage_order=1)[1]
SelfCheck("ONNX storage_order=1 index of the winner of output (1, 0, 0, 1) in TV22?",
          onnx_so1[1, 0, 0, 1],
          explanation=r.explain(1, 0, 0, 1) + "\nsteps per axis in 'tensor_colmajor': "
          + str(axis_steps(layout_numbers(x.shape, "tensor_colmajor"))),
          hint="(n*C + c)*H*W elements come before its plane; in the plane, count down the columns")

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The frameworks, side by side
#
# The same TV22 input, through each framework's own operator (`pooltutor.frameworks`).
# Every line lists the eight indices in the order `n0c0`, `n0c0`, `n0c1`, `n0c1`, `n1c0`, ...

# %%
print("PyTorch        ", frameworks.torch_max_pool(x, 2, 1, return_indices=True)[1].ravel())
print("ONNX so=0      ", frameworks.onnx_max_pool(x, [2, 2])[1].ravel())
print("ONNX so=1      ", onnx_so1.ravel())
print("DirectML       ", frameworks.directml_max_pooling2(x, 1, 2, 0, 0, 1)[1].ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# OpenVINO's `MaxPool` computes whole-tensor indices and then takes them modulo the size
# of everything from axis `axis` on: `axis=0` keeps the whole tensor, `axis=1` counts
# inside each picture, `axis=2` inside each plane, like PyTorch.

# %%
print("OpenVINO axis=0", frameworks.openvino_max_pool(x, 1, 0, 0, 2, axis=0)[1].ravel())
print("OpenVINO axis=1", frameworks.openvino_max_pool(x, 1, 0, 0, 2, axis=1)[1].ravel())
print("OpenVINO axis=2", frameworks.openvino_max_pool(x, 1, 0, 0, 2, axis=2)[1].ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### TensorFlow counts channels fastest
#
# `tf.nn.max_pool_with_argmax` takes pictures in the NHWC layout (channels last) and
# numbers the elements in that memory order, so neighbouring channels get neighbouring
# numbers.
#
# **Predict.** The winner of output `(1, 1, 0, 0)` is the 3 at $(h, w) = (1, 0)$ of plane
# `n=1, c=1`. What does TensorFlow report, without the batch term?

# %% tags=["hide-input"]
nhwc = np.moveaxis(x, 1, 3)                                   # (N, C, H, W) -> (N, H, W, C)
_, tf_idx = frameworks.tensorflow_max_pool_with_argmax(nhwc, 2, 1, "VALID")
SelfCheck("TensorFlow index (include_batch_in_index=False) of the winner of output (1, 1, 0, 0)?",
          np.moveaxis(tf_idx, 3, 1)[1, 1, 0, 0],
          explanation=r.explain(1, 1, 0, 0) + "\nsteps per axis in 'nhwc': "
          + str(axis_steps(layout_numbers(x.shape, "nhwc"))),
          hint="(h*W + w)*C + c: the batch does not count")

# %% [markdown] slideshow={"slide_type": "fragment"}
# All eight, with and without the batch term. TensorFlow's output is NHWC too, so we move
# the channel axis back to compare with the lines above:

# %%
_, tf_idx_b = frameworks.tensorflow_max_pool_with_argmax(nhwc, 2, 1, "VALID",
                                                         include_batch_in_index=True)
print("TF             ", np.moveaxis(tf_idx, 3, 1).ravel())
print("TF with batch  ", np.moveaxis(tf_idx_b, 3, 1).ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two TensorFlow numberings of the whole batch: neighbouring channels get neighbouring
# numbers.

# %% tags=["hide-input"]
plot_index_layouts(r, out_index=(1, 1, 0, 0), layouts=("nhwc", "nhwc_batch"), table=False).figure

# %% [markdown] slideshow={"slide_type": "skip"}
# ### Try it
#
# Pick a picture `n`, a channel `c` and an output cell; the explorer shows the winner and
# its number in every layout (it needs a running Python kernel). Change the kernel, the
# stride or the padding too.

# %% slideshow={"slide_type": "skip"}
explorer = IndexLayoutExplorer(x, kernel=2, stride=1)
explorer

# %% [markdown] slideshow={"slide_type": "skip"}
# The winner of each of the first four output cells (plane `n=0`) in every layout,
# computed in advance (works without a kernel):

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer.static_widget(max_frames=4)

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Three spatial axes (TV23)
#
# A $1 \times 1 \times 2 \times 3 \times 4$ input (depth, height, width) with a single 9 at
# $(d, h, w) = (0, 1, 1)$, one window covering everything. Row-major counts
# $d \cdot 12 + h \cdot 4 + w$; column-major (the first axis fastest) counts
# $d + h \cdot 2 + w \cdot 6$.

# %%
x23 = np.zeros((1, 1, 2, 3, 4))
x23[0, 0, 0, 1, 1] = 9.0
print("ONNX so=0:", frameworks.onnx_max_pool(x23, [2, 3, 4], [2, 3, 4])[1].ravel())
print("ONNX so=1:", frameworks.onnx_max_pool(x23, [2, 3, 4], [2, 3, 4], storage_order=1)[1].ravel())
print("PyTorch:  ", frameworks.torch_max_pool(x23, (2, 3, 4), return_indices=True)[1].ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# The ONNX specification only says that `storage_order` converts "an n-tuple index value
# into a single integer value". Whether the batch and channel take part in the
# column-major order is not written down; ONNX Runtime keeps the plane offset
# $(nC + c) \cdot HW$ in front and goes column-major only inside the plane, and so does
# pooltutor.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Ties: the first maximum in row-major order
#
# Every framework in this course keeps the *first* maximum it meets and scans the window
# row by row. **TV15**: input `[3, 3, 1, 3]`, window 2, stride 1.

# %%
x15 = np.array([[[3.0, 3.0, 1.0, 3.0]]])
r15 = max_pool(x15, kernel=2, stride=1, return_indices=True)
print(r15.indices.ravel())
print(r15.explain(0))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **TV16** puts a tie inside one $2 \times 2$ window: `[[1, 5], [5, 1]]`. Row by row, the
# first 5 is at $(0, 1)$. Column by column, the first 5 would be the one at $(1, 0)$.
# ONNX Runtime *picks* the winner row-major (the 5 at $(0, 1)$) and only then *writes* it
# column-major when `storage_order=1`. pooltutor does the same.
#
# **Predict.** Which index does ONNX report for TV16 with `storage_order=1`?

# %% tags=["hide-input"]
x16 = np.array([[[[1.0, 5.0], [5.0, 1.0]]]])
r16 = max_pool(x16, kernel=2, stride=2, return_indices=True)
so1_16 = frameworks.onnx_max_pool(x16, [2, 2], [2, 2], storage_order=1)[1]
SelfCheck("ONNX MaxPool, storage_order=1: the index of TV16's maximum?", so1_16.item(),
          explanation=r16.explain(0, 0) + "\nsteps per axis in 'tensor_colmajor': "
          + str(axis_steps(layout_numbers(x16.shape, "tensor_colmajor"))),
          hint="first pick the winner row by row, then write its position column by column")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The winner and its number in both layouts:

# %% tags=["hide-input"]
plot_index_layouts(r16, out_index=(0, 0, 0, 0), layouts=("plane", "tensor_colmajor")).figure

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. NaN: three different answers
#
# A NaN ("not a number") compares false with everything, so `NaN > x` and `x > NaN` are
# both false. What a max pool does with it depends on how its loop is written.
# **TV17**: `[nan, 1, 2, nan, 5, nan]`, window 2, stride 2.

# %%
x17 = np.array([[[np.nan, 1.0, 2.0, np.nan, 5.0, np.nan]]])
torch_y, torch_i = frameworks.torch_max_pool(x17, 2, 2, return_indices=True)
ov_y, ov_i = frameworks.openvino_max_pool(x17, 2, 0, 0, 2)
print("PyTorch :", torch_y.ravel(), torch_i.ravel())
print("OpenVINO:", ov_y.ravel(), ov_i.ravel())
# onnxruntime's two kernels, written as engine rules (checked against onnxruntime in the tests)
ort_idx = max_pool(x17, 2, 2, nan_policy="first_sticks", return_indices=True)
ort_vals = max_pool(x17, 2, 2, nan_policy="ignore")
print("ONNX Runtime, with Indices:   ", ort_idx.output.ravel(), ort_idx.indices.ravel())
print("ONNX Runtime, without Indices:", ort_vals.output.ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# * **PyTorch** lets every NaN win (its test is `val > maxval || isnan(val)`). Each NaN
#   takes over again, so the index is that of the *last* NaN in the window.
# * **OpenVINO**'s reference kernel only ever takes a strictly greater value, so a NaN
#   never wins.
# * The **ONNX** specification says nothing about NaN, and ONNX Runtime's answer depends on
#   whether you ask for the indices. With indices, a NaN survives only if it is the first
#   element the kernel scans (`nan_policy="first_sticks"`: `[nan, 2, 5]` with indices
#   `[0, 2, 4]`). Without them, a different, vectorised kernel runs in which a NaN never
#   wins (`nan_policy="ignore"`: `[1, 2, 5]`). pooltutor's ONNX functions follow PyTorch's
#   rule, so that any NaN in a window makes the output NaN.

# %% [markdown] slideshow={"slide_type": "subslide"}
# Window 1 of the PyTorch rule, tap by tap: the 2 comes first, then the NaN takes over.

# %% tags=["hide-input"]
r17 = max_pool(x17, kernel=2, stride=2, return_indices=True)
plot_pooling(r17, (1,)).figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict (TV18).** Input `[1, nan, 2, nan]`, one window of 4. What index does PyTorch
# report?

# %% tags=["hide-input"]
x18 = np.array([[[1.0, np.nan, 2.0, np.nan]]])
torch18 = frameworks.torch_max_pool(x18, 4, return_indices=True)[1]
SelfCheck("PyTorch max_pool1d(kernel 4) of [1, nan, 2, nan]: the index?", torch18.item(),
          explanation=max_pool(x18, 4, return_indices=True).explain(0),
          hint="every NaN takes over, so the last one stays")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. A window with nothing in it
#
# **TV20**: input `[5, 7]`, window 2, dilation 3, padding 1 on both sides. The only window
# reads positions −1 and 2: both are padding, no input element at all.

# %% tags=["hide-input"]
x20 = np.array([[[5.0, 7.0]]], dtype=np.float32)
r20 = max_pool(x20, kernel=2, stride=1, padding=1, dilation=3, return_indices=True)
p20 = plot_pooling(r20, (0,))
p20.figure.set_dpi(80)  # a smaller picture, to fit a slide
p20.figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# There is no maximum to report. OpenVINO's reference kernel starts every window at the
# lowest float and at the index of its plane's first element, and takes a tap only if it is
# strictly greater (padding is never compared).
#
# **Predict.** Which index does OpenVINO report for TV20's empty window?

# %% tags=["hide-input"]
ov_y, ov_i = frameworks.openvino_max_pool(x20, 1, 1, 1, 2, 3)
SelfCheck("OpenVINO MaxPool: the index of TV20's empty window?", ov_i.item(),
          explanation=r20.explain(0) + "\nOpenVINO's rules: "
          + str(dict(frameworks.ENGINE_RULES["openvino_max_pool"])),
          hint="the plane holds two elements; which one comes first?")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every runtime invents a different answer:
#
# | runtime | value | index |
# |---|---|---|
# | PyTorch | −∞ | 2: a position *outside* the 2-element input |
# | ONNX Runtime | −3.4028235e38 (the lowest float32) | −1 |
# | `onnx.reference` | NaN | −1 |
# | OpenVINO reference | −3.4028235e38 | 0, its plane's first element |
# | TFLite | 0 (webmachinelearning/webnn#935) | – |
#
# %% [markdown] slideshow={"slide_type": "subslide"}
# pooltutor follows the course's contract: −∞ and index −1 (OpenVINO: its own answer). The
# engine's `empty_value` reproduces the others:

# %%
torch_y, torch_i = frameworks.torch_max_pool(x20, 2, 1, 1, 3, return_indices=True)
print("pooltutor, torch rules:", torch_y.ravel(), torch_i.ravel(), "(contract -1; torch says 2)")
print("OpenVINO:              ", ov_y.ravel(), ov_i.ravel())
print("as ONNX Runtime:       ", max_pool(x20, 2, 1, 1, 3, empty_value="lowest").output.ravel())
print("as onnx.reference:     ", max_pool(x20, 2, 1, 1, 3, empty_value="nan").output.ravel())
print("as TFLite:              ", max_pool(x20, 2, 1, 1, 3, empty_value="zero").output.ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# Why care? Because an index of −1, or 2 in a 2-element input, crashes or corrupts the next
# step if that step trusts the index. Which brings us to the one operator that does.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. MaxUnpool: why the indices matter
#
# Encoder–decoder networks for segmentation (SegNet, for example) pool on the way down and
# *unpool* on the way up: MaxUnpool builds a zero tensor of the input's shape and writes
# every pooled value back where its index says it came from. PyTorch has
# `max_unpool2d`, ONNX has `MaxUnpool`, DirectML has `MAX_UNPOOLING`. Here is a picture
# with two channels, pooled $2 \times 2$ with stride 2:

# %%
xu = np.array([[[[1, 6, 2, 3], [4, 2, 8, 1], [7, 3, 5, 9], [2, 5, 4, 6]],
                [[3, 1, 9, 4], [2, 8, 5, 2], [6, 4, 1, 3], [5, 7, 2, 8]]]], dtype=np.float32)
y, torch_idx = frameworks.torch_max_pool(xu, 2, return_indices=True)
_, onnx_idx = frameworks.onnx_max_pool(xu, [2, 2], strides=[2, 2])
print("PyTorch indices:", torch_idx.ravel(), "\nONNX indices:   ", onnx_idx.ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# Read in its own layout, each set of indices puts the maxima back in the same places:

# %%
right = max_unpool(y, torch_idx, xu.shape, layout="plane")
print(right[0])
from_onnx = max_unpool(y, onnx_idx, xu.shape, layout="tensor")
print("same from the ONNX indices:", (from_onnx == right).all())

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The wrong layout
#
# ONNX `MaxUnpool` reads every index as a position in the *whole* tensor. A model exported
# from PyTorch that hands it PyTorch's per-plane indices (onnx/onnx#2398) makes exactly
# this mistake, and nothing complains.
#
# **Predict.** PyTorch's indices for channel 1 are all below 16, the size of one plane.
# Fed to ONNX `MaxUnpool`, how many non-zero values end up in channel 1?

# %% tags=["hide-input"]
wrong_planes = flat_unpool(y, torch_idx, xu.shape)            # what ONNX MaxUnpool does
SelfCheck("Non-zero values in channel 1 after ONNX MaxUnpool is fed PyTorch's indices?",
          np.count_nonzero(wrong_planes[0, 1]),
          explanation="flat_unpool(y, torch_idx, xu.shape)[0] =\n" + str(wrong_planes[0]),
          hint="a position below 16 in the whole tensor lies in the first plane")

# %% [markdown] slideshow={"slide_type": "subslide"}
# A second silent mistake: column-major indices (`storage_order=1`) read as row-major ones.
# Red dashes mark the cells that differ from the right answer:

# %% tags=["hide-input"]
_, colmajor_idx = frameworks.onnx_max_pool(xu, [2, 2], strides=[2, 2], storage_order=1)
wrong_order = max_unpool(y, colmajor_idx, xu.shape, layout="tensor")  # storage_order=1 read as 0
panels = {"right": right, "ONNX MaxUnpool,\nPyTorch's indices": wrong_planes,
          "storage_order=1\nread as 0": wrong_order}
plot_unpool(xu, panels, reference="right").figure

# %% [markdown] slideshow={"slide_type": "subslide"}
# Column-major indices still point inside the right plane, so nothing can notice, but every
# value lands on the mirror cell across the diagonal of its (square) plane. And ONNX
# `MaxUnpool` fed PyTorch's indices wrote channel 1's maxima over channel 0.

# %% [markdown] slideshow={"slide_type": "subslide"}
# Some mistakes *can* be caught: a whole-tensor index read as a per-plane one points past
# the end of its plane, and pooltutor refuses it, naming the parameter and the value:

# %%
try:
    max_unpool(y, onnx_idx, xu.shape, layout="plane")
except ValueError as err:
    print("refused:", err)

# %% [markdown] slideshow={"slide_type": "fragment"}
# This is why the PyTorch exporter adds a small subgraph after ONNX `MaxPool` that
# subtracts each plane's offset, and why converters between frameworks must carry the
# index layout along with the indices.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * A max-pool index is a position written as one number, and the number means nothing
#   without its **layout**: per plane (PyTorch, OpenVINO `axis=2`, adaptive pooling),
#   whole tensor row-major (ONNX `storage_order=0`, DirectML, OpenVINO's default
#   `axis=0`), plane offset plus column-major (ONNX `storage_order=1`), or channels-last
#   (TensorFlow, with or without the batch term).
# * Ties go to the first maximum in row-major scan order everywhere; ONNX
#   `storage_order=1` writes that same winner column-major (TV16: 2).
# * NaN and empty windows are where runtimes disagree: PyTorch propagates the last NaN,
#   OpenVINO never picks NaN, and an all-padding window gives −∞, the lowest float, NaN or
#   0, with index −1, 0 or even an out-of-range position (TV17–TV20).
# * MaxUnpool trusts the indices. The wrong layout piles values into the first plane or
#   mirrors them inside the plane, silently.
#
# **Next:** `04_adaptive_pooling`, where OpenVINO's `AdaptiveMaxPool` reports per-plane
# indices for windows that overlap.
