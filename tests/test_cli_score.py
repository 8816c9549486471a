"""`mathreel score` through the real command: JSON and text output, and every bad input -> exit 2, one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.jsonl import write_jsonl
from helpers.lmms_logs import lmms_generation

DATA = Path(__file__).parent / "data" / "results"
MATHREEL = Path(sys.executable).with_name("mathreel")


def mathreel(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MATHREEL), "score", *map(str, args)], capture_output=True, text=True, timeout=60)


def test_json_object_has_the_documented_fields():
    run = mathreel(DATA / "videomme_template.json", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    for key in (
        "benchmark",
        "mode",
        "overall",
        "by",
        "unparsed",
        "missing",
        "unknown_ids",
        "disagreements",
        "warnings",
        "extractor",
        "denominator",
        "detected",
    ):
        assert key in data
    assert set(data["overall"]) >= {"n", "correct", "accuracy", "ci", "se", "clustered_se"}
    assert set(data["by"]) == {"duration", "domain", "sub_category", "task_type"}
    assert data["overall"]["accuracy"] == pytest.approx(100 * 7 / 9, abs=0.01)
    assert set(data["by"]["task_type"]["Counting Problem"]) == {"n", "correct", "accuracy", "ci", "text"}
    assert data["overall"]["text"] == "77.8% [45.3, 93.7]" and data["overall"]["clustered_by"] == "video"
    # The current official script deletes "Answer:", so it reads "Answer: C. Jade." as robust does: no disagreement.
    assert (data["extractor"], data["denominator"], data["disagreements"]) == ("robust", "all", 0)


def test_several_files_give_a_list_and_flags_apply(tmp_path):
    samples = write_jsonl(tmp_path / "samples.jsonl", lmms_generation(3))
    run = mathreel(
        DATA / "videomme_template.json", samples, "--json", "--extractor", "official-2024-06-18", "--denominator", "all"
    )
    assert run.returncode == 0, run.stderr
    first, second = json.loads(run.stdout)
    assert first["extractor"] == second["extractor"] == "official-2024-06-18"
    assert "e1e2bffb30b5" in first["official_extractor"]
    assert first["denominator"] == "all"
    assert first["overall"]["correct"] == 6
    assert round(second["overall"]["accuracy"], 1) == 66.7


def test_multibinary_json_counts_questions():
    run = mathreel(DATA / "seed000_pairs.jsonl", "--benchmark", "videomathqa", "--mode", "mbin", "--json")
    data = json.loads(run.stdout)
    assert (data["mode"], data["overall"]["n"], data["overall"]["accuracy"]) == ("mbin", 2, 50.0)
    assert sum("multi-binary groups" in w for w in data["warnings"]) == 1
    assert "only 2 clusters" in data["warnings"][-1]


def test_text_report_has_tables_counts_and_notes():
    run = mathreel(DATA / "videomme_template.json")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "7 of 9 questions correct = 77.8%" in out
    assert "clustered by video (3 clusters)" in out
    assert "Task type" in out and "Counting Problem" in out
    assert "unparsed: 0" in out and "missing: 0" in out
    assert "disagreements: 0" in out
    assert "detected: layout: Video-MME result template" in out


def test_duplicate_ids_are_a_warning_not_an_error(tmp_path):
    records = [
        {"question_id": "q1", "category": "Chart", "duration": "short", "answer": "A", "response": r}
        for r in ("A", "B")
    ]
    run = mathreel(write_jsonl(tmp_path / "dup.jsonl", records), "--json")
    assert run.returncode == 0
    assert "duplicate question ids" in json.loads(run.stdout)["warnings"][0]


def _bad_files(tmp: Path) -> dict[str, tuple[Path, list[str], str]]:
    """name -> (file, extra arguments, expected words in the error)."""
    good = json.dumps({"question_id": "q1", "category": "Chart", "duration": "short", "answer": "A", "response": "A"})
    files = {
        "empty": ("empty.json", b"", [], "empty"),
        "truncated_json": ("t.json", b'[{"question_id": "q1", "response": "A", "ans', [], "truncated or invalid JSON"),
        "truncated_jsonl": ("t.jsonl", (good + "\n" + good[:30]).encode(), [], "line 2: truncated JSON line"),
        "not_json": ("notes.txt", b"hello, this is not a result file\n", [], "unrecognised layout"),
        "binary": ("model.bin", bytes(range(256)) * 4, [], "binary data"),
        "latin1": ("l1.jsonl", '{"question_id": "q1", "response": "caf\u00e9"}\n'.encode("latin-1"), [], "not UTF-8"),
        "no_response": ("nr.jsonl", b'{"question_id": "q1", "answer": "A"}\n', [], "no response"),
        "later_no_response": (
            "nr2.jsonl",
            (good + '\n{"question_id": "q2", "answer": "A"}\n').encode(),
            [],
            "line 2: the record has no response",
        ),
        "layout": ("x.json", b'[{"foo": 1, "bar": 2}]', [], "unrecognised layout"),
        "header_only": ("h.csv", b"question_id,response,answer\n", [], "header but no rows"),
        "other_benchmark": (
            str(DATA / "videomme_template.json"),
            None,
            ["--benchmark", "mathverse"],
            "looks like a Video-MME file",
        ),
        "no_gold": (
            "ids.jsonl",
            b'{"question_id": "001-1", "response": "C"}\n',
            ["--benchmark", "videomme"],
            "no gold answer",
        ),
        "official_mathverse": (
            str(DATA / "mathverse_output.json"),
            None,
            ["--extractor", "official"],
            "no rule-based reference extractor",
        ),
    }
    out = {}
    for name, (file_name, content, args, expected) in files.items():
        path = Path(file_name)
        if content is not None:
            path = tmp / file_name
            path.write_bytes(content)
        out[name] = (path, args, expected)
    return out


BAD = [
    "empty",
    "truncated_json",
    "truncated_jsonl",
    "not_json",
    "binary",
    "latin1",
    "no_response",
    "later_no_response",
    "layout",
    "header_only",
    "other_benchmark",
    "no_gold",
    "official_mathverse",
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_exits_2_with_one_line_naming_the_file(tmp_path, case):
    path, args, expected = _bad_files(tmp_path)[case]
    run = mathreel(path, *args, "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert str(path) in lines[0]
    assert expected in lines[0]
    assert "Traceback" not in run.stderr


def test_bad_file_among_good_ones_prints_nothing(tmp_path):
    bad = tmp_path / "empty.jsonl"
    bad.write_bytes(b"")
    run = mathreel(DATA / "videomme_template.json", bad, "--json")
    assert (run.returncode, run.stdout) == (2, "")
    assert str(bad) in run.stderr


DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
MODEL_B_MCQ = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"


def test_annotations_directory_joins_the_dataset_and_changes_the_score():
    """The newer lmms-eval layout has no options, so the file alone scores 41.7%; joined to the demo dataset's
    options (a response that names the option text is then read) the same answers score 50.0%."""
    alone = json.loads(mathreel(MODEL_B_MCQ, "--json").stdout)
    run = mathreel(MODEL_B_MCQ, "--annotations", DEMO / "videomathqa", "--json")
    assert run.returncode == 0, run.stderr
    joined = json.loads(run.stdout)
    assert round(alone["overall"]["accuracy"], 1) == 41.7
    assert joined["overall"]["accuracy"] == 50.0 and joined["overall"]["n"] == 12
    assert any(note.startswith("annotations: 12 of 12 questions joined") for note in joined["detected"])


def test_rows_flag_adds_the_per_question_rows():
    summary = json.loads(mathreel(DATA / "videomme_template.json", "--json").stdout)
    run = mathreel(DATA / "videomme_template.json", "--json", "--rows")
    assert run.returncode == 0, run.stderr
    full = json.loads(run.stdout)
    assert "rows" not in summary and {k: v for k, v in full.items() if k != "rows"} == summary
    assert [row["status"] for row in full["rows"]].count("correct") == summary["overall"]["correct"] == 7
    assert {
        "question_id",
        "group_id",
        "dims",
        "response",
        "extracted",
        "method",
        "explanation",
        "gold",
        "status",
    } <= set(full["rows"][0])


def test_rows_without_json_is_refused_in_one_line():
    run = mathreel(DATA / "videomme_template.json", "--rows")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.strip() == "mathreel: --rows: per-question rows are part of the JSON output: add --json"


def test_an_error_that_a_flag_fixes_names_the_flag(tmp_path):
    ids = write_jsonl(tmp_path / "ids.jsonl", [{"question_id": "001-1", "response": "C"}])
    run = mathreel(ids)
    assert run.returncode == 2
    assert (
        run.stderr.strip() == f"mathreel: {ids}: cannot tell which benchmark this file is for; pass --benchmark "
        "(or --annotations)"
    )
    run = mathreel(ids, "--benchmark", "videomme")
    assert run.returncode == 2
    assert run.stderr.strip().endswith("no gold answer in the record; give the dataset with --annotations")
