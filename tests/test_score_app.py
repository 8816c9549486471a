"""The Score tab shows what `mathreel score` prints for the same file: the headline figure, its interval, the
standard error with what a cluster is, and the extractor (a reproduction with its commit), digit for digit."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.webapp.html import plain
from mathreel.webapp.score import headline_markdown, summary_table
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
MATHREEL = Path(sys.executable).with_name("mathreel")
CASES = [
    ("videomme_synthetic-model-a_results.json", "official"),
    ("videomme_synthetic-model-b_results.json", "lmms-regex"),
    ("videomathqa_mcq_synthetic-model-a_samples.jsonl", "robust"),
    ("videomathqa_mbin_synthetic-model-b_samples.jsonl", "official"),
    ("mathverse_synthetic-model-a_output.json", "robust"),
]
HEADLINE = re.compile(r"(\d+) of (\d+) .* correct = ([\d.]+%)  95% CI (\[[\d., -]+\])")
SE = re.compile(r"SE \S+ pts naive, (\S+ pts) clustered by (.+) \((\d+) clusters\)")


def _cli_text(path: Path, extractor: str) -> str:
    done = subprocess.run(
        [str(MATHREEL), "score", str(path), "--extractor", extractor], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("name", "extractor"), CASES)
def test_score_tab_headline_prints_the_clis_digits(name, extractor):
    text = _cli_text(DEMO / name, extractor)
    correct, n, accuracy, interval = HEADLINE.search(text).groups()
    se, clustered_by, clusters = SE.search(text).groups()
    used = re.search(r"^  extractor: (.+)$", text, re.M).group(1)

    runs, errors = score_uploads([str(DEMO / name)], ScoreOptions(extractor=extractor))
    assert errors == []
    shown = headline_markdown(runs)
    assert f"**{accuracy}** accuracy, 95% CI {interval}, n = {n} ({correct} correct)" in shown
    assert f"clustered SE {se}, clustered by {clustered_by} ({clusters} clusters)" in shown
    assert f"Extractor: {plain(used)}._" in shown  # Markdown-escaped as every name on the page
    row = summary_table(runs).iloc[0]
    assert (row["Accuracy"], row["95% CI"], row["Clustered SE"], row["Extractor"]) == (accuracy, interval, se, used)


def test_a_reproduction_is_named_with_its_commit_on_the_page():
    runs, _ = score_uploads([str(DEMO / CASES[0][0])], ScoreOptions(extractor="official"))
    assert re.search(r"Extractor: official: .*@[0-9a-f]{12}\)", headline_markdown(runs))
