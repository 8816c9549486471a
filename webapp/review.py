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
    """What the Judge tab needs from the panel: `fill(runs, selection, reviews, reviewer)` -> values for
    `fill_outputs`, the panel for the question shown (the tab sets them in the event that shows a question)."""

    fill: Callable[..., tuple]
    fill_outputs: list[Any]


@dataclass
class QuestionView:
    """The Judge tab's view of a question, which a review that walks on sets in its own event (one event per key
    rather than a chain of them): `render(runs, selection, scored)` -> values for `outputs`; `then(event)` chains
    what follows it (the frames of a question not sampled yet); `scored`: the state of the visitor's scored runs,
    which the question is joined through (None: the view reads none)."""

    render: Callable[..., tuple]
    outputs: list[Any]
    then: Callable[[Any], Any]
    scored: Any = None

    @property
    def inputs(self) -> list[Any]:
        """What the view reads besides the judged runs and the selection."""
        return [] if self.scored is None else [self.scored]


@dataclass
class _AgreementView:
    """The agreement accordion's button and what it fills: summary, heatmap, differences, flagged, export."""

    button: Any
    outputs: list[Any]


def build_panel(
    context: AppContext, runs_state: Any, selection: Any, find: Callable[[Any, Any], Any], shown: QuestionView
) -> ReviewPanel:
    """Lay out the review panel and the agreement view under the shown question, and wire them.

    `find(runs, selection)` is the Judge tab's run lookup (the shown run, the demo runs before any upload); `shown`
    the tab's view of the next question, set by the same event that saves a review and walks on."""
    c, agreement_view = _panel_layout(context)
    return _wire_panel(context, c, agreement_view, (runs_state, selection), find, shown)


def _panel_layout(context: AppContext) -> tuple[ReviewControls, _AgreementView]:
    """The review box and the agreement accordion (the shared review state exists before them)."""
    import gradio as gr

    review_session(context)
    with gr.Accordion("Review this question", open=True, elem_id="review-box"):
        c = controls("review")
    return c, _agreement_box()


def shown_question(
    find: Callable[[Any, Any], Any], runs: Any, chosen: Any
) -> tuple[Any, JudgeView | None, dict[str, JudgeView]]:
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


def _record(
    find: Callable[[Any, Any], Any], accept_it: bool, shown: QuestionView, n_outputs: int
) -> Callable[..., tuple]:
    """The accept (or save) handler: the review saved, and the next unreviewed question shown with its panel, in
    one event."""
    import gradio as gr

    fill = _fill(find)

    @with_request
    def handler(
        runs: Any,
        chosen: Any,
        held: list,
        name: str,
        first: str | None,
        others: list | None,
        text: str,
        points: float | None,
        steps: float | None,
        why_flag: str,
        why: str,
        scored: Any = None,
        request: Any = None,
    ) -> tuple:
        edits = (first, others, text, points, steps, why_flag, why)
        try:
            run, view, views = shown_question(find, runs, chosen)
            updated, review = saved(run, view, held, name, accept_it, edits, request)
        except Exception as failure:  # shown in the panel; the session's reviews stay as they were
            return error_outputs(error_message(failure), n_outputs)
        after = type(chosen)(
            run.name, next_unreviewed(views, updated, review.reviewer, review.question_id) or review.question_id
        )
        return (
            gr.update(visible=False),
            updated,
            after,
            session_file(updated, session_id(request)),
            *fill(runs, after, updated, review.reviewer),
            *shown.render(runs, after, scored),
        )

    return handler


def _walk_next(find: Callable[[Any, Any], Any], shown: QuestionView, n_outputs: int) -> Callable[..., tuple]:
    """The walk-on handler: the next unreviewed question shown with its panel (nothing changes when none is left)."""
    import gradio as gr

    fill = _fill(find)

    def walk_next(runs: Any, chosen: Any, held: list, name: str, scored: Any = None) -> tuple:
        run, view, views = shown_question(find, runs, chosen)
        after = next_unreviewed(views, held, name, view.question_id if view else None)
        if run is None or not after:
            return (gr.skip(),) * n_outputs
        picked = type(chosen)(run.name, after)
        return picked, *fill(runs, picked, held, name), *shown.render(runs, picked, scored)

    return walk_next


def _wire_panel(
    context: AppContext,
    c: ReviewControls,
    agreement_view: _AgreementView,
    states: tuple[Any, Any],
    find: Callable[[Any, Any], Any],
    shown: QuestionView,
) -> ReviewPanel:
    """The panel's events: accept, save and walk on (each showing the next question itself); files; refill on a
    change of the shared reviews made elsewhere; agreement."""
    runs_state, selection = states
    view_opts = {"concurrency_id": "judge-view", "concurrency_limit": context.settings.browse_concurrency}
    session = review_session(context)
    fill = _fill(find)
    fill_inputs = [runs_state, selection, session.reviews, session.reviewer]
    edits = [runs_state, selection, session.reviews, session.reviewer, *c.edits, *shown.inputs]
    walked = [*c.fill_outputs, *shown.outputs]
    saves = [c.error, session.reviews, selection, c.download, *walked]
    for button, accept_it in ((c.accept, True), (c.save, False)):
        shown.then(
            button.click(_record(find, accept_it, shown, len(saves)), edits, saves, show_progress="hidden", **view_opts)
        )
    shown.then(
        c.walk.click(
            _walk_next(find, shown, 1 + len(walked)),
            [*fill_inputs, *shown.inputs],
            [selection, *walked],
            show_progress="hidden",
            **view_opts,
        )
    )
    wire_files(context, c, view_opts).then(fill, fill_inputs, c.fill_outputs, show_progress="hidden", **view_opts)
    # A review made in Browse changes the shared reviews: the panel shows it when the Judge tab is opened (a
    # listener on the reviews would run again after every review made here, beside the walk's own event).
    tab = (context.tab_items or {}).get("judge")
    if tab is not None:
        tab.select(fill, fill_inputs, c.fill_outputs, show_progress="hidden", **view_opts)
    session.reviewer.change(fill, fill_inputs, c.fill_outputs, **view_opts)
    agreement_view.button.click(
        with_request(_compute(find)),
        [runs_state, selection, session.reviews],
        agreement_view.outputs,
        show_progress_on=agreement_view.outputs[:1],
        **view_opts,
    )
    return ReviewPanel(fill, c.fill_outputs)


def _agreement_box() -> _AgreementView:
    """The agreement accordion, its button and what the button fills."""
    import gradio as gr

    with gr.Accordion("Agreement: judge vs people", open=False, elem_id="review-agreement-box"):
        agree = gr.Button("Compute agreement", elem_id="review-agree")
        summary = gr.Markdown(elem_id="review-agreement")
        with gr.Row(elem_classes=["stack-narrow"]):
            heat = gr.Plot(show_label=False, elem_id="review-heatmap")
            diffs = gr.Plot(show_label=False, elem_id="review-diffs")
        flagged = gr.Dataframe(
            headers=["Question", "Reviewer", "Flag", "Reason"],
            interactive=False,
            wrap=True,
            label="Questions flagged as broken",
            elem_id="review-flagged",
        )
        export = gr.DownloadButton("Export flagged questions (CSV)", value=None, elem_id="review-export")
    return _AgreementView(agree, [summary, heat, diffs, flagged, export])


def _compute(find: Callable[[Any, Any], Any]) -> Callable[..., tuple]:
    def compute(runs: Any, chosen: Any, held: list, request: Any = None) -> tuple:
        result, source = agreement_for(find(runs, chosen), held)
        return (
            agreement_markdown(result, source),
            charts.confusion_figure(result),
            charts.steps_figure(result),
            flagged_rows(result),
            flagged_file(result, session_id(request)),
        )

    return compute


__all__ = ["QuestionView", "ReviewPanel", "agreement_for", "build_panel"]
