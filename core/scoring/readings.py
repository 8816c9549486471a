"""Labelled readings: a person's reading of an answer, which replaces the rule reading when the same answer is scored.

A readings file is JSONL, one answer per line:

    {"response": "...", "options": {"A": "...", ...}, "reading": "B", "label": "C", "reason": "..."}

- `response` (required): the model's response, exactly as scored;
- `options`: the question's options, letter -> text (absent or null for free-form questions and for questions
  without option texts); `letters` may list the allowed letters instead;
- `label` (required, may be null): what a careful reader reads, a letter for choice questions, the final answer's
  text for free-form ones; null means no answer can be read (the answer counts as unparsed);
- `reading`: what the rules read when it was labelled (null: nothing), kept so a reader change can be audited;
- `reason`: why the label is what it is, in words;
- `question`: the question's text; it is part of the match only where the options are a Yes/No pair, whose answers
  a reader may read from the question (`core.extract.yesno`): there the same response can mean Yes to one question
  and No to another;
- optional: `kind` ("choice" or "free"), `gold`, `id`, `class`, `question_id`: kept, not used to match.

An answer matches an entry when its response (blanks around it aside) and its question's options (letter and text,
blanks folded) are the same, and for Yes/No options its question's text (blanks folded) when the entry gives one:
never by id alone, since ids repeat across files and benchmarks. The web app's audit saves corrections in this
format, and `mathreel score --readings FILE` applies them; tests/data holds corpora in it that the test suite reads
as regression cases.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathreel.core.choices import OptionTexts
from mathreel.core.errors import InputError
from mathreel.core.extract.types import Extraction, unparsed
from mathreel.core.extract.yesno import yes_no_letters
from mathreel.core.question import Question

OptionsKey = tuple[tuple[str, str], ...]  # (letter, text) in the options' order
_KINDS = ("choice", "free")
_KEPT = ("id", "class", "question_id", "gold")  # kept for the record, never used to match


@dataclass(frozen=True)
class LabelledReading:
    """One labelled answer: the response, its question's options, what the rules read and what a person reads."""

    response: str
    options: OptionsKey
    label: str | None
    reason: str = ""
    reading: str | None = None
    letters: tuple[str, ...] = ()
    kind: str | None = None  # "choice" | "free" | None (either)
    extra: Mapping[str, Any] = field(default_factory=dict)  # id, class, gold, question_id: kept for the record
    question: str = ""  # the question's text ("" when not recorded)

    @property
    def key(self) -> tuple[str, OptionsKey] | tuple[str, OptionsKey, str]:
        """(response, options), and the question's text for Yes/No options when the entry gives it."""
        asked = question_key(self.question, self.options)
        return (
            (response_key(self.response), self.options, asked) if asked else (response_key(self.response), self.options)
        )

    def extraction(self) -> Extraction:
        """The reading scoring uses for a matching answer: the label, or unparsed when the label is null."""
        why = f"labelled by a person: {self.reason}" if self.reason else "labelled by a person"
        if self.label is None:
            return unparsed("no answer stated", why, "labelled")
        return Extraction(self.label, "labelled", why, None, "explicit")

    def to_dict(self) -> dict[str, Any]:
        """The JSONL record (the format above), as the audit writes it."""
        record: dict[str, Any] = {
            "response": self.response,
            "options": dict(self.options) or None,
            "reading": self.reading,
            "label": self.label,
            "reason": self.reason,
        }
        if self.letters and not self.options:
            record["letters"] = list(self.letters)
        if self.kind:
            record["kind"] = self.kind
        if self.question:
            record["question"] = self.question
        return {**record, **self.extra}


@dataclass
class Readings:
    """Labelled readings by (response, options); the last entry for the same answer wins."""

    source: str
    entries: dict[tuple[str, OptionsKey] | tuple[str, OptionsKey, str], LabelledReading] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[LabelledReading]:
        return iter(self.entries.values())

    def add(self, entry: LabelledReading) -> None:
        self.entries[entry.key] = entry

    def lookup(self, question: Question, response: str) -> LabelledReading | None:
        """The entry for this answer to this question, if one was labelled (and is of the question's kind)."""
        options, said = question_options_key(question), response_key(response)
        asked = question_key(question.question, options)
        found = (self.entries.get((said, options, asked)) if asked else None) or self.entries.get((said, options))
        if found is None or (found.kind is not None and found.kind != question.answer_kind):
            return None
        return found


def response_key(response: str) -> str:
    return response.strip() if isinstance(response, str) else ""


def question_key(question: str, options: OptionsKey) -> str:
    """The question's text as part of a match key (blanks folded): only for Yes/No options, else ""."""
    if not question or not isinstance(question, str) or yes_no_letters(dict(options)) is None:
        return ""
    return " ".join(question.split())


def options_key(options: Mapping[str, str] | None) -> OptionsKey:
    """Options as the match key: (letter, text with blanks folded), in their order."""
    if not options:
        return ()
    return tuple((str(letter).strip(), " ".join(str(text).split())) for letter, text in options.items())


def question_options_key(question: Question) -> OptionsKey:
    return options_key(OptionTexts(question.options)) if question.options else ()


def read_readings(path: str | os.PathLike[str]) -> Readings:
    """A labelled readings file (JSONL, the format above); a bad record is one `InputError` naming its line."""
    from mathreel.core.reading import jsonl_values

    source = str(path)
    readings = Readings(source)
    for line, value in jsonl_values(path, "readings file"):
        readings.add(parse_reading(value, source, line))
    return readings


def parse_reading(value: Any, source: str, line: int | str) -> LabelledReading:
    """One record of a readings file, checked."""
    if not isinstance(value, dict):
        raise InputError(source, "expected a JSON object with response, options, reading, label, reason", line)
    response = value.get("response")
    if not isinstance(response, str) or not response.strip():
        raise InputError(source, "'response' must be the model's response (non-empty text)", line)
    if "label" not in value:
        raise InputError(source, "'label' is missing (use null for 'no answer can be read')", line)
    options = value.get("options")
    if options is not None and not (isinstance(options, dict) and all(isinstance(t, str) for t in options.values())):
        raise InputError(source, "'options' must map each letter to its option text", line)
    letters = value.get("letters") or ()
    if not isinstance(letters, list | tuple) or not all(isinstance(letter, str) for letter in letters):
        raise InputError(source, "'letters' must be a list of letters", line)
    kind = value.get("kind")
    if kind is not None and kind not in _KINDS:
        raise InputError(source, f"'kind' must be one of {', '.join(_KINDS)}", line)
    label, reading = (_text_or_none(value.get(name), name, source, line) for name in ("label", "reading"))
    if kind == "choice" or (kind is None and (options or letters)):
        allowed = set(options or ()) | set(letters)
        if label is not None and allowed and label not in allowed:
            raise InputError(source, f"label {label!r} is not one of the options {', '.join(sorted(allowed))}", line)
    reason = value.get("reason") or ""
    if not isinstance(reason, str):
        raise InputError(source, "'reason' must be text", line)
    question = value.get("question") or ""
    if not isinstance(question, str):
        raise InputError(source, "'question' must be the question's text", line)
    extra = {name: value[name] for name in _KEPT if name in value}
    return LabelledReading(
        response, options_key(options), label, reason, reading, tuple(letters), kind, extra, question
    )


def _text_or_none(value: Any, name: str, source: str, line: int | str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(source, f"'{name}' must be text or null", line)
    return str(value)
