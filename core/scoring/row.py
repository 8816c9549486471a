"""`ScoredRow`: one answer and everything that decided its score (what a verdict produces and reports list)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mathreel.core.extract.types import is_weak
from mathreel.core.kinds import Status

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.results.recorded import FileQuestion
    from mathreel.core.scoring.json_types import RowJSON, RuleJSON

ROW_FIELDS = (
    "question_id",
    "group_id",
    "cluster",
    "dims",
    "response",
    "extracted",
    "method",
    "explanation",
    "gold",
    "status",
    "official_answer",
    "record",
    "strength",
)


@dataclass(frozen=True, slots=True)
class RuleReading:
    """What the rule-based extractor read from an answer whose score the judge's extraction decided: kept beside
    the judge's reading so both can be shown."""

    extracted: str | None
    method: str
    explanation: str
    status: Status

    def to_dict(self) -> RuleJSON:
        return {
            "extracted": self.extracted,
            "method": self.method,
            "explanation": self.explanation,
            "status": self.status,
        }


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
    # What the file recorded about the question (text, options, prompts) and how the scored question was found;
    # None for a missing question (the file has no answer to it).
    recorded: FileQuestion | None = None
    rule: RuleReading | None = None  # the rule reading, when the judge's extraction replaced it
    strength: str | None = None  # how strongly the response marks what was read (`core.extract.types.Strength`)

    @property
    def weak(self) -> bool:
        """A reading a person should check (`core.extract.types.is_weak`)."""
        return self.extracted is not None and is_weak(self.method, self.strength)

    def to_dict(self) -> RowJSON:
        """The row as JSON-ready values (explicit, not `asdict`, which deep-copies and is slow over 270k rows);
        `full_response` only when the file kept one."""
        values: RowJSON = {
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
            "join": self.recorded.join if self.recorded is not None else None,
            "rule": self.rule.to_dict() if self.rule is not None else None,
            "strength": self.strength,
        }
        if self.full_response is not None:
            values["full_response"] = self.full_response
        return values
