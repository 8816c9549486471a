"""What reading and scoring an upload will cost, told from its size and container alone, before the work starts.

A server cannot run every upload in its own thread: a 2 KB workbook can describe a billion cells, a 50 MB JSON file
takes seconds. `upload_cost(path)` looks only at what is cheap to look at (the size, the first bytes, a ZIP's
central directory, a parquet footer) and says how much work the read will be, how long and how much memory it
should take, whether it is cheap enough to run inline, and, when a limit already refuses it, why. `Cost.budget()`
is the time and memory a worker should allow it before it is stopped.

The estimate covers reading the file and the rule-based scoring, which are linear in the bytes read (an xlsx's
inflated XML, a parquet file's uncompressed pages); the figures per megabyte are measured by
`bench/bench_upload_cost.py` and listed in bench/README.md. The letter reader's work also grows with the answer
phrases it weighs ("The answer is " repeated through a 3 MB response costs it about 2 s, against 0.45 s for 3 MB
of ordinary results; "the correct option is (B) " 1.3 s), so a text file small enough to run inline is also costed
by its count of the words the reader's statements start from ("answer", "option", "correct"), and the larger of
the two estimates counts. Free-form math answers have their own per-file budget in
the math-verify engine; a judge or an agreement over a review file is linear in the records (core.judge.parse,
core.review.agreement) and is estimated here from the file's bytes like any JSON Lines file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mathreel.core.errors import InputError
from mathreel.core.reading import open_input

Kind = Literal["json", "jsonl", "csv", "tsv", "parquet", "xlsx", "unknown"]
_HEAD = 64 * 1024
_MB = 1024 * 1024


@dataclass(frozen=True)
class _Rate:
    """CPU seconds and peak memory (MB) of reading and rule-scoring a file: fixed, plus per megabyte of work."""

    seconds: float
    seconds_per_mb: float
    memory_mb: float
    memory_per_mb: float


# Measured by bench/bench_upload_cost.py (Video-MME answers, 2,700 to 135,000 per file; bench/README.md), with a
# margin of about 1.5x. Work is the file's bytes for text, the inflated XML for xlsx, the uncompressed pages for
# parquet. pyarrow's own import (about 0.3 s and 70 MB, once per process, shared with the datasets) is not counted.
_RATES: dict[str, _Rate] = {
    "json": _Rate(0.05, 0.13, 5, 10),
    "jsonl": _Rate(0.05, 0.13, 5, 10),
    "unknown": _Rate(0.05, 0.13, 5, 10),
    "csv": _Rate(0.05, 0.18, 5, 14),
    "tsv": _Rate(0.05, 0.18, 5, 14),
    "parquet": _Rate(0.1, 0.23, 20, 26),
    "xlsx": _Rate(0.05, 0.2, 5, 8),
}
# CPU seconds the letter reader spends per "answer", "option" or "correct" in a text (measured: 5-9 us per word
# on responses made of answer phrases, `bench/bench_upload_cost.py --phrases`; with a margin), and the largest file
# whose words are counted (past it the bytes alone make a file costly).
SECONDS_PER_ANSWER_WORD = 10e-6
_COUNT_UP_TO = 8 * _MB
# Inline in a server thread at most this much; past it, a worker with a budget (and the visitor's own queue).
CHEAP_SECONDS = 0.5
CHEAP_MEMORY_MB = 100.0
# A budget allows this multiple of the estimate, and never less than the floor (a loaded machine is slower).
_BUDGET_FACTOR = 3.0
_BUDGET_FLOOR_SECONDS = 5.0
_BUDGET_FLOOR_MEMORY_MB = 256.0


@dataclass(frozen=True)
class Budget:
    """The CPU time and memory a worker gives one piece of work before stopping it."""

    seconds: float
    memory_mb: float


@dataclass(frozen=True)
class Cost:
    """The estimated cost of reading and scoring one upload."""

    source: str
    kind: Kind
    size_bytes: int  # on disk
    work_bytes: int  # what the read processes: the file's bytes, an xlsx's inflated XML, parquet's pages
    rows: int | None  # when the container says (parquet), else None
    seconds: float  # estimated CPU seconds
    memory_mb: float  # estimated peak memory added by the work
    refusal: str | None = None  # the one-line reason when a limit refuses the file anyway (no work is needed)

    @property
    def cheap(self) -> bool:
        """Cheap enough to run inline, in the caller's thread, with no budget."""
        return self.refusal is not None or (self.seconds <= CHEAP_SECONDS and self.memory_mb <= CHEAP_MEMORY_MB)

    def budget(self) -> Budget:
        """What a worker should allow this upload: a multiple of the estimate, with a floor."""
        return Budget(
            max(_BUDGET_FLOOR_SECONDS, _BUDGET_FACTOR * self.seconds),
            max(_BUDGET_FLOOR_MEMORY_MB, _BUDGET_FACTOR * self.memory_mb),
        )


def upload_cost(path: str | os.PathLike[str], what: str = "result file") -> Cost:
    """The cost of reading `path` (a result, judgments or review file), from its size and container only.

    Reads the first 64 KB and, for xlsx and parquet, the ZIP directory or the parquet footer; a text file of at
    most 8 MB is read whole, to count its answer phrases (`bytes.count`, milliseconds). A file the reader would
    refuse unread (a FIFO, a device, over the size limit) has `refusal` set and costs nothing."""
    source = str(path)
    try:
        handle, size = open_input(path, what)
    except InputError as error:
        return Cost(source, "unknown", 0, 0, None, 0.0, 0.0, refusal=str(error))
    with handle:
        head = handle.read(_HEAD)
        data = None
        if head[:4] == b"PK\x03\x04" and Path(source).suffix.lower() in (".xlsx", ".xlsm"):
            data = head + handle.read()  # the ZIP's directory is at its end
        kind = _kind(head, source)
        phrases = _answer_words(head + handle.read(_COUNT_UP_TO)) if kind in _TEXT and size <= _COUNT_UP_TO else 0
    work, rows, refusal = size, None, None
    if kind == "xlsx" and data is not None:
        work, refusal = _xlsx_work(data, source)
    elif kind == "parquet":
        work, rows, refusal = _parquet_work(path, size)
    if refusal is not None:
        return Cost(source, kind, size, work, rows, 0.0, 0.0, refusal)
    rate = _RATES[kind]
    seconds = rate.seconds + rate.seconds_per_mb * work / _MB
    seconds = max(seconds, rate.seconds + SECONDS_PER_ANSWER_WORD * phrases)
    memory = rate.memory_mb + rate.memory_per_mb * work / _MB
    return Cost(source, kind, size, work, rows, round(seconds, 3), round(memory, 1))


_TEXT = ("json", "jsonl", "csv", "tsv", "unknown")


_WORDS = (b"nswer", b"NSWER", b"ption", b"PTION", b"orrect", b"ORRECT")


def _answer_words(data: bytes) -> int:
    """How many times "answer", "option" or "correct" (in their usual cases) occur in `data`."""
    return sum(data.count(word) for word in _WORDS)


def _kind(head: bytes, source: str) -> Kind:
    suffix = Path(source).suffix.lower()
    if head[:4] == b"PAR1":
        return "parquet"
    if head[:4] == b"PK\x03\x04":
        return "xlsx" if suffix in (".xlsx", ".xlsm") else "unknown"
    if suffix in (".csv", ".tsv"):
        return "csv" if suffix == ".csv" else "tsv"
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if first == b"[":
        return "json"
    if first == b"{":
        return "jsonl" if b"\n" in head.strip() or suffix == ".jsonl" else "json"
    return "unknown"


def _xlsx_work(data: bytes, source: str) -> tuple[int, str | None]:
    """The XML a read would inflate, from the ZIP's directory; the refusal when a limit already forbids it."""
    from mathreel.core.results.xlsx import DEFAULT_LIMITS, xlsx_inflated_size, zip_member_count

    members = zip_member_count(data)
    if members is not None and members > DEFAULT_LIMITS.members:
        return 0, f"{source}: the ZIP holds {members:,} entries, more than a workbook's {DEFAULT_LIMITS.members:,}"
    sized = xlsx_inflated_size(data)
    if sized is None:
        return len(data), None  # unreadable: the reader says why, at the cost of reading the directory
    inflated, _ = sized
    if inflated > DEFAULT_LIMITS.inflated_bytes:
        return 0, (
            f"{source}: the workbook inflates to {inflated / _MB:,.0f} MB of XML, over the "
            f"{DEFAULT_LIMITS.inflated_bytes / _MB:.0f} MB limit"
        )
    return inflated, None


def _parquet_work(path: str | os.PathLike[str], size: int) -> tuple[int, int | None, str | None]:
    """Uncompressed bytes and rows from the footer (pyarrow reads only the footer); the refusal when the reader's
    limit on decoded cells already forbids the file."""
    from mathreel.core.reading import parquet_cells_limit

    try:
        import pyarrow.parquet as pq

        meta = pq.read_metadata(path)
        uncompressed = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    except Exception:  # pyarrow raises its own types for a damaged footer; the reader will name the problem
        return size, None, None
    cells, limit = meta.num_rows * meta.num_columns, parquet_cells_limit()
    if cells > limit:
        return (
            0,
            meta.num_rows,
            (
                f"{path}: the parquet file decodes to {cells:,} cells ({meta.num_rows:,} rows x "
                f"{meta.num_columns:,} columns), over the limit of {limit:,}"
            ),
        )
    return max(size, uncompressed), meta.num_rows, None
