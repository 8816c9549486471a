"""The one bounded reader for every file a user gives MathReel: datasets, result files, judgments, reviews.

Checked before a byte is read: regular files only (a FIFO blocks, a device never ends, a directory is no file)
and a size limit (`MATHREEL_MAX_INPUT_MB`). Read with bounds: lines end at LF, CRLF or a lone CR and nowhere else
(a reply may hold U+2028 or U+0085, which JSON allows raw inside strings and `str.splitlines` would split on), each
line bounded, a NUL refused (binary data or damage), and JSON nested too deeply refused instead of crashing. Every
refusal is one InputError naming the file, the line and the problem.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from mathreel.core.errors import InputError

LIMIT_ENV = "MATHREEL_MAX_INPUT_MB"
_DEFAULT_LIMIT_MB = 512
_FILE_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
# A longest line read line by line. A run line holds one model reply and the question; replies are capped by
# --max-tokens, so 64 MiB is far beyond any real line while keeping a hostile file's cost bounded.
MAX_LINE_BYTES = 64 * 1024 * 1024
_READ_CHUNK = 1024 * 1024
_ANY_LINE_END = re.compile(r"\r\n?|\n")


def input_limit() -> int:
    """The largest input file in bytes (MATHREEL_MAX_INPUT_MB, default 512)."""
    raw = os.environ.get(LIMIT_ENV, "").strip()
    try:
        megabytes = float(raw) if raw else _DEFAULT_LIMIT_MB
    except ValueError:
        raise InputError(LIMIT_ENV, f"not a number of megabytes: {raw!r}") from None
    if not megabytes > 0:
        raise InputError(LIMIT_ENV, f"must be a positive number of megabytes, not {raw!r}")
    return int(megabytes * 1024 * 1024)


def open_input(path: str | os.PathLike[str], what: str = "result file") -> tuple[BinaryIO, int]:
    """An open regular file and its size, checked before a byte is read: FIFOs, devices, sockets and directories
    are refused (reading them hangs or never ends), and so is a file over the size limit."""
    source = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # non-blocking: opening a FIFO must not wait for a writer
    except IsADirectoryError:
        raise InputError(source, f"is a directory, not a {what}") from None
    except OSError as error:
        raise InputError(source, f"cannot read the file ({error.strerror or error})") from None
    try:
        info = os.fstat(fd)
        _check_kind_and_size(info, source, what)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    handle = os.fdopen(fd, "rb")
    return handle, info.st_size


def _check_kind_and_size(info: os.stat_result, source: str, what: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise InputError(source, f"is a directory, not a {what}")
    for test, kind in _FILE_KINDS:
        if test(info.st_mode):
            raise InputError(source, f"is {kind}, not a regular file; MathReel reads only regular files")
    limit = input_limit()
    if info.st_size > limit:
        raise InputError(
            source,
            f"is {info.st_size / 2**20:.0f} MB, over the {limit / 2**20:.0f} MB input "
            f"limit; raise it with {LIMIT_ENV}=<megabytes>",
        )


# A parquet file is decoded whole (pyarrow, then Python values), and a decoded cell costs about 100 bytes of
# memory whatever its size on disk (a repeated value compresses to nothing): a file may decode to one cell per 100
# bytes of the input size limit (5.4 million at the default 512 MB), which its footer tells before a page is read.
_BYTES_PER_CELL = 100


def parquet_cells_limit() -> int:
    """The most cells (rows x columns) a parquet file may decode to; follows the input size limit."""
    return input_limit() // _BYTES_PER_CELL


def parquet_records(path: str | Path, what: str = "result file") -> list[dict[str, Any]]:
    """The rows of a parquet file as Python records, its footer checked first: a small file can declare millions
    of rows of repeated values that decode to gigabytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    source = str(path)
    try:
        meta = pq.read_metadata(path)
        cells, limit = meta.num_rows * meta.num_columns, parquet_cells_limit()
        if cells > limit:
            raise InputError(
                source,
                f"the {what} decodes to {cells:,} cells ({meta.num_rows:,} rows x "
                f"{meta.num_columns:,} columns), over the limit of {limit:,}; raise it with "
                f"{LIMIT_ENV}=<megabytes>",
            )
        return pq.read_table(path).to_pylist()
    except InputError:
        raise
    except (pa.ArrowException, OSError, ValueError, TypeError, KeyError) as error:  # pyarrow's many types
        raise InputError(source, f"unreadable parquet file ({error})") from None


def refuse_nul(text: str, source: str, first_line: int = 1) -> None:
    """A NUL character anywhere in a text file means binary data or damage; JSON escapes it as \\u0000."""
    index = text.find("\x00")
    if index != -1:
        line = first_line + len(_ANY_LINE_END.findall(text, 0, index))
        raise InputError(source, "NUL byte in a text file (binary data or a damaged file)", f"line {line}")


def lines_of(text: str) -> list[str]:
    """Lines ending at LF, CRLF or a lone CR (old Mac files and some exporters write CR only). Never split on
    U+2028, U+2029 or U+0085, which JSON allows raw inside strings and `str.splitlines` would split on; a raw CR
    cannot be inside a JSON string, so a lone CR always ends a line."""
    if "\r" not in text:
        return text.split("\n")
    return _ANY_LINE_END.split(text)


def bounded_lines(handle: BinaryIO, source: str, limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, line with its line end, whether it had one) for each line; lines end at LF, CRLF or a lone CR
    (`bytes.splitlines`, which knows only these). The file is read in chunks, and a line over `limit` bytes is
    refused as soon as it passes the limit, so memory stays within a chunk plus one line."""
    for first, lines, last_ended in bounded_line_runs(handle, source, limit):
        last = len(lines) - 1
        for offset, line in enumerate(lines):
            yield first + offset, line, offset < last or last_ended


def bounded_line_runs(
    handle: BinaryIO, source: str, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, list[bytes], bool]]:
    """`bounded_lines` a chunk at a time: (number of the first line, the lines with their line ends, whether the
    last one had one), for a reader that handles a chunk's lines together. Lines before a line over `limit` are
    given before it is refused, as `bounded_lines` gives them."""
    number = 0
    parts: list[bytes] = []  # the unfinished line, in pieces (joined only once its end arrives)
    held = 0
    while chunk := handle.read(_READ_CHUNK):
        if b"\n" not in chunk and b"\r" not in chunk:
            parts.append(chunk)
            held += len(chunk)
            if held > limit:
                raise InputError(source, f"a line is longer than {limit // (1024 * 1024)} MiB", f"line {number + 1}")
            continue
        lines = (b"".join(parts) + chunk if parts else chunk).splitlines(keepends=True)
        tail = lines.pop() if not lines[-1].endswith(b"\n") else b""  # a CR at the end may be half a CRLF
        if lines and max(map(len, lines)) > limit:
            long = next(i for i, line in enumerate(lines) if len(line) > limit)
            if long:
                yield number + 1, lines[:long], True
            raise InputError(source, f"a line is longer than {limit // (1024 * 1024)} MiB", f"line {number + long + 1}")
        if lines:
            yield number + 1, lines, True
        number += len(lines)
        parts, held = ([tail], len(tail)) if tail else ([], 0)
    if parts:
        line = b"".join(parts)
        number += 1
        if len(line) > limit:
            raise InputError(source, f"a line is longer than {limit // (1024 * 1024)} MiB", f"line {number}")
        yield number, [line], line.endswith((b"\n", b"\r"))


def jsonl_values(path: str | os.PathLike[str], what: str) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for each non-blank line of a JSONL file MathReel or a user wrote.

    Lines end at LF, CRLF or a lone CR only: a reply may hold U+2028 or U+0085, which JSON allows raw inside
    strings and which `str.splitlines` would treat as line ends. Each line is bounded, and FIFOs and devices are
    refused unread.
    """
    source = str(path)
    handle, _ = open_input(path, what)
    with handle:
        yield from parsed_lines((raw for _, raw, _ in bounded_lines(handle, source)), source, what)


def jsonl_text_values(text: str, source: str, what: str) -> Iterator[tuple[int, Any]]:
    """`jsonl_values` for text already in memory (an upload), with the same line ends."""
    yield from parsed_lines((line.encode("utf-8") for line in lines_of(text)), source, what)


def parsed_lines(lines: Iterable[bytes], source: str, what: str) -> Iterator[tuple[int, Any]]:
    """Parse each non-blank line as JSON; a bad line raises InputError naming `source`, the line and the problem."""
    for number, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")  # a BOM, as Notepad writes, is allowed
        except UnicodeDecodeError:
            raise InputError(source, f"not UTF-8 text (is this a {what}?)", f"line {number}") from None
        if not line.strip():
            continue
        refuse_nul(line, source, number)
        try:
            yield number, json.loads(line)
        except UnicodeDecodeError:
            raise InputError(source, f"not UTF-8 text (is this a {what}?)", f"line {number}") from None
        except (ValueError, RecursionError) as error:
            problem = str(error) if isinstance(error, ValueError) else "nested too deeply"
            raise InputError(source, f"not JSON ({problem})", f"line {number}") from None
