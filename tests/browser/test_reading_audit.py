"""The reading audit in a real browser: walk a run's readings to check, confirm one with the key y and correct
another; each is saved as a labelled reading and the run is scored again with them, as the CLI scores it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pages import RUN_A, drill_down, scored, wait_for_text

from mathreel.core.scoring.audit import check_reasons
from mathreel.core.scoring.reading_flow import TO_CHECK, select_rows

pytestmark = pytest.mark.browser
MATHREEL = Path(sys.executable).with_name("mathreel")


def shown_reason(why: str) -> str:
    """The reason as the box words it: the reading's method is named once, before it ("a weak reading")."""
    return re.sub(r"weak reading \([^)]*\)", "a weak reading", why)


def test_confirm_with_y_then_correct_and_download_the_readings(page, tmp_path):
    report = scored(RUN_A)
    to_check = [row.question_id for row in select_rows(report, TO_CHECK)]
    assert len(to_check) >= 2 and set(to_check) == set(check_reasons(report))
    drill_down(page, RUN_A)
    page.click("#browse-walk input")
    page.get_by_role("option", name="Readings to check", exact=True).click()
    wait_for_text(page, "#browse-position", "readings to check")
    if not page.inner_text("#browse-position").startswith("1 of"):  # the drilled question is not on the list
        page.click("#browse-next")
    wait_for_text(page, "#browse-position", f"1 of {len(to_check)} readings to check")
    wait_for_text(page, "#browse-question", to_check[0])
    wait_for_text(page, "#browse-audit-why", shown_reason(check_reasons(report)[to_check[0]]))
    page.locator("body").press("Escape")
    page.keyboard.press("y")  # confirm: the rules' reading is right
    wait_for_text(page, "#browse-audit-note", "Saved: 1 correction")
    wait_for_text(page, "#browse-question", to_check[1])  # walked on to the next reading to check
    row = next(r for r in report.rows if r.question_id == to_check[1])
    wait_for_text(page, "#browse-audit-why", shown_reason(check_reasons(report)[to_check[1]]))  # follows the question
    page.wait_for_timeout(500)  # and its label choice has settled before the person picks one
    page.click("#browse-audit-label input")
    page.get_by_role("option", name="(no answer can be read)", exact=True).click()
    page.fill("#browse-audit-reason textarea", "two letters, no final answer")
    page.click("#browse-audit-save")
    wait_for_text(page, "#browse-audit-note", "Saved: 2 correction")
    with page.expect_download() as download:
        page.click("#browse-audit-download")
    saved = tmp_path / "readings.jsonl"
    download.value.save_as(saved)
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert [r["question_id"] for r in records] == to_check[:2]
    assert records[1]["label"] is None and records[1]["reading"] == row.extracted
    cli = subprocess.run(
        [str(MATHREEL), "score", str(RUN_A), "--readings", str(saved), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    accuracy = json.loads(cli.stdout)["overall"]["accuracy"]
    wait_for_text(page, "#browse-audit-note", f"is now {accuracy:.1f}%")
