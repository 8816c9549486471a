"""`mathreel judge` end to end: a real result file, the real client, the loopback server with scripted replies."""

from __future__ import annotations

import json

import pytest
from helpers.fake_openai import DEFAULT_MODEL, FakeOpenAI, Recorded, status

from mathreel.cli import main
from mathreel.core.judge import read_judgments

KEY = "sk-cli-judge-SECRET-4411"
STEPS = ["Read 3 and 4 from the board.", "Add them: 3 + 4 = 7.", "Pick the option 7."]


def write_results(path, responses: dict[str, str]) -> None:
    rows = []
    for qid, response in responses.items():
        rows.append(
            {
                "question_id": qid,
                "question": f"[{qid}] What is 3 + 4?",
                "response": response,
                "options": ["A. 6", "B. 7", "C. 8", "D. 9", "E. 12"],
                "answer": "B",
                "steps": STEPS,
                "category": "Arithmetic",
                "length": "short",
                "videoID": f"v-{qid}",
            }
        )
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def judge_reply(recorded: Recorded) -> str:
    text = recorded.text
    if text.startswith("You read a model's answer"):
        return json.dumps({"answer": "C" if "[q2]" in text else "B"})
    if text.startswith("You grade"):
        return "<think>Step 2 matches.</think>" + json.dumps(
            {"matched_steps": "2/3", "final_answer_correct": 0, "critique": "Adds wrongly.", "score": 4}
        )
    return json.dumps({"primary": {"category": "Calculation errors", "rationale": "3 + 4 is not 8."}})


@pytest.fixture
def server():
    with FakeOpenAI(api_key=KEY, reply=judge_reply) as fake:
        yield fake


@pytest.fixture
def env(monkeypatch, server, tmp_path):
    monkeypatch.setenv("MATHREEL_JUDGE_API_KEY", KEY)
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHREEL_JUDGE_BASE_URL", raising=False)
    monkeypatch.delenv("MATHREEL_JUDGE_MODEL", raising=False)
    return monkeypatch


def judge_args(server, results, out, *extra) -> list[str]:
    return [
        "judge",
        str(results),
        "--benchmark",
        "videomathqa",
        "--mode",
        "mcq",
        "--base-url",
        server.base_url,
        "--model",
        DEFAULT_MODEL,
        "--out",
        str(out),
        *extra,
    ]


def test_judge_writes_jsonl_shows_progress_and_reruns_from_the_cache(server, env, tmp_path, capsys):
    results, out = tmp_path / "run.jsonl", tmp_path / "judged.jsonl"
    write_results(results, {"q1": "3 + 4 = 7, so B.", "q2": "3 + 4 = 8, the answer is C."})
    assert main(judge_args(server, results, out, "--concurrency", "2")) == 0
    captured = capsys.readouterr()
    assert "judge [" in captured.err and "6/6" in captured.err  # extract, steps, errors for both
    assert "wrote 6 judgments" in captured.out and "mean step score: 4.00 / 10 over 2 questions" in captured.out
    judgments = read_judgments(out)
    assert [(j.question_id, j.task, j.status) for j in judgments] == [
        ("q1", "extract", "ok"),
        ("q1", "steps", "ok"),
        ("q1", "errors", "skipped"),
        ("q2", "extract", "ok"),
        ("q2", "steps", "ok"),
        ("q2", "errors", "ok"),
    ]
    assert judgments[5].values["primary"]["category"] == "Calculation errors"
    assert all(j.judge_model == DEFAULT_MODEL and j.prompt_version for j in judgments)
    asked = len(server.chat_requests)
    assert asked == 5

    assert main(judge_args(server, results, tmp_path / "again.jsonl")) == 0
    captured_again = capsys.readouterr()
    assert len(server.chat_requests) == asked
    assert "5 cached" in captured_again.err
    assert [j.values for j in read_judgments(tmp_path / "again.jsonl")] == [j.values for j in judgments]
    for text in (captured.out, captured.err, captured_again.out, captured_again.err, out.read_text()):
        assert KEY not in text


def test_environment_supplies_the_endpoint(server, env, tmp_path, capsys):
    env.setenv("MATHREEL_JUDGE_BASE_URL", server.base_url)
    env.setenv("MATHREEL_JUDGE_MODEL", DEFAULT_MODEL)
    results = tmp_path / "run.jsonl"
    write_results(results, {"q1": "B"})
    assert (
        main(
            [
                "judge",
                str(results),
                "--benchmark",
                "videomathqa",
                "--tasks",
                "extract",
                "--out",
                str(tmp_path / "o.jsonl"),
            ]
        )
        == 0
    )
    assert [j.task for j in read_judgments(tmp_path / "o.jsonl")] == ["extract"]


def test_every_call_failing_exits_1_with_reasons(server, env, tmp_path, capsys):
    server.reply = lambda recorded: status(500, "judge crashed")
    results = tmp_path / "run.jsonl"
    write_results(results, {"q1": "So the answer is B."})
    code = main(judge_args(server, results, tmp_path / "o.jsonl", "--tasks", "extract,steps", "--no-cache"))
    captured = capsys.readouterr()
    assert code == 1
    assert "extract: 1 fallback — judge failures: 1" in captured.out
    assert "steps q1: judge call failed: server error (500): judge crashed" in captured.out
    extract = read_judgments(tmp_path / "o.jsonl")[0]
    assert extract.values["answer"] == "B" and extract.values["source"] == "rule"


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--tasks", "extract,vibes"], "unknown judge task vibes"),
        (["--concurrency", "0"], "--concurrency: must be 1 to 256, not 0"),
        (["--timeout", "nan"], "--timeout: must be"),
        (["--timeout", "-1"], "--timeout: must be"),
        (["--max-tokens", "0"], "--max-tokens: must be 1 to"),
        (["--max-tokens", "-5"], "--max-tokens: must be 1 to"),
    ],
)
def test_bad_options_are_one_line_errors(server, env, tmp_path, capsys, extra, message):
    results = tmp_path / "run.jsonl"
    write_results(results, {"q1": "B"})
    assert main(judge_args(server, results, tmp_path / "o.jsonl", *extra)) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert server.chat_requests == []


def test_missing_endpoint_names_the_variable(env, tmp_path, capsys):
    results = tmp_path / "run.jsonl"
    write_results(results, {"q1": "B"})
    assert main(["judge", str(results), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "MATHREEL_JUDGE_BASE_URL" in capsys.readouterr().err


def test_the_key_is_not_a_flag(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["judge", "x.jsonl", "--out", "o.jsonl", "--api-key", "sk-should-not-exist"])
    assert "unrecognized arguments" in capsys.readouterr().err


def test_one_failed_call_of_several_exits_1_with_the_count_on_stderr(server, env, tmp_path, capsys):
    def reply(recorded: Recorded):
        return status(400, "no") if "[q2]" in recorded.text else judge_reply(recorded)

    server.reply = reply
    results = tmp_path / "run.jsonl"
    write_results(results, {"q1": "3 + 4 = 7, so B.", "q2": "so C", "q3": "B it is"})
    assert main(judge_args(server, results, tmp_path / "o.jsonl", "--tasks", "extract", "--no-cache")) == 1
    assert "1 of 3 judge calls failed" in capsys.readouterr().err


def test_out_equal_to_the_input_is_refused_however_spelled(server, env, tmp_path, capsys, monkeypatch):
    results = tmp_path / "run.jsonl"
    write_results(results, {"q1": "B"})
    before = results.read_bytes()
    (tmp_path / "link.jsonl").symlink_to(results)
    monkeypatch.chdir(tmp_path)
    for out in (results, tmp_path / "link.jsonl", "run.jsonl", "./sub/../run.jsonl"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        assert main(judge_args(server, results, out)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is also the input" in err
    assert results.read_bytes() == before and server.chat_requests == []


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: p.write_text("my notes\n"), "is not a `mathreel judge` output file"),
    ],
)
def test_out_that_is_a_directory_or_a_foreign_file_is_refused(server, env, tmp_path, capsys, make, message):
    results, out = tmp_path / "run.jsonl", tmp_path / "out"
    write_results(results, {"q1": "B"})
    make(out)
    assert main(judge_args(server, results, out)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert out.is_dir() or out.read_text() == "my notes\n"
