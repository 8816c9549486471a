"""`mathreel audit`: the answers to check, written as a readings file that `mathreel score --readings` applies once
a person has edited its labels; it never replaces a file it did not write."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.audit import check_reasons

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
RUN = DEMO / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def _mathreel(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MATHREEL), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_audit_lists_what_browse_walks_and_its_file_scores_once_edited(tmp_path: Path) -> None:
    out = tmp_path / "readings.jsonl"
    listed = _mathreel("audit", RUN, "--out", out, "--json")
    assert listed.returncode == 0, listed.stderr
    expected = check_reasons(score(read_results(RUN)))
    assert {c["question_id"]: c["why"] for c in json.loads(listed.stdout)} == expected
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["question_id"] for r in records] == list(expected)
    assert all(r["label"] == r["reading"] and r["check"] for r in records)  # unedited: what MathReel read
    before = json.loads(_mathreel("score", RUN, "--json").stdout)["overall"]
    unchanged = json.loads(_mathreel("score", RUN, "--readings", out, "--json").stdout)["overall"]
    assert unchanged["correct"] == before["correct"]  # confirming every reading changes no score
    records[0]["label"] = None  # a person reads no answer in the first
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    edited = json.loads(_mathreel("score", RUN, "--readings", out, "--json").stdout)
    first = next(r for r in score(read_results(RUN)).rows if r.question_id == records[0]["question_id"])
    assert edited["overall"]["correct"] == before["correct"] - (first.status == "correct")
    assert edited["unparsed"] == json.loads(_mathreel("score", RUN, "--json").stdout)["unparsed"] + 1


def test_audit_refuses_to_replace_a_file_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "notes.jsonl"
    mine.write_text('{"my": "notes"}\n')
    refused = _mathreel("audit", RUN, "--out", mine)
    assert refused.returncode == 2 and "--out" in refused.stderr and "Traceback" not in refused.stderr
    assert mine.read_text() == '{"my": "notes"}\n'
    again = _mathreel("audit", RUN, "--out", tmp_path / "a.jsonl")
    assert again.returncode == 0 and _mathreel("audit", RUN, "--out", tmp_path / "a.jsonl").returncode == 0
    assert _mathreel("audit", RUN, "--out", RUN).returncode == 2  # its own input


def test_a_file_with_nothing_to_check_asks_for_no_edit(tmp_path: Path) -> None:
    """Every answer a bare letter the official extractor reads alike: nothing to check, and no request to edit."""
    source = [json.loads(line) for line in RUN.read_text(encoding="utf-8").splitlines()]
    plain = tmp_path / "letters_samples.jsonl"
    for record in source:
        letter = record["target"] if isinstance(record.get("target"), str) and len(record["target"]) == 1 else "A"
        record["resps"], record["filtered_resps"] = [[letter]], [letter]
    plain.write_text("".join(json.dumps(r) + "\n" for r in source), encoding="utf-8")
    assert check_reasons(score(read_results(plain))) == {}
    out = tmp_path / "readings.jsonl"
    run = _mathreel("audit", plain, "--out", out)
    assert run.returncode == 0, run.stderr
    assert f"0 of {len(source)} answers to check" in run.stdout
    assert "empty, no reading to check" in run.stdout and "edit the labels" not in run.stdout
