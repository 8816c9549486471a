"""A large JSON Lines file decoded by pyarrow straight into columns (`core.results.arrow_columns`) gives exactly
what the reader of every record gives: the same notes, warnings, Predictions and reports to the last row; and any
file that is not regular (a bad record, a number where text belongs, a missing field, repeated ids, bad bytes, odd
line ends) is read as before, with the same result or the same message. The size threshold is forced to 0 here so
the files stay small."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.errors import InputError
from mathreel.core.results import arrow_columns, read_results
from mathreel.core.results.columnar import ColumnarResult
from mathreel.core.scoring import score

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "generated_scores"
SETTINGS = ({}, {"extractor": "official"}, {"denominator": "answered"}, {"extractor": "lmms-regex"})


def _read(path: Path, monkeypatch: pytest.MonkeyPatch, arrow: bool) -> tuple[object, bool]:
    """`read_results` with the arrow path on (threshold 0) or off, and whether that path gave the result."""
    taken = []
    real = arrow_columns.read_arrow_columns

    def spy(*args, **kwargs):
        found = real(*args, **kwargs)
        taken.append(found is not None)
        return found

    with monkeypatch.context() as patch:
        patch.setattr(arrow_columns, "MIN_BYTES", 0 if arrow else 1 << 62)
        patch.setattr(arrow_columns, "read_arrow_columns", spy)
        try:
            result: object = read_results(path)
        except InputError as error:
            result = str(error)
    return result, taken == [True]


def _outcome(result: object) -> object:
    if isinstance(result, str):
        return result
    return result.notes, result.warnings, result.predictions, result.duplicates  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["mix_300.jsonl", "worst_300.jsonl", "shapes_300.jsonl"])
def test_arrow_columns_read_and_score_as_the_record_reader_does(name, monkeypatch):
    path = DATA / name
    fast, by_arrow = _read(path, monkeypatch, True)
    slow, not_arrow = _read(path, monkeypatch, False)
    assert by_arrow and not not_arrow
    assert type(fast) is ColumnarResult
    assert _outcome(fast) == _outcome(slow)
    for settings in SETTINGS:
        report = score(_read(path, monkeypatch, True)[0], **settings)
        expected = score(_read(path, monkeypatch, False)[0], **settings)
        assert report.to_dict() == expected.to_dict()
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))
        assert report.units == expected.units


def _lines() -> list[bytes]:
    return (DATA / "mix_300.jsonl").read_bytes().splitlines()


def _edited(index: int, change) -> list[bytes]:
    lines = _lines()
    record = json.loads(lines[index])
    change(record)
    lines[index] = json.dumps(record).encode()
    return lines


def _joined(lines: list[bytes], end: bytes = b"\n") -> bytes:
    return b"\n".join(lines) + end


MIDDLE = 150
IRREGULAR = {
    "bad JSON": lambda: _joined([*_lines()[:MIDDLE], _lines()[MIDDLE][:-5], *_lines()[MIDDLE + 1 :]]),
    "number id": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("question_id", 12345))),
    "number response": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("response", 5))),
    "null response": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("response", None))),
    "list response": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("response", ["B"]))),
    "missing response": lambda: _joined(_edited(MIDDLE, lambda r: r.pop("response"))),
    "missing id": lambda: _joined(_edited(MIDDLE, lambda r: r.pop("question_id"))),
    "missing gold": lambda: _joined(_edited(MIDDLE, lambda r: r.pop("answer"))),
    "gold not a letter": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("answer", "E"))),
    "number option": lambda: _joined(_edited(MIDDLE, lambda r: r["options"].__setitem__(1, 7))),
    "dimension an object": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("domain", {"a": 1}))),
    "dimension JSON text": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("domain", "{x}"))),
    "id JSON text": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("question_id", "[1]"))),
    "prompt kept": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("prompt", "Which?"))),
    "one question's options as JSON text": lambda: _joined(
        _edited(MIDDLE, lambda r: r.__setitem__("options", json.dumps(r["options"])))
    ),
    "a float field": lambda: _joined(_edited(MIDDLE, lambda r: r.__setitem__("score", 0.5))),
    "repeated id": lambda: _joined([*_lines()[:MIDDLE], _lines()[MIDDLE - 1], *_lines()[MIDDLE + 1 :]]),
    "not UTF-8": lambda: _joined(_lines()).replace(b"Question", b"Qu\xffestion", 1),
    "NUL byte": lambda: _joined(_lines()).replace(b"Question", b"Qu\x00estion", 1),
    "blank line": lambda: _joined([*_lines()[:MIDDLE], b"", *_lines()[MIDDLE:]]),
    "two records on a line, one blank line": lambda: _joined(
        [*_lines()[:MIDDLE], _lines()[MIDDLE] + _lines()[MIDDLE + 1], *_lines()[MIDDLE + 2 :], b"  "]
    ),
    "CRLF": lambda: b"\r\n".join(_lines()) + b"\r\n",
    "BOM": lambda: b"\xef\xbb\xbf" + _joined(_lines()),
    "space after a record": lambda: _joined([*_lines()[:MIDDLE], _lines()[MIDDLE] + b" ", *_lines()[MIDDLE + 1 :]]),
    "4,400-digit number": lambda: _joined(
        [*_lines()[:MIDDLE], _lines()[MIDDLE][:-1] + b', "n": ' + b"9" * 4400 + b"}", *_lines()[MIDDLE + 1 :]]
    ),
    "NaN": lambda: _joined([*_lines()[:MIDDLE], _lines()[MIDDLE][:-1] + b', "n": NaN}', *_lines()[MIDDLE + 1 :]]),
    "lone surrogate": lambda: _joined(_lines()).replace(b"Question", b"Q\\ud800uestion", 1),
    "key twice": lambda: _joined(
        [*_lines()[:MIDDLE], _lines()[MIDDLE][:-1] + b', "response": "A"}', *_lines()[MIDDLE + 1 :]]
    ),
    "own __line__": lambda: _joined(
        [*_lines()[:MIDDLE], _lines()[MIDDLE][:-1] + b', "__line__": 7}', *_lines()[MIDDLE + 1 :]]
    ),
    "truncated": lambda: b"\n".join([*_lines()[:-1], _lines()[-1][:40]]),
    "an array line": lambda: _joined([*_lines()[:MIDDLE], b"[" + _lines()[MIDDLE] + b"]", *_lines()[MIDDLE + 1 :]]),
}


@pytest.mark.parametrize("case", list(IRREGULAR))
def test_irregular_files_are_read_as_before(case, tmp_path, monkeypatch):
    path = tmp_path / "run.jsonl"
    path.write_bytes(IRREGULAR[case]())
    assert arrow_columns.read_arrow_columns(path, None, None, min_bytes=0) is None
    assert _outcome(_read(path, monkeypatch, True)[0]) == _outcome(_read(path, monkeypatch, False)[0])


REGULAR = {
    "no final newline": lambda: b"\n".join(_lines()),
    "null and absent fields": lambda: _joined(
        _edited(3, lambda r: (r.pop("videoID"), r.__setitem__("domain", None), r.pop("options")))
    ),
    "spaces and case to read alike": lambda: _joined(
        _edited(
            5,
            lambda r: r.update(
                question_id=f" {r['question_id']} ", videoID=r["videoID"] + " ", duration="SHORT ", answer=" c "
            ),
        )
    ),
    "every question's options as JSON text": lambda: _joined(
        [json.dumps({**r, "options": json.dumps(r["options"])}).encode() for r in map(json.loads, _lines())]
    ),
    "five options": lambda: _joined(_edited(9, lambda r: r["options"].append("E. Another"))),
    "extra integer, boolean and time fields": lambda: _joined(
        _edited(0, lambda r: r.update(n=3, flag=True, when="2026-01-01T00:00:00"))
    ),
    "escaped NUL and a line separator in text": lambda: (
        _joined(_lines()).replace(b"Question", b"Qu\\u0000estion", 1).replace(b"Question", "Qu\u2028estion".encode(), 1)
    ),
}


@pytest.mark.parametrize("case", list(REGULAR))
def test_regular_variants_take_the_arrow_path_with_the_same_report(case, tmp_path, monkeypatch):
    path = tmp_path / "run.jsonl"
    path.write_bytes(REGULAR[case]())
    fast, by_arrow = _read(path, monkeypatch, True)
    slow, _ = _read(path, monkeypatch, False)
    assert by_arrow
    assert _outcome(fast) == _outcome(slow)
    for settings in SETTINGS[:3]:
        report, expected = score(fast, **settings), score(slow, **settings)  # type: ignore[arg-type]
        assert json.dumps(report.to_dict(rows=True)) == json.dumps(expected.to_dict(rows=True))


def test_small_files_leave_pyarrow_unimported():
    probe = (
        "import sys; from mathreel.core.results import read_results; "
        f"read_results({str(DATA / 'mix_300.jsonl')!r}); print('pyarrow' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"


def test_a_harness_log_is_left_to_the_row_reader_before_decoding(monkeypatch):
    """The layout is told by the first record: a lmms-eval log never reaches pyarrow's decoder."""
    decoded = []
    monkeypatch.setattr(arrow_columns, "_table", lambda path: decoded.append(path))
    assert arrow_columns.read_arrow_columns(DATA / "lmms_300.jsonl", None, None, min_bytes=0) is None
    assert decoded == []
    assert arrow_columns.read_arrow_columns(DATA / "mix_300.jsonl", None, None, min_bytes=0) is None  # None table
    assert decoded == [str(DATA / "mix_300.jsonl")]
