"""Responses cut off in the middle of their working (the output length ran out).

A response that stops at "... The perimeter is then $4 \\times" or "... and then if we also include the blocks on
the" has no conclusion: the last finished sentence is working, and its value ("each side is 6") is not the answer.
The option-text reading reads a response's conclusion, so it reads nothing from a response cut off like this. The
signs are only those no finished sentence ends with: an operator, an open bracket, a LaTeX command, an unclosed
`\\(` or `\\[`, or a lower-case word that cannot end a sentence ("the", "of", "is"; never a capital letter, which
may be the answer). A response that just lacks its final period ("so the perimeter is 12") is finished.

A free-form answer is a value, never a capitalised word, so `stops_mid_step` also takes a response that ends on the
word opening its next step, or on that word and one or two more ("... Start at A. First", "... so the fee is 3
dollars. Next", "... has 360/g - 1 elements.\nThe number"; never "The end") as cut off.
"""

from __future__ import annotations

from mathreel.core.extract.lazy import lazy_regex

_ENDS_OPEN = lazy_regex(
    r"(?:[=+\-/^,(\[{]|\\(?!(?:blacksquare|square|qed|Box|checkmark|end|right|rangle|rbrace)\b)[A-Za-z]+|\\[(\[]"
    r"|(?<![\w'’])(?:the|a|an|of|to|and|or|with|by|from|into|than|if|is|are|was|were|which|that|whose|because|since"
    r"|gives?))[ \t]*\Z"
)
_TAIL = 200  # characters looked at: where the response stops
_LAST_WORD = 24  # characters searched for the sign: the longest word or LaTeX command, with blanks after it
_SHORTEST = 60  # characters: a shorter text is an answer written loosely ("D the dog's lead in the"), not working


def cut_off(text: str) -> str | None:
    """The end of `text` when it stops mid-working (see the module docstring), or None when it could be finished."""
    tail = text.rstrip()[-_TAIL:]
    if len(tail.lstrip()) < _SHORTEST:
        return None
    opened = tail.count("\\(") > tail.count("\\)") or tail.count("\\[") > tail.count("\\]")
    if not opened and _ENDS_OPEN.search(tail, max(0, len(tail) - _LAST_WORD)) is None:
        return None
    return tail[-40:].lstrip()


# The capitalised word that opens a next step, alone after the last sentence's end.
_NEXT_STEP = lazy_regex(
    r"(?:[.!?:]|\n)[ \t*]*(?:First|Second|Third|Then|Next|Now|So|Let|We|The|If|For|Since|This|Thus|Therefore"
    r"|Hence|Finally|Also|In|To|Similarly|Consider|Step)(?:[ \t]+(?!end\b)[a-z]+){0,2}[ \t]*\Z"
)


def stops_mid_step(text: str) -> str | None:
    """`cut_off`, or the end of a free-form response that stops on the word opening its next step; None otherwise."""
    found = cut_off(text)
    if found is not None:
        return found
    tail = text.rstrip()[-_TAIL:]
    if len(tail.lstrip()) < _SHORTEST or _NEXT_STEP.search(tail, max(0, len(tail) - _LAST_WORD)) is None:
        return None
    return tail[-40:].lstrip()


# A value that cannot be finished where it stops: an operator, an open bracket, a LaTeX command that takes an argument
# or joins two terms ("\\frac{3}{", "\\frac{3}{8} \\times", "\\sqrt{", "2 +").
_VALUE_OPEN = lazy_regex(
    r"(?:[=+\-*/^(\[{_]|\\(?:frac|dfrac|tfrac|sqrt|times|cdot|div|pm|mp|left|over|binom)\b)[ \t]*\Z"
)


def unfinished_value(value: str) -> bool:
    """Whether an answer's value stops mid-expression (more "{" than "}", or it ends on an operator or on a command
    that needs more): where a response ends on it, it was cut off, and no value of its working is the answer."""
    return value.count("{") > value.count("}") or _VALUE_OPEN.search(value[-_LAST_WORD:]) is not None
