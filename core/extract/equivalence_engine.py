"""math-verify (Hugging Face's checker on sympy) in a worker process, with a deadline that works from any thread.

The checks the worker runs are in `mathverify_checks`; this module starts, feeds and stops the worker.

math-verify bounds its own work with `SIGALRM`, which only the main thread of a process may use; the web app and
the judge call from worker threads. So its timeouts are turned off (`parsing_timeout=None`,
`timeout_seconds=None`) and every check runs in one long-lived child process instead: the caller waits on a pipe
for at most `deadline` seconds and, past it, kills the child (a new one starts on the next check). A lock makes
one check at a time, which is all two cores allow anyway.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path

DEFAULT_DEADLINE = 5.0  # seconds for one pair; sympy on an ordinary answer takes 1-150 ms
_START_DEADLINE = 30.0  # a cold child imports sympy and math-verify first
_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding `core`, for the child's imports


def engine_verdict(predicted: str, gold: str) -> tuple[bool | None, str]:
    """(equal?, why) from math-verify, run in the worker process; None when it cannot parse or runs out of time."""
    equal, why, _ = _WORKER.check(["verify", predicted, gold], DEFAULT_DEADLINE)
    return equal, why


def engine_read(response: str, gold: str) -> tuple[bool | None, str, str | None]:
    """(equal?, why, what it read): math-verify's own extraction reads the whole response, then verifies it
    against the gold. For responses MathReel's rules leave unread or undecided; the same deadline bounds it."""
    return _WORKER.check(["read", response, gold], DEFAULT_DEADLINE)


class _Worker:
    """One child process (`python -m mathreel.core.extract.mathverify_checks`), started on first use and replaced
    after a timeout or a crash. A plain subprocess, not multiprocessing: spawning would re-import the caller's main
    script.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None

    def check(self, request: list[str], deadline: float) -> tuple[bool | None, str, str | None]:
        """(equal?, why, what math-verify read) for one request; a failure of the worker is undecidable."""
        with self._lock:
            verdict, why = self._ask(request, deadline)
            return (None, why, None) if verdict == "failed" else tuple(json.loads(verdict))

    def _ask(self, request: list[str], deadline: float) -> tuple[bytes | str, str]:
        """("the child's answer line", "") or ("failed", why)."""
        process = self._ensure()
        if process is None:
            return "failed", "math-verify worker did not start; a judge can decide"
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            line = _read_line(process, deadline)
        except OSError as exc:
            self._stop()
            return "failed", f"math-verify worker failed ({type(exc).__name__}); a judge can decide"
        if line is None:
            self._stop()
            return "failed", f"math-verify took longer than {deadline:g} s; a judge can decide"
        if not line:
            self._stop()
            return "failed", "math-verify worker stopped; a judge can decide"
        return line, ""

    def _ensure(self) -> subprocess.Popen[bytes] | None:
        if self._process is None or self._process.poll() is not None:
            self._stop()
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH", "")]))
            self._process = subprocess.Popen(
                [sys.executable, "-m", "mathreel.core.extract.mathverify_checks"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
            )
            if _read_line(self._process, _START_DEADLINE) != b"ready\n":  # imports done: deadlines are per check
                self._stop()
        return self._process

    def _stop(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout):
                stream.close()
        self._process = None

    def restart(self) -> None:
        """Stop the child now (a new one starts on the next check)."""
        with self._lock:
            self._stop()


def _read_line(process: subprocess.Popen[bytes], seconds: float) -> bytes | None:
    """The child's next line, b"" if it died, None if nothing came within `seconds`."""
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline() if ready else None


_WORKER = _Worker()


def set_deadline_for_tests(seconds: float) -> float:
    """Change the per-check deadline; returns the old one so a test can put it back."""
    global DEFAULT_DEADLINE
    old, DEFAULT_DEADLINE = DEFAULT_DEADLINE, seconds
    return old


def restart_worker() -> None:
    """Kill the worker process (the next check starts a new one)."""
    _WORKER.restart()
