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
