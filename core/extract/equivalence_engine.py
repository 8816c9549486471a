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
import re
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
    """One child process (`python -m core.extract.equivalence_engine`), started on first use and replaced after a
    timeout or a crash. A plain subprocess, not multiprocessing: spawning would re-import the caller's main script.
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
                [sys.executable, "-m", "mathreel.core.extract.equivalence_engine"],
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
        op, first, gold = json.loads(line)
        answer = _read_and_verify(first, gold) if op == "read" else (*_verify(first, gold), None)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def _verify(predicted: str, gold: str) -> tuple[bool | None, str]:
    """One comparison. Each side is parsed as a LaTeX answer; an unparsed side leaves the pair undecided."""
    from math_verify import LatexExtractionConfig, parse

    config = [LatexExtractionConfig()]
    try:
        pred = parse(f"${_as_latex(predicted)}$", config, parsing_timeout=None)
        ref = parse(f"${_as_latex(gold)}$", config, parsing_timeout=None)
        if not _parsed(pred) or not _parsed(ref):
            side = predicted if not _parsed(pred) else gold
            return None, f"math-verify could not parse {side!r}; a judge can decide"
        return _compare(pred, ref, "math-verify: ")
    except Exception as exc:  # sympy raises many kinds on odd input; any of them means "cannot decide"
        return None, f"math-verify failed ({type(exc).__name__}); a judge can decide"


def _read_and_verify(response: str, gold: str) -> tuple[bool | None, str, str | None]:
    """math-verify's own extraction (LaTeX, then plain expressions) over the whole response, against the gold
    parsed as an answer (or, failing that, read the same way). None when it reads no math from either."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    configs = [LatexExtractionConfig(), ExprExtractionConfig()]
    try:
        pred = parse(_drop_inline_across_lines(response), configs, parsing_timeout=None)
        if not _parsed(pred):
            return None, "math-verify read no math from the response either; a judge can decide", None
        ref = parse(f"${_as_latex(gold)}$", configs[:1], parsing_timeout=None)
        if not _parsed(ref):
            ref = parse(gold, configs, parsing_timeout=None)
        if not _parsed(ref):
            return None, f"math-verify could not parse the gold {gold!r}; a judge can decide", pred[1]
        cut = next((side[1] for side in (pred, ref) if not _balanced(side[1])), None)
        if cut is not None:  # "1 + \\frac{1}{": math-verify stopped inside a group, so its value is not the answer's
            return None, f"math-verify read a cut-off expression {cut!r}; a judge can decide", pred[1]
        equal, why = _compare(pred, ref, f"math-verify read {pred[1]!r} from the response: ")
    except Exception as exc:  # as in `_verify`
        return None, f"math-verify failed ({type(exc).__name__}) on the response; a judge can decide", None
    return equal, why, pred[1]


# Plain-text relations and a bare "%" (a comment in LaTeX, which would swallow the rest) as LaTeX writes them.
_ASCII_RELATIONS = {"!=": r" \neq ", ">=": r" \geq ", "<=": r" \leq "}
_PLAIN = re.compile(r"!=|>=|<=|(?<!\\)%")


def _as_latex(answer: str) -> str:
    return _PLAIN.sub(lambda match: _ASCII_RELATIONS.get(match.group(0), r"\%"), answer)


def _balanced(text: str) -> bool:
    """True when every brace in `text` is closed, in order."""
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def _compare(pred: list, ref: list, prefix: str) -> tuple[bool, str]:
    """Two parsed answers: a quick point check proves "different", else math-verify's `verify` decides."""
    from math_verify import verify

    witness = _differs_at_a_point(pred[0], ref[0])
    if witness:
        return False, f"{prefix}{pred[0]} ≠ {ref[0]} (they differ at {witness})"
    equal = bool(verify(ref, pred, timeout_seconds=None))
    return equal, f"{prefix}{pred[0]} {'=' if equal else '≠'} {ref[0]}"


# Inline math ("$…$", "\\(…\\)") does not cross a line break (display math "$$…$$", "\\[…\\]" may): a span that
# does is malformed, so it is not read. Both patterns run in linear time.
_SINGLE_DOLLARS = re.compile(r"(?<![\\$])\$(?!\$)[^$]*(?<![\\$])\$(?!\$)")
_INLINE_PARENS = re.compile(r"\\\((?:[^\\]|\\(?!\)))*\\\)")


def _drop_inline_across_lines(text: str) -> str:
    """The response without inline math spans that cross a line break."""
    for pattern in (_SINGLE_DOLLARS, _INLINE_PARENS):
        text = pattern.sub(lambda match: " " if "\n" in match.group(0) else match.group(0), text)
    return text


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
