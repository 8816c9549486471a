"""The math-verify worker's own guards, run inside the child: die with the parent, and bound each check by CPU time.

A worker that outlives its parent keeps a core busy for nobody (a scoring child killed at its budget, a CLI
stopped with Ctrl-C or SIGTERM). On Linux the kernel kills the child when the parent goes (`PR_SET_PDEATHSIG`,
through ctypes); everywhere, a watchdog thread ends the child when its stdin closes or its parent changes.

Each check is bounded by the CPU time it uses, never by wall time, so a verdict does not depend on how busy the
machine is. `ITIMER_PROF` (process CPU time) raises `OutOfCpu` inside sympy at the limit; when sympy is stuck in one
long C call that never returns to Python, `RLIMIT_CPU` ends the process a second or two later with SIGXCPU, and
the parent reports the same verdict.
"""

from __future__ import annotations

import math
import os
import queue
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

PARENT_ENV = "MATHREEL_MATH_PARENT"  # the parent's pid, to catch a parent that died before the prctl call
PDEATHSIG_ENV = "MATHREEL_MATH_PDEATHSIG"  # "0" turns the prctl call off (tests prove the watchdog alone)
MEMORY_ENV = "MATHREEL_MATH_MEMORY_MB"
DEFAULT_MEMORY_MB = 2048  # sympy on an ordinary answer needs under 200 MB; 10^{10^{10}} wants gigabytes
_PR_SET_PDEATHSIG = 1
_WATCH_SECONDS = 0.5
T = TypeVar("T")


class OutOfCpu(BaseException):  # not Exception: sympy's and math-verify's `except Exception` let it by
    """The check used up its CPU time."""


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent goes (Linux), and exit now if it already has."""
    expected = int(os.environ.get(PARENT_ENV, "0") or 0)
    if sys.platform.startswith("linux") and os.environ.get(PDEATHSIG_ENV, "1") != "0":
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the watchdog still works
            pass
    if expected and os.getppid() != expected:
        os._exit(0)


def limit_memory() -> None:
    """Cap the worker's address space: a hostile expression fails with MemoryError instead of taking the host."""
    megabytes = int(os.environ.get(MEMORY_ENV, DEFAULT_MEMORY_MB))
    limit = megabytes * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


def lines_until_parent_goes() -> Iterator[str]:
    """stdin's lines, read by a watchdog thread: when stdin closes or the parent changes, the process exits at
    once, even in the middle of a check."""
    lines: queue.Queue[str] = queue.Queue()
    parent = os.getppid()

    def read() -> None:
        for line in sys.stdin:
            lines.put(line)
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=read, daemon=True, name="stdin-watchdog").start()
    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()
    while True:
        yield lines.get()


_armed = False


def _on_prof(signum: int, frame: object) -> None:
    if _armed:
        raise OutOfCpu


def _disarm() -> None:
    global _armed
    _armed = False
    signal.setitimer(signal.ITIMER_PROF, 0)
    resource.setrlimit(resource.RLIMIT_CPU, (_HARD_CPU, _HARD_CPU))


_HARD_CPU = resource.getrlimit(resource.RLIMIT_CPU)[1]


def run_with_cpu_limit(work: Callable[[], T], seconds: float) -> tuple[T | None, float]:
    """(work(), CPU seconds it used), or (None, CPU seconds) when it used up `seconds` of CPU time. The process
    ends with SIGXCPU instead, a second or two past the limit, if sympy is stuck where Python cannot interrupt it."""
    global _armed
    signal.signal(signal.SIGPROF, _on_prof)
    used = resource.getrusage(resource.RUSAGE_SELF)
    backstop = math.ceil(used.ru_utime + used.ru_stime + seconds) + 2
    if _HARD_CPU == resource.RLIM_INFINITY or backstop < _HARD_CPU:
        resource.setrlimit(resource.RLIMIT_CPU, (backstop, _HARD_CPU))
    start = time.process_time()
    result: T | None = None
    try:
        try:
            _armed = True
            signal.setitimer(signal.ITIMER_PROF, seconds)
            result = work()
        finally:
            _disarm()
    except OutOfCpu:
        _disarm()  # the signal may have come inside the `finally` above, before it disarmed
        result = None
    return result, time.process_time() - start
