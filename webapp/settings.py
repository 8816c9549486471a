"""Server settings for `mathreel serve`: one frozen object so every tab reads the same limits."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from mathreel.core.view import DEFAULT_FRAMES


@dataclass(frozen=True)
class Settings:
    """What the server may serve and how much work it accepts.

    `data_dir` None means core's own fallback (MATHREEL_DATA, then the embedded demo set).
    `cache_seconds` drives Gradio's `delete_cache`: uploads and generated downloads older than this
    are removed, so one user's files do not stay fetchable for long.
    """

    data_dir: Path | None = None
    host: str = "127.0.0.1"
    port: int = 7860
    share: bool = False
    max_file_size: str = "50mb"
    cache_seconds: int = 3600
    default_frames: int = DEFAULT_FRAMES
    max_frames: int = 64
    # Per-event-group limits: browsing and scoring run in separate concurrency groups, so a slow
    # scoring run never holds up someone switching questions. score_concurrency is the number of scoring children
    # at once (costly files take turns for them, one per visitor: webapp.fair_queue); the Score events themselves
    # run `score_events` at once, since a cheap file is scored inline in milliseconds.
    browse_concurrency: int = 8
    score_concurrency: int = 2
    # What one uploaded file may cost: scoring runs in a child process killed past these (webapp.isolate).
    score_seconds: int = 60
    score_memory_mb: int = 2048
    # What building one evidence bundle may take (webapp.bundle_zip: a child process, with score_memory_mb).
    bundle_seconds: int = 180
    # Model and judge calls wait on the network for seconds to minutes: limits of their own.
    ask_concurrency: int = 4
    judge_concurrency: int = 2
    # Events waiting in Gradio's queue across all visitors (past it a visitor is told the queue is full): a page
    # load chains several events, so 30 visitors arriving together hold well over 64 at once.
    queue_size: int = 512
    # A visitor's runs are kept for their browser (webapp.visitor): days after the last visit, files and MB each.
    keep_days: int = 7
    keep_files: int = 20
    keep_mb: int = 100
    # Proxies in front of the server that append the client's address to X-Forwarded-For: fair shares go by the
    # client's address (webapp.visitor.visitor_key); 0 trusts no header (the TCP peer), the Space entry sets 1.
    proxy_hops: int = 0

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, defaults: Mapping[str, Any] | None = None, **overrides: Any
    ) -> Settings:
        """Settings from `defaults`, then the environment (ENV below), then explicit `overrides` that are not None.

        `mathreel serve` passes its command-line options as overrides; the Space entry passes 0.0.0.0 as a default.
        A malformed value raises InputError naming the variable. MATHREEL_DATA is checked here too, so a wrong
        path stops the start with one line instead of failing on every page.
        """
        from mathreel.core.errors import InputError

        environ = os.environ if environ is None else environ
        values: dict[str, Any] = dict(defaults or {})
        for name, field_name in ENV.items():
            raw = environ.get(name, "").strip()
            if raw:
                values[field_name] = _positive(name, raw) if _FIELD_TYPES[field_name] == "int" else raw
        values.update({key: value for key, value in overrides.items() if value is not None})
        data = values.get("data_dir") or environ.get("MATHREEL_DATA", "").strip()
        if data and not str(data).startswith("hf:") and not Path(data).expanduser().is_dir():
            raise InputError(str(data), "the data directory does not exist (MATHREEL_DATA or --data)")
        return cls(**values)

    @property
    def score_events(self) -> int:
        """Score events Gradio runs at once. Not first come, first served behind `score_concurrency`: a visitor
        holds at most two of these while their costly files take turns (webapp.fair_queue)."""
        return max(self.browse_concurrency, 4 * self.score_concurrency)

    def data_root(self) -> Path:
        """The directory questions, videos and subtitles are read from (for `allowed_paths`)."""
        if self.data_dir is not None:
            return Path(self.data_dir).resolve()
        env = os.environ.get("MATHREEL_DATA")
        if env:
            return Path(env).resolve()
        from mathreel.core.data import demo_dir

        return demo_dir().resolve()


# Environment variable -> Settings field. Host and port use Gradio's own variable names.
ENV: dict[str, str] = {
    "GRADIO_SERVER_NAME": "host",
    "GRADIO_SERVER_PORT": "port",
    "MATHREEL_MAX_FILE_SIZE": "max_file_size",
    "MATHREEL_CACHE_SECONDS": "cache_seconds",
    "MATHREEL_BROWSE_CONCURRENCY": "browse_concurrency",
    "MATHREEL_SCORE_CONCURRENCY": "score_concurrency",
    "MATHREEL_SCORE_SECONDS": "score_seconds",
    "MATHREEL_SCORE_MEMORY_MB": "score_memory_mb",
    "MATHREEL_BUNDLE_SECONDS": "bundle_seconds",
    "MATHREEL_ASK_CONCURRENCY": "ask_concurrency",
    "MATHREEL_JUDGE_CONCURRENCY": "judge_concurrency",
    "MATHREEL_QUEUE_SIZE": "queue_size",
    "MATHREEL_KEEP_DAYS": "keep_days",
    "MATHREEL_KEEP_FILES": "keep_files",
    "MATHREEL_KEEP_MB": "keep_mb",
    "MATHREEL_PROXY_HOPS": "proxy_hops",
}
_FIELD_TYPES = {f.name: str(f.type) for f in fields(Settings)}


def _positive(name: str, value: str) -> int:
    """A positive whole number, or an error naming the variable (never a traceback)."""
    from mathreel.core.errors import InputError

    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise InputError(name, f"expected a positive whole number, got {value!r}")
    return number
