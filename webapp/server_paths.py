"""No server path reaches the page or a download: where a message or a note names a place on the server (an upload's
temporary file, the dataset folder, the cache), the visitor reads what they know it as instead: the file's own name,
"the server's dataset", a path inside the dataset.

Core's messages name the files they read, which is right on the command line (the user typed the path) and wrong
in a page (the path is the server's business, and a temporary upload path means nothing to the visitor).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mathreel.webapp.settings import Settings

# A path runs to the next space, quote, bracket, colon or separator a message puts after it.
_TAIL = r"((?:/[^\s'\"()\[\],;:]*)?)"


@dataclass(frozen=True)
class ServerPaths:
    """The server's folders a text may name: `named` (folder, what the page calls it), `uploads`, folders of
    temporary files that the page names by their file name alone, and `files` the page knows by another name."""

    named: tuple[tuple[str, str], ...]
    uploads: tuple[str, ...]
    files: tuple[tuple[str, str], ...] = ()  # (a file's path, the name the visitor knows it by)

    @classmethod
    def of(cls, settings: Settings | None = None) -> ServerPaths:
        """The folders of this server: its dataset, the demo set and assets, the cache, the temporary folders."""
        import os

        from mathreel.core.data import assets_dir, cache_base, demo_dir
        from mathreel.webapp.settings import Settings

        data_root = (settings or Settings()).data_root()
        named = [
            (data_root, "the server's dataset"),
            (demo_dir(), "the demo set"),
            (assets_dir(), "the app's assets"),
            (cache_base(), "the server's cache"),
        ]
        temp = [Path(tempfile.gettempdir())]
        if os.environ.get("GRADIO_TEMP_DIR"):
            temp.insert(0, Path(os.environ["GRADIO_TEMP_DIR"]))
        return cls(
            tuple((spelling, label) for folder, label in named for spelling in _spellings(folder)),
            tuple(spelling for folder in temp for spelling in _spellings(folder)),
        )

    def with_file(self, path: str, name: str) -> ServerPaths:
        """These folders, and one more file: an upload at `path` that the visitor knows as `name` (a name with
        spaces, which a pattern would cut short)."""
        return ServerPaths(self.named, self.uploads, ((str(path), name), *self.files))

    @cached_property
    def _patterns(self) -> list[tuple[re.Pattern[str], str | None]]:
        """(pattern, label) longest folder first, so a folder inside another is named by the inner one; label None:
        an upload folder (the file's name is kept)."""
        every: list[tuple[str, str | None]] = [*self.named, *((folder, None) for folder in self.uploads)]
        folders = [(folder.rstrip("/"), label) for folder, label in every if folder.rstrip("/")]  # never "/"
        folders.sort(key=lambda pair: len(pair[0]), reverse=True)
        return [(re.compile(re.escape(folder) + _TAIL), label) for folder, label in folders]

    def scrub(self, text: str) -> str:
        """`text` with every server path replaced by what the visitor knows it as."""
        if "/" not in text:
            return text
        for path, name in self.files:
            text = text.replace(path, name)
        for pattern, label in self._patterns:
            text = pattern.sub(partial(_shown_match, label), text)
        return text


def _shown_match(label: str | None, match: re.Match[str]) -> str:
    return _shown(match.group(1), label)


def _shown(tail: str, label: str | None) -> str:
    """A matched path as the page shows it: an upload by its file name; a named folder by its label, with the path
    inside it in brackets. A sentence's full stop after the path stays a full stop."""
    stop = "." if tail.endswith(".") else ""
    inner = tail.removesuffix(stop).strip("/")
    if label is None:
        return (Path(inner).name or "an uploaded file") + stop
    return (f"{label} ({inner})" if inner else label) + stop


def _spellings(folder: Path) -> list[str]:
    """The folder as given and as resolved (a symlinked temp folder is named either way)."""
    given = str(Path(folder).expanduser().absolute())
    try:
        resolved = str(Path(folder).expanduser().resolve())
    except OSError:
        resolved = given
    return sorted({given, resolved})
