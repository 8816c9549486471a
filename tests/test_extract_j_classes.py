"""Classes J1-J6 at their edges (`core/extract/conflicts.py`, `option_values.py`, `choice.py`): agreeing statements
after a result, a closing marker of several letters, options of one kind with outliers, a result followed by more
words, expressions in unknowns and LaTeX products. The labelled cases are in tests/data/readings_classes.jsonl."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice
from mathreel.core.extract.conflicts import letter_against_expression, quantities, quantities_of_kind, value_before
from mathreel.core.extract.option_values import in_unknowns

WATTS = {letter: f"{n} watts" for letter, n in zip("ABCDEFGH", (5, 10, 20, 25, 40, 50, 75, 100), strict=True)}
SHARES = {"A": "D/ (M-3)", "B": "3D/M", "C": "D/(3M)", "D": "3D/(M+3)", "E": "MD/3"}


def test_outliers_are_left_out_of_the_comparison_only_when_few() -> None:
    mixed = {**WATTS, "I": "1.9 ohms"}
    assert quantities(mixed) is None  # the strict reading: every option one kind
    kind = quantities_of_kind(mixed)
    assert kind is not None and kind[1] == "watts" and "I" not in kind[0] and kind[0]["F"] == (50.0, 0)
    half = {"A": "1 watts", "B": "2 watts", "C": "3 ohms", "D": "4 ohms"}
    assert quantities_of_kind(half) is None  # two kinds of two: no main kind
    three = {**{k: v for k, v in list(WATTS.items())[:5]}, "F": "1 ohms", "G": "2 volts", "H": "3 joules"}
    assert quantities_of_kind(three) is None  # three outliers


def test_a_value_in_an_outliers_unit_is_no_evidence() -> None:
    options = {**WATTS, "I": "1.9 ohms"}
    said = "The resistance of the coil, we get 7 ohms. The answer is (F)."
    assert extract_choice(said, tuple(options), options).answer == "F"
    said = "The resistance of the coil, we get 7 watts. The answer is (I)."
    assert extract_choice(said, tuple(options), options).answer == "I"  # the outlier's letter: no evidence


@pytest.mark.parametrize(
    ("body", "value"),
    [
        ("Thus we need a total of 10 ties in order to have two of one color. ", 10.0),
        ("The plane will travel 396 m in that time. ", 396.0),
        ("So x is 3 more than the value of y in the table. ", None),  # a comparison, not a result
        ("So the probability of 3 heads in a row is small. ", None),  # no result word before the number
    ],
)
def test_a_result_followed_by_more_words(body: str, value: float | None) -> None:
    found = value_before(body + "The answer is (B).", len(body))
    assert (found[0] if found else None) == value


def test_expressions_in_unknowns_compare_at_two_points() -> None:
    text = "Each man pays = MD/3\n\nAnswer: (A) D/(M-3)"
    span = (text.index("Answer"), text.index("Answer"), len(text))
    found = letter_against_expression(text, span, "A", SHARES)
    assert found is not None and "option E's" in found[1]
    text = "Each man pays = D/(M - 3)\n\nAnswer: (A) D/(M-3)"
    assert letter_against_expression(text, (text.index("Answer"),) * 2 + (len(text),), "A", SHARES) is None
    words = {"A": "the first man", "B": "the second man", "C": "nobody"}
    assert letter_against_expression("So it is = 3D. Answer: (A)", (18, 18, 28), "A", words) is None


@pytest.mark.parametrize(
    ("line", "unknowns"),
    [("$a \\cdot 64-b \\cdot 16+2-1=5$", True), ("$a \\times 64 = 5$", True), ("$3 \\cdot 4 = 12$", False)],
)
def test_latex_products_with_unknowns_state_a_given(line: str, unknowns: bool) -> None:
    assert in_unknowns(line) is unknowns


def test_a_closing_marker_of_several_letters_names_them_and_one_letter_reads() -> None:
    found = extract_choice("所以选项B正确。选项D正确。\n【答案】 BD <eoa>", ("A", "B", "C", "D"))
    assert found.answer is None and "BD" in found.explanation
    assert extract_choice("所以选项B正确。\n【答案】 B <eoa>", ("A", "B", "C", "D")).answer == "B"
    assert extract_choice("【答案】 BE", ("A", "B", "C", "D")).answer is None  # E is no letter here: not a hedge
