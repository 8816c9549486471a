"""`mathreel serve` as a test fixture: the real server in a subprocess on a free loopback port, on the demo set.

Shared by the browser tests (tests/browser/conftest.py re-exports the fixtures) and the app reliability tests,
which import from here rather than from a conftest. The server is waited on until it answers and always
terminated; its caches live under the session's tmp directory.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

START_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def mathreel_command() -> list[str]:
    """The installed `mathreel` script of this interpreter's environment (else the one on PATH)."""
    beside = Path(sys.executable).with_name("mathreel")
    found = str(beside) if beside.exists() else shutil.which("mathreel")
    if not found:
        raise RuntimeError("the mathreel command is not installed (pip install -e .)")
    return [found]


def wait_until_answering(url: str, process: subprocess.Popen, log: Path, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"mathreel serve exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"mathreel serve did not answer within {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment of the server (and of CLI runs compared with it): private caches under the test's tmp."""
    base = tmp_path_factory.mktemp("server")
    env = dict(os.environ)
    env.update(
        {
            "MATHREEL_CACHE": str(base / "cache"),
            "GRADIO_TEMP_DIR": str(base / "gradio"),
            "GRADIO_ANALYTICS_ENABLED": "False",
        }
    )
    env.pop("MATHREEL_DATA", None)  # the embedded demo set
    return env


@contextmanager
def serving(env: dict[str, str], log_dir: Path) -> Iterator[tuple[str, Path]]:
    """`mathreel serve` with `env` on a free loopback port: yields (base URL, log file), always terminated."""
    port = free_port()
    log = log_dir / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*mathreel_command(), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_answering(url, process, log)
        yield url, log
    finally:
        stop(process)


def stop(process: subprocess.Popen, timeout: float = 20) -> None:
    """Terminate a server process, killing it if it does not exit within `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def server(server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of `mathreel serve` on the demo set, on a free loopback port."""
    with serving(server_env, tmp_path_factory.mktemp("server-log")) as (url, _log):
        yield url
