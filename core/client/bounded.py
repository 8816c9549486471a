"""Replies read with a ceiling: a model or judge endpoint (on a shared server, one a visitor typed) can answer with
a body of any size, or trickle it a byte at a time so that no single read ever times out. Left alone, the client
reads the whole body into memory and decodes it, holding the server's GIL for as long as that takes.

`MAX_REPLY_BYTES` bounds every reply body (a chat completion of tens of thousands of tokens is well under 1 MB);
a reply that is not streamed must also arrive whole within the endpoint's timeout (the HTTP timeout is per read).
A streamed reply keeps per-read timeouts only: a long answer streamed slowly is legitimate. The limits are applied
by a response hook that wraps the body stream before anything reads it, so the client's proxies and pooling stay
as they are. The openai package ships its HTTP library under its own name (httpx or a fork of it), so the stream
and error classes are taken from the package the response came from.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

MAX_REPLY_BYTES = 16 * 1024 * 1024


class ReplyTooLarge(Exception):
    """Marks the error a reply over MAX_REPLY_BYTES raises (as the HTTP package's ReadError, so the client
    handles it as a failed read)."""


@functools.cache
def _classes(package: str) -> tuple[type, type, type]:
    """(ReplyTooLarge as the package's ReadError, a bounded sync stream, a bounded async stream) for `package`."""
    http = importlib.import_module(package)

    class TooLarge(http.ReadError, ReplyTooLarge):  # type: ignore[name-defined]
        pass

    class Bounded(http.SyncByteStream):  # type: ignore[name-defined]
        def __init__(self, inner: Any, check: Callable[[int], None]) -> None:
            self.inner, self.check = inner, check

        def __iter__(self) -> Iterator[bytes]:
            for chunk in self.inner:
                self.check(len(chunk))
                yield chunk

        def close(self) -> None:
            self.inner.close()

    class AsyncBounded(http.AsyncByteStream):  # type: ignore[name-defined]
        def __init__(self, inner: Any, check: Callable[[int], None]) -> None:
            self.inner, self.check = inner, check

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in self.inner:
                self.check(len(chunk))
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    return TooLarge, Bounded, AsyncBounded


def _bounded(response: Any, timeout_s: float, limit: int, is_async: bool) -> Any:
    """`response`'s body stream wrapped in the size check (and, unless streamed, the whole-reply deadline)."""
    package = type(response).__module__.partition(".")[0]
    too_large, sync_stream, async_stream = _classes(package)
    timeout_error = importlib.import_module(package).ReadTimeout
    streamed = "text/event-stream" in response.headers.get("content-type", "")
    deadline = None if streamed else time.monotonic() + timeout_s
    total = 0

    def check(size: int) -> None:
        nonlocal total
        total += size
        if total > limit:
            raise too_large(f"the reply passed {limit // (1024 * 1024)} MB, more than any chat completion")
        if deadline is not None and time.monotonic() > deadline:
            raise timeout_error("the reply did not arrive whole within the timeout")

    return (async_stream if is_async else sync_stream)(response.stream, check)


def sync_hook(timeout_s: float, limit: int = MAX_REPLY_BYTES) -> Callable[[Any], None]:
    """An HTTP response hook bounding the body's size (and, unless streamed, its total time)."""

    def hook(response: Any) -> None:
        response.stream = _bounded(response, timeout_s, limit, is_async=False)

    return hook


def async_hook(timeout_s: float, limit: int = MAX_REPLY_BYTES) -> Callable[[Any], Awaitable[None]]:
    """The same for an async client."""

    async def hook(response: Any) -> None:
        response.stream = _bounded(response, timeout_s, limit, is_async=True)

    return hook
