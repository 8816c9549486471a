"""`mathreel score --judge`: a judge file's extractions replace the rule reading of the answers they cover."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
RESULTS = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def score(*args: str) -> dict:
    done = subprocess.run([MATHREEL, "score", str(RESULTS), "--annotations",
                           str(DEMO / "videomathqa"), "--json", "--rows", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_judge_reading_replaces_the_rule_reading(tmp_path: Path) -> None:
    plain = score()
    unparsed = next(row for row in plain["rows"] if row["status"] == "unparsed")
    # A judge that reads the gold letter in the answer the rules could not read.
    lines = [json.loads(line) for line in JUDGMENTS.read_text().splitlines()]
    for line in lines:
        if line["task"] == "extract" and line["question_id"] == unparsed["question_id"]:
            line["values"] = {"answer": unparsed["gold"], "source": "judge", "explanation": "the judge read it"}
    judged_file = tmp_path / "judged.jsonl"
    judged_file.write_text("".join(json.dumps(line) + "\n" for line in lines))

    judged = score("--judge", str(judged_file))

    row = next(r for r in judged["rows"] if r["question_id"] == unparsed["question_id"])
    assert (row["extracted"], row["status"]) == (unparsed["gold"], "correct")
    assert row["method"].startswith("judge")
    assert judged["overall"]["correct"] == plain["overall"]["correct"] + 1
    assert any(note.startswith("judge: ") for note in judged["detected"])


def test_judgments_of_another_benchmark_are_refused_in_one_line() -> None:
    done = subprocess.run([MATHREEL, "score",
                           str(DEMO / "results" / "videomme_synthetic-model-a_results.json"), "--judge",
                           str(JUDGMENTS)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "the judgments are for videomathqa mcq" in done.stderr
