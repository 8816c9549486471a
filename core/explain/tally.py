"""Exact figures: a set of scored rows counted under one scorer, as a fraction, with what each unit contributed.

Scoring (`core.scoring.score`) decides each answer's status; this module only counts, and counts exactly
(`fractions.Fraction`), so that the steps of a decomposition add up to the whole gap to the last digit. A figure
is the mean of its counted units' values: 100 or 0 for a question (or a multi-binary pair), the group score
(0-100) for a group. Counting follows `core.scoring.scorer` (a multi-binary question is right when every pair is,
"answered" drops units with an unparsed or missing answer, the benchmark's rule for what counts in "All") and
`core.scoring.groups` (group scores); tests hold the two to the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from mathreel.core.explain.scorers import Scorer, group_policy

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.benchmarks import Benchmark
    from mathreel.core.question import Question
    from mathreel.core.scoring.row import ScoredRow

HUNDRED = Fraction(100)
ANSWERED = frozenset({"correct", "wrong"})
# Group scores are ratios with small denominators (100/12, 100/16, ...); floats of them are turned back into those
# ratios, so sums over thousands of groups are exact.
_SCORE_DENOMINATOR = 10_000


@dataclass(frozen=True)
class Mark:
    """What one unit contributes: whether it is counted (in the denominator and the headline) and its value."""

    counted: bool
    value: Fraction  # 0-100

    def text(self) -> str:
        if not self.counted:
            return "not counted"
        return "right" if self.value == HUNDRED else "wrong" if self.value == 0 else f"scores {float(self.value):g}"


@dataclass
class Tally:
    """A figure and its parts: per unit key its mark and the row positions it is made of (rows as given)."""

    figure: Fraction | None  # percent; None when no unit is counted
    counted: int
    total: Fraction
    marks: dict[str, Mark] = field(default_factory=dict)
    members: dict[str, tuple[int, ...]] = field(default_factory=dict)


def exact_score(value: float) -> Fraction:
    """A group score as the small-denominator ratio it stands for (25/3 for 8.333...)."""
    return Fraction(value).limit_denominator(_SCORE_DENOMINATOR)


def tally(
    bench: Benchmark, mode: str, rows: Sequence[ScoredRow], questions: Sequence[Question], scorer: Scorer
) -> Tally:
    """The figure of `rows` (one per question of `questions`, in order) under `scorer`; the scorer's reader and
    judge already decided the rows' statuses."""
    if scorer.unit == "group":
        return _group_tally(bench, rows, questions, scorer)
    grouped = scorer.unit == "question" and bench.mode(mode).grouped
    keyed: dict[str, list[int]] = {}
    for position, row in enumerate(rows):
        keyed.setdefault(row.group_id if grouped else row.question_id, []).append(position)
    keep_unanswered = scorer.denominator == "all"
    in_overall = {key: bench.in_overall(questions[places[0]]) for key, places in keyed.items()}
    counted_keys = [
        key for key, places in keyed.items() if keep_unanswered or all(rows[p].status in ANSWERED for p in places)
    ]
    headline = [key for key in counted_keys if in_overall[key]]
    if counted_keys and not headline:  # every question outside "All" (a Text Only run): its own figure counts
        headline = counted_keys
    headline_set = set(headline)
    marks = {}
    total = Fraction(0)
    for key, places in keyed.items():
        value = HUNDRED if all(rows[p].status == "correct" for p in places) else Fraction(0)
        counted = key in headline_set
        marks[key] = Mark(counted, value)
        total += value if counted else 0
    figure = total / len(headline) if headline else None
    return Tally(figure, len(headline), total, marks, {key: tuple(places) for key, places in keyed.items()})


def _group_tally(bench: Benchmark, rows: Sequence[ScoredRow], questions: Sequence[Question], scorer: Scorer) -> Tally:
    from mathreel.core.scoring.groups import form_groups, mark_table, score_group

    scheme = bench.groups
    if scheme is None:  # pragma: no cover - check_scorer refuses it first
        raise ValueError(f"{bench.title} is not scored in groups")
    policy = scorer.rule or group_policy(bench, scorer.policy)
    position = {id(row): index for index, row in enumerate(rows)}
    members = list(zip(rows, questions, strict=True))
    marks_of = mark_table(policy)
    marks: dict[str, Mark] = {}
    places: dict[str, tuple[int, ...]] = {}
    total = Fraction(0)
    counted = 0
    for name, group in form_groups(members, scheme, policy.by_position):
        scored = score_group(name, group, scheme, policy, marks_of)
        value = scored.result.score
        places[name] = tuple(position[id(row)] for row, _ in group)
        marks[name] = Mark(value is not None, exact_score(value) if value is not None else Fraction(0))
        if value is not None:
            counted += 1
            total += marks[name].value
    return Tally(total / counted if counted else None, counted, total, marks, places)
