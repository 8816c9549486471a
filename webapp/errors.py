"""How a handler failure reaches the page: one clear line, never a traceback, and the app keeps working."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any

from mathreel.webapp.html import plain, toast
from mathreel.webapp.server_paths import ServerPaths

log = logging.getLogger("mathreel.webapp")


def error_message(
    error: BaseException, fixes: Mapping[str, str] | None = None, paths: ServerPaths | None = None
) -> str:
    """The line a user sees: core's own message for MathReelError in the page's words, a short generic one for a bug.

    The page's words: no server path (`paths`, this server's folders, names them as the visitor knows them), and
    where the error names a setting that gets past it (core.errors.Fix), the fix as the tab's control, from the
    tab's `fixes` (a tab without that control adds nothing)."""
    from mathreel.core.errors import MathReelError

    if isinstance(error, MathReelError):
        text = (paths or ServerPaths.of()).scrub(str(error))
        fix = (fixes or {}).get(error.fix or "")
        return f"{text}; {fix}" if fix else text
    return f"Something went wrong on the server ({type(error).__name__}); the details are in the server log."


def error_box(message: str | list[str]) -> str:
    """Markdown for a visible error box: each message (one line each) escaped, since messages quote file names,
    field names and server replies."""
    lines = [message] if isinstance(message, str) else list(message)
    return "**Error:** " + "<br>".join(plain(line) for line in lines) if any(lines) else ""


def warn(message: str) -> None:
    """A warning toast with `message` shown as text (Gradio renders toast messages as HTML)."""
    import gradio as gr

    gr.Warning(toast(message))


def guarded(
    error_slot: int, n_outputs: int, fixes: Mapping[str, str] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a handler so any failure shows in output `error_slot` (and a toast) and other outputs stay as they were.

    The wrapped handler must return a tuple of `n_outputs` values whose slot `error_slot` is the error box; `fixes`
    words a fix as the tab's control (error_message).
    """

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as error:  # the page must survive anything a handler meets
                return failed(fn.__name__, error, error_slot, n_outputs, fixes)

        return wrapper

    return decorate


def failed(
    handler: str, error: Exception, error_slot: int, n_outputs: int, fixes: Mapping[str, str] | None = None
) -> tuple:
    """Outputs for a handler that failed: the message in output `error_slot` (and a toast), the rest unchanged.

    A bug is logged with its traceback under the handler's name; the user sees one line."""
    import gradio as gr

    from mathreel.core.errors import MathReelError

    if not isinstance(error, MathReelError):
        log.error("handler %s failed", handler, exc_info=error)
    message = error_message(error, fixes)
    warn(message)
    outputs: list[Any] = [gr.skip()] * n_outputs
    outputs[error_slot] = gr.update(value=error_box(message), visible=True)
    return tuple(outputs)


def error_outputs(message: str, n_outputs: int) -> tuple:
    """Outputs of a handler that failed: the error box shown (slot 0), everything else left as it is."""
    import gradio as gr

    warn(message)
    return (gr.update(value=error_box(message), visible=True), *[gr.skip()] * (n_outputs - 1))
