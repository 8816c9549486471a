"""A demo video as data: size, length, frame rate, a frame renderer and the narration cues.

Scenes render a PIL image for a time t; `encode_clip` samples that at the clip's frame rate and hands the frames to
`core.media.writer.write_h264`. The SRT is written from the same cues, so subtitles and pictures share one clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

# Small, slowly changing frames compress to a few kB per second at this quality.
CRF = 30
GOP = 250


@dataclass(frozen=True)
class Cue:
    """One subtitle line: shown from `start` to `end` seconds."""

    start: float
    end: float
    text: str


@dataclass(frozen=True)
class Clip:
    """Everything needed to write one demo video and its subtitles."""

    video_id: str
    duration: float
    fps: float
    size: tuple[int, int]
    render: Callable[[float], Image.Image]
    cues: tuple[Cue, ...]

    @property
    def frame_count(self) -> int:
        return round(self.duration * self.fps)


def _timestamp(seconds: float) -> str:
    """SRT time: HH:MM:SS,mmm."""
    millis = round(seconds * 1000)
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d},{millis:03d}"


def srt_text(cues: Sequence[Cue]) -> str:
    """The cues as an SRT document (numbered from 1, blank line between cues)."""
    blocks = [f"{i}\n{_timestamp(c.start)} --> {_timestamp(c.end)}\n{c.text}\n" for i, c in enumerate(cues, 1)]
    return "\n".join(blocks)


def cues(*items: tuple[float, float, str]) -> tuple[Cue, ...]:
    """Build cues from (start, end, text) triples, checking they are in time order and do not overlap."""
    result = tuple(Cue(*item) for item in items)
    for before, after in pairwise(result):
        if not (before.start < before.end <= after.start < after.end):
            raise ValueError(f"cues out of order or overlapping: {before} / {after}")
    return result


def script(text: str) -> tuple[Cue, ...]:
    """Cues from a narration written like a transcript, one cue a line: `start end words` (seconds, seconds, the
    rest of the line), blank lines ignored; so a scene declares its narration as text rather than as tuples."""
    items = []
    for line in text.splitlines():
        if line.strip():
            start, end, words = line.strip().split(maxsplit=2)
            items.append((float(start), float(end), words))
    return cues(*items)


def _frames(clip: Clip) -> Iterator[np.ndarray]:
    import numpy as np

    for index in range(clip.frame_count):
        image = clip.render(index / clip.fps)
        if image.size != clip.size:
            raise ValueError(f"{clip.video_id}: frame {index} is {image.size}, expected {clip.size}")
        yield np.asarray(image.convert("RGB"), dtype=np.uint8)


def encode_clip(clip: Clip, path: Path) -> Path:
    """Render every frame of `clip` and write it as H.264 MP4 at `path`."""
    from mathreel.core.media.writer import write_h264

    if clip.cues and clip.cues[-1].end > clip.duration:
        raise ValueError(f"{clip.video_id}: narration runs past the end of the video")
    return write_h264(path, _frames(clip), clip.fps, gop=GOP, crf=CRF)
