"""The one lookup of a named run both tabs use (core.runs)."""

from __future__ import annotations

from dataclasses import dataclass

from mathreel.core.runs import find_run, unique_name


@dataclass
class _Run:
    name: str


def test_find_run_by_name_first_when_unnamed_and_stale_names_by_policy():
    runs = [_Run("a"), _Run("b")]
    assert find_run(runs, "b") is runs[1]
    assert find_run(runs, None) is runs[0]
    assert find_run(runs, "gone") is None
    assert find_run(runs, "gone", stale_is_first=True) is runs[0]
    assert find_run([], None) is None and find_run([], "a", stale_is_first=True) is None


def test_unique_name_numbers_repeats():
    assert unique_name("run", set()) == "run"
    assert unique_name("run", {"run", "run (2)"}) == "run (3)"
