"""Labelled readings: the class corpus as regression cases, the readings file format, `mathreel score --readings`,
the report's parse-failure rate and weak-reading count, and the audit's "readings to check"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.jsonl import write_jsonl

from mathreel.core.errors import InputError
from mathreel.core.extract import extract_choice, math_equivalence
from mathreel.core.extract.choice import extract_choice_full
from mathreel.core.extract.free_verdict import free_verdict
from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.audit import readings_to_check
from mathreel.core.scoring.readings import parse_reading, read_readings

DATA = Path(__file__).parent / "data"
CLASSES = read_readings(DATA / "readings_classes.jsonl")
CHOICE = [entry for entry in CLASSES if entry.kind == "choice"]
FREE = [entry for entry in CLASSES if entry.kind == "free"]
MATHREEL = Path(sys.executable).with_name("mathreel")


def test_the_class_corpus_covers_every_class_with_several_cases() -> None:
    classes = {entry.extra["class"] for entry in CLASSES}
    assert {f"C{n}" for n in range(1, 14)} <= classes and {
        "E1",
        "E2",
        "E3",
        "E4",
        "E5",
        "E6",
        "E7",
        "E8",
        "E9",
        "E10",
        "E11",
        "E12",
        "E13",
        "Q",
        "AH",
    } <= classes
    # the second round's classes: closing markers, an unclosed <think>, broken tags, container values that are no
    # option, options whose texts are letters, a cut-off restart after a conclusion; choice and free-form
    assert {f"R{n}" for n in range(1, 7)} <= classes
    assert {entry.extra["class"] for entry in FREE} >= {"R1", "R2", "R3"}
    # the third round's: a letter stated with another option's text or value, several final answers, values
    # compared as math, hedged conclusions, bold letters, an answer tag after an unclosed <think>; free-form
    # "#### 500" / "A: 500" lines and a value stated before its explanation
    assert {f"S{n}" for n in range(1, 8)} <= {entry.extra["class"] for entry in CHOICE}
    assert {entry.extra["class"] for entry in FREE} >= {"S7", "S8"}
    # the fourth round's: free-form declines (their numbers are the question's), a lower-case sub-part heading, one
    # letter per part, a value stated as the answer then another option's letter, a letter against the result the line
    # before it computes
    assert {"T2", "T3", "T4", "T5"} <= {entry.extra["class"] for entry in CHOICE}
    assert "T1" in {entry.extra["class"] for entry in FREE}
    # the fifth round's: Yes/No questions answered by restating their comparison, read with the question's text
    restated = [entry for entry in CHOICE if entry.extra["class"] == "U1"]
    assert len(restated) >= 30 and all(entry.question for entry in restated)
    assert sum(entry.label is None for entry in restated) >= 15
    # the fifth round's: a response cut off mid-working, a response that is only a program, a letter in inline math,
    # a negative amount of money and a rate
    assert {"W1", "W2", "W3", "W5"} <= {entry.extra["class"] for entry in CHOICE}
    assert {"W2", "W4"} <= {entry.extra["class"] for entry in FREE}
    # the fifth round's conflicts: two values per option concluded as another option's pair, a letter first then a
    # conclusion that is another option's, options of several parts, and invented turns that re-answer (choice and
    # free-form)
    assert {"V1", "V2", "V3", "V4"} <= {entry.extra["class"] for entry in CHOICE}
    assert "V4" in {entry.extra["class"] for entry in FREE}
    # a letter against the model's own value (the nearest-option rule), a box of no option's value then a letter,
    # a conclusion stating two values, options of several values joined without a space; free-form answer
    # sentences naming two values
    assert {"X1", "X2", "X3", "X5"} <= {entry.extra["class"] for entry in CHOICE}
    assert "X4" in {entry.extra["class"] for entry in FREE}
    # the sixth round's: free-form numbers in words, responses cut off in their working (W1, as for choice), one
    # value written two ways, "<s>" left on the answer; choice per-option evaluation lists and an answer phrase
    # introducing the option list;
    # an echoed prompt template (choice and free-form); an answer named by what it is ("the correct sequence of
    # reactions is: C. ...", "option D the most likely explanation"); free-form "the answer is that <a sentence>" and
    # "the limit of a_n = <expression> ... is 0" read as the value the sentence states; a closing number word
    assert {"W1", "Y1", "Y3", "Y4", "Y7", "Y9", "Y10", "Y11"} <= {entry.extra["class"] for entry in FREE}
    # and a model that says it cannot see the image (choice and free-form)
    assert "Y12" in {entry.extra["class"] for entry in FREE}
    assert {"Y5", "Y6", "Y7", "Y8", "Y12"} <= {entry.extra["class"] for entry in CHOICE}
    # a letter against the model's own value where the options are numeric expressions or points of them
    assert "X6" in {entry.extra["class"] for entry in CHOICE}
    # a letter against another option's text the conclusion states, a container's letter followed by text, invented
    # turns after a hedge, bold or "~" nearest picks, Yes/No comparisons restated as seen, a letter after a result
    # no option has
    assert {f"Z{n}" for n in range(1, 7)} <= {entry.extra["class"] for entry in CHOICE}
    # options with words, units, powers of ten or dates as values; a letter restated with its own text after another
    # result; eliminations before the letter; several letters for one answer; equations in unknowns and expressions
    # with e; a working cut off before the harness's answer line
    held = [entry for entry in CHOICE if entry.extra["class"] in {f"H{n}" for n in range(1, 7)}]
    assert {entry.extra["class"] for entry in held} == {f"H{n}" for n in range(1, 7)}
    assert sum(entry.label is None for entry in held) >= 20 and sum(entry.label is not None for entry in held) >= 20
    # agreeing statements after a result, a closing marker of several letters, a cut-off answer phrase before the
    # harness line, a result followed by more words, options of one kind with outliers, expressions in unknowns
    joined = [entry for entry in CHOICE if entry.extra["class"] in {f"J{n}" for n in range(1, 7)}]
    assert {entry.extra["class"] for entry in joined} == {f"J{n}" for n in range(1, 7)}
    assert sum(entry.label is None for entry in joined) >= 12 and sum(entry.label is not None for entry in joined) >= 12
    assert len(CHOICE) >= 80 and len(FREE) >= 25
    assert sum(entry.label is None for entry in CHOICE) >= 20  # abstentions are labelled as such


@pytest.mark.parametrize("entry", CHOICE, ids=[entry.extra["id"] for entry in CHOICE])
def test_choice_reading_is_the_label(entry) -> None:
    letters = tuple(dict(entry.options)) or entry.letters
    options = dict(entry.options) or None
    found = extract_choice(entry.response, letters, options, entry.question or None)
    assert found.answer == entry.label, (entry.reason, found.explanation)
    assert extract_choice_full(entry.response, letters, options, entry.question or None) == found
    assert found.explanation
    assert (found.strength is not None) == found.parsed


@pytest.mark.parametrize("entry", FREE, ids=[entry.extra["id"] for entry in FREE])
def test_free_reading_is_the_label_and_never_scores_a_wrong_answer_right(entry) -> None:
    verdict = free_verdict(entry.response, entry.extra["gold"], entry.question or None)
    read = verdict.extraction.answer
    if entry.label is None:
        assert read is None, verdict
        return
    assert read is not None and math_equivalence(read, entry.label).equal is True, (entry.reason, verdict)
    right = math_equivalence(entry.label, entry.extra["gold"]).equal is True
    assert verdict.correct == right, verdict


def _line(tmp_path: Path, *records: object) -> Path:
    path = tmp_path / "readings.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (["not", "an", "object"], "expected a JSON object"),
        ({"options": None, "label": "B"}, "'response' must be"),
        ({"response": "B"}, "'label' is missing"),
        ({"response": "B", "label": "B", "options": ["A", "B"]}, "'options' must map"),
        ({"response": "B", "label": "E", "options": {"A": "x", "B": "y"}}, "not one of the options"),
        ({"response": "B", "label": "B", "kind": "essay"}, "'kind' must be"),
        ({"response": "B", "label": {"x": 1}}, "'label' must be text or null"),
    ],
)
def test_a_bad_record_is_one_error_naming_the_file_and_line(tmp_path, record, problem) -> None:
    path = _line(tmp_path, {"response": "A", "label": "A"}, record)
    with pytest.raises(InputError) as caught:
        read_readings(path)
    assert str(path) in str(caught.value) and "record 2" in str(caught.value) and problem in str(caught.value)


def test_an_entry_round_trips_through_its_record() -> None:
    entry = parse_reading(
        {
            "response": " Walking. ",
            "options": {"A": "Running", "B": "Walking  fast"},
            "reading": None,
            "label": "B",
            "reason": "option text",
            "id": "x1",
        },
        "mem",
        1,
    )
    again = parse_reading(json.loads(json.dumps(entry.to_dict())), "mem", 1)
    assert again == entry and entry.key == ("Walking.", (("A", "Running"), ("B", "Walking fast")))


VIDEOMATHQA = [
    {"question_id": "q1", "duration": "short", "category": "Counting", "answer": "B", "response": "The answer is B."},
    {
        "question_id": "q2",
        "duration": "short",
        "category": "Counting",
        "answer": "C",
        "response": "Probably C.",
    },  # tentative: weak
    {
        "question_id": "q3",
        "duration": "short",
        "category": "Counting",
        "answer": "D",
        "response": "<answer>D</answer> so the final answer is \\boxed{A}",
    },  # conflict: unparsed
    {
        "question_id": "q4",
        "duration": "short",
        "category": "Counting",
        "answer": "A",
        "response": "It must be one of the two on the left, A or C; I cannot tell which.",
    },
]


def test_readings_override_the_rule_reading_and_the_report_counts_them(tmp_path) -> None:
    results = write_jsonl(tmp_path / "run.jsonl", VIDEOMATHQA)
    readings = _line(
        tmp_path,
        {
            "response": VIDEOMATHQA[2]["response"],
            "options": None,
            "reading": None,
            "label": "D",
            "reason": "the tag is the answer the prompt asked for",
        },
        {"response": "Probably C.", "label": None, "reason": "too unsure to count"},
    )
    before = json.loads(_score(results, "--json").stdout)
    run = _score(results, "--readings", readings, "--json", "--rows")
    assert run.returncode == 0, run.stderr
    after = json.loads(run.stdout)
    assert (before["overall"]["correct"], after["overall"]["correct"]) == (2, 2)  # q3 now right, q2 now unparsed
    assert (before["unparsed"], after["unparsed"]) == (2, 2)
    assert before["parse_failure_rate"] == 50.0 and before["weak_readings"] == 1
    assert before["weak_reading_ids"] == ["q2"] and after["weak_readings"] == 0
    assert after["labelled_readings"] == 2 and before["labelled_readings"] == 0
    rows = {row["question_id"]: row for row in after["rows"]}
    assert rows["q3"]["method"] == "labelled" and rows["q3"]["status"] == "correct"
    assert rows["q1"]["strength"] == "explicit" and rows["q2"]["status"] == "unparsed"
    assert any("labelled readings: 2 answers" in note for note in after["detected"])
    text = _score(results, "--readings", readings).stdout
    assert "parse failures: 50.0% of the answers given; weak readings (to check): 0" in text


def test_a_bad_readings_file_is_one_line_and_exit_2(tmp_path) -> None:
    results = write_jsonl(tmp_path / "run.jsonl", VIDEOMATHQA)
    readings = tmp_path / "readings.jsonl"
    readings.write_text('{"response": "B"}\n', encoding="utf-8")
    run = _score(results, "--readings", readings)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().count("\n") == 0 and "'label' is missing" in run.stderr


def test_free_form_readings_are_compared_to_the_gold_by_equivalence(tmp_path) -> None:
    result = read_results(DATA / "results" / "mathverse_output.json")
    free = next(p for p in result.predictions if p.question.answer_kind == "free")
    path = _line(
        tmp_path, {"response": free.response, "label": "\\frac{28}{2}", "reason": "the value stated", "kind": "free"}
    )
    report = score(result, readings=read_readings(path))
    row = next(r for r in report.rows if r.response == free.response)
    assert row.method == "labelled" and row.extracted == "\\frac{28}{2}"
    assert row.status == ("correct" if math_equivalence("14", free.question.answer).equal else "wrong")
    choice_only = _line(tmp_path, {"response": free.response, "label": "14", "kind": "choice"})
    assert score(result, readings=read_readings(choice_only)).labelled == 0  # another kind: not this answer


def test_readings_to_check_lists_weak_conflicting_and_disputed_answers(tmp_path) -> None:
    result = read_results(write_jsonl(tmp_path / "run.jsonl", VIDEOMATHQA), benchmark="videomathqa", mode="mcq")
    report = score(result)
    checks = {check.question_id: check for check in readings_to_check(result, report.rows)}
    assert set(checks) == {"q2", "q3", "q4"}
    assert checks["q2"].why.startswith("weak reading (tentative)") and checks["q2"].reading == "C"
    assert "conflict" in checks["q3"].why and checks["q3"].reading is None
    assert checks["q4"].reference == "A" and "reads A" in checks["q4"].why  # the reference reads the first capital
    assert report.rows[checks["q3"].index].question_id == "q3"
    correction = checks["q3"].labelled("D", "the tag holds the answer")
    assert correction.to_dict()["label"] == "D" and correction.reading is None
    relabelled = score(result, readings=_readings_of(tmp_path, correction.to_dict()))
    assert relabelled.labelled == 1 and "q3" not in {c.question_id for c in readings_to_check(result, relabelled.rows)}
    lmms = readings_to_check(result, report.rows, "lmms-regex")
    assert all(check.reference is not None or check.reading is not None for check in lmms)
    with pytest.raises(Exception, match="no reference extractor 'nope'"):
        readings_to_check(result, report.rows, "nope")


def _readings_of(tmp_path: Path, record: dict):
    return read_readings(_line(tmp_path, record))


def _score(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MATHREEL), "score", *map(str, args)], capture_output=True, text=True, timeout=60)


def test_a_score_request_applies_readings_held_in_memory_and_keeps_the_rule_reading(tmp_path) -> None:
    """The web app's audit sends its corrections with the request (no file): they score as a readings file does."""
    from mathreel.core.scoring.files import ScoreRequest, score_file

    results = write_jsonl(tmp_path / "run.jsonl", VIDEOMATHQA)
    plain = score_file(ScoreRequest(str(results), "videomathqa", "mcq"))
    check = next(
        c
        for c in readings_to_check(read_results(results, benchmark="videomathqa", mode="mcq"), plain.rows)
        if c.question_id == "q4"
    )
    file = _line(tmp_path, {"response": VIDEOMATHQA[1]["response"], "label": "B", "reason": "a slip for B"})
    report = score_file(
        ScoreRequest(
            str(results), "videomathqa", "mcq", readings=(str(file), check.labelled("A", "the first of the two named"))
        )
    )
    rows = {row.question_id: row for row in report.rows}
    assert (rows["q4"].extracted, rows["q4"].status) == ("A", "correct")
    assert rows["q4"].rule is not None and rows["q4"].rule.extracted is None  # the rules read nothing there
    assert rows["q2"].extracted == "B" and report.labelled == 2
    assert any("2 labelled in" in note and "1 held in memory" in note for note in report.detected)
