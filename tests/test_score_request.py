"""`score_file(ScoreRequest)`: the one call `mathreel score [--judge J --reviews R]` and the page make, so both give
the same numbers with the same joins; the rule reading stays beside the judge's on each row; and the request holds
only plain values, so sending it to a scoring child never makes the child import the caller's modules."""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.errors import InputError
from mathreel.core.judge.model import read_judgments
from mathreel.core.review import read_reviews
from mathreel.core.scoring.files import ScoreRequest, score_file

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
RESULTS = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")


def cli_json(*args: str) -> dict:
    done = subprocess.run([MATHREEL, "score", "--json", "--rows", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_page_call_gives_the_cli_numbers_with_judge_and_reviews():
    cli = cli_json(str(RESULTS), "--judge", str(JUDGMENTS), "--reviews", str(REVIEWS))
    report = score_file(ScoreRequest(str(RESULTS), judgments=str(JUDGMENTS), reviews=(str(REVIEWS),)))
    assert report.to_dict(rows=True) == cli
    assert (cli["overall"]["correct"], cli["overall"]["n"]) == (6, 12)  # the rule reading alone: 5 of 12
    assert any(line.startswith("reviews: ") for line in cli["detected"])


def test_judgments_and_reviews_held_in_memory_count_as_their_files_do():
    from_files = score_file(ScoreRequest(str(RESULTS), judgments=str(JUDGMENTS), reviews=(str(REVIEWS),)))
    held = score_file(
        ScoreRequest(
            str(RESULTS),
            judgments=read_judgments(JUDGMENTS),
            judgments_source="run B judged",
            reviews=tuple(read_reviews(REVIEWS)),
        )
    )
    assert held.to_dict(rows=True)["overall"] == from_files.to_dict(rows=True)["overall"]
    assert [r.to_dict() for r in held.rows] == [r.to_dict() for r in from_files.rows]
    notes = [n.replace(str(JUDGMENTS), "run B judged") for n in from_files.detected]
    assert held.detected == notes


def test_each_judged_row_keeps_the_rule_reading_beside_the_judges():
    plain = {row.question_id: row for row in score_file(ScoreRequest(str(RESULTS))).rows}
    judged = score_file(ScoreRequest(str(RESULTS), judgments=str(JUDGMENTS)))
    changed = [row for row in judged.rows if row.status != plain[row.question_id].status]
    assert changed, "the demo judge reads an answer the rules left unparsed"
    for row in judged.rows:
        before = plain[row.question_id]
        assert row.rule is not None and row.method.startswith("judge")
        assert (row.rule.extracted, row.rule.method, row.rule.status) == (
            before.extracted,
            before.method,
            before.status,
        )
    assert all(row.rule is None for row in plain.values())
    rows = cli_json(str(RESULTS), "--judge", str(JUDGMENTS))["rows"]
    assert rows[0]["rule"] == judged.rows[0].rule.to_dict()


def test_reviews_without_judgments_are_refused_in_one_line():
    with pytest.raises(InputError, match="reviews correct a judge's verdicts"):
        ScoreRequest(str(RESULTS), reviews=(str(REVIEWS),))


def test_the_report_carries_the_run_settings_so_nothing_reads_the_file_again():
    report = score_file(
        ScoreRequest(str(DEMO / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"), default_frames=16)
    )
    used = report.run_settings
    assert used is not None and used.settings.cot and used.settings.num_frames == 16
    assert "task name 'videomathqa_mcq_cot'" in used.lines()[0]


class UploadPath(str):
    """A path that is a str subclass of the caller's own, as Gradio hands uploads over (gradio.utils.NamedString)."""

    def __init__(self, value: str) -> None:
        self.name = value


def pickled_modules(value: object) -> set[str]:
    """The modules unpickling `value` imports (every class it names), found by unpickling it."""
    modules: set[str] = set()

    class Recording(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> object:
            modules.add(module)
            return super().find_class(module, name)

    Recording(io.BytesIO(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))).load()
    return modules


def test_a_request_made_from_a_str_subclass_pickles_to_plain_values():
    upload = UploadPath(str(RESULTS))
    assert __name__ in pickled_modules((upload,))  # what the page used to send: the caller's class travels
    request = ScoreRequest(
        upload,
        judgments=UploadPath(str(JUDGMENTS)),
        reviews=(UploadPath(str(REVIEWS)),),
        annotations=UploadPath(str(DEMO)),
    )
    assert pickled_modules(request) == {"mathreel.core.scoring.files"}
    assert type(request.path) is str and type(request.judgments) is str and type(request.reviews[0]) is str
    assert score_file(pickle.loads(pickle.dumps(request))).overall.correct == 6


def test_a_scored_report_pickles_with_core_classes_only(tmp_path):
    report = score_file(ScoreRequest(str(RESULTS), judgments=str(JUDGMENTS)))
    assert all(
        module.startswith("mathreel.core.") or module in ("builtins", "copyreg") for module in pickled_modules(report)
    )
