"""Benchmark facts declared on `Benchmark` (error categories, primary dimension, Browse fields, published
results) and the extractor registry every reproduction resolves through."""

from __future__ import annotations

import json

import pytest

from mathreel.core.benchmarks import BENCHMARKS, get_benchmark
from mathreel.core.errors import InputError
from mathreel.core.extract.reference import reference_extractor
from mathreel.core.reference import load_reference


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_every_reproduction_names_a_registered_extractor(name):
    bench = get_benchmark(name)
    scorers = [*bench.reproductions.values(), *([bench.official_scorer] if bench.official_scorer else [])]
    for scorer in scorers:
        extract, letter = reference_extractor(scorer.extractor)
        assert extract("The answer is B.", ("A", "B", "C", "D")).answer == letter(
            "The answer is B.", ("A", "B", "C", "D")
        )


def test_an_unknown_extractor_name_lists_the_registered_ones():
    with pytest.raises(KeyError, match="extract_choice_official"):
        reference_extractor("extract_nothing")


def test_declared_facts():
    vmqa, vmme, mathverse = (get_benchmark(n) for n in ("videomathqa", "videomme", "mathverse"))
    assert vmqa.primary == "category" and vmme.primary == "duration" and mathverse.primary == "problem_version"
    assert len(vmqa.error_categories) >= 5
    assert set(vmqa.error_category_definitions) == set(vmqa.error_categories)
    assert vmme.error_categories == () and dict(vmme.error_category_definitions) == {}
    assert mathverse.browse_fields == ("problem_index",)


def test_published_results_load_in_core_for_videomathqa_only():
    reference = get_benchmark("videomathqa").reference_results()
    assert reference is not None and reference.benchmark == "videomathqa" and reference.rows
    assert set(reference.dimensions.values()) <= {d.key for d in get_benchmark("videomathqa").dimensions}
    assert get_benchmark("videomme").reference_results() is None


def test_a_broken_reference_file_is_one_input_error(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps({"benchmark": "x"}), encoding="utf-8")
    with pytest.raises(InputError, match="needs the fields"):
        load_reference("bad.json", tmp_path)
    (tmp_path / "deep.json").write_text("[" * 100000, encoding="utf-8")
    with pytest.raises(InputError, match="not a readable JSON"):
        load_reference("deep.json", tmp_path)
