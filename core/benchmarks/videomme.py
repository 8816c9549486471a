"""Video-MME: general video understanding, four options (A-D), broken down by duration, domain,
sub-category and task type (taxonomy from seed 002, the reference harness)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.benchmarks.base import Benchmark, Dimension, Mode
from core.fields import first, parse_options, text
from core.question import Question

DURATIONS = ("short", "medium", "long")
DOMAINS = (
    "Knowledge",
    "Film & Television",
    "Sports Competition",
    "Artistic Performance",
    "Life Record",
    "Multilingual",
)
SUB_CATEGORIES = (
    "Humanity & History",
    "Literature & Art",
    "Biology & Medicine",
    "Finance & Commerce",
    "Astronomy",
    "Geography",
    "Law",
    "Life Tip",
    "Technology",
    "Animation",
    "Movie & TV Show",
    "Documentary",
    "News Report",
    "Esports",
    "Basketball",
    "Football",
    "Athletics",
    "Other Sports",
    "Stage Play",
    "Magic Show",
    "Variety Show",
    "Acrobatics",
    "Handicraft",
    "Food",
    "Fashion",
    "Daily Life",
    "Travel",
    "Pet & Animal",
    "Exercise",
    "Multilingual",
)
TASK_TYPES = (
    "Temporal Perception",
    "Spatial Perception",
    "Attribute Perception",
    "Action Recognition",
    "Object Recognition",
    "OCR Problems",
    "Counting Problem",
    "Temporal Reasoning",
    "Spatial Reasoning",
    "Action Reasoning",
    "Object Reasoning",
    "Information Synopsis",
)
LETTERS = ("A", "B", "C", "D")


class VideoMME(Benchmark):
    name = "videomme"
    title = "Video-MME"
    modes = (Mode("mcq", "Multiple choice (A-D)"),)
    dimensions = (
        Dimension("duration", "Duration", DURATIONS),
        Dimension("domain", "Domain", DOMAINS),
        Dimension("sub_category", "Sub-category", SUB_CATEGORIES),
        Dimension("task_type", "Task type", TASK_TYPES),
    )
    cross_dimensions = (("duration", "domain"), ("duration", "sub_category"), ("duration", "task_type"))
    metric_keys = ("videomme_perception_score",)

    def letters(self, mode: str) -> tuple[str, ...]:
        return LETTERS

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        rec = dict(record)
        dims = {
            "duration": text(rec.get("duration")).lower(),
            # The harness's metric dict renames domain -> category and task_type -> task_category.
            "domain": text(first(rec, "domain", "category")),
            "sub_category": text(rec.get("sub_category")),
            "task_type": text(first(rec, "task_type", "task_category")),
        }
        return Question(
            benchmark=self.name,
            mode="mcq",
            question_id=text(first(rec, "question_id", "id")),
            question=text(rec.get("question")),
            answer=text(rec.get("answer")).upper(),
            options=parse_options(rec.get("options")),
            video_id=text(first(rec, "videoID", "video_id")) or None,
            dims={k: v for k, v in dims.items() if v},
            extra={k: text(rec[k]) for k in ("url", "video_id") if k in rec},
        )


VIDEOMME = VideoMME()
