"""No path of the machine that wrote a bundle goes into it: core's notes and warnings name the files they read
(right on the command line, wrong in a page anyone may open), so each is rewritten to the name the reader knows."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

# An absolute path (POSIX or a Windows drive) up to the next space, quote, bracket or separator.
_ANY_PATH = re.compile(r"(?:(?<=[\s'\"(\[=:])|^)(?:[A-Za-z]:\\|/|~/)[^\s'\"()\[\],;/]+(?:/[^\s'\"()\[\],;]*)?")


# Environment variables whose values are secrets (API keys, tokens): never written, wherever they turn up.
_SECRET_NAMES = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL", re.IGNORECASE)


@dataclass
class Scrubber:
    """Known folders and files (longest first) replaced by a label, secrets of the environment by "[secret]"; in
    MathReel's own messages (`__call__`) any other absolute path by its last part too."""

    known: list[tuple[str, str]] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, files: Iterable[str | None], folders: Iterable[tuple[str | os.PathLike[str] | None, str]]) -> Scrubber:
        known: list[tuple[str, str]] = []
        for path in files:
            if path:
                known += [(spelling, Path(path).name) for spelling in _spellings(path)]
                known += [(spelling, "…") for spelling in _spellings(Path(path).parent)]
        for folder, label in folders:
            if folder:
                known += [(spelling, label) for spelling in _spellings(folder)]
        known = [(path.rstrip("/\\"), label) for path, label in known if len(path.rstrip("/\\")) > 1]
        known.sort(key=lambda pair: len(pair[0]), reverse=True)
        secrets = sorted(
            {value for name, value in os.environ.items() if _SECRET_NAMES.search(name) and len(value.strip()) >= 8},
            key=len,
            reverse=True,
        )
        return cls(known, secrets)

    def text(self, text: str) -> str:
        """Any text bound for a page (a response, a note, a whole page): no known path, no secret."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, "[secret]")
        for path, label in self.known:
            if path in text:
                text = text.replace(path, label)
        return text

    def __call__(self, text: str) -> str:
        """One of MathReel's own messages: `text`, and every other absolute path shown by its last part."""
        return _ANY_PATH.sub(lambda match: _tail(match.group(0)), self.text(text))


def _tail(path: str) -> str:
    """A path shown by its last part only ("…/videos/q001.mp4" -> "q001.mp4")."""
    stop = "." if path.endswith(".") else ""
    parts = [part for part in re.split(r"[\\/]", path.removesuffix(stop)) if part and part != "~"]
    return (parts[-1] if parts else "") + stop


def _spellings(path: str | os.PathLike[str]) -> set[str]:
    """A path as given, absolute and resolved: a message may name it any of these ways."""
    given = str(path)
    spellings = {given, os.path.abspath(given)}
    with contextlib.suppress(OSError, RuntimeError):
        spellings.add(str(Path(given).expanduser().resolve()))
    return {s for s in spellings if s}
