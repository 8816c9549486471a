"""The Score tab's comparison with published results: tables drawn from core.reference (the same figures
`Benchmark.reference_results()` gives the command line).

A reference file names its settings (which column holds the headline for which mode) and which of its column
groups correspond to which benchmark dimension, so this code needs no benchmark-specific branches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mathreel.core.reference import Reference
from mathreel.webapp.present import cell_parts, pct

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.scoring.report import Report


def load_references() -> dict[str, Reference]:
    """The published results of every benchmark that declares them, keyed by benchmark name."""
    from mathreel.core.benchmarks import BENCHMARKS

    found = {name: bench.reference_results() for name, bench in BENCHMARKS.items()}
    return {name: reference for name, reference in found.items() if reference is not None}


def table_choices(reference: Reference) -> list[tuple[str, str]]:
    """("Table 2: <title>", "2") for each of the paper's tables."""
    return [(f"Table {key}: {spec['title']}", key) for key, spec in reference.tables.items()]


def comparison_table(reference: Reference, table: str, setting: str, runs: list[tuple[str, Report]]) -> pd.DataFrame:
    """Your runs (name and report) above the paper's rows of `table`, in the paper's columns.

    The headline column is the chosen setting (e.g. MCQ +Sub); each column group (categories, durations) is
    filled from the report's breakdown of the matching dimension.
    """
    import pandas as pd

    groups = _column_groups(reference)
    records = []
    for name, report in runs:
        record = {"Model": name, "Size": "—", "Section": "Your upload", "Headline": cell_parts(report.overall)[0]}
        for group, dim in reference.dimensions.items():
            cells = report.by.get(dim, {})
            record.update({col: cell_parts(cells[col])[0] if col in cells else "—" for col in groups[group]})
        records.append(record)
    for row in reference.rows:
        if str(row["table"]) != str(table):
            continue
        record = {
            "Model": row["model"],
            "Size": row.get("size") or "—",
            "Section": row["section"],
            "Headline": pct(row.get(setting)),
        }
        for group in reference.dimensions:
            record.update({col: pct(value) for col, value in row.get(group, {}).items()})
        if "cot_step_eval" in row:
            step = row["cot_step_eval"]
            record["CoT step eval (/10)"] = "—" if step is None else f"{step:.1f}"
        record["Source"] = row["source"]
        records.append(record)
    frame = pd.DataFrame(records)
    frame["Source"] = frame["Source"].fillna("uploaded file")
    frame = frame.fillna("—")
    label = reference.settings[setting]["label"]
    return frame.rename(columns={"Headline": f"Overall: {label}"})


def mode_warning(reference: Reference, setting: str, runs: list[tuple[str, str]]) -> str:
    """A warning when an upload sits in a headline column of another mode (e.g. an MCQ run under MBin); `runs`
    are (name, mode). Empty when every run matches the column."""
    import html

    wanted = reference.settings.get(setting, {}).get("mode")
    if not wanted:
        return ""
    other = [(name, mode) for name, mode in runs if mode != wanted]
    if not other:
        return ""
    names = ", ".join(f"{html.escape(name)} ({html.escape(mode)})" for name, mode in other)
    label = html.escape(reference.settings[setting].get("label", setting))
    return (
        f"**⚠ Not comparable:** the “{label}” column holds the paper's {html.escape(wanted)} results, but "
        f"{names} {'is' if len(other) == 1 else 'are'} scored in another mode. Choose a {html.escape(wanted)} "
        "run or another setting."
    )


def _column_groups(reference: Reference) -> dict[str, list[str]]:
    """The column names of each group (e.g. the ten categories), in the paper's order."""
    groups: dict[str, list[str]] = {}
    for group in reference.dimensions:
        for row in reference.rows:
            for col in row.get(group, {}):
                groups.setdefault(group, [])
                if col not in groups[group]:
                    groups[group].append(col)
    return groups
