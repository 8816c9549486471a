"""Review files: JSONL, one record per question and reviewer. Read with one clear line per bad record, written
atomically, and merged across reviewers (the later record per (question, reviewer) wins)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mathreel.core.errors import InputError
from mathreel.core.files import OutputKind, first_json_line, write_text_output
from mathreel.core.reading import jsonl_text_values, jsonl_values
from mathreel.core.review.model import Review, review_from_dict


def reviews_to_text(reviews: Iterable[Review]) -> str:
    """The JSONL text of `reviews`, one per line."""
    return "".join(json.dumps(review.to_dict(), ensure_ascii=False) + "\n" for review in reviews)


def reviews_from_text(text: str, source: str) -> list[Review]:
    """Reviews from JSONL text; a bad line raises InputError naming `source`, the line and the problem."""
    return _reviews(jsonl_text_values(text, source, _WHAT), source)


def read_reviews(path: str | Path) -> list[Review]:
    """Read a review file (see `reviews_from_text`); FIFOs, devices and over-long lines are refused unread."""
    return _reviews(jsonl_values(path, _WHAT), str(path))


_WHAT = "MathReel review file"


def _reviews(values: Iterable[tuple[int, Any]], source: str) -> list[Review]:
    reviews = [review_from_dict(data, source, f"line {number}") for number, data in values]
    if not reviews:
        raise InputError(source, "the file holds no reviews")
    return merge_reviews(reviews)


def is_review_file(head: bytes, reviewer: str | None = None) -> bool:
    """Whether a file's first line is a review (by `reviewer`, when given): a review file MathReel wrote."""
    data = first_json_line(head, _REVIEW_START)
    return (
        isinstance(data, dict)
        and isinstance(data.get("question_id"), str)
        and isinstance(data.get("reviewer"), str)
        and reviewer in (None, data["reviewer"])
    )


# How `write_reviews` starts every line (Review's field order), for a first line too long to read whole.
_REVIEW_START = re.compile(
    rb'\{"question_id": (?P<question_id>"[^"\\]*(?:\\.[^"\\]*)*"), '
    rb'"reviewer": (?P<reviewer>"[^"\\]*(?:\\.[^"\\]*)*")'
)


REVIEW_FILE = OutputKind("a MathReel review file", is_review_file)


def write_reviews(path: str | Path, reviews: Iterable[Review], *, kind: OutputKind = REVIEW_FILE) -> Path:
    """Write a review file atomically through the safe writer: never over a file that is not an earlier review
    file (of `kind`: core.review.store asks for one reviewer's own)."""
    return write_text_output(path, reviews_to_text(reviews), flag="the review file", kind=kind)


def merge_reviews(*groups: Iterable[Review]) -> list[Review]:
    """One review per (question, reviewer): a later record replaces an earlier one in place (first-seen order)."""
    merged: dict[tuple[str, str], Review] = {}
    for group in groups:
        for review in group:
            merged[review.key] = review
    return list(merged.values())


def read_many(paths: Iterable[str | Path]) -> list[Review]:
    """Several reviewers' files merged, in the order given."""
    return merge_reviews(*(read_reviews(path) for path in paths))
