"""Answer extraction: accuracy of the robust, official Video-MME and lmms-eval extractors on the hand-labelled corpus,
and the robust extractor's speed.

Run: .venv/bin/python bench/bench_extract.py [--total 100000] [--repeat 3]
     .venv/bin/python bench/bench_extract.py --against main [--rounds 3]  (this tree against a git ref, same run)
     .venv/bin/python bench/bench_extract.py --agreement CASES.jsonl [--against main]
Also: per response style of bench_score.MIX (the realistic Video-MME mix), microseconds per answer for the robust
extractor (with its short-form shortcut), its full reading alone (`extract_choice_full`), and the official
Video-MME extractor's letter (what scoring runs on every answer to count disagreements).
Input: tests/data/extraction_corpus.jsonl (hand-labelled; it over-represents hard cases on purpose, since it must
cover each one), repeated to `--total` responses for speed; the same for the short responses alone (<= 40
characters, the shape of most direct-answer predictions). Target: ~10 us per short response, so that 270,000
short responses extract in well under 3 s. Also times free-form extraction plus math_equivalence, and inputs
built to provoke regex backtracking (long blank runs, unclosed braces), which must stay linear.
"""

from __future__ import annotations

import argparse
import inspect
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from mathreel.core.extract import (
    Extraction,
    extract_choice,
    extract_choice_lmms,
    extract_choice_official,
    extract_free_answer,
    math_equivalence,
)

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "extraction_corpus.jsonl"
CORPUS_V2 = CORPUS.with_name("extraction_corpus_v2.jsonl")
CLASSES = CORPUS.with_name("readings_classes.jsonl")  # the failure classes of real responses (choice rows here)
FREE_SAMPLES = (
    ("So the area is \\boxed{\\frac{\\sqrt{3}}{2}}.", "\\frac{\\sqrt{3}}{2}"),
    ("The answer is 12 cm.", "12"),
    ("Final answer: x = 3", "3"),
    ("Therefore the angle is $45^\\circ$. The answer is 45°", "45"),
    ("We find \\boxed{2\\sqrt{2}}", "\\sqrt{8}"),
    ("ANSWER: 0.5", "\\frac{1}{2}"),
)


def load_corpus(path: Path = CORPUS) -> list[dict]:
    """Labelled choice rows: response, letters, options (optional) and the label as "expected" (or "label")."""
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    rows = [row for row in rows if row.get("kind", "choice") == "choice"]
    for row in rows:
        row.setdefault("expected", row.get("label"))
        row.setdefault("letters", sorted(row.get("options") or {}) or ["A", "B", "C", "D"])
    return rows


def accuracy(rows: list[dict], extractor: Callable[..., Extraction], with_options: bool) -> tuple[int, int]:
    """Rows whose extraction equals the hand label (an unparsed result matches a null label); the question's text
    goes to a reader that takes it, for rows that give it."""
    right = 0
    asks = with_options and "question" in inspect.signature(extractor).parameters  # an older tree's reader: no
    for row in rows:
        args = (row["response"], tuple(row["letters"]))
        if asks and row.get("question"):
            result = extractor(*args, row.get("options"), row["question"])
        else:
            result = extractor(*args, row.get("options")) if with_options else extractor(*args)
        right += result.answer == row["expected"]
    return right, len(rows)


def timed(rows: Sequence[dict], total: int, repeat: int) -> float:
    """Best-of-`repeat` seconds to extract `total` responses cycling through `rows` (options passed when present)."""
    work = [(r["response"], tuple(r["letters"]), r.get("options")) for r in rows]
    work = (work * (total // len(work) + 1))[:total]
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for response, letters, options in work:
            extract_choice(response, letters, options)
        best = min(best, time.process_time() - start)
    return best


def timed_free(total: int, repeat: int) -> float:
    work = (list(FREE_SAMPLES) * (total // len(FREE_SAMPLES) + 1))[:total]
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for response, gold in work:
            math_equivalence(extract_free_answer(response).answer or "", gold)
        best = min(best, time.process_time() - start)
    return best


ADVERSARIAL = (
    ("answer phrase + 20k blanks", "The answer is" + " " * 20_000),
    ("'answer' + 20k blanks + '.'", "answer" + " " * 20_000 + "."),
    ("'Final answer' + 20k ' \\n'", "Final answer" + " \n" * 20_000),
    ("20k unclosed \\boxed{", "\\boxed{" * 20_000),
    ("20k 'either A or '", "either A or " * 20_000),
    ("20k JSON objects", '{"answer": "A"} ' * 20_000),
    ("20k unclosed JSON objects", '{"a": ' * 20_000),
    ("unclosed JSON string, 200k", '{"answer": "' + "x" * 200_000),
    ("boxes 200k blanks apart", "\\boxed{A}" + " " * 200_000 + "x\\boxed{D}"),
    ("20k invented questions", "The answer is B.\nQuestion: which?\n" * 20_000),
    ("20k '= ' then a value", "x = " * 20_000 + "5"),
    ("20k 'is ' then a value", "is " * 20_000 + "15"),
    ("a value, 5k blanks, a unit", "The answer is 5" + " " * 5_000 + "cm"),
    ("5k '* ' between two numbers", "So it is 3 " + "* " * 5_000 + "4"),
)


def worst_cases() -> list[tuple[str, float]]:
    """Seconds for robust (with option texts) + free-form extraction on inputs built to provoke backtracking."""
    options = {"A": "5", "B": "15", "C": "the bus", "D": "the bicycle"}
    times = []
    for label, text in ADVERSARIAL:
        start = time.process_time()
        extract_choice(text, ("A", "B", "C", "D"), options)
        extract_free_answer(text)
        times.append((label, time.process_time() - start))
    return times


def per_style(per_style_count: int) -> list[tuple[float, str, float, float, float]]:
    """(share in percent, style, robust us, full reading us, official letter us) for each style of the mix."""
    from bench_score import style_cases

    from mathreel.core.extract.choice import OptionMatcher, _option_keys, extract_choice_full
    from mathreel.core.extract.reference import official_letter

    results = []
    for share, template, cases in style_cases(per_style_count):
        timings = []
        for read in (extract_choice, extract_choice_full):
            _option_keys.cache_clear()  # both readings start with no option's words worked out
            work = [(response, letters, OptionMatcher(options)) for response, letters, options in cases]
            start = time.process_time()
            for response, letters, matcher in work:
                read(response, letters, matcher)
            timings.append(1e6 * (time.process_time() - start) / len(work))
        start = time.process_time()
        for response, letters, _ in cases:
            official_letter(response, letters)
        timings.append(1e6 * (time.process_time() - start) / len(cases))
        results.append((share, template, *timings))
    return results


def print_agreement(rows: list[dict], name: str) -> None:
    print(f"Accuracy on {name} ({len(rows)} hand-labelled responses):")
    for label, extractor, with_options in (
        ("robust", extract_choice, True),
        ("official Video-MME", extract_choice_official, False),
        ("lmms-eval", extract_choice_lmms, False),
    ):
        right, n = accuracy(rows, extractor, with_options)
        print(f"  {label:<20} {right:3d}/{n} = {100 * right / n:5.1f}%")


def child(args: argparse.Namespace) -> None:
    """One tree's figures as one JSON line (run by `--against` in a fresh process per tree)."""
    figures: dict[str, object] = {}
    if args.agreement:
        figures["agreement"] = {path.name: accuracy(load_corpus(path), extract_choice, True) for path in args.agreement}
        print(json.dumps(figures))
        return
    figures["agreement"] = {
        path.name: accuracy(load_corpus(path), extract_choice, True) for path in (CORPUS, CORPUS_V2, CLASSES)
    }
    weighted = 0.0
    for share, _template, robust, _full, _official in per_style(max(args.total // 50, 200)):
        weighted += share / 100 * robust
    figures["mix_us"] = weighted
    figures["score_2700"] = score_2700(args.repeat)
    figures["worst_ms"] = max(1000 * seconds for _, seconds in worst_cases())
    print(json.dumps(figures))


def score_2700(repeat: int) -> dict[str, float]:
    """CPU ms to score bench_score's 2,700-answer realistic-mix Video-MME file in process (best of `repeat`), split
    into extraction and aggregation as bench_score.py splits it."""
    import tempfile

    import bench_score

    bench_score.CLOCK = time.process_time
    with tempfile.TemporaryDirectory() as folder:
        path = bench_score.write_jsonl(
            bench_score.generate_videos(900, 1, bench_score.mixed_response), Path(folder) / "mix_2700.jsonl"
        )
        found = bench_score.in_process(path, repeat)
    return {key: 1000 * found[key] for key in ("score_s", "extract_s", "aggregate_s")}


def against(args: argparse.Namespace) -> None:
    """This tree against `args.against` (a git ref), alternating fresh processes: the best of each figure."""
    from against import compare, compare_imports, load

    arguments = ["--total", str(args.total), "--repeat", str(args.repeat)]
    for path in args.agreement or ():
        arguments += ["--agreement", str(path.resolve())]
    print(f"load average (1, 5, 15 min) at the start: {load()}")
    theirs, ours = compare(Path(__file__).resolve(), arguments, args.against, args.rounds)
    print(f"load average at the end: {load()}")
    title = f"figure (best of {args.rounds} fresh processes each)"
    print(f"{title:<52} {args.against:>14} {'this tree':>14}")
    imports = compare_imports(args.against, 2 * args.rounds)
    for kind, label in (("cached", "bytecode cached"), ("source", "compiled from source")):
        print(
            f"{'first reading (import + regexes), ms (' + label + ')':<52} {imports[kind][0]:>14.1f} "
            f"{imports[kind][1]:>14.1f}"
        )
    rows = []
    for name in ours[0]["agreement"]:
        rows.append((f"agreement on {name}", lambda f, n=name: f["agreement"][n], "{0[0]}/{0[1]}"))
    if "mix_us" in ours[0]:
        rows += [
            ("robust extractor, realistic mix, us per answer (CPU)", lambda f: f["mix_us"], "{:.2f}"),
            ("2,700 realistic mix scored in process, ms CPU", lambda f: f["score_2700"]["score_s"], "{:.0f}"),
            ("  of which extraction", lambda f: f["score_2700"]["extract_s"], "{:.0f}"),
            ("  of which aggregation", lambda f: f["score_2700"]["aggregate_s"], "{:.0f}"),
            ("slowest adversarial input, ms CPU", lambda f: f["worst_ms"], "{:.1f}"),
        ]
    for label, pick, form in rows:
        best = [
            min(map(pick, results)) if not isinstance(pick(results[0]), list) else pick(results[0])
            for results in (theirs, ours)
        ]
        print(f"{label:<52} {form.format(best[0]):>14} {form.format(best[1]):>14}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=100_000, help="responses per speed run")
    parser.add_argument("--repeat", type=int, default=3, help="speed runs; the best is reported")
    parser.add_argument(
        "--agreement",
        type=Path,
        metavar="JSONL",
        action="append",
        help="only print the agreement on a local labelled file (rows: response, letters, label)",
    )
    parser.add_argument("--against", metavar="REF", help="compare with the readers of a git ref (e.g. main)")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: fresh processes per tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.against:
        against(args)
        return
    if args.agreement:
        for path in args.agreement:
            print_agreement(load_corpus(path), path.name)
        return
    rows = load_corpus()
    print_agreement(rows, CORPUS.name)
    print_agreement(load_corpus(CORPUS_V2), CORPUS_V2.name)
    print_agreement(load_corpus(CLASSES), CLASSES.name)
    short = [r for r in rows if len(r["response"]) <= 40]
    print(f"\nSpeed of the robust extractor (CPU time, best of {args.repeat}; the machine is shared):")
    bare = [r for r in rows if len(r["response"].strip()) <= 5]
    for label, subset in (
        ("whole corpus", rows),
        (f"short responses ({len(short)} distinct)", short),
        (f"bare letters ({len(bare)} distinct)", bare),
    ):
        seconds = timed(subset, args.total, args.repeat)
        print(
            f"  {label:<32} {args.total:,} in {seconds:.3f} s = {args.total / seconds:,.0f}/s, "
            f"{1e6 * seconds / args.total:.1f} us each"
        )
    free_total = max(args.total // 10, 1)
    seconds = timed_free(free_total, args.repeat)
    print(
        f"  {'free-form extract + equivalence':<32} {free_total:,} in {seconds:.3f} s = "
        f"{free_total / seconds:,.0f}/s, {1e6 * seconds / free_total:.1f} us each"
    )
    print(
        "\nPer style of the realistic Video-MME mix (bench_score.MIX), us per answer (CPU time, first reading of each"
        " question's options):"
    )
    print(f"  {'share':>5}  {'robust':>7}  {'full':>7}  {'official':>8}  style")
    weighted = [0.0, 0.0, 0.0]
    for share, template, robust, full, official in per_style(max(args.total // 50, 200)):
        weighted = [w + share / 100 * t for w, t in zip(weighted, (robust, full, official), strict=True)]
        print(f"  {share:4.0f}%  {robust:7.2f}  {full:7.2f}  {official:8.2f}  {template[:60]!r}")
    print(f"  {'mix':>5}  {weighted[0]:7.2f}  {weighted[1]:7.2f}  {weighted[2]:8.2f}  (weighted by share)")
    print("\nAdversarial inputs (robust + free-form extraction, one call each):")
    for label, seconds in worst_cases():
        print(f"  {label:<32} {1000 * seconds:8.1f} ms")


if __name__ == "__main__":
    main()
