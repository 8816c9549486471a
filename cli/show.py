"""`mathreel show QUESTION_ID`: what the model would get for one question: the exact prompt, the sampled frames
with their times and the subtitle lines at each, and where the frame images were cached."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mathreel.cli.data import add_data_options, emit
from mathreel.cli.options import add_frame_options


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("show", help="show what the model sees for one question", description=__doc__)
    parser.add_argument(
        "question_id",
        metavar="QUESTION_ID",
        help="the question's id (for multi-binary rows sharing an id: ID#k, or ID for the first pair)",
    )
    add_data_options(parser)
    add_frame_options(parser, short=True)
    parser.add_argument("--max-side", type=int, default=None, metavar="PX", help="shrink frames to this longest side")
    parser.add_argument("--subtitles", action="store_true", help="add the sampled frames' subtitles to the prompt")
    parser.add_argument("--full-subtitles", action="store_true", help="put every subtitle line in the prompt")
    parser.add_argument("--cot", action="store_true", help="the chain-of-thought prompt")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mathreel.cli import options
    from mathreel.core.data import load_dataset
    from mathreel.core.view import build_view

    options.check(args, options.FRAMES, options.FPS)
    dataset = load_dataset(args.benchmark, args.mode, args.data)
    view = build_view(
        dataset,
        dataset.question(args.question_id),
        num_frames=args.frames,
        cot=args.cot,
        with_subtitles=args.subtitles,
        full_subtitles=args.full_subtitles,
        interleaved=args.interleave,
        style=args.style,
        max_side=args.max_side,
        fps=args.fps,
    )
    if args.json:
        emit(json.dumps(view.to_dict(), ensure_ascii=False, indent=1))
    else:
        emit(render(view.to_dict(), source=dataset.source))
    return 0


def render(view: dict[str, Any], *, source: str) -> str:
    """The readable form: a heading, the prompt, each frame with its subtitle lines, then the paths."""
    lines = [
        f"{view['benchmark']} {view['mode']} · question {view['ref']}"
        + (f" · video {view['video_id']}" if view.get("video_id") else "")
        + f" · from {source}"
    ]
    lines += ["", "── prompt " + "─" * 50, view["prompt"]]
    if _texts_between_frames(view["message"]):
        lines += ["", "── the turn in order " + "─" * 39, *_turn(view)]
    if view["frames"]:
        lines += [
            "",
            f"── {len(view['frames'])} of {view['total_frames']} frames "
            f"({view['fps']:.3g} fps, {view['duration']:.1f} s) " + "─" * 20,
        ]
        for frame, cues in zip(view["frames"], view["frame_subtitles"], strict=True):
            lines.append(f"frame {frame['index']:>7}  t={frame['time']:>9.2f}s")
            lines += [f"    │ {line}" for cue in cues for line in cue["text"].splitlines()]
        lines += ["", "── frame images " + "─" * 44, *view["frame_paths"]]
    for label, key in (("video", "video_path"), ("subtitles", "subtitle_path"), ("image", "image_path")):
        if view.get(key):
            lines.append(f"{label}: {view[key]}")
    lines += [f"note: {note}" for note in view["notes"]]
    return "\n".join(lines)


def _texts_between_frames(message: list[dict[str, Any]]) -> bool:
    """Whether the turn is more than "every frame, then the text" (interleaved subtitles, text first)."""
    kinds = ["frame" in part for part in message]
    return kinds != sorted(kinds, reverse=True)


def _turn(view: dict[str, Any]) -> list[str]:
    """Each part of the turn on its own line: `[frame 3: index 420, t=14.00s]` or the text."""
    frames = view["frames"]
    lines = []
    for part in view["message"]:
        if "frame" in part:
            frame = frames[part["frame"]]
            lines.append(f"[frame {part['frame'] + 1}: index {frame['index']}, t={frame['time']:.2f}s]")
        else:
            lines.append(part["text"])
    return lines
