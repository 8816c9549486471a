"""Word-level subtitles (Video-MME-v2's JSONL: one `{"text", "start_time", "end_time"}` object per word), their
sentence segments, and the segments that fall between two sampled frames.

Why apart from `subtitles.py`: SRT cues are cleaned and put in time order, while a word file is read exactly as
written (file order, text untouched, nothing dropped), because the reference joins the words in that order and
segments them by walking the file. Segmentation and alignment follow the Video-MME-v2 evaluation script
(docs/sources.md): a segment ends where the next word starts more than `gap` seconds after it, or more than
`sentence_gap` seconds after a word ending in ".", "!" or "?"; a segment belongs to the frame interval
[t_i, t_next) when it ends at or after t_i and starts before t_next, so a segment spanning a frame boundary is shown
after each frame it overlaps.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mathreel.core.errors import InputError
from mathreel.core.media.subtitles import Cue
from mathreel.core.reading import jsonl_values

GAP = 0.5  # seconds of silence that end a segment
SENTENCE_GAP = 0.1  # seconds after a sentence end that end a segment
SENTENCE_ENDS = (".", "!", "?")
_WHAT = "word subtitle file"


@dataclass(frozen=True, order=True)
class Segment(Cue):
    """A sentence segment: its first word's start, its last word's end, its words joined by spaces, and the words
    themselves (as written), for a prompt that counts words."""

    words: tuple[str, ...] = ()


def read_words(path: str | Path) -> list[Cue]:
    """Every word of a word-level JSONL subtitle file, in file order; InputError naming the file and line when a
    line is not a word object."""
    words = []
    for number, value in jsonl_values(path, _WHAT):
        if not isinstance(value, dict):
            raise InputError(str(path), f"expected a word object, got {type(value).__name__}", f"line {number}")
        words.append(_word(value, str(path), number))
    return words


def _word(value: dict, source: str, number: int) -> Cue:
    text, start, end = value.get("text"), value.get("start_time"), value.get("end_time")
    if not isinstance(text, str):
        raise InputError(source, "the word has no text", f"line {number}")
    for name, time in (("start_time", start), ("end_time", end)):
        if isinstance(time, bool) or not isinstance(time, (int, float)) or time != time:
            raise InputError(source, f"{name} is not a number of seconds", f"line {number}")
    return Cue(float(start), float(end), text)  # type: ignore[arg-type]  # both checked numbers just above


def joined(words: Sequence[Cue]) -> str:
    """All words joined by single spaces, as the reference puts them in the prompt."""
    return " ".join(word.text for word in words)


def segments(words: Sequence[Cue], gap: float = GAP, sentence_gap: float = SENTENCE_GAP) -> list[Segment]:
    """The words grouped into sentence segments, walking the file in order (see the module docstring)."""
    result: list[Segment] = []
    current: list[Cue] = []
    for word in words:
        if current:
            previous = current[-1]
            pause = word.start - previous.end
            if pause > gap or (previous.text.rstrip().endswith(SENTENCE_ENDS) and pause > sentence_gap):
                result.append(_segment(current))
                current = []
        current.append(word)
    if current:
        result.append(_segment(current))
    return result


def _segment(words: list[Cue]) -> Segment:
    return Segment(words[0].start, words[-1].end, joined(words), tuple(word.text for word in words))


def segments_between(segments: Sequence[Cue], times: Sequence[float], end: float) -> list[list[Cue]]:
    """For each frame time t_i, the segments overlapping [t_i, t_{i+1}) (the last interval ends at `end`), in
    their own order: seg.end >= t_i and seg.start < t_next.

    A sweep over frames in time order with an active heap keyed by segment end: O((F + S) log S) instead of the
    reference's F x S comparisons, same result. `times` must not decrease (every sampling rule gives them so).
    """
    ends = [*times[1:], end]
    by_start = sorted(range(len(segments)), key=lambda i: segments[i].start)
    active: list[tuple[float, int]] = []
    result: list[list[Cue]] = []
    taken = 0
    for start, stop in zip(times, ends, strict=True):
        while taken < len(by_start) and segments[by_start[taken]].start < stop:
            position = by_start[taken]
            heapq.heappush(active, (segments[position].end, position))
            taken += 1
        while active and active[0][0] < start:
            heapq.heappop(active)
        result.append([segments[position] for position in sorted(position for _, position in active)])
    return result


def interval_label(segment: Cue) -> str:
    """A segment as the interleaved prompt writes it: `[Subtitle 0.75s - 2.40s]: Today we cook`."""
    return f"[Subtitle {segment.start:.2f}s - {segment.end:.2f}s]: {segment.text}"
