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


def prune_folders(root: Path, max_age: float) -> list[tuple[str, OSError]]:
    """Remove the folders directly under `root` not modified for `max_age` seconds. Only real folders: links and
    files are never followed or removed (shutil.rmtree removes links inside a folder without following them).
    Returns the (name, error) of each that could not be removed; a `root` that cannot be read removes nothing."""
    import shutil
    import stat
    import time

    cutoff = time.time() - max_age
    try:
        entries = list(os.scandir(root))
    except OSError as error:
        return [(str(root), error)]
    failed = []
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode) and info.st_mtime < cutoff:
                shutil.rmtree(entry.path)
        except OSError as error:
            failed.append((entry.name, error))
    return failed
