"""`ScoredRow`: one answer and everything that decided its score (what a verdict produces and reports list)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathreel.core.extract.types import is_weak
from mathreel.core.kinds import Status

ROW_FIELDS = ("question_id", "group_id", "cluster", "dims", "response", "extracted", "method", "explanation", "gold",
              "status", "official_answer", "record", "strength")


@dataclass(slots=True)
class ScoredRow:
    """One answer and everything that decided its score, so a disputed number can be traced to its source."""

    question_id: str
    group_id: str
    cluster: str
    dims: dict[str, str]
    response: str
    extracted: str | None  # the extracted answer (None: unparsed or missing)
    method: str
    explanation: str
    gold: str
    status: Status
    official_answer: str | None = None  # what the benchmark's official extractor read, when it has one
    record: int | str | None = None
    full_response: str | None = None  # the unfiltered reply the file keeps beside `response` (lmms-eval >= 0.7)
    strength: str | None = None  # how strongly the response marks what was read (`core.extract.types.Strength`)

    @property
    def weak(self) -> bool:
        """A reading a person should check (`core.extract.types.is_weak`)."""
        return self.extracted is not None and is_weak(self.method, self.strength)

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready values (explicit, not `asdict`, which deep-copies and is slow over 270k rows);
        `full_response` only when the file kept one."""
        values = {
            "question_id": self.question_id,
            "group_id": self.group_id,
            "cluster": self.cluster,
            "dims": dict(self.dims),
            "response": self.response,
            "extracted": self.extracted,
            "method": self.method,
            "explanation": self.explanation,
            "gold": self.gold,
            "status": self.status,
            "official_answer": self.official_answer,
            "record": self.record,
            "strength": self.strength,
        }
        if self.full_response is not None:
            values["full_response"] = self.full_response
        return values
