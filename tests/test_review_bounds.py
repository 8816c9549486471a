"""Agreement over hostile review files: the work is counted as the number of reviewers grows (never timed), and the
one-line refusals (a negative seed, a 400-digit score, thousands of categories) replace the old tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.errors import InputError, MathReelError
from mathreel.core.judge.model import read_judgments
from mathreel.core.review import read_reviews, stats
from mathreel.core.review.agreement import MAX_PAIRED_REVIEWERS, agreement, summary_lines

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def many_reviewers(tmp_path: Path, reviewers: int) -> Path:
    """Every demo review that names a category, by `reviewers` different people (all of them join the judgments)."""
    base = [json.loads(line) for line in REVIEWS.read_text().splitlines() if line.strip()]
    categorised = [r for r in base if r["category_verdict"]]
    path = tmp_path / f"reviewers{reviewers}.jsonl"
    path.write_text(
        "".join(json.dumps({**review, "reviewer": f"r{i}"}) + "\n" for i in range(reviewers) for review in categorised)
    )
    return path


class Counter:
    def __init__(self, monkeypatch, module, name: str) -> None:
        self.calls = 0
        self.cells = 0
        inner = getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            if name == "_kappas":
                self.cells = max(self.cells, args[0].shape[1])
            return inner(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


@pytest.mark.parametrize("reviewers", [20, 200, 2000])
def test_pairwise_kappas_are_bounded_however_many_reviewers(tmp_path, monkeypatch, reviewers):
    kappas = Counter(monkeypatch, stats, "cohen_kappa")
    result = agreement(read_judgments(JUDGMENTS), read_reviews(many_reviewers(tmp_path, reviewers)), resamples=50)
    pairs = MAX_PAIRED_REVIEWERS * (MAX_PAIRED_REVIEWERS - 1) // 2
    assert len(result.pairwise) == pairs and result.paired_reviewers == MAX_PAIRED_REVIEWERS
    assert kappas.calls <= pairs + 1  # the pairs and the judge-vs-people kappa
    assert result.fleiss[1] > 0 and len(result.reviewers) == reviewers
    assert any(f"of {reviewers:,} reviewers" in line for line in summary_lines(result))


@pytest.mark.parametrize("reviewers", [10, 1000])
def test_the_bootstrap_costs_the_tables_cells_not_the_reviews(tmp_path, monkeypatch, reviewers):
    kappas = Counter(monkeypatch, stats, "_kappas")
    result = agreement(read_judgments(JUDGMENTS), read_reviews(many_reviewers(tmp_path, reviewers)))
    labels = len(result.labels)
    assert result.category_pairs >= reviewers and kappas.cells <= labels * labels
    assert result.kappa_ci[0] <= result.kappa <= result.kappa_ci[1]


def test_the_bootstrap_matches_resampling_items_in_distribution():
    judge = (["A"] * 5 + ["B"] * 5) * 4
    reviewer = ["A", "A", "A", "A", "B", "A", "B", "B", "B", "B"] * 4
    low, high = stats.kappa_interval(judge, reviewer, resamples=4000)
    # The same percentile interval from resampling the 40 items one by one (the textbook bootstrap).
    import numpy as np

    rng = np.random.default_rng(1)
    pairs = list(zip(judge, reviewer, strict=True))
    kappas = []
    for _ in range(4000):
        pick = [pairs[i] for i in rng.integers(0, len(pairs), len(pairs))]
        kappas.append(stats.cohen_kappa([a for a, _ in pick], [b for _, b in pick]))
    kappas = [k for k in kappas if k == k]
    assert (low, high) == pytest.approx(tuple(np.percentile(kappas, [2.5, 97.5])), abs=0.05)


def test_thousands_of_categories_are_refused(tmp_path):
    base = [json.loads(line) for line in REVIEWS.read_text().splitlines() if line.strip()]
    review = next(r for r in base if r["category_verdict"])
    path = tmp_path / "labels.jsonl"
    path.write_text(
        "".join(
            json.dumps({**review, "reviewer": f"r{i}", "primary": f"cat {i}", "category_verdict": "changed"}) + "\n"
            for i in range(500)
        )
    )
    with pytest.raises(MathReelError, match="501 different primary error categories"):
        agreement(read_judgments(JUDGMENTS), read_reviews(path))


def test_a_negative_seed_is_refused_in_core_and_in_one_line_by_the_cli():
    with pytest.raises(MathReelError, match="seed"):
        agreement(read_judgments(JUDGMENTS), read_reviews(REVIEWS), seed=-1)
    run = subprocess.run(
        [str(MATHREEL), "agreement", str(JUDGMENTS), str(REVIEWS), "--seed", "-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stderr.count("\n")) == (2, 1) and "--seed" in run.stderr


def test_a_judgment_with_a_huge_score_is_refused_when_read(tmp_path):
    lines = [json.loads(line) for line in JUDGMENTS.read_text().splitlines() if line.strip()]
    steps = next(line for line in lines if line["task"] == "steps" and "score" in line["values"])
    steps["values"]["score"] = int("9" * 400)
    path = tmp_path / "huge.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(InputError, match=r"values.score must be a whole number 0-10"):
        read_judgments(path)
