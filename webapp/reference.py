"""Published results to compare uploaded runs with (assets/reference/*.json, transcribed from the papers).

A reference file names its benchmark, its settings (which column holds the headline for which mode) and which of
its column groups correspond to which benchmark dimension, so this code needs no benchmark-specific branches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webapp.present import pct

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Reference:
    """One transcribed paper: its rows and how they map onto our reports."""

    benchmark: str
    source: str
    tables: dict[str, dict[str, Any]]
    settings: dict[str, dict[str, str]]
    dimensions: dict[str, str]  # column group in each row -> our dimension key
    rows: list[dict[str, Any]]
    notes: list[str]

    def setting_choices(self, mode: str | None = None) -> list[tuple[str, str]]:
        """(label, column) of the headline settings, those of `mode` first."""
        items = sorted(self.settings.items(), key=lambda kv: kv[1].get("mode") != mode)
        return [(spec["label"], key) for key, spec in items]

    def table_choices(self) -> list[tuple[str, str]]:
        return [(f"Table {key}: {spec['title']}", key) for key, spec in self.tables.items()]


def reference_dir() -> Path:
    from core.data import assets_dir

    return assets_dir() / "reference"


def load_references(folder: Path | None = None) -> dict[str, Reference]:
    """Every reference file in the folder, keyed by benchmark name."""
    found = {}
    for path in sorted((folder or reference_dir()).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found[data["benchmark"]] = Reference(
            benchmark=data["benchmark"],
            source=data["source"],
            tables=data["tables"],
            settings=data["settings"],
            dimensions=data["dimensions"],
            rows=data["rows"],
            notes=data.get("notes", []),
        )
    return found


def comparison_table(reference: Reference, table: str, setting: str, runs: list[tuple[str, dict[str, Any]]]
                     ) -> pd.DataFrame:
    """Your runs (report dicts) above the paper's rows of `table`, in the paper's columns.

    The headline column is the chosen setting (e.g. MCQ +Sub); each column group (categories, durations) is
    filled from the report's breakdown of the matching dimension.
    """
    import pandas as pd

    groups = _column_groups(reference)
    records = []
    for name, report in runs:
        record = {"Model": name, "Size": "—", "Section": "Your upload", "Headline": pct(report["overall"]["accuracy"])}
        for group, dim in reference.dimensions.items():
            cells = report.get("by", {}).get(dim, {})
            record.update({col: pct(cells[col]["accuracy"]) if col in cells else "—" for col in groups[group]})
        records.append(record)
    for row in reference.rows:
        if str(row["table"]) != str(table):
            continue
        record = {"Model": row["model"], "Size": row.get("size") or "—", "Section": row["section"],
                  "Headline": pct(row.get(setting))}
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
    return (f"**⚠ Not comparable:** the “{label}” column holds the paper's {html.escape(wanted)} results, but "
            f"{names} {'is' if len(other) == 1 else 'are'} scored in another mode. Choose a {html.escape(wanted)} "
            "run or another setting.")


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
