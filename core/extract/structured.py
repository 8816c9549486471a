"""Structured output: the answer field of the JSON object a response ends with.

Models asked for structured output end with `{"reasoning": ..., "answer": ...}`, fenced in ```json or bare, the
field named answer, final_answer, choice, selected_option and the like, at any depth. The last object holding such
a field wins. Its value comes back decoded (JSON escapes undone: "2\\\\sqrt{5}" is `2\\sqrt{5}`), with its kind:
a string, a number, a list or an object.

Linear in the response's length: only objects that open at brace depth 0 are tried (at most `_MAX_TRIES`, from
the last), each by `json.JSONDecoder.raw_decode`; a Python-style dict (`{'answer': 'C'}`) or a truncated object
is read by one regex over its answer fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from mathreel.core.extract.lazy import lazy_regex

# Field names by rank (a lower rank wins; among equal ranks the last in the response), compared in lower case
# with everything but letters and digits removed ("final_answer", "Final Answer" and "finalAnswer" are one).
_RANKS = {
    **dict.fromkeys(("finalanswer", "finalchoice", "finalresult", "final", "finaloption"), 0),
    **dict.fromkeys(
        ("answer", "correctanswer", "selectedanswer", "answerletter", "answeroption", "answerchoice", "bestanswer"), 1
    ),
    **dict.fromkeys(
        (
            "choice",
            "selectedoption",
            "selectedchoice",
            "selected",
            "selection",
            "option",
            "correctoption",
            "correctchoice",
            "chosenoption",
            "letter",
            "pick",
            "bestoption",
        ),
        2,
    ),
    **dict.fromkeys(("result", "prediction", "output", "value"), 3),
}
_MAX_RENDER_DEPTH = 8  # a list of pairs is depth 2; deeper is not an answer a reader can compare
_MAX_TRIES = 16  # top-level objects tried, from the last; each is parsed at most once
_TOP_BRACES = lazy_regex(r"[{}]")
_NOT_ALNUM = lazy_regex(r"[^a-z0-9]")
# A quoted answer field whose value is a quoted string, a number or null, in JSON or Python quoting; one line.
_FIELD = lazy_regex(
    r"""(?P<q>["'])(?P<key>[A-Za-z_ ]{3,20})(?P=q)\s*:\s*"""
    r"""(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>(?:[^'\\\n]|\\.)*)'|(?P<num>-?\d+(?:\.\d+)?)\b|(?P<null>null|None)\b)"""
)


class JsonAnswer:
    """The answer field of a response's JSON: its decoded value, its field name, and where the object is.

    A plain record, not a frozen dataclass: this module is imported by every `mathreel score`, where a dataclass
    compiles its generated methods (~3 M instructions)."""

    __slots__ = ("key", "span", "value")

    def __init__(self, value: Any, key: str, span: tuple[int, int]) -> None:
        self.value = value  # str, int, float, bool, list, dict or None (the field is null)
        self.key = key
        self.span = span


def json_answer(text: str) -> JsonAnswer | None:
    """The answer field of the last JSON object in `text` that has one, or None."""
    if "{" not in text or ('"' not in text and "'" not in text):
        return None
    decoder = json.JSONDecoder()
    for start in reversed(_top_level_opens(text)[-_MAX_TRIES:]):
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            continue
        found = _best_field(value)
        if found is not None:
            return JsonAnswer(found[1], found[0], (start, end))
    return _field_by_pattern(text)


def _top_level_opens(text: str) -> list[int]:
    """Positions of the "{" that open at brace depth 0 (a stray "}" does not go below 0)."""
    opens, depth = [], 0
    for brace in _TOP_BRACES.finditer(text):
        if brace.group(0) == "{":
            if depth == 0:
                opens.append(brace.start())
            depth += 1
        elif depth:
            depth -= 1
    return opens


def _best_field(value: Any) -> tuple[str, Any] | None:
    """(key, value) of the best-ranked answer field anywhere in `value`, the last one in document order among
    equals. An answer field holding an object is looked into first ({"answer": {"letter": "B"}} reads B). Walked
    with a stack of iterators, not recursion, so nesting depth costs no Python frames."""
    best: tuple[int, int, str, Any] | None = None  # (rank, -order, key, value)
    order = 0
    stack: list[Iterator[tuple[Any, Any]]] = [iter([(None, value)])]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            continue
        key, field = step
        if key is not None:
            order += 1
            rank = _RANKS.get(_NOT_ALNUM.sub("", str(key).lower()))
            if rank is not None and (best is None or (rank, -order) < best[:2]):
                best = (rank, -order, str(key), field)
        if isinstance(field, dict):
            stack.append(iter(field.items()))
        elif isinstance(field, list):
            stack.append((None, item) for item in field)
    if best is None:
        return None
    key, field = best[2], best[3]
    if isinstance(field, dict):
        inner = _best_field(field)
        if inner is not None:
            return inner
    return key, field


def _field_by_pattern(text: str) -> JsonAnswer | None:
    """A Python-style dict or a truncated object: the best-ranked quoted answer field, the last among equals."""
    best: tuple[int, int, re.Match[str]] | None = None
    for order, match in enumerate(_FIELD.finditer(text)):
        rank = _RANKS.get(_NOT_ALNUM.sub("", match.group("key").lower()))
        if rank is not None and (best is None or (rank, -order) < best[:2]):
            best = (rank, -order, match)
    if best is None:
        return None
    match = best[2]
    if match.group("null") is not None:
        value: Any = None
    elif match.group("num") is not None:
        value = json.loads(match.group("num"))
    else:
        raw = match.group("dq") if match.group("dq") is not None else match.group("sq")
        value = _unescape(raw)
    return JsonAnswer(value, match.group("key"), match.span())


def _unescape(raw: str) -> str:
    """A quoted string's content with its escapes undone; left as written when they are not valid JSON."""
    try:
        return json.loads(f'"{raw}"')
    except ValueError:
        return raw


def render(value: Any, depth: int = 0) -> str | None:
    """A field value as an answer's text: a list as "1, 4", an object as "a = 2, b = -3"; None for null, empty or
    nested deeper than any answer is."""
    if value is None or depth > _MAX_RENDER_DEPTH:
        return None
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, list):
        parts = [render(item, depth + 1) for item in value]
        return ", ".join(part for part in parts if part) or None
    if isinstance(value, dict):
        pairs = [(key, render(item, depth + 1)) for key, item in value.items()]
        return ", ".join(f"{key} = {part}" for key, part in pairs if part) or None
    return str(value)
