"""Where requests go: one OpenAI-compatible chat endpoint and how to call it.

The API key travels with the endpoint because every call needs it, but it is kept out of the
repr (`field(repr=False)`), out of `to_dict()` (what run files and the app store), and out of
every error message; `describe()` is what messages name instead. The operator's OpenAI organisation and project
ids (OPENAI_ORG_ID, OPENAI_PROJECT_ID) travel the same way, and only with the operator's own credentials to the
operator's own endpoint (`platform_ids`): the openai package would otherwise send them to any URL.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from mathreel.core.errors import InputError

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
MODEL_ENV = "MATHREEL_MODEL"  # the model asked when none is named (mathreel run, the Ask tab)
ORGANIZATION_ENV = "OPENAI_ORG_ID"
PROJECT_ENV = "OPENAI_PROJECT_ID"
# Servers that need no key (vLLM, SGLang, Ollama) still get a bearer header; this is vLLM's convention.
NO_KEY = "EMPTY"


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible chat completions endpoint plus the generation and retry settings for it.

    temperature 0 by default, because benchmark runs must be repeatable. `max_attempts` counts the
    first try: 4 means up to three retries, and only 429, 5xx and timeouts are retried.
    """

    base_url: str
    model: str
    api_key: str = field(default="", repr=False, compare=False)
    organization: str = field(default="", repr=False, compare=False)  # OpenAI-Organization header, when any
    project: str = field(default="", repr=False, compare=False)  # OpenAI-Project header, when any
    temperature: float = 0.0
    max_tokens: int | None = 1024
    timeout_s: float = 120.0
    max_attempts: int = 4
    backoff_s: float = 1.0  # first retry waits about this long; each retry doubles it, plus jitter
    max_backoff_s: float = 60.0  # cap on any single wait, Retry-After included

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise InputError("endpoint", f"base URL {self.base_url!r} must start with http:// or https://")
        if not self.model.strip():
            raise InputError("endpoint", "no model name given")
        if self.max_attempts < 1:
            raise InputError("endpoint", f"max_attempts must be at least 1, not {self.max_attempts}")
        if self.timeout_s <= 0:
            raise InputError("endpoint", f"timeout must be positive, not {self.timeout_s}")

    @classmethod
    def from_env(
        cls,
        model: str | None = None,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        key_env: str = DEFAULT_KEY_ENV,
        **settings: Any,
    ) -> Endpoint:
        """An endpoint whose model, key and base URL fall back to the environment (MATHREEL_MODEL, `key_env`,
        OPENAI_BASE_URL), so a server or a shell can name its model once. A blank `model` counts as none."""
        name = (model or "").strip() or default_model()
        if not name:
            raise InputError("model", f"no model name given, and {MODEL_ENV} is not set")
        key = api_key if api_key is not None else os.environ.get(key_env, "")
        url = (base_url or default_base_url()).rstrip("/")
        organization, project = platform_ids(url, key, key_env)
        return cls(base_url=url, model=name, api_key=key, organization=organization, project=project, **settings)

    @property
    def public_url(self) -> str:
        """The base URL without any user:password@ part, safe to show and to store."""
        return strip_credentials(self.base_url)

    def describe(self) -> str:
        """How messages name this endpoint: the model and the base URL, never the key."""
        return f"model {self.model!r} at {self.public_url}"

    def to_dict(self) -> dict[str, Any]:
        """Every setting except the credentials (key, organisation, project), for run files, logs and the app's
        state."""
        settings = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _CREDENTIALS}
        settings["base_url"] = self.public_url
        return settings

    def secrets(self) -> list[str]:
        """What must never be shown: the key and the secret inside the base URL (its password, or its user name
        when that is all there is, as with a token in place of the user)."""
        parts = urlsplit(self.base_url)
        in_url = parts.password or parts.username
        return [s for s in (self.api_key, in_url) if s and s != NO_KEY]

    def redact(self, text: str) -> str:
        """`text` with the key blanked out, for anything a server sent back that we want to show."""
        from mathreel.core.client.redact import redact

        return redact(text, self.secrets())


_CREDENTIALS = ("api_key", "organization", "project")


def platform_ids(url: str, key: str, key_env: str) -> tuple[str, str]:
    """(organisation, project) from OPENAI_ORG_ID / OPENAI_PROJECT_ID, but only for the operator's own endpoint
    (OPENAI_BASE_URL, else OpenAI's) called with the operator's own key (`key_env`); ("", "") for anything a
    visitor or a user pointed elsewhere, or called with a key of their own."""
    own_key = os.environ.get(key_env, "")
    if not (own_key and key == own_key and same_url(url, default_base_url())):
        return "", ""
    return os.environ.get(ORGANIZATION_ENV, "").strip(), os.environ.get(PROJECT_ENV, "").strip()


def default_model() -> str:
    """The model named by MATHREEL_MODEL, or "" when it is unset or blank."""
    return os.environ.get(MODEL_ENV, "").strip()


def default_base_url() -> str:
    """The endpoint requests go to when none is named: OPENAI_BASE_URL, else OpenAI's (no trailing slash)."""
    return (os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")


def strip_credentials(url: str) -> str:
    """`url` without any user:password@ part: the only form of a base URL that is ever shown or stored."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # a malformed URL (unbalanced [ of an IPv6 host): show only what precedes any "@"
        return url.strip().rpartition("@")[2]
    if "@" not in parts.netloc:
        return url.strip()
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def same_url(a: str, b: str) -> bool:
    """Whether two base URLs name the same endpoint, credentials, case and a trailing slash aside."""

    def norm(url: str) -> str:
        return strip_credentials(url).rstrip("/").lower()

    return norm(a) == norm(b)


def server_key_rule(typed_url: str, own_url: str, typed_key: str, key_env: str) -> tuple[str, str]:
    """The (base URL, key) a page request uses. The server's key (`key_env`) only ever goes to the server's own
    URL `own_url`: a visitor who points the page elsewhere gets no key unless they type one.

    The page shows `own_url` without credentials, so a URL that matches it (with or without them) is sent as
    `own_url` itself; an empty URL means `own_url`. A typed key always wins.
    """
    url = (typed_url or "").strip() or (own_url or "").strip()
    key = (typed_key or "").strip()
    if own_url and url and same_url(url, own_url):
        url = own_url.strip()
        key = key or os.environ.get(key_env, "")
    return url.rstrip("/"), key
