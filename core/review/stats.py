"""Agreement statistics over paired ratings, in numpy only: Cohen's and Fleiss' kappa, a seeded bootstrap CI,
the confusion matrix with per-category precision and recall, Spearman's rank correlation (average ranks for ties)
and Bland-Altman differences. Undefined values (a constant rater, no pairs) are NaN, never a made-up number."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

NAN = float("nan")


def labels_of(*raters: Sequence[str]) -> list[str]:
    """Every label any rater used, sorted."""
    return sorted({label for rater in raters for label in rater})


def confusion(first: Sequence[str], second: Sequence[str], labels: Sequence[str]) -> list[list[int]]:
    """counts[i][j]: items `first` put in labels[i] and `second` in labels[j]."""
    index = {label: i for i, label in enumerate(labels)}
    counts = [[0] * len(labels) for _ in labels]
    for a, b in zip(first, second, strict=True):
        counts[index[a]][index[b]] += 1
    return counts


def _kappa_from_counts(counts) -> float:  # counts: a square numpy array
    total = counts.sum()
    if total == 0:
        return NAN
    observed = counts.trace() / total
    expected = float((counts.sum(axis=1) * counts.sum(axis=0)).sum()) / total**2
    return NAN if expected == 1 else float((observed - expected) / (1 - expected))


def cohen_kappa(first: Sequence[str], second: Sequence[str], labels: Sequence[str] | None = None) -> float:
    """Cohen's kappa, (p_o - p_e) / (1 - p_e); NaN when chance agreement is 1 (both raters use one label)."""
    import numpy as np

    labels = list(labels) if labels is not None else labels_of(first, second)
    return _kappa_from_counts(np.array(confusion(first, second, labels), dtype=float))


def kappa_interval(
    first: Sequence[str], second: Sequence[str], *, level: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of Cohen's kappa over items, seeded so the same input gives the same interval.
    Resamples where kappa is undefined are left out; NaN bounds when every one is.

    Resampling n items with replacement is drawing the confusion table's counts from a multinomial over its cells,
    and kappa depends on the counts only: each resample costs the table's non-empty cells, not n items, so the
    interval takes O(resamples x cells), in batches of bounded memory, however many reviews there are."""
    import numpy as np

    labels = labels_of(first, second)
    index = {label: i for i, label in enumerate(labels)}
    cells: dict[tuple[int, int], int] = {}
    for a, b in zip(first, second, strict=True):
        key = (index[a], index[b])
        cells[key] = cells.get(key, 0) + 1
    n = len(first)
    if n == 0:
        return NAN, NAN
    pairs = np.array(list(cells), dtype=np.int64).reshape(-1, 2)
    share = np.array(list(cells.values()), dtype=float) / n
    rng = np.random.default_rng(seed)
    values = []
    batch = max(1, _BOOTSTRAP_BATCH_CELLS // len(cells))
    for done in range(0, resamples, batch):
        draws = rng.multinomial(n, share, size=min(batch, resamples - done)).astype(float)
        values.append(_kappas(draws, pairs, len(labels), n))
    found = np.concatenate(values)
    found = found[~np.isnan(found)]
    if found.size == 0:
        return NAN, NAN
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(found, [tail, 100 - tail])
    return float(low), float(high)


_BOOTSTRAP_BATCH_CELLS = 1_000_000  # resamples x cells held at once


def _kappas(draws, pairs, k: int, n: int):  # numpy arrays: draws (resamples x cells), pairs (cells x 2)
    """Cohen's kappa of each resampled table (one row of cell counts per resample); NaN where undefined."""
    import numpy as np

    observed = draws[:, pairs[:, 0] == pairs[:, 1]].sum(axis=1) / n
    rows, cols = np.zeros((draws.shape[0], k)), np.zeros((draws.shape[0], k))
    for cell, (i, j) in enumerate(pairs):
        rows[:, i] += draws[:, cell]
        cols[:, j] += draws[:, cell]
    expected = (rows * cols).sum(axis=1) / n**2
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected == 1, np.nan, (observed - expected) / (1 - expected))


@dataclass(frozen=True)
class CategoryScore:
    """How well the judge names one category, taking the reviewer as right: precision over the judge's uses of
    it, recall over the reviewer's."""

    category: str
    precision: float
    recall: float
    judge: int
    reviewer: int


def precision_recall(judge: Sequence[str], reviewer: Sequence[str], labels: Sequence[str]) -> list[CategoryScore]:
    counts = confusion(judge, reviewer, labels)
    scores = []
    for i, label in enumerate(labels):
        by_judge = sum(counts[i])
        by_reviewer = sum(row[i] for row in counts)
        hits = counts[i][i]
        scores.append(
            CategoryScore(
                label,
                hits / by_judge if by_judge else NAN,
                hits / by_reviewer if by_reviewer else NAN,
                by_judge,
                by_reviewer,
            )
        )
    return scores


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, tied values sharing the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(first: Sequence[float], second: Sequence[float]) -> float:
    """Spearman's rho: Pearson's correlation of the average ranks; NaN when either side is constant."""
    import numpy as np

    if len(first) < 2:
        return NAN
    x = np.array(average_ranks(first))
    y = np.array(average_ranks(second))
    x, y = x - x.mean(), y - y.mean()
    spread = math.sqrt(float((x * x).sum() * (y * y).sum()))
    return NAN if spread == 0 else float((x * y).sum()) / spread


@dataclass(frozen=True)
class Differences:
    """Judge minus reviewer over paired scores: mean absolute difference and the Bland-Altman mean difference
    (bias) with its 95% limits of agreement, mean ± 1.96 SD (SD with n - 1)."""

    n: int
    mean_absolute: float
    mean: float
    low: float
    high: float


def differences(judge: Sequence[float], reviewer: Sequence[float]) -> Differences:
    import numpy as np

    d = np.array(judge, dtype=float) - np.array(reviewer, dtype=float)
    if d.size == 0:
        return Differences(0, NAN, NAN, NAN, NAN)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if d.size > 1 else NAN
    return Differences(int(d.size), float(np.abs(d).mean()), mean, mean - 1.96 * sd, mean + 1.96 * sd)


def fleiss_kappa(ratings: Sequence[Sequence[str]]) -> float:
    """Fleiss' kappa for items each rated by the same number (at least 2) of raters; NaN otherwise."""
    import numpy as np

    if not ratings or len({len(r) for r in ratings}) != 1 or len(ratings[0]) < 2:
        return NAN
    labels = labels_of(*ratings)
    index = {label: i for i, label in enumerate(labels)}
    table = np.zeros((len(ratings), len(labels)))
    for row, item in enumerate(ratings):
        for label in item:
            table[row, index[label]] += 1
    raters = len(ratings[0])
    agreement = ((table * (table - 1)).sum(axis=1) / (raters * (raters - 1))).mean()
    shares = table.sum(axis=0) / table.sum()
    expected = float((shares**2).sum())
    return NAN if expected == 1 else float((agreement - expected) / (1 - expected))
