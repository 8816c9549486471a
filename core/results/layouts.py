"""The result-file layouts users already have, each flattened to (label, record fields, response, raw) rows.

A layout only moves fields around; what the fields mean (aliases, dimensions, gold answers) is the benchmark
module's business through `question_from_record`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.errors import InputError

RESPONSE_KEYS = ("response", "prediction", "model_response", "output", "model_output")
# Every field any benchmark reads a question id from (each benchmark declares its own `id_fields`).
ID_KEYS = tuple(dict.fromkeys(key for bench in BENCHMARKS.values() for key in bench.id_fields))
_RESPONSE_SET = frozenset(RESPONSE_KEYS)
_ID_SET = frozenset((*ID_KEYS, "__key__"))


class Row:
    """One answered question as the layout found it (slots: one per answer, hundreds of thousands per file).

    A plain class, not a dataclass: the reader only builds and reads it, and a slotted dataclass costs every
    `mathreel` start a class built twice and a compile per generated method."""

    __slots__ = ("fields", "full_response", "label", "raw", "response")

    def __init__(
        self,
        label: str | int,
        fields: dict[str, Any],
        response: str | None,
        raw: dict[str, Any],
        full_response: str | None = None,
    ) -> None:
        self.label = label  # where it is in the file: "line 4", 3, "video 001 question 001-2"
        self.fields = fields  # what question_from_record reads (may lack the gold answer)
        self.response = response  # None: the record has no response at all
        self.raw = raw  # the record as written, for display
        self.full_response = full_response  # the unfiltered reply, when the file keeps it beside `response`


class Layout(NamedTuple):
    """A result-file layout: its key, its description, whether a record has its shape, and the record's rows
    (a NamedTuple, not a dataclass: made once per process, where a dataclass costs a compile per method)."""

    key: str
    description: str
    matches: Callable[[dict[str, Any], tuple[str, ...]], bool]
    rows: Callable[[dict[str, Any], str | int, tuple[str, ...]], Iterator[Row]]


def label_of(record: dict[str, Any], index: int) -> str | int:
    """Line numbers for line-based files, 1-based record numbers for JSON arrays."""
    line = record.get("__line__")
    return f"line {line}" if line is not None else index + 1


def response_value(value: Any) -> str | None:
    """A response stored as "text", ["text"] or [["text"]] (the lmms-eval generations), as text."""
    if isinstance(value, list):
        if not value:
            return None
        value = value[0]
        if isinstance(value, list):
            value = value[0] if value else None
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


# lmms-eval --log_samples ---------------------------------------------------------------------------------------


def _is_lmms(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return "resps" in record or "filtered_resps" in record


def _metric_dict(record: dict[str, Any], metric_keys: tuple[str, ...]) -> dict[str, Any]:
    """The per-question fields of a sample: a known metric dict, else any dict holding a question id (lmms-eval
    >= 0.4 MathVerse keeps them in `submission`, keyed by `sample_index`)."""
    for key in metric_keys:
        if isinstance(record.get(key), dict):
            return record[key]
    for key, value in record.items():  # a task we do not know by name still carries its metric dict
        if key != "doc" and isinstance(value, dict) and not _ID_SET.isdisjoint(value):
            return value
    return {}


def _lmms_rows(record: dict[str, Any], label: str | int, metric_keys: tuple[str, ...]) -> Iterator[Row]:
    fields, response, full = lmms_sample(record, _metric_dict(record, metric_keys))
    yield Row(label, fields, response, record, full if full != response else None)


def lmms_sample(record: dict[str, Any], metric: dict[str, Any]) -> tuple[dict[str, Any], str | None, str | None]:
    """An lmms-eval sample's fields (its metric dict with `doc` over it; `target` the answer where the gold is
    empty), its response (`filtered_resps`, else `resps`) and its full reply (`resps`, only beside a filtered one).
    One place for the row reader and the columnar one (`columnar.read_lmms_columns`)."""
    doc = record.get("doc")
    fields = {**metric, **doc} if isinstance(doc, dict) else {**metric}
    if not fields.get("answer") and record.get("target") not in (None, ""):
        fields["answer"] = record["target"]
    response = response_value(record.get("filtered_resps"))
    full = response_value(record.get("resps"))
    if response is None:
        response, full = full, None
    return fields, response, full


def lmms_generation(record: dict[str, Any]) -> str:
    """Which of the lmms-eval sample-log generations a record belongs to."""
    if isinstance(record.get("doc"), dict):
        return "lmms-eval log_samples with doc (resps as [[text]])"
    if isinstance(record.get("filtered_resps"), str):
        if "token_counts" in record:
            return (
                "lmms-eval >= 0.7 log_samples (filtered_resps a string, resps only when it differs: the raw "
                "reply kept beside the filtered answer)"
            )
        return "lmms-eval log_samples, newest (filtered_resps a string)"
    return "lmms-eval log_samples without doc (filtered_resps + metric dict)"


# Video-MME result template -------------------------------------------------------------------------------------


def _is_template(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return isinstance(record.get("questions"), list)


def _template_rows(record: dict[str, Any], label: str | int, metric_keys: tuple[str, ...]) -> Iterator[Row]:
    video = {k: v for k, v in record.items() if k != "questions"}
    video_name = record.get("video_id", label)
    for number, question in enumerate(record["questions"], start=1):
        if not isinstance(question, dict):
            raise InputError("", f"question {number} is not a JSON object", f"video {video_name}")
        where = f"video {video_name}, question {question.get('question_id', number)}"
        response = response_value(question.get("response")) if "response" in question else None
        yield Row(where, {**video, **question}, response, question)


# MathVerse official output -------------------------------------------------------------------------------------


def _is_mathverse(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return "model_answer" in record and ("problem_version" in record or "question_type" in record)


def _mathverse_rows(record: dict[str, Any], label: str | int, metric_keys: tuple[str, ...]) -> Iterator[Row]:
    yield Row(label, record, response_value(record.get("model_answer")), record)


# VLMEvalKit predictions (xlsx, tsv, json) ---------------------------------------------------------------------
# Rows carry `index` (the row's position in the dataset file VLMEvalKit built) and `prediction`, no question id;
# Video-MME rows add video, question, candidates, answer and the taxonomy (vlmeval/dataset/videomme.py).

VLMEVAL_INDEX = "__vlmeval_index__"


def _is_vlmeval(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return "index" in record and "prediction" in record and not any(key in record for key in ID_KEYS)


def _vlmeval_rows(record: dict[str, Any], label: str | int, metric_keys: tuple[str, ...]) -> Iterator[Row]:
    index = record.get("index")
    whole_float = isinstance(index, float) and index.is_integer()  # spreadsheets store whole numbers as floats
    digits = isinstance(index, str) and index.strip().isdecimal() and index.isascii()  # TSV cells are text
    if whole_float or digits:
        index = int(index)  # type: ignore[arg-type]  # a whole float or a decimal string, checked above
    fields = {**record, "question_id": str(index), VLMEVAL_INDEX: index}
    yield Row(label, fields, response_value(record.get("prediction")), record)


# Video-MME-v2 prediction tables: the official script's TSV (the parquet's columns plus index, video, prediction;
# its _scored.tsv adds score) and VLMEvalKit's (index, video, video_path, subtitle_path, ... plus prediction). Both
# carry question ids and gold answers, so their rows read like plain ones; the layout only names the format.


def _is_v2_official(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return (
        "prediction" in record
        and "group_structure" in record
        and "index" in record
        and "video" in record
        and "video_path" not in record
    )


def _is_v2_vlmeval(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return "prediction" in record and "group_structure" in record and "video_path" in record


# Plain JSONL / CSV ---------------------------------------------------------------------------------------------


def _is_plain(record: dict[str, Any], metric_keys: tuple[str, ...]) -> bool:
    return not _RESPONSE_SET.isdisjoint(record) and not _ID_SET.isdisjoint(record)


def _has_id(record: dict[str, Any]) -> bool:
    return not _ID_SET.isdisjoint(record)


def _plain_rows(record: dict[str, Any], label: str | int, metric_keys: tuple[str, ...]) -> Iterator[Row]:
    fields = record  # read only: no copy per row unless the id has to be added
    if "__key__" in record and not any(k in record for k in ID_KEYS):
        fields = {**record, "question_id": record["__key__"]}
    for key in RESPONSE_KEYS:
        if key in record:
            value = record[key]
            yield Row(label, fields, value if value.__class__ is str else response_value(value), record)
            return
    yield Row(label, fields, None, record)


LAYOUTS: tuple[Layout, ...] = (
    Layout("lmms-eval", "lmms-eval --log_samples", _is_lmms, _lmms_rows),
    Layout("videomme-template", "Video-MME result template (videos with questions)", _is_template, _template_rows),
    Layout("mathverse", "MathVerse official output (model_answer)", _is_mathverse, _mathverse_rows),
    Layout(
        "videomme-v2-official",
        "Video-MME-v2 official predictions (test_video_mme_v2.py TSV)",
        _is_v2_official,
        _plain_rows,
    ),
    Layout("vlmevalkit-v2", "VLMEvalKit Video-MME-v2 predictions", _is_v2_vlmeval, _plain_rows),
    Layout("vlmevalkit", "VLMEvalKit predictions (index + prediction)", _is_vlmeval, _vlmeval_rows),
    Layout("plain", "question_id + response", _is_plain, _plain_rows),
)


def detect_layout(record: dict[str, Any], source: str, label: str | int, metric_keys: tuple[str, ...]) -> Layout:
    """The layout of a file, judged from its first record; a record with an id but no response says so."""
    for layout in LAYOUTS:
        if layout.matches(record, metric_keys):
            return layout
    fields = ", ".join(sorted(k for k in record if not k.startswith("__"))[:12]) or "none"
    if _is_lmms_aggregate(record):
        raise InputError(
            source,
            "this is lmms-eval's aggregate results file (scores per task, no answers); score "
            "the *_samples_<task>.jsonl file written beside it (lmms-eval --log_samples)",
        )
    if _has_id(record):
        expected = ", ".join(RESPONSE_KEYS)
        raise InputError(source, f"no response (expected a field named one of: {expected}); fields: {fields}", label)
    raise InputError(
        source,
        "unrecognised layout: expected lmms-eval samples, the Video-MME template, a Video-MME-v2 or VLMEvalKit "
        f"prediction table, MathVerse output or question_id + response; fields: {fields}",
        label,
    )


def _is_lmms_aggregate(record: dict[str, Any]) -> bool:
    """lmms-eval's `*_results.json`: a `results` dict per task with its run configuration beside it."""
    return isinstance(record.get("results"), dict) and any(k in record for k in ("configs", "versions", "n-shot"))


def iter_rows(
    records: list[dict[str, Any]], layout: Layout, source: str, metric_keys: tuple[str, ...]
) -> Iterator[Row]:
    """Every row of every record, checking each record has the layout's shape."""
    for index, record in enumerate(records):
        label = label_of(record, index)
        if not layout.matches(record, metric_keys) and not (layout.key == "plain" and _has_id(record)):
            raise InputError(source, f"record does not follow the file's layout ({layout.description})", label)
        try:
            yield from layout.rows(record, label, metric_keys)
        except InputError as error:
            raise InputError(source, error.problem, error.record) from None
