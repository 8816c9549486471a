"""Turn whatever went wrong in a model call into one `ClientError` a user can act on.

The message names the endpoint (model and base URL) and the cause in words. Text the server
sent back is shown only after the key is blanked out (some servers echo part of it back).
"""

from __future__ import annotations

import email.utils
import time
from typing import Any

from mathreel.core.client.endpoint import Endpoint
from mathreel.core.errors import MathReelError

_CONTEXT_PHRASES = ("context length", "maximum context", "context window", "too many tokens")
_SERVER_TEXT_LIMIT = 300


class ClientError(MathReelError):
    """A model call that failed. `retryable` says whether waiting and trying again may help.

    `cause` is the reason in words; `status` the HTTP status when there was one; `retry_after_s`
    the server's Retry-After, when it sent one.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        cause: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after_s: float | None = None,
        attempts: int = 1,
    ) -> None:
        self.endpoint_name = endpoint.describe()
        self.cause = endpoint.redact(cause)
        self.status = status
        self.retryable = retryable
        self.retry_after_s = retry_after_s
        self.attempts = attempts
        super().__init__(self.message)

    @property
    def message(self) -> str:
        tries = f" (after {self.attempts} attempts)" if self.attempts > 1 else ""
        return f"{self.endpoint_name}: {self.cause}{tries}"

    def after_attempts(self, attempts: int) -> ClientError:
        """The same error, saying how many attempts were made before giving up."""
        self.attempts = attempts
        self.args = (self.message,)
        return self


def server_text(body: Any) -> str:
    """The human part of an error body ({"error": {"message": ...}}, {"message": ...} or raw text), shortened."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = inner.get("message") if isinstance(inner, dict) else inner
        text = str(text if text is not None else body)
    else:
        text = "" if body is None else str(body)
    text = " ".join(text.split())
    return text if len(text) <= _SERVER_TEXT_LIMIT else text[: _SERVER_TEXT_LIMIT - 3] + "..."


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds the server asked us to wait: `retry-after-ms`, `retry-after` in seconds, or an HTTP date."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _status_error(endpoint: Endpoint, status: int, body: Any, headers: Any) -> ClientError:
    """Words for an HTTP error status."""
    said = server_text(body)
    detail = f": {said}" if said else ""
    if status == 401:
        hint = "" if endpoint.api_key else "; no API key was set (see OPENAI_API_KEY)"
        return ClientError(endpoint, f"the server refused the API key (401){hint}", status=status)
    if status == 403:
        return ClientError(endpoint, f"the server denied access with this API key (403){detail}", status=status)
    if status == 404:
        cause = f"unknown model or wrong base URL (404): the server has no model {endpoint.model!r} or no chat route"
        return ClientError(endpoint, cause + detail, status=status)
    if status == 429:
        wait = retry_after_seconds(headers)
        return ClientError(endpoint, f"rate limited (429){detail}", status=status, retryable=True, retry_after_s=wait)
    if status >= 500:
        wait = retry_after_seconds(headers)
        return ClientError(
            endpoint, f"server error ({status}){detail}", status=status, retryable=True, retry_after_s=wait
        )
    if status == 400 and any(p in said.lower() for p in _CONTEXT_PHRASES):
        cause = (
            f"the request is longer than the model's context window (400){detail}; "
            "fewer frames or a smaller image size may fit"
        )
        return ClientError(endpoint, cause, status=status)
    return ClientError(endpoint, f"the server rejected the request ({status}){detail}", status=status)


def classify(error: BaseException, endpoint: Endpoint) -> ClientError:
    """Map an exception from the `openai` package (or our reply checks) to a ClientError."""
    import openai

    if isinstance(error, ClientError):
        return error
    if isinstance(error, openai.APITimeoutError):
        return ClientError(endpoint, f"no reply within {endpoint.timeout_s:g} s (timeout)", retryable=True)
    from mathreel.core.client.bounded import ReplyTooLarge

    too_large = next((e for e in (error, error.__cause__, error.__context__) if isinstance(e, ReplyTooLarge)), None)
    if too_large is not None:
        return ClientError(endpoint, f"the server's reply was cut off: {too_large}")
    if isinstance(error, openai.APIConnectionError):
        reason = error.__cause__ or error.__context__
        why = f" ({type(reason).__name__})" if reason else ""
        return ClientError(endpoint, f"could not reach the server{why}; is it running and is the base URL right?")
    if isinstance(error, openai.APIStatusError):
        return _status_error(endpoint, error.status_code, error.body, error.response.headers)
    if isinstance(error, openai.APIResponseValidationError):
        return ClientError(endpoint, "the server sent a reply that is not a chat completion (malformed JSON)")
    if isinstance(error, ValueError):  # JSON decoding of a 200 body that is not JSON
        return ClientError(endpoint, "the server sent a reply that is not valid JSON (malformed completion)")
    return ClientError(endpoint, f"the request failed: {type(error).__name__}: {error}")
