"""Number formatting for every view: the same strings as `mathreel score` (core.scoring.numbers), with an em
dash where there is no figure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathreel.core.scoring import numbers

NONE = "—"


def pct(value: float | None) -> str:
    """An accuracy in percent with one decimal, or an em dash when there is none."""
    return numbers.pct_text(value, NONE)


def ci_text(ci: Sequence[float | None] | None) -> str:
    """A 95% CI as "[low, high]" with one decimal."""
    return numbers.ci_text(ci, NONE)


def se_text(value: float | None) -> str:
    """A standard error in points, as the text report prints it."""
    return numbers.se_text(value, NONE)


def cell_parts(cell: dict[str, Any]) -> tuple[str, str]:
    """A report cell's accuracy and interval as shown: its `text` (rendered by core from full precision, not from
    the two decimals the JSON keeps), else rendered from its values."""
    text = cell.get("text")
    if text and cell.get("accuracy") is not None:
        shown, _, interval = str(text).partition(" ")
        return shown, interval
    return pct(cell.get("accuracy")), ci_text(cell.get("ci"))


def cell_text(cell: dict[str, Any] | None) -> str:
    """One breakdown cell as "41.3% [35.2, 47.6] n=120"."""
    if not cell or not cell.get("n"):
        return NONE
    shown, interval = cell_parts(cell)
    return f"{shown} {interval} n={cell['n']}"


def seconds_text(seconds: float) -> str:
    """A timestamp as m:ss.s (h:mm:ss.s past an hour), the way a video player shows it."""
    minutes, secs = divmod(max(seconds, 0.0), 60)
    hours, minutes = divmod(int(minutes), 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:04.1f}"
    return f"{minutes}:{secs:04.1f}"
