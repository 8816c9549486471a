"""CPU time of whole `mathreel score FILE --json` processes, and of read + score in one process, for one or more
source trees side by side (interleaved run by run, so a busy machine weighs on each tree alike).

    .venv/bin/python bench/bench_cli_cpu.py --tree before=/tmp/old --tree after=. --repeats 9 FILE...
    .venv/bin/python bench/bench_cli_cpu.py --tree after=. --no-cache FILE...        # every module compiled afresh
    .venv/bin/python bench/bench_cli_cpu.py --tree after=. --in-process BIG.jsonl    # read/score CPU, peak RSS

A tree is a checkout of the repository (`git archive COMMIT | tar -x -C /tmp/old` makes an older one); each run
sets PYTHONPATH to it, so the same interpreter and packages serve every tree. Times are user + system CPU of the
child (getrusage), which a loaded machine disturbs far less than wall time; the load average is printed.
`--no-cache` removes the tree's `__pycache__` folders before each run and forbids writing new ones (a fresh
install's first run); by default the bytecode is cached, as users have it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

MAIN = "import sys; from mathreel.cli import main; sys.exit(main(sys.argv[1:]))"
IN_PROCESS = """
import resource, sys, time
start = time.process_time()
from mathreel.core.results import read_results
from mathreel.core.scoring import score
imported = time.process_time()
result = read_results(sys.argv[1])
read = time.process_time()
report = score(result)
done = time.process_time()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"import {imported - start:.2f} s, read {read - imported:.2f} s, score {done - read:.2f} s, read + score "
      f"{done - imported:.2f} s CPU; peak RSS {peak:.0f} MB; {len(result.predictions):,} answers, "
      f"accuracy {report.overall.accuracy}")
"""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def environment(tree: Path, cached: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    if cached:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for folder in ("mathreel", "core", "cli"):
        for cache in (tree / folder).rglob("__pycache__"):
            for compiled in cache.iterdir():
                compiled.unlink()
    return env


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH of a source tree")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-cache", action="store_true", help="compile every MathReel module on every run")
    parser.add_argument("--in-process", action="store_true", help="read + score in one process instead")
    args = parser.parse_args()
    trees = {name: Path(path).resolve() for name, _, path in (t.partition("=") for t in args.tree)}
    print(
        f"load average (1, 5, 15 min): {load()} on {os.cpu_count()} cores; "
        f"{'no bytecode cache' if args.no_cache else 'bytecode cached'}"
    )
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(1 if args.in_process else args.repeats):
        for path in args.files:
            for name, tree in trees.items():
                env = environment(tree, not args.no_cache)
                if args.in_process:
                    run = subprocess.run(
                        [sys.executable, "-c", IN_PROCESS, str(path.resolve())],
                        env=env,
                        cwd="/",
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    print(f"{path.name} [{name}]: {run.stdout.strip()}")
                    continue
                before = children_cpu()
                subprocess.run(
                    [sys.executable, "-c", MAIN, "score", str(path.resolve()), "--json"],
                    env=env,
                    cwd="/",
                    stdout=subprocess.DEVNULL,
                    check=True,
                )
                times.setdefault((path.name, name), []).append(children_cpu() - before)
    for (file_name, name), spent in times.items():
        print(
            f"{file_name} [{name}]: median {statistics.median(spent):.3f} s CPU (min {min(spent):.3f}, "
            f"max {max(spent):.3f}, {len(spent)} runs)"
        )
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
