"""Published results of a benchmark (its paper's tables), transcribed into assets/reference/<file>.json.

A benchmark names its file (`Benchmark.reference_file`) and `Benchmark.reference_results()` reads it here, so
the command line and the app compare runs with the same figures. A file states which of its columns is the
headline for which mode (`settings`) and which column group is which benchmark dimension (`dimensions`), so no
code branches on the benchmark.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathreel.core.assets import assets_dir
from mathreel.core.errors import InputError
from mathreel.core.reading import open_input

_WHAT = "reference results file"
_REQUIRED = ("benchmark", "source", "tables", "settings", "dimensions", "rows")


@dataclass(frozen=True)
class Reference:
    """One transcribed paper: its tables, headline settings, dimension mapping and rows."""

    benchmark: str
    source: str
    tables: dict[str, dict[str, Any]]
    settings: dict[str, dict[str, str]]
    dimensions: dict[str, str]  # column group in each row -> our dimension key
    rows: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)

    def setting_choices(self, mode: str | None = None) -> list[tuple[str, str]]:
        """(label, column) of the headline settings, those of `mode` first."""
        items = sorted(self.settings.items(), key=lambda kv: kv[1].get("mode") != mode)
        return [(spec["label"], key) for key, spec in items]


def reference_dir() -> Path:
    return assets_dir() / "reference"


def load_reference(name: str, folder: Path | None = None) -> Reference:
    """The reference file `name` in `folder` (default assets/reference); InputError naming it when unreadable."""
    path = (folder or reference_dir()) / name
    handle, _ = open_input(path, _WHAT)
    with handle:
        raw = handle.read()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise InputError(str(path), f"not a readable JSON {_WHAT} ({type(error).__name__})") from None
    if not isinstance(data, dict) or any(key not in data for key in _REQUIRED):
        raise InputError(str(path), f"a {_WHAT} needs the fields {', '.join(_REQUIRED)}")
    return Reference(**{key: data[key] for key in _REQUIRED}, notes=list(data.get("notes", [])))
