"""The one rule for the question an answer is shown with, in every tab that shows one (Browse, Score's drill-down,
the reading walk, the Judge tab, Ask following Browse): a walked answer is drawn under the server's question only
when the join rule (`core.results.question_join`, text and options by fingerprint, never the id alone) says it is
that question; otherwise it is read from its file alone (`core.answer_view.file_view`), with the note saying the
server has no video or frames for it.

Also what a benchmark lets a page ask for (`fit_view`, `style_choices`): the prompt styles the CLI knows, chain of
thought and subtitles only where the benchmark has them, so a control never offers what fails after the click.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mathreel.webapp.reading_flow import Walk, row_of, run_named

if TYPE_CHECKING:
    from mathreel.core.answer_view import AnswerView
    from mathreel.core.data import Dataset
    from mathreel.core.results.question_join import QuestionJoin
    from mathreel.core.view import ViewSettings
    from mathreel.webapp.scored_runs import Run

RECORDED = "recorded"  # the prompt choice "as the file recorded it" (the benchmark's default style when it has none)


def walked_answer(dataset: Dataset, runs: list[Run] | None, walk_value: dict | None, ref: str) -> AnswerView | None:
    """The walked run's answer to `ref` through the join rule: its view with the server's question when it is that
    question, else read from the file. None when no run of this benchmark is walked or it has no answer to `ref`."""
    from mathreel.core.answer_view import answer_view

    run = run_named(runs, Walk.of(walk_value).run)
    if run is None or run.key != f"{dataset.benchmark}:{dataset.mode}":
        return None
    row = row_of(run, ref)
    if row is None or row.status == "missing":  # a missing answer is a row of the annotations: their question
        return None
    return answer_view(row, dataset, by_id=by_id_allowed(run, dataset))


def file_answer(key: str, runs: list[Run] | None, walk_value: dict | None, ref: str) -> AnswerView | None:
    """The walked run's answer to `ref` read from its file, for a server that has no questions of this benchmark
    (None when no run of `key` is walked or it has no answer to `ref`)."""
    from mathreel.core.answer_view import file_view
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.results.question_join import QuestionJoin

    run = run_named(runs, Walk.of(walk_value).run)
    if run is None or run.key != key:
        return None
    row = row_of(run, ref)
    if row is None:
        return None
    title = get_benchmark(run.report.benchmark).title
    return file_view(
        row,
        run.report.benchmark,
        join=QuestionJoin(None, None, f"this server has no {title} questions: read from the file"),
    )


def by_id_allowed(run: Run, dataset: Dataset) -> bool:
    """Whether an answer of `run` whose file records no question text may join `dataset`'s question by its id: the
    run was read with the server's dataset as its annotations (the user said so), or it is one of the demo's own
    result files (the same bytes) and the server shows the demo set they were written for."""
    if run.options is not None and run.options.annotations:
        return True
    return _is_demo_set(dataset) and bool(run.digest) and run.digest in _demo_digests()


def _is_demo_set(dataset: Dataset) -> bool:
    from mathreel.core.data import demo_dir

    try:
        return dataset.root.resolve() == demo_dir().resolve() or demo_dir().resolve() in dataset.root.resolve().parents
    except OSError:
        return False


_DIGESTS: set[str] = set()


def _demo_digests() -> set[str]:
    """The SHA-256 of each of the demo's result files (read once)."""
    if not _DIGESTS:
        from mathreel.core.data import demo_dir
        from mathreel.webapp.scored_runs import digest

        folder = demo_dir() / "results"
        if folder.is_dir():
            _DIGESTS.update(digest(path) for path in sorted(folder.iterdir()) if path.is_file())
    return _DIGESTS


def media_ref(dataset: Dataset, runs: list[Run] | None, walk_value: dict | None, ref: str | None) -> str | None:
    """The question whose frames a switch to `ref` may preview: None when the walked answer is read from its file
    (the server's video of that id is another question's)."""
    if not ref:
        return None
    answer = walked_answer(dataset, runs, walk_value, ref)
    return None if answer is not None and not answer.on_server else ref


def same_question(row: Any, other: Any, dataset: Dataset | None, by_id: bool = False) -> bool:
    """Whether two runs' answers with one id answer the same question: both joined to the server's question, or
    what one file recorded matches what the other recorded. Never the id alone (`by_id`: as `by_id_allowed`)."""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.results.question_join import join_question, match_how

    if dataset is not None:
        mine = join_question(row.recorded, row.question_id, dataset, by_id=by_id)
        theirs = join_question(other.recorded, other.question_id, dataset, by_id=by_id)
        if mine.on_server or theirs.on_server:
            return mine.on_server and theirs.on_server
    if row.recorded is None or other.recorded is None:
        return False
    bench = get_benchmark(row.recorded.question.benchmark)
    return match_how(row.recorded, other.recorded.question, bench) is not None


def style_choices(benchmark: str, recorded: bool = True) -> list[tuple[str, str]]:
    """The prompt styles of `benchmark` for a dropdown, "as the file recorded it" first when `recorded`."""
    from mathreel.core.prompt_styles import prompt_choices

    choices = prompt_choices(benchmark)
    styles = [(f"{s.name}: {s.note}" if s.note else s.name, s.name) for s in choices.styles]
    return [("As the file recorded it (else default)", RECORDED), *styles] if recorded else styles


def fit_view(view: ViewSettings, benchmark: str) -> tuple[ViewSettings, list[str]]:
    """`view` cut to what `benchmark` (and the chosen style) can ask: no chain of thought where it has none, no
    subtitles where it has none, a known style; with a note for each setting dropped."""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.prompt_styles import prompt_choices

    choices = prompt_choices(benchmark)
    title = get_benchmark(benchmark).title
    notes = []
    wanted = view.style if view.style != RECORDED else choices.default.name
    names = {s.name for s in choices.styles}
    style = choices.style(wanted if wanted in names else choices.default.name)
    if wanted not in names:
        notes.append(f"{title} has no prompt style {wanted}: {style.name} is shown")
    cot = view.cot and style.cot
    if view.cot and not cot:
        notes.append(
            "chain of thought is not a setting of this prompt"
            if choices.cot
            else f"{title} prompts have no chain-of-thought form"
        )
    subs = view.with_subtitles or view.full_subtitles
    if subs and not choices.subtitles:
        notes.append(f"{title} questions have no subtitles")
    if cot and subs and choices.subtitles and not style.cot_with_subtitles:
        notes.append(f"style {style.name} cannot ask for chain of thought with subtitles: subtitles left out")
        subs = False
    fitted = replace(
        view,
        cot=cot,
        style=style.name,
        with_subtitles=view.with_subtitles and subs and choices.subtitles,
        full_subtitles=view.full_subtitles and subs and choices.subtitles,
        interleaved=view.interleaved and subs and choices.subtitles,
    )
    return fitted, notes


def judged_join(dataset: Dataset, qid: str, response: str, runs: list[Run] | None = None) -> QuestionJoin:
    """The server's question a judged answer is shown with: the join rule on the scored row holding the judged
    response (a run of the session, or one of the demo's own result files, which the demo's judgments judged),
    never the id alone. A judgment file records no question text; with no result file holding its answer, its
    answer is not shown under a question."""
    from mathreel.core.judge.fingerprint import response_fingerprint
    from mathreel.core.results.question_join import QuestionJoin, join_question

    key = f"{dataset.benchmark}:{dataset.mode}"
    wanted = response_fingerprint(response or "")
    rows = [(row_of(run, qid), by_id_allowed(run, dataset)) for run in runs or [] if run.key == key]
    demo = _is_demo_set(dataset)
    rows.extend((row, demo) for report in _demo_reports(key) for row in report.rows if row.question_id == qid)
    for row, by_id in rows:
        if row is not None and response_fingerprint(row.response or "") == wanted:
            return join_question(row.recorded, qid, dataset, by_id=by_id)
    return QuestionJoin(
        None,
        None,
        "the judgment file records no question text and no loaded result file holds "
        "this answer: load its result file in Score to see its question",
    )


def _demo_reports(key: str) -> list[Any]:
    """The demo set's result files of `key`, scored once: what the demo's judgments judged."""
    return [report for report in _all_demo_reports() if f"{report.benchmark}:{report.mode}" == key]


_DEMO_REPORTS: list[Any] = []


def _all_demo_reports() -> list[Any]:
    if not _DEMO_REPORTS:
        from mathreel.core.data import demo_dir
        from mathreel.core.scoring.files import ScoreRequest, score_file

        folder = demo_dir() / "results"
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            try:
                _DEMO_REPORTS.append(score_file(ScoreRequest(str(path))))
            except Exception:  # a demo file this build cannot read: its judgments are read on their own
                continue
    return _DEMO_REPORTS
