"""VideoMathQA: math reasoning over educational videos, MCQ (A-E) and multi-binary (A/B)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from mathreel.core.benchmarks.base import Benchmark, DataLayout, Dimension, Mode, OfficialScorer
from mathreel.core.errors import InputError
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.fields import first_text, parse_options, parse_steps, text
from mathreel.core.question import Question

CATEGORIES = (
    "Geometry Angle",
    "Geometry Area",
    "Geometry Length",
    "Chart",
    "Statistics",
    "Arithmetic",
    "Topology",
    "Graph Theory",
    "Counting",
    "Puzzle",
)
DURATIONS = ("short", "medium", "long")
DIFFICULTIES = ("easy", "medium", "hard")
REASONING_TYPES = ("Problem Focused", "Concept Transfer", "Deep Instructional Comprehension")
MCQ_LETTERS = ("A", "B", "C", "D", "E")
MBIN_LETTERS = ("A", "B")

# The seven error categories of the paper's error analysis (section 4.2, Fig. 5c), in its order, each with the
# definition the judge's error-analysis prompt gives for it (core/judge/prompts.py, errors_prompt).
ERROR_CATEGORY_DEFINITIONS: Mapping[str, str] = {
    "Misunderstanding the problem": "misreads what is asked, answers a different question, or misses a condition "
    "or cue the question depends on",
    "Failing to retrieve relevant information": "does not find or use a fact that the video, the subtitles or the "
    "lecture provides and the solution needs",
    "Misinterpreting visuals": "misreads a diagram, chart, table, handwritten or on-screen value or notation",
    "Incorrect application of concepts": "uses a valid concept, theorem or definition wrongly, or applies one "
    "where its conditions do not hold",
    "Wrong strategy or formula": "chooses an approach or formula that cannot solve the problem, or a wrong formula",
    "Forgetting earlier context": "loses track of information given or derived earlier (an earlier step, "
    "condition or part of the explanation)",
    "Calculation errors": "makes an arithmetic or algebraic slip while the approach itself is sound",
}
ERROR_CATEGORIES = tuple(ERROR_CATEGORY_DEFINITIONS)

_PAIR_SUFFIX = lazy_regex(r"^(.+)_(\d+)$")
_DURATION_FIELDS = ("length", "duration")
_VIDEO_FIELDS = ("videoID", "video_id")

# Prompt wording, character for character from lmms-eval (EvolvingLMMs-Lab/lmms-eval): the functions
# videomathqa_doc_to_text / videomathqa_doc_to_text_subtitle in lmms_eval/tasks/videomathqa/utils.py
# (commit 1741440d9ac6c14e6c97c67f05065994f976c3ad) and the post prompts of the task yamls beside it.
# docs/prompts.md lists every variant with its source.
SUBTITLES_HEADER = "This video's subtitles are listed below: \n"  # the space before the newline is the reference's
# The instruction line depends on subtitles and on the number of options (2 -> "A or B", any other -> "A, B, C, D
# or E"); the post prompt depends on the mode (task) and on CoT.
OPTION_PROMPTS = {
    (False, True): "Select the best answer to the following multiple-choice question based on the video. "
    "Respond with the letter (A or B) of the correct option.",
    (False, False): "Select the best answer to the following multiple-choice question based on the video. "
    "Respond with the letter (A, B, C, D or E) of the correct option.",
    (True, True): "Select the best answer to the following multiple-choice question based on the video and the "
    "subtitles. Respond with the letter (A or B) of the correct option.",
    (True, False): "Select the best answer to the following multiple-choice question based on the video and the "
    "subtitles. Respond with the letter (A, B, C, D or E) of the correct option.",
}
POST_PROMPTS = {
    ("mcq", False): "\nAnswer with the option's letter (A, B, C, D or E) from the given choices directly.",
    ("mcq", True): "First please perform reasoning, and think step by step to provide best answer to the following "
    "question with the option's letter (A, B, C, D or E) from the given choices.",
    ("mbin", False): "\nAnswer with the option's letter (A or B) from the given choices directly.",
    ("mbin", True): "First please perform reasoning, and think step by step to provide best answer to the following "
    "question with the option's letter (A or B) from the given choices.",
}
# What the prompt functions fall back to when a configuration gives no post_prompt (style "best_answer").
FALLBACK_POST_PROMPT = "The best answer is:"


class VideoMathQA(Benchmark):
    name = "videomathqa"
    title = "VideoMathQA"
    modes = (
        Mode("mcq", "Multiple choice (A-E)"),
        Mode("mbin", "Multi-binary (A/B pairs)", grouped=True),
    )
    dimensions = (
        Dimension("category", "Category", CATEGORIES),
        Dimension("duration", "Duration", DURATIONS),
        Dimension("difficulty", "Difficulty", DIFFICULTIES),
        Dimension("reasoning_type", "Reasoning type", REASONING_TYPES),
    )
    metric_keys = ("videomathqa_perception_score",)
    official_scorer = OfficialScorer(
        "lmms-eval extract_characters_regex",
        "extract_choice_lmms",
        "all",
        "EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/videomathqa/utils.py@75571cfe0fa3",
        commit="75571cfe0fa36ca5ec2e6aa2bb268f9d38295af3",
    )
    reproductions = MappingProxyType({"official": official_scorer, "lmms-regex": official_scorer})
    # The release's file names; the folders are the Hub's per-config layout (configs mcq, multi_binary).
    layout = DataLayout(
        subdir="videomathqa",
        annotations={
            "mcq": ("videomathqa_mcq_test.parquet", "mcq/test-*.parquet"),
            "mbin": ("videomathqa_mbin_test.parquet", "multi_binary/test-*.parquet"),
        },
        video_dirs=("videos",),
        subtitle_dirs=("subtitles",),
        extra_fetch=("subtitles/*.srt",),
    )
    primary_dimension = "category"
    browse_fields = ("difficulty", "reasoning_type")
    error_categories = ERROR_CATEGORIES
    error_category_definitions = ERROR_CATEGORY_DEFINITIONS
    reference_file = "videomathqa_paper.json"  # the paper's tables (docs/sources.md)
    # "default": the post prompts of the lmms-eval task yamls; "best_answer": the functions' own fallback.
    prompt_styles = ("default", "best_answer")
    supports_cot = True
    prompt_style_notes = MappingProxyType(
        {
            "default": "the lmms-eval task's post prompt (direct or chain of thought)",
            "best_answer": 'lmms-eval\'s fallback post prompt, "The best answer is:"',
        }
    )
    styles_without_cot = ("best_answer",)

    def letters(self, mode: str) -> tuple[str, ...]:
        return MBIN_LETTERS if mode == "mbin" else MCQ_LETTERS

    def group_id(self, question_id: str, mode: str) -> str:
        """Multi-binary pairs share an id, or are written `<base>_<k>` (as in lmms-eval's VideoMathQA examples)."""
        if mode != "mbin":
            return question_id
        match = _PAIR_SUFFIX.match(question_id)
        return match.group(1) if match else question_id

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        get = record.get
        question_id = first_text(record, self.id_fields)
        dims = {}
        for key, value in (
            ("category", text(get("category"))),
            # The dataset calls it `length`; the harness's metric dict calls it `duration`.
            ("duration", first_text(record, _DURATION_FIELDS).lower()),
            ("difficulty", text(get("difficulty"))),
            ("reasoning_type", text(get("reasoning_type"))),
        ):
            if value:
                dims[key] = value
        return Question(
            benchmark=self.name,
            mode=mode,
            question_id=question_id,
            question=text(get("question")),
            answer=text(get("answer")).upper(),
            options=parse_options(get("options")),
            video_id=first_text(record, _VIDEO_FIELDS) or None,
            group_id=self.group_id(question_id, mode),
            dims=dims,
            steps=parse_steps(get("steps")),
            extra={"error_categories": record["error_categories"]} if "error_categories" in record else {},
        )

    def build_prompt(
        self, question: Question, *, cot: bool = False, subtitles: str | None = None, style: str = "default"
    ) -> str:
        """The lmms-eval prompt: [subtitle block] instruction, question, options, post prompt, one per line."""
        self.check_prompt_request(question, cot=cot, style=style)
        instruction = OPTION_PROMPTS[(subtitles is not None, len(question.options) == 2)]
        options = "\n".join(question.options)
        body = "\n".join((instruction, question.question, options, self._post_prompt(question, cot, style)))
        if subtitles is None:
            return body
        return SUBTITLES_HEADER + subtitles + "\n" + body

    def _post_prompt(self, question: Question, cot: bool, style: str) -> str:
        """The task's post prompt, chosen by mode and CoT, or the functions' fallback."""
        where = f"{self.name} prompt"
        if style == "best_answer":
            return FALLBACK_POST_PROMPT
        try:
            return POST_PROMPTS[(question.mode, cot)]
        except KeyError:
            problem = f"unknown mode {question.mode!r}; expected mcq or mbin"
            raise InputError(where, problem, question.question_id) from None


VIDEOMATHQA = VideoMathQA()
