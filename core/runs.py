"""Named runs the user has loaded (scored result files, judgment files): one naming rule and one lookup.

The app keeps a list of runs per tab and refers to one by the name shown in a dropdown; the name can be stale
(the run was removed) or empty (nothing chosen yet). Both tabs resolve it here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class Named(Protocol):
    name: str


R = TypeVar("R", bound=Named)


def unique_name(name: str, taken: set[str]) -> str:
    """`name`, or `name (2)`, `name (3)`, ... when it is taken (two uploads of files with one name)."""
    candidate, k = name, 2
    while candidate in taken:
        candidate, k = f"{name} ({k})", k + 1
    return candidate


def find_run(runs: Sequence[R], name: str | None, *, stale_is_first: bool = False) -> R | None:
    """The run called `name`; with no name, the first run (None when there are none).

    A name no run has gives None, or the first run when `stale_is_first` (the Score tab shows the first run
    instead of nothing after the chosen one is removed).
    """
    for run in runs:
        if run.name == name:
            return run
    if runs and (name is None or stale_is_first):
        return runs[0]
    return None
