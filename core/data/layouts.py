"""How core.data finds a benchmark's files: each benchmark module declares its own `layout` (a
`core.benchmarks.base.DataLayout`: annotation patterns per mode, video, subtitle and image folders), and the loader
reads that declaration. The loader never branches on a benchmark's name, and no benchmark fact lives here.
"""

from __future__ import annotations

from mathreel.core.benchmarks.base import Benchmark, DataLayout

Layout = DataLayout  # the name core.data has always used


def layout_for(benchmark: Benchmark) -> DataLayout:
    """The layout a benchmark declares; a benchmark without one has no dataset on disk (a programming error)."""
    layout = benchmark.layout
    if not isinstance(layout, DataLayout):
        raise TypeError(f"benchmark {benchmark.name!r} declares no DataLayout `layout`")
    return layout
