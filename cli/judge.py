"""`mathreel judge RESULTS`: run the LLM judge over a result file and write one JSONL line per judgment.

The judge endpoint comes from --base-url/--model or MATHREEL_JUDGE_BASE_URL / MATHREEL_JUDGE_MODEL; the key only
from MATHREEL_JUDGE_API_KEY (never a flag, so it stays out of shell history and process lists). Progress goes to
stderr, the summary to stdout. Replies are cached, so a second run, or the rest of an interrupted one, is free.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.plural import counted

_SHOWN_FAILURES = 5


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "judge",
        help="LLM judge: CoT answer extraction, step-wise scores, error categories, free-form equivalence",
        description="Judge the responses of a result file with an OpenAI-compatible model (the paper uses "
        "Qwen3-4B on vLLM). The API key is read from MATHREEL_JUDGE_API_KEY.",
    )
    parser.add_argument("results", metavar="RESULTS", help="result file (any layout `mathreel score` reads)")
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="benchmark (detected when omitted)")
    parser.add_argument("--mode", help="mcq or mbin for VideoMathQA (detected when omitted)")
    parser.add_argument(
        "--annotations",
        metavar="PATH",
        help="dataset file or directory with gold answers and annotated steps (id-only files)",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="dataset to take annotated steps from when the file lacks them "
        "(default: $MATHREEL_DATA, else the demo set; used only where ids and question texts match)",
    )
    parser.add_argument(
        "--tasks", default=None, help="comma-separated: extract,steps,errors,equiv (default: all that apply)"
    )
    parser.add_argument(
        "--base-url", help="judge endpoint, e.g. http://localhost:8000/v1 (default: $MATHREEL_JUDGE_BASE_URL)"
    )
    parser.add_argument("--model", help="judge model name (default: $MATHREEL_JUDGE_MODEL)")
    parser.add_argument("--out", required=True, metavar="FILE", help="where to write the judgments (JSONL)")
    parser.add_argument("--concurrency", type=int, default=8, metavar="K", help="judge calls in flight (default 8)")
    parser.add_argument("--timeout", type=float, default=300.0, metavar="S", help="seconds per call (default 300)")
    parser.add_argument("--max-tokens", type=int, default=8192, help="judge reply limit (default 8192)")
    parser.add_argument("--cache-dir", metavar="DIR", help="reply cache (default ~/.cache/mathreel/judge)")
    parser.add_argument("--no-cache", action="store_true", help="ask the judge again for everything")
    parser.set_defaults(handler=run)


class Progress:
    """A one-line bar on a terminal; on a pipe or log file, a line at every tenth of the way."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.tty = stream.isatty()
        self.failed = 0
        self.cached = 0
        self.started = time.perf_counter()
        self.last_tenth = -1

    def __call__(self, done: int, total: int, judgment: Any) -> None:
        self.failed += judgment.failed
        self.cached += judgment.cached
        if self.tty:
            self.stream.write("\r" + self.line(done, total))
            if done == total:
                self.stream.write("\n")
        elif (tenth := done * 10 // max(total, 1)) != self.last_tenth:
            self.last_tenth = tenth
            self.stream.write(self.line(done, total) + "\n")
        self.stream.flush()

    def line(self, done: int, total: int) -> str:
        filled = self.width * done // max(total, 1)
        elapsed = time.perf_counter() - self.started
        return (
            f"judge [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total}  "
            f"{self.cached} cached  {self.failed} failed  {elapsed:.1f}s"
        )


def run(args: argparse.Namespace) -> int:
    """Read the file, judge it, write the JSONL atomically, print the summary; 1 when any judge call failed."""
    from mathreel.cli import options
    from mathreel.core.files import output_path
    from mathreel.core.judge import judge_endpoint, parse_tasks, write_judgments
    from mathreel.core.judge.model import judgments_file
    from mathreel.core.judge.runs import failures, open_cache, prepare
    from mathreel.core.judge.views import summary_lines

    options.check(args, options.TIMEOUT, options.MAX_TOKENS_RULE, options.CONCURRENCY)
    inputs = tuple(p for p in (args.results, args.annotations) if p)
    out = output_path(args.out, "--out", kind=judgments_file(), inputs=inputs)
    tasks = parse_tasks(args.tasks)
    endpoint = judge_endpoint(args.base_url, args.model, timeout_s=args.timeout, max_tokens=args.max_tokens)
    job = prepare(
        args.results,
        benchmark=args.benchmark,
        mode=args.mode,
        annotations=args.annotations,
        data_dir=args.data,
        tasks=tasks,
    )
    cache = None if args.no_cache else open_cache(args.cache_dir, hint="pass --cache-dir DIR or --no-cache")
    if job.note is not None:
        print(job.note, file=sys.stderr)
    result = job.result
    print(
        f"judging {counted(len(job.cases), 'response')} of {args.results} ({result.benchmark} {result.mode}) with "
        f"{endpoint.describe()}",
        file=sys.stderr,
    )
    judged = job.run(endpoint, concurrency=args.concurrency, cache=cache, on_progress=Progress(sys.stderr))
    path = write_judgments(out, judged.judgments, inputs=inputs)
    print(f"wrote {counted(len(judged.judgments), 'judgment')} to {path} (judge {endpoint.model})")
    for line in summary_lines(judged.judgments, judged.not_applicable):
        print(line)
    lines, verdict = failures(judged.judgments, _SHOWN_FAILURES, str(path))
    for line in lines:
        print(line)
    if verdict:
        print(f"mathreel: {verdict}", file=sys.stderr)
    return 1 if verdict else 0
