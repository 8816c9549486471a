"""A large result of an isolated job comes back through a spool file, intact, and no spool file is left behind,
whether the job succeeds, fails or runs over its budget."""

from __future__ import annotations

import os
import tempfile
import time

import pytest

from mathreel.core.errors import InputError
from mathreel.webapp import isolate
from mathreel.webapp.isolate import SPOOL_ABOVE_BYTES, Budget, run_isolated

SPOOL_FOLDERS = {"/dev/shm", tempfile.gettempdir()}


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The spool files this test's jobs made. Other tests (or other pytest processes: the suite runs in parallel)
    may have spool files of their own at the same moment, so the check is on these, not on the folder's listing."""
    paths: list[str] = []
    real = isolate.spool_file

    def recorded() -> str:
        paths.append(real())
        return paths[-1]

    monkeypatch.setattr(isolate, "spool_file", recorded)
    return paths


def test_a_result_over_the_pipe_threshold_comes_back_whole_and_its_spool_is_removed(made: list[str]):
    big = os.urandom(SPOOL_ABOVE_BYTES * 40)
    assert run_isolated(bytes, (big,), Budget(seconds=120, memory_mb=1024), "big.jsonl") == big
    small = b"x" * 10
    assert run_isolated(bytes, (small,), Budget(seconds=120, memory_mb=1024), "small.jsonl") == small
    assert len(made) == 2 and all(os.path.dirname(path) in SPOOL_FOLDERS for path in made), made
    assert not any(os.path.exists(path) for path in made), made


def test_a_job_over_its_time_leaves_no_spool_file(made: list[str]):
    with pytest.raises(InputError, match="stopped after 1 s"):
        run_isolated(time.sleep, (30,), Budget(seconds=1, memory_mb=1024), "slow.jsonl")
    assert len(made) == 1
    assert not any(os.path.exists(path) for path in made), made


def test_the_spool_file_is_private_to_the_server_user():
    path = isolate.spool_file()
    try:
        assert os.stat(path).st_mode & 0o077 == 0
    finally:
        os.unlink(path)
