"""Aligning subtitles to sampled frames: MathReel's sweep vs the reference harness's frames x cues double loop.

Run: .venv/bin/python bench/bench_subtitles.py [--frames 768] [--cues 2000] [--repeat 20]
Input: a one-hour, 25 fps video's uniform frame times and an SRT of cues (1-10 s long, often overlapping), written to
a temporary file so the parse time is measured too. Target: aligning 768 frames with 2,000 cues in <= 20 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mathreel.core.media.frames import uniform_indices
from mathreel.core.media.subtitles import cues_for_frames, read_srt, subtitle_lines

FPS = 25
HOUR_FRAMES = 3600 * FPS


def _timestamp(seconds: float) -> str:
    ms = round(seconds * 1000)
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def write_srt(path: Path, count: int, seed: int = 0) -> None:
    """`count` cues spread over an hour, 1-4 s long (every tenth 2.5x longer) so that neighbours often overlap,
    wrapped in the reference's `<font>` markup."""
    rng = random.Random(seed)
    gap = 3600 / count
    blocks = []
    for number in range(count):
        start = number * gap + rng.uniform(0, gap / 4)
        end = start + rng.uniform(1.0, 4.0) * (2.5 if number % 10 == 0 else 1.0)
        text = f'<font color="white" size=".72c">line {number}: the area is {number % 97} square units</font>'
        blocks.append(f"{number + 1}\n{_timestamp(start)} --> {_timestamp(end)}\n{text}\n")
    path.write_text("\n".join(blocks), encoding="utf-8")


def reference_double_loop(cues: list, frames: list[int], fps: float) -> list[str]:
    """The reference's algorithm on the same cues: frame numbers int(t * fps), every frame against every cue, a set."""
    by_frame = [(int(cue.start * fps), int(cue.end * fps), cue.text) for cue in cues]
    hits = []
    for frame_idx in frames:
        for idx, title in enumerate(by_frame):
            if frame_idx < title[1] and frame_idx >= title[0]:
                hits.append(idx)
    return [by_frame[idx][2] for idx in set(hits)]


def timed(function: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median wall time in ms over `repeat` runs, and the last result."""
    samples = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=768)
    parser.add_argument("--cues", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    frames = uniform_indices(HOUR_FRAMES, args.frames)
    times = [index / FPS for index in frames]
    with tempfile.TemporaryDirectory() as folder:
        srt = Path(folder) / "hour.srt"
        write_srt(srt, args.cues)
        parse_ms, cues = timed(lambda: read_srt(srt), max(3, args.repeat // 4))
    per_frame_ms, per_frame = timed(lambda: cues_for_frames(cues, times), args.repeat)
    lines_ms, lines = timed(lambda: subtitle_lines(cues, times), args.repeat)
    both_ms, _ = timed(lambda: (cues_for_frames(cues, times), subtitle_lines(cues, times)), args.repeat)
    reference_ms, reference = timed(lambda: reference_double_loop(cues, frames, FPS), max(3, args.repeat // 4))

    only_reference = len(set(reference) - set(lines))
    only_ours = len(set(lines) - set(reference))
    covered = sum(1 for frame in per_frame if frame)
    print(
        f"input: {args.frames} frames of a 1 h, {FPS} fps video; {len(cues)} cues; {covered} frames covered; "
        f"{len(lines)} prompt lines"
    )
    print(f"read_srt ({len(cues)} cues)                 {parse_ms:8.2f} ms")
    print(f"cues_for_frames                          {per_frame_ms:8.2f} ms")
    print(f"subtitle_lines                           {lines_ms:8.2f} ms")
    print(f"cues_for_frames + subtitle_lines         {both_ms:8.2f} ms   (target <= 20 ms)")
    print(f"reference frames x cues double loop      {reference_ms:8.2f} ms   ({reference_ms / both_ms:.0f}x slower)")
    print(
        f"lines only the reference picks: {only_reference}; only MathReel: {only_ours} (the reference floors cue "
        "times to whole frames, so a cue edge up to one frame period (40 ms) from a sampled frame can differ)"
    )


if __name__ == "__main__":
    main()
