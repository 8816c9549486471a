"""Options and concluding values written with words, units, scientific notation or dates, read as values.

Real options are seldom bare numbers: "After 24 minutes", "240 $\\mathrm{~m}$", "22 × 10^8 dynes", "1.013 × 10^5
N/m^2", "12/02/1929". The nearest-option rule (`conflicts`) compares them as values when every option is one value
of the same kind: the same words before it ("After"), the same unit after it (an abbreviation is its unit's name:
"1 W" is in watts, "0.24 km" is not in metres), a date as a date. Values in different units are no evidence either
way: no conversion is tried.

What is not a computed result: an equation in unknowns ("a·64 − b·16 + 2 − 1 = 5": the 5 is given), and a number
that opens an expression ("1 / 2e", "1/2k"): an expression of numbers, e and π is evaluated, any other is no value.
"""

from __future__ import annotations

import math

from mathreel.core.extract.lazy import lazy_regex

_LATEX_UNIT = lazy_regex(r"\\(?:mathrm|text|mbox|operatorname)\s*\{([^{}]*)\}")
_LATEX_POWER = lazy_regex(r"\^\s*\{\s*([-−]?\d+)\s*\}")
_UNESCAPED_DOLLAR = lazy_regex(r"(?<!\\)\$")
_MATH_DOLLAR = lazy_regex(r"\$(?![-−]?\d)")
_DATE = lazy_regex(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_DATE_AT_END = lazy_regex(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})[\s.,;:)*]*\Z")
CURRENCY = r"(?:\$|£|€|₹|Rs\.?|INR)"  # "$4.50", "Rs. 1200"
# "22 × 10^8", "1.013 x 10^5", "6e-3": a number in scientific notation
SCIENTIFIC = r"(?:\s*(?:×|\\times|\*|x|·|\\cdot)\s*10\s*\^\s*[-−]?\d+|[eE][-−+]?\d+(?![A-Za-z]))"
_SCIENTIFIC_PARTS = lazy_regex(r"([-−]?\d[\d,]*(?:\.\d+)?)(?:\s*(?:×|\*|x|·)\s*10\s*\^\s*([-−]?\d+)|[eE]([-−+]?\d+))?")

# Abbreviations that are their unit's name ("W" is watts); case kept for one-letter symbols ("m" metres, "M" molar).
_UNIT_NAMES = {
    "W": "watt",
    "kW": "kilowatt",
    "m": "meter",
    "km": "kilometer",
    "cm": "centimeter",
    "mm": "millimeter",
    "s": "second",
    "sec": "second",
    "secs": "second",
    "min": "minute",
    "mins": "minute",
    "h": "hour",
    "hr": "hour",
    "hrs": "hour",
    "g": "gram",
    "kg": "kilogram",
    "J": "joule",
    "kJ": "kilojoule",
    "N": "newton",
    "V": "volt",
    "Hz": "hertz",
    "L": "liter",
    "mL": "milliliter",
    "Pa": "pascal",
    "metre": "meter",
    "litre": "liter",
    "kilometre": "kilometer",
    "centimetre": "centimeter",
    "millimetre": "millimeter",
}


def plain_option(text: str) -> str:
    """`text` without the LaTeX around its unit: "240 $\\mathrm{~m}$" -> "240 m", "10^{8}" -> "10^8"; a "$" that
    opens an amount ("$4.50") is kept. Text without a backslash is returned as it is (cheap)."""
    if "\\" not in text and "{" not in text:
        return text
    if "\\" in text:  # LaTeX written: an unescaped "$" delimits math ("$396\\,\\text{m}$"), "\\$" is money
        text = _UNESCAPED_DOLLAR.sub(" ", text).replace("\\$", "$")
    text = _LATEX_UNIT.sub(lambda m: " " + m.group(1) + " ", text)
    text = _LATEX_POWER.sub(
        r"^\1", text.replace("\\times", "×").replace("\\cdot", "·").replace("\\,", " ").replace("\\ ", " ")
    )
    text = _MATH_DOLLAR.sub(" ", text).replace("~", " ")
    return " ".join(text.split())


def currency(mark: str) -> str:
    """One spelling per currency: "Rs." and "Rs" and "INR" are "₹"."""
    return "₹" if mark.rstrip(".") in ("Rs", "INR") else mark


def unit_name(word: str) -> str:
    """The unit a word names, plurals and abbreviations aside: "W" and "watts" -> "watt"."""
    if word in _UNIT_NAMES:
        return _UNIT_NAMES[word]
    lower = word.lower()
    if lower in _UNIT_NAMES and len(lower) > 2:
        return _UNIT_NAMES[lower]
    for end in ("es", "s"):
        if lower.endswith(end) and len(lower) > len(end) + 2:
            stem = lower[: -len(end)]
            return _UNIT_NAMES.get(stem, stem)
    return lower


def number_value(number: str) -> tuple[float, int]:
    """(value, decimal places of its last written digit) of "1,200", "22 × 10^8" (places -8), "6e-3"."""
    found = _SCIENTIFIC_PARTS.fullmatch(number.strip())
    if found is None:
        raise ValueError(number)
    mantissa, power = found.group(1), found.group(2) or found.group(3) or "0"
    exponent = int(power.replace("−", "-").replace("+", ""))
    places = len(mantissa.partition(".")[2]) - exponent
    return float(mantissa.replace(",", "").replace("−", "-")) * 10.0**exponent, places


def date_value(text: str) -> float | None:
    """The day number of a date written month/day/year ("12/02/1929"), the whole of `text`; None otherwise."""
    found = _DATE.fullmatch(text.strip())
    return _ordinal(found.groups()) if found else None


def date_at_end(text: str) -> float | None:
    """The day number of the date `text` ends with ("so one month ago was 11/30/1929."), else None."""
    found = _DATE_AT_END.search(text, max(0, len(text) - 40))
    return _ordinal(found.groups()) if found else None


def _ordinal(parts: tuple[str | None, ...]) -> float | None:
    """The day number of (month, day, year), or None for no such day; `datetime` is not imported for it (it costs
    more than the whole reader's import)."""
    month, day, year = (int(part or 0) for part in parts)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    lengths = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    if not 1 <= month <= 12 or not 1 <= day <= lengths[month - 1]:
        return None
    before = year - 1
    return float(365 * before + before // 4 - before // 100 + before // 400 + sum(lengths[: month - 1]) + day)


# A number written against a name or a constant: "2e", "2k", "2π", "3√2" (the number is not the value).
_AGAINST_NAME = lazy_regex(r"[A-Za-zπ√(](?![A-Za-z])")
_AFTER_SIGN = lazy_regex(r"(?:=|≈|\b(?:is|equals|be)\b)\s*([^=≈]{1,40}?)[\s.,;:]*\Z")
_EXPRESSION = lazy_regex(r"[\d\s./*()+\-−×·^eπ]+")
# A single-letter unknown next to a number or an operator: "a·64", "2x", "x^2", "b * 16", "y + 3"
_UNKNOWN = lazy_regex(
    r"(?<![A-Za-z\\])(?P<a>[a-df-zA-Z])(?![A-Za-z])(?:\s*[·*×^(]|\d)|(?:[\d)]|[·*×^]\s*)(?P<b>[a-df-zA-Z])(?![A-Za-z])"
)
_FACTORS = lazy_regex(r"\d+(?:\.\d+)?\s*[eπ]?|[eπ]|[/*×·()+\-−]")
_ARITHMETIC = lazy_regex(r"\d+(?:\.\d+)?|[-+*/()]")


def opens_expression(body: str, start: int, end: int) -> bool:
    """Whether the number `body[start:end]` is part of a longer expression: after "/" or another operator ("3/6 =
    1/2": "2" is the fraction's), or written against a name that is no unit ("1 / 2e": "2" is "2e"'s)."""
    if body[:start].rstrip().endswith(("/", "^", "×", "*", "·")):
        return True
    against = _AGAINST_NAME.match(body, end)
    return against is not None and against.group(0) not in _UNIT_NAMES


def expression_at_end(body: str) -> float | None:
    """The value of the expression of numbers, e and π that `body` states last ("so the probability is 1 / 2e"
    -> 1/(2e), "= 1/2" -> 0.5), or None (any other name in it: "1/2k")."""
    found = _AFTER_SIGN.search(body, max(0, len(body) - 60))
    if found is None:
        return None
    written = found.group(1).strip()
    if not written or _EXPRESSION.fullmatch(written) is None or not any(c.isdigit() for c in written):
        return None
    return _evaluate(written)


def _evaluate(written: str) -> float | None:
    """ "1 / 2e" is 1 / (2e): a number written against e or π is one factor, as a reader takes it."""
    tokens = _FACTORS.findall(written.replace(" ", ""))
    if "".join(tokens) != written.replace(" ", ""):
        return None
    python = []
    for token in tokens:
        if token[0].isdigit():
            number = token.rstrip("eπ")
            factor = {"e": "*2.718281828459045", "π": "*3.141592653589793"}.get(token[-1], "")
            python.append(f"({number}{factor})")
        else:
            python.append(
                {"e": "2.718281828459045", "π": "3.141592653589793", "×": "*", "·": "*", "−": "-"}.get(token, token)
            )
    return _arithmetic("".join(python))


def _arithmetic(expression: str) -> float | None:
    """A value of + - * / and brackets over numbers, without eval: a tiny shunting-yard."""
    out: list[float] = []
    ops: list[str] = []
    rank = {"+": 1, "-": 1, "*": 2, "/": 2}
    tokens = _ARITHMETIC.findall(expression)

    def apply() -> None:
        op = ops.pop()
        right, left = out.pop(), out.pop()
        out.append(
            left + right if op == "+" else left - right if op == "-" else left * right if op == "*" else left / right
        )

    try:
        previous = ""
        for token in tokens:
            if token[0].isdigit():
                out.append(float(token))
            elif token == "(":
                ops.append(token)
            elif token == ")":
                while ops[-1] != "(":
                    apply()
                ops.pop()
            else:
                if token == "-" and previous in ("", "(", "+", "-", "*", "/"):
                    out.append(0.0)  # a leading minus
                while ops and ops[-1] != "(" and rank[ops[-1]] >= rank[token]:
                    apply()
                ops.append(token)
            previous = token
        while ops:
            apply()
    except (IndexError, ZeroDivisionError, KeyError):
        return None
    return out[0] if len(out) == 1 and math.isfinite(out[0]) else None


def in_unknowns(body: str) -> bool:
    """Whether the equation `body` ends in has unknowns on the side before its last "=" ("a·64 − b·16 + 2 − 1 =
    5"): its value is a given, not a result. A name alone ("x = 3") is a result."""
    head, sign, _ = body.rpartition("=")
    if not sign:
        return False
    if "\\" in head:  # "$a \cdot 64-b \times 16$": LaTeX products are products as "·" is
        head = head.replace("\\cdot", "·").replace("\\times", "×")
    left = head.rpartition("=")[2]
    left = left[max(left.rfind(":"), left.rfind(","), left.rfind(";")) + 1 :]
    return any((found.group("a") or found.group("b")) not in _UNIT_NAMES for found in _UNKNOWN.finditer(left))


# One value with the same words around it: "After 24 minutes", "$4.50", "22 × 10^8 dynes", "12.5%", "750 mm Hg".
_OPTION = lazy_regex(
    r"\s*(?P<pre>(?:[A-Za-z]+[ \t]+){0,2})(?P<cur>"
    + CURRENCY
    + r"?)\s*(?P<n>[-−]?\d[\d,]*(?:\.\d+)?"
    + SCIENTIFIC
    + r"?)\s*"
    r"(?P<unit>[A-Za-z/%°](?:[A-Za-z/%° ]|\^\d){0,24})?\s*"
)
_NONE_OF_THESE = lazy_regex(r"\s*(?i:none\s+of\s+(?:these|the\s+above)|cannot\s+be\s+determined|not\s+enough\s+\w+)\W*")


def option_quantity(text: str) -> tuple[float, int, str, str] | None:
    """(value, decimal places, the words before it, its unit with any "$") of an option that is one value: a number,
    in scientific notation or not, with the same kind of words around it ("After 24 minutes": "after", "minutes"),
    or a date ("12/02/1929": its day number, unit "date"); None otherwise."""
    if "\\" in text or "{" in text:
        text = plain_option(text)
    if "/" in text:
        day = date_value(text)
        if day is not None:
            return day, 0, "", "date"
    found = _OPTION.fullmatch(text)  # one regex, failing early on word options ("The man waves 3 times")
    if found is None:
        return None
    value, places = number_value(found.group("n"))
    unit = (found.group("unit") or "").strip()
    return value, places, found.group("pre").strip().lower(), currency(found.group("cur")) + unit


def is_none_option(text: str) -> bool:
    """Whether an option is "None of these" / "Cannot be determined": the one option without a value allowed."""
    return _NONE_OF_THESE.fullmatch(text) is not None


# A sentence that rules options out: "Choices A, B and D are wrong", "Option A (24) forgets to halve ..., so it is
# wrong", "Options A and D can be ruled out".
_NAMES_OPTIONS = lazy_regex(
    r"(?i:\b(?:options?|choices?)\b)[ \t]*\(?[A-J]\)?(?![A-Za-z])"  # "Option A (24) ...", "Choices A, B and D"
    r"|\A[ \t*-]*\([A-J]\)(?:[ \t]*(?:,|and|or)[ \t]*\([A-J]\))*[ \t]+(?:is|are)\b"  # "(B) and (D) are wrong"
    r"|选项[ \t]*[A-J]"  # "选项A、C、D都是错误的"
)
_RULES_OUT = lazy_regex(
    r"(?i:\b(?:wrong|incorrect|eliminated?|ruled?[ \t]+out|rules[ \t]+out|can(?:not|'t|[ \t]+not)[ \t]+be"
    r"|not[ \t]+(?:correct|right|possible|valid|the[ \t]+answer)|is[ \t]+false|are[ \t]+false|neither)\b)"
    r"|错误|不正确|不对|排除"
)
# What no finished sentence ends with: a word that cannot end one, or an operator ("at the end of", "= 3 +").
_ENDS_OPEN = lazy_regex(
    r"(?:[=+\-/^(\[{]|(?<![\w'’])(?:the|a|an|of|to|and|or|with|by|from|into|than|if|is|are|was|were|which|that|at"
    r"|for|in|on|whose|because|since))[ \t]*\Z"
)


# An answer phrase cut off before its letter ("The answer is (", "Therefore, the correct answer to this question
# is", "So the answer is", a lone "The"): no working, and no cut-off working either (class J3).
_UNFINISHED_ANSWER = lazy_regex(
    r"[ \t*]*(?:(?i:so|thus|therefore|hence),?[ \t]+)?(?i:the)?[ \t]*(?:(?i:(?:correct|final|right|best)[ \t]+)?"
    r"(?i:answer|option|choice)(?:[ \t]+(?i:to|for)[ \t]+(?i:this|the)[ \t]+(?i:question|problem))?"
    r"(?:[ \t]+(?i:is|would[ \t]+be))?[ \t]*[:：]?[ \t]*(?:(?i:option|choice)[ \t]*)?[(\[]?)?[ \t]*"
)


def unfinished_answer(piece: str) -> bool:
    """Whether a line is an answer phrase that stops before its letter ("The answer is (", "The"): passed over, so
    that the letter after it is held against the conclusion above it. The cheap test first: such a line is short
    and holds no digit."""
    return (
        len(piece) <= _UNFINISHED_MAX
        and not any(c.isdigit() for c in piece)
        and bool(_UNFINISHED_ANSWER.fullmatch(piece))
    )


_UNFINISHED_MAX = 80  # characters


def eliminates(piece: str) -> bool:
    """Whether a sentence rules options out (names an option and calls it wrong): passed over between the result
    and the letter, which it does not change."""
    return _NAMES_OPTIONS.search(piece) is not None and _RULES_OUT.search(piece) is not None


def stops_open(piece: str) -> bool:
    """Whether the line right before an answer line stops mid-sentence ("you would break even at the end of"): the
    working is cut off there, and no value in it is a conclusion."""
    piece = piece.rstrip()
    return len(piece) >= _OPEN_MIN and _ENDS_OPEN.search(piece, max(0, len(piece) - 12)) is not None


_OPEN_MIN = 30  # characters: a shorter line is a lead-in ("Therefore, among A through E,"), not cut-off working


_GIVEN = lazy_regex(r"(?i:\b(?:given|we\s+are\s+told|we\s+know)\b)|已知")
_WORKED = lazy_regex(r"=|≈|(?i:\b(?:so|thus|therefore|hence|gives|total)\b)|所以|因此|则|故|得")
_NUMBER_UNIT = lazy_regex(r"([-−]?\d[\d,]*(?:\.\d+)?)\s*([A-Za-z%]+)?")


def no_evidence(line: str, value: str, option: str) -> bool:
    """Whether the `value` a working `line` ends in says nothing against the stated `option`: the line is an
    equation in unknowns ("a·64 − b·16 + 2 − 1 = 5"), the value is the option's in another form (0.3 for "30%"), or
    it is in another unit of the options' kind ("0.24 km" against "240 m": no conversion is tried)."""
    if in_unknowns(line) or (_GIVEN.search(line) is not None and _WORKED.search(line) is None):
        return True  # "已知底为6，高为4。": given values, no result
    said, own = _NUMBER_UNIT.fullmatch(value.strip()), _NUMBER_UNIT.fullmatch(plain_option(option).strip())
    if said is None or own is None:
        return False
    number, unit = float(said.group(1).replace(",", "").replace("−", "-")), said.group(2) or ""
    theirs, their_unit = float(own.group(1).replace(",", "").replace("−", "-")), own.group(2) or ""
    if not unit and their_unit == "%" and abs(number * 100 - theirs) <= 1e-6 * max(1.0, abs(theirs)):
        return True
    known = set(_UNIT_NAMES.values())
    return unit_name(unit) in known and unit_name(their_unit) in known and unit_name(unit) != unit_name(their_unit)
