"""Errors that reach a user: each names the file, the record and the problem, never a traceback."""

from __future__ import annotations


class MathReelError(Exception):
    """A problem the user can act on. `str()` is the one line shown on stderr or in the page."""


class InputError(MathReelError):
    """Bad input: an unreadable file, a malformed record, an unknown layout."""

    def __init__(self, source: str, problem: str, record: str | int | None = None) -> None:
        self.source = source
        self.problem = problem
        self.record = record
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = self.source
        if self.record is not None:
            where += f", record {self.record}" if isinstance(self.record, int) else f", {self.record}"
        return f"{where}: {self.problem}"
