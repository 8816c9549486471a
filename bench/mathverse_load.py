"""bench_mathverse.py's load, hostile-file and orphan measures of the math-verify worker (run through it).

- `stability(rounds)`: the synthetic testmini output, plus heavy answers that are still decidable (0.4-0.8 s of
  sympy each), scored in fresh processes `rounds` times on the machine as it is and `rounds` times with
  2 x cores busy processes added; every answer's verdict and explanation is hashed, and the hashes compared.
- `hostile_file(count)`: three files of `count` hostile answers scored in fresh processes: screened kinds
  (exponent towers, huge factorials, deep nesting), (x+y+k)^{60} against (x+y+k+1)^{60} (which sympy expands until
  the CPU limit; the screen once let it through, now it counts the expansion's 1,891 terms), and a costly kind the
  screen still lets through ((x+y+k)^{20}(x+y+k+1)^{20}: two 231-term powers, multiplied); wall time, the scorer's
  CPU and its worker's CPU, and the report's line on answers a limit left undecided.
- `orphans(rounds)`: parents killed with SIGKILL (worker idle and mid-check, with and without the kernel's
  parent-death signal) and `mathreel score` stopped with SIGTERM and SIGINT; workers still running 5 s later.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = [6, 7, 8, 9, 10]  # (x+y+1)^n against its expansion


def heavy_records(start: int) -> list[dict]:
    """Free-form answers whose check is decidable but costs sympy 0.4-0.8 s of CPU."""
    from sympy import expand, latex, symbols

    x, y = symbols("x y")
    records = []
    for offset, n in enumerate(HEAVY):
        records.append(
            {
                "sample_index": str(start + offset),
                "problem_index": str(start + offset),
                "problem_version": "Text Lite",
                "question": f"Expand problem {n}",
                "answer": latex(expand((x + y + 1) ** n)),
                "question_type": "free-form",
                "model_answer": f"Multiplying out, the answer is $(x+y+1)^{{{n}}}$.",
                "metadata": {"split": "testmini", "subject": "Algebra", "subfield": "Expansion"},
            }
        )
    return records


def verdict_digest(path: Path) -> None:
    """Run in a fresh process: score the file; print its accuracy, a hash of every row's verdict, the wall time,
    the CPU of the scorer and of the math-verify worker (its start included), and math-verify's warning."""
    import resource

    from mathreel.core.extract.equivalence_engine import restart_worker
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score

    start, cpu = time.perf_counter(), time.process_time()
    report = score(read_results(path))
    wall, scorer = time.perf_counter() - start, time.process_time() - cpu
    restart_worker()  # its CPU time is counted once it has exited
    worker = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
    rows = [(row.question_id, row.status, row.extracted, row.explanation) for row in report.rows]
    digest = hashlib.sha256(repr(rows).encode()).hexdigest()[:16]
    print(
        json.dumps(
            {
                "accuracy": report.overall.accuracy,
                "digest": digest,
                "wall_s": round(wall, 2),
                "scorer_cpu_s": round(scorer, 2),
                "worker_cpu_s": round(worker, 2),
                "math_warning": next((w for w in report.warnings if "undecided by math-verify" in w), ""),
            }
        )
    )


def _child(path: Path, tree: Path | None = None) -> dict:
    """`--digest` in a fresh process, importing this tree or `tree` (another ref's code, `against.tree_of`)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree or ROOT), env.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_mathverse.py"), "--digest", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=str(tree or ROOT),
        env=env,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def _hogs(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def stability(records: list[dict], rounds: int, against: str | None = None) -> None:
    """With `against` (a git ref), that tree is scored too, alternating with this one, quiet and loaded."""
    from against import tree_of

    records = records + heavy_records(len(records) + 1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mathverse_testmini_output.json"
        path.write_text(json.dumps(records))
        trees: dict[str, Path | None] = {"this tree": None}
        if against:
            trees[against] = tree_of(against, Path(tempfile.mkdtemp(dir=folder)))
        print(f"load average at the start: {os.getloadavg()}")
        runs: dict[tuple[str, str], list[dict]] = {}
        for name in trees:
            runs[(name, "as it is")] = []
        for _ in range(rounds):
            for name, tree in trees.items():
                runs[(name, "as it is")].append(_child(path, tree))
        hogs = _hogs(2 * (os.cpu_count() or 1))
        try:
            time.sleep(1)
            loaded_load = os.getloadavg()
            for _ in range(rounds):
                for name, tree in trees.items():
                    runs.setdefault((name, f"+{len(hogs)} busy processes"), []).append(_child(path, tree))
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
    for (name, state), done in runs.items():
        for run in done:
            warning = run["math_warning"] or "no answer undecided by a limit"
            print(
                f"  {name}, {state}: accuracy {run['accuracy']:.4f}%, verdicts {run['digest']}, "
                f"wall {run['wall_s']} s, worker CPU {run['worker_cpu_s']} s; {warning}"
            )
    print(f"load average while loaded: {loaded_load}")
    for name in trees:
        digests = {run["digest"] for (tree, _), done in runs.items() if tree == name for run in done}
        print(f"{name}: distinct verdict sets over {2 * rounds} runs: {len(digests)}")


HOSTILE_SCREENED = [
    "10^{{10^{{1{k}}}}}",
    "9^{{9^{{{k}}}}}",
    "({k}0000000)!",
    "9^9^9^{k}",
    "\\frac{{1}}{{2}}^{{10^{{{k}0}}}}",
    "(" * 30 + "{k}" + ")" * 30,
    "2^{{-10^{{{k}0}}}}",
    "(x+{k})^{{1000000}}",
]


HOSTILE_KINDS = {
    "screened": "screened kinds (towers, factorials, nesting)",
    "expansion": "(x+y+k)^{60}: screened by its expansion's size",
    "costly": "costly kind past the screen ((x+y+k)^{20}(x+y+k+1)^{20})",
}


def hostile_records(count: int, kind: str) -> list[dict]:
    """`count` MathVerse answers of one `HOSTILE_KINDS` kind."""
    records = []
    for i in range(count):
        k = i // len(HOSTILE_SCREENED) + 9
        if kind == "screened":
            answer, gold = HOSTILE_SCREENED[i % len(HOSTILE_SCREENED)].format(k=k), "1"
        elif kind == "expansion":
            answer, gold = f"z = (x+y+{i + 1})^{{60}}", f"(x+y+{i + 2})^{{60}}"
        else:
            answer = f"z = (x+y+{i + 1})^{{20}}(x+y+{i + 2})^{{20}}"
            gold = f"(x+y+{i + 2})^{{20}}(x+y+{i + 3})^{{20}}"
        records.append(
            {
                "sample_index": str(i + 1),
                "problem_index": str(i + 1),
                "problem_version": "Text Lite",
                "question": f"Problem {i}",
                "answer": gold,
                "question_type": "free-form",
                "model_answer": f"Working through it.\nTherefore, the answer is ${answer}$.",
                "metadata": {"split": "testmini", "subject": "Algebra", "subfield": "Hostile"},
            }
        )
    return records


def _mathreel() -> str:
    beside = Path(sys.executable).with_name("mathreel")
    return str(beside) if beside.exists() else "mathreel"


def hostile_file(count: int) -> None:
    """Score `count` hostile answers in one file, per kind (`HOSTILE_KINDS`), each in a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        for name, kind in HOSTILE_KINDS.items():
            path = Path(folder) / f"hostile_{name}.json"
            path.write_text(json.dumps(hostile_records(count, name)))
            run = _child(path)
            print(
                f"  {count} hostile answers, {kind}: wall {run['wall_s']} s, CPU: scorer {run['scorer_cpu_s']} s "
                f"+ worker {run['worker_cpu_s']} s (its start included); {run['math_warning']}"
            )


PARENT = textwrap.dedent("""
    import sys, threading
    from mathreel.core.extract import math_equivalence
    from mathreel.core.extract.equivalence_engine import set_deadline_for_tests, worker_pids
    math_equivalence("2\\\\sqrt{5}", "\\\\sqrt{20}")
    print(worker_pids()[0], flush=True)
    if sys.argv[1] == "busy":
        set_deadline_for_tests(60)
        costly = ("z = (x+y+1)^{20}(x+y+2)^{20}", "(x+y+2)^{20}(x+y+3)^{20}")
        threading.Thread(target=math_equivalence, args=costly, daemon=True).start()
    threading.Event().wait()
""")


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _children_workers(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (
                    b"mathverify_checks" in (entry / "cmdline").read_bytes()
                    and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent
                ):
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def orphans(rounds: int) -> None:
    """Workers left running 5 s after their parent was killed or stopped, per way of stopping it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "costly.json"
        path.write_text(json.dumps(hostile_records(30, "costly")))
        for label in (
            "SIGKILL idle",
            "SIGKILL busy",
            "SIGKILL idle, no prctl",
            "SIGKILL busy, no prctl",
            "mathreel score SIGTERM",
            "mathreel score SIGINT",
        ):
            left = 0
            for _ in range(rounds):
                if label.startswith("SIGKILL"):
                    extra = {"MATHREEL_MATH_PDEATHSIG": "0"} if "no prctl" in label else {}
                    parent = subprocess.Popen(
                        [sys.executable, "-c", PARENT, label.split()[1].rstrip(",")],
                        stdout=subprocess.PIPE,
                        text=True,
                        env={**env, **extra},
                    )
                    workers = [int(parent.stdout.readline())]
                    time.sleep(1.0)
                    parent.kill()
                else:
                    parent = subprocess.Popen(
                        [_mathreel(), "score", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
                    )
                    end = time.monotonic() + 120
                    while not _children_workers(parent.pid) and time.monotonic() < end:
                        time.sleep(0.1)
                    workers = _children_workers(parent.pid)
                    time.sleep(1.0)
                    parent.send_signal(signal.SIGTERM if label.endswith("SIGTERM") else signal.SIGINT)
                parent.wait()
                if parent.stdout:
                    parent.stdout.close()
                time.sleep(5.0)
                left += sum(_alive(pid) for pid in workers)
                for pid in workers:
                    if _alive(pid):
                        os.kill(pid, signal.SIGKILL)
            print(f"  {label}: {left} of {rounds} workers left running after 5 s")
