"""Checks on numeric and size options, shared by the commands, so a bad value is one line before any work.

argparse turns "nan", "inf" and "-5" into numbers happily; a NaN timeout then fails every request with a
misleading message, and a zero frame count fails every question. Each rule names its flag and its range.
"""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass

from mathreel.core.errors import InputError

# The largest --frames asked of one video. Evaluation settings for these benchmarks sample tens to a few hundred
# frames; every frame is decoded whole (about 6 MB at 1080p RGB), so 512 bounds one question's frames to about
# 3 GB instead of letting a typo ask for gigabytes per frame count digit (1e9 frames once tried to allocate 7 GiB).
MAX_FRAMES = 512
MAX_CONCURRENCY = 256  # more requests in flight than any single endpoint serves; also bounds open sockets
MAX_TOKENS = 1_000_000
MAX_TIMEOUT_S = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Rule:
    """`flag` (attribute `name`) must be a finite number in [low, high]; `allowed` lists extra legal values."""

    flag: str
    low: float
    high: float
    allowed: tuple[float, ...] = ()

    @property
    def name(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")

    def check(self, value: float | None) -> None:
        if value is None or value in self.allowed:
            return
        if not math.isfinite(value) or not self.low <= value <= self.high:
            extra = "".join(f" or {v:g}" for v in self.allowed)
            raise InputError(self.flag, f"must be {_number(self.low)} to {_number(self.high)}{extra}, not {value!r}")


def _number(value: float) -> str:
    return f"{value:g}" if value < 1e6 else f"{value:.0f}"


TIMEOUT = Rule("--timeout", 0.001, MAX_TIMEOUT_S)
TEMPERATURE = Rule("--temperature", 0.0, 2.0)  # the OpenAI API's range
MAX_TOKENS_RULE = Rule("--max-tokens", 1, MAX_TOKENS)
CONCURRENCY = Rule("--concurrency", 1, MAX_CONCURRENCY)
FRAMES = Rule("--frames", 1, MAX_FRAMES, allowed=(-1,))
FPS = Rule("--fps", 0.001, 60.0)  # frames per second taken from a video (Video-MME-v2's official fps mode)
SEED = Rule("--seed", 0, 2**32 - 1)  # numpy's generators take only non-negative seeds


def add_frame_options(parser: argparse.ArgumentParser, short: bool = False) -> None:
    """--frames, --fps, --interleave and --style, shared by `show` and `run`."""
    from mathreel.core.benchmarks import BENCHMARKS

    videos = [bench for bench in BENCHMARKS.values() if bench.layout and bench.layout.has_video]
    defaults = ", ".join(f"{bench.title} {bench.default_frames}" for bench in videos)
    flags = ("--frames", "-n") if short else ("--frames",)
    parser.add_argument(
        *flags,
        type=int,
        default=None,
        metavar="N",
        help=f"frames sampled per video (default: the benchmark's, {defaults}; at most {MAX_FRAMES}; "
        "-1 for every frame); with --fps, the most frames taken",
    )
    parser.add_argument(
        "--fps", type=float, default=None, metavar="F", help="take frames at F per second from the start instead"
    )
    interleaving = ", ".join(bench.title for bench in videos if bench.interleaved_subtitles) or "none"
    parser.add_argument(
        "--interleave",
        action="store_true",
        help=f"put each frame's subtitles right after it (benchmarks that do: {interleaving})",
    )
    parser.add_argument("--style", default="default", help="prompt style of the benchmark (default: default)")


PORT = Rule("--port", 0, 65535)


def check(args: argparse.Namespace, *rules: Rule) -> None:
    """Apply each rule to the attribute it names (absent or None attributes are left to defaults)."""
    for rule in rules:
        rule.check(getattr(args, rule.name, None))


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)\s*", re.IGNORECASE)


def check_file_size(value: str | None, source: str = "--max-file-size") -> None:
    """A size Gradio understands ("50mb", "1.5 gb"), above zero."""
    if value is None:
        return
    match = _SIZE.fullmatch(value)
    if match is None or float(match.group(1)) <= 0:
        raise InputError(source, f"expected a size above zero such as 50mb or 2gb, not {value!r}")
