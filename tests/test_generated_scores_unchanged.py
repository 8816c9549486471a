"""`mathreel score --json --rows` on generated Video-MME files (made by bench/bench_score.py's generator: 100
videos x 3 questions, a realistic mix of answer styles and a worst case of reasoning answers, as JSONL and as the
official template) gives exactly the report stored in tests/data/generated_scores, written before the reading and
scoring paths were made faster: speed work must not move any number, reading or row.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mathreel.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/generated_scores"
CASES = {
    "mix_300.jsonl.report.json": ["mix_300.jsonl"],
    "worst_300.jsonl.report.json": ["worst_300.jsonl"],
    "mix_300_template.json.report.json": ["mix_300_template.json"],
    "mix_300_template.json.official.report.json": ["mix_300_template.json", "--extractor", "official"],
    # The same answers as an lmms-eval 0.4 samples log (no options; a prompt and a doc_hash per line; past the
    # records a file keeps whole), its report written by the tree before the reading memo.
    "lmms_300.jsonl.report.json": ["lmms_300.jsonl"],
    # The mix with the shapes the columnar scorer and the reading memo treat apart: a third of the questions name no
    # video (clusters by video and by question), options as "A) ...", "(A) ...", "A：..." with a fifth option, and
    # bare option texts (letters by position); scored with either denominator. Reports written by main at fc1bdef,
    # before the counting passes became C loops and the memo found letters by the options' first characters.
    "shapes_300.jsonl.report.json": ["shapes_300.jsonl"],
    "shapes_300.jsonl.answered.report.json": ["shapes_300.jsonl", "--denominator", "answered"],
}


@pytest.mark.parametrize("stored", sorted(CASES))
def test_report_with_rows_is_unchanged(stored, capsys):
    name, *extra = CASES[stored]
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        assert main(["score", "--json", "--rows", *extra, f"{DATA}/{name}"]) == 0
    finally:
        os.chdir(here)
    printed = json.loads(capsys.readouterr().out)
    expected = json.loads((ROOT / DATA / stored).read_text(encoding="utf-8"))
    assert len(printed["rows"]) == 300
    assert printed == expected
