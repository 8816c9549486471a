"""Every field of every choice reading the same in this tree as in an earlier one (a speed change's proof).

Run: .venv/bin/python bench/check_readings_same.py --against main [--count 300]

Cases: the choice corpora in tests/data (readings_classes.jsonl with their options and questions,
extraction_corpus.jsonl, extraction_corpus_v2.jsonl) and the free-form class cases (`free_verdict`); the realistic
mix's per-style cases (bench_score.style_cases) and its mixed and reasoning responses (bench_score.mixed_response,
reasoning_response); and variants of all of them: without options, lower-cased, cut in half, with another letter's
answer line after them, with the options as numbers and as Yes/No, with the options given as an `OptionMatcher`.
Each case is read by `extract_choice` and by `extract_choice_full` in a child process of each tree (this tree's
script, the ref's code: `against.tree_of`); the parent compares answer, method, explanation, span and strength and
prints the first differences. Exit status 1 when any differs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(BENCH))

Case = tuple[str, list[str], dict[str, str] | None, str | None]  # response, letters, options, question


def _corpus_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("readings_classes.jsonl", "extraction_corpus.jsonl", "extraction_corpus_v2.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            if entry.get("kind", "choice") != "choice" or not isinstance(entry.get("response"), str):
                continue
            options = entry.get("options") or None
            letters = list(options) if options else entry.get("letters") or ["A", "B", "C", "D"]
            cases.append((entry["response"], letters, options, entry.get("question") or None))
    return cases


def _free_cases() -> list[tuple[str, str]]:
    cases = []
    for line in (DATA / "readings_classes.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("kind") == "free":
            cases.append((entry["response"], str(entry.get("gold"))))
    return cases


def _bench_cases(count: int) -> list[Case]:
    import bench_score

    cases: list[Case] = []
    for _, _, style in bench_score.style_cases(count, seed=11):
        cases.extend((response, list(letters), dict(options), None) for response, letters, options in style)
    rng = random.Random(5)
    for number in range(count * 4):
        texts = [bench_score._option(rng) for _ in "ABCD"]
        letter = rng.choice("ABCD")
        other = rng.choice([c for c in "ABCD" if c != letter])
        make = bench_score.reasoning_response if number % 2 else bench_score.mixed_response
        response = make(rng, letter, other, texts["ABCD".index(letter)], number)
        cases.append((response, list("ABCD"), dict(zip("ABCD", texts, strict=True)), None))
    return cases


_NUMBERS = ("12", "3/4", "x + 1", "(2, 3)", "41 km", "-5", "0.25", "12 N, 30 J", "$40", "7")


def _variants(cases: list[Case], rng: random.Random) -> list[Case]:
    out: list[Case] = []
    for response, letters, options, question in cases:
        other = rng.choice(letters)
        out.append((response, letters, None, question))
        out.append((response.lower(), letters, options, question))
        out.append((response[: len(response) // 2], letters, options, question))
        out.append((response + f"\nAnswer: {other}", letters, options, question))
        numbers = rng.sample(_NUMBERS, len(letters)) if len(letters) <= len(_NUMBERS) else None
        if numbers:
            values = dict(zip(letters, numbers, strict=True))
            out.append((response, letters, values, question))
            stated = f"{response}\nSo the value is {values[other]}, the answer is {rng.choice(letters)}."
            out.append((stated, letters, values, question))
        if len(letters) >= 2:
            yes_no = {letters[0]: "Yes", letters[1]: "No"}
            out.append((response, letters[:2], yes_no, question or "Is the red box larger than the blue one?"))
    return out


def _reading(found: object) -> list:
    return [found.answer, found.method, found.explanation, found.span, found.strength]  # type: ignore[attr-defined]


def child(count: int, out: Path) -> None:
    """Read every case with the tree on the path; write the readings as JSON."""
    from mathreel.core.extract import extract_choice
    from mathreel.core.extract.choice import extract_choice_full, option_matcher
    from mathreel.core.extract.free_verdict import free_verdict

    base = _corpus_cases() + _bench_cases(count)
    cases = base + _variants(base, random.Random(3))
    readings = []
    for response, letters, options, question in cases:
        readings.append(_reading(extract_choice(response, letters, options, question)))
        readings.append(_reading(extract_choice_full(response, letters, options, question)))
        if options:
            readings.append(_reading(extract_choice(response, letters, option_matcher(options), question)))
    for response, gold in _free_cases():
        readings.append(_reading(free_verdict(response, gold).extraction))
    out.write_text(json.dumps({"cases": [list(case) for case in cases], "readings": readings}), encoding="utf-8")


def _run(tree: Path | None, count: int, out: Path) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree or ROOT), env.get("PYTHONPATH", "")]))
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--count", str(count), "--out", str(out)]
    done = subprocess.run(command, env=env, cwd=str(tree or ROOT), capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(out.read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REF", default="main", help="the git ref to compare with")
    parser.add_argument("--count", type=int, default=300, help="bench answers per style (and 4x mixed)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.count, args.out)
        return
    from against import tree_of

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "ref").mkdir()
        tree = tree_of(args.against, Path(folder) / "ref")
        old = _run(tree, args.count, Path(folder) / "old.json")
        new = _run(None, args.count, Path(folder) / "new.json")
    assert old["cases"] == new["cases"], "the two runs built different cases"
    differ = [i for i, (a, b) in enumerate(zip(old["readings"], new["readings"], strict=True)) if a != b]
    print(f"{len(old['cases'])} cases, {len(old['readings'])} readings; {len(differ)} differ from {args.against}")
    for index in differ[:20]:
        print(f"  #{index}: {args.against} {old['readings'][index]}\n        this tree {new['readings'][index]}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
