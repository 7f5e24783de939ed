# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] slideshow={"slide_type": "slide"}
# # 03b · Where the gradient goes, and a pool of your own
#
# **Max pooling's backward pass; write the pooling loop yourself** (about 30 minutes; you
# need notebooks 01 and 03)
#
# Why pool at all? A max pool keeps the strongest response of each window, so a feature
# that moves by a pixel or two inside its window gives the same output (invariance to small
# shifts), and it shrinks every feature map, so the layers after it hold fewer activations
# and cost less (CS231n). Notebook 03 showed that the pool also remembers *where* each
# maximum came from. This notebook shows what that memory is for.
#
# **Learning goals.** After this notebook you can
#
# 1. route the gradient of a max pool by hand: each output's gradient goes to its window's
#    winner, and nowhere else;
# 2. say who gets the gradient in a tie, and what a cell that wins two overlapping windows
#    receives;
# 3. explain why MaxUnpool and the backward pass are the same operation;
# 4. write a 2-D max pool with padding, dilation and the ceil rule yourself.

# %% slideshow={"slide_type": "skip"}
# %matplotlib inline
import numpy as np

from pooltutor import frameworks, reference
from pooltutor.exercises import check_max_pool
from pooltutor.unpool import max_pool_backward, max_unpool
from pooltutor.viz.gradients import plot_gradient_routing
from pooltutor.viz.selfcheck import SelfCheck

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The gradient of a maximum
#
# $y = \max(a, b, c, d)$ changes only if the winner changes: nudging any other element a
# little does nothing to $y$. So $\partial y / \partial(\text{winner}) = 1$ and the
# derivative with respect to every other element is 0. In the backward pass, each
# output's gradient $g$ is therefore sent to its winner — the position its index names —
# and every element that won nothing receives 0. No arithmetic, only routing.
#
# Take a $3 \times 4$ input, a $2 \times 2$ window and stride 1, so that the windows
# overlap, and give each of the six outputs a different gradient (1, 10, 100, ...), so that
# you can read off where each one went.

# %%
x = np.array([[1.0, 9, 2, 3],
              [0.0, 4, 8, 1],
              [5.0, 5, 0, 2]])
grad = np.array([[1.0, 10, 100],
                 [1000, 10000, 100000]])
y, idx = frameworks.torch_max_pool(x[None, None], 2, 1, return_indices=True)
print("pooled output:\n", y[0, 0])
print("indices (row-major, per plane):\n", idx[0, 0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# Before you look at the picture: the 8 at row 1, column 2 wins three windows. Which
# gradient does it receive?

# %% tags=["hide-input"]
SelfCheck("The 8 at (1, 2) wins outputs (0, 2), (1, 1) and (1, 2). Its gradient?",
          max_pool_backward(grad[None, None], idx, (1, 1, 3, 4))[0, 0, 1, 2],
          explanation="100 + 10000 + 100000 = 110100: a cell that wins several windows "
                      "receives the sum of their gradients.",
          hint="Every window it wins sends it that window's gradient.")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The picture boxes the winners (a thick, dark-rimmed square) on the input, and shows the
# routed gradient beside it: white zeros where nothing won.

# %%
plot_gradient_routing(x, 2, 1, grad=grad)

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## 2. Ties and padding
#
# In the bottom-left window the two 5s tie. The index names **one** winner — PyTorch's
# first maximum in row-major order, position 8 — so that 5 receives the whole gradient
# (1000) and the other 5 receives nothing. A framework that lets the last maximum win
# routes the same gradient to the other cell: the forward values agree, the gradients do not.
#
# Padding is never a candidate for a max (it is skipped, or $-\infty$), so its index is
# never chosen and it never receives gradient. Even when every input value is negative:

# %%
neg = -np.arange(1.0, 10.0).reshape(3, 3)
plot_gradient_routing(neg, 3, 1, padding=1)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. MaxUnpool is the same scatter
#
# MaxUnpool (notebook 03) writes each pooled *value* at its index, zeros elsewhere. The
# backward pass writes each output *gradient* at the same index. Same indices, same
# scatter; the one difference is that a cell winning twice gets the gradients **added**,
# while MaxUnpool writes its single value there. In pooltutor both run the same code
# (`pooltutor.unpool`); the loop version is `pooltutor.reference.max_pool_backward`.

# %%
print("MaxUnpool (values):\n", max_unpool(y, idx, (1, 1, 3, 4))[0, 0])
g_in = max_pool_backward(grad[None, None], idx, (1, 1, 3, 4))
print("backward pass (gradients):\n", g_in[0, 0])
print("loop reference agrees:",
      np.array_equal(g_in, reference.max_pool_backward(grad[None, None], idx, (1, 1, 3, 4))))

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Checked against PyTorch's autograd
#
# If PyTorch is installed, the next cell lets `torch.autograd` compute the same gradient
# (`max_pool2d`, then `backward` with our output gradients) and compares.

# %%
try:
    import torch
except ImportError:
    print("PyTorch is not installed here: skipping the autograd comparison.")
else:
    xt = torch.tensor(x[None, None], requires_grad=True)
    torch.nn.functional.max_pool2d(xt, 2, 1).backward(torch.tensor(grad[None, None]))
    print("torch.autograd x.grad:\n", xt.grad.numpy()[0, 0])
    print("same as max_pool_backward:", np.array_equal(xt.grad.numpy(), g_in))

# %% tags=["hide-input"]
SelfCheck("Input [[5, 5], [5, 5]], one 2x2 window, output gradient 7. "
          "How much gradient does cell (1, 1) receive?",
          max_pool_backward(np.full((1, 1, 1, 1), 7.0),
                            frameworks.torch_max_pool(np.full((1, 1, 2, 2), 5.0), 2,
                                                      return_indices=True)[1],
                            (1, 1, 2, 2))[0, 0, 1, 1],
          explanation="PyTorch's index names the first maximum, (0, 0), which takes all 7; "
                      "(1, 1) receives 0.",
          hint="The index names one winner. Which of the four 5s comes first?")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Write it yourself
#
# Complete the function below: a 2-D max pool with PyTorch's rules.
#
# * `x` is a 2-D numpy array; `kernel`, `stride`, `padding`, `dilation` are ints (the same
#   on both axes); `ceil_mode` is `True` or `False`.
# * Output length per axis: $\lfloor (I + 2P - D(K-1) - 1) / S \rfloor + 1$; with
#   `ceil_mode`, use $\lceil\cdot\rceil$, then drop a last window that would start in the
#   end padding (start $\ge I + P$).
# * Padding must never win: pad with $-\infty$, not 0.
# * A tap of output $(i, j)$ sits at padded position $(iS + aD,\ jS + bD)$ for
#   $a, b = 0 \ldots K-1$.
#
# Replace the `raise NotImplementedError` with your loops, then run the checker. It tries
# six prepared cases (no padding, padding, the ceil rule with PyTorch's clip, dilation,
# ties, negative values with padding) and tells you which one fails and why. Return
# `(values, indices)` instead, with each winner's flat index $hW + w$ in `x`, and the
# checker also tests PyTorch's tie rule: the first maximum in scan order wins.

# %% tags=["student-exercise"]
def my_max_pool(x, kernel, stride, padding=0, dilation=1, ceil_mode=False):
    # 1. the output size on each axis (floor, or ceil with the clip)
    # 2. a padded copy of x filled with -inf
    # 3. for every output (i, j): the maximum of its kernel x kernel taps
    raise NotImplementedError


# %%
check_max_pool(my_max_pool)

# %% [markdown]
# When every case passes, the checker lists them. Before you write the ceil case, answer:

# %% tags=["hide-input"]
SelfCheck("I = 5, K = 2, S = 2, P = 1, ceil_mode=True: how many windows does PyTorch keep?",
          frameworks.torch_max_pool(np.zeros((1, 1, 5)), 2, 2, 1, ceil_mode=True).shape[-1],
          explanation="ceil((5 + 2 - 2) / 2) + 1 = 4, but the fourth window would start at "
                      "padded position 6 >= I + P = 6, in the end padding: PyTorch drops it, 3.",
          hint="Compute the ceil length, then check where the last window starts.")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * Max pooling's backward pass routes each output gradient to its window's winner, the
#   position its index names; every other input element receives 0.
# * A tie gives the gradient to the one element the index names (PyTorch: the first
#   maximum); a cell that wins several overlapping windows receives the sum of their
#   gradients; padding never receives any.
# * MaxUnpool is the same scatter, with the values instead of the gradients.
# * You can write the pooling loop yourself: output length, $-\infty$ padding, the ceil
#   clip and dilation are the four places where it goes wrong.
