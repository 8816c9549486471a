"""Scoring a file read into columns (`core.results.columnar`) without a row object per answer.

`mathreel score --json` of a large run needs, per answer, only its reading (memoised, `reading_memo`), whether it
is right, and its dimensions and cluster: the counts are taken over the columns (in C where they can be:
`Counter`, `map`, `compress`), and the `ScoredRow`s and `Unit`s a caller may want (`--rows`, the drill-down, a
paired comparison) are built on first use, the same ones `verdict.score_rows` and `scorer._score` build.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from itertools import compress, repeat
from operator import attrgetter, eq, is_not, itemgetter, not_
from typing import Any

from mathreel.core.benchmarks import Benchmark
from mathreel.core.extract.types import WEAK_METHODS, is_weak
from mathreel.core.kinds import Denominator, ExtractorName
from mathreel.core.results.columnar import ColumnarResult
from mathreel.core.scoring.build import build_report, note_no_official
from mathreel.core.scoring.reading_memo import ReadingMemo
from mathreel.core.scoring.report import Report, Unit
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.stats import few_clusters_warning
from mathreel.core.scoring.tables import overall_of, tables_of
from mathreel.core.scoring.verdict import ChoiceReading, OfficialTool, choice_reader, verdict_row

_IDS, _ASKED, _GOLDS, _OPTIONS, _VIDEOS, _DIMS, _KEYS = map(itemgetter, (0, 1, 2, 3, 4, 5, 6))
_USED, _DIFFER = itemgetter(0), itemgetter(2)  # of a `ChoiceReading`: the extraction scored, the extractors differ
_ANSWER, _METHOD = attrgetter("answer"), attrgetter("method")


def scorable(result: Any, bench: Benchmark) -> bool:
    """Whether `result` was read into columns and `bench` scores its questions by the base rules this module
    follows (every question in the overall, clusters by video, else cluster key, else question)."""
    base = Benchmark
    return (
        isinstance(result, ColumnarResult)
        and result.columns is not None
        and not result.missing
        and type(bench).in_overall is base.in_overall
        and type(bench).cluster_label is base.cluster_label
    )


class ColumnarReport(Report):
    """A Report whose `rows` and `units` are built on first use from the columns and the readings."""

    _result: ColumnarResult
    _readings: list[ChoiceReading]
    _keep_unanswered: bool
    _rows: list[ScoredRow] | None
    _units: dict[str, Unit] | None

    def __init__(
        self, result: ColumnarResult, readings: list[ChoiceReading], keep_unanswered: bool, **fields: Any
    ) -> None:
        self._rows = self._units = None
        super().__init__(**fields)
        self._result, self._readings, self._keep_unanswered = result, readings, keep_unanswered
        self._rows = self._units = None

    @property  # a dataclass field in the base, built on first use here
    def rows(self) -> list[ScoredRow]:
        if self._rows is None:
            self._rows = [
                verdict_row(
                    p.question,
                    p.response,
                    used,
                    used.answer == p.question.answer,
                    official,
                    p.record,
                    p.full_response,
                    p.recorded,
                    None,
                )
                for p, (used, official, _) in zip(self._result.predictions, self._readings, strict=True)
            ]
        return self._rows

    @rows.setter
    def rows(self, value: list[ScoredRow]) -> None:
        if value or getattr(self, "_result", None) is not None:
            self._rows = value

    @property
    def units(self) -> dict[str, Unit]:
        if self._units is None:
            keep = self._keep_unanswered
            self._units = {
                values[0]: Unit(used.answer == values[2], _cluster(values), used.answer is not None or keep, True)
                for values, (used, _, _) in zip(self._result.columns.values, self._readings, strict=True)
            }
        return self._units

    @units.setter
    def units(self, value: dict[str, Unit]) -> None:
        if value or getattr(self, "_result", None) is not None:
            self._units = value

    def joins(self) -> dict[str, int]:
        """Every answer is scored against the file's own question (`FileQuestion.join` "file")."""
        return {"file": len(self._readings)} if self._rows is None and self._readings else super().joins()


def _cluster(values: tuple[Any, ...]) -> str:
    """`Question.cluster` of the question `values` make: video, else cluster key, else the question id."""
    return values[4] or values[6] or values[0]


def score_columns(
    result: ColumnarResult,
    bench: Benchmark,
    tool: OfficialTool | None,
    use_official: bool,
    extractor: ExtractorName,
    denominator: Denominator,
    memo: ReadingMemo[ChoiceReading] | None = None,
) -> Report:
    """`scorer._score` of a file read into columns, with no judge and no labelled readings (`memo`: as
    `verdict.score_rows` takes it)."""
    values = result.columns.values
    if memo is None:
        memo = ReadingMemo(choice_reader(tool, use_official), bench.letters(result.mode))
    readings = list(map(memo.read, map(_OPTIONS, values), result.columns.responses, map(_ASKED, values)))
    # Every pass over the answers below is a C loop (map, compress, Counter); readings are shared objects (the
    # memo's), so what depends on a reading alone is worked out once per distinct reading.
    used = list(map(_USED, readings))
    answers = list(map(_ANSWER, used))
    correct = list(map(eq, answers, map(_GOLDS, values)))
    ids = list(map(_IDS, values))
    answered = list(map(is_not, answers, repeat(None)))
    keep_unanswered = denominator == "all"
    counted = values if keep_unanswered else list(compress(values, answered))
    right = correct if keep_unanswered else list(compress(correct, answered))
    videos = list(map(_VIDEOS, counted))
    if all(videos):  # every question names its video: the cluster is the video (`_cluster`)
        clusters, labels = videos, Counter({"video": len(videos)} if videos else {})
    else:
        clusters = list(map(_cluster, counted))
        labels = Counter(
            "video" if v[4] else bench.cluster_unit if v[6] else "question" for v in counted
        )  # `scorer.cluster_unit`
    overall = overall_of(clusters, right, ", ".join(kind for kind, _ in labels.most_common()) or "video")
    few = few_clusters_warning(overall.clusters, overall.clustered_by) if overall.n else None
    by, cross = tables_of(bench, _combos(bench, list(map(_DIMS, counted)), right))
    weak = {  # per Extraction object: a memoised file's answers share a few of them
        key: extraction.method in WEAK_METHODS
        and extraction.answer is not None
        and is_weak(extraction.method, extraction.strength)
        for key, extraction in _by_identity(used).items()
    }
    report = build_report(
        partial(ColumnarReport, result, readings, keep_unanswered),
        result,
        bench,
        tool,
        extractor,
        denominator,
        overall=overall,
        by=by,
        cross=cross,
        grouped=False,
        pairs=len(values),
        unparsed=list(compress(ids, map(not_, answered))),
        weak=list(compress(ids, map(weak.__getitem__, map(id, used)))),
        labelled=list(map(_METHOD, used)).count("labelled"),
        missing=[],
        disagreements=list(compress(ids, map(_DIFFER, readings))),
        more_warnings=[few] if few else [],
        excluded_from_overall=0,
    )
    note_no_official(report, bench, tool)
    return report


def _by_identity(objects: list[Any]) -> dict[int, Any]:
    """The distinct objects of `objects` by `id` (a C loop: a file's answers share a few readings and dims)."""
    return dict(zip(map(id, objects), objects, strict=True))


def _combos(
    bench: Benchmark, dims: list[dict[str, str]], right: list[bool]
) -> Counter[tuple[tuple[str | None, ...], bool]]:
    """Units counted per (dimension values, correct): counted per dims dict first (a file shares a few hundred)."""
    keys = [d.key for d in bench.dimensions]
    by_dict = Counter(zip(map(id, dims), right, strict=True))
    values_of = {key: tuple(map(d.get, keys)) for key, d in _by_identity(dims).items()}
    combos: Counter[tuple[tuple[str | None, ...], bool]] = Counter()
    for (key, correct), count in by_dict.items():
        combos[(values_of[key], correct)] += count
    return combos
