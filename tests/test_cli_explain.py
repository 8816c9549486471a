"""`mathreel explain` as a user runs it: text, --json (docs/explain.md) and --csv on the demo files, and one line
with exit status 2 for every bad input."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demo" / "results"
JUDGMENTS = ROOT / "assets" / "demo" / "judgments"
MATHREEL = Path(sys.executable).with_name("mathreel")
MCQ_A = DEMO / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
MCQ_B = DEMO / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
VME_A = DEMO / "videomme_synthetic-model-a_results.json"
VME_B = DEMO / "videomme_synthetic-model-b_results.json"
V2_A = DEMO / "videomme-v2_synthetic-model-a_predictions.tsv"


def explain(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MATHREEL), "explain", *map(str, args)], capture_output=True, text=True, timeout=120)


def test_two_files_json_is_the_documented_object():
    run = explain(VME_A, VME_B, "--extractor", "official", "--json")
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["schema"] == 1 and found["kind"] == "mathreel explain"
    assert set(found) == {
        "schema",
        "kind",
        "runs",
        "references",
        "gap",
        "target",
        "paired",
        "pairwise",
        "frames",
        "notes",
    }
    gap = found["gap"]
    assert gap["parts_add_up"] and gap["text"].endswith(")") and gap["a"]["scorer"]["reader"] == "official"
    assert [step["cause"] for step in gap["steps"]] == [
        "coverage",
        "question",
        "responses",
        "order",
        "reading",
        "judge",
        "denominator",
        "grouping",
    ]
    for step in gap["steps"]:
        assert step["questions"] == len(step["question_ids"]) == len(step["changes"])
        assert set(step) >= {"cause", "means", "label", "delta", "delta_exact", "transitions"}
    paired = found["paired"]
    assert set(paired["overall"]) == {
        "n",
        "both",
        "only_a",
        "only_b",
        "neither",
        "difference",
        "difference_exact",
        "mcnemar_p",
    }
    assert paired["interval"]["seed"] == 0 and paired["interval"]["clusters"] == 4
    assert [r["name"] for r in found["runs"]] == [VME_A.name, VME_B.name]
    assert all("guess" in setting for setting in found["runs"][0]["settings"])
    # Same files, same seed: the same output, interval included.
    assert explain(VME_A, VME_B, "--extractor", "official", "--json").stdout == run.stdout


def test_one_file_lists_every_reference_with_its_commit():
    run = explain(VME_B)
    assert run.returncode == 0, run.stderr
    for commit in (
        "afd52cfe3dde5b3685e0d4f760c10c756860c758",
        "e1e2bffb30b520143e28088db29f8231af1c7c8f",
        "bd51fabcd70c7426b64249a805ed50f346370d67",
        "7a69a9a12f8e6ea872f18762b496b424a8e63a6a",
    ):
        assert commit in run.stdout
    assert (
        "robust -> official (answered): -16.7 pt = -25.0 reading (4 questions) + 8.3 denominator (2 questions)"
        in run.stdout
    )


def test_v2_table_shows_group_scores_under_each_policy():
    found = json.loads(explain(V2_A, "--json").stdout)
    columns = [column["key"] for column in found["references"]["columns"]]
    assert columns == ["all", "answered", "group mathreel", "group official", "group lmms-eval"]
    official = next(row for row in found["references"]["rows"] if row["reader"] == "official")
    assert official["own"] == "group official" and official["commit"].startswith("013b6c92f1c4")


def test_two_extractors_on_one_file():
    found = json.loads(explain(VME_B, "--extractor", "robust", "--extractor", "official", "--json").stdout)
    assert found["gap"]["text"] == "-16.7 pt = -25.0 reading (4 questions) + 8.3 denominator (2 questions)"
    assert found["paired"]["overall"]["n"] == 6  # both count the six questions the official script reads


def test_against_a_typed_figure_and_a_published_one():
    typed = json.loads(explain(VME_B, "--against", "33.3", "--json").stdout)["target"]
    assert typed["reachable"] and typed["best"]["scorer"]["reader"] == "official"
    far = explain(VME_B, "--against", "40")
    assert "no known scorer reaches 40 (typed)" in far.stdout
    paper = explain(MCQ_A, "--paper", "GPT-4o/mcq_v", "--json")
    assert paper.returncode == 0, paper.stderr
    target = json.loads(paper.stdout)["target"]
    assert target["paper"]["table"] == "2" and not target["reachable"]


def test_one_file_with_its_judge_compares_rules_and_judge():
    run = explain(MCQ_B, "--judge", JUDGMENTS / "videomathqa_mcq_synthetic-model-b_judgments.jsonl", "--json")
    gap = json.loads(run.stdout)["gap"]
    assert gap["b"]["scorer"]["judge"] and not gap["a"]["scorer"]["judge"]
    judge = next(step for step in gap["steps"] if step["cause"] == "judge")
    assert judge["question_ids"] == ["q005"] and judge["transitions"] == {"unparsed -> correct": 1}


def test_csv_is_one_line_per_question_of_each_step():
    run = explain(MCQ_A, MCQ_B, "--csv")
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    found = json.loads(explain(MCQ_A, MCQ_B, "--json").stdout)
    assert len(rows) == sum(step["questions"] for step in found["gap"]["steps"])
    assert {row["cause"] for row in rows} == {"question", "responses"}
    assert rows[0].keys() >= {"step", "cause", "delta", "question_id", "status_before", "status_after"}


def test_three_files_give_the_pairwise_matrix():
    found = json.loads(explain(MCQ_A, MCQ_B, MCQ_A, "--json", "--draws", "200").stdout)
    assert found["gap"] is None and len(found["pairwise"]["pairs"]) == 3
    assert found["pairwise"]["pairs"][1]["difference"] == 0


def test_same_frames_on_a_demo_question():
    run = explain(MCQ_A, "--frames-of", "q001", "--plan", "8/midpoints")
    assert run.returncode == 0, run.stderr
    assert "same frames? different frames" in run.stdout and "len/(n+1) steps" in run.stdout


BAD = [
    ((VME_B, "--extractor", "nonsense"), "no extractor 'nonsense'"),
    ((VME_B, "--against", "abc"), "--against"),
    ((MCQ_A, "--paper", "Nobody/mcq_v"), "no model 'Nobody'"),
    ((MCQ_A, "--paper", "GPT-4o"), "MODEL/SETTING"),
    ((VME_A, MCQ_A), "the same questions"),
    ((VME_B, "--unit", "pair"), "per pair"),
    ((VME_A, VME_B, "--judge", JUDGMENTS / "videomathqa_mcq_synthetic-model-a_judgments.jsonl"), "--judge"),
    ((VME_B, "--paper", "GPT-4o/mcq_v"), "no published results"),
    ((DEMO / "mathverse_synthetic-model-a_output.json", "--frames-of", "1"), "have no video"),
    ((VME_B, "--plan", "zero", "--frames-of", "001-1"), "--plan"),
    # a real Video-MME file's 001-1 is another video than the demo's 001-1: not compared on the demo's video
    ((ROOT / "tests" / "data" / "results" / "videomme_template.json", "--frames-of", "001-1"), "not in this data set"),
    ((VME_B, "--draws", "5"), "--draws"),
    ((VME_B, "--plan", "8"), "add --frames-of"),
    ((VME_A, VME_B, "--against", "50"), "one FILE"),
    ((ROOT / "README.md",), "README.md"),
]


@pytest.mark.parametrize(("args", "expected"), BAD, ids=[expected for _, expected in BAD])
def test_bad_input_is_one_line_and_exit_2(args, expected):
    run = explain(*args)
    assert run.returncode == 2, run.stdout
    assert run.stdout == "" and "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], run.stderr
