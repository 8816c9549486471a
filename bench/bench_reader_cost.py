"""The choice reader's cost per response style in instructions (load-independent), against an earlier tree.

Run: .venv/bin/python bench/bench_reader_cost.py --against 5021217 [--count 300] [--calls]

For each style of bench_score.MIX (the realistic Video-MME mix, the same cases as bench_extract's `per_style`: one
question of its own per answer, options never seen before), instructions per answer of `extract_choice` counted
by callgrind (valgrind) around the reading loop only; then the same for the 2,700-answer realistic-mix file scored
in process (`score`, its reading memo included) and for that score with the reader replaced by a constant
reading (aggregation). Counts are exact for a given tree and interpreter (PYTHONHASHSEED=0), so two trees compare
on a machine shared with other jobs, where CPU times drift by 10-20% between runs. `--calls` adds Python function
calls and regex calls (`re.Pattern` methods) per answer, counted with `sys.setprofile`, no valgrind needed.

How: the child runs each measured loop through `sys.call_tracing`, which nothing else in the process calls, and
callgrind collects only inside it (`--toggle-collect`) and writes one count per call (`--dump-after`). Regexes
compiled on first use are compiled in a warm-up pass first, in both trees, and the cyclic garbage collector is off
while the loops run (`mathreel score` pauses it too): a collection falls where allocations happen to trigger it,
which differs between trees. Needs valgrind on PATH.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))


def _score_file(folder: str, seed: int, videos: int) -> object:
    import bench_score

    from mathreel.core.results import read_results

    records = bench_score.generate_videos(videos, seed, bench_score.mixed_response)
    return read_results(bench_score.write_jsonl(records, Path(folder) / f"mix_{seed}.jsonl"))


def child(args: argparse.Namespace) -> None:
    """Run every measured loop once through `sys.call_tracing` (under callgrind, each is one dump), or with
    `--calls` count calls per answer; one JSON line."""
    from bench_score import style_cases

    from mathreel.core.extract import extract_choice
    from mathreel.core.extract.choice import OptionMatcher, _option_keys
    from mathreel.core.scoring import score, verdict

    styles = style_cases(args.count)
    with tempfile.TemporaryDirectory() as folder:
        warm, result = _score_file(folder, 2, 30), _score_file(folder, 1, 900)
    score(warm)  # compiles what scoring compiles on first use
    for _, _, cases in styles:  # and what each style's reading compiles
        for response, letters, options in cases[:3]:
            extract_choice(response, letters, options)

    def read_all(work: list) -> None:
        for response, letters, matcher in work:
            extract_choice(response, letters, matcher)

    gc.collect()
    gc.disable()  # a collection falls in one tree's loop and not the other's: millions of instructions
    counts: list[dict[str, int]] = []
    for _, _, cases in styles:
        _option_keys.cache_clear()  # no option's words worked out before, as for a new question
        work = [(response, letters, OptionMatcher(options)) for response, letters, options in cases]
        counts.append(_counted(read_all, work) if args.calls else {})
        if not args.calls:
            sys.call_tracing(read_all, (work,))
    if args.calls:
        print(json.dumps({"calls": counts}))
        return
    sys.call_tracing(score, (result,))
    real = verdict._read_choice_answer
    constant = (extract_choice("A"), "A", False)
    verdict._read_choice_answer = lambda response, choices, tool, use_official: constant
    try:
        sys.call_tracing(score, (result,))
    finally:
        verdict._read_choice_answer = real
    print(json.dumps({"answers": len(result.predictions)}))


def _counted(action: object, work: list) -> dict[str, int]:
    """Python calls and regex method calls made by `action(work)`."""
    calls = {"python": 0, "regex": 0}

    def profile(frame: object, event: str, arg: object) -> None:
        if event == "call":
            calls["python"] += 1
        elif event == "c_call" and isinstance(getattr(arg, "__self__", None), re.Pattern):
            calls["regex"] += 1

    sys.setprofile(profile)
    try:
        action(work)  # type: ignore[operator]
    finally:
        sys.setprofile(None)
    return calls


def run(tree: Path | None, args: argparse.Namespace, calls: bool) -> dict:
    """One child for `tree` (None: this tree): instructions per dump, or call counts."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # this tree first on the path too, whatever is installed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree or BENCH.parent), env.get("PYTHONPATH", "")]))
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--count", str(args.count)]
    if calls:
        out = subprocess.run([*command, "--calls"], env=env, cwd=str(tree or BENCH.parent), capture_output=True)
        if out.returncode:
            raise SystemExit(out.stderr.decode()[-2000:])
        return json.loads(out.stdout.decode().splitlines()[-1])
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "cg.out"
        valgrind = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=sys_call_tracing",
            "--dump-after=sys_call_tracing",
            f"--callgrind-out-file={base}",
        ]
        out = subprocess.run([*valgrind, *command], env=env, cwd=str(tree or BENCH.parent), capture_output=True)
        if out.returncode:
            raise SystemExit(out.stderr.decode()[-2000:])
        dumps = sorted(Path(folder).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = []
        for dump in dumps:
            found = re.search(r"^totals: (\d+)", dump.read_text(), re.M)
            totals.append(int(found.group(1)) if found else 0)
        return {"instructions": totals, **json.loads(out.stdout.decode().splitlines()[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", metavar="REF", action="append", default=[], help="an earlier git ref to compare with (repeatable)"
    )
    parser.add_argument("--count", type=int, default=300, help="answers per style")
    parser.add_argument("--calls", action="store_true", help="also count Python and regex calls per answer")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    from against import load, tree_of

    print(f"load average (1, 5, 15 min) at the start: {load()}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        trees: dict[str, Path | None] = {}
        for index, ref in enumerate(args.against):
            (Path(folder) / str(index)).mkdir()
            trees[ref] = tree_of(ref, Path(folder) / str(index))
        trees["this tree"] = None
        found = {name: run(tree, args, False) for name, tree in trees.items()}
        calls = {name: run(tree, args, True)["calls"] for name, tree in trees.items()} if args.calls else {}
    print(f"load average at the end: {load()} ({time.perf_counter() - started:.0f} s)")
    from bench_score import MIX

    names = list(trees)
    head = "".join(f"{name:>14}" for name in names)
    print(f"\nthousand instructions per answer ({args.count} answers per style; calls: Python / regex per answer)")
    print(f"share {head}  {'change':>7}  style")
    weighted = dict.fromkeys(names, 0.0)
    for index, (share, template) in enumerate(MIX):
        per = {name: found[name]["instructions"][index] / args.count / 1000 for name in names}
        for name in names:
            weighted[name] += share / 100 * per[name]
        row = "".join(f"{per[name]:14.1f}" for name in names)
        change = f"{per[names[-1]] / per[names[0]] - 1:+7.1%}" if len(names) > 1 else ""
        extra = ""
        if calls:
            extra = "  " + " | ".join(
                f"{calls[name][index]['python'] / args.count:.1f}/{calls[name][index]['regex'] / args.count:.1f}"
                for name in names
            )
        print(f"{share:4.0f}% {row}  {change:>7}  {template[:48]!r}{extra}")
    row = "".join(f"{weighted[name]:14.1f}" for name in names)
    change = f"{weighted[names[-1]] / weighted[names[0]] - 1:+7.1%}" if len(names) > 1 else ""
    print(f"  mix {row}  {change:>7}  (weighted by share)")
    styles = len(MIX)
    for label, index in (("2,700-answer file scored in process", styles), ("  of which aggregation", styles + 1)):
        per = {name: found[name]["instructions"][index] / 1e6 for name in names}
        row = "".join(f"{per[name]:13.1f}M" for name in names)
        change = f"{per[names[-1]] / per[names[0]] - 1:+7.1%}" if len(names) > 1 else ""
        print(f"{'':5} {row}  {change:>7}  {label}")
    per = {
        name: (found[name]["instructions"][styles] - found[name]["instructions"][styles + 1]) / 1e6 for name in names
    }
    row = "".join(f"{per[name]:13.1f}M" for name in names)
    change = f"{per[names[-1]] / per[names[0]] - 1:+7.1%}" if len(names) > 1 else ""
    print(f"{'':5} {row}  {change:>7}    of which extraction (the difference)")


if __name__ == "__main__":
    main()
