"""Browse tab: a benchmark question the way the model gets it (video, sampled frames with their subtitle lines,
the exact prompt), with the options, annotated steps and metadata beside it.

Everything shown comes from core: `load_dataset`/`Dataset.filter` for the table, `build_view` for frames, cues and
prompt, `pairs_of` for multi-binary. The pure functions here only shape core's objects into table rows and text.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from mathreel.core.plural import counted
from mathreel.core.view import DEFAULT_FRAMES
from mathreel.webapp import reading_flow as rd
from mathreel.webapp.benchmark_keys import benchmark_choices, split_key
from mathreel.webapp.browse_audit import audit_box, wire_audit
from mathreel.webapp.browse_events import BrowseUI, then_rest, values_for, view_of
from mathreel.webapp.browse_file import (
    file_header,
    file_metadata,
    file_prompt,
    file_steps,
    join_line,
    run_table,
    shown_prompt,
)
from mathreel.webapp.browse_groups import group_markdown, group_scoring
from mathreel.webapp.browse_review import judge_box, wire_review
from mathreel.webapp.context import AppContext, BrowseLinks, TabSpec, progress_on, select_handler, with_request
from mathreel.webapp.errors import error_message, failed, guarded, log, warn
from mathreel.webapp.gallery_stream import previews
from mathreel.webapp.html import plain
from mathreel.webapp.present import frame_items, seconds_text
from mathreel.webapp.reading_flow import LATEX, Walk, walk_filters
from mathreel.webapp.review_state import review_session
from mathreel.webapp.shown_answer import (
    RECORDED,
    by_id_allowed,
    file_answer,
    fit_view,
    judged_join,
    media_ref,
    same_question,
    style_choices,
    walked_answer,
)

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.answer_view import AnswerView
    from mathreel.core.benchmarks import Benchmark
    from mathreel.core.data import Dataset
    from mathreel.core.question import Question
    from mathreel.core.view import ModelView, ViewSettings

ALL = ""  # the "no filter" value of a dimension dropdown
POSITION_KEY = "mathreel-position"  # local-storage key of the browser's last reading position (app.HEAD writes it)
QUESTION_PREVIEW = 110  # characters of the question shown in the table


# -- choices and keys -------------------------------------------------------------------------------------------


def max_dimensions() -> int:
    """How many filter dropdowns the page needs: the most dimensions any benchmark has."""
    from mathreel.core.benchmarks import BENCHMARKS

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
        preview = q.question or dataset.bench.full_question(q)
        if len(preview) > QUESTION_PREVIEW:
            preview = preview[: QUESTION_PREVIEW - 1] + "…"
        row = {"ID": dataset.ref(q), "Question": preview.replace("\n", " ")}
        row.update({label: q.dims.get(key, "") for key, label, _ in specs})
        row["Answer"] = q.answer
        rows.append(row)
    columns = ["ID", "Question", *(label for _, label, _ in specs), "Answer"]
    return pd.DataFrame(rows, columns=columns)


RESPONSE_WIDTH = "360px"  # a walked run's last column, its response preview (Score's question table gives as much)


def table_widths(frame: pd.DataFrame) -> list[str]:
    """Column widths for the question table in pixels: they fill a desktop page, and on a phone the table scrolls
    sideways instead of squeezing every word into one letter per line. The last column is the short gold answer
    of the server's questions, or a walked run's response preview, which in a narrow column made every row a
    tower of one-word lines."""
    rest = len(frame.columns) - 3
    last = RESPONSE_WIDTH if len(frame.columns) and frame.columns[-1] == "Response" else "80px"
    return ["80px", "440px", *(["140px"] * rest), last]


# -- one question -----------------------------------------------------------------------------------------------


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
    prompt_note: str = ""  # where the prompt shown comes from (recorded in the file, or built in which style)
    on_server: bool = True  # False: the walked answer's question is read from its file (no frames, no video)


def file_page(answer: AnswerView, view: ViewSettings) -> QuestionPage:
    """The panels of an answer read from its file alone (its question is not the server's): the question,
    options with gold and pick, the dimensions, the prompt; no frames, video or steps."""
    return QuestionPage(
        ref=answer.question_id,
        header=file_header(answer),
        prompt=file_prompt(answer, view),
        steps=file_steps(),
        metadata=file_metadata(answer),
        on_server=False,
    )


def render_question(dataset: Dataset, ref: str, options: ViewSettings, pick: str | None = None) -> QuestionPage:
    """Everything the Browse panels show for question `ref`, from one `build_view` call; `pick` is the answer
    a model gave, marked among the options."""
    from mathreel.core.view import build_view

    question = dataset.question(ref)
    view = build_view(dataset, question, **options.view_kwargs())
    bench = dataset.bench
    page = QuestionPage(
        ref=view.ref,
        header="\n\n".join(
            part for part in (question_markdown(question, bench, pick), group_markdown(dataset, question)) if part
        ),
        prompt=turn_text(view),
        steps=steps_markdown(question),
        metadata=metadata_markdown(question, view, bench),
        video_path=str(view.video_path) if view.video_path else None,
        image_path=str(view.image_path) if view.image_path else None,
    )
    _attach_frames(page, view)
    if bench.mode(dataset.mode).grouped:
        page.pairs = pairs_rows(dataset, question)
    if bench.has_versions(question):
        page.versions, page.version_images = version_rows(dataset, question)
    return page


def turn_text(view: ModelView) -> str:
    """The prompt as sent: its text alone when the frames all come first (the usual turn), else every part in order,
    each frame as "[frame 3: index 420, t=14.00s]" (subtitles between the frames, a text before the video)."""
    message = view.message
    if message is None:
        return view.prompt
    kinds = [isinstance(part, int) for part in message.parts]
    if kinds == sorted(kinds, reverse=True):
        return view.prompt
    frames = view.frames
    lines = []
    for part in message.parts:
        if isinstance(part, str):
            lines.append(part)
        elif frames is not None and part < len(frames.indices):
            lines.append(f"[frame {part + 1}: index {int(frames.indices[part])}, t={float(frames.times[part]):.2f}s]")
        else:
            lines.append(f"[frame {part + 1}]")
    return "\n".join(lines)


def _attach_frames(page: QuestionPage, view: ModelView) -> None:
    """Gallery items captioned with frame index, time and the aligned subtitle lines; the cue table."""
    if view.cues:
        page.subtitles = [{"text": c.text, "timestamp": [float(c.start), float(c.end)]} for c in view.cues]
    frames = view.frames
    if frames is not None:
        page.frame_times = [float(t) for t in frames.times]
        page.frames = frame_items(view)
    aligned = _frames_per_cue(view)
    page.cue_rows = [
        [seconds_text(float(c.start)), seconds_text(float(c.end)), c.text, aligned.get(i, "")]
        for i, c in enumerate(view.cues)
    ]
    page.cue_times = [float(c.start) for c in view.cues]


def _frames_per_cue(view: ModelView) -> dict[int, str]:
    """Cue position -> "frame 59, frame 119": the sampled frames a cue is aligned to, named by their video frame
    index as the gallery captions name them (identity match on core's cues)."""
    positions = {id(c): i for i, c in enumerate(view.cues)}
    found: dict[int, list[str]] = {}
    indices = [int(i) for i in view.frames.indices] if view.frames is not None else []
    for number, cues in zip(indices, view.frame_cues, strict=False):
        for cue in cues:
            if id(cue) in positions:
                found.setdefault(positions[id(cue)], []).append(f"frame {number}")
    return {i: ", ".join(names) for i, names in found.items()}


def question_markdown(question: Question, bench: Benchmark, pick: str | None = None) -> str:
    """Question text and options, the correct one marked, and the model's `pick` when it is given (for
    free-form, the gold value and the answer read)."""
    text = question.question or bench.full_question(question)
    lines = [f"### {bench.title} · {question.question_id}", "", text, ""]
    if question.options and question.answer_kind == "choice":
        for letter, option in question.option_texts.items():
            lines.append(_option_line(letter, option, letter == question.answer, letter == pick))
    else:
        lines.append(f"**Answer:** {question.answer}")
        if pick is not None:
            lines.append(f"\n**Model's answer:** {html.escape(pick)}")
    return "\n".join(lines)


def _option_line(letter: str, option: str, gold: bool, picked: bool) -> str:
    """ "- ✓ **C. 110°** — correct answer · model's pick"; a wrong pick gets ✗."""
    marks = [m for m, on in (("correct answer", gold), ("model's pick", picked)) if on]
    if not marks:
        return f"- {letter}. {option}"
    sign = "✓" if gold else "✗"
    return f"- {sign} **{letter}. {option}** — {' · '.join(marks)}"


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
        rows.append(
            (
                "Video length",
                f"{seconds_text(float(frames.duration))} ({frames.total_frames} frames, {float(frames.fps):.2f} fps)",
            )
        )
        from mathreel.core.view import frame_sampling

        placed = frame_sampling(bench.frame_sampler, view.settings.get("fps"))
        whose = "the rate chosen" if placed.rule == "fps" else "the benchmark's rule"
        asked = int(view.settings.get("num_frames") or len(frames.indices))
        rows.append(("Frames sampled", f"{len(frames.indices)}: {placed.describe(asked)} ({whose})"))
    if question.video_id:
        rows.append(("Subtitles", view.subtitle_path.name if view.subtitle_path else "none for this video"))
    for key in bench.browse_fields:
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
    from mathreel.core.view import pairs_of

    rows = []
    for pair in pairs_of(dataset, question.group_id):
        options = "  /  ".join(f"{letter}. {text}" for letter, text in pair.option_texts.items())
        rows.append([dataset.ref(pair), options, pair.answer])
    return rows


def version_rows(dataset: Dataset, question: Question) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """Every version of the same problem (MathVerse's five), as the benchmark lists them."""
    rows, images = [], []
    for version, q in dataset.bench.versions_of(question, dataset.questions):
        rows.append([version, dataset.ref(q), dataset.bench.full_question(q), q.answer])
        image = dataset.image_path(q)
        if image is not None:
            images.append((str(image), version))
    return rows, images


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


# -- handlers ---------------------------------------------------------------------------------------------------


class BrowseHandlers:
    """Browse's event handlers as plain methods over the server's datasets: testable without a browser."""

    def __init__(self, datasets: Any, default_frames: int = DEFAULT_FRAMES) -> None:
        self.datasets = datasets
        self.default_frames = default_frames

    def reading(
        self,
        key: str,
        ref: str,
        runs: list | None,
        walk_value: dict | None,
        raw: bool,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> Reading:
        """The response of the walked run to `ref`, every run side by side, and the position in the list."""
        walk = rd.Walk.of(walk_value)
        run = rd.run_named(runs, walk.run)
        if walk.run and run is None:
            return Reading(
                position=f"_Run {html.escape(walk.run)} is not among your runs in this browser: "
                "upload it in Score to read its responses._"
            )
        if run is None and walk.judged:
            return judged_reading(rd.judged_named(judge_runs, walk.judged), ref)
        if run is None or run.key != key:
            return Reading(
                position=rd.position_text([], ref, rd.Walk())
                if run is None
                else f"_{html.escape(run.name)} answers another benchmark; choose it to read its responses._"
            )
        row = rd.row_of(run, ref)
        dataset = self.server_set(key)
        trusted = dataset is not None and by_id_allowed(run, dataset)
        same = lambda other: row is None or same_question(row, other, dataset, trusted)  # noqa: E731 - one use
        scoring = group_scoring(run.report, ref, run.name)
        return Reading(
            response=rd.response_markdown(row, run.name, raw) + (f"\n\n{scoring}" if scoring else ""),
            compare=rd.compare_html(runs, key, ref, judge_runs, same),
            position=rd.position_text(rd.walk_ids(runs, walk, reviews, reviewer, judge_runs), ref, walk),
            pick=row.extracted if row is not None else None,
        )

    def show(
        self,
        key: str,
        ref: str,
        view: ViewSettings,
        shown: dict | None,
        runs: list | None = None,
        walk_value: dict | None = None,
        raw: bool = False,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> tuple:
        """Page outputs for `ref`; `shown` is the panel flags of what the page shows now, None when unknown;
        `judge_runs` the session's judged runs (None: the demo's)."""
        dataset = self.server_set(key)
        if dataset is None:  # no questions of this benchmark here: a walked answer is still read from its file
            answer = file_answer(key, runs, walk_value, ref)
            if answer is None:
                dataset = self.datasets.get(*split_key(key))  # the clear error saying why
        else:
            answer = walked_answer(dataset, runs, walk_value, ref)
        choice = view.style
        view, dropped = fit_view(view, split_key(key)[0])
        reading = self.reading(key, ref, runs, walk_value, raw, reviews, reviewer, judge_runs)
        reading.link = link_query(key, ref, Walk.of(walk_value))
        unjoined = self.judged_unjoined(dataset, ref, runs, walk_value, judge_runs) if answer is None else None
        if answer is not None and not answer.on_server:  # the one rule: never under a question it is not to
            page = file_page(answer, view)
            question = answer.own_question
        elif unjoined is not None:  # a judged response whose question no result file records
            page = QuestionPage(ref=ref, header=unjoined, prompt="", steps=file_steps(), metadata="", on_server=False)
            question = None
        else:
            assert dataset is not None  # only an answer read from its file (the first branch) comes without one
            page = render_question(dataset, ref, view, reading.pick)
            page.header += join_line(answer)
            question = dataset.question(ref)
        page.prompt, page.prompt_note = shown_prompt(answer, page.prompt, choice, view, question)
        if dropped:
            page.prompt_note += "".join(f"\n\n_Not applied: {html.escape(note)}._" for note in dropped)
        values = page_updates(page, key, shown, reading)
        values[1]["view"] = view.view_kwargs()  # the state carries the settings shown, so Ask asks the same way
        return values

    @staticmethod
    def judged_unjoined(
        dataset: Dataset | None, ref: str, runs: list | None, walk_value: dict | None, judge_runs: list | None
    ) -> str | None:
        """The header for a judged response read where no run of the session holds it (the Judge tab's "open in
        Browse") when no result file records its question as the server's (`judged_join`); None when it does, or
        when no judged response is read."""
        walk = rd.Walk.of(walk_value)
        if dataset is None or not walk.judged or rd.run_named(runs, walk.run) is not None:
            return None
        judged = rd.judged_named(judge_runs, walk.judged)
        response = (
            next((j.response for j in judged.judgments if j.question_id == ref and j.response), "")
            if judged is not None
            else ""
        )
        join = judged_join(dataset, ref, response)
        if join.on_server:
            return None
        return (
            f"### {html.escape(dataset.bench.title)} · {html.escape(ref)} · judged answer\n\n"
            f"<div class='file-note' id='browse-file-note'>⚠ {html.escape(join.note)}</div>"
        )

    def server_set(self, key: str) -> Dataset | None:
        """The server's questions of `key`, None when it has none (no such data on this server)."""
        from mathreel.core.errors import MathReelError

        try:
            return self.datasets.get(*split_key(key))
        except MathReelError:
            return None

    def preview_ref(
        self, key: str, ref: str | None, runs: list | None, walk_value: dict | None, judge_runs: list | None = None
    ) -> str | None:
        """The question whose frames a switch to `ref` may preview (None for an answer read from its file)."""
        try:
            dataset = self.datasets.get(*split_key(key))
            if ref and self.judged_unjoined(dataset, ref, runs, walk_value, judge_runs) is not None:
                return None
            return media_ref(dataset, runs, walk_value, ref)
        except Exception:  # the page itself reports the problem
            return None

    def step(
        self,
        st: dict | None,
        shown: dict | None,
        runs: list | None,
        walk_value: dict | None,
        raw: bool,
        view: ViewSettings,
        delta: int,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> tuple | None:
        """Page outputs for the question `delta` places along the walked list, None when there is none."""
        st = st or {}
        target = self.step_target(st, runs, walk_value, delta, reviews, reviewer, judge_runs)
        if target is None:
            return None
        return self.show(st["key"], target, view, shown, runs, walk_value, raw, reviews, reviewer, judge_runs)

    def step_target(
        self,
        st: dict | None,
        runs: list | None,
        walk_value: dict | None,
        delta: int,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> str | None:
        """The question `delta` places along the walked list from the one shown, None when there is none."""
        st = st or {}
        if not st.get("key"):
            return None
        ids = rd.walk_ids(runs, rd.Walk.of(walk_value), reviews, reviewer, judge_runs)
        return rd.step(ids, str(st.get("ref") or ""), delta)

    def follow_run(self, runs: list | None, walk_value: dict | None) -> tuple[ViewSettings, str] | None:
        """The settings the walked run used and the note saying where each came from (None: no such run)."""
        run = rd.run_named(runs, rd.Walk.of(walk_value).run)
        used = run.settings_used() if run is not None else None
        if used is None:
            return None
        return used.settings, rd.settings_note(run)

    def first_ref(
        self, key: str, wanted: str | None = None, runs: list | None = None, walk_value: dict | None = None
    ) -> str | None:
        """`wanted` when the set or the walked run has it (a shared link), else the set's first question."""
        run = rd.run_named(runs, rd.Walk.of(walk_value).run)
        if wanted and run is not None and run.key == key and rd.row_of(run, wanted) is not None:
            return wanted
        dataset = self.datasets.get(*split_key(key))
        if wanted:
            try:
                return dataset.ref(dataset.question(wanted))
            except Exception:  # a stale or mistyped link falls back to the first question
                log.info("link to unknown question %r", wanted)
        return dataset.ref(dataset.questions[0]) if dataset.questions else None


def judged_reading(judged: Any, ref: str) -> Reading:
    """The response a judged run judged, where no run of the session holds it (opened from the Judge tab)."""
    response, pick = rd.judged_response(judged, ref)
    if not response:
        return Reading(position="_The judged run has no answer to this question._")
    return Reading(
        response=response,
        pick=pick,
        position=f"_The response {html.escape(judged.name)} judged. No run of yours holds it: load its "
        "result file in Score (the demo runs are one click there) to walk its answers._",
    )


def link_query(key: str, ref: str, walk: Walk) -> str:
    """The query string of a link to this view: benchmark, question, and the walked run with its list (the walk
    filter, a dimension value, only where the runs disagree, or a list handed over whole, such as a cause's
    questions: packed, with its name) when a run is walked."""
    params = {"benchmark": key, "q": ref}
    if walk.run:
        params["run"] = walk.run
        if walk.status != Walk().status:
            params["walk"] = walk.status
        if walk.dim_filter:
            params["dim"] = walk.dim_filter
        if walk.disagree:
            params["disagree"] = "1"
        packed = rd.pack_ids(walk.ids) if walk.ids else ""
        if packed:
            params["list"] = packed
            params["listed"] = walk.listed
    return urlencode(params)


def url_target(params: dict[str, str], keys: list[str]) -> tuple[str | None, dict[str, Any]]:
    """From a shared link's query (benchmark, q, run): the benchmark key to show (None: keep) and the target.

    A bare benchmark name (`videomme`) means its first mode. A key the app does not know keeps the default view
    (its question id and run belong to another benchmark) and puts a `notice` in the target naming the known keys,
    so a mistyped link is said to be one instead of silently opening the first benchmark."""
    named = (params.get("benchmark") or "").strip()
    if named and ":" not in named:
        named = next((k for k in keys if k.startswith(f"{named}:")), named)
    if named and named not in keys:
        return None, {"ref": "", "run": "", "notice": unknown_benchmark_note(named, keys)}
    return named or None, {"ref": params.get("q") or "", "run": params.get("run") or ""}


def unknown_benchmark_note(named: str, keys: list[str]) -> str:
    """The page's words for a link whose benchmark key is not one of `keys`."""
    shown = plain(named[:80])
    known = ", ".join(f"`{key}`" for key in keys)
    first = next((label for label, key in benchmark_choices() if key == keys[0]), keys[0]) if keys else "the list"
    return (
        f"The link names the benchmark **{shown}**, which this app does not know. Known: {known}. "
        f"Showing {first} instead."
    )


def with_notice(values: tuple, target: dict | None) -> tuple:
    """Page values (PAGE_OUTPUTS order, the error box first) with the target's notice shown in the error box."""
    import gradio as gr

    notice = (target or {}).get("notice")
    if not notice:
        return values
    return (gr.update(value=notice, visible=True), *values[1:])


def url_walk(params: dict[str, str]) -> Walk | None:
    """The walk a link names (run, walk filter, dimension value, disagreement, a packed list and its name); None
    when it names no run."""
    if not params.get("run"):
        return None
    statuses = {value for _, value in walk_filters()}
    named = params.get("walk")
    status = named if named is not None and named in statuses else Walk().status
    ids = rd.unpack_ids(params.get("list") or "")
    listed = (params.get("listed") or "")[:200] if ids else ""
    return Walk(params["run"], status, params.get("dim") or "", params.get("disagree") == "1", ids=ids, listed=listed)


def saved_position(saved: str | None, max_days: int, now: float) -> dict[str, str]:
    """The query of this browser's last reading position (kept in its local storage by app.HEAD as JSON
    {"query", "at": ms}), when it is younger than `max_days`; {} otherwise."""
    from urllib.parse import parse_qsl

    try:
        value = json.loads(saved or "null")
        query, at = value["query"], float(value["at"])
    except (ValueError, TypeError, KeyError):
        return {}
    if not isinstance(query, str) or now * 1000 - at > max_days * 86_400_000:
        return {}
    return dict(parse_qsl(query))


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
    list_fn = ui.list_fn = _wire_list(context, ui, handlers, group)
    _wire_page(context, ui, handlers, group)
    _wire_reading(ui, handlers, runs, group)
    _wire_load(context, ui, handlers, list_fn, group)
    _wire_run_choice(ui, handlers, runs, group)
    wire_review(context, ui, handlers, runs, group)
    wire_audit(context, ui, handlers, runs, group)
    context.browse = _links(ui, handlers, list_fn)


def _wire_list(context: AppContext, ui: BrowseUI, handlers: BrowseHandlers, group: dict) -> Callable:
    """The question table: benchmark choice, search (Enter), dimension filters; an empty result says so."""
    import gradio as gr

    list_outputs = [ui.error, ui.table, ui.list_note, *ui.dims]
    group = {**group, **progress_on(ui.list_note)}

    @guarded(0, len(list_outputs))
    def choose_benchmark(key: str, text: str, runs: list | None = None, walk: dict | None = None) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        specs = filter_specs(dataset)
        updates = [
            gr.update(
                choices=[("All", ALL), *((v, v) for v in specs[i][2])], value=ALL, label=specs[i][1], visible=True
            )
            if i < len(specs)
            else gr.update(choices=[("All", ALL)], value=ALL, visible=False)
            for i in range(len(ui.dims))
        ]
        frame, label = listed_questions(dataset, key, text, runs, walk)
        return (
            gr.update(value="", visible=False),
            gr.update(value=frame, column_widths=table_widths(frame), label=label),
            empty_note(frame, text),
            *updates,
        )

    @guarded(0, 3)
    def refilter(key: str, text: str, runs: list | None, walk: dict | None, *values: str) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        keys = [k for k, _, _ in filter_specs(dataset)]
        frame, label = listed_questions(dataset, key, text, runs, walk, dict(zip(keys, values, strict=False)))
        table = gr.update(value=frame, column_widths=table_widths(frame), label=label)
        return gr.update(value="", visible=False), table, empty_note(frame, text)

    inputs = [ui.benchmark, ui.search, ui.runs, ui.walk, *ui.dims]
    ui.search.submit(refilter, inputs, [ui.error, ui.table, ui.list_note], **group)
    for dropdown in ui.dims:
        dropdown.input(refilter, inputs, [ui.error, ui.table, ui.list_note], **group)
    ui.list_outputs = list_outputs
    return choose_benchmark


TABLE_LABEL = "Questions (click a row)"


def listed_questions(
    dataset: Dataset,
    key: str,
    text: str = "",
    runs: list | None = None,
    walk: dict | None = None,
    filters: dict[str, str] | None = None,
) -> tuple[pd.DataFrame, str]:
    """The question table and its label: the walked run's questions when a run on this benchmark is followed (so
    the table lists the user's answers, not the server's questions beside them), else the server's questions."""
    from mathreel.core.runs import find_run

    name = Walk.of(walk).run
    run = find_run(runs or [], name) if name else None
    if run is not None and run.key == key:
        label = f"Questions of run {run.name}: {counted(len(run.report.rows), 'answer')} (click a row)"
        return run_table(run, dataset, text, filters), label
    return question_table(dataset, text, filters), TABLE_LABEL


def empty_note(frame: Any, text: str) -> str:
    """Why the table is empty (the question shown stays as it was), or nothing."""
    if len(frame):
        return ""
    what = f" match “{html.escape(text)}”" if text else " match these filters"
    return f"_No questions{what}. The question below is the one shown before._"


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


def _wire_reading(ui: BrowseUI, handlers: BrowseHandlers, runs: Any, group: dict) -> None:
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


def _wire_run_choice(ui: BrowseUI, handlers: BrowseHandlers, runs: Any, group: dict) -> None:
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


def _wire_load(context: AppContext, ui: BrowseUI, handlers: BrowseHandlers, list_fn: Callable, group: dict) -> None:
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


def _links(ui: BrowseUI, handlers: BrowseHandlers, list_fn: Callable) -> BrowseLinks:
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


TAB = TabSpec(id="browse", label="Browse", build=build)
