"""The join rule: a result file's answer is joined to a dataset question only when the question the file recorded
is that question (text and options, or the recorded prompt), never by id alone.

Every file is written in the layout its harness writes: an lmms-eval >= 0.4 Video-MME log (no `doc`, the prompt
in `input`, ids `NNN-k` that collide with the demo set's; tests/helpers/lmms_logs.py), the Video-MME result
template in both generations, MathVerse's official output, and a plain id-only file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from helpers.jsonl import write_jsonl
from helpers.lmms_logs import OPTION_PROMPT, REAL, colliding_log, demo_videomme, lmms04_line

from mathreel.core.data import Dataset, demo_dir, load_dataset
from mathreel.core.results import read_results
from mathreel.core.results.question_join import QuestionJoin, join_question, match_how
from mathreel.core.results.question_key import option_keys, text_key
from mathreel.core.results.recorded import FileQuestion
from mathreel.core.scoring import score
from mathreel.core.scoring.row import ScoredRow


def join_rows(rows: Iterable[ScoredRow], dataset: Dataset) -> dict[str, QuestionJoin]:
    """`join_question` for every answered row of a scored file, by question id."""
    return {
        row.question_id: join_question(row.recorded, row.question_id, dataset)
        for row in rows
        if row.status != "missing"
    }


def retyped_demo_log(path: Path) -> Path:
    """A log of the demo's own Video-MME questions, prompts re-typed: other spacing, case and option lettering."""
    lines = []
    for i, question in enumerate(demo_videomme().questions):
        options = [f"({o[0]}) {o[3:].upper()}" for o in question.options]
        text = "  ".join(question.question.lower().split(" "))
        lines.append(lmms04_line(i, question.question_id, text, options, question.answer, question.answer + "."))
    return write_jsonl(path, lines)


# -- the fingerprint ---------------------------------------------------------------------------------------------


def test_text_key_survives_spacing_case_punctuation_and_latex_spacing():
    assert text_key("What is  x,\nif $x\\,=\\,2$?") == text_key("what is X if $x = 2$") == "whatisxifx2"
    assert text_key("Ｆｉｎｄ　Ｌ．") == text_key("find l")  # full-width forms (NFKC)
    assert text_key("\\left( a \\right) \\quad b") == text_key("(a) b")
    assert text_key("Which runner wins?") != text_key("Which runner loses?")


def test_option_keys_ignore_the_lettering_but_not_the_order_or_the_words():
    lettered = ("A. 30°", "B. 60°")
    assert option_keys(lettered) == option_keys(("(A) 30°", "(B) 60°")) == option_keys(("A: 30°", "B) 60°"))
    assert option_keys(lettered) == option_keys(("30°", "60°"))  # a bare list of texts
    assert option_keys(("U.S. Army", "France")) == (text_key("U.S. Army"), "france")  # not letters: kept whole
    assert option_keys(lettered) != option_keys(("A. 60°", "B. 30°"))


# -- ids that collide with the demo's ------------------------------------------------------------------------------


def test_a_log_whose_ids_collide_with_the_demo_is_never_joined_to_the_demo_questions(tmp_path):
    result = read_results(colliding_log(tmp_path / "20251106_samples_videomme.jsonl"))
    assert [p.question.question_id for p in result.predictions] == list(REAL)
    assert all(p.recorded.join == "file" and p.recorded.prompts[0].field == "input" for p in result.predictions)
    joins = join_rows(score(result).rows, demo_videomme())
    assert set(joins) == set(REAL) and not any(join.on_server for join in joins.values())
    assert all("is not the server's question" in join.note for join in joins.values())


def test_the_colliding_log_with_the_demo_as_annotations_joins_nothing_and_says_why(tmp_path):
    log = colliding_log(tmp_path / "samples_videomme.jsonl")
    report = score(read_results(log, annotations=demo_dir()))
    assert report.mismatched == list(REAL)
    assert not [row for row in report.rows if row.status != "missing"]  # no answer scored against a demo question
    assert report.overall.n == len(demo_videomme().questions) and report.overall.correct == 0
    assert any("differ from the annotations' questions of the same id" in w for w in report.warnings)
    assert any("answers are to other questions than the annotations'" in w for w in report.warnings)
    assert report.to_dict()["mismatched_ids"] == list(REAL)


def test_a_log_of_the_demo_questions_retyped_joins_by_its_recorded_prompt(tmp_path):
    log = retyped_demo_log(tmp_path / "samples_videomme.jsonl")
    dataset = demo_videomme()
    joins = join_rows(score(read_results(log)).rows, dataset)
    assert {join.how for join in joins.values()} == {"prompt"}
    assert all(join.question.question_id == qid for qid, join in joins.items())
    annotated = score(read_results(log, annotations=demo_dir()))
    assert annotated.joins() == {"prompt": len(dataset.questions)} and not annotated.mismatched
    assert annotated.overall.correct == len(dataset.questions)


def test_a_recorded_prompt_that_holds_another_option_does_not_match(tmp_path):
    question = demo_videomme().questions[0]
    options = list(question.options)
    options[2] = "C. Purple."
    log = write_jsonl(
        tmp_path / "samples_videomme.jsonl",
        [lmms04_line(0, question.question_id, question.question, options, "C", "C.")],
    )
    join = join_rows(score(read_results(log)).rows, demo_videomme())[question.question_id]
    assert not join.on_server


# -- the Video-MME template, both generations -----------------------------------------------------------------------


def template(questions, options_key: str = "options", retype=lambda text: text) -> list[dict]:
    """The current template (duration, domain, sub_category, options), or the first one (choices) with
    `options_key="choices"`, holding `questions` with their gold and a response."""
    videos: dict[str, dict] = {}
    for question in questions:
        video = videos.setdefault(
            question.video_id,
            {
                "video_id": question.video_id,
                "duration": question.dims["duration"],
                "domain": question.dims["domain"],
                "sub_category": question.dims["sub_category"],
                "questions": [],
            },
        )
        video["questions"].append(
            {
                "question_id": question.question_id,
                "task_type": question.dims["task_type"],
                "question": retype(question.question),
                options_key: list(question.options),
                "answer": question.answer,
                "response": question.answer,
            }
        )
    return list(videos.values())


def test_a_template_of_the_demo_questions_joins_by_text_and_a_changed_question_does_not(tmp_path):
    dataset = demo_videomme()
    videos = template(dataset.questions, retype=lambda text: text.upper().replace(" ", "   "))
    videos[1]["questions"][0]["question"] = "How much water does the ingredient list on screen call for?"
    changed = videos[1]["questions"][0]["question_id"]
    path = tmp_path / "output_test_template.json"
    path.write_text(json.dumps(videos), encoding="utf-8")
    joins = join_rows(score(read_results(path)).rows, dataset)
    assert {qid for qid, join in joins.items() if not join.on_server} == {changed}
    assert {join.how for qid, join in joins.items() if qid != changed} == {"text"}
    annotated = score(read_results(path, annotations=demo_dir()))
    assert annotated.mismatched == [changed] and annotated.joins() == {"text": len(dataset.questions) - 1}


def test_first_generation_choices_given_as_bare_texts_match_lettered_options(tmp_path):
    dataset = demo_videomme()
    videos = template(dataset.questions, options_key="choices")
    for video in videos:
        for question in video["questions"]:
            question["choices"] = [option[3:] for option in question["choices"]]  # "Red." for "A. Red."
    path = tmp_path / "template_gen1.json"
    path.write_text(json.dumps(videos), encoding="utf-8")
    joins = join_rows(score(read_results(path)).rows, dataset)
    assert all(join.on_server and join.how == "text" for join in joins.values())


# -- files without question text -----------------------------------------------------------------------------------


def test_an_id_only_file_joins_by_id_with_the_annotations_and_says_so(tmp_path):
    dataset = demo_videomme()
    path = write_jsonl(
        tmp_path / "answers.jsonl", [{"question_id": q.question_id, "response": q.answer} for q in dataset.questions]
    )
    report = score(read_results(path, benchmark="videomme", annotations=demo_dir()))
    assert report.joins() == {"id": len(dataset.questions)} and report.overall.correct == len(dataset.questions)
    joins = join_rows(report.rows, dataset)
    assert all(join.how == "id" and "joined by id alone" in join.note for join in joins.values())


def test_an_answer_whose_file_records_no_question_text_joins_by_id_only_when_asked(tmp_path):
    question = demo_videomme().questions[0]
    path = write_jsonl(
        tmp_path / "answers.jsonl",
        [{"question_id": question.question_id, "answer": "C", "response": "C", "duration": "short"}],
    )
    row = score(read_results(path, benchmark="videomme")).rows[0]
    refused = join_question(row.recorded, row.question_id, demo_videomme())
    assert not refused.on_server and "records no question text" in refused.note
    asked = join_question(row.recorded, row.question_id, demo_videomme(), by_id=True)
    assert asked.question is not None and asked.how == "id" and "by id alone as asked" in asked.note


def test_an_id_the_server_does_not_have_is_not_on_the_server(tmp_path):
    row = score(read_results(colliding_log(tmp_path / "samples_videomme.jsonl"))).rows[0]
    missing = join_question(row.recorded, "900-3", demo_videomme())
    assert not missing.on_server and "not in the server's Video-MME set" in missing.note


# -- MathVerse -----------------------------------------------------------------------------------------------------


def mathverse_output(dataset, image_of=lambda q: q.extra["image"]) -> list[dict]:
    """The official output's current keys for every demo problem version, with a model answer."""
    return [
        {
            "sample_index": q.question_id,
            "problem_index": q.extra["problem_index"],
            "problem_version": q.dims["problem_version"],
            "question": q.question,
            "image": image_of(q),
            "answer": q.answer,
            "question_type": q.dims["question_type"],
            "metadata": {"subject": q.dims.get("subject", ""), "subfield": q.dims.get("subfield", "")},
            "query_wo": q.extra["query_wo"],
            "query_cot": q.extra["query_cot"],
            "model_answer": q.answer,
        }
        for q in dataset.questions
    ]


def test_mathverse_versions_join_by_text_and_image_and_keep_both_recorded_queries(tmp_path):
    dataset = load_dataset("mathverse", data_dir=demo_dir())
    records = mathverse_output(dataset, lambda q: "other/" + q.extra["image"].split("/")[-1])
    vision_only = next(r for r in records if r["problem_version"] == "Vision Only")
    vision_only["image"] = "images/image_9_vo.png"  # another problem's diagram under this id
    path = tmp_path / "output_testmini.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    report = score(read_results(path))
    assert [p.field for p in report.rows[0].recorded.prompts] == ["query_wo", "query_cot"]
    joins = join_rows(report.rows, dataset)
    assert {qid for qid, join in joins.items() if not join.on_server} == {vision_only["sample_index"]}


def test_the_old_mathverse_prompt_field_is_recorded_with_the_question_it_was_sent_with(tmp_path):
    record = {
        "problem_id": 0,
        "image": "0.png",
        "question": "Find L.",
        "answer": "14",
        "prompt": "Please first perform reasoning, and then answer the question.\nQuestion: ",
        "problem_version": "Vision Dominant",
        "category": {"subject": "Solid Geometry"},
        "question_type": "free-form",
        "model_answer": "L = 14",
    }
    path = tmp_path / "output_modelname.json"
    path.write_text(json.dumps([record]), encoding="utf-8")
    prompt = read_results(path).predictions[0].recorded.prompts[0]
    assert prompt.field == "prompt" and prompt.text.endswith("Question: Find L.")


@pytest.mark.parametrize("how", ["text", "prompt"])
def test_match_how_names_how_the_question_was_recognised(how):
    question = demo_videomme().questions[0]
    if how == "text":
        recorded = FileQuestion(question)
    else:
        from mathreel.core.question import Question
        from mathreel.core.results.recorded import RecordedPrompt

        bare = Question("videomme", "mcq", question.question_id, "", "C")
        prompt = "\n".join([OPTION_PROMPT, question.question, *question.options, "The best answer is:"])
        recorded = FileQuestion(bare, (RecordedPrompt("input", prompt),))
    from mathreel.core.benchmarks import get_benchmark

    assert match_how(recorded, question, get_benchmark("videomme")) == how
