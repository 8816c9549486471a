"""What a result file reads into: one Prediction per answered question, plus what was detected and how."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mathreel.core.question import Question
from mathreel.core.results.recorded import FileQuestion

# Answers of a file whose whole record `Prediction.raw` keeps (run settings and provenance read the first 50).
RECORDS_KEPT = 200
NO_RECORD: dict[str, Any] = {}  # the `raw` of a later answer whose record holds nothing read per answer (never written)


def kept_record(raw: dict[str, Any], index: int) -> dict[str, Any]:
    """What a file's `index`-th answer keeps of its record: all of it for the first `RECORDS_KEPT`, then only the
    fields read per answer (lmms-eval's `doc_hash`): a 270,000-answer file would otherwise hold every decoded
    record beside its questions (hundreds of MB)."""
    if index < RECORDS_KEPT:
        return raw
    value = raw.get("doc_hash")
    return NO_RECORD if value is None else {"doc_hash": value}


@dataclass(slots=True)
class Prediction:
    """A model's response to one question; `record` says where it is in the file, `raw` is the record as written
    (for a file's first `RECORDS_KEPT` answers; later answers keep only what is read per answer, `kept_record`).

    `question` is what the answer is scored against (the file's own question, or the annotations' one it was
    joined to); `recorded` is what the file itself recorded about the question, and how the two were joined.
    """

    question: Question
    response: str
    record: int | str
    raw: dict[str, Any]
    recorded: FileQuestion | None = None
    full_response: str | None = None  # the unfiltered reply (lmms-eval >= 0.7 `resps` with its <think> text)


@dataclass
class ResultFile:
    """A read result file. `notes` say what was detected and why; `missing` are annotated questions the file lacks."""

    source: str
    benchmark: str
    mode: str
    format: str
    notes: list[str] = field(default_factory=list)
    predictions: list[Prediction] = field(default_factory=list)
    missing: list[Question] = field(default_factory=list)
    unknown_ids: list[str] = field(default_factory=list)
    # Ids of answers whose question, as the file records it, is not the annotations' question of that id.
    mismatched: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    annotations: str | None = None
    layout: str = ""  # the key of the layout detected (core.results.layouts: "lmms-eval", "vlmevalkit", ...)
    # Ids answered more than once (outside grouped modes): the places of the answers after the first, not scored.
    duplicates: dict[str, list[str | int]] = field(default_factory=dict)

    def answer_count(self) -> int:
        """How many answers the file gives (without building them, for a file read into columns)."""
        return len(self.predictions)

    def first_predictions(self, count: int) -> list[Prediction]:
        """The file's first `count` answers (run settings and provenance look at a sample)."""
        return self.predictions[:count]
