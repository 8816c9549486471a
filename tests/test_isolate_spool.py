"""A large result of an isolated job comes back through a spool file, intact, and no spool file is left behind,
whether the job succeeds, fails or runs over its budget."""

from __future__ import annotations

import glob
import os
import tempfile
import time

import pytest

from mathreel.core.errors import InputError
from mathreel.webapp import isolate
from mathreel.webapp.isolate import SPOOL_ABOVE_BYTES, Budget, run_isolated


def spool_files() -> set[str]:
    folders = {"/dev/shm", tempfile.gettempdir()}
    return {path for folder in folders for path in glob.glob(os.path.join(folder, "mathreel-outcome-*"))}


def test_a_result_over_the_pipe_threshold_comes_back_whole_and_its_spool_is_removed():
    before = spool_files()
    big = os.urandom(SPOOL_ABOVE_BYTES * 40)
    assert run_isolated(bytes, (big,), Budget(seconds=120, memory_mb=1024), "big.jsonl") == big
    small = b"x" * 10
    assert run_isolated(bytes, (small,), Budget(seconds=120, memory_mb=1024), "small.jsonl") == small
    assert spool_files() == before


def test_a_job_over_its_time_leaves_no_spool_file():
    before = spool_files()
    with pytest.raises(InputError, match="stopped after 1 s"):
        run_isolated(time.sleep, (30,), Budget(seconds=1, memory_mb=1024), "slow.jsonl")
    assert spool_files() == before


def test_the_spool_file_is_private_to_the_server_user():
    path = isolate.spool_file()
    try:
        assert os.stat(path).st_mode & 0o077 == 0
    finally:
        os.unlink(path)
