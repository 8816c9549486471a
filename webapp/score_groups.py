"""Score's group scores, for a benchmark scored in groups (Video-MME-v2): per run the group score (total, each kind,
the linear variant) beside its questions' accuracy, each with its interval, which implementation's rule made the
number, what a reproduced reference's own rules changed, and the group scores by each taxonomy value.

The figures are the report's `groups` object (`mathreel score --json`); the names come from the benchmark's
`GroupScheme`. Nothing here knows a benchmark.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.webapp.html import plain
from mathreel.webapp.present import ci_text

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.webapp.scored_runs import Run


def _score(value: float | None) -> str:
    """A figure as every view prints it (rounded half-up once, as `mathreel score`)."""
    from mathreel.core.scoring.numbers import one_decimal

    return "—" if value is None else one_decimal(value)


def _figure_names(run: Run) -> list[tuple[str, str]]:
    """(key in `groups.figures`, label) in display order: total, each kind, each kind's linear score."""
    from mathreel.core.benchmarks import get_benchmark

    scheme = get_benchmark(run.report.benchmark).groups
    kinds = scheme.kinds if scheme is not None else ()
    linear = scheme.linear_kinds if scheme is not None else ()
    return [("total", "Total"), *((kind, kind.capitalize()) for kind in kinds),
            *((f"{kind}_linear", f"{kind.capitalize()}, linear") for kind in linear)]


def groups_markdown(runs: list[Run]) -> str:
    """Per run scored in groups: a table of group score and question accuracy per figure, and where it comes from."""
    parts = []
    for run in runs:
        groups = run.summary.get("groups")
        if not groups:
            continue
        from mathreel.core.scoring.text import extractor_text

        extractor = extractor_text(run.summary["extractor"], run.summary.get("official_extractor"))
        lines = [f"#### {plain(run.name)}: group scores ({groups['groups']} groups, {groups['questions']} questions)",
                 "| | Group score (0-100) | 95% CI | Groups | Question accuracy | 95% CI | Questions |",
                 "|---|---|---|---|---|---|---|"]
        for key, label in _figure_names(run):
            f = groups["figures"].get(key)
            if f is None:
                continue
            accuracy = "—" if f.get("accuracy") is None else f"{_score(f['accuracy'])}%"
            lines.append(f"| **{label}** | **{_score(f.get('score'))}** | {ci_text(f.get('score_ci'))} | "
                         f"{f.get('groups', '')} | {accuracy} | {ci_text(f.get('accuracy_ci'))} | "
                         f"{f.get('questions', '')} |")
        lines += ["", f"_Whose number: {plain(groups.get('scored_as', '').rstrip('.'))}. Answers read by "
                      f"{plain(extractor)}. "
                      f"Group score CI: {plain(groups.get('score_ci_method', ''))}; accuracy CI: "
                      f"{plain(groups.get('accuracy_ci_method', ''))}._"]
        notes = [effect["text"] for effect in groups.get("effects", [])]
        notes += [*groups.get("notes", []), *(f"⚠️ {w}" for w in groups.get("warnings", []))]
        if groups.get("unscored"):
            notes.append(f"not scored: {', '.join(map(str, groups['unscored'][:10]))}")
        lines += [f"- {plain(note)}" for note in notes]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def groups_by_table(runs: list[Run]) -> pd.DataFrame | None:
    """Group scores by each taxonomy value (level, heads), a column per run: "56.3 [4.8, 60.6] (4 groups)"."""
    import pandas as pd

    from mathreel.core.benchmarks import get_benchmark

    scored = [run for run in runs if run.summary.get("groups")]
    if not scored:
        return None
    scheme = get_benchmark(scored[0].report.benchmark).groups
    labels = {d.key: d.label for d in scheme.dimensions} if scheme is not None else {}
    order: dict[tuple[str, str], None] = {}
    for run in scored:
        for dim, cells in run.summary["groups"].get("by", {}).items():
            order.update(dict.fromkeys((dim, value) for value in cells))
    rows = []
    for dim, value in order:
        row = {"Dimension": labels.get(dim, dim), "Value": value}
        for run in scored:
            f = run.summary["groups"]["by"].get(dim, {}).get(value)
            row[run.name] = "" if f is None else (f"{_score(f.get('score'))} {ci_text(f.get('score_ci'))} "
                                                  f"({f.get('groups')} groups)")
        rows.append(row)
    return pd.DataFrame(rows, columns=["Dimension", "Value", *(run.name for run in scored)])


class GroupsUI(SimpleNamespace):
    """The group scores' components."""


def layout() -> GroupsUI:
    """Place the group scores (shown only when a run is scored in groups)."""
    import gradio as gr

    ui = GroupsUI()
    with gr.Group(visible=False) as ui.box:
        ui.text = gr.Markdown("", elem_id="score-groups")
        ui.by = gr.Dataframe(label="Group scores by level and head (score, 95% CI, groups)", interactive=False,
                             wrap=True, max_height=360, elem_id="score-groups-by")
    return ui


def show(runs: list[Run] | None) -> tuple:
    """The box's visibility, the per-run tables and the breakdown."""
    import gradio as gr

    text = groups_markdown(list(runs or []))
    return gr.update(visible=bool(text)), text, groups_by_table(list(runs or []))


def wire(score_ui: Any, ui: GroupsUI, group: dict[str, Any]) -> None:
    """Redrawn whenever the runs change (an upload, another option, the demo runs)."""
    score_ui.runs.change(show, [score_ui.runs], [ui.box, ui.text, ui.by], **group)
