"""Reading annotation files (parquet, JSON, JSON Lines) into plain Python records.

Parquet goes through pyarrow's `to_pylist`, so list columns arrive as lists, struct columns (a MathVerse image as
{bytes, path}) as dicts and nulls as None: no numpy arrays or pandas NA reach the benchmark's record reader.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core.errors import InputError


def read_records(path: Path) -> list[dict[str, Any]]:
    """All records of one annotation file; InputError naming the file when it cannot be read."""
    suffix = path.suffix.lower()
    readers = {".parquet": _read_parquet, ".json": _read_json, ".jsonl": _read_jsonl}
    reader = readers.get(suffix)
    if reader is None:
        raise InputError(str(path), f"cannot read {suffix or 'extension-less'} files; expected parquet, json or jsonl")
    from core.results.load import open_input

    handle, _ = open_input(path, "annotation file")  # regular files within the size limit only
    handle.close()
    try:
        records = reader(path)
    except ValueError as error:  # json's bare ValueError: an integer over Python's 4300-digit limit
        raise InputError(str(path), f"unreadable ({error})") from None
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise InputError(str(path), f"expected an object, got {type(record).__name__}", index)
    return records


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pylist()
    except (pa.ArrowException, OSError) as error:
        raise InputError(str(path), f"not a readable parquet file ({error})") from None


def _read_json(path: Path) -> list[Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(str(path), f"not valid JSON ({error})") from None
    if isinstance(data, dict):
        # Some exports wrap the list ({"data": [...]}) or key records by id ({"1": {...}, "2": {...}}).
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
        if data and all(isinstance(v, dict) for v in data.values()):
            return list(data.values())
    if not isinstance(data, list):
        raise InputError(str(path), "expected a JSON list of records")
    return data


def _read_jsonl(path: Path) -> list[Any]:
    records = []
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise InputError(str(path), f"line {number} is not valid JSON ({error})") from None
    return records


def decode_objects(record: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """The record with each named field that holds a JSON (or Python-literal) object string turned into a dict."""
    out = dict(record)
    for key in fields:
        value = out.get(key)
        if isinstance(value, str) and value.strip().startswith("{"):
            out[key] = _parse_object(value)
    return out


def _parse_object(text: str) -> Any:
    for parse in (json.loads, ast.literal_eval):
        try:
            parsed = parse(text)
        except (ValueError, SyntaxError):
            continue
        if isinstance(parsed, dict):
            return parsed
    return text
