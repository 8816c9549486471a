"""Counts read right in the CLI and the app: "1 question", never "1 questions". The score text and the audit of
a one-answer file, run as a user runs them, and the source scanned for a count put before a plural noun by hand."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from mathreel.core.data import demo_dir
from mathreel.core.plural import counted, plural

ROOT = Path(__file__).resolve().parent.parent
DEMO_RUN = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
ONE_PLURAL = re.compile(r"\b1 (questions|answers|clusters|ids|records|lines|responses|reviews|judgments|pairs)\b")


def one_answer_file(tmp_path: Path) -> Path:
    path = tmp_path / "one_samples.jsonl"
    path.write_text(DEMO_RUN.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    return path


def cli(*args: str | Path) -> str:
    run = subprocess.run([sys.executable, "-m", "mathreel", *map(str, args)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout + run.stderr


def test_plural_and_counted():
    assert [counted(n, "question") for n in (0, 1, 2)] == ["0 questions", "1 question", "2 questions"]
    assert plural(1, "category") == "category" and plural(3, "category") == "categories"


def test_a_one_answer_file_reads_in_the_singular(tmp_path):
    path = one_answer_file(tmp_path)
    score = cli("score", path)
    assert "1 of 1 question correct" in score and "(1 cluster)" in score and "only 1 cluster (" in score
    audit = cli("audit", path, "--out", tmp_path / "readings.jsonl")
    assert "of 1 answer to check" in audit
    for text in (score, audit):
        assert not ONE_PLURAL.search(text), ONE_PLURAL.search(text)


def test_no_count_is_put_before_a_plural_noun_by_hand():
    """An f-string of cli/, webapp/ or core/ whose count (a bare name, attribute or len()) is followed by a plural noun
    goes through core.plural instead; counts that are never one (a video's frames, a configured limit) and names
    that are no count are allowed by name."""
    allowed = {"total_frames", "frames", "keep_files", "keep_days", "size", "MIN_CLUSTERS"}
    allowed |= {"title", "label", "name", "base"}  # not counts: "Video-MME questions", "{run} answers another ..."
    nouns = "questions|answers|clusters|ids|records|responses|reviews|judgments|pairs|groups"
    pattern = re.compile(r"\{([A-Za-z_][\w.\[\]'()]*)\} (" + nouns + r")\b")
    found = []
    for folder in ("cli", "webapp", "core"):  # core too: its report texts (group scores, warnings) reach both
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    text = ast.unparse(node)
                    for name, noun in pattern.findall(text):
                        if name.split(".")[-1].strip("()") not in allowed:
                            found.append(f"{path.relative_to(ROOT)}: {{{name}}} {noun}")
    assert found == []


def test_a_group_score_of_one_group_reads_in_the_singular():
    """Video-MME-v2's group scores by level and head: a taxonomy value held by one group said "(1 groups)"."""
    from mathreel.core.scoring.groups import Figure

    one = Figure(1, 56.25, None, 1, 1, 100.0, None).text()
    assert "(1 group)" in one and "of 1 question " in one and not ONE_PLURAL.search(one)
    assert "(2 groups)" in Figure(2, 50.0, None, 8, 4, 50.0, None).text()


def test_one_question_outside_the_overall_figure_reads_in_the_singular():
    """A MathVerse file with one question the benchmark's rule keeps out of the overall figure."""
    score = cli("score", ROOT / "tests" / "data" / "results" / "mathverse_output.json")
    assert "1 question is outside the overall figure (benchmark rule) and appears only in the breakdowns" in score
