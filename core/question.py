"""The one question type every part of MathReel passes around.

A benchmark module turns a dataset record into a `Question`; data loaders, prompts, scoring,
the client, the judge and the web app all read this shape and never the raw record.
"""

from __future__ import annotations

from typing import Any

from mathreel.core.choices import OptionTexts, option_letters, split_option
from mathreel.core.plain import Fields

__all__ = ["Question", "split_option"]


class Question(Fields):
    """One benchmark item as the model sees it, plus the facts scoring needs.

    `options` keep the dataset's own spelling ("A. 30 degrees"); `answer` is a letter for
    choice questions and the gold value for free-form ones. For multi-binary, each pair is one
    Question and `group_id` names the benchmark question the pairs belong to (the question id when not given).
    `cluster_key` is the unit answers correlate within when there is no video (a MathVerse problem across its
    versions). Slots: a pooled result file builds hundreds of thousands of these. A plain class, not a dataclass
    (`core.plain`): compared, copied (`replace`) and shown as one.
    """

    FIELDS = (
        "benchmark",
        "mode",
        "question_id",
        "question",
        "answer",
        "options",
        "answer_kind",
        "video_id",
        "group_id",
        "dims",
        "steps",
        "extra",
        "cluster_key",
    )
    __slots__ = FIELDS

    def __init__(
        self,
        benchmark: str,
        mode: str,
        question_id: str,
        question: str,
        answer: str,
        options: tuple[str, ...] = (),
        answer_kind: str = "choice",  # "choice" | "free"
        video_id: str | None = None,
        group_id: str = "",
        dims: dict[str, str] | None = None,
        steps: tuple[str, ...] = (),
        extra: dict[str, Any] | None = None,
        cluster_key: str = "",
    ) -> None:
        self.benchmark = benchmark
        self.mode = mode
        self.question_id = question_id
        self.question = question
        self.answer = answer
        self.options = options
        self.answer_kind = answer_kind
        self.video_id = video_id
        self.group_id = group_id or question_id
        self.dims: dict[str, str] = {} if dims is None else dims
        self.steps = steps
        self.extra: dict[str, Any] = {} if extra is None else extra
        self.cluster_key = cluster_key

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
