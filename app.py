"""Hugging Face Space entry point: `python app.py` serves MathReel on 0.0.0.0:7860, configured by the environment.

Spaces run this file from the repository folder, so `core` and `webapp` are imported from beside it and the demo
set is found in `assets/demo` without installing the package (requirements.txt holds the dependencies only).
Every setting is an environment variable (a Space's "Variables and secrets"); see ENV below and the README.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webapp.settings import Settings

# Environment variable -> (Settings field, kind). Host and port use Gradio's own variable names.
ENV: dict[str, tuple[str, str]] = {
    "GRADIO_SERVER_NAME": ("host", "text"),
    "GRADIO_SERVER_PORT": ("port", "count"),
    "MATHREEL_MAX_FILE_SIZE": ("max_file_size", "text"),
    "MATHREEL_CACHE_SECONDS": ("cache_seconds", "count"),
    "MATHREEL_BROWSE_CONCURRENCY": ("browse_concurrency", "count"),
    "MATHREEL_SCORE_CONCURRENCY": ("score_concurrency", "count"),
    "MATHREEL_QUEUE_SIZE": ("queue_size", "count"),
}
SPACE_DEFAULTS = {"host": "0.0.0.0", "port": 7860}


def _count(name: str, value: str) -> int:
    """A positive whole number, or an error naming the variable (never a traceback)."""
    from core.errors import InputError

    try:
        number = int(value.strip())
    except ValueError:
        number = 0
    if number < 1:
        raise InputError(name, f"expected a positive whole number, got {value!r}")
    return number


def settings_from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings for a hosted app: Space defaults (0.0.0.0:7860), overridden by the variables in ENV.

    MATHREEL_DATA, MATHREEL_CACHE and MATHREEL_ASSETS are read by core itself; they are checked here so a
    wrong path stops the start with one line instead of failing on every page.
    """
    from core.errors import InputError
    from webapp.settings import Settings

    environ = os.environ if environ is None else environ
    values: dict[str, object] = dict(SPACE_DEFAULTS)
    for name, (field, kind) in ENV.items():
        raw = environ.get(name, "").strip()
        if raw:
            values[field] = _count(name, raw) if kind == "count" else raw
    data = environ.get("MATHREEL_DATA", "").strip()
    if data and not data.startswith("hf:") and not Path(data).expanduser().is_dir():
        raise InputError(data, "MATHREEL_DATA is not a directory")
    return Settings(**values)


def main() -> int:
    """Build the app from the environment and serve it until stopped."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    from core.errors import MathReelError

    try:
        settings = settings_from_env()
    except MathReelError as error:
        print(f"mathreel: {error}", file=sys.stderr)
        return 2
    from webapp.app import launch

    launch(settings, block=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
