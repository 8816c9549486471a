"""Pausing the cyclic garbage collector while a file's rows are built.

Reading or scoring a 270,000-answer file allocates millions of small containers and no reference cycles; each
automatic collection of the oldest generation walks all of them, which measured as about half the time of a read
(bench/bench_score.py). Collection resumes when the outermost pause ends, also when pauses overlap in threads.
"""

from __future__ import annotations

import gc
from _thread import allocate_lock
from collections.abc import Iterator
from contextlib import contextmanager

_lock = allocate_lock()  # `threading.Lock` itself; `threading` costs every `mathreel score` start to import
_state = {"depth": 0, "was_enabled": False}


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with automatic garbage collection off; the outermost exit restores the previous setting."""
    with _lock:
        if _state["depth"] == 0:
            _state["was_enabled"] = gc.isenabled()
            gc.disable()
        _state["depth"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["depth"] -= 1
            if _state["depth"] == 0 and _state["was_enabled"]:
                gc.enable()
