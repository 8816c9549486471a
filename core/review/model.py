"""A person's review of the judge's verdict on one question: categories and step score accepted or changed, and
the question itself flagged when it is broken. One record per question and reviewer; a review names the judge
model, prompt version and response fingerprint it reviewed, so it is only ever applied to that judgment."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from mathreel.core.errors import InputError

VERDICTS = ("accepted", "changed")
# Why a question itself is broken, as a dataset maintainer would act on it.
FLAGS = {
    "wrong_gold": "wrong gold answer",
    "ambiguous": "ambiguous video or subtitles",
    "bad_annotation": "bad annotation (steps or options)",
    "other": "other",
}


@dataclass
class Review:
    """One reviewer's verdict on one question. An empty verdict means that part was not reviewed."""

    question_id: str
    reviewer: str
    judge_model: str = ""
    prompt_version: str = ""
    response_fingerprint: str = ""
    benchmark: str = ""
    mode: str = ""
    category_verdict: str = ""  # "", "accepted" or "changed"
    primary: str | None = None
    secondary: list[str] = field(default_factory=list)
    note: str = ""
    steps_verdict: str = ""  # "", "accepted" or "changed"
    step_score: int | None = None
    matched: int | None = None
    flag: str | None = None
    flag_reason: str = ""
    timestamp: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return self.question_id, self.reviewer

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _text(data: dict, key: str, source: str, where: str, *, required: bool = False) -> str:
    value = data.get(key, "")
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise InputError(source, f"{key!r} must be a {'non-empty ' if required else ''}string", where)
    return value


def _count(data: dict, key: str, source: str, where: str, high: int | None) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (high is not None and value > high):
        bound = f"0-{high}" if high is not None else "0 or more"
        raise InputError(source, f"{key!r} must be a whole number {bound}, not {value!r}", where)
    return value


def _check_verdicts(review: Review, source: str, where: str) -> None:
    for name in ("category_verdict", "steps_verdict"):
        if getattr(review, name) not in ("", *VERDICTS):
            raise InputError(source, f"{name!r} must be one of {', '.join(VERDICTS)} or empty", where)
    if review.category_verdict and not review.primary:
        raise InputError(source, "a category verdict needs a 'primary' category", where)
    if review.steps_verdict and review.step_score is None:
        raise InputError(source, "a steps verdict needs a 'step_score'", where)
    if review.flag is not None and review.flag not in FLAGS:
        raise InputError(source, f"unknown flag {review.flag!r}; expected one of {', '.join(FLAGS)}", where)
    if review.flag is not None and not review.flag_reason.strip():
        raise InputError(source, "a flagged question needs a 'flag_reason'", where)


def review_from_dict(data: Any, source: str, where: str, categories: tuple[str, ...] = ()) -> Review:
    """A Review from one JSONL record, checked field by field; `categories`, when given, are the allowed ones."""
    if not isinstance(data, dict):
        raise InputError(source, "a review must be a JSON object", where)
    texts = {
        key: _text(data, key, source, where, required=key in ("question_id", "reviewer"))
        for key in (
            "question_id",
            "reviewer",
            "judge_model",
            "prompt_version",
            "response_fingerprint",
            "benchmark",
            "mode",
            "category_verdict",
            "note",
            "steps_verdict",
            "flag_reason",
            "timestamp",
        )
    }
    secondary = data.get("secondary") or []
    if not isinstance(secondary, list) or not all(isinstance(s, str) for s in secondary):
        raise InputError(source, "'secondary' must be a list of category names", where)
    primary = data.get("primary")
    flag = data.get("flag")
    for key, value in (("primary", primary), ("flag", flag)):
        if value is not None and (not isinstance(value, str) or not value):
            raise InputError(source, f"{key!r} must be a non-empty string or null", where)
    review = Review(
        **texts,
        primary=primary,
        secondary=list(secondary),
        flag=flag,
        step_score=_count(data, "step_score", source, where, 10),
        matched=_count(data, "matched", source, where, None),
    )
    _check_verdicts(review, source, where)
    unknown = [c for c in [review.primary, *review.secondary] if c and categories and c not in categories]
    if unknown:
        raise InputError(source, f"unknown error category {unknown[0]!r}", where)
    return review
