"""A judge file's answers in the shape scoring takes: `mathreel score RESULTS --judge FILE`.

Per answered row (question id + record), the extraction the judge delivered ("extract": a letter, or the rule
extractor's when the judge failed, as the file says) and, for free-form questions, the equivalence verdict
("equiv"). Rows the judge file does not cover keep the scorer's own rule-based reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import InputError
from core.extract.types import Extraction
from core.judge.model import Judgment

JudgedAnswers = dict[tuple[str, str], tuple[Extraction, bool | None]]


@dataclass(frozen=True)
class JudgedUse:
    """The answers to use and a line saying where they came from."""

    answers: JudgedAnswers
    note: str


def _method(judgment: Judgment) -> str:
    source = judgment.values.get("source") or "judge"
    if judgment.status == "fallback":
        return f"judge failed, {source}"
    return f"judge ({judgment.judge_model})" if source == "judge" else source


def judged_answers(judgments: Sequence[Judgment], source: str, benchmark: str, mode: str) -> JudgedUse:
    """The extractions and verdicts of `judgments` (read from `source`) for a result file of benchmark/mode."""
    other = {(j.benchmark, j.mode) for j in judgments if j.benchmark} - {(benchmark, mode)}
    if other:
        found = ", ".join(f"{b} {m}" for b, m in sorted(other))
        raise InputError(source, f"the judgments are for {found}, the result file is {benchmark} {mode}")
    answers: JudgedAnswers = {}
    counts = {"extract": 0, "equiv": 0, "fallback": 0}
    for judgment in judgments:
        key = (judgment.question_id, str(judgment.record))
        values = judgment.values
        if judgment.task == "extract" and judgment.status in ("ok", "rule", "fallback"):
            answers[key] = (Extraction(values.get("answer"), _method(judgment), str(values.get("explanation", ""))),
                            None)
            counts["extract"] += 1
        elif judgment.task == "equiv" and judgment.status in ("ok", "rule") and values.get("equivalent") is not None:
            answers[key] = (Extraction(values.get("answer"), _method(judgment), str(values.get("explanation", ""))),
                            bool(values["equivalent"]))
            counts["equiv"] += 1
        else:
            continue
        counts["fallback"] += judgment.status == "fallback"
    models = sorted({j.judge_model for j in judgments if j.judge_model})
    note = (f"judge: {counts['extract']} choice extractions and {counts['equiv']} free-form verdicts from {source} "
            f"(judge {', '.join(models) or 'unknown'}); {counts['fallback']} of them are the rule extractor's "
            "because the judge failed")
    return JudgedUse(answers, note)
