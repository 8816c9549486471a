"""A letter against another option's text that the conclusion states in words: a conflict, never a guess.

A response whose concluding sentence says what it picks in the words of one option ("So the true statements are
(ii) and (iii).", "所以正确的顺序是①→②→③", "the store it recommends is ABC Mart.") and then names a letter whose
option is another ("Answer: B" where B is "(i) and (iii)") gives two answers; reading the letter alone would misread
whichever the model meant. Only an option's full and distinctive text counts: two words or more without a digit (values
such as "18 birds" are the value rules' business, and a given value is not a conclusion) or an ordering such as
"③②①", no part of another option's text, and not the stated option's own. A text quoted to reject it ("not (ii)
and (iii)", "rather than ABC Mart") or a conclusion that also states the letter's own text is no conflict, and only
the sentence (or line) right before the statement is looked at, never the working above it, and only when it
concludes ("so", "therefore", "based on", "the answer", "所以": a sentence that describes is no pick).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.text import fold_letters
from mathreel.core.extract.types import quote

_WINDOW = 300  # characters before the statement that hold its concluding sentence
_PIECES = lazy_regex(r"(?<=[.!?。！？])\s+|\n+")
_SHORT_PIECE = 25  # characters: a piece this short without an option's text ("Thus:", "Final answer") is passed over
_MIN_WORDS = 2  # words an option's text needs to be distinctive ("ABC Mart", "(ii) and (iii)"); one word is not
_MIN_SEQUENCE = 3  # digits of an ordering ("③②①", folded to "321")
_SEQUENCE_JOIN = r"[\s,，、→>\-–—]*"
# Words right before an option's text that reject it or set it aside: "not (ii) and (iii)", "rather than ABC Mart".
_REJECTED_BEFORE = lazy_regex(
    r"(?i:\b(?:not|cannot|never|or|versus|vs|between|rather\s+than|instead\s+of|unlike|except|other\s+than|than|nor|neither|exclude[sd]?)\W*"
    r"(?:(?:be|is|are|the|a|an|statements?|(?:option|choice)(?:\s+[a-z])?)\W+)*\Z)|n['’]t\W*\Z|不是\s*\Z|而非\s*\Z|并非\s*\Z"
)
_REJECTED_AFTER = lazy_regex(
    r"\W*(?i:(?:is|are|was|were)\s+(?:not|false|wrong|incorrect)|(?:is|are)n['’]t|(?:[-:–—]\s*)?"
    r"(?:incorrect|wrong|false|no|eliminated|ruled\s+out))\b"
)
# What may follow an option's text that ends the conclusion: closing marks, then the lead-in of the statement on the
# same line ("... is ABC Mart. The answer is A" leaves "the"; "... 1→2→3，答案为B" leaves ",").
_ENDS = lazy_regex(
    r"[\s.,;:!)\]}\"'’”*，。；：、）】」』]*(?:(?:so|thus|therefore|hence|the|my|final|correct|answer|option|choice|is)"
    r"\b[\s,:：*]*)*\Z"
)
# An option's label right before its text: a list line "d. ", "(d) ", or options echoed on one line ("... c. run
# world d. abc mart"), which the sentence split cuts after "d.".
# Words that make a sentence the model's conclusion: "So the true statements are ...", "Based on this, ...", "所以".
_CONCLUDES = lazy_regex(
    r"\b(?:so|thus|therefore|hence|conclusion|conclude|overall|finally|in\s+summary|based\s+on|correct|true|answer)\b"
    r"|所以|因此|故|综上"
)
_OPTION_LABEL = lazy_regex(r"(?:^|\s)(?:option\s+)?[(\[]?[a-z][).\]:][ \t]*\Z")


@lru_cache(maxsize=256)
def _keys(items: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, bool]]:
    """letter -> (the option's text folded as the response is and in lower case, whether it is an ordering of
    digits); options too short to be distinctive are left out."""
    keys: dict[str, tuple[str, bool]] = {}
    orderings: dict[str, str] = {}
    for letter, text in items:
        folded = " ".join(fold_letters(text)[0].lower().split()).strip(" .。")
        digits = "".join(folded.split())
        if digits.isdigit() and len(digits) >= _MIN_SEQUENCE and len(set(digits)) == len(digits):
            orderings[letter] = digits
        elif len(folded.split()) >= _MIN_WORDS and not any(char.isdigit() for char in folded):
            keys[letter] = (folded, False)
    if len(orderings) == len(items) and len({"".join(sorted(digits)) for digits in orderings.values()}) == 1:
        keys.update((letter, (digits, True)) for letter, digits in orderings.items())  # "③②①": every option orders
    return keys  # the same items; "①②③" against "①②④" is a choice of items, which prose lists and rejects freely


@lru_cache(maxsize=64)
def _sequence_pattern(key: str) -> re.Pattern[str]:
    """An ordering's digits with any arrows, commas or blanks between them: "123" as "1→2→3", "1, 2, 3"."""
    return re.compile(r"(?<![\d.])" + _SEQUENCE_JOIN.join(key) + r"(?![\d.])")


def _occurs(piece: str, key: str, sequence: bool) -> int | None:
    """Where `key` occurs in `piece` (lower case) as a whole ("(ii) and (iii)" is not in "(iii) and (ii)"; an
    ordering "123" matches "1→2→3" and "1, 2, 3"), or None. A plain substring search comes first: cheap."""
    if sequence:
        if key[0] not in piece:
            return None
        found = _sequence_pattern(key).search(piece)
        return found.start() if found else None
    at = piece.find(key)
    while at >= 0:
        before = piece[at - 1 : at]
        after = piece[at + len(key) : at + len(key) + 1]
        if not (before.isalnum() and key[0].isalnum()) and not (after.isalnum() and key[-1].isalnum()):
            return at
        at = piece.find(key, at + 1)
    return None


def _end_of(piece: str, at: int, key: str, sequence: bool) -> int:
    """Where the occurrence of `key` at `at` ends: an ordering's last digit, or the text's end."""
    return piece.index(key[-1], at) + 1 if sequence else at + len(key)


def _concluding_piece(text: str, pos: int) -> str:
    """The sentence or line right before `pos` (on the statement's own line, the words before it), passing over a
    short lead-in ("Thus:") for the piece above it."""
    head = text[max(0, pos - _WINDOW) : pos]
    pieces = [piece for piece in _PIECES.split(head) if piece.strip()]
    if not pieces:
        return ""
    if len(pieces) > 1 and len(pieces[-1].strip()) < _SHORT_PIECE:
        return pieces[-2] + " " + pieces[-1]
    return pieces[-1]


def _may_name_another(head: str, letter: str, options: Mapping[str, str]) -> bool:
    """A cheap first test: whether another option's text, as written, is in `head` (lower case), or the options may
    be orderings ("③②①", which the response writes "1→2→3"); the options' keys (`_keys`) cost more."""
    for other, option in options.items():
        if other != letter:
            plain = option.strip(" \t.。").lower()
            if plain and plain in head:
                return True
    first = next(iter(options.values()), "")
    return not first.isascii() and not any(char.isalpha() or char.isspace() for char in first)


def text_against_letter(text: str, pos: int, letter: str, options: Mapping[str, str]) -> tuple[str, str] | None:
    """(what the letter gives, what the conclusion states) when the sentence right before the final statement at
    `pos` states, in words, another option's full distinctive text and not the stated letter's own; else None."""
    if letter not in options or pos <= 0:
        return None
    head = text[max(0, pos - _WINDOW) : pos].lower()
    if not _may_name_another(head, letter, options):
        return None  # most statements: no other option's text before them, found by plain substring tests
    keys = _keys(tuple(options.items()))
    if len(keys) < 2:
        return None  # options of one word or a number: too common to be told apart in prose
    if not any(
        (key[0] in head and key[-1] in head) if sequence else key in head
        for other, (key, sequence) in keys.items()
        if other != letter
    ):
        return None  # no other option's text anywhere near: most statements end here, before any regex
    piece = _concluding_piece(text, pos).lower()
    if not piece:
        return None
    if not _CONCLUDES.search(piece):
        return None  # a sentence that describes ("The sign says ABC Mart.") is no conclusion of what is picked
    own = keys.get(letter)
    if own is not None and _occurs(piece, *own) is not None:
        return None  # the conclusion states the letter's own text
    named = []
    for other, (key, sequence) in keys.items():
        if other == letter or (own is not None and key in own[0]):
            continue
        if any(key in other_key for o, (other_key, _) in keys.items() if o != other and o != letter):
            continue  # a text shared by several options says nothing of which one
        at = _occurs(piece, key, sequence)
        if at is None or _REJECTED_BEFORE.search(piece[max(0, at - 30) : at]):
            continue
        if not sequence and _REJECTED_AFTER.match(piece, at + len(key)):
            continue  # "(ii) and (iii) are false", "ABC Mart - incorrect"
        if _OPTION_LABEL.search(piece[max(0, at - 8) : at]):
            continue  # an option line of a list or a walk through them ("D. ABC Mart"), not a conclusion
        if not _ENDS.match(piece, _end_of(piece, at, key, sequence)):
            continue  # named on the way ("ABC Mart is too far, so ..."): only a text the conclusion ends on counts
        named.append(other)
    if len(named) != 1:
        return None
    other = named[0]
    return (
        f"the letter {letter} ({options[letter]!r})",
        f"the conclusion before it, {quote(piece.strip(), 60)!r}, states option {other}'s text ({options[other]!r})",
    )
