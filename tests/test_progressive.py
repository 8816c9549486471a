"""The progressive gallery: nearest keyframes first (marked approximate, with their real frame numbers and times),
then each exact frame; only exact frames reach the cache. Videos are real H.264 files with numbered frames."""

from __future__ import annotations

import itertools

import pytest

from mathreel.core.errors import InputError
from mathreel.core.media.frame_cache import frames_dir
from mathreel.core.media.frames import sample_frames
from mathreel.core.media.progressive import PREVIEW_LIFETIME, PREVIEWS, progressive_frames
from mathreel.core.media.readers import READER_ENV
from mathreel.core.media.writer import frame_number, numbered_frame, write_h264

FPS = 25


@pytest.fixture(params=["pyav", "decord"])
def reader_name(request, monkeypatch):
    if request.param == "decord":
        pytest.importorskip("decord", reason="decord is not installed on this platform (the pyav run still runs)")
    monkeypatch.setenv(READER_ENV, request.param)
    return request.param


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    """300 frames, a keyframe every 50."""
    frames = (numbered_frame(i, 96, 128) for i in range(300))
    return write_h264(tmp_path_factory.mktemp("progressive") / "p.mp4", frames, FPS, gop=50, crf=18)


def _number(path):
    import numpy as np
    from PIL import Image

    with Image.open(path) as image:
        return frame_number(np.asarray(image.convert("RGB")))


def test_keyframes_first_then_exact_frames_then_the_cache_entry(video, tmp_path, reader_name):
    snapshots = []
    for snapshot in progressive_frames(video, 6, cache_dir=tmp_path):
        snapshots.append(snapshot)
        for item in snapshot:
            assert _number(item.path) == item.shown_index  # read while the generator is paused, as a viewer does
    first, last = snapshots[0], snapshots[-1]
    assert [item.index for item in first] == [0, 59, 119, 179, 239, 299]
    assert [item.time for item in first] == pytest.approx([i / FPS for i in (0, 59, 119, 179, 239, 299)])
    # The viewer is handed the latest gallery: on a busy machine some exact frames may land before it first looks.
    # Every position of the first snapshot is its nearest keyframe, marked approximate, or already its exact frame.
    for item, keyframe in zip(first, (0, 50, 100, 200, 250, 250), strict=True):
        shown = item.index if item.exact else keyframe
        assert item.shown_index == shown and item.shown_time == pytest.approx(shown / FPS)
    # The keyframe previews were written whatever the viewer saw, each the keyframe's own picture.
    (folder,) = (frames_dir(tmp_path) / PREVIEWS).iterdir()
    assert {_number(path) for path in folder.iterdir()} == {0, 50, 100, 200, 250}
    assert all(item.exact and item.shown_index == item.index for item in last)
    for before, after in itertools.pairwise(snapshots):
        assert all(b.exact <= a.exact for b, a in zip(before, after, strict=True))  # exact stays exact
    cached = sample_frames(video, 6, cache_dir=tmp_path)
    assert cached.reader == reader_name
    assert [item.path for item in last] == list(cached.paths)
    # an exact frame is shown at its own path in the cache entry from the moment it lands: the browser fetches it once
    assert {item.path for snapshot in snapshots for item in snapshot if item.exact} == set(cached.paths)
    entries = sorted(p.name for p in frames_dir(tmp_path).iterdir())
    assert entries == sorted([cached.paths[0].parent.name, PREVIEWS])  # the entry, and the previews' own folder
    # every preview the viewer was handed is still there after the last snapshot: a page fetches it a moment later
    shown = {item.path for snapshot in snapshots for item in snapshot if not item.exact}
    assert all(path.is_file() and _number(path) >= 0 for path in shown)


def test_previews_outlive_their_generator_until_their_lifetime_is_over(video, tmp_path):
    import os
    import time

    snapshots = list(progressive_frames(video, 4, cache_dir=tmp_path))
    first = [item.path for item in snapshots[0]]
    assert not any(item.exact for item in snapshots[0]) and all(path.is_file() for path in first)
    folder = first[0].parent
    assert folder.parent == frames_dir(tmp_path) / PREVIEWS
    # another cold question a moment later leaves them alone
    list(progressive_frames(video, 3, cache_dir=tmp_path))
    assert all(path.is_file() for path in first)
    # once their lifetime is over, the next call removes them (and keeps the younger folder)
    old = time.time() - PREVIEW_LIFETIME - 5
    os.utime(folder, (old, old))
    list(progressive_frames(video, 2, cache_dir=tmp_path))
    left = list((frames_dir(tmp_path) / PREVIEWS).iterdir())
    assert not folder.exists() and len(left) == 2  # the 3- and the 2-frame calls' previews


def test_a_cached_question_leaves_no_preview_folder(video, tmp_path):
    sample_frames(video, 4, cache_dir=tmp_path)
    list(progressive_frames(video, 4, cache_dir=tmp_path))
    assert list((frames_dir(tmp_path) / PREVIEWS).iterdir()) == []


def test_a_cached_sample_is_one_exact_snapshot(video, tmp_path, reader_name):
    sampled = sample_frames(video, 4, cache_dir=tmp_path)
    snapshots = list(progressive_frames(video, 4, cache_dir=tmp_path))
    assert len(snapshots) == 1
    assert [item.path for item in snapshots[0]] == list(sampled.paths)
    assert all(item.exact for item in snapshots[0])


def test_sample_frames_during_a_progressive_build_waits_for_it(video, tmp_path, reader_name, monkeypatch):
    from mathreel.core.media import readers

    opened = []
    real_open = readers._open
    monkeypatch.setattr(readers, "_open", lambda *args: opened.append(args) or real_open(*args))
    stream = progressive_frames(video, 5, cache_dir=tmp_path)
    next(stream)  # previews shown; the exact frames are being decoded
    sampled = sample_frames(video, 5, cache_dir=tmp_path)
    rest = list(stream)
    assert len(opened) == 1  # decoded once
    assert [item.path for item in rest[-1]] == list(sampled.paths)
    assert [_number(path) for path in sampled.paths] == list(sampled.indices)


def test_a_bad_video_raises_the_one_line_error(tmp_path):
    bad = tmp_path / "bad.mp4"
    bad.write_text("not a video\n")
    with pytest.raises(InputError, match="not a readable video") as caught:
        list(progressive_frames(bad, 4, cache_dir=tmp_path / "cache"))
    assert caught.value.source == str(bad)
    assert [p.name for p in frames_dir(tmp_path / "cache").iterdir()] == [PREVIEWS]
    assert list((frames_dir(tmp_path / "cache") / PREVIEWS).iterdir()) == []  # nothing was shown: nothing kept


def test_a_viewer_that_stops_early_leaves_a_complete_entry(video, tmp_path):
    stream = progressive_frames(video, 3, cache_dir=tmp_path)
    next(stream)
    stream.close()
    sampled = sample_frames(video, 3, cache_dir=tmp_path)  # waits for the thread, then reads its entry
    assert [_number(path) for path in sampled.paths] == list(sampled.indices)
    entries = sorted(p.name for p in frames_dir(tmp_path).iterdir())
    assert entries == sorted([sampled.paths[0].parent.name, PREVIEWS])
