"""`read_results`: a prediction file in any known layout -> Questions with responses, joined to annotations."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mathreel.core.benchmarks import BENCHMARKS, Benchmark
from mathreel.core.errors import InputError
from mathreel.core.fields import text
from mathreel.core.ids import join_key, keyed
from mathreel.core.plural import counted
from mathreel.core.question import Question
from mathreel.core.results.bulk import gc_paused
from mathreel.core.results.detect import all_metric_keys, detect_benchmark, detect_mode
from mathreel.core.results.layouts import VLMEVAL_INDEX, Row, detect_layout, iter_rows, label_of, lmms_generation
from mathreel.core.results.load import load_records
from mathreel.core.results.model import Prediction, ResultFile, kept_record
from mathreel.core.results.recorded import PROMPT_KEYS, FileQuestion, recorded_prompts

QuestionReader = Callable[[Mapping[str, Any]], Question]
_SHOWN_IDS = 10  # ids quoted in a warning before "and N more"


def read_results(
    path: str | Path,
    benchmark: str | None = None,
    mode: str | None = None,
    annotations: str | Path | None = None,
    shared: dict[Any, Any] | None = None,
) -> ResultFile:
    """Read a result file, detect its layout, benchmark and mode (saying how in `notes`), and build Questions.

    Files carrying gold answers stand alone; id-only files need `annotations` (a dataset file, or a data
    directory read through core.data), whose questions supply the gold answers and dimensions. `shared` (one
    dict for the files of one call) lets a file read into columns reuse what earlier files read of the same
    questions (`Benchmark.values_reader`): the result is the same.
    """
    with gc_paused():
        return _read(path, benchmark, mode, annotations, shared)


def _read(
    path: str | Path,
    benchmark: str | None,
    mode: str | None,
    annotations: str | Path | None,
    shared: dict[Any, Any] | None = None,
) -> ResultFile:
    source = str(path)
    if annotations is None:  # a large JSON Lines run: decoded straight into columns where it is regular
        from mathreel.core.results.arrow_columns import read_arrow_columns

        found = read_arrow_columns(path, benchmark, mode)
        if found is not None:
            return found
    records, container = load_records(path)
    metric_keys = all_metric_keys()
    layout = detect_layout(records[0], source, label_of(records[0], 0), metric_keys)
    if layout.key == "plain" and annotations is None:  # a large run's usual file: read into columns if it can be
        from mathreel.core.results.columnar import read_columns

        columnar = read_columns(records, container, layout, source, benchmark, mode, shared)
        if columnar is not None:
            return columnar
        if not records:  # let go while reading into columns: read again for the row reader
            records, container = load_records(path)
    elif layout.key == "lmms-eval" and annotations is None:  # an lmms-eval log: columns if it can be
        from mathreel.core.results.columnar import read_lmms_columns

        columnar = read_lmms_columns(records, container, source, benchmark, mode, shared)
        if columnar is not None:
            return columnar
    elif layout.key == "videomme-template" and annotations is None:  # the official template: columns if it can
        from mathreel.core.results.columnar import read_template_columns

        columnar = read_template_columns(records, container, layout, source, benchmark, mode, shared)
        if columnar is not None:
            return columnar
    rows = list(iter_rows(records, layout, source, metric_keys))
    if not rows:
        raise InputError(source, "the file holds no answered questions")
    fmt = lmms_generation(records[0]) if layout.key == "lmms-eval" else layout.description
    notes = [f"layout: {fmt} [{container}]"]

    annotation_records = _annotation_records(annotations) if annotations is not None else None
    evidence = [row.fields for row in rows]
    try:
        bench, why = detect_benchmark(records, evidence, source, benchmark, layout.key)
    except InputError:
        if annotations is None or benchmark is not None:
            raise
        bench, why = _benchmark_from_annotations(annotations, annotation_records, source)
    notes.append(why)
    mode_key, mode_note = detect_mode(bench, _mode_evidence(evidence, annotation_records), path, mode)
    if mode_note:
        notes.append(mode_note)

    result = ResultFile(source=source, benchmark=bench.name, mode=mode_key, format=fmt, notes=notes, layout=layout.key)
    lmms_notes: list[str] = []
    if layout.key == "lmms-eval":
        from mathreel.core.results.lmms_log import record_notes

        lmms_notes = record_notes(records)
    # From here on the rows hold the records: each is let go once its answer is built (`_standalone`).
    del evidence
    records.clear()
    grouped = bench.mode(mode_key).grouped
    if annotations is None:
        _standalone(result, bench, rows, grouped)
    else:
        result.annotations = str(annotations)
        gold = GoldCheck(bench, mode_key)
        annotated = _annotated_questions(annotations, annotation_records, bench, mode_key, gold)
        gold.report(result, " in the annotations")
        if layout.key == "vlmevalkit":
            _vlmeval_ids(result, rows, annotated)
        _joined(result, bench, rows, grouped, annotated)
    if layout.key == "vlmevalkit" and annotations is None:
        result.notes.append(
            "question ids: VLMEvalKit's row index (with the dataset's annotations, the rows join "
            "their questions by video and question)"
        )
    if layout.key == "lmms-eval":
        from mathreel.core.results.lmms_log import reply_notes

        result.notes += lmms_notes + reply_notes(result.predictions)
    _warn_absent_dimensions(result, bench)
    _note_clusters(result, bench)
    return result


def _mode_evidence(rows: list[dict[str, Any]], annotation_records: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Rows that can tell the mode: the file's own when it carries options or answers, else the annotations'."""
    if annotation_records and not any(r.get("options") or r.get("answer") for r in rows[:50]):
        return annotation_records
    return rows


_JSON_KINDS: dict[type, str] = {dict: "a JSON object", list: "a JSON array"}


def _question(
    bench: Benchmark,
    row: Row,
    mode: str,
    source: str,
    read: QuestionReader | None = None,
    id_keys: tuple[str, ...] | None = None,
) -> Question:
    """The row's Question, checked. `read` and `id_keys`: the file's reader and id fields (`_file_plan`)."""
    _check_id_fields(bench.id_fields if id_keys is None else id_keys, row, source)
    try:
        question = bench.question_from_record(row.fields, mode) if read is None else read(row.fields)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise InputError(source, f"cannot read the record as a {bench.title} question ({error})", row.label) from None
    if not question.question_id:
        raise InputError(source, f"no question id (expected one of {', '.join(bench.id_fields)})", row.label)
    for key, value in question.dims.items():
        if value[:1] in "[{":  # cheap first look; only then find the field the label came from
            _check_dimension(key, value, row, source)
    return question


def _place(label: str | int) -> str:
    """A row label as a message shows it: "line 4", or "record 3" for a JSON array's third record."""
    return f"record {label}" if isinstance(label, int) else label


def _file_plan(bench: Benchmark, rows: list[Row], mode: str) -> tuple[QuestionReader, tuple[str, ...], bool]:
    """Per file, once: the benchmark's reader for the keys the file's records have, the id fields among them, and
    whether any record has a field a prompt is kept in (else no row looks for one: `recorded_prompts`)."""
    present = set().union(*[row.fields for row in rows])
    prompt_keys = {*PROMPT_KEYS, *bench.prompt_fields}
    prompts = not prompt_keys.isdisjoint(present) or any(not prompt_keys.isdisjoint(row.raw) for row in rows)
    return bench.question_reader(present, mode), tuple(key for key in bench.id_fields if key in present), prompts


def _check_id_fields(id_fields: tuple[str, ...], row: Row, source: str) -> None:
    """An id that is a JSON object or array would be read as its Python repr and join nothing: refuse it."""
    for key in id_fields:
        kind = _JSON_KINDS.get(type(row.fields.get(key)))
        if kind:
            raise InputError(source, f"the question id ({key}) is {kind}, not a text or number", row.label)


def _check_dimension(key: str, value: str, row: Row, source: str) -> None:
    """A dimension value that is a JSON array or object would become a category of its own: refuse it."""
    for field_name, raw in row.fields.items():
        kind = _JSON_KINDS.get(type(raw))
        if kind and str(raw).strip() == value:
            raise InputError(source, f"the {key} value ({field_name}) is {kind}, not a label", row.label)


class GoldCheck:
    """Gold answers of choice questions checked against the letters the question allows.

    Full-width and other compatibility letters (`Ｂ`) are unambiguous: they are normalised (NFKC) with a note.
    Anything else (`1`, `true`, a Cyrillic `А`, an option index) would score every answer wrong: a warning names
    the records.
    """

    def __init__(self, bench: Benchmark, mode: str) -> None:
        self.plain = frozenset(bench.letters(mode))
        self.normalised: list[str | int] = []
        self.bad: list[str] = []

    def check(self, question: Question, label: str | int) -> None:
        answer = question.answer
        if question.answer_kind != "choice" or answer in self.plain or not answer:
            return
        letters = question.letters if question.options else tuple(self.plain)
        if answer in letters:
            return
        import unicodedata  # here, not at the top: a C extension, about 2 ms of every `mathreel score` start

        folded = unicodedata.normalize("NFKC", answer).strip().upper()
        if folded in letters:
            question.answer = folded
            self.normalised.append(_place(label))
        else:
            self.bad.append(f"{_place(label)} ({answer!r}; allowed {'/'.join(sorted(letters))})")

    def report(self, result: ResultFile, where: str = "") -> None:
        if self.normalised:
            result.notes.append(
                f"{len(self.normalised)} gold answers{where} written as full-width or other "
                f"compatibility letters were read as plain letters (NFKC): {_shown(self.normalised)}"
            )
        if self.bad:
            result.warnings.append(
                f"{len(self.bad)} gold answers{where} are not one of the question's letters, so "
                f"every answer to them scores wrong: {_shown(self.bad)}"
            )


def _response(row: Row, source: str) -> str:
    if row.response is None:
        raise InputError(source, "the record has no response", row.label)
    return row.response


def _standalone(result: ResultFile, bench: Benchmark, rows: list[Row], grouped: bool) -> None:
    """A file with gold answers in every record: each row is its own Question.

    One pass per row (build, key, check, append): this loop runs once per answer of a 270,000-answer file.
    """
    duplicates: dict[str, list[str | int]] = {}
    seen: dict[str, int] = {}
    source, mode = result.source, result.mode
    append = result.predictions.append
    gold = GoldCheck(bench, mode)
    read, id_keys, prompts = _file_plan(bench, rows, mode)
    for index, row in enumerate(rows):
        rows[index] = None  # type: ignore[call-overload]  # let the record go with its row
        question = _question(bench, row, mode, source, read, id_keys)
        gold.check(question, row.label)
        qid = question.question_id
        count = seen.get(qid, 0) + 1  # `core.ids.occurrences`, inline: this loop runs once per answer
        seen[qid] = count
        if count > 1:
            if not grouped:
                duplicates.setdefault(qid, []).append(row.label)
                continue
            question.question_id = join_key(qid, count)
        if not question.answer:
            raise InputError(source, "no gold answer in the record", row.label, fix="annotations")
        recorded = FileQuestion(question, recorded_prompts(bench, row.raw, row.fields) if prompts else ())
        raw = kept_record(row.raw, len(result.predictions))
        append(Prediction(question, _response(row, source), row.label, raw, recorded, row.full_response))
    gold.report(result)
    _warn_duplicates(result, duplicates)


def _joined(
    result: ResultFile, bench: Benchmark, rows: list[Row], grouped: bool, annotated: dict[str, Question]
) -> None:
    """A file joined to the annotations: gold and dimensions come from the annotations. A row whose file records
    its question (text, options or prompt) joins only the annotated question it matches (`question_join`); a row
    recording none joins by id, and its prediction says so."""
    duplicates: dict[str, list[str | int]] = {}
    unknown: list[str] = []
    mismatched: list[str] = []
    disagree = 0
    used: set[str] = set()
    from mathreel.core.results.question_join import match_how, records_question

    ids = [_row_id(row, bench, result) for row in rows]
    for (key, count), qid, row in zip(keyed(ids), ids, rows, strict=True):
        if count > 1 and not grouped:
            duplicates.setdefault(qid, []).append(row.label)
            continue
        question = annotated.get(key)
        if question is None:
            unknown.append(key)
            continue
        recorded = _file_question(bench, row, result, key)
        how = match_how(recorded, question, bench) if records_question(recorded, bench) else "id"
        if how is None:
            mismatched.append(key)
            continue
        used.add(key)
        own_answer = str(row.fields.get("answer") or "").strip().upper()
        disagree += bool(own_answer) and question.answer_kind == "choice" and own_answer != question.answer
        recorded = recorded._replace(join=how)
        raw = kept_record(row.raw, len(result.predictions))
        result.predictions.append(
            Prediction(question, _response(row, result.source), row.label, raw, recorded, row.full_response)
        )
    result.missing = _in_answered_subset(result, bench, [q for key, q in annotated.items() if key not in used])
    result.unknown_ids = unknown
    result.mismatched = mismatched
    result.notes.append(
        f"annotations: {len(used)} of {counted(len(annotated), 'question')} joined on question_id from "
        f"{result.annotations}"
    )
    if not used:
        nothing = (
            f"nothing was joined: none of the file's {len(ids)} question ids is in the annotations "
            f"({result.annotations}); check the benchmark, the mode and the annotations"
        )
        if mismatched:
            nothing = (
                f"nothing was joined: the file's {counted(len(ids), 'answer')} "
                f"{'is' if len(ids) == 1 else 'are'} to other questions than the "
                f"annotations' ({result.annotations}), {len(mismatched)} of them under the same ids"
            )
        result.notes.append(nothing)
        result.warnings.append(nothing)
    if unknown:
        result.warnings.append(
            f"{counted(len(unknown), 'id')} in the file {'is' if len(unknown) == 1 else 'are'} not in the "
            f"annotations: {_shown(unknown)}"
        )
    if mismatched:
        result.warnings.append(
            f"{counted(len(mismatched), 'answer')} {'is' if len(mismatched) == 1 else 'are'} to questions that "
            f"differ from the annotations' questions of the same id (text or options), so not joined: "
            f"{_shown(mismatched)}"
        )
    if disagree:
        result.warnings.append(
            f"{counted(disagree, 'record')} {'carries' if disagree == 1 else 'carry'} an answer that differs from the "
            "annotations' (used)"
        )
    _warn_duplicates(result, duplicates)


def _file_question(bench: Benchmark, row: Row, result: ResultFile, key: str) -> FileQuestion:
    """What a row of a joined file records about its question; only the id when it records no question fields
    and no prompt (the common id-only file, read without building a question per row)."""
    prompts = recorded_prompts(bench, row.raw, row.fields)
    if prompts or any(row.fields.get(field) for field in bench.question_fields):
        own = _question(bench, row, result.mode, result.source)
        own.question_id = key
    else:
        own = Question(bench.name, result.mode, key, "", str(row.fields.get("answer") or "").strip())
    return FileQuestion(own, prompts)


def _in_answered_subset(result: ResultFile, bench: Benchmark, missing: list[Question]) -> list[Question]:
    """The missing questions that count: when every answer is of one value of the benchmark's subset dimension
    (a MathVerse Text Only run), the annotated questions of the other values are not missing."""
    key = bench.subset_dimension
    answered = {p.question.dims.get(key) for p in result.predictions} if key else set()
    if key is None or len(answered) != 1 or None in answered:
        return missing
    (value,) = answered
    kept = [q for q in missing if q.dims.get(key) == value]
    if len(kept) < len(missing):
        result.notes.append(
            f"every answer is a {value} question: the {len(missing) - len(kept)} annotated questions "
            f"of other {bench.dimension(key).label.lower()}s are not counted as missing"
        )
    return kept


def _row_id(row: Row, bench: Benchmark, result: ResultFile) -> str:
    """The question id of a row without building the rest of the question (id-only files)."""
    _check_id_fields(bench.id_fields, row, result.source)
    qid = bench.record_id(row.fields)
    if not qid:
        raise InputError(result.source, f"no question id (expected one of {', '.join(bench.id_fields)})", row.label)
    return qid


def _warn_duplicates(result: ResultFile, duplicates: dict[str, list[str | int]]) -> None:
    """At most `_SHOWN_IDS` ids, each with at most `_SHOWN_IDS` places: the line stays short for any file."""
    result.duplicates = duplicates
    if duplicates:
        shown = [f"{qid} (again at {_shown(labels)})" for qid, labels in list(duplicates.items())[:_SHOWN_IDS]]
        detail = _shown(shown, len(duplicates))
        result.warnings.append(f"{len(duplicates)} duplicate question ids; the first occurrence is scored: {detail}")


def _shown(items: list[str] | list[str | int], total: int | None = None) -> str:
    """The first `_SHOWN_IDS` items, then "and k more" (`total`: how many there are when `items` is a head)."""
    total = len(items) if total is None else total
    head = ", ".join(map(str, items[:_SHOWN_IDS]))
    return head + (f" and {total - _SHOWN_IDS} more" if total > _SHOWN_IDS else "")


def _annotation_records(annotations: str | Path) -> list[dict[str, Any]] | None:
    """Records of an annotations file; a directory is read later through core.data (None here)."""
    if Path(annotations).is_dir():
        return None
    records, _ = load_records(annotations)
    return records


def _annotated_questions(
    annotations: str | Path, records: list[dict[str, Any]] | None, bench: Benchmark, mode: str, gold: GoldCheck
) -> dict[str, Question]:
    """Annotated questions by join key (question id, `id#k` for repeated multi-binary ids)."""
    source = str(annotations)
    if records is None:
        questions = _questions_from_data_dir(Path(annotations), bench, mode)
    else:
        questions = []
        for index, record in enumerate(records):
            row = Row(label_of(record, index), record, None, record)
            question = _question(bench, row, mode, source)
            if not question.answer:
                raise InputError(source, "annotation record has no answer", row.label)
            gold.check(question, row.label)
            questions.append(question)
    by_key = {}
    for (key, count), question in zip(keyed(q.question_id for q in questions), questions, strict=True):
        # A data directory's questions are core.data's cached objects: rename a copy, never the original.
        by_key[key] = question if count == 1 else question.replace(question_id=key)
    return by_key


def _questions_from_data_dir(directory: Path, bench: Benchmark, mode: str) -> list[Question]:
    """The questions of a dataset directory in its real layout (or a parent holding several), via core.data."""
    from mathreel.core.data import load_dataset

    return list(load_dataset(bench.name, mode, data_dir=directory).questions)


def _benchmark_from_annotations(
    annotations: str | Path, records: list[dict[str, Any]] | None, source: str
) -> tuple[Benchmark, str]:
    """The benchmark of a file that cannot tell by itself, told by its annotations: an annotation file's fields,
    or the one benchmark whose layout a data directory holds."""
    if records is not None:
        bench, why = detect_benchmark(records, records, source, None)
        return bench, why + " in the annotations"
    from mathreel.core.data.locate import benchmarks_in

    found = [BENCHMARKS[name] for name in benchmarks_in(Path(annotations))]
    if len(found) != 1:
        holds = f"holds {', '.join(b.name for b in found)}" if found else "holds no benchmark's files"
        raise InputError(
            source, f"cannot tell which benchmark this file is for (the annotations directory {holds})", fix="benchmark"
        )
    return found[0], f"benchmark: {found[0].name} (the annotations directory holds its files)"


def _vlmeval_ids(result: ResultFile, rows: list[Row], annotated: dict[str, Question]) -> None:
    """Give each VLMEvalKit row the id of its dataset question: by (video, question text) where that pair is
    unique in the dataset, else by its index (the row's position in the dataset) when the question texts agree.
    A row matching neither keeps an id no question has, so it is reported as unknown, never joined wrongly."""
    from mathreel.core.results.question_key import text_key

    pairs: dict[tuple[str, str], str | None] = {}
    for qid, question in annotated.items():
        pair = (question.video_id or "", text_key(question.question))
        pairs[pair] = None if pair in pairs else qid  # None: the pair is ambiguous
    order = list(annotated)
    counts = {"video and question": 0, "index": 0}
    for row in rows:
        fields = row.fields
        asked = text_key(text(fields.get("question")))
        key = pairs.get((text(fields.get("video")), asked)) if asked else None
        how = "video and question"
        if key is None:
            index, how = fields.get(VLMEVAL_INDEX), "index"
            candidate = order[index] if isinstance(index, int) and 0 <= index < len(order) else None
            if candidate and (not asked or text_key(annotated[candidate].question) == asked):
                key = candidate
        if key is None:
            fields["question_id"] = f"row {fields.get(VLMEVAL_INDEX)} (not joined)"
            continue
        fields["question_id"] = key
        counts[how] += 1
    result.notes.append(
        "VLMEvalKit rows joined to the dataset: " + ", ".join(f"{n} by {how}" for how, n in counts.items())
    )


def _warn_absent_dimensions(result: ResultFile, bench: Benchmark) -> None:
    """A declared dimension no question carries means its breakdown silently vanishes: say so."""
    questions = [p.question for p in result.predictions] + result.missing
    present = {key for question in questions for key in question.dims}
    absent = [f"{dim.label} ({dim.key})" for dim in bench.dimensions if dim.key not in present]
    if questions and absent:
        result.warnings.append(
            f"no {', '.join(absent)} in the file for any question: "
            f"{'that breakdown is' if len(absent) == 1 else 'those breakdowns are'} absent"
        )


def _note_clusters(result: ResultFile, bench: Benchmark) -> None:
    """Say what the clustered SE will group by when it is not a stored video id (the benchmark's own rule)."""
    questions = [p.question for p in result.predictions] + result.missing
    if not questions or all(q.video_id for q in questions):
        return
    keyed = [q for q in questions if not q.video_id and q.cluster_key]
    unit = bench.cluster_unit
    why = "its id names the video" if unit == "video" else f"the versions of one {unit} are correlated"
    if not keyed:
        result.notes.append("no video ids in the data: clustered SE uses each question as its own cluster")
    elif len(keyed) == len(questions):
        result.notes.append(f"no video ids in the data: clustered SE groups questions by {unit} ({why})")
    else:
        result.notes.append(
            f"clustered SE groups questions by video where the data names it, else by {unit} "
            f"({why}), else each question alone"
        )
