"""Ask tab: put the question chosen in Browse to any OpenAI-compatible model and see the reply stream in, then
the extracted answer and the verdict against the gold, latency, token usage and the exact request sent.

The work is in `webapp.ask_run` (plain Python over core); this module lays out the page and wires events.
The API key travels only through the click's inputs: it is never put in gr.State, in an output, in a log line or
in a file. Model text is shown in a read-only textbox and a plain-text table, never rendered as HTML.
"""

from __future__ import annotations

import logging
import os
import traceback
from types import SimpleNamespace
from typing import Any

from mathreel.core.client.endpoint import DEFAULT_KEY_ENV, default_model
from mathreel.webapp.ask_run import (
    ANSWER_HEADERS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT_S,
    EMPTY_STATE,
    AskOptions,
    AskRun,
    answer_rows,
    key_note,
    make_endpoint,
    prepare_answers,
    question_summary,
    request_views,
    response_text,
    run_ask,
    server_has_key,
    shown_base_url,
    status_markdown,
    target_questions,
    usage_markdown,
)
from mathreel.webapp.benchmark_keys import split_key
from mathreel.webapp.context import AppContext, TabSpec, progress_on
from mathreel.webapp.errors import error_box, error_message
from mathreel.webapp.shown_answer import style_choices

log = logging.getLogger("mathreel.webapp")

# Model calls wait on the network for seconds to minutes: they get their own concurrency group so they never
# hold up browsing, with the limit `Settings.ask_concurrency`.
DIRECT, COT = "direct", "cot"
HINT = "\n\n_Choose another question in Browse; set the model and the way it is asked below._"
FILE_ONLY = (
    "The answer shown in Browse is read from its result file: its question is not the server's question "
    "of that id, and its video and frames are not on this server, so it cannot be asked here as the "
    "benchmark asks it."
)


def mode_choices(key: str) -> list[tuple[str, str]]:
    """(label, mode key) of every mode of the benchmark in Browse's key, e.g. MCQ and multi-binary."""
    from mathreel.core.benchmarks import get_benchmark

    return [(m.label, m.key) for m in get_benchmark(split_key(key)[0]).modes]


class AskUI(SimpleNamespace):
    """The Ask tab's components by name (set in `layout`)."""

    @property
    def result_outputs(self) -> list[Any]:
        return [self.error, self.response, self.verdict, self.answers, self.usage]

    @property
    def request_outputs(self) -> list[Any]:
        return [self.pick, self.prompt, self.gallery, self.requests]

    @property
    def outputs(self) -> list[Any]:
        return [*self.result_outputs, *self.request_outputs]

    @property
    def inputs(self) -> list[Any]:
        return [
            self.base_url,
            self.model,
            self.key,
            self.temperature,
            self.max_tokens,
            self.timeout,
            self.mode,
            self.style,
            self.subs,
            self.frames_n,
            self.prompt_style,
        ]


def layout(settings: Any) -> AskUI:
    """Place the Ask tab: endpoint, how the question is asked, the reply and the exact request."""
    import gradio as gr

    ui = AskUI(requests=gr.State([]))  # per request: ref, prompt, saved image paths (never the key)
    gr.Markdown(
        "Ask a model the question chosen in **Browse**, exactly as the benchmark asks it: the same prompt, "
        "frames (or diagram) and subtitles `mathreel run` sends. The reply is read by the same extractor "
        "and scored by the same rule as `mathreel score`."
    )
    ui.header = gr.Markdown(EMPTY_STATE, elem_id="ask-question")
    with gr.Row():
        ui.base_url = gr.Textbox(
            shown_base_url(), label="Base URL", placeholder="http://localhost:8000/v1", elem_id="ask-base-url", scale=3
        )
        ui.model = gr.Textbox(
            default_model(), label="Model", placeholder="e.g. Qwen/Qwen2.5-VL-7B-Instruct", elem_id="ask-model", scale=2
        )
        ui.key = gr.Textbox(
            "",
            label="API key",
            type="password",
            elem_id="ask-key",
            scale=2,
            placeholder="using the server's key" if server_has_key() else "(none needed for vLLM)",
        )
    gr.Markdown(key_note(), elem_id="ask-key-note")
    with gr.Row():
        ui.temperature = gr.Slider(0, 2, value=0, step=0.05, label="Temperature", elem_id="ask-temperature")
        ui.max_tokens = gr.Number(
            DEFAULT_MAX_TOKENS, label="Max tokens", precision=0, minimum=1, elem_id="ask-max-tokens"
        )
        ui.timeout = gr.Number(DEFAULT_TIMEOUT_S, label="Timeout per attempt (s)", minimum=1, elem_id="ask-timeout")
    with gr.Row():
        ui.mode = gr.Radio([], label="Question format", visible=False, elem_id="ask-mode")
        ui.style = gr.Radio(
            [("Direct answer", DIRECT), ("Chain of thought", COT)], value=DIRECT, label="Prompt", elem_id="ask-style"
        )
        ui.prompt_style = gr.Dropdown(
            style_choices("videomathqa", recorded=False),
            value="default",
            label="Prompt style",
            elem_id="ask-prompt-style",
        )
        ui.subs = gr.Checkbox(label="Subtitles in prompt", elem_id="ask-subs")
        ui.frames_n = gr.Slider(
            1,
            settings.max_frames,
            value=settings.default_frames,
            step=1,
            label="Frames sampled (N)",
            elem_id="ask-frames-n",
        )
    ui.ask_button = gr.Button("Ask the model", variant="primary", elem_id="ask-button")
    _reply(ui)
    return ui


def _reply(ui: AskUI) -> None:
    """The reply, its reading and verdict, usage, and the exact request sent."""
    import gradio as gr

    ui.error = gr.Markdown("", visible=False, elem_id="ask-error", elem_classes=["error-box"])
    ui.response = gr.Textbox(
        label="Model response (streams in; shown as plain text)",
        lines=8,
        max_lines=30,
        interactive=False,
        elem_id="ask-response",
    )
    ui.verdict = gr.Markdown("", elem_id="ask-verdict")
    ui.answers = gr.Dataframe(
        headers=ANSWER_HEADERS,
        label="Extracted answer (core's extractor, as mathreel score reads it)",
        interactive=False,
        wrap=True,
        visible=False,
        elem_id="ask-answers",
        column_widths=["12%", "10%", "8%", "10%", "15%", "45%"],
    )
    ui.usage = gr.Markdown("", elem_id="ask-usage")
    with gr.Accordion("Exact request sent (prompt text and images)", open=False, elem_id="ask-request"):
        ui.pick = gr.Dropdown(
            [], label="Request (one per multi-binary pair)", visible=False, elem_id="ask-request-pick"
        )
        ui.prompt = gr.Textbox(
            label="Prompt text", lines=10, max_lines=40, interactive=False, buttons=["copy"], elem_id="ask-prompt"
        )
        ui.gallery = gr.Gallery(
            label="Images as sent (after resizing)",
            columns=4,
            height="fit-content",
            object_fit="contain",
            allow_preview=True,
            interactive=False,
            elem_id="ask-images",
            elem_classes=["frame-gallery"],
        )


class AskHandlers:
    """The Ask tab's event handlers: plain functions of their inputs, returning the outputs' updates."""

    def __init__(self, context: AppContext, cache_dir: str) -> None:
        self.datasets = context.datasets
        self.settings = context.settings
        self.cache_dir = cache_dir  # where request images are saved for the page (Gradio's cache)

    @staticmethod
    def cleared() -> list[Any]:
        import gradio as gr

        return [
            gr.update(value="", visible=False),
            "",
            "",
            gr.update(value=None, visible=False),
            "",
            gr.update(choices=[], value=None, visible=False),
            "",
            None,
            [],
        ]

    @staticmethod
    def failed(message: str) -> tuple:
        import gradio as gr

        updates: list[Any] = [gr.skip()] * _OUTPUTS
        updates[0] = gr.update(value=error_box(message), visible=True)
        return tuple(updates)

    def on_question(self, st: dict | None) -> tuple:
        """Browse chose another question: describe it, offer its benchmark's modes, clear the last answer."""
        import gradio as gr

        st = st or {}
        if not st.get("ref"):
            return (EMPTY_STATE, gr.update(visible=False), gr.skip(), gr.skip(), gr.skip(), gr.skip(), *self.cleared())
        if st.get("on_server") is False:  # the one rule: the server's question of that id is another question
            return (
                f"_{FILE_ONLY}_",
                gr.update(visible=False),
                gr.skip(),
                gr.skip(),
                gr.skip(),
                gr.skip(),
                *self.cleared(),
            )
        try:
            from mathreel.core.prompt_styles import prompt_choices

            shown_mode = split_key(st["key"])[1]
            choices = mode_choices(st["key"])
            prompts = prompt_choices(split_key(st["key"])[0])
            dataset, questions = target_questions(self.datasets, st["key"], st["ref"], shown_mode)
            has_video = questions[0].video_id is not None
            mode_update = gr.update(choices=choices, value=shown_mode, visible=len(choices) > 1)
            view = st.get("view") or {}  # what Browse shows: Ask asks the same way
            frames = int(view.get("num_frames") or self.settings.default_frames)
            styles = style_choices(prompts.benchmark, recorded=False)
            style = view.get("style") if view.get("style") in {v for _, v in styles} else prompts.default.name
            ways = [("Direct answer", DIRECT), *([("Chain of thought", COT)] if prompts.cot else [])]
            return (
                question_summary(dataset, questions) + HINT,
                mode_update,
                gr.update(
                    visible=has_video and prompts.subtitles,
                    value=bool(view.get("with_subtitles")) and prompts.subtitles,
                ),
                gr.update(visible=has_video, value=frames),
                gr.update(choices=ways, value=COT if view.get("cot") and prompts.cot else DIRECT),
                gr.update(choices=styles, value=style),
                *self.cleared(),
            )
        except Exception as err:  # a broken question must not break the tab
            return (
                error_box(error_message(err)),
                gr.update(visible=False),
                gr.skip(),
                gr.skip(),
                gr.skip(),
                gr.skip(),
                *self.cleared(),
            )

    def on_mode(self, st: dict | None, mode_key: str | None) -> Any:
        st = st or {}
        if not st.get("ref"):
            return EMPTY_STATE
        try:
            dataset, questions = target_questions(self.datasets, st["key"], st["ref"], mode_key)
            return question_summary(dataset, questions) + HINT
        except Exception as err:
            return error_box(error_message(err))

    def ask(
        self,
        st: dict | None,
        url: str,
        name: str,
        api_key: str,
        temp: float,
        tokens: float | None,
        timeout_s: float | None,
        mode_key: str | None,
        style_key: str,
        use_subs: bool,
        n: float,
        prompt_style: str | None = None,
    ) -> Any:
        """Stream one click: prepare the requests, show them, stream each reply, then the verdict."""
        import gradio as gr

        st = st or {}
        if st.get("on_server") is False:
            yield self.failed(FILE_ONLY)
            return
        try:
            endpoint = make_endpoint(
                url, name, api_key, temperature=temp, max_tokens=tokens, timeout_s=timeout_s or DEFAULT_TIMEOUT_S
            )
            dataset, questions = target_questions(self.datasets, st.get("key", ""), st.get("ref", ""), mode_key)
            view = st.get("view") or {}  # Browse's placement of subtitles and frames, asked the same way
            options = ask_options(
                dataset.benchmark,
                dataset.mode,
                style_key == COT,
                bool(use_subs),
                int(n or self.settings.default_frames),
                prompt_style,
                interleaved=bool(view.get("interleaved")),
                fps=view.get("fps") or None,
            )
            prepared = prepare_answers(dataset, questions, options)
            views = request_views(prepared, self.cache_dir)
        except Exception as err:
            yield self.failed(_reported(err, api_key))
            return
        first = views[0]
        waiting = status_markdown(AskRun(endpoint.describe(), prepared))
        yield (
            gr.update(value="", visible=False),
            "",
            waiting,
            gr.update(value=None, visible=False),
            "",
            gr.update(choices=[v["ref"] for v in views], value=first["ref"], visible=len(views) > 1),
            first["prompt"],
            first["images"],
            views,
        )
        try:
            for run in run_ask(endpoint, prepared):
                yield _run_updates(run, endpoint, _REQUEST_OUTPUTS)
        except Exception as err:  # a bug, not a model failure (those come back as run.error)
            yield self.failed(_reported(err, api_key))

    @staticmethod
    def choose_request(views: list[dict[str, Any]], ref: str | None) -> tuple:
        import gradio as gr

        chosen = next((v for v in views or [] if v["ref"] == ref), None)
        if chosen is None:
            return gr.skip(), gr.skip()
        return chosen["prompt"], chosen["images"]


_REQUEST_OUTPUTS = 4  # pick, prompt, gallery, requests (AskUI.request_outputs)
_OUTPUTS = 5 + _REQUEST_OUTPUTS  # AskUI.outputs


def build(context: AppContext) -> None:
    """Lay out the Ask tab and wire its events."""
    ui = layout(context.settings)
    handlers = AskHandlers(context, ui.gallery.GRADIO_CACHE)
    settings = context.settings
    browse = context.browse  # Browse's per-user state ({"key", "ref", ...}) is the question chosen there
    view_group = {
        "concurrency_id": "ask-view",
        "concurrency_limit": settings.browse_concurrency,
        **progress_on(ui.header),
    }
    ask_group = {"concurrency_id": "ask", "concurrency_limit": settings.ask_concurrency, **progress_on(ui.verdict)}
    ui.pick.input(handlers.choose_request, [ui.requests, ui.pick], [ui.prompt, ui.gallery], **view_group)
    if browse is None:  # no question can be chosen, so the mode radio never shows either
        ui.ask_button.click(
            lambda *_: handlers.failed("the Browse tab is needed to choose a question"), ui.inputs, ui.outputs
        )
        return
    # Follow the question once Browse's page has settled, so this tab's outputs are not sent while the new frames
    # are being painted.
    source = browse.state
    browse.settled.change(
        handlers.on_question,
        [source],
        [ui.header, ui.mode, ui.subs, ui.frames_n, ui.style, ui.prompt_style, *ui.outputs],
        **view_group,
    )
    ui.mode.input(handlers.on_mode, [source, ui.mode], ui.header, **view_group)
    ui.ask_button.click(handlers.ask, [source, *ui.inputs], ui.outputs, **ask_group)


def ask_options(
    benchmark: str,
    mode: str,
    cot: bool,
    subs: bool,
    frames: int,
    style: str | None,
    *,
    interleaved: bool = False,
    fps: float | None = None,
) -> AskOptions:
    """How the question is asked, cut to what the benchmark and style have: chain of thought only where the style
    takes it, subtitles only where the benchmark has them, a style it knows (one clear error otherwise)."""
    from mathreel.core.prompt_styles import prompt_choices

    choices = prompt_choices(benchmark)
    chosen = choices.style(style or choices.default.name)
    if cot and not chosen.cot:
        from mathreel.core.errors import MathReelError

        raise MathReelError(
            f"the {chosen.name} prompt of {benchmark} has no chain-of-thought form: choose Direct answer"
        )
    with_subtitles = subs and choices.subtitles
    return AskOptions(
        mode, cot, with_subtitles, frames, interleaved=interleaved and with_subtitles, fps=fps, style=chosen.name
    )


def _run_updates(run: AskRun, endpoint: Any, n_request_outputs: int) -> tuple:
    """Outputs for one streamed step: the text and status while streaming; table, usage or error at the end."""
    import gradio as gr

    if not run.finished:
        return (
            gr.skip(),
            response_text(run, endpoint),
            status_markdown(run),
            gr.skip(),
            gr.skip(),
            *([gr.skip()] * n_request_outputs),
        )
    error = gr.update(value=error_box(run.error), visible=True) if run.error else gr.skip()
    rows = answer_rows(run)
    return (
        error,
        response_text(run, endpoint),
        status_markdown(run),
        gr.update(value=rows, visible=bool(rows)),
        usage_markdown(run),
        *([gr.skip()] * n_request_outputs),
    )


def _reported(error: BaseException, api_key: str) -> str:
    """The page's line for a failure before or around the call; an unexpected one is logged, key blanked out."""
    from mathreel.core.errors import MathReelError

    def blank(text: str) -> str:
        for secret in ((api_key or "").strip(), os.environ.get(DEFAULT_KEY_ENV, "")):
            if secret:
                text = text.replace(secret, "[API key]")
        return text

    if not isinstance(error, MathReelError):
        log.error("ask failed: %s", blank("".join(traceback.format_exception(error))))
    return blank(error_message(error))


TAB = TabSpec(id="ask", label="Ask", build=build)

__all__ = ["TAB", "AskHandlers", "AskUI", "build", "layout", "mode_choices"]
