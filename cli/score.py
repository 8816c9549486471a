"""`mathreel score FILE ...`: score prediction files with breakdowns, intervals and clustered SE.

Imports of the scoring core happen in `run`, so `mathreel --help` stays fast; scoring a JSON file never
imports pandas or numpy.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import BENCHMARKS, extractor_names
from mathreel.core.defaults import RESULT_FORMATS
from mathreel.core.errors import InputError

if TYPE_CHECKING:
    from mathreel.core.results import ResultFile


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help=f"score prediction files ({RESULT_FORMATS})",
        description="Score prediction files: accuracy with 95% Wilson intervals, naive and video-clustered SE, "
        "breakdowns per dimension, unparsed/missing counts and robust-vs-official extractor disagreements.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="result file(s) to score")
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="benchmark (detected when omitted)")
    parser.add_argument("--mode", help="mcq or mbin for VideoMathQA (detected when omitted)")
    parser.add_argument(
        "--extractor",
        default="robust",
        metavar="NAME",
        help="robust (default) or a pinned reproduction of a reference scorer: "
        f"{', '.join(extractor_names()[1:])}; `--extractor help` lists each with its source commit",
    )
    parser.add_argument(
        "--denominator",
        choices=("all", "answered"),
        default=None,
        help="all: unparsed count wrong (default); answered: unparsed dropped (official Video-MME)",
    )
    parser.add_argument(
        "--annotations",
        metavar="PATH",
        help="dataset file (parquet/JSON/JSONL/CSV) or data directory giving gold answers",
    )
    parser.add_argument(
        "--judge",
        action="append",
        metavar="JUDGMENTS",
        default=[],
        help="a `mathreel judge` output whose answer extractions replace the rule reading; "
        "one per FILE, in the same order",
    )
    parser.add_argument(
        "--reviews",
        action="append",
        metavar="REVIEWS",
        default=[],
        help="review file(s) (merged): a reviewer's error category or step score replaces the "
        "judge's for the same question and response; needs --judge",
    )
    parser.add_argument(
        "--readings",
        action="append",
        metavar="READINGS",
        default=[],
        help="labelled readings (JSONL: response, options, reading, label, reason); an answer with "
        "the same response and options is scored by its label instead of the rule reading; "
        "several files merge, the later winning",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (a list for several files)")
    parser.add_argument(
        "--rows",
        action="store_true",
        help="with --json: add `rows`, one object per question (response, extracted answer, method, "
        "explanation, gold, status), and for group-scored benchmarks `groups.items`, one object per "
        "group; large for big files, so off by default",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read and score every file first, so a bad file leaves stdout empty.

    The cyclic garbage collector stays paused throughout (`core.results.bulk`): reading and scoring each paused
    it already, and each time it resumed in between, or while the report was written, a collection walked every
    row's objects (about 2% of a 2,700-answer `score --json` process; peak memory unchanged)."""
    from mathreel.core.results.bulk import gc_paused

    with gc_paused():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from mathreel.core.scoring.files import ScoreRequest, read_request, score_result
    from mathreel.core.scoring.reading_memo import SharedMemos

    if args.extractor == "help":
        print(extractor_help())
        return 0
    if args.extractor not in extractor_names():
        raise InputError(
            "--extractor",
            f"unknown extractor {args.extractor!r}; choose one of {', '.join(extractor_names())} (or `help`)",
        )
    if not args.files:
        raise InputError("score", "give at least one result FILE")
    if args.rows and not args.json:
        raise InputError("--rows", "per-question rows are part of the JSON output: add --json")
    if args.judge and len(args.judge) != len(args.files):
        raise InputError("--judge", f"give one judgments file per result file ({len(args.files)}), in the same order")
    if args.reviews and not args.judge:
        raise InputError("--reviews", "reviews correct a judge's verdicts: add --judge")
    shown: list[object] = []  # each report as printed (its JSON object or text), made as soon as it is scored
    memos = SharedMemos()  # runs over the same questions read each distinct answer once
    tables: dict[object, object] | None = {} if len(args.files) > 1 else None  # and each question once
    first: ResultFile | None = None
    for index, path in enumerate(args.files):
        request = ScoreRequest(
            path,
            args.benchmark,
            args.mode,
            args.extractor,
            args.denominator,
            args.annotations,
            judgments=args.judge[index] if args.judge else None,
            reviews=tuple(args.reviews),
            readings=tuple(args.readings),
            run_settings=False,  # the app's prompt settings: neither the table nor the JSON shows them
        )
        result = read_request(request, tables)
        report = score_result(result, request, memos)
        if first is None:
            first = result
        else:
            report.warnings.extend(_same_documents(first, result))
        # What is printed is made now, so a run's rows and answers are let go before the next is read (many runs
        # in one call hold one report at a time); it is printed once every file has been scored.
        if args.json:
            shown.append(report.to_dict(rows=args.rows))
        else:
            from mathreel.core.scoring.text import format_report

            shown.append(format_report(report))
        del report, result
    if args.json:
        from mathreel.core.json_text import indented_json  # json.dumps(..., ensure_ascii=False, indent=1), faster

        print(indented_json(shown[0] if len(shown) == 1 else shown))
    else:
        print("\n\n".join(map(str, shown)))
    return 0


def extractor_help() -> str:
    """One line per benchmark and reproduction: the name to pass, what it reproduces, its source and commit."""
    lines = ["robust: MathReel's extractor (every benchmark)"]
    for bench in BENCHMARKS.values():
        for name, scorer in bench.reproductions.items():
            lines.append(f"{name} [{bench.name}]: {scorer.label}; denominator {scorer.denominator}")
    return "\n".join(lines)


def _same_documents(first: ResultFile, other: ResultFile) -> list[str]:
    """A warning when `other` answers some of `first`'s questions from different documents (lmms-eval doc_hash)."""
    if (first.benchmark, first.mode) != (other.benchmark, other.mode):
        return []
    from mathreel.core.results.lmms_log import conflict_warning, doc_hash_conflicts

    warning = conflict_warning(doc_hash_conflicts(first, other))
    return [f"compared with {first.source}: {warning}"] if warning else []
