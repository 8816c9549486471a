"""The Report of a scored file from what a scorer counted: the fields that come from the file and the settings
(benchmark, mode, source, format, extractor, notes, unknown ids, the file's warnings) are set here once, so the row
scorer (`core.scoring.scorer`) and the columnar one (`core.scoring.columnar`) cannot drift apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from mathreel.core.benchmarks import Benchmark
from mathreel.core.kinds import Denominator, ExtractorName
from mathreel.core.results.model import ResultFile
from mathreel.core.scoring.report import Cell, Overall, Report
from mathreel.core.scoring.verdict import OfficialTool

R = TypeVar("R", bound=Report)


def build_report(
    make: Callable[..., R],
    result: ResultFile,
    bench: Benchmark,
    tool: OfficialTool | None,
    extractor: ExtractorName,
    denominator: Denominator,
    *,
    overall: Overall,
    by: dict[str, dict[str, Cell]],
    cross: dict[str, dict[str, dict[str, Cell]]],
    grouped: bool,
    pairs: int,
    unparsed: list[str],
    weak: list[str],
    labelled: int,
    missing: list[str],
    disagreements: list[str],
    more_warnings: list[str],
    excluded_from_overall: int,
    **extra: Any,
) -> R:
    """`make(...)` (Report, or a subclass's constructor with its own arguments bound) with every shared field:
    the counted ones as given, the file's and the settings' read here; `more_warnings` follow the file's own;
    `extra` (rows, units) passed on."""
    return make(
        benchmark=bench.name,
        mode=result.mode,
        source=result.source,
        format=result.format,
        extractor=extractor,
        official_extractor=tool.name if tool else None,
        denominator=denominator,
        detected=list(result.notes),
        overall=overall,
        by=by,
        cross=cross,
        grouped=grouped,
        pairs=pairs,
        unparsed=unparsed,
        weak=weak,
        labelled=labelled,
        missing=missing,
        unknown_ids=list(result.unknown_ids),
        mismatched=list(result.mismatched),
        disagreements=disagreements,
        warnings=list(result.warnings) + more_warnings,
        excluded_from_overall=excluded_from_overall,
        **extra,
    )


def note_no_official(report: Report, bench: Benchmark, tool: OfficialTool | None) -> None:
    """The last note of both scorers: without a rule-based official extractor no disagreements are counted."""
    if tool is None:
        report.detected.append(f"no rule-based official extractor for {bench.title}: disagreements not computed")
