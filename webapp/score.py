"""Score tab: upload result files, see core's Report for each (headline with CI, breakdowns, charts), compare runs
(paired difference, the paper's published rows) and open any scored question in Browse.

Scoring is `core.results.read_results` + `core.scoring.score`; the tab renders each run's `Report` (the object
whose `to_dict()` `mathreel score --json` prints) by its typed fields, never by the JSON's keys. Each user's runs
live in a `gr.State`, never in a global; a run and how an upload becomes one are `webapp.scored_runs` (Browse reads
the same runs).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal

from mathreel.core.defaults import RESULT_FORMATS
from mathreel.core.kinds import DENOMINATORS
from mathreel.core.plural import counted, plural
from mathreel.core.scoring.text import extractor_text
from mathreel.webapp import bundle_zip, charts, score_explain, score_groups, score_kept
from mathreel.webapp.benchmark_keys import benchmark_choices, extractor_choices
from mathreel.webapp.context import AppContext, TabSpec, progress_on, select_handler, with_request
from mathreel.webapp.downloads import Downloads
from mathreel.webapp.errors import error_box, error_message, guarded, warn
from mathreel.webapp.html import plain
from mathreel.webapp.present import cell_parts, cell_text, ci_text, se_text
from mathreel.webapp.reference import comparison_table, load_references, mode_warning, table_choices
from mathreel.webapp.review_state import review_session
from mathreel.webapp.scored_runs import (
    AUTO,
    TURNS,
    Run,
    ScoreOptions,
    judge_inputs,
    score_options,
    score_uploads,
    with_session,
)
from mathreel.webapp.server_paths import ServerPaths
from mathreel.webapp.visitor import visitor_key

if TYPE_CHECKING:
    import pandas as pd

STATUS_FILTERS = [
    ("All questions", "all"),
    ("Wrong or unparsed", "not_correct"),
    ("Wrong", "wrong"),
    ("Unparsed", "unparsed"),
    ("Missing", "missing"),
    ("Correct", "correct"),
]
EMPTY_STATE = "_Upload a result file to see scores._"
# An error that a setting gets past (core.errors.Fix), worded as this tab's control.
FIXES = {
    "benchmark": "choose it in the “Benchmark and mode” dropdown",
    "mode": "choose it in the “Benchmark and mode” dropdown",
    "annotations": "tick “Take gold answers from the server's dataset”",
}
JUDGE_NOTE = (
    "_With judgments, each file is scored by the judge's reading of the answers it judged (the same "
    "question and response; the rule reading elsewhere), from the judgment file, or the Judge tab's own "
    "runs, that judged most of its answers: the numbers of `mathreel score --judge J --reviews R`. The "
    "question table shows the rule reading beside the judge's._"
)
# Waits (in the page, 5 s at most) until every chart shown is drawn: the tables that follow (2,700 rows for a real
# file) are then rendered after the charts rather than between them (bench/README.md). Its input is the cross-table
# choice: when there is one, the heatmap is awaited too, even before its group is on screen (it is mounted last, and
# was drawn after the 2,700-row table when only the charts on screen were awaited: 2 s later at load 11).
CHARTS_DRAWN_JS = """async (cross) => {
  const started = performance.now();
  const drawn = () => {
    const bars = [...document.querySelectorAll('[id^=score-chart-]')].filter(p => p.offsetParent !== null);
    const heatmap = document.querySelector('#score-heatmap .main-svg');
    return bars.every(p => p.querySelector('.main-svg')) && (!cross || !!heatmap);
  };
  while (!drawn() && performance.now() - started < 5000) await new Promise(r => setTimeout(r, 40));
}"""
RESPONSE_PREVIEW = 160
CHART_SLOTS = 4


# -- tables -----------------------------------------------------------------------------------------------------


def summary_table(runs: list[Run]) -> pd.DataFrame:
    """One row per run: what was detected, the headline with its CI, and the counts that qualify it."""
    import pandas as pd

    rows = []
    for run in runs:
        report = run.report
        overall = report.overall
        accuracy, interval = cell_parts(overall)
        rows.append(
            {
                "Run": run_cell(run.name),
                "Benchmark": _benchmark_title(report.benchmark),
                "Mode": report.mode,
                "Accuracy": accuracy,
                "95% CI": interval,
                "n": overall.n,
                "Correct": overall.correct,
                "Unparsed": len(report.unparsed),
                "Missing": len(report.missing),
                "Clustered SE": se_text(overall.clustered_se),
                "Extractor": extractor_text(report.extractor, report.official_extractor),
                "Denominator": report.denominator,
            }
        )
    return pd.DataFrame(rows)


# The runs table's columns in pixels: wide enough for each header and its values, so a narrow screen scrolls the
# table sideways instead of wrapping a header or a value one letter per line.
SUMMARY_WIDTHS: list[str | int] = [
    "200px", "110px", "80px", "84px", "110px", "56px", "76px", "88px", "76px", "130px", "220px", "110px"
]  # fmt: skip
# Its cell types: the run's name is HTML (run_cell), the rest plain text.
_PLAIN: list[Literal["str"]] = ["str"] * (len(SUMMARY_WIDTHS) - 1)
SUMMARY_TYPES: list[Literal["html", "str"]] = ["html", *_PLAIN]


def run_cell(name: str) -> str:
    """A run's name in a table cell (HTML): shortened in the middle, the full name on hover; both escaped."""
    import html

    return f'<span title="{html.escape(name, quote=True)}">{html.escape(charts.short_name(name))}</span>'


def headline_markdown(runs: list[Run]) -> str:
    """Per run: the headline sentence, what the denominator means, what was detected, and every warning."""
    if not runs:
        return EMPTY_STATE
    parts = []
    for run in runs:
        report = run.report
        o = report.overall
        accuracy, interval = cell_parts(o)
        parts.append(
            f"### {plain(run.name)}\n"
            f"**{accuracy}** accuracy, 95% CI {interval}, n = {o.n} "
            f"({o.correct} correct) · unparsed {len(report.unparsed)} · missing {len(report.missing)}"
            + (
                f" · clustered SE {se_text(o.clustered_se)}, clustered by {plain(o.clustered_by)}"
                f" ({counted(o.clusters, 'cluster')})"
                if o.clustered_se is not None
                else ""
            )
        )
        if report.excluded_from_overall:  # else n is smaller than the file with nothing unparsed or missing
            k = report.excluded_from_overall
            parts.append(
                f"_{k} {'answer is' if k == 1 else 'answers are'} outside the overall figure by the benchmark's rule "
                "and counted only in the breakdowns._"
            )
        extractor = extractor_text(report.extractor, report.official_extractor)
        parts.append(f"_Denominator: {DENOMINATORS[report.denominator]}. Extractor: {plain(extractor)}._")
        judge_reading = reading_counted(run)
        if judge_reading:
            parts.append(judge_reading)
        details = [f"- {plain(note)}" for note in report.detected]
        details += [f"- ⚠️ {plain(warning)}" for warning in report.warnings]
        if details:
            parts.append("\n".join(details))
    return "\n\n".join(parts)


def reading_counted(run: Run) -> str:
    """Which reading the figures count, where a judge read some answers ("" when the rule reading counts alone)."""
    report = getattr(run, "report", None)  # a summary alone (no rows) says nothing of readings
    replaced = sum(row.rule is not None for row in report.rows) if report is not None else 0
    if not replaced:
        return ""
    return (
        f"_Reading counted: the judge's for the {counted(replaced, 'answer')} it judged, the rule reading "
        "elsewhere; the "
        "question table shows the rule reading beside the judge's._"
    )


def breakdown_table(runs: list[Run]) -> pd.DataFrame:
    """Every dimension's values as rows, one column per run: "41.3% [35.2, 47.6] n=52"."""
    import pandas as pd

    order: dict[tuple[str, str], None] = {}
    for run in runs:
        for dim, cells in run.report.by.items():
            for value in cells:
                order.setdefault((dim, value), None)
    rows = []
    for dim, value in order:
        row = {"Dimension": _dimension_label(runs, dim), "Value": value}
        for run in runs:
            row[run.name] = cell_text(run.report.by.get(dim, {}).get(value))
        rows.append(row)
    return pd.DataFrame(rows, columns=["Dimension", "Value", *(r.name for r in runs)])


def question_table(run: Run, status: str = "all", dim_filter: str = "") -> pd.DataFrame:
    """The scored rows of one run, filtered by status and by "dimension=value"."""
    import pandas as pd

    from mathreel.core.scoring.reading_flow import select_rows

    dims = list(run.report.by)
    judged = any(row.rule is not None for row in run.report.rows)
    rows = []
    for row in select_rows(run.report, status, dim_filter):
        response = row.response.replace("\n", " ")
        if len(response) > RESPONSE_PREVIEW:
            response = response[: RESPONSE_PREVIEW - 1] + "…"
        extracted = row.extracted or "—"
        record = {
            "ID": row.question_id,
            "Status": row.status,
            "Gold": row.gold,
            "Extracted": f"{extracted} · {row.method}" if row.rule is not None else extracted,
        }
        if judged:
            record[RULE_COLUMN] = rule_cell(row)
        record.update({_dimension_label([run], d): row.dims.get(d, "") for d in dims})
        record["Response"] = response
        rows.append(record)
    columns = [
        "ID",
        "Status",
        "Extracted",
        "Gold",
        *([RULE_COLUMN] if judged else []),
        *(_dimension_label([run], d) for d in dims),
        "Response",
    ]
    return pd.DataFrame(rows, columns=columns)


RULE_COLUMN = "Rule reading (not counted)"


def rule_cell(row: Any) -> str:
    """Which reading counts for a row of a judged run: "" where the rule reading counts (no judge or person read
    it), else the rule reading the judge's (or a person's) replaced, as "unparsed" or "B (wrong)"."""
    rule = row.rule
    if rule is None:
        return ""
    return rule.status if rule.extracted is None else f"{rule.extracted} ({rule.status})"


def question_widths(frame: pd.DataFrame) -> list[str]:
    """Per-question table widths in pixels: id, status, extracted, gold and each dimension stay readable, the
    response gets a column of its own; on a narrow screen the table scrolls sideways (no letter-per-line cells)."""
    rule = RULE_COLUMN in frame.columns
    dims = len(frame.columns) - 5 - rule
    return ["80px", "84px", "100px", "64px", *(["150px"] if rule else []), *(["130px"] * dims), "360px"]


def breakdown_filter(run: Run | None, row: list[Any]) -> str | None:
    """The per-question table's "dimension=value" filter for a clicked row of the breakdown table (its first two
    cells: the dimension's label and the value); None when the run shown has no such value (a row only another
    run of the comparison has)."""
    if run is None or len(row) < 2:
        return None
    label, value = str(row[0]), str(row[1])
    for dim, cells in run.report.by.items():
        if value in cells and _dimension_label([run], dim) == label:
            return f"{dim}={value}"
    return None


def dimension_filter_choices(run: Run | None) -> list[tuple[str, str]]:
    """("Category: Chart", "category=Chart") for every dimension value of the run, after "Any"."""
    choices = [("Any dimension value", "")]
    if run is None:
        return choices
    for dim, cells in run.report.by.items():
        label = _dimension_label([run], dim)
        choices += [(f"{label}: {value}", f"{dim}={value}") for value in cells]
    return choices


def _benchmark_title(name: str) -> str:
    from mathreel.core.benchmarks import get_benchmark

    return get_benchmark(name).title


def _dimension_label(runs: list[Run], key: str) -> str:
    from mathreel.core.benchmarks import get_benchmark

    bench = get_benchmark(runs[0].report.benchmark) if runs else None
    return bench.dimension(key).label if bench else key


# -- downloads --------------------------------------------------------------------------------------------------


def find_run(runs: list[Run], name: str | None) -> Run | None:
    """The run called `name`, else the first one (a removed run's stale name shows the first)."""
    from mathreel.core.runs import find_run as find

    return find(runs, name, stale_is_first=True)


def comparable(runs: list[Run], selected: Run | None) -> list[Run]:
    """The runs on the same benchmark and mode as `selected`: only those share charts and paired differences."""
    return [r for r in runs if selected is not None and r.key == selected.key]


def paired_markdown(run_a: Run | None, run_b: Run | None) -> tuple[str, dict[str, Any] | None]:
    """core's paired difference of two runs in words (and its dict for the chart), or why there is none."""
    from mathreel.core.scoring import paired_difference

    if run_a is None or run_b is None or run_a.name == run_b.name:
        return "_Upload two runs of the same benchmark and mode, then choose them as A and B._", None
    try:
        diff = paired_difference(run_a.report, run_b.report).to_dict()
    except Exception as error:
        return error_box(error_message(error)), None
    if diff["difference"] is None:
        return "_The two runs share no scored question._", None
    from mathreel.core.explain.text import agreeing_places, figure_text, signed_text

    # As many decimals as make the two accuracies and their difference agree (no "+0.0" between 59.4 and 59.5).
    places = agreeing_places(diff["accuracy_b"], diff["accuracy_a"])
    a, b = figure_text(diff["accuracy_a"], places), figure_text(diff["accuracy_b"], places)
    text = (
        f"**{plain(run_a.name)} − {plain(run_b.name)}: {signed_text(diff['difference'], places)} points**, "
        f"95% CI {ci_text(diff['ci'])} "
        f"on the {diff['n']} {plural(diff['n'], 'question')} both scored ({a}% vs {b}%); "
        f"only in A: {diff['only_a']}, only in B: {diff['only_b']}.\n\n_{diff['method']}._"
    )
    return text, diff


def cross_choices(run: Run | None) -> list[tuple[str, str]]:
    """("Duration × Task type", "duration x task_type") for each cross table of the run."""
    if run is None:
        return []
    choices = []
    from mathreel.core.scoring.report import split_cross_key

    for key in run.report.cross:
        row_dim, col_dim = split_cross_key(key)
        choices.append((f"{_dimension_label([run], row_dim)} × {_dimension_label([run], col_dim)}", key))
    return choices


def headline_cross(run: Run, crosses: list[tuple[str, str]]) -> str | None:
    """The cross table shown first: the benchmark's headline one when the run has it, else the first."""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.scoring.report import cross_key

    pair = get_benchmark(run.report.benchmark).headline_cross
    keys = [key for _, key in crosses]
    if pair is not None and cross_key(*pair) in keys:
        return cross_key(*pair)
    return keys[0] if keys else None


# -- the tab ----------------------------------------------------------------------------------------------------


class ScoreUI(SimpleNamespace):
    """The Score tab's components by name (set in `layout`)."""


def layout(settings: Any, context: AppContext | None = None) -> ScoreUI:
    """Place the Score tab: uploads and how they are read (the demo runs a click away, how long runs are kept),
    the overview, then the detail of one run."""
    import gradio as gr

    ui = ScoreUI()
    gr.Markdown(
        f"Upload one or several prediction files ({RESULT_FORMATS}; a plain JSONL/CSV needs question_id and "
        "response). Each is scored by the same core as "
        f"`mathreel score`. Largest file accepted: {settings.max_file_size}."
    )
    with gr.Row():
        ui.upload = gr.File(label="Result files", file_count="multiple", elem_id="score-upload", scale=3, height=140)
        with gr.Column(scale=2):
            ui.bench = gr.Dropdown(
                [("Detect from the file", AUTO), *benchmark_choices()],
                value=AUTO,
                label="Benchmark and mode",
                elem_id="score-benchmark",
            )
            with gr.Row():
                ui.extractor = gr.Dropdown(
                    extractor_choices(AUTO), value="robust", label="Answer extractor", elem_id="score-extractor"
                )
                ui.denominator = gr.Dropdown(
                    [("Scorer's default", AUTO), ("All questions", "all"), ("Answered only", "answered")],
                    value=AUTO,
                    label="Denominator",
                    elem_id="score-denominator",
                )
            ui.join = gr.Checkbox(
                label="Take gold answers from the server's dataset (id-only files; lists missing questions)",
                elem_id="score-join",
            )
    _judging(ui, settings)
    ui.demo = score_kept.demo_layout(settings)
    if context is not None:
        score_kept.kept_note(context)
    ui.error = gr.Markdown("", visible=False, elem_id="score-error", elem_classes=["error-box"])
    ui.headline = gr.Markdown(EMPTY_STATE, elem_id="score-headline")
    ui.summary = gr.Dataframe(
        label="Runs",
        interactive=False,
        visible=False,
        wrap=True,
        elem_id="score-summary",
        column_widths=SUMMARY_WIDTHS,
        datatype=SUMMARY_TYPES,
    )
    ui.breakdown = gr.Dataframe(
        label="Breakdown by dimension (accuracy, 95% CI, n; click a row to list its questions below)",
        interactive=False,
        visible=False,
        wrap=True,
        max_height=420,
        elem_id="score-breakdown",
    )
    ui.groups = score_groups.layout()
    ui.run_pick = gr.Dropdown(
        [],
        label="Run shown in detail (charts compare it with runs of the same benchmark)",
        elem_id="score-run",
        visible=False,
    )
    with gr.Row(elem_classes=["stack-narrow"]):  # one chart across on a phone
        ui.plots = [gr.Plot(visible=False, show_label=False, elem_id=f"score-chart-{i}") for i in range(2)]
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.plots += [
            gr.Plot(visible=False, show_label=False, elem_id=f"score-chart-{i}") for i in range(2, CHART_SLOTS)
        ]
    _comparisons(ui)
    ui.explain = score_explain.layout()
    _questions(ui)
    return ui


def _judging(ui: ScoreUI, settings: Any) -> None:
    """The judge's readings and people's reviews to score with, as `mathreel score --judge J --reviews R`."""
    import gradio as gr

    with gr.Row(elem_classes=["stack-narrow"]):
        ui.judge_files = gr.File(
            label="Judgments (optional: `mathreel judge` output files)",
            file_count="multiple",
            file_types=[".jsonl", ".json"],
            elem_id="score-judgments",
            height=140,
        )
        ui.review_files = gr.File(
            label="Reviews of the judge (optional: review files)",
            file_count="multiple",
            file_types=[".jsonl", ".json"],
            elem_id="score-reviews",
            height=140,
        )
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.demo_judging = score_kept.demo_judging_button(settings)
        gr.Markdown(JUDGE_NOTE, elem_id="score-judge-note")
    ui.judging = gr.State(((), ()))  # (judged runs, reviews) read from the two boxes


def _comparisons(ui: ScoreUI) -> None:
    """Cross table, paired difference of two runs, and the paper's published rows."""
    import gradio as gr

    with gr.Group(visible=False) as ui.cross_group:
        ui.cross_pick = gr.Dropdown([], label="Cross table", elem_id="score-cross")
        ui.heatmap = gr.Plot(show_label=False, elem_id="score-heatmap")
    with gr.Group(visible=False) as ui.paired_group:
        with gr.Row():
            ui.run_a = gr.Dropdown([], label="Run A", elem_id="score-run-a")
            ui.run_b = gr.Dropdown([], label="Run B", elem_id="score-run-b")
        ui.paired = gr.Markdown(elem_id="score-paired")
        ui.paired_plot = gr.Plot(visible=False, show_label=False, elem_id="score-paired-chart")
    with gr.Group(visible=False) as ui.reference_group:
        gr.Markdown("#### Published results")
        with gr.Row():
            ui.ref_table = gr.Dropdown([], label="Paper table", elem_id="score-ref-table")
            ui.ref_setting = gr.Dropdown([], label="Headline setting", elem_id="score-ref-setting")
        ui.reference = gr.Dataframe(interactive=False, wrap=True, max_height=420, elem_id="score-reference")
        ui.ref_note = gr.Markdown(elem_id="score-ref-note")


def _questions(ui: ScoreUI) -> None:
    """The per-question table of the run shown, its filters and the downloads."""
    import gradio as gr

    with gr.Group(visible=False) as ui.questions_group:
        gr.Markdown("#### Per-question results (click a row to open it in Browse with the response)")
        with gr.Row():
            ui.status = gr.Dropdown(STATUS_FILTERS, value="all", label="Show", elem_id="score-status")
            ui.dim_filter = gr.Dropdown(
                dimension_filter_choices(None), value="", label="Dimension value", elem_id="score-dim-filter"
            )
        ui.questions = gr.Dataframe(interactive=False, wrap=True, max_height=480, elem_id="score-questions")
        with gr.Row():
            ui.csv_button = gr.DownloadButton("Download scored rows (CSV)", elem_id="score-download-csv")
            ui.json_button = gr.DownloadButton(
                "Download summary (JSON, as mathreel score --json)", elem_id="score-download-json"
            )
        bundle_zip.place(ui)


class ScoreHandlers:
    """The Score tab's event handlers: plain functions of their inputs, returning the outputs' updates."""

    def __init__(self, settings: Any, store: Any = None) -> None:
        self.settings = settings
        self.references = load_references()
        self.downloads = Downloads(settings.cache_seconds)
        self.server = ServerPaths.of(settings)
        self.kept = score_kept.KeptRuns(store, settings.cache_seconds)

    def options(
        self,
        key: str,
        ext: str,
        denom: str,
        use_data: bool,
        judging: Any = None,
        session_judged: list | None = None,
        session_reviews: list | None = None,
    ) -> ScoreOptions:
        judged, reviews = with_session(judging, session_judged, session_reviews)
        return score_options(self.settings, key, ext, denom, use_data, judged, reviews)

    @staticmethod
    def extractors(key: str, current: str) -> Any:
        """The extractor dropdown for the chosen benchmark: only the extractors it offers (the current one kept
        when it is among them, else "robust")."""
        import gradio as gr

        choices = extractor_choices(key)
        return gr.update(choices=choices, value=current if current in choices else "robust")

    @staticmethod
    def judging(judgment_paths: list[str] | None, review_paths: list[str] | None) -> tuple:
        """The judgment and review files read (the state `rescore` takes), and the error box for a bad one."""
        import gradio as gr

        judged, reviews, errors = judge_inputs(judgment_paths, review_paths)
        for message in errors:
            warn(message)
        return (judged, reviews), gr.update(value=error_box(errors), visible=bool(errors))

    def rescore(
        self,
        paths: list[str] | None,
        key: str,
        ext: str,
        denom: str,
        use_data: bool,
        held: list[Run] | None = None,
        visitor: Any = None,
        judging: Any = None,
        session_judged: list | None = None,
        session_reviews: list | None = None,
        judgment_paths: list[str] | None = None,
        review_paths: list[str] | None = None,
        request: Any = None,
    ) -> tuple:
        """Score the files in the upload box (a file among the `held` runs, read the same way, is not scored
        again) with the judgments and reviews given (`judging`, read from the judging boxes' files
        `judgment_paths` and `review_paths`) and the session's own, and keep them all for the visitor; their
        costly files take the visitor's turns (webapp.fair_queue)."""
        import gradio as gr

        options = self.options(key, ext, denom, use_data, judging, session_judged, session_reviews)
        runs, errors = score_uploads(
            list(paths or []), options, FIXES, self.server, held, visitor_key(visitor, request)
        )
        for message in errors:
            warn(message)
        over = self.kept.keep(visitor, runs, options, judgment_paths, review_paths)
        if over:
            warn(f"Not kept for your next visit (over this server's limit per visitor): {', '.join(over)}")
        box = gr.update(value=error_box(errors), visible=bool(errors))
        names = [r.name for r in runs]
        first = names[0] if names else None
        second = names[1] if len(names) > 1 else first
        return (
            runs,
            box,
            gr.update(choices=names, value=first, visible=bool(runs)),
            gr.update(choices=names, value=first),
            gr.update(choices=names, value=second),
            *self.render_headline(runs),
        )

    @staticmethod
    def render_headline(runs: list[Run]) -> tuple:
        """The headline and the runs table: sent with the scoring event itself, so they show one event before the
        charts (each chained event costs a round trip of the queue)."""
        import gradio as gr

        return headline_markdown(runs), gr.update(value=summary_table(runs), visible=bool(runs))

    @staticmethod
    def render_overview(runs: list[Run], name: str | None) -> tuple:
        """Headline, summary, up to CHART_SLOTS charts (the run shown against its peers) and the headline cross
        table's heatmap: every chart in one event, so none waits for the tables."""
        import gradio as gr

        selected = find_run(runs, name)
        peers = comparable(runs, selected)
        figures: list[Any] = []
        if selected is not None:
            for dim in list(selected.report.by)[:CHART_SLOTS]:
                figures.append(
                    charts.accuracy_bars([(r.name, r.report.by) for r in peers], dim, _dimension_label([selected], dim))
                )
        plot_updates = [gr.update(value=f, visible=True) for f in figures]
        plot_updates += [gr.update(value=None, visible=False)] * (CHART_SLOTS - len(figures))
        crosses = cross_choices(selected)
        first = headline_cross(selected, crosses) if selected is not None else None
        return (
            *ScoreHandlers.render_headline(runs),
            *plot_updates,
            gr.update(visible=bool(crosses)),
            gr.update(choices=crosses, value=first),
            ScoreHandlers.heatmap(runs, name, first),
        )

    def render_detail(self, runs: list[Run], name: str | None, state_filter: str) -> tuple:
        """The run shown: its question table, dimension filter and downloads, and the breakdown table of its
        benchmark's runs (drawn after the charts)."""
        import gradio as gr

        run = find_run(runs, name)
        breakdown = gr.update(value=breakdown_table(comparable(runs, run)), visible=bool(runs))
        if run is None:
            return (
                gr.skip(),
                gr.update(visible=False),
                None,
                gr.update(choices=dimension_filter_choices(None), value=""),
                None,
                None,
                breakdown,
            )
        csv_path, json_path = self.downloads.write(run)
        table = question_table(run, state_filter)
        return (
            gr.skip(),
            gr.update(visible=True),
            gr.update(value=table, column_widths=question_widths(table)),
            gr.update(choices=dimension_filter_choices(run), value=""),
            csv_path,
            json_path,
            breakdown,
        )

    @staticmethod
    def heatmap(runs: list[Run], name: str | None, key: str | None) -> Any:
        run = find_run(runs, name)
        if run is None or not key:
            return None
        label = dict((v, lab) for lab, v in cross_choices(run)).get(key, key)
        return charts.cross_heatmap(
            run.report.cross.get(key, {}), f"{charts.short_name(run.name)}: accuracy by {label.lower()}"
        )

    @staticmethod
    def questions(runs: list[Run], name: str | None, state_filter: str, dim_value: str) -> Any:
        run = find_run(runs, name)
        return question_table(run, state_filter, dim_value or "") if run else None

    @staticmethod
    def paired(runs: list[Run], name_a: str | None, name_b: str | None) -> tuple:
        import gradio as gr

        run_a = find_run(runs, name_a) if name_a else None
        run_b = find_run(runs, name_b) if name_b else None
        text, diff = paired_markdown(run_a, run_b)
        figure = None
        if diff is not None and run_a is not None and run_b is not None:  # a difference needs both runs
            label = f"{charts.short_name(run_a.name, 16)} − {charts.short_name(run_b.name, 16)}"
            figure = charts.paired_difference_bar(label, diff["difference"], diff["ci"])
        return gr.update(visible=len(runs) > 1), text, gr.update(value=figure, visible=figure is not None)

    def reference_choices(self, runs: list[Run], name: str | None) -> tuple:
        import gradio as gr

        run = find_run(runs, name)
        ref = self.references.get(run.report.benchmark) if run else None
        if run is None or ref is None:
            return gr.update(visible=False), gr.update(choices=[], value=None), gr.update(choices=[], value=None)
        tables = table_choices(ref)
        settings_ = ref.setting_choices(run.report.mode)
        return (
            gr.update(visible=True),
            gr.update(choices=tables, value=tables[0][1]),
            gr.update(choices=settings_, value=settings_[0][1]),
        )

    def reference(self, runs: list[Run], name: str | None, table: str | None, setting: str | None) -> tuple:
        run = find_run(runs, name)
        ref = self.references.get(run.report.benchmark) if run else None
        if run is None or ref is None or not table or not setting:
            return None, ""
        peers = comparable(runs, run)
        note = f"_Source: {ref.source}. " + " ".join(ref.notes) + "_"
        warning = mode_warning(ref, setting, [(r.name, r.report.mode) for r in peers])
        table_frame = comparison_table(ref, table, setting, [(r.name, r.report) for r in peers])
        return table_frame, (f"{warning}\n\n{note}" if warning else note)


def build(context: AppContext) -> None:
    """Lay out the Score tab and wire its events; scoring runs in its own concurrency group."""
    import gradio as gr

    settings = context.settings
    ui = layout(settings, context)
    ui.runs = context.runs if context.runs is not None else gr.State([])
    ui.visitor = context.visitor if context.visitor is not None else gr.State(None)
    session = review_session(context)
    ui.session_judged, ui.session_reviews = session.judged, session.reviews
    handlers = ScoreHandlers(settings, context.store)
    TURNS.slots = settings.score_concurrency
    score_group = {"concurrency_id": "score", "concurrency_limit": settings.score_events}
    view_group = {"concurrency_id": "score-view", "concurrency_limit": settings.browse_concurrency}
    progress = progress_on(ui.headline)
    _wire(ui, handlers, {**score_group, **progress}, {**view_group, **progress})
    score_kept.wire(context, ui, handlers.kept, {**score_group, **progress})
    bundle_zip.wire(ui, settings, handlers.downloads, handlers.server)
    score_explain.wire(context, ui, ui.explain, view_group, handlers.downloads)
    score_groups.wire(ui, ui.groups, {**view_group, **progress})
    _wire_open_in_browse(context, ui.questions, ui.runs, ui.run_pick, ui.status, ui.dim_filter, view_group)
    _wire_breakdown(ui, {**view_group, **progress})


def _wire_breakdown(ui: ScoreUI, group: dict[str, Any]) -> None:
    """A click on a breakdown row filters the per-question table below to that dimension value (the same filter
    as its "Dimension value" control), from where a question opens in Browse walking that list."""
    import gradio as gr

    @select_handler
    def pick(evt: gr.SelectData, runs: list[Run], name: str | None, state_filter: str) -> tuple:
        run = find_run(runs, name)
        found = breakdown_filter(run, list(evt.row_value or []))
        if run is None or found is None:
            return gr.skip(), gr.skip()
        return gr.update(value=found), question_table(run, state_filter or "all", found)

    ui.breakdown.select(pick, [ui.runs, ui.run_pick, ui.status], [ui.dim_filter, ui.questions], **group).then(
        None, None, None, js="() => document.querySelector('#score-dim-filter')?.scrollIntoView()"
    )


def _wire(ui: ScoreUI, handlers: ScoreHandlers, score_group: dict, view_group: dict) -> None:
    """Scoring on upload or a changed option; every view redrawn after it; each control its own view."""
    import gradio as gr

    overview_outputs = [ui.headline, ui.summary, *ui.plots, ui.cross_group, ui.cross_pick, ui.heatmap]
    detail_outputs = [
        ui.error,
        ui.questions_group,
        ui.questions,
        ui.dim_filter,
        ui.csv_button,
        ui.json_button,
        ui.breakdown,
    ]
    overview = guarded(0, len(overview_outputs))(handlers.render_overview)
    detail = guarded(0, len(detail_outputs))(handlers.render_detail)
    heatmap = (handlers.heatmap, [ui.runs, ui.run_pick, ui.cross_pick], ui.heatmap)
    paired = (handlers.paired, [ui.runs, ui.run_a, ui.run_b], [ui.paired_group, ui.paired, ui.paired_plot])
    reference = (handlers.reference, [ui.runs, ui.run_pick, ui.ref_table, ui.ref_setting], [ui.reference, ui.ref_note])
    score_inputs = [
        ui.upload,
        ui.bench,
        ui.extractor,
        ui.denominator,
        ui.join,
        ui.runs,
        ui.visitor,
        ui.judging,
        ui.session_judged,
        ui.session_reviews,
        ui.judge_files,
        ui.review_files,
    ]
    picked = [ui.runs, ui.error, ui.run_pick, ui.run_a, ui.run_b]
    score_outputs = [*picked, *overview_outputs]

    def rescore(
        paths: Any,
        key: str,
        ext: str,
        denom: str,
        use_data: bool,
        held: Any = None,
        visitor: Any = None,
        judging: Any = None,
        session_judged: Any = None,
        session_reviews: Any = None,
        judgment_paths: Any = None,
        review_paths: Any = None,
        request: Any = None,
    ) -> Any:
        """The files scored, their headline and runs table shown at once, then the runs with every chart, in one
        event (a chained event costs a round trip of the queue). No output is sent twice: a generator's later
        updates reach the page and the API as differences, so a value sent again would arrive as no value."""
        scored = handlers.rescore(
            paths,
            key,
            ext,
            denom,
            use_data,
            held,
            visitor,
            judging,
            session_judged,
            session_reviews,
            judgment_paths,
            review_paths,
            request,
        )
        skip = gr.skip()
        yield (*[skip] * len(picked), *scored[len(picked) :], *[skip] * (len(overview_outputs) - 2))
        runs = scored[0]
        drawn = overview(runs, runs[0].name if runs else None)
        yield (*scored[: len(picked)], skip, skip, *drawn[2:])

    with_request(rescore)

    def chain(event: Any, drawn: bool = True) -> None:
        """After (re)scoring (which drew the overview) or choosing another run: redraw what depends on the runs."""
        if not drawn:
            event = event.then(overview, [ui.runs, ui.run_pick], overview_outputs, **view_group)
        event.then(None, ui.cross_pick, None, js=CHARTS_DRAWN_JS).then(
            detail, [ui.runs, ui.run_pick, ui.status], detail_outputs, **view_group
        ).then(*paired, **view_group).then(
            handlers.reference_choices,
            [ui.runs, ui.run_pick],
            [ui.reference_group, ui.ref_table, ui.ref_setting],
            **view_group,
        ).then(*reference, **view_group)

    chain(ui.upload.change(rescore, score_inputs, score_outputs, **score_group))
    _wire_judging(ui, handlers, chain, (rescore, score_inputs, score_outputs), score_group)
    chain(
        ui.bench.input(handlers.extractors, [ui.bench, ui.extractor], ui.extractor, **view_group).then(
            rescore, score_inputs, score_outputs, **score_group
        )
    )
    for control in (ui.extractor, ui.denominator, ui.join):
        chain(control.input(rescore, score_inputs, score_outputs, **score_group))
    chain(ui.run_pick.input(lambda: None, None, None), drawn=False)
    ui.cross_pick.input(*heatmap, **view_group)
    for pick in (ui.run_a, ui.run_b):
        pick.input(*paired, **view_group)
    for pick in (ui.ref_table, ui.ref_setting):
        pick.input(*reference, **view_group)
    for pick in (ui.status, ui.dim_filter):
        pick.input(handlers.questions, [ui.runs, ui.run_pick, ui.status, ui.dim_filter], ui.questions, **view_group)


def _wire_judging(ui: ScoreUI, handlers: ScoreHandlers, chain: Any, scoring: tuple, score_group: dict) -> None:
    """A judgments or reviews file added or removed (or the demo's added): read them, then score again."""
    judging = (handlers.judging, [ui.judge_files, ui.review_files], [ui.judging, ui.error])
    for box in (ui.judge_files, ui.review_files):
        for event in (box.upload, box.clear, box.delete):
            chain(event(*judging, **score_group).then(*scoring, **score_group))
    if ui.demo_judging is not None:
        chain(
            ui.demo_judging.click(
                handlers.kept.demo_judging,
                [ui.judge_files, ui.review_files],
                [ui.judge_files, ui.review_files, ui.judging, ui.error],
                **score_group,
            ).then(*scoring, **score_group)
        )


def _wire_open_in_browse(
    context: AppContext,
    questions: Any,
    runs_state: Any,
    run_pick: Any,
    status: Any,
    dim_filter: Any,
    group: dict[str, Any],
) -> None:
    """Clicking a scored question switches to Browse and shows it with the run's response, walking the same list
    (status and dimension filter) with the prompt and frames the run used: one event (the tab, the walk, Browse's
    controls, settings and page, through `BrowseLinks.jump`), then Browse's question table."""
    import gradio as gr

    browse = context.browse
    if browse is None:
        return
    target = gr.State(None)

    @select_handler
    def pick(
        evt: gr.SelectData, runs: list[Run], name: str | None, state_filter: str, dim_value: str, *values: Any
    ) -> tuple:
        run = find_run(runs, name)
        qid = str((evt.row_value or [""])[0])
        if run is None or not any(r.question_id == qid for r in run.report.rows):
            return (gr.skip(), gr.skip(), None, *[gr.skip()] * (1 + len(browse.jump_outputs)))
        walk = {"run": run.name, "status": state_filter or "all", "dim_filter": dim_value or "", "disagree": False}
        place = {"key": run.key, "ref": qid}
        opened = browse.jump(place, walk, runs, *values)
        return (gr.Tabs(selected="browse"), gr.update(value=run.key), place, walk, *opened)

    shown, listed = {**group, **browse.progress}, {**group, **browse.list_progress}
    questions.select(
        pick,
        [runs_state, run_pick, status, dim_filter, *browse.jump_inputs],
        [context.tabs, browse.benchmark, target, browse.walk, *browse.jump_outputs],
        **shown,
    ).then(browse.refresh_list[0], browse.refresh_list[1], browse.refresh_list[2], **listed).then(
        None, None, None, js="() => document.querySelector('#browse-reading')?.scrollIntoView()"
    )


TAB = TabSpec(id="score", label="Score", build=build)
