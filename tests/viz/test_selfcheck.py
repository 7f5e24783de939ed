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
    ok, msg = c.check("abc")
    assert not ok and msg.startswith("Could not read")
    assert c.tries == 1                   # unreadable input is not a try


def test_first_wrong_try_gives_the_hint_only():
    c = SelfCheck("size?", (5, 5), explanation="M = 11", hint="count the windows")
    ok, msg = c.check("5")
    assert not ok and "Hint: count the windows" in msg and "Try again" in msg
    assert "5, 5" not in msg and "M = 11" not in msg          # no answer, no explanation yet
    ok, msg = c.check("4, 4")
    assert not ok and "the answer is 5, 5" in msg and "M = 11" in msg
    assert "Hint" not in msg


def test_first_wrong_try_without_hint_hides_the_answer():
    ok, msg = SelfCheck("?", 21, explanation="row 1").check("20")
    assert not ok and "21" not in msg and "row 1" not in msg and "Try again" in msg


def test_reveal_gives_answer_and_explanation_before_any_try():
    c = SelfCheck("?", -60, explanation="-118.8 -> -119")
    assert c.reveal() == "The answer is -60. -118.8 -> -119"
    assert c.tries == 0


@pytest.mark.parametrize("text", ["75 x 64", "75 × 64", "(75, 64)", "75,64", "75x64", "75 X 64",
                                  "[75 64]", "75 * 64"])
def test_size_spellings_are_accepted(text):
    assert parse_answer(text) == (75, 64)
    assert SelfCheck("shape?", (75, 64)).check(text)[0]


@pytest.mark.parametrize("text, value", [("\u221260", -60), ("\u2212inf", -math.inf),
                                         ("\u221260 \u00d7 \u22122", (-60, -2)), ("\u20133", -3)])
def test_unicode_minus_is_accepted(text, value):
    assert parse_answer(text) == value
    assert SelfCheck("?", value).check(text)[0]


@pytest.mark.parametrize("text", ["x", "75 x", "x 64", "75 xx 64"])
def test_times_sign_alone_is_not_a_number(text):
    with pytest.raises(ValueError):
        parse_answer(text)


def test_nan_and_inf_answers_compare():
    assert SelfCheck("?", float("nan")).check("nan")[0]
    assert SelfCheck("?", -math.inf).check("-inf")[0]
    assert not SelfCheck("?", -math.inf).check("0")[0]


def test_widget_wiring_typing_answers():
    c = SelfCheck("index?", 7, explanation="row 1, col 1 -> 1*4+3")
    c.widget
    c._box.value = "7"
    assert "Right" in c._feedback.value and "#2ca02c" in c._feedback.value
    c._box.value = "6"                      # Enter in the box submits (value changes on Enter)
    assert "Not quite" in c._feedback.value and "#d62728" in c._feedback.value
    assert "1*4+3" not in c._feedback.value   # first wrong try: no explanation
    c._button.click()
    assert "the answer is 7" in c._feedback.value and "1*4+3" in c._feedback.value


def test_widget_show_answer_button():
    c = SelfCheck("index?", 7, explanation="row 1, col 1 -> 1*4+3")
    c.widget
    assert c._box.continuous_update is False  # keyboard: Enter commits the value and checks
    c._show.click()
    assert "The answer is 7" in c._feedback.value and "1*4+3" in c._feedback.value


def test_mimebundle_carries_machine_readable_answer():
    from pooltutor.viz.selfcheck import ANSWER_MIME
    bundle = SelfCheck("shape?", (75, 64))._repr_mimebundle_()
    assert bundle[ANSWER_MIME]["answer"] == "75, 64" and bundle[ANSWER_MIME]["values"] == ["75", "64"]
    assert "Show answer" in bundle["text/html"]


def test_static_html_reveals_answer_without_kernel():
    html = SelfCheck("x < y?", 3, explanation="a < b").static_html()
    assert "<details>" in html and "<b>3</b>" in html and "a &lt; b" in html


def test_folded_collapses_long_text_and_keeps_it_in_plain_text():
    from pooltutor.viz.folded import folded
    f = folded("a < b\n" * 12, "Example 1\n explained")
    assert f._repr_html_().startswith("<details class='pooltutor-folded'><summary>Example 1 explained")
    assert "open" not in f._repr_html_().split(">")[0] and "a &lt; b" in f._repr_html_()
    assert repr(f).splitlines()[0] == "Example 1 explained (12 lines, folded)" and f.lines == 12
    with pytest.raises(ValueError, match="summary"):
        folded("x", " ")
    with pytest.raises(TypeError, match="text"):
        folded(3, "s")
