"""Review panel of the Judge tab: a person accepts or changes the judge's error categories and step score, flags
a broken question, walks the unreviewed questions by keyboard, downloads and uploads the review file, and sees
how far the judge agrees with people.

The session's reviews and the handlers that make and save them are `webapp.review_state` (Browse's review box
shares them); the statistics are core's (`core.review`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.webapp import charts
from mathreel.webapp.context import AppContext
from mathreel.webapp.errors import error_box, error_message
from mathreel.webapp.judged_runs import error_categories
from mathreel.webapp.review_state import (
    demo_reviews,
    flagged_file,
    next_unreviewed,
    own_review,
    progress_text,
    review_session,
    run_views,
    saved,
    session_file,
    session_id,
    uploaded,
)

if TYPE_CHECKING:
    from mathreel.core.review import Review
    from mathreel.core.review.join import JudgeView

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


def flagged_rows(result: Any) -> list[list[str]]:
    from mathreel.core.review.model import FLAGS

    items = result.flagged if result is not None else []
    return [[f.question_id, f.reviewer, FLAGS.get(f.flag, f.flag), f.reason] for f in items]


# -- layout and wiring -------------------------------------------------------------------------------------------


@dataclass
class ReviewPanel:
    """What the Judge tab needs from the panel: `refresh` chains the panel's refill after an event that showed a
    question, and `walks` are the panel's events that choose another question (the tab renders it, then refresh)."""

    refresh: Callable[[Any], Any]
    walks: list[Any]


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
        return gr.update(visible=False), updated, session_file(updated, session_id(request))

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
                session_file(updated, session_id(request)))

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
        return (agreement_markdown(result, source), charts.confusion_figure(result), charts.steps_figure(result),
                flagged_rows(result), flagged_file(result, session_id(request)))

    return compute


__all__ = ["KEYS_JS", "ReviewControls", "ReviewPanel", "build_panel", "controls", "panel_values"]
