"""Plain-text rendering of a Report for the terminal: the same numbers as `Report.to_dict()`, laid out as tables."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import Benchmark, get_benchmark
from mathreel.core.kinds import DENOMINATORS
from mathreel.core.plural import counted, plural
from mathreel.core.scoring.numbers import one_decimal, pct_text, se_text
from mathreel.core.scoring.report import Cell, Interval, Report
from mathreel.core.scoring.stats import CI_METHOD, SE_METHOD

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.scoring.groups import Figure, GroupReport

_SHOWN = 10


def _pct(value: float | None) -> str:
    return pct_text(value)


def _ci(cell: Cell) -> str:
    return cell.ci_text()


def _interval(ci: Interval | None) -> str:
    return "-" if ci is None else ci.text()


def table(title: str, cells: dict[str, Cell]) -> list[str]:
    """One breakdown as aligned text columns."""
    width = max([len(title), *map(len, cells)])
    lines = [f"{title:<{width}}  {'n':>6}  {'correct':>7}  {'accuracy':>8}  95% CI"]
    for value, cell in cells.items():
        lines.append(f"{value:<{width}}  {cell.n:>6}  {cell.correct:>7}  {_pct(cell.accuracy):>8}  {_ci(cell)}")
    return lines


def _ids(ids: list[str]) -> str:
    if not ids:
        return ""
    head = ", ".join(ids[:_SHOWN])
    return ": " + head + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


def format_report(report: Report) -> str:
    """The readable report: overall with CI and SEs, one table per dimension, cross tables, counts, warnings, notes."""
    bench = get_benchmark(report.benchmark)
    unit = plural(report.overall.n, "question") + (" (multi-binary groups)" if report.grouped else "")
    o = report.overall
    lines = [
        f"{report.source}",
        f"{bench.title} / {report.mode}: {o.correct} of {o.n} {unit} correct = {_pct(o.accuracy)}  95% CI {_ci(o)}",
        f"  SE {se_text(o.se)} naive, {se_text(o.clustered_se)} clustered by {o.clustered_by} "
        f"({counted(o.clusters, 'cluster')})",
        f"  denominator: {DENOMINATORS[report.denominator]}",
        f"  extractor: {extractor_text(report.extractor, report.official_extractor)}",
    ]
    if report.excluded_from_overall:
        one = report.excluded_from_overall == 1
        lines.append(
            f"  {counted(report.excluded_from_overall, 'question')} {'is' if one else 'are'} outside the overall "
            f"figure (benchmark rule) and {'appears' if one else 'appear'} only in the breakdowns"
        )
    if report.groups is not None:
        lines += group_lines(report.groups, bench)
    if report.upstream is not None:
        upstream = report.upstream
        lines += [
            "",
            f"{upstream.name} (as the reference writes it):",
            json.dumps(upstream.value, indent=1, ensure_ascii=False),
        ]
    for dim, cells in report.by.items():
        lines += ["", *table(bench.dimension(dim).label, cells)]
    for name, rows in report.cross.items():
        for row_value, cells in rows.items():
            lines += ["", *table(f"{name}: {row_value}", cells)]
    lines += [
        "",
        f"unparsed: {len(report.unparsed)}{_ids(report.unparsed)}",
        f"parse failures: {_pct(report.parse_failure_rate)} of the answers given; weak readings (to check): "
        f"{len(report.weak)}{_ids(report.weak)}"
        + (f"; labelled readings applied: {report.labelled}" if report.labelled else ""),
        f"missing: {len(report.missing)}{_ids(report.missing)}",
        f"unknown ids: {len(report.unknown_ids)}{_ids(report.unknown_ids)}",
        f"robust vs official extractor disagreements: {len(report.disagreements)}{_ids(report.disagreements)}",
    ]
    lines += [f"warning: {w}" for w in report.warnings]
    lines += [f"detected: {note}" for note in report.detected]
    lines += [f"note: accuracy intervals are the {CI_METHOD}; {SE_METHOD}"]
    return "\n".join(lines)


def group_table(title: str, figures: dict[str, Figure]) -> list[str]:
    """Group figures as aligned columns: groups, mean score and interval, questions, accuracy and interval."""
    width = max([len(title), *map(len, figures)])
    header = f"{'groups':>6}  {'score':>6}  {'95% CI':<14}  {'questions':>9}  {'accuracy':>8}  95% CI"
    lines = [f"{title:<{width}}  {header}"]
    for value, f in figures.items():
        score = "-" if f.score is None else one_decimal(f.score)
        lines.append(
            f"{value:<{width}}  {f.groups:>6}  {score:>6}  {_interval(f.score_ci):<14}  {f.questions:>9}  "
            f"{pct_text(f.accuracy):>8}  {_interval(f.accuracy_ci)}"
        )
    return lines


def group_lines(groups: GroupReport, bench: Benchmark) -> list[str]:
    """The group-score section: headline, per kind, per taxonomy value, and what a reference's rules changed."""
    scheme = bench.groups
    lines = ["", f"group score {groups.total.text()}", f"  scored as {groups.how}"]
    kinds = {**groups.kinds, **{f"{kind} linear": f for kind, f in groups.linear.items()}}
    lines += ["", *group_table("Group kind", kinds)]
    for dim, figures in groups.by.items():
        label = next((d.label for d in scheme.dimensions if d.key == dim), dim) if scheme else dim
        lines += ["", *group_table(f"{label} (the group's)", figures)]
    lines += [f"reference rule: {effect.text()}" for effect in groups.effects]
    lines += [f"groups: {note}" for note in groups.notes]
    lines += [f"warning: {warning}" for warning in groups.warnings]
    return lines


def extractor_text(extractor: str, official: str | None) -> str:
    """The extractor a report used; a reproduction with its source and commit ("official: <name> (<repo@commit>)")."""
    return f"{extractor}: {official}" if extractor != "robust" and official else extractor
