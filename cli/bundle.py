"""`mathreel bundle RESULTS... --out DIR`: the evidence of one or more runs as a static site anyone can open.

Headline figures with intervals and every reference reproduction, breakdowns with charts, and one page per question
with the frames the model saw (index, time, subtitle lines), the prompt, every run's response with the answer marked
where it was read and why, the judge's card and people's reviews. Open DIR/index.html from disk or serve DIR from any
static host (a static Hugging Face Space): no page loads anything from elsewhere. The estimated size is printed
before anything is written.
"""

from __future__ import annotations

import argparse
import sys

from mathreel.cli.options import add_frame_options
from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.errors import InputError

NO_JUDGE = "-"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bundle",
        help="write a static, shareable site of one or more runs",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "files", nargs="+", metavar="RESULTS", help="result file(s) of one benchmark, any format `score` reads"
    )
    parser.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="folder to write (new, empty, or an earlier bundle, which is replaced)",
    )
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="benchmark (detected when omitted)")
    parser.add_argument("--mode", help="mcq or mbin for VideoMathQA (detected when omitted)")
    parser.add_argument("--extractor", default="robust", metavar="NAME", help="as in `score`")
    parser.add_argument("--denominator", choices=("all", "answered"), default=None, help="as in `score`")
    parser.add_argument("--annotations", metavar="PATH", help="dataset file or folder giving gold answers")
    parser.add_argument(
        "--judge",
        action="append",
        default=[],
        metavar="JUDGMENTS",
        help="a `mathreel judge` output per RESULTS file, in the same order ('-' for none)",
    )
    parser.add_argument(
        "--reviews",
        action="append",
        default=[],
        metavar="REVIEWS",
        help="review file(s): shown under the judged answers they review; needs --judge",
    )
    parser.add_argument(
        "--data",
        "-d",
        default=None,
        metavar="DIR",
        help="the dataset the frames and prompts come from (default: MATHREEL_DATA, else the demo set)",
    )
    add_frame_options(parser)
    parser.add_argument(
        "--cot",
        action="store_true",
        default=None,
        help="show the chain-of-thought prompt (default: each run's own setting)",
    )
    parser.add_argument(
        "--subtitles",
        action="store_true",
        default=None,
        help="show prompts with the sampled frames' subtitles (default: each run's own setting)",
    )
    parser.add_argument("--full-subtitles", action="store_true", default=None, help="every subtitle line in prompts")
    parser.add_argument("--title", default="", help="the index page's title")
    parser.add_argument("--dry-run", action="store_true", help="print the estimated size and write nothing")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Plan (read and score every file), report the estimated size, then write."""
    from mathreel.cli import options
    from mathreel.core.benchmarks import extractor_names
    from mathreel.core.bundle import BundleRequest, PromptOverrides, plan_bundle, write_bundle

    options.check(args, options.FRAMES, options.FPS)
    if args.extractor not in extractor_names():
        raise InputError(
            "--extractor", f"unknown extractor {args.extractor!r}; choose one of {', '.join(extractor_names())}"
        )
    if args.reviews and not args.judge:
        raise InputError("--reviews", "reviews correct a judge's verdicts: add --judge")
    judges = tuple(None if judge == NO_JUDGE else judge for judge in args.judge)
    prompt = PromptOverrides(
        args.frames,
        args.fps,
        args.cot,
        args.subtitles,
        args.full_subtitles,
        True if args.interleave else None,
        args.style,
    )
    request = BundleRequest(
        tuple(args.files),
        judges,
        tuple(args.reviews),
        args.benchmark,
        args.mode,
        args.extractor,
        args.denominator,
        args.annotations,
        args.data,
        prompt,
        args.title,
    )
    plan = plan_bundle(request)
    print(f"mathreel bundle: {plan.estimate_text()}", file=sys.stderr)
    if args.dry_run:
        return 0
    written = write_bundle(plan, args.out)
    print(
        f"wrote {written.folder}: {written.files} files, {written.bytes / 1e6:.1f} MB "
        f"({written.thumbnails} thumbnails); open {written.folder / 'index.html'}"
    )
    return 0
