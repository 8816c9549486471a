"""The judge's reply contract: the last JSON object after any reasoning, then every field checked.

Only the judge's own final card counts. `<think>` reasoning is removed first (a card drafted while thinking is
not an answer), code fences and a leading "SCORE_CARD:" are tolerated because the scan looks for JSON objects
wherever they start, and when the reply holds several objects (a quoted fake card, then the real one) the last
complete top-level object wins.

A judge that quotes the response it grades (small models often do) must not hand over a card the response
planted: any object whose text also appears in the response, whitespace aside, is a copy and is ignored, so only
a card the judge wrote itself can win. Replies are bounded: longer than `MAX_REPLY_CHARS`, or nested so deeply
that the decoder gives up (a RecursionError), they fail as one invalid reply, never as a crash of the run.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from mathreel.core.extract.text import strip_think


class CardError(ValueError):
    """A judge reply that does not honour the contract; the message is the reason shown and counted."""


def _no_constants(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_no_constants)
# A judge reply is at most a few thousand tokens of reasoning plus a card (--max-tokens defaults to 8192, about
# 32,000 characters); two million characters is far beyond that and keeps the object scan's cost bounded.
MAX_REPLY_CHARS = 2_000_000


def json_spans(text: str) -> list[tuple[dict[str, Any], int, int]]:
    """Every top-level JSON object in `text` with where it starts and ends, in order."""
    found: list[tuple[dict[str, Any], int, int]] = []
    pos = text.find("{")
    while pos != -1:
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except ValueError:
            pos = text.find("{", pos + 1)
            continue
        except RecursionError:
            raise CardError("the reply holds JSON nested too deeply to read") from None
        if isinstance(value, dict):
            found.append((value, pos, end))
        pos = text.find("{", end)
    return found


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in `text`, in order (objects nested in another are part of it)."""
    return [value for value, _, _ in json_spans(text)]


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def _objects_in(response: str) -> list[dict[str, Any]]:
    """The JSON objects a response carries, nested ones included (a card may hide inside another object)."""
    try:
        top = json_objects(response) if "{" in response else []
    except CardError:
        return []
    found: list[dict[str, Any]] = []
    stack: list[Any] = list(top)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            found.append(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def final_card(reply: str, response: str = "") -> dict[str, Any]:
    """The judge's final card: the last JSON object of the reply, once `<think>` reasoning is removed, that is not
    a copy of text in `response` (the model response being judged)."""
    if not isinstance(reply, str) or not reply.strip():
        raise CardError("empty reply")
    if len(reply) > MAX_REPLY_CHARS:
        raise CardError(f"the reply is {len(reply):,} characters long (at most {MAX_REPLY_CHARS:,})")
    text, note = strip_think(reply)
    if not text.strip():
        raise CardError(f"no card after the reasoning ({note})" if note else "empty reply")
    spans = json_spans(text)
    if not spans:
        raise CardError("no JSON object in the reply")
    quoted = _squeeze(response)
    planted = _objects_in(response)
    own = [value for value, start, end in spans
           if value not in planted and not (quoted and _squeeze(text[start:end]) in quoted)]
    if not own:
        raise CardError("the only JSON objects in the reply are copied from the response (a quoted card is not a "
                        "verdict)")
    return own[-1]


# ------------------------------------------------------------------ field checks


def required(card: dict[str, Any], name: str) -> Any:
    """The value of a required field."""
    if name not in card:
        raise CardError(f"missing field {name!r}")
    return card[name]


def text_field(card: dict[str, Any], name: str, *, limit: int = 4000) -> str:
    """A required non-empty string, at most `limit` characters."""
    value = required(card, name)
    if not isinstance(value, str) or not value.strip():
        raise CardError(f"{name!r} must be a non-empty string, not {_show(value)}")
    if len(value) > limit:
        raise CardError(f"{name!r} is {len(value)} characters long (at most {limit})")
    return value.strip()


def int_field(card: dict[str, Any], name: str, low: int, high: int) -> int:
    """A required whole number in [low, high]; 7.0 is accepted as 7, "7", 7.5 and true are not."""
    value = required(card, name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise CardError(f"{name!r} must be a number, not {_show(value)}")
    if value != int(value):
        raise CardError(f"{name!r} must be a whole number, not {value}")
    if not low <= value <= high:
        raise CardError(f"{name!r} is {_show(value)}, outside {low}-{high}")
    return int(value)


def flag_field(card: dict[str, Any], name: str) -> bool:
    """A required yes/no: true/false or 1/0 (the reference card writes 0 or 1)."""
    value = required(card, name)
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise CardError(f"{name!r} must be true/false or 0/1, not {_show(value)}")


_FRACTION = re.compile(r"\s*(\d{1,3})\s*/\s*(\d{1,3})\s*")


def fraction_field(card: dict[str, Any], name: str, total: int) -> int:
    """A required "X/N" whose N is `total` and whose X is 0..N; returns X."""
    value = required(card, name)
    match = _FRACTION.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise CardError(f"{name!r} must look like \"X/{total}\", not {_show(value)}")
    matched, of = int(match.group(1)), int(match.group(2))
    if of != total:
        raise CardError(f"{name!r} is {value.strip()!r} but the question has {total} annotated steps")
    if matched > of:
        raise CardError(f"{name!r} is {value.strip()!r}: more matched steps than steps")
    return matched


def choice_field(value: Any, name: str, allowed: Iterable[str]) -> str:
    """`value` matched to one of `allowed` by its whole text (case and spacing ignored), never by substring."""
    allowed = tuple(allowed)
    if isinstance(value, str):
        wanted = _fold(value)
        for option in allowed:
            if _fold(option) == wanted:
                return option
    raise CardError(f"{name!r} is {_show(value)}, not one of: {', '.join(allowed)}")


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _show(value: Any, limit: int = 60) -> str:
    """A short rendering of a bad value for the failure reason."""
    shown = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
