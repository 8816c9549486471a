"""`paired_difference`: how two runs differ on the same questions, with a video-clustered 95% interval."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathreel.core.errors import MathReelError
from mathreel.core.scoring.report import Report
from mathreel.core.scoring.stats import Z95, clustered_se, mean_interval


@dataclass(frozen=True)
class PairedDifference:
    """Accuracy of run A minus run B, in percentage points, on the questions both scored.

    Each question contributes a_i - b_i (-1, 0 or 1); the SE is cluster-robust by video, because questions on
    one video tend to be right or wrong together, and the interval is mean +- 1.96 SE.
    """

    n: int
    accuracy_a: float | None
    accuracy_b: float | None
    difference: float | None
    ci: tuple[float, float] | None
    clustered_se: float | None
    clusters: int
    only_a: int
    only_b: int

    def to_dict(self) -> dict[str, Any]:
        def r(value: float | None) -> float | None:
            return None if value is None else round(value, 3)

        return {
            "n": self.n,
            "accuracy_a": r(self.accuracy_a),
            "accuracy_b": r(self.accuracy_b),
            "difference": r(self.difference),
            "ci": None if self.ci is None else [r(self.ci[0]), r(self.ci[1])],
            "clustered_se": r(self.clustered_se),
            "clusters": self.clusters,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "method": f"paired difference, 95% normal interval ({Z95:.2f} x SE clustered by video)",
        }


def _scored(report: Report) -> dict[str, tuple[bool, str]]:
    """Units in the report's denominator and in its headline figure: key -> (correct, cluster)."""
    return {key: (unit.correct, unit.cluster) for key, unit in report.units.items() if unit.counted and unit.in_overall}


def paired_difference(report_a: Report, report_b: Report) -> PairedDifference:
    """Run A minus run B on the questions both reports scored (same benchmark and mode required)."""
    if (report_a.benchmark, report_a.mode) != (report_b.benchmark, report_b.mode):
        raise MathReelError(
            f"cannot compare {report_a.benchmark}/{report_a.mode} with {report_b.benchmark}/{report_b.mode}"
        )
    a, b = _scored(report_a), _scored(report_b)
    common = [key for key in a if key in b]
    diffs = [100.0 * (a[key][0] - b[key][0]) for key in common]
    clusters = [a[key][1] for key in common]
    n = len(common)
    if not n:
        return PairedDifference(0, None, None, None, None, None, 0, len(a), len(b))
    mean = sum(diffs) / n
    se = clustered_se([d / 100 for d in diffs], clusters)
    return PairedDifference(
        n=n,
        accuracy_a=100 * sum(a[key][0] for key in common) / n,
        accuracy_b=100 * sum(b[key][0] for key in common) / n,
        difference=mean,
        ci=mean_interval(mean, se),
        clustered_se=se,
        clusters=len(set(clusters)),
        only_a=len(a) - n,
        only_b=len(b) - n,
    )
