"""The shared base of every pooltutor widget explorer.

An explorer wires ipywidgets controls to one of the static ``plot_*``
functions.  This module holds what they all share, so
that every explorer looks and behaves the same:

* **one persistent figure** (:attr:`Explorer.figure`, a plain
  :class:`matplotlib.figure.Figure` with an Agg canvas, no pyplot state),
  redrawn in place and shown as PNG bytes in an :class:`ipywidgets.Image`
  (README.md, "Classroom delivery": a PNG in the widget state survives notebook export
  and slides); every update draws the figure with matplotlib and encodes the
  canvas with Pillow (:meth:`Explorer.render`);
* **an error label** (:attr:`Explorer.error_label`): an invalid combination
  of controls never raises out of a callback; its reason is shown in red
  and the last good picture stays, greyed out (:meth:`Explorer.safe_update`);
* **a note label** for warnings raised during an update (e.g. TensorRT's
  CAFFE "Restriction" warnings), shown in amber instead of being lost;
* **an explain box** (:attr:`Explorer.explain_box`): the ``explain()`` text
  of the current cell, in an HTML ``<pre>``;
* **the kernel-free form** (:func:`frames_widget`): precomputed PNG frames
  in a :class:`ipywidgets.Stack`, linked to a slider (and a Play button) with
  :func:`ipywidgets.jslink`, so that exported slides still step through the
  frames without a kernel (README.md, "Classroom delivery").

Writing an explorer
-------------------
Subclass :class:`Explorer`, build the controls, call
``super().__init__(controls=[...rows of widgets...], figsize=...)``, then
``self.watch(*controls)`` and ``self.safe_update()``.  Override
:meth:`Explorer.draw`: it reads the controls, raises
:class:`~pooltutor.errors.PoolTutorError` (or any ``ValueError`` /
``TypeError``) for an invalid combination *before* touching the figure, draws
on :attr:`Explorer.figure` and may call :meth:`Explorer.set_explain`.  It may
return a dict that becomes :attr:`Explorer.state`.

>>> import ipywidgets as widgets
>>> class Square(Explorer):
...     def __init__(self):
...         self.n = widgets.IntSlider(value=2, min=-3, max=5, description="n")
...         super().__init__(controls=[self.n], figsize=(2, 2))
...         self.watch(self.n)
...         self.safe_update()
...     def draw(self):
...         if self.n.value < 0:
...             raise ValueError(f"n={self.n.value} is not allowed: need n >= 0")
...         self.figure.clear()
...         self.figure.add_subplot().set_title(f"n={self.n.value}")
...         self.set_explain(f"{self.n.value}**2 = {self.n.value ** 2}")
...         return {"n": self.n.value}
>>> e = Square()
>>> e.state, e.error, bytes(e.image.value[:4])
({'n': 2}, None, b'\\x89PNG')
>>> e.n.value = -1                      # invalid: the reason is shown, nothing raises
>>> e.error
'n=-1 is not allowed: need n >= 0'
>>> e.state                             # the last good state is kept
{'n': 2}
>>> e.n.value = 3
>>> e.error, e.state, e.explain_text
(None, {'n': 3}, '3**2 = 9')
>>> fw = frames_widget(*e.collect_frames([0, 1, -2], lambda v: setattr(e.n, "value", v)))
>>> fw.labels
('0**2 = 0', '1**2 = 1', 'n=-2 is not allowed: need n >= 0')
"""

from __future__ import annotations

import contextlib
import html
import io
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "Explorer",
    "FramesWidget",
    "frames_widget",
    "figure_png",
    "canvas_png",
    "new_figure",
    "ERROR_STYLE",
    "NOTE_STYLE",
]

#: Inline CSS of the error label (red, like an error message) and the note label (amber).
ERROR_STYLE = ("color:#b00020; background:#fdecea; border-left:4px solid #b00020; "
               "padding:4px 8px; font-family:sans-serif; font-size:14px")
NOTE_STYLE = ("color:#7a4f01; background:#fff4e0; border-left:4px solid #e6a100; "
              "padding:4px 8px; font-family:sans-serif; font-size:13px")
PRE_STYLE = "font-size:13px; line-height:1.3; margin:4px 0; white-space:pre"
#: visually hidden, read by screen readers (the usual "sr-only" rules, inline)
SR_ONLY_STYLE = ("position:absolute; width:1px; height:1px; padding:0; margin:-1px; "
                 "overflow:hidden; clip:rect(0,0,0,0); white-space:nowrap; border:0")

#: Errors that mean "this combination of controls is invalid" (shown, not raised).
EXPECTED_ERRORS = (ValueError, TypeError)


def new_figure(figsize=(6.0, 4.0), dpi: float = 80, layout: str | None = None):
    """A :class:`~matplotlib.figure.Figure` with its own Agg canvas (no pyplot state).

    >>> fig = new_figure((2, 1), dpi=50)
    >>> type(fig.canvas).__name__, fig.get_size_inches().tolist(), float(fig.dpi)
    ('FigureCanvasAgg', [2.0, 1.0], 50.0)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, dpi=dpi, layout=layout)
    FigureCanvasAgg(fig)
    return fig


def canvas_png(fig, compress_level: int = 1) -> bytes:
    """PNG bytes of the Agg canvas of ``fig`` as it is now (no draw): Pillow encodes its
    ``buffer_rgba()`` (``compress_level`` 1: fast, flat heatmap colours compress well anyway).

    >>> fig = new_figure((1, 1), dpi=20)
    >>> fig.canvas.draw()
    >>> canvas_png(fig)[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    from PIL import Image

    width, height = fig.canvas.get_width_height(physical=True)
    buf = io.BytesIO()
    Image.frombuffer("RGBA", (width, height), fig.canvas.buffer_rgba(), "raw", "RGBA", 0,
                     1).convert("RGB").save(buf, format="png", compress_level=compress_level)
    return buf.getvalue()


def figure_png(fig, dpi: float | None = None, compress_level: int = 1) -> bytes:
    """The PNG bytes of ``fig`` fully drawn on an Agg canvas (``dpi`` defaults to the
    figure's).  Animated artists are drawn too (as when saving).

    >>> figure_png(new_figure((1, 1), dpi=20))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    animated = [a for a in fig.findobj() if a.get_animated()]
    for a in animated:
        a.set_animated(False)
    try:
        if dpi is not None and dpi != fig.dpi:
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=dpi)
            return buf.getvalue()
        fig.canvas.draw()
        return canvas_png(fig, compress_level)
    finally:
        for a in animated:
            a.set_animated(True)


#: The code panel: dark text on light grey (contrast 15:1), reasons dark red on pale red
#: (8:1) and marked in words, notes dark brown (9:1); every block is focusable (tabindex).
CODE_STYLE = ("font-size:13px; line-height:1.35; margin:2px 0 8px 0; padding:6px 8px; "
              "white-space:pre; overflow-x:auto; max-width:100%; box-sizing:border-box; "
              "color:#1a1a1a; background:#f3f4f6; "
              "border:1px solid #6b7280; border-radius:3px")
REASON_STYLE = ("font-size:13px; line-height:1.4; white-space:normal; overflow-wrap:anywhere; "
                "margin:2px 0 8px 0; padding:4px 8px; color:#7f1d1d; "
                "background:#fdf2f2; border-left:4px solid #b00020; font-family:sans-serif")
CALL_NOTE_STYLE = ("font-size:12px; line-height:1.4; white-space:normal; overflow-wrap:anywhere; "
                   "margin:-4px 0 8px 0; color:#5c3c00; font-family:sans-serif")


def _code_panel_html(calls, text: str) -> str:
    """The code panel: one labelled block per framework (its code in a focusable
    ``<pre>``, or why it cannot express the settings), in an open ``<details>``."""
    esc = html.escape
    head = ('<details open style="display:block; box-sizing:border-box; '
            'max-width:min(1000px, 92vw)"><summary style="font:bold 14px sans-serif; '
            'color:#1a1a1a; '
            'cursor:pointer">The same call in every framework</summary>')
    if calls is None:
        return f'{head}<div tabindex="0" style="{REASON_STYLE}">{esc(text)}</div></details>'
    blocks = []
    for name, s in calls.items():
        label = f'<div style="font:bold 13px sans-serif; color:#1a1a1a">{esc(name)}</div>'
        if s.code is not None:
            body = (f'<pre tabindex="0" aria-label="{esc(name)} call" '
                    f'style="{CODE_STYLE}">{esc(s.code)}</pre>')
        else:
            body = (f'<div tabindex="0" style="{REASON_STYLE}"><b>cannot express these '
                    f'settings:</b> {esc(s.reason or "")}</div>')
        note = (f'<div style="{CALL_NOTE_STYLE}">note: {esc(s.note)}</div>' if s.note else "")
        blocks.append(f'<div role="group" aria-label="{esc(name)}">{label}{body}{note}</div>')
    return head + "".join(blocks) + "</details>"


def _html_message(text: str, style: str) -> str:
    return f'<div style="{style}">{html.escape(text)}</div>' if text else ""


class Explorer:
    """Base class of the explorers: controls, one persistent figure, error and explain boxes.

    Parameters
    ----------
    controls : sequence
        Rows of the control panel: each entry is a widget or a list of
        widgets (shown side by side in an ``HBox``).
    figsize : (float, float)
        Size of the persistent figure in inches.
    dpi : float
        Resolution of the PNG shown in the widget (80 keeps updates fast).
    layout : str or None
        Layout engine of the figure (``None``: the subclass places its axes).

    Attributes
    ----------
    figure : matplotlib.figure.Figure
        The persistent figure (Agg canvas); :meth:`draw` updates it.
    image : ipywidgets.Image
        The PNG of the figure after the last good update.
    error_label, note_label : ipywidgets.HTML
        The reason an update was refused / warnings raised during the update.
    explain_box : ipywidgets.HTML
        The current ``explain()`` text (``<pre>``).
    widget : ipywidgets.VBox
        Everything, ready to display.
    png : bytes or None
        The PNG of the last good update.
    state : dict
        What the last good :meth:`draw` returned.
    error : str or None
        The message shown in the error label (None when the picture is current).
    warnings : list of str
        Warnings raised by the last update.
    """

    def __init__(self, *, controls: Sequence[Any] = (), figsize=(6.0, 4.0), dpi: float = 80,
                 layout: str | None = None):
        import ipywidgets as widgets

        self.figure = new_figure(figsize, dpi, layout)
        # align_self: a flex container (VBox, Voila's page) would otherwise stretch the PNG
        # to its full width and blur it
        self.image = widgets.Image(format="png", layout=widgets.Layout(
            max_width="100%", height="auto", align_self="flex-start"))
        self.error_label = widgets.HTML(value="")
        # the picture in words, for screen readers (visually hidden; the page's
        # accessibility script makes it the picture's alt text)
        self.alt_label = widgets.HTML(value="")
        self.alt_label.add_class("pooltutor-alt")
        self.note_label = widgets.HTML(value="")
        self.explain_box = widgets.HTML(value="")
        rows = [widgets.HBox(list(row)) if isinstance(row, (list, tuple)) else row
                for row in controls]
        self.controls_box = widgets.VBox(rows)
        self.widget = widgets.VBox([self.controls_box, self.error_label, self.note_label,
                                    self.image, self.alt_label, self.explain_box])
        self._init_code_panel()
        self.state: dict[str, Any] = {}
        self.error: str | None = None
        self.warnings: list[str] = []
        self.explain_text = ""
        self.png: bytes | None = None

    # ------------------------------------------------------------ to override

    def draw(self) -> dict[str, Any] | None:
        """Redraw :attr:`figure` from the controls; raise ``ValueError`` / ``TypeError``
        for an invalid combination (before touching the figure)."""
        raise NotImplementedError

    def describe(self) -> str:
        """The picture in words: the ``alt_text`` of the Display object the explorer
        draws (:attr:`plot`), else ``""``."""
        return getattr(getattr(self, "plot", None), "alt_text", "") or ""

    # ---------------------------------------------------------------- helpers

    def watch(self, *controls, names: str = "value") -> None:
        """Call :meth:`safe_update` whenever one of ``controls`` changes ``names``."""
        for control in controls:
            control.observe(self._on_change, names=names)

    #: True while :meth:`_hold` is active: control changes then wait for one redraw
    _syncing = False

    @contextlib.contextmanager
    def _hold(self):
        """Change several controls with a single redraw (at the end, by the caller)."""
        old, self._syncing = self._syncing, True
        try:
            yield
        finally:
            self._syncing = old

    def _sync_bounds(self) -> None:
        """Hook: adjust dependent control bounds before a redraw (nothing by default)."""

    def _on_change(self, change=None) -> None:
        if self._syncing:
            return
        self._sync_bounds()
        self.safe_update()

    def set_explain(self, text: str) -> None:
        """Show ``text`` (an ``explain()`` result) in the explain box."""
        self.explain_text = text
        self.explain_box.value = (f'<pre style="{PRE_STYLE}">{html.escape(text)}</pre>'
                                  if text else "")

    def show_error(self, message: str) -> None:
        """Show ``message`` in the error label and grey out the last good picture."""
        self.error = message
        self.error_label.value = _html_message(message, ERROR_STYLE)
        if self.png is not None:
            self.image.value = self._greyed_png()

    def clear_error(self) -> None:
        self.error = None
        self.error_label.value = ""

    def render(self) -> bytes:
        """Draw the whole :attr:`figure` and show it as PNG in :attr:`image` (and return the
        bytes).  A subclass may blit instead (``canvas.copy_from_bbox`` /
        ``restore_region`` / ``draw_artist``, keeping the background on itself) and then
        call :meth:`publish`."""
        self.figure.canvas.draw()
        return self.publish()

    def publish(self) -> bytes:
        """Encode the canvas as it is now (:func:`canvas_png`) into :attr:`png` and
        :attr:`image`, and return the bytes."""
        png = canvas_png(self.figure)
        self.png = png
        self.image.value = png
        return png

    def _greyed_png(self) -> bytes:
        """The last good figure under a translucent white veil (drawn, then removed again)."""
        from matplotlib.patches import Rectangle

        veil = Rectangle((0, 0), 1, 1, transform=self.figure.transFigure, facecolor="white",
                         alpha=0.72, zorder=1000, gid="stale-veil")
        self.figure.patches.append(veil)
        veil.set_figure(self.figure)
        try:
            return figure_png(self.figure)
        finally:
            self.figure.patches.remove(veil)

    def safe_update(self, func: Callable[[], Any] | None = None) -> bool:
        """Run ``func`` (default :meth:`draw`) and render; never raise.

        ``ValueError`` / ``TypeError`` (and so every
        :class:`~pooltutor.errors.PoolTutorError`) become the message of the
        error label; any other exception is shown too, as an internal error
        with its type, so that a widget callback never dies silently.
        Warnings raised meanwhile go to the note label.  Returns True when
        the picture is current.
        """
        func = self.draw if func is None else func
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                state = func()
                self.render()
            except EXPECTED_ERRORS as exc:
                self.show_error(str(exc))
                ok = False
            except Exception as exc:  # noqa: BLE001 - a callback must never raise
                last = traceback.extract_tb(exc.__traceback__)[-1]
                self.show_error(f"internal error {type(exc).__name__}: {exc} "
                                f"({last.filename.rsplit('/', 1)[-1]}:{last.lineno}); "
                                f"please report it")
                ok = False
            else:
                self.clear_error()
                if isinstance(state, dict):
                    self.state = state
                ok = True
        self.warnings = [str(w.message) for w in caught]
        self.note_label.value = _html_message("\n".join(self.warnings), NOTE_STYLE)
        if ok:
            self._update_code_panel()
        described = self.describe()
        if not ok:
            described = f"{self.error} (the last good picture, greyed: {described or 'none'})"
        self.alt_label.value = (f'<span style="{SR_ONLY_STYLE}" aria-live="polite">'
                                f'{html.escape(described)}</span>' if described else "")
        return ok

    def collect_frames(self, items: Sequence[Any], apply: Callable[[Any], Any]
                       ) -> tuple[list[bytes], list[str]]:
        """Frames for :func:`frames_widget`: the PNG and caption after ``apply(item)`` per item.

        ``apply`` usually sets a control (``lambda i: setattr(slider, "value", i)``),
        which redraws through :meth:`watch`; the caption is the explain text,
        or the error message for an invalid item.  The controls are not
        restored: set them back yourself if the explorer stays live.
        """
        pngs, labels = [], []
        for item in items:
            apply(item)
            if self.error is not None:
                pngs.append(bytes(self.image.value))
                labels.append(self.error)
            else:
                pngs.append(self.png)
                labels.append(self.explain_text)
        return pngs, labels

    def kernel_free(self, *args, **kwargs) -> FramesWidget:
        """The kernel-free form of the explorer as made (``static_widget(*args, **kwargs)``
        of a subclass), or the reason its controls are refused as a
        :class:`~pooltutor.errors.PoolTutorError`: what every ``*_frames`` function returns."""
        if self.error is not None:
            from ..errors import PoolTutorError

            raise PoolTutorError(self.error)
        return self.static_widget(*args, **kwargs)

    # ------------------------------------------------- the same call everywhere

    def call_settings(self) -> dict[str, Any] | str | None:
        """Hook: the settings on screen as keyword arguments of
        :func:`pooltutor.spellings.same_call` (or, with ``output_size``, of
        :func:`~pooltutor.spellings.same_call_adaptive`); a string says why there is no
        call; None (the default): the explorer shows no code panel."""
        return None

    def _init_code_panel(self) -> None:
        import ipywidgets as widgets

        self.code_panel = widgets.HTML(value="", layout=widgets.Layout(width="100%"))
        self.code_panel.add_class("pooltutor-same-call")
        self.same_call = None            # the Mapping[str, Spelling] shown, or None
        self.same_call_text = ""         # the panel as plain text
        self._call_key = None
        self.widget.children = (*self.widget.children, self.code_panel)

    def _update_code_panel(self) -> None:
        """Spell the settings on screen in every framework (only when they changed)."""
        from ..spellings import same_call, same_call_adaptive, spellings_text

        settings = self.call_settings()
        key = repr(settings)
        if key == self._call_key:
            return
        self._call_key = key
        if settings is None:
            self.same_call, self.same_call_text, self.code_panel.value = None, "", ""
            return
        calls = None
        if isinstance(settings, str):
            text = f"no call: {settings}"
        else:
            kwargs = dict(settings)
            try:
                calls = (same_call_adaptive(**kwargs) if "output_size" in kwargs
                         else same_call(**kwargs))
            except EXPECTED_ERRORS as exc:
                text = f"no call: {exc}"
            else:
                text = spellings_text(calls)
        self.same_call, self.same_call_text = calls, text
        self.code_panel.value = _code_panel_html(calls, text)

    # --------------------------------------------------------------- display

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


@dataclass(frozen=True)
class FramesWidget:
    """The kernel-free form of an explorer: frames in a Stack, linked to a slider in the browser.

    Attributes
    ----------
    widget : ipywidgets.VBox
        Play + slider on top, the frames below, then an optional caption per frame.
    slider : ipywidgets.IntSlider
    play : ipywidgets.Play or None
    stack : ipywidgets.Stack
        ``stack.children`` are the frames (``ipywidgets.Image``).
    links : tuple
        The ``jslink`` objects (slider -> stack, play -> slider, slider -> caption stack).
    labels : tuple of str
        One caption per frame.
    picker : ipywidgets.ToggleButtons or None
        One button per frame when the frames are output cells
        (:func:`pooltutor.viz.cell_selection.cell_picker_frames`), linked to the slider.
    """

    widget: Any
    slider: Any
    play: Any
    stack: Any
    links: tuple
    labels: tuple[str, ...]
    picker: Any = None

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def frames_widget(frames: Sequence[bytes], labels: Sequence[str] | None = None, *,
                  description: str = "step", play: bool = True,
                  interval: int = 900) -> FramesWidget:
    """Precomputed PNG ``frames`` in a ``Stack`` that a slider flips in the browser (no kernel).

    The slider is linked to ``stack.selected_index`` with
    :func:`ipywidgets.jslink`, so the exported HTML / slides keep working
    (README.md, "Classroom delivery").  With ``play=True`` a Play button drives the
    slider too.  ``labels`` (one per frame) are shown under the frame in a
    second, equally linked Stack of HTML captions.

    >>> fw = frames_widget([b"png0", b"png1", b"png2"], ["a", "b", "c"])
    >>> fw.slider.max, len(fw.stack.children), fw.stack.selected_index
    (2, 3, 0)
    """
    import ipywidgets as widgets

    if len(frames) == 0:
        raise ValueError("frames=[] is not allowed: need at least one PNG frame")
    if labels is not None and len(labels) != len(frames):
        raise ValueError(f"labels has {len(labels)} entries: need one per frame ({len(frames)})")
    from ..errors import check_int

    interval = check_int("interval", interval, minimum=1)       # milliseconds per Play step
    images = [widgets.Image(value=f, format="png",
                            layout=widgets.Layout(max_width="100%", height="auto",
                                                  align_self="flex-start"))
              for f in frames]
    stack = widgets.Stack(images, selected_index=0)
    slider = widgets.IntSlider(value=0, min=0, max=len(frames) - 1, description=description,
                               continuous_update=True)
    links = [widgets.jslink((slider, "value"), (stack, "selected_index"))]
    top = [slider]
    player = None
    if play and len(frames) > 1:
        player = widgets.Play(value=0, min=0, max=len(frames) - 1, interval=interval,
                              description="play")
        links.append(widgets.jslink((player, "value"), (slider, "value")))
        top.insert(0, player)
    children = [widgets.HBox(top), stack]
    labels = tuple(labels) if labels is not None else tuple(f"{description} {i}"
                                                             for i in range(len(frames)))
    if any(labels):
        captions = widgets.Stack(
            [widgets.HTML(f'<pre style="{PRE_STYLE}">{html.escape(t)}</pre>') for t in labels],
            selected_index=0)
        links.append(widgets.jslink((slider, "value"), (captions, "selected_index")))
        children.append(captions)
    return FramesWidget(widgets.VBox(children), slider, player, stack, tuple(links), labels)
