"""Uniformly sampled video frames, decoded exactly (decord or PyAV) into a disk cache of JPEGs.

Why this module: the reference loaders either decode a whole video into memory or decode sequentially up to the
last sampled frame. Here only the sampled frames are decoded (forward from the nearest keyframe, split across
free cores), one frame per worker at a time, so memory is bounded by the frame size, not the video's length; each
one is written as a JPEG to a cache entry (core.media.frame_cache) that a later call reads without opening the
video at all. Which decoder reads the file is core.media.readers' choice ($MATHREEL_FRAME_READER).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError
from mathreel.core.media.frame_cache import (
    CACHE_FORMAT,
    MANIFEST,
    SampledFrames,
    cache_key,
    complete_entry,
    frame_file,
    frames_dir,
    frames_from_manifest,
    identity,
    load_entry,
)
from mathreel.core.media.reader_base import FrameReader
from mathreel.core.media.sampling import UNIFORM, Sampling

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

__all__ = [
    "UNIFORM",
    "SampledFrames",
    "Sampling",
    "frames_dir",
    "open_video",
    "read_exact_frames",
    "resized_size",
    "sample_frames",
    "uniform_indices",
]
JPEG_QUALITY = 90
_BUILD_LOCKS = tuple(threading.Lock() for _ in range(64))  # striped: bounded however many videos are sampled


def uniform_indices(total: int, n: int) -> list[int]:
    """The reference harness's sampling: `np.linspace(0, total - 1, n, dtype=int)`; n = -1 means every frame.

    As in the reference, n > total repeats indices (the model is sent repeated frames).
    """
    return UNIFORM.indices(total, 0.0, n)


def sample_frames(
    video_path: str | Path,
    num_frames: int,
    *,
    max_side: int | None = None,
    cache_dir: str | Path | None = None,
    reader: str | None = None,
    workers: int | None = None,
    sampling: Sampling = UNIFORM,
) -> SampledFrames:
    """Sample `num_frames` frames (-1 = every frame) placed by `sampling` (uniform unless told; for the fps rule
    `num_frames` is the cap), resized so the longest side is <= `max_side`.

    A cached entry is returned without opening the video; otherwise only the sampled frames are decoded, by
    `reader` (decord, pyav or auto; default $MATHREEL_FRAME_READER) on `workers` threads (default: free cores).
    Raises InputError naming the file when the video is missing, corrupt or not a video.
    """
    path = Path(video_path)
    check_request(path, num_frames, max_side)
    cached = cached_frames(path, num_frames, max_side, cache_dir, reader, sampling)
    if cached is not None:
        return cached
    with build_lock(path, num_frames, max_side, cache_dir, reader, sampling):
        cached = cached_frames(path, num_frames, max_side, cache_dir, reader, sampling)  # built while we waited?
        if cached is not None:
            return cached
        opened = open_video(path, reader)
        try:
            steps = build_steps(opened, num_frames, max_side, cache_dir, workers, sampling)
            while True:
                next(steps)
        except StopIteration as finished:
            return finished.value
        finally:
            opened.close()


@contextmanager
def build_lock(
    path: Path,
    num_frames: int,
    max_side: int | None,
    cache_dir: str | Path | None,
    reader: str | None,
    sampling: Sampling = UNIFORM,
) -> Iterator[None]:
    """Held while one entry is built in this process, so two requests for it decode it once, not twice."""
    key = (str(path.resolve()), num_frames, max_side, str(frames_dir(cache_dir)), reader, sampling)
    with _BUILD_LOCKS[hash(key) % len(_BUILD_LOCKS)]:
        yield


def check_request(path: Path, num_frames: int, max_side: int | None) -> None:
    """Reject a bad frame count or size before touching the cache or the decoder."""
    if isinstance(num_frames, bool) or not isinstance(num_frames, int) or (num_frames < 1 and num_frames != -1):
        raise InputError(str(path), f"number of frames must be -1 (all) or a positive integer, got {num_frames!r}")
    if max_side is not None and (isinstance(max_side, bool) or not isinstance(max_side, int) or max_side < 1):
        raise InputError(str(path), f"max_side must be a positive integer, got {max_side!r}")


def cached_frames(
    path: Path,
    num_frames: int,
    max_side: int | None,
    cache_dir: str | Path | None,
    reader: str | None,
    sampling: Sampling = UNIFORM,
) -> SampledFrames | None:
    """A complete cache entry made by one of the readers `reader` allows (in preference order), or None."""
    from mathreel.core.media.readers import candidate_readers

    ident = identity(path)
    for name in candidate_readers(reader):
        key = cache_key(ident, num_frames, max_side, name, sampling.cache_fields())
        found = load_entry(frames_dir(cache_dir) / key, ident)
        if found is not None:
            return found
    return None


def build_steps(
    opened: FrameReader,
    num_frames: int,
    max_side: int | None,
    cache_dir: str | Path | None,
    workers: int | None,
    sampling: Sampling = UNIFORM,
) -> Generator[tuple[int, Path], None, SampledFrames]:
    """Decode the sampled frames into their cache entry, yielding (index, JPEG) as each lands; the manifest last.

    Why in place: each JPEG is at its final path the moment it lands, so a viewer shows a frame once, at the URL the
    finished page uses (building in a temporary folder renamed into place made the browser fetch every frame
    twice). The entry counts as complete only once its manifest is there and lists files that all exist
    (`complete_entry`); every file is written under a temporary name and renamed, so a reader never sees half a
    JPEG, and two processes building the same entry write the same bytes. A build that fails leaves no entry.
    The generator's return value is the finished SampledFrames.
    """
    from mathreel.core.media.exact import exact_frames

    path = Path(opened.source)
    ident = identity(path)
    entry = frames_dir(cache_dir) / cache_key(ident, num_frames, max_side, opened.name, sampling.cache_fields())
    indices = sample_indices(opened, num_frames, sampling)
    manifest = {
        **ident,
        **sampling.cache_fields(),
        "num_frames": num_frames,
        "max_side": max_side,
        "reader": opened.name,
        "format": CACHE_FORMAT,
        "total_frames": opened.total,
        "fps": opened.fps,
        "duration": opened.duration(),
        "indices": indices,
        "times": opened.times(indices),
        "files": [frame_file(i) for i in indices],
    }
    entry.mkdir(parents=True, exist_ok=True)
    finished = False
    try:
        for index, frame in exact_frames(opened, sorted(set(indices)), workers):
            jpeg = entry / frame_file(index)
            with _renamed_into(jpeg) as temporary:
                _write_jpeg(temporary, frame, max_side)
            yield index, jpeg
        with _renamed_into(entry / MANIFEST) as temporary:
            temporary.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        finished = True
    finally:
        if not finished and complete_entry(entry) is None:  # nobody else finished it either: leave nothing
            shutil.rmtree(entry, ignore_errors=True)
    return frames_from_manifest(entry, manifest)


def sample_indices(opened: FrameReader, num_frames: int, sampling: Sampling) -> list[int]:
    """The frames `sampling` takes from the opened video; InputError when it takes none (a video shorter than one
    step of the fps rule) or cannot place them (no frame rate)."""
    try:
        indices = sampling.indices(opened.total, opened.fps, num_frames)
    except ValueError as error:
        raise InputError(opened.source, str(error)) from None
    if not indices:
        raise InputError(
            opened.source, f"{sampling.describe(num_frames)} takes no frame of a {opened.duration():.2f} s video"
        )
    return indices


@contextmanager
def _renamed_into(target: Path) -> Iterator[Path]:
    """A temporary name beside `target` to write; renamed into place when the block succeeds (atomic on one file
    system), removed when it fails."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        yield temporary
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def open_video(path: str | Path, reader: str | None = None) -> FrameReader:
    """The video opened by `reader` (default $MATHREEL_FRAME_READER, else auto), or InputError naming the file."""
    from mathreel.core.media.readers import open_reader

    return open_reader(path, reader)


def read_exact_frames(reader: FrameReader, indices: Sequence[int]) -> Iterator[tuple[int, Any]]:
    """Yield (index, RGB uint8 array) for sorted, distinct `indices`, in order, on one decoder."""
    return reader.frames(indices)


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
