"""Judge runs: a result file judged, and one question of a judged run judged again, for the CLI and the app.

`mathreel judge` and the app's Judge tab run the same workflow: read the file (any layout `mathreel score`
reads), turn it into cases, fill missing annotated steps from the dataset when a task reads steps, check the reply
cache can be written before the first call, judge, and report the failures. A re-run of a file is the same call
again: cached replies are reused and failed calls (never cached) are retried. A re-run of one question
(`rejudge_question`) judges it with the tasks it had and puts the new judgments where the old ones were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.core.errors import InputError, MathReelError
from mathreel.core.judge.cache import JudgeCache
from mathreel.core.judge.inputs import StepsNote, cases_from_results, with_dataset_steps
from mathreel.core.judge.model import Case, Judgment
from mathreel.core.judge.runner import JudgeRun, OnProgress, judge_cases, parse_tasks
from mathreel.core.question import Question
from mathreel.core.results.model import ResultFile

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.client.endpoint import Endpoint

_STEP_TASKS = ("steps", "errors")  # the tasks that read annotated solution steps


@dataclass
class JudgeJob:
    """A result file ready to judge: its cases (steps filled from the dataset where missing) and the tasks."""

    result: ResultFile
    cases: list[Case]
    tasks: tuple[str, ...]
    note: StepsNote | None = None

    def run(
        self,
        endpoint: Endpoint,
        *,
        concurrency: int = 8,
        cache: JudgeCache | None = None,
        on_progress: OnProgress | None = None,
    ) -> JudgeRun:
        """Judge every case (bounded concurrency, the cache first, progress after each judgment)."""
        return judge_cases(
            self.cases,
            endpoint,
            benchmark=self.result.benchmark,
            tasks=self.tasks,
            concurrency=concurrency,
            cache=cache,
            on_progress=on_progress,
        )


def prepare(
    path: str | Path,
    *,
    benchmark: str | None = None,
    mode: str | None = None,
    annotations: str | Path | None = None,
    data_dir: str | None = None,
    tasks: str | Sequence[str] | None = None,
) -> JudgeJob:
    """Read a result file and make its judge cases; annotated steps come from the dataset only when a task
    reads them (steps, errors) and the file lacks them."""
    from mathreel.core.results import read_results

    chosen = parse_tasks(tasks)
    result = read_results(path, benchmark=benchmark, mode=mode, annotations=annotations)
    cases, note = cases_from_results(result), None
    if any(task in chosen for task in _STEP_TASKS):
        cases, note = with_dataset_steps(cases, result.benchmark, result.mode, data_dir)
    return JudgeJob(result, cases, chosen, note)


def open_cache(cache_dir: str | Path | None = None, *, hint: str = "") -> JudgeCache:
    """The reply cache, its folder made now: a cache that cannot be written would otherwise fail the run at its
    first reply. `hint` says how the caller can choose another (a CLI flag)."""
    cache = JudgeCache(cache_dir)
    try:
        cache.root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(
            str(cache.root), f"cannot be the judge cache ({error.strerror})" + (f"; {hint}" if hint else "")
        ) from None
    return cache


def rejudge_question(
    judgments: Sequence[Judgment],
    question_id: str,
    question: Question,
    endpoint: Endpoint,
    *,
    benchmark: str,
    cache: JudgeCache | None = None,
    concurrency: int = 4,
    on_progress: OnProgress | None = None,
) -> list[Judgment]:
    """The judgments with one question judged again (its response as judged before, `question` as given, the
    tasks it had), the new judgments in the old ones' place."""
    old = [j for j in judgments if j.question_id == question_id]
    if not old:
        raise MathReelError(f"{question_id} has no judgments to redo")
    tasks = tuple(dict.fromkeys(j.task for j in old))
    judged = judge_cases(
        [Case(question, old[0].response, old[0].record)],
        endpoint,
        benchmark=benchmark,
        tasks=tasks,
        concurrency=concurrency,
        cache=cache,
        on_progress=on_progress,
    )
    replaced: list[Judgment] = []
    done = False
    for judgment in judgments:
        if judgment.question_id != question_id:
            replaced.append(judgment)
        elif not done:
            replaced.extend(judged.judgments)
            done = True
    return replaced


def failures(judgments: Sequence[Judgment], shown: int, where: str) -> tuple[list[str], str | None]:
    """Lines naming up to `shown` failed calls, and the one-line verdict on them (None when none failed)."""
    failed = [j for j in judgments if j.failed]
    lines = [f"  {j.task} {j.question_id}: {j.reason}" for j in failed[:shown]]
    if len(failed) > shown:
        lines.append(f"  ... and {len(failed) - shown} more (status and reason are in {where})")
    if not failed:
        return lines, None
    asked = sum(j.status not in ("skipped", "rule") for j in judgments)
    return lines, (
        f"{len(failed)} of {asked} judge calls failed (the rule reading stands in where it can); "
        "run the same command again to retry them"
    )
