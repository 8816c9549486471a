"""Scoring: correctness, multi-binary grouping, breakdowns, Wilson intervals and video-clustered SE."""

from core.scoring.paired import PairedDifference, paired_difference
from core.scoring.report import Cell, Overall, Report, ScoredRow
from core.scoring.scorer import breakdown, score

__all__ = ["Cell", "Overall", "PairedDifference", "Report", "ScoredRow", "breakdown", "paired_difference", "score"]
