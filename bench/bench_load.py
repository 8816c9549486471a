"""Bounded load test of `mathreel serve` on 127.0.0.1: do other visitors stay fast while one uploads a costly file?

Phases, each bounded in requests and time:
  1. idle: one session scores a small file and switches Browse questions;
  2. crowd: SESSIONS sessions do the same at once;
  3. crowd + heavy: the same while one more visitor uploads a costly file (nested \\boxed{, or many long rows).
Prints p50/p95 of scoring and Browse latency per phase, and the heavy upload's own outcome.

    python bench/bench_load.py [--sessions 30] [--rounds 3] [--heavy nested,rows] [--score-seconds 60]

Each phase's row is printed as soon as it ends. With several --heavy kinds, phase 3 runs once per kind on the same
server. The costly row file is kept under the app's default upload limit (50 MB), or the client refuses to send it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import badinputs  # noqa: E402
from appserver import serving  # noqa: E402
from test_reliability_app import client_for, nested_boxed_file, upload_args  # noqa: E402

KEYS = ("videomathqa:mcq", "videomme:mcq", "mathverse:default")


def heavy_file(kind: str, directory: Path) -> Path:
    if kind == "nested":
        return nested_boxed_file(directory / "heavy-nested.jsonl", 20_000)
    path = directory / "heavy-rows.jsonl"  # 70,000 rows of ~450 characters: 48 MB, under the 50 MB upload limit
    path.write_bytes(badinputs.jsonl(badinputs.run_records(70_000, 35_000, "Reasoning. " * 40 + "The answer is {}.")))
    return path


def session(url: str, small: Path, rounds: int, timings: dict[str, list[float]], lock: threading.Lock) -> None:
    client = client_for(url)
    try:
        for i in range(rounds):
            start = time.perf_counter()
            client.submit(*upload_args([small]), api_name="/rescore").result(timeout=300)
            scored = time.perf_counter() - start
            start = time.perf_counter()
            client.submit(KEYS[i % len(KEYS)], 8, False, False, False, api_name="/first_question").result(300)
            browsed = time.perf_counter() - start
            with lock:
                timings["score"].append(scored)
                timings["browse"].append(browsed)
    finally:
        client.close()


def phase(url: str, small: Path, sessions: int, rounds: int) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {"score": [], "browse": []}
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=sessions) as pool:
        for future in [pool.submit(session, url, small, rounds, timings, lock) for _ in range(sessions)]:
            future.result()
    return timings


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def report(name: str, t: dict[str, list[float]]) -> None:
    print(f"| {name} | {len(t['score']) + len(t['browse'])} | {pct(t['score'], 50):.2f} s | "
          f"{pct(t['score'], 95):.2f} s | {pct(t['browse'], 50):.2f} s | {pct(t['browse'], 95):.2f} s | "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} |", flush=True)


def with_heavy(url: str, small: Path, heavy: Path, sessions: int, rounds: int) -> None:
    """Phase 3: the crowd while one more visitor uploads `heavy`; then the heavy upload's own outcome."""
    heavy_client = client_for(url)
    start = time.perf_counter()
    job = heavy_client.submit(*upload_args([heavy]), api_name="/rescore")
    report(f"{sessions} sessions + heavy upload ({heavy.name})", phase(url, small, sessions, rounds))
    try:
        box, *_ = job.result(timeout=600)
        outcome = f"refused: {box['value'][:120]}" if box["visible"] else "scored"
    except Exception as error:  # the bench reports whatever happened to the heavy visitor
        outcome = f"failed: {type(error).__name__}: {str(error)[:120]}"
    finally:
        heavy_client.close()
    print(f"  heavy upload {heavy.name} ({heavy.stat().st_size / 1e6:.1f} MB): "
          f"{time.perf_counter() - start:.1f} s, {outcome}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--heavy", default="nested", help="comma-separated: nested, rows")
    parser.add_argument("--score-seconds", type=int, default=60)
    args = parser.parse_args()

    kinds = [kind for kind in args.heavy.split(",") if kind]
    if not set(kinds) <= {"nested", "rows"}:
        parser.error("--heavy takes nested, rows or both")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        small = base / "small.jsonl"
        small.write_bytes(badinputs.known_accuracy_file(12, 7))
        heavies = [heavy_file(kind, base) for kind in kinds]
        env = {**os.environ, "MATHREEL_CACHE": str(base / "cache"), "GRADIO_TEMP_DIR": str(base / "gradio"),
               "GRADIO_ANALYTICS_ENABLED": "False", "MATHREEL_SCORE_SECONDS": str(args.score_seconds)}
        env.pop("MATHREEL_DATA", None)
        with serving(env, base) as (url, _log):
            phase(url, small, 1, 1)  # warm-up
            print("| phase | requests | score p50 | score p95 | Browse p50 | Browse p95 | load average after |\n"
                  "|---|---|---|---|---|---|---|", flush=True)
            report("idle, 1 session", phase(url, small, 1, args.rounds * 3))
            report(f"{args.sessions} sessions", phase(url, small, args.sessions, args.rounds))
            for heavy in heavies:
                with_heavy(url, small, heavy, args.sessions, args.rounds)


if __name__ == "__main__":
    main()
