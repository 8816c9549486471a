"""Subtitles on pysrt: cues read robustly, then matched to the sampled frames' times.

Why: the reference harness scrambles cue order with a `set()`, keeps only text inside one exact `<font>` tag (so
plain cues vanish) and tests every sampled frame against every cue. Here cues keep their time order, all markup is
stripped with the text kept, and alignment is a sort plus a sweep.

Frame rule: a cue covers a frame at time t when start <= t < end, the time form of the reference's
`int(start * fps) <= frame < int(end * fps)`. Times within BOUNDARY_TOLERANCE of a cue boundary count as on the
boundary, because SRT times have 1 ms resolution and decord's timestamps are float32.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path

from mathreel.core.errors import InputError

NO_SUBTITLES = "No subtitles available"
BOUNDARY_TOLERANCE = 0.0005  # seconds: half the SRT time resolution

# HTML-like tags (<font ...>, <i>, </b>; "<" must be followed by a letter or "/") and ASS overrides ({\an8})
_MARKUP = re.compile(r"</?[A-Za-z][^<>]*>|\{\\[^{}]*\}")
_SPACES = re.compile(r"\s+")
_TIME_ORDER = attrgetter("start", "end", "text")  # a C-level sort key: much faster than the dataclass's __lt__


@dataclass(frozen=True, order=True)
class Cue:
    """One subtitle: shown from `start` to `end` (seconds), plain `text` on one line."""

    start: float
    end: float
    text: str


def read_srt(path: str | Path) -> list[Cue]:
    """The cues of an SRT file in time order, markup stripped, lines joined with a space, empty cues dropped.

    The file is read as UTF-8 (with or without a BOM), falling back to Latin-1. Raises InputError naming the file
    when it is missing or not SRT.
    """
    import pysrt

    path = Path(path)
    text = _decode(path)
    try:
        items = pysrt.SubRipFile.from_string(text, error_handling=pysrt.SubRipFile.ERROR_RAISE)
    except pysrt.Error as error:
        raise InputError(str(path), f"not a valid SRT file ({_srt_problem(text, error)})") from None
    return _in_time_order(cue for cue in map(_cue, items) if cue.text)


def _in_time_order(cues: Iterable[Cue]) -> list[Cue]:
    """Cues sorted by (start, end, text) with exact duplicates removed."""
    ordered = sorted(cues, key=_TIME_ORDER)
    return [cue for position, cue in enumerate(ordered) if position == 0 or cue != ordered[position - 1]]


def _decode(path: Path) -> str:
    """The file's text: UTF-8 (a BOM is dropped), else Latin-1, which accepts any byte."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(str(path), "subtitle file not found") from None
    except OSError as error:
        raise InputError(str(path), f"cannot read subtitle file: {error.strerror}") from None
    if b"\x00" in data:
        raise InputError(str(path), "not a valid SRT file (binary data, or a UTF-16 file)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _srt_problem(text: str, error: Exception) -> str:
    """Where pysrt gave up: it reports the line index first and the offending block last."""
    args = getattr(error, "args", ())
    line = args[0] if args and isinstance(args[0], int) else None
    kind = type(error).__name__
    if line is None:
        return kind
    block = text.splitlines()[max(0, line - 1)] if text else ""
    return f"{kind} in the block ending at line {line}" + (f": {block[:60]!r}" if block else "")


def _cue(item: object) -> Cue:
    """A pysrt item as a Cue: times in seconds, markup removed, lines joined with single spaces."""
    plain = _MARKUP.sub("", item.text)  # type: ignore[attr-defined]
    text = _SPACES.sub(" ", plain).strip()
    return Cue(item.start.ordinal / 1000, item.end.ordinal / 1000, text)  # type: ignore[attr-defined]


def cues_for_frames(cues: Sequence[Cue], times: Sequence[float]) -> list[list[Cue]]:
    """For each frame time, the cues covering it (start <= t < end), in time order; overlaps are kept.

    A sweep in time order: cues enter an active heap (keyed by end) when the sweep passes their start and leave it
    when it passes their end. O((F + S) log S) plus sorting each frame's (usually tiny) active set, for F frames and
    S cues; times may come in any order.
    """
    ordered = sorted(cues, key=_TIME_ORDER)
    frame_order = sorted(range(len(times)), key=times.__getitem__)
    result: list[list[Cue]] = [[] for _ in times]
    active: list[tuple[float, int]] = []  # (end, position in `ordered`)
    next_cue = 0
    for frame in frame_order:
        moment = times[frame] + BOUNDARY_TOLERANCE
        while next_cue < len(ordered) and ordered[next_cue].start <= moment:
            heapq.heappush(active, (ordered[next_cue].end, next_cue))
            next_cue += 1
        while active and active[0][0] <= moment:
            heapq.heappop(active)
        result[frame] = [ordered[position] for _, position in sorted(active, key=lambda pair: pair[1])]
    return result


def _covered_cues(cues: Sequence[Cue], times: Sequence[float]) -> list[Cue]:
    """The distinct cues covering at least one frame, in time order: one bisect per cue, O((F + S) log F)."""
    moments = sorted(t + BOUNDARY_TOLERANCE for t in times)
    covered = []
    for cue in _in_time_order(cues):
        first = bisect_left(moments, cue.start)  # first frame at or after the cue's start
        if first < len(moments) and moments[first] < cue.end:
            covered.append(cue)
    return covered


def subtitle_lines(cues: Sequence[Cue], times: Sequence[float]) -> list[str]:
    """The text of every cue covering any sampled frame, once each, in time order: the prompt's subtitle lines."""
    return [cue.text for cue in _covered_cues(cues, times)]


def all_lines(cues: Sequence[Cue]) -> list[str]:
    """Every cue's text in time order: the reference's "full subtitle" mode."""
    return [cue.text for cue in _in_time_order(cues)]


def subtitle_text(cues: Sequence[Cue] | None, times: Sequence[float] | None = None) -> str:
    """The subtitle block of a prompt: NO_SUBTITLES when the video has no subtitle file (`cues` is None);
    otherwise the lines of the cues covering `times` (all cues when `times` is None), joined with newlines.

    As in the reference, a subtitle file whose cues miss every sampled frame gives an empty block.
    """
    return "\n".join(subtitle_lines_or_placeholder(cues, times))


def subtitle_lines_or_placeholder(cues: Sequence[Cue] | None, times: Sequence[float] | None = None) -> list[str]:
    """`subtitle_text` as a list of lines: [NO_SUBTITLES] when there is no subtitle file."""
    if cues is None:
        return [NO_SUBTITLES]
    return all_lines(cues) if times is None else subtitle_lines(cues, times)
