"""Where the sampled frames sit in a video: the three rules the reference harnesses use.

- "uniform": `np.linspace(0, total - 1, n, dtype=int)`, first and last frame included (lmms-eval's loaders).
- "midpoints": `int(i * total / (n + 1))` for i = 1..n, so neither the first nor the last frame is taken
  (Video-MME-v2's official script and VLMEvalKit with a frame count).
- "fps": one frame every `video_fps / fps` frames from frame 0, `int(total / video_fps * fps)` of them
  (Video-MME-v2's official script with `--fps`). There the frame count is a cap: a sample longer than the cap keeps
  `cap` of its frames, evenly spread, and `describe` says so.

Why a module: the frame cache, the progressive gallery and the view must place frames identically, and a
benchmark names its rule (`Benchmark.frame_sampler`) instead of re-deriving indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RULES = ("uniform", "midpoints", "fps")


@dataclass(frozen=True)
class Sampling:
    """A placement rule; `fps` is the rate of the "fps" rule."""

    rule: str = "uniform"
    fps: float | None = None

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"unknown frame sampling {self.rule!r}; choose one of {', '.join(RULES)}")
        if (self.rule == "fps") != (self.fps is not None):
            raise ValueError("the fps rule needs a rate, and only it takes one")
        if self.fps is not None and not self.fps > 0:
            raise ValueError(f"frames per second must be above zero, got {self.fps!r}")

    def cache_fields(self) -> dict[str, Any]:
        """What the frame cache key adds for this rule (nothing for "uniform", so existing entries stay valid)."""
        if self.rule == "uniform":
            return {}
        return {"sampling": self.rule, **({"sample_fps": self.fps} if self.fps is not None else {})}

    def indices(self, total: int, video_fps: float, count: int) -> list[int]:
        """The frame indices for a video of `total` frames at `video_fps`; `count` frames (-1: every frame), or at
        most `count` for the "fps" rule (-1: no cap)."""
        if total < 1:
            raise ValueError(f"a video needs at least one frame, got total={total}")
        if count == -1 and self.rule != "fps":
            return list(range(total))
        if count < 1 and count != -1:
            raise ValueError(f"number of frames must be -1 or at least 1, got {count}")
        if self.rule == "uniform":
            return uniform_indices(total, count)
        if self.rule == "midpoints":
            step = total / (count + 1)
            return [int(i * step) for i in range(1, count + 1)]
        return capped(fps_indices(total, video_fps, self.fps or 0.0), count)

    def describe(self, count: int) -> str:
        """ "64 frames at len/(n+1) steps", "1 frame per second (at most 512)"."""
        if self.rule == "fps":
            cap = "" if count == -1 else f" (at most {count})"
            return f"{self.fps:g} frame{'s' if self.fps != 1 else ''} per second{cap}"
        frames = "every frame" if count == -1 else f"{count} frames"
        return frames if self.rule == "uniform" or count == -1 else f"{frames} at len/(n+1) steps"


UNIFORM = Sampling()


def uniform_indices(total: int, n: int) -> list[int]:
    """`np.linspace(0, total - 1, n, dtype=int)`; as in the reference, n > total repeats indices."""
    import numpy as np

    return np.linspace(0, total - 1, n, dtype=int).tolist()


def fps_indices(total: int, video_fps: float, fps: float) -> list[int]:
    """The official fps rule: `int(duration * fps)` frames, `video_fps / fps` frames apart, from frame 0."""
    if video_fps <= 0:
        raise ValueError("the video reports no frame rate, so frames cannot be taken at a fixed rate")
    required = int(total / video_fps * fps)
    step = video_fps / fps
    return [int(i * step) for i in range(required)]


def capped(indices: list[int], cap: int) -> list[int]:
    """At most `cap` of `indices` (-1: all), evenly spread: position `int(j * len / cap)` for j = 0..cap-1."""
    if cap == -1 or len(indices) <= cap:
        return indices
    return [indices[int(j * len(indices) / cap)] for j in range(cap)]
