"""A free-form response against its gold: MathReel's rules first, math-verify's own reading where they cannot decide."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_free_answer, math_equivalence
from mathreel.core.extract.free_verdict import free_verdict

WORKING = "We set up the relation from the diagram and simplify each side in turn. " * 6  # > 300 characters

# (response, gold): the rules read nothing or cannot compare; math-verify reads the whole response.
READ_BY_MATH_VERIFY = [
    ("Only the values with $y \\leq 4$ remain valid here.", "y <= 4"),
    (
        "The rotation we need is $\\begin{pmatrix}0 & -1 \\\\ 1 & 0\\end{pmatrix}$ here.",
        "\\begin{pmatrix}0 & -1 \\\\ 1 & 0\\end{pmatrix}",
    ),
    (WORKING + "The ordered pair $(4, 9)$ satisfies both equations, as required.", "(4, 9)"),
    ("Result $$ \n 12 \n $$", "12"),  # display math may cross lines
]


@pytest.mark.parametrize(("response", "gold"), READ_BY_MATH_VERIFY)
def test_math_verify_reads_what_the_rules_leave(response: str, gold: str) -> None:
    verdict = free_verdict(response, gold)
    assert verdict.correct, verdict
    assert verdict.extraction.method == "math-verify"
    assert verdict.extraction.explanation.startswith("math-verify read '")


@pytest.mark.parametrize(
    ("response", "gold"),
    [
        ("Only the values with $y \\leq 4$ remain valid here.", "y < 4"),
        (
            "The rotation we need is $\\begin{pmatrix}0 & 1 \\\\ -1 & 0\\end{pmatrix}$ here.",
            "\\begin{pmatrix}0 & -1 \\\\ 1 & 0\\end{pmatrix}",
        ),
        (WORKING + "The ordered pair $(4, 9)$ satisfies both equations, as required.", "(9, 4)"),
    ],
)
def test_math_verify_reading_says_different(response: str, gold: str) -> None:
    verdict = free_verdict(response, gold)
    assert verdict.equivalence.equal is False, verdict
    assert "math-verify read" in verdict.equivalence.explanation


@pytest.mark.parametrize(
    ("response", "gold", "why"),
    [
        ("I could not work this out from the figure, sorry about that.", "12", "no math"),
        ("Result $ \n 12 \n $", "12", ""),  # inline math does not cross a line break
        ("Result \\( \n 12 \n \\)", "12", ""),
        ("$2 - \\frac{3}{\\mathrm{e}}$", "2 + \\frac{3}{\\mathrm{e}}", ""),  # never equal, however it is read
    ],
)
def test_undecidable_stays_undecidable(response: str, gold: str, why: str) -> None:
    verdict = free_verdict(response, gold)
    assert verdict.equivalence.equal is not True and not verdict.correct, verdict
    assert why in verdict.equivalence.explanation


def test_a_question_only_a_judge_can_settle_is_not_reread() -> None:
    verdict = free_verdict("The angle is $\\frac{\\pi}{2}$.", "90°")
    assert verdict.equivalence.equal is None and verdict.equivalence.needs_question
    assert verdict.extraction.method != "math-verify"


def test_a_one_line_word_answer_is_read_whole() -> None:
    verdict = free_verdict("Obtuse", "obtuse")
    assert verdict.correct and verdict.extraction.method == "whole-response"


@pytest.mark.parametrize(
    ("predicted", "gold", "equal"),
    [
        ("3,75", "3.75", True),
        ("0.125", "0,125", True),  # a leading 0 cannot start a thousands group
        ("4500,25", "4500.25", True),  # four digits before the comma: not thousands
        ("2,500", "2.5", False),  # three digits after 1-3 digits: a thousands separator
        ("2,500", "2500", True),
        ("3,75", "375", False),
    ],
)
def test_a_decimal_comma_against_a_single_number(predicted: str, gold: str, equal: bool) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is equal, verdict


@pytest.mark.parametrize(("predicted", "gold"), [("7,5", "(7, 5)"), ("7,5", "7 and 5"), ("7,5", "\\{5, 7\\}")])
def test_a_comma_against_a_list_is_never_a_decimal(predicted: str, gold: str) -> None:
    assert math_equivalence(predicted, "7.5").equal is True
    assert "decimal comma" not in math_equivalence(predicted, gold).explanation


@pytest.mark.parametrize(
    ("response", "gold", "equal"),
    [
        ("The solution is $t != 2$", "t \\neq 2", True),
        ("$-y >= -3$", "y <= 3", True),
        ("Hence $x > 2$.", "x \\geq 2", False),
        ("The solution is $t != 2$", "2", False),  # the relation is the answer, not the number after it
    ],
)
def test_inequalities_are_read_and_compared_whole(response: str, gold: str, equal: bool) -> None:
    verdict = free_verdict(response, gold)
    assert verdict.equivalence.equal is equal, verdict


def test_a_final_answer_phrase_after_the_last_box_wins() -> None:
    response = (
        "Each crate holds $\\boxed{12}$ apples, so 300 crates hold 3,600.\n"
        "Final Answer: The final answer is $3,600$. I hope it is correct."
    )
    assert extract_free_answer(response).answer == "3,600"
    assert free_verdict(response, "3600").correct


def test_a_box_stays_when_the_later_phrase_is_prose() -> None:
    assert extract_free_answer("$\\boxed{12}$\nThe answer is shown in the box above.").answer == "12"


def test_boxes_for_the_parts_of_a_question_are_read_together() -> None:
    response = "$\\boxed{(2, 5)} \\text{ for part (a) and } \\boxed{(0, 1)}$"
    assert extract_free_answer(response).answer == "(2, 5), (0, 1)"
    assert extract_free_answer("$\\boxed{4}$ for part (a) and $\\boxed{9}$").answer == "4, 9"


# The equivalence policy (README "How the numbers are made"): each case decided one way, with the reason named.
POLICY = [
    # inequalities against intervals: the interval the inequality describes
    ("-3 < t \\leq 8", "(-3, 8]", True, "the same after normalisation"),
    ("t \\geq 0.5", "[0.5, \\infty)", True, "the same after normalisation"),
    ("z > 7", "(-\\infty, 7)", False, ""),
    ("w \\in (1, 9]", "(1, 9]", True, "the same after normalisation"),
    ("x < 2", "x \\leq 2", False, ""),  # two inequalities: math-verify compares them as they are
    # percentages against numbers and fractions: one quantity
    ("45%", "45", True, "a percent sign on one side only"),
    ("45\\%", "0.45", True, "a percentage and the same fraction"),
    ("45 percent", "\\frac{9}{20}", True, "a percentage and the same fraction"),
    ("45%", "0.54", False, "different numerically"),
    # mixed numbers: their value
    ("4 2/3", "14/3", True, "equal numerically"),
    ("5¾", "\\frac{23}{4}", True, "equal numerically"),
    ("2½ hours", "2.5", True, "equal numerically"),
    ("4 2/3", "4.5", False, "different numerically"),
    # rounded against exact: equal with 3 or more significant digits, a judge with fewer, else different
    ("0.5714", "\\frac{4}{7}", True, "rounded to 4 places"),
    ("0.1666...", "1/6", True, "rounded to 4 places"),
    ("0.57", "\\frac{4}{7}", None, "significant digits only"),
    ("0.5715", "\\frac{4}{7}", True, "rounded to 4 places"),  # within one unit of the last digit (truncation too)
    ("0.5717", "\\frac{4}{7}", False, "different numerically"),
    ("0.375", "3/8", True, "equal numerically"),  # exact at that length: compared exactly
    ("0.38", "3/8", None, "significant digits only"),
    ("2.236", "\\sqrt{5}", True, "rounded to 3 places"),
    ("2.24", "\\sqrt{5}", True, "rounded to 2 places"),
    ("2.2", "\\sqrt{5}", None, "significant digits only"),
    ("2.231", "\\sqrt{5}", False, "not that value rounded"),
    # upright constants
    ("3\\mathrm{e}", "3e", True, ""),
    ("\\frac{1}{\\mathrm{e}^{2}}", "e^{-2}", True, ""),
]


@pytest.mark.parametrize(("predicted", "gold", "equal", "why"), POLICY)
def test_the_equivalence_policy(predicted: str, gold: str, equal: bool | None, why: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is equal and why in verdict.explanation, verdict
    assert math_equivalence(gold, predicted).equal is equal


def test_a_percentage_that_math_verify_reads_no_longer_fails_the_point_check() -> None:
    """math-verify parses "64%" as an unevaluated 64*(1/100); the sample-point check once raised TypeError on it."""
    verdict = free_verdict("Over the decade the share of the market grows by 64% in all, as the chart shows.", "64")
    assert verdict.correct and "failed" not in verdict.equivalence.explanation, verdict


def test_a_json_answer_is_decoded_before_math_verify_reads_it() -> None:
    response = (
        '```json\n{"reasoning": "Both legs are 4, so the hypotenuse is 4 times root 2.", "answer": "4\\\\sqrt{2}"}\n```'
    )
    verdict = free_verdict(response, "\\sqrt{32}")
    assert verdict.correct and verdict.extraction.answer == "4\\sqrt{2}" and verdict.extraction.method == "json"


def test_a_prose_json_answer_is_never_read_from_the_raw_object() -> None:
    response = '{"reasoning": "The matrix [[1, 0], [0, -1]] maps (2, 3) to (2, -3).", "answer": "a reflection"}'
    verdict = free_verdict(response, "reflection across the x-axis")
    assert verdict.equivalence.equal is None and verdict.extraction.answer == "a reflection", verdict


def test_a_box_and_a_json_field_that_disagree_stay_undecidable() -> None:
    verdict = free_verdict('\\boxed{12}\n{"answer": "14"}', "12")
    assert verdict.extraction.answer is None and verdict.extraction.explanation.startswith("conflict")
    assert verdict.equivalence.equal is None and "12" in verdict.extraction.explanation
