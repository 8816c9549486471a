"""A free-form answer written as something other than one plain value: a number in words ("\\boxed{Six}"), or one
value written two ways ("approximately 0.172 or 17.2%"), or a sentence ("the answer is that the router can reach
10 + 20 = 30 hosts").

A box that holds only a number word is that number: math-verify reads "Six" as a symbol, so "\\boxed{Six}" against
6 would be scored different. An answer that gives a value and its percentage ("0.25, or 25%", "45% or 0.45") is one
answer, read as its first form; when the two forms are different values ("0.2 or 25%") the response gives two
answers, and it is read as a conflict. Two values with no percentage between them ("x = 2 or x = 3") are left as they
are: they may be the answer's set of roots.

"The answer is that <a sentence>" gives the value that sentence states, else the last number it ends its working
on ("a total of 10 + 20 = 30 destinations" reads 30, "at a price of $65 or below" reads 65); a sentence that
declines ("that it cannot be determined") is no answer, and one with no number is read as written (for a judge).
"""

from __future__ import annotations

from collections.abc import Callable

from mathreel.core.extract.free_sentence import number_word, stated_value
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.types import Extraction, conflict, quote, unparsed

_WRAPPED = lazy_regex(r"\\(?:text|textbf|mathrm|mathbf|textit)\s*\{([^{}]*)\}")


def number_in_words(content: str) -> str | None:
    """The number a box's content is when that content is only a number word ("Six", "\\text{twenty-one}")."""
    return number_word(_WRAPPED.sub(r"\1", content).strip().rstrip(".").strip(), whole=True)


_NUMBER = r"-?\d+(?:\.\d+)?"
_ABOUT = r"(?:(?:approximately|approx\.?|about|around|roughly|nearly)\s+|[~≈]\s*)?"
_TWO_FORMS = lazy_regex(
    rf"(?i){_ABOUT}(?P<first>{_NUMBER})\s*(?P<first_pct>%|\\%)?\s*,?\s+or\s+{_ABOUT}"
    rf"(?P<second>{_NUMBER})\s*(?P<second_pct>%|\\%)?"
)
_TOLERANCE = 0.01  # relative: "0.17 or 17.2%" is one value rounded two ways


def one_of_two_forms(found: Extraction) -> Extraction:
    """`found`, read as its first form when its answer is one value written as a number and as a percentage, or a
    conflict when those two are different values; any other answer unchanged."""
    answer = found.answer
    if answer is None or " or " not in answer.lower():
        return found
    match = _TWO_FORMS.fullmatch(answer.strip().rstrip("."))
    if match is None or bool(match.group("first_pct")) == bool(match.group("second_pct")):
        return found
    first, second = float(match.group("first")), float(match.group("second"))
    if match.group("first_pct"):
        first /= 100
    else:
        second /= 100
    if abs(first - second) <= _TOLERANCE * max(abs(first), abs(second)):
        value = match.group("first") + (match.group("first_pct") or "")
        why = f"{found.explanation}; one value written two ways, read as its first form {quote(value)!r}"
        return Extraction(value, found.method, why, found.span, found.strength)
    return conflict(
        f"{quote(match.group('first') + (match.group('first_pct') or ''))!r}",
        f"{quote(match.group('second') + (match.group('second_pct') or ''))!r} (a different value)",
        found.method,
    )


# A number of a sentence, with the working that ends on it ("10 + 20 = 30"); "$" and thousands commas allowed; never
# the digit of a name ("m1", "R2").
_NUMBER_RUN = lazy_regex(
    r"(?<![\w.])\$?-?\d[\d,]*(?:\.\d+)?(?:[ \t]*[-+*/×=][ \t]*\$?-?\d[\d,]*(?:\.\d+)?)*(?![\w.]*\d)"
)


def clause_answer(clause: str, why: str, declines: Callable[[str], str | None]) -> Extraction:
    """The reading of "the answer is that <clause>" (see the module docstring); `clause` starts with "that ", and
    `declines` gives the words with which a text declines to answer (`free.declines`)."""
    value = stated_value(clause[5:])
    if value is None:
        declined = declines(clause)
        if declined is not None:
            return unparsed("no answer stated", f"{why}: it declines ({quote(declined)!r})", "answer-phrase")
        runs = _NUMBER_RUN.findall(clause)
        if not runs:
            return Extraction(clause, "answer-phrase", why, None, "explicit")
        value = runs[-1].replace("$", "").replace(",", "")
        value = value.rsplit("=", 1)[-1].strip()
    return Extraction(value, "answer-phrase", f"{why}; the value its sentence states", None, "explicit")
