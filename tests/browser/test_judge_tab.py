"""The Judge tab in a real browser: the demo judgments (score, chips with rationales), HTML payloads shown as text,
and the judge run from the page against a loopback OpenAI-compatible server.

Expected values are read from the committed judgment files with core, never written here as constants.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mathreel.core.data import demo_dir
from mathreel.core.judge import read_judgments
from mathreel.core.judge.prompts import ERRORS_CONTRACT, EXTRACT_CONTRACT, STEPS_CONTRACT
from mathreel.core.judge.views import by_question

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the loopback OpenAI server
from helpers.fake_openai import DEFAULT_MODEL, FakeOpenAI, Recorded
from pages import fill_kept, open_tab, wait_for_text

pytestmark = pytest.mark.browser

DEMO_B = demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
ID_CELLS = "#judge-questions [data-testid^='cell-'][data-testid$='-0']"  # the Question column, header excluded
PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold?</b>'


def open_judge_tab(page) -> None:
    open_tab(page, "judge", "#judge-questions [data-testid='cell-0-0']")


def choose_run(page, name: str) -> None:
    """Choose a run and wait until the server shows it (the status table lists every run, so it cannot tell)."""
    page.click("#judge-run input")
    page.get_by_role("option", name=name, exact=True).click()
    wait_for_text(page, "#judge-question .judge-run-name", name)


def open_question(page, question_id: str) -> None:
    cells = page.locator(ID_CELLS)
    texts = [t.strip() for t in cells.all_inner_texts()]
    page.click(f"#judge-questions [data-testid='cell-{texts.index(question_id)}-0']")
    wait_for_text(page, "#judge-qid", question_id)


def chips(page) -> list[tuple[str, str]]:
    rows = page.locator("#judge-chips .judge-chip-row")
    return [
        (
            rows.nth(i).locator(".judge-chip").inner_text().strip(),
            rows.nth(i).locator(".judge-rationale").inner_text().strip(),
        )
        for i in range(rows.count())
    ]


def test_demo_judgments_show_score_critique_and_chips_with_rationales(page):
    cards = by_question(read_judgments(DEMO_B))
    wrong = next(c for c in cards if len(c.categories) == 2)  # a wrong answer with a secondary category
    open_judge_tab(page)
    run = "videomathqa_mcq_synthetic-model-b (synthetic demo)"
    choose_run(page, run)
    open_question(page, wrong.question_id)
    steps = wrong.values("steps")
    wait_for_text(page, "#judge-card", steps["critique"][:40])
    assert page.inner_text("#judge-score").strip() == str(steps["score"])
    assert page.inner_text("#judge-matched").strip() == steps["matched_steps"]
    errors = wrong.values("errors")
    expected = [(errors["primary"]["category"], errors["primary"]["rationale"])]
    expected += [(e["category"], e["rationale"]) for e in errors["secondary"]]
    assert chips(page) == expected
    response = page.input_value("#judge-response textarea")
    assert response == wrong.by_task["steps"].response
    assert page.locator("#judge-steps li").count() >= 4  # the annotated steps beside the response
    assert page.outside_requests == []


def test_filter_by_error_category_and_score(page):
    cards = by_question(read_judgments(DEMO_B))
    category = cards[0].categories[0] if cards[0].categories else next(c for c in cards if c.categories).categories[0]
    expected = sorted(c.question_id for c in cards if category in c.categories)
    open_judge_tab(page)
    choose_run(page, "videomathqa_mcq_synthetic-model-b (synthetic demo)")
    page.click("#judge-category input")
    page.get_by_role("option", name=category, exact=True).click()
    page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length === n", arg=[ID_CELLS, len(expected)])
    shown = sorted(t.strip() for t in page.locator(ID_CELLS).all_inner_texts())
    assert shown == expected


def test_html_in_an_uploaded_rationale_renders_as_text(page, tmp_path: Path):
    judgments = [json.loads(line) for line in DEMO_B.read_text().splitlines()]
    target = next(j for j in judgments if j["task"] == "errors" and j["status"] == "ok")
    target["values"]["primary"]["rationale"] = PAYLOAD
    for j in judgments:
        if j["question_id"] == target["question_id"]:
            j["response"] = "Response " + PAYLOAD
    path = tmp_path / "payload_judgments.jsonl"
    path.write_text("\n".join(json.dumps(j) for j in judgments) + "\n")
    open_judge_tab(page)
    page.set_input_files("#judge-upload input[type=file]", [str(path)])
    wait_for_text(page, "#judge-statuses", "payload_judgments")
    open_question(page, target["question_id"])
    wait_for_text(page, "#judge-chips", "bold?")
    assert chips(page)[0][1] == PAYLOAD  # the markup is shown as characters
    assert page.locator("#judge-chips img, #judge-chips script, #judge-chips b").count() == 0
    assert page.input_value("#judge-response textarea") == "Response " + PAYLOAD
    assert page.evaluate("() => window.__pwned === undefined")


def test_judging_the_shown_question_from_the_page(page):
    cards = by_question(read_judgments(DEMO_B))
    wrong = next(c for c in cards if c.categories and c.values("extract").get("answer"))
    letter = wrong.values("extract")["answer"]  # the same wrong letter, so the error analysis runs again
    new_critique = "Re-judged live: " + PAYLOAD

    def reply(recorded: Recorded) -> str:
        text = recorded.text
        if EXTRACT_CONTRACT in text:
            return json.dumps({"answer": letter})
        if STEPS_CONTRACT in text:
            total = text.split("GROUND-TRUTH STEPS (N = ", 1)[1].split(")", 1)[0]
            return json.dumps(
                {"matched_steps": f"1/{total}", "final_answer_correct": 0, "critique": new_critique, "score": 3}
            )
        assert ERRORS_CONTRACT in text
        return json.dumps({"primary": {"category": "Calculation errors", "rationale": "Live " + PAYLOAD}})

    with FakeOpenAI(reply=reply, api_key="sk-page-SECRET-77") as judge:
        open_judge_tab(page)
        choose_run(page, "videomathqa_mcq_synthetic-model-b (synthetic demo)")
        open_question(page, wrong.question_id)
        page.click("#judge-run-box button >> nth=0")  # open the accordion
        fill_kept(page, "#judge-base-url input, #judge-base-url textarea", judge.base_url)
        fill_kept(page, "#judge-model input, #judge-model textarea", DEFAULT_MODEL)
        fill_kept(page, "#judge-key input", "sk-page-SECRET-77")
        page.click("#judge-one")
        try:
            wait_for_text(page, "#judge-card", "Re-judged live", timeout=90_000)
        except Exception as error:  # say what the page showed instead
            shown = page.evaluate(
                "() => [document.querySelector('#judge-error')?.innerText,"
                " document.querySelector('#judge-card-box')?.innerText]"
            )
            raise AssertionError(
                f"no re-judged card after {len(judge.chat_requests)} judge calls; error box and card: {shown}"
            ) from error
        assert page.inner_text("#judge-score").strip() == "3"
        assert chips(page) == [("Calculation errors", "Live " + PAYLOAD)]
        assert len(judge.chat_requests) == 3
        assert all(r.authorization == "Bearer sk-page-SECRET-77" for r in judge.chat_requests)
    assert "sk-page-SECRET-77" not in page.evaluate("() => document.body.innerText")
    assert page.evaluate("() => window.__pwned === undefined")


def test_a_judge_run_shows_its_progress_under_the_buttons(page):
    """The run's progress shows in the status line under the judge's buttons (which have no progress display),
    while the endpoint takes its time to answer."""
    with FakeOpenAI(reply=lambda recorded: json.dumps({"answer": "B"}), latency_s=2.0) as judge:
        open_judge_tab(page)
        page.click("#judge-run-box button >> nth=0")  # open the accordion
        fill_kept(page, "#judge-base-url input, #judge-base-url textarea", judge.base_url)
        fill_kept(page, "#judge-model input, #judge-model textarea", DEFAULT_MODEL)
        page.click("#judge-one")
        page.wait_for_selector(
            "#judge-status [data-testid='status-tracker'] .progress-text", state="visible", timeout=30_000
        )


def test_a_judge_card_marks_gold_and_pick_and_opens_the_question_in_browse(page):
    from mathreel.core.data import load_dataset

    cards = by_question(read_judgments(DEMO_B))
    dataset = load_dataset("videomathqa", "mcq")
    card = next(
        c
        for c in cards
        if c.values("extract").get("answer") and c.values("extract")["answer"] != dataset.question(c.question_id).answer
    )
    question = dataset.question(card.question_id)
    open_judge_tab(page)
    choose_run(page, "videomathqa_mcq_synthetic-model-b (synthetic demo)")
    open_question(page, card.question_id)
    marked = [t.strip() for t in page.locator("#judge-question li.judge-marked").all_inner_texts()]
    assert any(t.startswith(f"✓ {question.answer}.") and "correct answer" in t for t in marked)
    assert any(t.startswith(f"✗ {card.values('extract')['answer']}.") and "model's pick" in t for t in marked)
    page.wait_for_function("() => document.querySelectorAll('#judge-frames .thumbnail-item img').length === 8")
    assert card.question_id not in page.inner_text("#judge-frames")  # captions are frame numbers and times
    assert "frame " in page.inner_text("#judge-frames") and page.is_visible("#judge-video video")
    page.click("#judge-open-browse")
    wait_for_text(page, "#browse-question", card.question_id)
    page.wait_for_function("() => document.querySelectorAll('#browse-frames .thumbnail-item img').length >= 1")
    assert page.is_visible("#browse-video video")
