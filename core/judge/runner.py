"""Run the judge over many questions: bounded concurrency, retries (the client's), the reply cache, progress.

Per question, the first-stage tasks (extract, steps, equiv) run side by side, then the second stage (errors,
which reads their results). At most `concurrency` judge calls are in flight across all questions. Every
(question, task) pair of an applicable task ends as exactly one Judgment, in input order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mathreel.core.benchmarks import Benchmark, get_benchmark
from mathreel.core.client import ClientError, Endpoint, ModelRequest, ask_async, make_async_client
from mathreel.core.errors import MathReelError
from mathreel.core.judge.cache import JudgeCache, cache_key
from mathreel.core.judge.model import Case, Judgment, count_statuses
from mathreel.core.judge.parse import CardError, final_card
from mathreel.core.judge.tasks import TASK_TYPES, Plan, Task

DEFAULT_TASKS = ("extract", "steps", "errors", "equiv")
OnProgress = Callable[[int, int, Judgment], None]


@dataclass
class JudgeRun:
    """The judgments of one run, in input order, plus the tasks that applied to nothing and why."""

    judgments: list[Judgment]
    judge_model: str
    tasks: tuple[str, ...]
    not_applicable: dict[str, str] = field(default_factory=dict)

    @property
    def counts(self) -> dict[str, dict[str, int]]:
        return count_statuses(self.judgments)

    @property
    def failures(self) -> int:
        return sum(j.failed for j in self.judgments)

    @property
    def calls_cached(self) -> int:
        return sum(j.cached for j in self.judgments)


def parse_tasks(names: str | Sequence[str] | None) -> tuple[str, ...]:
    """Task names from "extract,steps" or a list; unknown names raise MathReelError."""
    if names is None:
        return DEFAULT_TASKS
    items = [n.strip() for n in (names.split(",") if isinstance(names, str) else names) if n.strip()]
    unknown = [n for n in items if n not in TASK_TYPES]
    if unknown or not items:
        raise MathReelError(
            f"unknown judge task {', '.join(unknown) or '(none given)'}; choose from {', '.join(TASK_TYPES)}"
        )
    return tuple(dict.fromkeys(items))


class _Judge:
    """One run's shared state: the endpoint, client, cache, concurrency gate and progress counter."""

    def __init__(
        self,
        endpoint: Endpoint,
        client: Any,
        cache: JudgeCache | None,
        concurrency: int,
        total: int,
        on_progress: OnProgress | None,
    ) -> None:
        self.endpoint = endpoint
        self.client = client
        self.cache = cache
        self.gate = asyncio.Semaphore(concurrency)
        self.total = total
        self.done = 0
        self.on_progress = on_progress

    def finished(self, judgment: Judgment) -> Judgment:
        self.done += 1
        if self.on_progress is not None:
            self.on_progress(self.done, self.total, judgment)
        return judgment

    async def run_task(self, task: Task, case: Case, bench: Benchmark, earlier: dict[str, Judgment]) -> Judgment:
        plan = task.plan(case, bench, earlier)
        base = Judgment(
            case.question.question_id,
            task.name,
            "skipped",
            judge_model=self.endpoint.model,
            prompt_version=task.version,
            benchmark=case.question.benchmark,
            mode=case.question.mode,
            record=case.record,
            dims=dict(case.question.dims),
            response=case.response,
        )
        if plan.skip is not None:
            return self.finished(dataclasses.replace(base, reason=plan.skip))
        if plan.decided is not None:
            return self.finished(
                dataclasses.replace(
                    base, status="rule", values=plan.decided, reason="decided by rules; the judge was not asked"
                )
            )
        return self.finished(await self._judged(task, case, bench, plan, base))

    async def _judged(self, task: Task, case: Case, bench: Benchmark, plan: Plan, base: Judgment) -> Judgment:
        assert plan.prompt is not None
        key = cache_key(self.endpoint.base_url, self.endpoint.model, task.version, plan.prompt)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            try:
                values = task.read(final_card(cached, case.response), case, bench)
                return dataclasses.replace(base, status="ok", values=values, raw_reply=cached, cached=True)
            except CardError:
                pass  # an entry the current checks reject is asked again
        reply: str | None = None
        try:
            reply = await self._ask(task, plan.prompt)
            values = task.read(final_card(reply, case.response), case, bench)
        except ClientError as error:
            return self._failure(
                task,
                case,
                bench,
                base,
                f"judge call failed: {error.cause}"
                + (f" (after {error.attempts} attempts)" if error.attempts > 1 else ""),
                None,
            )
        except CardError as error:
            return self._failure(task, case, bench, base, f"invalid judge reply: {error}", reply)
        if self.cache is not None:
            self.cache.put(key, self.endpoint.model, task.version, reply)
        return dataclasses.replace(base, status="ok", values=values, raw_reply=reply)

    async def _ask(self, task: Task, prompt: str) -> str:
        endpoint = self.endpoint
        if task.temperature is not None and endpoint.temperature != task.temperature:
            endpoint = dataclasses.replace(endpoint, temperature=task.temperature)
        async with self.gate:
            reply = await ask_async(endpoint, ModelRequest(prompt=prompt), client=self.client)
        return reply.text

    @staticmethod
    def _failure(task: Task, case: Case, bench: Benchmark, base: Judgment, reason: str, reply: str | None) -> Judgment:
        values = task.fallback(case, bench, reason)
        status = "fallback" if values is not None else "failed"
        return dataclasses.replace(base, status=status, values=values or {}, raw_reply=reply, reason=reason)


def _active_tasks(names: Sequence[str], cases: Sequence[Case], bench: Benchmark) -> tuple[list[Task], dict[str, str]]:
    """The tasks that apply to at least one question, and for the others why they apply to none."""
    active: list[Task] = []
    not_applicable: dict[str, str] = {}
    for name in names:
        task = TASK_TYPES[name]()
        why = task.applies_to(bench)
        if why is None and task.stage == 1:
            reasons = {task.plan(case, bench, {}).skip for case in cases}
            if None not in reasons and cases:
                why = "; ".join(sorted(r for r in reasons if r))
        if why is None:
            active.append(task)
        else:
            not_applicable[name] = why
    return active, not_applicable


async def judge_cases_async(
    cases: Sequence[Case],
    endpoint: Endpoint,
    *,
    benchmark: str,
    tasks: Sequence[str] = DEFAULT_TASKS,
    concurrency: int = 8,
    cache: JudgeCache | None = None,
    on_progress: OnProgress | None = None,
    client: Any = None,
) -> JudgeRun:
    """Judge every case with every applicable task; see the module docstring."""
    if concurrency < 1:
        raise MathReelError(f"concurrency must be at least 1, not {concurrency}")
    bench = get_benchmark(benchmark)
    active, not_applicable = _active_tasks(tasks, cases, bench)
    stages = sorted({task.stage for task in active})
    own = client is None
    client = make_async_client(endpoint) if own else client
    judge = _Judge(endpoint, client, cache, concurrency, len(cases) * len(active), on_progress)

    async def one(case: Case) -> list[Judgment]:
        earlier: dict[str, Judgment] = {}
        for stage in stages:
            batch = [task for task in active if task.stage == stage]
            done = await asyncio.gather(*(judge.run_task(task, case, bench, dict(earlier)) for task in batch))
            earlier.update((j.task, j) for j in done)
        return [earlier[task.name] for task in active]

    try:
        per_case = await asyncio.gather(*(one(case) for case in cases))
    finally:
        if own:
            await client.close()
    judgments = [j for group in per_case for j in group]
    return JudgeRun(judgments, endpoint.model, tuple(t.name for t in active), not_applicable)


def judge_cases(cases: Sequence[Case], endpoint: Endpoint, **options: Any) -> JudgeRun:
    """`judge_cases_async` for synchronous callers (the CLI, the app's worker threads).

    Called where an event loop already runs in this thread (a notebook, a Playwright sync session), the run
    gets its own thread and loop, since `asyncio.run` cannot nest.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(judge_cases_async(cases, endpoint, **options))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge") as pool:
        return pool.submit(asyncio.run, judge_cases_async(cases, endpoint, **options)).result()
