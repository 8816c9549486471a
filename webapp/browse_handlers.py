"""Browse's event handlers as plain methods over the server's datasets (BrowseHandlers): show a question, with
the walked run's answer and the other runs' beside it; testable without a browser.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from mathreel.core.view import DEFAULT_FRAMES
from mathreel.webapp import reading_flow as rd
from mathreel.webapp.benchmark_keys import split_key
from mathreel.webapp.browse_address import link_query
from mathreel.webapp.browse_file import file_steps, join_line, shown_prompt
from mathreel.webapp.browse_groups import group_scoring
from mathreel.webapp.browse_page import QuestionPage, file_page, render_question
from mathreel.webapp.browse_panels import Reading, page_updates
from mathreel.webapp.errors import log
from mathreel.webapp.reading_flow import Walk
from mathreel.webapp.shown_answer import (
    by_id_allowed,
    file_answer,
    fit_view,
    judged_join,
    media_ref,
    same_question,
    walked_answer,
)

if TYPE_CHECKING:
    from mathreel.core.data import Dataset
    from mathreel.core.view import ViewSettings


# -- handlers ---------------------------------------------------------------------------------------------------


class BrowseHandlers:
    """Browse's event handlers as plain methods over the server's datasets: testable without a browser."""

    def __init__(self, datasets: Any, default_frames: int = DEFAULT_FRAMES) -> None:
        self.datasets = datasets
        self.default_frames = default_frames

    def reading(
        self,
        key: str,
        ref: str,
        runs: list | None,
        walk_value: dict | None,
        raw: bool,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> Reading:
        """The response of the walked run to `ref`, every run side by side, and the position in the list."""
        walk = rd.Walk.of(walk_value)
        run = rd.run_named(runs, walk.run)
        if walk.run and run is None:
            return Reading(
                position=f"_Run {html.escape(walk.run)} is not among your runs in this browser: "
                "upload it in Score to read its responses._"
            )
        if run is None and walk.judged:
            return judged_reading(rd.judged_named(judge_runs, walk.judged), ref)
        if run is None or run.key != key:
            return Reading(
                position=rd.position_text([], ref, rd.Walk())
                if run is None
                else f"_{html.escape(run.name)} answers another benchmark; choose it to read its responses._"
            )
        row = rd.row_of(run, ref)
        dataset = self.server_set(key)
        trusted = dataset is not None and by_id_allowed(run, dataset)
        same = lambda other: row is None or same_question(row, other, dataset, trusted)  # noqa: E731 - one use
        scoring = group_scoring(run.report, ref, run.name)
        return Reading(
            response=rd.response_markdown(row, run.name, raw) + (f"\n\n{scoring}" if scoring else ""),
            compare=rd.compare_html(runs, key, ref, judge_runs, same),
            position=rd.position_text(rd.walk_ids(runs, walk, reviews, reviewer, judge_runs), ref, walk),
            pick=row.extracted if row is not None else None,
        )

    def show(
        self,
        key: str,
        ref: str,
        view: ViewSettings,
        shown: dict | None,
        runs: list | None = None,
        walk_value: dict | None = None,
        raw: bool = False,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> tuple:
        """Page outputs for `ref`; `shown` is the panel flags of what the page shows now, None when unknown;
        `judge_runs` the session's judged runs (None: the demo's)."""
        dataset = self.server_set(key)
        if dataset is None:  # no questions of this benchmark here: a walked answer is still read from its file
            answer = file_answer(key, runs, walk_value, ref)
            if answer is None:
                dataset = self.datasets.get(*split_key(key))  # the clear error saying why
        else:
            answer = walked_answer(dataset, runs, walk_value, ref)
        choice = view.style
        view, dropped = fit_view(view, split_key(key)[0])
        reading = self.reading(key, ref, runs, walk_value, raw, reviews, reviewer, judge_runs)
        reading.link = link_query(key, ref, Walk.of(walk_value))
        unjoined = self.judged_unjoined(dataset, ref, runs, walk_value, judge_runs) if answer is None else None
        if answer is not None and not answer.on_server:  # the one rule: never under a question it is not to
            page = file_page(answer, view)
            question = answer.own_question
        elif unjoined is not None:  # a judged response whose question no result file records
            page = QuestionPage(ref=ref, header=unjoined, prompt="", steps=file_steps(), metadata="", on_server=False)
            question = None
        else:
            assert dataset is not None  # only an answer read from its file (the first branch) comes without one
            page = render_question(dataset, ref, view, reading.pick)
            page.header += join_line(answer)
            question = dataset.question(ref)
        page.prompt, page.prompt_note = shown_prompt(answer, page.prompt, choice, view, question)
        if dropped:
            page.prompt_note += "".join(f"\n\n_Not applied: {html.escape(note)}._" for note in dropped)
        values = page_updates(page, key, shown, reading)
        values[1]["view"] = view.view_kwargs()  # the state carries the settings shown, so Ask asks the same way
        return values

    @staticmethod
    def judged_unjoined(
        dataset: Dataset | None, ref: str, runs: list | None, walk_value: dict | None, judge_runs: list | None
    ) -> str | None:
        """The header for a judged response read where no run of the session holds it (the Judge tab's "open in
        Browse") when no result file records its question as the server's (`judged_join`); None when it does, or
        when no judged response is read."""
        walk = rd.Walk.of(walk_value)
        if dataset is None or not walk.judged or rd.run_named(runs, walk.run) is not None:
            return None
        judged = rd.judged_named(judge_runs, walk.judged)
        response = (
            next((j.response for j in judged.judgments if j.question_id == ref and j.response), "")
            if judged is not None
            else ""
        )
        join = judged_join(dataset, ref, response)
        if join.on_server:
            return None
        return (
            f"### {html.escape(dataset.bench.title)} · {html.escape(ref)} · judged answer\n\n"
            f"<div class='file-note' id='browse-file-note'>⚠ {html.escape(join.note)}</div>"
        )

    def server_set(self, key: str) -> Dataset | None:
        """The server's questions of `key`, None when it has none (no such data on this server)."""
        from mathreel.core.errors import MathReelError

        try:
            return self.datasets.get(*split_key(key))
        except MathReelError:
            return None

    def preview_ref(
        self, key: str, ref: str | None, runs: list | None, walk_value: dict | None, judge_runs: list | None = None
    ) -> str | None:
        """The question whose frames a switch to `ref` may preview (None for an answer read from its file)."""
        try:
            dataset = self.datasets.get(*split_key(key))
            if ref and self.judged_unjoined(dataset, ref, runs, walk_value, judge_runs) is not None:
                return None
            return media_ref(dataset, runs, walk_value, ref)
        except Exception:  # the page itself reports the problem
            return None

    def step(
        self,
        st: dict | None,
        shown: dict | None,
        runs: list | None,
        walk_value: dict | None,
        raw: bool,
        view: ViewSettings,
        delta: int,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> tuple | None:
        """Page outputs for the question `delta` places along the walked list, None when there is none."""
        st = st or {}
        target = self.step_target(st, runs, walk_value, delta, reviews, reviewer, judge_runs)
        if target is None:
            return None
        return self.show(st["key"], target, view, shown, runs, walk_value, raw, reviews, reviewer, judge_runs)

    def step_target(
        self,
        st: dict | None,
        runs: list | None,
        walk_value: dict | None,
        delta: int,
        reviews: list | None = None,
        reviewer: str = "reviewer",
        judge_runs: list | None = None,
    ) -> str | None:
        """The question `delta` places along the walked list from the one shown, None when there is none."""
        st = st or {}
        if not st.get("key"):
            return None
        ids = rd.walk_ids(runs, rd.Walk.of(walk_value), reviews, reviewer, judge_runs)
        return rd.step(ids, str(st.get("ref") or ""), delta)

    def follow_run(self, runs: list | None, walk_value: dict | None) -> tuple[ViewSettings, str] | None:
        """The settings the walked run used and the note saying where each came from (None: no such run)."""
        run = rd.run_named(runs, rd.Walk.of(walk_value).run)
        used = run.settings_used() if run is not None else None
        if used is None:
            return None
        return used.settings, rd.settings_note(run)

    def first_ref(
        self, key: str, wanted: str | None = None, runs: list | None = None, walk_value: dict | None = None
    ) -> str | None:
        """`wanted` when the set or the walked run has it (a shared link), else the set's first question."""
        run = rd.run_named(runs, rd.Walk.of(walk_value).run)
        if wanted and run is not None and run.key == key and rd.row_of(run, wanted) is not None:
            return wanted
        dataset = self.datasets.get(*split_key(key))
        if wanted:
            try:
                return dataset.ref(dataset.question(wanted))
            except Exception:  # a stale or mistyped link falls back to the first question
                log.info("link to unknown question %r", wanted)
        return dataset.ref(dataset.questions[0]) if dataset.questions else None


def judged_reading(judged: Any, ref: str) -> Reading:
    """The response a judged run judged, where no run of the session holds it (opened from the Judge tab)."""
    response, pick = rd.judged_response(judged, ref)
    if not response:
        return Reading(position="_The judged run has no answer to this question._")
    return Reading(
        response=response,
        pick=pick,
        position=f"_The response {html.escape(judged.name)} judged. No run of yours holds it: load its "
        "result file in Score (the demo runs are one click there) to walk its answers._",
    )
