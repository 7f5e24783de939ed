"""The fast update paths of the WindowStepper and the PaddingModeExplorer draw the same picture.

A parameter change redraws only what changed (the stepper keeps its input panel and legend
and blits the output panel over them; the padding explorer keeps the cells of the rows that
did not change), so after any sequence of control changes -- invalid combinations (the
error label) and changes that must redraw everything in between -- the PNG must be, pixel
for pixel, the PNG of a fresh explorer created with the same control values.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from pooltutor.viz.padding_explorer import PaddingModeExplorer
from pooltutor.viz.window_stepper import WindowStepper


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGB"))


def _same_picture(a: bytes, b: bytes, what) -> None:
    pa, pb = _pixels(a), _pixels(b)
    assert pa.shape == pb.shape, what
    differ = np.any(pa != pb, axis=-1)
    assert not differ.any(), (what, int(differ.sum()), np.argwhere(differ)[:5].tolist())


# ----------------------------------------------------------------------------- WindowStepper

STEPPER_CONTROLS = ("window", "stride", "dilation", "pad_before", "pad_after", "rounding",
                    "pad_taps", "op", "limits")


def _fresh_stepper(s: WindowStepper) -> WindowStepper:
    kw = {name: getattr(s, name).value for name in STEPPER_CONTROLS
          if name not in ("pad_before", "pad_after")}
    fresh = WindowStepper(s.x, size=s.size.value, padding=(s.pad_before.value,
                                                           s.pad_after.value),
                          ndim=s.ndim, seed=s.seed, dpi=s.figure.dpi, **kw)
    fresh.position.value = s.position.value
    assert fresh.error is None and fresh.out_index == s.out_index
    return fresh


def _drive(s: WindowStepper, steps) -> None:
    """Apply ``(control, value[, mark])`` steps: after ``"check"`` the PNG must be a fresh
    stepper's; ``"error"`` must be refused (the reason shown, the last good PNG greyed)."""
    for name, value, *mark in steps:
        getattr(s, name).value = value
        assert (s.error is not None) == (mark == ["error"]), (name, value, s.error)
        if s.error is not None:
            assert s.error_label.value and bytes(s.image.value) != s.png, (name, value)
            continue
        assert bytes(s.image.value) == s.png
        if mark == ["check"]:
            _same_picture(s.png, _fresh_stepper(s).png, (name, value))


def test_stepper_stride_change_keeps_the_input_panel_and_draws_the_same_picture():
    s = WindowStepper(size=16, window=3, stride=2, padding=1)      # the benchmark's stepper
    s.position.value = 5
    static = s._static_background
    for stride in (1, 3):
        s.stride.value = stride
        assert s.error is None
        assert s._static_background is static           # input panel and legend kept
        _same_picture(s.png, _fresh_stepper(s).png, ("stride", stride))
    output = s._output_background
    s.position.value = s.position.max                   # a step only moves the overlays
    assert s._output_background is output
    _same_picture(s.png, _fresh_stepper(s).png, "last position")


@pytest.mark.parametrize("ndim", [2, 1])
def test_stepper_sequences_with_errors_and_full_redraws_draw_the_same_picture(ndim):
    s = WindowStepper(size=6, window=2, stride=2, padding=1, ndim=ndim, dpi=30)
    _drive(s, [
        ("stride", 1), ("position", 4, "check"),
        ("dilation", 3), ("window", 3, "check"),        # dilated window 7 of the padded 8
        ("stride", 2, "check"),                         # output of one cell
        ("window", 4, "error"),                         # 10 > 8: does not fit
        ("stride", 3, "error"),                         # still invalid
        ("window", 2, "check"),                         # valid again
        ("size", 9),                                    # a new input: full redraw
        ("rounding", "ceil_torch", "check"),            # a dropped window, legend changes
        ("stride", 4, "check"),
        ("op", "avg"),                                  # no winner in the legend
        ("limits", "PyTorch"),                          # pad 1 <= kernel 2 // 2: allowed
        ("pad_after", 0, "error"),                      # PyTorch pads symmetrically
        ("limits", "none", "check"), ("pad_before", 3),  # input panel changes
        ("stride", 1, "check"),
    ])


def test_stepper_given_input_with_nan_and_inf():
    x = np.array([[3.0, -np.inf, 1.0, 0.5], [np.nan, 2.0, 7.0, -1.0], [4.0, 4.0, 0.0, 9.0]])
    s = WindowStepper(x, window=2, stride=1, padding=1, dpi=30)
    _drive(s, [("stride", 2), ("position", 3, "check"), ("pad_taps", "lowest"),
               ("op", "avg"), ("stride", 1, "check")])


def test_window_taps_drawn_as_one_collection_are_the_rectangles_pixels():
    from pooltutor.viz.window_stepper import draw_layer

    s = WindowStepper(size=5, window=3, stride=2, dilation=2, padding=1, rounding="ceil_torch",
                      dpi=40)                    # dashed taps past the input, a dropped window
    s.position.value = s.position.max
    canvas = s.figure.canvas
    layer = s._layers()[1]
    pictures = []
    for draw in (lambda r: [a.draw(r) for a in layer], lambda r: draw_layer(layer, r)):
        canvas.restore_region(s._output_background)
        draw(canvas.get_renderer())
        pictures.append(np.asarray(canvas.buffer_rgba()).copy())
    assert (pictures[0] == pictures[1]).all()
    assert sum(a.get_gid() in ("window", "dropped") for a in layer) >= 6
