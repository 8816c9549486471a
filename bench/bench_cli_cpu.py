"""CPU time of whole `mathreel score FILE --json` processes, and of read + score in one process, for one or more
source trees side by side (interleaved run by run, so a busy machine weighs on each tree alike).

    .venv/bin/python bench/bench_cli_cpu.py --tree before=/tmp/old --tree after=. --repeats 9 FILE...
    .venv/bin/python bench/bench_cli_cpu.py --tree after=. --no-cache FILE...        # every module compiled afresh
    .venv/bin/python bench/bench_cli_cpu.py --tree after=. --in-process BIG.jsonl    # read/score CPU, peak RSS
    .venv/bin/python bench/bench_cli_cpu.py --tree after=. --official eval_your_results.py TEMPLATE.json

    .venv/bin/python bench/bench_cli_cpu.py --tree after=. --together --official eval_your_results.py \
        --official-files RUNS/run*_template.json RUNS/run*.jsonl                      # many runs in one process

`--together` scores all FILES in one `mathreel score FILE... --json` process per tree (an ablation's runs, as
users score them: `bench_score.py --write-runs DIR` writes 100 runs over the same 2,700 questions) and prints its
CPU and peak RSS (`os.wait4` of that child); with `--official`, the official script (one file per process, as it
takes them) runs on each of `--official-files` (default: FILES) and its CPU is summed, its peak RSS the largest.

`--official PATH` runs the official Video-MME script (BradyFU/Video-MME evaluation/eval_your_results.py, every
breakdown asked for) on each file, interleaved with the trees in the same rounds, and prints each tree's median as a
ratio to it; `python -c pass` is timed the same way (the floor every process pays). The script reads the first
generation template's keys only: a file it fails on is reported and left out of its rows.

A tree is a checkout of the repository (`git archive COMMIT | tar -x -C /tmp/old` makes an older one); each run
sets PYTHONPATH to it, so the same interpreter and packages serve every tree. Times are user + system CPU of the
child (getrusage), which a loaded machine disturbs far less than wall time; the load average is printed.
`--no-cache` removes the tree's `__pycache__` folders before each run and forbids writing new ones (a fresh
install's first run); by default the bytecode is cached, as users have it. The official script, run as a script, is
compiled on every run either way (Python caches no bytecode for `__main__`); the standard library's is cached.
`--no-bytecode` goes further: every child (trees, official script, floor) runs with PYTHONDONTWRITEBYTECODE=1 and
an empty PYTHONPYCACHEPREFIX, so no module finds bytecode, the standard library's included (a first run anywhere).
`--instructions` counts each child's instructions under valgrind (callgrind's Ir, PYTHONHASHSEED=0) instead of
timing it: about 50 times slower, but a busy machine does not move the count (two runs differ by ~2%), so the ratio
to the official script can be taken at any load. `--python PATH` runs every child (trees, official script, floor)
under another interpreter, e.g. a venv with a non-editable install (`--tree NAME=installed` then runs the installed
package: no PYTHONPATH).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MAIN = "import sys; from mathreel.cli import main; sys.exit(main())"  # as the `mathreel` script calls it
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


def environment(tree: Path | None, cached: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    if cached or tree is None:
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
    parser.add_argument("--official", type=Path, metavar="PATH", help="the official eval_your_results.py, run alike")
    parser.add_argument("--python", default=sys.executable, help="interpreter for every child (default: this one)")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of CPU")
    parser.add_argument("--together", action="store_true", help="all FILES in one `mathreel score` process")
    parser.add_argument("--official-files", nargs="+", type=Path, help="with --together: the official script's files")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="no child finds any bytecode, standard library included (an empty PYTHONPYCACHEPREFIX)",
    )
    args = parser.parse_args()
    if args.no_bytecode:  # every child: trees, the official script and `python -c pass` alike
        args.no_cache = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        os.environ["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="no-bytecode-")
    if args.together:
        together(args)
        return
    trees = {
        name: None if path == "installed" else Path(path).resolve()
        for name, _, path in (t.partition("=") for t in args.tree)
    }
    print(
        f"load average (1, 5, 15 min): {load()} on {os.cpu_count()} cores; "
        f"{'no bytecode at all' if args.no_bytecode else 'no bytecode cache' if args.no_cache else 'bytecode cached'}"
        f"; interpreter {args.python}"
    )
    times: dict[tuple[str, str], list[float]] = {}
    failed: set[str] = set()
    global MEASURE
    MEASURE = instructions if args.instructions else cpu
    unit = "M instructions" if args.instructions else "s CPU"
    digits = ".0f" if args.instructions else ".3f"
    if not args.no_cache and not args.in_process:  # one untimed run per tree writes its bytecode
        for tree in trees.values():
            command = [args.python, "-c", MAIN, "score", str(args.files[0].resolve()), "--json"]
            subprocess.run(command, env=environment(tree, True), cwd="/", capture_output=True)
    for _ in range(1 if args.in_process else args.repeats):
        if args.official and not args.in_process:
            times.setdefault(("", FLOOR), []).append(child_cpu([args.python, "-c", "pass"], os.environ))
        for path in args.files:
            if args.official and not args.in_process and path.name not in failed:
                spent = official_cpu(args.python, args.official, path)
                if spent is None:
                    failed.add(path.name)
                    print(f"{path.name}: the official script fails on this file; left out")
                else:
                    times.setdefault((path.name, OFFICIAL), []).append(spent)
            for name, tree in trees.items():
                env = environment(tree, not args.no_cache)
                if args.in_process:
                    run = subprocess.run(
                        [args.python, "-c", IN_PROCESS, str(path.resolve())],
                        env=env,
                        cwd="/",
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    print(f"{path.name} [{name}]: {run.stdout.strip()}")
                    continue
                command = [args.python, "-c", MAIN, "score", str(path.resolve()), "--json"]
                times.setdefault((path.name, name), []).append(child_cpu(command, env))
    medians = {key: statistics.median(spent) for key, spent in times.items()}
    for (file_name, name), spent in times.items():
        anchor = medians.get((file_name, OFFICIAL))
        ratio = f"; {medians[file_name, name] / anchor:.2f}x the official script" if anchor and name != OFFICIAL else ""
        print(
            f"{file_name or 'python -c pass'} [{name}]: median {medians[file_name, name]:{digits}} {unit} (min "
            f"{min(spent):{digits}}, max {max(spent):{digits}}, {len(spent)} runs){ratio}"
        )
    print(f"load average at the end: {load()}")


FLOOR, OFFICIAL = "floor", "official"
# The official script with every breakdown it offers (its README's command, all durations).
OFFICIAL_FLAGS = (
    "--video_duration_type",
    "short,medium,long",
    "--return_categories_accuracy",
    "--return_sub_categories_accuracy",
    "--return_task_types_accuracy",
)


def cpu(command: list[str], env: dict[str, str] | os._Environ[str]) -> tuple[float, int]:
    """User + system CPU of one child run to completion (its output discarded), and its exit status."""
    before = children_cpu()
    run = subprocess.run(command, env=env, cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return children_cpu() - before, run.returncode


def instructions(command: list[str], env: dict[str, str] | os._Environ[str]) -> tuple[float, int]:
    """Millions of instructions of one child run under callgrind (deterministic hashing), and its exit status."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command]
        run = subprocess.run(valgrind, env={**env, "PYTHONHASHSEED": "0"}, cwd="/", capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", run.stderr)
    return (int(found.group(1)) / 1e6 if found else float("nan")), run.returncode


MEASURE = cpu


def measured(command: list[str], env: dict[str, str] | os._Environ[str]) -> tuple[float, float]:
    """User + system CPU (s) and peak RSS (MB) of one child run to completion; a failed run stops the bench."""
    with subprocess.Popen(command, env=env, cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as child:
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise SystemExit(f"failed ({child.returncode}): {' '.join(command[:8])} ...")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def together(args: argparse.Namespace) -> None:
    """`--together`: per round, each tree scores every FILE in one process; the official script runs per file."""
    files = [str(path.resolve()) for path in args.files]
    official_files = [path.resolve() for path in args.official_files or args.files]
    trees = {
        name: None if path == "installed" else Path(path).resolve()
        for name, _, path in (t.partition("=") for t in args.tree)
    }
    print(f"load average (1, 5, 15 min): {load()} on {os.cpu_count()} cores; {len(files)} files in one process")
    for tree in trees.values():  # one untimed run per tree writes its bytecode
        command = [args.python, "-c", MAIN, "score", files[0], "--json"]
        subprocess.run(command, env=environment(tree, True), cwd="/", capture_output=True)
    results: dict[str, list[tuple[float, float]]] = {}
    for number in range(args.repeats):
        if args.official:
            spent, peak = 0.0, 0.0
            for path in official_files:
                command = [args.python, str(args.official.resolve()), "--results_file", str(path), *OFFICIAL_FLAGS]
                cpu_s, rss = measured(command, os.environ)
                spent, peak = spent + cpu_s, max(peak, rss)
            results.setdefault(OFFICIAL, []).append((spent, peak))
            print(
                f"round {number + 1} [official, {len(official_files)} processes]: {spent:.2f} s CPU, peak {peak:.0f} MB"
            )
        for name, tree in trees.items():
            command = [args.python, "-c", MAIN, "score", *files, "--json"]
            spent, peak = measured(command, environment(tree, True))
            results.setdefault(name, []).append((spent, peak))
            print(f"round {number + 1} [{name}]: {spent:.2f} s CPU, peak RSS {peak:.0f} MB (load {load()})")
    for name, runs in results.items():
        spent = [cpu_s for cpu_s, _ in runs]
        print(
            f"[{name}]: median {statistics.median(spent):.2f} s CPU (min {min(spent):.2f}, max {max(spent):.2f}, "
            f"{len(spent)} rounds), peak RSS {max(rss for _, rss in runs):.0f} MB"
        )
    print(f"load average at the end: {load()}")


def child_cpu(command: list[str], env: dict[str, str] | os._Environ[str]) -> float:
    """What one child run costs (`MEASURE`); a failed run stops the bench with its command."""
    spent, status = MEASURE(command, env)
    if status != 0:
        raise SystemExit(f"failed ({status}): {' '.join(command)}")
    return spent


def official_cpu(python: str, script: Path, path: Path) -> float | None:
    """What the official script costs on `path`, or None when it fails on the file (a layout it does not read)."""
    command = [python, str(script.resolve()), "--results_file", str(path.resolve()), *OFFICIAL_FLAGS]
    spent, status = MEASURE(command, os.environ)
    return spent if status == 0 else None


if __name__ == "__main__":
    main()
