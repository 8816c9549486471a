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

import codecs
import os
from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise, repeat
from operator import add, itemgetter, mul
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    from mathreel.core.results.columnar import ColumnarResult
    from mathreel.core.results.layouts import Layout

MIN_BYTES = 32 * 1024 * 1024  # smaller files decode about as fast with json, and pyarrow's import costs ~0.1 s
_CHUNK_BYTES = 16 * 1024 * 1024  # read at a time to check the lines
_BLOCK_BYTES = 64 * 1024 * 1024  # pyarrow's parse block: 1 MB blocks took twice the CPU of 16-64 MB ones (124 MB file)


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
            checked = _line_count(handle)
    except (InputError, OSError):
        return None
    if checked is None:
        return None
    lines, head = checked
    kept = _first_records(head)
    layout = _plain_layout(kept, str(path)) if kept else None
    table = _table(str(path)) if layout is not None else None
    if table is None or table.num_rows != lines or "__line__" in table.column_names or not _plain_types(table):
        return None
    _give_back()
    columns = TableColumns(table)
    del table  # each column is let go once read
    try:
        return _columns(columns, kept, layout, str(path), benchmark, mode)  # type: ignore[arg-type]
    except _Irregular:
        return None


def _line_count(handle: BinaryIO) -> tuple[int, bytes] | None:
    """How many lines the file holds, and its first chunk, when every line starts with `{` and ends with `}` (a
    line's objects are one record only if it holds one: pyarrow would also take `{..}{..}` and skip blank lines),
    else None. Read a chunk at a time: the file is never held whole."""
    head = chunk = handle.read(_CHUNK_BYTES)
    if head[:1] != b"{":
        return None
    ends = joins = 0
    tail = b""
    utf8 = codecs.getincrementaldecoder("utf-8")()
    while chunk:
        if b"\x00" in chunk or b"\r" in chunk:
            return None  # a CR ends a line for the row reader too, a NUL is refused: left to it
        try:  # pyarrow does not check: the row reader names the line with bad bytes
            if not chunk.isascii() or utf8.getstate()[0]:
                utf8.decode(chunk)
        except UnicodeDecodeError:
            return None
        ends += chunk.count(b"\n")
        joins += (tail + chunk[:2]).count(b"}\n{") + chunk.count(b"}\n{")  # a newline between two records
        tail = (tail + chunk)[-2:]
        chunk = handle.read(_CHUNK_BYTES)
    try:
        utf8.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    if tail.endswith(b"}\n") and joins == ends - 1:
        return ends, head
    if tail.endswith(b"}") and joins == ends:
        return ends + 1, head
    return None


def _first_records(head: bytes) -> list[dict[str, Any]] | None:
    """The first `RECORDS_KEPT` records as the row reader decodes them (with their `__line__`), or None."""
    import json

    from mathreel.core.results.model import RECORDS_KEPT

    lines = head.split(b"\n", RECORDS_KEPT)[:RECORDS_KEPT]
    if len(lines) < RECORDS_KEPT and head.count(b"\n") >= RECORDS_KEPT:
        return None
    if not lines[-1].endswith(b"}"):
        lines.pop()  # cut by the chunk's end (the file's last line ends with its `}`)
    try:
        kept = [json.loads(line) for line in lines]
    except (ValueError, RecursionError):
        return None
    if not kept or not all(record.__class__ is dict for record in kept):
        return None
    for number, record in enumerate(kept, start=1):
        record.setdefault("__line__", number)
    return kept


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


def _table(path: str) -> Any:
    """The file as a pyarrow Table, or None where pyarrow does not parse it (the row reader says why)."""
    import pyarrow.json as pa_json

    options = pa_json.ReadOptions(use_threads=False, block_size=_BLOCK_BYTES)
    try:
        return pa_json.read_json(path, read_options=options, memory_pool=_pool())
    except Exception:  # ArrowInvalid, bad UTF-8, anything: the row reader reads it and says why
        return None


def _plain_layout(kept: list[dict[str, Any]], source: str) -> Layout | None:
    """The file's layout when it is the plain one (told by the first record, as the row reader tells it), before
    anything is decoded: a harness log or an id-only file is left to the row reader at once."""
    from mathreel.core.errors import InputError
    from mathreel.core.results.detect import all_metric_keys
    from mathreel.core.results.layouts import detect_layout, label_of

    try:
        layout = detect_layout(kept[0], source, label_of(kept[0], 0), all_metric_keys())
    except InputError:
        return None
    return layout if layout.key == "plain" and "__key__" not in kept[0] else None


def _columns(
    columns: TableColumns,
    kept: list[dict[str, Any]],
    layout: Layout,
    source: str,
    benchmark: str | None,
    mode: str | None,
) -> ColumnarResult | None:
    from mathreel.core.results.columnar import AnswerColumns, columnar_result, columns_plan, plain_columns

    keys = {*columns.names, "__line__"}  # the row reader's records carry their line
    plan = columns_plan(kept, keys, source, benchmark, mode)
    if plan is None:
        return None
    bench, mode_key, why, answer_key = plan
    values = bench.values_of_columns(keys, mode_key, columns)
    if values is None:
        return None
    letters = frozenset(bench.letters(mode_key))
    if not letters.issuperset(map(_GOLD, values)):
        return None  # no gold, or a gold the row reader checks
    firsts = set(map(_FIRST_CHARACTER, map(_ID, values)))
    if not firsts.isdisjoint(("", "[", "{")):
        return None  # no id, or an id that may be a JSON value
    responses = columns.by_distinct((answer_key,), same)
    if None in responses:
        return None  # a record without a response, or a response that is not text: the row reader says which
    found = AnswerColumns(bench.name, values, responses, list(range(1, len(values) + 1)), kept)
    if not plain_columns(found):
        return None
    return columnar_result(found, "jsonl", layout, source, bench, mode_key, why)


_ID, _GOLD, _FIRST_CHARACTER = itemgetter(0), itemgetter(2), itemgetter(slice(0, 1))


def same(value: Any) -> Any:
    """The raw value itself (`TableColumns.by_distinct` then makes nothing)."""
    return value


def _give_back() -> None:
    """Hand the C heap's free memory back to the system (glibc's `malloc_trim`): decoding leaves ~100 MB of freed
    parse buffers in the heap of a 124 MB file, which would count in the run's peak. Nothing where it is absent
    (macOS has no `malloc_trim`; on Windows `CDLL(None)` is a TypeError)."""
    import ctypes
    from contextlib import suppress

    with suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(None).malloc_trim(0)


def _pool() -> Any:
    """The C allocator's pool: it gives a freed column's memory back at once (pyarrow's default pool keeps it)."""
    import pyarrow as pa

    return pa.system_memory_pool()


class TableColumns:
    """A pyarrow Table's columns as a benchmark's `values_of_columns` reads them: each text column and each
    combination of text columns as Python values per row, made once per distinct raw value. `_Irregular` where a
    column is absent in some record or holds anything but text."""

    def __init__(self, table: Any) -> None:
        self.names: tuple[str, ...] = tuple(table.column_names)
        self._columns = dict(zip(self.names, table.columns, strict=True))
        self._rows = table.num_rows

    def texts(self, key: str | None) -> list[Any]:
        """The column's text per row; None where a record lacks it or holds null (`record.get` of it)."""
        column = self._text_column(key)
        if column is None:
            return [None] * self._rows
        return column.to_pylist()

    def by_distinct(self, keys: Sequence[str | None], make: Callable[..., Any]) -> list[Any]:
        """`make(*raw)` per row, called once per distinct combination of the columns' raw values (each column
        dictionary-encoded by pyarrow; the combinations numbered in C passes over the indices)."""
        import pyarrow.compute as pc

        codes: Any = None
        distinct: list[list[Any]] = []
        for key in keys:
            column = self._text_column(key)
            if column is None:
                distinct.append([None])
                continue
            encoded = pc.dictionary_encode(column, null_encoding="encode", memory_pool=_pool()).combine_chunks(_pool())
            values = encoded.dictionary.to_pylist()
            indices = encoded.indices.to_pylist()
            codes = indices if codes is None else list(map(add, map(mul, codes, repeat(len(values))), indices))
            distinct.append(values)
        if codes is None:
            return [make(*(None for _ in keys))] * self._rows
        if len(distinct) == 1:  # one column: its dictionary's values are the combinations
            made_of = distinct[0] if make is same else list(map(make, distinct[0]))
            return list(map(made_of.__getitem__, codes))
        made = {}
        for code in dict.fromkeys(codes):
            number, raw = code, []
            for values in reversed(distinct):
                number, at = divmod(number, len(values))
                raw.append(values[at])
            made[code] = make(*reversed(raw))
        return list(map(made.__getitem__, codes))

    def options(self, key: str | None) -> list[tuple[str, ...]]:
        """The options per row as `parse_options` gives them: a list of text as a tuple, text parsed."""
        column = self._take(key)
        if key is None or column is None:
            return [()] * self._rows
        import pyarrow as pa

        if pa.types.is_null(column.type):
            return [()] * self._rows
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            from mathreel.core.fields import parse_options

            self._columns[key] = column  # read once, there
            return self.by_distinct((key,), parse_options)
        if not (pa.types.is_list(column.type) and pa.types.is_string(column.type.value_type)):
            raise _Irregular  # a list of null (every list empty) or of numbers: read record by record
        import pyarrow.compute as pc

        column = column.combine_chunks(_pool())
        if column.flatten().null_count:
            raise _Irregular  # a null option (read as "None"): record by record
        if column.null_count:  # a record without options, or null ones: `parse_options(None)`
            return [() if options is None else tuple(options) for options in column.to_pylist()]
        flat = column.flatten().to_pylist()
        lengths = set(pc.list_value_length(column).to_pylist())
        if len(lengths) == 1:  # every question with as many options: tuples made by zip, in C
            (count,) = lengths
            return list(zip(*(flat[at::count] for at in range(count)), strict=True)) if count else [()] * self._rows
        bounds = [0, *accumulate(pc.list_value_length(column).to_pylist())]
        return [tuple(flat[start:end]) for start, end in pairwise(bounds)]

    def _take(self, key: str | None) -> Any:
        """The column `key` names, let go here: each column is read once (memory peaks lower)."""
        return None if key is None else self._columns.pop(key, None)

    def _text_column(self, key: str | None) -> Any:
        """The column of text `key` names; None where no record has it but as null; `_Irregular` if not text."""
        column = self._take(key)
        if column is None:
            return None
        import pyarrow as pa

        if pa.types.is_null(column.type):
            return None
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            raise _Irregular
        return column
