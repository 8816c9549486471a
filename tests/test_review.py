"""Review files (read, write, merge, bad records), agreement from the CLI and `score --reviews`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.errors import InputError
from mathreel.core.judge.fingerprint import response_fingerprint
from mathreel.core.review import Review, merge_reviews, read_many, read_reviews, reviews_to_text, write_reviews

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
RESULTS = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def mathreel(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MATHREEL, *args], capture_output=True, text=True, timeout=120)


def fingerprint_of(question_id: str) -> str:
    lines = [json.loads(x) for x in JUDGMENTS.read_text().splitlines()]
    return response_fingerprint(next(line["response"] for line in lines if line["question_id"] == question_id))


def test_fingerprint_is_nfc_sha256_prefix() -> None:
    assert response_fingerprint("e\u0301") == response_fingerprint("\u00e9")
    assert len(response_fingerprint("x")) == 16 and response_fingerprint("x") != response_fingerprint("y")


def test_write_read_round_trip_is_atomic(tmp_path: Path) -> None:
    reviews = [Review("q1", "ann", step_score=7, steps_verdict="changed", flag="wrong_gold", flag_reason="gold is B")]
    path = write_reviews(tmp_path / "r.jsonl", reviews)
    assert read_reviews(path) == reviews
    assert [p.name for p in tmp_path.iterdir()] == ["r.jsonl"]


def test_later_record_per_question_and_reviewer_wins(tmp_path: Path) -> None:
    first = [Review("q1", "ann", note="old"), Review("q2", "ann")]
    second = [Review("q1", "ann", note="new"), Review("q1", "bob")]
    write_reviews(tmp_path / "a.jsonl", first)
    write_reviews(tmp_path / "b.jsonl", second)
    merged = read_many([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])
    assert [(r.question_id, r.reviewer, r.note) for r in merged] == [
        ("q1", "ann", "new"),
        ("q2", "ann", ""),
        ("q1", "bob", ""),
    ]
    assert merge_reviews(second, first)[0].note == "old"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("not json", "line 2: not JSON"),
        ('{"question_id": "q1"}', "line 2: 'reviewer' must be a non-empty string"),
        (
            '{"question_id": "q1", "reviewer": "a", "step_score": 11, "steps_verdict": "changed"}',
            "line 2: 'step_score' must be a whole number 0-10, not 11",
        ),
        (
            '{"question_id": "q1", "reviewer": "a", "flag": "wrong_gold"}',
            "line 2: a flagged question needs a 'flag_reason'",
        ),
        ('{"question_id": "q1", "reviewer": "a", "flag": "typo", "flag_reason": "x"}', "line 2: unknown flag 'typo'"),
        (
            '{"question_id": "q1", "reviewer": "a", "category_verdict": "changed"}',
            "line 2: a category verdict needs a 'primary' category",
        ),
        ("[1]", "line 2: a review must be a JSON object"),
    ],
)
def test_a_bad_review_file_is_one_line_naming_file_record_and_problem(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(reviews_to_text([Review("q0", "a")]) + line + "\n")
    with pytest.raises(InputError) as caught:
        read_reviews(path)
    assert str(caught.value).startswith(f"{path}, {problem}")
    done = mathreel("agreement", str(JUDGMENTS), str(path))
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert problem in done.stderr and "Traceback" not in done.stderr


def test_empty_review_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(InputError, match="holds no reviews"):
        read_reviews(tmp_path / "empty.jsonl")


def test_agreement_cli_on_the_demo_reviews(tmp_path: Path) -> None:
    done = mathreel("agreement", str(JUDGMENTS), str(REVIEWS), "--json", "--flagged", str(tmp_path / "f.csv"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["reviewers"] == ["demo-reviewer-1", "demo-reviewer-2"] and result["stale"] == 0
    # 12 category reviews (6 wrong answers x 2 reviewers), 4 of them changed the primary category.
    assert result["category_pairs"] == 12 and sum(row[i] for i, row in enumerate(result["confusion"])) == 8
    assert result["kappa_ci"][0] <= result["kappa"] <= result["kappa_ci"][1]
    assert list(result["pairwise"]) == ["demo-reviewer-1 vs demo-reviewer-2"]
    csv_lines = (tmp_path / "f.csv").read_text().splitlines()
    assert csv_lines[0] == "question_id,reviewer,flag,reason,note" and len(csv_lines) == 3
    assert mathreel("agreement", str(JUDGMENTS), str(REVIEWS), "--json").stdout == done.stdout  # seeded


def test_a_review_of_another_response_is_left_out(tmp_path: Path) -> None:
    review = Review(
        "q004",
        "ann",
        response_fingerprint=response_fingerprint("another response"),
        category_verdict="changed",
        primary="Calculation errors",
        steps_verdict="changed",
        step_score=0,
    )
    write_reviews(tmp_path / "r.jsonl", [review])
    done = mathreel("agreement", str(JUDGMENTS), str(tmp_path / "r.jsonl"))
    assert done.returncode == 0 and "1 do not match a judged response" in done.stdout


def score_notes(*args: str) -> list[str]:
    done = mathreel("score", str(RESULTS), "--annotations", str(DEMO / "videomathqa"), "--json", *args)
    assert done.returncode == 0, done.stderr
    return [n for n in json.loads(done.stdout)["detected"] if n.startswith("reviews:")]


def test_score_with_reviews_uses_peoples_verdicts_and_says_how_many(tmp_path: Path) -> None:
    # The judge scored q004 5 and q008 7 (mean over 12: 83 / 12 = 6.92); a reviewer sets q004 to 1, so 79 / 12.
    reviews = [
        Review(
            "q004",
            "ann",
            response_fingerprint=fingerprint_of("q004"),
            category_verdict="changed",
            primary="Calculation errors",
            steps_verdict="changed",
            step_score=1,
        ),
        Review("q008", "ann", response_fingerprint=fingerprint_of("q008"), steps_verdict="accepted", step_score=7),
        Review("q002", "ann", response_fingerprint="0" * 16, steps_verdict="changed", step_score=0),
    ]
    write_reviews(tmp_path / "r.jsonl", reviews)
    notes = score_notes("--judge", str(JUDGMENTS), "--reviews", str(tmp_path / "r.jsonl"))
    assert notes[0] == (
        "reviews: 1 error-category verdict (1 changed) and 2 step scores (1 changed) come from "
        "people; 1 review matches no judged response and is left out"
    )
    assert notes[1] == f"reviews: mean step score with reviews applied {79 / 12:.2f} / 10 over 12 questions"
    assert "Calculation errors 1" in notes[2]


def test_score_reviews_need_a_judge_file() -> None:
    done = mathreel("score", str(RESULTS), "--reviews", str(REVIEWS))
    assert (
        done.returncode == 2
        and done.stderr.strip() == "mathreel: --reviews: reviews correct a judge's verdicts: add --judge"
    )
