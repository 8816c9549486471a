"""Verdicts: one answer to one question -> a `ScoredRow` (extracted answer, how it was read, correct or not).

Aggregation (`core.scoring.scorer`) folds these rows into units, tables and the overall figure; the app's live
answers (`core.scoring.single`) get their verdict here too, so a live answer and a scored file agree.

The per-row path is plain Python over dicts and tuples (no pandas), because a 270,000-answer file must score in
a few seconds and the CLI must not import numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from mathreel.core.benchmarks import Benchmark
from mathreel.core.extract.choice import extract_choice
from mathreel.core.extract.types import Extraction
from mathreel.core.kinds import Denominator, Status
from mathreel.core.question import Question
from mathreel.core.results.model import ResultFile
from mathreel.core.results.recorded import FileQuestion
from mathreel.core.scoring.reading_memo import Choices, ReadingMemo, choices_of
from mathreel.core.scoring.row import RuleReading, ScoredRow

if TYPE_CHECKING:  # pragma: no cover - typing only (labelled readings are rare)
    from mathreel.core.scoring.readings import Readings

# (question_id, record) -> the judge's extraction and, for free-form answers, its equivalence verdict.
JudgedAnswers = Mapping[tuple[str, str], tuple[Extraction, bool | None]]
ChoiceReading = tuple[Extraction, str | None, bool]  # what `_read_choice_answer` returns
_Reading = ChoiceReading


class OfficialTool(NamedTuple):
    """A reference scorer's rule-based extractor and the denominator policy that scorer uses.

    `letter` gives just the letter `extract` reads (its cheap twin, for counting disagreements). A NamedTuple: a
    dataclass costs a compile per method at every start.
    """

    name: str
    extract: Callable[[str, tuple[str, ...]], Extraction]
    denominator: Denominator
    letter: Callable[[str, tuple[str, ...]], str | None] | None = None


def official_tool(bench: Benchmark, name: str = "official") -> OfficialTool | None:
    """A benchmark's pinned reference reproduction (`official`: its `official_scorer`), extractor resolved."""
    scorer = bench.reproductions.get(name) or (bench.official_scorer if name == "official" else None)
    if scorer is None:
        return None
    from mathreel.core.extract.reference import reference_extractor

    extract, letter = reference_extractor(scorer.extractor)
    return OfficialTool(scorer.label, extract, scorer.denominator, letter)


def status_of(extraction: Extraction, right: bool) -> Status:
    """The status of an answer that was there: unparsed when nothing was read, else correct or wrong."""
    return "unparsed" if extraction.answer is None else ("correct" if right else "wrong")


def verdict_row(
    question: Question,
    response: str,
    used: Extraction,
    right: bool,
    official_answer: str | None = None,
    record: int | str | None = None,
    full_response: str | None = None,
    recorded: FileQuestion | None = None,
    rule: RuleReading | None = None,
) -> ScoredRow:
    """The ScoredRow of one read answer."""
    return ScoredRow(
        question.question_id,
        question.group_id,
        question.cluster,
        question.dims,
        response,
        used.answer,
        used.method,
        used.explanation,
        question.answer,
        status_of(used, right),
        official_answer,
        record,
        full_response,
        recorded,
        rule,
        used.strength,
    )


def missing_row(question: Question) -> ScoredRow:
    """The ScoredRow of a question the file does not answer."""
    return ScoredRow(
        question.question_id,
        question.group_id,
        question.cluster,
        question.dims,
        "",
        None,
        "none",
        "missing: the file has no answer for this question",
        question.answer,
        "missing",
    )


def score_rows(
    result: ResultFile,
    bench: Benchmark,
    tool: OfficialTool | None,
    use_official: bool,
    judged: JudgedAnswers,
    readings: Readings | None = None,
    memo: ReadingMemo[ChoiceReading] | None = None,
) -> tuple[list[ScoredRow], list[str]]:
    """One ScoredRow per answer and per missing question, and the ids the two extractors read differently.

    `judged` (a judge's readings) and then `readings` (a person's, `core.scoring.readings`) replace the rule
    reading of the answers they cover. `memo` (made with `choice_reader(tool, use_official)`) may be one shared
    with other files of the same benchmark, mode and extractor (`reading_memo.SharedMemos`)."""
    rows: list[ScoredRow] = []
    disagreements: list[str] = []
    append = rows.append
    # Extractors are pure functions of (response, letters, options): the same answer read once (`reading_memo`).
    if memo is None:
        memo = ReadingMemo(choice_reader(tool, use_official), bench.letters(result.mode))
    read = memo.read
    for prediction in result.predictions:
        question = prediction.question
        response = prediction.response
        gold = question.answer
        official_answer = None
        if question.answer_kind == "free":
            used, right = score_free(response, gold, question.question)
        else:
            reading = read(question.options, response, question.question)
            used, official_answer, disagree = reading
            if disagree:
                disagreements.append(question.question_id)
            right = used.answer == gold
        rule = None
        if judged:
            override = judged.get((question.question_id, str(prediction.record)))
            if override is not None:
                rule = RuleReading(used.answer, used.method, used.explanation, status_of(used, right))
                used, verdict = override
                right = verdict if verdict is not None else used.answer == gold
        if readings:
            labelled = readings.lookup(question, response)
            if labelled is not None:
                if rule is None:  # keep what the rules read beside the person's reading
                    rule = RuleReading(used.answer, used.method, used.explanation, status_of(used, right))
                used = labelled.extraction()
                right = _labelled_right(used, gold, question.answer_kind)
        append(
            verdict_row(
                question,
                response,
                used,
                right,
                official_answer,
                prediction.record,
                prediction.full_response,
                prediction.recorded,
                rule,
            )
        )
    rows.extend(map(missing_row, result.missing))
    return rows, disagreements


def _labelled_right(used: Extraction, gold: str, kind: str) -> bool:
    """Whether a person's reading is the gold answer: the same letter, or (free-form) an equivalent value."""
    if used.answer is None:
        return False
    if kind != "free":
        return used.answer == gold
    from mathreel.core.extract.equivalence import math_equivalence

    return math_equivalence(used.answer, gold).equal is True


def question_choices(question: Question, default_letters: tuple[str, ...]) -> Choices:
    """The letters a question allows and its option texts (the benchmark's letters when it lists no options)."""
    return choices_of(question.options, default_letters)


def choice_reader(tool: OfficialTool | None, use_official: bool) -> Callable[..., ChoiceReading]:
    """`_read_choice_answer` with the file's extractors fixed: what a `ReadingMemo` reads with."""
    return partial(_read_choice_answer, tool=tool, use_official=use_official)


def _read_choice_answer(
    response: str,
    choices: Choices,
    tool: OfficialTool | None = None,
    use_official: bool = False,
    question: str | None = None,
) -> _Reading:
    """The extraction a choice answer is scored by, the official extractor's letter (None without one), and
    whether the robust and the official extractor read it differently. `question` (the question's text) reaches
    the robust reader (`extract_choice`); the reference extractors never read it.

    Unless the official reading is the one scored, only its letter is taken (`OfficialTool.letter`).
    """
    letters, texts = choices
    robust = extract_choice(response, letters, texts, question)
    if tool is None:
        return robust, None, False
    if use_official or tool.letter is None:
        by_official = tool.extract(response, letters)
        return (by_official if use_official else robust), by_official.answer, by_official.answer != robust.answer
    letter = tool.letter(response, letters)
    return robust, letter, letter != robust.answer


def read_answer(question: Question, response: str, default_letters: tuple[str, ...]) -> tuple[Extraction, bool]:
    """One answer read by the robust extractor (with the option texts) and whether it is right."""
    if question.answer_kind == "free":
        return score_free(response, question.answer, question.question)
    choices = question_choices(question, default_letters)
    used = _read_choice_answer(response, choices, question=question.question)[0]
    return used, used.answer == question.answer


def score_free(response: str, gold: str, question: str | None = None) -> tuple[Extraction, bool]:
    """A free-form answer: the boxed / final-answer value, compared to the gold value by math equivalence;
    `question` (its text) tells which quantity of an answer sentence holding several is asked."""
    from mathreel.core.extract.free_verdict import free_verdict  # free-form items are MathVerse's only
    from mathreel.core.extract.math_budget import limit_reached

    verdict = free_verdict(response, gold, question)
    extraction = verdict.extraction
    if verdict.equivalence.equal is None and limit_reached(verdict.equivalence.explanation):
        # a limit, not the answer, left it undecided: the row says which
        extraction = extraction.replace(explanation=f"{extraction.explanation}; {verdict.equivalence.explanation}")
    return extraction, verdict.correct
