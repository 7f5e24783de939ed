"""Render the README's gallery pictures (docs/img/*.png) from pooltutor's static plots.

Run from the repository root::

    python docs/make_images.py            # writes docs/img/
    python docs/make_images.py --out DIR  # somewhere else (the tests do)

Each picture is one worked example of the course, drawn by the same public
``plot_*`` function a notebook calls; nothing here computes anything.
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

from pooltutor.pooling import max_pool  # noqa: E402
from pooltutor.viz.adaptive import plot_adaptive_bins  # noqa: E402
from pooltutor.viz.heatmaps import plot_pool  # noqa: E402
from pooltutor.viz.index_explorer import TV22_INPUT  # noqa: E402
from pooltutor.viz.indices import plot_index_layouts  # noqa: E402
from pooltutor.viz.padding_modes import plot_padding_modes  # noqa: E402
from pooltutor.viz.zero_point import plot_zero_point_relu  # noqa: E402

#: file name -> (what it shows, how it is drawn); the README shows them in this order
PICTURES = {
    "window_stepper.png": (
        "window placement: a 3x3 window, stride 2, padding 1 on a 6x6 input, output (1, 1)",
        lambda: plot_pool(np.arange(36.0).reshape(1, 1, 6, 6), 3, 2, 1, out_index=(1, 1))),
    "padding_modes.png": (
        "the six TensorRT padding modes on the seed's example (I=6, F=3, S=2, B=3, A=2)",
        lambda: plot_padding_modes(6, 3, 2, 3, 2)),
    "index_layouts.png": (
        "one max-pool winner as its flat index in every layout (TV22)",
        lambda: plot_index_layouts(max_pool(TV22_INPUT, 2, 1, return_indices=True),
                                   out_index=(1, 1, 0, 1), layouts=("plane", "tensor"))),
    "adaptive_bins.png": (
        "adaptive average pooling 7 -> 4 against the fixed-pool export workaround (TV25)",
        lambda: plot_adaptive_bins(np.array([3.0, 1, 4, 1, 5, 9, 2]), 4, out_index=1,
                                   op="avg", show_fixed=True)),
    "zero_point_relu.png": (
        "ReLU on uint8 codes with zero point 128: the clamp at the zero point, not at 0 (TV31)",
        lambda: plot_zero_point_relu(0.5, 128, "uint8",
                                     codes=np.array([[126, 120], [110, 127]], dtype=np.uint8))),
}


def render(out: Path, dpi: float = 80) -> list[Path]:
    """Draw every picture into ``out`` and return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (_, draw) in PICTURES.items():
        path = out / name
        draw().figure.savefig(path, dpi=dpi)
        written.append(path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path,
                        default=Path(os.path.dirname(os.path.abspath(__file__))) / "img",
                        help="folder to write into (default: docs/img)")
    args = parser.parse_args(argv)
    for path in render(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
