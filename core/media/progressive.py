"""A first view at once: the keyframes nearest each sampled frame, then each exact frame as it is decoded.

Why: exact frames of a long video take seconds (about 125 decoded frames per target at GOP 250), while a keyframe
decodes alone. A viewer gets snapshots of the gallery: first every position shows its nearest keyframe, marked
approximate with that keyframe's real frame number and time; then positions turn exact one by one. Only exact frames
reach the cache (and so the prompt): previews live in folders of their own under `frames/.previews/`.

A preview folder outlives its generator by PREVIEW_LIFETIME seconds: the viewer (a web page) is handed the preview
paths and fetches them a moment later, often after the exact frames have landed, so removing the folder when the
generator ends made the page's requests fail (seen as HTTP 403 on cold switches). Each new call removes the folders
whose lifetime is over.

The decoding runs in a thread that holds the same per-entry lock as `sample_frames`, so a concurrent
`sample_frames` for the same entry waits for it instead of decoding twice, and a viewer that stops listening does
not leave half a cache entry or a held lock behind: the thread finishes the entry either way.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import tempfile
import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.core.media.frame_cache import SampledFrames, frames_dir
from mathreel.core.media.reader_base import FrameReader
from mathreel.core.media.sampling import UNIFORM, Sampling

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

PREVIEW_MAX_SIDE = 640  # previews are approximate anyway: small JPEGs write fast
PREVIEW_LIFETIME = 600.0  # seconds a preview folder stays fetchable after its last snapshot
PREVIEWS = ".previews"  # the folder under frames_dir() holding one folder of previews per progressive call


@dataclass(frozen=True)
class GalleryFrame:
    """One gallery position: the frame asked for (`index` at `time` seconds) and the picture shown for it.

    While `exact` is False the picture is a preview: the keyframe `shown_index` at its own real time `shown_time`.
    Once exact, `path` is the frame's own JPEG, identical to the cache entry's.
    """

    position: int
    index: int
    time: float
    shown_index: int
    shown_time: float
    path: Path
    exact: bool


class _Board:
    """The latest gallery, shared between the decoding thread and the viewer."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.gallery: list[GalleryFrame] = []
        self.version = 0
        self.done = False
        self.error: BaseException | None = None

    def publish(self, gallery: list[GalleryFrame], *, done: bool = False, error: BaseException | None = None) -> None:
        with self.changed:
            self.gallery = list(gallery)
            self.version += 1
            self.done, self.error = done, error
            self.changed.notify_all()

    def wait(self, seen: int, not_before: float = 0.0) -> tuple[int, list[GalleryFrame], bool, BaseException | None]:
        """The next version after `seen`, not before the monotonic time `not_before` unless decoding is done."""
        with self.changed:
            self.changed.wait_for(lambda: self.done, timeout=max(0.0, not_before - time.monotonic()))
            self.changed.wait_for(lambda: self.version > seen or self.done)
            return self.version, list(self.gallery), self.done, self.error


def progressive_frames(
    video_path: str | Path,
    num_frames: int,
    *,
    max_side: int | None = None,
    cache_dir: str | Path | None = None,
    reader: str | None = None,
    workers: int | None = None,
    min_interval: float = 0.0,
    sampling: Sampling = UNIFORM,
) -> Iterator[list[GalleryFrame]]:
    """Snapshots of the gallery for `sample_frames(video_path, num_frames, ...)`, approximate first, exact last.

    A cached entry gives one all-exact snapshot. The last snapshot is always all exact and points into the cache.
    Snapshots come at least `min_interval` seconds apart (frames landing in between are shown together), except
    the last, which comes as soon as it is ready. Raises InputError (from the decoding thread) like
    `sample_frames` does.
    """
    from mathreel.core.media.frames import check_request

    path = Path(video_path)
    check_request(path, num_frames, max_side)
    root = frames_dir(cache_dir) / PREVIEWS
    root.mkdir(parents=True, exist_ok=True)
    prune_previews(root, PREVIEW_LIFETIME)
    previews = Path(tempfile.mkdtemp(prefix="preview-", dir=root))
    board = _Board()
    args = (board, previews, path, num_frames, max_side, cache_dir, reader, workers, sampling)
    threading.Thread(target=_decode, args=args, daemon=True, name="mathreel-progressive").start()
    try:
        seen, not_before = 0, 0.0
        while True:
            seen, gallery, done, error = board.wait(seen, not_before)
            if error is not None:
                raise error
            if gallery:
                _touch(previews)  # in use: no other call's pruning removes it
                yield gallery
                not_before = time.monotonic() + min_interval
            if done:
                return
    finally:
        _retire(previews)


def _retire(previews: Path) -> None:
    """After the last snapshot: an empty folder goes at once; one with previews stays until prune_previews finds
    it older than its lifetime (counted from now, when the page was last handed its files)."""
    try:
        previews.rmdir()
    except OSError:  # previews were written: the page may still fetch them
        _touch(previews)


def _touch(folder: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(folder)


def prune_previews(root: Path, max_age: float) -> None:
    """Remove the preview folders under `root` last used more than `max_age` seconds ago (a failure is left for
    the next call)."""
    from mathreel.core.cache import prune_folders

    prune_folders(root, max_age)


def _decode(
    board: _Board,
    previews: Path,
    path: Path,
    num_frames: int,
    max_side: int | None,
    cache_dir: str | Path | None,
    reader: str | None,
    workers: int | None,
    sampling: Sampling,
) -> None:
    """The thread: cache hit, or previews then exact frames, under the entry's build lock."""
    from mathreel.core.media.frames import build_lock, build_steps, cached_frames, open_video, sample_indices

    try:
        with build_lock(path, num_frames, max_side, cache_dir, reader, sampling):
            final = cached_frames(path, num_frames, max_side, cache_dir, reader, sampling)
            if final is None:
                opened = open_video(path, reader)
                try:
                    gallery = _preview_gallery(opened, sample_indices(opened, num_frames, sampling), previews)
                    board.publish(gallery)
                    steps = build_steps(opened, num_frames, max_side, cache_dir, workers, sampling)
                    final = _exact_steps(board, steps, gallery)
                finally:
                    opened.close()
        board.publish(exact_gallery(final), done=True)
    except BaseException as error:  # handed to the viewer, which raises it in its own thread
        board.publish([], done=True, error=error)


def _exact_steps(
    board: _Board, steps: Generator[tuple[int, Path], None, SampledFrames], gallery: list[GalleryFrame]
) -> SampledFrames:
    """Turn positions exact as their frames land, each at its own path in the cache entry (the page's final
    gallery shows the same files, so the browser fetches each frame once). If the viewer has gone, decoding still
    finishes so the cache entry is complete.
    """
    positions: dict[int, list[int]] = {}
    for item in gallery:
        positions.setdefault(item.index, []).append(item.position)
    try:
        while True:
            index, jpeg = next(steps)
            for position in positions[index]:
                item = gallery[position]
                gallery[position] = replace(item, shown_index=index, shown_time=item.time, path=jpeg, exact=True)
            board.publish(gallery)
    except StopIteration as finished:
        return finished.value
    finally:
        steps.close()  # on an error, removes the half-built folder


def _preview_gallery(opened: FrameReader, indices: list[int], previews: Path) -> list[GalleryFrame]:
    """Every position showing the keyframe nearest its target (decoding each keyframe alone)."""
    keyframes = list(opened.keyframes())
    nearest = [_nearest(keyframes, index) for index in indices]
    wanted = sorted(set(nearest))
    shown_times = dict(zip(wanted, opened.times(wanted), strict=True))
    files = {}
    for keyframe, frame in opened.frames(wanted):
        files[keyframe] = previews / f"key-{keyframe:07d}.jpg"
        _write_preview(files[keyframe], frame)
    return [
        GalleryFrame(position, index, time, key, shown_times[key], files[key], exact=False)
        for position, (index, time, key) in enumerate(zip(indices, opened.times(indices), nearest, strict=True))
    ]


def _write_preview(path: Path, frame: np.ndarray) -> None:
    """A small JPEG of `frame`: shrunk by a whole factor (box filter) to at most PREVIEW_MAX_SIDE on its longest
    side; several times faster than a bicubic resize, and a preview is approximate anyway."""
    from PIL import Image

    image = Image.fromarray(frame)
    factor = -(-max(image.width, image.height) // PREVIEW_MAX_SIDE)  # ceiling division
    if factor > 1:
        image = image.reduce(factor)
    image.save(path, "JPEG", quality=80)


def _nearest(keyframes: list[int], index: int) -> int:
    """The keyframe closest to `index` (the earlier one on a tie)."""
    after = bisect.bisect_left(keyframes, index)
    candidates = keyframes[max(0, after - 1) : after + 1]
    return min(candidates, key=lambda key: (abs(key - index), key))


def exact_gallery(frames: SampledFrames) -> list[GalleryFrame]:
    """The all-exact gallery of a finished (cached) sample."""
    return [
        GalleryFrame(position, index, time, index, time, path, exact=True)
        for position, (index, time, path) in enumerate(zip(frames.indices, frames.times, frames.paths, strict=True))
    ]
