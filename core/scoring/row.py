"""`ScoredRow`: one answer and everything that decided its score (what a verdict produces and reports list)."""

from __future__ import annotations

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


class RuleReading:
    """What the rule-based extractor read from an answer whose score the judge's extraction decided: kept beside
    the judge's reading so both can be shown."""

    __slots__ = ("explanation", "extracted", "method", "status")

    def __init__(self, extracted: str | None, method: str, explanation: str, status: Status) -> None:
        self.extracted = extracted
        self.method = method
        self.explanation = explanation
        self.status = status

    def to_dict(self) -> RuleJSON:
        return {
            "extracted": self.extracted,
            "method": self.method,
            "explanation": self.explanation,
            "status": self.status,
        }


class ScoredRow:
    """One answer and everything that decided its score, so a disputed number can be traced to its source.

    This and `RuleReading` are plain classes with slots, not dataclasses: they are built and read (`to_dict`),
    never compared or copied, and every `mathreel score` imports this module, where a slotted dataclass builds its
    class twice and compiles each generated method (~9 M instructions for the two)."""

    __slots__ = (*ROW_FIELDS, "full_response", "recorded", "rule")

    def __init__(
        self,
        question_id: str,
        group_id: str,
        cluster: str,
        dims: dict[str, str],
        response: str,
        extracted: str | None,
        method: str,
        explanation: str,
        gold: str,
        status: Status,
        official_answer: str | None = None,
        record: int | str | None = None,
        full_response: str | None = None,
        recorded: FileQuestion | None = None,
        rule: RuleReading | None = None,
        strength: str | None = None,
    ) -> None:
        self.question_id = question_id
        self.group_id = group_id
        self.cluster = cluster
        self.dims = dims
        self.response = response
        self.extracted = extracted  # the extracted answer (None: unparsed or missing)
        self.method = method
        self.explanation = explanation
        self.gold = gold
        self.status = status
        self.official_answer = official_answer  # what the benchmark's official extractor read, when it has one
        self.record = record
        self.full_response = full_response  # the unfiltered reply the file keeps beside `response` (lmms-eval >= 0.7)
        # What the file recorded about the question (text, options, prompts) and how the scored question was found;
        # None for a missing question (the file has no answer to it).
        self.recorded = recorded
        self.rule = rule  # the rule reading, when the judge's extraction replaced it
        self.strength = strength  # how strongly the response marks what was read (`core.extract.types.Strength`)

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
