"""Reading and writing the small text files users hand us (JSONL judgments, reviews): a missing or unreadable
file is one InputError line, and a write is atomic (a temporary file renamed into place), so a crash never
leaves half a file where a good one was."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import InputError


def read_text(path: str | Path) -> str:
    """The file's UTF-8 text; InputError naming the file when it is missing or unreadable."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(str(path), f"cannot read the file ({error})") from None


def write_atomic(path: str | Path, text: str) -> Path:
    """Write `text` to `path` through a temporary file in the same directory, renamed into place."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


def jsonl_records(text: str, source: str) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) per non-blank line; a line that is not JSON raises InputError naming it."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except ValueError as error:
            raise InputError(source, f"not JSON ({error})", f"line {number}") from None
