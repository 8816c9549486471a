"""The one result every extractor returns, so scoring can show where each extracted answer came from."""

from __future__ import annotations

from typing import Literal

from mathreel.core.plain import FrozenFields

# How strongly the response itself marks what was read, strongest first:
# - "container": a place the response reserves for its answer: an `<answer>` tag, a JSON answer field, `\boxed{}`;
# - "explicit": a statement in words ("the answer is D", "I choose B", "Final answer: 12");
# - "shape": the form of the response ("B", "B. Walking", a last line "C", the value a last sentence states);
# - "option-text": an option's words or value in the response's conclusion, without its letter.
Strength = Literal["container", "explicit", "shape", "option-text"]

# Readings a person should check (the audit's "readings to check"): they rest on weaker evidence than a stated
# answer: a tentative statement ("probably C"), a letter closing a sentence of prose, a lone "(C)", the value a
# last sentence states, the value stated before an explanation, math-verify's own pick from the whole response, a
# Yes/No answer read from a sentence restating the question's comparison (`yesno`), and option text.
WEAK_METHODS = frozenset(
    {
        *("tentative", "closing-letter", "paren-letter", "option-text", "last-sentence", "whole-response"),
        *("math-verify", "answer-first", "restated-comparison"),
    }
)


class Extraction(FrozenFields):
    """What an extractor read from a response.

    `answer` is None when nothing could be read (unparsed); `explanation` then starts with the reason
    ("refusal", "no letter found", "hedge", "conflict", ...). Otherwise `method` names the rule that fired,
    `explanation` quotes what was read, so a user who disputes a score can see why, and `strength` says how
    strongly the response marks it (reference extractors leave it None). `span` is where in the response the
    answer was read ([start, end) character offsets), so it can be highlighted; None when unparsed or when no one
    place holds it. Never changed once made (`replace` makes a changed copy); a plain class with slots
    (`core.plain`).
    """

    FIELDS = ("answer", "method", "explanation", "span", "strength")
    __slots__ = FIELDS

    def __init__(
        self,
        answer: str | None,
        method: str,
        explanation: str,
        span: tuple[int, int] | None = None,
        strength: Strength | None = None,
    ) -> None:
        self.answer = answer
        self.method = method
        self.explanation = explanation
        self.span = span
        self.strength = strength

    @property
    def parsed(self) -> bool:
        """True when an answer was read."""
        return self.answer is not None

    @property
    def weak(self) -> bool:
        """True for a reading a person should check: read, but on weak evidence (`is_weak`)."""
        return self.answer is not None and is_weak(self.method, self.strength)


def is_weak(method: str, strength: str | None) -> bool:
    """Whether a reading by `method` at `strength` rests on weak evidence (`WEAK_METHODS`, option text; an
    option-text strength only ever comes with the "option-text" method, so `method in WEAK_METHODS` is a safe
    first test)."""
    return method in WEAK_METHODS or strength == "option-text"


def unparsed(reason: str, detail: str = "", method: str = "none") -> Extraction:
    """An unparsed extraction whose explanation starts with the short reason."""
    return Extraction(None, method, f"{reason}: {detail}" if detail else reason)


def conflict(first: str, second: str, method: str = "none") -> Extraction:
    """Unparsed: two final answers of the same strength disagree, both named ("conflict: <answer> gives B, ...")."""
    return unparsed("conflict", f"{first}, but {second}", method)


def quote(text: str, limit: int = 60) -> str:
    """A short, single-line excerpt for explanations."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
