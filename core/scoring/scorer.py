"""`score`: aggregation of verdicts into a Report: multi-binary units, breakdowns over any dimension, the overall
figure with its uncertainty, and warnings.

Each answer's verdict (one ScoredRow) comes from `core.scoring.verdict`; this module only counts. Tables are
built from counts per combination of dimension values, so a 270,000-answer file scores in a few seconds.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import Benchmark, extractor_names, get_benchmark
from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY
from mathreel.core.errors import MathReelError
from mathreel.core.extract.types import WEAK_METHODS
from mathreel.core.kinds import DENOMINATORS, Denominator, ExtractorName
from mathreel.core.question import Question
from mathreel.core.results.bulk import gc_paused
from mathreel.core.results.model import ResultFile
from mathreel.core.scoring.build import build_report, note_no_official
from mathreel.core.scoring.report import Cell, Overall, Report, Unit, Upstream
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.stats import few_clusters_warning
from mathreel.core.scoring.tables import cell, overall_of, tables_of
from mathreel.core.scoring.verdict import JudgedAnswers, choice_reader, official_tool, score_rows

if TYPE_CHECKING:  # pragma: no cover - typing only (labelled readings are rare)
    from mathreel.core.scoring.reading_memo import SharedMemos
    from mathreel.core.scoring.readings import Readings

__all__ = ["cell", "cluster_unit", "official_tool", "overall_cell", "score"]

_SHOWN = 10


class _Unit:
    """What is scored once: a question, or a multi-binary group of pairs. A plain class with slots (a dataclass
    costs a compile per generated method at every start)."""

    __slots__ = ("answered", "cluster", "correct", "dims", "in_overall", "pairs", "question")

    def __init__(
        self,
        question: Question,
        cluster: str,
        dims: dict[str, str],
        in_overall: bool = True,  # the benchmark's rule for its headline figure (MathVerse: not Text Only)
        correct: bool = True,
        answered: bool = True,
        pairs: int = 0,
    ) -> None:
        self.question = question
        self.cluster = cluster
        self.dims = dims
        self.in_overall = in_overall
        self.correct = correct
        self.answered = answered
        self.pairs = pairs


def score(
    result: ResultFile,
    extractor: ExtractorName = "robust",
    denominator: Denominator | None = None,
    judged: JudgedAnswers | None = None,
    readings: Readings | None = None,
    memos: SharedMemos | None = None,
) -> Report:
    """Score a read result file.

    `extractor="official"` uses the benchmark's official extractor and, unless `denominator` is given, that
    scorer's denominator policy; otherwise the denominator defaults to "all" (unparsed counts wrong).
    `judged` (from `core.judge.answers.judged_answers`) replaces the rule reading of the answers it covers, and
    `readings` (a person's labelled readings, `core.scoring.readings.read_readings`) those it covers.
    `memos` shares the choice readings with other files scored in the same call (the report is the same).
    """
    if not _may_check_math(result):
        with gc_paused():
            return _score(result, extractor, denominator, judged or {}, readings, memos)
    from mathreel.core.extract.math_budget import file_budget  # one math-verify CPU budget per file

    with gc_paused(), file_budget(result.answer_count()) as budget:
        report = _score(result, extractor, denominator, judged or {}, readings, memos)
    undecided = budget.warning()
    if undecided:
        report.warnings.append(undecided)
    return report


def _may_check_math(result: ResultFile) -> bool:
    """Whether scoring `result` may ask math-verify (a free-form answer), so needs the file's CPU budget. A file of
    choice answers skips it, and with it `contextvars` (a C extension, about 2 ms of a `mathreel score` process).
    A file read into columns (`core.results.columnar`) is of one benchmark and mode whose `question_of` gives each
    question the same kind, and only with golds among the mode's letters: its first answer tells for all."""
    if getattr(result, "columns", None) is not None:
        return any(p.question.answer_kind == "free" for p in result.first_predictions(1))
    return any(prediction.question.answer_kind == "free" for prediction in result.predictions)


def _score(
    result: ResultFile,
    extractor: ExtractorName,
    denominator: Denominator | None,
    judged: JudgedAnswers,
    readings: Readings | None,
    memos: SharedMemos | None = None,
) -> Report:
    bench = get_benchmark(result.benchmark)
    known = extractor_names()
    if extractor not in known:
        raise MathReelError(f"unknown extractor {extractor!r}; choose one of {', '.join(known)}")
    reproduce = extractor != "robust"
    tool = official_tool(bench, extractor if reproduce else "official")
    if reproduce and tool is None:
        offered = ", ".join(["robust", *bench.reproductions])
        raise MathReelError(
            f"{bench.title} has no rule-based reference extractor {extractor!r}; choose one of {offered}"
        )
    if denominator is None:
        denominator = tool.denominator if reproduce and tool else "all"
    if denominator not in DENOMINATORS:
        raise MathReelError(f"unknown denominator {denominator!r}; choose one of {', '.join(DENOMINATORS)}")

    grouped = bench.mode(result.mode).grouped
    memo = None
    if memos is not None:
        key = (bench.name, result.mode, extractor)  # they fix the reader (`tool`, `reproduce`) and the letters
        memo = memos.memo(key, choice_reader(tool, reproduce), bench.letters(result.mode))
    if getattr(result, "columns", None) is not None and not judged and not readings and not grouped:
        from mathreel.core.scoring.columnar import scorable, score_columns

        if bench.groups is None and scorable(result, bench):
            return score_columns(result, bench, tool, reproduce, extractor, denominator, memo)  # type: ignore[arg-type]
    rows, disagreements = score_rows(result, bench, tool, reproduce, judged, readings, memo)
    units = _units(rows, result, grouped, bench)
    keep_unanswered = denominator == "all"
    counted = list(units.values()) if keep_unanswered else [u for u in units.values() if u.answered]
    overall_units = list(compress(counted, map(_IN_OVERALL, counted)))
    only_outside = bool(counted) and not overall_units  # e.g. a MathVerse Text Only run: its own figure is the headline
    if only_outside:
        overall_units = counted
    by, cross = _tables(bench, counted)
    overall = overall_cell(overall_units, cluster_unit(bench, overall_units))
    few = few_clusters_warning(overall.clusters, overall.clustered_by) if overall.n else None
    report = build_report(
        Report,
        result,
        bench,
        tool,
        extractor,
        denominator,
        overall=overall,
        by=by,
        cross=cross,
        grouped=grouped,
        pairs=len(rows),
        unparsed=[r.question_id for r in rows if r.status == "unparsed"],
        weak=[r.question_id for r in rows if r.method in WEAK_METHODS and r.weak],  # the set test first: cheap
        labelled=sum(r.method == "labelled" for r in rows),
        missing=[r.question_id for r in rows if r.status == "missing"],
        disagreements=disagreements,
        more_warnings=(_group_warnings(units, rows) if grouped else []) + ([few] if few else []),
        excluded_from_overall=len(counted) - len(overall_units),
        rows=rows,
        units={
            key: Unit(u.correct, u.cluster, u.answered or keep_unanswered, u.in_overall or only_outside)
            for key, u in units.items()
        },
    )
    if bench.groups is not None:
        _score_groups(report, result, bench, extractor if reproduce else None)
    if only_outside:
        report.detected.append(
            "every question is outside the benchmark's usual overall (e.g. Text Only): the overall is theirs"
        )
    note_no_official(report, bench, tool)
    return report


def _units(rows: list[ScoredRow], result: ResultFile, grouped: bool, bench: Benchmark) -> dict[str, _Unit]:
    """Rows folded into scored units: a multi-binary group is right only when every pair is right.

    Rows come in the order of `result.predictions` then `result.missing`, so they pair with those questions.
    """
    questions = chain(map(_QUESTION, result.predictions), result.missing)
    in_overall = bench.in_overall
    units: dict[str, _Unit] = {}
    get = units.get
    for row, question in zip(rows, questions, strict=True):
        key = row.group_id if grouped else row.question_id
        unit = get(key)
        if unit is None:
            unit = units[key] = _Unit(question, row.cluster, row.dims, in_overall(question))
        unit.pairs += 1
        status = row.status
        if status != "correct":
            unit.correct = False
            if status != "wrong":
                unit.answered = False
    return units


def _score_groups(report: Report, result: ResultFile, bench: Benchmark, reproduction: str | None) -> None:
    """The benchmark's group scores under MathReel's policy, or under the reproduction's own, and the reference's
    result object rebuilt from them."""
    from mathreel.core.scoring.groups import score_groups

    assert bench.groups is not None
    scorer = bench.reproductions.get(reproduction) if reproduction else None
    policy = scorer.groups if scorer is not None and scorer.groups is not None else DEFAULT_GROUP_POLICY
    questions = list(chain(map(_QUESTION, result.predictions), result.missing))
    label = scorer.label if scorer is not None and scorer.groups is not None else None
    report.groups = score_groups(report.rows, questions, bench.groups, policy, label)
    upstream = bench.upstream_report(reproduction, report) if reproduction else None
    if upstream is not None:
        report.upstream = Upstream(*upstream)


def cluster_unit(bench: Benchmark, units: list[_Unit]) -> str:
    """What the clusters are, by the benchmark's rule: "video", "problem", "question", or the mix, most first."""
    kinds = Counter(bench.cluster_label(unit.question) for unit in units)
    return ", ".join(kind for kind, _ in kinds.most_common()) or "video"


def overall_cell(units: list[_Unit], clustered_by: str = "video") -> Overall:
    """The headline cell with the naive and the clustered standard errors, from counts per cluster."""
    return overall_of(list(map(_CLUSTER, units)), list(map(_CORRECT, units)), clustered_by)


def _tables(
    bench: Benchmark, units: list[_Unit]
) -> tuple[dict[str, dict[str, Cell]], dict[str, dict[str, dict[str, Cell]]]]:
    """Every breakdown and cross table from one pass over the units.

    The units are first counted per (combination of dimension values, correct): a 270,000-answer Video-MME file
    has a few hundred combinations, so the tables are built from those instead of re-reading every unit per table.
    """
    keys = [d.key for d in bench.dimensions]
    return tables_of(bench, Counter(zip(_dimension_values(units, keys), map(_CORRECT, units), strict=True)))


def _dimension_values(units: list[_Unit], keys: list[str]) -> list[tuple[str | None, ...]]:
    """Each unit's values of the dimensions `keys` (None where it has none), read in C when every unit has all."""
    dims = list(map(_DIMS, units))
    if len(keys) > 1:
        try:
            return list(map(itemgetter(*keys), dims))
        except KeyError:
            pass  # some unit lacks a dimension: read them one by one
    return [tuple(map(values.get, keys)) for values in dims]


_CORRECT, _DIMS, _CLUSTER, _IN_OVERALL, _QUESTION = map(
    attrgetter, ("correct", "dims", "cluster", "in_overall", "question")
)


def _group_warnings(units: dict[str, _Unit], rows: list[ScoredRow]) -> list[str]:
    """Multi-binary groups with an unusual number of pairs, or whose pairs disagree on a dimension."""
    warnings = []
    sizes = Counter(u.pairs for u in units.values())
    usual = sizes.most_common(1)[0][0] if sizes else 0
    odd = [f"{key} ({u.pairs})" for key, u in units.items() if u.pairs != usual]
    if odd:
        warnings.append(
            f"{len(odd)} multi-binary groups have a different number of pairs than the usual {usual}: {_shown(odd)}"
        )
    mixed = sorted({row.group_id for row in rows if row.dims != units[row.group_id].dims})
    if mixed:
        warnings.append(
            f"{len(mixed)} multi-binary groups have pairs with different dimension values "
            f"(the first pair's are used): {_shown(mixed)}"
        )
    return warnings


def _shown(items: list[str]) -> str:
    head = ", ".join(items[:_SHOWN])
    return head + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")
