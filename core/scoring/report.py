"""The one result type scoring produces: the CLI's text and --json and the web app's Score tab all render a
`Report`. Its JSON (`Report.to_dict()`) is versioned (`"schema": 1`) and typed by `core.scoring.json_types`, from
which docs/report.schema.json is generated (`python -m mathreel.core.scoring.schema`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from mathreel.core.kinds import DENOMINATORS, SCHEMA_VERSION, Denominator, ExtractorName
from mathreel.core.plain import Fields, FrozenFields
from mathreel.core.scoring.numbers import ci_text, pct_text
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.stats import CI_METHOD, SE_METHOD

if TYPE_CHECKING:  # pragma: no cover - typing only (the TypedDicts compile a ForwardRef per key when built)
    from mathreel.core.results.run_settings import DetectedRunSettings
    from mathreel.core.scoring.groups import GroupReport
    from mathreel.core.scoring.json_types import CellJSON, OverallJSON, ReportJSON, UpstreamName

__all__ = [
    "SCHEMA_VERSION",
    "Cell",
    "Interval",
    "Overall",
    "Report",
    "Unit",
    "Upstream",
    "cross_key",
    "split_cross_key",
]


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def cross_key(row_dim: str, col_dim: str) -> str:
    """The name of a cross table in `Report.cross` and the JSON ("duration x task_type")."""
    return f"{row_dim} x {col_dim}"


def split_cross_key(key: str) -> tuple[str, str]:
    """The two dimensions a `cross_key` names."""
    row_dim, _, col_dim = key.partition(" x ")
    return row_dim, col_dim


class Interval:
    """A 95% interval at full precision (percent, or points for a difference).

    This and `Unit` are plain classes with slots and their own `==`, hash and repr, as the frozen dataclasses they
    were: every `mathreel score` imports this module, where a frozen slotted dataclass builds its class twice and
    compiles each generated method (~5 M instructions a class)."""

    __slots__ = ("high", "low")

    def __init__(self, low: float, high: float) -> None:
        self.low = low
        self.high = high

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.low, self.high) == (other.low, other.high)

    def __hash__(self) -> int:
        return hash((self.low, self.high))

    def __repr__(self) -> str:
        return f"Interval(low={self.low!r}, high={self.high!r})"

    @classmethod
    def of(cls, bounds: tuple[float, float] | None) -> Interval | None:
        """The interval of a statistics function's (low, high), or None when it has none."""
        return None if bounds is None else cls(bounds[0], bounds[1])

    def __iter__(self) -> Iterator[float]:
        """low, then high (so an interval unpacks and prints as the pair it is)."""
        return iter((self.low, self.high))

    def text(self, none: str = "-") -> str:
        """ "[45.3, 93.7]", rounded half-up from full precision (`core.scoring.numbers`)."""
        return ci_text((self.low, self.high), none)

    def to_list(self) -> list[float]:
        """The JSON's [low, high], two decimals."""
        return [round(self.low, 2), round(self.high, 2)]


class Cell(FrozenFields):
    """One accuracy figure: n scored questions, how many correct, accuracy and its 95% Wilson interval (percent).
    Never changed once made; a plain class with slots (`core.plain`), as `Overall` and `Report`: every `mathreel
    score` imports this module, where a dataclass compiles each generated method (~9 M instructions a class)."""

    FIELDS: ClassVar[tuple[str, ...]] = ("n", "correct", "accuracy", "ci")
    __slots__ = ("accuracy", "ci", "correct", "n")

    def __init__(self, n: int, correct: int, accuracy: float | None, ci: Interval | None) -> None:
        self.n = n
        self.correct = correct
        self.accuracy = accuracy
        self.ci = ci

    def accuracy_text(self, none: str = "-") -> str:
        """ "77.8%", as `mathreel score` prints it (from full precision), or `none`."""
        return pct_text(self.accuracy, none)

    def ci_text(self, none: str = "-") -> str:
        """ "[45.3, 93.7]", or `none`."""
        return none if self.ci is None else self.ci.text(none)

    def text(self, none: str = "-") -> str:
        """ "77.8% [45.3, 93.7]": accuracy and interval as one string (`none` without an accuracy)."""
        return none if self.accuracy is None else f"{self.accuracy_text(none)} {self.ci_text(none)}"

    def to_dict(self) -> CellJSON:
        return {
            "n": self.n,
            "correct": self.correct,
            "accuracy": _round(self.accuracy),
            "ci": None if self.ci is None else self.ci.to_list(),
            "text": self.text(),
        }


class Overall(Cell):
    """The headline cell, with the naive and the video-clustered standard errors (percent). `clustered_by` says
    what a cluster is: "video", "problem", "question" or a mix ("video, question")."""

    FIELDS = (*Cell.FIELDS, "se", "clustered_se", "clusters", "clustered_by")
    __slots__ = ("clustered_by", "clustered_se", "clusters", "se")

    def __init__(
        self,
        n: int,
        correct: int,
        accuracy: float | None,
        ci: Interval | None,
        se: float | None = None,
        clustered_se: float | None = None,
        clusters: int = 0,
        clustered_by: str = "video",
    ) -> None:
        super().__init__(n, correct, accuracy, ci)
        self.se = se
        self.clustered_se = clustered_se
        self.clusters = clusters
        self.clustered_by = clustered_by

    def to_dict(self) -> OverallJSON:
        return {
            **super().to_dict(),
            "se": _round(self.se, 3),
            "clustered_se": _round(self.clustered_se, 3),
            "clusters": self.clusters,
            "clustered_by": self.clustered_by,
        }


class Unit:
    """One scored unit (a question; a multi-binary group): whether it was right, its cluster, and whether it counts
    in the denominator and in the overall figure (the paired difference compares units). See `Interval`."""

    __slots__ = ("cluster", "correct", "counted", "in_overall")

    def __init__(self, correct: bool, cluster: str, counted: bool, in_overall: bool) -> None:
        self.correct = correct
        self.cluster = cluster
        self.counted = counted
        self.in_overall = in_overall

    def _values(self) -> tuple[bool, str, bool, bool]:
        return (self.correct, self.cluster, self.counted, self.in_overall)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (
            f"Unit(correct={self.correct!r}, cluster={self.cluster!r}, counted={self.counted!r}, "
            f"in_overall={self.in_overall!r})"
        )


class Upstream:
    """A reproduction's own result object, as its reference writes it: its key in the JSON and the object.

    A plain class with slots, not a frozen dataclass: it is only built and read, and every `mathreel score`
    imports this module, where a frozen dataclass compiles each generated method (~3 M instructions)."""

    __slots__ = ("name", "value")

    def __init__(self, name: UpstreamName, value: dict[str, Any]) -> None:
        self.name = name
        self.value = value


class Report(Fields):
    """Scores of one result file: overall, per dimension, cross tables, counts, warnings and every row.

    `mismatched`: answers not joined (the annotations' question differs). `weak`: answers read on weak evidence (a
    person should check them: `ScoredRow.weak`); `labelled`: how many answers a person's labelled reading decided
    (`mathreel score --readings`). `units`: per scored unit (question; group for multi-binary), key -> its `Unit`.
    `run_settings`: the prompt settings the run used (chain of thought, subtitles, frames) and where each came from,
    read while the file was read (`core.scoring.files.score_file`); None when scored without it. `groups`: group
    scores, for a benchmark scored in groups (Video-MME-v2); None otherwise. `upstream`: a reproduction's own result
    object as its reference writes it, e.g. "official_rating". A plain class without slots (`ColumnarReport` builds
    `rows` and `units` on first use).
    """

    FIELDS = (
        "benchmark",
        "mode",
        "source",
        "format",
        "extractor",
        "official_extractor",
        "denominator",
        "detected",
        "overall",
        "by",
        "cross",
        "grouped",
        "pairs",
        "unparsed",
        "missing",
        "unknown_ids",
        "mismatched",
        "disagreements",
        "warnings",
        "excluded_from_overall",
        "rows",
        "weak",
        "labelled",
        "units",
        "run_settings",
        "groups",
        "upstream",
    )

    def __init__(
        self,
        benchmark: str,
        mode: str,
        source: str,
        format: str,
        extractor: ExtractorName,
        official_extractor: str | None,
        denominator: Denominator,
        detected: list[str],
        overall: Overall,
        by: dict[str, dict[str, Cell]],
        cross: dict[str, dict[str, dict[str, Cell]]],
        grouped: bool,
        pairs: int,
        unparsed: list[str] | None = None,
        missing: list[str] | None = None,
        unknown_ids: list[str] | None = None,
        mismatched: list[str] | None = None,
        disagreements: list[str] | None = None,
        warnings: list[str] | None = None,
        excluded_from_overall: int = 0,
        rows: list[ScoredRow] | None = None,
        weak: list[str] | None = None,
        labelled: int = 0,
        units: dict[str, Unit] | None = None,
        run_settings: DetectedRunSettings | None = None,
        groups: GroupReport | None = None,
        upstream: Upstream | None = None,
    ) -> None:
        self.benchmark = benchmark
        self.mode = mode
        self.source = source
        self.format = format
        self.extractor = extractor
        self.official_extractor = official_extractor
        self.denominator = denominator
        self.detected = detected
        self.overall = overall
        self.by = by
        self.cross = cross
        self.grouped = grouped
        self.pairs = pairs
        self.unparsed: list[str] = [] if unparsed is None else unparsed
        self.missing: list[str] = [] if missing is None else missing
        self.unknown_ids: list[str] = [] if unknown_ids is None else unknown_ids
        self.mismatched: list[str] = [] if mismatched is None else mismatched
        self.disagreements: list[str] = [] if disagreements is None else disagreements
        self.warnings: list[str] = [] if warnings is None else warnings
        self.excluded_from_overall = excluded_from_overall
        self.rows: list[ScoredRow] = [] if rows is None else rows
        self.weak: list[str] = [] if weak is None else weak
        self.labelled = labelled
        self.units: dict[str, Unit] = {} if units is None else units
        self.run_settings = run_settings
        self.groups = groups
        self.upstream = upstream

    def to_dict(self, rows: bool = False) -> ReportJSON:
        """The `mathreel score --json` object (docs/report.md); `rows=True` adds the per-question rows
        (`--json --rows`)."""
        summary: ReportJSON = {
            "schema": SCHEMA_VERSION,
            "source": self.source,
            "benchmark": self.benchmark,
            "mode": self.mode,
            "format": self.format,
            "grouped": self.grouped,
            "answers": self.pairs,
            "overall": self.overall.to_dict(),
            "by": {dim: {value: cell.to_dict() for value, cell in cells.items()} for dim, cells in self.by.items()},
            "cross": {
                name: {row: {col: cell.to_dict() for col, cell in cols.items()} for row, cols in table.items()}
                for name, table in self.cross.items()
            },
            "excluded_from_overall": self.excluded_from_overall,
            "unparsed": len(self.unparsed),
            "unparsed_ids": self.unparsed,
            "parse_failure_rate": _round(self.parse_failure_rate),
            "weak_readings": len(self.weak),
            "weak_reading_ids": self.weak,
            "labelled_readings": self.labelled,
            "missing": len(self.missing),
            "missing_ids": self.missing,
            "unknown_ids": self.unknown_ids,
            "disagreements": len(self.disagreements),
            "disagreement_ids": self.disagreements,
            "warnings": self.warnings,
            "extractor": self.extractor,
            "official_extractor": self.official_extractor,
            "denominator": self.denominator,
            "denominator_means": DENOMINATORS[self.denominator],
            "ci_method": CI_METHOD,
            "se_method": SE_METHOD,
            "detected": self.detected,
            "mismatched": len(self.mismatched),
            "mismatched_ids": self.mismatched,
            "joins": self.joins(),
        }
        if self.groups is not None:
            summary["groups"] = self.groups.to_dict(items=rows)
        if self.upstream is not None:
            summary[self.upstream.name] = self.upstream.value
        if rows:
            summary["rows"] = [row.to_dict() for row in self.rows]
        return summary

    @property
    def parse_failure_rate(self) -> float | None:
        """Unparsed answers in percent of the answers the file gives (missing ones aside); None without answers."""
        answered = self.pairs - len(self.missing)
        return 100 * len(self.unparsed) / answered if answered else None

    def joins(self) -> dict[str, int]:
        """How many answers were scored against each kind of question: the file's own ("file"), or the
        annotations' matched by text, by recorded prompt, or by id alone (`core.results.recorded.JoinHow`)."""
        counts: dict[str, int] = {}
        for row in self.rows:
            if row.recorded is not None:
                counts[row.recorded.join] = counts.get(row.recorded.join, 0) + 1
        return counts

    def rows_csv(self) -> str:
        """Every scored row as CSV text, safe to open in a spreadsheet (see core.scoring.export)."""
        from mathreel.core.scoring.export import rows_csv

        return rows_csv(self.rows)
