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


def test_forged_tokens_from_one_address_share_its_turns() -> None:
    """A browser token costs nothing to make up: a client sending each file under a new token still takes its
    address's turns (visitor keys are "address/token"), and another address goes before its second file."""
    jobs = Jobs(FairQueue(slots=2, waiting_per_visitor=1))
    jobs.submit("h1", "10.0.0.9/token-1")
    jobs.settle(1, 0)
    jobs.submit("o1", "10.0.0.7/token-x")  # another address: the second slot
    jobs.settle(2, 0)
    jobs.submit("h2", "10.0.0.9/token-2")  # a forged second token from the first address
    jobs.settle(2, 1)
    jobs.submit("o2", "10.0.0.7/token-y")  # the other address again, arriving after h2
    jobs.settle(2, 2)
    jobs.finish("h1")  # a slot frees: the address with fewer turns (each has had one) and none running goes
    for _ in range(600):
        if len(jobs.started) == 3:
            break
        time.sleep(0.01)
    assert jobs.started == ["h1", "o1", "h2"], jobs.started  # o1 still runs: 10.0.0.7 is busy, 10.0.0.9 is not
    jobs.finish("o1")
    jobs.settle(2, 0)
    assert jobs.started == ["h1", "o1", "h2", "o2"]
    for name in ("h2", "o2"):
        jobs.finish(name)
    for thread in jobs.threads:
        thread.join(timeout=60)
    assert jobs.queue.busy() == (0, 0)


def test_a_second_job_of_one_address_waits_while_another_address_waits() -> None:
    jobs = Jobs(FairQueue(slots=2, waiting_per_visitor=1))
    jobs.submit("h1", "10.0.0.9/token-1")
    jobs.settle(1, 0)
    jobs.submit("h2", "10.0.0.9/token-2")  # no one else waits: a free child is not left idle
    jobs.settle(2, 0)
    jobs.submit("h3", "10.0.0.9/token-3")
    jobs.settle(2, 1)
    jobs.submit("o1", "10.0.0.7/token-x")  # arrives after h3, but its address has had no turn
    jobs.settle(2, 2)
    jobs.finish("h1")
    jobs.settle(2, 1)
    assert jobs.started[-1] == "o1", jobs.started
    for name in ("h2", "o1", "h3"):
        jobs.finish(name)
    for thread in jobs.threads:
        thread.join(timeout=60)
    assert jobs.started == ["h1", "h2", "o1", "h3"] and jobs.queue.busy() == (0, 0)


def test_one_address_holds_a_bounded_number_of_jobs_whatever_its_tokens() -> None:
    jobs = Jobs(FairQueue(slots=1, waiting_per_visitor=1, waiting_per_address=3))
    for index in range(3):
        jobs.submit(f"h{index}", f"10.0.0.9/token-{index}")
        jobs.settle(1, index)
    jobs.submit("h3", "10.0.0.9/token-3")  # a fourth forged token: refused, not queued
    jobs.threads[-1].join(timeout=60)
    assert jobs.refused == ["h3"]
    jobs.submit("o1", "10.0.0.7/token-x")
    jobs.settle(1, 3)
    for name in ("h0", "o1", "h1", "h2"):
        jobs.finish(name)
    for thread in jobs.threads:
        thread.join(timeout=60)
    assert jobs.started == ["h0", "o1", "h1", "h2"] and jobs.queue.busy() == (0, 0)


class _Address:
    def __init__(self, host: str) -> None:
        self.host = host


class _Request:
    """What the key reads of a gr.Request: the TCP peer, the headers and the page session."""

    def __init__(self, host: str, forwarded: str = "", session: str = "s1") -> None:
        self.client = _Address(host)
        self.headers = {"x-forwarded-for": forwarded} if forwarded else {}
        self.session_hash = session


def test_the_visitor_key_goes_by_address_with_the_token_inside_it() -> None:
    from mathreel.webapp.fair_queue import share_of
    from mathreel.webapp.visitor import new_token, set_proxy_hops, visitor_key

    set_proxy_hops(0)
    one, two = new_token(), new_token()
    first, second = visitor_key(one, _Request("10.0.0.9")), visitor_key(two, _Request("10.0.0.9"))
    assert first != second and share_of(first) == share_of(second)  # two forged tokens, one share
    assert share_of(visitor_key(one, _Request("10.0.0.7"))) != share_of(first)
    # no proxy is trusted: a header any client can write changes nothing
    assert visitor_key(one, _Request("10.0.0.9", forwarded="1.2.3.4")) == first
    assert "10.0.0.9" not in first and one not in first  # hashes only


def test_behind_a_configured_proxy_its_entry_in_x_forwarded_for_is_the_address() -> None:
    from mathreel.webapp.fair_queue import share_of
    from mathreel.webapp.visitor import new_token, set_proxy_hops, visitor_key

    token = new_token()
    set_proxy_hops(1)
    try:
        # every request reaches the server from the proxy; the proxy appends the real client last
        honest = visitor_key(token, _Request("10.1.1.1", forwarded="203.0.113.5"))
        forged = visitor_key(new_token(), _Request("10.1.1.1", forwarded="198.51.100.1, 203.0.113.5"))
        other = visitor_key(new_token(), _Request("10.1.1.1", forwarded="198.51.100.1"))
        assert share_of(honest) == share_of(forged)  # what the client wrote before the proxy's entry is ignored
        assert share_of(other) != share_of(honest)
        assert share_of(visitor_key(token, _Request("10.1.1.1"))) != share_of(honest)  # no header: the peer
    finally:
        set_proxy_hops(0)
