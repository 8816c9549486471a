"""`json.dumps(value, ensure_ascii=False, indent=1)`, the same text, written by one recursive function.

With an indent the standard library encodes in Python through a chain of nested generators, one per open container,
every token passing up the whole chain; `mathreel score --json` writes its report this way, and with `--rows` a
2,700-answer report is 1.4 MB of it. Here each container appends its pieces to one list, with the standard library's
own string encoder (C) and number spellings. Anything else the standard library would not encode raises its
`TypeError`. tests/test_json_text.py compares the two on generated values.
"""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Any

_INFINITY = float("inf")


def indented_json(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=1)`."""
    parts: list[str] = []
    _write(value, parts, "\n")
    return "".join(parts)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return encode_basestring(key)
    if isinstance(key, float):
        return encode_basestring(_float(key))
    if key is True or key is False or key is None:
        return '"true"' if key is True else '"false"' if key is False else '"null"'
    if isinstance(key, int):
        return encode_basestring(int.__repr__(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _write(value: Any, parts: list[str], newline: str) -> None:
    """Append `value`'s text to `parts`; `newline` is a line break and the indent of `value`'s own line."""
    if isinstance(value, str):
        parts.append(encode_basestring(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float):
        parts.append(_float(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            parts.append("[]")
            return
        inner = newline + " "
        separator = "[" + inner
        for item in value:
            parts.append(separator)
            _write(item, parts, inner)
            separator = "," + inner
        parts.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = newline + " "
        separator = "{" + inner
        for key, item in value.items():
            parts.append(separator + _key(key) + ": ")
            _write(item, parts, inner)
            separator = "," + inner
        parts.append(newline + "}")
    else:
        raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")
