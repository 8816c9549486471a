"""Review panel of the Judge tab: a person accepts or changes the judge's error categories and step score, flags
a broken question, walks the unreviewed questions by keyboard, downloads and uploads the review file, and sees
how far the judge agrees with people.

Reviews live in a per-session `gr.State` (a list of core `Review`s), so one visitor's reviews never reach another
session. Only when the operator sets MATHREEL_REVIEWS_DIR is each session's file also written there (one file
per session and reviewer, never read back by another session). The statistics are core's (`core.review`).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webapp.context import AppContext
from webapp.errors import error_box, error_message

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from core.review import Review
    from core.review.join import JudgeView

REVIEWS_DIR_ENV = "MATHREEL_REVIEWS_DIR"
NO_FLAG = ""
SHORTCUTS = ("**Keyboard** (outside text boxes): **a** accept the judge's verdict and go to the next unreviewed "
             "question · **s** save your changes and go on · **n** next unreviewed question without saving.")
# Keys to buttons; ignored while typing in a field, and with Ctrl/Alt/Meta held.
KEYS_JS = """<script>
document.addEventListener('keydown', (event) => {
  const keys = {a: 'review-accept', s: 'review-save', n: 'review-next'};
  const target = event.target;
  if (event.ctrlKey || event.altKey || event.metaKey || !(event.key in keys)) return;
  if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
  const element = document.getElementById(keys[event.key]);
  const button = element && (element.tagName === 'BUTTON' ? element : element.querySelector('button'));
  if (button && button.offsetParent !== null) { event.preventDefault(); button.click(); }
});
</script>"""


# -- plain handlers (no gradio) ----------------------------------------------------------------------------------


def run_views(run: Any) -> dict[str, JudgeView]:
    """The judge's view of every question of a judged run (webapp.judge.JudgedRun), in run order."""
    from core.review.join import judge_views

    return judge_views(run.judgments) if run is not None else {}


def own_review(reviews: list[Review], view: JudgeView, reviewer: str) -> Review | None:
    """This reviewer's review of exactly this judged response, if any."""
    return next((r for r in reviews if r.question_id == view.question_id and r.reviewer == reviewer
                 and r.response_fingerprint == view.fingerprint), None)


def next_unreviewed(views: dict[str, JudgeView], reviews: list[Review], reviewer: str,
                    current: str | None) -> str | None:
    """The first question after `current` (wrapping round) that this reviewer has not reviewed; None when done."""
    order = list(views)
    start = order.index(current) + 1 if current in order else 0
    for qid in order[start:] + order[:start]:
        if own_review(reviews, views[qid], reviewer) is None:
            return qid
    return None


def progress_text(views: dict[str, JudgeView], reviews: list[Review], reviewer: str) -> str:
    done = sum(own_review(reviews, view, reviewer) is not None for view in views.values())
    return f"Reviewed **{done} of {len(views)}** questions of this run, by *{reviewer}*."


def make_review(view: JudgeView, run: Any, reviewer: str, *, accept: bool, primary: str | None,
                secondary: list[str], note: str, score: float | None, matched: float | None, flag: str,
                reason: str) -> Review:
    """The review of what the panel shows: `accept` takes the judge's verdicts as they are; otherwise each part is
    "changed" when it differs from the judge's. Bad input raises MathReelError with one line."""
    from core.errors import MathReelError
    from core.review import Review

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
        view.question_id, reviewer or "reviewer", view.judge_model, view.prompt_version, view.fingerprint,
        run.benchmark, run.mode,
        category_verdict=("accepted" if categories_same else "changed") if primary else "",
        primary=primary or None, secondary=list(secondary) if primary else [], note=note.strip(),
        steps_verdict=("accepted" if steps_same else "changed") if score_value is not None else "",
        step_score=score_value, matched=matched_value, flag=flag or None, flag_reason=reason.strip() if flag else "",
        timestamp=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )


def with_review(reviews: list[Review], review: Review) -> list[Review]:
    """A new list with `review` in place of the same (question, reviewer); the session's old list is untouched."""
    from core.review import merge_reviews

    return merge_reviews(reviews, [review])


def uploaded(path: str, reviews: list[Review]) -> list[Review]:
    """The session's reviews with an uploaded review file merged in (the file's records win); a bad file raises
    InputError naming it by its uploaded name, not the server's temporary path."""
    from core.errors import InputError
    from core.review import read_reviews

    try:
        return with_reviews(reviews, read_reviews(path))
    except InputError as error:
        raise InputError(Path(path).name, error.problem, error.record) from None


def with_reviews(reviews: list[Review], more: list[Review]) -> list[Review]:
    from core.review import merge_reviews

    return merge_reviews(reviews, more)


def session_file(reviews: list[Review], session: str) -> str | None:
    """The session's review file for download (a file of its own, by session), or None with no reviews."""
    from core.review import write_reviews

    if not reviews:
        return None
    folder = Path(tempfile.gettempdir()) / "mathreel-reviews" / _safe(session or "local")
    return str(write_reviews(folder / "mathreel_reviews.jsonl", reviews))


def keep_on_server(reviews: list[Review], session: str) -> None:
    """With MATHREEL_REVIEWS_DIR set: the session's reviews also go to <dir>/<session>_<reviewer>.jsonl."""
    from core.review import write_reviews

    folder = os.environ.get(REVIEWS_DIR_ENV, "").strip()
    if not folder:
        return
    for reviewer in sorted({r.reviewer for r in reviews}):
        mine = [r for r in reviews if r.reviewer == reviewer]
        write_reviews(Path(folder) / f"{_safe(session or 'local')}_{_safe(reviewer)}.jsonl", mine)


def _safe(name: str) -> str:
    """A file-name part: letters, digits, dash and underscore only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:60] or "reviewer"


def demo_reviews(run: Any) -> list[Review]:
    """The demo set's synthetic reviews of a demo run (none for other runs)."""
    from core.data import demo_dir
    from core.review import read_reviews

    if run is None or not run.name.endswith("(synthetic demo)"):
        return []
    path = demo_dir() / "reviews" / f"{run.name.removesuffix(' (synthetic demo)')}_reviews.jsonl"
    return read_reviews(path) if path.is_file() else []


# -- agreement view ----------------------------------------------------------------------------------------------


def agreement_for(run: Any, reviews: list[Review]) -> tuple[Any, str]:
    """Agreement of the run's judge with the session's reviews, or with the demo set's synthetic reviews when the
    session has none for this run; and a line saying which."""
    from core.review.agreement import agreement
    from core.review.join import join

    if run is None:
        return None, "No run is shown."
    if join(run.judgments, reviews).pairs:
        return agreement(run.judgments, reviews), "Your reviews in this session."
    demo = demo_reviews(run)
    if demo:
        return agreement(run.judgments, demo), "No reviews of yours yet: the demo set's **synthetic** reviews."
    return None, "No reviews of this run yet."


def agreement_markdown(result: Any, source: str) -> str:
    from core.review.agreement import summary_lines

    if result is None:
        return source
    return source + "\n\n" + "\n".join(f"- {line.strip()}" for line in summary_lines(result))


def confusion_figure(result: Any) -> go.Figure:
    """The judge-vs-reviewer confusion matrix of primary categories as a heatmap (judge rows, reviewer columns)."""
    import plotly.graph_objects as go

    figure = go.Figure()
    if result is not None and result.labels:
        figure.add_heatmap(z=result.confusion, x=result.labels, y=result.labels, colorscale="Blues",
                           text=result.confusion, texttemplate="%{text}",
                           hovertemplate="judge %{y}<br>reviewer %{x}<br>%{z} questions<extra></extra>")
    figure.update_layout(title="Primary error category: judge (rows) vs reviewer (columns)", height=460,
                         margin={"l": 220, "b": 160, "t": 60})
    figure.update_xaxes(tickangle=-30, title="reviewer")
    figure.update_yaxes(autorange="reversed", title="judge")
    return figure


def steps_figure(result: Any) -> go.Figure:
    """Bland-Altman plot of step scores: the mean of judge and reviewer against their difference, with the bias
    and the 95% limits of agreement."""
    import plotly.graph_objects as go

    figure = go.Figure()
    pairs = result.step_pairs if result is not None else []
    if pairs:
        figure.add_scatter(x=[(j + r) / 2 for j, r in pairs], y=[j - r for j, r in pairs], mode="markers",
                           name="questions", hovertemplate="mean %{x}<br>judge - reviewer %{y}<extra></extra>")
        d = result.steps
        for value, label in ((d.mean, "mean difference"), (d.low, "lower limit"), (d.high, "upper limit")):
            if value == value:  # NaN (undefined) limits are not drawn
                figure.add_hline(y=value, line_dash="dash" if label != "mean difference" else "solid",
                                 annotation_text=f"{label} {value:.2f}")
    figure.update_layout(title="Step scores: judge minus reviewer (Bland-Altman)", height=400,
                         xaxis_title="mean of judge and reviewer", yaxis_title="judge - reviewer")
    return figure


def flagged_rows(result: Any) -> list[list[str]]:
    from core.review.model import FLAGS

    items = result.flagged if result is not None else []
    return [[f.question_id, f.reviewer, FLAGS.get(f.flag, f.flag), f.reason] for f in items]


def flagged_file(result: Any, session: str) -> str | None:
    from core.files import write_text_atomic
    from core.review.agreement import flagged_csv

    if result is None or not result.flagged:
        return None
    folder = Path(tempfile.gettempdir()) / "mathreel-reviews" / _safe(session or "local")
    return str(write_text_atomic(folder / "flagged_questions.csv", flagged_csv(result.flagged)))


# -- layout and wiring -------------------------------------------------------------------------------------------


@dataclass
class ReviewPanel:
    """What the Judge tab needs from the panel: `refresh` chains the panel's refill after an event that showed a
    question, and `walks` are the panel's events that choose another question (the tab renders it, then refresh)."""

    refresh: Callable[[Any], Any]
    walks: list[Any]


def _with_request(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give `fn`'s `request` parameter the real gr.Request annotation (annotations are strings here)."""
    import gradio as gr

    fn.__annotations__["request"] = gr.Request
    return fn


def _failure(message: str, n_outputs: int) -> tuple:
    """Outputs of a handler that failed: the error box shown (slot 0), everything else left as it is."""
    import gradio as gr

    from webapp.errors import warn

    warn(message)
    return (gr.update(value=error_box(message), visible=True), *[gr.skip()] * (n_outputs - 1))


def build_panel(context: AppContext, runs_state: Any, selection: Any,
                find: Callable[[Any, Any], Any]) -> ReviewPanel:
    """Lay out the review panel and the agreement view under the shown question, and wire them.

    `find(runs, selection)` is the Judge tab's run lookup (the shown run, the demo runs before any upload)."""
    import gradio as gr

    from core.review.model import FLAGS

    view_opts = {"concurrency_id": "judge-view", "concurrency_limit": context.settings.browse_concurrency}
    reviews = gr.State([])
    with gr.Accordion("Review this question", open=True, elem_id="review-box"):
        gr.Markdown(SHORTCUTS + " Reviews are kept in this browser session only: download the file to keep them.",
                    elem_id="review-help")
        with gr.Row():
            reviewer = gr.Textbox("reviewer", label="Reviewer name", elem_id="review-reviewer", scale=1)
            progress = gr.Markdown(elem_id="review-progress")
        status = gr.Markdown(elem_id="review-status")
        error = gr.Markdown("", visible=False, elem_id="review-error", elem_classes=["error-box"])
        with gr.Row():
            primary = gr.Dropdown([], label="Primary error category", elem_id="review-primary")
            secondary = gr.Dropdown([], multiselect=True, label="Secondary categories", elem_id="review-secondary")
            note = gr.Textbox(label="Note", elem_id="review-note")
        with gr.Row():
            score = gr.Number(label="Step score (0-10)", minimum=0, maximum=10, precision=0, elem_id="review-score")
            matched = gr.Number(label="Matched steps", minimum=0, precision=0, elem_id="review-matched")
            flag = gr.Dropdown([("Not flagged", NO_FLAG), *[(label, key) for key, label in FLAGS.items()]],
                               value=NO_FLAG, label="Flag the question", elem_id="review-flag")
            reason = gr.Textbox(label="Why it is flagged", elem_id="review-flag-reason")
        with gr.Row():
            accept = gr.Button("Accept the judge's verdict (a)", variant="primary", elem_id="review-accept")
            save = gr.Button("Save my changes (s)", elem_id="review-save")
            walk = gr.Button("Next unreviewed (n)", elem_id="review-next")
        with gr.Row():
            download = gr.DownloadButton("Download my reviews (JSONL)", value=None, elem_id="review-download")
            upload = gr.File(label="Upload a review file to continue", file_types=[".jsonl"], height=100,
                             elem_id="review-upload")
    with gr.Accordion("Agreement: judge vs people", open=False, elem_id="review-agreement-box"):
        agree = gr.Button("Compute agreement", elem_id="review-agree")
        summary = gr.Markdown(elem_id="review-agreement")
        with gr.Row():
            heat = gr.Plot(show_label=False, elem_id="review-heatmap")
            diffs = gr.Plot(show_label=False, elem_id="review-diffs")
        flagged = gr.Dataframe(headers=["Question", "Reviewer", "Flag", "Reason"], interactive=False, wrap=True,
                               label="Questions flagged as broken", elem_id="review-flagged")
        export = gr.DownloadButton("Export flagged questions (CSV)", value=None, elem_id="review-export")

    def shown(runs: Any, chosen: Any) -> tuple[Any, JudgeView | None, dict]:
        run = find(runs, chosen)
        views = run_views(run)
        qid = chosen.question_id if chosen.question_id in views else next(iter(views), None)
        return run, views.get(qid) if qid else None, views

    def fill(runs: Any, chosen: Any, held: list, name: str) -> tuple:
        from webapp.judge import error_categories

        run, view, views = shown(runs, chosen)
        if view is None:
            return ("", gr.update(choices=[], value=None), gr.update(choices=[], value=[]), "", None, None,
                    NO_FLAG, "", progress_text(views, held, name))
        mine = own_review(held, view, name)
        base = mine or view
        cats = list(error_categories(run.benchmark))
        judge = (f"Judge: primary **{view.primary or '(no error analysis)'}**, step score "
                 f"**{'—' if view.step_score is None else view.step_score}**. ")
        yours = (f"Your review: categories {mine.category_verdict or 'not reviewed'}, step score "
                 f"{mine.steps_verdict or 'not reviewed'}." if mine else "Not reviewed by you yet.")
        return (judge + yours,
                gr.update(choices=cats, value=base.primary, interactive=bool(view.primary)),
                gr.update(choices=cats, value=list(base.secondary), interactive=bool(view.primary)),
                mine.note if mine else "", base.step_score, base.matched,
                (mine.flag or NO_FLAG) if mine else NO_FLAG, mine.flag_reason if mine else "",
                progress_text(views, held, name))

    fill_inputs = [runs_state, selection, reviews, reviewer]
    fill_outputs = [status, primary, secondary, note, score, matched, flag, reason, progress]

    def refresh(event: Any) -> Any:
        return event.then(fill, fill_inputs, fill_outputs, **view_opts)

    def record(accept_it: bool) -> Callable[..., tuple]:
        @_with_request
        def handler(runs: Any, chosen: Any, held: list, name: str, first: str | None, others: list | None,
                    text: str, points: float | None, steps: float | None, why_flag: str, why: str,
                    request: Any = None) -> tuple:
            try:
                run, view, views = shown(runs, chosen)
                if view is None:
                    raise _error("no judged question is shown")
                review = make_review(view, run, name.strip(), accept=accept_it, primary=first,
                                     secondary=list(others or []), note=text or "", score=points, matched=steps,
                                     flag=why_flag or "", reason=why or "")
                updated = with_review(held, review)
                session = getattr(request, "session_hash", "") or ""
                keep_on_server(updated, session)
            except Exception as failure:  # shown in the panel; the session's reviews stay as they were
                return _failure(error_message(failure), 4)
            after = next_unreviewed(views, updated, review.reviewer, view.question_id) or view.question_id
            return (gr.update(visible=False), updated, type(chosen)(run.name, after),
                    session_file(updated, session))

        return handler

    def walk_next(runs: Any, chosen: Any, held: list, name: str) -> Any:
        run, view, views = shown(runs, chosen)
        after = next_unreviewed(views, held, name, view.question_id if view else None)
        return type(chosen)(run.name, after) if run is not None and after else gr.skip()

    @_with_request
    def take_upload(held: list, path: str | None, request: Any = None) -> tuple:
        if not path:
            return gr.skip(), gr.skip(), gr.skip()
        try:
            updated = uploaded(path, held)
        except Exception as failure:  # a bad file is one line; the session's reviews stay as they were
            return _failure(error_message(failure), 3)
        return gr.update(visible=False), updated, session_file(updated, getattr(request, "session_hash", ""))

    @_with_request
    def compute(runs: Any, chosen: Any, held: list, request: Any = None) -> tuple:
        result, source = agreement_for(find(runs, chosen), held)
        return (agreement_markdown(result, source), confusion_figure(result), steps_figure(result),
                flagged_rows(result), flagged_file(result, getattr(request, "session_hash", "")))

    edits = [runs_state, selection, reviews, reviewer, primary, secondary, note, score, matched, flag, reason]
    walks = [accept.click(record(True), edits, [error, reviews, selection, download], **view_opts),
             save.click(record(False), edits, [error, reviews, selection, download], **view_opts),
             walk.click(walk_next, fill_inputs, selection, **view_opts)]
    refresh(upload.upload(take_upload, [reviews, upload], [error, reviews, download], **view_opts))
    reviewer.blur(fill, fill_inputs, fill_outputs, **view_opts)
    agree.click(compute, [runs_state, selection, reviews], [summary, heat, diffs, flagged, export], **view_opts)
    return ReviewPanel(refresh, walks)


def _error(message: str) -> Exception:
    from core.errors import MathReelError

    return MathReelError(message)


__all__ = ["KEYS_JS", "ReviewPanel", "build_panel", "make_review", "next_unreviewed", "with_review"]
