"""The predict-then-check widget used by every notebook exercise."""

import math

import pytest

from pooltutor.viz.selfcheck import SelfCheck, parse_answer


@pytest.mark.parametrize("text, value", [
    ("5", 5), (" -1 ", -1), ("2, 3", (2, 3)), ("[2, 3]", (2, 3)), ("(4 4)", (4, 4)),
    ("3.5", 3.5), ("-inf", -math.inf), ("1e3", 1000.0), ("2;3", (2, 3)),
])
def test_parse_answer(text, value):
    assert parse_answer(text) == value


def test_parse_nan():
    assert math.isnan(parse_answer("NaN"))


@pytest.mark.parametrize("text", ["", "five", "2,,x", "[]"])
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        parse_answer(text)


def test_check_right_wrong_and_unreadable():
    c = SelfCheck("size?", (5, 5), explanation="M = 11", hint="count the windows")
    ok, msg = c.check("5, 5")
    assert ok and msg.startswith("Right: 5, 5.") and "M = 11" in msg
    ok, msg = c.check("5")
    assert not ok and "the answer is 5, 5" in msg and "Hint: count the windows" in msg
    ok, msg = c.check("abc")
    assert not ok and msg.startswith("Could not read")
    assert c.tries == 2                   # unreadable input is not a try


def test_nan_and_inf_answers_compare():
    assert SelfCheck("?", float("nan")).check("nan")[0]
    assert SelfCheck("?", -math.inf).check("-inf")[0]
    assert not SelfCheck("?", -math.inf).check("0")[0]


def test_widget_wiring_typing_answers():
    c = SelfCheck("index?", 7, explanation="row 1, col 1 -> 1*4+3")
    c.widget
    c._box.value = "7"
    assert "Right" in c._feedback.value and "#2ca02c" in c._feedback.value
    c._box.value = "6"
    assert "Not quite" in c._feedback.value and "#d62728" in c._feedback.value
    c._button.click()
    assert "Not quite" in c._feedback.value


def test_static_html_reveals_answer_without_kernel():
    html = SelfCheck("x < y?", 3, explanation="a < b").static_html()
    assert "<details>" in html and "<b>3</b>" in html and "a &lt; b" in html
