"""Browse's event helpers, shared by the tab (webapp.browse) and its judge box (webapp.browse_review): the
components by name (`BrowseUI`), the view controls read as one ViewSettings, a page update cut to the outputs of
one event, and the second phase of a question switch (the rest of the page after the browser paints the frames).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from mathreel.core.view import ViewSettings

AFTER_PAINT = "() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))"  # resolves once drawn


class BrowseUI(SimpleNamespace):
    """Browse's components by name (set in `layout`), so wiring reads `ui.gallery` instead of a long argument list."""


def view_of(
    n: float,
    use_cot: bool,
    use_subs: bool,
    use_full: bool,
    interleave: bool = False,
    fps: float | None = 0.0,
    style: str | None = None,
) -> ViewSettings:
    """The view controls' values as one ViewSettings (all lines, or subtitles between the frames, imply subtitles;
    `fps` 0 or empty: the benchmark's own frame placement; `style` is the prompt choice: a style name, or
    "recorded": the file's prompt where it has one, else the default style; none given: the default style)."""
    from mathreel.core.view import ViewSettings

    rate = float(fps) if fps and float(fps) > 0 else None
    return ViewSettings(
        int(n), bool(use_cot), bool(use_subs), bool(use_full), bool(interleave), rate, style=style or "default"
    ).normalized()


def values_for(ui: BrowseUI, values: tuple | None, outputs: list[Any]) -> tuple:
    """The values of `outputs` out of a full page update (skips when there is no page)."""
    import gradio as gr

    if values is None:
        return tuple([gr.skip()] * len(outputs))
    return tuple(v for c, v in zip(ui.page_outputs, values, strict=True) if any(c is o for o in outputs))


def then_rest(event: Any, ui: BrowseUI, group: dict) -> Any:
    """After a first-phase switch: wait for the paint, show the rest of the page, and put the view in the URL."""
    page_inputs = [ui.state, ui.panels, *ui.read_inputs, *ui.view_inputs]
    return event.then(None, None, None, js=AFTER_PAINT).then(
        ui.select_rest, page_inputs, ui.rest_outputs, show_progress="hidden", **group
    )


def goto_handler(ui: BrowseUI, handlers: Any) -> Callable[..., tuple]:
    """A handler showing the question id in its first input (a box's "walk on" target) in the walked run, first
    phase only (`then_rest` shows the rest); nothing changes when there is no target or it is already shown."""

    def go(
        target: str | None,
        st: dict,
        shown: dict | None,
        runs_value: list,
        walk: dict,
        raw: bool,
        held: list,
        name: str,
        judge_runs: list | None,
        *view: Any,
    ) -> tuple:
        st = st or {}
        if not target or target == st.get("ref") or not st.get("key"):
            return values_for(ui, None, ui.first_outputs)
        page = handlers.show(st["key"], target, view_of(*view), shown, runs_value, walk, raw, held, name, judge_runs)
        return values_for(ui, page, ui.first_outputs)

    return go
