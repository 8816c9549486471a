"""The Judge tab's judge runs go through core.judge.runs (the CLI's workflow); a re-judged question goes to a run
of its own, never into the run it came from."""

from __future__ import annotations

import pytest
from helpers.fake_judge import DEMO, endpoint
from helpers.fake_openai import DEFAULT_MODEL


def test_a_file_judged_from_the_page_uses_the_cache_and_reports_progress(fake_judge, tmp_path, monkeypatch):
    from mathreel.webapp.judge import judge_results_file

    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    seen: list[tuple[int, int]] = []
    run = judge_results_file(DEMO, endpoint(fake_judge), None, 2, lambda done, desc="": seen.append(done))
    assert run.name == f"videomathqa_mcq_synthetic-model-b_samples · {DEFAULT_MODEL}"
    assert {j.question_id for j in run.judgments} and seen and seen[-1][0] == seen[-1][1]
    assert "annotated steps" in run.note or run.note == ""
    asked = len(fake_judge.requests)
    again = judge_results_file(DEMO, endpoint(fake_judge), None, 2, lambda *a, **k: None)
    failed = sum(j.failed for j in run.judgments)
    assert 0 < failed < len(run.judgments)
    assert len(fake_judge.requests) - asked == failed  # good replies came from the cache; failed calls asked again
    assert [j.question_id for j in again.judgments] == [j.question_id for j in run.judgments]
    assert any((tmp_path / "cache").rglob("*"))


def test_a_rejudged_question_goes_to_its_own_run_and_the_demo_run_is_unchanged(fake_judge, tmp_path, monkeypatch):
    from mathreel.webapp.judge import add_rejudged, rejudge_question
    from mathreel.webapp.judged_runs import load_demo_runs

    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    runs = load_demo_runs()
    demo = runs[0]
    before = list(demo.judgments)
    qid = demo.judgments[0].question_id
    from mathreel.core.data import load_dataset

    question = load_dataset(demo.benchmark, demo.mode).question(qid)
    fresh = rejudge_question(demo, qid, question, endpoint(fake_judge), lambda *a, **k: None)
    assert fresh.name != demo.name and "synthetic demo" not in fresh.name
    assert {j.question_id for j in fresh.judgments} == {qid}
    after = add_rejudged(runs, fresh, qid)
    assert len(after) == len(runs) + 1 and after[0].judgments == before
    from mathreel.core.errors import MathReelError

    with pytest.raises(MathReelError, match="is not in"):
        rejudge_question(demo, "nope", question, endpoint(fake_judge), lambda *a, **k: None)


def test_the_judged_question_shows_the_frames_browse_samples_and_its_video(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from mathreel.core.data import load_dataset
    from mathreel.core.view import build_view
    from mathreel.webapp.context import DatasetCache
    from mathreel.webapp.judge import JudgeHandlers, Selection
    from mathreel.webapp.judged_runs import load_demo_runs
    from mathreel.webapp.settings import Settings

    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    settings = Settings(default_frames=4)
    handlers = JudgeHandlers(SimpleNamespace(datasets=DatasetCache(settings), settings=settings))
    run = load_demo_runs()[1]
    qid = run.judgments[-1].question_id
    frames, video = handlers.media(None, Selection(run.name, qid))
    expected = build_view(load_dataset(run.benchmark, run.mode), qid, num_frames=4)
    assert [path for path, _ in frames] == [str(p) for p in expected.frames.paths]
    assert all(
        caption.startswith(f"frame {index} ·")
        for (_, caption), index in zip(frames, expected.frames.indices, strict=True)
    )
    assert video == str(expected.video_path)
    assert handlers.media([], Selection()) == ([], None)  # no run: nothing shown
