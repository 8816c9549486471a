"""A start-up probe that waits for a slow machine instead of giving up after a few seconds.

Gradio's `launch` checks that the new server answers (`gradio.networking.url_ok`: five HEAD requests with a 3 s
timeout, giving up at the first timeout) and, when it does not, raises "When localhost is not accessible, a
shareable link must be created". On a loaded machine (a Space's cold start on a shared host) the first page render
takes longer than that, and `mathreel serve` died with a traceback. `patient_probe` replaces the check for the
length of a launch with one that waits up to `PATIENCE` seconds for the server it just started.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

PATIENCE = 300.0  # seconds; a healthy server answers in well under one, a machine at load 20 in tens
_REQUEST_TIMEOUT = 30.0
_ANSWERING = frozenset({200, 301, 302, 303, 307, 308, 401})  # what Gradio's own check accepts


def wait_for(url: str, patience: float = PATIENCE, clock: Callable[[], float] = time.monotonic) -> bool:
    """True once `url` answers HEAD with a status Gradio accepts; False after `patience` seconds without."""
    import httpx

    deadline = clock() + patience
    while True:
        remaining = deadline - clock()
        if remaining <= 0:
            return False
        try:
            response = httpx.head(url, timeout=min(_REQUEST_TIMEOUT, max(remaining, 0.1)), verify=False)
            if response.status_code in _ANSWERING:
                return True
        except httpx.HTTPError:
            pass  # not accepting yet, or slower than the request timeout: ask again
        time.sleep(0.25)


@contextmanager
def patient_probe(patience: float = PATIENCE) -> Iterator[None]:
    """Within the block, Gradio's start-up check waits up to `patience` seconds for the server."""
    from gradio import networking

    original = networking.url_ok
    networking.url_ok = lambda url: wait_for(url, patience)
    try:
        yield
    finally:
        networking.url_ok = original
