"""The value a sentence of a free-form response states: "... so the new side is 9 cm." reads 9 cm.

The sentence is cut into clauses at "so", "thus", "hence", "therefore" and ";", and the last clause that states
something is read:
- several named values ("p = 4 and q = -3", "x = 6 or x = -1") are read together ("p = 4, q = -3");
- otherwise the value after a verb or connector ("is", "equals", "gives", "lies at", "i.e.", "=", "∈", "—"), the
  first whose value is math: a chain of working ("((−3 + 7)/2, (1 + 5)/2) = (2, 3)") reads its result, an
  equation in the variables ("x + 2y − 7 = 0") is read whole, "y = 3" reads 3;
- a number in words ("gives eleven triangles"), a quoted value ("is '14'") and a dollar sign read as "S"
  ("pays S36") are read as the number.
Every step is a regex scan or a split of the sentence: linear in its length.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.plain_math import plain_math

_CLAUSE_BREAK = lazy_regex(r";|(?:,\s*|\s+|^)(?i:so|thus|hence|therefore)\b,?")
_AND = lazy_regex(r"\s+(?i:and|but)\s+")
_STATES = lazy_regex(
    r"(?i:\b(?:(?:is|are|lies|located|occurs|was|were)\s+at|is|are|equals|be|was|were|gives(?:\s+us)?|yields|makes"
    r"|comes\s+to|totals|costs?|pays|paid|weighs|measures|spends|spent|earns|earned)\b"
    r"(?:\s+(?:approximately|about|roughly|exactly|equal\s+to))?)"
    r"|(?i:\bi\.e\.,?)|(?<![!<>=\\])=(?!=)|≈|\\approx|\\in\b|\s[—–]\s"
)
_TRAILER = lazy_regex(
    r",\s+(?=[a-z])|\s+(?i:because|since|which|so|as|when|and\s+the|in\s+(?:total|all)|altogether|overall)\b"
)
_QUOTES = "'\"‘’“”`"
_LONGEST_VALUE = 240  # characters: a math line is at most 200 (`_MATH_LINE`), with room for quotes and "$"
_CURRENCY_S = lazy_regex(r"S(\d[\d,]*(?:\.\d+)?)")  # "$36" read by OCR as "S36"
_HAS_VALUE = lazy_regex(r"[\d\\π√]")
_RATE = lazy_regex(r"\s+(?i:per)\s+[A-Za-z]+\Z")  # "per day", "per ticket" after a value
_PROSE_WORD = lazy_regex(r"(?<!\\)\b[a-zA-Z]{4,}\b")
_MATH_LINE = lazy_regex(r"(?:[\s\d.,+\-*/^()=<>≤≥≠\[\]{}\\a-zA-Z_°%π√:|]|!=){1,200}")  # "x >= 5", "x != 3" too
_UNIT_PROSE = frozenset(
    {
        "units",
        "unit",
        "degrees",
        "degree",
        "meters",
        "metres",
        "inches",
        "feet",
        "square",
        "cubic",
        "centimeters",
        "centimetres",
        "millimeters",
        "kilometers",
        "seconds",
        "minutes",
        "hours",
        "liters",
        "litres",
        "grams",
        "kilograms",
        "miles",
        "yards",
        "dollars",
        "cents",
        "infty",
        "sqrt",
        "frac",
        "times",
        "cdot",
    }
)
# "x = 3" where the name is not the end of an expression ("4y = 12" is working, not a named value).
_NAMED = lazy_regex(r"(?<![\w\\)}^])(?P<name>[A-Za-z](?:_\{?\w+\}?)?)\s*=(?!=)")
_LIST_SEPARATOR = lazy_regex(r"\s*(?:,\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s+)$", re.I)
_SINGLE_SYMBOL = lazy_regex(r"\s*[A-Za-z](?:_\{?\w+\}?)?\s*")
_LETTER = lazy_regex(r"[A-Za-z]")
_COMMAND = lazy_regex(r"\\[A-Za-z]+")  # "\\frac", "\\sqrt", "\\times": operators, not variables
_UNITS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_NUMBER_WORD = lazy_regex(
    r"(?i)(?P<tens>" + "|".join(_TENS) + r")(?:[- ](?P<unit>" + "|".join(_UNITS[1:10]) + r"))?\b"
    r"|(?P<small>" + "|".join(_UNITS) + r"|hundred)\b"
)


def stated_value(sentence: str) -> str | None:
    """The value `sentence` states, or None when it states none that is math."""
    sentence = plain_math(sentence)
    for clause in reversed(_CLAUSE_BREAK.split(sentence)):
        if not clause or not clause.strip():
            continue
        named = _named_values(clause)
        if named is not None:
            return named
        if _STATES.search(clause) is None:
            continue
        parts = _AND.split(clause)
        for part in reversed(parts) if len(parts) > 1 else ():
            if _STATES.search(part):
                value = _value_after_marks(part)
                if value is not None:
                    return value
                break
        return _value_after_marks(clause)
    return None


def _named_values(clause: str) -> str | None:
    """ "p = 4 and q = -3" -> "p = 4, q = -3": two or more named values closing the clause, joined."""
    names = list(_NAMED.finditer(clause))
    if len(names) < 2:
        return None
    run, separators = [len(names) - 1], {}
    for index in range(len(names) - 2, -1, -1):
        gap = clause[names[index].end() : names[index + 1].start()]
        separator = _LIST_SEPARATOR.search(gap)
        if separator is None or "=" in gap:
            break
        run.insert(0, index)
        separators[index] = names[index].end() + separator.start()
    if len(run) < 2:
        return None
    pairs = []
    for index in run:
        end = separators.get(index, len(clause))
        value = _cleaned(clause[names[index].end() : end])
        if not value or not is_math(value) or not _HAS_VALUE.search(value):
            return None
        pairs.append(f"{names[index].group('name')} = {value}")
    return ", ".join(pairs)


def _value_after_marks(clause: str) -> str | None:
    """The first math value after a verb or connector of `clause` (see the module docstring). A value ends at a
    trailer ("because", ", which"); one longer than any math line is skipped unread, so the work stays linear."""
    trailers = [match.start() for match in _TRAILER.finditer(clause)]
    for mark in _STATES.finditer(clause):
        at = bisect_left(trailers, mark.end())
        end = trailers[at] if at < len(trailers) else len(clause)
        if end - mark.end() > _LONGEST_VALUE:
            continue
        tail = _cleaned(clause[mark.end() : end])
        if not tail or _STATES.match(tail):
            continue  # "the total cost is 45": "cost" is the noun, the value follows "is"
        word = number_word(tail)
        if word is not None:
            return word
        currency = _CURRENCY_S.fullmatch(tail)
        if currency:
            return currency.group(1)
        if is_math(tail) and _HAS_VALUE.search(tail):
            if mark.group(0) == "=":  # "the limit of a_n = n/(n+1) as n grows is 1": "=" names the subject
                final = _FINAL_IS.search(clause, mark.end())
                if final is not None and is_math(final.group("v")) and _HAS_VALUE.search(final.group("v")):
                    return _result_of(final.group("v"))
            return _result_of(tail)
    return None


# The value a clause ends on after its verb ("... as n approaches infinity is 0"): a short math value, nothing after.
_FINAL_IS = lazy_regex(r"\s(?i:is|equals|are)\s+(?:(?i:approximately|about|exactly)\s+)?(?P<v>[^\s=][^=]{0,30}?)\s*$")


def _result_of(value: str) -> str:
    """The result of a chain of working ("(1+5)/2 = 3" -> 3), the right side of "y = 3", else `value` whole
    (an equation in its variables, "x + 2y - 7 = 0", is the answer itself)."""
    cut = _last_equals(value)
    if cut < 0:
        return value
    left, right = value[:cut], value[cut + 1 :].strip()
    if right and (not _LETTER.search(_COMMAND.sub("", left)) or _SINGLE_SYMBOL.fullmatch(left)):
        return right
    return value


def _last_equals(value: str) -> int:
    """The position of the last "=" that is not part of "<=", ">=", "!=" or "==", or -1."""
    at = value.rfind("=")
    while at >= 0 and ((at > 0 and value[at - 1] in "<>!=") or value[at + 1 : at + 2] == "="):
        at = value.rfind("=", 0, at - 1) if at > 0 else -1
    return at


def _cleaned(tail: str) -> str:
    """A value without blanks, quotes, "$" and a final period around it, and without a leading "at"."""
    value = tail.strip().rstrip(",.;:!").strip().replace("$", "").strip().strip(_QUOTES).strip()
    if value[:3].lower() == "at ":
        value = value[3:].strip()
    rate = _RATE.search(value)  # "-2 per day": the value is -2; math-verify reads no "per day"
    if rate is not None and rate.start() > 0:
        value = value[: rate.start()]
    return value.rstrip(".").strip()


def number_word(text: str, whole: bool = False) -> str | None:
    """The number a value opens with in words ("eleven solutions" -> "11", "twenty-five" -> "25"), or None;
    with `whole`, only when the number word is all of `text` ("Six", not "Sixth" or "six cubes")."""
    match = _NUMBER_WORD.fullmatch(text) if whole else _NUMBER_WORD.match(text)
    if match is None:
        return None
    if match.group("tens"):
        value = 10 * (2 + _TENS.index(match.group("tens").lower()))
        return str(value + (_UNITS.index(match.group("unit").lower()) if match.group("unit") else 0))
    small = match.group("small").lower()
    return "100" if small == "hundred" else str(_UNITS.index(small))


def is_math(text: str) -> bool:
    """Only numbers, operators, LaTeX and unit words ("14 cm", "x = 3", "\\frac{1}{2}", "45°")."""
    words = [w.lower() for w in _PROSE_WORD.findall(text)]
    return bool(_MATH_LINE.fullmatch(text)) and all(w in _UNIT_PROSE for w in words)
