"""The embedded Video-MME-v2 demo set: the dataset's columns and layout, one group of every kind and structure, word
subtitles that show each segmentation rule, videos that decode, and two runs whose group scores are worked out by
hand below (the official run's -1 quirk included)."""

from __future__ import annotations

import json
from pathlib import Path

import av
import pyarrow.parquet as pq
import pytest

from mathreel.core.data import load_dataset
from mathreel.core.media.words import read_words, segments
from mathreel.core.results import read_results
from mathreel.core.scoring import score

ROOT = Path(__file__).resolve().parents[1]
V2 = ROOT / "assets" / "demo" / "videomme-v2"
RESULTS = ROOT / "assets" / "demo" / "results"
COLUMNS = [
    "video_id",
    "url",
    "group_type",
    "group_structure",
    "question_id",
    "question",
    "options",
    "answer",
    "level",
    "second_head",
    "third_head",
]


def test_the_parquet_has_the_dataset_columns_and_every_group_structure():
    assert pq.read_schema(V2 / "test.parquet").names == COLUMNS
    records = pq.read_table(V2 / "test.parquet").to_pylist()
    assert len(records) == 16 and [r["question_id"] for r in records[:4]] == ["001-1", "001-2", "001-3", "001-4"]
    kinds = {(r["group_type"], r["group_structure"]) for r in records}
    assert {k for k in kinds if k[0] == "logic"} == {("logic", s) for s in ("[1,2,3,4]", "[1,[2,3],4]", "[[1,2],3,4]")}
    assert any(k[0] == "relevance" for k in kinds)
    for r in records:
        assert r["answer"] in "ABCDEFGH" and r["options"].count("\n") == 7
        last = r["question_id"].endswith("-4")
        assert (r["level"] is not None) == (r["group_type"] == "relevance" or last), r["question_id"]


def test_the_demo_loads_with_videos_and_word_subtitles():
    data = load_dataset("videomme-v2")
    assert len(data.questions) == 16
    for question in data.questions[::4]:
        video = data.video_path(question)
        with av.open(str(video)) as container:
            assert container.streams.video[0].frames == 40 and container.streams.video[0].codec_context.name == "h264"
        assert data.subtitle_path(question).suffix == ".jsonl"


def test_the_narration_shows_each_segmentation_rule():
    found = [s.text for s in segments(read_words(V2 / "subtitle" / "001.jsonl"))]
    assert found[:2] == ["Welcome to the shape parade.", "Here comes the first one."]  # 0.36 s after a full stop
    assert "Another shape joins the line and waits." in found  # 0.38 s inside a sentence: one segment


def test_the_official_run_scores_as_worked_out_by_hand():
    path = RESULTS / "videomme-v2_synthetic-model-a_predictions.tsv"
    default = score(read_results(path))
    # CUCC relevance: 3 right, 56.25; CCWC chain: 25; CWCC [1,[2,3],4]: Q3 stands in, 33.33; UCCC [[1,2],3,4]: 10.
    assert default.groups.total.score == pytest.approx((56.25 + 25 + 100 / 3 + 10) / 4)
    official = score(read_results(path), extractor="official")
    rating = official.upstream.value["final_rating"]
    # The script: CUCC counts 2 (25); "Based on the video, the answer is F." reads B (CCWW: 25); 33.33; the refusal
    # at Q1 of the last chain is -1, right in a chain: 100.
    assert rating["total"] == pytest.approx((25 + 25 + 100 / 3 + 100) / 4)
    assert rating["relevance_linear_score"] == 50.0 and rating["level_2"] == pytest.approx(62.5)
    assert "002-4" in official.disagreements


def test_the_reasoning_run_keeps_its_thinking_beside_the_answer():
    path = RESULTS / "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["doc_id"] for line in lines][:3] == [0, 2, 4]  # two GPUs' lines, rank by rank
    assert all(line["resps"].startswith("<think>") and "<think>" not in line["filtered_resps"] for line in lines)
    report = score(read_results(path))
    # CCWC relevance 56.25, CWCC chain 6.25, CCCW [1,[2,3],4] 58.33, UCWW: Q2 stands in for Q1, 10.
    assert report.groups.total.score == pytest.approx((56.25 + 6.25 + 175 / 3 + 10) / 4)


def test_the_v2_demo_stays_small():
    size = sum(p.stat().st_size for p in V2.rglob("*") if p.is_file())
    size += sum(p.stat().st_size for p in RESULTS.glob("videomme-v2_*"))
    assert size < 150_000, size


def test_a_question_s_group_and_its_scored_group_are_found():
    data = load_dataset("videomme-v2")
    members = data.scored_group(data.question("003-2"))
    assert [q.question_id for q in members] == ["003-1", "003-2", "003-3", "003-4"]
    assert load_dataset("videomathqa").scored_group(load_dataset("videomathqa").questions[0]) == [
        load_dataset("videomathqa").questions[0]
    ]
    report = score(read_results(RESULTS / "videomme-v2_synthetic-model-a_predictions.tsv"))
    group = report.groups.containing("003-2")
    assert group.question_ids == ("003-1", "003-2", "003-3", "003-4") and group.result.roles[2] == "stands in"
    assert report.groups.containing("999-1") is None
