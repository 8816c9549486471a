"""Exact frames as fast as the machine allows: targets split across GOPs between threads, each with its own decoder.

Why: decoding from a keyframe to a target is CPU-bound and both decoders release the GIL while decoding, so
independent containers on free cores run side by side. Targets are split into contiguous runs of about equal
decoding work; within a run a worker seeks only when a keyframe lies between its position and the next target.
Frames pass through a small bounded queue, so memory stays flat however long the video or however many targets.
"""

from __future__ import annotations

import bisect
import os
import queue
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from core.media.reader_base import FrameReader, check_sorted

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

_DONE = object()


def free_cores() -> int:
    """Cores this process may use (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS and Windows have no sched_getaffinity
        return max(1, os.cpu_count() or 1)


def decode_costs(keyframes: Sequence[int], targets: Sequence[int]) -> list[int]:
    """Frames decoded for each target when decoding them in order: from its keyframe, or on from the last target."""
    costs = []
    previous = -1
    for target in targets:
        keyframe = keyframes[bisect.bisect_right(keyframes, target) - 1] if keyframes else 0
        costs.append(target - previous if keyframe <= previous else target - keyframe + 1)
        previous = target
    return costs


def split_work(keyframes: Sequence[int], targets: Sequence[int], workers: int) -> list[list[int]]:
    """`targets` cut into at most `workers` contiguous runs of about equal decoding cost."""
    costs = decode_costs(keyframes, targets)
    total = sum(costs) or 1
    runs: list[list[int]] = [[]]
    done = 0
    for target, cost in zip(targets, costs, strict=True):
        if runs[-1] and len(runs) < workers and done >= total * len(runs) / workers:
            runs.append([])
        runs[-1].append(target)
        done += cost
    return runs


def exact_frames(reader: FrameReader, targets: Sequence[int], workers: int | None = None) -> Iterator[
        tuple[int, np.ndarray]]:
    """(index, RGB frame) for every sorted distinct target, in the order they finish (not index order).

    `workers` threads (default: the free cores) each decode one run on an independent reader; with one worker the
    frames come in index order from `reader` itself.
    """
    check_sorted(targets)
    cores = free_cores()
    runs = [run for run in split_work(reader.keyframes(), targets, workers or cores) if run]
    if len(runs) <= 1:
        yield from reader.frames(targets)
        return
    yield from _threaded(reader, runs, max(1, cores // len(runs)))


def _threaded(reader: FrameReader, runs: list[list[int]], decoder_threads: int) -> Iterator[tuple[int, Any]]:
    """Run each run in its own thread; stop them all if the consumer stops early or one of them fails."""
    results: queue.Queue[Any] = queue.Queue(maxsize=2 * len(runs))
    stop = threading.Event()
    threads = [threading.Thread(target=_worker, args=(reader, run, decoder_threads, results, stop, number == 0),
                                daemon=True) for number, run in enumerate(runs)]
    for thread in threads:
        thread.start()
    finished = 0
    try:
        while finished < len(threads):
            item = results.get()
            if item is _DONE:
                finished += 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def _worker(reader: FrameReader, run: list[int], decoder_threads: int, results: queue.Queue[Any],
            stop: threading.Event, first: bool) -> None:
    """Decode one run (the first on `reader` itself, the others on readers of their own, as opening costs an index
    of the whole file); every frame (or the error) goes to `results`."""
    own = None
    try:
        if not first:
            own = reader.reopen(decoder_threads)
        for item in (own or reader).frames(run):
            if not _put(results, item, stop):
                return
    except BaseException as error:  # handed to the consumer, which re-raises it in its own thread
        _put(results, error, stop)
    finally:
        if own is not None:
            own.close()
    _put(results, _DONE, stop)


def _put(results: queue.Queue[Any], item: Any, stop: threading.Event) -> bool:
    """Queue `item` unless the consumer has gone; False when it has."""
    while not stop.is_set():
        try:
            results.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False
