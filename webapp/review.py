"""Review panel of the Judge tab: a person accepts or changes the judge's error categories and step score, flags
a broken question, walks the unreviewed questions by keyboard, downloads and uploads the review file, and sees
how far the judge agrees with people.

The session's reviews and the handlers that make and save them are `webapp.review_state` (Browse's review box
shares them); the statistics are core's (`core.review`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mathreel.webapp import charts
from mathreel.webapp.context import AppContext, with_request
from mathreel.webapp.errors import error_message, error_outputs
from mathreel.webapp.review_box import ReviewControls, controls, panel_values, wire_files
from mathreel.webapp.review_state import (
    demo_reviews,
    flagged_file,
    next_unreviewed,
    review_session,
    run_views,
    saved,
    session_file,
    session_id,
)

if TYPE_CHECKING:
    from mathreel.core.review import Review
    from mathreel.core.review.join import JudgeView


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

    @with_request
    def handler(runs: Any, chosen: Any, held: list, name: str, first: str | None, others: list | None,
                text: str, points: float | None, steps: float | None, why_flag: str, why: str,
                request: Any = None) -> tuple:
        edits = (first, others, text, points, steps, why_flag, why)
        try:
            run, view, views = shown_question(find, runs, chosen)
            updated, review = saved(run, view, held, name, accept_it, edits, request)
        except Exception as failure:  # shown in the panel; the session's reviews stay as they were
            return error_outputs(error_message(failure), 4)
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
    agreement_view.click(with_request(_compute(find)), [runs_state, selection, session.reviews],
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


__all__ = ["ReviewPanel", "agreement_for", "build_panel"]
