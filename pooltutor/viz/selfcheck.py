"""Predict-then-check exercises: the student types a prediction, the widget says right or wrong.

A :class:`SelfCheck` holds a question, the expected answer (computed by the
library, never typed in by hand) and the worked computation to show after a
try.  It parses what the student typed (``5``, ``-1``, ``2, 3``, ``[2, 3]``,
``(4, 4)``, ``3.5``, ``nan``, ``-inf``), compares exactly, and explains.

Without a kernel (exported slides or HTML) the widget cannot react; its
``static_html()`` form, a ``<details>`` element, still lets the student reveal
the answer and its computation.

>>> check = SelfCheck("Output length of I=5, K=2, S=2, pad 1, ceil_torch?", 3,
...                   explanation="ceil((5+2-2)/2)+1 = 4, the 4th window starts in the end padding -> 3")
>>> check.check("3")
(True, 'Right: 3. ceil((5+2-2)/2)+1 = 4, the 4th window starts in the end padding -> 3')
>>> check.check("4")[0]
False
>>> check.check("four")
(False, "Could not read 'four': type a number, or numbers separated by commas")
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["SelfCheck", "parse_answer"]

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def parse_answer(text: str):
    """Read a typed answer: one number, or several separated by commas / spaces.

    >>> parse_answer("[2, 3]"), parse_answer("5"), parse_answer("-inf"), parse_answer("2.5")
    ((2, 3), 5, -inf, 2.5)
    """
    if not isinstance(text, str):
        raise ValueError(f"answer={text!r}: need text")
    cleaned = text.strip().strip("[](){}").replace(";", ",")
    parts = [p for p in re.split(r"[,\s]+", cleaned) if p]
    if not parts:
        raise ValueError("empty answer")
    values = []
    for p in parts:
        low = p.lower()
        if low in ("nan",):
            values.append(math.nan)
        elif low in ("inf", "+inf", "infinity"):
            values.append(math.inf)
        elif low in ("-inf", "-infinity"):
            values.append(-math.inf)
        elif _NUMBER.match(p):
            v = float(p)
            values.append(int(v) if v.is_integer() and "." not in p and "e" not in low else v)
        else:
            raise ValueError(p)
    return values[0] if len(values) == 1 else tuple(values)


def _normalise(value) -> tuple:
    arr = np.asarray(value, dtype=float).ravel()
    return tuple(float(v) for v in arr)


def _equal(a, b) -> bool:
    x, y = _normalise(a), _normalise(b)
    if len(x) != len(y):
        return False
    return all((math.isnan(p) and math.isnan(q)) or p == q for p, q in zip(x, y))


def _show(value) -> str:
    if isinstance(value, (tuple, list, np.ndarray)):
        return ", ".join(_show(v) for v in np.asarray(value).ravel().tolist())
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class SelfCheck:
    """One predict-then-check exercise.

    Parameters
    ----------
    question : str
        What to predict (HTML allowed).
    expected : number or sequence of numbers
        The right answer, computed by pooltutor in the notebook.
    explanation : str
        The worked computation shown after any try (e.g. a result's
        ``explain()`` or a geometry's ``describe()``).
    hint : str
        Shown after a wrong try.
    """

    question: str
    expected: Any
    explanation: str = ""
    hint: str = ""
    tries: int = field(default=0, init=False)
    _widget: Any = field(default=None, init=False, repr=False)

    def __post_init__(self):
        # a bad expected answer must fail here, not later inside the Check button's callback
        try:
            if self.expected is None:
                raise TypeError
            _normalise(self.expected)
        except (TypeError, ValueError):
            raise TypeError(f"expected={self.expected!r} has type {type(self.expected).__name__}: "
                            f"need a number or a sequence of numbers") from None

    def check(self, text: str) -> tuple[bool, str]:
        """Compare a typed answer with the expected one; returns ``(right, message)``."""
        try:
            answer = parse_answer(text)
        except ValueError:
            return False, f"Could not read {text.strip()!r}: type a number, or numbers separated by commas"
        self.tries += 1
        right = _equal(answer, self.expected)
        expected = _show(self.expected)
        if right:
            message = f"Right: {expected}."
        else:
            message = f"Not quite: you said {_show(answer)}, the answer is {expected}."
            if self.hint:
                message += f" Hint: {self.hint}"
        if self.explanation:
            message += " " + self.explanation if "\n" not in self.explanation else "\n" + self.explanation
        return right, message

    # ------------------------------------------------------------------ widget
    @property
    def widget(self):
        """The ipywidgets form: question, a text box, a Check button and the feedback."""
        if self._widget is None:
            import ipywidgets as widgets

            question = widgets.HTML(f"<b>Predict:</b> {self.question}")
            box = widgets.Text(placeholder="your prediction", layout=widgets.Layout(width="16em"))
            button = widgets.Button(description="Check", button_style="primary",
                                    layout=widgets.Layout(width="7em"))
            feedback = widgets.HTML("")

            def on_check(_=None):
                right, message = self.check(box.value)
                color = "#2ca02c" if right else "#d62728"
                mark = "&#10004;" if right else "&#10008;"
                feedback.value = (f"<div style='color:{color};font-weight:bold'>{mark} "
                                  f"{html.escape(message.splitlines()[0])}</div>"
                                  + (f"<pre style='margin:0.3em 0'>{html.escape(chr(10).join(message.splitlines()[1:]))}</pre>"
                                     if "\n" in message else ""))

            button.on_click(on_check)
            box.continuous_update = False
            box.observe(lambda change: on_check() if change["name"] == "value" and change["new"] else None,
                        names="value")
            self._widget = widgets.VBox([question, widgets.HBox([box, button]), feedback],
                                        layout=widgets.Layout(border="1px solid #ccc", padding="6px",
                                                              margin="6px 0"))
            self._widget.add_class("pooltutor-selfcheck")
            self._box, self._button, self._feedback = box, button, feedback
        return self._widget

    def static_html(self) -> str:
        """A kernel-free form for exported slides: the question and a 'Show answer' element."""
        return (f"<div class='pooltutor-selfcheck-static'><b>Predict:</b> {self.question}"
                f"<details><summary>Show answer</summary><b>{html.escape(_show(self.expected))}</b>"
                f"<pre>{html.escape(self.explanation)}</pre></details></div>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        bundle = dict(bundle or {})
        bundle["text/html"] = self.static_html()
        bundle["text/plain"] = f"SelfCheck({self.question!r})"
        return bundle
