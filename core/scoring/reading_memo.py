"""Choice readings memoised across one scored file: a response that many answers share is read once.

A reading depends on the response, the letters the question allows, the option texts, and the extractors in use
(fixed for one `score` call). Most answers never need the option texts ("B", "B.", "The answer is B."), so their
reading holds for every question with the same letters; the rest are read per question. Which kind a reading was
is not guessed from the response's shape: the question's `OptionMatcher` is handed to the reader as a
`_Watched` one, which turns back into a plain `OptionMatcher` the moment anything of it is looked at (its length,
a text, a key). A reading after which the matcher is still `_Watched` never looked at the options, so it is the
reading of that response under any options with the same letters (a question without options is read apart:
a reader tells "no options" without looking at any). The result is exactly the extractor's, whatever
rules the extractor follows now or later; tests/test_reading_memo.py checks it on the extraction corpora.

The question's text matters only for options that are a Yes/No pair (`core.extract.yesno`: "The number of red cubes
is equal to the number of blue spheres" answers No to "Is the number of red cubes greater ...?"): for those the
reader is given it and a reading that looked at the options is kept per (options, question); for every other option
set the reader never sees the question, so its readings are shared across questions as before.

Memory is bounded: each table is emptied when it reaches `LIMIT` entries (a later answer is then read again).

`SharedMemos` keeps one memo per (benchmark, mode, extractor) across the files of one call (`mathreel score
run1.json ... runN.json`): runs of an ablation answer the same questions, mostly the same way, so run 2..N read only
the answers no earlier run gave. A reading is the extractor's whichever file first asked for it, so each file's
report is the one it gets scored alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from operator import itemgetter
from typing import Any, Generic, TypeVar

from mathreel.core.choices import OptionTexts, distinct_letters, letters_of_starts, option_letters
from mathreel.core.extract.choice import OptionMatcher
from mathreel.core.extract.yesno import may_be_yes_no

_START = itemgetter(slice(2))  # an option's first two characters
LIMIT = 1 << 16  # entries per table: ~10 MB at most, far more than the distinct short answers of any file
Reading = TypeVar("Reading")
Choices = tuple[tuple[str, ...], OptionMatcher | None]


class _Watched(OptionMatcher):
    """An `OptionMatcher` that becomes a plain one on first use: after a reading, still being `_Watched` proves the
    reader never looked at the options. No slots of its own, so the class can be switched in place."""

    __slots__ = ()

    def __getattribute__(self, name: str) -> object:
        object.__setattr__(self, "__class__", OptionMatcher)
        return object.__getattribute__(self, name)


def watch(matcher: OptionMatcher) -> None:
    """Make `matcher` a `_Watched` one (again): `looked_at` then tells whether a reading used it."""
    object.__setattr__(matcher, "__class__", _Watched)


def looked_at(matcher: OptionMatcher) -> bool:
    """Whether anything of `matcher` was looked at since it was last watched."""
    return type(matcher) is not _Watched


class ReadingMemo(Generic[Reading]):
    """Readings of choice answers for one scoring pass: `read(options, response, question)` gives what
    `reader(response, choices)` gives (`reader(response, choices, question=question)` for Yes/No options), reading each
    (response, letters) once when the options played no part, else each (response, options) once (and per question
    for Yes/No options)."""

    __slots__ = ("_by_letters", "_by_options", "_default", "_kept", "_letters", "_reader")

    def __init__(self, reader: Callable[..., Reading], default_letters: tuple[str, ...]) -> None:
        self._reader = reader
        self._default = default_letters
        # (response, letters, whether the question has no options) -> a reading that did not look at the options
        self._by_letters: dict[tuple[str, tuple[str, ...], bool], Reading] = {}
        # options -> (the question's choices, response (and question, for Yes/No options) -> its reading, Yes/No)
        self._by_options: dict[tuple[str, ...], tuple[Choices, dict[object, Reading], bool]] = {}
        self._kept = 0  # readings held in `_by_options`
        # options' first two characters ("A.", "B.", ...) -> the letters they name, once each
        self._letters: dict[tuple[str, ...], tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def _letters_of(self, options: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The letters `options` name and those the question allows (`option_letters`, `distinct_letters`), kept
        under the options' first two characters when those decide them (`letters_of_starts`)."""
        named = option_letters(options)
        found = named, distinct_letters(named)
        starts = tuple(map(_START, options))
        if len(self._letters) < LIMIT and letters_of_starts(starts) is not None:
            self._letters[starts] = found
        return found

    def __len__(self) -> int:
        """Readings held (both tables)."""
        return len(self._by_letters) + self._kept

    def read(self, options: tuple[str, ...], response: str, question: str = "") -> Reading:
        """The reading of `response` to a question with `options` (the benchmark's letters when there are none);
        `question`, the question's text, is used only when the options are a Yes/No pair."""
        if options:
            # The letters, found by the options' first two characters where those decide them (`_letters`)
            found_letters = self._letters.get(tuple(map(_START, options)))
            named, letters = self._letters_of(options) if found_letters is None else found_letters
        else:
            named, letters = None, self._default
        key = (response, letters, not options)  # "no options" the reader sees without looking at any
        found = self._by_letters.get(key)
        if found is not None:
            return found
        asked = self._by_options.get(options)
        if asked is None:
            if self._kept >= LIMIT:
                self._by_options.clear()
                self._kept = 0
            # `choices_of(options, ...)`, with the letters already read
            choices = (letters, None if named is None else OptionMatcher(OptionTexts(options, named)))
            asked = self._by_options[options] = (choices, {}, may_be_yes_no(options))
            self._kept += 1
        choices, readings, yes_no = asked
        asks = yes_no and bool(question)
        kept: object = (response, question) if asks else response
        found = readings.get(kept)
        if found is not None:
            return found
        matcher = choices[1]
        if matcher is not None:
            watch(matcher)
        found = self._reader(response, choices, question=question) if asks else self._reader(response, choices)
        if matcher is None or not looked_at(matcher):
            if len(self._by_letters) >= LIMIT:
                self._by_letters.clear()
            self._by_letters[key] = found
        else:
            readings[kept] = found
            self._kept += 1
        return found


class SharedMemos:
    """Reading memos kept across the files of one scoring call, one per reading setting (`key`: the benchmark, its
    mode and the extractor name, which fix the reader and the default letters)."""

    __slots__ = ("_memos",)

    def __init__(self) -> None:
        self._memos: dict[Hashable, ReadingMemo[Any]] = {}

    def memo(
        self, key: Hashable, reader: Callable[[str, Choices], Reading], default_letters: tuple[str, ...]
    ) -> ReadingMemo[Reading]:
        """The memo of `key`, made on first use with `reader` and `default_letters` (the same for one key)."""
        found = self._memos.get((key, default_letters))
        if found is None:
            found = self._memos[key, default_letters] = ReadingMemo(reader, default_letters)
        return found


def choices_of(options: tuple[str, ...], default_letters: tuple[str, ...]) -> Choices:
    """The letters a question with `options` allows and its option texts (`default_letters` and None without
    options). Only the letters are read here; the texts are split off when a response is first read for its
    option text, which short answers never are."""
    if not options:
        return default_letters, None
    letters = option_letters(options)
    return distinct_letters(letters), OptionMatcher(OptionTexts(options, letters))
