"""pooltutor: the arithmetic of pooling layers, exactly as each framework does it.

The arithmetic core imports numpy alone:

* :mod:`pooltutor.geometry`  output sizes, padding, window starts (shapes only)
* :mod:`pooltutor.pooling`   the vectorised max / average / adaptive engine
* :mod:`pooltutor.reference` the loop-based oracle, written to be read
* :mod:`pooltutor.threads`   how many threads the engine's large box passes use
* :mod:`pooltutor.indexing`  index layouts and :func:`convert_indices`
* :mod:`pooltutor.tensorrt` TensorRT's ``PaddingMode`` arithmetic, :func:`output_geometry`
* :mod:`pooltutor.frameworks` one thin function per framework operator
* :mod:`pooltutor.quant`     the quantized stage chain
* :mod:`pooltutor.model_audit` model audit: ``pooltutor.audit(model)`` (needs ``onnx``)

Plots and widgets live in :mod:`pooltutor.viz` (matplotlib / ipywidgets) and
are imported only when asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._version import __version__
from .errors import PoolTutorError, PoolTutorTypeError
from .geometry import adaptive_geometry, fixed_pool_contrast, pool_geometry

# Public names that live in modules imported on first use, so that
# ``import pooltutor`` stays cheap and numpy-only.
_LAZY = {
    "max_pool": "pooling",
    "avg_pool": "pooling",
    "adaptive_max_pool": "pooling",
    "adaptive_avg_pool": "pooling",
    "PoolResult": "pooling",
    "max_unpool": "unpool",
    "max_pool_backward": "unpool",
    "convert_indices": "indexing",
    "INDEX_LAYOUTS": "indexing",
    "layout_numbers": "indexing",
    "winner_numbers": "indexing",
    "compare_ceil_modes": "comparison",
    "RuntimeTable": "comparison",
    "dml_max_pooling2_layout": "directml",
    "output_geometry": "tensorrt",
    "PaddingMode": "tensorrt",
    "mode_geometry": "tensorrt",
    "ModeGeometry": "tensorrt",
    "frameworks": None,
    "quant": None,
    "audit": "model_audit",
    "AuditReport": "model_audit",
    "model_audit": None,
    "reference": None,
    "unpool": None,
    "exercises": None,
    "check_max_pool": "exercises",
    "pooling": None,
    "indexing": None,
    "tensorrt": None,
    "geometry": None,
    "comparison": None,
    "directml": None,
    "viz": None,
    "threads": None,
    "set_num_threads": "threads",
}

__all__ = [
    "__version__",
    "PoolTutorError",
    "PoolTutorTypeError",
    "pool_geometry",
    "adaptive_geometry",
    "fixed_pool_contrast",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = _LAZY[name]
        if module is None:
            return importlib.import_module(f"{__name__}.{name}")
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    raise AttributeError(f"module 'pooltutor' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
