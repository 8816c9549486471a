"""The choice reader's speed shortcuts give what the slower way they skip gives (bench/check_readings_same.py checks
whole readings against an earlier tree; these check each shortcut on the inputs where it could differ)."""

from __future__ import annotations

import random

import pytest

from mathreel.core.extract import choice, conflicts
from mathreel.core.extract.choice import OptionMatcher

_ALPHABET = "aAnNtThHeE0123456789. _-,x\\b'’(:)$=+/"


def _samples(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 14))) for _ in range(count)]


def test_the_ascii_token_pattern_finds_what_the_unicode_one_finds() -> None:
    texts = [*_samples(1, 20_000), "the man opens a red box 12.5 times", "an then thee a.b 3.4.5 x_y 12abc abc12"]
    for text in texts:
        assert choice._ASCII_TOKENS.findall(text) == choice._TOKENS.findall(text), text


def test_digit_test_and_option_mapping_methods_agree_with_the_slow_forms() -> None:
    for text in [*_samples(2, 2_000), "²", "x٣", "Ⅻ", ""]:
        assert choice._has_digit(text) == any(c.isdigit() for c in text), text
    matcher = OptionMatcher({"A": "12 km", "B": "The man waves 3 times"})
    assert list(matcher.items()) == [("A", "12 km"), ("B", "The man waves 3 times")]
    assert "A" in matcher and "C" not in matcher and matcher.get("C") is None and matcher.get("B") == matcher["B"]
    assert list(matcher.keys()) == ["A", "B"] and list(matcher.values()) == ["12 km", "The man waves 3 times"]


@pytest.mark.parametrize(
    "text",
    [
        "The man waves 3 times",
        "  x = 3",
        "\\frac{\\sqrt{3}}{12}",
        "3√3/4",
        "(1/4, 0)",
        "30^\\circ",
        "π/2",
        " $\\frac{1}{2}$",
        "pi",
        "e 2",
        "°5",
        "\\p°i",
        "",
    ],
)
def test_expression_value_shortcut_agrees_with_the_full_parse(text: str) -> None:
    assert conflicts.expression_value(text) == conflicts._expression_value(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm sorry, but I cannot determine this from the frames provided.",
        "I am unable to see the video.",
        "I cannot tell from the clip.",
        "As an AI, I have no eyes.",
        "It is not possible to determine the answer.",
        "No frames were provided.",
        "The frames up to 0:00:05 do not show enough to decide.",
        "I could not watch it.",
        "抱歉，我无法确定。",
        "I'm ſorry",
    ],
)
def test_refusal_gate_never_hides_a_refusal(text: str) -> None:
    found, full = choice._refusal(text), choice._REFUSAL.search(text)
    assert (found and found.span()) == (full and full.span())


@pytest.mark.parametrize(
    ("text", "pos"),
    [
        ("Based on the video, the man opens a red box 12 times. Therefore, the answer is A.", 72),
        ("The speed is 120 / 2 = 60 km/h. So the answer is C.", 36),
        ("so the total will be $96.40. Thus the answer is B.", 37),
        ("We add them. Hence the total is 12. The answer is D.", 36),
        ("x = 4. so the ", 14),
        ("Thus. the ", 10),
        ("The sum is 10 so. ", 18),
    ],
)
def test_sentence_before_shortcut_agrees_with_the_lead_in_search(text: str, pos: int) -> None:
    head = text[:pos]
    lead = choice._lead_in(head, max(0, len(head) - choice._LEAD_IN_MAX))
    slow = choice._computing(head[: lead.start()].rstrip() if lead else head.rstrip())
    assert choice._sentence_before(text, pos) == slow


@pytest.mark.parametrize(
    "line",
    [
        "This matches option (C) 80 km/h.",
        "That corresponds to choice B.",
        "It gives the answer D",
        "So it is  the\toption A.",
        "The other options do not match what happens.",
        "The value is 12, the answer.",
        "This matches ſomething: option C",
        "which is option E",
    ],
)
def test_restated_gate_never_hides_a_restated_letter(line: str) -> None:
    found, full = choice._restated(line), choice._RESTATED.search(line)
    assert (found and found.span()) == (full and full.span())
