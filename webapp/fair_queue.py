"""Turns for visitors' costly work: fair shares of the scoring children instead of first come, first served.

Gradio queues an event group's calls in arrival order, so six heavy uploads sent by one visitor used to hold the
Score group's slots while another visitor's 0.3 s upload waited behind all six. Now the Score events run at once
(a cheap file is scored inline, webapp.scored_runs), and only work that needs a child process with a budget
(webapp.isolate) takes a turn here: at most `slots` children across the server, at most one per visitor, and when
a child is free the visitor who has had the fewest turns goes next (arrival order among equals). A visitor's own
heavy files therefore wait behind each other, never in front of someone else's. A visitor already holding a turn
and `waiting_per_visitor` more gets one line instead of a place in line, so one visitor cannot hold the server's
event threads either.

A visitor key is "address/token" (webapp.visitor.visitor_key): shares are the address's, the token a sub-key within
it. A browser token is free to forge, so a client that makes up new tokens gets no more turns for it: the address
with the fewest turns goes next, a second job of one address takes a free child only when no other address is
waiting, and one address holds at most `waiting_per_address` jobs (running or waiting) at once. Several visitors
behind one address share its turns, each still one job at a time.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from mathreel.core.errors import InputError


@dataclass(frozen=True)
class _Ticket:
    seq: int
    visitor: str

    @property
    def address(self) -> str:
        return share_of(self.visitor)


def share_of(visitor: str) -> str:
    """The part of a visitor key that fair shares go by: its address ("address/token"), else the whole key."""
    return visitor.partition("/")[0]


class FairQueue:
    """At most `slots` jobs at once, one per visitor; the address, then the visitor, with the fewest turns so far
    goes next."""

    def __init__(
        self,
        slots: int,
        waiting_per_visitor: int = 1,
        busy: str = "not scored: your earlier files are "
        "still being scored on this shared server; upload this one again when they are done",
        waiting_per_address: int = 4,
    ) -> None:
        self.slots = max(1, slots)
        self.waiting_per_visitor = waiting_per_visitor
        self.waiting_per_address = max(1, waiting_per_address)
        self.busy_message = busy  # what a visitor over their share is told
        self._cond = threading.Condition()
        self._running: dict[str, int] = {}
        self._waiting: list[_Ticket] = []
        self._turns: dict[str, int] = {}  # turns taken by each visitor who still has work here
        self._address_turns: dict[str, int] = {}  # the same by address
        self._seq = itertools.count()

    @contextmanager
    def turn(self, visitor: str, source: str) -> Iterator[None]:
        """Wait for this visitor's turn, hold it for the block. InputError naming `source` when the visitor
        already has a job running and `waiting_per_visitor` waiting."""
        address = share_of(visitor)
        with self._cond:
            waiting = sum(t.visitor == visitor for t in self._waiting)
            if self._running.get(visitor, 0) + waiting > self.waiting_per_visitor:
                raise InputError(source, self.busy_message)
            if self._held_by(address) >= self.waiting_per_address:
                raise InputError(source, self.busy_message)
            ticket = _Ticket(next(self._seq), visitor)
            self._waiting.append(ticket)
            try:
                while not self._may_start(ticket):
                    self._cond.wait(timeout=1.0)
            finally:
                self._waiting.remove(ticket)
            self._running[visitor] = self._running.get(visitor, 0) + 1
            self._turns[visitor] = self._turns.get(visitor, 0) + 1
            self._address_turns[address] = self._address_turns.get(address, 0) + 1
        try:
            yield
        finally:
            with self._cond:
                self._running[visitor] -= 1
                if not self._running[visitor]:
                    del self._running[visitor]
                    if not any(t.visitor == visitor for t in self._waiting):
                        self._turns.pop(visitor, None)
                if not self._held_by(address):
                    self._address_turns.pop(address, None)
                self._cond.notify_all()

    def _held_by(self, address: str) -> int:
        """Jobs of `address` running or waiting."""
        running = sum(count for visitor, count in self._running.items() if share_of(visitor) == address)
        return running + sum(t.address == address for t in self._waiting)

    def _may_start(self, ticket: _Ticket) -> bool:
        if sum(self._running.values()) >= self.slots or self._running.get(ticket.visitor):
            return False
        ready = [t for t in self._waiting if not self._running.get(t.visitor)]
        busy = {share_of(visitor) for visitor in self._running}

        def order(t: _Ticket) -> tuple[bool, int, int, int]:
            # an address already running something waits for every other address's turn, then fewest turns
            return (t.address in busy, self._address_turns.get(t.address, 0), self._turns.get(t.visitor, 0), t.seq)

        return min(ready, key=order) is ticket

    def busy(self) -> tuple[int, int]:
        """(jobs running, jobs waiting) now."""
        with self._cond:
            return sum(self._running.values()), len(self._waiting)
