"""What the model sees for one question: the exact prompt, the sampled frames, the subtitles at those frames, and
the diagram. `mathreel show`, the app's browse tab and the model client all build it here, so what a user inspects
is what a model is sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.defaults import DEFAULT_FRAMES as DEFAULT_FRAMES  # re-exported (the app reads it here)
from mathreel.core.errors import InputError
from mathreel.core.message import Message, PromptSubtitles
from mathreel.core.question import Question

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.data import Dataset
    from mathreel.core.media.frames import SampledFrames
    from mathreel.core.media.sampling import Sampling
    from mathreel.core.media.subtitles import Cue


@dataclass
class ModelView:
    """One question as sent to a model. `message` is the whole turn in order (texts and frames), `prompt` its texts;
    `subtitle_text` is what went into the prompt (None: no-subtitle prompt)."""

    question: Question
    ref: str
    prompt: str
    message: Message | None = None
    frames: SampledFrames | None = None
    frame_cues: list[list[Cue]] = field(default_factory=list)
    cues: list[Cue] = field(default_factory=list)
    subtitle_lines: list[str] = field(default_factory=list)
    subtitle_text: str | None = None
    image_path: Path | None = None
    video_path: Path | None = None
    subtitle_path: Path | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The `mathreel show --json` object: times in seconds, paths as strings."""
        frames = self.frames
        return {
            "benchmark": self.question.benchmark,
            "mode": self.question.mode,
            "question_id": self.question.question_id,
            "ref": self.ref,
            "group_id": self.question.group_id,
            "video_id": self.question.video_id,
            "settings": dict(self.settings),
            "prompt": self.prompt,
            "message": _message_list(self.message),
            "total_frames": frames.total_frames if frames is not None else None,
            "fps": frames.fps if frames is not None else None,
            "duration": frames.duration if frames is not None else None,
            "frames": _frame_list(frames),
            "subtitles": [_cue_dict(c) for c in self.cues],
            "frame_subtitles": [[_cue_dict(c) for c in cues] for cues in self.frame_cues],
            "subtitle_lines": list(self.subtitle_lines),
            "frame_paths": [str(p) for p in frames.paths] if frames is not None else [],
            "image_path": _str_or_none(self.image_path),
            "video_path": _str_or_none(self.video_path),
            "subtitle_path": _str_or_none(self.subtitle_path),
            "notes": list(self.notes),
        }


def _frame_list(frames: SampledFrames | None) -> list[dict[str, Any]]:
    if frames is None:
        return []
    return [{"index": int(i), "time": round(float(t), 6)} for i, t in zip(frames.indices, frames.times, strict=True)]


def _message_list(message: Message | None) -> list[dict[str, Any]]:
    """The turn in order: {"frame": position} or {"text": ...}."""
    if message is None:
        return []
    return [{"frame": part} if isinstance(part, int) else {"text": part} for part in message.parts]


def _cue_dict(cue: Cue) -> dict[str, Any]:
    return {"start": round(float(cue.start), 6), "end": round(float(cue.end), 6), "text": cue.text}


def _str_or_none(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def build_view(
    dataset: Dataset,
    question: Question | str,
    *,
    num_frames: int | None = None,
    cot: bool = False,
    with_subtitles: bool = False,
    full_subtitles: bool = False,
    interleaved: bool = False,
    style: str = "default",
    max_side: int | None = None,
    cache_dir: str | Path | None = None,
    fps: float | None = None,
) -> ModelView:
    """Build what the model gets for `question` (a Question of `dataset` or its id).

    Frames are sampled by the benchmark's rule (`num_frames`, default the benchmark's; -1 for every frame), or at
    `fps` frames per second with `num_frames` as the cap. With `with_subtitles` the prompt carries the subtitles as
    the benchmark writes them (lmms-eval: the lines of the cues covering the sampled frames, every line with
    `full_subtitles`, or "No subtitles available" when the video has none); `interleaved` puts each frame's
    subtitles right after it, for a benchmark that does so.
    """
    if isinstance(question, str):
        question = dataset.question(question)
    bench = dataset.bench
    num_frames = bench.default_frames if num_frames is None else num_frames
    _check_frames(num_frames, question)
    with_subtitles = with_subtitles or full_subtitles or interleaved
    view = ModelView(
        question=question,
        ref=dataset.ref(question),
        prompt="",
        image_path=dataset.image_path(question),
        subtitle_path=dataset.subtitle_path(question),
        settings={
            "num_frames": num_frames,
            "cot": cot,
            "with_subtitles": with_subtitles,
            "full_subtitles": full_subtitles,
            "interleaved": interleaved,
            "style": style,
            "max_side": max_side,
            "fps": fps,
        },
    )
    _attach_video(view, dataset, num_frames, max_side, cache_dir, frame_sampling(bench.frame_sampler, fps))
    subtitles = _prompt_subtitles(view, full_subtitles, interleaved) if with_subtitles else None
    frames = len(view.frames) if view.frames is not None else 0
    view.message = bench.build_message(question, frames=frames, cot=cot, subtitles=subtitles, style=style)
    view.prompt = view.message.text
    view.subtitle_lines = list(view.message.subtitles)
    view.subtitle_text = "\n".join(view.subtitle_lines) if with_subtitles else None
    return view


def frame_sampling(rule: str, fps: float | None) -> Sampling:
    """The placement of the sampled frames: `fps` frames per second when given, else the benchmark's rule."""
    from mathreel.core.media.sampling import Sampling

    try:
        return Sampling("fps", fps) if fps is not None else Sampling(rule)
    except ValueError as error:
        raise InputError("--fps", str(error)) from None


def _check_frames(num_frames: int, question: Question) -> None:
    if num_frames == 0 or num_frames < -1:
        raise InputError(
            "--frames", f"must be a positive number of frames or -1 for all, got {num_frames}", question.question_id
        )


def _attach_video(
    view: ModelView,
    dataset: Dataset,
    num_frames: int,
    max_side: int | None,
    cache_dir: str | Path | None,
    sampling: Sampling,
) -> None:
    """Sample the video's frames and align the subtitle units to them; a missing video becomes a note."""
    bench = dataset.bench
    question = view.question
    if view.subtitle_path is not None:
        view.cues = list(bench.subtitle_cues(view.subtitle_path))
    if not question.video_id:
        return
    view.video_path = dataset.find_video(question)
    if view.video_path is None:
        try:
            dataset.video_path(question)
        except InputError as error:
            view.notes.append(error.problem)
        return
    from mathreel.core.media.frames import sample_frames

    view.frames = sample_frames(view.video_path, num_frames, max_side=max_side, cache_dir=cache_dir, sampling=sampling)
    view.frame_cues = [list(cues) for cues in bench.frame_cues(view.cues, view.frames)]


def _prompt_subtitles(view: ModelView, full: bool, interleaved: bool) -> PromptSubtitles:
    """What the benchmark may put in the prompt: the units (None without a subtitle file), those of each frame,
    the frames' times (None when the video is missing, with the reason)."""
    frames = view.frames
    return PromptSubtitles(
        cues=tuple(view.cues) if view.subtitle_path is not None else None,
        frame_cues=tuple(tuple(cues) for cues in view.frame_cues),
        times=tuple(frames.times) if frames is not None else None,
        full=full,
        interleaved=interleaved,
        source=str(view.subtitle_path or ""),
        missing=view.notes[0] if view.notes else "the video is missing",
    )


def pairs_of(dataset: Dataset, group_id: str) -> list[Question]:
    """The multi-binary pairs of one benchmark question (a group id, or the id / ref of any of its pairs)."""
    pairs = dataset.pairs(group_id)
    if pairs:
        return pairs
    return dataset.pairs(dataset.question(group_id).group_id)


@dataclass(frozen=True)
class ViewSettings:
    """How a question is put to the model: frame count, chain of thought, subtitles, prompt style.

    One definition for Browse, Ask, the reading flow and the CLI, so every place asks the same way with the same
    defaults. `num_frames` None is the benchmark's own default (`Benchmark.default_frames`). `full_subtitles`
    implies `with_subtitles` (`normalized`), as `build_view` treats it, and so does `interleaved`. `fps`: frames
    at that rate, `num_frames` their cap (None: the benchmark's own placement rule).
    """

    num_frames: int | None = None
    cot: bool = False
    with_subtitles: bool = False
    full_subtitles: bool = False
    interleaved: bool = False
    fps: float | None = None
    style: str = "default"  # a `Benchmark.prompt_styles` name (`mathreel show --style`)

    def normalized(self) -> ViewSettings:
        """The same settings with "all subtitle lines" or "interleaved" implying "subtitles in prompt"."""
        if (self.full_subtitles or self.interleaved) and not self.with_subtitles:
            return replace(self, with_subtitles=True)
        return self

    def view_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `build_view` (`interleaved` only when asked for)."""
        s = self.normalized()
        kwargs: dict[str, Any] = {
            "num_frames": s.num_frames,
            "cot": s.cot,
            "with_subtitles": s.with_subtitles,
            "full_subtitles": s.full_subtitles,
        }
        if s.interleaved:
            kwargs["interleaved"] = True
        if s.fps:
            kwargs["fps"] = s.fps
        if s.style != "default":
            kwargs["style"] = s.style
        return kwargs

    def describe(self) -> str:
        """One line: "8 frames · chain of thought · subtitles (frame-aligned)"."""
        s = self.normalized()
        subs = (
            "subtitles between the frames"
            if s.interleaved
            else "all subtitle lines"
            if s.full_subtitles
            else "subtitles (frame-aligned)"
            if s.with_subtitles
            else "no subtitles"
        )
        frames = "the benchmark's default frames" if s.num_frames is None else f"{s.num_frames} frames"
        if s.fps:
            frames = f"{s.fps:g} frames a second" + ("" if s.num_frames is None else f", at most {s.num_frames}")
        return f"{frames} · {'chain of thought' if s.cot else 'direct answer'} · {subs}"
