"""Scoring: verdicts per answer (`verdict`), then aggregation (`scorer`): multi-binary grouping, breakdowns, Wilson
intervals and video-clustered SE, in one `Report`.

The names below are imported on first use (PEP 562), so `from mathreel.core.scoring import score` does not import
the paired comparison and its statistics: a `mathreel score` process pays only for what it runs.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.scoring.paired import PairedDifference, paired_difference
    from mathreel.core.scoring.report import Cell, Overall, Report
    from mathreel.core.scoring.row import ScoredRow
    from mathreel.core.scoring.scorer import score

_HOMES = {
    "Cell": "report",
    "Overall": "report",
    "PairedDifference": "paired",
    "Report": "report",
    "ScoredRow": "row",
    "paired_difference": "paired",
    "score": "scorer",
}
__all__ = ["Cell", "Overall", "PairedDifference", "Report", "ScoredRow", "paired_difference", "score"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
