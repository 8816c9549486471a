"""Files behind the Score tab's download buttons (and server files handed to the page), in a folder private to this
server process.

The folder comes from `tempfile.mkdtemp` (a fresh name, mode 0700), never a fixed path under $TMPDIR that another
user of the host could create first or fill with symlinks. Pruning by age looks at entries with lstat, removes
only real directories (shutil.rmtree removes links inside them without following them), and a failure to prune
is logged, never shown: a download must not fail because an old file could not be removed.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger("mathreel.webapp")


class Downloads:
    """Per-request files for the download buttons; each in its own random sub-folder of one private folder."""

    def __init__(self, max_age: int) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="mathreel-downloads-"))
        self.max_age = max_age

    def fresh(self) -> Path:
        """A new private sub-folder (older ones pruned)."""
        self.prune()
        folder = self.root / uuid.uuid4().hex
        folder.mkdir(mode=0o700)
        return folder

    def hand_over(self, files: Sequence[tuple[str | Path, str]]) -> list[str]:
        """Copies of server files ((path, name)) that the page may be given, e.g. as an upload box's value: Gradio
        serves only files of its own folders and the temporary one, and copies them into its cache. Linked rather
        than copied where the file system allows."""
        folder = self.fresh()
        handed = []
        for path, name in files:
            target = folder / uuid.uuid4().hex[:8] / (Path(name).name or "file")
            target.parent.mkdir(mode=0o700)
            try:
                os.link(path, target)
            except OSError:
                shutil.copyfile(path, target)
            handed.append(str(target))
        return handed

    def write(self, run: Any) -> tuple[str, str]:
        """The scored rows as CSV and the summary JSON (the `mathreel score --json` object) of one run."""
        folder = self.fresh()
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(run.name).stem) or "run"
        csv_path = folder / f"{stem}-scored.csv"
        json_path = folder / f"{stem}-summary.json"
        csv_path.write_text(run.report.rows_csv(), encoding="utf-8", newline="")
        json_path.write_text(json.dumps(run.report.to_dict(), indent=2, ensure_ascii=False), encoding="utf-8")
        return str(csv_path), str(json_path)

    def prune(self) -> None:
        """Remove sub-folders older than max_age. Links and files are never followed; errors are only logged."""
        from mathreel.core.cache import prune_folders

        for name, error in prune_folders(self.root, self.max_age):
            log.warning("old download %s not removed: %s", name, error)
