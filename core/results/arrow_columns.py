"""Large JSON Lines files read into columns by pyarrow's JSON reader, with no dict per record.

Decoding a 270,000-answer file with `json` builds 270,000 dicts and about 3 million strings, and reading each
record into question values (`Benchmark.values_reader`) touches every one of them again. `pyarrow.json.read_json`
decodes the file straight into columns; here only the values a report needs become Python objects, and what a
few distinct raw values decide (dimensions, video ids, gold letters, the responses themselves) is made once per
distinct value (`TableColumns.by_distinct`).

Only a regular file takes this path: every line one JSON object (no blank line, no NUL byte, no byte-order mark),
the fields the benchmark reads text (options a list of text) in every record, nothing the row-wise columnar path
(`core.results.columnar`) would hand to the row reader. Anything else, pyarrow failing to parse included, returns
None and the file is read as before, so every message about a bad record is that path's. pyarrow and numpy are
imported only for files of `MIN_BYTES` or more (the command line's start is measured).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathreel.core.results.columnar import ColumnarResult

MIN_BYTES = 32 * 1024 * 1024  # smaller files decode about as fast with json, and pyarrow's import costs ~0.1 s
_BLOCK_BYTES = 64 * 1024 * 1024  # pyarrow's parse block: larger blocks measured less CPU over a 124 MB file


class _Irregular(Exception):
    """A column is not as the regular path needs it (a missing value, a number where text belongs)."""


def read_arrow_columns(
    path: str | Path, benchmark: str | None, mode: str | None, min_bytes: int | None = None
) -> ColumnarResult | None:
    """The JSON Lines file at `path` read into columns, or None when it is smaller than `min_bytes` (default
    `MIN_BYTES`), not a regular file of plain records, or anything about it needs the reader of every record."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None  # load_records says what is wrong with it
    if size < (MIN_BYTES if min_bytes is None else min_bytes) or size == 0:
        return None
    from mathreel.core.errors import InputError
    from mathreel.core.reading import open_input

    try:
        handle, _ = open_input(Path(path))  # the size limit and what else load_records refuses at once
        with handle:
            data = [handle.read()]
    except (InputError, OSError):
        return None
    return _read(data, str(path), benchmark, mode)


def _read(held: list[bytes], source: str, benchmark: str | None, mode: str | None) -> ColumnarResult | None:
    """`held`: the file's bytes, let go once decoded (memory peaks lower)."""
    import json

    data = held.pop()
    lines = _line_count(data)
    if lines is None:
        return None
    from mathreel.core.results.model import RECORDS_KEPT

    head = data[: _nth_newline(data, RECORDS_KEPT)].split(b"\n")
    try:
        kept = [json.loads(line) for line in head if line]
    except (ValueError, RecursionError):
        return None
    if not kept or not all(record.__class__ is dict for record in kept):
        return None
    for number, record in enumerate(kept, start=1):
        record.setdefault("__line__", number)
    table = _table(data)
    del data
    if table is None or table.num_rows != lines or "__line__" in table.column_names or not _plain_types(table):
        return None
    try:
        return _columns(table, kept, source, benchmark, mode)
    except _Irregular:
        return None


def _line_count(data: bytes) -> int | None:
    """How many lines the file holds when every line starts with `{` and ends with `}` (a line's objects are one
    record only if it holds one: pyarrow would also take `{..}{..}` and skip blank lines), else None."""
    import numpy as np

    if data[:1] != b"{" or b"\x00" in data or b"\r" in data:
        return None  # a CR ends a line for the row reader too: left to it
    body = data[:-1] if data.endswith(b"\n") else data
    if body.endswith(b"\n"):
        return None
    raw = np.frombuffer(body, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10)
    if len(ends):
        before = raw[ends - 1]
        if not (before == ord("}")).all() or not (raw[ends + 1] == ord("{")).all():
            return None
    return len(ends) + 1 if body.endswith(b"}") else None


def _plain_types(table: Any) -> bool:
    """Every column text, a list of text, a 64-bit integer, a boolean, a time or null. A float or a nested value
    may be one json reads otherwise or refuses (an integer of 4,301 digits): the row reader decides those."""
    import pyarrow as pa

    types = pa.types
    for kind in table.schema.types:
        if types.is_list(kind):
            kind = kind.value_type
            if not (types.is_string(kind) or types.is_null(kind)):
                return False
        elif not (
            types.is_string(kind)
            or types.is_int64(kind)
            or types.is_boolean(kind)
            or types.is_null(kind)
            or types.is_timestamp(kind)
        ):
            return False
    return True


def _nth_newline(data: bytes, count: int) -> int:
    """The offset just past the `count`-th line (the whole file if it has fewer)."""
    end = -1
    for _ in range(count):
        end = data.find(b"\n", end + 1)
        if end < 0:
            return len(data)
    return end + 1


def _table(data: bytes) -> Any:
    """The file as a pyarrow Table, or None where pyarrow does not parse it (the row reader says why)."""
    import pyarrow as pa
    import pyarrow.json as pa_json

    options = pa_json.ReadOptions(use_threads=False, block_size=_BLOCK_BYTES)
    try:
        return pa_json.read_json(pa.py_buffer(data), read_options=options)
    except Exception:  # ArrowInvalid, bad UTF-8, anything: the row reader reads it and says why
        return None


def _columns(
    table: Any, kept: list[dict[str, Any]], source: str, benchmark: str | None, mode: str | None
) -> ColumnarResult | None:
    from mathreel.core.errors import InputError
    from mathreel.core.results.columnar import AnswerColumns, columnar_result, columns_plan, plain_columns
    from mathreel.core.results.detect import all_metric_keys
    from mathreel.core.results.layouts import detect_layout, label_of

    try:
        layout = detect_layout(kept[0], source, label_of(kept[0], 0), all_metric_keys())
    except InputError:
        return None
    if layout.key != "plain" or "__key__" in kept[0]:
        return None
    keys = {*table.column_names, "__line__"}  # the row reader's records carry their line
    plan = columns_plan(kept, keys, source, benchmark, mode)
    if plan is None:
        return None
    bench, mode_key, why, answer_key = plan
    columns = TableColumns(table)
    values = bench.values_of_columns(keys, mode_key, columns)
    if values is None:
        return None
    letters = frozenset(bench.letters(mode_key))
    if not letters.issuperset(columns.by_distinct(("answer",), _gold_letter)):
        return None  # no gold, or a gold the row reader checks
    if not all(map(_plain_id, values)):
        return None  # no id, or an id that may be a JSON value
    responses = columns.by_distinct((answer_key,), _same)
    if None in responses:
        return None  # a record without a response, or a response that is not text: the row reader says which
    found = AnswerColumns(bench.name, values, responses, list(range(1, len(values) + 1)), kept)
    if not plain_columns(found):
        return None
    return columnar_result(found, "jsonl", layout, source, bench, mode_key, why)


def _gold_letter(value: Any) -> str:
    from mathreel.core.fields import text

    return text(value).upper()


def _plain_id(values: tuple[Any, ...]) -> bool:
    question_id = values[0]
    return bool(question_id) and question_id[0] not in "[{"


def _same(value: Any) -> Any:
    return value


class TableColumns:
    """A pyarrow Table's columns as a benchmark's `values_of_columns` reads them: each text column and each
    combination of text columns as Python values per row, made once per distinct raw value. `_Irregular` where a
    column is absent in some record or holds anything but text."""

    def __init__(self, table: Any) -> None:
        self._table = table
        self._rows = table.num_rows

    def texts(self, key: str | None) -> list[Any]:
        """The column's text per row; None where a record lacks it or holds null (`record.get` of it)."""
        column = self._text_column(key)
        if column is None:
            return [None] * self._rows
        return column.to_numpy(zero_copy_only=False).tolist()

    def by_distinct(self, keys: Sequence[str | None], make: Callable[..., Any]) -> list[Any]:
        """`make(*raw)` per row, called once per distinct combination of the columns' raw values."""
        import numpy as np
        import pyarrow.compute as pc

        codes = np.zeros(self._rows, dtype=np.int64)
        distinct: list[list[Any]] = []
        width = 1
        for key in keys:
            column = self._text_column(key)
            if column is None:
                distinct.append([None])
                continue
            encoded = pc.dictionary_encode(column, null_encoding="encode").combine_chunks()
            values = encoded.dictionary.to_numpy(zero_copy_only=False).tolist()
            distinct.append(values)
            codes = codes * len(values) + encoded.indices.to_numpy().astype(np.int64)
            width *= len(values)
            if width > 1 << 62:
                raise _Irregular  # too many combinations to number (never for a result file's few dimensions)
        used, inverse = np.unique(codes, return_inverse=True)
        made = np.empty(len(used), dtype=object)
        for index, code in enumerate(used.tolist()):
            raw = []
            for values in reversed(distinct):
                code, at = divmod(code, len(values))
                raw.append(values[at])
            made[index] = make(*reversed(raw))
        return made[inverse.reshape(-1)].tolist()

    def options(self, key: str | None) -> list[tuple[str, ...]]:
        """The options per row as `parse_options` gives them: a list of text as a tuple, text parsed."""
        if key is None or key not in self._table.column_names:
            return [()] * self._rows
        import pyarrow as pa

        column = self._table.column(key)
        if pa.types.is_null(column.type):
            return [()] * self._rows
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            from mathreel.core.fields import parse_options

            return self.by_distinct((key,), parse_options)
        if not (pa.types.is_list(column.type) and pa.types.is_string(column.type.value_type)):
            raise _Irregular  # a list of null (every list empty) or of numbers: read record by record
        column = column.combine_chunks()
        if column.null_count or column.values.null_count:
            raise _Irregular  # a null list or option: read record by record
        flat = column.values.to_numpy(zero_copy_only=False).tolist()
        offsets = column.offsets.to_numpy()
        if column.offset or offsets[0] != 0:
            raise _Irregular
        lengths = set((offsets[1:] - offsets[:-1]).tolist())
        if len(lengths) == 1:  # every question with as many options: tuples made by zip, in C
            (count,) = lengths
            return list(zip(*(flat[at::count] for at in range(count)), strict=True)) if count else [()] * self._rows
        bounds = offsets.tolist()
        return [tuple(flat[start:end]) for start, end in pairwise(bounds)]

    def _text_column(self, key: str | None) -> Any:
        """The column of text `key` names; None where no record has it but as null; `_Irregular` if not text."""
        if key is None or key not in self._table.column_names:
            return None
        import pyarrow as pa

        column = self._table.column(key)
        if pa.types.is_null(column.type):
            return None
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            raise _Irregular
        return column
