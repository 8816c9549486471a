"""No math-verify worker outlives the process that started it: a parent killed with SIGKILL (with the kernel's
parent-death signal, and with the watchdog alone), `mathreel score` stopped with SIGTERM or Ctrl-C, and a
scoring child killed at its budget on the server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from mathreel.core.extract.worker_guard import PDEATHSIG_ENV

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc"),
    pytest.mark.xdist_group("machine"),
]
WAIT = 30.0  # how long a worker may take to go (it goes within a second; a loaded machine is slow)


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper has stopped)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def workers_under(ancestor: int) -> list[int]:
    """Running math-verify workers that descend from `ancestor`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"mathverify_checks" not in command or not alive(int(entry.name)):
            continue
        pid = int(entry.name)
        while pid > 1:
            fields = _stat(pid)
            if fields is None:
                break
            pid = int(fields[1])
            if pid == ancestor:
                found.append(int(entry.name))
                break
    return found


def wait_for(predicate, seconds: float = WAIT) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


PARENT = textwrap.dedent("""
    import sys, threading
    from mathreel.core.extract import math_equivalence
    from mathreel.core.extract.equivalence_engine import set_deadline_for_tests, worker_pids
    math_equivalence("2\\\\sqrt{5}", "\\\\sqrt{20}")
    print(worker_pids()[0], flush=True)
    if sys.argv[1] == "busy":  # the worker is mid-check (sympy expanding for a minute) when the parent dies
        set_deadline_for_tests(60)
        costly = ("z = (x+y+1)^{20}(x+y+2)^{20}", "(x+y+2)^{20}(x+y+3)^{20}")
        threading.Thread(target=math_equivalence, args=costly, daemon=True).start()
    threading.Event().wait()
""")


@pytest.mark.parametrize(("pdeathsig", "state"), [("1", "idle"), ("1", "busy"), ("0", "idle"), ("0", "busy")])
def test_the_worker_dies_when_its_parent_is_killed(pdeathsig: str, state: str) -> None:
    env = {**os.environ, PDEATHSIG_ENV: pdeathsig}
    parent = subprocess.Popen([sys.executable, "-c", PARENT, state], stdout=subprocess.PIPE, env=env, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert alive(worker)
        if state == "busy":
            time.sleep(1.0)  # the check has started
            assert alive(worker)
        parent.kill()
        parent.wait()
        assert wait_for(lambda: not alive(worker)), f"worker {worker} outlived its parent"
    finally:
        parent.kill()
        parent.wait()
        parent.stdout.close()


def mathverse_file(folder: Path, answers: int = 30) -> Path:
    """A MathVerse output file whose free-form answers each keep sympy busy for seconds."""
    records = [
        {
            "sample_index": str(i + 1),
            "problem_index": str(i + 1),
            "problem_version": "Text Lite",
            "question": f"Problem {i}",
            "answer": f"(x+y+{i + 2})^{{20}}(x+y+{i + 3})^{{20}}",
            "question_type": "free-form",
            "model_answer": (
                f"Working through the figure.\nTherefore, the answer is $z = (x+y+{i + 1})^{{20}}(x+y+{i + 2})^{{20}}$."
            ),
            "metadata": {"split": "testmini", "subject": "Plane Geometry", "subfield": "Length"},
        }
        for i in range(answers)
    ]
    path = folder / "mathverse_output.json"
    path.write_text(json.dumps(records))
    return path


def _interruptible() -> None:
    """In the child before exec: Ctrl-C at its default, as a terminal starts a command. A process inherits an
    ignored SIGINT, and Python then installs no KeyboardInterrupt handler; somewhere in the whole suite under
    pytest-xdist the test process comes to ignore SIGINT (two CI runs: the command finished its file with status 0
    after the signal; reproduced by starting it from a process that ignores SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_mathreel_score_stopped_leaves_no_worker(tmp_path: Path, stop: signal.Signals) -> None:
    command = [str(Path(sys.executable).with_name("mathreel")), "score", str(mathverse_file(tmp_path))]
    cli = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible
    )
    try:
        assert wait_for(lambda: workers_under(cli.pid), 120), "mathreel score started no math-verify worker"
        workers = workers_under(cli.pid)
        cli.send_signal(stop)
        cli.wait(timeout=WAIT)
        assert wait_for(lambda: not any(alive(pid) for pid in workers)), f"workers {workers} outlived the CLI"
    finally:
        cli.kill()
        cli.wait()
        cli.stderr.close()
    if stop == signal.SIGINT:
        assert cli.returncode == 130


def test_a_scoring_child_killed_at_its_budget_leaves_no_worker(tmp_path: Path) -> None:
    """The server scores a large upload in a child with a time budget; killing that child kills its worker. The
    file's first costly check alone may take 5 s of worker CPU (math_budget.COSTLY_SECONDS), after the worker's own
    start: more than the child's whole budget (3 s of wall time). Its file's costly checks stop at 6.5 s of CPU, so
    a budget of 20 s was met on a quiet machine (the file scored, nothing was killed)."""
    from mathreel.core.errors import InputError
    from mathreel.core.scoring.files import ScoreRequest, score_file
    from mathreel.webapp.isolate import Budget, run_isolated

    path = mathverse_file(tmp_path, answers=60)
    seen: set[int] = set()
    done = threading.Event()
    # Workers this test process already had (the in-process pool of an earlier test on the same pytest or xdist
    # worker) are alive by design: only the scoring child's workers are watched.
    own = set(workers_under(os.getpid()))

    def watch() -> None:
        while not done.is_set():
            seen.update(set(workers_under(os.getpid())) - own)
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with pytest.raises(InputError, match="stopped after"):
            run_isolated(score_file, (ScoreRequest(str(path)),), Budget(seconds=3.0), str(path))
    finally:
        done.set()
        watcher.join()
    assert seen, "the scoring child started no math-verify worker within its budget"
    assert wait_for(lambda: not any(alive(pid) for pid in seen)), f"workers {seen} outlived the scoring child"
