"""lmms-eval's `extract_mcq_answer` (lmms_eval/tasks/_task_utils/mcq_extract.py), used by its Video-MME task
since 2026-04-11: every letter is a candidate in several formats, and the highest-priority format wins, the
last occurrence within a format. Reproduced step by step, including its quirks: "A " anywhere is a candidate,
so "Answer: C. Jade." reads as C (period beats space) while "I think A is wrong, C" reads as C (end wins).
"""

from __future__ import annotations

from collections.abc import Sequence

from mathreel.core.extract.types import Extraction, unparsed

_PHRASES = (
    "the answer is",
    "answer is",
    "the correct answer is",
    "correct answer is",
    "the best answer is",
    "best answer is",
    "the correct option is",
    "correct option is",
    "the best option is",
    "best option is",
    "the choice is",
    "choice is",
    "the correct choice is",
    "correct choice is",
    "i choose",
    "i select",
    "i pick",
    "my answer is",
    "my choice is",
    "옵션",
    "정답은",
    "답은",
    "답:",
    "答案是",
    "答案为",
    "选",
    "答えは",
)
_PRIORITY = {
    "start": 10,
    "end": 9,
    "phrase": 7,
    "parentheses": 6,
    "period": 5,
    "colon": 4,
    "right_paren": 3,
    "space": 2,
    "fallback": 0,
}
_FORMATS = (("parentheses", "({})"), ("period", "{}."), ("colon", "{}:"), ("right_paren", "{})"), ("space", "{} "))
METHOD = "lmms-mcq-extract"


def _candidates(text: str, choices: Sequence[str]) -> list[tuple[str, int, str]]:
    found = [
        (ch, text.rfind(pattern.format(ch)), name)
        for name, pattern in _FORMATS
        for ch in choices
        if pattern.format(ch) in text
    ]
    lower = text.lower()
    for phrase in _PHRASES:
        index = lower.find(phrase)
        if index != -1:
            after = index + len(phrase)
            found += [(ch, text.find(ch, after), "phrase") for ch in choices if text.find(ch, after) != -1]
    stripped = text.strip()
    found += [
        (ch, 0, "start")
        for ch in choices
        if stripped.startswith(ch) and (len(stripped) == 1 or not stripped[1].isalpha())
    ]
    found += [
        (ch, len(text) - 1, "end")
        for ch in choices
        if stripped.endswith(ch) and (len(stripped) == 1 or not stripped[-2].isalpha())
    ]
    if not found:
        found = [(ch, text.rfind(ch), "fallback") for ch in choices if ch in text]
    return found


def extract_choice_mcq(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> Extraction:
    """The letter lmms-eval's `extract_mcq_answer(response, choices=letters)` returns, with the format that won."""
    if not isinstance(response, str) or not response.strip():
        return unparsed("empty response", "no text to read", method=METHOD)
    text = response.strip()
    for char in ",.!?;:'\"":
        text = text.strip(char)
    found = _candidates(" " + text + " ", letters)
    if not found:
        return unparsed("no letter found", f"none of {', '.join(letters)} occurs", METHOD)
    letter, position, name = max(found, key=lambda c: (_PRIORITY[c[2]], c[1]))
    return Extraction(letter, METHOD, f"{letter} in the {name} format at character {position} (highest priority)")


def mcq_letter(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> str | None:
    return extract_choice_mcq(response, letters).answer
