# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 04 · Adaptive pooling
#
# **OpenVINO `AdaptiveMaxPool-8`: bins that overlap, indices per plane, and exporting it as
# a fixed pool** (about 30 minutes; you need notebooks 01 and 03)
#
# *Adaptive* pooling turns pooling around: you choose the output size, and each output cell
# gets its own window, a **bin**, so that the bins cover the whole input.
#
# **Learning goals.** After this notebook you can
#
# 1. compute the bins $[\lfloor iI/O \rfloor, \lceil (i+1)I/O \rceil)$ and say when
#    neighbouring bins overlap;
# 2. run `AdaptiveMaxPool-8` on the seed's $1 \times 3 \times 32 \times 32 \to 16 \times 16$
#    example and read its per-plane indices;
# 3. decide when exporting adaptive pooling as an ordinary pooling is exact (TV24–TV27);
# 4. spot the three small errors in the seed.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import adaptive_geometry, frameworks
from pooltutor.geometry import adaptive_bins, fixed_pool_contrast
from pooltutor.pooling import adaptive_avg_pool, avg_pool, max_pool
from pooltutor.viz.adaptive import plot_adaptive_bins
from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer, pi_digits
from pooltutor.viz.selfcheck import SelfCheck

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The source document (seed 000)
#
# Seed 000 is the Japanese translation of OpenVINO's specification of `AdaptiveMaxPool-8`
# (the whole page, in English, is in `docs/seed_documents.md`). It "applies max pooling
# with an adaptive kernel size": for an NCDHW input, output $(i, j, k)$ is the maximum of
# $Input[d_{start}:d_{end}, h_{start}:h_{end}, w_{start}:w_{end}]$, where
#
# $$d_{start} = \lfloor i \cdot \tfrac{D_{in}}{D_{out}} \rfloor, \quad
#   d_{end} = \lceil (i+1) \cdot \tfrac{D_{in}}{D_{out}} \rceil$$
#
# and the same for $h$ and $w$. A second output holds the indices, of type
# `index_element_type` (`"i64"`, the default, or `"i32"`), "computed as if input spatial
# dimensions were flattened": in `[0, H * W * D)`.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Bins
#
# An ordinary pooling fixes the window and the output size follows. Adaptive pooling fixes
# the output size, so a network can take pictures of any size and still hand a fixed grid
# to its last layers. Along one axis, output $i$ of $O$ reads the positions
# $[\lfloor i \cdot I/O \rfloor, \lceil (i+1) \cdot I/O \rceil)$: start rounded *down*, end
# rounded *up*. Test vector **TV24** pools five values into three:

# %%
x24 = np.array([3.0, 1, 4, 1, 5])
print(adaptive_geometry(x24.shape, 3).describe())

# %% [markdown] slideshow={"slide_type": "subslide"}
# $5/3$ is not a whole number, so bin 1, $[\lfloor 5/3 \rfloor, \lceil 10/3 \rceil) =
# [1, 4)$, shares position 1 with bin 0 and position 3 with bin 2:

# %% tags=["hide-input"]
p24 = plot_adaptive_bins(x24, 3, out_index=1)
p24.figure.set_dpi(80)  # legible cell numbers (>= 7 pt at >= 80 dpi), slide-sized
p24

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Seven inputs into four outputs (TV25). Which positions does bin 2 cover?
# Type its start and its end (the end is not included).

# %% tags=["hide-input"]
g25 = adaptive_geometry((7,), 4)
SelfCheck("Bin 2 of adaptive pooling 7 -> 4: (start, end)?", adaptive_bins(7, 4)[2],
          explanation=g25.describe(), hint="floor(2*7/4), ceil(3*7/4)")

# %% [markdown] slideshow={"slide_type": "fragment"}
# When $O$ divides $I$, the bins are all $I/O$ long and tile the input. Otherwise some
# overlap, and they can even differ in length:

# %%
print(adaptive_geometry((10,), 3).describe())
print(adaptive_geometry((32,), 16).describe())

# %% [markdown] slideshow={"slide_type": "skip"}
# ### Try it
#
# Change the input and output sizes and watch the bins (this needs a running kernel). The
# input holds the digits of $\pi$; the dashed bars are the export workaround of section 4.
# With more outputs than inputs ($O > I$), bins repeat input cells.

# %% slideshow={"slide_type": "skip"}
explorer = AdaptiveBinsExplorer(input_size=7, output_size=4)
explorer

# %% [markdown] slideshow={"slide_type": "skip"}
# The same explorer at 7 → 4, computed in advance (no kernel needed):

# %% slideshow={"slide_type": "skip"} tags=["hide-input"]
explorer.static_widget()

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Two dimensions (TV28)
#
# Each axis gets its own bins; a 2-D bin is a rectangle, a row bin times a column bin. A
# $5 \times 5$ plane holding 0 to 24, pooled to $3 \times 3$:

# %% tags=["hide-input"]
c0 = np.arange(25.0).reshape(5, 5)
p28 = plot_adaptive_bins(c0, 3, out_index=(1, 1))
p28.figure.set_dpi(80)  # legible cell numbers (>= 7 pt at >= 80 dpi), slide-sized
p28

# %% [markdown] slideshow={"slide_type": "fragment"}
# The darker cells lie in two or four bins. Each bin's maximum is its bottom-right cell: the
# values grow to the right and downwards.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. The seed's example: $1 \times 3 \times 32 \times 32 \to 16 \times 16$
#
# One picture with three channels, $32 \times 32$, pooled to $16 \times 16$; any numbers
# will do, so here they are random:

# %%
x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
y, idx = frameworks.openvino_adaptive_max_pool(x, [16, 16])
print("output:", y.shape, y.dtype, "  indices:", idx.shape, idx.dtype)
print("indices range from", idx.min(), "to", idx.max(), " (one plane holds", 32 * 32, "values)")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both outputs are `[1, 3, 16, 16]`, the indices `int64` (the default `"i64"`), all in
# $[0, H \cdot W) = [0, 1024)$: each channel counts from 0 again, the `plane` layout of
# notebook 03. OpenVINO's *ordinary* `MaxPool` counts through the whole tensor by default
# (`axis=0`), so one toolkit's two operators number the same maxima differently.
#
# As 16 divides 32, every bin is a $2 \times 2$ block, and the result is an ordinary
# $2 \times 2$ max pool with stride 2:

# %%
ordinary = max_pool(x, 2, return_indices=True, index_layout="tensor")
print("same values:", (ordinary.output == y).all())
print("channel 2, cell (0, 0):  AdaptiveMaxPool index", idx[0, 2, 0, 0],
      "  MaxPool (axis=0) index", ordinary.indices[0, 2, 0, 0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** In channel 1, output cell `(3, 5)`, `AdaptiveMaxPool-8` reports the index in
# the question. What does OpenVINO's `MaxPool` with its default `axis=0` report for the
# same maximum?

# %% tags=["hide-input"]
SelfCheck(f"AdaptiveMaxPool-8 says {idx[0, 1, 3, 5]} for channel 1, cell (3, 5). "
          "The whole-tensor index of the same element?", ordinary.indices[0, 1, 3, 5],
          explanation=ordinary.explain(0, 1, 3, 5),
          hint="channel 0 holds 32 * 32 elements before it")

# %% [markdown] slideshow={"slide_type": "fragment"}
# Ties go to the first maximum in row-major order. NaN is never selected, in the course's
# contract as in OpenVINO's `MaxPool` (the reference kernel itself can keep a NaN that opens
# a row).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Exporting adaptive pooling as an ordinary pooling
#
# ONNX has no adaptive pooling. PyTorch's exporter writes `adaptive_max_pool2d` as a
# `MaxPool` with kernel = stride = $I/O$, and only when $O$ divides $I$ (otherwise: "output
# size that are not factor of input size", pytorch/pytorch#42653). A popular workaround uses
#
# $$k = I - (O - 1) \lfloor I/O \rfloor, \qquad s = \lfloor I/O \rfloor ,$$
#
# which always gives $O$ windows covering the input. But are they the bins?

# %% [markdown] slideshow={"slide_type": "subslide"}
# **TV25**, 7 values to 4, averaged. Solid bars: the bins; dashed: the workaround's windows.

# %% tags=["hide-input"]
x25 = np.array([3.0, 1, 4, 1, 5, 9, 2])
p25 = plot_adaptive_bins(x25, 4, out_index=1, op="avg", show_fixed=True)
p25.figure.set_dpi(80)  # legible cell numbers (>= 7 pt at >= 80 dpi), slide-sized
p25

# %% [markdown] slideshow={"slide_type": "subslide"}
# The workaround uses $k = 4$, $s = 1$: windows $[0, 4), [1, 5), [2, 6), [3, 7)$, none of
# them a bin, so every value comes out different:

# %%
print("adaptive average:", p25.output)
print("fixed pool k=4 s=1:", p25.fixed_output)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Ten values into three outputs (TV26). Which kernel and stride does the
# workaround use? Type them as `kernel, stride`.

# %% tags=["hide-input"]
fix26 = fixed_pool_contrast(adaptive_geometry((10,), 3))
SelfCheck("Workaround kernel and stride for adaptive pooling 10 -> 3?", fix26.kernel + fix26.stride,
          explanation=adaptive_geometry((10,), 3).describe()
          + f"\nworkaround windows: {fix26.windows[0]}",
          hint="s = floor(10/3), k = 10 - 2*s")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Here the windows $[0, 4), [3, 7), [6, 10)$ are exactly the bins, so the export is exact,
# though 3 does not divide 10: a coincidence of these sizes, not a rule.

# %% tags=["hide-input"]
x26 = pi_digits(10)
p26 = plot_adaptive_bins(x26, 3, out_index=1, op="avg", show_fixed=True)
p26.figure.set_dpi(80)  # legible cell numbers (>= 7 pt at >= 80 dpi), slide-sized
p26

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Predict.** Eleven values into three outputs. The workaround's windows are $[0, 5)$,
# $[3, 8)$, $[6, 11)$. How many of them are exactly their bin?

# %% tags=["hide-input"]
fix11 = fixed_pool_contrast(adaptive_geometry((11,), 3))
SelfCheck("Adaptive 11 -> 3 and its workaround k=5, s=3: how many windows equal their bin?",
          sum(fix11.same[0]), explanation=adaptive_geometry((11,), 3).describe()
          + f"\nworkaround windows: {fix11.windows[0]}, equal to their bin: {fix11.same[0]}",
          hint="compare [0, 5) with [floor(0), ceil(11/3)), and so on")

# %% [markdown] slideshow={"slide_type": "fragment"}
# When $O$ divides $I$ (TV27: 32 digits of $\pi$ into 16), the workaround is $k = s = I/O$,
# its windows are the bins, and the export is exact:

# %%
x27 = pi_digits(32).reshape(1, 1, 32)
fix27 = fixed_pool_contrast(adaptive_geometry((32,), 16))
print("kernel, stride:", fix27.kernel, fix27.stride, "  every window its bin:", fix27.equal)
fixed27 = avg_pool(x27, fix27.kernel, fix27.stride).output
print("same values:", (adaptive_avg_pool(x27, 16).output == fixed27).all())

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Three small errors in the seed
#
# None changes what the operation computes, but each would trip up someone writing an IR
# file by hand. The last two are in OpenVINO's own page too.
#
# **1. The version line** says *AdaptiveAvgPool-8*. The page describes `AdaptiveMaxPool-8`:
# it takes a maximum and has an index output, which `AdaptiveAvgPool-8` has not.
#
# **2. The attribute in the XML example** is `<data output_type="i64"/>`, but the attribute
# the page describes, and the one OpenVINO's IR reader and Python API accept, is
# `index_element_type`. pooltutor uses the real name; `"i32"` gives 32-bit indices:

# %%
_, idx32 = frameworks.openvino_adaptive_max_pool(x, [16, 16], index_element_type="i32")
print(idx32.dtype)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **3. The port numbers.** In OpenVINO's IR the ports of one layer share one numbering: the
# inputs are ports 0 and 1, so the outputs are 2 and 3. The example numbers its outputs 1
# and 2, making port 1 both an input and an output (the corrected XML is in
# `docs/seed_documents.md`).
#
# The rest checks out: the bin formulas are PyTorch's (TV24–TV28 agree), and the indices
# are per plane.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * Adaptive pooling gives output $i$ the bin $[\lfloor iI/O \rfloor, \lceil (i+1)I/O
#   \rceil)$. The bins overlap when $O$ does not divide $I$ (5 → 3, 7 → 4, 10 → 3) and tile
#   the input when it does (32 → 16).
# * `AdaptiveMaxPool-8` counts its indices per $(n, c)$ plane, like PyTorch; OpenVINO's own
#   `MaxPool` counts through the whole tensor by default.
# * A pooling with $k = I - (O-1)\lfloor I/O \rfloor$, $s = \lfloor I/O \rfloor$ equals
#   adaptive pooling only when its windows are the bins: always when $O$ divides $I$ (TV27),
#   sometimes by coincidence (TV26), otherwise not (TV24, TV25).
# * The seed's slips: `AdaptiveMaxPool-8`, `index_element_type`, output ports 2 and 3.
#
# **Next:** `05_quantized_relu`, where pooling meets integer arithmetic.
