"""The reading flow meets the judge: demo judgments found beside a scored run by response, the lists of judged
answers still to review and of a judge error category, the judge line in each run's column, and the Browse
review handlers writing into the one review list of the session. Expectations come from the demo files."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

from mathreel.core.data import demo_dir
from mathreel.core.judge import read_judgments
from mathreel.core.judge.fingerprint import response_fingerprint
from mathreel.core.results import read_results
from mathreel.core.review.join import judge_views
from mathreel.core.review.walk import category_ids, next_after, unreviewed_ids
from mathreel.core.scoring import score
from mathreel.webapp import reading_flow as rd
from mathreel.webapp.browse_review import judge_card, judged_question, next_to_review
from mathreel.webapp.review_state import make_review, with_review

RESULTS = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGMENTS = demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"


def scored_run(name: str = "b.jsonl") -> SimpleNamespace:
    report = score(read_results(RESULTS))
    return SimpleNamespace(name=name, report=report, key=f"{report.benchmark}:{report.mode}")


def test_demo_judgments_are_found_by_response_and_walked_unreviewed_then_by_category():
    run = scored_run()
    judged, views = rd.judged_of(run)
    expected = judge_views(read_judgments(JUDGMENTS))
    responses = {row.question_id: row.response for row in run.report.rows}
    matched = [q for q, v in expected.items() if v.fingerprint == response_fingerprint(responses.get(q, ""))]
    assert judged is not None and sorted(views) == sorted(matched) and matched
    order = [row.question_id for row in run.report.rows]
    walk = rd.Walk(run.name, rd.UNREVIEWED)
    assert rd.walk_ids([run], walk) == [q for q in order if q in views]
    first = views[order[0]] if order[0] in views else next(iter(views.values()))
    review = make_review(
        first,
        judged,
        "ann",
        accept=True,
        primary=None,
        secondary=[],
        note="",
        score=None,
        matched=None,
        flag="",
        reason="",
    )
    left = rd.walk_ids([run], walk, with_review([], review), "ann")
    assert first.question_id not in left and len(left) == len(views) - 1
    assert rd.walk_ids([run], walk, with_review([], review), "bob") == rd.walk_ids([run], walk)  # another reviewer
    category, count = Counter(v.primary for v in views.values() if v.primary).most_common(1)[0]
    by_category = rd.walk_ids([run], rd.Walk(run.name, rd.JUDGE_CATEGORY + category))
    assert len(by_category) == count and all(views[q].primary == category for q in by_category)
    assert rd.position_text(by_category, by_category[0], rd.Walk(run.name, rd.JUDGE_CATEGORY + category)).endswith(
        f"judged {category} · {run.name}"
    )
    assert (rd.JUDGE_CATEGORY + category) in [value for _, value in rd.walk_filters()]


def reworded(value: object, responses: set[str]) -> object:
    """`value` with every response in `responses` given another first word (another response, same answer)."""
    if isinstance(value, str):
        return "Surely " + value if value in responses else value
    if isinstance(value, list):
        return [reworded(v, responses) for v in value]
    if isinstance(value, dict):
        return {k: reworded(v, responses) for k, v in value.items()}
    return value


def test_a_run_nobody_judged_has_no_judge_lists_and_no_judge_line(tmp_path):
    responses = {row.response for row in scored_run().report.rows if row.response}
    other = tmp_path / "other.jsonl"
    other.write_text(
        "".join(json.dumps(reworded(json.loads(line), responses)) + "\n" for line in RESULTS.read_text().splitlines()),
        encoding="utf-8",
    )
    report = score(read_results(other))
    run = SimpleNamespace(name="other", report=report, key=f"{report.benchmark}:{report.mode}")
    changed = [r.question_id for r in report.rows if r.response.startswith("Surely")]
    _, views = rd.judged_of(run)
    assert changed and not set(changed) & set(views)
    assert rd.judge_line(None) == ""


def test_each_run_column_carries_its_judge_card_and_browse_reviews_go_to_the_next_unreviewed():
    a, b = scored_run("a.jsonl"), scored_run("b.jsonl")
    _, views = rd.judged_of(b)
    ref = next(iter(views))
    html = rd.compare_html([a, b], b.key, ref)
    view = views[ref]
    assert html.count("compare-judge") == 2 and f"primary <b>{view.primary or 'no error analysis'}" in html
    run, judged, shown, found = judged_question([b], {"run": "b.jsonl"}, ref)
    assert shown == view and found == views
    card, chips = judge_card(judged, ref)
    assert "browse-judge-score" in card and "id='judge-" not in card + chips
    order = [row.question_id for row in run.report.rows if row.question_id in views]
    review = make_review(
        view,
        judged,
        "ann",
        accept=True,
        primary=None,
        secondary=[],
        note="",
        score=None,
        matched=None,
        flag="",
        reason="",
    )
    after = next_to_review(run, views, [review], "ann", ref)
    assert after == next_after(order, unreviewed_ids(order, views, [review], "ann"), ref) != ref
    assert category_ids(order, views, "no such category") == []


def test_judgments_the_session_loaded_take_the_demo_judgments_place_in_browse():
    from mathreel.webapp.judged_runs import JudgedRun

    run = scored_run()
    demo_judged, demo_views = rd.judged_of(run)
    ref = next(iter(demo_views))
    mine = [j for j in read_judgments(JUDGMENTS) if j.question_id == ref]  # the session's own file: one question
    loaded = JudgedRun("mine.jsonl", mine)
    judged, views = rd.judged_of(run, [loaded])
    assert judged is loaded and list(views) == [ref]
    assert judged_question([run], {"run": run.name}, ref, [loaded])[1] is loaded
    assert rd.walk_ids([run], rd.Walk(run.name, rd.UNREVIEWED), judge_runs=[loaded]) == [ref]
    from mathreel.webapp.judged_runs import load_demo_runs

    whole = JudgedRun("mine_all.jsonl", read_judgments(JUDGMENTS))
    assert rd.judged_of(run, [*load_demo_runs(), whole])[0] is whole  # as many matched: the one loaded last
    assert rd.judged_of(run, [*load_demo_runs(), loaded])[0].name == demo_judged.name  # more matched wins
    assert rd.judged_of(run, []) == (None, {})  # the session removed every judged run: none shown
    assert rd.judged_of(run, None)[0] is demo_judged  # before any load or run: the demo's
