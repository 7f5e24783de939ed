"""Render the README's gallery pictures (docs/img/*.png) from pooltutor's static plots.

Run from the repository root::

    python docs/make_images.py                       # writes docs/img/
    python docs/make_images.py --out DIR             # somewhere else (the tests do)
    python docs/make_images.py window_stepper.png    # only the pictures named

Each picture is one worked example of the course, drawn by the same public
``plot_*`` function a notebook calls; nothing here computes anything.  They
are saved as Jupyter's inline backend saves a figure (``bbox_inches="tight"``),
so the README shows what a notebook shows.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))



def _viz(module: str, name: str):
    """``pooltutor.viz.<module>.<name>``, imported when its picture is drawn."""
    import importlib

    return getattr(importlib.import_module(f"pooltutor.viz.{module}"), name)


def _index_layouts():
    from pooltutor.pooling import max_pool

    x = _viz("index_explorer", "TV22_INPUT")
    return _viz("indices", "plot_index_layouts")(max_pool(x, 2, 1, return_indices=True),
                                                 out_index=(1, 1, 0, 1),
                                                 layouts=("plane", "tensor"))


#: file name -> (what it shows, how it is drawn); the README shows them in this order
PICTURES = {
    "window_stepper.png": (
        "window placement: a 3x3 window, stride 2, padding 1 on a 6x6 input, output (1, 1)",
        lambda: _viz("heatmaps", "plot_pool")(np.arange(36.0).reshape(1, 1, 6, 6), 3, 2, 1,
                                              out_index=(1, 1))),
    "padding_modes.png": (
        "the six TensorRT padding modes on the seed's example (I=6, F=3, S=2, B=3, A=2)",
        lambda: _viz("padding_modes", "plot_padding_modes")(6, 3, 2, 3, 2)),
    "index_layouts.png": (
        "one max-pool winner as its flat index in every layout (TV22)",
        _index_layouts),
    "adaptive_bins.png": (
        "adaptive average pooling 7 -> 4 against the fixed-pool export workaround (TV25)",
        lambda: _viz("adaptive", "plot_adaptive_bins")(np.array([3.0, 1, 4, 1, 5, 9, 2]), 4,
                                                       out_index=1, op="avg",
                                                       show_fixed=True)),
    "zero_point_relu.png": (
        "ReLU on uint8 codes with zero point 128: the clamp at the zero point, not at 0 (TV31)",
        lambda: _viz("zero_point", "plot_zero_point_relu")(
            0.5, 128, "uint8", codes=np.array([[126, 120], [110, 127]], dtype=np.uint8))),
}


def render(out: Path, dpi: float = 80, names=None) -> list[Path]:
    """Draw every picture (or those in ``names``) into ``out``, saved as Jupyter saves a
    figure (``bbox_inches="tight"``), and return the paths written."""
    unknown = sorted(set(names or ()) - set(PICTURES))
    if unknown:
        raise ValueError(f"names={unknown!r} are not pictures of the gallery: need some of "
                         f"{sorted(PICTURES)}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (_, draw) in PICTURES.items():
        if names and name not in names:
            continue
        path = out / name
        made = draw()
        getattr(made, "figure", made).savefig(path, dpi=dpi, bbox_inches="tight")
        written.append(path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path,
                        default=Path(os.path.dirname(os.path.abspath(__file__))) / "img",
                        help="folder to write into (default: docs/img)")
    parser.add_argument("names", nargs="*", help="only these pictures (default: all)")
    args = parser.parse_args(argv)
    for path in render(args.out, names=args.names):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
