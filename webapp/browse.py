"""Browse tab: a benchmark question the way the model gets it (video, sampled frames with their subtitle lines,
the exact prompt), with the options, annotated steps and metadata beside it.

Everything shown comes from core: `load_dataset`/`Dataset.filter` for the table, `build_view` for frames, cues and
prompt, `pairs_of` for multi-binary. The pure functions here only shape core's objects into table rows and text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from webapp.context import AppContext, TabSpec, select_handler
from webapp.errors import error_message, guarded, log, warn
from webapp.gallery_stream import stream_gallery
from webapp.present import seconds_text

if TYPE_CHECKING:
    import pandas as pd

    from core.benchmarks import Benchmark
    from core.data import Dataset
    from core.question import Question
    from core.view import ModelView

ALL = ""  # the "no filter" value of a dimension dropdown
QUESTION_PREVIEW = 110  # characters of the question shown in the table
AFTER_PAINT = "() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))"  # resolves once drawn


# -- choices and keys -------------------------------------------------------------------------------------------


def benchmark_choices() -> list[tuple[str, str]]:
    """(label, "benchmark:mode") for every benchmark mode core knows, e.g. ("Video-MME", "videomme:mcq")."""
    from core.benchmarks import BENCHMARKS

    choices = []
    for bench in BENCHMARKS.values():
        for mode in bench.modes:
            label = bench.title if len(bench.modes) == 1 else f"{bench.title} — {mode.label}"
            choices.append((label, f"{bench.name}:{mode.key}"))
    return choices


def split_key(key: str) -> tuple[str, str]:
    """"videomathqa:mbin" -> ("videomathqa", "mbin")."""
    benchmark, _, mode = key.partition(":")
    return benchmark, mode


def max_dimensions() -> int:
    """How many filter dropdowns the page needs: the most dimensions any benchmark has."""
    from core.benchmarks import BENCHMARKS

    return max(len(b.dimensions) for b in BENCHMARKS.values())


# -- the question table -----------------------------------------------------------------------------------------


def filter_specs(dataset: Dataset) -> list[tuple[str, str, list[str]]]:
    """(key, label, values present) for each dimension of the set, in the benchmark's order."""
    bench = dataset.bench
    return [(key, bench.dimension(key).label, dataset.values(key)) for key in dataset.dimension_keys()]


def question_table(dataset: Dataset, text: str = "", filters: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per question matching the search text and dimension filters: ID, question, dimensions, answer."""
    import pandas as pd

    wanted = {k: v for k, v in (filters or {}).items() if v != ALL}
    specs = filter_specs(dataset)
    rows = []
    for q in dataset.filter(text or None, **wanted):
        preview = q.question or str(q.extra.get("question_for_eval") or "")
        if len(preview) > QUESTION_PREVIEW:
            preview = preview[: QUESTION_PREVIEW - 1] + "…"
        row = {"ID": dataset.ref(q), "Question": preview.replace("\n", " ")}
        row.update({label: q.dims.get(key, "") for key, label, _ in specs})
        row["Answer"] = q.answer
        rows.append(row)
    columns = ["ID", "Question", *(label for _, label, _ in specs), "Answer"]
    return pd.DataFrame(rows, columns=columns)


def table_widths(frame: pd.DataFrame) -> list[str]:
    """Column widths for the question table: a narrow ID, a wide question, the rest shared."""
    rest = len(frame.columns) - 2
    share = f"{45 / max(rest, 1):.1f}%"
    return ["10%", "45%", *([share] * rest)]


# -- one question -----------------------------------------------------------------------------------------------


@dataclass
class ViewOptions:
    """What the user chose for how the model is asked."""

    num_frames: int = 8
    cot: bool = False
    with_subtitles: bool = False
    full_subtitles: bool = False


@dataclass
class QuestionPage:
    """Plain values for every panel of one question, built from core's ModelView."""

    ref: str
    header: str
    prompt: str
    steps: str
    metadata: str
    video_path: str | None = None
    subtitles: list[dict[str, Any]] | None = None
    frames: list[tuple[str, str]] = field(default_factory=list)
    frame_times: list[float] = field(default_factory=list)
    cue_rows: list[list[str]] = field(default_factory=list)
    cue_times: list[float] = field(default_factory=list)
    pairs: list[list[str]] | None = None
    image_path: str | None = None
    versions: list[list[str]] | None = None
    version_images: list[tuple[str, str]] = field(default_factory=list)


def render_question(dataset: Dataset, ref: str, options: ViewOptions) -> QuestionPage:
    """Everything the Browse panels show for question `ref`, from one `build_view` call."""
    from core.view import build_view

    question = dataset.question(ref)
    view = build_view(
        dataset,
        question,
        num_frames=options.num_frames,
        cot=options.cot,
        with_subtitles=options.with_subtitles,
        full_subtitles=options.full_subtitles,
    )
    bench = dataset.bench
    page = QuestionPage(
        ref=view.ref,
        header=question_markdown(question, bench),
        prompt=view.prompt,
        steps=steps_markdown(question),
        metadata=metadata_markdown(question, view, bench),
        video_path=str(view.video_path) if view.video_path else None,
        image_path=str(view.image_path) if view.image_path else None,
    )
    _attach_frames(page, view)
    if bench.mode(dataset.mode).grouped:
        page.pairs = pairs_rows(dataset, question)
    if question.extra.get("problem_index"):
        page.versions, page.version_images = version_rows(dataset, question)
    return page


def _attach_frames(page: QuestionPage, view: ModelView) -> None:
    """Gallery items captioned with frame index, time and the aligned subtitle lines; the cue table."""
    if view.cues:
        page.subtitles = [{"text": c.text, "timestamp": [float(c.start), float(c.end)]} for c in view.cues]
    frames = view.frames
    if frames is not None:
        page.frame_times = [float(t) for t in frames.times]
        page.frames = [
            (str(path), frame_caption(int(index), float(time), [c.text for c in cues]))
            for path, index, time, cues in zip(
                frames.paths, frames.indices, frames.times, view.frame_cues or [[]] * len(frames), strict=True
            )
        ]
    aligned = _frames_per_cue(view)
    page.cue_rows = [
        [seconds_text(float(c.start)), seconds_text(float(c.end)), c.text, aligned.get(i, "")]
        for i, c in enumerate(view.cues)
    ]
    page.cue_times = [float(c.start) for c in view.cues]


def _frames_per_cue(view: ModelView) -> dict[int, str]:
    """Cue position -> "#3, #4": which sampled frames a cue is aligned to (identity match on core's cues)."""
    positions = {id(c): i for i, c in enumerate(view.cues)}
    found: dict[int, list[str]] = {}
    for number, cues in enumerate(view.frame_cues, start=1):
        for cue in cues:
            if id(cue) in positions:
                found.setdefault(positions[id(cue)], []).append(f"#{number}")
    return {i: ", ".join(names) for i, names in found.items()}


def frame_caption(index: int, time: float, lines: list[str]) -> str:
    """"frame 120 · 0:04.0" then the subtitle lines at that moment (or a note that there are none)."""
    text = " / ".join(lines) if lines else "(no subtitle at this moment)"
    return f"frame {index} · {seconds_text(time)}\n{text}"


def question_markdown(question: Question, bench: Benchmark) -> str:
    """Question text and options, the correct one marked (or the gold value for free-form)."""
    text = question.question or str(question.extra.get("question_for_eval") or "")
    lines = [f"### {bench.title} · {question.question_id}", "", text, ""]
    if question.options and question.answer_kind == "choice":
        for letter, option in question.option_texts.items():
            if letter == question.answer:
                lines.append(f"- ✓ **{letter}. {option}** — correct answer")
            else:
                lines.append(f"- {letter}. {option}")
    else:
        lines.append(f"**Answer:** {question.answer}")
    return "\n".join(lines)


def steps_markdown(question: Question) -> str:
    """The annotated solution steps as a numbered list."""
    if not question.steps:
        return "#### Annotated steps\n_No annotated solution steps for this question._"
    return "#### Annotated steps\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(question.steps, start=1))


def metadata_markdown(question: Question, view: ModelView, bench: Benchmark) -> str:
    """A two-column table of the question's dimensions, video facts and extra annotations."""
    rows = [(bench.dimension(key).label, value) for key, value in question.dims.items()]
    if question.video_id:
        rows.append(("Video", question.video_id))
    frames = view.frames
    if frames is not None:
        rows.append(("Video length", f"{seconds_text(float(frames.duration))} ({frames.total_frames} frames, "
                                     f"{float(frames.fps):.2f} fps)"))
    if question.video_id:
        rows.append(("Subtitles", view.subtitle_path.name if view.subtitle_path else "none for this video"))
    for key in ("difficulty", "reasoning_type", "problem_index", "url"):
        value = question.extra.get(key)
        if value and key not in question.dims:
            rows.append((key.replace("_", " ").capitalize(), str(value)))
    rows.extend(("Note", note) for note in view.notes)
    body = "\n".join(f"| {label} | {_cell(value)} |" for label, value in rows)
    return "| Field | Value |\n|---|---|\n" + body


def _cell(value: str) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def pairs_rows(dataset: Dataset, question: Question) -> list[list[str]]:
    """Multi-binary: each pair of the question with its two options and its correct letter."""
    from core.view import pairs_of

    rows = []
    for pair in pairs_of(dataset, question.group_id):
        options = "  /  ".join(f"{letter}. {text}" for letter, text in pair.option_texts.items())
        rows.append([dataset.ref(pair), options, pair.answer])
    return rows


def version_rows(dataset: Dataset, question: Question) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """Every version of the same problem (MathVerse's five), as the benchmark lists them."""
    rows, images = [], []
    for version, q in dataset.bench.versions_of(question, dataset.questions):
        rows.append([version, dataset.ref(q), str(q.extra.get("question_for_eval") or q.question), q.answer])
        image = dataset.image_path(q)
        if image is not None:
            images.append((str(image), version))
    return rows, images


def response_markdown(row: dict[str, Any] | None, run_name: str = "") -> str:
    """A scored row from the Score tab: the model's response, the extracted answer and the gold, side by side."""
    if not row:
        return ""
    extracted = row.get("extracted") or "— (unparsed)"
    lines = [
        f"### Model response{f' · {run_name}' if run_name else ''}",
        "",
        "| Extracted | Gold | Status | Method |",
        "|---|---|---|---|",
        f"| **{_cell(extracted)}** | **{_cell(row.get('gold') or '')}** | {row.get('status', '')} "
        f"| {_cell(row.get('method') or '')} |",
        "",
    ]
    if row.get("explanation"):
        lines += [f"_Why:_ {row['explanation']}", ""]
    response = row.get("response") or ""
    lines += ["```text", response.replace("```", "ʼʼʼ") or "(empty response)", "```"]
    return "\n".join(lines)


# -- page updates -----------------------------------------------------------------------------------------------

# The outputs a question page sets, in the order page_updates returns their values.
PAGE_OUTPUTS = ("error", "state", "header", "video", "diagram", "frames", "cues", "prompt", "steps", "metadata",
                "pairs", "versions", "version_images", "response", "frames_n", "subs", "full_subs", "panels")


def shown_panels(page: QuestionPage, response_md: str = "") -> dict[str, bool]:
    """Which optional panels `page` shows. Kept in a state of its own, so the next switch sends a panel's
    visibility only when it changes."""
    video = page.video_path is not None
    return {"video": video, "diagram": page.image_path is not None, "frames": bool(page.frames),
            "cues": bool(page.cue_rows), "pairs": page.pairs is not None, "versions": page.versions is not None,
            "version_images": bool(page.version_images), "response": bool(response_md), "video_controls": video}


def panel(value: Any, name: str, now: dict[str, bool], before: dict[str, bool] | None) -> Any:
    """One optional panel's output: the bare value while its visibility stays as it was, else value and visibility.

    Gradio 6.31 rebuilds a component and its config for every gr.update it is handed (gr.skip() included),
    a few milliseconds each on the server; a bare value is only postprocessed.
    """
    import gradio as gr

    if before is None or before.get(name) != now[name]:
        return gr.update(value=value, visible=now[name])
    return value


def page_updates(page: QuestionPage, key: str, before: dict[str, bool] | None = None,
                 response_md: str = "") -> tuple[Any, ...]:
    """Values for PAGE_OUTPUTS. `before`: the panel flags of what the page shows now (None: unknown, so every
    visibility is sent); the new flags are the last value."""
    import gradio as gr

    now = shown_panels(page, response_md)
    new_state = {"key": key, "ref": page.ref, "frame_times": page.frame_times, "cue_times": page.cue_times}
    # Frame count and subtitle switches only mean something for a video question; their values are the user's.
    same = before is not None and before.get("video_controls") == now["video_controls"]
    controls = gr.skip() if same else gr.update(visible=now["video_controls"])
    return (
        gr.update(value="", visible=False),  # the error box, shared with the table's events
        new_state,
        page.header,
        # The subtitle track and start position are properties of the player, so it always takes an update.
        gr.update(value=page.video_path, subtitles=page.subtitles, playback_position=0.0, visible=now["video"]),
        panel(page.image_path, "diagram", now, before),
        panel(page.frames, "frames", now, before),
        panel(page.cue_rows, "cues", now, before),
        page.prompt,
        page.steps,
        page.metadata,
        panel(page.pairs, "pairs", now, before),
        panel(page.versions, "versions", now, before),
        panel(page.version_images, "version_images", now, before),
        panel(response_md, "response", now, before),
        controls,
        controls,
        controls,
        now,
    )


# -- the tab ----------------------------------------------------------------------------------------------------


def build(context: AppContext) -> None:
    """Lay out the Browse tab and wire its events (browse events share one generous concurrency group)."""
    import gradio as gr

    settings = context.settings
    n_slots = max_dimensions()
    choices = benchmark_choices()
    state = gr.State({})
    with gr.Row():
        benchmark = gr.Dropdown(choices=choices, value=choices[0][1], label="Benchmark", elem_id="browse-benchmark",
                                scale=2)
        search = gr.Textbox(label="Search", placeholder="id, question or option text", elem_id="browse-search",
                            scale=3)
    with gr.Row():
        dims = [gr.Dropdown(choices=[("All", ALL)], value=ALL, label=f"Filter {i + 1}", elem_id=f"browse-filter-{i}",
                            visible=False) for i in range(n_slots)]
    table = gr.Dataframe(label="Questions (click a row)", interactive=False, max_height=300, wrap=True,
                         elem_id="browse-table")
    error = gr.Markdown("", visible=False, elem_id="browse-error", elem_classes=["error-box"])
    with gr.Row():
        with gr.Column(scale=3):
            video = gr.Video(label="Video (with subtitle track)", show_label=False, interactive=False,
                             elem_id="browse-video", height=380)
            diagram = gr.Image(label="Diagram", interactive=False, visible=False, elem_id="browse-diagram",
                               height=380)
        with gr.Column(scale=2):
            header = gr.Markdown("Choose a question in the table.", elem_id="browse-question")
            pairs = gr.Dataframe(headers=["Pair", "Options", "Correct"], label="Multi-binary pairs of this question",
                                 interactive=False, visible=False, wrap=True, elem_id="browse-pairs")
            response = gr.Markdown("", visible=False, elem_id="browse-response")
    with gr.Row():
        frames_n = gr.Slider(1, settings.max_frames, value=settings.default_frames, step=1,
                             label="Frames sampled (N)", elem_id="browse-frames-n", scale=2)
        cot = gr.Checkbox(label="Chain-of-thought prompt", elem_id="browse-cot")
        subs = gr.Checkbox(label="Subtitles in prompt", elem_id="browse-subs")
        full_subs = gr.Checkbox(label="All subtitle lines", elem_id="browse-full-subs")
    gallery = gr.Gallery(label="Frames as the model gets them (click one to seek the video)", columns=4,
                         height="fit-content", allow_preview=False, object_fit="contain", elem_id="browse-frames",
                         elem_classes=["frame-gallery"], interactive=False)
    cue_table = gr.Dataframe(headers=["Start", "End", "Subtitle", "Frames"], label="Subtitles (click a line to seek)",
                             interactive=False, max_height=260, wrap=True, elem_id="browse-subtitles")
    with gr.Row():
        prompt = gr.Textbox(label="Prompt sent to the model", lines=12, max_lines=30, interactive=False,
                            buttons=["copy"], elem_id="browse-prompt", scale=3)
        with gr.Column(scale=2):
            steps = gr.Markdown(label="Annotated steps", elem_id="browse-steps")
            metadata = gr.Markdown(elem_id="browse-metadata")
    versions = gr.Dataframe(headers=["Version", "ID", "Question as asked", "Answer"],
                            label="The same problem in every version", interactive=False, visible=False, wrap=True,
                            column_widths=["15%", "7%", "63%", "15%"], elem_id="browse-versions")
    version_images = gr.Gallery(label="Diagrams of the versions", columns=6, height="fit-content", visible=False,
                                allow_preview=True, object_fit="contain", elem_id="browse-version-images",
                                interactive=False)

    panels = gr.State(None)  # which optional panels are shown (shown_panels), so a switch re-sends only changes
    blocks = {"error": error, "state": state, "header": header, "video": video, "diagram": diagram, "frames": gallery,
              "cues": cue_table, "prompt": prompt, "steps": steps, "metadata": metadata, "pairs": pairs,
              "versions": versions, "version_images": version_images, "response": response, "frames_n": frames_n,
              "subs": subs, "full_subs": full_subs, "panels": panels}
    page_outputs = [blocks[name] for name in PAGE_OUTPUTS]
    n_page = len(page_outputs)
    # A question picked in the table shows its frames first: one event updates only these (Gradio's time per
    # switch grows with the outputs an event has), a second one the rest of the page.
    first_outputs = [error, state, header, gallery]
    rest_outputs = [c for c in page_outputs if all(c is not f for f in first_outputs)]

    def options_of(n: float, use_cot: bool, use_subs: bool, use_full: bool) -> ViewOptions:
        return ViewOptions(int(n), bool(use_cot), bool(use_subs), bool(use_full))

    def show_question(key: str, ref: str, options: ViewOptions, shown: dict[str, bool] | None = None) -> tuple:
        """Page outputs for `ref`; `shown` is the panel flags of what the page shows now, None when unknown."""
        dataset = context.datasets.get(*split_key(key))
        return page_updates(render_question(dataset, ref, options), key, shown)

    def only(values: tuple, outputs: list[Any]) -> tuple:
        """The values of page outputs `outputs`, out of a full page update."""
        return tuple(v for c, v in zip(page_outputs, values, strict=True) if any(c is o for o in outputs))

    @guarded(0, n_page)
    def rerender(st: dict, shown: dict | None, n: float, use_cot: bool, use_subs: bool, use_full: bool) -> tuple:
        if not st.get("ref"):
            return tuple([gr.skip()] * n_page)
        return show_question(st["key"], st["ref"], options_of(n, use_cot, use_subs, use_full), shown)

    @guarded(0, len(first_outputs))
    @select_handler
    def select_row(shown: dict | None, key: str, n: float, use_cot: bool, use_subs: bool, use_full: bool,
                   evt: gr.SelectData) -> tuple:
        ref = str((evt.row_value or [""])[0])
        return only(show_question(key, ref, options_of(n, use_cot, use_subs, use_full), shown), first_outputs)

    def select_rest(st: dict, shown: dict | None, n: float, use_cot: bool, use_subs: bool, use_full: bool) -> tuple:
        """The rest of the page for the question select_row showed (its frames are cached by now). A failure
        here leaves the page as it is and says so in a toast; select_row's error box stays as it was."""
        try:
            if not st.get("ref"):
                return tuple([gr.skip()] * len(rest_outputs))
            page = show_question(st["key"], st["ref"], options_of(n, use_cot, use_subs, use_full), shown)
            return only(page, rest_outputs)
        except Exception as exc:  # the page must survive anything a handler meets
            log.exception("select_rest failed")
            warn(error_message(exc))
            return tuple([gr.skip()] * len(rest_outputs))

    list_outputs = [error, table, *dims]

    @guarded(0, len(list_outputs))
    def choose_benchmark(key: str, text: str) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        specs = filter_specs(dataset)
        updates = []
        for i in range(n_slots):
            if i < len(specs):
                _, label, values = specs[i]
                updates.append(gr.update(choices=[("All", ALL), *((v, v) for v in values)], value=ALL, label=label,
                                         visible=True))
            else:
                updates.append(gr.update(choices=[("All", ALL)], value=ALL, visible=False))
        frame = question_table(dataset, text)
        return (gr.update(value="", visible=False), gr.update(value=frame, column_widths=table_widths(frame)),
                *updates)

    @guarded(0, 2)
    def refilter(key: str, text: str, *values: str) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        keys = [k for k, _, _ in filter_specs(dataset)]
        return gr.update(value="", visible=False), question_table(dataset, text, dict(zip(keys, values, strict=False)))

    @guarded(0, n_page)
    def first_question(key: str, n: float, use_cot: bool, use_subs: bool, use_full: bool) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        if not dataset.questions:
            return tuple([gr.skip()] * n_page)
        ref = dataset.ref(dataset.questions[0])
        return show_question(key, ref, options_of(n, use_cot, use_subs, use_full))

    def seek(times_key: str):
        @select_handler
        def handler(st: dict, evt: gr.SelectData) -> Any:
            index = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
            times = st.get(times_key) or []
            if not isinstance(index, int) or not 0 <= index < len(times):
                return gr.skip()
            return gr.update(playback_position=float(times[index]))

        return handler

    group = {"concurrency_id": "browse", "concurrency_limit": settings.browse_concurrency}
    view_inputs = [frames_n, cot, subs, full_subs]
    # `.input`, not `.change`: another tab sets the dropdown when it opens a question here.
    benchmark.input(choose_benchmark, [benchmark, search], list_outputs, **group).then(
        first_question, [benchmark, *view_inputs], page_outputs, **group)
    search.submit(refilter, [benchmark, search, *dims], [error, table], **group)
    for dropdown in dims:
        dropdown.input(refilter, [benchmark, search, *dims], [error, table], **group)
    # Frames first; the rest waits for the browser to paint them (the js step), since Gradio's page sends the
    # next request and updates its progress state before the browser gets to draw. No progress overlay: the
    # progressive gallery shows keyframes at once (an overlay over all 18 outputs cost 30-70 ms of every switch).
    # Progressive gallery (webapp/gallery_stream.py): nearest keyframes at once, then exact frames as decoded.
    table.select(stream_gallery(context), [benchmark, frames_n], [gallery], show_progress="hidden", **group)
    table.select(select_row, [panels, benchmark, *view_inputs], first_outputs, show_progress="hidden",
                 **group).then(
        None, None, None, js=AFTER_PAINT).then(
        select_rest, [state, panels, *view_inputs], rest_outputs, show_progress="hidden", **group)
    for control in (cot, subs, full_subs):
        control.input(rerender, [state, panels, *view_inputs], page_outputs, **group)
    frames_n.release(rerender, [state, panels, *view_inputs], page_outputs, **group)
    gallery.select(seek("frame_times"), [state], [video], **group)
    cue_table.select(seek("cue_times"), [state], [video], **group)
    load = context.links["app_load"]
    load(choose_benchmark, [benchmark, search], list_outputs, **group).then(
        first_question, [benchmark, *view_inputs], page_outputs, **group)

    def open_question(key: str, ref: str, row: dict[str, Any] | None, run_name: str) -> tuple:
        """For other tabs: show `ref` of `key` with a scored row's response beside it."""
        dataset = context.datasets.get(*split_key(key))
        page = render_question(dataset, ref, ViewOptions(settings.default_frames))
        return page_updates(page, key, None, response_markdown(row, run_name))

    context.links["browse.open"] = (guarded(0, n_page)(open_question), page_outputs)
    context.links["browse.state"] = state  # the chosen question ({"key", "ref", ...}), for tabs that act on it
    context.links["browse.benchmark"] = benchmark
    context.links["browse.list"] = (choose_benchmark, [benchmark, search], list_outputs)


TAB = TabSpec(id="browse", label="Browse", build=build)
