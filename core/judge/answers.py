"""A judge file's answers in the shape scoring takes: `mathreel score RESULTS --judge FILE`.

A judgment applies to a row of the result file only when it judged that row: the same question id and the same
response (every judgment stores the response it judged; they are compared by a fingerprint of the text,
whitespace aside). Matching by file position would be wrong twice over: another model's judgments would score this
model (same ids, other responses), and the same results saved in another order, as a JSON array or with a blank
line would silently stop matching. Per matched row: the extraction the judge delivered ("extract": a letter, or
the rule extractor's when the judge failed, as the file says) and, for free-form questions, the equivalence
verdict ("equiv"). An extracted letter that is not one of the question's letters is ignored, never scored as a
wrong answer. The note says how many judgments applied and how many were ignored, and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.errors import InputError
from mathreel.core.extract.types import Extraction
from mathreel.core.judge.fingerprint import response_fingerprint
from mathreel.core.judge.model import Judgment
from mathreel.core.plural import counted

JudgedAnswers = dict[tuple[str, str], tuple[Extraction, bool | None]]

IGNORED_WHY = {
    "response": "judged a different response",
    "unknown": "question id not in the result file",
    "letter": "answer is not one of the question's letters",
}


@dataclass(frozen=True)
class JudgedUse:
    """The answers to use and a line saying where they came from, how many applied and what was ignored."""

    answers: JudgedAnswers
    note: str
    applied: int = 0
    ignored: dict[str, int] | None = None


def _method(judgment: Judgment) -> str:
    source = judgment.values.get("source") or "judge"
    if judgment.status == "fallback":
        return f"judge failed, {source}"
    return f"judge ({judgment.judge_model})" if source == "judge" else source


def _usable(judgment: Judgment) -> bool:
    """Whether a judgment carries an answer scoring can take (an extraction, or an equivalence verdict)."""
    if judgment.task == "extract":
        return judgment.status in ("ok", "rule", "fallback")
    return (
        judgment.task == "equiv" and judgment.status in ("ok", "rule") and judgment.values.get("equivalent") is not None
    )


def _rows(predictions: Sequence[Any]) -> tuple[dict[tuple[str, str], list[Any]], set[str]]:
    """Result rows by (question id, response fingerprint), and every question id of the file."""
    rows: dict[tuple[str, str], list[Any]] = {}
    for prediction in predictions:
        rows.setdefault((prediction.question.question_id, response_fingerprint(prediction.response or "")), []).append(
            prediction
        )
    return rows, {p.question.question_id for p in predictions}


def _letter_ok(judgment: Judgment, prediction: Any, bench: Any) -> bool:
    from mathreel.core.judge.tasks import allowed_letters

    answer = judgment.values.get("answer")
    return answer is None or (isinstance(answer, str) and answer in allowed_letters(prediction.question, bench))


def judged_answers(
    judgments: Sequence[Judgment], source: str, benchmark: str, mode: str, predictions: Sequence[Any]
) -> JudgedUse:
    """The extractions and verdicts of `judgments` (read from `source`) for the rows (`predictions`, from
    `core.results`) of a result file of benchmark/mode; see the module docstring for the matching rule."""
    other = {(j.benchmark, j.mode) for j in judgments if j.benchmark} - {(benchmark, mode)}
    if other:
        found = ", ".join(f"{b} {m}" for b, m in sorted(other))
        raise InputError(source, f"the judgments are for {found}, the result file is {benchmark} {mode}")
    bench = get_benchmark(benchmark)
    rows, ids = _rows(predictions)
    answers: JudgedAnswers = {}
    counts: Counter[str] = Counter()
    ignored: Counter[str] = Counter()
    for judgment in filter(_usable, judgments):
        matched = rows.get((judgment.question_id, response_fingerprint(judgment.response)))
        if not matched:
            ignored["response" if judgment.question_id in ids else "unknown"] += 1
            continue
        if judgment.task == "extract" and not _letter_ok(judgment, matched[0], bench):
            ignored["letter"] += 1
            continue
        values = judgment.values
        verdict = bool(values["equivalent"]) if judgment.task == "equiv" else None
        extraction = Extraction(values.get("answer"), _method(judgment), str(values.get("explanation", "")))
        for prediction in matched:
            answers[(prediction.question.question_id, str(prediction.record))] = (extraction, verdict)
        counts[judgment.task] += 1
        counts["fallback"] += judgment.status == "fallback"
    applied = counts["extract"] + counts["equiv"]
    return JudgedUse(answers, _note(source, judgments, counts, ignored), applied, dict(ignored))


def _note(source: str, judgments: Sequence[Judgment], counts: Counter[str], ignored: Counter[str]) -> str:
    models = sorted({j.judge_model for j in judgments if j.judge_model})
    applied = counts["extract"] + counts["equiv"]
    note = (
        f"judge: {applied} of {counted(applied + sum(ignored.values()), 'judgment')} applied "
        f"({counts['extract']} choice "
        f"extractions, {counts['equiv']} free-form verdicts) from {source} (judge {', '.join(models) or 'unknown'})"
        f"; {counts['fallback']} of them are the rule extractor's because the judge failed"
    )
    if ignored:
        reasons = ", ".join(f"{n} {IGNORED_WHY[why]}" for why, n in sorted(ignored.items()))
        note += f"; ignored: {reasons}"
    return note
