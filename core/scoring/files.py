"""Read and score one result file: what `mathreel score` does per file, as one call with plain arguments.

Plain arguments (not a web-app options object) so the web app can run it in a child process that imports only
core: unpickling anything defined in webapp/ would make every child import gradio, which costs seconds.
"""

from __future__ import annotations

from mathreel.core.scoring.report import Report


def score_file(path: str, benchmark_key: str = "", extractor: str = "robust", denominator: str | None = None,
               annotations: str | None = None) -> Report:
    """Read `path` (benchmark and mode detected unless `benchmark_key` is "benchmark:mode") and score it."""
    from mathreel.core.results import read_results
    from mathreel.core.scoring.scorer import score

    benchmark, _, mode = benchmark_key.partition(":")
    result = read_results(path, benchmark=benchmark or None, mode=mode or None, annotations=annotations)
    return score(result, extractor=extractor, denominator=denominator or None)
