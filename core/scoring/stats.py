"""Uncertainty for accuracies: Wilson score intervals, the naive and the cluster-robust standard error of a mean.

Plain Python on purpose: the CLI must not import numpy to score a file, and these are sums over a few thousand
numbers. Every figure is in percent, like the accuracies it goes with.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile
CI_METHOD = "95% Wilson score interval"
SE_METHOD = (
    "naive SE = sample standard deviation / sqrt(n); clustered SE = cluster-robust SE of the mean, "
    "sqrt(G/(G-1) * sum over clusters of (sum of residuals)^2) / n, G clusters as the report names them "
    "(videos; MathVerse: problems; a question without either is its own cluster)"
)
# Below this many clusters a cluster-robust SE is biased low and too noisy to read (the usual rule of thumb is
# 30 to 50 clusters, Cameron and Miller 2015, "A Practitioner's Guide to Cluster-Robust Inference"); with 2
# clusters it can be exactly 0. Reports warn below it.
MIN_CLUSTERS = 30


def few_clusters_warning(clusters: int, unit: str) -> str | None:
    """The warning for a clustered SE over too few clusters, or None."""
    if clusters >= MIN_CLUSTERS:
        return None
    return (f"only {clusters} clusters ({unit}): a clustered SE needs at least {MIN_CLUSTERS} clusters to mean "
            "anything; read the naive SE and the Wilson interval instead")


def wilson_interval(correct: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for correct/n, in percent; None when n is 0."""
    if n <= 0:
        return None
    p = correct / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return (100 * max(0.0, centre - half), 100 * min(1.0, centre + half))


def naive_se(values: Sequence[float]) -> float | None:
    """Standard error of the mean treating answers as independent, in percent; None below two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return 100 * math.sqrt(variance / n)


def clustered_se(values: Sequence[float], clusters: Sequence[str]) -> float | None:
    """Cluster-robust (CR1) standard error of the mean, in percent; None with fewer than two clusters.

    With one value per cluster it equals `naive_se`, so the two are directly comparable.
    """
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    residual_sums: dict[str, float] = {}
    for value, cluster in zip(values, clusters, strict=True):
        residual_sums[cluster] = residual_sums.get(cluster, 0.0) + (value - mean)
    g = len(residual_sums)
    if g < 2:
        return None
    total = sum(s * s for s in residual_sums.values())
    return 100 * math.sqrt(g / (g - 1) * total) / n


def binary_se(correct: int, n: int) -> float | None:
    """`naive_se` of n values that are 1 (`correct` of them) or 0, from the two counts alone."""
    if n < 2:
        return None
    p = correct / n
    return 100 * math.sqrt(p * (1 - p) / (n - 1))


def clustered_binary_se(tallies: Collection[Sequence[int]]) -> float | None:
    """`clustered_se` of values that are 1 or 0, from one (n, correct) pair per cluster.

    A cluster's residuals sum to correct - n * mean, so the per-answer values are never needed: this is the
    cost of one pass over the clusters instead of two over every answer.
    """
    n = sum(tally[0] for tally in tallies)
    g = len(tallies)
    if n < 2 or g < 2:
        return None
    mean = sum(tally[1] for tally in tallies) / n
    total = sum((correct - size * mean) ** 2 for size, correct in tallies)
    return 100 * math.sqrt(g / (g - 1) * total) / n


def mean_interval(mean: float, se: float | None, z: float = Z95) -> tuple[float, float] | None:
    """A normal-approximation interval around a mean (both in percent)."""
    if se is None:
        return None
    return (mean - z * se, mean + z * se)
