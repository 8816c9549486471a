"""Video-MME-v2 in the web app, handler by handler: Browse shows a question's group (members, taxonomy, structure),
the walked run's group score with each answer's part, the sampled frames by either rule and the prompt with its
subtitles concatenated or between the frames; Score shows the group scores beside the questions' accuracy and says
whose rule made them. Expected values come from core (the report, build_view), never constants."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.scoring.numbers import one_decimal
from mathreel.core.view import build_view
from mathreel.webapp.browse_events import view_of
from mathreel.webapp.browse_groups import group_markdown, group_scoring
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_page import render_question
from mathreel.webapp.context import DatasetCache
from mathreel.webapp.html import plain
from mathreel.webapp.score_groups import groups_by_table, groups_markdown
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads
from mathreel.webapp.settings import Settings

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
V2_A = DEMO / "videomme-v2_synthetic-model-a_predictions.tsv"
MCQ = DEMO / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
KEY = "videomme-v2:mcq"


@pytest.fixture(scope="module")
def datasets() -> DatasetCache:
    return DatasetCache(Settings())


@pytest.fixture(scope="module")
def dataset(datasets):
    return datasets.get("videomme-v2", "mcq")


@pytest.fixture(scope="module", params=["robust", "official"])
def run(request):
    runs, errors = score_uploads([str(V2_A)], ScoreOptions(extractor=request.param))
    assert errors == []
    return runs[0]


def test_a_question_shows_its_group_in_order_with_kind_structure_and_taxonomy(dataset):
    scheme = dataset.bench.groups
    for question in dataset.questions:
        group = dataset.scored_group(question)
        assert [scheme.position(q) for q in group] == sorted(scheme.position(q) for q in group)
        assert {scheme.key(q) for q in group} == {scheme.key(question)} and question in group
        text = group_markdown(dataset, question)
        facts = scheme.describe(group, scheme_policy())
        assert f"{facts.kind} group" in text and f"`{facts.structure}`" in text
        assert all(f"| {dataset.ref(q)} |" in text or f"**{dataset.ref(q)}**" in text for q in group)
        assert f"**{dataset.ref(question)}**" in text  # the question shown, in bold
    header = render_question(dataset, "003-2", view_of(4, False, False, False)).header
    assert "Group 003" in header and "H. " in header  # eight options, then its group
    structures = {scheme.describe(dataset.scored_group(q), scheme_policy()).structure for q in dataset.questions}
    assert len(structures) == 3  # the demo set has every chain structure


def scheme_policy():
    from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY

    return DEFAULT_GROUP_POLICY


def test_a_benchmark_without_groups_shows_none(datasets):
    other = datasets.get("videomathqa", "mcq")
    assert group_markdown(other, other.questions[0]) == ""
    runs, _ = score_uploads([str(MCQ)], ScoreOptions())
    assert group_scoring(runs[0].report, other.questions[0].question_id, runs[0].name) == ""
    assert groups_markdown(runs) == "" and groups_by_table(runs) is None


def test_the_walked_run_says_how_each_group_scored(datasets, run):
    handlers = BrowseHandlers(datasets)
    for group in run.report.groups.groups:
        ref = group.question_ids[1]
        reading = handlers.reading(KEY, ref, [run], {"run": run.name, "status": "all"}, False)
        assert html.escape(group.result.explanation, quote=False) in reading.response
        text = group_scoring(run.report, ref, run.name)
        for position, (qid, role, mark) in enumerate(
            zip(group.question_ids, group.result.roles, group.marks, strict=True), start=1
        ):
            cells = [str(position), qid, str(mark), role]
            line = next(line for line in text.splitlines() if qid in line)
            assert all(cell in line for cell in cells)
            assert line.startswith("| **") == (qid == ref)
    assert run.report.groups.how.rstrip(".") in group_scoring(run.report, "001-1", run.name)


def test_score_shows_group_scores_beside_accuracy_and_whose_rule(run):
    groups = run.report.groups
    text = groups_markdown([run])
    total = groups.total
    assert f"| **Total** | **{one_decimal(total.score)}** | {total.score_ci.text()} |" in text
    assert f"| {one_decimal(total.accuracy)}% |" in text
    for kind in get_benchmark("videomme-v2").groups.kinds:
        assert f"| **{kind.capitalize()}** | **{one_decimal(groups.kinds[kind].score)}** |" in text
    assert "Relevance, linear" in text
    assert plain(groups.how.rstrip(".")) in text
    for effect in groups.effects:  # what the official script's own rules changed, by how much
        assert plain(effect.text()) in text
    if run.report.extractor == "official":
        assert groups.effects and "-1" in text
    table = groups_by_table([run])
    assert set(table["Dimension"]) == {d.label for d in get_benchmark("videomme-v2").groups.dimensions}


def test_both_samplers_and_both_subtitle_layouts(dataset):
    midpoints = render_question(dataset, "001-1", view_of(4, False, True, False))
    view = build_view(dataset, "001-1", num_frames=4, with_subtitles=True)
    assert midpoints.frame_times == [float(t) for t in view.frames.times]
    assert "at len/(n+1) steps" in midpoints.metadata
    assert midpoints.prompt == view.prompt  # concatenated: the text after every frame
    by_rate = render_question(dataset, "001-1", view_of(4, False, True, False, False, 0.5))
    rated = build_view(dataset, "001-1", num_frames=4, with_subtitles=True, fps=0.5)
    assert by_rate.frame_times == [float(t) for t in rated.frames.times] != midpoints.frame_times
    assert "0.5 frames per second (at most 4)" in by_rate.metadata
    between = render_question(dataset, "001-1", view_of(4, True, True, False, True, 0))
    turn = build_view(dataset, "001-1", num_frames=4, cot=True, interleaved=True).message
    lines = between.prompt.splitlines()
    markers = [i for i, line in enumerate(lines) if line.startswith("[frame ")]
    assert len(markers) == len(turn.frame_positions) == 4 and markers[0] == 0
    assert any(line.startswith("[Subtitle ") for line in lines[markers[0] : markers[1]])  # a segment between frames
    assert "Final Answer:" in between.prompt  # the official reasoning prompt


def test_group_score_charts_by_level_and_head_hold_the_reports_scores(run):
    from mathreel.webapp.score_groups import group_charts

    figures = group_charts([run])
    dims = get_benchmark("videomme-v2").groups.dimensions
    assert [f.layout.title.text for f in figures] == [f"Group score by {d.label.lower()}" for d in dims]
    for figure, dim in zip(figures, dims, strict=True):
        [bars] = figure.data
        cells = run.report.to_dict()["groups"]["by"][dim.key]  # the JSON's two decimals, as the chart shows
        values = bars.x if bars.orientation == "h" else bars.y
        labels = bars.y if bars.orientation == "h" else bars.x
        assert dict(zip(labels, values, strict=True)) == {v: f["score"] for v, f in cells.items()}
        assert ".1f}%" not in bars.hovertemplate and "groups=" in bars.hovertemplate  # scores, not percentages
