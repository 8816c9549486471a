"""`mathreel audit FILE`: the answers of a result file whose reading a person should check (weak readings,
conflicts, answers a reference extractor reads differently), and with `--out` a readings file to edit: each
answer's label is what MathReel read; change the labels that are wrong (null: no answer can be read) and score with
`mathreel score FILE --readings READINGS`. The web app's Browse walks the same list ("Readings to check")."""

from __future__ import annotations

import argparse
import json

from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.plural import counted


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "audit", help="list the readings a person should check, as a readings file", description=__doc__
    )
    parser.add_argument("file", metavar="FILE", help="a result file, in any format `mathreel score` reads")
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="benchmark (detected when omitted)")
    parser.add_argument("--mode", help="mcq or mbin for VideoMathQA (detected when omitted)")
    parser.add_argument(
        "--annotations", metavar="PATH", help="dataset file or data directory giving gold answers (id-only files)"
    )
    parser.add_argument(
        "--reference",
        metavar="NAME",
        help="the reference extractor to compare with (default: the benchmark's official one; "
        "`mathreel score --extractor help` lists them)",
    )
    parser.add_argument(
        "--out",
        metavar="READINGS",
        help="write the answers to check as a readings file (JSONL) to edit and pass to `mathreel score --readings`",
    )
    parser.add_argument("--json", action="store_true", help="print the answers to check as one JSON array")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mathreel.core.files import write_text_output
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score
    from mathreel.core.scoring.audit import AUDIT_READINGS, readings_to_check

    result = read_results(args.file, args.benchmark, args.mode, args.annotations)
    checks = readings_to_check(result, score(result).rows, args.reference)
    if args.out:
        text = "".join(
            json.dumps({**check.labelled(check.reading).to_dict(), "check": check.why}, ensure_ascii=False) + "\n"
            for check in checks
        )
        write_text_output(args.out, text, flag="--out", kind=AUDIT_READINGS, inputs=(args.file,))
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "question_id": c.question_id,
                        "record": c.record,
                        "reading": c.reading,
                        "method": c.method,
                        "reference": c.reference,
                        "why": c.why,
                    }
                    for c in checks
                ],
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    print(f"{len(checks)} of {counted(len(result.predictions), 'answer')} to check in {args.file}")
    for check in checks:
        print(f"  {check.question_id}: read {check.reading or 'nothing'} ({check.method}): {check.why}")
    if args.out and not checks:
        print(f"wrote {args.out}: empty, no reading to check")
    elif args.out:
        print(
            f"wrote {args.out}: edit the labels that are wrong, then `mathreel score {args.file} --readings {args.out}`"
        )
    return 0
