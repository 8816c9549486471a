"""The page speaks its own words: an error names the page's control that fixes it (never a command-line flag), and
no server path reaches the page or a download (the upload's temporary path, the dataset folder). Expected figures
come from core on the same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathreel.core.data import demo_dir
from mathreel.core.errors import InputError, MathReelError
from mathreel.webapp.downloads import Downloads
from mathreel.webapp.errors import error_message
from mathreel.webapp.html import plain
from mathreel.webapp.score import FIXES, ScoreHandlers, headline_markdown
from mathreel.webapp.server_paths import ServerPaths
from mathreel.webapp.settings import Settings

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # gr.Warning outside a request warns instead

DATA = demo_dir()


def upload(tmp_path: Path, name: str, records: list[dict]) -> Path:
    """A file where Gradio would put an upload: a random folder of the temporary directory."""
    folder = tmp_path / "gradio" / "4f1c9e0a2b"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def server_paths_in(text: str, *paths: Path) -> list[str]:
    return [str(p) for p in paths if str(p) in text or str(p.resolve()) in text]


def test_server_paths_are_named_as_the_visitor_knows_them(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    paths = ServerPaths.of(Settings(data_dir=tmp_path / "data"))
    data = (tmp_path / "data").resolve()
    assert (
        paths.scrub(f"12 questions joined on question_id from {data}")
        == "12 questions joined on question_id from the server's dataset"
    )
    assert (
        paths.scrub(f"{data}/videomme/data/001.mp4: not a readable video")
        == "the server's dataset (videomme/data/001.mp4): not a readable video"
    )
    assert paths.scrub(f"{tmp_path}/gradio/ab12/run.jsonl, record 3: truncated") == "run.jsonl, record 3: truncated"
    assert (
        paths.with_file(f"{tmp_path}/gradio/ab12/my run.jsonl", "my run.jsonl").scrub(
            f"{tmp_path}/gradio/ab12/my run.jsonl: empty"
        )
        == "my run.jsonl: empty"
    )
    assert paths.scrub("no path here, only 1/2 of a fraction") == "no path here, only 1/2 of a fraction"


def test_an_error_names_the_tabs_control_and_no_flag():
    error = InputError("ids.jsonl", "cannot tell which benchmark this file is for", fix="benchmark")
    assert error_message(error, FIXES) == (
        "ids.jsonl: cannot tell which benchmark this file is for; choose it in the “Benchmark and mode” dropdown"
    )
    assert error_message(error) == "ids.jsonl: cannot tell which benchmark this file is for"  # a tab without it
    assert error_message(MathReelError("no gold answer", fix="annotations"), FIXES).endswith(
        "tick “Take gold answers from the server's dataset”"
    )


def test_an_id_only_file_with_the_dataset_ticked_says_to_choose_the_benchmark_in_the_dropdown(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    ids = upload(tmp_path, "ids_only.jsonl", [{"question_id": "q001", "response": "C"}])
    handlers = ScoreHandlers(Settings())
    runs, box, *_ = handlers.rescore([str(ids)], "", "robust", "", True)
    message = box["value"]
    assert runs == [] and plain("ids_only.jsonl") in message
    assert "“Benchmark and mode” dropdown" in message and "--" not in message
    assert server_paths_in(message, ids, ids.parent, DATA) == []


def test_a_joined_file_names_no_server_path_in_the_page_or_its_downloads(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    ids = upload(
        tmp_path,
        "ids_only.jsonl",
        [{"question_id": "q001", "response": "C"}, {"question_id": "q002", "response": "The answer is B"}],
    )
    handlers = ScoreHandlers(Settings())
    runs, box, *_ = handlers.rescore([str(ids)], "videomathqa:mcq", "robust", "", True)
    assert box["visible"] is False and len(runs) == 1
    run = runs[0]
    headline = headline_markdown(runs)
    assert plain("joined on question_id from the server's dataset") in headline
    csv_path, json_path = Downloads(3600).write(run)
    summary = json.loads(Path(json_path).read_text(encoding="utf-8"))
    assert summary["source"] == "ids_only.jsonl"  # the file's own name, as `mathreel score --json ids_only.jsonl`
    for text in (headline, Path(json_path).read_text(encoding="utf-8"), Path(csv_path).read_text(encoding="utf-8")):
        assert server_paths_in(text, ids, ids.parent, DATA, tmp_path) == []


def test_the_judge_endpoint_error_names_the_judge_tabs_field_and_the_clis_flag(monkeypatch):
    from mathreel.cli import error_line
    from mathreel.core.judge import judge_endpoint
    from mathreel.webapp.judge import FIXES as JUDGE_FIXES

    monkeypatch.delenv("MATHREEL_JUDGE_BASE_URL", raising=False)
    with pytest.raises(InputError) as caught:
        judge_endpoint(None, "m")
    assert str(caught.value) == "judge endpoint: no base URL"  # neutral
    assert error_message(caught.value, JUDGE_FIXES).endswith("fill in “Judge base URL” under “Run the judge”")
    assert error_line(caught.value).endswith("pass --base-url or set MATHREEL_JUDGE_BASE_URL")
    with pytest.raises(InputError) as caught:
        judge_endpoint("http://127.0.0.1:9/v1", "")
    assert "“Judge model”" in error_message(caught.value, JUDGE_FIXES) and "--" not in error_message(caught.value)
