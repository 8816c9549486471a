"""A benchmark's facts live in its module: shared code in core/ and cli/ asks the benchmark object for its full
question text, its reproductions (the extractor names) and its frame count, so a new benchmark is its module and
its registry line."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import MappingProxyType

import pytest

from mathreel.cli import run as run_command
from mathreel.cli import show as show_command
from mathreel.cli.score import extractor_help
from mathreel.core.benchmarks import BENCHMARKS, extractor_names
from mathreel.core.benchmarks.base import Benchmark, OfficialScorer

ROOT = Path(__file__).resolve().parents[1]


def test_only_mathverse_reads_its_own_question_field():
    readers = sorted(
        str(path.relative_to(ROOT))
        for folder in ("core", "cli", "webapp")
        for path in (ROOT / folder).rglob("*.py")
        if "question_for_eval" in path.read_text(encoding="utf-8")
    )
    assert readers == ["core/benchmarks/mathverse.py"]


def test_extractor_names_come_from_the_benchmarks(monkeypatch):
    offered = {name for bench in BENCHMARKS.values() for name in bench.reproductions}
    assert set(extractor_names()) == offered | {"robust"}
    for name, bench in BENCHMARKS.items():  # a benchmark's own: "robust" and its reproductions, in its order
        assert extractor_names(name) == ("robust", *bench.reproductions)

    class Fifth(Benchmark):
        name, title = "fifth", "Fifth"
        reproductions = MappingProxyType(
            {"fifth-official": OfficialScorer("fifth scorer", "extract_choice_lmms", "all", "org/repo x.py@abc")}
        )

    monkeypatch.setitem(BENCHMARKS, "fifth", Fifth())
    assert "fifth-official" in extractor_names() and extractor_names("fifth") == ("robust", "fifth-official")
    assert "fifth-official" not in extractor_names("videomme")
    assert "fifth-official [fifth]: fifth scorer (org/repo x.py@abc)" in extractor_help()


@pytest.mark.parametrize("command", [show_command, run_command])
def test_frame_counts_default_to_the_benchmark_s(command):
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    action = next(
        a
        for sub in parser._subparsers._group_actions
        for p in sub.choices.values()
        for a in p._actions
        if "--frames" in a.option_strings
    )
    assert action.default is None
    for bench in BENCHMARKS.values():
        if bench.layout and bench.layout.has_video:
            assert f"{bench.title} {bench.default_frames}" in action.help
