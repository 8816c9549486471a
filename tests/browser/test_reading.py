"""The reading flow in a real browser: walking answers with the keyboard, two runs side by side, a shared link,
and the narrow layout. Expected lists come from core (read_results + score + select_rows), never constants."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from pages import RUN_A, RUN_B, drill_down, open_tab, scored, wait_for_text

from mathreel.core.data import demo_dir
from mathreel.core.scoring.reading_flow import disagreeing, select_rows

pytestmark = pytest.mark.browser

SHOTS = Path(tempfile.gettempdir()) / "mathreel-shots"  # screenshots to look at, never committed


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_ten_answers_walked_with_the_keyboard_keep_the_response_and_position(page):
    order = [row.question_id for row in select_rows(scored(RUN_A), "all")]
    assert len(order) >= 11
    first = drill_down(page, RUN_A)
    assert first == order[0]
    wait_for_text(page, "#browse-position", f"1 of {len(order)}")
    page.click("#browse-cot")  # a view setting the walk must keep
    for step in range(1, 11):
        page.locator("body").press("Escape")  # focus leaves the checkbox, as a reader's would
        page.keyboard.press("j")
        wait_for_text(page, "#browse-position", f"{step + 1} of {len(order)}")
        wait_for_text(page, "#browse-question", order[step])
        wait_for_text(page, "#browse-response", RUN_A.name)
    assert page.is_checked("#browse-cot input")
    assert page.locator("#browse-response mark.answer-read").count() >= 1 or "unparsed" in page.inner_text(
        "#browse-response"
    )
    page.keyboard.press("k")
    wait_for_text(page, "#browse-position", f"10 of {len(order)}")
    # The address follows the question shown (copied from the page a moment after it changes).
    page.wait_for_function(
        "([q, run]) => { const p = new URLSearchParams(window.location.search); "
        "return p.get('q') === q && p.get('run') === run && p.get('walk') === 'all'; }",
        arg=[order[9], RUN_A.name],
    )
    shot(page, "reading_walk.png")


def test_two_quick_presses_walk_two_answers(page):
    """A key pressed while the previous step is still on its way is kept (Gradio drops a click made while its
    event is pending, unless told otherwise)."""
    order = [row.question_id for row in select_rows(scored(RUN_A), "all")]
    drill_down(page, RUN_A)
    wait_for_text(page, "#browse-position", f"1 of {len(order)}")
    page.locator("body").press("Escape")
    page.keyboard.press("j")
    page.keyboard.press("j")
    wait_for_text(page, "#browse-position", f"3 of {len(order)}")
    wait_for_text(page, "#browse-question", order[2])


def test_wrong_answers_only_and_the_shared_link_reopens_the_question(page, server):
    wrong = [row.question_id for row in select_rows(scored(RUN_A), "wrong")]
    drill_down(page, RUN_A)
    page.click("#browse-walk input")
    page.get_by_role("option", name="Wrong", exact=True).click()
    page.click("#browse-next")
    wait_for_text(page, "#browse-position", f"1 of {len(wrong)} wrong")
    wait_for_text(page, "#browse-question", wrong[0])
    # the address follows the question shown (the page copies Browse's link into it every 250 ms)
    page.wait_for_function("q => new URLSearchParams(location.search).get('q') === q", arg=wrong[0])
    link = page.evaluate("() => window.location.href")
    assert "walk=wrong" in link  # the list walked is part of the position
    # the same browser opens the link on the same answer, in the same list: its runs are kept for it
    again = page.context.new_page()
    again.goto(link)
    wait_for_text(again, "#browse-question", wrong[0])
    wait_for_text(again, "#browse-position", f"1 of {len(wrong)} wrong")
    wait_for_text(again, "#browse-response", RUN_A.name)
    again.close()
    # another browser gets the question, and is told the run is not among its runs
    other = page.context.browser.new_context().new_page()
    try:
        other.goto(link)
        wait_for_text(other, "#browse-question", wrong[0])
        wait_for_text(other, "#browse-position", "not among your runs in this browser")
    finally:
        other.context.close()


def test_two_runs_side_by_side_and_only_where_they_disagree(page):
    report_a, report_b = scored(RUN_A), scored(RUN_B)
    disputed = [row.question_id for row in select_rows(report_a, "all", only=disagreeing([report_a, report_b]))]
    drill_down(page, RUN_A, RUN_B)
    page.wait_for_selector("#browse-compare .compare-col")
    columns = page.locator("#browse-compare .compare-col")
    assert columns.count() == 2
    assert [columns.nth(i).locator("h4").inner_text() for i in range(2)] == [RUN_A.name, RUN_B.name]
    page.click("#browse-walk input")
    page.get_by_role("option", name="All questions", exact=True).click()
    page.click("#browse-disagree input")
    page.click("#browse-next")
    wait_for_text(page, "#browse-position", f"of {len(disputed)} questions where the runs disagree")
    shot(page, "reading_compare.png")


def test_narrow_layout_stacks_and_keeps_the_reading_bar(page):
    drill_down(page, RUN_A)
    page.set_viewport_size({"width": 400, "height": 800})
    page.wait_for_timeout(300)  # layout settles after the resize
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 400
    columns = page.evaluate(
        "() => getComputedStyle(document.querySelector('#browse-frames .grid-container'))"
        ".gridTemplateColumns.split(' ').length"
    )
    assert columns == 2
    assert page.is_visible("#browse-next") and page.is_visible("#browse-prev")
    box = page.locator("#browse-response").bounding_box()
    assert box is not None and box["width"] <= 400
    shot(page, "reading_narrow.png")


def test_enter_in_the_frame_count_applies_it_and_an_empty_search_says_so(page):
    page.wait_for_selector("#browse-frames img")
    box = page.locator("#browse-frames-n input[type=number]")
    box.fill("5")
    box.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#browse-frames .thumbnail-item img').length === 5")
    page.fill("#browse-search input, #browse-search textarea", "no question says this")
    page.press("#browse-search input, #browse-search textarea", "Enter")
    wait_for_text(page, "#browse-list-note", "No questions match")


def browse_views(path: Path) -> tuple[list[str], dict]:
    """The run's question order and the demo judge's views of its answers (matched by response), from core."""
    from mathreel.core.judge import read_judgments
    from mathreel.core.judge.fingerprint import response_fingerprint
    from mathreel.core.review.join import judge_views

    report = scored(path)
    views = judge_views(read_judgments(demo_dir() / "judgments" / f"{path.name.split('_samples')[0]}_judgments.jsonl"))
    responses = {row.question_id: row.response for row in report.rows}
    order = [row.question_id for row in report.rows]
    return order, {q: v for q, v in views.items() if v.fingerprint == response_fingerprint(responses.get(q, ""))}


def test_five_reviews_made_in_browse_with_the_keyboard_show_in_the_judge_tab(page):
    order, views = browse_views(RUN_B)
    judged = [q for q in order if q in views]
    assert len(judged) >= 6
    drill_down(page, RUN_B)
    page.click("#browse-walk input")
    page.get_by_role("option", name="Judged, not reviewed by you", exact=True).click()
    wait_for_text(page, "#browse-position", f"1 of {len(judged)} judged, not reviewed by you")
    wait_for_text(page, "#browse-question", judged[0])
    wait_for_text(page, "#browse-review-progress", f"Reviewed 0 of {len(judged)}")
    assert page.is_visible("#browse-judge-score")
    shot(page, "reading_review.png")
    for done in range(1, 6):
        page.click("#browse-review-help")  # focus outside any text field, where the shortcuts apply
        page.keyboard.press("a")
        wait_for_text(page, "#browse-review-progress", f"Reviewed {done} of {len(judged)}")
        wait_for_text(page, "#browse-question", judged[done])  # on to the next judged answer not reviewed
    wait_for_text(page, "#browse-position", f"1 of {len(judged) - 5} judged, not reviewed by you")
    open_tab(page, "judge", "#judge-questions [data-testid='cell-0-0']")
    page.click("#judge-run input")
    page.get_by_role("option", name="videomathqa_mcq_synthetic-model-b (synthetic demo)", exact=True).click()
    wait_for_text(page, "#review-progress", "Reviewed 5 of")  # the same session's reviews, made in Browse
    shot(page, "judge_after_browse_reviews.png")


def test_walk_by_a_judge_error_category(page):
    from collections import Counter

    order, views = browse_views(RUN_B)
    category, count = Counter(views[q].primary for q in order if q in views and views[q].primary).most_common(1)[0]
    listed = [q for q in order if q in views and views[q].primary == category]
    drill_down(page, RUN_B)
    page.click("#browse-walk input")
    page.get_by_role("option", name=f"judge: {category}", exact=True).click()
    page.click("#browse-next")
    wait_for_text(page, "#browse-position", f"1 of {count} judged {category}")
    wait_for_text(page, "#browse-question", listed[0])
    wait_for_text(page, "#browse-judge-chips", category)
    if count > 1:
        page.locator("body").press("Escape")
        page.keyboard.press("j")
        wait_for_text(page, "#browse-position", f"2 of {count} judged {category}")
        wait_for_text(page, "#browse-question", listed[1])


def test_a_judgment_file_loaded_in_the_judge_tab_shows_beside_the_answer_in_browse(page, tmp_path):
    import json

    judgments = [
        json.loads(line)
        for line in (demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl")
        .read_text()
        .splitlines()
    ]
    first = scored(RUN_B).rows[0].question_id
    for j in judgments:
        if j["task"] == "steps" and j["status"] == "ok" and j["question_id"] == first:
            j["values"]["critique"] = "A critique only this session loaded."
    mine = tmp_path / "my_judgments.jsonl"
    mine.write_text("".join(json.dumps(j) + "\n" for j in judgments), encoding="utf-8")
    assert drill_down(page, RUN_B) == first
    wait_for_text(page, "#browse-judge-card-box", "Matched steps")  # the demo's judgment of this answer
    assert "only this session" not in page.inner_text("#browse-judge-card-box")
    page.click("#tab-judge-button")
    page.set_input_files("#judge-upload input[type=file]", [str(mine)])
    wait_for_text(page, "#judge-question .judge-run-name", "my_judgments")
    page.click("#tab-browse-button")  # the answer shown before now has the session's judgment beside it
    wait_for_text(page, "#browse-judge-card-box", "A critique only this session loaded.")
