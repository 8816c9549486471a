"""Responses that are only a program ("program of thought" prompting): they state no answer.

A model asked to answer in code writes `iceland = 100\\ncambodia = 20\\nprint(iceland - cambodia)` and stops: the
numbers are its inputs (often invented), the answer is what the program would print, and the response never says
what that is. A reader that takes a number or an option's word from such a response reads an input
(`side = 6` is not the answer 6, `return 'Yes'` is not the answer Yes). So a response whose every line is code is
read as stating nothing, unless the program assigns its answer as a literal (`answer = "No"`), which states it.
Every check is a regex per line: linear in the response.
"""

from __future__ import annotations

import re

from mathreel.core.extract.lazy import lazy_regex

# One line of Python: a definition, a statement, an assignment, a call of print, a comment, a closing bracket, a
# code fence. Indented lines (a block's body, a list continued) count as code when the program has begun.
_CODE_LINE = lazy_regex(
    r"[ \t]*(?:(?:def|class)[ \t]+\w+[ \t]*\(.*\)[ \t]*(?:->.*)?:|return\b.*|print[ \t]*\(.*\)|import[ \t]+\w.*"
    r"|from[ \t]+[\w.]+[ \t]+import\b.*|(?:for|while|if|elif|with|try|except)\b.*:|else[ \t]*:|#.*"
    r"|[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*[ \t]*(?:[-+*/%]|//|\*\*)?=(?!=).*"
    r"|[\])}][,)\]}]*|```[\w+-]*)[ \t]*"
)
_RUNS = lazy_regex(r"\bprint[ \t]*\(|^[ \t]*return\b", re.M)
# `answer = "No"`, `final_answer = 42`: the program's answer written as a literal.
_ASSIGNED = lazy_regex(
    r"^[ \t]*(?:final_)?ans(?:wer)?[ \t]*=[ \t]*(?:\"(?P<dq>[^\"\n]{1,80})\"|'(?P<sq>[^'\n]{1,80})'"
    r"|(?P<num>-?\d[\d,]*(?:\.\d+)?(?:/\d+)?))[ \t]*(?:#.*)?$",
    re.M,
)
_MIN_CODE_LINES = 2


def program_only(text: str) -> bool:
    """Whether every non-blank line of `text` is code and the code prints or returns something."""
    if "print" not in text and "return" not in text:
        return False
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < _MIN_CODE_LINES or _RUNS.search(text) is None:
        return False
    return all(line[:1] in " \t" or _CODE_LINE.fullmatch(line) for line in lines)


def assigned_answer(text: str) -> str | None:
    """The literal a program assigns to its answer variable (the last such assignment), or None."""
    found = None
    for match in _ASSIGNED.finditer(text):
        found = match
    if found is None:
        return None
    return found.group("dq") or found.group("sq") or found.group("num")
