"""What the model sees: prompt, frames and subtitles built from a fixture dataset with a real tiny H.264 video."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers.clip import CUES, FPS, TOTAL, covering, write_srt, write_video
from helpers.datasets import (
    PNG_BYTES,
    make_videomathqa,
    make_videomme,
    mathverse_record,
    videomme_record,
    vmqa_record,
)

from mathreel.core.data import load_dataset
from mathreel.core.errors import InputError
from mathreel.core.media.subtitles import NO_SUBTITLES
from mathreel.core.view import build_view, pairs_of


@pytest.fixture
def vmqa(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    pair = {"options": ["A. 45", "B. 60"]}
    root = make_videomathqa(
        tmp_path / "vmqa",
        [vmqa_record("q1", "clip"), vmqa_record("q2", "silent")],
        [vmqa_record("p1", "clip", answer="A", **pair), vmqa_record("p1", "clip", answer="B", **pair)],
    )
    write_video(root / "videos" / "clip.mp4")
    write_video(root / "videos" / "silent.mkv")
    write_srt(root / "subtitles" / "clip.srt", CUES)
    return root


def test_frames_and_frame_aligned_subtitles(vmqa):
    data = load_dataset("videomathqa", "mcq", vmqa)
    view = build_view(data, "q1", num_frames=4, with_subtitles=True)
    expected = np.linspace(0, TOTAL - 1, 4, dtype=int).tolist()
    assert list(view.frames.indices) == expected == [0, 9, 19, 29]
    assert [round(t, 3) for t in view.frames.times] == [i / FPS for i in expected]
    assert [[c.text for c in cues] for cues in view.frame_cues] == [covering(i / FPS) for i in expected]
    assert view.subtitle_lines == ["one", "three", "four"]
    assert view.prompt.startswith("This video's subtitles are listed below: \none\nthree\nfour\nSelect the best")
    assert [c.text for c in view.cues] == list(CUES)
    assert all(p.is_file() for p in view.frames.paths)


def test_full_subtitles_put_every_line_in_the_prompt(vmqa):
    view = build_view(load_dataset("videomathqa", "mcq", vmqa), "q1", num_frames=4, full_subtitles=True)
    assert view.subtitle_lines == ["one", "two", "three", "four"]
    assert "below: \none\ntwo\nthree\nfour\n" in view.prompt
    assert view.settings["with_subtitles"] is True


def test_without_subtitles_the_prompt_has_none_but_the_cues_are_shown(vmqa):
    view = build_view(load_dataset("videomathqa", "mcq", vmqa), "q1", num_frames=4)
    assert view.subtitle_text is None and "subtitles" not in view.prompt
    assert view.prompt.startswith("Select the best answer") and "What is the angle in q1?" in view.prompt
    assert [c.text for c in view.frame_cues[0]] == ["one"]


def test_video_without_srt_says_no_subtitles_available(vmqa):
    view = build_view(load_dataset("videomathqa", "mcq", vmqa), "q2", num_frames=3, with_subtitles=True)
    assert view.subtitle_path is None and view.cues == [] and view.frame_cues == [[], [], []]
    assert view.subtitle_lines == [NO_SUBTITLES]
    assert f"below: \n{NO_SUBTITLES}\n" in view.prompt
    assert view.video_path.suffix == ".mkv"


def test_multibinary_view_is_one_pair(vmqa):
    data = load_dataset("videomathqa", "mbin", vmqa)
    pairs = pairs_of(data, "p1")
    assert [data.ref(q) for q in pairs] == ["p1#1", "p1#2"]
    view = build_view(data, pairs[1], num_frames=2)
    assert view.ref == "p1#2" and view.question.answer == "B"
    assert "A. 45\nB. 60" in view.prompt and "(A or B)" in view.prompt


def test_to_dict_is_json_ready(vmqa):
    view = build_view(load_dataset("videomathqa", "mcq", vmqa), "q1", num_frames=4, with_subtitles=True)
    out = json.loads(json.dumps(view.to_dict()))
    assert out["question_id"] == "q1" and out["total_frames"] == TOTAL
    assert [f["index"] for f in out["frames"]] == [0, 9, 19, 29]
    assert out["frame_subtitles"][1] == [{"start": 0.0, "end": 1.0, "text": "one"}]
    assert len(out["subtitles"]) == 4 and len(out["frame_paths"]) == 4


def test_missing_video_is_a_note_unless_subtitles_need_its_frames(tmp_path):
    root = make_videomme(tmp_path, [videomme_record("001-1", "away")])
    write_srt(root / "subtitle" / "away.srt", CUES)
    data = load_dataset("videomme", data_dir=root)
    view = build_view(data, "001-1")
    assert view.frames is None and "video not found" in view.notes[0]
    assert [c.text for c in view.cues] == list(CUES)
    with pytest.raises(InputError, match="frame-aligned subtitles need the video"):
        build_view(data, "001-1", with_subtitles=True)
    assert "below: \none\ntwo\nthree\nfour\n" in build_view(data, "001-1", full_subtitles=True).prompt


def test_mathverse_view_is_the_diagram_and_the_record_query(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "d.png").write_bytes(PNG_BYTES)
    (tmp_path / "testmini.json").write_text(json.dumps([mathverse_record(1, "d.png")]))
    data = load_dataset("mathverse", data_dir=tmp_path)
    view = build_view(data, "1", cot=True)
    assert view.frames is None and view.image_path == tmp_path / "images" / "d.png"
    assert view.prompt == data.questions[0].extra["query_cot"]
    assert view.to_dict()["image_path"] == str(tmp_path / "images" / "d.png")


def test_bad_frame_count_is_an_input_error(vmqa):
    with pytest.raises(InputError, match="--frames"):
        build_view(load_dataset("videomathqa", "mcq", vmqa), "q1", num_frames=0)
