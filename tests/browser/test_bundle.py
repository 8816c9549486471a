"""The evidence bundle in Chromium, opened from file:// with every request but file: blocked: the index walks to a
wrong answer, its frames, its prompt and its judge card, and back; a deep link in the app's query keys opens the
question; no request is ever blocked (nothing tries to leave the page)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"
RUN_A = DEMO / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
RUN_B = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGE_A = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-a_judgments.jsonl"
JUDGE_B = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"


@pytest.fixture(scope="module")
def demo_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "site"
    mathreel = Path(sys.executable).with_name("mathreel")
    run = subprocess.run(
        [
            str(mathreel),
            "bundle",
            RUN_A,
            RUN_B,
            "--judge",
            JUDGE_A,
            "--judge",
            JUDGE_B,
            "--reviews",
            REVIEWS,
            "--annotations",
            DEMO / "videomathqa",
            "--out",
            out,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return out


@pytest.fixture
def offline(browser) -> Iterator[object]:
    """A page whose every request but file: is aborted and recorded (`page.blocked`), as are script errors."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    page.blocked, page.errors = [], []

    def only_files(route) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            page.blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_files)
    page.on("request", lambda request: None if request.url.startswith("file:") else page.blocked.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


def test_index_to_a_wrong_answer_its_frames_prompt_and_judge_card_and_back(offline, demo_bundle):
    page = offline
    page.goto((demo_bundle / "index.html").as_uri())
    assert "83.3% [55.2, 95.3]" in page.inner_text("table.headline")
    assert page.locator("svg.chart").count() >= 4
    page.click(f"ul.filters li:has-text('{RUN_A.name}') a:text-matches('^wrong \\\\(')")
    page.wait_for_selector("h1:has-text('wrong')")
    page.locator("tbody a").first.click()
    page.wait_for_selector("section.answer.walked")
    walked = page.locator("section.answer.walked")
    assert walked.get_attribute("data-run") == RUN_A.name
    assert "✗ wrong" in walked.inner_text()
    assert walked.locator("mark.answer-read").count() == 1
    assert "1 of 1 wrong" in page.inner_text("nav.walk >> nth=0")
    frames = page.locator("figure.frame img")
    assert frames.count() == 8
    assert all(frames.nth(i).evaluate("img => img.complete && img.naturalWidth > 0") for i in range(8))
    assert "frame" in page.inner_text("figure.frame >> nth=0")
    assert "Select the best answer" in page.inner_text("pre.prompt >> nth=0")
    card = walked.locator(".judge-card")
    assert "step score" in card.inner_text() and card.locator(".judge-primary").count() == 1
    page.click("nav.walk >> nth=0 >> a.home")
    page.wait_for_selector("table.headline")
    assert page.url.endswith("/index.html")
    assert page.blocked == [] and page.errors == []


def test_a_link_in_the_apps_query_keys_opens_the_question_and_walks_the_run(offline, demo_bundle):
    page = offline
    query = f"?benchmark=videomathqa:mcq&q=q003&run={RUN_B.name}&walk=all"
    page.goto((demo_bundle / "index.html").as_uri() + query)
    page.wait_for_selector("section.answer.walked")
    assert page.url.split("?")[0].endswith("/q/q003.html")
    assert page.locator("section.answer.walked").get_attribute("data-run") == RUN_B.name
    assert "3 of 12 questions" in page.inner_text("nav.walk >> nth=0")
    page.click("nav.walk >> nth=0 >> a.next")
    page.wait_for_selector("section.answer.walked")
    assert page.url.split("?")[0].endswith("/q/q004.html") and f"run={RUN_B.name}" in page.url
    reviews = page.locator("section.answer.walked .reviews")  # the demo's reviews are of model B's answers
    assert "demo-reviewer" in reviews.inner_text()
    page.goto((demo_bundle / "index.html").as_uri() + "#?benchmark=videomme:default&q=q003")
    assert "This bundle holds videomathqa:mcq" in page.inner_text("#link-status")
    assert page.blocked == [] and page.errors == []


def test_the_score_tab_makes_the_bundle_of_the_sessions_runs(page, tmp_path):
    """In the app: the demo runs loaded, one click makes the zip in the background (its progress on the status
    line), and the zip holds a bundle per benchmark whose index names the runs."""
    import zipfile

    sys.path.insert(0, str(Path(__file__).parent))
    from pages import open_tab, wait_for_text

    open_tab(page, "score", "#score-demo")
    page.click("#score-demo")
    page.wait_for_selector("#score-bundle")
    page.click("#score-bundle")
    wait_for_text(page, "#score-bundle-status", "The bundle", timeout=240_000)
    link = page.locator("#score-bundle-file a").first
    with page.expect_download() as download:
        link.click()
    target = tmp_path / "evidence.zip"
    download.value.save_as(target)
    with zipfile.ZipFile(target) as archive:
        names = archive.namelist()
        index = archive.read("mathreel-evidence/videomathqa-mcq/index.html").decode()
    assert RUN_A.name in index and RUN_B.name in index
    assert "mathreel-evidence/mathverse-default/index.html" in names
    assert page.outside_requests == []


def test_the_folder_served_by_a_static_server_works_the_same(browser, demo_bundle):
    """Any static host (here Python's http.server on loopback): a deep link opens the question, frames load, and
    nothing is requested from anywhere but that server."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from helpers.appserver import free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=demo_bundle,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        elsewhere, failed = [], []
        page.on("request", lambda r: None if r.url.startswith(f"http://127.0.0.1:{port}/") else elsewhere.append(r.url))
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        base = f"http://127.0.0.1:{port}/index.html"
        for _ in range(50):  # the server takes a moment to listen
            try:
                page.goto(base + f"?benchmark=videomathqa:mcq&q=q002&run={RUN_A.name}&walk=all")
                break
            except Exception:
                page.wait_for_timeout(100)
        page.wait_for_selector("section.answer.walked")
        assert page.url.startswith(f"http://127.0.0.1:{port}/q/q002.html?")
        assert page.eval_on_selector("figure.frame img", "img => img.complete && img.naturalWidth > 0")
        assert elsewhere == [] and failed == []
    finally:
        context.close()
        server.terminate()
        server.wait(timeout=10)
