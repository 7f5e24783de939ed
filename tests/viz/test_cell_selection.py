"""Output-cell selection in the explorers, by state: the chooser's buttons, what choosing a
cell draws (window, winner), the explain text, the alt text, refused choices, and what a
parameter change keeps; the kernel-free forms' cell picker."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer, adaptive_bins_frames
from pooltutor.viz.cell_selection import (
    CHOSEN_COLOR,
    MAX_CELLS,
    CellChooser,
    OutputGrid,
    cell_picker_frames,
)
from pooltutor.viz.explorer import frames_widget
from pooltutor.viz.index_explorer import IndexLayoutExplorer, index_layout_frames
from pooltutor.viz.padding_explorer import PaddingModeExplorer
from pooltutor.viz.relu_explorer import ZeroPointReluExplorer
from pooltutor.viz.window_stepper import WindowStepper, window_stepper_frames

X = np.array([[1, 5, 2, 0, 3],
              [4, 0, 7, 1, 2],
              [3, 9, 1, 6, 0],
              [2, 2, 8, 4, 5],
              [0, 1, 3, 7, 2]], dtype=float)


def outlined_cells(patches) -> set:
    """(row, col) of the cells a list of outline Rectangles covers."""
    return {(round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2))
            for p in patches}


def expected_window(result, index) -> set:
    (rows, _), (cols, _) = result.geometry.window(index)
    return set(itertools.product(rows, cols))


def expected_winner(result, index) -> tuple:
    flat = int(result.indices[(0, 0) + tuple(index)])
    return tuple(int(v) for v in np.unravel_index(flat, result.input.shape[2:]))


def labels(chooser) -> list[str]:
    return [b.description for b in chooser.box.children]


# ------------------------------------------------------------------ the stepper


@pytest.fixture
def stepper():
    return WindowStepper(X, window=3, stride=2, padding=1, dpi=30)


def test_stepper_chooser_mirrors_the_output_grid(stepper):
    chooser = stepper.cell_chooser
    assert chooser.widget in stepper.widget.children
    assert chooser.widget is stepper.widget.children[
        stepper.widget.children.index(stepper.image) + 1]       # right under the picture
    assert chooser.grid.shape == stepper.output_shape == (3, 3)
    assert len(chooser.box.children) == 9
    assert chooser.box.layout.grid_template_columns == "repeat(3, max-content)"
    # position 0: only the first cell is computed; it is the chosen one, bracketed and bold
    assert labels(chooser)[0] == f"[{stepper.result.output[0, 0, 0, 0]:g}]"
    assert labels(chooser)[1:] == ["·"] * 8
    assert chooser.buttons[(0, 0)].style.font_weight == "bold"
    assert chooser.buttons[(0, 0)].style.button_color == CHOSEN_COLOR
    assert chooser.buttons[(0, 1)].style.button_color is None
    assert chooser.buttons[(0, 1)].tooltip == "output (0, 1): not computed yet"


def test_stepper_choosing_a_cell_draws_its_window_winner_and_explain(stepper):
    stepper.cell_chooser.press((1, 2))          # what a click, Enter or Space does
    result = stepper.result
    assert stepper.selected_cell == (1, 2) == stepper.out_index
    assert stepper.position.value == 5
    assert outlined_cells(stepper.plot.window) == expected_window(result, (1, 2))
    assert stepper.plot.winner_cell == expected_winner(result, (1, 2))
    assert stepper.plot.winner is not None
    assert stepper.explain_text == result.explain(0, 0, 1, 2)
    value = f"{result.output[0, 0, 1, 2]:g}"
    assert f"Chosen: output (1, 2) = {value}." in stepper.describe()
    assert "output (1, 2)" in stepper.alt_label.value
    assert stepper.cell_chooser.buttons[(1, 2)].description == f"[{value}]"
    assert stepper.cell_chooser.buttons[(1, 2)].tooltip == f"output (1, 2) = {value} (chosen)"
    assert stepper.cell_chooser.buttons[(0, 0)].description == \
        f"{result.output[0, 0, 0, 0]:g}"                      # computed, not chosen
    assert stepper.cell_chooser.buttons[(0, 0)].style.button_color is None
    assert stepper.cell_chooser.buttons[(0, 0)].style.font_weight == "normal"
    assert labels(stepper.cell_chooser)[6:] == ["·"] * 3
    # the picture changed with the choice
    before = stepper.png
    stepper.select_cell(2, 0)
    assert stepper.png != before and stepper.position.value == 6


def test_stepper_follows_its_own_position_controls(stepper):
    stepper.step(+1)
    assert stepper.selected_cell == (0, 1)
    assert stepper.cell_chooser.grid.selected == (0, 1)
    assert stepper.cell_chooser.buttons[(0, 1)].description.startswith("[")
    assert not stepper.cell_chooser.buttons[(0, 0)].description.startswith("[")


@pytest.mark.parametrize("index, error", [((3, 0), PoolTutorError), ((0, -1), PoolTutorError),
                                          ((1,), PoolTutorError), ((1, 2, 0), PoolTutorError),
                                          ((1.0, 2), PoolTutorTypeError),
                                          ((True, 0), PoolTutorTypeError)])
def test_stepper_refuses_a_cell_outside_the_grid(stepper, index, error):
    stepper.select_cell(1, 1)
    with pytest.raises(error, match=r"index="):
        stepper.select_cell(*index)
    assert stepper.selected_cell == (1, 1) and stepper.error is None


def test_stepper_selection_survives_a_parameter_change_clamped(stepper):
    stepper.select_cell(2, 2)
    stepper.stride.value = 3                   # 5+2 padded, window 3, stride 3: 2x2
    assert stepper.output_shape == (2, 2)
    assert stepper.selected_cell == (1, 1)
    assert len(stepper.cell_chooser.box.children) == 4
    assert stepper.explain_text == stepper.result.explain(0, 0, 1, 1)
    assert "Chosen: output (1, 1)" in stepper.describe()


def test_stepper_invalid_controls_disable_the_chooser_and_refuse(stepper):
    stepper.select_cell(1, 1)
    stepper.limits.value = "PyTorch"
    stepper.rounding.value = "ceil"            # PyTorch has no such ceil_mode
    assert stepper.error is not None
    assert all(b.disabled for b in stepper.cell_chooser.box.children)
    assert stepper.selected_cell is None
    with pytest.raises(PoolTutorError, match="no output grid is shown"):
        stepper.select_cell(0, 0)
    stepper.rounding.value = "floor"
    assert stepper.error is None
    assert not any(b.disabled for b in stepper.cell_chooser.box.children)
    assert stepper.selected_cell == (1, 1)


def test_stepper_1d_chooser_is_one_row():
    s = WindowStepper(np.arange(6.0), window=2, stride=2, dpi=30)
    assert s.cell_chooser.grid.shape == (3,)
    s.cell_chooser.press((2,))
    assert s.selected_cell == (2,)
    assert s.explain_text == s.result.explain(0, 0, 2)
    assert "Chosen: output 2 = 5." in s.describe()


def test_too_many_cells_show_a_note_not_buttons():
    chooser = CellChooser(lambda cell: None)
    side = int(np.sqrt(MAX_CELLS)) + 1
    chooser.show(OutputGrid.of_values(np.zeros((side, side))))
    assert chooser.box.children == () and "too many" in chooser.note.value


# ------------------------------------------------------------------ padding modes


@pytest.fixture
def padding():
    return PaddingModeExplorer(6, 3, 2, 3, 3, dpi=30)       # TensorRT Pooling Example 2


def test_padding_nothing_chosen_keeps_the_last_window(padding):
    mode = padding.explain_mode.value                    # EXPLICIT_ROUND_DOWN: O = 5
    assert padding.selected_cell is None
    assert labels(padding.cell_chooser) == ["0", "1", "2", "3", "4"]
    assert padding.plot.outlined[mode] == 4
    assert padding.explain_text == padding.plot.geometries[mode].explain()
    assert "Chosen" not in padding.describe()
    assert "none chosen" in padding.cell_chooser.heading.value


def test_padding_choosing_an_output_outlines_its_window(padding):
    mode = padding.explain_mode.value
    padding.cell_chooser.press((1,))
    geometry = padding.plot.geometries[mode]
    assert padding.selected_cell == (1,)
    assert padding.plot.outlined[mode] == 1
    assert padding.plot.last_windows[mode] == ((-1, "padding"), (0, "input"), (1, "input"))
    assert [t for t, _ in padding.plot.last_windows[mode]] == list(geometry.axis.taps(1))
    # the other rows keep their last window
    assert padding.plot.outlined["SAME_UPPER"] == padding.plot.geometries["SAME_UPPER"] \
        .output_size - 1
    assert padding.explain_text.startswith(geometry.explain())
    assert padding.explain_text.endswith(
        f"output 1 of {mode}: window start 1*S - B = 1*2 - 3 = -1, "
        f"taps -1 (padding), 0 (input), 1 (input)")
    assert f"Chosen: output 1 of {mode}: window from input -1 to 1." in padding.describe()
    assert f"{mode} outlines the window of output 1" in padding.describe()
    assert padding.cell_chooser.buttons[(1,)].description == "[1]"


def test_padding_choice_kept_while_valid_cleared_otherwise(padding):
    padding.select_cell(2)
    padding.post_padding.value = 2                      # O stays 5: kept
    assert padding.selected_cell == (2,)
    assert padding.plot.outlined[padding.explain_mode.value] == 2
    padding.input_size.value = 3                        # O = 3: position 2 is still there
    assert padding.selected_cell == (2,)
    padding.select_cell(2)
    padding.stride.value = 5                            # O = 2: cleared, last window again
    assert padding.selected_cell is None
    assert padding.plot.outlined[padding.explain_mode.value] == \
        padding.plot.geometries[padding.explain_mode.value].output_size - 1
    padding.select_cell(1)
    padding.explain_mode.value = "SAME_UPPER"           # another row of cells: cleared
    assert padding.selected_cell is None
    assert padding.cell_chooser.grid.title == "output position of SAME_UPPER"
    with pytest.raises(PoolTutorError, match=r"index=9 is not an output cell"):
        padding.select_cell(9)


def test_padding_rejected_mode_has_no_cells(padding):
    padding.pre_padding.value = 4                        # CAFFE_ROUND_UP rejects
    padding.explain_mode.value = "CAFFE_ROUND_UP"
    assert padding.cell_chooser.grid is None and padding.cell_chooser.box.children == ()
    with pytest.raises(PoolTutorError, match="no output grid"):
        padding.select_cell(0)


def test_plot_padding_modes_outline_is_checked():
    from pooltutor.viz.padding_modes import plot_padding_modes

    with pytest.raises(PoolTutorError, match=r"outline\['floor'\]=5 is not an output position"):
        plot_padding_modes(6, 3, 2, 1, 1, modes=("floor",), outline={"floor": 5})
    with pytest.raises(PoolTutorError, match="outline names 'ceil'"):
        plot_padding_modes(6, 3, 2, 1, 1, modes=("floor",), outline={"ceil": 0})
    with pytest.raises(PoolTutorTypeError, match="outline="):
        plot_padding_modes(6, 3, 2, 1, 1, modes=("floor",), outline=[0])


# ------------------------------------------------------------------ index, adaptive, relu


def test_index_explorer_choose_a_cell():
    e = IndexLayoutExplorer(X[None, None], kernel=2, stride=2, dpi=30)
    assert e.cell_chooser.grid.shape == (2, 2)
    e.cell_chooser.press((1, 0))
    result = e.plot.result
    assert e.state["out_index"] == (0, 0, 1, 0)
    assert e.explain_text.startswith(result.explain(0, 0, 1, 0))
    assert set(map(tuple, e.state["window"])) >= {(2, 0), (3, 1)}
    assert e.state["position"][2:] == expected_winner(result, (1, 0))
    assert "Chosen: output (1, 0) = 9." in e.describe()
    e.kernel.value = 5                                   # 1x1 output: clamped to (0, 0)
    assert e.selected_cell == (0, 0) and len(e.cell_chooser.box.children) == 1


def test_adaptive_explorer_choose_a_cell():
    e = AdaptiveBinsExplorer(input_size=7, output_size=4, dpi=30)      # TV25
    e.cell_chooser.press((2,))
    assert e.state["bin"] == ((3, 6),) and e.state["winner"] == (5,)
    assert e.explain_text.startswith(e._pooled.explain(0, 0, 2))
    assert "Chosen: output 2 = 9." in e.describe()
    e.out_size[1].value = 2                              # clamped to the last cell
    assert e.selected_cell == (1,) and labels(e.cell_chooser) == ["4", "[9]"]


def test_relu_explorer_choose_a_pooled_cell():
    e = ZeroPointReluExplorer(dpi=30)
    e.kernel.value = 1
    e.stride.value = 1
    assert e.cell_chooser.grid.shape == (2, 2)
    e.cell_chooser.press((1, 0))
    assert e.state["out_index"] == (1, 0)
    assert e.explain_text.startswith(e.chain.explain(1, 0))
    assert "Chosen: pooled (1, 0)" in e.describe()


# ------------------------------------------------------------------ kernel-free forms


def test_stepper_frames_have_a_cell_picker_linked_to_the_slider():
    fw = window_stepper_frames(np.arange(9.0).reshape(3, 3), window=2, stride=1)
    assert fw.picker is not None
    assert fw.picker.options == ("(0, 0): 4", "(0, 1): 5", "(1, 0): 7", "(1, 1): 8")
    assert tuple(fw.picker.tooltips) == ("output (0, 0)", "output (0, 1)", "output (1, 0)",
                                         "output (1, 1)")
    assert len(fw.picker.options) == len(fw.stack.children)
    link = fw.links[-1]
    assert (link.source[0], link.source[1]) == (fw.picker, "index")
    assert (link.target[0], link.target[1]) == (fw.slider, "value")
    assert fw.picker in fw.widget.children and fw.stack in fw.widget.children[-1].children
    # frame k is the frame of the cell of button k
    assert fw.labels[2].startswith("output[0, 0, 1, 0] = 7.0")


def test_index_and_adaptive_frames_have_a_cell_picker():
    fw = index_layout_frames(kernel=2, stride=1, max_frames=3, dpi=30)
    assert fw.picker.options == ("(0, 0, 0, 0)", "(0, 0, 0, 1)", "(0, 1, 0, 0)")
    fa = adaptive_bins_frames(np.array([3.0, 1, 4, 1, 5]), output_size=3, dpi=30)
    assert fa.picker.options == ("0", "1", "2") and fa.picker.index == 0


def test_cell_picker_frames_refuses_a_wrong_count():
    fw = frames_widget([b"a", b"b"])
    with pytest.raises(PoolTutorError, match="cells has 1 entries: need one per frame"):
        cell_picker_frames(fw, [(0,)])
    with pytest.raises(PoolTutorError, match="grid_labels has 1 entries"):
        cell_picker_frames(fw, [(0,), (1,)], ["x"])
