"""Video-MME-v2: 800 videos, four questions each (3,200), eight options (A-H), scored per group of four.

A group is a video's four questions. Relevance groups score the number right quadratically (0, 1/16, 4/16, 9/16,
1, times 100; also linearly, 25 a question); logic groups score the length of the chain of right answers from
the first question, for three chain structures: `[1,2,3,4]` (strict), `[1,[2,3],4]` (the second and third
questions are parallel: either continues the chain after the first) and `[[1,2],3,4]` (the first two are parallel
roots: either starts it). The taxonomy (level 1-3, second and third head) sits on the last question of a logic
group and on every question of a relevance group, so a group is reported under its last question's.

Everything here follows the official evaluation script (MME-Benchmarks/Video-MME-v2 evaluation/test_video_mme_v2.py)
and the harnesses that reproduce it; docs/sources.md pins each one. MathReel's default reads answers with the robust
reader, groups a video's questions in question order and counts an unparsed answer wrong; the pinned
reproductions (`official`, `lmms-eval`, `evalscope`) keep each reference's own rules, quirks included.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mathreel.core.benchmarks.base import (
    Benchmark,
    DataLayout,
    Dimension,
    GroupFacts,
    GroupPolicy,
    GroupScheme,
    GroupScore,
    Mode,
    OfficialScorer,
)
from mathreel.core.errors import InputError
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.fields import first_text, parse_options, text
from mathreel.core.question import Question

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.media.frame_cache import SampledFrames
    from mathreel.core.media.subtitles import Cue
    from mathreel.core.message import Message, PromptSubtitles
    from mathreel.core.scoring.groups import ScoredGroup
    from mathreel.core.scoring.json_types import UpstreamName
    from mathreel.core.scoring.report import Report
    from mathreel.core.scoring.row import ScoredRow

LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H")
GROUP_TYPES = ("relevance", "logic")
LEVELS = ("1", "2", "3")

_OFFICIAL = "MME-Benchmarks/Video-MME-v2 evaluation/test_video_mme_v2.py@013b6c92f1c4"
_LMMS_EVAL = "EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/videomme_v2/utils.py@394a8e4bc2d6"
_EVALSCOPE = "modelscope/evalscope evalscope/benchmarks/videomme_v2/videomme_v2_adapter.py@fde259d2a32a"

# Prompt wording, character for character. Official: the constants of evaluation/test_video_mme_v2.py (the
# reasoning prompt's unclosed quote is the reference's). lmms-eval: the strings of lmms_eval/tasks/videomme_v2/
# utils.py and its yaml kwargs. evalscope: MultipleChoiceTemplate.SINGLE_ANSWER_COT of evalscope/utils/
# multi_choices.py. docs/prompts.md lists every variant with its source.
WO_SUB_PROMPT = "These are the frames of a video."
WITH_SUB_PROMPT = "These are the frames of a video. This video's subtitles are listed below:\n{}\n"
WITH_SUB_PROMPT_INTERLEAVE = (
    "These are the frames of a video with corresponding subtitles shown between frames. "
    "The subtitles indicate what is being said during the time interval between adjacent frames."
)
THINK_PROMPT = (
    "Please perform a detailed reasoning based on the provided video frames to answer the following "
    "multiple-choice question selecting the best option from A through H and providing your final response "
    "strictly in the format: 'Final Answer: <letter>."
)
INSTRUCT_PROMPT = (
    "Select the best answer to the following multiple-choice question based on the video. "
    "Respond with only the letter (A, B, C, D, E, F, G, or H) of the correct option."
)
LMMS_SUBTITLE_PREFIX = "This video's subtitles are listed below:\n{}\n\n"
QWEN3_VL_PRE_PROMPT = "Question: "
QWEN3_VL_POST_PROMPT = "Answer with the option letter only."
EVALSCOPE_TEMPLATE = (
    "Answer the following multiple choice question. The last line of your response should be of the following "
    "format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of {letters}. Think step by step before "
    "answering.\n\n{question}\n\n{choices}"
)
EVALSCOPE_SUBTITLE_WORDS = 512
_EVALSCOPE_OPTION = lazy_regex(r"^\s*([A-Z])[\.\)]\s*(.*)$")

# lmms-eval's twelve metrics, each holding the same per-question dict; the first names the benchmark in a log.
METRIC_KEYS = tuple(
    f"videomme_v2_{part}_{kind}"
    for kind in ("score", "acc")
    for part in ("overall", "relevance", "logic", "level_1", "level_2", "level_3")
)

_VIDEO_FIELDS = ("video_id", "video")
_TAXONOMY = ("level", "second_head", "third_head")
_DIMENSION_FIELDS = ("group_type", *_TAXONOMY)
_WHOLE_NUMBER = lazy_regex(r"(\d+)(?:\.0*)?")


def _video_id(record: Mapping[str, Any]) -> str:
    """The video id, three digits as the dataset writes it ("001"; spreadsheets and TSV round trips give 1)."""
    video = first_text(record, _VIDEO_FIELDS)
    return video.zfill(3) if video.isdigit() else video


@functools.lru_cache(maxsize=8192)
def _option_lines(options: str) -> tuple[str, ...]:
    return tuple(line for line in options.splitlines() if line.strip())


def _options(value: Any) -> tuple[str, ...]:
    """The options: the dataset's one string of lines "A. ..." split into lines (no list literal to try, which
    costs a failed parse per question), else any other spelling `parse_options` reads."""
    if isinstance(value, str) and not value.lstrip().startswith("["):
        return _option_lines(value)
    return parse_options(value)


def _label(value: Any) -> str:
    """A taxonomy value as text; a whole number read back as a float ("2.0") is written as the integer."""
    label = text(value)
    whole = _WHOLE_NUMBER.fullmatch(label)
    return whole.group(1) if whole else label


# ----------------------------------------------------------------------------------------------- group scoring
# Score maps of the official script, indexed by the number of right answers (relevance) or credited chain steps.
_QUADRATIC = {0: 0.0, 1: 100.0 / 16, 2: 100.0 * 4 / 16, 3: 100.0 * 9 / 16, 4: 100.0}
_CHAIN_MAPS = {
    "[1,2,3,4]": _QUADRATIC,
    "[1,[2,3],4]": {0: 0.0, 1: 100.0 / 12, 2: 100.0 * 4 / 12, 3: 100.0 * 7 / 12, 4: 100.0},
    "[[1,2],3,4]": {0: 0.0, 1: 100.0 / 10, 2: 100.0 * 2 / 10, 3: 100.0 * 5 / 10, 4: 100.0},
}


@functools.lru_cache(maxsize=64)
def canonical_structure(structure: str) -> str:
    """A structure literal written without spaces ("[1, [2, 3], 4]" -> "[1,[2,3],4]"); "" when it is not a list
    literal. Read with `ast.literal_eval`, as the reference reads it (imported here: every `mathreel` start imports
    this module, and only a Video-MME-v2 file reaches this)."""
    import ast

    try:
        value = ast.literal_eval(structure.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return ""
    return repr(value).replace(" ", "") if isinstance(value, list) else ""


def _number(marks: Sequence[int], position: int) -> int:
    """A member's mark, 0 for a member the group lacks."""
    return marks[position] if position < len(marks) else 0


def relevance_score(marks: Sequence[int]) -> tuple[float, float]:
    """(quadratic, linear): the official rule sums the marks (an unparsed -1 takes one away) and maps the count;
    a count outside 0-4 maps to 0, and the linear score is 25 a count (negative with -1 marks)."""
    count = sum(marks)
    return _QUADRATIC.get(count, 0.0), count * 25.0


def chain_steps(structure: str, marks: Sequence[int]) -> tuple[int, str | None]:
    """(credited steps, stand-in) of a logic chain: the run of truthy marks from the first question, then the
    structure's parallel rule: in `[1,[2,3],4]` a right third question stands in for a wrong second one (two
    steps, the fourth not credited); in `[[1,2],3,4]` a right second question stands in for a wrong first one (one
    step). Truthy as in the reference: an official unparsed -1 counts as right."""
    lead = 0
    for mark in marks:
        if not mark:
            break
        lead += 1
    if structure == "[1,[2,3],4]" and lead == 1 and _number(marks, 2):
        return 2, "Q3 stands in for Q2"
    if structure == "[[1,2],3,4]" and lead == 0 and _number(marks, 1):
        return 1, "Q2 stands in for Q1"
    return lead, None


def _roles(kind: str, marks: Sequence[int], steps: int, stand_in: str | None) -> tuple[str, ...]:
    """What each member's answer did to the score: every answer counts in a relevance group; in a chain the
    credited answers, the first that breaks it, a parallel question standing in, and the rest not reached."""
    n = len(marks)
    if kind == "relevance":
        return ("counted",) * n
    if stand_in == "Q3 stands in for Q2":
        roles = ("credited", "breaks the chain", "stands in", *("not reached",) * n)
    elif stand_in == "Q2 stands in for Q1":
        roles = ("breaks the chain", "stands in", *("not reached",) * n)
    else:
        roles = ("credited",) * steps + (("breaks the chain",) if steps < n else ()) + ("not reached",) * n
    return roles[:n]


def _break_position(roles: Sequence[str]) -> int | None:
    return next((i + 1 for i, role in enumerate(roles) if role == "breaks the chain"), None)


def _status_notes(statuses: Sequence[str], marks: Sequence[int]) -> str:
    """ "; Q2 unparsed, scored -1 (counted right in a chain)" style notes for answers that were not read."""
    notes = []
    for position, (status, mark) in enumerate(zip(statuses, marks, strict=True), start=1):
        if status == "unparsed":
            notes.append(f"Q{position} unparsed, scored -1" if mark < 0 else f"Q{position} unparsed, counts wrong")
        elif status == "missing":
            notes.append(f"Q{position} missing, counts wrong")
    return "; " + "; ".join(notes) if notes else ""


@functools.lru_cache(maxsize=4096)
def _group_score(kind: str, structure_text: str, marks: tuple[int, ...], statuses: tuple[str, ...]) -> GroupScore:
    """`VideoMMEV2Groups.score` for one combination of kind, structure, marks and statuses."""
    right = sum(1 for mark in marks if mark == 1)
    head = f"{right} of {len(marks)} right"
    notes = _status_notes(statuses, marks)
    if kind == "relevance":
        quadratic, linear = relevance_score(marks)
        return GroupScore(
            quadratic,
            linear,
            _roles("relevance", marks, 0, None),
            f"{head}: {quadratic:.2f} in a relevance group (linear {linear:.2f}){notes}",
        )
    if kind != "logic":
        return GroupScore(
            None, None, tuple("not scored" for _ in marks), f"{head}: not scored, unknown group type {kind!r}{notes}"
        )
    structure = canonical_structure(structure_text)
    if structure not in _CHAIN_MAPS:
        return GroupScore(
            None,
            None,
            tuple("not scored" for _ in marks),
            f"{head}: not scored, unknown chain structure {structure_text!r}{notes}",
        )
    steps, stand_in = chain_steps(structure, marks)
    value = _CHAIN_MAPS[structure].get(steps, 0.0)
    roles = _roles("logic", marks, steps, stand_in)
    broken = _break_position(roles)
    how = "complete chain" if broken is None else f"chain broken at Q{broken}"
    extra = f", {stand_in}" if stand_in else ""
    return GroupScore(
        value,
        None,
        roles,
        f"{head}: {value:.2f} in a {structure} {how}{extra} ({steps} step{'s' if steps != 1 else ''} credited){notes}",
        steps,
        broken,
    )


class VideoMMEV2Groups(GroupScheme):
    """Video-MME-v2's groups: a video's four questions, ordered by the number after the id's last hyphen."""

    size = 4
    kinds = GROUP_TYPES
    linear_kinds = ("relevance",)
    dimensions = (
        Dimension("level", "Level", LEVELS),
        Dimension("second_head", "Second head"),
        Dimension("third_head", "Third head"),
    )

    def key(self, question: Question) -> str:
        return question.video_id or question.cluster_key or question.question_id

    def position(self, question: Question) -> int:
        number = question.question_id.rpartition("-")[2]
        return int(number) if number.isdigit() else 0

    def describe(self, members: Sequence[Question], policy: GroupPolicy) -> GroupFacts:
        """Kind and structure from the last member (lmms-eval: the first); taxonomy from the last member (MathReel's
        own policy: from the last member that carries each field, since only logic groups' last rows do)."""
        source = members[0] if policy.kind_from_first else members[-1]
        dims: dict[str, str] = {}
        for member in reversed(members[-1:] if policy.taxonomy_from_last_row else members):
            for key in _TAXONOMY:
                if key not in dims and member.dims.get(key):
                    dims[key] = member.dims[key]
            if len(dims) == len(_TAXONOMY):
                break
        return GroupFacts(source.dims.get("group_type", ""), source.extra.get("group_structure") or "", dims)

    def score(self, facts: GroupFacts, marks: Sequence[int], statuses: Sequence[str]) -> GroupScore:
        """The group's score and its explanation; a group depends only on its kind, structure, marks and statuses,
        of which a file has few combinations, so each is worked out once."""
        return _group_score(facts.kind, facts.structure, tuple(marks), tuple(statuses))


# ------------------------------------------------------------------------------------------- the benchmark
class VideoMMEV2(Benchmark):
    name = "videomme-v2"
    title = "Video-MME-v2"
    modes = (Mode("mcq", "Multiple choice (A-H), four questions per video"),)
    dimensions = (
        Dimension("group_type", "Group type", GROUP_TYPES),
        Dimension("level", "Level (as the row gives it)", LEVELS),
        Dimension("second_head", "Second head (as the row gives it)"),
        Dimension("third_head", "Third head (as the row gives it)"),
    )
    metric_keys = METRIC_KEYS
    result_layouts = ("videomme-v2-official", "vlmevalkit-v2")  # prediction tables carrying group_structure
    groups = VideoMMEV2Groups()
    official_scorer = OfficialScorer(
        "Video-MME-v2 test_video_mme_v2.py",
        "extract_choice_videomme_v2",
        "answered",
        _OFFICIAL,
        GroupPolicy(by_position=True, unparsed_mark=-1, taxonomy_from_last_row=True),
        commit="013b6c92f1c4b37b9a020c71fd709614d3a7d279",
    )
    reproductions = MappingProxyType(
        {
            "official": official_scorer,
            "lmms-eval": OfficialScorer(
                "lmms-eval videomme_v2",
                "extract_choice_lmms_videomme_v2",
                "all",
                _LMMS_EVAL,
                GroupPolicy(kind_from_first=True, taxonomy_from_last_row=True),
                commit="394a8e4bc2d67407aff44d805bf49a4b943bee00",
            ),
            "evalscope": OfficialScorer(
                "evalscope videomme_v2 (per-question accuracy)",
                "extract_choice_evalscope",
                "all",
                _EVALSCOPE,
                commit="fde259d2a32ab8a4cdb3af44dc8b18f504f1e277",
            ),
        }
    )
    layout = DataLayout(
        subdir="videomme-v2",
        # The Hub's test.parquet at the root; videos/<id>.mp4 once the archives are unzipped (VLMEvalKit flattens
        # them into video/), subtitle/<id>.jsonl once subtitle.zip is (lmms-eval before 394a8e4: subtitle/subtitle/).
        annotations={"mcq": ("test.parquet",)},  # the card: "videos/, test.parquet, and subtitle.zip"
        video_dirs=("videos", "video"),
        subtitle_dirs=("subtitle", "subtitle/subtitle"),
        subtitle_ext=".jsonl",
    )
    browse_fields = ("url", "group_structure")
    default_frames = 64  # the official script's --nframe
    frame_sampler = "midpoints"
    interleaved_subtitles = True
    # "default": the official script; "lmms": lmms-eval's doc_to_text (no frame-description line);
    # "qwen3_vl": its qwen3_vl kwargs; "evalscope": evalscope's chain-of-thought template, text before the video.
    prompt_styles = ("default", "lmms", "qwen3_vl", "evalscope")
    supports_cot = True
    prompt_style_notes = MappingProxyType(
        {
            "default": "the official script's prompt (subtitles after the frames, or interleaved with them)",
            "lmms": "lmms-eval's doc_to_text: no frame-description line; its reasoning task has no subtitles",
            "qwen3_vl": "lmms-eval's qwen3_vl kwargs (no chain-of-thought form)",
            "evalscope": "evalscope's chain-of-thought template, the text before the video",
        }
    )
    styles_without_cot = ("qwen3_vl",)
    styles_always_reasoning = ("evalscope",)
    styles_cot_without_subtitles = ("lmms",)

    def letters(self, mode: str) -> tuple[str, ...]:
        return LETTERS

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        get = record.get
        dims = {}
        for key in _DIMENSION_FIELDS:
            value = get(key)
            if value is not None and value != "":
                label = _label(value) if key == "level" else text(value)
                if label:
                    dims[key] = label
        options = get("options")
        video = _video_id(record)
        extra = {"group_structure": text(get("group_structure"))}
        if isinstance(options, str):
            extra["options_text"] = options  # the prompt writes the dataset's string as it is
        if get("url") is not None:
            extra["url"] = text(get("url"))
        return Question(
            benchmark=self.name,
            mode="mcq",
            question_id=first_text(record, self.id_fields),
            question=text(get("question")),
            answer=text(get("answer")).upper(),
            options=_options(options),
            video_id=video or None,
            dims=dims,
            extra=extra,
            cluster_key=video,
        )

    # -- prompts -------------------------------------------------------------------------------------------

    def build_prompt(
        self, question: Question, *, cot: bool = False, subtitles: str | None = None, style: str = "default"
    ) -> str:
        """The text items of the prompt joined by newlines; `subtitles` is the concatenated subtitle text."""
        self.check_prompt_request(question, cot=cot, style=style)
        return "\n".join(self._texts(question, cot, style, subtitles))

    def build_message(
        self,
        question: Question,
        *,
        frames: int,
        cot: bool = False,
        subtitles: PromptSubtitles | None = None,
        style: str = "default",
    ) -> Message:
        """Official: frames, the frame-description text, the question text (interleaved: each frame followed by the
        subtitle segments of its interval); lmms-eval: frames then one text; evalscope: the text, then frames."""
        from mathreel.core.message import Message  # prompts only: scoring never builds one

        self.check_prompt_request(question, cot=cot, style=style)
        if subtitles is not None and subtitles.interleaved:
            return self._interleaved(question, frames, cot, style, subtitles)
        concatenated = None if subtitles is None else self._concatenated(subtitles, style)
        texts = self._texts(question, cot, style, concatenated)
        shown = () if concatenated is None else (concatenated,)
        if style == "evalscope":
            return Message((*texts, *range(frames)), shown)
        return Message((*range(frames), *texts), shown)

    def _texts(self, question: Question, cot: bool, style: str, subtitles: str | None) -> tuple[str, ...]:
        where = f"{self.name} prompt"
        options = text_of_options(question)
        if style == "evalscope":
            return (_evalscope_prompt(question, subtitles),)
        if style == "default":
            describe = WO_SUB_PROMPT if subtitles is None else WITH_SUB_PROMPT.format(subtitles)
            answer = THINK_PROMPT if cot else INSTRUCT_PROMPT
            return describe, f"Question: {question.question}\n{options}\n{answer}"
        prefix = LMMS_SUBTITLE_PREFIX.format(subtitles) if subtitles else ""
        if cot:
            if style == "qwen3_vl" or subtitles is not None:
                raise InputError(
                    where,
                    "lmms-eval's reasoning task (videomme_v2_reasoning) has no subtitle or qwen3_vl variant",
                    question.question_id,
                )
            return (f"Question: {question.question}\n{options}\n{THINK_PROMPT}",)
        if style == "qwen3_vl":
            return (f"{prefix}{QWEN3_VL_PRE_PROMPT}{question.question}\n{options}\n{QWEN3_VL_POST_PROMPT}",)
        return (f"{prefix}Question: {question.question}\n{options}\n{INSTRUCT_PROMPT}",)

    def _concatenated(self, subtitles: PromptSubtitles, style: str) -> str:
        """Every word joined by spaces ("" without a subtitle file, as the reference reads a missing file);
        evalscope's first 512 non-empty words, stripped."""
        segments = subtitles.cues or ()
        if style == "evalscope":
            words = [word.strip() for seg in segments for word in getattr(seg, "words", (seg.text,))]
            return " ".join([word for word in words if word][:EVALSCOPE_SUBTITLE_WORDS])
        return " ".join(seg.text for seg in segments)

    def _interleaved(
        self, question: Question, frames: int, cot: bool, style: str, subtitles: PromptSubtitles
    ) -> Message:
        from mathreel.core.media.words import interval_label
        from mathreel.core.message import Message

        if style != "default":
            raise InputError(
                f"{self.name} prompt",
                "only the official prompt interleaves subtitles (lmms-eval and evalscope have no interleaved variant)",
                question.question_id,
            )
        if frames and len(subtitles.frame_cues) != frames:
            raise InputError(
                f"{self.name} prompt",
                "interleaved subtitles need the sampled frames' times; the video is missing",
                question.question_id,
            )
        parts: list[str | int] = []
        shown: list[str] = []
        for position in range(frames):
            labels = [interval_label(segment) for segment in subtitles.frame_cues[position]]
            parts += [position, *labels]
            shown += labels
        answer = THINK_PROMPT if cot else INSTRUCT_PROMPT
        question_item = f"Question: {question.question}\n{text_of_options(question)}\n{answer}"
        return Message((*parts, WITH_SUB_PROMPT_INTERLEAVE, question_item), tuple(shown))

    # -- subtitles -----------------------------------------------------------------------------------------

    def subtitle_cues(self, path: Path) -> list[Cue]:
        """The sentence segments of the word-level JSONL file (gap over 0.5 s, or over 0.1 s after . ! ?)."""
        from mathreel.core.media.words import read_words, segments

        return list(segments(read_words(path)))

    def frame_cues(self, cues: Sequence[Cue], frames: SampledFrames) -> list[list[Cue]]:
        """For each sampled frame i, the segments overlapping [t_i, t_(i+1)), with t = index / fps and the last
        interval ending at the video's end (frame count / fps), as the official script aligns them."""
        from mathreel.core.media.words import segments_between

        fps = frames.fps or 1.0
        return segments_between(cues, [index / fps for index in frames.indices], frames.total_frames / fps)

    # -- reference reports ---------------------------------------------------------------------------------

    def upstream_report(self, extractor: str, report: Report) -> tuple[UpstreamName, dict[str, Any]] | None:
        """The official rating JSON, lmms-eval's twelve metrics, or evalscope's subset accuracies."""
        if extractor == "official" and report.groups is not None:
            report.groups.warnings += official_stops(report.groups.groups)
            return "official_rating", official_rating(report.groups.groups)
        if extractor == "lmms-eval" and report.groups is not None:
            report.groups.warnings += lmms_stops(report.groups.groups, report.rows)
            return "lmms_eval", lmms_metrics(report.groups.groups, report.rows)
        if extractor == "evalscope":
            return "evalscope", evalscope_accuracy(report.rows)
        return None


def text_of_options(question: Question) -> str:
    """The options as the dataset writes them (one string, lines "A. ..."), else one option a line."""
    return str(question.extra.get("options_text") or "\n".join(question.options))


def _evalscope_prompt(question: Question, subtitles: str | None) -> str:
    """evalscope's template: options re-lettered "A) text" (continuation lines joined to their option)."""
    choices: list[str] = []
    for line in text_of_options(question).splitlines():
        line = line.strip()
        if not line:
            continue
        match = _EVALSCOPE_OPTION.match(line)
        if match:
            choices.append(match.group(2).strip())
        elif choices:
            choices[-1] = f"{choices[-1]} {line}"
        else:
            choices.append(line)
    body = question.question if not subtitles else f"Subtitles:\n{subtitles}\n\n{question.question}"
    return EVALSCOPE_TEMPLATE.format(
        letters=",".join(chr(ord("A") + i) for i in range(len(choices))),
        question=body,
        choices="\n".join(f"{chr(ord('A') + i)}) {choice}" for i, choice in enumerate(choices)),
    )


# ----------------------------------------------------------------------------------- reference result objects
_MISSING = "NaN"  # an empty cell as the official script's pandas reads it, and as its JSON writes the key


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def official_rating(groups: Sequence[ScoredGroup]) -> dict[str, Any]:
    """The official `get_final_rating` object: the mean group score per level, kind and head, 0.0 for an empty
    list; heads keyed by the raw value of each group's last row."""
    final: dict[str, list[float]] = {
        key: []
        for key in (
            "level_1",
            "level_2",
            "level_3",
            "relevance_score",
            "relevance_linear_score",
            "logic_score",
            "total",
        )
    }
    second: dict[str, list[float]] = {}
    third: dict[str, list[float]] = {}
    for group in groups:
        score = group.result.score
        if score is None:
            continue
        if group.facts.kind == "relevance":
            final["relevance_score"].append(score)
            final["relevance_linear_score"].append(group.result.linear or 0.0)
        else:
            final["logic_score"].append(score)
        level = group.facts.dims.get("level")
        if level:
            final.setdefault(f"level_{level}", []).append(score)
        final["total"].append(score)
        second.setdefault(group.facts.dims.get("second_head", _MISSING), []).append(score)
        third.setdefault(group.facts.dims.get("third_head", _MISSING), []).append(score)
    return {
        "final_rating": {key: _mean(values) for key, values in final.items()},
        "second_head_rating": {key: _mean(values) for key, values in second.items()},
        "third_head_rating": {key: _mean(values) for key, values in third.items()},
    }


def official_stops(groups: Sequence[ScoredGroup]) -> list[str]:
    """Where the official script would stop on this file: a group whose last row has no level becomes `int(nan)`
    (ValueError); an unknown kind or structure raises ValueError too. Either way it writes no rating."""
    stops = [group.key for group in groups if not group.facts.dims.get("level") or group.result.score is None]
    if not stops:
        return []
    head = ", ".join(stops[:10]) + (f" and {len(stops) - 10} more" if len(stops) > 10 else "")
    return [
        f"the official script stops on this file (ValueError: a group whose last row has no level, or an unknown "
        f"kind or structure: {head}), so it writes no rating; these are the figures it computes otherwise"
    ]


def _accuracy(rows: Sequence[ScoredRow]) -> float:
    return 100.0 * sum(1 for row in rows if row.status == "correct") / len(rows) if rows else 0.0


def lmms_metrics(groups: Sequence[ScoredGroup], rows: Sequence[ScoredRow]) -> dict[str, float]:
    """lmms-eval's twelve metrics: group scores by the group's kind and last row's level, accuracies over the rows
    the log holds, by each row's own group type and level."""
    answered = [row for row in rows if row.status != "missing"]
    scored = [group for group in groups if group.result.score is not None]
    metrics = {"videomme_v2_overall_score": _mean([g.result.score or 0.0 for g in scored])}
    for kind in GROUP_TYPES:
        metrics[f"videomme_v2_{kind}_score"] = _mean([g.result.score or 0.0 for g in scored if g.facts.kind == kind])
    for level in LEVELS:
        metrics[f"videomme_v2_level_{level}_score"] = _mean(
            [g.result.score or 0.0 for g in scored if g.facts.dims.get("level") == level]
        )
    metrics["videomme_v2_overall_acc"] = _accuracy(answered)
    for kind in GROUP_TYPES:
        metrics[f"videomme_v2_{kind}_acc"] = _accuracy([r for r in answered if r.dims.get("group_type") == kind])
    for level in LEVELS:
        metrics[f"videomme_v2_level_{level}_acc"] = _accuracy([r for r in answered if r.dims.get("level") == level])
    return metrics


def lmms_stops(groups: Sequence[ScoredGroup], rows: Sequence[ScoredRow]) -> list[str]:
    """Where lmms-eval's aggregation (394a8e4) would stop on this file: its per-head logging sorts the heads of the
    rows with the heads of the groups, and Python cannot order None among names (TypeError); a logic group of fewer
    than three rows indexes past its end (IndexError). Either way the run writes no result."""
    stops = []
    for key in ("second_head", "third_head"):
        values = {row.dims.get(key) for row in rows if row.status != "missing"}
        if None in values and len(values) > 1:
            stops.append(
                f"lmms-eval stops in its {key} logging here (None among the head names: TypeError), so a "
                "real run writes no result; these are the figures it computes before that"
            )
            break
    short = [g.key for g in groups if g.facts.kind == "logic" and len(g.marks) < 3]
    if short:
        stops.append(f"lmms-eval stops on logic groups of fewer than three questions (IndexError): {', '.join(short)}")
    return stops


def evalscope_accuracy(rows: Sequence[ScoredRow]) -> dict[str, float]:
    """evalscope's subsets (all, level_1-3 by each row's own level, logic, relevance): accuracy in percent."""
    answered = [row for row in rows if row.status != "missing"]
    subsets = {"all": _accuracy(answered)}
    for level in LEVELS:
        subsets[f"level_{level}"] = _accuracy([r for r in answered if r.dims.get("level") == level])
    for kind in ("logic", "relevance"):
        subsets[kind] = _accuracy([r for r in answered if r.dims.get("group_type") == kind])
    return subsets


VIDEOMME_V2 = VideoMMEV2()
