"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat completions API, for tests and benches.

It answers `POST /v1/chat/completions` (plain JSON, or server-sent events when `"stream": true`)
and `GET /v1/models`, records every request it receives, and plays scripted failures, so the
real `openai` client can be tested end to end without the internet.

Use it as a context manager (or call `start()` / `stop()`):

    from helpers.fake_openai import FakeOpenAI, status, slow

    with FakeOpenAI(models=("vision-1",), api_key="sk-test", latency_s=0.2) as server:
        server.script(status(429, retry_after=0.1), slow(5.0))  # the next two chat calls fail so
        ...  # point the client at server.base_url; then assert on server.chat_requests

What a reply says is decided by `reply`: a fixed string, or a function of the `Recorded`
request that returns the text or a `Fault` (so a test can fail one particular question every
time). Faults queued with `script()` are used first, one per chat request, in order. Requests
with the wrong key get 401 (the message echoes the key received, as careless servers do, so
tests can check the client never repeats it); unknown models get 404.

Tests import it as `from helpers.fake_openai import ...` (pytest puts `tests/` on sys.path); benches
add `tests/` to sys.path first.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_MODEL = "fake-vision-1"
DEFAULT_REPLY = "The answer is A."
TOKENS_PER_IMAGE = 85  # what the fake bills per image, so usage figures differ with the image count


@dataclass
class Fault:
    """One scripted misbehaviour. `kind` is "status", "slow", "malformed", "empty_choices", "empty_text"."""

    kind: str
    status: int = 200
    message: str = ""
    retry_after: float | None = None
    delay_s: float = 0.0
    error_type: str = "invalid_request_error"


def status(code: int, message: str = "", *, retry_after: float | None = None) -> Fault:
    """Answer with HTTP `code` and an OpenAI-style error body (with a Retry-After header if given)."""
    kinds = {429: "rate_limit_error", 401: "authentication_error", 404: "not_found_error"}
    error_type = kinds.get(code, "server_error" if code >= 500 else "invalid_request_error")
    return Fault("status", code, message or f"scripted error {code}", retry_after, error_type=error_type)


def context_length(limit: int = 8192, asked: int = 20000) -> Fault:
    """The 400 vLLM and OpenAI send when the prompt does not fit."""
    text = (
        f"This model's maximum context length is {limit} tokens. However, you requested {asked} tokens "
        "in the messages. Please reduce the length of the messages."
    )
    return Fault("status", 400, text, error_type="invalid_request_error")


def slow(seconds: float) -> Fault:
    """Wait `seconds` before answering normally (longer than the client's timeout, to test timeouts)."""
    return Fault("slow", delay_s=seconds)


def malformed() -> Fault:
    """A 200 whose JSON body is cut off."""
    return Fault("malformed")


def empty_choices() -> Fault:
    """A well-formed completion with `choices: []`."""
    return Fault("empty_choices")


def empty_text() -> Fault:
    """A completion whose message content is the empty string."""
    return Fault("empty_text")


@dataclass
class Recorded:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any = None
    received_at: float = 0.0

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def temperature(self) -> float | None:
        return self.body.get("temperature") if isinstance(self.body, dict) else None

    @property
    def max_tokens(self) -> int | None:
        return self.body.get("max_tokens") if isinstance(self.body, dict) else None

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream")) if isinstance(self.body, dict) else False

    @property
    def parts(self) -> list[dict[str, Any]]:
        """The content parts of every message, in order."""
        if not isinstance(self.body, dict):
            return []
        found: list[dict[str, Any]] = []
        for message in self.body.get("messages", []):
            content = message.get("content")
            found.extend([{"type": "text", "text": content}] if isinstance(content, str) else content or [])
        return found

    @property
    def image_urls(self) -> list[str]:
        return [p["image_url"]["url"] for p in self.parts if p.get("type") == "image_url"]

    @property
    def text(self) -> str:
        """The prompt text (all text parts joined by newlines)."""
        return "\n".join(p["text"] for p in self.parts if p.get("type") == "text")

    @property
    def authorization(self) -> str:
        return self.headers.get("authorization", "")


Reply = str | Callable[[Recorded], "str | Fault"]


@dataclass
class FakeOpenAI:
    """The server. Settings may be changed between requests (they are read on every request)."""

    models: tuple[str, ...] = (DEFAULT_MODEL,)
    api_key: str | None = None  # None accepts any key
    latency_s: float = 0.0  # each chat reply takes this long from the request's arrival
    reply: Reply = DEFAULT_REPLY
    stream_chunk_chars: int = 6
    requests: list[Recorded] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._faults: deque[Fault] = deque()
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._in_flight = 0
        self.max_in_flight = 0  # the most chat requests handled at the same time, for concurrency checks

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> FakeOpenAI:
        """Listen on an ephemeral port of 127.0.0.1 in a background thread."""
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the fake server is not running")
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """What a client's base URL should be: http://127.0.0.1:<port>/v1"""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting and inspection -----------------------------------------------------------
    def script(self, *faults: Fault) -> None:
        """Queue faults for the next chat requests, one each, in order."""
        with self._lock:
            self._faults.extend(faults)

    @property
    def pending_faults(self) -> int:
        with self._lock:
            return len(self._faults)

    @property
    def chat_requests(self) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()
            self._faults.clear()
            self.max_in_flight = 0

    def _record(self, recorded: Recorded) -> None:
        with self._lock:
            self.requests.append(recorded)

    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _next_fault(self) -> Fault | None:
        with self._lock:
            return self._faults.popleft() if self._faults else None

    def _answer(self, recorded: Recorded) -> str | Fault:
        reply = self.reply
        return reply(recorded) if callable(reply) else reply


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients that time out and hang up are expected here; stay quiet about broken pipes."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so the client's connection pool is exercised
    # Headers and body go out in separate writes; with Nagle's algorithm on, the second waits for the client's
    # delayed ACK (40 ms on Linux), which would add 40 ms to every reply.
    disable_nagle_algorithm = True
    fake: FakeOpenAI

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request access log."""

    # -- routing ----------------------------------------------------------------------------
    def do_GET(self) -> None:
        recorded = self._read()
        if not self._authorised(recorded):
            return
        if recorded.path.rstrip("/").endswith("/models"):
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.fake.models]
            self._json(200, {"object": "list", "data": data})
        else:
            self._error(404, f"no route GET {recorded.path}", "not_found_error")

    def do_POST(self) -> None:
        recorded = self._read()
        if not recorded.path.rstrip("/").endswith("/chat/completions"):
            self._error(404, f"no route POST {recorded.path}", "not_found_error")
            return
        if not isinstance(recorded.body, dict):
            self._error(400, "the body is not JSON", "invalid_request_error")
            return
        if not self._authorised(recorded):
            return
        if recorded.model not in self.fake.models:
            self._error(404, f"The model `{recorded.model}` does not exist.", "not_found_error", code="model_not_found")
            return
        self.fake._enter()
        try:
            # `latency_s` is the reply time counted from the request's arrival, like a model server's, so the
            # fake's own JSON parsing of a large request is not added on top of it.
            time.sleep(max(0.0, self.fake.latency_s - (time.perf_counter() - recorded.received_at)))
            try:
                answer = self.fake._next_fault() or self.fake._answer(recorded)
            except Exception as error:  # a test's reply script failed: say so instead of dropping the connection
                self._error(500, f"the scripted reply raised {type(error).__name__}: {error}", "server_error")
                return
            if isinstance(answer, Fault):
                self._fault(answer, recorded)
            elif recorded.stream:
                self._stream(recorded, answer)
            else:
                self._json(200, _completion(recorded, answer))
        finally:
            self.fake._leave()

    # -- pieces -----------------------------------------------------------------------------
    def _read(self) -> Recorded:
        arrived = time.perf_counter()
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items()}
        recorded = Recorded(self.command, self.path, headers, body, arrived)
        self.fake._record(recorded)
        return recorded

    def _authorised(self, recorded: Recorded) -> bool:
        expected = self.fake.api_key
        given = recorded.authorization.removeprefix("Bearer ").strip()
        if expected is None or given == expected:
            return True
        self._error(401, f"Incorrect API key provided: {given}.", "invalid_request_error", code="invalid_api_key")
        return False

    def _fault(self, fault: Fault, recorded: Recorded) -> None:
        if fault.kind == "status":
            headers = {"retry-after": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
            self._error(fault.status, fault.message, fault.error_type, headers=headers)
        elif fault.kind == "slow":
            time.sleep(fault.delay_s)
            self._json(200, _completion(recorded, DEFAULT_REPLY))
        elif fault.kind == "malformed":
            self._send(200, b'{"id": "chatcmpl-broken", "choices": [{"index": 0, "mess', "application/json")
        elif fault.kind == "empty_choices":
            completion = _completion(recorded, "")
            completion["choices"] = []
            self._json(200, completion)
        elif fault.kind == "empty_text":
            self._json(200, _completion(recorded, ""))
        else:
            raise ValueError(f"unknown fault kind {fault.kind!r}")

    def _error(
        self,
        http_status: int,
        message: str,
        error_type: str,
        *,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        body = {"error": {"message": message, "type": error_type, "param": None, "code": code}}
        self._send(http_status, json.dumps(body).encode(), "application/json", headers)

    def _json(self, code: int, payload: dict[str, Any]) -> None:
        self._send(code, json.dumps(payload).encode(), "application/json")

    def _send(self, code: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _stream(self, recorded: Recorded, text: str) -> None:
        """Server-sent events, chunked: role, text pieces, finish reason, usage (if asked), [DONE]."""
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        base = _chunk_base(recorded)
        step = max(1, self.fake.stream_chunk_chars)
        events = [
            {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}
        ]
        events += [
            {**base, "choices": [{"index": 0, "delta": {"content": text[i : i + step]}, "finish_reason": None}]}
            for i in range(0, len(text), step)
        ]
        events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        if (recorded.body.get("stream_options") or {}).get("include_usage"):
            events.append({**base, "choices": [], "usage": _usage(recorded, text)})
        for event in events:
            self._chunk(f"data: {json.dumps(event)}\n\n".encode())
        self._chunk(b"data: [DONE]\n\n")
        self._chunk(b"")

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _usage(recorded: Recorded, text: str) -> dict[str, int]:
    prompt = len(recorded.text.split()) + TOKENS_PER_IMAGE * len(recorded.image_urls)
    completion = len(text.split())
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _chunk_base(recorded: Recorded) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": recorded.model,
    }


def _completion(recorded: Recorded, text: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": recorded.model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": _usage(recorded, text),
    }


def serve(**settings: Any) -> FakeOpenAI:
    """A started server (call `stop()`, or use `with FakeOpenAI(...)` instead)."""
    return FakeOpenAI(**settings).start()


__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_REPLY",
    "FakeOpenAI",
    "Fault",
    "Recorded",
    "context_length",
    "empty_choices",
    "empty_text",
    "malformed",
    "serve",
    "slow",
    "status",
]
