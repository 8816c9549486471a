"""One question's page contents as plain values (QuestionPage): question and options, frames with their
subtitle lines, the prompt as sent, steps, metadata, multi-binary pairs and MathVerse's versions, from core's
`build_view`; or an answer read from its file alone.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mathreel.webapp.browse_file import file_header, file_metadata, file_prompt, file_steps
from mathreel.webapp.browse_groups import group_markdown
from mathreel.webapp.present import frame_items, seconds_text

if TYPE_CHECKING:
    from mathreel.core.answer_view import AnswerView
    from mathreel.core.benchmarks import Benchmark
    from mathreel.core.data import Dataset
    from mathreel.core.question import Question
    from mathreel.core.view import ModelView, ViewSettings


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
