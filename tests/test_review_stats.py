"""Agreement statistics against values worked out by hand on small cases."""

from __future__ import annotations

import math

import pytest

from mathreel.core.review import stats


def test_perfect_agreement_is_kappa_one() -> None:
    first = ["A", "B", "C", "A", "B"]
    assert stats.cohen_kappa(first, list(first)) == 1.0
    assert stats.kappa_interval(first, list(first), resamples=200) == (1.0, 1.0)


def test_chance_level_agreement_is_kappa_zero() -> None:
    # p_o = 2/4 (items 1 and 4 agree); each rater says A half the time, so p_e = .5*.5 + .5*.5 = .5;
    # kappa = (.5 - .5) / (1 - .5) = 0.
    assert stats.cohen_kappa(["A", "A", "B", "B"], ["A", "B", "A", "B"]) == 0.0


def test_known_partial_agreement() -> None:
    # Confusion (judge rows, reviewer columns): A/A 4, A/B 1, B/A 1, B/B 4.
    # p_o = 8/10 = .8; both raters say A 5 times in 10, so p_e = .5*.5 + .5*.5 = .5; kappa = (.8 - .5) / .5 = .6.
    judge = ["A"] * 5 + ["B"] * 5
    reviewer = ["A", "A", "A", "A", "B", "A", "B", "B", "B", "B"]
    assert stats.cohen_kappa(judge, reviewer) == pytest.approx(0.6)
    assert stats.confusion(judge, reviewer, ["A", "B"]) == [[4, 1], [1, 4]]
    # precision of A: 4 of the judge's 5 As; recall of A: 4 of the reviewer's 5 As.
    scores = {s.category: s for s in stats.precision_recall(judge, reviewer, ["A", "B"])}
    assert (scores["A"].precision, scores["A"].recall) == (pytest.approx(0.8), pytest.approx(0.8))


def test_unequal_marginals() -> None:
    # judge A A B, reviewer A B B: p_o = 2/3; p_e = (2/3)(1/3) + (1/3)(2/3) = 4/9; kappa = (2/9) / (5/9) = .4.
    assert stats.cohen_kappa(["A", "A", "B"], ["A", "B", "B"]) == pytest.approx(0.4)


def test_kappa_is_undefined_when_both_raters_use_one_label() -> None:
    assert math.isnan(stats.cohen_kappa(["A", "A"], ["A", "A"]))


def test_bootstrap_interval_is_seeded_and_contains_the_estimate() -> None:
    judge = (["A"] * 5 + ["B"] * 5) * 4  # the partial case four times: kappa is still .6
    reviewer = ["A", "A", "A", "A", "B", "A", "B", "B", "B", "B"] * 4
    assert stats.cohen_kappa(judge, reviewer) == pytest.approx(0.6)
    first = stats.kappa_interval(judge, reviewer, seed=3)
    assert first == stats.kappa_interval(judge, reviewer, seed=3)
    assert first != stats.kappa_interval(judge, reviewer, seed=4)
    assert first[0] < 0.6 < first[1] <= 1.0


def test_spearman_with_ties() -> None:
    # ranks of x = [1, 2.5, 2.5, 4] (the tied 2s share ranks 2 and 3), of y = [1, 3, 2, 4]; both have mean 2.5.
    # centred: dx = [-1.5, 0, 0, 1.5], dy = [-1.5, .5, -.5, 1.5]; sum dx*dy = 4.5, sum dx^2 = 4.5, sum dy^2 = 5;
    # rho = 4.5 / sqrt(4.5 * 5) = 0.948683...
    assert stats.average_ranks([1, 2, 2, 3]) == [1, 2.5, 2.5, 4]
    assert stats.spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(4.5 / math.sqrt(22.5))
    assert stats.spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert math.isnan(stats.spearman([5, 5, 5], [1, 2, 3]))


def test_bland_altman_differences() -> None:
    # d = judge - reviewer = [1, 0, 2]: mean 1, |d| mean 1, SD sqrt((0 + 1 + 1) / 2) = 1, limits 1 -/+ 1.96.
    result = stats.differences([5, 7, 9], [4, 7, 7])
    assert (result.n, result.mean_absolute, result.mean) == (3, 1.0, 1.0)
    assert (result.low, result.high) == (pytest.approx(-0.96), pytest.approx(2.96))


def test_fleiss_kappa_by_hand() -> None:
    # items [A A], [A B], [B B]: per-item agreement 1, 0, 1 -> mean 2/3; label shares .5 and .5 -> p_e = .5;
    # kappa = (2/3 - .5) / .5 = 1/3.
    assert stats.fleiss_kappa([["A", "A"], ["A", "B"], ["B", "B"]]) == pytest.approx(1 / 3)
    assert stats.fleiss_kappa([["A", "A"], ["B", "B"]]) == pytest.approx(1.0)
    assert math.isnan(stats.fleiss_kappa([["A", "A"], ["B"]]))
