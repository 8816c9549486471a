"""Output files MathReel writes: checked before anything is touched, written atomically, never over an input.

A user's `--out` may name anything: a directory, a FIFO (opening it blocks forever), a device such as /dev/full,
their notes, or the very file being read. Every check here only stats the path or reads a bounded prefix, so a
refused path is left exactly as it was; whole files are written to a temporary file beside the target and renamed
into place, so a crash or a full disk never leaves half a file where a good one was.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from mathreel.core.errors import InputError


def output_path(path: str | os.PathLike[str], flag: str, *, inputs: tuple[str | os.PathLike[str], ...] = ()) -> Path:
    """`path` if it may be written: an existing regular file or a new name in an existing folder.

    Refuses, with one line naming `flag`, a directory, a FIFO, socket or device, and any of `inputs` (compared by
    device and inode, so a symlink or a relative spelling of an input is caught too).
    """
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise InputError(str(target), f"cannot use as {flag} ({error.strerror})") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise InputError(str(target), f"is a directory; give {flag} a file name")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(str(target), f"is not a regular file (a FIFO, socket or device); give {flag} a file name")
        for source in inputs:
            if _same_file(info, source):
                raise InputError(str(target), f"is also the input {source}; give {flag} another file name")
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise InputError(str(target), f"{parent} is not a directory; give {flag} a file name in a folder")
    return target


def _same_file(info: os.stat_result, other: str | os.PathLike[str]) -> bool:
    try:
        theirs = os.stat(other)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == (theirs.st_dev, theirs.st_ino)


def write_atomic(path: str | os.PathLike[str], write: Callable[[TextIO], None]) -> Path:
    """Call `write` on a temporary text file beside `path`, then rename it over `path` (same folder, same disk)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():  # keep the owner's permissions, not mkstemp's 0600
            os.chmod(temp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


def replace_with_prefix(path: Path, keep: int) -> None:
    """Replace `path` atomically by its first `keep` bytes plus a newline if they lack one (a resume repair)."""
    def copy(out: TextIO) -> None:
        with path.open("rb") as source:
            remaining = keep
            while remaining > 0:
                chunk = source.read(min(remaining, 1 << 20))
                if not chunk:
                    break
                out.buffer.write(chunk)
                remaining -= len(chunk)
        if keep and not _ends_with_newline(path, keep):
            out.buffer.write(b"\n")

    write_atomic(path, copy)


def _ends_with_newline(path: Path, keep: int) -> bool:
    with path.open("rb") as source:
        source.seek(keep - 1)
        return source.read(1) == b"\n"


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """`write_atomic` for a text already in memory."""
    return write_atomic(path, lambda out: out.write(text))


