"""An answer made readable without its dataset (the file-only view) and through the join rule (the dataset's
question when the answer belongs to it): question, options with gold and pick, the recorded prompt marked as
recorded, the response with its extraction, the rule reading beside the judge's, and the judge's card."""

from __future__ import annotations

from pathlib import Path

from helpers.lmms_logs import REAL, colliding_log, demo_videomme

from mathreel.core.answer_view import answer_view, file_view
from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.judge.model import read_judgments
from mathreel.core.results import read_results
from mathreel.core.results.question_join import NOT_ON_SERVER
from mathreel.core.scoring import score
from mathreel.core.scoring.files import ScoreRequest, score_file

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
RUN_A = DEMO / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
RUN_B = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGMENTS_B = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"


def test_every_answer_of_a_log_can_be_read_without_its_dataset(tmp_path):
    report = score(read_results(colliding_log(tmp_path / "samples_videomme.jsonl")))
    views = [file_view(row, report.benchmark) for row in report.rows]
    assert [v.question_id for v in views] == list(REAL)
    for view, (question, options, gold) in zip(views, REAL.values(), strict=True):
        assert not view.on_server and NOT_ON_SERVER in view.notes
        assert view.prompts[0].recorded and view.prompts[0].label == "recorded in the file (input)"
        assert question in view.prompts[0].text and view.question == ""  # the log keeps it in the prompt only
        assert view.options_source == "prompt" and [o.text for o in view.options] == [o[3:] for o in options]
        assert [o.letter for o in view.options if o.gold] == [gold] and view.gold == gold
        assert [o.letter for o in view.options if o.picked] == ["B"] and view.extracted == "B"
        assert view.response == "B." and view.explanation and view.status in ("correct", "wrong")


def test_through_the_join_rule_a_colliding_answer_stays_with_its_own_question(tmp_path):
    row = score(read_results(colliding_log(tmp_path / "samples_videomme.jsonl"))).rows[0]
    view = answer_view(row, demo_videomme())
    assert not view.on_server and view.join.question is None
    assert "is not the server's question 001-1" in view.notes[0] and NOT_ON_SERVER in view.notes
    demo_question = demo_videomme().question("001-1")
    assert demo_question.question not in view.prompts[0].text
    assert {o.text for o in view.options}.isdisjoint(o[3:] for o in demo_question.options)


def test_an_answer_that_belongs_to_the_servers_question_is_shown_with_it():
    dataset = load_dataset("videomathqa", "mcq", data_dir=demo_dir())
    row = score_file(ScoreRequest(str(RUN_A))).rows[0]
    view = answer_view(row, dataset)
    assert view.on_server and view.join.question is dataset.question(row.question_id)
    assert view.question_source == view.options_source == "server"
    assert view.join.how == "text" and "matched by question text and options" in view.notes[0]
    assert view.prompts[0].field == "arguments[0]" and view.prompts[0].recorded
    assert [o.letter for o in view.options if o.gold] == [row.gold]


def test_a_file_view_of_a_mathverse_answer_names_the_diagram_not_a_video():
    report = score_file(ScoreRequest(str(DEMO / "results" / "mathverse_synthetic-model-a_output.json")))
    view = file_view(report.rows[0], "mathverse")
    assert "the diagrams for these questions are not on this server" in view.notes
    assert view.question and view.options_source == "file" and len(view.prompts) == 2


def test_the_judge_card_and_the_rule_reading_sit_beside_the_judged_answer():
    report = score_file(ScoreRequest(str(RUN_B), judgments=str(JUDGMENTS_B)))
    judgments = read_judgments(JUDGMENTS_B)
    rescued = next(row for row in report.rows if row.rule is not None and row.rule.status == "unparsed")
    view = file_view(rescued, "videomathqa", judgments)
    assert view.rule.status == "unparsed" and view.status == "correct" and view.method.startswith("judge")
    assert view.judge is not None and view.judge.question_id == rescued.question_id
    assert view.judge.step_score is not None and "steps" in view.judge.by_task


def test_a_judgment_of_another_response_to_the_question_is_not_this_answers_card():
    judgments = read_judgments(JUDGMENTS_B)
    row_a = score_file(ScoreRequest(str(RUN_A))).rows[0]  # run A's response to q001, judged only in run B's file
    assert file_view(row_a, "videomathqa", judgments).judge is None
