"""Group scores: for a benchmark whose questions are scored together (Video-MME-v2's four per video), the groups are
formed, scored and aggregated here, by asking the benchmark's `GroupScheme`; nothing here knows a benchmark.

How groups are formed and what an unparsed answer is worth is a `GroupPolicy`: MathReel's (a group's questions in
question order, unparsed counts wrong) or a reference's, kept by its reproduction (the official script groups
consecutive rows of the file and scores an unparsed answer -1). When a reference's rule moves the figure, the
report says by how much (`Effect`), so a user sees which number they are looking at and why it differs.

Each figure has two halves: the mean group score (0-100) with a normal interval over groups (each group is one
video, so this is the video-clustered interval), and the accuracy of the groups' questions with a normal interval
from the video-clustered SE. Breakdowns (level, heads, kind) use the group's taxonomy, so a logic group's first
three questions are counted under the level its last question gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY, GroupFacts, GroupPolicy, GroupScheme, GroupScore
from mathreel.core.kinds import Status
from mathreel.core.plural import counted
from mathreel.core.question import Question
from mathreel.core.scoring.json_types import EffectJSON, FigureJSON, GroupItemJSON, GroupsJSON
from mathreel.core.scoring.numbers import one_decimal
from mathreel.core.scoring.report import Interval
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.stats import clustered_binary_se, mean_interval, naive_se

SCORE_CI = "mean group score +- 1.96 SE over groups (one group per video, so clustered by video)"
ACCURACY_CI = "question accuracy +- 1.96 cluster-robust SE, clustered by video"
_MARKS: dict[str, int] = {"correct": 1, "wrong": 0, "missing": 0}
_SHOWN = 10


@dataclass(slots=True)
class ScoredGroup:
    """One group: its members (ids, statuses, the marks the policy gave them) and what it scored."""

    key: str  # the group's name: its video, or "rows 9-12" when formed from consecutive rows
    cluster: str  # the video its questions come from (the last member's), for the intervals
    question_ids: tuple[str, ...]
    statuses: tuple[Status, ...]
    clusters: tuple[str, ...]
    marks: tuple[int, ...]
    facts: GroupFacts
    result: GroupScore
    tallies: tuple[tuple[str, int, int], ...] = ()  # (video, questions, right) per video among the members

    def to_dict(self) -> GroupItemJSON:
        return {
            "group": self.key,
            "video": self.cluster,
            "kind": self.facts.kind,
            "structure": self.facts.structure,
            "dims": dict(self.facts.dims),
            "questions": list(self.question_ids),
            "statuses": list(self.statuses),
            "marks": list(self.marks),
            "roles": list(self.result.roles),
            "score": _round(self.result.score),
            "linear": _round(self.result.linear),
            "steps": self.result.steps,
            "broken_at": self.result.broken_at,
            "explanation": self.result.explanation,
        }


@dataclass(frozen=True)
class Figure:
    """A set of groups: the mean score with its interval, and the accuracy of their questions with its interval."""

    groups: int
    score: float | None
    score_ci: Interval | None
    questions: int
    correct: int
    accuracy: float | None
    accuracy_ci: Interval | None

    def text(self) -> str:
        """ "31.3 [28.9, 33.7] (800 groups) · 51.0% of 3200 questions [48.6, 53.4]"."""
        if self.score is None:
            return "-"
        accuracy = ""
        if self.accuracy is not None:
            of = counted(self.questions, "question")
            accuracy = f" · {one_decimal(self.accuracy)}% of {of} {_ci_text(self.accuracy_ci)}"
        return f"{one_decimal(self.score)} {_ci_text(self.score_ci)} ({counted(self.groups, 'group')}){accuracy}"

    def to_dict(self) -> FigureJSON:
        return {
            "score": _round(self.score),
            "score_ci": _pair(self.score_ci),
            "groups": self.groups,
            "accuracy": _round(self.accuracy),
            "accuracy_ci": _pair(self.accuracy_ci),
            "questions": self.questions,
            "correct": self.correct,
            "text": self.text(),
        }


@dataclass(frozen=True)
class Effect:
    """What one of a reference's rules did to its total: the total with the rule and without it."""

    rule: str
    total: float
    without: float

    @property
    def change(self) -> float:
        return self.total - self.without

    def text(self) -> str:
        sign = "+" if self.change >= 0 else ""
        return (
            f"{self.rule} changed the total by {sign}{self.change:.2f} ({self.total:.2f} with it, "
            f"{self.without:.2f} without)"
        )

    def to_dict(self) -> EffectJSON:
        return {
            "rule": self.rule,
            "total": _round(self.total),
            "without": _round(self.without),
            "change": _round(self.change),
            "text": self.text(),
        }


@dataclass
class GroupReport:
    """Every group of one scored file and the figures over them: total, per kind (and linear), per taxonomy value."""

    policy: GroupPolicy
    how: str
    groups: list[ScoredGroup]
    total: Figure
    kinds: dict[str, Figure]
    linear: dict[str, Figure]
    by: dict[str, dict[str, Figure]]
    unscored: list[str] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def containing(self, question_id: str) -> ScoredGroup | None:
        """The group a question was scored in (what Browse shows beside a v2 question), or None."""
        return next((group for group in self.groups if question_id in group.question_ids), None)

    def headline(self) -> dict[str, float | None]:
        """The group scores a reader quotes: total, each kind, each linear kind ("relevance_linear")."""
        figures = {"total": self.total.score, **{kind: f.score for kind, f in self.kinds.items()}}
        figures.update({f"{kind}_linear": f.score for kind, f in self.linear.items()})
        return {name: _round(value) for name, value in figures.items()}

    def figures(self) -> dict[str, Figure]:
        """Every headline figure by its name in the JSON: "total", each kind, each linear kind ("relevance_linear")."""
        return {"total": self.total, **self.kinds, **{f"{k}_linear": f for k, f in self.linear.items()}}

    def to_dict(self, items: bool = False) -> GroupsJSON:
        """The `groups` object of `mathreel score --json`; `items` adds one object per group."""
        figures = self.figures()
        summary: GroupsJSON = {
            **self.headline(),  # type: ignore[typeddict-item]  # the kinds' scores are named by the benchmark
            "total": _round(self.total.score),
            "scored_as": self.how,
            "groups": len(self.groups),
            "questions": self.total.questions,
            "unscored": self.unscored,
            "figures": {name: figure.to_dict() for name, figure in figures.items()},
            "by": {dim: {value: f.to_dict() for value, f in cells.items()} for dim, cells in self.by.items()},
            "effects": [effect.to_dict() for effect in self.effects],
            "notes": self.notes,
            "warnings": self.warnings,
            "score_ci_method": SCORE_CI,
            "accuracy_ci_method": ACCURACY_CI,
        }
        if items:
            summary["items"] = [group.to_dict() for group in self.groups]
        return summary


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _pair(ci: Interval | None) -> list[float] | None:
    return None if ci is None else ci.to_list()


def _ci_text(ci: Interval | None) -> str:
    return "-" if ci is None else ci.text()


# -- forming and scoring ---------------------------------------------------------------------------------------

Member = tuple[ScoredRow, Question]


def form_groups(members: Sequence[Member], scheme: GroupScheme, by_position: bool) -> list[tuple[str, list[Member]]]:
    """(name, members in group order) per group: runs of `scheme.size` rows as they come (`by_position`; missing
    questions are no rows of the file), else each group's questions in question order, groups in first-seen order.
    """
    if by_position:
        rows = [member for member in members if member[0].status != "missing"]
        size = scheme.size
        return [
            (f"rows {start + 1}-{min(start + size, len(rows))}", rows[start : start + size])
            for start in range(0, len(rows), size)
        ]
    grouped: dict[str, list[Member]] = {}
    for member in members:
        grouped.setdefault(scheme.key(member[1]), []).append(member)
    for group in grouped.values():
        group.sort(key=lambda member: scheme.position(member[1]))
    return list(grouped.items())


def score_group(
    name: str,
    members: Sequence[Member],
    scheme: GroupScheme,
    policy: GroupPolicy,
    marks_of: dict[str, int] | None = None,
) -> ScoredGroup:
    """One group scored under `policy` (`marks_of`: each status's mark under it, when the caller has it)."""
    marks_of = marks_of or mark_table(policy)
    statuses = tuple(row.status for row, _ in members)
    clusters = tuple(row.cluster for row, _ in members)
    marks = tuple(marks_of[status] for status in statuses)
    facts = scheme.describe([question for _, question in members], policy)
    return ScoredGroup(
        name,
        clusters[-1],
        tuple(row.question_id for row, _ in members),
        statuses,
        clusters,
        marks,
        facts,
        scheme.score(facts, marks, statuses),
        _tallies(statuses, clusters),
    )


def mark_table(policy: GroupPolicy) -> dict[str, int]:
    """What each status adds to its group under `policy`."""
    return {**_MARKS, "unparsed": policy.unparsed_mark}


def scored_groups(members: Sequence[Member], scheme: GroupScheme, policy: GroupPolicy) -> list[ScoredGroup]:
    """Every group of `members`, formed and scored under `policy`."""
    marks_of = mark_table(policy)
    return [
        score_group(name, group, scheme, policy, marks_of)
        for name, group in form_groups(members, scheme, policy.by_position)
    ]


def _tallies(statuses: tuple[Status, ...], clusters: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """(video, questions, right) per video of a group's members: one entry unless rows from several videos were
    grouped by position."""
    if clusters.count(clusters[0]) == len(clusters):
        return ((clusters[0], len(statuses), statuses.count("correct")),)
    counts: dict[str, list[int]] = {}
    for status, cluster in zip(statuses, clusters, strict=True):
        tally = counts.setdefault(cluster, [0, 0])
        tally[0] += 1
        tally[1] += status == "correct"
    return tuple((cluster, n, right) for cluster, (n, right) in counts.items())


def score_groups(
    rows: Sequence[ScoredRow],
    questions: Sequence[Question],
    scheme: GroupScheme,
    policy: GroupPolicy = DEFAULT_GROUP_POLICY,
    reference: str | None = None,
) -> GroupReport:
    """Form, score and aggregate the groups of one file's rows (`questions[i]` is the question of `rows[i]`, rows in
    file order with missing questions last). `reference` names the reproduction whose policy this is."""
    members = list(zip(rows, questions, strict=True))
    groups = scored_groups(members, scheme, policy)
    report = aggregate(groups, scheme, policy, describe_policy(policy, reference))
    _check_sizes(report, groups, scheme, policy, len([m for m in members if m[0].status != "missing"]))
    if reference is not None:
        report.effects = _effects(members, scheme, policy, report.total.score)
        report.notes += _order_notes(members, scheme, policy)
    return report


def describe_policy(policy: GroupPolicy, reference: str | None) -> str:
    who = reference or "MathReel"
    forming = (
        "consecutive rows of the file, four at a time (rows[i // 4])"
        if policy.by_position
        else "each video's questions in question order"
    )
    unparsed = {0: "counts wrong", -1: "scores -1 (right in a logic chain, one off a relevance count)"}.get(
        policy.unparsed_mark, f"scores {policy.unparsed_mark}"
    )
    return f"{who}: groups of {forming}; an unparsed answer {unparsed}"


# -- aggregation -----------------------------------------------------------------------------------------------


def aggregate(groups: list[ScoredGroup], scheme: GroupScheme, policy: GroupPolicy, how: str) -> GroupReport:
    """The figures over scored groups: total, per kind, linear per kind, per value of each taxonomy dimension."""
    scored = [group for group in groups if group.result.score is not None]
    report = GroupReport(
        policy=policy,
        how=how,
        groups=groups,
        total=figure(scored),
        kinds=_split(scored, lambda g: g.facts.kind, scheme.kinds),
        linear={
            kind: figure([g for g in scored if g.facts.kind == kind], linear=True)
            for kind in scheme.linear_kinds
            if any(g.facts.kind == kind for g in scored)
        },
        by={dim.key: _split(scored, _dimension_of(dim.key), dim.values) for dim in scheme.dimensions},
        unscored=[group.key for group in groups if group.result.score is None],
    )
    report.by = {key: cells for key, cells in report.by.items() if cells}
    if report.unscored:
        report.warnings.append(
            f"{counted(len(report.unscored), 'group')} could not be scored (unknown kind or structure) and "
            f"are left out of every figure: {_shown(report.unscored)}"
        )
    return report


def _dimension_of(key: str) -> Callable[[ScoredGroup], str]:
    """A group's value of one taxonomy dimension ("" when it has none)."""
    return lambda group: group.facts.dims.get(key, "")


def _split(
    groups: list[ScoredGroup], value_of: Callable[[ScoredGroup], str], order: Sequence[str]
) -> dict[str, Figure]:
    """One Figure per value (known values in `order` first, then the others sorted); groups without a value skip."""
    split: dict[str, list[ScoredGroup]] = {}
    for group in groups:
        value = value_of(group)
        if value:
            split.setdefault(value, []).append(group)
    known = [value for value in order if value in split]
    return {value: figure(split[value]) for value in known + sorted(set(split) - set(order))}


def figure(groups: Sequence[ScoredGroup], linear: bool = False) -> Figure:
    """The mean (linear) score of `groups` with its interval, and their questions' accuracy with its interval."""
    values = [(group.result.linear if linear else group.result.score) or 0.0 for group in groups]
    mean = sum(values) / len(values) if values else None
    score_ci = None
    if mean is not None:
        interval = mean_interval(mean, naive_se([value / 100 for value in values]))
        low = min(0.0, *values)
        score_ci = None if interval is None else Interval(max(low, interval[0]), min(100.0, interval[1]))
    tallies: dict[str, list[int]] = {}
    for group in groups:
        for cluster, n, right in group.tallies:
            tally = tallies.get(cluster)
            if tally is None:
                tallies[cluster] = [n, right]
            else:
                tally[0] += n
                tally[1] += right
    questions = sum(tally[0] for tally in tallies.values())
    correct = sum(tally[1] for tally in tallies.values())
    accuracy = 100 * correct / questions if questions else None
    accuracy_ci = None
    if accuracy is not None:
        interval = mean_interval(accuracy, clustered_binary_se(list(tallies.values())))
        accuracy_ci = None if interval is None else Interval(max(0.0, interval[0]), min(100.0, interval[1]))
    return Figure(len(groups), mean, score_ci, questions, correct, accuracy, accuracy_ci)


# -- what a reference's rules did ------------------------------------------------------------------------------


def _effects(members: list[Member], scheme: GroupScheme, policy: GroupPolicy, total: float | None) -> list[Effect]:
    """The total without the reference's -1 for unparsed answers, and without its positional grouping."""
    if total is None:
        return []
    effects = []
    changes = []
    if policy.unparsed_mark != 0 and any(row.status == "unparsed" for row, _ in members):
        changes.append(
            (
                f"its mark for an unparsed answer ({policy.unparsed_mark}, where MathReel counts it wrong)",
                policy.replace(unparsed_mark=0),
            )
        )
    if policy.by_position:
        changes.append(
            (
                "grouping by row position instead of by video and question order",
                policy.replace(by_position=False),
            )
        )
    for rule, other in changes:
        groups = scored_groups(members, scheme, other)
        without = figure([g for g in groups if g.result.score is not None]).score
        if without is not None and abs(total - without) >= 0.005:
            effects.append(Effect(rule, total, without))
    return effects


def _order_notes(members: list[Member], scheme: GroupScheme, policy: GroupPolicy) -> list[str]:
    """Whether consecutive rows are the video groups (then the positional grouping is harmless)."""
    if not policy.by_position:
        return []
    answered = [member for member in members if member[0].status != "missing"]
    mixed = []
    for name, group in form_groups(answered, scheme, True):
        keys = [scheme.key(question) for _, question in group]
        positions = [scheme.position(question) for _, question in group]
        if len(set(keys)) > 1 or positions != sorted(positions):
            mixed.append(name)
    if not mixed:
        return ["rows are in video and question order: grouping by position forms the video groups"]
    return [
        f"{counted(len(mixed), 'group')} formed by row position mix videos or reorder a video's questions: "
        f"{_shown(mixed)}"
    ]


def _check_sizes(
    report: GroupReport, groups: list[ScoredGroup], scheme: GroupScheme, policy: GroupPolicy, rows: int
) -> None:
    odd = [f"{group.key} ({len(group.question_ids)})" for group in groups if len(group.question_ids) != scheme.size]
    if policy.by_position and rows % scheme.size in (1, 2):
        report.warnings.append(
            f"{counted(rows, 'row')} is not a multiple of {scheme.size} (nor one short): the reference script "
            "stops with an IndexError; the last group is scored from the rows there are"
        )
    elif odd:
        report.warnings.append(
            f"{counted(len(odd), 'group')} do not have {scheme.size} questions; a question a group lacks "
            f"counts wrong: {_shown(odd)}"
        )


def _shown(items: Iterable[str]) -> str:
    items = list(items)
    head = ", ".join(items[:_SHOWN])
    return head + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")
