"""webapp.fair_queue.FairQueue: costly work takes turns, one job per visitor, the fewest turns first.

Jobs are threads that hold their turn until the test releases them, so the order is decided by the queue alone
(no clock): the test waits on counts (`busy()`), then releases.
"""

from __future__ import annotations

import threading
import time

import pytest

from mathreel.core.errors import InputError
from mathreel.webapp.fair_queue import FairQueue


class Jobs:
    """Jobs holding their turn until released; `started` is the order their turns began."""

    def __init__(self, queue: FairQueue) -> None:
        self.queue = queue
        self.started: list[str] = []
        self.refused: list[str] = []
        self.release: dict[str, threading.Event] = {}
        self.threads: list[threading.Thread] = []

    def submit(self, name: str, visitor: str) -> None:
        self.release[name] = threading.Event()

        def run() -> None:
            try:
                with self.queue.turn(visitor, name):
                    self.started.append(name)
                    assert self.release[name].wait(timeout=60)
            except InputError:
                self.refused.append(name)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.threads.append(thread)

    def settle(self, running: int, waiting: int) -> None:
        for _ in range(600):
            if self.queue.busy() == (running, waiting):
                return
            time.sleep(0.01)
        pytest.fail(f"queue never reached {(running, waiting)}: {self.queue.busy()}")

    def finish(self, name: str) -> None:
        self.release[name].set()


def test_a_visitors_second_job_waits_behind_another_visitors_first() -> None:
    jobs = Jobs(FairQueue(slots=1, waiting_per_visitor=3))
    jobs.submit("h1", "hostile")
    jobs.settle(1, 0)
    for name in ("h2", "h3"):
        jobs.submit(name, "hostile")
    jobs.settle(1, 2)
    jobs.submit("o1", "other")  # arrives last, but its visitor has had no turn
    jobs.settle(1, 3)
    for done, running_next in (("h1", "o1"), ("o1", "h2"), ("h2", "h3")):
        jobs.finish(done)
        for _ in range(600):
            if jobs.started[-1] == running_next:
                break
            time.sleep(0.01)
    jobs.finish("h3")
    for thread in jobs.threads:
        thread.join(timeout=60)
    assert jobs.started == ["h1", "o1", "h2", "h3"]
    assert jobs.queue.busy() == (0, 0)


def test_one_job_per_visitor_at_once_and_the_rest_of_the_slots_for_others() -> None:
    jobs = Jobs(FairQueue(slots=2, waiting_per_visitor=1))
    jobs.submit("h1", "hostile")
    jobs.settle(1, 0)
    jobs.submit("h2", "hostile")  # a second slot is free, but not for the same visitor
    jobs.settle(1, 1)
    jobs.submit("h3", "hostile")  # one running and one waiting already: refused at once
    jobs.threads[-1].join(timeout=60)
    assert jobs.refused == ["h3"]
    jobs.submit("o1", "other")
    jobs.settle(2, 1)
    assert jobs.started == ["h1", "o1"]
    for name in ("h1", "o1", "h2"):
        jobs.finish(name)
    for thread in jobs.threads:
        thread.join(timeout=60)
    assert jobs.started == ["h1", "o1", "h2"] and jobs.queue.busy() == (0, 0)
