"""What every frame reader shares: the interface, index checks, output-shape checks and one-line error text."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from mathreel.core.errors import InputError

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

_LOG_PREFIX = re.compile(r"^\[[^\]]*\]\s*\S+:\d+:\s*")  # decord's "[12:22:42] /src/video/x.cc:486: "


class FrameReader(Protocol):
    """A video opened by one decoder. Frame i means the i-th frame in presentation order, for every reader."""

    name: str
    source: str
    total: int
    fps: float
    # True when `frames` starts each target from the keyframe before it (any targets may go to any thread); False
    # when it decodes on from the start of the call (threads get contiguous runs)
    seeks_to_targets: bool

    def __len__(self) -> int: ...

    def keyframes(self) -> Sequence[int]: ...

    def times(self, indices: Sequence[int]) -> list[float]: ...

    def duration(self) -> float: ...

    def frames(self, indices: Sequence[int]) -> Iterator[tuple[int, np.ndarray]]: ...

    def reopen(self, decoder_threads: int = 0) -> FrameReader: ...

    def close(self) -> None: ...


class BadFrameShape(InputError):
    """A decoder returned an array that is not (H, W, 3) uint8 (decord does for videos a few pixels wide)."""


def check_sorted(indices: Sequence[int]) -> None:
    """Readers decode forward only: refuse indices that go backwards or repeat."""
    for before, after in itertools.pairwise(indices):
        if after <= before:
            raise ValueError(f"indices must be sorted and distinct, got {after} after {before}")


def ensure_shape(source: str, index: int, frame: np.ndarray) -> np.ndarray:
    """The frame, if it is an RGB uint8 image; otherwise a BadFrameShape naming the file and frame."""
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype.name != "uint8" or 0 in frame.shape:
        raise BadFrameShape(source, f"the decoder returned frame {index} with shape {frame.shape}, not an RGB image")
    return frame


def problem_line(error: BaseException) -> str:
    """The useful part of a decoder error: its first line, without log prefix, path or C++ stack trace."""
    for line in str(error).splitlines():
        line = _LOG_PREFIX.sub("", line.strip()).removeprefix("Error: ").strip()
        if line.startswith("Error reading "):
            return "FFmpeg cannot open it"
        if line and not line.startswith("Stack trace"):
            return line[:200]
    return type(error).__name__
