"""A 3-second H.264 clip (10 fps, 30 frames of rising grey) and SRT cues timed against its frames, for the view
tests and `mathreel show`'s tests."""

from __future__ import annotations

import numpy as np

from mathreel.core.media.writer import write_h264

FPS = 10
TOTAL = 30  # 3 s
# Cue text -> (start, end) seconds. With 4 frames the times are 0.0, 0.9, 1.9, 2.9 s: "two" covers no frame.
CUES = {"one": (0.0, 1.0), "two": (1.0, 1.5), "three": (1.5, 2.0), "four": (2.5, 3.0)}


def srt_time(seconds: float) -> str:
    ms = round(seconds * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def write_srt(path, cues: dict[str, tuple[float, float]]) -> None:
    blocks = [f"{i}\n{srt_time(s)} --> {srt_time(e)}\n{text}\n" for i, (text, (s, e)) in enumerate(cues.items(), 1)]
    path.write_text("\n".join(blocks), encoding="utf-8")


def write_video(path) -> None:
    frames = (np.full((48, 64, 3), 8 * i, dtype=np.uint8) for i in range(TOTAL))
    write_h264(path, frames, FPS)


def covering(t: float) -> list[str]:
    return [text for text, (start, end) in CUES.items() if start <= t < end]
