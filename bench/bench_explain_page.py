"""The explain panel in the page: two 2,700-answer Video-MME runs uploaded in Score, then (in Chromium, page time)
the click on "Explain" against the other run until the reference table is shown and until the causes are, and
the click on a cause until Browse shows its first question and the position in the cause's list; and the server
CPU of the click's work in process (the reference table, then the comparison and its downloads).

`mathreel serve` runs on a free loopback port on the demo set; the runs are bench_app.py's generated files (ids
001-1 ... as the demo's Video-MME questions, so a cause's first question can be one Browse holds). The cause
clicked is the first whose first question the demo set has, found with core.explain beforehand; its 8 frames are
sampled beforehand (`mathreel show`, the server's cache) unless `--cold`, so the jump times the walk, not the decode.

    PYTHONPATH=. .venv/bin/python bench/bench_explain_page.py [--repeats 3] [--cold]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests" / "browser"), str(HERE.parent / "tests")]

TABLE = """() => { const r = document.querySelector('#score-explain-references [data-testid="cell-0-0"]');
  return r && r.offsetParent !== null; }"""
CAUSES = """() => { const t = document.querySelector('#score-explain-lists [data-testid="cell-0-0"]');
  return t && t.offsetParent !== null; }"""


def run_file(path: Path, answers: int, seed: int) -> Path:
    """bench_app's generated run without its first video (000), so its ids start at 001-1 as the demo's do."""
    from bench_app import videomme_results

    videomme_results(path, answers + 3, seed)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)[3:]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def cause_row(path_a: Path, path_b: Path) -> tuple[int, str, int]:
    """(row of the causes table, its first question, its length): the first list whose first question the demo
    set holds."""
    from mathreel.core.data import load_dataset
    from mathreel.core.explain.explanation import explain
    from mathreel.core.explain.runs import load_run
    from mathreel.core.explain.scorers import Scorer

    held = {q.question_id for q in load_dataset("videomme", "mcq").questions}
    found = explain([load_run(str(path_a)), load_run(str(path_b))], [Scorer()])
    lists = [step.question_ids for step in found.gap.steps if step.delta or step.changes]
    lists += [found.paired.only_a_ids, found.paired.only_b_ids]
    for row, ids in enumerate(lists):
        if ids and ids[0] in held:
            return row, ids[0], len(ids)
    raise SystemExit("no cause starts with a question of the demo set: generate the runs with other random seed values")


def server_cpu(path_a: Path, path_b: Path, repeats: int) -> list[tuple[float, float]]:
    """CPU of the click's server work in process (process_time; it does not depend on the load): the reference
    table (the first file read again), then the comparison (the second file read, the gap, the paired comparison,
    the downloads written), each from cold caches as on the first click."""
    import time

    from mathreel.webapp import score_explain as se
    from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

    runs, errors = score_uploads([str(path_a), str(path_b)], ScoreOptions())
    assert not errors, errors
    found = []
    for _ in range(repeats):
        se._READ_CACHE.clear()
        se._TABLES.clear()
        start = time.process_time()
        se.references_of(runs[0])
        table = time.process_time() - start
        start = time.process_time()
        view = se.comparison_view(se.explanation(runs, runs[0].name, se.RUN + runs[1].name))
        se.write_downloads(Path(tempfile.mkdtemp(prefix="mathreel-bench-explain-")), view.found)
        found.append((table, time.process_time() - start))
    return found


def once(url: str, path_a: Path, path_b: Path, row: int, first: str, length: int) -> tuple[float, float, float]:
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from pages import open_tab, wait_for_text
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 2400})  # the run list opens in view
            page.set_default_timeout(120_000)
            page.goto(url)
            open_tab(page, "score", "#score-upload")
            page.set_input_files("#score-upload input[type=file]", [str(path_a), str(path_b)])
            wait_for_text(page, "#score-headline", path_b.name, timeout=120_000)
            page.click("#score-explain button:has-text('Why does my number differ')")
            page.locator("#score-explain-against").scroll_into_view_if_needed()
            choose = f"Run {path_b.name}"
            for _ in range(3):  # the choices are set again when the upload's runs land: choose until it holds
                page.click("#score-explain-against input")
                page.get_by_role("option", name=choose, exact=True).click()
                page.wait_for_timeout(1000)  # settled: the page idle before the click measured
                if page.eval_on_selector("#score-explain-against input", "e => e.value") == choose:
                    break
            start = page.evaluate("() => performance.now()")
            page.click("#score-explain-go")
            page.wait_for_function(TABLE, polling="raf")
            table = (page.evaluate("() => performance.now()") - start) / 1000
            page.wait_for_function(CAUSES, polling="raf")
            causes = (page.evaluate("() => performance.now()") - start) / 1000
            page.wait_for_timeout(1000)
            start = page.evaluate("() => performance.now()")
            page.click(f"#score-explain-lists [data-testid='cell-{row}-0']")
            page.wait_for_function(
                "([q, n]) => document.querySelector('#browse-question')?.innerText.includes(q) && "
                "document.querySelector('#browse-position')?.innerText.includes('1 of ' + n)",
                arg=[first, str(length)],
                polling="raf",
            )
            jump = (page.evaluate("() => performance.now()") - start) / 1000
            return table, causes, jump
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--answers", type=int, default=2700)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="leave the question's frames unsampled (the jump then includes Browse's cold decode)",
    )
    args = parser.parse_args()
    from helpers.appserver import mathreel_command, serving

    tmp = Path(tempfile.mkdtemp(prefix="mathreel-bench-explain-page-"))
    path_a = run_file(tmp / "videomme_run_a.jsonl", args.answers, seed=0)
    path_b = run_file(tmp / "videomme_run_b.jsonl", args.answers, seed=1)
    row, first, length = cause_row(path_a, path_b)
    cpu = server_cpu(path_a, path_b, args.repeats)
    env = dict(os.environ, MATHREEL_CACHE=str(tmp / "cache"), GRADIO_TEMP_DIR=str(tmp / "gradio"))
    if not args.cold:  # the frames of the cause's first question sampled once, as after any earlier visit
        subprocess.run(
            [*mathreel_command(), "show", first, "--benchmark", "videomme", "--frames", "8"],
            env=env,
            check=True,
            capture_output=True,
            timeout=600,
        )
    with serving(env, tmp) as (url, _):
        print(
            f"load average {os.getloadavg()[0]:.1f}; {args.answers} answers a run; cause row {row} "
            f"({length} questions, first {first}, frames {'cold' if args.cold else 'cached'})"
        )
        results = [once(url, path_a, path_b, row, first, length) for _ in range(args.repeats)]
    for label, values in (
        ("click Explain -> reference table shown (in page)", [r[0] for r in results]),
        ("click Explain -> causes and paired comparison shown", [r[1] for r in results]),
        ("click a cause -> its first question in Browse (in page)", [r[2] for r in results]),
    ):
        print(
            f"{label:<58} median {statistics.median(values) * 1000:7.0f} ms   max {max(values) * 1000:7.0f} ms"
            f"   (n={len(values)})"
        )
    for label, values in (
        ("server CPU: reference table (in process)", [c[0] for c in cpu]),
        ("server CPU: comparison and downloads (in process)", [c[1] for c in cpu]),
    ):
        print(f"{label:<58} median {statistics.median(values) * 1000:7.0f} ms   (n={len(values)})")


if __name__ == "__main__":
    main()
