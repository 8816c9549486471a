"""The value a free-form reading states, written down as a careful reader would (classes G1, G2, G5, G6 of
`tests/data/readings_classes.jsonl`; README "How the numbers are made"):

- a unit after a value is set aside: "60 degrees" reads 60°, "4352 cm^2" 4352, "12 km/h" 12, "5 m/s^2" 5,
  "15\\text{ cm}" 15, "0.047 s" 0.047; a one-letter unit ("m", "s", "g", "h") only after a decimal or with a power
  or a "/" ("5 m" may be 5m, an expression in m, and stays); a variable is no unit ("26n", "3x", "2\\pi r");
- a chain of equations reads its last side when that is a value ("CS = (60 - P) - 8 = 52" reads 52, "x = 3 + 4 = 7"
  reads 7), or a closed expression that does not hold the named unknown ("P = 2(l + w) = 2l + 2w" reads 2l + 2w);
  a last side that holds the unknown ("x = 12 - y = 12 - (x + 2)") is no value; "P = 18n" reads 18n, but the
  equation of a line or curve ("y = 2x + 1") is the answer itself, as is an equation in its variables;
- arithmetic left undone on numbers alone, two operations or more ("(0.055/100) * 106 * 6.7 * 86400"), is no value:
  the model never gave one, and a factor of it must never match the gold;
- an answer phrase that only describes the answer ("the value of x found above", "z rounded to one decimal place",
  "the number of red cubes") is no value either;
- a value the response wrote with a Unicode vulgar fraction ("49⅓", "-¾") is shown as written (compared as 148/3).
Every step is a scan or a split of the answer: linear in its length.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.plain_math import VULGAR
from mathreel.core.extract.types import Extraction, quote, unparsed

if TYPE_CHECKING:
    from decimal import Decimal

UNEVALUATED = "arithmetic left undone"
_THOUSANDS_OK = lazy_regex(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_LONGEST = 300  # characters: a longer reading is no single value, left as it is (and no scan sees more)
DESCRIBED = "answer described, not stated"

_WRAPPED_UNIT = lazy_regex(r"\\(?:text|mathrm|mbox|textrm|rm)\s*\{\s*([^{}]*?)\s*\}")
_LONG_UNITS = (
    r"cm|mm|km|dm|kg|mg|ml|mL|min|mins|hr|hrs|sec|secs|ms|ft|yd|oz|lbs?|kph|mph|km/h"
    r"|units?|(?:centi|milli|kilo)?(?:meters?|metres?|grams?|liters?|litres?)|inch(?:es)?|feet|foot|yards?|miles?"
    r"|seconds?|minutes?|hours?|days?|weeks?|months?|years?|dollars?|cents?|pounds?|ounces?|tons?|kelvin|joules?"
    r"|newtons?|watts?|volts?|amps?|ohms?|hz|Hz|kHz|kJ|kW|kN|mA|mV|Pa|kPa|atm|cal|kcal|mol"
)
_SHORT_UNITS = r"m|s|g|h|L|J|N|W|V|A|K"
_POWER = r"(?:\s*\^\s*\{?\s*[23]\s*\}?)?"
_ONE_UNIT = rf"(?:(?:square|sq\.?|cubic)\s+)?(?:{_LONG_UNITS}|{_SHORT_UNITS}){_POWER}"
# The unit a value ends with: "cm", "cm^2", "square units", "km/h", "m/s^2", "g/cm^3", "m per s".
_UNIT_TAIL = lazy_regex(rf"(?<=[\d}}).\s])\s*(?P<unit>{_ONE_UNIT}(?:\s*(?:/|\bper\b)\s*{_ONE_UNIT})*)\s*$")
_SHORT_ONLY = lazy_regex(rf"(?:{_SHORT_UNITS})")
_DEGREE_WORD = lazy_regex(r"(?<=[\d}.])\s*(?i:degrees?)\s*$")
# A value: numbers, fractions, roots, pi, powers and arithmetic; no variable.
_COMMANDS = lazy_regex(r"\\(?:frac|dfrac|tfrac|sqrt|pi|times|cdot|div|left|right|circ)\b|°|π")
_VALUE = lazy_regex(r"[-+]?[\d.,\s+\-*/^(){}\[\]]*\d[\d.,\s+\-*/^(){}\[\]]*")
_DECIMAL = lazy_regex(r"[-+]?\d[\d,]*\.\d+")
# Arithmetic of numbers alone: "(0.055/100) * 106 * 6.7 * 86400", "2.5 \\times 60 + 3.2 \\times 45".
_ARITHMETIC_OPS = lazy_regex(r"\\times|\\cdot|\\div|[+\-*/×÷]")
_NUMBERS_ONLY = lazy_regex(r"(?:[\d.\s()\[\]+\-*/×÷]|\\times|\\cdot|\\div|\\left|\\right)+")
_MIN_OPERATIONS = 2
_FRACTION = lazy_regex(r"/\s*\d+(?![\d.])")
_WHOLE_BEFORE = lazy_regex(r"(?<![\d.])\d+$")
# Equations: a name ("x", "P", "x_1", "CS", "AB") on the left.
_NAME = lazy_regex(r"\s*(?:[A-Za-z](?:_\{?\w+\}?)?|[A-Z]{2,3})\s*")
_RELATION = lazy_regex(r"<|>|\\le|\\ge|\\ne|\\lt|\\gt|≤|≥|≠|!=|==|\\approx|≈")
_CURVE = lazy_regex(r"\s*[yz]\s*")  # "y = 2x + 1": the equation of a line or curve is the answer
_LETTERS = lazy_regex(r"[A-Za-z]")
_LIST = lazy_regex(r"(?<!\d),|,(?!\d{3})|\\q?quad\b|;|\b(?:and|or)\b")  # not a thousands comma
# An answer phrase that names what the answer is instead of giving it.
_DESCRIPTION = lazy_regex(
    r"(?i:(?:the\s+)?(?:(?:final|exact|numerical|numeric|required|resulting|calculated|computed)\s+)?"
    r"(?:value|number|length|sum|area|measure|size|product|result|amount|total|count|distance|difference|ratio"
    r"|perimeter|volume|height|width|quotient|solution|answer)\s+(?:of|for|from|we|obtained|found|computed|calculated"
    r"|above)\b"
    r"|[a-z](?:_\w+)?\s+(?:rounded|found|computed|calculated|obtained|as\s+(?:found|computed|calculated))\b)[^\d]*"
)
_SPELLED = lazy_regex(r"(?P<whole>\d+)\s+(?P<frac>\d/\d)(?![\d/])|(?<![\d/])(?P<alone>\d/\d)(?![\d/])")
_UNIT_NOTE = lazy_regex(r"; its unit '(?P<unit>[^']*)' set aside$")


def final_value(found: Extraction, response: str) -> Extraction:
    """`found` with its answer written as the value it states (see the module docstring), or unparsed when the
    answer states no value; an unread `found` is returned as it is."""
    answer = found.answer
    if answer is None or len(answer) > _LONGEST:
        return found
    text = answer.strip().rstrip(".").strip()
    described = found.method in ("answer-phrase", "answer-line") and not any(c.isdigit() for c in text)
    if described and _DESCRIPTION.fullmatch(text):
        return unparsed(DESCRIBED, f"{found.explanation}: it says what the answer is, not its value")
    if "=" in text:
        chained = _chain_value(text)
        if chained is None:
            why = f"{found.explanation}: the last side of {quote(text, 40)!r} still holds the unknown"
            return unparsed(UNEVALUATED, why)
        text = chained
    text, unit = _without_unit(text)
    if _unevaluated(text):
        why = f"{found.explanation}: {quote(text, 40)!r} is arithmetic the response never carries out"
        return unparsed(UNEVALUATED, why)
    if not response.isascii() and any(char in response for char in VULGAR):
        text = _as_written(text, response)
    if text == answer:
        return found
    note = f"; its unit '{unit}' set aside" if unit else ""
    return Extraction(text, found.method, found.explanation + note, found.span, found.strength)


_SCALE = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}
_SCALED = lazy_regex(
    r"(?P<number>-?\d[\d,]*(?:\.\d+)?)\s+(?P<scale>(?i:thousand|million|billion|trillion))(?:\s+[A-Za-z][A-Za-z ]*)?"
)


def scaled_number(text: str) -> str | None:
    """ "5 million", "2.5 billion dollars": a number with its scale word, as written (without words after it), or
    None. Read as such, so that no reader, math-verify included, takes the 5 of "5 million" for the answer."""
    match = _SCALED.fullmatch(text.strip())
    if match is None or not _THOUSANDS_OK.fullmatch(match.group("number")):
        return None
    return f"{match.group('number')} {match.group('scale').lower()}"


def scaled_value(text: str) -> tuple[Decimal, Decimal] | None:
    """(the value, the number before its scale word) of "5 million" (5000000, 5), or None."""
    match = _SCALED.fullmatch(text.strip())
    if match is None or not _THOUSANDS_OK.fullmatch(match.group("number")):
        return None
    from decimal import Decimal  # on first use: scoring choice answers never needs it

    number = Decimal(match.group("number").replace(",", ""))
    return number.scaleb(_SCALE[match.group("scale").lower()]), number


def unit_set_aside(found: Extraction) -> str:
    """The unit `final_value` set aside from `found`'s answer, or "" (the comparison holds it against a gold that
    has a unit of its own: "12 cm" is not "12 m")."""
    match = _UNIT_NOTE.search(found.explanation) if "set aside" in found.explanation else None
    return match.group("unit") if match else ""


def with_unit_if_gold_has_one(found: Extraction, gold: object) -> str | None:
    """The answer with the unit `final_value` set aside put back, when the gold ends with a unit of its own (then
    "12 cm" is held against "12 m"); else the answer as read."""
    unit = unit_set_aside(found)
    if not unit or found.answer is None or not isinstance(gold, str):
        return found.answer
    if _UNIT_TAIL.search(gold.strip().rstrip(".")) is None:
        return found.answer
    return f"{found.answer} {unit}"


def _chain_value(text: str) -> str | None:
    """The value an equation or a chain of them states (see the module docstring); the text unchanged when it is
    the answer itself; None when its last side still holds the unknown."""
    if _RELATION.search(text) or _LIST.search(text):
        return text  # an inequality, or values read together ("x = 2, y = 7", "x_1 = 3, \\quad x_2 = 4")
    sides = text.split("=")
    if any(not side.strip() for side in sides):
        return text
    first, last = sides[0], sides[-1].strip()
    first_is_name = _NAME.fullmatch(first) is not None
    if not _LETTERS.search(_COMMANDS.sub("", last)):
        if len(sides) == 2 and not first_is_name and _LETTERS.search(_COMMANDS.sub("", first)):
            return text  # "x + 2y - 7 = 0": an equation in its variables is the answer
        return last
    if not first_is_name:
        return text
    if len(sides) == 2 and _CURVE.fullmatch(first) and "x" in last:
        return text
    if len(sides) > 2 and _holds(last, first.strip()):
        return None
    return last


def _holds(expression: str, name: str) -> bool:
    """Whether `expression` holds the variable `name` ("12 - (x + 2)" holds x; "\\max" holds no x)."""
    return re.search(rf"(?<![A-Za-z\\]){re.escape(name)}(?![A-Za-z])", expression) is not None


def _without_unit(text: str) -> tuple[str, str]:
    """`text` without the unit it ends with, and that unit ("" when there is none or it may be a variable)."""
    if "\\" in text:
        text = _WRAPPED_UNIT.sub(r" \1", text).strip()
    degree = _DEGREE_WORD.search(text)
    if degree is not None and degree.start() > 0:
        return text[: degree.start()].strip() + "°", ""
    found = _UNIT_TAIL.search(text)
    if found is None or found.start() == 0:
        return text, ""
    value, unit = text[: found.start()].strip(), " ".join(found.group("unit").split())
    if not _VALUE.fullmatch(_COMMANDS.sub(" ", value)):
        return text, ""  # "2\\pi r cm": not a value on its own
    if _SHORT_ONLY.fullmatch(unit) and not _DECIMAL.fullmatch(value):
        return text, ""  # "5 m": perhaps 5m, an expression in m
    return value, unit


def _unevaluated(text: str) -> bool:
    """Whether `text` is arithmetic of numbers alone with two or more operations still to do."""
    if not _NUMBERS_ONLY.fullmatch(text):
        return False
    operations = 0
    for match in _ARITHMETIC_OPS.finditer(text):
        before = text[: match.start()].rstrip()
        if not before or not (before[-1].isdigit() or before[-1] in ").]"):
            continue  # a sign, not an operation
        if match.group(0) == "/" and _FRACTION.match(text, match.start()) and _WHOLE_BEFORE.search(before):
            continue  # "1/2": a fraction of two whole numbers is a value
        operations += 1
    return operations >= _MIN_OPERATIONS


def _as_written(text: str, response: str) -> str:
    """ "49 1/3" shown as "49⅓" when the response wrote it so (the readers read vulgar fractions as "49 1/3")."""
    spelled_to_sign = {value: sign for sign, value in VULGAR.items()}

    def written(match: re.Match[str]) -> str:
        if match.group("alone"):
            sign = spelled_to_sign.get(match.group("alone"))
            return sign if sign and sign in response else match.group(0)
        sign = spelled_to_sign.get(match.group("frac"))
        mixed = f"{match.group('whole')}{sign}" if sign else ""
        return mixed if mixed and mixed in response else match.group(0)

    return _SPELLED.sub(written, text)
