"""The Ask tab in a real browser: `mathreel serve` started with OPENAI_BASE_URL / MATHREEL_MODEL / OPENAI_API_KEY
pointing at a loopback OpenAI-compatible server; a question chosen in Browse is asked from the page.

Expected prompts come from core's build_view and verdicts from core's scoring, never written here as constants.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.appserver import serving
from pages import wait_for_text

from mathreel.core.data import load_dataset
from mathreel.core.scoring.single import score_response
from mathreel.core.view import build_view

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the loopback OpenAI server
from helpers.fake_openai import FakeOpenAI

pytestmark = pytest.mark.browser

MODEL = "vision-ask-browser"
USER_KEY = "sk-user-TYPED-91c0e5aa"
SERVER_KEY = "sk-server-ENV-2b7d41f3"
# No answer in it, so core's explanation quotes it into the answer table too.
XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><b>hmm</b>'


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(models=(MODEL,), api_key=USER_KEY, stream_chunk_chars=5) as server:
        yield server


@pytest.fixture(scope="module")
def ask_server(server_env: dict[str, str], fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`mathreel serve` whose environment names the fake server, its model and a server-side key."""
    env = {**server_env, "OPENAI_BASE_URL": fake.base_url, "MATHREEL_MODEL": MODEL, "OPENAI_API_KEY": SERVER_KEY}
    with serving(env, tmp_path_factory.mktemp("ask-server-log")) as (url, log):
        yield url
    served_log = log.read_text(errors="replace")
    assert USER_KEY not in served_log and SERVER_KEY not in served_log


@pytest.fixture
def ask_page(browser, ask_server: str, fake: FakeOpenAI) -> Iterator[object]:
    fake.clear()
    fake.api_key = USER_KEY
    fake.reply = "The answer is A."
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(ask_server)
    try:
        yield page
    finally:
        context.close()


def choose_in_browse(page, row: int, question_id: str) -> None:
    page.wait_for_selector("#browse-frames img")
    page.click(f"#browse-table [data-testid='cell-{row}-0']")
    wait_for_text(page, "#browse-question", question_id)


def open_ask(page, question_id: str) -> None:
    page.click("#tab-ask-button")
    wait_for_text(page, "#ask-question", question_id)


def fill(page, base_url: str, key: str | None = USER_KEY, frames: int | None = None) -> None:
    """Type the endpoint like a user would (the fields start with the server's defaults)."""
    page.fill("#ask-base-url input, #ask-base-url textarea", base_url)
    page.fill("#ask-model input, #ask-model textarea", MODEL)
    if key is not None:
        page.fill("#ask-key input", key)
    if frames is not None:
        page.fill("#ask-frames-n input[type=number]", str(frames))
        page.press("#ask-frames-n input[type=number]", "Enter")


def ask(page) -> None:
    page.click("#ask-button")


def response_value(page) -> str:
    return page.input_value("#ask-response textarea")


def test_ask_streams_the_reply_scores_it_and_shows_the_exact_request(ask_page, fake, server_env, monkeypatch):
    page = ask_page
    monkeypatch.setenv("MATHREEL_CACHE", server_env["MATHREEL_CACHE"])
    data = load_dataset("videomathqa", "mcq")
    row, question = 2, data.questions[2]
    fake.reply = f"The figure shows the angle.\nSo the answer is {question.answer}."
    choose_in_browse(page, row, question.question_id)
    open_ask(page, question.question_id)
    assert page.input_value("#ask-key input") == ""  # the server's key is never put in the page
    assert page.get_attribute("#ask-key input", "type") == "password"
    fill(page, fake.base_url, frames=4)
    ask(page)
    wait_for_text(page, "#ask-verdict", "Correct")
    assert response_value(page) == fake.reply
    expected = score_response(question, fake.reply)
    cells = [c.strip() for c in page.locator("#ask-answers [data-testid^='cell-0-']").all_inner_texts()]
    assert cells[:4] == [question.question_id, expected.extracted, question.answer, "correct"]
    assert expected.explanation in cells
    wait_for_text(page, "#ask-usage", "Latency")

    [sent] = fake.chat_requests
    view = build_view(data, question, num_frames=4)
    assert sent.model == MODEL and len(sent.image_urls) == 4 and sent.text == view.prompt
    assert sent.authorization == f"Bearer {USER_KEY}"
    page.click("#ask-request button")
    assert page.input_value("#ask-prompt textarea") == view.prompt
    page.wait_for_function("() => document.querySelectorAll('#ask-images .thumbnail-item img').length === 4")
    html = page.content()
    assert USER_KEY not in html and SERVER_KEY not in html


def test_a_reply_with_html_renders_as_text(ask_page, fake):
    page = ask_page
    fake.reply = XSS
    data = load_dataset("videomathqa", "mcq")
    choose_in_browse(page, 1, data.questions[1].question_id)
    open_ask(page, data.questions[1].question_id)
    fill(page, fake.base_url, frames=2)
    ask(page)
    wait_for_text(page, "#ask-verdict", "Unparsed")
    assert response_value(page) == XSS
    wait_for_text(page, "#ask-answers", '<img src=x onerror="window')  # quoted by core, shown as text
    assert page.evaluate("() => window.__xss") is None
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("#ask-answers script, #ask-answers b, #ask-verdict script, #ask-verdict img").count() == 0


def test_a_401_is_shown_and_the_page_keeps_working(ask_page, fake):
    page = ask_page
    data = load_dataset("videomathqa", "mcq")
    first = data.questions[0]
    open_ask(page, first.question_id)
    fill(page, fake.base_url, key="sk-wrong-one-5566", frames=2)
    ask(page)
    wait_for_text(page, "#ask-error", "refused the API key (401)")
    error = page.inner_text("#ask-error")
    assert MODEL in error and fake.base_url in error
    assert "sk-wrong-one-5566" not in page.content()
    wait_for_text(page, "#ask-verdict", "failed")

    fake.reply = f"The answer is {first.answer}."
    fill(page, fake.base_url, key=USER_KEY)
    ask(page)
    wait_for_text(page, "#ask-verdict", "Correct")
    assert not page.is_visible("#ask-error")
    # browsing still works after the failure, and Ask follows the new question
    page.click("#tab-browse-button")
    choose_in_browse(page, 3, data.questions[3].question_id)
    open_ask(page, data.questions[3].question_id)
    assert response_value(page) == ""  # the last answer belonged to another question


def test_an_empty_key_uses_the_servers_key_for_the_servers_endpoint(ask_page, fake):
    page = ask_page
    fake.api_key = SERVER_KEY
    first = load_dataset("videomathqa", "mcq").questions[0]
    open_ask(page, first.question_id)
    assert page.get_attribute("#ask-key input", "placeholder") == "using the server's key"
    assert page.input_value("#ask-base-url input, #ask-base-url textarea") == fake.base_url
    assert page.input_value("#ask-model input, #ask-model textarea") == MODEL
    page.fill("#ask-frames-n input[type=number]", "2")
    page.press("#ask-frames-n input[type=number]", "Enter")
    ask(page)
    page.wait_for_selector("#ask-answers [data-testid='cell-0-0']")
    assert [r.authorization for r in fake.chat_requests] == [f"Bearer {SERVER_KEY}"]
    assert SERVER_KEY not in page.content()


def test_multi_binary_asks_every_pair_from_the_page(ask_page, fake):
    page = ask_page
    pairs = load_dataset("videomathqa", "mbin").pairs("q001")
    gold = {build_view(load_dataset("videomathqa", "mbin"), p, num_frames=2).prompt: p.answer for p in pairs}
    fake.reply = lambda recorded: f"The answer is {gold[recorded.text]}."
    open_ask(page, "q001")
    page.get_by_label("Multi-binary (A/B pairs)").check()
    wait_for_text(page, "#ask-question", "4 pairs")
    fill(page, fake.base_url, frames=2)
    ask(page)
    wait_for_text(page, "#ask-verdict", f"{len(pairs)} of {len(pairs)} pairs right")
    assert len(fake.chat_requests) == len(pairs)
    asked = page.locator("#ask-answers [data-testid^='cell-'][data-testid$='-0']").all_inner_texts()
    assert [t.strip() for t in asked] == [p.question_id for p in pairs]


def test_a_slow_model_call_does_not_hold_up_another_users_browsing(ask_page, fake, browser, ask_server):
    page = ask_page
    data = load_dataset("videomathqa", "mcq")
    first = data.questions[0]
    gate = threading.Event()

    def held_reply(recorded) -> str:
        gate.wait(120)  # the model "thinks" until the other user has browsed
        return f"The answer is {first.answer}."

    fake.reply = held_reply
    try:
        open_ask(page, first.question_id)
        fill(page, fake.base_url, frames=2)
        ask(page)
        page.wait_for_function("() => document.querySelector('#ask-verdict')?.innerText.includes('Asking')")
        other = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            browsing = other.new_page()
            browsing.set_default_timeout(60_000)
            browsing.goto(ask_server)
            choose_in_browse(browsing, 4, data.questions[4].question_id)
            # the other user's page loaded and switched question while the model call was still open
            assert len(fake.chat_requests) == 1 and not gate.is_set()
            assert "Asking" in page.inner_text("#ask-verdict")
        finally:
            other.close()
    finally:
        gate.set()
    wait_for_text(page, "#ask-verdict", "Correct")
