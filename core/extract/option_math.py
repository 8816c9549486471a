"""Option values compared as math, operators included: `\\frac{5\\sqrt{2}}{3}` is not the option `5+\\sqrt{2}`.

The choice reader's word keys drop every operator (they are made for option texts in words), so on their own they
would read `2\\sqrt{6}` as the option `2+\\sqrt6`, or `-2` as the option `2`. A value is therefore compared by its
math tokens: numbers, words, and the operators `+ - * / ^ sqrt`, with `\\frac{a}{b}` read as `a / b`, `√` as
`\\sqrt`, `°` and `^\\circ` as "degrees", `×` and `\\cdot` as `*`, `$`, braces and `\\left`/`\\right` left out. Two
values agree when one's tokens occur in the other's as a run that no operator, root, variable or other number
touches on either side ("2" is not read in "2\\sqrt{6}", "2x" or "-2"). Inputs are cut at `MAX_MATH` characters,
so the recursive descent over braces stays shallow and the work small.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from mathreel.core.extract.lazy import lazy_regex

if TYPE_CHECKING:  # pragma: no cover - typing only
    from fractions import Fraction

MAX_MATH = 160  # characters of a value read as math; a value is short, and the brace recursion stays shallow
_OPERATORS = frozenset({"+", "-", "*", "/", "^", "sqrt"})
_SIGNS = str.maketrans({"−": "-", "×": "*", "·": "*", "÷": "/", "√": " \\sqrt ", "π": " \\pi ", "$": " "})
_DEGREES = lazy_regex(r"\^\s*\{?\s*\\circ\s*\}?|°|\\circ\b|\\degree\b")
_THOUSANDS = lazy_regex(r"(?<![\d.])(\d{1,3}(?:,\d{3})+)(?![\d,])")
_PIECE = lazy_regex(r"\\[a-z]+|\d+(?:\.\d+)?|[^\W\d_]+|[-+*/^{}=]")
_ASCII_NUMBER = lazy_regex(r"[0-9]+(?:\.[0-9]+)?")
_FRACTIONS = frozenset({"\\frac", "\\dfrac", "\\tfrac", "\\cfrac"})
_WORD_OPERATORS = {"\\times": "*", "\\cdot": "*", "\\div": "/", "\\pi": "pi", "\\sqrt": "sqrt"}
_ARTICLES = frozenset({"a", "an", "the"})
# One-letter words that are units, not variables: "3 m", "5 s", "2 h", "4 g".
_ONE_LETTER_UNITS = frozenset({"m", "s", "h", "g", "l"})


@lru_cache(maxsize=4096)
def math_tokens(text: str) -> tuple[str, ...]:
    """The math tokens of `text` (the module docstring says which), words folded by `fold`."""
    text = text[:MAX_MATH].lower().translate(_SIGNS)
    if "^" in text or "°" in text or "\\circ" in text or "\\degree" in text:
        text = _DEGREES.sub(" degrees ", text)
    if "," in text:
        text = _THOUSANDS.sub(lambda match: match.group(1).replace(",", ""), text)
    pieces = _PIECE.findall(text)
    out: list[str] = []
    at = 0
    while at < len(pieces):
        if pieces[at] == "}":
            at += 1  # a brace closed that no group opened
            continue
        at = _item(pieces, at, out)
    return tuple(out)


def _group(pieces: list[str], at: int, out: list[str]) -> int:
    """One argument of a command from `at` (a brace group, or one piece); the position after it."""
    if at >= len(pieces):
        return at
    if pieces[at] != "{":
        return _item(pieces, at, out)
    at += 1
    while at < len(pieces) and pieces[at] != "}":
        at = _item(pieces, at, out)
    return at + 1


def _item(pieces: list[str], at: int, out: list[str]) -> int:
    """Read one piece (with its arguments, for a command) into `out`; the position after it."""
    piece = pieces[at]
    if piece in _FRACTIONS:
        following = pieces[at + 1] if at + 1 < len(pieces) else ""
        if following.isdigit() and len(following) >= 2:  # "\frac23" is 2/3
            out.extend((following[0], "/", following[1:]))
            return at + 2
        at = _group(pieces, at + 1, out)
        out.append("/")
        return _group(pieces, at, out)
    if piece == "\\sqrt":
        out.append("sqrt")
        return _group(pieces, at + 1, out)
    if piece == "{":
        return _group(pieces, at, out)
    if piece[0] == "\\":
        name = _WORD_OPERATORS.get(piece)
        if name is not None:
            out.append(name)
        return at + 1  # \left, \text, \mathrm ...: the command goes, its argument is read next
    if piece == "-" and not _minus(pieces, at, out):
        return at + 1  # a hyphen ("14-km", "x-ray"), not a minus
    if piece.isalpha():
        if piece not in _ARTICLES:
            out.append(fold(piece))
        return at + 1
    out.append(piece)
    return at + 1


def _minus(pieces: list[str], at: int, out: list[str]) -> bool:
    """Whether the "-" at `at` is a minus: before a number, a command or a brace, or between single letters."""
    following = pieces[at + 1] if at + 1 < len(pieces) else ""
    if not following:
        return False
    if following[0].isdigit() or following[0] in "\\{":
        return True
    return len(following) == 1 and (not out or len(out[-1]) == 1 or out[-1][0].isdigit())


@lru_cache(maxsize=8192)
@lru_cache(maxsize=4096)  # option and response words repeat: a look-up costs less than the tests below
def fold(word: str) -> str:
    """One spelling for a word's singular and plural ("degrees", "degree" -> "degre"), as the word keys fold."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _touches(token: str) -> bool:
    """Whether a token next to a value makes it part of a larger one: an operator, a root, a number, a variable."""
    return token in _OPERATORS or token == "pi" or token[0].isdigit() or (len(token) == 1 and token.isalpha())


def occurs(tokens: tuple[str, ...], run: tuple[str, ...], at_start: bool = False) -> bool:
    """Whether `run` occurs in `tokens` (at the start only, with `at_start`) with nothing touching it: no operator,
    root, number or variable right before or after it (a one-letter unit after it is fine: "3 m")."""
    size = len(run)
    if not size or size > len(tokens):
        return False
    starts = (0,) if at_start else range(len(tokens) - size + 1)
    for start in starts:
        if tokens[start : start + size] != run:
            continue
        if start > 0 and _touches(tokens[start - 1]):
            continue
        after = tokens[start + size] if start + size < len(tokens) else ""
        if after and _touches(after) and after not in _ONE_LETTER_UNITS:
            continue
        return True
    return False


def value_core(tokens: tuple[str, ...], units: frozenset[str]) -> tuple[str, ...]:
    """An option value's tokens without the unit words it ends with ("14 km" -> "14"); empty when it has none."""
    end = len(tokens)
    while end > 0 and tokens[end - 1] in units:
        end -= 1
    return tokens[:end] if 0 < end < len(tokens) else ()


def same_number(said: tuple[str, ...], value: tuple[tuple[str, ...], tuple[str, ...]]) -> bool:
    """Whether the number `said` opens with equals an option's plain number or fraction written another way
    ("0.5" and `\\frac{1}{2}`, "3/4" and "0.75"); False when either is not a plain number."""
    stated = _number(said, prefix=True)
    own = _number(value[1] or value[0], prefix=False)
    return stated is not None and own is not None and stated == own


def _is_number(token: str) -> bool:
    """Whether a token is a number Fraction reads: ASCII digits with an optional decimal part. Not every character
    `str.isdigit` accepts is one ("②①④③", the order of four steps in a Video-MME option, is a word here)."""
    return _ASCII_NUMBER.fullmatch(token) is not None


def _number(tokens: tuple[str, ...], prefix: bool) -> Fraction | None:
    """The value of a leading "-"? number ("/" number)? (the whole of `tokens` unless `prefix`), or None."""
    at = 1 if tokens[:1] == ("-",) else 0
    if at >= len(tokens) or not _is_number(tokens[at]):
        return None
    from fractions import Fraction  # numbers in option texts only: `fractions` imports `decimal`

    value = Fraction(tokens[at])
    at += 1
    if tokens[at : at + 1] == ("/",) and at + 1 < len(tokens) and _is_number(tokens[at + 1]):
        denominator = Fraction(tokens[at + 1])
        if not denominator:
            return None
        value, at = value / denominator, at + 2
    if at < len(tokens) and (not prefix or _touches(tokens[at])) and not (prefix and tokens[at] in _ONE_LETTER_UNITS):
        return None
    return -value if tokens[:1] == ("-",) else value


_NUMERIC_SIGNS = str.maketrans({"−": "-", "×": "*", "·": "*", "÷": "/", "√": "\\sqrt ", "π": "\\pi ", "$": " "})
_NUMERIC_DROP = lazy_regex(r"\\left|\\right|\\[,;!: ]|\\displaystyle|\\boxed|\^\s*\{?\s*\\circ\s*\}?|°|\\circ\b")
_NUMERIC_PIECE = lazy_regex(r"\d+(?:\.\d+)?|\.\d+|\\[a-zA-Z]+|[-+*/^(){}\[\]]|\S")
_NUMERIC_LIMIT = 1e12  # larger magnitudes are not option values; they are refused, never rounded


def numeric_value(text: str) -> float | None:
    """The value of `text` when it is nothing but arithmetic on numbers and pi (`\\frac{5\\pi}{3} + 2`,
    `16*\\pi/5`, `(12+3\\sqrt{3})/4`), else None: a variable, a word or an unbalanced bracket makes it no number.
    This lets two spellings of one value agree where their math tokens are in another order."""
    text = _NUMERIC_DROP.sub(" ", text[:MAX_MATH].translate(_NUMERIC_SIGNS)).strip().rstrip(".")
    pieces = _NUMERIC_PIECE.findall(text)
    if not pieces:
        return None
    parser = _Arithmetic(pieces)
    try:
        value = parser.expression()
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    if parser.at != len(pieces) or value != value or abs(value) > _NUMERIC_LIMIT:
        return None
    return value


def same_value(a: float, b: float) -> bool:
    """Whether two values are one value written two ways (a relative 1e-9: never a rounding)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


class _Arithmetic:
    """Recursive descent over +, -, *, /, ^, implicit products, brackets, `\\frac`, `\\sqrt` and `\\pi`; any
    other piece raises ValueError. The input is at most MAX_MATH characters, so the depth stays small."""

    _CLOSING: ClassVar[dict[str, str]] = {"(": ")", "{": "}", "[": "]"}

    def __init__(self, pieces: list[str]) -> None:
        self.pieces = pieces
        self.at = 0

    def _peek(self) -> str:
        return self.pieces[self.at] if self.at < len(self.pieces) else ""

    def _take(self) -> str:
        piece = self._peek()
        if not piece:
            raise ValueError("the expression ends early")
        self.at += 1
        return piece

    def expression(self) -> float:
        value = self._term()
        while self._peek() in ("+", "-"):
            value = value + self._term() if self._take() == "+" else value - self._term()
        return value

    def _term(self) -> float:
        value = self._power()
        while True:
            piece = self._peek()
            if piece in ("*", "\\times", "\\cdot"):
                self.at += 1
                value *= self._power()
            elif piece in ("/", "\\div"):
                self.at += 1
                value /= self._power()
            elif piece and (piece in self._CLOSING or piece in ("\\pi", "\\frac", "\\dfrac", "\\tfrac", "\\sqrt")):
                value *= self._power()  # an implicit product: 5\pi, 3\sqrt{3}, \frac{5}{3}\pi, 2(x)
            else:
                return value

    def _power(self) -> float:
        base = self._unary()
        if self._peek() != "^":
            return base
        self.at += 1
        exponent = self._unary() if self._peek() != "{" else self._group()
        if abs(exponent) > 64:
            raise ValueError("an exponent too large for an option value")
        return float(base**exponent)

    def _unary(self) -> float:
        if self._peek() == "-":
            self.at += 1
            return -self._unary()
        if self._peek() == "+":
            self.at += 1
            return self._unary()
        return self._primary()

    def _group(self) -> float:
        opening = self._take()
        closing = self._CLOSING.get(opening)
        if closing is None:
            raise ValueError("a group expected")
        value = self.expression()
        if self._take() != closing:
            raise ValueError("an unbalanced bracket")
        return value

    def _argument(self) -> float:
        """A command's argument: a braced group, or one digit (`\\frac23`, `\\sqrt3`)."""
        if self._peek() == "{":
            return self._group()
        piece = self._take()
        if not piece.isdigit():
            raise ValueError("a command's argument expected")
        if len(piece) > 1:  # \frac23 is 2/3: the rest of the digits is the next argument
            self.pieces[self.at - 1 : self.at] = [piece[0], piece[1:]]
        return float(piece[0])

    def _primary(self) -> float:
        piece = self._peek()
        if piece in self._CLOSING:
            return self._group()
        self.at += 1
        if piece and (piece[0].isdecimal() or piece[0] == "."):
            if self._peek()[:1].isdecimal():
                raise ValueError("two numbers side by side")
            return float(piece)
        if piece == "\\pi":
            return math.pi
        if piece in ("\\frac", "\\dfrac", "\\tfrac"):
            numerator = self._argument()
            return numerator / self._argument()
        if piece == "\\sqrt":
            index = 2.0
            if self._peek() == "[":
                index = self._group()
            radicand = self._argument()
            if radicand < 0 or index <= 0:
                raise ValueError("no real root")
            return float(radicand ** (1.0 / index))
        raise ValueError(f"not arithmetic: {piece!r}")
