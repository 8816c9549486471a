"""`core.cost.upload_cost`: what an upload will cost, told from its size and container before any work, so a
server can run a cheap file inline and a costly one under a budget, and refuse at once what a limit forbids."""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers import xlsx_files as X

from mathreel.core.cost import CHEAP_SECONDS, Budget, upload_cost

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo" / "results"


def test_a_small_result_file_is_cheap_and_its_budget_has_the_floor():
    cost = upload_cost(DEMO / "videomathqa_mcq_synthetic-model-b_samples.jsonl")
    assert (cost.kind, cost.refusal) == ("jsonl", None)
    assert cost.cheap and cost.seconds <= CHEAP_SECONDS
    assert cost.budget() == Budget(5.0, 256.0)


def test_the_estimate_grows_with_the_work_not_the_file_name(tmp_path):
    line = json.dumps({"question_id": "q", "response": "A" * 200}) + "\n"
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_text(line * 100)
    large.write_text(line * 100_000)
    a, b = upload_cost(small), upload_cost(large)
    assert b.work_bytes == 1000 * a.work_bytes
    assert b.seconds > a.seconds and b.memory_mb > a.memory_mb and not b.cheap
    assert b.budget().seconds >= 3 * b.seconds


def test_an_xlsx_costs_its_inflated_xml_not_its_zipped_size(tmp_path):
    bomb = tmp_path / "bomb.xlsx"
    bomb.write_bytes(X.zip_bomb())
    cost = upload_cost(bomb)
    assert cost.kind == "xlsx" and cost.work_bytes > 50 * cost.size_bytes
    assert not cost.cheap and cost.refusal is None  # the reader's row limit stops it; the budget bounds it


def test_a_tiny_xlsx_with_a_far_cell_is_cheap(tmp_path):
    far = tmp_path / "far.xlsx"
    far.write_bytes(X.far_cell())
    assert upload_cost(far).cheap


def test_limits_already_passed_are_refusals_at_no_cost(tmp_path):
    many = tmp_path / "many.xlsx"
    many.write_bytes(X.many_members(10_001))
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for path, why in ((many, "entries, more than a workbook's 10,000"), (fifo, "FIFO"), (tmp_path, "directory")):
        cost = upload_cost(path)
        assert why in (cost.refusal or "") and cost.cheap and cost.seconds == 0


def test_a_parquet_file_is_costed_from_its_footer_and_a_cells_bomb_refused(tmp_path, monkeypatch):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"question_id": ["q"] * 200_000, "response": ["A"] * 200_000}), path)
    cost = upload_cost(path)
    assert (cost.kind, cost.rows) == ("parquet", 200_000) and cost.work_bytes >= path.stat().st_size
    monkeypatch.setenv("MATHREEL_MAX_INPUT_MB", "1")  # 65,536 cells
    refused = upload_cost(path)
    assert "decodes to 400,000 cells" in refused.refusal


def test_reading_a_parquet_cells_bomb_is_refused_from_the_footer(tmp_path, monkeypatch):
    import pyarrow as pa
    import pyarrow.parquet as pq
    import pytest

    from mathreel.core.errors import InputError
    from mathreel.core.results.load import load_records

    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"question_id": ["q"] * 100_000, "response": ["A"] * 100_000}), path)
    monkeypatch.setenv("MATHREEL_MAX_INPUT_MB", "1")
    with pytest.raises(InputError, match=r"decodes to 200,000 cells .* raise it with MATHREEL_MAX_INPUT_MB"):
        load_records(path)


def _answer_is_file(path: Path, mb: int, unit: str = "The answer is ") -> Path:
    """A Video-MME run of 12 answers, one of them `mb` MB of "The answer is " (or `unit`) repeated."""
    from helpers import badinputs

    records = badinputs.run_records(12, 7)
    records[0]["response"] = unit * (mb * 1_000_000 // len(unit))
    path.write_bytes(badinputs.jsonl(records))
    return path


def test_a_response_of_answer_phrases_is_costed_by_its_phrases_not_its_bytes(tmp_path):
    """3 MB of "The answer is ": the letter reader weighs each phrase (about 2 s of CPU), where 3 MB of ordinary
    results take 0.45 s; by its bytes alone it was cheap and ran in the server's thread."""
    from mathreel.core.cost import SECONDS_PER_ANSWER_WORD

    cost = upload_cost(_answer_is_file(tmp_path / "answer-is.jsonl", 3))
    assert cost.kind == "jsonl" and cost.refusal is None and not cost.cheap
    assert cost.seconds >= SECONDS_PER_ANSWER_WORD * 3_000_000 // 14
    assert not upload_cost(_answer_is_file(tmp_path / "option.jsonl", 3, "the correct option is (B) ")).cheap
    ordinary = tmp_path / "ordinary.jsonl"
    line = json.dumps({"question_id": "q", "response": "Reasoning. " * 40 + "The answer is B.", "answer": "B"})
    ordinary.write_text((line + "\n") * 4_000)  # about 2 MB, as real 2,700-answer runs are
    plain = upload_cost(ordinary)
    assert plain.cheap and plain.seconds == round(0.05 + 0.13 * plain.work_bytes / 1024 / 1024, 3)


def test_that_file_is_scored_in_a_child_on_the_server_and_scores_the_same(tmp_path, monkeypatch):
    import mathreel.webapp.scored_runs as scored_runs
    from mathreel.core.scoring.files import ScoreRequest, score_file
    from mathreel.webapp.isolate import Budget
    from mathreel.webapp.scored_runs import ScoreOptions, score_path

    path = _answer_is_file(tmp_path / "answer-is.jsonl", 3)
    children = []
    real = scored_runs.run_isolated

    def spy(fn, args, budget, source):
        children.append(source)
        return real(fn, args, budget, source)

    monkeypatch.setattr(scored_runs, "run_isolated", spy)
    served = score_path(str(path), ScoreOptions(budget=Budget(seconds=600, memory_mb=2048)))
    assert children == [str(path)]
    local = score_file(ScoreRequest(str(path)))
    assert [(r.question_id, r.status) for r in served.rows] == [(r.question_id, r.status) for r in local.rows]
