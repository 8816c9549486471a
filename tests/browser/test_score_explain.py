"""Score's explain panel in a real browser: two demo Video-MME-v2 runs uploaded, the panel opened against the
other run, one cause followed into Browse's reading walk and its link opened again, the downloads compared with
`mathreel explain`, "same frames?" side by side, and a failure shown once. Expected values come from core.explain
and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pages import open_tab, wait_for_text
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mathreel.core.data import demo_dir
from mathreel.core.explain.explanation import explain
from mathreel.core.explain.runs import load_run
from mathreel.core.explain.scorers import Scorer

pytestmark = pytest.mark.browser

RESULTS = demo_dir() / "results"
RUN_A = RESULTS / "videomme-v2_synthetic-model-a_predictions.tsv"
RUN_B = RESULTS / "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl"


def open_panel(page, *runs: Path) -> None:
    """Upload `runs` in Score and open the explain panel (a tall window keeps its lists in view)."""
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(run) for run in runs])
    wait_for_text(page, "#score-headline", runs[-1].name)
    page.set_viewport_size({"width": 1280, "height": 2400})
    against = page.locator("#score-explain-against")
    for _ in range(3):  # the charts drawn after the headline move the panel down: a click can land where it was
        page.click("#score-explain button:has-text('Why does my number differ')")
        try:
            against.wait_for(state="visible", timeout=10_000)
            break
        except PlaywrightTimeout:
            continue
    against.scroll_into_view_if_needed()


def explain_against_b(page) -> None:
    page.click("#score-explain-against input")
    page.get_by_role("option", name=f"Run {RUN_B.name}", exact=True).click()
    page.click("#score-explain-go")
    wait_for_text(page, "#score-explain-summary", "McNemar p")
    wait_for_text(page, "#score-explain-references", "official")
    page.wait_for_selector("#score-explain-lists [data-testid='cell-0-0']")


def test_a_cause_of_the_gap_opens_its_questions_in_browse_and_its_link_reopens_them(page):
    found = explain([load_run(str(RUN_A)), load_run(str(RUN_B))], [Scorer()])
    cause = next(step for step in found.gap.steps if step.changes)
    open_panel(page, RUN_A, RUN_B)
    explain_against_b(page)
    assert page.inner_text("#score-explain-lists [data-testid='cell-0-0']").strip() == cause.cause
    page.click("#score-explain-lists [data-testid='cell-0-0']")
    wait_for_text(page, "#browse-question", cause.question_ids[0])
    wait_for_text(page, "#browse-position", f"1 of {len(cause.question_ids)}")
    assert cause.cause in page.inner_text("#browse-position")
    page.click("#browse-next")
    wait_for_text(page, "#browse-question", cause.question_ids[1])
    wait_for_text(page, "#browse-position", f"2 of {len(cause.question_ids)}")
    # the address carries the cause's list: the same browser (its runs kept) reopens that walk at that question
    page.wait_for_function(
        "q => { const p = new URLSearchParams(location.search); return p.get('q') === q && p.get('list'); }",
        arg=cause.question_ids[1],
    )
    link = page.evaluate("() => window.location.href")
    again = page.context.new_page()
    try:
        again.goto(link)
        wait_for_text(again, "#browse-question", cause.question_ids[1])
        wait_for_text(again, "#browse-position", f"2 of {len(cause.question_ids)}")
        assert cause.cause in again.inner_text("#browse-position")
        again.click("#browse-prev")
        wait_for_text(again, "#browse-question", cause.question_ids[0])
    finally:
        again.close()


def test_downloads_are_mathreel_explain_and_frames_side_by_side(page):
    open_panel(page, RUN_A, RUN_B)
    explain_against_b(page)
    links = page.locator("#score-explain-files a")
    links.first.wait_for()
    saved = {}
    for k in range(links.count()):
        with page.expect_download() as download:
            links.nth(k).click()
        saved[Path(download.value.suggested_filename).suffix] = Path(download.value.path()).read_bytes().decode("utf-8")
    mathreel = Path(sys.executable).with_name("mathreel")

    def cli(flag: str) -> str:
        args = [str(mathreel), "explain", RUN_A.name, RUN_B.name, flag]
        return subprocess.run(args, capture_output=True, timeout=120, cwd=RESULTS, check=True).stdout.decode("utf-8")

    assert json.loads(saved[".json"]) == json.loads(cli("--json"))
    assert saved[".csv"] == cli("--csv")
    # same frames? A's and B's detected plans on the first question's video, frame by frame
    page.fill("#score-explain-plan-b input, #score-explain-plan-b textarea", "8/midpoints")
    page.click("#score-explain-frames-go")
    wait_for_text(page, "#score-explain-frames-summary", "Same frames?")
    page.wait_for_selector("#score-explain-frames [data-testid='cell-0-1']")
    assert "len/(n+1) steps" in page.inner_text("#score-explain-frames-summary")


def test_a_failure_shows_once_in_the_pages_words(page):
    open_panel(page, RUN_A)
    page.click("#score-explain-against input")
    page.get_by_role("option", name="A figure (type it, or MODEL/SETTING of the paper tables)").click()
    page.fill("#score-explain-figure input, #score-explain-figure textarea", "about half")
    page.click("#score-explain-go")
    wait_for_text(page, "#score-explain-error", "about half")
    page.wait_for_timeout(1000)  # time for a second message, were there one
    text = page.inner_text("#score-explain-error")
    assert text.count("Error") == 1 and RUN_A.name in text and "--" not in text
    assert page.locator(".toast-body").count() == 0  # not repeated in a toast
