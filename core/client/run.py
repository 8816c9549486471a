"""Run a benchmark against a model: ask every selected question, append each answer to an lmms-eval samples file.

The file is the resume state. Each answer is written (and flushed) the moment it arrives, so an
interrupted run keeps everything already answered; running again skips the questions the file
already answers and retries those that failed (failures are counted, never written as answers).
Lines follow lmms-eval's `--log_samples` layout (`doc`, `target`, `resps` [[text]],
`filtered_resps` [text]) plus a `mathreel` block with the model, settings, latency and usage.
The API key is never written.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mathreel.core.client.calls import ModelReply, Outcome, complete_many
from mathreel.core.client.endpoint import Endpoint
from mathreel.core.client.request import DEFAULT_MAX_SIDE, ModelRequest, request_from_view
from mathreel.core.errors import InputError
from mathreel.core.files import OutputKind, first_line, output_path, replace_with_prefix
from mathreel.core.question import Question
from mathreel.core.reading import bounded_lines

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.data import Dataset

ID_FILTERS = ("question_id", "video_id", "group_id")
# Settings that must match for a file to be resumed: answers from another model or mode must not mix.
RESUME_KEYS = ("benchmark", "mode", "model", "cot", "subtitles", "interleaved")


@dataclass(frozen=True)
class RunSettings:
    """How each question is put to the model. `num_frames` None is the benchmark's default; with `fps` the frames
    are taken at that rate and `num_frames` caps their count."""

    num_frames: int | None = None
    cot: bool = False
    with_subtitles: bool = False
    max_side: int | None = DEFAULT_MAX_SIDE
    concurrency: int = 8
    style: str = "default"
    interleaved: bool = False
    fps: float | None = None


@dataclass
class RunSummary:
    """What a run did: how many were selected, skipped (already in the file), answered and failed."""

    out: Path
    selected: int
    skipped: int
    answered: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (question ref, why)
    elapsed_s: float = 0.0

    @property
    def remaining(self) -> int:
        return len(self.failed)


Progress = Callable[[int, int, int], None]  # (done, to ask, failed so far)


def select_questions(dataset: Dataset, filters: Sequence[str] = (), limit: int | None = None) -> list[Question]:
    """The questions `key=value` filters keep (same key twice: either value), first `limit` of them.

    Keys are the set's dimensions (category, duration, ...) or question_id, video_id, group_id.
    Values are compared whole, not as substrings.
    """
    wanted: dict[str, set[str]] = {}
    for item in filters:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError("--filter", f"{item!r} is not key=value (e.g. category=Counting)")
        wanted.setdefault(key.strip(), set()).add(value.strip())
    dims = {k: v for k, v in wanted.items() if k not in ID_FILTERS}
    questions = dataset.filter(None, **dims) if dims else list(dataset.questions)
    for key in ID_FILTERS:
        if key in wanted:
            questions = [q for q in questions if str(getattr(q, key) or "") in wanted[key]]
    if limit is not None:
        if limit < 1:
            raise InputError("--limit", f"must be at least 1, not {limit}")
        questions = questions[:limit]
    return questions


def question_doc(dataset: Dataset, question: Question) -> dict[str, Any]:
    """The `doc` of a sample line: every question field, flat, so the benchmark's reader can rebuild it."""
    from mathreel.core.data.dataset import as_record

    doc = as_record(dataset, question)
    if question.steps:
        doc["steps"] = list(question.steps)
    for key, value in question.extra.items():
        if key not in doc and key not in ("ref", "pair") and _json_safe(value):
            doc[key] = value
    return doc


def _json_safe(value: Any) -> bool:
    """Whether a value can go into the JSONL line as it is (bytes, e.g. an embedded diagram, cannot)."""
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return value not in (None, "")


def run_metadata(dataset: Dataset, endpoint: Endpoint, settings: RunSettings) -> dict[str, Any]:
    """The run-wide part of every line's `mathreel` block (no key: `Endpoint.to_dict` leaves it out)."""
    call = endpoint.to_dict()
    return {
        "benchmark": dataset.benchmark,
        "mode": dataset.mode,
        "model": endpoint.model,
        "base_url": call["base_url"],
        "temperature": endpoint.temperature,
        "max_tokens": endpoint.max_tokens,
        "cot": settings.cot,
        "subtitles": settings.with_subtitles or settings.interleaved,
        "interleaved": settings.interleaved,
        "requested_frames": dataset.bench.default_frames if settings.num_frames is None else settings.num_frames,
        "sampling": dataset.bench.frame_sampler if settings.fps is None else f"{settings.fps:g} fps",
        "max_side": settings.max_side,
        "style": settings.style,
    }


# A run file's lines are `sample_line`s, whose first key is doc_id. A first line that starts otherwise is someone
# else's file; one that starts so is then read line by line (`answered_refs`) before anything is changed.
RUN_FILE = OutputKind("a `mathreel run` output file", lambda head: first_line(head).startswith(b'{"doc_id": '))


def answered_refs(out: Path, expected: dict[str, Any]) -> set[str]:
    """Refs the file already answers. Refuses a file from another model, benchmark or mode, or not a run file.

    The file is only read (line by line, each line bounded) until every line is known to be a run line; only then
    is a last line cut off by an interrupted write removed, by an atomic rewrite, so appending starts on a clean
    line. A file MathReel did not write is refused untouched.
    """
    out = output_path(out, "--out", kind=RUN_FILE)
    if not out.exists():
        return set()
    done: set[str] = set()
    keep = runs = 0  # bytes of whole run lines (and blank lines) to keep; how many run lines
    ended = True
    with out.open("rb") as handle:
        for number, raw, ended in bounded_lines(handle, str(out)):
            if raw.strip():
                try:
                    done |= _answered_in_line(out, number, raw, expected)
                except InputError:
                    if ended or not runs:  # a whole foreign line, or a file with no run line at all
                        raise
                    break  # the cut-off last line of an interrupted run: dropped below
                runs += 1
            keep += len(raw)
    if not runs and keep:  # blank lines only: still not a file this command wrote
        raise InputError(str(out), "holds no mathreel run line, only blank lines; pick another --out")
    if keep != out.stat().st_size or not ended:
        replace_with_prefix(out, keep)
    return done


def _answered_in_line(out: Path, number: int, raw: bytes, expected: dict[str, Any]) -> set[str]:
    try:
        record = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        problem = "is not a mathreel run line (not UTF-8 JSON); pick another --out"
        raise InputError(str(out), problem, f"line {number}") from None
    meta = record.get("mathreel") if isinstance(record, dict) else None
    if not isinstance(meta, dict) or "ref" not in meta:
        raise InputError(str(out), "was not written by mathreel run; pick another --out", f"line {number}")
    for key in RESUME_KEYS:
        if key in meta and meta[key] != expected[key]:
            problem = (
                f"holds answers with {key}={meta[key]!r}, this run has {key}={expected[key]!r}; "
                "pick another --out to keep runs apart"
            )
            raise InputError(str(out), problem, f"line {number}")
    responses = record.get("filtered_resps") or []
    return {str(meta["ref"])} if responses and str(responses[0]).strip() else set()


def sample_line(
    dataset: Dataset,
    question: Question,
    reply: ModelReply,
    request_info: dict[str, Any],
    run_meta: dict[str, Any],
    doc_id: int | None = None,
) -> dict[str, Any]:
    """One lmms-eval-style sample line for an answered question (`doc_id`: its place in the dataset)."""
    meta = {
        "ref": dataset.ref(question),
        **run_meta,
        **request_info,
        "served_model": reply.model,
        "latency_s": round(reply.latency_s, 4),
        "attempts": reply.attempts,
        "usage": reply.usage,
        "finish_reason": reply.finish_reason,
        "answered_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return {
        "doc_id": doc_id,
        "doc": question_doc(dataset, question),
        "target": question.answer,
        "resps": [[reply.text]],
        "filtered_resps": [reply.text],
        "mathreel": meta,
    }


def run_benchmark(
    dataset: Dataset,
    questions: Sequence[Question],
    endpoint: Endpoint,
    out: str | os.PathLike[str],
    settings: RunSettings = RunSettings(),
    *,
    progress: Progress | None = None,
    cache_dir: str | Path | None = None,
) -> RunSummary:
    """Ask each question not yet answered in `out` and append the answers as they arrive."""
    out_path = Path(out)
    run_meta = run_metadata(dataset, endpoint, settings)
    done = answered_refs(out_path, run_meta)
    todo = [q for q in questions if dataset.ref(q) not in done]
    summary = RunSummary(out_path, selected=len(questions), skipped=len(questions) - len(todo))
    if not todo:
        return summary
    out_path.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with out_path.open("a", encoding="utf-8") as handle:
        asyncio.run(_ask_all(dataset, todo, endpoint, settings, handle, summary, run_meta, progress, cache_dir))
    summary.elapsed_s = time.perf_counter() - started
    return summary


async def _ask_all(
    dataset: Dataset,
    todo: list[Question],
    endpoint: Endpoint,
    settings: RunSettings,
    handle: TextIO,
    summary: RunSummary,
    run_meta: dict[str, Any],
    progress: Progress | None,
    cache_dir: str | Path | None,
) -> None:
    info: dict[int, dict[str, Any]] = {}  # filled by the preparing threads, read when the answer comes back
    doc_ids = {ref: i for i, ref in enumerate(dataset.refs)}

    def preparer(index: int, question: Question) -> Callable[[], ModelRequest]:
        def prepare() -> ModelRequest:
            request, info[index] = prepare_request(dataset, question, settings, cache_dir=cache_dir)
            return request

        return prepare

    def on_result(outcome: Outcome) -> None:
        question = todo[outcome.index]
        if outcome.reply is not None:
            doc_id = doc_ids.get(dataset.ref(question))
            line = sample_line(dataset, question, outcome.reply, info.pop(outcome.index, {}), run_meta, doc_id)
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            handle.flush()
            summary.answered += 1
        else:
            info.pop(outcome.index, None)
            summary.failed.append((dataset.ref(question), str(outcome.error or "unknown failure")))
        if progress is not None:
            progress(summary.answered + len(summary.failed), len(todo), len(summary.failed))

    items = [preparer(i, q) for i, q in enumerate(todo)]
    await complete_many(endpoint, items, concurrency=settings.concurrency, on_result=on_result)


def prepare_request(
    dataset: Dataset, question: Question, settings: RunSettings, *, cache_dir: str | Path | None = None
) -> tuple[ModelRequest, dict[str, Any]]:
    """The request for one question (prompt, sampled frames or diagram) and what to record about it."""
    from mathreel.core.view import build_view

    view = build_view(
        dataset,
        question,
        num_frames=settings.num_frames,
        cot=settings.cot,
        with_subtitles=settings.with_subtitles,
        interleaved=settings.interleaved,
        style=settings.style,
        max_side=settings.max_side,
        cache_dir=cache_dir,
        fps=settings.fps,
    )
    if question.video_id and view.frames is None:
        why = "; ".join(view.notes) or "the video was not found"
        raise InputError(dataset.source, f"cannot ask without the video: {why}", f"question {dataset.ref(question)}")
    request = request_from_view(view, max_side=settings.max_side)
    return request, {
        "frames": len(view.frames) if view.frames is not None else 0,
        "image": view.image_path is not None,
        "prompt": view.prompt,
    }
