"""Which benchmark and mode a file belongs to, decided from evidence that can be named in a note.

Detection asks the benchmark objects (their metric keys, their taxonomies, their modes' letters) rather than
branching on benchmark names, so a new benchmark module is detected without touching this file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mathreel.core.benchmarks import BENCHMARKS, Benchmark
from mathreel.core.errors import InputError
from mathreel.core.fields import parse_options, text

_SAMPLE = 200  # rows looked at for detection; files are homogeneous and this keeps detection O(1)


def all_metric_keys() -> tuple[str, ...]:
    return tuple(key for bench in BENCHMARKS.values() for key in bench.metric_keys)


def benchmark_by_metric_key(records: Sequence[dict[str, Any]]) -> tuple[Benchmark, str] | None:
    """The benchmark whose lmms-eval metric dict the records carry, with that key."""
    for record in records[:_SAMPLE]:
        for bench in BENCHMARKS.values():
            for key in bench.metric_keys:
                if key in record:
                    return bench, key
    return None


def benchmark_by_layout(layout: str | None) -> Benchmark | None:
    """The one benchmark whose own result layout `layout` is (`Benchmark.result_layouts`), if any."""
    owners = [bench for bench in BENCHMARKS.values() if layout in bench.result_layouts]
    return owners[0] if len(owners) == 1 else None


def known_dimensions(bench: Benchmark, rows: Iterable[dict[str, Any]]) -> list[str]:
    """The dimensions of `bench` whose known values the sampled rows use, in the benchmark's order; stops at the
    first row by which every dimension with known values has matched (no later row can add one)."""
    possible = {d.key for d in bench.dimensions if d.values}
    matched: set[str] = set()
    for number, fields in enumerate(rows):
        if number >= _SAMPLE or matched >= possible:
            break
        matched.update(_known_dims(bench, fields))
    return [d.key for d in bench.dimensions if d.key in matched]


def taxonomy_votes(rows: Iterable[dict[str, Any]]) -> tuple[Counter[str], dict[str, set[str]]]:
    """Per benchmark, how many sampled rows it explains best by known dimension values (exact label matches),
    and which of its dimensions matched."""
    votes: Counter[str] = Counter()
    matched: dict[str, set[str]] = {}
    for number, fields in enumerate(rows):
        if number >= _SAMPLE:
            break
        hits = {name: _known_dims(bench, fields) for name, bench in BENCHMARKS.items()}
        best = max(len(h) for h in hits.values())
        winners = [name for name, h in hits.items() if len(h) == best]
        if best > 0 and len(winners) == 1:
            votes[winners[0]] += 1
            matched.setdefault(winners[0], set()).update(hits[winners[0]])
    return votes, matched


def _known_dims(bench: Benchmark, fields: dict[str, Any]) -> list[str]:
    try:
        question = bench.question_from_record(fields, bench.modes[0].key)
    except (ValueError, TypeError, KeyError, AttributeError):
        return []
    return [key for key, value in question.dims.items() if value in bench.dimension(key).values]


def detect_benchmark(
    records: Sequence[dict[str, Any]],
    rows: Sequence[dict[str, Any]],
    source: str,
    given: str | None,
    layout: str | None = None,
) -> tuple[Benchmark, str]:
    """The benchmark and a note saying why; a file that evidently belongs to another benchmark than `given` fails.

    Where the format names its benchmark (an lmms-eval metric key, a layout only one benchmark writes) no vote is
    taken: the vote builds a Question per sampled row for every benchmark."""
    by_key = benchmark_by_metric_key(records)
    if given is None and by_key:
        return by_key[0], f"benchmark: {by_key[0].name} (lmms-eval metric key {by_key[1]})"
    owner = benchmark_by_layout(layout) if given is None else None
    if owner is not None:
        known = known_dimensions(owner, rows)
        why = f"field values match its taxonomy: {', '.join(known)}" if known else f"its own result layout, {layout}"
        return owner, f"benchmark: {owner.name} ({why})"
    votes, matched = taxonomy_votes(rows)
    leader = votes.most_common(1)[0][0] if votes else None
    if given is not None:
        bench = _named(given, source)
        if by_key and by_key[0] is not bench:
            raise InputError(source, f"this is a {by_key[0].title} file (metric key {by_key[1]}), not {bench.title}")
        if leader and leader != bench.name and votes[leader] > votes[bench.name]:
            other = BENCHMARKS[leader]
            raise InputError(
                source,
                f"this looks like a {other.title} file (its fields use {other.title}'s taxonomy), not {bench.title}",
            )
        return bench, f"benchmark: {bench.name} (given)"
    if leader:
        bench = BENCHMARKS[leader]
        dims = ", ".join(d.key for d in bench.dimensions if d.key in matched[leader])
        return bench, f"benchmark: {bench.name} (field values match its taxonomy: {dims})"
    raise InputError(source, "cannot tell which benchmark this file is for", fix="benchmark")


def _named(name: str, source: str) -> Benchmark:
    try:
        return BENCHMARKS[name.lower()]
    except KeyError:
        raise InputError(source, f"unknown benchmark {name!r}; choose one of {', '.join(BENCHMARKS)}") from None


def detect_mode(
    bench: Benchmark, rows: Sequence[dict[str, Any]], path: str | Path, given: str | None
) -> tuple[str, str | None]:
    """The mode and a note saying why (None when the benchmark has a single mode and nothing was decided)."""
    source = str(path)
    if given is not None:
        try:
            return bench.mode(given).key, f"mode: {given} (given)"
        except KeyError as error:
            raise InputError(source, str(error).strip("\"'")) from None
    if len(bench.modes) == 1:
        return bench.modes[0].key, None
    for decide in (_mode_by_option_count, _mode_by_file_name, _mode_by_grouped_ids):
        found = decide(bench, rows, Path(path))
        if found:
            return found
    first = bench.modes[0]
    return first.key, f"mode: {first.key} (assumed: no options, file name or ids tell otherwise)"


def _mode_by_option_count(bench: Benchmark, rows: Sequence[dict[str, Any]], path: Path) -> tuple[str, str] | None:
    counts = Counter(len(parse_options(r.get("options"))) for r in rows[:_SAMPLE] if r.get("options") is not None)
    counts.pop(0, None)
    if not counts:
        return None
    count = counts.most_common(1)[0][0]
    for mode in bench.modes:
        if len(bench.letters(mode.key)) == count:
            return mode.key, f"mode: {mode.key} ({count} options per question)"
    return None


def _mode_by_file_name(bench: Benchmark, rows: Sequence[dict[str, Any]], path: Path) -> tuple[str, str] | None:
    words = set(re.split(r"[^a-z0-9]+", path.name.lower()))
    named = [mode for mode in bench.modes if mode.key in words]
    if len(named) == 1:
        return named[0].key, f"mode: {named[0].key} (file name {path.name})"
    return None


def _mode_by_grouped_ids(bench: Benchmark, rows: Sequence[dict[str, Any]], path: Path) -> tuple[str, str] | None:
    """Ids written `<base>_<k>` with answers inside a grouped mode's letters mean that grouped mode."""
    sample = rows[:_SAMPLE]
    ids = [bench.record_id(r) for r in sample]
    answers = {text(r.get("answer")).upper() for r in sample} - {""}
    for mode in bench.modes:
        if not mode.grouped or not ids or not answers <= set(bench.letters(mode.key)):
            continue
        groups = [bench.group_id(i, mode.key) for i in ids]
        if all(g != i for g, i in zip(groups, ids, strict=True)) and len(set(groups)) < len(ids):
            return mode.key, f"mode: {mode.key} (ids written <question>_<k>, answers only {'/'.join(sorted(answers))})"
    return None
