"""The fifth round's reading rules at their edges: what counts as a program, a cut-off response, a currency sign."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice
from mathreel.core.extract.free_verdict import _without_currency, free_verdict
from mathreel.core.extract.program import assigned_answer, program_only
from mathreel.core.extract.unfinished import cut_off


@pytest.mark.parametrize(
    "text",
    [
        "x = 3\ny = 4\nprint(x * y)",
        "def f(values):\n    return max(values)\n\nprint(f([1, 2]))",
        "```python\nimport math\nr = 2\nprint(math.pi * r ** 2)\n```",
        "# count the cars\ncars = ['red', 'blue']\nprint(len(cars))",
    ],
)
def test_a_program_is_a_program(text: str) -> None:
    assert program_only(text)


@pytest.mark.parametrize(
    "text",
    [
        "x = 3\ny = 4\nSo the product is 12.",  # prose after the code
        "The area is 12.\nprint it out",  # prose first
        "x = 3",  # one line, nothing printed
        "Let a = 2 and b = 5.\nThen a + b = 7.",  # working written as prose
        "The answer is B.",
    ],
)
def test_prose_is_not_a_program(text: str) -> None:
    assert not program_only(text)


def test_the_assigned_answer_is_the_last_literal() -> None:
    assert assigned_answer('answer = "Yes"\nanswer = "No"\nprint(answer)') == "No"
    assert assigned_answer("final_answer = -12.5\nprint(final_answer)") == "-12.5"
    assert assigned_answer("answer = compute(3)\nprint(answer)") is None  # not a literal


@pytest.mark.parametrize(
    "text",
    [
        "Step one gives the side as 6 and the area follows from it, so the area is $6 \\times",
        "Adding the counts from every frame, we have 3 + 4 + 5 and then the blocks on the",
        "The triangle's angles add to 180 degrees, so the last one is \\(180 - 70 -",
        "Each student receives the same share of the 40 sweets, which gives (",
    ],
)
def test_a_response_cut_off_mid_working_is_seen(text: str) -> None:
    assert cut_off(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "Counting the blocks in every frame, the answer is A",  # a capital letter may be the answer
        "The two triangles are similar, so the missing side is 12",  # only the period is missing
        "The proof is complete. \\blacksquare",
        "**Walking**",
        "D the dog's lead in the",  # short: an answer written loosely
        "The answer is \\(C\\)",
    ],
)
def test_a_finished_or_short_response_is_not_cut_off(text: str) -> None:
    assert cut_off(text) is None


def test_a_cut_off_response_still_reads_an_explicit_statement_before_the_cut() -> None:
    text = "The answer is B. To check it, the area is 6 and the perimeter is then $4 \\times"
    found = extract_choice(text, ("A", "B", "C"), {"A": "3", "B": "6", "C": "9"})
    assert found.answer == "B"


def test_currency_signs_are_dropped_only_when_every_dollar_is_one() -> None:
    assert _without_currency("from $5 to $2, a change of -$3.") == "from 5 to 2, a change of -3."
    assert _without_currency("so $x = 5$ and it costs $3") == "so $x = 5$ and it costs $3"  # math delimiters stay
    assert _without_currency("no money here") == "no money here"


def test_a_program_is_not_scored_right_by_the_numbers_it_starts_from() -> None:
    verdict = free_verdict("a = 200\nb = 300\nprint(a + b)", "200")
    assert verdict.extraction.answer is None and not verdict.correct
    assert verdict.extraction.explanation.startswith("program with no stated output")


W5_OPTIONS = {"A": "$906.29", "B": "$1,003.68", "C": "4 m", "D": "1 m"}


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("Summing them:\n\\[ 109.09 + 97.35 + 85.50 + 711.78 = 1,003.72 \\]\nAnswer: B", "B"),  # rounding on the way
        ("So it is approximately 4,300 x 0.2 = 860. The answer is (A).", "A"),  # an estimate
        ("Solving gives $x=1$ and $y=4$. The answer is (D).", "D"),  # two named values, not one result
        ("Summing them gives 109.09 + 897.35 = 1,006.44.\nAnswer: B", None),  # no option's value, beyond rounding
    ],
)
def test_the_result_before_the_letter_allows_rounding_estimates_and_named_pairs(text: str, reading: str | None) -> None:
    assert extract_choice(text, tuple(W5_OPTIONS), W5_OPTIONS).answer == reading


def test_a_conflict_before_an_invented_question_is_the_reading() -> None:
    text = "So the side is 7 / 2 = 3.5.\n\nThe answer is C.\n\nQuestion: What is 2 + 2?\nThe answer is A."
    found = extract_choice(text, ("A", "B", "C"), {"A": "3.5", "B": "4", "C": "7"})
    assert found.answer is None and found.explanation.startswith("conflict")
