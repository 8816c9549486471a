"""Rough edges, each seen in a real browser: preview frames always answer, errors speak the page's words, no server
path in the page or a download, charts that can be read (a long axis sorted, one row per value; a note apart from the
legend), the Score tab at 400 px, Judge's "Open in Browse" on the judged response, and a second review file uploaded
without clearing the box. Expected values come from core on the same files."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from pages import open_tab, wait_for_text

from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.judge import read_judgments
from mathreel.core.judge.views import by_question
from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.webapp.benchmark_keys import benchmark_choices

pytestmark = pytest.mark.browser

RESULTS = demo_dir() / "results"
RUN_A = RESULTS / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
RUN_B = RESULTS / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGED_B = "videomathqa_mcq_synthetic-model-b (synthetic demo)"
MCQ_LABEL = dict((key, label) for label, key in benchmark_choices())["videomathqa:mcq"]


def upload(page, *paths: Path) -> None:
    page.set_input_files("#score-upload input[type=file]", [str(p) for p in paths])


def chart_titled(page, title: str) -> str:
    """The selector of the Score chart whose title starts with `title`."""
    page.wait_for_function(
        "t => [...document.querySelectorAll('[id^=score-chart-] .js-plotly-plot')]"
        ".some(g => g.layout.title.text.startsWith(t))",
        arg=title,
    )
    index = page.evaluate(
        "t => [...document.querySelectorAll('[id^=score-chart-]')].findIndex(c => "
        "c.querySelector('.js-plotly-plot')?.layout.title.text.startsWith(t))",
        title,
    )
    return f"#score-chart-{index}"


# -- preview frames --------------------------------------------------------------------------------------------


def test_every_preview_frame_the_page_is_given_answers(page, server_env):
    """Cold switches (frame cache emptied before each): every image the gallery shows, previews included, loads;
    and each preview is still there once the exact frames have replaced it."""
    frames = Path(server_env["MATHREEL_CACHE"]) / "frames"
    answers: dict[str, int] = {}
    page.on("response", lambda r: answers.__setitem__(r.url, r.status) if "/frames/" in r.url else None)
    page.wait_for_selector("#browse-frames img")
    page.evaluate("""() => { window.__shown = new Set(); new MutationObserver(() => {
        document.querySelectorAll('#browse-frames img').forEach(i => window.__shown.add(i.src)); })
        .observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['src']}); }""")
    data = load_dataset("videomathqa", "mcq")
    for row in range(1, len(data.questions)):
        for entry in frames.iterdir():
            if entry.is_dir() and entry.name != ".previews":  # the exact frames' entries: each switch is cold
                shutil.rmtree(entry, ignore_errors=True)
        page.click(f"#browse-table [data-testid='cell-{row}-0']")
        wait_for_text(page, "#browse-question", data.questions[row].question_id)
        page.wait_for_function("() => [...document.querySelectorAll('#browse-frames img')].every(i => i.complete)")
    page.wait_for_timeout(1000)
    shown = page.evaluate("() => [...window.__shown]")
    previews = [url for url in shown if "/.previews/" in url]
    assert previews, "no cold switch showed a preview"
    failed = {url: status for url, status in answers.items() if status != 200}
    assert failed == {}
    for url in previews:  # still answering after the page moved on to the exact frames
        assert page.request.get(url).status == 200


# -- the page's words -------------------------------------------------------------------------------------------


def test_an_error_names_the_pages_control_and_no_flag(page, tmp_path):
    ids = tmp_path / "ids_only.jsonl"
    ids.write_text('{"question_id": "q001", "response": "C"}\n', encoding="utf-8")
    open_tab(page, "score", "#score-upload")
    page.click("#score-join input")
    upload(page, ids)
    wait_for_text(page, "#score-error", "ids_only.jsonl")
    message = page.inner_text("#score-error")
    assert "“Benchmark and mode” dropdown" in message and "--" not in message
    # the fix it names works: the benchmark chosen, the file scores
    page.click("#score-benchmark input")
    page.get_by_role("option", name=MCQ_LABEL, exact=True).click()
    wait_for_text(page, "#score-headline", "ids_only.jsonl")
    page.wait_for_selector("#score-error", state="hidden")


def server_paths(server_env: dict[str, str]) -> list[str]:
    """The server's folders a page or a download must not name."""
    folders = [
        demo_dir(),
        Path(server_env["MATHREEL_CACHE"]),
        Path(server_env["GRADIO_TEMP_DIR"]),
        Path(tempfile.gettempdir()) / "mathreel-downloads",
    ]
    return sorted({str(p) for folder in folders for p in (folder, folder.resolve())} - {"/tmp"})


def test_no_server_path_in_the_page_or_the_downloads(page, server_env, tmp_path):
    ids = tmp_path / "ids_only.jsonl"
    ids.write_text(
        '{"question_id": "q001", "response": "C"}\n{"question_id": "q002", "response": "B"}\n', encoding="utf-8"
    )
    open_tab(page, "score", "#score-upload")
    page.click("#score-benchmark input")
    page.get_by_role("option", name=MCQ_LABEL, exact=True).click()
    page.click("#score-join input")
    upload(page, ids)
    wait_for_text(page, "#score-headline", "joined on question_id from the server's dataset")
    page.wait_for_selector("#score-questions [data-testid='cell-0-0']")
    # the page's text, and its HTML apart from the file URLs Gradio serves (/gradio_api/file=<path>)
    html = re.sub(r"""(?:https?://[^\s"'<>]*)?/gradio_api/file=[^\s"'<>)]*""", "<file URL>", page.content())
    texts = {"page": page.inner_text("body"), "html": html}
    for button in ("#score-download-json", "#score-download-csv"):
        with page.expect_download() as info:
            page.click(button)
        target = tmp_path / info.value.suggested_filename
        info.value.save_as(target)
        texts[button] = target.read_text(encoding="utf-8")
    assert json.loads(texts["#score-download-json"])["source"] == "ids_only.jsonl"
    found = {where: [p for p in server_paths(server_env) if p in text] for where, text in texts.items()}
    assert found == {where: [] for where in texts}


# -- charts ----------------------------------------------------------------------------------------------------


def videomme_file(path: Path) -> Path:
    """A Video-MME result file over all 30 sub-categories, accuracy differing between them."""
    from mathreel.core.benchmarks.videomme import DOMAINS, DURATIONS, SUB_CATEGORIES, TASK_TYPES

    lines = []
    for video, sub in enumerate(SUB_CATEGORIES):
        for k in range(3):
            gold = "ABCD"[(video + k) % 4]
            right = k < video % 4  # 0 to 3 of 3 right, by sub-category
            lines.append(
                json.dumps(
                    {
                        "question_id": f"{video:03d}-{k + 1}",
                        "videoID": f"vid{video:03d}",
                        "duration": DURATIONS[video % 3],
                        "domain": DOMAINS[video % len(DOMAINS)],
                        "sub_category": sub,
                        "task_type": TASK_TYPES[k],
                        "question": f"Question {video}-{k}?",
                        "options": [f"{x}. option {x}" for x in "ABCD"],
                        "answer": gold,
                        "response": gold if right else "ABCD"[(video + k + 1) % 4],
                    }
                )
            )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_long_category_axis_is_sorted_and_every_label_readable(page, tmp_path):
    path = videomme_file(tmp_path / "videomme_30_subcategories.jsonl")
    cells = score(read_results(path)).to_dict()["by"]["sub_category"]
    open_tab(page, "score", "#score-upload")
    upload(page, path)
    chart = chart_titled(page, "Accuracy by sub-category")
    figure = page.eval_on_selector(
        f"{chart} .js-plotly-plot", "g => [g.data[0].orientation, g.layout.yaxis.categoryarray]"
    )
    assert figure[0] == "h"
    assert [cells[v]["accuracy"] for v in figure[1]] == sorted(c["accuracy"] for c in cells.values())
    boxes = page.eval_on_selector_all(
        f"{chart} .ytick text",
        "ts => ts.map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.top, r.bottom]; })",
    )
    assert sorted(label for label, _, _ in boxes) == sorted(cells)
    ordered = sorted(boxes, key=lambda box: box[1])
    assert all(upper[2] <= lower[1] + 0.5 for upper, lower in itertools.pairwise(ordered))  # no overlap


def test_a_charts_note_is_apart_from_its_legend(page):
    open_tab(page, "score", "#score-upload")
    upload(page, RUN_A, RUN_B)  # run B's file records no difficulty
    chart = chart_titled(page, "Accuracy by difficulty")
    boxes = page.eval_on_selector(
        chart,
        """c => {
        const note = [...c.querySelectorAll('text')].find(t => t.textContent.startsWith('Not shown'));
        const legend = c.querySelector('.legend'); const svg = c.querySelector('.main-svg');
        const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        return {note: r(note), legend: r(legend), svg: r(svg)}; }""",
    )
    note, legend, svg = boxes["note"], boxes["legend"], boxes["svg"]
    assert note[3] <= legend[1] or legend[3] <= note[1]  # one above the other, never over it
    assert note[0] >= svg[0] and note[2] <= svg[2]  # the whole note inside the chart


def test_a_breakdown_row_clicked_lists_its_questions(page):
    """Clicking a value in the breakdown table filters the per-question table to it (the click did nothing)."""
    report = score(read_results(RUN_A))
    dim, cells = next(iter(report.by.items()))
    value = next(iter(cells))
    wanted = sorted(r.question_id for r in report.rows if r.dims.get(dim) == value)
    open_tab(page, "score", "#score-upload")
    upload(page, RUN_A)
    wait_for_text(page, "#score-headline", "accuracy")
    page.wait_for_selector("#score-questions [data-testid='cell-0-0']")  # the run's views drawn (they reset filters)
    cell = page.locator("#score-breakdown [data-testid^='cell-'][data-testid$='-1']", has_text=value).first
    cell.click()
    page.wait_for_function("v => document.querySelector('#score-dim-filter input').value.endsWith(': ' + v)", arg=value)
    page.wait_for_function(
        "n => document.querySelectorAll(\"#score-questions [data-testid$='-0'][data-testid^='cell-']\").length === n",
        arg=len(wanted),
    )
    ids = page.eval_on_selector_all(
        "#score-questions [data-testid^='cell-'][data-testid$='-0']", "els => els.map(e => e.innerText.trim())"
    )
    assert sorted(ids) == wanted


# -- the Score tab at 400 px -----------------------------------------------------------------------------------


def test_the_score_tab_at_400_px(page):
    open_tab(page, "score", "#score-demo")
    page.click("#score-demo")
    page.wait_for_selector("#score-chart-1 .main-svg")
    page.set_viewport_size({"width": 400, "height": 800})
    page.wait_for_timeout(800)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 400
    first, second = (page.locator(f"#score-chart-{i}").bounding_box() for i in range(2))
    assert first["width"] <= 400 and second["width"] <= 400
    assert first["y"] + first["height"] <= second["y"] + 1  # one chart across, the next below it
    for chart in ("#score-chart-0", "#score-chart-1"):  # the chart draws at the width it has
        assert page.eval_on_selector(f"{chart} .main-svg", "s => s.getBoundingClientRect().width") <= 400
    # the runs table scrolls sideways; its headers and run names keep to one line each
    assert page.eval_on_selector(
        "#score-summary",
        "t => [...t.querySelectorAll('*')].some(e => "
        "e.scrollWidth > e.clientWidth + 20 && getComputedStyle(e).overflowX === 'auto')",
    )
    heights = page.eval_on_selector_all(
        "#score-summary [role=columnheader] .header",
        "hs => hs.map(h => [h.textContent.trim(), h.getBoundingClientRect().height])",
    )
    line = min(height for _, height in heights)
    assert [name for name, height in heights if height >= 1.6 * line] == []
    name = page.locator("#score-summary [data-testid='cell-0-0'] span[title]")
    assert name.get_attribute("title") == "videomathqa_mcq_synthetic-model-a_samples.jsonl"
    assert len(name.inner_text()) <= 24  # shortened; the full name on hover


# -- Judge -----------------------------------------------------------------------------------------------------


def test_open_in_browse_from_judge_shows_the_judged_response(page):
    cards = by_question(read_judgments(demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"))
    card = cards[1]
    open_tab(page, "judge", "#judge-questions [data-testid='cell-0-0']")
    page.click("#judge-run input")
    page.get_by_role("option", name=JUDGED_B, exact=True).click()
    wait_for_text(page, "#judge-question .judge-run-name", JUDGED_B)
    page.click("#judge-questions [data-testid='cell-1-0']")
    wait_for_text(page, "#judge-question", card.question_id)
    page.click("#judge-open-browse")
    wait_for_text(page, "#browse-question", card.question_id)
    wait_for_text(page, "#browse-response", "(as judged)")  # no run of this visitor holds it: as the judge saw it
    # with the demo runs loaded, the same button walks the run that holds the judged response
    page.click("#tab-score-button")
    page.click("#score-demo")
    wait_for_text(page, "#score-headline", RUN_B.name)
    page.click("#tab-judge-button")
    page.click("#judge-open-browse")
    wait_for_text(page, "#browse-question", card.question_id)
    wait_for_text(page, "#browse-response", f"Model response · {RUN_B.name}")
    wait_for_text(page, "#browse-judge-card-box", "Matched steps")  # the judge card beside it


def test_a_second_review_file_needs_no_clearing(page, tmp_path):
    from mathreel.core.review import read_reviews, write_reviews

    reviews = read_reviews(demo_dir() / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl")
    mine = [r for r in reviews if r.reviewer == reviews[0].reviewer]
    first = write_reviews(tmp_path / "first.jsonl", mine[:2])
    second = write_reviews(tmp_path / "second.jsonl", mine[2:5])
    open_tab(page, "judge", "#judge-questions [data-testid='cell-0-0']")
    page.click("#judge-run input")
    page.get_by_role("option", name=JUDGED_B, exact=True).click()
    wait_for_text(page, "#judge-question .judge-run-name", JUDGED_B)
    page.fill("#review-reviewer textarea, #review-reviewer input", mine[0].reviewer)
    page.click("#review-help")  # the name is taken when the field is left
    page.set_input_files("#review-upload input[type=file]", str(first))
    wait_for_text(page, "#review-progress", "Reviewed 2 of")
    page.wait_for_function("() => !document.querySelector('#review-upload td.filename')")  # the box is empty again
    page.set_input_files("#review-upload input[type=file]", str(second))
    wait_for_text(page, "#review-progress", "Reviewed 5 of")
