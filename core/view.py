"""What the model sees for one question: the exact prompt, the sampled frames, the subtitles at those frames, and
the diagram. `mathreel show`, the app's browse tab and the model client all build it here, so what a user inspects
is what a model is sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError
from mathreel.core.question import Question

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.data import Dataset
    from mathreel.core.media.frames import SampledFrames
    from mathreel.core.media.subtitles import Cue


@dataclass
class ModelView:
    """One question as sent to a model. `subtitle_text` is what went into the prompt (None: no-subtitle prompt)."""

    question: Question
    ref: str
    prompt: str
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


def _cue_dict(cue: Cue) -> dict[str, Any]:
    return {"start": round(float(cue.start), 6), "end": round(float(cue.end), 6), "text": cue.text}


def _str_or_none(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def build_view(
    dataset: Dataset,
    question: Question | str,
    *,
    num_frames: int = 8,
    cot: bool = False,
    with_subtitles: bool = False,
    full_subtitles: bool = False,
    style: str = "default",
    max_side: int | None = None,
    cache_dir: str | Path | None = None,
) -> ModelView:
    """Build what the model gets for `question` (a Question of `dataset` or its id).

    Frames are sampled uniformly (`num_frames`, -1 for every frame). With `with_subtitles` the prompt carries the
    lines of the cues covering the sampled frames (every cue with `full_subtitles`, which implies subtitles), or
    "No subtitles available" when the video has no SRT, as the reference does.
    """
    if isinstance(question, str):
        question = dataset.question(question)
    _check_frames(num_frames, question)
    with_subtitles = with_subtitles or full_subtitles
    view = ModelView(
        question=question,
        ref=dataset.ref(question),
        prompt="",
        image_path=dataset.image_path(question),
        subtitle_path=dataset.subtitle_path(question),
        settings={"num_frames": num_frames, "cot": cot, "with_subtitles": with_subtitles,
                  "full_subtitles": full_subtitles, "style": style, "max_side": max_side},
    )
    _attach_video(view, dataset, num_frames, max_side, cache_dir)
    if with_subtitles:
        view.subtitle_text = _prompt_subtitles(view, full_subtitles)
    view.prompt = dataset.bench.build_prompt(question, cot=cot, subtitles=view.subtitle_text, style=style)
    return view


def _check_frames(num_frames: int, question: Question) -> None:
    if num_frames == 0 or num_frames < -1:
        raise InputError("--frames", f"must be a positive number of frames or -1 for all, got {num_frames}",
                         question.question_id)


def _attach_video(
    view: ModelView, dataset: Dataset, num_frames: int, max_side: int | None, cache_dir: str | Path | None
) -> None:
    """Sample the video's frames and align the subtitle cues to them; a missing video becomes a note."""
    from mathreel.core.media.subtitles import cues_for_frames, read_srt

    question = view.question
    if view.subtitle_path is not None:
        view.cues = list(read_srt(view.subtitle_path))
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

    view.frames = sample_frames(view.video_path, num_frames, max_side=max_side, cache_dir=cache_dir)
    view.frame_cues = [list(cues) for cues in cues_for_frames(view.cues, list(view.frames.times))]


def _prompt_subtitles(view: ModelView, full: bool) -> str:
    """The subtitle text of the prompt: frame-aligned lines (or all lines) joined by newlines, as the reference
    does; NO_SUBTITLES when the video has no SRT."""
    from mathreel.core.media.subtitles import subtitle_lines_or_placeholder

    cues = view.cues if view.subtitle_path is not None else None
    if cues is not None and not full and view.frames is None:
        reason = view.notes[0] if view.notes else "the video is missing"
        problem = f"frame-aligned subtitles need the video to know the sampled frames' times; {reason}"
        raise InputError(str(view.subtitle_path), problem, view.question.question_id)
    times = None if full or view.frames is None else list(view.frames.times)
    view.subtitle_lines = list(subtitle_lines_or_placeholder(cues, times))
    return "\n".join(view.subtitle_lines)


def pairs_of(dataset: Dataset, group_id: str) -> list[Question]:
    """The multi-binary pairs of one benchmark question (a group id, or the id / ref of any of its pairs)."""
    pairs = dataset.pairs(group_id)
    if pairs:
        return pairs
    return dataset.pairs(dataset.question(group_id).group_id)


@dataclass(frozen=True)
class ViewSettings:
    """How a question is put to the model: frame count, chain of thought, subtitles.

    One definition for Browse, Ask, the reading flow and the CLI, so every place asks the same way with the same
    defaults. `full_subtitles` implies `with_subtitles` (`normalized`), as `build_view` treats it.
    """

    num_frames: int = 8
    cot: bool = False
    with_subtitles: bool = False
    full_subtitles: bool = False

    def normalized(self) -> ViewSettings:
        """The same settings with "all subtitle lines" implying "subtitles in prompt"."""
        if self.full_subtitles and not self.with_subtitles:
            return ViewSettings(self.num_frames, self.cot, True, True)
        return self

    def view_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `build_view`."""
        s = self.normalized()
        return {"num_frames": s.num_frames, "cot": s.cot, "with_subtitles": s.with_subtitles,
                "full_subtitles": s.full_subtitles}

    def describe(self) -> str:
        """One line: "8 frames · chain of thought · subtitles (frame-aligned)"."""
        s = self.normalized()
        subs = "all subtitle lines" if s.full_subtitles else "subtitles (frame-aligned)" if s.with_subtitles \
            else "no subtitles"
        return f"{s.num_frames} frames · {'chain of thought' if s.cot else 'direct answer'} · {subs}"
