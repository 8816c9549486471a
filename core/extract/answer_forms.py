"""One answer written two ways, brought to one form before it is compared (the equivalence policy, README "How the
numbers are made"):

- a mixed number is its value: "2 1/4" and "2\\frac{1}{4}" are 9/4 (`mixed_number`);
- an inequality in one variable is the interval it describes: "1 <= x < 4" is [1, 4), "x >= 3" is [3, \\infty),
  "x \\in (0, 2]" is (0, 2] (`as_interval`), compared so only against an interval;
- several named values ("B = 3\\pi, E = 5\\pi", "x = 2, y = 7") against a list of values ("3\\pi, 5\\pi", "(2, 7)",
  "[3, 5]") are compared in order, value by value: the list's order is the order the question names them
  (`named_values`, `listed_values`);
- a decimal against an exact value that has no decimal of that length (3/7, \\sqrt{3}) is that value rounded when it
  is within one unit of its last digit: equal with 3 or more significant digits ("0.4286", "1.732"), for a judge
  with fewer ("0.43"), different otherwise (`rounding_verdict`). A decimal against a value that is exact at that
  length ("0.2" against 1/4) is compared exactly.
"""

from __future__ import annotations

from fractions import Fraction

from mathreel.core.extract.lazy import lazy_regex

_MIXED = lazy_regex(
    r"(?P<sign>[+-]?)(?P<whole>\d+)(?:\s+(?P<num>\d+)\s*/\s*(?P<den>\d+)"
    r"|\s*\\frac\s*\{\s*(?P<lnum>\d+)\s*\}\s*\{\s*(?P<lden>\d+)\s*\})"
)


def mixed_number(text: str) -> Fraction | None:
    """The value of a mixed number ("2 1/4", "-3 \\frac{1}{2}"): a proper fraction after a whole number."""
    match = _MIXED.fullmatch(text.strip())
    if match is None:
        return None
    num, den = int(match.group("num") or match.group("lnum")), int(match.group("den") or match.group("lden"))
    if den == 0 or num >= den:
        return None
    value = int(match.group("whole")) + Fraction(num, den)
    return -value if match.group("sign") == "-" else value


_LESS = {"<": "<", "<=": "<=", "\\lt": "<", "\\le": "<=", "\\leq": "<=", "\\leqslant": "<=", "≤": "<="}
_MORE = {">": ">", ">=": ">=", "\\gt": ">", "\\ge": ">=", "\\geq": ">=", "\\geqslant": ">=", "≥": ">="}
_RELATION = r"(<=|>=|<|>|\\leqslant|\\geqslant|\\leq|\\geq|\\le|\\ge|\\lt|\\gt|≤|≥)"
# A bound: anything but a relation ("5", "-\\infty", "\\frac{1}{2}"); LaTeX commands other than the relations allowed.
_BOUND = r"((?:[^<>=≤≥\\]|\\(?!(?:le|ge|lt|gt|leq|geq|leqslant|geqslant)(?![A-Za-z]))[A-Za-z]+|\\[^A-Za-z])*?)"
_VARIABLE = r"([A-Za-z])"
_BETWEEN = lazy_regex(rf"\s*{_BOUND}\s*{_RELATION}\s*{_VARIABLE}\s*{_RELATION}\s*{_BOUND}\s*")
_ONE_SIDE = lazy_regex(rf"\s*{_VARIABLE}\s*{_RELATION}\s*{_BOUND}\s*")
_ONE_SIDE_FLIPPED = lazy_regex(rf"\s*{_BOUND}\s*{_RELATION}\s*{_VARIABLE}\s*")
_MEMBER = lazy_regex(r"\s*[A-Za-z]\s*(?:\\in|∈)\s*(?P<set>[(\[].*[)\]])\s*")
_INTERVAL = lazy_regex(r"\s*[(\[].*,.*[)\]]\s*|.*\\infty.*|.*\\cup.*")


def looks_like_interval(text: str) -> bool:
    """Whether an answer is written as an interval ("[1, 4)", "(-\\infty, 5)", "(0, 1) \\cup (2, 3)")."""
    return _INTERVAL.fullmatch(text) is not None


def as_interval(text: str) -> str | None:
    """The interval an inequality in one variable describes, in LaTeX, or None when `text` is not one."""
    member = _MEMBER.fullmatch(text)
    if member:
        return member.group("set").strip()
    between = _BETWEEN.fullmatch(text)
    if between:
        low, first, _, second, high = (part.strip() for part in between.groups())
        if first in _LESS and second in _LESS and low and high:
            return f"{'[' if _LESS[first] == '<=' else '('}{low}, {high}{']' if _LESS[second] == '<=' else ')'}"
        if first in _MORE and second in _MORE and low and high:
            return f"{'[' if _MORE[second] == '>=' else '('}{high}, {low}{']' if _MORE[first] == '>=' else ')'}"
        return None
    one = _ONE_SIDE.fullmatch(text)
    if one:
        _, relation, bound = (part.strip() for part in one.groups())
        return _half_line(relation, bound, variable_first=True)
    flipped = _ONE_SIDE_FLIPPED.fullmatch(text)
    if flipped:
        bound, relation, _ = (part.strip() for part in flipped.groups())
        return _half_line(relation, bound, variable_first=False)
    return None


def _half_line(relation: str, bound: str, variable_first: bool) -> str | None:
    """x < b -> (-\\infty, b); x >= b -> [b, \\infty); b < x -> (b, \\infty)."""
    if not bound:
        return None
    less = relation in _LESS
    if not variable_first:
        less = not less
    closed = (_LESS.get(relation) or _MORE.get(relation)) in ("<=", ">=")
    if less:
        return f"(-\\infty, {bound}{']' if closed else ')'}"
    return f"{'[' if closed else '('}{bound}, \\infty)"


_DECIMAL = lazy_regex(r"[+-]?(?P<int>\d*)\.(?P<frac>\d+)(?:\s*(?:\.\.\.|…|\\ldots|\\cdots))?")
MIN_SIGNIFICANT = 3


def decimal_places(text: str) -> tuple[int, int, Fraction] | None:
    """(decimal places, significant digits, value) of a plain decimal ("0.4286" -> (4, 4, 2143/5000)), None for
    anything else; a trailing "..." is allowed ("0.0833...")."""
    match = _DECIMAL.fullmatch(text.replace(" ", ""))
    if match is None:
        return None
    digits = (match.group("int") + match.group("frac")).lstrip("0")
    value = Fraction(f"{match.group('int') or '0'}.{match.group('frac')}")
    return len(match.group("frac")), len(digits), -value if text.lstrip().startswith("-") else value


def rounding_verdict(decimal: float | Fraction, places: int, significant: int, exact: float | Fraction) -> bool | None:
    """A decimal with `places` places against an exact value: True when it is that value rounded (within one unit
    of its last digit, `MIN_SIGNIFICANT` significant digits or more), None when it is that close with fewer
    digits (a judge decides), False otherwise. Only for exact values with no decimal of that length."""
    unit = Fraction(1, 10**places)
    if abs(Fraction(decimal) - Fraction(exact)) >= unit:
        return False
    return True if significant >= MIN_SIGNIFICANT else None


def exact_at(value: Fraction, places: int) -> bool:
    """Whether `value` has a decimal of at most `places` places (1/4 at 2 places: 0.25)."""
    return (value * 10**places).denominator == 1


_NAMED_VALUE = lazy_regex(r"\s*[A-Za-z](?:_\{?\w+\}?)?\s*=(?P<value>[^=]+)")
_BRACKETED = lazy_regex(r"\s*[(\[](?P<inner>.*)[)\]]\s*")


def named_values(text: str) -> list[str] | None:
    """The values of two or more named values ("x = 2, y = 7" -> ["2", "7"]), or None."""
    if text.count("=") < 2:
        return None
    values = []
    for part in _top_level_items(text):
        match = _NAMED_VALUE.fullmatch(part)
        if match is None:
            return None
        values.append(match.group("value").strip())
    return values if len(values) > 1 else None


def listed_values(text: str) -> list[str] | None:
    """The items of a list of two or more values ("3\\pi, 5\\pi", "(2, 7)", "[3, 5]"), or None (names, relations)."""
    if "=" in text or "<" in text or ">" in text or "\\le" in text or "\\ge" in text:
        return None
    bracketed = _BRACKETED.fullmatch(text)
    inner = bracketed.group("inner") if bracketed else text
    items = _top_level_items(inner)
    return items if len(items) > 1 and all(items) else None


def _top_level_items(text: str) -> list[str]:
    """`text` split at the commas outside any bracket or brace, each item stripped."""
    items, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:at].strip())
            start = at + 1
    items.append(text[start:].strip())
    return items
