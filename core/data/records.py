"""Reading annotation files (parquet, JSON, JSON Lines) into plain Python records.

Every file goes through the one bounded reader (`core.reading`): regular files within the size limit, JSON Lines
split at LF, CRLF or a lone CR only, NUL and over-deep nesting refused. Parquet goes through pyarrow's `to_pylist`
(after its footer is checked against the cells limit), so list columns arrive as lists, struct columns (a MathVerse
image as {bytes, path}) as dicts and nulls as None: no numpy arrays or pandas NA reach the benchmark's record
reader.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mathreel.core.errors import InputError
from mathreel.core.fields import json_or_literal
from mathreel.core.reading import open_input, parquet_records, parsed_lines, refuse_nul

_WHAT = "annotation file"


def read_records(path: Path) -> list[dict[str, Any]]:
    """All records of one annotation file; InputError naming the file when it cannot be read."""
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".json", ".jsonl"):
        raise InputError(str(path), f"cannot read {suffix or 'extension-less'} files; expected parquet, json or jsonl")
    handle, _ = open_input(path, _WHAT)  # regular files within the size limit only
    with handle:
        data = b"" if suffix == ".parquet" else handle.read()
    try:
        if suffix == ".parquet":
            records = parquet_records(path, _WHAT)
        elif suffix == ".json":
            records = _read_json(data, str(path))
        else:
            records = [
                record for _, record in parsed_lines(data.removeprefix(codecs.BOM_UTF8).splitlines(), str(path), _WHAT)
            ]
    except ValueError as error:  # json's bare ValueError: an integer over Python's 4300-digit limit
        raise InputError(str(path), f"unreadable ({error})") from None
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise InputError(str(path), f"expected an object, got {type(record).__name__}", index)
    return records


def _read_json(data: bytes, source: str) -> list[Any]:
    try:
        text = data.decode("utf-8-sig")
        refuse_nul(text, source)
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(source, f"not valid JSON ({error})") from None
    except RecursionError:
        raise InputError(source, "JSON nested too deeply to be an annotation file") from None
    if isinstance(data, dict):
        # Some exports wrap the list ({"data": [...]}) or key records by id ({"1": {...}, "2": {...}}).
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
        if data and all(isinstance(v, dict) for v in data.values()):
            return list(data.values())
    if not isinstance(data, list):
        raise InputError(source, "expected a JSON list of records")
    return data


def decode_objects(record: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """The record with each named field that holds a JSON (or Python-literal) object string turned into a dict."""
    out = dict(record)
    for key in fields:
        value = out.get(key)
        if isinstance(value, str) and value.strip().startswith("{"):
            parsed = json_or_literal(value, dict)
            out[key] = value if parsed is None else parsed
    return out
