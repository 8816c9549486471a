"""What a result file reads into: one Prediction per answered question, plus what was detected and how."""

from __future__ import annotations

from typing import Any

from mathreel.core.plain import Fields
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


class Prediction(Fields):
    """A model's response to one question; `record` says where it is in the file, `raw` is the record as written
    (for a file's first `RECORDS_KEPT` answers; later answers keep only what is read per answer, `kept_record`).

    `question` is what the answer is scored against (the file's own question, or the annotations' one it was
    joined to); `recorded` is what the file itself recorded about the question, and how the two were joined.
    `full_response` is the unfiltered reply (lmms-eval >= 0.7 `resps` with its <think> text). A plain class with
    slots (`core.plain`).
    """

    FIELDS = ("question", "response", "record", "raw", "recorded", "full_response")
    __slots__ = FIELDS

    def __init__(
        self,
        question: Question,
        response: str,
        record: int | str,
        raw: dict[str, Any],
        recorded: FileQuestion | None = None,
        full_response: str | None = None,
    ) -> None:
        self.question = question
        self.response = response
        self.record = record
        self.raw = raw
        self.recorded = recorded
        self.full_response = full_response


class ResultFile(Fields):
    """A read result file. `notes` say what was detected and why; `missing` are annotated questions the file lacks.

    `mismatched`: ids of answers whose question, as the file records it, is not the annotations' question of that
    id; `layout`: the key of the layout detected (core.results.layouts: "lmms-eval", "vlmevalkit", ...);
    `duplicates`: ids answered more than once (outside grouped modes), with the places of the answers after the
    first, not scored. A plain class (`core.plain`), without slots: `ColumnarResult` builds `predictions` on first
    use."""

    FIELDS = (
        "source",
        "benchmark",
        "mode",
        "format",
        "notes",
        "predictions",
        "missing",
        "unknown_ids",
        "mismatched",
        "warnings",
        "annotations",
        "layout",
        "duplicates",
    )

    def __init__(
        self,
        source: str,
        benchmark: str,
        mode: str,
        format: str,
        notes: list[str] | None = None,
        predictions: list[Prediction] | None = None,
        missing: list[Question] | None = None,
        unknown_ids: list[str] | None = None,
        mismatched: list[str] | None = None,
        warnings: list[str] | None = None,
        annotations: str | None = None,
        layout: str = "",
        duplicates: dict[str, list[str | int]] | None = None,
    ) -> None:
        self.source = source
        self.benchmark = benchmark
        self.mode = mode
        self.format = format
        self.notes: list[str] = [] if notes is None else notes
        self.predictions: list[Prediction] = [] if predictions is None else predictions
        self.missing: list[Question] = [] if missing is None else missing
        self.unknown_ids: list[str] = [] if unknown_ids is None else unknown_ids
        self.mismatched: list[str] = [] if mismatched is None else mismatched
        self.warnings: list[str] = [] if warnings is None else warnings
        self.annotations = annotations
        self.layout = layout
        self.duplicates: dict[str, list[str | int]] = {} if duplicates is None else duplicates

    def answer_count(self) -> int:
        """How many answers the file gives (without building them, for a file read into columns)."""
        return len(self.predictions)

    def first_predictions(self, count: int) -> list[Prediction]:
        """The file's first `count` answers (run settings and provenance look at a sample)."""
        return self.predictions[:count]
