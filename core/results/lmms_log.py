"""What an lmms-eval sample log says about itself beyond its answers: line order, `doc_hash`, raw replies.

Since lmms-eval 0.7 a line keeps `filtered_resps` (the reply with its `<think>` blocks removed, flattened to a
string) and `resps` (the raw reply) only when the two differ; `doc_hash` is the SHA-256 of the document the question
was built from (of `null` when the run kept no document); a multi-process run writes its lines rank by rank, not in
`doc_id` order. These notes say which of that a file shows, and `doc_hash_conflicts` uses the hashes to check that
two runs asked the same documents before their answers are compared question by question.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from mathreel.core.plural import counted
from mathreel.core.results.model import Prediction, ResultFile

NULL_DOC_HASH = hashlib.sha256(b"null").hexdigest()  # json.dumps(None): the run kept no document
_SHOWN = 10


def doc_hash(prediction: Prediction) -> str | None:
    """The line's `doc_hash` when it names a document (not the hash of null)."""
    value = prediction.raw.get("doc_hash") if isinstance(prediction.raw, dict) else None
    return value if isinstance(value, str) and value and value != NULL_DOC_HASH else None


def log_notes(records: Sequence[dict[str, Any]], predictions: Sequence[Prediction]) -> list[str]:
    """Notes on line order, document hashes and raw replies kept beside the filtered answers."""
    return record_notes(records) + reply_notes(predictions)


def record_notes(records: Sequence[dict[str, Any]]) -> list[str]:
    """The notes the records alone tell (line order, document hashes): taken before the reader lets them go."""
    notes = []
    doc_ids = [doc_id for record in records if isinstance(doc_id := record.get("doc_id"), int)]
    if any(after < before for before, after in pairwise(doc_ids)):
        notes.append(
            "lines are not in doc_id order (a multi-process run writes them rank by rank); questions are "
            "matched and grouped by their ids, never by line position"
        )
    hashes = {record.get("doc_hash") for record in records if "doc_hash" in record}
    if hashes == {NULL_DOC_HASH}:
        notes.append(
            "doc_hash is the hash of null on every line (the run kept no document): it cannot show "
            "whether two runs asked the same questions"
        )
    elif hashes:
        notes.append("doc_hash names each question's document, so two runs can be checked to have asked the same ones")
    return notes


def reply_notes(predictions: Sequence[Prediction]) -> list[str]:
    """The note on raw replies kept beside the filtered answers."""
    return kept_reply_notes(sum(1 for prediction in predictions if prediction.full_response is not None))


def kept_reply_notes(kept: int) -> list[str]:
    """`reply_notes` of a file whose `kept` answers keep their raw reply (a file read into columns counts them)."""
    if kept:
        return [
            f"{counted(kept, 'line')} {'keeps' if kept == 1 else 'keep'} the raw reply (resps, with its reasoning "
            "text) beside the filtered answer "
            "(filtered_resps), which is what is scored"
        ]
    return []


def doc_hash_conflicts(a: ResultFile, b: ResultFile) -> list[str]:
    """Question ids both runs answer from documents with different hashes (both named): not the same question.

    A plain file read into columns names no documents (a record with a `doc_hash` is read row by row): nothing to
    compare, and its Predictions are not built for it; an lmms-eval log read into columns builds them here."""
    for result in (a, b):
        columns = getattr(result, "columns", None)  # a `columnar.ColumnarResult` (which imports this module)
        if columns is not None and columns.prompts is None:
            return []
    first = {p.question.question_id: doc_hash(p) for p in a.predictions}
    if not any(first.values()):
        return []  # the first run names no documents
    conflicts = []
    for prediction in b.predictions:
        mine, theirs = first.get(prediction.question.question_id), doc_hash(prediction)
        if mine and theirs and mine != theirs:
            conflicts.append(prediction.question.question_id)
    return conflicts


def conflict_warning(conflicts: Sequence[str]) -> str | None:
    """The one-line warning for `doc_hash_conflicts`, or None."""
    if not conflicts:
        return None
    head = ", ".join(conflicts[:_SHOWN]) + (f" and {len(conflicts) - _SHOWN} more" if len(conflicts) > _SHOWN else "")
    return (
        f"{counted(len(conflicts), 'question')} {'was' if len(conflicts) == 1 else 'were'} built from different "
        "documents in the two runs (their doc_hash "
        f"differs), so their answers are not comparable: {head}"
    )
