"""Number formatting shared by every view: one decimal for percentages, CIs as [low, high]."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def pct(value: float | None) -> str:
    """An accuracy in percent with one decimal, or an em dash when there is none."""
    return "—" if value is None else f"{value:.1f}%"


def ci_text(ci: Sequence[float] | None) -> str:
    """A 95% CI as "[low, high]" with one decimal."""
    if not ci or ci[0] is None:
        return "—"
    return f"[{ci[0]:.1f}, {ci[1]:.1f}]"


def cell_text(cell: dict[str, Any] | None) -> str:
    """One breakdown cell as "41.3% [35.2, 47.6] n=120"."""
    if not cell or not cell.get("n"):
        return "—"
    return f"{pct(cell.get('accuracy'))} {ci_text(cell.get('ci'))} n={cell['n']}"


def seconds_text(seconds: float) -> str:
    """A timestamp as m:ss.s (h:mm:ss.s past an hour), the way a video player shows it."""
    minutes, secs = divmod(max(seconds, 0.0), 60)
    hours, minutes = divmod(int(minutes), 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:04.1f}"
    return f"{minutes}:{secs:04.1f}"
