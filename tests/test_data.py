"""Dataset loaders on tiny fixture datasets written in the real layouts (parquet, JSON, media folders)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers.datasets import (
    MCQ_OPTIONS,
    PNG_BYTES,
    closed_port,
    make_videomathqa,
    make_videomme,
    mathverse_record,
    videomme_record,
    vmqa_record,
    write_parquet,
)

from mathreel.core.data import demo_dir, inside, load_dataset
from mathreel.core.errors import InputError
from mathreel.core.view import pairs_of

# -- VideoMathQA ---------------------------------------------------------------------------------------------------


def test_videomathqa_mcq_with_list_columns_and_three_step_shapes(tmp_path):
    root = make_videomathqa(
        tmp_path,
        [
            vmqa_record("q1", "v1", steps=json.dumps(["Read the diagram.", "Add the angles."])),
            vmqa_record("q2", "v1", steps=str(["Read the diagram.", "Add the angles."]), category="Chart"),
            vmqa_record("q3", "v2", steps="1. Read the diagram.\n2) Add the angles.", length="Long"),
        ],
    )
    data = load_dataset("videomathqa", "mcq", root)
    assert [q.question_id for q in data.questions] == ["q1", "q2", "q3"]
    assert all(q.steps == ("Read the diagram.", "Add the angles.") for q in data.questions)
    assert data.questions[0].options == tuple(MCQ_OPTIONS)
    assert data.questions[2].dims == {"category": "Geometry Angle", "duration": "long"}
    assert data.source == str(root) and data.root == root and data.mode == "mcq"
    assert data.question("q2").dims["category"] == "Chart"


def test_json_string_options_column_reads_like_a_list(tmp_path):
    root = make_videomathqa(tmp_path, [vmqa_record("q1", "v1", options=json.dumps(MCQ_OPTIONS))])
    assert load_dataset("videomathqa", "mcq", root).questions[0].letters == ("A", "B", "C", "D", "E")


def test_multibinary_rows_sharing_an_id_get_pair_refs(tmp_path):
    pair = {"options": ["A. 45", "B. 60"]}
    mbin = [
        vmqa_record("q1", "v1", answer="A", **pair),
        vmqa_record("q1", "v1", answer="B", **pair),
        vmqa_record("q2_1", "v2", **pair),
        vmqa_record("q2_2", "v2", **pair),
    ]
    data = load_dataset("videomathqa", "mbin", make_videomathqa(tmp_path, [vmqa_record("m", "v1")], mbin))
    assert data.refs == ("q1#1", "q1#2", "q2_1", "q2_2")
    assert data.question("q1#2").answer == "B"
    assert data.question("q1") is data.questions[0]  # a shared id names its first pair
    assert data.question("q2") is data.questions[2]  # a group id, too
    assert [data.ref(q) for q in pairs_of(data, "q1")] == ["q1#1", "q1#2"]
    assert [data.ref(q) for q in pairs_of(data, "q2_2")] == ["q2_1", "q2_2"]


def test_video_extension_fallbacks_and_missing_subtitles(tmp_path):
    root = make_videomathqa(tmp_path, [vmqa_record("q1", "up"), vmqa_record("q2", "mk"), vmqa_record("q3", "gone")])
    (root / "videos" / "up.MP4").write_bytes(b"x")
    (root / "videos" / "mk.mkv").write_bytes(b"x")
    (root / "subtitles" / "up.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nhello\n")
    data = load_dataset("videomathqa", "mcq", root)
    q1, q2, q3 = data.questions
    assert data.video_path(q1) == root / "videos" / "up.MP4"
    assert data.video_path(q2) == root / "videos" / "mk.mkv"
    assert data.subtitle_path(q1) == root / "subtitles" / "up.srt"
    assert data.subtitle_path(q2) is None
    assert data.find_video(q3) is None
    with pytest.raises(InputError, match=r"video not found \(looked for .*gone\.mp4, .*gone\.MP4, .*gone\.mkv\)"):
        data.video_path(q3)


def test_parent_folder_holding_benchmark_subfolders(tmp_path):
    make_videomathqa(tmp_path / "videomathqa", [vmqa_record("q1", "v1")])
    make_videomme(tmp_path / "videomme", [videomme_record("001-1", "abc")])
    assert load_dataset("videomathqa", None, tmp_path).root == tmp_path / "videomathqa"
    mme = load_dataset("videomme", None, tmp_path)
    assert mme.root == tmp_path / "videomme" and mme.questions[0].question_id == "001-1"


def test_videomme_layout_media_folders(tmp_path):
    root = make_videomme(tmp_path, [videomme_record("001-1", "abc"), videomme_record("001-2", "abc")])
    (root / "data" / "abc.mp4").write_bytes(b"x")
    (root / "subtitle" / "abc.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nhi\n")
    data = load_dataset("videomme", data_dir=root)
    q = data.question("001-2")
    assert q.dims == {
        "duration": "short",
        "domain": "Knowledge",
        "sub_category": "Astronomy",
        "task_type": "Counting Problem",
    }
    assert data.video_path(q) == root / "data" / "abc.mp4"
    assert data.subtitle_path(q) == root / "subtitle" / "abc.srt"


# -- MathVerse -----------------------------------------------------------------------------------------------------


def test_mathverse_json_with_image_paths(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "image_1.png").write_bytes(PNG_BYTES)
    records = [mathverse_record(1, "image_1.png"), mathverse_record(2, "image_1.png", "Vision Only")]
    (tmp_path / "testmini.json").write_text(json.dumps(records), encoding="utf-8")
    data = load_dataset("mathverse", data_dir=tmp_path)
    q1, q2 = data.questions
    assert q1.dims == {
        "problem_version": "Text Dominant",
        "question_type": "multi-choice",
        "subject": "Plane Geometry",
        "subfield": "Angle",
    }
    assert q1.options == ("A. 40°", "B. 60°", "C. 120°", "D. 140°")
    assert data.image_path(q1) == tmp_path / "images" / "image_1.png"
    assert data.video_path(q1) is None and data.subtitle_path(q1) is None
    assert q2.question == "" and data.filter(text="triangle abc") == [q1, q2]  # searches question_for_eval too


def test_mathverse_parquet_image_bytes_written_once_to_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    record = mathverse_record(7, {"bytes": PNG_BYTES, "path": "image_7.png"})
    record["metadata"] = json.dumps(record["metadata"])  # some exports store metadata as a JSON string
    root = tmp_path / "mv"
    write_parquet(root / "testmini" / "testmini-00000-of-00001.parquet", [record])
    data = load_dataset("mathverse", data_dir=root)
    q = data.questions[0]
    assert q.dims["subject"] == "Plane Geometry"
    first = data.image_path(q)
    assert first.parent == tmp_path / "cache" / "images" and first.suffix == ".png"
    assert first.read_bytes() == PNG_BYTES
    stamp = first.stat().st_mtime_ns
    assert data.image_path(q) == first and first.stat().st_mtime_ns == stamp


# -- safety --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("video_id", ["../x", "/etc/passwd", "a/../../b", "..", "a\\..\\b", "~root"])
def test_video_ids_cannot_leave_the_data_directory(tmp_path, video_id):
    root = make_videomathqa(tmp_path / "root", [vmqa_record("q1", video_id)])
    (tmp_path / "x.mp4").write_bytes(b"outside")
    data = load_dataset("videomathqa", "mcq", root)
    for lookup in (data.video_path, data.find_video, data.subtitle_path):
        with pytest.raises(InputError, match="unsafe file name"):
            lookup(data.questions[0])


@pytest.mark.parametrize("image", ["../secret.png", "/etc/passwd", "images/../../secret.png", "C:\\x.png"])
def test_image_paths_cannot_leave_the_data_directory(tmp_path, image):
    (tmp_path / "secret.png").write_bytes(PNG_BYTES)
    root = tmp_path / "mv"
    root.mkdir()
    (root / "testmini.json").write_text(json.dumps([mathverse_record(1, image)]))
    data = load_dataset("mathverse", data_dir=root)
    with pytest.raises(InputError, match="unsafe file name"):
        data.image_path(data.questions[0])


def test_inside_allows_nested_relative_paths_only_when_asked(tmp_path):
    nested = inside(tmp_path, "images", "v1/image_1.png", source="t", allow_dirs=True)
    assert nested == tmp_path / "images" / "v1" / "image_1.png"
    with pytest.raises(InputError, match="path separator"):
        inside(tmp_path, "videos", "v1/clip", source="t")


# -- where the data comes from -------------------------------------------------------------------------------------


def test_mathreel_data_environment_variable(tmp_path, monkeypatch):
    root = make_videomathqa(tmp_path, [vmqa_record("env1", "v1")])
    monkeypatch.setenv("MATHREEL_DATA", str(root))
    data = load_dataset("videomathqa")
    assert data.source == str(root) and data.refs == ("env1",)


def test_bad_data_dir_says_what_was_looked_for(tmp_path):
    with pytest.raises(InputError, match="no such data directory"):
        load_dataset("videomathqa", data_dir=tmp_path / "nope")
    looked = r"looked for videomathqa_mcq_test\.parquet, mcq/test-\*\.parquet, videomathqa_mbin_test\.parquet"
    with pytest.raises(InputError, match=rf"no VideoMathQA data found: {looked}.* in .* and in .*/videomathqa"):
        load_dataset("videomathqa", data_dir=tmp_path)


def test_unknown_question_mode_and_benchmark(tmp_path):
    data = load_dataset("videomathqa", "mcq", make_videomathqa(tmp_path, [vmqa_record("q001", "v1")]))
    with pytest.raises(InputError, match="no VideoMathQA mcq question 'q01'; did you mean q001"):
        data.question("q01")
    with pytest.raises(InputError, match="no mode 'binary'"):
        load_dataset("videomathqa", "binary", tmp_path)
    with pytest.raises(InputError, match="unknown benchmark 'mmmu'"):
        load_dataset("mmmu")


def test_record_without_question_id_names_file_and_record(tmp_path):
    make_videomathqa(tmp_path, [vmqa_record("q1", "v1"), vmqa_record("", "v1")])
    with pytest.raises(InputError, match=r"videomathqa_mcq_test\.parquet, record 1: the record has no question_id"):
        load_dataset("videomathqa", "mcq", tmp_path)


def test_filter_by_dimensions_and_text(tmp_path):
    root = make_videomathqa(
        tmp_path,
        [
            vmqa_record("q1", "v1"),
            vmqa_record("q2", "v1", category="Chart"),
            vmqa_record("q3", "v2", category="Chart", length="long", question="How many bars?"),
        ],
    )
    data = load_dataset("videomathqa", "mcq", root)
    assert [q.question_id for q in data.filter(category="Chart")] == ["q2", "q3"]
    assert [q.question_id for q in data.filter(category=["Chart", "Geometry Angle"], duration="long")] == ["q3"]
    assert [q.question_id for q in data.filter(text="BARS")] == ["q3"]
    assert [q.question_id for q in data.filter(category="Chart ")] == []  # labels match exactly
    assert data.values("category") == ["Geometry Angle", "Chart"]
    with pytest.raises(InputError, match="unknown dimension colour"):
        data.filter(colour="red")


def test_loaded_datasets_are_cached_until_the_file_changes(tmp_path):
    root = make_videomathqa(tmp_path, [vmqa_record("q1", "v1")])
    first = load_dataset("videomathqa", "mcq", root)
    assert load_dataset("videomathqa", "mcq", str(root)) is first
    write_parquet(root / "videomathqa_mcq_test.parquet", [vmqa_record("q1", "v1"), vmqa_record("q2", "v1")])
    assert load_dataset("videomathqa", "mcq", root).refs == ("q1", "q2")


def test_hub_dataset_without_internet_gives_a_clear_message(tmp_path):
    env = {
        **os.environ,
        "HF_ENDPOINT": f"http://127.0.0.1:{closed_port()}",
        "HF_HOME": str(tmp_path / "hf"),
        "HF_HUB_DISABLE_TELEMETRY": "1",
    }
    code = "from mathreel.core.data import load_dataset; load_dataset('videomathqa', data_dir='hf:MBZUAI/VideoMathQA')"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "InputError: hf:MBZUAI/VideoMathQA: cannot reach the Hugging Face Hub (no internet?)" in last


def test_hub_id_must_name_org_and_dataset():
    with pytest.raises(InputError, match=r"looks like hf:<org>/<name>"):
        load_dataset("videomathqa", data_dir="hf:justaname")


# -- the embedded demo set -----------------------------------------------------------------------------------------


def test_without_data_dir_the_demo_set_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("MATHREEL_DATA", raising=False)
    monkeypatch.setenv("MATHREEL_ASSETS", str(tmp_path / "assets"))
    make_videomme(tmp_path / "assets" / "demo" / "videomme", [videomme_record("001-1", "abc")])
    data = load_dataset("videomme")
    assert data.source == "demo" and data.root == demo_dir() / "videomme" == tmp_path / "assets/demo/videomme"
    with pytest.raises(InputError, match="no MathVerse data found"):
        load_dataset("mathverse")


@pytest.mark.parametrize(
    ("benchmark", "mode"), [("videomathqa", "mcq"), ("videomathqa", "mbin"), ("videomme", None), ("mathverse", None)]
)
def test_demo_set_loads_for_every_benchmark_and_mode(benchmark, mode, monkeypatch):
    monkeypatch.delenv("MATHREEL_DATA", raising=False)
    data = load_dataset(benchmark, mode)
    assert data.source == "demo" and data.root.parent == demo_dir()
    assert data.questions
    for question in data.questions:
        if data.layout.has_video:
            assert data.video_path(question).is_file()
        else:
            assert data.image_path(question).is_file()
