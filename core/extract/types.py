"""The one result every extractor returns, so scoring can show where each extracted answer came from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Extraction:
    """What an extractor read from a response.

    `answer` is None when nothing could be read (unparsed); `explanation` then starts with the reason
    ("refusal", "no letter found", "hedge", ...). Otherwise `method` names the rule that fired and
    `explanation` quotes what was read, so a user who disputes a score can see why.
    """

    answer: str | None
    method: str
    explanation: str
    # Where in the response the answer was read ([start, end) character offsets), so it can be highlighted;
    # None when unparsed or when no one place holds it.
    span: tuple[int, int] | None = None

    @property
    def parsed(self) -> bool:
        """True when an answer was read."""
        return self.answer is not None


def unparsed(reason: str, detail: str = "", method: str = "none") -> Extraction:
    """An unparsed extraction whose explanation starts with the short reason."""
    return Extraction(None, method, f"{reason}: {detail}" if detail else reason)


def quote(text: str, limit: int = 60) -> str:
    """A short, single-line excerpt for explanations."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
