"""A drawn picture as Jupyter shows it, with a description a screen reader reads.

Every Display object of the ``plot_*`` functions has an ``alt_text``: one or two
sentences made from what it drew (the operation, the cell shown, the numbers that
matter).  Left as the last expression of a notebook cell, the Display object shows
itself as its figure saved the way IPython's inline backend saves figures
(``bbox_inches="tight"`` at the figure's dpi) with that text as the image's
``alt``: an ``<img alt=...>`` for JupyterLab, Voila and nbconvert's HTML and slides,
and the ``image/png`` output's ``alt`` metadata (which nbconvert also reads).

>>> import matplotlib
>>> from matplotlib.figure import Figure
>>> class Shown(DescribedFigure):
...     def __init__(self):
...         self.figure = Figure(figsize=(1, 1), dpi=20)
...     @property
...     def alt_text(self):
...         return 'an empty "square"'
>>> data, meta = Shown()._repr_mimebundle_()
>>> meta["image/png"]["alt"], 'alt="an empty &quot;square&quot;"' in data["text/html"]
('an empty "square"', True)
"""

from __future__ import annotations

import base64
import html
import io
import struct

__all__ = ["DescribedFigure", "png_size"]


def png_size(png: bytes) -> tuple[int, int]:
    """``(width, height)`` in pixels, read from a PNG's header.

    >>> header = b"\\x89PNG\\r\\n\\x1a\\n\\0\\0\\0\\rIHDR"
    >>> png_size(header + bytes([0, 0, 1, 44, 0, 0, 0, 200]))
    (300, 200)
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("png: not a PNG image")
    return struct.unpack(">II", png[16:24])


class DescribedFigure:
    """Mixin of the Display objects: ``figure`` (set by the class) and ``alt_text``
    (written by each class from what it drew); shown in Jupyter as the picture with
    its description."""

    @property
    def alt_text(self) -> str:  # pragma: no cover - every Display object defines it
        raise NotImplementedError

    def png(self) -> bytes:
        """The figure as IPython's inline backend saves it (``bbox_inches="tight"``)."""
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", bbox_inches="tight", dpi=self.figure.dpi)
        return buf.getvalue()

    def _repr_mimebundle_(self, include=None, exclude=None):
        png = self.png()
        alt = self.alt_text
        width, height = png_size(png)
        b64 = base64.b64encode(png).decode("ascii")
        img = (f'<img src="data:image/png;base64,{b64}" width="{width}" height="{height}" '
               f'alt="{html.escape(alt, quote=True)}" style="max-width:100%; height:auto">')
        return ({"text/html": img, "image/png": b64, "text/plain": alt},
                {"image/png": {"alt": alt, "width": width, "height": height}})
