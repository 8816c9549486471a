"""What a newcomer meets opening their own file in Browse: an unknown `?benchmark=` key in the address is said to
be unknown (with the known ones) and the default view kept, a bare benchmark name opens its first mode; the other
tabs open Browse on a question in one round trip (`BrowseLinks.jump`), as Explain does; a question always comes
with its own answer; the ends of a walk are said; the settings line names only what the benchmark has.

The load handlers are the app's own (found by name among the built app's events) run on the embedded demo set.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers.colliding import colliding_file, file_questions

from mathreel.webapp.benchmark_keys import benchmark_choices
from mathreel.webapp.browse_address import url_target
from mathreel.webapp.browse_panels import PAGE_OUTPUTS
from mathreel.webapp.settings import Settings

KEYS = [key for _, key in benchmark_choices()]
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def app() -> Any:
    from mathreel.webapp.app import build_app

    return build_app(Settings())


def handler(app: Any, name: str) -> Any:
    found = [fn.fn for fn in app.fns.values() if fn.name == name]
    assert found, name
    return found[0]


def load_view(app: Any, query: dict[str, str]) -> tuple[tuple, tuple]:
    """What the page's load chain gives for an address: from_url's values, then the first question's page."""
    request = SimpleNamespace(query_params=query)
    key, target, walk, *_ = handler(app, "from_url")(None, [], request)
    shown_key = key["value"] if isinstance(key, dict) and "value" in key else KEYS[0]
    page = handler(app, "first_question")(shown_key, 8, False, False, False, False, 0.0, "", target, [], walk)
    return (key, target, walk), page


def text_of(update: Any) -> str:
    return str(update.get("value", "")) if isinstance(update, dict) else str(update)


def test_an_unknown_benchmark_key_is_named_with_the_known_ones_and_the_default_view_kept(app):
    (key, target, walk), page = load_view(app, {"benchmark": "videomath", "q": "001-1", "run": "mine.json"})
    error = page[PAGE_OUTPUTS.index("error")]
    assert error["visible"] is True
    message = text_of(error)
    assert "**videomath**" in message and "does not know" in message
    assert all(f"`{k}`" in message for k in KEYS) and f"Showing {benchmark_choices()[0][0]} instead" in message
    assert walk is None and target["ref"] == ""  # the id and run belong to the unknown benchmark: not used
    assert not isinstance(key, dict) or "value" not in key  # the benchmark chooser is left on its default
    default = page[PAGE_OUTPUTS.index("state")]
    assert default["key"] == KEYS[0] and default["ref"]  # the default benchmark's first question is shown


def test_a_known_key_and_a_bare_benchmark_name_open_the_question_without_a_notice(app):
    (key, _, _), page = load_view(app, {"benchmark": "videomme", "q": "002-1"})
    assert key["value"] == "videomme:mcq"
    assert page[PAGE_OUTPUTS.index("state")]["ref"] == "002-1"
    assert "does not know" not in text_of(page[PAGE_OUTPUTS.index("error")])
    assert url_target({"benchmark": "videomathqa:mbin"}, KEYS)[0] == "videomathqa:mbin"
    assert url_target({"benchmark": "<img src=x>"}, KEYS)[1]["notice"].count("<img") == 0  # escaped


def scored_colliding(tmp_path: Path) -> tuple[list, dict[str, str]]:
    """A real-format Video-MME file whose ids collide with the demo's, scored as the Score tab scores it."""
    from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

    path = colliding_file(tmp_path / "videomme_template.json")
    runs, errors = score_uploads([str(path)], ScoreOptions())
    assert errors == []
    return runs, file_questions(path)


def test_next_sends_the_new_question_with_its_own_answer_each_in_its_place(app, tmp_path: Path):
    """`j` from 001-1: the one update names 001-2 in the header, holds 001-2's response (not 001-1's) in the
    response panel and the position in the position line (the outputs and values in the same order)."""
    runs, own = scored_colliding(tmp_path)
    step = next(fn for fn in app.fns.values() if fn.name == "next_question")
    walk = {"run": runs[0].name, "status": "all", "dim_filter": "", "disagree": False}
    view = [getattr(c, "value", None) for c in step.inputs[8:]]
    *_, last = step.fn({"key": "videomme:mcq", "ref": "001-1"}, None, runs, walk, False, [], "reviewer", None, *view)
    out = dict(zip(event_ids(step.outputs), last, strict=True))
    rows = {r.question_id: r for r in runs[0].report.rows}
    assert own["001-2"] in text_of(out["browse-question"])
    response = text_of(out["browse-response"])
    assert rows["001-2"].response in response and f"gold **{rows['001-2'].gold}**" in response
    assert rows["001-1"].response not in response
    assert text_of(out["browse-position"]).startswith("**2 of 18**")


def test_every_event_that_shows_a_question_shows_its_answer_in_the_same_update(app):
    """A question switch comes in two phases (frames first, the rest after the paint): the answer must come with
    the question's header, or the previous answer's verdict ("correct · read D · gold D") sits under the new
    question, with its own gold and pick, until the second phase is back."""
    by_id = {"browse-question", "browse-response", "browse-compare"}
    switches = []
    for fn in app.fns.values():
        ids = {getattr(c, "elem_id", None) for c in fn.outputs} & by_id
        if "browse-question" in ids:
            switches.append(fn.name)
            assert ids == by_id, f"{fn.name} shows the question without its answer"
    assert {"next_question", "previous_question", "select_row"} <= set(switches)


def event_ids(components: list) -> list[str | None]:
    return [getattr(c, "elem_id", None) for c in components]


def test_score_judge_and_explain_open_browse_in_one_event(app):
    """Each opens Browse through `BrowseLinks.jump` (one round trip), not a chain of walk controls, settings and
    page events."""
    opening = [fn for fn in app.fns.values() if fn.name == "pick" and "browse-question" in event_ids(fn.outputs)]
    assert len(opening) == 3  # Score's row, Judge's "open in Browse", Explain's list
    assert not [fn.name for fn in app.fns.values() if fn.name in {"walk_controls", "open_question"}]


def test_a_scored_row_opens_its_own_question_and_answer_in_that_event(app, tmp_path: Path):
    """Score's row click on a real-format file whose ids collide with the demo's: the one event shows the file's
    question (with the collision warning), the file's response and the walk's position."""
    runs, own = scored_colliding(tmp_path)
    pick = next(
        fn
        for fn in app.fns.values()
        if fn.name == "pick" and "score-run" in event_ids(fn.inputs) and "browse-question" in event_ids(fn.outputs)
    )
    values = [getattr(c, "value", None) for c in pick.inputs[4:]]  # Browse's controls as the page starts them
    qid = "001-2"
    out = dict(
        zip(
            event_ids(pick.outputs),
            pick.fn(SimpleNamespace(row_value=[qid], index=[1, 0]), runs, runs[0].name, "all", "", *values),
            strict=True,
        )
    )
    header, response = str(out["browse-question"]), str(out["browse-response"])
    assert own[qid] in header and "is not the server's question" in header
    row = next(r for r in runs[0].report.rows if r.question_id == qid)
    assert row.response.strip() in response
    assert "2 of 18" in str(out["browse-position"])


def test_next_at_the_end_of_the_list_says_so_and_leaves_the_page(app, tmp_path: Path, capsys):
    """`j` on the last answer (and `k` on the first) used to show the same question again, saying nothing: a reader
    at "18 of 18" pressed on and saw no change."""
    runs, _ = scored_colliding(tmp_path)
    walk = {"run": runs[0].name, "status": "all", "dim_filter": "", "disagree": False}
    for name, ref, word in (("next_question", "006-3", "last"), ("previous_question", "001-1", "first")):
        step = next(fn for fn in app.fns.values() if fn.name == name)
        view = [getattr(c, "value", None) for c in step.inputs[8:]]
        shown = {"key": "videomme:mcq", "ref": ref}
        *_, last = step.fn(shown, None, runs, walk, False, [], "reviewer", None, *view)
        assert f"the {word} answer of the list" in capsys.readouterr().out  # gr.Info outside a page prints it
        assert all(isinstance(v, dict) and v.get("__type__") == "update" and len(v) == 1 for v in last)  # skips


def test_the_settings_line_names_only_what_the_benchmark_has(tmp_path: Path):
    """MathVerse's real 5-answer output: no "Frames: 8" or subtitles over a diagram question; Video-MME: frames and
    subtitles but no chain of thought (it has none)."""
    from mathreel.webapp.reading_flow import settings_note
    from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

    mathverse, errors = score_uploads([str(REPO / "tests/data/results/mathverse_output.json")], ScoreOptions())
    assert errors == []
    note = settings_note(mathverse[0])
    assert note.startswith("_The prompt follows mathverse_output.json: Chain of thought:")
    assert "Frames" not in note and "Subtitles" not in note
    videomme, _ = scored_colliding(tmp_path)
    note = settings_note(videomme[0])
    assert note.startswith("_Prompt and frames follow") and "Frames: " in note and "Subtitles in prompt" in note
    assert "Chain of thought" not in note


def test_the_headline_says_why_n_is_smaller_than_the_file():
    """MathVerse's real output of 5 answers scores n = 4 with nothing unparsed or missing: the headline says one
    answer is outside the overall figure by the benchmark's rule, as `mathreel score` does."""
    from mathreel.webapp.score import headline_markdown
    from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

    runs, _ = score_uploads([str(REPO / "tests/data/results/mathverse_output.json")], ScoreOptions())
    text = headline_markdown(runs)
    assert "n = 4" in text and "1 answer is outside the overall figure by the benchmark's rule" in text
    videomme, _ = score_uploads([str(REPO / "tests/data/results/videomme_template.json")], ScoreOptions())
    assert "outside the overall figure" not in headline_markdown(videomme)
