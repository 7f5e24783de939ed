"""No exception escapes any widget callback, whatever the controls say (issue 10).

Every explorer is driven the way a browser drives it: control changes arrive
as comm ``update`` messages (:func:`from_browser`, through
``Widget._handle_msg``) and buttons are clicked through their callback
dispatcher.  ipywidgets catches what a callback raises on those paths and only
*logs* it, so a broken callback would go unnoticed; the ``logged`` fixture
collects every such record (on the root and ``traitlets`` loggers) and each
step asserts there is none.  After every step the explorer must be settled:
either a current picture and an empty error label, or a reason (not an
"internal error") shown in the error label.

The sweeps complement the samples in tests/viz/test_padding_explorer.py and
tests/viz/test_index_layouts.py (which set ``.value`` from Python):
here every control goes through its whole range (a grid with both ends and
their neighbours for long ranges) from the default state, from the state with
every control at its minimum and from the one with every control at its
maximum, then through seeded random combinations.
"""

from __future__ import annotations

import contextlib
import html
import logging
import random

import ipywidgets as widgets
import numpy as np
import pytest

from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer
from pooltutor.viz.index_explorer import IndexLayoutExplorer
from pooltutor.viz.padding_explorer import MODE_SETS, PaddingModeExplorer
from pooltutor.viz.relu_explorer import ZeroPointReluExplorer
from pooltutor.viz.selfcheck import SelfCheck
from pooltutor.viz.window_stepper import WindowStepper

PNG = b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- harness

@pytest.fixture
def logged():
    """Log records of exceptions ipywidgets / traitlets swallowed (WARNING and above)."""
    records: list[logging.LogRecord] = []

    class Collect(logging.Handler):
        def emit(self, record):
            if record not in records:          # seen on both loggers when it propagates
                records.append(record)

    handler = Collect(level=logging.WARNING)
    loggers = [logging.getLogger(), logging.getLogger("traitlets")]
    for lg in loggers:
        lg.addHandler(handler)
    yield records
    for lg in loggers:
        lg.removeHandler(handler)


def from_browser(widget, value) -> None:
    """Deliver ``value`` as the frontend does: a comm ``update`` message (selection widgets
    send the option's ``index``)."""
    if isinstance(widget, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons)):
        values = [v for _, v in widget._options_full] if widget._options_full else []
        state = {"index": values.index(value)}
    else:
        state = {"value": value}
    widget._handle_msg({"content": {"data": {"method": "update", "state": state}},
                        "buffers": []})


def click(button) -> None:
    """A click from the browser (Button's custom message -> its callback dispatcher)."""
    button._handle_custom_msg({"event": "click"}, [])


def grid(widget, long: int = 12) -> list:
    """Every value of a control, or for a long range both ends, their neighbours and a grid."""
    if isinstance(widget, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons)):
        return [v for _, v in widget._options_full]
    if isinstance(widget, widgets.Checkbox):
        return [True, False]
    if isinstance(widget, widgets.FloatLogSlider):
        exps = np.arange(widget.min, widget.max + widget.step / 2, widget.step)
        if exps.size > long:
            inner = exps[np.linspace(0, exps.size - 1, max(long - 4, 0)).round().astype(int)]
            exps = np.unique(np.r_[exps[:2], exps[-2:], inner])
        return [float(widget.base ** e) for e in exps]
    lo, hi, step = widget.min, widget.max, getattr(widget, "step", 1) or 1
    values = list(range(lo, hi + 1, step))
    if len(values) > long:
        inner = np.linspace(lo, hi, long - 4).round().astype(int).tolist()
        values = sorted({lo, lo + step, hi - step, hi, *inner})
    return values


def extreme(widget, which: str):
    values = grid(widget)
    return values[0] if which == "min" else values[-1]


def settled(explorer, logged, what="") -> None:
    """Nothing was swallowed, and the explorer shows either a picture or a reason."""
    assert not logged, (what, [r.getMessage() for r in logged])
    if explorer.error is None:
        assert explorer.error_label.value == "", what
        assert bytes(explorer.image.value[:8]) == PNG, what
    else:
        assert "internal error" not in explorer.error, (what, explorer.error)
        assert html.escape(explorer.error) in explorer.error_label.value, what
        assert explorer.error.strip(), what


@contextlib.contextmanager
def unrendered(explorer, stub=True):
    """Skip the PNG encoding of the updates inside (drawing still runs)."""
    if not stub:
        yield
        return
    render = explorer.render
    explorer.render = lambda: b""
    try:
        yield
    finally:
        explorer.render = render


def set_all(explorer, pairs, logged, what):
    """Set several controls from the browser, in order; only the last update renders its
    picture.  A value may be a function of the widget, called when its turn comes (options
    and bounds follow the controls set before)."""
    pairs = list(pairs)
    for i, (w, v) in enumerate(pairs):
        with unrendered(explorer, i < len(pairs) - 1):
            from_browser(w, v(w) if callable(v) else v)
        assert not logged, (what, [r.getMessage() for r in logged])
    settled(explorer, logged, what)


def sweep(explorer, controls, logged, *, long=12, combos=6, seed=0, fast=(),
          bases=("default", "min", "max"), swept=None):
    """Every control through its grid from each of ``bases`` (the constructor's state, every
    control at its minimum, every control at its maximum), then random combinations.

    The min and max states are always visited; ``bases`` says from which of them every
    control also goes through its whole grid.  ``fast`` lists controls swept with the PNG
    encoding stubbed out (drawing still runs; the picture is rendered at every base state
    and combination).  ``swept`` (default: all) limits the grids to some controls; every
    control still takes part in the min / max states and the combinations.  Returns the
    set of distinct error messages seen.
    """
    errors = set()
    swept = controls if swept is None else swept

    def note():
        if explorer.error is not None:
            errors.add(explorer.error)

    for base in ("default", "min", "max"):
        if base != "default":
            set_all(explorer, [(w, lambda w, b=base: extreme(w, b)) for w in controls], logged,
                    base)
            note()
        if base not in bases:
            continue
        for w in swept:
            start = w.value
            with unrendered(explorer, w in fast):
                for v in grid(w, long):
                    from_browser(w, v)
                    if w in fast:
                        assert not logged, [r.getMessage() for r in logged]
                    else:
                        settled(explorer, logged, f"{base}: {w.description}={v!r}")
                    note()
            values = grid(w, long)
            from_browser(w, start if start in values else values[0])   # back where it was
            settled(explorer, logged, f"{base}: {w.description} back")
    rng = random.Random(seed)
    for i in range(combos):
        order = rng.sample(list(controls), len(controls))
        set_all(explorer, [(w, lambda w: rng.choice(grid(w, long))) for w in order], logged,
                f"combination {i}")
        note()
    return errors


def test_harness_sees_what_ipywidgets_swallows(logged):
    """The fixture catches an exception raised in a callback on the browser's paths."""
    slider = widgets.IntSlider(value=1, min=0, max=5)
    button = widgets.Button()

    def boom(change):
        raise RuntimeError("callback failed")

    slider.observe(boom, names="value")
    button.on_click(lambda b: boom(None))
    from_browser(slider, 3)
    assert slider.value == 3 and len(logged) == 1 and "callback failed" in str(logged[0].exc_info)
    click(button)
    assert len(logged) == 2
    dropdown = widgets.Dropdown(options=[("one", 1), ("two", 2)], value=1)
    from_browser(dropdown, 2)
    assert dropdown.value == 2
    assert grid(widgets.IntSlider(min=-128, max=127))[:2] == [-128, -127]
    assert grid(widgets.IntSlider(min=-128, max=127))[-2:] == [126, 127]


# --------------------------------------------------------------------------- explorers

def test_window_stepper_sweep(logged):
    s = WindowStepper(ndim=2, size=4, dpi=20)
    errors = sweep(s, s.params, logged, combos=5, bases=("default", "max"))
    assert any("does not fit" in e for e in errors)            # window beyond the padded input
    assert any("PyTorch" in e for e in errors)                  # limits='PyTorch' refusals
    # positions and buttons at both ends of every valid picture
    for size, window, stride in ((1, 1, 1), (12, 6, 4), (5, 2, 3)):
        for w, v in ((s.size, size), (s.window, window), (s.stride, stride),
                     (s.limits, "none"), (s.dilation, 1), (s.pad_before, 0),
                     (s.pad_after, 0)):
            from_browser(w, v)
        settled(s, logged)
        assert s.error is None
        for position in (s.position.max, 0):
            from_browser(s.position, position)
            settled(s, logged)
            for button in (s.next_button, s.prev_button, s.prev_button, s.next_button):
                click(button)
                settled(s, logged)
        assert s.out_index == (0, 1) or s.position.max == 0
    # the Play widget drives the position through the link
    from_browser(s.play, s.play.max)
    assert s.position.value == s.position.max
    settled(s, logged)
    # buttons keep working, and explain nothing new, while the controls are invalid
    from_browser(s.size, 1)
    from_browser(s.window, 6)
    assert "does not fit" in s.error
    keep = s.explain_text
    click(s.next_button)
    click(s.prev_button)
    settled(s, logged)
    assert s.explain_text == keep


def test_window_stepper_one_dimensional_extremes(logged):
    s = WindowStepper(np.array([3.0, -np.inf, np.nan, 7.0, 0.0]), window=2, stride=1, dpi=20)
    assert s.size.disabled
    errors = sweep(s, [w for w in s.params if w is not s.size], logged, combos=3, seed=1,
                   bases=("default", "max"))
    assert errors and all("does not fit" in e or "PyTorch" in e for e in errors)


def test_padding_mode_explorer_sweep(logged):
    e = PaddingModeExplorer(dpi=20)
    errors = sweep(e, (*e.params, e.mode_set, e.explain_mode), logged, combos=5,
                   fast=(e.explain_mode,), bases=("max",))
    assert errors == set()                   # the sliders keep every combination drawable
    # each rejected mode states its reason in its own row, and in the explain box when chosen
    for mode_set in MODE_SETS:
        from_browser(e.mode_set, mode_set)
        for w, v in ((e.input_size, 1), (e.window, 7), (e.pre_padding, 0), (e.post_padding, 0),
                     (e.dilation, 3)):
            from_browser(w, v)
        settled(e, logged)
        fixed_padding = {m for m in MODE_SETS[mode_set] if not m.startswith("SAME")}
        assert set(e.state["rejected"]) == fixed_padding      # SAME modes pad to fit
        for mode in fixed_padding:
            from_browser(e.explain_mode, mode)
            assert e.explain_text.startswith(f"{mode} rejects these parameters")
            assert e.state["rejected"][mode] in e.explain_text
        shown = " ".join(" ".join(e.plot.labels[m]) for m in fixed_padding)
        assert "does not fit" in shown                       # the reasons, in their rows


def test_padding_mode_explorer_made_with_huge_values_shows_why(logged):
    e = PaddingModeExplorer(input_size=10**6, dpi=20)
    assert e.error is not None and "would draw rows of up to" in e.error
    settled(e, logged)
    from_browser(e.input_size, 6)
    settled(e, logged)
    assert e.error is None


def test_index_layout_explorer_sweep(logged):
    e = IndexLayoutExplorer(np.arange(24.0).reshape(2, 2, 2, 3), dpi=20)
    controls = (e.n, e.c, e.kernel, e.stride, e.padding, e.pad_taps, *e.out)
    errors = sweep(e, controls, logged, long=6, combos=4, fast=(e.n, e.c, *e.out, e.pad_taps),
                   bases=("default", "max"))
    assert any("does not fit" in m for m in errors)


def test_adaptive_bins_explorer_sweep(logged):
    e = AdaptiveBinsExplorer(dpi=20)
    controls = (e.ndim, *e.in_size, *e.out_size, *e.cell, e.op, e.show_fixed)
    errors = sweep(e, controls, logged, long=4, combos=2, fast=(*e.cell, e.op, e.show_fixed),
                   bases=("default",))
    assert errors == set()                                   # every combination is drawable


def test_zero_point_relu_explorer_sweep(logged):
    e = ZeroPointReluExplorer(dpi=20)
    controls = (e.preset, e.dtype, e.zero_point, e.multiplier, e.rounding, e.scale, e.kernel,
                e.stride, *e.cell)
    errors = sweep(e, controls, logged, long=4, combos=2, fast=(e.dtype, e.zero_point),
                   bases=("default",), swept=(e.preset, e.dtype, e.zero_point, e.kernel,
                                              e.stride))
    # the remaining controls through their grids with the PNG encoding left out
    with unrendered(e):
        for w in (e.multiplier, e.rounding, e.scale, *e.cell):
            for v in grid(w, 4):
                from_browser(w, v)
                assert not logged and (e.error is None or "internal" not in e.error)
    assert any("does not fit" in m for m in errors)          # a pool kernel beyond the preset


# --------------------------------------------------------------------------- SelfCheck

ANSWERS = ["", " ", "5", "-1", "2, 3", "[2, 3]", "(4,4)", "3.5", "nan", "NaN", "-inf", "inf",
           "four", "1e999", "-1e999", "1" * 400, "0x10", "--5", "[", ",", ";;", "2 3 4 5 6 7 8",
           "∞", "５", "<script>alert(1)</script>", "\n\t", "1;2", "1e-400"]


@pytest.mark.parametrize("expected", [5, -1, (2, 3), 3.5, float("nan"), float("-inf"),
                                      np.array([[1, 2], [3, 4]]), np.int64(7), np.float32(0.1)])
def test_selfcheck_any_typed_answer(expected, logged):
    check = SelfCheck("Predict <b>it</b>", expected, explanation="line 1\nline 2", hint="h")
    w = check.widget
    feedback = check._feedback
    for answer in ANSWERS:
        from_browser(check._box, answer)
        assert not logged, (answer, [r.getMessage() for r in logged])
        click(check._button)
        assert not logged, (answer, [r.getMessage() for r in logged])
        if answer.strip():
            assert feedback.value.startswith("<div"), answer
            assert "<script>" not in feedback.value          # the answer is escaped
    assert check.tries > 0 and w is check.widget
    assert "Show answer" in check.static_html()
