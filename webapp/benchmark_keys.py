"""The "benchmark:mode" keys (e.g. "videomme:mcq") every tab's benchmark dropdown and Browse's state use, the
dropdown's choices (one per benchmark mode core knows) and the extractors a key's benchmark offers."""

from __future__ import annotations


def benchmark_choices() -> list[tuple[str, str]]:
    """(label, "benchmark:mode") for every benchmark mode core knows, e.g. ("Video-MME", "videomme:mcq")."""
    from mathreel.core.benchmarks import BENCHMARKS

    choices = []
    for bench in BENCHMARKS.values():
        for mode in bench.modes:
            label = bench.title if len(bench.modes) == 1 else f"{bench.title} — {mode.label}"
            choices.append((label, f"{bench.name}:{mode.key}"))
    return choices


def extractor_choices(key: str) -> list[str]:
    """The answer extractors of the key's benchmark ("robust" and its pinned reproductions); every benchmark's when
    the key is empty (the benchmark is detected from the file)."""
    from mathreel.core.benchmarks import extractor_names

    benchmark, _ = split_key(key)
    return list(extractor_names(benchmark or None))


def split_key(key: str) -> tuple[str, str]:
    """ "videomathqa:mbin" -> ("videomathqa", "mbin")."""
    benchmark, _, mode = key.partition(":")
    return benchmark, mode
