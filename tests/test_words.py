"""Word-level subtitles (Video-MME-v2's JSONL): read as written, grouped into sentence segments by the reference's
two rules, and aligned to the intervals between sampled frames; the worked example is the one the reference's own
functions produced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathreel.core.errors import InputError
from mathreel.core.media.subtitles import Cue
from mathreel.core.media.words import interval_label, joined, read_words, segments, segments_between

# "Hello there." 0.00-0.60 | 0.15 s after a sentence end | "Today we cook" 0.75-2.40 | 0.70 s | "rice" 3.10-3.50
WORDS = [
    ("Hello", 0.0, 0.3),
    ("there.", 0.3, 0.6),
    ("Today", 0.75, 1.2),
    ("we", 1.2, 1.6),
    ("cook", 1.7, 2.4),
    ("rice", 3.1, 3.5),
]


def write(path: Path, words=WORDS) -> Path:
    path.write_text("".join(json.dumps({"text": t, "start_time": s, "end_time": e}) + "\n" for t, s, e in words))
    return path


def test_words_are_read_in_file_order_untouched(tmp_path):
    words = read_words(write(tmp_path / "001.jsonl", [("b ", 2.0, 2.5), ("a", 1.0, 1.5), ("a", 1.0, 1.5)]))
    assert [w.text for w in words] == ["b ", "a", "a"]  # no sorting, no de-duplication, no stripping
    assert joined(words) == "b  a a"


def test_segments_split_on_a_long_pause_or_a_short_one_after_a_sentence_end(tmp_path):
    found = segments(read_words(write(tmp_path / "001.jsonl")))
    assert [(s.text, s.start, s.end) for s in found] == [
        ("Hello there.", 0.0, 0.6),
        ("Today we cook", 0.75, 2.4),
        ("rice", 3.1, 3.5),
    ]
    assert found[1].words == ("Today", "we", "cook")
    inside = segments([Cue(0.0, 0.5, "and"), Cue(0.9, 1.2, "then")])  # 0.4 s without a sentence end: one segment
    assert [s.text for s in inside] == ["and then"]
    assert segments([]) == []


def test_segments_are_aligned_to_frame_intervals_as_the_reference_aligns_them(tmp_path):
    found = segments(read_words(write(tmp_path / "001.jsonl")))
    per_frame = segments_between(found, [0.0, 2.0], 4.0)
    assert [[interval_label(s) for s in frame] for frame in per_frame] == [
        ["[Subtitle 0.00s - 0.60s]: Hello there.", "[Subtitle 0.75s - 2.40s]: Today we cook"],
        ["[Subtitle 0.75s - 2.40s]: Today we cook", "[Subtitle 3.10s - 3.50s]: rice"],
    ]
    # A segment ending exactly at a frame's time still belongs to it (end >= t_i); one starting at t_next does not.
    edge = segments_between([Cue(1.0, 2.0, "x"), Cue(3.0, 4.0, "y")], [2.0], 3.0)
    assert [[s.text for s in frame] for frame in edge] == [["x"]]


def test_the_sweep_equals_the_reference_comparison_on_many_frames():
    import random

    rng = random.Random(5)
    cues = []
    t = 0.0
    for _ in range(300):
        start = t + rng.random()
        t = start + rng.random() * 3
        cues.append(Cue(round(start, 2), round(t, 2), "w"))
    times = sorted(rng.uniform(0, t) for _ in range(50))
    end = t + 1
    expected = [
        [c for c in cues if c.end >= start and c.start < stop]
        for start, stop in zip(times, [*times[1:], end], strict=True)
    ]
    assert segments_between(cues, times, end) == expected


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"text": 5, "start_time": 0, "end_time": 1}', "the word has no text"),
        ('{"text": "a", "start_time": "0", "end_time": 1}', "start_time is not a number"),
        ('["a", 0, 1]', "expected a word object"),
        ('{"text": "a", "start_time": 0', "line 1"),
    ],
)
def test_a_bad_line_is_one_clear_error(tmp_path, line, problem):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(InputError, match=problem) as caught:
        read_words(path)
    assert str(path) in str(caught.value)
