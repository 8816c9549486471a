"""MathVerse: diagram math in five problem versions (plus Text Only), multi-choice and free-form.

The official "All" averages the five main versions; Text Only is reported apart. Judges and
extractors read `question_for_eval`, because `question` is empty for Vision Only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from mathreel.core.benchmarks.base import Benchmark, DataLayout, Dimension, Mode
from mathreel.core.errors import InputError
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.fields import first_text, json_or_literal, text
from mathreel.core.question import Question

MAIN_VERSIONS = ("Text Dominant", "Text Lite", "Vision Intensive", "Vision Dominant", "Vision Only")
TEXT_ONLY = "Text Only"
VERSIONS = (*MAIN_VERSIONS, TEXT_ONLY)
QUESTION_TYPES = ("multi-choice", "free-form")
SUBJECTS = ("Plane Geometry", "Solid Geometry", "Functions")
SUBFIELDS = ("Length", "Angle", "Area", "Analytic", "Applied", "Volume", "Coordinate", "Property", "Expression")

_FOR_EVAL_FIELDS = ("question_for_eval", "question")
# "Choices:\nA:40°\nB:60°" in question_for_eval / query_wo.
_CHOICES = lazy_regex(r"Choices?\s*:\s*\n(.*)$", re.S | re.I)
_CHOICE_LINE = lazy_regex(r"^\s*\(?([A-H])\s*[:\.\)：]\s*(.+?)\s*$")

# Prompt wording. Style "default" sends the record's own query_wo (direct) or query_cot (CoT) field, as the
# official MathVerse evaluation does. Styles "boxed" and "evalscope" use evalscope's templates
# (modelscope/evalscope evalscope/benchmarks/math_verse/math_verse_adapter.py, commit
# 81a548868673b1537fb1fa234e83e4f3482df2c9), filled with question_for_eval rather than evalscope's
# `question`, which is empty for Vision Only. docs/prompts.md lists every variant with its source.
BOXED_TEMPLATE = "{question}\nPlease reason step by step, and put your final answer within \\boxed{{}}."
# The letters are always "A, B, C, D" in evalscope, whatever the number of choices.
MULTIPLE_CHOICE_TEMPLATE = """
Answer the following multiple choice question. The last line of your response should be of the following format: \
'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of A, B, C, D. Think step by step before answering.

{question}
"""


TEXT_ONLY_SUFFIX = "-text-only"


def _question_id(sample_index: str, version: str | None) -> str:
    """Text Only questions come from their own file (testmini_text_only) whose sample_index may repeat testmini's:
    their ids carry a suffix, so a Text Only answer never joins a question of another version."""
    if version == TEXT_ONLY and sample_index and not sample_index.endswith(TEXT_ONLY_SUFFIX):
        return sample_index + TEXT_ONLY_SUFFIX
    return sample_index


_LITERAL_LIMIT = 4096  # a metadata dict is a few hundred characters; longer text is not parsed as a literal


def _mapping(value: Any) -> Mapping[str, Any]:
    """A metadata field as a mapping: a dict as is, a JSON object string (CSV, parquet exports) or a Python dict
    literal (VLMEvalKit's TSV and xlsx write `str(dict)`) parsed, else {}."""
    if isinstance(value, Mapping):
        return value
    if isinstance(value, str) and value.lstrip().startswith("{"):
        return json_or_literal(value, Mapping, _LITERAL_LIMIT) or {}
    return {}


@functools.lru_cache(maxsize=8192)
def parse_choices(question_text: str) -> tuple[str, ...]:
    """The options written inside a MathVerse question, normalised to "A. text"."""
    match = _CHOICES.search(question_text)
    if not match:
        return ()
    options = []
    for line in match.group(1).splitlines():
        choice = _CHOICE_LINE.match(line)
        if choice:
            options.append(f"{choice.group(1)}. {choice.group(2)}")
    return tuple(options)


class MathVerse(Benchmark):
    name = "mathverse"
    title = "MathVerse"
    modes = (Mode("default", "testmini"),)
    dimensions = (
        Dimension("problem_version", "Problem version", VERSIONS),
        Dimension("question_type", "Question type", QUESTION_TYPES),
        Dimension("subject", "Subject", SUBJECTS),
        Dimension("subfield", "Subfield", SUBFIELDS),
    )
    # The older official output writes `problem_id` where the dataset has `sample_index`.
    id_fields = ("sample_index", "question_id", "id", "problem_id")
    result_layouts = ("mathverse",)  # the official evaluation's output (model_answer beside problem_version)
    cluster_unit = "problem"  # the five versions of one problem are correlated; there is no video
    subset_dimension = "problem_version"  # lmms-eval and VLMEvalKit run one version per task/file
    browse_fields = ("problem_index",)
    full_question_key = "question_for_eval"  # the dataset's own name for the whole question with its choices
    layout = DataLayout(
        subdir="mathverse",
        annotations={
            # testmini.json and testmini_text_only.json together (the Hugging Face layout, or the GitHub
            # repository's data/ folder), else the parquet exports.
            "default": (
                "testmini*.json",
                "data/testmini*.json",
                "testmini*.parquet",
                "testmini/*.parquet",
                "data/testmini*.parquet",
            ),
        },
        image_dirs=("", "images", "data", "data/images"),
        json_fields=("metadata", "category"),
    )
    # "default": query_wo / query_cot from the record; "boxed": the boxed template for every question;
    # "evalscope": evalscope's choice (multiple-choice template for multi-choice, boxed for free-form).
    prompt_styles = ("default", "boxed", "evalscope")
    supports_cot = True
    prompt_style_notes = MappingProxyType(
        {
            "default": "the record's own query_wo (direct) or query_cot (chain of thought)",
            "boxed": "evalscope's boxed template: reason step by step, answer in \\boxed{}",
            "evalscope": "evalscope's choice: the multiple-choice template for choice questions, boxed otherwise",
        }
    )
    styles_always_reasoning = ("boxed", "evalscope")
    question_fields = ("question", "question_for_eval")
    prompt_fields = ("query_wo", "query_cot")

    def has_versions(self, question: Question) -> bool:
        return bool(question.extra.get("problem_index"))

    def versions_of(self, question: Question, questions: Sequence[Question]) -> list[tuple[str, Question]]:
        """The problem's versions (same problem_index), labelled and in VERSIONS order (unknown labels last)."""
        problem = question.extra.get("problem_index")
        siblings = [q for q in questions if q.extra.get("problem_index") == problem]
        labelled = [(q.dims.get("problem_version", ""), q) for q in siblings]
        rank = {version: i for i, version in enumerate(VERSIONS)}
        return sorted(labelled, key=lambda pair: rank.get(pair[0], len(VERSIONS)))

    def letters(self, mode: str) -> tuple[str, ...]:
        return ("A", "B", "C", "D", "E", "F", "G", "H")

    def record_id(self, record: Mapping[str, Any]) -> str:
        """The id `question_from_record` gives (Text Only ids suffixed), for id-only files joined to the data."""
        return _question_id(first_text(record, self.id_fields), text(record.get("problem_version")))

    def recorded_prompt_text(self, field: str, value: str, record: Mapping[str, Any]) -> str:
        """The official output of March 2024 keeps only the instruction in `prompt` (ending "Question: "); the
        question it was sent with follows it."""
        if field == "prompt" and value.rstrip().endswith("Question:"):
            return value + text(record.get("question"))
        return value

    def in_overall(self, question: Question) -> bool:
        return question.dims.get("problem_version") != TEXT_ONLY

    def full_question(self, question: Question) -> str:
        """`question_for_eval`: the whole question with its choices (`question` is empty for Vision Only)."""
        return text(question.extra.get("question_for_eval")) or question.question

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        get = record.get
        # The official output keeps subject/subfield in `metadata`; its older version in a `category` dict.
        info = _mapping(get("metadata")) or _mapping(get("category"))
        question_type = text(get("question_type")).lower()
        for_eval = first_text(record, _FOR_EVAL_FIELDS)
        is_choice = question_type == "multi-choice"
        dims = {}
        for key, value in (
            ("problem_version", text(get("problem_version"))),
            ("question_type", question_type),
            ("subject", text(info.get("subject")) or text(get("subject"))),
            ("subfield", text(info.get("subfield")) or text(get("subfield"))),
        ):
            if value:
                dims[key] = value
        problem_index = text(get("problem_index"))
        return Question(
            benchmark=self.name,
            mode="default",
            question_id=_question_id(first_text(record, self.id_fields), dims.get("problem_version")),
            question=text(get("question")),
            answer=text(get("answer")),
            options=parse_choices(for_eval) if is_choice else (),
            answer_kind="choice" if is_choice else "free",
            dims=dims,
            extra={
                "problem_index": problem_index,
                "question_for_eval": for_eval,
                "query_wo": text(get("query_wo")),
                "query_cot": text(get("query_cot")),
                "image": get("image"),
            },
            cluster_key=problem_index,
        )

    def build_prompt(
        self, question: Question, *, cot: bool = False, subtitles: str | None = None, style: str = "default"
    ) -> str:
        """The prompt text for `style`. The boxed and evalscope templates always ask for reasoning, so `cot`
        changes only the default style (query_cot instead of query_wo)."""
        self.check_prompt_request(question, cot=cot, style=style)
        if subtitles is not None:
            raise InputError(f"{self.name} prompt", "MathVerse has no video, so no subtitles", question.question_id)
        if style == "default":
            return self._record_query(question, "query_cot" if cot else "query_wo")
        if style == "evalscope" and question.answer_kind == "choice":
            return MULTIPLE_CHOICE_TEMPLATE.format(question=self._question_for_eval(question)).strip()
        return BOXED_TEMPLATE.format(question=self._question_for_eval(question)).strip()

    def _record_query(self, question: Question, field: str) -> str:
        """The ready-made query the dataset record carries (it already holds the question and choices)."""
        query = text(question.extra.get(field))
        if not query:
            problem = f"the record has no {field}; use the boxed or evalscope prompt style"
            raise InputError(f"{self.name} prompt", problem, question.question_id)
        return query

    def _question_for_eval(self, question: Question) -> str:
        """The full question text (question_for_eval), which is never empty, unlike `question` for Vision Only."""
        for_eval = text(question.extra.get("question_for_eval")) or question.question
        if not for_eval:
            raise InputError(f"{self.name} prompt", "the record has no question_for_eval", question.question_id)
        return for_eval


MATHVERSE = MathVerse()
