"""What a run used (harness, model, frames and how they were placed, subtitles, chain of thought, prompt variant,
reasoning tags), each read from the file where it says so and stated as a guess where it is inferred.

Where each comes from, most authoritative first:
- VLMEvalKit names its prediction file `<model>_<dataset>.xlsx`, and the dataset name carries the frame rule
  (`Video-MME_8frame_subs`: 8 frames at len/(n+1) steps, subtitles; `Video-MME_1fps`: one frame a second;
  `_interleave`, `_reasoning`), so for its files the name is read, not guessed.
- An lmms-eval sample log keeps its task name and prompt (`core.results.run_settings` reads them), and the
  `<stamp>_results.json` it writes beside `<stamp>_samples_<task>.jsonl` keeps the model arguments
  (`max_frames_num=16`), the model and the commit; lmms-eval's video loaders place frames by `np.linspace`.
- The Video-MME-v2 official script writes no settings: its defaults (64 frames at len/(n+1) steps) are a guess.
- A recorded prompt is matched against every prompt variant the benchmark can build, so the variant is read.
- Anything else is the benchmark's default, marked as a guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.defaults import DEFAULT_FRAMES
from mathreel.core.errors import InputError, MathReelError
from mathreel.core.explain.frames import FramePlan
from mathreel.core.plural import counted
from mathreel.core.results.recorded import first_prompt_text
from mathreel.core.results.run_settings import FRAME_FIELDS, FRAMES_IN_NAME, SAMPLE, detect_run_settings

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.benchmarks import Benchmark
    from mathreel.core.results.model import ResultFile

# What each result layout tells about the harness that wrote it and how that harness places frames.
HARNESSES: dict[str, str] = {
    "lmms-eval": "lmms-eval",
    "vlmevalkit": "VLMEvalKit",
    "vlmevalkit-v2": "VLMEvalKit",
    "videomme-v2-official": "the Video-MME-v2 official script (test_video_mme_v2.py)",
    "videomme-template": "the Video-MME result template (written by any harness)",
    "mathverse": "the MathVerse official output (written by any harness)",
    "plain": "not recorded",
}
LINSPACE_SOURCE = "lmms-eval's video loaders take np.linspace(0, n - 1, N) (lmms_eval/models/model_utils/load_video.py)"
VLMEVAL_SOURCE = "VLMEvalKit's video datasets (vlmeval/dataset/video_base.py)"
# VLMEvalKit's dataset names: <Dataset>_<N>frame or <Dataset>_<F>fps, then _subs, _interleave, _reasoning, ...
VLMEVAL_FRAMES = re.compile(r"_(?:(?P<frames>\d+)frame|(?P<fps>\d+(?:\.\d+)?)fps)(?P<tail>(?:_[a-z]+)*)$")
MODEL_ARG_FRAMES = ("max_frames_num", "num_frames", "nframes", "max_num_frames", "nframe", "frames")
THINK_TAG = "<think>"


@dataclass(frozen=True)
class Setting:
    """One setting of a run: its value in words, where that was read, and whether it is a guess."""

    key: str
    label: str
    value: Any
    text: str
    source: str
    guess: bool

    @property
    def marked_guess(self) -> bool:
        """Whether the text shown is marked "(a guess)": a guessed value is; "not recorded" is no guess to mark."""
        return self.guess and self.value is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "value": self.value,
            "text": self.text,
            "source": self.source,
            "guess": self.guess,
        }


@dataclass
class Provenance:
    """Every setting of one run, and the frame plan the "same frames?" check places (None without video)."""

    run: str
    settings: dict[str, Setting] = field(default_factory=dict)
    plan: FramePlan | None = None

    def add(self, key: str, label: str, value: Any, text: str, source: str, guess: bool) -> None:
        self.settings[key] = Setting(key, label, value, text, source, guess)


def provenance(result: ResultFile, name: str = "") -> Provenance:
    """What the run behind `result` used, setting by setting (see the module docstring)."""
    bench = get_benchmark(result.benchmark)
    found = Provenance(name or Path(result.source).name)
    raws = [p.raw for p in result.first_predictions(SAMPLE) if isinstance(p.raw, dict)]
    task, prompt = _first(raws, _task_name), _first(raws, first_prompt_text)
    config = _lmms_config(result) if result.layout == "lmms-eval" else {}
    dataset = _vlmeval_dataset(result)
    found.add(
        "harness",
        "Harness",
        result.layout or None,
        HARNESSES.get(result.layout, "not recorded"),
        f"the file's layout ({result.format})",
        False,
    )
    _model(found, raws, config, dataset)
    detected = detect_run_settings(result)
    recorded = bool(task or prompt)
    _frames(found, bench, result, raws, task, config, dataset)
    cot_source = detected.sources.get("cot", "")
    found.add(
        "cot",
        "Chain of thought",
        detected.settings.cot,
        "yes" if detected.settings.cot else "no",
        cot_source,
        not recorded,
    )
    subtitles = _subtitles_from_name(dataset)
    if subtitles is not None:
        found.add("subtitles", "Subtitles", subtitles, subtitles, f"the VLMEvalKit dataset name {dataset!r}", False)
    else:
        with_subs = detected.settings.with_subtitles
        found.add(
            "subtitles",
            "Subtitles",
            "yes" if with_subs else "no",
            "in the prompt" if with_subs else "none",
            detected.sources.get("subtitles", ""),
            not recorded,
        )
    _prompt_variant(found, bench, result, prompt)
    _reasoning_tags(found, result)
    return found


def _first(raws: list[dict[str, Any]], read: Any) -> str:
    return next((value for value in map(read, raws) if value), "")


def _task_name(raw: Mapping[str, Any]) -> str:
    """An lmms-eval task name: `task`/`task_name`, or `arguments[3]` (context, gen_kwargs, doc_id, task, split)."""
    for key in ("task", "task_name"):
        if isinstance(raw.get(key), str):
            return raw[key]
    args = raw.get("arguments")
    return args[3] if isinstance(args, list) and len(args) > 3 and isinstance(args[3], str) else ""


def _vlmeval_dataset(result: ResultFile) -> str:
    """VLMEvalKit's dataset name in its prediction file's name (`<model>_<dataset>.xlsx`), when it has a frame rule."""
    if not result.layout.startswith("vlmevalkit"):
        return ""
    stem = Path(result.source).stem
    match = VLMEVAL_FRAMES.search(stem)
    if match is None:
        return ""
    start = stem.rfind("_", 0, match.start())
    # The dataset name starts after the model's name: the benchmark part has no underscore of its own
    return stem[start + 1 :] if start >= 0 else stem


def _vlmeval_parts(dataset: str) -> re.Match[str] | None:
    return VLMEVAL_FRAMES.search(dataset) if dataset else None


def _subtitles_from_name(dataset: str) -> str | None:
    parts = _vlmeval_parts(dataset)
    if parts is None:
        return None
    tail = parts.group("tail").split("_")
    if "subs" not in tail:
        return "none"
    return "between the frames" if "interleave" in tail else "in the prompt"


def _lmms_config(result: ResultFile) -> dict[str, str]:
    """The model arguments, model and commit from the `<stamp>_results.json` beside an lmms-eval sample log."""
    path = Path(result.source)
    stamp, marker, _ = path.name.partition("_samples_")
    if not marker:
        return {}
    sibling = path.with_name(f"{stamp}_results.json")
    if not sibling.is_file():
        return {}
    from mathreel.core.reading import open_input

    try:
        handle, _ = open_input(sibling, "lmms-eval results file")
        with handle:
            data = json.loads(handle.read().decode("utf-8"))
    except (InputError, OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    config = data.get("config") if isinstance(data, dict) else None
    if not isinstance(config, dict):
        return {}
    found = {"file": sibling.name}
    arguments = config.get("model_args")
    if isinstance(arguments, str):
        for part in arguments.split(","):
            key, equals, value = part.partition("=")
            if equals:
                found[f"arg:{key.strip()}"] = value.strip()
    for key in ("model",):
        if isinstance(config.get(key), str):
            found[key] = config[key]
    if isinstance(data.get("git_hash"), str):
        found["git_hash"] = data["git_hash"]
    return found


def _model(found: Provenance, raws: list[dict[str, Any]], config: dict[str, str], dataset: str) -> None:
    recorded = _first(raws, lambda raw: raw.get("model") if isinstance(raw.get("model"), str) else "")
    if recorded:
        found.add("model", "Model", recorded, recorded, "the file's 'model' field", False)
    elif config.get("arg:pretrained") or config.get("model"):
        value = config.get("arg:pretrained") or config["model"]
        found.add("model", "Model", value, value, f"{config['file']} (model_args)", False)
    elif dataset:
        stem = Path(found.run).stem
        value = stem[: len(stem) - len(dataset) - 1]
        found.add("model", "Model", value, value, "the VLMEvalKit file name (<model>_<dataset>)", False)
    else:
        found.add("model", "Model", None, "not recorded", "the file names no model", True)
    if config.get("git_hash"):
        found.add(
            "harness_commit",
            "Harness commit",
            config["git_hash"],
            config["git_hash"],
            f"{config['file']} (git_hash)",
            False,
        )


def _frames(
    found: Provenance,
    bench: Benchmark,
    result: ResultFile,
    raws: list[dict[str, Any]],
    task: str,
    config: dict[str, str],
    dataset: str,
) -> None:
    """Frame count and placement, from the most authoritative source the file has."""
    if bench.layout is None or not bench.layout.has_video:
        return
    count, rule, fps, source, guess = _frame_facts(bench, result, raws, task, config, dataset)
    plan = FramePlan(count, rule, fps)
    found.plan = plan
    found.add("frames", "Frames", count, plan.describe(), source, guess)
    sampler_source = {"lmms-eval": LINSPACE_SOURCE, "vlmevalkit": VLMEVAL_SOURCE, "vlmevalkit-v2": VLMEVAL_SOURCE}
    if result.layout in sampler_source:
        found.add(
            "sampler",
            "Frame placement",
            rule,
            plan.rule_text(),
            sampler_source[result.layout],
            result.layout == "lmms-eval",
        )
    else:
        found.add(
            "sampler",
            "Frame placement",
            rule,
            plan.rule_text(),
            f"{bench.title}'s own rule (the file does not say which harness placed its frames)",
            True,
        )


def _frame_facts(
    bench: Benchmark, result: ResultFile, raws: list[dict[str, Any]], task: str, config: dict[str, str], dataset: str
) -> tuple[int, str, float | None, str, bool]:
    parts = _vlmeval_parts(dataset)
    if parts is not None:
        if parts.group("fps"):
            return -1, "fps", float(parts.group("fps")), f"the VLMEvalKit dataset name {dataset!r}", False
        return int(parts.group("frames")), "midpoints", None, f"the VLMEvalKit dataset name {dataset!r}", False
    rule = "uniform" if result.layout == "lmms-eval" else bench.frame_sampler
    for raw in raws:
        for key in FRAME_FIELDS:
            value = raw.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value, rule, None, f"the file's {key!r} field", False
    match = FRAMES_IN_NAME.search(task) if task else None
    if match and int(match.group(1)) > 0:
        return int(match.group(1)), rule, None, f"the task name {task!r}", False
    for key in MODEL_ARG_FRAMES:
        value = config.get(f"arg:{key}", "")
        if value.isdigit() and int(value) > 0:
            return int(value), rule, None, f"{config['file']} (model_args {key}={value})", False
    # The count Score's run settings and Browse assume for such a file, so Explain places the frames Browse shows.
    return DEFAULT_FRAMES, rule, None, "not recorded; MathReel's default (as Score and Browse assume)", True


def _prompt_variant(found: Provenance, bench: Benchmark, result: ResultFile, prompt: str) -> None:
    """The recorded prompt matched against every variant (style x chain of thought) the benchmark builds: the same
    text, or, when the file's question text differs (subtitles inside, or a question the file does not carry), the
    same first and last lines (the instruction and the post prompt)."""
    if not prompt:
        found.add("prompt", "Prompt variant", None, "not recorded", "the file records no prompt", True)
        return
    question = next((p.question for p in result.predictions if first_prompt_text(p.raw) == prompt), None)
    exact: list[str] = []
    template: list[str] = []
    for style in bench.prompt_styles:
        for cot in (False, True) if bench.supports_cot else (False,):
            how = _variant_match(bench, question, prompt, style, cot) if question is not None else None
            name = f"{style}{' + chain of thought' if cot else ''}"
            (exact if how == "exact" else template if how == "template" else []).append(name)
    if exact or template:
        how = (
            "the prompt recorded in the file, character for character"
            if exact
            else "the prompt recorded in the file: its first and last lines (instruction and post prompt)"
        )
        names = exact or template
        found.add("prompt", "Prompt variant", names[0], " or ".join(names), how, False)
    else:
        found.add(
            "prompt",
            "Prompt variant",
            None,
            "none of MathReel's variants",
            f"the recorded prompt matches none of {', '.join(bench.prompt_styles)}",
            False,
        )


def _variant_match(bench: Benchmark, question: Any, prompt: str, style: str, cot: bool) -> str | None:
    try:
        built = bench.build_prompt(question, cot=cot, subtitles=None, style=style)
    except (MathReelError, ValueError, KeyError, TypeError):
        return None
    if built.strip() == prompt.strip():
        return "exact"
    mine = [line.strip() for line in built.splitlines() if line.strip()]
    theirs = [line.strip() for line in prompt.splitlines() if line.strip()]
    if mine and theirs and theirs[0].startswith(mine[0]) and theirs[-1] == mine[-1]:
        return "template"
    return None


def _reasoning_tags(found: Provenance, result: ResultFile) -> None:
    answers = len(result.predictions)
    raw = sum(1 for p in result.predictions if p.full_response is not None and THINK_TAG in p.full_response)
    inline = sum(1 for p in result.predictions if THINK_TAG in (p.response or ""))
    if raw:
        found.add(
            "reasoning",
            "Reasoning tags",
            True,
            f"{raw} of {answers} raw replies hold a {THINK_TAG} block",
            "the raw replies the file keeps beside the scored answers (lmms-eval >= 0.7 resps)",
            False,
        )
    elif inline:
        found.add(
            "reasoning",
            "Reasoning tags",
            True,
            f"{inline} of {counted(answers, 'response')} {'holds' if inline == 1 else 'hold'} a {THINK_TAG} block",
            "the responses",
            False,
        )
    else:
        found.add(
            "reasoning",
            "Reasoning tags",
            False,
            "none seen",
            f"no {THINK_TAG} in any of {counted(answers, 'response')}",
            False,
        )
