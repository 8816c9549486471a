"""Where the repository's bundled files are (the demo set, the published reference results).

Its own module, beside `core.cache`, so that anything (a benchmark's published results included) can find the
assets without importing `core.data` and the benchmarks it loads.
"""

from __future__ import annotations

import os
from pathlib import Path

ASSETS_ENV = "MATHREEL_ASSETS"


def assets_dir() -> Path:
    """The repository's `assets/` folder, or `MATHREEL_ASSETS` when set (an installed app may move it)."""
    override = os.environ.get(ASSETS_ENV)
    if override:
        return Path(override).expanduser()
    return Path(__file__).resolve().parents[1] / "assets"
