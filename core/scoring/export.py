"""Scored rows as CSV for spreadsheets, with formula injection neutralised.

A response, an explanation or even an id is text from a model or a user's file; a spreadsheet runs a cell that
starts with `=`, `+`, `-` or `@` (and, in some, a leading tab or carriage return) as a formula. As OWASP's CSV
injection guidance recommends, such cells are written with a leading apostrophe so they show as text. The csv
module quotes embedded quotes, commas and newlines. The app's download and any export use this one writer.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from mathreel.core.scoring.row import ROW_FIELDS, ScoredRow

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
DIMENSION_PREFIX = "dim_"
# The row's fields in this order, then one `dim_<key>` column per dimension; `dims` itself is spread out.
COLUMNS = tuple(name for name in ROW_FIELDS if name != "dims")


def safe_cell(value: Any) -> str:
    """A cell as text that a spreadsheet shows verbatim: None is empty, formula-like text gets a leading '."""
    if value is None:
        return ""
    cell = value if isinstance(value, str) else str(value)
    return "'" + cell if cell.startswith(FORMULA_START) else cell


def dimension_keys(rows: Iterable[ScoredRow]) -> list[str]:
    """Every dimension any row carries, in first-seen order (rows of one benchmark share them)."""
    keys: dict[str, None] = {}
    for row in rows:
        for key in row.dims:
            keys.setdefault(key, None)
    return list(keys)


def write_rows_csv(rows: list[ScoredRow], handle: io.TextIOBase) -> None:
    """Write the header and one line per row to an open text handle (opened with newline="")."""
    dims = dimension_keys(rows)
    writer = csv.writer(handle)
    writer.writerow([safe_cell(name) for name in (*COLUMNS, *(DIMENSION_PREFIX + key for key in dims))])
    for row in rows:
        values = [getattr(row, name) for name in COLUMNS]
        values += [row.dims.get(key) for key in dims]
        writer.writerow([safe_cell(value) for value in values])


def rows_csv(rows: Sequence[ScoredRow]) -> str:
    """Scored rows (a report's) as CSV text (header: the row fields, then `dim_<key>` per dimension)."""
    buffer = io.StringIO(newline="")
    write_rows_csv(list(rows), buffer)
    return buffer.getvalue()
