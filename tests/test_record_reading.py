"""Reading records safely: file types and sizes checked first, lines split only on line ends, odd values refused
or warned about with the record named (hostile-input regressions)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import badinputs

from mathreel.core.errors import InputError
from mathreel.core.results import load as load_module
from mathreel.core.results import read_results
from mathreel.core.scoring import score

MATHREEL = Path(sys.executable).with_name("mathreel")


def _write(path: Path, records: list[dict], newline: str = "\n") -> Path:
    path.write_bytes(badinputs.jsonl(records, newline))
    return path


def _refused(path: Path, *words: str) -> str:
    with pytest.raises(InputError) as caught:
        read_results(path)
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    assert any(word in message.lower() for word in words), message
    return message


def test_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    _refused(fifo, "fifo")


def test_devices_are_refused_before_reading():
    with pytest.raises(InputError, match="character device"):
        read_results("/dev/zero")


def test_directory_is_refused(tmp_path):
    _refused(tmp_path, "directory")


def test_size_limit_names_itself_and_how_to_raise_it(tmp_path, monkeypatch):
    path = tmp_path / "sparse.jsonl"
    with path.open("wb") as handle:
        handle.truncate(3 * 1024 * 1024)  # sparse: no disk used, and never read
    monkeypatch.setenv(load_module.LIMIT_ENV, "2")
    message = _refused(path, "limit")
    assert load_module.LIMIT_ENV in message and "2 MB" in message
    monkeypatch.setenv(load_module.LIMIT_ENV, "lots")
    with pytest.raises(InputError, match="megabytes"):
        read_results(path)


def test_the_limit_is_raised_by_the_variable(tmp_path, monkeypatch):
    path = _write(tmp_path / "run.jsonl", badinputs.run_records(3, 2))
    monkeypatch.setenv(load_module.LIMIT_ENV, "0.0001")
    with pytest.raises(InputError, match="limit"):
        read_results(path)
    monkeypatch.setenv(load_module.LIMIT_ENV, "1")
    assert len(read_results(path).predictions) == 3


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_unicode_line_separators_inside_strings_are_not_line_ends(tmp_path, separator):
    records = badinputs.run_records(3, 2, "Step one." + separator + "The answer is {}.")
    result = read_results(_write(tmp_path / "run.jsonl", records))
    assert [p.response for p in result.predictions] == [r["response"] for r in records]
    assert [p.record for p in result.predictions] == ["line 1", "line 2", "line 3"]


def test_cr_only_and_crlf_files_keep_their_line_numbers(tmp_path):
    records = badinputs.run_records(3, 1)
    for newline in ("\r", "\r\n"):
        path = tmp_path / "run.jsonl"
        path.write_bytes(badinputs.jsonl(records, newline).replace(newline.encode(), (newline * 2).encode(), 1))
        result = read_results(path)
        assert [p.record for p in result.predictions] == ["line 1", "line 3", "line 4"]


def test_large_jsonl_is_streamed_with_the_same_records(tmp_path, monkeypatch):
    records = badinputs.run_records(40, 25, "Step.\u2028The answer is {}.")
    path = _write(tmp_path / "big.jsonl", records)
    whole = read_results(path)
    monkeypatch.setattr(load_module, "_STREAM_BYTES", 100)
    monkeypatch.setattr(load_module, "_BATCH", 7)
    streamed = read_results(path)
    assert [(p.record, p.response) for p in streamed.predictions] == [(p.record, p.response) for p in whole.predictions]
    assert streamed.notes[0].endswith("[jsonl]")


def test_streamed_jsonl_names_a_bad_line(tmp_path, monkeypatch):
    lines = badinputs.jsonl(badinputs.run_records(12, 3)).split(b"\n")
    lines[9] = b'{"question_id": "009-1", "response": '
    lines[5] = lines[5].replace(b"The answer", b"The\x00answer")
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"\n".join(lines))
    monkeypatch.setattr(load_module, "_STREAM_BYTES", 100)
    assert "line 6" in _refused(path, "nul")
    lines[5] = lines[5].replace(b"\x00", b" ")
    path.write_bytes(b"\n".join(lines))
    assert "line 10" in _refused(path, "json")


def test_nul_anywhere_is_refused_with_its_line(tmp_path):
    path = tmp_path / "late.csv"
    path.write_bytes(badinputs.csv_bytes(badinputs.run_records(300, 100)) + b"299-1,The\x00 answer is A\r\n")
    assert "line 302" in _refused(path, "nul")


@pytest.mark.parametrize("as_array", [False, True])
def test_a_5000_digit_integer_gives_one_line(tmp_path, as_array):
    records = badinputs.run_records(3, 1)
    path = tmp_path / ("big.json" if as_array else "big.jsonl")
    raw = badinputs.as_json(records) if as_array else badinputs.jsonl(records)
    path.write_bytes(raw.replace(b'"answer": "B"', b'"answer": ' + b"7" * 5000, 1))
    message = _refused(path, "4300 digits")
    assert "line" in message


@pytest.mark.parametrize("bad_id", [{"id": "000-1"}, ["000-1"]])
def test_ids_that_are_objects_or_arrays_are_refused(tmp_path, bad_id):
    path = _write(
        tmp_path / "ids.jsonl", [badinputs.question(0, "A", "A"), badinputs.question(1, "B", "B", question_id=bad_id)]
    )
    assert "line 2" in _refused(path, "question id")


def test_ids_that_are_objects_are_refused_in_id_only_files(tmp_path):
    annotations = _write(tmp_path / "ann.jsonl", badinputs.run_records(2, 2))
    path = _write(tmp_path / "ids.jsonl", [{"question_id": {"x": 1}, "response": "A"}])
    with pytest.raises(InputError, match="question id"):
        read_results(path, benchmark="videomme", annotations=annotations)


def test_dimension_values_that_are_arrays_are_refused(tmp_path):
    path = _write(tmp_path / "dims.jsonl", [badinputs.question(0, "A", "A", domain={"name": "Knowledge"})])
    assert "domain" in _refused(path, "not a label")


def test_duplicate_id_warning_is_bounded(tmp_path):
    records = [badinputs.question(0, "A", "A")] * 3000 + [badinputs.question(i, "A", "A") for i in range(1, 40)] * 2
    result = read_results(_write(tmp_path / "dupes.jsonl", records))
    (warning,) = [w for w in result.warnings if "duplicate" in w]
    assert len(warning) < 2000
    assert "and 2989 more" in warning  # the 2,999 repeats of 000-1: ten places shown
    assert warning.endswith("and 30 more")  # 40 ids repeated: ten shown


def test_gold_answers_outside_the_letters_are_named(tmp_path):
    records = [badinputs.question(i, gold, "The answer is A.") for i, gold in enumerate(["1", "true", "\u0410", "A"])]
    result = read_results(_write(tmp_path / "gold.jsonl", records))
    (warning,) = [w for w in result.warnings if "gold" in w]
    assert warning.startswith("3 gold answers")
    for label, gold in (("line 1", "'1'"), ("line 2", "'TRUE'"), ("line 3", "'\u0410'")):
        assert f"{label} ({gold}" in warning


def test_full_width_gold_is_normalised_with_a_note(tmp_path):
    records = [badinputs.question(0, "\uff22", "The answer is B."), badinputs.question(1, "C", "C")]
    result = read_results(_write(tmp_path / "gold.jsonl", records))
    assert result.predictions[0].question.answer == "B"
    assert any("NFKC" in note and "line 1" in note for note in result.notes)
    assert not result.warnings
    assert score(result).overall.correct == 2


def test_annotations_that_store_the_answer_index_warn(tmp_path):
    annotations = [badinputs.question(i, str(i % 4), "") for i in range(3)]
    for record in annotations:
        del record["response"]
    ann = tmp_path / "ann.json"
    ann.write_text(json.dumps(annotations))
    path = _write(tmp_path / "ids.jsonl", [{"question_id": r["question_id"], "response": "A"} for r in annotations])
    result = read_results(path, benchmark="videomme", annotations=ann)
    (warning,) = [w for w in result.warnings if "gold" in w]
    assert "in the annotations" in warning and "record 1 ('0'" in warning


def test_files_mathreel_writes_with_odd_replies_read_back(tmp_path):
    """`run` and `judge` write JSON with ensure_ascii=False: a reply holding U+2028 must survive the round trip."""
    record = badinputs.question(0, "A", "Step one.\u2028\u2029\u0085 The answer is A.")
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    run = subprocess.run([str(MATHREEL), "score", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["overall"]["correct"] == 1


def test_cli_refuses_a_fifo_with_one_line(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    run = subprocess.run([str(MATHREEL), "score", str(fifo)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "FIFO" in run.stderr
