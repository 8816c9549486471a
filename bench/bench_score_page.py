"""Score tab in Chromium: upload -> headline and upload -> all charts, beside Gradio's own upload floor of the same
file in the same run.

The floor is a one-component Gradio app (a `gr.File` whose change event writes the uploaded names into a textbox):
what any Gradio page pays to take the same file and answer one queued event. Both are timed in the page, from
just before Playwright sets the file on the input to the first animation frame where the result is on screen
(MathReel: the headline naming the file; all charts: every bar chart and the heatmap drawn). Each repeat opens a
fresh browser context (a new visitor: nothing kept, nothing cached in the page), floor and app alternating, so a
load spike on the shared machine falls on both.

    PYTHONPATH=. .venv/bin/python bench/bench_score_page.py [--repeats 5] [--port 7911] FILE ...

Files default to the real ones listed in /work/realfiles/MANIFEST.md when present, and the 12-answer demo file.
With `--server-only`, times the Score tab's handlers in this process instead (what each costs on the server).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
REAL = Path("/work/realfiles")
DEMO_FILE = ROOT / "assets" / "demo" / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"

# Every visible chart of the Score tab drawn (bar charts and the heatmap), and as many as expected.
ALL_CHARTS = """(expected) => {
  const plots = [...document.querySelectorAll('[id^=score-chart-], #score-heatmap')]
    .filter(p => p.offsetParent !== null);
  const done = plots.length >= expected && plots.every(p => p.querySelector('.main-svg'));
  if (done && window.__charts === undefined) window.__charts = performance.now();
  return done;
}"""
HEADLINE = """(name) => {
  const h = document.querySelector('#score-headline');
  const done = !!h && h.innerText.includes(name) && h.innerText.includes('accuracy');
  if (done && window.__headline === undefined) window.__headline = performance.now();
  return done;
}"""
FLOOR_DONE = """(name) => {
  const t = document.querySelector('#floor-out textarea');
  const done = !!t && t.value.includes(name);
  if (done && window.__floor === undefined) window.__floor = performance.now();
  return done;
}"""


def default_files() -> list[Path]:
    real = sorted(p for p in REAL.glob("*") if p.is_file() and p.suffix in (".json", ".jsonl"))
    return [*real, DEMO_FILE]


def expected_charts(path: Path) -> int:
    """How many charts the Score tab draws for `path` alone: one per dimension (at most 4), and the heatmap."""
    from mathreel.core.scoring.files import ScoreRequest, score_file

    summary = score_file(ScoreRequest(str(path))).to_dict()
    return min(4, len(summary["by"])) + (1 if summary.get("cross") else 0)


def floor_app(port: int) -> Any:
    import gradio as gr

    with gr.Blocks(analytics_enabled=False) as app:
        files = gr.File(file_count="multiple", elem_id="floor-upload")
        out = gr.Textbox(elem_id="floor-out")
        files.change(lambda paths: " ".join(Path(p).name for p in paths or []), files, out, show_progress="hidden")
    app.queue()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, ssr_mode=False, quiet=True)
    return app


def timed_upload(
    browser: Any, url: str, path: Path, ready: str, done: list[tuple[str, str, Any]], tab: str | None = None
) -> list[float]:
    """In a fresh context: open `url` (and `tab`), set `path` on the upload input under `ready`, and return the
    in-page seconds until each `done` check (name, JS predicate, its argument) first holds."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        page.goto(url)
        if tab:
            page.wait_for_selector("#browse-frames img")
            # a visitor reads the first question before uploading: the page has imported Plotly's chunk by then
            page.wait_for_function(
                "() => performance.getEntriesByType('resource').some(e => e.name.includes('PlotlyPlot'))"
            )
            page.click(f"#tab-{tab}-button")
        page.wait_for_selector(f"{ready} input[type=file]", state="attached")
        page.wait_for_timeout(800)  # let the page's load events settle
        start = page.evaluate("() => performance.now()")
        page.set_input_files(f"{ready} input[type=file]", [str(path)])
        times = []
        for stamp, predicate, arg in done:
            page.wait_for_function(predicate, arg=arg, polling="raf")
            times.append((page.evaluate(f"() => window.{stamp}") - start) / 1000)
        return times
    finally:
        context.close()


def serve(port: int, tmp: Path) -> subprocess.Popen:
    from helpers.appserver import mathreel_command, wait_until_answering

    env = dict(
        os.environ,
        MATHREEL_CACHE=str(tmp / "cache"),
        GRADIO_TEMP_DIR=str(tmp / "gradio"),
        GRADIO_ANALYTICS_ENABLED="False",
    )
    env.pop("MATHREEL_DATA", None)
    log = tmp / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*mathreel_command(), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    wait_until_answering(f"http://127.0.0.1:{port}/", process, log)
    return process


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.0f} ms  [{', '.join(f'{v * 1000:.0f}' for v in values)}]"


def bench_browser(files: list[Path], repeats: int, port: int) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    print(f"load at start: {uptime()}")
    tmp = Path(tempfile.mkdtemp(prefix="mathreel-bench-score-"))
    server = serve(port, tmp)
    floor = floor_app(port + 1)
    results: dict[str, dict[str, list[float]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            charts = {path: expected_charts(path) for path in files}
            # one warm-up of each (the server's first scoring imports plotly, Chromium caches Plotly's chunk)
            for path in files:
                timed_upload(
                    browser,
                    f"http://127.0.0.1:{port}/",
                    path,
                    "#score-upload",
                    [("__headline", HEADLINE, path.name)],
                    tab="score",
                )
            for _ in range(repeats):
                for path in files:
                    got = results.setdefault(path.name, {"floor": [], "headline": [], "charts": []})
                    got["floor"] += timed_upload(
                        browser,
                        f"http://127.0.0.1:{port + 1}/",
                        path,
                        "#floor-upload",
                        [("__floor", FLOOR_DONE, path.name)],
                    )
                    headline, all_charts = timed_upload(
                        browser,
                        f"http://127.0.0.1:{port}/",
                        path,
                        "#score-upload",
                        [("__headline", HEADLINE, path.name), ("__charts", ALL_CHARTS, charts[path])],
                        tab="score",
                    )
                    got["headline"].append(headline)
                    got["charts"].append(all_charts)
            browser.close()
    finally:
        floor.close()
        server.terminate()
        server.wait(timeout=20)
    print(f"load at end:   {uptime()}")
    for name, got in results.items():
        size = next(p for p in files if p.name == name).stat().st_size
        floor_ms = statistics.median(got["floor"])
        print(f"\n{name} ({size / 1e6:.2f} MB)")
        print(f"  Gradio upload floor          {ms(got['floor'])}")
        print(
            f"  upload -> headline           {ms(got['headline'])}  "
            f"({statistics.median(got['headline']) / floor_ms:.1f}x floor, "
            f"+{(statistics.median(got['headline']) - floor_ms) * 1000:.0f} ms)"
        )
        print(
            f"  upload -> all charts         {ms(got['charts'])}  "
            f"({statistics.median(got['charts']) / floor_ms:.1f}x floor)"
        )


def bench_server(files: list[Path], repeats: int) -> None:
    """The Score tab's handlers on each file, in this process, after one warm-up (seconds, median)."""
    from mathreel.webapp import isolate
    from mathreel.webapp.score import ScoreHandlers
    from mathreel.webapp.settings import Settings

    isolate.warm_up()
    handlers = ScoreHandlers(Settings())
    print(f"load: {uptime()}")
    for path in files:
        stages: dict[str, list[float]] = {}
        for attempt in range(repeats + 1):
            marks = [("start", time.perf_counter(), time.thread_time())]
            runs = handlers.rescore([str(path)], "", "robust", "", False)[0]
            marks.append(("score + headline (rescore)", time.perf_counter(), time.thread_time()))
            handlers.render_overview(runs, runs[0].name)
            marks.append(("all charts (render_overview)", time.perf_counter(), time.thread_time()))
            handlers.render_detail(runs, runs[0].name, "all")
            marks.append(("question table, downloads", time.perf_counter(), time.thread_time()))
            if attempt:
                for (_, before, cpu_before), (label, after, cpu_after) in itertools.pairwise(marks):
                    stages.setdefault(label, []).append(after - before)
                    stages.setdefault(f"  {label.split(' (')[0]}: CPU", []).append(cpu_after - cpu_before)
        print(f"\n{path.name}")
        for label, values in stages.items():
            print(f"  {label:<32} {ms(values)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--port", type=int, default=7911, help="the app's port; the floor app uses the next one")
    parser.add_argument("--server-only", action="store_true")
    args = parser.parse_args()
    files = args.files or default_files()
    if args.server_only:
        bench_server(files, args.repeats)
    else:
        bench_browser(files, args.repeats, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
