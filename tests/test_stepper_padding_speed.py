"""The fast update paths of the PaddingModeExplorer draw the same picture (the WindowStepper's
are tested by state in tests/viz/test_window_stepper.py).

A parameter change redraws only what changed (the padding explorer keeps the cells of the
rows that did not change), so after any sequence of control changes -- invalid combinations (the
error label) and changes that must redraw everything in between -- the PNG must be, pixel
for pixel, the PNG of a fresh explorer created with the same control values.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from pooltutor.viz.padding_explorer import PaddingModeExplorer


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGB"))


def _same_picture(a: bytes, b: bytes, what) -> None:
    pa, pb = _pixels(a), _pixels(b)
    assert pa.shape == pb.shape, what
    differ = np.any(pa != pb, axis=-1)
    assert not differ.any(), (what, int(differ.sum()), np.argwhere(differ)[:5].tolist())


# ----------------------------------------------------------------------------- PaddingModeExplorer

PADDING_CONTROLS = ("input_size", "window", "stride", "dilation", "pre_padding", "post_padding")


def _fresh_padding(e: PaddingModeExplorer) -> PaddingModeExplorer:
    values = {name: getattr(e, name).value for name in PADDING_CONTROLS}
    fresh = PaddingModeExplorer(mode_set=e.mode_set.value, dpi=e.figure.dpi, **values)
    assert fresh.error is None
    return fresh


def _drive_padding(e: PaddingModeExplorer, steps) -> None:
    """:func:`_drive` for the padding explorer (every step checked)."""
    for name, value in steps:
        if name == "input_size":
            e.input_size.max = max(e.input_size.max, value)
        getattr(e, name).value = value
        if e.error is not None:                      # the last good picture, greyed
            assert e.error_label.value and bytes(e.image.value) != e.png, (name, value)
            continue
        assert bytes(e.image.value) == e.png
        _same_picture(e.png, _fresh_padding(e).png, (name, value))


def test_padding_stride_change_keeps_the_input_cells_and_draws_the_same_picture():
    e = PaddingModeExplorer(input_size=16, window=3, stride=2, pre_padding=1, post_padding=1)
    static = e._static_background
    for stride in (1, 3):                               # the benchmark's explorer
        e.stride.value = stride
        assert e._static_background is static           # the input cells were not redrawn
        _same_picture(e.png, _fresh_padding(e).png, ("stride", stride))


def test_padding_sequences_with_rejections_and_full_redraws_draw_the_same_picture():
    e = PaddingModeExplorer(input_size=6, window=3, stride=2, pre_padding=3, post_padding=2,
                            dpi=30)
    _drive_padding(e, [
        ("stride", 1),
        ("pre_padding", 4),                 # CAFFE_ROUND_UP rejects: a reason row, new layout
        ("stride", 2),
        ("pre_padding", 1),                 # accepted again
        ("dilation", 2),                    # window taps drawn as squares
        ("window", 7),                      # the padded input is too short: rows reject
        ("input_size", 3000),               # rows too long to draw: the error label
        ("stride", 1),                      # still too long
        ("input_size", 9),                  # a new input: everything redrawn
        ("mode_set", "engine rules"), ("stride", 4),
        ("mode_set", "ceil mode across frameworks"), ("window", 2),
    ])
