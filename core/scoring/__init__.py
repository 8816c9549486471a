"""Scoring: verdicts per answer (`verdict`), then aggregation (`scorer`): multi-binary grouping, breakdowns, Wilson
intervals and video-clustered SE, in one `Report`."""

from mathreel.core.scoring.paired import PairedDifference, paired_difference
from mathreel.core.scoring.report import Cell, Overall, Report
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.scorer import score

__all__ = ["Cell", "Overall", "PairedDifference", "Report", "ScoredRow", "paired_difference", "score"]
