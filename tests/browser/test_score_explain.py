"""Score's explain panel in a real browser: two demo Video-MME-v2 runs uploaded, the panel opened against the
other run, and one cause followed into Browse's reading walk. Expected lists come from core.explain."""

from __future__ import annotations

import pytest
from pages import open_tab, wait_for_text

from mathreel.core.data import demo_dir
from mathreel.core.explain.explanation import explain
from mathreel.core.explain.runs import load_run
from mathreel.core.explain.scorers import Scorer

pytestmark = pytest.mark.browser

RESULTS = demo_dir() / "results"
RUN_A = RESULTS / "videomme-v2_synthetic-model-a_predictions.tsv"
RUN_B = RESULTS / "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl"


def test_a_cause_of_the_gap_opens_its_questions_in_browse(page):
    found = explain([load_run(str(RUN_A)), load_run(str(RUN_B))], [Scorer()])
    cause = next(step for step in found.gap.steps if step.changes)
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(RUN_A), str(RUN_B)])
    wait_for_text(page, "#score-headline", RUN_B.name)
    page.click("#score-explain button:has-text('Why does my number differ')")
    # The open list is placed from where the box is; a tall window keeps it in view, with the judging boxes above
    page.set_viewport_size({"width": 1280, "height": 2400})
    page.locator("#score-explain-against").scroll_into_view_if_needed()
    page.click("#score-explain-against input")
    page.get_by_role("option", name=f"Run {RUN_B.name}", exact=True).click()
    page.click("#score-explain-go")
    wait_for_text(page, "#score-explain-summary", "McNemar p")
    wait_for_text(page, "#score-explain-references", "official")
    page.wait_for_selector("#score-explain-lists [data-testid='cell-0-0']")
    assert page.inner_text("#score-explain-lists [data-testid='cell-0-0']").strip() == cause.cause
    page.click("#score-explain-lists [data-testid='cell-0-0']")
    wait_for_text(page, "#browse-question", cause.question_ids[0])
    wait_for_text(page, "#browse-position", f"1 of {len(cause.question_ids)}")
    assert cause.cause in page.inner_text("#browse-position")
    page.click("#browse-next")
    wait_for_text(page, "#browse-question", cause.question_ids[1])
    wait_for_text(page, "#browse-position", f"2 of {len(cause.question_ids)}")
