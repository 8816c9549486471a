"""The math-verify CPU budget of one file and the caller its checks queue under, carried by context variables.

Scoring sets them (`file_budget` around one file, `math_caller` around one visitor's work); the engine reads them
(`equivalence_engine`). A module of its own so that scoring need not import the engine's process machinery.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

FILE_BUDGET_SECONDS = 20.0  # CPU seconds of math-verify per file, plus the allowance per answer below
FILE_BUDGET_PER_ANSWER = 0.05  # a 3,940-answer MathVerse file needs about 2 s in all; it may use 217
# Costly checks: a check that uses more than COSTLY_CHECK_SECONDS of CPU (an ordinary one takes 1-150 ms, the
# heaviest decidable ones we know 0.4-0.8 s, 1.1-1.75 s on a saturated machine) is costly. A file's costly checks
# may use COSTLY_SECONDS in all at the full limit per check; past that each check of the file is limited to
# COSTLY_CHECK_SECONDS (an ordinary check still runs to its end), and once they reach COSTLY_CEILING_SECONDS the
# file's remaining checks are not run ("time limit"). A file of costly answers the screen lets through thus costs
# about 7 s, whatever its size, where the budget alone would give it 20 s + 0.05 s per answer.
COSTLY_CHECK_SECONDS = 1.5
COSTLY_SECONDS = 5.0
COSTLY_CEILING_SECONDS = 6.5


class FileBudget:
    """The worker CPU time one file's checks may take together, and what they took.

    A plain class, not a dataclass: every scored file makes one, so every `mathreel score` imports this module,
    where a dataclass compiles its generated methods (~2 M instructions); nothing compares or prints budgets."""

    __slots__ = ("costly", "key", "out_of_cpu", "refused", "seconds", "spent", "undecided")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.spent = 0.0
        self.out_of_cpu = 0  # checks that ran out of their own limit
        self.refused = 0  # checks not run because the budget was spent
        self.costly = 0.0  # CPU of the checks that used more than COSTLY_CHECK_SECONDS (or ran out of their limit)
        self.key: object = object()  # its queue in the pool, unless the caller names one
        self.undecided: dict[str, int] = {}  # answers left undecided, by limit (see `note`)

    def note(self, explanation: str) -> None:
        """Count an answer's verdict if one of math-verify's limits left it undecided."""
        limit = limit_reached(explanation)
        if limit:
            self.undecided[limit] = self.undecided.get(limit, 0) + 1

    def warning(self) -> str | None:
        """ "3 answers undecided by math-verify: time limit (2), hostile math (1)", or None."""
        if not self.undecided:
            return None
        total = sum(self.undecided.values())
        parts = ", ".join(f"{limit} ({count})" for limit, count in sorted(self.undecided.items()))
        return (
            f"{total} answer{'s' if total != 1 else ''} undecided by math-verify: {parts}; counted as not "
            "equal (a judge can decide them)"
        )


_LIMITS = (
    ("s of CPU time; a judge", "time limit"),
    ("undecidable (hostile math)", "hostile math"),
    ("budget for this file", "file budget spent"),
    ("time for costly checks in this file", "time limit"),
    ("undecidable (worker stalled)", "worker stalled"),
)


_FILE: contextvars.ContextVar[FileBudget | None] = contextvars.ContextVar("mathreel_math_file", default=None)
_CALLER: contextvars.ContextVar[object | None] = contextvars.ContextVar("mathreel_math_caller", default=None)


@contextmanager
def file_budget(answers: int) -> Iterator[FileBudget]:
    """Checks made inside share one CPU budget sized for a file of `answers` answers (a nested file keeps the
    outer one's budget)."""
    outer = _FILE.get()
    if outer is not None:
        yield outer
        return
    budget = FileBudget(FILE_BUDGET_SECONDS + FILE_BUDGET_PER_ANSWER * max(0, answers))
    token = _FILE.set(budget)
    try:
        yield budget
    finally:
        _FILE.reset(token)


@contextmanager
def math_caller(key: object) -> Iterator[None]:
    """Checks made inside queue under `key` (a visitor, a session): callers take turns in the pool."""
    token = _CALLER.set(key)
    try:
        yield
    finally:
        _CALLER.reset(token)


def limit_reached(explanation: str) -> str | None:
    """ "time limit", "hostile math", "file budget spent" or "worker stalled" when an undecidable verdict's
    explanation says one of math-verify's limits left it so, else None."""
    return next((limit for words, limit in _LIMITS if words in explanation), None)


def costly_cap(budget: FileBudget) -> float | None:
    """The CPU limit the file's costly checks so far leave one more check (COSTLY_* above), or None when they
    have used all they may and the check is not to run."""
    if budget.costly >= COSTLY_CEILING_SECONDS:
        return None
    return max(COSTLY_CHECK_SECONDS, COSTLY_SECONDS - budget.costly)


def current_budget() -> FileBudget | None:
    return _FILE.get()


def current_caller() -> object | None:
    return _CALLER.get()
