"""The server starts on a loaded machine: Gradio's start-up probe waits for it (webapp/startup.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from helpers.appserver import free_port, mathreel_command, server_env, stop, wait_until_answering  # noqa: F401

from mathreel.webapp.startup import wait_for


class _SlowHead(BaseHTTPRequestHandler):
    """Answers HEAD after `delay` seconds, as a first page render does on a busy machine."""

    delay = 0.0

    def do_HEAD(self) -> None:
        time.sleep(self.delay)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def slow_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowHead)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_the_probe_waits_past_gradios_three_seconds(slow_server):
    from gradio import networking

    _SlowHead.delay = 3.5
    url = f"http://127.0.0.1:{slow_server.server_port}/"
    assert networking.url_ok(url) is False  # Gradio's own check gives up at its 3 s timeout
    assert wait_for(url, patience=30) is True


def test_the_probe_gives_up_after_its_patience():
    url = f"http://127.0.0.1:{free_port()}/"  # nothing listens there
    started = time.monotonic()
    assert wait_for(url, patience=1.0) is False
    assert time.monotonic() - started < 10


# Gradio's own start-up probe failed twice on a 2-core machine at a load of 15: an eighth of a core per process.
# The server gets as little here, and only one core is loaded (the rest of the suite keeps the others): it and
# BUSY spinning processes share one CPU where the kernel lets a process choose (else they share them all, with
# BUSY per core).
BUSY = 7


def one_cpu() -> set[int] | None:
    """The CPU the server and the busy processes share, or None where a process cannot be pinned to one."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    return {max(os.sched_getaffinity(0))}


@pytest.mark.xdist_group("machine")
def test_the_server_starts_on_a_core_shared_with_busy_processes(tmp_path, server_env):  # noqa: F811
    cpu = one_cpu()
    pin = (lambda: os.sched_setaffinity(0, cpu)) if cpu else None
    count = BUSY if cpu else BUSY * (os.cpu_count() or 1)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=pin) for _ in range(count)]
    port = free_port()
    log = tmp_path / "serve.log"
    try:
        with log.open("w") as out:
            server = subprocess.Popen(
                [*mathreel_command(), "serve", "--port", str(port)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=server_env,
                preexec_fn=pin,
            )
        try:
            wait_until_answering(f"http://127.0.0.1:{port}/", server, log, timeout=600)
            assert server.poll() is None
        finally:
            stop(server)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert "Traceback" not in log.read_text()
