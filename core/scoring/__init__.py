"""Scoring: verdicts per answer (`verdict`), then aggregation (`scorer`): multi-binary grouping, breakdowns, Wilson
intervals and video-clustered SE, in one `Report`."""

from core.scoring.paired import PairedDifference, paired_difference
from core.scoring.report import Cell, Overall, Report
from core.scoring.row import ScoredRow
from core.scoring.scorer import score

__all__ = ["Cell", "Overall", "PairedDifference", "Report", "ScoredRow", "paired_difference", "score"]
