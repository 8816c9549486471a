"""Output files MathReel writes, under one rule: checked before anything is touched, written atomically, and never
over anything MathReel did not write.

A user's `--out` may name anything: a directory, a FIFO (opening it blocks forever), a device such as /dev/full,
a symbolic link (writing through it changes its target), their notes, their CSV, or the very file being read.
`output_path` refuses all of these with one line, only stat-ing the path and reading a bounded prefix, so a
refused path is left exactly as it was; an existing file is replaced only when it is recognisably an earlier
output of the same kind (`OutputKind`, each kind's recogniser lives beside the code that writes it) and is none of
the command's inputs. Whole files are written to a temporary file beside the target and renamed into place, so a
crash or a full disk never leaves half a file where a good one was (`write_output`, `write_atomic`).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from mathreel.core.errors import InputError

_HEAD_BYTES = 1024 * 1024  # what a recogniser sees of an existing file: its first line, or the first MiB


@dataclass(frozen=True)
class OutputKind:
    """A kind of file MathReel writes, and how to tell an earlier one from someone else's file: `recognise` gets
    the existing file's first bytes (at most 1 MiB) and says whether MathReel wrote them."""

    description: str  # "a `mathreel judge` output file"
    recognise: Callable[[bytes], bool]


def output_path(
    path: str | os.PathLike[str], flag: str, *, kind: OutputKind, inputs: Iterable[str | os.PathLike[str]] = ()
) -> Path:
    """`path` if MathReel may write it: a new name in a folder, an empty file, or an earlier output of `kind`.

    Refuses, with one line naming `flag`: a symbolic link (even one pointing nowhere), a directory, a FIFO, socket
    or device, any of `inputs` (compared by device and inode, so another spelling or a hard link is caught too),
    and a non-empty file `kind` does not recognise as MathReel's own.
    """
    target = Path(path)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise InputError(str(target), f"cannot use as {flag} ({error.strerror})") from None
    if info is not None:
        _check_existing(target, info, flag, kind, inputs)
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise InputError(str(target), f"{parent} is not a directory; give {flag} a file name in a folder")
    return target


def _check_existing(
    target: Path, info: os.stat_result, flag: str, kind: OutputKind, inputs: Iterable[str | os.PathLike[str]]
) -> None:
    try:
        pointed = os.stat(target)  # through a link: an output that is an input, however spelled, says so first
    except OSError:
        pointed = info
    for source in inputs:
        if _same_file(pointed, source):
            raise InputError(str(target), f"is also the input {source}; give {flag} another file name")
    if stat.S_ISLNK(info.st_mode):
        raise InputError(
            str(target),
            f"is a symbolic link; MathReel writes no file through or over a link, so give {flag} the real path",
        )
    if stat.S_ISDIR(info.st_mode):
        raise InputError(str(target), f"is a directory; give {flag} a file name")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(str(target), f"is not a regular file (a FIFO, socket or device); give {flag} a file name")
    if info.st_size and not kind.recognise(_head(target)):
        raise InputError(
            str(target),
            f"exists and is not {kind.description}; MathReel replaces only its own files, so pick another {flag}",
        )


def _head(path: Path) -> bytes:
    """The first bytes of a regular file, opened without following a link or waiting on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        return handle.read(_HEAD_BYTES)


def _same_file(info: os.stat_result, other: str | os.PathLike[str]) -> bool:
    try:
        theirs = os.stat(other)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == (theirs.st_dev, theirs.st_ino)


def first_line(head: bytes) -> bytes:
    """The first line of a file's first bytes (a recogniser's usual evidence)."""
    return head.splitlines()[0] if head.strip() else b""


def first_json_line(head: bytes, start: re.Pattern[bytes]) -> dict[str, Any] | None:
    """The first line of a JSON Lines file as an object: parsed whole when the head holds it; else (a line longer
    than the head, such as a long reply) the fields `start` matches at the line's beginning, each named group
    holding that field's JSON value. None when neither reads."""
    line = first_line(head)
    try:
        data = json.loads(line.decode("utf-8"))
        return data if isinstance(data, dict) else None
    except (ValueError, RecursionError):
        pass
    match = start.match(line)
    if match is None:
        return None
    try:
        return {key: json.loads(value) for key, value in match.groupdict().items()}
    except ValueError:
        return None


def write_output(
    path: str | os.PathLike[str],
    write: Callable[[TextIO], object],
    *,
    flag: str,
    kind: OutputKind,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """`output_path`'s checks, then `write_atomic`: the one way a command writes a whole output file."""
    return write_atomic(output_path(path, flag, kind=kind, inputs=inputs), write)


def write_text_output(
    path: str | os.PathLike[str],
    text: str,
    *,
    flag: str,
    kind: OutputKind,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """`write_output` for a text already in memory."""
    return write_output(path, lambda out: out.write(text), flag=flag, kind=kind, inputs=inputs)


def write_atomic(path: str | os.PathLike[str], write: Callable[[TextIO], object]) -> Path:
    """Call `write` on a temporary text file beside `path`, then rename it over `path` (same folder, same disk)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        if target.is_file() and not target.is_symlink():  # keep the owner's permissions, not mkstemp's 0600
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
