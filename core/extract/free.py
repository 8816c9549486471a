"""Free-form answers (MathVerse), read as MathVerse's official extraction prompt reads them in its worked examples.

In order: the last `\\boxed{...}` (boxes next to each other that together form one answer, such as a tuple split
over boxes, are read together); else the last final-answer phrase ("Final Answer: The final answer is $X$. I hope it
is correct." reads X); else the value the last sentence states ("... is 14 cm." reads 14 cm, "= 20" reads 20), or a
last line that is only math. The official prompt is in docs/sources.md (Answer equivalence).
"""

from __future__ import annotations

import re

from mathreel.core.extract.text import boxed_spans, strip_think
from mathreel.core.extract.types import Extraction, quote, unparsed

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
_MATH_LINE = re.compile(r"(?:[\s\d.,+\-*/^()=<>≤≥≠\[\]{}\\a-zA-Z_°%π√:]|!=){1,200}")  # "x >= 5", "x != 3" too
# Between two boxes of one answer: "\\boxed{3}, \\boxed{4}", "$\\boxed{1}$ and $y = \\boxed{2}$".
# No two adjacent parts can match the same character, so a long run of blanks between boxes cannot backtrack.
_BETWEEN_BOXES = re.compile(
    r"(?:\s|[,;$]|\\q?quad\b|\\[()\[\]]|\\text\{\s*(?:for\s+part\s*\(?\w\)?\s*)?(?:and|,)?\s*\}|and\b"
    r"|for\s+part\s*\(?\w\)?)*"
    r"(?:[A-Za-z](?:_\{?\w+\}?)?\s*=[\s$]*(?:\\[(\[]\s*)?)?"
)
_BOX_LABEL = re.compile(r"(?<![A-Za-z\\])(?P<label>[A-Za-z](?:_\{?\w+\}?)?)\s*=\s*\$?\s*$")
_MATH_DELIMS = re.compile(r"\\[()\[\]]")
# Where a sentence ends inside the last line, and the verbs that state a value in it.
_SENTENCE_BREAK = re.compile(r"(?<!\d)\.\s+|(?<=\d)\.\s+(?=[A-Z])|[!?;:]\s+")
_STATES = re.compile(
    r"(?i:\b(?:is|are|equals|be|was|gives(?:\s+us)?)\b(?:\s+(?:approximately|about|roughly|exactly|equal\s+to))?)"
    r"|(?<![!<>=])=(?!=)|≈|\\approx"
)
_TRAILER = re.compile(r",\s+(?=[a-z])|\s+(?i:because|since|which|so|as|when|and\s+the)\s")
_HAS_VALUE = re.compile(r"[\d\\π√]")
_PROSE_WORD = re.compile(r"(?<!\\)\b[a-zA-Z]{4,}\b")
_UNIT_PROSE = frozenset({
    "units", "unit", "degrees", "degree", "meters", "metres", "inches", "feet", "square", "cubic", "centimeters",
    "centimetres", "millimeters", "kilometers", "seconds", "minutes", "hours",
})


def extract_free_answer(response: str | None) -> Extraction:
    """The final answer of a free-form response, as written (comparison is `math_equivalence`'s job)."""
    if not isinstance(response, str) or not response.strip():
        return unparsed("empty response", "nothing to read")
    text, think_note = strip_think(response)
    if not text.strip():
        return unparsed("no answer after reasoning", think_note)
    boxed = _boxed_answer(text)
    if boxed is not None:
        later = _last_phrase(text[_end_of_last_box(text) :])  # "\\boxed{255} ... The final answer is 10,455."
        return later if later is not None and _is_math(later.answer) else boxed
    phrase = _last_phrase(text)
    if phrase is not None:
        return phrase
    return _last_line(text)


def _boxed_answer(text: str) -> Extraction | None:
    """The last non-empty box, joined with the boxes right before it when only commas or "and" separate them."""
    boxes = _outer_boxes(text)
    if not boxes:
        return None
    group = [boxes[-1]]  # latest first
    for start, content, after in reversed(boxes[:-1]):
        if not _BETWEEN_BOXES.fullmatch(text, after, group[-1][0]):
            break
        group.append((start, content, after))
    group.reverse()
    parts = []
    for start, content, _ in group:
        label = _label_before(text, start)
        parts.append(f"{label} = {content.strip()}" if label else content.strip())
    answer = ", ".join(parts)
    if len(group) > 1:
        return Extraction(answer, "boxed", f"read {len(group)} adjacent \\boxed{{}} as one answer: {quote(answer)!r}")
    count = f" (last of {len(boxes)})" if len(boxes) > 1 else ""
    return Extraction(answer, "boxed", f"read \\boxed{{{quote(answer)}}}{count}")


def _outer_boxes(text: str) -> list[tuple[int, str, int]]:
    """(start, content, just after the closing brace) of each non-empty box that no other box holds.

    A box that holds nothing but another box ("\\boxed{\\boxed{3}}") reads as the innermost one. Spans are walked,
    never copied, so n nested boxes cost O(n) time and memory.
    """
    spans = boxed_spans(text)
    by_start = {start: (inner, end) for start, inner, end in spans}
    boxes, last_end = [], -1
    for start, inner, end in spans:
        if start < last_end:
            continue  # inside the previous outer box
        last_end = end
        while True:  # descend while the content is exactly one box
            first, last = _strip_span(text, inner, end)
            nested = by_start.get(first)
            if nested is None or nested[1] + 1 != last:
                break
            inner, end = nested
        first, last = _strip_span(text, inner, end)
        if first < last:
            boxes.append((start, text[first:last], last_end + 1))
    return boxes


def _strip_span(text: str, first: int, last: int) -> tuple[int, int]:
    """The span [first, last) without leading and trailing whitespace."""
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    return first, last


def _end_of_last_box(text: str) -> int:
    """Just after the closing brace of the box that ends last (an outer box ends after the boxes it holds)."""
    return max(end for _, _, end in boxed_spans(text)) + 1


def _label_before(text: str, start: int) -> str:
    """"x" for "x = \\boxed{3}": the variable a box is the value of, if one is named right before it."""
    match = _BOX_LABEL.search(text[max(0, start - 20) : start])
    return match.group("label") if match else ""


def _last_phrase(text: str) -> Extraction | None:
    matches = list(_PHRASE.finditer(_MARKDOWN.sub("", text)))
    for match in reversed(matches):
        answer = _clean(match.group("rest") or match.group("zh"))
        if answer:
            answer = _innermost(answer)
            answer = answer if _is_math(answer) else _stated_value(answer) or answer
            return Extraction(answer, "answer-phrase", f"read {quote(match.group(0))!r}")
    return None


def _innermost(answer: str) -> str:
    """"The final answer is X" inside "Final Answer: ..." reads X; one level at a time, each shorter."""
    while (inner := _PHRASE.match(answer)) is not None:
        rest = _clean(inner.group("rest") or inner.group("zh") or "")
        if not rest or len(rest) >= len(answer):
            break
        answer = rest
    return answer


def _clean(rest: str) -> str:
    """The answer part of a phrase's line: up to the end of its sentence, without `$` and a final period."""
    end = _CLAUSE_END.search(rest)
    if end:
        rest = rest[: end.start()]
    return _DOLLARS.sub("", rest.strip().rstrip(".").strip()).strip()


def _last_line(text: str) -> Extraction:
    """A last line that is only math, else the value its last sentence states ("... is 14 cm.", "L = 14")."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = _DOLLARS.sub("", _MARKDOWN.sub("", _MATH_DELIMS.sub("", lines[-1]))).strip().rstrip(".").strip()
    if _is_math(last):
        return Extraction(last, "final-line", f"the last line is only math: {quote(last)!r}")
    sentence = _SENTENCE_BREAK.split(last)[-1]
    value = _stated_value(sentence)
    if value is not None:
        return Extraction(value, "last-sentence", f"the last sentence states {quote(sentence)!r}")
    why = f"no \\boxed{{}}, final-answer phrase or stated value; last line {quote(last)!r}"
    return unparsed("no final answer", why)


def _stated_value(sentence: str) -> str | None:
    """The value after the sentence's last "is" / "=" / "≈", if it is math with a number or LaTeX in it."""
    stated = max(_STATES.finditer(sentence), key=lambda match: match.start(), default=None)
    if stated is None or "=" in sentence[: stated.start()]:  # "x = 1, y = 2" is not "2"
        return None
    value = _TRAILER.split(sentence[stated.end() :], 1)[0].strip().rstrip(",.").strip()
    value = _DOLLARS.sub("", value).strip()
    return value if _is_math(value) and _HAS_VALUE.search(value) else None


def _is_math(text: str) -> bool:
    """Only numbers, operators, LaTeX and unit words ("14 cm", "x = 3", "\\frac{1}{2}", "45°")."""
    words = [w.lower() for w in _PROSE_WORD.findall(text)]
    return bool(_MATH_LINE.fullmatch(text)) and all(w in _UNIT_PROSE for w in words)
