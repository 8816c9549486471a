"""math-verify (Hugging Face's checker on sympy) in a worker process, with a deadline that works from any thread.

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
    return _WORKER.check(predicted, gold, DEFAULT_DEADLINE)


class _Worker:
    """One child process (`python -m core.extract.equivalence_engine`), started on first use and replaced after a
    timeout or a crash. A plain subprocess, not multiprocessing: spawning would re-import the caller's main script.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None

    def check(self, predicted: str, gold: str, deadline: float) -> tuple[bool | None, str]:
        with self._lock:
            process = self._ensure()
            if process is None:
                return None, "math-verify worker did not start; a judge can decide"
            try:
                process.stdin.write(json.dumps([predicted, gold]).encode() + b"\n")
                process.stdin.flush()
                line = _read_line(process, deadline)
            except OSError as exc:
                self._stop()
                return None, f"math-verify worker failed ({type(exc).__name__}); a judge can decide"
            if line is None:
                self._stop()
                return None, f"math-verify took longer than {deadline:g} s; a judge can decide"
            if not line:
                self._stop()
                return None, "math-verify worker stopped; a judge can decide"
            equal, why = json.loads(line)
            return equal, why

    def _ensure(self) -> subprocess.Popen[bytes] | None:
        if self._process is None or self._process.poll() is not None:
            self._stop()
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH", "")]))
            self._process = subprocess.Popen(
                [sys.executable, "-m", "core.extract.equivalence_engine"],
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


# ---------------------------------------------------------------- in the child


def _serve() -> None:
    """The child's loop: read a JSON pair per line, answer with a JSON verdict, until stdin closes."""
    import logging

    import math_verify  # noqa: F401  (imported before "ready", so no check pays for it)

    logging.disable(logging.WARNING)  # math-verify warns on every call that its own timeout is off
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in sys.stdin:
        predicted, gold = json.loads(line)
        sys.stdout.write(json.dumps(_verify(predicted, gold)) + "\n")
        sys.stdout.flush()


def _verify(predicted: str, gold: str) -> tuple[bool | None, str]:
    """One comparison. Each side is parsed as a LaTeX answer; an unparsed side leaves the pair undecided."""
    from math_verify import LatexExtractionConfig, parse, verify

    config = [LatexExtractionConfig()]
    try:
        pred = parse(f"${predicted}$", config, parsing_timeout=None)
        ref = parse(f"${gold}$", config, parsing_timeout=None)
        if not _parsed(pred) or not _parsed(ref):
            side = predicted if not _parsed(pred) else gold
            return None, f"math-verify could not parse {side!r}; a judge can decide"
        witness = _differs_at_a_point(pred[0], ref[0])
        if witness:
            return False, f"math-verify: {pred[0]} ≠ {ref[0]} (they differ at {witness})"
        equal = verify(ref, pred, timeout_seconds=None)
    except Exception as exc:  # sympy raises many kinds on odd input; any of them means "cannot decide"
        return None, f"math-verify failed ({type(exc).__name__}); a judge can decide"
    sign = "=" if equal else "≠"
    return bool(equal), f"math-verify: {pred[0]} {sign} {ref[0]}"


_POINTS = ("0.6180339887", "1.4142135623", "2.7182818284")  # irrational-looking, so a coincidence is unlikely


def _differs_at_a_point(pred, ref) -> str:
    """"x=1.414" when two exact expressions (or two equations, up to a constant factor) take clearly different
    values there, "a value" when two exact constants differ; "" when they agree or cannot be evaluated. Proving
    "different" this way takes a millisecond where sympy's simplification takes up to a second; "equal" is always
    left to `verify`. Decimals are left to `verify` too: it rounds them, and so must the verdict.
    """
    from sympy import Eq, Expr, Float

    if isinstance(pred, Eq) and isinstance(ref, Eq):
        pred, ref, ratio = pred.lhs - pred.rhs, ref.lhs - ref.rhs, True
    elif isinstance(pred, Expr) and isinstance(ref, Expr) and not isinstance(pred, Eq) and not isinstance(ref, Eq):
        ratio = False
    else:
        return ""
    if pred.atoms(Float) or ref.atoms(Float):
        return ""
    names = sorted(pred.free_symbols | ref.free_symbols, key=str)
    if len(names) > 4:
        return ""
    values = []
    for point in _POINTS if names else _POINTS[:1]:
        at = {name: Float(point, 30) for name in names}
        a, b = complex(pred.evalf(30, subs=at)), complex(ref.evalf(30, subs=at))
        if ratio:
            if abs(b) < 1e-12:
                return ""
            values.append(a / b)
        elif abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)):
            return f"{names[0]}={point[:5]}" if names else "a value"
    if ratio and any(abs(v - values[0]) > 1e-9 * max(1.0, abs(values[0])) or abs(v) < 1e-12 for v in values):
        return f"{names[0]}={_POINTS[0][:5]} and {_POINTS[1][:5]}" if names else "a value"
    return ""


def _parsed(found: list) -> bool:
    """math-verify gives back the raw text when it could not read math; only a sympy object counts."""
    return bool(found) and not isinstance(found[0], str)


if __name__ == "__main__":
    _serve()
