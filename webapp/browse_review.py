"""Browse's judge card and review box: when the walked run's answer on the shown question was judged (matched by
response), the step card and error categories show under the response, with the review box (webapp.review_box),
so a reviewer can read, review and walk on (keys a, s, n) without leaving the reading flow.

The reviews are the session's shared `ReviewSession` state (webapp.review_state): a review made here shows in the
Judge tab and back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mathreel.webapp import reading_flow as rd
from mathreel.webapp.browse_events import BrowseUI, goto_handler, then_rest
from mathreel.webapp.context import progress_on, with_request
from mathreel.webapp.errors import error_message, error_outputs
from mathreel.webapp.judge_card import card_html, chips_html
from mathreel.webapp.review_box import controls, panel_values, wire_files
from mathreel.webapp.review_state import review_session, saved, session_file, session_id

if TYPE_CHECKING:
    from mathreel.core.review.join import JudgeView
    from mathreel.webapp.browse_handlers import BrowseHandlers
    from mathreel.webapp.judged_runs import JudgedRun


def judged_question(
    runs: list | None, walk_value: dict | None, ref: str, judge_runs: list | None = None
) -> tuple[Any, JudgedRun | None, JudgeView | None, dict[str, JudgeView]]:
    """The walked run, the judged run (of the session's `judge_runs`, None: the demo's) that judged its answers,
    the judge's view of `ref` and of every matched question (in the run's order)."""
    run = rd.run_named(runs, rd.Walk.of(walk_value).run)
    judged, views = rd.judged_of(run, judge_runs)
    return run, judged, views.get(ref), views


def judge_card(judged: JudgedRun | None, ref: str) -> tuple[str, str]:
    """The Judge tab's step card and error chips for `ref`, with element ids of Browse's own."""
    from mathreel.core.judge.views import by_question

    card = next((c for c in by_question(judged.judgments) if c.question_id == ref), None) if judged else None
    if card is None:
        return "", ""
    own = lambda text: text.replace("id='judge-", "id='browse-judge-")  # noqa: E731 - one page, unique ids
    return own(card_html(card)), own(chips_html(card))


def next_to_review(run: Any, views: dict[str, JudgeView], reviews: list, reviewer: str, ref: str) -> str | None:
    """The next judged answer of `run` after `ref` (file order, wrapping) this reviewer has not reviewed."""
    from mathreel.core.review.walk import next_after, unreviewed_ids

    order = [row.question_id for row in run.report.rows] if run is not None else []
    return next_after(order, unreviewed_ids(order, views, reviews, reviewer), ref)


def judge_box(ui: BrowseUI) -> None:
    """The judge card and review box (hidden until the shown answer has a judgment)."""
    import gradio as gr

    with gr.Group(visible=False, elem_id="browse-judge") as box:
        ui.judge_title = gr.Markdown("#### The judge on this answer", elem_id="browse-judge-title")
        with gr.Row(elem_classes=["stack-narrow"]):
            ui.judge_card = gr.HTML(elem_id="browse-judge-card-box")
            ui.judge_chips = gr.HTML(elem_id="browse-judge-chips")
        with gr.Accordion("Review the judge", open=True, elem_id="browse-review-box"):
            ui.review = controls("browse-review")
    ui.judge_box = box


def wire_review(context: Any, ui: BrowseUI, handlers: BrowseHandlers, runs: Any, group: dict) -> None:
    """Fill the box for each question shown and after each review; save, and walk on to the next unreviewed."""
    import gradio as gr

    session = review_session(context)
    c = ui.review
    opts = {
        "concurrency_id": "browse-review",
        "concurrency_limit": context.settings.browse_concurrency,
        **progress_on(ui.judge_card),
    }
    goto = gr.State(None)

    def fill(st: dict, runs_value: list, walk: dict, held: list, name: str, judge_runs: list | None) -> tuple:
        ref = str((st or {}).get("ref") or "")
        _, judged, view, views = judged_question(runs_value, walk, ref, judge_runs)
        if view is None:
            return (gr.update(visible=False), gr.skip(), gr.skip(), *[gr.skip()] * len(c.fill_outputs))
        return (gr.update(visible=True), *judge_card(judged, ref), *panel_values(judged, view, views, held, name))

    def record(accept_it: bool) -> Callable[..., tuple]:
        @with_request
        def handler(
            st: dict,
            runs_value: list,
            walk: dict,
            held: list,
            name: str,
            judge_runs: list | None,
            first: str | None,
            others: list | None,
            text: str,
            points: float | None,
            steps: float | None,
            why_flag: str,
            why: str,
            request: Any = None,
        ) -> tuple:
            ref = str((st or {}).get("ref") or "")
            try:
                run, judged, view, views = judged_question(runs_value, walk, ref, judge_runs)
                updated, review = saved(
                    judged, view, held, name, accept_it, (first, others, text, points, steps, why_flag, why), request
                )
            except Exception as failure:  # shown in the box; the session's reviews stay as they were
                return error_outputs(error_message(failure), 4)
            after = next_to_review(run, views, updated, review.reviewer, ref)
            return gr.update(visible=False), updated, after, session_file(updated, session_id(request))

        return handler

    def walk_next(st: dict, runs_value: list, walk: dict, held: list, name: str, judge_runs: list | None) -> str | None:
        ref = str((st or {}).get("ref") or "")
        run, _, _, views = judged_question(runs_value, walk, ref, judge_runs)
        return next_to_review(run, views, held, name, ref)

    go = goto_handler(ui, handlers)

    _connect(context, ui, session, runs, (fill, record, walk_next, go), goto, opts, group)


def _connect(
    context: Any, ui: BrowseUI, session: Any, runs: Any, handlers: tuple, goto: Any, opts: dict, group: dict
) -> None:
    """The review box's events: refill on every change, save (accept or changed) and walk on, files."""

    fill, record, walk_next, go = handlers
    c = ui.review
    fill_inputs = [ui.state, runs, ui.walk, session.reviews, session.reviewer, session.judged]
    fill_outputs = [ui.judge_box, ui.judge_card, ui.judge_chips, *c.fill_outputs]
    for source in (ui.settled, session.reviews, session.reviewer, session.judged):
        source.change(fill, fill_inputs, fill_outputs, show_progress="hidden", **opts)
    page_inputs = [ui.state, ui.panels, *ui.read_inputs, *ui.view_inputs]
    saves = [c.error, session.reviews, goto, c.download]
    for event in (
        c.accept.click(record(True), [*fill_inputs, *c.edits], saves, **opts),
        c.save.click(record(False), [*fill_inputs, *c.edits], saves, **opts),
        c.walk.click(walk_next, fill_inputs, goto, **opts),
    ):
        then_rest(event.then(go, [goto, *page_inputs], ui.first_outputs, show_progress="hidden", **group), ui, group)
    wire_files(context, c, opts)
