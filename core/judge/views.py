"""Judgments folded into what people read: per-question cards, mean step scores, error-category counts.

Plain Python over Judgment lists, shared by `mathreel judge` and the app's Judge tab (which only renders).
Failed and skipped judgments never enter a mean or a count silently: the tables carry `n` and the failure
counts, so a mean over 3 of 12 questions says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mathreel.core.judge.model import Judgment, count_statuses
from mathreel.core.plural import counted


@dataclass
class QuestionJudgments:
    """Everything judged about one question: the judgment of each task, by task name."""

    question_id: str
    dims: dict[str, str] = field(default_factory=dict)
    by_task: dict[str, Judgment] = field(default_factory=dict)

    def values(self, task: str) -> dict:
        """The values of a task that delivered (ok, rule or fallback), else {}."""
        judgment = self.by_task.get(task)
        return judgment.values if judgment is not None and judgment.status in ("ok", "rule", "fallback") else {}

    @property
    def step_score(self) -> int | None:
        score = self.values("steps").get("score")
        return score if isinstance(score, int) else None

    @property
    def categories(self) -> list[str]:
        """Primary first, then secondary; empty when no error analysis was delivered."""
        return list(self.values("errors").get("categories") or [])


def by_question(judgments: Iterable[Judgment]) -> list[QuestionJudgments]:
    """Judgments grouped per question, in first-seen order."""
    grouped: dict[str, QuestionJudgments] = {}
    for judgment in judgments:
        entry = grouped.setdefault(judgment.question_id, QuestionJudgments(judgment.question_id, dict(judgment.dims)))
        entry.by_task[judgment.task] = judgment
    return list(grouped.values())


def select(
    questions: Sequence[QuestionJudgments],
    *,
    category: str | None = None,
    min_score: int | None = None,
    max_score: int | None = None,
) -> list[QuestionJudgments]:
    """Questions with `category` among their error categories and a step score within [min_score, max_score].

    A score bound excludes questions without a step score; the category is matched by its whole name.
    """
    chosen = []
    for entry in questions:
        if category and category not in entry.categories:
            continue
        score = entry.step_score
        if (min_score is not None or max_score is not None) and score is None:
            continue
        if min_score is not None and score is not None and score < min_score:
            continue
        if max_score is not None and score is not None and score > max_score:
            continue
        chosen.append(entry)
    return chosen


@dataclass(frozen=True)
class ScoreRow:
    """Mean step score of one run over one group of questions (group "All" is the whole run)."""

    run: str
    group: str
    mean: float | None
    n: int
    failed: int


def step_score_rows(runs: Mapping[str, Sequence[Judgment]], by: str | None = None) -> list[ScoreRow]:
    """Mean step score per run, and per value of the dimension `by` (e.g. "category") when given."""
    rows = []
    for run, judgments in runs.items():
        steps = [j for j in judgments if j.task == "steps"]
        groups: dict[str, list[Judgment]] = {"All": steps}
        if by:
            for judgment in steps:
                groups.setdefault(judgment.dims.get(by) or "(none)", []).append(judgment)
        for group, members in groups.items():
            scores = [j.values["score"] for j in members if j.status in ("ok", "rule") and "score" in j.values]
            failed = sum(j.failed for j in members)
            rows.append(ScoreRow(run, group, sum(scores) / len(scores) if scores else None, len(scores), failed))
    return rows


@dataclass(frozen=True)
class CategoryRow:
    """How often one error category was the primary one (and named at all) in one run."""

    run: str
    category: str
    primary: int
    mentioned: int
    share: float  # of the run's analysed wrong answers, in percent (primary)


def error_rows(runs: Mapping[str, Sequence[Judgment]], categories: Sequence[str]) -> list[CategoryRow]:
    """The distribution of error categories per run, every category listed (zeros included), as in Fig. 5c."""
    rows = []
    for run, judgments in runs.items():
        analysed = [j for j in judgments if j.task == "errors" and j.status == "ok"]
        primary = Counter(j.values["primary"]["category"] for j in analysed)
        mentioned = Counter(name for j in analysed for name in j.values.get("categories", []))
        total = len(analysed)
        names = list(categories) + sorted(set(mentioned) - set(categories))
        rows += [
            CategoryRow(run, name, primary[name], mentioned[name], 100 * primary[name] / total if total else 0.0)
            for name in names
        ]
    return rows


def summary_lines(judgments: Sequence[Judgment], not_applicable: Mapping[str, str] | None = None) -> list[str]:
    """A short text summary: per task the status counts (failures always shown) and the mean step score."""
    lines = []
    for task, counts in count_statuses(judgments).items():
        parts = [f"{counts[s]} {s}" for s in ("ok", "rule", "fallback", "failed", "skipped") if counts[s]]
        failures = counts["fallback"] + counts["failed"]
        lines.append(f"{task}: " + ", ".join(parts) + f" — judge failures: {failures}")
    for row in step_score_rows({"run": judgments}):
        if row.mean is not None:
            lines.append(f"mean step score: {row.mean:.2f} / 10 over {counted(row.n, 'question')}")
    for task, why in (not_applicable or {}).items():
        lines.append(f"{task}: not run ({why})")
    return lines
