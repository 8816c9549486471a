"""Statements that are not answers although they read like one: a list that evaluates each option, and an answer
phrase that introduces the list of all options.

After its answer, a model often goes through the options one line each ("- **A** is correct: ...", "- C is true:
..."). For a question asking which statement is false (an EXCEPT question) several of those lines call an option
correct, and none of them is the answer: where such lines, each opening its line, call two or more different
options correct, they are an evaluation list and not read as statements. A single line calling one option correct
("The answer is B. ... - B is correct: ...") is still read.

"The correct answer should be:" followed by "A. 31", "B. 29", "C. 25" on lines of their own is the option list
written out, not a statement of A; the phrase gives no letter (and "None of these options match" after it is then
no answer at all).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mathreel.core.extract.lazy import lazy_regex


class Said(Protocol):
    """The parts of a choice statement read here."""

    @property
    def pos(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def letter(self) -> str: ...
    @property
    def snippet(self) -> str: ...


_EVALUATION = lazy_regex(r"[A-Z]\W{0,3}\s+(?:is|are)\s+(?:correct|true|right|valid|accurate)\b", flags=0)
_LINE_OPENING = frozenset(" \t-*•>_")  # what may stand before the letter on its line: blanks, bullets, markdown
_LIST_ITEM = lazy_regex(r"[ \t*_]*\(?([A-Z])[.):]")


def evaluation_list(text: str, statements: Sequence[Said]) -> set[int]:
    """The positions of `statements` that belong to a per-option evaluation list (see the module docstring)."""
    lines = [
        s
        for s in statements
        if s.kind == "answer" and " " in s.snippet and _EVALUATION.match(s.snippet) and _opens_line(text, s.pos)
    ]
    if len({s.letter for s in lines}) < 2:
        return set()
    return {s.pos for s in lines}


def _opens_line(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    return all(char in _LINE_OPENING for char in text[start:pos])


def introduces_options(text: str, statement: Said, letters: Sequence[str]) -> bool:
    """Whether `statement` ends with a letter that opens a line of the option list, the next options on the lines
    after it ("...should be:\\n\\nA. 31\\nB. 29\\nC. 25")."""
    if statement.kind != "answer" or statement.letter not in letters or "\n" not in statement.snippet:
        return False
    if not _opens_line(text, statement.end - 1) or text[statement.end : statement.end + 1] not in (".", ")", ":"):
        return False
    index = letters.index(statement.letter)
    following = [line for line in text[statement.end :].split("\n")[1:4] if line.strip()]
    expected = letters[index + 1 : index + 3]
    if len(expected) < 2 or len(following) < 2:
        return False
    for line, letter in zip(following, expected, strict=False):
        item = _LIST_ITEM.match(line)
        if item is None or item.group(1) != letter:
            return False
    return True
