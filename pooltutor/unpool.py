"""MaxUnpool: put pooled maxima back where their indices say they came from.

A max pool with indices remembers, for every output, where its winner sat
in the input.  MaxUnpool (PyTorch ``max_unpool1d/2d/3d``, ONNX
``MaxUnpool``, DirectML ``MAX_UNPOOLING``) uses that memory: it builds a
zero tensor shaped like the pooled input and writes every pooled value back
at its index.  This is why indices matter, and why their *layout* matters:
an index is just a number, and it names a position only under the layout it
was written in (:mod:`pooltutor.indexing`).

* :func:`max_unpool` decodes the indices under a named layout with
  :func:`pooltutor.indexing.convert_indices`, which refuses any index that
  does not point into its own ``(n, c)`` plane, then scatters.
* :func:`max_pool_backward` is max pooling's backward pass: the same scatter
  with the output gradients instead of the values, summed where an element
  won several windows.
* :func:`flat_unpool` is what ONNX ``MaxUnpool`` (and DirectML) do: every
  index is a row-major position in the whole ``N*C*spatial`` tensor, and
  nothing checks which plane it lands in.  Fed PyTorch's per-plane indices,
  it silently writes every plane's values into the first plane
  (onnx/onnx#2398, docs/semantics.md §6, pitfall 3).

Both return new arrays; inputs are never modified.  The core of this module
imports numpy alone; the picture of an unpooling is :func:`pooltutor.viz.unpool.plot_unpool`.

>>> x = np.arange(16.0).reshape(1, 1, 4, 4)
>>> y, idx = max_pool(x, 2, return_indices=True)          # PyTorch's layout: per plane
>>> max_unpool(y, idx, x.shape)[0, 0].tolist()
[[0.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 7.0], [0.0, 0.0, 0.0, 0.0], [0.0, 13.0, 0.0, 15.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .errors import PoolTutorError, PoolTutorTypeError, check_choice, check_memory, check_tensor
from .indexing import INDEX_LAYOUTS, convert_indices
from .pooling import max_pool  # noqa: F401  (used by the doctests)
from .rules import IndexLayout

__all__ = ["max_unpool", "flat_unpool", "max_pool_backward"]


# --------------------------------------------------------------------------- checks


def _check_shape(input_shape: Any) -> tuple[int, ...]:
    if isinstance(input_shape, np.ndarray):
        input_shape = input_shape.tolist()
    if not isinstance(input_shape, (tuple, list)):
        raise PoolTutorTypeError(
            f"input_shape={input_shape!r} has type {type(input_shape).__name__}: need the "
            f"(N, C, *spatial) shape of the pooled input, a tuple of ints"
        )
    shape = []
    for s in input_shape:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or s < 1:
            raise PoolTutorError(
                f"input_shape={tuple(input_shape)!r}: every entry must be an int >= 1"
            )
        shape.append(int(s))
    if not 3 <= len(shape) <= 5:
        raise PoolTutorError(
            f"input_shape={tuple(shape)!r} has {len(shape)} entries: need (N, C, *spatial) with "
            f"1 to 3 spatial axes"
        )
    return tuple(shape)


def _check_inputs(y: ArrayLike, indices: ArrayLike, input_shape: Any, name: str = "y"
                  ) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Validated ``(y, indices as int64, shape)``; nothing is copied that need not be.
    ``name`` is how the caller spells ``y`` (``grad_out`` for the backward pass)."""
    shape = _check_shape(input_shape)
    y = check_tensor(name, y)
    if isinstance(indices, np.ndarray):
        idx = indices
    else:
        try:
            idx = np.asarray(indices)
        except (TypeError, ValueError) as exc:
            raise PoolTutorTypeError(f"indices could not be read as an array ({exc})") from None
    if idx.dtype.kind not in "iu":
        raise PoolTutorTypeError(
            f"indices has dtype {idx.dtype}: need an integer array (the indices of a max pool)"
        )
    if idx.shape != y.shape:
        raise PoolTutorError(
            f"indices has shape {idx.shape}: need the shape of {name}, {y.shape} (one index "
            f"per pooled value)"
        )
    if y.ndim != len(shape) or y.shape[:2] != shape[:2]:
        raise PoolTutorError(
            f"input_shape={shape!r} does not fit {name} shaped {y.shape}: need the same N and C "
            f"({y.shape[0]}, {y.shape[1]}) and {y.ndim - 2} spatial axes"
        )
    check_memory(f"input_shape={shape!r}", shape, y.dtype.itemsize)   # the unpooled output
    return y, idx, shape


def _scatter(y: np.ndarray, flat_positions: np.ndarray, shape: tuple[int, ...], *,
             add: bool = False) -> np.ndarray:
    """Zeros shaped ``shape`` with ``y`` written at the row-major ``flat_positions``
    (``-1``: nothing to write).

    This one scatter is both MaxUnpool and max pooling's backward pass:

    * ``add=False`` (MaxUnpool): where several values target one element, the
      last in row-major order of ``y`` wins (as PyTorch's and ONNX Runtime's CPU
      loops);
    * ``add=True`` (the gradient): values that target one element are summed, so
      an input element that won two overlapping windows receives both gradients.
    """
    out = np.zeros(shape, dtype=y.dtype)
    pos = flat_positions.ravel()
    values = y.ravel()
    keep = np.nonzero(pos >= 0)[0]
    if add:
        np.add.at(out.reshape(-1), pos[keep], values[keep])
        return out
    # the last occurrence of every target: np.unique on the reversed order finds it
    _, first_reversed = np.unique(pos[keep][::-1], return_index=True)
    chosen = keep[keep.size - 1 - first_reversed]
    out.reshape(-1)[pos[chosen]] = values[chosen]
    return out


def _whole_positions(idx: np.ndarray, shape: tuple[int, ...], layout: IndexLayout) -> np.ndarray:
    """Row-major positions in the whole tensor of indices written in ``layout``
    (``-1`` stays ``-1``); refuses an index outside its own ``(n, c)`` plane."""
    check_choice("layout", layout, INDEX_LAYOUTS)
    plane = convert_indices(idx, shape, layout, "plane")          # refuses foreign planes
    size = int(np.prod(shape[2:]))
    n = np.arange(shape[0], dtype=np.int64).reshape((-1, 1) + (1,) * (len(shape) - 2))
    c = np.arange(shape[1], dtype=np.int64).reshape((1, -1) + (1,) * (len(shape) - 2))
    return np.where(plane >= 0, (n * shape[1] + c) * size + plane, -1)


# --------------------------------------------------------------------------- unpool


def max_unpool(y: ArrayLike, indices: ArrayLike, input_shape: Sequence[int],
               layout: IndexLayout = "plane") -> np.ndarray:
    """Scatter pooled values back to the positions their indices name, zeros elsewhere.

    Parameters
    ----------
    y : array, shaped ``(N, C, *out_spatial)``
        The pooled values (not modified).
    indices : integer array shaped like ``y``
        Where each value came from, written in ``layout``.  ``-1`` ("no input
        element won": a window of padding only) writes nothing.
    input_shape : tuple of int
        ``(N, C, *spatial)``, the shape of the pooled input (and of the result).
    layout : {'plane', 'tensor', 'tensor_colmajor', 'nhwc', 'nhwc_batch'}
        How the indices are numbered (:data:`pooltutor.indexing.INDEX_LAYOUTS`):
        ``'plane'`` for PyTorch and OpenVINO adaptive pooling, ``'tensor'`` for
        ONNX ``storage_order=0`` and DirectML, ``'tensor_colmajor'`` for ONNX
        ``storage_order=1``, ``'nhwc'`` / ``'nhwc_batch'`` for TensorFlow.

    Returns
    -------
    numpy.ndarray shaped ``input_shape``, dtype of ``y``

    Raises
    ------
    ValueError
        Naming ``indices`` when an index does not point into its own ``(n, c)``
        plane under ``layout`` (the wrong layout is often caught this way, but
        not always: column-major positions read as row-major ones stay inside
        the plane and land on the wrong elements, silently).

    Notes
    -----
    Windows that overlap can share a winner: then several outputs carry the
    same value to the same element.  If the values differ (``y`` was changed
    after pooling), the last one in row-major order of ``y`` wins.

    Examples
    --------
    TV22 (N=2, C=2, 2x3 planes, 2x2 window, stride 1): PyTorch's per-plane
    indices and ONNX's whole-tensor indices put the values back in the same
    places, each read in its own layout:

    >>> x = np.array([[[[1, 9, 2], [3, 4, 8]], [[7, 1, 1], [1, 1, 6]]],
    ...               [[[5, 5, 0], [0, 0, 0]], [[0, 2, 0], [3, 0, 1]]]], dtype=float)
    >>> y, plane = max_pool(x, 2, 1, return_indices=True)
    >>> tensor = max_pool(x, 2, 1, return_indices=True, index_layout="tensor").indices
    >>> a = max_unpool(y, plane, x.shape, "plane")
    >>> b = max_unpool(y, tensor, x.shape, "tensor")
    >>> bool((a == b).all()), a[1, 1].tolist()
    (True, [[0.0, 2.0, 0.0], [3.0, 0.0, 0.0]])

    Read in the wrong layout, the whole-tensor indices leave their planes:

    >>> max_unpool(y, tensor, x.shape, "plane")
    Traceback (most recent call last):
    ...
    pooltutor.errors.PoolTutorError: indices[0, 1, 0, 0]=6 does not point into its own (n, c) plane
    of the input shaped (2, 2, 2, 3) under layout 'plane'

    See Also
    --------
    flat_unpool : ONNX MaxUnpool's unchecked scatter.
    pooltutor.indexing.convert_indices : the decoding used here.
    """
    y, idx, shape = _check_inputs(y, indices, input_shape)
    return _scatter(y, _whole_positions(idx, shape, layout), shape)


def max_pool_backward(grad_out: ArrayLike, indices: ArrayLike, input_shape: Sequence[int],
                      layout: IndexLayout = "plane") -> np.ndarray:
    """Max pooling's backward pass: every output gradient goes to its window's winner.

    The derivative of ``max`` is 1 for the element that won and 0 for all the
    others, so the gradient of the loss with respect to the input is zero
    everywhere except at the winners, and each winner receives the gradient of
    the output it won (CS231n).  That is the scatter of :func:`max_unpool`, with
    the output *gradients* in place of the pooled values, and one difference:
    an element that won several overlapping windows receives the **sum** of
    their gradients (MaxUnpool writes one value there).  Both use the same
    scatter code.

    * Ties: the index names the one winner (PyTorch: the first maximum in
      row-major scan order), so only that element receives the gradient.
    * Padding never wins an index (its index is ``-1``), so it never receives
      gradient, and there is no padded element in the result to receive it.

    Parameters
    ----------
    grad_out : array, shaped ``(N, C, *out_spatial)``
        The gradient of the loss with respect to the pool's output (not modified).
    indices : integer array shaped like ``grad_out``
        The pool's indices, written in ``layout``; ``-1`` routes nothing.
    input_shape : tuple of int
        ``(N, C, *spatial)``, the shape of the pooled input (and of the result).
    layout : {'plane', 'tensor', 'tensor_colmajor', 'nhwc', 'nhwc_batch'}
        How the indices are numbered, as in :func:`max_unpool`.

    Returns
    -------
    numpy.ndarray shaped ``input_shape``, dtype of ``grad_out``: the input's gradient.

    Raises
    ------
    ValueError
        As :func:`max_unpool` (shapes that do not fit, an index outside its plane).

    Examples
    --------
    A 1x4 input, window 2, stride 1: the 9 wins the first two windows and
    collects both of their gradients; padding 1 adds windows, never receivers.

    >>> x = np.array([[[[1.0, 9, 2, 3]]]])
    >>> y, idx = max_pool(x, (1, 2), (1, 1), return_indices=True)
    >>> y.tolist(), idx.tolist()
    ([[[[9.0, 9.0, 3.0]]]], [[[[1, 1, 3]]]])
    >>> max_pool_backward(np.array([[[[1.0, 10, 100]]]]), idx, x.shape).tolist()
    [[[[0.0, 11.0, 0.0, 100.0]]]]

    A tie (5 and 5): the first maximum wins and takes all the gradient.

    >>> y, idx = max_pool(np.array([[[[5.0, 5]]]]), (1, 2), return_indices=True)
    >>> max_pool_backward(np.ones_like(y), idx, (1, 1, 1, 2)).tolist()
    [[[[1.0, 0.0]]]]

    See Also
    --------
    max_unpool : the same scatter, with the pooled values.
    pooltutor.reference.max_pool_backward : the loop version.
    """
    g, idx, shape = _check_inputs(grad_out, indices, input_shape, "grad_out")
    if g.dtype.kind not in "fc":
        raise PoolTutorTypeError(
            f"grad_out has dtype {g.dtype}: need a floating-point array (a gradient)"
        )
    return _scatter(g, _whole_positions(idx, shape, layout), shape, add=True)


def flat_unpool(y: ArrayLike, indices: ArrayLike, input_shape: Sequence[int]) -> np.ndarray:
    """ONNX ``MaxUnpool``'s scatter: each index is a position in the whole flattened tensor.

    Every index is read as a row-major position in the whole
    ``N*C*spatial`` tensor, whatever ``(n, c)`` its value belongs to: nothing
    checks that it lands in its own plane.  That is right for ONNX
    ``MaxPool`` indices (``storage_order=0``) and DirectML's, and silently
    wrong for anything else.

    Parameters
    ----------
    y : array, shaped ``(N, C, *out_spatial)``
    indices : integer array shaped like ``y``
        Positions in ``[0, N*C*prod(spatial))``, or ``-1`` (writes nothing).
    input_shape : tuple of int
        ``(N, C, *spatial)``.

    Returns
    -------
    numpy.ndarray shaped ``input_shape``, dtype of ``y``

    Raises
    ------
    ValueError
        Naming ``indices`` for a position outside the whole tensor.

    Examples
    --------
    PyTorch's per-plane indices fed to ONNX MaxUnpool (onnx/onnx#2398): the
    second channel's values land in the first channel, overwriting it, and
    the second channel stays empty.

    >>> x = np.array([[[[1.0, 2], [3, 4]], [[8, 7], [6, 5]]]])      # N=1, C=2, 2x2
    >>> y, plane = max_pool(x, 2, return_indices=True)
    >>> y.ravel().tolist(), plane.ravel().tolist()
    ([4.0, 8.0], [3, 0])
    >>> flat_unpool(y, plane, x.shape).tolist()
    [[[[8.0, 0.0], [0.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]]]

    See Also
    --------
    max_unpool : decodes a named layout and refuses indices outside their plane.
    """
    y, idx, shape = _check_inputs(y, indices, input_shape)
    total = int(np.prod(shape))
    bad = (idx != -1) & ((idx < 0) | (idx >= total)) if idx.dtype.kind == "i" else idx >= total
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise PoolTutorError(
            f"indices[{', '.join(map(str, where))}]={int(idx[where])} is outside the whole "
            f"tensor shaped {shape}: need -1 or a position in [0, {total})"
        )
    return _scatter(y, idx.astype(np.int64), shape)
