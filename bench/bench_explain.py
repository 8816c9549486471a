"""Speed of `mathreel explain` on full-size files: every reference at once, a gap between two runs, a typed figure,
the paired comparison (cluster bootstrap over 900 videos) and the whole command, in process and as a process.

Two generated Video-MME runs of 2,700 answers (900 videos of three questions) in the plain JSONL layout, with the
responses that make every cause: answers the official script misreads ("Based on the video, the answer is D."),
refusals, answers that differ between the runs, questions only one run answers; and a 3,200-answer Video-MME-v2
official TSV (800 groups) for the group scores under every policy.

    PYTHONPATH=. .venv/bin/python bench/bench_explain.py [--repeats 5] [--draws 2000]

Prints CPU time (process_time; steadier under load) and wall time, median of the repeats, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

OPTIONS = ["A. red", "B. green", "C. blue", "D. yellow"]
STYLES = (
    "{gold}",
    "The answer is {gold}.",
    "Based on the video, the answer is {gold}.",
    "I cannot tell.",
    "{other}",
    "Answer: ({gold})",
)


def videomme_run(path: Path, seed: int, answers: int = 2700, skip: int = 0) -> Path:
    """A plain JSONL Video-MME run; `skip` questions (every 97th from `seed`) left out."""
    rng = random.Random(seed)
    shared = random.Random(7)  # the gold answers are the same in both runs
    with path.open("w", encoding="utf-8") as out:
        for i in range(answers):
            gold = shared.choice("ABCD")
            if skip and (i + seed) % 97 == 0:
                continue
            style = rng.choices(STYLES, weights=(50, 15, 8, 4, 20, 3))[0]
            other = rng.choice([letter for letter in "ABCD" if letter != gold])
            record = {
                "question_id": f"{i // 3:03d}-{i % 3 + 1}",
                "video_id": f"v{i // 3:04d}",
                "duration": ("short", "medium", "long")[(i // 3) % 3],
                "options": OPTIONS,
                "answer": gold,
                "response": style.format(gold=gold, other=other),
            }
            out.write(json.dumps(record) + "\n")
    return path


def v2_run(path: Path, groups: int = 800) -> Path:
    from tests.helpers.v2files import Spec, rows, write_official_tsv

    kinds = (("relevance", "[1,2,3,4]"), ("logic", "[1,2,3,4]"), ("logic", "[1,[2,3],4]"), ("logic", "[[1,2],3,4]"))
    rng = random.Random(3)
    specs = [
        Spec(f"{g:03d}", *kinds[g % 4], "".join(rng.choices("CCCWU", k=4)), 1 + g % 3, "SH", "TH")
        for g in range(groups)
    ]
    return write_official_tsv(path, rows(specs))


def timed(what: str, call: Callable[[], object], repeats: int) -> None:
    cpu, wall = [], []
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        call()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    print(f"{what:<58} CPU {1000 * statistics.median(cpu):7.0f} ms   wall {1000 * statistics.median(wall):7.0f} ms")


def command(*args: str) -> float:
    """CPU seconds of one whole `mathreel explain` process (its children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [str(Path(sys.executable).with_name("mathreel")), "explain", *args], check=True, stdout=subprocess.DEVNULL
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--draws", type=int, default=2000)
    args = parser.parse_args()
    from mathreel.core.explain.explanation import explain
    from mathreel.core.explain.gap import Number, decompose
    from mathreel.core.explain.paired import paired
    from mathreel.core.explain.references import reference_table
    from mathreel.core.explain.runs import load_run
    from mathreel.core.explain.scorers import Scorer, own_scorer
    from mathreel.core.explain.target import against, typed_target

    folder = Path(tempfile.mkdtemp(prefix="mathreel-bench-explain-"))
    path_a = videomme_run(folder / "a.jsonl", seed=1)
    path_b = videomme_run(folder / "b.jsonl", seed=2, skip=1)
    path_v2 = v2_run(folder / "v2.tsv")
    print(f"load average {os.getloadavg()[0]:.1f}; {args.repeats} repeats; files in {folder}")
    a, b = load_run(str(path_a), "videomme"), load_run(str(path_b), "videomme")
    v2 = load_run(str(path_v2))
    official = own_scorer(a.bench, "official")
    gap = decompose(Number(a, Scorer()), Number(b, official))
    print("gap:", " | ".join(f"{s.cause} {float(s.delta):+.2f} ({len(s.changes)})" for s in gap.steps if s.delta))
    timed("read one 2,700-answer file", lambda: load_run(str(path_a), "videomme"), args.repeats)
    timed("every reference, 2,700 answers (5 readers x 2 denominators)", lambda: reference_table(a), args.repeats)
    timed("every reference, 3,200 v2 answers (4 readers x 5 columns)", lambda: reference_table(v2), args.repeats)
    timed(
        "gap A -> B (two files, robust -> official)",
        lambda: decompose(Number(a, Scorer()), Number(b, official)),
        args.repeats,
    )
    timed(
        "against a typed figure (every known scorer tried)",
        lambda: against(a, Scorer(), typed_target("55.0")),
        args.repeats,
    )
    timed(
        f"paired, 900 clusters, {args.draws} bootstrap draws",
        lambda: paired(Number(a, Scorer()), Number(b, Scorer()), draws=args.draws),
        args.repeats,
    )
    timed("explain([A, B]) whole, in process", lambda: explain([a, b], [Scorer()], draws=args.draws), args.repeats)
    for label, files in (
        ("mathreel explain A --json", [str(path_a)]),
        ("mathreel explain A B --json", [str(path_a), str(path_b)]),
    ):
        cpu = [command(*files, "--benchmark", "videomme", "--json") for _ in range(max(1, args.repeats // 2))]
        print(f"{label:<58} CPU {1000 * statistics.median(cpu):7.0f} ms (whole process)")


if __name__ == "__main__":
    main()
