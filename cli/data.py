"""`mathreel data list`: the questions of a benchmark, as a table or as JSON records."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from typing import Any

from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.errors import InputError
from mathreel.core.plural import plural

DATA_HELP = (
    "data location: a benchmark's own root, a folder holding "
    + ", ".join(f"{bench.layout.subdir}/" for bench in BENCHMARKS.values() if bench.layout)
    + ", or hf:<org>/<name>; default $MATHREEL_DATA, else the embedded demo set"
)


DEFAULT_BENCHMARK = "videomathqa"


def add_data_options(parser: argparse.ArgumentParser, detect: bool = False) -> None:
    """--benchmark, --mode and --data, shared by `data list` and `show`; with `detect` the benchmark defaults to
    the one --data holds (`benchmark_of`)."""
    default = None if detect else DEFAULT_BENCHMARK
    helptext = (
        f"benchmark (default: the one --data holds, else {DEFAULT_BENCHMARK})"
        if detect
        else f"benchmark (default: {DEFAULT_BENCHMARK})"
    )
    parser.add_argument("--benchmark", "-b", default=default, choices=sorted(BENCHMARKS), help=helptext)
    parser.add_argument(
        "--mode", "-m", default=None, help="mcq or mbin for VideoMathQA (default: the benchmark's first mode)"
    )
    parser.add_argument("--data", "-d", default=None, metavar="DIR", help=DATA_HELP)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("data", help="browse a benchmark's questions", description=__doc__)
    parser.set_defaults(handler=run, data_command=None, data_parser=parser)
    commands = parser.add_subparsers(dest="data_command", metavar="SUBCOMMAND")
    listing = commands.add_parser("list", help="list the questions (table, or --json records)")
    add_data_options(listing, detect=True)
    listing.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="DIMENSION=VALUE",
        help="keep questions whose dimension equals VALUE (repeatable), e.g. category=Chart",
    )
    listing.add_argument("--search", default=None, metavar="TEXT", help="keep questions whose text contains TEXT")
    listing.add_argument("--json", action="store_true", help="print a JSON list of records")


def run(args: argparse.Namespace) -> int:
    if args.data_command != "list":
        args.data_parser.print_help(sys.stderr)
        return 2
    from mathreel.core.data import as_record, load_dataset

    dataset = load_dataset(args.benchmark or benchmark_of(args.data), args.mode, args.data)
    questions = dataset.filter(args.search, **_where(args.where))
    if args.json:
        emit(json.dumps([as_record(dataset, q) for q in questions], ensure_ascii=False, indent=1))
    else:
        emit(render_table(dataset, questions, width=shutil.get_terminal_size((120, 24)).columns))
    return 0


def benchmark_of(data: str | None) -> str:
    """The benchmark a data folder holds when it holds exactly one; else the default (a parent of several, the
    demo set, or a hub id, which is fetched per benchmark)."""
    from pathlib import Path

    from mathreel.core.data.locate import HF_PREFIX, benchmarks_in, data_spec

    spec = data_spec(data)
    if spec is None or spec.startswith(HF_PREFIX) or not Path(spec).expanduser().is_dir():
        return DEFAULT_BENCHMARK
    found = benchmarks_in(Path(spec).expanduser())
    return found[0] if len(found) == 1 else DEFAULT_BENCHMARK


def emit(text: str) -> None:
    """Print `text`; a reader that stops early (`| head`) is not an error worth a traceback."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again


def _where(items: list[str]) -> dict[str, list[str]]:
    """`--where key=value` options as {key: [values]}."""
    wanted: dict[str, list[str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError("--where", f"expected DIMENSION=VALUE, got {item!r}")
        wanted.setdefault(key.strip(), []).append(value.strip())
    return wanted


def render_table(dataset: Any, questions: list[Any], width: int = 120) -> str:
    """A readable table: id, answer, each dimension, then the question text cut to fit."""
    keys = dataset.dimension_keys()
    header = ["id", "answer", *keys]
    rows = [[dataset.ref(q), q.answer, *(q.dims.get(k, "") for k in keys)] for q in questions]
    widths = [max([len(h)] + [len(str(r[i])) for r in rows]) for i, h in enumerate(header)]
    room = max(20, width - sum(widths) - 2 * len(widths))
    lines = [_row([*header, "question"], widths)]
    for row, question in zip(rows, questions, strict=True):
        text = " ".join((question.question or dataset.bench.full_question(question)).split())
        lines.append(_row([*row, _cut(text, room)], widths))
    title = dataset.bench.title
    lines.append(
        f"{len(questions)} of {len(dataset.questions)} {title} {dataset.mode} "
        f"{plural(len(dataset.questions), 'question')} from {dataset.source}"
    )
    return "\n".join(lines)


def _row(cells: list[Any], widths: list[int]) -> str:
    padded = [str(c).ljust(w) for c, w in zip(cells, widths, strict=False)]
    return "  ".join(padded + [str(c) for c in cells[len(widths) :]]).rstrip()


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1] + "…"
