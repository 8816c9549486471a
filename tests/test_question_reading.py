"""The question's text reaches the choice reader (`core.extract.yesno`): a Yes/No question answered by restating its
comparison is read through both scorers, the reading memo, the judge's rule reading and labelled readings files,
and nothing else changes: a question never alters a reading when the options are not a Yes/No pair."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.jsonl import write_jsonl

from mathreel.core.extract.choice import extract_choice, extract_choice_full
from mathreel.core.extract.yesno import may_be_yes_no, yes_no_letters
from mathreel.core.results import columnar, read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.audit import labelled_row, readings_to_check
from mathreel.core.scoring.columnar import ColumnarReport
from mathreel.core.scoring.reading_memo import ReadingMemo
from mathreel.core.scoring.readings import parse_reading, read_readings
from mathreel.core.scoring.verdict import _read_choice_answer

DATA = Path(__file__).parent / "data"
CORPORA = ("extraction_corpus.jsonl", "extraction_corpus_v2.jsonl", "readings_classes.jsonl")
GREATER = "Is the number of red cubes greater than the number of blue spheres?"
FEWER = "Are there fewer red cubes than blue spheres?"
STATED = "The number of red cubes is greater than the number of blue spheres."
YES_NO = ("A. Yes", "B. No")


def _choice_rows() -> list[dict]:
    rows = []
    for name in CORPORA:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if row is not None and row.get("kind", "choice") == "choice":
                rows.append(row)
    return rows


def test_a_question_changes_no_reading_unless_the_options_are_a_yes_no_pair() -> None:
    """Every corpus response, read with a comparison question beside its own options: the same reading wherever
    the options are not Yes/No, and for Yes/No options only an unread answer or a conflict can change."""
    changed = 0
    for row in _choice_rows():
        letters, options = tuple(row["letters"]), row.get("options")
        plain = extract_choice(row["response"], letters, options)
        for question in (GREATER, row.get("question") or FEWER):
            asked = extract_choice(row["response"], letters, options, question)
            assert asked == extract_choice_full(row["response"], letters, options, question)
            if yes_no_letters(options) is None:
                assert asked == plain, row["response"]
            elif asked != plain:
                changed += 1
                assert plain.answer is None or asked.explanation.startswith("conflict"), row["response"]
    assert changed >= 15  # the Yes/No cases of the class corpus are read with their question


@pytest.mark.parametrize(
    ("options", "pair"),
    [
        ({"A": "Yes", "B": "No"}, ("A", "B")),
        ({"A": "no.", "B": " YES! "}, ("B", "A")),
        ({"A": "Yes", "B": "No", "C": "Maybe"}, None),
        ({"A": "Yes, it is", "B": "No"}, None),
        ({"A": "True", "B": "False"}, None),
        (None, None),
    ],
)
def test_only_an_exact_yes_no_pair_counts(options, pair) -> None:
    assert yes_no_letters(options) == pair
    raw = tuple(f"{letter}. {text}" for letter, text in (options or {}).items())
    if pair is not None:
        assert may_be_yes_no(raw)  # the memo's cheap test never misses a pair


def test_the_memo_reads_yes_no_answers_per_question_and_shares_everything_else() -> None:
    reads = []

    def reader(response, choices, question=None):
        reads.append(question)
        return _read_choice_answer(response, choices, question=question)

    memo = ReadingMemo(reader, ("A", "B", "C", "D"))
    assert memo.read(YES_NO, STATED, GREATER)[0].answer == "A"
    assert memo.read(YES_NO, STATED, FEWER)[0].answer == "B"
    assert memo.read(YES_NO, STATED, GREATER)[0].answer == "A"
    assert reads == [GREATER, FEWER]  # the third is the memo's
    assert memo.read(YES_NO, "B", GREATER)[0].answer == memo.read(YES_NO, "B", FEWER)[0].answer == "B"
    assert len(reads) == 3  # a short answer never looks at the options: one reading for every question
    four = ("A. Running", "B. Walking", "C. Sitting", "D. Jumping")
    assert memo.read(four, "Walking", GREATER)[0].answer == memo.read(four, "Walking", FEWER)[0].answer == "B"
    assert reads[3:] == [None]  # other options: the reader never sees the question, one reading serves both


def _yes_no_file(tmp_path: Path) -> Path:
    records = [
        {"question": GREATER, "response": STATED, "answer": "A"},
        {"question": FEWER, "response": STATED, "answer": "B"},
        {"question": GREATER, "response": STATED.replace("greater", "less"), "answer": "B"},
        {"question": GREATER, "response": "The number of green cubes is larger.", "answer": "A"},
        {"question": "Which shape is red?", "response": STATED, "answer": "A"},
    ]
    return write_jsonl(
        tmp_path / "run.jsonl",
        [
            {
                "question_id": f"{number:03d}-1",
                "videoID": f"{number:03d}",
                "duration": "short",
                "domain": "Knowledge",
                "sub_category": "Counting",
                "task_type": "Counting Problem",
                "options": list(YES_NO) if number < 4 else ["A. Cube", "B. Sphere"],
                **record,
            }
            for number, record in enumerate(records)
        ],
    )


def test_both_scorers_read_the_question(tmp_path, monkeypatch) -> None:
    path = _yes_no_file(tmp_path)
    fast = score(read_results(path))
    with monkeypatch.context() as patch:
        patch.setattr(columnar, "read_columns", lambda *args, **kwargs: None)
        slow = score(read_results(path))
    assert type(fast) is ColumnarReport and type(slow) is not ColumnarReport
    assert json.dumps(fast.to_dict(rows=True)) == json.dumps(slow.to_dict(rows=True))
    rows = {row.question_id: row for row in slow.rows}
    assert [rows[f"{n:03d}-1"].extracted for n in range(5)] == ["A", "B", "B", None, None]
    assert rows["000-1"].method == "restated-comparison" and rows["000-1"].status == "correct"
    assert rows["001-1"].status == "correct" and rows["003-1"].status == "unparsed"
    assert set(fast.weak) == {"000-1", "001-1", "002-1"}  # read from prose: a person should check them


def test_a_yes_no_correction_is_matched_with_its_question(tmp_path) -> None:
    path = _yes_no_file(tmp_path)
    result = read_results(path)
    report = score(result)
    checks = {check.question_id: check for check in readings_to_check(result, report.rows)}
    record = checks["000-1"].labelled(None, "the count is not visible").to_dict()
    assert record["question"] == GREATER
    readings_file = tmp_path / "readings.jsonl"
    readings_file.write_text(json.dumps(record) + "\n", encoding="utf-8")
    relabelled = score(read_results(path), readings=read_readings(readings_file))
    rows = {row.question_id: row for row in relabelled.rows}
    assert rows["000-1"].method == "labelled" and rows["000-1"].extracted is None
    assert rows["001-1"].method == "restated-comparison"  # the same response and options, another question
    # a record without a question matches the answer whatever its question, as before
    plain = {key: value for key, value in record.items() if key != "question"}
    readings_file.write_text(json.dumps(plain) + "\n", encoding="utf-8")
    relabelled = score(read_results(path), readings=read_readings(readings_file))
    assert {row.question_id for row in relabelled.rows if row.method == "labelled"} == {"000-1", "001-1"}
    other = labelled_row(report.rows[4], result.predictions[4].question, "A", "cube")
    assert "question" not in other.to_dict()  # other options: the question is no part of the match


def test_a_readings_record_with_a_question_that_is_not_text_is_one_error(tmp_path) -> None:
    from mathreel.core.errors import InputError

    with pytest.raises(InputError, match="'question' must be the question's text"):
        parse_reading({"response": "B", "label": "B", "question": ["x"]}, "mem", 3)
    entry = parse_reading(
        {"response": STATED, "label": "A", "options": {"A": "Yes", "B": "No"}, "question": GREATER}, "m", 1
    )
    assert entry.key == (STATED, (("A", "Yes"), ("B", "No")), GREATER)
    assert parse_reading(entry.to_dict(), "m", 1) == entry


def test_the_judge_rule_reading_sees_the_question() -> None:
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.judge.model import Case
    from mathreel.core.judge.tasks import rule_choice
    from mathreel.core.question import Question

    question = Question("videomme", "mcq", "q1", FEWER, "B", YES_NO)
    assert rule_choice(Case(question, STATED), get_benchmark("videomme")).answer == "B"


@pytest.mark.parametrize(
    ("question", "response", "expected"),
    [
        ("Is line A longer than line B?", "Line A is longer than line B.", "A"),  # letters only as names
        ("Is line A longer than line B?", "Line B is longer than line A.", "B"),
        ("Is line A longer than line B?", "Line A is longer than line C.", None),
        (
            "Are there more red cubes than blue spheres in the image?",
            "There are more red cubes (4) than blue spheres (2).",
            "A",
        ),
        ("Is the tree not taller than the house?", "The tree is taller than the house.", None),  # a negated question
        ("Is the rope longer than the pole?", "Probably the rope is longer than the pole.", None),
        ("Is the rope longer than the pole?", "The rope is longer than the pole, I think.", None),
        ("Is the rope longer than the pole?", "<think>Compare them.</think>The rope is longer than the pole.", "A"),
        ("Is the rope longer than the pole?", "The pole is shorter than the rope.", "A"),
        ("Is the rope longer than the pole?", "The rope is as long as the pole.", "B"),
        ("Is the rope as long as the pole?", "The rope is the same length as the pole.", "A"),
        ("Is the rope longer than the pole?", "The rope is the same age as the pole.", None),  # another measure
        ("Is the rope longer than the pole?", "The rope is longer than the rope.", None),
    ],
)
def test_restated_comparisons_written_after_the_reader(question, response, expected) -> None:
    """Regression cases written with the reader in view (the class corpus holds the blind ones)."""
    found = extract_choice(response, ("A", "B"), {"A": "Yes", "B": "No"}, question)
    assert found.answer == expected, found.explanation
    if expected is not None:
        start, end = found.span or (0, 0)
        said = response[start:end]  # the concluding sentence, to the end of the response
        assert said[0].isupper() and not response[end:].strip() and (" than " in said or " as " in said)


def test_browse_keeps_one_correction_per_question_for_yes_no_options(tmp_path) -> None:
    """Two questions with the same Yes/No options and the same response: correcting the second keeps the first."""
    from mathreel.core.scoring.files import ScoreRequest, score_file
    from mathreel.webapp.browse_audit import corrected, scored_question
    from mathreel.webapp.scored_runs import Run, ScoreOptions

    path = _yes_no_file(tmp_path)
    run = Run(path.name, score_file(ScoreRequest(str(path))), str(path), options=ScoreOptions())
    held: list[dict] = []
    for row in run.report.rows[:2]:
        run, held = corrected(run, labelled_row(row, scored_question(row, None), None, "not visible"), held)
    assert len(held) == 2 and [record["question"] for record in held] == [GREATER, FEWER]
    assert run.report.labelled == 2 and [row.extracted for row in run.report.rows[:2]] == [None, None]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Look at the image. " * 20_000 + GREATER, "A"),  # the asked clause is found however long the text before
        ("x" * 200_000 + "?", None),  # a clause with no start within reach is not read
        ("Which? " * 20_000 + GREATER, "A"),  # many question marks: only the last few are read
        (GREATER + " " + FEWER, None),  # two comparisons asked: neither is read
        (GREATER + "\nA. Yes\nB. No\nAnswer with the option's letter.", "A"),
    ],
)
def test_the_asked_comparison_is_found_in_long_and_odd_question_texts(question, expected) -> None:
    assert extract_choice(STATED, ("A", "B"), {"A": "Yes", "B": "No"}, question).answer == expected
