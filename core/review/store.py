"""The operator's reviews folder (MATHREEL_REVIEWS_DIR): each visitor session's reviews kept on the server too,
one file per reviewer, and bounded.

Two reviewers never share a file: a file is named by a readable part of the session and of the reviewer's name
and by a digest of the exact names, so "Anna K" and "Anna/K" (the same once cleaned for a file name) get files of
their own, and a file is replaced only when its first line is a review by that very reviewer. One session writes
at most `MAX_FILES_PER_SESSION` files (an uploaded review file of 3,000 reviewers once made 3,001 files in one
click): the reviewer who is reviewing comes first, then reviewers whose files exist already, then the others by
number of reviews; the rest stay in the session (and its download) only, and `Kept.left_out` names them. The
folder holds at most `MAX_SESSIONS` session folders.

    folder/<session part>-<digest>/<reviewer part>-<digest>.jsonl
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from mathreel.core.errors import MathReelError
from mathreel.core.files import OutputKind
from mathreel.core.review.io import is_review_file, write_reviews
from mathreel.core.review.model import Review

MAX_FILES_PER_SESSION = 16
MAX_SESSIONS = 10_000
_READABLE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass
class Kept:
    """What one save put in the folder: the files written, and the reviewers left in the session only."""

    written: list[Path] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def name_key(name: str, width: int = 40) -> str:
    """A file-name part for `name`: letters, digits, dash and underscore (at most `width`), then a digest of the
    exact name, so two names that clean up alike still differ."""
    readable = _READABLE.sub("-", name).strip("-")[:width] or "x"
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{readable}-{digest}"


def keep_reviews(
    folder: str | os.PathLike[str], session: str, reviews: Sequence[Review], active: str | None = None
) -> Kept:
    """Write the session's reviews to `folder`, one file per reviewer, within the bounds in the module docstring;
    `active` is the reviewer who is reviewing now (always kept first). MathReelError when the folder cannot take
    the session (full of sessions, or a session folder that is not a real directory)."""
    by_reviewer: dict[str, list[Review]] = {}
    for review in reviews:
        by_reviewer.setdefault(review.reviewer, []).append(review)
    kept = Kept()
    if not by_reviewer:
        return kept
    home = _session_folder(Path(folder), session or "local")
    counts = Counter({name: len(items) for name, items in by_reviewer.items()})
    existing = {name for name in by_reviewer if (home / f"{name_key(name)}.jsonl").exists()}
    order = sorted(by_reviewer, key=lambda name: (name != active, name not in existing, -counts[name], name))
    room = MAX_FILES_PER_SESSION - _other_files(home, {f"{name_key(name)}.jsonl" for name in by_reviewer})
    for name in order:
        if room <= 0:
            kept.left_out.append(name)
            continue
        kind = OutputKind(f"a review file of reviewer {name!r}", partial(is_review_file, reviewer=name))
        kept.written.append(write_reviews(home / f"{name_key(name)}.jsonl", by_reviewer[name], kind=kind))
        room -= 1
    return kept


def _session_folder(folder: Path, session: str) -> Path:
    home = folder / name_key(session)
    try:
        info = os.lstat(home)
    except FileNotFoundError:
        info = None
    if info is not None:
        if not stat.S_ISDIR(info.st_mode):
            raise MathReelError(
                f"{home} is not a plain folder (a link or a file); reviews are kept in the session only"
            )
        return home
    folder.mkdir(parents=True, exist_ok=True)
    with os.scandir(folder) as entries:
        if sum(1 for _ in zip(range(MAX_SESSIONS), entries, strict=False)) >= MAX_SESSIONS:
            raise MathReelError(
                f"the reviews folder {folder} holds {MAX_SESSIONS:,} sessions already; reviews are "
                "kept in the session only"
            )
    home.mkdir(exist_ok=True)
    return home


def _other_files(home: Path, mine: set[str]) -> int:
    """Files in the session folder that belong to reviewers not in this save (they count against the bound)."""
    with os.scandir(home) as entries:
        return sum(1 for entry in entries if entry.name.endswith(".jsonl") and entry.name not in mine)
