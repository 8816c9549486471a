"""One math-verify worker process, seen from the parent: start it, send a check, read its answer.

The child (`mathverify_checks`) bounds each check by its own CPU time and dies with its parent (`worker_guard`).
The parent never bounds a check by wall time: on a busy machine a check takes longer but its verdict is the same.
Wall time only catches a worker that is stuck: one that made no CPU progress for `stall_seconds` (read from
/proc where there is one) or, as a last resort, ran past a generous wall-clock cap.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from mathreel.core.extract.worker_guard import PARENT_ENV

_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding `core`, for the child's imports
_START_CPU = 60.0  # a cold child imports sympy and math-verify first (about 1 s of CPU)
_POLL = 0.5
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
# (kind, payload, CPU seconds): kind is "answer" (payload: [equal, why, read]), "out_of_cpu", "stalled" or
# "failed" (payload: why, worded for the verdict).
Outcome = tuple[str, object, float]


class WorkerProcess:
    """A child `python -m mathreel.core.extract.mathverify_checks`, started on first use and replaced after it
    stops. A plain subprocess, not multiprocessing: spawning would re-import the caller's main script. Its
    parent-death signal is tied to the thread that starts it, so a pool starts it from a thread that lives as
    long as the process."""

    def __init__(self, stall_seconds: float) -> None:
        self.lock = threading.Lock()
        self.stall_seconds = stall_seconds
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None and self._process.poll() is None else None

    def ask(self, request: list, cpu_seconds: float) -> Outcome:
        """Run one check with at most `cpu_seconds` of the worker's CPU time."""
        with self.lock:
            return self._ask(request, cpu_seconds)

    def _ask(self, request: list, cpu_seconds: float) -> Outcome:
        failed = self._ensure()
        if failed:
            return "failed", failed, 0.0
        process = self._process
        assert process is not None and process.stdin is not None  # started by _ensure, with pipes
        try:
            process.stdin.write(json.dumps([*request, cpu_seconds]).encode() + b"\n")
            process.stdin.flush()
            line = self._read_line(max(120.0, 30 * cpu_seconds))
        except OSError as exc:
            self.stop()
            return "failed", f"math-verify worker failed ({type(exc).__name__}); a judge can decide", 0.0
        if line is None:
            self.stop()
            return (
                "stalled",
                (
                    f"undecidable (worker stalled): math-verify made no progress for "
                    f"{self.stall_seconds:g} s; a judge can decide"
                ),
                0.0,
            )
        if not line:
            code = self.stop()
            if code == -signal.SIGXCPU:  # stuck in C code past its CPU limit: the kernel ended it
                return "out_of_cpu", None, cpu_seconds
            return "failed", "math-verify worker stopped; a judge can decide", 0.0
        answer = json.loads(line)
        if answer.get("out_of_cpu"):
            return "out_of_cpu", None, float(answer["cpu"])
        return "answer", answer["answer"], float(answer["cpu"])

    def _ensure(self) -> str:
        """ "" once a live, ready child exists, else why it could not start."""
        if self._process is not None and self._process.poll() is None:
            return ""
        self.stop()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH", "")]))
        env[PARENT_ENV] = str(os.getpid())
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "mathreel.core.extract.mathverify_checks"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError as exc:
            return f"math-verify worker did not start ({type(exc).__name__}); a judge can decide"
        if self._read_line(max(300.0, _START_CPU)) != b"ready\n":  # imports done: limits are per check
            self.stop()
            return "math-verify worker did not start; a judge can decide"
        return ""

    def _read_line(self, wall_cap: float) -> bytes | None:
        """The child's next line; b"" if it died; None if it is stuck: no CPU progress for `stall_seconds`
        (where /proc tells), or nothing within `wall_cap` seconds."""
        process = self._process
        assert process is not None and process.stdout is not None  # started by _ensure, with pipes
        start = last_progress = time.monotonic()
        last_cpu = _cpu_seconds(process.pid)
        while True:
            ready, _, _ = select.select([process.stdout], [], [], _POLL)
            if ready:
                return process.stdout.readline()
            now = time.monotonic()
            if process.poll() is not None:
                return process.stdout.readline()
            cpu = _cpu_seconds(process.pid)
            if cpu is not None and last_cpu is not None and cpu > last_cpu:
                last_cpu, last_progress = cpu, now
            if (cpu is not None and now - last_progress > self.stall_seconds) or now - start > wall_cap:
                return None

    def stop(self) -> int | None:
        """Kill the child (if running) and reap it; its exit code, None when there was none."""
        process, self._process = self._process, None
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        code = process.wait()
        _close(process)
        return code

    def kill_now(self) -> None:
        """Kill the child without waiting for the check in progress (whose caller then sees it stopped)."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    def forget(self) -> None:
        """In a forked child: drop this handle without touching the parent's worker (closing only the copies of
        its pipes, so the worker still sees its real parent go)."""
        process, self._process = self._process, None
        if process is not None:
            _close(process)
            process.returncode = 0  # not ours to wait for


def _close(process: subprocess.Popen[bytes]) -> None:
    for stream in (process.stdin, process.stdout):
        with contextlib.suppress(OSError):  # a broken pipe on close: the child is gone anyway
            if stream is not None:
                stream.close()


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process `pid` from /proc, None where there is no /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / _TICK
