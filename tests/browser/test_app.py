"""The app in a real browser: `mathreel serve` on the demo set, Chromium driven by Playwright.

Expected values come from core run in the test (build_view, `mathreel score --json`), never from constants.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers.appserver import mathreel_command
from pages import open_tab, scored, wait_for_text

from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.view import build_view

pytestmark = pytest.mark.browser

RESULTS = demo_dir() / "results"
MCQ_RUN = RESULTS / "videomathqa_mcq_synthetic-model-a_samples.jsonl"


def cli_score(path: Path, env: dict[str, str]) -> dict:
    out = subprocess.run(
        [*mathreel_command(), "score", "--json", str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout)


def open_score_tab(page) -> None:
    open_tab(page, "score", "#score-upload")


def upload(page, *paths: Path) -> None:
    page.set_input_files("#score-upload input[type=file]", [str(p) for p in paths])


def test_page_loads_offline_with_the_first_question(page):
    first = load_dataset("videomathqa", "mcq").questions[0]
    wait_for_text(page, "#browse-question", first.question_id)
    assert page.title() == "MathReel"
    assert page.locator("#browse-table [data-testid='cell-0-0']").inner_text().strip() == first.question_id
    page.wait_for_selector("#browse-frames img")
    assert page.outside_requests == []


def test_plotly_loads_after_the_first_view_before_any_chart_is_asked_for(page):
    from mathreel.webapp.preload import plotly_chunk

    chunk = plotly_chunk()
    assert chunk is not None  # this Gradio has the chunk the page preloads
    page.wait_for_selector("#browse-frames img")
    assert page.locator(".js-plotly-plot").count() == 0  # no chart has been drawn on the Browse tab
    page.wait_for_function(
        "name => performance.getEntriesByType('resource').some(e => e.name.endsWith(name))", arg=chunk, timeout=30_000
    )
    page.click("#tab-judge-button")
    page.wait_for_selector("#judge-score-chart .main-svg", timeout=30_000)
    loads = page.evaluate(
        "name => performance.getEntriesByType('resource').filter(e => e.name.endsWith(name)).length", chunk
    )
    assert loads == 1  # the chart used the module the page had already loaded


def test_choosing_a_question_shows_its_video_frames_and_subtitle_lines(page, server_env, monkeypatch):
    monkeypatch.setenv("MATHREEL_CACHE", server_env["MATHREEL_CACHE"])
    data = load_dataset("videomathqa", "mcq")
    row, question = next((i, q) for i, q in enumerate(data.questions) if i > 0 and data.subtitle_path(q) is not None)
    view = build_view(data, question, num_frames=8)
    wait_for_text(page, "#browse-question", data.questions[0].question_id)
    page.click(f"#browse-table [data-testid='cell-{row}-0']")
    wait_for_text(page, "#browse-question", question.question_id)
    page.wait_for_function(
        "name => { const v = document.querySelector('#browse-video video'); return v && v.src.endsWith(name); }",
        arg=view.video_path.name,
        timeout=30_000,
    )
    assert page.eval_on_selector("#browse-video video", "v => v.querySelectorAll('track').length") == 1
    page.wait_for_function("() => document.querySelectorAll('#browse-frames .thumbnail-item img').length >= 8")
    captions = page.locator("#browse-frames .caption-label").all_inner_texts()
    assert len(captions) == len(view.frames) == 8
    for caption, index, cues in zip(captions, view.frames.indices, view.frame_cues, strict=True):
        assert caption.startswith(f"frame {index} ·")
        for cue in cues:
            assert cue.text in caption
    assert any(cues for cues in view.frame_cues)  # the demo question really has aligned lines
    subtitle_rows = page.locator("#browse-subtitles [data-testid^='cell-'][data-testid$='-2']").all_inner_texts()
    assert [t.strip() for t in subtitle_rows] == [c.text for c in view.cues]

    # Frames are cacheable for good (their path names the video, N and size); the video is not.
    frame_url = page.eval_on_selector("#browse-frames .thumbnail-item img", "i => i.src")
    assert page.request.get(frame_url).headers["cache-control"] == "private, max-age=86400, immutable"
    video_url = page.eval_on_selector("#browse-video video", "v => v.src")
    assert "cache-control" not in page.request.get(video_url, headers={"Range": "bytes=0-99"}).headers

    # Clicking a frame moves the player to that frame's time.
    page.click("#browse-frames .thumbnail-item >> nth=5")
    page.wait_for_function(
        "t => Math.abs(document.querySelector('#browse-video video').currentTime - t) < 0.05",
        arg=float(view.frames.times[5]),
        timeout=15_000,
    )
    assert page.outside_requests == []


@pytest.mark.parametrize(
    "name",
    [
        "videomathqa_mcq_synthetic-model-a_samples.jsonl",
        "videomathqa_mbin_synthetic-model-b_samples.jsonl",
        "videomme_synthetic-model-a_results.json",
        "mathverse_synthetic-model-b_output.json",
    ],
)
def test_uploaded_result_shows_the_same_accuracy_as_the_cli(page, server_env, name):
    expected = cli_score(RESULTS / name, server_env)["overall"]
    open_score_tab(page)
    assert "Upload a result file to see scores" in page.inner_text("#score-headline")
    upload(page, RESULTS / name)
    wait_for_text(page, "#score-headline", f"{expected['accuracy']:.1f}%")
    headline = page.inner_text("#score-headline")
    ci = expected["text"].split(" ", 1)[1]  # the CLI's own digits, e.g. "[19.8, 64.3]" (rounded once, half-up)
    assert f"95% CI {ci}" in headline
    assert f"n = {expected['n']}" in headline
    assert page.is_hidden("#score-error")
    page.wait_for_selector("#score-chart-0 .js-plotly-plot")


def test_malformed_file_shows_an_error_and_the_app_keeps_working(page, tmp_path):
    bad = tmp_path / "broken_results.jsonl"
    bad.write_text('{"question_id": "q001", "response": "A"\n{"question_id": ', encoding="utf-8")
    open_score_tab(page)
    upload(page, bad)
    wait_for_text(page, "#score-error", "broken_results.jsonl")
    assert "Traceback" not in page.inner_text("#score-error")
    assert "Upload a result file to see scores" in page.inner_text("#score-headline")
    # The same session still works: a good file scores.
    page.click("#score-upload button[aria-label='Clear']")
    page.wait_for_selector("#score-error", state="hidden")
    upload(page, MCQ_RUN)
    wait_for_text(page, "#score-headline", "accuracy")
    assert page.is_hidden("#score-error")


def test_a_scored_question_opens_in_browse_with_its_response(page, server_env):
    open_score_tab(page)
    upload(page, MCQ_RUN)
    wait_for_text(page, "#score-headline", "accuracy")
    page.wait_for_selector("#score-questions [data-testid='cell-0-0']")
    qid = page.inner_text("#score-questions [data-testid='cell-0-0']").strip()
    page.click("#score-questions [data-testid='cell-0-0']")
    wait_for_text(page, "#browse-question", qid)
    wait_for_text(page, "#browse-response", "Model response")
    assert page.is_visible("#browse-video video")
    # The table lists the run's questions now (not the server's beside them), and choosing another question in
    # it keeps reading the same run: its response to that question shows.
    wait_for_text(page, "#browse-table", f"Questions of run {MCQ_RUN.name}")
    other_row, other = next((i, r) for i, r in enumerate(scored(MCQ_RUN).rows) if r.question_id != qid)
    assert page.inner_text(f"#browse-table [data-testid='cell-{other_row}-0']").strip() == other.question_id
    page.click(f"#browse-table [data-testid='cell-{other_row}-0']")
    wait_for_text(page, "#browse-question", other.question_id)
    wait_for_text(page, "#browse-response", MCQ_RUN.name)
    page.wait_for_function("() => document.querySelectorAll('#browse-frames .thumbnail-item img').length >= 8")
    assert page.is_visible("#browse-video video")


def test_choosing_a_run_of_another_benchmark_in_browse_goes_to_it(page):
    """Browse shows VideoMathQA; choosing a Video-MME run in the reading bar moves to Video-MME, lists the run's
    questions and shows its answer (it used to stay on VideoMathQA with a note to switch by hand)."""
    run = RESULTS / "videomme_synthetic-model-a_results.json"
    open_score_tab(page)
    upload(page, run)
    wait_for_text(page, "#score-headline", "accuracy")
    page.click("#tab-browse-button")
    page.click("#browse-run input")
    page.get_by_role("option", name=run.name, exact=True).click()
    wait_for_text(page, "#browse-table", f"Questions of run {run.name}")
    wait_for_text(page, "#browse-question", "Video-MME")
    wait_for_text(page, "#browse-response", run.name)
    assert page.input_value("#browse-benchmark input").startswith("Video-MME")


def test_one_users_upload_is_invisible_to_another(page, browser, server):
    open_score_tab(page)
    upload(page, MCQ_RUN)
    wait_for_text(page, "#score-headline", MCQ_RUN.name)
    other = browser.new_context().new_page()
    try:
        other.goto(server)
        open_score_tab(other)
        assert "Upload a result file to see scores" in other.inner_text("#score-headline")
        assert MCQ_RUN.name not in other.inner_text("body")
    finally:
        other.context.close()
