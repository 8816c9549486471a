"""The nearest-option rule and two values in one sentence (`core/extract/conflicts.py`); the labelled cases are
classes X1-X6 of tests/data/readings_classes.jsonl (run by tests/test_readings.py). These check the rule's edges:
ties, units, options that are not values, and what each reader keeps reading."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice
from mathreel.core.extract.conflicts import against_value, expression_value, quantities, two_values
from mathreel.core.extract.free import extract_free_answer

COUNTS = {"A": "30", "B": "34", "C": "50", "D": "70"}
BOXES = {"A": "12 boxes", "B": "15 boxes", "C": "20 boxes", "D": "40 boxes"}


def test_options_are_values_only_when_each_is_one_number_in_one_unit() -> None:
    assert quantities(BOXES) == ({"A": (12.0, 0), "B": (15.0, 0), "C": (20.0, 0), "D": (40.0, 0)}, "boxes")
    assert quantities({"A": "$1,200", "B": "$1,500", "C": "$900"}) == (
        {"A": (1200.0, 0), "B": (1500.0, 0), "C": (900.0, 0)},
        "$",
    )
    assert quantities({"A": "12 boxes", "B": "15 crates", "C": "20 boxes"}) is None  # two units
    assert quantities({"A": "12 N, 30 J", "B": "12 N, 36 J", "C": "14 N, 30 J"}) is None  # several values
    assert quantities({"A": "walking", "B": "running", "C": "12"}) is None


@pytest.mark.parametrize(
    ("value", "unit", "marked", "letter", "contradicted"),
    [
        (32.0, "", True, "A", True),  # a tie between 30 and 34: no single nearest option
        (31.0, "", True, "A", False),  # the nearest, picked as such
        (31.0, "", False, "A", True),  # the nearest, but not said to be picked as the nearest
        (31.0, "", True, "D", True),  # said to be the closest, and far from it
        (34.0, "", False, "B", False),  # the letter's own value
        (34.0, "", False, "A", True),  # another option's value
        (34.004, "", False, "B", False),  # within rounding of the letter's own
    ],
)
def test_the_nearest_option_rule(value: float, unit: str, marked: bool, letter: str, contradicted: bool) -> None:
    assert (against_value(value, unit, marked, letter, COUNTS) is not None) == contradicted


def test_a_value_in_another_unit_is_not_held_against_the_options() -> None:
    assert against_value(36.0, "", False, "A", BOXES) is None  # "the area is 36" against boxes
    assert against_value(36.0, "kg", False, "A", BOXES) is None
    assert against_value(36.0, "box", False, "A", BOXES) is not None  # plural aside, the options' own unit


def test_word_options_and_values_without_a_number_are_left_to_the_other_checks() -> None:
    pets = {"A": "the cat", "B": "the dog", "C": "the bird", "D": "the fish"}
    assert extract_choice("Each owner has 3 pets, so 2 × 3 = 6.\nThe answer is (B).", tuple(pets), pets).answer == "B"


def test_the_value_before_the_run_of_statements_naming_one_letter_is_the_one_held() -> None:
    text = "So the count is 116 / 4 = 29.\nThe closest option is (D).\nFinal Answer:\nThe answer is (D)."
    found = extract_choice(text, tuple(COUNTS), COUNTS)
    assert found.answer is None and "nearest is A" in found.explanation
    near = text.replace("(D)", "(A)")
    assert extract_choice(near, tuple(COUNTS), COUNTS).answer == "A"


@pytest.mark.parametrize(
    ("sentence", "restated", "pair"),
    [
        ("The base is 4 and the height is 3", False, ("4", "3")),
        ("x = 3, so the answer is 3", False, None),
        ("the length is 5 cm and the width is 5 cm", False, None),
        ("So 2(w + 2w) = 36 and w = 6", False, None),
        ("The speed is 3 m/s, which is 10.8 km/h", False, None),
        ("The speed is 3 m/s, which is 10.8 km/h", True, ("3 m/s", "10.8 km/h")),
        ("The answer is 12 and the remainder is 0", False, None),
    ],
)
def test_two_values(sentence: str, restated: bool, pair: tuple[str, str] | None) -> None:
    assert two_values(sentence, restated=restated) == pair


def test_free_form_two_values_are_a_conflict_naming_both() -> None:
    found = extract_free_answer("Answer:\nThe base is 4 and the height is 3.")
    assert found.answer is None and found.explanation.startswith("conflict") and "'4'" in found.explanation
    assert extract_free_answer("The answer is 5 and the remainder is 0.").answer == "5"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("\\frac{\\sqrt{3}}{12}", (3**0.5 / 12,)),
        ("3√3/4", (3 * 3**0.5 / 4,)),
        ("$\\dfrac{\\pi}{2}$", (3.141592653589793 / 2,)),
        ("-0.5", (-0.5,)),
        ("30^{\\circ}", (30.0,)),
        ("$\\left(\\frac{1}{4}, 0\\right)$", (0.25, 0.0)),
    ],
)
def test_numeric_expressions_evaluate_to_a_number_or_a_point(text, value) -> None:
    assert expression_value(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["2a + 1", "x = 3", "12 boxes", "__import__('os')", "2^{10}", "\\frac{1}{0}", ""])
def test_anything_else_is_no_expression_value(text) -> None:
    assert expression_value(text) is None


def test_an_expression_option_equal_to_the_value_keeps_its_letter_and_another_is_a_conflict() -> None:
    options = {"A": "\\frac{1}{4}", "B": "\\frac{1}{2}", "C": "\\frac{3}{4}", "D": "1"}
    assert extract_choice("So the probability is P = 0.75.\nThe answer is (C).", "ABCD", options).answer == "C"
    found = extract_choice("So the probability is P = 0.75.\nThe answer is (B).", "ABCD", options)
    assert found.answer is None and "option C's" in found.explanation
