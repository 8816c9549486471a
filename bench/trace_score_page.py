"""Where one Score-tab upload's time goes: the server's events (each handler's wall and CPU time, and the bytes of
what it sends), and the page's (Plotly's draws, long tasks), on one timeline from the moment the file is set.

The server is `mathreel serve` started through this script's `--serve` mode, which wraps Gradio's `process_api`
(every event, and every step of a generator) to log one JSON line per call; the page is Chromium with Plotly's
`react` and `Plots.resize` wrapped and a long-task observer. One fresh browser context per upload (a new visitor).

    PYTHONPATH=. .venv/bin/python bench/trace_score_page.py [--port 7921] [--repeats 2] FILE ...
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

PAGE_PROBES = """
window.__trace = [];
const mark = (what, start, end) => window.__trace.push({what, start, end});
new PerformanceObserver(list => list.getEntries().forEach(e => mark('longtask', e.startTime, e.startTime + e.duration)))
  .observe({type: 'longtask', buffered: true});
try {
  new PerformanceObserver(list => list.getEntries().forEach(e => {
    const scripts = (e.scripts || []).filter(s => s.duration >= 20).map(s => `${s.invoker || ''} `
      + `${s.sourceFunctionName || ''}@${(s.sourceURL || '').split('/').pop()} ${Math.round(s.duration)}ms`);
    mark(`frame: ${scripts.join(' | ')}`, e.startTime, e.startTime + e.duration);
  })).observe({type: 'long-animation-frame', buffered: true});
} catch (e) {}
let plotly;
Object.defineProperty(window, 'Plotly', {
  configurable: true,
  get() { return plotly; },
  set(value) {
    plotly = value;
    for (const [name, owner, key] of [['react', value, 'react'], ['resize', value.Plots, 'resize']]) {
      const original = owner[key].bind(owner);
      owner[key] = function (div, ...rest) {
        const start = performance.now();
        const out = original(div, ...rest);
        const id = (div && div.closest && div.closest('[id]') || {}).id || '';
        mark(`${name} ${id}`, start, performance.now());
        if (out && out.then) out.then(() => mark(`${name} ${id} (settled)`, start, performance.now()));
        return out;
      };
    }
  },
});
"""


def serve_traced(port: int, log: str) -> None:
    """`mathreel serve` with every process_api call logged to `log` (JSON lines, wall times in epoch seconds)."""
    import threading

    from gradio.blocks import Blocks

    original = Blocks.process_api
    lock = threading.Lock()

    async def traced(self: Any, block_fn: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fn = block_fn if not isinstance(block_fn, int) else self.fns[block_fn]
        name = getattr(fn, "name", None) or getattr(getattr(fn, "fn", None), "__name__", "?")
        start, cpu = time.time(), time.process_time()
        result = await original(self, block_fn, inputs, *args, **kwargs)
        end, cpu_end = time.time(), time.process_time()
        size = len(json.dumps(result.get("data"), default=str)) if isinstance(result, dict) else 0
        with lock, open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps({"fn": name, "start": start, "end": end, "cpu": cpu_end - cpu, "bytes": size}) + "\n")
        return result

    Blocks.process_api = traced
    from mathreel.cli import main

    sys.argv = ["mathreel", "serve", "--host", "127.0.0.1", "--port", str(port)]
    main()


def trace_one(browser: Any, url: str, path: Path, log: Path, charts: int) -> list[tuple[float, float, str]]:
    from bench_score_page import ALL_CHARTS, HEADLINE

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(PAGE_PROBES)
        page.set_default_timeout(180_000)
        page.goto(url)
        page.wait_for_selector("#browse-frames img")
        page.wait_for_function("() => !!window.Plotly")
        page.click("#tab-score-button")
        page.wait_for_selector("#score-upload input[type=file]", state="attached")
        page.wait_for_timeout(1500)
        log.write_text("")
        origin = page.evaluate("() => [Date.now(), performance.now(), window.__trace.length = 0]")
        page.set_input_files("#score-upload input[type=file]", [str(path)])
        page.wait_for_function(HEADLINE, arg=path.name, polling="raf")
        page.wait_for_function(ALL_CHARTS, arg=charts, polling="raf")
        page.wait_for_timeout(3000)  # the events that follow the charts
        epoch, start = origin[0] / 1000, origin[1]
        marks = [(0.0, 0.0, "file set")]
        marks.append(((page.evaluate("() => window.__headline") - start) / 1000,) * 2 + ("HEADLINE shown",))
        marks.append(((page.evaluate("() => window.__charts") - start) / 1000,) * 2 + ("ALL CHARTS drawn",))
        for item in page.evaluate("() => window.__trace"):
            marks.append(((item["start"] - start) / 1000, (item["end"] - start) / 1000, "page: " + item["what"]))
        for line in log.read_text().splitlines():
            event = json.loads(line)
            marks.append(
                (
                    event["start"] - epoch,
                    event["end"] - epoch,
                    f"server: {event['fn']} (cpu {event['cpu'] * 1000:.0f} ms, {event['bytes'] / 1000:.1f} kB)",
                )
            )
        return sorted(marks)
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--port", type=int, default=7921)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # internal: the traced server, logging to this file
    args = parser.parse_args()
    if args.serve:
        serve_traced(args.port, args.serve)
        return 0
    from bench_score_page import default_files, expected_charts
    from helpers.appserver import wait_until_answering
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests" / "browser"))  # after bench_score_page's own insert: the browser tests'
    from conftest import CHROMIUM, CHROMIUM_ARGS

    files = args.files or default_files()
    tmp = Path(tempfile.mkdtemp(prefix="mathreel-trace-score-"))
    log = tmp / "events.jsonl"
    env = dict(os.environ, MATHREEL_CACHE=str(tmp / "cache"), GRADIO_TEMP_DIR=str(tmp / "gradio"))
    env.pop("MATHREEL_DATA", None)
    with (tmp / "serve.log").open("w") as out:
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(log), "--port", str(args.port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_answering(f"http://127.0.0.1:{args.port}/", server, tmp / "serve.log")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for path in files:
                charts = expected_charts(path)
                for attempt in range(args.repeats + 1):
                    marks = trace_one(browser, f"http://127.0.0.1:{args.port}/", path, log, charts)
                    if not attempt:
                        continue  # the warm-up: the server's first scoring imports what it needs
                    print(f"\n{path.name} (repeat {attempt}, load {os.getloadavg()[0]:.1f})")
                    for start, end, what in marks:
                        if (end - start >= 0.005 or "page" not in what) and "longtask" not in what:
                            print(f"  {start * 1000:7.0f} - {end * 1000:7.0f} ms  {what}")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
