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
_ANY_PATH = re.compile(r"(?:(?<=[\s'\"(\[=:])|^)(?:[A-Za-z]:\\|/|~/)[^\s'\"()\[\],;]*")


@dataclass
class Scrubber:
    """Known folders and files (longest first) replaced by a label; any other absolute path by its last part."""

    known: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def of(cls, files: Iterable[str | None], folders: Iterable[tuple[str | os.PathLike[str] | None, str]]) -> Scrubber:
        known: list[tuple[str, str]] = []
        for path in files:
            if path:
                known += [(spelling, Path(path).name) for spelling in _spellings(path)]
        for folder, label in folders:
            if folder:
                known += [(spelling, label) for spelling in _spellings(folder)]
        known = [(path.rstrip("/\\"), label) for path, label in known if len(path.rstrip("/\\")) > 1]
        known.sort(key=lambda pair: len(pair[0]), reverse=True)
        return cls(known)

    def __call__(self, text: str) -> str:
        for path, label in self.known:
            if path in text:
                text = text.replace(path, label)
        return _ANY_PATH.sub(lambda match: _tail(match.group(0)), text)


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
