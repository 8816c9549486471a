"""Same frames? Two frame plans (how many frames, placed how) on one video, side by side: the frame indices and
times each takes, the subtitle units shown at each, and which frames and subtitle lines only one of them sees.

A different sampler is a common hidden cause of a gap: lmms-eval's loaders take `np.linspace(0, n - 1, N)` (the
first and last frame included), VLMEvalKit and the Video-MME-v2 script take `len/(N+1)` steps (neither end), and
an fps rule takes a frame every 1/F seconds (with a cap, evenly thinned). The placement itself is
`core.media.sampling`'s; the subtitles at each frame are the benchmark's own rule (`Benchmark.frame_cues`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError
from mathreel.core.media.sampling import Sampling

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.benchmarks import Benchmark
    from mathreel.core.data import Dataset
    from mathreel.core.media.subtitles import Cue
    from mathreel.core.results.model import ResultFile

RULE_TEXT = {
    "uniform": "np.linspace over the video (first and last frame included)",
    "midpoints": "len/(n+1) steps (neither end)",
    "fps": "a fixed rate from frame 0",
}
_PLAN = re.compile(r"\s*(?:(?P<fps>\d+(?:\.\d+)?)fps(?:/(?P<cap>-?\d+))?|(?P<count>-?\d+)(?:/(?P<rule>[a-z]+))?)\s*")


@dataclass(frozen=True)
class FramePlan:
    """How many frames a run took and how they were placed: `count` frames (-1: every frame) by "uniform" or
    "midpoints", or `fps` frames a second with `count` as the cap (-1: none)."""

    count: int
    rule: str = "uniform"
    fps: float | None = None

    @property
    def sampling(self) -> Sampling:
        return Sampling(self.rule, self.fps)

    def rule_text(self) -> str:
        if self.rule == "fps":
            return f"{self.fps:g} frame{'s' if self.fps != 1 else ''} a second from frame 0"
        return RULE_TEXT[self.rule]

    def describe(self) -> str:
        """ "16 frames, np.linspace over the video (...)", "1 frame per second (at most 64)"."""
        if self.rule == "fps":
            return self.sampling.describe(self.count)
        frames = "every frame" if self.count == -1 else f"{self.count} frames"
        return f"{frames}, {RULE_TEXT[self.rule]}"

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "rule": self.rule, "fps": self.fps, "text": self.describe()}

    @classmethod
    def parse(cls, spec: str) -> FramePlan:
        """ "16" (the benchmark's rule is not assumed: uniform), "64/midpoints", "1fps", "0.5fps/64" (a cap)."""
        match = _PLAN.fullmatch(spec)
        if match is None or (match.group("rule") and match.group("rule") not in ("uniform", "midpoints")):
            raise InputError("--plan", f"expected N, N/uniform, N/midpoints, Ffps or Ffps/CAP, not {spec!r}")
        if match.group("fps"):
            fps = float(match.group("fps"))
            if fps <= 0:
                raise InputError("--plan", f"frames per second must be above zero, not {spec!r}")
            return cls(int(match.group("cap") or -1), "fps", fps)
        count = int(match.group("count"))
        if count == 0 or count < -1:
            raise InputError("--plan", f"a frame count is at least 1 (or -1 for every frame), not {spec!r}")
        return cls(count, match.group("rule") or "uniform")


@dataclass(frozen=True)
class FrameRow:
    """One sampled frame: its index, time (seconds) and the subtitle text shown with it."""

    index: int
    time: float
    subtitles: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "time": round(self.time, 3), "subtitles": list(self.subtitles)}


@dataclass
class FrameComparison:
    """Two plans on one video: each one's frames, the indices both take, the subtitle lines each sees."""

    a: FramePlan
    b: FramePlan
    total_frames: int
    fps: float
    a_frames: list[FrameRow]
    b_frames: list[FrameRow]
    shared: list[int] = field(default_factory=list)
    only_a_lines: list[str] = field(default_factory=list)
    only_b_lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def same_frames(self) -> bool:
        return [row.index for row in self.a_frames] == [row.index for row in self.b_frames]

    @property
    def same_subtitles(self) -> bool:
        return not self.only_a_lines and not self.only_b_lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "total_frames": self.total_frames,
            "fps": round(self.fps, 6),
            "same_frames": self.same_frames,
            "same_subtitles": self.same_subtitles,
            "shared_indices": self.shared,
            "a_frames": [row.to_dict() for row in self.a_frames],
            "b_frames": [row.to_dict() for row in self.b_frames],
            "only_a_lines": self.only_a_lines,
            "only_b_lines": self.only_b_lines,
            "notes": self.notes,
        }


def compare_frames(
    bench: Benchmark,
    total_frames: int,
    fps: float,
    cues: Sequence[Cue],
    a: FramePlan,
    b: FramePlan,
    times: Callable[[Sequence[int]], Sequence[float]] | None = None,
) -> FrameComparison:
    """Plans `a` and `b` on a video of `total_frames` frames at `fps` with subtitle units `cues`; `times` gives
    the frames' presentation times (default index / fps)."""
    timing = times or (lambda indices: [index / fps for index in indices])
    sides = [_frames(bench, total_frames, fps, cues, plan, timing) for plan in (a, b)]
    a_rows, b_rows = sides
    a_lines, b_lines = _lines(a_rows), _lines(b_rows)
    comparison = FrameComparison(
        a,
        b,
        total_frames,
        fps,
        a_rows,
        b_rows,
        sorted({r.index for r in a_rows} & {r.index for r in b_rows}),
        [line for line in a_lines if line not in set(b_lines)],
        [line for line in b_lines if line not in set(a_lines)],
    )
    if not cues:
        comparison.notes.append("the video has no subtitles")
    return comparison


def _frames(
    bench: Benchmark,
    total: int,
    fps: float,
    cues: Sequence[Cue],
    plan: FramePlan,
    timing: Callable[[Sequence[int]], Sequence[float]],
) -> list[FrameRow]:
    from mathreel.core.media.frame_cache import SampledFrames

    try:
        indices = plan.sampling.indices(total, fps, plan.count)
    except ValueError as error:
        raise InputError("--plan", str(error)) from None
    times = tuple(float(t) for t in timing(indices))
    sampled = SampledFrames(Path(), total, fps, total / fps if fps else 0.0, tuple(indices), times, ())
    shown = bench.frame_cues(list(cues), sampled) if cues else [[] for _ in indices]
    return [
        FrameRow(index, time, tuple(cue.text for cue in at))
        for index, time, at in zip(indices, times, shown, strict=True)
    ]


def _lines(rows: Sequence[FrameRow]) -> list[str]:
    """Every subtitle text the frames see, once each, in order."""
    return list(dict.fromkeys(text for row in rows for text in row.subtitles))


def plans_to_compare(
    bench: Benchmark, plans: Sequence[FramePlan | None], given: Sequence[FramePlan] = ()
) -> tuple[FramePlan, FramePlan]:
    """A's and B's frame plans: the runs' detected `plans` (a run whose plan is not known takes the benchmark's
    default; one run is set against the default), replaced by `given` (one: B's; two: A's and B's)."""
    if len(given) > 2:
        raise InputError("--plan", "give at most two frame plans (A and B)")
    default = FramePlan(bench.default_frames, bench.frame_sampler)
    sides = [plan or default for plan in plans[:2]]
    if len(sides) < 2:
        sides += [default] * (2 - len(sides))
    if len(given) == 1:
        sides[1] = given[0]
    elif len(given) == 2:
        sides = list(given)
    return sides[0], sides[1]


def check_same_question(dataset: Dataset, question_id: str, result: ResultFile, name: str) -> None:
    """Refuse a question whose answer in `result` records a question that is not `dataset`'s of that id (the join
    rule, `core.results.question_join`; an answer recording no question text is taken to be it): that id's video
    is another question's, so its frames are not the frames the run's model saw."""
    from mathreel.core.results.question_join import join_question

    for prediction in result.predictions:
        if prediction.question.question_id == question_id and prediction.recorded is not None:
            join = join_question(prediction.recorded, question_id, dataset, by_id=True)
            if not join.on_server:
                raise InputError(name, f"question {question_id}: {join.reason}, so its video is not in this data set")
            return


def compare_on_question(dataset: Dataset, question_id: str, a: FramePlan, b: FramePlan) -> FrameComparison:
    """`compare_frames` on the video of one question of `dataset` (its frame count, rate, presentation times and
    subtitle units, read without decoding a frame)."""
    from mathreel.core.media.frames import open_video

    question = dataset.question(question_id)
    bench = dataset.bench
    if not question.video_id:
        raise InputError(question_id, f"{bench.title} questions have no video, so no frames to compare")
    path = dataset.video_path(question)
    if path is None:  # a benchmark with video ids always has a video path (or raises on a missing file)
        raise InputError(question_id, f"{bench.title} questions have no video, so no frames to compare")
    subtitles = dataset.subtitle_path(question)
    cues = list(bench.subtitle_cues(subtitles)) if subtitles is not None else []
    reader = open_video(path)
    try:
        comparison = compare_frames(bench, reader.total, reader.fps, cues, a, b, reader.times)
    finally:
        reader.close()
    comparison.notes.insert(0, f"question {question_id}, video {path.name}")
    return comparison
