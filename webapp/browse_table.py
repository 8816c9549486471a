"""The question table of Browse: its filters (one dropdown per dimension), its rows (the server's questions,
or the walked run's answers) and column widths, and the wiring of benchmark choice, search and filters.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.webapp.benchmark_keys import split_key
from mathreel.webapp.browse_events import BrowseUI
from mathreel.webapp.browse_file import run_table
from mathreel.webapp.browse_handlers import BrowseHandlers
from mathreel.webapp.context import AppContext, progress_on
from mathreel.webapp.errors import guarded
from mathreel.webapp.reading_flow import Walk

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.data import Dataset

ALL = ""  # the "no filter" value of a dimension dropdown
QUESTION_PREVIEW = 110  # characters of the question shown in the table


def max_dimensions() -> int:
    """How many filter dropdowns the page needs: the most dimensions any benchmark has."""
    from mathreel.core.benchmarks import BENCHMARKS

    return max(len(b.dimensions) for b in BENCHMARKS.values())


# -- the question table -----------------------------------------------------------------------------------------


def filter_specs(dataset: Dataset) -> list[tuple[str, str, list[str]]]:
    """(key, label, values present) for each dimension of the set, in the benchmark's order."""
    bench = dataset.bench
    return [(key, bench.dimension(key).label, dataset.values(key)) for key in dataset.dimension_keys()]


def question_table(dataset: Dataset, text: str = "", filters: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per question matching the search text and dimension filters: ID, question, dimensions, answer."""
    import pandas as pd

    wanted = {k: v for k, v in (filters or {}).items() if v != ALL}
    specs = filter_specs(dataset)
    rows = []
    for q in dataset.filter(text or None, **wanted):
        preview = q.question or dataset.bench.full_question(q)
        if len(preview) > QUESTION_PREVIEW:
            preview = preview[: QUESTION_PREVIEW - 1] + "…"
        row = {"ID": dataset.ref(q), "Question": preview.replace("\n", " ")}
        row.update({label: q.dims.get(key, "") for key, label, _ in specs})
        row["Answer"] = q.answer
        rows.append(row)
    columns = ["ID", "Question", *(label for _, label, _ in specs), "Answer"]
    return pd.DataFrame(rows, columns=columns)


RESPONSE_WIDTH = "360px"  # a walked run's last column, its response preview (Score's question table gives as much)


def table_widths(frame: pd.DataFrame) -> list[str]:
    """Column widths for the question table in pixels: they fill a desktop page, and on a phone the table scrolls
    sideways instead of squeezing every word into one letter per line. The last column is the short gold answer
    of the server's questions, or a walked run's response preview, which in a narrow column made every row a
    tower of one-word lines."""
    rest = len(frame.columns) - 3
    last = RESPONSE_WIDTH if len(frame.columns) and frame.columns[-1] == "Response" else "80px"
    return ["80px", "440px", *(["140px"] * rest), last]


def wire_list(context: AppContext, ui: BrowseUI, handlers: BrowseHandlers, group: dict) -> Callable:
    """The question table: benchmark choice, search (Enter), dimension filters; an empty result says so."""
    import gradio as gr

    list_outputs = [ui.error, ui.table, ui.list_note, *ui.dims]
    group = {**group, **progress_on(ui.list_note)}

    @guarded(0, len(list_outputs))
    def choose_benchmark(key: str, text: str, runs: list | None = None, walk: dict | None = None) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        specs = filter_specs(dataset)
        updates = [
            gr.update(
                choices=[("All", ALL), *((v, v) for v in specs[i][2])], value=ALL, label=specs[i][1], visible=True
            )
            if i < len(specs)
            else gr.update(choices=[("All", ALL)], value=ALL, visible=False)
            for i in range(len(ui.dims))
        ]
        frame, label = listed_questions(dataset, key, text, runs, walk)
        return (
            gr.update(value="", visible=False),
            gr.update(value=frame, column_widths=table_widths(frame), label=label),
            empty_note(frame, text),
            *updates,
        )

    @guarded(0, 3)
    def refilter(key: str, text: str, runs: list | None, walk: dict | None, *values: str) -> tuple:
        dataset = context.datasets.get(*split_key(key))
        keys = [k for k, _, _ in filter_specs(dataset)]
        frame, label = listed_questions(dataset, key, text, runs, walk, dict(zip(keys, values, strict=False)))
        table = gr.update(value=frame, column_widths=table_widths(frame), label=label)
        return gr.update(value="", visible=False), table, empty_note(frame, text)

    inputs = [ui.benchmark, ui.search, ui.runs, ui.walk, *ui.dims]
    ui.search.submit(refilter, inputs, [ui.error, ui.table, ui.list_note], **group)
    for dropdown in ui.dims:
        dropdown.input(refilter, inputs, [ui.error, ui.table, ui.list_note], **group)
    ui.list_outputs = list_outputs
    return choose_benchmark


TABLE_LABEL = "Questions (click a row)"


def listed_questions(
    dataset: Dataset,
    key: str,
    text: str = "",
    runs: list | None = None,
    walk: dict | None = None,
    filters: dict[str, str] | None = None,
) -> tuple[pd.DataFrame, str]:
    """The question table and its label: the walked run's questions when a run on this benchmark is followed (so
    the table lists the user's answers, not the server's questions beside them), else the server's questions."""
    from mathreel.core.runs import find_run

    name = Walk.of(walk).run
    run = find_run(runs or [], name) if name else None
    if run is not None and run.key == key:
        label = f"Questions of run {run.name}: {counted(len(run.report.rows), 'answer')} (click a row)"
        return run_table(run, dataset, text, filters), label
    return question_table(dataset, text, filters), TABLE_LABEL


def empty_note(frame: Any, text: str) -> str:
    """Why the table is empty (the question shown stays as it was), or nothing."""
    if len(frame):
        return ""
    what = f" match “{html.escape(text)}”" if text else " match these filters"
    return f"_No questions{what}. The question below is the one shown before._"
