"""Yes/No questions answered by restating their comparison: the question's text is needed to read them.

"Is the number of red cubes greater than the number of blue spheres?" (A. Yes, B. No) answered "The number of red
cubes is equal to the number of blue spheres." means No, though the response names neither option. The reading is
kept narrow, because a misread is worse than no reading:
- the options are exactly a Yes/No pair (any letters, any order, case and end punctuation aside);
- nothing else was read ("no letter found", or letters only named: "Line A is longer than line B."): a stronger
  reading always wins;
- only the response's concluding sentence is read, never one in the working; a conditional or hedged sentence, a
  question, a sentence cut off, and a `<think>` block never closed are not read;
- its two subjects are the question's (the same words, articles aside; either order, the relation turned round)
  and its relation is one of greater/more/larger/bigger/taller/longer/higher/older, less/fewer/smaller/shorter/
  lower/younger, or equal/the same/as many, about the same thing (a number, a height, a length, an age, a size);
  a count may be said of what is seen ("The image shows more jets than buses.", "I can see fewer ..."), and a
  sentence's last clause is read after its connector ("I see 3 buses and 5 jets, so there are fewer buses than jets").
An answer line after the prose keeps its reading unless the sentence before it restates the comparison the other way:
then both are final answers of the same weight, a conflict.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import NamedTuple

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.text import strip_think
from mathreel.core.extract.types import Extraction, conflict, quote

METHOD = "restated-comparison"
# the reasons of a reading that found nothing: no letter at all, or letters only as names ("line A is longer")
_NO_ANSWER = ("no letter found", "no explicit answer")

Relation = str  # "gt" | "lt" | "eq"
_INVERSE = {"gt": "lt", "lt": "gt", "eq": "eq"}
# comparatives of a count ("the number of X is larger than ...", "there are fewer X than Y")
_COUNT_WORDS = {
    **dict.fromkeys(("greater", "larger", "bigger", "higher", "more"), "gt"),
    **dict.fromkeys(("less", "fewer", "smaller", "lower"), "lt"),
}
# comparatives of an attribute ("X is taller than Y"): what they measure and which way
_ATTRIBUTES: dict[str, tuple[frozenset[str], Relation]] = {
    "taller": (frozenset({"height"}), "gt"),
    "higher": (frozenset({"height"}), "gt"),
    "lower": (frozenset({"height"}), "lt"),
    "shorter": (frozenset({"height", "length"}), "lt"),
    "longer": (frozenset({"length"}), "gt"),
    "older": (frozenset({"age"}), "gt"),
    "younger": (frozenset({"age"}), "lt"),
    "bigger": (frozenset({"size"}), "gt"),
    "larger": (frozenset({"size"}), "gt"),
    "smaller": (frozenset({"size"}), "lt"),
}
_BASES = {  # "as tall as": the same height
    "tall": frozenset({"height"}),
    "high": frozenset({"height"}),
    "low": frozenset({"height"}),
    "short": frozenset({"height", "length"}),
    "long": frozenset({"length"}),
    "old": frozenset({"age"}),
    "young": frozenset({"age"}),
    "big": frozenset({"size"}),
    "large": frozenset({"size"}),
    "small": frozenset({"size"}),
}
_COUNT = "|".join(_COUNT_WORDS)
_ADJ = "|".join(_ATTRIBUTES)
_BASE = "|".join(_BASES)
_DIM = "height|length|size|age"
_BE = r"(?:is|are|was|were)"
_NOT = r"(?P<neg>\s+not|n't)?"

_ASKED = (  # the question's comparison, in lower case, without its "?"
    lazy_regex(
        rf"(?:is|are) the number of (?P<x>.+?) (?:(?P<rel>{_COUNT}) than|(?P<eq>equal to|the same as)) "
        r"the number of (?P<y>.+)"
    ),
    lazy_regex(r"are there (?P<rel>more|fewer|less) (?P<x>.+?) than (?P<y>.+)"),
    lazy_regex(r"are there as many (?P<x>.+?) as (?P<y>.+)"),
    lazy_regex(rf"(?:is|are) (?P<x>.+?) (?P<adj>{_ADJ}) than (?P<y>.+)"),
    lazy_regex(
        rf"(?:is|are) (?P<x>.+?) (?:the same (?P<dim>{_DIM}) as|equal in (?P<dim2>{_DIM}) to|as (?P<base>{_BASE}) as)"
        r" (?P<y>.+)"
    ),
)
_STATED = (  # the concluding sentence's comparison, in lower case
    lazy_regex(
        rf"the number of (?P<x>.+?) {_BE}{_NOT} (?:(?P<rel>{_COUNT}) than|(?P<eq>equal to|the same as)) "
        r"the number of (?P<y>.+)"
    ),
    lazy_regex(rf"there (?:are|is|were|was){_NOT} (?P<rel>more|fewer|less) (?P<x>.+?) than (?P<y>.+)"),
    lazy_regex(rf"there (?:are|is|were|was){_NOT} as many (?P<x>.+?) as (?P<y>.+)"),
    # "the image shows more jets than buses", "i can see fewer buses than jets": a count said of what is seen
    lazy_regex(
        r"(?:(?:the|this) (?:image|picture|photo|scene|figure|video) (?:shows|has|contains|depicts)"
        r"|i (?:can )?(?:see|count)) (?P<rel>more|fewer|less) (?P<x>.+?) than (?P<y>.+)"
    ),
    lazy_regex(rf"(?P<x>.+?) {_BE}{_NOT} (?P<adj>{_ADJ}) than (?P<y>.+)"),
    lazy_regex(
        rf"(?P<x>.+?) {_BE}{_NOT} (?:the same (?P<dim>{_DIM}) as|equal in (?P<dim2>{_DIM}) to|as (?P<base>{_BASE}) as)"
        r" (?P<y>.+)"
    ),
)
_CLAUSE_STOPS = ".!?\n:："  # what ends the text before a question clause
_CLAUSE_MAX = 300  # characters: a longer question clause is not a comparison read here
_CLAUSES_READ = 4  # question marks, from the last: a question text may hold many, the asked one is near the end
_CONNECTOR = lazy_regex(
    r"(?:so|thus|therefore|hence|overall|clearly|finally|in conclusion|in summary|in short|yes|no)\b,?\s*"
)
_UNSURE = lazy_regex(
    r"\b(?:if|unless|suppos\w*|assum\w*|whether|maybe|perhaps|probably|possibly|might|may|could|would|seems?"
    r"|appears?|likely|roughly|about|approximately|not sure|unclear|hard to)\b|\bor\b"
)
_PLACE = lazy_regex(r"\s+(?:in|on) (?:the|this) (?:image|picture|figure|photo|video|scene|chart|graph|diagram)$")
_COUNT_NOTE = lazy_regex(r"\s*\(\s*\d+\s*\)")  # "red cubes (4)"
_WORDS = lazy_regex(r"[a-z0-9]+")
_ARTICLES = frozenset({"the", "a", "an"})
_SENTENCE_END = lazy_regex(r"[.!?](?=\s)|\n")
_MARKS = lazy_regex(r"[*_`#]+")
_LINE_MAX = 300  # characters: a concluding sentence longer than this is not a restated comparison


class _Comparison(NamedTuple):
    x: tuple[str, ...]
    y: tuple[str, ...]
    relation: Relation
    measure: frozenset[str]  # frozenset({"number"}) for counts, else what an attribute measures
    negated: bool


def yes_no_letters(options: Mapping[str, str] | None) -> tuple[str, str] | None:
    """(the Yes letter, the No letter) when the options are exactly a Yes/No pair, else None."""
    if not options or len(options) != 2:
        return None
    found = {_plain_option(text): letter for letter, text in options.items()}
    yes, no = found.get("yes"), found.get("no")
    return (yes, no) if yes is not None and no is not None else None


def may_be_yes_no(options: tuple[str, ...]) -> bool:
    """A cheap test on a question's raw options ("A. Yes", "B. No"): True for every Yes/No pair (and perhaps a few
    others), so a memo can keep such questions' readings per question and all others per option set."""
    return len(options) == 2 and {_last_word(option) for option in options} == {"yes", "no"}


def _plain_option(text: str) -> str:
    return text.strip().strip(".!*").strip().lower()


def _last_word(option: str) -> str:
    return option.strip().rstrip(".!*").rsplit(None, 1)[-1].lower() if option.strip() else ""


def with_question(found: Extraction, response: str, options: Mapping[str, str] | None, question: str) -> Extraction:
    """`found` (the reading without the question), or the Yes/No letter the concluding sentence gives when nothing
    was read, or a conflict when an answer line follows a sentence that gives the other letter."""
    if found.answer is None:
        if found.method != "none" or not found.explanation.startswith(_NO_ANSWER):
            return found
        pair = yes_no_letters(options)
        if pair is None:
            return found
        read = _concluding(response, pair, question)
        return read if read is not None else found
    if found.span is None or "\n" not in response[: found.span[0]]:
        return found
    pair = yes_no_letters(options)
    if pair is None:
        return found
    line_start = response.rfind("\n", 0, found.span[0]) + 1
    before = _concluding(response[:line_start], pair, question)
    if before is None or before.answer == found.answer:
        return found
    return conflict(
        f"the sentence before the answer line restates the comparison as {before.answer}",
        f"the answer line gives {found.answer}",
        found.method,
    )


def _concluding(response: str, pair: tuple[str, str], question: str) -> Extraction | None:
    """The Yes or No letter the last sentence of `response` gives by restating the question's comparison."""
    asked = _asked(question)
    if asked is None:
        return None
    text, offset = response, 0
    if "think>" in response.lower():
        text, note = strip_think(response)
        if "never closed" in note:
            return None
        offset = response.lower().rfind("</think>") + len("</think>")
    end = len(text.rstrip())
    if end == 0 or text[end - 1] in "?？":
        return None
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, end - 1)]
    start = starts[-1] if starts else 0
    sentence = text[start:end]
    if len(sentence) > _LINE_MAX:
        return None
    letter = next(filter(None, (_answer(asked, stated, pair) for stated in _stated(sentence))), None)
    if letter is None:
        return None
    lead = len(sentence) - len(sentence.lstrip())
    yes = "Yes" if letter == pair[0] else "No"
    return Extraction(
        letter,
        METHOD,
        f"the concluding sentence restates the question's comparison, so {yes}: {quote(sentence)!r}",
        (offset + start + lead, offset + end),
        "shape",
    )


@lru_cache(maxsize=256)
def _asked(question: str) -> _Comparison | None:
    """The comparison the question asks about: the one question clause that is one (of the last few), else None.
    Cached: every answer to a question asks it again. Each clause is read within `_CLAUSE_MAX` characters before
    its "?", so a long question costs no more than a short one."""
    found: set[_Comparison] = set()
    lower = question.lower()
    end = len(lower)
    for _ in range(_CLAUSES_READ):
        end = lower.rfind("?", 0, end)
        if end < 0:
            break
        window = max(0, end - _CLAUSE_MAX)
        start = max(lower.rfind(stop, window, end) for stop in _CLAUSE_STOPS) + 1
        if start == 0 and window > 0:
            continue  # no clause start within reach
        comparison = _match(_ASKED, " ".join(_MARKS.sub("", lower[start:end]).split()))
        if comparison is not None:
            found.add(comparison)
    return found.pop() if len(found) == 1 else None


def _stated(sentence: str) -> Iterator[_Comparison]:
    """The comparisons the sentence may state: the whole sentence's, then the one after an opening phrase ("Looking
    at the figure, the blue line is longer than the red line"); none when it is conditional or unsure."""
    text = " ".join(_MARKS.sub("", sentence).lower().split()).rstrip(".!").strip()
    text = _CONNECTOR.sub("", text, count=1) if _CONNECTOR.match(text) else text
    if _UNSURE.search(text):
        return
    parts = (text, text.split(", ", 1)[1], text.rsplit(", ", 1)[1]) if ", " in text else (text,)
    for part in dict.fromkeys(parts):  # "I see 3 buses and 5 jets, so there are fewer buses than jets": its last
        part = _CONNECTOR.sub("", part, count=1) if part is not text and _CONNECTOR.match(part) else part
        found = _match(_STATED, part)
        if found is not None:
            yield found


def _match(patterns: tuple[re.Pattern[str], ...], text: str) -> _Comparison | None:
    for pattern in patterns:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        groups = match.groupdict()
        x, y = _subject(groups["x"]), _subject(groups["y"])
        if not x or not y or x == y:
            return None
        negated = bool(groups.get("neg"))
        if groups.get("adj"):
            measure, relation = _ATTRIBUTES[groups["adj"]]
        elif groups.get("base") or groups.get("dim") or groups.get("dim2"):
            base = groups.get("base")
            measure, relation = (_BASES[base] if base else frozenset({groups.get("dim") or groups["dim2"]})), "eq"
        else:
            rel = groups.get("rel")
            measure, relation = frozenset({"number"}), (_COUNT_WORDS[rel] if rel else "eq")
        return _Comparison(x, y, relation, measure, negated)
    return None


def _subject(phrase: str) -> tuple[str, ...]:
    """A subject phrase's words, articles, a trailing "in the image" and count notes "(4)" aside."""
    phrase = _COUNT_NOTE.sub("", _PLACE.sub("", phrase.strip()))
    return tuple(_stem(word) for word in _WORDS.findall(phrase) if word not in _ARTICLES)


def _stem(word: str) -> str:
    """A noun without its plural ending, the same for "bus", "buses" and a question's "buss", "cube" and "cubes"."""
    return word.rstrip("es") if len(word) > 3 else word


def _answer(asked: _Comparison, stated: _Comparison, pair: tuple[str, str]) -> str | None:
    """The Yes or No letter `stated` gives to `asked`, or None when it does not decide it."""
    if asked.negated or not (asked.measure & stated.measure):
        return None
    if (stated.x, stated.y) == (asked.x, asked.y):
        relation = stated.relation
    elif (stated.x, stated.y) == (asked.y, asked.x):
        relation = _INVERSE[stated.relation]
    else:
        return None
    yes, no = pair
    if not stated.negated:
        return yes if relation == asked.relation else no
    return no if relation == asked.relation else None  # "not greater" answers "greater?", not "less?"
