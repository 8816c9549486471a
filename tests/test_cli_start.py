"""A command line that names its command imports that command's module alone (start time), and parses and answers
as with every command registered; without a command, or with an unknown one, every command is listed. Scoring a
choice file leaves the modules it does not use unimported (free-form reading, prompts, joins, run settings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = "assets/demo/results/videomathqa_mcq_synthetic-model-a_samples.jsonl"
PROBE = """
import contextlib, io, json, sys
from mathreel.cli import COMMANDS, main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
loaded = sorted(name for name in COMMANDS.values() if name in sys.modules)
print(json.dumps({"code": code, "loaded": loaded, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""
TEMPLATE = "assets/demo/results/videomme_synthetic-model-a_results.json"  # the Video-MME result template
# Not needed to score a choice file from the command line: each was imported by `score` before it was made lazy.
UNUSED_BY_SCORE = (
    "mathreel.core.view",  # prompts and frames (the default frame count is in core.defaults)
    "mathreel.core.message",  # a prompt's turn
    "mathreel.core.results.run_settings",  # the app's prompt settings: neither output of `score` shows them
    "mathreel.core.extract.equivalence",  # free-form answers (core.extract's names load on first use)
    "mathreel.core.extract.free",
    "mathreel.core.results.question_join",  # files joined to annotations
    "mathreel.core.results.question_key",
    "mathreel.core.scoring.readings",  # --readings
    "mathreel.core.scoring.json_types",  # the report's TypedDicts: for the type checker and the schema generator
    "csv",  # CSV result files
    "fractions",  # numbers in option texts, the exact McNemar test
    # The standard library's costlier modules (bench/README.md, "the score process's start"): the dataclasses of the
    # score path are plain classes (core.plain), and each of the rest is imported where it is used.
    "dataclasses",  # compiled every generated method of nine classes at import (~75 M instructions)
    "inspect",  # and `ast`, `dis`, `tokenize`: dataclasses imported it; Python-literal options import `ast`
    "ast",
    "decimal",  # figures are rounded as text (core.scoring.numbers)
    "contextvars",  # math-verify's file budget: free-form answers only
    "threading",  # one lock (core.results.bulk)
)


def probe(*argv: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(run.stdout.splitlines()[-1])


def test_score_imports_the_score_command_alone_and_scores():
    found = probe("score", DEMO, "--json")
    assert found["code"] == 0
    assert found["loaded"] == ["mathreel.cli.score"]
    assert json.loads(found["out"])["answers"] > 0


def test_scoring_a_choice_file_leaves_unused_modules_unimported():
    found = probe("score", TEMPLATE, "--json")
    report = json.loads(found["out"])
    assert found["code"] == 0 and report["answers"] > 0
    assert "mathreel.core.extract.choice" in found["modules"]  # the probe sees what scoring imports
    assert [name for name in UNUSED_BY_SCORE if name in found["modules"]] == []
    # the layout names the benchmark (no vote), and the note still lists the dimensions its values match
    assert (
        "benchmark: videomme (field values match its taxonomy: duration, domain, sub_category, task_type)"
        in (report["detected"])
    )


def test_scoring_through_core_still_detects_run_settings():
    """The app's call (`score_file`, run settings wanted) imports what the command line skips: the guard above
    would see these modules if `score` imported them."""
    code = (
        "import sys; from mathreel.core.scoring.files import ScoreRequest, score_file; "
        f"report = score_file(ScoreRequest({TEMPLATE!r})); "
        "print(report.run_settings is not None, 'mathreel.core.results.run_settings' in sys.modules, "
        "'mathreel.core.view' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["True", "True", "True"]


def test_help_lists_every_command():
    run = subprocess.run(
        [sys.executable, "-m", "mathreel", "--help"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    for command in ("serve", "run", "score", "explain", "audit", "judge", "data", "show", "agreement", "bundle"):
        assert f"    {command} " in run.stdout


def test_an_unknown_command_names_every_command():
    run = subprocess.run([sys.executable, "-m", "mathreel", "nosuch"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2
    assert "invalid choice: 'nosuch'" in run.stderr and "'bundle'" in run.stderr and "'serve'" in run.stderr
