"""Where Browse's components sit: the question list, the reading bar (run, list, position, previous/next), the
question and response, frames and subtitles, prompt, steps and metadata.
"""

from __future__ import annotations

from typing import Any

from mathreel.webapp.benchmark_keys import benchmark_choices
from mathreel.webapp.browse_audit import audit_box
from mathreel.webapp.browse_events import BrowseUI
from mathreel.webapp.browse_review import judge_box
from mathreel.webapp.browse_table import ALL, TABLE_LABEL, max_dimensions
from mathreel.webapp.reading_flow import LATEX, walk_filters
from mathreel.webapp.shown_answer import RECORDED, style_choices

# -- layout -----------------------------------------------------------------------------------------------------

# The address bar follows the hidden #browse-link box (the query string of the view shown): app.HEAD copies it.


def layout(settings: Any) -> BrowseUI:
    """Place Browse's components: list, reading bar, question and response, frames, prompt."""
    import gradio as gr

    ui = BrowseUI()
    choices = benchmark_choices()
    ui.state, ui.panels, ui.walk, ui.target = gr.State({}), gr.State(None), gr.State(None), gr.State({})
    # The question shown, set again once the rest of the page has followed a switch: what the review box and the
    # Ask tab follow, so their events start after the new frames are painted instead of competing with them.
    ui.settled = gr.State({})
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.benchmark = gr.Dropdown(
            choices=choices, value=choices[0][1], label="Benchmark", elem_id="browse-benchmark", scale=2
        )
        ui.search = gr.Textbox(
            label="Search (Enter)", placeholder="id, question or option text", elem_id="browse-search", scale=3
        )
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.dims = [
            gr.Dropdown(
                choices=[("All", ALL)], value=ALL, label=f"Filter {i + 1}", elem_id=f"browse-filter-{i}", visible=False
            )
            for i in range(max_dimensions())
        ]
    ui.table = gr.Dataframe(
        label=TABLE_LABEL,
        interactive=False,
        max_height=520,
        wrap=True,
        elem_id="browse-table",
        elem_classes=["resizable-table"],
    )
    ui.list_note = gr.Markdown("", elem_id="browse-list-note")
    ui.error = gr.Markdown("", visible=False, elem_id="browse-error", elem_classes=["error-box"])
    _reading_bar(ui)
    with gr.Row(elem_classes=["stack-narrow"]):
        # Hidden with nothing to show (an answer read from its file, a question without video or diagram), so the
        # question takes the row instead of sitting beside an empty player.
        with gr.Column(scale=3, elem_id="browse-media") as ui.media:
            ui.video = gr.Video(
                label="Video (with subtitle track)",
                show_label=False,
                interactive=False,
                elem_id="browse-video",
                height=380,
            )
            ui.diagram = gr.Image(
                label="Diagram", interactive=False, visible=False, elem_id="browse-diagram", height=380
            )
        with gr.Column(scale=2):
            ui.header = gr.Markdown("Choose a question in the table.", elem_id="browse-question")
            ui.pairs = gr.Dataframe(
                headers=["Pair", "Options", "Correct"],
                interactive=False,
                visible=False,
                label="Multi-binary pairs of this question",
                wrap=True,
                elem_id="browse-pairs",
            )
    ui.response = gr.Markdown(
        "",
        visible=False,
        elem_id="browse-response",
        latex_delimiters=LATEX,
        line_breaks=True,
        elem_classes=["response-panel"],
    )
    ui.compare = gr.HTML("", visible=False, elem_id="browse-compare")
    judge_box(ui)
    audit_box(ui)
    _frames_and_prompt(ui, settings)
    return ui


def _reading_bar(ui: BrowseUI) -> None:
    """Run, list and position of the reading flow, with previous/next (keys j and k)."""
    import gradio as gr

    with gr.Row(elem_id="browse-reading", elem_classes=["stack-narrow"]):
        ui.read_run = gr.Dropdown([], value=None, label="Responses of run", elem_id="browse-run", scale=2)
        ui.walk_status = gr.Dropdown(
            walk_filters(), value="not_correct", label="Walk through", elem_id="browse-walk", scale=1
        )
        with gr.Column(scale=1, min_width=160):
            ui.disagree = gr.Checkbox(label="Only where the runs disagree", elem_id="browse-disagree")
            ui.raw = gr.Checkbox(label="Raw text", elem_id="browse-raw")
        ui.prev = gr.Button("◀ Previous (k)", elem_id="browse-prev", scale=1, min_width=110)
        ui.next = gr.Button("Next (j) ▶", elem_id="browse-next", scale=1, min_width=110)
    ui.position = gr.Markdown("", elem_id="browse-position")
    ui.link = gr.Textbox("", visible="hidden", elem_id="browse-link")  # rendered, so the page has its value
    ui.saved_position = gr.Textbox("", visible=False)  # this browser's last position, read on load (POSITION_KEY)


def _frames_and_prompt(ui: BrowseUI, settings: Any) -> None:
    """Frame controls, gallery, subtitles, prompt, steps, metadata and MathVerse's versions."""
    import gradio as gr

    with gr.Row(elem_classes=["stack-narrow"]):
        ui.frames_n = gr.Slider(
            1,
            settings.max_frames,
            value=settings.default_frames,
            step=1,
            label="Frames sampled (N; Enter or release to apply)",
            elem_id="browse-frames-n",
            scale=2,
        )
        ui.cot = gr.Checkbox(label="Chain-of-thought prompt", elem_id="browse-cot")
        ui.subs = gr.Checkbox(label="Subtitles in prompt", elem_id="browse-subs")
        ui.full_subs = gr.Checkbox(label="All subtitle lines (implies subtitles)", elem_id="browse-full-subs")
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.interleave = gr.Checkbox(
            label="Subtitles between the frames (benchmarks that interleave them)", elem_id="browse-interleave"
        )
        ui.fps = gr.Number(
            0,
            minimum=0,
            maximum=30,
            step=0.5,
            label="Frames per second (0: N frames placed by the benchmark's own rule; else N is the most taken)",
            elem_id="browse-fps",
        )
    ui.settings_note = gr.Markdown("", elem_id="browse-settings-note")
    ui.gallery = gr.Gallery(
        label="Frames as the model gets them (click one to seek the video)",
        columns=4,
        height="fit-content",
        allow_preview=False,
        object_fit="contain",
        elem_id="browse-frames",
        elem_classes=["frame-gallery"],
        interactive=False,
    )
    ui.cue_table = gr.Dataframe(
        headers=["Start", "End", "Subtitle", "Frames"],
        interactive=False,
        max_height=260,
        label="Subtitles (click a line to seek)",
        wrap=True,
        elem_id="browse-subtitles",
    )
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.prompt = gr.Textbox(
            label="Prompt sent to the model",
            lines=12,
            max_lines=30,
            interactive=False,
            buttons=["copy"],
            elem_id="browse-prompt",
            scale=3,
        )
        with gr.Column(scale=2):
            ui.style = gr.Dropdown(
                style_choices(benchmark_choices()[0][1].partition(":")[0]),
                value=RECORDED,
                label="Prompt style",
                elem_id="browse-style",
            )
            ui.prompt_note = gr.Markdown("", elem_id="browse-prompt-note")
            ui.steps = gr.Markdown(label="Annotated steps", elem_id="browse-steps")
            ui.metadata = gr.Markdown(elem_id="browse-metadata")
    ui.versions = gr.Dataframe(
        headers=["Version", "ID", "Question as asked", "Answer"],
        interactive=False,
        label="The same problem in every version",
        visible=False,
        wrap=True,
        column_widths=["15%", "7%", "63%", "15%"],
        elem_id="browse-versions",
    )
    ui.version_images = gr.Gallery(
        label="Diagrams of the versions",
        columns=6,
        height="fit-content",
        visible=False,
        allow_preview=True,
        object_fit="contain",
        elem_id="browse-version-images",
        interactive=False,
    )
