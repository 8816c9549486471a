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
    # Right and wrong of one combination first made one tally (n, correct): every pass below is over half as many.
    totals: dict[tuple[str | None, ...], list[int]] = {}
    for (values, correct), count in combos.items():
        tally = totals.get(values)
        if tally is None:
            tally = totals[values] = [0, 0]
        tally[0] += count
        if correct:
            tally[1] += count
    pairs = list(totals.items())
    by_tallies: dict[str, dict[str, list[int]]] = {}
    for i, key in enumerate(keys):
        tallies: dict[str, list[int]] = {}
        for values, (n, right) in pairs:
            value = values[i]
            if value is not None:
                _add(tallies, value, n, right)
        by_tallies[key] = tallies
    by = {key: _cells(bench, key, tallies) for key, tallies in by_tallies.items() if tallies}
    cross = {}
    for row_dim, col_dim in bench.cross_dimensions:
        if row_dim not in by or col_dim not in by:
            continue
        r, c = position[row_dim], position[col_dim]
        rows: dict[str, dict[str, list[int]]] = {}
        for values, (n, right) in pairs:
            row_value, col_value = values[r], values[c]
            if row_value is not None:
                row = rows.get(row_value)
                if row is None:
                    row = rows[row_value] = {}
                if col_value is not None:
                    _add(row, col_value, n, right)
        order = bench.dimension(row_dim).order(set(rows))
        cross[cross_key(row_dim, col_dim)] = {value: _cells(bench, col_dim, rows[value]) for value in order}
    return by, cross


def _add(tallies: dict[str, list[int]], value: str, n: int, right: int) -> None:
    tally = tallies.get(value)
    if tally is None:
        tallies[value] = [n, right]
    else:
        tally[0] += n
        tally[1] += right


def _cells(bench: Benchmark, dimension: str, tallies: dict[str, list[int]]) -> dict[str, Cell]:
    """Cells in the benchmark's display order for the dimension (unknown values after the known ones)."""
    return {value: cell(*tallies[value]) for value in bench.dimension(dimension).order(set(tallies))}
