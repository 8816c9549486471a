"""`mathreel agreement JUDGMENTS REVIEWS...`: how far the judge agrees with people (Cohen's kappa with a bootstrap
interval, confusion matrix, precision and recall per category, step-score differences), how far reviewers agree
with each other, and the questions reviewers flagged as broken."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mathreel.core.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "agreement", help="agreement between the judge and human reviews", description=__doc__
    )
    parser.add_argument("judgments", metavar="JUDGMENTS", help="a `mathreel judge` output file")
    parser.add_argument(
        "reviews",
        nargs="+",
        metavar="REVIEWS",
        help="review file(s); several reviewers' files are merged (the later record per question and reviewer wins)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--flagged", metavar="PATH", help="also write the flagged questions to PATH (.csv or .json)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap interval (default 0)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mathreel.cli import options
    from mathreel.core.files import output_path, write_text_output
    from mathreel.core.judge.model import read_judgments
    from mathreel.core.review import read_many
    from mathreel.core.review.agreement import (
        FLAGGED_CSV,
        FLAGGED_JSON,
        agreement,
        flagged_csv,
        flagged_json,
        summary_lines,
    )

    options.check(args, options.SEED)
    inputs = (args.judgments, *args.reviews)
    kind = None
    if args.flagged:
        suffix = Path(args.flagged).suffix.lower()
        if suffix not in (".csv", ".json"):
            raise InputError(args.flagged, "the flagged-question export must end in .csv or .json")
        kind = FLAGGED_CSV if suffix == ".csv" else FLAGGED_JSON
        output_path(args.flagged, "--flagged", kind=kind, inputs=inputs)  # refused before any work
    result = agreement(read_judgments(args.judgments), read_many(args.reviews), seed=args.seed)
    if kind is not None:
        text = flagged_csv(result.flagged) if kind is FLAGGED_CSV else flagged_json(result.flagged)
        write_text_output(args.flagged, text, flag="--flagged", kind=kind, inputs=inputs)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1))
    else:
        print("\n".join(summary_lines(result)))
    return 0
