"""The Score tab's evidence bundle, without a browser: the session's runs (uploads, as Gradio hands them over, under
a temporary folder) zipped as one bundle per benchmark and mode, named as the page names them, with no server path
in any file; no runs is one clear line."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from mathreel.core.errors import InputError
from mathreel.webapp.bundle_zip import build_zip
from mathreel.webapp.downloads import Downloads
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads
from mathreel.webapp.settings import Settings

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
FILES = (
    "videomathqa_mcq_synthetic-model-a_samples.jsonl",
    "videomathqa_mcq_synthetic-model-b_samples.jsonl",
    "videomme_synthetic-model-a_results.json",
)


def test_the_sessions_runs_zip_into_one_bundle_per_benchmark(tmp_path):
    uploads = tmp_path / "gradio-upload-0123abcd"
    uploads.mkdir()
    paths = []
    for name in FILES:
        shutil.copy(DEMO / name, uploads / name)
        paths.append(str(uploads / name))
    runs, errors = score_uploads(paths, ScoreOptions())
    assert not errors and len(runs) == 3
    seen = []
    downloads = Downloads(3600)
    path, note = build_zip(runs, Settings(), downloads, lambda done, total: seen.append((done, total)))
    assert path.name == "mathreel-evidence.zip" and "videomathqa:mcq: 2 runs" in note and "videomme:mcq: 1 run" in note
    assert seen and seen[-1][0] == seen[-1][1]  # the progress bar reaches its end
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        assert "mathreel-evidence/videomathqa-mcq/index.html" in names
        assert "mathreel-evidence/videomme-mcq/index.html" in names
        assert any(name.startswith("mathreel-evidence/videomathqa-mcq/frames/") for name in names)
        index = archive.read("mathreel-evidence/videomathqa-mcq/index.html").decode()
        assert FILES[0] in index and FILES[1] in index
        for name in names:
            text = archive.read(name).decode("latin-1")
            assert str(tmp_path) not in text and "gradio-upload-0123abcd" not in text, name
            assert str(downloads.root) not in text, name


def test_no_runs_is_one_line():
    with pytest.raises(InputError, match="score a result file first"):
        build_zip([], Settings(), Downloads(3600))


def _demo_runs(tmp_path):
    uploads = tmp_path / "gradio-upload-4567cdef"
    uploads.mkdir()
    for name in FILES[:1]:
        shutil.copy(DEMO / name, uploads / name)
    runs, errors = score_uploads([str(uploads / FILES[0])], ScoreOptions())
    assert not errors and len(runs) == 1
    return runs


def test_the_bundle_is_built_in_a_child_process_not_in_the_server(monkeypatch, tmp_path):
    """Reading, scoring and rendering every run again costs seconds to minutes of CPU: never in a server thread."""
    import os

    import mathreel.webapp.isolate as isolate

    calls = []
    real = isolate.run_isolated

    def spy(fn, args, budget, source):
        calls.append((fn.__module__, budget, source))
        return real(fn, args, budget, source)

    monkeypatch.setattr(isolate, "run_isolated", spy)
    pid = os.getpid()
    path, note = build_zip(_demo_runs(tmp_path), Settings(bundle_seconds=300), Downloads(3600))
    assert [(module, source) for module, _, source in calls] == [("mathreel.core.bundle.zipped", "the bundle")]
    budget = calls[0][1]
    assert (budget.seconds, budget.memory_mb) == (300, Settings().score_memory_mb)
    assert os.getpid() == pid and "videomathqa:mcq: 1 run" in note
    with zipfile.ZipFile(path) as archive:
        assert "mathreel-evidence/videomathqa-mcq/index.html" in archive.namelist()


def test_a_bundle_over_its_budget_is_one_line_naming_the_limit(tmp_path):
    with pytest.raises(InputError) as raised:
        build_zip(_demo_runs(tmp_path), Settings(score_memory_mb=64), Downloads(3600))
    message = str(raised.value)
    assert message.startswith("the bundle: building the bundle needed more than 64 MB"), message
    assert "MATHREEL_SCORE_MEMORY_MB" in message and "`mathreel bundle`" in message
    assert "Traceback" not in message


def test_a_bundle_past_its_time_is_one_line_naming_the_setting(tmp_path):
    with pytest.raises(InputError) as raised:
        build_zip(_demo_runs(tmp_path), Settings(bundle_seconds=0.01), Downloads(3600))
    message = str(raised.value)
    assert message.startswith("the bundle: building the bundle stopped after 0.01 s"), message
    assert "the server's limit per bundle (MATHREEL_BUNDLE_SECONDS)" in message
