"""Video-MME: general video understanding, four options (A-D), broken down by duration, domain,
sub-category and task type (taxonomy from the reference harness, lmms-eval)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from operator import itemgetter
from sys import intern
from types import MappingProxyType
from typing import Any, NamedTuple

from mathreel.core.benchmarks.base import Benchmark, DataLayout, Dimension, Mode, OfficialScorer, QuestionValues
from mathreel.core.fields import first_text, parse_options, text
from mathreel.core.question import Question

DURATIONS = ("short", "medium", "long")
DOMAINS = (
    "Knowledge",
    "Film & Television",
    "Sports Competition",
    "Artistic Performance",
    "Life Record",
    "Multilingual",
)
SUB_CATEGORIES = (
    "Humanity & History",
    "Literature & Art",
    "Biology & Medicine",
    "Finance & Commerce",
    "Astronomy",
    "Geography",
    "Law",
    "Life Tip",
    "Technology",
    "Animation",
    "Movie & TV Show",
    "Documentary",
    "News Report",
    "Esports",
    "Basketball",
    "Football",
    "Athletics",
    "Other Sports",
    "Stage Play",
    "Magic Show",
    "Variety Show",
    "Acrobatics",
    "Handicraft",
    "Food",
    "Fashion",
    "Daily Life",
    "Travel",
    "Pet & Animal",
    "Exercise",
    "Multilingual",
)
TASK_TYPES = (
    "Temporal Perception",
    "Spatial Perception",
    "Attribute Perception",
    "Action Recognition",
    "Object Recognition",
    "OCR Problems",
    "Counting Problem",
    "Temporal Reasoning",
    "Spatial Reasoning",
    "Action Reasoning",
    "Object Reasoning",
    "Information Synopsis",
)
LETTERS = ("A", "B", "C", "D")
# Field aliases: lmms-eval's metric dict (category, task_category), the first result template of June 2024
# (duration_category, video_category, video_subcategory, choices) and VLMEvalKit's rows (video, candidates).
_DURATION_FIELDS = ("duration", "duration_category")
_DOMAIN_FIELDS = ("domain", "category", "video_category")
_SUB_CATEGORY_FIELDS = ("sub_category", "video_subcategory")
_TASK_FIELDS = ("task_type", "task_category")
_OPTION_FIELDS = ("options", "choices", "candidates")
_VIDEO_FIELDS = ("videoID", "video_id", "video")
# Question ids `NNN-k` name their video (`NNN`, the k-th question on it): the cluster when no video id is stored.
_ID_NAMES_VIDEO = re.compile(r"(\d{3})-\d+")
_EXTRA_FIELDS = ("url", "video_id")


class _FieldPlan(NamedTuple):
    """The record fields a Question is read from, each list in order of preference."""

    durations: tuple[str, ...]
    domains: tuple[str, ...]
    sub_categories: tuple[str, ...]
    tasks: tuple[str, ...]
    options: tuple[str, ...]
    videos: tuple[str, ...]
    extras: tuple[str, ...]
    ids: tuple[str, ...]


_PARSE_ANSWER = "thanku-all/parse_answer"
_LMMS_EVAL = "EvolvingLMMs-Lab/lmms-eval"

# Prompt wording, character for character from lmms-eval (EvolvingLMMs-Lab/lmms-eval):
# videomme_doc_to_text / videomme_doc_to_text_subtitle / videomme_doc_to_text_qwen3vl in
# lmms_eval/tasks/videomme/utils.py (commit 06965734a4639f9066e8f250bdae09be9a08e655) and the kwargs of
# lmms_eval/tasks/videomme/videomme.yaml. docs/prompts.md lists every variant with its source.
SUBTITLES_HEADER = "This video's subtitles are listed below: \n"  # the space before the newline is the reference's
# The reference says "and the subtitles" even when there are none (the official README's no-subtitle prompt does not).
OPTION_PROMPT = (
    "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
    "Respond with only the letter (A, B, C, or D) of the correct option."
)
DEFAULT_POST_PROMPT = "\nAnswer with the option's letter from the given choices directly."  # videomme.yaml default
# The functions' fallback post prompt; the subtitle prompt always ends with it, whatever the configuration says.
FALLBACK_POST_PROMPT = "The best answer is:"
QWEN3_VL_PRE_PROMPT = "Question: "  # videomme.yaml, model key qwen3_vl (format: qwen3_vl)
QWEN3_VL_POST_PROMPT = "Answer with the option letter only."


class VideoMME(Benchmark):
    name = "videomme"
    title = "Video-MME"
    modes = (Mode("mcq", "Multiple choice (A-D)"),)
    dimensions = (
        Dimension("duration", "Duration", DURATIONS),
        Dimension("domain", "Domain", DOMAINS),
        Dimension("sub_category", "Sub-category", SUB_CATEGORIES),
        Dimension("task_type", "Task type", TASK_TYPES),
    )
    cross_dimensions = (("duration", "domain"), ("duration", "sub_category"), ("duration", "task_type"))
    headline_cross = ("duration", "task_type")
    browse_fields = ("url",)
    metric_keys = ("videomme_perception_score",)
    result_layouts = ("videomme-template",)  # the official result template: videos with their questions
    # The official eval_your_results.py drops unparsed answers from the denominator; lmms-eval counts them wrong.
    official_scorer = OfficialScorer(
        "Video-MME eval_your_results.py",
        "extract_choice_official",
        "answered",
        f"{_PARSE_ANSWER} eval_your_results.py@afd52cfe3dde",
        commit="afd52cfe3dde5b3685e0d4f760c10c756860c758",
    )
    reproductions = MappingProxyType(
        {
            "official": official_scorer,
            "official-2024-06-18": OfficialScorer(
                "Video-MME eval_your_results.py, first version",
                "extract_choice_official_2024_06_18",
                "answered",
                f"{_PARSE_ANSWER} eval_your_results.py@e1e2bffb30b5",
                commit="e1e2bffb30b520143e28088db29f8231af1c7c8f",
            ),
            "lmms-regex": OfficialScorer(
                "lmms-eval Video-MME extract_characters_regex (before 2026-04-11)",
                "extract_choice_lmms_videomme",
                "all",
                f"{_LMMS_EVAL} lmms_eval/tasks/videomme/utils.py@bd51fabcd70c",
                commit="bd51fabcd70c7426b64249a805ed50f346370d67",
            ),
            "lmms-mcq-extract": OfficialScorer(
                "lmms-eval extract_mcq_answer (Video-MME since 2026-04-11)",
                "extract_choice_mcq",
                "all",
                f"{_LMMS_EVAL} lmms_eval/tasks/_task_utils/mcq_extract.py@7a69a9a12f8e",
                commit="7a69a9a12f8e6ea872f18762b496b424a8e63a6a",
            ),
        }
    )
    layout = DataLayout(
        subdir="videomme",
        annotations={"mcq": ("videomme/test-*.parquet",)},
        video_dirs=("data",),
        subtitle_dirs=("subtitle",),
        extra_fetch=("subtitle/*.srt",),
    )
    # "default": videomme.yaml's default kwargs; "best_answer": the functions' fallback post prompt;
    # "qwen3_vl": the Qwen3-VL format (question, then "Options:" and the options).
    prompt_styles = ("default", "best_answer", "qwen3_vl")
    supports_cot = False
    prompt_style_notes = MappingProxyType(
        {
            "default": "videomme.yaml's default post prompt (\"Answer with the option's letter ...\")",
            "best_answer": 'lmms-eval\'s fallback post prompt, "The best answer is:" (what lmms-eval 0.4 logs record)',
            "qwen3_vl": 'the Qwen3-VL format: "Question: ", the question, "Options:", the options',
        }
    )
    question_fields = ("question", *_OPTION_FIELDS)

    def letters(self, mode: str) -> tuple[str, ...]:
        return LETTERS

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        return self._question(record, _ALL_FIELDS)

    def question_reader(self, keys: AbstractSet[str], mode: str) -> Callable[[Mapping[str, Any]], Question]:
        """The file's reader: each field list cut to the keys the file has (an absent key reads as empty anyway).
        Where each list is left with one key at most (the usual file), a field is one `text(get(key))`: `get(None)`
        is None, as an absent key's value is."""
        fields = _FieldPlan(*(tuple(key for key in names if key in keys) for names in _ALL_FIELDS))
        if any(len(names) > 1 for names in fields[:-2]) or len(fields.ids) > 1:
            return lambda record: self._question(record, fields)
        read = _SingleKeyReader([names[0] if names else None for names in fields], keys)
        extras = fields.extras
        if not extras:
            return lambda record: self.question_of(read(record))
        return lambda record: self.question_of(read(record), {k: text(record[k]) for k in extras if k in record})

    def values_reader(
        self, keys: AbstractSet[str], mode: str, shared: dict[Any, Any] | None = None, extras: bool = False
    ) -> Callable[[Mapping[str, Any]], QuestionValues] | None:
        """What `question_reader` reads of each record, as a tuple (`question_of` makes the Question of it), for a
        large file read into columns; None where a field has several spellings among `keys` or the records carry
        extra fields (then each record is read into its Question). With `shared` (one call's files), files that
        name their fields alike share their tables, and a question whose fields are exactly those an earlier file
        gave it is not read again (`_SingleKeyReader`). `extras`: the caller reads `extra_fields` (a template's
        video id and url) itself."""
        fields = _FieldPlan(*(tuple(key for key in names if key in keys) for names in _ALL_FIELDS))
        if any(len(names) > 1 for names in fields[:-2]) or len(fields.ids) > 1 or (fields.extras and not extras):
            return None
        names = [names[0] if names else None for names in fields]
        tables = None if shared is None else shared.setdefault((self.name, *names), _Tables(True))
        return _SingleKeyReader(names, keys, tables)

    def values_of_columns(self, keys: AbstractSet[str], mode: str, columns: Any) -> list[QuestionValues] | None:
        """`values_reader`'s values of every record, from the file's columns: what depends on a few distinct raw
        values (dims dicts, video ids, gold letters) is read once per distinct value (`columns.by_distinct`), the
        rest in C passes. Same values, the same fields read alike (`_SingleKeyReader._values`)."""
        fields = _FieldPlan(*(tuple(key for key in names if key in keys) for names in _ALL_FIELDS))
        if any(len(names) > 1 for names in fields[:-2]) or len(fields.ids) != 1 or fields.extras:
            return None
        duration, domain, sub_category, task, options, video, _, question_id = [
            names[0] if names else None for names in fields
        ]
        ids = _stripped(columns.texts(question_id))
        clusters = [named.group(1) if named else "" for named in map(_ID_NAMES_VIDEO.fullmatch, ids)]
        return list(
            zip(
                ids,
                _stripped(columns.texts("question")),
                columns.by_distinct(("answer",), _gold_of_raw),
                columns.options(options),
                columns.by_distinct((video,), _video_of_raw),
                columns.by_distinct((duration, domain, sub_category, task), _dims_of_raw),
                clusters,
                strict=True,
            )
        )

    def extra_fields(self, keys: AbstractSet[str]) -> tuple[str, ...]:
        return tuple(key for key in _EXTRA_FIELDS if key in keys)

    def question_of(self, values: QuestionValues, extra: dict[str, str] | None = None) -> Question:
        """The Question of values read from a record (`values_reader`)."""
        question_id, asked, answer, options, video, dims, cluster_key = values
        return Question(
            benchmark=self.name,
            mode="mcq",
            question_id=question_id,
            question=asked,
            answer=answer,
            options=options,
            video_id=video,
            dims=dims,
            extra={} if extra is None else extra,
            cluster_key=cluster_key,
        )

    def _question(self, record: Mapping[str, Any], fields: _FieldPlan) -> Question:
        durations, domains, sub_categories, tasks, option_fields, videos, extras, ids = fields
        options = None
        for key in option_fields:
            options = record.get(key)
            if options is not None:
                break
        values = self._values(
            record,
            first_text(record, durations).lower(),
            first_text(record, domains),
            first_text(record, sub_categories),
            first_text(record, tasks),
            options,
            first_text(record, videos),
            first_text(record, ids),
        )
        return self.question_of(values, {k: text(record[k]) for k in extras if k in record})

    def _values(
        self,
        record: Mapping[str, Any],
        duration: str,
        domain: str,
        sub_category: str,
        task: str,
        options: Any,
        video: str,
        question_id: str,
    ) -> QuestionValues:
        """The Question's values of the fields read (dimensions in their fixed order, empty ones left out)."""
        dims = _dims(duration, domain, sub_category, task)
        named = _ID_NAMES_VIDEO.fullmatch(question_id)
        get = record.get
        return (
            question_id,
            text(get("question")),
            text(get("answer")).upper(),
            parse_options(options),
            video or None,
            dims,
            named.group(1) if named else "",
        )

    def build_prompt(
        self, question: Question, *, cot: bool = False, subtitles: str | None = None, style: str = "default"
    ) -> str:
        """The lmms-eval prompt for `style`, behind the subtitle block when subtitles are given."""
        self.check_prompt_request(question, cot=cot, style=style)
        if style == "qwen3_vl":
            body = _qwen3_vl_body(question)
        else:
            post_prompt = DEFAULT_POST_PROMPT if style == "default" and subtitles is None else FALLBACK_POST_PROMPT
            body = _standard_body(question, post_prompt)
        if subtitles is None:
            return body
        return SUBTITLES_HEADER + subtitles + "\n" + body


_SHARED_DIMS = 4096  # distinct dimension combinations shared per file (Video-MME has a few hundred)
_SHARED_VIDEOS = 1 << 17  # video ids remembered per file (raw value -> interned id)
_KNOWN = 1 << 17  # questions remembered across one call's files (raw id -> raw fields, values)
_MISS: Any = object()


class _Tables:
    """What a `_SingleKeyReader` remembers: per file, or across the files of one call (`across`: then also each
    question's raw fields and values, for the next file to find)."""

    __slots__ = ("by_raw", "known", "shared", "videos")

    def __init__(self, across: bool = False) -> None:
        self.shared: dict[tuple[str, str, str, str], dict[str, str]] = {}
        self.by_raw: dict[tuple[Any, Any, Any, Any], dict[str, str]] = {}
        self.videos: dict[str, str | None] = {}
        self.known: dict[str, tuple[tuple[Any, ...], QuestionValues]] | None = {} if across else None


class _SingleKeyReader:
    """A file's reader of `QuestionValues` where each field has one key (or none: `get(None)` reads as absent).

    A large file repeats a few hundred dimension combinations and a few values per video: questions with the same
    dimension values share one dims dict (read only after reading), found by the fields' raw text without reading
    them again, and video ids are interned once each. Across the files of one call (`_Tables.known`), a question
    whose raw fields equal those it had in an earlier file gets that file's values: the same fields read alike.
    Only text (or absent) fields and options as a list of text are remembered, so equal means the same text."""

    __slots__ = ("_by_raw", "_fetch", "_keys", "_known", "_shared", "_videos")

    def __init__(self, keys: list[str | None], present: AbstractSet[str], tables: _Tables | None = None) -> None:
        self._keys: list[Any] = keys  # None where the file has no key for the field: `get(None)` is None
        duration, domain, sub_category, task, options, video, _, question_id = keys
        read = (duration, domain, sub_category, task, video, question_id, "question", "answer", options)
        # Every field in one call where the file's records have each (a record lacking one is read field by field)
        self._fetch = itemgetter(*read) if all(key in present for key in read) else None
        tables = _Tables() if tables is None else tables
        self._shared, self._by_raw, self._videos = tables.shared, tables.by_raw, tables.videos
        self._known = tables.known

    def __call__(self, record: Mapping[str, Any]) -> QuestionValues:
        try:
            fields = self._fetch(record)  # type: ignore[misc]  # None: a field without a key (TypeError)
        except (KeyError, TypeError):
            fields = self._get(record)
        known = self._known
        if known is not None and fields[5].__class__ is str:
            found = known.get(fields[5])
            if found is not None and found[0] == fields:
                return found[1]
            values = self._values(fields)
            if len(known) < _KNOWN and _plain_fields(fields):
                known[fields[5]] = (fields, values)
            return values
        return self._values(fields)

    def _values(self, fields: tuple[Any, ...]) -> QuestionValues:
        raw = fields[:4]
        try:  # only text or absent values are kept as keys, and no other value equals one of those
            dims = self._by_raw.get(raw)
        except TypeError:  # a list or dict value (refused later as a dimension that is a JSON value)
            dims = None
        if dims is None:
            dims = self._dims(raw)
        named_video = fields[4]
        found = self._videos.get(named_video, _MISS) if named_video.__class__ is str else _MISS
        if found is _MISS:
            found = self._video(named_video)
        qid = text(fields[5])
        named = _ID_NAMES_VIDEO.fullmatch(qid)
        return (
            qid,
            text(fields[6]),
            text(fields[7]).upper(),
            parse_options(fields[8]),
            found,
            dims,
            named.group(1) if named else "",
        )

    def _get(self, record: Mapping[str, Any]) -> tuple[Any, ...]:
        get = record.get
        duration, domain, sub_category, task, options, video, _, question_id = self._keys
        return (
            get(duration),
            get(domain),
            get(sub_category),
            get(task),
            get(video),
            get(question_id),
            get("question"),
            get("answer"),
            get(options),
        )

    def _dims(self, raw: tuple[Any, Any, Any, Any]) -> dict[str, str]:
        key = (text(raw[0]).lower(), text(raw[1]), text(raw[2]), text(raw[3]))
        dims = self._shared.get(key)
        if dims is None:
            dims = _dims(*key)
            if len(self._shared) < _SHARED_DIMS:
                self._shared[key] = dims
        if _plain_key(raw) and len(self._by_raw) < _SHARED_DIMS:
            self._by_raw[raw] = dims
        return dims

    def _video(self, value: Any) -> str | None:
        video = text(value)
        found = intern(video) if video else None
        if value.__class__ is str and len(self._videos) < _SHARED_VIDEOS:
            self._videos[value] = found
        return found


def _stripped(values: list[Any]) -> list[str]:
    """`text` of each value: `str.strip` in one C pass where every value is text."""
    try:
        return list(map(str.strip, values))
    except TypeError:  # an absent value (None)
        return list(map(text, values))


def _gold_of_raw(value: Any) -> str:
    return text(value).upper()


def _video_of_raw(value: Any) -> str | None:
    """`_SingleKeyReader._video`: the stripped id, interned; None when empty."""
    video = text(value)
    return intern(video) if video else None


def _dims_of_raw(duration: Any, domain: Any, sub_category: Any, task: Any) -> dict[str, str]:
    """`_SingleKeyReader._dims` of raw field values."""
    return _dims(text(duration).lower(), text(domain), text(sub_category), text(task))


def _plain_fields(fields: tuple[Any, ...]) -> bool:
    """Raw fields whose equality means the same text: text or absent, options a list of text (or text)."""
    options = fields[8]
    if options.__class__ is list:
        if not all(option.__class__ is str for option in options):
            return False
    elif options is not None and options.__class__ is not str:
        return False
    return all(value is None or value.__class__ is str for value in fields[:8])


def _plain_key(raw: tuple[Any, ...]) -> bool:
    """Raw values that key a cache safely: text or absent (1, 1.0 and True are equal keys but read differently)."""
    return all(value is None or value.__class__ is str for value in raw)


def _dims(duration: str, domain: str, sub_category: str, task: str) -> dict[str, str]:
    dims = {}
    if duration:
        dims["duration"] = intern(duration)
    if domain:
        dims["domain"] = intern(domain)
    if sub_category:
        dims["sub_category"] = intern(sub_category)
    if task:
        dims["task_type"] = intern(task)
    return dims


def _standard_body(question: Question, post_prompt: str) -> str:
    """Instruction, question, options (one per line, as spelled in the dataset), post prompt."""
    return "\n".join((OPTION_PROMPT, question.question, "\n".join(question.options), post_prompt))


def _qwen3_vl_body(question: Question) -> str:
    """The qwen3_vl format: pre prompt and question, "Options:", the options, post prompt."""
    options = "\n".join(question.options)
    return f"{QWEN3_VL_PRE_PROMPT}{question.question}\nOptions:\n{options}\n{QWEN3_VL_POST_PROMPT}"


_ALL_FIELDS = _FieldPlan(
    _DURATION_FIELDS,
    _DOMAIN_FIELDS,
    _SUB_CATEGORY_FIELDS,
    _TASK_FIELDS,
    _OPTION_FIELDS,
    _VIDEO_FIELDS,
    _EXTRA_FIELDS,
    VideoMME.id_fields,
)
VIDEOMME = VideoMME()
