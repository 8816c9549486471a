"""The third round of reading rules: a letter stated with text that contradicts it, several final answers, option
values compared as math, hedged conclusions, bold letters, and free-form "#### 500" / "A: 500" lines and values
stated before their explanation. The labelled cases are in tests/data/readings_classes.jsonl (classes S1-S8,
run by tests/test_readings.py); these check the parts and the explanations."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice, extract_free_answer
from mathreel.core.extract.choice import OptionMatcher, extract_choice_full
from mathreel.core.extract.option_math import math_tokens, numeric_value, occurs, same_number, same_value

KM = {"A": "4 km", "B": "14 km", "C": "24 km", "D": "40 km", "E": "41 km"}


@pytest.mark.parametrize(
    ("value", "option", "agree"),
    [
        ("\\frac{5\\sqrt{2}}{3}", "5+\\sqrt{2}", False),
        ("2\\sqrt{6}", "2+\\sqrt6", False),
        ("2\\sqrt{6}", "2", False),
        ("-2", "2", False),
        ("2x", "2", False),
        ("2^3", "2", False),
        ("(2, 3)", "3", False),
        ("5\\sqrt{2}/3", "\\frac{5\\sqrt{2}}{3}", True),
        ("\\dfrac{\\sqrt3}{2}", "\\frac{\\sqrt{3}}{2}", True),
        ("2/3", "$\\frac{2}{3}$", True),
        ("\\frac23", "2/3", True),
        ("12°", "12^\\circ", True),
        ("45 degrees", "45^{\\circ}", True),
        ("3 cm", "3", True),
        ("3 m", "3", True),
        ("1,250 people", "1250", True),
        ("−4", "-4", True),
        ("2 × 7", "2 \\times 7", True),
    ],
)
def test_values_are_compared_with_their_operators(value: str, option: str, agree: bool) -> None:
    assert occurs(math_tokens(value), math_tokens(option)) is agree


def test_a_plain_number_equals_an_option_written_another_way() -> None:
    assert same_number(math_tokens("0.5"), (math_tokens("\\frac{1}{2}"), ()))
    assert same_number(math_tokens("3/4 of the tank"), (math_tokens("0.75"), ()))
    assert not same_number(math_tokens("0.5"), (math_tokens("\\frac{1}{3}"), ()))
    assert not same_number(math_tokens("1/2x"), (math_tokens("0.5"), ()))


def test_math_tokens_stay_shallow_and_short_on_hostile_input() -> None:
    assert len(math_tokens("{" * 100_000 + "1")) == 0  # cut at 160 characters: no deep recursion
    assert len(math_tokens("\\frac" * 50_000)) < 200


@pytest.mark.parametrize(
    ("response", "named"),
    [
        ("The answer is (E) 14 km.", ("option E ('41 km')", "option B's value ('14 km')")),
        ("E) 14", ("option E ('41 km')", "option B's value")),
        ("(A) 15 km", ("option A ('4 km')", "no option's value")),
    ],
)
def test_a_letter_stated_with_another_options_value_is_a_conflict_naming_both(response: str, named: tuple) -> None:
    found = extract_choice(response, tuple(KM), KM)
    assert found.answer is None and found.explanation.startswith("conflict")
    assert all(part in found.explanation for part in named), found.explanation
    assert extract_choice_full(response, tuple(KM), KM) == found


def test_a_letter_whose_text_is_a_longer_options_is_a_conflict() -> None:
    options = {"A": "Walking", "B": "Walking fast", "C": "Running"}
    assert extract_choice("A. Walking fast", tuple(options), options).answer is None
    assert extract_choice("B. Walking", tuple(options), options).answer == "B"  # B's own text, shortened
    assert extract_choice("A. walking.", tuple(options), options).answer == "A"


def test_explanations_after_the_letter_are_not_option_text() -> None:
    options = {"A": "The girl jumps", "B": "The girl waves"}
    for response in (
        "The answer is B. The girl jumps only at the start.",  # a new sentence: not what B is stated with
        "The answer is (B) because the girl jumps only at the start.",
        "Answer: B, since the girl jumps only at the start",
    ):
        assert extract_choice(response, ("A", "B"), options).answer == "B", response


def test_the_contradiction_is_kept_per_matcher_and_bounded() -> None:
    matcher = OptionMatcher(KM)
    assert matcher.contradiction("E", "14 km") == matcher.contradiction("E", "14 km")
    for n in range(2_000):
        matcher.contradiction("A", f"{n} km")
    assert len(matcher._said or {}) <= 512


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("The answer is (C).\nThe answer is (F).\n(A)\n(C)", None),
        ("The answer is B. Wait, it is D.", "D"),  # a correction overturns
        ("Not A; the answer is D.", "D"),
        ("B is true, so the answer is C.", "C"),  # reasoning, then the answer
        ("The answer is C.\nC", "C"),
        ("(D)\n(D)\n(A)\n(G)", None),
    ],
)
def test_several_final_answers_back_to_back_are_a_conflict(response: str, expected: str | None) -> None:
    letters = tuple("ABCDEFGHIJ")
    found = extract_choice(response, letters)
    assert found.answer == expected, found.explanation
    if expected is None:
        assert "conflict" in found.explanation


def test_a_hedged_conclusion_is_a_hedge_not_option_text() -> None:
    options = {"A": "increase", "B": "decrease"}
    found = extract_choice("It might increase. It all depends on the weather.", ("A", "B"), options)
    assert found.answer is None and found.explanation.startswith("hedge")


def test_a_bold_latex_letter_points_into_the_original_response() -> None:
    response = "Therefore the answer is \\textbf{B}."
    found = extract_choice(response, ("A", "B", "C", "D"))
    assert found.answer == "B" and found.span is not None
    assert "B" in response[found.span[0] : found.span[1]]


@pytest.mark.parametrize(
    ("response", "answer", "method"),
    [
        ("3 * 200 = 600\n600 - 100 = 500\nA: 500", "500", "answer-line"),
        ("4 crates hold 48.\n#### 48\n\nHope this helps!", "48", "answer-line"),
        ("Working done.\nA: The total is 72.", "72", "answer-line"),
        ("The height is **19** cm. Here's how:\n1. ratio 2\n2. shadow 9.5", "19", "answer-first"),
        ("The side is 7 cm.\n\nExplanation: the perimeter 28 over 4 sides.", "7", "answer-first"),
        ("**x = 6**\n\nExplanation: 2x + 3 = 15, so 2x = 12.", "6", "answer-first"),
    ],
)
def test_free_form_answer_lines_and_values_stated_first(response: str, answer: str, method: str) -> None:
    found = extract_free_answer(response)
    assert (found.answer, found.method) == (answer, method), found
    assert found.weak is (method == "answer-first")


def test_a_value_stated_first_and_a_different_conclusion_are_a_conflict() -> None:
    found = extract_free_answer(
        "The height is **19** cm. Here's how:\n1. ratio 2\n2. shadow 10\nSo the height is 20 cm."
    )
    assert found.answer is None and "'19'" in found.explanation and "'20 cm'" in found.explanation


def test_a_plain_list_after_an_unbolded_sentence_is_not_an_answer_first() -> None:
    found = extract_free_answer("We have 3 apples.\n1. Take 2 more.\n2. Now the total is 5.")
    assert found.answer == "5"


TREES = {"A": "maple tree", "B": "birch tree", "C": "oak tree", "D": "pine tree"}
YESNO = {"A": "Yes", "B": "No"}


@pytest.mark.parametrize(
    ("response", "options", "expected"),
    [
        ("Final Answer: E. 14 km", KM, None),  # a period, then another option's value
        ("The answer is D. Oak tree", TREES, None),  # a period, then another option's whole text
        ("The answer is D. Oak trees shed their leaves; pines do not.", TREES, "D"),  # a sentence of its own
        ("<answer>(E) 14 km</answer>", KM, None),
        ('{"answer": "E. 14 km"}', KM, None),
        ("**Answer: E – 41 km**", KM, "E"),
        ("Therefore the answer is {\\bf B}.", TREES, "B"),
        ("There isn't enough information in the frames to say.", YESNO, None),
        ("The clip is short, so it is unclear; maybe yes.", YESNO, None),
        ("It looks like yes, though it depends on the angle.", YESNO, None),
    ],
)
def test_more_ways_of_stating_a_letter_with_other_text_and_of_not_committing(
    response: str, options: dict, expected: str | None
) -> None:
    found = extract_choice(response, tuple(options), options)
    assert found.answer == expected, found.explanation
    assert extract_choice_full(response, tuple(options), options) == found


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("Two boxes of 250 pens.\nA: 500 pens", "500"),
        ("####500", "500"),
        ("A pole is 19 m tall. Here's how to find its shadow: the angle gives 4 m, so the shadow is 4 m.", "4 m"),
    ],
)
def test_more_answer_lines_and_an_explanation_that_is_the_working(response: str, answer: str) -> None:
    assert extract_free_answer(response).answer == answer


def test_a_letter_with_no_option_text_is_read_without_the_check() -> None:
    options = {"A": "4 km", "B": "14 km"}  # letters A-E allowed, texts for two
    for response in ("E. 14 km", "The answer is (E) 14 km.", "\\boxed{(E) 14 km}"):
        assert extract_choice(response, tuple("ABCDE"), options).answer == "E", response


ARC = {"A": "$\\frac{7}{4} \\pi + 3$", "B": "$3\\pi$", "C": "$\\frac{7}{4}\\pi$", "D": "22*\\pi/7", "E": "$7 + \\pi$"}


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        # one value, its factors in another order, or pi as a sign: the option, by value
        ("So the perimeter is $\\boxed{\\frac{7\\pi}{4} + 3}$.", "A"),
        ("Answer: (D) 22π/7", "D"),
        ("The length is \\boxed{\\frac{22}{7}\\pi}.", "D"),
        ("The answer is (C) $\\frac{7\\pi}{4}$.", "C"),
        # a different value is still no option, and still a conflict with the letter stated
        ("So the perimeter is $\\boxed{\\frac{7\\pi}{4} + 2}$.", None),
        ("Answer: (D) 22π/9", None),
        ("So the perimeter is $\\boxed{7\\pi + 1}$.", None),
    ],
)
def test_an_option_value_written_another_way_is_read_by_its_value(response: str, expected: str | None) -> None:
    assert extract_choice(response, tuple(ARC), ARC).answer == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("\\frac{5\\pi}{3} + 2", 5 * 3.141592653589793 / 3 + 2),
        ("(12+3\\sqrt{3})/4", (12 + 3 * 3**0.5) / 4),
        ("\\sqrt[3]{8}", 2.0),
        ("60^\\circ", 60.0),
        ("\\frac23", 2 / 3),
        ("2x", None),
        ("14 km", None),
        ("3, 4", None),
        ("(2", None),
        ("1 2", None),
        ("10^{10^{10}}", None),
        ("\\sqrt{-4}", None),
        ("1/0", None),
    ],
)
def test_numeric_value_reads_arithmetic_only(text: str, value: float | None) -> None:
    found = numeric_value(text)
    assert (found is None) if value is None else (found is not None and same_value(found, value))


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        (
            "The width of the frame is **24** cm.\n\nHere is how I got the answer:\n\n1. The two sides add to 48.\n"
            "2. Half of that is 24.",
            "24",
        ),
        ("The answer:\n\n- first, the area is 6\n- then 6 * 2 = 12\n\nSo the total is 12.", "12"),
        ("The answer:\n\n12", "12"),
    ],
)
def test_a_list_of_steps_after_an_answer_phrase_is_the_working_not_the_value(response: str, answer: str) -> None:
    assert extract_free_answer(response).answer == answer


STEPS = {"A": "②①④③", "B": "①②③④", "C": "④③②①", "D": "③④①②"}


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("The answer is (A) ②①④③.", "A"),
        ("C. ④③②①", "C"),
        ("The answer is (B) ②①④③.", None),  # B is ①②③④: the letter contradicts its text
        ("B", "B"),
    ],
)
def test_options_written_in_circled_digits_are_words_not_numbers(response: str, expected: str | None) -> None:
    """Circled digits pass `str.isdigit` but are no number: the order of steps in a Video-MME option. Reading them
    as one crashed the scoring of a whole real file."""
    assert extract_choice(response, tuple(STEPS), STEPS).answer == expected
