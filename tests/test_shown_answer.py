"""The one rule for the question an answer is shown with, at the handlers (no browser): Browse's page for a walked
answer (the reading walk, Score's drill-down and the Judge tab's "open in Browse" all call it), the runs side by
side, the frames previewed on a switch, the Judge tab's question, and Ask following Browse; the prompt the file
recorded, the prompt styles, and chain of thought and subtitles only where the benchmark has them.

Expected questions come from the files and the demo set's annotations, never constants.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers.colliding import SAME_ID, colliding_file, demo_ids, file_questions

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.errors import MathReelError
from mathreel.core.prompt_styles import prompt_choices
from mathreel.core.view import ViewSettings
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_panels import PAGE_OUTPUTS, prompt_controls
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads
from mathreel.webapp.shown_answer import RECORDED, fit_view, judged_join, style_choices

VIDEOMME = "videomme:mcq"


class Datasets:
    """A DatasetCache stand-in over one data directory (the real load_dataset)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def get(self, benchmark: str, mode: str | None):
        return load_dataset(benchmark, mode, self.root)


def page_of(handlers: BrowseHandlers, key: str, ref: str, runs=None, walk=None, view: ViewSettings | None = None):
    values = handlers.show(key, ref, view or ViewSettings(2, style=RECORDED), None, runs, walk)
    return dict(zip(PAGE_OUTPUTS, values, strict=True))


def value(update):
    return update["value"] if isinstance(update, dict) and "value" in update else update


@pytest.fixture
def colliding(tmp_path):
    path = colliding_file(tmp_path / "videomme_template_2024.json")
    runs, errors = score_uploads([str(path)], ScoreOptions())
    assert errors == [] and runs[0].key == VIDEOMME
    return path, runs


def walk_all(handlers: BrowseHandlers, key: str, runs, walk) -> list[dict]:
    """Every page of the walked list, stepping with next from the first until it stops moving."""
    first = handlers.step_target({"key": key, "ref": ""}, runs, walk, 1)
    pages, ref = [], first
    while ref is not None:
        page = page_of(handlers, key, ref, runs, walk)
        pages.append(page)
        following = handlers.step_target(page["state"], runs, walk, 1)
        ref = None if following == ref else following
    return pages


def test_no_answer_of_a_colliding_file_is_drawn_under_a_demo_question(colliding):
    path, runs = colliding
    demo = load_dataset("videomme", None, demo_dir())
    demo_texts = {q.question_id: q.question for q in demo.questions}
    own = file_questions(path)
    assert set(demo_texts) & set(own) == set(demo_ids())  # every demo id collides with one of the file's
    handlers = BrowseHandlers(Datasets(demo_dir()))
    walk = {"run": path.name, "status": "all"}
    pages = walk_all(handlers, VIDEOMME, runs, walk)
    assert [p["state"]["ref"] for p in pages] == list(own)  # every answer is reached: no dead end
    for page in pages:
        ref = page["state"]["ref"]
        header = page["header"]
        if ref == SAME_ID:  # the one answer to the demo's own question, written another way: joined by text
            assert page["state"]["on_server"] and demo_texts[ref] in header
            assert "matched by question text and options" in header and value(page["frames"])
            continue
        assert page["state"]["on_server"] is False
        assert own[ref] in header.replace("\\", "")  # the file's own question (Markdown-escaped)
        assert "read from the file" in header and "not on this server" in header
        if ref in demo_texts:
            assert demo_texts[ref] not in header  # never the demo's question of that id
            assert "is not the server's question" in header
        assert value(page["frames"]) in ([], None) and value(page["video"]) in (None, {})
        assert f"{len(pages)}" in page["position"]


def test_the_switch_previews_no_demo_frames_for_an_answer_read_from_its_file(colliding):
    path, runs = colliding
    handlers = BrowseHandlers(Datasets(demo_dir()))
    walk = {"run": path.name, "status": "all"}
    assert handlers.preview_ref(VIDEOMME, "001-1", runs, walk) is None  # the demo's 001-1 is another question
    assert handlers.preview_ref(VIDEOMME, SAME_ID, runs, walk) == SAME_ID
    assert handlers.preview_ref(VIDEOMME, "001-1", runs, None) == "001-1"  # no answer walked: the demo question


def test_runs_side_by_side_show_only_answers_to_the_same_question(colliding):
    path, mine = colliding
    demo_run = demo_dir() / "results" / "videomme_synthetic-model-a_results.json"
    theirs, errors = score_uploads([str(demo_run)], ScoreOptions())
    assert errors == []
    runs = [*theirs, *mine]
    handlers = BrowseHandlers(Datasets(demo_dir()))
    page = page_of(handlers, VIDEOMME, "001-1", runs, {"run": demo_run.name, "status": "all"})
    compare = value(page["compare"])
    assert "is to another question" in compare and file_questions(path)["001-1"] not in compare
    page = page_of(handlers, VIDEOMME, SAME_ID, runs, {"run": demo_run.name, "status": "all"})
    assert "another question" not in value(page["compare"])  # both answer the demo's question 002-1


def test_every_answer_is_read_from_its_file_when_the_server_has_no_such_benchmark(colliding, tmp_path):
    path, runs = colliding
    root = tmp_path / "data"
    shutil.copytree(demo_dir() / "videomathqa", root / "videomathqa")  # no Video-MME on this server
    handlers = BrowseHandlers(Datasets(root))
    with pytest.raises(MathReelError):
        handlers.show(VIDEOMME, "001-1", ViewSettings(2), None)  # nothing walked: the clear error, as before
    walk = {"run": path.name, "status": "all"}
    pages = walk_all(handlers, VIDEOMME, runs, walk)
    own = file_questions(path)
    assert [p["state"]["ref"] for p in pages] == list(own)
    for page in pages:
        ref = page["state"]["ref"]
        assert own[ref] in page["header"].replace("\\", "") and "no Video-MME questions" in page["header"]
        assert "gold" in value(page["response"]) and page["prompt"]  # verdict line, a prompt built from the file
    assert handlers.first_ref(VIDEOMME, "006-3", runs, walk) == "006-3"  # a link to it opens it


def test_mathverse_rows_open_with_the_prompt_the_file_recorded():
    output = demo_dir() / "results" / "mathverse_synthetic-model-a_output.json"
    records = json.loads(output.read_text())
    runs, errors = score_uploads([str(output)], ScoreOptions())
    assert errors == []
    handlers = BrowseHandlers(Datasets(demo_dir()))
    walk = {"run": output.name, "status": "all"}
    pages = walk_all(handlers, runs[0].key, runs, walk)
    assert len(pages) == len(records)
    first = pages[0]
    assert first["prompt"].startswith("[query_wo]\n" + records[0]["query_wo"])
    assert "Prompt recorded in the file" in first["prompt_note"] and "`query_wo`" in first["prompt_note"]
    chosen = page_of(handlers, runs[0].key, pages[0]["state"]["ref"], runs, walk, ViewSettings(None, style="boxed"))
    assert "built by MathReel" in chosen["prompt_note"] and "style boxed" in chosen["prompt_note"]
    assert chosen["prompt"] != first["prompt"]


def test_an_lmms_eval_prompt_is_shown_as_recorded_and_a_style_as_built():
    log = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
    recorded = json.loads(log.read_text().splitlines()[0])["arguments"][0]
    runs, _ = score_uploads([str(log)], ScoreOptions())
    handlers = BrowseHandlers(Datasets(demo_dir()))
    walk = {"run": log.name, "status": "all"}
    ref = runs[0].report.rows[0].question_id
    page = page_of(handlers, runs[0].key, ref, runs, walk)
    assert page["prompt"] == recorded and "Prompt recorded in the file" in page["prompt_note"]
    assert "reproduces it" in page["prompt_note"]
    built = page_of(handlers, runs[0].key, ref, runs, walk, ViewSettings(2, style="best_answer"))
    question = load_dataset("videomathqa", "mcq", demo_dir()).question(ref)
    assert built["prompt"] == get_benchmark("videomathqa").build_prompt(question, style="best_answer")
    assert "style best\\_answer" in built["prompt_note"] or "style best_answer" in built["prompt_note"]


def test_every_cli_prompt_style_is_offered_and_cot_only_where_the_benchmark_has_it():
    from mathreel.core.benchmarks import BENCHMARKS

    for name in BENCHMARKS:
        offered = [v for _, v in style_choices(name)]
        assert offered == [RECORDED, *get_benchmark(name).prompt_styles]
    cot, subs, _full, style = prompt_controls(VIDEOMME, True, True, False, "best_answer")
    assert cot["interactive"] is False and cot["value"] is False  # Video-MME has no chain of thought
    assert subs["interactive"] is True and style["value"] == "best_answer"
    cot, *_ = prompt_controls("videomathqa:mcq", True, False, False, "qwen3_vl")
    assert cot["interactive"] is True and cot["value"] is True
    assert prompt_controls("videomathqa:mcq", True, False, False, "qwen3_vl")[3]["value"] == RECORDED
    fitted, notes = fit_view(ViewSettings(4, cot=True, with_subtitles=True), "mathverse")
    assert (fitted.cot, fitted.with_subtitles) == (True, False) and "no subtitles" in notes[0]


def test_switching_to_video_mme_with_chain_of_thought_ticked_shows_the_new_question():
    handlers = BrowseHandlers(Datasets(demo_dir()))
    demo = load_dataset("videomme", None, demo_dir())
    page = page_of(handlers, VIDEOMME, demo.questions[0].question_id, view=ViewSettings(2, cot=True))
    assert demo.questions[0].question in page["header"] and page["state"]["ref"] == demo.questions[0].question_id
    assert "no chain-of-thought form" in page["prompt_note"]
    assert page["prompt"] == get_benchmark("videomme").build_prompt(demo.questions[0])


def test_the_judge_tab_shows_a_question_only_through_a_result_file_that_records_it(tmp_path):
    from mathreel.webapp.judged_runs import load_demo_runs

    demo = load_dataset("videomathqa", "mcq", demo_dir())
    for run in load_demo_runs():
        if (run.benchmark, run.mode) != ("videomathqa", "mcq"):
            continue
        judged = run.judgments[0]
        join = judged_join(demo, judged.question_id, judged.response)
        assert join.question == demo.question(judged.question_id)  # the demo's own result files hold it
    unheld = judged_join(demo, judged.question_id, "a response no result file holds")
    assert unheld.question is None and "records no question text" in unheld.note


def test_ask_follows_the_rule_the_styles_and_the_benchmarks_settings(colliding):
    from mathreel.webapp.ask import FILE_ONLY, AskHandlers, ask_options
    from mathreel.webapp.ask_run import prepare_answers
    from mathreel.webapp.settings import Settings

    settings = Settings(default_frames=2)
    handlers = AskHandlers(SimpleNamespace(datasets=Datasets(demo_dir()), settings=settings), "/tmp")
    header, *_ = handlers.on_question({"key": VIDEOMME, "ref": "001-1", "on_server": False})
    assert FILE_ONLY in header
    out = handlers.on_question(
        {"key": VIDEOMME, "ref": "001-1", "on_server": True, "view": {"cot": True, "style": "qwen3_vl"}}
    )
    ways, styles = out[4], out[5]
    assert [v for _, v in ways["choices"]] == ["direct"] and ways["value"] == "direct"  # no CoT for Video-MME
    assert [v for _, v in styles["choices"]] == [s.name for s in prompt_choices("videomme").styles]
    assert styles["value"] == "qwen3_vl"
    with pytest.raises(MathReelError, match="no chain-of-thought form"):
        ask_options("videomathqa", "mcq", True, False, 2, "best_answer")
    options = ask_options("videomme", "mcq", False, False, 2, "qwen3_vl")
    dataset = load_dataset("videomme", None, demo_dir())
    question = dataset.questions[0]
    (answer,) = prepare_answers(dataset, [question], options)
    bench = get_benchmark("videomme")
    assert answer.request.prompt == bench.build_prompt(question, style="qwen3_vl") != bench.build_prompt(question)


def test_a_judged_response_opened_in_browse_is_shown_only_with_a_question_a_result_file_records():
    from dataclasses import replace

    from mathreel.webapp.judged_runs import JudgedRun, load_demo_runs

    handlers = BrowseHandlers(Datasets(demo_dir()))
    demo_run = next(r for r in load_demo_runs() if (r.benchmark, r.mode) == ("videomathqa", "mcq"))
    ref = demo_run.judgments[0].question_id
    question = load_dataset("videomathqa", "mcq", demo_dir()).question(ref)
    walk = {"run": "", "status": "all", "judged": demo_run.name}
    page = page_of(handlers, "videomathqa:mcq", ref, [], walk)
    assert page["state"]["on_server"] and question.question in page["header"]  # the demo's files record it
    # The same judgments with other responses: no result file holds them, so no question is drawn above them.
    mine = JudgedRun("mine", [replace(j, response=f"my own reply to {j.question_id}") for j in demo_run.judgments])
    walk = {"run": "", "status": "all", "judged": "mine"}
    page = dict(
        zip(
            PAGE_OUTPUTS,
            handlers.show("videomathqa:mcq", ref, ViewSettings(2), None, [], walk, judge_runs=[mine]),
            strict=True,
        )
    )
    assert page["state"]["on_server"] is False and question.question not in page["header"]
    assert "records no question text" in page["header"] and value(page["frames"]) in ([], None)
    assert "my own reply" in value(page["response"])
    assert handlers.preview_ref("videomathqa:mcq", ref, [], walk, [mine]) is None


def own_responses_file(tmp_path: Path, source: Path) -> Path:
    """The demo result file `source` with every answer's response replaced by the visitor's own (its bytes, and its
    responses, not the demo's): what a visitor uploads in Score before loading its judgments in Judge."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        qid = record["videomathqa_perception_score"]["question_id"]
        record["resps"] = [[f"my own reply to {qid}. The best answer is C."]]
        record["filtered_resps"] = [f"my own reply to {qid}. The best answer is C."]
        lines.append(json.dumps(record))
    path = tmp_path / f"mine_{source.name}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_judge_tab_joins_a_judged_answer_through_the_visitors_runs_in_score(tmp_path, monkeypatch):
    from dataclasses import replace

    from mathreel.webapp.judge import JudgeHandlers, Selection, scored_choices
    from mathreel.webapp.judged_runs import JudgedRun, load_demo_runs
    from mathreel.webapp.settings import Settings

    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    settings = Settings(default_frames=2)
    handlers = JudgeHandlers(SimpleNamespace(datasets=Datasets(demo_dir()), settings=settings))
    demo_run = next(r for r in load_demo_runs() if (r.benchmark, r.mode) == ("videomathqa", "mcq"))
    mine = JudgedRun(
        "mine",
        [replace(j, response=f"my own reply to {j.question_id}. The best answer is C.") for j in demo_run.judgments],
    )
    ref = mine.judgments[0].question_id
    question = load_dataset("videomathqa", "mcq", demo_dir()).question(ref)
    source = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
    path = own_responses_file(tmp_path, source)
    chosen = Selection("mine", ref)

    # Its result file not loaded: the judged answer is under no question, and has no frames.
    assert handlers.question_of(mine, ref) is None
    assert question.question not in handlers.detail([mine], chosen)[0]
    assert handlers.media([mine], chosen) == ([], None)

    # Loaded in Score, read with the server's dataset (an id-only file: the visitor said so): joined through it.
    scored, errors = score_uploads([str(path)], ScoreOptions(annotations=str(demo_dir())))
    assert errors == []
    assert handlers.question_of(mine, ref, scored) == question
    header, response, steps, *_ = handlers.detail([mine], chosen, scored)
    assert question.question in header and "my own reply" in response
    assert question.steps[0] in steps and "annotated steps from the server" in steps
    frames, video = handlers.media([mine], chosen, scored)
    assert len(frames) == 2 and video
    view = handlers.question_view([mine], chosen, scored)
    assert question.question in view[0]

    # The same file read without the dataset records no question text: its ids alone join nothing.
    unjoined, _ = score_uploads([str(path)], ScoreOptions())
    assert handlers.question_of(mine, ref, unjoined) is None

    # The Judge tab offers the visitor's runs to judge without uploading the file again.
    offered = scored_choices(scored, None)
    assert offered["choices"] == [(scored[0].name, scored[0].name)] or offered["choices"] == [scored[0].name]
