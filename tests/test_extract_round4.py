"""The fourth round of reading rules: a prose conclusion against an answer line, a letter written before a closed
`<think>` block, an answer tag after a garbled `<think>`, invented turns ("Assistant:", "### Instruction"), and,
free-form, loops of working cut off mid-way and one-sentence comparisons that state no asked value. The labelled
cases are in tests/data/readings_classes.jsonl (classes S9-S14, run by tests/test_readings.py); these check the
parts, the explanations and what must still read."""

from __future__ import annotations

from pathlib import Path

import pytest

from mathreel.core.extract import extract_choice, extract_free_answer
from mathreel.core.extract.choice import extract_choice_full
from mathreel.core.extract.free import COMPARISON, LOOP
from mathreel.core.extract.free_verdict import free_verdict
from mathreel.core.scoring.readings import read_readings

DATA = Path(__file__).parent / "data"

KETTLE = {"A": "kettle", "B": "teapot", "C": "mug", "D": "jar"}
BRIDGE = {"A": "tunnel", "B": "bridge", "C": "ferry", "D": "dam"}


def _choice(response: str, options: dict[str, str] = KETTLE):
    found = extract_choice(response, tuple(options), options)
    assert extract_choice_full(response, tuple(options), options) == found
    return found


def test_the_class_corpus_holds_the_fourth_rounds_classes() -> None:
    entries = read_readings(DATA / "readings_classes.jsonl")
    classes = {(entry.kind, entry.extra["class"]) for entry in entries}
    assert {("choice", f"S{n}") for n in (9, 10, 11, 12)} <= classes
    assert {("free", f"S{n}") for n in (12, 13, 14)} <= classes
    fourth = [entry for entry in entries if entry.extra["class"] in {"S9", "S10", "S11", "S12", "S13", "S14"}]
    assert sum(entry.label is None for entry in fourth) >= 10 and sum(entry.label is not None for entry in fourth) >= 20


@pytest.mark.parametrize(
    "line",
    [
        "\n\nAnswer: C - mug",
        "\n**Answer:** (C) mug",
        "\nFinal answer: C. Mug",
        "\n\nSo the answer is C - mug.",
        "\nC. mug",
        " Answer: C - mug",  # a sentence of its own on the same line
        " The answer is C - mug.",
    ],
)
def test_a_prose_conclusion_against_an_answer_line_names_both(line: str) -> None:
    found = _choice(f"The thing used to boil the water here is the kettle, since it sits on the hob.{line}")
    assert found.answer is None and found.explanation.startswith("conflict"), found
    assert "option A ('kettle')" in found.explanation and "C ('mug')" in found.explanation


@pytest.mark.parametrize(
    "prose",
    [
        "It's the kettle that boils the water.",
        "The object used to boil water is a kettle.",
        "So it is the kettle here.",
    ],
)
def test_other_concluding_clauses(prose: str) -> None:
    assert _choice(f"{prose}\nAnswer: C - mug").answer is None
    assert _choice(f"{prose}\nAnswer: A - kettle").answer == "A"


@pytest.mark.parametrize(
    "response",
    [
        "It is not the kettle, because it has no spout.\n\nAnswer: C - mug",  # ruled out
        "Options A and B are out.\n\nAnswer: C - mug",
        "It is not the kettle, because it has no spout. Answer: C - mug",
        "Options A and B are out. Answer: C - mug",
        "The kettle is the one on the hob, and the mug is what he drinks from.\nAnswer: C - mug",  # C named too
        "It was the kettle at first.\nAnswer: C - mug",  # "was": a thought given up
        "It could be the kettle.\nAnswer: C - mug",  # not a conclusion
        "The thing on the hob is the kettle.\nAnswer: C",  # the line gives no text of its own
        "Is it the kettle? Answer: C - mug",  # a question, not a conclusion
        "Answer: C - mug",
    ],
)
def test_an_answer_line_stands_where_the_prose_does_not_conclude_another_option(response: str) -> None:
    assert _choice(response).answer == "C"


def test_number_options_are_left_to_the_value_rules() -> None:
    options = {"A": "12", "B": "24", "C": "36", "D": "48"}
    response = "The width is 12 and the length is 3 times that.\nAnswer: C - 36"
    assert _choice(response, options).answer == "C"


def test_a_letter_before_a_closed_think_block() -> None:
    found = _choice(
        "B\n<think>\nThe picture shows a bridge over a river, so the answer is the bridge.\n</think>", BRIDGE
    )
    assert (found.answer, found.method, found.span) == ("B", "bare-letter", (0, 1))
    assert "<think>" in found.explanation
    against = _choice("B\n<think>\nThe boat carries the cars across, so the answer is C.\n</think>", BRIDGE)
    assert against.answer is None and "gives B" in against.explanation and "concludes C" in against.explanation
    # an end token or a stray period after the block is nothing after it
    assert _choice("B\n<think>\nIt is a bridge.\n</think><|im_end|>", BRIDGE).answer == "B"
    assert _choice("B\n<think>\nIt is a bridge.\n</think>\n\n.", BRIDGE).answer == "B"
    # a short firm statement written first reads the same way
    assert _choice("The answer is B.\n<think>\nIt is a bridge.\n</think>", BRIDGE).answer == "B"
    assert _choice("Answer: B\n\n<think>\nok\n</think>\n", BRIDGE).answer == "B"
    assert _choice("The answer is B.\n<think>\nso the answer is A.\n</think>", BRIDGE).answer is None
    # a lower-case word, prose, nested tags: no answer written first
    for response in (
        "a\n<think>\nIt is the bridge.\n</think>",
        "Bridges\n<think>\nIt is the bridge.\n</think>",
        "The picture shows a bridge.\n<think>\nok\n</think>",
        "B\n<think>\nfirst <think> second\n</think>",
    ):
        assert _choice(response, BRIDGE).answer is None, response


def test_an_answer_tag_after_a_garbled_think_block() -> None:
    dog = {"A": "the cat's bowl", "B": "the bag", "C": "the hat", "D": "the dog's lead"}
    response = "<think>\nthe man holds the the the <think>\n\n<answer>D the dog's lead in the the</answer>"
    found = _choice(response, dog)
    assert (found.answer, found.strength) == ("D", "container")
    assert found.span is not None and response[found.span[0] : found.span[1]] == "D"
    assert _choice("<think>\nthe the <think>\n\n<answer>D. the dog's lead</answer>", dog).answer == "D"
    assert _choice("<think>\nthe the <think>\n\n<answer>D the hat</answer>", dog).answer is None  # C's text
    assert _choice("<think>\nthe the <think>\n\n<answer>The dog's lead.</answer>", dog).answer == "D"  # whole text
    assert _choice("<think>\nthe the <think>\n\n<answer>the dog's lead or the hat</answer>", dog).answer is None
    assert _choice("<think>\nthe the <think>\n\nthe the the", dog).answer is None  # no container follows


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("The answer is B.\nAssistant: So the answer is A.", None),  # answers the same question again: a conflict
        ("The answer is B.\nAssistant: So the answer is B.", "B"),
        ("The answer is B.\nUser: And the next one?\nAssistant: D", "B"),
        ("The answer is B.\n### Instruction\nPick again.\n### Response\nThe answer is A.", "B"),
        ("Assistant: The answer is C.", "C"),  # a turn marker at the very start is no invented turn
    ],
)
def test_an_invented_question_ends_the_choice_reading_and_a_turn_answering_again_must_agree(
    response: str, answer: str | None
) -> None:
    found = _choice(response, BRIDGE)
    assert found.answer == answer
    if answer is None:
        assert (
            found.explanation.startswith("conflict")
            and "gives B" in found.explanation
            and "with A" in found.explanation
        )


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("The answer is 7.\nAssistant: The chart shows 0.85 % growth in 2 years.", "7"),
        ("So x = 4.\n### Instruction\nSolve 2y = 10.\n### Response\ny = 5", "4"),
        ("The answer is 3.\nHuman: What is 5 + 5?\nAssistant: 10", "3"),
        ("The answer is 0.5.\nAssistant: So the answer is 1/2.", "0.5"),  # the same value
        ("The answer is 12.\nAssistant: Looking again, the answer is 15.", None),
        ("So x = 4.\n### Response:\nx = 6", None),
    ],
)
def test_an_invented_turn_ends_the_free_reading(response: str, answer: str | None) -> None:
    found = extract_free_answer(response)
    assert found.answer == answer and "turn" in found.explanation
    if answer is None:
        assert found.explanation.startswith("conflict")


LOOP_LINES = (
    "Since ABCD is a square, angle ABC = 90.\nTriangle BCE is equilateral, so angle CBE = 60.\n"
    "Therefore angle ABC = 90 and angle CBE = 60.\n"
)


def test_a_loop_cut_off_mid_way_is_no_answer_and_math_verify_is_not_asked() -> None:
    response = LOOP_LINES * 6 + "Therefore angle ABC = 90 and ang"
    found = extract_free_answer(response)
    assert found.answer is None and found.explanation.startswith(LOOP)
    verdict = free_verdict(response, "60")
    assert verdict.extraction.answer is None and verdict.equivalence.equal is None


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("The answer is 5.\n" * 12 + "The answer is", "5"),  # an answer phrase repeated
        ("So the angle is \\boxed{150}.\n" + LOOP_LINES * 5 + "Since AB", "150"),  # a loop after the box
        (LOOP_LINES * 2 + "So angle ABE = 150.", "150"),  # repeated working that concludes
        ("x = 5.\n" * 6 + "x = 5", "5"),  # the same value, the last copy finished but for its period
        ("Step 1 done.\nStep 1 done.\nStep 1 done.\nWe get x = 9.\nStep 2: y = 4 and z = 1 and so x = 9", "9"),
    ],
)
def test_repetition_that_is_no_cut_off_loop_still_reads(response: str, answer: str) -> None:
    found = extract_free_answer(response)
    assert found.answer is not None and not found.explanation.startswith(LOOP), found
    assert free_verdict(response, answer).correct


@pytest.mark.parametrize(
    "response",
    [
        "The revenue in 1990 is higher, at $2,315,000.10, whereas the revenue in 1975 is lower, at $812,400.25.",
        "The rate in Chile is greater than the average rate taken over all years after 10 years.",
        "Sales in 2019 were lower than in 2018.",
    ],
)
def test_a_one_sentence_comparison_is_no_answer_and_math_verify_is_not_asked(response: str) -> None:
    found = extract_free_answer(response)
    assert found.answer is None and found.explanation.startswith(COMPARISON)
    assert free_verdict(response, "10").extraction.answer is None


@pytest.mark.parametrize(
    ("response", "gold"),
    [
        ("The total is 45.", "45"),
        ("So she has 12 apples left.", "12"),
        ("There are 3 more apples than oranges.", "3"),
        ("Tom has 5 more marbles than Ann, so he has 12 in total.", "12"),
        ("The difference between 2019 and 2018 is 40.", "40"),
    ],
)
def test_plain_conclusions_and_asked_differences_still_read(response: str, gold: str) -> None:
    verdict = free_verdict(response, gold)
    assert verdict.correct, verdict


def test_math_verify_reads_only_up_to_an_invented_turn() -> None:
    turn = "\nAssistant: The chart shows 0.85 % growth in 2 years."
    verdict = free_verdict("I cannot tell the growth from the chart." + turn, "2")
    assert verdict.extraction.answer is None and verdict.equivalence.equal is None
    verdict = free_verdict("The growth over the period is\n\n$$7$$ years" + turn, "7")
    assert verdict.extraction.answer == "7" and verdict.correct
