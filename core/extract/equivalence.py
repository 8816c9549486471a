"""Is a predicted free-form answer the gold one? Equal, different, or undecidable, always with the reason.

A fast path settles the easy cases in microseconds: the same text after normalising (LaTeX spacing, `\\left`,
`\\dfrac`, `$`, `\\text{}`, Unicode signs), plain numbers, simple fractions and mixed numbers, degrees, different
units on both sides, a percentage against a plain number ("28%" equals both "28" and "0.28": one quantity written
two ways), and a decimal against a fraction it rounds (`answer_forms`: "0.4286" = 3/7). An inequality against an
interval is compared as the interval it describes ("1 <= x < 4" against "[1, 4)").
Everything else goes to math-verify (`equivalence_engine`), unless its text shows it would make sympy work for
minutes (`math_screen`: exponent towers, huge factorials). Undecidable means the rules cannot settle it: an answer
that does not parse as math, hostile math, a check past its CPU limit, prose, or degrees against radians; only
those go to the LLM judge.
Decisions are memoised per (predicted, gold) pair for the life of the process.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mathreel.core.extract.answer_forms import (
    as_interval,
    decimal_places,
    exact_at,
    listed_values,
    looks_like_interval,
    mixed_number,
    named_values,
    rounding_verdict,
)
from mathreel.core.extract.free_value import scaled_value
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.math_screen import hostile_reason
from mathreel.core.extract.plain_math import plain_math

# An extracted answer longer than this is prose, not a value. The worker's CPU limit already bounds sympy's time;
# this bounds what crosses its pipe and what the memo holds. (A long response is still read whole by math-verify's
# own extraction, up to `free_verdict.MAX_RESPONSE`.)
_MAX_LENGTH = 2_000
_MAX_DEPTH = 20  # brace nesting; deeper is built to exhaust a parser (sympy recurses), not written by a model
_MAX_MEMO = 200_000


@dataclass(frozen=True)
class Equivalence:
    """`equal` is True, False, or None when the rules cannot decide (the caller may ask a judge)."""

    equal: bool | None
    explanation: str
    # True when the answers parse but only the question can settle them (degrees against radians, a percentage
    # against a fraction): no other reading of the response helps, a judge must read the question.
    needs_question: bool = False


def math_equal(predicted: str, gold: str) -> bool:
    """True only when the answers are decidably equal; undecidable counts as not equal."""
    return math_equivalence(predicted, gold).equal is True


_memo: dict[tuple[str, ...], Any] = {}
_memo_lock = threading.Lock()


def math_equivalence(predicted: str | None, gold: str | None) -> Equivalence:
    """Compare two answers; the explanation says which rule decided."""
    if not isinstance(predicted, str) or not isinstance(gold, str):
        return Equivalence(None, "an answer is missing")
    return memoised(("equal", predicted, gold), lambda: _decide(predicted, gold))


class Unmemoised(Exception):  # a value, not an error
    """Raised by a `compute` whose value holds only for now (a spent file budget, a stalled worker)."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


def clear_memo() -> None:
    """Forget every decision (tests and benches that score the same answers twice, from scratch)."""
    with _memo_lock:
        _memo.clear()


def memoised(key: tuple[str, ...], compute: Callable[[], Any]) -> Any:
    """`compute()`, run once per key for the life of the process (bounded: cleared when full); a value `compute`
    raises as `Unmemoised` is returned but not kept."""
    found = _memo.get(key)
    if found is None:
        try:
            found = compute()
        except Unmemoised as passing:
            return passing.value
        with _memo_lock:
            if len(_memo) >= _MAX_MEMO:
                _memo.clear()
            _memo[key] = found
    return found


def _decide(predicted: str, gold: str) -> Equivalence:
    if len(predicted) > _MAX_LENGTH or len(gold) > _MAX_LENGTH:
        return Equivalence(None, f"longer than {_MAX_LENGTH} characters: too long to compare as math")
    if max(_depth(predicted), _depth(gold)) > _MAX_DEPTH:
        return Equivalence(None, f"nested deeper than {_MAX_DEPTH} levels: not an ordinary answer")
    scaled = _scaled_against_number(predicted, gold) if " " in predicted else None
    if scaled is not None:
        return scaled
    in_order = _named_against_list(predicted, gold)
    if in_order is not None:
        return in_order
    pred, ref = _as_intervals(_normalize(predicted), _normalize(gold))
    fast = _fast_path(pred, ref)
    if fast is not None:
        return fast
    hostile = hostile_reason(pred.text) or hostile_reason(ref.text)
    if hostile:
        return Equivalence(None, f"undecidable (hostile math): {hostile}; not sent to sympy")
    from mathreel.core.extract.equivalence_engine import engine_verdict

    checked = engine_verdict(pred.text, ref.text)
    verdict = Equivalence(checked.equal, checked.why)
    if checked.transient:
        raise Unmemoised(verdict)
    return verdict


def _scaled_against_number(predicted: str, gold: str) -> Equivalence | None:
    """ "5 million" against a number: equal to 5000000; against 5 only the question can say (it may ask in millions),
    so a judge decides; different otherwise."""
    scaled = scaled_value(predicted)
    number = _plain_number(_normalize(gold).text) if scaled is not None else None
    if scaled is None or number is None:
        return None
    value, before_scale = scaled
    if Fraction(value) == number:
        return Equivalence(True, f"{predicted} = {gold}: equal numerically")
    if Fraction(before_scale) == number:
        return Equivalence(None, f"{predicted} against {gold}: the question's unit decides", needs_question=True)
    return Equivalence(False, f"{predicted} ≠ {gold}: different numerically")


def _named_against_list(predicted: str, gold: str) -> Equivalence | None:
    """Named values against a list of values ("B = 3\\pi, E = 5\\pi" against "3\\pi, 5\\pi"), either way round: equal
    when every value is its item, in order (math-verify would compare them as sets, in any order)."""
    for named, listed in ((predicted, gold), (gold, predicted)):
        values = named_values(named) if "=" in named else None
        items = listed_values(listed) if values is not None else None
        if values is None or items is None:
            continue
        if len(values) != len(items):
            return Equivalence(False, f"{len(values)} named values against a list of {len(items)}")
        verdicts = [math_equivalence(value, item) for value, item in zip(values, items, strict=True)]
        if all(verdict.equal is True for verdict in verdicts):
            return Equivalence(True, f"{named} = {listed}: equal value by value, in order")
        different = next((verdict for verdict in verdicts if verdict.equal is False), None)
        if different is not None:
            return Equivalence(False, f"{named} ≠ {listed} in order: {different.explanation}")
        return Equivalence(None, f"{named} against {listed}: a value is undecidable; a judge can decide")
    return None


def _as_intervals(pred: _Answer, ref: _Answer) -> tuple[_Answer, _Answer]:
    """An inequality against an interval is compared as the interval it describes."""
    if looks_like_interval(ref.text) and not looks_like_interval(pred.text):
        interval = as_interval(pred.text)
        if interval is not None:
            return _Answer(interval, pred.unit, pred.degrees, pred.percent), ref
    if looks_like_interval(pred.text) and not looks_like_interval(ref.text):
        interval = as_interval(ref.text)
        if interval is not None:
            return pred, _Answer(interval, ref.unit, ref.degrees, ref.percent)
    return pred, ref


def _depth(text: str) -> int:
    """The deepest brace nesting in `text`."""
    depth = deepest = 0
    for char in text:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    return deepest


# ---------------------------------------------------------------- normalisation


@dataclass(frozen=True)
class _Answer:
    text: str  # normalised LaTeX, unit and degree sign removed
    unit: str = ""
    degrees: bool = False
    percent: bool = False


_DELIMS = lazy_regex(r"^\s*(?:\$+|\\\(|\\\[)|(?:\$+|\\\)|\\\])\s*$")
_TEXT_CMD = lazy_regex(r"\\(?:text|textbf|textrm|textnormal|mathrm|mbox)\s*\{([^{}]*)\}")
_DOLLAR = lazy_regex(r"(?<!\\)\$")
_THIN_COMMA = lazy_regex(r",\\!\s*")  # "32,\!349": LaTeX's thousands separator
_PERCENT = lazy_regex(r"\s*(?:\\?%|\b(?:percent|percentage|pct)\b)\s*$", re.I)
_SPACING = lazy_regex(r"\\[,;:! ]|~|\\left\b|\\right\b")
_FRAC = lazy_regex(r"\\[dt]frac")
_ONE_TOKEN_BRACES = lazy_regex(r"([\^_])\{(\w)\}")  # "x^{2}" is "x^2"
_DEGREE = lazy_regex(r"\^\s*\{?\s*\\circ\s*\}?|°|\\circ\b|\\degree\b|\s*\bdegrees?\b", re.I)
_ONE_UNIT = (
    r"(?:square\s+|cubic\s+)?"
    r"(?:units?|cm|mm|km|m|meters?|metres?|inches|inch|ft|feet|foot|yards?|miles?|kg|g|grams?|kilograms?|seconds?|s|"
    r"minutes?|min|hours?|h|days?|weeks?|years?|liters?|litres?|ml|milliliters?|dollars?|cents?|pounds?|ounces?)"
    r"(?:\s*\^\s*\{?\s*[23]\s*\}?|²|³)?"
)
# A unit, or a rate of units ("km/h", "m/s^2").
_UNIT = lazy_regex(rf"(?<=[\d}})\s])\s*(?P<unit>{_ONE_UNIT}(?:\s*/\s*{_ONE_UNIT})*)\s*$", re.I)
_BLANKS = lazy_regex(r"\s+")


def _normalize(raw: str) -> _Answer:
    """The answer without delimiters, spacing macros, a final period, its unit and its degree sign."""
    text = _DELIMS.sub("", _DELIMS.sub("", plain_math(raw).strip())).replace("\\$", "")  # \$ is a currency sign
    text = _THIN_COMMA.sub(",", _DOLLAR.sub("", text))
    text = _TEXT_CMD.sub(r" \1 ", text)
    text = _FRAC.sub(r"\\frac", _SPACING.sub(" ", text)).replace("−", "-").replace("π", "\\pi ")
    text = _ONE_TOKEN_BRACES.sub(r"\1\2", text)
    text = _BLANKS.sub(" ", text).strip().rstrip(".").strip()
    degrees = bool(_DEGREE.search(text))
    text = _DEGREE.sub("", text).strip()
    percent = bool(_PERCENT.search(text))
    text = _PERCENT.sub("", text).strip()
    unit = ""
    found = _UNIT.search(text)
    if found and found.start() > 0:
        unit = _BLANKS.sub(" ", found.group("unit").lower())
        text = text[: found.start()].strip()
    return _Answer(text, unit, degrees, percent)


# ---------------------------------------------------------------- fast path

_NUMBER = lazy_regex(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_TRAILING_DOTS = lazy_regex(r"([+-]?\d*\.\d+)(?:\.\.\.|…|\\ldots|\\cdots)")
_THOUSANDS = lazy_regex(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_COMMA_NUMBER = lazy_regex(r"[+-]?\d+,\d+")
_SLASH = lazy_regex(r"(?P<sign>[+-]?)(?P<num>\d+)\s*/\s*(?P<den>\d+)")
_LATEX_FRAC = lazy_regex(r"(?P<sign>[+-]?)\\frac\s*\{\s*(?P<num>\d+)\s*\}\s*\{\s*(?P<den>\d+)\s*\}")
# "3\\pi", "2\\sqrt{3}", "-4x": a number times one non-zero atom; two of these with the same atom compare by number.
_MULTIPLE = lazy_regex(r"(?P<coef>[+-]?(?:\d+(?:\.\d+)?)?)\s*\*?\s*(?P<atom>\\pi|\\sqrt\{[1-9]\d*\}|\\sqrt[1-9]|[a-z])")
_RADIANS = lazy_regex(r"\\pi|π|\bpi\b")
_PROSE = lazy_regex(r"(?<![\\a-zA-Z])[a-zA-Z]{3,}")
_MATH_WORDS = frozenset({"sin", "cos", "tan", "cot", "sec", "csc", "log", "sqrt", "frac", "infty", "inf", "pi"})


def _fast_path(pred: _Answer, ref: _Answer) -> Equivalence | None:
    """A verdict for the easy cases, or None to ask math-verify."""
    if pred.percent != ref.percent:
        return _percent_against_number(pred, ref)
    if pred.unit and ref.unit and pred.unit != ref.unit:
        return Equivalence(False, f"units differ: {pred.unit} vs {ref.unit}")
    same = pred.text.replace(" ", "") == ref.text.replace(" ", "")
    if same or (pred.text.casefold() == ref.text.casefold() and _is_prose(pred.text)):
        return Equivalence(True, f"the same after normalisation: {ref.text!r}")
    if pred.degrees != ref.degrees and (_RADIANS.search(pred.text) or _RADIANS.search(ref.text)):
        return Equivalence(None, "degrees against radians: a judge can decide", needs_question=True)
    numbers = _numbers(pred.text, ref.text)
    if numbers is not None:
        (left, right), note = numbers
        rounded = _rounded(pred.text, ref.text, left, right) if left != right else None
        if rounded is not None:
            return rounded
        verdict = left == right
        word = "equal" if verdict else "different"
        sign = "=" if verdict else "≠"
        return Equivalence(verdict, f"{pred.text} {sign} {ref.text}: {word} numerically{note}")
    multiple = _same_atom_multiples(pred.text, ref.text)
    if multiple is not None:
        return multiple
    if _is_prose(pred.text) or _is_prose(ref.text):
        return Equivalence(None, "text, not math: a judge can decide")
    return None


def _same_atom_multiples(pred: str, ref: str) -> Equivalence | None:
    """ "3\\pi" against "5\\pi" (or "2\\sqrt{3}" against "\\sqrt{3}"): equal exactly when the numbers are."""
    left, right = _MULTIPLE.fullmatch(pred.replace(" ", "")), _MULTIPLE.fullmatch(ref.replace(" ", ""))
    if left is None or right is None or left.group("atom") != right.group("atom"):
        return None
    numbers = [Fraction(c + "1" if c in ("", "+", "-") else c) for c in (left.group("coef"), right.group("coef"))]
    verdict = numbers[0] == numbers[1]
    word, sign = ("equal", "=") if verdict else ("different", "≠")
    return Equivalence(verdict, f"{pred} {sign} {ref}: {word} multiples of {left.group('atom')}")


def _percent_against_number(pred: _Answer, ref: _Answer) -> Equivalence:
    """ "28%" against "28" is equal (the sign on one side only is ignored, like a unit), and against "0.28" or
    "7/25" too: one quantity written as a percentage and as a fraction."""
    left, right = _plain_number(pred.text), _plain_number(ref.text)
    if left is None or right is None:
        return Equivalence(None, "a percentage against an expression: a judge can decide", needs_question=True)
    if left == right:
        return Equivalence(True, f"{pred.text} = {ref.text}: equal numerically (a percent sign on one side only)")
    percent, other = (left, right) if pred.percent else (right, left)
    if percent == other * 100:
        return Equivalence(True, f"{percent}% = {other}: equal (a percentage and the same fraction)")
    return Equivalence(False, f"{pred.text} ≠ {ref.text}: different numerically")


def _rounded(pred: str, ref: str, left: Fraction, right: Fraction) -> Equivalence | None:
    """A decimal against an exact value with no decimal that short: equal when it is that value rounded (3 or
    more significant digits), undecidable when as close with fewer, else None (compared exactly)."""
    for decimal, value, exact, exact_text in ((pred, left, right, ref), (ref, right, left, pred)):
        places = decimal_places(decimal)
        if places is None or decimal_places(exact_text) is not None or exact_at(exact, places[0]):
            continue
        verdict = rounding_verdict(value, places[0], places[1], exact)
        if verdict is True:
            return Equivalence(True, f"{decimal} = {exact_text} rounded to {places[0]} places: equal")
        if verdict is None:
            return Equivalence(
                None,
                f"{decimal} is {exact_text} rounded to {places[1]} significant digits only: a judge can decide",
                needs_question=True,
            )
    return None


def _numbers(pred: str, ref: str) -> tuple[tuple[Fraction, Fraction], str] | None:
    """Both values when both are plain numbers, reading "1,22" as 1.22 when the other side is a single number
    (against a list or an expression the comma separates items, and math-verify decides)."""
    left, right = _plain_number(pred), _plain_number(ref)
    note = ""
    if (left is None) != (right is None):
        left, right = (
            left if left is not None else _decimal_comma(pred),
            right if right is not None else _decimal_comma(ref),
        )
        note = " (a decimal comma)"
    return ((left, right), note) if left is not None and right is not None else None


def _decimal_comma(text: str) -> Fraction | None:
    """1.22 for "1,22", 0.111 for "0,111", 1000.99 for "1000,99": one comma that cannot be a thousands separator
    (that would be 1-3 digits, not starting with 0, then exactly three)."""
    match = _COMMA_NUMBER.fullmatch(text.replace(" ", ""))
    if match is None or _THOUSANDS.fullmatch(match.group(0)):
        return None
    return Fraction(match.group(0).replace(",", "."))


def _plain_number(text: str) -> Fraction | None:
    """The exact value of an integer, a decimal, "1,000", "3/4" or "\\frac{3}{4}"; None for anything else."""
    compact = text.replace(" ", "")
    if _NUMBER.fullmatch(compact):
        return Fraction(compact)
    decimal = _TRAILING_DOTS.fullmatch(compact)  # "0.0833..." (a decimal that goes on)
    if decimal:
        return Fraction(decimal.group(1))
    mixed = mixed_number(text)
    if mixed is not None:
        return mixed
    if _THOUSANDS.fullmatch(text):  # "32, 349" is a pair, not a thousands separator
        return Fraction(text.replace(",", ""))
    fraction = _SLASH.fullmatch(compact) or _LATEX_FRAC.fullmatch(compact)
    if fraction and int(fraction.group("den")) != 0:
        value = Fraction(int(fraction.group("num")), int(fraction.group("den")))
        return -value if fraction.group("sign") == "-" else value
    return None


def _is_prose(text: str) -> bool:
    """True when the answer has a word that is not a math function name ("isosceles", "not a function")."""
    return any(word.lower() not in _MATH_WORDS for word in _PROSE.findall(text))
