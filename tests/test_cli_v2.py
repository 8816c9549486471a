"""`mathreel show` and `mathreel run` on Video-MME-v2 in its real layout (test.parquet, videos/<id>.mp4 written as
H.264 and decoded for real, subtitle/<id>.jsonl): the official prompt, midpoint and fps frames, subtitles per frame in
both subtitle modes, and the interleaved turn sent in order through the real openai client to the fake server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.fake_openai import FakeOpenAI
from helpers.v2files import TOY, rows

from mathreel.cli import main
from mathreel.core.media.writer import write_h264

MATHREEL = Path(sys.executable).with_name("mathreel")
KEY, KEY_ENV, MODEL = "sk-v2-DISTINCTIVE-77aa", "MATHREEL_TEST_V2_KEY", "vision-v2"
# Two narration sentences for video 001 (20 frames at 10 fps = 2 s): "Hello there." then "Today we cook", and
# "rice" after a long pause.
WORDS = [
    ("Hello", 0.0, 0.3),
    ("there.", 0.3, 0.6),
    ("Today", 0.75, 1.2),
    ("we", 1.2, 1.6),
    ("cook", 1.7, 1.9),
    ("rice", 1.95, 1.99),
]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = tmp_path_factory.mktemp("Video-MME-v2")
    records = [{k: v for k, v in r.items() if k != "prediction"} for r in rows(TOY)]
    schema = pa.schema([(k, pa.int64() if k == "level" else pa.string()) for k in records[0]])
    pq.write_table(pa.Table.from_pylist(records, schema=schema), root / "test.parquet")
    (root / "videos").mkdir()
    for seed, video in enumerate(("001", "002", "003")):
        frames = [np.full((48, 64, 3), (10 * i + 40 * seed) % 250, dtype=np.uint8) for i in range(20)]
        write_h264(root / "videos" / f"{video}.mp4", frames, fps=10)
    (root / "subtitle").mkdir()
    (root / "subtitle" / "001.jsonl").write_text(
        "".join(json.dumps({"text": t, "start_time": s, "end_time": e}) + "\n" for t, s, e in WORDS)
    )
    return root


def show(data_dir: Path, *args: str) -> dict:
    run = subprocess.run(
        [str(MATHREEL), "show", "--benchmark", "videomme-v2", "--data", str(data_dir), "--json", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_show_gives_the_official_prompt_on_midpoint_frames(data_dir, tmp_path):
    view = show(data_dir, "001-1", "--frames", "4")
    assert [f["index"] for f in view["frames"]] == [4, 8, 12, 16]
    assert view["message"][:4] == [{"frame": 0}, {"frame": 1}, {"frame": 2}, {"frame": 3}]
    assert view["message"][4] == {"text": "These are the frames of a video."}
    assert view["message"][5]["text"].startswith("Question: Question 1 about video 001?\nA. option a\n")
    assert view["settings"]["num_frames"] == 4


def test_the_default_is_the_benchmark_s_64_frames(data_dir):
    assert len(show(data_dir, "002-1")["frames"]) == 64


def test_concatenated_subtitles_are_every_word_and_each_frame_lists_its_segments(data_dir):
    view = show(data_dir, "001-1", "--frames", "2", "--subtitles")
    assert view["message"][2]["text"] == (
        "These are the frames of a video. This video's subtitles are listed below:\nHello there. Today we cook rice\n"
    )
    # frames 6 and 13 (0.6 s, 1.3 s): [0.6, 1.3) and [1.3, 2.0)
    assert [f["index"] for f in view["frames"]] == [6, 13]
    assert [[c["text"] for c in cues] for cues in view["frame_subtitles"]] == [
        ["Hello there.", "Today we cook rice"],
        ["Today we cook rice"],
    ]


def test_interleaved_subtitles_follow_each_frame(data_dir):
    view = show(data_dir, "001-1", "--frames", "2", "--interleave")
    kinds = [next(iter(part)) for part in view["message"]]
    assert kinds == ["frame", "text", "text", "frame", "text", "text", "text"]
    assert view["message"][1]["text"] == "[Subtitle 0.00s - 0.60s]: Hello there."
    assert view["message"][4]["text"] == "[Subtitle 0.75s - 1.99s]: Today we cook rice"


def test_a_video_without_a_subtitle_file_still_gets_the_script_s_block(data_dir):
    view = show(data_dir, "002-1", "--frames", "2", "--subtitles")
    assert view["message"][2]["text"].endswith("listed below:\n\n")


def test_frames_at_a_fixed_rate(data_dir):
    view = show(data_dir, "001-1", "--fps", "2")
    assert [f["index"] for f in view["frames"]] == [0, 5, 10, 15]
    capped = show(data_dir, "001-1", "--fps", "5", "--frames", "4")
    assert [f["index"] for f in capped["frames"]] == [0, 4, 10, 14]  # 10 frames at 5 fps, 4 of them kept


def test_the_readable_show_lays_out_the_interleaved_turn(data_dir):
    run = subprocess.run(
        [str(MATHREEL), "show", "001-1", "-b", "videomme-v2", "--data", str(data_dir), "-n", "2", "--interleave"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "── the turn in order" in run.stdout and "[frame 1: index 6, t=0.60s]" in run.stdout


def test_options_that_do_not_apply_are_one_line(data_dir):
    run = subprocess.run(
        [str(MATHREEL), "show", "q001", "-b", "videomathqa", "--interleave"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "has no interleaved subtitles" in run.stderr
    bad = subprocess.run(
        [str(MATHREEL), "show", "001-1", "-b", "videomme-v2", "--data", str(data_dir), "--fps", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "--fps" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def reply(request) -> str:
    """Right on questions 1 and 2 of each video, a refusal on 3, wrong on 4."""
    number = int(re.search(r"Question (\d) about", request.text).group(1))
    return {1: "B", 2: "The answer is B.", 3: "I cannot tell.", 4: "C"}[number]


def test_run_sends_the_interleaved_turn_in_order_and_prints_group_scores(data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "answers.jsonl"
    with FakeOpenAI(models=(MODEL,), api_key=KEY, reply=reply) as server:
        code = main(
            [
                "run",
                "--benchmark",
                "videomme-v2",
                "--data",
                str(data_dir),
                "--frames",
                "2",
                "--interleave",
                "--base-url",
                server.base_url,
                "--model",
                MODEL,
                "--api-key-env",
                KEY_ENV,
                "--out",
                str(out),
            ]
        )
        requests = server.chat_requests
    assert code == 0
    first = next(r for r in requests if "Question 1 about video 001" in r.text)
    kinds = [part["type"] for part in first.parts]
    assert kinds == ["image_url", "text", "text", "image_url", "text", "text", "text"]
    assert first.parts[1]["text"] == "[Subtitle 0.00s - 0.60s]: Hello there."
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 12 and all(line["mathreel"]["interleaved"] for line in lines)
    assert lines[0]["mathreel"]["sampling"] == "midpoints"
    printed = capsys.readouterr().out
    # Each group CCUW: a chain broken at Q3 scores 25 ([1,2,3,4]) or 20 ([[1,2],3,4]); relevance, 2 right: 25.
    assert "group score 23.3" in printed and "6 of 12 questions correct" in printed
