"""Score's explain panel, handler by handler (no browser): the reference table names every reader of the benchmark
with its source and commit, a gap's rows add up to the gap, each cause's walk list holds exactly that cause's
questions and Browse walks it, and bad figures are one line in the page's words."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.errors import MathReelError
from mathreel.webapp import reading_flow as rd
from mathreel.webapp import score_explain as se
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
V2_A = "videomme-v2_synthetic-model-a_predictions.tsv"
V2_B = "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl"
MCQ_A = "videomathqa_mcq_synthetic-model-a_samples.jsonl"


@pytest.fixture(scope="module")
def runs():
    found, errors = score_uploads([str(DEMO / name) for name in (V2_A, V2_B, MCQ_A)], ScoreOptions())
    assert errors == []
    return found


def test_against_offers_same_benchmark_runs_other_scorers_and_a_figure(runs):
    values = [value for _, value in se.against_choices(runs, V2_A)]
    assert values[0] == se.NOTHING and values[-1] == se.FIGURE
    assert se.RUN + V2_B in values and se.RUN + MCQ_A not in values  # another benchmark cannot be compared
    assert [v for v in values if v.startswith(se.READER)] == [
        se.READER + n for n in ("official", "lmms-eval", "evalscope")
    ]


def test_reference_table_names_every_reader_with_source_and_commit(runs):
    view = se.explain_view(runs, V2_A, se.NOTHING)
    table = view.references
    bench = get_benchmark("videomme-v2")
    assert list(table["Scorer"]) == ["robust", *bench.reproductions]
    commits = dict(zip(table["Scorer"], table["Commit"], strict=True))
    assert all(commits[name] == scorer.commit for name, scorer in bench.reproductions.items())
    assert {"all", "answered"} <= set(table.columns)  # both denominators
    assert any("group score" in column for column in table.columns)
    official = table[table["Scorer"] == "official"].iloc[0]
    starred = [column for column in table.columns if str(official[column]).endswith("*")]
    assert starred == ["group score (official policy)"]  # the figure the official script reports
    assert view.lists is None and view.walks == []  # nothing to compare with: no causes


def test_two_runs_gap_rows_add_up_and_walk_their_questions(runs):
    found = se.explanation(runs, V2_A, se.RUN + V2_B)
    view = se.explain_view(runs, V2_A, se.RUN + V2_B)
    assert view.references is not None  # the run shown's references, even against another run
    causes = [step for step in found.gap.steps if step.delta or step.changes]
    assert sum((step.delta for step in causes), Fraction(0)) == found.gap.total
    rows = view.lists.to_dict("records")
    assert [row["List"] for row in rows] == [*(s.cause for s in causes), "A right, B wrong", "B right, A wrong"]
    for step, walk in zip(causes, view.walks, strict=False):
        assert walk["ids"] == step.question_ids and walk["run"] == V2_A
    assert view.walks[-2]["ids"] == found.paired.only_a_ids and view.walks[-1]["ids"] == found.paired.only_b_ids
    o = found.paired.overall
    assert f"| **A right** | {o.both} | {o.only_a} |" in view.summary
    assert f"McNemar p = **{o.p_value:.4g}**" in view.summary
    assert view.flips.iloc[0]["n"] == o.n


def test_a_cause_opens_browse_on_its_first_question_and_walks_only_its_list(runs):
    view = se.explain_view(runs, V2_A, se.READER + "official")
    index = next(i for i, row in enumerate(view.lists.to_dict("records")) if row["List"] == "reading")
    key, ref, walk_value = se.open_target(runs, view.walks, index)
    walk = rd.Walk.of(walk_value)
    assert key == "videomme-v2:mcq" and ref == walk.ids[0]
    ids = rd.walk_ids(runs, walk)
    assert ids == list(walk.ids) and len(ids) == view.lists.iloc[index]["Questions"]
    assert rd.position_text(ids, ref, walk).startswith(f"**1 of {len(ids)}** reading (answers read differently)")
    assert rd.step(ids, ids[-1], 1) == ids[-1]  # the walk stays in the cause's list
    # choosing a list in Browse's own controls leaves the cause's list
    assert rd.walk_ids(runs, rd.Walk(run=V2_A, status="all")) != ids
    assert se.open_target(runs, view.walks, len(view.walks)) is None


def test_a_figure_typed_or_unreachable(runs):
    found = se.explanation(runs, MCQ_A, se.FIGURE, "40")
    assert found.gap.b == "40 (typed)" and found.gap.parts_add_up()
    assert found.gap.steps[-1].cause == "unexplained" and any("nearest" in note for note in found.gap.notes)
    for text in ("", "about half", "GPT-4o/nope"):
        with pytest.raises(MathReelError) as error:
            se.explanation(runs, MCQ_A, se.FIGURE, text)
        assert "--" not in str(error.value)  # the page's words, not a command-line flag


def test_no_run_is_a_message(runs):
    with pytest.raises(MathReelError, match="score a result file first"):
        se.explain_view([], None, se.NOTHING)
