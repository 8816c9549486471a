"""Score's explain panel, handler by handler (no browser): the reference table names every reader of the benchmark
with its source and commit, a gap's rows add up to the gap, each cause's walk list holds exactly that cause's
questions and Browse walks it, and bad figures are one line in the page's words."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import sys
import zlib
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.errors import MathReelError
from mathreel.webapp import reading_flow as rd
from mathreel.webapp import score_explain as se
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
V2_A = "videomme-v2_synthetic-model-a_predictions.tsv"
V2_B = "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl"
MCQ_A = "videomathqa_mcq_synthetic-model-a_samples.jsonl"


@pytest.fixture(scope="module")
def runs():
    found, errors = score_uploads([str(DEMO / name) for name in (V2_A, V2_B, MCQ_A)], ScoreOptions())
    assert errors == []
    return found


def test_against_offers_same_benchmark_runs_other_scorers_and_a_figure(runs):
    values = [value for _, value in se.against_choices(runs, V2_A)]
    assert values[0] == se.NOTHING and values[-1] == se.FIGURE
    assert se.RUN + V2_B in values and se.RUN + MCQ_A not in values  # another benchmark cannot be compared
    assert [v for v in values if v.startswith(se.READER)] == [
        se.READER + n for n in ("official", "lmms-eval", "evalscope")
    ]


def test_reference_table_names_every_reader_with_source_and_commit(runs):
    view = se.explain_view(runs, V2_A, se.NOTHING)
    table = view.references
    bench = get_benchmark("videomme-v2")
    assert list(table["Scorer"]) == ["robust", *bench.reproductions]
    commits = dict(zip(table["Scorer"], table["Commit"], strict=True))
    assert all(commits[name] == scorer.commit for name, scorer in bench.reproductions.items())
    assert {"all", "answered"} <= set(table.columns)  # both denominators
    assert any("group score" in column for column in table.columns)
    official = table[table["Scorer"] == "official"].iloc[0]
    starred = [column for column in table.columns if str(official[column]).endswith("*")]
    assert starred == ["group score (official policy)"]  # the figure the official script reports
    assert view.lists is None and view.walks == []  # nothing to compare with: no causes


def test_two_runs_gap_rows_add_up_and_walk_their_questions(runs):
    found = se.explanation(runs, V2_A, se.RUN + V2_B)
    view = se.explain_view(runs, V2_A, se.RUN + V2_B)
    assert view.references is not None  # the run shown's references, even against another run
    causes = [step for step in found.gap.steps if step.delta or step.changes]
    assert sum((step.delta for step in causes), Fraction(0)) == found.gap.total
    rows = view.lists.to_dict("records")
    assert [row["List"] for row in rows] == [*(s.cause for s in causes), "A right, B wrong", "B right, A wrong"]
    for step, walk in zip(causes, view.walks, strict=False):
        assert walk["ids"] == step.question_ids and walk["run"] == V2_A
    assert view.walks[-2]["ids"] == found.paired.only_a_ids and view.walks[-1]["ids"] == found.paired.only_b_ids
    o = found.paired.overall
    assert f"| **A right** | {o.both} | {o.only_a} |" in view.summary
    assert f"McNemar p = **{o.p_value:.4g}**" in view.summary
    assert view.flips.iloc[0]["n"] == o.n


def test_a_cause_opens_browse_on_its_first_question_and_walks_only_its_list(runs):
    view = se.explain_view(runs, V2_A, se.READER + "official")
    index = next(i for i, row in enumerate(view.lists.to_dict("records")) if row["List"] == "reading")
    key, ref, walk_value = se.open_target(runs, view.walks, index)
    walk = rd.Walk.of(walk_value)
    assert key == "videomme-v2:mcq" and ref == walk.ids[0]
    ids = rd.walk_ids(runs, walk)
    assert ids == list(walk.ids) and len(ids) == view.lists.iloc[index]["Questions"]
    assert rd.position_text(ids, ref, walk).startswith(f"**1 of {len(ids)}** reading (answers read differently)")
    assert rd.step(ids, ids[-1], 1) == ids[-1]  # the walk stays in the cause's list
    # choosing a list in Browse's own controls leaves the cause's list
    assert rd.walk_ids(runs, rd.Walk(run=V2_A, status="all")) != ids
    assert se.open_target(runs, view.walks, len(view.walks)) is None


def test_a_figure_typed_or_unreachable(runs):
    found = se.explanation(runs, MCQ_A, se.FIGURE, "40")
    assert found.gap.b == "40 (typed)" and found.gap.parts_add_up()
    assert found.gap.steps[-1].cause == "unexplained" and any("nearest" in note for note in found.gap.notes)
    for text in ("", "about half", "GPT-4o/nope"):
        with pytest.raises(MathReelError) as error:
            se.explanation(runs, MCQ_A, se.FIGURE, text)
        assert "--" not in str(error.value)  # the page's words, not a command-line flag


def test_no_run_is_a_message(runs):
    with pytest.raises(MathReelError, match="score a result file first"):
        se.explain_view([], None, se.NOTHING)


def cli_explain(*args: str) -> str:
    """What `mathreel explain` prints run beside the demo files, naming them as the page does (by file name); line
    ends as printed."""
    mathreel = Path(sys.executable).with_name("mathreel")
    run = subprocess.run([str(mathreel), "explain", *args], capture_output=True, timeout=120, cwd=DEMO, check=True)
    return run.stdout.decode("utf-8")


@pytest.mark.parametrize(
    ("name", "against", "figure", "flags"),
    [
        (V2_A, se.RUN + V2_B, "", (V2_A, V2_B)),
        (V2_A, se.READER + "official", "", (V2_A, "--extractor", "robust", "--extractor", "official")),
        (MCQ_A, se.FIGURE, "40", (MCQ_A, "--against", "40")),
    ],
    ids=["two runs", "two scorers", "a figure"],
)
def test_the_downloads_are_what_mathreel_explain_prints(runs, tmp_path, name, against, figure, flags):
    view = se.comparison_view(se.explanation(runs, name, against, figure))
    json_path, csv_path = se.write_downloads(tmp_path, view.found)
    assert json.loads(Path(json_path).read_text(encoding="utf-8")) == json.loads(cli_explain(*flags, "--json"))
    assert Path(csv_path).read_bytes().decode("utf-8") == cli_explain(*flags, "--csv")


def test_one_click_shows_the_table_then_the_comparison(runs, tmp_path):
    downloads = SimpleNamespace(fresh=lambda: tmp_path)
    first, second = list(se.explain_steps(downloads, runs, V2_A, se.RUN + V2_B, ""))
    assert first[1]["visible"] and first[1]["value"] is not None and first[4]["visible"] is False  # table, no causes
    assert "McNemar p" in second[3] and second[4]["visible"] and len(second[6]) == len(second[4]["value"])
    assert [Path(p).suffix for p in second[7]["value"]] == [".json", ".csv"]


def test_a_failure_is_one_line_naming_the_file(runs, tmp_path, monkeypatch):
    warned = []
    monkeypatch.setattr("gradio.Warning", lambda *a, **k: warned.append(a))
    downloads = SimpleNamespace(fresh=lambda: tmp_path)
    updates = list(se.explain_steps(downloads, runs, MCQ_A, se.FIGURE, "about half"))
    # the table came first; then the figure's problem, once, in the error box (no toast beside it)
    assert len(updates) == 2 and warned == []
    box = updates[-1][0]
    assert box["visible"] and box["value"].count("Error") == 1
    assert MCQ_A.replace("_", "\\_") in box["value"] and "about half" in box["value"] and "--" not in box["value"]
    assert all(value == {"__type__": "update"} for value in updates[-1][1:])  # the rest left as it was
    # no run at all: one update, the error
    (only,) = list(se.explain_steps(downloads, [], None, se.NOTHING, ""))
    assert "score a result file first" in only[0]["value"]


def test_same_frames_side_by_side(runs):
    from mathreel.core.data import load_dataset
    from mathreel.core.defaults import DEFAULT_FRAMES
    from mathreel.core.explain.frames import FramePlan, compare_on_question

    datasets = SimpleNamespace(get=lambda benchmark, mode: load_dataset(benchmark, mode))
    text, table = se.same_frames(datasets, runs, MCQ_A, se.NOTHING, "q001", "", "8/midpoints")
    # A: the run's plan, which records no frame count: the count Browse shows it with (DEFAULT_FRAMES)
    found = compare_on_question(
        load_dataset("videomathqa", "mcq"), "q001", FramePlan(DEFAULT_FRAMES), FramePlan(8, "midpoints")
    )
    assert list(table["A frame"][: len(found.a_frames)]) == [row.index for row in found.a_frames]
    assert list(table["B frame"][: len(found.b_frames)]) == [row.index for row in found.b_frames]
    assert "different frames" in text and "len/(n+1) steps" in text
    for bad, words in (("zero", "B's frame plan “zero”"), ("0", "B's frame plan “0”")):
        with pytest.raises(MathReelError, match=words) as error:
            se.same_frames(datasets, runs, MCQ_A, se.NOTHING, "q001", "", bad)
        assert "--plan" not in str(error.value)
    with pytest.raises(MathReelError, match="Question “nope”"):
        se.same_frames(datasets, runs, MCQ_A, se.NOTHING, "nope", "", "")


def test_a_cause_walk_list_travels_in_the_address(runs):
    from urllib.parse import parse_qsl

    from mathreel.webapp.browse_address import link_query, url_walk

    view = se.explain_view(runs, V2_A, se.RUN + V2_B)
    walk = rd.Walk.of(view.walks[0])
    query = link_query("videomme-v2:mcq", walk.ids[0], walk)
    assert url_walk(dict(parse_qsl(query))) == walk  # the same list, its name and run come back
    assert "list=" in query
    # a cause of 1,437 questions of a 2,700-answer Video-MME run fits in an address
    every = [f"{video:03d}-{k}" for video in range(1, 901) for k in (1, 2, 3)]
    cause = tuple(sorted(random.Random(1).sample(every, 1437), key=every.index))
    assert rd.unpack_ids(rd.pack_ids(cause)) == cause
    params = dict(parse_qsl(query))
    for tampered in (params["list"][:-3], "AAAA", "%%%", rd.pack_ids(("a",) * 5) + "x"):
        assert url_walk({**params, "list": tampered}).ids == ()  # a bad list: the run's own list instead
    bomb = base64.urlsafe_b64encode(zlib.compress(b"a\n" * 1_000_000, 9)).decode()  # 2 MB from a short address
    assert len(bomb) < rd.LINK_LIST_LIMIT and rd.unpack_ids(bomb) == ()
    # a list too long for an address stays out of it (the link then walks the run)
    long_walk = rd.Walk(run=V2_A, status="all", ids=tuple(f"{i:x}{i * 7919 % 104729}" for i in range(20_000)))
    assert "list=" not in link_query("videomme-v2:mcq", "q", long_walk)
    # the list's name is shown as text
    named = rd.Walk(run=V2_A, status="all", ids=("a",), listed="*bold* <b>x</b>")
    assert "\\*bold\\*" in rd.position_text(["a"], "a", named) and "<b>" not in rd.position_text(["a"], "a", named)


def test_same_frames_refuses_a_question_that_is_not_the_servers():
    """A real Video-MME file's 001-1 is not the demo's 001-1 (another video): its frames are not compared on the
    demo's video, and the message says why, naming the file and the question."""
    from mathreel.core.data import load_dataset
    from mathreel.core.errors import MathReelError

    template = DEMO.parents[2] / "tests" / "data" / "results" / "videomme_template.json"
    found, errors = score_uploads([str(template)], ScoreOptions())
    assert errors == []
    datasets = SimpleNamespace(get=lambda benchmark, mode: load_dataset(benchmark, mode))
    with pytest.raises(MathReelError) as raised:
        se.same_frames(datasets, found, found[0].name, se.NOTHING, "001-1", "", "")
    message = str(raised.value)
    assert "“001-1” of videomme_template.json" in message and "not the server's question 001-1" in message
    assert "no frames to compare" in message
