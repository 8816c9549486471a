"""The command line on round three's hostile inputs: CR-only line ends read in every file kind, and what used to end
in a traceback (a 400-digit judge score, `agreement --seed -1`) is one line or a counted failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.fake_openai import DEFAULT_MODEL, FakeOpenAI, Recorded

from mathreel.core.data.records import read_records
from mathreel.core.judge import read_judgments
from mathreel.core.results import read_results
from mathreel.core.review import read_reviews, reviews_from_text

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
RESULTS = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def cr_only(source: Path, target: Path) -> Path:
    lines = [line for line in source.read_text(encoding="utf-8").split("\n") if line.strip()]
    target.write_bytes("\r".join(lines).encode("utf-8") + b"\r")
    return target


@pytest.mark.parametrize("ends", ["\r", "\r\n", "\n", "mixed"])
def test_every_jsonl_kind_reads_any_line_end(tmp_path, ends):
    def rewrite(source: Path, name: str) -> Path:
        lines = [line for line in source.read_text(encoding="utf-8").split("\n") if line.strip()]
        if ends == "mixed":
            text = "".join(line + ("\r", "\n", "\r\n")[i % 3] for i, line in enumerate(lines))
        else:
            text = "".join(line + ends for line in lines)
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8"))
        return path

    assert len(read_judgments(rewrite(JUDGMENTS, "j.jsonl"))) == 36
    assert len(read_reviews(rewrite(REVIEWS, "r.jsonl"))) == 24
    assert len(reviews_from_text(rewrite(REVIEWS, "r2.jsonl").read_bytes().decode(), "upload")) == 24
    assert len(read_results(rewrite(RESULTS, "res.jsonl")).predictions) == 12
    assert len(read_records(rewrite(RESULTS, "ann.jsonl"))) == 12


def test_line_numbers_count_cr_only_lines(tmp_path):
    lines = [line for line in REVIEWS.read_text(encoding="utf-8").split("\n") if line.strip()]
    lines[4] = "{not json"
    path = tmp_path / "bad.jsonl"
    path.write_bytes("\r".join(lines).encode())
    with pytest.raises(Exception, match="line 5"):
        read_reviews(path)


def test_a_line_separator_inside_a_string_is_no_line_end(tmp_path):
    review = json.loads(REVIEWS.read_text().split("\n")[0])
    review["note"] = "one\u2028two\u0085three\x0cfour"
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(review, ensure_ascii=False) + "\r", encoding="utf-8")
    assert read_reviews(path)[0].note == review["note"]


def test_the_cli_scores_judges_and_agrees_on_cr_only_files(tmp_path):
    results, judgments, reviews = (cr_only(p, tmp_path / p.name) for p in (RESULTS, JUDGMENTS, REVIEWS))
    for argv in (
        ["score", str(results), "--judge", str(judgments), "--reviews", str(reviews)],
        ["agreement", str(judgments), str(reviews)],
    ):
        run = subprocess.run([str(MATHREEL), *argv], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr


def huge_score(recorded: Recorded) -> str:
    if recorded.text.startswith("You grade"):
        return '{"matched_steps": "2/3", "final_answer_correct": 0, "critique": "x", "score": ' + "9" * 400 + "}"
    if recorded.text.startswith("You read a model's answer"):
        return json.dumps({"answer": "B"})
    return json.dumps({"primary": {"category": "Calculation errors", "rationale": "x"}})


def test_a_judge_score_of_400_digits_is_a_counted_failure_and_the_file_is_written(tmp_path):
    results, out = tmp_path / "run.jsonl", tmp_path / "judged.jsonl"
    results.write_text(
        json.dumps(
            {
                "question_id": "q1",
                "question": "What is 3 + 4?",
                "response": "7, so B.",
                "options": ["A. 6", "B. 7", "C. 8", "D. 9", "E. 12"],
                "answer": "B",
                "steps": ["Read 3 and 4.", "Add them.", "Pick 7."],
                "category": "Arithmetic",
                "length": "short",
                "videoID": "v",
            }
        )
        + "\n"
    )
    with FakeOpenAI(reply=huge_score) as server:
        run = subprocess.run(
            [
                str(MATHREEL),
                "judge",
                str(results),
                "--benchmark",
                "videomathqa",
                "--mode",
                "mcq",
                "--base-url",
                server.base_url,
                "--model",
                DEFAULT_MODEL,
                "--out",
                str(out),
                "--no-cache",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert "Traceback" not in run.stderr and run.returncode in (0, 1)
    steps = next(j for j in read_judgments(out) if j.task == "steps")
    assert steps.failed and "outside 0-10" in steps.reason
