"""The explorer base (pooltutor.viz.explorer): the guard, the PNG helpers, the frames widget."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from pooltutor.errors import PoolTutorError
from pooltutor.viz.explorer import Explorer, canvas_png, figure_png, frames_widget, new_figure


def _png_ok(data) -> bool:
    return bytes(data[:8]) == b"\x89PNG\r\n\x1a\n"


class _Toy(Explorer):
    def __init__(self):
        import ipywidgets as widgets

        self.n = widgets.IntSlider(value=1, min=-5, max=5)
        super().__init__(controls=[[self.n]], figsize=(2, 2), dpi=40)
        self.watch(self.n)
        self.safe_update()

    def draw(self):
        if self.n.value == -1:
            raise PoolTutorError("n=-1 is not allowed")
        if self.n.value == -2:
            raise KeyError("boom")
        if self.n.value == -3:
            warnings.warn("careful", UserWarning, stacklevel=2)
        self.figure.clear()
        self.figure.add_subplot().set_title(str(self.n.value))
        return {"n": self.n.value}


def test_explorer_guard_shows_reasons_and_greys_the_picture():
    e = _Toy()
    good = bytes(e.image.value)
    assert _png_ok(good) and e.error is None and e.state == {"n": 1}
    e.n.value = -1
    assert e.error == "n=-1 is not allowed" and "n=-1 is not allowed" in e.error_label.value
    assert _png_ok(e.image.value) and bytes(e.image.value) != good     # greyed
    assert e.state == {"n": 1}
    e.n.value = -2
    assert e.error.startswith("internal error KeyError") and "please report" in e.error
    e.n.value = -3
    assert e.error is None and "careful" in e.note_label.value and e.warnings == ["careful"]
    e.n.value = 2
    assert e.note_label.value == "" and e.error_label.value == ""
    assert "application/vnd.jupyter.widget-view+json" in e._repr_mimebundle_()


def test_png_helpers_and_frames_widget():
    import io

    from PIL import Image

    fig = new_figure((1, 0.5), dpi=20)
    fig.patch.set_facecolor("#ff0000")
    png = figure_png(fig)
    img = np.asarray(Image.open(io.BytesIO(png)))
    assert img.shape == (10, 20, 3) and (img == [255, 0, 0]).all()
    fig.patch.set_facecolor("#010203")
    fig.canvas.draw()
    img = np.asarray(Image.open(io.BytesIO(canvas_png(fig))))
    assert img.shape == (10, 20, 3) and (img == [1, 2, 3]).all()
    fw = frames_widget([png, png], ["a", "b"])
    assert fw.play is not None and fw.slider.max == 1 and len(fw.links) == 3
    sources = {(link.source[0], link.source[1], link.target[0], link.target[1])
               for link in fw.links}
    assert (fw.slider, "value", fw.stack, "selected_index") in sources
    assert (fw.play, "value", fw.slider, "value") in sources
    with pytest.raises(ValueError, match="frames=\\[\\]"):
        frames_widget([])
    with pytest.raises(ValueError, match="labels has 1 entries"):
        frames_widget([png, png], ["a"])
