"""Review panel of the Judge tab: a person accepts or changes the judge's error categories and step score, flags
a broken question, walks the unreviewed questions by keyboard, downloads and uploads the review file, and sees
how far the judge agrees with people.

Reviews live in a per-session `gr.State` (a list of core `Review`s), so one visitor's reviews never reach another
session. Only when the operator sets MATHREEL_REVIEWS_DIR are each session's reviews also written there (one file
per session and reviewer, at most 16 per session, never read back by another session: core.review.store). The
statistics are core's (`core.review`).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.webapp.context import AppContext
from mathreel.webapp.errors import error_box, error_message

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mathreel.core.review import Review
    from mathreel.core.review.join import JudgeView

REVIEWS_DIR_ENV = "MATHREEL_REVIEWS_DIR"
NO_FLAG = ""
SHORTCUTS = ("**Keyboard** (outside text boxes): **a** accept the judge's verdict and go to the next unreviewed "
             "question · **s** save your changes and go on · **n** next unreviewed question without saving.")
# Keys to buttons; ignored while typing in a field, and with Ctrl/Alt/Meta held.
KEYS_JS = """<script>
document.addEventListener('keydown', (event) => {
  const keys = {a: 'accept', s: 'save', n: 'next'};
  const target = event.target;
  if (event.ctrlKey || event.altKey || event.metaKey || !(event.key in keys)) return;
  if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
  for (const prefix of ['review', 'browse-review']) {  // the Judge tab's panel, Browse's: whichever is shown
    const element = document.getElementById(prefix + '-' + keys[event.key]);
    const button = element && (element.tagName === 'BUTTON' ? element : element.querySelector('button'));
    if (button && button.offsetParent !== null) { event.preventDefault(); button.click(); return; }
  }
});
</script>"""


# -- plain handlers (no gradio) ----------------------------------------------------------------------------------


def run_views(run: Any) -> dict[str, JudgeView]:
    """The judge's view of every question of a judged run (webapp.judge.JudgedRun), in run order."""
    from mathreel.core.review.join import judge_views

    return judge_views(run.judgments) if run is not None else {}


def own_review(reviews: list[Review], view: JudgeView, reviewer: str) -> Review | None:
    """This reviewer's review of exactly this judged response, if any."""
    from mathreel.core.review.walk import own_review as found

    return found(reviews, view, reviewer)


def next_unreviewed(views: dict[str, JudgeView], reviews: list[Review], reviewer: str,
                    current: str | None) -> str | None:
    """The first question after `current` (wrapping round) that this reviewer has not reviewed; None when done."""
    from mathreel.core.review.walk import next_after, unreviewed_ids

    order = list(views)
    return next_after(order, unreviewed_ids(order, views, reviews, reviewer), current)


def progress_text(views: dict[str, JudgeView], reviews: list[Review], reviewer: str) -> str:
    done = sum(own_review(reviews, view, reviewer) is not None for view in views.values())
    return f"Reviewed **{done} of {len(views)}** questions of this run, by *{reviewer}*."


def make_review(view: JudgeView, run: Any, reviewer: str, *, accept: bool, primary: str | None,
                secondary: list[str], note: str, score: float | None, matched: float | None, flag: str,
                reason: str) -> Review:
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
    from mathreel.core.review import merge_reviews

    return merge_reviews(reviews, [review])


def uploaded(path: str, reviews: list[Review]) -> list[Review]:
    """The session's reviews with an uploaded review file merged in (the file's records win); a bad file raises
    InputError naming it by its uploaded name, not the server's temporary path."""
    from mathreel.core.errors import InputError
    from mathreel.core.review import read_reviews

    try:
        return with_reviews(reviews, read_reviews(path))
    except InputError as error:
        raise InputError(Path(path).name, error.problem, error.record) from None


def with_reviews(reviews: list[Review], more: list[Review]) -> list[Review]:
    from mathreel.core.review import merge_reviews

    return merge_reviews(reviews, more)


def session_file(reviews: list[Review], session: str) -> str | None:
    """The session's review file for download (a file of its own, by session), or None with no reviews."""
    from mathreel.core.review import write_reviews

    if not reviews:
        return None
    folder = Path(tempfile.gettempdir()) / "mathreel-reviews" / _safe(session or "local")
    return str(write_reviews(folder / "mathreel_reviews.jsonl", reviews))


def keep_on_server(reviews: list[Review], session: str, active: str | None = None) -> None:
    """With MATHREEL_REVIEWS_DIR set: the session's reviews also go to the folder, one file per reviewer, bounded
    per session (core.review.store)."""
    from mathreel.core.review.store import keep_reviews

    folder = os.environ.get(REVIEWS_DIR_ENV, "").strip()
    if folder:
        keep_reviews(folder, session, reviews, active)


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


# -- agreement view ----------------------------------------------------------------------------------------------


def agreement_for(run: Any, reviews: list[Review]) -> tuple[Any, str]:
    """Agreement of the run's judge with the session's reviews, or with the demo set's synthetic reviews when the
    session has none for this run; and a line saying which."""
    from mathreel.core.review.agreement import agreement
    from mathreel.core.review.join import join

    if run is None:
        return None, "No run is shown."
    if join(run.judgments, reviews).pairs:
        return agreement(run.judgments, reviews), "Your reviews in this session."
    demo = demo_reviews(run)
    if demo:
        return agreement(run.judgments, demo), "No reviews of yours yet: the demo set's **synthetic** reviews."
    return None, "No reviews of this run yet."


def agreement_markdown(result: Any, source: str) -> str:
    from mathreel.core.review.agreement import summary_lines

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
    from mathreel.core.review.model import FLAGS

    items = result.flagged if result is not None else []
    return [[f.question_id, f.reviewer, FLAGS.get(f.flag, f.flag), f.reason] for f in items]


def flagged_file(result: Any, session: str) -> str | None:
    from mathreel.core.files import write_text_atomic
    from mathreel.core.review.agreement import flagged_csv

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


class ReviewControls(SimpleNamespace):
    """The review box's components by name (`controls` places them)."""


def controls(prefix: str = "review") -> ReviewControls:
    """The review box's fields and buttons, with element ids `<prefix>-...` (the keys a/s/n find either tab's)."""
    import gradio as gr

    from mathreel.core.review.model import FLAGS

    c = ReviewControls()
    gr.Markdown(SHORTCUTS + " Reviews are kept in this browser session only: download the file to keep them.",
                elem_id=f"{prefix}-help")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.reviewer = gr.Textbox("reviewer", label="Reviewer name", elem_id=f"{prefix}-reviewer", scale=1)
        c.progress = gr.Markdown(elem_id=f"{prefix}-progress")
    c.status = gr.Markdown(elem_id=f"{prefix}-status")
    c.error = gr.Markdown("", visible=False, elem_id=f"{prefix}-error", elem_classes=["error-box"])
    with gr.Row(elem_classes=["stack-narrow"]):
        c.primary = gr.Dropdown([], label="Primary error category", elem_id=f"{prefix}-primary")
        c.secondary = gr.Dropdown([], multiselect=True, label="Secondary categories", elem_id=f"{prefix}-secondary")
        c.note = gr.Textbox(label="Note", elem_id=f"{prefix}-note")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.score = gr.Number(label="Step score (0-10)", minimum=0, maximum=10, precision=0, elem_id=f"{prefix}-score")
        c.matched = gr.Number(label="Matched steps", minimum=0, precision=0, elem_id=f"{prefix}-matched")
        c.flag = gr.Dropdown([("Not flagged", NO_FLAG), *[(label, key) for key, label in FLAGS.items()]],
                             value=NO_FLAG, label="Flag the question", elem_id=f"{prefix}-flag")
        c.reason = gr.Textbox(label="Why it is flagged", elem_id=f"{prefix}-flag-reason")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.accept = gr.Button("Accept the judge's verdict (a)", variant="primary", elem_id=f"{prefix}-accept")
        c.save = gr.Button("Save my changes (s)", elem_id=f"{prefix}-save")
        c.walk = gr.Button("Next unreviewed (n)", elem_id=f"{prefix}-next")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.download = gr.DownloadButton("Download my reviews (JSONL)", value=None, elem_id=f"{prefix}-download")
        c.upload = gr.File(label="Upload a review file to continue", file_types=[".jsonl"], height=100,
                           elem_id=f"{prefix}-upload")
    c.fill_outputs = [c.status, c.primary, c.secondary, c.note, c.score, c.matched, c.flag, c.reason, c.progress,
                      c.reviewer]
    c.edits = [c.primary, c.secondary, c.note, c.score, c.matched, c.flag, c.reason]
    return c


def panel_values(run: Any, view: JudgeView | None, views: dict[str, JudgeView], held: list[Review],
                 name: str) -> tuple:
    """Values for ReviewControls.fill_outputs: the judge's verdicts, or this reviewer's review of them."""
    import gradio as gr

    from mathreel.webapp.judge import error_categories

    if view is None:
        return ("", gr.update(choices=[], value=None), gr.update(choices=[], value=[]), "", None, None,
                NO_FLAG, "", progress_text(views, held, name), name)
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
            progress_text(views, held, name), name)


def saved(run: Any, view: JudgeView | None, held: list[Review], name: str, accept_it: bool, edits: tuple,
          request: Any) -> tuple[list[Review], Review]:
    """The session's reviews with the shown question's review in place (also kept on the server when configured).
    `edits` are the values of ReviewControls.edits. Raises MathReelError with one line on bad input."""
    first, others, text, points, steps, why_flag, why = edits
    if view is None:
        raise _error("no judged question is shown")
    review = make_review(view, run, name.strip(), accept=accept_it, primary=first, secondary=list(others or []),
                         note=text or "", score=points, matched=steps, flag=why_flag or "", reason=why or "")
    updated = with_review(held, review)
    keep_on_server(updated, _session(request), review.reviewer)
    return updated, review


def _session(request: Any) -> str:
    return getattr(request, "session_hash", "") or ""


def wire_files(context: AppContext, c: ReviewControls, group: dict) -> None:
    """Upload (merged into the session's reviews), and the reviewer name kept in the shared state."""
    import gradio as gr

    session = review_session(context)

    @_with_request
    def take_upload(held: list, path: str | None, request: Any = None) -> tuple:
        if not path:
            return gr.skip(), gr.skip(), gr.skip()
        try:
            updated = uploaded(path, held)
        except Exception as failure:  # a bad file is one line; the session's reviews stay as they were
            return _failure(error_message(failure), 3)
        return gr.update(visible=False), updated, session_file(updated, _session(request))

    c.upload.upload(take_upload, [session.reviews, c.upload], [c.error, session.reviews, c.download], **group)
    c.reviewer.blur(lambda name: (name or "").strip() or "reviewer", c.reviewer, session.reviewer, **group)


def _with_request(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give `fn`'s `request` parameter the real gr.Request annotation (annotations are strings here)."""
    import gradio as gr

    fn.__annotations__["request"] = gr.Request
    return fn


def _failure(message: str, n_outputs: int) -> tuple:
    """Outputs of a handler that failed: the error box shown (slot 0), everything else left as it is."""
    import gradio as gr

    from mathreel.webapp.errors import warn

    warn(message)
    return (gr.update(value=error_box(message), visible=True), *[gr.skip()] * (n_outputs - 1))


def build_panel(context: AppContext, runs_state: Any, selection: Any,
                find: Callable[[Any, Any], Any]) -> ReviewPanel:
    """Lay out the review panel and the agreement view under the shown question, and wire them.

    `find(runs, selection)` is the Judge tab's run lookup (the shown run, the demo runs before any upload)."""
    c, agreement_view = _panel_layout(context)
    return _wire_panel(context, c, agreement_view, runs_state, selection, find)


def _panel_layout(context: AppContext) -> tuple[ReviewControls, Any]:
    """The review box and the agreement accordion (the shared review state exists before them)."""
    import gradio as gr

    review_session(context)
    with gr.Accordion("Review this question", open=True, elem_id="review-box"):
        c = controls("review")
    return c, _agreement_box()


def shown_question(find: Callable[[Any, Any], Any], runs: Any,
                   chosen: Any) -> tuple[Any, JudgeView | None, dict[str, JudgeView]]:
    """The shown run, the judge's view of the chosen question (the run's first when it has no such question) and
    of every question."""
    run = find(runs, chosen)
    views = run_views(run)
    qid = chosen.question_id if chosen.question_id in views else next(iter(views), None)
    return run, views.get(qid) if qid else None, views


def _fill(find: Callable[[Any, Any], Any]) -> Callable[..., tuple]:
    def fill(runs: Any, chosen: Any, held: list, name: str) -> tuple:
        return panel_values(*shown_question(find, runs, chosen), held, name)

    return fill


def _record(find: Callable[[Any, Any], Any], accept_it: bool) -> Callable[..., tuple]:
    """The accept (or save) handler: the review saved, then the selection moves to the next unreviewed question."""
    import gradio as gr

    @_with_request
    def handler(runs: Any, chosen: Any, held: list, name: str, first: str | None, others: list | None,
                text: str, points: float | None, steps: float | None, why_flag: str, why: str,
                request: Any = None) -> tuple:
        edits = (first, others, text, points, steps, why_flag, why)
        try:
            run, view, views = shown_question(find, runs, chosen)
            updated, review = saved(run, view, held, name, accept_it, edits, request)
        except Exception as failure:  # shown in the panel; the session's reviews stay as they were
            return _failure(error_message(failure), 4)
        after = next_unreviewed(views, updated, review.reviewer, view.question_id) or view.question_id
        return (gr.update(visible=False), updated, type(chosen)(run.name, after),
                session_file(updated, _session(request)))

    return handler


def _walk_next(find: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def walk_next(runs: Any, chosen: Any, held: list, name: str) -> Any:
        import gradio as gr

        run, view, views = shown_question(find, runs, chosen)
        after = next_unreviewed(views, held, name, view.question_id if view else None)
        return type(chosen)(run.name, after) if run is not None and after else gr.skip()

    return walk_next


def _wire_panel(context: AppContext, c: ReviewControls, agreement_view: Any, runs_state: Any, selection: Any,
                find: Callable[[Any, Any], Any]) -> ReviewPanel:
    """The panel's events: accept, save and walk on; files; refill on a change of the shared reviews; agreement."""
    view_opts = {"concurrency_id": "judge-view", "concurrency_limit": context.settings.browse_concurrency}
    session = review_session(context)
    fill = _fill(find)
    fill_inputs = [runs_state, selection, session.reviews, session.reviewer]

    def refresh(event: Any) -> Any:
        return event.then(fill, fill_inputs, c.fill_outputs, **view_opts)

    edits = [runs_state, selection, session.reviews, session.reviewer, *c.edits]
    saves = [c.error, session.reviews, selection, c.download]
    walks = [c.accept.click(_record(find, True), edits, saves, **view_opts),
             c.save.click(_record(find, False), edits, saves, **view_opts),
             c.walk.click(_walk_next(find), fill_inputs, selection, **view_opts)]
    wire_files(context, c, view_opts)
    # A review made in Browse (or an upload) changes the shared reviews: the panel shows it.
    session.reviews.change(fill, fill_inputs, c.fill_outputs, **view_opts)
    session.reviewer.change(fill, fill_inputs, c.fill_outputs, **view_opts)
    agreement_view.click(_with_request(_compute(find)), [runs_state, selection, session.reviews],
                         agreement_view.outputs, show_progress_on=agreement_view.outputs[:1], **view_opts)
    return ReviewPanel(refresh, walks)


def _agreement_box() -> Any:
    """The agreement accordion; returns its button with `.outputs` (summary, heatmap, differences, flagged, export)."""
    import gradio as gr

    with gr.Accordion("Agreement: judge vs people", open=False, elem_id="review-agreement-box"):
        agree = gr.Button("Compute agreement", elem_id="review-agree")
        summary = gr.Markdown(elem_id="review-agreement")
        with gr.Row(elem_classes=["stack-narrow"]):
            heat = gr.Plot(show_label=False, elem_id="review-heatmap")
            diffs = gr.Plot(show_label=False, elem_id="review-diffs")
        flagged = gr.Dataframe(headers=["Question", "Reviewer", "Flag", "Reason"], interactive=False, wrap=True,
                               label="Questions flagged as broken", elem_id="review-flagged")
        export = gr.DownloadButton("Export flagged questions (CSV)", value=None, elem_id="review-export")
    agree.outputs = [summary, heat, diffs, flagged, export]
    return agree


def _compute(find: Callable[[Any, Any], Any]) -> Callable[..., tuple]:
    def compute(runs: Any, chosen: Any, held: list, request: Any = None) -> tuple:
        result, source = agreement_for(find(runs, chosen), held)
        return (agreement_markdown(result, source), confusion_figure(result), steps_figure(result),
                flagged_rows(result), flagged_file(result, _session(request)))

    return compute


def _error(message: str) -> Exception:
    from mathreel.core.errors import MathReelError

    return MathReelError(message)


__all__ = ["KEYS_JS", "ReviewControls", "ReviewPanel", "ReviewSession", "build_panel", "controls", "make_review",
           "next_unreviewed", "panel_values", "review_session", "saved", "with_review"]
