"""MathVerse free-form answers: agreement with a peer's labelled equivalence suite, and scoring speed.

    python bench/bench_mathverse.py [--suite PATH ...] [--exclude TEST] [--misses] [--old-ref REF] [--sample PATH]
                                    [--against REF [--rounds N]]
    python bench/bench_mathverse.py --stability [--rounds N] | --hostile-file [N] | --orphans [--rounds N]

- `--suite` takes a pytest file (or a folder of them) from another project whose `parametrize` lists hold
  (gold, prediction, 0/1) triples, e.g. math-verify's `tests/test_all.py`; the cases are read with `ast`, never
  copied. The gold goes through `extract_free_answer` (so "$1,000$" or a boxed sentence is read as MathReel reads
  a response); the prediction goes through `free_verdict`, as scoring does (MathReel's rules, then math-verify's
  own reading of the whole response where they cannot decide). With `--old-ref` the removed hand-written checker
  (`core/extract/mathequal.py`, loaded from git) is measured too. `--exclude` leaves out a test function whose
  cases are not free-form math (lighteval's letter-choice `test_extraction_abc`). Reported: agreement with the
  labels, "equal" on pairs labelled different, and undecidable pairs.
- `--sample` takes MathVerse's 5-answer output sample (`output_templates/output_modelname.json`) and prints the
  accuracy of the free-form reading on it.
- Speed: a synthetic MathVerse testmini output (3,940 answers: 788 problems x 5 versions, half free-form) is scored
  cold in a fresh process (worker start, sympy on the pairs the fast path leaves) and again in the same process.
  Wall time depends on the machine's load, so the CPU time of the scorer and of the math-verify worker is printed
  too. With `--against REF` the same file is scored cold by a git ref's readers too, alternating fresh processes
  (`against.py`), and the suites' agreement is given for both.
- `--stability`, `--hostile-file`, `--orphans`: the math-verify worker's verdicts on a quiet and on a loaded
  machine, the cost of a file of hostile answers, and workers left behind when their parent is killed
  (`mathverse_load.py` says how each is measured).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSIONS = ("Text Dominant", "Text Lite", "Vision Intensive", "Vision Dominant", "Vision Only")

# (gold, how a model writes it right, how it writes it wrong), by MathVerse answer kind; weights are rough shares.
FREE_KINDS = [
    (60, lambda k: (str(k), f"{k} cm", str(k + 1))),
    (10, lambda k: (f"{k}°", f"{k}^\\circ", f"{k + 10}^\\circ")),
    (8, lambda k: (f"\\frac{{{k}}}{{{k + 1}}}", f"{k}/{k + 1}", f"\\frac{{{k + 1}}}{{{k}}}")),
    (10, lambda k: (f"{k}\\sqrt{{3}}", f"\\sqrt{{{3 * k * k}}}", f"{k}\\sqrt{{2}}")),
    (6, lambda k: (f"y=-x^2+{k}x+1", f"y = -x^{{2}} + {k}x + 1", f"y=x^2+{k}x+1")),
    (6, lambda k: (f"{k}\\pi", f"{k}π", f"{k + 2}\\pi")),
]
SENTENCES = [
    "Using the figure, the computation gives the result.\nTherefore, the answer is {a}.",
    "Step by step: first the base, then the height.\n\nSo the value is $\\boxed{{{a}}}$.",
    "By the Pythagorean theorem the length follows, so the required value is {a}.",
    "Final Answer: The final answer is ${a}$. I hope it is correct.",
]


def load_old_checker(ref: str):
    """`math_equivalence` of the hand-written checker as it was at git `ref` (the module this work removed)."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:core/extract/mathequal.py"], capture_output=True, text=True, check=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_mathequal.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_mathequal", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_mathequal"] = module
    spec.loader.exec_module(module)
    return module.math_equivalence


def suite_cases(path: Path, exclude: frozenset[str] = frozenset()) -> list[tuple[str, str, int]]:
    """(gold, prediction, label) triples from every `parametrize` list in the pytest file(s) at `path`, except
    those of the test functions named in `exclude`."""
    files = sorted(path.rglob("test_*.py")) if path.is_dir() else [path]
    cases = []
    for file in files:
        tree = ast.parse(file.read_text())
        skipped = {
            id(node)
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef) and function.name in exclude
            for decorator in function.decorator_list
            for node in ast.walk(decorator)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple) and len(node.elts) == 3 and id(node) not in skipped:
                try:
                    gold, pred, label = (ast.literal_eval(e) for e in node.elts)
                except ValueError:
                    continue
                if isinstance(gold, str) and isinstance(pred, str) and label in (0, 1) and type(label) is int:
                    cases.append((gold, pred, label))
    return cases


def agreement(cases: list[tuple[str, str, int]], check=None, misses: bool = False) -> dict[str, int]:
    """Counts of agreement with the labels; undecidable counts as "not equal", as scoring does. The gold side is
    read as MathReel reads a response (the suites' golds are often "$…$" or boxed). With `check` (an old
    checker) the prediction is read by `extract_free_answer` alone; without, by `free_verdict` as scoring does."""
    from mathreel.core.extract import extract_free_answer
    from mathreel.core.extract.free_verdict import free_verdict

    def read(text: str) -> str:
        return extract_free_answer(text).answer or text

    counts = {"cases": len(cases), "agree": 0, "equal_on_different": 0, "undecidable": 0}
    for gold, pred, label in cases:
        try:
            verdict = check(read(pred), read(gold)) if check else free_verdict(pred, read(gold)).equivalence
            equal = verdict.equal
        except Exception:  # the old checker's own failures count as undecidable
            equal = None
        if misses and (equal is True) != bool(label):
            print(f"    miss: label {label}, verdict {equal}: {gold[-60:]!r} vs {pred[-80:]!r}")
        counts["undecidable"] += equal is None
        counts["agree"] += (equal is True) == bool(label)
        counts["equal_on_different"] += equal is True and not label
    return counts


def synthetic_output(seed: int = 7) -> list[dict]:
    """788 problems x 5 versions; half free-form; the model right on ~60%, with the same answer across versions."""
    rng = random.Random(seed)
    weights = [w for w, _ in FREE_KINDS]
    records = []
    for problem in range(788):
        free = problem % 2 == 0
        kind = rng.choices([make for _, make in FREE_KINDS], weights)[0]
        gold, right, wrong = kind(rng.randint(2, 90))
        for version in VERSIONS:
            if free:
                answer = right if rng.random() < 0.6 else wrong
                response = rng.choice(SENTENCES).format(a=answer)
                expected, qtype = gold, "free-form"
            else:
                expected, qtype = rng.choice("ABCD"), "multi-choice"
                response = f"Reasoning over the figure.\nThe answer is {rng.choice('ABCD')}."
            records.append(
                {
                    "sample_index": str(len(records) + 1),
                    "problem_index": str(problem + 1),
                    "problem_version": version,
                    "question": f"Problem {problem}" + ("\nChoices:\nA:1\nB:2\nC:3\nD:4" if not free else ""),
                    "answer": expected,
                    "question_type": qtype,
                    "model_answer": response,
                    "metadata": {"split": "testmini", "subject": "Plane Geometry", "subfield": "Length"},
                }
            )
    return records


def time_scoring(path: Path) -> None:
    """Run in a fresh process: score cold, then again (memoised), with where the cold time goes."""
    from mathreel.core.extract import equivalence
    from mathreel.core.extract.equivalence_engine import restart_worker
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score

    result = read_results(path)
    calls = {"engine": 0, "engine_s": 0.0}
    real = equivalence._decide

    def counted(pred: str, gold: str):
        start = time.perf_counter()
        verdict = real(pred, gold)
        if verdict.explanation.startswith("math-verify"):
            calls["engine"] += 1
            calls["engine_s"] += time.perf_counter() - start
        return verdict

    equivalence._decide = counted
    start, cpu = time.perf_counter(), time.process_time()
    report = score(result)
    cold, cold_cpu = time.perf_counter() - start, time.process_time() - cpu
    restart_worker()  # its CPU time is counted once it has exited
    worker_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
    start = time.perf_counter()
    score(result)
    repeat = time.perf_counter() - start
    free = sum(1 for p in result.predictions if p.question.answer_kind == "free")
    print(
        json.dumps(
            {
                "answers": len(result.predictions),
                "free_form": free,
                "cold_s": round(cold, 3),
                "cold_cpu_s": {"scorer": round(cold_cpu, 3), "math_verify_worker": round(worker_cpu, 3)},
                "repeat_s": round(repeat, 3),
                "math_verify_pairs": calls["engine"],
                "math_verify_s_incl_worker_start": round(calls["engine_s"], 3),
                "accuracy": round(report.overall.accuracy, 4),
            }
        )
    )


def compare_trees(args: argparse.Namespace) -> None:
    """Agreement on the suites and the cold scoring of the synthetic testmini output, for `args.against` and for
    this tree, in alternating fresh processes."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from against import compare, load

    print(f"load average (1, 5, 15 min) at the start: {load()}")
    if args.suite:
        suite_args = ["--suite-only"]
        for suite in args.suite:
            suite_args += ["--suite", str(suite.resolve())]
        for name in args.exclude:
            suite_args += ["--exclude", name]
        theirs, ours = compare(Path(__file__).resolve(), suite_args, args.against, 1)
        for suite in theirs[0]:
            print(f"{suite}:\n  {args.against}: {theirs[0][suite]}\n  this tree: {ours[0][suite]}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mathverse_testmini_output.json"
        path.write_text(json.dumps(synthetic_output()))
        theirs, ours = compare(Path(__file__).resolve(), ["--sample", str(path)], args.against, args.rounds)
    for name, runs in ((args.against, theirs), ("this tree", ours)):
        best = min(runs, key=lambda run: run["cold_s"])
        cpu = min(run["cold_cpu_s"]["scorer"] + run["cold_cpu_s"]["math_verify_worker"] for run in runs)
        print(
            f"{name}: cold {best['cold_s']:.2f} s wall (best of {len(runs)}), {cpu:.2f} s CPU with the worker, "
            f"math-verify pairs {best['math_verify_pairs']}, accuracy {best['accuracy']}%"
        )
    print(f"load average at the end: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, action="append", default=[], help="peer pytest file or folder")
    parser.add_argument("--old-ref", help="git ref holding the removed core/extract/mathequal.py, e.g. 43ca141^")
    parser.add_argument("--sample", type=Path, help="MathVerse output_modelname.json")
    parser.add_argument("--exclude", action="append", default=[], help="a suite's test function to leave out")
    parser.add_argument("--misses", action="store_true", help="print each pair the new reading gets wrong")
    parser.add_argument("--against", metavar="REF", help="also score with the readers of a git ref (e.g. main)")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: cold runs per tree")
    parser.add_argument("--stability", action="store_true", help="verdicts quiet vs loaded, --rounds runs each")
    parser.add_argument("--hostile-file", type=int, nargs="?", const=100, help="cost of a file of N hostile answers")
    parser.add_argument("--orphans", action="store_true", help="workers left after killing their parent")
    parser.add_argument("--digest", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--time-only", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--suite-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.digest or args.stability or args.hostile_file or args.orphans:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import mathverse_load

        if args.digest:
            mathverse_load.verdict_digest(args.digest)
        if args.stability:
            mathverse_load.stability(synthetic_output(), args.rounds, args.against)
        if args.hostile_file:
            mathverse_load.hostile_file(args.hostile_file)
        if args.orphans:
            mathverse_load.orphans(args.rounds)
        return
    if args.time_only:
        time_scoring(args.time_only)
        return
    if args.child:  # run by against.py: one tree's agreement on the suites, or its cold scoring time, as JSON
        if args.suite_only:
            print(
                json.dumps({str(suite): agreement(suite_cases(suite, frozenset(args.exclude))) for suite in args.suite})
            )
        else:
            time_scoring(args.time_only or Path(args.sample))
        return
    if args.against:
        compare_trees(args)
        return
    from mathreel.core.extract.free_verdict import free_verdict

    for suite in args.suite:
        cases = suite_cases(suite, frozenset(args.exclude))
        if args.old_ref:
            print(f"{suite}: old {agreement(cases, load_old_checker(args.old_ref))}")
        print(f"{suite}: new {agreement(cases, misses=args.misses)}")
    if args.sample:
        records = json.loads(args.sample.read_text())
        right = 0
        for record in records:
            verdict = free_verdict(record["model_answer"], record["answer"])
            right += verdict.correct
            print(f"  gold {record['answer']!r}: read {verdict.extraction.answer!r} ({verdict.extraction.method})")
        print(f"sample accuracy: {right}/{len(records)}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mathverse_testmini_output.json"
        path.write_text(json.dumps(synthetic_output()))
        subprocess.run([sys.executable, __file__, "--time-only", str(path)], check=True)


if __name__ == "__main__":
    main()
