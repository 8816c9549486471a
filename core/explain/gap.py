"""A gap between two numbers, decomposed: a path of single changes from A's scoring to B's, each step's change in
the figure attributed to one cause, with the questions whose mark changed in that step.

The path changes one factor at a time, always in this order (a step that changes nothing is still listed, with 0):

1. `coverage`: questions one run answers and the other does not (absent, or a "missing" row): B's presence.
2. `question`: questions both runs answer that differ between the files (gold answer, options): B's question,
   A's response.
3. `responses`: B's response to every question (only those that differ can move the figure).
4. `order`: B's row order (moves only a figure that groups consecutive rows, the Video-MME-v2 official rule).
5. `reading`: B's extractor.
6. `judge`: B's judge extractions (or none) in place of A's.
7. `denominator` and 8. `grouping` / `unparsed`: B's denominator, then B's unit and group rule, one field at a time
   (group scores instead of accuracy; groups of consecutive rows; an unparsed answer's mark; kind and structure
   from a group's first row). When A counts group scores and B does not, the unit changes first, so that the
   denominator always changes on a per-question count (a group score counts every group).

Steps 1-4 exist only between two files. Each state's figure is exact (`core.explain.tally`), so the steps add up
to B - A exactly, whatever the files. A figure that is not a scoring of a file (a published or typed number) ends
the path with one more step from the nearest scoring to it: `rounding` when that scoring matches the figure as
printed, `unexplained` when no known scorer does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY, GroupPolicy
from mathreel.core.errors import MathReelError
from mathreel.core.explain.runs import Entry, Run, Scorings, entry_key, entry_question, run_key
from mathreel.core.explain.scorers import Scorer, check_scorer, group_policy
from mathreel.core.explain.tally import Mark, Tally, tally
from mathreel.core.results.model import Prediction

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.benchmarks import Benchmark
    from mathreel.core.kinds import Status

# Every cause a step can be attributed to, in path order, with what it means.
CAUSES: dict[str, str] = {
    "coverage": "questions missing or duplicated in one file",
    "question": "questions that differ between the files (gold answer or options)",
    "responses": "responses that differ between the runs",
    "order": "rows in another order (a rule that groups consecutive rows)",
    "reading": "answers read differently",
    "judge": "judge extractions applied",
    "denominator": "unparsed answers dropped from the denominator",
    "grouping": "grouping (multi-binary pairs, Video-MME-v2 groups)",
    "unparsed": "an unparsed answer's mark in a group",
    "rounding": "the figure as printed, within its last digit",
    "unexplained": "not reached from the file by any known scorer",
}
ABSENT = "absent"
JOINED = "+"  # two causes of one step: the steps on either side of an undefined figure, joined
_ACCURACY_MARKS = frozenset({"right", "wrong", "not counted", ABSENT})


@dataclass(frozen=True)
class Number:
    """A number to explain: a run scored one way."""

    run: Run
    scorer: Scorer

    def label(self) -> str:
        return f"{self.run.name} ({self.scorer.label()})"


@dataclass(frozen=True)
class QuestionChange:
    """One question in a step: its status and its unit's mark before and after ("absent" when not in the state)."""

    question_id: str
    unit: str
    status_before: str
    status_after: str
    mark_before: str
    mark_after: str

    @property
    def transition(self) -> str:
        """The change in words: the status when it changed, else the unit's mark."""
        if self.status_before != self.status_after:
            return f"{self.status_before} -> {self.status_after}"
        if {self.mark_before, self.mark_after} <= _ACCURACY_MARKS:
            return f"{self.mark_before} -> {self.mark_after}"
        return "group score changed"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Step:
    """One single change on the path: its cause, what changed, the figure before and after (exact), and the
    questions whose mark it changed."""

    cause: str
    label: str
    before: Fraction | None
    after: Fraction | None
    changes: list[QuestionChange] = field(default_factory=list)
    units: int = 0  # scored units whose mark changed

    @property
    def delta(self) -> Fraction | None:
        return None if self.before is None or self.after is None else self.after - self.before

    @property
    def question_ids(self) -> list[str]:
        return [change.question_id for change in self.changes]

    @property
    def means(self) -> str:
        """The cause in words; a step joined across an undefined figure names each of its causes."""
        return " and ".join(CAUSES[cause] for cause in self.cause.split(JOINED))

    def transitions(self) -> dict[str, int]:
        """How many questions went each way ("correct -> wrong": 3; "wrong -> not counted": 2; "group score
        changed": 8), in first-seen order."""
        counts: dict[str, int] = {}
        for change in self.changes:
            counts[change.transition] = counts.get(change.transition, 0) + 1
        return counts


@dataclass
class Gap:
    """B - A, exactly, and the steps it is made of (they add up to it)."""

    a: str
    b: str
    a_figure: Fraction | None
    b_figure: Fraction | None
    steps: list[Step]
    notes: list[str] = field(default_factory=list)
    a_number: Number | None = None
    b_number: Number | None = None  # None when B is a figure, not a scoring of a file

    @property
    def total(self) -> Fraction | None:
        return None if self.a_figure is None or self.b_figure is None else self.b_figure - self.a_figure

    def parts_add_up(self) -> bool:
        """Whether the steps add up to the whole gap exactly (always, when every figure is defined)."""
        deltas = [step.delta for step in self.steps]
        if self.total is None or any(delta is None for delta in deltas):
            return False
        return sum((delta for delta in deltas if delta is not None), Fraction(0)) == self.total


# -- the states of the path ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _State:
    key: str
    entries: tuple[Entry, ...]
    scorer: Scorer
    judge: Run | None


@dataclass(frozen=True)
class _View:
    """A state seen question by question: per question id, its unit, the unit's mark and its status."""

    tally: Tally
    units: dict[str, str]
    marks: dict[str, Mark]
    statuses: dict[str, Status]


def decompose(a: Number, b: Number, scorings: Scorings | None = None) -> Gap:
    """The path from A's number to B's and what each step changed (same benchmark and mode required)."""
    bench = a.run.bench
    if (a.run.result.benchmark, a.run.result.mode) != (b.run.result.benchmark, b.run.result.mode):
        raise MathReelError(
            f"cannot explain a gap between {a.run.result.benchmark}/{a.run.result.mode} and "
            f"{b.run.result.benchmark}/{b.run.result.mode}: not the same questions"
        )
    mode = a.run.result.mode
    a_scorer, b_scorer = (_resolved(bench, check_scorer(bench, mode, number.scorer)) for number in (a, b))
    for number, scorer in ((a, a_scorer), (b, b_scorer)):
        if scorer.judge and not number.run.judgments:
            raise MathReelError(f"{number.run.name}: a judge scorer needs the run's judge file")
    scorings = scorings or Scorings(a.run.result.benchmark, mode)
    states = _path(
        _State(run_key(a.run), a.run.entries, a_scorer, a.run if a_scorer.judge else None), a.run, b.run, b_scorer
    )
    views = [_view(scorings, state) for state, _, _ in states]
    steps = _through_undefined(
        [_step(cause, label, views[i - 1], views[i]) for i, (_, cause, label) in enumerate(states) if i]
    )
    b_checked = Number(b.run, b_scorer)
    gap = Gap(
        a.label(),
        b_checked.label(),
        views[0].tally.figure,
        views[-1].tally.figure,
        steps,
        a_number=Number(a.run, a_scorer),
        b_number=b_checked,
    )
    if any(step.delta is None for step in steps):
        gap.notes.append(
            "some state on the path counts no question (every answer dropped), so its figure is "
            "undefined and the steps around it cannot be given"
        )
    return gap


def _through_undefined(steps: list[Step]) -> list[Step]:
    """Steps joined across a state whose figure is undefined (it counts nothing: every answer of a multi-binary
    question dropped, say), so that the parts still add up whenever both ends are defined. A joined step names
    both causes ("denominator+grouping") and holds the questions of both."""
    joined: list[Step] = []
    for step in steps:
        last = joined[-1] if joined else None
        if last is not None and last.after is None and last.before is not None:
            changes: dict[str, QuestionChange] = {}
            for change in [*last.changes, *step.changes]:
                first = changes.get(change.question_id, change)
                changes[change.question_id] = QuestionChange(
                    change.question_id,
                    change.unit,
                    first.status_before,
                    change.status_after,
                    first.mark_before,
                    change.mark_after,
                )
            joined[-1] = Step(
                f"{last.cause}{JOINED}{step.cause}",
                f"{last.label}; then {step.label}",
                last.before,
                step.after,
                list(changes.values()),
                last.units + step.units,
            )
        else:
            joined.append(step)
    return joined


_Path = list[tuple[_State, str, str]]  # (state, cause of the step into it, label); the first has no cause


def _resolved(bench: Benchmark, scorer: Scorer) -> Scorer:
    """A group scorer with its rule looked up (the path changes the rule field by field)."""
    if scorer.unit == "group" and scorer.rule is None:
        return dataclasses.replace(scorer, rule=group_policy(bench, scorer.policy))
    return scorer


def _path(start: _State, run_a: Run, run_b: Run, target: Scorer) -> _Path:
    path: _Path = [(start, "", "")]

    def go(cause: str, label: str, **changes: Any) -> None:
        path.append((dataclasses.replace(path[-1][0], **changes), cause, label))

    if run_a is not run_b:
        _file_steps(go, path, run_a, run_b)
    state = path[-1][0]
    go(
        "reading",
        f"{state.scorer.reader} -> {target.reader}",
        scorer=dataclasses.replace(state.scorer, reader=target.reader),
    )
    state = path[-1][0]
    judge = run_b if target.judge else None
    go(
        "judge",
        f"{_judge_text(state.judge)} -> {_judge_text(judge)}",
        scorer=dataclasses.replace(state.scorer, judge=target.judge),
        judge=judge,
    )
    state = path[-1][0]
    if state.scorer.unit == "group" and target.unit != "group":
        _unit_steps(go, path, target)
        _denominator_step(go, path, target)
    else:
        _denominator_step(go, path, target)
        _unit_steps(go, path, target)
    return path


def _judge_text(run: Run | None) -> str:
    return f"the judgments of {run.name}" if run is not None else "no judge"


def _file_steps(go: Callable[..., None], path: _Path, run_a: Run, run_b: Run) -> None:
    """Steps 1-4: from A's answers to B's, question by question."""
    a_entries = path[-1][0].entries
    pair = f"{run_key(run_a)}>{run_key(run_b)}"
    b_by_key = {entry_key(entry): entry for entry in run_b.entries}
    a_keys = {entry_key(entry) for entry in a_entries}

    def presence(entry: Entry | None) -> str:
        return ABSENT if entry is None else "answered" if isinstance(entry, Prediction) else "missing"

    covered: list[Entry] = []
    for entry in a_entries:
        other = b_by_key.get(entry_key(entry))
        if presence(entry) == presence(other):
            covered.append(entry)
        elif other is not None:
            covered.append(other)
    covered += [entry for key, entry in b_by_key.items() if key not in a_keys]
    go("coverage", f"the questions {run_b.name} has", key=f"coverage:{pair}", entries=tuple(covered))

    asked = []
    gold = options = 0
    for entry in covered:
        other = b_by_key[entry_key(entry)]
        mine, theirs = entry_question(entry), entry_question(other)
        if entry is not other and _differs(mine, theirs):
            gold += mine.answer != theirs.answer
            options += mine.options != theirs.options
            entry = entry.replace(question=theirs) if isinstance(entry, Prediction) else theirs
        asked.append(entry)
    go(
        "question",
        f"{run_b.name}'s questions: {gold} with another gold answer, {options} with other options",
        key=f"question:{pair}",
        entries=tuple(asked),
    )
    answered = tuple(b_by_key[entry_key(entry)] for entry in asked)
    go("responses", f"{run_b.name}'s responses", key=f"responses:{pair}", entries=answered)
    go("order", f"{run_b.name}'s row order", key=run_key(run_b), entries=run_b.entries)


def _differs(mine: Any, theirs: Any) -> bool:
    """Whether two files' versions of one question score differently (the gold, the options, the kind)."""
    return (mine.answer, mine.options, mine.answer_kind) != (theirs.answer, theirs.options, theirs.answer_kind)


def _denominator_step(go: Callable[..., None], path: _Path, target: Scorer) -> None:
    state = path[-1][0]
    go(
        "denominator",
        f"{state.scorer.denominator} -> {target.denominator}",
        scorer=dataclasses.replace(state.scorer, denominator=target.denominator),
    )


_POLICY_FIELDS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("by_position", "grouping", lambda on: "groups of consecutive rows" if on else "each video's questions"),
    ("unparsed_mark", "unparsed", lambda mark: f"an unparsed answer scores {mark}"),
    ("kind_from_first", "grouping", lambda on: f"kind and structure from the group's {'first' if on else 'last'} row"),
    (
        "taxonomy_from_last_row",
        "grouping",
        lambda on: "taxonomy from the last row" if on else "taxonomy from the last row carrying it",
    ),
)


def _unit_steps(go: Callable[..., None], path: _Path, target: Scorer) -> None:
    """The unit and the group rule, one field at a time (see the module docstring)."""
    state = path[-1][0]
    bench_rule = state.scorer.rule
    if state.scorer.unit == target.unit and target.unit != "group":
        go("grouping", f"per {state.scorer.unit} (unchanged)", scorer=state.scorer)
        return
    if state.scorer.unit == "group" and target.unit == "group":
        if not _policy_steps(go, path, bench_rule or DEFAULT_GROUP_POLICY, target.rule or DEFAULT_GROUP_POLICY):
            go("grouping", "group scores under the same rule (unchanged)", scorer=state.scorer)
        return
    if state.scorer.unit == "group":
        _policy_steps(go, path, bench_rule or DEFAULT_GROUP_POLICY, DEFAULT_GROUP_POLICY)
        go(
            "grouping",
            f"{target.unit} accuracy instead of group scores",
            scorer=dataclasses.replace(path[-1][0].scorer, unit=target.unit, policy="", rule=None),
        )
        return
    if target.unit == "group":
        go(
            "grouping",
            f"group scores instead of {state.scorer.unit} accuracy",
            scorer=dataclasses.replace(
                state.scorer, unit="group", denominator="all", policy="mathreel", rule=DEFAULT_GROUP_POLICY
            ),
        )
        _policy_steps(go, path, DEFAULT_GROUP_POLICY, target.rule or DEFAULT_GROUP_POLICY)
        return
    label = (
        "each multi-binary pair counted alone"
        if target.unit == "pair"
        else "a multi-binary question right only when every pair is"
    )
    go("grouping", label, scorer=dataclasses.replace(state.scorer, unit=target.unit))


def _policy_steps(go: Callable[..., None], path: _Path, start: GroupPolicy, end: GroupPolicy) -> int:
    """One step per field of the group rule that differs; how many there were."""
    rule = start
    steps = 0
    for name, cause, text in _POLICY_FIELDS:
        wanted = getattr(end, name)
        if getattr(rule, name) == wanted:
            continue
        rule = rule.replace(**{name: wanted})
        go(
            cause,
            f"{text(getattr(start, name))} -> {text(wanted)}",
            scorer=dataclasses.replace(path[-1][0].scorer, unit="group", policy="", rule=rule),
        )
        steps += 1
    return steps


def _view(scorings: Scorings, state: _State) -> _View:
    scorer = _resolved(scorings.bench, state.scorer)
    scored = scorings.scored(state.key, state.entries, scorer.reader, state.judge if scorer.judge else None)
    counted = tally(scorings.bench, scorings.mode, scored.rows, scored.questions, scorer)
    units, marks, statuses = {}, {}, {}
    for unit, places in counted.members.items():
        for place in places:
            qid = scored.rows[place].question_id
            units[qid] = unit
            marks[qid] = counted.marks[unit]
            statuses[qid] = scored.rows[place].status
    return _View(counted, units, marks, statuses)


_UNANSWERED = frozenset({"unparsed", "missing"})
_ABOUT_UNANSWERED = frozenset({"denominator", "unparsed"})


def _step(cause: str, label: str, before: _View, after: _View) -> Step:
    """The questions whose unit's mark changed, each unit named by the members whose own status changed; when
    none did (a rule changed the mark), by its unparsed or missing members for a denominator or unparsed-mark
    step, else by all its members."""
    moved: dict[str, list[str]] = {}
    for qid in dict.fromkeys([*before.marks, *after.marks]):
        if before.marks.get(qid) != after.marks.get(qid):
            moved.setdefault(after.units.get(qid) or before.units[qid], []).append(qid)
    changes = []
    for unit, qids in moved.items():
        own = [qid for qid in qids if before.statuses.get(qid) != after.statuses.get(qid)]
        if not own and cause in _ABOUT_UNANSWERED:
            own = [qid for qid in qids if after.statuses.get(qid) in _UNANSWERED]
        for qid in own or qids:
            changes.append(
                QuestionChange(
                    qid,
                    unit,
                    before.statuses.get(qid, ABSENT),
                    after.statuses.get(qid, ABSENT),
                    _mark_text(before.marks.get(qid)),
                    _mark_text(after.marks.get(qid)),
                )
            )
    return Step(cause, label, before.tally.figure, after.tally.figure, changes, len(moved))


def _mark_text(mark: Mark | None) -> str:
    return ABSENT if mark is None else mark.text()


def figure_of(number: Number, scorings: Scorings | None = None) -> Tally:
    """The exact figure of one number (the start of every path, and a cell of the reference table)."""
    bench = number.run.bench
    scorer = check_scorer(bench, number.run.result.mode, number.scorer)
    scorings = scorings or Scorings(number.run.result.benchmark, number.run.result.mode)
    state = _State(run_key(number.run), number.run.entries, scorer, number.run if scorer.judge else None)
    return _view(scorings, state).tally
