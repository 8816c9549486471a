"""Browse tab: a benchmark question the way the model gets it (video, sampled frames with their subtitle lines,
the exact prompt), with the options, annotated steps and metadata beside it, and a run's answers walked in a list.

This module builds the tab and wires the question page (row clicks, prompt settings, frame count, seeking); the
rest has a module each: the question table (browse_table), one question's contents (browse_page), the component
updates (browse_panels), the handlers (browse_handlers), the layout (browse_layout), the reading walk
(browse_walk), page load and the links other tabs use (browse_load), the page address (browse_address).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from mathreel.webapp.browse_audit import wire_audit
from mathreel.webapp.browse_events import BrowseUI, then_rest, values_for, view_of
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_layout import layout
from mathreel.webapp.browse_load import links, wire_load
from mathreel.webapp.browse_panels import PAGE_OUTPUTS, switch_stream
from mathreel.webapp.browse_review import wire_review
from mathreel.webapp.browse_table import wire_list
from mathreel.webapp.browse_walk import wire_reading, wire_run_choice
from mathreel.webapp.context import AppContext, TabSpec, progress_on, select_handler
from mathreel.webapp.errors import error_message, guarded, log, warn
from mathreel.webapp.review_state import review_session

# -- wiring -----------------------------------------------------------------------------------------------------


def build(context: AppContext) -> None:
    """Lay out the Browse tab, wire its events, and offer later tabs a typed link into it."""
    import gradio as gr

    ui = layout(context.settings)
    handlers = BrowseHandlers(context.datasets, context.settings.default_frames)
    runs = context.runs if context.runs is not None else gr.State([])
    ui.runs = runs
    session = review_session(context)
    group = {
        "concurrency_id": "browse",
        "concurrency_limit": context.settings.browse_concurrency,
        **progress_on(ui.gallery),
    }
    names = {"frames": "gallery", "cues": "cue_table"}
    ui.page_outputs = [getattr(ui, names.get(n, n)) for n in PAGE_OUTPUTS]
    ui.view_inputs = [ui.frames_n, ui.cot, ui.subs, ui.full_subs, ui.interleave, ui.fps, ui.style]
    ui.read_inputs = [runs, ui.walk, ui.raw, session.reviews, session.reviewer, session.judged]
    # A switch shows the frames (and where it is in the list) first; the rest after the browser paints them. The
    # answer goes with its question (response and the runs' columns beside the header): sent later, the previous
    # answer's verdict sat under the new question until the second phase came back (0.1-0.8 s, longer under load).
    first = [ui.error, ui.state, ui.header, ui.gallery, ui.position, ui.link, ui.response, ui.compare]
    ui.first_outputs = [c for c in ui.page_outputs if any(c is f for f in first)]  # values_for keeps this order
    ui.rest_outputs = [c for c in ui.page_outputs if all(c is not f for f in ui.first_outputs)]
    list_fn = ui.list_fn = wire_list(context, ui, handlers, group)
    _wire_page(context, ui, handlers, group)
    wire_reading(ui, handlers, runs, group)
    wire_load(context, ui, handlers, list_fn, group)
    wire_run_choice(ui, handlers, runs, group)
    wire_review(context, ui, handlers, runs, group)
    wire_audit(context, ui, handlers, runs, group)
    context.browse = links(ui, handlers, list_fn)


def _wire_page(context: AppContext, ui: BrowseUI, handlers: BrowseHandlers, group: dict) -> None:
    """Row clicks, prompt settings, frame count and seeking."""
    import gradio as gr

    def show_st(st: dict, shown: dict | None, *read_and_view: Any) -> tuple | None:
        if not (st or {}).get("ref"):
            return None
        runs, walk, raw, reviews, reviewer, judge_runs, *view = read_and_view
        return handlers.show(
            st["key"], st["ref"], view_of(*view), shown, runs, walk, raw, reviews, reviewer, judge_runs
        )

    @guarded(0, len(ui.page_outputs))
    def rerender(st: dict, shown: dict | None, *read_and_view: Any) -> tuple:
        return values_for(ui, show_st(st, shown, *read_and_view), ui.page_outputs)

    @select_handler
    def select_row(
        shown: dict | None,
        key: str,
        runs: list,
        walk: dict,
        raw: bool,
        reviews: list,
        reviewer: str,
        judge_runs: list | None,
        n: float,
        use_cot: bool,
        use_subs: bool,
        use_full: bool,
        interleave: bool,
        fps: float,
        style: str,
        evt: gr.SelectData,
    ) -> Iterator[tuple]:
        ref = str((evt.row_value or [""])[0])
        view = view_of(n, use_cot, use_subs, use_full, interleave, fps, style)
        media = handlers.preview_ref(key, ref, runs, walk, judge_runs)
        yield from switch_stream(
            ui,
            handlers,
            key,
            media,
            view,
            lambda: handlers.show(key, ref, view, shown, runs, walk, raw, reviews, reviewer, judge_runs),
        )

    def select_rest(st: dict, shown: dict | None, *read_and_view: Any) -> tuple:
        """The rest of the page for the question just shown (its frames are cached by now). A failure here
        leaves the page as it is and says so in a toast; the error box stays as it was."""
        try:
            return values_for(ui, show_st(st, shown, *read_and_view), ui.rest_outputs)
        except Exception as exc:  # the page must survive anything a handler meets
            log.exception("select_rest failed")
            warn(error_message(exc))
            return values_for(ui, None, ui.rest_outputs)

    page_inputs = [ui.state, ui.panels, *ui.read_inputs, *ui.view_inputs]
    ui.select_rest, ui.rerender = select_rest, rerender
    # No progress overlay, so the progressive gallery's previews are not covered (switch_stream).
    then_rest(
        ui.table.select(
            select_row,
            [ui.panels, ui.benchmark, *ui.read_inputs, *ui.view_inputs],
            ui.first_outputs,
            show_progress="hidden",
            **group,
        ),
        ui,
        group,
    )
    ui.subs.input(lambda on, full: full and on, [ui.subs, ui.full_subs], ui.full_subs, **group).then(
        rerender, page_inputs, ui.page_outputs, **group
    )
    ui.full_subs.input(lambda full, on: on or full, [ui.full_subs, ui.subs], ui.subs, **group).then(
        rerender, page_inputs, ui.page_outputs, **group
    )
    for control in (ui.cot, ui.raw, ui.interleave, ui.style):
        control.input(rerender, page_inputs, ui.page_outputs, **group)
    ui.fps.submit(rerender, page_inputs, ui.page_outputs, **group)
    ui.frames_n.release(rerender, page_inputs, ui.page_outputs, **group)
    ui.gallery.select(seek("frame_times"), [ui.state], [ui.video], **group)
    ui.cue_table.select(seek("cue_times"), [ui.state], [ui.video], **group)


def seek(times_key: str) -> Callable:
    """A select handler moving the video to the clicked frame's or subtitle line's time."""
    import gradio as gr

    @select_handler
    def handler(st: dict, evt: gr.SelectData) -> Any:
        index = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        times = (st or {}).get(times_key) or []
        if not isinstance(index, int) or not 0 <= index < len(times):
            return gr.skip()
        return gr.update(playback_position=float(times[index]))

    return handler


TAB = TabSpec(id="browse", label="Browse", build=build)
