"""Counts into cells: accuracy with its Wilson interval, the overall figure with naive and clustered standard
errors, and the breakdown and cross tables, from plain counts (the row scorer, `core.scoring.scorer`, and the
columnar one, `core.scoring.columnar`, count their units and hand the counts here)."""

from __future__ import annotations

from collections import Counter
from itertools import compress

from mathreel.core.benchmarks import Benchmark
from mathreel.core.scoring.report import Cell, Interval, Overall, cross_key
from mathreel.core.scoring.stats import binary_se, clustered_binary_se, wilson_interval


def cell(n: int, correct: int) -> Cell:
    """A Cell from counts: accuracy in percent with its Wilson interval."""
    return Cell(n, correct, 100 * correct / n if n else None, Interval.of(wilson_interval(correct, n)))


def overall_of(clusters: list[str], right: list[bool], clustered_by: str = "video") -> Overall:
    """The headline cell of units given as their clusters and whether each is right (in unit order), with the naive
    and the clustered standard errors, from counts per cluster."""
    sizes = Counter(clusters)
    rights = Counter(compress(clusters, right))
    n, correct = len(clusters), rights.total()
    return Overall(
        n,
        correct,
        100 * correct / n if n else None,
        Interval.of(wilson_interval(correct, n)),
        se=binary_se(correct, n),
        clustered_se=clustered_binary_se([(size, rights[cluster]) for cluster, size in sizes.items()]),
        clusters=len(sizes),
        clustered_by=clustered_by,
    )


def tables_of(
    bench: Benchmark, combos: Counter[tuple[tuple[str | None, ...], bool]]
) -> tuple[dict[str, dict[str, Cell]], dict[str, dict[str, dict[str, Cell]]]]:
    """`_tables` from the units counted per (values of the benchmark's dimensions in order, correct)."""
    keys = [d.key for d in bench.dimensions]
    position = {key: i for i, key in enumerate(keys)}
    by_tallies: dict[str, dict[str, list[int]]] = {key: {} for key in keys}
    for (values, correct), count in combos.items():
        for key, value in zip(keys, values, strict=True):
            if value is not None:
                _add(by_tallies[key], value, count, correct)
    by = {key: _cells(bench, key, tallies) for key, tallies in by_tallies.items() if tallies}
    cross = {}
    for row_dim, col_dim in bench.cross_dimensions:
        if row_dim not in by or col_dim not in by:
            continue
        r, c = position[row_dim], position[col_dim]
        rows: dict[str, dict[str, list[int]]] = {}
        for (values, correct), count in combos.items():
            row_value, col_value = values[r], values[c]
            if row_value is not None:
                row = rows.setdefault(row_value, {})
                if col_value is not None:
                    _add(row, col_value, count, correct)
        order = bench.dimension(row_dim).order(set(rows))
        cross[cross_key(row_dim, col_dim)] = {value: _cells(bench, col_dim, rows[value]) for value in order}
    return by, cross


def _add(tallies: dict[str, list[int]], value: str, count: int, correct: bool) -> None:
    tally = tallies.get(value)
    if tally is None:
        tally = tallies[value] = [0, 0]
    tally[0] += count
    tally[1] += count if correct else 0


def _cells(bench: Benchmark, dimension: str, tallies: dict[str, list[int]]) -> dict[str, Cell]:
    """Cells in the benchmark's display order for the dimension (unknown values after the known ones)."""
    return {value: cell(*tallies[value]) for value in bench.dimension(dimension).order(set(tallies))}
