"""Index layouts: how the position of a max-pool winner becomes one number.

A max pool's winner sits at ``(n, c, *spatial)`` in the input.  Frameworks
flatten that position in different ways (``docs/api.md``, "Index layouts"):

==================== ============================================== =========================================
layout               number                                         used by
==================== ============================================== =========================================
``plane``            row-major position inside its own (n, c) plane PyTorch, OpenVINO axis=2 / adaptive, Caffe
``tensor``           row-major position in the whole N*C*spatial    ONNX storage_order=0, DirectML,
                                                                    OpenVINO axis=0
``tensor_colmajor``  plane offset + column-major position in plane  ONNX storage_order=1
``nhwc``             ``spatial_rowmajor * C + c``                   TensorFlow include_batch_in_index=False
``nhwc_batch``       ``(n * spatial + spatial_rowmajor) * C + c``   TensorFlow include_batch_in_index=True
==================== ============================================== =========================================

``-1`` is never a position: it marks "no input element won" (a window of
padding only) and passes through every conversion unchanged.

>>> shape = (2, 2, 2, 3)                                  # TV22: N=2, C=2, H=2, W=3
>>> plane = np.array([1, 1, 0, 5, 0, 1, 3, 1]).reshape(2, 2, 1, 2)
>>> convert_indices(plane, shape, "plane", "tensor").ravel().tolist()
[1, 1, 6, 11, 12, 13, 21, 19]
>>> convert_indices(plane, shape, "plane", "tensor_colmajor").ravel().tolist()
[2, 2, 6, 11, 12, 14, 19, 20]
>>> convert_indices(plane, shape, "plane", "nhwc").ravel().tolist()
[2, 2, 1, 11, 0, 2, 7, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .errors import PoolTutorError, check_choice, check_tensor
from .rules import INDEX_LAYOUTS, IndexLayout

if TYPE_CHECKING:
    from .pooling import PoolResult

__all__ = ["INDEX_LAYOUTS", "axis_steps", "convert_indices", "from_plane", "layout_numbers",
           "plane_colmajor", "to_plane", "winner_numbers"]



def _plane_offsets(input_shape: Sequence[int], out_ndim_spatial: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Arrays ``n`` and ``c`` broadcastable to ``(N, C, *out_spatial)``."""
    n_count, c_count = input_shape[0], input_shape[1]
    extra = (1,) * out_ndim_spatial
    n = np.arange(n_count, dtype=np.int64).reshape((n_count, 1) + extra)
    c = np.arange(c_count, dtype=np.int64).reshape((1, c_count) + extra)
    return n, c


def plane_colmajor(plane: np.ndarray, spatial: Sequence[int]) -> np.ndarray:
    """Re-number row-major plane positions in column-major order (first axis fastest).

    >>> plane_colmajor(np.array([1, 3]), (2, 2)).tolist()    # (0,1) -> 2, (1,1) -> 3
    [2, 3]
    """
    coords = np.unravel_index(plane, spatial)
    out = np.zeros(plane.shape, dtype=np.int64)
    step = 1
    for coord, size in zip(coords, spatial):
        out += coord * step
        step *= size
    return out


def _colmajor_to_rowmajor(code: np.ndarray, spatial: Sequence[int]) -> np.ndarray:
    coords = np.unravel_index(code, tuple(reversed(spatial)))
    return np.ravel_multi_index(tuple(reversed(coords)), spatial).astype(np.int64)


def from_plane(plane: np.ndarray, input_shape: Sequence[int], layout: IndexLayout) -> np.ndarray:
    """Encode plane (row-major, per (n, c)) positions in ``layout``; ``-1`` stays ``-1``.

    ``plane`` must be shaped ``(N, C, *out_spatial)``.
    """
    spatial = tuple(input_shape[2:])
    size = int(np.prod(spatial))
    n, c = _plane_offsets(input_shape, plane.ndim - 2)
    channels = input_shape[1]
    if layout == "plane":
        out = plane.astype(np.int64, copy=True)
    elif layout == "tensor":
        out = (n * channels + c) * size + plane
    elif layout == "tensor_colmajor":
        out = (n * channels + c) * size + plane_colmajor(np.where(plane < 0, 0, plane), spatial)
    elif layout == "nhwc":
        out = plane * channels + c
    elif layout == "nhwc_batch":
        out = (n * size + plane) * channels + c
    else:  # pragma: no cover - checked by callers
        raise PoolTutorError(f"layout={layout!r} is not one of {INDEX_LAYOUTS}")
    return np.where(plane < 0, -1, out).astype(np.int64)


def to_plane(indices: np.ndarray, input_shape: Sequence[int], layout: IndexLayout) -> np.ndarray:
    """Decode ``indices`` in ``layout`` back to plane positions; ``-1`` stays ``-1``."""
    spatial = tuple(input_shape[2:])
    size = int(np.prod(spatial))
    n, c = _plane_offsets(input_shape, indices.ndim - 2)
    channels = input_shape[1]
    idx = indices.astype(np.int64)
    if layout == "plane":
        plane = idx
    elif layout == "tensor":
        plane = idx - (n * channels + c) * size
    elif layout == "tensor_colmajor":
        code = idx - (n * channels + c) * size
        ok = (code >= 0) & (code < size)
        plane = np.where(ok, _colmajor_to_rowmajor(np.where(ok, code, 0), spatial), -2)
    elif layout == "nhwc":
        rel = idx - c
        plane = np.where(rel % channels == 0, rel // channels, -2)
    elif layout == "nhwc_batch":
        rel = idx - c
        plane = np.where(rel % channels == 0, rel // channels - n * size, -2)
    else:  # pragma: no cover
        raise PoolTutorError(f"layout={layout!r} is not one of {INDEX_LAYOUTS}")
    plane = np.where(idx == -1, -1, plane)
    bad = (plane != -1) & ((plane < 0) | (plane >= size))
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise PoolTutorError(
            f"indices[{', '.join(map(str, where))}]={int(idx[where])} does not point into its own "
            f"(n, c) plane of the input shaped {tuple(input_shape)} under layout {layout!r}"
        )
    return plane


def convert_indices(indices: ArrayLike, input_shape: Sequence[int], src: IndexLayout,
                    dst: IndexLayout) -> np.ndarray:
    """Convert max-pool indices between layouts.

    Parameters
    ----------
    indices : array of int, shaped ``(N, C, *out_spatial)``
        Each entry knows its own ``(n, c)`` from where it sits.
    input_shape : sequence of int
        The ``(N, C, *spatial)`` shape of the pooled input.
    src, dst : {'plane', 'tensor', 'tensor_colmajor', 'nhwc', 'nhwc_batch'}

    Returns
    -------
    numpy.ndarray of int64, a new array shaped like ``indices``.

    Raises ``ValueError`` naming ``indices`` for an index outside its plane
    (``-1``, "no element", is passed through).

    Examples
    --------
    TV23: a 1x1x2x3x4 input with its maximum at (d, h, w) = (0, 1, 1):

    >>> convert_indices(np.array([[[[[5]]]]]), (1, 1, 2, 3, 4), "plane", "tensor_colmajor").item()
    8
    """
    src = check_choice("src", src, INDEX_LAYOUTS)
    dst = check_choice("dst", dst, INDEX_LAYOUTS)
    shape = tuple(input_shape) if hasattr(input_shape, "__len__") else input_shape
    if not isinstance(shape, tuple) or not 3 <= len(shape) <= 5:
        raise PoolTutorError(
            f"input_shape={input_shape!r}: need the (N, C, *spatial) shape with 1 to 3 spatial axes"
        )
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 1:
            raise PoolTutorError(f"input_shape={input_shape!r}: every entry must be an int >= 1")
    idx = check_tensor("indices", indices)
    if idx.dtype.kind not in "iu":
        raise PoolTutorError(f"indices has dtype {idx.dtype}: need an integer array")
    if idx.dtype == np.uint64 and int(idx.max()) > np.iinfo(np.int64).max:
        # the int64 decoding below would wrap it round to a negative number
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(idx)), idx.shape))
        raise PoolTutorError(
            f"indices[{', '.join(map(str, where))}]={int(idx[where])} does not point into the "
            f"input shaped {shape}: need -1 or a position inside its own (n, c) plane under "
            f"layout {src!r}"
        )
    if idx.ndim != len(shape) or idx.shape[:2] != shape[:2]:
        raise PoolTutorError(
            f"indices has shape {idx.shape}: need (N, C, *out_spatial) = ({shape[0]}, {shape[1]}, "
            f"...) with {len(shape) - 2} spatial axes, matching input_shape={shape}"
        )
    plane = to_plane(idx, shape, src)
    return from_plane(plane, shape, dst)


# --------------------------------------------------------------------------- numbering


def layout_numbers(input_shape: Sequence[int], layout: IndexLayout) -> np.ndarray:
    """The flat number of every input element under ``layout``, shaped ``input_shape``.

    Built by converting each element's plane position with :func:`convert_indices`
    (nothing re-derived here).

    >>> layout_numbers((1, 2, 1, 2), "nhwc").tolist()      # c is the fastest axis
    [[[[0, 2]], [[1, 3]]]]
    >>> layout_numbers((1, 1, 2, 2), "tensor_colmajor").tolist()
    [[[[0, 2], [1, 3]]]]
    """
    check_choice("layout", layout, INDEX_LAYOUTS)
    shape = tuple(int(s) for s in input_shape)
    if len(shape) < 3 or any(s < 1 for s in shape):
        raise PoolTutorError(f"input_shape={tuple(input_shape)!r}: need (N, C, *spatial) with "
                             f"1 to 3 spatial axes, every size >= 1")
    spatial = shape[2:]
    plane = np.arange(int(np.prod(spatial)), dtype=np.int64).reshape(spatial)
    plane = np.ascontiguousarray(np.broadcast_to(plane, shape))
    return convert_indices(plane, shape, "plane", layout)


def winner_numbers(result: PoolResult, out_index: Sequence[int],
                   layouts: Sequence[IndexLayout] = INDEX_LAYOUTS) -> dict[str, int]:
    """The number of the winner of ``result.output[out_index]`` in every layout of ``layouts``.

    ``result`` is a max pooling made with ``return_indices=True`` (a
    :class:`~pooltutor.pooling.PoolResult`); ``-1`` (no input element won) stays ``-1``.

    >>> from pooltutor.pooling import max_pool
    >>> r = max_pool(np.arange(12.0).reshape(1, 2, 2, 3), 2, 1, return_indices=True)
    >>> winner_numbers(r, (0, 1, 0, 1))
    {'plane': 5, 'tensor': 11, 'tensor_colmajor': 11, 'nhwc': 11, 'nhwc_batch': 11}
    """
    if getattr(result, "indices", None) is None or getattr(result, "input", None) is None:
        raise PoolTutorError(f"result={result!r}: need a max pooling made with "
                             f"return_indices=True (a PoolResult with indices and input)")
    shape = cast(np.ndarray, result.input).shape
    indices = cast(np.ndarray, result.indices)
    index = tuple(int(v) for v in out_index)
    return {lay: int(convert_indices(indices, shape, result.index_layout, lay)[index])
            for lay in layouts}


def axis_steps(numbers: np.ndarray) -> dict[str, int | None]:
    """How much the number grows for one step along each axis (None: it restarts there).

    Read off ``numbers`` (from :func:`layout_numbers`) at the origin and one step along
    each axis of length > 1.

    >>> axis_steps(layout_numbers((2, 2, 2, 3), "nhwc"))
    {'n': None, 'c': 1, 'h': 6, 'w': 2}
    """
    numbers = np.asarray(numbers)
    names = {3: ("n", "c", "w"), 4: ("n", "c", "h", "w"), 5: ("n", "c", "d", "h", "w")}
    if numbers.ndim not in names:
        raise PoolTutorError(f"numbers has shape {numbers.shape}: need (N, C, *spatial) with "
                             f"1 to 3 spatial axes")
    steps = {}
    origin = (0,) * numbers.ndim
    for axis, name in enumerate(names[numbers.ndim]):
        if numbers.shape[axis] < 2:
            continue
        one = tuple(1 if a == axis else 0 for a in range(numbers.ndim))
        step = int(numbers[one]) - int(numbers[origin])
        steps[name] = step if step > 0 else None
    return steps
