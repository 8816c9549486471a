"""The closed sets of names scoring passes around, declared once as `Literal` types with their runtime tuples.

A status or a denominator policy is one of a few words; a typo in one is a type error here instead of a silently
empty table. The tuples are read from the types, so the two never drift apart. Extractor names are the one open
set: each benchmark declares the reproductions it offers, so `core.benchmarks.extractor_names()` lists them.
"""

from __future__ import annotations

from typing import Literal, get_args

# What became of one answer: its extracted answer matched the gold, did not, could not be read, or was absent.
Status = Literal["correct", "wrong", "unparsed", "missing"]
STATUSES: tuple[Status, ...] = get_args(Status)

# Which extractor reads choice answers: "robust", or a pinned reproduction of a reference scorer (each benchmark
# says which it offers in `Benchmark.reproductions`; `core.benchmarks.extractor_names` lists them).
ExtractorName = str

# Which questions an accuracy divides by.
Denominator = Literal["all", "answered"]
DENOMINATORS: dict[Denominator, str] = {
    "all": "all questions: unparsed and missing answers count as wrong",
    "answered": "answered questions only: unparsed and missing answers are dropped",
}

# The version of `mathreel score --json` (its shape: `core.scoring.json_types`). Raise it when a key is renamed,
# removed or changes meaning (adding one is not). Kept here, not beside the TypedDicts, so that writing a report
# does not build them: they are for the type checker and the schema generator.
SCHEMA_VERSION: Literal[1] = 1
