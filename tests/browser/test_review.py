"""The review panel in a real browser: five questions reviewed with the keyboard, the file downloaded, the page
reloaded, the file uploaded and the walk continued; a bad file is one line; one session's reviews never show in
another's; the agreement view works on the demo set's synthetic reviews with no setup."""

from __future__ import annotations

from pathlib import Path

import pytest
from pages import open_tab, wait_for_text

from mathreel.core.data import demo_dir
from mathreel.core.judge import read_judgments
from mathreel.core.judge.views import by_question
from mathreel.core.review import read_reviews

pytestmark = pytest.mark.browser

RUN = "videomathqa_mcq_synthetic-model-b (synthetic demo)"
ORDER = [
    c.question_id
    for c in by_question(read_judgments(demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"))
]


def open_run(page) -> None:
    open_tab(page, "judge", "#judge-questions [data-testid='cell-0-0']")
    page.click("#judge-run input")
    page.get_by_role("option", name=RUN, exact=True).click()
    wait_for_text(page, "#judge-question .judge-run-name", RUN)  # the server shows the run chosen
    wait_for_text(page, "#review-progress", f"Reviewed 0 of {len(ORDER)}")


def press(page, key: str) -> None:
    page.click("#review-help")  # focus outside any text field, where the shortcuts apply
    page.keyboard.press(key)


def download(page, target: Path) -> Path:
    with page.expect_download() as info:
        page.click("#review-download")
    info.value.save_as(target)
    return target


def test_review_five_by_keyboard_download_reload_upload_and_continue(page, tmp_path: Path) -> None:
    open_run(page)
    for done in range(1, 6):
        press(page, "a")
        wait_for_text(page, "#review-progress", f"Reviewed {done} of {len(ORDER)}")
        wait_for_text(page, "#judge-question", ORDER[done])  # the walk moved on to the next unreviewed question
    first = read_reviews(download(page, tmp_path / "first.jsonl"))
    assert [r.question_id for r in first] == ORDER[:5]
    assert {r.steps_verdict for r in first} == {"accepted"}

    page.reload()
    open_run(page)  # a new session: nothing reviewed
    page.set_input_files("#review-upload input[type=file]", str(tmp_path / "first.jsonl"))
    wait_for_text(page, "#review-progress", f"Reviewed 5 of {len(ORDER)}")
    press(page, "n")
    wait_for_text(page, "#judge-question", ORDER[5])
    press(page, "a")
    wait_for_text(page, "#review-progress", f"Reviewed 6 of {len(ORDER)}")
    second = read_reviews(download(page, tmp_path / "second.jsonl"))
    assert [r.question_id for r in second] == ORDER[:6]
    assert page.outside_requests == []


def test_a_changed_category_and_a_flag_are_saved(page, tmp_path: Path) -> None:
    open_run(page)
    wrong = next(
        c
        for c in by_question(
            read_judgments(demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl")
        )
        if c.categories
    )
    page.click(f"#judge-questions [data-testid='cell-{ORDER.index(wrong.question_id)}-0']")
    wait_for_text(page, "#review-status", wrong.categories[0])
    page.click("#review-primary input")
    page.get_by_role("option", name="Calculation errors", exact=True).click()
    page.click("#review-flag input")
    page.get_by_role("option", name="wrong gold answer", exact=True).click()
    page.fill("#review-flag-reason textarea", "the gold letter points at the wrong option")
    press(page, "s")
    wait_for_text(page, "#review-progress", f"Reviewed 1 of {len(ORDER)}")
    saved = read_reviews(download(page, tmp_path / "r.jsonl"))
    assert [(r.question_id, r.category_verdict, r.primary, r.flag) for r in saved] == [
        (wrong.question_id, "changed", "Calculation errors", "wrong_gold")
    ]


def test_a_bad_review_file_is_one_line_and_keeps_the_reviews(page, tmp_path: Path) -> None:
    open_run(page)
    press(page, "a")
    wait_for_text(page, "#review-progress", f"Reviewed 1 of {len(ORDER)}")
    bad = tmp_path / "broken_reviews.jsonl"
    bad.write_text('{"question_id": "q001", "reviewer": "x", "step_score": 12, "steps_verdict": "changed"}\n')
    page.set_input_files("#review-upload input[type=file]", str(bad))
    wait_for_text(page, "#review-error", "broken_reviews.jsonl, line 1: 'step_score' must be a whole number")
    text = page.inner_text("#review-error").strip()
    assert text.count("\n") == 0 and str(tmp_path) not in text
    wait_for_text(page, "#review-progress", f"Reviewed 1 of {len(ORDER)}")


def test_one_sessions_reviews_never_reach_another(browser, server: str, page) -> None:
    open_run(page)
    press(page, "a")
    wait_for_text(page, "#review-progress", f"Reviewed 1 of {len(ORDER)}")
    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        second = other.new_page()
        second.set_default_timeout(60_000)
        second.goto(server)
        open_run(second)  # waits for "0 of 12": the first session's review is not here
        second.click("#review-agreement-box")
        second.click("#review-agree")
        wait_for_text(second, "#review-agreement", "synthetic")
        second.wait_for_selector("#review-heatmap .js-plotly-plot")  # drawn a moment after the summary
        assert "Reviewed 0 of" in second.inner_text("#review-progress")
    finally:
        other.close()
