"""Hostile math recognised from its text, before sympy sees it: a reason, or None for an ordinary answer.

sympy evaluates integer powers and factorials eagerly: `10^{10^{10}}` is an integer of ten billion digits, tens of
seconds of CPU and gigabytes of memory before any comparison starts. A model never writes such a value as a final
answer; a file built to stall a shared server does. This screen looks only at the text, in linear time, and names
what it found: an exponent tower whose value would have more than `MAX_DIGITS` digits, a power of an expression
raised above `MAX_SYMBOLIC_EXPONENT`, a power of a sum whose expansion has more than `MAX_EXPANDED_TERMS` terms
(`(x+y+9)^{60}`: 1,891 terms, each with a coefficient of up to 30 digits, that sympy multiplies out for seconds
before it can compare), a factorial of more than `MAX_FACTORIAL`, parentheses nested deeper than `MAX_NESTING`, or
(for an extracted answer, not a whole response) more than `MAX_TERMS` terms. What it lets through is still bounded
by the worker's CPU limit per check and per file (`equivalence_engine`).
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 100_000  # 2^{300000} has 90,309 digits and takes sympy milliseconds; 10^{10^{10}} takes minutes
MAX_SYMBOLIC_EXPONENT = 10_000  # (x+1)^{n} is expanded term by term by simplification
# A power of a sum of t terms raised to n expands to C(n+t-1, t-1) terms: (x+y+1)^{10} to 66 (under a second of
# sympy); (x+y+9)^{60} to 1,891 (past the 5 s limit per check). See `_expanded_terms`.
MAX_EXPANDED_TERMS = 400
MAX_FACTORIAL = 20_000  # 20000! takes sympy about 10 ms; 10^6! takes seconds
MAX_NESTING = 20  # as for braces in `equivalence`: deeper is built to exhaust a recursive parser
MAX_TERMS = 400  # an extracted answer with more terms than this is not a value

_POWER = re.compile(r"\^|\*\*")
_FACTORIAL = re.compile(r"!")
_TERM = re.compile(r"[+\-*/,=]|\\cdot|\\times")
_CLOSE = {"{": "}", "(": ")", "[": "]"}


def hostile_reason(text: str, whole_response: bool = False) -> str | None:
    """Why `text` would cost sympy far more than any answer does, or None. With `whole_response` (a model's whole
    reply, read by math-verify's own extraction) the term count is not applied: prose is long by nature."""
    depth = _paren_depth(text)
    if depth > MAX_NESTING:
        return f"parentheses nested {depth} deep (more than {MAX_NESTING})"
    if not whole_response:
        terms = len(_TERM.findall(text)) + 1
        if terms > MAX_TERMS:
            return f"{terms:,} terms (more than {MAX_TERMS})"
    for match in _POWER.finditer(text):
        reason = _power_reason(text, match.start(), match.end())
        if reason:
            return reason
    for match in _FACTORIAL.finditer(text):
        argument = _atom_before(text, match.start())
        digits = _log10(argument) if argument else None
        if digits is not None and digits > math.log10(MAX_FACTORIAL):
            return f"a factorial of {_shown(argument)} (more than {MAX_FACTORIAL:,})"
    return None


def _power_reason(text: str, start: int, end: int) -> str | None:
    base = _atom_before(text, start)
    exponent, _ = _atom_after(text, end)
    if not base or not exponent:
        return None
    size = _log10(exponent)  # log10 of the exponent's value
    if size is None:
        return None
    base_size = _log10(base)
    if base_size == -math.inf:  # 0 to any power is 0 (or 1)
        return None
    if base_size is None:  # a symbol or an expression: only its expansion is costly
        if size > math.log10(MAX_SYMBOLIC_EXPONENT):
            return f"{_shown(base)} raised to {_shown(exponent)} (an exponent over {MAX_SYMBOLIC_EXPONENT:,})"
        terms = _expanded_terms(base, size)
        if terms > MAX_EXPANDED_TERMS:
            return f"{_shown(base)}^{{{_shown(exponent)}}} expands to {terms:,} terms (more than {MAX_EXPANDED_TERMS})"
        return None
    digits = abs(base_size) * 10 ** min(size, 300)  # a fraction's power has as many digits below the point
    if digits > MAX_DIGITS:
        return f"{_shown(base)}^{{{_shown(exponent)}}} would have over {MAX_DIGITS:,} digits"
    return None


def _expanded_terms(base: str, log_exponent: float) -> int:
    """How many terms multiplying out `base` (a sum: "(x+y+9)") to the power 10^`log_exponent` gives, when the
    exponent is a whole number: C(n+t-1, t-1) for a sum of t terms (an upper bound when some terms are alike);
    1 for anything else (a single term, a fraction, a negative exponent)."""
    n = round(10**log_exponent)
    if n < 2 or abs(10**log_exponent - n) > 1e-6:
        return 1
    inner = _NOISE.sub("", base)
    while inner and inner[0] in _CLOSE and _matching_end(inner) == len(inner) - 1:
        inner = inner[1:-1]
    t = _top_level_terms(inner)
    return math.comb(n + t - 1, t - 1) if t > 1 else 1


def _top_level_terms(text: str) -> int:
    """Terms of a sum at its top level: "x+y-9" has 3, "x^{a+b}" and "-x" 1."""
    depth, terms, previous = 0, 1, ""
    for char in text:
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        elif char in "+-" and depth == 0 and previous and previous not in "+-*/^=(,":
            terms += 1
        previous = char
    return terms


def _shown(text: str) -> str:
    if text.startswith("{") and _matching_end(text) == len(text) - 1:
        text = text[1:-1]
    return text if len(text) <= 30 else text[:27] + "..."


# ---------------------------------------------------------------- atoms and their size


def _atom_before(text: str, end: int) -> str:
    """The operand that ends at `end`: a number, a closed group, a factorial or a name."""
    i = end
    while i > 0 and text[i - 1] == " ":
        i -= 1
    if i == 0:
        return ""
    last = text[i - 1]
    if last in "})]":
        opening = {"}": "{", ")": "(", "]": "["}[last]
        depth, j = 0, i - 1
        while j >= 0:
            depth += (text[j] == last) - (text[j] == opening)
            if depth == 0:
                break
            j -= 1
        if j < 0:
            return ""
        k = j  # "\\left(", "\\sqrt{", "\\frac{a}{": the group belongs to what precedes it
        return text[k:i]
    j = i
    if last.isdigit() or last == ".":
        while j > 0 and (text[j - 1].isdigit() or text[j - 1] == "."):
            j -= 1
    elif last == "!":
        inner = _atom_before(text, i - 1)
        return inner + "!" if inner else ""
    else:
        while j > 0 and (text[j - 1].isalpha() or text[j - 1] == "\\"):
            j -= 1
    return text[j:i]


def _atom_after(text: str, start: int, links: int = 0) -> tuple[str, int]:
    """The operand that starts at `start` (an exponent): a group with what follows it in a chain ("9^9^9", at
    most `_LINKS` links), a number, or one character."""
    i = start
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return "", i
    if text[i] in _CLOSE:
        close = _CLOSE[text[i]]
        depth, j = 0, i
        while j < len(text):
            depth += (text[j] == text[i]) - (text[j] == close)
            if depth == 0:
                break
            j += 1
        end = j + 1
    elif text[i].isdigit():
        end = i
        while end < len(text) and (text[end].isdigit() or text[end] == "."):
            end += 1
    else:
        end = i + 1
    chained = _POWER.match(text, end)
    if chained and links < _LINKS:  # "9^9^9": right-associative, the exponent is the whole chain
        rest, after = _atom_after(text, chained.end(), links + 1)
        return (text[i : chained.end()] + rest, after) if rest else (text[i:end], end)
    return text[i:end], end


_LINKS = 8  # a longer tower is cut here: its first eight levels already tell its size
_DEPTH = 30  # operands nested deeper are not sized (None): the nesting screen has its own limit
_NUMBER = re.compile(r"\d+(?:\.\d*)?")
_NOISE = re.compile(r"\\left|\\right|\s")


def _log10(atom: str, depth: int = 0) -> float | None:
    """log10 of the value of a purely numeric operand (numbers, powers, factorials, groups, products), or None
    when it names a variable or anything else (its value is then not known from the text)."""
    if depth > _DEPTH:
        return None
    text = _NOISE.sub("", atom).lstrip("+-")  # the size of a value, whatever its sign
    while text and text[0] in _CLOSE and _matching_end(text) == len(text) - 1:
        text = text[1:-1].lstrip("+-")
    if not text:
        return None
    if _NUMBER.fullmatch(text):
        value = float(text) if len(text) < 300 else 10.0**300
        return math.log10(value) if value > 0 else -math.inf  # 0 (its powers are 0 or 1)
    if text.endswith("!"):
        inner = _log10(text[:-1], depth + 1)
        if inner is None:
            return None
        n = 10 ** min(inner, 300)
        return n * math.log10(max(n, 1.0)) if n > 2 else 0.0  # log10(n!) is about n log10 n
    power = _split_power(text)
    if power is not None:
        base, exponent = (_log10(part, depth + 1) for part in power)
        if base is None or exponent is None:
            return None
        return base * 10 ** min(exponent, 300)
    factors = re.split(r"\*|\\cdot|\\times", text)
    if len(factors) > 1:
        sizes = [_log10(f, depth + 1) for f in factors]
        return None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None and s > -math.inf)
    return None


def _split_power(text: str) -> tuple[str, str] | None:
    """(base, exponent) when `text` is one power at its top level."""
    depth = 0
    for i, char in enumerate(text):
        depth += (char in "{([") - (char in "})]")
        if depth == 0 and char == "^":
            return text[:i], text[i + 1 :]
        if depth == 0 and text.startswith("**", i):
            return text[:i], text[i + 2 :]
    return None


def _matching_end(text: str) -> int:
    depth = 0
    for i, char in enumerate(text):
        depth += (char in "{([") - (char in "})]")
        if depth == 0:
            return i
    return -1


def _paren_depth(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char in "([":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]" and depth:
            depth -= 1
    return deepest
