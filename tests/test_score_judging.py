"""The Score tab counts the judge's readings and people's reviews as `mathreel score --judge J --reviews R` does:
the same numbers (every figure of `--json` but the file's path), the same join rule (question id and response),
and the rule reading shown beside the judge's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mathreel.webapp import scored_runs
from mathreel.webapp.judged_runs import JudgedRun
from mathreel.webapp.score import RULE_COLUMN, ScoreHandlers, headline_markdown, question_table
from mathreel.webapp.scored_runs import judge_inputs
from mathreel.webapp.settings import Settings

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo"
RUN_A = DEMO / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
RUN_B = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGED_A = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-a_judgments.jsonl"
JUDGED_B = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS_B = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")
# What names a file or a note rather than being a figure: compared apart (the page names files by their own name).
NOT_FIGURES = ("source", "detected")


def cli_json(*args: str) -> Any:
    done = subprocess.run([str(MATHREEL), "score", "--json", *args], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in summary.items() if key not in NOT_FIGURES}


def page_runs(
    results: list[Path],
    judgments: list[Path],
    reviews: list[Path],
    session: list | None = None,
    session_reviews: list | None = None,
) -> tuple[list, Any]:
    """The Score tab's upload handler, given the files as the page's boxes give them."""
    handlers = ScoreHandlers(Settings())
    judging, _box = handlers.judging([str(p) for p in judgments], [str(p) for p in reviews])
    runs, error, *_ = handlers.rescore(
        [str(p) for p in results], "", "robust", "", False, None, None, judging, session, session_reviews
    )
    assert not error["visible"], error
    return runs, judging


def test_demo_run_b_scores_as_the_cli_with_its_judgments_and_reviews():
    cli = cli_json(str(RUN_B), "--judge", str(JUDGED_B), "--reviews", str(REVIEWS_B))
    plain = cli_json(str(RUN_B))
    assert cli["overall"]["accuracy"] != plain["overall"]["accuracy"]  # the judge changes the headline
    (run,), _ = page_runs([RUN_B], [JUDGED_A, JUDGED_B], [REVIEWS_B])
    assert figures(run.report.to_dict()) == figures(cli)
    page_notes = [n for n in run.report.to_dict()["detected"] if n.startswith(("judge:", "reviews", "reviewed"))]
    cli_notes = [
        n.replace(str(JUDGED_B), JUDGED_B.name).replace(str(REVIEWS_B), REVIEWS_B.name)
        for n in cli["detected"]
        if n.startswith(("judge:", "reviews", "reviewed"))
    ]
    assert page_notes == cli_notes and page_notes
    headline = headline_markdown([run])
    assert f"**{cli['overall']['accuracy']:.1f}%**" in headline or f"{cli['overall']['accuracy']:.1f}%" in headline
    assert "Reading counted: the judge's" in headline


def test_each_file_gets_the_judgments_that_judged_it_as_the_cli_pairs_them():
    cli = cli_json(str(RUN_A), str(RUN_B), "--judge", str(JUDGED_A), "--judge", str(JUDGED_B))
    runs, _ = page_runs([RUN_A, RUN_B], [JUDGED_B, JUDGED_A], [])  # order of the judgment files does not matter
    assert [figures(run.report.to_dict()) for run in runs] == [figures(c) for c in cli]


def test_the_judge_tabs_runs_count_when_no_file_is_given():
    from mathreel.core.judge import read_judgments

    cli = cli_json(str(RUN_B), "--judge", str(JUDGED_B))
    session = [JudgedRun("judged in the page", read_judgments(JUDGED_B))]
    (run,), _ = page_runs([RUN_B], [], [], session)
    assert figures(run.report.to_dict()) == figures(cli)
    assert any("from judged in the page" in note for note in run.report.to_dict()["detected"])


def test_the_isolated_path_gives_the_same_numbers(monkeypatch):
    """A costly file is scored in a child process: the judgments travel with the request (every file made costly
    here, and the child seen to run)."""
    from mathreel.core import cost

    monkeypatch.setattr(cost, "CHEAP_SECONDS", -1.0)
    children = []
    real = scored_runs.run_isolated
    monkeypatch.setattr(scored_runs, "run_isolated", lambda *args: children.append(args[2]) or real(*args))
    cli = cli_json(str(RUN_B), "--judge", str(JUDGED_B), "--reviews", str(REVIEWS_B))
    (run,), _ = page_runs([RUN_B], [JUDGED_B], [REVIEWS_B])
    assert figures(run.report.to_dict()) == figures(cli)
    assert children  # the judgment and review files and the result file were read in children


def test_the_rule_reading_is_shown_beside_the_judges():
    (run,), _ = page_runs([RUN_B], [JUDGED_B], [])
    replaced = [row for row in run.report.rows if row.rule is not None]
    assert replaced
    table = question_table(run)
    assert RULE_COLUMN in table.columns
    for row in replaced:
        shown = table[table["ID"] == row.question_id].iloc[0]
        assert shown["Extracted"].endswith(row.method) and "judge" in row.method
        assert shown[RULE_COLUMN].startswith(row.rule.extracted or row.rule.status)
    unparsed_by_rule = [row for row in replaced if row.rule.status == "unparsed"]
    assert unparsed_by_rule  # the demo's q005: "unparsed" by the rule, read by the judge
    plain_table = question_table(page_runs([RUN_B], [], [])[0][0])
    assert RULE_COLUMN not in plain_table.columns


def test_judgments_of_another_run_leave_the_rule_reading_and_say_so():
    cli_plain = cli_json(str(RUN_B))
    (run,), _ = page_runs([RUN_B], [JUDGED_A], [REVIEWS_B])
    assert figures(run.report.to_dict()) == figures(cli_plain)
    notes = " ".join(run.report.to_dict()["detected"])
    assert f"none of the judgments given ({JUDGED_A.name})" in notes
    assert "reviews: not applied" in notes
    assert "Reading counted" not in headline_markdown([run])


@pytest.mark.parametrize("content", ["not json\n", '{"question_id": 1}\n', ""])
def test_a_bad_judgment_file_is_one_line_naming_it_and_the_rest_still_scores(tmp_path, content):
    bad = tmp_path / "broken_judgments.jsonl"
    bad.write_text(content, encoding="utf-8")
    judged, _reviews, errors = judge_inputs([str(bad), str(JUDGED_B)], [])
    assert len(errors) == 1 and "broken_judgments.jsonl" in errors[0] and str(tmp_path) not in errors[0]
    assert "Traceback" not in errors[0]
    assert [name for name, _ in judged] == [JUDGED_B.name]
    handlers = ScoreHandlers(Settings())
    _state, box = handlers.judging([str(bad)], [])
    assert box["visible"] and "broken\\_judgments.jsonl" in box["value"]  # Markdown-escaped


def test_the_judge_tabs_demo_runs_as_shipped_do_not_count():
    """The Judge tab lists the demo's synthetic judgments for every visitor: a demo file uploaded in Score is scored
    by the rules, as `mathreel score` scores it, until the visitor adds judgments."""
    from mathreel.webapp.judged_runs import load_demo_runs

    (run,), _ = page_runs([RUN_B], [], [], load_demo_runs())
    assert figures(run.report.to_dict()) == figures(cli_json(str(RUN_B)))
    assert not any(note.startswith("judge:") for note in run.report.to_dict()["detected"])
