"""A large file's answers keep their whole record only for the first `RECORDS_KEPT` answers, and what is read per
answer (lmms-eval's `doc_hash`) for every answer, so reading 270,000 answers does not hold every decoded record."""

from __future__ import annotations

import json

from mathreel.core.results import read_results
from mathreel.core.results.lmms_log import doc_hash, doc_hash_conflicts
from mathreel.core.results.model import RECORDS_KEPT
from mathreel.core.results.run_settings import SAMPLE


def _log(path, answers: int, salt: str) -> None:
    lines = []
    for number in range(answers):
        lines.append(
            json.dumps(
                {
                    "doc_id": number,
                    "target": "A",
                    "filtered_resps": ["B."],
                    "doc_hash": f"{salt}{number:060d}",
                    "videomme_perception_score": {"question_id": f"{number:03d}-1", "duration": "short"},
                    "input": f"Question {number}?\nA. x\nB. y\nC. z\nD. w\nThe best answer is:",
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_first_answers_keep_their_record_and_every_answer_its_doc_hash(tmp_path) -> None:
    assert SAMPLE <= RECORDS_KEPT  # run settings and provenance read whole records of the first SAMPLE answers
    answers = RECORDS_KEPT + 30
    _log(tmp_path / "a.jsonl", answers, "a")
    result = read_results(tmp_path / "a.jsonl")
    assert len(result.predictions) == answers
    first, last = result.predictions[0], result.predictions[-1]
    assert first.raw["input"].startswith("Question 0?") and first.raw["doc_id"] == 0
    assert last.raw == {"doc_hash": f"a{answers - 1:060d}"}
    assert [doc_hash(p) for p in result.predictions] == [f"a{n:060d}" for n in range(answers)]
    assert last.recorded is not None and last.recorded.prompts[0].text.startswith(f"Question {answers - 1}?")


def test_documents_are_compared_past_the_kept_records(tmp_path) -> None:
    _log(tmp_path / "a.jsonl", RECORDS_KEPT + 30, "a")
    _log(tmp_path / "b.jsonl", RECORDS_KEPT + 30, "b")
    conflicts = doc_hash_conflicts(read_results(tmp_path / "a.jsonl"), read_results(tmp_path / "b.jsonl"))
    assert len(conflicts) == RECORDS_KEPT + 30 and conflicts[-1] == f"{RECORDS_KEPT + 29:03d}-1"
