"""Score's group scores, for a benchmark scored in groups (Video-MME-v2): per run the group score (total, each kind,
the linear variant) beside its questions' accuracy, each with its interval, which implementation's rule made the
number, what a reproduced reference's own rules changed, and the group scores by each taxonomy value.

The figures are the report's `GroupReport` (`Report.groups`, typed; `groups` in `mathreel score --json`); the names
come from the benchmark's `GroupScheme`. Nothing here knows a benchmark.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.webapp.html import plain

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.scoring.report import Interval
    from mathreel.webapp.scored_runs import Run


def _score(value: float | None) -> str:
    """A figure as every view prints it (rounded half-up once, as `mathreel score`)."""
    from mathreel.core.scoring.numbers import one_decimal

    return "—" if value is None else one_decimal(value)


def _ci(ci: Interval | None) -> str:
    return "—" if ci is None else ci.text("—")


def _figure_names(run: Run) -> list[tuple[str, str]]:
    """(key in `groups.figures`, label) in display order: total, each kind, each kind's linear score."""
    from mathreel.core.benchmarks import get_benchmark

    scheme = get_benchmark(run.report.benchmark).groups
    kinds = scheme.kinds if scheme is not None else ()
    linear = scheme.linear_kinds if scheme is not None else ()
    return [
        ("total", "Total"),
        *((kind, kind.capitalize()) for kind in kinds),
        *((f"{kind}_linear", f"{kind.capitalize()}, linear") for kind in linear),
    ]


def groups_markdown(runs: list[Run]) -> str:
    """Per run scored in groups: a table of group score and question accuracy per figure, and where it comes from."""
    from mathreel.core.scoring.groups import ACCURACY_CI, SCORE_CI
    from mathreel.core.scoring.text import extractor_text

    parts = []
    for run in runs:
        groups = run.report.groups
        if groups is None:
            continue
        extractor = extractor_text(run.report.extractor, run.report.official_extractor)
        if extractor == "robust":
            extractor = "MathReel's robust reader"
        lines = [
            f"#### {plain(run.name)}: group scores ({counted(len(groups.groups), 'group')}, "
            f"{counted(groups.total.questions, 'question')})",
            "| | Group score (0-100) | 95% CI | Groups | Question accuracy | 95% CI | Questions |",
            "|---|---|---|---|---|---|---|",
        ]
        figures = groups.figures()
        for key, label in _figure_names(run):
            f = figures.get(key)
            if f is None:
                continue
            accuracy = "—" if f.accuracy is None else f"{_score(f.accuracy)}%"
            lines.append(
                f"| **{label}** | **{_score(f.score)}** | {_ci(f.score_ci)} | {f.groups} | {accuracy} | "
                f"{_ci(f.accuracy_ci)} | {f.questions} |"
            )
        lines += [
            "",
            f"_Whose number: {plain(groups.how.rstrip('.'))}. Answers read by {plain(extractor)}. "
            f"Group score CI: {plain(SCORE_CI)}; accuracy CI: {plain(ACCURACY_CI)}. Another "
            "implementation's number: choose its extractor above, or open “Why does my number differ?” "
            "below for all of them._",
        ]
        notes = [effect.text() for effect in groups.effects]
        notes += [*groups.notes, *(f"⚠️ {w}" for w in groups.warnings)]
        if groups.unscored:
            notes.append(f"not scored: {', '.join(map(str, groups.unscored[:10]))}")
        lines += [f"- {plain(note)}" for note in notes]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def groups_by_table(runs: list[Run]) -> pd.DataFrame | None:
    """Group scores by each taxonomy value (level, heads), a column per run: "56.3 [4.8, 60.6] (4 groups)"."""
    import pandas as pd

    from mathreel.core.benchmarks import get_benchmark

    scored = [run for run in runs if run.report.groups is not None]
    if not scored:
        return None
    scheme = get_benchmark(scored[0].report.benchmark).groups
    labels = {d.key: d.label for d in scheme.dimensions} if scheme is not None else {}
    order: dict[tuple[str, str], None] = {}
    by = {run.name: run.report.groups.by for run in scored if run.report.groups is not None}
    for cells_by_dim in by.values():
        for dim, cells in cells_by_dim.items():
            order.update(dict.fromkeys((dim, value) for value in cells))
    rows = []
    for dim, value in order:
        row = {"Dimension": labels.get(dim, dim), "Value": value}
        for run in scored:
            f = by[run.name].get(dim, {}).get(value)
            row[run.name] = "" if f is None else f"{_score(f.score)} {_ci(f.score_ci)} ({counted(f.groups, 'group')})"
        rows.append(row)
    return pd.DataFrame(rows, columns=["Dimension", "Value", *(run.name for run in scored)])


def _grouped(runs: list[Run]) -> list[Run]:
    """The runs scored in groups, of the first such run's benchmark and mode (those share charts)."""
    scored = [run for run in runs if run.report.groups is not None]
    return [run for run in scored if run.key == scored[0].key] if scored else []


def chart_slots() -> int:
    """How many group-score charts the page holds: the most taxonomy dimensions any grouped benchmark has."""
    from mathreel.core.benchmarks import BENCHMARKS

    return max((len(b.groups.dimensions) for b in BENCHMARKS.values() if b.groups is not None), default=0)


def group_charts(runs: list[Run]) -> list[Any]:
    """A bar chart of group scores per taxonomy dimension (level, heads), one colour per run, with intervals."""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.scoring.report import Cell, Interval
    from mathreel.webapp import charts

    scored = _grouped(runs)
    if not scored:
        return []
    scheme = get_benchmark(scored[0].report.benchmark).groups
    figures = []
    for dimension in scheme.dimensions if scheme is not None else ():
        named = []
        for run in scored:  # a group score drawn as a cell: the score, its interval, n the groups
            cells = run.report.groups.by.get(dimension.key, {}) if run.report.groups is not None else {}
            named.append(
                (
                    run.name,
                    {
                        dimension.key: {
                            value: Cell(f.groups, 0, f.score, f.score_ci or Interval(f.score, f.score))
                            for value, f in cells.items()
                            if f.score is not None
                        }
                    },
                )
            )
        if not any(by[dimension.key] for _, by in named):
            continue
        figure = charts.accuracy_bars(named, dimension.key, dimension.label)
        figure.update_layout(title_text=f"Group score by {dimension.label.lower()}")
        for trace in figure.data:  # the values are group scores (0-100), counted in groups
            trace.hovertemplate = trace.hovertemplate.replace(".1f}%", ".1f}").replace("n=", "groups=")
        axis = "xaxis_title" if figure.data and figure.data[0].orientation == "h" else "yaxis_title"
        figure.update_layout(**{axis: "Group score (0-100), 95% CI"})
        figures.append(figure)
    return figures


class GroupsUI(SimpleNamespace):
    """The group scores' components."""


def layout() -> GroupsUI:
    """Place the group scores (shown only when a run is scored in groups)."""
    import gradio as gr

    ui = GroupsUI()
    with gr.Group(visible=False) as ui.box:
        ui.text = gr.Markdown("", elem_id="score-groups")
        ui.by = gr.Dataframe(
            label="Group scores by level and head (score, 95% CI, groups)",
            interactive=False,
            wrap=True,
            max_height=360,
            elem_id="score-groups-by",
        )
        with gr.Row(elem_classes=["stack-narrow"]):
            ui.plots = [
                gr.Plot(visible=False, show_label=False, elem_id=f"score-groups-chart-{i}")
                for i in range(chart_slots())
            ]
    return ui


def show(runs: list[Run] | None) -> tuple:
    """The box's visibility, the per-run tables and the breakdown."""
    import gradio as gr

    text = groups_markdown(list(runs or []))
    figures = group_charts(list(runs or []))
    plots = [
        gr.update(value=figures[i], visible=True) if i < len(figures) else gr.update(value=None, visible=False)
        for i in range(chart_slots())
    ]
    return gr.update(visible=bool(text)), text, groups_by_table(list(runs or [])), *plots


def wire(score_ui: Any, ui: GroupsUI, group: dict[str, Any]) -> None:
    """Redrawn whenever the runs change (an upload, another option, the demo runs)."""
    score_ui.runs.change(show, [score_ui.runs], [ui.box, ui.text, ui.by, *ui.plots], **group)
