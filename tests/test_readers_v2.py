"""Today's result files: the official Video-MME-v2 prediction TSV, VLMEvalKit's v2 TSV and xlsx, lmms-eval 0.7 sample
logs (flattened resps, the raw <think> reply kept beside the filtered answer, doc_hash, lines out of doc order), for
Video-MME-v2 and for the other benchmarks."""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.v2files import TOY, lmms07_lines, rows, vlmeval_rows, write_jsonl, write_official_tsv

from mathreel.core.results import read_results
from mathreel.core.results.lmms_log import NULL_DOC_HASH, doc_hash_conflicts
from mathreel.core.scoring import score

MATHREEL = Path(sys.executable).with_name("mathreel")


def test_the_official_tsv_with_quoted_multiline_options_and_float_levels(tmp_path):
    path = write_official_tsv(tmp_path / "Video-MME-v2_model_64frame.tsv", rows(TOY))
    assert '"A. option a\nB. option b' in path.read_text()  # pandas quotes the multi-line cell
    result = read_results(path)
    assert (result.benchmark, result.format) == (
        "videomme-v2",
        "Video-MME-v2 official predictions (test_video_mme_v2.py TSV)",
    )
    assert len(result.predictions) == 12
    last = result.predictions[3].question
    assert (last.question_id, last.video_id, last.dims["level"], len(last.options)) == ("001-4", "001", "2", 8)
    assert "level" not in result.predictions[0].question.dims


def _vlmeval_tsv(path: Path) -> Path:
    table = vlmeval_rows(rows(TOY))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(table[0]), delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: ("" if v is None else v) for k, v in row.items()} for row in table)
    return path


def test_vlmevalkit_v2_tsv_and_xlsx_read_alike(tmp_path):
    import pandas as pd

    tsv = read_results(_vlmeval_tsv(tmp_path / "model_Video-MME-v2_64frame.tsv"))
    xlsx_path = tmp_path / "model_Video-MME-v2_64frame.xlsx"
    pd.DataFrame(vlmeval_rows(rows(TOY))).to_excel(xlsx_path, index=False)
    xlsx = read_results(xlsx_path)
    for result in (tsv, xlsx):
        assert result.format == "VLMEvalKit Video-MME-v2 predictions" and result.benchmark == "videomme-v2"
        assert [p.question.video_id for p in result.predictions][:5] == ["001"] * 4 + ["002"]  # 1 -> "001"
    assert score(tsv).groups.total.score == pytest.approx(score(xlsx).groups.total.score)


def test_lmms_eval_07_v2_log_keeps_the_raw_reply_and_scores_the_filtered_one(tmp_path):
    lines = lmms07_lines(rows(TOY))
    random.Random(1).shuffle(lines)  # a multi-process run's line order
    path = write_jsonl(tmp_path / "20260901_samples_videomme_v2.jsonl", lines)
    result = read_results(path)
    assert result.benchmark == "videomme-v2" and "lmms-eval >= 0.7" in result.format
    first = next(p for p in result.predictions if p.question.question_id == "001-1")
    assert first.response == "The answer is B." and first.full_response.startswith("<think>Looking at frame 0.")
    assert any("not in doc_id order" in note for note in result.notes)
    assert any("doc_hash names each question's document" in note for note in result.notes)
    report = score(result)
    assert report.groups.total.score == pytest.approx((25 + 56.25 + 10) / 3)  # line order does not matter
    row = next(r for r in report.rows if r.question_id == "001-1")
    assert row.to_dict()["full_response"].startswith("<think>")


def test_lmms_eval_07_lines_without_resps_read_the_filtered_answer(tmp_path):
    result = read_results(write_jsonl(tmp_path / "samples.jsonl", lmms07_lines(rows(TOY), think=False)))
    assert all(p.full_response is None for p in result.predictions)
    assert not any("keep the raw reply" in note for note in result.notes)


def test_an_lmms_eval_07_log_of_another_benchmark(tmp_path):
    """VideoMathQA in the 0.7 shape: filtered_resps a string, resps left out when equal, token_counts, doc_hash of
    null (the run kept no document)."""
    lines = []
    for i, (answer, reply) in enumerate((("A", "A"), ("B", "<think>hmm</think>\nB"), ("C", "D"))):
        line = {
            "doc_id": i,
            "target": answer,
            "filtered_resps": reply.split("\n")[-1],
            "token_counts": [{"input_tokens": 100, "output_tokens": 3}],
            "doc_hash": NULL_DOC_HASH,
            "videomathqa_perception_score": {
                "question_id": f"q{i}",
                "category": "Counting",
                "duration": "short",
                "pred_answer": "",
                "answer": answer,
            },
            "input": "Select the best answer ...",
        }
        if reply != line["filtered_resps"]:
            line["resps"] = reply
        lines.append(line)
    result = read_results(write_jsonl(tmp_path / "samples_videomathqa_mcq.jsonl", lines))
    assert result.benchmark == "videomathqa" and "lmms-eval >= 0.7" in result.format
    assert [p.full_response for p in result.predictions] == [None, "<think>hmm</think>\nB", None]
    assert any("hash of null on every line" in note for note in result.notes)
    assert score(result).overall.correct == 2


def test_two_runs_asked_from_different_documents_are_flagged(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", lmms07_lines(rows(TOY)))
    changed = rows(TOY)
    changed[0]["question"] = "A reworded question?"
    b = write_jsonl(tmp_path / "b.jsonl", lmms07_lines(changed))
    assert doc_hash_conflicts(read_results(a), read_results(b)) == ["001-1"]
    run = subprocess.run([str(MATHREEL), "score", str(a), str(b), "--json"], capture_output=True, text=True, check=True)
    first, second = json.loads(run.stdout)
    assert not any("different documents" in w for w in first["warnings"])
    assert any("1 question was built from different documents" in w and "001-1" in w for w in second["warnings"])
