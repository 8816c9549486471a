"""Every reference at once: one file's figure under MathReel's robust reader and under every pinned reproduction
of its benchmark, with both denominators (and per pair, and the group scores under each group policy), each row
naming its source and commit, the cell its reference itself reports, and how far that is from MathReel's figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from mathreel.core.explain.gap import Gap, Number, decompose, figure_of
from mathreel.core.explain.runs import Run, Scorings, run_key
from mathreel.core.explain.scorers import ROBUST, Reader, Scorer, own_scorer, policy_names, readers, units_of
from mathreel.core.explain.tally import Tally
from mathreel.core.kinds import DENOMINATORS


@dataclass(frozen=True)
class Column:
    """One column of the table: its key ("all", "pair answered", "group official"), heading and scorer fields."""

    key: str
    heading: str
    denominator: str
    unit: str
    policy: str = ""

    def scorer(self, reader: str, judge: bool) -> Scorer:
        return Scorer(reader, self.denominator, self.unit, self.policy, judge)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Figure:
    """One cell: the exact figure (percent; a group score is 0-100) and how many units it counts."""

    value: Fraction | None
    counted: int
    unit: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": None if self.value is None else round(float(self.value), 4),
            "exact": None if self.value is None else str(self.value),
            "counted": self.counted,
            "unit": self.unit,
        }


@dataclass
class ReferenceRow:
    """One reader (with or without the run's judge): its cells, the cell its reference reports, its unparsed
    answers, the answers it reads differently from the robust reader, and the gap from MathReel's own figure."""

    reader: Reader
    judge: bool
    cells: dict[str, Figure]
    own: str
    unparsed: list[str] = field(default_factory=list)
    read_differently: list[str] = field(default_factory=list)
    gap: Gap | None = None

    @property
    def label(self) -> str:
        names = " = ".join(self.reader.names)
        return f"{names} + judge" if self.judge else names


@dataclass
class ReferenceTable:
    """The table for one run."""

    run: str
    benchmark: str
    mode: str
    columns: list[Column]
    rows: list[ReferenceRow]
    notes: list[str] = field(default_factory=list)


def columns_of(run: Run) -> list[Column]:
    """The table's columns for a run's benchmark and mode: accuracy under each denominator per unit, then the
    group score under each group policy."""
    bench = run.bench
    columns = []
    for unit in units_of(bench, run.result.mode):
        if unit == "group":
            columns += [
                Column(f"group {policy}", f"group score ({policy} policy)", "all", "group", policy)
                for policy in policy_names(bench)
            ]
        else:
            prefix = "" if unit == "question" else f"{unit} "
            columns += [
                Column(f"{prefix}{denominator}", f"{prefix}{denominator}", denominator, unit)
                for denominator in DENOMINATORS
            ]
    return columns


def reference_table(run: Run, scorings: Scorings | None = None) -> ReferenceTable:
    """Every reader of the run's benchmark (with and without the run's judge, when it has one) in every column."""
    bench = run.bench
    mode = run.result.mode
    scorings = scorings or Scorings(run.result.benchmark, mode)
    columns = columns_of(run)
    judges = (False, True) if run.judgments else (False,)
    start = Number(run, own_scorer(bench, ROBUST))
    robust_rows = scorings.scored(run_key(run), run.entries, ROBUST, None).rows
    table = ReferenceTable(run.name, run.result.benchmark, mode, columns, [])
    for judge in judges:
        for reader in readers(bench):
            cells = {
                column.key: _figure(figure_of(Number(run, column.scorer(reader.name, judge)), scorings), column.unit)
                for column in columns
            }
            own = own_scorer(bench, reader.name, judge)
            rows = scorings.scored(run_key(run), run.entries, reader.name, run if judge else None).rows
            row = ReferenceRow(
                reader,
                judge,
                cells,
                _own_key(own),
                [r.question_id for r in rows if r.status == "unparsed"],
                [r.question_id for r, mine in zip(rows, robust_rows, strict=True) if r.extracted != mine.extracted],
            )
            if own != start.scorer:
                row.gap = decompose(start, Number(run, own), scorings)
            table.rows.append(row)
    if bench.groups is not None:
        table.notes.append(
            "a group score counts every group: an unparsed answer gets the policy's mark, it is never "
            "dropped, so group columns have no 'answered' variant"
        )
    return table


def _own_key(scorer: Scorer) -> str:
    if scorer.unit == "group":
        return f"group {scorer.policy}"
    return scorer.denominator if scorer.unit == "question" else f"{scorer.unit} {scorer.denominator}"


def _figure(counted: Tally, unit: str) -> Figure:
    return Figure(counted.figure, counted.counted, unit)
