"""The benchmark registry: one small definition per benchmark, looked up by name."""

from __future__ import annotations

from mathreel.core.benchmarks.base import Benchmark, Dimension, Mode
from mathreel.core.benchmarks.mathverse import MATHVERSE
from mathreel.core.benchmarks.videomathqa import VIDEOMATHQA
from mathreel.core.benchmarks.videomme import VIDEOMME
from mathreel.core.benchmarks.videomme_v2 import VIDEOMME_V2

BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in (VIDEOMATHQA, VIDEOMME, VIDEOMME_V2, MATHVERSE)}


def get_benchmark(name: str) -> Benchmark:
    """The benchmark called `name`, with a message listing the valid names otherwise."""
    try:
        return BENCHMARKS[name.lower()]
    except KeyError:
        raise KeyError(f"unknown benchmark {name!r}; choose one of {', '.join(BENCHMARKS)}") from None


def extractor_names(benchmark: str | None = None) -> tuple[str, ...]:
    """ "robust" and every pinned reproduction any benchmark offers (`Benchmark.reproductions`), each once; with
    `benchmark`, only the ones that benchmark offers."""
    benches = BENCHMARKS.values() if benchmark is None else [get_benchmark(benchmark)]
    return tuple(dict.fromkeys(["robust", *(name for bench in benches for name in bench.reproductions)]))


__all__ = ["BENCHMARKS", "Benchmark", "Dimension", "Mode", "extractor_names", "get_benchmark"]
