"""Every Plotly figure of the app, built from what core computed (no scoring here): the Score tab's accuracy bars,
cross heatmaps and paired difference; the Judge tab's step scores and error categories per run; the review
agreement's confusion matrix and Bland-Altman plot.

Score's figures take each run as (name, breakdowns): a dimension's `Cell`s come from `Report.by[dimension]` in the
order core gives them, and every bar carries its 95% CI as an asymmetric error bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mathreel.webapp.judged_runs import error_categories, primary_dimension

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mathreel.core.scoring.report import Cell
    from mathreel.webapp.judged_runs import JudgedRun

Breakdowns = dict[str, dict[str, "Cell"]]  # `Report.by`: dimension -> value -> cell
NamedReport = tuple[str, Breakdowns]  # a run's name and its report's breakdowns


def _value_order(runs: Sequence[NamedReport], dimension: str) -> list[str]:
    """Values of `dimension` across runs, first-seen order (core already orders each report)."""
    seen: dict[str, None] = {}
    for _, by in runs:
        for value in by.get(dimension, {}):
            seen.setdefault(value, None)
    return list(seen)


def missing_runs(runs: Sequence[NamedReport], dimension: str) -> list[str]:
    """The runs with no value of `dimension` (their file does not record it), which a chart cannot show."""
    return [name for name, by in runs if not by.get(dimension)]


def missing_note(names: list[str], label: str) -> str:
    """Which runs a chart leaves out and why (escaped: names come from uploaded files), or ""."""
    import html

    if not names:
        return ""
    listed = ", ".join(html.escape(short_name(n)) for n in names)
    return f"Not shown: {listed} (no {html.escape(label.lower())} in the file)"


# A dimension with more values than this, or with a label longer than LONG_LABEL, is drawn as horizontal bars,
# sorted by accuracy, one row per value: Video-MME's 30 sub-categories stood on top of each other as slanted
# column labels, and the weakest were hard to find.
LONG_AXIS = 6
LONG_LABEL = 14
ROW_PX = 26  # height of one value's row of horizontal bars, per run shown beside each other (at least)


def long_axis(values: Sequence[str]) -> bool:
    """Whether a dimension's values need a chart of horizontal bars to stay readable."""
    return len(values) > LONG_AXIS or any(len(v) > LONG_LABEL for v in values)


def by_accuracy(runs: Sequence[NamedReport], dimension: str, values: list[str]) -> list[str]:
    """`values` from the lowest accuracy of the first run that has the dimension to the highest (values it lacks
    last, in their order)."""
    cells = next((by[dimension] for _, by in runs if by.get(dimension)), {})

    def accuracy(value: str) -> float:  # a value without a figure ranks lowest
        figure = _acc(cells[value])
        return -1.0 if figure is None else figure

    return sorted((v for v in values if v in cells), key=accuracy) + [v for v in values if v not in cells]


def accuracy_bars(runs: Sequence[NamedReport], dimension: str, label: str) -> go.Figure:
    """Grouped bars: accuracy per value of `dimension`, one colour per run, 95% CI error bars. A long axis (many
    values or long ones) becomes horizontal bars sorted by accuracy, tall enough for one readable row per value."""
    values = _value_order(runs, dimension)
    horizontal = long_axis(values)
    if horizontal:
        values = by_accuracy(runs, dimension, values)
    bars = []
    for name, by in runs:
        cells = by.get(dimension, {})
        present = [v for v in values if v in cells]
        acc = [_acc(cells[v]) or 0.0 for v in present]
        lows = [_bounds(cells[v])[0] for v in present]
        highs = [_bounds(cells[v])[1] for v in present]
        error = {
            "type": "data",
            "symmetric": False,
            "array": [round(h - a, 2) for h, a in zip(highs, acc, strict=True)],
            "arrayminus": [round(a - lo, 2) for a, lo in zip(acc, lows, strict=True)],
        }
        axes = (
            {"x": acc, "y": present, "orientation": "h", "error_x": error}
            if horizontal
            else {"x": present, "y": acc, "error_y": error}
        )
        where = "%{y}<br>%{x:.1f}%" if horizontal else "%{x}<br>%{y:.1f}%"
        bars.append(
            {
                "type": "bar",
                "name": short_name(name),
                **axes,
                "customdata": [[cells[v].n, lo, hi] for v, lo, hi in zip(present, lows, highs, strict=True)],
                "hovertemplate": where + " [%{customdata[1]:.1f}, %{customdata[2]:.1f}]<br>n=%{customdata[0]}"
                f"<extra>{_hover_name(name)}</extra>",
            }
        )
    note = missing_note(missing_runs(runs, dimension), label)
    layout = _layout(title=f"Accuracy by {label.lower()}", note=note, x_title=label, runs=len(runs))
    layout["barmode"] = "group"
    if horizontal:
        rows = len(values) * max(ROW_PX, 12 * len(runs) + 10)
        layout["height"] = rows + _chrome_px(note, len(runs)) + 60
        layout["xaxis"].update(title={"text": "Accuracy (%), 95% CI"}, range=[0, 100])
        layout["yaxis"].update(title={"text": ""}, categoryorder="array", categoryarray=values, autorange="reversed")
    else:
        layout["yaxis"]["range"] = [0, 100]
    return _figure(bars, layout)


def short_name(name: str, limit: int = 24) -> str:
    """A run's name cut in the middle to `limit` characters (the end, which tells runs apart, kept longest)."""
    if len(name) <= limit:
        return name
    head = (limit - 1) // 3
    return name[:head] + "…" + name[len(name) - (limit - 1 - head) :]


def _hover_name(name: str) -> str:
    """A run's full name for a hover label: escaped, and braces doubled so Plotly does not read a template."""
    import html

    return html.escape(name).replace("%{", "%%{")


def cross_heatmap(table: dict[str, dict[str, Cell]], title: str) -> go.Figure:
    """Heatmap of accuracy for a cross table {row: {col: cell}} (`Report.cross[key]`), e.g. duration x task type."""
    rows = list(table)
    cols: dict[str, None] = {}
    for row in rows:
        for col in table[row]:
            cols.setdefault(col, None)
    col_list = list(cols)
    z = [[_acc(table[r].get(c)) for c in col_list] for r in rows]
    text = [[_cell_label(table[r].get(c)) for c in col_list] for r in rows]
    heat = {
        "type": "heatmap",
        "z": z,
        "x": col_list,
        "y": rows,
        "text": text,
        "texttemplate": "%{text}",
        "zmin": 0,
        "zmax": 100,
        "colorscale": _blues(),
        "colorbar": {"title": {"text": "Accuracy %"}},
        "hovertemplate": "%{y} × %{x}<br>%{text}<extra></extra>",
    }
    layout = _layout(title=title, x_title="", y_title="")
    layout["xaxis"]["tickangle"] = -35
    layout["yaxis"]["autorange"] = "reversed"  # rows top to bottom in core's order, as in the tables
    return _figure([heat], layout)


def paired_difference_bar(label: str, difference: float, ci: Sequence[float]) -> go.Figure:
    """One horizontal bar with its CI: the accuracy difference between two runs, in points."""
    bar = {
        "type": "bar",
        "x": [difference],
        "y": [label],
        "orientation": "h",
        "error_x": {
            "type": "data",
            "symmetric": False,
            "array": [round(ci[1] - difference, 2)],
            "arrayminus": [round(difference - ci[0], 2)],
        },
        "hovertemplate": f"%{{x:.1f}} points [{ci[0]:.1f}, {ci[1]:.1f}]<extra></extra>",
    }
    layout = _layout(title="Paired difference (points, 95% CI)", x_title="Accuracy difference (points)", y_title="")
    layout["height"] = 220
    layout["shapes"] = [
        {"type": "line", "x0": 0, "x1": 0, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain", "line": {"color": "grey"}}
    ]
    return _figure([bar], layout)


def _acc(cell: Cell | None) -> float | None:
    """A cell's accuracy at the two decimals the JSON keeps (what the hover shows), None without questions."""
    return None if cell is None or not cell.n or cell.accuracy is None else round(cell.accuracy, 2)


def _bounds(cell: Cell) -> tuple[float, float]:
    """A cell's interval at two decimals, as the JSON keeps it."""
    return (0.0, 100.0) if cell.ci is None else (cell.ci.to_list()[0], cell.ci.to_list()[1])


def _cell_label(cell: Cell | None) -> str:
    accuracy = _acc(cell)
    return "" if cell is None or accuracy is None else f"{accuracy:.1f}%<br>n={cell.n}"


def _chrome_px(note: str, runs: int) -> int:
    """Pixels above the plot area: the title, its note line and the legend (no legend for one run; two entries to a
    row, as they fit on a phone)."""
    return 50 + (22 if note else 0) + (26 * -(-runs // 2) if runs > 1 else 0)


def _layout(
    *, title: str, x_title: str, y_title: str = "Accuracy (%), 95% CI", note: str = "", runs: int = 1
) -> dict[str, Any]:
    """The Score figures' layout: title (with a note line under it, never on the legend), the legend in a row of its
    own under both, margins that make room for them, and the compact white template (`_TEMPLATE`)."""
    top = _chrome_px(note, runs)
    subtitle = {"subtitle": {"text": note, "font": {"size": 12, "color": "#92400e"}}} if note else {}
    return {
        "template": score_template(),
        "title": {
            "text": title,
            "x": 0.01,
            "xanchor": "left",
            "y": 1,
            "yref": "container",
            "yanchor": "top",
            "pad": {"t": 12},
            **subtitle,
        },
        "xaxis": {"title": {"text": x_title}, "automargin": True},
        "yaxis": {"title": {"text": y_title}, "automargin": True},
        "margin": {"l": 60, "r": 20, "t": top, "b": 40},
        "showlegend": runs > 1,
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0, "yref": "paper"},
        "height": 460,
    }


def _figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """One figure from its traces and layout as plain dicts, not validated property by property on the server: a
    validated chart took 15-60 ms to build (each `update_layout` or `add_bar` validates again, and a template set by
    name is copied and validated whole), against under 1 ms. tests/test_webapp.py validates every Score figure."""
    import plotly.graph_objects as go

    return go.Figure(data=data, layout=layout, _validate=False)


def _blues() -> list[list[Any]]:
    """Plotly's sequential "Blues" as a colour scale (the name alone would mean plotly.js's own, other, "Blues")."""
    from plotly.colors import make_colorscale, sequential

    return make_colorscale(sequential.Blues)


_TEMPLATE: dict[str, Any] = {}
# Parts of Plotly's white template that no Score figure uses (3D scenes, maps, polar and ternary axes, the default
# colour scales of traces that set none): left out, they are 5.7 KB of JSON fewer in every chart sent to the page.
_UNUSED = ("colorscale", "geo", "polar", "ternary", "scene", "mapbox", "map")


def score_template() -> dict[str, Any]:
    """Plotly's "plotly_white" template cut to what the Score figures draw (bars, a heatmap, a line): the same look,
    a quarter of its size. Built once."""
    if not _TEMPLATE:
        import plotly.io as pio

        full = pio.templates["plotly_white"].to_plotly_json()
        _TEMPLATE["layout"] = {k: v for k, v in full["layout"].items() if k not in _UNUSED}
        _TEMPLATE["data"] = {k: v for k, v in full["data"].items() if k in ("bar", "heatmap")}
    return _TEMPLATE


# -- the Judge tab -----------------------------------------------------------------------------------------------------


def score_chart(runs: list[JudgedRun]) -> go.Figure:
    """Mean step score per run, overall and per question category."""
    import plotly.graph_objects as go

    from mathreel.core.judge.views import step_score_rows

    figure = go.Figure()
    rows = step_score_rows({r.name: r.judgments for r in runs}, by=primary_dimension(runs))
    for run in runs:
        mine = [row for row in rows if row.run == run.name and row.mean is not None]
        figure.add_bar(
            name=run.name,
            x=[row.group for row in mine],
            y=[row.mean for row in mine],
            customdata=[[row.n, row.failed] for row in mine],
            hovertemplate="%{x}<br>mean %{y:.2f}<br>n=%{customdata[0]}, judge failures "
            "%{customdata[1]}<extra>%{fullData.name}</extra>",
        )
    _grouped_runs_layout(figure, "Mean step score (0-10) per run and category", bottom=90)
    figure.update_yaxes(range=[0, 10])
    return figure


def error_chart(runs: list[JudgedRun]) -> go.Figure:
    """Distribution of primary error categories per run, as a share of its analysed wrong answers."""
    import plotly.graph_objects as go

    from mathreel.core.judge.views import error_rows

    figure = go.Figure()
    for run in runs:
        rows = error_rows({run.name: run.judgments}, error_categories(run.benchmark))
        figure.add_bar(
            name=run.name,
            x=[r.category for r in rows],
            y=[r.share for r in rows],
            customdata=[[r.primary, r.mentioned] for r in rows],
            hovertemplate="%{x}<br>%{y:.1f}% of analysed errors<br>primary %{customdata[0]}, named "
            "%{customdata[1]}<extra>%{fullData.name}</extra>",
        )
    _grouped_runs_layout(figure, "Error categories per run (primary, % of analysed wrong answers)", bottom=120)
    figure.update_xaxes(tickangle=-25)
    return figure


# -- the review agreement ----------------------------------------------------------------------------------------------


def confusion_figure(result: Any) -> go.Figure:
    """The judge-vs-reviewer confusion matrix of primary categories as a heatmap (judge rows, reviewer columns)."""
    import plotly.graph_objects as go

    figure = go.Figure()
    if result is not None and result.labels:
        figure.add_heatmap(
            z=result.confusion,
            x=result.labels,
            y=result.labels,
            colorscale="Blues",
            text=result.confusion,
            texttemplate="%{text}",
            hovertemplate="judge %{y}<br>reviewer %{x}<br>%{z} questions<extra></extra>",
        )
    figure.update_layout(
        title="Primary error category: judge (rows) vs reviewer (columns)",
        height=460,
        margin={"l": 220, "b": 160, "t": 60},
    )
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
        figure.add_scatter(
            x=[(j + r) / 2 for j, r in pairs],
            y=[j - r for j, r in pairs],
            mode="markers",
            name="questions",
            hovertemplate="mean %{x}<br>judge - reviewer %{y}<extra></extra>",
        )
        d = result.steps
        for value, label in ((d.mean, "mean difference"), (d.low, "lower limit"), (d.high, "upper limit")):
            if value == value:  # NaN (undefined) limits are not drawn
                figure.add_hline(
                    y=value,
                    line_dash="dash" if label != "mean difference" else "solid",
                    annotation_text=f"{label} {value:.2f}",
                )
    figure.update_layout(
        title="Step scores: judge minus reviewer (Bland-Altman)",
        height=400,
        xaxis_title="mean of judge and reviewer",
        yaxis_title="judge - reviewer",
    )
    return figure


def _grouped_runs_layout(figure: go.Figure, title: str, bottom: int) -> None:
    """The judge charts' layout: one bar per run in each group, the legend above the plot, room for the labels."""
    figure.update_layout(
        title={"text": title, "y": 0.97},
        barmode="group",
        height=400,
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},
        margin={"t": 110, "b": bottom},
    )
