"""Readers for the files users already have: first-generation Video-MME templates, lmms-eval >= 0.4 MathVerse
logs, VLMEvalKit predictions (xlsx, tsv, json) joined to the dataset, and lmms-eval's aggregate results file.
Every file is written here in the layout the upstream code writes (docs/sources.md names each source)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.errors import InputError
from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.numbers import one_decimal
from mathreel.core.scoring.text import format_report

MATHREEL = Path(sys.executable).with_name("mathreel")


def _first_generation_template() -> list[dict]:
    """The June 2024 template's keys: duration_category, video_category, video_subcategory, choices."""
    videos = []
    for v, (duration, domain, sub) in enumerate(
        [("short", "Knowledge", "Astronomy"), ("medium", "Sports Competition", "Football")]
    ):
        questions = [
            {
                "question_id": f"00{v}-{k}",
                "task_type": "Counting Problem",
                "question": f"Q{v}{k}?",
                "choices": ["A. one.", "B. two.", "C. three.", "D. four."],
                "answer": "ABC"[k - 1],
                "response": ("Answer: C. three." if k == 3 else "A"),
            }
            for k in (1, 2, 3)
        ]
        videos.append(
            {
                "video_id": f"00{v}",
                "duration_category": duration,
                "video_category": domain,
                "video_subcategory": sub,
                "questions": questions,
            }
        )
    return videos


def test_first_generation_template_keeps_every_breakdown(tmp_path):
    path = tmp_path / "template.json"
    path.write_text(json.dumps(_first_generation_template()))
    result = read_results(path)
    report = score(result)
    assert set(report.by) == {"duration", "domain", "sub_category", "task_type"}
    assert set(report.by["duration"]) == {"short", "medium"}
    assert set(report.by["sub_category"]) == {"Astronomy", "Football"}
    assert not [w for w in result.warnings if "breakdown" in w]
    assert result.predictions[0].question.options[2] == "C. three."
    assert (report.overall.n, report.overall.correct) == (6, 4)


def test_a_declared_dimension_absent_from_the_file_is_warned(tmp_path):
    records = [
        {
            "question_id": f"00{i}-1",
            "duration": "short",
            "domain": "Knowledge",
            "task_type": "OCR Problems",
            "answer": "A",
            "response": "A",
        }
        for i in range(3)
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(map(json.dumps, records)))
    result = read_results(path)
    (warning,) = [w for w in result.warnings if "absent" in w]
    assert "Sub-category (sub_category)" in warning and "Duration" not in warning


def _mathverse_04_sample(doc_id: int, version: str, answer: str, response: str) -> dict:
    """A sample as lmms-eval 0.4 writes it for mathverse_testmini: per-question fields in `submission`."""
    submission = {
        "sample_index": str(doc_id + 1),
        "problem_index": str(doc_id // 2 + 1),
        "problem_version": version,
        "question": "Find the angle.",
        "answer": answer,
        "prediction": response,
        "question_type": "multi-choice",
        "metadata": {"subject": "Plane Geometry", "subfield": "Angle"},
        "query_wo": "q",
        "query_cot": "q",
        "question_for_eval": "Find the angle.\nChoices:\nA:30\nB:60",
        "true_false": answer in response,
    }
    return {
        "doc_id": doc_id,
        "target": answer,
        "arguments": [],
        "resps": [[response]],
        "filtered_resps": [response],
        "gpt_eval_score": int(answer in response),
        "submission": submission,
    }


@pytest.mark.parametrize("benchmark", [None, "mathverse"])
def test_lmms_eval_04_mathverse_logs_are_read(tmp_path, benchmark):
    samples = [
        _mathverse_04_sample(i, version, "A", "The answer is A" if i % 3 else "B")
        for i, version in enumerate(["Text Dominant", "Text Lite", "Vision Only", "Vision Dominant"])
    ]
    path = tmp_path / "mathverse_testmini_samples.jsonl"
    path.write_text("\n".join(map(json.dumps, samples)))
    result = read_results(path, benchmark=benchmark)
    assert result.benchmark == "mathverse"
    assert [p.question.question_id for p in result.predictions] == ["1", "2", "3", "4"]
    report = score(result)
    assert (report.overall.n, report.overall.correct) == (4, 2)
    assert report.overall.clustered_by == "problem" and report.overall.clusters == 2
    assert "clustered by problem (2 clusters)" in format_report(report)
    assert any("only 2 clusters (problem)" in w for w in report.warnings)


def test_lmms_eval_aggregate_results_points_to_the_samples(tmp_path):
    path = tmp_path / "20260101_results.json"
    path.write_text(
        json.dumps(
            {
                "results": {"videomme": {"videomme_perception_score,none": 55.1}},
                "configs": {},
                "versions": {},
                "n-shot": {},
                "git_hash": "abc",
            }
        )
    )
    with pytest.raises(InputError, match=r"aggregate results file.*_samples_<task>\.jsonl"):
        read_results(path)


def _vlmeval_rows() -> list[dict]:
    """VLMEvalKit Video-MME predictions: the columns of vlmeval/dataset/videomme.py plus `prediction`."""
    rows = []
    for index, question in enumerate(load_dataset("videomme", data_dir=demo_dir()).questions):
        rows.append(
            {
                "index": index,
                "video": question.video_id,
                "video_path": f"./video/{question.video_id}.mp4",
                "duration": question.dims["duration"],
                "domain": question.dims["domain"],
                "candidates": str(list(question.options)),
                "sub_category": question.dims["sub_category"],
                "task_type": question.dims["task_type"],
                "question": question.question,
                "answer": question.answer,
                "prediction": question.answer if index % 2 else "Z",
            }
        )
    return rows


def _write_vlmeval(rows: list[dict], path: Path) -> Path:
    frame = pd.DataFrame(rows)
    if path.suffix == ".xlsx":
        frame.to_excel(path, index=False, engine="openpyxl")
    elif path.suffix == ".tsv":
        frame.to_csv(path, sep="\t", index=False, quoting=csv.QUOTE_MINIMAL)
    else:
        path.write_text(json.dumps(rows))
    return path


@pytest.mark.parametrize("suffix", [".xlsx", ".tsv", ".json"])
def test_vlmevalkit_predictions_score_standalone(tmp_path, suffix):
    rows = _vlmeval_rows()
    result = read_results(_write_vlmeval(rows, tmp_path / f"model_Video-MME{suffix}"))
    assert result.benchmark == "videomme" and result.format.startswith("VLMEvalKit")
    report = score(result)
    assert (report.overall.n, report.overall.correct) == (8, 4)
    assert report.overall.clustered_by == "video"
    assert result.predictions[0].question.options[0] == rows[0]["candidates"][2:-2].split("', '")[0]
    assert any("row index" in note for note in result.notes)


@pytest.mark.parametrize("suffix", [".xlsx", ".tsv", ".json"])
def test_vlmevalkit_predictions_join_by_video_and_question_or_index(tmp_path, suffix):
    rows = _vlmeval_rows()
    rows[1]["question"] = ""  # no text: joined by index
    rows[2]["question"] = "A question the dataset does not have"  # neither: reported, not joined
    rows[3]["index"], rows[4]["index"] = rows[4]["index"], rows[3]["index"]  # swapped indexes: text decides
    result = read_results(_write_vlmeval(rows, tmp_path / f"run{suffix}"), annotations=demo_dir())
    dataset = [q.question_id for q in load_dataset("videomme", data_dir=demo_dir()).questions]
    assert [p.question.question_id for p in result.predictions] == [dataset[i] for i in (0, 1, 3, 4, 5, 6, 7)]
    assert [q.question_id for q in result.missing] == [dataset[2]]
    assert result.unknown_ids == ["row 2 (not joined)"]
    assert any("6 by video and question, 1 by index" in note for note in result.notes)


def test_the_cli_reads_an_xlsx_file(tmp_path):
    path = _write_vlmeval(_vlmeval_rows(), tmp_path / "model_Video-MME.xlsx")
    run = subprocess.run([str(MATHREEL), "score", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["overall"]["correct"] == 4


def test_a_damaged_xlsx_is_one_line(tmp_path):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"PK\x03\x04" + bytes(300))
    with pytest.raises(InputError, match=r"unreadable \.xlsx"):
        read_results(path)


def test_videomme_ids_name_their_video_when_no_video_id_is_stored(tmp_path):
    """lmms-eval 0.4 Video-MME logs carry no videoID: `NNN-k` ids still cluster by their video."""
    records = [
        {
            "question_id": f"{v:03d}-{k}",
            "duration": "short",
            "domain": "Knowledge",
            "sub_category": "Astronomy",
            "task_type": "OCR Problems",
            "answer": "A",
            "response": "AB"[k % 2],
        }
        for v in range(40)
        for k in (1, 2, 3)
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(map(json.dumps, records)))
    result = read_results(path)
    report = score(result)
    assert (report.overall.clusters, report.overall.clustered_by) == (40, "video")
    assert not any("clusters" in w for w in report.warnings)
    assert any("groups questions by video (its id names the video)" in n for n in result.notes)


def test_two_clusters_with_zero_se_warn(tmp_path):
    records = [
        {
            "question_id": f"q{i}",
            "video_id": f"v{i % 2}",
            "duration": "short",
            "domain": "Knowledge",
            "sub_category": "Astronomy",
            "task_type": "OCR Problems",
            "answer": "A",
            "response": "A" if i < 2 else "B",
        }
        for i in range(4)
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(map(json.dumps, records)))
    report = score(read_results(path))
    assert report.overall.clusters == 2 and report.overall.clustered_se == 0.0
    assert any(w.startswith("only 2 clusters (video)") and "30" in w for w in report.warnings)


@pytest.mark.parametrize(
    ("value", "shown"),
    [(35.25, "35.3"), (35.249, "35.2"), (93.65, "93.7"), (0.05, "0.1"), (45.2501, "45.3"), (100.0, "100.0")],
)
def test_one_rounding_for_every_view(value, shown):
    assert one_decimal(value) == shown


def test_json_text_equals_the_cli_text(tmp_path):
    path = tmp_path / "template.json"
    path.write_text(json.dumps(_first_generation_template()))
    report = score(read_results(path))
    data = report.to_dict()
    accuracy, ci = data["overall"]["text"].split(" ", 1)
    assert f"= {accuracy}  95% CI {ci}" in format_report(report)
    for value, cell in data["by"]["duration"].items():
        assert any(
            line.startswith(value) and line.endswith(cell["text"].split(" ", 1)[1])
            for line in format_report(report).splitlines()
        )
