"""Every Plotly figure of the app, built from what core computed (no scoring here): the Score tab's accuracy bars,
cross heatmaps and paired difference; the Judge tab's step scores and error categories per run; the review
agreement's confusion matrix and Bland-Altman plot.

Score's figures take each run as (name, report dict); a dimension's cells come from `report["by"][dimension]` in
the order core gives them, and every bar carries its 95% CI as an asymmetric error bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mathreel.webapp.judged_runs import error_categories, primary_dimension

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mathreel.webapp.judged_runs import JudgedRun

NamedReport = tuple[str, dict[str, Any]]  # a run's name and its Report.to_dict()


def _value_order(runs: Sequence[NamedReport], dimension: str) -> list[str]:
    """Values of `dimension` across runs, first-seen order (core already orders each report)."""
    seen: dict[str, None] = {}
    for _, report in runs:
        for value in report.get("by", {}).get(dimension, {}):
            seen.setdefault(value, None)
    return list(seen)


def missing_runs(runs: Sequence[NamedReport], dimension: str) -> list[str]:
    """The runs with no value of `dimension` (their file does not record it), which a chart cannot show."""
    return [name for name, report in runs if not report.get("by", {}).get(dimension)]


def _note_missing(figure: go.Figure, names: list[str], label: str) -> None:
    """Say under the title which runs the chart leaves out and why, instead of dropping them silently."""
    import html

    if not names:
        return
    listed = ", ".join(html.escape(n) for n in names)
    figure.add_annotation(text=f"Not shown: {listed} (no {html.escape(label.lower())} in the file)",
                          xref="paper", yref="paper", x=0, y=1.02, xanchor="left", yanchor="bottom",
                          showarrow=False, font={"size": 11, "color": "#92400e"})


def accuracy_bars(runs: Sequence[NamedReport], dimension: str, label: str) -> go.Figure:
    """Grouped bars: accuracy per value of `dimension`, one colour per run, 95% CI error bars."""
    import plotly.graph_objects as go

    values = _value_order(runs, dimension)
    figure = go.Figure()
    for name, report in runs:
        cells = report.get("by", {}).get(dimension, {})
        present = [v for v in values if v in cells]
        acc = [cells[v]["accuracy"] for v in present]
        lows = [cells[v]["ci"][0] for v in present]
        highs = [cells[v]["ci"][1] for v in present]
        figure.add_bar(
            name=name,
            x=present,
            y=acc,
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [h - a for h, a in zip(highs, acc, strict=True)],
                "arrayminus": [a - lo for a, lo in zip(acc, lows, strict=True)],
            },
            customdata=[[cells[v]["n"], lo, hi] for v, lo, hi in zip(present, lows, highs, strict=True)],
            hovertemplate="%{x}<br>%{y:.1f}% [%{customdata[1]:.1f}, %{customdata[2]:.1f}]<br>n=%{customdata[0]}"
            "<extra>%{fullData.name}</extra>",
        )
    _layout(figure, title=f"Accuracy by {label.lower()} (95% CI)", x_title=label)
    _note_missing(figure, missing_runs(runs, dimension), label)
    figure.update_layout(showlegend=len(runs) > 1)
    if len(values) > 5:
        figure.update_xaxes(tickangle=-35)
    figure.update_layout(barmode="group")
    figure.update_yaxes(range=[0, 100])
    return figure


def cross_heatmap(report: dict[str, Any], cross_key: str, title: str) -> go.Figure:
    """Heatmap of accuracy for a cross table {row: {col: cell}}, e.g. duration x task type."""
    import plotly.graph_objects as go

    table = report.get("cross", {}).get(cross_key, {})
    rows = list(table)
    cols: dict[str, None] = {}
    for row in rows:
        for col in table[row]:
            cols.setdefault(col, None)
    col_list = list(cols)
    z = [[_acc(table[r].get(c)) for c in col_list] for r in rows]
    text = [[_cell_label(table[r].get(c)) for c in col_list] for r in rows]
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=col_list,
            y=rows,
            text=text,
            texttemplate="%{text}",
            zmin=0,
            zmax=100,
            colorscale="Blues",
            colorbar={"title": "Accuracy %"},
            hovertemplate="%{y} × %{x}<br>%{text}<extra></extra>",
        )
    )
    _layout(figure, title=title, x_title="", y_title="")
    figure.update_xaxes(tickangle=-35)
    figure.update_yaxes(autorange="reversed")  # rows top to bottom in core's order, as in the tables
    return figure


def paired_difference_bar(label: str, difference: float, ci: Sequence[float]) -> go.Figure:
    """One horizontal bar with its CI: the accuracy difference between two runs, in points."""
    import plotly.graph_objects as go

    figure = go.Figure(
        go.Bar(
            x=[difference],
            y=[label],
            orientation="h",
            error_x={"type": "data", "symmetric": False, "array": [ci[1] - difference],
                     "arrayminus": [difference - ci[0]]},
            hovertemplate=f"%{{x:.1f}} points [{ci[0]:.1f}, {ci[1]:.1f}]<extra></extra>",
        )
    )
    _layout(figure, title="Paired difference (points, 95% CI)", x_title="Accuracy difference (points)", y_title="")
    figure.add_vline(x=0, line_color="grey")
    figure.update_layout(height=220)
    return figure


def _acc(cell: dict[str, Any] | None) -> float | None:
    return cell["accuracy"] if cell and cell.get("n") else None


def _cell_label(cell: dict[str, Any] | None) -> str:
    return f"{cell['accuracy']:.1f}%<br>n={cell['n']}" if cell and cell.get("n") else ""


def _layout(figure: go.Figure, *, title: str, x_title: str, y_title: str = "Accuracy (%)") -> None:
    figure.update_layout(
        title={"text": title, "y": 0.97, "yanchor": "top"},
        xaxis_title=x_title,
        yaxis_title=y_title,
        template="plotly_white",
        margin={"l": 60, "r": 20, "t": 110, "b": 40},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        height=460,
    )
    figure.update_xaxes(automargin=True)
    figure.update_yaxes(automargin=True)


# -- the Judge tab -----------------------------------------------------------------------------------------------------


def score_chart(runs: list[JudgedRun]) -> go.Figure:
    """Mean step score per run, overall and per question category."""
    import plotly.graph_objects as go

    from mathreel.core.judge.views import step_score_rows

    figure = go.Figure()
    rows = step_score_rows({r.name: r.judgments for r in runs}, by=primary_dimension(runs))
    for run in runs:
        mine = [row for row in rows if row.run == run.name and row.mean is not None]
        figure.add_bar(name=run.name, x=[row.group for row in mine], y=[row.mean for row in mine],
                       customdata=[[row.n, row.failed] for row in mine],
                       hovertemplate="%{x}<br>mean %{y:.2f}<br>n=%{customdata[0]}, judge failures "
                       "%{customdata[1]}<extra>%{fullData.name}</extra>")
    figure.update_layout(title={"text": "Mean step score (0-10) per run and category", "y": 0.97}, barmode="group",
                         height=400, legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},
                         margin={"t": 110, "b": 90})
    figure.update_yaxes(range=[0, 10])
    return figure


def error_chart(runs: list[JudgedRun]) -> go.Figure:
    """Distribution of primary error categories per run, as a share of its analysed wrong answers."""
    import plotly.graph_objects as go

    from mathreel.core.judge.views import error_rows

    figure = go.Figure()
    for run in runs:
        rows = error_rows({run.name: run.judgments}, error_categories(run.benchmark))
        figure.add_bar(name=run.name, x=[r.category for r in rows], y=[r.share for r in rows],
                       customdata=[[r.primary, r.mentioned] for r in rows],
                       hovertemplate="%{x}<br>%{y:.1f}% of analysed errors<br>primary %{customdata[0]}, named "
                       "%{customdata[1]}<extra>%{fullData.name}</extra>")
    figure.update_layout(title={"text": "Error categories per run (primary, % of analysed wrong answers)", "y": 0.97},
                         barmode="group", height=400, legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},
                         margin={"t": 110, "b": 120})
    figure.update_xaxes(tickangle=-25)
    return figure


# -- the review agreement ----------------------------------------------------------------------------------------------


def confusion_figure(result: Any) -> go.Figure:
    """The judge-vs-reviewer confusion matrix of primary categories as a heatmap (judge rows, reviewer columns)."""
    import plotly.graph_objects as go

    figure = go.Figure()
    if result is not None and result.labels:
        figure.add_heatmap(z=result.confusion, x=result.labels, y=result.labels, colorscale="Blues",
                           text=result.confusion, texttemplate="%{text}",
                           hovertemplate="judge %{y}<br>reviewer %{x}<br>%{z} questions<extra></extra>")
    figure.update_layout(title="Primary error category: judge (rows) vs reviewer (columns)", height=460,
                         margin={"l": 220, "b": 160, "t": 60})
    figure.update_xaxes(tickangle=-30, title="reviewer")
    figure.update_yaxes(autorange="reversed", title="judge")
    return figure


def steps_figure(result: Any) -> go.Figure:
    """Bland-Altman plot of step scores: the mean of judge and reviewer against their difference, with the bias
    and the 95% limits of agreement."""
    import plotly.graph_objects as go

    figure = go.Figure()
    pairs = result.step_pairs if result is not None else []
    if pairs:
        figure.add_scatter(x=[(j + r) / 2 for j, r in pairs], y=[j - r for j, r in pairs], mode="markers",
                           name="questions", hovertemplate="mean %{x}<br>judge - reviewer %{y}<extra></extra>")
        d = result.steps
        for value, label in ((d.mean, "mean difference"), (d.low, "lower limit"), (d.high, "upper limit")):
            if value == value:  # NaN (undefined) limits are not drawn
                figure.add_hline(y=value, line_dash="dash" if label != "mean difference" else "solid",
                                 annotation_text=f"{label} {value:.2f}")
    figure.update_layout(title="Step scores: judge minus reviewer (Bland-Altman)", height=400,
                         xaxis_title="mean of judge and reviewer", yaxis_title="judge - reviewer")
    return figure
