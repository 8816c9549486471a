"""The reading walk's wiring: choosing the run and the list walked (the view follows the run's settings),
previous/next, and where choosing a run takes the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from mathreel.webapp import reading_flow as rd
from mathreel.webapp.benchmark_keys import benchmark_choices
from mathreel.webapp.browse_events import BrowseUI, then_rest, values_for, view_of
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_panels import switch_stream
from mathreel.webapp.errors import failed
from mathreel.webapp.reading_flow import Walk
from mathreel.webapp.shown_answer import RECORDED


def wire_reading(ui: BrowseUI, handlers: BrowseHandlers, runs: Any, group: dict) -> None:
    """The reading bar: run and list choice (the view follows the run), previous/next, and the run list."""
    import gradio as gr

    def stepper(delta: int) -> Callable:
        def step(
            st: dict,
            shown: dict | None,
            runs_value: list,
            walk: dict,
            raw: bool,
            reviews: list,
            reviewer: str,
            judge_runs: list | None,
            *view_values: Any,
        ) -> Iterator[tuple]:
            st, view = st or {}, view_of(*view_values)
            key = str(st.get("key") or "")
            try:
                target = handlers.step_target(st, runs_value, walk, delta, reviews, reviewer, judge_runs)
            except Exception as error:  # the page must survive anything a handler meets
                yield failed(step.__name__, error, 0, len(ui.first_outputs))
                return
            if target is not None and target == st.get("ref"):  # at an end of the list: say so, show it again not
                gr.Info(f"This is the {'last' if delta > 0 else 'first'} answer of the list.")
                yield values_for(ui, None, ui.first_outputs)
                return
            media = handlers.preview_ref(key, target, runs_value, walk, judge_runs)
            yield from switch_stream(
                ui,
                handlers,
                key,
                media,
                view,
                lambda: (
                    None
                    if target is None
                    else handlers.show(key, target, view, shown, runs_value, walk, raw, reviews, reviewer, judge_runs)
                ),
            )

        step.__name__ = "next_question" if delta > 0 else "previous_question"
        return step

    page_inputs = [ui.state, ui.panels, *ui.read_inputs, *ui.view_inputs]
    # A key pressed while the previous step is still finishing runs after it, not never (Gradio's default for a
    # click drops a submission made while its event is pending: a quick "j j" walked one answer).
    for button, delta in ((ui.next, 1), (ui.prev, -1)):
        step_event = button.click(
            stepper(delta), page_inputs, ui.first_outputs, show_progress="hidden", trigger_mode="always_last", **group
        )
        then_rest(step_event, ui, group)

    def set_walk(run: str | None, status: str, disagree: bool, walk: dict | None) -> dict:
        return {
            **Walk.of(walk).to_dict(),
            "run": run or "",
            "status": status,
            "disagree": bool(disagree),
            "judged": "",
            "ids": [],
            "listed": "",
        }

    walk_inputs = [ui.read_run, ui.walk_status, ui.disagree, ui.walk]
    ui.set_walk = set_walk
    for control in (ui.walk_status, ui.disagree):
        control.input(set_walk, walk_inputs, ui.walk, **group).then(ui.rerender, page_inputs, ui.page_outputs, **group)

    def run_choices(runs_value: list | None, walk: dict | None) -> Any:
        names = [r.name for r in runs_value or []]
        current = Walk.of(walk).run
        return gr.update(choices=[("(none)", ""), *((n, n) for n in names)], value=current if current in names else "")

    runs.change(run_choices, [runs, ui.walk], ui.read_run, **group)

    def list_choices(runs_value: list | None, walk: dict | None) -> Any:
        return gr.update(choices=rd.walk_choices(runs_value, walk))

    ui.walk.change(list_choices, [runs, ui.walk], ui.walk_status, show_progress="hidden", **group)


def run_place(runs: list | None, walk: dict | None, key: str, st: dict | None) -> tuple[str, dict]:
    """Where choosing a run in the reading bar takes Browse: the run's benchmark and the first answer of its walked
    list when Browse shows another benchmark (a Video-MME run chosen over the VideoMathQA demo showed a
    VideoMathQA question under the run's settings and a note to switch by hand), else the question shown."""
    run = rd.run_named(runs, Walk.of(walk).run)
    keys = {k for _, k in benchmark_choices()}
    if run is None or run.key == key or run.key not in keys:
        return key, {"ref": str((st or {}).get("ref") or "")}
    ids = rd.walk_ids(runs, Walk.of(walk), None, "reviewer", None)
    first = ids[0] if ids else (run.report.rows[0].question_id if run.report.rows else "")
    return run.key, {"ref": first}


def wire_run_choice(ui: BrowseUI, handlers: BrowseHandlers, runs: Any, group: dict) -> None:
    """Choosing a run in the reading bar: the walk, the run's benchmark (and its first answer) when Browse shows
    another, the run's view settings, the table of its questions, then the page."""
    import gradio as gr

    def place(runs_value: list | None, walk: dict | None, key: str, st: dict | None) -> tuple:
        new_key, target = run_place(runs_value, walk, key, st)
        return (gr.update(value=new_key) if new_key != key else gr.skip()), target

    walk_inputs = [ui.read_run, ui.walk_status, ui.disagree, ui.walk]
    ui.read_run.input(ui.set_walk, walk_inputs, ui.walk, **group).then(
        place, [runs, ui.walk, ui.benchmark, ui.state], [ui.benchmark, ui.target], **group
    ).then(follow_values(handlers), [runs, ui.walk], [*ui.view_inputs, ui.settings_note], **group).then(
        ui.list_fn, [ui.benchmark, ui.search, runs, ui.walk], ui.list_outputs, **group
    ).then(ui.first_question, ui.first_inputs, ui.page_outputs, **group)


def follow_values(handlers: BrowseHandlers) -> Callable:
    """A handler setting the view controls (frames, CoT, subtitles, all lines) and the note to the walked run's."""
    import gradio as gr

    def follow(runs: list | None, walk: dict | None) -> tuple:
        found = handlers.follow_run(runs, walk)
        if found is None:
            return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip(), ""
        used, note = found
        return (
            used.num_frames,
            used.cot,
            used.with_subtitles,
            used.full_subtitles,
            used.interleaved,
            used.fps or 0,
            RECORDED,
            note,
        )

    return follow
