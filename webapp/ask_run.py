"""The Ask tab's work, without Gradio: which questions to ask, the endpoint, the streamed calls, the verdict.

Everything model-facing is core's: `core.client.run.prepare_request` builds the request exactly as `mathreel run`
does (build_view's prompt plus the sampled frames or the diagram, resized), `core.client.ask_stream` streams the
reply with core's retries and error wording, and `core.scoring.single.score_question` scores it as `score()` would.
The API key lives only in the Endpoint built for one click and is never put in anything returned for display.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.client.endpoint import (
    DEFAULT_KEY_ENV,
    Endpoint,
    default_base_url,
    server_key_rule,
    strip_credentials,
)
from mathreel.core.errors import InputError, MathReelError
from mathreel.core.plural import counted
from mathreel.core.view import DEFAULT_FRAMES
from mathreel.webapp.benchmark_keys import split_key
from mathreel.webapp.html import plain

if TYPE_CHECKING:
    from mathreel.core.client import ModelReply, ModelRequest
    from mathreel.core.data import Dataset
    from mathreel.core.question import Question
    from mathreel.core.scoring.single import QuestionScore

ASK_ATTEMPTS = 3  # the first try plus two retries of a 429, 5xx or timeout: a page should not hang for long
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MAX_TOKENS = 1024
EMPTY_STATE = "Choose a question in Browse, then ask."
SOURCE = "Ask"  # how InputErrors raised here name their source


# -- the endpoint -----------------------------------------------------------------------------------------------


def server_has_key() -> bool:
    """Whether OPENAI_API_KEY is set where the server runs (its value is never read for display)."""
    return bool(os.environ.get(DEFAULT_KEY_ENV))


def key_note() -> str:
    """What the page says about the key instead of showing one."""
    if server_has_key():
        return (
            f"Key left empty: using the server's key, sent only to `{shown_base_url()}` (another base URL gets "
            "no key unless you type one). A key you type is used for this request only."
        )
    return "A key you type is used for this request only: never stored, logged or shown again."


def shown_base_url() -> str:
    """The server's base URL as the page shows it: without any user:password@ part."""
    return strip_credentials(default_base_url())


def make_endpoint(
    base_url: str,
    model: str,
    api_key: str,
    *,
    temperature: float = 0.0,
    max_tokens: float | None = DEFAULT_MAX_TOKENS,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_attempts: int = ASK_ATTEMPTS,
) -> Endpoint:
    """The endpoint for one click. An empty model means the server's (MATHREEL_MODEL, through core). An empty key
    means the server's key, but only for the server's own base URL: a user who points the page at another server
    must not receive the server's key there."""
    url, key = server_key_rule(base_url, default_base_url(), api_key, DEFAULT_KEY_ENV)
    tokens = int(max_tokens) if max_tokens else None
    if tokens is not None and tokens < 1:
        raise InputError(SOURCE, f"max tokens must be at least 1, not {tokens}")
    return Endpoint.from_env(
        model,
        url,
        api_key=key,
        temperature=float(temperature or 0.0),
        max_tokens=tokens,
        timeout_s=float(timeout_s or DEFAULT_TIMEOUT_S),
        max_attempts=max_attempts,
    )


# -- what is asked ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AskOptions:
    """How the question is put to the model: the benchmark mode (MCQ or multi-binary), prompt style, frames (and,
    as Browse shows them, subtitles between the frames and frames at a fixed rate)."""

    mode: str | None = None
    cot: bool = False
    with_subtitles: bool = False
    num_frames: int = DEFAULT_FRAMES
    interleaved: bool = False
    fps: float | None = None
    style: str = "default"  # a `Benchmark.prompt_styles` name, as `mathreel run --style`


def target_questions(datasets: Any, key: str, ref: str, mode: str | None) -> tuple[Dataset, list[Question]]:
    """The questions to ask for Browse's question `ref` of `key`, in `mode`: the question itself, or every
    multi-binary pair of it. Switching mode keeps the benchmark question (its group id)."""
    from mathreel.core.view import pairs_of

    if not key or not ref:
        raise InputError(SOURCE, EMPTY_STATE)
    benchmark, shown_mode = split_key(key)
    shown = datasets.get(benchmark, shown_mode or None).question(ref)
    dataset = datasets.get(benchmark, mode or shown_mode or None)
    if dataset.bench.mode(dataset.mode).grouped:
        return dataset, pairs_of(dataset, shown.group_id)
    if dataset.mode == shown.mode:
        return dataset, [shown]
    return dataset, [dataset.question(shown.group_id)]


@dataclass
class Answer:
    """One request and what came back for it (text grows while streaming)."""

    ref: str
    question: Question
    request: ModelRequest
    text: str = ""
    reply: ModelReply | None = None


def prepare_answers(
    dataset: Dataset, questions: Sequence[Question], options: AskOptions, cache_dir: str | Path | None = None
) -> list[Answer]:
    """One ready request per question, built by core exactly as `mathreel run` builds it."""
    from mathreel.core.client.run import RunSettings, prepare_request

    settings = RunSettings(
        num_frames=int(options.num_frames),
        cot=options.cot,
        with_subtitles=options.with_subtitles,
        interleaved=options.interleaved and options.with_subtitles,
        fps=options.fps or None,
        style=options.style,
    )
    answers = []
    for question in questions:
        request, _ = prepare_request(dataset, question, settings, cache_dir=cache_dir)
        answers.append(Answer(dataset.ref(question), question, request))
    return answers


# -- asking -----------------------------------------------------------------------------------------------------


@dataclass
class AskRun:
    """One click's progress: the answers so far, which one is being asked, the failure or the final verdict."""

    endpoint: str
    answers: list[Answer]
    current: int = 0
    error: str | None = None
    score: QuestionScore | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.error is not None or self.score is not None


def run_ask(endpoint: Endpoint, answers: list[Answer], *, client: Any = None) -> Iterator[AskRun]:
    """Ask each request in turn, yielding the run after every streamed piece; score once all have answered.

    A failure (core's ClientError, already naming the endpoint and the cause) ends the run with `error` set;
    the remaining pairs are not asked, since the question can no longer be scored.
    """
    from mathreel.core.client import ModelReply, ask_stream, make_client
    from mathreel.core.scoring.single import score_question

    run = AskRun(endpoint.describe(), answers)
    own = client is None
    client = make_client(endpoint) if own else client
    try:
        for index, answer in enumerate(answers):
            run.current = index
            try:
                for piece in ask_stream(endpoint, answer.request, client=client):
                    if isinstance(piece, ModelReply):
                        answer.reply, answer.text = piece, piece.text
                    else:
                        answer.text += piece
                    yield run
            except MathReelError as error:
                run.error = endpoint.redact(str(error))
                yield run
                return
        run.score = score_question([(a.question, a.text) for a in answers])
        yield run
    finally:
        if own:
            client.close()


# -- what the page shows ----------------------------------------------------------------------------------------


def pair_label(question: Question) -> str:
    """ "q001_1 (A. 110° / B. 70°)": a pair and its two options, so streamed replies can be told apart."""
    options = " / ".join(f"{letter}. {text}" for letter, text in question.option_texts.items())
    return f"{question.question_id} ({options})" if options else question.question_id


def response_text(run: AskRun, endpoint: Endpoint) -> str:
    """The streamed replies as plain text (one block per pair for multi-binary), the key blanked out. While a reply
    is still streaming, a tail that could be the start of the key is held back (core.client.redact)."""
    from mathreel.core.client.redact import redact_partial

    def shown(index: int) -> str:
        final = run.finished or index < run.current or run.answers[index].reply is not None
        return redact_partial(run.answers[index].text, endpoint.secrets(), final=final)

    if len(run.answers) == 1:
        return shown(0)
    blocks = []
    for index, answer in enumerate(run.answers[: run.current + 1]):
        blocks.append(f"── {pair_label(answer.question)} ──\n{shown(index)}")
    return "\n\n".join(blocks)


def status_markdown(run: AskRun) -> str:
    """The verdict line once scored (or what is happening now): only this module's words and escaped values."""
    if run.error is not None:
        return "### Not scored: the model call failed (see the error above)"
    if run.score is None:
        where = f"pair {run.current + 1} of {len(run.answers)}" if len(run.answers) > 1 else "the question"
        return f"_Asking {where}…_"
    rows = run.score.rows
    if len(rows) == 1:
        row = rows[0]
        got = plain(row.extracted) if row.extracted is not None else "nothing (unparsed)"
        head = {"correct": "✓ Correct", "wrong": "✗ Wrong", "unparsed": "✗ Unparsed (counts as wrong)"}[row.status]
        return f"### {head}\nExtracted **{got}**, gold **{plain(row.gold)}**."
    right = sum(r.status == "correct" for r in rows)
    head = "✓ Correct" if run.score.correct else "✗ Wrong"
    return (
        f"### {head}: {right} of {counted(len(rows), 'pair')} right\n"
        "A multi-binary question counts as correct only when "
        "every pair is right, as the benchmark scores it."
    )


ANSWER_HEADERS = ["Asked", "Extracted", "Gold", "Verdict", "Method", "Explanation"]


def answer_rows(run: AskRun) -> list[list[str]]:
    """One table row per scored answer: extracted answer, gold, verdict and core's method and explanation."""
    if run.score is None:
        return []
    return [
        [
            row.question_id,
            row.extracted if row.extracted is not None else "— (unparsed)",
            row.gold,
            row.status,
            row.method,
            row.explanation,
        ]
        for row in run.score.rows
    ]


def usage_markdown(run: AskRun) -> str:
    """Latency, attempts and token usage per answered request (and the total for several)."""
    lines = []
    totals = {"latency": 0.0, "prompt": 0, "completion": 0}
    for answer in run.answers:
        reply = answer.reply
        if reply is None:
            continue
        usage = reply.usage or {}
        prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
        totals["latency"] += reply.latency_s
        totals["prompt"] += prompt or 0
        totals["completion"] += completion or 0
        tries = f", {reply.attempts} attempts" if reply.attempts > 1 else ""
        lines.append(
            f"| {plain(answer.ref)} | {reply.latency_s:.2f} s{tries} | {_count(prompt)} | "
            f"{_count(completion)} | {plain(reply.finish_reason or '—')} |"
        )
    if not lines:
        return ""
    if len(lines) > 1:
        lines.append(f"| **all** | {totals['latency']:.2f} s | {totals['prompt']} | {totals['completion']} | |")
    header = "| Request | Latency | Prompt tokens | Completion tokens | Finish |\n|---|---|---|---|---|"
    return header + "\n" + "\n".join(lines)


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


# -- the exact request ------------------------------------------------------------------------------------------


_EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}


def image_caption(data: bytes, index: int, total: int) -> str:
    """ "2 of 8 · 768×432 JPEG · 41 KB": what was sent, after core's resizing."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        kind = image.format or "image"
    return f"{index + 1} of {total} · {width}×{height} {kind} · {len(data) / 1024:.0f} KB"


def save_request_images(request: ModelRequest, cache_dir: str | Path) -> list[tuple[str, str]]:
    """The request's images written byte for byte (content-addressed) into `cache_dir`, with captions.

    The gallery then shows exactly the bytes the model received, not a re-encoded copy.
    """
    from gradio import processing_utils

    extension = _EXTENSIONS.get(request.image_mime, "jpg")
    total = len(request.images)
    return [
        (
            processing_utils.save_bytes_to_cache(data, f"sent-{i + 1:02d}.{extension}", str(cache_dir)),
            image_caption(data, i, total),
        )
        for i, data in enumerate(request.images)
    ]


def request_views(answers: Sequence[Answer], cache_dir: str | Path) -> list[dict[str, Any]]:
    """Per request: its ref, the exact prompt text and the saved images. Holds no key (kept in the page state)."""
    return [
        {"ref": a.ref, "prompt": a.request.prompt, "images": save_request_images(a.request, cache_dir)} for a in answers
    ]


def question_summary(dataset: Dataset, questions: Sequence[Question]) -> str:
    """The header of the tab: which question will be asked, in which mode, with how many requests."""
    first = questions[0]
    bench = dataset.bench
    mode = bench.mode(dataset.mode)
    text = first.question or bench.full_question(first)
    if len(text) > 300:
        text = text[:299] + "…"
    count = f" · {counted(len(questions), 'pair')}, each asked separately" if len(questions) > 1 else ""
    media = "a video" if first.video_id else ("a diagram" if dataset.image_path(first) else "text only")
    label = first.group_id if len(questions) > 1 else dataset.ref(first)
    return f"**{plain(bench.title)} · {plain(label)}** ({plain(mode.label)}{count}; asked with {media})\n\n" + plain(
        text
    ).replace("\n", "  \n")
