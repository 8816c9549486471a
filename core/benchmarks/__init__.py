"""The benchmark registry: one small definition per benchmark, looked up by name."""

from __future__ import annotations

from mathreel.core.benchmarks.base import Benchmark, Dimension, Mode
from mathreel.core.benchmarks.mathverse import MATHVERSE
from mathreel.core.benchmarks.videomathqa import VIDEOMATHQA
from mathreel.core.benchmarks.videomme import VIDEOMME

BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in (VIDEOMATHQA, VIDEOMME, MATHVERSE)}


def get_benchmark(name: str) -> Benchmark:
    """The benchmark called `name`, with a message listing the valid names otherwise."""
    try:
        return BENCHMARKS[name.lower()]
    except KeyError:
        raise KeyError(f"unknown benchmark {name!r}; choose one of {', '.join(BENCHMARKS)}") from None


__all__ = ["BENCHMARKS", "Benchmark", "Dimension", "Mode", "get_benchmark"]
