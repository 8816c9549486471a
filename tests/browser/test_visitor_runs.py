"""A visitor's runs in a real browser: the demo runs one click away (and said to be synthetic), runs and reading
position back after a reload, in a new page of the same browser and at the bare address; another browser sees none
of it and cannot fetch the files kept for the first. Expected figures come from core on the same files."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from pages import open_tab, wait_for_text

from mathreel.core.data import demo_dir
from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.reading_flow import select_rows
from mathreel.webapp.score_kept import demo_results

pytestmark = pytest.mark.browser

RUN_A = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"


def headline_of(path: Path) -> str:
    """The run's accuracy as the page prints it (core's text)."""
    return score(read_results(path)).to_dict()["overall"]["text"].split(" ")[0]


def upload_box_names(page) -> list[str]:
    """The files the Score tab's upload box lists."""
    return page.eval_on_selector_all(
        "#score-upload td.filename", "cells => cells.map(c => c.getAttribute('aria-label'))"
    )


def test_the_demo_runs_load_in_one_click_and_browse_lists_them(page):
    files = demo_results()
    assert len(files) >= 8  # two runs per benchmark
    open_tab(page, "score", "#score-demo")
    note = page.inner_text("#score-demo-note")
    assert "synthetic" in note and "demo generator" in note and "No real model" in note
    page.click("#score-demo")
    wait_for_text(page, "#score-headline", files[0].name)
    headline = page.inner_text("#score-headline")
    assert f"{headline_of(files[0])} accuracy" in headline
    assert all(f.name in headline for f in files)
    assert sorted(upload_box_names(page)) == sorted(f.name for f in files)
    page.click("#tab-browse-button")
    page.click("#browse-run input")
    listed = page.get_by_role("option").all_inner_texts()
    assert {f.name for f in files} <= {t.strip() for t in listed}
    page.keyboard.press("Escape")
    page.click("#tab-score-button")
    page.click("#score-demo")  # a second click adds nothing twice
    page.wait_for_timeout(1500)
    assert sorted(upload_box_names(page)) == sorted(f.name for f in files)


def test_runs_and_the_reading_position_come_back_for_this_browser_only(page, browser, server, server_env):
    wrong = [row.question_id for row in select_rows(score(read_results(RUN_A)), "wrong")]
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(RUN_A)])
    wait_for_text(page, "#score-headline", headline_of(RUN_A))
    page.click("#score-questions [data-testid='cell-0-0']")
    wait_for_text(page, "#browse-position", " of ")
    page.click("#browse-walk input")
    page.get_by_role("option", name="Wrong", exact=True).click()
    page.click("#browse-next")
    wait_for_text(page, "#browse-position", f"1 of {len(wrong)} wrong")
    page.wait_for_function("q => new URLSearchParams(location.search).get('q') === q", arg=wrong[0])
    link = page.url

    page.reload()  # the same answer in the same list, the run's response beside it
    wait_for_text(page, "#browse-question", wrong[0])
    wait_for_text(page, "#browse-position", f"1 of {len(wrong)} wrong")
    wait_for_text(page, "#browse-response", RUN_A.name)
    assert page.input_value("#browse-walk input") == "Wrong"
    page.click("#tab-score-button")
    wait_for_text(page, "#score-headline", headline_of(RUN_A))
    assert upload_box_names(page) == [RUN_A.name]
    assert "7 days after your last visit" in page.inner_text("#score-kept")

    bare = page.context.new_page()  # the bare address in the same browser opens where the reader was
    bare.goto(server)
    wait_for_text(bare, "#browse-position", f"1 of {len(wrong)} wrong")
    wait_for_text(bare, "#browse-question", wrong[0])
    bare.close()

    other = browser.new_context().new_page()
    try:
        other.goto(link)
        wait_for_text(other, "#browse-question", wrong[0])
        wait_for_text(other, "#browse-position", "not among your runs in this browser")
        open_tab(other, "score", "#score-upload")
        assert "Upload a result file to see scores" in other.inner_text("#score-headline")
        assert RUN_A.name not in other.inner_text("body")
        kept = list((Path(server_env["MATHREEL_CACHE"]) / "visitors").glob(f"*/files/*/{RUN_A.name}"))
        assert kept  # the first visitor's file is kept on the server ...
        for path in kept:  # ... and no one can fetch it by its path
            response = other.request.get(f"{server}gradio_api/file={quote(str(path))}")
            assert response.status in (403, 404), response.status
            assert RUN_A.read_text(encoding="utf-8")[:40] not in response.text()
    finally:
        other.context.close()


def test_clearing_the_files_forgets_them(page):
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(RUN_A)])
    wait_for_text(page, "#score-headline", headline_of(RUN_A))
    page.click("#score-upload button[aria-label='Clear']")
    wait_for_text(page, "#score-headline", "Upload a result file to see scores")
    page.wait_for_timeout(1000)
    page.reload()
    open_tab(page, "score", "#score-upload")
    page.wait_for_timeout(3000)  # a kept run would be back by now
    assert "Upload a result file to see scores" in page.inner_text("#score-headline")
    assert upload_box_names(page) == []


RUN_B = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGED_B = demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS_B = demo_dir() / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"


def judged_headline() -> str:
    """Run B's accuracy with its judgments and reviews, as core gives it (`mathreel score --judge --reviews`)."""
    from mathreel.core.judge import read_judgments
    from mathreel.core.scoring.files import ScoreRequest, score_file

    judged = score_file(
        ScoreRequest(str(RUN_B), judgments=tuple(read_judgments(str(JUDGED_B))), reviews=(str(REVIEWS_B),))
    )
    return judged.to_dict()["overall"]["text"].split(" ")[0] + " accuracy"


def figures_text(page) -> str:
    """The headline's text without the progress timer Gradio may show on it ("0.5s", "processing | 0.1/0.0s",
    "queue: 1/1 | 0.1/0.2s" while another event of the page waits its turn)."""
    lines = page.inner_text("#score-headline").splitlines()
    timer = r"(?:(?:processing|queue: \d+/\d+) \| )?[\d.]+(?:/[\d.]+)?s"
    return "\n".join(line for line in lines if not re.fullmatch(timer, line.strip()))


def box_names(page, box: str) -> list[str]:
    return page.eval_on_selector_all(f"#{box} td.filename", "cells => cells.map(c => c.getAttribute('aria-label'))")


def test_judgments_and_reviews_come_back_with_the_runs_for_this_browser_only(page, browser, server):
    expected = judged_headline()
    assert expected != headline_of(RUN_B) + " accuracy"  # the judge changes the headline
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(RUN_B)])
    wait_for_text(page, "#score-headline", f"{headline_of(RUN_B)} accuracy")
    page.set_input_files("#score-judgments input[type=file]", [str(JUDGED_B)])
    wait_for_text(page, "#score-judgments", JUDGED_B.name)
    page.set_input_files("#score-reviews input[type=file]", [str(REVIEWS_B)])
    wait_for_text(page, "#score-headline", "Reading counted: the judge's")
    wait_for_text(page, "#score-headline", expected)
    wait_for_text(page, "#score-headline", "come from people")  # the reviews counted too
    before = figures_text(page)
    page.wait_for_timeout(1000)  # the keeping is done with the scoring event

    page.reload()
    open_tab(page, "score", "#score-upload")
    wait_for_text(page, "#score-headline", expected)
    wait_for_text(page, "#score-questions", "Rule reading (not counted)")
    assert figures_text(page) == before  # every figure and note as before the reload
    assert box_names(page, "score-judgments") == [JUDGED_B.name]
    assert box_names(page, "score-reviews") == [REVIEWS_B.name]
    assert "judgments and reviews" in page.inner_text("#score-kept")

    other = browser.new_context().new_page()
    try:
        other.goto(server)
        open_tab(other, "score", "#score-upload")
        other.wait_for_timeout(3000)  # kept files would be back by now
        assert "Upload a result file to see scores" in other.inner_text("#score-headline")
        assert box_names(other, "score-judgments") == [] and box_names(other, "score-reviews") == []
        assert JUDGED_B.name not in other.inner_text("body")
    finally:
        other.context.close()
