"""How fast `mathreel run` gets through a benchmark against a model answering in a fixed time.

Measures, against the loopback fake server (tests/helpers/fake_openai.py) answering every request in
LATENCY seconds:
  1. preparing one question's request (decode + cache the sampled frames, build the prompt, encode),
     cold (empty frame cache) and warm;
  2. the whole run over QUESTIONS questions at CONCURRENCY, cold and warm cache, against the ideal
     QUESTIONS / CONCURRENCY * LATENCY (2.5 s for 100 questions, 8 in flight, 200 ms each).

Uses the demo set (assets/demo) when it exists, else a generated VideoMathQA folder of real H.264
videos (640x360, 10 s). Run: .venv/bin/python bench/bench_run.py [--questions 100] [--frames 16]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))


def generated_dataset(folder: Path, questions: int, videos: int, frames_per_video: int = 250) -> Path:
    """A VideoMathQA folder (parquet + videos/) with `questions` spread over `videos` real H.264 videos."""
    import numpy as np
    import pandas as pd

    from mathreel.core.media.writer import write_h264

    (folder / "videos").mkdir(parents=True)
    ys, xs = np.mgrid[0:360, 0:640]
    for v in range(videos):
        frames = [
            np.stack(
                [(xs + 7 * t + 40 * v) % 256, (ys + 3 * t) % 256, np.full_like(xs, (60 * v) % 256)], axis=-1
            ).astype(np.uint8)
            for t in range(frames_per_video)
        ]
        write_h264(folder / "videos" / f"vid{v}.mp4", frames, fps=25)
    rows = [
        {
            "question_id": f"q{i:03d}",
            "videoID": f"vid{i % videos}",
            "question": f"Question q{i:03d}?",
            "options": ["A. 1", "B. 2", "C. 3", "D. 4", "E. 5"],
            "answer": "ABCDE"[i % 5],
            "category": "Counting",
            "length": "short",
        }
        for i in range(questions)
    ]
    pd.DataFrame(rows).to_parquet(folder / "videomathqa_mcq_test.parquet")
    return folder


def pick_dataset(work: Path, questions: int):
    """The demo set's VideoMathQA MCQ questions if there are enough, else a generated set."""
    from mathreel.core.data import load_dataset

    demo = ROOT / "assets" / "demo"
    if demo.is_dir():
        try:
            dataset = load_dataset("videomathqa", "mcq", demo)
            if len(dataset.questions) >= 1:
                return dataset, f"demo set ({len(dataset.questions)} questions, repeated to {questions})"
        except Exception as error:  # a half-written demo set: fall back
            print(f"demo set not usable ({error}); generating a fixture", file=sys.stderr)
    t0 = time.perf_counter()
    folder = generated_dataset(work / "videomathqa", questions, videos=10)
    dataset = load_dataset("videomathqa", "mcq", folder)
    return dataset, f"generated set (10 videos 640x360 x 250 frames, written in {time.perf_counter() - t0:.1f} s)"


def time_prepare(dataset, settings, cache: Path, samples: int) -> tuple[float, float]:
    """Median seconds to prepare one question's request with an empty cache, and with a warm one."""
    from mathreel.core.client.run import prepare_request

    cold, warm = [], []
    for question in dataset.questions[:samples]:
        shutil.rmtree(cache, ignore_errors=True)
        t0 = time.perf_counter()
        prepare_request(dataset, question, settings, cache_dir=cache)
        cold.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        prepare_request(dataset, question, settings, cache_dir=cache)
        warm.append(time.perf_counter() - t0)
    return statistics.median(cold), statistics.median(warm)


def time_run(dataset, questions, settings, server, out: Path) -> float:
    from mathreel.core.client import Endpoint
    from mathreel.core.client.run import run_benchmark

    endpoint = Endpoint(server.base_url, "fake-vision-1", api_key="bench-key", timeout_s=30)
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    summary = run_benchmark(dataset, questions, endpoint, out, settings)
    elapsed = time.perf_counter() - t0
    if summary.answered != len(questions):
        raise SystemExit(f"only {summary.answered} of {len(questions)} answered: {summary.failed[:3]}")
    return elapsed


def _serve(latency: float, ports, stop) -> None:
    """The fake server in its own process, as a real model server would be: its JSON parsing of ~1 MB
    requests must not compete with the client for this process's GIL."""
    from helpers.fake_openai import FakeOpenAI

    with FakeOpenAI(latency_s=latency) as server:
        ports.put(server.base_url)
        stop.wait()
        ports.put(server.max_in_flight)


class ServerProcess:
    """Start `_serve` in a child process; `base_url` once it listens, `max_in_flight` after `close()`."""

    def __init__(self, latency: float) -> None:
        import multiprocessing

        self.ports = multiprocessing.Queue()
        self.stop = multiprocessing.Event()
        self.process = multiprocessing.Process(target=_serve, args=(latency, self.ports, self.stop), daemon=True)
        self.process.start()
        self.base_url = self.ports.get(timeout=30)
        self.max_in_flight = 0

    def close(self) -> None:
        self.stop.set()
        self.max_in_flight = self.ports.get(timeout=30)
        self.process.join(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--frames", type=int, default=16)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()

    from mathreel.core.client.run import RunSettings

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        cache = work / "cache"
        os.environ["MATHREEL_CACHE"] = str(cache)
        dataset, described = pick_dataset(work, args.questions)
        # A small demo set is repeated (each repeat is asked again) to reach the number of questions.
        questions = [dataset.questions[i % len(dataset.questions)] for i in range(args.questions)]
        settings = RunSettings(num_frames=args.frames, concurrency=args.concurrency)
        cold, warm = time_prepare(dataset, settings, cache / "frames-probe", samples=5)
        ideal = len(questions) / args.concurrency * args.latency
        print(f"dataset: {described}")
        print(
            f"prepare one question ({args.frames} frames): cold {cold * 1000:.0f} ms, warm {warm * 1000:.0f} ms "
            "(median of 5)"
        )
        t0 = time.perf_counter()
        import openai  # noqa: F401  (a one-time start-up cost, reported apart from the runs)

        import_s = time.perf_counter() - t0
        server = ServerProcess(args.latency)
        try:
            shutil.rmtree(cache, ignore_errors=True)
            cold_run = time_run(dataset, questions, settings, server, work / "cold.jsonl")
            warm_runs = [time_run(dataset, questions, settings, server, work / "warm.jsonl") for _ in range(3)]
        finally:
            server.close()
        warm_run = min(warm_runs)
        print(f"server saw at most {server.max_in_flight} requests at once")
        print(
            f"run {len(questions)} questions, concurrency {args.concurrency}, {args.latency * 1000:.0f} ms replies: "
            f"ideal {ideal:.2f} s"
        )
        print(f"  cold frame cache: {cold_run:.2f} s = {cold_run / ideal:.2f}x ideal")
        print(
            f"  warm frame cache: {warm_run:.2f} s = {warm_run / ideal:.2f}x ideal (best of 3: "
            f"{', '.join(f'{t:.2f}' for t in warm_runs)})"
        )
        print(
            f"importing openai (once per process, not in the runs): {import_s:.2f} s; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )


if __name__ == "__main__":
    main()
