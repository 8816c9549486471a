"""Web-app speed: question switching (cold and cached frames) and scoring + charting a 2,700-answer Video-MME file.

Server-side figures time the same functions the Gradio handlers call (webapp.browse.render_question, and the
Score tab's scoring, tables, charts and downloads). `--browser` also measures one end-to-end switch in Chromium
against `mathreel serve` on a free loopback port.

    .venv/bin/python bench/bench_app.py [--repeats 5] [--browser]
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
from collections.abc import Callable
from pathlib import Path


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float]) -> None:
    print(f"{label:<58} median {statistics.median(times) * 1000:8.1f} ms   max {max(times) * 1000:8.1f} ms"
          f"   (n={len(times)})")


def bench_switching(repeats: int) -> None:
    """Each demo video question once with an empty frame cache (cold), then again with it filled (cached)."""
    from core.data import load_dataset
    from webapp.browse import ViewOptions, render_question

    for benchmark, mode in (("videomathqa", "mcq"), ("videomme", "mcq")):
        data = load_dataset(benchmark, mode)
        refs = [data.ref(q) for q in data.questions]
        eight, many = ViewOptions(num_frames=8), ViewOptions(num_frames=32)
        report(f"switch question, cold frame cache ({benchmark} {mode}, 8 frames)",
               [once(render_question, data, r, eight) for r in refs])
        report(f"switch question, cached ({benchmark} {mode}, 8 frames)",
               [once(render_question, data, r, eight) for r in refs for _ in range(repeats)])
        report(f"switch question, cold, 32 frames ({benchmark} {mode})",
               [once(render_question, data, r, many) for r in refs[:4]])


def once(fn: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def videomme_results(path: Path, answers: int, seed: int = 0) -> Path:
    """A plain JSONL Video-MME result file: `answers` questions over answers/3 videos, random responses."""
    from core.benchmarks.videomme import DOMAINS, DURATIONS, SUB_CATEGORIES, TASK_TYPES

    rng = random.Random(seed)
    letters = "ABCD"
    with path.open("w", encoding="utf-8") as out:
        for i in range(answers):
            video = i // 3
            gold = rng.choice(letters)
            response = rng.choice([gold, gold, rng.choice(letters), f"The answer is {gold}.", "I am not sure."])
            record = {
                "question_id": f"{video:03d}-{i % 3 + 1}", "videoID": f"vid{video:04d}",
                "duration": DURATIONS[video % 3], "domain": DOMAINS[video % len(DOMAINS)],
                "sub_category": SUB_CATEGORIES[video % len(SUB_CATEGORIES)],
                "task_type": TASK_TYPES[i % len(TASK_TYPES)], "question": f"Question {i}?",
                "options": [f"{letter}. option {letter}" for letter in letters], "answer": gold,
                "response": response,
            }
            out.write(json.dumps(record) + "\n")
    return path


def bench_scoring(repeats: int, answers: int) -> None:
    """What the Score tab does after an upload: score, summary, breakdown, every chart, heatmap, table, downloads."""
    from webapp import charts
    from webapp.score import (
        Downloads,
        ScoreOptions,
        breakdown_table,
        headline_markdown,
        question_table,
        score_uploads,
        summary_table,
    )

    folder = Path(tempfile.mkdtemp(prefix="mathreel-bench-"))
    path = videomme_results(folder / "videomme_2700.jsonl", answers)
    downloads = Downloads(3600)

    def score_only() -> None:
        runs, errors = score_uploads([str(path)], ScoreOptions())
        assert not errors and runs[0].summary["overall"]["n"] == answers

    def everything() -> None:
        runs, _ = score_uploads([str(path)], ScoreOptions())
        run = runs[0]
        headline_markdown(runs), summary_table(runs), breakdown_table(runs)
        for dim in run.summary["by"]:
            charts.accuracy_bars([(run.name, run.summary)], dim, dim).to_json()
        charts.cross_heatmap(run.summary, "duration x task_type", "heatmap").to_json()
        question_table(run, "all")
        downloads.write(run)

    report(f"score {answers}-answer Video-MME file (core only)", timed(score_only, repeats))
    report("score + tables + 5 charts + question table + downloads", timed(everything, repeats))


def bench_browser() -> None:
    """One end-to-end question switch in Chromium: click a row until its 8 frames are shown (cold, then cached)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
    import subprocess

    from conftest import CHROMIUM, CHROMIUM_ARGS, free_port, mathreel_command, wait_until_answering
    from playwright.sync_api import sync_playwright

    from core.data import load_dataset

    data = load_dataset("videomathqa", "mcq")
    tmp = Path(tempfile.mkdtemp(prefix="mathreel-bench-serve-"))
    env = dict(os.environ, MATHREEL_CACHE=str(tmp / "cache"), GRADIO_TEMP_DIR=str(tmp / "gradio"))
    port = free_port()
    log = tmp / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen([*mathreel_command(), "serve", "--port", str(port)], env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_until_answering(url, server, log)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.wait_for_selector("#browse-frames img")
            for label, rows in (("cold", (3, 4)), ("cached", (3, 4))):
                for row in rows:
                    qid = data.questions[row].question_id
                    start = time.perf_counter()
                    page.click(f"#browse-table [data-testid='cell-{row}-0']")
                    page.wait_for_function(
                        "qid => document.querySelector('#browse-question').innerText.includes(qid) && "
                        "[...document.querySelectorAll('#browse-frames img')].filter(i => i.complete && "
                        "i.naturalWidth > 0).length >= 8", arg=qid, timeout=30_000)
                    first_frame = time.perf_counter() - start
                    report(f"browser: click row -> 8 frames shown ({label}, {qid})", [first_frame])
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=15)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--answers", type=int, default=2700)
    parser.add_argument("--browser", action="store_true", help="also time one end-to-end switch in Chromium")
    args = parser.parse_args()
    os.environ["MATHREEL_CACHE"] = tempfile.mkdtemp(prefix="mathreel-bench-cache-")  # cold means cold
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    print(f"frame cache: {os.environ['MATHREEL_CACHE']}")
    bench_switching(args.repeats)
    bench_scoring(args.repeats, args.answers)
    if args.browser:
        bench_browser()
    return 0


if __name__ == "__main__":
    sys.exit(main())
