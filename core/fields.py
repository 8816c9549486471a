"""Readers for record fields that arrive in several shapes across dataset versions and result files."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from typing import Any

_NUMBERED = re.compile(r"^\s*(?:step\s*)?\d+\s*[\.\):]\s*", re.I)


def parse_steps(value: Any) -> tuple[str, ...]:
    """Annotated solution steps from a list, a JSON list, a Python-literal list or numbered text."""
    if value is None:
        return ()
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return ()
        if text.startswith("["):
            for parse in (json.loads, ast.literal_eval):
                try:
                    parsed = parse(text)
                except (ValueError, SyntaxError):
                    continue
                if isinstance(parsed, list):
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
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return ()
        for parse in (json.loads, ast.literal_eval):
            try:
                parsed = parse(text)
            except (ValueError, SyntaxError):
                continue
            if isinstance(parsed, list):
                return tuple(str(o) for o in parsed)
        return tuple(line for line in text.splitlines() if line.strip())
    return tuple(str(o) for o in value)


def text(value: Any) -> str:
    """A field as stripped text; None and NaN become ""."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value).strip()


def first(record: dict[str, Any], *keys: str) -> Any:
    """The first of `keys` present with a non-empty value in `record`."""
    for key in keys:
        value = record.get(key)
        if value is not None and text(value) != "":
            return value
    return None
