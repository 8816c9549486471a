"""The reading audit: which answers a person should look at, and their corrections as labelled readings.

An answer is "to check" when its reading is weak (`ScoredRow.weak`: option text, a tentative statement, a letter
closing a sentence of prose, a lone "(C)", the value a last sentence states, math-verify's own pick), when two final
answers conflict (unparsed: conflict), or when the chosen reference extractor reads it differently. The web app's
walk ("readings to check") steps through `readings_to_check`; one key confirms or corrects a reading, and
`ReadingToCheck.labelled` turns that into the record `mathreel score --readings` applies.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.errors import MathReelError
from mathreel.core.files import OutputKind
from mathreel.core.question import Question
from mathreel.core.results.model import ResultFile
from mathreel.core.scoring.readings import LabelledReading, OptionsKey, question_key, question_options_key
from mathreel.core.scoring.report import Report
from mathreel.core.scoring.row import ScoredRow
from mathreel.core.scoring.verdict import official_tool, question_choices


def _is_audit_file(head: bytes) -> bool:
    """An earlier `mathreel audit --out` file: its first line is a readings record with the audit's "check"."""
    from mathreel.core.files import first_line

    try:
        record = json.loads(first_line(head) or b"null")
    except ValueError:
        return False
    return isinstance(record, dict) and {"response", "label", "check"} <= set(record)


AUDIT_READINGS = OutputKind("a `mathreel audit --out` readings file", _is_audit_file)


@dataclass(frozen=True)
class ReadingToCheck:
    """One answer to look at: where it is (`index` into the report's rows), what was read, and why to check it."""

    index: int
    question_id: str
    record: int | str | None
    response: str
    options: OptionsKey
    letters: tuple[str, ...]
    kind: str  # "choice" | "free"
    reading: str | None  # what MathReel read (None: unparsed)
    method: str
    strength: str | None
    explanation: str
    reference: str | None  # what the reference extractor read (choice answers with a reference; else None)
    why: str  # "weak reading (option-text)", "conflict", "lmms-mcq-extract reads C"
    question: str = ""  # the question's text, kept with a correction where it is part of the match (Yes/No options)

    def labelled(self, label: str | None, reason: str = "") -> LabelledReading:
        """A person's reading of this answer (`label` None: no answer can be read), as a readings-file entry."""
        return LabelledReading(
            self.response,
            self.options,
            label,
            reason,
            self.reading,
            self.letters if not self.options else (),
            self.kind,
            {"question_id": self.question_id},
            question_key(self.question, self.options),
        )


def readings_to_check(
    result: ResultFile, rows: Sequence[ScoredRow], reference: str | None = None
) -> list[ReadingToCheck]:
    """The answers of a scored file a person should check, in the report's order.

    `rows` are the report's rows (`Report.rows`, scored from `result` with the robust reader). `reference` names
    a reference extractor of the benchmark (`mathreel score --extractor help`: "official", "lmms-mcq-extract",
    ...); without one, the benchmark's official extractor's reading kept on each row is used.
    """
    bench = get_benchmark(result.benchmark)
    tool = None
    if reference is not None:
        tool = official_tool(bench, reference)
        if tool is None:
            offered = ", ".join(bench.reproductions) or "none"
            raise MathReelError(f"{bench.title} has no reference extractor {reference!r}; choose one of {offered}")
    # Without a reference, the official extractor's letter kept on each row; a benchmark without a rule-based
    # official extractor (MathVerse's official scorer is a judge) has no reading to dispute.
    disputes = tool is not None or official_tool(bench) is not None
    default_letters = bench.letters(result.mode)
    questions = chain((prediction.question for prediction in result.predictions), result.missing)
    found = []
    for index, (row, question) in enumerate(zip(rows, questions, strict=True)):
        if row.status == "missing":
            continue
        letters = question_choices(question, default_letters)[0] if question.answer_kind != "free" else ()
        theirs = row.official_answer
        if tool is not None and question.answer_kind != "free":
            theirs = (tool.letter or _answer_of(tool.extract))(row.response, letters)
        kind = question.answer_kind if disputes else "free"  # "free": no reference reading to compare
        why = _why(row, theirs, tool.name if tool else "the official extractor", kind)
        if why:
            found.append(
                ReadingToCheck(
                    index,
                    row.question_id,
                    row.record,
                    row.response,
                    question_options_key(question),
                    letters,
                    question.answer_kind,
                    row.extracted,
                    row.method,
                    row.strength,
                    row.explanation,
                    theirs,
                    why,
                    question.question,
                )
            )
    return found


def check_reasons(report: Report) -> dict[str, str]:
    """Question id -> why a person should check its reading, for a scored report on its own (no file read again):
    weak readings, conflicts, and the answers the benchmark's official extractor reads differently
    (`Report.disagreements`). The same answers `readings_to_check` finds without a `reference`."""
    disagree = set(report.disagreements)
    found = {}
    for row in report.rows:
        if row.status == "missing" or row.method == "labelled":
            continue
        reasons = []
        if row.weak:
            reasons.append(f"weak reading ({row.method})")
        if row.extracted is None and row.explanation.startswith("conflict"):
            reasons.append("conflict")
        if row.question_id in disagree:
            reasons.append(f"the official extractor reads {row.official_answer or 'nothing'}")
        if reasons:
            found[row.question_id] = "; ".join(reasons)
    return found


def labelled_row(
    row: ScoredRow, question: Question, label: str | None, reason: str = "", default_letters: tuple[str, ...] = ()
) -> LabelledReading:
    """A person's reading of a scored row's answer to `question` (the question it was scored against), as the
    readings-file entry `mathreel score --readings` applies (`label` None: no answer can be read).
    `default_letters`: the benchmark's letters, for a question that lists no options."""
    letters = () if question.answer_kind == "free" or question.options else default_letters
    options = question_options_key(question)
    return LabelledReading(
        row.response,
        options,
        label,
        reason,
        row.extracted,
        letters,
        question.answer_kind,
        {"question_id": row.question_id},
        question_key(question.question, options),
    )


def _why(row: ScoredRow, theirs: str | None, name: str, kind: str) -> str:
    """Why a person should check this answer ("" when there is no reason)."""
    if row.method == "labelled":
        return ""  # a person has read it already
    reasons = []
    if row.weak:
        reasons.append(f"weak reading ({row.method})")
    if row.extracted is None and row.explanation.startswith("conflict"):
        reasons.append("conflict")
    if kind != "free" and theirs != row.extracted and (theirs is not None or row.extracted is not None):
        reasons.append(f"{name} reads {theirs or 'nothing'}")
    return "; ".join(reasons)


def _answer_of(extract):
    return lambda response, letters: extract(response, letters).answer
