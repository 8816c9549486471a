"""In the page, the Score tab counts a judge's readings and people's reviews as `mathreel score --judge J --reviews R`
does for the same files, says which reading counts, and shows the rule reading beside the judge's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pages import open_tab, wait_for_text

from mathreel.core.data import demo_dir

DEMO = demo_dir()
RUN_B = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGED_B = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS_B = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def cli(*args: str) -> dict:
    done = subprocess.run([str(MATHREEL), "score", "--json", *args], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def headline_of(summary: dict) -> str:
    o = summary["overall"]
    return f"{o['accuracy']:.1f}% accuracy"


def test_the_page_scores_run_b_as_the_cli_with_its_judgments_and_reviews(page):
    judged = cli(str(RUN_B), "--judge", str(JUDGED_B), "--reviews", str(REVIEWS_B))
    plain = cli(str(RUN_B))
    assert headline_of(judged) != headline_of(plain)
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(RUN_B)])
    wait_for_text(page, "#score-headline", headline_of(plain))
    page.set_input_files("#score-judgments input[type=file]", [str(JUDGED_B)])
    page.set_input_files("#score-reviews input[type=file]", [str(REVIEWS_B)])
    wait_for_text(page, "#score-headline", headline_of(judged))
    headline = page.inner_text("#score-headline")
    o = judged["overall"]
    assert f"n = {o['n']} ({o['correct']} correct)" in headline
    assert f"unparsed {judged['unparsed']}" in headline
    assert "Reading counted: the judge's" in headline
    assert JUDGED_B.name in headline and str(DEMO) not in headline
    # the table follows the charts (it waits for them to be drawn): wait for its judged form
    wait_for_text(page, "#score-questions", "Rule reading (not counted)")


def test_the_demo_judgments_are_one_click_away(page):
    judged = cli(str(RUN_B), "--judge", str(JUDGED_B), "--reviews", str(REVIEWS_B))
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(RUN_B)])
    wait_for_text(page, "#score-headline", "accuracy")
    page.click("#score-demo-judging")
    wait_for_text(page, "#score-headline", headline_of(judged))
    assert "Reading counted: the judge's" in page.inner_text("#score-headline")
