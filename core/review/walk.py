"""Which judged questions a reviewer still has to see, and which the judge put in an error category: the lists the
reading flow walks. Judgments meet a scored run by response (fingerprint), never by id alone, so a judgment of
another response to the same question is never shown beside this one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from mathreel.core.judge.fingerprint import response_fingerprint
from mathreel.core.review.join import JudgeView
from mathreel.core.review.model import Review


def own_review(reviews: Sequence[Review], view: JudgeView, reviewer: str) -> Review | None:
    """`reviewer`'s review of exactly this judged response, if any."""
    return next(
        (
            r
            for r in reviews
            if r.question_id == view.question_id
            and r.reviewer == reviewer
            and r.response_fingerprint == view.fingerprint
        ),
        None,
    )


def matching_views(answers: Iterable[tuple[str, str]], views: Mapping[str, JudgeView]) -> dict[str, JudgeView]:
    """The judge's views of the (question id, response) answers whose response is the one judged, in answer order."""
    found = {}
    for qid, response in answers:
        view = views.get(qid)
        if view is not None and view.fingerprint == response_fingerprint(response):
            found[qid] = view
    return found


def unreviewed_ids(
    order: Sequence[str], views: Mapping[str, JudgeView], reviews: Sequence[Review], reviewer: str
) -> list[str]:
    """The ids of `order` that are judged and not yet reviewed by `reviewer`, in order."""
    return [qid for qid in order if qid in views and own_review(reviews, views[qid], reviewer) is None]


def category_ids(order: Sequence[str], views: Mapping[str, JudgeView], category: str) -> list[str]:
    """The ids of `order` whose judged primary error category is `category`, in order."""
    return [qid for qid in order if qid in views and views[qid].primary == category]


def next_after(order: Sequence[str], wanted: Sequence[str], current: str | None) -> str | None:
    """The first of `wanted` after `current` in `order`, wrapping round (None when `wanted` is empty)."""
    if not wanted:
        return None
    chosen = set(wanted)
    start = order.index(current) + 1 if current in order else 0
    return next((qid for qid in [*order[start:], *order[:start]] if qid in chosen), wanted[0])
