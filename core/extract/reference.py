"""Faithful re-implementations of the reference extractors, so users can reproduce published numbers.

Both read the first capital letter of a fixed set after deleting a few case-sensitive phrases. Their quirks
are kept on purpose: two phrase strings in each list are missing a comma, so Python joins them into one
string that never occurs ("The best option isThe correct option is"), lower-case phrases are not deleted,
and so "Based on the video, the answer is D." reads as B (the B of "Based").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.extract.types import Extraction, unparsed

# The phrase lists exactly as the reference scripts spell them, adjacent-string joins included.
_OFFICIAL_PHRASES = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option is" "The correct option is",  # the reference's missing comma
    "Best answer:" "Best option:",  # the reference's missing comma
)
_LMMS_PHRASES = _OFFICIAL_PHRASES  # lmms-eval's VideoMathQA list is the same six strings

_OFFICIAL_CLASS = re.compile(r"[ABCD]")
_LMMS_CLASS = re.compile(r"[ABCDE]")


def _reference(
    response: str | None, phrases: tuple[str, ...], letter_class: re.Pattern[str], letters: Sequence[str], name: str
) -> Extraction:
    """The shared algorithm: strip, delete phrases, the >10-words rule, then the first capital of the class."""
    if not isinstance(response, str):
        return unparsed("empty response", "no text to read", method=name)
    text = response.strip()
    for phrase in phrases:
        text = text.replace(phrase, "")
    found = letter_class.search(text)
    if len(text.split()) > 10 and found is None:
        return unparsed("no letter found", "more than 10 words and no capital " + _class_label(letter_class), name)
    if found is None:
        return unparsed("no letter found", "no capital " + _class_label(letter_class), name)
    letter = found.group(0)
    where = f"first capital {_class_label(letter_class)} at character {found.start()} of the text after phrase deletion"
    if letter not in letters:
        where += f"; {letter} is not among {', '.join(letters)}, so the reference counts it wrong"
    return Extraction(letter, name, where)


def _class_label(pattern: re.Pattern[str]) -> str:
    chars = pattern.pattern.strip("[]")
    return f"{chars[0]}-{chars[-1]}"


def extract_choice_official(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> Extraction:
    """The official Video-MME `extract_characters_regex` (eval_your_results.py), quirks included.

    It always reads capitals A-D whatever `letters` says; a letter outside `letters` is still returned
    because the official script compares it with the gold letter and counts it wrong. Unparsed here is the
    script's empty string; dropping those from the denominator is scoring's "answered" policy.
    """
    return _reference(response, _OFFICIAL_PHRASES, _OFFICIAL_CLASS, letters, "official")


def extract_choice_lmms(response: str, letters: Sequence[str] = ("A", "B", "C", "D", "E")) -> Extraction:
    """lmms-eval's VideoMathQA `extract_characters_regex`: the same algorithm over capitals A-E."""
    return _reference(response, _LMMS_PHRASES, _LMMS_CLASS, letters, "lmms")
