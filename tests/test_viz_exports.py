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
    code = ("import sys, pooltutor, pooltutor.frameworks, pooltutor.quant, pooltutor.padding_modes;"
            "bad = [m for m in ('matplotlib', 'ipywidgets') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
