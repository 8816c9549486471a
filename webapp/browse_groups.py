"""Browse's view of a question scored in a group (Video-MME-v2's four questions per video): the group's members
with their taxonomy, its kind and structure, and, for the walked run, the part each answer played and how the
group's score came about. Everything is asked of the benchmark's `GroupScheme` and the run's `GroupReport`; no
benchmark is named here.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted

if TYPE_CHECKING:
    from mathreel.core.data import Dataset
    from mathreel.core.question import Question
    from mathreel.core.scoring import Report

QUESTION_PREVIEW = 70
STATUS_MARKS = {"correct": "✓", "wrong": "✗", "unparsed": "?", "missing": "—"}


def _cell(value: Any) -> str:
    return html.escape(str(value), quote=False).replace("|", "\\|").replace("\n", " ")


def group_markdown(dataset: Dataset, question: Question) -> str:
    """ "#### Group 001 of 4 questions: relevance, structure [1,2,3,4]" and a row per member (this one in bold):
    its place, id, taxonomy, question and answer. "" for a benchmark not scored in groups."""
    from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY

    scheme = dataset.bench.groups
    if scheme is None:
        return ""
    group = dataset.scored_group(question)
    if not group:
        return ""
    facts = scheme.describe(group, DEFAULT_GROUP_POLICY)
    what = [f"{_cell(facts.kind) or 'unknown kind'} group"]
    if facts.structure:
        what.append(f"structure `{facts.structure}`")
    what += [f"{_cell(d.label)} {_cell(facts.dims[d.key])}" for d in scheme.dimensions if facts.dims.get(d.key)]
    dims = [d for d in scheme.dimensions if any(q.dims.get(d.key) for q in group)]
    head = ["Q", "ID", *(d.label for d in dims), "Question", "Answer"]
    lines = [
        f"#### Group {_cell(scheme.key(question))}: {counted(len(group), 'question')} scored together",
        " · ".join(what),
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for q in group:
        text = q.question if len(q.question) <= QUESTION_PREVIEW else q.question[: QUESTION_PREVIEW - 1] + "…"
        cells = [str(scheme.position(q)), dataset.ref(q), *(q.dims.get(d.key, "") for d in dims), text, q.answer]
        row = [_cell(c) for c in cells]
        if q.question_id == question.question_id:
            row = [f"**{c}**" if c else c for c in row]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def group_scoring(report: Report, ref: str, run_name: str) -> str:
    """How the walked run's group containing `ref` scored: its explanation ("3 of 4 right: 56.25 in a relevance
    group") and each answer's status, mark and part; "" when the run is not scored in groups."""
    groups = report.groups
    group = groups.containing(ref) if groups is not None else None
    if groups is None or group is None:
        return ""
    lines = [
        f"#### Group score in {html.escape(run_name)}",
        f"**{_cell(group.result.explanation)}**",
        f"_{_cell(groups.how)}._",
        "",
        "| Q | ID | Answer | Mark | Part in the score |",
        "|---|---|---|---|---|",
    ]
    for position, (qid, status, mark, role) in enumerate(
        zip(group.question_ids, group.statuses, group.marks, group.result.roles, strict=False), start=1
    ):
        row = [str(position), qid, f"{STATUS_MARKS.get(status, '')} {status}", str(mark), role]
        if qid == ref:
            row = [f"**{_cell(c)}**" for c in row]
        lines.append("| " + " | ".join(_cell(c) if qid != ref else c for c in row) + " |")
    return "\n".join(lines)
