"""Browse shows only what means something for the question on the page, at the handlers (no browser): no empty
video column where a question has no video (an answer read from its file, a MathVerse question without diagram),
the frame-rate and interleaving controls only on videos (interleaving only on a benchmark that has it), and the
note that a file records no question text said once.

The files are written here in the shape of an lmms-eval 0.4 Video-MME samples log (question text only inside the
recorded `input` prompt), with ids that collide with the demo set's, as a real run's do.
"""

from __future__ import annotations

import json
from pathlib import Path

import gradio as gr
import pytest

from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.view import ViewSettings
from mathreel.webapp import reading_flow as rd
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.browse_page import render_question
from mathreel.webapp.browse_panels import PAGE_OUTPUTS, page_updates
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads
from mathreel.webapp.shown_answer import RECORDED

INSTRUCTION = "Select the best answer to the following multiple-choice question based on the video and the subtitles."


class Datasets:
    """A DatasetCache stand-in over the demo set (the real load_dataset)."""

    def get(self, benchmark: str, mode: str | None):
        return load_dataset(benchmark, mode, demo_dir())


def lmms_log(path: Path, count: int = 3) -> Path:
    """An lmms-eval 0.4 Video-MME samples log without `doc`: the question only in the recorded prompt."""
    lines = []
    for k in range(count):
        qid = f"{k + 1:03d}-1"
        prompt = (
            f"{INSTRUCTION} Respond with only the letter (A, B, C, or D) of the correct option.\n"
            f"How many lanterns hang over the door in clip {qid}?\nA. One.\nB. Two.\nC. Three.\nD. Four.\n"
            "The best answer is:"
        )
        score = {
            "question_id": qid,
            "duration": "short",
            "category": "Knowledge",
            "sub_category": "Humanity & History",
            "task_category": "Counting Problem",
            "pred_answer": "B",
            "answer": "C",
        }
        record = {"doc_id": k, "target": "C", "filtered_resps": ["B."], "videomme_perception_score": score}
        lines.append(json.dumps({**record, "input": prompt}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def file_page(tmp_path):
    log = lmms_log(tmp_path / "samples_videomme.jsonl")
    runs, errors = score_uploads([str(log)], ScoreOptions())
    assert errors == [] and runs[0].key == "videomme:mcq"
    handlers = BrowseHandlers(Datasets())
    walk = {"run": log.name, "status": "all"}
    values = handlers.show("videomme:mcq", "001-1", ViewSettings(2, style=RECORDED), None, runs, walk)
    return dict(zip(PAGE_OUTPUTS, values, strict=True))


def test_an_answer_read_from_its_file_shows_no_empty_video_column(file_page):
    assert file_page["state"]["on_server"] is False
    assert file_page["media"] == gr.update(visible=False)  # the question takes the row
    assert file_page["video"]["visible"] is False and file_page["diagram"]["visible"] is False
    assert file_page["fps"] == gr.update(visible=False) and file_page["frames_n"] == gr.update(visible=False)
    assert file_page["interleave"] == gr.update(visible=False, value=False)  # Video-MME does not interleave


def test_the_note_that_the_question_is_in_the_prompt_is_said_once(file_page):
    said = "records no question text"
    everything = "\n".join(str(file_page[name]) for name in ("header", "metadata", "prompt_note", "steps"))
    assert everything.lower().count(said) == 1, everything
    assert "it is in the recorded prompt below" in file_page["header"]
    assert "not on this server" in file_page["header"] and "not on this server" not in file_page["metadata"]
    assert "How many lanterns" in file_page["prompt"]  # where the note sends the reader


def test_mathverse_hides_the_frame_rate_and_subtitle_controls_and_keeps_the_diagram():
    data = load_dataset("mathverse", None, demo_dir())
    with_image = next(q for q in data.questions if data.image_path(q) is not None)
    page = dict(
        zip(
            PAGE_OUTPUTS,
            page_updates(render_question(data, with_image.question_id, ViewSettings()), "mathverse"),
            strict=True,
        )
    )
    for control in ("fps", "frames_n", "subs", "full_subs"):
        assert page[control] == gr.update(visible=False), control
    assert page["interleave"] == gr.update(visible=False, value=False)
    assert page["media"] == gr.update(visible=True) and page["diagram"]["visible"] is True


def test_the_controls_follow_the_video_and_interleaving_only_where_the_benchmark_has_it():
    vmqa = load_dataset("videomathqa", "mcq", demo_dir())
    first = vmqa.questions[0].question_id
    page = dict(
        zip(PAGE_OUTPUTS, page_updates(render_question(vmqa, first, ViewSettings(2)), "videomathqa:mcq"), strict=True)
    )
    assert page["fps"] == gr.update(visible=True) and page["media"] == gr.update(visible=True)
    assert page["interleave"] == gr.update(visible=False, value=False)
    v2 = load_dataset("videomme-v2", None, demo_dir())
    ref = v2.questions[0].question_id
    shown = dict(
        zip(
            PAGE_OUTPUTS,
            page_updates(render_question(v2, ref, ViewSettings(2)), "videomme-v2", page["panels"]),
            strict=True,
        )
    )
    assert shown["interleave"] == gr.update(visible=True)  # a v2 video: the control shows, the tick kept
    assert shown["fps"] == gr.skip() and shown["media"] == gr.skip()  # unchanged: the user's values stay
    back = dict(
        zip(
            PAGE_OUTPUTS,
            page_updates(render_question(vmqa, first, ViewSettings(2)), "videomathqa:mcq", shown["panels"]),
            strict=True,
        )
    )
    assert back["interleave"] == gr.update(visible=False, value=False)  # a v2 tick does not follow to VideoMathQA


@pytest.mark.parametrize(
    ("walk", "said"),
    [
        (rd.Walk("run.jsonl", "to_check"), "_No readings to check in run.jsonl._"),
        (rd.Walk("run.jsonl", "all", "duration=short"), "_No questions with duration = short in run.jsonl._"),
        (rd.Walk("run.jsonl", "wrong", "duration=short"), "_No wrong questions with duration = short in run.jsonl._"),
        (
            rd.Walk("run.jsonl", "unparsed", disagree=True),
            "_No unparsed questions where the runs disagree in run.jsonl._",
        ),
    ],
)
def test_an_empty_walk_list_says_what_it_lacks_in_words(walk, said):
    assert rd.position_text([], "", walk) == said
