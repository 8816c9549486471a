"""Result files read into columns: one tuple of question values and one response per answer, with a `Question`
and a `Prediction` built only when someone asks for them. Plain files of any size (`read_columns`), the Video-MME
result template (`read_template_columns`: each question's fields over its video's) and lmms-eval sample logs
(`read_lmms_columns`: each record's metric dict; the records kept for the prompts and `doc_hash`).

A 270,000-answer run spent most of its reading time building a Question, a Row, a FileQuestion and a Prediction
per answer that `mathreel score --json` never looks at. Here a file whose records are flat, carry their gold
answers and spell each field one way (`Benchmark.values_reader`) is read into `AnswerColumns`; scoring reads the
columns (`core.scoring.columnar`) and `ColumnarResult.predictions` builds the same Predictions the row reader builds
on first use (the drill-down, `--rows`, a judge's join).

Anything unusual (a duplicate id, a gold answer that is not a plain letter, an id or dimension that is a JSON
value, a missing response, prompts a plain file keeps per record) sends the whole file back to the row reader
(`core.results.reader`), whose messages and notes are the ones users get: this path only ever gives what that one
gives, faster.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import Any

from mathreel.core.benchmarks import BENCHMARKS, Benchmark
from mathreel.core.benchmarks.base import QuestionValues
from mathreel.core.errors import InputError
from mathreel.core.fields import text
from mathreel.core.results.detect import all_metric_keys, detect_benchmark, detect_mode
from mathreel.core.results.layouts import RESPONSE_KEYS, Layout, lmms_generation, lmms_sample, response_value
from mathreel.core.results.model import NO_RECORD, RECORDS_KEPT, Prediction, ResultFile, kept_record
from mathreel.core.results.recorded import FileQuestion, recorded_prompts

# Record keys that make a row more than its question values and response: harness prompts kept per answer, a
# lmms-eval document hash, an object document's keys. A file with any of them is read row by row.
_ROW_KEYS = frozenset(("prompt", "input", "arguments", "doc_hash", "__key__"))


class _RowByRow(Exception):
    """The file needs the row reader (something about it is unusual); raised before anything is returned."""


class AnswerColumns:
    """Per answer, in file order: the question values (`Benchmark.values_reader`), the response, and the record's
    line (None in a JSON array, whose rows are labelled by position); the first `RECORDS_KEPT` records whole.

    A plain class, not a dataclass: `dataclasses` (with `inspect` and `ast`) costs every `score` start to import."""

    __slots__ = ("benchmark", "extras", "fields", "fulls", "kept", "lines", "prompts", "responses", "values")

    def __init__(
        self,
        benchmark: str,
        values: list[QuestionValues],
        responses: list[str],
        lines: list[Any],
        kept: list[dict[str, Any]],
        extras: list[dict[str, str]] | None = None,
    ) -> None:
        self.benchmark = benchmark
        self.values = values
        self.responses = responses
        self.lines = lines
        self.kept = kept
        self.extras = extras  # per answer, `Question.extra` (a template's video id and url); None: empty
        # An lmms-eval log's (`read_lmms_columns`): per answer the raw reply kept beside the filtered one (or None),
        # and the fields read and the records (kept whole) its recorded prompts are read from when it is built.
        self.fulls: list[str | None] | None = None
        self.fields: list[dict[str, Any]] | None = None
        self.prompts: list[dict[str, Any]] | None = None

    def __len__(self) -> int:
        return len(self.responses)

    def label(self, index: int) -> str | int:
        """Where answer `index` is in the file, as the row reader labels it (`layouts.label_of`; a template's
        answers hold (video, question) and are labelled as `layouts._template_rows` labels them)."""
        line = self.lines[index]
        if line.__class__ is tuple:
            return f"video {line[0]}, question {line[1]}"
        return f"line {line}" if line is not None else index + 1


class ColumnarResult(ResultFile):
    """A ResultFile read into columns: `predictions` are built on first use, the same ones the row reader builds
    (the first few alone by `first_predictions`, which run settings and provenance read)."""

    columns: AnswerColumns
    _built: list[Prediction]
    _complete: bool

    def __init__(self, columns: AnswerColumns, **fields: Any) -> None:
        self._built, self._complete = [], False
        super().__init__(**fields)
        self.columns = columns

    @property  # a dataclass field in the base, built on first use here
    def predictions(self) -> list[Prediction]:
        if not self._complete:
            self._build(len(self.columns))
            self._complete = True
        return self._built

    @predictions.setter
    def predictions(self, value: list[Prediction]) -> None:
        # The base class's __init__ sets the (empty) default; a caller's list replaces the columns' answers.
        if value or getattr(self, "columns", None) is not None:
            self._built, self._complete = list(value), True

    def answer_count(self) -> int:
        return len(self._built) if self._complete else len(self.columns)

    def first_predictions(self, count: int) -> list[Prediction]:
        if not self._complete:
            self._build(min(count, len(self.columns)))
        return self._built[:count]

    def _build(self, stop: int) -> None:
        """Predictions up to `stop`, each as `reader._standalone` makes it (kept ones are reused: one object each)."""
        columns, built = self.columns, self._built
        bench = BENCHMARKS[columns.benchmark]
        question_of, kept, extras = bench.question_of, columns.kept, columns.extras
        if columns.prompts is not None:
            self._build_logged(stop, bench)
            return
        for index in range(len(built), stop):
            question = question_of(columns.values[index], None if extras is None else dict(extras[index]))
            raw = kept[index] if index < RECORDS_KEPT else NO_RECORD
            built.append(
                Prediction(
                    question, columns.responses[index], columns.label(index), raw, FileQuestion(question, ()), None
                )
            )

    def _build_logged(self, stop: int, bench: Benchmark) -> None:
        """An lmms-eval log's Predictions, with the prompts each record keeps, as `reader._standalone` builds them."""
        columns, built = self.columns, self._built
        records, fields, fulls = columns.prompts, columns.fields, columns.fulls
        assert records is not None and fields is not None and fulls is not None
        for index in range(len(built), stop):
            question = bench.question_of(columns.values[index])
            label, response, record = columns.label(index), columns.responses[index], records[index]
            recorded = FileQuestion(question, recorded_prompts(bench, record, fields[index]))
            built.append(Prediction(question, response, label, kept_record(record, index), recorded, fulls[index]))


def read_columns(
    records: list[dict[str, Any]],
    container: str,
    layout: Layout,
    source: str,
    benchmark: str | None,
    mode: str | None,
    shared: dict[Any, Any] | None = None,
) -> ColumnarResult | None:
    """The file read into columns, or None when it needs the row reader: `records` are then as they were, or
    emptied when they were let go while reading (the caller reads the file again).

    Called only for the plain layout without annotations: every record is the question's own, with its gold.
    `shared`: tables kept across the files of one call (`reader.read_results`)."""
    if "__key__" in records[0]:
        return None
    keys: set[str] = set().union(*records)
    plan = columns_plan(records, keys, source, benchmark, mode)
    if plan is None:
        return None
    bench, mode_key, why, answer_key = plan
    read = bench.values_reader(keys, mode_key, shared)
    if read is None:
        return None
    try:
        columns = _columns(records, bench, read, answer_key, mode_key)
    except _RowByRow:
        records.clear()  # some were let go: the caller reads the file again
        return None
    return columnar_result(columns, container, layout, source, bench, mode_key, why)


def columns_plan(
    records: list[dict[str, Any]], keys: set[str], source: str, benchmark: str | None, mode: str | None
) -> tuple[Benchmark, str, list[str], str] | None:
    """The benchmark, mode, notes saying how they were told, and the one response key of a file that can be read
    into columns, or None when it needs the row reader. `records`: detection reads the first few alone; `keys`:
    every record's keys."""
    try:
        bench, why = detect_benchmark(records, records, source, benchmark)
        mode_key, mode_note = detect_mode(bench, records, source, mode)
    except InputError:
        return None  # the row reader reports it, after checking every record's layout as it always has
    if bench.mode(mode_key).grouped or bench.groups is not None:
        return None
    if not _ROW_KEYS.isdisjoint(keys) or not keys.isdisjoint(bench.prompt_fields):
        return None
    answers = [key for key in RESPONSE_KEYS if key in keys]
    if len(answers) != 1:
        return None
    return bench, mode_key, [why, *([mode_note] if mode_note else [])], answers[0]


def columnar_result(
    columns: AnswerColumns, container: str, layout: Layout, source: str, bench: Benchmark, mode: str, why: list[str]
) -> ColumnarResult:
    """The ColumnarResult of `columns`, with the notes and warnings the row reader gives (`why`: how the benchmark
    and mode were told)."""
    notes = [f"layout: {layout.description} [{container}]", *why]
    result = ColumnarResult(
        columns, source=source, benchmark=bench.name, mode=mode, format=layout.description, notes=notes
    )
    result.layout = layout.key
    _warn_absent_dimensions(result, bench, columns)
    _note_clusters(result, bench, columns)
    return result


def read_template_columns(
    records: list[dict[str, Any]],
    container: str,
    layout: Layout,
    source: str,
    benchmark: str | None,
    mode: str | None,
    shared: dict[Any, Any] | None = None,
) -> ColumnarResult | None:
    """A Video-MME result template (videos, each with its questions) read into columns, or None when the row
    reader must read it (`records` are left as they were): the rows `layouts._template_rows` makes, without a
    Row, Question, FileQuestion or Prediction per answer. Called only without annotations."""
    flat: list[dict[str, Any]] = []  # each question's fields over its video's, as the row reader reads them
    responses: list[str] = []
    places: list[tuple[Any, Any]] = []
    kept: list[dict[str, Any]] = []
    owners: list[dict[str, Any]] = []  # per answer, its video's fields
    add, add_response, add_place, add_owner = flat.append, responses.append, places.append, owners.append
    question_keys: set[str] = set()
    for index, record in enumerate(records):
        questions = record.get("questions") if record.__class__ is dict else None
        if questions.__class__ is not list or "__line__" in record:
            return None
        video = {k: v for k, v in record.items() if k != "questions"}
        name = record.get("video_id", index + 1)
        for number, question in enumerate(questions, start=1):
            if question.__class__ is not dict:
                return None
            response = question.get("response")
            if response.__class__ is not str:
                response = response_value(response)
                if response is None:
                    return None  # no response: the row reader says where
            add({**video, **question})
            add_response(response)
            add_place((name, question.get("question_id", number)))
            add_owner(video)
            if len(kept) < RECORDS_KEPT:
                kept.append(question)
        question_keys.update(*questions)
    if not flat:
        return None
    try:
        bench, why = detect_benchmark(records, flat, source, benchmark, layout.key)
        mode_key, mode_note = detect_mode(bench, flat, source, mode)
    except InputError:
        return None
    if bench.mode(mode_key).grouped or bench.groups is not None:
        return None
    keys: set[str] = set().union(*flat)
    if not _ROW_KEYS.isdisjoint(keys) or not keys.isdisjoint(bench.prompt_fields):
        return None
    read = bench.values_reader(keys, mode_key, shared, extras=True)
    if read is None:
        return None
    try:
        values = _checked_values(flat, bench, read, mode_key)
    except _RowByRow:
        return None
    extra_keys = bench.extra_fields(keys)
    extras = None
    if extra_keys:  # one dict per video where no question carries an extra field of its own (the usual file)
        per_video = flat if not question_keys.isdisjoint(extra_keys) else owners
        made: dict[int, dict[str, str]] = {}
        extras = []
        for fields in per_video:
            extra = made.get(id(fields))
            if extra is None:
                extra = made[id(fields)] = {k: text(fields[k]) for k in extra_keys if k in fields}
            extras.append(extra)
    columns = AnswerColumns(bench.name, values, responses, places, kept, extras)
    notes = [f"layout: {layout.description} [{container}]", why, *([mode_note] if mode_note else [])]
    result = ColumnarResult(
        columns, source=source, benchmark=bench.name, mode=mode_key, format=layout.description, notes=notes
    )
    result.layout = layout.key
    _warn_absent_dimensions(result, bench, columns)
    _note_clusters(result, bench, columns)
    return result


_LOGGED_AT_MOST = 50_000  # larger logs go row by row, which lets each record go once read (memory)


def read_lmms_columns(
    records: list[dict[str, Any]],
    container: str,
    source: str,
    benchmark: str | None,
    mode: str | None,
    shared: dict[Any, Any] | None = None,
) -> ColumnarResult | None:
    """An lmms-eval sample log read into columns, or None when the row reader must read it (`records` are left as
    they were): the rows `layouts._lmms_rows` makes, each record's fields its one metric dict (and `doc`), without a
    Row, Question, FileQuestion or Prediction per answer. The records are kept whole (their prompts and `doc_hash`
    are read when a Prediction is built), so only logs of up to `_LOGGED_AT_MOST` answers are read so.
    Called only without annotations."""
    if len(records) > _LOGGED_AT_MOST:
        return None
    keys_of_records: set[str] = set().union(*records)
    metric = [key for key in all_metric_keys() if key in keys_of_records]
    if len(metric) != 1 or "__key__" in keys_of_records:
        return None  # no metric dict by name, or several: the row reader finds each record's
    flat: list[dict[str, Any]] = []
    responses: list[str] = []
    fulls: list[str | None] = []
    add, add_response, add_full = flat.append, responses.append, fulls.append
    get_metric = itemgetter(metric[0])
    for record in records:
        if "resps" not in record and "filtered_resps" not in record:
            return None
        found = get_metric(record) if metric[0] in record else None
        if found.__class__ is not dict:
            return None
        fields, response, full = lmms_sample(record, found)
        if response is None:
            return None  # no response: the row reader says where
        add(fields)
        add_response(response)
        add_full(full if full != response else None)
    try:
        bench, why = detect_benchmark(records, flat, source, benchmark, "lmms-eval")
        mode_key, mode_note = detect_mode(bench, flat, source, mode)
    except InputError:
        return None
    if bench.mode(mode_key).grouped or bench.groups is not None:
        return None
    keys: set[str] = set().union(*flat)
    if not keys.isdisjoint(bench.prompt_fields) or "__key__" in keys:
        return None  # prompts a benchmark splits by its own fields: read row by row
    read = bench.values_reader(keys, mode_key, shared)
    if read is None:
        return None
    try:
        values = _checked_values(flat, bench, read, mode_key)
    except _RowByRow:
        return None
    from mathreel.core.results.lmms_log import kept_reply_notes, record_notes  # hashlib: lmms-eval logs only

    columns = AnswerColumns(bench.name, values, responses, [r.get("__line__") for r in records], records)
    columns.fulls, columns.fields, columns.prompts = fulls, flat, records
    fmt = lmms_generation(records[0])
    notes = [f"layout: {fmt} [{container}]", why, *([mode_note] if mode_note else [])]
    kept_replies = len(fulls) - fulls.count(None)
    notes += record_notes(records) + kept_reply_notes(kept_replies)
    result = ColumnarResult(columns, source=source, benchmark=bench.name, mode=mode_key, format=fmt, notes=notes)
    result.layout = "lmms-eval"
    _warn_absent_dimensions(result, bench, columns)
    _note_clusters(result, bench, columns)
    return result


def _checked_values(rows: list[dict[str, Any]], bench: Benchmark, read: Any, mode: str) -> list[QuestionValues]:
    """Every row's values; `_RowByRow` where the row reader would say something or treat a row apart."""
    letters = frozenset(bench.letters(mode))
    try:
        values = list(map(read, rows))
    except (ValueError, TypeError, KeyError, AttributeError):
        raise _RowByRow from None
    for found in values:
        question_id = found[0]
        if found[2] not in letters or not question_id or question_id[0] in "[{":
            raise _RowByRow  # no gold, a gold to check, no id, an id that may be a JSON value
    if not _plain_values(values):
        raise _RowByRow
    return values


def _columns(records: list[dict[str, Any]], bench: Benchmark, read: Any, answer_key: str, mode: str) -> AnswerColumns:
    """Every record's values and response; `_RowByRow` at the first record the row reader would treat apart."""
    letters = frozenset(bench.letters(mode))
    values: list[QuestionValues] = []
    responses: list[str] = []
    lines: list[Any] = []
    add_values, add_response, add_line = values.append, responses.append, lines.append
    kept = records[:RECORDS_KEPT]
    for index, record in enumerate(records):
        records[index] = None  # type: ignore[call-overload]  # each record is let go once read: memory peaks lower
        response = record.get(answer_key)
        if response.__class__ is not str:
            response = response_value(response)
            if response is None:
                raise _RowByRow
        try:
            found = read(record)
        except (ValueError, TypeError, KeyError, AttributeError):
            raise _RowByRow from None
        question_id = found[0]
        if found[2] not in letters or not question_id or question_id[0] in "[{":
            raise _RowByRow  # no gold, a gold to check, no id, an id that may be a JSON value
        add_values(found)
        add_response(response)
        add_line(record.get("__line__"))
    columns = AnswerColumns(bench.name, values, responses, lines, kept)
    if not plain_columns(columns):
        raise _RowByRow
    return columns


def plain_columns(columns: AnswerColumns) -> bool:
    """No repeated id (the row reader scores the first and says which) and no dimension that may be a JSON value."""
    return _plain_values(columns.values)


def _plain_values(values: list[QuestionValues]) -> bool:
    if len(set(map(itemgetter(0), values))) < len(values):
        return False
    return not any(value[:1] in "[{" for dims in _distinct_dims_of(values) for value in dims.values())


def _warn_absent_dimensions(result: ResultFile, bench: Benchmark, columns: AnswerColumns) -> None:
    """`reader._warn_absent_dimensions` over the columns."""
    present = {key for dims in _distinct_dims(columns) for key in dims}
    absent = [f"{dim.label} ({dim.key})" for dim in bench.dimensions if dim.key not in present]
    if absent:
        result.warnings.append(
            f"no {', '.join(absent)} in the file for any question: "
            f"{'that breakdown is' if len(absent) == 1 else 'those breakdowns are'} absent"
        )


def _distinct_dims(columns: AnswerColumns) -> Iterator[dict[str, str]]:
    """Each dims dict object once, in order of first use (a file's answers share a few hundred): C loops."""
    return _distinct_dims_of(columns.values)


def _distinct_dims_of(values: list[QuestionValues]) -> Iterator[dict[str, str]]:
    dims = list(map(_DIMS, values))
    return iter(dict(zip(map(id, dims), dims, strict=True)).values())


_DIMS = itemgetter(5)


def _note_clusters(result: ResultFile, bench: Benchmark, columns: AnswerColumns) -> None:
    """`reader._note_clusters` over the columns (video id: values[4], cluster key: values[6])."""
    values = columns.values
    if all(v[4] for v in values):
        return
    keyed = sum(1 for v in values if not v[4] and v[6])
    unit = bench.cluster_unit
    why = "its id names the video" if unit == "video" else f"the versions of one {unit} are correlated"
    if not keyed:
        result.notes.append("no video ids in the data: clustered SE uses each question as its own cluster")
    elif keyed == len(values):
        result.notes.append(f"no video ids in the data: clustered SE groups questions by {unit} ({why})")
    else:
        result.notes.append(
            f"clustered SE groups questions by video where the data names it, else by {unit} "
            f"({why}), else each question alone"
        )
