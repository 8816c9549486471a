"""One scored answer made readable: its question and options (gold and pick marked), the prompt(s) the file
recorded, the response with the extraction and its reason, the rule reading beside a judge's, and the judge's card.

Two ways in, one result type:
- `file_view(row)`: from the file alone. Every answer of an uploaded run can be read whether or not its dataset is
  on the server; the note says the video and frames are not.
- `answer_view(row, dataset)`: through the join rule (`core.results.question_join.join_question`): the dataset's
  question when the answer belongs to it (the page then builds frames and prompt with `core.view.build_view` on
  `view.join.question`), else the file-only view with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.choices import option_letters
from mathreel.core.question import Question
from mathreel.core.results.question_join import QuestionJoin, join_question, not_on_server
from mathreel.core.results.recorded import JOIN_WORDS, options_in_prompt

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.data import Dataset
    from mathreel.core.judge.model import Judgment
    from mathreel.core.judge.views import QuestionJudgments
    from mathreel.core.scoring.row import RuleReading, ScoredRow


@dataclass(frozen=True)
class ShownPrompt:
    """A prompt as the file recorded it, with the field it came from."""

    text: str
    field: str
    recorded: bool = True

    @property
    def label(self) -> str:
        return f"recorded in the file ({self.field})" if self.recorded else self.field


@dataclass(frozen=True)
class OptionMark:
    """One option as shown: its letter and text, and whether it is the gold answer and the answer read."""

    letter: str
    text: str
    gold: bool
    picked: bool


@dataclass
class AnswerView:
    """Everything a reader of one answer sees, with where each part came from (`*_source`: "server", "file",
    "prompt" (read from the recorded prompt) or "" when nobody recorded it)."""

    benchmark: str
    mode: str
    question_id: str
    join: QuestionJoin
    question: str
    question_source: str
    options: tuple[OptionMark, ...]
    options_source: str
    prompts: tuple[ShownPrompt, ...]
    response: str
    extracted: str | None
    method: str
    explanation: str
    span: tuple[int, int] | None
    status: str
    gold: str
    dims: dict[str, str]
    rule: RuleReading | None = None
    judge: QuestionJudgments | None = None
    notes: list[str] = field(default_factory=list)
    own_question: Question | None = None  # the question as the file recorded it (to build a prompt from its text)

    @property
    def on_server(self) -> bool:
        return self.join.on_server


def file_view(
    row: ScoredRow, benchmark: str, judgments: Sequence[Judgment] = (), join: QuestionJoin | None = None
) -> AnswerView:
    """The answer as its file records it: no dataset needed. `join` (the decision that sent it here) is kept on
    the view; without one, the view says only that the video and frames are not on this server."""
    bench = get_benchmark(benchmark)
    recorded = row.recorded
    own = recorded.question if recorded is not None else None
    prompts = tuple(ShownPrompt(p.text, p.field) for p in recorded.prompts) if recorded is not None else ()
    text = bench.full_question(own) if own is not None else ""
    options, options_source = (own.options, "file") if own is not None and own.options else ((), "")
    if not options and prompts:
        options = options_in_prompt(prompts[0].text)
        options_source = "prompt" if options else ""
    notes = [join.note] if join is not None else []
    join = join or QuestionJoin(None, None, "read from the file")
    notes.append(not_on_server(bench))
    if not text:
        notes.append("the file records no question text" + (": it is in the recorded prompt" if prompts else ""))
    return _view(
        row,
        bench.name,
        own.mode if own is not None else "",
        join,
        text,
        "file" if text else "",
        options,
        options_source,
        prompts,
        judgments,
        notes,
    )


def answer_view(
    row: ScoredRow, dataset: Dataset, *, by_id: bool = False, judgments: Sequence[Judgment] = ()
) -> AnswerView:
    """The answer with the dataset's question when the join rule says it is that question, else `file_view`
    (whose notes say why). `by_id`: join an answer whose file records no question text by its id (the user gave
    this dataset as the file's annotations)."""
    join = join_question(row.recorded, row.question_id, dataset, by_id=by_id)
    if join.question is None:
        return file_view(row, dataset.benchmark, judgments, join)
    question: Question = join.question
    bench = get_benchmark(dataset.benchmark)
    recorded = row.recorded
    prompts = tuple(ShownPrompt(p.text, p.field) for p in recorded.prompts) if recorded is not None else ()
    notes = [join.note]
    if recorded is not None and recorded.join != "file" and join.how != recorded.join:
        notes.append(f"read with annotations: {JOIN_WORDS[recorded.join]}")
    return _view(
        row,
        dataset.benchmark,
        dataset.mode,
        join,
        bench.full_question(question),
        "server",
        question.options,
        "server",
        prompts,
        judgments,
        notes,
    )


def _view(
    row: ScoredRow,
    benchmark: str,
    mode: str,
    join: QuestionJoin,
    text: str,
    text_source: str,
    options: tuple[str, ...],
    options_source: str,
    prompts: tuple[ShownPrompt, ...],
    judgments: Sequence[Judgment],
    notes: list[str],
) -> AnswerView:
    from mathreel.core.scoring.reading_flow import answer_span

    return AnswerView(
        benchmark=benchmark,
        mode=mode or "",
        question_id=row.question_id,
        join=join,
        question=text,
        question_source=text_source,
        options=_marks(options, row.gold, row.extracted),
        options_source=options_source,
        prompts=prompts,
        response=row.response,
        extracted=row.extracted,
        method=row.method,
        explanation=row.explanation,
        span=answer_span(row),
        status=row.status,
        gold=row.gold,
        dims=dict(row.dims),
        rule=row.rule,
        judge=judge_card(judgments, row),
        notes=notes,
        own_question=row.recorded.question if row.recorded is not None else None,
    )


def _marks(options: tuple[str, ...], gold: str, picked: str | None) -> tuple[OptionMark, ...]:
    from mathreel.core.choices import option_text

    letters = option_letters(options)
    return tuple(
        OptionMark(letter, option_text(option), letter == gold, letter == picked)
        for letter, option in zip(letters, options, strict=True)
    )


def judge_card(judgments: Sequence[Judgment], row: ScoredRow) -> QuestionJudgments | None:
    """The judge's verdicts on exactly this answer: the judgments of its question id whose judged response is this
    response (fingerprint), never another response to the same question; None when there are none."""
    if not judgments:
        return None
    from mathreel.core.judge.fingerprint import response_fingerprint
    from mathreel.core.judge.views import by_question

    mine = response_fingerprint(row.response or "")
    own = [j for j in judgments if j.question_id == row.question_id and response_fingerprint(j.response) == mine]
    cards = by_question(own)
    return cards[0] if cards else None
