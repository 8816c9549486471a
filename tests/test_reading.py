"""The one bounded reader (core.reading) now under datasets, judgments and reviews too: regressions for what the
annotation and judgment readers let through before they shared it."""

from __future__ import annotations

import pytest

from mathreel.core.data.records import read_records
from mathreel.core.errors import InputError
from mathreel.core.reading import LIMIT_ENV, jsonl_values


def test_an_annotation_file_nested_too_deeply_is_one_input_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply") as caught:
        read_records(path)
    assert str(path) in str(caught.value)


def test_annotation_lines_split_on_newline_only_and_refuse_nul(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_bytes('{"question_id": "q1", "question": "a\u2028b\u0085c"}\r\n{"question_id": "q2"}\n'.encode())
    assert [r["question_id"] for r in read_records(path)] == ["q1", "q2"]
    path.write_bytes(b'{"question_id": "q1"}\n{"question_id": "q2"}\x00\n')
    with pytest.raises(InputError, match="NUL") as caught:
        read_records(path)
    assert "line 2" in str(caught.value)


def test_a_judgments_file_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    path = tmp_path / "judged.jsonl"
    with path.open("wb") as handle:
        handle.truncate(3 * 1024 * 1024)  # sparse: no disk used, and never read
    monkeypatch.setenv(LIMIT_ENV, "2")
    with pytest.raises(InputError, match="limit"):
        list(jsonl_values(path, "judgments file"))


def test_a_fifo_is_refused_without_blocking(tmp_path):
    import os

    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="FIFO"):
        list(jsonl_values(fifo, "reviews file"))
    with pytest.raises(InputError, match="FIFO"):
        read_records(fifo)


def test_a_judgments_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "judged.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"question_id": "q1"}\n{"question_id": "q2"}\n')
    assert [value["question_id"] for _, value in jsonl_values(path, "judgments file")] == ["q1", "q2"]
    path.write_bytes(b"\xef\xbb\xbf")
    assert list(jsonl_values(path, "judgments file")) == []
