"""The model client through the real `openai` package against the loopback fake server."""

from __future__ import annotations

import asyncio
import base64
import io
import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from helpers.fake_openai import (
    DEFAULT_MODEL,
    FakeOpenAI,
    Fault,
    Recorded,
    context_length,
    empty_choices,
    empty_text,
    malformed,
    slow,
    status,
)
from PIL import Image

from mathreel.core.client import (
    ClientError,
    Endpoint,
    ModelRequest,
    ask,
    ask_stream,
    build_request,
    complete_many,
    fit_image,
    list_models,
    retry_delay,
)
from mathreel.core.client import calls as calls_module
from mathreel.core.errors import InputError, MathReelError

KEY = "sk-mathreel-DISTINCTIVE-7f3a9c"


@pytest.fixture
def server():
    with FakeOpenAI(api_key=KEY) as fake:
        yield fake


@pytest.fixture
def sleeps(monkeypatch):
    """Record the waits between attempts instead of sleeping them."""
    waited: list[float] = []
    monkeypatch.setattr(calls_module, "_sleep", waited.append)
    return waited


def endpoint(server: FakeOpenAI, **settings) -> Endpoint:
    base = {"api_key": KEY, "timeout_s": 5.0, "backoff_s": 0.01, "max_attempts": 3}
    return Endpoint(server.base_url, DEFAULT_MODEL, **{**base, **settings})


def jpeg(width: int, height: int, color=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="JPEG")
    return out.getvalue()


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 200, 10)).save(out, format="PNG")
    return out.getvalue()


# -- endpoint ------------------------------------------------------------------------------


def test_endpoint_keeps_the_key_out_of_repr_and_dict():
    ep = Endpoint("http://127.0.0.1:1/v1", "m", api_key=KEY)
    assert KEY not in repr(ep)
    assert KEY not in str(ep.to_dict())
    assert "api_key" not in ep.to_dict()
    assert ep.to_dict()["temperature"] == 0.0


def test_endpoint_reads_key_and_base_url_from_the_environment(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1/")
    ep = Endpoint.from_env("qwen")
    assert (ep.api_key, ep.base_url, ep.model) == (KEY, "http://127.0.0.1:8000/v1", "qwen")
    monkeypatch.setenv("MY_KEY", "other")
    assert Endpoint.from_env("qwen", "http://h/v1", key_env="MY_KEY").api_key == "other"


def test_endpoint_model_falls_back_to_mathreel_model(monkeypatch):
    monkeypatch.setenv("MATHREEL_MODEL", " served-vlm ")
    assert Endpoint.from_env(base_url="http://h/v1").model == "served-vlm"
    assert Endpoint.from_env("  ", "http://h/v1").model == "served-vlm"  # a blank field counts as none
    assert Endpoint.from_env("named", "http://h/v1").model == "named"
    monkeypatch.delenv("MATHREEL_MODEL")
    with pytest.raises(InputError) as caught:
        Endpoint.from_env(None, "http://h/v1")
    assert str(caught.value) == "model: no model name given, and MATHREEL_MODEL is not set"


def test_endpoint_rejects_a_url_without_scheme():
    with pytest.raises(InputError, match="must start with http"):
        Endpoint("127.0.0.1:8000/v1", "m")


# -- request -------------------------------------------------------------------------------


def test_messages_put_images_before_the_text():
    frames = [jpeg(32, 24), jpeg(32, 24, (0, 0, 255))]
    messages = ModelRequest("Which option?", frames).to_messages()
    assert len(messages) == 1 and messages[0]["role"] == "user"
    parts = messages[0]["content"]
    assert [p["type"] for p in parts] == ["image_url", "image_url", "text"]
    assert parts[2]["text"] == "Which option?"
    header, data = parts[1]["image_url"]["url"].split(",", 1)
    assert header == "data:image/jpeg;base64"
    assert base64.b64decode(data) == frames[1]


def test_fit_image_passes_small_images_through_and_shrinks_large_ones():
    small = jpeg(640, 360)
    assert fit_image(small, 768) == (small, "image/jpeg")
    shrunk, mime = fit_image(jpeg(1920, 1080), 768)
    assert mime == "image/jpeg"
    assert Image.open(io.BytesIO(shrunk)).size == (768, 432)
    assert fit_image(png(100, 50), 768)[1] == "image/png"


def test_build_request_sends_one_mime_type():
    request = build_request("p", [jpeg(20, 20), png(20, 20)], max_side=768)
    assert request.image_mime == "image/jpeg"
    assert all(Image.open(io.BytesIO(img)).format == "JPEG" for img in request.images)


# -- ask -----------------------------------------------------------------------------------


def test_ask_sends_model_images_prompt_and_temperature(server):
    server.reply = "Looking at the frames, the answer is C."
    reply = ask(endpoint(server, max_tokens=77), ModelRequest("How many circles?", [jpeg(64, 48)] * 3))
    assert reply.text == "Looking at the frames, the answer is C."
    assert reply.finish_reason == "stop" and reply.model == DEFAULT_MODEL and reply.attempts == 1
    assert reply.usage == {"prompt_tokens": 3 + 3 * 85, "completion_tokens": 8, "total_tokens": 3 + 3 * 85 + 8}
    (seen,) = server.chat_requests
    assert seen.model == DEFAULT_MODEL
    assert seen.temperature == 0.0
    assert seen.max_tokens == 77
    assert len(seen.image_urls) == 3
    assert seen.text == "How many circles?"
    assert seen.authorization == f"Bearer {KEY}"


def test_ask_stream_yields_text_pieces_then_the_reply(server):
    server.reply = "Step 1: count. Step 2: add. The answer is B."
    pieces = list(ask_stream(endpoint(server), ModelRequest("q", [jpeg(8, 8)])))
    *deltas, final = pieces
    assert len(deltas) > 3 and all(isinstance(d, str) for d in deltas)
    assert "".join(deltas) == server.reply == final.text
    assert final.finish_reason == "stop"
    assert final.usage["completion_tokens"] == len(server.reply.split())
    (seen,) = server.chat_requests
    assert seen.stream and seen.body["stream_options"] == {"include_usage": True}


def test_ask_stream_retries_a_failure_before_any_text(server, sleeps):
    server.script(status(503))
    *_, final = ask_stream(endpoint(server), ModelRequest("q"))
    assert final.attempts == 2 and len(server.chat_requests) == 2


def test_ask_stream_names_a_reply_that_is_not_a_stream(server, sleeps):
    server.script(malformed())  # a 200 with a cut-off JSON body where server-sent events were asked for
    with pytest.raises(ClientError) as caught:
        list(ask_stream(endpoint(server), ModelRequest("q")))
    message = str(caught.value)
    assert message.startswith(f"model {DEFAULT_MODEL!r} at {server.base_url}: ")
    assert "malformed streamed reply: no server-sent events, content type 'application/json'" in message
    assert "empty completion" not in message
    assert len(server.chat_requests) == 1 and sleeps == []  # it would be malformed again


class _ProxyPage(BaseHTTPRequestHandler):
    """A 200 HTML page for every POST, as a captive portal or a misrouted proxy sends."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        page = b"<html><body>Welcome to nginx!</body></html>"
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


def test_ask_stream_names_a_plain_page_as_malformed(sleeps):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _ProxyPage)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        ep = Endpoint(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", timeout_s=5.0)
        with pytest.raises(
            ClientError,
            match=r"malformed streamed reply: no server-sent events, "
            r"content type 'text/html'$",
        ) as caught:
            list(ask_stream(ep, ModelRequest("q")))
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert caught.value.endpoint_name == ep.describe() and sleeps == []


def test_ask_stream_without_text_is_an_empty_completion(server):
    server.reply = ""  # a real stream: role, finish reason and usage events, but no text
    with pytest.raises(ClientError, match=r"streamed an empty completion \(finish_reason 'stop'\)"):
        list(ask_stream(endpoint(server), ModelRequest("q")))


def test_list_models(server):
    server.models = ("a-model", DEFAULT_MODEL)
    assert list_models(endpoint(server)) == ["a-model", DEFAULT_MODEL]


# -- retries -------------------------------------------------------------------------------


def test_429_is_retried_after_the_servers_retry_after(server, sleeps):
    server.script(status(429, "slow down", retry_after=3))
    reply = ask(endpoint(server), ModelRequest("q"))
    assert reply.attempts == 2 and len(server.chat_requests) == 2
    assert sleeps == [3.0]


def test_5xx_is_retried_with_growing_waits_then_reported(server, sleeps):
    server.script(*[status(500, "boom")] * 5)
    with pytest.raises(ClientError) as caught:
        ask(endpoint(server, max_attempts=4, backoff_s=1.0), ModelRequest("q"))
    error = caught.value
    assert len(server.chat_requests) == 4
    assert error.status == 500 and error.attempts == 4
    assert "server error (500)" in str(error) and "after 4 attempts" in str(error)
    assert server.base_url in str(error) and DEFAULT_MODEL in str(error)
    assert len(sleeps) == 3
    assert 1.0 <= sleeps[0] <= 1.25 and 2.0 <= sleeps[1] <= 2.5 and 4.0 <= sleeps[2] <= 5.0


def test_a_timeout_is_retried_and_then_succeeds(server, sleeps):
    server.script(slow(2.0))
    reply = ask(endpoint(server, timeout_s=0.3), ModelRequest("q"))
    assert reply.attempts == 2 and reply.text


def test_a_timeout_that_persists_names_the_timeout(server, sleeps):
    server.script(slow(2.0), slow(2.0))
    with pytest.raises(ClientError, match=r"no reply within 0.3 s \(timeout\)") as caught:
        ask(endpoint(server, timeout_s=0.3, max_attempts=2), ModelRequest("q"))
    assert caught.value.retryable


def test_retry_delay_is_capped_and_honours_retry_after():
    ep = Endpoint("http://127.0.0.1:1/v1", "m", backoff_s=1.0, max_backoff_s=10.0)
    assert retry_delay(ep, ClientError(ep, "x", retryable=True, retry_after_s=7.0), 1) == 7.0
    assert retry_delay(ep, ClientError(ep, "x", retryable=True, retry_after_s=500.0), 1) == 10.0
    assert retry_delay(ep, ClientError(ep, "x", retryable=True), 9) == 10.0


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        (malformed(), "not valid JSON"),
        (empty_choices(), "no choices"),
        (empty_text(), "empty completion"),
        (context_length(), "longer than the model's context window (400)"),
        (status(400, "bad image_url"), "rejected the request (400): bad image_url"),
    ],
)
def test_failures_that_would_fail_again_are_not_retried(server, sleeps, fault: Fault, words: str):
    server.script(fault, fault)
    with pytest.raises(ClientError) as caught:
        ask(endpoint(server), ModelRequest("q"))
    assert words in str(caught.value)
    assert len(server.chat_requests) == 1 and sleeps == []


def test_wrong_key_is_a_401_in_words(server, sleeps):
    with pytest.raises(ClientError, match=r"refused the API key \(401\)") as caught:
        ask(endpoint(server, api_key="sk-wrong-one-31337"), ModelRequest("q"))
    assert "sk-wrong-one-31337" not in str(caught.value)
    assert len(server.chat_requests) == 1


def test_unknown_model_is_a_404_in_words(server):
    ep = Endpoint(server.base_url, "no-such-model", api_key=KEY)
    with pytest.raises(ClientError, match=r"unknown model or wrong base URL \(404\)") as caught:
        ask(ep, ModelRequest("q"))
    assert "'no-such-model'" in str(caught.value)


def test_unreachable_endpoint_is_named():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ep = Endpoint(f"http://127.0.0.1:{port}/v1", "m", max_attempts=3)
    with pytest.raises(ClientError, match="could not reach the server") as caught:
        ask(ep, ModelRequest("q"))
    assert f"127.0.0.1:{port}" in str(caught.value) and caught.value.attempts == 1


def test_the_key_never_appears_in_messages_or_logs(server, sleeps, caplog):
    caplog.set_level(logging.DEBUG)
    wrong = "sk-echoed-back-by-server-998877"
    texts: list[str] = []
    server.script(status(500, f"upstream said key {KEY} is bad"), status(400, f"key {KEY} rejected"))
    for ep in (endpoint(server), endpoint(server, api_key=wrong)):
        with pytest.raises(ClientError) as caught:
            ask(ep, ModelRequest("q"))
        texts += [str(caught.value), repr(caught.value), caught.value.cause, repr(ep)]
    texts.append(caplog.text)
    assert "upstream said key [API key] is bad" in caplog.text  # the retry was logged, redacted
    for text in texts:
        assert KEY not in text and wrong not in text


# -- many ----------------------------------------------------------------------------------


def test_complete_many_bounds_concurrency_and_reports_each_item(server):
    server.latency_s = 0.05

    def answer(request: Recorded) -> str | Fault:
        return status(400, "refused") if request.text == "q3" else f"answer to {request.text}"

    def broken() -> ModelRequest:
        raise InputError("video.mp4", "cannot be decoded")

    server.reply = answer
    items = [ModelRequest(f"q{i}") for i in range(10)]
    items[6] = lambda: ModelRequest("q6 built late")  # type: ignore[assignment]
    items[8] = broken  # type: ignore[assignment]
    seen = []
    outcomes = asyncio.run(complete_many(endpoint(server), items, concurrency=3, on_result=seen.append))
    assert server.max_in_flight == 3
    assert [o.index for o in outcomes] == list(range(10))
    assert sorted(o.index for o in seen) == list(range(10))
    assert outcomes[0].reply.text == "answer to q0"
    assert outcomes[6].reply.text == "answer to q6 built late"
    assert isinstance(outcomes[3].error, ClientError) and "refused" in str(outcomes[3].error)
    assert isinstance(outcomes[8].error, MathReelError) and "cannot be decoded" in str(outcomes[8].error)
    assert sum(o.ok for o in outcomes) == 8
    assert len(server.chat_requests) == 9


def test_complete_many_retries_inside_the_batch(server, monkeypatch):
    waited: list[float] = []

    async def record(seconds: float) -> None:
        waited.append(seconds)

    monkeypatch.setattr(calls_module, "_async_sleep", record)
    server.script(status(429, retry_after=2), status(502))
    outcomes = asyncio.run(complete_many(endpoint(server), [ModelRequest("a"), ModelRequest("b")], concurrency=1))
    assert all(o.ok for o in outcomes)
    assert [o.reply.attempts for o in outcomes] == [3, 1]
    assert waited[0] == 2.0 and len(waited) == 2
