"""The web app's shaping of core objects: Browse pages from real datasets and H.264 videos, Score tables and charts
from real core reports, the paper reference transcription, error handling and the serve command.

The browser-level behaviour (clicks, uploads, the video player) is in tests/browser/.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from helpers.datasets import PNG_BYTES, make_videomathqa, mathverse_record, vmqa_record
from helpers.jsonl import write_jsonl

from mathreel.core.data import load_dataset
from mathreel.core.errors import InputError
from mathreel.core.media.writer import write_h264
from mathreel.core.results import read_results
from mathreel.core.scoring import paired_difference, score
from mathreel.core.scoring.report import Cell, Interval
from mathreel.core.view import ViewSettings, build_view
from mathreel.webapp import charts
from mathreel.webapp.benchmark_keys import benchmark_choices
from mathreel.webapp.browse_page import render_question
from mathreel.webapp.browse_panels import PAGE_OUTPUTS, Reading, page_updates
from mathreel.webapp.browse_table import ALL, filter_specs, question_table
from mathreel.webapp.errors import error_message, guarded
from mathreel.webapp.present import ci_text, frame_caption, pct, seconds_text
from mathreel.webapp.reading_flow import response_markdown
from mathreel.webapp.reference import comparison_table, load_references
from mathreel.webapp.score import (
    Downloads,
    breakdown_table,
    dimension_filter_choices,
    headline_markdown,
    paired_markdown,
    summary_table,
)
from mathreel.webapp.score import (
    question_table as scored_table,
)
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads
from mathreel.webapp.settings import Settings

REPO = Path(__file__).resolve().parent.parent
FPS = 10
CUES = {"one": (0.0, 1.0), "two": (1.0, 2.5), "three": (2.5, 4.0), "four": (4.5, 5.5)}


def srt_time(seconds: float) -> str:
    ms = round(seconds * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def write_srt(path: Path) -> None:
    blocks = [f"{i}\n{srt_time(s)} --> {srt_time(e)}\n{text}\n" for i, (text, (s, e)) in enumerate(CUES.items(), 1)]
    path.write_text("\n".join(blocks), encoding="utf-8")


@pytest.fixture
def vmqa(tmp_path, monkeypatch) -> Path:
    """A VideoMathQA root with three 6-second H.264 videos (two with subtitles), MCQ and multi-binary."""
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    categories = ["Chart", "Geometry Angle", "Counting"]
    durations = ["short", "medium", "long"]
    mcq = [
        vmqa_record(f"q{i}", f"clip{i % 3}", category=categories[i % 3], length=durations[i % 3], answer="BCD"[i % 3])
        for i in range(6)
    ]
    pair = {"options": ["A. 45", "B. 60"]}
    mbin = [
        vmqa_record("p1", "clip0", answer="A", **pair),
        vmqa_record("p1", "clip0", answer="B", **pair),
        vmqa_record("p2", "clip1", answer="A", **pair),
    ]
    root = make_videomathqa(tmp_path / "vmqa", mcq, mbin)
    for i in range(3):
        frames = (np.full((48, 64, 3), 4 * k, dtype=np.uint8) for k in range(6 * FPS))
        write_h264(root / "videos" / f"clip{i}.mp4", frames, FPS)
    write_srt(root / "subtitles" / "clip0.srt")
    write_srt(root / "subtitles" / "clip1.srt")
    return root


def results_file(path: Path, answers: dict[str, str]) -> Path:
    """A plain JSONL result file with gold answers and dimensions for questions q0..q5 of the fixture."""
    gold = {f"q{i}": "BCD"[i % 3] for i in range(6)}
    records = [
        {
            "question_id": qid,
            "answer": gold[qid],
            "category": ["Chart", "Geometry Angle", "Counting"][int(qid[1]) % 3],
            "duration": ["short", "medium", "long"][int(qid[1]) % 3],
            "videoID": f"clip{int(qid[1]) % 3}",
            "response": response,
        }
        for qid, response in answers.items()
    ]
    return write_jsonl(path, records)


# -- Browse -----------------------------------------------------------------------------------------------------


def test_benchmark_choices_cover_every_mode_core_knows():
    from mathreel.core.benchmarks import BENCHMARKS

    keys = [key for _, key in benchmark_choices()]
    assert keys == [f"{b.name}:{m.key}" for b in BENCHMARKS.values() for m in b.modes]
    assert "videomathqa:mbin" in keys and "videomme:mcq" in keys and "mathverse:default" in keys


def test_question_table_filters_by_every_dimension_and_text(vmqa):
    data = load_dataset("videomathqa", "mcq", vmqa)
    specs = filter_specs(data)
    assert [(key, label) for key, label, _ in specs] == [("category", "Category"), ("duration", "Duration")]
    assert specs[0][2] == ["Geometry Angle", "Chart", "Counting"]  # the benchmark's display order
    everything = question_table(data)
    assert list(everything["ID"]) == [f"q{i}" for i in range(6)]
    assert list(everything.columns) == ["ID", "Question", "Category", "Duration", "Answer"]
    charts_only = question_table(data, "", {"category": "Chart", "duration": ALL})
    assert list(charts_only["ID"]) == ["q0", "q3"]
    assert list(question_table(data, "q4?")["ID"]) == ["q4"]
    assert question_table(data, "no such text").empty


def test_question_page_shows_frames_as_build_view_samples_them(vmqa):
    data = load_dataset("videomathqa", "mcq", vmqa)
    page = render_question(data, "q0", ViewSettings(num_frames=8, with_subtitles=True))
    view = build_view(data, "q0", num_frames=8, with_subtitles=True)
    assert page.prompt == view.prompt and "one\ntwo\nthree\nfour" in page.prompt
    assert [path for path, _ in page.frames] == [str(p) for p in view.frames.paths]
    assert len(page.frames) == 8 and all(Path(p).is_file() for p, _ in page.frames)
    for (_, caption), index, time, cues in zip(
        page.frames, view.frames.indices, view.frames.times, view.frame_cues, strict=True
    ):
        assert caption.startswith(f"frame {index} · {seconds_text(time)}")
        assert all(c.text in caption for c in cues)
    # The sixth sampled frame (index 42) sits at 4.2 s, between "three" and "four": no line there.
    assert "(no subtitle at this moment)" in page.frames[5][1]
    assert page.frame_times == pytest.approx([float(t) for t in view.frames.times])
    assert [row[2] for row in page.cue_rows] == list(CUES)
    # The first cue covers the first two sampled frames, named as the gallery captions name them.
    first_two = [int(i) for i in view.frames.indices[:2]]
    assert page.cue_rows[0][3] == f"frame {first_two[0]}, frame {first_two[1]}"
    assert page.subtitles[1] == {"text": "two", "timestamp": [1.0, 2.5]}
    assert page.video_path == str(vmqa / "videos" / "clip0.mp4")
    assert "✓ **B. 45** — correct answer" in page.header and "- A. 30" in page.header
    assert "1. Read the diagram.\n2. Add the angles." in page.steps
    assert "| Category | Chart |" in page.metadata and "0:06.0 (60 frames, 10.00 fps)" in page.metadata


def is_update(value: object) -> bool:
    """A gr.update / gr.skip dict, which Gradio rebuilds the component for (as opposed to a bare value)."""
    return isinstance(value, dict) and value.get("__type__") == "update"


def test_a_switch_sends_a_panels_visibility_only_when_it_changes(vmqa):
    import gradio as gr

    data = load_dataset("videomathqa", "mcq", vmqa)
    with_subs, without = render_question(data, "q0", ViewSettings()), render_question(data, "q2", ViewSettings())
    first = dict(zip(PAGE_OUTPUTS, page_updates(with_subs, "videomathqa:mcq"), strict=True))
    # Nothing known about the page yet: every optional panel gets its value and its visibility.
    for name in ("diagram", "frames", "cues", "pairs", "versions", "version_images", "response"):
        assert is_update(first[name]) and "visible" in first[name], name
    assert first["frames"]["value"] == with_subs.frames and first["frames"]["visible"] is True
    assert first["diagram"]["visible"] is False and first["cues"]["visible"] is True
    assert first["frames_n"] == gr.update(visible=True)
    assert first["state"] == {
        "key": "videomathqa:mcq",
        "ref": "q0",
        "frame_times": with_subs.frame_times,
        "cue_times": with_subs.cue_times,
        "on_server": True,
    }

    second = dict(zip(PAGE_OUTPUTS, page_updates(without, "videomathqa:mcq", first["panels"]), strict=True))
    # Another question: the gallery's selected tile is cleared (it used to stay outlined on the new question).
    assert second["frames"] == gr.update(value=without.frames, selected_index=None, visible=True)
    assert second["pairs"] is None and second["response"] == ""  # still hidden: bare empty values
    assert second["cues"] == gr.update(value=[], visible=False)  # q2 has no subtitles: the table hides
    assert second["frames_n"] == second["subs"] == gr.skip()  # the user's settings stay as they are
    assert second["video"]["value"] == without.video_path and second["video"]["subtitles"] is None
    assert second["error"] == gr.update(value="", visible=False)
    assert second["panels"] == {**first["panels"], "cues": False, "ref": "q2"}

    third = dict(
        zip(
            PAGE_OUTPUTS,
            page_updates(with_subs, "videomathqa:mcq", second["panels"], Reading(response="### Model response")),
            strict=True,
        )
    )
    assert third["cues"] == gr.update(value=with_subs.cue_rows, visible=True)
    assert third["response"] == gr.update(value="### Model response", visible=True)

    # The same question again (a prompt option toggled): the video keeps its place, the frames their selection.
    again = dict(
        zip(
            PAGE_OUTPUTS,
            page_updates(with_subs, "videomathqa:mcq", third["panels"], Reading(response="### Model response")),
            strict=True,
        )
    )
    assert again["video"] == gr.skip() and again["frames"] == with_subs.frames


def test_question_page_follows_frame_count_and_cot(vmqa):
    data = load_dataset("videomathqa", "mcq", vmqa)
    direct = render_question(data, "q2", ViewSettings(num_frames=3))
    cot = render_question(data, "q2", ViewSettings(num_frames=16, cot=True))
    assert len(direct.frames) == 3 and len(cot.frames) == 16
    assert cot.prompt == build_view(data, "q2", num_frames=16, cot=True).prompt != direct.prompt
    assert direct.subtitles is None and direct.cue_rows == []  # clip2 has no SRT
    assert all(caption.endswith("(no subtitle at this moment)") for _, caption in direct.frames)


def test_multibinary_question_shows_all_its_pairs(vmqa):
    data = load_dataset("videomathqa", "mbin", vmqa)
    page = render_question(data, data.refs[0], ViewSettings(num_frames=2))
    assert page.pairs == [["p1#1", "A. 45  /  B. 60", "A"], ["p1#2", "A. 45  /  B. 60", "B"]]
    single = render_question(data, "p2", ViewSettings(num_frames=2))
    assert single.pairs == [["p2", "A. 45  /  B. 60", "A"]]


def test_mathverse_question_shows_the_diagram_and_every_version_in_order(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    (tmp_path / "images").mkdir()
    records = []
    for k, version in enumerate(["Vision Only", "Text Dominant", "Text Lite"]):
        (tmp_path / "images" / f"img{k}.png").write_bytes(PNG_BYTES)
        record = mathverse_record(10 + k, f"img{k}.png", version)
        record["problem_index"] = "7"
        records.append(record)
    records.append(mathverse_record(20, "img0.png"))  # another problem
    (tmp_path / "testmini.json").write_text(json.dumps(records), encoding="utf-8")
    data = load_dataset("mathverse", data_dir=tmp_path)
    page = render_question(data, "10", ViewSettings())
    assert page.video_path is None and page.frames == []
    assert page.image_path == str(tmp_path / "images" / "img0.png")
    assert [row[0] for row in page.versions] == ["Text Dominant", "Text Lite", "Vision Only"]
    assert [row[1] for row in page.versions] == ["11", "12", "10"]
    assert [caption for _, caption in page.version_images] == ["Text Dominant", "Text Lite", "Vision Only"]
    assert "✓ **D. 140°**" in page.header


def test_unknown_question_is_an_input_error(vmqa):
    data = load_dataset("videomathqa", "mcq", vmqa)
    with pytest.raises(InputError, match="q99"):
        render_question(data, "q99", ViewSettings())


def test_frame_caption_and_response_panel():
    assert frame_caption(120, 4.0, ["a", "b"]) == "frame 120 · 0:04.0\na / b"
    row = SimpleNamespace(
        extracted=None, gold="B", status="unparsed", method="none", explanation="no letter found", response="I think so"
    )
    panel = response_markdown(row, "run.jsonl")
    assert "? unparsed" in panel and "**B**" in panel and "no letter found" in panel and "I think so" in panel
    assert response_markdown(None) == ""


# -- Score ------------------------------------------------------------------------------------------------------


def test_uploaded_file_scores_exactly_as_core(vmqa, tmp_path):
    path = results_file(
        tmp_path / "run_a.jsonl", {"q0": "B", "q1": "The answer is A.", "q2": "D", "q3": "hmm", "q4": "C", "q5": "(D)"}
    )
    runs, errors = score_uploads([str(path)], ScoreOptions())
    assert errors == []
    expected = score(read_results(path)).to_dict()
    # core's report, naming the file by its own name (as `mathreel score --json run_a.jsonl` does), not the upload path
    assert runs[0].report.to_dict() == {**expected, "source": "run_a.jsonl"} and runs[0].name == "run_a.jsonl"
    table = summary_table(runs)
    row = table.iloc[0]
    assert row["Accuracy"] == pct(expected["overall"]["accuracy"]) == "66.7%"
    assert row["95% CI"] == ci_text(expected["overall"]["ci"])
    assert (row["n"], row["Unparsed"], row["Missing"]) == (6, expected["unparsed"], expected["missing"])
    assert "**66.7%** accuracy, 95% CI " + ci_text(expected["overall"]["ci"]) in headline_markdown(runs)


def test_bad_file_is_one_clear_message_and_good_files_still_score(vmqa, tmp_path):
    good = results_file(tmp_path / "good.jsonl", {"q0": "B"})
    bad = tmp_path / "upload-dir" / "broken.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"question_id": "q1", "respo\n', encoding="utf-8")
    runs, errors = score_uploads([str(bad), str(good)], ScoreOptions())
    assert [r.name for r in runs] == ["good.jsonl"]
    assert len(errors) == 1 and errors[0].startswith("broken.jsonl")
    assert str(bad.parent) not in errors[0] and "Traceback" not in errors[0]


def test_breakdowns_question_filters_and_downloads(vmqa, tmp_path):
    path = results_file(tmp_path / "run.jsonl", {"q0": "B", "q1": "A", "q2": "D", "q3": "no idea", "q4": "C"})
    runs, _ = score_uploads([str(path)], ScoreOptions())
    run = runs[0]
    breakdown = breakdown_table(runs)
    chart_row = breakdown[(breakdown["Dimension"] == "Category") & (breakdown["Value"] == "Chart")].iloc[0]
    cell = run.report.to_dict()["by"]["category"]["Chart"]
    assert chart_row["run.jsonl"] == f"{cell['text']} n={cell['n']}"  # core's rendering, not the 2-decimal JSON
    statuses = {r.question_id: r.status for r in run.report.rows}
    assert list(scored_table(run, "wrong")["ID"]) == [q for q, s in statuses.items() if s == "wrong"] == ["q1"]
    assert list(scored_table(run, "unparsed")["ID"]) == ["q3"]
    assert list(scored_table(run, "not_correct")["ID"]) == ["q1", "q3"]
    assert list(scored_table(run, "all", "category=Counting")["ID"]) == ["q2"]
    assert ("Category: Chart", "category=Chart") in dimension_filter_choices(run)
    csv_path, json_path = Downloads(3600).write(run)
    import pandas as pd

    frame = pd.read_csv(csv_path, keep_default_na=False)
    assert list(frame["question_id"]) == [r.question_id for r in run.report.rows]
    assert list(frame["status"]) == [r.status for r in run.report.rows]
    assert json.loads(Path(json_path).read_text(encoding="utf-8")) == run.report.to_dict()


def test_paired_difference_of_two_runs_is_cores(vmqa, tmp_path):
    a = results_file(tmp_path / "a.jsonl", {f"q{i}": "BCD"[i % 3] for i in range(6)})
    b = results_file(tmp_path / "b.jsonl", {"q0": "B", "q1": "A", "q2": "A", "q3": "B", "q4": "A", "q5": "D"})
    runs, _ = score_uploads([str(a), str(b)], ScoreOptions())
    text, diff = paired_markdown(runs[0], runs[1])
    expected = paired_difference(runs[0].report, runs[1].report).to_dict()
    assert diff == expected and f"{expected['difference']:+.1f} points" in text
    assert ci_text(expected["ci"]) in text
    same, none = paired_markdown(runs[0], runs[0])
    assert none is None and "two runs" in same


def test_charts_carry_the_reports_cis(vmqa, tmp_path):
    path = results_file(tmp_path / "run.jsonl", {"q0": "B", "q1": "A", "q2": "D", "q3": "B"})
    report = score(read_results(path))
    summary = report.to_dict()
    cells = summary["by"]["category"]
    assert not charts.long_axis(list(cells))  # a few short values: upright bars in core's order
    figure = charts.accuracy_bars([("run", report.by)], "category", "Category")
    bar = figure.data[0]
    assert list(bar.x) == list(cells)
    assert list(bar.y) == [c["accuracy"] for c in cells.values()]
    assert list(bar.error_y.array) == pytest.approx([c["ci"][1] - c["accuracy"] for c in cells.values()])
    assert list(bar.error_y.arrayminus) == pytest.approx([c["accuracy"] - c["ci"][0] for c in cells.values()])
    cross = {
        "short": {"OCR": Cell(2, 1, 50.0, Interval(9.5, 90.5))},
        "long": {"Counting": Cell(1, 1, 100.0, Interval(20.7, 100.0))},
    }
    heat = charts.cross_heatmap(cross, "t").data[0]
    assert list(heat.y) == ["short", "long"] and list(heat.x) == ["OCR", "Counting"]
    assert [list(r) for r in heat.z] == [[50.0, None], [None, 100.0]]


# -- the published reference ------------------------------------------------------------------------------------

# Verbatim lines of the VideoMathQA paper's tables (docs/sources.md), parsed here independently of how the JSON
# was written.
SEED_LINES = {
    ("1", "Random"): "| Random | - | 17.4 | 17.4 | 7.9 | 7.9 | 8.7 | 7.0 | 7.8 | 10.7 | 8.7 | 3.9 | 6.7 | 11.1 | 2.6 | "
    "11.1 | 9.0 | 7.8 | 6.9 |",
    ("1", "Qwen2.5-VL", "3B"): "| Qwen2.5-VL [3] | 3B | 26.9 | 27.6 | 19.3 | 19.6 | 26.1 | 23.9 | 23.5 | 21.3 | "
    "34.8 | 17.3 | 26.7 | 11.1 | 15.8 | 20.4 | 25.4 | 23.4 | 15.9 |",
    ("1", "InternVL3", "38B"): "| InternVL3 [42] | 38B | 31.7 | 35.7 | 25.2 | 29.5 | 34.8 | 42.3 | 37.3 | 13.3 | "
    "17.4 | 25.0 | 13.3 | 33.3 | 26.3 | 40.7 | 35.8 | 38.3 | 12.9 |",
    ("2", "GPT-o4-mini"): "| GPT-o4-mini | - | 49.8 | 61.4 | 42.1 | 44.8 | 43.5 | 49.3 | 45.1 | 40.0 | 65.2 | "
    "63.5 | 20.0 | 72.2 | 23.7 | 31.5 | 45.5 | 44.8 | 42.4 | 6.9 |",
    ("2", "Qwen2.5-VL", "72B"): "| Qwen2.5-VL [3] | 72B | 37.4 | 36.9 | 24.5 | 28.6 | 30.4 | 31.0 | 31.4 | 24.0 | "
    "21.7 | 50.0 | 13.3 | 22.2 | 15.8 | 25.9 | 27.6 | 34.4 | 22.7 | 5.0 |",
}


def parse_seed_row(line: str) -> list[float | None]:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return [None if c == "-" else float(c) for c in cells[2:]]


def reference_values(row: dict) -> list[float | None]:
    values = [
        row["mcq_v"],
        row["mcq_sub"],
        row["mbin_v"],
        row["mbin_sub"],
        *row["categories"].values(),
        *row["durations"].values(),
    ]
    return values + ([row["cot_step_eval"]] if "cot_step_eval" in row else [])


def find_row(rows: list[dict], key: tuple[str, ...]) -> dict:
    table, model, *size = key
    found = [r for r in rows if str(r["table"]) == table and r["model"] == model and (not size or r["size"] == size[0])]
    assert len(found) == 1, key
    return found[0]


def test_reference_json_matches_the_papers_tables():
    data = json.loads((REPO / "assets" / "reference" / "videomathqa_paper.json").read_text(encoding="utf-8"))
    assert "VideoMathQA" in data["source"] and "Table 1" in data["source"] and "Table 2" in data["source"]
    for key, line in SEED_LINES.items():
        row = find_row(data["rows"], key)
        assert reference_values(row) == parse_seed_row(line), key
        assert row["source"] == f"VideoMathQA paper, Table {key[0]}"
    counts = {t: sum(str(r["table"]) == t for r in data["rows"]) for t in ("1", "2")}
    assert counts == {"1": 30, "2": 18}
    assert list(find_row(data["rows"], ("1", "Random"))["categories"]) == [
        "Geometry Angle",
        "Geometry Area",
        "Geometry Length",
        "Chart",
        "Statistics",
        "Arithmetic",
        "Topology",
        "Graph Theory",
        "Counting",
        "Puzzle",
    ]
    sections = {r["section"] for r in data["rows"]}
    assert sections == {
        "Baseline",
        "Proprietary",
        "Open-source (<5B)",
        "Open-source (<9B)",
        "Open-source (<40B)",
        "Open-source (<80B)",
    }


def test_comparison_table_puts_runs_above_the_papers_rows(vmqa, tmp_path):
    reference = load_references()["videomathqa"]
    path = results_file(tmp_path / "mine.jsonl", {"q0": "B", "q1": "C", "q2": "A"})
    report = score(read_results(path))
    summary = report.to_dict()
    frame = comparison_table(reference, "2", "mcq_sub", [("mine.jsonl", report)])
    assert len(frame) == 1 + 18
    mine = frame.iloc[0]
    assert mine["Model"] == "mine.jsonl" and mine["Overall: MCQ, video + subtitles (+Sub)"] == "66.7%"
    assert mine["Chart"] == pct(summary["by"]["category"]["Chart"]["accuracy"]) and mine["Puzzle"] == "—"
    gpt = frame[frame["Model"] == "GPT-o4-mini"].iloc[0]
    assert gpt["Overall: MCQ, video + subtitles (+Sub)"] == "61.4%" and gpt["CoT step eval (/10)"] == "6.9"
    assert reference.setting_choices("mbin")[0][1] == "mbin_v"


# -- plumbing ---------------------------------------------------------------------------------------------------


def test_formatting_is_one_decimal_and_bracketed():
    assert pct(41.26) == "41.3%" and pct(None) == "—"
    assert ci_text([35.24, 47.65]) == "[35.2, 47.7]" and ci_text(None) == "—"  # half-up, as `mathreel score`
    assert seconds_text(3725.25) == "1:02:05.2" and seconds_text(4.0) == "0:04.0"


def test_guarded_handler_shows_core_message_and_leaves_other_outputs():
    import gradio as gr

    @guarded(1, 3)
    def handler() -> tuple:
        raise InputError("results.jsonl", "no response field", 4)

    out = handler()
    assert out[0] == gr.skip() and out[2] == gr.skip()
    assert out[1]["visible"] is True and out[1]["value"] == "**Error:** results.jsonl, record 4: no response field"
    assert "ZeroDivisionError" in error_message(ZeroDivisionError("x"))


def test_app_builds_with_stable_element_ids(vmqa):
    from mathreel.webapp.app import build_app

    app = build_app(Settings(data_dir=vmqa))
    ids = {c.get("props", {}).get("elem_id") for c in app.get_config_file()["components"]}
    for needed in (
        "browse-benchmark",
        "browse-table",
        "browse-video",
        "browse-frames",
        "browse-subtitles",
        "browse-prompt",
        "score-upload",
        "score-headline",
        "score-error",
        "score-questions",
        "score-download-csv",
        "score-download-json",
        "tab-browse",
        "tab-score",
    ):
        assert needed in ids, needed
    assert app.delete_cache == (3600, 3600) and app.analytics_enabled is False


def test_only_frame_cache_files_are_served_as_immutable(tmp_path):
    import asyncio

    from mathreel.webapp.app import ImmutableFrames

    frames = tmp_path / "frames"

    async def files(scope, receive, send):  # answers like Gradio's file route: 200, or 404 for "missing"
        status = 404 if scope["path"].endswith("missing.jpg") else 200
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"image/jpeg")]})
        await send({"type": "http.response.body", "body": b"jpeg"})

    def headers(path: str) -> dict[bytes, bytes]:
        sent = []

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": f"/gradio_api/file={path}"}
        asyncio.run(ImmutableFrames(files, str(frames))(scope, None, send))
        return dict(sent[0]["headers"])

    assert headers(f"{frames}/abc123/0000042.jpg")[b"cache-control"] == b"private, max-age=86400, immutable"
    for other in (
        f"{tmp_path}/videos/clip0.mp4",
        f"{frames}/../videos/clip0.mp4",
        f"{frames}-other/a.jpg",
        f"{frames}/abc123/missing.jpg",
    ):
        assert b"cache-control" not in headers(other), other


def test_serve_refuses_a_missing_data_directory(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from mathreel.cli import main; raise SystemExit(main())",
            "serve",
            "--data",
            str(tmp_path / "nope"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"mathreel: {tmp_path / 'nope'}: not a directory (give the dataset folder to --data)"


# -- the reading flow -------------------------------------------------------------------------------------------


class FixedDatasets:
    """A DatasetCache stand-in over the fixture root (the real load_dataset, one directory)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def get(self, benchmark: str, mode: str | None):
        return load_dataset(benchmark, mode, self.root)


def two_runs(tmp_path: Path, annotations: Path | None = None):
    hostile = "<script>alert(1)</script> so $x<y$ gives C.\nThe answer is C"
    a = results_file(
        tmp_path / "a.jsonl", {"q0": "The answer is B", "q1": "Final answer: A", "q2": "hmm", "q3": "A", "q4": hostile}
    )
    b = results_file(tmp_path / "b.jsonl", {"q0": "B", "q1": "D", "q2": "hmm", "q3": "B", "q4": "C"})
    runs, errors = score_uploads([str(a), str(b)], ScoreOptions(annotations=str(annotations) if annotations else None))
    assert errors == []
    return runs


def test_walking_the_wrong_answers_keeps_the_response_and_shows_the_position(vmqa, tmp_path):
    from mathreel.webapp.browse_handlers import BrowseHandlers

    runs = two_runs(tmp_path, vmqa)  # id-only files read with the set as annotations: joined by id as asked
    handlers = BrowseHandlers(FixedDatasets(vmqa))
    walk = {"run": "a.jsonl", "status": "wrong"}
    st = {"key": "videomathqa:mcq", "ref": "q1"}
    page = dict(zip(PAGE_OUTPUTS, handlers.step(st, None, runs, walk, False, ViewSettings(2), 1), strict=True))
    assert page["state"]["ref"] == "q3"  # the wrong answers are q1, q3 (q2 is unparsed)
    assert page["position"] == "**2 of 2** wrong · a.jsonl"
    assert page["link"] == "benchmark=videomathqa%3Amcq&q=q3&run=a.jsonl&walk=wrong"  # what the address bar gets
    assert "Final answer" not in page["response"]["value"] and "✗ wrong" in page["response"]["value"]
    assert "✗ **A. 30** — model's pick" in page["header"] and "✓ **B. 45** — correct answer" in page["header"]
    last = handlers.step(page["state"], page["panels"], runs, walk, False, ViewSettings(2), 1)
    assert dict(zip(PAGE_OUTPUTS, last, strict=True))["state"]["ref"] == "q3"  # clamped at the end
    assert page["state"]["view"] == ViewSettings(2).view_kwargs()  # what Ask reads to ask the same way


def test_runs_side_by_side_and_where_they_disagree(vmqa, tmp_path):
    from mathreel.webapp.reading_flow import Walk, compare_html, walk_ids

    runs = two_runs(tmp_path)
    html_text = compare_html(runs, "videomathqa:mcq", "q1")
    assert html_text.count("class='compare-col'") == 2 and "a.jsonl" in html_text and "b.jsonl" in html_text
    assert walk_ids(runs, Walk("a.jsonl", "all", disagree=True)) == ["q1", "q3"]
    assert compare_html(runs[:1], "videomathqa:mcq", "q1") == ""  # one run: nothing to compare


def test_responses_are_escaped_and_the_answer_mark_never_splits_latex(vmqa, tmp_path):
    from mathreel.core.scoring.reading_flow import answer_span
    from mathreel.webapp.reading_flow import highlighted, response_markdown

    runs = two_runs(tmp_path)
    row = next(r for r in runs[0].report.rows if r.question_id == "q4")
    text = response_markdown(row, "a.jsonl")
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "The <mark class='answer-read'>answer is C</mark>" in text  # where the extractor read it
    inside = "so $x = C$ here"
    marked = highlighted(inside, (inside.index("C"), inside.index("C") + 1))
    assert "<mark class='answer-read'>$x = C$</mark>" in marked
    raw = response_markdown(row, "a.jsonl", raw=True)
    assert "<pre class='response-raw'>" in raw and answer_span(row) is not None


def test_the_view_follows_the_run_and_a_shared_link_opens_its_question(vmqa, tmp_path):
    from mathreel.webapp.browse_address import url_target
    from mathreel.webapp.browse_handlers import BrowseHandlers

    runs = two_runs(tmp_path)
    handlers = BrowseHandlers(FixedDatasets(vmqa))
    used, note = handlers.follow_run(runs, {"run": "a.jsonl"})
    assert used == runs[0].settings_used().settings and "Prompt and frames follow a.jsonl" in note
    assert handlers.follow_run(runs, {"run": "gone.jsonl"}) is None
    key, target = url_target({"benchmark": "videomathqa:mcq", "q": "q4", "run": "a.jsonl"}, ["videomathqa:mcq"])
    assert key == "videomathqa:mcq" and target == {"ref": "q4", "run": "a.jsonl"}
    assert handlers.first_ref(key, "q4") == "q4" and handlers.first_ref(key, "nope") == "q0"
    missing = handlers.reading(key, "q4", [], {"run": "a.jsonl"}, False)
    assert "not among your runs in this browser" in missing.position and missing.response == ""


def test_a_rejudged_question_goes_to_a_run_of_its_own():
    from mathreel.webapp.judge import Selection, add_rejudged, browse_target, rejudged_name
    from mathreel.webapp.judged_runs import JudgedRun, load_demo_runs

    demo = load_demo_runs()
    run = next(r for r in demo if r.name.endswith("(synthetic demo)"))
    qid = run.judgments[0].question_id
    name = rejudged_name(run.name, "judge-x")
    assert name.endswith("· re-judged by judge-x") and "(synthetic demo)" not in name
    fresh = JudgedRun(name, [j for j in run.judgments if j.question_id == qid])
    once = add_rejudged(demo, fresh, qid)
    assert once[: len(demo)] == demo and once[-1].name == name  # the demo run is untouched
    twice = add_rejudged(once, fresh, qid)
    assert len(twice) == len(once) and len(twice[-1].judgments) == len(fresh.judgments)  # replaced, not doubled
    where, walk = browse_target(demo, Selection(run.name, qid))
    assert where == {"key": f"{run.benchmark}:{run.mode}", "ref": qid}
    assert (walk["run"], walk["judged"]) == ("", run.name)  # no run of the session holds it: the judged response


def test_open_in_browse_from_judge_reads_the_judged_response():
    from mathreel.core.data import demo_dir
    from mathreel.core.judge.views import by_question
    from mathreel.webapp.browse_handlers import BrowseHandlers
    from mathreel.webapp.context import DatasetCache
    from mathreel.webapp.judge import Selection, browse_target
    from mathreel.webapp.judged_runs import load_demo_runs
    from mathreel.webapp.settings import Settings

    judged = next(r for r in load_demo_runs() if r.name.startswith("videomathqa_mcq_synthetic-model-b"))
    card = by_question(judged.judgments)[2]
    response = next(j.response for j in card.by_task.values() if j.response)
    handlers = BrowseHandlers(DatasetCache(Settings()))
    # with no run loaded: the response as the judge saw it, and the judge's reading marked among the options
    where, walk = browse_target([judged], Selection(judged.name, card.question_id), [])
    alone = handlers.reading(where["key"], where["ref"], [], walk, False, judge_runs=[judged])
    assert "(as judged)" in alone.response and response.split()[0] in alone.response
    assert alone.pick == (card.values("extract").get("answer") or None)
    assert "No run of yours holds it" in alone.position
    # with the run that was judged loaded (and another that was not): that run's response, walked
    runs, _ = score_uploads(
        [
            str(demo_dir() / "results" / name)
            for name in (
                "videomathqa_mcq_synthetic-model-a_samples.jsonl",
                "videomathqa_mcq_synthetic-model-b_samples.jsonl",
            )
        ],
        ScoreOptions(),
    )
    where, walk = browse_target([judged], Selection(judged.name, card.question_id), runs)
    assert walk["run"] == "videomathqa_mcq_synthetic-model-b_samples.jsonl" and walk["judged"] == ""
    read = handlers.reading(where["key"], where["ref"], runs, walk, False, judge_runs=[judged])
    assert "Model response · videomathqa_mcq_synthetic-model-b_samples.jsonl" in read.response


def test_the_judge_header_marks_gold_and_pick():
    from mathreel.core.data import load_dataset as demo_dataset
    from mathreel.core.judge.views import by_question
    from mathreel.webapp.judge_card import question_header
    from mathreel.webapp.judged_runs import load_demo_runs

    run = load_demo_runs()[0]
    card = next(
        c
        for c in by_question(run.judgments)
        if c.values("extract").get("answer") not in (None, "")
        and c.values("extract").get("answer") != demo_dataset(run.benchmark, run.mode).question(c.question_id).answer
    )
    question = demo_dataset(run.benchmark, run.mode).question(card.question_id)
    header = question_header(card, question, "<i>run</i>")
    pick = card.values("extract")["answer"]
    assert "Run: &lt;i&gt;run&lt;/i&gt;" in header
    assert f"✓ <strong>{question.answer}." in header and "correct answer" in header
    assert f"✗ <strong>{pick}." in header and "model's pick" in header


def test_a_chart_names_the_runs_it_cannot_show(vmqa, tmp_path):
    path = results_file(tmp_path / "run.jsonl", {"q0": "B", "q1": "A"})
    with_dim = score(read_results(path)).by
    without = {k: v for k, v in with_dim.items() if k != "category"}
    figure = charts.accuracy_bars([("a.jsonl", with_dim), ("<b>b.jsonl", without)], "category", "Category")
    # under the title, in a line of its own above the legend's row (the plot area starts below both)
    assert figure.layout.title.text == "Accuracy by category"
    assert figure.layout.title.subtitle.text == "Not shown: &lt;b&gt;b.jsonl (no category in the file)"
    assert figure.layout.showlegend is True and not figure.layout.annotations
    both = charts.accuracy_bars([("a.jsonl", with_dim), ("b.jsonl", with_dim)], "category", "Category")
    assert figure.layout.margin.t > both.layout.margin.t  # room made for the note line
    alone = charts.accuracy_bars([("a.jsonl", with_dim)], "category", "Category")
    assert alone.layout.title.text == "Accuracy by category" and not alone.layout.title.subtitle.text
    assert alone.layout.showlegend is False


def test_a_long_category_axis_is_horizontal_bars_sorted_by_accuracy_one_readable_row_each():
    from mathreel.core.benchmarks.videomme import SUB_CATEGORIES

    def cell(correct: int, n: int = 10) -> Cell:
        return Cell(n, correct, 100 * correct / n, Interval(0.0, 100.0))

    values = list(SUB_CATEGORIES)
    assert len(values) == 30
    first = {"sub_category": {v: cell((i * 7) % 11) for i, v in enumerate(values)}}
    second = {"sub_category": {v: cell(5) for v in values}}
    figure = charts.accuracy_bars(
        [("a_run_with_a_long_file_name_samples.jsonl", first), ("b.jsonl", second)], "sub_category", "Sub-category"
    )
    bars = figure.data
    assert all(bar.orientation == "h" for bar in bars)
    shown = list(figure.layout.yaxis.categoryarray)
    accuracy = {value: cell.accuracy for value, cell in first["sub_category"].items()}
    assert sorted(shown) == sorted(values)
    assert [accuracy[v] for v in shown] == sorted(accuracy.values())
    assert figure.layout.yaxis.autorange == "reversed"  # the weakest at the top
    assert list(bars[0].x) == [accuracy[v] for v in bars[0].y]
    assert figure.layout.height >= 30 * charts.ROW_PX  # a row per value, none on top of another
    assert bars[0].name == charts.short_name("a_run_with_a_long_file_name_samples.jsonl")
    assert len(bars[0].name) <= 24 and "a_run_with_a_long_file_name_samples.jsonl" in bars[0].hovertemplate


def test_every_score_figure_is_valid_plotly_with_the_white_look_and_a_compact_template(vmqa, tmp_path):
    """The Score figures are built unvalidated (fast, charts._figure): here Plotly validates each one whole, so a
    misspelt property fails, and the template kept is Plotly's white one minus what no Score chart draws."""
    import plotly.graph_objects as go
    import plotly.io as pio

    path = results_file(tmp_path / "run.jsonl", {"q0": "B", "q1": "A", "q2": "D", "q3": "B"})
    by = score(read_results(path)).by
    without = {k: v for k, v in by.items() if k != "category"}
    many = {"sub_category": {f"value number {i}": Cell(10, i, 10.0 * i, Interval(0.0, 100.0)) for i in range(9)}}
    figures = [
        charts.accuracy_bars([("a.jsonl", by), ("b.jsonl", without)], "category", "Category"),
        charts.accuracy_bars([("a.jsonl", many)], "sub_category", "Sub-category"),
        charts.cross_heatmap({"short": {"OCR": Cell(2, 1, 50.0, Interval(9.5, 90.5))}}, "t"),
        charts.paired_difference_bar("a − b", 4.2, [1.0, 7.5]),
    ]
    white = pio.templates["plotly_white"].to_plotly_json()
    for figure in figures:
        checked = go.Figure(figure.to_dict())  # validated: raises on any property Plotly does not know
        assert checked.to_plotly_json()["data"] == figure.to_plotly_json()["data"]
        template = figure.to_plotly_json()["layout"]["template"]
        assert template["layout"]["plot_bgcolor"] == white["layout"]["plot_bgcolor"]
        assert template["layout"]["xaxis"] == white["layout"]["xaxis"]
        assert template["data"]["bar"] == white["data"]["bar"]
        assert len(figure.to_json()) < len(go.Figure(figure.to_dict()).update_layout(template=white).to_json()) - 4000


def test_an_mcq_run_under_an_mbin_column_is_flagged_and_the_note_names_no_internal_wording():
    from mathreel.webapp.reference import mode_warning

    ref = load_references()["videomathqa"]
    mbin = next(key for key, s in ref.settings.items() if s["mode"] == "mbin")
    mcq = next(key for key, s in ref.settings.items() if s["mode"] == "mcq")
    warning = mode_warning(ref, mbin, [("run.jsonl", "mcq")])
    assert "Not comparable" in warning and "run.jsonl (mcq)" in warning
    assert mode_warning(ref, mcq, [("run.jsonl", "mcq")]) == ""
    words = " ".join(ref.notes).lower()
    assert "seed" not in words and "conversion" not in words


def test_an_empty_question_list_says_why():
    import pandas as pd

    from mathreel.webapp.browse_table import empty_note

    assert "No questions match “<b>”" not in empty_note(pd.DataFrame(), "<b>")
    assert "No questions match “&lt;b&gt;”" in empty_note(pd.DataFrame(), "<b>")
    assert "match these filters" in empty_note(pd.DataFrame(), "")
    assert empty_note(pd.DataFrame({"ID": ["q1"]}), "x") == ""


def test_no_event_shows_progress_on_a_table_chart_or_container():
    """Gradio's page re-reads every component that ever showed an event's progress on each later status change
    (a container with everything inside it): a big table, a chart or the tab container as a progress target slows
    every later click of the session (webapp.context.progress_on)."""
    import gradio as gr
    from gradio.blocks import BlockContext

    from mathreel.webapp.app import build_app

    app = build_app(Settings())
    heavy = []
    for fn in app.fns.values():
        targets = fn.show_progress_on if fn.show_progress_on is not None else fn.outputs
        heavy += [
            f"{fn.name}: {type(t).__name__} {t.elem_id}"
            for t in targets
            if isinstance(t, (gr.Dataframe, gr.Plot)) or (isinstance(t, BlockContext) and not isinstance(t, gr.HTML))
        ]
    assert len(app.fns) > 50
    assert heavy == []


def test_a_link_carries_the_walked_list_and_the_browser_keeps_the_last_one():
    import json
    import time
    from urllib.parse import parse_qsl

    from mathreel.webapp.browse_address import link_query, saved_position, url_walk
    from mathreel.webapp.reading_flow import Walk

    walk = Walk("run a.jsonl", "judge:Calculation errors", "category=Chart", True)
    query = link_query("videomathqa:mcq", "q3", walk)
    params = dict(parse_qsl(query))
    assert (params["benchmark"], params["q"]) == ("videomathqa:mcq", "q3")
    assert url_walk(params) == walk  # the same list comes back from the address
    assert url_walk({"run": "a.jsonl", "walk": "<script>"}) == Walk("a.jsonl")  # an unknown list: the default
    assert url_walk({"q": "q3"}) is None and link_query("videomme:mcq", "001-1", Walk()).count("&") == 1
    now = time.time()
    kept = json.dumps({"query": query, "at": now * 1000 - 86_400_000})
    assert saved_position(kept, 7, now) == params  # a day old: the app opens on it
    assert saved_position(kept, 0, now) == {}  # older than the days stated: forgotten
    assert saved_position("{not json", 7, now) == saved_position(None, 7, now) == {}
