"""Dataset folders as users have them: MathVerse's GitHub layout with its Text Only file, a data folder that
names its benchmark, and Video-MME's parquet folder given as --data."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.errors import InputError
from mathreel.core.results import read_results
from mathreel.core.scoring import score

MATHREEL = Path(sys.executable).with_name("mathreel")


def _mathverse_record(index: int, version: str, answer: str) -> dict:
    return {
        "sample_index": str(index),
        "problem_index": "1",
        "problem_version": version,
        "question": "" if version == "Vision Only" else f"Find x ({version}).",
        "image": "" if version == "Text Only" else "images/1.png",
        "answer": answer,
        "question_type": "multi-choice",
        "metadata": {"split": "testmini", "subject": "Plane Geometry", "subfield": "Angle"},
        "query_wo": "q",
        "query_cot": "q",
        "question_for_eval": f"Find x ({version}).\nChoices:\nA:1\nB:2",
    }


@pytest.fixture
def mathverse_repo(tmp_path: Path) -> Path:
    """The MathVerse GitHub repository's layout: data/testmini.json, data/testmini_text_only.json, data/images.
    The Text Only file numbers its questions from 1 again, as a separate file may."""
    data = tmp_path / "MathVerse" / "data"
    (data / "images").mkdir(parents=True)
    testmini = [_mathverse_record(1, "Text Dominant", "A"), _mathverse_record(2, "Vision Only", "B")]
    (data / "testmini.json").write_text(json.dumps(testmini))
    (data / "testmini_text_only.json").write_text(json.dumps([_mathverse_record(1, "Text Only", "B")]))
    return tmp_path / "MathVerse"


def test_github_layout_loads_both_files_with_distinct_ids(mathverse_repo):
    dataset = load_dataset("mathverse", data_dir=mathverse_repo)
    assert [q.question_id for q in dataset.questions] == ["1", "2", "1-text-only"]
    assert dataset.questions[2].dims["problem_version"] == "Text Only"


def test_data_list_detects_the_benchmark_from_the_folder(mathverse_repo):
    run = subprocess.run(
        [str(MATHREEL), "data", "list", "--data", str(mathverse_repo), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    records = json.loads(run.stdout)
    assert [r["question_id"] for r in records] == ["1", "2", "1-text-only"]
    search = subprocess.run(
        [str(MATHREEL), "data", "list", "-d", str(mathverse_repo), "--where", "problem_version=Text Only"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert search.returncode == 0 and "1-text-only" in search.stdout and "MathVerse" in search.stdout


def _text_only_samples(response: str) -> list[dict]:
    """lmms-eval 0.4 mathverse_testmini_text_only samples: sample_index 1, problem_version Text Only."""
    submission = {**_mathverse_record(1, "Text Only", "B"), "prediction": response}
    return [
        {
            "doc_id": 0,
            "target": "B",
            "resps": [[response]],
            "filtered_resps": [response],
            "gpt_eval_score": 1,
            "submission": submission,
        }
    ]


def test_a_text_only_result_joins_its_own_question_never_another_version(tmp_path, mathverse_repo):
    path = tmp_path / "text_only_samples.jsonl"
    path.write_text(json.dumps(_text_only_samples("The answer is B")) + "\n")
    result = read_results(path, annotations=mathverse_repo)
    assert [p.question.question_id for p in result.predictions] == ["1-text-only"]
    assert result.predictions[0].question.answer == "B"  # the Text Only question's gold, not question 1's (A)
    assert result.missing == [] and any("not counted as missing" in n for n in result.notes)
    report = score(result)
    assert (report.overall.n, report.overall.correct) == (1, 1)


def test_an_id_only_text_only_file_is_not_joined_to_question_one(tmp_path, mathverse_repo):
    path = tmp_path / "ids.jsonl"
    path.write_text(json.dumps({"sample_index": "1", "problem_version": "Text Only", "response": "B"}) + "\n")
    result = read_results(path, benchmark="mathverse", annotations=mathverse_repo)
    assert [p.question.question_id for p in result.predictions] == ["1-text-only"]


@pytest.fixture
def videomme_download(tmp_path: Path) -> Path:
    """A Video-MME download: videomme/test-*.parquet beside data/ and subtitle/."""
    root = tmp_path / "Video-MME"
    shutil.copytree(demo_dir() / "videomme", root)
    return root


def test_the_videomme_parquet_folder_is_accepted_as_data(videomme_download):
    inner = videomme_download / "videomme"
    from_inner = load_dataset("videomme", data_dir=inner)
    from_root = load_dataset("videomme", data_dir=videomme_download)
    assert from_inner.root == from_root.root == videomme_download
    assert from_inner.video_path(from_inner.questions[0]) is not None
    run = subprocess.run(
        [str(MATHREEL), "data", "list", "--data", str(inner), "--json"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert len(json.loads(run.stdout)) == len(from_root.questions)


def test_a_folder_holding_nothing_says_what_was_looked_for(tmp_path):
    with pytest.raises(InputError, match="no Video-MME data found"):
        load_dataset("videomme", data_dir=tmp_path)


def test_annotation_files_are_checked_before_reading(tmp_path, monkeypatch):
    folder = tmp_path / "mv"
    folder.mkdir()
    (folder / "testmini.json").write_text(json.dumps([_mathverse_record(1, "Text Dominant", "A")] * 50))
    monkeypatch.setenv("MATHREEL_MAX_INPUT_MB", "0.001")
    with pytest.raises(InputError, match="MATHREEL_MAX_INPUT_MB"):
        load_dataset("mathverse", data_dir=folder)
