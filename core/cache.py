"""The one cache folder every part of MathReel writes derived files under (frames, diagrams, judge replies).

`$MATHREEL_CACHE`, else `$XDG_CACHE_HOME/mathreel`, else `~/.cache/mathreel`. A relative `XDG_CACHE_HOME` is
ignored, as the XDG Base Directory specification asks, so the cache never depends on the working directory.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "MATHREEL_CACHE"


def cache_base() -> Path:
    """The cache base folder (see the module docstring for the order of precedence)."""
    override = os.environ.get(CACHE_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "mathreel"
    return Path.home() / ".cache" / "mathreel"

