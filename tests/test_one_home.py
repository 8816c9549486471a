"""Each decision has one home the rest reads: the default frame count (`core.defaults.DEFAULT_FRAMES`, beside each
benchmark's own `default_frames`), the extractors a benchmark offers (`core.benchmarks.extractor_names`), and the
facts a benchmark declares and the web app shows (`browse_fields`, `full_question`, `has_versions`)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.benchmarks import BENCHMARKS, extractor_names
from mathreel.core.data import load_dataset
from mathreel.core.scoring.files import ScoreRequest
from mathreel.core.view import DEFAULT_FRAMES, ViewSettings
from mathreel.webapp.ask_run import AskOptions
from mathreel.webapp.benchmark_keys import extractor_choices
from mathreel.webapp.browse_page import question_markdown, render_question
from mathreel.webapp.browse_table import question_table
from mathreel.webapp.score import ScoreHandlers
from mathreel.webapp.scored_runs import ScoreOptions
from mathreel.webapp.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
# A frame count written as a number where a default is set: `default_frames = 8`, `num_frames: int = 16`, ...
FRAME_DEFAULT = re.compile(r"\b(default_frames|num_frames)\s*(:\s*[\w |]+)?=\s*\d+")


def test_the_default_frame_count_is_written_once():
    written = []
    for folder in ("core", "cli", "webapp"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if FRAME_DEFAULT.search(line.split("#")[0]):
                    written.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    # each benchmark's reference setting is its own fact (the base class's, and the one benchmark that differs)
    assert written == [
        "core/benchmarks/base.py: default_frames: int = 16",
        "core/benchmarks/videomme_v2.py: default_frames = 64  # the official script's --nframe",
    ]
    assert (Settings().default_frames, ScoreOptions().default_frames, AskOptions().num_frames) == (DEFAULT_FRAMES,) * 3
    assert ScoreRequest("results.json").default_frames == DEFAULT_FRAMES


def test_the_frame_check_finds_a_default_written_as_a_number():
    assert FRAME_DEFAULT.search("    default_frames: int = 8")
    assert FRAME_DEFAULT.search("def f(num_frames=16):")
    assert not FRAME_DEFAULT.search("    default_frames: int = DEFAULT_FRAMES")


def test_no_two_classes_named_run_settings():
    homes = [
        path.relative_to(ROOT)
        for folder in ("core", "cli", "webapp")
        for path in (ROOT / folder).rglob("*.py")
        if any(
            isinstance(node, ast.ClassDef) and node.name == "RunSettings"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert homes == [Path("core/client/run.py")]


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_the_score_tab_offers_a_benchmarks_own_extractors(name):
    bench = BENCHMARKS[name]
    key = f"{name}:{bench.modes[0].key}"
    assert extractor_choices(key) == ["robust", *bench.reproductions] == list(extractor_names(name))
    others = [e for e in extractor_names() if e not in bench.reproductions and e != "robust"]
    assert others, "every benchmark lacks some other benchmark's reproduction"
    update = ScoreHandlers.extractors(key, others[0])
    assert update["choices"] == extractor_choices(key)
    assert update["value"] == "robust"  # an extractor the benchmark does not offer falls back
    kept = ScoreHandlers.extractors(key, extractor_choices(key)[-1])
    assert kept["value"] == extractor_choices(key)[-1]


def test_detecting_the_benchmark_offers_every_extractor():
    assert extractor_choices("") == list(extractor_names())


def test_browse_lists_the_benchmarks_browse_fields(monkeypatch):
    dataset = load_dataset("mathverse")
    question = dataset.questions[0]
    bench = dataset.bench
    assert bench.browse_fields == ("problem_index",) and question.extra.get("problem_index")
    shown = render_question(dataset, dataset.ref(question), ViewSettings()).metadata
    assert f"| Problem index | {question.extra['problem_index']} |" in shown
    monkeypatch.setattr(bench, "browse_fields", ())
    assert "Problem index" not in render_question(dataset, dataset.ref(question), ViewSettings()).metadata


def test_browse_shows_the_full_question_and_versions_as_the_benchmark_says(monkeypatch):
    dataset = load_dataset("mathverse")
    bench = dataset.bench
    empty = next(q for q in dataset.questions if not q.question)  # Vision Only: the text is in the diagram
    assert bench.full_question(empty) and bench.full_question(empty) in question_markdown(empty, bench)
    table = question_table(dataset)
    row = table[table["ID"] == dataset.ref(empty)].iloc[0]
    assert row["Question"].startswith(bench.full_question(empty).replace("\n", " ")[:40])
    with_versions = next(q for q in dataset.questions if bench.has_versions(q))
    assert render_question(dataset, dataset.ref(with_versions), ViewSettings()).versions
    monkeypatch.setattr(bench, "has_versions", lambda question: False)
    assert render_question(dataset, dataset.ref(with_versions), ViewSettings()).versions is None


def test_the_formats_read_are_named_once_for_the_cli_and_the_score_tab():
    """`mathreel --help` and the Score tab's intro name the same result-file layouts (the tab's left out the
    Video-MME-v2 TSV and VLMEvalKit files it reads)."""
    import gradio as gr

    from mathreel.core.defaults import RESULT_FORMATS
    from mathreel.webapp.app import build_app

    app = build_app(Settings())
    intro = [b.value for b in app.blocks.values() if isinstance(b, gr.Markdown) and "Upload one or" in str(b.value)]
    help_text = subprocess.run(
        [sys.executable, "-m", "mathreel", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "400"},  # one line each: argparse wraps at hyphens too
    ).stdout
    assert "Video-MME-v2 TSV" in RESULT_FORMATS and "VLMEvalKit" in RESULT_FORMATS
    assert " ".join(RESULT_FORMATS.split()) in " ".join(help_text.split())
    assert len(intro) == 1 and f"({RESULT_FORMATS};" in intro[0]
