"""The nearest-option rule and two values in one sentence (`core/extract/conflicts.py`); the labelled cases are
classes X1-X6 of tests/data/readings_classes.jsonl (run by tests/test_readings.py). These check the rule's edges:
ties, units, options that are not values, and what each reader keeps reading."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice
from mathreel.core.extract.conflicts import against_value, expression_value, quantities, two_values
from mathreel.core.extract.free import extract_free_answer
from mathreel.core.extract.option_values import eliminates, expression_at_end, in_unknowns, stops_open

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


MINUTES = {"A": "After 12 minutes", "B": "After 18 minutes", "C": "After 24 minutes", "D": "None of these"}


def test_options_with_words_units_powers_of_ten_and_dates_are_values() -> None:
    assert quantities(MINUTES) == ({"A": (12.0, 0), "B": (18.0, 0), "C": (24.0, 0)}, "minutes")
    latex = quantities({"A": "120 $\\mathrm{~m}$", "B": "150 $\\mathrm{~m}$", "C": "180 $\\mathrm{~m}$"})
    assert latex is not None and latex[1] == "m" and latex[0]["B"][0] == 150.0
    powers = quantities({"A": "2 × 10^8 dynes", "B": "22 × 10^8 dynes", "C": "1.5e9 dynes"})
    assert powers is not None and powers[0]["B"][0] == pytest.approx(2.2e9) and powers[0]["C"][0] == 1.5e9
    days = quantities({"A": "11/30/1929", "B": "12/02/1929", "C": "12/01/1929"})
    assert days is not None and days[1] == "date" and days[0]["B"][0] - days[0]["A"][0] == 2
    assert quantities({"A": "After 12 minutes", "B": "Before 18 minutes", "C": "After 24 minutes"}) is None
    assert (
        quantities({"A": "None of these", "B": "12", "C": "None of the above", "D": "14", "E": "16"}) is None
    )  # one only


def test_an_abbreviation_is_its_unit_and_another_unit_is_no_evidence() -> None:
    watts = {"A": "10 watts", "B": "50 watts", "C": "75 watts"}
    assert against_value(1.0, "W", False, "B", watts) is not None  # "1 W" is in watts
    assert against_value(50.0, "W", False, "B", watts) is None
    metres = {"A": "120 m", "B": "240 m", "C": "300 m"}
    assert against_value(0.24, "km", False, "B", metres) is None  # nothing is converted
    days = {"A": "11/30/1929", "B": "12/02/1929", "C": "12/01/1929"}
    a_day = quantities(days)[0]["A"][0]  # type: ignore[index]
    assert against_value(a_day, "date", False, "B", days) is not None  # a day is never within "rounding" of another
    assert against_value(a_day, "date", False, "A", days) is None


def test_the_models_own_rounding_counts_only_when_it_wrote_the_finer_value() -> None:
    shares = {"A": "65%", "B": "71.8%", "C": "80%"}
    assert against_value(72.0, "%", False, "B", shares) is not None  # "= 72%" alone: held to 71.8's rounding
    assert against_value(72.0, "%", False, "B", shares, places=0) is None  # "0.718, or 72%"
    assert against_value(71.0, "%", False, "B", shares, places=0) is not None  # 71.8 is not 71 at whole percent


@pytest.mark.parametrize(
    ("body", "value"),
    [
        ("so the probability is 1 / 2e", 1 / (2 * 2.718281828459045)),
        ("so the probability is 3/6 = 1/2", 0.5),
        ("so the ratio is 1 / 2k", None),
        ("so the total is 2π", 2 * 3.141592653589793),
    ],
)
def test_a_number_opening_an_expression_is_the_expressions_value(body: str, value: float | None) -> None:
    found = expression_at_end(body)
    assert (found is None) if value is None else found == pytest.approx(value)


@pytest.mark.parametrize(
    ("line", "unknowns"),
    [
        ("Substituting x = 2: a·64 − b·16 + 2 − 1 = 5", True),
        ("Solving 2x + 3 = 11", True),
        ("so the distance is 2 m/s × 3 s = 6 m", False),  # unit symbols are no unknowns
        ("so x - y = 4 - (-2) = 6", False),
        ("so x = 3", False),  # a name alone: a result
        ("the force is 2 x 10^8 = 2e8", False),  # "x" as times
    ],
)
def test_an_equation_in_unknowns_states_a_given(line: str, unknowns: bool) -> None:
    assert in_unknowns(line) is unknowns


def test_eliminations_and_cut_off_lines() -> None:
    assert eliminates("Choices A, B and D are wrong because they come from sign errors.")
    assert eliminates("(B) and (D) are wrong because they subtract.")
    assert eliminates("Option A (24) forgets to halve the product, so it is wrong.")
    assert not eliminates("Option C gives 15, which matches.")
    assert stops_open("In the second month the price rises and you would break even at the end of")
    assert not stops_open("Therefore, among A through E,")  # a short lead-in
    assert not stops_open("So the total cost of the three boxes is 4 × 3 = 12")
