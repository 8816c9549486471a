"""Exact frames as fast as the machine allows: targets split across GOPs between threads, each with its own decoder.

Why: decoding from a keyframe to a target is CPU-bound and both decoders release the GIL while decoding, so
independent containers on free cores run side by side. For a reader that seeks to each target's keyframe (PyAV),
targets are grouped into chains that decode without a seek and each thread takes the costliest chain left, so the
threads finish together (contiguous halves of the targets left one thread with 64% of the work on a 10-minute
video's 8 frames). decord, which decodes on from the start of each call and whose readers each hold memory that
grows with the file, decodes on one reader. Frames pass through a small bounded queue, so memory stays flat however
long the video or however many targets.
"""

from __future__ import annotations

import bisect
import os
import queue
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from mathreel.core.media.reader_base import FrameReader, check_sorted

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


def decode_chains(keyframes: Sequence[int], targets: Sequence[int]) -> list[tuple[int, list[int]]]:
    """`targets` grouped into chains decoded without a seek (no keyframe between one target and the next), each
    with its cost in decoded frames, costliest first."""
    chains: list[tuple[int, list[int]]] = []
    previous = -1
    for target, cost in zip(targets, decode_costs(keyframes, targets), strict=True):
        keyframe = keyframes[bisect.bisect_right(keyframes, target) - 1] if keyframes else 0
        if chains and keyframe <= previous:
            chains[-1] = (chains[-1][0] + cost, [*chains[-1][1], target])
        else:
            chains.append((cost, [target]))
        previous = target
    return sorted(chains, key=lambda chain: -chain[0])


def exact_frames(
    reader: FrameReader, targets: Sequence[int], workers: int | None = None
) -> Iterator[tuple[int, np.ndarray]]:
    """(index, RGB frame) for every sorted distinct target, in the order they finish (not index order).

    `workers` threads (default: the free cores) each take the costliest chain left (longest processing time
    first: the threads finish within about one chain of each other), on an independent reader; with one worker,
    or on a reader that decodes on from the start of each call (decord), the frames come in index order from
    `reader` itself. Why decord gets one reader: each decord reader indexes the whole file, and two of them held
    4.9 GB sampling 256 frames of a 60-minute video (bench/README.md).
    """
    check_sorted(targets)
    cores = free_cores()
    chains = [chain for _, chain in decode_chains(reader.keyframes(), targets)] if reader.seeks_to_targets else []
    threads = min(workers or cores, len(chains))  # decord (no chains): one thread
    if threads <= 1:
        yield from reader.frames(targets)
        return
    yield from _threaded(reader, chains, threads, max(1, cores // threads))


def _threaded(
    reader: FrameReader, units: list[list[int]], threads: int, decoder_threads: int
) -> Iterator[tuple[int, Any]]:
    """`threads` workers taking units of work in order; stop them all if the consumer stops early or one fails."""
    results: queue.Queue[Any] = queue.Queue(maxsize=2 * threads)
    work: queue.SimpleQueue[list[int]] = queue.SimpleQueue()
    for unit in units:
        work.put(unit)
    stop = threading.Event()
    workers = [
        threading.Thread(target=_worker, args=(reader, work, decoder_threads, results, stop), daemon=True)
        for _ in range(threads)
    ]
    for worker in workers:
        worker.start()
    finished = 0
    try:
        while finished < len(workers):
            item = results.get()
            if item is _DONE:
                finished += 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
    finally:
        stop.set()
        for worker in workers:
            worker.join()


def _worker(
    reader: FrameReader,
    work: queue.SimpleQueue[list[int]],
    decoder_threads: int,
    results: queue.Queue[Any],
    stop: threading.Event,
) -> None:
    """Decode units until none is left on a single-threaded reader of its own; every frame (or the error) goes to
    `results`.

    Why not `reader` itself for one of them: it decodes with FFmpeg's frame threads, which on a machine whose cores
    are all busy with the other workers cost a 10-minute video's 8 frames about 3% more wall time."""
    own = None
    try:
        own = reader.reopen(decoder_threads)
        while not stop.is_set():
            try:
                unit = work.get_nowait()
            except queue.Empty:
                break
            for item in own.frames(unit):
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
