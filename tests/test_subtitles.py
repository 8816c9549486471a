"""Subtitles on pysrt: robust reading, markup stripping, time order, and alignment to sampled frame times."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from mathreel.core.errors import InputError
from mathreel.core.media.subtitles import (
    NO_SUBTITLES,
    Cue,
    all_lines,
    cues_for_frames,
    read_srt,
    subtitle_lines,
    subtitle_lines_or_placeholder,
    subtitle_text,
)


def _timestamp(ms: int) -> str:
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d},{millis:03d}"


def _srt(blocks: list[tuple[int, int, str]]) -> str:
    """SRT text from (start ms, end ms, body) blocks, numbered in the order given."""
    return "".join(
        f"{number}\n{_timestamp(start)} --> {_timestamp(end)}\n{body}\n\n"
        for number, (start, end, body) in enumerate(blocks, 1)
    )


def _write(tmp_path, text: str, *, encoding="utf-8", name="subs.srt"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


# --- reading -----------------------------------------------------------------------------------------------------


def test_reads_utf8_cues_with_times_in_seconds(tmp_path):
    path = _write(tmp_path, _srt([(1000, 2500, "Déjà vu: 2 × 3 = 6"), (2500, 4000, "next")]))
    assert read_srt(path) == [Cue(1.0, 2.5, "Déjà vu: 2 × 3 = 6"), Cue(2.5, 4.0, "next")]


def test_reads_utf8_with_bom(tmp_path):
    path = _write(tmp_path, _srt([(0, 1000, "début")]), encoding="utf-8-sig")
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"
    assert read_srt(path) == [Cue(0.0, 1.0, "début")]


def test_falls_back_to_latin1(tmp_path):
    path = _write(tmp_path, _srt([(0, 1000, "Größe und Fläche"), (1000, 2000, "café")]), encoding="latin-1")
    with pytest.raises(UnicodeDecodeError):
        path.read_bytes().decode("utf-8")
    assert [cue.text for cue in read_srt(path)] == ["Größe und Fläche", "café"]


def test_crlf_line_endings(tmp_path):
    path = _write(tmp_path, _srt([(0, 1000, "one\ntwo")]).replace("\n", "\r\n"))
    assert read_srt(path) == [Cue(0.0, 1.0, "one two")]


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ('<font color="white" size=".72c">the reference cue</font>', "the reference cue"),
        ("plain cue without a font tag", "plain cue without a font tag"),
        ("<i>slanted</i> and <b>bold</b> and <u>under</u>", "slanted and bold and under"),
        ("{\\an8}at the top", "at the top"),
        ('<font color="#ffff00">first line</font>\n<i>second line</i>', "first line second line"),
        ("  spaced   out\n\tline  ", "spaced out line"),
        ("x < y and y > z", "x < y and y > z"),
    ],
)
def test_markup_is_stripped_and_lines_joined_with_a_space(tmp_path, body, text):
    assert read_srt(_write(tmp_path, _srt([(0, 1000, body)]))) == [Cue(0.0, 1.0, text)]


def test_cues_come_back_in_time_order_and_empty_ones_are_dropped(tmp_path):
    blocks = [
        (5000, 6000, "third"),
        (0, 1000, "first"),
        (2000, 3000, "<i></i>"),
        (1000, 2000, "second"),
        (3000, 4000, "{\\an8}"),
        (1000, 2000, "second"),
    ]
    assert [cue.text for cue in read_srt(_write(tmp_path, _srt(blocks)))] == ["first", "second", "third"]


def test_a_cue_with_only_an_index_and_times_is_dropped(tmp_path):
    text = "1\n00:00:00,000 --> 00:00:01,000\n\n2\n00:00:01,000 --> 00:00:02,000\nkept\n"
    assert read_srt(_write(tmp_path, text)) == [Cue(1.0, 2.0, "kept")]


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff"])
def test_an_empty_file_has_no_cues(tmp_path, text):
    assert read_srt(_write(tmp_path, text)) == []


def test_a_missing_file_names_the_file(tmp_path):
    missing = tmp_path / "gone.srt"
    with pytest.raises(InputError, match="subtitle file not found") as caught:
        read_srt(missing)
    assert caught.value.source == str(missing)


@pytest.mark.parametrize(
    "text",
    [
        "this is not a subtitle file\nat all\n",
        "1\n00:00:01,000 -> 00:00:02,000\nbad arrow\n",
        "1\nno times here\nsome text\n",
    ],
)
def test_text_that_is_not_srt_names_the_file(tmp_path, text):
    path = _write(tmp_path, text)
    with pytest.raises(InputError, match="not a valid SRT file") as caught:
        read_srt(path)
    assert caught.value.source == str(path)
    assert "line" in caught.value.problem


def test_binary_data_is_not_srt(tmp_path):
    path = tmp_path / "video.srt"
    path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)))
    with pytest.raises(InputError, match="binary data"):
        read_srt(path)


def test_cue_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Cue(0.0, 1.0, "x").text = "y"  # type: ignore[misc]


# --- alignment ---------------------------------------------------------------------------------------------------

A, B, C = Cue(0.0, 2.0, "a"), Cue(1.0, 3.0, "b"), Cue(2.0, 4.0, "c")


def test_each_frame_gets_the_cues_covering_it_start_inclusive_end_exclusive():
    times = [0.0, 0.5, 1.0, 1.99, 2.0, 3.0, 3.999, 4.0, 10.0]
    assert cues_for_frames([C, A, B], times) == [[A], [A], [A, B], [A, B], [B, C], [C], [C], [], []]


def test_overlapping_cues_and_a_long_cue_spanning_many():
    long = Cue(0.0, 100.0, "narrator")
    short = [Cue(float(i), i + 0.5, f"s{i}") for i in range(10)]
    result = cues_for_frames([*short, long], [0.25, 0.75, 5.25, 50.0])
    assert result == [[short[0], long], [long], [long, short[5]], [long]]  # (0, 0.5) starts with, ends before long


def test_frame_times_in_any_order():
    assert cues_for_frames([A, B, C], [3.5, 0.5, 1.5]) == [[C], [A], [A, B]]


def test_a_cue_running_past_the_end_of_the_video_still_covers_the_last_frames():
    last_frame = 9.96  # a 10 s video at 25 fps
    cues = [Cue(9.0, 12.0, "runs past the end"), Cue(10.5, 11.0, "after the video")]
    assert cues_for_frames(cues, [0.0, 9.5, last_frame]) == [[], [cues[0]], [cues[0]]]
    assert subtitle_lines(cues, [0.0, 9.5, last_frame]) == ["runs past the end"]


def test_no_cues_or_no_frames():
    assert cues_for_frames([], [0.0, 1.0]) == [[], []]
    assert cues_for_frames([A], []) == []
    assert subtitle_lines([A], []) == []


def _reference_frame_rule(cues_ms, frames, fps):
    """The reference harness: frame numbers int(t * fps) from cue times, then start_frame <= idx < end_frame.

    Done in exact integer arithmetic (times in ms) so the oracle has no float error of its own.
    """
    return [
        [(start, end) for start, end in sorted(cues_ms) if start * fps // 1000 <= idx < end * fps // 1000]
        for idx in frames
    ]


def _random_cues(rng, count, horizon_ms, step_ms, longest_ms=320):
    """Cues whose start and end fall on multiples of `step_ms`, overlapping freely."""
    cues = set()
    while len(cues) < count:
        start = rng.randrange(0, horizon_ms, step_ms)
        cues.add((start, start + rng.randrange(step_ms, longest_ms + 1, step_ms)))
    return sorted(cues)


@pytest.mark.parametrize("seed", range(5))
def test_matches_the_reference_frame_rule_when_cues_start_and_end_on_frames(seed):
    """At 25 fps with cue edges on frame times (multiples of 40 ms), the time rule equals the reference's
    int(t * fps) frame rule, even with decord's float32 timestamps (long video: float32 error ~0.1 ms)."""
    rng = random.Random(seed)
    fps, total = 25, 90_000  # one hour
    cues_ms = _random_cues(rng, 300, 3_600_000, 40)
    frames = np.linspace(0, total - 1, 768, dtype=int).tolist()
    times = [float(np.float32(idx / fps)) for idx in frames]
    cues = [Cue(start / 1000, end / 1000, f"{start}-{end}") for start, end in cues_ms]
    ours = [[(round(c.start * 1000), round(c.end * 1000)) for c in frame] for frame in cues_for_frames(cues, times)]
    assert ours == _reference_frame_rule(cues_ms, frames, fps)
    assert sum(map(len, ours)) > 0


@pytest.mark.parametrize("seed", range(5))
def test_matches_exact_time_arithmetic_for_any_millisecond_cue(seed):
    """Cue edges on any millisecond, frames every 40 ms: start <= t < end computed exactly in integers."""
    rng = random.Random(seed)
    cues_ms = _random_cues(rng, 2000, 600_000, 1, longest_ms=4000)
    frames = sorted(rng.sample(range(15_000), 300))
    times = [float(np.float32(idx * 0.04)) for idx in frames]
    cues = [Cue(start / 1000, end / 1000, f"{start}-{end}") for start, end in cues_ms]
    ours = [[(round(c.start * 1000), round(c.end * 1000)) for c in frame] for frame in cues_for_frames(cues, times)]
    exact = [[(s, e) for s, e in cues_ms if s <= idx * 40 < e] for idx in frames]
    assert ours == exact
    assert sum(map(len, ours)) > 0


def test_subtitle_lines_are_unique_and_in_time_order():
    cues = [C, A, B, Cue(10.0, 11.0, "unseen")]
    assert subtitle_lines(cues, [3.5, 0.5, 1.5, 1.6, 2.5]) == ["a", "b", "c"]


def test_subtitle_lines_equal_the_union_of_the_per_frame_cues():
    rng = random.Random(3)
    cues = [Cue(s / 1000, e / 1000, f"{s}") for s, e in _random_cues(rng, 150, 60_000, 1, longest_ms=3000)]
    times = sorted(rng.uniform(0, 60) for _ in range(64))
    union = sorted({cue for frame in cues_for_frames(cues, times) for cue in frame})
    assert subtitle_lines(cues, times) == [cue.text for cue in union]


def test_all_lines_is_every_cue_in_time_order():
    assert all_lines([C, A, B, A]) == ["a", "b", "c"]


def test_subtitle_text_and_the_placeholder():
    assert subtitle_text(None, [0.0]) == NO_SUBTITLES == "No subtitles available"
    assert subtitle_lines_or_placeholder(None) == [NO_SUBTITLES]
    assert subtitle_text([A, B, C], [0.5, 2.5]) == "a\nb\nc"
    assert subtitle_text([A, B, C]) == "a\nb\nc"  # full-subtitle mode
    assert subtitle_text([A], [7.0]) == ""  # a subtitle file whose cues miss every sampled frame
    assert subtitle_text([], [0.0]) == ""


def test_read_and_align_a_real_file(tmp_path):
    blocks = [
        (3000, 5000, '<font color="white" size=".72c">third</font>'),
        (0, 1500, "first"),
        (1000, 3000, "<i>second</i>\noverlapping"),
    ]
    cues = read_srt(_write(tmp_path, _srt(blocks)))
    assert cues_for_frames(cues, [0.0, 1.2, 3.0]) == [[cues[0]], [cues[0], cues[1]], [cues[2]]]
    assert subtitle_text(cues, [0.0, 1.2, 3.0]) == "first\nsecond overlapping\nthird"
