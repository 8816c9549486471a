"""Browse on page load (the list, then the question a link names, or the browser's last position) and the
links other tabs use to open a question in Browse (BrowseLinks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from mathreel.webapp.benchmark_keys import benchmark_choices
from mathreel.webapp.browse_address import POSITION_KEY, saved_position, url_target, url_walk, with_notice
from mathreel.webapp.browse_events import BrowseUI, values_for, view_of
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_panels import prompt_controls
from mathreel.webapp.browse_walk import follow_values
from mathreel.webapp.context import AppContext, BrowseLinks, progress_on, with_request
from mathreel.webapp.errors import guarded
from mathreel.webapp.reading_flow import Walk
from mathreel.webapp.shown_answer import RECORDED


def wire_load(context: AppContext, ui: BrowseUI, handlers: BrowseHandlers, list_fn: Callable, group: dict) -> None:
    """On load (and benchmark change): the list, then the linked question (?benchmark=&q=&run=) or the first."""
    import gradio as gr

    keys = [key for _, key in benchmark_choices()]

    def from_url(saved: str | None, runs: list | None, request: gr.Request) -> tuple:
        """The view a link names (?benchmark=&q=&run=&walk=), else this browser's last one (kept for
        keep_days), with the reading bar set to its run and list."""
        params = dict(request.query_params) if request is not None else {}
        if not (params.get("benchmark") or params.get("q")):
            params = saved_position(saved, context.settings.keep_days, time.time())
        key, target = url_target(params, keys)
        walk = None if target.get("notice") else url_walk(params)
        names = [r.name for r in runs or []]
        run = gr.update(
            choices=[("(none)", ""), *((n, n) for n in names)], value=walk.run if walk and walk.run in names else ""
        )
        return (
            gr.update(value=key) if key else gr.skip(),
            target,
            walk.to_dict() if walk else None,
            run,
            walk.status if walk else gr.skip(),
            walk.disagree if walk else gr.skip(),
        )

    @guarded(0, len(ui.page_outputs))
    def first_question(
        key: str,
        n: float,
        use_cot: bool,
        use_subs: bool,
        use_full: bool,
        interleave: bool = False,
        fps: float = 0.0,
        style: str = RECORDED,
        target: dict | None = None,
        runs: list | None = None,
        walk: dict | None = None,
        raw: bool = False,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> tuple:
        """The linked question or the first one (API order: key and view settings first, as before links)."""
        ref = handlers.first_ref(key, (target or {}).get("ref"), runs, walk)
        if ref is None:
            return with_notice(values_for(ui, None, ui.page_outputs), target)
        shown = handlers.show(
            key,
            ref,
            view_of(n, use_cot, use_subs, use_full, interleave, fps, style),
            None,
            runs,
            walk,
            raw,
            reviews,
            reviewer,
            judge_runs,
        )
        return with_notice(shown, target)

    with_request(from_url)
    inputs = [ui.benchmark, *ui.view_inputs, ui.target, *ui.read_inputs]
    ui.first_question, ui.first_inputs = first_question, inputs
    listed = {**group, **progress_on(ui.list_note)}
    controls = [ui.cot, ui.subs, ui.full_subs, ui.style]
    ui.benchmark.change(prompt_controls, [ui.benchmark, *controls], controls, **group)
    ui.benchmark.input(lambda: {}, None, ui.target).then(
        list_fn, [ui.benchmark, ui.search, ui.runs, ui.walk], ui.list_outputs, **listed
    ).then(first_question, inputs, ui.page_outputs, **group)
    if context.app_load is not None:
        runs = ui.read_inputs[0]
        context.app_load(
            from_url,
            [ui.saved_position, runs],
            [ui.benchmark, ui.target, ui.walk, ui.read_run, ui.walk_status, ui.disagree],
            js=f"(saved, runs) => [localStorage.getItem('{POSITION_KEY}'), runs]",
            **group,
        ).then(follow_values(handlers), [runs, ui.walk], [*ui.view_inputs, ui.settings_note], **group).then(
            list_fn, [ui.benchmark, ui.search, ui.runs, ui.walk], ui.list_outputs, **listed
        ).then(first_question, inputs, ui.page_outputs, **group)


def links(ui: BrowseUI, handlers: BrowseHandlers, list_fn: Callable) -> BrowseLinks:
    """What other tabs may use: open a question with the walked run's response, follow its settings."""
    import gradio as gr

    @guarded(0, len(ui.page_outputs))
    def open_question(
        target: dict | None,
        runs: list,
        walk: dict,
        raw: bool,
        reviews: list,
        reviewer: str,
        judge_runs: list | None,
        *view: Any,
    ) -> tuple:
        if not target or not target.get("ref"):
            return values_for(ui, None, ui.page_outputs)
        return handlers.show(
            target["key"], target["ref"], view_of(*view), None, runs, walk, raw, reviews, reviewer, judge_runs
        )

    def walk_controls(walk: dict | None) -> tuple:
        w = Walk.of(walk)
        return gr.update(value=w.run), w.status, w.disagree

    follow = follow_values(handlers)
    n_view = len(ui.view_inputs)
    # open's outputs win where they meet follow's (frames, subtitles), as when open ran after follow
    followed = [c for c in [*ui.view_inputs, ui.settings_note] if all(c is not p for p in ui.page_outputs)]

    def jump(
        target: dict, walk: dict, runs: list, raw: bool, reviews: list, reviewer: str, judged: Any, *view: Any
    ) -> tuple:
        """walk_controls, follow and open in one handler: the walked run's settings, then its question."""
        settings = follow(runs, walk)
        used = view if handlers.follow_run(runs, walk) is None else settings  # no settings of its own: keep the view
        page = open_question(target, runs, walk, raw, reviews, reviewer, judged, *used[:n_view])
        by_output = dict(zip(map(id, [*ui.view_inputs, ui.settings_note]), settings, strict=True))
        return (*walk_controls(walk), *(by_output[id(c)] for c in followed), *page)

    return BrowseLinks(
        open=open_question,
        open_inputs=[*ui.read_inputs[1:], *ui.view_inputs],
        outputs=ui.page_outputs,
        follow=follow_values(handlers),
        follow_outputs=[*ui.view_inputs, ui.settings_note],
        walk_controls=walk_controls,
        walk_outputs=[ui.read_run, ui.walk_status, ui.disagree],
        state=ui.state,
        settled=ui.settled,
        benchmark=ui.benchmark,
        walk=ui.walk,
        refresh_list=(list_fn, [ui.benchmark, ui.search, ui.runs, ui.walk], ui.list_outputs),
        progress=progress_on(ui.gallery),
        list_progress=progress_on(ui.list_note),
        jump=jump,
        jump_inputs=[*ui.read_inputs[2:], *ui.view_inputs],
        jump_outputs=[ui.read_run, ui.walk_status, ui.disagree, *followed, *ui.page_outputs],
    )
