"""Turn a file on disk into a list of raw records, whatever container it uses (JSON, JSONL, CSV, parquet).

Every failure becomes an InputError naming the file, the record (line) and the problem, because users feed
this truncated downloads, spreadsheets saved in the wrong encoding and the occasional wrong file.
"""

from __future__ import annotations

import codecs
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from mathreel.core.errors import InputError
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.reading import LIMIT_ENV as LIMIT_ENV  # the variable that raises the size limit, named in errors
from mathreel.core.reading import bounded_line_runs, lines_of, open_input, parquet_records, refuse_nul
from mathreel.core.results.layouts import ID_KEYS, RESPONSE_KEYS

# A JSON string (skipped over) or a comma followed only by whitespace and a closing bracket (dropped).
_STRING_OR_TRAILING_COMMA = lazy_regex(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])')
_PARQUET_MAGIC = b"PAR1"
_ZIP_MAGIC = b"PK\x03\x04"  # an .xlsx workbook is a ZIP archive
_SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm")
_SNIFF_BYTES = 8192  # how much of the file the encoding checks look at
# Input size limit: a result file of 270,000 answers is about 150 MB; past this a file is a mistake (a video, a
# disk image) or an attack, and reading it whole would exhaust memory. Raised with the environment variable.
_STREAM_BYTES = 32 * 1024 * 1024  # JSONL larger than this is read line by line, never held whole as text
_FIRST_LINE_BYTES = 16 * 1024 * 1024  # a first line longer than this is not looked at for JSON Lines
_BATCH = 5000  # streamed lines decoded per json.loads call (one call per line is several times slower)
_HUGE_NUMBER = lazy_regex(r"\d{4301}")  # Python refuses to parse integers longer than 4300 digits
# What a JSON document holding a single value holds, in the words of the error message.
_SCALAR_KINDS = {bool: "a boolean", int: "a number", float: "a number", str: "a string", type(None): "null"}


def load_records(path: str | Path) -> tuple[list[dict[str, Any]], str]:
    """The file's records and the container it was read as ("json", "json+trailing-commas", "jsonl", ...)."""
    path = Path(path)
    source = str(path)
    handle, size = open_input(path)
    with handle:
        if size > _STREAM_BYTES and _starts_with_object_line(handle):
            return _stream_jsonl(handle, source), "jsonl"
        try:
            data = handle.read()
        except OSError as error:
            raise InputError(source, f"cannot read the file ({error.strerror or error})") from None
    return _records_from_bytes(data, path, source)


def _records_from_bytes(data: bytes, path: Path, source: str) -> tuple[list[dict[str, Any]], str]:
    if not data.strip():
        raise InputError(source, "the file is empty")
    if data[:4] == _PARQUET_MAGIC:
        return _parquet_records(path), "parquet"
    if data[:4] == _ZIP_MAGIC and path.suffix.lower() in _SPREADSHEET_SUFFIXES:
        return _xlsx_records(data, source), "xlsx"
    text = _decode(data, source)
    refuse_nul(text, source)
    stripped = text.lstrip()
    if not stripped:  # only a byte-order mark and whitespace: the bytes check above cannot see through the BOM
        raise InputError(source, "the file is empty")
    if stripped[0] in "[{":
        try:
            return _json_records(text, source)
        except RecursionError:  # json's C decoder gives up on very deep nesting with RecursionError
            raise InputError(source, "JSON nested too deeply to be a result file") from None
        except ValueError as error:  # not a JSONDecodeError (those are handled inside): Python's integer limit
            raise _huge_number(source, text, error) from None
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
    except (ValueError, RecursionError):
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


def _huge_number(source: str, text: str, error: ValueError) -> InputError:
    """Python's json refuses integers over 4300 digits with a bare ValueError: name the line instead."""
    found = _HUGE_NUMBER.search(text)
    line = f"line {text.count(chr(10), 0, found.start()) + 1}" if found else None
    return InputError(source, "a number with more than 4300 digits, which is no answer or id", line)


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
    first_line = lines_of(text.lstrip())[0]
    try:
        return isinstance(json.loads(first_line), dict)
    except ValueError:
        return False


def _drop_trailing_commas(text: str) -> str:
    """Remove commas that directly precede `}` or `]`, leaving string contents untouched."""
    return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0), text)


def _jsonl_records(text: str, source: str) -> list[dict[str, Any]]:
    """JSON Lines, decoded in one call when every line is an object; line by line (to name the bad line) if not."""
    every = lines_of(text)
    lines = [line for line in every if line.strip()]
    try:
        records = json.loads("[" + ",".join(lines) + "]")
    except ValueError:
        records = None
    whole = records is not None and len(records) == len(lines) and all(isinstance(r, dict) for r in records)
    if whole and all(line.strip() for line in every[: len(lines)]):  # no blank lines: line numbers are positions
        for number, record in enumerate(records, start=1):
            record.setdefault("__line__", number)
        return records
    return _jsonl_records_by_line(text, source)


def _jsonl_records_by_line(text: str, source: str) -> list[dict[str, Any]]:
    lines = lines_of(text)
    last = max(i for i, line in enumerate(lines, start=1) if line.strip())
    return [
        _line_record(line, number, number == last, source) for number, line in enumerate(lines, start=1) if line.strip()
    ]


def _line_record(line: str, number: int, last: bool, source: str) -> dict[str, Any]:
    """One JSON Lines record, or an error naming its line."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        cut = last and not line.rstrip().endswith("}")
        problem = "truncated JSON line (the file ends mid-record)" if cut else f"not valid JSON ({error.msg})"
        raise InputError(source, problem, f"line {number}") from None
    except ValueError as error:
        raise InputError(source, _huge_number(source, line, error).problem, f"line {number}") from None
    except RecursionError:
        raise InputError(source, "JSON nested too deeply to be a result file", f"line {number}") from None
    if not isinstance(record, dict):
        raise InputError(source, f"expected a JSON object, got {type(record).__name__}", f"line {number}")
    record.setdefault("__line__", number)
    return record


def _starts_with_object_line(handle: BinaryIO) -> bool:
    """Whether a file's first line is a whole JSON object (JSON Lines); the handle is rewound."""
    first = handle.readline(_FIRST_LINE_BYTES).lstrip(codecs.BOM_UTF8).strip()
    handle.seek(0)
    try:
        return first[:1] == b"{" and isinstance(json.loads(first), dict)
    except (ValueError, RecursionError):
        return False


def _stream_jsonl(handle: BinaryIO, source: str) -> list[dict[str, Any]]:
    """A large JSON Lines file read a chunk at a time (`core.reading.bounded_line_runs`): the text is never held
    whole, only the records. Lines are decoded in batches; a batch that fails is redone line by line to name the bad
    line."""
    records: list[dict[str, Any]] = []
    batch: list[tuple[int, bytes]] = []
    for first, lines, _ in bounded_line_runs(handle, source):
        # an ASCII-blank line is blank as text too (skipped); other blank text is left to the batch
        batch += [(number, raw) for number, raw in enumerate(lines, start=first) if raw.strip()]
        while len(batch) >= _BATCH:
            records += _raw_batch_records(batch[:_BATCH], source, False)
            del batch[:_BATCH]
    records += _raw_batch_records(batch, source, True)
    if not records:
        raise InputError(source, "the file is empty")
    return records


def _raw_batch_records(batch: list[tuple[int, bytes]], source: str, final: bool) -> list[dict[str, Any]]:
    """Lines as read, decoded as one UTF-8 text and one JSON array when every line is a JSON object; else line by
    line as text (`_batch_records`), which names the line with bad bytes, a NUL or bad JSON."""
    if not batch:
        return []
    lines = [raw for _, raw in batch]
    if batch[0][0] == 1:
        lines[0] = lines[0].removeprefix(codecs.BOM_UTF8)
    try:
        text = b",".join(lines).decode("utf-8")
        records = None if "\x00" in text else json.loads("[" + text + "]")
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        records = None
    if records is not None and len(records) == len(batch) and all(r.__class__ is dict for r in records):
        for (number, _), record in zip(batch, records, strict=True):
            record.setdefault("__line__", number)
        return records
    return _batch_records([*_text_lines(batch, source)], source, final)


def _text_lines(batch: list[tuple[int, bytes]], source: str) -> Iterator[tuple[int, str]]:
    for number, raw in batch:
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            raise InputError(
                source, f"not UTF-8 text (byte 0x{raw[error.start]:02x}); save the file as UTF-8", f"line {number}"
            ) from None
        refuse_nul(line, source, number)
        if line.strip():
            yield number, line


def _batch_records(batch: list[tuple[int, str]], source: str, final: bool) -> list[dict[str, Any]]:
    if not batch:
        return []
    try:
        records = json.loads("[" + ",".join(line for _, line in batch) + "]")
    except (ValueError, RecursionError):
        records = None
    if records is None or len(records) != len(batch) or not all(isinstance(r, dict) for r in records):
        return [
            _line_record(line, number, final and index == len(batch) - 1, source)
            for index, (number, line) in enumerate(batch)
        ]
    for (number, _), record in zip(batch, records, strict=True):
        record.setdefault("__line__", number)
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
    import csv  # CSV files only

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
    """Rows of a parquet file, its footer checked against the cells limit first (pyarrow imported only then)."""
    records = parquet_records(path)
    if not records:
        raise InputError(str(path), "the parquet file holds no rows")
    return records


def _xlsx_records(data: bytes, source: str) -> list[dict[str, Any]]:
    """Rows of a workbook's first sheet (VLMEvalKit's default output), streamed under limits (core.results.xlsx)."""
    from mathreel.core.results.xlsx import xlsx_records

    return xlsx_records(data, source)
