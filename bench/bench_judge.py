"""Judge throughput: 420 step evaluations against the loopback server answering in 200 ms, concurrency 16.

Ideal = ceil(420 / 16) x 0.2 s = 5.4 s (420 / 16 x 0.2 = 5.25 s if the calls overlapped perfectly); the target is
within 1.3x of 5.25 s. Then the same run again, which must be served from the on-disk cache (no request reaches
the server) in under 2 s. The `openai` import (a one-time start-up cost) is timed separately, before the runs.

    .venv/bin/python bench/bench_judge.py [--n 420] [--latency 0.2] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def make_cases(n: int) -> list:
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.judge import Case

    bench = get_benchmark("videomathqa")
    cases = []
    for i in range(n):
        steps = [f"Step {k} of question {i}: read value {k} and combine it." for k in range(1, 6)]
        record = {
            "question_id": f"q{i:04d}",
            "question": f"What is the total in lesson {i}?",
            "options": ["A. 10", "B. 12", "C. 14", "D. 16", "E. 18"],
            "answer": "C",
            "steps": steps,
            "category": "Arithmetic",
            "length": "short",
            "videoID": f"v{i}",
        }
        response = f"First I read the values shown in lesson {i}. " * 20 + "So the answer is C."
        cases.append(Case(bench.question_from_record(record, "mcq"), response, i))
    return cases


REPLY = "<think>Compare each step.</think>" + json.dumps(
    {"matched_steps": "4/5", "final_answer_correct": 1, "critique": "Most steps match; one is implied.", "score": 8}
)


def timed_run(cases, server, cache, concurrency: int) -> tuple[float, object]:
    from mathreel.core.judge import judge_cases, judge_endpoint

    endpoint = judge_endpoint(server.base_url, "fake-vision-1", timeout_s=30.0)
    started = time.perf_counter()
    run = judge_cases(cases, endpoint, benchmark="videomathqa", tasks=("steps",), concurrency=concurrency, cache=cache)
    return time.perf_counter() - started, run


def main() -> None:
    from helpers.fake_openai import FakeOpenAI

    from mathreel.core.judge import JudgeCache

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=420)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()

    cases = make_cases(args.n)
    started = time.perf_counter()
    import openai  # noqa: F401  (a one-time start-up cost, timed on its own so the runs measure judging)

    print(f"import openai: {time.perf_counter() - started:.2f} s (once per process, not part of the runs below)")
    ideal = args.n / args.concurrency * args.latency
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(latency_s=args.latency, reply=REPLY) as server:
        cache = JudgeCache(Path(tmp) / "judge-cache")
        first, run = timed_run(cases, server, cache, args.concurrency)
        asked = len(server.chat_requests)
        ok = run.counts["steps"]["ok"]
        print(
            f"first run : {first:.2f} s for {args.n} step evaluations ({asked} requests, {ok} ok, "
            f"{run.failures} failed, max in flight {server.max_in_flight}); ideal {ideal:.2f} s, "
            f"ratio {first / ideal if ideal else float('inf'):.2f}x (target <= 1.3x)"
        )
        second, again = timed_run(cases, server, cache, args.concurrency)
        print(
            f"second run: {second:.2f} s, {len(server.chat_requests) - asked} requests, "
            f"{again.calls_cached} served from the cache (target < 2 s, 0 requests)"
        )


if __name__ == "__main__":
    main()
