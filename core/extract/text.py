"""Text helpers shared by the extractors: reasoning blocks and brace-balanced `\\boxed{...}`."""

from __future__ import annotations

import re

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.S | re.I)
_THINK_OPEN = re.compile(r"<think>", re.I)
_THINK_CLOSE = re.compile(r"</think>", re.I)
_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")


def strip_think(text: str) -> tuple[str, str]:
    """The response without `<think>` reasoning, and a note on what was removed.

    A closing tag without an opening one (the template put `<think>` in the prompt) drops everything
    before it; an opening tag never closed means the answer was never reached, so all after it goes.
    """
    if "think>" not in text.lower():
        return text, ""
    note = "ignored <think> reasoning"
    text = _THINK_BLOCK.sub(" ", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end():]
    opened = _THINK_OPEN.search(text)
    if opened:
        text = text[: opened.start()]
        note = "the <think> block is never closed, so the answer was never reached"
    return text, note


def boxed_contents(text: str) -> list[tuple[int, str]]:
    """(position, content) of every complete `\\boxed{...}`, nested braces balanced; truncated ones are skipped."""
    found = []
    for match in _BOXED.finditer(text):
        content = _balanced(text, match.end())
        if content is not None:
            found.append((match.start(), content))
    return found


def _balanced(text: str, start: int) -> str | None:
    """The text from `start` up to the brace that closes the one just before it, or None if never closed."""
    depth = 1
    for i in range(start, len(text)):
        char = text[i]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return None
