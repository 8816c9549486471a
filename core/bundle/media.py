"""What each question's page shows of what the model got: the prompt built with a run's settings, the sampled
frames as small shared JPEG thumbnails (index, time and the subtitle lines at each) or the diagram.

Thumbnails are named by a digest of their bytes under `frames/`, so a frame that two runs, two settings or two
questions of one video share is written once.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.core.errors import MathReelError

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.bundle.pages import Page
    from mathreel.core.data import Dataset
    from mathreel.core.view import ModelView, ViewSettings

THUMB_SIDE = 240  # px, longest side of a frame thumbnail: enough to read a board, small enough for 2,700 questions
THUMB_QUALITY = 70
DIAGRAM_SIDE = 640  # a MathVerse diagram is the whole question: shown larger


@dataclass(frozen=True)
class FrameThumb:
    file: str  # relative to the bundle root: frames/<digest>.jpg
    index: int
    time: float
    lines: tuple[str, ...]


@dataclass
class Shown:
    """The model's input under one group of settings (the runs that used it): prompt, frames or diagram, notes."""

    settings: ViewSettings
    runs: list[str]
    prompt: str = ""
    frames: list[FrameThumb] = field(default_factory=list)
    total_frames: int | None = None
    duration: float | None = None
    diagram: str = ""
    video: bool = False
    notes: list[str] = field(default_factory=list)


class Thumbs:
    """Writes thumbnails into `root/frames` once each; counts what it wrote."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.done: dict[tuple[str, int], str] = {}
        self.written = 0
        self.bytes = 0

    def of(self, source: Path, side: int = THUMB_SIDE) -> str:
        key = (str(source), side)
        found = self.done.get(key)
        if found is None:
            found = self.done[key] = self._write(source, side)
        return found

    def _write(self, source: Path, side: int) -> str:
        from PIL import Image

        with Image.open(source) as opened:
            image = opened.convert("RGB")
            image.thumbnail((side, side))
            buffer = io.BytesIO()
            image.save(buffer, "JPEG", quality=THUMB_QUALITY, optimize=True)
        data = buffer.getvalue()
        name = f"frames/{hashlib.sha256(data).hexdigest()[:20]}.jpg"
        target = self.root / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            self.written += 1
            self.bytes += len(data)
        return name


def shown_for(page: Page, dataset: Dataset, thumbs: Thumbs, style: str, fps: float | None, scrub) -> list[Shown]:
    """One `Shown` per distinct settings among the page's runs (usually one); [] when the page's question is not
    the dataset's (then there is nothing of the model's input to show but the file's own record)."""
    if page.question is None:
        return []
    groups: dict[ViewSettings, Shown] = {}
    for answer in page.answers:
        settings = answer.run.settings
        shown = groups.get(settings)
        if shown is None:
            shown = groups[settings] = Shown(settings, [])
            _fill(shown, page, dataset, thumbs, style, fps, scrub)
        shown.runs.append(answer.run.name)
    return list(groups.values())


def _fill(shown: Shown, page: Page, dataset: Dataset, thumbs: Thumbs, style: str, fps: float | None, scrub) -> None:
    from mathreel.core.view import build_view

    assert page.question is not None  # `shown_for` fills only pages with the dataset's question
    try:
        view = build_view(
            dataset, page.question, style=style, fps=fps, max_side=THUMB_SIDE, **shown.settings.view_kwargs()
        )
    except MathReelError as error:
        shown.notes.append(f"the model's input could not be rebuilt here: {scrub(str(error))}")
        return
    shown.prompt = view.prompt
    shown.video = bool(view.question.video_id)
    shown.notes += [scrub(note) for note in view.notes]
    try:
        _frames(shown, view, thumbs)
    except (MathReelError, OSError) as error:
        shown.notes.append(f"the frames could not be read: {scrub(str(error))}")


def _frames(shown: Shown, view: ModelView, thumbs: Thumbs) -> None:
    frames = view.frames
    if frames is not None:
        shown.total_frames, shown.duration = frames.total_frames, frames.duration
        cues = view.frame_cues or [[] for _ in frames.indices]
        for index, time, path, at in zip(frames.indices, frames.times, frames.paths, cues, strict=True):
            lines = tuple(line for cue in at for line in cue.text.splitlines())
            shown.frames.append(FrameThumb(thumbs.of(path), int(index), float(time), lines))
    elif view.question.video_id and not shown.notes:
        shown.notes.append("the video is not on the machine that wrote this bundle")
    if view.image_path is not None:
        shown.diagram = thumbs.of(view.image_path, DIAGRAM_SIDE)
