"""Uniformly sampled video frames on decord, with a disk cache of JPEGs.

Why this module: the reference loaders either decode a whole video into memory or decode sequentially up to the
last sampled frame. Here only the sampled frames are decoded (forward from the nearest keyframe), one at a time, so
memory is bounded by the frame size, not the video's length; each one is written as a JPEG to a cache entry that
a later call reads without opening the video at all.

Cache layout: `<cache>/frames/<key>/` holding `manifest.json` and one `NNNNNNN.jpg` per distinct sampled frame.
`<cache>` is `cache_dir`, else `core.cache.cache_root()` ($MATHREEL_CACHE, $XDG_CACHE_HOME/mathreel or
~/.cache/mathreel). The key is a SHA-256 of the video's
identity (resolved path, size in bytes, mtime in nanoseconds), the number of frames asked for, `max_side` and the
cache format version: editing or replacing the video changes its size or mtime and therefore the key. An entry is
built in a temporary folder beside it and renamed into place in one step, so a concurrent reader sees either no
entry or a complete one.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import InputError

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

CACHE_FORMAT = 1  # bump when the manifest or the JPEG settings change, so old entries are not reused
JPEG_QUALITY = 90
MANIFEST = "manifest.json"
_LOG_PREFIX = re.compile(r"^\[[^\]]*\]\s*\S+:\d+:\s*")  # decord's "[12:22:42] /src/video/x.cc:486: "


def uniform_indices(total: int, n: int) -> list[int]:
    """The reference harness's sampling: `np.linspace(0, total - 1, n, dtype=int)`; n = -1 means every frame.

    As in the reference, n > total repeats indices (the model is sent repeated frames).
    """
    import numpy as np

    if total < 1:
        raise ValueError(f"a video needs at least one frame, got total={total}")
    if n == -1:
        n = total
    if n < 1:
        raise ValueError(f"number of frames must be -1 or at least 1, got {n}")
    return np.linspace(0, total - 1, n, dtype=int).tolist()


@dataclass(frozen=True)
class SampledFrames:
    """The frames a model is shown: where they sit in the video and the cached JPEG of each.

    `indices[i]`, `times[i]` (seconds, decord's presentation time) and `paths[i]` describe sampled frame i;
    repeated indices (n > total frames) share one JPEG.
    """

    video_path: Path
    total_frames: int
    fps: float
    duration: float
    indices: tuple[int, ...]
    times: tuple[float, ...]
    paths: tuple[Path, ...]

    def __len__(self) -> int:
        return len(self.indices)

    def jpeg_bytes(self, i: int) -> bytes:
        """The JPEG of sampled frame i, as sent to a model (e.g. in a data URL)."""
        return self.paths[i].read_bytes()

    def arrays(self) -> list[np.ndarray]:
        """The sampled frames as RGB uint8 arrays, decoded from the cached JPEGs on demand (what the model sees)."""
        import numpy as np
        from PIL import Image

        decoded: dict[Path, np.ndarray] = {}
        for path in self.paths:
            if path not in decoded:
                with Image.open(path) as image:
                    decoded[path] = np.asarray(image.convert("RGB"))
        return [decoded[path] for path in self.paths]


def cache_root(cache_dir: str | Path | None = None) -> Path:
    """The folder holding frame cache entries: `<cache_dir, else core.cache.cache_root()>/frames`."""
    from core.cache import cache_root as shared_root

    return Path(cache_dir).expanduser() / "frames" if cache_dir else shared_root() / "frames"


def sample_frames(
    video_path: str | Path,
    num_frames: int,
    *,
    max_side: int | None = None,
    cache_dir: str | Path | None = None,
) -> SampledFrames:
    """Sample `num_frames` frames uniformly (-1 = every frame), resized so the longest side is <= `max_side`.

    A cached entry is returned without opening the video; otherwise only the sampled frames are decoded.
    Raises InputError naming the file when the video is missing, corrupt or not a video.
    """
    path = Path(video_path)
    _check_request(path, num_frames, max_side)
    identity = _identity(path)
    entry = cache_root(cache_dir) / _cache_key(identity, num_frames, max_side)
    cached = _load_entry(entry, identity)
    if cached is not None:
        return cached
    return _build_entry(path, entry, identity, num_frames, max_side)


def _check_request(path: Path, num_frames: int, max_side: int | None) -> None:
    """Reject a bad frame count or size before touching the cache or the decoder."""
    if isinstance(num_frames, bool) or not isinstance(num_frames, int) or (num_frames < 1 and num_frames != -1):
        raise InputError(str(path), f"number of frames must be -1 (all) or a positive integer, got {num_frames!r}")
    if max_side is not None and (isinstance(max_side, bool) or not isinstance(max_side, int) or max_side < 1):
        raise InputError(str(path), f"max_side must be a positive integer, got {max_side!r}")


def _identity(path: Path) -> dict[str, Any]:
    """What makes a video 'the same file' for the cache: resolved path, size and modification time (ns)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise InputError(str(path), "video file not found") from None
    except OSError as error:
        raise InputError(str(path), f"cannot read video file: {error.strerror}") from None
    if not path.is_file():
        raise InputError(str(path), "not a video file (it is a directory or a device)")
    return {"video": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _cache_key(identity: dict[str, Any], num_frames: int, max_side: int | None) -> str:
    """A stable folder name for (video identity, N, max_side, cache format)."""
    fields = {**identity, "num_frames": num_frames, "max_side": max_side, "format": CACHE_FORMAT}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:32]


def _load_entry(entry: Path, identity: dict[str, Any]) -> SampledFrames | None:
    """A complete cache entry for this exact file, or None (absent, other file, damaged or files missing)."""
    complete = _complete_entry(entry)
    if complete is None:
        return None
    manifest, frames = complete
    if not isinstance(manifest, dict) or any(manifest.get(key) != value for key, value in identity.items()):
        return None  # a (vanishingly unlikely) key collision with another file
    return frames


def _complete_entry(entry: Path) -> tuple[dict[str, Any], SampledFrames] | None:
    """(manifest, frames) when the entry's manifest parses and every JPEG it lists exists, else None."""
    try:
        manifest = json.loads((entry / MANIFEST).read_text(encoding="utf-8"))
        frames = _frames_from_manifest(entry, manifest)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not all(path.is_file() for path in set(frames.paths)):
        return None
    return manifest, frames


def _frames_from_manifest(entry: Path, manifest: dict[str, Any]) -> SampledFrames:
    """Rebuild SampledFrames from a manifest (paths are stored relative to the entry)."""
    return SampledFrames(
        video_path=Path(manifest["video"]),
        total_frames=int(manifest["total_frames"]),
        fps=float(manifest["fps"]),
        duration=float(manifest["duration"]),
        indices=tuple(int(i) for i in manifest["indices"]),
        times=tuple(float(t) for t in manifest["times"]),
        paths=tuple(entry / name for name in manifest["files"]),
    )


def _frame_file(index: int) -> str:
    return f"{index:07d}.jpg"


def _build_entry(
    path: Path, entry: Path, identity: dict[str, Any], num_frames: int, max_side: int | None
) -> SampledFrames:
    """Decode the sampled frames into a temporary folder, then rename it into place as the cache entry."""
    reader = open_video(path)
    total = len(reader)
    indices = uniform_indices(total, num_frames)
    stamps = _timestamps(path, reader, indices)
    manifest = {
        **identity,
        "num_frames": num_frames,
        "max_side": max_side,
        "format": CACHE_FORMAT,
        "total_frames": total,
        "fps": float(reader.get_avg_fps()),
        "duration": _duration(path, reader, total),
        "indices": indices,
        "times": stamps,
        "files": [_frame_file(i) for i in indices],
    }
    entry.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=entry.parent))
    try:
        for index, frame in read_exact_frames(reader, sorted(set(indices)), source=str(path)):
            _write_jpeg(building / _frame_file(index), frame, max_side)
        (building / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        _publish(building, entry)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return _frames_from_manifest(entry, manifest)


def _publish(building: Path, entry: Path) -> None:
    """Move a finished entry into place atomically; if another process got there first, keep theirs."""
    for attempt in range(2):
        try:
            building.rename(entry)
            return
        except OSError:
            if _complete_entry(entry) is not None:
                return  # an equivalent entry (same key) finished first
            if attempt == 0:
                shutil.rmtree(entry, ignore_errors=True)  # a damaged entry left by a crash: replace it
    raise InputError(str(entry), "cannot write the frame cache entry")


def open_video(path: str | Path) -> Any:
    """A decord VideoReader on `path`, or InputError naming the file when it is not a decodable video."""
    import decord

    path = Path(path)
    if not path.is_file():
        raise InputError(str(path), "video file not found")
    try:
        reader = decord.VideoReader(str(path), ctx=decord.cpu(0))  # decoder threads: FFmpeg's choice
    except Exception as error:  # decord raises DECORDError, RuntimeError or AssertionError for bad files
        problem = f"not a readable video: corrupt, truncated or not a video at all ({_first_line(error)})"
        raise InputError(str(path), problem) from None
    if len(reader) < 1:
        raise InputError(str(path), "the video has no frames")
    return reader


def _first_line(error: BaseException) -> str:
    """The useful part of a decord/FFmpeg error: its first line, without the log prefix, path or C++ stack trace."""
    for line in str(error).splitlines():
        line = _LOG_PREFIX.sub("", line.strip()).removeprefix("Error: ").strip()
        if line.startswith("Error reading "):
            return "FFmpeg cannot open it"
        if line and not line.startswith("Stack trace"):
            return line[:200]
    return type(error).__name__


def _timestamps(path: Path, reader: Any, indices: Sequence[int]) -> list[float]:
    """Each sampled frame's presentation time in seconds (decord's per-frame timestamps, so VFR is right)."""
    try:
        stamps = reader.get_frame_timestamp(list(indices))
    except Exception as error:
        raise InputError(str(path), f"cannot read frame timestamps ({_first_line(error)})") from None
    return [round(float(start), 6) for start in stamps[:, 0]]


def _duration(path: Path, reader: Any, total: int) -> float:
    """Seconds from the first frame's start to the last frame's end."""
    last_end = float(_timestamp_pair(path, reader, total - 1)[1])
    first_start = float(_timestamp_pair(path, reader, 0)[0])
    if last_end > first_start:
        return round(last_end - first_start, 6)
    fps = float(reader.get_avg_fps())
    return round(total / fps, 6) if fps > 0 else 0.0


def _timestamp_pair(path: Path, reader: Any, index: int) -> Any:
    try:
        return reader.get_frame_timestamp([index])[0]
    except Exception as error:
        raise InputError(str(path), f"cannot read frame timestamps ({_first_line(error)})") from None


def read_exact_frames(reader: Any, indices: Sequence[int], *, source: str = "video") -> Iterator[tuple[int, Any]]:
    """Yield (index, RGB uint8 array) for sorted, distinct `indices`, decoding forward from the nearest keyframe.

    For each target, decord's `skip_frames` seeks to the last keyframe at or before the target only when one lies
    between the current position and the target; otherwise it keeps decoding forward, discarding the frames in
    between without converting them to RGB. One frame is held at a time. Unlike `get_batch`, no rewind to the
    start and no extra keyframe decode happens before each seek.
    """
    position = _reader_position(reader)
    for index in indices:
        if index < position:
            raise ValueError(f"indices must be sorted and distinct, got {index} after {position - 1}")
        try:
            if index > position:
                reader.skip_frames(index - position)
            frame = reader.next()
        except StopIteration:
            raise InputError(source, f"the video ends before frame {index} of the {len(reader)} it declares") from None
        except Exception as error:
            raise InputError(source, f"cannot decode frame {index} ({_first_line(error)})") from None
        position = index + 1
        yield index, frame.asnumpy()


def _reader_position(reader: Any) -> int:
    """A fresh decord reader stands at frame 0; rewind explicitly in case it was used before."""
    reader.seek(0)
    return 0


def _write_jpeg(path: Path, frame: np.ndarray, max_side: int | None) -> None:
    """Save one frame as a JPEG, shrunk (never enlarged) so that its longest side is at most `max_side`."""
    from PIL import Image

    image = Image.fromarray(frame)
    size = resized_size(image.width, image.height, max_side)
    if size != (image.width, image.height):
        image = image.resize(size, Image.Resampling.BICUBIC, reducing_gap=2.0)
    image.save(path, "JPEG", quality=JPEG_QUALITY)


def resized_size(width: int, height: int, max_side: int | None) -> tuple[int, int]:
    """(width, height) scaled down to fit `max_side` on the longest side, keeping the aspect ratio."""
    longest = max(width, height)
    if max_side is None or longest <= max_side:
        return width, height
    scale = max_side / longest
    return max(1, round(width * scale)), max(1, round(height * scale))
