"""What a new user met on a first walk through Score and Browse with real result files, at the handlers (no
browser): each test is one stumble, fixed.

The files are written here in the shape of the real ones walked (docs/sources.md): MathVerse's official output
template (testmini records with `query_wo`, `query_cot` and the model's whole reply in `model_answer`) and an
lmms-eval 0.4 Video-MME samples log (the question only in the recorded `input`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.jsonl import write_jsonl
from helpers.lmms_logs import lmms04_line

from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.view import ViewSettings
from mathreel.webapp import reading_flow as rd
from mathreel.webapp import score_explain as se
from mathreel.webapp.browse_audit import audit_target, why_markdown
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_panels import PAGE_OUTPUTS
from mathreel.webapp.browse_table import listed_questions, table_widths
from mathreel.webapp.score import breakdown_filter, breakdown_table, dimension_filter_choices, question_table
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

REPLY = (
    "To find the length of the longest straw we use the Pythagorean theorem: the straw is the hypotenuse of a "
    "right triangle whose sides are the height of the can and the diameter of its base.\n\n"
    "L^2 = 13^2 + 6^2 = 205, so L = 14.32 cm.\n\n"
    "So the length of the longest straw that can fit into the can, rounded down to the nearest cm, is 14 cm."
)
VERSIONS = ("Text Dominant", "Text Lite", "Vision Intensive", "Vision Dominant", "Vision Only")


def mathverse_output(path: Path) -> Path:
    """MathVerse's official output template: one record per problem version, the reply in `model_answer`."""
    question = "A soft drink can has a height of 13 cm and a radius of 3 cm. Find L, the longest straw that fits."
    records = [
        {
            "sample_index": str(3421 + k),
            "problem_index": "685",
            "problem_version": version,
            "question": question,
            "image": "images_version_1-4/image_685.png",
            "answer": "14",
            "question_type": "free-form",
            "metadata": {
                "split": "testmini",
                "source": "Geo3D_collected",
                "subject": "Solid Geometry",
                "subfield": "Length",
            },
            "query_wo": f"Please directly answer the question and provide the final value.\nQuestion: {question}",
            "query_cot": f"Please first conduct reasoning, and then answer the question.\nQuestion: {question}",
            "model_answer": REPLY,
        }
        for k, version in enumerate(VERSIONS)
    ]
    path.write_text(json.dumps(records, indent=4), encoding="utf-8")
    return path


def lmms_log(path: Path, picks: str) -> Path:
    """An lmms-eval 0.4 Video-MME samples log without `doc`: the question only in the recorded prompt; one answer
    per letter of `picks`, the gold always C."""
    options = ["A. One.", "B. Two.", "C. Three.", "D. Four."]
    lines = []
    for k, pick in enumerate(picks):
        qid = f"{k // 3 + 1:03d}-{k % 3 + 1}"
        question = f"How many lanterns hang over the door in clip {qid}?"
        lines.append(lmms04_line(k, qid, question, options, "C", f"{pick}."))
    return write_jsonl(path, lines)


@pytest.fixture
def mathverse_run(tmp_path):
    path = mathverse_output(tmp_path / "output_testmini.json")
    runs, errors = score_uploads([str(path)], ScoreOptions())
    assert errors == [] and runs[0].key == "mathverse:default"
    return runs


def test_a_walked_runs_table_gives_its_responses_a_wide_column(mathverse_run):
    """The question table of a walked run ends with the response preview: in the 80 px column meant for the
    gold answer, a 110-character reply stood one word a line and every row grew about 380 px tall."""
    dataset = load_dataset("mathverse", None, demo_dir())
    walk = {"run": mathverse_run[0].name, "status": "all"}
    frame, label = listed_questions(dataset, "mathverse:default", "", mathverse_run, walk)
    assert label.startswith("Questions of run output_testmini.json: 5 answers")
    assert list(frame.columns)[-1] == "Response" and len(frame["Response"][0]) > 100
    widths = dict(zip(frame.columns, table_widths(frame), strict=True))
    assert int(widths["Response"].removesuffix("px")) >= 300, widths
    assert widths["ID"] == "80px" and widths["Question"] == "440px"


def test_the_servers_question_table_keeps_its_narrow_answer_column():
    dataset = load_dataset("mathverse", None, demo_dir())
    frame, _ = listed_questions(dataset, "mathverse:default")
    assert list(frame.columns)[-1] == "Answer"
    assert table_widths(frame)[-1] == "80px"


def test_a_figure_typed_with_explain_against_left_at_nothing_is_explained(tmp_path):
    """Typing the figure a paper or a results file reports and pressing Explain, "Explain against" left at its
    first choice, explained nothing against it: the figure was dropped without a word."""
    log = lmms_log(tmp_path / "samples_videomme.jsonl", "CCCBCCAC")  # 6 of 8 = 75%
    runs, errors = score_uploads([str(log)], ScoreOptions())
    assert errors == [] and runs[0].report.overall.correct == 6
    typed = se.explanation(runs, log.name, se.NOTHING, " 62.5 ")
    chosen = se.explanation(runs, log.name, se.FIGURE, "62.5")
    assert typed.gap is not None and typed.gap.b == "62.5 (typed)" and typed.gap.parts_add_up()
    assert se.comparison_view(typed).summary == se.comparison_view(chosen).summary
    assert se.explanation(runs, log.name, se.NOTHING, "").gap is None  # nothing typed: the reference table only


def test_a_breakdown_row_clicked_filters_the_question_table_to_its_value(tmp_path, mathverse_run):
    """The breakdown table answered no click: a new user clicking "Vision Only" (the one version a real run got
    wrong) to see which question failed had to find the same value again in the "Dimension value" control below."""
    run = mathverse_run[0]
    table = breakdown_table([run])
    row = next(list(r) for _, r in table.iterrows() if r["Value"] == "Vision Only")
    found = breakdown_filter(run, row)
    assert found == "problem_version=Vision Only"
    assert found in [value for _, value in dimension_filter_choices(run)]  # the control below can show it
    listed = question_table(run, "all", found)
    assert list(listed["ID"]) == ["3425"] and list(listed["Problem version"]) == ["Vision Only"]
    other = lmms_log(tmp_path / "samples_videomme.jsonl", "CB")
    videomme = score_uploads([str(other)], ScoreOptions())[0][0]
    assert breakdown_filter(run, list(breakdown_table([videomme]).iloc[0])) is None  # a value this run lacks
    assert breakdown_filter(None, row) is None and breakdown_filter(run, []) is None


def test_the_reading_to_check_names_its_method_once(mathverse_run):
    """The audit box said "MathReel read 14 cm (last-sentence): weak reading (last-sentence)."."""
    run = mathverse_run[0]
    ref = run.report.rows[0].question_id
    found = audit_target(mathverse_run, {"run": run.name, "status": "to_check"}, ref)
    assert found is not None
    _, row, why = found
    assert why == f"weak reading ({row.method})"  # the reason as core gives it
    text = why_markdown(row, why, run.name)
    assert text.count(row.method) == 1, text
    assert f"MathReel read **{row.extracted}** ({row.method}): a weak reading." in text


def test_the_walk_offers_only_the_walked_runs_judge_categories(tmp_path, mathverse_run):
    """Walking a Video-MME run, "Walk through" listed "judge: Misinterpreting visuals" and VideoMathQA's six other
    judge categories: lists no judge of this benchmark can fill."""
    log = lmms_log(tmp_path / "samples_videomme.jsonl", "CB")
    runs = [*score_uploads([str(log)], ScoreOptions())[0], *mathverse_run]
    judge = [value for _, value in rd.walk_filters() if value.startswith(rd.JUDGE_CATEGORY)]
    assert len(judge) == 7  # VideoMathQA's
    for name in (log.name, mathverse_run[0].name):
        offered = [value for _, value in rd.walk_choices(runs, {"run": name, "status": "wrong"})]
        assert not any(v.startswith(rd.JUDGE_CATEGORY) for v in offered), name
        assert {"wrong", "to_check", "all", rd.UNREVIEWED} <= set(offered)
    assert rd.walk_choices(runs, None) == rd.walk_filters()  # no run walked: every list
    judged = {"run": log.name, "status": judge[0]}
    assert judge[0] in [value for _, value in rd.walk_choices(runs, judged)]  # the list walked stays offered


class Datasets:
    """A DatasetCache stand-in over the demo set (the real load_dataset)."""

    def get(self, benchmark: str, mode: str | None):
        return load_dataset(benchmark, mode, demo_dir())


def test_a_free_form_answer_read_from_its_file_is_not_said_to_lack_options(mathverse_run):
    """The metadata of a free-form MathVerse answer read from its file said "Options: not recorded", as if the
    file had lost them."""
    run = mathverse_run[0]
    walk = {"run": run.name, "status": "all"}
    values = BrowseHandlers(Datasets()).show("mathverse:default", "3421", ViewSettings(), None, mathverse_run, walk)
    page = dict(zip(PAGE_OUTPUTS, values, strict=True))
    assert page["state"]["on_server"] is False  # read from the file: 3421 is not a demo question
    assert "| Options | none: a free-form question |" in page["metadata"]
    assert "not recorded" not in page["metadata"]


def test_a_figure_the_run_reaches_sends_nobody_to_an_empty_list(tmp_path):
    """Explaining 75% against its own figure (a results file's 75.0) said "Click a row below to read its questions
    in Browse", and the one row, rounding, held no question."""
    log = lmms_log(tmp_path / "samples_videomme.jsonl", "CCCBCCAC")  # 6 of 8 = 75%
    runs, _ = score_uploads([str(log)], ScoreOptions())
    same = se.comparison_view(se.explanation(runs, log.name, se.FIGURE, "75.0"))
    assert "Click a row below" not in same.summary and "nothing to read in Browse" in same.summary
    unreachable = se.comparison_view(se.explanation(runs, log.name, se.FIGURE, "62.5"))
    assert "nothing to read in Browse" in unreachable.summary  # "unexplained": no question moves either
    (tmp_path / "second").mkdir()
    second = lmms_log(tmp_path / "second" / "samples_videomme.jsonl", "CCCCCCAC")
    both, _ = score_uploads([str(log), str(second)], ScoreOptions())
    names = [run.name for run in both]
    paired = se.comparison_view(se.explanation(both, names[0], se.RUN + names[1]))
    assert "Click a row below" in paired.summary  # two runs: a flipped question to read
