"""The judge's own endpoint: separate from the model under test (the paper's judge is Qwen3-4B served by vLLM).

Settings come from arguments, else MATHREEL_JUDGE_BASE_URL / MATHREEL_JUDGE_MODEL / MATHREEL_JUDGE_API_KEY.
The key is read from the environment (or the app's password field) and never logged, stored or echoed.
"""

from __future__ import annotations

import os
from typing import Any

from mathreel.core.client import Endpoint
from mathreel.core.client.endpoint import platform_ids
from mathreel.core.errors import InputError

BASE_URL_ENV = "MATHREEL_JUDGE_BASE_URL"
MODEL_ENV = "MATHREEL_JUDGE_MODEL"
KEY_ENV = "MATHREEL_JUDGE_API_KEY"
# A judge in thinking mode writes long reasoning before its card; leave it room, and time.
JUDGE_DEFAULTS: dict[str, Any] = {"temperature": 0.0, "max_tokens": 8192, "timeout_s": 300.0}


def judge_endpoint(
    base_url: str | None = None,
    model: str | None = None,
    *,
    api_key: str | None = None,
    **settings: Any,
) -> Endpoint:
    """The judge endpoint from arguments, falling back to the MATHREEL_JUDGE_* environment variables."""
    url = base_url or os.environ.get(BASE_URL_ENV)
    name = model or os.environ.get(MODEL_ENV)
    if not url:
        raise InputError("judge endpoint", "no base URL", fix="judge_base_url")
    if not name:
        raise InputError("judge endpoint", "no judge model", fix="judge_model")
    key = api_key if api_key is not None else os.environ.get(KEY_ENV, "")
    organization, project = platform_ids(url.rstrip("/"), key, KEY_ENV)
    return Endpoint(
        base_url=url.rstrip("/"),
        model=name,
        api_key=key,
        organization=organization,
        project=project,
        **{**JUDGE_DEFAULTS, **settings},
    )
