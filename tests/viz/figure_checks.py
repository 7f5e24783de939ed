"""Checks of a figure as it is shown: as Jupyter's inline backend saves it
(``bbox_inches="tight"``) and as a plain ``savefig`` saves it.

Used by the picture tests under ``tests/viz/``::

    from figure_checks import texts_outside, assert_texts_inside

Every visible text (titles, labels, tick labels, legend texts, annotations,
figure texts) must lie inside the saved image, otherwise a student sees it
cut off; and nothing painted on the canvas may fall outside what the tight
crop keeps (this also catches texts drawn as paths).  Only public matplotlib
API is used.
"""

from __future__ import annotations

import io

from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: pixels a text may poke out of the image (anti-aliasing, rounding of the tight box)
SLACK_PX = 1.5


def _visible_texts(fig) -> list[Text]:
    texts = []
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip():
            continue
        # a text inside an invisible parent (e.g. a hidden Axes) is not drawn
        parent = t.axes
        if parent is not None and not parent.get_visible():
            continue
        texts.append(t)
    return texts


def saved_region(fig, bbox_inches: str | None) -> Bbox:
    """The part of the figure (display pixels at ``fig.dpi``) that ``savefig`` writes."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    if bbox_inches == "tight":
        import matplotlib as mpl

        pad = mpl.rcParams["savefig.pad_inches"]
        tight = fig.get_tightbbox(renderer).padded(pad)      # inches
        return Bbox.from_extents(*(v * fig.dpi for v in tight.extents))
    return fig.bbox


def texts_outside(fig, bbox_inches: str | None = "tight") -> list[str]:
    """Descriptions of the visible texts that lie (partly) outside the saved image."""
    region = saved_region(fig, bbox_inches)
    renderer = fig.canvas.get_renderer()
    bad = []
    for t in _visible_texts(fig):
        ext = t.get_window_extent(renderer)
        if ext.width == 0 and ext.height == 0:
            continue
        if (ext.x0 < region.x0 - SLACK_PX or ext.y0 < region.y0 - SLACK_PX
                or ext.x1 > region.x1 + SLACK_PX or ext.y1 > region.y1 + SLACK_PX):
            bad.append(f"{t.get_text()!r} at {tuple(round(v) for v in ext.extents)} "
                       f"outside {tuple(round(v) for v in region.extents)}")
    return bad


def ink_outside_tight(fig) -> int:
    """How many painted pixels of the full canvas lie outside what ``bbox_inches="tight"``
    keeps: content (of any artist kind, texts drawn as paths included) that Jupyter's
    inline backend would crop away."""
    import numpy as np
    from matplotlib.colors import to_rgba

    region = saved_region(fig, "tight")
    buf = np.asarray(fig.canvas.buffer_rgba())
    h, w = buf.shape[:2]
    face = np.array([round(255 * c) for c in to_rgba(fig.get_facecolor())], dtype=np.int16)
    ink = (np.abs(buf.astype(np.int16) - face) > 8).any(axis=2)
    ys, xs = np.nonzero(ink)
    # display y runs upwards, image rows downwards
    disp_y = h - ys - 0.5
    disp_x = xs + 0.5
    outside = ((disp_x < region.x0 - SLACK_PX) | (disp_x > region.x1 + SLACK_PX)
               | (disp_y < region.y0 - SLACK_PX) | (disp_y > region.y1 + SLACK_PX))
    return int(outside.sum())


def assert_texts_inside(fig) -> None:
    """Fail if any visible text is cut off, saved plainly or with ``bbox_inches="tight"``;
    also save both ways (the saves must work)."""
    for mode in (None, "tight"):
        fig.savefig(io.BytesIO(), format="png", bbox_inches=mode)
        bad = texts_outside(fig, mode)
        assert not bad, f"bbox_inches={mode!r}: {len(bad)} text(s) cut off: " + "; ".join(bad[:8])
    lost = ink_outside_tight(fig)
    assert lost == 0, f'bbox_inches="tight" crops away {lost} painted pixels of the figure'



def smallest_font_pt(fig) -> float:
    """The smallest font size (points) among the visible texts of ``fig``."""
    sizes = [t.get_fontsize() for t in _visible_texts(fig)]
    return min(sizes) if sizes else float("inf")


def suptitle(fig) -> str:
    """The text of ``fig``'s suptitle (the figure text with gid ``"suptitle"``; matplotlib
    3.7 has no ``Figure.get_suptitle``)."""
    (text,) = [t for t in fig.texts if t.get_gid() == "suptitle"]
    return text.get_text()
