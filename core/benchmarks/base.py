"""What every benchmark definition provides, so shared code asks the benchmark instead of branching on its name."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError
from mathreel.core.fields import first_text
from mathreel.core.plain import FrozenFields
from mathreel.core.question import Question

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.kinds import Denominator
    from mathreel.core.media.frame_cache import SampledFrames
    from mathreel.core.media.subtitles import Cue
    from mathreel.core.message import Message, PromptSubtitles
    from mathreel.core.reference import Reference
    from mathreel.core.scoring.json_types import UpstreamName
    from mathreel.core.scoring.report import Report


class Dimension:
    """A field results are broken down by. `values` fixes the display order; unknown labels get their own row.

    This class, `Mode`, `DataLayout`, `OfficialScorer`, `GroupFacts` and `GroupScore` are plain classes with
    slots, not frozen dataclasses: they are read by attribute, never compared or copied, and every `mathreel` start
    imports this module, where a frozen dataclass compiles each generated method (~3 M instructions a class).
    `GroupPolicy` is compared and copied: reproductions derive theirs with `replace` (`core.plain`)."""

    __slots__ = ("key", "label", "values")

    def __init__(self, key: str, label: str, values: tuple[str, ...] = ()) -> None:
        self.key = key
        self.label = label
        self.values = values

    def order(self, seen: set[str]) -> list[str]:
        """Known values first (those present), then any unknown label in sorted order."""
        known = [v for v in self.values if v in seen]
        return known + sorted(seen - set(self.values))


class Mode:
    """A way of asking the benchmark: MCQ, multi-binary, or the single default mode."""

    __slots__ = ("grouped", "key", "label")

    def __init__(self, key: str, label: str, grouped: bool = False) -> None:
        self.key = key
        self.label = label
        self.grouped = grouped  # multi-binary: pairs sharing a group count as one question


class DataLayout:
    """Where a benchmark keeps its files on disk, relative to its root folder (read by core.data's loader).

    `annotations` maps a mode to glob patterns tried in order (the first pattern with matches wins; several
    matches of one pattern are shards read in name order). Media folders hold `<video id><ext>` files.
    """

    __slots__ = (
        "annotations",
        "extra_fetch",
        "image_dirs",
        "json_fields",
        "subdir",
        "subtitle_dirs",
        "subtitle_ext",
        "video_dirs",
        "video_exts",
    )

    def __init__(
        self,
        subdir: str,
        annotations: dict[str, tuple[str, ...]],
        video_dirs: tuple[str, ...] = (),
        video_exts: tuple[str, ...] = (".mp4", ".MP4", ".mkv"),
        subtitle_dirs: tuple[str, ...] = (),
        subtitle_ext: str = ".srt",
        image_dirs: tuple[str, ...] = (),
        json_fields: tuple[str, ...] = (),
        extra_fetch: tuple[str, ...] = (),
    ) -> None:
        self.subdir = subdir  # the folder name under a parent data directory holding several benchmarks
        self.annotations = annotations
        self.video_dirs = video_dirs
        self.video_exts = video_exts
        self.subtitle_dirs = subtitle_dirs
        self.subtitle_ext = subtitle_ext
        self.image_dirs = image_dirs  # folders a relative image path is resolved against, in order
        self.json_fields = json_fields  # fields that may arrive as a JSON string holding an object
        self.extra_fetch = extra_fetch  # more patterns worth fetching from a hub repository

    @property
    def all_patterns(self) -> tuple[str, ...]:
        """Every annotation pattern of every mode, used to recognise a root folder."""
        return tuple(p for patterns in self.annotations.values() for p in patterns)

    @property
    def has_video(self) -> bool:
        return bool(self.video_dirs)


class GroupPolicy(FrozenFields):
    """How a scorer forms and scores a benchmark's groups of questions (Video-MME-v2: four per video).

    MathReel's own policy is the default: the questions of one group in question order, an unparsed answer counts
    wrong (0). Reference scorers differ, and their reproductions keep the difference.
    """

    FIELDS = ("by_position", "unparsed_mark", "kind_from_first", "taxonomy_from_last_row")
    __slots__ = FIELDS

    def __init__(
        self,
        by_position: bool = False,  # groups are runs of `size` consecutive rows of the file (`rows[i // size]`)
        unparsed_mark: int = 0,  # what an unparsed answer adds to its group (1 right, 0 wrong; the official script -1)
        kind_from_first: bool = False,  # kind and structure read from the group's first row (else its last)
        taxonomy_from_last_row: bool = False,  # the taxonomy of the last row only (else the last row with each field)
    ) -> None:
        self.by_position = by_position
        self.unparsed_mark = unparsed_mark
        self.kind_from_first = kind_from_first
        self.taxonomy_from_last_row = taxonomy_from_last_row


DEFAULT_GROUP_POLICY = GroupPolicy()
# A record as `Benchmark.values_reader` reads it: question id, question, gold, options, video id (None without one),
# dimensions, cluster key; `Benchmark.question_of` makes the Question of it.
QuestionValues = tuple[str, str, str, tuple[str, ...], str | None, dict[str, str], str]


class OfficialScorer:
    """A benchmark's reference scorer: its rule-based extractor (a function name in core.extract, resolved by
    scoring so that importing a benchmark never imports the extractors), its denominator policy and, for a
    benchmark scored in groups, how it forms and scores them."""

    __slots__ = ("commit", "denominator", "extractor", "groups", "name", "source")

    def __init__(
        self,
        name: str,
        extractor: str,
        denominator: Denominator,
        source: str = "",
        groups: GroupPolicy | None = None,
        commit: str = "",
    ) -> None:
        self.name = name
        self.extractor = extractor
        self.denominator = denominator  # "all" (unparsed counts wrong) or "answered" (unparsed dropped)
        self.source = source  # "repository path@commit" of the code reproduced (docs/sources.md lists them)
        self.groups = groups  # None: the benchmark's groups are scored by MathReel's policy
        self.commit = commit  # the full 40-hex commit `source` abbreviates, so a report can name it exactly

    @property
    def label(self) -> str:
        """The reproduction and its commit, as reports name it."""
        return f"{self.name} ({self.source})" if self.source else self.name


class GroupFacts:
    """What a group is, read from its member rows: its kind ("relevance", "logic"), its structure (a logic chain
    such as "[1,[2,3],4]") and the taxonomy it is reported under (level, heads).

    A plain class, as `Dimension` and `GroupScore`."""

    __slots__ = ("dims", "kind", "structure")

    def __init__(self, kind: str, structure: str, dims: Mapping[str, str]) -> None:
        self.kind = kind
        self.structure = structure
        self.dims = dims


class GroupScore:
    """A group's score (0-100), its linear score where the benchmark has one, how many steps of a chain were
    credited, and, per member, the part its answer played ("credited", "breaks the chain", "not reached", ...),
    with one line saying how the score came about."""

    __slots__ = ("broken_at", "explanation", "linear", "roles", "score", "steps")

    def __init__(
        self,
        score: float | None,
        linear: float | None,
        roles: tuple[str, ...],
        explanation: str,
        steps: int | None = None,
        broken_at: int | None = None,
    ) -> None:
        self.score = score  # None: the group cannot be scored (an unknown kind or structure)
        self.linear = linear
        self.roles = roles
        self.explanation = explanation
        self.steps = steps  # logic chains: the credited steps
        self.broken_at = broken_at  # logic chains: the 1-based position of the first answer that breaks the chain


class GroupScheme:
    """A benchmark whose questions are scored in groups: which group a question is in and where, what a group is,
    and how its members' marks (1 right, 0 wrong, the policy's mark for unparsed) score it. core.scoring.groups
    forms, scores and aggregates the groups by asking this object; it knows no benchmark."""

    size: int = 4
    kinds: tuple[str, ...] = ()  # the group kinds in display order
    linear_kinds: tuple[str, ...] = ()  # kinds that also have a linear score
    dimensions: tuple[Dimension, ...] = ()  # the taxonomy group scores are broken down by

    def key(self, question: Question) -> str:
        """The group a question belongs to (Video-MME-v2: its video)."""
        raise NotImplementedError

    def position(self, question: Question) -> int:
        """Where the question sits in its group (1-based)."""
        raise NotImplementedError

    def describe(self, members: Sequence[Question], policy: GroupPolicy) -> GroupFacts:
        """The facts of the group made of `members` (in group order), read as `policy` reads them."""
        raise NotImplementedError

    def score(self, facts: GroupFacts, marks: Sequence[int], statuses: Sequence[str]) -> GroupScore:
        """The group's score from its members' marks in group order (`statuses` say which marks stand for an
        unparsed or missing answer, for the explanation)."""
        raise NotImplementedError


class Benchmark:
    """Base for one benchmark's facts. Subclasses set the class attributes and override the hooks."""

    name: str = ""
    title: str = ""
    modes: tuple[Mode, ...] = ()
    dimensions: tuple[Dimension, ...] = ()
    # Pairs of dimension keys reported as a cross table (Video-MME: duration x each).
    cross_dimensions: tuple[tuple[str, str], ...] = ()
    # The cross table a report shows first, if any (one of `cross_dimensions`).
    headline_cross: tuple[str, str] | None = None
    # Keys of the lmms-eval metric dict that identify this benchmark's sample logs.
    metric_keys: tuple[str, ...] = ()
    # Result-file layouts (`core.results.layouts` keys) only this benchmark's tools write: a file in one of them is
    # this benchmark's without a vote over its rows (`core.results.detect`).
    result_layouts: tuple[str, ...] = ()
    # Prompt variants `build_prompt` can produce (the first is the default), and whether a CoT prompt exists.
    prompt_styles: tuple[str, ...] = ("default",)
    supports_cot: bool = False
    # What each style is, in a few words (`core.prompt_styles` lists them for the page), and the styles that have no
    # chain-of-thought form although the benchmark has one (VideoMathQA's best_answer) or that always ask for
    # reasoning whatever the setting (MathVerse's boxed and evalscope).
    prompt_style_notes: Mapping[str, str] = MappingProxyType({"default": "the reference harness's prompt"})
    styles_without_cot: tuple[str, ...] = ()
    styles_always_reasoning: tuple[str, ...] = ()
    # Styles whose chain-of-thought form takes no subtitles (Video-MME-v2's lmms: lmms-eval's reasoning task).
    styles_cot_without_subtitles: tuple[str, ...] = ()
    # Result-record fields holding the question's text or options: a record with any of them can be checked against
    # a dataset's question (`core.results.question_join`).
    question_fields: tuple[str, ...] = ("question", "options")
    # Result-record fields holding a prompt this benchmark's data carries, read as recorded prompts beside the
    # harness's own `input` / `arguments` (`core.results.recorded`).
    prompt_fields: tuple[str, ...] = ()
    # The dataset's files on disk (core.data reads them through this).
    layout: DataLayout | None = None
    # Record fields that may hold the question id, in order of preference (result files and datasets alike).
    id_fields: tuple[str, ...] = ("question_id", "id")
    # The reference scorer whose extractor and denominator `--extractor official` reproduces, if rule-based.
    official_scorer: OfficialScorer | None = None
    # Every pinned reproduction `--extractor NAME` may choose for this benchmark ("official" included).
    reproductions: Mapping[str, OfficialScorer] = MappingProxyType({})
    # What a question's `cluster_key` names when it has no video id (MathVerse: its problem), for the
    # uncertainty label; Video-MME's key is the video its id names.
    cluster_unit: str = "video"
    # The dimension tables and charts break results down by first (the judge's step scores too); None: the first
    # of `dimensions`. See `primary`.
    primary_dimension: str | None = None
    # The `Question.extra` fields the Browse tab lists under the question (beside the dimensions), in order.
    browse_fields: tuple[str, ...] = ()
    # The judge's error categories (in the order the prompt lists them) and their definitions. Empty: the
    # benchmark has no error analysis, and the judge runs only its other tasks.
    error_categories: tuple[str, ...] = ()
    error_category_definitions: Mapping[str, str] = MappingProxyType({})
    # The published results (a JSON file in assets/reference, transcribed from the paper); None: none published.
    reference_file: str | None = None
    # A dimension whose values are run as separate tasks (MathVerse's problem versions): a file answering one value
    # only is not missing the questions of the others.
    subset_dimension: str | None = None
    # Frames sampled per video when the user names no count, and how they are placed (core.media.sampling):
    # "uniform" (numpy linspace over the video, as lmms-eval's loaders) or "midpoints" (len/(n+1) steps).
    default_frames: int = 16
    frame_sampler: str = "uniform"
    # Whether subtitles can be interleaved between the frames (each frame followed by what is said until the next).
    interleaved_subtitles: bool = False
    # The record key `core.data.as_record` writes the complete question text under, when it differs from `question`.
    full_question_key: str = "full_question"
    # Questions scored together in groups (Video-MME-v2); None: every question stands alone.
    groups: GroupScheme | None = None

    @property
    def primary(self) -> str | None:
        """The key of the primary dimension (`primary_dimension`, else the first dimension; None without any)."""
        if self.primary_dimension is not None:
            return self.primary_dimension
        return self.dimensions[0].key if self.dimensions else None

    def reference_results(self) -> Reference | None:
        """The published results to compare runs with (`reference_file`), read from assets/reference."""
        if self.reference_file is None:
            return None
        from mathreel.core.reference import load_reference

        return load_reference(self.reference_file)

    def has_versions(self, question: Question) -> bool:
        """Whether `versions_of` can find other renderings of this question (MathVerse's problem versions)."""
        return False

    def cluster_label(self, question: Question) -> str:
        """What clustered SE grouped this question by: "video", the benchmark's `cluster_unit`, or "question"."""
        if question.video_id:
            return "video"
        return self.cluster_unit if question.cluster_key else "question"

    def mode(self, key: str | None) -> Mode:
        """The named mode, or the first one when none is named."""
        if key is None:
            return self.modes[0]
        for mode in self.modes:
            if mode.key == key:
                return mode
        raise KeyError(f"{self.name} has no mode {key!r}; choose one of {[m.key for m in self.modes]}")

    def letters(self, mode: str) -> tuple[str, ...]:
        """The answer letters a question of this mode may take when its options do not say."""
        raise NotImplementedError

    def dimension(self, key: str) -> Dimension:
        for dim in self.dimensions:
            if dim.key == key:
                return dim
        return Dimension(key, key.replace("_", " ").title())

    def question_from_record(self, record: Mapping[str, Any], mode: str) -> Question:
        """Build a Question from one dataset or result record in this benchmark's schema."""
        raise NotImplementedError

    def question_reader(self, keys: AbstractSet[str], mode: str) -> Callable[[Mapping[str, Any]], Question]:
        """`question_from_record` for records whose fields are all among `keys` (one file's, known before its rows
        are read): a benchmark may drop, once per file, the lookups of fields no record has. Same Questions."""
        return lambda record: self.question_from_record(record, mode)

    def values_reader(
        self, keys: AbstractSet[str], mode: str, shared: dict[Any, Any] | None = None, extras: bool = False
    ) -> Callable[[Mapping[str, Any]], QuestionValues] | None:
        """What `question_reader` reads of each record as a plain tuple (`question_of` makes the Question), for a
        large file read into columns (`core.results.columnar`); None where the benchmark does not offer it.
        `shared` holds tables a reader may keep across the files of one call (runs over the same questions);
        `extras`: the caller reads the `extra_fields` itself (else records with any of them get None)."""
        return None

    def values_of_columns(self, keys: AbstractSet[str], mode: str, columns: Any) -> list[QuestionValues] | None:
        """What `values_reader` reads of every record, taken from a file's columns at once (a large JSON Lines file
        read by `core.results.arrow_columns`, whose `TableColumns` `columns` is); None where the benchmark does not
        offer it or the fields need `values_reader` (then the file is read record by record)."""
        return None

    def extra_fields(self, keys: AbstractSet[str]) -> tuple[str, ...]:
        """The fields among `keys` a Question keeps as text in `extra` (`question_of`'s `extra`)."""
        return ()

    def question_of(self, values: QuestionValues, extra: dict[str, str] | None = None) -> Question:
        """The Question of values read by `values_reader` (the same Question `question_reader` builds)."""
        raise NotImplementedError

    def record_id(self, record: Mapping[str, Any]) -> str:
        """The question id a record carries (the first non-empty of `id_fields`), without building the Question."""
        return first_text(record, self.id_fields)

    def full_question(self, question: Question) -> str:
        """The complete question text a reader, a search or a judge should see."""
        return question.question

    def group_id(self, question_id: str, mode: str) -> str:
        """The benchmark question a row belongs to; only grouped modes differ from the id itself."""
        return question_id

    def versions_of(self, question: Question, questions: Sequence[Question]) -> list[tuple[str, Question]]:
        """Other renderings of the same problem among `questions`, labelled, in the benchmark's order.

        Only MathVerse has them (its five problem versions); elsewhere a question stands alone.
        """
        return []

    def recorded_prompt_text(self, field: str, value: str, record: Mapping[str, Any]) -> str:
        """The prompt a record's `field` holds, as it was sent (a benchmark whose files split it overrides this)."""
        return value

    @property
    def has_subtitles(self) -> bool:
        """Whether prompts can carry subtitles: the benchmark has videos with subtitle files."""
        return self.layout is not None and bool(self.layout.video_dirs) and bool(self.layout.subtitle_dirs)

    def style_supports_cot(self, style: str) -> bool:
        """Whether chain of thought can be switched on for `style` (False for an unknown style)."""
        return self.supports_cot and style in self.prompt_styles and style not in self.styles_without_cot

    def in_overall(self, question: Question) -> bool:
        """Whether a question counts towards the headline "All" figure."""
        return True

    def build_prompt(
        self, question: Question, *, cot: bool = False, subtitles: str | None = None, style: str = "default"
    ) -> str:
        """The text prompt the reference harness gives the model for `question`, character for character.

        `subtitles` is the subtitle text already chosen for the sampled frames (one cue per line, in time
        order, lines joined by a newline); None asks for the prompt without subtitles.
        """
        raise NotImplementedError

    def build_message(
        self,
        question: Question,
        *,
        frames: int,
        cot: bool = False,
        subtitles: PromptSubtitles | None = None,
        style: str = "default",
    ) -> Message:
        """The whole user turn: by default the `frames` sampled frames, then `build_prompt`'s text (lmms-eval's
        chat layout) with `subtitle_block` as its subtitles. A benchmark whose harness places text between or after
        the images, or writes subtitles otherwise, overrides this."""
        if subtitles is not None and subtitles.interleaved:
            raise InputError(f"{self.name} prompt", f"{self.title} has no interleaved subtitles", question.question_id)
        lines = None if subtitles is None else subtitle_block(question, subtitles)
        text = self.build_prompt(question, cot=cot, subtitles=None if lines is None else "\n".join(lines), style=style)
        from mathreel.core.message import Message  # prompts only: scoring never builds one

        return Message.frames_then_text(frames, text, subtitles=lines or ())

    def subtitle_cues(self, path: Path) -> list[Cue]:
        """The subtitle units of a video's subtitle file, in time order (an SRT file's cues)."""
        from mathreel.core.media.subtitles import read_srt

        return read_srt(path)

    def frame_cues(self, cues: Sequence[Cue], frames: SampledFrames) -> list[list[Cue]]:
        """For each sampled frame, the subtitle units shown with it (the cues covering its time)."""
        from mathreel.core.media.subtitles import cues_for_frames

        return cues_for_frames(cues, list(frames.times))

    def upstream_report(self, extractor: str, report: Report) -> tuple[UpstreamName, dict[str, Any]] | None:
        """For a pinned reproduction whose reference writes its own result object (a rating JSON, a metrics dict),
        that object's name and the object rebuilt from `report`; None when the reference writes none."""
        return None

    def check_prompt_request(self, question: Question, *, cot: bool, style: str) -> None:
        """Refuse a prompt this benchmark cannot build, naming the question and the valid choices."""
        where = f"{self.name} prompt"
        if question.benchmark != self.name:
            raise InputError(where, f"the question belongs to {question.benchmark!r}", question.question_id)
        if style not in self.prompt_styles:
            choices = ", ".join(self.prompt_styles)
            raise InputError(where, f"unknown prompt style {style!r}; choose one of {choices}", question.question_id)
        if cot and not self.supports_cot:
            raise InputError(where, f"{self.title} has no chain-of-thought prompt", question.question_id)
        if cot and style in self.styles_without_cot:
            raise InputError(where, f"the {style} style has no chain-of-thought form", question.question_id)


def subtitle_block(question: Question, subtitles: PromptSubtitles) -> tuple[str, ...]:
    """lmms-eval's subtitle lines: the cues covering the sampled frames, once each in time order (every cue with
    `full`), or "No subtitles available" when the video has no subtitle file, as the reference does."""
    from mathreel.core.media.subtitles import subtitle_lines_or_placeholder

    if subtitles.cues is not None and not subtitles.full and subtitles.times is None:
        problem = f"frame-aligned subtitles need the video to know the sampled frames' times; {subtitles.missing}"
        raise InputError(subtitles.source, problem, question.question_id)
    times = None if subtitles.full else subtitles.times
    return tuple(subtitle_lines_or_placeholder(subtitles.cues, times))
