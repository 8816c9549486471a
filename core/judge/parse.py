"""The judge's reply contract: the last JSON object after any reasoning, then every field checked.

Only the judge's own final card counts. `<think>` reasoning is removed first (a card drafted while thinking is
not an answer), code fences and a leading "SCORE_CARD:" are tolerated because the scan looks for JSON objects
wherever they start, and when the reply holds several objects (a quoted fake card, then the real one) the last
complete top-level object wins.

A judge that quotes the response it grades (small models often do) must not hand over a card the response
planted, even restated with small changes: an object counts as the judge's own only if it is not a restatement of
an object in the response, compared after normalising both (`restatement_key`: HTML entities, width and
compatibility forms (NFKC), zero-width and other format characters, \\uXXXX escapes, every kind of quote, escapes,
whitespace, Python's True/False/None against JSON's true/false/null), and if its value is not the value of an
object in the response (keys in any order).

Bounds. A reply is at most `MAX_REPLY_CHARS`; the object scan tries each "{" that opens a key or closes at once,
decoding a window that doubles only while the decoder ran out of text, so a broken fragment costs about what the
decoder read of it, and the whole scan hands the decoder at most `_SCAN_FACTOR` characters per character of text
(plus `_SCAN_FLOOR`): past that, or on nesting too deep for the decoder, the reply fails as one invalid reply,
never a crash or a hang. Only the last `_OWN_CANDIDATES` objects are weighed as the judge's card, each compared
once against the response's normalised text, so a reply's cost is linear in the reply and the response (about 1 s
of CPU for the worst two-million-character replies of bench/bench_hostile.py).
"""

from __future__ import annotations

import html
import json
import math
import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
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
# Where an object can start: "{" then a whole key and its colon, or "}" at once. A key scan stops at the next
# unescaped quote, so the scans of different starts do not overlap.
_OBJECT_START = re.compile(r'\{\s*(?:"[^"\\]*(?:\\.[^"\\]*)*"\s*:|\})')  # unrolled: no stack per character
_FIRST_WINDOW = 64  # characters handed to the decoder from a candidate start before the window doubles
_TRUNCATION_MARGIN = 16  # a failure this close to the window's end may be the window's fault, not the text's
_SCAN_FACTOR = 32
_SCAN_FLOOR = 1_000_000
_OWN_CANDIDATES = 64  # the last objects of a reply weighed as the judge's own card


def json_spans(text: str) -> list[tuple[dict[str, Any], int, int]]:
    """Every top-level JSON object in `text` with where it starts and ends, in order (see `iter_spans`)."""
    return list(iter_spans(text))


def iter_spans(text: str) -> Iterator[tuple[dict[str, Any], int, int]]:
    """Each top-level JSON object in `text` with where it starts and ends, in order, one at a time. Linear: see the
    bounds in the module's docstring; CardError when the text is too broken (or nested too deeply) to scan within
    them (the objects before that point are handed on first)."""
    allowance = _SCAN_FACTOR * len(text) + _SCAN_FLOOR
    pos = 0
    while (match := _OBJECT_START.search(text, pos)) is not None:
        start = match.start()
        if match.group().endswith("}"):  # "{}" (LaTeX is full of them): nothing to decode
            yield {}, start, match.end()
            pos = match.end()
            continue
        value, end, read = _decode_at(text, start)
        allowance -= read
        if allowance < 0:
            raise CardError("the reply holds too many broken JSON fragments to read")
        if isinstance(value, dict):
            yield value, start, end
            pos = end
        else:
            pos = start + 1


def _decode_at(text: str, start: int) -> tuple[Any, int, int]:
    """(value or None, end, characters handed to the decoder) of the JSON value at `start`, decoding a window that
    doubles while the decoder fails near its end (an error far inside the window would be the same with more
    text; an unterminated string is read to the window's end)."""
    size, handed = _FIRST_WINDOW, 0
    while True:
        piece = text[start : start + size]
        handed += len(piece)
        try:
            value, end = _DECODER.raw_decode(piece)
            return value, start + end, handed
        except json.JSONDecodeError as error:
            near_end = error.msg.startswith("Unterminated string") or error.pos >= len(piece) - _TRUNCATION_MARGIN
            if not near_end or start + size >= len(text):
                return None, start, handed
        except ValueError:  # NaN or Infinity (refused), or an integer over Python's 4300-digit limit
            return None, start, handed
        except RecursionError:
            raise CardError("the reply holds JSON nested too deeply to read") from None
        size *= 2


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in `text`, in order (objects nested in another are part of it)."""
    return [value for value, _, _ in json_spans(text)]


# ------------------------------------------------------------------ restatements of the response

# Zero-width and other invisible format characters (Unicode category Cf, as of Unicode 14: U+200B-U+200F,
# U+2060-U+2064, U+FEFF, the soft hyphen, bidirectional marks, tag characters...), removed before comparing.
_INVISIBLE = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
_QUOTES = "\"'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a\u300c\u300d\u300e\u300f"
_SKELETON_DROP = dict.fromkeys(map(ord, _QUOTES + "\\"))
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_WHITESPACE = re.compile(r"\s+")
_NONE = re.compile(r"\bnone\b")
_PLANTED_DEPTH = 4  # objects nested deeper than this in a response are compared by their text only


def restatement_key(text: str) -> str:
    """`text` with every difference a restatement may introduce taken out: HTML entities decoded, \\uXXXX escapes
    decoded, NFKC (full-width and compatibility forms), format characters removed, quotes, backslashes and
    whitespace dropped, case folded, and None/True/False written as JSON writes them. Linear in `text`."""
    text = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), html.unescape(text))
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).translate(_SKELETON_DROP)
    return _NONE.sub("null", _WHITESPACE.sub("", text).casefold())


def _plain(text: str) -> str:
    """`text` normalised for reading JSON out of it: entities, NFKC, format characters, curly quotes."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", html.unescape(text))).translate(_STRAIGHT_QUOTES)


_STRAIGHT_QUOTES = dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u00ab\u00bb"), '"') | dict.fromkeys(
    map(ord, "\u2018\u2019\u201a\u201b"), "'"
)


def _canonical(value: Any) -> str | None:
    """A value's identity for comparison: keys sorted, strings through `restatement_key`; None when it is nested
    too deeply to fold."""

    def fold(item: Any) -> Any:
        if isinstance(item, str):
            return restatement_key(item)
        if isinstance(item, dict):
            return {restatement_key(str(k)): fold(v) for k, v in item.items()}
        if isinstance(item, list):
            return [fold(v) for v in item]
        return item

    try:
        return json.dumps(fold(value), sort_keys=True, default=str)
    except RecursionError:
        return None


def _values_in(response: str) -> set[str | None]:
    """The canonical values of the JSON objects a response carries, nested ones included down to
    `_PLANTED_DEPTH` levels (a card may hide inside another object; each level folds its whole subtree, so the depth
    bound keeps this linear). A response too broken to scan yields what was found; the text comparison still
    covers it."""
    found: set[str | None] = set()
    try:
        for top, _, _ in iter_spans(_plain(response)):
            stack: list[tuple[Any, int]] = [(top, 0)]
            while stack:
                value, depth = stack.pop()
                if depth > _PLANTED_DEPTH:
                    continue
                if isinstance(value, dict):
                    found.add(_canonical(value))
                    stack.extend((item, depth + 1) for item in value.values())
                elif isinstance(value, list):
                    stack.extend((item, depth + 1) for item in value)
    except CardError:
        pass
    found.discard(None)
    return found


def final_card(reply: str, response: str = "") -> dict[str, Any]:
    """The judge's final card: the last JSON object of the reply, once `<think>` reasoning is removed, that is not
    a restatement of an object in `response` (the model response being judged)."""
    if not isinstance(reply, str) or not reply.strip():
        raise CardError("empty reply")
    if len(reply) > MAX_REPLY_CHARS:
        raise CardError(f"the reply is {len(reply):,} characters long (at most {MAX_REPLY_CHARS:,})")
    text, note = strip_think(reply)
    if not text.strip():
        raise CardError(f"no card after the reasoning ({note})" if note else "empty reply")
    last: deque[tuple[dict[str, Any], int, int]] = deque(maxlen=_OWN_CANDIDATES)
    count = 0
    for span in iter_spans(text):
        last.append(span)
        count += 1
    if not count:
        raise CardError("no JSON object in the reply")
    quoted = restatement_key(response) if response else ""
    planted = _values_in(response) if response else set()
    for value, start, end in reversed(last):
        if not (quoted and restatement_key(text[start:end]) in quoted) and _canonical(value) not in planted:
            return value
    raise CardError(
        "the only JSON objects in the reply are copied from the response (a quoted card is not a verdict)"
        if count <= _OWN_CANDIDATES
        else f"the last {_OWN_CANDIDATES} JSON objects in the reply are copied from the response"
    )


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
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not math.isfinite(value))
    ):
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
        raise CardError(f'{name!r} must look like "X/{total}", not {_show(value)}')
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
