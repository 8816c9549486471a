"""core.judge.runs: the judge workflow the CLI and the app share (file -> cases -> judgments; one question again)."""

from __future__ import annotations

import pytest
from helpers.fake_judge import DEMO, endpoint

from mathreel.core.errors import InputError, MathReelError
from mathreel.core.judge.runs import failures, open_cache, prepare, rejudge_question


def test_steps_come_from_the_dataset_only_when_a_task_reads_them():
    with_steps = prepare(DEMO, tasks="extract,steps")
    assert with_steps.note is not None and with_steps.note.filled == len(with_steps.cases) == 12
    extract_only = prepare(DEMO, tasks="extract")
    assert extract_only.note is None and not any(c.question.steps for c in extract_only.cases)
    assert extract_only.tasks == ("extract",)


def test_a_file_judged_then_one_question_again_in_its_place(fake_judge, tmp_path):
    job = prepare(DEMO, tasks="extract")
    run = job.run(endpoint(fake_judge), concurrency=2, cache=open_cache(tmp_path / "cache"))
    assert len(run.judgments) == 12 and not any(j.failed for j in run.judgments)
    first = run.judgments[0].question_id
    case = next(c for c in job.cases if c.question.question_id == first)
    before = len(fake_judge.requests)
    again = rejudge_question(run.judgments, first, case.question, endpoint(fake_judge), benchmark="videomathqa")
    assert len(fake_judge.requests) == before + 1  # no cache given: its one task asked again
    assert [(j.question_id, j.task) for j in again] == [(j.question_id, j.task) for j in run.judgments]
    assert again[0] is not run.judgments[0] and again[1:] == run.judgments[1:]
    with pytest.raises(MathReelError, match="no judgments"):
        rejudge_question(run.judgments, "nope", case.question, endpoint(fake_judge), benchmark="videomathqa")


def test_failures_are_named_and_counted(fake_judge):
    job = prepare(DEMO, tasks="errors")
    run = job.run(endpoint(fake_judge), concurrency=2)
    lines, verdict = failures(run.judgments, 2, "out.jsonl")
    failed = sum(j.failed for j in run.judgments)
    assert failed and verdict is not None and verdict.startswith(f"{failed} of ")
    assert len(lines) == 3 and lines[-1].startswith(f"  ... and {failed - 2} more")
    assert failures([], 2, "x") == ([], None)


def test_a_cache_that_cannot_be_made_is_refused_before_any_call(tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match="--no-cache"):
        open_cache(a_file / "judge", hint="pass --cache-dir DIR or --no-cache")
    assert a_file.read_text(encoding="utf-8") == "mine"
