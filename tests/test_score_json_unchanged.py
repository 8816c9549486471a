"""`mathreel score --json` on the demo files gives byte for byte what it gave before answers carried their recorded
question and the join rule checked it (tests/data/score_json_main, written by the main branch at 91339b7 on
2026-11-25; the readers branch re-worded the explanation of two option-text readings, same answers and scores;
on 2026-11-28 q006_4 of the multi-binary model-b file became a conflict, "... 2 x 7 - 5 = 9.\nThe answer is A." where
9 is option B's value: its working and its letter disagree; the same day a group score of one group reads
"(1 group)", no longer "(1 groups)"),
apart from the fields added since: `mismatched`, `mismatched_ids`, `joins`, the readers' `parse_failure_rate`,
`weak_readings`, `weak_reading_ids`, `labelled_readings`, the format's version `schema` (docs/report.md), and per
row `join`, `rule` and `strength`.

Each case runs the command line in this process (`mathreel.cli.main`) from the repository folder, so the paths in
`source` and in the judge's note are the ones the stored output names.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mathreel.cli import main

ROOT = Path(__file__).resolve().parents[1]
STORED = ROOT / "tests" / "data" / "score_json_main"
ADDED = (
    "mismatched",
    "mismatched_ids",
    "joins",
    "parse_failure_rate",
    "weak_readings",
    "weak_reading_ids",
    "labelled_readings",
    "schema",
)
ADDED_PER_ROW = ("join", "rule", "strength")
RESULTS = sorted(p.name for p in (ROOT / "assets" / "demo" / "results").iterdir())


def cases() -> dict[str, list[str]]:
    found = {}
    for name in RESULTS:
        path = f"assets/demo/results/{name}"
        found[f"{name}.rows.json"] = ["--json", "--rows", path]
        found[f"{name}.ann.json"] = ["--json", "--annotations", "assets/demo", path]
    for run in "ab":
        found[f"judge_{run}.json"] = [
            "--json",
            "--rows",
            f"assets/demo/results/videomathqa_mcq_synthetic-model-{run}_samples.jsonl",
            "--judge",
            f"assets/demo/judgments/videomathqa_mcq_synthetic-model-{run}_judgments.jsonl",
        ]
    found["judge_rev_b.json"] = [
        *found["judge_b.json"],
        "--reviews",
        "assets/demo/reviews/videomathqa_mcq_synthetic-model-b_reviews.jsonl",
    ]
    return found


def without_added(report: dict) -> dict:
    kept = {key: value for key, value in report.items() if key not in ADDED}
    if "rows" in kept:
        kept["rows"] = [{k: v for k, v in row.items() if k not in ADDED_PER_ROW} for row in kept["rows"]]
    return kept


@pytest.mark.parametrize("name", sorted(cases()))
def test_score_json_of_the_demo_files_is_unchanged_apart_from_added_fields(name, capsys):
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        assert main(["score", *cases()[name]]) == 0
    finally:
        os.chdir(here)
    printed = json.loads(capsys.readouterr().out)
    assert set(ADDED) <= set(printed) and printed["schema"] == 1
    again = json.dumps(without_added(printed), ensure_ascii=False, indent=1) + "\n"
    assert again == (STORED / name).read_text(encoding="utf-8")


def test_every_stored_output_is_checked():
    assert sorted(cases()) == sorted(p.name for p in STORED.iterdir())
