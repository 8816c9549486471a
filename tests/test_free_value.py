"""Free-form classes G1-G6 (`tests/data/readings_classes.jsonl`): the value shown for a reading (a unit set aside,
an equation chain read by its last side, a vulgar fraction as written), answers that state no value (described,
arithmetic left undone), named values compared in order, and never a wrong gold scored right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathreel.core.extract import extract_free_answer, math_equivalence
from mathreel.core.extract.free_verdict import free_verdict
from mathreel.core.scoring.readings import read_readings

_RECORDS = {  # the records whole: the readings file format keeps only its own fields
    record["id"]: record
    for record in map(json.loads, (Path(__file__).parent / "data" / "readings_classes.jsonl").open(encoding="utf-8"))
}
CLASSES = [
    entry
    for entry in read_readings(Path(__file__).parent / "data" / "readings_classes.jsonl")
    if entry.kind == "free" and entry.extra["class"] in {f"G{n}" for n in range(1, 7)}
]
for _entry in CLASSES:
    _entry.extra.update(_RECORDS[_entry.extra["id"]])


def test_every_g_class_has_cases_and_negatives() -> None:
    by_class: dict[str, list] = {}
    for entry in CLASSES:
        by_class.setdefault(entry.extra["class"], []).append(entry)
    assert set(by_class) == {f"G{n}" for n in range(1, 7)}
    assert all(len(cases) >= 4 for cases in by_class.values())
    assert sum(entry.label is None for entry in CLASSES) >= 8  # no value: described, undone, conflicts
    assert sum("wrong_gold" in entry.extra for entry in CLASSES) >= 30


SHOWN = [entry for entry in CLASSES if "extracted" in entry.extra]


@pytest.mark.parametrize("entry", SHOWN, ids=[entry.extra["id"] for entry in SHOWN])
def test_the_reading_is_shown_as_the_value(entry) -> None:
    shown = free_verdict(entry.response, entry.extra["gold"]).extraction.answer  # the reading the app shows
    assert shown == entry.extra["extracted"], entry.reason


WRONG = [entry for entry in CLASSES if "wrong_gold" in entry.extra]


@pytest.mark.parametrize("entry", WRONG, ids=[entry.extra["id"] for entry in WRONG])
def test_a_wrong_gold_is_never_scored_right(entry) -> None:
    assert math_equivalence(entry.label, entry.extra["wrong_gold"]).equal is not True  # the case is a real test
    assert not free_verdict(entry.response, entry.extra["wrong_gold"]).correct, entry.reason


@pytest.mark.parametrize(
    ("response", "gold", "correct"),
    [
        ("So the length of the rod is 5 cm.", "5", True),
        ("So the length of the rod is 5 cm.", "5 cm", True),
        ("So the length of the rod is 5 cm.", "5 m", False),  # the unit set aside is held against the gold's
        ("So the speed of the train is 12 km/h.", "12 m/s", False),
        ("So the time taken is 0.047 s.", "0.047 min", False),
        ("So the speed of the train is 12 km/h.", "12 km/h", True),
    ],
)
def test_a_unit_set_aside_is_held_against_a_gold_with_a_unit(response: str, gold: str, correct: bool) -> None:
    assert free_verdict(response, gold).correct is correct


@pytest.mark.parametrize(
    ("predicted", "gold", "equal"),
    [
        ("x = 2, y = 7", "(2, 7)", True),
        ("x = 2, y = 7", "2, 7", True),
        ("x = 2, y = 7", "7, 2", False),  # math-verify alone compares sets: {2, 7} = {7, 2}
        ("B = 3\\pi, E = 5\\pi", "5\\pi, 3\\pi", False),
        ("B = 3\\pi, E = 5\\pi", "[3\\pi, 5\\pi]", True),
        ("B = 3\\pi, E = 5\\pi", "[3, 5]", False),
        ("a = 4, b = -3", "4, -3, 1", False),
        ("7, 2", "x = 2, y = 7", False),  # either way round
    ],
)
def test_named_values_are_compared_in_order_against_a_list(predicted: str, gold: str, equal: bool) -> None:
    assert math_equivalence(predicted, gold).equal is equal


@pytest.mark.parametrize(
    "response",
    [
        "2.5 × 60 + 3.2 × 45",  # a short one-line response is not read whole either
        "Answer: (0.055/100) * 106 * 6.7 * 86400",
        "The answer is x = 12 - y = 12 - (x + 2).",
        "The final answer is the value of x found above.",
    ],
)
def test_an_answer_that_states_no_value_is_never_scored(response: str) -> None:
    for gold in ("150", "106", "86400", "5", "4", "12"):
        verdict = free_verdict(response, gold)
        assert verdict.extraction.answer is None and verdict.equivalence.equal is None, verdict


def test_math_verify_reads_a_mixed_number_as_its_value() -> None:
    response = "Each of the three bags holds 49 1/3 pounds of flour."
    assert free_verdict(response, "148/3").correct
    assert not free_verdict(response, "49/3").correct and not free_verdict(response, "1").correct


def test_a_gold_that_is_not_text_is_no_crash() -> None:
    verdict = free_verdict("So the length of the rod is 5 cm.", 5.0)  # type: ignore[arg-type]
    assert not verdict.correct and verdict.extraction.answer == "5"


@pytest.mark.parametrize(
    ("response", "shown"),
    [
        ("The answer is 1/2 + 1/3.", "1/2 + 1/3"),  # one operation: fractions of whole numbers are values
        ("The answer is 2*3.", "2*3"),  # a product, not an italic mark
        ("So x = 7/2.", "7/2"),
        ("\\boxed{3/4 + 1/4 - 1/8}", None),  # two operations left to do
        ("The answer is 5 million.", "5 million"),
        ("The answer is 4 red cubes.", "4"),
        ("The answer is 4 squared.", "4 squared"),  # not a count of things: the words change the number
    ],
)
def test_values_and_undone_arithmetic(response: str, shown: str | None) -> None:
    found = extract_free_answer(response)
    assert found.answer == shown, found


@pytest.mark.parametrize(
    ("gold", "equal"),
    [("5000000", True), ("5", None), ("6", False), ("5,000,000", True)],
)
def test_a_number_with_its_scale_word(gold: str, equal: bool | None) -> None:
    """ "5 million" is 5000000; against 5 only the question can say (it may ask in millions); math-verify never
    reads the 5 of it."""
    verdict = free_verdict("The answer is 5 million.", gold)
    assert verdict.equivalence.equal is equal and verdict.extraction.answer == "5 million"
