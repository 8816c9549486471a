"""A user's own result file in a real browser: every answer shown with its own question, never under a demo
question whose id it shares, and every answer walked with `j` whether or not the dataset is on the server; chain
of thought offered only where the benchmark has it, in Browse and Ask.

The file is a Video-MME run in the first-generation official template (tests/helpers/colliding.py) whose ids (`001-1`
...) collide with the demo set's; the expected questions are read from the file and the demo's annotations.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pages import open_tab, wait_for_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, home of the shared fixtures
from helpers.appserver import serving
from helpers.colliding import SAME_ID, colliding_file, file_questions

from mathreel.core.data import demo_dir, load_dataset

pytestmark = pytest.mark.browser

NOT_HERE = "not on this server"


def upload_and_open_first(page, path: Path) -> str:
    """Upload `path` in Score and open its first answer in Browse (the drill-down)."""
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(path)])
    wait_for_text(page, "#score-headline", "accuracy")
    cell = "#score-questions [data-testid='cell-0-0']"
    page.wait_for_selector(cell)
    qid = page.inner_text(cell).strip()
    page.click(cell)
    wait_for_text(page, "#browse-position", " of ")
    return qid


def at_position(page, text: str) -> None:
    """Wait until the position line starts with `text` ("4 of 18", not "14 of 18")."""
    page.wait_for_function(
        "t => (document.querySelector('#browse-position')?.innerText || '').trim().startsWith(t)", arg=text
    )


def walk_every_answer(page, own: dict[str, str], first: str, check: Callable[[str, str], None]) -> list[str]:
    """Press `j` through the whole list from `first`, calling `check(id, the question panel's text)` on every
    answer while it is shown; the ids shown."""
    order = list(own)
    assert first == order[0]
    seen = []
    for step, qid in enumerate(order):
        if step:
            page.locator("body").press("Escape")  # focus off any control, as a reader's would be
            page.keyboard.press("j")
        at_position(page, f"{step + 1} of {len(order)}")
        wait_for_text(page, "#browse-question", f"· {qid}")
        check(qid, page.inner_text("#browse-question"))
        seen.append(qid)
    return seen


def test_no_answer_of_a_colliding_file_is_drawn_under_a_demo_question(page, tmp_path):
    path = colliding_file(tmp_path / "videomme_template_2024.json")
    own = file_questions(path)
    demo = {q.question_id: q for q in load_dataset("videomme", None, demo_dir()).questions}
    assert set(demo) < set(own)  # every demo id is one of the file's, with other questions (but SAME_ID)
    first = upload_and_open_first(page, path)

    def check(qid: str, shown: str) -> None:
        assert own[qid] in shown  # the file's own question, for every answer
        if qid == SAME_ID:  # the demo's question written another way: joined by its text, frames shown
            assert NOT_HERE not in shown
            page.wait_for_selector("#browse-frames img")
            page.wait_for_selector("#browse-media", state="visible")  # its video column back beside it
            return
        assert NOT_HERE in shown and "read from the file" in shown
        if qid in demo:
            assert demo[qid].question not in shown  # never the demo's question of the same id
        assert page.locator("#browse-frames img").count() == 0  # no demo frames under it either
        assert not page.is_visible("#browse-video video")
        # No empty video column beside the question, and no frame-rate control for frames that are not here.
        page.wait_for_selector("#browse-media", state="hidden")
        page.wait_for_selector("#browse-fps", state="hidden")

    assert walk_every_answer(page, own, first, check) == list(own)
    page.keyboard.press("j")  # the end of the list: it stays on the last answer
    at_position(page, f"{len(own)} of {len(own)}")


def test_ask_does_not_put_a_file_only_question_to_a_model(page, tmp_path):
    path = colliding_file(tmp_path / "videomme_template_2024.json")
    upload_and_open_first(page, path)
    wait_for_text(page, "#browse-question", NOT_HERE)
    page.click("#tab-ask-button")
    wait_for_text(page, "#ask-question", "read from its result file")


@pytest.fixture
def no_videomme_server(server_env, tmp_path):
    """`mathreel serve` on a data folder holding VideoMathQA only: Video-MME is absent from the server."""
    root = tmp_path / "data"
    shutil.copytree(demo_dir() / "videomathqa", root / "videomathqa")
    env = {**server_env, "MATHREEL_DATA": str(root), "MATHREEL_CACHE": str(tmp_path / "cache")}
    with serving(env, tmp_path) as (url, _log):
        yield url


def test_every_answer_is_walked_with_the_dataset_absent(browser, no_videomme_server, tmp_path):
    path = colliding_file(tmp_path / "videomme_template_2024.json")
    own = file_questions(path)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(no_videomme_server)
        first = upload_and_open_first(page, path)

        def check(qid: str, shown: str) -> None:
            assert own[qid] in shown and "no Video-MME questions" in shown
            assert "gold" in page.inner_text("#browse-response")  # the verdict line: pick, gold, reason
            assert page.input_value("#browse-prompt textarea")  # a prompt built from the file's question
            assert page.locator("#browse-frames img").count() == 0

        assert walk_every_answer(page, own, first, check) == list(own)
    finally:
        context.close()


def test_chain_of_thought_only_where_the_benchmark_has_it(page):
    page.wait_for_selector("#browse-frames img")
    page.click("#browse-cot input")
    assert page.is_checked("#browse-cot input")
    page.click("#browse-benchmark input")
    page.get_by_role("option", name="Video-MME", exact=True).click()
    first = load_dataset("videomme", None, demo_dir()).questions[0]
    wait_for_text(page, "#browse-question", first.question)  # the new question, not the old one left on screen
    page.wait_for_function("() => document.querySelector('#browse-cot input').disabled")
    assert not page.is_checked("#browse-cot input")
    page.click("#browse-style input")
    page.wait_for_selector("[role=option]")
    for name in ("best_answer", "qwen3_vl"):  # every prompt style the CLI knows for Video-MME
        assert page.get_by_role("option").filter(has_text=name).count() >= 1
    page.keyboard.press("Escape")
    page.click("#tab-ask-button")
    wait_for_text(page, "#ask-question", first.question_id)
    assert page.locator("#ask-style label", has_text="Chain of thought").count() == 0
