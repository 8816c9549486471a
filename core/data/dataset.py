"""A benchmark's questions loaded from its real layout (or the demo set), and the media paths that go with them.

Loaded datasets are cached in-process per (benchmark, mode, root, annotation files' size and mtime): the app
switches questions all the time and a parquet read per click would be wasteful, while an edited file still
reloads.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathreel.core.benchmarks import Benchmark, get_benchmark
from mathreel.core.cache import cache_base
from mathreel.core.data.layouts import Layout, layout_for
from mathreel.core.data.locate import annotation_files, locate
from mathreel.core.data.paths import inside
from mathreel.core.data.records import decode_objects, read_records
from mathreel.core.errors import InputError
from mathreel.core.ids import occurrence_id, occurrences
from mathreel.core.plural import counted
from mathreel.core.question import Question


@dataclass(eq=False)
class Dataset:
    """One benchmark in one mode: its questions plus where each question's video, subtitles or diagram is."""

    benchmark: str
    mode: str
    root: Path
    source: str
    files: tuple[Path, ...]
    questions: tuple[Question, ...]
    layout: Layout = field(repr=False)
    _refs: tuple[str, ...] = field(repr=False, default=())
    _by_ref: dict[str, int] = field(repr=False, default_factory=dict)

    @property
    def bench(self) -> Benchmark:
        return get_benchmark(self.benchmark)

    def ref(self, question: Question) -> str:
        """A unique handle for a question: its id, or `id#k` when several rows share the id (multi-binary)."""
        return str(question.extra.get("ref") or question.question_id)

    @property
    def refs(self) -> tuple[str, ...]:
        return self._refs

    def question(self, ref: str) -> Question:
        """The question named `ref` (an id, an `id#k` pair, or a multi-binary group id, giving its first pair)."""
        ref = str(ref).strip()
        if ref in self._by_ref:
            return self.questions[self._by_ref[ref]]
        pairs = self.pairs(ref)
        if pairs:
            return pairs[0]
        close = difflib.get_close_matches(ref, self._refs, n=3, cutoff=0.6)
        hint = (
            f"; did you mean {', '.join(close)}?"
            if close
            else f"; {counted(len(self.questions), 'question')} in this set"
        )
        raise InputError(self.source, f"no {self.bench.title} {self.mode} question {ref!r}{hint}")

    def scored_group(self, question: Question) -> list[Question]:
        """The questions scored together with `question` (Video-MME-v2: its video's four, in question order);
        just the question for a benchmark without group scores."""
        scheme = self.bench.groups
        if scheme is None:
            return [question]
        key = scheme.key(question)
        return sorted((q for q in self.questions if scheme.key(q) == key), key=scheme.position)

    def pairs(self, group_id: str) -> list[Question]:
        """The rows of one benchmark question: all its multi-binary pairs (one row in other modes)."""
        group_id = str(group_id).strip()
        return [q for q in self.questions if q.group_id == group_id]

    # -- media -------------------------------------------------------------------------------------------------

    def find_video(self, question: Question) -> Path | None:
        """The question's video file (`<id>.mp4`, else .MP4, else .mkv), or None when it is not on disk."""
        for candidate in self._video_candidates(question):
            if candidate.is_file():
                return candidate
        return None

    def video_path(self, question: Question) -> Path | None:
        """The question's video; None for a benchmark without videos; InputError when the file is missing."""
        candidates = self._video_candidates(question)
        if not candidates:
            return None
        found = self.find_video(question)
        if found is None:
            looked = ", ".join(str(c) for c in candidates)
            raise InputError(self.source, f"video not found (looked for {looked})", question.question_id)
        return found

    def subtitle_path(self, question: Question) -> Path | None:
        """The question's `.srt` file, or None when the video has none (many Video-MME videos don't)."""
        if not question.video_id:
            return None
        for folder in self.layout.subtitle_dirs:
            candidate = inside(
                self.root, folder, question.video_id, suffix=self.layout.subtitle_ext, source=self._where(question)
            )
            if candidate.is_file():
                return candidate
        return None

    def image_path(self, question: Question) -> Path | None:
        """The question's diagram (MathVerse): a path under the root, or parquet bytes written once to the cache."""
        value = question.extra.get("image")
        if isinstance(value, dict):
            value = value.get("bytes") or value.get("path")
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, (bytes, bytearray, memoryview)):
            return _cached_image(bytes(value))
        return self._image_file(question, str(value).strip())

    def _image_file(self, question: Question, name: str) -> Path:
        where = self._where(question)
        candidates = [
            inside(self.root, folder, name, source=where, allow_dirs=True) for folder in self.layout.image_dirs
        ]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        looked = ", ".join(str(c) for c in candidates)
        raise InputError(self.source, f"image not found (looked for {looked})", question.question_id)

    def _video_candidates(self, question: Question) -> list[Path]:
        if not self.layout.has_video:
            return []
        if not question.video_id:
            raise InputError(self.source, "the record has no video id", question.question_id)
        where = self._where(question)
        return [
            inside(self.root, folder, question.video_id, suffix=ext, source=where)
            for folder in self.layout.video_dirs
            for ext in self.layout.video_exts
        ]

    def _where(self, question: Question) -> str:
        return f"{self.source}, question {question.question_id}"

    # -- browsing ----------------------------------------------------------------------------------------------

    def dimension_keys(self) -> list[str]:
        """The benchmark's dimensions, then any other dimension the records carry."""
        declared = [d.key for d in self.bench.dimensions]
        seen = {k for q in self.questions for k in q.dims}
        return [k for k in declared if k in seen] + sorted(seen - set(declared))

    def values(self, key: str) -> list[str]:
        """The values one dimension takes in this set, in the benchmark's display order."""
        seen = {q.dims[key] for q in self.questions if key in q.dims}
        return self.bench.dimension(key).order(seen)

    def filter(self, text: str | None = None, **dims: str | Iterable[str] | None) -> list[Question]:
        """Questions whose dimensions equal the given values (a value or a collection of allowed values; None or
        "" means any) and whose text contains `text` (case-insensitive; searches id, question and options)."""
        wanted = {key: _allowed(value) for key, value in dims.items() if value not in (None, "", (), [])}
        unknown = sorted(set(wanted) - set(self.dimension_keys()) - {d.key for d in self.bench.dimensions})
        if unknown:
            known = ", ".join(self.dimension_keys())
            raise InputError(self.source, f"unknown dimension {', '.join(unknown)}; this set has {known}")
        needle = (text or "").strip().casefold()
        return [
            q
            for q in self.questions
            if all(q.dims.get(key) in allowed for key, allowed in wanted.items())
            and (not needle or needle in _haystack(q))
        ]


def _allowed(value: str | Iterable[str]) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset({value})
    return frozenset(str(v) for v in value)


def _haystack(question: Question) -> str:
    full = get_benchmark(question.benchmark).full_question(question)
    parts = [question.question_id, question.question, *question.options, full]
    return "\n".join(parts).casefold()


_MAGIC = ((b"\x89PNG", ".png"), (b"\xff\xd8", ".jpg"), (b"GIF8", ".gif"), (b"RIFF", ".webp"), (b"BM", ".bmp"))


def _cached_image(data: bytes) -> Path:
    """Write image bytes once to the cache (named by content hash) and return the file."""
    suffix = next((ext for magic, ext in _MAGIC if data.startswith(magic)), ".img")
    target = cache_base() / "images" / (hashlib.sha256(data).hexdigest()[:24] + suffix)
    if target.is_file() and target.stat().st_size == len(data):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    partial.write_bytes(data)
    os.replace(partial, target)
    return target


# -- loading ---------------------------------------------------------------------------------------------------


def load_dataset(benchmark: str, mode: str | None = None, data_dir: str | os.PathLike[str] | None = None) -> Dataset:
    """The questions of `benchmark` in `mode` from `data_dir` (else `MATHREEL_DATA`, else the demo set).

    `data_dir` may be a benchmark's own root, a parent holding `videomathqa/`, `videomme/`, `mathverse/`, or
    `hf:<org>/<name>` (annotations fetched from the Hugging Face Hub).
    """
    bench = _benchmark(benchmark)
    mode_key = _mode(bench, mode)
    layout = layout_for(bench)
    located = locate(data_dir, layout, bench.title)
    patterns = layout.annotations.get(mode_key, ())
    files = annotation_files(located.root, patterns)
    if not files:
        looked = ", ".join(patterns) or "nothing (no layout for this mode)"
        problem = f"no {bench.title} {mode_key} annotations: looked for {looked} in {located.root}"
        raise InputError(located.source, problem)
    signature = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    return _load(bench.name, mode_key, str(located.root), located.source, signature)


def _benchmark(name: str) -> Benchmark:
    try:
        return get_benchmark(str(name))
    except KeyError as error:
        raise InputError("--benchmark", str(error.args[0])) from None


def _mode(bench: Benchmark, mode: str | None) -> str:
    try:
        return bench.mode(mode or None).key
    except KeyError as error:
        raise InputError("--mode", str(error.args[0])) from None


@functools.lru_cache(maxsize=32)
def _load(benchmark: str, mode: str, root: str, source: str, signature: tuple[tuple[str, int, int], ...]) -> Dataset:
    bench = get_benchmark(benchmark)
    layout = layout_for(bench)
    files = tuple(Path(entry[0]) for entry in signature)
    questions = [q for path in files for q in _questions(bench, layout, mode, path)]
    refs = _assign_refs(questions)
    return Dataset(
        benchmark=benchmark,
        mode=mode,
        root=Path(root),
        source=source,
        files=files,
        questions=tuple(questions),
        layout=layout,
        _refs=refs,
        _by_ref={ref: i for i, ref in enumerate(refs)},
    )


def _questions(bench: Benchmark, layout: Layout, mode: str, path: Path) -> list[Question]:
    questions = []
    for index, record in enumerate(read_records(path)):
        question = bench.question_from_record(decode_objects(record, layout.json_fields), mode)
        _check(question, layout, path, index)
        questions.append(question)
    return questions


def _check(question: Question, layout: Layout, path: Path, index: int) -> None:
    """Reject records a question cannot be built from, naming the file and the record."""
    if not question.question_id:
        raise InputError(str(path), "the record has no question_id", index)
    if layout.has_video and not question.video_id:
        raise InputError(str(path), f"question {question.question_id} has no video id", index)


def _assign_refs(questions: list[Question]) -> tuple[str, ...]:
    """Unique handles: the id itself, or `id#k` (k from 1, in file order) for ids that several rows share."""
    counts = Counter(q.question_id for q in questions)
    refs = []
    for q, occurrence in zip(questions, occurrences(q.question_id for q in questions), strict=True):
        if counts[q.question_id] > 1:
            q.extra["ref"] = occurrence_id(q.question_id, occurrence)
            q.extra["pair"] = occurrence
        refs.append(str(q.extra.get("ref") or q.question_id))
    return tuple(refs)


def as_record(dataset: Dataset, question: Question) -> dict[str, Any]:
    """A question as a JSON-ready record (for `data list --json` and the app): ids, text, options, answer, dims."""
    record: dict[str, Any] = {"question_id": question.question_id}
    if dataset.ref(question) != question.question_id:
        record["ref"] = dataset.ref(question)
    if dataset.bench.mode(dataset.mode).grouped:
        record["group_id"] = question.group_id
    record.update(
        question=question.question,
        options=list(question.options),
        answer=question.answer,
        answer_kind=question.answer_kind,
    )
    full = dataset.bench.full_question(question)
    if full and full != question.question:
        record[dataset.bench.full_question_key] = full  # the benchmark's complete question text, under its name
    if question.video_id:
        record["video_id"] = question.video_id
    record.update(question.dims)
    return record
