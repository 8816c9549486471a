"""The one rule for question ids that several rows share (multi-binary pairs, or a file that repeats a question).

The k-th row (k from 1, in file order) of an id that repeats is `id#k`. A result file's rows and a dataset's
questions are joined by that key; the first row may also go by the bare id (`join_key`), which is how a result
file names it and what `Dataset.question` resolves to the first pair. Outside grouped modes a repeated id is a
duplicate: the first occurrence is scored and the rest are reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

PAIR_SEPARATOR = "#"  # "q001#2": the second row of a question whose rows share one question_id


def occurrence_id(qid: str, occurrence: int) -> str:
    """The handle of the `occurrence`-th row of a repeated id ("q1#2")."""
    return f"{qid}{PAIR_SEPARATOR}{occurrence}"


def join_key(qid: str, occurrence: int) -> str:
    """The key a row joins by: the bare id for the first occurrence, `id#k` for later ones."""
    return qid if occurrence == 1 else occurrence_id(qid, occurrence)


def occurrences(ids: Iterable[str]) -> Iterator[int]:
    """Which occurrence of its id each id is (1 for the first), in order."""
    seen: dict[str, int] = {}
    for qid in ids:
        count = seen[qid] = seen.get(qid, 0) + 1
        yield count


def keyed(ids: Iterable[str]) -> Iterator[tuple[str, int]]:
    """(join key, occurrence) per id: the first occurrence keeps the id, later ones become `id#2`, `id#3`."""
    listed = list(ids)
    for qid, count in zip(listed, occurrences(listed), strict=True):
        yield join_key(qid, count), count
