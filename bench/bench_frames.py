"""Frame sampling speed and memory: MathReel's forward decoding vs decord's get_batch, the cache, peak RSS.

Run: .venv/bin/python bench/bench_frames.py [--workdir DIR] [--frames 32] [--repeat 3] [--skip-memory]
         [--memory-frames 32,256]
Videos are generated with core.media.writer (H.264, 25 fps, GOP 250, frame numbers drawn into every frame) in
--workdir (a temporary folder by default; pass a folder to keep them between runs: generating takes minutes).

Measures, on a 10-minute 1280x720 video:
  - open: constructing decord's VideoReader (it indexes every packet; both methods pay it once);
  - get_batch: decord's own `get_batch` on the uniformly sampled indices (fresh reader);
  - forward: `read_exact_frames` (skip_frames/next from the nearest keyframe) on the same indices (fresh reader),
    checked pixel for pixel against get_batch;
  - cold: `sample_frames` end to end (open + decode + JPEG + manifest) into an empty cache;
  - warm: `sample_frames` again (served from the cache; the video is not opened).
Memory: peak RSS (VmHWM) of a fresh process running `sample_frames(video, N)` on a 1-minute and a 60-minute
320x180 video (and, for N = --frames, the 10-minute 720p one), each in its own subprocess, beside decord's
get_batch on the same indices.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

FPS = 25
GOP = 250


def make_video(folder: Path, name: str, minutes: float, height: int, width: int) -> Path:
    """A numbered H.264 test video, generated once per folder."""
    from core.media.writer import numbered_frame, write_h264

    path = folder / name
    if not path.exists():
        count = round(minutes * 60 * FPS)
        started = time.perf_counter()
        partial = folder / f".{name}.partial.mp4"
        write_h264(partial, (numbered_frame(i, height, width) for i in range(count)), FPS, gop=GOP, crf=28)
        partial.rename(path)
        print(f"generated {name}: {count} frames {width}x{height} in {time.perf_counter() - started:.0f} s")
    return path


def timed(function: Callable[[], object]) -> tuple[float, object]:
    """Wall time in ms, and the result."""
    started = time.perf_counter()
    result = function()
    return (time.perf_counter() - started) * 1000, result


def cpu_timed(function: Callable[[], object]) -> tuple[float, float, object]:
    """Wall and process CPU time (all threads, including decord's decoder thread) in ms, and the result.

    CPU time is the steadier figure on a machine shared with other jobs."""
    cpu_started = time.process_time()
    wall, result = timed(function)
    return wall, (time.process_time() - cpu_started) * 1000, result


def get_batch(video: Path, indices: list[int]):
    import decord

    return decord.VideoReader(str(video)).get_batch(indices).asnumpy()


def forward(video: Path, indices: list[int]) -> list:
    from core.media.frames import open_video, read_exact_frames

    return [frame for _, frame in read_exact_frames(open_video(video), sorted(set(indices)))]


def open_only(video: Path) -> int:
    import decord

    return len(decord.VideoReader(str(video)))


def speed(video: Path, num_frames: int, repeat: int, workdir: Path) -> None:
    """Cold and warm timings, medians over `repeat` alternating rounds."""
    import numpy as np

    from core.media.frames import open_video, sample_frames, uniform_indices
    from core.media.writer import frame_number

    indices = uniform_indices(len(open_video(video)), num_frames)
    times: dict[str, list[float]] = {"open": [], "get_batch": [], "forward": [], "cold": [], "warm": []}
    cpu: dict[str, list[float]] = {"get_batch": [], "forward": []}
    for round_number in range(repeat):
        times["open"].append(timed(lambda: open_only(video))[0])
        batch_ms, batch_cpu, batch = cpu_timed(lambda: get_batch(video, indices))
        forward_ms, forward_cpu, ours = cpu_timed(lambda: forward(video, indices))
        times["get_batch"].append(batch_ms)
        times["forward"].append(forward_ms)
        cpu["get_batch"].append(batch_cpu)
        cpu["forward"].append(forward_cpu)
        assert all(np.array_equal(a, b) for a, b in zip(ours, batch, strict=True)), "forward decoding is not exact"
        assert [frame_number(frame) for frame in ours] == indices, "decoded the wrong frames"
        cache = Path(tempfile.mkdtemp(prefix=f"cache{round_number}-", dir=workdir))
        times["cold"].append(timed(lambda cache=cache: sample_frames(video, num_frames, cache_dir=cache))[0])
        warm = [timed(lambda cache=cache: sample_frames(video, num_frames, cache_dir=cache))[0] for _ in range(5)]
        times["warm"].append(statistics.median(warm))
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"\n{video.name}: {num_frames} frames, {repeat} rounds (median ms); frames identical to get_batch: yes")
    for name, value in median.items():
        print(f"  {name:<10} {value:9.1f} ms   (all: {', '.join(f'{v:.0f}' for v in times[name])})")
    cpu_median = {name: statistics.median(values) for name, values in cpu.items()}
    for name, value in cpu_median.items():
        print(f"  {name:<10} {value:9.1f} ms CPU (all: {', '.join(f'{v:.0f}' for v in cpu[name])})")
    print(f"  get_batch / forward: wall {median['get_batch'] / median['forward']:.2f}x, "
          f"CPU {cpu_median['get_batch'] / cpu_median['forward']:.2f}x (above 1 means forward is faster)")


MEMORY_PROBE = """
import json, sys, time
import decord, numpy, PIL.Image
from core.media.frames import sample_frames, uniform_indices
video, num_frames, cache, method = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
started = time.perf_counter()
if method == "sample_frames":
    total = sample_frames(video, num_frames, cache_dir=cache).total_frames
else:
    reader = decord.VideoReader(video)
    total = len(reader)
    reader.get_batch(uniform_indices(total, num_frames)).asnumpy()
# VmHWM, not ru_maxrss: the latter carries the parent's peak across fork + exec
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"peak_rss_mb": peak_kb / 1024,
                  "seconds": time.perf_counter() - started, "total": total}))
"""


def peak_rss(video: Path, num_frames: int, workdir: Path, method: str) -> dict:
    """Peak RSS (MB) of a fresh interpreter (decord, numpy and PIL imported) running one `method` call."""
    cache = tempfile.mkdtemp(prefix="memcache-", dir=workdir)
    output = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(video), str(num_frames), cache, method],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def memory(videos: list[Path], num_frames: int, workdir: Path, repeat: int) -> None:
    """Peak RSS per video: sample_frames `repeat` times (median and max), get_batch once for comparison.

    decord's decoder thread runs ahead of the reader when the machine is busy, so peaks vary from run to run."""
    print(f"\npeak RSS (VmHWM) of one call on {num_frames} frames, each in a fresh process:")
    medians = {}
    for video in videos:
        runs = [peak_rss(video, num_frames, workdir, "sample_frames") for _ in range(repeat)]
        peaks = [run["peak_rss_mb"] for run in runs]
        medians[video.name] = statistics.median(peaks)
        batch = peak_rss(video, num_frames, workdir, "get_batch")
        print(f"  {video.name:<20} {runs[0]['total']:>6} frames  sample_frames median {medians[video.name]:6.1f} MB, "
              f"max {max(peaks):6.1f} MB ({statistics.median(run['seconds'] for run in runs):.2f} s)   "
              f"get_batch {batch['peak_rss_mb']:6.1f} MB")
    if {"one_min_180p.mp4", "sixty_min_180p.mp4"} <= medians.keys():
        ratio = medians["sixty_min_180p.mp4"] / medians["one_min_180p.mp4"]
        print(f"  60-minute / 1-minute sample_frames peak RSS (medians): {ratio:.2f}x (target <= 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, help="where to keep the generated videos (default: a temp folder)")
    parser.add_argument("--frames", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-memory", action="store_true", help="skip the 1- and 60-minute memory videos")
    parser.add_argument("--memory-frames", default="32,256", help="comma-separated frame counts for the memory runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.workdir or Path(scratch)
        workdir.mkdir(parents=True, exist_ok=True)
        ten = make_video(workdir, "ten_720p.mp4", 10, 720, 1280)
        speed(ten, args.frames, args.repeat, workdir)
        if not args.skip_memory:
            videos = [make_video(workdir, "one_min_180p.mp4", 1, 180, 320),
                      make_video(workdir, "sixty_min_180p.mp4", 60, 180, 320), ten]
            for count in (int(value) for value in args.memory_frames.split(",")):
                memory(videos if count == args.frames else videos[:2], count, workdir, args.repeat)


if __name__ == "__main__":
    main()
