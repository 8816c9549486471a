"""Sampled frames: exact frames, timestamps, resizing, the disk cache and clear errors for bad files.

Every test runs three times through the same public API: on decord, on PyAV, and under auto with decord made
unimportable (what a Mac or Linux ARM machine gets). Every video here is a real H.264 file written by
core.media.writer; each frame carries its own number as a block pattern (`numbered_frame`), so a test can read back
which frame was decoded.
"""

from __future__ import annotations

import json
import os
import random
import sys

import numpy as np
import pytest

from mathreel.core.errors import InputError
from mathreel.core.media import frames as frames_module
from mathreel.core.media.frames import (
    SampledFrames,
    frames_dir,
    open_video,
    read_exact_frames,
    resized_size,
    sample_frames,
    uniform_indices,
)
from mathreel.core.media.readers import READER_ENV
from mathreel.core.media.writer import frame_number, numbered_frame, write_h264

FPS = 25


@pytest.fixture(autouse=True, params=["decord", "pyav", "auto-without-decord"])
def frame_reader(request, monkeypatch):
    """The reader every test in this module runs on; returns the name sample_frames should report."""
    if request.param == "auto-without-decord":
        monkeypatch.setitem(sys.modules, "decord", None)  # `import decord` now raises ImportError
        monkeypatch.setenv(READER_ENV, "auto")
        return "pyav"
    if request.param == "decord":
        pytest.importorskip("decord", reason="decord is not installed on this platform (the pyav runs still run)")
    monkeypatch.setenv(READER_ENV, request.param)
    return request.param


def _all_frames(path):
    """Every frame of the video, decoded in order from the start by PyAV without seeking: the reference."""
    import av

    with av.open(str(path)) as container:
        return [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]


def _video(path, count, *, height=48, width=64, gop=10, pts_seconds=None):
    """A numbered H.264 clip; crf 18 keeps the bit squares crisp at this tiny size."""
    frames = (numbered_frame(i, height, width) for i in range(count))
    return write_h264(path, frames, FPS, gop=gop, crf=18, pts_seconds=pts_seconds)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    """40 frames at 25 fps, a keyframe every 10 frames (with B-frames in between)."""
    return _video(tmp_path_factory.mktemp("clip") / "clip.mp4", 40)


def _numbers(sampled: SampledFrames) -> list[int]:
    return [frame_number(array) for array in sampled.arrays()]


# --- uniform_indices ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "n"), [(40, 8), (40, 1), (40, 40), (7, 3), (1, 5), (10, 16), (90000, 32)])
def test_uniform_indices_follow_the_reference_linspace(total, n):
    expected = [int(x) for x in np.linspace(0, total - 1, n, dtype=int)]
    assert uniform_indices(total, n) == expected
    assert len(uniform_indices(total, n)) == n


def test_uniform_indices_minus_one_means_every_frame():
    assert uniform_indices(5, -1) == [0, 1, 2, 3, 4]


def test_uniform_indices_repeat_when_more_frames_than_the_video_has():
    assert uniform_indices(3, 5) == [0, 0, 1, 1, 2]


@pytest.mark.parametrize(("total", "n"), [(0, 4), (10, 0), (10, -2)])
def test_uniform_indices_reject_impossible_requests(total, n):
    with pytest.raises(ValueError):
        uniform_indices(total, n)


# --- exact frames and timestamps ---------------------------------------------------------------------------------


def test_sampled_frames_are_the_exact_frames_with_their_times(clip, tmp_path, frame_reader):
    sampled = sample_frames(clip, 7, cache_dir=tmp_path)
    assert sampled.reader == frame_reader
    assert sampled.indices == tuple(uniform_indices(40, 7)) == (0, 6, 13, 19, 26, 32, 39)
    assert _numbers(sampled) == list(sampled.indices)
    assert sampled.times == pytest.approx([i / FPS for i in sampled.indices], abs=1e-6)
    assert (sampled.total_frames, sampled.fps, sampled.duration) == (40, pytest.approx(FPS), pytest.approx(40 / FPS))
    assert sampled.video_path == clip.resolve()
    assert len(sampled) == 7


def test_forward_decoding_matches_decoding_everything_pixel_for_pixel(tmp_path):
    video = _video(tmp_path / "long.mp4", 120, gop=16)
    everything = _all_frames(video)
    rng = random.Random(7)
    for size in (1, 2, 5, 17, 40):
        wanted = sorted(rng.sample(range(120), size))
        ours = list(read_exact_frames(open_video(video), wanted))
        assert [index for index, _ in ours] == wanted
        for (_, frame), expected in zip(ours, [everything[i] for i in wanted], strict=True):
            np.testing.assert_array_equal(frame, expected)
        assert [frame_number(frame) for _, frame in ours] == wanted


def test_forward_decoding_refuses_unsorted_indices(clip):
    with pytest.raises(ValueError, match="sorted"):
        list(read_exact_frames(open_video(clip), [5, 3]))


def test_minus_one_samples_every_frame(clip, tmp_path):
    sampled = sample_frames(clip, -1, cache_dir=tmp_path)
    assert sampled.indices == tuple(range(40))
    assert _numbers(sampled) == list(range(40))


def test_more_frames_than_the_video_repeats_frames_and_shares_files(tmp_path):
    video = _video(tmp_path / "short.mp4", 10)
    sampled = sample_frames(video, 16, cache_dir=tmp_path / "cache")
    assert sampled.indices == tuple(uniform_indices(10, 16))
    assert _numbers(sampled) == list(sampled.indices)
    assert len(set(sampled.paths)) == 10
    assert sampled.paths[0] == sampled.paths[1]  # frame 0 is sampled twice, stored once


def test_one_frame_video(tmp_path):
    video = _video(tmp_path / "one.mp4", 1)
    sampled = sample_frames(video, 4, cache_dir=tmp_path / "cache")
    assert sampled.indices == (0, 0, 0, 0)
    assert sampled.times == (0.0, 0.0, 0.0, 0.0)
    assert len(set(sampled.paths)) == 1
    assert _numbers(sampled) == [0, 0, 0, 0]
    assert sampled.total_frames == 1


def test_variable_frame_rate_times_come_from_the_frames(tmp_path):
    times = [0.0, 0.04, 0.5, 0.52, 1.7, 1.74, 1.78, 3.0, 3.1, 4.25]
    video = _video(tmp_path / "vfr.mp4", len(times), gop=4, pts_seconds=times)
    sampled = sample_frames(video, 4, cache_dir=tmp_path / "cache")
    assert sampled.indices == (0, 3, 6, 9)
    assert sampled.times == pytest.approx([times[i] for i in sampled.indices], abs=1e-3)
    assert _numbers(sampled) == [0, 3, 6, 9]
    assert sampled.duration > 4.25


# --- resize ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "max_side", "expected"),
    [
        ((1280, 720), 448, (448, 252)),
        ((720, 1280), 448, (252, 448)),
        ((64, 48), 100, (64, 48)),
        ((64, 48), None, (64, 48)),
        ((3, 1000), 10, (1, 10)),
    ],
)
def test_resized_size_keeps_aspect_and_never_enlarges(size, max_side, expected):
    assert resized_size(*size, max_side) == expected


@pytest.mark.parametrize(
    ("height", "width", "max_side", "expected_hw"), [(120, 160, 80, (60, 80)), (160, 120, 80, (80, 60))]
)
def test_max_side_bounds_the_cached_jpegs(tmp_path, height, width, max_side, expected_hw):
    video = _video(tmp_path / "big.mp4", 12, height=height, width=width)
    sampled = sample_frames(video, 3, max_side=max_side, cache_dir=tmp_path / "cache")
    arrays = sampled.arrays()
    assert all(array.shape == (*expected_hw, 3) for array in arrays)
    assert [frame_number(array) for array in arrays] == list(sampled.indices)
    full = sample_frames(video, 3, cache_dir=tmp_path / "cache")
    assert full.arrays()[0].shape == (height, width, 3)
    assert full.paths[0].parent != sampled.paths[0].parent  # size is part of the cache key


def test_jpeg_bytes_are_the_cached_file(clip, tmp_path):
    sampled = sample_frames(clip, 2, cache_dir=tmp_path)
    data = sampled.jpeg_bytes(1)
    assert data[:3] == b"\xff\xd8\xff"
    assert data == sampled.paths[1].read_bytes()


# --- cache -------------------------------------------------------------------------------------------------------


def _forbid_decoding(monkeypatch):
    """Make any attempt to open a video (with any reader) fail loudly."""
    from mathreel.core.media import readers

    def refuse(*args, **kwargs):
        raise InputError("video", "the video was opened although the cache should have answered")

    monkeypatch.setattr(readers, "_open", refuse)


def test_second_call_is_served_from_the_cache_without_decoding(clip, tmp_path, monkeypatch):
    first = sample_frames(clip, 5, cache_dir=tmp_path)
    _forbid_decoding(monkeypatch)
    second = sample_frames(clip, 5, cache_dir=tmp_path)
    assert second == first
    assert _numbers(second) == list(first.indices)
    with pytest.raises(InputError, match="cache should have answered"):
        sample_frames(clip, 6, cache_dir=tmp_path)  # another N is another entry: proves the guard works


def test_manifest_and_paths_are_stable(clip, tmp_path):
    first = sample_frames(clip, 4, cache_dir=tmp_path)
    entry = first.paths[0].parent
    assert entry.parent == frames_dir(tmp_path) == tmp_path / "frames"
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["indices"] == list(first.indices)
    assert manifest["times"] == list(first.times)
    assert (manifest["total_frames"], manifest["fps"]) == (40, pytest.approx(FPS))
    assert sorted(p.name for p in entry.iterdir()) == sorted({p.name for p in first.paths} | {"manifest.json"})
    assert sample_frames(clip, 4, cache_dir=tmp_path).paths == first.paths
    # built in place: no temporary file left beside the entry or in it
    assert [p.name for p in frames_dir(tmp_path).iterdir()] == [entry.name]
    assert not [p for p in entry.iterdir() if p.name.startswith(".")]


def test_a_changed_video_is_decoded_again(tmp_path):
    video = _video(tmp_path / "v.mp4", 20)
    first = sample_frames(video, 3, cache_dir=tmp_path / "cache")
    _video(video, 30)  # same path, new content, new size
    second = sample_frames(video, 3, cache_dir=tmp_path / "cache")
    assert second.total_frames == 30
    assert second.paths[0].parent != first.paths[0].parent
    assert _numbers(second) == [0, 14, 29]


@pytest.mark.parametrize("damage", ["corrupt_manifest", "missing_jpeg"])
def test_a_damaged_entry_is_rebuilt(clip, tmp_path, damage):
    first = sample_frames(clip, 3, cache_dir=tmp_path)
    if damage == "corrupt_manifest":
        (first.paths[0].parent / "manifest.json").write_text("{not json")
    else:
        first.paths[1].unlink()
    again = sample_frames(clip, 3, cache_dir=tmp_path)
    assert again == first
    assert all(path.is_file() for path in again.paths)
    assert _numbers(again) == list(first.indices)


def test_an_entry_published_by_someone_else_first_is_kept(clip, tmp_path, monkeypatch):
    """Two users at once: the second finisher finds the entry in place and keeps it rather than failing."""
    winner = sample_frames(clip, 3, cache_dir=tmp_path)
    marker = winner.paths[0].parent / "winner"
    marker.write_text("first")
    monkeypatch.setattr(frames_module, "load_entry", lambda entry, identity: None)  # both missed the cache
    loser = sample_frames(clip, 3, cache_dir=tmp_path)
    assert loser == winner
    assert marker.read_text() == "first"


def test_cache_dir_defaults_to_the_environment(clip, tmp_path, monkeypatch):
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "env-cache"))
    sampled = sample_frames(clip, 2)
    assert sampled.paths[0].parent.parent == tmp_path / "env-cache" / "frames"
    monkeypatch.delenv("MATHREEL_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert frames_dir() == tmp_path / "home" / ".cache" / "mathreel" / "frames"


@pytest.mark.parametrize(
    ("mathreel_cache", "xdg", "expected"),
    [
        ("env-cache", "xdg", "env-cache"),  # MATHREEL_CACHE wins over XDG_CACHE_HOME
        (None, "xdg", "xdg/mathreel"),
        (None, "relative/xdg", "home/.cache/mathreel"),  # a relative XDG_CACHE_HOME is ignored (XDG spec)
        (None, None, "home/.cache/mathreel"),
    ],
)
def test_frames_and_data_share_one_cache_root(tmp_path, monkeypatch, mathreel_cache, xdg, expected):
    from mathreel.core.data import cache_base as data_cache_root

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name, value in (("MATHREEL_CACHE", mathreel_cache), ("XDG_CACHE_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value if value.startswith("relative") else str(tmp_path / value))
    assert data_cache_root() == tmp_path / expected
    assert frames_dir() == tmp_path / expected / "frames"
    assert frames_dir(tmp_path / "given") == tmp_path / "given" / "frames"


# --- errors ------------------------------------------------------------------------------------------------------


def _bad_file(tmp_path, clip, kind):
    path = tmp_path / f"{kind}.mp4"
    data = clip.read_bytes()
    contents = {
        "truncated": data[: len(data) // 2],
        "text": b"This is a text file, not a video.\n" * 10,
        "empty": b"",
        "header_only": data[:64],
    }
    path.write_bytes(contents[kind])
    return path


@pytest.mark.parametrize("kind", ["truncated", "text", "empty", "header_only"])
def test_a_file_that_is_not_a_readable_video_names_the_file(clip, tmp_path, kind):
    path = _bad_file(tmp_path, clip, kind)
    with pytest.raises(InputError) as caught:
        sample_frames(path, 4, cache_dir=tmp_path / "cache")
    assert caught.value.source == str(path)
    assert "not a readable video" in caught.value.problem
    assert "\n" not in str(caught.value)


def test_a_missing_video_names_the_file(tmp_path):
    missing = tmp_path / "nowhere.mp4"
    with pytest.raises(InputError, match="video file not found") as caught:
        sample_frames(missing, 4, cache_dir=tmp_path)
    assert caught.value.source == str(missing)


def test_a_directory_is_not_a_video(tmp_path):
    with pytest.raises(InputError, match="not a video file"):
        sample_frames(tmp_path, 4, cache_dir=tmp_path / "cache")


@pytest.mark.parametrize(("num_frames", "max_side"), [(0, None), (-2, None), (2.5, None), (4, 0), (4, "big")])
def test_bad_requests_are_input_errors(clip, tmp_path, num_frames, max_side):
    with pytest.raises(InputError, match=r"clip\.mp4"):
        sample_frames(clip, num_frames, max_side=max_side, cache_dir=tmp_path)


def test_a_failed_build_leaves_no_partial_entry(clip, tmp_path, monkeypatch):
    def broken_jpeg(path, frame, max_side):
        raise OSError("disk full")

    monkeypatch.setattr(frames_module, "_write_jpeg", broken_jpeg)
    with pytest.raises(OSError, match="disk full"):
        sample_frames(clip, 3, cache_dir=tmp_path)
    assert list(frames_dir(tmp_path).iterdir()) == []
    assert os.listdir(tmp_path) == ["frames"]


def test_two_concurrent_requests_agree_and_leave_one_complete_entry(clip, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda _: sample_frames(clip, 6, cache_dir=tmp_path), range(2)))
    assert results[0] == results[1]
    assert [p.name for p in frames_dir(tmp_path).iterdir()] == [results[0].paths[0].parent.name]
    assert _numbers(results[0]) == list(results[0].indices)
