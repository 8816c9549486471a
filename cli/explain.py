"""`mathreel explain FILE [FILE2 ...]`: why a number differs, question by question.

One file: its figure under every reference reproduction (both denominators, group scores) with each source and
commit; with `--against FIGURE` or `--paper MODEL/SETTING`, the gap from your scoring to that figure, step by step;
with two scorers (`--extractor A --extractor B`, likewise `--denominator`, `--unit`, `--policy`), the gap between
them. Two files: the gap from A to B and the paired comparison (flips, exact McNemar, cluster bootstrap interval).
More files: every pairwise difference with its interval. Each run's settings are read from the file (or guessed,
and said so). `--json` is the whole explanation (docs/explain.md); `--csv` lists every question of every step.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.errors import InputError

if TYPE_CHECKING:
    from mathreel.core.explain.frames import FrameComparison
    from mathreel.core.explain.runs import Run
    from mathreel.core.explain.scorers import Scorer
    from mathreel.core.explain.target import PaperChoice, Target

NO_JUDGE = "-"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="why a number differs: every reference, a gap split into per-question causes, paired runs",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="result file(s), in any format `score` reads")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--against", metavar="FIGURE", help="a figure to reach, as printed (e.g. 58.2)")
    target.add_argument(
        "--paper",
        metavar="MODEL/SETTING[/TABLE]",
        help="a figure of the benchmark's paper tables (assets/reference), e.g. GPT-4o/mcq_sub",
    )
    for flag, what in (
        ("--extractor", "reader: robust or a reproduction (`mathreel score --extractor help`)"),
        ("--denominator", "all or answered"),
        ("--unit", "question, pair (multi-binary pairs alone) or group (Video-MME-v2 group scores)"),
        ("--policy", "group policy for --unit group: mathreel or a reproduction's (official, ...)"),
    ):
        parser.add_argument(
            flag, action="append", default=[], metavar="X", help=f"{what}; give it twice for A and B, once for both"
        )
    parser.add_argument(
        "--judge",
        action="append",
        default=[],
        metavar="JUDGMENTS",
        help="a `mathreel judge` output; one per FILE ('-' for none). With one FILE and no figure, A "
        "is the rule reading and B the judge's",
    )
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="benchmark (detected when omitted)")
    parser.add_argument("--mode", help="mcq or mbin for VideoMathQA (detected when omitted)")
    parser.add_argument("--annotations", metavar="PATH", help="dataset file or directory giving gold answers")
    parser.add_argument(
        "--frames-of",
        metavar="QUESTION_ID",
        help="same frames? the frames and subtitle lines of A's and B's frame plans on this "
        "question's video (needs the video: --data)",
    )
    parser.add_argument(
        "--plan",
        action="append",
        default=[],
        metavar="SPEC",
        help="a frame plan for --frames-of instead of a run's: N, N/uniform, N/midpoints, Ffps or "
        "Ffps/CAP; once (B) or twice (A and B)",
    )
    parser.add_argument("--data", metavar="DIR", help="the dataset for --frames-of (default: the demo set)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the cluster bootstrap (default 0)")
    parser.add_argument("--draws", type=int, default=2000, help="bootstrap draws (default 2000)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the explanation as one JSON object")
    output.add_argument("--csv", action="store_true", help="print one CSV line per question of each step of the gap")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read every file first, so a bad one leaves stdout empty."""
    from mathreel.cli.data import emit
    from mathreel.core.explain.explanation import explain

    if args.seed < 0:
        raise InputError("--seed", f"must be 0 or more, not {args.seed}")
    if not 100 <= args.draws <= 100_000:
        raise InputError("--draws", f"must be 100 to 100000, not {args.draws}")
    if args.plan and not args.frames_of:
        raise InputError("--plan", "frame plans are compared on a question's video: add --frames-of QUESTION_ID")
    runs = _runs(args)
    scorers = _scorers(args, runs)
    target, paper = _target(args, runs)
    frames = _frames(args, runs) if args.frames_of else None
    found = explain(runs, scorers, target, paper, frames, seed=args.seed, draws=args.draws)
    if args.json:
        emit(json.dumps(found.to_dict(), ensure_ascii=False, indent=1))
    elif args.csv:
        emit(found.rows_csv().rstrip("\n"))
    else:
        from mathreel.core.explain.text import format_explanation

        emit(format_explanation(found))
    return 0


def _runs(args: argparse.Namespace) -> list[Run]:
    from mathreel.core.explain.runs import load_run

    judges = args.judge
    if judges and len(args.files) > 1 and len(judges) != len(args.files):
        raise InputError("--judge", f"give one judgments file per result file ({len(args.files)}), '-' for none")
    if len(args.files) == 1 and len(judges) > 1:
        raise InputError("--judge", "one result file takes one judgments file")
    paths = [judge if judge != NO_JUDGE else None for judge in judges] or [None] * len(args.files)
    return [
        load_run(path, args.benchmark, args.mode, args.annotations, judge)
        for path, judge in zip(args.files, paths, strict=True)
    ]


def _pair(values: list[str], flag: str, default: str | None) -> tuple[str | None, str | None]:
    if len(values) > 2:
        raise InputError(flag, "give it once (both sides) or twice (A, then B)")
    if not values:
        return default, default
    return values[0], values[-1]


def _scorers(args: argparse.Namespace, runs: list[Run]) -> list[Scorer]:
    """A's and B's scorers from the flags; the reader's own denominator and unit when they are not given."""
    from mathreel.core.errors import MathReelError
    from mathreel.core.explain.scorers import Scorer, check_scorer, own_scorer

    bench = runs[0].bench
    mode = runs[0].result.mode
    readers = _pair(args.extractor, "--extractor", "robust")
    denominators = _pair(args.denominator, "--denominator", None)
    units = _pair(args.unit, "--unit", None)
    policies = _pair(args.policy, "--policy", None)
    one_file_judge = len(runs) == 1 and bool(runs[0].judgments) and not (args.against or args.paper)
    scorers = []
    for side in (0, 1):
        try:
            base = own_scorer(bench, readers[side] or "robust")
            judge = side == 1 if one_file_judge else bool(runs[min(side, len(runs) - 1)].judgments)
            unit = units[side] or (base.unit if not denominators[side] else "question")
            if unit == "group":
                scorer = Scorer(base.reader, "all", "group", policies[side] or base.policy or "mathreel", judge)
            else:
                if policies[side]:
                    raise InputError("--policy", "a group policy needs --unit group")
                denominator = denominators[side] or base.denominator
                scorer = Scorer(base.reader, denominator, unit, "", judge)  # type: ignore[arg-type]
            scorers.append(check_scorer(bench, mode, scorer))
        except InputError:
            raise
        except MathReelError as error:
            raise InputError("explain", str(error)) from None
    return scorers if scorers[0] != scorers[1] else scorers[:1]


def _target(args: argparse.Namespace, runs: list[Run]) -> tuple[Target | None, PaperChoice | None]:
    from mathreel.core.explain.target import paper_target, typed_target

    if args.against is not None:
        return typed_target(args.against), None
    if args.paper is None:
        return None, None
    bench = runs[0].bench
    reference = bench.reference_results()
    if reference is None:
        raise InputError("--paper", f"{bench.title} has no published results in assets/reference")
    from mathreel.core.explain.provenance import provenance

    cot = provenance(runs[0].result, runs[0].name).settings["cot"].value
    choice = paper_target(reference, args.paper, runs[0].result.mode, bool(cot))
    return choice.target, choice


def _frames(args: argparse.Namespace, runs: list[Run]) -> FrameComparison:
    """A's and B's frame plans (the runs' own, the benchmark's default, or --plan) on one question's video."""
    from mathreel.core.data import load_dataset
    from mathreel.core.explain.frames import FramePlan, check_same_question, compare_on_question, plans_to_compare
    from mathreel.core.explain.provenance import provenance

    own = [provenance(run.result, run.name).plan for run in runs[:2]]
    a, b = plans_to_compare(runs[0].bench, own, [FramePlan.parse(spec) for spec in args.plan])
    dataset = load_dataset(runs[0].result.benchmark, runs[0].result.mode, args.data)
    for run in runs[:2]:  # a file's question of another video than this data set's of that id: no frames of it here
        check_same_question(dataset, args.frames_of, run.result, run.name)
    return compare_on_question(dataset, args.frames_of, a, b)
