"""Exact frames side by side: decord's get_batch, ours on decord, ours on PyAV, keyframes only, and the floor.

Run: .venv/bin/python bench/bench_frames.py [--cache-dir DIR] [--quick] [--frames 32,256] [--minutes 10,60]
         [--repeat 1] [--memory] [--memory-only] [--memory-frames 32,256]

Videos: 1280x720 H.264 (libx264 veryfast, crf 28, 25 fps, GOP 250, B-frames) with frame numbers drawn into every
frame. A one-minute clip is encoded with core.media.writer once; longer videos are that clip repeated (the packets
remuxed with shifted timestamps, no re-encoding), so a 60-minute video takes seconds to make instead of an hour.
Every frame still decodes like an encoded one. They are kept in --cache-dir (default ~/.cache/mathreel-bench).
--quick uses 2- and 6-minute videos.

For each video and N (uniformly sampled, as the harness does), each row is one cold run from opening the file to
the last RGB frame (no JPEG writing), with wall time and process CPU time (all threads):
  - get_batch: decord's VideoReader(...).get_batch(indices);
  - ours/decord, ours/pyav: core.media.exact.exact_frames on that reader (targets split across free cores);
  - ours/pyav 1 thread: the same on one worker with a single-threaded decoder;
  - keyframes only: the preview the progressive gallery shows first (nearest keyframe per target);
  - floor: CPU time to decode only the frames the targets depend on (from each target's preceding keyframe to the
    target, each frame once, single-threaded, nothing converted to RGB).
Frames from ours/decord and ours/pyav are checked against get_batch (pixel-identical) and against the numbers
drawn in them.
"""

from __future__ import annotations

import argparse
import bisect
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

FPS = 25
GOP = 250
BASE_MINUTES = 1


def base_clip(folder: Path) -> Path:
    """The one-minute numbered 720p clip every bench video repeats (encoded once per cache folder)."""
    from mathreel.core.media.writer import numbered_frame, write_h264

    path = folder / "base_1min_720p.mp4"
    if not path.exists():
        started = time.perf_counter()
        partial = folder / ".base.partial.mp4"
        frames = (numbered_frame(i, 720, 1280) for i in range(BASE_MINUTES * 60 * FPS))
        write_h264(partial, frames, FPS, gop=GOP, crf=28)
        partial.rename(path)
        print(f"encoded {path.name} in {time.perf_counter() - started:.0f} s")
    return path


def repeated(folder: Path, minutes: int) -> Path:
    """`minutes` of video: the base clip's packets muxed again and again with shifted timestamps."""
    import av

    path = folder / f"numbered_{minutes}min_720p.mp4"
    if path.exists():
        return path
    base = base_clip(folder)
    partial = folder / f".{path.name}.partial.mp4"
    with av.open(str(base)) as source, av.open(str(partial), "w", format="mp4") as target:
        stream = source.streams.video[0]
        out = target.add_stream_from_template(stream)
        packets = [(packet, packet.pts, packet.dts) for packet in source.demux(stream) if packet.size]
        span = stream.duration or max(pts for _, pts, _ in packets) + packets[0][0].duration
        for copy in range(minutes // BASE_MINUTES):
            for packet, pts, dts in packets:
                packet.time_base = stream.time_base  # mux rescales in place; start from the source's clock
                packet.pts, packet.dts = pts + copy * span, dts + copy * span
                packet.stream = out
                target.mux(packet)
    partial.rename(path)
    return path


def measured(function: Callable[[], object]) -> tuple[float, float, object]:
    """(wall s, process CPU s, result) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def get_batch(video: Path, indices: list[int]) -> list:
    import decord

    return list(decord.VideoReader(str(video)).get_batch(indices).asnumpy())


def ours(video: Path, targets: list[int], reader: str, workers: int | None = None) -> dict[int, object]:
    from mathreel.core.media.exact import exact_frames
    from mathreel.core.media.readers import open_reader

    opened = open_reader(video, reader, decoder_threads=1 if workers == 1 else 0)
    try:
        return dict(exact_frames(opened, targets, workers))
    finally:
        opened.close()


def keyframes_only(video: Path, targets: list[int]) -> int:
    from mathreel.core.media.progressive import _nearest
    from mathreel.core.media.readers import open_reader

    opened = open_reader(video, "pyav")
    keys = list(opened.keyframes())
    wanted = sorted({_nearest(keys, target) for target in targets})
    return sum(1 for _ in opened.frames(wanted))


def floor(video: Path, targets: list[int]) -> int:
    """Decode [keyframe before t, t] for every target, each frame once, one thread, no RGB: frames decoded."""
    import av

    from mathreel.core.media.readers import open_reader

    index = open_reader(video, "pyav")._index
    keys = list(index.keyframes)
    ranges: list[list[int]] = []
    for target in targets:
        start = keys[bisect.bisect_right(keys, target) - 1]
        if ranges and start <= ranges[-1][1]:
            ranges[-1][1] = target
        else:
            ranges.append([start, target])
    decoded = 0
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        stream.codec_context.thread_count = 1
        stream.codec_context.thread_type = "NONE"
        for start, end in ranges:
            container.seek(index.pts[start], stream=stream, backward=True)
            for frame in container.decode(stream):
                decoded += 1
                if frame.pts is not None and frame.pts >= index.pts[end]:
                    break
    return decoded


def compare(video: Path, count: int, repeat: int) -> None:
    """One block of the side-by-side table: every method on `count` uniformly sampled frames of `video`."""
    import numpy as np

    from mathreel.core.media.frames import uniform_indices
    from mathreel.core.media.readers import open_reader
    from mathreel.core.media.writer import frame_number

    total = open_reader(video, "pyav").total
    indices = uniform_indices(total, count)
    targets = sorted(set(indices))
    rows: dict[str, list[tuple[float, float]]] = {}
    reference = None
    methods = {
        "decord get_batch": lambda: get_batch(video, indices),
        "ours/decord": lambda: ours(video, targets, "decord"),
        "ours/pyav": lambda: ours(video, targets, "pyav"),
        "ours/pyav 1 thread": lambda: ours(video, targets, "pyav", workers=1),
        "keyframes only": lambda: keyframes_only(video, targets),
        "floor": lambda: floor(video, targets),
    }
    for _ in range(repeat):
        for name, method in methods.items():
            wall, cpu, result = measured(method)
            rows.setdefault(name, []).append((wall, cpu))
            if name == "decord get_batch":
                reference = dict(zip(indices, result, strict=True))
            elif name.startswith("ours"):
                assert all(np.array_equal(result[i], reference[i]) for i in targets), f"{name} is not exact"
                assert all(frame_number(result[i]) == i % (BASE_MINUTES * 60 * FPS) for i in targets), name
            del result
    print(f"\n{video.name} ({total} frames), {count} frames: medians of {repeat}; frames identical to get_batch")
    batch_wall = statistics.median(wall for wall, _ in rows["decord get_batch"])
    for name, values in rows.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(f"  {name:<20} wall {wall:7.2f} s  CPU {cpu:7.2f} s   get_batch/this wall {batch_wall / wall:5.2f}x")


MEMORY_PROBE = """
import json, sys
from mathreel.core.media.frames import sample_frames
sample_frames(sys.argv[1], int(sys.argv[2]), cache_dir=sys.argv[3], reader=sys.argv[4])
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps(peak_kb / 1024))
"""


def memory(videos: list[Path], count: int, scratch: Path) -> None:
    """Peak RSS (VmHWM) of a fresh process running sample_frames cold, per video and reader."""
    import tempfile

    print(f"\npeak RSS of one cold sample_frames({count}) in a fresh process:")
    for video in videos:
        for reader in ("decord", "pyav"):
            cache = tempfile.mkdtemp(prefix="memcache-", dir=scratch)
            out = subprocess.run(
                [sys.executable, "-c", MEMORY_PROBE, str(video), str(count), cache, reader],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            print(f"  {video.name:<26} {reader:<7} {float(out.strip().splitlines()[-1]):7.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache-dir",
        "--workdir",
        type=Path,
        default=Path.home() / ".cache" / "mathreel-bench",
        help="where the generated videos are kept between runs",
    )
    parser.add_argument("--quick", action="store_true", help="2- and 6-minute videos instead of 10 and 60")
    parser.add_argument("--minutes", help="comma-separated video lengths (default 10,60; --quick 2,6)")
    parser.add_argument("--frames", default="32,256", help="comma-separated frame counts")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--memory", action="store_true", help="also peak RSS per video and reader")
    parser.add_argument("--memory-only", action="store_true", help="only the peak RSS rows (implies --memory)")
    parser.add_argument("--memory-frames", default="32", help="comma-separated frame counts for the RSS rows")
    args = parser.parse_args()
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    minutes = [int(m) for m in (args.minutes or ("2,6" if args.quick else "10,60")).split(",")]
    videos = [repeated(args.cache_dir, m) for m in minutes]
    for video in [] if args.memory_only else videos:
        for count in (int(n) for n in args.frames.split(",")):
            compare(video, count, args.repeat)
    if args.memory or args.memory_only:
        for count in (int(n) for n in args.memory_frames.split(",")):
            memory(videos, count, args.cache_dir)


if __name__ == "__main__":
    main()
