"""A free-form response against its gold answer: MathReel's reading first, math-verify's own reading second.

MathReel's rules (`extract_free_answer`, then `math_equivalence`) decide most responses in microseconds and say
exactly what they read. Where they read nothing, or read something they cannot compare (prose around the value,
a matrix after a sentence, an inequality in words), math-verify's own extraction reads the whole response in the
worker process, under the same per-check CPU limit, and its reading is verified against the gold. Its decision is
shown as "math-verify read '…' from the response". Undecidable stays undecidable when math-verify reads no math
either, fails, or runs out of time, when only the question can settle the pair (degrees against radians), and when
the response gives two different final answers (a conflict is never settled by a third reading), and when a
`<think>` block is never closed and ends with no answer line (a value from the reasoning is not an answer), and
when the response is a loop of its working cut off mid-way or one sentence that only compares (`free`), and when it
declines ("it is impossible to determine how many bars exceed 40": the 40 is the question's, and math-verify would
read it and could score it right); it reads only up to a question or turn the response invents ("Assistant: ...").
A JSON
answer field is what math-verify reads then, decoded, never the raw JSON around it (whose stray fragments it
would read).
"""

from __future__ import annotations

from dataclasses import dataclass

from mathreel.core.extract.answer_forms import mixed_number
from mathreel.core.extract.echo import without_echoed_prompt
from mathreel.core.extract.equivalence import Equivalence, Unmemoised, math_equivalence, memoised
from mathreel.core.extract.free import NO_ANSWER_READINGS, declines, extract_free_answer
from mathreel.core.extract.free_value import with_unit_if_gold_has_one
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.math_budget import current_budget
from mathreel.core.extract.math_screen import hostile_reason
from mathreel.core.extract.text import follow_up_starts
from mathreel.core.extract.types import Extraction, quote, unparsed
from mathreel.core.extract.unfinished import stops_mid_step

# math-verify reads at most the last this-many characters of a response. Its work is bounded by its CPU limit;
# this bounds what crosses the pipe and what the memo holds. Final answers are at the end, and math-verify
# prefers the last answer it finds.
MAX_RESPONSE = 10_000

# Readings that say why the response holds no answer: no other reader looks for one.
_SETTLED = ("conflict", "no answer after reasoning", "no answer stated", *NO_ANSWER_READINGS)

SHORT_LINE = 40  # a response this short on one line, that the rules read nothing from, is compared whole


@dataclass(frozen=True)
class FreeVerdict:
    """What was read from the response (and by which reader) and whether it equals the gold."""

    extraction: Extraction
    equivalence: Equivalence

    @property
    def correct(self) -> bool:
        return self.extraction.answer is not None and self.equivalence.equal is True


def free_verdict(response: str | None, gold: str | None, question: str | None = None) -> FreeVerdict:
    """Read `response` and compare it with `gold`; math-verify reads the whole response when the rules cannot.
    `question` (the question's text) tells the rules which quantity of an answer sentence is asked.
    Inside a file's math budget, an answer one of math-verify's limits left undecided is counted there."""
    verdict = _free_verdict(response, gold, question)
    budget = current_budget()
    if budget is not None and verdict.equivalence.equal is None:
        budget.note(verdict.equivalence.explanation)
    return verdict


def _free_verdict(response: str | None, gold: str | None, question: str | None) -> FreeVerdict:
    if isinstance(response, str) and "###" in response:
        response = without_echoed_prompt(response)  # the question's numbers in an echoed prompt are no answer
    extraction = extract_free_answer(response, question)
    if (
        extraction.answer is None
        and response is not None
        and _is_one_short_line(response)
        and not extraction.explanation.startswith(("conflict", *NO_ANSWER_READINGS))
    ):  # "Even", "28 percent": the answer itself
        extraction = Extraction(
            response.strip(), "whole-response", "the response is one short line, read whole", None, "shape"
        )
    if extraction.strength == "shape" or (
        extraction.answer is None and not extraction.explanation.startswith(_SETTLED)
    ):
        stopped = stops_mid_step(response) if isinstance(response, str) else None
        if stopped is not None:  # its values are the working's, not an answer
            cut = unparsed("no answer stated", f"the response stops mid-working: {quote(stopped)!r}")
            return FreeVerdict(cut, Equivalence(None, f"no answer read: {cut.explanation}"))
    if extraction.answer is not None:
        verdict = math_equivalence(with_unit_if_gold_has_one(extraction, gold), gold)
        if verdict.equal is not None or verdict.needs_question:
            return FreeVerdict(extraction, verdict)
    else:
        verdict = Equivalence(None, f"no answer read: {extraction.explanation}")
    if (
        not isinstance(response, str)
        or not response.strip()
        or not isinstance(gold, str)
        or extraction.explanation.startswith(_SETTLED)
    ):
        return FreeVerdict(extraction, verdict)
    declined = declines(response)
    if declined is not None:
        return FreeVerdict(unparsed("no answer stated", f"the response declines: {quote(declined)!r}"), verdict)
    if extraction.method == "json":
        if extraction.answer is None:
            return FreeVerdict(extraction, verdict)
        response = extraction.answer  # the decoded field: the JSON around it is not math-verify's to read
    else:
        starts = follow_up_starts(response, response.lower())
        if starts:  # a question or turn the response invents ("Assistant: ...") is no part of its answer
            response = response[: starts[0]]
    tail = _without_currency(response[-MAX_RESPONSE:])
    equal, why, read = memoised(("read", tail, gold), lambda: _engine_read(tail, gold))
    if equal is None or read is None:
        return FreeVerdict(extraction, Equivalence(None, f"{verdict.explanation}; {why}"))
    reading = Extraction(read, "math-verify", f"math-verify read {quote(read)!r} from the response")
    if mixed_number(read) is not None:  # math-verify reads "49 1/3" as a product; it is 49 and a third
        return FreeVerdict(reading, math_equivalence(read, gold))
    return FreeVerdict(reading, Equivalence(equal, why))


def _without_currency(response: str) -> str:
    """`response` with its dollar signs dropped when every one is a currency sign ("from $5 to $2, a change of -$3"):
    math-verify reads "$" as a math delimiter, and "$5 to $" as math, losing the sign of "-$3"."""
    if "$" not in response or _NOT_CURRENCY.search(response):
        return response
    return _CURRENCY.sub("-", response).replace("$", "")


_NOT_CURRENCY = lazy_regex(r"\\?\$(?![\d.])|\\\$")  # a "$" that opens or closes math, or an escaped one
_CURRENCY = lazy_regex(r"[-\u2212]\$")  # a minus before the sign: "-$3" is -3


def _is_one_short_line(response: str | None) -> bool:
    return isinstance(response, str) and 0 < len(response.strip()) <= SHORT_LINE and "\n" not in response.strip()


def _engine_read(response: str, gold: str) -> tuple[bool | None, str, str | None]:
    hostile = hostile_reason(response, whole_response=True) or hostile_reason(gold)
    if hostile:
        return None, f"undecidable (hostile math): {hostile}; not sent to sympy", None
    from mathreel.core.extract.equivalence_engine import engine_read

    checked = engine_read(response, gold)
    if checked.transient:
        raise Unmemoised(tuple(checked[:3]))
    return checked.equal, checked.why, checked.read
