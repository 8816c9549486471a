"""Suite-wide setup: the tests never write to the user's own cache; fixtures several test modules use.

Code under test that reaches `core.cache.cache_base()` without a test-chosen cache (frames computed in the test
process to compare with the page, say) would otherwise fill ~/.cache/mathreel. A test that sets MATHREEL_CACHE
itself (monkeypatch) still wins for its own duration.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from helpers.fake_openai import FakeOpenAI


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    before = os.environ.get("MATHREEL_CACHE")
    os.environ["MATHREEL_CACHE"] = str(tmp_path_factory.mktemp("mathreel-cache"))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MATHREEL_CACHE", None)
        else:
            os.environ["MATHREEL_CACHE"] = before


@pytest.fixture(scope="module")
def fake_judge() -> Iterator[FakeOpenAI]:
    """The fake judge server (tests/helpers/fake_judge.py), one per test module."""
    from helpers.fake_judge import fake_judge_server

    with fake_judge_server() as server:
        yield server
