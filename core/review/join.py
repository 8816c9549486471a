"""Reviews beside the judgments they reviewed: joined on question id and response fingerprint, so a review of
one response is never counted against the judge's verdict on another."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathreel.core.judge.fingerprint import response_fingerprint
from mathreel.core.judge.model import Judgment
from mathreel.core.judge.views import QuestionJudgments, by_question
from mathreel.core.review.model import Review


@dataclass(frozen=True)
class JudgeView:
    """What the judge said about one question, as a reviewer sees it."""

    question_id: str
    fingerprint: str
    primary: str | None
    secondary: tuple[str, ...]
    step_score: int | None
    matched: int | None
    total: int | None
    judge_model: str
    prompt_version: str


def judge_view(card: QuestionJudgments) -> JudgeView:
    errors, steps = card.values("errors"), card.values("steps")
    response = next((j.response for j in card.by_task.values() if j.response), "")
    primary = (errors.get("primary") or {}).get("category")
    secondary = tuple(e["category"] for e in errors.get("secondary") or [])
    reviewed = [card.by_task[t] for t in ("errors", "steps") if t in card.by_task]
    models = sorted({j.judge_model for j in reviewed if j.judge_model})
    return JudgeView(
        card.question_id,
        response_fingerprint(response),
        primary,
        secondary,
        card.step_score,
        steps.get("matched"),
        steps.get("total"),
        ", ".join(models),
        ", ".join(j.prompt_version for j in reviewed if j.prompt_version),
    )


def judge_views(judgments: Sequence[Judgment]) -> dict[str, JudgeView]:
    """The judge's view of every question, by question id."""
    return {card.question_id: judge_view(card) for card in by_question(judgments)}


@dataclass(frozen=True)
class Joined:
    """Reviews that match a judged response, and the ones that do not (another response, or an unknown question)."""

    pairs: list[tuple[JudgeView, Review]]
    stale: list[Review]


def join(judgments: Sequence[Judgment], reviews: Sequence[Review]) -> Joined:
    views = judge_views(judgments)
    pairs, stale = [], []
    for review in reviews:
        view = views.get(review.question_id)
        if view is not None and view.fingerprint == review.response_fingerprint:
            pairs.append((view, review))
        else:
            stale.append(review)
    return Joined(pairs, stale)
