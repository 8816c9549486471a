"""Free-form answers (MathVerse): the last `\\boxed{...}`, else the last final-answer phrase, else a bare math line."""

from __future__ import annotations

import re

from core.extract.text import boxed_contents, strip_think
from core.extract.types import Extraction, quote, unparsed

# "The answer is 12", "Final answer: x = 3", "ANSWER: 5", "答案是 12". The rest of the line is the answer.
# No two adjacent parts can match the same whitespace, so a long run of blanks cannot make it backtrack.
_PHRASE = re.compile(
    r"(?i:\b(?:final\s+answer(?:\s+is)?|the\s+(?:final\s+|correct\s+)?answer\s+(?:is|would\s+be|should\s+be)"
    r"|answer(?:\s*is)?\s*[:：=]))\s*(?:[:：]\s*)?(?P<rest>\S[^\n]*)"
    r"|答案(?:\s*(?:是|为))?\s*(?:[:：]\s*)?(?P<zh>[^\s。是为:：][^\n。]*)"
)
# Where a phrase's answer stops: the end of the sentence or an explanation.
_CLAUSE_END = re.compile(r"(?<!\d)\.(?:\s|$)|(?<=\d)\.(?:\s|$)|[;。]|\s(?i:because|since|as|which|so)\s")
_MARKDOWN = re.compile(r"\*\*?|`+")
_DOLLARS = re.compile(r"(?<!\\)\$")  # math delimiters; an escaped \$ is a currency sign and stays
# A last line that is only math: "12", "x = 3", "\frac{1}{2}", "45°".
_MATH_LINE = re.compile(r"[\s\d.,+\-*/^()=\[\]{}\\a-zA-Z°%π√:]{1,60}")
_PROSE_WORD = re.compile(r"(?<!\\)\b[a-zA-Z]{4,}\b")
_UNIT_PROSE = frozenset({"units", "unit", "degrees", "degree", "meters", "inches", "feet", "square", "cubic"})


def extract_free_answer(response: str | None) -> Extraction:
    """The final answer of a free-form response, as written (comparison is `math_equivalence`'s job)."""
    if not isinstance(response, str) or not response.strip():
        return unparsed("empty response", "nothing to read")
    text, think_note = strip_think(response)
    if not text.strip():
        return unparsed("no answer after reasoning", think_note)
    boxed = boxed_contents(text)
    if boxed:
        content = boxed[-1][1].strip()
        if content:
            count = f" (last of {len(boxed)})" if len(boxed) > 1 else ""
            return Extraction(content, "boxed", f"read \\boxed{{{quote(content)}}}{count}")
    phrase = _last_phrase(text)
    if phrase is not None:
        return phrase
    return _math_line(text)


def _last_phrase(text: str) -> Extraction | None:
    matches = list(_PHRASE.finditer(_MARKDOWN.sub("", text)))
    for match in reversed(matches):
        answer = _clean(match.group("rest") or match.group("zh"))
        if answer:
            return Extraction(answer, "answer-phrase", f"read {quote(match.group(0))!r}")
    return None


def _clean(rest: str) -> str:
    """The answer part of a phrase's line: up to the end of its sentence, without `$` and a final period."""
    end = _CLAUSE_END.search(rest)
    if end:
        rest = rest[: end.start()]
    return _DOLLARS.sub("", rest.strip().rstrip(".").strip()).strip()


def _math_line(text: str) -> Extraction:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = _DOLLARS.sub("", _MARKDOWN.sub("", lines[-1])).strip().rstrip(".")
    words = [w.lower() for w in _PROSE_WORD.findall(last)]
    if _MATH_LINE.fullmatch(last) and all(w in _UNIT_PROSE for w in words):
        return Extraction(last, "final-line", f"the last line is only math: {quote(last)!r}")
    return unparsed("no final answer", f"no \\boxed{{}} or final-answer phrase; last line {quote(last)!r}")
