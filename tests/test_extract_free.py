"""Free-form answers: what is read from a MathVerse response, and when two answers are the same."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from mathreel.core.extract import Equivalence, extract_free_answer, math_equal, math_equivalence
from mathreel.core.extract.equivalence_engine import restart_worker, set_deadline_for_tests


@pytest.mark.parametrize(
    ("response", "expected", "method"),
    [
        ("So the side is \\boxed{\\frac{\\sqrt{3}}{2}}.", "\\frac{\\sqrt{3}}{2}", "boxed"),
        ("First \\boxed{1}, corrected: \\boxed{\\frac{a^{2}}{\\sqrt{b_{1}}}}", "\\frac{a^{2}}{\\sqrt{b_{1}}}", "boxed"),
        ("The result is \\boxed{\\left\\{1, 2\\right\\}} done", "\\left\\{1, 2\\right\\}", "boxed"),
        ("Answer \\boxed{7} then a cut-off \\boxed{\\frac{1}{", "7", "boxed"),
        ("The angles add up, so the answer is 12.", "12", "answer-phrase"),
        ("Working...\nFinal answer: x = 3", "3", "answer-phrase"),  # the named value (class G2)
        ("ANSWER: 5", "5", "answer-phrase"),
        ("**Final Answer:** $45^\\circ$", "45^\\circ", "answer-phrase"),
        ("Thus the answer is $\\frac{1}{2}$ because the halves match.", "\\frac{1}{2}", "answer-phrase"),
        ("The answer is 2.5. It follows from the ratio.", "2.5", "answer-phrase"),
        ("因此，答案是 12。", "12", "answer-phrase"),
        ("<think>maybe \\boxed{3}</think>The answer is 4", "4", "answer-phrase"),
        ("Area = 6 * 2\n12", "12", "final-line"),
        ("The answer is $12$ cm.", "12", "answer-phrase"),  # the unit set aside (class G1)
        ("So the answer is:\n\n$$\\frac{1}{2}$$", "\\frac{1}{2}", "answer-phrase"),
        # the final-answer phrase of the "I hope it is correct" template reads only the value
        ("Final Answer: The final answer is $\\frac{3}{4}$. I hope it is correct.", "\\frac{3}{4}", "answer-phrase"),
        ("Work...\nFinal Answer: The final answer is $7$ cm. I hope it is correct.", "7", "answer-phrase"),
        # the value the last sentence states
        ("The radius doubles, so the diagonal of the box, measured on the face, is 26 cm.", "26", "last-sentence"),
        ("Adding the four sides, the perimeter is 20.", "20", "last-sentence"),
        ("Collecting terms we get h = 20", "20", "last-sentence"),
        ("It follows that the height of the tower is approximately 41.7 meters.", "41.7", "last-sentence"),
        ("Thus the shaded area equals $8\\pi$ square units.", "8\\pi", "last-sentence"),
        ("The slope is 2. So the intercept is \\(-3\\).", "-3", "last-sentence"),
        ("Solving the system gives x = 1, y = 2", "x = 1, y = 2", "last-sentence"),  # named values read together
        ("$x_1 = 10^{\\frac{1}{3}}, \\quad x_2 = 4$", "x_1 = 10^{\\frac{1}{3}}, \\quad x_2 = 4", "final-line"),
        # several boxes that together form one answer
        ("The two roots are \\boxed{3}, \\boxed{4}", "3, 4", "boxed"),
        ("Solving, $x = \\boxed{1}$ and $y = \\boxed{2}$.", "x = 1, y = 2", "boxed"),
        ("The points are $$\\boxed{(1, 5)} \\quad \\text{and} \\quad \\boxed{(4, 0)}$$", "(1, 5), (4, 0)", "boxed"),
        ("So \\(\\boxed{3}\\) and \\(\\boxed{-7}\\).", "3, -7", "boxed"),
        ("\\boxed{ 2 } , \\boxed{ 9 }", "2, 9", "boxed"),
        ("A first guess \\boxed{1}; after checking the diagram again, the length is \\boxed{5}", "5", "boxed"),
    ],
)
def test_free_answer_is_read(response: str, expected: str, method: str) -> None:
    result = extract_free_answer(response)
    assert (result.answer, result.method) == (expected, method)


@pytest.mark.parametrize(
    "response",
    [
        "",
        "I cannot see the diagram, sorry.",
        "The triangle is isosceles so the base angles match",
        "<think>\\boxed{3}",
        "So the shape in the figure is a trapezoid.",
        "The length is unknown because the figure gives no scale.",
    ],
)
def test_free_answer_unparsed(response: str) -> None:
    result = extract_free_answer(response)
    assert not result.parsed and result.explanation


# Settled by the fast path (no sympy) unless the explanation names math-verify; it always names the rule.
FAST = [
    ("0.5", "\\frac{1}{2}", True, "0.5 = \\frac{1}{2}: equal numerically"),
    ("1/2", "0.5", True, "1/2 = 0.5: equal numerically"),
    ("\\dfrac{3}{4}", "0.75", True, "equal numerically"),
    ("1,000", "1000", True, "equal numerically"),
    ("-\\frac{3}{2}", "-1.5", True, "equal numerically"),
    ("3", "4", False, "3 ≠ 4: different numerically"),
    ("0.5", "\\frac{1}{3}", False, "different numerically"),
    ("45^\\circ", "45", True, "the same after normalisation"),
    ("45°", "45 degrees", True, "the same after normalisation"),
    ("12 cm", "12", True, "the same after normalisation"),
    ("12", "12 \\text{ cm}", True, "the same after normalisation"),
    ("$6$", "6", True, "the same after normalisation"),
    ("6.", "6", True, "the same after normalisation"),
    ("\\left(1, 2\\right)", "(1,2)", True, "the same after normalisation"),
    ("Isosceles", "isosceles", True, "the same after normalisation"),
    ("12 m", "12 cm", False, "units differ: m vs cm"),
    ("50\\%", "50%", True, "the same after normalisation"),
    ("25%", "\\frac{1}{4}", True, "a percentage and the same fraction"),  # one quantity written two ways
    ("2\\frac{1}{3}", "7/3", True, "equal numerically"),  # a mixed number
    ("28 percent", "28\\%", True, "the same after normalisation"),
    ("28%", "28", True, "a percent sign on one side only"),
    ("28%", "29", False, "different numerically"),
    ("32,\\!349", "32349", True, "equal numerically"),
    ("\\$16,\\!386.20", "16386.2", True, "equal numerically"),
    ("32, 349", "32349", False, "math-verify: "),
    ("3\\pi", "5\\pi", False, "different multiples of \\pi"),
    ("2\\sqrt{3}", "2 \\sqrt{3}", True, "the same after normalisation"),
    ("-\\sqrt{3}", "-1\\sqrt{3}", True, "equal multiples of \\sqrt{3}"),
    ("2\\sqrt{3}", "2\\sqrt{2}", False, "math-verify: "),
]

# Settled by math-verify in its worker process.
ENGINE_EQUAL = [
    ("x = 3", "3"),
    ("y = 2x + 1", "2x+1"),
    ("2X + 1", "1+2x"),
    ("(x+1)^2", "x^2+2x+1"),
    ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}"),
    ("2\\sqrt{3}", "\\sqrt{12}"),
    ("\\pi r^2", "r^2 \\pi"),
    ("[\\frac{1}{2}, 3)", "[0.5, 3)"),
    ("x^2+y^2=25", "y^2 + x^2 = 25"),
    ("x = 1, y = 2", "y = 2, x = 1"),
    ("3, -1", "-1, 3"),
]

ENGINE_DIFFERENT = [
    ("x = 1, y = 2", "x = 3, y = 2"),
    ("2x+1", "2x-1"),
    ("(1, 3)", "[1, 3)"),
    ("(1, 2)", "(2, 1)"),
    ("\\sqrt{2}", "2"),
    ("x^2", "2x"),
    ("2x-y=1", "2x-y=2"),
    ("3, -1", "-1, 4"),
]

UNDECIDABLE = [
    ("isosceles", "equilateral", "text, not math"),
    ("\\frac{\\pi}{4}", "45°", "degrees against radians"),
    ("\\frac{1}{", "1", "math-verify could not parse"),
    ("1", "\\frac{1}{", "math-verify could not parse"),
    ("1" * 2_001, "1", "too long"),
]


@pytest.mark.parametrize(("predicted", "gold", "equal", "why"), FAST)
def test_fast_path_decides_easy_pairs_and_says_why(predicted: str, gold: str, equal: bool | None, why: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is equal and why in verdict.explanation
    assert math_equal(gold, predicted) is (equal is True)


@pytest.mark.parametrize(("predicted", "gold"), ENGINE_EQUAL)
def test_math_verify_finds_equal_pairs(predicted: str, gold: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is True and verdict.explanation.startswith("math-verify: "), verdict.explanation


@pytest.mark.parametrize(("predicted", "gold"), ENGINE_DIFFERENT)
def test_different_answers_are_never_equal(predicted: str, gold: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is False and "≠" in verdict.explanation, verdict.explanation
    assert math_equivalence(gold, predicted).equal is False


@pytest.mark.parametrize(("predicted", "gold", "why"), UNDECIDABLE)
def test_undecidable_pairs_say_so(predicted: str, gold: str, why: str) -> None:
    verdict = math_equivalence(predicted, gold)
    assert verdict.equal is None and why in verdict.explanation, verdict.explanation
    assert not math_equal(predicted, gold)


def test_a_missing_answer_is_undecidable() -> None:
    assert math_equivalence(None, "1") == Equivalence(None, "an answer is missing")


def test_works_from_a_worker_thread() -> None:
    """The web app and the judge call from threads, where math-verify's own SIGALRM timeout cannot run."""
    restart_worker()
    with ThreadPoolExecutor(max_workers=2) as pool:
        pairs = [("2\\sqrt{5}", "\\sqrt{20}"), ("y=3x", "3x+1")]
        verdicts = list(pool.map(lambda pair: math_equivalence(*pair), pairs))
    assert [v.equal for v in verdicts] == [True, False], verdicts


def test_a_check_past_its_deadline_is_undecidable_and_the_worker_recovers() -> None:
    """A pair sympy grinds on is cut off at the deadline, and the next check gets a fresh worker."""
    old = set_deadline_for_tests(0.5)
    try:
        restart_worker()
        math_equivalence("2\\sqrt{7}", "\\sqrt{28}")  # a warm worker, so the deadline alone applies
        verdict = math_equivalence(
            "z = (x+y+1)^{20}(x+y+2)^{20}", "(x+y+2)^{20}(x+y+3)^{20}"
        )  # sympy expands both products: many seconds
    finally:
        set_deadline_for_tests(old)
    assert verdict.equal is None and "took longer than 0.5 s" in verdict.explanation, verdict.explanation
    assert math_equivalence("3\\sqrt{2}", "\\sqrt{18}").equal is True


@pytest.mark.parametrize(
    "hostile",
    ["__import__('os').system('true')", "9^9^9^9", "(" * 199 + "1" + ")" * 199, "\\sqrt{" * 45 + "1" + "}" * 45, "1/0"],
)
def test_hostile_text_is_never_equal(hostile: str) -> None:
    assert math_equivalence(hostile, "1").equal is not True


@pytest.mark.parametrize(
    "response",
    [
        "The answer is" + " " * 3000,
        "answer" + " " * 3000 + ".",
        "\\boxed{" * 3000,
        "<think>" * 3000,
        "答案是" + " " * 3000,
        "\\boxed{" + " " * 20 + "}" + " " * 3000 + "x = " + " " * 3000 + "!\\boxed{ }",
    ],
)
def test_long_runs_of_blanks_or_tags_end_unparsed(response: str) -> None:
    assert extract_free_answer(response).answer is None


def test_different_polynomials_are_told_apart_at_a_point() -> None:
    """Different expressions in a variable are proved different by their values at a point, not by simplifying."""
    verdict = math_equivalence("y = x^2 + 7x + 1", "y = -x^2 + 7x + 1")
    assert verdict.equal is False and "they differ at" in verdict.explanation, verdict.explanation
    assert math_equivalence("2x - y + 1 = 0", "4x + 2 - 2y = 0").equal is True  # a scaled equation is the same


def test_answers_are_memoised_per_pair() -> None:
    first = math_equivalence("7\\sqrt{2}", "\\sqrt{98}")
    assert math_equivalence("7\\sqrt{2}", "\\sqrt{98}") is first


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("Final Answer: The largest $n$ is 34.", "34"),
        ("Answer: the perimeter of the square is $4\\sqrt{2}$ cm.", "4\\sqrt{2}"),
    ],
)
def test_a_phrase_that_is_a_sentence_reads_the_value_it_states(response: str, expected: str) -> None:
    assert extract_free_answer(response).answer == expected
