"""The PyAV frame reader: installs on every platform (PyAV ships FFmpeg in its wheels) and seeks per target.

Why it looks like this: decord numbers frames by sorting the video stream's packets by presentation time. We build
the same numbering by demuxing the packets once (no decoding), so both readers agree on what "frame 1234" is. To
decode a target we seek to the keyframe at or before it and decode forward, converting only the target to RGB.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError
from mathreel.core.media.reader_base import check_sorted, ensure_shape, problem_line

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np


@dataclass(frozen=True)
class PacketIndex:
    """Every frame's pts (sorted: frame i has pts `pts[i]`), keyframe frame numbers, and the end of the last frame."""

    pts: tuple[int, ...]
    keyframes: tuple[int, ...]
    end_pts: int


def _silence_ffmpeg() -> None:
    """FFmpeg's own log lines (e.g. "moov atom not found") would print before MathReel's one clear line."""
    import av.logging

    try:
        av.logging.set_level(None)  # FFmpeg's log callback off: nothing printed
    except (TypeError, ValueError):  # an older PyAV without the None level
        av.logging.set_level(av.logging.PANIC)


def _index_packets(container: Any, stream: Any) -> PacketIndex:
    """Demux (not decode) the stream once: the frame numbering, the keyframes and where the last frame ends."""
    entries = []
    for packet in container.demux(stream):
        if packet.size and packet.pts is not None:
            entries.append((packet.pts, bool(packet.is_keyframe), packet.duration or 0))
    entries.sort()
    pts = tuple(entry[0] for entry in entries)
    keyframes = tuple(i for i, entry in enumerate(entries) if entry[1]) or (0,)
    end_pts = entries[-1][0] + entries[-1][2] if entries else 0
    return PacketIndex(pts, keyframes, end_pts)


class PyAVReader:
    """A video opened with PyAV; `frames` yields exact RGB frames, `reopen` gives an independent container."""

    name = "pyav"
    seeks_to_targets = True

    def __init__(self, path: Path, index: PacketIndex | None = None, decoder_threads: int = 0) -> None:
        import av
        from av.error import FFmpegError

        _silence_ffmpeg()
        self.source = str(path)
        self._path = path
        self._threads = decoder_threads
        try:
            self._container = av.open(str(path))
            self._stream = self._container.streams.video[0]
            self._index = index or _index_packets(self._container, self._stream)
        except (FFmpegError, IndexError, OSError, ValueError) as error:
            problem = f"not a readable video: corrupt, truncated or not a video at all ({problem_line(error)})"
            raise InputError(self.source, problem) from None
        if not self._index.pts:
            raise InputError(self.source, "the video has no frames")
        self._configure_threads()
        self.total = len(self._index.pts)
        rate = self._stream.average_rate or self._stream.guessed_rate
        self.fps = float(rate) if rate else 0.0
        self._time_base = float(self._stream.time_base or 0)

    def _configure_threads(self) -> None:
        """Frame threading uses the cores the caller gives this decoder (0 = FFmpeg's choice, 1 = none)."""
        context = self._stream.codec_context
        context.thread_count = self._threads
        context.thread_type = "NONE" if self._threads == 1 else "AUTO"

    def __len__(self) -> int:
        return self.total

    def reopen(self, decoder_threads: int = 0) -> PyAVReader:
        """Another container on the same file (for a worker thread), reusing the packet index."""
        return PyAVReader(self._path, self._index, decoder_threads)

    def close(self) -> None:
        self._container.close()

    def keyframes(self) -> Sequence[int]:
        return self._index.keyframes

    def times(self, indices: Sequence[int]) -> list[float]:
        """Each frame's presentation time in seconds (pts x time base, as decord reports it)."""
        return [round(self._index.pts[i] * self._time_base, 6) for i in indices]

    def duration(self) -> float:
        """Seconds from the first frame's start to the last frame's end."""
        span = (self._index.end_pts - self._index.pts[0]) * self._time_base
        if span > 0:
            return round(span, 6)
        return round(self.total / self.fps, 6) if self.fps > 0 else 0.0

    def frames(self, indices: Sequence[int]) -> Iterator[tuple[int, np.ndarray]]:
        """(index, RGB uint8 array) for sorted distinct `indices`: seek only when a keyframe lies ahead."""
        from av.error import FFmpegError

        check_sorted(indices)
        decoded: Iterator[Any] | None = None
        position = -1  # the frame number the decoder last produced
        try:
            for index in indices:
                keyframe = self._index.keyframes[bisect.bisect_right(self._index.keyframes, index) - 1]
                if decoded is None or keyframe > position:
                    self._container.seek(self._index.pts[keyframe], stream=self._stream, backward=True)
                    decoded = self._container.decode(self._stream)
                frame = self._decode_until(decoded, self._index.pts[index], index)
                position = index
                yield index, ensure_shape(self.source, index, frame.to_ndarray(format="rgb24"))
        except FFmpegError as error:
            raise InputError(self.source, f"cannot decode the video ({problem_line(error)})") from None

    def _decode_until(self, decoded: Iterator[Any], target_pts: int, index: int) -> Any:
        """Decode forward to the frame presented at `target_pts`; earlier frames are dropped unconverted."""
        for frame in decoded:
            if frame.pts is None or frame.pts < target_pts:
                continue
            if frame.pts == target_pts:
                return frame
            break
        raise InputError(self.source, f"the video ends or skips before frame {index} of the {self.total} it declares")
