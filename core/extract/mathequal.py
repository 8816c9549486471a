"""Deterministic equivalence of a predicted and a gold math answer, with "cannot decide" kept apart from "no".

Both answers are normalised (LaTeX spacing and `\\left`/`\\right`, `\\dfrac`, degrees, units, thousands
separators, a leading "x ="), then parsed by a small recursive-descent parser over numbers, `+ - * / ^`,
`\\frac`, `\\sqrt`, `pi`, trig/log functions, parentheses and single-letter variables, and evaluated at three
fixed points (never `eval`). Tuples and intervals compare element-wise with their brackets.

Decisions (documented in the README):
- A unit on one side only is ignored ("12 cm" = "12"); different units on both sides are not equal.
- "%" is a unit: "50%" = "50". "50%" against "0.5" is undecidable (None): it is the same quantity only if the
  question asked for a fraction, which a judge can read and we cannot.
- A decimal that matches the other side only after rounding ("1.41" vs "\\sqrt{2}") is undecidable, as is
  degrees against a radian expression with pi; text that does not parse as math is undecidable unless equal.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

_MAX_LENGTH = 400  # longer "answers" are prose; leave them to a judge
_MAX_DEPTH = 40  # nesting beyond this is not an answer, and would strain the recursive parser
_REL_TOL = 1e-6
_ABS_TOL = 1e-9


@dataclass(frozen=True)
class Equivalence:
    """`equal` is True, False, or None when the rules cannot decide (the caller may ask a judge)."""

    equal: bool | None
    explanation: str


def math_equal(predicted: str, gold: str) -> bool:
    """True only when the answers are decidably equal; undecidable counts as not equal."""
    return math_equivalence(predicted, gold).equal is True


def math_equivalence(predicted: str, gold: str) -> Equivalence:
    """Compare two answers; the explanation says which rule decided."""
    if not isinstance(predicted, str) or not isinstance(gold, str):
        return Equivalence(None, "an answer is missing")
    if len(predicted) > _MAX_LENGTH or len(gold) > _MAX_LENGTH:
        return Equivalence(None, "too long to compare as math")
    pred, ref = _normalize(predicted), _normalize(gold)
    if _squash(pred.text) == _squash(ref.text) and pred.percent == ref.percent:
        if pred.unit and ref.unit and pred.unit != ref.unit:
            return Equivalence(False, f"units differ: {pred.unit} vs {ref.unit}")
        return Equivalence(True, f"the same after normalisation: {_squash(ref.text)!r}")
    return _compare(pred, ref)


# ---------------------------------------------------------------- normalisation


@dataclass(frozen=True)
class _Answer:
    text: str
    unit: str = ""
    percent: bool = False
    degrees: bool = False


_DELIMS = re.compile(r"^\s*(?:\$+|\\\(|\\\[)|(?:\$+|\\\)|\\\])\s*$")
_TEXT_CMD = re.compile(r"\\(?:text|textbf|textrm|mathrm|mathbf|mbox|operatorname)\s*\{([^{}]*)\}")
_DEGREE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°|\\circ|\\degree|\s*\b(?:degrees?|deg)\b", re.I)
_SPACING = re.compile(r"\\[,;:! ]|~|\\left\b|\\right\b|\\big[lr]?\b|\\Big[lr]?\b")
_REPLACEMENTS = (
    (re.compile(r"\\[dt]frac"), r"\\frac"),
    (re.compile(r"\\(?:cdot|times)"), "*"),
    (re.compile(r"\\div"), "/"),
    (re.compile(r"\\pi\b|π"), "pi"),
    (re.compile(r"\\infty|∞"), "inf"),
    (re.compile(r"√"), r"\\sqrt"),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\\$"), ""),
    (re.compile(r"\\[{]"), "{"),
    (re.compile(r"\\[}]"), "}"),
    (re.compile(r"−|–"), "-"),
)
_UNIT = re.compile(
    r"(?<=[\d})\s])\s*(?P<unit>(?:square\s+|sq\.?\s*|cubic\s+)?"
    r"(?:units?|cm|mm|km|m|meters?|metres?|inches|inch|in|ft|feet|foot|yards?|miles?|kg|g|grams?|seconds?|sec|s|"
    r"minutes?|min|hours?|hrs?|h|dollars?|cents?)(?:\s*\^\s*\{?\s*[23]\s*\}?|²|³)?)\s*\.?$",
    re.I,
)
# "2\frac{1}{3}" written with integers only is the mixed number 2 1/3 (LaTeX has no other way to write it).
_MIXED_NUMBER = re.compile(r"(?<![\d.}^_])(\d+)\\frac\{(\d+)\}\{(\d+)\}")
_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])")
_NAME_LHS = re.compile(r"^\s*(?:m?\\angle\s*)?[A-Za-z](?:_\{?\w+\}?)?[A-Za-z]{0,2}\s*$")
_TRAILING_DOT = re.compile(r"\.\s*$")


def _normalize(raw: str) -> _Answer:
    text = _DELIMS.sub("", raw.strip())
    text = _DELIMS.sub("", text)
    text = _TEXT_CMD.sub(r" \1 ", text)
    text = _SPACING.sub(" ", text)
    for pattern, replacement in _REPLACEMENTS:
        text = pattern.sub(replacement, text)
    text = _MIXED_NUMBER.sub(r"(\1+\2/\3)", text)
    text = _take_rhs(text)
    text = _TRAILING_DOT.sub("", text).strip()
    degrees = bool(_DEGREE.search(text))
    text = _DEGREE.sub("", text).strip()
    percent = text.endswith("%")
    text = text.rstrip("%").strip()
    unit = ""
    found = _UNIT.search(text)
    if found and found.start() > 0:
        unit = re.sub(r"\s+", " ", found.group("unit").lower())
        text = text[: found.start()].strip()
    if not _is_bracketed(text):
        text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text)
    return _Answer(text, unit, percent, degrees)


def _take_rhs(text: str) -> str:
    """ "x = 3" -> "3"; "AB = 5" -> "5"; an equation with an expression on the left stays whole."""
    if "=" not in text or re.search(r"[<>!]=|=[<>]", text):
        return text
    parts = text.split("=")
    return parts[-1] if _NAME_LHS.match(parts[0]) else text


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _is_bracketed(text: str) -> bool:
    return len(text) >= 2 and text[0] in "([" and text[-1] in ")]" and "," in text


# ---------------------------------------------------------------- comparison


def _compare(pred: _Answer, ref: _Answer) -> Equivalence:
    if pred.unit and ref.unit and pred.unit != ref.unit:
        return Equivalence(False, f"units differ: {pred.unit} vs {ref.unit}")
    pred_items, ref_items = _split_tuple(pred.text), _split_tuple(ref.text)
    if pred_items is not None or ref_items is not None:
        return _compare_tuples(pred, ref, pred_items, ref_items)
    return _compare_values(pred, ref)


def _split_tuple(text: str) -> tuple[str, list[str]] | None:
    """("()", ["1", "2"]) for "(1, 2)"; ("", [...]) for a bare "1, 2"; None for a single value."""
    brackets = ""
    body = text
    if _is_bracketed(text) and _closes_at_end(text):
        brackets, body = text[0] + text[-1], text[1:-1]
    items = _top_level_split(body)
    if len(items) < 2:
        return None
    return brackets, items


def _closes_at_end(text: str) -> bool:
    """Whether the opening bracket at 0 is closed only by the last character (so "(1)+(2)" is no tuple)."""
    depth = 0
    for i, char in enumerate(text):
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _top_level_split(body: str) -> list[str]:
    items, depth, start = [], 0, 0
    for i, char in enumerate(body):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            items.append(body[start:i].strip())
            start = i + 1
    items.append(body[start:].strip())
    return items


def _compare_tuples(pred: _Answer, ref: _Answer, pred_items, ref_items) -> Equivalence:
    if pred_items is None or ref_items is None:
        return Equivalence(False, "one answer is a tuple or interval and the other a single value")
    (pred_br, pred_list), (ref_br, ref_list) = pred_items, ref_items
    if pred_br and ref_br and pred_br != ref_br:
        return Equivalence(False, f"brackets differ: {pred_br} vs {ref_br}")
    if len(pred_list) != len(ref_list):
        return Equivalence(False, f"{len(pred_list)} elements vs {len(ref_list)}")
    if not pred_br and not ref_br:
        pred_list = _align_unordered(pred_list, ref_list)
    verdicts = [math_equivalence(p, g) for p, g in zip(pred_list, ref_list, strict=True)]
    for i, verdict in enumerate(verdicts):
        if verdict.equal is False:
            return Equivalence(False, f"element {i + 1} differs: {verdict.explanation}")
    undecided = [i for i, v in enumerate(verdicts) if v.equal is None]
    if undecided:
        return Equivalence(None, f"element {undecided[0] + 1} undecidable: {verdicts[undecided[0]].explanation}")
    return Equivalence(True, f"all {len(ref_list)} elements equal")


def _align_unordered(pred_list: list[str], ref_list: list[str]) -> list[str]:
    """A bare list "3, -1" is a set of solutions: reorder the prediction to meet the gold where elements match."""
    remaining = list(pred_list)
    aligned = []
    for gold in ref_list:
        match = next((p for p in remaining if math_equivalence(p, gold).equal is True), None)
        aligned.append(match)
        if match is not None:
            remaining.remove(match)
    return [item if item is not None else remaining.pop(0) for item in aligned]


def _compare_values(pred: _Answer, ref: _Answer) -> Equivalence:
    pred_eq, ref_eq = _equation(pred.text), _equation(ref.text)
    if pred_eq is not None and ref_eq is not None:
        return _compare_equations(pred_eq, ref_eq)
    try:
        pred_expr, ref_expr = _parse(pred.text), _parse(ref.text)
    except _ParseError as error:
        return Equivalence(None, f"cannot read as math ({error})")
    names = sorted(pred_expr.names | ref_expr.names)
    pairs = _evaluate_pairs(pred_expr, ref_expr, names)
    if pairs is None:
        return Equivalence(None, "cannot evaluate (undefined at the test points)")
    if pred.percent != ref.percent:
        return _percent_verdict(pairs, pred.percent)
    if all(_close(a, b) for a, b in pairs):
        how = f" at {len(pairs)} points of {', '.join(names)}" if names else f" ({_fmt(pairs[0][1])})"
        return Equivalence(True, "numerically equal" + how)
    return _near_miss(pred, ref, pred_expr, ref_expr, pairs)


def _equation(text: str) -> str | None:
    """ "x^2 + y^2 = 25" as the expression "(x^2 + y^2)-(25)", or None if `text` is not one equation."""
    if text.count("=") != 1 or re.search(r"[<>!]=|=[<>]", text):
        return None
    left, right = text.split("=")
    return f"({left})-({right})" if left.strip() and right.strip() else None


def _compare_equations(pred: str, ref: str) -> Equivalence:
    """Two equations are the same when one's left-minus-right is a constant non-zero multiple of the other's."""
    try:
        pred_expr, ref_expr = _parse(pred), _parse(ref)
    except _ParseError as error:
        return Equivalence(None, f"cannot read the equation as math ({error})")
    names = sorted(pred_expr.names | ref_expr.names)
    pairs = _evaluate_pairs(pred_expr, ref_expr, names)
    if not names or pairs is None or any(_close(b, 0) for _, b in pairs):
        return Equivalence(None, "cannot compare these equations at the test points")
    ratios = [a / b for a, b in pairs]
    if not _close(ratios[0], 0) and all(_close(r, ratios[0]) for r in ratios):
        return Equivalence(True, "the same equation (sides differ by a constant factor)")
    return Equivalence(False, "different equations")


def _percent_verdict(pairs: list[tuple[float, float]], pred_is_percent: bool) -> Equivalence:
    if all(_close(a, b) for a, b in pairs):
        return Equivalence(True, "equal with the % sign read as a unit")
    scale = [(a / 100, b) if pred_is_percent else (a, b / 100) for a, b in pairs]
    if all(_close(a, b) for a, b in scale):
        return Equivalence(None, "percent vs fraction (e.g. 50% vs 0.5): equal only if a fraction was asked for")
    return Equivalence(False, "different values (percent vs plain number)")


def _near_miss(pred: _Answer, ref: _Answer, pred_expr: _Expr, ref_expr: _Expr, pairs) -> Equivalence:
    """Not equal: say "undecidable" for rounding and radians-vs-degrees, else "different"."""
    if not pred_expr.names and not ref_expr.names:
        a, b = pairs[0]
        for decimal, other in ((pred.text, b), (ref.text, a)):
            places = _decimal_places(decimal)
            if places and math.isclose(round(other, places), float(decimal), abs_tol=10 ** -(places + 3)):
                return Equivalence(None, f"equal only after rounding to {places} decimal places")
        if pred.degrees != ref.degrees and (pred_expr.has_pi or ref_expr.has_pi):
            radians, degrees = (a, b) if ref.degrees else (b, a)
            if _close(radians * 180 / math.pi, degrees):
                return Equivalence(None, "the same angle in radians and in degrees")
        return Equivalence(False, f"different values: {_fmt(a)} vs {_fmt(b)}")
    return Equivalence(False, "different expressions (differ at a test point)")


def _decimal_places(text: str) -> int:
    match = re.fullmatch(r"\s*-?\d*\.(\d+)\s*", text)
    return len(match.group(1)) if match else 0


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=_REL_TOL, abs_tol=_ABS_TOL)


def _fmt(value: float) -> str:
    return f"{value:.6g}"


# Three fixed assignments; unusual values so that different polynomials rarely agree at all three.
_POINTS = (0.7371, 1.9133, 3.1719)


def _evaluate_pairs(pred: _Expr, ref: _Expr, names: list[str]) -> list[tuple[float, float]] | None:
    pairs = []
    rounds = len(_POINTS) if names else 1
    for k in range(rounds):
        env = {name: _POINTS[(k + i) % len(_POINTS)] + 0.173 * i for i, name in enumerate(names)}
        try:
            pairs.append((pred.evaluate(env), ref.evaluate(env)))
        except (ArithmeticError, ValueError, RecursionError):
            continue
    return pairs or None


# ---------------------------------------------------------------- parser


class _ParseError(ValueError):
    """The text is not an expression this parser reads."""


_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+\.?\d*|\.\d+)|(?P<cmd>\\[A-Za-z]+)|(?P<word>[A-Za-z]+)(?:_(?P<sub>\{\w+\}|\w))?"
    r"|(?P<op>[-+*/^(){}\[\]|!]))"
)
_FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "ln": math.log,
    "log": math.log10,
    "sqrt": math.sqrt,
    "abs": abs,
}
_CONSTANTS = {"pi": math.pi, "inf": math.inf}


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    pos, text = 0, text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise _ParseError(f"unexpected {text[pos:pos + 8]!r}")
        pos = match.end()
        kind = match.lastgroup if match.lastgroup != "sub" else "word"
        if kind == "word":
            tokens.extend(_split_word(match.group("word").lower(), match.group("sub")))
        elif kind == "cmd":
            tokens.append(("cmd", match.group("cmd")[1:]))
        else:
            tokens.append((kind, match.group(kind)))
    return tokens


def _split_word(word: str, sub: str | None) -> list[tuple[str, str]]:
    """ "pi", "sqrt", "sin" are names; "xy" is x times y; "x_1" is one variable; longer words are prose."""
    if word in _CONSTANTS or word in _FUNCTIONS:
        return [("cmd", word)]
    if len(word) > 2:
        raise _ParseError(f"the word {word!r} is text, not a product of variables")
    out = [("var", char) for char in word]
    if sub:
        out[-1] = ("var", out[-1][1] + "_" + sub.strip("{}").lower())
    return out


@dataclass
class _Expr:
    """A parsed expression: an evaluation closure plus the variable names it uses."""

    evaluate: Callable[[dict[str, float]], float]
    names: frozenset[str]
    has_pi: bool = False


class _Parser:
    """Recursive descent: sum := product (+|- product)*; product := unary ((*|/)? unary)*; power is right-assoc."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (value is not None and token[1] != value):
            raise _ParseError(f"expected {value or 'more'}")
        self.i += 1
        return token

    def parse(self) -> _Expr:
        if not self.tokens:
            raise _ParseError("empty")
        expr = self.sum()
        if self.peek() is not None:
            raise _ParseError(f"unexpected {self.peek()[1]!r}")
        return expr

    def sum(self) -> _Expr:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _ParseError("nested too deeply")
        left = self.product()
        while (token := self.peek()) is not None and token[1] in "+-" and token[0] == "op":
            self.take()
            right = self.product()
            left = _binary(left, right, (lambda a, b: a + b) if token[1] == "+" else (lambda a, b: a - b))
        self.depth -= 1
        return left

    def product(self) -> _Expr:
        left = self.unary()
        while (token := self.peek()) is not None:
            if token[0] == "op" and token[1] in "*/":
                self.take()
                right = self.unary()
                left = _binary(left, right, (lambda a, b: a * b) if token[1] == "*" else _divide)
            elif self.starts_atom(token):
                left = _binary(left, self.power(), lambda a, b: a * b)
            else:
                break
        return left

    def unary(self) -> _Expr:
        negative = False
        while (token := self.peek()) is not None and token[0] == "op" and token[1] in "+-":
            self.take()
            negative ^= token[1] == "-"
        inner = self.power()
        return _Expr(lambda env, f=inner.evaluate: -f(env), inner.names, inner.has_pi) if negative else inner

    def power(self) -> _Expr:
        base = self.atom()
        token = self.peek()
        if token is not None and token == ("op", "^"):
            self.take()
            self.depth += 1  # "2^2^2^..." nests to the right
            if self.depth > _MAX_DEPTH:
                raise _ParseError("nested too deeply")
            exponent = self.unary()
            self.depth -= 1
            return _binary(base, exponent, _power)
        if token is not None and token == ("op", "!"):
            raise _ParseError("factorial")
        return base

    @staticmethod
    def starts_atom(token: tuple[str, str]) -> bool:
        return token[0] in ("num", "var", "cmd") or (token[0] == "op" and token[1] in "({[|")

    def atom(self) -> _Expr:
        kind, value = self.take()
        if kind == "num":
            number = float(value)
            return _Expr(lambda env: number, frozenset())
        if kind == "var":
            return _Expr(lambda env: env[value], frozenset([value]))
        if kind == "cmd":
            return self.command(value)
        closing = {"(": ")", "{": "}", "[": "]", "|": "|"}.get(value)
        if closing is None:
            raise _ParseError(f"unexpected {value!r}")
        inner = self.sum()
        self.take(closing)
        if value == "|":
            return _Expr(lambda env, f=inner.evaluate: abs(f(env)), inner.names, inner.has_pi)
        return inner

    def command(self, name: str) -> _Expr:
        if name in _CONSTANTS:
            constant = _CONSTANTS[name]
            return _Expr(lambda env: constant, frozenset(), has_pi=name == "pi")
        if name == "frac":
            numerator, denominator = self.frac_argument(), self.frac_argument()
            return _binary(numerator, denominator, _divide)
        if name == "sqrt":
            return self.root()
        if name in _FUNCTIONS:
            function = _FUNCTIONS[name]
            argument = self.power()
            return _Expr(lambda env, f=argument.evaluate: function(f(env)), argument.names, argument.has_pi)
        raise _ParseError(f"unknown command \\{name}")

    def frac_argument(self) -> _Expr:
        """`\\frac{a}{b}`, and the shorthand `\\frac12` where each argument is one digit."""
        token = self.peek()
        if token is not None and token[0] == "num" and len(token[1]) > 1 and token[1].isdigit():
            digit, rest = token[1][0], token[1][1:]
            self.tokens[self.i] = ("num", rest)
            return _Expr(lambda env: float(digit), frozenset())
        return self.atom()

    def root(self) -> _Expr:
        index = None
        if self.peek() == ("op", "["):
            self.take()
            index = self.sum()
            self.take("]")
        radicand = self.atom()
        if index is None:
            return _Expr(lambda env, f=radicand.evaluate: math.sqrt(f(env)), radicand.names, radicand.has_pi)
        return _binary(radicand, index, _nth_root)


def _binary(left: _Expr, right: _Expr, op: Callable[[float, float], float]) -> _Expr:
    lf, rf = left.evaluate, right.evaluate
    return _Expr(lambda env: op(lf(env), rf(env)), left.names | right.names, left.has_pi or right.has_pi)


def _divide(a: float, b: float) -> float:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


def _power(a: float, b: float) -> float:
    if abs(b) > 1000:
        raise OverflowError("exponent too large")
    result = a**b
    if isinstance(result, complex):
        raise ValueError("complex result")
    return result


def _nth_root(a: float, n: float) -> float:
    if n == 0:
        raise ZeroDivisionError("zeroth root")
    if a < 0 and float(n).is_integer() and int(n) % 2 == 1:
        return -((-a) ** (1 / n))
    return _power(a, 1 / n)


def _parse(text: str) -> _Expr:
    return _Parser(_tokenize(text)).parse()
