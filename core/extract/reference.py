"""Faithful re-implementations of the reference extractors, each pinned to the commit it reproduces.

`REPRODUCTIONS` names every one (`mathreel score --extractor help` lists them). The quirks are kept on purpose:
the Video-MME script and lmms-eval's old regex read the first capital letter of a fixed set after deleting a few
case-sensitive phrases, two of which are joined by a missing comma into one string that never occurs
("The best option isThe correct option is"); lower-case phrases are not deleted, so "Based on the video, the
answer is D." reads as B (the B of "Based"). lmms-eval's `mcq_extract` ranks candidate letters by format instead.
Upstream sources, with paths and commits, are listed in docs/sources.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.types import Extraction, unparsed

# The phrase lists exactly as the reference scripts spell them, adjacent-string joins included.
_FIRST_PHRASES = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option isThe correct option is",  # the reference's missing comma
    "Best answer:Best option:",  # the reference's missing comma
)
# thanku-all/parse_answer@afd52cf (2024-06-23) appended four phrases; the missing commas stayed.
_CURRENT_PHRASES = (*_FIRST_PHRASES, "Answer:", "Option:", "The correct answer", "The correct option")
_LMMS_PHRASES = _FIRST_PHRASES  # lmms-eval's Video-MME (before 2026-04-11) and VideoMathQA lists
# Video-MME-v2's official script: eleven prefixes, commas all present, "Final Answer:" first.
_V2_PHRASES = (
    "Final Answer:",
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option is",
    "The correct option is",
    "Best answer:",
    "Best option:",
    "Answer:",
    "Option:",
)
# lmms-eval's videomme_v2: the same eleven, "Final Answer:" seventh (deletion order can matter).
_LMMS_V2_PHRASES = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option is",
    "The correct option is",
    "Final Answer:",
    "Best answer:",
    "Best option:",
    "Answer:",
    "Option:",
)


class _Rule(NamedTuple):
    """One reference script's constants: its phrase list, its capital-letter class and that class's label (a
    NamedTuple: a dataclass costs a compile per method at every start)."""

    name: str
    phrases: tuple[str, ...]
    letter_class: re.Pattern[str]
    label: str  # "A-D"
    heads: tuple[str, ...]  # the first words of the phrases: a text without any of them has nothing to delete


def _rule(name: str, phrases: tuple[str, ...], letters: str) -> _Rule:
    heads = tuple(sorted({phrase.split(" ", 1)[0] for phrase in phrases}))
    return _Rule(name, phrases, lazy_regex(f"[{letters}]"), f"{letters[0]}-{letters[-1]}", heads)


_OFFICIAL = _rule("official", _CURRENT_PHRASES, "ABCD")
_OFFICIAL_FIRST = _rule("official-2024-06-18", _FIRST_PHRASES, "ABCD")
_LMMS = _rule("lmms-regex", _LMMS_PHRASES, "ABCDE")
_LMMS_VIDEOMME = _rule("lmms-regex", _LMMS_PHRASES, "ABCD")
_OFFICIAL_V2 = _rule("official", _V2_PHRASES, "ABCDEFGH")
_LMMS_V2 = _rule("lmms-eval", _LMMS_V2_PHRASES, "ABCDEFGH")


def _reference(response: str | None, rule: _Rule, letters: Sequence[str]) -> Extraction:
    """The shared algorithm: strip, delete phrases, the >10-words rule, then the first capital of the class.

    Deleting is skipped when no phrase's first word occurs (nothing could be deleted then), and the words are
    counted only when no capital was found (the only case where the count matters): same result, less work.
    """
    if not isinstance(response, str):
        return unparsed("empty response", "no text to read", method=rule.name)
    text, found = _first_capital(response, rule)
    if found is None:
        if len(text.split()) > 10:
            return unparsed("no letter found", f"more than 10 words and no capital {rule.label}", rule.name)
        return unparsed("no letter found", f"no capital {rule.label}", rule.name)
    letter = found.group(0)
    where = f"first capital {rule.label} at character {found.start()} of the text after phrase deletion"
    if letter not in letters:
        where += f"; {letter} is not among {', '.join(letters)}, so the reference counts it wrong"
    return Extraction(letter, rule.name, where)


def _first_capital(response: str, rule: _Rule) -> tuple[str, re.Match[str] | None]:
    """The text after stripping and phrase deletion, and its first capital of the rule's class."""
    text = response.strip()
    for head in rule.heads:
        if head in text:
            for phrase in rule.phrases:
                text = text.replace(phrase, "")
            break
    return text, rule.letter_class.search(text)


def _letter(response: str, rule: _Rule) -> str | None:
    if not isinstance(response, str):
        return None
    found = _first_capital(response, rule)[1]
    return found.group(0) if found else None


def extract_choice_official(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> Extraction:
    """The Video-MME `eval_your_results.py` the Video-MME README links today (parse_answer@afd52cf).

    It always reads capitals A-D whatever `letters` says; a letter outside `letters` is still returned
    because the official script compares it with the gold letter and counts it wrong. Unparsed here is the
    script's empty string; dropping those from the denominator is scoring's "answered" policy.
    """
    return _reference(response, _OFFICIAL, letters)


def extract_choice_official_2024_06_18(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> Extraction:
    """The first published `eval_your_results.py` (2024-06-18, six phrases; "Answer: C" reads as A)."""
    return _reference(response, _OFFICIAL_FIRST, letters)


def extract_choice_lmms(response: str, letters: Sequence[str] = ("A", "B", "C", "D", "E")) -> Extraction:
    """lmms-eval's VideoMathQA `extract_characters_regex`: the first version's algorithm over capitals A-E."""
    return _reference(response, _LMMS, letters)


def extract_choice_lmms_videomme(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> Extraction:
    """lmms-eval's Video-MME `extract_characters_regex` before 2026-04-11: the same algorithm over A-D."""
    return _reference(response, _LMMS_VIDEOMME, letters)


def extract_choice_videomme_v2(response: str, letters: Sequence[str] = tuple("ABCDEFGH")) -> Extraction:
    """Video-MME-v2's `extract_characters_regex_v2`: eleven prefixes deleted, then the first capital A-H anywhere
    ("Based on the frames, Final Answer: C" reads B). Unparsed is the script's empty string, which it scores -1."""
    return _reference(response, _OFFICIAL_V2, letters)


def extract_choice_lmms_videomme_v2(response: str, letters: Sequence[str] = tuple("ABCDEFGH")) -> Extraction:
    """lmms-eval's videomme_v2 `extract_characters_regex`: the same rule with "Final Answer:" deleted seventh."""
    return _reference(response, _LMMS_V2, letters)


def videomme_v2_letter(response: str, letters: Sequence[str] = tuple("ABCDEFGH")) -> str | None:
    return _letter(response, _OFFICIAL_V2)


def lmms_videomme_v2_letter(response: str, letters: Sequence[str] = tuple("ABCDEFGH")) -> str | None:
    return _letter(response, _LMMS_V2)


def official_letter(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> str | None:
    """Only the letter `extract_choice_official` reads (None when it reads nothing); `letters` is ignored."""
    return _letter(response, _OFFICIAL)


def official_2024_letter(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> str | None:
    return _letter(response, _OFFICIAL_FIRST)


def lmms_letter(response: str, letters: Sequence[str] = ("A", "B", "C", "D", "E")) -> str | None:
    """Only the letter `extract_choice_lmms` reads (None when it reads nothing), by the same steps."""
    return _letter(response, _LMMS)


def lmms_videomme_letter(response: str, letters: Sequence[str] = ("A", "B", "C", "D")) -> str | None:
    return _letter(response, _LMMS_VIDEOMME)


ReferenceExtractor = tuple[Callable[..., Extraction], Callable[..., str | None]]  # (extract, its letter-only twin)

# The registry of rule-based reference extractors, by the name a benchmark's `OfficialScorer.extractor` gives.
# A new reproduction is one function pair here and one name in its benchmark module. lmms-eval's `mcq_extract`
# lives in its own module and is registered lazily (`reference_extractor`).
REFERENCE_EXTRACTORS: dict[str, ReferenceExtractor] = {
    "extract_choice_official": (extract_choice_official, official_letter),
    "extract_choice_official_2024_06_18": (extract_choice_official_2024_06_18, official_2024_letter),
    "extract_choice_lmms": (extract_choice_lmms, lmms_letter),
    "extract_choice_lmms_videomme": (extract_choice_lmms_videomme, lmms_videomme_letter),
    "extract_choice_videomme_v2": (extract_choice_videomme_v2, videomme_v2_letter),
    "extract_choice_lmms_videomme_v2": (extract_choice_lmms_videomme_v2, lmms_videomme_v2_letter),
}
_LAZY = ("extract_choice_mcq", "extract_choice_evalscope")


def reference_extractor(name: str) -> ReferenceExtractor:
    """A registered reference extractor and its letter twin, by name; KeyError listing the names otherwise."""
    found = REFERENCE_EXTRACTORS.get(name)
    if found is not None:
        return found
    if name == "extract_choice_mcq":
        from mathreel.core.extract.mcq_extract import extract_choice_mcq, mcq_letter

        return extract_choice_mcq, mcq_letter
    if name == "extract_choice_evalscope":
        from mathreel.core.extract.evalscope_extract import evalscope_letter, extract_choice_evalscope

        return extract_choice_evalscope, evalscope_letter
    raise KeyError(f"no reference extractor {name!r}; registered: {', '.join([*REFERENCE_EXTRACTORS, *_LAZY])}")
