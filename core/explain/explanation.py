"""`explain`: everything `mathreel explain` says about one, two or more runs, as one object, and its stable JSON
(docs/explain.md) and CSV (one line per question of each step: the walk list of every cause).

- One run: every reference at once, the run's settings; against a figure (typed or published): the gap
  decomposed up to it; with two scorers: the gap between them and the paired comparison of the two readings.
- Two runs: the gap from A to B, the paired comparison, both runs' settings.
- More runs: the matrix of pairwise differences with their intervals, and each run's settings.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from mathreel.core.errors import MathReelError
from mathreel.core.explain.frames import FrameComparison
from mathreel.core.explain.gap import Gap, Number, Step, decompose
from mathreel.core.explain.paired import DRAWS, SEED, Paired, PairwiseMatrix, paired, pairwise
from mathreel.core.explain.provenance import Provenance, provenance
from mathreel.core.explain.references import ReferenceTable, reference_table
from mathreel.core.explain.runs import Run, Scorings
from mathreel.core.explain.scorers import Scorer
from mathreel.core.explain.target import PaperChoice, Target, TargetGap, against
from mathreel.core.scoring.export import safe_cell

SCHEMA = 1
KIND = "mathreel explain"
CSV_COLUMNS = (
    "step",
    "cause",
    "label",
    "delta",
    "question_id",
    "unit",
    "status_before",
    "status_after",
    "mark_before",
    "mark_after",
)


@dataclass
class Explanation:
    """What was asked and what was found (parts absent when the question did not call for them)."""

    runs: list[Run]
    settings: list[Provenance]
    references: ReferenceTable | None = None
    gap: Gap | None = None
    target: TargetGap | None = None
    paper: PaperChoice | None = None
    paired: Paired | None = None
    pairwise: PairwiseMatrix | None = None
    frames: FrameComparison | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The `mathreel explain --json` object (docs/explain.md): stable keys, exact figures as fraction strings."""
        return {
            "schema": SCHEMA,
            "kind": KIND,
            "runs": [_run_dict(run, found) for run, found in zip(self.runs, self.settings, strict=True)],
            "references": _references_dict(self.references) if self.references else None,
            "gap": gap_dict(self.gap) if self.gap else None,
            "target": _target_dict(self.target, self.paper) if self.target else None,
            "paired": paired_dict(self.paired) if self.paired else None,
            "pairwise": _pairwise_dict(self.pairwise) if self.pairwise else None,
            "frames": self.frames.to_dict() if self.frames else None,
            "notes": self.notes,
        }

    def rows_csv(self) -> str:
        """One line per question of each step of the gap (`CSV_COLUMNS`), for walk lists and spreadsheets."""
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer)
        writer.writerow(CSV_COLUMNS)
        for number, step in enumerate(self.gap.steps if self.gap else [], start=1):
            delta = _number(step.delta)  # a number MathReel computed: written as is, never a formula
            for change in step.changes:
                writer.writerow(
                    [
                        number,
                        step.cause,
                        safe_cell(step.label),
                        delta,
                        *map(
                            safe_cell,
                            (
                                change.question_id,
                                change.unit,
                                change.status_before,
                                change.status_after,
                                change.mark_before,
                                change.mark_after,
                            ),
                        ),
                    ]
                )
        return buffer.getvalue()


def explain(
    runs: Sequence[Run],
    scorers: Sequence[Scorer],
    target: Target | None = None,
    paper: PaperChoice | None = None,
    frames: FrameComparison | None = None,
    seed: int = SEED,
    draws: int = DRAWS,
    references: ReferenceTable | None = None,
) -> Explanation:
    """Explain one run (its references; against `target`; or between `scorers[0]` and `scorers[1]`), two runs
    (A with `scorers[0]`, B with the last scorer) or more (the pairwise matrix under `scorers[0]`). `references`:
    the one run's reference table when the caller already has it (the web page works it out once per run)."""
    if not runs:
        raise MathReelError("give at least one result file")
    if not scorers or len(scorers) > 2:
        raise MathReelError("give one scorer, or two (one for A, one for B)")
    first = runs[0].result
    for run in runs[1:]:
        if (run.result.benchmark, run.result.mode) != (first.benchmark, first.mode):
            raise MathReelError(
                f"{run.name} is {run.result.benchmark}/{run.result.mode}, {runs[0].name} is "
                f"{first.benchmark}/{first.mode}: a gap needs the same questions"
            )
    scorings = Scorings(first.benchmark, first.mode)
    found = Explanation(list(runs), [provenance(run.result, run.name) for run in runs], frames=frames, paper=paper)
    a, b = scorers[0], scorers[-1]
    if len(runs) == 1:
        run = runs[0]
        found.references = references or reference_table(run, scorings)
        if target is not None:
            if a != b:
                raise MathReelError("a figure is explained from one scoring of the file: give one scorer")
            found.target = against(run, a, target, scorings)
            found.gap = found.target.gap
        elif a != b:
            found.gap = decompose(Number(run, a), Number(run, b), scorings)
            found.paired = paired(Number(run, a), Number(run, b), scorings, seed, draws)
    elif len(runs) == 2:
        if target is not None:
            raise MathReelError("a figure is explained against one file: give one FILE with --against or --paper")
        numbers = Number(runs[0], a), Number(runs[1], b)
        found.gap = decompose(*numbers, scorings)
        found.paired = paired(*numbers, scorings, seed, draws)
    else:
        if target is not None or a != b:
            raise MathReelError("with more than two files, give one scorer (it scores every file) and no figure")
        found.pairwise = pairwise([Number(run, a) for run in runs], scorings, seed, draws)
    for run in runs:
        repeated = len(run.result.duplicates)
        if repeated:
            found.notes.append(
                f"{run.name} answers {repeated} question{'s' if repeated != 1 else ''} more than once "
                f"({', '.join(list(run.result.duplicates)[:10])}); the first answer is scored, as by "
                "every MathReel scorer, so these move no figure here"
            )
    return found


# -- JSON ------------------------------------------------------------------------------------------------------


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def _number(value: Fraction | None, digits: int = 4) -> float | None:
    return None if value is None else round(float(value), digits)


def _run_dict(run: Run, found: Provenance) -> dict[str, Any]:
    result = run.result
    return {
        "name": run.name,
        "source": result.source,
        "benchmark": result.benchmark,
        "mode": result.mode,
        "format": result.format,
        "answers": len(result.predictions),
        "missing": len(result.missing),
        "judge": run.judge_source or None,
        "duplicates": {qid: [str(p) for p in places] for qid, places in result.duplicates.items()},
        "settings": [setting.to_dict() for setting in found.settings.values()],
        "frame_plan": found.plan.to_dict() if found.plan else None,
    }


def _references_dict(table: ReferenceTable) -> dict[str, Any]:
    return {
        "run": table.run,
        "columns": [
            {
                "key": c.key,
                "heading": c.heading,
                "denominator": c.denominator,
                "unit": c.unit,
                "policy": c.policy or None,
            }
            for c in table.columns
        ],
        "rows": [
            {
                **row.reader.to_dict(),
                "label": row.label,
                "judge": row.judge,
                "own": row.own,
                "cells": {key: cell.to_dict() for key, cell in row.cells.items()},
                "unparsed_ids": row.unparsed,
                "read_differently_ids": row.read_differently,
                "gap_from_robust": gap_dict(row.gap) if row.gap else None,
            }
            for row in table.rows
        ],
        "notes": table.notes,
    }


def _number_dict(gap: Gap, side: str) -> dict[str, Any]:
    number = gap.a_number if side == "a" else gap.b_number
    figure = gap.a_figure if side == "a" else gap.b_figure
    return {
        "label": gap.a if side == "a" else gap.b,
        "run": number.run.name if number else None,
        "scorer": number.scorer.to_dict() if number else None,
        "figure": _number(figure),
        "figure_exact": _exact(figure),
    }


def step_dict(step: Step) -> dict[str, Any]:
    return {
        "cause": step.cause,
        "means": step.means,
        "label": step.label,
        "before": _number(step.before),
        "after": _number(step.after),
        "delta": _number(step.delta),
        "delta_exact": _exact(step.delta),
        "units": step.units,
        "questions": len(step.changes),
        "question_ids": step.question_ids,
        "transitions": step.transitions(),
        "changes": [change.to_dict() for change in step.changes],
    }


def gap_dict(gap: Gap) -> dict[str, Any]:
    from mathreel.core.explain.text import gap_line

    return {
        "a": _number_dict(gap, "a"),
        "b": _number_dict(gap, "b"),
        "total": _number(gap.total),
        "total_exact": _exact(gap.total),
        "parts_add_up": gap.parts_add_up(),
        "steps": [step_dict(step) for step in gap.steps],
        "text": gap_line(gap),
        "notes": gap.notes,
    }


def _target_dict(found: TargetGap, paper: PaperChoice | None) -> dict[str, Any]:
    def candidate(c: Any) -> dict[str, Any]:
        return {
            "scorer": c.scorer.to_dict(),
            "figure": _number(c.figure),
            "figure_exact": _exact(c.figure),
            "reaches": c.reaches,
        }

    return {
        "figure": _number(found.target.value),
        "figure_exact": _exact(found.target.value),
        "precision": _number(found.target.precision),
        "label": found.target.label,
        "source": found.target.source,
        "paper": None
        if paper is None
        else {"model": paper.model, "setting": paper.setting, "table": paper.table, "note": paper.note or None},
        "reachable": found.reachable,
        "best": candidate(found.best),
        "matches": [candidate(c) for c in found.matches],
        "nearest": [candidate(c) for c in found.candidates[:5]],
    }


def paired_dict(found: Paired) -> dict[str, Any]:
    return {
        "a": found.a,
        "b": found.b,
        "unit": found.unit,
        "overall": found.overall.to_dict(),
        "interval": found.interval.to_dict(),
        "method": found.method,
        "by": {dim: {value: f.to_dict() for value, f in cells.items()} for dim, cells in found.by.items()},
        "only_a_ids": found.only_a_ids,
        "only_b_ids": found.only_b_ids,
        "counted_only_by_a": found.not_shared[0],
        "counted_only_by_b": found.not_shared[1],
    }


def _pairwise_dict(matrix: PairwiseMatrix) -> dict[str, Any]:
    return {
        "runs": matrix.names,
        "pairs": [
            {
                "a": i,
                "b": j,
                "difference": found.overall.to_dict()["difference"],
                "difference_exact": found.overall.to_dict()["difference_exact"],
                "interval": found.interval.to_dict(),
                "mcnemar_p": found.overall.p_value,
                "n": found.overall.n,
            }
            for (i, j), found in matrix.cells.items()
        ],
    }
