"""The one question type every part of MathReel passes around.

A benchmark module turns a dataset record into a `Question`; data loaders, prompts, scoring,
the client, the judge and the web app all read this shape and never the raw record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mathreel.core.choices import OptionTexts, option_letters, split_option

__all__ = ["Question", "split_option"]


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
        """The answer letters this question allows, read from its options (`core.choices`)."""
        return option_letters(self.options)

    @property
    def option_texts(self) -> dict[str, str]:
        """Letter -> option text without the letter, for matching responses that give the text."""
        return dict(OptionTexts(self.options))

    @property
    def cluster(self) -> str:
        """The unit that correlates answers (the video, else the benchmark's cluster key) for clustered SE."""
        return self.video_id or self.cluster_key or self.group_id
