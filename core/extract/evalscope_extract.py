"""evalscope's single-answer reading (`parse_answers`, the rule of its Video-MME-v2 adapter), reproduced.

The last `ANSWER:` marker (any case, optional `*` after it) that is followed by a label wins: a bracketed label
`(B)` or a plain run of letters, digits, spaces and commas, cut to its leading tokens that are option letters;
the label counts only when it is one letter of the question. With no such marker, the last upper-case character of
the whole reply is taken when it is a letter of the question (else nothing is read). Source and commit in
docs/sources.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mathreel.core.extract.types import Extraction, unparsed

METHOD = "evalscope"
_MARKER = re.compile(r"(?i)ANSWER\s*:\s*\**\s*")
_BRACKETED = re.compile(r"[\(\[（【]\s*([A-Za-z\d](?:\s*[,，]\s*[A-Za-z\d])*)\s*[\)\]）】]")
_PLAIN = re.compile(r"([A-Za-z\d][A-Za-z\d ,]*)")
_TOKEN = re.compile(r"[A-Za-z\d]+")


def _label_prefix(capture: str, allowed: frozenset[str]) -> str:
    """The leading part of `capture` made of option-letter tokens only ("B, not C" -> "B")."""
    end = 0
    for token in _TOKEN.finditer(capture):
        word = token.group(0)
        if word in allowed or set(word) <= allowed:
            end = token.end()
            continue
        break
    return capture[:end]


def _last_label(text: str, allowed: frozenset[str]) -> tuple[str, int] | None:
    """The label after the last marker that has one, and where the label starts."""
    for marker in reversed(list(_MARKER.finditer(text))):
        tail = text[marker.end() :]
        for pattern in (_BRACKETED, _PLAIN):
            label = pattern.match(tail)
            if label is None:
                continue
            prefix = _label_prefix(label.group(1), allowed)
            if prefix:
                return prefix, marker.end() + label.start(1)
    return None


def _last_upper(text: str) -> int | None:
    """The position of the reply's last upper-case character (any script, as `str.isupper`)."""
    for position in range(len(text) - 1, -1, -1):
        if text[position].isupper():
            return position
    return None


def evalscope_letter(response: str, letters: Sequence[str] = tuple("ABCDEFGH")) -> str | None:
    """Only the letter `extract_choice_evalscope` reads (None when it reads nothing)."""
    return extract_choice_evalscope(response, letters).answer


def extract_choice_evalscope(response: str, letters: Sequence[str] = tuple("ABCDEFGH")) -> Extraction:
    """The letter evalscope reads from `response` for a question with `letters`, or unparsed with the reason."""
    if not isinstance(response, str):
        return unparsed("empty response", "no text to read", METHOD)
    allowed = frozenset(letters)
    found = _last_label(response, allowed)
    if found is None:
        position = _last_upper(response)
        if position is None:
            return unparsed("no letter found", "no ANSWER: label and no upper-case character", METHOD)
        letter = response[position]
        if letter not in allowed:
            return unparsed(
                "no letter found", f"no ANSWER: label; the last capital {letter!r} is not an option", METHOD
            )
        return Extraction(
            letter, METHOD, f"no ANSWER: label; the last capital, at character {position}", (position, position + 1)
        )
    label, start = found
    matched = label.strip().rstrip(".")
    if matched not in allowed:
        return unparsed("no single letter", f"the last ANSWER: label reads {matched!r}", METHOD)
    return Extraction(matched, METHOD, f"the last ANSWER: label, at character {start}", (start, start + len(label)))
