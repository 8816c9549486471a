"""MathVerse: diagram math in five problem versions (plus Text Only), multi-choice and free-form.

The official "All" averages the five main versions; Text Only is reported apart. Judges and
extractors read `question_for_eval`, because `question` is empty for Vision Only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from core.benchmarks.base import Benchmark, Dimension, Mode
from core.fields import first, text
from core.question import Question

MAIN_VERSIONS = ("Text Dominant", "Text Lite", "Vision Intensive", "Vision Dominant", "Vision Only")
TEXT_ONLY = "Text Only"
VERSIONS = (*MAIN_VERSIONS, TEXT_ONLY)
QUESTION_TYPES = ("multi-choice", "free-form")
SUBJECTS = ("Plane Geometry", "Solid Geometry", "Functions")
SUBFIELDS = ("Length", "Angle", "Area", "Analytic", "Applied", "Volume", "Coordinate", "Property", "Expression")

# "Choices:\nA:40°\nB:60°" in question_for_eval / query_wo.
_CHOICES = re.compile(r"Choices?\s*:\s*\n(.*)$", re.S | re.I)
_CHOICE_LINE = re.compile(r"^\s*\(?([A-H])\s*[:\.\)：]\s*(.+?)\s*$")


def parse_choices(question_text: str) -> tuple[str, ...]:
    """The options written inside a MathVerse question, normalised to "A. text"."""
    match = _CHOICES.search(question_text)
    if not match:
        return ()
    options = []
    for line in match.group(1).splitlines():
        choice = _CHOICE_LINE.match(line)
        if choice:
            options.append(f"{choice.group(1)}. {choice.group(2)}")
    return tuple(options)


class MathVerse(Benchmark):
    name = "mathverse"
    title = "MathVerse"
    modes = (Mode("default", "testmini"),)
    dimensions = (
        Dimension("problem_version", "Problem version", VERSIONS),
        Dimension("question_type", "Question type", QUESTION_TYPES),
        Dimension("subject", "Subject", SUBJECTS),
        Dimension("subfield", "Subfield", SUBFIELDS),
    )
    main_versions = MAIN_VERSIONS

    def letters(self, mode: str) -> tuple[str, ...]:
        return ("A", "B", "C", "D", "E", "F", "G", "H")

    def in_overall(self, question: Question) -> bool:
        return question.dims.get("problem_version") != TEXT_ONLY

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        rec = dict(record)
        metadata = rec.get("metadata") if isinstance(rec.get("metadata"), Mapping) else {}
        question_type = text(rec.get("question_type")).lower()
        for_eval = text(first(rec, "question_for_eval", "question"))
        is_choice = question_type == "multi-choice"
        dims = {
            "problem_version": text(rec.get("problem_version")),
            "question_type": question_type,
            "subject": text(first(metadata, "subject") or rec.get("subject")),
            "subfield": text(first(metadata, "subfield") or rec.get("subfield")),
        }
        return Question(
            benchmark=self.name,
            mode="default",
            question_id=text(first(rec, "sample_index", "question_id", "id")),
            question=text(rec.get("question")),
            answer=text(rec.get("answer")),
            options=parse_choices(for_eval) if is_choice else (),
            answer_kind="choice" if is_choice else "free",
            dims={k: v for k, v in dims.items() if v},
            extra={
                "problem_index": text(rec.get("problem_index")),
                "question_for_eval": for_eval,
                "query_wo": text(rec.get("query_wo")),
                "query_cot": text(rec.get("query_cot")),
                "image": rec.get("image"),
            },
        )


MATHVERSE = MathVerse()
