"""`mathreel run`: ask a model every selected question of a benchmark and score the answers.

The API key is read from an environment variable (OPENAI_API_KEY, or the one --api-key-env names),
never from a flag: command lines show up in process lists and shell history. --model may be left out
when MATHREEL_MODEL names the model (core.client.endpoint owns that fallback).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from mathreel.cli.options import add_frame_options
from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.errors import InputError

DEFAULT_MAX_SIDE = 768  # the same default as core.client.request, kept here so --help needs no import


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="ask a model (any OpenAI-compatible endpoint) every selected question, then score",
        description="Ask an OpenAI-compatible chat endpoint every selected question with bounded concurrency, "
        "appending each answer to FILE (lmms-eval samples JSONL) as it arrives, then print the score. Running "
        "again skips questions FILE already answers and retries the ones that failed. The API key comes from "
        "the environment variable named by --api-key-env (default OPENAI_API_KEY), never from a flag.",
    )
    parser.add_argument("--benchmark", required=True, choices=sorted(BENCHMARKS))
    parser.add_argument("--mode", help="mcq or mbin for VideoMathQA (the benchmark's first mode when omitted)")
    parser.add_argument("--data", metavar="DIR", help="dataset directory (default: MATHREEL_DATA, then the demo set)")
    parser.add_argument("--cot", action="store_true", help="use the chain-of-thought prompt")
    parser.add_argument(
        "--subtitles", action="store_true", help="put the subtitles of the sampled frames in the prompt"
    )
    add_frame_options(parser)
    parser.add_argument(
        "--max-side",
        type=int,
        default=DEFAULT_MAX_SIDE,
        metavar="PX",
        help=f"longest image side sent; larger frames are re-encoded (default {DEFAULT_MAX_SIDE})",
    )
    parser.add_argument(
        "--base-url",
        help="endpoint base URL, e.g. http://127.0.0.1:8000/v1 (default: "
        "OPENAI_BASE_URL, then https://api.openai.com/v1)",
    )
    parser.add_argument("--model", help="model name as the endpoint knows it (default: MATHREEL_MODEL)")
    parser.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY); may be unset for local servers",
    )
    parser.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="keep questions whose KEY (a dimension, question_id, video_id or group_id) equals "
        "VALUE; repeat for more (the same key twice means either value)",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="ask only the first N selected questions")
    parser.add_argument("--concurrency", type=int, default=8, metavar="K", help="requests in flight (default 8)")
    parser.add_argument("--max-tokens", type=int, default=1024, metavar="N", help="reply length cap (default 1024)")
    parser.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S", help="seconds per request (default 120)")
    parser.add_argument(
        "--attempts",
        type=int,
        default=4,
        metavar="N",
        help="tries per question; 429, 5xx and timeouts are retried with backoff (default 4)",
    )
    parser.add_argument("--out", required=True, metavar="FILE", help="answers file (JSONL); appended to, resumable")
    parser.set_defaults(handler=run)


class ProgressLine:
    """ "\\r 37/100 answered, 2 failed" on stderr, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int, failed: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        self.shown = True
        self.stream.write(f"\r {done}/{total} answered, {failed} failed")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _check_numbers(args: argparse.Namespace) -> None:
    from mathreel.cli import options

    for flag, value in (("--attempts", args.attempts), ("--max-side", args.max_side)):
        if value < 1:
            raise InputError(flag, f"must be at least 1, not {value}")
    options.check(
        args,
        options.TIMEOUT,
        options.TEMPERATURE,
        options.MAX_TOKENS_RULE,
        options.CONCURRENCY,
        options.FRAMES,
        options.FPS,
    )


def run(args: argparse.Namespace) -> int:
    """Select, ask, write, summarise, score. Exit 0 when every selected question is answered, 1 otherwise."""
    from mathreel.core.client import Endpoint
    from mathreel.core.client.run import RunSettings, run_benchmark, select_questions
    from mathreel.core.data import load_dataset

    _check_numbers(args)
    endpoint = Endpoint.from_env(
        args.model,
        args.base_url,
        key_env=args.api_key_env,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
        timeout_s=args.timeout,
        max_attempts=args.attempts,
    )
    dataset = load_dataset(args.benchmark, args.mode, args.data)
    if (args.subtitles or args.interleave) and not dataset.layout.has_video:
        raise InputError("--subtitles", f"{dataset.bench.title} has no videos, so no subtitles")
    if args.interleave and not dataset.bench.interleaved_subtitles:
        raise InputError("--interleave", f"{dataset.bench.title} has no interleaved subtitles")
    questions = select_questions(dataset, args.filter, args.limit)
    if not questions:
        raise InputError("--filter", f"no {dataset.bench.title} question matches {' '.join(args.filter)}")
    settings = RunSettings(
        num_frames=args.frames,
        cot=args.cot,
        with_subtitles=args.subtitles,
        max_side=args.max_side,
        concurrency=args.concurrency,
        style=args.style,
        interleaved=args.interleave,
        fps=args.fps,
    )
    progress = ProgressLine()
    try:
        summary = run_benchmark(dataset, questions, endpoint, args.out, settings, progress=progress)
    finally:
        progress.close()
    _print_summary(summary, endpoint.describe())
    if summary.answered or summary.skipped:
        _print_score(args.out, dataset.benchmark, dataset.mode)
    return 1 if summary.failed else 0


def _print_summary(summary, endpoint_name: str) -> None:
    """Counts on stderr, then each failure's reason (at most ten, then how many more)."""
    print(
        f"{endpoint_name}: {summary.answered} answered, {len(summary.failed)} failed, "
        f"{summary.skipped} already in {summary.out} ({summary.selected} selected) in {summary.elapsed_s:.1f} s",
        file=sys.stderr,
    )
    for ref, why in summary.failed[:10]:
        print(f"  failed {ref}: {why}", file=sys.stderr)
    if len(summary.failed) > 10:
        print(f"  ... and {len(summary.failed) - 10} more", file=sys.stderr)
    if summary.failed:
        print("  run the same command again to retry the failed questions", file=sys.stderr)


def _print_score(out: str, benchmark: str, mode: str) -> None:
    """The score of everything FILE holds, as `mathreel score FILE` prints it."""
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score
    from mathreel.core.scoring.text import format_report

    print(format_report(score(read_results(out, benchmark=benchmark, mode=mode))))
