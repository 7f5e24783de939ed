"""Predict-then-check exercises: the student types a prediction, the widget says right or wrong.

A :class:`SelfCheck` holds a question, the expected answer (computed by the
library, never typed in by hand) and the worked computation to show after a
try.  It parses what the student typed (``5``, ``-1``, ``2, 3``, ``[2, 3]``,
``(4, 4)``, ``75 x 64``, ``75 × 64``, ``3.5``, ``nan``, ``-inf``, the Unicode
minus of ``−60``), compares exactly, and teaches in two steps: a first wrong
try shows the hint only (the student tries again); the answer and its
explanation come with a right answer, a second wrong try, or the "Show
answer" button (:meth:`SelfCheck.reveal`).

Without a kernel (exported slides or HTML) the widget cannot react; its
``static_html()`` form, a ``<details>`` element, still lets the student reveal
the answer and its computation.

>>> check = SelfCheck("Output length of I=5, K=2, S=2, pad 1, ceil_torch?", 3,
...                   explanation="ceil((5+2-2)/2)+1 = 4, the 4th window starts in the end padding -> 3")
>>> check.check("3")
(True, 'Right: 3. ceil((5+2-2)/2)+1 = 4, the 4th window starts in the end padding -> 3')
>>> check.check("4")
(False, 'Not quite: you said 4. Try again.')
>>> check.check("5")[1].startswith("Not quite: you said 5, the answer is 3.")
True
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

__all__ = ["ANSWER_MIME", "SelfCheck", "parse_answer"]

#: mime type of the machine-readable question and answer in a SelfCheck's display output
ANSWER_MIME = "application/vnd.pooltutor.selfcheck+json"

#: characters read as a minus sign: ASCII, Unicode minus, hyphen and dashes a word processor types
_MINUSES = str.maketrans({"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-",
                          "\u2013": "-", "\u2014": "-", "\ufe63": "-", "\uff0d": "-"})
#: "75 x 64", "75 × 64", "75 * 64": a size written as a product separates its numbers
_TIMES = re.compile(r"(?<=[\d.fFnN)\]])\s*[xX×*]\s*(?=[-+\d.iInN(\[])")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def parse_answer(text: str):
    """Read a typed answer: one number, or several separated by commas, spaces or ``x``.

    >>> parse_answer("[2, 3]"), parse_answer("5"), parse_answer("-inf"), parse_answer("2.5")
    ((2, 3), 5, -inf, 2.5)
    >>> parse_answer("75 × 64"), parse_answer("75x64"), parse_answer("\u221260"), parse_answer("(75, 64)")
    ((75, 64), (75, 64), -60, (75, 64))
    """
    if not isinstance(text, str):
        raise ValueError(f"answer={text!r}: need text")
    cleaned = _TIMES.sub(",", text.translate(_MINUSES).strip())
    cleaned = cleaned.strip().strip("[](){}").replace(";", ",")
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
        The worked computation shown with the answer (e.g. a result's
        ``explain()`` or a geometry's ``describe()``).
    hint : str
        Shown after the first wrong try, without the answer; the answer and
        the explanation follow a second wrong try or :meth:`reveal`.
    """

    question: str
    expected: Any
    explanation: str = ""
    hint: str = ""
    tries: int = field(default=0, init=False)
    wrong: int = field(default=0, init=False)
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
        self.wrong += not right
        if right:
            message = f"Right: {expected}."
        elif self.wrong == 1:
            # first wrong try: the hint only, so that the second try is still a prediction
            hint = f" Hint: {self.hint}" if self.hint else ""
            return False, f"Not quite: you said {_show(answer)}.{hint} Try again."
        else:
            message = f"Not quite: you said {_show(answer)}, the answer is {expected}."
        return right, self._with_explanation(message)

    def reveal(self) -> str:
        """The answer and its explanation, on request (the "Show answer" button)."""
        return self._with_explanation(f"The answer is {_show(self.expected)}.")

    def _with_explanation(self, message: str) -> str:
        if self.explanation:
            message += " " + self.explanation if "\n" not in self.explanation else "\n" + self.explanation
        return message

    @property
    def answer_text(self) -> str:
        """The expected answer as the feedback writes it (``"75, 64"``, ``"-inf"``)."""
        return _show(self.expected)

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
            show = widgets.Button(description="Show answer", layout=widgets.Layout(width="9em"),
                                  tooltip="reveal the answer and its computation")
            feedback = widgets.HTML("")

            def render(right, message):
                color = "#2ca02c" if right else ("#d62728" if right is False else "#1f4e79")
                mark = "&#10004;" if right else ("&#10008;" if right is False else "&#9432;")
                feedback.value = (f"<div style='color:{color};font-weight:bold'>{mark} "
                                  f"{html.escape(message.splitlines()[0])}</div>"
                                  + (f"<pre style='margin:0.3em 0'>{html.escape(chr(10).join(message.splitlines()[1:]))}</pre>"
                                     if "\n" in message else ""))

            def on_check(_=None):
                render(*self.check(box.value))

            button.on_click(on_check)
            show.on_click(lambda _=None: render(None, self.reveal()))
            # continuous_update=False: the value changes on Enter (or leaving the box), so Enter submits
            box.continuous_update = False
            box.observe(lambda change: on_check() if change["name"] == "value" and change["new"] else None,
                        names="value")
            self._widget = widgets.VBox([question, widgets.HBox([box, button, show]), feedback],
                                        layout=widgets.Layout(border="1px solid #ccc", padding="6px",
                                                              margin="6px 0"))
            self._widget.add_class("pooltutor-selfcheck")
            self._box, self._button, self._show, self._feedback = box, button, show, feedback
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
        # machine-readable, for tools that read executed notebooks (the spoiler test)
        bundle[ANSWER_MIME] = {"question": self.question, "answer": self.answer_text,
                               "values": [_show(v) for v in np.asarray(self.expected, dtype=float).ravel().tolist()]}
        return bundle
