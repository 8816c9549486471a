"""The question pages of a bundle: every run's answers grouped under the question each belongs to, by the join
rule (`core.answer_view`): an answer joined to the dataset's question shares that question's page with the other
runs' answers to it; an answer whose file records another question (or one not on this machine) gets a page of its
own question, read from its file. So an answer is never shown under a question it does not belong to."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mathreel.core.answer_view import AnswerView, answer_view, file_view

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.bundle.load import BundleRun
    from mathreel.core.data import Dataset
    from mathreel.core.question import Question
    from mathreel.core.scoring.row import ScoredRow

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass
class Answer:
    """One run's answer on a page (`view` None: the run has no answer to this question)."""

    run: BundleRun
    row: ScoredRow
    view: AnswerView | None


@dataclass
class Page:
    """One question's page: its key, its question id, its file (relative to the bundle), the dataset's question when
    the answers join it (None: read from the file), the view whose question text and options head the page, and
    every run's answer."""

    key: str
    ref: str
    file: str
    question: Question | None
    head: AnswerView | None
    answers: list[Answer] = field(default_factory=list)

    def answer_of(self, run: BundleRun) -> Answer | None:
        return next((a for a in self.answers if a.run is run), None)


def build_pages(runs: list[BundleRun], dataset: Dataset | None, by_id: bool) -> list[Page]:
    """The pages in the first run's order, then the questions only later runs answer."""
    pages: dict[str, Page] = {}
    names: set[str] = set()
    for run in runs:
        for row in run.report.rows:
            view = _view(row, run, dataset, by_id)
            key, question = _key(row, view)
            page = pages.get(key)
            if page is None:
                page = pages[key] = Page(
                    key,
                    row.question_id,
                    _file_name(row.question_id, key, names),
                    question,
                    view if row.status != "missing" else None,
                )
            elif page.head is None and row.status != "missing":
                page.head = view
            page.answers.append(Answer(run, row, view if row.status != "missing" else None))
    return list(pages.values())


def _view(row: ScoredRow, run: BundleRun, dataset: Dataset | None, by_id: bool) -> AnswerView:
    judgments = run.judgments or ()
    if dataset is None:
        return file_view(row, run.report.benchmark, judgments)
    return answer_view(row, dataset, by_id=by_id, judgments=judgments)


def _key(row: ScoredRow, view: AnswerView) -> tuple[str, Question | None]:
    """The page an answer goes to: the dataset's question of its id, or its own recorded question."""
    if view.join.question is not None:
        return f"server:{row.question_id}", view.join.question
    if row.status == "missing":
        return f"server:{row.question_id}", None
    own = "\x1f".join(
        [view.question, *(f"{o.letter}={o.text}" for o in view.options), *(p.text for p in view.prompts[:1])]
    )
    return f"file:{row.question_id}:{hashlib.sha256(own.encode()).hexdigest()[:10]}", None


def _file_name(ref: str, key: str, taken: set[str]) -> str:
    """`q/<id>.html`, made of safe characters only; a digest of the key is added when the id had others or the
    name is taken (another page of the same id, or a case-insensitive file system's twin)."""
    safe = _UNSAFE.sub("_", ref)[:80].strip("_") or "q"
    name = safe
    if safe != ref or not key.startswith("server:") or name.lower() in taken:
        name = f"{safe}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"
    taken.add(name.lower())
    return f"q/{name}.html"
