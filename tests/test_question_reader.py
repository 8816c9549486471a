"""A benchmark's per-file reader (`question_reader`, fields cut to the keys the file has) builds the same Questions
as `question_from_record`, whether each field has one key in the file (the fast path) or several (aliases)."""

from __future__ import annotations

import math

import pytest

from mathreel.core.benchmarks import BENCHMARKS

PLAIN = {
    "question_id": "001-2",
    "question": " What happens? ",
    "answer": "b",
    "options": ["A. x", "B. y", "C. z", "D. w"],
    "duration": "Short",
    "domain": "Knowledge",
    "sub_category": "Humanity & History",
    "task_type": "Counting Problem",
    "videoID": "abc",
    "url": " https://example.org/v ",
    "response": "B",
}
ALIASED = {
    "id": 17,
    "question": "Q",
    "answer": "C",
    "choices": "['A. 1', 'B. 2', 'C. 3', 'D. 4']",
    "duration_category": "long",
    "category": "Sports Competition",
    "video_subcategory": "Football",
    "task_category": "OCR Problems",
    "video_id": "v9",
    "response": "C",
}
SPARSE = {
    "question_id": "x-1",
    "answer": " a ",
    "options": None,
    "duration": math.nan,
    "domain": "",
    "candidates": ["A. p", "B. q"],
    "video": 42,
    "response": "A",
}


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
@pytest.mark.parametrize(
    "records",
    [
        [PLAIN],
        [ALIASED],
        [SPARSE],
        [PLAIN, ALIASED, SPARSE],
        [{**PLAIN, "id": "other", "domain": "", "category": "Knowledge"}],
    ],
    ids=["plain", "aliased", "sparse", "mixed", "two-ids"],
)
def test_reader_builds_the_questions_question_from_record_builds(name, records):
    bench = BENCHMARKS[name]
    mode = bench.modes[0].key
    expected = [bench.question_from_record(record, mode) for record in records]
    read = bench.question_reader(set().union(*records), mode)
    assert [read(record) for record in records] == expected
    assert expected[0].question_id
