"""VideoMathQA: math reasoning over educational videos, MCQ (A-E) and multi-binary (A/B)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from core.benchmarks.base import Benchmark, Dimension, Mode
from core.fields import first, parse_options, parse_steps, text
from core.question import Question

CATEGORIES = (
    "Geometry Angle",
    "Geometry Area",
    "Geometry Length",
    "Chart",
    "Statistics",
    "Arithmetic",
    "Topology",
    "Graph Theory",
    "Counting",
    "Puzzle",
)
DURATIONS = ("short", "medium", "long")
DIFFICULTIES = ("easy", "medium", "hard")
REASONING_TYPES = ("Problem Focused", "Concept Transfer", "Deep Instructional Comprehension")
MCQ_LETTERS = ("A", "B", "C", "D", "E")
MBIN_LETTERS = ("A", "B")

# The seven error categories of the paper's error analysis (section 4.2, Fig. 5c).
ERROR_CATEGORIES = (
    "Misunderstanding the problem",
    "Failing to retrieve relevant information",
    "Misinterpreting visuals",
    "Incorrect application of concepts",
    "Wrong strategy or formula",
    "Forgetting earlier context",
    "Calculation errors",
)

_PAIR_SUFFIX = re.compile(r"^(.+)_(\d+)$")


class VideoMathQA(Benchmark):
    name = "videomathqa"
    title = "VideoMathQA"
    modes = (
        Mode("mcq", "Multiple choice (A-E)"),
        Mode("mbin", "Multi-binary (A/B pairs)", grouped=True),
    )
    dimensions = (
        Dimension("category", "Category", CATEGORIES),
        Dimension("duration", "Duration", DURATIONS),
        Dimension("difficulty", "Difficulty", DIFFICULTIES),
        Dimension("reasoning_type", "Reasoning type", REASONING_TYPES),
    )
    metric_keys = ("videomathqa_perception_score",)
    error_categories = ERROR_CATEGORIES

    def letters(self, mode: str) -> tuple[str, ...]:
        return MBIN_LETTERS if mode == "mbin" else MCQ_LETTERS

    def group_id(self, question_id: str, mode: str) -> str:
        """Multi-binary pairs share an id, or are written `<base>_<k>` (as in the seed's examples)."""
        if mode != "mbin":
            return question_id
        match = _PAIR_SUFFIX.match(question_id)
        return match.group(1) if match else question_id

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        rec = dict(record)
        question_id = text(first(rec, "question_id", "id"))
        dims = {
            "category": text(rec.get("category")),
            # The dataset calls it `length`; the harness's metric dict calls it `duration`.
            "duration": text(first(rec, "length", "duration")).lower(),
        }
        for key in ("difficulty", "reasoning_type"):
            if text(rec.get(key)):
                dims[key] = text(rec[key])
        return Question(
            benchmark=self.name,
            mode=mode,
            question_id=question_id,
            question=text(rec.get("question")),
            answer=text(rec.get("answer")).upper(),
            options=parse_options(rec.get("options")),
            video_id=text(first(rec, "videoID", "video_id")) or None,
            group_id=self.group_id(question_id, mode),
            dims={k: v for k, v in dims.items() if v},
            steps=parse_steps(rec.get("steps")),
            extra={k: rec[k] for k in ("error_categories",) if k in rec},
        )


VIDEOMATHQA = VideoMathQA()
