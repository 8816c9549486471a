"""`mathreel data list` and `mathreel show` run as real subprocesses on a fixture dataset with a tiny H.264 video."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.clip import CUES, FPS, TOTAL, covering, write_srt, write_video
from helpers.datasets import closed_port, make_videomathqa, vmqa_record

MATHREEL = [sys.executable, "-c", "import sys; from mathreel.cli import main; sys.exit(main())"]


def mathreel(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MATHREEL, *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def fixture(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("cli")
    root = make_videomathqa(
        base / "data" / "videomathqa",
        [
            vmqa_record("q1", "clip"),
            vmqa_record("q2", "clip", category="Chart", length="long"),
            vmqa_record("q3", "bare", question="How many bars are there?"),
        ],
        [
            vmqa_record("q1", "clip", answer="A", options=["A. 45", "B. 60"]),
            vmqa_record("q1", "clip", answer="B", options=["A. 30", "B. 45"]),
        ],
    )
    write_video(root / "videos" / "clip.mp4")
    write_video(root / "videos" / "bare.mp4")
    write_srt(root / "subtitles" / "clip.srt", CUES)
    env = {**os.environ, "MATHREEL_CACHE": str(base / "cache"), "MATHREEL_DATA": str(base / "data")}
    return base, env


@pytest.mark.parametrize("frames", [4, 7])
def test_show_json_frames_subtitles_and_paths(fixture, frames):
    _, env = fixture
    done = mathreel("show", "q1", "--frames", str(frames), "--subtitles", "--json", env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    indices = np.linspace(0, TOTAL - 1, frames, dtype=int).tolist()
    assert out["question_id"] == "q1" and out["total_frames"] == TOTAL
    assert [f["index"] for f in out["frames"]] == indices
    assert [round(f["time"], 3) for f in out["frames"]] == [i / FPS for i in indices]
    assert [[c["text"] for c in cues] for cues in out["frame_subtitles"]] == [covering(i / FPS) for i in indices]
    shown = list(dict.fromkeys(c["text"] for cues in out["frame_subtitles"] for c in cues))
    assert out["prompt"].startswith("This video's subtitles are listed below: \n" + "\n".join(shown) + "\n")
    assert [c["text"] for c in out["subtitles"]] == list(CUES)
    assert out["subtitles"][0] == {"start": 0.0, "end": 1.0, "text": "one"}
    assert len(out["frame_paths"]) == frames and all(Path(p).is_file() for p in out["frame_paths"])


def test_show_readable_lists_prompt_frames_and_paths(fixture):
    _, env = fixture
    done = mathreel("show", "q1", "-n", "4", "--cot", env=env)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "What is the angle in q1?" in text and "think step by step" in text
    assert "── 4 of 30 frames (10 fps, 3.0 s)" in text
    assert "frame       9  t=     0.90s\n    │ one\nframe      19" in text
    frame_lines = [line for line in text.splitlines() if line.endswith(".jpg")]
    assert len(frame_lines) == 4 and all(Path(p).is_file() for p in frame_lines)


def test_show_multibinary_pair(fixture):
    _, env = fixture
    done = mathreel("show", "q1#2", "--mode", "mbin", "--frames", "2", "--json", env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ref"] == "q1#2" and "A. 30\nB. 45" in out["prompt"]


def test_data_list_json_records(fixture):
    _, env = fixture
    done = mathreel("data", "list", "--json", env=env)
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert [r["question_id"] for r in records] == ["q1", "q2", "q3"]
    assert records[1] == {
        "question_id": "q2",
        "question": "What is the angle in q2?",
        "options": vmqa_record("x", "y")["options"],
        "answer": "B",
        "answer_kind": "choice",
        "video_id": "clip",
        "category": "Chart",
        "duration": "long",
    }
    done = mathreel("data", "list", "--mode", "mbin", "--json", "--search", "angle", env=env)
    assert [(r["question_id"], r["ref"], r["group_id"]) for r in json.loads(done.stdout)] == [
        ("q1", "q1#1", "q1"),
        ("q1", "q1#2", "q1"),
    ]


def test_data_list_table_and_filters(fixture):
    _, env = fixture
    done = mathreel("data", "list", "--where", "category=Chart", env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["id", "answer", "category", "duration", "question"]
    assert lines[1].split()[:4] == ["q2", "B", "Chart", "long"] and len(lines) == 3
    assert lines[-1].startswith("1 of 3 VideoMathQA mcq questions from ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "q11"], "no VideoMathQA mcq question 'q11'; did you mean q1"),
        (["show", "q1", "--data", "/nonexistent/mathreel"], "/nonexistent/mathreel: no such data directory"),
        (["data", "list", "--data", "{tmp}"], "no VideoMathQA data found: looked for videomathqa_mcq_test.parquet"),
        (["data", "list", "--mode", "xyz"], "--mode: videomathqa has no mode 'xyz'"),
        (["data", "list", "--where", "colour=red"], "unknown dimension colour"),
        (["show", "q1", "--frames", "0"], "--frames"),
    ],
)
def test_errors_exit_2_with_one_line(fixture, tmp_path, args, message):
    _, env = fixture
    done = mathreel(*(a.replace("{tmp}", str(tmp_path)) for a in args), env=env)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


def test_hub_dataset_offline_exit_2(fixture, tmp_path):
    _, env = fixture
    env = {**env, "HF_ENDPOINT": f"http://127.0.0.1:{closed_port()}", "HF_HOME": str(tmp_path / "hf")}
    done = mathreel("data", "list", "--data", "hf:MBZUAI/VideoMathQA", env=env)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "mathreel: hf:MBZUAI/VideoMathQA: cannot reach the Hugging Face Hub (no internet?) and no copy is cached; "
        "download the dataset elsewhere and give --data DIR"
    )


def test_data_without_subcommand_prints_help(fixture):
    _, env = fixture
    done = mathreel("data", env=env)
    assert done.returncode == 2 and "list" in done.stderr


def test_without_data_the_demo_set_is_listed(fixture):
    _, env = fixture
    env = {k: v for k, v in env.items() if k != "MATHREEL_DATA"}
    done = mathreel("data", "list", "--benchmark", "mathverse", "--json", env=env)
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert records and all(r.get("question_for_eval") or r["question"] for r in records)
    assert next(r["question_for_eval"] for r in records if r["problem_version"] == "Vision Only").strip()
    assert {r["problem_version"] for r in records} >= {"Text Dominant", "Vision Only"}
