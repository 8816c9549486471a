"""The checks math-verify runs in the worker process (`python -m mathreel.core.extract.mathverify_checks`).

`equivalence_engine` starts this module as a child and sends one JSON request per line: ["verify", predicted, gold,
cpu_seconds] or ["read", response, gold, cpu_seconds]; each answer is one JSON line. Nothing here runs in the
caller's process. `worker_guard` ends the child with its parent and bounds each check by its CPU time.
"""

from __future__ import annotations

import json
import re
import sys

from mathreel.core.extract.answer_forms import decimal_places, exact_at, rounding_verdict
from mathreel.core.extract.plain_math import plain_math


def _serve() -> None:
    """The child's loop: read a request per line, answer with one JSON line, until stdin closes (or the parent
    goes: `worker_guard`). Each check runs under its CPU-time limit; the answer says how much CPU it used."""
    import logging

    from mathreel.core.extract.worker_guard import die_with_parent, limit_memory, lines_until_parent_goes

    die_with_parent()
    limit_memory()
    import math_verify  # noqa: F401  (imported before "ready", so no check pays for it)

    logging.disable(logging.WARNING)  # math-verify warns on every call that its own timeout is off
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in lines_until_parent_goes():
        sys.stdout.write(json.dumps(_answer(json.loads(line))) + "\n")
        sys.stdout.flush()


def _answer(request: list) -> dict:
    """{"answer": [equal, why, read], "cpu": seconds} or {"out_of_cpu": true, "cpu": seconds}."""
    from mathreel.core.extract.worker_guard import run_with_cpu_limit

    op, first, gold, seconds = request
    if op == "read":
        answer, used = run_with_cpu_limit(lambda: _read_and_verify(first, gold), seconds)
    else:
        answer, used = run_with_cpu_limit(lambda: (*_verify(first, gold), None), seconds)
    if answer is None:
        return {"out_of_cpu": True, "cpu": used}
    return {"answer": list(answer), "cpu": used}


def _verify(predicted: str, gold: str) -> tuple[bool | None, str]:
    """One comparison. Each side is parsed as a LaTeX answer; an unparsed side leaves the pair undecided."""
    from math_verify import LatexExtractionConfig, parse

    config = [LatexExtractionConfig()]
    try:
        pred = parse(f"${_as_latex(predicted)}$", config, parsing_timeout=None)
        ref = parse(f"${_as_latex(gold)}$", config, parsing_timeout=None)
        if not _parsed(pred) or not _parsed(ref):
            side = predicted if not _parsed(pred) else gold
            return None, f"math-verify could not parse {side!r}; a judge can decide"
        rounded = _rounded(predicted, pred[0], gold, ref[0])
        if rounded is not None:
            return rounded
        return _compare(pred, ref, "math-verify: ")
    except Exception as exc:  # sympy raises many kinds on odd input; any of them means "cannot decide"
        return None, f"math-verify failed ({type(exc).__name__}); a judge can decide"


def _read_and_verify(response: str, gold: str) -> tuple[bool | None, str, str | None]:
    """math-verify's own extraction (LaTeX, then plain expressions) over the whole response, against the gold
    parsed as an answer (or, failing that, read the same way). None when it reads no math from either."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    configs = [LatexExtractionConfig(), ExprExtractionConfig()]
    try:
        pred = parse(_drop_inline_across_lines(plain_math(response)), configs, parsing_timeout=None)
        if not _parsed(pred):
            return None, "math-verify read no math from the response either; a judge can decide", None
        ref = parse(f"${_as_latex(gold)}$", configs[:1], parsing_timeout=None)
        if not _parsed(ref):
            ref = parse(gold, configs, parsing_timeout=None)
        if not _parsed(ref):
            return None, f"math-verify could not parse the gold {gold!r}; a judge can decide", pred[1]
        cut = next((side[1] for side in (pred, ref) if not _balanced(side[1])), None)
        if cut is not None:  # "1 + \\frac{1}{": math-verify stopped inside a group, so its value is not the answer's
            return None, f"math-verify read a cut-off expression {cut!r}; a judge can decide", pred[1]
        equal, why = _compare(pred, ref, f"math-verify read {pred[1]!r} from the response: ")
    except Exception as exc:  # as in `_verify`
        return None, f"math-verify failed ({type(exc).__name__}) on the response; a judge can decide", None
    return equal, why, pred[1]


# Plain-text relations and a bare "%" (a comment in LaTeX, which would swallow the rest) as LaTeX writes them.
_ASCII_RELATIONS = {"!=": r" \neq ", ">=": r" \geq ", "<=": r" \leq "}
_PLAIN = re.compile(r"!=|>=|<=|(?<!\\)%")


def _as_latex(answer: str) -> str:
    return _PLAIN.sub(lambda match: _ASCII_RELATIONS.get(match.group(0), r"\%"), answer)


def _balanced(text: str) -> bool:
    """True when every brace in `text` is closed, in order, and every bracket too, "(" or "[" closed by ")" or "]"
    (an interval "[1, 4)" closes; "4)" read out of "[1, 4)" does not)."""
    braces = brackets = 0
    for char in text:
        braces += (char == "{") - (char == "}")
        brackets += (char in "([") - (char in ")]")
        if braces < 0 or brackets < 0:
            return False
    return braces == 0 and brackets == 0


def _compare(pred: list, ref: list, prefix: str) -> tuple[bool, str]:
    """Two parsed answers: a quick point check proves "different", else math-verify's `verify` decides."""
    from math_verify import verify

    witness = _differs_at_a_point(pred[0], ref[0])
    if witness:
        return False, f"{prefix}{pred[0]} ≠ {ref[0]} (they differ at {witness})"
    equal = bool(verify(ref, pred, timeout_seconds=None))
    return equal, f"{prefix}{pred[0]} {'=' if equal else '≠'} {ref[0]}"


# Inline math ("$…$", "\\(…\\)") does not cross a line break (display math "$$…$$", "\\[…\\]" may): a span that
# does is malformed, so it is not read. Both patterns run in linear time.
_SINGLE_DOLLARS = re.compile(r"(?<![\\$])\$(?!\$)[^$]*(?<![\\$])\$(?!\$)")
_INLINE_PARENS = re.compile(r"\\\((?:[^\\]|\\(?!\)))*\\\)")


def _drop_inline_across_lines(text: str) -> str:
    """The response without inline math spans that cross a line break."""
    for pattern in (_SINGLE_DOLLARS, _INLINE_PARENS):
        text = pattern.sub(lambda match: " " if "\n" in match.group(0) else match.group(0), text)
    return text


_POINTS = ("0.6180339887", "1.4142135623", "2.7182818284")  # irrational-looking, so a coincidence is unlikely


def _differs_at_a_point(pred, ref) -> str:
    """ "x=1.414" when two exact expressions (or two equations, up to a constant factor) take clearly different
    values there, "a value" when two exact constants differ; "" when they agree or cannot be evaluated. Proving
    "different" this way takes a millisecond where sympy's simplification takes up to a second; "equal" is always
    left to `verify`. Decimals are left to `verify` too: it rounds them, and so must the verdict.
    """
    from sympy import Eq, Expr, Float

    if isinstance(pred, Eq) and isinstance(ref, Eq):
        pred, ref, ratio = pred.lhs - pred.rhs, ref.lhs - ref.rhs, True
    elif isinstance(pred, Expr) and isinstance(ref, Expr) and not isinstance(pred, Eq) and not isinstance(ref, Eq):
        ratio = False
    else:
        return ""
    if pred.atoms(Float) or ref.atoms(Float):
        return ""
    names = sorted(pred.free_symbols | ref.free_symbols, key=str)
    if len(names) > 4:
        return ""
    values = []
    for point in _POINTS if names else _POINTS[:1]:
        at = {name: Float(point, 30) for name in names}
        try:
            a, b = complex(pred.evalf(30, subs=at)), complex(ref.evalf(30, subs=at))
        except (TypeError, ValueError, ArithmeticError):  # "64%" is 64*(1/100) unevaluated, a set, a relation...
            return ""
        if ratio:
            if abs(b) < 1e-12:
                return ""
            values.append(a / b)
        elif abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)):
            return f"{names[0]}={point[:5]}" if names else "a value"
    if ratio and any(abs(v - values[0]) > 1e-9 * max(1.0, abs(values[0])) or abs(v) < 1e-12 for v in values):
        return f"{names[0]}={_POINTS[0][:5]} and {_POINTS[1][:5]}" if names else "a value"
    return ""


def _rounded(predicted: str, pred, gold: str, ref) -> tuple[bool | None, str] | None:
    """A decimal against an exact number it may round ("1.732" against sqrt(3)): the policy of
    `answer_forms.rounding_verdict`; None when the pair is not a decimal against an exact number."""
    from fractions import Fraction

    from sympy import Expr, Float

    for text, exact_text, exact in ((predicted, gold, ref), (gold, predicted, pred)):
        places = decimal_places(text)
        if places is None or decimal_places(exact_text) is not None or not isinstance(exact, Expr):
            continue
        if exact.free_symbols or exact.atoms(Float):
            continue
        try:
            value = Fraction(str(exact.evalf(30)))
        except (TypeError, ValueError, ArithmeticError):
            return None
        if exact_at(value, places[0]):
            continue
        verdict = rounding_verdict(places[2], places[0], places[1], value)
        if verdict is True:
            return True, f"math-verify: {text} = {exact} rounded to {places[0]} places"
        if verdict is None:
            return None, f"{text} is {exact} rounded to {places[1]} significant digits only; a judge can decide"
        return False, f"math-verify: {text} ≠ {exact} (not that value rounded)"
    return None


def _parsed(found: list) -> bool:
    """math-verify gives back the raw text when it could not read math; only a sympy object counts."""
    return bool(found) and not isinstance(found[0], str)


if __name__ == "__main__":
    _serve()
