"""A stated answer against the model's own value, and sentences that state two values: conflicts, never guesses.

The nearest-option rule. A model that works out a value no option has and then names a letter is read as that letter
only when it says it picks the nearest option ("closest", "nearest", "approximately", a rounding remark) and that
option is the single nearest one to its value. A letter far from its own value ("= 8.4 men ... we round up. The
answer is (A)" where A is 84 men and 36 men is nearer), or one given without a word of approximation, is no reading.
Options count as values here when each is one number with the same words around it ("84 men", "$1,200", "0.4"), or
when each is a numeric expression or a point of them ("\\frac{\\sqrt{3}}{12}", "3√3/4", "(1/4, 0)", "30^\\circ"),
then compared with the value the working concludes in the same way ("V = √3/24", "则焦点坐标为 (1/8, 0)").

Two values in one concluding sentence ("the base is 4 and the height is 3", "is 3 gallons per minute, which is
approximately 0.4") are no single answer either: neither is read. The same value twice ("x = 3, so the answer is 3")
and a chain of working ("50 / 20 = 2.5") are one value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import pairwise
from re import Pattern

from mathreel.core.extract.free_sentence import is_math, stated_value
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.option_values import (
    CURRENCY,
    SCIENTIFIC,
    currency,
    date_at_end,
    eliminates,
    expression_at_end,
    in_unknowns,
    is_none_option,
    number_value,
    opens_expression,
    option_quantity,
    plain_option,
    stops_open,
    unfinished_answer,
    unit_name,
)
from mathreel.core.extract.types import quote

_QUANTITY = lazy_regex(
    r"\s*(?P<cur>\$?)\s*(?P<n>[-−]?\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[A-Za-z/%°][A-Za-z/%° ]{0,24})?\s*"
)
_DIGIT = lazy_regex(r"\d")
# Where an option that is a value can start: a number or an amount after at most two words, a date ("After 24").
_VALUE_START = lazy_regex(r"[ \t]*(?:[A-Za-z]+[ \t]+){0,2}(?:[-−$£€₹]|Rs|INR|\d|\\)")
_NUMBER = lazy_regex(r"[-−]?\d[\d,]*(?:\.\d+)?")
# A value ends the text: "= 8.4 men", "= $1,248", "is 30", "= 1/2" (unit words after it, at most three).
_VALUE_AT_END = lazy_regex(
    r"(?<![\w.^_{/])(?<!\^-)(?<!\^−)(?P<cur>(?:"
    + CURRENCY
    + r"[ \t]*)?)(?P<n>[-−]?\d[\d,]*(?:\.\d+)?(?:/[1-9]\d*(?![\d.])|"
    + SCIENTIFIC
    + r")?)[ \t]*"
    r"(?P<unit>[A-Za-z/%°]+(?:\^\d)?(?:[ \t]+[A-Za-z/]+(?:\^\d)?){0,3})?\Z"
)
_CLOSERS = lazy_regex(r"(?:[ \t]*(?:\\[)\]]|\$\$?|\*\*|[.。:)]))+[ \t]*\Z")
_ASIDE = lazy_regex(r"(?<=\d),[ \t]*(?i:which|that)\b[^\d=≈]{1,50}\Z")
_TRAILING_MARK = lazy_regex(r",?[ \t]*(?i:approximately|roughly|or\s+so)[ \t.]*\Z")
_LEAD_IN = lazy_regex(
    r"(?:,?[ \t]*(?i:which|this|that)[ \t]+(?i:is[ \t]+)?(?i:closest|nearest)[ \t]+(?i:to)[ \t]+"
    r"(?i:(?:the[ \t]+)?(?:option|choice|answer)[ \t]*)?"  # "= 48, which is closest to option (C)"
    r"|(?:,?[ \t]*(?i:so|thus|therefore|hence)\b,?)?[ \t]*(?i:(?:the|my)[ \t]+)?"
    r"(?i:(?:closest|nearest|best|correct|final|right)[ \t]+)?)[ \t]*\Z"
)
_DRAWN = lazy_regex(r"\s*(?i:so|thus|therefore|hence)\b")
_RELATIVE_DAY = lazy_regex(r"(?i:\b(?:ago|later|before|after|from|yesterday|tomorrow|next|previous|last)\b)")
_CONCLUDES = lazy_regex(r"[ \t*]*(?i:answer|final\s+answer)[ \t*]*[:：]")  # "Answer: The price must rise by 30%."
_PIECES = lazy_regex(r"(?<=[.!?])(?<!Rs\.)(?<!vs\.)[ \t]+|(?<=[。！？])[ \t]*|\n+")  # "Rs. 1200" is one piece
_COMPUTED = lazy_regex(
    r"=|≈|(?i:\b(?:so|thus|therefore|hence|total|gives|comes\s+to|result|rounds?\s+to|we\s+(?:get|obtain|find))\b)"
    r"|(?i:\bwill[ \t]+(?:travel|cover|take|cost|need)\b)"  # "will travel 396 m in that time"
    r"|(?i:\bis[ \t]+equal[ \t]+to\b)"  # "19/30 hours, which is equal to 38 minutes"
    r"|,[ \t]*or[ \t]+(?=[-−$£€₹\d])"  # "... times 0.002, or 38 × 10^8 dynes"
)
# A result followed by more words (class J4): "a total of 10 ties in order to have ...", "will travel 396 m in that
# time": the value after a result word, then a unit word, then a phrase of purpose or time with no number in it.
_RESULT_THEN_WORDS = lazy_regex(
    r"(?:=|≈|(?i:\b(?:total[ \t]+of|will[ \t]+(?:travel|cover|take|cost|need)|we[ \t]+(?:get|obtain|find)|is)))[ \t]*"
    r"(?P<cur>(?:" + CURRENCY + r"[ \t]*)?)(?P<n>[-−]?\d[\d,]*(?:\.\d+)?(?:" + SCIENTIFIC + r")?)[ \t]*"
    r"(?P<unit>(?!(?i:more|less|fewer|times|than|greater|smaller|per|of)\b)[A-Za-z]+)"
    r"[ \t]+(?i:in|for|to|during|after|before|at|when|altogether|so[ \t]+that)\b[^\d=≈]{0,80}\Z"
)
_NAMED_PAIR = lazy_regex(r"\b[A-Za-z]\s*=\s*[-−]?\d[\d.,]*[\s$]*(?:,|\band\b)[\s$]*[A-Za-z]\s*=")
# The model says its pick is the nearest, or rounds: "closest option", "approximately", "round up to".
_NEAREST_WORDS = lazy_regex(
    r"(?i:\b(?:closest|nearest|approx\w*|roughly|estimated?)\b|\bround(?:s|ed|ing)?\b)|≈|\\approx"
)
_WINDOW = 600  # characters before the final statement that hold its concluding lines
_STEPS = 4  # pieces (sentences or lines) walked back over: lead-ins, "Final Answer:", a rounding remark
_SKIP_SHORT = 80  # characters: a piece without a number this short is a lead-in, passed over
_MIN_OPTIONS = 3
_END = 80  # characters at a text's end searched for what ends it (a lead-in, closers, the value): linear, short


@lru_cache(maxsize=256)
def _quantities(
    items: tuple[tuple[str, str], ...], outliers: int = 0
) -> tuple[dict[str, tuple[float, int]], str] | None:
    kinds: dict[tuple[str, str], dict[str, tuple[float, int]]] = {}
    spare = 0  # "None of these": the one option without a value allowed
    for letter, text in items:
        found = option_quantity(text) if _VALUE_START.match(text) else None
        if found is None:
            if not spare and is_none_option(text):
                spare += 1
                continue
            return None
        kinds.setdefault((found[2], found[3].strip().lower()), {})[letter] = found[:2]
    if len(kinds) > 1 + outliers:
        return None
    (_pre, unit), values = max(kinds.items(), key=lambda kind: len(kind[1]))
    others = sum(len(group) for group in kinds.values()) - len(values)
    if len(values) < _MIN_OPTIONS or others > outliers or len(values) < 2 * others:
        return None
    return values, unit


def quantities(options: Mapping[str, str]) -> tuple[dict[str, tuple[float, int]], str] | None:
    """(letter -> (number, decimal places), the words they share: "$", "men") when every option is one number with
    the same words around it, else None."""
    return _quantities(tuple(options.items()))


def quantities_of_kind(options: Mapping[str, str]) -> tuple[dict[str, tuple[float, int]], str] | None:
    """As `quantities`, where at most `_OUTLIERS` options are values of another kind ("1.9 ohms" among nine "N
    watts"; two "N/m^2" among "N mm Hg"): the options of the main kind only. The outliers give no evidence either
    way: a letter that is one, or a value in their unit, is never held against the working."""
    return _quantities(tuple(options.items()), _OUTLIERS)


_OUTLIERS = 2  # options of another kind in a list of one kind, left out of the comparison


def _same_unit(said: str, shared: str) -> bool:
    """Whether a value written with `said` ("$", "men", "gallons per minute") is in the options' unit: the same
    first word, plurals aside; a bare number only where the options are bare numbers too ("area is 36" is not
    "12 cm")."""
    said, shared = said.strip(), shared.strip().lower()
    if not shared:
        return True
    if not said or (shared == "date") != (said == "date"):
        return False
    if unit_name(said.split()[0]) == unit_name(shared.split()[0]) or "".join(said.lower().split()) == "".join(
        shared.split()
    ):
        return True  # "1 W" in watts, "750 mmHg" in mm Hg
    short, long = sorted((said.lower().split()[0], shared.split()[0]), key=len)
    return long.startswith(short) and long[len(short) :] in ("", "s", "es")


def _float(number: str) -> float:
    """The number written ("1,248", "−3", "22 × 10^8", and "1/2" as the fraction it is: read as 2, "P = 1/2" was a
    conflict)."""
    top, _, bottom = number.replace("−", "-").partition("/")
    return number_value(top)[0] / float(bottom.replace(",", "")) if bottom else number_value(top)[0]


def _rounded_by_model(value: float, places: int, values: Mapping[str, tuple[float, int]]) -> list[str]:
    """The options within half a unit of the last place the model wrote its value to: 71.8 for "72" (whole
    numbers), never 71.8 for "71"; the caller reads the letter only when it is the one such option."""
    half = 0.5 * 10.0**-places
    return [other for other, option in values.items() if abs(value - option[0]) <= half * (1 + 1e-9)]


def _same(value: float, option: tuple[float, int]) -> bool:
    """Equal within rounding: 0.01% of the option, or half a unit of its last decimal place ("8.46" and "8.5")."""
    number, places = option
    return abs(value - number) <= max(1e-4 * abs(number), 0.5 * 10.0**-places)


def against_value(
    value: float, unit: str, marked: bool, letter: str, options: Mapping[str, str], places: int | None = None
) -> str | None:
    """Why `letter` is not the answer to the model's own `value` in `unit` (see the module docstring), or None: it
    is that option's value, the value is in another unit, the model marks its pick as the nearest (`marked`) and
    it is the single nearest option, or the model wrote its value to `places` decimals and the letter's option is
    the only one that rounds to it ("0.718, or 72%" and the option "71.8%")."""
    found = quantities_of_kind(options)
    if found is None or letter not in found[0] or not _same_unit(unit, found[1]):
        return None
    values = found[0]
    if found[1] == "date":
        hits = [other for other, option in values.items() if value == option[0]]  # a day is a day: no rounding
    else:
        hits = [other for other, option in values.items() if _same(value, option)]
    if letter in hits or (not hits and places is not None and _rounded_by_model(value, places, values) == [letter]):
        return None
    shown = f"{value:g}"
    if hits:
        return f"its own value {shown} is option {hits[0]}'s ({options[hits[0]]!r})"
    gaps = {other: abs(value - option[0]) for other, option in values.items()}
    low = min(gaps.values())
    nearest = [other for other, gap in gaps.items() if gap <= low * (1 + 1e-9)]
    if marked and nearest == [letter]:
        return None  # the closest option, picked as such
    if marked:
        return f"its own value {shown} is no option's, and the nearest is {' or '.join(nearest)}, not {letter}"
    return f"its own value {shown} is no option's"


def _piece_before(head: str, holds: Pattern[str]) -> tuple[str, bool] | None:
    """The last piece (sentence or line) of `head` that `holds` a value, walking back over at most `_STEPS` pieces
    without one: short lead-ins ("Final Answer:") and remarks of nearness ("we round up."); with whether such a
    remark was passed. None when prose without a value ends the walk."""
    marked = False
    steps = 0
    for piece in reversed([piece for piece in _PIECES.split(head) if piece.strip()]):
        piece = piece.strip()
        if stops_open(piece) and not unfinished_answer(piece):
            # "... you would break even at the end of\nTherefore, among A through E, the answer is D."; but "The
            # answer is (" right before the harness's answer line is a lead-in: the conclusion is above it
            return None
        if eliminates(piece):
            continue  # "Choices A, B and D are wrong because ...": the result before it still holds
        steps += 1
        if steps > _STEPS:
            return None
        if holds.search(piece) is not None:
            return piece, marked
        if _NEAREST_WORDS.search(piece):
            marked = True
        elif len(piece) >= _SKIP_SHORT:
            return None
    return None


def value_before(text: str, pos: int) -> tuple[float, str, str, bool] | None:
    """The value the working ends in right before `pos` (a final statement's start), with its unit ("$", "men"),
    that piece of text and whether a word of approximation or rounding goes with it: lead-ins ("Final Answer:",
    "Thus the closest") and a rounding remark ("we round up to the nearest whole number.") are passed over. None
    when the piece before is not a computed result ending in a value."""
    start = max(0, pos - _WINDOW)
    head = text[start:pos]
    lead = _LEAD_IN.search(head, max(0, len(head) - _END))
    marked = lead is not None and _NEAREST_WORDS.search(lead.group(0)) is not None
    drawn = lead is not None and _DRAWN.search(lead.group(0)) is not None  # "Therefore, the answer is": from it
    head = head[: lead.start()] if lead else head
    walked = _piece_before(head, _DIGIT)
    if walked is None:
        return None
    piece, passed = walked
    closing = _CLOSERS.search(piece, max(0, len(piece) - _END))
    body = piece[: closing.start()] if closing else piece
    aside = _ASIDE.search(body, max(0, len(body) - _END))
    if aside:  # "= 6, which none of them gives": the 6 is the result
        passed = passed or _NEAREST_WORDS.search(aside.group(0)) is not None
        body = body[: aside.start()]
    trailing = _TRAILING_MARK.search(body, max(0, len(body) - _END))
    if trailing:
        body, passed = body[: trailing.start()], True
    body = body.rstrip(" \t,")
    if "\\" in body or "{" in body:
        body = plain_option(body)  # "= 396 \\mathrm{~m}", "6 \\times 10^{8}"
    computed = drawn or _COMPUTED.search(body) is not None or _CONCLUDES.match(body) is not None
    marked = marked or passed or _NEAREST_WORDS.search(body) is not None
    day = date_at_end(body) if "/" in body else None
    if day is not None and (computed or _RELATIVE_DAY.search(body)):
        return day, "date", piece, marked  # "A month ago from today is 11/30/1929."
    if not computed or _NAMED_PAIR.search(body):
        return None
    found = _VALUE_AT_END.search(body, max(0, len(body) - _END))
    if found is None and not in_unknowns(body):
        found = _RESULT_THEN_WORDS.search(body, max(0, len(body) - 2 * _END))  # "a total of 10 ties in order to ..."
        if found is not None:
            return _float(found.group("n")), currency(found.group("cur").strip()) + found.group("unit"), piece, marked
    if found is None or in_unknowns(body):
        return None  # no value at its end, or "a·64 − b·16 + 2 − 1 = 5": an equation's given
    if opens_expression(body, found.start("n"), found.end("n")):
        worked = expression_at_end(body)  # "so the probability is 1 / 2e": 1/(2e), never 2
        return None if worked is None else (worked, "", piece, marked)
    return _float(found.group("n")), currency(found.group("cur").strip()) + (found.group("unit") or ""), piece, marked


def _places(piece: str, letter: str, options: Mapping[str, str]) -> int | None:
    """The decimal places the model wrote its final value to, when it wrote the same value more finely right before
    it ("0.718, or 72%": the letter's option 71.8% is the finer writing); None otherwise: a value written once ("=
    71") is held to the option's own rounding."""
    numbers = _NUMBER.findall(piece[-_END:])
    found = quantities_of_kind(options)
    if len(numbers) < 2 or found is None or letter not in found[0]:
        return None
    finer, option = _float(numbers[-2]), found[0][letter]
    if not (_same(finer, option) or (found[1] == "%" and _same(finer * 100, option))):
        return None
    return len(numbers[-1].partition(".")[2])


def letter_against_working(
    text: str, span: tuple[int, int, int], letter: str, options: Mapping[str, str]
) -> tuple[str, str] | None:
    """(what is stated, why it is contradicted) when the final statements naming `letter` (`span`: where the first
    starts, where the last starts and ends) follow a value of the model's own that does not give that option by the
    nearest-option rule, and no check right before the last one gives it ("Let me check: 4 + 30 = 34. Yes, the
    answer is (B)."); None otherwise. The options are looked at last: most statements follow no value."""
    first, last, last_end = span
    if _DIGIT.search(text, max(0, first - _WINDOW), first) is None:
        return None
    own = options.get(letter)
    if own is None or _VALUE_START.match(own) is None or option_quantity(own) is None:
        return None  # the letter's option is no single number, so the options are not `quantities`
    found = quantities_of_kind(options)  # once per question, and cheap: the working's search (`value_before`) is not
    if found is None or letter not in found[0]:
        return None  # not options of one number each (most are not): `against_value` finds nothing against it
    before = value_before(text, first)
    if before is None:
        return None
    value, unit, piece, marked = before
    marked = marked or _NEAREST_WORDS.search(text, first, last_end) is not None
    why = against_value(value, unit, marked, letter, options, _places(piece, letter, options))
    if why is None:
        return None
    recheck = value_before(text, last) if last != first else None
    if (
        recheck is not None
        and not _restates_first(text, recheck[2], first, last)
        and against_value(recheck[0], recheck[1], marked or recheck[3], letter, options) is None
    ):
        return None
    return f"the letter {letter} ({options[letter]!r})", f"the working before it ends in {quote(piece, 50)!r}: {why}"


def _restates_first(text: str, piece: str, first: int, last: int) -> bool:
    """Whether the `piece` a later statement's recheck found opens before the first statement (at `first`): it is
    that statement restating its own option ("Therefore, the answer is (D) 12/02/1929.\nTherefore, among A through
    F, the answer is D."), or the working itself, not a check made after it."""
    return 0 <= text.rfind(piece, max(0, last - _WINDOW), last) < first


def box_against_letter(content: str, between: str, letter: str, options: Mapping[str, str]) -> str | None:
    """Why a letter stated after a box holding no option's value (`content`; `between` is the text from the box to
    the end of the statement) is no reading, or None when it is the model's nearest pick: a number whose nearest
    option is the letter's, marked as such, or any value the model says it approximates ("the closest option is (A)")
    where the options are not numbers."""
    marked = _NEAREST_WORDS.search(between) is not None
    number = _QUANTITY.fullmatch(content.replace("\\$", "$").replace("\\%", "%"))
    found = quantities(options)
    if number is not None and found is not None:
        unit = number.group("cur") + (number.group("unit") or "") or found[1]  # a box holds the bare number
        return against_value(_float(number.group("n")), unit, marked, letter, options)
    if marked:
        return None
    return f"the box holds {quote(content, 40)!r}, no option's, and the letter after it is another answer"


_CLAUSES = lazy_regex(r";|(?:,\s*|\s+|^)(?i:so|thus|hence|therefore)\b,?")
_PARTS = lazy_regex(r"\s+(?i:and)\s+|,\s*(?i:which|that)\s+")
_AND_PARTS = lazy_regex(r"\s+(?i:and)\s+")
_STATED_NUMBER = lazy_regex(
    r"(?:(?i:\b(?:is|are|was|were|equals|be)\b)(?:\s+(?i:approximately|about|roughly|exactly))?|=|≈)\s*\$?"
    r"(?P<n>[-−]?\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*[-+*/×^])"
)
_WORKING = lazy_regex(r"[\d()+\-*/^\\×·]")  # the left side of an equation that is working, not a name
_ANSWER_WORD = lazy_regex(r"(?i:\banswer\b)")


def two_values(sentence: str, restated: bool = False) -> tuple[str, str] | None:
    """The first two different values the last clause of `sentence` states in its parts ("the base is 4 and the
    height is 3"; with `restated`, also "is 3 gallons per minute, which is approximately 0.4"), or None: one value,
    the same value twice, values named together ("p = 4 and q = -3"), or a part that names the answer. A value
    restated in other units ("3 m/s, which is 10.8 km/h") is one answer to a free-form reader; the option-text
    reading, which must match one option, passes `restated`."""
    parts = _PARTS if restated else _AND_PARTS
    if sentence.isascii():
        lower = sentence.lower()
        if "and" not in lower and (not restated or ("which" not in lower and "that" not in lower)):
            return None  # no word that joins two parts (what `parts` needs), so no two values: skip the splits
    clauses = [clause for clause in _CLAUSES.split(sentence) if clause and clause.strip()]
    if not clauses:
        return None
    clause = clauses[-1]
    if parts.search(clause) is None or _ANSWER_WORD.search(clause):
        return None
    whole = stated_value(clause)
    if whole is not None and "=" in whole and "," in whole:
        return None  # named values, read together
    said: list[tuple[str, float]] = []
    for part in parts.split(clause):
        if "=" in part and _WORKING.search(part.rpartition("=")[0]):
            continue  # "2(w + 2w) = 36 and w = 6": an equation of the working, not a value stated
        value = stated_value(part)
        if value is None:  # "is 3 gallons per minute": a value with prose units, which `stated_value` leaves
            plain = _STATED_NUMBER.search(part)
            value = plain.group("n") if plain else None
        number = _NUMBER.search(value) if value else None
        if value is None or number is None:
            continue
        said.append((value, _float(number.group(0))))
    for first, second in pairwise(said):
        if first[1] != second[1]:
            return first[0], second[0]
    return None


def phrase_value(rest: str) -> str | None:
    """The value an answer phrase names first when another quantity follows it: "(The answer is) 5 and the
    remainder is 0" -> "5"; None when the phrase's text is not so made."""
    head, joined, tail = rest.partition(" and ")
    head = head.strip()
    if not joined or not head or not is_math(head) or not any(char.isdigit() for char in head):
        return None
    return head if stated_value(tail) is not None or _STATED_NUMBER.search(tail) else None


def concluding_sentence(text: str) -> str:
    """The last sentence of `text` (its last line, from its last sentence end)."""
    line = text.rstrip().rpartition("\n")[2]
    pieces: Sequence[str] = [piece for piece in _PIECES.split(line) if piece.strip()]
    return pieces[-1] if pieces else line


# The nearest-option rule over options that are numeric expressions ("\frac{\sqrt{3}}{12}", "3√3/4", "(1/4, 0)",
# "30^\circ", "\frac{\pi}{2}"): each option and the model's concluding value are evaluated by a small parser (numbers,
# + - * / and juxtaposition, \frac, \sqrt and √, π, parentheses; no names, no powers) and compared as numbers or points.
_DEGREES = lazy_regex(r"\s*(?:°|\^\s*\{?\s*\\circ\s*\}?)")
_MATH_WRAP = lazy_regex(r"\\[()\[\]]|\$|\\left|\\right|\\[,;! ]|\\[dt]frac")
_TOKEN = lazy_regex(r"\s*(\d+(?:\.\d+)?|\\frac|\\sqrt|\\pi|\\cdot|\\times|[√π()+\-−*/×·{}])")
# A concluding value after "=" / "is" / "为" ends a piece: "V = \frac{\sqrt{3}}{24}.", "the focus is (1/8, 0)".
_STATED_AT_END = lazy_regex(
    r"(?:=|≈|\bis\b|\bequals\b|为|是)(?P<v>(?:(?!\b(?:is|equals)\b|为|是)[^=≈]){1,60}?)[\s.。,，:;*$]*\Z"
)
# Or, in a piece of working ("so", "thus", "="), a value closing it after a blank: "so ... has area √3/12."
_LAST_WORD = lazy_regex(r"\s(?P<v>[^\s=]{1,40}?)[\s.。,，:;*$]*\Z")
_COMPUTED_ZH = lazy_regex(r"则|因此|所以|故|得")  # "则焦点坐标为 (1/8, 0)": a result, as "so" and "=" are
_TOKEN_OR_NAME = lazy_regex(r"\s*(\d+(?:\.\d+)?|\\frac|\\sqrt|\\pi|\\cdot|\\times|[√π()+\-−*/×·{}]|[A-Za-z])")
_MATH_CHAR = lazy_regex(r"[\d√π]|\\pi|\\sqrt|\\frac")


class _Parser:
    """A recursive-descent reading of one numeric expression; `value` is None for anything else."""

    def __init__(self, text: str, names: Mapping[str, float] | None = None) -> None:
        self.tokens: list[str] = []
        self.names = names or {}
        at = 0
        text = text.rstrip()
        token = _TOKEN_OR_NAME if names else _TOKEN
        while at < len(text):
            found = token.match(text, at)
            if found is None:
                self.tokens = []
                self.bad = True
                return
            self.tokens.append(found.group(1))
            at = found.end()
        self.bad = not self.tokens
        self.at = 0

    def value(self) -> float | None:
        if self.bad:
            return None
        try:
            result = self._sum()
        except (ValueError, ZeroDivisionError, IndexError):
            return None
        return result if self.at == len(self.tokens) else None

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self, token: str) -> None:
        if self._peek() != token:
            raise ValueError(token)
        self.at += 1

    def _sum(self) -> float:
        total = self._product()
        while self._peek() in ("+", "-", "−"):
            sign = self.tokens[self.at]
            self.at += 1
            total = total + self._product() if sign == "+" else total - self._product()
        return total

    def _product(self) -> float:
        total = self._unary()
        while True:
            token = self._peek()
            if token in ("*", "×", "·", "\\cdot", "\\times"):
                self.at += 1
                total *= self._unary()
            elif token == "/":
                self.at += 1
                total /= self._unary()
            elif token is not None and token not in ("+", "-", "−", ")", "}"):
                total *= self._unary()  # juxtaposition: "3√3", "2\pi"
            else:
                return total

    def _unary(self) -> float:
        if self._peek() in ("-", "−"):
            self.at += 1
            return -self._unary()
        return self._atom()

    def _atom(self) -> float:
        token = self._peek()
        if token is None:
            raise ValueError("end")
        self.at += 1
        if token in ("π", "\\pi"):
            return math.pi
        if token == "\\frac":
            top = self._group()
            return top / self._group()
        if token in ("\\sqrt", "√"):
            inside = self._group() if self._peek() in ("{", "(") else self._atom()
            return math.sqrt(inside)
        if token in ("(", "{"):
            self.at -= 1
            return self._group()
        if token[0].isdigit():
            return float(token)
        if token in self.names:
            return self.names[token]  # "3D/(M-3)": a one-letter unknown, given a value to compare expressions
        raise ValueError(token)

    def _group(self) -> float:
        opening = self._peek()
        closing = {"{": "}", "(": ")"}.get(opening or "")
        if closing is None:
            return self._atom()  # "\frac12", "\sqrt3"
        self.at += 1
        inside = self._sum()
        self._take(closing)
        return inside


def expression_value(text: str) -> tuple[float, ...] | None:
    """The number (a 1-tuple) or point an option or concluding value written as a numeric expression stands for:
    "\\frac{\\sqrt{3}}{12}", "3√3/4", "0.5", "(\\frac{1}{4}, 0)", "30^\\circ" (degrees, as the number); None for
    anything else ("2a + 1", "x = 3", a unit word).

    A text that opens with an ASCII letter ("The man waves 3 times", most options) is none: the edits below only
    touch "\\", "$", "°", "^" and blanks, so it still opens with that letter, where no token starts."""
    opening = text.lstrip()[:1]
    if opening.isascii() and opening.isalpha():
        return None
    return _expression_value(text)


@lru_cache(maxsize=1024)
def _expression_value(text: str) -> tuple[float, ...] | None:
    text = _DEGREES.sub("", _MATH_WRAP.sub(lambda m: "\\frac" if "frac" in m.group(0) else " ", text)).strip()
    if not text or len(text) > 80:
        return None
    if text[0] == "(" and text[-1] == ")" and "," in text:
        parts = text[1:-1].split(",")
        values = [_Parser(part).value() for part in parts]
        return tuple(v for v in values if v is not None) if None not in values and len(parts) <= 3 else None
    value = _Parser(text).value()
    return None if value is None else (value,)


def _expression_before(text: str, pos: int) -> tuple[tuple[float, ...], str, bool] | None:
    """The value (as `expression_value`) the working states as its result right before `pos`, that piece, and
    whether a word of nearness goes with it; lead-ins without a value are passed over, as in `value_before`."""
    walked = _piece_before(text[max(0, pos - _WINDOW) : pos], _MATH_CHAR)
    if walked is None:
        return None
    piece, marked = walked
    if _COMPUTED.search(piece) is None and _COMPUTED_ZH.search(piece) is None:
        return None  # "We are told that the base is 4.": a given value, not a result
    found = _STATED_AT_END.search(piece, max(0, len(piece) - _END))
    found = found or _LAST_WORD.search(piece, max(0, len(piece) - _END))
    value = expression_value(found.group("v")) if found else None
    if value is None:
        return None
    return value, piece, marked or _NEAREST_WORDS.search(piece) is not None


def letter_against_expression(
    text: str, span: tuple[int, int, int], letter: str, options: Mapping[str, str]
) -> tuple[str, str] | None:
    """As `letter_against_working`, for options that are numeric expressions or points of them ("\\frac{\\sqrt{3}}{12}",
    "(1/4, 0)"): (what is stated, why it is contradicted) when the model's concluding value is no option's and the
    letter is not its single nearest option picked as such; None when it is the letter's value, or anything is not
    so written. Only ever turns a reading into a conflict."""
    first, _last, last_end = span
    if quantities(options) is not None or letter not in options:
        return None  # one-number options: `letter_against_working`'s own rule
    if expression_value(options[letter]) is None:
        return _against_symbols(text, first, letter, options)  # most options are words: it gives up at once
    values = {other: expression_value(option) for other, option in options.items()}
    sizes = {len(value) for value in values.values() if value is not None}
    if None in values.values() or len(values) < _MIN_OPTIONS or len(sizes) != 1:
        return None
    before = _expression_before(text, first)
    if before is None or len(before[0]) != sizes.pop():
        return None
    value, piece, marked = before
    marked = marked or _NEAREST_WORDS.search(text, first, last_end) is not None
    gaps = {other: math.dist(value, option) for other, option in values.items() if option is not None}
    scale = max(1.0, *(abs(part) for part in value))
    hits = [other for other, gap in gaps.items() if gap <= 1e-4 * scale]
    if letter in hits:
        return None
    shown = ", ".join(f"{part:.4g}" for part in value)
    if hits:
        why = f"its own value {shown} is option {hits[0]}'s ({options[hits[0]]!r})"
    else:
        low = min(gaps.values())
        nearest = [other for other, gap in gaps.items() if gap <= low * (1 + 1e-9)]
        if marked and nearest == [letter]:
            return None
        why = f"its own value {shown} is no option's" + (
            f", and the nearest is {' or '.join(nearest)}, not {letter}" if marked else ""
        )
    return f"the letter {letter} ({options[letter]!r})", f"the working before it ends in {quote(piece, 50)!r}: {why}"


# Options that are expressions in one-letter unknowns ("D/(M-3)", "3D/M", "MD/3"; class J6): each is evaluated at
# two points (every unknown given a value), and so is the expression the working concludes in ("= 3D/(M-3)"); two
# expressions are the same when they agree at both.
_UNKNOWNS = lazy_regex(r"(?<![A-Za-z\\])[A-Za-z]{1,2}(?![A-Za-z])")
_WORD = lazy_regex(r"[A-Za-z]{3}")
_OPERATOR = lazy_regex(r"[/*+\-−×·(]")
_POINTS = (2.37, 3.11)  # the first unknown's value at each point; the others are spread from it
_MAX_UNKNOWNS = 3
_SYMBOLIC_MAX = 24  # characters: an option in unknowns is short ("3D/(M+3)"); a longer one is words, skipped cheaply


def _unknowns(text: str) -> set[str] | None:
    """The one-letter unknowns of an expression ("MD/3": M and D), or None when it has a word or none at all."""
    if _WORD.search(text) is not None or "\\" in text:
        return None
    names = {char for run in _UNKNOWNS.findall(text) for char in run}
    return names if names else None


def _at_points(text: str, names: Sequence[str]) -> tuple[float, ...] | None:
    """The values of an expression in `names` at the two points, or None when it is not one."""
    values = []
    for point in _POINTS:
        value = _Parser(text, {name: point + 1.73 * k for k, name in enumerate(names)}).value()
        if value is None:
            return None
        values.append(value)
    return tuple(values)


def _against_symbols(text: str, first: int, letter: str, options: Mapping[str, str]) -> tuple[str, str] | None:
    """As `letter_against_expression`, for options that are expressions in one-letter unknowns ("4. Additional
    amount each man pays = 3D/(M-3)\n\nAnswer: (A) D/(M-3)" where no option is 3D/(M-3)): (what is stated, why)
    when the working's expression is another option's or no option's; None when it is the letter's own, or
    anything is not so written (most options: words)."""
    own = options[letter]
    if len(own) > _SYMBOLIC_MAX or _unknowns(own) is None or _OPERATOR.search(own) is None:
        return None  # words (most options) or letters alone ("AB") are no expression: one regex each, in C
    names: set[str] = set()
    for option in options.values():
        found = _unknowns(option)
        if found is None:
            return None
        names |= found
    if len(names) > _MAX_UNKNOWNS or len(options) < _MIN_OPTIONS:
        return None
    walked = _piece_before(text[max(0, first - _WINDOW) : first], _EQUALS)
    if walked is None:
        return None
    piece = walked[0]
    stated = _STATED_AT_END.search(piece, max(0, len(piece) - _END))
    said = stated.group("v").strip() if stated else ""
    if not said or not (_unknowns(said) or set()) <= names:
        return None
    order = sorted(names)
    mine = _at_points(said, order)
    values = {other: _at_points(option, order) for other, option in options.items()}
    if mine is None or None in values.values():
        return None
    hits = [
        o
        for o, v in values.items()
        if v and all(math.isclose(a, b, rel_tol=1e-6) for a, b in zip(mine, v, strict=True))
    ]
    if letter in hits:
        return None
    why = f"its own expression {said!r} is " + (f"option {hits[0]}'s" if hits else "no option's")
    return (
        f"the letter {letter} ({options[letter]!r})",
        f"the working before it ends in {quote(piece, 50)!r}: {why}",
    )


_EQUALS = lazy_regex(r"=")
