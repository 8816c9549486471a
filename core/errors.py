"""Errors that reach a user: each names the file, the record and the problem, never a traceback.

A message says what is wrong in words that hold on every surface. When the user can get past it by setting
something, the error names that setting in `fix` (a `Fix`), and each surface words the remedy in its own terms:
the CLI names its flag (`cli.error_line`), a page names its control (`webapp.errors.error_message`).
"""

from __future__ import annotations

from typing import Literal

Fix = Literal["benchmark", "mode", "annotations", "judge_base_url", "judge_model"]
"""What the user can set: which benchmark (and mode) a file is for, the dataset its gold answers come from, the
judge's endpoint (base URL, model)."""


class MathReelError(Exception):
    """A problem the user can act on. `str()` is the one line shown on stderr or in the page; `fix` names the setting
    that gets past it, if any."""

    def __init__(self, *args: object, fix: Fix | None = None) -> None:
        super().__init__(*args)
        self.fix = fix


class InputError(MathReelError):
    """Bad input: an unreadable file, a malformed record, an unknown layout."""

    def __init__(self, source: str, problem: str, record: str | int | None = None, *, fix: Fix | None = None) -> None:
        self.source = source
        self.problem = problem
        self.record = record
        super().__init__(self.message, fix=fix)

    @property
    def message(self) -> str:
        where = self.source
        if self.record is not None:
            where += f", record {self.record}" if isinstance(self.record, int) else f", {self.record}"
        return f"{where}: {self.problem}"
