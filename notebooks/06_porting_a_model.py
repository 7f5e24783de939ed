# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 06 · Porting a model
#
# **One ONNX file, five runtimes, node by node** (about 30 minutes; you need notebooks 01,
# 02 and 02b)
#
# **Learning goals.** After this notebook you can
#
# 1. audit an ONNX model with `pooltutor.audit` (or `pooltutor audit MODEL.onnx`) and read
#    its table: one row per pooling or convolution node, one column per runtime;
# 2. say why torchvision's GoogLeNet and SqueezeNet 1.0, whose pools use `ceil_mode=True`,
#    still give the same shapes everywhere, and which small change breaks that;
# 3. name the rule behind each disagreement: the ceil clip against raw ceil (TV03, TV04),
#    SAME padding from the undilated kernel, pads a runtime refuses;
# 4. follow a disagreement from the node where it starts to the model's outputs, and check
#    the predictions against the runtimes themselves.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
from pooltutor import audit
from pooltutor.audit_models import googlenet_stem, measured_shapes, one_node_model
from pooltutor.geometry import pool_geometry
from pooltutor.viz.audit_report import plot_audit_node
from pooltutor.viz.selfcheck import SelfCheck

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The problem
#
# You trained a network in PyTorch, exported it to ONNX, and now it must run in
# onnxruntime on a server, in OpenVINO on a laptop and in TensorRT on a GPU. Each
# runtime reads the same attributes (`kernel_shape`, `strides`, `pads`, `ceil_mode`,
# `auto_pad`, ...) and applies **its own** output-size rule. Where the rules differ, a
# tensor comes out one row longer, the next layer sees a different input, and the
# difference travels on.
#
# The audit asks every runtime's rule, for every pooling and convolution node, using the
# input shape **that runtime** produced upstream. The runtime keys:
#
# | key | rule |
# |---|---|
# | `onnx` | the ONNX specification at the model's opset |
# | `onnxruntime` | onnxruntime 1.32's CPU kernels |
# | `openvino` | OpenVINO 2026.4's ONNX frontend and CPU plugin |
# | `tensorrt` | onnx-tensorrt's mapping onto `PaddingMode` (the header formulas) |
# | `pytorch` | the `torch.nn` module with the same attributes |

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. A real stem: GoogLeNet
#
# `googlenet_stem()` builds torchvision's GoogLeNet up to its second pool with
# `onnx.helper` (random weights: shapes need none): a 7 × 7 convolution with stride 2,
# a 3 × 3 max pool with stride 2 and `ceil_mode=1`, two convolutions, the same pool again,
# then global average pooling.

# %%
stem = googlenet_stem((1, 3, 224, 224))
report = audit(stem)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Everybody agrees, although OpenVINO and TensorRT read `ceil_mode=1` as the *raw* ceil and
# the others as `ceil_torch` (notebook 02b). Why? The clip drops the last window only when
# it would start in the end padding. With padding `p` on both sides that needs
# `p > K - S`; here `p = 0` and `K - S = 1`. The two rules give the same count:

# %%
print(pool_geometry((112,), 3, 2, rounding="ceil").describe())
print(pool_geometry((112,), 3, 2, rounding="ceil_torch").describe())

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict.** The second pool gets the 56 × 56 output of `conv3`. What spatial size
# `(H, W)` does it give (K = 3, S = 2, no padding, ceil)?

# %% tags=["hide-input"]
pool2 = report.node("maxpool2")
SelfCheck("Output (H, W) of GoogLeNet's maxpool2 on a 56 × 56 input, K=3, S=2, ceil_mode=1?",
          pool2.shapes["onnx"][2:],
          explanation=pool_geometry(pool2.input_shape[2:], 3, 2,
                                    rounding="ceil_torch").describe(),
          hint="ceil((56 - 3) / 2) + 1, and the clip cannot fire without padding")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The audit's table of the whole stem, every runtime's shapes:

# %%
print(report.table())

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. A small change in the port
#
# Someone "simplifies" the stem's pools to a 2 × 2 window with padding 1 (exactly the pool
# of OpenVINO issue #18731). Now `p = 1 > K - S = 0`: the clip can fire.

# %%
ported = googlenet_stem((1, 3, 224, 224), pool_kernel=2, pool_pads=1)
report2 = audit(ported)

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict** before the audit's table: the second pool gets a 57 × 57 input. How many
# rows does OpenVINO's `maxpool2` output have?

# %% tags=["hide-input"]
SelfCheck("Rows of maxpool2's output in OpenVINO (57 × 57 input, K=2, S=2, pads 1, raw ceil)?",
          report2.node("maxpool2").shapes["openvino"][2],
          explanation=report2.node("maxpool2").why,
          hint="ceil((57 + 2 - 2) / 2) + 1 with no clip")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The audit's table:

# %%
print(report2.table())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first pool still agrees (112 is even: no window starts in the end padding), the
# second does not. The table names the first divergence and the rule. Every node can tell
# the story of its last window under each rule:

# %%
print(report2.node("maxpool2").explain())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The same last windows as a picture: one row per rule, the padding hatched, the last
# window outlined, the window that the clip drops dashed. (Only the end of the axis is
# drawn; the first windows are the same in every row.)

# %%
plot_audit_node(report2.node("maxpool2"))[0]

# %% [markdown] slideshow={"slide_type": "subslide"}
# The global average pool hides the difference again: the model's outputs agree, but
# every value after `maxpool2` is computed from a different grid. In a network with a
# flatten and a fully connected layer instead, the shapes would not even match the
# weights.

# %%
print(report2.outputs)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. The three measured cases
#
# One-node models (opset 22), measured on the runtimes themselves: TV03 (five inputs,
# K=2, S=2, pads 1/1, ceil), TV04 (six inputs, K=1, S=2, ceil) and SAME_UPPER with
# dilation 2 (seven inputs, K=3, S=2).

# %%
tv03 = audit(one_node_model("MaxPool", (1, 1, 5), kernel_shape=[2], strides=[2],
                            pads=[1, 1], ceil_mode=1)).nodes[0]
tv04 = audit(one_node_model("MaxPool", (1, 1, 6), kernel_shape=[1], strides=[2],
                            ceil_mode=1)).nodes[0]
same = audit(one_node_model("MaxPool", (1, 1, 7), kernel_shape=[3], strides=[2],
                            dilations=[2], auto_pad="SAME_UPPER")).nodes[0]
print("TV03:", tv03.shapes)
print("TV04:", tv04.shapes)
print("SAME_UPPER, dilation 2:", same.shapes)

# %% [markdown] slideshow={"slide_type": "subslide"}
# TV04 has no padding at all: a kernel shorter than the stride is the other way to make
# the clip fire. The why of the dilated SAME case:

# %%
print(same.why)

# %% [markdown] slideshow={"slide_type": "fragment"}
# **Predict.** onnxruntime pads the dilated SAME case as if the kernel were undilated:
# total pad `(ceil(7/2) - 1) * 2 + 3 - 7`. How many outputs does it give?

# %% tags=["hide-input"]
SelfCheck("Outputs of SAME_UPPER MaxPool in onnxruntime: I=7, K=3, D=2, S=2?",
          same.shapes["onnxruntime"][2], explanation=same.why,
          hint="pads (1, 1): floor((7 + 2 - 5) / 2) + 1")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Side by side with the runtimes
#
# When onnxruntime and OpenVINO are installed, run the ported stem in both and compare
# every node with the audit's prediction (the course's tests do this on thousands of
# cases). A missing runtime is reported as such.

# %%
ort_shapes = measured_shapes(ported, report2, "onnxruntime")
ov_shapes = measured_shapes(ported, report2, "openvino")
print("\n".join(f"{n.name:9} onnxruntime: predicted {n.shapes['onnxruntime']}, measured "
                 f"{ort_shapes[n.name]}\n{'':9} openvino:    predicted {n.shapes['openvino']}, "
                 f"measured {ov_shapes[n.name]}" for n in report2.nodes))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * `pooltutor.audit(model)` (or `pooltutor audit MODEL.onnx`, with `--json` and
#   `--html`) gives every pooling and convolution node's shape under the ONNX spec,
#   onnxruntime, OpenVINO, TensorRT and PyTorch, each from its own upstream shapes.
# * torchvision's ceil-mode pools (K=3, S=2, no padding) agree everywhere: the clip needs
#   `p > K - S` (or a kernel shorter than the stride, TV04).
# * The usual disagreements: the ceil clip against raw ceil (OpenVINO's ONNX frontend,
#   TensorRT's `EXPLICIT_ROUND_UP`), SAME padding from the undilated kernel (onnxruntime),
#   pads a runtime refuses, and index layouts a MaxUnpool cannot read.
# * A disagreement travels: the audit follows it to the outputs, and names the first node
#   where it starts.
