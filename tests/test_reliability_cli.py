"""Every generated bad input through the real `mathreel score` command (a subprocess, as a user runs it).

A refused file: exit status 2, nothing on stdout, exactly one stderr line naming the file and the problem, no
traceback. A valid-but-awkward file (BOM CSV, formula-like cells, HTML in responses, ...): exit 0 with the known
number of questions and correct answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import badinputs

CASES = badinputs.all_cases()
REFUSED = [c.name for c in CASES if not c.valid]
VALID = [c.name for c in CASES if c.valid]


def mathreel() -> str:
    beside = Path(sys.executable).with_name("mathreel")
    return str(beside) if beside.exists() else "mathreel"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[badinputs.Case, Path]]:
    written = badinputs.generate(tmp_path_factory.mktemp("badinputs"))
    return {case.name: (case, path) for case, path in written}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    environment = dict(os.environ, MATHREEL_CACHE=str(tmp_path_factory.mktemp("cache")))
    environment.pop("MATHREEL_DATA", None)
    return environment


def score(case: badinputs.Case, path: Path, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    """`mathreel score --json` on the file, with the case's benchmark choice and the demo set as annotations."""
    from mathreel.core.data import demo_dir

    args = [mathreel(), "score", "--json", *case.cli_args()]
    if case.annotations:
        args += ["--annotations", str(demo_dir())]
    return subprocess.run([*args, str(path)], capture_output=True, env=env, cwd=cwd, timeout=300)


def test_the_generator_makes_at_least_fifty_distinct_inputs(generated: dict) -> None:
    contents = {path.read_bytes() for _, path in generated.values()}
    assert len(generated) >= 50
    assert len(contents) == len(generated), "two cases generate the same bytes"
    assert len(REFUSED) >= 40 and len(VALID) >= 15


@pytest.mark.parametrize("name", REFUSED)
def test_bad_input_is_refused_in_one_line(name: str, generated: dict, env: dict, tmp_path: Path) -> None:
    case, path = generated[name]
    done = score(case, path, env, tmp_path)
    stderr = done.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in done.stderr, stderr
    assert done.returncode == 2, stderr
    assert done.stdout == b""
    lines = stderr.rstrip("\n").split("\n")
    assert len(lines) == 1, f"expected one stderr line, got {len(lines)}: {stderr[:500]}"
    assert lines[0].startswith(f"mathreel: {path}"), lines[0]
    problem = lines[0][len(f"mathreel: {path}") :].lower()
    assert any(word in problem for word in case.problem), f"{case.problem} not in {lines[0]!r}"


@pytest.mark.parametrize("name", VALID)
def test_awkward_but_valid_input_scores_to_known_numbers(name: str, generated: dict, env: dict, tmp_path: Path) -> None:
    case, path = generated[name]
    done = score(case, path, env, tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert (report["overall"]["n"], report["overall"]["correct"]) == (case.n, case.correct)


def test_duplicate_ids_are_named_in_a_warning(generated: dict, env: dict, tmp_path: Path) -> None:
    case, path = generated["duplicate-ids"]
    report = json.loads(score(case, path, env, tmp_path).stdout)
    assert any("duplicate" in w and "000-1" in w for w in report["warnings"]), report["warnings"]


@pytest.mark.parametrize("name", ["formula-injection-csv", "html-script-responses"])
def test_formula_and_markup_responses_are_read_as_literal_text(name: str, generated: dict) -> None:
    """The scorer sees the cell exactly as written: nothing evaluated, stripped or unescaped."""
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score as score_file

    case, path = generated[name]
    report = score_file(read_results(path))
    seen = {row.question_id: row.response for row in report.rows}
    assert seen == case.responses


def test_formula_like_ids_stay_ids(generated: dict) -> None:
    from mathreel.core.results import read_results

    _, path = generated["formula-injection-ids"]
    assert [p.question.question_id for p in read_results(path).predictions] == ["=1+2", "@SUM(A1:A9)"]


OPTION_CASES = {  # argv -> words the one stderr line must hold
    "hf-dotdot": (["data", "list", "--data", "hf:../.."], "not a Hugging Face dataset id"),
    "hf-space": (["data", "list", "--data", "hf:a/b c"], "not a Hugging Face dataset id"),
    "show-frames-huge": (["show", "q001", "-b", "videomathqa", "--frames", "1000000000"], "1 to 512"),
    "show-frames-zero": (["show", "q001", "-b", "videomathqa", "--frames", "0"], "1 to 512"),
    "serve-port": (["serve", "--port", "99999"], "0 to 65535"),
    "serve-size": (["serve", "--max-file-size", "lots"], "50mb"),
    "run-timeout-nan": (
        [
            "run",
            "--benchmark",
            "videomathqa",
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            "o.jsonl",
            "--timeout",
            "nan",
        ],
        "--timeout",
    ),
    "run-temperature-inf": (
        [
            "run",
            "--benchmark",
            "videomathqa",
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            "o.jsonl",
            "--temperature",
            "inf",
        ],
        "--temperature",
    ),
    "run-frames-zero": (
        [
            "run",
            "--benchmark",
            "videomathqa",
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            "o.jsonl",
            "--frames",
            "0",
        ],
        "--frames",
    ),
    "run-concurrency-neg": (
        [
            "run",
            "--benchmark",
            "videomathqa",
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            "o.jsonl",
            "--concurrency",
            "-3",
        ],
        "--concurrency",
    ),
}


@pytest.mark.parametrize("name", sorted(OPTION_CASES))
def test_bad_options_are_one_line(name: str, env: dict[str, str], tmp_path: Path) -> None:
    argv, words = OPTION_CASES[name]
    done = subprocess.run([mathreel(), *argv], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert not (tmp_path / "o.jsonl").exists()


def test_a_cache_that_is_a_file_and_a_full_stdout_are_one_line(env: dict[str, str], tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[1] / "assets" / "demo" / "results"
    blocker = tmp_path / "cache-file"
    blocker.write_text("not a folder")
    runs = [
        ([mathreel(), "show", "q001", "-b", "videomathqa"], dict(env, MATHREEL_CACHE=str(blocker)), None),
        (
            [mathreel(), "score", "--json", str(demo / "videomathqa_mcq_synthetic-model-b_samples.jsonl")],
            env,
            "/dev/full",
        ),
    ]
    for argv, environment, stdout in runs:
        with open(stdout or os.devnull, "w") as sink:
            done = subprocess.run(argv, stdout=sink, stderr=subprocess.PIPE, text=True, timeout=120, env=environment)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert blocker.read_text() == "not a folder"
