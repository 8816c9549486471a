"""The reading flow's core parts: which settings a run used, which rows a filter keeps, where runs disagree, and
where in a response its answer was read."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from mathreel.core.results import read_results
from mathreel.core.results.run_settings import detect_run_settings
from mathreel.core.scoring import score
from mathreel.core.scoring.reading_flow import answer_span, disagreeing, select_rows
from mathreel.core.view import ViewSettings

GOLD = {"q0": "B", "q1": "C", "q2": "D", "q3": "B"}


def plain_file(path: Path, responses: dict[str, str], **extra: object) -> Path:
    records = [
        {
            "question_id": qid,
            "answer": GOLD[qid],
            "category": "Chart" if qid in ("q0", "q1") else "Counting",
            "response": text,
            **extra,
        }
        for qid, text in responses.items()
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def lmms_file(path: Path, task: str, prompt: str) -> Path:
    record = {
        "doc_id": 0,
        "doc": {
            "question_id": "q0",
            "question": "What?",
            "options": ["A. 1", "B. 2"],
            "answer": "B",
            "category": "Chart",
        },
        "target": "B",
        "arguments": [prompt, {"max_new_tokens": 16}, 0, task, "test"],
        "filtered_resps": ["The answer is B."],
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def test_view_settings_all_lines_imply_subtitles():
    assert ViewSettings(8, full_subtitles=True).normalized() == ViewSettings(8, False, True, True)
    assert ViewSettings(4, cot=True).view_kwargs() == {
        "num_frames": 4,
        "cot": True,
        "with_subtitles": False,
        "full_subtitles": False,
    }


def test_settings_come_from_the_lmms_eval_task_name_and_prompt(tmp_path):
    path = lmms_file(
        tmp_path / "s.jsonl",
        "videomathqa_mcq_cot_w_subtitle",
        "Question...\nFirst please perform reasoning, and think step by step.",
    )
    used = detect_run_settings(read_results(path, benchmark="videomathqa", mode="mcq"), default_frames=16)
    assert used.settings == ViewSettings(16, True, True, False)
    assert "videomathqa_mcq_cot_w_subtitle" in used.sources["cot"]
    assert "videomathqa_mcq_cot_w_subtitle" in used.sources["subtitles"]
    assert "not recorded" in used.sources["frames"]


def test_a_direct_task_with_a_recorded_frame_count(tmp_path):
    path = plain_file(tmp_path / "r.jsonl", {"q0": "B", "q1": "C"}, task="videomathqa_mcq", num_frames=32)
    used = detect_run_settings(read_results(path, benchmark="videomathqa", mode="mcq"))
    assert used.settings == ViewSettings(32, False, False, False)
    assert used.sources["frames"] == "the file's 'num_frames' field"
    assert "names no chain of thought" in used.sources["cot"]


def test_without_task_or_prompt_the_style_is_a_guess_and_says_so(tmp_path):
    steps = "Let me think step by step.\n1. First.\n2. Then.\nThe answer is B."
    path = plain_file(tmp_path / "r.jsonl", {"q0": steps, "q1": steps, "q2": "D"})
    used = detect_run_settings(read_results(path, benchmark="videomathqa", mode="mcq"))
    assert used.settings.cot is True and used.sources["cot"].startswith("a guess: 2 of 3")
    direct = detect_run_settings(
        read_results(plain_file(tmp_path / "d.jsonl", {"q0": "B", "q1": "A"}), benchmark="videomathqa", mode="mcq")
    )
    assert direct.settings.cot is False and direct.sources["cot"].startswith("a guess")


def test_select_rows_and_disagreements(tmp_path):
    a = score(
        read_results(
            plain_file(tmp_path / "a.jsonl", {"q0": "B", "q1": "A", "q2": "no idea", "q3": "B"}),
            benchmark="videomathqa",
            mode="mcq",
        )
    )
    b = score(
        read_results(
            plain_file(tmp_path / "b.jsonl", {"q0": "B", "q1": "D", "q2": "no idea"}),
            benchmark="videomathqa",
            mode="mcq",
        )
    )
    assert [r.question_id for r in select_rows(a, "wrong")] == ["q1"]
    assert [r.question_id for r in select_rows(a, "not_correct")] == ["q1", "q2"]
    assert [r.question_id for r in select_rows(a, "all", "category=Counting")] == ["q2", "q3"]
    # q1: both wrong but with different picks; q3 is answered by one run only, so nothing to disagree on.
    assert disagreeing([a, b]) == {"q1"}
    assert [r.question_id for r in select_rows(a, "all", only={"q1"})] == ["q1"]


def test_answer_span_prefers_the_extractors_span_then_the_quote_then_the_last_mention():
    text = "A looks tempting. B is wrong. Final answer: C"
    row = SimpleNamespace(response=text, extracted="C", explanation="read 'Final answer: C'")
    start, end = answer_span(row)
    assert text[start:end] == "Final answer: C"
    given = SimpleNamespace(response=text, extracted="C", explanation="", span=(0, 1))
    assert answer_span(given) == (0, 1)
    plain = SimpleNamespace(response="B or maybe B", extracted="B", explanation="method x")
    assert answer_span(plain) == (11, 12)  # the last whole-word "B"
    assert answer_span(SimpleNamespace(response="nothing", extracted=None, explanation="")) is None
