"""A Video-MME result template (videos, each with its questions) read into columns
(`core.results.columnar.read_template_columns`) and scored over them gives exactly what the row reader and the row
scorer give: the same notes, warnings and Predictions (labels, records kept, the video id and url each question
keeps), the same report to the last row; any template the row reader would treat apart is handed back to it, with
its messages. Both generations of the official template: `duration` / `domain` / `options` and
`duration_category` / `video_category` / `choices` with each video's `url`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mathreel.core.errors import InputError
from mathreel.core.results import columnar, read_results
from mathreel.core.results.columnar import ColumnarResult
from mathreel.core.results.model import ResultFile
from mathreel.core.scoring import score
from mathreel.core.scoring.columnar import ColumnarReport

DATA = Path(__file__).resolve().parent / "data" / "generated_scores"
SETTINGS = ({}, {"extractor": "official"}, {"denominator": "answered"}, {"extractor": "lmms-regex"})
# The first-generation template's names for the same fields (BradyFU/Video-MME evaluation/output_test_template.json).
FIRST_GENERATION = {
    "duration": "duration_category",
    "domain": "video_category",
    "sub_category": "video_subcategory",
    "options": "choices",
}


def _by_rows(path: Path, monkeypatch: pytest.MonkeyPatch) -> ResultFile:
    with monkeypatch.context() as patch:
        patch.setattr(columnar, "read_template_columns", lambda *args, **kwargs: None)
        return read_results(path)


def _outcome(read: Callable[[], ResultFile]) -> object:
    """What a read gives: the file's notes, warnings, predictions and duplicates, or the error's message."""
    try:
        result = read()
    except InputError as error:
        return str(error)
    return result.notes, result.warnings, result.predictions, result.duplicates


def _videos() -> list[dict[str, Any]]:
    return json.loads((DATA / "mix_300_template.json").read_text(encoding="utf-8"))


def _first_generation(videos: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same answers spelt as the first-generation template spells them, each video with its url."""
    renamed = []
    for video in videos:
        head = {FIRST_GENERATION.get(key, key): value for key, value in video.items() if key != "questions"}
        head["url"] = f"https://www.youtube.com/watch?v={video['video_id']}"
        questions = [{FIRST_GENERATION.get(key, key): value for key, value in q.items()} for q in video["questions"]]
        renamed.append({**head, "questions": questions})
    return renamed


def _written(tmp_path: Path, videos: list[dict[str, Any]]) -> Path:
    path = tmp_path / "template.json"
    path.write_text(json.dumps(videos), encoding="utf-8")
    return path


@pytest.mark.parametrize("generation", ["current", "first"])
def test_a_template_reads_and_scores_in_columns_as_in_rows(generation, monkeypatch, tmp_path):
    videos = _videos() if generation == "current" else _first_generation(_videos())
    path = _written(tmp_path, videos)
    fast, slow = read_results(path), _by_rows(path, monkeypatch)
    assert type(fast) is ColumnarResult and type(slow) is ResultFile
    assert (fast.notes, fast.warnings, fast.predictions) == (slow.notes, slow.warnings, slow.predictions)
    labels = [p.record for p in fast.predictions]
    assert labels[0] == f"video {videos[0]['video_id']}, question {videos[0]['questions'][0]['question_id']}"
    if generation == "first":  # the video id and url each question keeps, as the row reader keeps them
        assert fast.predictions[4].question.extra == slow.predictions[4].question.extra != {}
    for settings in SETTINGS:
        report = score(read_results(path), **settings)
        expected = score(_by_rows(path, monkeypatch), **settings)
        assert type(report) is ColumnarReport
        assert report.to_dict() == expected.to_dict()  # before any row is built
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))


def _question(video: int, number: int, key: str, value: object) -> Callable[[list[dict[str, Any]]], None]:
    return lambda videos: videos[video]["questions"][number].__setitem__(key, value)


def _without(video: int, number: int, key: str) -> Callable[[list[dict[str, Any]]], None]:
    return lambda videos: videos[video]["questions"][number].pop(key)


def _repeat_id(videos: list[dict[str, Any]]) -> None:
    videos[80]["questions"][1]["question_id"] = videos[2]["questions"][0]["question_id"]


# Templates the columns do not take (read again by the row reader, which scores them or names the problem).
HANDED_BACK: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "repeated id": _repeat_id,
    "full-width gold": _question(70, 0, "answer", "Ｂ"),
    "gold that is no letter": _question(70, 0, "answer", "1"),
    "no gold": _without(70, 0, "answer"),
    "no response": _without(90, 2, "response"),
    "null response": _question(90, 2, "response", None),
    "dimension as a JSON array": _question(90, 2, "task_type", ["Counting Problem"]),
    "id as a JSON object": _question(90, 2, "question_id", {"id": 1}),
    "no id": _without(90, 2, "question_id"),
    "a prompt kept": _question(90, 2, "prompt", "Answer with the letter."),
    "a second spelling of a field": _question(90, 2, "category", "Sports Competition"),
    "a question that is no object": lambda videos: videos[90]["questions"].__setitem__(1, "B"),
    "a video without questions": lambda videos: videos[90].pop("questions"),
}
# Unusual values the columns read as the rows do.
TAKEN: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "response as a list": _question(90, 2, "response", ["B"]),
    "response as a number": _question(90, 2, "response", 3),
    "id as a number": _question(90, 2, "question_id", 12345),
    "a video with no questions": lambda videos: videos[50].__setitem__("questions", []),
    "a video without its id": lambda videos: videos[50].pop("video_id"),
    "a question's own url": _question(50, 1, "url", "https://example.org/v"),
}


@pytest.mark.parametrize("case", sorted(HANDED_BACK) + sorted(TAKEN))
def test_unusual_templates_read_as_the_row_reader_reads_them(case, tmp_path, monkeypatch):
    videos = _first_generation(_videos())
    {**HANDED_BACK, **TAKEN}[case](videos)
    path = _written(tmp_path, videos)
    fast = _outcome(lambda: read_results(path))
    assert fast == _outcome(lambda: _by_rows(path, monkeypatch))
    if not isinstance(fast, str):
        assert isinstance(read_results(path), ColumnarResult) == (case in TAKEN)
        report = score(read_results(path))
        expected = score(_by_rows(path, monkeypatch))
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))
