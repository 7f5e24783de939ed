"""pooltutor.viz exposes one static plot and one explorer per concept, imported lazily."""

import subprocess
import sys

import pooltutor.viz as viz


def test_every_listed_name_resolves_and_is_documented():
    for name in viz.__all__:
        obj = getattr(viz, name)
        assert callable(obj), name
        assert f"``{name}``" in viz.__doc__, name


def test_core_import_pulls_in_neither_matplotlib_nor_ipywidgets():
    code = ("import sys, pooltutor, pooltutor.frameworks, pooltutor.quant, pooltutor.tensorrt;"
            "bad = [m for m in ('matplotlib', 'ipywidgets') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_explorer_pictures_are_not_stretched_by_flex_containers():
    from pooltutor.viz.explorer import frames_widget
    from pooltutor.viz.window_stepper import WindowStepper

    stepper = WindowStepper()
    assert stepper.image.layout.align_self == "flex-start"
    frames = frames_widget([stepper.image.value, stepper.image.value])
    assert all(img.layout.align_self == "flex-start" for img in frames.stack.children)
