"""Score tab's explain panel: why a run's number differs from another number, question by question.

For the run shown: its figure under every reference scorer (MathReel's robust reader and each pinned reproduction,
both denominators, group scores, each row with its source and commit); a gap from it to another loaded run, to
another scorer of the same file, or to a typed or published figure, decomposed into causes that add up exactly;
and, when two numbers share questions, the paired comparison (flip matrix, exact McNemar, cluster bootstrap
interval). Each cause, and each side of the flips, is a walk list that opens its questions in Browse's reading
flow. Everything is `core.explain` (the same object as `mathreel explain --json`); this module only lays it out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.webapp.context import AppContext, progress_on, select_handler
from mathreel.webapp.html import plain
from mathreel.webapp.reading_flow import Walk

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.explain.explanation import Explanation
    from mathreel.core.explain.runs import Run as ExplainRun
    from mathreel.core.explain.scorers import Scorer
    from mathreel.webapp.scored_runs import Run

NOTHING, RUN, READER, FIGURE = "", "run:", "reader:", "figure"
CAUSE_COLUMNS = ["List", "Points", "Questions", "What it is", "The change", "How answers moved"]
FLIP_COLUMNS = ["Dimension", "Value", "n", "Both right", "Only A", "Only B", "Neither", "A − B (pt)", "McNemar p"]
_READ_CACHE: dict[tuple[str, str], ExplainRun] = {}  # (file digest, how it was read) -> the run read again
_TABLES: dict[tuple[str, str, str], Any] = {}  # the same, and the run's name -> its reference table
_CACHE_SIZE = 16


# -- choices ----------------------------------------------------------------------------------------------------


def against_choices(runs: list[Run] | None, name: str | None) -> list[tuple[str, str]]:
    """What the run shown can be explained against: nothing (the reference table alone), every other loaded run of
    the same benchmark and mode, every other scorer of the benchmark on the same file, or a figure typed in."""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.explain.scorers import readers

    choices = [("Nothing: every reference scorer of this run", NOTHING)]
    run = _named(runs, name)
    if run is None:
        return choices
    choices += [
        (f"Run {other.name}", RUN + other.name)
        for other in runs or []
        if other.key == run.key and other.name != run.name
    ]
    own = _options_of(run).extractor
    for reader in readers(get_benchmark(run.report.benchmark)):
        if own not in reader.names:
            choices.append((f"Scorer {' = '.join(reader.names)} on this file ({reader.title})", READER + reader.name))
    choices.append(("A figure (type it, or MODEL/SETTING of the paper tables)", FIGURE))
    return choices


def _named(runs: list[Run] | None, name: str | None) -> Run | None:
    from mathreel.core.runs import find_run

    return find_run(list(runs or []), name, stale_is_first=True)


def _options_of(run: Run) -> Any:
    from mathreel.webapp.scored_runs import ScoreOptions

    return run.options or ScoreOptions()


# -- reading the runs for core.explain ---------------------------------------------------------------------------


def explain_run(run: Run) -> ExplainRun:
    """The loaded run as `core.explain` reads it: its file read again exactly as Score read it (kept for a few
    runs, so choosing another comparison does not read it again)."""
    from mathreel.core.explain.runs import Run as ExplainRun
    from mathreel.core.results import read_results

    options = _options_of(run)
    memo = (run.digest or run.path, f"{run.report.benchmark}:{run.report.mode}:{options.annotations}")
    found = _READ_CACHE.get(memo)
    if found is None:
        result = read_results(
            run.path, benchmark=run.report.benchmark, mode=run.report.mode, annotations=options.annotations
        )
        if len(_READ_CACHE) >= _CACHE_SIZE:
            _READ_CACHE.pop(next(iter(_READ_CACHE)))
        found = _READ_CACHE[memo] = ExplainRun(result)
    return ExplainRun(found.result, name=run.name)


def scorer_of(run: Run, reader: str | None = None) -> Scorer:
    """How Score scored `run` (its extractor, and its denominator when one was chosen), or `reader`'s own number."""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.explain.scorers import Scorer, check_scorer, own_scorer

    bench = get_benchmark(run.report.benchmark)
    options = _options_of(run)
    base = own_scorer(bench, reader or options.extractor or "robust")
    if reader is None and options.denominator and base.unit == "question":
        base = Scorer(base.reader, options.denominator, "question")
    return check_scorer(bench, run.report.mode, base)


def _figure(text: str, run: ExplainRun) -> tuple[Any, Any]:
    """A typed figure ("58.2") or a published one ("GPT-4o/mcq_sub"), with the choice of paper row."""
    from mathreel.core.errors import InputError, MathReelError
    from mathreel.core.explain.provenance import provenance
    from mathreel.core.explain.target import paper_target, typed_target

    text = (text or "").strip()
    if not text:
        raise MathReelError("type the figure to explain (such as 58.2) in “Figure”")
    try:
        if any(ch.isdigit() for ch in text) and "/" not in text:
            return typed_target(text), None
        reference = run.bench.reference_results()
        if reference is None:
            raise MathReelError(
                f"“{text}” is not a figure such as 58.2, and {run.bench.title} has no published results to name"
            )
        cot = provenance(run.result, run.name).settings["cot"].value
        choice = paper_target(reference, text, run.result.mode, bool(cot))
        return choice.target, choice
    except InputError as error:
        raise MathReelError(f"Figure “{text}”: {error.problem}") from None


def _shown_run(runs: list[Run] | None, name: str | None) -> Run:
    from mathreel.core.errors import MathReelError

    run = _named(runs, name)
    if run is None:
        raise MathReelError("score a result file first (or load the demo runs)")
    return run


def references_of(run: Run) -> Any:
    """The run's reference table (`core.explain.references`), worked out once per run: it scores the file under
    every reader, and every comparison shows it."""
    from mathreel.core.explain.references import reference_table

    options = _options_of(run)
    memo = (run.digest or run.path, f"{run.report.benchmark}:{run.report.mode}:{options.annotations}", run.name)
    table = _TABLES.get(memo)
    if table is None:
        if len(_TABLES) >= _CACHE_SIZE:
            _TABLES.pop(next(iter(_TABLES)))
        table = _TABLES[memo] = reference_table(explain_run(run))
    return table


def explanation(runs: list[Run] | None, name: str | None, against: str, figure: str = "") -> Explanation:
    """core's explanation of the run shown against what `against` names (`figure` for a figure, or a figure typed
    while `against` is Nothing): exactly what `mathreel explain` gives for the same files and scorers (the one-file
    reference table worked out once per run)."""
    from mathreel.core.errors import MathReelError
    from mathreel.core.explain.explanation import explain

    run = _shown_run(runs, name)
    mine = explain_run(run)
    scorer = scorer_of(run)
    if against == NOTHING and figure.strip():
        against = FIGURE  # a figure typed with "Explain against" left as it was: the figure is what was meant
    if against.startswith(RUN):
        other = next((r for r in runs or [] if r.name == against.removeprefix(RUN)), None)
        if other is None:
            raise MathReelError(f"{against.removeprefix(RUN)} is no longer among your runs")
        return explain([mine, explain_run(other)], [scorer, scorer_of(other)])
    scorers, target, paper = [scorer], None, None
    if against.startswith(READER):
        scorers.append(scorer_of(run, against.removeprefix(READER)))
    elif against == FIGURE:
        target, paper = _figure(figure, mine)
    return explain([mine], scorers, target, paper, references=references_of(run))


# -- the panel's values ------------------------------------------------------------------------------------------


@dataclass
class ExplainView:
    """What the panel shows: the reference table, the gap and paired comparison in words, one row per walk list
    (each cause of the gap, then the flips), and the walk behind each row."""

    references: pd.DataFrame | None = None
    sources: str = ""
    summary: str = ""
    lists: pd.DataFrame | None = None
    flips: pd.DataFrame | None = None
    walks: list[dict[str, Any]] = field(default_factory=list)
    found: Explanation | None = None  # what was explained (its JSON and CSV are the downloads)


def _pct(value: Any) -> str:
    from mathreel.core.scoring.numbers import one_decimal

    return "—" if value is None else one_decimal(float(value))


def reference_frame(table: Any) -> tuple[pd.DataFrame | None, str]:
    """A row per reader, a column per way of counting (* the figure the reference itself reports), its unparsed
    and differently read answers, source and commit; and the sources as text."""
    import pandas as pd

    if table is None:
        return None, ""
    rows = []
    for row in table.rows:
        record: dict[str, Any] = {"Scorer": row.label}
        for column in table.columns:
            record[column.heading] = _pct(row.cells[column.key].value) + ("*" if column.key == row.own else "")
        record.update(
            {
                "Unparsed": len(row.unparsed),
                "Read differently": len(row.read_differently),
                "Source": row.reader.source or "MathReel",
                "Commit": row.reader.commit or "—",
            }
        )
        rows.append(record)
    notes = [f"- {plain(note)}" for note in table.notes]
    text = (
        "_* marks the figure each reference itself reports. Each reproduction keeps its reference's quirks; "
        "its source is the file at that commit._" + ("\n\n" + "\n".join(notes) if notes else "")
    )
    return pd.DataFrame(rows), text


def _flip_rows(found: Explanation) -> pd.DataFrame | None:
    import pandas as pd

    paired = found.paired
    if paired is None:
        return None
    from mathreel.core.benchmarks import get_benchmark

    bench = get_benchmark(found.runs[0].result.benchmark)
    cells = [("All", "", paired.overall)]
    cells += [
        (bench.dimension(dim).label, value, flips)
        for dim, values in paired.by.items()
        for value, flips in values.items()
    ]
    rows = [
        [
            dim,
            value,
            f.n,
            f.both,
            f.only_a,
            f.only_b,
            f.neither,
            "—" if f.difference is None else f"{float(f.difference):+.1f}",
            f"{f.p_value:.4g}",
        ]
        for dim, value, f in cells
    ]
    return pd.DataFrame(rows, columns=FLIP_COLUMNS)


def paired_text(found: Explanation) -> str:
    """The flip matrix, the exact McNemar test and the cluster bootstrap interval in words."""
    paired = found.paired
    if paired is None:
        return ""
    o, interval = paired.overall, paired.interval
    shown = "—" if interval.low is None else f"[{interval.low:+.1f}, {interval.high:+.1f}]"
    difference = "—" if o.difference is None else f"{float(o.difference):+.1f}"
    lines = [
        f"#### Paired, per {plain(paired.unit)}: which questions flipped, and is it real?",
        f"A = {plain(paired.a)} · B = {plain(paired.b)}",
        "",
        "| | B right | B wrong |",
        "|---|---|---|",
        f"| **A right** | {o.both} | {o.only_a} |",
        f"| **A wrong** | {o.only_b} | {o.neither} |",
        "",
        f"A − B **{difference} pt** on {o.n} shared; exact McNemar p = **{o.p_value:.4g}**; 95% interval "
        f"{shown} pt ({plain(interval.method)}; {counted(interval.clusters, 'cluster')} by "
        f"{plain(interval.clustered_by)}).",
    ]
    if interval.note:
        lines.append(f"\n_{plain(interval.note)}_")
    if any(paired.not_shared):
        lines.append(f"\n_Counted by one only (left out): {paired.not_shared[0]} by A, {paired.not_shared[1]} by B._")
    return "\n".join(lines)


def gap_text(found: Explanation) -> str:
    """The gap in one line, with both ends, and what could not be reached."""
    from mathreel.core.explain.text import figure_text, gap_line, gap_places

    gap = found.gap
    if gap is None:
        return ""
    places = gap_places(gap)  # as many decimals as make the two figures and the gap agree
    a, b = figure_text(gap.a_figure, places, "—"), figure_text(gap.b_figure, places, "—")
    lines = [
        f"#### Gap: {plain(gap.a)} = {a} → {plain(gap.b)} = {b}",
        f"**{plain(gap_line(gap))}**",
        "",
    ]
    if found.paper is not None and found.paper.note:
        lines.append(f"_{plain(found.paper.note)}_")
    lines += [f"- {plain(note)}" for note in gap.notes]
    if found.paired is not None or any(step.changes for step in gap.steps):
        lines.append("\n_Click a row below to read its questions in Browse, one after another._")
    else:  # a figure reached within its printed digits: the one row lists no question
        lines.append("\n_No question is marked differently on the way: there is nothing to read in Browse._")
    return "\n".join(lines)


def settings_text(found: Explanation) -> str:
    """Each run's settings, read from the file or marked as a guess."""
    parts = []
    for provenance in found.settings:
        items = [
            f"{plain(s.label)}: {plain(s.text)}{' _(a guess)_' if s.marked_guess else ''}"
            for s in provenance.settings.values()
        ]
        parts.append(f"**{plain(provenance.run)}**: " + " · ".join(items))
    return "\n\n".join(parts)


def walk_lists(found: Explanation, run: str) -> tuple[pd.DataFrame | None, list[dict[str, Any]]]:
    """One row per cause of the gap (the questions it moved) and per side of the flips, with the walk of each:
    `run`'s responses to exactly those questions."""
    import pandas as pd

    rows, walks = [], []
    for step in found.gap.steps if found.gap else []:
        if not (step.delta or step.changes):
            continue
        delta = "undefined" if step.delta is None else f"{float(step.delta):+.2f}"
        moved = ", ".join(f"{key}: {count}" for key, count in step.transitions().items())
        rows.append([step.cause, delta, len(step.changes), step.means, step.label, moved])
        walks.append(
            Walk(run=run, status="all", ids=tuple(step.question_ids), listed=f"{step.cause} ({step.means})").to_dict()
        )
    paired = found.paired
    if paired is not None:
        for label, ids in (("A right, B wrong", paired.only_a_ids), ("B right, A wrong", paired.only_b_ids)):
            rows.append([label, "", len(ids), "flips of the paired comparison", "", ""])
            walks.append(Walk(run=run, status="all", ids=tuple(ids), listed=label).to_dict())
    if not rows:
        return None, []
    return pd.DataFrame(rows, columns=CAUSE_COLUMNS), walks


def comparison_view(found: Explanation) -> ExplainView:
    """What the panel shows of a comparison (the reference table aside): summary, walk lists, flips."""
    lists, walks = walk_lists(found, found.runs[0].name)
    summary = "\n\n".join(
        part
        for part in (gap_text(found), paired_text(found), "#### Settings of each run", settings_text(found))
        if part
    )
    notes = "\n".join(f"- {plain(note)}" for note in found.notes)
    return ExplainView(None, "", summary + ("\n\n" + notes if notes else ""), lists, _flip_rows(found), walks, found)


def explain_view(runs: list[Run] | None, name: str | None, against: str, figure: str = "") -> ExplainView:
    """Everything the panel shows for the run shown against `against`."""
    view = comparison_view(explanation(runs, name, against, figure))
    view.references, view.sources = reference_frame(references_of(_shown_run(runs, name)))
    return view


def open_target(runs: list[Run] | None, walks: list[dict[str, Any]] | None, index: int) -> tuple[str, str, dict] | None:
    """(benchmark key, first question, walk) of walk list `index`; None when it lists no question or its run is gone."""
    if not walks or not 0 <= index < len(walks):
        return None
    walk = Walk.of(walks[index])
    run = next((r for r in runs or [] if r.name == walk.run), None)
    if run is None or not walk.ids:
        return None
    return run.key, walk.ids[0], walk.to_dict()


# -- downloads and "same frames?" --------------------------------------------------------------------------------


def explanation_json(found: Explanation) -> dict[str, Any]:
    """The `mathreel explain --json` object of `found`, each file named as the visitor knows it (its name, as the
    command gives it when run beside the files) and no server path in any text."""
    from mathreel.webapp.server_paths import ServerPaths

    paths = ServerPaths.of()

    def scrubbed(value: Any) -> Any:
        if isinstance(value, str):
            return paths.scrub(value)
        if isinstance(value, list):
            return [scrubbed(item) for item in value]
        if isinstance(value, dict):
            return {key: scrubbed(item) for key, item in value.items()}
        return value

    data = found.to_dict()
    for run, entry in zip(found.runs, data["runs"], strict=True):
        entry["source"] = run.name
    return scrubbed(data)


def write_downloads(folder: Path, found: Explanation) -> list[str]:
    """The explanation as `mathreel explain --json` and `--csv` print it, in two files of `folder`."""
    import json
    import re

    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(found.runs[0].name).stem) or "run"
    json_path, csv_path = folder / f"{stem}-explain.json", folder / f"{stem}-explain.csv"
    json_path.write_text(
        json.dumps(explanation_json(found), ensure_ascii=False, indent=1) + "\n", encoding="utf-8", newline=""
    )
    csv_path.write_text(found.rows_csv(), encoding="utf-8", newline="")
    return [str(json_path), str(csv_path)]


FRAME_COLUMNS = ["#", "A frame", "A time (s)", "A subtitles", "B frame", "B time (s)", "B subtitles"]


def _plan(text: str, side: str) -> Any:
    """A frame plan typed in the panel ("16", "64/midpoints", "1fps/64"), or None for the run's own."""
    from mathreel.core.errors import InputError, MathReelError
    from mathreel.core.explain.frames import FramePlan

    if not (text or "").strip():
        return None
    try:
        return FramePlan.parse(text)
    except InputError as error:
        raise MathReelError(f"{side}'s frame plan “{text.strip()}”: {error.problem}") from None


def _check_on_server(dataset: Any, sides: list[Run], ref: str) -> None:
    """Refuse a question whose answer in a run is not the server's question of that id (the join rule of every
    tab, `webapp.shown_answer`): the server's video of that id is another question's, so its frames would not be
    the frames the run's model saw."""
    from mathreel.core.errors import MathReelError
    from mathreel.webapp.shown_answer import walked_answer

    for side in sides:
        answer = walked_answer(dataset, [side], {"run": side.name}, ref)
        if answer is not None and not answer.on_server:
            raise MathReelError(
                f"Question “{ref}” of {side.name}: {answer.join.reason}, so its video is not on this server: "
                "no frames to compare"
            )


def same_frames(
    datasets: Any, runs: list[Run] | None, name: str | None, against: str, question: str, plan_a: str, plan_b: str
) -> tuple[str, pd.DataFrame]:
    """ "Same frames?": A's and B's frame plans (the runs' detected ones, the benchmark's default, or typed) on one
    question's video, frame by frame with the subtitle lines each sees (`core.explain.frames`)."""
    import pandas as pd

    from mathreel.core.errors import InputError, MathReelError
    from mathreel.core.explain.frames import compare_on_question, plans_to_compare
    from mathreel.core.explain.provenance import provenance

    run = _shown_run(runs, name)
    sides = [run]
    if (against or "").startswith(RUN):
        sides += [r for r in runs or [] if r.name == against.removeprefix(RUN)][:1]
    read = [explain_run(side) for side in sides]
    a, b = plans_to_compare(read[0].bench, [provenance(r.result, r.name).plan for r in read])
    a, b = _plan(plan_a, "A") or a, _plan(plan_b, "B") or b
    ref = (question or "").strip() or (run.report.rows[0].question_id if run.report.rows else "")
    dataset = datasets.get(run.report.benchmark, run.report.mode)
    _check_on_server(dataset, sides, ref)
    try:
        found = compare_on_question(dataset, ref, a, b)
    except InputError as error:
        raise MathReelError(f"Question “{ref}”: {error.problem}") from None
    verdict = "the same frames" if found.same_frames else f"different frames ({len(found.shared)} indices shared)"
    lines = [
        f"**Same frames? {verdict}; {'the same' if found.same_subtitles else 'different'} subtitle lines** "
        f"({found.total_frames} frames at {found.fps:g} fps)",
        f"A: {plain(a.describe())} · B: {plain(b.describe())}",
    ]
    for side, only in (("A", found.only_a_lines), ("B", found.only_b_lines)):
        if only:
            lines.append(f"_Subtitle lines only {side} sees:_ {plain(' / '.join(only))}")
    lines += [f"_{plain(note)}_" for note in found.notes]
    rows = []
    for k in range(max(len(found.a_frames), len(found.b_frames))):
        cells: list[Any] = [k + 1]
        for frames in (found.a_frames, found.b_frames):
            row = frames[k] if k < len(frames) else None
            cells += [row.index, round(row.time, 2), " / ".join(row.subtitles)] if row else ["", "", ""]
        rows.append(cells)
    return "\n\n".join(lines), pd.DataFrame(rows, columns=FRAME_COLUMNS)


# -- layout and wiring -------------------------------------------------------------------------------------------


class ExplainUI(SimpleNamespace):
    """The panel's components by name."""


def layout() -> ExplainUI:
    """Place the panel (folded until opened): what to compare, then the tables."""
    import gradio as gr

    ui = ExplainUI()
    with gr.Accordion(
        "Why does my number differ? Every reference, a gap split into causes, paired runs",
        open=False,
        elem_id="score-explain",
    ):
        gr.Markdown(
            "The run shown in detail (above) under every reference scorer; choose what to compare it with "
            "to split the difference into causes that add up exactly, each a list of questions to read in "
            "Browse. The same numbers as `mathreel explain`."
        )
        with gr.Row(elem_classes=["stack-narrow"]):
            ui.against = gr.Dropdown(
                against_choices(None, None),
                value=NOTHING,
                label="Explain against",
                elem_id="score-explain-against",
                scale=3,
            )
            ui.figure = gr.Textbox(
                label="Figure",
                placeholder="58.2, or MODEL/SETTING such as GPT-4o/mcq_sub",
                elem_id="score-explain-figure",
                scale=2,
            )
            ui.button = gr.Button("Explain", variant="primary", elem_id="score-explain-go", scale=1)
        ui.note = gr.Markdown("", elem_id="score-explain-note")
        ui.error = gr.Markdown("", visible=False, elem_id="score-explain-error", elem_classes=["error-box"])
        ui.references = gr.Dataframe(
            label="Every reference scorer on this run",
            interactive=False,
            wrap=True,
            visible=False,
            elem_id="score-explain-references",
        )
        ui.sources = gr.Markdown("", elem_id="score-explain-sources")
        ui.summary = gr.Markdown("", elem_id="score-explain-summary")
        ui.lists = gr.Dataframe(
            label="Causes and flips (click a row to read its questions in Browse)",
            interactive=False,
            wrap=True,
            visible=False,
            elem_id="score-explain-lists",
        )
        ui.flips = gr.Dataframe(
            label="Flips by dimension value",
            interactive=False,
            wrap=True,
            visible=False,
            max_height=360,
            elem_id="score-explain-flips",
        )
        ui.files = gr.File(
            label="The explanation as `mathreel explain --json` and `--csv` give it",
            file_count="multiple",
            interactive=False,
            visible=False,
            elem_id="score-explain-files",
        )
        ui.walks = gr.State([])
        _frames_layout(ui)
    return ui


def _frames_layout(ui: ExplainUI) -> None:
    import gradio as gr

    gr.Markdown(
        "**Same frames?** The frames and subtitle lines of two frame plans on one question's video: A's and B's "
        "(the runs' detected plans, or the benchmark's default), or type a plan such as 16, 64/midpoints, 1fps/64."
    )
    with gr.Row(elem_classes=["stack-narrow"]):
        ui.frames_question = gr.Textbox(
            label="Question id", placeholder="the run's first question", elem_id="score-explain-frames-q", scale=2
        )
        ui.plan_a = gr.Textbox(label="A's plan", placeholder="detected", elem_id="score-explain-plan-a", scale=1)
        ui.plan_b = gr.Textbox(label="B's plan", placeholder="detected", elem_id="score-explain-plan-b", scale=1)
        ui.frames_button = gr.Button("Compare frames", elem_id="score-explain-frames-go", scale=1)
    ui.frames_summary = gr.Markdown("", elem_id="score-explain-frames-summary")
    ui.frames_table = gr.Dataframe(
        headers=FRAME_COLUMNS,
        interactive=False,
        wrap=True,
        visible=False,
        max_height=420,
        elem_id="score-explain-frames",
    )


def failure(error: Exception, runs: list[Run] | None, name: str | None) -> str:
    """The panel's one error line: what was explained (the file by its name) and the problem in the page's
    words; a bug is logged with its traceback."""
    from mathreel.core.errors import MathReelError
    from mathreel.webapp.errors import error_box, error_message, log

    if not isinstance(error, MathReelError):
        log.error("explain failed", exc_info=error)
    message = error_message(error)
    run = _named(runs, name)
    if run is not None and run.name not in message:
        message = f"Explaining {run.name}: {message}"
    return error_box(message)


def explain_steps(downloads: Any, runs: list[Run] | None, name: str | None, against: str, figure: str) -> Iterator:
    """One click, two updates: the run's reference table as soon as it is ready (the comparison cleared), then
    the comparison (summary, walk lists, flips, downloads). A failure is one line in the error box, once."""
    import gradio as gr

    hidden = gr.update(value="", visible=False)
    try:
        frame, sources = reference_frame(references_of(_shown_run(runs, name)))
        off = gr.update(visible=False)
        yield hidden, gr.update(value=frame, visible=frame is not None), sources, "", off, off, [], off
        view = comparison_view(explanation(runs, name, against or NOTHING, figure))
        files = write_downloads(downloads.fresh(), view.found) if view.found is not None else None
        yield (
            hidden,
            gr.skip(),
            gr.skip(),
            view.summary,
            gr.update(value=view.lists, visible=view.lists is not None),
            gr.update(value=view.flips, visible=view.flips is not None),
            view.walks,
            gr.update(value=files, visible=bool(files)),
        )
    except Exception as error:  # the page must survive anything a handler meets
        skip = gr.skip()
        yield gr.update(value=failure(error, runs, name), visible=True), skip, skip, skip, skip, skip, skip, skip


def wire(context: AppContext, score_ui: Any, ui: ExplainUI, group: dict[str, Any], downloads: Any) -> None:
    """Offer the comparisons of the run shown, explain on the button (one event, two updates), compare frames,
    and open a walk list in Browse."""
    import gradio as gr

    options = {**group, **progress_on(ui.note)}
    outputs = [ui.error, ui.references, ui.sources, ui.summary, ui.lists, ui.flips, ui.walks, ui.files]

    def choices(runs: list[Run] | None, name: str | None) -> Any:
        return gr.update(choices=against_choices(runs, name), value=NOTHING)

    for source in (score_ui.run_pick, score_ui.runs):
        source.change(choices, [score_ui.runs, score_ui.run_pick], ui.against, **options)

    def steps(runs: list[Run] | None, name: str | None, against: str, figure: str) -> Iterator:
        yield from explain_steps(downloads, runs, name, against, figure)

    inputs = [score_ui.runs, score_ui.run_pick, ui.against, ui.figure]
    ui.button.click(steps, inputs, outputs, **options)

    def frames(runs: list[Run] | None, name: str | None, against: str, question: str, a: str, b: str) -> tuple:
        try:
            text, table = same_frames(context.datasets, runs, name, against, question, a, b)
        except Exception as error:  # the page must survive anything a handler meets
            return gr.update(value=failure(error, runs, name), visible=True), gr.skip(), gr.skip()
        return gr.update(value="", visible=False), text, gr.update(value=table, visible=True)

    ui.frames_button.click(
        frames,
        [score_ui.runs, score_ui.run_pick, ui.against, ui.frames_question, ui.plan_a, ui.plan_b],
        [ui.error, ui.frames_summary, ui.frames_table],
        **options,
    )
    _wire_browse(context, score_ui, ui, group)


def _wire_browse(context: AppContext, score_ui: Any, ui: ExplainUI, group: dict[str, Any]) -> None:
    """A click on a walk list opens Browse on its first question, walking only that list: one event (the tab,
    the walk, Browse's controls, settings and page), then Browse's question table."""
    import gradio as gr

    browse = context.browse
    if browse is None:
        return
    target = gr.State(None)

    @select_handler
    def pick(evt: gr.SelectData, runs: list, walks: list, *browse_values: Any) -> tuple:  # evt first: see wire
        index = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        found = open_target(runs, walks, int(index or 0))
        if found is None:
            skips = [gr.skip()] * (4 + len(browse.jump_outputs))
            return (*skips, "_That list holds no question to read._")
        key, ref, walk = found
        place = {"key": key, "ref": ref}
        opened = browse.jump(place, walk, runs, *browse_values)
        return (gr.Tabs(selected="browse"), gr.update(value=key), place, walk, *opened, "")

    shown, listed = {**group, **browse.progress}, {**group, **browse.list_progress}
    ui.lists.select(
        pick,
        [score_ui.runs, ui.walks, *browse.jump_inputs],
        [context.tabs, browse.benchmark, target, browse.walk, *browse.jump_outputs, ui.note],
        **shown,
    ).then(browse.refresh_list[0], browse.refresh_list[1], browse.refresh_list[2], **listed).then(
        None, None, None, js="() => document.querySelector('#browse-reading')?.scrollIntoView()"
    )
