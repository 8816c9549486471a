"""math-verify (Hugging Face's checker on sympy) in a small pool of worker processes, each check bounded by the
CPU time it uses, each file by a CPU budget, and callers served in turn.

The checks the workers run are in `mathverify_checks`; one worker process is `mathverify_process.WorkerProcess`.

- *CPU, not wall time.* math-verify bounds its own work with `SIGALRM` on wall time, which only the main thread may
  use and which turns "equal" into "undecidable" on a busy machine. Its timeouts are off; the worker bounds each
  check by its own CPU time (`DEFAULT_DEADLINE` seconds, `worker_guard`), so a verdict is the same on an idle and
  on a saturated machine. A worker that makes no progress at all is "undecidable (worker stalled)", never cached.
- *Per file.* Inside `math_budget.file_budget(answers)` (scoring one file) all checks together get a CPU budget
  that grows with the file's size (`math_budget`): a file of N hostile answers
  costs a bounded total, not N limits. Once spent, its remaining checks are undecidable (not cached: another
  file's budget is its own). Costly checks (over `math_budget.COSTLY_CHECK_SECONDS` each) have a smaller allowance
  of their own: past it a check of that file is cut sooner, then none is run ("time limit"); ordinary checks never
  come near it. Hostile math that the text alone gives away never reaches a worker (`math_screen`).
- *Fair turns.* Checks queue per caller (`math_budget.math_caller(key)`, else the file being scored, else the
  thread) and the pool takes one from each waiting caller in turn: one caller's long queue never starves another.
- *No orphans.* Workers die with the process that started them (`worker_guard`), and are stopped at exit.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple, cast

from mathreel.core.extract import math_budget
from mathreel.core.extract.math_budget import FileBudget, costly_cap, current_budget, current_caller
from mathreel.core.extract.mathverify_process import Outcome, WorkerProcess

DEFAULT_DEADLINE = 5.0  # CPU seconds for one check; sympy on an ordinary answer takes 1-150 ms
STALL_SECONDS = 30.0  # a worker with no CPU progress this long (wall time) is stuck, not slow
WORKERS_ENV = "MATHREEL_MATH_WORKERS"


class Checked(NamedTuple):
    """A worker's verdict: equal (None: undecidable), why, what math-verify read (for "read" checks), and whether
    the verdict depends on the moment (a spent file budget, a stalled or failed worker) and must not be cached."""

    equal: bool | None
    why: str
    read: str | None = None
    transient: bool = False


def engine_verdict(predicted: str, gold: str) -> Checked:
    """math-verify's verdict on two answers, run in a worker."""
    return _check("verify", predicted, gold)


def engine_read(response: str, gold: str) -> Checked:
    """math-verify's own extraction reads the whole response, then verifies it against the gold. For responses
    MathReel's rules leave unread or undecided; the same limits bound it."""
    return _check("read", response, gold)


def _check(op: str, first: str, gold: str) -> Checked:
    budget = current_budget()
    limit, file_limited = DEFAULT_DEADLINE, False
    if budget is not None:
        left = budget.seconds - budget.spent
        if left <= 0:
            budget.refused += 1
            return Checked(None, _spent(budget), transient=True)
        cap = costly_cap(budget)
        if cap is None:  # the file's costly checks have used their allowance: not run, for this file only
            budget.refused += 1
            return Checked(None, _costly_spent(), transient=True)
        limit = min(limit, cap)
        if left < limit:
            limit, file_limited = left, True
    key = current_caller() or (budget.key if budget is not None else threading.get_ident())
    kind, payload, cpu = _POOL.run(key, [op, first, gold], limit)
    if budget is not None:
        budget.spent += cpu
        if kind == "out_of_cpu" or cpu > math_budget.COSTLY_CHECK_SECONDS:
            budget.costly += cpu
    if kind == "answer":
        equal, why, read = cast("tuple[bool | None, str, str | None]", payload)  # a worker's answer
        return Checked(equal, why, read)
    if kind == "out_of_cpu":
        if budget is not None and file_limited:  # the file's budget ran out, not the check's own
            budget.refused += 1
            return Checked(None, _spent(budget), transient=True)
        if budget is not None:
            budget.out_of_cpu += 1
        why = f"math-verify took longer than {limit:g} s of CPU time; a judge can decide"
        return Checked(None, why, transient=limit < DEFAULT_DEADLINE)  # a lowered limit is this file's alone
    return Checked(None, str(payload), transient=True)


def _spent(budget: FileBudget) -> str:
    return f"math-verify's budget for this file ({budget.seconds:g} s of CPU time) is spent; a judge can decide"


def _costly_spent() -> str:
    return (
        f"math-verify's time for costly checks in this file ({math_budget.COSTLY_CEILING_SECONDS:g} s of CPU "
        "time) is spent; a judge can decide"
    )


@dataclass
class Job:
    """One check waiting for, or done by, a worker; `turn` is the order in which the pool took it."""

    request: list
    cpu_seconds: float
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome = ("failed", "math-verify worker failed; a judge can decide", 0.0)
    turn: int = -1


class WorkerPool:
    """Worker processes, each driven by a thread of its own that lives as long as the process (a worker's
    parent-death signal follows the thread that started it). Jobs wait in one queue per caller; a free thread
    takes the next caller's first job in turn."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._cond = threading.Condition()
        self._queues: dict[object, deque[Job]] = {}
        self._turns: deque[object] = deque()
        self._taken = 0
        self.workers: list[WorkerProcess] = []
        self.cpu_seconds = 0.0  # CPU time of every check run, for benches

    def run(self, key: object, request: list, cpu_seconds: float) -> Outcome:
        """Queue a check under `key` and wait for its outcome."""
        job = self.submit(key, request, cpu_seconds)
        job.done.wait()
        return job.outcome

    def submit(self, key: object, request: list, cpu_seconds: float) -> Job:
        """Queue a check under `key`; its `done` event is set when it has run."""
        job = Job(request, cpu_seconds)
        with self._cond:
            if not self.workers:
                self._start_threads()
            queue = self._queues.get(key)
            if queue is None:
                queue = self._queues[key] = deque()
                self._turns.append(key)
            queue.append(job)
            self._cond.notify()
        return job

    def _start_threads(self) -> None:
        for number in range(self.size):
            worker = WorkerProcess(STALL_SECONDS)
            self.workers.append(worker)
            threading.Thread(target=self._serve, args=(worker,), daemon=True, name=f"math-verify-{number}").start()

    def _next(self) -> Job:
        with self._cond:
            while not self._turns:
                self._cond.wait()
            key = self._turns.popleft()
            queue = self._queues[key]
            job = queue.popleft()
            job.turn, self._taken = self._taken, self._taken + 1
            if queue:
                self._turns.append(key)  # its next job waits for every other caller's turn
            else:
                del self._queues[key]
            return job

    def _serve(self, worker: WorkerProcess) -> None:
        while True:
            job = self._next()
            try:
                worker.stall_seconds = STALL_SECONDS
                job.outcome = worker.ask(job.request, job.cpu_seconds)
                self.cpu_seconds += job.outcome[2]
            except Exception as exc:  # a bug here must not leave the caller waiting forever
                job.outcome = ("failed", f"math-verify worker failed ({type(exc).__name__}); a judge can decide", 0.0)
            finally:
                job.done.set()

    def stop(self) -> None:
        """Stop every worker once its current check is done (a new one starts on the next check)."""
        for worker in self.workers:
            with worker.lock:
                worker.stop()

    def kill(self) -> None:
        """Kill every worker now, mid-check too (at exit: Ctrl-C must not wait for sympy)."""
        for worker in self.workers:
            worker.kill_now()


def pool_size() -> int:
    """Workers from the cores: one per two cores (at least one, at most four), or MATHREEL_MATH_WORKERS."""
    try:
        return max(1, int(os.environ[WORKERS_ENV]))
    except (KeyError, ValueError):
        return max(1, min(4, (os.cpu_count() or 1) // 2))


_POOL = WorkerPool(pool_size())


def _forget_after_fork() -> None:
    """A forked child starts with no pool: the parent's workers and threads are not its own."""
    global _POOL
    for worker in _POOL.workers:
        worker.forget()
    _POOL = WorkerPool(pool_size())


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
atexit.register(lambda: _POOL.kill())


def worker_pids() -> list[int]:
    """The pids of the running workers (tests and benches look for them after killing their parent)."""
    return [pid for pid in (worker.pid for worker in _POOL.workers) if pid is not None]


def worker_cpu_seconds() -> float:
    """CPU time the checks have used in this process so far, as the workers measured it."""
    return _POOL.cpu_seconds


def set_deadline_for_tests(seconds: float) -> float:
    """Change the per-check CPU limit; returns the old one so a test can put it back."""
    global DEFAULT_DEADLINE
    old, DEFAULT_DEADLINE = DEFAULT_DEADLINE, seconds
    return old


def set_stall_for_tests(seconds: float) -> float:
    """Change how long a worker may make no progress before it counts as stalled; returns the old value."""
    global STALL_SECONDS
    old, STALL_SECONDS = STALL_SECONDS, seconds
    return old


def restart_worker() -> None:
    """Kill the worker processes (the next check starts new ones)."""
    _POOL.stop()
