"""OpenAI-compatible model client: ask one question, stream a reply, run a whole benchmark.

Works with any server speaking the chat completions API (OpenAI, vLLM, SGLang, Ollama, Gemini's
OpenAI-compatible endpoint). The `openai` package is imported only when a call is made.
"""

from __future__ import annotations

from mathreel.core.client.calls import (
    ModelReply,
    Outcome,
    ask,
    ask_async,
    ask_stream,
    complete_many,
    list_models,
    make_async_client,
    make_client,
    retry_delay,
)
from mathreel.core.client.endpoint import Endpoint
from mathreel.core.client.errors import ClientError
from mathreel.core.client.request import DEFAULT_MAX_SIDE, ModelRequest, build_request, fit_image, request_from_view

__all__ = [
    "DEFAULT_MAX_SIDE",
    "ClientError",
    "Endpoint",
    "ModelReply",
    "ModelRequest",
    "Outcome",
    "ask",
    "ask_async",
    "ask_stream",
    "build_request",
    "complete_many",
    "fit_image",
    "list_models",
    "make_async_client",
    "make_client",
    "request_from_view",
    "retry_delay",
]
