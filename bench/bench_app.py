"""Web-app speed: question switching (cold and cached frames) and scoring + charting a 2,700-answer Video-MME file.

Server-side figures time the same functions the Gradio handlers call (webapp.browse_page.render_question, and the
Score tab's scoring, tables, charts and downloads). `--browser` also measures end-to-end switches in Chromium
against `mathreel serve` on a free loopback port (median of `--switches` cold and cached), and Gradio's floor: a
trivial queued event in a one-button app. `--browser` also times the progressive gallery on a cold switch to a
10-minute 1280x720 video (bench/bench_frames.py's, generated once in --video-cache): first frames on screen
(the nearest keyframes) and all exact frames, beside decord's get_batch on the same frames in the same run; and the
review key `a` in the Judge tab beside the same key in Browse's review box (`--review-only` for these alone).

    .venv/bin/python bench/bench_app.py [--repeats 5] [--browser | --browser-only] [--switches 7]
        [--progressive-runs 3] [--progressive-only] [--video-cache DIR] [--review-only] [--presses 7]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float]) -> None:
    print(
        f"{label:<58} median {statistics.median(times) * 1000:8.1f} ms   max {max(times) * 1000:8.1f} ms"
        f"   (n={len(times)})"
    )


def bench_switching(repeats: int) -> None:
    """Each demo video question once with an empty frame cache (cold), then again with it filled (cached)."""
    from mathreel.core.data import load_dataset
    from mathreel.core.view import ViewSettings
    from mathreel.webapp.browse_page import render_question

    for benchmark, mode in (("videomathqa", "mcq"), ("videomme", "mcq")):
        data = load_dataset(benchmark, mode)
        refs = [data.ref(q) for q in data.questions]
        eight, many = ViewSettings(num_frames=8), ViewSettings(num_frames=32)
        report(
            f"switch question, cold frame cache ({benchmark} {mode}, 8 frames)",
            [once(render_question, data, r, eight) for r in refs],
        )
        report(
            f"switch question, cached ({benchmark} {mode}, 8 frames)",
            [once(render_question, data, r, eight) for r in refs for _ in range(repeats)],
        )
        report(
            f"switch question, cold, 32 frames ({benchmark} {mode})",
            [once(render_question, data, r, many) for r in refs[:4]],
        )


def once(fn: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def videomme_results(path: Path, answers: int, seed: int = 0) -> Path:
    """A plain JSONL Video-MME result file: `answers` questions over answers/3 videos, random responses."""
    from mathreel.core.benchmarks.videomme import DOMAINS, DURATIONS, SUB_CATEGORIES, TASK_TYPES

    rng = random.Random(seed)
    letters = "ABCD"
    with path.open("w", encoding="utf-8") as out:
        for i in range(answers):
            video = i // 3
            gold = rng.choice(letters)
            response = rng.choice([gold, gold, rng.choice(letters), f"The answer is {gold}.", "I am not sure."])
            record = {
                "question_id": f"{video:03d}-{i % 3 + 1}",
                "videoID": f"vid{video:04d}",
                "duration": DURATIONS[video % 3],
                "domain": DOMAINS[video % len(DOMAINS)],
                "sub_category": SUB_CATEGORIES[video % len(SUB_CATEGORIES)],
                "task_type": TASK_TYPES[i % len(TASK_TYPES)],
                "question": f"Question {i}?",
                "options": [f"{letter}. option {letter}" for letter in letters],
                "answer": gold,
                "response": response,
            }
            out.write(json.dumps(record) + "\n")
    return path


def bench_scoring(repeats: int, answers: int) -> None:
    """What the Score tab does after an upload: score, summary, breakdown, every chart, heatmap, table, downloads."""
    from mathreel.webapp import charts
    from mathreel.webapp.downloads import Downloads
    from mathreel.webapp.score import breakdown_table, headline_markdown, question_table, summary_table
    from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

    folder = Path(tempfile.mkdtemp(prefix="mathreel-bench-"))
    path = videomme_results(folder / "videomme_2700.jsonl", answers)
    downloads = Downloads(3600)

    def score_only() -> None:
        runs, errors = score_uploads([str(path)], ScoreOptions())
        assert not errors and runs[0].report.overall.n == answers

    def everything() -> None:
        runs, _ = score_uploads([str(path)], ScoreOptions())
        run = runs[0]
        headline_markdown(runs), summary_table(runs), breakdown_table(runs)
        for dim in run.report.by:
            charts.accuracy_bars([(run.name, run.report.by)], dim, dim).to_json()
        charts.cross_heatmap(run.report.cross.get("duration x task_type", {}), "heatmap").to_json()
        question_table(run, "all")
        downloads.write(run)

    report(f"score {answers}-answer Video-MME file (core only)", timed(score_only, repeats))
    report("score + tables + 5 charts + question table + downloads", timed(everything, repeats))


# A switch counts as shown when the question header names the new question and the gallery holds 8 loaded images,
# none of them from the previous question (frames of different videos have different cache paths). The predicate
# stamps performance.now() the first animation frame it holds, so the in-page time runs from the pointerdown
# Playwright dispatches to the frame the user first sees all eight new frames.
SHOWN = """([qid, before]) => {
    const header = document.querySelector('#browse-question');
    const imgs = [...document.querySelectorAll('#browse-frames img')];
    const done = header && header.innerText.includes(qid) && imgs.length >= 8
        && imgs.every(i => i.complete && i.naturalWidth > 0 && !before.includes(i.src));
    if (done && window.__shown === undefined) window.__shown = performance.now();
    return done;
}"""
STAMP_POINTERDOWN = (
    "document.addEventListener('pointerdown', () => { if (window.__down === undefined) "
    "window.__down = performance.now(); }, true);"
)


def bench_browser(switches: int) -> None:
    """End-to-end question switches in Chromium: click a table row until its 8 frames are shown.

    Cold: `switches` questions whose videos were never sampled; cached: the same questions again. Reports the
    in-page time (pointerdown to all 8 new frames painted) and the wall time around Playwright's click, plus
    Gradio's floor on this machine: a trivial queued event (button -> textbox) in a one-component app.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
    import subprocess

    from conftest import free_port, mathreel_command, wait_until_answering

    from mathreel.core.data import load_dataset

    data = load_dataset("videomathqa", "mcq")
    rows = distinct_video_rows(data, switches)
    tmp = Path(tempfile.mkdtemp(prefix="mathreel-bench-serve-"))
    env = dict(os.environ, MATHREEL_CACHE=str(tmp / "cache"), GRADIO_TEMP_DIR=str(tmp / "gradio"))
    port = free_port()
    log = tmp / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [*mathreel_command(), "serve", "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_until_answering(url, server, log)
        with browse_page(url) as page:
            for label in ("cold", "cached"):
                in_page, wall = [], []
                for row in rows:
                    page_ms, wall_ms = switch_once(page, row, data.questions[row].question_id)
                    in_page.append(page_ms)
                    wall.append(wall_ms)
                report(f"browser: click row -> 8 frames shown ({label}, in page)", in_page)
                report(f"browser: same, around Playwright's click ({label})", wall)
            bench_reading_flow(page, tmp, switches)
        report("browser: trivial queued Gradio event (floor, in page)", trivial_event_floor(switches))
    finally:
        server.terminate()
        server.wait(timeout=15)


@contextmanager
def browse_page(url: str) -> Iterator[Any]:  # yields a playwright Page
    """Chromium on the app's Browse tab, first question's frames shown and its follow-up events settled."""
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.add_init_script(STAMP_POINTERDOWN)
            page.goto(url)
            page.wait_for_selector("#browse-frames img")
            page.wait_for_timeout(1000)
            yield page
        finally:
            browser.close()


STEPPED = """([before, srcs]) => {
    const pos = document.querySelector('#browse-position');
    const imgs = [...document.querySelectorAll('#browse-frames img')];
    const done = pos && pos.innerText !== before && imgs.length > 0
        && imgs.every(i => i.complete && i.naturalWidth > 0) && imgs.some(i => !srcs.includes(i.src));
    if (done && window.__shown === undefined) window.__shown = performance.now();
    return done;
}"""
CHARTS_DRAWN = """() => { const plots = [...document.querySelectorAll('[id^=score-chart-]')]
    .filter(p => p.offsetParent !== null);
  return plots.length > 0 && plots.every(p => p.querySelector('.main-svg')); }"""


def in_page_since(page: object, start: float) -> float:
    """Seconds of page time since `start` (a performance.now() value read in the page)."""
    return (page.evaluate("() => performance.now()") - start) / 1000


def bench_reading_flow(page: object, tmp: Path, switches: int, answers: int = 2700) -> None:
    """The reading flow in the page: Judge tab first open, next/previous through a drilled-down list (the first
    pass samples frames, the way back is cached), then a 2,700-answer upload (headline, all charts) in a fresh
    session."""
    from mathreel.core.data import demo_dir

    start = page.evaluate("() => performance.now()")
    page.click("#tab-judge-button")
    page.wait_for_selector("#judge-questions [data-testid='cell-0-0']", timeout=60_000)
    page.wait_for_selector("#judge-score-chart .main-svg", timeout=60_000)
    report("browser: Judge tab first open -> table and chart shown (in page)", [in_page_since(page, start)])
    page.click("#tab-score-button")
    page.set_input_files(
        "#score-upload input[type=file]",
        [str(demo_dir() / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl")],
    )
    page.wait_for_selector("#score-questions [data-testid='cell-0-0']", timeout=60_000)
    page.click("#score-questions [data-testid='cell-0-0']")
    page.wait_for_function("() => document.querySelector('#browse-position')?.innerText.includes(' of ')")
    page.wait_for_timeout(1500)
    for label, button in (("next, frames sampled on the way", "#browse-next"), ("previous, cached", "#browse-prev")):
        report(
            f"browser: {label} -> position and frames painted (in page)",
            [step_once(page, button) for _ in range(switches)],
        )
    fresh = page.context.browser.new_page(viewport={"width": 1400, "height": 1000})
    fresh.goto(page.url.split("?")[0])
    fresh.wait_for_selector("#browse-frames img")
    fresh.click("#tab-score-button")
    path = videomme_results(tmp / "videomme_2700.json", answers)
    start = fresh.evaluate("() => performance.now()")
    fresh.set_input_files("#score-upload input[type=file]", [str(path)])
    fresh.wait_for_function(
        "() => document.querySelector('#score-headline').innerText.includes('accuracy')", polling="raf", timeout=120_000
    )
    headline = in_page_since(fresh, start)
    fresh.wait_for_function(CHARTS_DRAWN, polling="raf", timeout=120_000)
    report(f"browser: {answers}-answer upload -> headline (in page)", [headline])
    report(f"browser: {answers}-answer upload -> all charts drawn (in page)", [in_page_since(fresh, start)])
    fresh.close()


def step_once(page: object, button: str) -> float:
    """Click previous/next and wait until the position and the new frames are painted (in-page seconds)."""
    before = page.inner_text("#browse-position")
    srcs = page.eval_on_selector_all("#browse-frames img", "imgs => imgs.map(i => i.src)")
    page.evaluate("() => { window.__down = undefined; window.__shown = undefined; }")
    page.click(button)
    page.wait_for_function(STEPPED, arg=[before, srcs], polling="raf", timeout=30_000)
    seconds = page.evaluate("() => window.__shown - window.__down") / 1000
    page.wait_for_timeout(600)  # the rest of the page follows; then the next step
    return seconds


def distinct_video_rows(data: object, count: int) -> list[int]:
    """Table rows (after the first, which the page opens with) whose questions each have a video of their own."""
    seen = {data.questions[0].video_id}
    rows = []
    for row, question in enumerate(data.questions):
        if question.video_id and question.video_id not in seen:
            seen.add(question.video_id)
            rows.append(row)
    if len(rows) < count:
        raise SystemExit(f"the demo set has only {len(rows)} further videos; ask for fewer --switches")
    return rows[:count]


def switch_once(page: object, row: int, qid: str) -> tuple[float, float]:
    """Click `row` and wait until its frames are shown: (in-page seconds, wall seconds around the click)."""
    before = page.eval_on_selector_all("#browse-frames img", "imgs => imgs.map(i => i.src)")
    page.evaluate("() => { window.__down = undefined; window.__shown = undefined; }")
    start = time.perf_counter()
    page.click(f"#browse-table [data-testid='cell-{row}-0']")
    page.wait_for_function(SHOWN, arg=[qid, before], polling="raf", timeout=30_000)
    wall = time.perf_counter() - start
    in_page = page.evaluate("() => window.__shown - window.__down") / 1000
    page.wait_for_timeout(600)  # let follow-up events (other tabs reacting to the new question) finish
    return in_page, wall


def trivial_event_floor(repeats: int) -> list[float]:
    """Seconds from pointerdown to the DOM showing the reply of a queued no-op event, in a one-button Gradio app."""
    import gradio as gr
    from conftest import CHROMIUM, CHROMIUM_ARGS, free_port
    from playwright.sync_api import sync_playwright

    with gr.Blocks(analytics_enabled=False) as app:
        out = gr.Textbox(elem_id="floor-out")
        button = gr.Button("go", elem_id="floor-go")
        button.click(lambda: str(time.perf_counter_ns()), None, out, show_progress="hidden")
    app.queue()
    port = free_port()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, ssr_mode=False, quiet=True)
    times = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.add_init_script(STAMP_POINTERDOWN)
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("#floor-go")
            for _ in range(repeats + 1):  # the first click warms the connection up
                before = page.input_value("#floor-out textarea")
                page.evaluate("() => { window.__down = undefined; window.__shown = undefined; }")
                page.click("#floor-go")
                page.wait_for_function(
                    "v => { const done = document.querySelector('#floor-out textarea').value !== v;"
                    " if (done && window.__shown === undefined) window.__shown = performance.now(); return done; }",
                    arg=before,
                    polling="raf",
                )
                times.append(page.evaluate("() => window.__shown - window.__down") / 1000)
                page.wait_for_timeout(200)
            browser.close()
    finally:
        app.close()
    return times[1:]


# The progressive gallery: stamps when the gallery first holds N loaded images that were not there before (the
# keyframe previews), and when every image is an exact frame (preview files are named key-*.jpg).
PROGRESSIVE = """([n, before]) => {
    const imgs = [...document.querySelectorAll('#browse-frames img')];
    const fresh = imgs.length >= n && imgs.every(i => i.complete && i.naturalWidth > 0 && !before.includes(i.src));
    if (fresh && window.__first === undefined) window.__first = performance.now();
    const exact = fresh && imgs.every(i => !decodeURIComponent(i.src).split('/').pop().startsWith('key-'));
    if (exact && window.__exact === undefined) window.__exact = performance.now();
    return exact;
}"""


def long_video_root(video_cache: Path) -> tuple[Path, Path]:
    """A VideoMathQA folder: q0 on a short clip (the page opens with it), q1..q9 on the 10-minute 720p video."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_frames import repeated
    from helpers.datasets import make_videomathqa, vmqa_record

    from mathreel.core.media.writer import numbered_frame, write_h264

    video_cache.mkdir(parents=True, exist_ok=True)
    long_video = repeated(video_cache, 10)
    root = make_videomathqa(
        Path(tempfile.mkdtemp(prefix="mathreel-bench-long-")),
        [vmqa_record(f"q{i}", "short" if i == 0 else f"long{i}") for i in range(10)],
    )
    write_h264(root / "videos" / "short.mp4", (numbered_frame(i, 96, 128) for i in range(50)), 25)
    for i in range(1, 10):
        os.link(long_video, root / "videos" / f"long{i}.mp4")  # a path of its own: its own (cold) cache entry
    return root, long_video


def bench_progressive(runs: int, video_cache: Path, frames: int = 8) -> None:
    """Cold switches to a 10-minute 720p video in Chromium: first view and all exact, vs get_batch in the same run."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
    import subprocess

    from conftest import free_port, mathreel_command, wait_until_answering

    from mathreel.core.media.frames import uniform_indices
    from mathreel.core.media.readers import open_reader

    root, long_video = long_video_root(video_cache)
    tmp = Path(tempfile.mkdtemp(prefix="mathreel-bench-serve-"))
    env = dict(os.environ, MATHREEL_CACHE=str(tmp / "cache"), GRADIO_TEMP_DIR=str(tmp / "gradio"))
    port = free_port()
    log = tmp / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [*mathreel_command(), "serve", "--data", str(root), "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    first, exact, batch = [], [], []
    indices = uniform_indices(open_reader(long_video, "pyav").total, frames)
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_until_answering(url, server, log)
        with browse_page(url) as page:
            shown = page.inner_text("#browse-question")
            rows = [row for row in range(10) if f"· q{row}" not in shown and row != 0][:runs]  # q0: the short clip
            for row in rows:
                batch.append(once(get_batch_frames, long_video, indices))
                before = page.eval_on_selector_all("#browse-frames img", "imgs => imgs.map(i => i.src)")
                page.evaluate("() => { window.__down = window.__first = window.__exact = undefined; }")
                page.click(f"#browse-table [data-testid='cell-{row}-0']")
                page.wait_for_function(PROGRESSIVE, arg=[frames, before], polling="raf", timeout=300_000)
                stamps = page.evaluate("() => [window.__first - window.__down, window.__exact - window.__down]")
                first.append(stamps[0] / 1000)
                exact.append(stamps[1] / 1000)
                page.wait_for_timeout(1500)  # the rest of the page follows
    finally:
        server.terminate()
        server.wait(timeout=15)
    report(f"browser: cold switch, 10-min 720p, {frames} frames: first frames shown (in page)", first)
    report(f"browser: same, all {frames} frames exact (in page)", exact)
    report(f"decord get_batch on the same {frames} frames (same run, open included)", batch)
    print(f"get_batch / all exact (medians): {statistics.median(batch) / statistics.median(exact):.2f}x")


# The review keys: from the keydown to the progress line counting the review, and to the next question's header and
# frames painted (the frames of another video, loaded). Judge and Browse are timed in the same run on the same run
# of the demo set (synthetic-model-b, whose answers the demo judgments judged), frames sampled beforehand in both.
STAMP_KEYDOWN = (
    "document.addEventListener('keydown', () => { if (window.__down === undefined) "
    "window.__down = performance.now(); }, true);"
)
COUNTED = """([selector, want]) => { const el = document.querySelector(selector);
  const done = el && el.innerText.includes(want);
  if (done && window.__count === undefined) window.__count = performance.now(); return done; }"""
NEXT_SHOWN = """([header, frames, before, srcs]) => { const h = document.querySelector(header);
  const imgs = [...document.querySelectorAll(frames + ' img')];
  const done = h && h.innerText !== before && imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0)
    && imgs.some(i => !srcs.includes(i.src));
  if (done && window.__shown === undefined) window.__shown = performance.now(); return done; }"""


def bench_review_keys(presses: int) -> None:
    """`a` (accept the judge's verdict and go on) pressed `presses` times in the Judge tab and in Browse's review
    box, on `mathreel serve` with the demo set: in-page times to the count and to the next question shown."""
    tests = Path(__file__).resolve().parents[1] / "tests"
    sys.path[:0] = [str(tests / "browser"), str(tests)]
    from conftest import CHROMIUM, CHROMIUM_ARGS  # tests/browser's
    from helpers.appserver import serving
    from playwright.sync_api import sync_playwright

    from mathreel.core.data import demo_dir, load_dataset
    from mathreel.core.media.frames import sample_frames

    tmp = Path(tempfile.mkdtemp(prefix="mathreel-bench-review-"))
    env = dict(os.environ, MATHREEL_CACHE=str(tmp / "cache"), GRADIO_TEMP_DIR=str(tmp / "gradio"))
    os.environ["MATHREEL_CACHE"] = env["MATHREEL_CACHE"]
    data = load_dataset("videomathqa", "mcq")
    for question in data.questions:  # the frames both tabs show, sampled beforehand: no decode is timed
        sample_frames(data.find_video(question), 8)
    run_b = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
    with serving(env, tmp) as (url, _log), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for label, opener, box in (
                ("Judge tab", open_judge_review, "review"),
                ("Browse review box", open_browse_review, "browse-review"),
            ):
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.add_init_script(STAMP_KEYDOWN)
                page.goto(url)
                page.wait_for_selector("#browse-frames img")
                header, frames = opener(page, run_b)
                page.wait_for_timeout(2000)
                counted, shown = zip(
                    *(review_key_once(page, box, header, frames, done) for done in range(1, presses + 1)), strict=True
                )
                report(f"browser: {label}, key a -> review counted (in page)", list(counted))
                report(f"browser: {label}, key a -> next question and frames shown (in page)", list(shown))
                page.close()
        finally:
            browser.close()


def open_judge_review(page: Any, run_b: Path) -> tuple[str, str]:
    """The Judge tab on demo run B's judgments, nothing reviewed yet; the header and frames it shows."""
    name = run_b.name.split("_samples")[0] + " (synthetic demo)"
    page.click("#tab-judge-button")
    page.wait_for_selector("#judge-questions [data-testid='cell-0-0']", timeout=60_000)
    page.click("#judge-run input")
    page.get_by_role("option", name=name, exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('#review-progress')?.innerText.includes('Reviewed 0 of')", timeout=60_000
    )
    return "#judge-question", "#judge-frames"


def open_browse_review(page: Any, run_b: Path) -> tuple[str, str]:
    """Browse walking demo run B's judged answers not reviewed yet (the run uploaded in Score, its first row)."""
    page.click("#tab-score-button")
    page.set_input_files("#score-upload input[type=file]", [str(run_b)])
    page.wait_for_selector("#score-questions [data-testid='cell-0-0']", timeout=60_000)
    page.click("#score-questions [data-testid='cell-0-0']")
    page.wait_for_function("() => document.querySelector('#browse-position')?.innerText.includes(' of ')")
    page.click("#browse-walk input")
    page.get_by_role("option", name="Judged, not reviewed by you", exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('#browse-review-progress')?.innerText.includes('Reviewed 0 of')", timeout=60_000
    )
    return "#browse-question", "#browse-frames"


def review_key_once(page: Any, box: str, header: str, frames: str, done: int) -> tuple[float, float]:
    """Press `a` once: (seconds to "Reviewed `done` of", seconds to the next question with its frames)."""
    before = page.inner_text(header)
    srcs = page.eval_on_selector_all(f"{frames} img", "imgs => imgs.map(i => i.src)")
    page.click(f"#{box}-help")  # focus outside any text field, where the keys apply
    page.evaluate("() => { window.__down = window.__count = window.__shown = undefined; }")
    page.keyboard.press("a")
    page.wait_for_function(COUNTED, arg=[f"#{box}-progress", f"Reviewed {done} of"], polling="raf", timeout=60_000)
    page.wait_for_function(NEXT_SHOWN, arg=[header, frames, before, srcs], polling="raf", timeout=60_000)
    counted, shown = page.evaluate("() => [window.__count - window.__down, window.__shown - window.__down]")
    page.wait_for_timeout(800)  # follow-up events settle before the next key
    return counted / 1000, shown / 1000


def get_batch_frames(video: Path, indices: list[int]) -> None:
    import decord

    decord.VideoReader(str(video)).get_batch(indices).asnumpy()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--answers", type=int, default=2700)
    parser.add_argument("--browser", action="store_true", help="also time end-to-end switches in Chromium")
    parser.add_argument("--browser-only", action="store_true", help="only the Chromium figures")
    parser.add_argument("--switches", type=int, default=7, help="question switches per browser figure (>= 5)")
    parser.add_argument("--progressive-runs", type=int, default=3, help="cold switches to the 10-minute video")
    parser.add_argument("--progressive-only", action="store_true", help="only the progressive-gallery figures")
    parser.add_argument("--review-only", action="store_true", help="only the review keys (Judge tab and Browse)")
    parser.add_argument("--presses", type=int, default=7, help="review keys pressed per figure")
    parser.add_argument(
        "--video-cache",
        type=Path,
        default=Path.home() / ".cache" / "mathreel-bench",
        help="where bench_frames.py's generated videos are kept",
    )
    args = parser.parse_args()
    os.environ["MATHREEL_CACHE"] = tempfile.mkdtemp(prefix="mathreel-bench-cache-")  # cold means cold
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    print(f"frame cache: {os.environ['MATHREEL_CACHE']}")
    if args.progressive_only:
        bench_progressive(args.progressive_runs, args.video_cache)
        return 0
    if args.review_only:
        bench_review_keys(args.presses)
        return 0
    if not args.browser_only:
        bench_switching(args.repeats)
        bench_scoring(args.repeats, args.answers)
    if args.browser or args.browser_only:
        bench_browser(args.switches)
        bench_progressive(args.progressive_runs, args.video_cache)
        bench_review_keys(args.presses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
