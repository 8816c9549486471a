"""Turn a file on disk into a list of raw records, whatever container it uses (JSON, JSONL, CSV, parquet).

Every failure becomes an InputError naming the file, the record (line) and the problem, because users feed
this truncated downloads, spreadsheets saved in the wrong encoding and the occasional wrong file.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.results.layouts import ID_KEYS, RESPONSE_KEYS

# A JSON string (skipped over) or a comma followed only by whitespace and a closing bracket (dropped).
_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])')
_PARQUET_MAGIC = b"PAR1"
_SNIFF_BYTES = 8192  # how much of the file the encoding checks look at
# What a JSON document holding a single value holds, in the words of the error message.
_SCALAR_KINDS = {bool: "a boolean", int: "a number", float: "a number", str: "a string", type(None): "null"}


def load_records(path: str | Path) -> tuple[list[dict[str, Any]], str]:
    """The file's records and the container it was read as ("json", "json+trailing-commas", "jsonl", ...)."""
    path = Path(path)
    source = str(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise InputError(source, "is a directory, not a result file") from None
    except OSError as error:
        raise InputError(source, f"cannot read the file ({error.strerror or error})") from None
    if not data.strip():
        raise InputError(source, "the file is empty")
    if data[:4] == _PARQUET_MAGIC:
        return _parquet_records(path), "parquet"
    text = _decode(data, source)
    stripped = text.lstrip()
    if stripped[0] in "[{":
        try:
            return _json_records(text, source)
        except RecursionError:  # json's C decoder gives up on very deep nesting with RecursionError
            raise InputError(source, "JSON nested too deeply to be a result file") from None
    if path.suffix.lower() in (".csv", ".tsv") or _looks_like_csv(stripped):
        return _csv_records(text, source, delimiter="\t" if path.suffix.lower() == ".tsv" else ","), "csv"
    scalar = _json_scalar_kind(text)
    if scalar is not None:
        raise InputError(source, f"JSON holding {scalar}, expected a list of records or an object")
    raise InputError(source, "unrecognised layout: not JSON, JSONL, CSV or parquet")


def _json_scalar_kind(text: str) -> str | None:
    """What a document that is one JSON number, string, boolean or null holds ("a number"); None otherwise."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return _SCALAR_KINDS.get(type(value))


def _decode(data: bytes, source: str) -> str:
    """UTF-8 text (a BOM is allowed); UTF-16, binary and other encodings are refused, saying which."""
    if _is_utf16(data):
        raise InputError(source, "UTF-16 text: save it as UTF-8")
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise InputError(source, "binary data, not a text result file (JSON, JSONL or CSV)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            source,
            f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}); save the file as UTF-8",
            f"line {line}",
        ) from None


def _is_utf16(data: bytes) -> bool:
    """A UTF-16 BOM, or (without one) the pattern of ASCII-range text in UTF-16: many NUL bytes, all on one side
    of each byte pair, and the start decoding to printable text. A stray NUL or binary data does not match."""
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return True
    head = data[:_SNIFF_BYTES]
    even, odd = head[0::2].count(0), head[1::2].count(0)
    many, few = max(even, odd), min(even, odd)
    if many == 0 or many < len(head) // 8 or few > many // 50:
        return False
    decoder = codecs.getincrementaldecoder("utf-16-le" if odd > even else "utf-16-be")()
    try:
        text = decoder.decode(head, final=False)  # the head may end inside a character
    except UnicodeDecodeError:
        return False
    return all(char.isprintable() or char.isspace() for char in text)


def _json_records(text: str, source: str) -> tuple[list[dict[str, Any]], str]:
    """A JSON document (array or object) or JSON Lines; a published template's trailing commas are tolerated."""
    try:
        return _records_from_document(json.loads(text), source), "json"
    except json.JSONDecodeError as whole_error:
        if _first_line_is_object(text):
            return _jsonl_records(text, source), "jsonl"
        try:
            document = json.loads(_drop_trailing_commas(text))
        except json.JSONDecodeError:
            raise InputError(
                source, f"truncated or invalid JSON ({whole_error.msg})", f"line {whole_error.lineno}"
            ) from None
        return _records_from_document(document, source), "json+trailing-commas"


def _first_line_is_object(text: str) -> bool:
    """JSON Lines start with a whole object on the first line (a pretty-printed document does not)."""
    first_line = text.lstrip().split("\n", 1)[0]
    try:
        return isinstance(json.loads(first_line), dict)
    except json.JSONDecodeError:
        return False


def _drop_trailing_commas(text: str) -> str:
    """Remove commas that directly precede `}` or `]`, leaving string contents untouched."""
    return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0), text)


def _jsonl_records(text: str, source: str) -> list[dict[str, Any]]:
    """JSON Lines, decoded in one call when every line is an object; line by line (to name the bad line) if not."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        records = json.loads("[" + ",".join(lines) + "]")
    except json.JSONDecodeError:
        records = None
    whole = records is not None and len(records) == len(lines) and all(isinstance(r, dict) for r in records)
    if whole and "\n\n" not in text.replace("\r", ""):  # no blank lines: line numbers are positions
        for number, record in enumerate(records, start=1):
            record.setdefault("__line__", number)
        return records
    return _jsonl_records_by_line(text, source)


def _jsonl_records_by_line(text: str, source: str) -> list[dict[str, Any]]:
    records = []
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines, start=1) if line.strip())
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            cut = number == last and not line.rstrip().endswith("}")
            problem = "truncated JSON line (the file ends mid-record)" if cut else f"not valid JSON ({error.msg})"
            raise InputError(source, problem, f"line {number}") from None
        if not isinstance(record, dict):
            raise InputError(source, f"expected a JSON object, got {type(record).__name__}", f"line {number}")
        record.setdefault("__line__", number)
        records.append(record)
    return records


def _records_from_document(document: Any, source: str) -> list[dict[str, Any]]:
    """Records from a JSON array, an object holding one array, or an object keyed by question id."""
    if isinstance(document, dict):
        lists = [v for v in document.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        if len(lists) == 1 and not all(isinstance(v, dict) for v in document.values()):
            document = lists[0]
        elif document and all(isinstance(v, dict) for v in document.values()):
            document = [{"__key__": key, **value} for key, value in document.items()]
        else:
            document = [document]
    if not isinstance(document, list):
        raise InputError(source, f"expected a list of records, got a JSON {type(document).__name__}")
    if not document:
        raise InputError(source, "the file holds no records (an empty list)")
    for number, record in enumerate(document, start=1):
        if not isinstance(record, dict):
            raise InputError(source, f"expected a JSON object, got {type(record).__name__}", number)
    return document


def _looks_like_csv(text: str) -> bool:
    header = text.split("\n", 1)[0].lower()
    fields = {f.strip().strip('"') for f in header.split(",")}
    return "," in header and bool(fields & {*ID_KEYS, *RESPONSE_KEYS})


def _csv_records(text: str, source: str, delimiter: str) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    if not reader.fieldnames:
        raise InputError(source, "the CSV file has no header row")
    records = []
    try:
        for row in reader:
            if None in row:
                raise InputError(source, "more fields than the header names", f"line {reader.line_num}")
            row["__line__"] = reader.line_num
            records.append(row)
    except csv.Error as error:
        raise InputError(source, f"malformed CSV ({error})", f"line {reader.line_num}") from None
    if not records:
        raise InputError(source, "the CSV file has a header but no rows")
    return records


def _parquet_records(path: Path) -> list[dict[str, Any]]:
    """Rows of a parquet file (pyarrow imported only here, so JSON files never pay for it)."""
    try:
        import pyarrow.parquet as pq

        table = pq.read_table(path)
    except Exception as error:  # pyarrow raises several unrelated types for a damaged file
        raise InputError(str(path), f"unreadable parquet file ({error})") from None
    records = table.to_pylist()
    if not records:
        raise InputError(str(path), "the parquet file holds no rows")
    return records
