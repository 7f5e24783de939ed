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
# A max pool can report *where* each maximum came from, as one number, its **index**;
# frameworks count differently.
#
# **Learning goals.** After this notebook you can
#
# 1. write a winner's position as the index PyTorch, ONNX (both storage orders), DirectML,
#    OpenVINO and TensorFlow report (test vectors TV22, TV23);
# 2. predict, per framework, which element wins a tie, what NaN does, and what an
#    all-padding window returns (TV15–TV21);
# 3. put pooled values back with MaxUnpool, and recognise what the wrong index layout does.

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
# **TV22**: two pictures ($N = 2$) of two channels ($C = 2$), each a $2 \times 3$ grid. A
# $2 \times 2$ window, stride 1, fits twice into every $(n, c)$ *plane*: 8 outputs.

# %%
x = TV22_INPUT
r = max_pool(x, kernel=2, stride=1, return_indices=True)
print("planes:\n", x)
print("pooled values:", r.output.ravel(), "  indices:", r.indices.ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# By default the engine counts inside each plane, row by row, as PyTorch does: $(h, w)$ in
# a plane of $W$ columns is $h \cdot W + w$. Output `(1, 1, 0, 1)`, the last plane's second
# window:

# %%
print(r.explain(1, 1, 0, 1))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Its winner, the 2 at row 0, column 1 of plane `n=1, c=1`, numbered per plane (PyTorch)
# and through the whole tensor (ONNX), arrows in counting order:

# %% tags=["hide-input"]
plot_index_layouts(r, out_index=(1, 1, 0, 1), layouts=("plane", "tensor"))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Five ways to number one position
#
# For an input shaped $(N, C, H, W)$, the winner at $(n, c, h, w)$ gets:
#
# | layout | index | who uses it |
# |---|---|---|
# | `plane` | $h W + w$ | PyTorch, Caffe, OpenVINO `MaxPool` `axis=2` and `AdaptiveMaxPool` |
# | `tensor` | $((n C + c) H + h) W + w$ | ONNX `storage_order=0`, DirectML, OpenVINO `MaxPool` `axis=0` (default) |
# | `tensor_colmajor` | $(n C + c) H W + w H + h$ | ONNX `storage_order=1` |
# | `nhwc` | $(h W + w) C + c$ | TensorFlow, `include_batch_in_index=False` |
# | `nhwc_batch` | $((n H + h) W + w) C + c$ | TensorFlow, `include_batch_in_index=True` |
#
# %% [markdown] slideshow={"slide_type": "subslide"}
# Each layout is "how much the number grows per step along each axis"; the library reads
# those steps off a numbering (`None`: the count restarts):

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
# TV22 through each framework's own operator. Each line lists the eight indices in the
# order `n0c0`, `n0c0`, `n0c1`, `n0c1`, `n1c0`, ...

# %%
print("PyTorch        ", frameworks.torch_max_pool(x, 2, 1, return_indices=True)[1].ravel())
print("ONNX so=0      ", frameworks.onnx_max_pool(x, [2, 2])[1].ravel())
print("ONNX so=1      ", onnx_so1.ravel())
print("DirectML       ", frameworks.directml_max_pooling2(x, 1, 2, 0, 0, 1)[1].ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# OpenVINO's `MaxPool` takes the whole-tensor index modulo the size of the axes from `axis`
# on (`axis=1`: per picture):

# %%
print("OpenVINO axis=0", frameworks.openvino_max_pool(x, 1, 0, 0, 2, axis=0)[1].ravel())
print("OpenVINO axis=1", frameworks.openvino_max_pool(x, 1, 0, 0, 2, axis=1)[1].ravel())
print("OpenVINO axis=2", frameworks.openvino_max_pool(x, 1, 0, 0, 2, axis=2)[1].ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### TensorFlow counts channels fastest
#
# `tf.nn.max_pool_with_argmax` numbers NHWC (channels-last) pictures in memory order.
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
# All eight, with and without the batch term (moved back from NHWC to compare):

# %%
_, tf_idx_b = frameworks.tensorflow_max_pool_with_argmax(nhwc, 2, 1, "VALID",
                                                         include_batch_in_index=True)
print("TF             ", np.moveaxis(tf_idx, 3, 1).ravel())
print("TF with batch  ", np.moveaxis(tf_idx_b, 3, 1).ravel())

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both TensorFlow numberings: neighbouring channels get neighbouring numbers.

# %% tags=["hide-input"]
plot_index_layouts(r, out_index=(1, 1, 0, 0), layouts=("nhwc", "nhwc_batch"), table=False)

# %% [markdown] slideshow={"slide_type": "skip"}
# ### Try it
#
# The explorer shows any winner's number in every layout (this needs a running kernel).

# %% slideshow={"slide_type": "skip"}
explorer = IndexLayoutExplorer(x, kernel=2, stride=1)
explorer

# %% [markdown] slideshow={"slide_type": "skip"}
# Four output cells, computed in advance (no kernel needed):

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer.static_widget(max_frames=4)

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Three spatial axes (TV23)
#
# A $1 \times 1 \times 2 \times 3 \times 4$ input, zero but for a 9
# at $(d, h, w) = (0, 1, 1)$; one window over all of it. Row-major counts $12d + 4h + w$,
# column-major $d + 2h + 6w$.

# %%
x23 = np.zeros((1, 1, 2, 3, 4))
x23[0, 0, 0, 1, 1] = 9.0
print("ONNX so=0:", frameworks.onnx_max_pool(x23, [2, 3, 4], [2, 3, 4])[1].ravel())
print("ONNX so=1:", frameworks.onnx_max_pool(x23, [2, 3, 4], [2, 3, 4], storage_order=1)[1].ravel())
print("PyTorch:  ", frameworks.torch_max_pool(x23, (2, 3, 4), return_indices=True)[1].ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# The ONNX specification does not say where batch and channel go; ONNX Runtime, like
# pooltutor, puts the plane offset $(nC + c) \cdot HW$ in front.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Ties: the first maximum in row-major order
#
# Every framework here keeps the *first* maximum, scanning row by row. **TV15**:
# input `[3, 3, 1, 3]`, window 2, stride 1.

# %%
x15 = np.array([[[3.0, 3.0, 1.0, 3.0]]])
r15 = max_pool(x15, kernel=2, stride=1, return_indices=True)
print(r15.indices.ravel())
print(r15.explain(0))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **TV16** ties inside one $2 \times 2$ window, `[[1, 5], [5, 1]]`: the first 5 is at
# $(0, 1)$ row by row, at $(1, 0)$ column by column. ONNX Runtime, like pooltutor, *picks*
# the winner row-major, then *writes* it column-major (`storage_order=1`).
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
plot_index_layouts(r16, out_index=(0, 0, 0, 0), layouts=("plane", "tensor_colmajor"))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. NaN: three different answers
#
# A NaN compares false with everything, so what a max pool does with it depends on how its
# loop is written. **TV17**: `[nan, 1, 2, nan, 5, nan]`, window 2, stride 2.

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
# * **PyTorch** lets every NaN win (`val > maxval || isnan(val)`), so the index is that of
#   the window's *last* NaN.
# * **OpenVINO**'s reference kernel takes only a strictly greater value: a NaN never wins.
# * **ONNX** says nothing about NaN. ONNX Runtime asked for indices keeps a NaN only if it
#   comes first (`"first_sticks"`), otherwise never (`"ignore"`). pooltutor's ONNX
#   functions follow PyTorch (details: `docs/frameworks.md`).

# %% [markdown] slideshow={"slide_type": "subslide"}
# Window 1 under PyTorch's rule: the 2 comes first, then the NaN takes over.

# %% tags=["hide-input"]
r17 = max_pool(x17, kernel=2, stride=2, return_indices=True)
plot_pooling(r17, (1,))

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
# reads positions −1 and 2: padding only.

# %% tags=["hide-input"]
x20 = np.array([[[5.0, 7.0]]], dtype=np.float32)
r20 = max_pool(x20, kernel=2, stride=1, padding=1, dilation=3, return_indices=True)
p20 = plot_pooling(r20, (0,))
p20.figure.set_dpi(80)  # a smaller picture, to fit a slide
p20

# %% [markdown] slideshow={"slide_type": "subslide"}
# There is no maximum. OpenVINO's reference kernel starts each window at the lowest float
# and its plane's first index, and keeps only a strictly greater tap (padding is never
# compared).
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
# | ONNX Runtime | −3.4028235e38 (lowest float32) | −1 |
# | `onnx.reference` | NaN | −1 |
# | OpenVINO reference | −3.4028235e38 | 0, its plane's first element |
# | TFLite | 0 (webmachinelearning/webnn#935) | – |
#
# %% [markdown] slideshow={"slide_type": "subslide"}
# pooltutor follows the course's contract, −∞ and index −1; `empty_value` reproduces the
# others:

# %%
torch_y, torch_i = frameworks.torch_max_pool(x20, 2, 1, 1, 3, return_indices=True)
print("pooltutor, torch rules:", torch_y.ravel(), torch_i.ravel(), "(contract -1; torch says 2)")
print("OpenVINO:              ", ov_y.ravel(), ov_i.ravel())
print("as ONNX Runtime:       ", max_pool(x20, 2, 1, 1, 3, empty_value="lowest").output.ravel())
print("as onnx.reference:     ", max_pool(x20, 2, 1, 1, 3, empty_value="nan").output.ravel())
print("as TFLite:              ", max_pool(x20, 2, 1, 1, 3, empty_value="zero").output.ravel())

# %% [markdown] slideshow={"slide_type": "fragment"}
# Why care? An index of −1, or 2 in a 2-element input, breaks the next step if that step
# trusts the index. One operator does.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. MaxUnpool: why the indices matter
#
# Encoder–decoder networks (SegNet, for example) pool on the way down and *unpool* on the
# way up: MaxUnpool writes each pooled value into zeros where its index points (PyTorch
# `max_unpool2d`, ONNX `MaxUnpool`). Two channels, pooled
# $2 \times 2$ with stride 2:

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
# ONNX `MaxUnpool` reads every index as a position in the *whole* tensor. A PyTorch export
# that hands it per-plane indices (onnx/onnx#2398) makes this mistake, silently.
#
# **Predict.** PyTorch's indices for channel 1 are all below 16, one plane's size. Fed to
# ONNX `MaxUnpool`, how many non-zero values end up in channel 1?

# %% tags=["hide-input"]
wrong_planes = flat_unpool(y, torch_idx, xu.shape)            # what ONNX MaxUnpool does
SelfCheck("Non-zero values in channel 1 after ONNX MaxUnpool is fed PyTorch's indices?",
          np.count_nonzero(wrong_planes[0, 1]),
          explanation="flat_unpool(y, torch_idx, xu.shape)[0] =\n" + str(wrong_planes[0]),
          hint="a position below 16 in the whole tensor lies in the first plane")

# %% [markdown] slideshow={"slide_type": "subslide"}
# A second silent mistake: column-major indices read as row-major. Red dashes mark the
# wrong cells:

# %% tags=["hide-input"]
_, colmajor_idx = frameworks.onnx_max_pool(xu, [2, 2], strides=[2, 2], storage_order=1)
wrong_order = max_unpool(y, colmajor_idx, xu.shape, layout="tensor")  # storage_order=1 read as 0
panels = {"right": right, "ONNX MaxUnpool,\nPyTorch's indices": wrong_planes,
          "storage_order=1\nread as 0": wrong_order}
plot_unpool(xu, panels, reference="right")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Column-major indices stay inside the right plane, so nothing notices, but each value
# lands on its mirror cell across the diagonal. PyTorch's indices piled channel 1's maxima
# onto channel 0.

# %% [markdown] slideshow={"slide_type": "subslide"}
# Some mistakes *can* be caught: a whole-tensor index read as a per-plane one points past
# its plane, and pooltutor refuses it:

# %%
try:
    max_unpool(y, onnx_idx, xu.shape, layout="plane")
except ValueError as err:
    print("refused:", err)

# %% [markdown] slideshow={"slide_type": "fragment"}
# So the PyTorch exporter adds a subgraph after ONNX `MaxPool` that subtracts each plane's
# offset, and converters must carry the layout with the indices.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * An index means nothing without its **layout**: per plane (PyTorch, OpenVINO `axis=2`),
#   whole tensor (ONNX `storage_order=0`, DirectML, OpenVINO's default), plane offset plus
#   column-major (ONNX `storage_order=1`), or channels-last (TensorFlow).
# * Ties go to the first maximum in row-major order; `storage_order=1` writes it
#   column-major (TV16: 2).
# * NaN and empty windows split the runtimes (TV17–TV20): PyTorch keeps the last NaN,
#   OpenVINO never picks one; an all-padding window gives −∞, the lowest float, NaN or 0.
# * MaxUnpool trusts the indices: the wrong layout misplaces values silently.
#
# **Next:** `04_adaptive_pooling`: per-plane indices for windows that overlap.
