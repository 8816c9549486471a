"""The benchmark registry and each benchmark's reading of its own records."""

import pytest

from mathreel.core.benchmarks import BENCHMARKS, get_benchmark
from mathreel.core.benchmarks.mathverse import parse_choices


def test_registry_names_each_benchmark_once():
    assert sorted(BENCHMARKS) == ["mathverse", "videomathqa", "videomme", "videomme-v2"]
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
        {
            "question_id": "001-1",
            "duration": "short",
            "category": "Knowledge",
            "task_category": "OCR Problems",
            "sub_category": "Law",
            "answer": "C",
            "videoID": "vid1",
        },
        "mcq",
    )
    assert q.dims == {"duration": "short", "domain": "Knowledge", "sub_category": "Law", "task_type": "OCR Problems"}


def test_mathverse_choices_and_all_excludes_text_only():
    bench = get_benchmark("mathverse")
    text = "In triangle ABC ... then the size of angle CED is ()\nChoices:\nA:40°\nB:60°\nC:120°\nD:140°"
    assert parse_choices(text) == ("A. 40°", "B. 60°", "C. 120°", "D. 140°")
    q = bench.question_from_record(
        {
            "sample_index": "1",
            "problem_index": "1",
            "problem_version": "Text Only",
            "question": "",
            "question_for_eval": text,
            "answer": "D",
            "question_type": "multi-choice",
            "metadata": {"subject": "Plane Geometry", "subfield": "Angle"},
        },
        "default",
    )
    assert q.options[3] == "D. 140°" and q.answer_kind == "choice"
    assert not bench.in_overall(q)
    assert q.dims["subject"] == "Plane Geometry"


def test_unknown_label_gets_its_own_row_in_order():
    dim = get_benchmark("videomme").dimension("duration")
    assert dim.order({"long", "short", "ultra"}) == ["short", "long", "ultra"]


# -- facts each benchmark declares (read by core.data, core.results and core.scoring) ---------------------------


@pytest.mark.parametrize(
    ("name", "mode", "first_pattern", "media"),
    [
        ("videomathqa", "mbin", "videomathqa_mbin_test.parquet", "videos"),
        ("videomme", "mcq", "videomme/test-*.parquet", "data"),
        ("mathverse", "default", "testmini*.json", None),
    ],
)
def test_each_benchmark_declares_its_data_layout(name, mode, first_pattern, media):
    from mathreel.core.data import layout_for

    bench = get_benchmark(name)
    assert layout_for(bench) is bench.layout
    assert bench.layout.subdir == name
    assert bench.layout.annotations[mode][0] == first_pattern
    assert set(bench.layout.annotations) == {m.key for m in bench.modes}
    assert bench.layout.has_video == (media is not None)
    assert bench.layout.video_dirs == ((media,) if media else ())


def test_a_benchmark_without_a_layout_is_refused():
    from mathreel.core.benchmarks.base import Benchmark
    from mathreel.core.data import layout_for

    with pytest.raises(TypeError, match="declares no DataLayout"):
        layout_for(Benchmark())


def test_official_scorers_name_real_extractors():
    import mathreel.core.extract
    from mathreel.core.scoring.verdict import official_tool

    assert get_benchmark("mathverse").official_scorer is None
    assert official_tool(get_benchmark("videomme")).extract is mathreel.core.extract.extract_choice_official
    assert official_tool(get_benchmark("videomme")).denominator == "answered"
    assert official_tool(get_benchmark("videomathqa")).extract is mathreel.core.extract.extract_choice_lmms
    assert official_tool(get_benchmark("videomathqa")).denominator == "all"


@pytest.mark.parametrize(
    ("name", "record", "expected"),
    [
        ("videomme", {"id": "", "question_id": " 001-2 "}, "001-2"),
        ("videomathqa", {"question_id": None, "id": 17}, "17"),
        ("mathverse", {"sample_index": 5, "problem_id": "9"}, "5"),
        ("mathverse", {"problem_id": "9"}, "9"),
        ("mathverse", {"model_answer": "A"}, ""),
    ],
)
def test_record_id_reads_the_benchmarks_id_fields(name, record, expected):
    bench = get_benchmark(name)
    assert bench.record_id(record) == expected
    if expected:
        assert bench.question_from_record(record, bench.modes[0].key).question_id == expected


@pytest.mark.parametrize(
    "category",
    [{"subject": "Solid Geometry", "subfield": "Volume"}, '{"subject": "Solid Geometry", "subfield": "Volume"}'],
)
def test_older_mathverse_output_with_problem_id_and_a_category_dict(category):
    """The older official output: `problem_id` for the id, subject/subfield in `category` (a dict, or JSON text in
    a CSV export), no `metadata`."""
    bench = get_benchmark("mathverse")
    q = bench.question_from_record(
        {
            "problem_id": "12",
            "problem_version": "Vision Only",
            "question_type": "free-form",
            "answer": "8",
            "question": "",
            "question_for_eval": "Find the volume.",
            "category": category,
            "model_answer": "8",
        },
        "default",
    )
    assert q.question_id == "12"
    assert q.dims == {
        "problem_version": "Vision Only",
        "question_type": "free-form",
        "subject": "Solid Geometry",
        "subfield": "Volume",
    }
    assert bench.full_question(q) == "Find the volume." and q.question == ""


def test_metadata_wins_over_category_and_a_string_category_is_no_taxonomy():
    bench = get_benchmark("mathverse")
    both = {
        "sample_index": "1",
        "metadata": {"subject": "Functions", "subfield": "Expression"},
        "category": {"subject": "Plane Geometry", "subfield": "Angle"},
    }
    assert bench.question_from_record(both, "default").dims["subject"] == "Functions"
    plain = bench.question_from_record({"sample_index": "1", "category": "Counting"}, "default")
    assert "subject" not in plain.dims


def test_mathverse_clusters_by_problem_and_video_benchmarks_by_video():
    mathverse = get_benchmark("mathverse").question_from_record(
        {"sample_index": "7", "problem_index": "3", "question_type": "free-form", "answer": "1"}, "default"
    )
    assert mathverse.cluster == "3" and mathverse.video_id is None
    no_problem = get_benchmark("mathverse").question_from_record({"sample_index": "8", "answer": "1"}, "default")
    assert no_problem.cluster == "8"
    video = get_benchmark("videomme").question_from_record({"question_id": "1-1", "videoID": "v9"}, "mcq")
    assert video.cluster == "v9"


def test_mathverse_versions_of_a_problem_in_benchmark_order():
    from mathreel.core.data import load_dataset

    dataset = load_dataset("mathverse")
    question = next(q for q in dataset.questions if q.dims["problem_version"] == "Vision Only")
    versions = get_benchmark("mathverse").versions_of(question, dataset.questions)
    assert [label for label, _ in versions] == [
        "Text Dominant",
        "Text Lite",
        "Vision Intensive",
        "Vision Dominant",
        "Vision Only",
    ]
    assert {q.extra["problem_index"] for _, q in versions} == {question.extra["problem_index"]}
    assert get_benchmark("videomme").versions_of(question, dataset.questions) == []


def test_headline_cross_is_one_of_the_reported_cross_tables():
    for bench in BENCHMARKS.values():
        assert bench.headline_cross is None or bench.headline_cross in bench.cross_dimensions
    assert get_benchmark("videomme").headline_cross == ("duration", "task_type")
