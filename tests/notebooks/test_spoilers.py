"""No exercise shows its answer before it is asked.

A :class:`~pooltutor.viz.selfcheck.SelfCheck` puts its answer, machine-readable,
in its display output (mime type :data:`~pooltutor.viz.selfcheck.ANSWER_MIME`).
In each executed notebook (the session fixture ``executed`` of conftest.py, shared
with test_notebooks.py, so nothing runs twice), the text that earlier cells of the
same section showed is searched for that answer: printed streams, ``text/plain``
and ``text/html`` results, and the text of the widgets they show (labels, HTML,
captions of static explorers).  A section runs from one markdown heading to the
next.  Pictures are searched only through such text (a PNG is not read).

What counts as "the answer appears": for an answer of several numbers, the same
numbers in a row in the text's numbers (``O = 3, B = 1, A = 0`` holds ``3, 1, 0``);
for one number, the number as a token of an array print (``[1 6 21 19]``) or
after ``=``, ``:``, ``->`` (``6 -> 5 windows``).  Small single-digit answers are
matched only in the second form, so that an ``O = 3`` anywhere is a spoiler, but
any ``3`` in a table is not.
"""

from __future__ import annotations

import html
import re

import pytest

from pooltutor.viz.selfcheck import ANSWER_MIME

pytest.importorskip("jupytext")
pytest.importorskip("nbclient")

from notebook_execution import SOURCES  # noqa: E402

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_NUM = r"[-\u2212]?(?:\d+(?:\.\d+)?|inf|nan)"
_TAG = re.compile(r"<[^>]+>")


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _widget_text(model_id: str, state: dict, seen: set) -> list[str]:
    """The text a widget view shows: its value/description/caption, and its children's."""
    if model_id in seen or model_id not in state:
        return []
    seen.add(model_id)
    s = state[model_id].get("state", {})
    found = [s[k] for k in ("value", "description", "placeholder", "tooltip")
             if isinstance(s.get(k), str)]
    for child in s.get("children", []) or []:
        if isinstance(child, str) and child.startswith("IPY_MODEL_"):
            found += _widget_text(child[len("IPY_MODEL_"):], state, seen)
    titles = s.get("_titles") or s.get("titles") or []
    found += [str(t) for t in (titles.values() if isinstance(titles, dict) else titles) if t]
    return found


def shown_text(cell, state: dict) -> str:
    """Everything a code cell showed as text, HTML tags removed."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(_text(out.get("text", "")))
            continue
        data = out.get("data", {})
        if ANSWER_MIME in data:          # a SelfCheck's own output shows its question only
            parts.append(data[ANSWER_MIME]["question"])
            continue
        for mime in ("text/plain", "text/html", "text/markdown"):
            if mime in data:
                parts.append(html.unescape(_TAG.sub(" ", _text(data[mime]))))
        if WIDGET_VIEW in data:
            parts += _widget_text(data[WIDGET_VIEW]["model_id"], state, set())
    return "\n".join(parts)


def _numbers(text: str) -> list[str]:
    return [n.replace("\u2212", "-") for n in re.findall(_NUM, text.replace("\u2212", "-"))]


def reveals(text: str, values: list[str]) -> bool:
    """Does *text* show the answer *values* (the SelfCheck's numbers, as strings)?

    >>> reveals("SAME_LOWER: O = 3, B = 1, A = 0", ["3", "1", "0"])
    True
    >>> reveals("[1 1 6 11 12 13 21 19]", ["21"]), reveals("6 -> 5 windows", ["5"])
    (True, True)
    >>> reveals("| 3 | 4 |", ["3"]), reveals("O = 13", ["3"]), reveals("shape (2, 3, 5)", ["3", "5"])
    (False, False, True)
    """
    text = text.replace("\u2212", "-")
    norm = [v[:-2] if v.endswith(".0") else v for v in values]
    if len(norm) > 1:
        nums = [n[:-2] if n.endswith(".0") else n for n in _numbers(text)]
        k = len(norm)
        return any(nums[i:i + k] == norm for i in range(len(nums) - k + 1))
    (v,) = norm
    value = re.escape(v)
    after_sign = rf"(?:=|:|->|\u2192)\s*{value}(?![\d.])"
    if re.search(after_sign, text):
        return True
    if len(v.lstrip("-")) >= 2 or "." in v or "inf" in v or "nan" in v:
        return bool(re.search(rf"(?<![\w.\-]){value}(?![\w.])", text))
    return False


#: Reviewed matches that are a worked example of the same rule on *other* numbers, not the
#: question's answer: ``(notebook, start of the question, why)``.  Keep this list short.
REVIEWED = {
    ("01_window_placement.py", "Input positions read by window 2"):
        "the I=8, S=1 example's window 3 also reads (3, 5, 7); the question is I=9, S=2, padding 1",
    ("01_window_placement.py", "Output 0 of max pooling [-inf, 2]"):
        "the worked example is an all-padding window with dilation 3; the question asks the rule again",
    ("04_adaptive_pooling.py", "Adaptive 11 -> 3 and its workaround k=5, s=3"):
        "the 1 matched is the stride in 'fixed pool k=4 s=1' of the 7 -> 4 example, not a count",
    ("02_output_size_rounding.py", "Output length with rounding='ceil' for I=7, K=3, S=2"):
        "the picture above (its alt text) is I=6, whose ceil length is 3 as well; the question "
        "is I=7",
    ("02b_one_model_six_runtimes.py", "TV04 ([1..6], K=1, S=2, no padding): output length"):
        "the picture above is TV03 (I=5, K=2, padding 1), whose floor length is 3; TV04 has no "
        "padding and asks about the clip",
    ("04_adaptive_pooling.py", "Workaround kernel and stride for adaptive pooling 10 -> 3"):
        "the 4 and 3 matched are 'O = 4' and '7 % 4 = 3' of the 7 -> 4 example's picture",
    ("05b_requantization_rounding.py", "TV32: output (2, 2) of the quantized max pool"):
        "100 is printed as one of the input codes; which code the padded corner window returns "
        "(skip vs lowest code) is the question",
}


def spoilers(nb, name: str = "") -> list[str]:
    """Every SelfCheck whose answer an earlier cell of its section showed."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    found, section, heading = [], [], "(top)"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            title = next((ln for ln in cell.source.splitlines() if ln.startswith("#")), None)
            if title:
                section, heading = [], title
            continue
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            answer = out.get("data", {}).get(ANSWER_MIME)
            if answer is None or any(name == n and answer["question"].startswith(q)
                                     for n, q in REVIEWED):
                continue
            for j, earlier in section:
                if reveals(earlier, answer["values"]):
                    found.append(f"cell {i} ({answer['question'][:60]!r}, "
                                 f"answer {answer['answer']}) "
                                 f"is answered by cell {j} of section {heading!r}: "
                                 f"{earlier.strip()[:200]!r}")
                    break
        section.append((i, shown_text(cell, state)))
    return found


def test_spoilers_finds_an_answer_printed_before_its_question():
    import nbformat.v4 as v4

    check = v4.new_output("display_data", data={ANSWER_MIME: {"question": "q", "answer": "21",
                                                              "values": ["21"]}})
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("## 1. A section"),
        v4.new_code_cell("print(i)", outputs=[v4.new_output("stream", name="stdout",
                                                            text="[1 1 6 11 12 13 21 19]\n")]),
        v4.new_code_cell("SelfCheck(...)", outputs=[check]),
        v4.new_markdown_cell("## 2. The next section"),
        v4.new_code_cell("SelfCheck(...)", outputs=[check]),
    ])
    assert len(spoilers(nb)) == 1 and "cell 2" in spoilers(nb)[0]
    nb.cells[1], nb.cells[2] = nb.cells[2], nb.cells[1]      # question first: no spoiler
    assert spoilers(nb) == []


@pytest.mark.parametrize("name", [p.name for p in SOURCES])
def test_no_answer_is_shown_before_its_question(executed, name):
    nb, exc, _ = executed[name]
    if exc is not None:
        pytest.fail(f"{name} did not run to the end:\n{exc}")
    found = spoilers(nb, name)
    assert not found, f"{name}: answers visible before the question:\n" + "\n".join(found)


def test_every_self_check_carries_its_answer(executed):
    count = sum(1 for nb, _, _ in executed.values() for c in nb.cells
                for out in c.get("outputs", []) if ANSWER_MIME in out.get("data", {}))
    assert count >= 3 * len(executed)
