"""The decord frame reader: the reference harness's decoder, used wherever its wheel installs.

Why forward decoding: `get_batch` rewinds and decodes an extra keyframe before each seek. Here decord's
`skip_frames` seeks to the last keyframe before a target only when one lies between the current position and the
target; otherwise it decodes forward, discarding the frames in between without converting them to RGB.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError
from mathreel.core.media.reader_base import check_sorted, ensure_shape, problem_line

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np


def _silence_decord() -> None:
    """decord's bundled FFmpeg logs "[mov,mp4 @ 0x..] moov atom not found" to stderr before our one line."""
    import decord.logging

    decord.logging.set_level(decord.logging.QUIET)


_STDERR_LOCK = threading.Lock()


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to the null device while decord opens a file.

    decord's C++ code logs "[12:22:42] video_reader.cc:83: ERROR opening ..." straight to descriptor 2, whatever its
    log level; MathReel reports the same problem in its one line. Only the open is wrapped (it is short), so other
    threads' stderr is muted for milliseconds at most and decoding threads are never serialised by the lock.
    """
    with _STDERR_LOCK:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            with open(os.devnull, "wb") as null:
                os.dup2(null.fileno(), 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class DecordReader:
    """A decord VideoReader behind the common reader interface."""

    name = "decord"
    seeks_to_targets = False

    def __init__(self, path: Path, decoder_threads: int = 0) -> None:
        import decord

        _silence_decord()
        self.source = str(path)
        self._path = path
        try:
            with _quiet_stderr():
                self._reader = decord.VideoReader(str(path), ctx=decord.cpu(0), num_threads=decoder_threads)
        except Exception as error:  # decord raises DECORDError, RuntimeError or AssertionError for bad files
            problem = f"not a readable video: corrupt, truncated or not a video at all ({problem_line(error)})"
            raise InputError(self.source, problem) from None
        self.total = len(self._reader)
        if self.total < 1:
            raise InputError(self.source, "the video has no frames")
        self.fps = float(self._reader.get_avg_fps())

    def __len__(self) -> int:
        return self.total

    def probe(self) -> None:
        """Decode frame 0 and check its shape: decord returns garbage shapes for videos a few pixels wide."""
        for _ in self.frames([0]):
            pass

    def reopen(self, decoder_threads: int = 0) -> DecordReader:
        return DecordReader(self._path, decoder_threads)

    def close(self) -> None:
        self._reader = None

    def keyframes(self) -> Sequence[int]:
        return [int(i) for i in self._reader.get_key_indices()] or [0]

    def times(self, indices: Sequence[int]) -> list[float]:
        """Each frame's presentation time in seconds (decord's per-frame timestamps, so VFR is right)."""
        if not indices:
            return []
        return [round(float(start), 6) for start in self._stamps(list(indices))[:, 0]]

    def duration(self) -> float:
        """Seconds from the first frame's start to the last frame's end."""
        last_end = float(self._stamps([self.total - 1])[0][1])
        first_start = float(self._stamps([0])[0][0])
        if last_end > first_start:
            return round(last_end - first_start, 6)
        return round(self.total / self.fps, 6) if self.fps > 0 else 0.0

    def _stamps(self, indices: list[int]) -> Any:
        try:
            return self._reader.get_frame_timestamp(indices)
        except Exception as error:
            raise InputError(self.source, f"cannot read frame timestamps ({problem_line(error)})") from None

    def frames(self, indices: Sequence[int]) -> Iterator[tuple[int, np.ndarray]]:
        """(index, RGB uint8 array) for sorted distinct `indices`, one frame held at a time."""
        check_sorted(indices)
        self._reader.seek(0)
        position = 0
        for index in indices:
            try:
                if index > position:
                    self._reader.skip_frames(index - position)
                frame = self._reader.next()
            except StopIteration:
                raise InputError(
                    self.source, f"the video ends before frame {index} of the {self.total} it declares"
                ) from None
            except Exception as error:
                raise InputError(self.source, f"cannot decode frame {index} ({problem_line(error)})") from None
            position = index + 1
            yield index, ensure_shape(self.source, index, frame.asnumpy())


def decord_installed() -> bool:
    """True when decord imports (its wheel exists only for Linux x86-64 and Windows)."""
    try:
        import decord  # noqa: F401
    except ImportError:
        return False
    return True
