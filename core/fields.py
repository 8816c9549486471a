"""Readers for record fields that arrive in several shapes across dataset versions and result files."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from mathreel.core.extract.lazy import lazy_regex


def json_or_literal(text: str, kind: type | tuple[type, ...], literal_limit: int | None = None) -> Any | None:
    """`text` parsed as JSON, else as a Python literal (VLMEvalKit's TSV and xlsx write `str(list)`), when the
    value is of `kind`; None when neither parse gives one. A literal is not tried on text over `literal_limit`.
    `ast` is imported only when JSON fails: most files never need it, and it costs every `mathreel score` start."""
    try:
        parsed = json.loads(text)
    except (ValueError, MemoryError, RecursionError):
        pass
    else:
        if isinstance(parsed, kind):
            return parsed
    if literal_limit is not None and len(text) > literal_limit:
        return None
    import ast

    try:
        parsed = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return parsed if isinstance(parsed, kind) else None


_NUMBERED = lazy_regex(r"^\s*(?:step\s*)?\d+\s*[\.\):]\s*", re.I)


def parse_steps(value: Any) -> tuple[str, ...]:
    """Annotated solution steps from a list, a JSON list, a Python-literal list or numbered text."""
    if value is None:
        return ()
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return ()
        if text.startswith("["):
            parsed = json_or_literal(text, list)
            if parsed is not None:
                return parse_steps(parsed)
        lines = [line for line in text.splitlines() if line.strip()]
        return tuple(_NUMBERED.sub("", line).strip() for line in lines)
    if isinstance(value, Iterable):
        return tuple(_NUMBERED.sub("", str(step)).strip() for step in value if str(step).strip())
    return (str(value).strip(),)


def parse_options(value: Any) -> tuple[str, ...]:
    """Options as a tuple of strings, whether given as a list, an array, or a JSON/Python list string."""
    if value is None:
        return ()
    if value.__class__ is str:
        return _options_from_text(value)
    if value.__class__ is tuple and all(o.__class__ is str for o in value):
        return value
    return tuple(map(str, value))


@functools.lru_cache(maxsize=8192)
def _options_from_text(value: str) -> tuple[str, ...]:
    """Options written as one string (CSV cells, JSON-in-JSON). Cached: a pooled file repeats each question's
    options once per run, and parsing a list literal is the slow part of reading such a row."""
    text = value.strip()
    if not text:
        return ()
    parsed = json_or_literal(text, list)
    if parsed is not None:
        return tuple(str(o) for o in parsed)
    return tuple(line for line in text.splitlines() if line.strip())


def text(value: Any) -> str:
    """A field as stripped text; None and NaN become ""."""
    if value.__class__ is str:  # the common case first: this runs several times per row of a result file
        return value.strip()
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value).strip()


def first(record: Mapping[str, Any], *keys: str) -> Any:
    """The first of `keys` present with a non-empty value in `record`."""
    for key in keys:
        value = record.get(key)
        if value is not None and text(value) != "":
            return value
    return None


def first_text(record: Mapping[str, Any], keys: tuple[str, ...]) -> str:
    """`text()` of the first of `keys` with a non-empty value, or "" (one call where `text(first(...))` took two)."""
    for key in keys:
        value = record.get(key)
        if value is not None:
            found = value.strip() if value.__class__ is str else text(value)
            if found:
                return found
    return ""
