"""Uploads take fair turns: one visitor's over-budget uploads never hold up another visitor's.

The real app served in this process (so the test can see how many scoring children run and wait: `TURNS.busy()`,
a count, never a clock), driven through its API with gradio_client as the Score tab drives it. One scoring child
at a time (score_concurrency=1) makes the contention plain. The hostile visitor (one browser token, a tab per file)
sends three 150,000-row workbooks that run past the budget; then two other visitors upload a small JSON Lines file
(cheap: scored inline at once) and a small workbook (every workbook is read in a child, on its visitor's turn).
Before: the Score events queued first come, first served for the scoring slots, so both waited behind the
hostile files; a workbook under 1 MB was read in the server's own thread without a budget.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import badinputs, xlsx_files
from helpers.appserver import free_port

BUDGET_SECONDS = 15  # over the small files' needs by far; the hostile workbooks cost about that or more


@pytest.fixture
def app_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    from mathreel.webapp.app import launch
    from mathreel.webapp.settings import Settings

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHREEL_DATA", raising=False)
    port = free_port()
    app = launch(Settings(port=port, score_concurrency=1, score_seconds=BUDGET_SECONDS), block=False)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        app.close()


class Finished:
    """The order in which uploads finished, with each one's error box."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.order: list[str] = []
        self.boxes: dict[str, dict[str, Any]] = {}

    def watch(self, name: str, job: Any) -> threading.Thread:
        def wait() -> None:
            box, *_ = job.result(timeout=600)
            with self.lock:
                self.order.append(name)
                self.boxes[name] = box

        thread = threading.Thread(target=wait, daemon=True)
        thread.start()
        return thread


def client(url: str) -> Any:
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False, httpx_kwargs={"timeout": 300})


def submit(c: Any, path: Path, token: str) -> Any:
    from gradio_client import handle_file

    return c.submit([handle_file(str(path))], "", "robust", "", False, token, api_name="/rescore")


def wait_for(condition: Any, what: str) -> None:
    """Poll a server-side count (bounded, so a regression fails instead of hanging)."""
    for _ in range(1200):
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"never saw: {what}")


@pytest.mark.xdist_group("machine")
def test_one_visitors_over_budget_uploads_do_not_hold_up_anothers(app_url: str, tmp_path: Path) -> None:
    from mathreel.webapp.scored_runs import TURNS

    heavy = xlsx_files.many_rows(150_000)
    hostile_files = []
    for i in range(3):
        hostile_files.append(tmp_path / f"hostile-{i}.xlsx")
        hostile_files[-1].write_bytes(heavy)
    small = tmp_path / "small.jsonl"
    small.write_bytes(badinputs.known_accuracy_file(12, 7))
    book = tmp_path / "book.xlsx"
    book.write_bytes(xlsx_files.vlmevalkit(rows=12))

    finished, threads = Finished(), []
    hostile_token = secrets.token_urlsafe(32)
    clients = [client(app_url) for _ in range(5)]
    try:
        threads.append(finished.watch("hostile-0", submit(clients[0], hostile_files[0], hostile_token)))
        wait_for(lambda: TURNS.busy() == (1, 0), "the first hostile workbook in the scoring child")
        threads.append(finished.watch("hostile-1", submit(clients[1], hostile_files[1], hostile_token)))
        wait_for(lambda: TURNS.busy() == (1, 1), "the second hostile workbook waiting for its turn")
        threads.append(finished.watch("hostile-2", submit(clients[2], hostile_files[2], hostile_token)))
        threads[-1].join(timeout=300)  # refused at once: the visitor already has one running and one waiting
        assert finished.order == ["hostile-2"], finished.order

        threads.append(finished.watch("other-book", submit(clients[3], book, secrets.token_urlsafe(32))))
        wait_for(lambda: TURNS.busy() == (1, 2), "the other visitor's workbook waiting for its turn")
        threads.append(finished.watch("other-small", submit(clients[4], small, secrets.token_urlsafe(32))))
        for thread in threads:
            thread.join(timeout=600)
    finally:
        for c in clients:
            c.close()

    order = finished.order
    assert sorted(order) == ["hostile-0", "hostile-1", "hostile-2", "other-book", "other-small"], order
    # the cheap upload is not queued behind anything; the other visitor's workbook goes before the hostile
    # visitor's second, which has waited longer but whose visitor has had a turn already
    assert order.index("other-small") < order.index("hostile-0"), order
    assert order.index("other-book") < order.index("hostile-1"), order
    boxes = finished.boxes
    assert not boxes["other-small"]["visible"] and not boxes["other-book"]["visible"], boxes
    assert "your earlier files are still being scored" in boxes["hostile-2"]["value"]
    # stopped at the budget, or refused by the reader (they name no benchmark) on an idle machine
    assert boxes["hostile-0"]["visible"] and boxes["hostile-1"]["visible"]
    assert TURNS.busy() == (0, 0)


def test_every_workbook_is_read_in_a_child_and_a_cheap_file_inline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Before: a workbook under 1 MB (a 2 KB one can name cell XFD1048576) was read in the server's thread."""
    import os

    import mathreel.webapp.scored_runs as scored_runs
    from mathreel.core.errors import MathReelError
    from mathreel.webapp.isolate import Budget
    from mathreel.webapp.scored_runs import ScoreOptions, score_path

    children: list[int] = []
    real = scored_runs.run_isolated

    def spy(fn: Any, args: tuple, budget: Any, source: str) -> Any:
        children.append(os.getpid())
        return real(fn, args, budget, source)

    monkeypatch.setattr(scored_runs, "run_isolated", spy)
    options = ScoreOptions(budget=Budget(seconds=120, memory_mb=1024))
    far = tmp_path / "far.xlsx"
    far.write_bytes(xlsx_files.far_cell())
    assert far.stat().st_size < 4096
    with pytest.raises(MathReelError, match=r"far\.xlsx: cannot tell which benchmark"):
        score_path(str(far), options)
    book = tmp_path / "book.xlsx"
    book.write_bytes(xlsx_files.vlmevalkit(rows=12))
    assert len(score_path(str(book), options).rows) == 12
    assert len(children) == 2
    small = tmp_path / "small.jsonl"
    small.write_bytes(badinputs.known_accuracy_file(12, 7))
    assert sum(r.status == "correct" for r in score_path(str(small), options).rows) == 7
    assert len(children) == 2  # the cheap file: inline, no child
