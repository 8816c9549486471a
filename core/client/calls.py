"""Model calls: one question (`ask`, `ask_stream`, `ask_async`) and many (`complete_many`).

One `openai` client per run (pass `client=`), so connections are pooled; the package's own
retries are off (`max_retries=0`) because ours retry only what may succeed on a second try
(429, 5xx, timeouts), honour Retry-After, and say how many attempts were made.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mathreel.core.client.endpoint import NO_KEY, Endpoint
from mathreel.core.client.errors import ClientError, classify
from mathreel.core.client.request import ModelRequest
from mathreel.core.errors import MathReelError

log = logging.getLogger("mathreel.client")

# The waits between attempts go through these two names, so tests can record them instead of sleeping.
_sleep = time.sleep
_async_sleep = asyncio.sleep
_CONTENT_TYPE_LIMIT = 60  # a server-sent header quoted in a message is cut to this many characters


@dataclass
class ModelReply:
    """What came back: the text, how long it took (all attempts), token usage and why generation stopped."""

    text: str
    latency_s: float
    usage: dict[str, int | None] = field(default_factory=dict)
    model: str = ""
    finish_reason: str | None = None
    attempts: int = 1


@dataclass
class Outcome:
    """The result for item `index` of a `complete_many` batch: a reply, or the error that ended it."""

    index: int
    reply: ModelReply | None = None
    error: MathReelError | None = None

    @property
    def ok(self) -> bool:
        return self.reply is not None


def make_client(endpoint: Endpoint) -> Any:
    """A synchronous `openai.OpenAI` client for `endpoint`; create one and reuse it."""
    import openai

    from mathreel.core.client.bounded import sync_hook

    client = openai.DefaultHttpxClient(event_hooks={"response": [sync_hook(endpoint.timeout_s)]})
    return openai.OpenAI(**_client_settings(endpoint), http_client=client)


def make_async_client(endpoint: Endpoint) -> Any:
    """An `openai.AsyncOpenAI` client for `endpoint`; create one per run and reuse it."""
    import openai

    from mathreel.core.client.bounded import async_hook

    client = openai.DefaultAsyncHttpxClient(event_hooks={"response": [async_hook(endpoint.timeout_s)]})
    return openai.AsyncOpenAI(**_client_settings(endpoint), http_client=client)


def _client_settings(endpoint: Endpoint) -> dict[str, Any]:
    """The openai client's settings (its HTTP client, made by the callers, bounds every reply: core.client.bounded).
    The organisation and project headers are set from the endpoint alone: left to itself the package reads
    OPENAI_ORG_ID and OPENAI_PROJECT_ID and sends them to every URL."""
    import openai

    return {
        "api_key": endpoint.api_key or NO_KEY,
        "base_url": endpoint.base_url,
        "timeout": endpoint.timeout_s,
        "max_retries": 0,
        "default_headers": {
            "OpenAI-Organization": endpoint.organization or openai.Omit(),
            "OpenAI-Project": endpoint.project or openai.Omit(),
        },
    }


def _create_args(endpoint: Endpoint, request: ModelRequest, *, stream: bool) -> dict[str, Any]:
    args: dict[str, Any] = {
        "model": endpoint.model,
        "messages": request.to_messages(),
        "temperature": endpoint.temperature,
    }
    if endpoint.max_tokens is not None:
        args["max_tokens"] = endpoint.max_tokens
    if stream:
        args["stream"] = True
        args["stream_options"] = {"include_usage": True}
    return args


def _post_chat(client: Any, endpoint: Endpoint, request: ModelRequest, *, stream: bool, is_async: bool) -> Any:
    """POST /chat/completions through the client's documented `post` for raw requests.

    `chat.completions.create()` walks every content part through openai's typed param transform, about 12 ms
    of event-loop time per 16-frame request (1.2 s over 100 questions); our body is already in wire format.
    The response is still parsed into the same `ChatCompletion` / chunk types.
    """
    import openai
    from openai.types.chat import ChatCompletion, ChatCompletionChunk

    stream_cls = (openai.AsyncStream if is_async else openai.Stream)[ChatCompletionChunk]
    return client.post(
        "/chat/completions",
        body=_create_args(endpoint, request, stream=stream),
        cast_to=ChatCompletion,
        stream=stream,
        stream_cls=stream_cls,
    )


def _usage(usage: Any) -> dict[str, int | None]:
    keys = ("prompt_tokens", "completion_tokens", "total_tokens")
    return {key: getattr(usage, key, None) if usage is not None else None for key in keys}


def _reply(completion: Any, endpoint: Endpoint, started: float, attempts: int) -> ModelReply:
    """A ModelReply from a chat completion, refusing replies without choices or text."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list):
        raise ClientError(endpoint, "the server sent a reply that is not a chat completion (malformed)")
    if not choices:
        raise ClientError(endpoint, "the server returned no choices (empty completion)")
    message = getattr(choices[0], "message", None)
    text = getattr(message, "content", None)
    if not isinstance(text, str) or not text.strip():
        reason = getattr(choices[0], "finish_reason", None)
        raise ClientError(endpoint, f"the server returned an empty completion (finish_reason {reason!r})")
    return ModelReply(
        text=text,
        latency_s=time.perf_counter() - started,
        usage=_usage(getattr(completion, "usage", None)),
        model=getattr(completion, "model", None) or endpoint.model,
        finish_reason=choices[0].finish_reason,
        attempts=attempts,
    )


def retry_delay(endpoint: Endpoint, error: ClientError, attempt: int) -> float:
    """Seconds to wait before attempt `attempt + 1`: the server's Retry-After, else exponential with jitter."""
    if error.retry_after_s is not None:
        return min(error.retry_after_s, endpoint.max_backoff_s)
    base = endpoint.backoff_s * 2 ** (attempt - 1)
    return min(endpoint.max_backoff_s, base * random.uniform(1.0, 1.25))


def _should_retry(endpoint: Endpoint, error: ClientError, attempt: int) -> bool:
    if not error.retryable or attempt >= endpoint.max_attempts:
        return False
    log.info("attempt %d of %d failed: %s; retrying", attempt, endpoint.max_attempts, error)
    return True


def ask(endpoint: Endpoint, request: ModelRequest, *, client: Any = None) -> ModelReply:
    """Ask one question and wait for the whole reply, retrying 429, 5xx and timeouts."""
    own = client is None
    client = make_client(endpoint) if own else client
    started = time.perf_counter()
    try:
        for attempt in range(1, endpoint.max_attempts + 1):
            try:
                completion = _post_chat(client, endpoint, request, stream=False, is_async=False)
                return _reply(completion, endpoint, started, attempt)
            except Exception as exc:
                error = classify(exc, endpoint)
                if not _should_retry(endpoint, error, attempt):
                    raise error.after_attempts(attempt) from None
                _sleep(retry_delay(endpoint, error, attempt))
        raise AssertionError("unreachable: the loop returns or raises")
    finally:
        if own:
            client.close()


def ask_stream(endpoint: Endpoint, request: ModelRequest, *, client: Any = None) -> Iterator[str | ModelReply]:
    """Ask one question and yield the text as it arrives, then the final ModelReply.

    Failures before the first piece of text are retried like `ask`; once text has been shown,
    a failure ends the stream with a ClientError (the shown text cannot be taken back).
    """
    own = client is None
    client = make_client(endpoint) if own else client
    started = time.perf_counter()
    try:
        for attempt in range(1, endpoint.max_attempts + 1):
            state = _StreamState()
            try:
                stream = _post_chat(client, endpoint, request, stream=True, is_async=False)
                for chunk in stream:
                    delta = state.add(chunk)
                    if delta:
                        yield delta
                if not state.events:
                    raise _not_streamed(endpoint, stream)
                yield state.reply(endpoint, started, attempt)
                return
            except Exception as exc:
                error = classify(exc, endpoint)
                if state.parts or not _should_retry(endpoint, error, attempt):
                    raise error.after_attempts(attempt) from None
                _sleep(retry_delay(endpoint, error, attempt))
    finally:
        if own:
            client.close()


def _not_streamed(endpoint: Endpoint, stream: Any) -> ClientError:
    """The error for a streamed request answered without a single server-sent event.

    A 200 whose body is JSON (cut off or whole), an HTML proxy page or plain text gives the SSE decoder
    nothing to decode, so the stream just ends; naming that as malformed (with the content type the server
    claimed) says more than "empty completion", which is for a real stream that carried no text.
    """
    headers = getattr(getattr(stream, "response", None), "headers", None)
    content_type = (headers.get("content-type") if headers is not None else None) or "none"
    kind = content_type.split(";")[0].strip()[:_CONTENT_TYPE_LIMIT]
    cause = f"the server sent a malformed streamed reply: no server-sent events, content type {kind!r}"
    return ClientError(endpoint, cause)


class _StreamState:
    """Collects streamed chunks into text, finish reason, usage and the model name."""

    def __init__(self) -> None:
        self.events = 0  # chunks received, text or not: none at all means the reply was not a stream
        self.parts: list[str] = []
        self.finish_reason: str | None = None
        self.usage: Any = None
        self.model = ""

    def add(self, chunk: Any) -> str:
        self.events += 1
        self.model = getattr(chunk, "model", None) or self.model
        if getattr(chunk, "usage", None) is not None:
            self.usage = chunk.usage
        choices = getattr(chunk, "choices", None) or []
        if not choices:
            return ""
        self.finish_reason = choices[0].finish_reason or self.finish_reason
        delta = getattr(choices[0].delta, "content", None) or ""
        if delta:
            self.parts.append(delta)
        return delta

    def reply(self, endpoint: Endpoint, started: float, attempts: int) -> ModelReply:
        text = "".join(self.parts)
        if not text.strip():
            reason = self.finish_reason
            raise ClientError(endpoint, f"the server streamed an empty completion (finish_reason {reason!r})")
        return ModelReply(
            text,
            time.perf_counter() - started,
            _usage(self.usage),
            self.model or endpoint.model,
            self.finish_reason,
            attempts,
        )


async def ask_async(endpoint: Endpoint, request: ModelRequest, *, client: Any) -> ModelReply:
    """`ask` for asyncio code, on a shared `AsyncOpenAI` client (see `make_async_client`)."""
    started = time.perf_counter()
    for attempt in range(1, endpoint.max_attempts + 1):
        try:
            completion = await _post_chat(client, endpoint, request, stream=False, is_async=True)
            return _reply(completion, endpoint, started, attempt)
        except Exception as exc:
            error = classify(exc, endpoint)
            if not _should_retry(endpoint, error, attempt):
                raise error.after_attempts(attempt) from None
            await _async_sleep(retry_delay(endpoint, error, attempt))
    raise AssertionError("unreachable: the loop returns or raises")


# An item is a ready request, or a function that builds one (run in a worker thread, so decoding
# frames for the next questions overlaps with waiting for the model).
RequestItem = ModelRequest | Callable[[], ModelRequest]
OnResult = Callable[[Outcome], Awaitable[None] | None]


async def complete_many(
    endpoint: Endpoint,
    items: Sequence[RequestItem],
    *,
    concurrency: int = 8,
    on_result: OnResult | None = None,
    client: Any = None,
    prepare_workers: int = 2,
) -> list[Outcome]:
    """Ask every item with at most `concurrency` calls in flight; one Outcome per item, in item order.

    `on_result` runs in the event loop as soon as each item finishes (write it, count it). Items
    are prepared ahead by `prepare_workers` threads, but never more than `concurrency` ready
    requests wait at once, so memory does not grow with the number of items. A preparation
    error (a missing video) or a ClientError ends only its own item.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    own = client is None
    client = make_async_client(endpoint) if own else client
    outcomes: list[Outcome | None] = [None] * len(items)
    ready: asyncio.Queue[tuple[int, ModelRequest | MathReelError] | None] = asyncio.Queue(maxsize=concurrency)

    async def finish(outcome: Outcome) -> None:
        outcomes[outcome.index] = outcome
        if on_result is not None:
            result = on_result(outcome)
            if asyncio.iscoroutine(result):
                await result

    async def worker() -> None:
        while (job := await ready.get()) is not None:
            index, request = job
            if isinstance(request, MathReelError):
                await finish(Outcome(index, error=request))
                continue
            try:
                await finish(Outcome(index, reply=await ask_async(endpoint, request, client=client)))
            except ClientError as error:
                await finish(Outcome(index, error=error))

    workers = [asyncio.create_task(worker()) for _ in range(min(concurrency, max(1, len(items))))]

    async def produce() -> None:
        await _prepare_all(items, ready, prepare_workers)
        for _ in workers:
            await ready.put(None)

    tasks = [asyncio.create_task(produce()), *workers]
    try:
        await asyncio.gather(*tasks)  # an error in on_result stops everything instead of hanging
    finally:
        for task in tasks:
            task.cancel()
        if own:
            await client.close()
    return [o if o is not None else Outcome(i, error=MathReelError("not asked")) for i, o in enumerate(outcomes)]


async def _prepare_all(
    items: Sequence[RequestItem],
    ready: asyncio.Queue[tuple[int, ModelRequest | MathReelError] | None],
    workers: int,
) -> None:
    """Build requests in `workers` threads and queue them; a full queue holds preparation back."""
    slots = asyncio.Semaphore(max(1, workers))

    async def prepare(index: int, item: RequestItem) -> None:
        try:
            request: ModelRequest | MathReelError = (
                item if isinstance(item, ModelRequest) else await asyncio.to_thread(item)
            )
        except MathReelError as error:
            request = error
        except Exception as error:  # a decoder failure on one video must not end the whole run
            request = MathReelError(f"could not prepare the request: {type(error).__name__}: {error}")
        try:
            await ready.put((index, request))
        finally:
            slots.release()

    tasks = []
    for index, item in enumerate(items):
        await slots.acquire()
        tasks.append(asyncio.create_task(prepare(index, item)))
    await asyncio.gather(*tasks)


def list_models(endpoint: Endpoint, *, client: Any = None) -> list[str]:
    """The model names the server offers (GET /models), to check an endpoint before a run."""
    own = client is None
    client = make_client(endpoint) if own else client
    try:
        return [model.id for model in client.models.list()]
    except Exception as exc:
        raise classify(exc, endpoint) from None
    finally:
        if own:
            client.close()
