"""Browse's reading audit: walking a run's "Readings to check" (weak readings, conflicts, answers the official
extractor reads differently: `core.scoring.audit.check_reasons`), a person confirms a reading (key y) or corrects
it. Each correction is a labelled reading (`core.scoring.readings`): the run is scored again with the session's
corrections, exactly as `mathreel score --readings corrections.jsonl` scores it, and the corrections download as
that file.

The pure parts (`audit_target`, `label_choices`, `corrected`) take plain values and are tested without a browser.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.core.scoring.reading_flow import TO_CHECK
from mathreel.webapp import reading_flow as rd
from mathreel.webapp.browse_events import BrowseUI, goto_handler, then_rest
from mathreel.webapp.context import progress_on
from mathreel.webapp.errors import error_message, error_outputs
from mathreel.webapp.scored_runs import ScoreOptions, score_path

if TYPE_CHECKING:
    from mathreel.core.question import Question
    from mathreel.core.scoring.readings import LabelledReading
    from mathreel.core.scoring.row import ScoredRow
    from mathreel.webapp.browse_handlers import BrowseHandlers
    from mathreel.webapp.scored_runs import Run

NO_ANSWER = "(no answer can be read)"  # the label choice for "a careful reader reads nothing": null in the file
FILE_NAME = "mathreel_readings.jsonl"


def audit_target(runs: list[Run] | None, walk_value: dict | None, ref: str) -> tuple[Run, ScoredRow, str] | None:
    """The walked run, its row for `ref` and why to check it, when the walk is the audit's list and `ref` is on it
    (None otherwise: the box stays hidden)."""
    from mathreel.core.scoring.audit import check_reasons

    walk = rd.Walk.of(walk_value)
    if walk.status != TO_CHECK:
        return None
    run = rd.run_named(runs, walk.run)
    row = rd.row_of(run, ref)
    if run is None or row is None:
        return None
    why = check_reasons(run.report).get(ref)
    return (run, row, why) if why else None


def scored_question(row: ScoredRow, dataset: Any) -> Question | None:
    """The question `row` was scored against: the file's own (the file carries its gold answer), else the server
    dataset's question of that id (the file was read with the server's annotations)."""
    recorded = row.recorded
    if recorded is not None and recorded.join == "file":
        return recorded.question
    try:
        return dataset.question(row.question_id) if dataset is not None else None
    except Exception:  # not on this server: the answer cannot be labelled against its question
        return None


def label_choices(row: ScoredRow, question: Question, default_letters: tuple[str, ...]) -> tuple[list[str], str]:
    """The labels a person can choose (the question's letters, or the reading for a free-form answer, then
    NO_ANSWER) and the one preselected: what the rules read."""
    if question.answer_kind == "free":
        choices = [row.extracted] if row.extracted else []
    else:
        choices = list(question.letters or default_letters)
    return [*choices, NO_ANSWER], row.extracted or NO_ANSWER


def why_markdown(row: ScoredRow, why: str, run_name: str) -> str:
    """What the box says above its controls."""
    import html

    read = f"**{html.escape(row.extracted)}**" if row.extracted else "**nothing**"
    why = why.replace(f"weak reading ({row.method})", "a weak reading")  # the method is named once, just before
    return (
        f"#### Check this reading\nMathReel read {read} ({html.escape(row.method)}): {html.escape(why)}. "
        f"Confirm it (key **y**) or choose what a careful reader reads; {html.escape(run_name)} is scored again "
        f"with your corrections, as `mathreel score --readings {FILE_NAME}` scores it."
    )


def corrected(run: Run, entry: LabelledReading, held: list[dict]) -> tuple[Run, list[dict]]:
    """The session's corrections with `entry` (the later entry for the same answer wins), and `run` scored again
    with all of them. Scoring goes through `score_path` (a large file in a child process, within its budget)."""
    from mathreel.core.scoring.readings import parse_reading

    record = entry.to_dict()
    same = (record["response"], record["options"], record.get("question"))  # the question: Yes/No options only
    kept = [r for r in held if (r.get("response"), r.get("options"), r.get("question")) != same]
    kept.append(record)
    readings = tuple(parse_reading(value, "corrections", index) for index, value in enumerate(kept, 1))
    if not run.path:
        raise ValueError(f"{run.name} cannot be scored again: its file is no longer on the server")
    options = replace(run.options or ScoreOptions(), readings=readings)
    report = score_path(run.path, options)
    return replace(run, report=report, options=options), kept


def corrections_file(held: list[dict], folder: Any) -> str | None:
    """The corrections as a readings file (JSONL) in `folder`, for the download button."""
    if not held:
        return None
    path = folder / FILE_NAME
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in held), encoding="utf-8")
    return str(path)


# -- layout and wiring ------------------------------------------------------------------------------------------


def audit_box(ui: BrowseUI) -> None:
    """The audit box under the response (hidden unless the walked list is "Readings to check")."""
    import gradio as gr

    with gr.Group(visible=False, elem_id="browse-audit") as box:
        ui.audit_why = gr.Markdown("", elem_id="browse-audit-why")
        with gr.Row(elem_classes=["stack-narrow"]):
            ui.audit_label = gr.Dropdown(
                [NO_ANSWER],
                value=NO_ANSWER,
                label="A careful reader reads",
                allow_custom_value=True,
                elem_id="browse-audit-label",
                scale=1,
            )
            ui.audit_reason = gr.Textbox(label="Why (optional)", elem_id="browse-audit-reason", scale=2)
        with gr.Row(elem_classes=["stack-narrow"]):
            ui.audit_confirm = gr.Button("Confirm the reading (y)", elem_id="browse-audit-confirm", variant="primary")
            ui.audit_save = gr.Button("Save the correction", elem_id="browse-audit-save")
            ui.audit_download = gr.DownloadButton(
                "Download corrections (JSONL)", visible=False, elem_id="browse-audit-download"
            )
        ui.audit_note = gr.Markdown("", elem_id="browse-audit-note")
    ui.audit_box = box
    ui.audit_held = gr.State([])  # the session's corrections: readings-file records


def wire_audit(context: Any, ui: BrowseUI, handlers: BrowseHandlers, runs: Any, group: dict) -> None:
    """Fill the box for each question shown; confirm or correct, score the run again, and walk on."""
    import gradio as gr

    from mathreel.webapp.downloads import Downloads

    opts = {
        "concurrency_id": "browse-audit",
        "concurrency_limit": context.settings.browse_concurrency,
        **progress_on(ui.audit_note),
    }
    goto = gr.State(None)
    dataset_of = _dataset_finder(context)

    go = goto_handler(ui, handlers)

    fill_outputs = [ui.audit_box, ui.audit_why, ui.audit_label, ui.audit_note]
    for source in (ui.settled, ui.walk):  # a question shown, or the list walked changed under it
        source.change(_filler(dataset_of), [ui.state, runs, ui.walk], fill_outputs, show_progress="hidden", **opts)
    inputs = [ui.state, runs, ui.walk, ui.audit_held, ui.audit_label, ui.audit_reason]
    outputs = [ui.audit_note, runs, ui.audit_held, ui.audit_download, goto]
    page_inputs = [ui.state, ui.panels, *ui.read_inputs, *ui.view_inputs]
    downloads = Downloads(context.settings.cache_seconds)
    for button, confirm in ((ui.audit_confirm, True), (ui.audit_save, False)):
        event = button.click(_recorder(confirm, dataset_of, downloads), inputs, outputs, **opts)
        then_rest(event.then(go, [goto, *page_inputs], ui.first_outputs, show_progress="hidden", **group), ui, group)


def _dataset_finder(context: Any) -> Callable[[dict], Any]:
    """The server's dataset of the benchmark shown (`st["key"]`: "benchmark:mode"), None when none is shown."""

    def dataset_of(st: dict) -> Any:
        key = str((st or {}).get("key") or "")
        if not key:
            return None
        bench, _, mode = key.partition(":")
        return context.datasets.get(bench, mode or None)

    return dataset_of


def _filler(dataset_of: Callable[[dict], Any]) -> Callable[..., tuple]:
    """The box's values for the question shown: hidden off the audit's list, else why and the label choices."""
    import gradio as gr

    def fill(st: dict, runs_value: list, walk: dict) -> tuple:
        found = audit_target(runs_value, walk, str((st or {}).get("ref") or ""))
        if found is None:
            return gr.update(visible=False), gr.skip(), gr.skip(), gr.skip()
        run, row, why = found
        question = scored_question(row, dataset_of(st))
        if question is None:
            return (
                gr.update(visible=True),
                why_markdown(row, why, run.name),
                gr.update(choices=[], value=None),
                "This answer's question is not on this server, so it cannot be labelled here.",
            )
        choices, value = label_choices(row, question, _default_letters(run))
        # the note keeps the session's last save (its corrections and the run's new figure)
        return (
            gr.update(visible=True),
            why_markdown(row, why, run.name),
            gr.update(choices=choices, value=value),
            gr.skip(),
        )

    return fill


def _recorder(confirm: bool, dataset_of: Callable[[dict], Any], downloads: Any) -> Callable[..., tuple]:
    """Confirm (`confirm`) or correct the reading shown: the run scored again, the corrections file, the next
    question on the list. A failure is one message in the box; runs and corrections stay as they were."""
    import gradio as gr

    from mathreel.core.scoring.audit import labelled_row

    def record(st: dict, runs_value: list, walk: dict, held: list, label: str | None, reason: str) -> tuple:
        ref = str((st or {}).get("ref") or "")
        try:
            found = audit_target(runs_value, walk, ref)
            if found is None:
                raise ValueError("this question is not on the walked list of readings to check")
            run, row, _ = found
            question = scored_question(row, dataset_of(st))
            if question is None:
                raise ValueError(f"question {ref} of {run.name} is not on this server: it cannot be labelled")
            chosen = row.extracted if confirm else (None if label in (None, "", NO_ANSWER) else str(label))
            ids = rd.walk_ids(runs_value, rd.Walk.of(walk))
            entry = labelled_row(
                row, question, chosen, reason or ("the reading is right" if confirm else ""), _default_letters(run)
            )
            again, kept = corrected(run, entry, held or [])
        except Exception as failure:  # shown in the box
            return error_outputs(error_message(failure), 5)
        updated = [again if r.name == run.name else r for r in runs_value]
        after = ids[ids.index(ref) + 1] if ref in ids and ids.index(ref) + 1 < len(ids) else None
        note = (
            f"Saved: {counted(len(kept), 'correction')} this session. {run.name} is now "
            f"{again.report.overall.accuracy:.1f}% ({counted(again.report.labelled, 'answer')} read by a person)."
        )
        return (
            gr.update(value=note, visible=True),
            updated,
            kept,
            gr.update(value=corrections_file(kept, downloads.fresh()), visible=True),
            after,
        )

    return record


def _default_letters(run: Run) -> tuple[str, ...]:
    from mathreel.core.benchmarks import get_benchmark

    return get_benchmark(run.report.benchmark).letters(run.report.mode)
