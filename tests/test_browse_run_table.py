"""Browse's question table follows the walked run: with a run chosen (or opened from Score) it lists that run's
questions, with the file's own question text, its status and reading, so the server's demo questions that share
an id are not shown beside the user's answers; with no run it lists the server's questions."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from mathreel.core.data import load_dataset
from mathreel.core.results.recorded import RecordedPrompt
from mathreel.webapp.browse_file import IN_PROMPT, NOT_RECORDED, PROMPT_MARK, line_before_options, question_from_prompt
from mathreel.webapp.browse_table import TABLE_LABEL, listed_questions, question_table
from mathreel.webapp.browse_walk import run_place
from mathreel.webapp.scored_runs import Run, ScoreOptions, score_path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "data" / "results" / "videomme_template.json"  # real Video-MME questions, not the demo's


def _run(path: Path) -> Run:
    return Run(path.name, score_path(str(path), ScoreOptions()), str(path))


def test_a_followed_run_lists_its_own_questions_not_the_servers():
    dataset = load_dataset("videomme", "mcq")
    run = _run(TEMPLATE)
    server, label = listed_questions(dataset, run.key, runs=[run], walk=None)
    assert label == TABLE_LABEL and list(server["ID"]) == list(question_table(dataset)["ID"])
    mine, label = listed_questions(dataset, run.key, runs=[run], walk={"run": run.name})
    assert run.name in label and "Questions of run" in label
    assert list(mine["ID"]) == [row.question_id for row in run.report.rows]
    first = mine.iloc[0]
    # The file's question, not the demo question that has the same id ("Which runner crosses the finish line")
    assert first["ID"] == "001-1" and first["Question"].startswith("When demonstrating the Germany modern")
    assert dataset.question("001-1").question not in set(mine["Question"])
    assert {"Status", "Extracted", "Gold", "Duration", "Response"} <= set(mine.columns)


def test_the_run_table_searches_and_filters_the_runs_answers():
    dataset = load_dataset("videomme", "mcq")
    run = _run(TEMPLATE)
    walk = {"run": run.name}
    found, _ = listed_questions(dataset, run.key, "christmas", [run], walk)
    assert list(found["ID"]) == ["001-1"]
    durations = {row.dims.get("duration") for row in run.report.rows}
    value = sorted(d for d in durations if d)[0]
    filtered, _ = listed_questions(dataset, run.key, "", [run], walk, {"duration": value})
    assert len(filtered) == sum(row.dims.get("duration") == value for row in run.report.rows) > 0


def test_a_run_of_another_benchmark_leaves_the_servers_table():
    run = _run(TEMPLATE)
    dataset = load_dataset("videomathqa", "mcq")
    frame, label = listed_questions(dataset, "videomathqa:mcq", runs=[run], walk={"run": run.name})
    assert label == TABLE_LABEL and list(frame["ID"]) == list(question_table(dataset)["ID"])


def test_a_file_without_question_text_says_where_to_read_it(tmp_path):
    path = tmp_path / "ids.jsonl"
    path.write_text('{"question_id": "001-1", "response": "B", "answer": "C", "duration": "short"}\n')
    run = Run(path.name, score_path(str(path), ScoreOptions(benchmark_key="videomme:mcq")), str(path))
    frame, _ = listed_questions(load_dataset("videomme", "mcq"), run.key, runs=[run], walk={"run": run.name})
    # an id alone does not make it the server's question (the join rule), so no demo text stands in for it
    assert frame.iloc[0].to_dict() == {
        "ID": "001-1",
        "Question": NOT_RECORDED,
        "Status": "wrong",
        "Extracted": "B",
        "Gold": "C",
        "Duration": "short",
        "Response": "B",
    }


def test_a_question_kept_only_in_the_recorded_prompt_says_so(tmp_path):
    prompt = "Select the best answer.\nWhat is shown?\nA. x\nB. y\nC. z\nD. w\nThe best answer is:"
    # the shape of an lmms-eval 0.4 Video-MME samples log: the question only inside `input`
    score = {"question_id": "001-1", "duration": "short", "pred_answer": "B", "answer": "C"}
    line = {"doc_id": 0, "target": "C", "filtered_resps": ["B."], "videomme_perception_score": score, "input": prompt}
    path = tmp_path / "prompted.jsonl"
    path.write_text(json.dumps(line) + "\n")
    run = Run(path.name, score_path(str(path), ScoreOptions()), str(path))
    assert run.report.rows[0].recorded.prompts  # the file kept its prompt
    frame, _ = listed_questions(load_dataset("videomme", "mcq"), run.key, runs=[run], walk={"run": run.name})
    assert frame.iloc[0]["Question"] == PROMPT_MARK + "What is shown?"
    assert line_before_options("Answer with a letter.") == "" and line_before_options("A. x\nB. y") == ""
    no_options = run.report.rows[0].recorded._replace(prompts=(RecordedPrompt("input", "Say anything."),))
    assert question_from_prompt(SimpleNamespace(recorded=no_options)) == IN_PROMPT


def test_choosing_a_run_of_another_benchmark_takes_browse_to_it():
    """A Video-MME run chosen in the reading bar while Browse shows VideoMathQA: Browse moves to Video-MME at the
    first answer of the walked list (it stayed on VideoMathQA with a note to switch by hand); on the run's own
    benchmark the question shown stays."""
    run = _run(TEMPLATE)
    walk = {"run": run.name, "status": "all"}
    key, target = run_place([run], walk, "videomathqa:mcq", {"key": "videomathqa:mcq", "ref": "q003"})
    assert (key, target) == (run.key, {"ref": run.report.rows[0].question_id})
    wrong = {**walk, "status": "wrong"}
    first_wrong = next(r.question_id for r in run.report.rows if r.status == "wrong")
    assert run_place([run], wrong, "videomathqa:mcq", {})[1] == {"ref": first_wrong}
    assert run_place([run], walk, run.key, {"key": run.key, "ref": "002-1"}) == (run.key, {"ref": "002-1"})
    assert run_place([run], {"run": ""}, "videomathqa:mcq", {"ref": "q003"}) == ("videomathqa:mcq", {"ref": "q003"})
