"""The math-verify CPU budget of one file and the caller its checks queue under, carried by context variables.

Scoring sets them (`file_budget` around one file, `math_caller` around one visitor's work); the engine reads them
(`equivalence_engine`). A module of its own so that scoring need not import the engine's process machinery.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

FILE_BUDGET_SECONDS = 20.0  # CPU seconds of math-verify per file, plus the allowance per answer below
FILE_BUDGET_PER_ANSWER = 0.05  # a 3,940-answer MathVerse file needs about 2 s in all; it may use 217


@dataclass
class FileBudget:
    """The worker CPU time one file's checks may take together, and what they took."""

    seconds: float
    spent: float = 0.0
    out_of_cpu: int = 0  # checks that ran out of their own limit
    refused: int = 0  # checks not run because the budget was spent
    key: object = field(default_factory=object)  # its queue in the pool, unless the caller names one
    undecided: dict[str, int] = field(default_factory=dict)  # answers left undecided, by limit (see `note`)

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


def current_budget() -> FileBudget | None:
    return _FILE.get()


def current_caller() -> object | None:
    return _CALLER.get()
