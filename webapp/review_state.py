"""The session's reviews of the judge: the shared state (`ReviewSession`: reviews, reviewer name, judged runs) that
the Judge tab's review panel and Browse's review box both read and write, the plain handlers a review is made,
merged, walked and saved with, and the files written from a session's reviews.

Reviews live in a per-session `gr.State` (a list of core `Review`s), so one visitor's reviews never reach another
session. Only when the operator sets MATHREEL_REVIEWS_DIR are each session's reviews also written there (one file
per session and reviewer, at most 16 per session, never read back by another session: core.review.store). The
statistics are core's (`core.review`).
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.webapp.context import AppContext

if TYPE_CHECKING:
    from mathreel.core.review import Review
    from mathreel.core.review.join import JudgeView

REVIEWS_DIR_ENV = "MATHREEL_REVIEWS_DIR"


@dataclass
class ReviewSession:
    """The session's reviews, reviewer name and judged runs, gr.State shared by the Judge tab and Browse (created
    by whichever tab builds first): a review made, or a judge file loaded or run, in one tab shows in the other,
    and never in another session. `judged` starts as None, meaning the demo set's judged runs."""

    reviews: Any
    reviewer: Any
    judged: Any


def review_session(context: AppContext) -> ReviewSession:
    """The app's shared review state, created on first use."""
    import gradio as gr

    if context.review_session is None:
        context.review_session = ReviewSession(gr.State([]), gr.State("reviewer"), gr.State(None))
    return context.review_session


def run_views(run: Any) -> dict[str, JudgeView]:
    """The judge's view of every question of a judged run (webapp.judged_runs.JudgedRun), in run order."""
    from mathreel.core.review.join import judge_views

    return judge_views(run.judgments) if run is not None else {}


def own_review(reviews: list[Review], view: JudgeView, reviewer: str) -> Review | None:
    """This reviewer's review of exactly this judged response, if any."""
    from mathreel.core.review.walk import own_review as found

    return found(reviews, view, reviewer)


def next_unreviewed(
    views: dict[str, JudgeView], reviews: list[Review], reviewer: str, current: str | None
) -> str | None:
    """The first question after `current` (wrapping round) that this reviewer has not reviewed; None when done."""
    from mathreel.core.review.walk import next_after, unreviewed_ids

    order = list(views)
    return next_after(order, unreviewed_ids(order, views, reviews, reviewer), current)


def progress_text(views: dict[str, JudgeView], reviews: list[Review], reviewer: str) -> str:
    done = sum(own_review(reviews, view, reviewer) is not None for view in views.values())
    return f"Reviewed **{done} of {len(views)}** questions of this run, by *{reviewer}*."


def make_review(
    view: JudgeView,
    run: Any,
    reviewer: str,
    *,
    accept: bool,
    primary: str | None,
    secondary: list[str],
    note: str,
    score: float | None,
    matched: float | None,
    flag: str,
    reason: str,
) -> Review:
    """The review of what the panel shows: `accept` takes the judge's verdicts as they are; otherwise each part is
    "changed" when it differs from the judge's. Bad input raises MathReelError with one line."""
    from mathreel.core.errors import MathReelError
    from mathreel.core.review import Review

    if accept:
        primary, secondary, score, matched = view.primary, list(view.secondary), view.step_score, view.matched
    if flag and not reason.strip():
        raise MathReelError("say why the question is flagged (the reason is empty)")
    if primary and primary in secondary:
        raise MathReelError(f"{primary!r} is the primary category; it cannot also be secondary")
    categories_same = (primary, tuple(secondary)) == (view.primary, view.secondary)
    score_value = None if score is None else int(score)
    matched_value = None if matched is None else int(matched)
    steps_same = (score_value, matched_value) == (view.step_score, view.matched)
    return Review(
        view.question_id,
        reviewer or "reviewer",
        view.judge_model,
        view.prompt_version,
        view.fingerprint,
        run.benchmark,
        run.mode,
        category_verdict=("accepted" if categories_same else "changed") if primary else "",
        primary=primary or None,
        secondary=list(secondary) if primary else [],
        note=note.strip(),
        steps_verdict=("accepted" if steps_same else "changed") if score_value is not None else "",
        step_score=score_value,
        matched=matched_value,
        flag=flag or None,
        flag_reason=reason.strip() if flag else "",
        timestamp=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )


def with_review(reviews: list[Review], review: Review) -> list[Review]:
    """A new list with `review` in place of the same (question, reviewer); the session's old list is untouched."""
    from mathreel.core.review import merge_reviews

    return merge_reviews(reviews, [review])


def uploaded(path: str, reviews: list[Review]) -> list[Review]:
    """The session's reviews with an uploaded review file merged in (the file's records win); a bad file raises
    InputError naming it by its uploaded name, not the server's temporary path. A costly file is read in a child
    process with a budget, as a costly result file is (webapp.scored_runs.run_costed)."""
    from mathreel.core.errors import InputError
    from mathreel.core.review import read_reviews
    from mathreel.webapp.scored_runs import READING, run_costed

    try:
        return with_reviews(reviews, run_costed(read_reviews, (str(path),), path, READING))
    except InputError as error:
        raise InputError(Path(path).name, error.problem, error.record) from None


def with_reviews(reviews: list[Review], more: list[Review]) -> list[Review]:
    from mathreel.core.review import merge_reviews

    return merge_reviews(reviews, more)


def saved(
    run: Any, view: JudgeView | None, held: list[Review], name: str, accept_it: bool, edits: tuple, request: Any
) -> tuple[list[Review], Review]:
    """The session's reviews with the shown question's review in place (also kept on the server when configured).
    `edits` are the values of ReviewControls.edits. Raises MathReelError with one line on bad input."""
    first, others, text, points, steps, why_flag, why = edits
    if view is None:
        raise _error("no judged question is shown")
    review = make_review(
        view,
        run,
        name.strip(),
        accept=accept_it,
        primary=first,
        secondary=list(others or []),
        note=text or "",
        score=points,
        matched=steps,
        flag=why_flag or "",
        reason=why or "",
    )
    updated = with_review(held, review)
    keep_on_server(updated, session_id(request), review.reviewer)
    return updated, review


def session_id(request: Any) -> str:
    """The session a gr.Request belongs to ("" outside a request), which names its review files."""
    return getattr(request, "session_hash", "") or ""


def session_file(reviews: list[Review], session: str) -> str | None:
    """The session's review file for download (a file of its own, by session), or None with no reviews."""
    from mathreel.core.review import write_reviews

    if not reviews:
        return None
    folder = Path(tempfile.gettempdir()) / "mathreel-reviews" / _safe(session or "local")
    return str(write_reviews(folder / "mathreel_reviews.jsonl", reviews))


def keep_on_server(reviews: list[Review], session: str, active: str | None = None) -> None:
    """With MATHREEL_REVIEWS_DIR set: the session's reviews also go to the folder, one file per reviewer, bounded
    per session, the active reviewer first (core.review.store)."""
    from mathreel.core.review.store import keep_reviews

    folder = os.environ.get(REVIEWS_DIR_ENV, "").strip()
    if folder:
        keep_reviews(folder, session, reviews, active)


def flagged_file(result: Any, session: str) -> str | None:
    """The questions reviewers flagged, as CSV in the session's folder for download; None when none is flagged."""
    from mathreel.core.files import write_text_atomic
    from mathreel.core.review.agreement import flagged_csv

    if result is None or not result.flagged:
        return None
    folder = Path(tempfile.gettempdir()) / "mathreel-reviews" / _safe(session or "local")
    return str(write_text_atomic(folder / "flagged_questions.csv", flagged_csv(result.flagged)))


def _safe(name: str) -> str:
    """A file-name part: letters, digits, dash and underscore only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:60] or "reviewer"


def demo_reviews(run: Any) -> list[Review]:
    """The demo set's synthetic reviews of a demo run (none for other runs)."""
    from mathreel.core.data import demo_dir
    from mathreel.core.review import read_reviews

    if run is None or not run.name.endswith("(synthetic demo)"):
        return []
    path = demo_dir() / "reviews" / f"{run.name.removesuffix(' (synthetic demo)')}_reviews.jsonl"
    return read_reviews(path) if path.is_file() else []


def _error(message: str) -> Exception:
    from mathreel.core.errors import MathReelError

    return MathReelError(message)
