"""A Video-MME result template (videos, each with its questions) or an lmms-eval sample log read into columns
(`core.results.columnar.read_template_columns`, `read_lmms_columns`) and scored over them gives exactly what the
row reader and the row scorer give: the same notes, warnings and Predictions (labels, records kept, the video id and
url each question keeps, a log's prompts, doc_hash and raw replies), the same report to the last row; any file the
row reader would treat apart is handed back to it, with its messages. Both generations of the official template
(`duration` / `domain` / `options`, and `duration_category` / `video_category` / `choices` with each video's
`url`) and of the lmms-eval log (0.4: a metric dict and the prompt; 0.7: `filtered_resps` a string, `resps` beside
it, a `doc`)."""

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


# lmms-eval sample logs (`read_lmms_columns`) --------------------------------------------------------------------


def _log_by_rows(path: Path, monkeypatch: pytest.MonkeyPatch) -> ResultFile:
    with monkeypatch.context() as patch:
        patch.setattr(columnar, "read_lmms_columns", lambda *args, **kwargs: None)
        return read_results(path)


def _log_lines() -> list[dict[str, Any]]:
    lines = (DATA / "lmms_300.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _log_written(tmp_path: Path, records: list[dict[str, Any]], name: str = "samples_videomme.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def _newest(records: list[dict[str, Any]]) -> None:
    """lmms-eval >= 0.7: `filtered_resps` a string, the raw reply (`resps`) kept where it differs, with a doc."""
    for number, record in enumerate(records):
        reply = record.pop("filtered_resps")[0]
        record["filtered_resps"] = reply
        record["token_counts"] = [len(reply)]
        if number % 7 == 0:
            record["resps"] = [[f"<think>weighing the options</think>{reply}"]]
        record["doc"] = {"question_id": record["videomme_perception_score"]["question_id"], "videoID": "v"}


@pytest.mark.parametrize("generation", ["0.4", "0.7"])
def test_an_lmms_eval_log_reads_and_scores_in_columns_as_in_rows(generation, monkeypatch, tmp_path):
    records = _log_lines()
    if generation == "0.7":
        _newest(records)
    path = _log_written(tmp_path, records)
    fast, slow = read_results(path), _log_by_rows(path, monkeypatch)
    assert type(fast) is ColumnarResult and type(slow) is ResultFile
    assert (fast.notes, fast.warnings, fast.format) == (slow.notes, slow.warnings, slow.format)
    assert fast.predictions == slow.predictions  # prompts, doc_hash and raw replies, built when asked
    assert fast.predictions[0].recorded.prompts != ()
    if generation == "0.7":
        assert any("keep the raw reply" in note for note in fast.notes)
    for settings in SETTINGS:
        report = score(read_results(path), **settings)
        expected = score(_log_by_rows(path, monkeypatch), **settings)
        assert type(report) is ColumnarReport
        assert report.to_dict() == expected.to_dict()
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))


def _log_set(index: int, key: str, value: object) -> Callable[[list[dict[str, Any]]], None]:
    return lambda records: records[index].__setitem__(key, value)


def _metric_set(index: int, key: str, value: object) -> Callable[[list[dict[str, Any]]], None]:
    return lambda records: records[index]["videomme_perception_score"].__setitem__(key, value)


def _log_repeat(records: list[dict[str, Any]]) -> None:
    records[250] = json.loads(json.dumps(records[2]))


LOG_HANDED_BACK: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "repeated record": _log_repeat,
    "gold that is no letter": _metric_set(260, "answer", "Q"),
    "no response": lambda records: records[290].pop("filtered_resps"),
    "an empty response list": _log_set(290, "filtered_resps", []),
    "id as a JSON array": _metric_set(290, "question_id", [1]),
    "no metric dict": lambda records: records[290].pop("videomme_perception_score"),
    "a second metric dict": _log_set(290, "videomathqa_perception_score", {"question_id": "x"}),
}
LOG_TAKEN: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "gold from target": lambda records: (
        _metric_set(260, "answer", "")(records),
        _log_set(260, "target", "C")(records),
    ),
    "response as a number": _log_set(290, "filtered_resps", [5]),
    "another document": _log_set(290, "doc_hash", "another"),
    "no prompt on one line": lambda records: records[290].pop("input"),
}


@pytest.mark.parametrize("case", sorted(LOG_HANDED_BACK) + sorted(LOG_TAKEN))
def test_unusual_logs_read_as_the_row_reader_reads_them(case, tmp_path, monkeypatch):
    records = _log_lines()
    {**LOG_HANDED_BACK, **LOG_TAKEN}[case](records)
    path = _log_written(tmp_path, records)
    fast = _outcome(lambda: read_results(path))
    assert fast == _outcome(lambda: _log_by_rows(path, monkeypatch))
    if not isinstance(fast, str):
        assert isinstance(read_results(path), ColumnarResult) == (case in LOG_TAKEN)
        report = score(read_results(path))
        expected = score(_log_by_rows(path, monkeypatch))
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))


def test_two_logs_compare_their_documents_in_columns_as_in_rows(tmp_path, monkeypatch):
    """`mathreel score A B` warns when B answers a question of A from another document (doc_hash)."""
    from mathreel.core.results.lmms_log import conflict_warning, doc_hash_conflicts

    first = _log_written(tmp_path, _log_lines(), "first.jsonl")
    changed = _log_lines()
    changed[7]["doc_hash"] = "another document"
    second = _log_written(tmp_path, changed, "second.jsonl")
    fast = doc_hash_conflicts(read_results(first), read_results(second))
    slow = doc_hash_conflicts(_log_by_rows(first, monkeypatch), _log_by_rows(second, monkeypatch))
    assert fast == slow == [changed[7]["videomme_perception_score"]["question_id"]]
    assert conflict_warning(fast)
