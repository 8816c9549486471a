"""H.264 writer on PyAV: real test videos and the demo set's clips come from here.

Why a writer at all: tests and the demo generator need real MP4 files that decord decodes exactly like a dataset's
videos, so we encode libx264 yuv420p (the most common layout in the benchmarks) rather than faking a decoder.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError

if TYPE_CHECKING:  # pragma: no cover - typing only
    import av
    import numpy as np

_VFR_TIME_BASE = Fraction(1, 90000)  # the MPEG clock: fine enough for any pts_seconds


def _rate(fps: float) -> Fraction:
    """A rational frame rate (25 -> 25/1, 29.97 -> 2997/100) that PyAV accepts."""
    if not fps > 0:
        raise InputError("write_h264", f"fps must be positive, got {fps!r}")
    return Fraction(str(fps)).limit_denominator(100000)


def _check_frame(
    path: Path, index: int, frame: np.ndarray, shape: tuple[int, ...] | None, pix_fmt: str
) -> tuple[int, ...]:
    """Reject frames libx264 yuv420p cannot take (odd sizes) and frames that change size mid-stream."""
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype.name != "uint8":
        raise InputError(str(path), f"frame {index} must be uint8 (H, W, 3), got {frame.dtype} {frame.shape}")
    height, width = frame.shape[:2]
    if pix_fmt == "yuv420p" and (height % 2 or width % 2):
        raise InputError(
            str(path),
            f"frame {index} is {width}x{height}; yuv420p needs an even width and height (yuv444p takes any size)",
        )
    if shape is not None and frame.shape != shape:
        raise InputError(str(path), f"frame {index} is {frame.shape}, earlier frames were {shape}")
    return frame.shape


def write_h264(
    path: str | Path,
    frames: Iterable[np.ndarray],
    fps: float,
    *,
    gop: int = 250,
    crf: int = 28,
    pts_seconds: Sequence[float] | None = None,
    preset: str = "veryfast",
    pix_fmt: str = "yuv420p",
    bframes: int | None = None,
    rotation: int = 0,
) -> Path:
    """Encode RGB uint8 frames (H, W, 3) as an H.264 (libx264, yuv420p) MP4 and return its path.

    `gop` is the keyframe interval, `crf` the quality (lower = better). `pts_seconds` gives each frame's
    presentation time for a variable-frame-rate video (strictly increasing, one per frame); without it frame i is
    shown at i / fps. `pix_fmt` "yuv444p" allows odd sizes; `bframes` sets the B-frame count (None: the preset's);
    `rotation` (degrees) writes display-rotation metadata (needs PyAV 18+). One encoder thread and no scene-cut
    keyframes keep the output byte-identical run to run.
    """
    import av

    path = Path(path)
    rate = _rate(fps)
    if pix_fmt not in ("yuv420p", "yuv444p"):
        raise InputError(str(path), f"pix_fmt must be yuv420p or yuv444p, got {pix_fmt!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=rate)
        stream.pix_fmt = pix_fmt
        stream.codec_context.thread_count = 1
        stream.codec_context.thread_type = "NONE"
        # dict[str, Any]: PyAV types `options` as dict[str, str] in one release and dict[str, object] in another
        options: dict[str, Any] = {
            "crf": str(crf),
            "preset": preset,
            "g": str(gop),
            "keyint_min": str(gop),
            "sc_threshold": "0",
            "threads": "1",
        }
        stream.options = options if bframes is None else {**options, "bf": str(bframes)}
        if rotation:
            stream.set_display_rotation(rotation)
        time_base = _VFR_TIME_BASE if pts_seconds is not None else 1 / rate
        stream.codec_context.time_base = time_base
        stream.time_base = time_base
        count = _encode_all(container, stream, path, frames, pts_seconds, pix_fmt)
    if count == 0:
        path.unlink(missing_ok=True)
        raise InputError(str(path), "no frames to write")
    return path


def _encode_all(
    container: av.container.OutputContainer,
    stream: av.video.stream.VideoStream,
    path: Path,
    frames: Iterable[np.ndarray],
    pts_seconds: Sequence[float] | None,
    pix_fmt: str,
) -> int:
    """Feed every frame to the encoder, then flush it; returns the number of frames written."""
    from av import VideoFrame

    shape = None
    count = 0
    last_pts = -1
    for count, frame in enumerate(frames, start=1):
        index = count - 1
        shape = _check_frame(path, index, frame, shape, pix_fmt)
        if count == 1:
            stream.height, stream.width = shape[:2]
        video_frame = VideoFrame.from_ndarray(frame, format="rgb24")
        video_frame.pts = _pts(path, index, pts_seconds, last_pts)
        last_pts = video_frame.pts
        container.mux(stream.encode(video_frame))
    if pts_seconds is not None and count != len(pts_seconds):
        raise InputError(str(path), f"{len(pts_seconds)} pts_seconds for {count} frames")
    if count:
        container.mux(stream.encode(None))
    return count


def _pts(path: Path, index: int, pts_seconds: Sequence[float] | None, last_pts: int) -> int:
    """Frame `index`'s pts in the stream's time base: its index at a constant rate, else its time in 1/90000 s."""
    if pts_seconds is None:
        return index
    if index >= len(pts_seconds):
        raise InputError(str(path), f"more frames than the {len(pts_seconds)} pts_seconds given")
    pts = round(pts_seconds[index] / _VFR_TIME_BASE)
    if pts <= last_pts:
        raise InputError(str(path), f"pts_seconds must increase strictly; frame {index} is at {pts_seconds[index]}")
    return pts


_BIT_COLS, _BIT_ROWS = 5, 4  # 20 bits: frame numbers up to 1,048,575 (an hour at 25 fps is 90,000)


def _bit_cell(height: int, width: int) -> int:
    """Side of one bit's square: the bit grid fills at most the left half of the frame."""
    cell = min((width // 2) // _BIT_COLS, height // _BIT_ROWS)
    if cell < 4:
        raise InputError("numbered_frame", f"{width}x{height} is too small for the frame-number pattern")
    return cell


def numbered_frame(index: int, height: int, width: int) -> np.ndarray:
    """A synthetic RGB frame that says which frame it is, so tests and benches can prove exact decoding.

    The left half carries `index` as a 5x4 grid of black/white squares (bit 0 at the top left); the right half is a
    gradient that scrolls with `index` and the background colour cycles, so the encoder sees real motion.
    """
    import numpy as np

    cell = _bit_cell(height, width)
    frame = np.empty((height, width, 3), np.uint8)
    frame[:] = ((index * 7) % 200 + 30, (index * 13) % 200 + 30, (index * 29) % 200 + 30)
    columns = (np.arange(width // 2, width) * 2 + index * 4) % 256
    frame[:, width // 2 :, 1] = columns.astype(np.uint8)
    for bit in range(_BIT_COLS * _BIT_ROWS):
        row, col = divmod(bit, _BIT_COLS)
        frame[row * cell : (row + 1) * cell, col * cell : (col + 1) * cell] = 255 if index >> bit & 1 else 0
    return frame


def frame_number(frame: np.ndarray) -> int:
    """Read back the number `numbered_frame` drew (the centre of each square, thresholded at mid-grey)."""
    height, width = frame.shape[:2]
    cell = _bit_cell(height, width)
    inset = cell // 4
    number = 0
    for bit in range(_BIT_COLS * _BIT_ROWS):
        row, col = divmod(bit, _BIT_COLS)
        top, left = row * cell + inset, col * cell + inset
        centre = frame[top : top + cell - 2 * inset, left : left + cell - 2 * inset]
        number |= int(centre.mean() > 127) << bit
    return number
