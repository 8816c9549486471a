"""Which prompt settings a result file was produced with (chain of thought, subtitles, frame count), and where each
answer came from, so the app can show the prompt a run actually used beside its responses.

lmms-eval logs carry the task name (`arguments[4]` of a sample, or a `task`/`task_name` field) and the prompt text
(`arguments[0]`); other formats carry neither, and then the settings are guessed from the responses' style or left
at the default, and the source says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.core.results.recorded import first_prompt_text
from mathreel.core.view import ViewSettings

if TYPE_CHECKING:
    from mathreel.core.results.model import ResultFile

FRAME_FIELDS = ("num_frames", "max_num_frames", "frames", "nframes", "frame_num")
COT_PROMPT = re.compile(r"step by step|perform reasoning|perform a detailed reasoning|think step", re.IGNORECASE)
COT_TASK_WORDS = frozenset({"cot", "reasoning"})
COT_RESPONSE = re.compile(r"step by step|^\s*(?:step\s*)?\d+[.)]\s", re.IGNORECASE | re.MULTILINE)
SUBS_PROMPT = re.compile(r"subtitles are listed below|subtitles:|subtitle lines", re.IGNORECASE)
FRAMES_IN_NAME = re.compile(r"(?:^|_)(\d{1,3})_?f(?:rames?)?(?:_|$)", re.IGNORECASE)
SAMPLE = 50  # records looked at: enough to tell a style, cheap on a 270k-answer file


@dataclass(frozen=True)
class DetectedRunSettings:
    """The prompt settings a result file was produced with, as read from it, and per setting ("cot", "subtitles",
    "frames") where that came from (`core.client.run.RunSettings` is how `mathreel run` asks)."""

    settings: ViewSettings
    sources: dict[str, str] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """ "Chain of thought: yes (task name 'videomathqa_mcq_cot')" style lines, one per setting."""
        s = self.settings
        subs = "all lines" if s.full_subtitles else "yes" if s.with_subtitles else "no"
        return [
            f"Chain of thought: {'yes' if s.cot else 'no'} ({self.sources.get('cot', '')})",
            f"Subtitles in prompt: {subs} ({self.sources.get('subtitles', '')})",
            f"Frames: {s.num_frames} ({self.sources.get('frames', '')})",
        ]


def detect_run_settings(result: ResultFile, default_frames: int | None = None) -> DetectedRunSettings:
    """What `result` used, read from its task names and prompts, else guessed from its responses; the frame count
    not recorded is `default_frames`, else the benchmark's default."""
    if default_frames is None:
        from mathreel.core.benchmarks import get_benchmark

        default_frames = get_benchmark(result.benchmark).default_frames
    raws = [p.raw for p in result.first_predictions(SAMPLE) if isinstance(p.raw, dict)]
    task = next((t for t in map(_task_name, raws) if t), "")
    prompt = next((p for p in map(first_prompt_text, raws) if p), "")
    cot, cot_source = _detect_cot(task, prompt, [p.response for p in result.first_predictions(SAMPLE)])
    subs, subs_source = _detect_subtitles(task, prompt)
    frames, frames_source = _detect_frames(task, raws, default_frames)
    return DetectedRunSettings(
        ViewSettings(frames, cot, subs, False), {"cot": cot_source, "subtitles": subs_source, "frames": frames_source}
    )


def _task_name(raw: dict[str, Any]) -> str:
    for key in ("task", "task_name"):
        if isinstance(raw.get(key), str):
            return raw[key]
    args = raw.get("arguments")
    # lmms-eval's Instance.arguments: (context, gen_kwargs, doc_id, task, split)
    if isinstance(args, list) and len(args) > 3 and isinstance(args[3], str):
        return args[3]
    return ""


def _detect_cot(task: str, prompt: str, responses: list[str]) -> tuple[bool, str]:
    if task and not COT_TASK_WORDS.isdisjoint(task.lower().split("_")):
        return True, f"task name {task!r}"
    if prompt:
        return bool(COT_PROMPT.search(prompt)), "the prompt recorded in the file"
    styled = sum(1 for r in responses if COT_RESPONSE.search(r or "") or len(r or "") > 400)
    if responses and styled * 2 > len(responses):
        return True, f"a guess: {styled} of {counted(len(responses), 'response')} reason step by step"
    if task:
        return False, f"task name {task!r} names no chain of thought"
    return False, "a guess: the responses answer directly" if responses else "no responses; the default"


def _detect_subtitles(task: str, prompt: str) -> tuple[bool, str]:
    words = task.lower().split("_") if task else []
    if any(w in ("subtitle", "subtitles", "sub", "subs") or w.startswith("w_sub") for w in words):
        return True, f"task name {task!r}"
    if prompt:
        return bool(SUBS_PROMPT.search(prompt)), "the prompt recorded in the file"
    if task:
        return False, f"task name {task!r} names no subtitles"
    return False, "not recorded in the file; assumed off"


def _detect_frames(task: str, raws: list[dict[str, Any]], default: int) -> tuple[int, str]:
    for raw in raws:
        for key in FRAME_FIELDS:
            value = raw.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value, f"the file's {key!r} field"
    match = FRAMES_IN_NAME.search(task) if task else None
    if match and int(match.group(1)) > 0:
        return int(match.group(1)), f"task name {task!r}"
    return default, "not recorded in the file; the default"
