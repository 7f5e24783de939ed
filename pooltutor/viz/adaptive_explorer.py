"""Widget explorer: adaptive pooling bins for any input and output size.

:class:`AdaptiveBinsExplorer` wires the input size and output size (per
axis, 1-D or 2-D), the output cell, max / average and the fixed-pool export
workaround to :func:`pooltutor.viz.adaptive.plot_adaptive_bins`, on one
persistent figure laid out by matplotlib's constrained layout engine.  The
output-cell sliders follow the output size; when the export workaround does
not exist (``I < O``) the widget says so in its note.
:meth:`AdaptiveBinsExplorer.static_widget` (or :func:`adaptive_bins_frames`)
is the kernel-free form: one frame per output cell.

A parameter change draws the plot again on the same Axes when the panels stay
(``plot_adaptive_bins(fig=..., reuse=...)``: an output or input size change),
runs the constrained layout once and then turns it off
(``set_layout_engine("none")``, the Axes stay where it put them) for one full
``canvas.draw()``.  Another output cell only moves the marks and
the caption (:func:`~pooltutor.viz.adaptive.move_adaptive_bins`) and is
blitted with matplotlib's public blitting API: the rest of the figure is
kept as a background (``canvas.copy_from_bbox``, on the explorer), restored
(``restore_region``) and the moving artists drawn over it (``draw_artist``).

>>> e = AdaptiveBinsExplorer(input_size=7, output_size=4, dpi=30)     # TV25
>>> e.state["bin"], e.state["output"]
(((0, 2),), [3.0, 4.0, 9.0, 9.0])
>>> e.cell[1].value = 2
>>> e.state["bin"], e.state["winner"], e.state["caption"].splitlines()[0]
(((3, 6),), (5,), 'output 2: bin [3,6), max 9 at w=5')
>>> e.out_size[1].value = 9                                  # O > I: no export workaround
>>> e.error, e.warnings
(None, ['no fixed-pool export workaround: I=7 < O=9 on axis 0, floor(I/O) = 0'])
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..errors import (
    PoolTutorError,
    PoolTutorTypeError,
    check_choice,
    check_index_within,
    check_int,
    check_per_axis,
)
from .adaptive import MAX_SIDE, adaptive_bins_figsize, move_adaptive_bins, plot_adaptive_bins
from .cell_selection import CellSelection, OutputGrid, cell_picker_frames
from .explorer import Explorer, FramesWidget, frames_widget

__all__ = ["AdaptiveBinsExplorer", "adaptive_bins_frames", "canvas_png", "pi_digits"]

#: Slider ranges of the input size for 1-D and 2-D inputs.
MAX_INPUT = {1: 32, 2: 10}

#: zlib level of the PNGs shown (1: fast; the flat heatmap colours compress well anyway)
PNG_LEVEL = 1


def canvas_png(canvas, compress_level: int = PNG_LEVEL) -> bytes:
    """The PNG bytes (RGB) of what an Agg ``canvas`` holds now (Pillow).

    >>> from pooltutor.viz.explorer import new_figure
    >>> fig = new_figure((1, 1), dpi=20)
    >>> fig.canvas.draw()
    >>> canvas_png(fig.canvas)[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    import io

    from PIL import Image

    w, h = canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


def pi_digits(count: int) -> np.ndarray:
    """The first ``count`` decimal digits of pi as floats (the demo input; TV27 uses 32).

    >>> pi_digits(8).astype(int).tolist()
    [3, 1, 4, 1, 5, 9, 2, 6]
    """
    count = check_int("count", count, minimum=1)
    # Gibbons' unbounded spigot, exact in Python integers
    q, r, t, k, n, m = 1, 0, 1, 1, 3, 3
    digits = []
    while len(digits) < count:
        if 4 * q + r - t < n * t:
            digits.append(n)
            q, r, n = 10 * q, 10 * (r - n * t), (10 * (3 * q + r)) // t - 10 * n
        else:
            q, r, t, k, n, m = (q * k, (2 * q + r) * m, t * m, k + 1,
                                (q * (7 * k + 2) + r * m) // (t * m), m + 2)
    return np.array(digits, dtype=float)


class AdaptiveBinsExplorer(CellSelection, Explorer):
    """Change the input and output size of an adaptive pooling and watch its bins.

    Parameters
    ----------
    x : 1-D or 2-D array, optional
        The input (its size is then fixed); default: digits of pi of the
        chosen size.
    ndim : {1, 2}
        Spatial axes of the default input (ignored when ``x`` is given).
    input_size, output_size : int or (int, int)
        Initial sizes.
    op : {'max', 'avg'}
    show_fixed : bool
        Draw the fixed-pool export workaround too.
    out_index : int or (int, int), optional
        The output cell shown first (default the first cell).
    dpi : float

    Attributes
    ----------
    ndim : ipywidgets.ToggleButtons
    in_size, out_size, cell : tuple of two ipywidgets.IntSlider
        Per axis ``(h, w)``; in 1-D only the ``w`` sliders are shown and used.
        ``cell[a].max`` follows ``out_size[a]``.
    op : ipywidgets.Dropdown
    show_fixed : ipywidgets.Checkbox
    plot : AdaptiveBinsPlot or None
    """

    def __init__(self, x=None, *, ndim: int = 1, input_size=7, output_size=4, op: str = "max",
                 show_fixed: bool = True, out_index=None, dpi: float = 80):
        import ipywidgets as widgets

        check_choice("op", op, ("max", "avg"))
        if x is not None:
            x = np.asarray(x)
            if x.ndim not in (1, 2) or x.size == 0 or x.dtype.kind not in "iuf":
                raise PoolTutorError(f"x has shape {x.shape} and dtype {x.dtype}: need a "
                                     f"non-empty 1-D or 2-D numeric input")
            if max(x.shape) > MAX_SIDE:
                raise PoolTutorError(f"x has shape {x.shape}: need at most {MAX_SIDE} per axis")
            ndim = x.ndim
            input_size = x.shape
        if ndim not in (1, 2):
            raise PoolTutorError(f"ndim={ndim!r} is not allowed: need 1 or 2")
        if not isinstance(show_fixed, (bool, np.bool_)):
            raise PoolTutorTypeError(f"show_fixed={show_fixed!r} has type "
                                     f"{type(show_fixed).__name__}: need True or False")
        ins = self._pair("input_size", input_size, ndim)
        outs = self._pair("output_size", output_size, ndim)
        if x is None and max(ins) > MAX_INPUT[ndim]:
            raise PoolTutorError(f"input_size={input_size!r} is not allowed: need 1 to "
                                 f"{MAX_INPUT[ndim]} per axis in {ndim}-D (the explorer draws "
                                 f"every element)")
        if max(outs) > MAX_SIDE:
            raise PoolTutorError(f"output_size={output_size!r} is not allowed: need 1 to "
                                 f"{MAX_SIDE} per axis (the explorer draws every bin)")
        if out_index is None:
            cells = (0, 0)
        else:
            cells = check_index_within("out_index", check_per_axis("out_index", out_index,
                                                                   ndim, minimum=0),
                                       outs[2 - ndim:],
                                       given=np.atleast_1d(out_index).tolist())
            cells = (0,) + cells if ndim == 1 else cells
        self.x = x
        def slider_style():
            # a Layout of its own per slider: hiding the h slider must not hide the w one
            return dict(style={"description_width": "70px"}, layout=widgets.Layout(width="250px"))

        top = max(MAX_INPUT[ndim], *ins)
        self.ndim = widgets.ToggleButtons(options=[("1-D", 1), ("2-D", 2)], value=ndim,
                                          disabled=x is not None,
                                          style={"button_width": "60px"})
        self.in_size = tuple(
            widgets.IntSlider(value=v, min=1, max=top, description=f"input {a}",
                              disabled=x is not None, continuous_update=False, **slider_style())
            for a, v in zip("hw", ins, strict=True))
        self.out_size = tuple(
            widgets.IntSlider(value=v, min=1, max=max(16, v), description=f"output {a}",
                              continuous_update=False, **slider_style())
            for a, v in zip("hw", outs, strict=True))
        self.cell = tuple(
            widgets.IntSlider(value=c, min=0, max=max(v - 1, 0), description=f"cell {a}",
                              **slider_style())
            for a, v, c in zip("hw", outs, cells, strict=True))
        self.op = widgets.Dropdown(options=("max", "avg"), value=op, description="op",
                                   style={"description_width": "70px"},
                                   layout=widgets.Layout(width="200px"))
        self.show_fixed = widgets.Checkbox(value=bool(show_fixed),
                                           description="fixed-pool export workaround",
                                           indent=False)
        self.plot = None
        self._key = None                # what self.plot shows (a step keeps it)
        self._pooled = None
        self._drawn = 0                 # full plots so far (what a background was drawn for)
        self._stepped = False           # the last draw only moved the marks
        self._blit_background = None         # (what it shows, copy_from_bbox region)
        super().__init__(
            controls=[[self.ndim, self.op, self.show_fixed],
                      list(self.in_size), list(self.out_size), list(self.cell)],
            figsize=(8, 5), dpi=dpi)
        self.figure.set_layout_engine("constrained")
        self.watch(self.ndim, *self.in_size, *self.out_size, *self.cell, self.op,
                   self.show_fixed)
        self._sync_bounds()
        self.safe_update()
        self.add_cell_chooser()

    @staticmethod
    def _pair(name, value, ndim):
        value = check_per_axis(name, value, ndim, minimum=1)
        return (1,) + value if ndim == 1 else value       # (h, w); h unused in 1-D

    # ------------------------------------------------------------ wiring

    def _sync_bounds(self) -> None:
        """Show the h sliders in 2-D only; input range per ndim; cell max = output size - 1."""
        two_d = self.ndim.value == 2
        with self._hold():
            for sliders in (self.in_size, self.out_size, self.cell):
                sliders[0].layout.display = None if two_d else "none"
            if self.x is None:
                top = MAX_INPUT[self.ndim.value]
                for s in self.in_size:
                    if s.value > top:
                        s.value = top
                    s.max = top
            for cell, out in zip(self.cell, self.out_size, strict=True):
                if cell.value > out.value - 1:
                    cell.value = out.value - 1
                cell.max = out.value - 1

    def _axes(self):
        return (0, 1) if self.ndim.value == 2 else (1,)

    def _input(self):
        if self.x is not None:
            return self.x
        shape = tuple(self.in_size[a].value for a in self._axes())
        return pi_digits(int(np.prod(shape))).reshape(shape)

    @property
    def out_index(self) -> tuple[int, ...]:
        return tuple(self.cell[a].value for a in self._axes())

    # ------------------------------------------------------------ output-cell selection

    def _output_grid(self) -> OutputGrid | None:
        """The adaptive output shown; the chosen cell is the cell sliders'."""
        if self.plot is None or self._pooled is None:
            return None
        return OutputGrid.of_values(self._pooled.output[0, 0], self.out_index)

    def _apply_cell(self, index) -> None:
        with self._hold():
            for a, v in zip(self._axes(), index, strict=True):
                self.cell[a].value = v
        self.safe_update()

    # ------------------------------------------------------------ drawing

    def draw(self) -> dict[str, Any]:
        axes = self._axes()
        shape = (self.x.shape if self.x is not None
                 else tuple(self.in_size[a].value for a in axes))
        outs = tuple(self.out_size[a].value for a in axes)
        out_index = self.out_index
        op = self.op.value
        show_fixed = self.show_fixed.value
        key = (shape, outs, op, show_fixed)
        plot = None
        if self.plot is not None and key == self._key:
            # another cell of the same bins: only the marks and the caption move (blitted by
            # render); the pooling does not run again
            plot = move_adaptive_bins(self.plot, out_index)
        self._stepped = plot is not None
        if plot is None:
            from ..pooling import adaptive_avg_pool, adaptive_max_pool

            x = self._input()
            figsize = adaptive_bins_figsize(x, outs, show_fixed)      # checks the controls
            self._key = None            # until the new plot is complete: no step moves it
            self.figure.set_size_inches(figsize)
            # new panels: the constrained layout places them once (render), then is off
            self.figure.set_layout_engine("constrained")
            plot = plot_adaptive_bins(x, outs, out_index, op=op, show_fixed=show_fixed,
                                      fig=self.figure, reuse=self.plot)
            x4 = x.reshape((1, 1) + x.shape)
            self._pooled = (adaptive_max_pool(x4, outs, return_indices=True) if op == "max"
                            else adaptive_avg_pool(x4, outs))
            self._key = key
            self._drawn += 1
        self.plot = plot
        if show_fixed and plot.fixed is None:
            axis = next(i for i, (a, o) in enumerate(zip(shape, outs, strict=True)) if a < o)
            warnings.warn(f"no fixed-pool export workaround: I={shape[axis]} < "
                          f"O={outs[axis]} on axis {axis}, floor(I/O) = 0", stacklevel=2)
        text = self._pooled.explain(*out_index)
        if plot.fixed is not None and show_fixed:
            windows = [w[i] for w, i in zip(plot.fixed.windows, out_index, strict=True)]
            same = all(s[i] for s, i in zip(plot.fixed.same, out_index, strict=True))
            text += (f"\nexport workaround k={plot.fixed.kernel}, s={plot.fixed.stride}: window "
                     + " x ".join(f"[{a},{b})" for a, b in windows)
                     + (" = the bin" if same else " != the bin")
                     + f", value {plot.fixed_output[out_index]:.6g}")
        self.set_explain(text)
        bins = tuple(ax.bins[i] for ax, i in zip(plot.geometry.axes, out_index, strict=True))
        return {"input_shape": shape, "output_size": outs, "out_index": out_index,
                "bin": bins, "winner": plot.winner, "op": op,
                "output": plot.output.tolist(),
                "fixed": None if plot.fixed is None else (plot.fixed.kernel, plot.fixed.stride),
                "fixed_equal": None if plot.fixed is None else plot.fixed.equal,
                "caption": plot.caption.get_text()}

    def call_settings(self) -> dict[str, Any]:
        """The adaptive pooling on screen, for the code panel
        (:func:`pooltutor.spellings.same_call_adaptive`)."""
        axes = self._axes()
        shape = (self.x.shape if self.x is not None
                 else tuple(self.in_size[a].value for a in axes))
        return dict(op=self.op.value, input_shape=shape,
                    output_size=tuple(self.out_size[a].value for a in axes))

    def _places(self) -> tuple:
        """Where the layout put the Axes (a background is reused only while they stay)."""
        return tuple(tuple(np.round(ax.get_position().bounds, 9)) for ax in self.figure.axes)

    def render(self) -> bytes:
        """Draw the figure and show it as PNG (and return the bytes).

        After a step to another cell (the same plot), the kept background is restored and
        only :attr:`AdaptiveBinsPlot.moving` is drawn over it; otherwise the whole figure
        is drawn (``canvas.draw()``; after a new plot one constrained layout pass first,
        then the layout engine is "none") with the moving artists left out, the background
        kept, and the moving artists drawn over it.  Between renders every artist is an
        ordinary, non-animated one and the layout is off: ``savefig`` draws the same
        picture.
        """
        from matplotlib.layout_engine import ConstrainedLayoutEngine

        fig, canvas = self.figure, self.figure.canvas
        moving = self.plot.moving
        what = (self._drawn, tuple(fig.get_size_inches()), fig.dpi)
        kept = self._blit_background
        if (self._stepped and kept is not None and kept[0] == what
                and kept[2] == self._places()):
            canvas.restore_region(kept[1])
        else:
            for artist in moving:
                artist.set_animated(True)
            try:
                engine = fig.get_layout_engine()
                if isinstance(engine, ConstrainedLayoutEngine):
                    # new panels: one pass of the constrained layout places them (the
                    # fixed-aspect panels anchored at the top left settle in one pass);
                    # then the layout is off until the panels change again, so that this
                    # draw and every later one (savefig too) keep the Axes where it put them
                    engine.execute(fig)
                    fig.set_layout_engine("none")
                canvas.draw()
            finally:
                for artist in moving:
                    artist.set_animated(False)
            self._blit_background = (what, canvas.copy_from_bbox(fig.bbox), self._places())
        for artist in moving:
            fig.draw_artist(artist)
        png = canvas_png(canvas)
        self.png = png
        self.image.value = png
        return png

    # ------------------------------------------------------------ kernel-free

    def static_widget(self, max_frames: int = 32) -> FramesWidget:
        """The kernel-free form: one frame per output cell (row-major, at most ``max_frames``)."""
        if self.plot is None or self.error is not None:
            raise PoolTutorError(f"no frames to make: the current controls are invalid "
                                 f"({self.error})")
        check_int("max_frames", max_frames, minimum=1)
        outs = tuple(self.out_size[a].value for a in self._axes())
        cells = [tuple(int(v) for v in idx) for idx in np.ndindex(*outs)][:max_frames]
        keep = self.out_index

        def apply(idx):
            with self._hold():
                for a, v in zip(self._axes(), idx, strict=True):
                    self.cell[a].value = v
            self.safe_update()

        pngs, labels = self.collect_frames(cells, apply)
        apply(keep)
        return cell_picker_frames(frames_widget(pngs, labels, description="output cell"), cells)


def adaptive_bins_frames(x=None, *, max_frames: int = 32, **params) -> FramesWidget:
    """Kernel-free frames for slides: ``AdaptiveBinsExplorer(x, **params).static_widget()``.

    >>> fw = adaptive_bins_frames(np.array([3.0, 1, 4, 1, 5]), output_size=3, dpi=30)  # TV24
    >>> len(fw.stack.children), fw.labels[1].splitlines()[0]
    (3, 'output[0, 0, 1] = 4.0   (adaptive max pooling)')
    """
    return AdaptiveBinsExplorer(x, **params).kernel_free(max_frames)
