"""`mathreel run` end to end: a real dataset folder with real H.264 videos, the real `openai` client, and the
loopback fake server; resumability, failures, filters, and the key staying out of every output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from helpers.fake_openai import FakeOpenAI, Recorded, status

from mathreel.cli import main
from mathreel.core.media.writer import write_h264

KEY = "sk-run-DISTINCTIVE-4b8e21"
KEY_ENV = "MATHREEL_TEST_RUN_KEY"
MODEL = "vision-run-1"

QUESTIONS = [  # (question_id, videoID, category, length, answer)
    ("q1", "vidA", "Counting", "short", "A"),
    ("q2", "vidA", "Counting", "short", "B"),
    ("q3", "vidB", "Arithmetic", "medium", "C"),
    ("q4", "vidB", "Chart", "long", "D"),
    ("q5", "vidC", "Chart", "long", "E"),
]


def _video(path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    frames = [np.full((48, 64, 3), rng.integers(0, 255, 3), dtype=np.uint8) for _ in range(20)]
    write_h264(path, frames, fps=10)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A VideoMathQA folder in the published layout: the MCQ parquet, videos/, subtitles/."""
    import pandas as pd

    root = tmp_path_factory.mktemp("videomathqa")
    (root / "videos").mkdir()
    (root / "subtitles").mkdir()
    for seed, video in enumerate(sorted({q[1] for q in QUESTIONS})):
        _video(root / "videos" / f"{video}.mp4", seed)
    (root / "subtitles" / "vidA.srt").write_text("1\n00:00:00,000 --> 00:00:02,000\nCount the red squares.\n\n")
    rows = [
        {
            "question_id": qid,
            "videoID": vid,
            "question": f"Question {qid}: how many squares?",
            "options": [f"{letter}. {n}" for letter, n in zip("ABCDE", range(1, 6), strict=True)],
            "answer": answer,
            "category": category,
            "length": length,
        }
        for qid, vid, category, length, answer in QUESTIONS
    ]
    pd.DataFrame(rows).to_parquet(root / "videomathqa_mcq_test.parquet")
    return root


def gold_reply(request: Recorded) -> str:
    """Answer each question correctly, so the printed score is checkable."""
    qid = re.search(r"Question (q\d+)", request.text).group(1)
    return f"The answer is {dict((q[0], q[4]) for q in QUESTIONS)[qid]}."


@pytest.fixture
def server(monkeypatch, tmp_path):
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    with FakeOpenAI(models=(MODEL,), api_key=KEY, reply=gold_reply) as fake:
        yield fake


def run_args(server: FakeOpenAI, data_dir: Path, out: Path, *extra: str) -> list[str]:
    return [
        "run",
        "--benchmark",
        "videomathqa",
        "--mode",
        "mcq",
        "--data",
        str(data_dir),
        "--frames",
        "4",
        "--base-url",
        server.base_url,
        "--model",
        MODEL,
        "--api-key-env",
        KEY_ENV,
        "--out",
        str(out),
        "--concurrency",
        "3",
        *extra,
    ]


def lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


def test_run_asks_every_question_writes_samples_and_prints_the_score(server, data_dir, tmp_path, capsys):
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, data_dir, out, "--subtitles")) == 0
    captured = capsys.readouterr()
    records = lines(out)
    assert sorted(r["doc"]["question_id"] for r in records) == ["q1", "q2", "q3", "q4", "q5"]
    first = next(r for r in records if r["doc"]["question_id"] == "q1")
    assert first["resps"] == [["The answer is A."]] and first["filtered_resps"] == ["The answer is A."]
    assert first["target"] == "A" and first["doc"]["category"] == "Counting" and first["doc"]["video_id"] == "vidA"
    meta = first["mathreel"]
    assert (meta["model"], meta["benchmark"], meta["mode"], meta["frames"]) == (MODEL, "videomathqa", "mcq", 4)
    assert meta["subtitles"] is True and meta["usage"]["prompt_tokens"] > 4 * 85
    assert meta["base_url"] == server.base_url and "Count the red squares." in meta["prompt"]
    seen = server.chat_requests
    assert len(seen) == 5
    assert all(len(r.image_urls) == 4 and r.temperature == 0 and r.model == MODEL for r in seen)
    assert "5 of 5 questions correct = 100.0%" in captured.out
    assert "5/5 answered, 0 failed" in captured.err
    assert server.max_in_flight <= 3


def test_failed_questions_are_counted_not_written_and_retried_next_time(server, data_dir, tmp_path, capsys):
    out = tmp_path / "answers.jsonl"
    server.reply = lambda r: status(400, "image too small") if "Question q3" in r.text else gold_reply(r)
    assert main(run_args(server, data_dir, out)) == 1
    err = capsys.readouterr().err
    assert "4 answered, 1 failed" in err and "failed q3" in err and "image too small" in err
    assert len(lines(out)) == 4
    server.clear()
    server.reply = gold_reply
    assert main(run_args(server, data_dir, out)) == 0
    (again,) = server.chat_requests
    assert "Question q3" in again.text
    assert sorted(r["doc"]["question_id"] for r in lines(out)) == ["q1", "q2", "q3", "q4", "q5"]
    assert "1 answered, 0 failed, 4 already in" in capsys.readouterr().err


def test_a_run_cut_off_mid_line_resumes_cleanly(server, data_dir, tmp_path):
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, data_dir, out, "--limit", "2")) == 0
    with out.open("a") as handle:
        handle.write('{"doc_id": 2, "doc": {"question_id": "q3"}, "resps": [["The ans')
    server.clear()
    assert main(run_args(server, data_dir, out)) == 0
    assert len(server.chat_requests) == 3
    assert sorted(r["doc"]["question_id"] for r in lines(out)) == ["q1", "q2", "q3", "q4", "q5"]


def test_a_file_from_another_model_is_refused(server, data_dir, tmp_path, capsys):
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, data_dir, out, "--limit", "1")) == 0
    server.models = (MODEL, "other-model")
    args = run_args(server, data_dir, out)
    args[args.index("--model") + 1] = "other-model"
    assert main(args) == 2
    assert "model='vision-run-1', this run has model='other-model'" in capsys.readouterr().err


def without_model(args: list[str]) -> list[str]:
    at = args.index("--model")
    return args[:at] + args[at + 2 :]


def test_the_model_falls_back_to_mathreel_model(server, data_dir, tmp_path, monkeypatch):
    out = tmp_path / "answers.jsonl"
    monkeypatch.setenv("MATHREEL_MODEL", MODEL)
    assert main(without_model(run_args(server, data_dir, out, "--limit", "2"))) == 0
    assert [r.model for r in server.chat_requests] == [MODEL, MODEL]
    assert {r["mathreel"]["model"] for r in lines(out)} == {MODEL}
    server.clear()
    monkeypatch.setenv("MATHREEL_MODEL", "not-served")  # --model, when given, wins over the variable
    assert main(run_args(server, data_dir, out, "--limit", "3")) == 0
    assert [r.model for r in server.chat_requests] == [MODEL]


def test_no_model_and_no_mathreel_model_is_one_clear_line(server, data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("MATHREEL_MODEL", raising=False)
    out = tmp_path / "answers.jsonl"
    assert main(without_model(run_args(server, data_dir, out))) == 2
    err = capsys.readouterr().err
    assert err == "mathreel: model: no model name given, and MATHREEL_MODEL is not set\n"
    assert server.chat_requests == [] and not out.exists()


def test_filters_and_limit_select_questions(server, data_dir, tmp_path, capsys):
    out = tmp_path / "answers.jsonl"
    assert (
        main(
            run_args(
                server,
                data_dir,
                out,
                "--filter",
                "category=Chart",
                "--filter",
                "category=Counting",
                "--filter",
                "duration=long",
            )
        )
        == 0
    )
    assert sorted(r["doc"]["question_id"] for r in lines(out)) == ["q4", "q5"]
    out2 = tmp_path / "two.jsonl"
    assert main(run_args(server, data_dir, out2, "--filter", "video_id=vidB", "--limit", "1")) == 0
    assert [r["doc"]["question_id"] for r in lines(out2)] == ["q3"]
    assert main(run_args(server, data_dir, tmp_path / "x.jsonl", "--filter", "category")) == 2
    assert main(run_args(server, data_dir, tmp_path / "x.jsonl", "--filter", "colour=red")) == 2
    err = capsys.readouterr().err
    assert "'category' is not key=value" in err and "unknown dimension colour" in err


def test_a_missing_video_fails_only_its_question(server, data_dir, tmp_path, capsys):
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(data_dir, copy)
    (copy / "videos" / "vidC.mp4").unlink()
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, copy, out)) == 1
    err = capsys.readouterr().err
    assert "failed q5" in err and "cannot ask without the video" in err
    assert len(lines(out)) == 4 and len(server.chat_requests) == 4


def test_rate_limits_are_retried_during_a_run(server, data_dir, tmp_path):
    server.script(status(429, retry_after=0.01), status(503, "warming up"))
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, data_dir, out, "--concurrency", "1")) == 0
    assert len(lines(out)) == 5 and len(server.chat_requests) == 7


def test_the_key_stays_out_of_the_file_and_the_output(server, data_dir, tmp_path, capsys, monkeypatch):
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, data_dir, out, "--limit", "2")) == 0
    wrong = "sk-wrong-DISTINCTIVE-0c0c0c"
    monkeypatch.setenv(KEY_ENV, wrong)
    assert main(run_args(server, data_dir, tmp_path / "refused.jsonl")) == 1
    captured = capsys.readouterr()
    assert "the server refused the API key (401)" in captured.err
    written = out.read_text() + captured.out + captured.err
    written += "".join(p.read_text() for p in tmp_path.glob("*.jsonl"))
    assert KEY not in written and wrong not in written
    assert not (tmp_path / "refused.jsonl").exists() or not lines(tmp_path / "refused.jsonl")


def test_mathverse_sends_the_diagram(server, tmp_path, capsys):
    from PIL import Image

    root = tmp_path / "mathverse"
    (root / "images").mkdir(parents=True)
    Image.new("RGB", (1200, 600), (255, 255, 255)).save(root / "images" / "d1.png")
    record = {
        "sample_index": "1",
        "problem_index": "1",
        "problem_version": "Text Lite",
        "question": "Find x.",
        "question_for_eval": "Find x.\nChoices:\nA:30\nB:60",
        "query_wo": "Question 1: Find x.\nChoices:\nA:30\nB:60",
        "query_cot": "Question 1: think. Find x.",
        "answer": "B",
        "question_type": "multi-choice",
        "image": "d1.png",
        "metadata": {"subject": "Plane Geometry", "subfield": "Angle"},
    }
    (root / "testmini.json").write_text(json.dumps([record]))
    server.reply = "The answer is B."
    out = tmp_path / "mv.jsonl"
    args = [
        "run",
        "--benchmark",
        "mathverse",
        "--data",
        str(root),
        "--base-url",
        server.base_url,
        "--model",
        MODEL,
        "--api-key-env",
        KEY_ENV,
        "--out",
        str(out),
        "--max-side",
        "512",
    ]
    assert main(args) == 0
    (seen,) = server.chat_requests
    assert len(seen.image_urls) == 1 and seen.image_urls[0].startswith("data:image/jpeg;base64,")
    assert seen.text == record["query_wo"]
    assert lines(out)[0]["mathreel"]["image"] is True
    assert "1 of 1 question correct" in capsys.readouterr().out


VICTIMS = {  # files a user may point --out at by mistake; none may change
    "victim.parquet": b"PAR1\x15\x04\x15\xca\x01\x00\nbinary\xff\xfe tail without newline",
    "victim.csv": b"question_id,response\nq001,A",
    "notes.txt": b"my notes line 1\nmy important notes line 2 without newline",
    "notes-ending.txt": b"line 1\nline 2\n",
    "blank-lines.jsonl": b"\n  \n\t\n",
    "other.jsonl": b'{"question_id": "q1", "response": "A"}\n{"question_id": "q2", "resp',
}


@pytest.mark.parametrize("name", sorted(VICTIMS))
def test_run_out_never_changes_a_file_it_did_not_write(server, data_dir, tmp_path, capsys, name):
    victim = tmp_path / name
    victim.write_bytes(VICTIMS[name])
    assert main(run_args(server, data_dir, victim, "--limit", "1")) == 2
    assert victim.read_bytes() == VICTIMS[name]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pick another --out" in err
    assert server.chat_requests == []


def test_an_empty_out_file_is_a_fresh_start(server, data_dir, tmp_path):
    out = tmp_path / "answers.jsonl"
    out.touch()
    assert main(run_args(server, data_dir, out, "--limit", "1")) == 0
    assert len(lines(out)) == 1


def test_run_out_refuses_a_directory_a_fifo_and_a_device(server, data_dir, tmp_path, capsys):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target, why in (
        (tmp_path, "is a directory"),
        (fifo, "not a regular file"),
        (Path("/dev/full"), "not a regular file"),
    ):
        assert main(run_args(server, data_dir, target, "--limit", "1")) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and why in err, err
    assert server.chat_requests == []


def test_a_whole_last_line_without_newline_is_kept(server, data_dir, tmp_path):
    out = tmp_path / "answers.jsonl"
    assert main(run_args(server, data_dir, out, "--limit", "2")) == 0
    out.write_bytes(out.read_bytes().rstrip(b"\n"))
    server.clear()
    assert main(run_args(server, data_dir, out, "--limit", "3")) == 0
    assert len(server.chat_requests) == 1
    assert sorted(r["doc"]["question_id"] for r in lines(out)) == ["q1", "q2", "q3"]
