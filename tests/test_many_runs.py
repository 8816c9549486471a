"""Many runs scored at once (`mathreel score run1 ... runN`): the files of one call share their choice readings
(`reading_memo.SharedMemos`), and each file's report is exactly the one it gets scored alone, `--rows` included.

The runs are made from the generated files of tests/data/generated_scores, as an ablation's runs are: the same
questions, most answers as in the first run, some re-drawn (another letter in the same style, or another
question's answer), in the three layouts the readers take (plain JSONL read into columns, the official template
and an lmms-eval samples log read row by row).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mathreel.cli import main
from mathreel.core.results import read_results
from mathreel.core.scoring import score, verdict
from mathreel.core.scoring.reading_memo import SharedMemos

DATA = Path(__file__).parent / "data" / "generated_scores"
_SWAP = str.maketrans("ABCD", "CDAB")


def _redrawn(response: str, rng: random.Random, others: list[str]) -> str:
    """About 15% of answers in another letter (same words), 10% another question's answer, the rest unchanged."""
    draw = rng.random()
    if draw < 0.15:
        return response.translate(_SWAP)
    if draw < 0.25:
        return rng.choice(others)
    return response


def _jsonl_run(source: Path, target: Path, seed: int) -> Path:
    rng = random.Random(seed)
    records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    others = [record["response"] for record in records]
    for record in records:
        record["response"] = _redrawn(record["response"], rng, others)
    target.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return target


def _template_run(source: Path, target: Path, seed: int) -> Path:
    rng = random.Random(seed)
    videos = json.loads(source.read_text(encoding="utf-8"))
    others = [q["response"] for video in videos for q in video["questions"]]
    for video in videos:
        for question in video["questions"]:
            question["response"] = _redrawn(question["response"], rng, others)
    target.write_text(json.dumps(videos), encoding="utf-8")
    return target


def _changed_questions(source: Path, target: Path, seed: int) -> Path:
    """The mix with a fifth of its questions changed under the same ids (gold, an option's text, a dimension, the
    question, the video, a number for a dimension): a question is reused across files only when nothing changed."""
    rng = random.Random(seed)
    records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    for record in records:
        if rng.random() < 0.2:
            field = rng.choice(("answer", "options", "duration", "question", "videoID", "task_type"))
            if field == "answer":
                record["answer"] = "ABCD"[("ABCD".index(record["answer"]) + 1) % 4]
            elif field == "options":
                record["options"] = [*record["options"][:-1], record["options"][-1] + " again"]
            elif field == "duration":
                record["duration"] = "long" if record["duration"] != "long" else "short"
            elif field == "task_type":
                record["task_type"] = 7
            else:
                record[field] = record[field] + "x"
    target.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Ten runs: the mix, four re-drawn runs of it, one with questions changed, the worst case, the template and
    a re-drawn one, the lmms-eval log."""
    folder = tmp_path_factory.mktemp("runs")
    mix, template = DATA / "mix_300.jsonl", DATA / "mix_300_template.json"
    made = [mix, *(_jsonl_run(mix, folder / f"mix_{seed}.jsonl", seed) for seed in range(1, 5))]
    made.append(_changed_questions(mix, folder / "changed_7.jsonl", 7))
    made += [DATA / "worst_300.jsonl", template, _template_run(template, folder / "template_9.json", 9)]
    made.append(DATA / "lmms_300.jsonl")
    return [str(path) for path in made]


def _printed(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    assert main(["score", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "options", [["--rows"], [], ["--rows", "--extractor", "official"], ["--denominator", "answered"]]
)
def test_runs_scored_together_report_as_scored_alone(runs, options, capsys) -> None:
    alone = [_printed(capsys, *options, path) for path in runs]
    together = _printed(capsys, *options, *runs)
    assert isinstance(together, list) and len(together) == len(runs)
    for path, mine, single in zip(runs, together, alone, strict=True):
        assert mine == single, path
    backwards = _printed(capsys, *options, *reversed(runs))  # readings first made by the later files
    assert backwards == together[::-1]
    if "--rows" in options:
        assert all(len(report["rows"]) == 300 for report in together)


def test_a_run_scored_again_in_the_same_call_reads_nothing(runs, monkeypatch) -> None:
    """The memo is shared: a file scored again in the same call reads nothing, the same answers in another layout
    (the template of the mix) read nothing, and an answer only a later run gives is read then."""
    calls: list[str] = []
    real = verdict._read_choice_answer

    def counted(response, choices, *args, **kwargs):
        calls.append(response)
        return real(response, choices, *args, **kwargs)

    monkeypatch.setattr(verdict, "_read_choice_answer", counted)
    memos = SharedMemos()
    first = score(read_results(runs[0]), memos=memos)
    assert len(calls) > 0
    calls.clear()
    again = score(read_results(runs[0]), memos=memos)
    assert calls == []
    assert again.to_dict(rows=True) == first.to_dict(rows=True)
    template = read_results(runs[7])
    assert template.layout == "videomme-template" != read_results(runs[0]).layout  # the same answers, another layout
    score(template, memos=memos)
    assert calls == []
    score(read_results(runs[1]), memos=memos)  # re-drawn answers of the mix: some new, most read already
    assert 0 < len(calls) < 100
    calls.clear()
    score(read_results(runs[0]), memos=SharedMemos())  # a new call shares nothing
    assert len(calls) > 100
