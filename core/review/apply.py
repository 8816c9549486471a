"""Judgments with people's verdicts in place of the judge's: where a review of the same question and response
fingerprint gives a category or step score, it replaces the judge's; the counts say how many came from people."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from mathreel.core.judge.model import Judgment
from mathreel.core.plural import counted
from mathreel.core.review.join import join
from mathreel.core.review.model import Review


@dataclass(frozen=True)
class Applied:
    """The judgments with reviews applied, and how many verdicts people gave (confirmed or changed)."""

    judgments: list[Judgment]
    categories: int  # questions whose error categories come from a reviewer
    categories_changed: int
    steps: int  # questions whose step score comes from a reviewer
    steps_changed: int
    stale: int  # reviews left out: another response or an unknown question

    @property
    def note(self) -> str:
        return (
            f"reviews: {counted(self.categories, 'error-category verdict')} ({self.categories_changed} changed) and "
            f"{counted(self.steps, 'step score')} ({self.steps_changed} changed) come from people; "
            f"{counted(self.stale, 'review')} {'matches' if self.stale == 1 else 'match'} no judged response and "
            f"{'is' if self.stale == 1 else 'are'} left out"
        )


def _latest(reviews: Sequence[Review], verdict: str) -> dict[str, Review]:
    """Per question, the most recent review that gives `verdict` ("category_verdict" or "steps_verdict")."""
    chosen: dict[str, Review] = {}
    for review in reviews:
        if getattr(review, verdict):
            held = chosen.get(review.question_id)
            if held is None or review.timestamp >= held.timestamp:
                chosen[review.question_id] = review
    return chosen


def _reviewed_errors(judgment: Judgment, review: Review) -> Judgment:
    why = f"reviewer {review.reviewer}: {review.note or review.category_verdict}"
    primary = {"category": review.primary, "rationale": why}
    secondary = [{"category": name, "rationale": why} for name in review.secondary]
    values = {
        **judgment.values,
        "primary": primary,
        "secondary": secondary,
        "categories": [review.primary, *review.secondary],
        "source": f"reviewer {review.reviewer}",
    }
    return dataclasses.replace(judgment, status="ok", values=values)


def _reviewed_steps(judgment: Judgment, review: Review) -> Judgment:
    values = {**judgment.values, "score": review.step_score, "source": f"reviewer {review.reviewer}"}
    if review.matched is not None:
        total = values.get("total")
        values.update(matched=review.matched, matched_steps=f"{review.matched}/{total}" if total else "")
    return dataclasses.replace(judgment, status="ok", values=values)


def apply_reviews(judgments: Sequence[Judgment], reviews: Sequence[Review]) -> Applied:
    joined = join(judgments, reviews)
    matched = [review for _, review in joined.pairs]
    categories, steps = _latest(matched, "category_verdict"), _latest(matched, "steps_verdict")
    out = []
    for judgment in judgments:
        if judgment.task == "errors" and judgment.question_id in categories:
            judgment = _reviewed_errors(judgment, categories[judgment.question_id])
        elif judgment.task == "steps" and judgment.question_id in steps:
            judgment = _reviewed_steps(judgment, steps[judgment.question_id])
        out.append(judgment)
    return Applied(
        out,
        len(categories),
        sum(r.category_verdict == "changed" for r in categories.values()),
        len(steps),
        sum(r.steps_verdict == "changed" for r in steps.values()),
        len(joined.stale),
    )


def reviewed_lines(judgments: Sequence[Judgment], reviews: Sequence[Review]) -> list[str]:
    """What `mathreel score --reviews` adds to the report: the step score and error categories with people's
    verdicts in place, and how many came from people."""
    from collections import Counter

    from mathreel.core.judge.views import step_score_rows

    applied = apply_reviews(judgments, reviews)
    lines = [applied.note]
    for row in step_score_rows({"reviewed": applied.judgments}):
        if row.mean is not None:
            lines.append(
                f"reviews: mean step score with reviews applied {row.mean:.2f} / 10 over {counted(row.n, 'question')}"
            )
    primary = Counter(
        j.values["primary"]["category"]
        for j in applied.judgments
        if j.task == "errors" and j.status == "ok" and j.values.get("primary")
    )
    if primary:
        shares = ", ".join(f"{name} {count}" for name, count in primary.most_common())
        lines.append(f"reviews: primary error categories with reviews applied: {shares}")
    return lines
