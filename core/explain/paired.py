"""Paired comparison of two runs on the same questions: which questions flipped, and is the difference real?

The flip matrix counts the questions both runs count (each under its own scorer: reader, judge, denominator) as
right in both, right only in A, right only in B, or in neither, overall and per value of every dimension. The
exact McNemar test asks whether "only A" and "only B" differ more than chance would; the interval of the
difference (A - B, in points) resamples whole clusters (videos) with replacement, from a fixed seed, so the same
files give the same interval. With fewer than `MIN_CLUSTERS` clusters a percentile interval is unreliable: the
interval is then the difference +- Student's t (clusters - 1 degrees of freedom) times the bootstrap SE, and
says so. Both runs are counted in A's unit (a multi-binary question, or each pair); group-scored numbers are
compared per question (a group score is not a per-question mark).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from mathreel.core.errors import MathReelError
from mathreel.core.explain.gap import Number
from mathreel.core.explain.runs import Scorings, run_key
from mathreel.core.explain.scorers import Unit, check_scorer
from mathreel.core.explain.tally import HUNDRED, tally
from mathreel.core.plural import counted
from mathreel.core.scoring.stats import (
    MCNEMAR_METHOD,
    MIN_CLUSTERS,
    cluster_bootstrap,
    clustered_se,
    mcnemar_exact,
    percentile,
    t_quantile,
)

DRAWS = 2000
SEED = 0


@dataclass(frozen=True)
class Flips:
    """Both right, only A right, only B right, neither; A - B in points (exact) and the McNemar p-value."""

    both: int
    only_a: int
    only_b: int
    neither: int

    @property
    def n(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither

    @property
    def difference(self) -> Fraction | None:
        return Fraction(100 * (self.only_a - self.only_b), self.n) if self.n else None

    @property
    def p_value(self) -> float:
        return mcnemar_exact(self.only_a, self.only_b)

    def to_dict(self) -> dict[str, Any]:
        difference = self.difference
        return {
            "n": self.n,
            "both": self.both,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "neither": self.neither,
            "difference": None if difference is None else round(float(difference), 4),
            "difference_exact": None if difference is None else str(difference),
            "mcnemar_p": self.p_value,
        }


@dataclass(frozen=True)
class PairedInterval:
    """The interval of A - B (points), how it was made, and over how many clusters."""

    low: float | None
    high: float | None
    method: str
    clusters: int
    clustered_by: str
    draws: int
    seed: int
    bootstrap_se: float | None = None
    clustered_se: float | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            key: (round(value, 4) if isinstance(value, float) else value)
            for key, value in dataclasses.asdict(self).items()
        }


@dataclass
class Paired:
    """Two numbers compared question by question."""

    a: str
    b: str
    unit: str
    overall: Flips
    interval: PairedInterval
    by: dict[str, dict[str, Flips]] = field(default_factory=dict)
    only_a_ids: list[str] = field(default_factory=list)
    only_b_ids: list[str] = field(default_factory=list)
    not_shared: tuple[int, int] = (0, 0)  # units counted only by A, only by B
    method: str = MCNEMAR_METHOD


@dataclass(frozen=True)
class _Unit:
    key: str
    a: bool
    b: bool
    cluster: str
    dims: dict[str, str]


def paired(a: Number, b: Number, scorings: Scorings | None = None, seed: int = SEED, draws: int = DRAWS) -> Paired:
    """A and B compared on the units both count (same benchmark and mode)."""
    if (a.run.result.benchmark, a.run.result.mode) != (b.run.result.benchmark, b.run.result.mode):
        raise MathReelError("a paired comparison needs two runs of the same benchmark and mode")
    scorings = scorings or Scorings(a.run.result.benchmark, a.run.result.mode)
    units, only = _units(a, b, scorings)
    overall = _flips(units)
    bench = a.run.bench
    by = {}
    for dimension in bench.dimensions:
        values: dict[str, list[_Unit]] = {}
        for unit in units:
            if unit.dims.get(dimension.key):
                values.setdefault(unit.dims[dimension.key], []).append(unit)
        if values:
            by[dimension.key] = {value: _flips(values[value]) for value in dimension.order(set(values))}
    return Paired(
        a.label(),
        b.label(),
        _unit_of(a),
        overall,
        _interval(units, overall, seed, draws),
        by,
        [u.key for u in units if u.a and not u.b],
        [u.key for u in units if u.b and not u.a],
        only,
    )


def _unit_of(a: Number) -> Unit:
    """The unit both runs are compared in: A's, or the question for a group-scored A."""
    return "question" if a.scorer.unit == "group" else a.scorer.unit


def _counted_in(number: Number, unit: Unit) -> Number:
    scorer = dataclasses.replace(number.scorer, unit=unit, policy="", rule=None)
    return Number(number.run, check_scorer(number.run.bench, number.run.result.mode, scorer))


def _units(a: Number, b: Number, scorings: Scorings) -> tuple[list[_Unit], tuple[int, int]]:
    sides = []
    unit = _unit_of(a)
    for number in (_counted_in(a, unit), _counted_in(b, unit)):
        judge = number.run if number.scorer.judge else None
        scored = scorings.scored(run_key(number.run), number.run.entries, number.scorer.reader, judge)
        counted = tally(scorings.bench, scorings.mode, scored.rows, scored.questions, number.scorer)
        first = {unit: scored.questions[places[0]] for unit, places in counted.members.items()}
        sides.append((counted, first))
    (ta, qa), (tb, qb) = sides
    shared = [key for key, mark in ta.marks.items() if mark.counted and key in tb.marks and tb.marks[key].counted]
    units = []
    for key in shared:
        question = qa[key] if (qa[key].video_id or qa[key].cluster_key) else qb[key]
        units.append(
            _Unit(key, ta.marks[key].value == HUNDRED, tb.marks[key].value == HUNDRED, question.cluster, qa[key].dims)
        )
    only_a = sum(1 for mark in ta.marks.values() if mark.counted) - len(shared)
    only_b = sum(1 for mark in tb.marks.values() if mark.counted) - len(shared)
    return units, (only_a, only_b)


def _flips(units: Sequence[_Unit]) -> Flips:
    both = sum(1 for u in units if u.a and u.b)
    only_a = sum(1 for u in units if u.a and not u.b)
    only_b = sum(1 for u in units if u.b and not u.a)
    return Flips(both, only_a, only_b, len(units) - both - only_a - only_b)


def _interval(units: Sequence[_Unit], flips: Flips, seed: int, draws: int) -> PairedInterval:
    """The cluster bootstrap interval of A - B (see the module docstring)."""
    clustered_by = "video" if any(u.cluster != u.key for u in units) else "question"
    tallies: dict[str, list[int]] = {}
    for unit in units:
        tally_ = tallies.setdefault(unit.cluster, [0, 0])
        tally_[0] += unit.a - unit.b
        tally_[1] += 1
    ordered = [(float(100 * total), count) for _, (total, count) in sorted(tallies.items())]
    g = len(ordered)
    difference = flips.difference
    diffs = [100.0 * (u.a - u.b) for u in units]
    cr1 = clustered_se([d / 100 for d in diffs], [u.cluster for u in units]) if len(units) > 1 else None
    if difference is None or g < 2:
        return PairedInterval(
            None,
            None,
            "none: fewer than two clusters",
            g,
            clustered_by,
            0,
            seed,
            None,
            cr1,
            "an interval needs at least two clusters",
        )
    replicates = sorted(cluster_bootstrap(ordered, draws, seed))
    mean = sum(replicates) / len(replicates)
    se = math.sqrt(sum((r - mean) ** 2 for r in replicates) / (len(replicates) - 1))
    if g < MIN_CLUSTERS:
        t = t_quantile(0.975, g - 1)
        centre = float(difference)
        return PairedInterval(
            centre - t * se,
            centre + t * se,
            f"difference +- t(0.975, {g - 1}) = {t:.3f} x cluster bootstrap SE ({draws} draws, seed {seed})",
            g,
            clustered_by,
            draws,
            seed,
            se,
            cr1,
            f"only {counted(g, 'cluster')}: a percentile bootstrap is unreliable below {MIN_CLUSTERS}, so the "
            "interval uses Student's t critical value with clusters - 1 degrees of freedom",
        )
    return PairedInterval(
        percentile(replicates, 2.5),
        percentile(replicates, 97.5),
        f"cluster bootstrap percentile interval ({draws} draws over {clustered_by}s, seed {seed})",
        g,
        clustered_by,
        draws,
        seed,
        se,
        cr1,
    )


@dataclass
class PairwiseMatrix:
    """For N runs: every pair's difference (row - column) and interval."""

    names: list[str]
    cells: dict[tuple[int, int], Paired]


def pairwise(
    numbers: Sequence[Number], scorings: Scorings | None = None, seed: int = SEED, draws: int = DRAWS
) -> PairwiseMatrix:
    """Every pair i < j of `numbers` compared (each with the same seed, so a pair's interval does not depend on
    which other runs are loaded)."""
    if not numbers:
        raise MathReelError("give at least two runs to compare")
    scorings = scorings or Scorings(numbers[0].run.result.benchmark, numbers[0].run.result.mode)
    cells = {
        (i, j): paired(numbers[i], numbers[j], scorings, seed, draws)
        for i in range(len(numbers))
        for j in range(i + 1, len(numbers))
    }
    return PairwiseMatrix([number.label() for number in numbers], cells)
