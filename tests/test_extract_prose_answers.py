"""Free-form answers stated in a prose sentence of several quantities, through the real scorer path (`score_free`,
with the math-verify worker where the rules leave the comparison to it): classes K1-K4 of
tests/data/readings_classes.jsonl, each scored against a gold it matches and one it does not.

K1 an "Answer:" heading over a sentence ("Answer: 540 grams of flour will last the bakery 3 days."), K2 a concluding
sentence whose answer is followed by other quantities of the problem, K3 the zero-shot-CoT harness line "Therefore,
the answer (arabic numerals) is", K4 a loop of working cut off mid-expression. A sentence whose asked quantity
cannot be told is no answer, never math-verify's pick of a stray number from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathreel.core.extract import math_equivalence
from mathreel.core.scoring.verdict import score_free

CLASSES = ("K1", "K2", "K3", "K4")
CASES = [
    record
    for line in (Path(__file__).parent / "data" / "readings_classes.jsonl").read_text(encoding="utf-8").splitlines()
    if (record := json.loads(line)).get("class") in CLASSES
]


def test_every_class_has_cases_with_abstentions_and_negatives() -> None:
    for name in CLASSES:
        cases = [case for case in CASES if case["class"] == name]
        assert len(cases) >= 5 and all(case["gold"] != case["wrong_gold"] for case in cases), name
    assert sum(case["label"] is None for case in CASES) >= 8
    assert sum(bool(case.get("question")) for case in CASES) >= 5


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_the_reading_is_the_label_and_only_the_right_gold_scores_it_correct(case) -> None:
    question = case.get("question")
    for gold in (case["gold"], case["wrong_gold"]):
        extraction, right = score_free(case["response"], gold, question=question)
        if case["label"] is None:
            assert extraction.answer is None and not right, (gold, extraction)
            continue
        assert extraction.answer is not None, extraction
        assert math_equivalence(extraction.answer, case["label"]).equal is True, extraction
        assert right == (math_equivalence(case["label"], gold).equal is True), (gold, extraction)


@pytest.mark.parametrize(
    ("response", "question", "reading"),
    [
        ("Answer: 540 grams of flour will last the bakery 3 days.", "How many days will the flour last?", "3"),
        ("Answer: 540 grams of flour will last the bakery 3 days.", "How many grams of flour are there?", "540"),
        ("Answer: 540 grams of flour will last the bakery 3 days.", None, None),
        ("Answer: 540 grams of flour will last the bakery 3 days.", "How long will it last?", None),
    ],
)
def test_the_question_decides_which_quantity_of_the_sentence_is_the_answer(response, question, reading) -> None:
    extraction, _ = score_free(response, "3", question=question)
    assert extraction.answer == reading, extraction
    if reading is None:
        assert "several quantities" in extraction.explanation and "540" in extraction.explanation


@pytest.mark.parametrize(
    ("response", "question", "reading"),
    [
        # the noun after a quantity is its own, never the next quantity's
        ("Answer: It takes 5 workers 12 days to finish the 3 walls.", "How many days does it take?", "12"),
        ("Answer: It takes 5 workers 12 days to finish the 3 walls.", "How many workers are needed?", "5"),
        # a part and its whole name the same noun: which is asked cannot be told
        ("Hence 4 of the 12 balls are red.", "How many balls are red?", None),
        ("Therefore, she needs 3 more cups of flour than the 2 cups of sugar.", "How many cups of flour?", None),
        # two values stated together are no verb's one object
        ("Therefore, the rectangle is 6 cm wide and 9 cm long.", None, None),
        ("Therefore, x is 5 for part (a) and 7 for part (b).", None, None),
        ("Thus, in 3 weeks Lena saves \\$96 by walking 4 km each day.", "How much money does she save?", "96"),
        # no question: the quantity the verb states, as written ("5,000" is 5000, a percentage keeps its sign)
        ("So there are 12 triangles in the 3 figures.", None, "12"),
        ("So in 2020, the population was 5,000 people.", None, "5000"),
        ("So the discount is 20% on the 50 dollar shirt.", None, "20%"),
        # one quantity in the conclusion: read as before
        ("Tom has 5 more marbles than Ann, so he has 12 in total.", None, "12"),
    ],
)
def test_which_quantity_is_read(response, question, reading) -> None:
    extraction, _ = score_free(response, "12", question=question)
    assert extraction.answer == reading, extraction


@pytest.mark.parametrize(
    ("completion", "reading"),
    [
        ("64.", "64"),
        ("1,200.", "1,200"),
        ("-3.", "-3"),
        ("$64.", "64"),
        ("64 dollars.", "64"),
        (": 64", "64"),
        ("\\frac{1}{2}", "\\frac{1}{2}"),
        ("2^{10}", "2^{10}"),
        ("\n\n326-y", None),
        ("2x - 4.", None),
        ("3 hours and 20 minutes.", None),
    ],
)
def test_the_arabic_numerals_harness_line_reads_only_a_number(completion, reading) -> None:
    response = f"We add the parts: 48 + 16 = 64.\nTherefore, the answer (arabic numerals) is {completion}"
    extraction, _ = score_free(response, "64")
    assert extraction.answer == reading, extraction
    if reading is None:
        assert extraction.explanation.startswith("no answer stated") and "asks for a number" in extraction.explanation


def test_a_scored_file_gives_the_free_form_reader_its_question(tmp_path) -> None:
    """`mathreel score` reads the question's text from the file: the same answer sentence reads the asked quantity."""
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score

    answer = (
        "Plan: divide the stock by the daily use, 540 / 180.\n\nAnswer: 540 grams of flour will last the bakery 3 days."
    )
    records = [
        {
            "sample_index": str(index),
            "problem_index": str(index),
            "problem_version": "Text Dominant",
            "question": question,
            "question_for_eval": question,
            "answer": gold,
            "question_type": "free-form",
            "metadata": {"split": "testmini", "source": "x", "subject": "Arithmetic", "subfield": "Ratio"},
            "model_answer": answer,
        }
        for index, (question, gold) in enumerate(
            [
                ("A bakery has 540 grams of flour and uses 180 grams a day. How many days will the flour last?", "3"),
                ("A bakery needs flour for 3 days at 180 grams a day. How many grams of flour does it need?", "540"),
                ("The flour lasts 3 days at 180 grams a day. How long is that in hours?", "72"),
            ],
            start=1,
        )
    ]
    path = tmp_path / "mathverse.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    rows = score(read_results(path)).rows
    assert [(row.extracted, row.status) for row in rows] == [("3", "correct"), ("540", "correct"), (None, "unparsed")]
    assert "several quantities" in rows[2].explanation and "540, 3" in rows[2].explanation


@pytest.mark.parametrize(
    "ending",
    [
        "So the answer is \\frac{3}{",
        "The answer is \\frac{3}{8} \\times",
        "Final answer: \\sqrt{",
        "The answer is 15 +",
    ],
)
def test_an_answer_phrase_the_response_stops_inside_is_no_answer(ending) -> None:
    """Cut off inside its value, the answer is unknown: math-verify must not find one in the working ("15 litres")."""
    working = "Three of the eight parts are full, so the fraction is 3/8 and the amount is 15 litres.\n"
    for gold in ("15", "3/8"):
        extraction, right = score_free(working + ending, gold)
        assert extraction.answer is None and not right, extraction
        assert "stops inside the value" in extraction.explanation


@pytest.mark.parametrize("ending", ["The answer is \\frac{3}{8}", "The answer is 15,", "The answer is x_1"])
def test_a_finished_value_at_the_end_is_read(ending) -> None:
    extraction, _ = score_free("Three of the eight parts are full.\n" + ending, "15")
    assert extraction.answer is not None, extraction
