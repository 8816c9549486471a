"""A plain file read into columns (`core.results.columnar`) and scored over them (`core.scoring.columnar`) gives
exactly what the row reader and the row scorer give: the same notes, warnings and Predictions, the same report to
the last row, and any unusual file is handed back to the row reader, with its messages."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from mathreel.core.errors import InputError
from mathreel.core.results import columnar, read_results
from mathreel.core.results import load as load_module
from mathreel.core.results.columnar import ColumnarResult
from mathreel.core.results.model import ResultFile
from mathreel.core.scoring import score
from mathreel.core.scoring.columnar import ColumnarReport

DATA = Path(__file__).resolve().parent / "data" / "generated_scores"
SETTINGS = ({}, {"extractor": "official"}, {"denominator": "answered"}, {"extractor": "lmms-regex"})


def _by_rows(path: Path, monkeypatch: pytest.MonkeyPatch) -> ResultFile:
    with monkeypatch.context() as patch:
        patch.setattr(columnar, "read_columns", lambda *args, **kwargs: None)
        return read_results(path)


def _outcome(read: object) -> object:
    """What a read gives: the file's notes, warnings, predictions and duplicates, or the error's message."""
    try:
        result = read()  # type: ignore[operator]
    except InputError as error:
        return str(error)
    return result.notes, result.warnings, result.predictions, result.duplicates


@pytest.mark.parametrize("name", ["mix_300.jsonl", "worst_300.jsonl", "mix_300.json"])
def test_columns_read_and_score_as_rows_do(name, monkeypatch, tmp_path):
    path = DATA / name
    if name.endswith(".json"):  # the same records as one JSON array: answers labelled by position
        path = tmp_path / name
        lines = (DATA / "mix_300.jsonl").read_text(encoding="utf-8").splitlines()
        path.write_text("[" + ",\n".join(lines) + "]", encoding="utf-8")
    fast, slow = read_results(path), _by_rows(path, monkeypatch)
    assert type(fast) is ColumnarResult and type(slow) is ResultFile
    head = fast.first_predictions(5)  # built alone first, then reused by the whole list: one object per answer
    assert (fast.notes, fast.warnings, fast.predictions) == (slow.notes, slow.warnings, slow.predictions)
    assert all(a is b for a, b in zip(head, fast.predictions, strict=False))
    for settings in SETTINGS:
        report = score(read_results(path), **settings)
        expected = score(_by_rows(path, monkeypatch), **settings)
        assert type(report) is ColumnarReport
        assert report.to_dict() == expected.to_dict()  # before any row is built (joins counted from the columns)
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))
        assert report.units == expected.units


def test_a_columnar_report_crosses_a_process_boundary(monkeypatch):
    """The web app scores in a child process and unpickles the report in the server: rows still build there."""
    report = score(read_results(DATA / "mix_300.jsonl"))
    copy = pickle.loads(pickle.dumps(report))
    expected = score(_by_rows(DATA / "mix_300.jsonl", monkeypatch))
    assert json.dumps(copy.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))
    assert copy.units == expected.units


def _mutated(tmp_path: Path, change) -> Path:
    records = [json.loads(line) for line in (DATA / "mix_300.jsonl").read_text(encoding="utf-8").splitlines()]
    change(records)
    path = tmp_path / "changed.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def _set(index: int, key: str, value: object):
    return lambda records: records[index].__setitem__(key, value)


def _drop(index: int, key: str):
    return lambda records: records[index].pop(key)


# Files the columns do not take (read again by the row reader, which scores them or names the problem).
HANDED_BACK = {
    "repeated id": lambda records: records[250].__setitem__("question_id", records[2]["question_id"]),
    "full-width gold": _set(260, "answer", "Ｂ"),
    "gold that is no letter": _set(260, "answer", "1"),
    "no response": _drop(290, "response"),
    "null response": _set(290, "response", None),
    "dimension as a JSON array": _set(290, "task_type", ["Counting Problem"]),
    "id as a JSON object": _set(290, "question_id", {"id": 1}),
    "no id": _drop(290, "question_id"),
    "no gold": _set(290, "answer", ""),
    "a prompt kept": _set(290, "prompt", "Answer with the letter."),
    "a second spelling of a field": _set(290, "category", "Sports Competition"),
    "an extra field": _set(290, "url", "https://example.org/v"),
    "lmms-eval doc_hash": _set(290, "doc_hash", "abc"),
}
# Unusual values the columns read as the rows do.
TAKEN = {
    "response as a list": _set(290, "response", ["B"]),
    "duration as a number": _set(290, "duration", 1),
    "id as a number": _set(290, "question_id", 12345),
}


@pytest.mark.parametrize("case", sorted(HANDED_BACK) + sorted(TAKEN))
def test_unusual_files_read_as_the_row_reader_reads_them(case, tmp_path, monkeypatch):
    path = _mutated(tmp_path, {**HANDED_BACK, **TAKEN}[case])
    fast = _outcome(lambda: read_results(path))
    assert fast == _outcome(lambda: _by_rows(path, monkeypatch))
    if not isinstance(fast, str):
        assert isinstance(read_results(path), ColumnarResult) == (case in TAKEN)


def test_streamed_batches_decode_as_lines_do(tmp_path, monkeypatch):
    """A streamed file's batches are decoded whole when they can be; a byte-order mark, blank lines, CRLF and a
    line of non-ASCII blanks (no JSON: that batch is read line by line) give the records the whole read gives."""
    lines = (DATA / "mix_300.jsonl").read_bytes().splitlines()[:40]
    lines[7] = b"   "
    lines[12] = "\u2003\u00a0".encode()
    body = b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r\n"
    path = tmp_path / "big.jsonl"
    path.write_bytes(body)
    whole = _outcome(lambda: read_results(path))
    monkeypatch.setattr(load_module, "_STREAM_BYTES", 100)
    monkeypatch.setattr(load_module, "_BATCH", 9)
    streamed = _outcome(lambda: read_results(path))
    assert not isinstance(streamed, str) and streamed == whole
    lines[30] = lines[30].replace(b"Question", b"Qu\xffestion")
    path.write_bytes(b"\n".join(lines))
    assert "line 31" in _outcome(lambda: read_results(path)) and "UTF-8" in _outcome(lambda: read_results(path))
