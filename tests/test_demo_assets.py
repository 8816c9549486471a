"""The committed demo set (assets/demo) meets the issue's counts and schemas, its media decode, and the committed
generator reproduces its tabular and text files byte for byte."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import decord
import pyarrow.parquet as pq
import pysrt
import pytest

from mathreel.core.benchmarks.mathverse import MAIN_VERSIONS, SUBFIELDS, SUBJECTS
from mathreel.core.benchmarks.videomathqa import CATEGORIES, DIFFICULTIES, DURATIONS, REASONING_TYPES
from mathreel.core.benchmarks.videomme import DOMAINS, SUB_CATEGORIES, TASK_TYPES
from mathreel.core.question import split_option

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demo"
GENERATOR = ROOT / "assets" / "generate_demo.py"
VMQ = DEMO / "videomathqa"
VME = DEMO / "videomme"
MV = DEMO / "mathverse"
RESULTS = DEMO / "results"

VMQ_COLUMNS = [
    "videoID",
    "question_id",
    "category",
    "question",
    "options",
    "answer",
    "steps",
    "length",
    "difficulty",
    "reasoning_type",
]
VME_COLUMNS = [
    "video_id",
    "duration",
    "domain",
    "sub_category",
    "url",
    "videoID",
    "question_id",
    "task_type",
    "question",
    "options",
    "answer",
]
MV_FIELDS = [
    "sample_index",
    "problem_index",
    "problem_version",
    "question",
    "image",
    "answer",
    "question_type",
    "metadata",
    "query_wo",
    "query_cot",
    "question_for_eval",
]


def _rows(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def _lenient_json(path: Path):
    """JSON that may carry the Video-MME template's trailing commas."""
    return json.loads(re.sub(r",(\s*[\]}])", r"\1", path.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def mcq() -> list[dict]:
    return _rows(VMQ / "videomathqa_mcq_test.parquet")


@pytest.fixture(scope="module")
def mbin() -> list[dict]:
    return _rows(VMQ / "videomathqa_mbin_test.parquet")


@pytest.fixture(scope="module")
def videomme() -> list[dict]:
    return _rows(VME / "videomme" / "test-00000-of-00001.parquet")


@pytest.fixture(scope="module")
def testmini() -> list[dict]:
    return json.loads((MV / "testmini.json").read_text(encoding="utf-8"))


def test_videomathqa_mcq_counts_and_fields(mcq):
    assert pq.read_schema(VMQ / "videomathqa_mcq_test.parquet").names == VMQ_COLUMNS
    assert len(mcq) >= 10
    assert len({r["question_id"] for r in mcq}) == len(mcq)
    assert len({r["category"] for r in mcq}) >= 6
    assert {r["length"] for r in mcq} == set(DURATIONS)
    for row in mcq:
        assert row["category"] in CATEGORIES
        assert row["difficulty"] in DIFFICULTIES
        assert row["reasoning_type"] in REASONING_TYPES
        assert [split_option(o)[0] for o in row["options"]] == list("ABCDE"), row["question_id"]
        assert len({split_option(o)[1] for o in row["options"]}) == 5, row["question_id"]
        assert row["answer"] in "ABCDE" and len(row["answer"]) == 1
        assert 4 <= len(row["steps"]) <= 10, row["question_id"]
        assert row["question"].strip()
    assert len({r["answer"] for r in mcq}) == 5, "the correct letter should vary across questions"


def test_videomathqa_answers_are_what_the_worked_solutions_reach(mcq):
    """The last annotated step ends in the value of the option the answer letter points at."""
    for row in mcq:
        gold = dict(split_option(o) for o in row["options"])[row["answer"]]
        value = re.match(r"[\d.]+", gold).group(0)
        last = row["steps"][-1]
        assert re.search(rf"(?<![\d.]){re.escape(value)}(?![\d])", last), (row["question_id"], gold, last)


def test_videomathqa_mbin_is_derived_as_the_benchmark_does(mcq, mbin):
    assert pq.read_schema(VMQ / "videomathqa_mbin_test.parquet").names == VMQ_COLUMNS
    assert len(mbin) == 4 * len(mcq)
    pairs = {r["question_id"]: r for r in mbin}
    for row in mcq:
        texts = dict(split_option(o) for o in row["options"])
        correct = texts.pop(row["answer"])
        seen_wrong = []
        for k in range(1, 5):
            pair = pairs[f"{row['question_id']}_{k}"]
            assert [split_option(o)[0] for o in pair["options"]] == ["A", "B"]
            pair_texts = [split_option(o)[1] for o in pair["options"]]
            assert pair["answer"] == ("A" if k % 2 else "B")
            assert pair_texts["AB".index(pair["answer"])] == correct
            seen_wrong.append(pair_texts[1 - "AB".index(pair["answer"])])
            for key in ("videoID", "category", "question", "steps", "length", "difficulty", "reasoning_type"):
                assert pair[key] == row[key]
        assert sorted(seen_wrong) == sorted(texts.values())


def test_videomme_counts_and_fields(videomme):
    assert pq.read_schema(VME / "videomme" / "test-00000-of-00001.parquet").names == VME_COLUMNS
    assert len(videomme) >= 6
    assert {r["duration"] for r in videomme} == set(DURATIONS)
    assert len({r["domain"] for r in videomme}) >= 3
    assert len({r["task_type"] for r in videomme}) >= 3
    for row in videomme:
        assert row["domain"] in DOMAINS and row["sub_category"] in SUB_CATEGORIES and row["task_type"] in TASK_TYPES
        assert [split_option(o)[0] for o in row["options"]] == list("ABCD")
        assert row["answer"] in "ABCD" and len(row["answer"]) == 1
        assert row["question_id"].startswith(row["video_id"] + "-")


def test_mathverse_problems_in_all_five_versions(testmini):
    by_problem: dict[str, dict[str, dict]] = {}
    for record in testmini:
        assert list(record) == MV_FIELDS
        by_problem.setdefault(record["problem_index"], {})[record["problem_version"]] = record
        assert record["question_type"] in ("multi-choice", "free-form")
        assert record["metadata"]["subject"] in SUBJECTS and record["metadata"]["subfield"] in SUBFIELDS
        assert record["image"].startswith("images/") and record["image"].endswith(".png")
        assert record["question_for_eval"].strip()
    assert len(by_problem) >= 3
    assert {r["question_type"] for r in testmini} == {"multi-choice", "free-form"}
    for versions in by_problem.values():
        assert set(versions) == set(MAIN_VERSIONS)
        vision_only = versions["Vision Only"]
        assert vision_only["question"] == ""
        assert vision_only["query_wo"].startswith("According to the question shown in the image")
        lengths = [len(versions[v]["question"]) for v in MAIN_VERSIONS]
        assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == 5, "text must shrink per version"
        for version in MAIN_VERSIONS[:4]:
            record = versions[version]
            assert record["question_for_eval"] == record["question"]
            assert record["query_cot"].endswith("\nQuestion: " + record["question"])
            assert record["query_cot"].startswith("Please first conduct reasoning")
        if versions["Text Dominant"]["question_type"] == "multi-choice":
            assert versions["Text Dominant"]["answer"] in "ABCD"


def _srt_end(path: Path) -> float:
    subs = pysrt.open(str(path), encoding="utf-8")
    assert len(subs) >= 3, path.name
    assert all(s.text.strip() for s in subs), path.name
    return subs[-1].end.ordinal / 1000


def test_every_referenced_file_exists_videos_decode_and_subtitles_parse(mcq, videomme, testmini):
    media = [(VMQ / "videos" / f"{v}.mp4", VMQ / "subtitles" / f"{v}.srt") for v in {r["videoID"] for r in mcq}]
    media += [(VME / "data" / f"{v}.mp4", VME / "subtitle" / f"{v}.srt") for v in {r["videoID"] for r in videomme}]
    for video, subtitle in media:
        assert video.is_file() and subtitle.is_file(), video.name
        reader = decord.VideoReader(str(video))
        frames = len(reader)
        assert frames > 1, video.name
        assert reader[frames - 1].shape[2] == 3
        assert _srt_end(subtitle) <= frames / reader.get_avg_fps() + 1e-6, f"{subtitle.name} runs past its video"
    for record in testmini:
        assert (MV / record["image"]).is_file(), record["image"]


def test_demo_set_is_under_8_mb():
    total = sum(p.stat().st_size for p in DEMO.rglob("*") if p.is_file())
    assert total < 8 * 1024 * 1024, f"{total / 1e6:.2f} MB"


@pytest.mark.parametrize("mode", ["mcq", "mbin"])
def test_videomathqa_result_logs_have_both_lmms_eval_layouts(mode, mcq, mbin):
    ids = {r["question_id"] for r in (mcq if mode == "mcq" else mbin)}
    old = [json.loads(line) for line in (RESULTS / f"videomathqa_{mode}_synthetic-model-a_samples.jsonl").open()]
    new = [json.loads(line) for line in (RESULTS / f"videomathqa_{mode}_synthetic-model-b_samples.jsonl").open()]
    for line in old:
        assert set(line["doc"]) >= set(VMQ_COLUMNS)
        assert isinstance(line["resps"], list) and isinstance(line["resps"][0], list)
        assert isinstance(line["resps"][0][0], str) and line["target"] == line["doc"]["answer"]
        assert line["model"] == "synthetic-model-a" and "filtered_resps" not in line
    for line in new:
        metric = line["videomathqa_perception_score"]
        assert set(metric) == {"question_id", "duration", "category", "pred_answer", "answer"}
        assert isinstance(line["filtered_resps"][0], str) and "doc" not in line
        assert line["model"] == "synthetic-model-b"
    assert {line["doc"]["question_id"] for line in old} == ids
    assert {line["videomathqa_perception_score"]["question_id"] for line in new} == ids


def test_videomme_results_follow_the_official_template(videomme):
    ids = {r["question_id"] for r in videomme}
    strict = json.loads((RESULTS / "videomme_synthetic-model-a_results.json").read_text(encoding="utf-8"))
    template_path = RESULTS / "videomme_synthetic-model-b_results.json"
    with pytest.raises(json.JSONDecodeError):  # keeps the published template's trailing commas
        json.loads(template_path.read_text(encoding="utf-8"))
    for run, entries in (("synthetic-model-a", strict), ("synthetic-model-b", _lenient_json(template_path))):
        seen = set()
        for video in entries:
            assert {"video_id", "duration", "domain", "sub_category", "questions"} <= set(video)
            for question in video["questions"]:
                assert {"question_id", "task_type", "question", "options", "answer", "response"} <= set(question)
                assert question["model"] == run and isinstance(question["response"], str)
                seen.add(question["question_id"])
        assert seen == ids


def test_mathverse_outputs_are_testmini_records_with_model_answer(testmini):
    for run in ("synthetic-model-a", "synthetic-model-b"):
        rows = json.loads((RESULTS / f"mathverse_{run}_output.json").read_text(encoding="utf-8"))
        assert [r["sample_index"] for r in rows] == [r["sample_index"] for r in testmini]
        for row, record in zip(rows, testmini, strict=True):
            assert {k: row[k] for k in MV_FIELDS} == record
            assert isinstance(row["model_answer"], str) and row["model"] == run


def test_runs_score_differently_with_wrong_and_unparsed_answers():
    """Through the real reader and scorer: model A beats model B on every benchmark, and each benchmark's runs
    contain wrong and unparsed answers (the point of the demo results)."""
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score

    files = {
        "videomathqa mcq": ("videomathqa_mcq_{}_samples.jsonl", VMQ / "videomathqa_mcq_test.parquet"),
        "videomathqa mbin": ("videomathqa_mbin_{}_samples.jsonl", VMQ / "videomathqa_mbin_test.parquet"),
        "videomme": ("videomme_{}_results.json", None),
        "mathverse": ("mathverse_{}_output.json", None),
    }
    for name, (pattern, dataset) in files.items():
        reports = [
            score(read_results(RESULTS / pattern.format(run), annotations=dataset))
            for run in ("synthetic-model-a", "synthetic-model-b")
        ]
        assert reports[0].overall.accuracy > reports[1].overall.accuracy, name
        statuses = {row.status for report in reports for row in report.rows}
        assert {"correct", "wrong", "unparsed"} <= statuses, (name, statuses)


def test_generator_reproduces_the_committed_files(tmp_path):
    """Regenerating without video gives the committed non-video files byte for byte, and no more or fewer.

    `judgments/` is left out: the judge's precomputed demo judgments are made by their own script. Parquet files
    compare by content: their footer names the pyarrow that wrote them, which differs between Pythons.
    """
    subprocess.run(
        [sys.executable, str(GENERATOR), "--out", str(tmp_path), "--no-video"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    generated = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()}
    committed = {
        p.relative_to(DEMO)
        for p in DEMO.rglob("*")
        if p.is_file() and p.suffix != ".mp4" and p.relative_to(DEMO).parts[0] != "judgments"
    }
    assert generated == committed
    for relative in sorted(generated):
        if relative.suffix == ".parquet":
            assert pq.read_table(tmp_path / relative).equals(pq.read_table(DEMO / relative)), str(relative)
        else:
            assert (tmp_path / relative).read_bytes() == (DEMO / relative).read_bytes(), str(relative)


def test_the_readme_states_the_demo_sets_size():
    """The README's size of the demo set is the size of its files (in MB of 10^6 bytes, two decimals)."""
    total = sum(path.stat().st_size for path in DEMO.rglob("*") if path.is_file() and "__pycache__" not in path.parts)
    stated = re.search(r"synthetic demo set in `assets/demo/` \((\d+\.\d+) MB\)", (ROOT / "README.md").read_text())
    assert stated is not None
    assert float(stated.group(1)) == round(total / 1e6, 2)
