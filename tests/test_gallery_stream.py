"""Browse's progressive gallery: previews captioned approximate with their real keyframe and time, then the exact
frames; nothing for a question without a video or with cached frames. Real dataset folder, real H.264 video."""

from __future__ import annotations

import pytest
from helpers.datasets import make_videomathqa, vmqa_record

from mathreel.core.media.frames import sample_frames
from mathreel.core.media.writer import numbered_frame, write_h264
from mathreel.webapp.context import AppContext, DatasetCache
from mathreel.webapp.gallery_stream import previews
from mathreel.webapp.settings import Settings


@pytest.fixture
def context(tmp_path, monkeypatch) -> AppContext:
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    root = make_videomathqa(tmp_path / "vmqa", [vmqa_record("q0", "clip0"), vmqa_record("q1", "nothing")], [])
    write_h264(root / "videos" / "clip0.mp4", (numbered_frame(i, 48, 64) for i in range(200)), 25, gop=50)
    return AppContext(
        settings=Settings(data_dir=str(root)), datasets=DatasetCache(Settings(data_dir=str(root))), tabs=None
    )


def test_previews_then_exact_frames_then_nothing_once_cached(context):
    updates = list(previews(context.datasets, "videomathqa:mcq", "q0", 4))
    first, last = updates[0], updates[-1]
    assert [caption.split(" (exact")[0] for _, caption in first] == [
        "≈ approximate: keyframe 0 at 0:00.0",
        "≈ approximate: keyframe 50 at 0:02.0",
        "≈ approximate: keyframe 150 at 0:06.0",
        "≈ approximate: keyframe 150 at 0:06.0",
    ]
    assert "exact frame 66 at 0:02.6" in first[1][1]
    assert [caption for _, caption in last] == [
        "frame 0 · 0:00.0",
        "frame 66 · 0:02.6",
        "frame 132 · 0:05.3",
        "frame 199 · 0:08.0",
    ]
    # the last value shows the cache entry's own files: the ones the page's update shows next
    dataset = context.datasets.get("videomathqa", "mcq")
    video = dataset.find_video(dataset.question("q0"))
    assert [path for path, _ in last] == [str(path) for path in sample_frames(video, 4).paths]
    assert list(previews(context.datasets, "videomathqa:mcq", "q0", 4)) == []  # cached: the page alone


def test_a_question_without_its_video_has_no_previews(context):
    assert list(previews(context.datasets, "videomathqa:mcq", "q1", 4)) == []


def test_an_unknown_question_has_no_previews_and_no_traceback(context):
    assert list(previews(context.datasets, "videomathqa:mcq", "nope", 4)) == []
