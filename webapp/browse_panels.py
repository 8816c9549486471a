"""From a question's page to the component updates Browse sends (PAGE_OUTPUTS): which optional panels show,
skipping a control whose visibility does not change so the user's setting stays, and the prompt controls a
benchmark offers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mathreel.webapp.benchmark_keys import split_key
from mathreel.webapp.browse_events import BrowseUI, values_for
from mathreel.webapp.browse_page import QuestionPage
from mathreel.webapp.errors import failed
from mathreel.webapp.gallery_stream import previews
from mathreel.webapp.shown_answer import RECORDED, style_choices

if TYPE_CHECKING:
    from mathreel.core.view import ViewSettings
    from mathreel.webapp.browse_handlers import BrowseHandlers  # handlers import this module


# -- page updates -----------------------------------------------------------------------------------------------

# The outputs a question page sets, in the order page_updates returns their values.
PAGE_OUTPUTS = (
    "error",
    "state",
    "header",
    "video",
    "diagram",
    "frames",
    "cues",
    "prompt",
    "prompt_note",
    "steps",
    "metadata",
    "pairs",
    "versions",
    "version_images",
    "response",
    "frames_n",
    "subs",
    "full_subs",
    "interleave",
    "fps",
    "media",
    "panels",
    "position",
    "compare",
    "link",
    "settled",
)


@dataclass
class Reading:
    """What the reading flow adds to a question page: the response panel, the other runs, the position."""

    response: str = ""
    compare: str = ""
    position: str = ""
    pick: str | None = None
    link: str = ""  # the query string of a shared link to this view (benchmark, q, run)


def shown_panels(page: QuestionPage, response_md: str = "", compare: str = "") -> dict[str, Any]:
    """Which optional panels `page` shows (and its ref). Kept in a state of its own, so the next switch sends a
    panel's visibility only when it changes."""
    video = page.video_path is not None
    return {
        "video": video,
        "diagram": page.image_path is not None,
        "frames": bool(page.frames),
        "cues": bool(page.cue_rows),
        "pairs": page.pairs is not None,
        "versions": page.versions is not None,
        "version_images": bool(page.version_images),
        "response": bool(response_md),
        "compare": bool(compare),
        "video_controls": video,
        "media": video or page.image_path is not None,
        "ref": page.ref,
    }


def panel(value: Any, name: str, now: dict[str, Any], before: dict[str, Any] | None) -> Any:
    """One optional panel's output: the bare value while its visibility stays as it was, else value and visibility.

    Gradio 6.31 rebuilds a component and its config for every gr.update it is handed (gr.skip() included),
    a few milliseconds each on the server; a bare value is only postprocessed.
    """
    import gradio as gr

    if before is None or before.get(name) != now[name]:
        return gr.update(value=value, visible=now[name])
    return value


def interleaves(key: str) -> bool:
    """Whether benchmark `key` has a prompt with the subtitles between the frames ("Subtitles between the
    frames" shows only on its videos)."""
    from mathreel.core.benchmarks import get_benchmark

    return get_benchmark(split_key(key)[0]).interleaved_subtitles


def shown_or_skip(name: str, now: dict[str, Any], before: dict[str, Any] | None, **more: Any) -> Any:
    """A control's visibility (and `more`) when its flag changes, else a skip (the user's setting stays as it is).
    A flag is a bool, or a word where "shown" is visible."""
    import gradio as gr

    if before is not None and before.get(name) == now[name]:
        return gr.skip()
    return gr.update(visible=now[name] in (True, "shown"), **more)


def page_updates(
    page: QuestionPage, key: str, before: dict[str, Any] | None = None, reading: Reading | None = None
) -> tuple[Any, ...]:
    """Values for PAGE_OUTPUTS. `before`: the panel flags of what the page shows now (None: unknown, so every
    visibility is sent); the new flags are the last value but two. The same question shown again (other prompt
    settings) keeps the video where it is; another question clears the frame selection."""
    import gradio as gr

    reading = reading or Reading()
    now = shown_panels(page, reading.response, reading.compare)
    same_question = before is not None and before.get("ref") == page.ref
    new_state = {
        "key": key,
        "ref": page.ref,
        "frame_times": page.frame_times,
        "cue_times": page.cue_times,
        "on_server": page.on_server,
    }
    has_interleave = interleaves(key)
    now["interleave"] = ("shown" if now["video_controls"] else "hidden") if has_interleave else "none"
    controls = shown_or_skip("video_controls", now, before)
    # Unticked on a benchmark without it: a tick kept from Video-MME-v2 would still ask for it there.
    interleave = shown_or_skip("interleave", now, before, **({} if has_interleave else {"value": False}))
    video = (
        gr.skip()
        if same_question
        else gr.update(value=page.video_path, subtitles=page.subtitles, playback_position=0.0, visible=now["video"])
    )
    frames = panel(page.frames, "frames", now, before)
    if not same_question and page.frames:
        frames = gr.update(value=page.frames, selected_index=None, visible=True)
    return (
        gr.update(value="", visible=False),
        new_state,
        page.header,
        video,
        panel(page.image_path, "diagram", now, before),
        frames,
        panel(page.cue_rows, "cues", now, before),
        page.prompt,
        page.prompt_note,
        page.steps,
        page.metadata,
        panel(page.pairs, "pairs", now, before),
        panel(page.versions, "versions", now, before),
        panel(page.version_images, "version_images", now, before),
        panel(reading.response, "response", now, before),
        controls,
        controls,
        controls,
        interleave,
        controls,
        shown_or_skip("media", now, before),
        now,
        reading.position,
        panel(reading.compare, "compare", now, before),
        reading.link,
        new_state,
    )


def switch_stream(
    ui: BrowseUI,
    handlers: BrowseHandlers,
    key: str,
    ref: str | None,
    view: ViewSettings,
    page: Callable[[], tuple | None],
) -> Iterator[tuple]:
    """One switch event's outputs (`ui.first_outputs`): while a cold question's frames are decoded, gallery-only
    updates (nearest keyframes, then exact frames as they land; webapp/gallery_stream.py); then `page()`'s values.

    One generator event rather than a gallery event beside the switch: each extra queued event costs a click more
    than the rendering it does. A failure shows in the error box and leaves the page as it was.
    """
    import gradio as gr

    gallery = next(i for i, c in enumerate(ui.first_outputs) if c is ui.gallery)
    try:
        if ref and view.num_frames is not None:  # Browse's frame box always gives a count
            for items in previews(handlers.datasets, key, ref, view.num_frames):
                values: list[Any] = [gr.skip()] * len(ui.first_outputs)
                values[gallery] = gr.update(value=items, visible=True)
                yield tuple(values)
        yield values_for(ui, page(), ui.first_outputs)
    except Exception as error:  # the page must survive anything a handler meets
        yield failed("switch", error, 0, len(ui.first_outputs))


def prompt_controls(key: str, cot: bool, subs: bool, full: bool, style: str | None) -> tuple:
    """The prompt controls for benchmark `key`: chain of thought and subtitles enabled only where the benchmark has
    them (unticked where it has not), and its prompt styles (the choice kept when the benchmark has it)."""
    import gradio as gr

    from mathreel.core.prompt_styles import prompt_choices

    benchmark = split_key(key)[0]
    choices = prompt_choices(benchmark)
    styles = style_choices(benchmark)
    value = style if style in {v for _, v in styles} else RECORDED
    cot_label = "Chain-of-thought prompt" if choices.cot else "Chain-of-thought prompt (none for this benchmark)"
    subs_label = "Subtitles in prompt" if choices.subtitles else "Subtitles in prompt (none for this benchmark)"
    return (
        gr.update(interactive=choices.cot, value=bool(cot) and choices.cot, label=cot_label),
        gr.update(interactive=choices.subtitles, value=bool(subs) and choices.subtitles, label=subs_label),
        gr.update(interactive=choices.subtitles, value=bool(full) and choices.subtitles),
        gr.update(choices=styles, value=value),
    )
