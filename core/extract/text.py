"""Text helpers shared by the extractors: reasoning blocks and brace-balanced `\\boxed{...}`."""

from __future__ import annotations

import re

_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")
_BRACE = re.compile(r"[{}]")


def strip_think(text: str) -> tuple[str, str]:
    """The response without `<think>` reasoning, and a note on what was removed.

    The answer is what follows the last `</think>` (this also covers a template that put the opening tag in
    the prompt); an opening tag left open after that means the answer was never reached, so all after it goes.
    Plain string searches keep this linear however many tags a broken response repeats.
    """
    lower = text.lower()
    if "think>" not in lower:
        return text, ""
    note = "ignored <think> reasoning"
    close = lower.rfind("</think>")
    if close >= 0:
        text, lower = text[close + len("</think>") :], lower[close + len("</think>") :]
    opened = lower.find("<think>")
    if opened >= 0:
        text = text[:opened]
        note = "the <think> block is never closed, so the answer was never reached"
    return text, note


def boxed_contents(text: str) -> list[tuple[int, str]]:
    """(position, content) of every complete `\\boxed{...}`, nested braces balanced; truncated ones are skipped."""
    starts = [m for m in _BOXED.finditer(text)]
    if not starts:
        return []
    closing = _brace_pairs(text)
    found = []
    for match in starts:
        end = closing.get(match.end() - 1)
        if end is not None:
            found.append((match.start(), text[match.end() : end]))
    return found


def _brace_pairs(text: str) -> dict[int, int]:
    """Opening brace position -> its closing brace position, in one pass; unclosed braces are left out."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for brace in _BRACE.finditer(text):
        if brace.group(0) == "{":
            stack.append(brace.start())
        elif stack:
            pairs[stack.pop()] = brace.start()
    return pairs
