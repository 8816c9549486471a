"""The benchmark registry and each benchmark's reading of its own records."""

import pytest

from core.benchmarks import BENCHMARKS, get_benchmark
from core.benchmarks.mathverse import parse_choices


def test_registry_names_each_benchmark_once():
    assert sorted(BENCHMARKS) == ["mathverse", "videomathqa", "videomme"]
    with pytest.raises(KeyError, match="choose one of"):
        get_benchmark("mmmu")


def test_videomathqa_record_uses_length_as_duration_and_parses_steps():
    bench = get_benchmark("videomathqa")
    q = bench.question_from_record(
        {
            "videoID": "v1",
            "question_id": "q001",
            "category": "Geometry Angle",
            "question": "What is the angle?",
            "options": ["A. 30", "B. 45", "C. 60", "D. 90", "E. 120"],
            "answer": "b",
            "length": "Short",
            "steps": "1. Read the diagram.\n2. Add the angles.",
        },
        "mcq",
    )
    assert q.dims == {"category": "Geometry Angle", "duration": "short"}
    assert q.answer == "B"
    assert q.letters == ("A", "B", "C", "D", "E")
    assert q.option_texts["C"] == "60"
    assert q.steps == ("Read the diagram.", "Add the angles.")
    assert q.cluster == "v1"


@pytest.mark.parametrize(
    ("question_id", "group"),
    [("q001_1", "q001"), ("q001_12", "q001"), ("q001", "q001"), ("abc_def", "abc_def")],
)
def test_videomathqa_multibinary_groups_by_base_id(question_id, group):
    bench = get_benchmark("videomathqa")
    assert bench.group_id(question_id, "mbin") == group
    assert bench.group_id(question_id, "mcq") == question_id


def test_videomme_reads_metric_dict_aliases():
    q = get_benchmark("videomme").question_from_record(
        {"question_id": "001-1", "duration": "short", "category": "Knowledge", "task_category": "OCR Problems",
         "sub_category": "Law", "answer": "C", "videoID": "vid1"},
        "mcq",
    )
    assert q.dims == {"duration": "short", "domain": "Knowledge", "sub_category": "Law", "task_type": "OCR Problems"}


def test_mathverse_choices_and_all_excludes_text_only():
    bench = get_benchmark("mathverse")
    text = "In triangle ABC ... then the size of angle CED is ()\nChoices:\nA:40°\nB:60°\nC:120°\nD:140°"
    assert parse_choices(text) == ("A. 40°", "B. 60°", "C. 120°", "D. 140°")
    q = bench.question_from_record(
        {"sample_index": "1", "problem_index": "1", "problem_version": "Text Only", "question": "",
         "question_for_eval": text, "answer": "D", "question_type": "multi-choice",
         "metadata": {"subject": "Plane Geometry", "subfield": "Angle"}},
        "default",
    )
    assert q.options[3] == "D. 140°" and q.answer_kind == "choice"
    assert not bench.in_overall(q)
    assert q.dims["subject"] == "Plane Geometry"


def test_unknown_label_gets_its_own_row_in_order():
    dim = get_benchmark("videomme").dimension("duration")
    assert dim.order({"long", "short", "ultra"}) == ["short", "long", "ultra"]
