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
    done = subprocess.run(
        [MATHREEL, "score", str(RESULTS), "--annotations", str(DEMO / "videomathqa"), "--json", "--rows", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
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
    done = subprocess.run(
        [
            MATHREEL,
            "score",
            str(DEMO / "results" / "videomme_synthetic-model-a_results.json"),
            "--judge",
            str(JUDGMENTS),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "the judgments are for videomathqa mcq" in done.stderr


def score_file(results: Path, *args: str) -> dict:
    done = subprocess.run(
        [MATHREEL, "score", str(results), "--annotations", str(DEMO / "videomathqa"), "--json", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def judge_note(report: dict) -> str:
    return next(note for note in report["detected"] if note.startswith("judge: "))


def test_another_models_judgments_are_ignored_with_the_reason() -> None:
    own = score_file(RESULTS, "--judge", str(JUDGMENTS))
    model_a = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-a_judgments.jsonl"
    other = score_file(RESULTS, "--judge", str(model_a))
    plain = score_file(RESULTS)
    # Model A's judgments once gave model B 10 of 12 (83.3%) instead of its 6.
    assert other["overall"]["correct"] == plain["overall"]["correct"] == own["overall"]["correct"] == 6
    assert "0 of 12 judgments applied" in judge_note(other)
    assert "judged a different response" in judge_note(other)
    assert "12 of 12 judgments applied" in judge_note(own)


def test_the_same_results_in_another_order_or_shape_take_every_judgment(tmp_path: Path) -> None:
    expected = score_file(RESULTS, "--judge", str(JUDGMENTS))["overall"]
    lines = [line for line in RESULTS.read_text().splitlines() if line.strip()]
    variants = {
        "reversed.jsonl": "\n".join(reversed(lines)) + "\n",
        "blank.jsonl": "\n".join([*lines[:5], "", *lines[5:]]) + "\n",
        "array.json": "[" + ",\n".join(lines) + "]",
    }
    for name, text in variants.items():
        path = tmp_path / name
        path.write_text(text)
        report = score_file(path, "--judge", str(JUDGMENTS))
        assert report["overall"] == expected, name
        assert "12 of 12 judgments applied" in judge_note(report), name


def test_a_letter_the_benchmark_does_not_have_is_ignored_not_scored_wrong(tmp_path: Path) -> None:
    plain = score_file(RESULTS, "--rows")
    lines = [json.loads(line) for line in JUDGMENTS.read_text().splitlines()]
    for line, weird in zip([x for x in lines if x["task"] == "extract"], ("Z", "answer: A", "<script>"), strict=False):
        line["values"]["answer"] = weird
    judged_file = tmp_path / "weird.jsonl"
    judged_file.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = score_file(RESULTS, "--rows", "--judge", str(judged_file))
    assert "3 answer is not one of the question's letters" in judge_note(report)
    weird_ids = [x["question_id"] for x in lines if x["task"] == "extract"][:3]
    for qid in weird_ids:
        before = next(r for r in plain["rows"] if r["question_id"] == qid)
        after = next(r for r in report["rows"] if r["question_id"] == qid)
        assert (after["extracted"], after["status"]) == (before["extracted"], before["status"])
