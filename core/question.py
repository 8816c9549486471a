"""The one question type every part of MathReel passes around.

A benchmark module turns a dataset record into a `Question`; data loaders, prompts, scoring,
the client, the judge and the web app all read this shape and never the raw record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_OPTION_LETTER = re.compile(r"^\s*\(?([A-Z])\s*[\.\):：]\s*(.*)$", re.S)


def split_option(option: str) -> tuple[str, str]:
    """Split an option string such as "A. 30 degrees" or "B:60°" into (letter, text).

    An option without a leading letter returns ("", option) so callers can number it themselves.
    """
    match = _OPTION_LETTER.match(option)
    if not match:
        return "", option.strip()
    return match.group(1), match.group(2).strip()


@dataclass(slots=True)
class Question:
    """One benchmark item as the model sees it, plus the facts scoring needs.

    `options` keep the dataset's own spelling ("A. 30 degrees"); `answer` is a letter for
    choice questions and the gold value for free-form ones. For multi-binary, each pair is one
    Question and `group_id` names the benchmark question the pairs belong to. `cluster_key` is the unit answers
    correlate within when there is no video (a MathVerse problem across its versions). Slots: a pooled result
    file builds hundreds of thousands of these.
    """

    benchmark: str
    mode: str
    question_id: str
    question: str
    answer: str
    options: tuple[str, ...] = ()
    answer_kind: str = "choice"  # "choice" | "free"
    video_id: str | None = None
    group_id: str = ""
    dims: dict[str, str] = field(default_factory=dict)
    steps: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    cluster_key: str = ""

    def __post_init__(self) -> None:
        if not self.group_id:
            self.group_id = self.question_id

    @property
    def letters(self) -> tuple[str, ...]:
        """The answer letters this question allows, read from its options."""
        letters = tuple(split_option(o)[0] for o in self.options)
        if all(letters):
            return letters
        return tuple(chr(ord("A") + i) for i in range(len(self.options)))

    @property
    def option_texts(self) -> dict[str, str]:
        """Letter -> option text without the letter, for matching responses that give the text."""
        return {letter: split_option(o)[1] for letter, o in zip(self.letters, self.options, strict=True)}

    @property
    def cluster(self) -> str:
        """The unit that correlates answers (the video, else the benchmark's cluster key) for clustered SE."""
        return self.video_id or self.cluster_key or self.group_id
