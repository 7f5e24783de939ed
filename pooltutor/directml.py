"""DirectML's ``DML_MAX_POOLING2_OPERATOR_DESC``: the C struct's size and field offsets.

Seed 002 gives a table of the struct's size and field offsets; this module
models the struct with :mod:`ctypes` on a 64-bit and on a 32-bit layout (a
pointer as an unsigned integer of the pointer width), so that both can be
checked on any machine.

>>> dml_max_pooling2_layout(64).size, dml_max_pooling2_layout(32).size
(72, 36)
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from .errors import PoolTutorError, check_int

__all__ = ["DML_MAX_POOLING2_FIELDS", "StructField", "StructLayout", "dml_max_pooling2_layout"]


@dataclass(frozen=True)
class StructField:
    """One field of a C struct: name, C type, size and byte offset."""

    name: str
    c_type: str
    size: int
    offset: int


@dataclass(frozen=True)
class StructLayout:
    """The memory layout of a C struct as :mod:`ctypes` computes it for one pointer width."""

    name: str
    pointer_bits: int
    size: int
    fields: tuple[StructField, ...]

    def offsets(self) -> dict[str, int]:
        """``{field name: byte offset}``."""
        return {f.name: f.offset for f in self.fields}

    def table(self) -> str:
        """The layout as an aligned text table (field, C type, size, offset)."""
        width = max(len(f.name) for f in self.fields)
        ctype = max(len(f.c_type) for f in self.fields)
        lines = [f"{self.name}, {self.pointer_bits}-bit layout: {self.size} bytes"]
        for f in self.fields:
            lines.append(
                f"  {f.name:<{width}}  {f.c_type:<{ctype}}  size {f.size}  offset +{f.offset}"
            )
        return "\n".join(lines)


#: ``DML_MAX_POOLING2_OPERATOR_DESC`` as declared in ``DirectML.h`` (and seed 002).
DML_MAX_POOLING2_FIELDS: tuple[tuple[str, str], ...] = (
    ("InputTensor", "const DML_TENSOR_DESC*"),
    ("OutputTensor", "const DML_TENSOR_DESC*"),
    ("OutputIndicesTensor", "const DML_TENSOR_DESC*"),
    ("DimensionCount", "UINT"),
    ("Strides", "const UINT*"),
    ("WindowSize", "const UINT*"),
    ("StartPadding", "const UINT*"),
    ("EndPadding", "const UINT*"),
    ("Dilations", "const UINT*"),
)


def dml_max_pooling2_layout(pointer_bits: int = 64) -> StructLayout:
    """Size and field offsets of DirectML's ``DML_MAX_POOLING2_OPERATOR_DESC``.

    :mod:`ctypes` lays the struct out with the host's C alignment rules; a
    pointer is modelled as an unsigned integer of ``pointer_bits`` bits
    (``c_uint64`` for x64, ``c_uint32`` for x86) and ``UINT`` as ``c_uint32``,
    so both layouts can be computed on any machine.

    >>> print(dml_max_pooling2_layout(64).table())
    DML_MAX_POOLING2_OPERATOR_DESC, 64-bit layout: 72 bytes
      InputTensor          const DML_TENSOR_DESC*  size 8  offset +0
      OutputTensor         const DML_TENSOR_DESC*  size 8  offset +8
      OutputIndicesTensor  const DML_TENSOR_DESC*  size 8  offset +16
      DimensionCount       UINT                    size 4  offset +24
      Strides              const UINT*             size 8  offset +32
      WindowSize           const UINT*             size 8  offset +40
      StartPadding         const UINT*             size 8  offset +48
      EndPadding           const UINT*             size 8  offset +56
      Dilations            const UINT*             size 8  offset +64
    >>> dml_max_pooling2_layout(32).size
    36
    """
    pointer_bits = check_int("pointer_bits", pointer_bits)
    if pointer_bits not in (32, 64):
        raise PoolTutorError(
            f"pointer_bits={pointer_bits} is not allowed: need 32 (x86) or 64 (x64)"
        )
    pointer = ctypes.c_uint64 if pointer_bits == 64 else ctypes.c_uint32
    fields = [
        (name, pointer if c_type.endswith("*") else ctypes.c_uint32)
        for name, c_type in DML_MAX_POOLING2_FIELDS
    ]
    struct = type("DML_MAX_POOLING2_OPERATOR_DESC", (ctypes.Structure,), {"_fields_": fields})
    out = tuple(
        StructField(name, c_type, getattr(struct, name).size, getattr(struct, name).offset)
        for name, c_type in DML_MAX_POOLING2_FIELDS
    )
    return StructLayout("DML_MAX_POOLING2_OPERATOR_DESC", pointer_bits, ctypes.sizeof(struct), out)
