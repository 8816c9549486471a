"""A question's choices: the letter of each option and its text, defined once for every reader.

`Question.letters`, `Question.option_texts`, scoring and the judge all read options through these functions. The
usual spelling, a capital then one of `.):：` ("A. text"), is recognised from the options' first two characters
(taken in C and cached) because a large result file has a million options; anything else goes through
`split_option`'s regex. `OptionTexts` splits the texts only when first asked: short answers never need them.
"""

from __future__ import annotations

import re
from collections.abc import ItemsView, Iterator, Mapping
from functools import lru_cache
from operator import itemgetter

from mathreel.core.extract.lazy import lazy_regex

_OPTION_LETTER = lazy_regex(r"^\s*\(?([A-Z])\s*[\.\):：]\s*(.*)$", re.S)  # most options never need it
_OPTION_MARKS = ".):："  # the marks `split_option` accepts right after the letter
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def split_option(option: str) -> tuple[str, str]:
    """Split an option string such as "A. 30 degrees" or "B:60°" into (letter, text).

    An option without a leading letter returns ("", option) so callers can number it themselves.
    """
    match = _OPTION_LETTER.match(option)
    if not match:
        return "", option.strip()
    return match.group(1), match.group(2).strip()


def option_letters(options: tuple[str, ...]) -> tuple[str, ...]:
    """The letter of each option: the letters the options name, or A, B, ... by position unless every option
    names its own."""
    try:
        firsts = tuple(map(_FIRST, options))
        seconds = tuple(map(_SECOND, options))
    except IndexError:  # an option shorter than two characters
        return _letters_by_regex(options)
    return firsts if _usual_shape(firsts, seconds) else _letters_by_regex(options)


def letters_of_starts(starts: tuple[str, ...]) -> tuple[str, ...] | None:
    """`option_letters` of options beginning with `starts` (each option's first two characters) when those alone
    decide it (every one a capital and a mark, "A.", "B)"); None when the rest of the options may matter."""
    if not all(len(start) == 2 for start in starts):
        return None
    firsts = tuple(map(_FIRST, starts))
    return firsts if _usual_shape(firsts, tuple(map(_SECOND, starts))) else None


@lru_cache(maxsize=256)
def _usual_shape(firsts: tuple[str, ...], seconds: tuple[str, ...]) -> bool:
    return all("A" <= a <= "Z" and b in _OPTION_MARKS for a, b in zip(firsts, seconds, strict=True))


@lru_cache(maxsize=256)
def distinct_letters(letters: tuple[str, ...]) -> tuple[str, ...]:
    """The letters once each, in order (a question that repeats a letter allows it once)."""
    return tuple(dict.fromkeys(letters))


def _letters_by_regex(options: tuple[str, ...]) -> tuple[str, ...]:
    letters = tuple(split_option(option)[0] for option in options)
    return letters if all(letters) else tuple(chr(ord("A") + i) for i in range(len(options)))


def option_text(option: str) -> str:
    """`split_option(option)[1]`, with "A. text" split by slicing."""
    if len(option) >= 2 and "A" <= option[0] <= "Z" and option[1] in _OPTION_MARKS:
        return option[2:].strip()
    return split_option(option)[1]


class OptionTexts(Mapping[str, str]):
    """Letter -> option text of one question (a later option with a repeated letter wins), split on first use."""

    __slots__ = ("_letters", "_options", "_texts")

    def __init__(self, options: tuple[str, ...], letters: tuple[str, ...] | None = None) -> None:
        self._options = options
        self._letters = option_letters(options) if letters is None else letters
        self._texts: dict[str, str] | None = None

    def _split(self) -> dict[str, str]:
        if self._texts is None:
            self._texts = {
                letter: option_text(option) for letter, option in zip(self._letters, self._options, strict=True)
            }
        return self._texts

    def __getitem__(self, letter: str) -> str:
        return self._split()[letter]

    def items(self) -> ItemsView[str, str]:
        return self._split().items()

    def __iter__(self) -> Iterator[str]:
        return iter(self._split())

    def __len__(self) -> int:  # without splitting: the extractor asks whether there are options at all
        return len(self._texts) if self._texts is not None else len(set(self._letters))
