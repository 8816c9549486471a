"""Judge tab: per question, the model's CoT response beside the annotated steps, the step card and the error
categories with their rationales; charts of mean step scores and error categories per run; filters; and the judge
run from the page (on the current question or on an uploaded result file), with progress.

Everything judged comes from `core.judge` (the same code as `mathreel judge`); the folding into tables is
`core.judge.views`. Model responses, critiques and rationales are shown as text: every string that reaches HTML is
escaped (the card's HTML is `webapp.judge_card`), and the response itself sits in a read-only textbox. Runs live in
a per-user `gr.State`. The demo set ships synthetic judgments (assets/demo/judgments), loaded for every visitor so
the tab works with no endpoint.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.core.runs import find_run, unique_name
from mathreel.webapp import charts
from mathreel.webapp.context import AppContext, TabSpec, progress_on, select_handler, with_request
from mathreel.webapp.errors import error_message, guarded, log, warn
from mathreel.webapp.fair_queue import FairQueue
from mathreel.webapp.isolate import DEFAULT_BUDGET, Budget
from mathreel.webapp.judge_card import card_html, chips_html, question_header, raw_text, steps_html
from mathreel.webapp.judged_runs import JudgedRun, error_categories, load_demo_runs, load_uploads, primary_dimension
from mathreel.webapp.present import frame_items
from mathreel.webapp.review import QuestionView, build_panel
from mathreel.webapp.review_state import review_session
from mathreel.webapp.scored_runs import run_costed
from mathreel.webapp.visitor import visitor_key

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.judge import Judgment
    from mathreel.core.question import Question

ANY = ""  # "no filter" in the category dropdown
# An error that a setting gets past (core.errors.Fix), worded as this tab's control.
FIXES = {
    "judge_base_url": "fill in “Judge base URL” under “Run the judge”",
    "judge_model": "fill in “Judge model” under “Run the judge”",
}


@dataclass
class Selection:
    """What the user is looking at: the run and the question."""

    run: str | None = None
    question_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# -- tables and text ------------------------------------------------------------------------------------------


def status_table(runs: list[JudgedRun]) -> pd.DataFrame:
    """Per run and task: how many judgments of each status (judge failures always visible)."""
    import pandas as pd

    from mathreel.core.judge import STATUSES, count_statuses

    rows = []
    for run in runs:
        for task, counts in count_statuses(run.judgments).items():
            rows.append(
                {
                    "Run": run.name,
                    "Task": task,
                    **{s: counts[s] for s in STATUSES},
                    "Judge failures": counts["fallback"] + counts["failed"],
                }
            )
    return pd.DataFrame(rows)


def question_table(run: JudgedRun | None, category: str = ANY, low: float = 0, high: float = 10) -> pd.DataFrame:
    """One row per question of the run that passes the filters (category, step score range)."""
    import pandas as pd

    from mathreel.core.judge.views import by_question, select

    columns = ["Question", "Category", "Answer read", "Step score", "Matched steps", "Error categories", "Judge"]
    if run is None:
        return pd.DataFrame(columns=columns)
    cards = by_question(run.judgments)
    bounded = low > 0 or high < 10
    chosen = select(
        cards,
        category=category or None,
        min_score=int(low) if bounded else None,
        max_score=int(high) if bounded else None,
    )
    primary = primary_dimension([run])
    rows = []
    for card in chosen:
        extract = card.values("extract")
        steps = card.values("steps")
        rows.append(
            [
                card.question_id,
                card.dims.get(primary, "") if primary else "",
                _answer_text(extract),
                "" if card.step_score is None else card.step_score,
                steps.get("matched_steps", ""),
                ", ".join(card.categories),
                _status_text(card.by_task),
            ]
        )
    return pd.DataFrame(rows, columns=columns)


def _answer_text(values: dict[str, Any]) -> str:
    if not values:
        return ""
    answer = values.get("answer")
    return f"{answer or 'unparsed'} ({values.get('source', '')})"


def _status_text(by_task: dict[str, Judgment]) -> str:
    return ", ".join(f"{task} {j.status}" for task, j in by_task.items() if j.status != "ok")


# -- running the judge from the page --------------------------------------------------------------------------


def page_endpoint(base_url: str, model: str, key: str) -> Any:
    """The judge endpoint typed into the page. The server's MATHREEL_JUDGE_API_KEY is used only for the server's
    own MATHREEL_JUDGE_BASE_URL, so a visitor cannot make the server send its key to another address."""
    from mathreel.core.client.endpoint import server_key_rule
    from mathreel.core.judge import judge_endpoint
    from mathreel.core.judge.endpoint import BASE_URL_ENV, KEY_ENV

    url, api_key = server_key_rule(base_url, os.environ.get(BASE_URL_ENV, ""), key, KEY_ENV)
    return judge_endpoint(url or None, (model or "").strip() or None, api_key=api_key, timeout_s=300.0)


def progress_callback(progress: Any, label: str) -> Any:
    def report(done: int, total: int, judgment: Judgment) -> None:
        progress((done, total), desc=f"{label}: {done}/{counted(total, 'judgment')}")

    return report


# Judge runs take turns (webapp.fair_queue): Settings.judge_concurrency at once across the server, one per page
# session, so a visitor whose endpoint is slow (up to its timeout per call) waits behind their own run only.
JUDGE_TURNS = FairQueue(
    slots=2,
    waiting_per_visitor=0,
    busy="not judged: your earlier judge run is still going on this shared server; try again when it is done",
)


def judge_results_file(
    path: str,
    endpoint: Any,
    data_dir: str | None,
    concurrency: int,
    progress: Any,
    budget: Budget = DEFAULT_BUDGET,
    visitor: str = "",
) -> JudgedRun:
    """Judge an uploaded result file with `mathreel judge`'s workflow (core.judge.runs), cache included. The file is
    read as the Score tab reads an upload: a costly one or a workbook in a child process within `budget`, on the
    visitor's turn (webapp.scored_runs.run_costed); the judge calls wait on the network, off the GIL."""
    from functools import partial

    from mathreel.core.judge.runs import open_cache, prepare

    job = run_costed(partial(prepare, data_dir=data_dir), (str(path),), path, replace(budget, what="reading"), visitor)
    run = job.run(
        endpoint, concurrency=concurrency, cache=open_cache(), on_progress=progress_callback(progress, "judging")
    )
    return JudgedRun(f"{Path(path).stem} · {endpoint.model}", run.judgments, str(job.note or ""))


def rejudge_question(run: JudgedRun, question_id: str, question: Any, endpoint: Any, progress: Any) -> JudgedRun:
    """One question of `run` judged again (core.judge.runs.rejudge_question), as a run of its own: never merged
    into the run it came from."""
    from mathreel.core.judge.runs import open_cache
    from mathreel.core.judge.runs import rejudge_question as rejudge

    if not any(j.question_id == question_id for j in run.judgments):
        raise _user_error(f"{question_id} is not in {run.name}")
    judged = rejudge(
        run.judgments,
        question_id,
        question,
        endpoint,
        benchmark=run.benchmark,
        cache=open_cache(),
        on_progress=progress_callback(progress, question_id),
    )
    fresh = [j for j in judged if j.question_id == question_id]
    return JudgedRun(
        rejudged_name(run.name, endpoint.model),
        fresh,
        f"questions of {run.name} judged again from the page by {endpoint.model}",
    )


def rejudged_name(name: str, model: str) -> str:
    """The run re-judged questions go to: never the run they came from (a demo run stays as shipped)."""
    base = name.removesuffix(" (synthetic demo)")
    return f"{base} · re-judged by {model}"


def add_rejudged(runs: list[JudgedRun], fresh: JudgedRun, question_id: str) -> list[JudgedRun]:
    """`runs` with `fresh` (one question's new judgments) added to its re-judged run, replacing that question's
    earlier re-judgment; the run is created after the others the first time."""
    target = find_run(runs, fresh.name)
    if target is None:
        return [*runs, fresh]
    kept = [j for j in target.judgments if j.question_id != question_id]
    merged = JudgedRun(target.name, [*kept, *fresh.judgments], target.note)
    return [merged if r is target else r for r in runs]


# -- layout ---------------------------------------------------------------------------------------------------


class JudgeUI(SimpleNamespace):
    """The Judge tab's components by name (set in `layout`)."""

    @property
    def detail_outputs(self) -> list[Any]:
        return [self.header, self.response, self.steps, self.card, self.chips, self.raw]

    @property
    def view_outputs(self) -> list[Any]:
        """Everything one question shows (JudgeHandlers.question_view), and whether its frames are still due."""
        return [*self.detail_outputs, self.frames, self.video, self.media_due]

    @property
    def all_outputs(self) -> list[Any]:
        return [
            self.error,
            self.runs,
            self.run_pick,
            self.statuses,
            self.score_plot,
            self.error_plot,
            self.category,
            self.questions,
        ]


def layout(context: AppContext, handlers: JudgeHandlers) -> JudgeUI:
    """Place the Judge tab: runs and charts, the question list and the judged question, then the judge form."""
    import gradio as gr

    # The session's judged runs, shared with Browse (its judge card and review box beside a scored run).
    ui = JudgeUI(runs=review_session(context).judged, selection=gr.State(Selection()), media_due=gr.State(False))
    # The visitor's scored runs (the Score tab's): a judged answer is shown under a question only when one of them,
    # or one of the demo's result files, holds it and records that question (webapp.shown_answer.judged_join).
    ui.scored = context.runs if context.runs is not None else gr.State([])
    gr.Markdown(
        "LLM-judge results: the paper's step-wise evaluation (0-10 against the annotated steps) and error "
        "analysis of wrong CoT answers. Load `mathreel judge` output files, or run the judge below. The "
        "demo runs are **synthetic** (scripted judge replies)."
    )
    with gr.Row():
        ui.upload = gr.File(
            label="Judgment files (mathreel judge output, JSONL)",
            file_count="multiple",
            elem_id="judge-upload",
            scale=2,
            height=120,
        )
        ui.run_pick = gr.Dropdown([], label="Run", elem_id="judge-run", scale=2)
    ui.error = gr.Markdown("", visible=False, elem_id="judge-error", elem_classes=["error-box"])
    ui.statuses = gr.Dataframe(
        label="Judgments per task and status", interactive=False, wrap=True, elem_id="judge-statuses"
    )
    with gr.Row():
        ui.score_plot = gr.Plot(show_label=False, elem_id="judge-score-chart")
        ui.error_plot = gr.Plot(show_label=False, elem_id="judge-error-chart")
    with gr.Row():
        ui.category = gr.Dropdown(
            [("Any error category", ANY)], value=ANY, label="Error category", elem_id="judge-category"
        )
        ui.low = gr.Slider(0, 10, value=0, step=1, label="Step score at least", elem_id="judge-low")
        ui.high = gr.Slider(0, 10, value=10, step=1, label="Step score at most", elem_id="judge-high")
    ui.questions = gr.Dataframe(
        label="Questions (click a row)", interactive=False, wrap=True, max_height=360, elem_id="judge-questions"
    )
    _question_view(ui, context)
    view = {"concurrency_id": "judge-view", "concurrency_limit": context.settings.browse_concurrency}
    ui.shown = QuestionView(
        handlers.question_view,
        ui.view_outputs,
        lambda event: event.then(
            handlers.due_media,
            [ui.runs, ui.selection, ui.media_due, ui.scored],
            [ui.frames, ui.video],
            show_progress="hidden",
            **view,
        ),
        ui.scored,
    )
    ui.review = build_panel(
        context, ui.runs, ui.selection, lambda runs, chosen: find_run(runs_of(runs), chosen.run), ui.shown
    )
    _judge_form(ui)
    return ui


def _question_view(ui: JudgeUI, context: AppContext) -> None:
    """The judged question: header, response beside the annotated steps, step card, error chips, raw replies."""
    import gradio as gr

    ui.header = gr.HTML(elem_id="judge-question")
    ui.to_browse = gr.Button(
        "Open this question in Browse (prompt, subtitles, other frame counts)",
        size="sm",
        elem_id="judge-open-browse",
        visible=context.browse is not None,
    )
    frames = context.settings.default_frames
    with (
        gr.Accordion("What the model saw: the video and its frames", open=True, elem_id="judge-media"),
        gr.Row(elem_classes=["stack-narrow"]),
    ):
        ui.frames = gr.Gallery(
            label=f"{frames} frames sampled uniformly, as Browse samples them by default",
            columns=4,
            height="fit-content",
            allow_preview=False,
            object_fit="contain",
            elem_id="judge-frames",
            interactive=False,
            scale=3,
        )
        ui.video = gr.Video(label="Video", interactive=False, elem_id="judge-video", scale=2)
    with gr.Row():
        ui.response = gr.Textbox(
            label="Model response (as judged)", lines=16, max_lines=30, interactive=False, elem_id="judge-response"
        )
        ui.steps = gr.HTML(label="Annotated steps", elem_id="judge-steps")
    with gr.Row():
        ui.card = gr.HTML(elem_id="judge-card-box")
        ui.chips = gr.HTML(elem_id="judge-chips")
    with gr.Accordion("Judge replies (raw)", open=False):
        ui.raw = gr.Textbox(lines=10, max_lines=40, interactive=False, show_label=False, elem_id="judge-raw")


def _judge_form(ui: JudgeUI) -> None:
    """The judge endpoint (the server's defaults; the key never shown) and the two ways to run it."""
    import gradio as gr

    from mathreel.core.client.endpoint import strip_credentials
    from mathreel.core.judge.endpoint import BASE_URL_ENV, MODEL_ENV

    with gr.Accordion("Run the judge", open=False, elem_id="judge-run-box"):
        gr.Markdown(
            "Any OpenAI-compatible endpoint (the paper uses Qwen3-4B on vLLM). The key is sent to this "
            "endpoint only and never shown again; replies are cached by model and prompt."
        )
        with gr.Row():
            ui.base_url = gr.Textbox(
                strip_credentials(os.environ.get(BASE_URL_ENV, "")),
                label="Judge base URL",
                placeholder="http://localhost:8000/v1",
                elem_id="judge-base-url",
            )
            ui.model = gr.Textbox(
                os.environ.get(MODEL_ENV, ""), label="Judge model", placeholder="Qwen/Qwen3-4B", elem_id="judge-model"
            )
            ui.key = gr.Textbox(
                "", label="API key", type="password", placeholder="(none needed for vLLM)", elem_id="judge-key"
            )
            ui.concurrency = gr.Slider(1, 32, value=8, step=1, label="Concurrent calls", elem_id="judge-concurrency")
        with gr.Row():
            ui.judge_one = gr.Button("Judge the shown question again", elem_id="judge-one")
            with gr.Column():
                ui.to_judge = gr.File(label="Result file to judge", elem_id="judge-results-upload", height=100)
                ui.to_judge_run = gr.Dropdown(
                    [], value=None, label="… or one of your runs in Score", elem_id="judge-results-run"
                )
            ui.judge_file = gr.Button("Judge the uploaded result file", elem_id="judge-file")
        # Where a judge run's progress shows (the buttons have no progress display of their own)
        ui.judge_status = gr.Markdown("", elem_id="judge-status", min_height=48)


def runs_of(runs: list[JudgedRun] | None) -> list[JudgedRun]:
    """The user's runs; the demo runs before the first change (the state starts as None)."""
    return load_demo_runs() if runs is None else runs


class JudgeHandlers:
    """The Judge tab's event handlers: plain functions of their inputs, returning the outputs' updates."""

    def __init__(self, context: AppContext) -> None:
        self.datasets = context.datasets
        self.settings = context.settings

    def media(self, runs: list[JudgedRun] | None, chosen: Selection, scored: list | None = None) -> tuple:
        """The shown question's frames (exact, from the frame cache Browse shares) and its video; empty when the
        server's dataset has no video for it, or no result file records the judged answer as its question."""
        from mathreel.core.view import build_view

        run = find_run(runs_of(runs), chosen.run)
        qid = self.shown_id(run, chosen)
        if run is None or qid is None or self.question_of(run, qid, scored) is None:
            return [], None
        view = build_view(self.datasets.get(run.benchmark, run.mode), qid, num_frames=self.settings.default_frames)
        return frame_items(view), str(view.video_path) if view.video_path else None

    def question_view(self, runs: list[JudgedRun] | None, chosen: Selection, scored: list | None = None) -> tuple:
        """Values for JudgeUI.view_outputs: the question's detail, and its frames and video when they are sampled
        already (else the frames cleared and `due_media` samples them next, so the card does not wait for a
        decode). A media failure is a toast; the frames stay as they were."""
        import gradio as gr

        try:
            ready = self.frames_cached(runs, chosen, scored)
            media = self.media(runs, chosen, scored) if ready else ([], gr.skip())
        except Exception as error:  # the page must survive anything a handler meets
            log.warning("judge media failed", exc_info=True)
            warn(error_message(error))
            ready, media = True, (gr.skip(), gr.skip())
        return (*self.detail(runs, chosen, scored), *media, not ready)

    def due_media(
        self, runs: list[JudgedRun] | None, chosen: Selection, due: bool, scored: list | None = None
    ) -> tuple:
        """The frames and video `question_view` left for later (nothing when it showed them)."""
        import gradio as gr

        if not due:
            return gr.skip(), gr.skip()
        try:
            return self.media(runs, chosen, scored)
        except Exception as error:  # the page must survive anything a handler meets
            log.warning("judge media failed", exc_info=True)
            warn(error_message(error))
            return gr.skip(), gr.skip()

    def frames_cached(self, runs: list[JudgedRun] | None, chosen: Selection, scored: list | None = None) -> bool:
        """Whether the shown question's frames are in the frame cache (or it has no video: nothing to sample)."""
        from mathreel.core.media.frames import cached_frames

        run = find_run(runs_of(runs), chosen.run)
        qid = self.shown_id(run, chosen)
        if run is None or not qid:
            return True
        question = self.question_of(run, qid, scored)
        if question is None or not question.video_id:
            return True
        video = self.datasets.get(run.benchmark, run.mode).find_video(question)
        return video is None or cached_frames(Path(video), self.settings.default_frames, None, None, None) is not None

    @staticmethod
    def shown_id(run: JudgedRun | None, chosen: Selection) -> str | None:
        """The question shown: the chosen one, else the run's first."""
        from mathreel.core.judge.views import by_question

        if run is None or not run.judgments:
            return None
        return chosen.question_id or by_question(run.judgments)[0].question_id

    def question_of(self, run: JudgedRun, qid: str, scored: list | None = None) -> Question | None:
        """The server's question of the judged answer by the one join rule (`webapp.shown_answer.judged_join`: a
        result file holding the judged response, among the visitor's runs (`scored`, the Score tab's) or the demo's
        own, must record that question), never the id alone; None otherwise."""
        from mathreel.webapp.shown_answer import judged_join

        try:
            dataset = self.datasets.get(run.benchmark, run.mode)
            response = next((j.response for j in run.judgments if j.question_id == qid and j.response), "")
            return judged_join(dataset, qid, response, scored).question
        except Exception:  # not in the server's dataset: shown as such
            log.debug("no server question for judged %s", qid, exc_info=True)
            return None

    def detail(self, runs: list[JudgedRun] | None, chosen: Selection, scored: list | None = None) -> tuple:
        from mathreel.core.judge.views import by_question

        run = find_run(runs_of(runs), chosen.run)
        cards = by_question(run.judgments) if run is not None else []
        found = next((c for c in cards if c.question_id == chosen.question_id), cards[0] if cards else None)
        if run is None or found is None:
            return "", "", "", "", "", ""
        question = self.question_of(run, found.question_id, scored)
        lender = question.steps if question is not None else ()
        source = "annotated steps from the server's dataset" if lender else "the server's dataset has no steps here"
        response_text = next((j.response for j in found.by_task.values() if j.response), "")
        return (
            question_header(found, question, run.name),
            response_text,
            steps_html(lender, source),
            card_html(found),
            chips_html(found),
            raw_text(found),
        )

    @staticmethod
    def overview(runs: list[JudgedRun] | None, chosen: Selection, cat: str, lo: float, hi: float) -> tuple:
        import gradio as gr

        runs = runs_of(runs)
        run = find_run(runs, chosen.run)
        cats = error_categories(run.benchmark) if run else ()
        names = [r.name for r in runs]
        return (
            gr.skip(),
            runs,
            gr.update(choices=names, value=run.name if run else None),
            status_table(runs),
            charts.score_chart(runs),
            charts.error_chart(runs),
            gr.update(
                choices=[("Any error category", ANY), *[(c, c) for c in cats]], value=cat if cat in cats else ANY
            ),
            question_table(run, cat if cat in cats else ANY, lo, hi),
        )

    @staticmethod
    def add_uploads(runs: list[JudgedRun] | None, paths: list[str] | None) -> tuple:
        import gradio as gr

        merged, errors = load_uploads(list(paths or []), runs_of(runs))
        for message in errors:
            warn(message)
        newest = merged[-1].name if len(merged) > len(runs_of(runs)) else None
        return merged, Selection(newest) if newest else gr.skip()

    @staticmethod
    def choose_run(name: str) -> Selection:
        return Selection(name)

    @staticmethod
    def filter_questions(runs: list[JudgedRun] | None, chosen: Selection, cat: str, lo: float, hi: float) -> Any:
        return question_table(find_run(runs_of(runs), chosen.run), cat, lo, hi)

    def run_one(
        self,
        runs: list[JudgedRun] | None,
        chosen: Selection,
        url: str,
        name: str,
        api_key: str,
        progress: Any,
        scored: list | None = None,
    ) -> tuple:
        """The shown question judged again, into a run of its own."""
        import gradio as gr

        from mathreel.core.judge.views import by_question

        runs = runs_of(runs)
        run = find_run(runs, chosen.run)
        if run is None:
            raise _user_error("no run is shown")
        qid = chosen.question_id or by_question(run.judgments)[0].question_id
        question = self.question_of(run, qid, scored)
        if question is None:
            raise _user_error(f"{qid} is not in the server's dataset, so it cannot be judged again here")
        fresh = rejudge_question(run, qid, question, page_endpoint(url, name, api_key), progress)
        return gr.update(visible=False), add_rejudged(runs, fresh, qid), Selection(fresh.name, qid)

    def run_file(
        self,
        runs: list[JudgedRun] | None,
        path: str | None,
        url: str,
        name: str,
        api_key: str,
        k: float,
        progress: Any,
        visitor: str = "",
        scored: list | None = None,
        scored_name: str | None = None,
    ) -> tuple:
        """An uploaded result file judged as `mathreel judge` judges it, added as a run: the file in the box, else
        the visitor's run in Score chosen (`scored_name` among `scored`)."""
        import gradio as gr

        chosen = next((r for r in scored or [] if r.name == scored_name and r.path), None) if scored_name else None
        path = path or (chosen.path if chosen is not None else None)
        if not path:
            raise _user_error("upload a result file to judge, or choose one of your runs in Score, first")
        runs = runs_of(runs)
        data_dir = str(self.settings.data_dir) if self.settings.data_dir else None
        budget = Budget(self.settings.score_seconds, self.settings.score_memory_mb)
        judged = judge_results_file(
            path, page_endpoint(url, name, api_key), data_dir, int(k), progress, budget, visitor
        )
        judged.name = unique_name(judged.name, {r.name for r in runs})
        return gr.update(visible=False), [*runs, judged], Selection(judged.name)


def build(context: AppContext) -> None:
    """Lay out the Judge tab and wire its events."""
    handlers = JudgeHandlers(context)
    ui = layout(context, handlers)
    settings = context.settings
    view = {
        "concurrency_id": "judge-view",
        "concurrency_limit": settings.browse_concurrency,
        **progress_on(ui.run_pick),
    }
    JUDGE_TURNS.slots = settings.judge_concurrency
    work = {"concurrency_id": "judge-run", "concurrency_limit": settings.score_events, **progress_on(ui.judge_status)}
    _wire(context, ui, handlers, ui.review, view, work)
    _wire_open_in_browse(context, ui.to_browse, ui.runs, ui.selection, view)


def _wire(context: AppContext, ui: JudgeUI, handlers: JudgeHandlers, review: Any, view: dict, work: dict) -> None:
    """Load, upload, choose, filter and judge; after each, the views that depend on it redrawn."""
    import gradio as gr

    filters = [ui.category, ui.low, ui.high]
    overview = guarded(0, 8)(handlers.overview)
    track = gr.Progress()  # Gradio sees a Progress default and feeds the page's progress bar through it

    @guarded(0, 3, FIXES)
    @with_request
    def run_one(
        runs: Any,
        chosen: Selection,
        url: str,
        name: str,
        api_key: str,
        scored: Any = None,
        progress: gr.Progress = track,
        request: Any = None,
    ) -> tuple:
        with JUDGE_TURNS.turn(visitor_key(None, request), "the judge"):
            return handlers.run_one(runs, chosen, url, name, api_key, progress, scored)

    @guarded(0, 3, FIXES)
    @with_request
    def run_file(
        runs: Any,
        path: str | None,
        url: str,
        name: str,
        api_key: str,
        k: float,
        scored_name: str | None = None,
        scored: Any = None,
        progress: gr.Progress = track,
        request: Any = None,
    ) -> tuple:
        visitor = visitor_key(None, request)
        with JUDGE_TURNS.turn(visitor, "the judge"):
            return handlers.run_file(runs, path, url, name, api_key, k, progress, visitor, scored, scored_name)

    session = review_session(context)
    shown_outputs = [*review.fill_outputs, *ui.view_outputs]

    def show(runs: Any, chosen: Selection, held: list, name: str, scored: Any = None) -> tuple:
        """The question shown and its review panel, in one event."""
        return (*review.fill(runs, chosen, held, name), *handlers.question_view(runs, chosen, scored))

    @select_handler
    def choose_question(runs: Any, chosen: Selection, held: list, name: str, scored: Any, evt: gr.SelectData) -> tuple:
        picked = Selection(chosen.run, str((evt.row_value or [""])[0]) or None)
        return picked, *show(runs, picked, held, name, scored)

    def show_detail(event: Any) -> None:
        ui.shown.then(
            event.then(
                show,
                [ui.runs, ui.selection, session.reviews, session.reviewer, ui.scored],
                shown_outputs,
                show_progress="hidden",
                **view,
            )
        )

    def chain(event: Any) -> None:
        show_detail(event.then(overview, [ui.runs, ui.selection, *filters], ui.all_outputs, **view))

    judged = [ui.error, ui.runs, ui.selection]
    if context.app_load is not None:
        chain(context.app_load(lambda: None, None, None))
    chain(ui.upload.upload(handlers.add_uploads, [ui.runs, ui.upload], [ui.runs, ui.selection], **view))
    chain(ui.run_pick.input(handlers.choose_run, ui.run_pick, ui.selection, **view))
    ui.shown.then(
        ui.questions.select(
            choose_question,
            [ui.runs, ui.selection, session.reviews, session.reviewer, ui.scored],
            [ui.selection, *shown_outputs],
            **view,
        )
    )
    for control in filters:
        control.input(handlers.filter_questions, [ui.runs, ui.selection, *filters], ui.questions, **view)
    chain(
        ui.judge_one.click(run_one, [ui.runs, ui.selection, ui.base_url, ui.model, ui.key, ui.scored], judged, **work)
    )
    chain(
        ui.judge_file.click(
            run_file,
            [ui.runs, ui.to_judge, ui.base_url, ui.model, ui.key, ui.concurrency, ui.to_judge_run, ui.scored],
            judged,
            **work,
        )
    )
    tab = (context.tab_items or {}).get("judge")
    if tab is not None:  # the visitor's runs in Score, offered to judge when the tab is opened
        tab.select(scored_choices, [ui.scored, ui.to_judge_run], ui.to_judge_run, show_progress="hidden", **view)


def scored_choices(scored: list | None, current: str | None) -> Any:
    """The visitor's runs in Score, to judge one without uploading its file again (the current choice kept)."""
    import gradio as gr

    names = [run.name for run in scored or [] if run.path]
    return gr.update(choices=names, value=current if current in names else None)


def browse_target(
    runs: list[JudgedRun], chosen: Selection, scored: list | None = None
) -> tuple[dict[str, str], dict[str, Any]] | None:
    """Browse's target for the judged question shown ({"key", "ref"}) and the walk that reads the judged response:
    the session's run holding it (matched by response), else the judged run itself. None when nothing is shown."""
    from mathreel.webapp.reading_flow import Walk, run_judged_by

    run = find_run(runs, chosen.run)
    qid = JudgeHandlers.shown_id(run, chosen)
    if run is None or qid is None:
        return None
    holder = run_judged_by(scored, run, qid)
    walk = Walk(run=holder.name, status="all") if holder is not None else Walk(status="all", judged=run.name)
    return {"key": f"{run.benchmark}:{run.mode}", "ref": qid}, walk.to_dict()


def _wire_open_in_browse(context: AppContext, button: Any, runs_state: Any, selection: Any, group: dict) -> None:
    """The button switches to Browse on the judged question and its judged response: the session's run that holds
    it (walked there, with the prompt and frames it used), else the response as the judge saw it. One event (the
    tab, the walk, Browse's controls, settings and page, through `BrowseLinks.jump`), then Browse's question table."""
    import gradio as gr

    browse = context.browse
    if browse is None:
        return
    target = gr.State(None)

    def pick(runs: list[JudgedRun] | None, chosen: Selection, scored: list | None, *values: Any) -> tuple:
        found = browse_target(load_demo_runs() if runs is None else runs, chosen, scored)
        if found is None:
            return (gr.skip(), gr.skip(), None, *[gr.skip()] * (1 + len(browse.jump_outputs)))
        where, walk = found
        opened = browse.jump(where, walk, scored or [], *values)
        return (gr.Tabs(selected="browse"), gr.update(value=where["key"]), where, walk, *opened)

    shown, listed = {**group, **browse.progress}, {**group, **browse.list_progress}
    button.click(
        pick,
        [runs_state, selection, context.runs, *browse.jump_inputs],
        [context.tabs, browse.benchmark, target, browse.walk, *browse.jump_outputs],
        **shown,
    ).then(browse.refresh_list[0], browse.refresh_list[1], browse.refresh_list[2], **listed)


def _user_error(message: str) -> Exception:
    from mathreel.core.errors import MathReelError

    return MathReelError(message)


TAB = TabSpec(id="judge", label="Judge", build=build)

__all__ = ["TAB", "build", "question_table"]
