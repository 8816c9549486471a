"""Result-file readers: every layout and lmms-eval generation, detection notes, annotation joins, bad input."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from helpers.jsonl import write_jsonl
from helpers.lmms_logs import RESPONSES, lmms_generation

from mathreel.core.errors import InputError
from mathreel.core.results import read_results

DATA = Path(__file__).parent / "data" / "results"


def test_videomme_template_with_trailing_commas():
    result = read_results(DATA / "videomme_template.json")
    assert (result.benchmark, result.mode) == ("videomme", "mcq")
    assert len(result.predictions) == 9
    assert "json+trailing-commas" in result.notes[0]
    assert any("benchmark: videomme" in n and "domain" in n for n in result.notes)
    second = result.predictions[1]
    assert second.response == "D."
    assert second.question.answer == "A"
    assert second.question.video_id == "001"
    assert second.question.dims == {
        "duration": "short",
        "domain": "Knowledge",
        "sub_category": "Humanity & History",
        "task_type": "Information Synopsis",
    }
    assert second.record == "video 001, question 001-2"


@pytest.mark.parametrize("generation", [1, 2, 3])
def test_each_lmms_eval_generation(tmp_path, generation):
    result = read_results(write_jsonl(tmp_path / "samples_videomme.jsonl", lmms_generation(generation)))
    assert result.benchmark == "videomme"
    assert "lmms-eval log_samples" in result.format
    assert any("metric key videomme_perception_score" in n for n in result.notes)
    assert [p.response for p in result.predictions] == RESPONSES
    q = result.predictions[1].question
    assert (q.question_id, q.answer, q.video_id) == ("q002", "C", "vid_002")
    assert q.dims == {
        "duration": "medium",
        "domain": "Knowledge",
        "sub_category": "Geography",
        "task_type": "Information Synopsis",
    }
    assert result.predictions[0].record == "line 1"
    assert (len(q.options) == 4) == (generation == 1)


def test_lmms_generations_are_told_apart(tmp_path):
    formats = {read_results(write_jsonl(tmp_path / f"g{g}.jsonl", lmms_generation(g))).format for g in (1, 2, 3)}
    assert len(formats) == 3


def test_lmms_resps_only_when_filtered_missing(tmp_path):
    records = lmms_generation(3)
    records[0].pop("filtered_resps")
    records[0]["resps"] = [["B"]]
    result = read_results(write_jsonl(tmp_path / "s.jsonl", records))
    assert result.predictions[0].response == "B"


def test_videomathqa_metric_dict_multibinary_detected_from_ids(tmp_path):
    rows = [("q001_1", "A"), ("q001_2", "B"), ("q002_1", "B"), ("q002_2", "A")]
    records = [
        {
            "doc_id": i,
            "filtered_resps": ["A"],
            "videomathqa_perception_score": {
                "question_id": qid,
                "duration": "short",
                "category": "Counting",
                "pred_answer": "A",
                "answer": ans,
            },
        }
        for i, (qid, ans) in enumerate(rows)
    ]
    result = read_results(write_jsonl(tmp_path / "samples.jsonl", records))
    assert (result.benchmark, result.mode) == ("videomathqa", "mbin")
    assert any("ids written" in n for n in result.notes)
    assert [p.question.group_id for p in result.predictions] == ["q001", "q001", "q002", "q002"]


def test_two_options_mean_multibinary(tmp_path):
    records = [
        {
            "question_id": f"q{i}",
            "category": "Puzzle",
            "length": "long",
            "options": ["A. yes", "B. no"],
            "answer": "A",
            "response": "A",
        }
        for i in range(3)
    ]
    result = read_results(write_jsonl(tmp_path / "plain.jsonl", records))
    assert result.mode == "mbin"
    assert "mode: mbin (2 options per question)" in result.notes


def test_given_mode_must_exist(tmp_path):
    with pytest.raises(InputError, match="has no mode 'xyz'"):
        read_results(DATA / "seed000_mcq.jsonl", mode="xyz")


def test_mathverse_official_output():
    result = read_results(DATA / "mathverse_output.json")
    assert (result.benchmark, result.mode) == ("mathverse", "default")
    assert result.format == "MathVerse official output (model_answer)"
    first, vision_only, free = result.predictions[:3]
    assert first.question.options == ("A. 40°", "B. 60°", "C. 120°", "D. 140°")
    assert first.question.dims["subject"] == "Plane Geometry"
    assert vision_only.question.options == ()
    assert free.question.answer_kind == "free"
    assert free.question.cluster == "685"
    assert "boxed{14}" in free.response


def test_csv_with_answers_and_dimensions(tmp_path):
    path = tmp_path / "preds.csv"
    path.write_text(
        "question_id,response,answer,duration,domain,sub_category,task_type,videoID\n"
        '001-1,"C. Berries.",C,short,Knowledge,Law,Counting Problem,v1\n'
        "001-2,D,A,short,Knowledge,Law,OCR Problems,v1\n",
        encoding="utf-8",
    )
    result = read_results(path)
    assert result.benchmark == "videomme"
    assert [p.response for p in result.predictions] == ["C. Berries.", "D"]
    assert result.predictions[1].record == "line 3"
    assert result.predictions[1].question.dims["task_type"] == "OCR Problems"


def _annotations(tmp_path: Path) -> Path:
    rows = [
        {
            "question_id": f"{v:03d}-{k}",
            "videoID": f"vid{v}",
            "duration": "short",
            "domain": "Knowledge",
            "sub_category": "Law",
            "task_type": "OCR Problems",
            "options": ["A. a", "B. b", "C. c", "D. d"],
            "answer": "ABCD"[(v + k) % 4],
        }
        for v in range(1, 4)
        for k in range(1, 4)
    ]
    return write_jsonl(tmp_path / "videomme_test.jsonl", rows)


def test_id_only_file_joined_to_annotations_with_missing_and_unknown(tmp_path):
    annotations = _annotations(tmp_path)
    preds = [
        {"question_id": "001-1", "response": "C"},
        {"question_id": "001-2", "response": "D"},
        {"question_id": "999-9", "response": "A"},
    ]
    result = read_results(write_jsonl(tmp_path / "ids.jsonl", preds), annotations=annotations)
    assert result.benchmark == "videomme"
    assert any("in the annotations" in n for n in result.notes)
    assert [p.question.answer for p in result.predictions] == ["C", "D"]
    assert result.unknown_ids == ["999-9"]
    assert (
        sorted(q.question_id for q in result.missing) == [f"{v:03d}-{k}" for v in range(1, 4) for k in range(1, 4)][2:]
    )
    assert any("not in the annotations" in w for w in result.warnings)


def test_annotations_as_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [json.loads(line) for line in _annotations(tmp_path).read_text().splitlines()]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "test.parquet")
    preds = write_jsonl(tmp_path / "p.jsonl", [{"question_id": "002-1", "response": "D"}])
    result = read_results(preds, annotations=tmp_path / "test.parquet")
    assert result.predictions[0].question.answer == "D"
    assert result.predictions[0].question.options == ("A. a", "B. b", "C. c", "D. d")
    assert len(result.missing) == 8


def test_duplicate_ids_warn_and_first_counts(tmp_path):
    records = [
        {"question_id": "q1", "category": "Chart", "duration": "short", "answer": "A", "response": r}
        for r in ("A", "B")
    ]
    result = read_results(write_jsonl(tmp_path / "d.jsonl", records))
    assert [p.response for p in result.predictions] == ["A"]
    assert result.warnings[0] == "1 duplicate question ids; the first occurrence is scored: q1 (again at line 2)"


def test_id_only_file_without_annotations_is_refused(tmp_path):
    path = write_jsonl(tmp_path / "ids.jsonl", [{"question_id": "001-1", "response": "C"}])
    with pytest.raises(InputError, match="cannot tell which benchmark") as caught:
        read_results(path)
    assert caught.value.fix == "benchmark" and "--" not in str(caught.value)  # neutral: each surface words the fix
    with pytest.raises(InputError, match="no gold answer") as caught:
        read_results(path, benchmark="videomme")
    assert caught.value.fix == "annotations" and "--" not in str(caught.value)


def test_file_of_another_benchmark_is_refused(tmp_path):
    with pytest.raises(InputError, match="looks like a Video-MME file"):
        read_results(DATA / "videomme_template.json", benchmark="videomathqa")
    path = write_jsonl(tmp_path / "s.jsonl", lmms_generation(2))
    with pytest.raises(InputError, match="metric key videomme_perception_score"):
        read_results(path, benchmark="mathverse")


# -- --annotations DIR: a data directory joined through core.data.load_dataset ----------------------------------

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
MODEL_B_MCQ = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"


@pytest.mark.parametrize("directory", [DEMO / "videomathqa", DEMO])
def test_a_data_directory_is_joined_through_load_dataset(directory):
    from mathreel.core.data import load_dataset

    result = read_results(MODEL_B_MCQ, annotations=directory)
    dataset = load_dataset("videomathqa", "mcq", data_dir=directory)
    assert result.annotations == str(directory)
    assert any(n.startswith("annotations: 12 of 12 questions joined") for n in result.notes)
    # The file's newer layout has no options; the joined questions carry the dataset's.
    assert [p.question for p in result.predictions] == list(dataset.questions)
    assert all(len(p.question.options) == 5 for p in result.predictions)
    assert result.missing == [] and result.unknown_ids == []


def test_an_id_only_file_learns_its_benchmark_from_the_directory(tmp_path):
    preds = write_jsonl(tmp_path / "ids.jsonl", [{"question_id": "q003", "response": "C"}])
    result = read_results(preds, annotations=DEMO / "videomathqa")
    assert result.benchmark == "videomathqa"
    assert "benchmark: videomathqa (the annotations directory holds its files)" in result.notes
    assert len(result.predictions) == 1 and len(result.missing) == 11
    with pytest.raises(InputError, match="holds videomathqa, videomme, videomme-v2, mathverse"):
        read_results(preds, annotations=DEMO)  # a parent of all three: the file must say which


def test_nothing_joined_is_said_in_notes_and_warnings(tmp_path):
    preds = write_jsonl(tmp_path / "ids.jsonl", [{"question_id": "zz1", "response": "C"}])
    result = read_results(preds, benchmark="videomathqa", mode="mcq", annotations=DEMO)
    assert result.predictions == [] and result.unknown_ids == ["zz1"]
    assert any(n.startswith("nothing was joined") for n in result.notes)
    assert any(w.startswith("nothing was joined") for w in result.warnings)


def test_a_directory_without_the_benchmark_is_refused(tmp_path):
    preds = write_jsonl(tmp_path / "ids.jsonl", [{"question_id": "q1", "response": "C"}])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no VideoMathQA data found"):
        read_results(preds, benchmark="videomathqa", annotations=tmp_path / "empty")


def test_shared_multibinary_ids_join_in_order_without_renaming_the_cached_dataset(tmp_path):
    """Pairs that share one id pair up with the dataset's rows by occurrence; core.data's cached questions keep
    their own id (the join renames copies)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mathreel.core.data import load_dataset

    root = tmp_path / "vmqa"
    root.mkdir()
    rows = [
        {
            "question_id": qid,
            "videoID": "v1",
            "category": "Counting",
            "length": "short",
            "question": f"{qid}?",
            "options": ["A. yes", "B. no"],
            "answer": answer,
        }
        for qid, answer in (("q1", "A"), ("q1", "B"), ("q2", "B"), ("q2", "B"))
    ]
    pq.write_table(pa.Table.from_pylist(rows), root / "videomathqa_mbin_test.parquet")
    preds = write_jsonl(
        tmp_path / "ids.jsonl",
        [{"question_id": q, "response": r} for q, r in (("q1", "A"), ("q1", "B"), ("q2", "B"), ("q2", "A"))],
    )
    result = read_results(preds, benchmark="videomathqa", mode="mbin", annotations=root)
    assert [p.question.question_id for p in result.predictions] == ["q1", "q1#2", "q2", "q2#2"]
    assert [p.question.answer for p in result.predictions] == ["A", "B", "B", "B"]
    assert [p.question.group_id for p in result.predictions] == ["q1", "q1", "q2", "q2"]
    cached = load_dataset("videomathqa", "mbin", data_dir=root)
    assert [q.question_id for q in cached.questions] == ["q1", "q1", "q2", "q2"]


def test_deeply_nested_json_is_refused_in_one_line(tmp_path):
    path = tmp_path / "nested.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        read_results(path)


def test_id_fields_come_from_the_benchmarks(tmp_path):
    from mathreel.core.results.layouts import ID_KEYS

    assert ID_KEYS[:2] == ("question_id", "id") and {"sample_index", "problem_id"} <= set(ID_KEYS)
    path = write_jsonl(tmp_path / "p.jsonl", [{"question_id": "", "response": "C", "answer": "C"}])
    with pytest.raises(InputError, match="no question id \\(expected one of question_id, id\\)"):
        read_results(path, benchmark="videomme")


UTF16_TEXT = '{"question_id": "001-1", "answer": "A", "response": "答案是 A"}\n'


@pytest.mark.parametrize(
    "content",
    [
        codecs.BOM_UTF16_LE + UTF16_TEXT.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + UTF16_TEXT.encode("utf-16-be"),
        UTF16_TEXT.encode("utf-16-le"),
        "question_id,response\n001-1,The answer is A\n".encode("utf-16-be"),
    ],
    ids=["le-bom", "be-bom", "le-no-bom", "be-no-bom-csv"],
)
def test_utf16_is_named_as_such(tmp_path, content):
    path = tmp_path / "utf16.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match=r"utf16\.jsonl: UTF-16 text: save it as UTF-8$"):
        read_results(path)


@pytest.mark.parametrize(
    "content",
    [
        b"question_id,response\n001-1,The answer\x00 is A\n",  # one stray NUL: not the UTF-16 pattern
        bytes(range(256)) * 4,
    ],
    ids=["stray-nul", "byte-ramp"],
)
def test_binary_is_still_binary(tmp_path, content):
    path = tmp_path / "data.csv"
    path.write_bytes(content)
    with pytest.raises(InputError, match="binary data"):
        read_results(path)


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (b"42", "a number"),
        (b" -1.5e3\n", "a number"),
        (b'"The answer is A"', "a string"),
        (b"true", "a boolean"),
        (b"null", "null"),
    ],
)
def test_a_json_scalar_says_what_it_holds(tmp_path, content, kind):
    path = tmp_path / "scalar.json"
    path.write_bytes(content)
    with pytest.raises(
        InputError,
        match=rf"scalar\.json: JSON holding {kind}, expected a list of records or an "
        "object$",
    ):
        read_results(path)
