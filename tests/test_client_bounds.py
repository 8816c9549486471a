"""Replies read with a ceiling (core.client.bounded): an endpoint a visitor typed cannot make the server read a
reply of any size, or hold a call open by trickling its body a byte at a time (each read within httpx's timeout).

A real HTTP server on 127.0.0.1 plays the endpoint; the real openai client reads it, sync and async.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mathreel.core.client import ClientError, Endpoint, ModelRequest, ask, ask_async, make_async_client
from mathreel.core.client.bounded import MAX_REPLY_BYTES

COMPLETION = (
    b'{"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [{"index": 0, '
    b'"finish_reason": "stop", "message": {"role": "assistant", "content": "'
)
END = b'"}}]}'


class _Hostile(BaseHTTPRequestHandler):
    """`/huge/v1`: a valid completion whose text passes the size limit; `/trickle/v1`: a small completion sent a
    few bytes at a time, every read well within the per-read timeout."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        text = b"A" * (MAX_REPLY_BYTES + 1024) if self.path.startswith("/huge") else b"The answer is A."
        body = COMPLETION + text + END
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        try:
            if self.path.startswith("/huge"):
                self.wfile.write(body)
                return
            for start in range(0, len(body), 4):
                self.wfile.write(body[start : start + 4])
                self.wfile.flush()
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what the test wants

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def hostile() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_reply_over_the_size_limit_is_cut_off_in_one_line(hostile: str) -> None:
    endpoint = Endpoint(f"{hostile}/huge/v1", "m", timeout_s=60.0, max_attempts=1)
    with pytest.raises(ClientError, match=r"reply was cut off: the reply passed 16 MB"):
        ask(endpoint, ModelRequest("q"))

    async def run() -> None:
        client = make_async_client(endpoint)
        try:
            await ask_async(endpoint, ModelRequest("q"), client=client)
        finally:
            await client.close()

    with pytest.raises(ClientError, match=r"reply was cut off"):
        asyncio.run(run())


def test_a_trickled_reply_must_arrive_whole_within_the_timeout(hostile: str) -> None:
    """Each 4-byte read comes within 0.1 s, so only a whole-reply deadline stops it (about 200 reads = 20 s)."""
    endpoint = Endpoint(f"{hostile}/trickle/v1", "m", timeout_s=1.0, max_attempts=1)
    with pytest.raises(ClientError, match=r"no reply within 1 s \(timeout\)"):
        ask(endpoint, ModelRequest("q"))
