"""What the judge reads: the answered questions of a result file, completed from a dataset where they lack parts.

Newer lmms-eval logs carry no `doc`, so their questions arrive without the annotated steps that step evaluation
needs, and often without the question text and options the judge must see; those are then taken from the dataset
(`core.data.load_dataset`). A dataset question lends its parts only when it has the same id and, where both have
one, the same question text, so pointing at the wrong data (or the demo set) never grafts another question on.
Only empty parts are filled: what the file says is never overwritten.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mathreel.core.judge.model import Case
from mathreel.core.plural import counted
from mathreel.core.question import Question


@dataclass(frozen=True)
class StepsNote:
    """How many questions lacked steps, how many got them from the dataset, and from where."""

    lacking: int
    filled: int
    mismatched: int
    source: str

    def __str__(self) -> str:
        if not self.lacking:
            return "annotated steps: every question carries its own"
        lacking = counted(self.lacking, "question")
        text = f"annotated steps: {self.filled} of {lacking} without steps filled from {self.source}"
        if self.mismatched:
            text += f"; {counted(self.mismatched, 'id')} found there with a different question text (not used)"
        return text


def cases_from_results(result: Any) -> list[Case]:
    """The cases of a `core.results.ResultFile`: one per prediction, in file order."""
    return [Case(p.question, p.response or "", p.record) for p in result.predictions]


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _lender(question: Question, by_id: dict[str, Question]) -> Question | None:
    return by_id.get(question.question_id) or by_id.get(question.group_id)


_FILLED = ("question", "options", "steps", "answer")


def _completed(question: Question, lender: Question) -> Question:
    """`question` with its empty parts (text, options, steps, gold answer) taken from `lender`."""
    parts = {name: getattr(lender, name) for name in _FILLED if not getattr(question, name)}
    return question.replace(**parts)


def attach_steps(cases: Sequence[Case], dataset: Any) -> tuple[list[Case], StepsNote]:
    """`cases` whose questions lack steps, completed from the dataset (see the module docstring)."""
    by_id: dict[str, Question] = {}
    for question in dataset.questions:
        by_id.setdefault(question.question_id, question)
        by_id.setdefault(question.group_id, question)
    out: list[Case] = []
    lacking = filled = mismatched = 0
    for case in cases:
        question = case.question
        if question.steps:
            out.append(case)
            continue
        lacking += 1
        lender = _lender(question, by_id)
        if lender is None or not lender.steps:
            out.append(case)
        elif question.question and lender.question and not _same_text(question.question, lender.question):
            mismatched += 1
            out.append(case)
        else:
            filled += 1
            out.append(dataclasses.replace(case, question=_completed(question, lender)))
    return out, StepsNote(lacking, filled, mismatched, str(getattr(dataset, "source", "the dataset")))


def with_dataset_steps(
    cases: Sequence[Case], benchmark: str, mode: str, data_dir: str | None = None
) -> tuple[list[Case], StepsNote | None]:
    """Fill missing steps from `load_dataset(benchmark, mode, data_dir)`; no dataset to be found is no error."""
    from mathreel.core.data import load_dataset
    from mathreel.core.errors import MathReelError

    if all(case.question.steps for case in cases):
        return list(cases), None
    try:
        dataset = load_dataset(benchmark, mode, data_dir)
    except MathReelError:
        return list(cases), None
    return attach_steps(cases, dataset)
