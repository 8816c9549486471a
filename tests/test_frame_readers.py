"""decord and PyAV agree: same frame numbering, times, keyframes and pixels; threads change nothing; tiny and bad
videos give frames or one clear line with no decoder log noise; the reader is chosen and cached as documented.

Every video is a real H.264 file written by core.media.writer with its frame number drawn into it. The reference for
"exact" is PyAV decoding the whole file in order without seeking, which exists on every platform; the decord
comparisons run where decord is installed and are reported as skipped (with the reason) where it is not.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mathreel.core.errors import InputError
from mathreel.core.media.exact import decode_chains, decode_costs, exact_frames
from mathreel.core.media.frames import sample_frames
from mathreel.core.media.readers import READER_ENV, open_reader
from mathreel.core.media.writer import frame_number, numbered_frame, write_h264

FPS = 25
VFR_TIMES = [0.0, 0.04, 0.5, 0.52, 1.7, 1.74, 1.78, 3.0, 3.1, 4.25, 4.3, 6.0]

# name -> (frame count, write_h264 keyword arguments, height, width)
KINDS = {
    "gop1": (12, {"gop": 1}, 48, 64),
    "gop7_bframes": (50, {"gop": 7}, 48, 64),
    "gop30_no_bframes": (70, {"gop": 30, "bframes": 0}, 48, 64),
    "gop25_three_bframes": (80, {"gop": 25, "bframes": 3}, 48, 64),
    "vfr": (len(VFR_TIMES), {"gop": 4, "pts_seconds": VFR_TIMES}, 48, 64),
    "odd_size_yuv444": (30, {"gop": 8, "pix_fmt": "yuv444p"}, 37, 45),
    "rotation_90": (30, {"gop": 8, "rotation": 90}, 48, 64),
}


def _write(path, kind):
    count, options, height, width = KINDS[kind]
    frames = (numbered_frame(i, height, width) for i in range(count))
    return write_h264(path, frames, FPS, crf=18, **options)


_WRITTEN: dict[str, Path] = {}


def _video_of(kind: str, tmp_path_factory) -> tuple[str, Path]:
    """The test video of `kind`, written once per session."""
    if kind not in _WRITTEN:
        _WRITTEN[kind] = _write(tmp_path_factory.mktemp(kind) / f"{kind}.mp4", kind)
    return kind, _WRITTEN[kind]


@pytest.fixture(scope="module", params=sorted(KINDS))
def video(request, tmp_path_factory):
    return _video_of(request.param, tmp_path_factory)


# decord 0.6.0 garbles rotated videos (test_decord_refuses_rotated_videos_and_auto_uses_pyav covers that case), so
# the decord-against-PyAV comparison runs on every other kind.
@pytest.fixture(scope="module", params=sorted(kind for kind in KINDS if kind != "rotation_90"))
def unrotated_video(request, tmp_path_factory):
    return _video_of(request.param, tmp_path_factory)


def _sequential(path):
    """Every frame, decoded in order from the start without seeking."""
    import av

    with av.open(str(path)) as container:
        return [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]


def _need_decord():
    pytest.importorskip("decord", reason="decord is not installed on this platform; the PyAV checks still run")


def test_pyav_seeking_gives_the_exact_frames(video):
    kind, path = video
    reference = _sequential(path)
    reader = open_reader(path, "pyav")
    assert reader.total == len(reference) == KINDS[kind][0]
    targets = sorted({0, 1, reader.total // 3, reader.total // 2 + 1, reader.total - 2, reader.total - 1})
    decoded = list(reader.frames(targets))
    assert [index for index, _ in decoded] == targets
    for index, frame in decoded:
        np.testing.assert_array_equal(frame, reference[index])
        assert frame_number(frame) == index


def test_decord_and_pyav_agree_on_numbering_times_and_pixels(unrotated_video):
    _need_decord()
    kind, path = unrotated_video
    ours, theirs = open_reader(path, "pyav"), open_reader(path, "decord")
    everything = list(range(ours.total))
    assert (ours.total, ours.fps) == (theirs.total, pytest.approx(theirs.fps))
    assert list(ours.keyframes()) == list(theirs.keyframes())
    assert ours.times(everything) == pytest.approx(theirs.times(everything), abs=1e-5)
    for (index, mine), (_, other) in zip(ours.frames(everything), theirs.frames(everything), strict=True):
        np.testing.assert_array_equal(mine, other, err_msg=f"{kind}: frame {index} differs")  # tolerance: none


def test_rotation_metadata_is_written_and_frames_are_returned_as_stored(tmp_path):
    """PyAV returns the coded picture without applying the display rotation."""
    import av

    path = _write(tmp_path / "rotated.mp4", "rotation_90")
    with av.open(str(path)) as container:
        assert next(container.decode(video=0)).rotation in (90, -90, 270)
    frame = next(open_reader(path, "pyav").frames([5]))[1]
    assert frame.shape == (48, 64, 3)
    assert frame_number(frame) == 5


def test_decord_refuses_rotated_videos_and_auto_uses_pyav(tmp_path):
    """decord 0.6.0 returns a (64, 48, 4) array of garbage for a 64x48 video rotated by 90 degrees."""
    _need_decord()
    path = _write(tmp_path / "rotated.mp4", "rotation_90")
    with pytest.raises(InputError, match="not an RGB image"):
        sample_frames(path, 3, cache_dir=tmp_path / "cache", reader="decord")
    sampled = sample_frames(path, 3, cache_dir=tmp_path / "cache", reader="auto")
    assert sampled.reader == "pyav"
    assert [frame_number(array) for array in sampled.arrays()] == [0, 14, 29]


@pytest.mark.parametrize("workers", [2, 3, 8])
@pytest.mark.parametrize("reader_name", ["pyav", "decord"])
def test_threads_decode_the_same_frames(tmp_path, workers, reader_name):
    if reader_name == "decord":
        _need_decord()
    path = _write(tmp_path / "threads.mp4", "gop25_three_bframes")
    targets = [0, 3, 24, 25, 26, 49, 51, 77, 79]
    reference = _sequential(path)
    arrived = dict(exact_frames(open_reader(path, reader_name), targets, workers=workers))
    assert sorted(arrived) == targets
    for index, frame in arrived.items():
        np.testing.assert_array_equal(frame, reference[index])


def test_decode_costs_count_frames_from_the_keyframe_or_the_last_target():
    keyframes = [0, 10, 20]
    assert decode_costs(keyframes, [3, 5, 12, 29]) == [4, 2, 3, 10]
    assert decode_costs(keyframes, [25]) == [6]


def test_decode_chains_group_targets_without_a_seek_between_them_costliest_first():
    keyframes = [0, 10, 20, 30]
    # 3 -> 5 decode on without a seek; 12 and 29 each start from their own keyframe; 31 follows 29 over keyframe 30
    assert decode_chains(keyframes, [3, 5, 12, 29, 31]) == [(10, [29]), (6, [3, 5]), (3, [12]), (2, [31])]
    assert decode_chains(keyframes, []) == []


def test_threads_share_the_work_by_cost_not_by_count():
    """Costliest chain first, each thread taking the next when it is free: on a 10-minute video's 8 targets the
    contiguous halves gave one thread 64% of the decoding; longest-first leaves both within one chain of half."""
    keyframes = list(range(0, 15000, 250))
    targets = [0, 2142, 4285, 6428, 8570, 10713, 12856, 14999]
    costs = [cost for cost, _ in decode_chains(keyframes, targets)]
    loads = [0, 0]
    for cost in costs:  # two threads, each taking the next chain as soon as it is free
        loads[loads.index(min(loads))] += cost
    assert max(loads) - min(loads) <= max(costs)
    assert max(loads) / sum(costs) < 0.55


# --- tiny and bad videos: frames or one line, no traceback, no log noise -----------------------------------------

TINY = [(1, 1), (2, 2), (6, 6), (8, 8), (16, 16), (24, 24), (64, 2), (7, 5)]


def _tiny(path, width, height):
    """Six flat grey frames; frame i has level 40 * i (so a test can tell which frame it got)."""
    fmt = "yuv420p" if width % 2 == 0 and height % 2 == 0 else "yuv444p"
    frames = (np.full((height, width, 3), 40 * i, np.uint8) for i in range(6))
    return write_h264(path, frames, FPS, gop=3, crf=0, pix_fmt=fmt)


@pytest.mark.parametrize(("width", "height"), TINY)
@pytest.mark.parametrize("reader_name", ["auto", "pyav"])
def test_tiny_videos_give_frames_of_the_right_shape(tmp_path, width, height, reader_name):
    path = _tiny(tmp_path / f"tiny{width}x{height}.mp4", width, height)
    sampled = sample_frames(path, 3, cache_dir=tmp_path / "cache", reader=reader_name)
    arrays = sampled.arrays()
    assert [array.shape for array in arrays] == [(height, width, 3)] * 3
    assert [round(float(array.mean()) / 40) for array in arrays] == [0, 2, 5]  # frames 0, 2 and 5


@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 2), (24, 24)])
def test_forcing_decord_on_a_tiny_video_is_one_clear_line(tmp_path, width, height):
    _need_decord()
    path = _tiny(tmp_path / "tiny.mp4", width, height)
    with pytest.raises(InputError, match="not an RGB image") as caught:
        sample_frames(path, 2, cache_dir=tmp_path / "cache", reader="decord")
    assert caught.value.source == str(path)
    assert "\n" not in str(caught.value)


NOISE_PROBE = textwrap.dedent("""
    import sys
    from mathreel.core.errors import InputError
    from mathreel.core.media.frames import sample_frames
    try:
        sample_frames(sys.argv[1], 4, cache_dir=sys.argv[2], reader=sys.argv[3])
    except InputError as error:
        print(error)
""")


@pytest.mark.parametrize("reader_name", ["auto", "pyav", "decord"])
@pytest.mark.parametrize("kind", ["text", "truncated"])
def test_bad_videos_print_no_decoder_log_lines(tmp_path, reader_name, kind):
    if reader_name == "decord":
        _need_decord()
    good = _write(tmp_path / "good.mp4", "gop7_bframes").read_bytes()
    bad = tmp_path / f"{kind}.mp4"
    bad.write_bytes(b"not a video\n" * 20 if kind == "text" else good[: len(good) // 2])
    done = subprocess.run(
        [sys.executable, "-c", NOISE_PROBE, str(bad), str(tmp_path / "cache"), reader_name],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1
    assert str(bad) in done.stdout and "not a readable video" in done.stdout


# --- choosing the reader -----------------------------------------------------------------------------------------


def test_an_unknown_reader_is_one_clear_line(tmp_path, monkeypatch):
    path = _write(tmp_path / "v.mp4", "gop1")
    monkeypatch.setenv(READER_ENV, "ffmpeg")
    with pytest.raises(InputError, match="frame reader must be one of auto, decord, pyav"):
        sample_frames(path, 2, cache_dir=tmp_path)


def test_forcing_decord_where_it_is_missing_says_so(tmp_path, monkeypatch):
    path = _write(tmp_path / "v.mp4", "gop1")
    monkeypatch.setitem(sys.modules, "decord", None)
    with pytest.raises(InputError, match="decord is not installed"):
        sample_frames(path, 2, cache_dir=tmp_path, reader="decord")
    assert sample_frames(path, 2, cache_dir=tmp_path).reader == "pyav"  # auto falls back


def test_the_reader_is_part_of_the_cache_key(tmp_path):
    _need_decord()
    path = _write(tmp_path / "v.mp4", "gop7_bframes")
    by_decord = sample_frames(path, 4, cache_dir=tmp_path / "cache", reader="decord")
    by_pyav = sample_frames(path, 4, cache_dir=tmp_path / "cache", reader="pyav")
    assert (by_decord.reader, by_pyav.reader) == ("decord", "pyav")
    assert by_decord.paths[0].parent != by_pyav.paths[0].parent
    assert sample_frames(path, 4, cache_dir=tmp_path / "cache", reader="auto") == by_pyav  # auto: PyAV first
    assert [a.tobytes() for a in by_decord.arrays()] == [a.tobytes() for a in by_pyav.arrays()]
