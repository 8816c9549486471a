"""The review panel's plain handlers: reviews made from what the panel shows, the unreviewed walk, uploads, and
a session's list never changed in place (so one session's review cannot reach another's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mathreel.core.errors import InputError, MathReelError
from mathreel.core.review import Review, write_reviews
from mathreel.webapp.judged_runs import load_demo_runs
from mathreel.webapp.review import agreement_for
from mathreel.webapp.review_state import make_review, next_unreviewed, run_views, uploaded, with_review


@pytest.fixture(scope="module")
def run():
    return next(r for r in load_demo_runs() if "model-b" in r.name)


def review_of(run, qid: str, **changes) -> Review:
    view = run_views(run)[qid]
    fields = {
        "primary": view.primary,
        "secondary": list(view.secondary),
        "note": "",
        "score": view.step_score,
        "matched": view.matched,
        "flag": "",
        "reason": "",
    }
    return make_review(view, run, "ann", accept=False, **{**fields, **changes})


def test_unchanged_values_are_accepted_and_changed_ones_say_so(run) -> None:
    wrong = next(v for v in run_views(run).values() if v.primary)
    same = review_of(run, wrong.question_id)
    assert (same.category_verdict, same.steps_verdict) == ("accepted", "accepted")
    changed = review_of(run, wrong.question_id, primary="Calculation errors", secondary=[], score=1)
    assert (changed.category_verdict, changed.primary, changed.steps_verdict, changed.step_score) == (
        "changed",
        "Calculation errors",
        "changed",
        1,
    )
    assert changed.response_fingerprint == wrong.fingerprint and changed.judge_model == "scripted-demo-judge"


def test_a_flag_needs_a_reason(run) -> None:
    with pytest.raises(MathReelError, match="say why"):
        review_of(run, "q001", flag="wrong_gold", reason=" ")


def test_the_walk_skips_reviewed_questions_and_wraps_round(run) -> None:
    views = run_views(run)
    order = list(views)
    held = [review_of(run, order[1]), review_of(run, order[2])]
    assert next_unreviewed(views, held, "ann", order[0]) == order[3]
    assert next_unreviewed(views, held, "bob", order[0]) == order[1]  # another reviewer's reviews do not count
    assert next_unreviewed(views, held, "ann", order[-1]) == order[0]
    everything = [review_of(run, qid) for qid in order]
    assert next_unreviewed(views, everything, "ann", order[0]) is None


def test_a_review_never_changes_the_list_another_session_holds(run) -> None:
    theirs: list[Review] = []
    mine = with_review(theirs, review_of(run, "q001"))
    assert theirs == [] and len(mine) == 1
    again = with_review(mine, review_of(run, "q001", note="second thought"))
    assert [r.note for r in mine] == [""] and [r.note for r in again] == ["second thought"]


def test_an_upload_merges_and_a_bad_one_names_the_uploaded_file(run, tmp_path: Path) -> None:
    path = write_reviews(tmp_path / "team.jsonl", [review_of(run, "q002")])
    held = [review_of(run, "q001")]
    assert [r.question_id for r in uploaded(str(path), held)] == ["q001", "q002"]
    (tmp_path / "bad.jsonl").write_text("{}\n")
    with pytest.raises(InputError) as caught:
        uploaded(str(tmp_path / "bad.jsonl"), held)
    assert str(caught.value).startswith("bad.jsonl, line 1: ") and str(tmp_path) not in str(caught.value)


def test_agreement_uses_the_sessions_reviews_else_the_demo_reviews(run) -> None:
    result, source = agreement_for(run, [])
    assert "synthetic" in source and result.reviewers == ["demo-reviewer-1", "demo-reviewer-2"]
    result, source = agreement_for(run, [review_of(run, "q002")])
    assert source.startswith("Your reviews") and result.reviewers == ["ann"] and result.kappa != result.kappa


def test_a_review_key_in_the_judge_tab_shows_the_next_question_in_its_own_event():
    """The key's one event saves the review and sets everything the next question shows (panel, header, response,
    card, frames, video), with a single follow-up for frames not yet sampled; nothing else listens to the reviews
    in the Judge tab, so a key press queues no chain of events (2.6-4.7 s a key before, in Chromium)."""
    import gradio as gr

    from mathreel.webapp.app import build_app
    from mathreel.webapp.settings import Settings

    app = build_app(Settings())
    by_id = {block._id: block for block in app.blocks.values()}

    def triggered_by(elem_id: str, event: str) -> list:
        found = [
            fn
            for fn in app.fns.values()
            for target, name in fn.targets
            if name == event and getattr(by_id.get(target), "elem_id", None) == elem_id
        ]
        assert found, f"nothing listens to {elem_id} {event}"
        return found

    for button in ("review-accept", "review-save", "review-next"):
        (key,) = triggered_by(button, "click")
        shown = {getattr(block, "elem_id", None) for block in key.outputs}
        assert {
            "review-progress",
            "judge-question",
            "judge-response",
            "judge-card-box",
            "judge-frames",
            "judge-video",
        } <= shown
        after = [fn for fn in app.fns.values() if fn.trigger_after == key._id]
        assert [{getattr(b, "elem_id", None) for b in fn.outputs} for fn in after] == [{"judge-frames", "judge-video"}]
    reviews = next(
        block
        for block in triggered_by("review-accept", "click")[0].outputs
        if isinstance(block, gr.State) and isinstance(block.value, list)
    )
    on_change = [fn for fn in app.fns.values() if (reviews._id, "change") in fn.targets]
    judge_side = [
        b.elem_id
        for fn in on_change
        for b in fn.outputs
        if str(getattr(b, "elem_id", None) or "").startswith(("review-", "judge-"))
    ]
    assert judge_side == []  # the Judge tab's panel is set by the key's own event (and on opening the tab)
