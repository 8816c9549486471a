"""What the reading flow asks of scored runs: which questions a filter keeps (in file order), where runs disagree,
and where in a response its answer was read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathreel.core.scoring.report import Report
    from mathreel.core.scoring.row import ScoredRow

STATUS_LABELS: dict[str, str] = {
    "all": "questions",
    "not_correct": "wrong or unparsed",
    "wrong": "wrong",
    "unparsed": "unparsed",
    "missing": "missing",
    "correct": "correct",
    "to_check": "readings to check",
}
TO_CHECK = "to_check"  # the reading audit's list (`core.scoring.audit.check_reasons`), not a status
QUOTED = re.compile(r"""(?:read(?: the line)? )(['"])(.+?)\1""", re.DOTALL)


def status_matches(status: str, wanted: str) -> bool:
    """True when a row of `status` belongs under the filter `wanted` (a key of STATUS_LABELS)."""
    if wanted == "all":
        return True
    if wanted == "not_correct":
        return status in ("wrong", "unparsed")
    return status == wanted


def select_rows(
    report: Report, status: str = "all", dim_filter: str = "", only: set[str] | None = None
) -> list[ScoredRow]:
    """The rows a filter keeps, in file order: a status (or TO_CHECK), a "dimension=value", and optionally a set
    of ids."""
    if status == TO_CHECK:
        from mathreel.core.scoring.audit import check_reasons

        reasons = check_reasons(report)
        only = set(reasons) if only is None else only & set(reasons)
        status = "all"
    dim, _, value = dim_filter.partition("=")
    return [
        row
        for row in report.rows
        if status_matches(row.status, status)
        and (not dim or row.dims.get(dim) == value)
        and (only is None or row.question_id in only)
    ]


def verdict_of(row: ScoredRow) -> tuple[str, str | None]:
    """What decides whether two runs agree on a question: its status and the answer read."""
    return row.status, row.extracted


def disagreeing(reports: Sequence[Report]) -> set[str]:
    """Question ids scored by at least two of `reports` on which their verdicts differ (status or answer read)."""
    seen: dict[str, set[tuple[str, str | None]]] = {}
    counts: dict[str, int] = {}
    for report in reports:
        for row in report.rows:
            seen.setdefault(row.question_id, set()).add(verdict_of(row))
            counts[row.question_id] = counts.get(row.question_id, 0) + 1
    return {qid for qid, verdicts in seen.items() if counts[qid] > 1 and len(verdicts) > 1}


def answer_span(row: Any) -> tuple[int, int] | None:
    """(start, end) in `row.response` where the answer was read: the extractor's own span when it gives one,
    else the text its explanation quotes, else the last whole-word occurrence of the extracted answer."""
    response = getattr(row, "response", "") or ""
    span = getattr(row, "span", None)
    if isinstance(span, (tuple, list)) and len(span) == 2 and 0 <= span[0] < span[1] <= len(response):
        return int(span[0]), int(span[1])
    extracted = getattr(row, "extracted", None)
    if not response or not extracted:
        return None
    match = QUOTED.search(getattr(row, "explanation", "") or "")
    if match and len(match.group(2)) > 0:
        start = response.rfind(match.group(2))
        if start >= 0:
            return start, start + len(match.group(2))
    hits = list(re.finditer(rf"(?<![A-Za-z0-9]){re.escape(extracted)}(?![A-Za-z0-9])", response))
    return (hits[-1].start(), hits[-1].end()) if hits else None
