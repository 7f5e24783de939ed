"""WindowStepper (pooltutor.viz.window_stepper), tested by state: the cells, window
outline, winner mark, output cells filled in so far, labels and titles after
sequences of steps, parameter changes and refused values; a picture regression
against a baseline in tests/viz/baseline/ (compare_images at a tolerance).
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import numpy as np
import pytest
from figure_checks import assert_texts_inside

from pooltutor.errors import PoolTutorError
from pooltutor.geometry import pool_geometry
from pooltutor.viz import style
from pooltutor.viz.window_stepper import WindowStepper, demo_input, window_stepper_frames

BASELINE = Path(__file__).parent / "baseline"


def _centres(patches):
    """``(row, col)`` of unit-square patches."""
    return sorted((round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2))
                  for p in patches)


def _texts(ax, gid):
    return [t.get_text() for t in style.texts_of(ax, gid)]


def _png_ok(data) -> bool:
    return bytes(data[:8]) == b"\x89PNG\r\n\x1a\n"


def test_window_stepper_wiring():
    s = WindowStepper(np.arange(16.0).reshape(4, 4), window=2, stride=2, padding=1,
                      rounding="ceil_torch")
    assert s.output_shape == (3, 3) and s.position.max == 8 == s.play.max
    s.position.value = 5
    assert s.out_index == (1, 2) and s.state["value"] == 11.0 and s.state["winner"] == (2, 3)
    assert s.explain_text == s.result.explain(1, 2)
    assert "output[0, 0, 1, 2] = 11.0" in s.explain_box.value
    assert _centres(s.plot.window) == [(1, 3), (1, 4), (2, 3), (2, 4)]
    s.next_button.click()
    assert s.out_index == (2, 0)
    s.prev_button.click()
    s.prev_button.click()
    assert s.out_index == (1, 1)
    s.position.value = 8
    s.next_button.click()                                    # clamped at the last position
    assert s.out_index == (2, 2)
    # a parameter change redraws; the output cell is kept where it still exists
    s.stride.value = 1
    assert s.output_shape == (5, 5) and s.position.max == 24 and s.out_index == (2, 2)
    assert s.state["params"]["stride"] == 1
    assert s.plot.figure is s.figure and _png_ok(s.image.value)


def test_window_stepper_invalid_combinations_show_reasons():
    s = WindowStepper(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    good = bytes(s.image.value)
    s.dilation.value = 3                                     # dilated window 4 > 3
    assert "does not fit" in s.error and "does not fit" in s.error_label.value
    assert bytes(s.image.value) != good and s.output_shape == (2, 2)    # old picture, greyed
    s.position.value = 1                                     # still invalid, still no raise
    assert s.error is not None
    s.dilation.value = 1
    assert s.error is None
    s.limits.value = "PyTorch"
    s.pad_before.value = 2
    assert "symmetric" in s.error
    s.pad_after.value = 2
    assert "at most half of kernel size (PyTorch)" in s.error
    s.window.value = 4
    assert s.error is None and s.output_shape == (4, 4)      # (3 + 2 + 2 - 4) / 1 + 1
    s.rounding.value = "ceil"
    assert "has no PyTorch ceil_mode" in s.error


def _expected_stepper_error(size, k, st, d, pb, pe, rounding, limits, op="max"):
    if limits == "PyTorch" and (pb != pe or pb > k // 2 or rounding not in ("floor",
                                                                            "ceil_torch")
                                or (op == "avg" and d != 1)):
        return "PyTorch"
    try:
        pool_geometry((size,), k, st, [(pb, pe)], d, rounding)
    except PoolTutorError:
        return "does not fit"
    return None


def test_window_stepper_sweep_never_raises():
    """A small grid of every control, sampled: nothing escapes; every refusal is explained."""
    s = WindowStepper(ndim=1, size=3)
    s.render = lambda: b""                    # the sweep checks logic; rendering is tested above
    values = dict(size=(1, 2, 4), window=(1, 2, 3), stride=(1, 2, 3), dilation=(1, 2),
                  pad_before=(0, 1, 3), pad_after=(0, 2), rounding=tuple(s.rounding.options),
                  pad_taps=tuple(s.pad_taps.options), op=("max", "avg"),
                  limits=tuple(s.limits.options))
    names = list(values)
    combos = list(itertools.product(*values.values()))
    rng = np.random.default_rng(6)
    picked = [combos[i] for i in rng.choice(len(combos), size=60, replace=False)]
    for combo in picked:
        s._syncing = True
        for name, v in zip(names, combo, strict=True):
            getattr(s, name).value = v
        s._syncing = False
        s.safe_update()
        p = dict(zip(names, combo, strict=True))
        expected = _expected_stepper_error(p["size"], p["window"], p["stride"], p["dilation"],
                                           p["pad_before"], p["pad_after"], p["rounding"],
                                           p["limits"], p["op"])
        if expected is None:
            assert s.error is None, (p, s.error)
            g = pool_geometry((p["size"],), p["window"], p["stride"],
                              [(p["pad_before"], p["pad_after"])], p["dilation"], p["rounding"])
            assert s.output_shape == g.output_shape and s.position.max == g.output_shape[0] - 1
            assert s.explain_text.startswith("output[0, 0,")
        else:
            assert s.error is not None and (expected in s.error or "PyTorch" in s.error), p
            assert not s.error.startswith("internal error"), s.error
        # stepping through every position of a valid picture raises nothing either
        if s.error is None:
            for position in sorted({s.position.max, s.position.max // 2, 0}):
                s.position.value = position
                assert s.error is None and s.out_index == (position,)


def test_window_stepper_kernel_free_frames():
    fw = window_stepper_frames(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    assert len(fw.stack.children) == 4 and fw.slider.max == 3
    assert all(_png_ok(img.value) for img in fw.stack.children)
    assert fw.labels[3].startswith("output[0, 0, 1, 1] = 8.0")
    s = WindowStepper(np.arange(5.0), window=2, stride=2, padding=1, rounding="ceil_torch")
    s.position.value = 1
    fw = s.static_widget()
    assert len(fw.labels) == 3 and s.position.value == 1    # the live stepper is put back
    assert demo_input((2, 3)).tolist() == [[8.0, 6.0, 5.0], [2.0, 3.0, 0.0]]
    with pytest.raises(PoolTutorError, match="need 1 or 2"):
        WindowStepper(ndim=3)
    with pytest.raises(PoolTutorError, match="rounding='round'"):
        WindowStepper(rounding="round")


# ----------------------------------------------------------------------------- by state


def _output_texts(s):
    return _texts(s.plot.output_ax, "value")


def test_output_fills_in_cell_by_cell_with_the_current_cell_outlined():
    s = WindowStepper(np.arange(16.0).reshape(4, 4), window=2, stride=2, padding=1,
                      rounding="ceil_torch")
    every = ["0", "2", "3", "8", "10", "11", "12", "14", "15"]
    for position in [0, 1, 2, 5, 8, 3, 4]:
        s.position.value = position
        index = divmod(position, 3)
        assert _output_texts(s) == every[:position + 1], position
        assert _centres([s.plot.output_cell]) == [index]
        assert s.state["computed"] == position + 1
        assert f"y[{index[0]}, {index[1]}] = {every[position]}" in s.plot.output_ax.get_title()
        assert np.isnan(s.plot.output_values.ravel()[position + 1:]).all()
    # window outline and winner mark of position 4 (output (1, 1))
    assert _centres(s.plot.window) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert s.plot.winner_cell == (2, 2) and s.plot.winner.get_gid() == "winner"
    assert len([p for p in s.plot.input_ax.patches if p.get_gid() == "winner"]) == 1


def test_parameter_changes_and_refusals_keep_a_consistent_picture():
    s = WindowStepper(np.arange(16.0).reshape(4, 4), window=2, stride=2, padding=1,
                      rounding="ceil_torch")
    s.position.value = 4
    title = s.plot.title.get_text()
    s.stride.value = 1                       # 5x5 output, the cell (1, 1) kept: position 6
    assert s.output_shape == (5, 5) and s.out_index == (1, 1) and s.state["computed"] == 7
    assert len(_output_texts(s)) == 7 and s.plot.title.get_text() != title
    assert "stride=1" in s.plot.title.get_text()
    s.dilation.value = 3                     # window 2, dilated: 4 taps wide
    good_state, good_plot = s.state, s.plot
    assert s.error is None and s.output_shape == (3, 3)
    s.window.value = 3                       # dilated window 7 > padded input 6: refused
    assert "does not fit" in s.error and s.state is good_state and s.plot is good_plot
    s.position.value = 2                     # still refused: no step drawn
    assert s.error is not None and s.plot is good_plot
    s.dilation.value = 1
    assert s.error is None and s.output_shape == (4, 4)
    assert s.state["computed"] == s.position.value + 1 == len(_output_texts(s))
    s.op.value = "avg"
    assert s.plot.winner is None and s.state["winner"] is None
    assert "divisor='valid'" in s.plot.input_ax.get_title()
    s.pad_taps.value = "neg_inf"             # avg ignores pad_taps; max shows it
    s.op.value = "max"
    assert set(_texts(s.plot.input_ax, "padding-text")) == {"-inf"}


def test_pytorch_limits_are_checked_by_the_framework_functions():
    s = WindowStepper(np.arange(9.0).reshape(3, 3), window=2, stride=1, limits="PyTorch")
    assert s.error is None
    s.dilation.value = 2
    s.op.value = "avg"
    assert "avg_pool has no dilation" in s.error
    s.op.value = "max"
    s.dilation.value = 1
    assert s.error is None
    s.pad_before.value = 1
    assert "PyTorch padding is symmetric" in s.error
    s.pad_after.value = 1
    assert s.error is None and s.output_shape == (4, 4)
    s.rounding.value = "ceil"
    assert "rounding='ceil' has no PyTorch ceil_mode" in s.error
    s.limits.value = "none"
    assert s.error is None


def _png_file(png, path):
    path.write_bytes(bytes(png))
    return str(path)


def test_blitted_position_steps_show_what_a_fresh_stepper_draws(tmp_path):
    from matplotlib.testing.compare import compare_images

    s = WindowStepper(size=6, window=3, stride=2, padding=1, rounding="ceil_torch", dpi=60)
    for position in (1, 2, 5, 3):
        s.position.value = position
    s.stride.value = 1
    for position in (7, 8):
        s.position.value = position
    fresh = WindowStepper(size=6, window=3, stride=1, padding=1, rounding="ceil_torch", dpi=60)
    fresh.position.value = 8
    assert compare_images(_png_file(fresh.png, tmp_path / "fresh.png"),
                          _png_file(s.png, tmp_path / "stepped.png"), tol=1) is None


def test_stepper_picture_is_whole_as_jupyter_saves_it():
    for kwargs in (dict(size=5, window=2, stride=2, padding=1, rounding="ceil_torch"),
                   dict(size=12, window=3, stride=1, padding=(2, 0)),
                   dict(ndim=1, size=7, window=3, stride=2, padding=2, rounding="ceil")):
        s = WindowStepper(**kwargs)
        assert s.error is None, kwargs
        s.position.value = s.position.max // 2
        assert_texts_inside(s.figure)


def test_kernel_free_frames_fill_in_the_output():
    s = WindowStepper(np.arange(9.0).reshape(3, 3), window=2, stride=1, dpi=40)
    fw = s.static_widget()
    assert len(fw.stack.children) == 4
    assert len({bytes(img.value) for img in fw.stack.children}) == 4     # every frame differs
    assert _output_texts(s) == ["4"]         # put back at position 0: one cell filled in


@pytest.mark.picture
def test_picture_regression_stepper(tmp_path):
    from matplotlib.testing.compare import compare_images

    s = WindowStepper(size=5, window=2, stride=2, padding=1, rounding="ceil_torch", dpi=60)
    s.position.value = 4
    out = tmp_path / "stepper.png"
    s.figure.savefig(out, dpi=60, bbox_inches="tight")
    baseline = BASELINE / "window_stepper_ceil_torch.png"
    assert baseline.exists(), f"make {baseline} (look at it first)"
    assert compare_images(str(baseline), str(out), tol=3) is None


def test_given_input_with_nan_and_inf_steps_and_fills_in(tmp_path):
    from matplotlib.testing.compare import compare_images

    x = np.array([[3.0, -np.inf, 1.0, 0.5], [np.nan, 2.0, 7.0, -1.0], [4.0, 4.0, 0.0, 9.0]])
    s = WindowStepper(x, window=2, stride=1, padding=1, dpi=40)
    s.stride.value = 2
    s.position.value = 3
    assert s.error is None and "NaN" in _texts(s.plot.input_ax, "value")
    assert "-inf" in _texts(s.plot.input_ax, "value")
    s.pad_taps.value = "lowest"
    s.op.value = "avg"
    s.stride.value = 1
    assert s.error is None and s.state["computed"] == s.position.value + 1
    fresh = WindowStepper(x, window=2, stride=1, padding=1, dpi=40, op="avg", pad_taps="lowest")
    fresh.position.value = s.position.value
    assert compare_images(_png_file(fresh.png, tmp_path / "a.png"),
                          _png_file(s.png, tmp_path / "b.png"), tol=1) is None
