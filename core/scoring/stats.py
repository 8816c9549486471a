"""Uncertainty for accuracies: Wilson score intervals, the naive and the cluster-robust standard error of a mean.

Plain Python on purpose: the CLI must not import numpy to score a file, and these are sums over a few thousand
numbers. Every figure is in percent, like the accuracies it goes with.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from mathreel.core.plural import counted

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
    return (
        f"only {counted(clusters, 'cluster')} ({unit}): a clustered SE needs at least {MIN_CLUSTERS} clusters to mean "
        "anything; read the naive SE and the Wilson interval instead"
    )


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


# -- paired comparisons: exact McNemar test, Student's t quantiles, a seeded cluster bootstrap ---------------------

MCNEMAR_METHOD = "exact McNemar test: two-sided binomial test of the discordant pairs against 1/2"


_EXACT_SUM_UP_TO = 2000  # discordant pairs summed in integers; above, in logarithms (relative error ~1e-10)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """The two-sided p-value of the exact McNemar test: with n = only_a + only_b discordant pairs,
    min(1, 2 * P(X <= min(only_a, only_b))) for X ~ Binomial(n, 1/2). The tail is summed in integers up to
    `_EXACT_SUM_UP_TO` pairs (exact), beyond that term by term in logarithms, which stays fast for any n."""
    if only_a < 0 or only_b < 0:
        raise ValueError("counts of discordant pairs cannot be negative")
    n = only_a + only_b
    low = min(only_a, only_b)
    if n == 0:
        return 1.0
    if n <= _EXACT_SUM_UP_TO:
        from fractions import Fraction  # paired comparisons only: `fractions` imports `decimal`

        tail = sum(math.comb(n, k) for k in range(low + 1))
        return min(1.0, float(Fraction(2 * tail, 2**n)))
    logs = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2) for k in range(low + 1)]
    top = max(logs)
    return min(1.0, 2 * math.exp(top) * math.fsum(math.exp(value - top) for value in logs))


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (t_critical(0.975, df) is the two-sided 95% critical value), by bisection on the CDF
    written with the regularized incomplete beta function; accurate to about 1e-10."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if not 0 < p < 1:
        raise ValueError(f"a probability strictly between 0 and 1 is needed, got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if _t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


def _t_cdf(t: float, df: int) -> float:
    x = df / (df + t * t)
    tail = 0.5 * _regularized_beta(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b) by its continued fraction (modified Lentz), on the side where it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) of sorted values by linear interpolation between closest ranks (numpy's
    default, "type 7")."""
    if not sorted_values:
        raise ValueError("no values")
    h = (len(sorted_values) - 1) * q / 100
    low = math.floor(h)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (h - low) * (sorted_values[high] - sorted_values[low])


_BOOTSTRAP_CELLS = 1 << 20  # clusters drawn per chunk of replicates (8 MB of indices)


def cluster_bootstrap(tallies: Sequence[tuple[float, int]], draws: int, seed: int) -> list[float]:
    """Bootstrap replicates of a ratio of sums over clusters: `tallies` holds (sum of values, count) per cluster,
    in a fixed order; each replicate draws as many clusters as there are, with replacement, and gives
    sum(values) / sum(counts). Same tallies and seed, same replicates.

    The draws are those of `random.Random(seed).choices(range(len(tallies)), k=len(tallies))`, replicate after
    replicate: numpy's Mersenne Twister is started from that generator's state and its doubles are made the same
    way (53 bits from two 32-bit words), so the indices are the same, drawn and summed as arrays (a loop of Python
    calls took 0.3 s for 2,000 draws over 900 videos). Chunks of rows bound the memory for many draws."""
    import random

    import numpy as np

    if not tallies:
        return []
    g = len(tallies)
    state = random.Random(seed).getstate()[1]  # 624 words and the position, as numpy's MT19937 state takes them
    generator = np.random.RandomState()
    generator.set_state(("MT19937", np.array(state[:-1], dtype=np.uint32), int(state[-1]), 0, 0.0))
    sums = np.array([float(total) for total, _ in tallies])
    counts = np.array([count for _, count in tallies], dtype=np.int64)
    replicates: list[float] = []
    rows = max(1, _BOOTSTRAP_CELLS // g)
    for start in range(0, draws, rows):
        k = min(rows, draws - start)
        chosen = (generator.random_sample((k, g)) * float(g)).astype(np.int64)  # floor(random() * n), as choices
        n = counts[chosen].sum(axis=1)
        total = sums[chosen].sum(axis=1)
        replicates.extend(np.where(n > 0, total / np.maximum(n, 1), 0.0).tolist())
    return replicates
