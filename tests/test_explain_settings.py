"""Settings provenance (read from the file, or a guess said to be one) and the "same frames?" check on a real H.264
video written here and decoded by PyAV."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from helpers.jsonl import write_jsonl

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.data import load_dataset
from mathreel.core.defaults import DEFAULT_FRAMES
from mathreel.core.errors import InputError
from mathreel.core.explain.frames import FramePlan, compare_frames, compare_on_question
from mathreel.core.explain.provenance import provenance
from mathreel.core.media.frames import open_video
from mathreel.core.media.subtitles import read_srt
from mathreel.core.media.writer import write_h264
from mathreel.core.results import read_results

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demo" / "results"
VLMEVAL_COLUMNS = (
    "index",
    "video",
    "video_path",
    "duration",
    "domain",
    "candidates",
    "sub_category",
    "task_type",
    "subtitle_path",
    "question",
    "answer",
    "prediction",
)


def vlmeval_tsv(path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(VLMEVAL_COLUMNS)
        for index in range(3):
            writer.writerow(
                [
                    index,
                    f"vid{index}",
                    f"./video/vid{index}.mp4",
                    "short",
                    "Knowledge",
                    "['A. one', 'B. two', 'C. three', 'D. four']",
                    "Humanity & History",
                    "Counting Problem",
                    "",
                    f"How many things in video {index}?",
                    "B",
                    "B",
                ]
            )
    return path


@pytest.mark.parametrize(
    ("name", "frames", "rule", "fps", "subtitles"),
    [
        ("GPT4o_Video-MME_8frame_subs.tsv", 8, "midpoints", None, "in the prompt"),
        ("Qwen2_VL_7B_Video-MME_1fps.tsv", -1, "fps", 1.0, "none"),
        ("m_Video-MME_0.5fps_subs.tsv", -1, "fps", 0.5, "in the prompt"),
    ],
)
def test_vlmevalkit_dataset_names_are_read_not_guessed(tmp_path, name, frames, rule, fps, subtitles):
    found = provenance(read_results(vlmeval_tsv(tmp_path / name), benchmark="videomme"))
    settings = found.settings
    assert (settings["frames"].value, found.plan.rule, found.plan.fps) == (frames, rule, fps)
    assert not settings["frames"].guess and "VLMEvalKit dataset name" in settings["frames"].source
    assert settings["subtitles"].value == subtitles and not settings["subtitles"].guess
    assert settings["harness"].text == "VLMEvalKit"
    assert settings["model"].value == name.split("_Video-MME")[0]


def test_lmms_eval_results_json_beside_the_samples_gives_frames_model_and_commit(tmp_path):
    instruction = (
        "Select the best answer to the following multiple-choice question based on the video and the "
        "subtitles. Respond with only the letter (A, B, C, or D) of the correct option."
    )
    lines = [
        {
            "doc_id": 0,
            "target": "B",
            "filtered_resps": ["B"],
            "input": f"{instruction}\nHow many?\nA. 1\nB. 2\nC. 3\nD. 4\nThe best answer is:",
            "videomme_perception_score": {
                "question_id": "001-1",
                "duration": "short",
                "domain": "Knowledge",
                "answer": "B",
                "pred_answer": "B",
            },
        }
    ]
    samples = write_jsonl(tmp_path / "20250101_120000_samples_videomme.jsonl", lines)
    (tmp_path / "20250101_120000_results.json").write_text(
        json.dumps(
            {
                "config": {
                    "model": "llava_vid",
                    "model_args": "pretrained=org/model-7b,max_frames_num=32,overwrite=False",
                },
                "git_hash": "55057fb",
            }
        ),
        encoding="utf-8",
    )
    settings = provenance(read_results(samples)).settings
    assert settings["frames"].value == 32 and "max_frames_num=32" in settings["frames"].source
    assert not settings["frames"].guess and settings["model"].value == "org/model-7b"
    assert settings["harness_commit"].value == "55057fb"
    assert settings["sampler"].value == "uniform" and settings["sampler"].guess  # the model's loader decides
    assert settings["prompt"].value == "best_answer" and not settings["prompt"].guess


def test_without_a_record_every_setting_is_a_stated_guess(tmp_path):
    path = write_jsonl(
        tmp_path / "plain.jsonl",
        [{"question_id": "001-1", "options": ["A. x", "B. y"], "answer": "A", "response": "A"}],
    )
    settings = provenance(read_results(path, benchmark="videomme")).settings
    assert settings["frames"].guess and settings["frames"].value == DEFAULT_FRAMES
    assert settings["cot"].guess and settings["subtitles"].guess and settings["prompt"].guess


def test_explain_places_the_frames_browse_shows_for_a_file_that_records_none():
    """Score's run settings (what Browse shows a run's question with) and Explain's "same frames?" check assume
    one frame count for a file that records none, so they show the same frames of the same question."""
    from mathreel.core.scoring.files import ScoreRequest, score_file
    from mathreel.core.view import build_view

    path = DEMO / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
    report = score_file(ScoreRequest(str(path)))
    shown = report.run_settings.settings.num_frames
    plan = provenance(read_results(path)).plan
    assert plan is not None and plan.count == shown == DEFAULT_FRAMES
    dataset = load_dataset("videomathqa", "mcq")
    browse = build_view(dataset, "q001", num_frames=shown).frames
    explain = compare_on_question(dataset, "q001", plan, plan).a_frames
    assert browse is not None and [row.index for row in explain] == [int(i) for i in browse.indices]


def test_demo_runs_read_their_prompt_variant_and_reasoning_tags():
    mcq = provenance(read_results(DEMO / "videomathqa_mcq_synthetic-model-a_samples.jsonl")).settings
    assert mcq["prompt"].value == "default + chain of thought" and "character for character" in mcq["prompt"].source
    assert mcq["cot"].value is True and not mcq["cot"].guess
    v2 = provenance(read_results(DEMO / "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl"))
    assert v2.settings["reasoning"].value is True and "16 of 16" in v2.settings["reasoning"].text
    assert v2.settings["prompt"].value == "lmms + chain of thought"
    image = provenance(read_results(DEMO / "mathverse_synthetic-model-a_output.json"))
    assert image.plan is None and "frames" not in image.settings


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("clip")
    frames = [np.full((32, 48, 3), 10 * i, dtype=np.uint8) for i in range(25)]  # 25 frames at 5 fps: 5 s
    video = write_h264(folder / "clip.mp4", frames, fps=5, crf=0)
    srt = folder / "clip.srt"
    srt.write_text(
        "1\n00:00:00,000 --> 00:00:01,000\nfirst second\n\n2\n00:00:04,000 --> 00:00:05,000\nlast second\n",
        encoding="utf-8",
    )
    return video, srt


def test_same_frames_side_by_side_on_a_real_video(clip):
    video, srt = clip
    reader = open_video(video)
    try:
        found = compare_frames(
            get_benchmark("videomme"),
            reader.total,
            reader.fps,
            read_srt(srt),
            FramePlan(4),
            FramePlan(4, "midpoints"),
            reader.times,
        )
    finally:
        reader.close()
    assert [row.index for row in found.a_frames] == [0, 8, 16, 24]  # np.linspace(0, 24, 4, dtype=int)
    assert [row.index for row in found.b_frames] == [5, 10, 15, 20]  # int(i * 25 / 5), i = 1..4
    assert [row.time for row in found.a_frames] == pytest.approx([0.0, 1.6, 3.2, 4.8])
    assert found.a_frames[0].subtitles == ("first second",) and found.a_frames[-1].subtitles == ("last second",)
    assert not found.same_frames and found.shared == []
    assert found.only_a_lines == ["first second"] and found.only_b_lines == []  # B starts at 1.0 s, ends at 4.0 s
    same = compare_frames(get_benchmark("videomme"), 25, 5.0, [], FramePlan(4), FramePlan.parse("4/uniform"))
    assert same.same_frames and same.same_subtitles and same.notes == ["the video has no subtitles"]


def test_fps_plans_with_a_cap():
    found = compare_frames(get_benchmark("videomme"), 100, 10.0, [], FramePlan.parse("1fps"), FramePlan.parse("1fps/4"))
    assert [row.index for row in found.a_frames] == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]
    assert [row.index for row in found.b_frames] == [0, 20, 50, 70]  # the ten thinned: positions int(j * 10 / 4)
    assert found.shared == [0, 20, 50, 70]


@pytest.mark.parametrize("spec", ["0", "abc", "8/linspace", "0fps", "-2"])
def test_a_bad_plan_is_one_clear_error(spec):
    with pytest.raises(InputError, match="--plan"):
        FramePlan.parse(spec)


def test_same_frames_on_a_demo_question():
    from mathreel.core.data import load_dataset

    dataset = load_dataset("videomathqa", "mcq")
    found = compare_on_question(dataset, "q001", FramePlan(8), FramePlan(8, "midpoints"))
    assert len(found.a_frames) == len(found.b_frames) == 8 and found.a_frames[0].index == 0
    assert found.b_frames[0].index == found.total_frames // 9
    assert found.notes[0].startswith("question q001")
