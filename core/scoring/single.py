"""Score one live answer (or the answers to one multi-binary question) the way `score()` scores a file.

The app asks a model one question at a time and must show the same verdict `mathreel score` would give that
answer: the same robust extractor, fed the same letters and option texts, and the same correctness rule (a choice
answer is right when the extracted letter is the gold letter; a free-form one when it is math-equal to the gold;
a multi-binary question only when every pair is right). The helpers used here are the ones `score()` uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.kinds import Status
from mathreel.core.question import Question
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.verdict import read_answer, verdict_row


@dataclass
class QuestionScore:
    """The verdict on one benchmark question: a row per answer (one, or one per pair) and the question's status.

    `status` is "correct" only when every row is correct; "unparsed" when any answer could not be read
    (the question cannot be right then); otherwise "wrong".
    """

    rows: list[ScoredRow]
    status: Status

    @property
    def correct(self) -> bool:
        return self.status == "correct"


def score_response(question: Question, response: str) -> ScoredRow:
    """One answer to one question, read and judged as `score()` reads and judges it (robust extractor)."""
    used, right = read_answer(question, response, get_benchmark(question.benchmark).letters(question.mode))
    return verdict_row(question, response, used, right)


def score_question(answers: Sequence[tuple[Question, str]]) -> QuestionScore:
    """The answers to one benchmark question (a single question, or all pairs of a multi-binary one)."""
    if not answers:
        raise ValueError("score_question needs at least one (question, response) pair")
    groups = {question.group_id for question, _ in answers}
    if len(groups) > 1:
        raise ValueError(f"answers belong to several questions: {', '.join(sorted(groups))}")
    rows = [score_response(question, response) for question, response in answers]
    statuses = {row.status for row in rows}
    status: Status = "correct" if statuses == {"correct"} else ("unparsed" if "unparsed" in statuses else "wrong")
    return QuestionScore(rows, status)
