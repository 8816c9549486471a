"""A command line that names its command imports that command's module alone (start time), and parses and answers
as with every command registered; without a command, or with an unknown one, every command is listed."""

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
print(json.dumps({"code": code, "loaded": loaded, "out": out.getvalue()}))
"""


def probe(*argv: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(run.stdout.splitlines()[-1])


def test_score_imports_the_score_command_alone_and_scores():
    found = probe("score", DEMO, "--json")
    assert found["code"] == 0
    assert found["loaded"] == ["mathreel.cli.score"]
    assert json.loads(found["out"])["answers"] > 0


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
