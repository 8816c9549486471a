"""Free-form answers: what is read from a MathVerse response, and when two answers are the same."""

from __future__ import annotations

import pytest

from core.extract import extract_free_answer, math_equal, math_equivalence


@pytest.mark.parametrize(
    ("response", "expected", "method"),
    [
        ("So the side is \\boxed{\\frac{\\sqrt{3}}{2}}.", "\\frac{\\sqrt{3}}{2}", "boxed"),
        ("First \\boxed{1}, corrected: \\boxed{\\frac{a^{2}}{\\sqrt{b_{1}}}}", "\\frac{a^{2}}{\\sqrt{b_{1}}}", "boxed"),
        ("The result is \\boxed{\\left\\{1, 2\\right\\}} done", "\\left\\{1, 2\\right\\}", "boxed"),
        ("Answer \\boxed{7} then a cut-off \\boxed{\\frac{1}{", "7", "boxed"),
        ("The angles add up, so the answer is 12.", "12", "answer-phrase"),
        ("Working...\nFinal answer: x = 3", "x = 3", "answer-phrase"),
        ("ANSWER: 5", "5", "answer-phrase"),
        ("**Final Answer:** $45^\\circ$", "45^\\circ", "answer-phrase"),
        ("Thus the answer is $\\frac{1}{2}$ because the halves match.", "\\frac{1}{2}", "answer-phrase"),
        ("The answer is 2.5. It follows from the ratio.", "2.5", "answer-phrase"),
        ("因此，答案是 12。", "12", "answer-phrase"),
        ("<think>maybe \\boxed{3}</think>The answer is 4", "4", "answer-phrase"),
        ("Area = 6 * 2\n12", "12", "final-line"),
        ("The answer is $12$ cm.", "12 cm", "answer-phrase"),
        ("So the answer is:\n\n$$\\frac{1}{2}$$", "\\frac{1}{2}", "answer-phrase"),
    ],
)
def test_free_answer_is_read(response: str, expected: str, method: str) -> None:
    result = extract_free_answer(response)
    assert (result.answer, result.method) == (expected, method)


@pytest.mark.parametrize(
    "response",
    ["", "I cannot see the diagram, sorry.", "The triangle is isosceles so the base angles match", "<think>\\boxed{3}"],
)
def test_free_answer_unparsed(response: str) -> None:
    result = extract_free_answer(response)
    assert not result.parsed and result.explanation


EQUAL = [
    ("0.5", "\\frac{1}{2}"),
    ("1/2", "0.5"),
    ("\\dfrac{1}{2}", "1/2"),
    ("\\tfrac34", "0.75"),
    ("45^\\circ", "45"),
    ("45°", "45 degrees"),
    ("45^{\\circ}", "45°"),
    ("x=3", "3"),
    ("x = 3", "x=3"),
    ("12 cm", "12"),
    ("12", "12 \\text{ cm}"),
    ("12 cm^2", "12"),
    ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}"),
    ("1/\\sqrt{2}", "\\sqrt{2}/2"),
    ("\\left(1, 2\\right)", "(1,2)"),
    ("1,000", "1000"),
    ("12,345.5", "12345.5"),
    ("50%", "50"),
    ("50\\%", "50%"),
    ("2\\pi", "2π"),
    ("\\pi r^2", "r^2 \\pi"),
    ("2\\sqrt{3}", "\\sqrt{12}"),
    ("\\sqrt{8}", "2\\sqrt2"),
    ("\\sqrt[3]{27}", "3"),
    ("2X + 1", "1+2x"),
    ("(x+1)^2", "x^2+2x+1"),
    ("[1, 3)", "\\left[1,3\\right)"),
    ("(\\frac{1}{2}, \\sqrt{4})", "(0.5, 2)"),
    ("$6$", "6"),
    ("6.", "6"),
    ("y = 2x + 1", "2x+1"),
    ("AB = 5", "5"),
    ("\\$12", "12"),
    ("-\\frac{3}{2}", "-1.5"),
    ("\\frac{\\pi}{3}", "\\frac{1}{3}\\pi"),
    ("Isosceles", "isosceles"),
    ("B", "b"),
    ("\\text{(B)}", "B"),
    ("x^2+y^2=25", "y^2 + x^2 = 25"),
    ("2x - y + 1 = 0", "4x + 2 - 2y = 0"),
    ("3, -1", "-1, 3"),
    ("2\\frac{1}{3}", "7/3"),
    ("2\\frac{\\sqrt3}{3}", "\\frac{2\\sqrt{3}}{3}"),
    ("(-\\infty, 3]", "(-inf,3]"),
]

NOT_EQUAL = [
    ("3", "4"),
    ("2x+1", "2x-1"),
    ("12 m", "12 cm"),
    ("(1, 3)", "[1, 3)"),
    ("(1, 2)", "(2, 1)"),
    ("(1, 2)", "(1, 2, 3)"),
    ("0.5", "\\frac{1}{3}"),
    ("3", "\\pi"),
    ("\\sqrt{2}", "2"),
    ("A", "B"),
    ("50%", "5"),
    ("x^2", "2x"),
    ("2x-y=1", "2x-y=2"),
    ("3, -1", "-1, 4"),
    ("(3, -1)", "(-1, 3)"),
]

UNDECIDABLE = [
    ("50%", "0.5"),
    ("1.41", "\\sqrt{2}"),
    ("\\frac{\\pi}{4}", "45°"),
    ("isosceles", "equilateral"),
    ("x > 3", "x \\geq 3"),
]


@pytest.mark.parametrize(("predicted", "gold"), EQUAL)
def test_equal_pairs(predicted: str, gold: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is True, verdict.explanation
    assert math_equal(gold, predicted)


@pytest.mark.parametrize(("predicted", "gold"), NOT_EQUAL)
def test_unequal_pairs(predicted: str, gold: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is False, verdict.explanation
    assert not math_equal(predicted, gold)


@pytest.mark.parametrize(("predicted", "gold"), UNDECIDABLE)
def test_undecidable_pairs_say_so(predicted: str, gold: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is None, verdict.explanation
    assert verdict.explanation
    assert not math_equal(predicted, gold)


@pytest.mark.parametrize(
    "hostile",
    [
        "__import__('os').system('true')",
        "9^9^9^9",
        "(" * 199 + "1" + ")" * 199,
        "2^" * 199 + "1",
        "\\sqrt{" * 45 + "1" + "}" * 45,
        "1/0",
    ],
)
def test_hostile_text_is_refused_not_run(hostile: str) -> None:
    verdict = math_equivalence(hostile, "1")
    assert verdict.equal is None, verdict.explanation


def test_signs_and_powers_follow_the_usual_precedence() -> None:
    assert math_equal("-" * 398 + "1", "1")
    assert math_equal("-2^2", "-4")
    assert math_equal("2^-1", "0.5")
    assert not math_equal("-" * 399 + "1", "1")


@pytest.mark.parametrize(
    "response",
    [
        "The answer is" + " " * 3000,
        "answer" + " " * 3000 + ".",
        "\\boxed{" * 3000,
        "<think>" * 3000,
        "答案是" + " " * 3000,
    ],
)
def test_long_runs_of_blanks_or_tags_end_unparsed(response: str) -> None:
    assert extract_free_answer(response).answer is None
