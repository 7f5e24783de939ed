"""pooltutor.directml: the DirectML struct model (seed 002's size and offset table)."""

from __future__ import annotations

import pytest

from pooltutor import PoolTutorError, PoolTutorTypeError
from pooltutor.directml import dml_max_pooling2_layout


# --------------------------------------------------------------------------- DirectML struct


def test_dml_layout_sizes_and_offsets_follow_pointer_width():
    x64, x86 = dml_max_pooling2_layout(64), dml_max_pooling2_layout(32)
    assert (x64.size, x86.size) == (72, 36)
    assert [f.size for f in x64.fields] == [8, 8, 8, 4, 8, 8, 8, 8, 8]
    assert [f.size for f in x86.fields] == [4] * 9
    # 4 bytes of alignment padding after DimensionCount on x64 only
    assert x64.offsets()["Strides"] - x64.offsets()["DimensionCount"] == 8
    assert x86.offsets()["Strides"] - x86.offsets()["DimensionCount"] == 4
    assert "72 bytes" in x64.table() and "offset +64" in x64.table()


@pytest.mark.parametrize(
    ("bits", "error"),
    [(48, PoolTutorError), ("64", PoolTutorTypeError), (True, PoolTutorTypeError)],
)
def test_dml_layout_rejects_other_pointer_widths(bits, error):
    with pytest.raises(error, match="pointer_bits="):
        dml_max_pooling2_layout(bits)
