"""Paired comparison: flip matrices, the exact McNemar test and the cluster bootstrap interval, checked against a
hand computation and against independent implementations (scipy, statsmodels, numpy; test tools only)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from helpers.explain_lines import OPTIONS
from helpers.jsonl import write_jsonl
from scipy import stats as scipy_stats
from statsmodels.stats.contingency_tables import mcnemar as statsmodels_mcnemar

from mathreel.core.explain.gap import Number
from mathreel.core.explain.paired import paired, pairwise
from mathreel.core.explain.runs import load_run
from mathreel.core.explain.scorers import Scorer
from mathreel.core.scoring.stats import cluster_bootstrap, mcnemar_exact, percentile, t_quantile


def test_mcnemar_by_hand():
    # 1 and 5 discordant pairs: 2 * P(X <= 1), X ~ Bin(6, 1/2) = 2 * (1 + 6) / 64
    assert mcnemar_exact(1, 5) == pytest.approx(14 / 64, abs=0) and mcnemar_exact(5, 1) == 14 / 64
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 10) == 2 / 1024


@pytest.mark.parametrize(
    ("b", "c"), [(0, 1), (1, 5), (7, 2), (12, 30), (40, 41), (150, 190), (1000, 1100), (24000, 26000)]
)
def test_mcnemar_matches_scipy_and_statsmodels(b, c):
    ours = mcnemar_exact(b, c)
    assert ours == pytest.approx(scipy_stats.binomtest(min(b, c), b + c, 0.5).pvalue, rel=1e-8)
    table = [[10, b], [c, 10]]
    assert ours == pytest.approx(statsmodels_mcnemar(table, exact=True).pvalue, rel=1e-8)


def test_t_quantiles_match_scipy():
    for df in (1, 2, 3, 5, 10, 29, 30, 100, 1000):
        assert t_quantile(0.975, df) == pytest.approx(scipy_stats.t.ppf(0.975, df), abs=1e-8)
    assert t_quantile(0.5, 7) == 0.0 and t_quantile(0.025, 4) == pytest.approx(-t_quantile(0.975, 4))


def test_percentile_is_numpys_linear_rule():
    values = sorted(random.Random(3).uniform(-5, 5) for _ in range(101))
    for q in (0, 2.5, 50, 97.5, 100):
        assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)), abs=1e-12)


def test_cluster_bootstrap_replicates_computed_independently_with_numpy():
    tallies = [(100.0 * d, n) for d, n in ((1, 3), (-1, 2), (0, 4), (2, 2), (1, 1))]
    ours = cluster_bootstrap(tallies, 500, seed=11)
    rng = random.Random(11)  # the same draws, the ratio computed by numpy
    sums, counts = np.array([t[0] for t in tallies]), np.array([t[1] for t in tallies])
    theirs = []
    for _ in range(500):
        chosen = np.array(rng.choices(range(len(tallies)), k=len(tallies)))
        theirs.append(sums[chosen].sum() / counts[chosen].sum())
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert cluster_bootstrap(tallies, 500, seed=11) == ours and cluster_bootstrap(tallies, 500, seed=12) != ours


def test_cluster_bootstrap_draws_are_exactly_random_choices_of_the_seed():
    """The arrays draw the very clusters `random.Random(seed).choices` draws, replicate after replicate (the
    interval a file got before the draws were vectorised is the one it gets now), across chunks of rows."""
    rng = random.Random(2)
    tallies = [(100.0 * rng.randint(-3, 3), rng.randint(1, 4)) for _ in range(257)]
    for seed, draws in ((0, 2000), (7, 4099)):
        loop = random.Random(seed)
        expected = []
        for _ in range(draws):
            chosen = loop.choices(range(len(tallies)), k=len(tallies))
            expected.append(sum(tallies[i][0] for i in chosen) / sum(tallies[i][1] for i in chosen))
        assert cluster_bootstrap(tallies, draws, seed) == expected  # equal, not approximately


def test_two_cluster_bootstrap_se_matches_the_exact_bootstrap_distribution():
    """Clusters (+1 of 1) and (0 of 1): the ideal bootstrap takes 100, 50, 50, 0 with equal chance, so its SE is
    sqrt(1250) = 35.36 points; 20,000 draws land within 1% of it."""
    replicates = cluster_bootstrap([(100.0, 1), (0.0, 1)], 20_000, seed=0)
    mean = sum(replicates) / len(replicates)
    se = math.sqrt(sum((r - mean) ** 2 for r in replicates) / (len(replicates) - 1))
    assert se == pytest.approx(math.sqrt(1250), rel=0.01)


def many_cluster_runs(tmp_path: Path, videos: int = 60) -> tuple[Number, Number]:
    """Two runs over `videos` videos of three questions; A is right more often, B differs on some videos only."""
    rng = random.Random(5)
    lines_a, lines_b = [], []
    for video in range(videos):
        for k in range(3):
            qid = f"{video:03d}-{k + 1}"
            a_right = rng.random() < 0.7
            b_right = a_right if rng.random() < 0.6 else rng.random() < 0.4
            for lines, right in ((lines_a, a_right), (lines_b, b_right)):
                lines.append(
                    {
                        "question_id": qid,
                        "video_id": f"v{video:03d}",
                        "duration": "short",
                        "options": OPTIONS,
                        "answer": "D",
                        "response": "D" if right else "A",
                    }
                )
    run_a = load_run(str(write_jsonl(tmp_path / "a.jsonl", lines_a)), "videomme")
    run_b = load_run(str(write_jsonl(tmp_path / "b.jsonl", lines_b)), "videomme")
    return Number(run_a, Scorer()), Number(run_b, Scorer())


def test_paired_flips_lists_and_interval_many_clusters(tmp_path):
    a, b = many_cluster_runs(tmp_path)
    found = paired(a, b, seed=0, draws=4000)
    flips = found.overall
    assert flips.n == 180 and flips.only_a == len(found.only_a_ids) and flips.only_b == len(found.only_b_ids)
    assert flips.difference == Fraction(100 * (flips.only_a - flips.only_b), 180)
    assert flips.p_value == pytest.approx(
        scipy_stats.binomtest(min(flips.only_a, flips.only_b), flips.only_a + flips.only_b).pvalue
    )
    interval = found.interval
    assert interval.clusters == 60 and interval.clustered_by == "video" and not interval.note
    assert "percentile" in interval.method
    # The same files and seed give the same interval.
    assert paired(a, b, seed=0, draws=4000).interval == interval
    # scipy's own bootstrap over the same clusters (its own random draws): the percentile ends agree closely.
    d, n = _cluster_arrays(a, b, found.only_a_ids, found.only_b_ids)
    theirs = scipy_stats.bootstrap(
        (d, n),
        lambda d, n, axis=-1: 100 * d.sum(axis=axis) / n.sum(axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=20_000,
        method="percentile",
        random_state=np.random.default_rng(0),
    ).confidence_interval
    assert interval.low == pytest.approx(theirs.low, abs=1.0) and interval.high == pytest.approx(theirs.high, abs=1.0)


def _cluster_arrays(a: Number, b: Number, only_a: list[str], only_b: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per video: (right in A - right in B) summed, and questions; from the files, independently of the code."""
    sums: dict[str, list[int]] = {}
    for prediction in a.run.result.predictions:
        qid = prediction.question.question_id
        tally = sums.setdefault(prediction.question.video_id, [0, 0])
        tally[0] += (qid in only_a) - (qid in only_b)
        tally[1] += 1
    values = list(sums.values())
    return np.array([v[0] for v in values], dtype=float), np.array([v[1] for v in values], dtype=float)


def test_few_clusters_use_t_critical_values_and_say_so(tmp_path):
    lines_a, lines_b = [], []
    for video, (a_marks, b_marks) in enumerate((("RRR", "RWW"), ("RRW", "RRW"), ("WRR", "WWR"), ("RWR", "RWW"))):
        for k in range(3):
            qid = f"{video:03d}-{k + 1}"
            for lines, marks in ((lines_a, a_marks), (lines_b, b_marks)):
                lines.append(
                    {
                        "question_id": qid,
                        "video_id": f"v{video}",
                        "duration": "short",
                        "options": OPTIONS,
                        "answer": "D",
                        "response": "D" if marks[k] == "R" else "A",
                    }
                )
    a = Number(load_run(str(write_jsonl(tmp_path / "a.jsonl", lines_a)), "videomme"), Scorer())
    b = Number(load_run(str(write_jsonl(tmp_path / "b.jsonl", lines_b)), "videomme"), Scorer())
    found = paired(a, b, seed=0, draws=2000)
    interval = found.interval
    t = scipy_stats.t.ppf(0.975, 3)
    centre = float(found.overall.difference)
    assert interval.clusters == 4 and "only 4 clusters" in interval.note and "t(0.975, 3)" in interval.method
    assert interval.low == pytest.approx(centre - t * interval.bootstrap_se, abs=1e-9)
    assert interval.high == pytest.approx(centre + t * interval.bootstrap_se, abs=1e-9)
    assert (
        found.overall.only_a == 4
        and found.overall.only_b == 0
        and found.only_a_ids == ["000-2", "000-3", "002-2", "003-3"]
    )


def test_flips_per_dimension_value(tmp_path):
    lines = []
    for i, (duration, response) in enumerate((("short", "D"), ("short", "A"), ("long", "D"), ("long", "D"))):
        lines.append(
            {
                "question_id": f"00{i}-1",
                "video_id": f"v{i}",
                "duration": duration,
                "options": OPTIONS,
                "answer": "D",
                "response": response,
            }
        )
    run = load_run(str(write_jsonl(tmp_path / "a.jsonl", lines)), "videomme")
    other = [dict(line, response="A") if line["duration"] == "long" else line for line in lines]
    run_b = load_run(str(write_jsonl(tmp_path / "b.jsonl", other)), "videomme")
    found = paired(Number(run, Scorer()), Number(run_b, Scorer()))
    by = found.by["duration"]
    assert (by["short"].both, by["short"].neither) == (1, 1) and (by["long"].only_a, by["long"].n) == (2, 2)


def test_pairwise_matrix_for_three_runs(tmp_path):
    a, b = many_cluster_runs(tmp_path, videos=12)
    matrix = pairwise([a, b, a], draws=500)
    assert set(matrix.cells) == {(0, 1), (0, 2), (1, 2)}
    assert matrix.cells[(0, 2)].overall.difference == 0
    assert matrix.cells[(0, 1)].overall.difference == -matrix.cells[(1, 2)].overall.difference
