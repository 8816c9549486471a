"""A file against a figure that is not a scoring of it: a number the user types, or a published one (the paper
tables in assets/reference, `Benchmark.reference_results()`).

Every known scorer is tried on the file (`known_scorers`); the figure is reached by those whose exact figure
rounds to it (within half a unit of its last printed digit). The gap is decomposed from the user's scoring to the
best of them (a match with the fewest changed factors, else the nearest), and one last step goes from that
scoring to the figure: `rounding` (within the printed precision) or `unexplained` (no known scorer reaches it:
other responses, other questions, or a scorer MathReel does not know), so the parts still add up to the whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING

from mathreel.core.errors import InputError
from mathreel.core.explain.gap import Gap, Number, Step, decompose, figure_of
from mathreel.core.explain.runs import Run, Scorings
from mathreel.core.explain.scorers import Scorer, check_scorer, known_scorers

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.reference import Reference

_NUMBER = re.compile(r"\s*([+-]?\d+(?:\.\d+)?)\s*%?\s*")


@dataclass(frozen=True)
class Target:
    """A figure to reach: its exact value as printed, half a unit of its last digit, and where it comes from."""

    value: Fraction
    precision: Fraction
    label: str
    source: str  # "typed" or the reference's source

    def reached_by(self, figure: Fraction | None) -> bool:
        return figure is not None and abs(figure - self.value) <= self.precision


def typed_target(text: str) -> Target:
    """A figure as the user typed it ("58.2", "58.2%"): exact, with the precision its digits give."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise InputError("--against", f"expected a percentage such as 58.2, not {text!r}")
    try:
        decimal = Decimal(match.group(1))
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
        raise InputError("--against", f"not a number: {text!r}") from None
    exponent = decimal.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return Target(Fraction(decimal), Fraction(1, 2 * 10**places), f"{match.group(1)} (typed)", "typed")


@dataclass(frozen=True)
class PaperChoice:
    """Which published row and column a `--paper MODEL/SETTING[/TABLE]` names, and why that table."""

    target: Target
    model: str
    setting: str
    table: str
    note: str = ""


def paper_target(reference: Reference, spec: str, mode: str, cot: bool | None = None) -> PaperChoice:
    """The published figure `spec` names: "MODEL/SETTING" or "MODEL/SETTING/TABLE" (SETTING a column key such as
    mcq_sub, or its label). When the model has the setting in several tables, `cot` (the run's chain of thought,
    from its settings) picks the table whose setting matches, and the note says so."""
    model, _, rest = spec.partition("/")
    setting_text, _, table = rest.partition("/")
    if not model.strip() or not setting_text.strip():
        raise InputError("--paper", f"expected MODEL/SETTING (for example GPT-4o/mcq_sub), not {spec!r}")
    setting = _setting_key(reference, setting_text.strip())
    wanted_mode = reference.settings[setting].get("mode")
    if wanted_mode and wanted_mode != mode:
        raise InputError("--paper", f"the column {setting!r} is for {wanted_mode} runs; this file is {mode}")
    rows = [row for row in reference.rows if str(row.get("model", "")).lower() == model.strip().lower()]
    if not rows:
        models = sorted({str(row.get("model")) for row in reference.rows})
        raise InputError(
            "--paper",
            f"no model {model.strip()!r} in {reference.source.split(':')[0]}; choose one of {', '.join(models)}",
        )
    if table:
        rows = [row for row in rows if str(row.get("table")) == table.strip()]
    rows = [row for row in rows if row.get(setting) is not None]
    if not rows:
        where = f" in table {table}" if table else ""
        raise InputError("--paper", f"{model.strip()} has no {setting} figure{where}")
    note = ""
    if len(rows) > 1:
        kind = "cot" if cot else "direct"
        chosen = [row for row in rows if reference.tables.get(str(row["table"]), {}).get("setting") == kind]
        tables = ", ".join(str(row["table"]) for row in rows)
        if len(chosen) != 1:
            raise InputError("--paper", f"{model.strip()} has {setting} in tables {tables}: add /TABLE")
        note = (
            f"tables {tables} both have it; table {chosen[0]['table']} is the "
            f"{'chain-of-thought' if cot else 'direct-answer'} table, as this run's settings say"
        )
        rows = chosen
    row = rows[0]
    value = row[setting]
    target = typed_target(str(value))
    label = f"{row['model']}, {reference.settings[setting].get('label', setting)}, {row.get('source', '')}"
    return PaperChoice(
        Target(target.value, target.precision, label, reference.source),
        str(row["model"]),
        setting,
        str(row["table"]),
        note,
    )


def _setting_key(reference: Reference, text: str) -> str:
    for key, spec in reference.settings.items():
        if text.lower() in (key.lower(), str(spec.get("label", "")).lower()):
            return key
    raise InputError("--paper", f"no setting {text!r}; choose one of {', '.join(reference.settings)}")


@dataclass(frozen=True)
class Candidate:
    """A known scorer's exact figure on the file."""

    scorer: Scorer
    figure: Fraction | None
    reaches: bool
    changes: int  # how many of the five factors differ from the user's scorer


@dataclass
class TargetGap:
    """The gap from the user's scoring of a file to a figure: its decomposition (the last step goes from the best
    scoring to the figure), whether any known scorer reaches it, and every candidate, nearest first."""

    target: Target
    gap: Gap
    reachable: bool
    best: Candidate
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def matches(self) -> list[Candidate]:
        return [candidate for candidate in self.candidates if candidate.reaches]


def against(run: Run, start: Scorer, target: Target, scorings: Scorings | None = None) -> TargetGap:
    """Explain the gap from `run` scored by `start` to `target` (see the module docstring)."""
    bench = run.bench
    mode = run.result.mode
    start = check_scorer(bench, mode, start)
    scorings = scorings or Scorings(run.result.benchmark, mode)
    candidates = []
    for scorer in known_scorers(bench, mode, judge=bool(run.judgments)):
        figure = figure_of(Number(run, scorer), scorings).figure
        candidates.append(Candidate(scorer, figure, target.reached_by(figure), _changes(start, scorer)))
    defined = [candidate for candidate in candidates if candidate.figure is not None]
    if not defined:
        raise InputError(run.result.source, "no scorer counts any question of this file")
    defined.sort(key=lambda c: (not c.reaches, c.changes if c.reaches else 0, _off(c, target)))
    best = defined[0]
    gap = decompose(Number(run, start), Number(run, best.scorer), scorings)
    residual = Step(
        "rounding" if best.reaches else "unexplained",
        f"{best.scorer.label()} -> {target.label}"
        if best.reaches
        else f"the nearest known scorer ({best.scorer.label()}) -> {target.label}",
        best.figure,
        target.value,
    )
    gap.steps.append(residual)
    gap.b, gap.b_figure, gap.b_number = target.label, target.value, None
    if not best.reaches:
        gap.notes.append(
            f"no known scorer reaches {target.label} from this file: the nearest is {best.scorer.label()} "
            f"at {float(best.figure or 0):.2f}, {float(_off(best, target)):.2f} points away; "
            "the rest is other responses, other questions, or a scorer MathReel does not reproduce"
        )
    return TargetGap(target, gap, best.reaches, best, sorted(defined, key=lambda c: (_off(c, target), c.changes)))


def _off(candidate: Candidate, target: Target) -> Fraction:
    """How far a candidate with a figure lies from the target."""
    assert candidate.figure is not None  # only candidates with a figure are compared
    return abs(candidate.figure - target.value)


def _changes(start: Scorer, other: Scorer) -> int:
    return sum(
        (
            start.reader != other.reader,
            start.denominator != other.denominator,
            start.unit != other.unit,
            start.policy != other.policy,
            start.judge != other.judge,
        )
    )
